import AgentWarrant.Lib
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

end AgentWarrant
