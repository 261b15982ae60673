import AgentWarrant.Spec.Monitor.Labels
import AgentWarrant.Spec.Monitor.Ledger
/-! The base decision `D(S, c)` and the Allow state update (Agenra Section 6), closed core.

Closed core: no exact-call permits and no scanners. The cascade is the source's, in its order
(the first failing case decides): preparation → Struct (agent, operation, endpoints, ceiling) →
explicit deny → no matching allow → Pause → origin → flow → history → first-fit on both lists →
Allow. On Allow the state update appends the record's label to the trace and adds both charge
vectors to the counters; nothing changes otherwise.

Inputs computed by the caller, once per call, and taken here as facts (the oracle's contract):
the preparation verdict (tool, declared arguments, handles, resources), whether the agent is
known, the operation permitted and the endpoints declared, the matching of every list entry
against every effect (`hits`) and its readiness, and the origin and history verdicts. Computed
here: the input label (join of the parents' labels, else the source node's), the edge
propagation, the ceiling, the flow rules, the cascade, the allocation and the update. -/
namespace AgentWarrant.Monitor

structure Transform where
  remove : List Bool
  decrement : Nat
  setSens : Option Nat
  setTrusted : Option Bool

structure Guard where
  maxS : Option Nat
  minS : Option Nat
  anyCat : List Bool
  noCat : List Bool
  trusted : Option Bool

structure Flow where
  deny : Bool
  operation : String
  destination : String
  guard : Guard

structure Entry where
  allow : Bool
  ready : Bool
  hits : List Bool
  quota : Option Nat
  used : Nat
  requires : Option String

structure StepIn where
  prep : Option String
  trace : List Label
  parents : List Nat
  sourceLabel : Label
  propagation : Option Transform
  agentKnown : Bool
  opPermitted : Bool
  endpointOk : Bool
  ceiling : Nat
  nEffects : Nat
  user : List Entry
  app : List Entry
  originOk : Bool
  operation : String
  destination : String
  flows : List Flow
  historyOk : Bool

inductive Reason where
  | prep (why : String)
  | unknownAgent | operationNotPermitted | endpoint | ceiling
  | explicitDeny | noMatchingAllow | origin | flow | history | quota

inductive Decision where
  | allow (label : Label) (user app : List Nat)
  | pause (waiting : List String)
  | deny (reason : Reason)

structure StepOut where
  decision : Decision
  usedUser : List Nat
  usedApp : List Nat
  trace : List Label

def minus : List Bool → List Bool → List Bool
  | [], _ => []
  | a :: x, [] => a :: x
  | a :: x, b :: y => (a && !b) :: minus x y

def anyTrue : List Bool → Bool
  | [] => false
  | b :: l => b || anyTrue l

def meets : List Bool → List Bool → Bool
  | a :: x, b :: y => (a && b) || meets x y
  | _, _ => false

def propagate (t : Option Transform) (l : Label) : Label := match t with
  | none => l
  | some t =>
    let s := match t.setSens with | none => l.sens - t.decrement | some s => s
    let tr := match t.setTrusted with | none => l.trusted | some b => b
    ⟨s, minus l.cats t.remove, tr⟩

def labelAt : List Label → Nat → Label
  | [], _ => bot
  | l :: _, 0 => l
  | _ :: ls, n + 1 => labelAt ls n

def labelIn (i : StepIn) : Label := match i.parents with
  | [] => i.sourceLabel
  | ps => joinAll (List.map (labelAt i.trace) ps)

def labelOut (i : StepIn) : Label := propagate i.propagation (labelIn i)

def guardHolds (g : Guard) (l : Label) : Bool :=
  (match g.maxS with | none => true | some m => Nat.ble l.sens m) &&
  (match g.minS with | none => true | some m => Nat.ble m l.sens) &&
  (!anyTrue g.anyCat || meets l.cats g.anyCat) && !meets l.cats g.noCat &&
  (match g.trusted with | none => true | some t => t == l.trusted)

def patOk (pat name : String) : Bool := pat == "*" || pat == name

/-- Flow rules: a matching deny wins; otherwise some matching allow is needed (default deny). -/
def flowAux (op dest : String) (l : Label) : List Flow → Bool → Bool
  | [], acc => acc
  | r :: rs, acc => match patOk r.operation op && patOk r.destination dest && guardHolds r.guard l with
    | true => match r.deny with
      | true => false
      | false => flowAux op dest l rs true
    | false => flowAux op dest l rs acc

def range : Nat → Nat → List Nat
  | _, 0 => []
  | i, n + 1 => i :: range (i + 1) n

def effects (i : StepIn) : List Nat := range 0 i.nEffects

def explicitDeny (es : List Entry) (e : Nat) : Bool := List.any es (fun x => !x.allow && hit x.hits e)
def matchingAllows (es : List Entry) (e : Nat) : List Entry := List.filter (fun x => x.allow && hit x.hits e) es

def requirements : List Entry → List String
  | [] => []
  | x :: xs => match x.requires with
    | none => requirements xs
    | some r => r :: requirements xs

/-- What an (effect, list) pair waits for: nothing if some matching allow is ready. -/
def waitsFor (es : List Entry) (e : Nat) : List String :=
  let ms := matchingAllows es e
  match List.any ms (fun x => x.ready) with
  | true => []
  | false => requirements ms

def account (x : Entry) : Acct := (⟨x.allow, x.ready, x.hits⟩, match x.quota with
  | none => none
  | some q => some (q - x.used))

def addVec : List Nat → List Nat → List Nat
  | a :: x, b :: y => (a + b) :: addVec x y
  | x, [] => x
  | [], _ => []

def decide (i : StepIn) : Decision :=
  let l := labelOut i
  let es := effects i
  let sides := [i.user, i.app]
  match i.prep with
  | some why => Decision.deny (Reason.prep why)
  | none =>
  if !i.agentKnown then Decision.deny Reason.unknownAgent
  else if !i.opPermitted then Decision.deny Reason.operationNotPermitted
  else if !i.endpointOk then Decision.deny Reason.endpoint
  else if !Nat.ble l.sens i.ceiling then Decision.deny Reason.ceiling
  else if List.any sides (fun s => List.any es (explicitDeny s)) then Decision.deny Reason.explicitDeny
  else if List.any sides (fun s => List.any es (fun e => List.isEmpty (matchingAllows s e))) then
    Decision.deny Reason.noMatchingAllow
  else
  let waiting := List.join (List.map (fun s => List.join (List.map (waitsFor s) es)) sides)
  if !List.isEmpty waiting then Decision.pause waiting
  else if !i.originOk then Decision.deny Reason.origin
  else if !flowAux i.operation i.destination l i.flows false then Decision.deny Reason.flow
  else if !i.historyOk then Decision.deny Reason.history
  else match allocBoth (List.map account i.user) (List.map account i.app) es with
    | none => Decision.deny Reason.quota
    | some (pu, pa) => Decision.allow l pu pa

/-- One transition `S --c--> S'`: on Allow the record and both charges are committed. -/
def step (i : StepIn) : StepOut :=
  let used := fun (es : List Entry) => List.map Entry.used es
  match decide i with
  | Decision.allow l pu pa =>
    ⟨Decision.allow l pu pa,
     addVec (used i.user) (chargeVec 0 (List.length i.user) pu),
     addVec (used i.app) (chargeVec 0 (List.length i.app) pa),
     i.trace ++ [l]⟩
  | d => ⟨d, used i.user, used i.app, i.trace⟩

end AgentWarrant.Monitor
