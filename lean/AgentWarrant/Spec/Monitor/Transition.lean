import AgentWarrant.Spec.Monitor.Extensions
/-! The whole monitor's decision and transition (Agenra Sections 6.2, 6.3 and 5.1).

`decideFull` builds the closed core's input from facts computed in `Spec/Monitor/Full.lean` and
runs the closed core's cascade (`Monitor.decide`), then refines a "no matching allow" by slot, asks
the extensions beyond Agenra (`Spec/Monitor/Extensions.lean`: audience and request sinks, Pause on a
flow, answered only by the reviewer's approval) and checks the exact-call permit of an Allow. `stepFull` commits an Allow (fresh ID = trace position,
label, charges, permit consumed) and processes the declared outcome. -/
namespace AgentWarrant.Monitor.Full
open Lean AgentWarrant.Monitor

inductive Verdict where
  | allow (label : Label) (user app : List Nat) (permit : Option Nat)
  | pause (waiting : List String)
  | deny (reason : String)

def sideEntries (s : State) (args : List (String × Json)) (es : List Effect) (gs : List Grant)
    (used : List Nat) : List Entry :=
  (List.zip gs (used ++ List.replicate (gs.length - used.length) 0)).map (fun p => entryOf s args es p.1 p.2)

def coreInput (p : Policy) (s : State) (c : Call) (t : Tool) (es : List Effect) : StepIn :=
  let agent := p.agents.find? (fun a => a.name == c.agent)
  let edge := edgeOf p t
  let l := labelIn p s c t
  { prep := none
    trace := s.trace.map Record.label
    parents := c.parents
    sourceLabel := l
    propagation := match edge with | some e => e.prop | none => none
    agentKnown := agent.isSome
    opPermitted := match agent with | some a => memS t.operation a.ops | none => false
    endpointOk := match edge with
      | some e => e.endpoints.any (fun ep => ep.1 == t.source && ep.2 == t.destination)
      | none => false
    ceiling := match agent with | some a => a.ceiling | none => 0
    nEffects := es.length
    user := sideEntries s c.args es p.user s.usedUser
    app := sideEntries s c.args es p.app s.usedApp
    originOk := originOk p s c t
    operation := t.operation
    destination := t.destination
    flows := p.flows
    historyOk := historyOk p s c t }

/-- Why no allow matched: an allow that would match but for an unbound or invalidated slot. -/
def slotReason (s : State) (args : List (String × Json)) (gs : List Grant) (e : Effect) : String :=
  let rec go : List Grant → String
    | [] => "no_matching_allow"
    | g :: rest => match g.pat with
      | Pat.slot n =>
        if g.allow && g.action == e.action && keysOk g args && g.preds.all (predHolds args) then
          if memS n s.invalid then "slot_invalid"
          else if (s.binding? n).isNone then "slot_unbound"
          else go rest
        else go rest
      | _ => go rest
  go gs

def noMatchReason (s : State) (c : Call) (es : List Effect) (p : Policy) : String :=
  let unmatched := fun (gs : List Grant) (e : Effect) => !gs.any (fun g => g.allow && grantMatches s c.args g e)
  let pairs := (es.map (fun e => (p.user, e))) ++ (es.map (fun e => (p.app, e)))
  match pairs.find? (fun q => unmatched q.1 q.2) with
  | some (gs, e) => slotReason s c.args gs e
  | none => "no_matching_allow"

def reasonName : Reason → String
  | Reason.prep why => why
  | Reason.unknownAgent => "unknown_agent"
  | Reason.operationNotPermitted => "operation_not_permitted"
  | Reason.endpoint => "endpoint"
  | Reason.ceiling => "ceiling"
  | Reason.explicitDeny => "explicit_deny"
  | Reason.noMatchingAllow => "no_matching_allow"
  | Reason.origin => "origin"
  | Reason.flow => "flow"
  | Reason.history => "history"
  | Reason.quota => "quota"

/-- The permit an Allow consumes, or why there is none. -/
def findPermit (s : State) (c : Call) : Except String Nat :=
  let ident := c.identity
  let sameTool := s.permits.filter (fun q => q.tool == c.tool)
  let exact := sameTool.filter (fun q => identsEq q.ident ident)
  match exact.find? (fun q => !q.consumed) with
  | some q => pure q.id
  | none =>
    if !exact.isEmpty then throw "permit_consumed"
    else if sameTool.any (fun q => !q.consumed) then throw "permit_mismatch"
    else throw "permit_missing"

