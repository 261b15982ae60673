import AgentWarrant.Spec.Revision.ListLemmas
import AgentWarrant.Spec.Monitor.Step
import AgentWarrant.Thm.Monitor.Step
/-! The closed core over whole traces (Agenra Sections 6.1–6.3): a state of records and counters,
calls that name their parents by record ID, one transition per call and the run of a trace.

The per-call decision and update are the closed core's `step` (AgentWarrant.Monitor.Step); this
module only supplies what `step` takes from the state: the parents' labels, looked up by ID, and
the current counters of both permission lists. The state is `(M, L, τ, u_P, u_A)` with `M`, `L`
and `τ` held as one list of records `(id, label, parents)` in admission order.
Choices where the paper is silent, and restrictions of this model:
- bindings `B` and invalid slots `I` are not modelled: a call's matching facts (`hits`, readiness)
  are inputs, as in the closed core, so they may encode any binding state;
- a call's entries carry their quotas; the run assumes (as a hypothesis where needed) that every
  call's entries carry the quotas of the one installed policy;
- a parent ID with no record reads as the bottom label (well-formed calls never do this);
- the fresh ID of an admitted record is a parameter of the transition: `stepS S c d` is meant
  for an ID `d` that occurs nowhere in `S` or `c` (`Fresh`). -/
namespace AgentWarrant.Monitor.Run
open AgentWarrant.Monitor

abbrev Rec := Nat × Label × List Nat

structure MState where
  recs : List Rec
  usedUser : List Nat
  usedApp : List Nat

/-- A call: its parents by ID, and the closed core's facts. The facts' `trace`, `parents` and the
`used` fields of its entries are ignored: the transition takes them from the state. -/
structure Call where
  parents : List Nat
  facts : StepIn

def lookupL : List Rec → Nat → Label
  | [], _ => bot
  | (i, l, _) :: rs, j => if i = j then l else lookupL rs j

def setUsed : List Entry → List Nat → List Entry
  | e :: es, u :: us => { e with used := u } :: setUsed es us
  | _, _ => []

/-- What `step` sees: the parents' labels in order, as a trace indexed `0..n-1`. -/
def toIn (S : MState) (c : Call) : StepIn :=
  { c.facts with
    trace := List.map (lookupL S.recs) c.parents,
    parents := range 0 (List.length c.parents),
    user := setUsed c.facts.user S.usedUser,
    app := setUsed c.facts.app S.usedApp }

/-- One transition with fresh ID `d`: the decision and the successor state. -/
def stepS (S : MState) (c : Call) (d : Nat) : Decision × MState :=
  let o := step (toIn S c)
  match o.decision with
  | Decision.allow l pu pa => (o.decision, ⟨S.recs ++ [(d, l, c.parents)], o.usedUser, o.usedApp⟩)
  | _ => (o.decision, ⟨S.recs, o.usedUser, o.usedApp⟩)

def isAllow : Decision → Bool
  | Decision.allow _ _ _ => true
  | _ => false

/-- Every ID written in the records (their own and their parents'). -/
def idsR : List Rec → List Nat
  | [] => []
  | (i, _, js) :: rs => i :: (js ++ idsR rs)

def sumL : List Nat → Nat
  | [] => 0
  | a :: l => a + sumL l

/-- `d` occurs neither in the state nor in the call. -/
def Fresh (S : MState) (c : Call) (d : Nat) : Prop := ¬ d ∈ idsR S.recs ∧ ¬ d ∈ c.parents

/-- The ID the deployed monitor would use is any fresh one; this one is fresh by construction. -/
def freshId (S : MState) (c : Call) : Nat := sumL (idsR S.recs ++ c.parents) + 1

/-- A run over a trace: the fresh ID of each call is given by `fresh` from the state and call. -/
def run (fresh : MState → Call → Nat) : MState → List Call → List Decision × MState
  | S, [] => ([], S)
  | S, c :: cs =>
    let r := stepS S c (fresh S c)
    let rest := run fresh r.2 cs
    (r.1 :: rest.1, rest.2)

/-- Renaming of IDs, applied to records, parent lists and calls. -/
def renameR (ρ : Nat → Nat) : List Rec → List Rec
  | [] => []
  | (i, l, js) :: rs => (ρ i, l, List.map ρ js) :: renameR ρ rs

def renameS (ρ : Nat → Nat) (S : MState) : MState := ⟨renameR ρ S.recs, S.usedUser, S.usedApp⟩
def renameC (ρ : Nat → Nat) (c : Call) : Call := ⟨List.map ρ c.parents, c.facts⟩

/-- The transposition of two IDs. -/
def swap (a b : Nat) (x : Nat) : Nat := if x = a then b else if x = b then a else x

end AgentWarrant.Monitor.Run
