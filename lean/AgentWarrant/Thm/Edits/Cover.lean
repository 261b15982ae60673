import AgentWarrant.Spec.Edits.Cover
import AgentWarrant.Thm.Edits.Input
/-! The coverage half of Lemma 2's conclusion, decided on the checker's input (*When Can Agents Safely
Checkpoint, Fork, Restore, and Merge?*, Sections V-A2 and V-C1, Lemma 4, Lemma 8, Appendix A-A).

- `coverBIff`: `coverB` holds iff `CoverWitnesses` holds, for every `θ` the input presents (its
  outcomes, pomsets and policy by `Presents`, its source results and coverage relation by
  `PresentsSrc`): sound and complete;
- `safeCoverWitnesses`: any safe execution set already supplies the coverage witnesses, so an input
  whose coverage fails has no safe execution set;
- `answerExact`: the checker's three-way answer is the declarative one: `Invalid` iff the coverage
  witnesses fail, `Accepted` iff a safe execution set exists (then `W†` with the checker's set is the
  maximal safe pair), `Reject` iff the witnesses hold and no safe execution set exists;
- `lemma4OnInput`, `lemma8OnInput`: Lemma 4 and Lemma 8 for every presented `θ`, unless the decided
  coverage is false;
- `presentsSrcOf`: every input whose source IDs are distinct presents a declarative instance. -/
namespace AgentWarrant.Edits
namespace Cover
open AgentWarrant

theorem orNotElim : ∀ {b c : Bool}, (!b || c) = true → b = true → c = true
  | true, true, _, _ => rfl
  | true, false, h, _ => Bool.noConfusion h
  | false, _, _, hb => Bool.noConfusion hb

theorem orNotIntro : ∀ {b c : Bool}, (b = true → c = true) → (!b || c) = true
  | true, true, _ => rfl
  | true, false, h => h rfl
  | false, _, _ => rfl

theorem stillReqIff (s : Src) : stillReq s = true ↔ s.satisfied = false ∧ s.removed = false := by
  cases h1 : s.satisfied <;> cases h2 : s.removed <;> simp [stillReq, h1, h2]

theorem boolFalseOfNot : ∀ {b : Bool}, ¬ b = true → b = false
  | false, _ => rfl
  | true, h => absurd rfl h

theorem nonEmptyLins {p : Pomset} (h : (match linsOf p with
    | [] => false
    | _ :: _ => true) = true) : ∃ w, Lin p w := by
  cases hw : linsOf p with
  | nil => rw [hw] at h; exact Bool.noConfusion h
  | cons w ws => exact ⟨w, (linsOfIff p w).1 (by rw [hw]; exact Mem.head _)⟩

theorem nonEmptyOfLin {p : Pomset} {w : List Nat} (hw : Lin p w) : (match linsOf p with
    | [] => false
    | _ :: _ => true) = true := by
  have hm := (linsOfIff p w).2 hw
  cases hl : linsOf p with
  | nil => rw [hl] at hm; exact absurd hm notMemNil
  | cons _ _ => rfl

section
variable {θ : Theta} {pi : PInst} {src : List Src} (h : Presents θ pi) (hs : PresentsSrc θ src)

/-- A target ID `complete` finds is an outcome of `θ` with a linearization. -/
theorem completeSound {t : Nat} (hc : complete pi t = true) : θ.O t ∧ ∃ w, Lin (θ.pom t) w := by
  have ⟨o, ho, hp⟩ := anyBElim hc
  have ⟨hid, hl⟩ := andTrue hp
  have e : o.id = t := Nat.eqOfBeqEqTrue hid
  have ⟨w, hw⟩ := nonEmptyLins hl
  refine ⟨(h.outs t).2 ⟨o, ho, e⟩, w, ?_⟩
  rw [← e, h.pom o ho]
  exact hw

/-- Every outcome of `θ` with a linearization is found `complete`. -/
theorem completeOf {t : Nat} (ht : θ.O t) {w : List Nat} (hw : Lin (θ.pom t) w) : complete pi t = true := by
  have ⟨o, ho, e⟩ := (h.outs t).1 ht
  apply anyBIntro ho
  have hw' : Lin o.pom w := by rw [← h.pom o ho, e]; exact hw
  rw [e, beqSelf t]
  exact nonEmptyOfLin hw'

/-- Soundness: the decided coverage gives Lemma 2's coverage witnesses. -/
theorem coverBSound (hb : coverB pi src = true) : θ.CoverWitnesses := by
  intro a ⟨hreq, hnsat, hnrem⟩
  have ⟨s, hsm, e⟩ := (hs.req a).1 hreq
  rw [← e] at hnsat hnrem
  have h1 : s.satisfied = false := boolFalseOfNot (fun hh => hnsat ((hs.sat s hsm).2 hh))
  have h2 : s.removed = false := boolFalseOfNot (fun hh => hnrem ((hs.rem s hsm).2 hh))
  have hany := orNotElim (allBElim hb s hsm) ((stillReqIff s).2 ⟨h1, h2⟩)
  have ⟨t, htm, hc⟩ := anyBElim hany
  have ⟨hO, w, hw⟩ := completeSound h hc
  refine ⟨t, hO, ?_, w, hw⟩
  rw [← e]
  exact (hs.cov s hsm t).2 htm

