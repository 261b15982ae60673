import AgentWarrant.Thm.Edits.Safety
import AgentWarrant.Thm.Edits.Nonblocking
import AgentWarrant.Spec.Edits.Check
/-! The strictness example of Proposition 1 (*When Can Agents Safely Checkpoint, Fork, Restore, and Merge?*, Sections III and V-C2):
the contract `X ⊗ (Y ⊕ Z)` under the policy `{ε, x, y, xz, yx}`.

Calls and actions `x, y, z` are 0, 1, 2, each its own label; the log is empty. The target outcomes
are `0 = X⊗Y` (events x, y, unordered) and `1 = X⊗Z` (x, z, unordered), both required. The candidate
family is `{(X⊗Y, ȳx̄), (X⊗Z, x̄z̄)}`; its projection `{ȳx̄, x̄z̄}` is nonblocking as a plain
(result-erased) system, yet the indexed fixed point is empty: no safe execution set exists. -/
namespace AgentWarrant.Edits
open AgentWarrant

def polXYZ : List (List Nat) := [[], [0], [1], [0, 2], [1, 0]]

def pomXYZ : Nat → Pomset
  | 0 => ⟨[0, 1], []⟩
  | _ => ⟨[0, 2], []⟩

def thetaXYZ : Theta where
  O o := o = 0 ∨ o = 1
  pom := pomXYZ
  act := [0, 1, 2]
  lab := [0, 1, 2]
  log := []
  A u := inPolicy polXYZ u = true
  requiredBefore a := a = 0 ∨ a = 1
  satisfied _ := False
  authorizedRemoval _ := False
  covers t a := t = a

def xb : Letter := ⟨0, 0, true⟩
def yb : Letter := ⟨1, 1, true⟩
def zb : Letter := ⟨2, 2, true⟩

theorem mem2 {x a b : Nat} (h : x ∈ [a, b]) : x = a ∨ x = b := by
  cases h with
  | head _ => exact Or.inl rfl
  | tail _ h' => exact Or.inr (memSingle h')

theorem distinct3 {a b c d e : Nat} (hc : c = a ∨ c = b) (hd : d = a ∨ d = b) (he : e = a ∨ e = b)
    (h1 : c ≠ d) (h2 : c ≠ e) (h3 : d ≠ e) : False := by
  cases hc with
  | inl hc => cases hd with
    | inl hd => exact h1 (by rw [hc, hd])
    | inr hd => cases he with
      | inl he => exact h2 (by rw [hc, he])
      | inr he => exact h3 (by rw [hd, he])
  | inr hc => cases hd with
    | inr hd => exact h1 (by rw [hc, hd])
    | inl hd => cases he with
      | inr he => exact h2 (by rw [hc, he])
      | inl he => exact h3 (by rw [hd, he])

theorem neOfNotMem {c d : Nat} {l : List Nat} (h : ¬ c ∈ d :: l) : c ≠ d :=
  fun e => h (by rw [e]; exact Mem.head _)

/-- The linearizations of a two-event antichain. -/
theorem linPair {a b : Nat} (hab : a ≠ b) (w : List Nat) : Lin ⟨[a, b], []⟩ w → w = [a, b] ∨ w = [b, a] := by
  intro ⟨hnd, hmem, _⟩
  have ha : a ∈ w := (hmem a).2 (Mem.head _)
  have hb : b ∈ w := (hmem b).2 (Mem.tail _ (Mem.head _))
  have hin : ∀ x, x ∈ w → x = a ∨ x = b := fun x hx => mem2 ((hmem x).1 hx)
  match w, hnd, ha, hb, hin with
  | [], _, ha, _, _ => exact absurd ha notMemNil
  | [c], _, ha, hb, _ => exact absurd ((memSingle ha).trans (memSingle hb).symm) hab
  | [c, d], ⟨hcd, _⟩, _, _, hin =>
    have hc := hin c (Mem.head _)
    have hd := hin d (Mem.tail _ (Mem.head _))
    have hne : c ≠ d := fun e => hcd (by rw [e]; exact Mem.head _)
    cases hc with
    | inl hc => cases hd with
      | inl hd => exact absurd (hc.trans hd.symm) hne
      | inr hd => rw [hc, hd]; exact Or.inl rfl
    | inr hc => cases hd with
      | inl hd => rw [hc, hd]; exact Or.inr rfl
      | inr hd => exact absurd (hc.trans hd.symm) hne
  | c :: d :: e :: r, ⟨hc, hd, _⟩, _, _, hin =>
    exact False.elim (distinct3 (hin c (Mem.head _)) (hin d (Mem.tail _ (Mem.head _)))
      (hin e (Mem.tail _ (Mem.tail _ (Mem.head _)))) (neOfNotMem hc)
      (fun e' => hc (by rw [e']; exact Mem.tail _ (Mem.head _))) (neOfNotMem hd))

