import AgentWarrant.Spec.Lib
import AgentWarrant.Spec.Monitor.Policy
/-! The whole monitor: `D(S, c)` and the transition `S --c/d--> S'` with result processing
(Agenra Sections 5, 5.1, 5.2, 6.2, 6.3), from the policy, the state and the call alone.

Computed here: preparation (tool, declared and required arguments, handles, effect units from
constants, named and list arguments), the matching predicate
`α′ = α_k ∧ r ∈ G_{B,I}(R_k) ∧ keys(x) ⊆ K_k ∧ χ_k(x)` (constants, slots, globs; equality, one-of
and range predicates over dotted argument paths), readiness, origin rules with `preserving`, history
rules over the lineage or the session, then the closed core's cascade (`Spec/Monitor/Step.lean`:
Struct, explicit deny, no matching allow, Pause, origin, flow, history, first-fit), the
exact-call permit after allocation, the Allow commit and the processing of the declared result
(handles become usable; applicable resolvers bind, keep or invalidate their slots).
Choices where the source is silent are the Python model's (model/monitor/): a "no matching allow"
is refined to `slot_unbound`/`slot_invalid` when an allow would have matched but for its slot; one
permit is consumed per call. -/
namespace AgentWarrant.Monitor.Full
open Lean AgentWarrant.Monitor

-- preparation ----------------------------------------------------------------------------------

structure Effect where
  action : String
  res : Json

def effectsOf (args : List (String × Json)) : List EffDecl → Except String (List Effect)
  | [] => pure []
  | d :: ds => do
    let here ← match d.res with
      | ResRef.const v => pure [⟨d.action, v⟩]
      | ResRef.arg a => match args.lookup a with
        | none => throw "malformed_resource"
        | some v => if isScalar v then pure [⟨d.action, v⟩] else throw "malformed_resource"
      | ResRef.listArg a => match args.lookup a with
        | some (Json.arr items) =>
          if items.size > 0 && items.toList.all isScalar then pure (items.toList.map (fun v => ⟨d.action, v⟩))
          else throw "malformed_resource"
        | _ => throw "malformed_resource"
    pure (here ++ (← effectsOf args ds))

def labelIn (p : Policy) (s : State) (c : Call) (t : Tool) : Label :=
  match c.parents with
  | [] => match p.nodes.find? (fun n => n.name == t.source) with
    | some n => n.label
    | none => bot
  | ps => joinAll (ps.map (fun d => match s.record? d with
    | some r => r.label
    | none => bot))

def edgeOf (p : Policy) (t : Tool) : Option Edge := p.edges.find? (fun e => e.name == t.operation)

def labelOutOf (p : Policy) (s : State) (c : Call) (t : Tool) : Label :=
  match edgeOf p t with
  | some e => propagate e.prop (labelIn p s c t)
  | none => labelIn p s c t

/-- A handle argument that is not an argument of the call, or names no record that succeeded. -/
def badRef (s : State) (c : Call) (r : String × Nat) : Bool :=
  !(c.args.any (fun a => a.1 == r.1)) || match s.record? r.2 with
    | some rec => !rec.ok
    | none => true

/-- The preparation verdict: the tool and its effect units, or the reason it fails. -/
def prepare (p : Policy) (s : State) (c : Call) : Except String (Tool × List Effect) :=
  match p.tools.find? (fun t => t.name == c.tool) with
  | none => throw "unknown_tool"
  | some t =>
    if c.args.any (fun a => !memS a.1 t.args) then throw "undeclared_argument"
    else if t.required.any (fun r => !(c.args.any (fun a => a.1 == r))) then throw "missing_argument"
    else if c.refs.any (badRef s c) then throw "unknown_handle"
    else do
      let es ← effectsOf c.args t.effects
      pure (t, es)

-- matching (Section 5.2) -------------------------------------------------------------------------

