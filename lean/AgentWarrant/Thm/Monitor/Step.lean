import AgentWarrant.Spec.Monitor.Step
/-! The closed-core transition (Agenra Section 6): only Allow changes the state, and an Allow
appends exactly the record's label to the trace. -/
namespace AgentWarrant.Monitor

/-- Only Allow changes the state: after Pause or Deny the counters and the trace are the input's. -/
theorem stepOnlyAllowChanges (i : StepIn) (hd : ∀ l pu pa, decide i ≠ Decision.allow l pu pa) :
    (step i).usedUser = List.map Entry.used i.user ∧ (step i).usedApp = List.map Entry.used i.app ∧
    (step i).trace = i.trace := by
  cases h : decide i with
  | allow l pu pa => exact absurd h (hd l pu pa)
  | pause w => simp [step, h]
  | deny r => simp [step, h]

/-- An Allow appends exactly the record's label to the trace and returns the allocation as decided. -/
theorem stepAllowAppends (i : StepIn) (l : Label) (pu pa : List Nat) (h : decide i = Decision.allow l pu pa) :
    (step i).trace = i.trace ++ [l] ∧ (step i).decision = Decision.allow l pu pa := by
  simp [step, h]

end AgentWarrant.Monitor
