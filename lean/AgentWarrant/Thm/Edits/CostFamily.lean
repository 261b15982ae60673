import AgentWarrant.Spec.Edits.CostFamily
import AgentWarrant.Thm.Edits.Cost
/-! The checker's work on `fam l` (Proposition 2 of *When Can Agents Safely Checkpoint, Fork, Restore,
and Merge?*): with `k = |l|`, `B̂₀` has `k` candidates, all safe, so the checker runs its `k` rounds
with `k` `keep` evaluations each and tests `supports` for both prefixes of `w₀` against all `k`
compatible outcomes: `2k³` tests, where `V_B = 2k`. -/
namespace AgentWarrant.Edits
open AgentWarrant

theorem famCands (l : List Nat) (o : Nat) : candsOf (fam l) (famOut o) = [(o, w0)] := rfl

theorem famB0 (l : List Nat) : ∀ (m : List Nat),
    concatL (List.map (candsOf (fam l)) (List.map famOut m)) = List.map (fun o => (o, w0)) m
  | [] => rfl
  | o :: m => by
    show candsOf (fam l) (famOut o) ++ concatL (List.map (candsOf (fam l)) (List.map famOut m)) = (o, w0) :: List.map (fun o => (o, w0)) m
    rw [famCands, famB0 l m]; rfl

theorem famB0Eq (l : List Nat) : b0 (fam l) = List.map (fun o => (o, w0)) l := famB0 l l

theorem filtAllTrue {p : α → Bool} : ∀ {l : List α}, (∀ x, x ∈ l → p x = true) → filt p l = l
  | [], _ => rfl
  | a :: l, h => by
    simp [filt, h a (Mem.head _)]
    exact filtAllTrue (fun x hx => h x (Mem.tail _ hx))

theorem mapIdFam : ∀ (m : List Nat), List.map Outcome.id (List.map famOut m) = m
  | [] => rfl
  | o :: m => by show o :: List.map Outcome.id (List.map famOut m) = o :: m; rw [mapIdFam m]

/-- Every outcome is compatible with every prefix of `w₀`. -/
theorem famCompat (l : List Nat) (z : Word) (hz : z ∈ prefixes w0) : compat (fam l) z = l := by
  have hz' : z = [] ∨ z = w0 := by
    cases hz with
    | head _ => exact Or.inl rfl
    | tail _ h => cases h with
      | head _ => exact Or.inr rfl
      | tail _ h' => exact absurd h' notMemNil
  show List.map Outcome.id (filt _ (List.map famOut l)) = l
  rw [filtAllTrue, mapIdFam]
  intro x hx
  have ⟨o, _, e⟩ := memMap hx
  rw [e]
  cases hz' with
  | inl h => rw [h]; rfl
  | inr h => rw [h]; rfl

theorem famKeep (l : List Nat) (c : Cand) (hc : c ∈ List.map (fun o => (o, w0)) l) :
    keep (fam l) (List.map (fun o => (o, w0)) l) c = true := by
  have ⟨o, _, e⟩ := memMap hc
  rw [e]
  apply allBIntro
  intro z hz
  rw [famCompat l z hz]
  apply allBIntro
  intro o' ho'
  apply anyBIntro (mapMem (f := fun o => (o, w0)) ho')
  show (match decide (o' = o') with | true => isPrefixB z w0 | false => false) = true
  rw [decideEqTrue rfl]
  exact isPrefixBComplete z w0 (prefixesSound w0 z hz)

theorem famFixed (l : List Nat) : phi (fam l) (b0 (fam l)) = b0 (fam l) := by
  rw [famB0Eq]
  exact filtAllTrue (famKeep l)

theorem famTests (l : List Nat) : ∀ (B : List Cand), (∀ c, c ∈ B → c.2 = w0) →
    sumN (List.map (testsOf (fam l)) B) = List.length B * (List.length l + List.length l)
  | [], _ => by show 0 = 0 * _; rw [Nat.zero_mul]
  | c :: B, h => by
    simp only [List.map, sumN, List.length_cons]
    have hc : testsOf (fam l) c = List.length l + List.length l := by
      show sumN (List.map (fun z => List.length (compat (fam l) z)) (prefixes c.2)) = _
      rw [h c (Mem.head _)]
      show List.length (compat (fam l) []) + (List.length (compat (fam l) w0) + 0) = _
      rw [famCompat l [] (prefixesComplete w0 [] (prefixNil w0)),
        famCompat l w0 (prefixesComplete w0 w0 (prefixRefl w0))]
      rfl
    rw [hc, famTests l B (fun c' hc' => h c' (Mem.tail _ hc')), Nat.succ_mul, Nat.add_comm]

theorem supportTestsFixed (i : Inst) {B : List Cand} (h : phi i B = B) :
    ∀ n, supportTests i n B = n * sumN (List.map (testsOf i) B)
  | 0 => by rw [Nat.zero_mul]; rfl
  | n + 1 => by
    show sumN (List.map (testsOf i) B) + supportTests i n (phi i B) = Nat.succ n * _
    rw [h, supportTestsFixed i h n, Nat.succ_mul, Nat.add_comm]

theorem famLength : ∀ (l : List Nat), List.length (List.map (fun o => (o, w0)) l) = List.length l
  | [] => rfl
  | _ :: l => by simp [List.map]; exact famLength l

/-- On `fam l` with `k = |l|`: `|B̂₀| = k`, every candidate is safe, and the checker makes `k²`
`keep` evaluations and `2k³` `supports` tests. -/
theorem famWork (l : List Nat) :
    List.length (b0 (fam l)) = List.length l ∧ safeSet (fam l) = b0 (fam l) ∧
    keepCalls (fam l) (List.length (b0 (fam l))) (b0 (fam l)) = List.length l * List.length l ∧
    supportTests (fam l) (List.length (b0 (fam l))) (b0 (fam l)) =
      List.length l * (List.length l * (List.length l + List.length l)) := by
  have hlen : List.length (b0 (fam l)) = List.length l := by rw [famB0Eq]; exact famLength l
  refine ⟨hlen, iterFix _ (famFixed l) _, ?_, ?_⟩
  · rw [checkerKeepCallsAllSafe _ (famFixed l), hlen]
  · rw [supportTestsFixed _ (famFixed l), hlen]
    apply congrArg
    have ht := famTests l (b0 (fam l)) (by
      intro c hc
      rw [famB0Eq] at hc
      have ⟨o, _, e⟩ := memMap hc
      rw [e])
    rw [ht, hlen]

end AgentWarrant.Edits
