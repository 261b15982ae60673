import AgentWarrant.Spec.Monitor.Transition
/-! The whole monitor's transition (Agenra Sections 6.2 and 6.3): the step's verdict is `D(S, c)`;
Pause and Deny leave the state exactly as it was; after an Allow whose tool fails, the state is the
commit alone (charges kept, no handle, no binding change). -/
namespace AgentWarrant.Monitor.Full
open Lean AgentWarrant.Monitor

theorem stepFullVerdict (p : Policy) (s : State) (c : Call) (o : Outcome) :
    (stepFull p s c o).1 = decideFull p s c := by
  cases h : decideFull p s c with
  | allow l pu pa k => simp [stepFull, h]
  | pause w => simp [stepFull, h]
  | deny r => simp [stepFull, h]

theorem stepFullOnlyAllowChanges (p : Policy) (s : State) (c : Call) (o : Outcome)
    (hd : ∀ l pu pa k, decideFull p s c ≠ Verdict.allow l pu pa k) : (stepFull p s c o).2 = s := by
  cases h : decideFull p s c with
  | allow l pu pa k => exact absurd h (hd l pu pa k)
  | pause w => simp [stepFull, h]
  | deny r => simp [stepFull, h]

theorem stepFullFailureKeepsCommit (p : Policy) (s : State) (c : Call) (v : Json) (l : Label) (pu pa : List Nat)
    (k : Option Nat) (h : decideFull p s c = Verdict.allow l pu pa k) :
    (stepFull p s c ⟨false, v⟩).2 = commit p s c l pu pa k := by
  simp [stepFull, h, observe]

end AgentWarrant.Monitor.Full
