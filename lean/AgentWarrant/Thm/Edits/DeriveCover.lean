import AgentWarrant.Spec.Edits.DeriveCover
import AgentWarrant.Thm.Edits.Judgment
import AgentWarrant.Thm.Edits.DerivedInput
import AgentWarrant.Thm.Edits.Reach
import AgentWarrant.Thm.Edits.WellFormed
import AgentWarrant.Thm.Edits.Cover
/-! Lemma 2's coverage conclusion for every instance the edit judgment derives, and `Derive` as the
judgment in the machine model (*When Can Agents Safely Checkpoint, Fork, Restore, and Merge?*,
Lemma 2, Lemma 4, Lemma 8, Appendix A-D2, Lemma 14 and Theorem 4 (Appendices A-F, A-G)).
Definitions in `Spec/Edits/DeriveCover.lean`.

- `judgedCoverWitnesses`: every instance the judgment derives (`Judged`: a derived record's instance
  from a well-formed source, and A-D2's extension instance over one, with or without recorded
  progress) has `CoverWitnesses`; hence Lemma 4 (`judgedLemma4`) and Lemma 8 (`judgedLemma8`) for
  it with `PrefixClosed` as the only hypothesis; on the checker's input, an input presenting a judged
  instance is never answered `Invalid` and its answer is the declarative one (`judgedOnInput`).
- `judgeSound`: the judgment as a function derives only what `EditJ` derives, from a source that is
  well formed for the store the request reads (`storeFor`); so `judge`'s instances are `Judged`
  (`judgeJudged`); `judgeComplete`: from a well-formed source it derives every record `EditJ` derives
  with the renamings it allocates (`judgeIff`).
- `derJCheck`: with `Derive` the judgment (`derJ`, for any source reader and request table), the
  machine's check answers `Reject` only when the derived instance has no safe execution set, and
  `Accepted` only with the instance's maximal safe pair `(W†, S)`; `CoverWitnesses` is proved for
  every instance the machine checks.
- `derJ0`: the machine model's fixed derivation `der0` is `derJ src0 tab0` — every one of its ten
  derived instances is the judgment's on the region `x` and the store `store0` — so Lemma 14's
  reachability of Table II's record pairs and Theorem 4 over reachable states hold with `Derive` the
  Lean edit judgment (`pairsReachableJudged`, `keepExactReachJudged`). -/
namespace AgentWarrant.Edits.DeriveCover
open AgentWarrant AgentWarrant.Edits

-- Judged instances ---------------------------------------------------------------------------------

theorem derivedAllComplete (D : Derived) (hnd : Nodup D.target.calls) (act lab log : List Nat)
    (A : List Nat → Prop) : AllComplete (D.theta act lab log A) := by
  intro t ⟨x, hx⟩
  have ⟨w, hw⟩ := outsComplete D.target hnd x (pickMem hx)
  have hp : (D.theta act lab log A).pom t = x.pom := by simp [Derived.theta, hx]
  exact ⟨w, by rw [hp]; exact hw⟩

