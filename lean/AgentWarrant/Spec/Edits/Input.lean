import AgentWarrant.Spec.Edits.Check
import AgentWarrant.Spec.Edits.Safety
/-! The checker's input as the paper gives it (*When Can Agents Safely Checkpoint, Fork, Restore, and
Merge?*, Sections IV-B3 and V-C1): each target outcome as a pomset (its events and order pairs) and
the policy `𝒜` as a deterministic automaton over authorization labels. From these the oracle
computes what the finite checker (`Spec/Edits/Check.lean`) reads: each outcome's list of
linearizations (`linsOf`) and the finite list of policy words the check can ask about
(`policyWords`). `Thm/Edits/Input.lean` proves the first is exactly `Lin(p_o)` and the second
agrees with the automaton's language on every asked word.

    linsOf p   = every order of p's (distinct) events in which each event comes after all
                 its p-predecessors, chosen one ready event at a time (fuel: the event count)
    𝒜          = the words whose run from state 0 is defined (a partial DFA, every state accepting)
    policyWords = the accepted prefixes of lab(Δ) and of lab(Δ)·lab(auth(Resolve_Δ(w))) for every
                 listed linearization w

Choices where the paper is silent: the automaton is partial with every state accepting, state 0
initial (the trim form of a truncation-closed regular language; the language of such an automaton
is closed under truncation, proved in `Thm/Edits/Input.lean`); a transition list with two entries
for one state and label uses the first; an order pair that names a non-event leaves the pomset with
no linearization, as `Lin` says; repeated events count once. -/
namespace AgentWarrant.Edits
open AgentWarrant

/-- A target outcome as given: its ID and its pomset. -/
structure POutcome where
  id : Nat
  pom : Pomset
  deriving DecidableEq

/-- A partial DFA: transitions `(state, label, target)`, state 0 initial, every state accepting. -/
abbrev Dfa := List (Nat × Nat × Nat)

def dfaStep : Dfa → Nat → Nat → Option Nat
  | [], _, _ => none
  | (p, b, r) :: δ, q, a => match Nat.beq p q, Nat.beq b a with
    | true, true => some r
    | _, _ => dfaStep δ q a

def dfaRun (δ : Dfa) : Nat → List Nat → Option Nat
  | q, [] => some q
  | q, a :: u => match dfaStep δ q a with
    | some r => dfaRun δ r u
    | none => none

def dfaAccepts (δ : Dfa) (u : List Nat) : Bool := match dfaRun δ 0 u with
  | some _ => true
  | none => false

/-- The check instance as given: pomset outcomes and the policy automaton. -/
structure PInst where
  outs : List POutcome
  act : List Nat
  lab : List Nat
  log : List Nat
  dfa : Dfa
  deriving DecidableEq

-- Linearizations ---------------------------------------------------------------------------------

/-- `l` without any occurrence of `e`. -/
def removeN (e : Nat) : List Nat → List Nat
  | [] => []
  | a :: l => match Nat.beq a e with
    | true => removeN e l
    | false => a :: removeN e l

/-- One occurrence of each element (the last one kept). -/
def dedupN : List Nat → List Nat
  | [] => []
  | a :: l => match memN a l with
    | true => dedupN l
    | false => a :: dedupN l

/-- `e` may come next: no order pair puts a still-remaining event before it. -/
def ready (ord : List (Nat × Nat)) (rem : List Nat) (e : Nat) : Bool :=
  !(anyB (fun pr => Nat.beq pr.2 e && memN pr.1 rem) ord)

/-- The linearizations of the remaining events `rem`, one ready event at a time. -/
def linsF (ord : List (Nat × Nat)) : Nat → List Nat → List (List Nat)
  | 0, [] => [[]]
  | 0, _ :: _ => []
  | _ + 1, [] => [[]]
  | n + 1, a :: r =>
    concatL (List.map (fun e => List.map (fun w => e :: w) (linsF ord n (removeN e (a :: r))))
      (filt (ready ord (a :: r)) (a :: r)))

/-- Every order pair names two events. -/
def orderOnEvents (p : Pomset) : Bool :=
  allB (fun pr => memN pr.1 p.events && memN pr.2 p.events) p.order

/-- `Lin(p)`, computed. -/
def linsOf (p : Pomset) : List (List Nat) := match orderOnEvents p with
  | true => linsF p.order (List.length (dedupN p.events)) (dedupN p.events)
  | false => []

-- The finite policy --------------------------------------------------------------------------------

def rawPrefixes : List Nat → List (List Nat)
  | [] => [[]]
  | a :: w => [] :: List.map (fun z => a :: z) (rawPrefixes w)

/-- The words whose membership in `𝒜` the check can ask, before the policy filter. -/
def askedWords (pi : PInst) : List (List Nat) :=
  rawPrefixes (labels pi.lab pi.log) ++
  concatL (List.map (fun o => concatL (List.map (fun w =>
    rawPrefixes (labels pi.lab pi.log ++ labels pi.lab (auth (resolve pi.act pi.log w)))) (linsOf o.pom)))
    pi.outs)

/-- The finite policy the checker reads: the asked words the automaton accepts. -/
def policyWords (pi : PInst) : List (List Nat) := filt (dfaAccepts pi.dfa) (askedWords pi)

/-- The finite check instance computed from the given one. -/
def build (pi : PInst) : Inst :=
  ⟨List.map (fun o => ⟨o.id, linsOf o.pom⟩) pi.outs, pi.act, pi.lab, pi.log, policyWords pi⟩

/-- `θ` is the declarative instance of the given input: same calls, labels and log, outcome IDs
exactly the input's, each outcome's pomset the input's, and `𝒜` the automaton's language. -/
structure Presents (θ : Theta) (pi : PInst) : Prop where
  act : θ.act = pi.act
  lab : θ.lab = pi.lab
  log : θ.log = pi.log
  outs : ∀ n, θ.O n ↔ ∃ o, o ∈ pi.outs ∧ o.id = n
  pom : ∀ o, o ∈ pi.outs → θ.pom o.id = o.pom
  policy : ∀ u, θ.A u ↔ dfaAccepts pi.dfa u = true

/-- Every target outcome has a linearization (is a complete result), as the enumeration finds. -/
def allComplete (pi : PInst) : Bool :=
  allB (fun o => match linsOf o.pom with
    | [] => false
    | _ :: _ => true) pi.outs

/-- The pomset of the first outcome with ID `n` (an empty pomset when there is none). -/
def pomOf : List POutcome → Nat → Pomset
  | [], _ => ⟨[], []⟩
  | o :: os, n => match Nat.beq o.id n with
    | true => o.pom
    | false => pomOf os n

/-- The declarative instance of the given input, with any source results and coverage relation. -/
def thetaOf (pi : PInst) (req sat rem : Nat → Prop) (cov : Nat → Nat → Prop) : Theta :=
  { O := fun n => ∃ o, o ∈ pi.outs ∧ o.id = n, pom := pomOf pi.outs, act := pi.act, lab := pi.lab,
    log := pi.log, A := fun u => dfaAccepts pi.dfa u = true, requiredBefore := req, satisfied := sat,
    authorizedRemoval := rem, covers := cov }

end AgentWarrant.Edits
