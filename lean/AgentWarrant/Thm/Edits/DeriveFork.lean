import AgentWarrant.Spec.Edits.DeriveFork
import AgentWarrant.Thm.Edits.DeriveRT
/-! Lemma 2's coverage conclusion and Lemma 4 for the Fork rows with continuation steps (*When Can
Agents Safely Checkpoint, Fork, Restore, and Merge?*, Lemma 2, Lemma 4, Table I; definitions in
`Spec/Edits/DeriveFork.lean`).

- `forkChoiceKCovered`, `forkParallelKCovered`: every required source result is covered by a target
  result (the copies extended by any result of the continuation; every term has one);
- `judgeKCoverWitnesses`: the instance of every record `judgeK` derives (any actions, labels, log and
  policy) has `CoverWitnesses`, so Lemma 4 holds for it with `PrefixClosed` the only hypothesis
  (`judgeKLemma4`, `Thm.forkWithStepsLargestSafeSet`);
- `relBKIff`, `coversOfKIff`: the covering lists `edit_derive` reports for these rows are the
  record's `Covers_u`. -/
namespace AgentWarrant.Edits.DeriveFork
open AgentWarrant AgentWarrant.Edits AgentWarrant.Edits.DeriveCover AgentWarrant.Edits.DeriveRT

theorem forkChoiceKCovered (g : Nat) (fL fR : Nat → Nat) (EL ER C : Tm) :
    (forkChoiceK g fL fR EL ER C).Covered := by
  intro r hr _
  cases memTwo (C1 := C) (C2 := C) hr with
  | inl h =>
    have ⟨o, ho, e⟩ := h
    subst e
    have ⟨x, hx⟩ := outsNonempty EL
    exact ⟨tagOut g false (joinOut true (renameOut fL o) x),
      appendMemL _ (mapMem (prodMemOf (cloneOuts fL C o ho) hx)), x, hx, rfl⟩
  | inr h =>
    have ⟨o, ho, e⟩ := h
    subst e
    have ⟨x, hx⟩ := outsNonempty ER
    exact ⟨tagOut g true (joinOut true (renameOut fR o) x),
      appendMemR _ (mapMem (prodMemOf (cloneOuts fR C o ho) hx)), x, hx, rfl⟩

theorem forkParallelKCovered (fL fR : Nat → Nat) (EL ER C : Tm) : (forkParallelK fL fR EL ER C).Covered := by
  intro r hr _
  have ⟨o', ho'⟩ := outsNonempty C
  have ⟨x, hx⟩ := outsNonempty EL
  have ⟨y, hy⟩ := outsNonempty ER
  cases memTwo (C1 := C) (C2 := C) hr with
  | inl h =>
    have ⟨o, ho, e⟩ := h
    subst e
    exact ⟨_, prodMemOf (prodMemOf (cloneOuts fL C o ho) hx) (prodMemOf (cloneOuts fR C o' ho') hy),
      o', x, y, ho', hx, hy, rfl⟩
  | inr h =>
    have ⟨o, ho, e⟩ := h
    subst e
    exact ⟨_, prodMemOf (prodMemOf (cloneOuts fL C o' ho') hx) (prodMemOf (cloneOuts fR C o ho) hy),
      o', x, y, ho', hx, hy, rfl⟩

theorem judgeKSome {T : Tm} {q : KReq} {D : Derived} (h : judgeK T q = some D) :
    D = recordK T q ∧ wfB T = true ∧ wfB (recordK T q).target = true := by
  cases hb : (wfB T && wfB (recordK T q).target) with
  | false => simp only [judgeK, hb] at h <;> exact Option.noConfusion h
  | true =>
    simp only [judgeK, hb] at h
    have ⟨h1, h2⟩ := andBoolIff.1 hb
    exact ⟨(Option.some.inj h).symm, h1, h2⟩

theorem recordKCovered (T : Tm) : ∀ q, (recordK T q).Covered
  | KReq.forkChoice g EL ER => forkChoiceKCovered g dblL dblR EL ER T
  | KReq.forkParallel EL ER => forkParallelKCovered dblL dblR EL ER T

/-- Lemma 2's coverage conclusion for the Fork rows with continuation steps. -/
theorem judgeKCoverWitnesses {T : Tm} {q : KReq} {D : Derived} (h : judgeK T q = some D)
    (act lab log : List Nat) (A : List Nat → Prop) : (D.theta act lab log A).CoverWitnesses := by
  have ⟨e, _, h2⟩ := judgeKSome h
  subst e
  exact Derived.coverWitnessesFrom _ (wfBSound h2).1 (recordKCovered T q) act lab log A

