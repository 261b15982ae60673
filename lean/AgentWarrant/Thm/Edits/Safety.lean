import AgentWarrant.Spec.Edits.Safety
/-! Lemma 4 and Lemma 8 of *When Can Agents Safely Checkpoint, Fork, Restore, and Merge?* (Section V-C1, Appendix A-A) for the
declarative Definition 2 of `Spec/Edits/Safety.lean`: a safe execution set exists iff
`SafeEdit(Θ)`; then `(W†, B̂†)` is safe and contains every safe execution set; `MaxSafe` holds for
some pair iff `SafeEdit(Θ)`, and that pair is unique and equals `(W†, B̂†)`.
Hypotheses, both the paper's: the policy is closed under truncation, and the derivation's checked
coverage witnesses (every still-required source result is covered by a complete target outcome). -/
namespace AgentWarrant.Edits
open AgentWarrant

theorem authAppend : ∀ (z t : Word), auth (z ++ t) = auth z ++ auth t
  | [], t => rfl
  | l :: z, t => by
    cases h : l.new with
    | true => simp [auth, h, authAppend z t]
    | false => simp [auth, h, authAppend z t]

theorem labelsAppend (lab : List Nat) : ∀ (u v : List Nat), labels lab (u ++ v) = labels lab u ++ labels lab v
  | [], v => rfl
  | d :: u, v => by simp [labels, labelsAppend lab u v]

namespace Theta
variable {θ : Theta}

/-- Truncation closure carries the policy condition from a word to its prefixes. -/
theorem allowedPrefix (hA : θ.PrefixClosed) {z y : Word} (hz : IsPrefix z y) (hy : θ.Allowed y) :
    θ.Allowed z := by
  have ⟨t, ht⟩ := hz
  rw [ht] at hy
  apply hA _ (labels θ.lab (auth t))
  have e : labels θ.lab θ.log ++ labels θ.lab (auth (z ++ t)) =
      (labels θ.lab θ.log ++ labels θ.lab (auth z)) ++ labels θ.lab (auth t) := by
    rw [authAppend, labelsAppend, List.append_assoc]
  rw [← e]; exact hy

theorem keepMono {S T : CandP → Prop} (h : ∀ c, S c → T c) {c : CandP} (hk : θ.Keep S c) : θ.Keep T c :=
  fun z o hz ho => have ⟨y, hy, hp⟩ := hk z o hz ho; ⟨y, h _ hy, hp⟩

theorem bdagSub {c : CandP} (h : θ.Bdag c) : θ.B0 c :=
  have ⟨_, hS, _, hc⟩ := h; hS c hc

/-- `B̂†` is post-fixed. -/
theorem bdagPostFixed : θ.PostFixed θ.Bdag := by
  intro c ⟨S, hS, hP, hc⟩
  exact keepMono (fun d hd => ⟨S, hS, hP, hd⟩) (hP c hc)

/-- Every post-fixed subset of `B̂₀` lies in `B̂†`. -/
theorem bdagGreatest {S : CandP → Prop} (hS : ∀ d, S d → θ.B0 d) (hP : θ.PostFixed S) :
    ∀ c, S c → θ.Bdag c :=
  fun c hc => ⟨S, hS, hP, hc⟩

/-- Knaster–Tarski: `B̂† = Φ̂(B̂†)`, and it is the greatest fixed point of `Φ̂` in `2^{B̂₀}`. -/
theorem bdagFixed :
    (∀ c, θ.Phi θ.Bdag c ↔ θ.Bdag c) ∧ (∀ c, θ.Bdag c → θ.B0 c) ∧
    ∀ S : CandP → Prop, (∀ d, S d → θ.B0 d) → (∀ c, θ.Phi S c ↔ S c) → ∀ c, S c → θ.Bdag c := by
  refine ⟨fun c => ⟨fun h => h.1, fun h => ⟨h, bdagPostFixed c h⟩⟩, fun c h => bdagSub h, ?_⟩
  intro S hS hfix
  exact bdagGreatest hS (fun c hc => ((hfix c).2 hc).2)

