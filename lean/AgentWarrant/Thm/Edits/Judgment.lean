import AgentWarrant.Spec.Edits.Judgment
import AgentWarrant.Thm.Edits.Derive
import AgentWarrant.Thm.Edits.Defined
/-! Lemma 2 for the edit judgment, edit-rule correctness (A-D1) and the registered extension (A-D2)
(*When Can Agents Safely Checkpoint, Fork, Restore, and Merge?*, Section V-A, Lemma 2, Appendix
A-D1, A-D2), in the binary term model (`Spec/Edits/Judgment.lean`):

- `editDeterministic`: the judgment `EditJ` derives at most one record for a region, a checkpoint
  store and a request;
- `editValid`, `editKeepsWellFormed`: from a well-formed source, a derivation is a valid one and its
  target is well formed (unique calls, every result complete);
- `editPreserves`: every required, not removed source result is covered, and the derived instance
  has `CoverWitnesses` for any actions, labels, log and policy;
- `cloneExact` (the `Copy` bijection of Table I: the clone's results are exactly the renamed
  results, one-to-one, with events and order preserved both ways through the renaming) and
  `rowsExact` (each of the seven rows' targets has exactly the results its preserved family states);
- `extendKeepsBdag`, `registeredExtension`: a registered extension that keeps the workflow, the
  actions, labels and log and enlarges the policy keeps every member of `B̂†`, so it is accepted, and
  its largest safe pair retains every result of the current workflow. -/
namespace AgentWarrant.Edits
open AgentWarrant

-- The copy bijection (Table I's `Copy_f`) --------------------------------------------------------------

theorem mapInj {α β : Type} {f : α → β} (hf : ∀ a b, f a = f b → a = b) :
    ∀ {l m : List α}, List.map f l = List.map f m → l = m
  | [], [], _ => rfl
  | [], _ :: _, h => List.noConfusion h
  | _ :: _, [], h => List.noConfusion h
  | a :: l, b :: m, h => by
    have h' : f a :: List.map f l = f b :: List.map f m := h
    have ⟨h1, h2⟩ := List.cons.inj h'
    rw [hf a b h1, mapInj hf h2]

theorem pairInj {f : Nat → Nat} (hf : Injective f) :
    ∀ (p q : Nat × Nat), (fun ab => (f ab.1, f ab.2)) p = (fun ab => (f ab.1, f ab.2)) q → p = q
  | (a, b), (c, d), h => by
    have ⟨h1, h2⟩ := Prod.mk.inj h
    rw [hf a c h1, hf b d h2]

theorem renameOutInj {f : Nat → Nat} (hf : Injective f) :
    ∀ (o o' : TOut), renameOut f o = renameOut f o' → o = o'
  | ⟨s, ⟨ev, ord⟩⟩, ⟨s', ⟨ev', ord'⟩⟩, h => by
    have ⟨hs, hp⟩ := TOut.mk.inj h
    have ⟨he, ho⟩ := Pomset.mk.inj hp
    have hs' : s = s' := hs
    have he' : List.map f ev = List.map f ev' := he
    have ho' : List.map (fun ab => (f ab.1, f ab.2)) ord = List.map (fun ab => (f ab.1, f ab.2)) ord' := ho
    rw [hs', mapInj hf he', mapInj (pairInj hf) ho']

/-- `Copy_f(C)` (Table I, A-D1): for an injective renaming `f`, the results of `clone_f(C)` are exactly
the renamed results of `C`, distinct results have distinct copies, and a call is an event of a result
(a pair is in its order) iff its renaming is one of the copy's (`x ∈ X_{p_v} ⟺ μ(x) ∈ X_{p_π(v)}`,
`x ≺_v y ⟺ μ(x) ≺_π(v) μ(y)`). -/
theorem cloneExact {f : Nat → Nat} (hf : Injective f) (C : Tm) :
    (∀ x, x ∈ (C.clone f).outs ↔ ∃ o, o ∈ C.outs ∧ x = renameOut f o) ∧
    (∀ o o', renameOut f o = renameOut f o' → o = o') ∧
    ∀ (o : TOut) (a b : Nat), (a ∈ o.pom.events ↔ f a ∈ (renameOut f o).pom.events) ∧
      ((a, b) ∈ o.pom.order ↔ (f a, f b) ∈ (renameOut f o).pom.order) := by
  refine ⟨fun x => ⟨cloneOutsInv f C x, fun ⟨o, ho, e⟩ => by rw [e]; exact cloneOuts f C o ho⟩,
    renameOutInj hf, fun o a b => ⟨⟨fun h => mapMem h, fun h => memMapInj hf h⟩, ⟨fun h => ?_, fun h => ?_⟩⟩⟩
  · exact mapMem (f := fun ab => (f ab.1, f ab.2)) h
  · have ⟨q, hq, e⟩ := memMap h
    have e' : (a, b) = q := pairInj hf (a, b) q e
    rw [e']; exact hq

theorem renamePomInj {f : Nat → Nat} (hf : Injective f) :
    ∀ (p p' : Pomset), renamePom f p = renamePom f p' → p = p'
  | ⟨ev, ord⟩, ⟨ev', ord'⟩, h => by
    have ⟨he, ho⟩ := Pomset.mk.inj h
    have he' : List.map f ev = List.map f ev' := he
    have ho' : List.map (fun ab => (f ab.1, f ab.2)) ord = List.map (fun ab => (f ab.1, f ab.2)) ord' := ho
    rw [mapInj hf he', mapInj (pairInj hf) ho']

theorem onSideInj {fL fR : Nat → Nat} (hL : Injective fL) (hR : Injective fR) : ∀ b : Bool, Injective (onSide b fL fR)
  | false => hL
  | true => hR

/-- ForkChoice's `Covers` is one-to-one: a target result covers at most one required source result (its
arm and its renamed pomset name it), and a required result is covered by at most one target result. -/
theorem forkChoiceOneToOne (g : Nat) {fL fR : Nat → Nat} (hL : Injective fL) (hR : Injective fR) (C : Tm) :
    (∀ x r r', (forkChoice g fL fR C).rel x r → (forkChoice g fL fR C).rel x r' → r = r') ∧
    (∀ x x' r, (forkChoice g fL fR C).rel x r → (forkChoice g fL fR C).rel x' r → x = x') := by
  constructor
  · intro x r r' h h'
    have ⟨hs, hp⟩ := h
    have ⟨hs', hp'⟩ := h'
    cases r with
    | mk b o =>
      cases r' with
      | mk b' o' =>
        have e := hs.symm.trans hs'
        have ⟨e1, e2⟩ := List.cons.inj e
        have hb : b = b' := (Prod.mk.inj e1).2
        subst hb
        have ep : renamePom (onSide b fL fR) o.pom = renamePom (onSide b fL fR) o'.pom := hp.symm.trans hp'
        have ep' := renamePomInj (onSideInj hL hR b) _ _ ep
        cases o with
        | mk s p =>
          cases o' with
          | mk s' p' =>
            have e2' : s = s' := e2
            have ep'' : p = p' := ep'
            rw [e2', ep'']
  · intro x x' r h h'
    have ⟨hs, hp⟩ := h
    have ⟨hs', hp'⟩ := h'
    cases x with
    | mk s p =>
      cases x' with
      | mk s' p' =>
        have hs2 : s = s' := hs.trans hs'.symm
        have hp2 : p = p' := hp.trans hp'.symm
        rw [hs2, hp2]

/-- RestoreReplace's `Covers` is one-to-one (the checkpoint copy's results against `C_k`'s). -/
theorem restoreReplaceOneToOne {fk : Nat → Nat} (hk : Injective fk) (C Ck : Tm) :
    (∀ x r r', (restoreReplace fk C Ck).rel x r → (restoreReplace fk C Ck).rel x r' → r = r') ∧
    (∀ x x' r, (restoreReplace fk C Ck).rel x r → (restoreReplace fk C Ck).rel x' r → x = x') := by
  constructor
  · intro x r r' h h'
    have ⟨h1, ex⟩ := h
    have ⟨h1', ex'⟩ := h'
    cases r with
    | mk b o =>
      cases r' with
      | mk b' o' =>
        have hb : b = b' := h1.trans h1'.symm
        have ho : o = o' := renameOutInj hk o o' (ex.symm.trans ex')
        rw [hb, ho]
  · intro x x' r h h'
    have ⟨_, ex⟩ := h
    have ⟨_, ex'⟩ := h'
    rw [ex, ex']

-- A-D1: each row derives exactly its stated record --------------------------------------------------

theorem tagMem {side : Bool} {o : TOut} {A : List TOut} (h : o ∈ A) : (side, o) ∈ tagReq side A :=
  mapMem (f := fun o => (side, o)) h

theorem forkChoiceExact (g : Nat) (fL fR : Nat → Nat) (C : Tm) : (forkChoice g fL fR C).RowExact := by
  intro x
  constructor
  · intro h
    have h' : x ∈ List.map (tagOut g false) (C.clone fL).outs ++ List.map (tagOut g true) (C.clone fR).outs := h
    cases memAppend h' with
    | inl h1 =>
      have ⟨o', ho', e⟩ := memMap h1
      have ⟨o, ho, e'⟩ := cloneOutsInv fL C o' ho'
      rw [e, e']
      exact ⟨(false, o), appendMemL _ (tagMem ho), rfl, rfl, rfl⟩
    | inr h2 =>
      have ⟨o', ho', e⟩ := memMap h2
      have ⟨o, ho, e'⟩ := cloneOutsInv fR C o' ho'
      rw [e, e']
      exact ⟨(true, o), appendMemR _ (tagMem ho), rfl, rfl, rfl⟩
  · intro ⟨r, hr, _, hs, hp⟩
    cases x with
    | mk s p =>
      have hs' : s = (g, r.1) :: r.2.sel := hs
      have hp' : p = renamePom (onSide r.1 fL fR) r.2.pom := hp
      rw [hs', hp']
      cases memTwo (C1 := C) (C2 := C) hr with
      | inl h =>
        have ⟨o, ho, e⟩ := h
        subst e
        exact appendMemL _ (mapMem (f := tagOut g false) (cloneOuts fL C o ho))
      | inr h =>
        have ⟨o, ho, e⟩ := h
        subst e
        exact appendMemR _ (mapMem (f := tagOut g true) (cloneOuts fR C o ho))

theorem forkParallelExact (fL fR : Nat → Nat) (C : Tm) : (forkParallel fL fR C).RowExact := by
  intro x
  constructor
  · intro h
    have h' : x ∈ prodOut false (C.clone fL).outs (C.clone fR).outs := h
    have ⟨a, b, ha, hb, e⟩ := memProd h'
    have ⟨o, ho, ea⟩ := cloneOutsInv fL C a ha
    have ⟨o', ho', eb⟩ := cloneOutsInv fR C b hb
    rw [ea, eb] at e
    exact ⟨(false, o), appendMemL _ (tagMem ho), rfl, o', ho', e⟩
  · intro ⟨r, hr, _, hrel⟩
    cases memTwo (C1 := C) (C2 := C) hr with
    | inl h =>
      have ⟨o, ho, e⟩ := h
      subst e
      have ⟨o', ho', ex⟩ := hrel
      rw [ex]
      exact prodMemOf (cloneOuts fL C o ho) (cloneOuts fR C o' ho')
    | inr h =>
      have ⟨o, ho, e⟩ := h
      subst e
      have ⟨o', ho', ex⟩ := hrel
      rw [ex]
      exact prodMemOf (cloneOuts fL C o' ho') (cloneOuts fR C o ho)

theorem restoreReplaceExact (fk : Nat → Nat) (C Ck : Tm) : (restoreReplace fk C Ck).RowExact := by
  intro x
  constructor
  · intro h
    have ⟨o, ho, e⟩ := cloneOutsInv fk Ck x h
    exact ⟨(true, o), appendMemR _ (tagMem ho), rfl, rfl, e⟩
  · intro ⟨r, hr, hrem, h1, ex⟩
    cases memTwo (C1 := C) (C2 := Ck) hr with
    | inl h =>
      have ⟨o, _, e⟩ := h
      subst e
      exact Bool.noConfusion (h1 : false = true)
    | inr h =>
      have ⟨o, ho, e⟩ := h
      subst e
      rw [ex]
      exact cloneOuts fk Ck o ho

theorem restoreLiveExact (fk : Nat → Nat) (C Ck : Tm) : (restoreLive fk C Ck).RowExact := by
  intro x
  constructor
  · intro h
    have h' : x ∈ prodOut false C.outs (Ck.clone fk).outs := h
    have ⟨a, b, ha, hb, e⟩ := memProd h'
    have ⟨o', ho', eb⟩ := cloneOutsInv fk Ck b hb
    rw [eb] at e
    exact ⟨(false, a), appendMemL _ (tagMem ha), rfl, o', ho', e⟩
  · intro ⟨r, hr, _, hrel⟩
    cases memTwo (C1 := C) (C2 := Ck) hr with
    | inl h =>
      have ⟨o, ho, e⟩ := h
      subst e
      have ⟨o', ho', ex⟩ := hrel
      rw [ex]
      exact prodMemOf ho (cloneOuts fk Ck o' ho')
    | inr h =>
      have ⟨o, ho, e⟩ := h
      subst e
      have ⟨o', ho', ex⟩ := hrel
      rw [ex]
      exact prodMemOf ho' (cloneOuts fk Ck o ho)

theorem mergeSelectExact (w : Bool) (TL TR EJ : Tm) : (mergeSelect w TL TR EJ).RowExact := by
  intro x
  constructor
  · intro h
    have h' : x ∈ prodOut true (onSide w TL TR).outs EJ.outs := h
    have ⟨a, e, ha, he, ex⟩ := memProd h'
    cases w with
    | false => exact ⟨(false, a), appendMemL _ (tagMem ha), rfl, rfl, e, he, ex⟩
    | true => exact ⟨(true, a), appendMemR _ (tagMem ha), rfl, rfl, e, he, ex⟩
  · intro ⟨r, hr, _, hw, e, he, ex⟩
    rw [ex]
    cases memTwo (C1 := TL) (C2 := TR) hr with
    | inl h =>
      have ⟨o, ho, eq⟩ := h
      subst eq
      have hw' : false = w := hw
      subst hw'
      exact prodMemOf (A := TL.outs) ho he
    | inr h =>
      have ⟨o, ho, eq⟩ := h
      subst eq
      have hw' : true = w := hw
      subst hw'
      exact prodMemOf (A := TR.outs) ho he

theorem mergeJoinExact (TL TR EJ : Tm) : (mergeJoin TL TR EJ).RowExact := by
  intro x
  constructor
  · intro h
    have h' : x ∈ prodOut true (prodOut false TL.outs TR.outs) EJ.outs := h
    have ⟨a, e, ha, he, ex⟩ := memProd h'
    have ⟨o, o', ho, ho', ea⟩ := memProd ha
    rw [ea] at ex
    exact ⟨(false, o), appendMemL _ (tagMem ho), rfl, o', e, ho', he, ex⟩
  · intro ⟨r, hr, _, hrel⟩
    cases memTwo (C1 := TL) (C2 := TR) hr with
    | inl h =>
      have ⟨o, ho, eq⟩ := h
      subst eq
      have ⟨o', e, ho', he, ex⟩ := hrel
      rw [ex]
      exact prodMemOf (prodMemOf ho ho') he
    | inr h =>
      have ⟨o, ho, eq⟩ := h
      subst eq
      have ⟨o', e, ho', he, ex⟩ := hrel
      rw [ex]
      exact prodMemOf (prodMemOf ho' ho) he

theorem extendExact (T : Tm) : (extendRow T).RowExact := by
  intro x
  constructor
  · intro h
    exact ⟨(false, x), tagMem h, rfl, rfl⟩
  · intro ⟨r, hr, _, ex⟩
    have ⟨o, ho, e⟩ := memMap (f := fun o => (false, o)) (l := T.outs) hr
    subst e
    have ex' : x = o := ex
    rw [ex']; exact ho

/-- A-D1 for the seven rows: every derived record's target has exactly the results its row states. -/
theorem rowsExact {D : Derived} : Derives D → D.RowExact
  | Derives.ofForkChoice g fL fR C => forkChoiceExact g fL fR C
  | Derives.ofForkParallel fL fR C => forkParallelExact fL fR C
  | Derives.ofRestoreReplace fk C Ck => restoreReplaceExact fk C Ck
  | Derives.ofRestoreLive fk C Ck => restoreLiveExact fk C Ck
  | Derives.ofMergeSelect w TL TR EJ => mergeSelectExact w TL TR EJ
  | Derives.ofMergeJoin TL TR EJ => mergeJoinExact TL TR EJ
  | Derives.ofExtend T => extendExact T

-- Lemma 2 for the judgment ----------------------------------------------------------------------------

/-- The judgment is deterministic: one region, checkpoint store and request derive at most one record. -/
theorem editDeterministic {T : Tm} {K : Nat → Option Tm} {u : Req} {D1 D2 : Derived}
    (h1 : EditJ T K u D1) (h2 : EditJ T K u D2) : D1 = D2 := by
  cases h1 with
  | forkChoice g fL fR _ _ _ => cases h2; rfl
  | forkParallel fL fR _ _ _ => cases h2; rfl
  | restoreReplace k fk Ck hK _ =>
    cases h2 with
    | restoreReplace _ _ Ck' hK' _ =>
      rw [hK] at hK'
      have e : Ck = Ck' := Option.some.inj hK'
      rw [e]
  | restoreLive k fk Ck hK _ _ =>
    cases h2 with
    | restoreLive _ _ Ck' hK' _ _ =>
      rw [hK] at hK'
      have e : Ck = Ck' := Option.some.inj hK'
      rw [e]
  | mergeSelect g w TL TR EJ hT _ _ _ =>
    cases h2 with
    | mergeSelect _ _ TL' TR' _ hT' _ _ _ =>
      have e : Tm.choice g TL TR = Tm.choice g TL' TR' := hT.symm.trans hT'
      have ⟨_, e1, e2⟩ := Tm.choice.inj e
      rw [e1, e2]
  | mergeJoin TL TR EJ hT _ _ _ =>
    cases h2 with
    | mergeJoin TL' TR' _ hT' _ _ _ =>
      have e : Tm.par TL TR = Tm.par TL' TR' := hT.symm.trans hT'
      have ⟨e1, e2⟩ := Tm.par.inj e
      rw [e1, e2]
  | extend => cases h2; rfl

/-- Every derivation of the judgment is one of the seven rows. -/
theorem editDerives {T : Tm} {K : Nat → Option Tm} {u : Req} {D : Derived} : EditJ T K u D → Derives D
  | EditJ.forkChoice g fL fR _ _ _ => Derives.ofForkChoice g fL fR T
  | EditJ.forkParallel fL fR _ _ _ => Derives.ofForkParallel fL fR T
  | EditJ.restoreReplace _ fk Ck _ _ => Derives.ofRestoreReplace fk T Ck
  | EditJ.restoreLive _ fk Ck _ _ _ => Derives.ofRestoreLive fk T Ck
  | EditJ.mergeSelect _ w TL TR EJ _ _ _ _ => Derives.ofMergeSelect w TL TR EJ
  | EditJ.mergeJoin TL TR EJ _ _ _ _ => Derives.ofMergeJoin TL TR EJ
  | EditJ.extend => Derives.ofExtend T

/-- From a well-formed source, a derivation passes the fresh-identifier conditions of `ValidDerives`. -/
theorem editValid {T : Tm} {K : Nat → Option Tm} {u : Req} {D : Derived} (hW : WellFormedSrc T K) :
    EditJ T K u D → ValidDerives D
  | EditJ.forkChoice g fL fR hL hR hdis => ValidDerives.ofForkChoice g fL fR T hL hR hdis hW.1.1
  | EditJ.forkParallel fL fR hL hR hdis => ValidDerives.ofForkParallel fL fR T hL hR hdis hW.1.1
  | EditJ.restoreReplace k fk Ck hK hk => ValidDerives.ofRestoreReplace fk T Ck hk (hW.2 k Ck hK).1
  | EditJ.restoreLive k fk Ck hK hk hfresh =>
    ValidDerives.ofRestoreLive fk T Ck hk hW.1.1 (hW.2 k Ck hK).1 hfresh
  | EditJ.mergeSelect g w TL TR EJ hT hE hfresh _ => by
    have hn : Nodup (Tm.choice g TL TR).calls := by rw [← hT]; exact hW.1.1
    exact ValidDerives.ofMergeSelect w TL TR EJ hn hE hfresh
  | EditJ.mergeJoin TL TR EJ hT hE hfresh _ => by
    have hn : Nodup (Tm.par TL TR).calls := by rw [← hT]; exact hW.1.1
    exact ValidDerives.ofMergeJoin TL TR EJ hn hE hfresh
  | EditJ.extend => ValidDerives.ofExtend T hW.1.1

/-- A derivation from a well-formed source keeps every constructor defined (the fresh-identifier and
partial-constructor checks). -/
theorem editKeepsDefined {T : Tm} {K : Nat → Option Tm} {u : Req} {D : Derived} (hW : WellFormedSrc T K) :
    EditJ T K u D → Defined D.target
  | EditJ.forkChoice g fL fR hL hR hdis =>
    definedChoice g (definedClone hL hW.1.2.2) (definedClone hR hW.1.2.2) (forkCross hL hR hdis hW.1.2.2)
  | EditJ.forkParallel fL fR hL hR hdis =>
    definedJoin false (definedClone hL hW.1.2.2) (definedClone hR hW.1.2.2) (forkParallelFresh hL hR hdis hW.1.1)
  | EditJ.restoreReplace k fk Ck hK hk => definedClone hk (hW.2 k Ck hK).2.2
  | EditJ.restoreLive k fk Ck hK hk hfresh =>
    definedJoin false hW.1.2.2 (definedClone hk (hW.2 k Ck hK).2.2) (restoreLiveFresh hk hW.1.1 (hW.2 k Ck hK).1 hfresh)
  | EditJ.mergeSelect g w TL TR EJ hT hE hfresh hD => by
    have hTd : Defined (Tm.choice g TL TR) := by rw [← hT]; exact hW.1.2.2
    have hn : Nodup (Tm.choice g TL TR).calls := by rw [← hT]; exact hW.1.1
    have ha := definedArms hTd
    have hw : Defined (onSide w TL TR) := by
      cases w with
      | false => exact ha.1
      | true => exact ha.2
    exact definedJoin true hw hD (mergeSelectFresh w hn hE hfresh)
  | EditJ.mergeJoin TL TR EJ hT hE hfresh hD => by
    have hTd : Defined (Tm.par TL TR) := by rw [← hT]; exact hW.1.2.2
    have hn : Nodup (Tm.par TL TR).calls := by rw [← hT]; exact hW.1.1
    exact definedJoin true hTd hD (mergeJoinFresh hn hE hfresh)
  | EditJ.extend => hW.1.2.2

/-- A derivation from a well-formed source has a well-formed target: unique calls, every result
complete, every constructor defined. -/
theorem editKeepsWellFormed {T : Tm} {K : Nat → Option Tm} {u : Req} {D : Derived} (hW : WellFormedSrc T K)
    (h : EditJ T K u D) : WellFormedTm D.target :=
  have hnd := (validDerives (editValid hW h)).2
  ⟨hnd, outsComplete D.target hnd, editKeepsDefined hW h⟩

/-- The derived record preserves required results: each required, not removed source result is
covered by a target result, complete, so the instance has `CoverWitnesses`. -/
theorem editPreserves {T : Tm} {K : Nat → Option Tm} {u : Req} {D : Derived} (hW : WellFormedSrc T K)
    (h : EditJ T K u D) :
    D.Covered ∧ ∀ act lab log (A : List Nat → Prop), (D.theta act lab log A).CoverWitnesses :=
  ⟨derivesCovered (validDerives (editValid hW h)).1, validDerivesCoverWitnesses (editValid hW h)⟩

-- A-D2: the registered extension ---------------------------------------------------------------------

/-- An extension that keeps the workflow, the actions, labels and log and enlarges the policy keeps
every member of `B̂†`: a post-fixed subset of the current instance's `B̂₀` is one of the extension's
(`Φ̂` does not read the policy, and `B̂₀` only grows with it). -/
theorem extendKeepsBdag (D : Derived) (act lab log : List Nat) (A A' : List Nat → Prop)
    (hA : ∀ w, A w → A' w) (c : CandP) (h : (D.theta act lab log A).Bdag c) :
    ((extendRow D.target).theta act lab log A').Bdag c := by
  have ⟨S, hS, hpf, hc⟩ := h
  exact ⟨S, fun d hd => ⟨(hS d hd).1, (hS d hd).2.1, hA _ (hS d hd).2.2⟩, hpf, hc⟩

/-- A-D2 (registered extension), in the term model with no progress since the last rule update: if
the rules in force come from a derived record with unique target calls whose `B̂†` is nonempty, then
the extension instance (`Extend` on the same workflow, same actions, labels and log, policy
`𝒜 ⊆ 𝒜⁺` closed under truncation) keeps every member of `B̂†`, is accepted (`B̂†⁺ ≠ ∅`), and its largest
safe pair `(W†⁺, B̂†⁺)` is safe — so it retains every result of the current workflow with a safe
completion (`PreservesRequired` for `Extend`'s requirement `{ctx} × O_⟦T⟧`) — and contains every safe
pair. -/
theorem registeredExtension (D : Derived) (hnd : Nodup D.target.calls) (act lab log : List Nat)
    (A A' : List Nat → Prop) (hA : ∀ w, A w → A' w)
    (hpc : ((extendRow D.target).theta act lab log A').PrefixClosed)
    (hsafe : (D.theta act lab log A).SafeEdit) :
    let θ' := (extendRow D.target).theta act lab log A'
    (∀ c, (D.theta act lab log A).Bdag c → θ'.Bdag c) ∧ θ'.SafeEdit ∧ θ'.Safe θ'.Wdag θ'.Bdag ∧
    (∀ x, x ∈ D.target.outs → ∃ t y, θ'.Bdag (t, y) ∧ pick D.target.outs t = some x) ∧
    ∀ L B, θ'.Safe L B → (∀ c, B c → θ'.Bdag c) ∧ (∀ z, L z → θ'.Wdag z) := by
  have hkeep := extendKeepsBdag D act lab log A A' hA
  have ⟨c, hc⟩ := hsafe
  have hse : ((extendRow D.target).theta act lab log A').SafeEdit := ⟨c, hkeep c hc⟩
  have ⟨_, hmax, hall⟩ := Derived.lemma4 (extendRow D.target) (extendFresh hnd) (extendCovered D.target)
    act lab log A' hpc
  have hs := hmax hse
  refine ⟨hkeep, hse, hs, fun x hx => ?_, hall⟩
  have ⟨a, ha⟩ := pickIndex (tagMem (side := false) hx)
  have ha' : pick (extendRow D.target).required a = some (false, x) := ha
  have ⟨t, y, hb, x', r, ht, hr, hrel⟩ := hs.preserves a
    ⟨⟨(false, x), ha'⟩, fun q => q, fun ⟨_, _, q⟩ => Bool.noConfusion q⟩
  have er : some (false, x) = some r := ha'.symm.trans hr
  have er' : (false, x) = r := Option.some.inj er
  subst er'
  have ex : x' = x := hrel
  rw [ex] at ht
  exact ⟨t, y, hb, ht⟩

/-- `Φ̂` does not read the policy and `B̂₀` only grows with it: every member of `B̂†` is a member of the
extension instance's `B̂†`. -/
theorem extendWithBdag (θ : Theta) (A' : List Nat → Prop) (hA : ∀ w, θ.A w → A' w) (c : CandP)
    (h : θ.Bdag c) : (θ.extendWith A').Bdag c := by
  have ⟨S, hS, hpf, hc⟩ := h
  exact ⟨S, fun d hd => ⟨(hS d hd).1, (hS d hd).2.1, hA _ (hS d hd).2.2⟩, hpf, hc⟩

/-- After a permitted partial execution `z`, every outcome still compatible with `z` has a linearization
of its residual pomset, so the extension instance of `Θ/z` has `CoverWitnesses`. -/
theorem afterCoverWitnesses (θ : Theta) (z : Word) (A' : List Nat → Prop) :
    ((θ.after z).extendWith A').CoverWitnesses := by
  intro a ⟨ho, _, _⟩
  have ho' : θ.Compat z a := ho
  have ⟨_, y, hy, ⟨t, ht⟩⟩ := ho'
  have hR : (θ.after z).R a t := (afterR θ z a ho' t).2 (by rw [← ht]; exact hy)
  have ⟨w, hw, _⟩ := hR
  exact ⟨a, ho', rfl, w, hw⟩

/-- A-D2 (registered extension) after recorded progress: for any derived instance `Θ` and any permitted
partial execution `z ∈ W†` (the progress since the rules took effect), the extension instance of the
current record — the residual `Θ/z` with the same workflow, actions, labels and log and a policy
`𝒜 ⊆ 𝒜⁺` closed under truncation — contains the current safe executions after `z` (`B̂†/z`), so its
`B̂†⁺` is nonempty; its largest safe pair is safe and contains every safe pair, and every outcome still
compatible with `z` keeps a member of `B̂†⁺`: the extension removes no currently required result and
leaves none without a safe completion. -/
theorem registeredExtensionAfter (θ : Theta) (z : Word) (hz : θ.Wdag z) (A' : List Nat → Prop)
    (hA : ∀ w, θ.A w → A' w) (hpc : ((θ.after z).extendWith A').PrefixClosed) :
    let θ' := (θ.after z).extendWith A'
    (∀ o y, θ.Bdag (o, z ++ y) → θ'.Bdag (o, y)) ∧ θ'.SafeEdit ∧ θ'.Safe θ'.Wdag θ'.Bdag ∧
    (∀ o, θ.Compat z o → ∃ y, θ'.Bdag (o, y)) ∧
    ∀ L B, θ'.Safe L B → (∀ c, B c → θ'.Bdag c) ∧ (∀ v, L v → θ'.Wdag v) := by
  have hA' : ∀ w, (θ.after z).A w → A' w := hA
  have hkeep : ∀ o y, θ.Bdag (o, z ++ y) → ((θ.after z).extendWith A').Bdag (o, y) := fun o y h =>
    extendWithBdag (θ.after z) A' hA' (o, y) (((recheckContract θ z hz).1 o y).2 h)
  have ⟨o, y, hb, ⟨t, ht⟩⟩ := hz
  rw [ht] at hb
  have hse : ((θ.after z).extendWith A').SafeEdit := ⟨(o, t), hkeep o t hb⟩
  have ⟨_, hmax, hall⟩ := Theta.lemma4 hpc (afterCoverWitnesses θ z A')
  have hs := hmax hse
  refine ⟨hkeep, hse, hs, fun o' ho' => ?_, hall⟩
  have ⟨t', y', hb', e⟩ := hs.preserves o' ⟨ho', fun q => q, fun q => q⟩
  have e' : t' = o' := e
  rw [e'] at hb'
  exact ⟨y', hb'⟩

end AgentWarrant.Edits

namespace AgentWarrant.Thm
open AgentWarrant.Edits

/-- Lemma 2 (V-A) for the edit judgment in the binary term model: from a well-formed source the
judgment is deterministic, its target is well formed, it covers every required, not removed source
result by a complete target result (`CoverWitnesses` for any actions, labels, log and policy), and it
derives exactly its row's record (A-D1). -/
theorem editJudgmentLemma2 {T : Tm} {K : Nat → Option Tm} {u : Req} {D : Derived} (hW : WellFormedSrc T K)
    (h : EditJ T K u D) :
    (∀ D', EditJ T K u D' → D' = D) ∧ WellFormedTm D.target ∧ D.Covered ∧ D.RowExact ∧
    ∀ act lab log (A : List Nat → Prop), (D.theta act lab log A).CoverWitnesses :=
  ⟨fun D' h' => editDeterministic h' h, editKeepsWellFormed hW h, (editPreserves hW h).1,
    rowsExact (editDerives h), (editPreserves hW h).2⟩

/-- Edit-rule correctness (A-D1) in the binary term model: a request selects exactly one record, and that
record's target has exactly the results its row's preserved family states. -/
theorem editRulesDeriveTheirRows {T : Tm} {K : Nat → Option Tm} {u : Req} {D : Derived} (h : EditJ T K u D) :
    D.RowExact ∧ ∀ D', EditJ T K u D' → D' = D :=
  ⟨rowsExact (editDerives h), fun D' h' => editDeterministic h' h⟩

end AgentWarrant.Thm
