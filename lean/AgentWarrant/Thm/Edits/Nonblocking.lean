import AgentWarrant.Spec.Edits.Nonblocking
/-! Proposition 1 (*When Can Agents Safely Checkpoint, Fork, Restore, and Merge?*, Section V-C2): `B̂ ⊆ Φ̂(B̂)` iff for every outcome `o`,
`𝒯_B̂` is `(possible_o, done_o)`-nonblocking. -/
namespace AgentWarrant.Edits
open AgentWarrant

theorem downPrefix {B : CandP → Prop} {v w : Word} (h : Down B w) (hv : IsPrefix v w) : Down B v :=
  have ⟨o, y, hy, hp⟩ := h; ⟨o, y, hy, prefixTrans hv hp⟩

/-- Reachability in `𝒯_B̂` is the prefix order on its states. -/
theorem reachPrefix {B : CandP → Prop} {z z' : Word} (h : ReachFrom B z z') : IsPrefix z z' := by
  induction h with
  | refl z => exact prefixRefl z
  | step a _ _ ih => exact prefixTrans ⟨[a], rfl⟩ ih

theorem reachOfPrefix {B : CandP → Prop} : ∀ (t z : Word), Down B (z ++ t) → ReachFrom B z (z ++ t)
  | [], z, _ => by rw [List.append_nil]; exact ReachFrom.refl z
  | a :: t, z, h => by
    have e : z ++ a :: t = (z ++ [a]) ++ t := by rw [List.append_assoc]; rfl
    rw [e] at h ⊢
    exact ReachFrom.step a (downPrefix h ⟨t, rfl⟩) (reachOfPrefix t (z ++ [a]) h)

theorem reachableIff {B : CandP → Prop} (z : Word) : Reachable B z ↔ Down B z := by
  refine ⟨fun h => h.1, fun h => ⟨h, ?_⟩⟩
  have e : z = [] ++ z := rfl
  rw [e] at h ⊢
  exact reachOfPrefix z [] h

/-- Proposition 1: post-fixed iff marker nonblocking for every outcome. -/
theorem prop1 (θ : Theta) (B : CandP → Prop) :
    θ.PostFixed B ↔ ∀ o, Nonblocking B (fun z => θ.Compat z o) (fun z => B (o, z)) := by
  constructor
  · intro hP o z hz ho
    have ⟨o', y, hy, hp⟩ := hz.1
    have ⟨y', hy', hp'⟩ := hP (o', y) hy z o hp ho
    have ⟨t, ht⟩ := hp'
    have hr : ReachFrom B z (z ++ t) := reachOfPrefix t z (by rw [← ht]; exact ⟨o, y', hy', prefixRefl _⟩)
    rw [← ht] at hr
    exact ⟨y', hr, hy'⟩
  · intro hN ⟨o', y⟩ hc z o hz ho
    have hd : Down B z := ⟨o', y, hc, hz⟩
    have ⟨z', hr, hdone⟩ := hN o z ((reachableIff z).2 hd) ho
    exact ⟨z', hdone, reachPrefix hr⟩

end AgentWarrant.Edits

namespace AgentWarrant.Edits
open AgentWarrant

/-- The automaton lemma for the prefix-tree automaton `𝒯_{B̂†}`: its generated language (reachable
states) is `W†` and its marked language (states marked `done_o` for some `o`) is `π₂ B̂†`. The paper's
minimal `Can(W†, B̂†)`, the quotient of this tree by residuals, is in `Thm/Edits/Canonical.lean`. -/
theorem prefixTreeLanguages (θ : Theta) :
    (∀ z, Reachable θ.Bdag z ↔ θ.Wdag z) ∧
    (∀ z, (Reachable θ.Bdag z ∧ ∃ o, θ.Bdag (o, z)) ↔ ∃ o, θ.Bdag (o, z)) := by
  refine ⟨fun z => reachableIff z, fun z => ⟨fun h => h.2, fun ⟨o, h⟩ => ⟨(reachableIff z).2 ⟨o, z, h, prefixRefl z⟩, o, h⟩⟩⟩

end AgentWarrant.Edits
