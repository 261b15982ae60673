import AgentWarrant.Spec.Lib
import AgentWarrant.Edits.Resolve
import AgentWarrant.Edits.Check
/-! The declarative safe-set predicate (execution-edit-checking.md, Definition 2, finite form)
and its equivalence with the checker's Bool-valued keep test.

With every outcome required and `B̂ ⊆ B̂₀` (which gives membership in the workflow, complete
executions and the policy condition on every prefix, the policy being prefix-closed), Definition 2
reduces to: `B̂` is nonempty and for every `(o, y) ∈ B̂`, every prefix `z ⪯ y` and every
`o' ∈ Compat(z)` some `(o', y') ∈ B̂` has `z ⪯ y'`. Prefixes are stated as `∃ t, y = z ++ t`. -/
namespace AgentWarrant.Edits
open AgentWarrant

def IsPrefix (z w : Word) : Prop := ∃ t, w = z ++ t

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

theorem isPrefixBSound : ∀ (z w : Word), isPrefixB z w = true → IsPrefix z w
  | [], w, _ => ⟨w, rfl⟩
  | a :: z, [], h => by simp [isPrefixB] at h
  | a :: z, b :: w, h => by
    cases hab : decide (a = b) with
    | true =>
      have e : a = b := ofDecideEqTrue hab
      simp [isPrefixB, hab] at h
      have ⟨t, ht⟩ := isPrefixBSound z w h
      exact ⟨t, by rw [e, ht, List.cons_append]⟩
    | false => simp [isPrefixB, hab] at h

theorem isPrefixBComplete : ∀ (z w : Word), IsPrefix z w → isPrefixB z w = true
  | [], w, _ => rfl
  | a :: z, [], ⟨t, ht⟩ => by rw [List.cons_append] at ht; exact List.noConfusion ht
  | a :: z, b :: w, ⟨t, ht⟩ => by
    rw [List.cons_append] at ht
    have ⟨e1, e2⟩ := List.cons.inj ht
    have hab : decide (a = b) = true := decideEqTrue e1.symm
    simp [isPrefixB, hab]
    exact isPrefixBComplete z w ⟨t, e2⟩

theorem prefixesSound : ∀ (w z : Word), z ∈ prefixes w → IsPrefix z w
  | [], z, h => by
    cases h with
    | head _ => exact ⟨[], rfl⟩
    | tail _ h' => exact absurd h' notMemNil
  | a :: w, z, h => by
    cases h with
    | head _ => exact ⟨a :: w, rfl⟩
    | tail _ h' =>
      have ⟨y, hy, e⟩ := memMap h'
      have ⟨t, ht⟩ := prefixesSound w y hy
      exact ⟨t, by rw [e, ht, List.cons_append]⟩

theorem prefixesComplete : ∀ (w z : Word), IsPrefix z w → z ∈ prefixes w
  | [], [], _ => Mem.head _
  | [], b :: z, ⟨t, ht⟩ => by rw [List.cons_append] at ht; exact List.noConfusion ht
  | a :: w, [], _ => Mem.head _
  | a :: w, b :: z, ⟨t, ht⟩ => by
    rw [List.cons_append] at ht
    have ⟨e1, e2⟩ := List.cons.inj ht
    have hz := prefixesComplete w z ⟨t, e2⟩
    rw [e1]
    exact Mem.tail _ (mapMem (f := fun z => b :: z) hz)

/-- Definition 2's closure condition, stated without the checker's Bool functions. -/
def Closed (i : Inst) (S : List Cand) : Prop :=
  ∀ c z o, c ∈ S → IsPrefix z c.2 → o ∈ compat i z → ∃ c', c' ∈ S ∧ c'.1 = o ∧ IsPrefix z c'.2

/-- A safe execution set (Definition 2, finite form). -/
def Safe (i : Inst) (S : List Cand) : Prop := S ≠ [] ∧ Sub S (b0 i) ∧ Closed i S

theorem supportsSound {S : List Cand} {z : Word} {o : Nat} (h : supports S z o = true) :
    ∃ c', c' ∈ S ∧ c'.1 = o ∧ IsPrefix z c'.2 := by
  have ⟨c', hc', hp⟩ := anyBElim h
  cases ho : decide (c'.1 = o) with
  | true =>
    simp [ho] at hp
    exact ⟨c', hc', ofDecideEqTrue ho, isPrefixBSound _ _ hp⟩
  | false => simp [ho] at hp

theorem supportsComplete {S : List Cand} {z : Word} {o : Nat} (c' : Cand) (hc' : c' ∈ S) (ho : c'.1 = o)
    (hz : IsPrefix z c'.2) : supports S z o = true := by
  apply anyBIntro hc'
  have hd : decide (c'.1 = o) = true := decideEqTrue ho
  simp [hd]
  exact isPrefixBComplete _ _ hz

/-- The checker's Bool test is exactly Definition 2's closure condition. -/
theorem postFixedIffClosed (i : Inst) (S : List Cand) : PostFixed i S ↔ Closed i S := by
  constructor
  · intro h c z o hc hz ho
    have h1 := allBElim (h c hc) z (prefixesComplete _ _ hz)
    exact supportsSound (allBElim h1 o ho)
  · intro h c hc
    apply allBIntro
    intro z hz
    apply allBIntro
    intro o ho
    have ⟨c', hc', e, hp⟩ := h c z o hc (prefixesSound _ _ hz) ho
    exact supportsComplete c' hc' e hp

theorem safeIffSafeSet (i : Inst) (S : List Cand) : Safe i S ↔ SafeSet i S := by
  constructor
  · intro ⟨h1, h2, h3⟩; exact ⟨h1, h2, (postFixedIffClosed i S).2 h3⟩
  · intro ⟨h1, h2, h3⟩; exact ⟨h1, h2, (postFixedIffClosed i S).1 h3⟩

/-- Lemma 4 (finite form), declaratively: the checker accepts iff a safe execution set exists,
and then its answer is safe and contains every safe execution set. -/
theorem lemma4 (i : Inst) :
    (accepts i = true ↔ ∃ S, Safe i S) ∧
    (accepts i = true → Safe i (safeSet i) ∧ ∀ S, Safe i S → Sub S (safeSet i)) := by
  constructor
  · constructor
    · intro h
      have ⟨S, hS⟩ := (acceptsIff i).1 h
      exact ⟨S, (safeIffSafeSet i S).2 hS⟩
    · intro ⟨S, hS⟩
      exact (acceptsIff i).2 ⟨S, (safeIffSafeSet i S).1 hS⟩
  · intro h
    have ⟨h1, h2⟩ := acceptsLargest i h
    exact ⟨(safeIffSafeSet i _).2 h1, fun S hS => h2 S ((safeIffSafeSet i S).1 hS)⟩

end AgentWarrant.Edits