def chosenNeedPermit (gs : List Grant) (ps : List Nat) : Bool :=
  ps.any (fun k => match nth? gs k with
    | some g => g.permit
    | none => false)

/-- `D(S, c)`. -/
def decideFull (p : Policy) (s : State) (c : Call) : Verdict :=
  match prepare p s c with
  | Except.error why => Verdict.deny why
  | Except.ok (t, es) =>
    match decide (coreInput p s c t es) with
    | Decision.deny Reason.noMatchingAllow => Verdict.deny (noMatchReason s c es p)
    | Decision.deny r => Verdict.deny (reasonName r)
    | Decision.pause w => Verdict.pause w
    | Decision.allow l pu pa =>
      match extCheck p s c t es l with
      | Ext.deny => Verdict.deny "flow"
      | Ext.pause => match findApproval s c with
        | some k => Verdict.allow l pu pa (some k)
        | none => Verdict.pause ["flow approval"]
      | Ext.allow =>
      if chosenNeedPermit p.user pu || chosenNeedPermit p.app pa then
        match findPermit s c with
        | Except.ok k => Verdict.allow l pu pa (some k)
        | Except.error why => Verdict.deny why
      else Verdict.allow l pu pa none

-- result processing (Sections 5.1, 6.3) --------------------------------------------------------

def wellFormedAddress : Json → Bool
  | Json.str x => !x.isEmpty
  | Json.num _ => true
  | Json.bool _ => true
  | _ => false

def dropBinding (slot : String) (bs : List (String × Json × Nat)) : List (String × Json × Nat) :=
  filt (fun b => b.1 != slot) bs

/-- One applicable resolver reads the result: bind, keep, or invalidate for the rest of the task. -/
def bindOne (value : Json) (d : Nat) (acc : List (String × Json × Nat) × List String) (r : Resolver) :
    List (String × Json × Nat) × List String :=
  let (bs, inv) := acc
  if memS r.slot inv then acc
  else match lookupPath value r.path with
    | some v =>
      if !wellFormedAddress v then (dropBinding r.slot bs, r.slot :: inv)
      else match bs.find? (fun b => b.1 == r.slot) with
        | some b => if jeq b.2.1 v then acc else (dropBinding r.slot bs, r.slot :: inv)
        | none => (insertBy (fun b => b.1) (r.slot, v, d) bs, inv)
    | none => (dropBinding r.slot bs, r.slot :: inv)

def markOk (d : Nat) : Nat → List Record → List Record
  | _, [] => []
  | i, r :: rs => (if i == d then { r with ok := true } else r) :: markOk d (i + 1) rs

def observe (p : Policy) (s : State) (d : Nat) (o : Outcome) : State :=
  match o.ok, s.record? d with
  | true, some rec =>
    let trace := markOk d 0 s.trace
    let applicable := p.resolvers.filter (fun r => r.tool == rec.tool && jeq r.args (argsJson rec.args))
    let (bs, inv) := applicable.foldl (bindOne o.value d) (s.bindings, s.invalid)
    { s with trace := trace, bindings := bs, invalid := inv }
  | _, _ => s

def commit (p : Policy) (s : State) (c : Call) (l : Label) (pu pa : List Nat) (permit : Option Nat) : State :=
  let t := p.tools.find? (fun t => t.name == c.tool)
  let rec_ : Record := match t with
    | some t => ⟨c.agent, t.name, t.operation, t.source, t.destination, c.parents, c.args, l, false⟩
    | none => ⟨c.agent, c.tool, "", "", "", c.parents, c.args, l, false⟩
  { s with
    trace := s.trace ++ [rec_]
    usedUser := addVec s.usedUser (chargeVec 0 s.usedUser.length pu)
    usedApp := addVec s.usedApp (chargeVec 0 s.usedApp.length pa)
    permits := s.permits.map (fun q => if some q.id == permit then { q with consumed := true } else q) }

/-- One transition: decide; on Allow commit and process the declared outcome; otherwise no change. -/
def stepFull (p : Policy) (s : State) (c : Call) (o : Outcome) : Verdict × State :=
  match decideFull p s c with
  | Verdict.allow l pu pa k =>
    let s' := commit p s c l pu pa k
    (Verdict.allow l pu pa k, observe p s' s.trace.length o)
  | v => (v, s)

end AgentWarrant.Monitor.Full
