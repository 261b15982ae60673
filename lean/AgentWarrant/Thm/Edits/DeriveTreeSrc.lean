import AgentWarrant.Spec.Edits.DeriveTreeSrc
import AgentWarrant.Thm.Edits.DeriveTreeJudged
import AgentWarrant.Thm.Edits.Rename
import AgentWarrant.Thm.Edits.Term
/-! The terms `src` gives the edit judgment, checked against the record's tree
(`Spec/Edits/DeriveTreeSrc.lean`; *When Can Agents Safely Checkpoint, Fork, Restore, and Merge?*,
Section IV-B1, Section VII, Table I):
- `srcAgreesB` decides its declarative reading (`srcAgreesIff`, from `leafAgreesIff` and
  `savedAgreesIff`), and a leaf's remaining contract by pomsets has the leaf's `restOuts` as its
  events (`restPomsEvents`);
- cloning renames every outcome (`cloneOutsEq`, `pomsClone`: the result lists, not only their
  members as `cloneOuts` says);
- so where the check holds, the contracts `judgedTEdit` gives the new leaves are the tree's own: a
  Fork's arms (in `judge`'s rows) the branch leaf's `Γ_b/raw(χ_b)` under the two copy renamings
  (`forkArmsAreResidual`), with continuation steps each followed by its steps (`forkStepArmsAreResidual`,
  from `pomsSeq`: a sequence's pomsets are the parts' pomsets joined, `prodPomsEq`), a Restore's `b_k` the stored copy's `Γ_k/raw(χ_k)` under the counter's
  renaming (`restoreIsStored`);
- on the runtime machine run with `derJTC` a Fork or Restore is committed only where the check holds, so
  the hypothesis of the results above is met on every committed step (`stepTreeChecked`). -/
namespace AgentWarrant.Edits.DeriveTreeSrc
open AgentWarrant AgentWarrant.Edits AgentWarrant.Edits.Machine AgentWarrant.Edits.DeriveTreeJudged
open AgentWarrant.Edits.DeriveCover AgentWarrant.Edits.DeriveFork

/-- The events of `restPoms` are `residualOf`, the leaf's remaining contract `restOuts`. -/
theorem restPomsEvents (g : List Pomset) (d : List Nat) :
    List.map Pomset.events (restPoms g d) = residualOf g d := by
  show List.map Pomset.events (List.map (restPom d) (filt (compatP d) g)) =
    List.map (fun p => filt (fun e => !memN e d) p.events) (filt (compatP d) g)
  rw [mapMap]
  rfl

theorem leafAgreesIff (t : Tree) (x : Nat) (T : Tm) :
    leafAgreesB t x T = true ↔ ∃ l, leafNamed t x = some l ∧ restPoms l.gamma l.done = poms T := by
  cases h : leafNamed t x with
  | none =>
    have e : leafAgreesB t x T = false := by simp only [leafAgreesB, h]
    rw [e]
    exact ⟨fun hb => Bool.noConfusion hb, fun ⟨_, hl, _⟩ => Option.noConfusion hl⟩
  | some l =>
    have e : leafAgreesB t x T = decide (restPoms l.gamma l.done = poms T) := by simp only [leafAgreesB, h]; rfl
    rw [e]
    exact ⟨fun hb => ⟨l, rfl, ofDecideEqTrue hb⟩, fun ⟨l', hl, he⟩ => by
      rw [Option.some.inj hl]; exact decideEqTrue he⟩

theorem savedAgreeIff (K : Nat → Option Tm) (s : Saved) :
    savedAgreeB K s = true ↔ ∃ Ck, K s.id = some Ck ∧ restPoms s.gamma s.done = poms Ck := by
  cases h : K s.id with
  | none =>
    have e : savedAgreeB K s = false := by simp only [savedAgreeB, h]
    rw [e]
    exact ⟨fun hb => Bool.noConfusion hb, fun ⟨_, hk, _⟩ => Option.noConfusion hk⟩
  | some Ck =>
    have e : savedAgreeB K s = decide (restPoms s.gamma s.done = poms Ck) := by simp only [savedAgreeB, h]; rfl
    rw [e]
    exact ⟨fun hb => ⟨Ck, rfl, ofDecideEqTrue hb⟩, fun ⟨Ck', hk, he⟩ => by
      rw [Option.some.inj hk]; exact decideEqTrue he⟩