/-- Every safe execution set lies inside `(W†, B̂†)`. -/
theorem safeInside {L : Word → Prop} {B : CandP → Prop} (h : θ.Safe L B) :
    (∀ c, B c → θ.Bdag c) ∧ (∀ z, L z → θ.Wdag z) := by
  have hB0 : ∀ d, B d → θ.B0 d := by
    intro ⟨o, y⟩ hd
    have ⟨hO, hR⟩ := h.inWorkflow o y hd
    have hL : L y := (h.generated y).2 ⟨o, y, hd, prefixRefl y⟩
    exact ⟨hO, hR, h.policy y hL⟩
  have hP : θ.PostFixed B := by
    intro ⟨o, y⟩ hd z o' hz ho'
    exact h.completable z o' ((h.generated z).2 ⟨o, y, hd, hz⟩) ho'
  have hB := bdagGreatest hB0 hP
  refine ⟨hB, ?_⟩
  intro z hz
  have ⟨o, y, hd, hp⟩ := (h.generated z).1 hz
  exact ⟨o, y, hB _ hd, hp⟩

/-- A nonempty `B̂†` with `W†` is a safe execution set. -/
theorem bdagSafe (hA : θ.PrefixClosed) (hcov : θ.CoverWitnesses) (hne : θ.SafeEdit) :
    θ.Safe θ.Wdag θ.Bdag := by
  constructor
  · exact hne
  · intro a ha
    have ⟨t, hO, hc, w, hw⟩ := hcov a ha
    have ⟨c, hc0⟩ := hne
    have hcompat : θ.Compat [] t := ⟨hO, resolve θ.act θ.log w, ⟨w, hw, rfl⟩, prefixNil _⟩
    have ⟨y, hy, _⟩ := bdagPostFixed c hc0 [] t (prefixNil _) hcompat
    exact ⟨t, y, hy, hc⟩
  · intro o y h
    have ⟨hO, hM⟩ := bdagSub h
    exact ⟨hO, hM.1⟩
  · intro z ⟨o, y, h, hp⟩
    have ⟨hO, hM⟩ := bdagSub h
    exact ⟨o, y, hO, hM.1, hp⟩
  · intro z ⟨o, y, h, hp⟩
    exact allowedPrefix hA hp (bdagSub h).2.2
  · intro z; exact Iff.rfl
  · intro z o ⟨o', y, h, hp⟩ ho
    exact bdagPostFixed (o', y) h z o hp ho

/-- Lemma 4: a safe execution set exists iff `SafeEdit(Θ)`; when the edit is safe, `(W†, B̂†)` is
a safe execution set, and every safe execution set `(L, B̂)` has `B̂ ⊆ B̂†` and `L ⊆ W†`. -/
theorem lemma4 (hA : θ.PrefixClosed) (hcov : θ.CoverWitnesses) :
    ((∃ L B, θ.Safe L B) ↔ θ.SafeEdit) ∧ (θ.SafeEdit → θ.Safe θ.Wdag θ.Bdag) ∧
    ∀ L B, θ.Safe L B → (∀ c, B c → θ.Bdag c) ∧ (∀ z, L z → θ.Wdag z) := by
  refine ⟨⟨?_, fun h => ⟨_, _, bdagSafe hA hcov h⟩⟩, bdagSafe hA hcov, fun L B h => safeInside h⟩
  intro ⟨L, B, h⟩
  have ⟨c, hc⟩ := h.nonempty
  exact ⟨c, (safeInside h).1 c hc⟩

/-- Lemma 8 (Appendix A-A): `MaxSafe(Θ; L, B̂)` holds for some pair iff `B̂† ≠ ∅`, and such a pair
is unique and equals `(W†, B̂†)`. -/
theorem lemma8 (hA : θ.PrefixClosed) (hcov : θ.CoverWitnesses) :
    ((∃ L B, θ.MaxSafe L B) ↔ θ.SafeEdit) ∧
    ∀ L B, θ.MaxSafe L B → (∀ z, L z ↔ θ.Wdag z) ∧ (∀ c, B c ↔ θ.Bdag c) := by
  have hdir : ∀ L B, θ.MaxSafe L B → (∀ z, L z ↔ θ.Wdag z) ∧ (∀ c, B c ↔ θ.Bdag c) := by
    intro L B ⟨hs, hmax⟩
    have ⟨hB, hL⟩ := safeInside hs
    have hne : θ.SafeEdit := (lemma4 hA hcov).1.1 ⟨L, B, hs⟩
    have ⟨hL', hB'⟩ := hmax _ _ (bdagSafe hA hcov hne)
    exact ⟨fun z => ⟨hL z, hL' z⟩, fun c => ⟨hB c, hB' c⟩⟩
  refine ⟨⟨?_, ?_⟩, hdir⟩
  · intro ⟨L, B, h⟩
    exact (lemma4 hA hcov).1.1 ⟨L, B, h.1⟩
  · intro hne
    exact ⟨_, _, bdagSafe hA hcov hne, fun L' B' h' => ⟨(safeInside h').2, (safeInside h').1⟩⟩

end Theta
end AgentWarrant.Edits