def resMatches (s : State) (r : Json) : Pat → Bool
  | Pat.any => true
  | Pat.const v => jeq v r
  | Pat.slot n => !memS n s.invalid && (match s.binding? n with
    | some v => jeq v r
    | none => false)
  | Pat.glob g => match r with
    | Json.str x => fnmatch g x
    | _ => false

def argsJson (args : List (String × Json)) : Json := Json.mkObj args

def predHolds (args : List (String × Json)) : Pred → Bool
  | Pred.eq path v => match lookupPath (argsJson args) path with
    | some x => jeq x v
    | none => false
  | Pred.oneOf path vs => match lookupPath (argsJson args) path with
    | some x => vs.any (jeq x)
    | none => false
  | Pred.range path lo hi => match lookupPath (argsJson args) path with
    | some (Json.num x) =>
      (match lo with | none => true | some l => numLe l x) && (match hi with | none => true | some h => numLe x h)
    | _ => false

def keysOk (g : Grant) (args : List (String × Json)) : Bool := match g.keys with
  | none => true
  | some ks => args.all (fun a => memS a.1 ks)

def grantMatches (s : State) (args : List (String × Json)) (g : Grant) (e : Effect) : Bool :=
  g.action == e.action && resMatches s e.res g.pat && keysOk g args && g.preds.all (predHolds args)

def ready (s : State) (g : Grant) : Bool := match g.requires with
  | none => true
  | some r => memS r s.satisfied

/-- A grant in the closed core's form: its matching of every effect computed here. -/
def entryOf (s : State) (args : List (String × Json)) (es : List Effect) (g : Grant) (used : Nat) : Entry :=
  ⟨g.allow, ready s g, es.map (grantMatches s args g), g.quota, used, g.requires⟩

-- origins (Section 4.4) and histories (Section 4.3) ----------------------------------------------

def named (r : Record) (n : String) : Bool := r.tool == n || r.operation == n

/-- `d` was produced by the rule's producer, directly or through single-parent `preserving` steps
(parents precede their children, so the trace length bounds the walk). It reads the trace only. -/
def producedBy (tr : List Record) (o : Origin) : Nat → Nat → Bool
  | 0, _ => false
  | fuel + 1, d => match nth? tr d with
    | none => false
    | some r =>
      if !r.ok then false
      else if named r o.producer then true
      else match r.parents with
        | [q] => o.preserving.any (named r) && producedBy tr o fuel q
        | _ => false

def originOk (p : Policy) (s : State) (c : Call) (t : Tool) : Bool :=
  p.origins.all (fun o =>
    if o.via == c.tool || o.via == t.operation then
      match c.refs.lookup o.argument with
      | some d => producedBy s.trace o (s.trace.length + 1) d
      | none => false
    else true)

/-- The transitive parents of `ps`, as a list of IDs (any order; fuel: the trace length). -/
def closure (tr : List Record) : Nat → List Nat → List Nat
  | 0, acc => acc
  | fuel + 1, acc =>
    let more := acc.bind (fun d => match nth? tr d with
      | some r => r.parents.filter (fun q => !acc.any (· == q))
      | none => [])
    if more.isEmpty then acc else closure tr fuel (acc ++ more)

/-- The records of the transitive parents of `ps`, in trace order. -/
def lineage (tr : List Record) (ps : List Nat) : List Record :=
  let ids := closure tr (tr.length + 1) ps
  (List.range tr.length).filterMap (fun d => if ids.any (· == d) then nth? tr d else none)

def historyHolds (h : History) (scope : List Record) (tool op : String) : Bool :=
  let isN := fun n => tool == n || op == n
  let pending := scope.foldl (fun pend r => if named r h.require then false else if named r h.after then true
    else pend) false
  !pending || isN h.require

def historyOk (p : Policy) (s : State) (c : Call) (t : Tool) : Bool :=
  p.histories.all (fun h =>
    if t.name == h.before || t.operation == h.before then
      historyHolds h (if h.lineage then lineage s.trace c.parents else s.trace) t.name t.operation
    else true)

end AgentWarrant.Monitor.Full