/-- Completeness: Lemma 2's coverage witnesses make the decided coverage true. -/
theorem coverBComplete (hw : θ.CoverWitnesses) : coverB pi src = true := by
  apply allBIntro
  intro s hsm
  apply orNotIntro
  intro hst
  have ⟨h1, h2⟩ := (stillReqIff s).1 hst
  have hreq : θ.requiredBefore s.id := (hs.req s.id).2 ⟨s, hsm, rfl⟩
  have hnsat : ¬ θ.satisfied s.id := fun hh => by
    have := (hs.sat s hsm).1 hh; rw [h1] at this; exact Bool.noConfusion this
  have hnrem : ¬ θ.authorizedRemoval s.id := fun hh => by
    have := (hs.rem s hsm).1 hh; rw [h2] at this; exact Bool.noConfusion this
  have ⟨t, hO, hcov, w, hlin⟩ := hw s.id ⟨hreq, hnsat, hnrem⟩
  exact anyBIntro ((hs.cov s hsm t).1 hcov) (completeOf h hO hlin)

theorem coverBIff : coverB pi src = true ↔ θ.CoverWitnesses :=
  ⟨coverBSound h hs, coverBComplete h hs⟩

end

/-- A safe execution set supplies the coverage witnesses itself (its complete part preserves every
still-required result, and lies in the workflow). -/
theorem safeCoverWitnesses {θ : Theta} {L : Word → Prop} {B : CandP → Prop} (hS : θ.Safe L B) :
    θ.CoverWitnesses := by
  intro a ha
  have ⟨t, y, hB, hc⟩ := hS.preserves a ha
  have ⟨hO, w, hw, _⟩ := hS.inWorkflow t y hB
  exact ⟨t, hO, hc, w, hw⟩

section
variable {θ : Theta} {pi : PInst} {src : List Src} (h : Presents θ pi) (hs : PresentsSrc θ src)

/-- The checker's three-way answer is the declarative one, with no hypothesis beyond the meaning of
the input: `Invalid` exactly when the coverage witnesses fail; `Accepted` exactly when a safe
execution set exists, and then `W†` with the checker's set is the maximal safe pair; `Reject`
exactly when the witnesses hold and no safe execution set exists. -/
theorem answerExact :
    (answer pi src = Answer.invalidDropped ↔ ¬ θ.CoverWitnesses) ∧
    (answer pi src = Answer.accepted ↔ ∃ L B, θ.Safe L B) ∧
    (answer pi src = Answer.rejected ↔ θ.CoverWitnesses ∧ ¬ ∃ L B, θ.Safe L B) ∧
    (answer pi src = Answer.accepted → θ.MaxSafe θ.Wdag (fun c => c ∈ safeSet (build pi))) := by
  have hiff := coverBIff h hs
  cases hb : coverB pi src with
  | false =>
    have hn : ¬ θ.CoverWitnesses := fun hw => by rw [hiff.2 hw] at hb; exact Bool.noConfusion hb
    have hns : ¬ ∃ L B, θ.Safe L B := fun ⟨L, B, hS⟩ => hn (safeCoverWitnesses hS)
    have ha : answer pi src = Answer.invalidDropped := by simp [answer, hb]
    rw [ha]
    refine ⟨⟨fun _ => hn, fun _ => rfl⟩, ⟨fun e => Answer.noConfusion e, fun hh => absurd hh hns⟩,
      ⟨fun e => Answer.noConfusion e, fun hh => absurd hh.1 hn⟩, fun e => Answer.noConfusion e⟩
  | true =>
    have hw := hiff.1 hb
    have ⟨hacc, hmax⟩ := checkerExactFromInput h hw
    cases hc : accepts (build pi) with
    | true =>
      have ha : answer pi src = Answer.accepted := by simp [answer, hb, hc]
      rw [ha]
      refine ⟨⟨fun e => Answer.noConfusion e, fun hh => absurd hw hh⟩, ⟨fun _ => hacc.1 hc, fun _ => rfl⟩,
        ⟨fun e => Answer.noConfusion e, fun hh => absurd (hacc.1 hc) hh.2⟩, fun _ => hmax hc⟩
    | false =>
      have ha : answer pi src = Answer.rejected := by simp [answer, hb, hc]
      rw [ha]
      have hns : ¬ ∃ L B, θ.Safe L B := fun hh => by rw [hacc.2 hh] at hc; exact Bool.noConfusion hc
      refine ⟨⟨fun e => Answer.noConfusion e, fun hh => absurd hw hh⟩,
        ⟨fun e => Answer.noConfusion e, fun hh => absurd hh hns⟩, ⟨fun _ => ⟨hw, hns⟩, fun _ => rfl⟩,
        fun e => Answer.noConfusion e⟩

