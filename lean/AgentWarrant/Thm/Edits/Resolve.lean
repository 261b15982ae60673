import AgentWarrant.Spec.Edits.Resolve
import AgentWarrant.Spec.Edits.List
/-! Resolve's properties (*When Can Agents Safely Checkpoint, Fork, Restore, and Merge?*, Section V-B, the Resolve lemma): deterministic,
length-preserving, `raw ∘ Resolve = id`, prefix composition, and at most one `new` per action
outside `D_Δ`. -/
namespace AgentWarrant.Edits
open AgentWarrant

theorem resolveDeterministic (act D w : List Nat) (z z' : Word)
    (h : resolve act D w = z) (h' : resolve act D w = z') : z = z' := by
  rw [← h, ← h']

theorem resolveLength (act : List Nat) : ∀ (D w : List Nat), List.length (resolve act D w) = List.length w
  | _, [] => rfl
  | D, x :: w => by
    cases h : memN (nth act x) D with
    | true => simp [resolve, h, resolveLength act D w]
    | false => simp [resolve, h, resolveLength act (nth act x :: D) w]

theorem resolveRaw (act : List Nat) : ∀ (D w : List Nat), raw (resolve act D w) = w
  | _, [] => rfl
  | D, x :: w => by
    cases h : memN (nth act x) D with
    | true => simp [resolve, h, raw, resolveRaw act D w]
    | false => simp [resolve, h, raw, resolveRaw act (nth act x :: D) w]

/-- Prefix composition: `Resolve_Δ(rv) = Resolve_Δ(r) · Resolve_{Δ_z}(v)` with `z = Resolve_Δ(r)`. -/
theorem resolveAppend (act : List Nat) : ∀ (D r v : List Nat),
    resolve act D (r ++ v) = resolve act D r ++ resolve act (extend D (resolve act D r)) v
  | _, [], v => rfl
  | D, x :: r, v => by
    cases h : memN (nth act x) D with
    | true =>
      simp [resolve, h, extend]
      exact resolveAppend act D r v
    | false =>
      simp [resolve, h, extend]
      exact resolveAppend act (nth act x :: D) r v

end AgentWarrant.Edits

namespace AgentWarrant.Edits
open AgentWarrant

theorem memNCons {d a : Nat} {D : List Nat} (h : memN d (a :: D) = false) : Nat.beq a d = false ∧ memN d D = false := by
  cases hb : Nat.beq a d with
  | true => simp [memN, anyB, hb] at h
  | false =>
    have h' : anyB (fun y => Nat.beq y d) (a :: D) = false := h
    simp [anyB, hb] at h'
    exact ⟨rfl, h'⟩

theorem beqSelf : ∀ n : Nat, Nat.beq n n = true
  | 0 => rfl
  | n + 1 => beqSelf n

theorem memNSelf (a : Nat) (D : List Nat) : memN a (a :: D) = true := by
  simp [memN, anyB, beqSelf]

/-- The Resolve lemma's bound: every action `Resolve_Δ` annotates as `new` is outside `D_Δ`, and no
action is newly authorized twice. -/
theorem resolveNewFresh (act : List Nat) : ∀ (D w : List Nat),
    (∀ d, d ∈ auth (resolve act D w) → memN d D = false) ∧ Nodup (auth (resolve act D w))
  | _, [] => ⟨fun d h => absurd h notMemNil, True.intro⟩
  | D, x :: w => by
    cases h : memN (nth act x) D with
    | true =>
      have e : auth (resolve act D (x :: w)) = auth (resolve act D w) := by simp [resolve, h, auth]
      rw [e]
      exact resolveNewFresh act D w
    | false =>
      have e : auth (resolve act D (x :: w)) = nth act x :: auth (resolve act (nth act x :: D) w) := by
        simp [resolve, h, auth]
      rw [e]
      have ⟨ih1, ih2⟩ := resolveNewFresh act (nth act x :: D) w
      refine ⟨?_, ?_, ih2⟩
      · intro d hd
        cases hd with
        | head _ => exact h
        | tail _ hd' => exact (memNCons (ih1 d hd')).2
      · intro hm
        have h1 := ih1 _ hm
        rw [memNSelf] at h1
        exact Bool.noConfusion h1

end AgentWarrant.Edits