theorem afterAllComplete (θ : Theta) (z : Word) : AllComplete (θ.after z) := by
  intro a ho
  have ho' : θ.Compat z a := ho
  have ⟨_, y, hy, ⟨t, ht⟩⟩ := ho'
  have hR : (θ.after z).R a t := (afterR θ z a ho' t).2 (by rw [← ht]; exact hy)
  have ⟨w, hw, _⟩ := hR
  exact ⟨w, hw⟩

/-- A-D2's extension instance has `CoverWitnesses` whenever every outcome is complete: each current
outcome is required and covers itself. -/
theorem extendCoverWitnesses {θ : Theta} (h : AllComplete θ) (A' : List Nat → Prop) :
    (θ.extendWith A').CoverWitnesses := by
  intro a ⟨ho, _, _⟩
  have ⟨w, hw⟩ := h a ho
  exact ⟨a, ho, rfl, w, hw⟩

theorem extendAllComplete {θ : Theta} (h : AllComplete θ) (A' : List Nat → Prop) : AllComplete (θ.extendWith A') :=
  h

theorem judgedAllComplete : ∀ {θ : Theta}, Judged θ → AllComplete θ
  | _, Judged.edit hW h act lab log A => derivedAllComplete _ (editKeepsWellFormed hW h).1 act lab log A
  | _, Judged.extend h A' => extendAllComplete (judgedAllComplete h) A'
  | _, Judged.extendAfter _ z _ => afterAllComplete _ z

/-- Lemma 2's coverage conclusion for every instance the judgment derives. -/
theorem judgedCoverWitnesses : ∀ {θ : Theta}, Judged θ → θ.CoverWitnesses
  | _, Judged.edit hW h act lab log A => (editPreserves hW h).2 act lab log A
  | _, Judged.extend h A' => extendCoverWitnesses (judgedAllComplete h) A'
  | _, Judged.extendAfter _ z A' => extendCoverWitnesses (afterAllComplete _ z) A'

/-- Lemma 4 for every instance the judgment derives, with `PrefixClosed` the only hypothesis. -/
theorem judgedLemma4 {θ : Theta} (h : Judged θ) (hA : θ.PrefixClosed) :
    ((∃ L B, θ.Safe L B) ↔ θ.SafeEdit) ∧ (θ.SafeEdit → θ.Safe θ.Wdag θ.Bdag) ∧
    ∀ L B, θ.Safe L B → (∀ c, B c → θ.Bdag c) ∧ (∀ z, L z → θ.Wdag z) :=
  Theta.lemma4 hA (judgedCoverWitnesses h)

/-- Lemma 8 for every instance the judgment derives, with `PrefixClosed` the only hypothesis. -/
theorem judgedLemma8 {θ : Theta} (h : Judged θ) (hA : θ.PrefixClosed) :
    ((∃ L B, θ.MaxSafe L B) ↔ θ.SafeEdit) ∧
    ∀ L B, θ.MaxSafe L B → (∀ z, L z ↔ θ.Wdag z) ∧ (∀ c, B c ↔ θ.Bdag c) :=
  Theta.lemma8 hA (judgedCoverWitnesses h)

/-- On the checker's input: for every judged instance an input presents (target pomsets, policy
automaton, source results with their status and covering outcomes), the decided coverage holds, the
oracle's answer is never `Invalid` (`required-result-dropped`), and it is the declarative one. -/
theorem judgedOnInput {θ : Theta} {pi : PInst} {src : List Cover.Src} (hJ : Judged θ) (h : Presents θ pi)
    (hs : Cover.PresentsSrc θ src) :
    Cover.coverB pi src = true ∧ Cover.answer pi src ≠ Cover.Answer.invalidDropped ∧
    (Cover.answer pi src = Cover.Answer.accepted ↔ ∃ L B, θ.Safe L B) ∧
    (Cover.answer pi src = Cover.Answer.rejected ↔ ¬ ∃ L B, θ.Safe L B) ∧
    (Cover.answer pi src = Cover.Answer.accepted → θ.MaxSafe θ.Wdag (fun c => c ∈ safeSet (build pi))) := by
  have hw := judgedCoverWitnesses hJ
  have ⟨hinv, hacc, hrej, hmax⟩ := Cover.answerExact h hs
  exact ⟨(Cover.coverBIff h hs).2 hw, fun e => hinv.1 e hw, hacc,
    ⟨fun e => (hrej.1 e).2, fun hn => hrej.2 ⟨hw, hn⟩⟩, hmax⟩

-- The judgment as a function -----------------------------------------------------------------------

theorem andTrue : ∀ {a b : Bool}, (a && b) = true → a = true ∧ b = true
  | true, true, _ => ⟨rfl, rfl⟩
  | true, false, h => Bool.noConfusion h
  | false, _, h => Bool.noConfusion h

theorem notTrue : ∀ {a : Bool}, (!a) = true → a = false
  | false, _ => rfl
  | true, h => Bool.noConfusion h

theorem beqSelfN : ∀ n : Nat, Nat.beq n n = true
  | 0 => rfl
  | n + 1 => beqSelfN n

theorem dblInj : ∀ a b : Nat, a + a = b + b → a = b
  | 0, 0, _ => rfl
  | 0, _ + 1, h => Nat.noConfusion h
  | _ + 1, 0, h => Nat.noConfusion h
  | a + 1, b + 1, h => by
    have h1 : (a + 1) + a = (b + 1) + b := Nat.succ.inj h
    rw [Nat.succ_add, Nat.succ_add] at h1
    rw [dblInj a b (Nat.succ.inj h1)]

theorem dblNe : ∀ a b : Nat, a + a ≠ b + b + 1
  | 0, _, h => Nat.noConfusion h
  | a + 1, 0, h => by
    have h1 : (a + 1) + a = 0 := Nat.succ.inj h
    rw [Nat.succ_add] at h1
    exact Nat.noConfusion h1
  | a + 1, b + 1, h => by
    have h1 : (a + 1) + a = (b + 1) + (b + 1) := Nat.succ.inj h
    rw [Nat.succ_add] at h1
    have h2 : a + a = (b + 1) + b := Nat.succ.inj h1
    rw [Nat.succ_add] at h2
    exact dblNe a b h2

theorem dblLInj : ∀ a b, dblL a = dblL b → a = b := dblInj

theorem dblRInj : ∀ a b, dblR a = dblR b → a = b := fun a b h => dblInj a b (Nat.succ.inj h)

theorem dblDisjoint : ∀ a b, dblL a ≠ dblR b := dblNe

theorem shiftInj (n : Nat) : ∀ a b, shift n a = shift n b → a = b := by
  induction n with
  | zero => exact fun a b h => h
  | succ n ih => exact fun a b h => ih a b (Nat.succ.inj h)

theorem shiftAvoids {x n : Nat} (hx : x < n) (b : Nat) : shift n b ≠ x := fun e => by
  have h : n ≤ b + n := Nat.leAddLeft n b
  have e' : b + n = x := e
  rw [e'] at h
  exact Nat.notSuccLeSelf x (Nat.leTrans hx h)

/-- The decided `Defined` is sound: no linearization of one result properly prefixes another's. -/
theorem definedBSound {T : Tm} (h : definedB T = true) : Defined T := by
  intro o o' v v' ho ho' hv hv' hp
  have hpv := notTrue h
  have m1 := mapMem (f := fun o => (⟨0, linsOf o.pom⟩ : Outcome)) ho
  have m2 := mapMem (f := fun o => (⟨0, linsOf o.pom⟩ : Outcome)) ho'
  have a1 := anyBFalse hpv m1
  have a2 := anyBFalse a1 ((linsOfIff o.pom v).2 hv)
  have a3 := anyBFalse a2 m2
  exact properPrefixFalse (anyBFalse a3 ((linsOfIff o'.pom v').2 hv')) hp

theorem wfBSound {T : Tm} (h : wfB T = true) : WellFormedTm T :=
  have ⟨h1, h2⟩ := andTrue h
  have hnd := hasDupFalse (notTrue h1)
  ⟨hnd, outsComplete T hnd, definedBSound h2⟩

theorem freshBSound {E : Tm} {S : List Nat} (h : freshB E S = true) : ∀ x, x ∈ E.calls → ¬ x ∈ S :=
  fun x hx hS => by
    have e : (!memN x S) = true := allBElim h x hx
    rw [memNOfMem hS] at e
    exact Bool.noConfusion e

theorem belowBSound {T : Tm} {n : Nat} (h : belowB T n = true) : ∀ x, x ∈ T.calls → x < n :=
  fun x hx => ofDecideEqTrue (allBElim h x hx)

theorem contOkSound {TL TR EJ : Tm} (h : contOk TL TR EJ = true) :
    Nodup EJ.calls ∧ (∀ x, x ∈ EJ.calls → ¬ x ∈ TL.calls ++ TR.calls) ∧ Defined EJ :=
  have ⟨h12, h3⟩ := andTrue h
  have ⟨h1, h2⟩ := andTrue h12
  ⟨hasDupFalse (notTrue h1), freshBSound h2, definedBSound h3⟩

theorem noStoreWf {T : Tm} (h : WellFormedTm T) : WellFormedSrc T (fun _ => none) :=
  ⟨h, fun _ _ e => Option.noConfusion e⟩

theorem storeAtWf {T Ck : Tm} {K : Nat → Option Tm} {k : Nat} (hT : WellFormedTm T) (hk : K k = some Ck)
    (hC : WellFormedTm Ck) :
    WellFormedSrc T (fun j => match Nat.beq j k with
      | true => K k
      | false => none) := by
  refine ⟨hT, fun j C e0 => ?_⟩
  have e : (match Nat.beq j k with
    | true => K k
    | false => none) = some C := e0
  cases hb : Nat.beq j k with
  | false => rw [hb] at e; exact Option.noConfusion e
  | true =>
    rw [hb, hk] at e
    have e' : Ck = C := Option.some.inj e
    rw [← e']
    exact hC

theorem storeAtK {K : Nat → Option Tm} {k : Nat} {Ck : Tm} (hk : K k = some Ck) :
    (fun j => match Nat.beq j k with
      | true => K k
      | false => none) k = some Ck := by
  show (match Nat.beq k k with
      | true => K k
      | false => none) = some Ck
  rw [beqSelfN k]
  exact hk

theorem someInj {a b : α} (h : some a = some b) : a = b := Option.some.inj h

/-- The judgment as a function derives only what `EditJ` derives, with the store it was given and with
the store restricted to what the request reads, from a source well formed for the latter. -/
theorem judgeSound {T : Tm} {K : Nat → Option Tm} {r : CReq} {D : Derived} (h : judge T K r = some D) :
    EditJ T K (reqOf r) D ∧ EditJ T (storeFor K r) (reqOf r) D ∧ WellFormedSrc T (storeFor K r) := by
  cases r with
  | forkChoice g =>
    cases hw : wfB T with
    | false => simp only [judge, hw] at h <;> exact Option.noConfusion h
    | true =>
      simp only [judge, hw] at h
      rw [← someInj h]
      exact ⟨EditJ.forkChoice g dblL dblR dblLInj dblRInj dblDisjoint,
        EditJ.forkChoice g dblL dblR dblLInj dblRInj dblDisjoint, noStoreWf (wfBSound hw)⟩
  | forkParallel =>
    cases hw : wfB T with
    | false => simp only [judge, hw] at h <;> exact Option.noConfusion h
    | true =>
      simp only [judge, hw] at h
      rw [← someInj h]
      exact ⟨EditJ.forkParallel dblL dblR dblLInj dblRInj dblDisjoint,
        EditJ.forkParallel dblL dblR dblLInj dblRInj dblDisjoint, noStoreWf (wfBSound hw)⟩
  | restoreReplace k n =>
    cases hw : wfB T with
    | false => simp only [judge, hw] at h <;> exact Option.noConfusion h
    | true =>
      cases hk : K k with
      | none => simp only [judge, hw, hk] at h <;> exact Option.noConfusion h
      | some Ck =>
        cases hc : wfB Ck with
        | false => simp only [judge, hw, hk, hc] at h <;> exact Option.noConfusion h
        | true =>
          simp only [judge, hw, hk, hc] at h
          rw [← someInj h]
          exact ⟨EditJ.restoreReplace k (shift n) Ck hk (shiftInj n),
            EditJ.restoreReplace k (shift n) Ck (storeAtK hk) (shiftInj n),
            storeAtWf (wfBSound hw) hk (wfBSound hc)⟩
  | restoreLive k n =>
    cases hw : wfB T with
    | false => simp only [judge, hw] at h <;> exact Option.noConfusion h
    | true =>
      cases hk : K k with
      | none => simp only [judge, hw, hk] at h <;> exact Option.noConfusion h
      | some Ck =>
        cases hc : (wfB Ck && belowB T n) with
        | false => simp only [judge, hw, hk, hc] at h <;> exact Option.noConfusion h
        | true =>
          simp only [judge, hw, hk, hc] at h
          rw [← someInj h]
          have ⟨hc1, hc2⟩ := andTrue hc
          have hfresh : ∀ x b, x ∈ T.calls → shift n b ≠ x := fun x b hx => shiftAvoids (belowBSound hc2 x hx) b
          exact ⟨EditJ.restoreLive k (shift n) Ck hk (shiftInj n) hfresh,
            EditJ.restoreLive k (shift n) Ck (storeAtK hk) (shiftInj n) hfresh,
            storeAtWf (wfBSound hw) hk (wfBSound hc1)⟩
  | mergeSelect g w EJ =>
    cases T with
    | choice g' TL TR =>
      cases hb : (Nat.beq g' g && wfB (Tm.choice g' TL TR) && contOk TL TR EJ) with
      | false => simp only [judge, hb] at h <;> exact Option.noConfusion h
      | true =>
        simp only [judge, hb] at h
        rw [← someInj h]
        have ⟨hb12, hb3⟩ := andTrue hb
        have ⟨hb1, hb2⟩ := andTrue hb12
        have eg : g' = g := Nat.eqOfBeqEqTrue hb1
        subst eg
        have ⟨hE, hfresh, hD⟩ := contOkSound hb3
        exact ⟨EditJ.mergeSelect g' w TL TR EJ rfl hE hfresh hD, EditJ.mergeSelect g' w TL TR EJ rfl hE hfresh hD,
          noStoreWf (wfBSound hb2)⟩
    | call _ => simp only [judge] at h <;> exact Option.noConfusion h
    | nil => simp only [judge] at h <;> exact Option.noConfusion h
    | par _ _ => simp only [judge] at h <;> exact Option.noConfusion h
    | seq _ _ => simp only [judge] at h <;> exact Option.noConfusion h
  | mergeJoin EJ =>
    cases T with
    | par TL TR =>
      cases hb : (wfB (Tm.par TL TR) && contOk TL TR EJ) with
      | false => simp only [judge, hb] at h <;> exact Option.noConfusion h
      | true =>
        simp only [judge, hb] at h
        rw [← someInj h]
        have ⟨hb1, hb2⟩ := andTrue hb
        have ⟨hE, hfresh, hD⟩ := contOkSound hb2
        exact ⟨EditJ.mergeJoin TL TR EJ rfl hE hfresh hD, EditJ.mergeJoin TL TR EJ rfl hE hfresh hD,
          noStoreWf (wfBSound hb1)⟩
    | call _ => simp only [judge] at h <;> exact Option.noConfusion h
    | nil => simp only [judge] at h <;> exact Option.noConfusion h
    | choice _ _ _ => simp only [judge] at h <;> exact Option.noConfusion h
    | seq _ _ => simp only [judge] at h <;> exact Option.noConfusion h
  | extend =>
    cases hw : wfB T with
    | false => simp only [judge, hw] at h <;> exact Option.noConfusion h
    | true =>
      simp only [judge, hw] at h
      rw [← someInj h]
      exact ⟨EditJ.extend, EditJ.extend, noStoreWf (wfBSound hw)⟩

/-- Every instance of a record the judgment function derives is one the edit judgment derives. -/
theorem judgeJudged {T : Tm} {K : Nat → Option Tm} {r : CReq} {D : Derived} (h : judge T K r = some D)
    (act lab log : List Nat) (A : List Nat → Prop) : Judged (D.theta act lab log A) :=
  have ⟨_, hJ, hW⟩ := judgeSound h
  Judged.edit hW hJ act lab log A

/-- Lemma 2 for the judgment function's records: deterministic for the store the request reads, a
well-formed target, every required result covered, the row's record, `CoverWitnesses`. -/
theorem judgeLemma2 {T : Tm} {K : Nat → Option Tm} {r : CReq} {D : Derived} (h : judge T K r = some D) :
    (∀ D', EditJ T (storeFor K r) (reqOf r) D' → D' = D) ∧ WellFormedTm D.target ∧ D.Covered ∧ D.RowExact ∧
    ∀ act lab log (A : List Nat → Prop), (D.theta act lab log A).CoverWitnesses :=
  have ⟨_, hJ, hW⟩ := judgeSound h
  Thm.editJudgmentLemma2 hW hJ

theorem judgeValid {T : Tm} {K : Nat → Option Tm} {r : CReq} {D : Derived} (h : judge T K r = some D) :
    ValidDerives D :=
  have ⟨_, hJ, hW⟩ := judgeSound h
  editValid hW hJ

-- The judgment function is complete ------------------------------------------------------------------

theorem anyBFalseOf {p : α → Bool} {l : List α} (h : ∀ x, x ∈ l → p x = false) : anyB p l = false := by
  cases e : anyB p l with
  | false => rfl
  | true =>
    have ⟨x, hx, hp⟩ := anyBElim e
    rw [h x hx] at hp
    exact Bool.noConfusion hp

theorem isPrefixNSound : ∀ (v w : List Nat), isPrefixN v w = true → IsPrefix v w
  | [], w, _ => prefixNil w
  | _ :: _, [], h => Bool.noConfusion h
  | a :: v, b :: w, h => by
    cases hb : Nat.beq a b with
    | false => simp only [isPrefixN, hb] at h <;> exact Bool.noConfusion h
    | true =>
      simp only [isPrefixN, hb] at h
      have ⟨t, ht⟩ := isPrefixNSound v w h
      have e := Nat.eqOfBeqEqTrue hb
      subst e
      exact ⟨t, by rw [ht, List.cons_append]⟩

theorem properPrefixTrue {v w : List Nat} (h : properPrefix v w = true) : IsPrefix v w ∧ v ≠ w := by
  cases hd : decide (v = w) with
  | true => simp only [properPrefix, hd] at h <;> exact Bool.noConfusion h
  | false =>
    simp only [properPrefix, hd] at h
    exact ⟨isPrefixNSound v w h, fun e => by rw [decideEqTrue e] at hd; exact Bool.noConfusion hd⟩

/-- The decided `Defined` is complete. -/
theorem definedBComplete {T : Tm} (hD : Defined T) : definedB T = true := by
  have hpv : prefixViolation (List.map (fun o => (⟨0, linsOf o.pom⟩ : Outcome)) T.outs) = false := by
    apply anyBFalseOf
    intro x hx
    have ⟨o, ho, ex⟩ := memMap hx
    subst ex
    apply anyBFalseOf
    intro v hv
    apply anyBFalseOf
    intro x' hx'
    have ⟨o', ho', ex'⟩ := memMap hx'
    subst ex'
    apply anyBFalseOf
    intro v' hv'
    cases hp : properPrefix v v' with
    | false => rfl
    | true =>
      have ⟨hpre, hne⟩ := properPrefixTrue hp
      exact absurd (hD o o' v v' ho ho' ((linsOfIff _ _).1 hv) ((linsOfIff _ _).1 hv') hpre) hne
  show (!prefixViolation (List.map (fun o => (⟨0, linsOf o.pom⟩ : Outcome)) T.outs)) = true
  rw [hpv]
  rfl

theorem hasDupComplete : ∀ {l : List Nat}, Nodup l → hasDup l = false
  | [], _ => rfl
  | a :: l, ⟨hn, hl⟩ => by
    have hm : memN a l = false := (memNFalseIff a l).2 hn
    simp only [hasDup, hm]
    exact hasDupComplete hl

theorem wfBComplete {T : Tm} (h : WellFormedTm T) : wfB T = true := by
  show (!hasDup T.calls && definedB T) = true
  rw [hasDupComplete h.1, definedBComplete h.2.2]
  rfl

theorem freshBComplete {E : Tm} {S : List Nat} (h : ∀ x, x ∈ E.calls → ¬ x ∈ S) : freshB E S = true :=
  allBIntro (fun x hx => by
    show (!memN x S) = true
    rw [(memNFalseIff x S).2 (h x hx)]
    rfl)

theorem belowBComplete {T : Tm} {n : Nat} (h : ∀ x, x ∈ T.calls → x < n) : belowB T n = true :=
  allBIntro (fun x hx => decideEqTrue (h x hx))

theorem contOkComplete {TL TR EJ : Tm} (hE : Nodup EJ.calls) (hfresh : ∀ x, x ∈ EJ.calls → ¬ x ∈ TL.calls ++ TR.calls)
    (hD : Defined EJ) : contOk TL TR EJ = true := by
  show (!hasDup EJ.calls && freshB EJ (TL.calls ++ TR.calls) && definedB EJ) = true
  rw [hasDupComplete hE, freshBComplete hfresh, definedBComplete hD]
  rfl

/-- A copy renamed by the counter `n` avoids a call `x` only when `x < n`. -/
theorem ltOfAvoid : ∀ (n x : Nat), (∀ b, shift n b ≠ x) → x < n
  | 0, x, h => absurd rfl (h x)
  | n + 1, 0, _ => Nat.zeroLtSucc n
  | n + 1, x + 1, h => Nat.succLeSucc (ltOfAvoid n x (fun b e => h b (congrArg Nat.succ e)))

/-- From a well-formed source, the judgment function derives every record `EditJ` derives with the
renamings it allocates: it is the judgment on those requests. -/
theorem judgeComplete {T : Tm} {K : Nat → Option Tm} {r : CReq} {D : Derived} (hW : WellFormedSrc T K)
    (h : EditJ T K (reqOf r) D) : judge T K r = some D := by
  cases r with
  | forkChoice g =>
    cases h
    simp only [judge, wfBComplete hW.1] <;> rfl
  | forkParallel =>
    cases h
    simp only [judge, wfBComplete hW.1] <;> rfl
  | restoreReplace k n =>
    cases h with
    | restoreReplace _ _ Ck hK _ => simp only [judge, wfBComplete hW.1, hK, wfBComplete (hW.2 k Ck hK)] <;> rfl
  | restoreLive k n =>
    cases h with
    | restoreLive _ _ Ck hK _ hfresh =>
      have hb : belowB T n = true := belowBComplete (fun x hx => ltOfAvoid n x (fun b => hfresh x b hx))
      simp only [judge, wfBComplete hW.1, hK, wfBComplete (hW.2 k Ck hK), hb] <;> rfl
  | mergeSelect g w EJ =>
    cases h with
    | mergeSelect _ _ TL TR _ hT hE hfresh hD =>
      subst hT
      simp only [judge, beqSelfN g, wfBComplete hW.1, contOkComplete hE hfresh hD] <;> rfl
  | mergeJoin EJ =>
    cases h with
    | mergeJoin TL TR _ hT hE hfresh hD =>
      subst hT
      simp only [judge, wfBComplete hW.1, contOkComplete hE hfresh hD] <;> rfl
  | extend =>
    cases h
    simp only [judge, wfBComplete hW.1] <;> rfl

/-- On a well-formed source the judgment function is exactly the edit judgment on the requests with the
renamings it allocates. -/
theorem judgeIff {T : Tm} {K : Nat → Option Tm} {r : CReq} {D : Derived} (hW : WellFormedSrc T K) :
    judge T K r = some D ↔ EditJ T K (reqOf r) D :=
  ⟨fun h => (judgeSound h).1, judgeComplete hW⟩

-- `Derive` as the judgment in the machine model ---------------------------------------------------

/-- The instance the machine checks for an edit with table entry `e` and record `D`, at record `c`. -/
def thetaAt (e : Entry) (D : Derived) (c : Machine.Core) : Theta :=
  D.theta e.act e.lab (Machine.logActions c) (fun w => dfaAccepts e.dfa w = true)

theorem derJSome {src : Machine.Core → Tm × (Nat → Option Tm)} {tab : Nat → Option Entry} {c : Machine.Core}
    {u : Nat} {d : Machine.Derived} (h : derJ src tab c u = some d) :
    ∃ e D, tab u = some e ∧ judge (src c).1 (src c).2 e.req = some D ∧
      d = ⟨inputOf D e.act e.lab (Machine.logActions c) e.dfa, e.calls, e.names, e.etaNew, []⟩ := by
  cases ht : tab u with
  | none => simp only [derJ, ht] at h <;> exact Option.noConfusion h
  | some e =>
    cases hj : judge (src c).1 (src c).2 e.req with
    | none => simp only [derJ, ht, hj] at h <;> exact Option.noConfusion h
    | some D =>
      simp only [derJ, ht, hj] at h
      exact ⟨e, D, rfl, hj, (someInj h).symm⟩

/-- With `Derive` the edit judgment, every instance the machine checks is one the judgment derives,
with `CoverWitnesses`, and the checker's answer on it is the declarative one: it accepts iff a safe
execution set exists, and then its set with `W†` is the maximal safe pair. -/
theorem derJCheck (src : Machine.Core → Tm × (Nat → Option Tm)) (tab : Nat → Option Entry) (c : Machine.Core)
    (u : Nat) (d : Machine.Derived) (h : derJ src tab c u = some d) :
    ∃ e D, tab u = some e ∧ judge (src c).1 (src c).2 e.req = some D ∧
      d.inst = inputOf D e.act e.lab (Machine.logActions c) e.dfa ∧
      Judged (thetaAt e D c) ∧ (thetaAt e D c).CoverWitnesses ∧
      (accepts (build d.inst) = true ↔ ∃ L B, (thetaAt e D c).Safe L B) ∧
      (accepts (build d.inst) = true →
        (thetaAt e D c).MaxSafe (thetaAt e D c).Wdag (fun x => x ∈ safeSet (build d.inst))) := by
  have ⟨e, D, ht, hj, hd⟩ := derJSome h
  subst hd
  have hx := derivedInputExact (judgeValid hj) e.act e.lab (Machine.logActions c) e.dfa
  have hJ := judgeJudged hj e.act e.lab (Machine.logActions c) (fun w => dfaAccepts e.dfa w = true)
  exact ⟨e, D, ht, hj, rfl, hJ, judgedCoverWitnesses hJ, hx.1, hx.2⟩

theorem acceptsOfSafeSet {i : Inst} {s : Cand} {ss : List Cand} (h : safeSet i = s :: ss) : accepts i = true := by
  simp only [accepts, h]

theorem notAcceptsOfSafeSet {i : Inst} (h : safeSet i = []) : accepts i = false := by
  simp only [accepts, h]

/-- The machine's `Reject` under the judgment: the derived instance has no safe execution set. -/
theorem derJRejected {src : Machine.Core → Tm × (Nat → Option Tm)} {tab : Nat → Option Entry}
    {c : Machine.Core} {u : Nat} (h : Machine.check (derJ src tab) c u = Machine.Answer.rejected u c) :
    ∃ e D, tab u = some e ∧ judge (src c).1 (src c).2 e.req = some D ∧ (thetaAt e D c).CoverWitnesses ∧
      ¬ ∃ L B, (thetaAt e D c).Safe L B := by
  cases hd : derJ src tab c u with
  | none => simp only [Machine.check, hd] at h <;> exact Machine.Answer.noConfusion h
  | some d =>
    have ⟨e, D, ht, hj, _, _, hcov, hiff, _⟩ := derJCheck src tab c u d hd
    refine ⟨e, D, ht, hj, hcov, fun hs => ?_⟩
    cases hs' : safeSet (build d.inst) with
    | nil =>
      have hf := notAcceptsOfSafeSet hs'
      rw [hiff.2 hs] at hf
      exact Bool.noConfusion hf
    | cons s ss =>
      simp only [Machine.check, hd, hs'] at h <;> exact Machine.Answer.noConfusion h

/-- The machine's `Accepted` under the judgment: the installed set with `W†` is the derived
instance's maximal safe pair. -/
theorem derJAccepted {src : Machine.Core → Tm × (Nat → Option Tm)} {tab : Nat → Option Entry}
    {c : Machine.Core} {u v : Nat} {cut : Machine.Core} {eo : Option Nat} {en : Nat} {S : List Cand}
    (h : Machine.check (derJ src tab) c u = Machine.Answer.accepted v cut eo en S) :
    ∃ e D, tab u = some e ∧ judge (src c).1 (src c).2 e.req = some D ∧ (thetaAt e D c).CoverWitnesses ∧
      (thetaAt e D c).MaxSafe (thetaAt e D c).Wdag (fun x => x ∈ S) := by
  cases hd : derJ src tab c u with
  | none => simp only [Machine.check, hd] at h <;> exact Machine.Answer.noConfusion h
  | some d =>
    have ⟨e, D, ht, hj, _, _, hcov, _, hmax⟩ := derJCheck src tab c u d hd
    cases hs' : safeSet (build d.inst) with
    | nil =>
      simp only [Machine.check, hd, hs'] at h <;> exact Machine.Answer.noConfusion h
    | cons s ss =>
      simp only [Machine.check, hd, hs'] at h
      have eS : s :: ss = S := (Machine.Answer.accepted.inj h).2.2.2.2
      have hm := hmax (acceptsOfSafeSet hs')
      rw [hs', eS] at hm
      exact ⟨e, D, ht, hj, hcov, hm⟩

-- `der0` is the judgment's derivation ---------------------------------------------------------------

-- The ten derived records are evaluated; the default bound on the elaborator's unfolding is small for
-- the decided well-formedness of the stored checkpoints.
set_option maxHeartbeats 400000

/-- The machine model's fixed derivation `der0` is `Derive` as the edit judgment, on the region `x`
with the store `store0` and the requests `tab0`: edit by edit, the same derived instance. -/
theorem derJ0 : derJ src0 tab0 = Reach.der0 := by
  funext c u
  match u with
  | 0 => rfl
  | 1 => rfl
  | 2 => rfl
  | 3 => rfl
  | 4 => rfl
  | 5 => rfl
  | 6 => rfl
  | 7 => rfl
  | 8 => rfl
  | 9 => rfl
  | n + 10 => rfl

/-- The root contract's instance is the judgment's too: `Extend` on `x` with the root's action map,
labels and empty log. -/
theorem root0Judged : judge (Tm.call 0) store0 CReq.extend = some (extendRow (Tm.call 0)) ∧
    Reach.root0.inst = inputOf (extendRow (Tm.call 0)) [0, 0, 0] [0] [] Reach.dfaA :=
  ⟨rfl, rfl⟩

/-- Lemma 14's reachability with `Derive` the edit judgment: each of Table II's record pairs consists
of records of states reached from the common initial state, and the common request is one an Agent
holds there. -/
theorem pairsReachableJudged (x : Part) :
    Reach.ReachRec (derJ src0 tab0) Reach.root0 (Reach.rpair x).1 ∧
    Reach.ReachRec (derJ src0 tab0) Reach.root0 (Reach.rpair x).2.1 ∧
    Reach.ReachQ (derJ src0 tab0) Reach.root0 (Reach.rpair x).2.2 := by
  rw [derJ0]
  exact Reach.pairsReachable x

/-- Theorem 4 over the runtime's reachable states with `Derive` the edit judgment: `Keep_J` is exact up
to renaming iff `J` names all four parts. -/
theorem keepExactReachJudged (J : Part → Bool) :
    Reach.ExactROn (Reach.ReachRec (derJ src0 tab0) Reach.root0) (Reach.ReachQ (derJ src0 tab0) Reach.root0)
      renView FitsView (keepJ J) ↔ ∀ x, J x = true := by
  rw [derJ0]
  exact Reach.keepExactReachIff J

/-- `Drop_ca` and `Drop_ra` are inexact on the reachable records with `Derive` the edit judgment. -/
theorem dropInexactJudged :
    ¬ Reach.ExactROn (Reach.ReachRec (derJ src0 tab0) Reach.root0) (Reach.ReachQ (derJ src0 tab0) Reach.root0)
      renDropCA FitsDropCA dropCA ∧
    ¬ Reach.ExactROn (Reach.ReachRec (derJ src0 tab0) Reach.root0) (Reach.ReachQ (derJ src0 tab0) Reach.root0)
      renDropRA FitsDropRA dropRA := by
  rw [derJ0]
  exact ⟨Reach.dropCAInexactReach, Reach.dropRAInexactReach⟩

end AgentWarrant.Edits.DeriveCover

namespace AgentWarrant.Thm
open AgentWarrant.Edits

/-- Lemma 4 with no coverage hypothesis for every check instance the Lean edit judgment derives (a
derived record's instance from a well-formed source, or A-D2's extension instance over one): a safe
execution set exists iff `B̂† ≠ ∅`, and then `(W†, B̂†)` is safe and contains every safe pair. -/
theorem judgedLargestSafeSet {θ : Theta} (h : DeriveCover.Judged θ) (hA : θ.PrefixClosed) :
    ((∃ L B, θ.Safe L B) ↔ θ.SafeEdit) ∧ (θ.SafeEdit → θ.Safe θ.Wdag θ.Bdag) ∧
    ∀ L B, θ.Safe L B → (∀ c, B c → θ.Bdag c) ∧ (∀ z, L z → θ.Wdag z) :=
  DeriveCover.judgedLemma4 h hA

/-- Lemma 8 with no coverage hypothesis for every check instance the Lean edit judgment derives. -/
theorem judgedMaxSafeUnique {θ : Theta} (h : DeriveCover.Judged θ) (hA : θ.PrefixClosed) :
    ((∃ L B, θ.MaxSafe L B) ↔ θ.SafeEdit) ∧
    ∀ L B, θ.MaxSafe L B → (∀ z, L z ↔ θ.Wdag z) ∧ (∀ c, B c ↔ θ.Bdag c) :=
  DeriveCover.judgedLemma8 h hA

/-- Theorem 4 over reachable states with the machine model's `Derive` the Lean edit judgment
(`derJ src0 tab0`, which is `der0`). -/
theorem theorem4UnderEditJudgment (J : Part → Bool) :
    Reach.ExactROn (Reach.ReachRec (DeriveCover.derJ DeriveCover.src0 DeriveCover.tab0) Reach.root0)
      (Reach.ReachQ (DeriveCover.derJ DeriveCover.src0 DeriveCover.tab0) Reach.root0)
      renView FitsView (keepJ J) ↔ ∀ x, J x = true :=
  DeriveCover.keepExactReachJudged J

end AgentWarrant.Thm
