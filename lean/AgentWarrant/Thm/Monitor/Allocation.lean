import AgentWarrant.Spec.Revision.Alternatives
/-! The two-grant obstruction (Agenra Section 5.2; Barth and Mitchell, Theorem 4, two-grant
instance): with quota-one grants {A,B} and {A,C}, each of the workloads AB and AC has a feasible
allocation, yet no prefix-based allocator completes both; first-fit completes AC and not AB. -/
namespace AgentWarrant.Monitor.Alternatives

/-- Each workload on its own is feasible: some allocator completes AB, some completes AC. -/
theorem twoGrantFeasible :
    (∃ al : Allocator, completes al twoGrants [] quotaOne [0, 1] = true) ∧
    (∃ al : Allocator, completes al twoGrants [] quotaOne [0, 2] = true) :=
  ⟨⟨fun _ r => match r with | 0 => some 1 | _ => some 0, rfl⟩,
   ⟨fun _ r => match r with | 0 => some 0 | _ => some 1, rfl⟩⟩

/-- No prefix-based allocator completes both AB and AC. -/
theorem twoGrantObstruction (al : Allocator) :
    ¬ (completes al twoGrants [] quotaOne [0, 1] = true ∧ completes al twoGrants [] quotaOne [0, 2] = true) := by
  intro ⟨h1, h2⟩
  cases hA : al [] 0 with
  | none => simp [completes, hA] at h1
  | some k =>
    cases k with
    | zero =>
      cases hB : al [0] 1 with
      | none => simp [completes, hA, hB] at h1
      | some j =>
        cases j with
        | zero => simp [completes, hA, hB, useAt, capAt, quotaOne] at h1
        | succ j =>
          cases j with
          | zero => simp [completes, hA, hB, covAt, twoGrants, gAC, memB] at h1
          | succ j => simp [completes, hA, hB, covAt, twoGrants] at h1
    | succ k =>
      cases k with
      | zero =>
        cases hC : al [0] 2 with
        | none => simp [completes, hA, hC] at h2
        | some j =>
          cases j with
          | zero => simp [completes, hA, hC, covAt, twoGrants, gAB, memB] at h2
          | succ j =>
            cases j with
            | zero => simp [completes, hA, hC, useAt, capAt, quotaOne] at h2
            | succ j => simp [completes, hA, hC, covAt, twoGrants] at h2
      | succ k => simp [completes, hA, covAt, twoGrants] at h1

/-- First-fit charges {A,B} for the shared first call, so it fails AB. -/
theorem firstFitFailsAB : completes (firstFit twoGrants quotaOne) twoGrants [] quotaOne [0, 1] = false := rfl

/-- ... and completes AC. -/
theorem firstFitCompletesAC : completes (firstFit twoGrants quotaOne) twoGrants [] quotaOne [0, 2] = true := rfl

/-- Reordering the grants only moves the failure: first-fit over {A,C}, {A,B} fails AC. -/
theorem firstFitSwappedFailsAC :
    completes (firstFit [gAC, gAB] quotaOne) [gAC, gAB] [] quotaOne [0, 2] = false := rfl

end AgentWarrant.Monitor.Alternatives
