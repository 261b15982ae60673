import AgentWarrant.Spec.Edits.Verify
import AgentWarrant.Thm.Edits.Bridge
/-! Soundness of the rejection-proof verifier (*When Can Agents Safely Checkpoint, Fork, Restore, and Merge?*, Appendix A-B): "induction
places every post-fixed family inside every `B̂_i`, so an empty final family excludes every
nonempty safe execution set". If the verifier accepts a proof, the checker rejects and, for the
declarative instance it presents, no safe execution set exists. -/
namespace AgentWarrant.Edits
open AgentWarrant

theorem andBElim {a b : Bool} (h : andB a b = true) : a = true ∧ b = true := by
  cases a with
  | true => exact ⟨rfl, h⟩
  | false => exact Bool.noConfusion h

theorem isNilElim {l : List α} (h : isNil l = true) : l = [] := by
  cases l with
  | nil => rfl
  | cons _ _ => exact Bool.noConfusion h

theorem memCElim {c : Cand} {B : List Cand} (h : memC c B = true) : c ∈ B := by
  have ⟨d, hd, e⟩ := anyBElim h
  rw [← ofDecideEqTrue e]; exact hd

theorem memCIntro {c : Cand} {B : List Cand} (h : c ∈ B) : memC c B = true :=
  anyBIntro h (decideEqTrue rfl)

/-- A family closed under the checker's support condition (the list form of post-fixed). -/
def ClosedP (i : Inst) (S : Cand → Prop) : Prop :=
  ∀ c z o, S c → IsPrefix z c.2 → o ∈ compat i z → ∃ c', S c' ∧ c'.1 = o ∧ IsPrefix z c'.2

/-- A removed pair with a valid witness is in no closed family inside `B̂_i`. -/
theorem witnessExcludes {i : Inst} {S : Cand → Prop} (hS : ClosedP i S) {B : List Cand}
    (hSB : ∀ c, S c → c ∈ B) {r : Removal} (hw : witnessOk i B r = true) : ¬ S r.cand := by
  intro hc
  have ⟨_, h2⟩ := andBElim hw
  have ⟨hpre, h3⟩ := andBElim h2
  have ⟨hmiss, hnot⟩ := andBElim h3
  have ⟨o, ho, e⟩ := anyBElim hmiss
  have e' : o = r.miss := Nat.eqOfBeqEqTrue e
  rw [e'] at ho
  have ⟨c', hc', he, hp⟩ := hS r.cand r.pre r.miss hc (isPrefixBSound _ _ hpre) ho
  have hsup := supportsComplete c' (hSB c' hc') he hp
  rw [hsup] at hnot
  exact Bool.noConfusion hnot

/-- Every closed family inside the first family lies inside every later one, so it is empty. -/
theorem roundsSound (i : Inst) {S : Cand → Prop} (hS : ClosedP i S) :
    ∀ (Es : List (List Removal)) (B : List Cand), verifyRounds i B Es = true → (∀ c, S c → c ∈ B) → ∀ c, ¬ S c
  | [], B, hv, hSB, c, hc => by
    have e := isNilElim hv
    have hm := hSB c hc
    rw [e] at hm
    exact notMemNil hm
  | E :: Es, B, hv, hSB, c, hc => by
    have ⟨_, h2⟩ := andBElim hv
    have ⟨hw, h3⟩ := andBElim h2
    have ⟨_, hrest⟩ := andBElim h3
    apply roundsSound i hS Es (rest B E) hrest _ c hc
    intro d hd
    apply filtMem (hSB d hd)
    cases hm : memC d (removedC E) with
    | false => rfl
    | true =>
      have ⟨r, hr, e⟩ := memMap (memCElim hm)
      have hx := witnessExcludes hS hSB (allBElim hw r hr)
      rw [← e] at hx
      exact absurd hd hx

/-- If the verifier accepts a proof, the checker rejects. -/
theorem verifySoundChecker (i : Inst) (fam : List Cand) (Es : List (List Removal))
    (hv : verifyProof i fam Es = true) : accepts i = false := by
  have ⟨_, h2⟩ := andBElim hv
  have ⟨hsub, hr⟩ := andBElim h2
  have ⟨hpf, hb0⟩ := safeSetPostFixed i
  have hS : ClosedP i (fun c => c ∈ safeSet i) := fun c z o hc hz ho =>
    (postFixedIffClosed i (safeSet i)).1 hpf c z o hc hz ho
  have hno := roundsSound i hS Es fam hr (fun c hc => memCElim (allBElim hsub c (hb0 c hc)))
  cases hs : safeSet i with
  | nil => simp [accepts, hs]
  | cons c l => exact absurd (by rw [hs]; exact Mem.head _) (hno c)

/-- Soundness (Appendix A-B): if the verifier accepts a proof for a checker instance presenting
`θ`, no safe execution set exists for `θ`. -/
theorem verifySound {θ : Theta} {i : Inst} (h : Agrees θ i) (fam : List Cand) (Es : List (List Removal))
    (hv : verifyProof i fam Es = true) : ¬ θ.SafeEdit ∧ ¬ ∃ L B, θ.Safe L B := by
  have hrej := verifySoundChecker i fam Es hv
  have hne : ¬ θ.SafeEdit := fun hs => by
    have ha := (acceptsIffSafeEdit h).2 hs
    rw [hrej] at ha
    exact Bool.noConfusion ha
  refine ⟨hne, fun ⟨L, B, hs⟩ => hne ?_⟩
  have ⟨c, hc⟩ := hs.nonempty
  exact ⟨c, (Theta.safeInside hs).1 c hc⟩

end AgentWarrant.Edits