/-- Lemma 4 for the instance of every record `judgeK` derives, `PrefixClosed` the only hypothesis. -/
theorem judgeKLemma4 {T : Tm} {q : KReq} {D : Derived} (h : judgeK T q = some D)
    (act lab log : List Nat) (A : List Nat → Prop) (hA : (D.theta act lab log A).PrefixClosed) :
    let θ := D.theta act lab log A
    ((∃ L B, θ.Safe L B) ↔ θ.SafeEdit) ∧ (θ.SafeEdit → θ.Safe θ.Wdag θ.Bdag) ∧
    ∀ L B, θ.Safe L B → (∀ c, B c → θ.Bdag c) ∧ (∀ z, L z → θ.Wdag z) :=
  Theta.lemma4 hA (judgeKCoverWitnesses h act lab log A)

theorem anyAnyAnyIff {A B C : List TOut} {f : TOut → TOut → TOut → TOut} {x : TOut} :
    anyB (fun a => anyB (fun b => anyB (fun c => toutB x (f a b c)) C) B) A = true ↔
      ∃ a b c, a ∈ A ∧ b ∈ B ∧ c ∈ C ∧ x = f a b c :=
  ⟨fun h => let ⟨a, ha, hb⟩ := anyBElim h; let ⟨b, hb', hc⟩ := anyBElim hb; let ⟨c, hc', he⟩ := anyBElim hc;
      ⟨a, b, c, ha, hb', hc', (toutBIff _ _).1 he⟩,
   fun ⟨a, b, c, ha, hb, hc, he⟩ => anyBIntro ha (anyBIntro hb (anyBIntro hc ((toutBIff _ _).2 he)))⟩

/-- `relBK` decides the coverage relation of every record `judgeK` derives. -/
theorem relBKIff {T : Tm} {q : KReq} {D : Derived} (h : judgeK T q = some D) (x : TOut) (r : Bool × TOut) :
    relBK T q x r = true ↔ D.rel x r := by
  have ⟨e, _, _⟩ := judgeKSome h
  subst e
  cases q with
  | forkChoice g EL ER => exact anyToutIff
  | forkParallel EL ER =>
    cases r with
    | mk b o =>
      cases b with
      | false => exact anyAnyAnyIff
      | true => exact anyAnyAnyIff

/-- The covering list `edit_derive` reports for a required result is the record's `Covers_u`. -/
theorem coversOfKIff {T : Tm} {q : KReq} {D : Derived} (h : judgeK T q = some D) (r : Bool × TOut) (t : Nat) :
    t ∈ coversOf (relBK T q) r D.target.outs ↔ ∃ x, pick D.target.outs t = some x ∧ D.rel x r :=
  (memCoversOf _ r D.target.outs t).trans
    ⟨fun ⟨x, hx, hr⟩ => ⟨x, hx, (relBKIff h x r).1 hr⟩, fun ⟨x, hx, hr⟩ => ⟨x, hx, (relBKIff h x r).2 hr⟩⟩

end AgentWarrant.Edits.DeriveFork

namespace AgentWarrant.Thm
open AgentWarrant.Edits

/-- Lemma 4 with no coverage hypothesis for the Fork rows with the edit rule's continuation steps
(`(clone_L(C) ; E_L) ⊕_g (clone_R(C) ; E_R)` and `(clone_L(C) ; E_L) ∥ (clone_R(C) ; E_R)`). -/
theorem forkWithStepsLargestSafeSet {T : Tm} {q : DeriveFork.KReq} {D : Derived}
    (h : DeriveFork.judgeK T q = some D) (act lab log : List Nat) (A : List Nat → Prop)
    (hA : (D.theta act lab log A).PrefixClosed) :
    let θ := D.theta act lab log A
    ((∃ L B, θ.Safe L B) ↔ θ.SafeEdit) ∧ (θ.SafeEdit → θ.Safe θ.Wdag θ.Bdag) ∧
    ∀ L B, θ.Safe L B → (∀ c, B c → θ.Bdag c) ∧ (∀ z, L z → θ.Wdag z) :=
  DeriveFork.judgeKLemma4 h act lab log A hA

end AgentWarrant.Thm
