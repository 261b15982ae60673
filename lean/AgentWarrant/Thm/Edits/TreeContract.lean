import AgentWarrant.Spec.Edits.TreeContract
/-! Facts about `⟦T⟧` on the flat tree (`treeContract`, `Spec/Edits/TreeContract.lean`; *When Can Agents
Safely Checkpoint, Fork, Restore, and Merge?*, Sections IV-A and IV-B1): a one-leaf tree's contract is
its leaf's remaining contract `Γ_b / raw(χ_b)` (`treeContractLeaf`), and that contract's outcomes by
their calls are the runtime's residual, the outcomes a Checkpoint stores (`tcLeafEvents`); a node's
contract is its children's, unioned for a choice (only the selected arm once one is selected),
multiplied for a parallel group or join barrier, multiplied in order for a sequence (`tcAtChoice`,
`tcAtPar`, `tcAtJoin`, `tcAtSeq`); on two leaves these read as the paper's union and pairwise products
(`treeContractChoice2`, `treeContractSelected2`, `treeContractPar2`, `treeContractSeq2`). -/
namespace AgentWarrant.Edits.Machine
open AgentWarrant AgentWarrant.Edits

/-- A one-leaf tree's contract is its leaf's remaining contract. -/
theorem treeContractLeaf (b s : Nat) (g : List Pomset) (d : List Nat) :
    treeContract [⟨b, 0, 0, 0, s, g, d⟩] = tcLeaf ⟨b, 0, 0, 0, s, g, d⟩ := rfl

theorem tcRestEvents (done : List Nat) :
    ∀ (l : List Pomset), (l.map (tcRest done)).map Pomset.events = l.map (fun p => filt (fun e => !memN e done) p.events)
  | [] => rfl
  | p :: l => by simp [List.map, tcRestEvents done l]; rfl

/-- `⟦b:𝒞⟧`'s outcomes, by their calls, are the leaf's residual `restOuts` (what the runtime's currency
and Checkpoint read). -/
theorem tcLeafEvents (l : TNode) : (tcLeaf l).map Pomset.events = restOuts l :=
  tcRestEvents l.done (filt (compatP l.done) l.gamma)

/-- A choice's contract is the union of its enabled arms' contracts. -/
theorem tcAtChoice {t : Tree} {j f : Nat} {n : TNode} (h : nodeAt t j = some n) (hk : n.kind = 1) :
    tcAt (f + 1) t j = concatL ((tcKids t j n).map (tcAt f t)) := by
  simp only [tcAt]; rw [h]; simp only []; rw [hk]; rfl

/-- A parallel group's contract is the product of its parts'. -/
theorem tcAtPar {t : Tree} {j f : Nat} {n : TNode} (h : nodeAt t j = some n) (hk : n.kind = 2) :
    tcAt (f + 1) t j = tcFold false [tcEmpty] ((tcKids t j n).map (tcAt f t)) := by
  simp only [tcAt]; rw [h]; simp only []; rw [hk]; rfl

/-- A join barrier's contract is the product of its parts', as a parallel group's. -/
theorem tcAtJoin {t : Tree} {j f : Nat} {n : TNode} (h : nodeAt t j = some n) (hk : n.kind = 3) :
    tcAt (f + 1) t j = tcFold false [tcEmpty] ((tcKids t j n).map (tcAt f t)) := by
  simp only [tcAt]; rw [h]; simp only []; rw [hk]; rfl

/-- A sequence's contract is the ordered product of its parts'. -/
theorem tcAtSeq {t : Tree} {j f : Nat} {n : TNode} (h : nodeAt t j = some n) (hk : n.kind = 4) :
    tcAt (f + 1) t j = tcFold true [tcEmpty] ((tcKids t j n).map (tcAt f t)) := by
  simp only [tcAt]; rw [h]; simp only []; rw [hk]; rfl

/-- An open choice over two leaves: the union of the arms' outcomes. -/
theorem treeContractChoice2 (g a b sa sb : Nat) (ga gb : List Pomset) (da db : List Nat) :
    treeContract [⟨g, 1, 0, 0, 0, [], []⟩, ⟨a, 0, 1, 0, sa, ga, da⟩, ⟨b, 0, 1, 1, sb, gb, db⟩] =
      tcLeaf ⟨a, 0, 1, 0, sa, ga, da⟩ ++ (tcLeaf ⟨b, 0, 1, 1, sb, gb, db⟩ ++ []) := rfl

/-- A choice that selected its second arm: that arm's outcomes only. -/
theorem treeContractSelected2 (g a b sa sb : Nat) (ga gb : List Pomset) (da db : List Nat) :
    treeContract [⟨g, 1, 0, 0, 2, [], []⟩, ⟨a, 0, 1, 0, sa, ga, da⟩, ⟨b, 0, 1, 1, sb, gb, db⟩] =
      tcLeaf ⟨b, 0, 1, 1, sb, gb, db⟩ ++ [] := rfl

/-- A parallel group over two leaves: every pair of the parts' outcomes, merged. -/
theorem treeContractPar2 (g a b sa sb : Nat) (ga gb : List Pomset) (da db : List Nat) :
    treeContract [⟨g, 2, 0, 0, 0, [], []⟩, ⟨a, 0, 1, 0, sa, ga, da⟩, ⟨b, 0, 1, 1, sb, gb, db⟩] =
      tcProd false (tcProd false [tcEmpty] (tcLeaf ⟨a, 0, 1, 0, sa, ga, da⟩)) (tcLeaf ⟨b, 0, 1, 1, sb, gb, db⟩) := rfl

/-- A sequence of two leaves: every pair of the parts' outcomes, merged with the first's calls before
the second's. -/
theorem treeContractSeq2 (a b sa sb : Nat) (ga gb : List Pomset) (da db : List Nat) :
    treeContract [⟨0, 4, 0, 0, 0, [], []⟩, ⟨a, 0, 1, 0, sa, ga, da⟩, ⟨b, 0, 1, 1, sb, gb, db⟩] =
      tcProd true (tcProd true [tcEmpty] (tcLeaf ⟨a, 0, 1, 0, sa, ga, da⟩)) (tcLeaf ⟨b, 0, 1, 1, sb, gb, db⟩) := rfl

/-- Merging in sequence orders every call of the first outcome before every call of the second. -/
theorem tcJoinSeqOrder (a b : Pomset) : (tcJoin true a b).order = a.order ++ (b.order ++ cross a.events b.events) := rfl

theorem tcJoinEvents (o : Bool) (a b : Pomset) : (tcJoin o a b).events = a.events ++ b.events := rfl

end AgentWarrant.Edits.Machine
