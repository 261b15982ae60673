import AgentWarrant.Spec.Edits.Derive
import AgentWarrant.Thm.Edits.Term
/-! Lemma 2's coverage witnesses for the six edit forms and `Extend` (*When Can Agents Safely
Checkpoint, Fork, Restore, and Merge?*, Section V-A2, Appendix A-D1 and A-D2), on the binary term
model of `Spec/Edits/Derive.lean`:

- `Derived.coverWitnessesFrom`: a derived record whose target calls are unique (the fresh-identifier
  condition) and which covers every required, not removed source result by some target result
  (`Covered`) gives the checker's instance `CoverWitnesses` — the covering result is complete by the
  defined-constructor lemma (`outsComplete`);
- `Covered` for each of the seven rows (`forkChoiceCovered` … `extendCovered`), by constructor
  induction through `cloneOuts` and the product and choice results;
- hence Lemma 4 for the derived instance of every row with `PrefixClosed` and fresh target calls as
  its only hypotheses (`Derived.lemma4`). -/
namespace AgentWarrant.Edits
open AgentWarrant

theorem pickIndex {x : α} : ∀ {l : List α}, x ∈ l → ∃ n, pick l n = some x
  | _, Mem.head _ => ⟨0, rfl⟩
  | _, Mem.tail _ h => have ⟨n, e⟩ := pickIndex h; ⟨n + 1, e⟩

theorem pickMem {x : α} : ∀ {l : List α} {n : Nat}, pick l n = some x → x ∈ l
  | [], _, h => Option.noConfusion h
  | a :: l, 0, h => by have e : a = x := Option.some.inj h; rw [e]; exact Mem.head _
  | a :: l, n + 1, h => Mem.tail _ (pickMem (l := l) h)

theorem memTwo {r : Bool × TOut} {C1 C2 : Tm} (h : r ∈ twoRegions C1 C2) :
    (∃ o, o ∈ C1.outs ∧ r = (false, o)) ∨ (∃ o, o ∈ C2.outs ∧ r = (true, o)) := by
  cases memAppend h with
  | inl h1 => have ⟨o, ho, e⟩ := memMap h1; exact Or.inl ⟨o, ho, e⟩
  | inr h2 => have ⟨o, ho, e⟩ := memMap h2; exact Or.inr ⟨o, ho, e⟩

theorem prodMemOf {ordered : Bool} {A B : List TOut} {a b : TOut} (ha : a ∈ A) (hb : b ∈ B) :
    joinOut ordered a b ∈ prodOut ordered A B :=
  concatMem (mapMem (f := fun a => List.map (joinOut ordered a) B) ha) (mapMem (f := joinOut ordered a) hb)

namespace Derived

/-- The record covers every required source result that is not an authorized removal. -/
def Covered (D : Derived) : Prop :=
  ∀ r, r ∈ D.required → D.removed r.1 = false → ∃ x, x ∈ D.target.outs ∧ D.rel x r

/-- Lemma 2's coverage conclusion for a derived record: with fresh target calls, a covered record's
instance has `CoverWitnesses` (every still-required result is covered by a complete target result). -/
theorem coverWitnessesFrom (D : Derived) (hnd : Nodup D.target.calls) (hcov : D.Covered)
    (act lab log : List Nat) (A : List Nat → Prop) : (D.theta act lab log A).CoverWitnesses := by
  intro a ⟨⟨r, hr⟩, _, hrem⟩
  have hnr : D.removed r.1 = false := by
    cases h : D.removed r.1 with
    | false => rfl
    | true => exact False.elim (hrem ⟨r, hr, h⟩)
  have ⟨x, hx, hrel⟩ := hcov r (pickMem hr) hnr
  have ⟨t, et⟩ := pickIndex hx
  have ⟨w, hw⟩ := outsComplete D.target hnd x hx
  have hp : (D.theta act lab log A).pom t = x.pom := by simp [theta, et]
  refine ⟨t, ⟨x, et⟩, ⟨x, r, et, hr, hrel⟩, w, ?_⟩
  rw [hp]; exact hw

