import AgentWarrant.Spec.Edits.TreeContractInstRoot
/-! The root update installs `Derive`'s input instance and tree (`tciStartInstalls`), through the order,
name and arity checks (`tciStartArityStart`), so a root passing `tciRootOk`
(`Spec/Edits/TreeContractInstRoot.lean`; *When Can Agents Safely Checkpoint, Fork, Restore, and Merge?*,
Sections IV-A and IV-B1) installs an instance whose outcomes are `⟦T⟧` of the installed tree
(`tciRootInstalls`). -/
namespace AgentWarrant.Edits.Machine
open AgentWarrant AgentWarrant.Edits

theorem tciStartInstalls {d : Derived} {S0 : RState} (h : start d = some S0) :
    S0.core.inst = d.inst ∧ S0.core.tree = d.tree := by
  revert h
  simp only [start]
  cases safeSet (build d.inst) with
  | nil => intro h; cases h
  | cons s ss => intro h; cases h; exact ⟨rfl, rfl⟩

theorem tciStartArityStart {d : Derived} {S0 : RState} (h : startArity d = some S0) : start d = some S0 := by
  cases ha : aritiesB d.tree with
  | false => simp [startArity, ha] at h
  | true =>
    cases hn : namesDistinctB d.tree with
    | false => simp [startArity, startNamed, ha, hn] at h
    | true =>
      cases hr : rootOrderB d.tree with
      | false => simp [startArity, startNamed, startChecked, ha, hn, hr] at h
      | true =>
        simp only [startArity, startNamed, startChecked, ha, hn, hr] at h
        exact h

/-- A root the oracles start from and whose check holds installs an instance whose outcomes are `⟦T⟧` of
the installed tree. -/
theorem tciRootInstalls {d : Derived} {S0 : RState} (h : startArity d = some S0) (hr : tciRootOk d = true) :
    instOutcomesAgreeB S0.core.inst S0.core.tree = true := by
  have hs := tciStartInstalls (tciStartArityStart h)
  rw [hs.1, hs.2]
  exact hr

end AgentWarrant.Edits.Machine
