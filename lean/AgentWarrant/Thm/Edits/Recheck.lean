import AgentWarrant.Thm.Edits.Safety
/-! The recheck lemma (*When Can Agents Safely Checkpoint, Fork, Restore, and Merge?*, Section V-C4, Appendix A-D3) in quotient form.

The safety notions depend on an instance only through its candidate space: the outcomes `O`, the
resolved linearizations `R_o` and the policy condition. `Space` is that triple, with `Compat`, `B̂₀`,
`Φ̂`'s test and `B̂†` defined exactly as for `Theta` (`thetaBdagIff` shows they agree). After a
permitted partial execution `z ∈ W†`, the space *after `z`* has the outcomes still compatible with
`z`, the words `y` with `z·y ∈ R_o`, and the policy condition on `z·y`; the lemma is
`B̂†(after z) = B̂†/z` (and so `W†(after z) = W†/z`).
That the space after `z` is the space of the residual contract `𝒞/raw(z)` with the log `Δ_z` is
proved in `Thm/Edits/RecheckContract.lean` (`recheckContract`): its policy half is `allowedAfter`
below (`lab(Δ_z) = lab(Δ)·lab(auth z)`), its workflow half (`Lin(p_o/raw z)` resolved under `Δ_z`
is the set of continuations) follows from `resolveAppend` and the residual pomset's
linearizations. -/
namespace AgentWarrant.Edits
open AgentWarrant

structure Space where
  O : Nat → Prop
  R : Nat → Word → Prop
  Allowed : Word → Prop

namespace Space
variable (sp : Space)

def Compat (z : Word) (o : Nat) : Prop := sp.O o ∧ ∃ y, sp.R o y ∧ IsPrefix z y
def B0 (c : CandP) : Prop := sp.O c.1 ∧ sp.R c.1 c.2 ∧ sp.Allowed c.2
def Keep (B : CandP → Prop) (c : CandP) : Prop :=
  ∀ z o, IsPrefix z c.2 → sp.Compat z o → ∃ y, B (o, y) ∧ IsPrefix z y
def Bdag (c : CandP) : Prop := ∃ S : CandP → Prop, (∀ d, S d → sp.B0 d) ∧ (∀ d, S d → sp.Keep S d) ∧ S c
def Wdag (z : Word) : Prop := ∃ o y, sp.Bdag (o, y) ∧ IsPrefix z y

/-- The space after the partial execution `z`. -/
def after (z : Word) : Space := ⟨fun o => sp.Compat z o, fun o y => sp.R o (z ++ y), fun y => sp.Allowed (z ++ y)⟩

end Space

def Theta.space (θ : Theta) : Space := ⟨θ.O, θ.R, θ.Allowed⟩

theorem thetaBdagIff (θ : Theta) (c : CandP) : θ.Bdag c ↔ θ.space.Bdag c := Iff.rfl

/-- The policy half of the residual: checking `y` against `Δ_z = Δ·auth(z)` is checking `z·y`
against `Δ`. -/
theorem allowedAfter (θ : Theta) (z y : Word) :
    θ.A (labels θ.lab (θ.log ++ auth z) ++ labels θ.lab (auth y)) ↔ θ.Allowed (z ++ y) := by
  have e : labels θ.lab (θ.log ++ auth z) ++ labels θ.lab (auth y) =
      labels θ.lab θ.log ++ labels θ.lab (auth (z ++ y)) := by
    rw [labelsAppend, authAppend, labelsAppend, List.append_assoc]
  rw [e]; exact Iff.rfl

theorem prefixAppendCases : ∀ (z : Word) {w y : Word}, IsPrefix w (z ++ y) →
    IsPrefix w z ∨ ∃ v, w = z ++ v ∧ IsPrefix v y
  | [], w, y, h => Or.inr ⟨w, rfl, h⟩
  | a :: z, [], y, _ => Or.inl (prefixNil _)
  | a :: z, b :: w, y, ⟨t, ht⟩ => by
    rw [List.cons_append, List.cons_append] at ht
    have ⟨e1, e2⟩ := List.cons.inj ht
    cases prefixAppendCases z ⟨t, e2⟩ with
    | inl h => have ⟨s, hs⟩ := h; exact Or.inl ⟨s, by rw [e1, hs, List.cons_append]⟩
    | inr h => have ⟨v, hv, hp⟩ := h; exact Or.inr ⟨v, by rw [e1, hv, List.cons_append], hp⟩

namespace Space
variable {sp : Space}

theorem keepMono {S T : CandP → Prop} (h : ∀ c, S c → T c) {c : CandP} (hk : sp.Keep S c) : sp.Keep T c :=
  fun z o hz ho => have ⟨y, hy, hp⟩ := hk z o hz ho; ⟨y, h _ hy, hp⟩

theorem bdagKeep {c : CandP} (h : sp.Bdag c) : sp.Keep sp.Bdag c :=
  have ⟨S, hS, hP, hc⟩ := h
  keepMono (fun d hd => ⟨S, hS, hP, hd⟩) (hP c hc)

