import AgentWarrant.Thm.Monitor.Full.Bindings
/-! Agenra Section 6.1's well-formed state as one invariant of the whole monitor, as far as the model
states it: IDs name records, parents precede their children, counters within their quotas, invalid
slots unbound, every binding from an applicable successful lookup. Distinct IDs hold by construction
(an ID is a trace position). Not included: valid labels (a label's sensitivity is a rank the Lean
policy does not bound). The state a task starts in is well formed, and every step keeps it. -/
namespace AgentWarrant.Monitor.Full
open Lean AgentWarrant

def WellFormedState (p : Policy) (s : State) : Prop :=
  IdsBounded s ∧ ParentsPrecede s.trace ∧ QuotaOk p s ∧ InvalidUnbound s ∧ LiveBindings p s

theorem stepFullWellFormed (p : Policy) (s : State) (c : Call) (o : Outcome) (h : WellFormedState p s) :
    WellFormedState p (stepFull p s c o).2 :=
  ⟨stepFullIdsBounded p s c o h.1, stepFullParentsPrecede p s c o h.2.1, stepFullQuota p s c o h.2.2.1,
   stepFullInvalidUnbound p s c o h.2.2.2.1, stepFullLiveBindings p s c o h.2.2.2.2⟩

theorem runFullWellFormed (p : Policy) : ∀ (cs : List (Call × Outcome)) (s : State), WellFormedState p s →
    WellFormedState p (runFull p s cs).2
  | [], s, h => h
  | (c, o) :: cs, s, h => runFullWellFormed p cs (stepFull p s c o).2 (stepFullWellFormed p s c o h)

theorem initialWellFormed (p : Policy) : WellFormedState p (initialState p) :=
  ⟨(initialStateOk p).2, initialParentsPrecede p, (initialStateOk p).1, initialInvalidUnbound p, initialLiveBindings p⟩

/-- Every state the monitor reaches from a task's start is well formed. -/
theorem reachableWellFormed (p : Policy) (cs : List (Call × Outcome)) : WellFormedState p (runFull p (initialState p) cs).2 :=
  runFullWellFormed p cs _ (initialWellFormed p)

end AgentWarrant.Monitor.Full
