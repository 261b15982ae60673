import AgentWarrant.Spec.Lib
/-! List lemmas the 2021 core lacks (membership in appends, `map` over appends, lengths, sums),
used by the trace, renaming and revision theorems. -/
namespace AgentWarrant

theorem memAppL {x : α} : ∀ {a : List α} (b : List α), x ∈ a → x ∈ a ++ b
  | [], _, h => absurd h notMemNil
  | _ :: _, b, Mem.head _ => by rw [List.cons_append]; exact Mem.head _
  | _ :: _, b, Mem.tail _ h => by rw [List.cons_append]; exact Mem.tail _ (memAppL b h)

theorem memAppR {x : α} (b : List α) : ∀ (a : List α), x ∈ b → x ∈ a ++ b
  | [], h => h
  | _ :: a, h => by rw [List.cons_append]; exact Mem.tail _ (memAppR b a h)

theorem memAppE {x : α} {b : List α} : ∀ {a : List α}, x ∈ a ++ b → x ∈ a ∨ x ∈ b
  | [], h => Or.inr h
  | y :: a, h => by
    rw [List.cons_append] at h
    cases h with
    | head _ => exact Or.inl (Mem.head _)
    | tail _ h => match memAppE h with
      | Or.inl h' => exact Or.inl (Mem.tail _ h')
      | Or.inr h' => exact Or.inr h'

theorem lengthMap (f : α → β) : ∀ (l : List α), List.length (List.map f l) = List.length l
  | [] => rfl
  | _ :: l => by simp [List.map, List.length_cons, lengthMap f l]

theorem mapAppend (f : α → β) : ∀ (a b : List α), List.map f (a ++ b) = List.map f a ++ List.map f b
  | [], _ => rfl
  | x :: a, b => by simp [List.map, mapAppend f a b]

theorem mapFix (f : α → α) : ∀ (l : List α), (∀ x, x ∈ l → f x = x) → List.map f l = l
  | [], _ => rfl
  | x :: l, h => by
    simp [List.map, h x (Mem.head _), mapFix f l (fun y hy => h y (Mem.tail _ hy))]

theorem memReverseAux {x : α} : ∀ (l acc : List α), (x ∈ l ∨ x ∈ acc) → x ∈ List.reverseAux l acc
  | [], acc, Or.inl h => absurd h notMemNil
  | [], acc, Or.inr h => h
  | a :: l, acc, h => by
    show x ∈ List.reverseAux l (a :: acc)
    apply memReverseAux l (a :: acc)
    cases h with
    | inl h => cases h with
      | head _ => exact Or.inr (Mem.head _)
      | tail _ h => exact Or.inl h
    | inr h => exact Or.inr (Mem.tail _ h)

theorem memFilterAux {p : α → Bool} {x : α} : ∀ (l rs : List α), (x ∈ rs ∨ (x ∈ l ∧ p x = true)) →
    x ∈ List.filterAux p l rs
  | [], rs, h => by
    show x ∈ List.reverseAux rs []
    cases h with
    | inl h => exact memReverseAux rs [] (Or.inl h)
    | inr h => exact absurd h.1 notMemNil
  | a :: l, rs, h => by
    cases hp : p a with
    | true =>
      have e : List.filterAux p (a :: l) rs = List.filterAux p l (a :: rs) := by simp [List.filterAux, hp]
      rw [e]
      apply memFilterAux l (a :: rs)
      cases h with
      | inl h => exact Or.inl (Mem.tail _ h)
      | inr h => cases h.1 with
        | head _ => exact Or.inl (Mem.head _)
        | tail _ h' => exact Or.inr ⟨h', h.2⟩
    | false =>
      have e : List.filterAux p (a :: l) rs = List.filterAux p l rs := by simp [List.filterAux, hp]
      rw [e]
      apply memFilterAux l rs
      cases h with
      | inl h => exact Or.inl h
      | inr h => cases h.1 with
        | head _ => rw [h.2] at hp; contradiction
        | tail _ h' => exact Or.inr ⟨h', h.2⟩

theorem memFilterStd {p : α → Bool} {x : α} {l : List α} (h : x ∈ l) (hp : p x = true) : x ∈ List.filter p l :=
  memFilterAux l [] (Or.inr ⟨h, hp⟩)

theorem anyMem {f : α → Bool} {x : α} : ∀ {l : List α}, x ∈ l → f x = true → List.any l f = true
  | [], h, _ => absurd h notMemNil
  | a :: l, h, hf => by
    cases h with
    | head _ => simp [List.any, List.foldr, hf]
    | tail _ h =>
      have ih := anyMem h hf
      simp [List.any] at ih
      simp [List.any, List.foldr, ih]

theorem anyAllFalse {f : α → Bool} : ∀ {l : List α}, (∀ x, x ∈ l → f x = false) → List.any l f = false
  | [], _ => rfl
  | a :: l, h => by
    have ih := anyAllFalse (fun x hx => h x (Mem.tail _ hx))
    simp [List.any] at ih
    simp [List.any, List.foldr, h a (Mem.head _), ih]

theorem isEmptyMem {x : α} : ∀ {l : List α}, x ∈ l → List.isEmpty l = false
  | [], h => absurd h notMemNil
  | _ :: _, _ => rfl

theorem joinNil : ∀ {l : List (List α)}, (∀ x, x ∈ l → x = []) → List.join l = []
  | [], _ => rfl
  | a :: l, h => by
    have ih := joinNil (fun x hx => h x (Mem.tail _ hx))
    simp [List.join, h a (Mem.head _), ih]

theorem memMapOf (f : α → β) {x : α} : ∀ {l : List α}, x ∈ l → f x ∈ List.map f l
  | [], h => absurd h notMemNil
  | a :: l, h => by
    cases h with
    | head _ => exact Mem.head _
    | tail _ h => exact Mem.tail _ (memMapOf f h)

theorem memMapInv (f : α → β) {y : β} : ∀ {l : List α}, y ∈ List.map f l → ∃ x, x ∈ l ∧ f x = y
  | [], h => absurd h notMemNil
  | a :: l, h => by
    cases h with
    | head _ => exact ⟨a, Mem.head _, rfl⟩
    | tail _ h => have ⟨x, hx, e⟩ := memMapInv f h; exact ⟨x, Mem.tail _ hx, e⟩

end AgentWarrant
