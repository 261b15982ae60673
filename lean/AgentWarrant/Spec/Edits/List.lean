import AgentWarrant.Spec.Lib
/-! List facts the edit specification and its proofs need beyond `AgentWarrant.Lib`: prefixes as
`∃ t, w = z ++ t`, duplicate-freedom, membership through `map` and `concatL`. -/
namespace AgentWarrant.Edits
open AgentWarrant

/-- `z ⪯ w`. -/
def IsPrefix (z w : List α) : Prop := ∃ t, w = z ++ t

def Nodup : List α → Prop
  | [] => True
  | a :: l => ¬ a ∈ l ∧ Nodup l

def concatL : List (List α) → List α
  | [] => []
  | l :: ls => l ++ concatL ls

theorem prefixRefl (w : List α) : IsPrefix w w := ⟨[], (List.append_nil w).symm⟩

theorem prefixNil (w : List α) : IsPrefix [] w := ⟨w, rfl⟩

theorem prefixTrans {a b c : List α} : IsPrefix a b → IsPrefix b c → IsPrefix a c
  | ⟨s, hs⟩, ⟨t, ht⟩ => ⟨s ++ t, by rw [ht, hs, List.append_assoc]⟩

theorem memMap {f : α → β} {x : β} : ∀ {l : List α}, x ∈ List.map f l → ∃ y, y ∈ l ∧ x = f y
  | [], h => absurd h notMemNil
  | a :: l, h => by
    simp [List.map] at h
    cases h with
    | head _ => exact ⟨a, Mem.head _, rfl⟩
    | tail _ h' => have ⟨y, hy, e⟩ := memMap h'; exact ⟨y, Mem.tail _ hy, e⟩

theorem mapMem {f : α → β} {y : α} : ∀ {l : List α}, y ∈ l → f y ∈ List.map f l
  | [], h => absurd h notMemNil
  | a :: l, h => by
    simp [List.map]
    cases h with
    | head _ => exact Mem.head _
    | tail _ h' => exact Mem.tail _ (mapMem h')

theorem memAppend {x : α} : ∀ {l m : List α}, x ∈ l ++ m → x ∈ l ∨ x ∈ m
  | [], m, h => Or.inr h
  | a :: l, m, h => by
    rw [List.cons_append] at h
    cases h with
    | head _ => exact Or.inl (Mem.head _)
    | tail _ h' =>
      cases memAppend h' with
      | inl h1 => exact Or.inl (Mem.tail _ h1)
      | inr h2 => exact Or.inr h2

theorem appendMemL {x : α} : ∀ {l : List α} (m : List α), x ∈ l → x ∈ l ++ m
  | [], m, h => absurd h notMemNil
  | a :: l, m, h => by
    rw [List.cons_append]
    cases h with
    | head _ => exact Mem.head _
    | tail _ h' => exact Mem.tail _ (appendMemL m h')

theorem appendMemR {x : α} : ∀ (l : List α) {m : List α}, x ∈ m → x ∈ l ++ m
  | [], m, h => h
  | a :: l, m, h => by rw [List.cons_append]; exact Mem.tail _ (appendMemR l h)

theorem memConcat {x : α} : ∀ {ls : List (List α)}, x ∈ concatL ls → ∃ l, l ∈ ls ∧ x ∈ l
  | [], h => absurd h notMemNil
  | l :: ls, h => by
    cases memAppend (l := l) h with
    | inl h1 => exact ⟨l, Mem.head _, h1⟩
    | inr h2 => have ⟨l', hl', hx⟩ := memConcat h2; exact ⟨l', Mem.tail _ hl', hx⟩

theorem concatMem {x : α} {l : List α} : ∀ {ls : List (List α)}, l ∈ ls → x ∈ l → x ∈ concatL ls
  | [], h, _ => absurd h notMemNil
  | l' :: ls, h, hx => by
    cases h with
    | head _ => exact appendMemL _ hx
    | tail _ h' => exact appendMemR l' (concatMem h' hx)

theorem memSingle {x a : α} (h : x ∈ [a]) : x = a := by
  cases h with
  | head _ => rfl
  | tail _ h' => exact absurd h' notMemNil

end AgentWarrant.Edits