theorem savedAgreesIff (saved : List Saved) (K : Nat → Option Tm) :
    savedAgreesB saved K = true ↔
      ∀ s, s ∈ saved → ∃ Ck, K s.id = some Ck ∧ restPoms s.gamma s.done = poms Ck :=
  ⟨fun h s hs => (savedAgreeIff K s).1 (allBElim h s hs),
   fun h => allBIntro (fun s hs => (savedAgreeIff K s).2 (h s hs))⟩

theorem andBIff : ∀ (a b : Bool), (a && b) = true ↔ a = true ∧ b = true
  | true, b => ⟨fun h => ⟨rfl, h⟩, fun h => h.2⟩
  | false, b => ⟨fun h => Bool.noConfusion h, fun h => Bool.noConfusion h.1⟩

/-- `srcAgreesB` decides: the branch's leaf has `src`'s branch term as its remaining contract, and every
stored copy has `src`'s term for its ID as its own. -/
theorem srcAgreesIff (src : Core → Tm × (Nat → Option Tm)) (c : Core) (x : Nat) :
    srcAgreesB src c x = true ↔
      (∃ l, leafNamed c.tree x = some l ∧ restPoms l.gamma l.done = poms (src c).1) ∧
      ∀ s, s ∈ c.saved → ∃ Ck, (src c).2 s.id = some Ck ∧ restPoms s.gamma s.done = poms Ck := by
  show (leafAgreesB c.tree x (src c).1 && savedAgreesB c.saved (src c).2) = true ↔ _
  rw [andBIff, leafAgreesIff, savedAgreesIff]
  exact Iff.rfl

-- Cloning renames the result lists -------------------------------------------------------------------

theorem prodRenameEq (f : Nat → Nat) (ordered : Bool) : ∀ (A B : List TOut),
    prodOut ordered (List.map (renameOut f) A) (List.map (renameOut f) B) =
      List.map (renameOut f) (prodOut ordered A B)
  | [], _ => rfl
  | a :: A, B => by
    show List.map (joinOut ordered (renameOut f a)) (List.map (renameOut f) B) ++
        prodOut ordered (List.map (renameOut f) A) (List.map (renameOut f) B) =
      List.map (renameOut f) (List.map (joinOut ordered a) B ++ prodOut ordered A B)
    rw [mapAppend, prodRenameEq f ordered A B, mapMap, mapMap,
      mapCongr (f := fun x => joinOut ordered (renameOut f a) (renameOut f x))
        (g := fun x => renameOut f (joinOut ordered a x)) (fun x => (joinRename f ordered a x).symm) B]

/-- `⟦clone_f(T)⟧` is `⟦T⟧` renamed, result by result. -/
theorem cloneOutsEq (f : Nat → Nat) : ∀ (T : Tm), (T.clone f).outs = List.map (renameOut f) T.outs
  | Tm.call c => rfl
  | Tm.nil => rfl
  | Tm.choice g l r => by
    show List.map (tagOut g false) (l.clone f).outs ++ List.map (tagOut g true) (r.clone f).outs =
      List.map (renameOut f) (List.map (tagOut g false) l.outs ++ List.map (tagOut g true) r.outs)
    rw [cloneOutsEq f l, cloneOutsEq f r, mapAppend, mapMap, mapMap, mapMap, mapMap]
    rfl
  | Tm.par l r => by
    show prodOut false (l.clone f).outs (r.clone f).outs = List.map (renameOut f) (prodOut false l.outs r.outs)
    rw [cloneOutsEq f l, cloneOutsEq f r, prodRenameEq]
  | Tm.seq l r => by
    show prodOut true (l.clone f).outs (r.clone f).outs = List.map (renameOut f) (prodOut true l.outs r.outs)
    rw [cloneOutsEq f l, cloneOutsEq f r, prodRenameEq]

/-- A copy's contract, by pomsets, is the original's renamed. -/
theorem pomsClone (f : Nat → Nat) (T : Tm) : poms (T.clone f) = List.map (renamePom f) (poms T) := by
  show List.map TOut.pom (T.clone f).outs = List.map (renamePom f) (List.map TOut.pom T.outs)
  rw [cloneOutsEq, mapMap, mapMap]
  rfl

