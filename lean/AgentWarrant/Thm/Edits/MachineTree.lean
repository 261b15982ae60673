import AgentWarrant.Spec.Edits.MachineTree
/-! The branch tree of the machine record (`Spec/Edits/MachineTree.lean`; *When Can Agents Safely
Checkpoint, Fork, Restore, and Merge?*, Sections IV-B1 and VII): a current branch names a leaf;
`HStep` changes only progress and choice selections, so every node's name, kind, place and registered
contract `Γ_b` are immutable under tool calls; a stored checkpoint copy's remaining contract is
`Γ_b / raw(χ_b)` of its own `Γ_b` and `χ_b`. -/
namespace AgentWarrant.Edits.Machine
open AgentWarrant AgentWarrant.Edits

/-- A current branch names a leaf of the tree. -/
theorem currentLeaf {t : Tree} {b : Nat} (h : currentB t b = true) : ∃ l, leafNamed t b = some l := by
  cases hf : findLeaf b 1 t with
  | none => simp only [currentB, hf] at h
  | some j =>
    cases hj : nodeAt t j with
    | some l => exact ⟨l, by simp only [leafNamed, hf, hj]; rfl⟩
    | none =>
      simp only [currentB, hf] at h
      cases hl : List.length t with
      | zero => rw [hl] at h; exact Bool.noConfusion h
      | succ f => rw [hl] at h; simp only [addrUp, hj] at h

/-- What `HStep` may not change: a node's name, kind, parent, place and `Γ_b`. -/
def shape (n : TNode) : Nat × Nat × Nat × Nat × List Pomset := (n.name, n.kind, n.parent, n.pos, n.gamma)

theorem stepNodeShape (x j : Nat) (p : List (Nat × Nat)) (i : Nat) (n : TNode) :
    shape (stepNode x j p i n) = shape n := by
  cases h : Nat.beq i j with
  | true => simp only [stepNode, h]; rfl
  | false =>
    cases ha : armFor i p with
    | none => simp only [stepNode, h, ha]; rfl
    | some a =>
      cases hs : (Nat.beq n.kind 1 && Nat.beq n.sel 0) with
      | true => simp only [stepNode, h, ha, hs]; rfl
      | false => simp only [stepNode, h, ha, hs]; rfl

theorem mapAtShape (x j : Nat) (p : List (Nat × Nat)) :
    ∀ (i : Nat) (t : Tree), (mapAt (stepNode x j p) i t).map shape = t.map shape
  | _, [] => rfl
  | i, n :: t => by
    show shape (stepNode x j p i n) :: (mapAt (stepNode x j p) (i + 1) t).map shape = shape n :: t.map shape
    rw [stepNodeShape, mapAtShape x j p (i + 1) t]

/-- `HStep` keeps the tree's shape and every leaf's `Γ_b`: only progress `χ_b` and choice selections move. -/
theorem hstepShape (t : Tree) (x : Nat) : (hstep t x).map shape = t.map shape := by
  cases h : leafOf x 1 t with
  | none => simp only [hstep, h]; rfl
  | some j => simp only [hstep, h]; exact mapAtShape x j _ 1 t

/-- The remaining-work equation of a stored copy: `𝒞_b = Γ_b / raw(χ_b)` of its own `Γ_b` and `χ_b`. -/
theorem saveLeafRest (k b : Nat) (l : TNode) :
    (saveLeaf k b l).rest = residualOf (saveLeaf k b l).gamma (saveLeaf k b l).done := rfl

end AgentWarrant.Edits.Machine