theorem linPairMem {a b : Nat} (hab : a ≠ b) (w : List Nat) (hw : w = [a, b] ∨ w = [b, a]) :
    Lin ⟨[a, b], []⟩ w := by
  have hnd : ∀ c d : Nat, c ≠ d → Nodup [c, d] := fun c d h =>
    ⟨fun hm => h (memSingle hm), fun hm => absurd hm notMemNil, True.intro⟩
  refine ⟨?_, ?_, fun a' b' h => absurd h notMemNil⟩
  · cases hw with
    | inl e => rw [e]; exact hnd a b hab
    | inr e => rw [e]; exact hnd b a (fun h => hab h.symm)
  · intro x
    cases hw with
    | inl e => rw [e]; exact Iff.rfl
    | inr e =>
      rw [e]
      constructor
      · intro h; cases mem2 h with
        | inl h => rw [h]; exact Mem.tail _ (Mem.head _)
        | inr h => rw [h]; exact Mem.head _
      · intro h; cases mem2 h with
        | inl h => rw [h]; exact Mem.tail _ (Mem.head _)
        | inr h => rw [h]; exact Mem.head _

theorem notAllowed {y : Word} (h : thetaXYZ.Allowed y)
    (e : inPolicy polXYZ (labels [0, 1, 2] [] ++ labels [0, 1, 2] (auth y)) = false) : False := by
  have h' : inPolicy polXYZ (labels [0, 1, 2] [] ++ labels [0, 1, 2] (auth y)) = true := h
  rw [e] at h'
  exact Bool.noConfusion h'

/-- The candidate family `B̂₀` is exactly `{(X⊗Y, ȳx̄), (X⊗Z, x̄z̄)}`. -/
theorem b0XYZ (o : Nat) (y : Word) : thetaXYZ.B0 (o, y) ↔ (o = 0 ∧ y = [yb, xb]) ∨ (o = 1 ∧ y = [xb, zb]) := by
  constructor
  · intro ⟨hO, ⟨w, hw, hy⟩, hall⟩
    cases hO with
    | inl h0 =>
      rw [h0] at hw
      cases linPair (a := 0) (b := 1) (by decide) w hw with
      | inl e => rw [hy, e] at hall; exact False.elim (notAllowed hall rfl)
      | inr e => rw [e] at hy; exact Or.inl ⟨h0, hy⟩
    | inr h1 =>
      rw [h1] at hw
      cases linPair (a := 0) (b := 2) (by decide) w hw with
      | inl e => rw [e] at hy; exact Or.inr ⟨h1, hy⟩
      | inr e => rw [hy, e] at hall; exact False.elim (notAllowed hall rfl)
  · intro h
    cases h with
    | inl h =>
      have ⟨h0, hy⟩ := h
      rw [h0, hy]
      exact ⟨Or.inl rfl, ⟨[1, 0], linPairMem (by decide) _ (Or.inr rfl), rfl⟩, rfl⟩
    | inr h =>
      have ⟨h1, hy⟩ := h
      rw [h1, hy]
      exact ⟨Or.inr rfl, ⟨[0, 2], linPairMem (by decide) _ (Or.inl rfl), rfl⟩, rfl⟩