/-- A product's pomsets depend on its parts' pomsets only. -/
theorem prodPomsEq (ordered : Bool) : ∀ (A B : List TOut),
    List.map TOut.pom (prodOut ordered A B) = prodPoms ordered (List.map TOut.pom A) (List.map TOut.pom B)
  | [], _ => rfl
  | a :: A, B => by
    show List.map TOut.pom (List.map (joinOut ordered a) B ++ prodOut ordered A B) =
      List.map (joinPom ordered a.pom) (List.map TOut.pom B) ++
        prodPoms ordered (List.map TOut.pom A) (List.map TOut.pom B)
    rw [mapAppend, prodPomsEq ordered A B, mapMap, mapMap]
    rfl

theorem pomsSeq (l r : Tm) : poms (Tm.seq l r) = prodPoms true (poms l) (poms r) :=
  prodPomsEq true l.outs r.outs

-- The new leaves' contracts are the tree's ----------------------------------------------------------

/-- Where `src` agrees with the tree, a Fork's arms (in `judge`'s rows) are the forked leaf's remaining
contract `Γ_b/raw(χ_b)` under the two copy renamings. -/
theorem forkArmsAreResidual {src : Core → Tm × (Nat → Option Tm)} {c : Core} {x : Nat} {D : Derived}
    (ha : srcAgreesB src c x = true) :
    ∃ l, leafNamed c.tree x = some l ∧
      (∀ g, judgeA (src c).1 (src c).2 (AReq.base (CReq.forkChoice g)) = some D →
        judgedTEdit (AReq.base (CReq.forkChoice g)) D x = TEdit.fork false x 0 0 0
          (List.map (renamePom dblL) (restPoms l.gamma l.done))
          (List.map (renamePom dblR) (restPoms l.gamma l.done))) ∧
      (judgeA (src c).1 (src c).2 (AReq.base CReq.forkParallel) = some D →
        judgedTEdit (AReq.base CReq.forkParallel) D x = TEdit.fork true x 0 0 0
          (List.map (renamePom dblL) (restPoms l.gamma l.done))
          (List.map (renamePom dblR) (restPoms l.gamma l.done))) := by
  have ⟨⟨l, hl, he⟩, _⟩ := (srcAgreesIff src c x).1 ha
  have ⟨hc, hp⟩ := forkContracts (T := (src c).1) (K := (src c).2) (D := D) x
  refine ⟨l, hl, fun g hj => ?_, fun hj => ?_⟩
  · rw [hc g hj, pomsClone, pomsClone, he]
  · rw [hp hj, pomsClone, pomsClone, he]

/-- Where `src` agrees with the tree, a Fork's arms with continuation steps are the forked leaf's
remaining contract under the two copy renamings, each followed by its arm's steps (`E_σ^L`, `E_σ^R`:
given, or the rule's templates instantiated with fresh calls). -/
theorem forkStepArmsAreResidual {src : Core → Tm × (Nat → Option Tm)} {c : Core} {x : Nat} {D : Derived}
    (ha : srcAgreesB src c x = true) :
    ∃ l, leafNamed c.tree x = some l ∧
      (∀ q, judgeA (src c).1 (src c).2 (AReq.fork q) = some D →
        ∃ par EL ER, judgedTEdit (AReq.fork q) D x = TEdit.fork par x 0 0 0
          (prodPoms true (List.map (renamePom dblL) (restPoms l.gamma l.done)) (poms EL))
          (prodPoms true (List.map (renamePom dblR) (restPoms l.gamma l.done)) (poms ER))) ∧
      (∀ q, judgeA (src c).1 (src c).2 (AReq.forkT q) = some D →
        ∃ par EL ER, judgedTEdit (AReq.forkT q) D x = TEdit.fork par x 0 0 0
          (prodPoms true (List.map (renamePom dblL) (restPoms l.gamma l.done)) (poms EL))
          (prodPoms true (List.map (renamePom dblR) (restPoms l.gamma l.done)) (poms ER))) := by
  have ⟨⟨l, hl, he⟩, _⟩ := (srcAgreesIff src c x).1 ha
  refine ⟨l, hl, fun q hj => ?_, fun q hj => ?_⟩
  · have ⟨par, EL, ER, e⟩ := forkKContracts x hj
    exact ⟨par, EL, ER, by rw [e, pomsSeq, pomsSeq, pomsClone dblL (src c).1, pomsClone dblR (src c).1, he]⟩
  · have ⟨par, TL, TR, e⟩ := forkTContracts x hj
    exact ⟨par, TL.clone (instL (bound (src c).1.calls)), TR.clone (instR (bound (src c).1.calls)),
      by rw [e, pomsSeq, pomsSeq, pomsClone dblL (src c).1, pomsClone dblR (src c).1, he]⟩