theorem compatAfter {z v : Word} {o : Nat} (h : sp.Compat (z ++ v) o) : (sp.after z).Compat v o := by
  have ⟨hO, y, hy, ⟨t, ht⟩⟩ := h
  rw [List.append_assoc] at ht
  rw [ht] at hy
  exact ⟨⟨hO, z ++ (v ++ t), hy, ⟨v ++ t, rfl⟩⟩, v ++ t, hy, ⟨t, rfl⟩⟩

theorem compatBefore {z v : Word} {o : Nat} (h : (sp.after z).Compat v o) : sp.Compat (z ++ v) o := by
  have ⟨⟨hO, _⟩, y, hy, ⟨t, ht⟩⟩ := h
  exact ⟨hO, z ++ y, hy, ⟨t, by rw [ht, List.append_assoc]⟩⟩

/-- The recheck lemma, quotient form: after `z ∈ W†`, `B̂†(after z) = B̂†/z` and `W†(after z) = W†/z`. -/
theorem recheck (z : Word) (hz : sp.Wdag z) :
    (∀ o y, (sp.after z).Bdag (o, y) ↔ sp.Bdag (o, z ++ y)) ∧
    (∀ v, (sp.after z).Wdag v ↔ sp.Wdag (z ++ v)) := by
  have hB : ∀ o y, (sp.after z).Bdag (o, y) ↔ sp.Bdag (o, z ++ y) := by
    intro o y
    constructor
    · intro hb
      -- the family B̂† together with z·(B̂† after z) is post-fixed below B̂₀
      let S : CandP → Prop := fun c => sp.Bdag c ∨ ∃ y', c.2 = z ++ y' ∧ (sp.after z).Bdag (c.1, y')
      have hS0 : ∀ d, S d → sp.B0 d := by
        intro ⟨o', w⟩ hd
        cases hd with
        | inl h => have ⟨T, hT, _, hd⟩ := h; exact hT _ hd
        | inr h =>
          have ⟨y', e, h'⟩ := h
          have ⟨T, hT, _, hd⟩ := h'
          have ⟨⟨hO, _⟩, hR, hA⟩ := hT _ hd
          simp at e
          rw [e]; exact ⟨hO, hR, hA⟩
      have hP : ∀ d, S d → sp.Keep S d := by
        intro ⟨o', w⟩ hd w' o'' hw ho
        cases hd with
        | inl h =>
          have ⟨y'', hy, hp⟩ := bdagKeep h w' o'' hw ho
          exact ⟨y'', Or.inl hy, hp⟩
        | inr h =>
          have ⟨y', e, h'⟩ := h
          simp at e
          rw [e] at hw
          cases prefixAppendCases z hw with
          | inl hwz =>
            have ⟨o0, y0, h0, hp0⟩ := hz
            have ⟨y'', hy, hp⟩ := bdagKeep h0 w' o'' (prefixTrans hwz hp0) ho
            exact ⟨y'', Or.inl hy, hp⟩
          | inr hv =>
            have ⟨v, ev, hvp⟩ := hv
            rw [ev] at ho
            have ⟨y'', hy, ⟨t, ht⟩⟩ := bdagKeep h' v o'' hvp (compatAfter ho)
            refine ⟨z ++ y'', Or.inr ⟨y'', rfl, hy⟩, ⟨t, ?_⟩⟩
            rw [ev, ht, List.append_assoc]
      exact ⟨S, hS0, hP, Or.inr ⟨y, rfl, hb⟩⟩
    · intro hb
      let S : CandP → Prop := fun c => sp.Bdag (c.1, z ++ c.2)
      have hS0 : ∀ d, S d → (sp.after z).B0 d := by
        intro ⟨o', w⟩ hd
        have ⟨T, hT, _, hd'⟩ := hd
        have ⟨hO, hR, hA⟩ := hT _ hd'
        exact ⟨⟨hO, z ++ w, hR, ⟨w, rfl⟩⟩, hR, hA⟩
      have hP : ∀ d, S d → (sp.after z).Keep S d := by
        intro ⟨o', w⟩ hd v o'' hv ho
        have ⟨t, ht⟩ := hv
        have ht' : w = v ++ t := ht
        have hzv : IsPrefix (z ++ v) (z ++ w) := ⟨t, by rw [ht', List.append_assoc]⟩
        have ⟨y'', hy, ⟨s, hs⟩⟩ := bdagKeep hd (z ++ v) o'' hzv (compatBefore ho)
        refine ⟨v ++ s, ?_, ⟨s, rfl⟩⟩
        show sp.Bdag (o'', z ++ (v ++ s))
        rw [← List.append_assoc, ← hs]; exact hy
      exact ⟨S, hS0, hP, hb⟩
  refine ⟨hB, fun v => ⟨?_, ?_⟩⟩
  · intro ⟨o, y, hb, ⟨t, ht⟩⟩
    exact ⟨o, z ++ y, (hB o y).1 hb, ⟨t, by rw [ht, List.append_assoc]⟩⟩
  · intro ⟨o, y, hb, ⟨t, ht⟩⟩
    rw [List.append_assoc] at ht
    rw [ht] at hb
    exact ⟨o, v ++ t, (hB o (v ++ t)).2 hb, ⟨t, rfl⟩⟩

end Space
end AgentWarrant.Edits
