import AgentWarrant.Spec.Edits.Resolve
/-! Resolve's properties (execution-edit-checking.md, Section V-B, the Resolve lemma): deterministic,
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
