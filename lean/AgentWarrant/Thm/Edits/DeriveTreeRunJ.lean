import AgentWarrant.Spec.Edits.DeriveTreeRunJ
import AgentWarrant.Thm.Edits.DeriveTreeSrc
/-! The trees of the runtime and ideal oracles' machines (`derRunJ`, `Spec/Edits/DeriveTreeRunJ.lean`;
*When Can Agents Safely Checkpoint, Fork, Restore, and Merge?*, Table I, Section IV-B1):
- a tree step of `runJTab` is the record's tree, its `HStep`, `applyEdit` with Lean's names of the change
  `Derive` names for an entry without a judged request, or `applyEdit` with Lean's names of the judged
  change (`runJEdit`: `judgedTEdit` with the fresh calls named by `out`) for an entry with one, whose
  judgment is defined and whose terms pass the source check where the row copies a source (`runJTreeStep`);
- so on the runtime machine (`stepTreeRunJ`) and on the ideal machine (`stepITreeRunJ`) every step's tree
  is one of these. Where the check holds, `forkArmsAreResidual`, `forkStepArmsAreResidual` and
  `restoreIsStored` (with `src := runJSrc j`) say what the judged contracts are: the edited leaf's or the
  stored copy's `Γ/raw(χ)` under the copy renamings (`runJForkArms` states it for `judge`'s Fork rows,
  `runJRestoreIsStored` for the Restore rows). -/
namespace AgentWarrant.Edits.DeriveTreeRunJ
open AgentWarrant AgentWarrant.Edits AgentWarrant.Edits.Machine AgentWarrant.Edits.DeriveTreeJudged
open AgentWarrant.Edits.DeriveTreeSrc AgentWarrant.Edits.DeriveCover AgentWarrant.Edits.DeriveFork