/-- Where `src` agrees with the tree, a Restore's `b_k` is the stored copy's remaining contract
`Γ_k/raw(χ_k)` (the checkpoint with ID `k` the record holds) under the counter's renaming. -/
theorem restoreIsStored {src : Core → Tm × (Nat → Option Tm)} {c : Core} {x k n : Nat} {D : Derived}
    {s : Saved} (ha : srcAgreesB src c x = true) (hs : s ∈ c.saved) (hk : s.id = k) :
    (judgeA (src c).1 (src c).2 (AReq.base (CReq.restoreReplace k n)) = some D →
      judgedTEdit (AReq.base (CReq.restoreReplace k n)) D x =
        TEdit.restore false x 0 0 (List.map (renamePom (shift n)) (restPoms s.gamma s.done))) ∧
    (judgeA (src c).1 (src c).2 (AReq.base (CReq.restoreLive k n)) = some D →
      judgedTEdit (AReq.base (CReq.restoreLive k n)) D x =
        TEdit.restore true x 0 0 (List.map (renamePom (shift n)) (restPoms s.gamma s.done))) := by
  have ⟨_, hsv⟩ := (srcAgreesIff src c x).1 ha
  have ⟨Cs, hCs, hes⟩ := hsv s hs
  rw [hk] at hCs
  have ⟨hr, hl⟩ := restoreContracts (T := (src c).1) (K := (src c).2) (D := D) x k n
  refine ⟨fun hj => ?_, fun hj => ?_⟩
  · have ⟨Ck, hK, e⟩ := hr hj
    rw [hCs] at hK
    rw [e, pomsClone, ← Option.some.inj hK, hes]
  · have ⟨Ck, hK, e⟩ := hl hj
    rw [hCs] at hK
    rw [e, pomsClone, ← Option.some.inj hK, hes]

/-- On the runtime machine run with `derJTC`, every committed step's tree is the record's, its `HStep`,
or Lean's `applyEdit` of the judged change, and a Fork's or Restore's change is made only where `src`
agrees with the record's tree, so the new leaves' contracts are the tree's (`forkArmsAreResidual`,
`forkStepArmsAreResidual`, `restoreIsStored` with their hypothesis discharged). -/
theorem stepTreeChecked (src : Core → Tm × (Nat → Option Tm)) (tab : Nat → Option (EntryA × Nat))
    (S : RState) (ev : Ev) :
    let t' := (stepR (derJTC src tab) S ev).2.core.tree
    t' = S.core.tree ∨ (∃ y, t' = hstep S.core.tree y) ∨
      (∃ u e x D, tab u = some (e, x) ∧ judgeA (src S.core).1 (src S.core).2 e.req = some D ∧
        (readsLeaf e.req = true → srcAgreesB src S.core x = true) ∧
        applyEdit S.core.tree (leanNames S.core.tree (reserved S.core) (judgedTEdit e.req D x)) = some t') := by
  cases stepTree (checkedTab src tab) S ev with
  | inl h => exact Or.inl h
  | inr h => cases h with
    | inl h => exact Or.inr (Or.inl h)
    | inr h =>
      have ⟨u, d, te, ht, ha⟩ := h
      cases htab : tab u with
      | none => simp only [checkedTab, htab] at ht
      | some p => cases p with
        | mk e x =>
          cases hb : (!readsLeaf e.req || srcAgreesB src S.core x) with
          | false => simp only [checkedTab, htab, hb] at ht
          | true =>
            have hs : readsLeaf e.req = true → srcAgreesB src S.core x = true := fun hr => by
              rw [hr] at hb; exact hb
            cases hj : judgeA (src S.core).1 (src S.core).2 e.req with
            | none => simp only [checkedTab, htab, hb, judgedTab, hj] at ht
            | some D =>
              simp only [checkedTab, htab, hb, judgedTab, hj] at ht
              have ⟨_, h2⟩ := Prod.mk.inj (Option.some.inj ht)
              rw [← h2] at ha
              exact Or.inr (Or.inr ⟨u, e, x, D, htab, hj, hs, ha⟩)

end AgentWarrant.Edits.DeriveTreeSrc
