/-! A small list library: the 2021 core has no list membership, no `List.mem_*` lemmas and a
`List.filter` that goes through a reversed accumulator, so the checker and the ledger use these
structurally recursive definitions and their lemmas instead. -/
namespace AgentWarrant

inductive Mem (a : α) : List α → Prop
  | head (as : List α) : Mem a (a :: as)
  | tail (b : α) {as : List α} : Mem a as → Mem a (b :: as)

infix:50 " ∈ " => Mem

theorem notMemNil {a : α} : ¬ (a ∈ ([] : List α)) := fun h => nomatch h

theorem memCons {a b : α} {l : List α} : a ∈ (b :: l) → a = b ∨ a ∈ l := by
  intro h
  cases h with
  | head _ => exact Or.inl rfl
  | tail _ h => exact Or.inr h

/-- Filter with a direct recursion (no accumulator), so lemmas go by plain induction. -/
def filt (p : α → Bool) : List α → List α
  | [] => []
  | a :: l => match p a with
    | true => a :: filt p l
    | false => filt p l

def allB (p : α → Bool) : List α → Bool
  | [] => true
  | a :: l => match p a with
    | true => allB p l
    | false => false

def anyB (p : α → Bool) : List α → Bool
  | [] => false
  | a :: l => match p a with
    | true => true
    | false => anyB p l

theorem memFilt {p : α → Bool} {x : α} : ∀ {l : List α}, x ∈ filt p l → x ∈ l ∧ p x = true
  | [], h => absurd h notMemNil
  | a :: l, h => by
    cases hp : p a with
    | true =>
      simp [filt, hp] at h
      cases h with
      | head _ => exact ⟨Mem.head _, hp⟩
      | tail _ h' => have ⟨m, q⟩ := memFilt h'; exact ⟨Mem.tail _ m, q⟩
    | false =>
      simp [filt, hp] at h
      have ⟨m, q⟩ := memFilt h
      exact ⟨Mem.tail _ m, q⟩

theorem filtMem {p : α → Bool} {x : α} : ∀ {l : List α}, x ∈ l → p x = true → x ∈ filt p l
  | [], h, _ => absurd h notMemNil
  | a :: l, h, hx => by
    cases h with
    | head _ => simp [filt, hx]; exact Mem.head _
    | tail _ h' =>
      cases hp : p a with
      | true => simp [filt, hp]; exact Mem.tail _ (filtMem h' hx)
      | false => simp [filt, hp]; exact filtMem h' hx

theorem allBIntro {p : α → Bool} : ∀ {l : List α}, (∀ x, x ∈ l → p x = true) → allB p l = true
  | [], _ => rfl
  | a :: l, h => by
    have ha := h a (Mem.head _)
    simp [allB, ha]
    exact allBIntro (fun x hx => h x (Mem.tail _ hx))

theorem allBElim {p : α → Bool} : ∀ {l : List α}, allB p l = true → ∀ x, x ∈ l → p x = true
  | [], _, x, hx => absurd hx notMemNil
  | a :: l, h, x, hx => by
    cases hp : p a with
    | true =>
      simp [allB, hp] at h
      cases hx with
      | head _ => exact hp
      | tail _ hx' => exact allBElim h x hx'
    | false => simp [allB, hp] at h

theorem anyBIntro {p : α → Bool} : ∀ {l : List α} {x : α}, x ∈ l → p x = true → anyB p l = true
  | [], x, hx, _ => absurd hx notMemNil
  | a :: l, x, hx, hp => by
    cases ha : p a with
    | true => simp [anyB, ha]
    | false =>
      simp [anyB, ha]
      cases hx with
      | head _ => rw [hp] at ha; contradiction
      | tail _ hx' => exact anyBIntro hx' hp

theorem anyBElim {p : α → Bool} : ∀ {l : List α}, anyB p l = true → ∃ x, x ∈ l ∧ p x = true
  | [], h => by simp [anyB] at h
  | a :: l, h => by
    cases ha : p a with
    | true => exact ⟨a, Mem.head _, ha⟩
    | false =>
      simp [anyB, ha] at h
      have ⟨x, hx, hp⟩ := anyBElim h
      exact ⟨x, Mem.tail _ hx, hp⟩

theorem allBMono {p q : α → Bool} (hpq : ∀ x, p x = true → q x = true) {l : List α}
    (h : allB p l = true) : allB q l = true :=
  allBIntro (fun x hx => hpq x (allBElim h x hx))

theorem filtLe (p : α → Bool) : ∀ (l : List α), List.length (filt p l) ≤ List.length l
  | [] => Nat.leRefl 0
  | a :: l => by
    cases hp : p a with
    | true => simp [filt, hp]; exact Nat.succLeSucc (filtLe p l)
    | false => simp [filt, hp]; exact Nat.leStep (filtLe p l)

/-- Filtering either keeps the whole list or makes it strictly shorter: the fuel argument. -/
theorem filtSameOrShorter (p : α → Bool) :
    ∀ (l : List α), filt p l = l ∨ Nat.succ (List.length (filt p l)) ≤ List.length l
  | [] => Or.inl rfl
  | a :: l => by
    cases hp : p a with
    | true =>
      simp [filt, hp]
      cases filtSameOrShorter p l with
      | inl h => rw [h]; exact Or.inl rfl
      | inr h => exact Or.inr (Nat.succLeSucc h)
    | false =>
      simp [filt, hp]
      exact Or.inr (Nat.succLeSucc (filtLe p l))

end AgentWarrant
