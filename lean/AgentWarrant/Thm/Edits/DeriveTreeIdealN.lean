import AgentWarrant.Thm.Edits.DeriveTreeJudged
/-! The ideal machine's trees with Lean's names (*When Can Agents Safely Checkpoint, Fork, Restore, and
Merge?*, Table I, Appendix A-D1's fresh IDs, Appendix A-H's ideal machine), the analogue of `stepTreeN`
for the runtime:
- a tree step of the derivation that names the changes with Lean's names (`namedTab`) is the record's
  tree, its `HStep`, or `applyEdit` of the change `Derive` names there with `leanNames` (`treeStepNamed`);
- on the ideal machine run with `treeDerN`, every step's tree is the record's, its `HStep`, or
  `applyEdit` of such a change, whose names are fresh for the tree and none of them a reserved name
  (`stepITreeN`), and an accepted edit's tree is `applyEdit` of the change `Derive` names for that
  edit's own entry, with Lean's names (`editITreeN`).
Choice: "accepted" is the ideal machine's own observation (`Obs.accepted`); a refused or invalid edit
leaves the record unchanged, which `stepITreeN`'s first case covers. -/
namespace AgentWarrant.Edits.Machine
open AgentWarrant AgentWarrant.Edits

/-- A tree a step may leave when `Derive`'s changes carry Lean's names: the record's, its `HStep`, or
`applyEdit` of the change `Derive` names there, with Lean's names in place of its own. -/
theorem treeStepNamed {der : Core → Nat → Option (Derived × TEdit)} {c : Core} {t' : Tree}
    (h : TreeStep (namedTab der) c t') :
    t' = c.tree ∨ (∃ x, t' = hstep c.tree x) ∨
      (∃ u d e0, der c u = some (d, e0) ∧ applyEdit c.tree (leanNames c.tree (reserved c) e0) = some t') := by
  cases h with
  | inl h => exact Or.inl h
  | inr h => cases h with
    | inl h => exact Or.inr (Or.inl h)
    | inr h =>
      have ⟨u, d, e1, ht, ha⟩ := h
      cases hd : der c u with
      | none => simp only [namedTab, hd] at ht
      | some p => cases p with
        | mk d0 e0 =>
          simp only [namedTab, hd] at ht
          have ⟨_, h2⟩ := Prod.mk.inj (Option.some.inj ht)
          rw [← h2] at ha
          exact Or.inr (Or.inr ⟨u, d0, e0, hd, ha⟩)

/-- On the ideal machine run with `treeDerN`, every step leaves the record's tree, its `HStep`, or
`applyEdit` of the record's tree for the change `Derive` names there with Lean's names, which are fresh
for the tree (A-D1) and none of them a reserved name (a checkpoint ID or a registered name). -/
theorem stepITreeN (der : Core → Nat → Option (Derived × TEdit)) (c : Core) (ev : IEv) :
    let t' := (stepI (treeDerN der) c ev).2.tree
    t' = c.tree ∨ (∃ x, t' = hstep c.tree x) ∨
      (∃ u d e0, der c u = some (d, e0) ∧
        freshIn c.tree (leanNames c.tree (reserved c) e0) = true ∧
        allB (fun x => !(memN x (reserved c))) (freshNames (leanNames c.tree (reserved c) e0)) = true ∧
        applyEdit c.tree (leanNames c.tree (reserved c) e0) = some t') := by
  cases treeStepNamed (stepITree (namedTab der) c ev) with
  | inl h => exact Or.inl h
  | inr h => cases h with
    | inl h => exact Or.inr (Or.inl h)
    | inr h =>
      have ⟨u, d, e0, hd, ha⟩ := h
      exact Or.inr (Or.inr ⟨u, d, e0, hd, leanNamesFresh c.tree (reserved c) e0,
        leanNamesAvoid c.tree (reserved c) e0, ha⟩)

/-- An edit the ideal machine run with `treeDerN` accepts leaves `applyEdit` of the record's tree for the
change `Derive` names for that edit's entry, with Lean's names (fresh, and none a reserved name). -/
theorem editITreeN (der : Core → Nat → Option (Derived × TEdit)) (c : Core) (u : Nat)
    (h : (stepI (treeDerN der) c (IEv.edit u)).1 = Obs.accepted) :
    ∃ d e0, der c u = some (d, e0) ∧
      freshIn c.tree (leanNames c.tree (reserved c) e0) = true ∧
      allB (fun x => !(memN x (reserved c))) (freshNames (leanNames c.tree (reserved c) e0)) = true ∧
      applyEdit c.tree (leanNames c.tree (reserved c) e0) = some (stepI (treeDerN der) c (IEv.edit u)).2.tree := by
  show ∃ d e0, der c u = some (d, e0) ∧
      freshIn c.tree (leanNames c.tree (reserved c) e0) = true ∧
      allB (fun x => !(memN x (reserved c))) (freshNames (leanNames c.tree (reserved c) e0)) = true ∧
      applyEdit c.tree (leanNames c.tree (reserved c) e0) = some (editI (treeDerN der) c u).2.tree
  have h' : (editI (treeDerN der) c u).1 = Obs.accepted := h
  cases hd : treeDerN der c u with
  | none => simp only [editI, hd] at h'
  | some d =>
    cases hs : safeSet (build d.inst) with
    | nil => simp only [editI, hd, hs] at h'
    | cons s ss =>
      simp only [editI, hd, hs]
      have ⟨d1, e1, h1, h2⟩ := treeDerTree hd
      cases hder : der c u with
      | none => simp only [namedTab, hder] at h1
      | some p => cases p with
        | mk d0 e0 =>
          simp only [namedTab, hder] at h1
          have ⟨_, h3⟩ := Prod.mk.inj (Option.some.inj h1)
          rw [← h3] at h2
          exact ⟨d0, e0, rfl, leanNamesFresh c.tree (reserved c) e0, leanNamesAvoid c.tree (reserved c) e0, h2⟩

end AgentWarrant.Edits.Machine