/-- The trees a step of `derRunJ der` may leave at the record `c`. -/
def RunJTree (der : Core → Nat → Option ((Machine.Derived × TEdit) × Option RunJReq)) (c : Core) (t' : Tree) :
    Prop :=
  t' = c.tree ∨ (∃ x, t' = hstep c.tree x) ∨
    (∃ u d e, der c u = some ((d, e), none) ∧ applyEdit c.tree (leanNames c.tree (reserved c) e) = some t') ∨
    (∃ u d e j D, der c u = some ((d, e), some j) ∧ judgeA j.region j.store j.req = some D ∧
      (readsLeaf j.req = true → srcAgreesB (runJSrc j) c (editTarget e) = true) ∧
      applyEdit c.tree (leanNames c.tree (reserved c) (runJEdit j D (editTarget e))) = some t')

theorem runJTreeStep {der : Core → Nat → Option ((Machine.Derived × TEdit) × Option RunJReq)} {c : Core}
    {t' : Tree} (h : TreeStep (runJTab der) c t') : RunJTree der c t' := by
  cases h with
  | inl h => exact Or.inl h
  | inr h => cases h with
    | inl h => exact Or.inr (Or.inl h)
    | inr h =>
      have ⟨u, d1, te, ht, ha⟩ := h
      cases hd : der c u with
      | none => simp only [runJTab, hd] at ht
      | some p => cases p with
        | mk de oj => cases de with
          | mk d e => cases oj with
            | none =>
              simp only [runJTab, hd] at ht
              have ⟨_, h2⟩ := Prod.mk.inj (Option.some.inj ht)
              rw [← h2] at ha
              exact Or.inr (Or.inr (Or.inl ⟨u, d, e, hd, ha⟩))
            | some j =>
              cases hb : runJAgrees j c (editTarget e) with
              | false => simp only [runJTab, hd, hb] at ht
              | true =>
                have hs : readsLeaf j.req = true → srcAgreesB (runJSrc j) c (editTarget e) = true := fun hr => by
                  have hb2 : (!readsLeaf j.req || srcAgreesB (runJSrc j) c (editTarget e)) = true := hb
                  rw [hr] at hb2
                  exact hb2
                cases hj : judgeA j.region j.store j.req with
                | none => simp only [runJTab, hd, hb, hj] at ht
                | some D =>
                  simp only [runJTab, hd, hb, hj] at ht
                  have ⟨_, h2⟩ := Prod.mk.inj (Option.some.inj ht)
                  rw [← h2] at ha
                  exact Or.inr (Or.inr (Or.inr ⟨u, d, e, j, D, hd, hj, hs, ha⟩))

/-- On the runtime machine run with `derRunJ`, every committed step's tree is one `RunJTree` allows. -/
theorem stepTreeRunJ (der : Core → Nat → Option ((Machine.Derived × TEdit) × Option RunJReq)) (S : RState)
    (ev : Ev) : RunJTree der S.core (stepR (derRunJ der) S ev).2.core.tree :=
  runJTreeStep (stepTree (runJTab der) S ev)

/-- On the ideal machine run with `derRunJ`, every step's tree is one `RunJTree` allows. -/
theorem stepITreeRunJ (der : Core → Nat → Option ((Machine.Derived × TEdit) × Option RunJReq)) (c : Core)
    (ev : IEv) : RunJTree der c (stepI (derRunJ der) c ev).2.tree :=
  runJTreeStep (stepITree (runJTab der) c ev)

/-- A judged Fork of `judge`'s rows whose terms pass the check installs, before Lean's node names, the
forked leaf's `Γ_b/raw(χ_b)` under the two copy renamings, each then named by `out`. -/
theorem runJForkArms {j : RunJReq} {c : Core} {x : Nat} {D : Edits.Derived}
    (ha : srcAgreesB (runJSrc j) c x = true) :
    ∃ l, leafNamed c.tree x = some l ∧
      (∀ g, j.req = AReq.base (CReq.forkChoice g) → judgeA j.region j.store j.req = some D →
        runJEdit j D x = TEdit.fork false x 0 0 0
          (List.map (renamePom j.out) (List.map (renamePom dblL) (restPoms l.gamma l.done)))
          (List.map (renamePom j.out) (List.map (renamePom dblR) (restPoms l.gamma l.done)))) ∧
      (j.req = AReq.base CReq.forkParallel → judgeA j.region j.store j.req = some D →
        runJEdit j D x = TEdit.fork true x 0 0 0
          (List.map (renamePom j.out) (List.map (renamePom dblL) (restPoms l.gamma l.done)))
          (List.map (renamePom j.out) (List.map (renamePom dblR) (restPoms l.gamma l.done)))) := by
  have ⟨l, hl, hc, hp⟩ := forkArmsAreResidual (D := D) ha
  refine ⟨l, hl, fun g hr hj => ?_, fun hr hj => ?_⟩
  · rw [hr] at hj
    show renameTEdit j.out (judgedTEdit j.req D x) = _
    rw [hr, hc g hj]
    rfl
  · rw [hr] at hj
    show renameTEdit j.out (judgedTEdit j.req D x) = _
    rw [hr, hp hj]
    rfl

/-- A judged Restore whose terms pass the check installs, before Lean's node names, the stored copy's
`Γ_k/raw(χ_k)` (the checkpoint with ID `k` the record holds) under the counter's renaming, then named by
`out`. -/
theorem runJRestoreIsStored {j : RunJReq} {c : Core} {x k n : Nat} {D : Edits.Derived} {s : Saved}
    (ha : srcAgreesB (runJSrc j) c x = true) (hs : s ∈ c.saved) (hk : s.id = k) :
    (j.req = AReq.base (CReq.restoreReplace k n) → judgeA j.region j.store j.req = some D →
      runJEdit j D x = TEdit.restore false x 0 0
        (List.map (renamePom j.out) (List.map (renamePom (shift n)) (restPoms s.gamma s.done)))) ∧
    (j.req = AReq.base (CReq.restoreLive k n) → judgeA j.region j.store j.req = some D →
      runJEdit j D x = TEdit.restore true x 0 0
        (List.map (renamePom j.out) (List.map (renamePom (shift n)) (restPoms s.gamma s.done)))) := by
  have ⟨hr, hl⟩ := restoreIsStored (n := n) (D := D) ha hs hk
  refine ⟨fun hq hj => ?_, fun hq hj => ?_⟩
  · rw [hq] at hj
    show renameTEdit j.out (judgedTEdit j.req D x) = _
    rw [hq, hr hj]
    rfl
  · rw [hq] at hj
    show renameTEdit j.out (judgedTEdit j.req D x) = _
    rw [hq, hl hj]
    rfl

end AgentWarrant.Edits.DeriveTreeRunJ
