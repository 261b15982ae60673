import AgentWarrant.Spec.Monitor.Policy
/-! Registration checks on a policy (Agenra Section 6.1: "Registration has unique names, valid
references and labels, and satisfies Section 5's tool/resolver constraints"), as a judgment beside
the monitor's evaluation: what `agentwarrant monitor check` validates, on the policy the whole
monitor reads (`Policy`).

`registrationOk p` is the conjunction of the checks; `registrationErrors p` names the ones `p` fails. The checks, per declaration:
* unique names of nodes, edges, agents, tools, origin rules, history rules and resolver slots;
* an edge has at least one endpoint pair, both ends declared nodes, the pairs distinct;
* an agent's operations are edges;
* a tool's operation is an edge, its source and destination are nodes the edge permits as a pair, its
  required arguments are among its arguments, it has at least one effect, an effect's resource
  argument is one of its arguments, and an effect's resource constant is not an array or object;
* a resolver names a tool, supplies only that tool's arguments, and all of its required ones;
* an origin rule's `via`, `producer` and `preserving` name edges or tools, and its argument is an
  argument of the `via` tool or, when `via` is only an edge, of some tool performing it;
* a flow rule's operation is an edge or `*`; a request sink names a tool, one of its arguments or `*`,
  and `*` or the tool's operation; any other destination is a node or `*`;
* an audience names a node and has at least one effect pattern;
* a history rule's three operations name edges or tools;
* a permission entry's slot pattern names a resolver slot; a predicate has a non-empty path, a
  `one_of` at least one value, a range at least one bound and low ≤ high; a deny entry carries
  quota one, no requirement and no permit.
A level named by a node's label, an agent's ceiling, a propagation or a flow guard must be declared:
a check on the form (`levelRefs`), which the oracle's decoder (`Oracle/Registration.lean`) also makes
while ranking them; a decoding failure is a registration error.

Outside this judgment, because the Lean policy does not carry what they read: the syntax of names
(identifiers, no reserved word) and of action names and result paths; the level list being
non-empty and repeat-free, and category references (the decoder keeps only declared categories);
declared requirements; which result paths a tool declares authoritative (a resolver's path); node
kinds (an audience's node is a sink); and the numeric domain of quotas, decrements, constants and
range bounds (safe integers). The JSON schema's structural checks (field types, required and unknown
fields, enumerations) are a judgment of their own, `Spec/Monitor/RegistrationSchema.lean`, which the
oracle's `policy_check` requires beside these. A string cannot hold a lone surrogate here: a Lean
`Char` is a Unicode scalar value, and the oracle's parser refuses the escape. -/
namespace AgentWarrant.Monitor.Full
open Lean AgentWarrant.Monitor

/-- No name occurs twice. -/
def uniqS : List String → Bool
  | [] => true
  | x :: xs => !memS x xs && uniqS xs

def subS (xs ys : List String) : Bool := xs.all (fun x => memS x ys)

def memPair (a : String × String) (l : List (String × String)) : Bool := l.any (fun b => b.1 == a.1 && b.2 == a.2)

def uniqPairs : List (String × String) → Bool
  | [] => true
  | x :: xs => !memPair x xs && uniqPairs xs

def Policy.nodeNames (p : Policy) : List String := p.nodes.map (·.name)
def Policy.edgeNames (p : Policy) : List String := p.edges.map (·.name)
def Policy.toolNames (p : Policy) : List String := p.tools.map (·.name)
def Policy.ops (p : Policy) : List String := p.edgeNames ++ p.toolNames
def Policy.slots (p : Policy) : List String := p.resolvers.map (·.slot)

def Policy.tool? (p : Policy) (n : String) : Option Tool := p.tools.find? (fun t => t.name == n)
def Policy.edge? (p : Policy) (n : String) : Option Edge := p.edges.find? (fun e => e.name == n)

def edgeOk (p : Policy) (e : Edge) : Bool :=
  !e.endpoints.isEmpty && (e.endpoints.all (fun ab => memS ab.1 p.nodeNames && memS ab.2 p.nodeNames)
    && uniqPairs e.endpoints)

/-- A tool's resource constant is not an array or object: an effect's resource is a JSON scalar or
null (the Python model's registration refuses the others, as not a JSON scalar; the numeric domain of a
number is the form's check, `scalars`). -/
def resConstOk : Json → Bool
  | Json.arr _ => false
  | Json.obj _ => false
  | _ => true

def effArgOk (t : Tool) (d : EffDecl) : Bool := match d.res with
  | ResRef.const v => resConstOk v
  | ResRef.arg a => memS a t.args
  | ResRef.listArg a => memS a t.args

/-- The pair a tool's endpoints must be among: its edge's (the first edge of that name). -/
def endpointsOk (p : Policy) (t : Tool) : Bool := match p.edge? t.operation with
  | some e => memPair (t.source, t.destination) e.endpoints
  | none => true

def toolOk (p : Policy) (t : Tool) : Bool :=
  memS t.operation p.edgeNames && (memS t.source p.nodeNames && (memS t.destination p.nodeNames
    && (endpointsOk p t && (subS t.required t.args && (!t.effects.isEmpty && t.effects.all (effArgOk t))))))

def argNames (j : Json) : Option (List String) := match j with
  | Json.obj kvs => some ((pairs kvs).map Prod.fst)
  | _ => none

def resolverOk (p : Policy) (r : Resolver) : Bool := match p.tool? r.tool, argNames r.args with
  | some t, some ks => subS ks t.args && subS t.required ks
  | _, _ => false

/-- The arguments an origin rule's `via` can carry: the tool's, or every tool's performing the edge. -/
def viaArgs (p : Policy) (via : String) : List String := match p.tool? via with
  | some t => t.args
  | none => (filt (fun t => t.operation == via) p.tools).foldr (fun t acc => t.args ++ acc) []

def regOriginOk (p : Policy) (o : Origin) : Bool :=
  memS o.via p.ops && (memS o.producer p.ops && (subS o.preserving p.ops && memS o.argument (viaArgs p o.via)))

/-- A request sink's tool: its argument and operation. -/
def sinkOk (p : Policy) (f : XFlow) (a : String) : Bool := match p.tool? f.destination with
  | some t => (a == "*" || memS a t.args) && (f.operation == "*" || f.operation == t.operation)
  | none => false

def flowOk (p : Policy) (f : XFlow) : Bool :=
  (f.operation == "*" || memS f.operation p.edgeNames) && (match f.argument with
    | some a => sinkOk p f a
    | none => f.destination == "*" || memS f.destination p.nodeNames)

def regPatOk (p : Policy) : Pat → Bool
  | Pat.slot s => memS s p.slots
  | _ => true

def rangeOk : Option JsonNumber → Option JsonNumber → Bool
  | none, none => false
  | some l, some h => numLe l h
  | _, _ => true

def predOk : Pred → Bool
  | Pred.eq path _ => !path.isEmpty
  | Pred.oneOf path vs => !path.isEmpty && !vs.isEmpty
  | Pred.range path lo hi => !path.isEmpty && rangeOk lo hi

def denyOk (g : Grant) : Bool := g.allow || (Decidable.decide (g.quota = some 1) && (g.requires.isNone && !g.permit))

def grantOk (p : Policy) (g : Grant) : Bool := regPatOk p g.pat && (g.preds.all predOk && denyOk g)

def audienceOk (p : Policy) (a : Audience) : Bool :=
  memS a.node p.nodeNames && (!a.effects.isEmpty && a.effects.all (fun e => regPatOk p e.pat))

def regHistoryOk (p : Policy) (h : History) : Bool :=
  memS h.after p.ops && (memS h.require p.ops && memS h.before p.ops)

/-- Every registration check, as one conjunction (`Thm/Monitor/Registration.lean` states its meaning). -/
def registrationOk (p : Policy) : Bool :=
  uniqS p.nodeNames && (uniqS p.edgeNames && (uniqS (p.agents.map (·.name)) && (uniqS p.toolNames &&
  (uniqS (p.origins.map (·.name)) && (uniqS (p.histories.map (·.name)) && (uniqS p.slots &&
  (p.edges.all (edgeOk p) && (p.agents.all (fun a => subS a.ops p.edgeNames) && (p.tools.all (toolOk p) &&
  (p.resolvers.all (resolverOk p) && (p.origins.all (regOriginOk p) && (p.xflows.all (flowOk p) &&
  (p.audiences.all (audienceOk p) && (p.histories.all (regHistoryOk p) && (p.user.all (grantOk p) &&
  p.app.all (grantOk p))))))))))))))))

/-- The checks `p` fails, by name, for the oracle's diagnostics (empty exactly when `registrationOk`,
which the differential test checks alongside the verdict). -/
def registrationErrors (p : Policy) : List String :=
  let checks : List (String × Bool) := [
    ("unique node names", uniqS p.nodeNames),
    ("unique edge names", uniqS p.edgeNames),
    ("unique agent names", uniqS (p.agents.map (·.name))),
    ("unique tool names", uniqS p.toolNames),
    ("unique origin names", uniqS (p.origins.map (·.name))),
    ("unique history names", uniqS (p.histories.map (·.name))),
    ("unique resolver slots", uniqS p.slots),
    ("edges", p.edges.all (edgeOk p)),
    ("agents", p.agents.all (fun a => subS a.ops p.edgeNames)),
    ("tools", p.tools.all (toolOk p)),
    ("resolvers", p.resolvers.all (resolverOk p)),
    ("origins", p.origins.all (regOriginOk p)),
    ("flows", p.xflows.all (flowOk p)),
    ("audiences", p.audiences.all (audienceOk p)),
    ("histories", p.histories.all (regHistoryOk p)),
    ("user entries", p.user.all (grantOk p)),
    ("application entries", p.app.all (grantOk p))]
  (filt (fun c => !c.2) checks).map (·.1)

-- the declarations' form: what the whole monitor's policy does not carry -----------------------

/-- What the declaration checks read from a policy's JSON form beyond the `Policy` the monitor
evaluates (collected by the oracle's decoder, `Oracle/Registration.lean`, from every place of the form
that holds one). -/
structure Form where
  /-- Every place that must hold a name: the policy's, levels, categories, requirements, the names of
  nodes, edges, agents, tools, origin and history rules, resolver slots, tool arguments, entry keys,
  and the steps of predicate paths. -/
  names : List String
  /-- Action names (of tool effects, audience effects, entries) and authoritative result paths. -/
  dotted : List String
  levels : List String
  categories : List String
  /-- Categories named by node labels, transforms (`remove`) and flow guards. -/
  catRefs : List String
  requirements : List String
  /-- Requirements named by allow entries. -/
  reqRefs : List String
  /-- Each tool's name and the result paths it declares authoritative. -/
  authoritative : List (String × List String)
  /-- Each resolver's tool and result path. -/
  resolverPaths : List (String × String)
  /-- The names of the nodes of kind `sink`. -/
  sinks : List String
  audienceNodes : List String
  /-- Decrements and finite allow quotas: non-negative integers within 2^53 - 1. -/
  counts : List Json
  /-- Constants (of effects, resource patterns, resolver arguments, `eq` and `one_of`): JSON scalars. -/
  scalars : List Json
  /-- Range bounds: numbers. -/
  bounds : List Json
  /-- Levels named by node labels, agents' ceilings, transforms and flow guards. -/
  levelRefs : List String

def reservedWords : List String :=
  ["policy", "levels", "categories", "requirement", "node", "edge", "agent", "tool", "resolve", "origin",
   "flow", "history", "user", "application", "audience", "true", "false", "null"]

def identStart (c : Char) : Bool := ('A' ≤ c && c ≤ 'Z') || ('a' ≤ c && c ≤ 'z') || c == '_'
def identChar (c : Char) : Bool := identStart c || ('0' ≤ c && c ≤ '9')

/-- An ASCII identifier `[A-Za-z_][A-Za-z0-9_]*` that is not a reserved word. -/
def isNameB (s : String) : Bool := match s.toList with
  | [] => false
  | c :: cs => identStart c && (cs.all identChar && !memS s reservedWords)

/-- Names joined by dots (`message.send`, `meta.addr`). -/
def isDottedB (s : String) : Bool := (s.splitOn ".").all isNameB

/-- 2^53 - 1, the largest integer every reader of the project's JSON reads exactly. -/
def safeInt : Nat := 9007199254740991

def pow10N : Nat → Nat
  | 0 => 1
  | n + 1 => 10 * pow10N n

/-- A decimal `m · 10^-e` within ±(2^53 - 1). -/
def safeNum (x : JsonNumber) : Bool := Decidable.decide (Int.natAbs x.mantissa ≤ safeInt * pow10N x.exponent)

def isCount : Json → Bool
  | Json.num ⟨Int.ofNat m, 0⟩ => Decidable.decide (m ≤ safeInt)
  | _ => false

def isScalarOk : Json → Bool
  | Json.null => true
  | Json.bool _ => true
  | Json.str _ => true
  | Json.num x => safeNum x
  | _ => false

def isBound : Json → Bool
  | Json.num x => safeNum x
  | _ => false

/-- A resolver's path is one its tool declares authoritative. -/
def authOk (f : Form) (r : String × String) : Bool :=
  f.authoritative.any (fun t => t.1 == r.1 && memS r.2 t.2)

/-- Every declaration check on the form, as one conjunction (`Thm/Monitor/Registration.lean` states
its meaning, `formOkIff`). -/
def formOk (f : Form) : Bool :=
  f.names.all isNameB && (f.dotted.all isDottedB && (!f.levels.isEmpty && (uniqS f.levels &&
  (subS f.catRefs f.categories && (subS f.reqRefs f.requirements && (f.resolverPaths.all (authOk f) &&
  (subS f.audienceNodes f.sinks && (f.counts.all isCount && (f.scalars.all isScalarOk &&
  (f.bounds.all isBound && subS f.levelRefs f.levels))))))))))

def formErrors (f : Form) : List String :=
  let checks : List (String × Bool) := [
    ("name syntax", f.names.all isNameB),
    ("action and path syntax", f.dotted.all isDottedB),
    ("levels declared", !f.levels.isEmpty),
    ("unique levels", uniqS f.levels),
    ("category references", subS f.catRefs f.categories),
    ("requirement references", subS f.reqRefs f.requirements),
    ("authoritative resolver paths", f.resolverPaths.all (authOk f)),
    ("audience nodes are sinks", subS f.audienceNodes f.sinks),
    ("counts", f.counts.all isCount),
    ("scalars", f.scalars.all isScalarOk),
    ("range bounds", f.bounds.all isBound),
    ("level references", subS f.levelRefs f.levels)]
  (filt (fun c => !c.2) checks).map (·.1)

end AgentWarrant.Monitor.Full
