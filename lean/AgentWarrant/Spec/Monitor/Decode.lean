import AgentWarrant.Spec.Monitor.Policy
import AgentWarrant.Spec.Monitor.Registration
/-! Which places of a policy's JSON form (corpus/schemas/policy.schema.json) the decoded `Policy`
holds, stated with membership: `Decodes j p` says that, for the lists it covers, each list of `p` is
empty or is read element by element from the array the document holds under that key, each element's
fields being member values of that array element (`Field`). `Thm/Monitor/Decode.lean` proves that
the oracle's decoder `policyOf` produces only policies so related to its input (`policyOfDecodes`).
`DecodesExactly` is the same with each top-level list, and the declared categories, exactly the
document's array: empty only when the document has no such member (`ListIs`, `OptStrsIs`);
`Thm/Monitor/DecodeExact.lean` proves it of the decoder on documents whose objects are search trees.
Both are `DecodesVia`, which takes how a list is read as a parameter.

Covered, which is every field of the decoded `Policy`: the level list and the declared categories;
resolvers (slot, tool, arguments, dotted path); nodes (name, label sensitivity by level name,
category vector over the declared categories, trust flag); edges (name, endpoint pairs,
propagation: `inherit`, or a transform's sensitivity by level name, trust, removals and decrement);
agents (name, operations, ceiling by level name); tools (name, operation or else the name, source,
destination, arguments, required arguments, effects with their action and resource reference by
kind); origins (name, via, argument, producer, preserved operations); histories (name, scope,
after, require, before); flow rules (effect, operation, destination, sink argument, guard), and the
closed core's flows as the rules without a sink argument; audiences (node, effects with their action
and resource pattern by kind); user and application grants (kind, action, resource pattern by kind,
keys, predicates with path and, by kind, value, values or range bounds, quota, requirement, permit
flag). Optional members are stated as the decoder reads them: an absent or `null` list is empty, an
optional string, flag or level is read only from a member of that type, a grant's quota is a
number's value, unlimited for `null` and otherwise one, a tool's operation is its name unless a
string is given, and a flow rule's guard is read from an empty object when `when` is absent. A
string `kind` selects the case (the last case of each decoder's `match` takes every other kind). -/
namespace AgentWarrant.Monitor.Full
open Lean

/-- `R` relates the two lists element by element (so they have the same length). -/
inductive Forall2 {α β : Type} (R : α → β → Prop) : List α → List β → Prop
  | nil : Forall2 R [] []
  | cons {a : α} {b : β} {as : List α} {bs : List β} : R a b → Forall2 R as bs → Forall2 R (a :: as) (b :: bs)

/-- `j` is an object with member `k` holding `v`. -/
def Field (j : Json) (k : String) (v : Json) : Prop := ∃ kvs, j = Json.obj kvs ∧ (k, v) ∈ pairs kvs

/-- The list `out` is absent from the document (empty) or read from the array at `k`, element by element. -/
def ListAt {α : Type} (j : Json) (k : String) (R : Json → α → Prop) (out : List α) : Prop :=
  out = [] ∨ ∃ xs, Field j k (Json.arr ⟨xs⟩) ∧ Forall2 R xs out

/-- The document holds an array of strings at `k`, these strings in order. -/
def StrsAt (j : Json) (k : String) (l : List String) : Prop :=
  ∃ xs, Field j k (Json.arr ⟨xs⟩) ∧ Forall2 (fun x s => x = Json.str s) xs l

/-- The rank `i` is read from a level name at `k`: the `i`-th declared level is that name, and no
earlier one is (the decoder takes the first). -/
def RankAt (levels : List String) (x : Json) (k : String) (i : Nat) : Prop :=
  ∃ s, Field x k (Json.str s) ∧ nth? levels i = some s ∧ ∀ m, m < i → nth? levels m ≠ some s

def ResolverAt (x : Json) (r : Resolver) : Prop :=
  Field x "slot" (Json.str r.slot) ∧ Field x "tool" (Json.str r.tool) ∧ Field x "args" r.args ∧
    ∃ path, Field x "path" (Json.str path) ∧ r.path = path.splitOn "."

def NamedAt (x : Json) (name : String) : Prop := Field x "name" (Json.str name)

/-- A category vector over the declared categories `cats`: entry `i` is set exactly when the
`i`-th declared category is among the names `have_`. -/
def CatsOf (cats have_ : List String) : List Bool := cats.map (fun c => memS c have_)

/-- A node's name, and its label's sensitivity (by level name), categories (the vector over the
document's declared categories of the strings at `categories`) and trust flag. -/
def NodeAt (levels cats : List String) (x : Json) (n : Node) : Prop :=
  NamedAt x n.name ∧ ∃ l, Field x "label" l ∧ RankAt levels l "sensitivity" n.label.sens ∧
    (∃ have_, StrsAt l "categories" have_ ∧ n.label.cats = CatsOf cats have_) ∧
    Field l "trusted" (Json.bool n.label.trusted)

/-- The list `l` is absent from the document (empty) or the strings of the array at `k`, in order. -/
def OptStrsAt (j : Json) (k : String) (l : List String) : Prop := l = [] ∨ StrsAt j k l

/-- An endpoint pair is a JSON array of exactly these two strings. -/
def PairAt (x : Json) (ab : String × String) : Prop := x = Json.arr ⟨[Json.str ab.1, Json.str ab.2]⟩

/-- An optional level: when read, the rank of the level name at `k`. -/
def OptRankAt (levels : List String) (x : Json) (k : String) (o : Option Nat) : Prop :=
  ∀ i, o = some i → RankAt levels x k i

/-- An edge's propagation: none for kind `inherit`; otherwise a transform whose set sensitivity is
the rank of the level name at `sensitivity` (when present), whose set trust is a boolean at
`trusted` (when present), whose removals are the vector of the names at `remove`, and whose
decrement is the number at `decrement` (zero when absent or not a number). -/
def TransformAt (levels cats : List String) (v : Json) : Option Transform → Prop
  | none => Field v "kind" (Json.str "inherit")
  | some t => (∃ k, Field v "kind" (Json.str k) ∧ k ≠ "inherit") ∧ OptRankAt levels v "sensitivity" t.setSens ∧
      (∀ b, t.setTrusted = some b → Field v "trusted" (Json.bool b)) ∧
      (∃ rm, OptStrsAt v "remove" rm ∧ t.remove = CatsOf cats rm) ∧
      ((∃ n, Field v "decrement" (Json.num n) ∧ t.decrement = n.mantissa.toNat) ∨ t.decrement = 0)

/-- An edge's name, its endpoint pairs (read in order from its `endpoints` array) and its propagation. -/
def EdgeAt (levels cats : List String) (x : Json) (e : Edge) : Prop :=
  NamedAt x e.name ∧ (∃ xs, Field x "endpoints" (Json.arr ⟨xs⟩) ∧ Forall2 PairAt xs e.endpoints) ∧
    ∃ v, Field x "propagation" v ∧ TransformAt levels cats v e.prop

def AgentAt (levels : List String) (x : Json) (a : Agent) : Prop :=
  NamedAt x a.name ∧ StrsAt x "operations" a.ops ∧ RankAt levels x "ceiling" a.ceiling

/-- A resource reference by its `kind`: a constant's `value`, an argument's name (`arg`); any other
kind is a list argument, also by name. -/
def ResAt (r : Json) : ResRef → Prop
  | ResRef.const v => Field r "kind" (Json.str "const") ∧ Field r "value" v
  | ResRef.arg a => Field r "kind" (Json.str "arg") ∧ Field r "arg" (Json.str a)
  | ResRef.listArg a => (∃ k, Field r "kind" (Json.str k) ∧ k ≠ "const" ∧ k ≠ "arg") ∧ Field r "arg" (Json.str a)

def EffAt (x : Json) (d : EffDecl) : Prop :=
  Field x "action" (Json.str d.action) ∧ ∃ r, Field x "resource" r ∧ ResAt r d.res

/-- A tool's name, source and destination; its operation (a string at `operation`, or else the
tool's name: the decoder takes the name when the member is absent, `null` or not a string); its
arguments and required arguments (each absent, or the array at that key); its effects, read in
order from its `effects` array. -/
def ToolAt (x : Json) (t : Tool) : Prop :=
  NamedAt x t.name ∧ (Field x "operation" (Json.str t.operation) ∨ t.operation = t.name) ∧
    Field x "source" (Json.str t.source) ∧ Field x "destination" (Json.str t.destination) ∧
    OptStrsAt x "args" t.args ∧ OptStrsAt x "required" t.required ∧
    ∃ xs, Field x "effects" (Json.arr ⟨xs⟩) ∧ Forall2 EffAt xs t.effects

def OriginAt (x : Json) (o : Origin) : Prop :=
  NamedAt x o.name ∧ Field x "via" (Json.str o.via) ∧ Field x "argument" (Json.str o.argument) ∧
    Field x "producer" (Json.str o.producer) ∧ OptStrsAt x "preserving" o.preserving

def HistoryAt (x : Json) (h : History) : Prop :=
  NamedAt x h.name ∧ (∃ sc, Field x "scope" (Json.str sc) ∧ h.lineage = (sc == "lineage")) ∧
    Field x "after" (Json.str h.after) ∧ Field x "require" (Json.str h.require) ∧ Field x "before" (Json.str h.before)

/-- A resource pattern by its `kind`: any, a constant's `value`, a resolver `slot`; any other kind
is a glob, read from `glob`. -/
def PatAt (r : Json) : Pat → Prop
  | Pat.any => Field r "kind" (Json.str "any")
  | Pat.const v => Field r "kind" (Json.str "const") ∧ Field r "value" v
  | Pat.slot s => Field r "kind" (Json.str "slot") ∧ Field r "slot" (Json.str s)
  | Pat.glob g => (∃ k, Field r "kind" (Json.str k) ∧ k ≠ "any" ∧ k ≠ "const" ∧ k ≠ "slot") ∧
      Field r "glob" (Json.str g)

/-- An optional number: when read, the number at `k`. -/
def NumAt (x : Json) (k : String) (o : Option JsonNumber) : Prop := ∀ n, o = some n → Field x k (Json.num n)

/-- A predicate's path and, by its `kind`, the value, values or range bounds it reads; any other
kind is a range. -/
def PredAt (x : Json) : Pred → Prop
  | Pred.eq path v => StrsAt x "path" path ∧ Field x "kind" (Json.str "eq") ∧ Field x "value" v
  | Pred.oneOf path vs => StrsAt x "path" path ∧ Field x "kind" (Json.str "one_of") ∧ Field x "values" (Json.arr ⟨vs⟩)
  | Pred.range path lo hi => StrsAt x "path" path ∧
      (∃ k, Field x "kind" (Json.str k) ∧ k ≠ "eq" ∧ k ≠ "one_of") ∧ NumAt x "low" lo ∧ NumAt x "high" hi

/-- A grant's kind (allow exactly when the kind is `allow`), action and resource pattern; its keys
(when read, the strings at `keys`) and predicates (absent, or read in order from `where`); its
quota (a number's value, unlimited for `null`, else one: the decoder reads an absent quota as
one); a requirement only from a string at `requires`, a permit only from `true` at `permit`. -/
def GrantAt (x : Json) (g : Grant) : Prop :=
  (∃ kind, Field x "kind" (Json.str kind) ∧ g.allow = (kind == "allow")) ∧ Field x "action" (Json.str g.action) ∧
    (∃ r, Field x "resource" r ∧ PatAt r g.pat) ∧
    (∀ ks, g.keys = some ks → StrsAt x "keys" ks) ∧ ListAt x "where" PredAt g.preds ∧
    ((∃ n, Field x "quota" (Json.num n) ∧ g.quota = some n.mantissa.toNat) ∨
      (Field x "quota" Json.null ∧ g.quota = none) ∨ g.quota = some 1) ∧
    (∀ r, g.requires = some r → Field x "requires" (Json.str r)) ∧
    (g.permit = true → Field x "permit" (Json.bool true))

/-- A flow guard's bounds (by level name), category vectors (over the declared categories) and
trust condition (only from a boolean at `trusted`). -/
def GuardAt (levels cats : List String) (x : Json) (g : Guard) : Prop :=
  OptRankAt levels x "max_sensitivity" g.maxS ∧ OptRankAt levels x "min_sensitivity" g.minS ∧
    (∃ l, OptStrsAt x "any_category" l ∧ g.anyCat = CatsOf cats l) ∧
    (∃ l, OptStrsAt x "no_category" l ∧ g.noCat = CatsOf cats l) ∧
    (∀ b, g.trusted = some b → Field x "trusted" (Json.bool b))

/-- A flow rule's effect (numbered 1 for `deny`, 2 for `pause`, 0 for any other, an allow),
operation, destination, the sink argument it names (when present) and its guard, read from `when`
(an empty object when absent). -/
def XFlowAt (levels cats : List String) (x : Json) (f : XFlow) : Prop :=
  (∃ ef, Field x "effect" (Json.str ef) ∧ ((ef = "deny" ∧ f.effect = 1) ∨ (ef = "pause" ∧ f.effect = 2) ∨
    (¬ ef = "deny" ∧ ¬ ef = "pause" ∧ f.effect = 0))) ∧
  Field x "operation" (Json.str f.operation) ∧ Field x "destination" (Json.str f.destination) ∧
    (∀ a, f.argument = some a → Field x "argument" (Json.str a)) ∧
    ∃ g, (Field x "when" g ∨ g = Json.mkObj []) ∧ GuardAt levels cats g f.guard

def AudEffAt (x : Json) (e : AudEff) : Prop :=
  Field x "action" (Json.str e.action) ∧ ∃ r, Field x "resource" r ∧ PatAt r e.pat

/-- An audience's node and its effect patterns, read in order from its `effects` array. -/
def AudienceAt (x : Json) (a : Audience) : Prop :=
  Field x "node" (Json.str a.node) ∧ ∃ xs, Field x "effects" (Json.arr ⟨xs⟩) ∧ Forall2 AudEffAt xs a.effects

/-- The places the decoded policy is read from, for a reading `Q` of each list (`Q k R l`: the list
`l` at key `k`, its elements related to the array's by `R`) and `C` of the declared categories:
ranks against the document's own level list, category vectors over its declared categories. -/
def DecodesVia (j : Json) (Q : {α : Type} → String → (Json → α → Prop) → List α → Prop)
    (C : List String → Prop) (p : Policy) : Prop :=
  ∃ levels cats, StrsAt j "levels" levels ∧ C cats ∧
  Q "resolvers" ResolverAt p.resolvers ∧
  Q "nodes" (NodeAt levels cats) p.nodes ∧
  Q "edges" (EdgeAt levels cats) p.edges ∧
  Q "agents" (AgentAt levels) p.agents ∧
  Q "tools" ToolAt p.tools ∧
  Q "origins" OriginAt p.origins ∧
  Q "histories" HistoryAt p.histories ∧
  Q "user" GrantAt p.user ∧
  Q "application" GrantAt p.app ∧
  Q "flows" (XFlowAt levels cats) p.xflows ∧
  p.flows = p.xflows.filterMap (fun r =>
    if r.argument.isSome then none else some ⟨r.effect == 1, r.operation, r.destination, r.guard⟩) ∧
  Q "audiences" AudienceAt p.audiences

/-- The decoded policy's lists, as far as they are covered, are read from these places of `j`
(each list empty or read element by element from the array at its key). -/
def Decodes (j : Json) (p : Policy) : Prop :=
  DecodesVia j (fun k R l => ListAt j k R l) (OptStrsAt j "categories") p

/-- The document has no member `k` other than `null` (the decoder reads an optional list there as empty). -/
def Absent (j : Json) (k : String) : Prop := ∀ v, Field j k v → v = Json.null

/-- The list `out` is exactly the document's array at `k`: empty when the document has no such
member (or `null`), otherwise read from that array element by element, every element and no other. -/
def ListIs {α : Type} (j : Json) (k : String) (R : Json → α → Prop) (out : List α) : Prop :=
  (Absent j k ∧ out = []) ∨ ∃ xs, Field j k (Json.arr ⟨xs⟩) ∧ Forall2 R xs out

/-- The string list `l` is exactly the document's array of strings at `k`, or empty when it has none. -/
def OptStrsIs (j : Json) (k : String) (l : List String) : Prop := (Absent j k ∧ l = []) ∨ StrsAt j k l

/-- `Decodes`, with each top-level list and the declared categories exactly the document's array
at that key (`ListIs`, `OptStrsIs`): a list is empty only when the document has no such array, and
otherwise has one element per array element, in order. The elements' own optional members are read
as in `Decodes`. -/
def DecodesExactly (j : Json) (p : Policy) : Prop :=
  DecodesVia j (fun k R l => ListIs j k R l) (OptStrsIs j "categories") p

-- the form's lists --------------------------------------------------------------------------------

/-- `x` is an element of the array the document holds at `k`. -/
def ElemAt (j : Json) (k : String) (x : Json) : Prop := ∃ xs, Field j k (Json.arr ⟨xs⟩) ∧ x ∈ xs

/-- Where the declaration and reference lists of the registration's form (`Form`) come from: every
level, category and requirement it lists is a string of the document's array of that name; every
level reference is a node label's sensitivity, an agent's ceiling, the sensitivity of a propagation of
kind `transform` or a flow guard's bound; every requirement reference an allow entry's `requires`; every sink a node's name
(of kind `sink`); every audience node an audience's `node`. `FormCollects` is the converse. -/
def FormFrom (j : Json) (f : Form) : Prop :=
  (∀ s, s ∈ f.levels → ElemAt j "levels" (Json.str s)) ∧
  (∀ s, s ∈ f.categories → ElemAt j "categories" (Json.str s)) ∧
  (∀ s, s ∈ f.requirements → ElemAt j "requirements" (Json.str s)) ∧
  (∀ s, s ∈ f.levelRefs →
    (∃ n l, ElemAt j "nodes" n ∧ Field n "label" l ∧ Field l "sensitivity" (Json.str s)) ∨
    (∃ a, ElemAt j "agents" a ∧ Field a "ceiling" (Json.str s)) ∨
    (∃ e t, ElemAt j "edges" e ∧ Field e "propagation" t ∧ Field t "kind" (Json.str "transform") ∧
      Field t "sensitivity" (Json.str s)) ∨
    (∃ fl g, ElemAt j "flows" fl ∧ Field fl "when" g ∧
      (Field g "max_sensitivity" (Json.str s) ∨ Field g "min_sensitivity" (Json.str s)))) ∧
  (∀ s, s ∈ f.reqRefs → ∃ e, (ElemAt j "user" e ∨ ElemAt j "application" e) ∧
    Field e "kind" (Json.str "allow") ∧ Field e "requires" (Json.str s)) ∧
  (∀ s, s ∈ f.sinks → ∃ n, ElemAt j "nodes" n ∧ Field n "kind" (Json.str "sink") ∧ NamedAt n s) ∧
  (∀ s, s ∈ f.audienceNodes → ∃ a, ElemAt j "audiences" a ∧ Field a "node" (Json.str s))

/-- The converse of `FormFrom`: the form collects every such place of the document.
`Thm/Monitor/DecodeFind.lean` proves it of `formOf` on every document whose objects are search trees,
which every input the oracle judges is. -/
def FormCollects (j : Json) (f : Form) : Prop :=
  (∀ s, ElemAt j "levels" (Json.str s) → s ∈ f.levels) ∧
  (∀ s, ElemAt j "categories" (Json.str s) → s ∈ f.categories) ∧
  (∀ s, ElemAt j "requirements" (Json.str s) → s ∈ f.requirements) ∧
  (∀ s, ((∃ n l, ElemAt j "nodes" n ∧ Field n "label" l ∧ Field l "sensitivity" (Json.str s)) ∨
    (∃ a, ElemAt j "agents" a ∧ Field a "ceiling" (Json.str s)) ∨
    (∃ e t, ElemAt j "edges" e ∧ Field e "propagation" t ∧ Field t "kind" (Json.str "transform") ∧
      Field t "sensitivity" (Json.str s)) ∨
    (∃ fl g, ElemAt j "flows" fl ∧ Field fl "when" g ∧
      (Field g "max_sensitivity" (Json.str s) ∨ Field g "min_sensitivity" (Json.str s)))) → s ∈ f.levelRefs) ∧
  (∀ s e, (ElemAt j "user" e ∨ ElemAt j "application" e) → Field e "kind" (Json.str "allow") →
    Field e "requires" (Json.str s) → s ∈ f.reqRefs) ∧
  (∀ s n, ElemAt j "nodes" n → Field n "kind" (Json.str "sink") → NamedAt n s → s ∈ f.sinks) ∧
  (∀ s a, ElemAt j "audiences" a → Field a "node" (Json.str s) → s ∈ f.audienceNodes)

end AgentWarrant.Monitor.Full
