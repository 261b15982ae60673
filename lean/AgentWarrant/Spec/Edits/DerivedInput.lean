import AgentWarrant.Spec.Edits.Derive
import AgentWarrant.Spec.Edits.Input
/-! The checker's input for the instance of a derived record (*When Can Agents Safely Checkpoint, Fork,
Restore, and Merge?*, Section V-A, V-C; the input form of `edit_check`, `Spec/Edits/Input.lean`): the
target region's results numbered `0, 1, …` by position in `⟦T'⟧` (as `Derived.theta` numbers them), with
their pomsets, and any actions, labels, log and policy automaton. -/
namespace AgentWarrant.Edits
open AgentWarrant

/-- The results from position `k` on, numbered. -/
def numberFrom : Nat → List TOut → List POutcome
  | _, [] => []
  | k, x :: l => ⟨k, x.pom⟩ :: numberFrom (k + 1) l

/-- The checker's input for a derived record. -/
def inputOf (D : Derived) (act lab log : List Nat) (δ : Dfa) : PInst :=
  ⟨numberFrom 0 D.target.outs, act, lab, log, δ⟩

end AgentWarrant.Edits
