import AgentWarrant.Spec.Monitor.Full
/-! Extensions of the monitor language beyond Agenra (docs/monitor.md, "Extensions beyond Agenra";
model/monitor/decide/flow.py `extension_flow`), asked of a call the closed core's cascade admits,
before the exact-call permit:

- *Pause on a flow*: flow rules rank deny > pause > allow > no rule (default deny). A paused call is
  admitted only with an unconsumed permit binding its `reviewIdentity` (every argument's value, then
  every result it was read from), the reviewer's approval of exactly the values shown.
- *Audience*: a call with an effect matching an `audience NODE` pattern also sends its output label to
  sink `NODE`, checked by the flow rules into `NODE`.
- *Request sink*: rules `OP -> TOOL(ARG)` guard the input label of argument `ARG` (the join of the labels
  of the results it names; a literal has the bottom label). An argument some request rule names is a sink
  (default deny). -/
namespace AgentWarrant.Monitor.Full
open Lean AgentWarrant.Monitor

/-- Some rule of effect `e` holds on `l`. -/
def seen (rs : List XFlow) (l : Label) (e : Nat) : Bool := rs.any (fun r => r.effect == e && guardHolds r.guard l)

/-- The rules' verdict on `l`: 1 deny, 2 pause, 0 allow, `none` when no rule holds. -/
def combine (rs : List XFlow) (l : Label) : Option Nat :=
  if seen rs l 1 then some 1 else if seen rs l 2 then some 2 else if seen rs l 0 then some 0 else none

/-- The ordinary rules into `dest` through `op`. -/
def into (p : Policy) (op dest : String) : List XFlow :=
  p.xflows.filter (fun r => r.argument.isNone && patOk r.operation op && patOk r.destination dest)

/-- The request rules naming argument `n` of tool `t`. -/
def reqRules (p : Policy) (t : Tool) (n : String) : List XFlow :=
  p.xflows.filter (fun r => (match r.argument with
    | some a => a == "*" || a == n
    | none => false) && r.destination == t.name && patOk r.operation t.operation)

/-- The input label of argument `n`: the join of the labels of the results it names. -/
def argLabel (s : State) (c : Call) (n : String) : Label :=
  joinAll ((c.refs.filter (fun r => r.1 == n)).map (fun r => match s.record? r.2 with
    | some rec => rec.label
    | none => bot))

def audienceHit (s : State) (es : List Effect) (a : Audience) : Bool :=
  a.effects.any (fun pe => es.any (fun e => pe.action == e.action && resMatches s e.res pe.pat))

/-- The audience sinks the effects reach, in declaration order, each once. -/
def audiencesOf (p : Policy) (s : State) (es : List Effect) : List String :=
  p.audiences.foldl (fun acc a => if memS a.node acc then acc else if audienceHit s es a then acc ++ [a.node]
    else acc) []

/-- A sink's verdict denies: a deny rule holds, or none does. -/
def denies (v : Option Nat) : Bool := match v with
  | some 1 => true
  | none => true
  | _ => false

def pauses (v : Option Nat) : Bool := v == some 2

/-- The verdicts of every audience sink and every request-sink argument (arguments by name). -/
def sinkVerdicts (p : Policy) (s : State) (c : Call) (t : Tool) (es : List Effect) (l : Label) : List (Option Nat) :=
  (audiencesOf p s es).map (fun n => combine (into p t.operation n) l) ++
  (c.args.map Prod.fst).filterMap (fun n =>
    if (reqRules p t n).isEmpty then none else some (combine (reqRules p t n) (argLabel s c n)))

inductive Ext where
  | allow
  | pause
  | deny

/-- The extensions' verdict on a call the closed core admits with output label `l`. -/
def extCheck (p : Policy) (s : State) (c : Call) (t : Tool) (es : List Effect) (l : Label) : Ext :=
  let vs := sinkVerdicts p s c t es l
  if vs.any denies then Ext.deny
  else if pauses (combine (into p t.operation t.destination) l) || vs.any pauses then Ext.pause
  else Ext.allow

def ltRef (a b : String × Nat) : Bool := Decidable.decide (a.1 < b.1) || (a.1 == b.1 && Decidable.decide (a.2 < b.2))

def insertRef (x : String × Nat) : List (String × Nat) → List (String × Nat)
  | [] => [x]
  | y :: ys => if x == y then y :: ys else if ltRef x y then x :: y :: ys else y :: insertRef x ys

/-- The distinct refs, by argument name then ID. -/
def sortedRefs : List (String × Nat) → List (String × Nat)
  | [] => []
  | r :: rs => insertRef r (sortedRefs rs)

/-- What a reviewer's approval binds: every argument's value by name, then every result it was read from. -/
def Call.reviewIdentity (c : Call) : List (String × Ident) :=
  (sortBy (fun p => p.1) c.args).map (fun p => (p.1, Ident.value p.2)) ++
  (sortedRefs c.refs).map (fun r => match c.refPaths.lookup r.1 with
    | some path => (r.1, Ident.field r.2 path)
    | none => (r.1, Ident.handle r.2))

/-- The unconsumed permit binding the call's review identity (the reviewer's approval), if any. -/
def findApproval (s : State) (c : Call) : Option Nat :=
  match s.permits.find? (fun q => q.tool == c.tool && identsEq q.ident c.reviewIdentity && !q.consumed) with
  | some q => some q.id
  | none => none

end AgentWarrant.Monitor.Full