/-- Lemma 4 on the checker's input: unless the decided coverage is false (and then no coverage
witnesses exist), a safe execution set exists iff `SafeEdit(Θ)`, `(W†, B̂†)` is then safe, and it
contains every safe execution set. Truncation closure is proved from the automaton. -/
theorem lemma4OnInput :
    (coverB pi src = false ∧ ¬ θ.CoverWitnesses) ∨
    (((∃ L B, θ.Safe L B) ↔ θ.SafeEdit) ∧ (θ.SafeEdit → θ.Safe θ.Wdag θ.Bdag) ∧
      ∀ L B, θ.Safe L B → (∀ c, B c → θ.Bdag c) ∧ (∀ z, L z → θ.Wdag z)) := by
  have hiff := coverBIff h hs
  cases hb : coverB pi src with
  | false => exact Or.inl ⟨rfl, fun hw => by rw [hiff.2 hw] at hb; exact Bool.noConfusion hb⟩
  | true => exact Or.inr (Theta.lemma4 (presentsPrefixClosed h) (hiff.1 hb))

/-- Lemma 8 on the checker's input: unless the decided coverage is false, `MaxSafe` holds for some
pair iff `B̂† ≠ ∅`, and such a pair is unique and equals `(W†, B̂†)`. -/
theorem lemma8OnInput :
    (coverB pi src = false ∧ ¬ θ.CoverWitnesses) ∨
    (((∃ L B, θ.MaxSafe L B) ↔ θ.SafeEdit) ∧
      ∀ L B, θ.MaxSafe L B → (∀ z, L z ↔ θ.Wdag z) ∧ (∀ c, B c ↔ θ.Bdag c)) := by
  have hiff := coverBIff h hs
  cases hb : coverB pi src with
  | false => exact Or.inl ⟨rfl, fun hw => by rw [hiff.2 hw] at hb; exact Bool.noConfusion hb⟩
  | true => exact Or.inr (Theta.lemma8 (presentsPrefixClosed h) (hiff.1 hb))

end

-- The theorems are never vacuous --------------------------------------------------------------------

theorem findMem : ∀ {l : List Src} {s : Src}, s ∈ l → Nodup (List.map Src.id l) → find l s.id = some s
  | [], _, hm, _ => absurd hm notMemNil
  | s' :: l, s, hm, ⟨hn, hnd⟩ => by
    cases hb : Nat.beq s'.id s.id with
    | true =>
      simp [find, hb]
      cases hm with
      | head _ => rfl
      | tail _ h' =>
        have e : s'.id = s.id := Nat.eqOfBeqEqTrue hb
        exact absurd (by rw [e]; exact mapMem (f := Src.id) h') hn
    | false =>
      simp [find, hb]
      cases hm with
      | head _ => exact absurd rfl (beqFalseNe hb)
      | tail _ h' => exact findMem h' hnd

/-- Every input whose outcome IDs and source IDs are distinct (the oracle's are `0, 1, …`) presents a
declarative instance with its source results. -/
theorem presentsSrcOf (pi : PInst) (src : List Src) (hid : Nodup (List.map POutcome.id pi.outs))
    (hsid : Nodup (List.map Src.id src)) :
    Presents (thetaOf pi src) pi ∧ PresentsSrc (thetaOf pi src) src := by
  refine ⟨presentsThetaOf pi hid _ _ _ _, fun _ => Iff.rfl, fun s hs => ?_, fun s hs => ?_, fun s hs t => ?_⟩
  · have hf := findMem hs hsid
    show (∃ s', find src s.id = some s' ∧ s'.satisfied = true) ↔ s.satisfied = true
    rw [hf]
    exact ⟨fun ⟨s', e, hh⟩ => by rw [Option.some.inj e]; exact hh, fun hh => ⟨s, rfl, hh⟩⟩
  · have hf := findMem hs hsid
    show (∃ s', find src s.id = some s' ∧ s'.removed = true) ↔ s.removed = true
    rw [hf]
    exact ⟨fun ⟨s', e, hh⟩ => by rw [Option.some.inj e]; exact hh, fun hh => ⟨s, rfl, hh⟩⟩
  · have hf := findMem hs hsid
    show (∃ s', find src s.id = some s' ∧ t ∈ s'.covers) ↔ t ∈ s.covers
    rw [hf]
    exact ⟨fun ⟨s', e, hh⟩ => by rw [Option.some.inj e]; exact hh, fun hh => ⟨s, rfl, hh⟩⟩

end Cover
end AgentWarrant.Edits