theorem noSafeXYZ : ¬ thetaXYZ.SafeEdit := by
  intro ⟨c, S, hS, hP, hc⟩
  -- (X⊗Z, x̄z̄) is removed first: after `x̄`, X⊗Y is compatible (through x̄ȳ) but unsupported.
  have hnz : ¬ S (1, [xb, zb]) := by
    intro h
    have hcompat : thetaXYZ.Compat [xb] 0 :=
      ⟨Or.inl rfl, [xb, yb], ⟨[0, 1], linPairMem (by decide) _ (Or.inl rfl), rfl⟩, ⟨[yb], rfl⟩⟩
    have ⟨y, hy, ⟨t, ht⟩⟩ := hP _ h [xb] 0 ⟨[zb], rfl⟩ hcompat
    cases (b0XYZ 0 y).1 (hS _ hy) with
    | inl h' => rw [h'.2] at ht; exact absurd (List.cons.inj ht).1 (by decide)
    | inr h' => exact absurd h'.1 (by decide)
  -- then (X⊗Y, ȳx̄): at `ε`, X⊗Z is compatible but no longer supported.
  have hny : ¬ S (0, [yb, xb]) := by
    intro h
    have hcompat : thetaXYZ.Compat [] 1 :=
      ⟨Or.inr rfl, [xb, zb], ⟨[0, 2], linPairMem (by decide) _ (Or.inl rfl), rfl⟩, prefixNil _⟩
    have ⟨y, hy, _⟩ := hP _ h [] 1 (prefixNil _) hcompat
    cases (b0XYZ 1 y).1 (hS _ hy) with
    | inl h' => exact absurd h'.1 (by decide)
    | inr h' => rw [h'.2] at hy; exact hnz hy
  cases c with
  | mk o y =>
    cases (b0XYZ o y).1 (hS _ hc) with
    | inl h' => rw [h'.1, h'.2] at hc; exact hny hc
    | inr h' => rw [h'.1, h'.2] at hc; exact hnz hc

/-- Proposition 1 is strict for generalized nonblocking of the projection: the projected family
`{ȳx̄, x̄z̄}` is nonblocking (every reachable state reaches a complete word, under any markers), while
the indexed fixed point is empty, so no safe execution set exists (Lemma 4). -/
theorem prop1Strict :
    (∀ y, (∃ o, thetaXYZ.B0 (o, y)) ↔ y = [yb, xb] ∨ y = [xb, zb]) ∧
    Nonblocking thetaXYZ.B0 (fun _ => True) (fun z => ∃ o, thetaXYZ.B0 (o, z)) ∧
    ¬ thetaXYZ.SafeEdit ∧ ¬ ∃ L B, thetaXYZ.Safe L B := by
  refine ⟨?_, ?_, noSafeXYZ, fun ⟨L, B, h⟩ => ?_⟩
  · intro y
    constructor
    · intro ⟨o, h⟩
      cases (b0XYZ o y).1 h with
      | inl h => exact Or.inl h.2
      | inr h => exact Or.inr h.2
    · intro h
      cases h with
      | inl h => exact ⟨0, (b0XYZ 0 y).2 (Or.inl ⟨rfl, h⟩)⟩
      | inr h => exact ⟨1, (b0XYZ 1 y).2 (Or.inr ⟨rfl, h⟩)⟩
  · intro z hz _
    have ⟨o, y, hy, ⟨t, ht⟩⟩ := hz.1
    have hr : ReachFrom thetaXYZ.B0 z (z ++ t) := reachOfPrefix t z (by rw [← ht]; exact ⟨o, y, hy, prefixRefl _⟩)
    rw [← ht] at hr
    exact ⟨y, hr, o, hy⟩
  · have ⟨c, hc⟩ := h.nonempty
    exact noSafeXYZ ⟨c, (Theta.safeInside h).1 c hc⟩

end AgentWarrant.Edits
