import AgentWarrant.Spec.Revision.Alternatives
/-! The delete-A/B example (Agenra Sections 1 and 5.2): a task may delete A and B once each; the
permissions, searched in order, are one deletion of B, then one of A. Widening the first permission
to cover either object makes first-fit charge it for A, so the legitimate workflow "A then B" is
lost, and the forbidden "A twice" becomes admitted. Stated on the monitor's own first-fit (`scan`
and `alloc`, through `firstFit`), both as a sequence of one-effect calls and as one call whose batch
lists A then B. Resources are numbers: A = 0, B = 1. -/
namespace AgentWarrant.Monitor.Alternatives
open AgentWarrant.Monitor

/-- Before the revision: {B} then {A}, each of quota one. After: {A,B} then {A}. -/
def delOld : List (List Nat) := [[1], [0]]
def delNew : List (List Nat) := [[0, 1], [0]]

theorem deleteABOldCompletesAB : completes (firstFit delOld quotaOne) delOld [] quotaOne [0, 1] = true := rfl
theorem deleteABOldRefusesAA : completes (firstFit delOld quotaOne) delOld [] quotaOne [0, 0] = false := rfl
/-- The widening loses the client "A then B" ... -/
theorem deleteABNewFailsAB : completes (firstFit delNew quotaOne) delNew [] quotaOne [0, 1] = false := rfl
/-- ... and admits the forbidden "A twice". -/
theorem deleteABNewAdmitsAA : completes (firstFit delNew quotaOne) delNew [] quotaOne [0, 0] = true := rfl

/-- The batch form (Section 5.2, "Why order matters"): one call listing A then B. The grants'
matching vectors are by effect index (effect 0 is A, effect 1 is B). -/
def batchOld : List Acct := [(⟨true, true, [false, true]⟩, some 1), (⟨true, true, [true, false]⟩, some 1)]
def batchNew : List Acct := [(⟨true, true, [true, true]⟩, some 1), (⟨true, true, [true, false]⟩, some 1)]

/-- Before: A takes the second permission, B the first. -/
theorem deleteABBatchOld : alloc batchOld [0, 1] = some [1, 0] := rfl
/-- After: A takes the widened first permission and B finds none, so the whole batch is refused. -/
theorem deleteABBatchNew : alloc batchNew [0, 1] = none := rfl

end AgentWarrant.Monitor.Alternatives