/-- Lemma 4 for the instance of a covered derived record with fresh target calls: a safe execution set
exists iff `B̂† ≠ ∅`, and then `(W†, B̂†)` is safe and contains every safe pair. -/
theorem lemma4 (D : Derived) (hnd : Nodup D.target.calls) (hcov : D.Covered)
    (act lab log : List Nat) (A : List Nat → Prop) (hA : (D.theta act lab log A).PrefixClosed) :
    let θ := D.theta act lab log A
    ((∃ L B, θ.Safe L B) ↔ θ.SafeEdit) ∧ (θ.SafeEdit → θ.Safe θ.Wdag θ.Bdag) ∧
    ∀ L B, θ.Safe L B → (∀ c, B c → θ.Bdag c) ∧ (∀ z, L z → θ.Wdag z) :=
  Theta.lemma4 hA (coverWitnessesFrom D hnd hcov act lab log A)

end Derived

-- The seven rows -----------------------------------------------------------------------------------

theorem forkChoiceCovered (g : Nat) (fL fR : Nat → Nat) (C : Tm) : (forkChoice g fL fR C).Covered := by
  intro r hr _
  cases memTwo (C1 := C) (C2 := C) hr with
  | inl h =>
    have ⟨o, ho, e⟩ := h
    subst e
    exact ⟨tagOut g false (renameOut fL o), appendMemL _ (mapMem (cloneOuts fL C o ho)), rfl, rfl⟩
  | inr h =>
    have ⟨o, ho, e⟩ := h
    subst e
    exact ⟨tagOut g true (renameOut fR o), appendMemR _ (mapMem (cloneOuts fR C o ho)), rfl, rfl⟩

theorem forkParallelCovered (fL fR : Nat → Nat) (C : Tm) : (forkParallel fL fR C).Covered := by
  intro r hr _
  have ⟨o', ho'⟩ := outsNonempty C
  cases memTwo (C1 := C) (C2 := C) hr with
  | inl h =>
    have ⟨o, ho, e⟩ := h
    subst e
    exact ⟨_, prodMemOf (cloneOuts fL C o ho) (cloneOuts fR C o' ho'), o', ho', rfl⟩
  | inr h =>
    have ⟨o, ho, e⟩ := h
    subst e
    exact ⟨_, prodMemOf (cloneOuts fL C o' ho') (cloneOuts fR C o ho), o', ho', rfl⟩

theorem restoreReplaceCovered (fk : Nat → Nat) (C Ck : Tm) : (restoreReplace fk C Ck).Covered := by
  intro r hr hrem
  cases memTwo (C1 := C) (C2 := Ck) hr with
  | inl h =>
    have ⟨o, ho, e⟩ := h
    subst e
    exact Bool.noConfusion (hrem : true = false)
  | inr h =>
    have ⟨o, ho, e⟩ := h
    subst e
    exact ⟨renameOut fk o, cloneOuts fk Ck o ho, rfl, rfl⟩

theorem restoreLiveCovered (fk : Nat → Nat) (C Ck : Tm) : (restoreLive fk C Ck).Covered := by
  intro r hr _
  cases memTwo (C1 := C) (C2 := Ck) hr with
  | inl h =>
    have ⟨o, ho, e⟩ := h
    have ⟨o', ho'⟩ := outsNonempty Ck
    subst e
    exact ⟨_, prodMemOf ho (cloneOuts fk Ck o' ho'), o', ho', rfl⟩
  | inr h =>
    have ⟨o, ho, e⟩ := h
    have ⟨o', ho'⟩ := outsNonempty C
    subst e
    exact ⟨_, prodMemOf ho' (cloneOuts fk Ck o ho), o', ho', rfl⟩

