import AgentWarrant.Spec.Edits.Context
import AgentWarrant.Thm.Edits.Judgment
/-! Context identity preserves coverage (*When Can Agents Safely Checkpoint, Fork, Restore, and Merge?*,
Lemma 2: "some complete target result `t` satisfies `Covers_u(t, a)`, including every unchanged result
outside the edited region"; Appendix A-D1), in the binary term model: if every required result of the
edited region `S` is covered by a result of the derived region `T`, then every required result of
`𝓔[S]` is covered, through the same context, by a result of `𝓔[T]` (`ctxCovered`), complete when
`𝓔[T]`'s calls are unique (`ctxCoveredComplete`); so each of the six rows, applied inside any context,
covers every result of the whole source term that is not an authorized removal
(`forkRestoreInContext` with `branchRequired` for the Fork and Restore rows on a branch,
`mergeSelectInContext`, `mergeJoinInContext` for the Merge rows on a group). -/
namespace AgentWarrant.Edits
open AgentWarrant

theorem ctxCovered (rel : TOut → TOut → Prop) (kp : TOut → Prop) {S T : Tm}
    (h : ∀ r, r ∈ S.outs → kp r → ∃ x, x ∈ T.outs ∧ rel x r) :
    ∀ (E : Ctx) (r : TOut), r ∈ (E.plug S).outs → E.keep kp r → ∃ x, x ∈ (E.plug T).outs ∧ E.lift rel x r
  | Ctx.hole, r, hr, hk => h r hr hk
  | Ctx.choiceL g c rt, r, hr, hk => by
    have hr' : r ∈ List.map (tagOut g false) (c.plug S).outs ++ List.map (tagOut g true) rt.outs := hr
    cases memAppend hr' with
    | inl h1 =>
      have ⟨r1, hr1, e⟩ := memMap h1
      have ⟨x1, hx1, hl⟩ := ctxCovered rel kp h c r1 hr1 (hk r1 e)
      exact ⟨tagOut g false x1, appendMemL _ (mapMem hx1), Or.inl ⟨x1, r1, rfl, e, hl⟩⟩
    | inr h2 =>
      have ⟨r2, hr2, e⟩ := memMap h2
      refine ⟨r, ?_, Or.inr ⟨rfl, r2, e⟩⟩
      rw [e]
      exact appendMemR _ (mapMem hr2)
  | Ctx.choiceR g lt c, r, hr, hk => by
    have hr' : r ∈ List.map (tagOut g false) lt.outs ++ List.map (tagOut g true) (c.plug S).outs := hr
    cases memAppend hr' with
    | inl h1 =>
      have ⟨r1, hr1, e⟩ := memMap h1
      refine ⟨r, ?_, Or.inr ⟨rfl, r1, e⟩⟩
      rw [e]
      exact appendMemL _ (mapMem hr1)
    | inr h2 =>
      have ⟨r2, hr2, e⟩ := memMap h2
      have ⟨x2, hx2, hl⟩ := ctxCovered rel kp h c r2 hr2 (hk r2 e)
      exact ⟨tagOut g true x2, appendMemR _ (mapMem hx2), Or.inl ⟨x2, r2, rfl, e, hl⟩⟩
  | Ctx.parL c rt, r, hr, hk => by
    have ⟨a, b, ha, hb, e⟩ := memProd (ordered := false) (A := (c.plug S).outs) (B := rt.outs) hr
    have ⟨x1, hx1, hl⟩ := ctxCovered rel kp h c a ha (hk a b e)
    exact ⟨joinOut false x1 b, prodMemOf hx1 hb, x1, a, b, rfl, e, hl⟩
  | Ctx.parR lt c, r, hr, hk => by
    have ⟨a, b, ha, hb, e⟩ := memProd (ordered := false) (A := lt.outs) (B := (c.plug S).outs) hr
    have ⟨x1, hx1, hl⟩ := ctxCovered rel kp h c b hb (hk a b e)
    exact ⟨joinOut false a x1, prodMemOf ha hx1, x1, b, a, rfl, e, hl⟩
  | Ctx.seqL c rt, r, hr, hk => by
    have ⟨a, b, ha, hb, e⟩ := memProd (ordered := true) (A := (c.plug S).outs) (B := rt.outs) hr
    have ⟨x1, hx1, hl⟩ := ctxCovered rel kp h c a ha (hk a b e)
    exact ⟨joinOut true x1 b, prodMemOf hx1 hb, x1, a, b, rfl, e, hl⟩
  | Ctx.seqR lt c, r, hr, hk => by
    have ⟨a, b, ha, hb, e⟩ := memProd (ordered := true) (A := lt.outs) (B := (c.plug S).outs) hr
    have ⟨x1, hx1, hl⟩ := ctxCovered rel kp h c b hb (hk a b e)
    exact ⟨joinOut true a x1, prodMemOf ha hx1, x1, b, a, rfl, e, hl⟩

/-- With unique calls in `𝓔[T]`, the covering result is complete (it has a linearization). -/
theorem ctxCoveredComplete (rel : TOut → TOut → Prop) (kp : TOut → Prop) {S T : Tm}
    (h : ∀ r, r ∈ S.outs → kp r → ∃ x, x ∈ T.outs ∧ rel x r) (E : Ctx) (hnd : Nodup (E.plug T).calls)
    (r : TOut) (hr : r ∈ (E.plug S).outs) (hk : E.keep kp r) :
    ∃ x, x ∈ (E.plug T).outs ∧ E.lift rel x r ∧ ∃ w, Lin x.pom w :=
  have ⟨x, hx, hl⟩ := ctxCovered rel kp h E r hr hk
  ⟨x, hx, hl, outsComplete (E.plug T) hnd x hx⟩

/-- A derived record whose required results include every result `r` of the edited region `S` (with
region tag `b`) covers, in any context `𝓔`, every result of `𝓔[S]` that is not an authorized removal
by a complete result of `𝓔[T']` (the same context around the region's covering result, or the same
result away from the hole), when `𝓔[T']`'s calls are unique. -/
theorem derivedCtxCovered {D : Derived} (hcov : D.Covered) (S : Tm) (b : Bool)
    (hreg : ∀ r, r ∈ S.outs → (b, r) ∈ D.required) (E : Ctx) (hnd : Nodup (E.plug D.target).calls)
    (r : TOut) (hr : r ∈ (E.plug S).outs) (hk : E.keep (fun _ => D.removed b = false) r) :
    ∃ x, x ∈ (E.plug D.target).outs ∧ E.lift (fun x r => D.rel x (b, r)) x r ∧ ∃ w, Lin x.pom w :=
  ctxCoveredComplete (fun x r => D.rel x (b, r)) (fun _ => D.removed b = false)
    (fun r hr hk => hcov (b, r) (hreg r hr) hk) E hnd r hr hk

/-- The Fork and Restore rows in context: an edit of the branch `b:C` inside `𝓔[·]` covers every result
of `𝓔[C]` that is not removed by a complete result of `𝓔[T']`, through the same context (the results of
the current branch are required with region tag `false` in all four rows). -/
theorem forkRestoreInContext {T : Tm} {K : Nat → Option Tm} {u : Req} {D : Derived} (hW : WellFormedSrc T K)
    (h : EditJ T K u D) (hrow : ∀ r, r ∈ T.outs → (false, r) ∈ D.required) (E : Ctx)
    (hnd : Nodup (E.plug D.target).calls) (r : TOut) (hr : r ∈ (E.plug T).outs)
    (hk : E.keep (fun _ => D.removed false = false) r) :
    ∃ x, x ∈ (E.plug D.target).outs ∧ E.lift (fun x r => D.rel x (false, r)) x r ∧ ∃ w, Lin x.pom w :=
  derivedCtxCovered (editPreserves hW h).1 T false hrow E hnd r hr hk

/-- The four rows on a branch require every result of the branch with region tag `false`. -/
theorem branchRequired {T : Tm} {K : Nat → Option Tm} {u : Req} {D : Derived} (h : EditJ T K u D)
    (hu : ∀ g w EJ, u ≠ Req.mergeSelect g w EJ) (hj : ∀ EJ, u ≠ Req.mergeJoin EJ) :
    ∀ r, r ∈ T.outs → (false, r) ∈ D.required := by
  intro r hr
  cases h with
  | forkChoice g fL fR _ _ _ => exact appendMemL _ (tagMem hr)
  | forkParallel fL fR _ _ _ => exact appendMemL _ (tagMem hr)
  | restoreReplace k fk Ck _ _ => exact appendMemL _ (tagMem hr)
  | restoreLive k fk Ck _ _ _ => exact appendMemL _ (tagMem hr)
  | mergeSelect g w TL TR EJ _ _ _ _ => exact absurd rfl (hu g w EJ)
  | mergeJoin TL TR EJ _ _ _ _ => exact absurd rfl (hj EJ)
  | extend => exact tagMem hr

theorem tagOutInj {g g' : Nat} {b b' : Bool} : ∀ {o o' : TOut}, tagOut g b o = tagOut g' b' o' → b = b' ∧ o = o'
  | ⟨s, p⟩, ⟨s', p'⟩, h => by
    have ⟨hs, hp⟩ := TOut.mk.inj h
    have ⟨h1, h2⟩ := List.cons.inj hs
    have ⟨_, hb⟩ := Prod.mk.inj h1
    have h2' : s = s' := h2
    have hp' : p = p' := hp
    rw [hb, h2', hp']
    exact ⟨rfl, rfl⟩

/-- MergeSelect in context: on `𝓔[T_L ⊕_g T_R]`, every result of the whole source term that took the
selected arm `w` (or lies away from the hole) is covered, through the same context, by a complete
result of `𝓔[T_w ; E_J]`; the unselected arm's results are the authorized removals. -/
theorem mergeSelectInContext (g : Nat) (w : Bool) (TL TR EJ : Tm) (E : Ctx)
    (hnd : Nodup (E.plug (mergeSelect w TL TR EJ).target).calls) (r : TOut)
    (hr : r ∈ (E.plug (Tm.choice g TL TR)).outs) (hk : E.keep (fun r => ∃ o, r = tagOut g w o) r) :
    ∃ x, x ∈ (E.plug (mergeSelect w TL TR EJ).target).outs ∧
      E.lift (fun x r => ∃ o, r = tagOut g w o ∧ (mergeSelect w TL TR EJ).rel x (w, o)) x r ∧ ∃ v, Lin x.pom v := by
  refine ctxCoveredComplete _ _ (fun r0 hr0 hk0 => ?_) E hnd r hr hk
  have ⟨o, eo⟩ := hk0
  have hcov := mergeSelectCovered w TL TR EJ
  have hr0' : r0 ∈ List.map (tagOut g false) TL.outs ++ List.map (tagOut g true) TR.outs := hr0
  have hreq : (w, o) ∈ (mergeSelect w TL TR EJ).required := by
    cases memAppend hr0' with
    | inl h1 =>
      have ⟨o1, ho1, e1⟩ := memMap h1
      have ⟨hb, ho⟩ := tagOutInj (e1.symm.trans eo)
      rw [← hb, ← ho]
      exact appendMemL _ (tagMem ho1)
    | inr h2 =>
      have ⟨o2, ho2, e2⟩ := memMap h2
      have ⟨hb, ho⟩ := tagOutInj (e2.symm.trans eo)
      rw [← hb, ← ho]
      exact appendMemR _ (tagMem ho2)
  have hrem : (mergeSelect w TL TR EJ).removed w = false := by cases w <;> rfl
  have ⟨x, hx, hrel⟩ := hcov (w, o) hreq hrem
  exact ⟨x, hx, o, eo, hrel⟩

/-- MergeJoin in context: on `𝓔[T_L ∥ T_R]`, every result of the whole source term is covered, through
the same context, by a complete result of `𝓔[(T_L ∥ T_R) ; E_J]`. -/
theorem mergeJoinInContext (TL TR EJ : Tm) (E : Ctx) (hnd : Nodup (E.plug (mergeJoin TL TR EJ).target).calls)
    (r : TOut) (hr : r ∈ (E.plug (Tm.par TL TR)).outs) (hk : E.keep (fun _ => True) r) :
    ∃ x, x ∈ (E.plug (mergeJoin TL TR EJ).target).outs ∧
      E.lift (fun x r => ∃ o o', r = joinOut false o o' ∧ (mergeJoin TL TR EJ).rel x (false, o)) x r ∧
      ∃ v, Lin x.pom v := by
  refine ctxCoveredComplete _ _ (fun r0 hr0 _ => ?_) E hnd r hr hk
  have ⟨o, o', ho, ho', e⟩ := memProd (ordered := false) (A := TL.outs) (B := TR.outs) hr0
  have ⟨ej, hej⟩ := outsNonempty EJ
  exact ⟨joinOut true (joinOut false o o') ej, prodMemOf (prodMemOf ho ho') hej, o, o', e, o', ej, ho', hej, rfl⟩

end AgentWarrant.Edits