theorem mergeSelectCovered (w : Bool) (TL TR EJ : Tm) : (mergeSelect w TL TR EJ).Covered := by
  intro r hr hrem
  have ⟨e, he⟩ := outsNonempty EJ
  cases memTwo (C1 := TL) (C2 := TR) hr with
  | inl h =>
    have ⟨o, ho, eq⟩ := h
    subst eq
    cases w with
    | false => exact ⟨_, prodMemOf (A := TL.outs) ho he, rfl, e, he, rfl⟩
    | true => exact Bool.noConfusion (hrem : true = false)
  | inr h =>
    have ⟨o, ho, eq⟩ := h
    subst eq
    cases w with
    | false => exact Bool.noConfusion (hrem : true = false)
    | true => exact ⟨_, prodMemOf (A := TR.outs) ho he, rfl, e, he, rfl⟩

theorem mergeJoinCovered (TL TR EJ : Tm) : (mergeJoin TL TR EJ).Covered := by
  intro r hr _
  have ⟨e, he⟩ := outsNonempty EJ
  cases memTwo (C1 := TL) (C2 := TR) hr with
  | inl h =>
    have ⟨o, ho, eq⟩ := h
    have ⟨o', ho'⟩ := outsNonempty TR
    subst eq
    exact ⟨_, prodMemOf (prodMemOf ho ho') he, o', e, ho', he, rfl⟩
  | inr h =>
    have ⟨o, ho, eq⟩ := h
    have ⟨o', ho'⟩ := outsNonempty TL
    subst eq
    exact ⟨_, prodMemOf (prodMemOf ho' ho) he, o', e, ho', he, rfl⟩

theorem extendCovered (T : Tm) : (extendRow T).Covered := by
  intro r hr _
  have ⟨o, ho, eq⟩ := memMap (f := fun o => (false, o)) (l := T.outs) hr
  subst eq
  exact ⟨o, ho, rfl⟩

-- Fresh identifiers give unique target calls ---------------------------------------------------------

theorem cloneCalls (f : Nat → Nat) : ∀ (T : Tm), (T.clone f).calls = List.map f T.calls
  | Tm.call c => rfl
  | Tm.nil => rfl
  | Tm.choice g l r => by
    show (l.clone f).calls ++ (r.clone f).calls = List.map f (l.calls ++ r.calls)
    rw [cloneCalls f l, cloneCalls f r, mapAppend]
  | Tm.par l r => by
    show (l.clone f).calls ++ (r.clone f).calls = List.map f (l.calls ++ r.calls)
    rw [cloneCalls f l, cloneCalls f r, mapAppend]
  | Tm.seq l r => by
    show (l.clone f).calls ++ (r.clone f).calls = List.map f (l.calls ++ r.calls)
    rw [cloneCalls f l, cloneCalls f r, mapAppend]

/-- Two copies of a region by injective renamings with disjoint images have unique calls. -/
theorem twoCopiesNodup {f1 f2 : Nat → Nat} (h1 : Injective f1) (h2 : Injective f2) (hdis : ∀ a b, f1 a ≠ f2 b)
    {C1 C2 : Tm} (hC1 : Nodup C1.calls) (hC2 : Nodup C2.calls) :
    Nodup ((C1.clone f1).calls ++ (C2.clone f2).calls) := by
  rw [cloneCalls f1 C1, cloneCalls f2 C2]
  refine nodupAppendIntro (nodupMap h1 hC1) (nodupMap h2 hC2) (fun x hx hx' => ?_)
  have ⟨a, _, ea⟩ := memMap hx
  have ⟨b, _, eb⟩ := memMap hx'
  exact hdis a b (by rw [← ea, ← eb])

/-- A source region with unique calls followed by a continuation with fresh calls. -/
theorem thenFreshNodup {S E : List Nat} (hS : Nodup S) (hE : Nodup E) (hfresh : ∀ x, x ∈ E → ¬ x ∈ S) :
    Nodup (S ++ E) :=
  nodupAppendIntro hS hE (fun x hx hx' => hfresh x hx' hx)

theorem forkChoiceFresh (g : Nat) {fL fR : Nat → Nat} (hL : Injective fL) (hR : Injective fR)
    (hdis : ∀ a b, fL a ≠ fR b) {C : Tm} (hC : Nodup C.calls) : Nodup (forkChoice g fL fR C).target.calls :=
  twoCopiesNodup hL hR hdis hC hC

theorem forkParallelFresh {fL fR : Nat → Nat} (hL : Injective fL) (hR : Injective fR)
    (hdis : ∀ a b, fL a ≠ fR b) {C : Tm} (hC : Nodup C.calls) : Nodup (forkParallel fL fR C).target.calls :=
  twoCopiesNodup hL hR hdis hC hC

theorem restoreReplaceFresh {fk : Nat → Nat} (hk : Injective fk) (C : Tm) {Ck : Tm} (hCk : Nodup Ck.calls) :
    Nodup (restoreReplace fk C Ck).target.calls := by
  show Nodup (Ck.clone fk).calls
  rw [cloneCalls fk Ck]
  exact nodupMap hk hCk

/-- RestoreLive: the checkpoint's copy is renamed away from every call of the current branch. -/
theorem restoreLiveFresh {fk : Nat → Nat} (hk : Injective fk) {C Ck : Tm} (hC : Nodup C.calls)
    (hCk : Nodup Ck.calls) (hfresh : ∀ x b, x ∈ C.calls → fk b ≠ x) : Nodup (restoreLive fk C Ck).target.calls := by
  show Nodup (C.calls ++ (Ck.clone fk).calls)
  rw [cloneCalls fk Ck]
  refine nodupAppendIntro hC (nodupMap hk hCk) (fun x hx hx' => ?_)
  have ⟨b, _, eb⟩ := memMap hx'
  exact hfresh x b hx eb.symm

theorem onSideCalls {TL TR : Tm} (h : Nodup (TL.calls ++ TR.calls)) : ∀ (w : Bool),
    Nodup (onSide w TL TR).calls ∧ ∀ x, x ∈ (onSide w TL TR).calls → x ∈ TL.calls ++ TR.calls
  | false => ⟨(nodupAppend h).1, fun x hx => appendMemL _ hx⟩
  | true => ⟨(nodupAppend h).2.1, fun x hx => appendMemR _ hx⟩

/-- MergeSelect: the source choice `T_L ⊕_g T_R` has unique calls and `E_J`'s calls are fresh. -/
theorem mergeSelectFresh (w : Bool) {TL TR EJ : Tm} (hsrc : Nodup (TL.calls ++ TR.calls)) (hE : Nodup EJ.calls)
    (hfresh : ∀ x, x ∈ EJ.calls → ¬ x ∈ TL.calls ++ TR.calls) : Nodup (mergeSelect w TL TR EJ).target.calls := by
  show Nodup ((onSide w TL TR).calls ++ EJ.calls)
  have ⟨hw, hsub⟩ := onSideCalls hsrc w
  exact thenFreshNodup hw hE (fun x hx hx' => hfresh x hx (hsub x hx'))

/-- MergeJoin: the source pair `T_L ∥_g T_R` has unique calls and `E_J`'s calls are fresh. -/
theorem mergeJoinFresh {TL TR EJ : Tm} (hsrc : Nodup (TL.calls ++ TR.calls)) (hE : Nodup EJ.calls)
    (hfresh : ∀ x, x ∈ EJ.calls → ¬ x ∈ TL.calls ++ TR.calls) : Nodup (mergeJoin TL TR EJ).target.calls :=
  thenFreshNodup hsrc hE hfresh

theorem extendFresh {T : Tm} (hT : Nodup T.calls) : Nodup (extendRow T).target.calls := hT

/-- Lemma 2's coverage conclusion for every derived record. -/
theorem derivesCovered {D : Derived} : Derives D → D.Covered
  | Derives.ofForkChoice g fL fR C => forkChoiceCovered g fL fR C
  | Derives.ofForkParallel fL fR C => forkParallelCovered fL fR C
  | Derives.ofRestoreReplace fk C Ck => restoreReplaceCovered fk C Ck
  | Derives.ofRestoreLive fk C Ck => restoreLiveCovered fk C Ck
  | Derives.ofMergeSelect w TL TR EJ => mergeSelectCovered w TL TR EJ
  | Derives.ofMergeJoin TL TR EJ => mergeJoinCovered TL TR EJ
  | Derives.ofExtend T => extendCovered T

/-- `CoverWitnesses` for the instance of every derived record with fresh target calls: Lemma 4's
hypothesis discharged for all seven rows. -/
theorem derivesCoverWitnesses {D : Derived} (hD : Derives D) (hnd : Nodup D.target.calls)
    (act lab log : List Nat) (A : List Nat → Prop) : (D.theta act lab log A).CoverWitnesses :=
  D.coverWitnessesFrom hnd (derivesCovered hD) act lab log A

/-- A valid derivation is one of the rows and its target calls are unique (the well-formedness half
of Lemma 2 that the coverage needs, from Lemma 1's uniqueness and the fresh-identifier checks). -/
theorem validDerives {D : Derived} : ValidDerives D → Derives D ∧ Nodup D.target.calls
  | ValidDerives.ofForkChoice g fL fR C hL hR hdis hC => ⟨Derives.ofForkChoice g fL fR C, forkChoiceFresh g hL hR hdis hC⟩
  | ValidDerives.ofForkParallel fL fR C hL hR hdis hC => ⟨Derives.ofForkParallel fL fR C, forkParallelFresh hL hR hdis hC⟩
  | ValidDerives.ofRestoreReplace fk C Ck hk hCk => ⟨Derives.ofRestoreReplace fk C Ck, restoreReplaceFresh hk C hCk⟩
  | ValidDerives.ofRestoreLive fk C Ck hk hC hCk hfresh =>
    ⟨Derives.ofRestoreLive fk C Ck, restoreLiveFresh hk hC hCk hfresh⟩
  | ValidDerives.ofMergeSelect w TL TR EJ hsrc hE hfresh =>
    ⟨Derives.ofMergeSelect w TL TR EJ, mergeSelectFresh w hsrc hE hfresh⟩
  | ValidDerives.ofMergeJoin TL TR EJ hsrc hE hfresh => ⟨Derives.ofMergeJoin TL TR EJ, mergeJoinFresh hsrc hE hfresh⟩
  | ValidDerives.ofExtend T hT => ⟨Derives.ofExtend T, extendFresh hT⟩

/-- `CoverWitnesses` for the instance of every valid derivation, with no further hypothesis. -/
theorem validDerivesCoverWitnesses {D : Derived} (hD : ValidDerives D) (act lab log : List Nat)
    (A : List Nat → Prop) : (D.theta act lab log A).CoverWitnesses :=
  derivesCoverWitnesses (validDerives hD).1 (validDerives hD).2 act lab log A

/-- Lemma 8 for the instance of every valid derivation: `MaxSafe` holds for some pair iff `B̂† ≠ ∅`,
and such a pair equals `(W†, B̂†)`, with `PrefixClosed` as the only hypothesis. -/
theorem validDerivesLemma8 {D : Derived} (hD : ValidDerives D) (act lab log : List Nat) (A : List Nat → Prop)
    (hA : (D.theta act lab log A).PrefixClosed) :
    let θ := D.theta act lab log A
    ((∃ L B, θ.MaxSafe L B) ↔ θ.SafeEdit) ∧
    ∀ L B, θ.MaxSafe L B → (∀ z, L z ↔ θ.Wdag z) ∧ (∀ c, B c ↔ θ.Bdag c) :=
  Theta.lemma8 hA (validDerivesCoverWitnesses hD act lab log A)

end AgentWarrant.Edits
