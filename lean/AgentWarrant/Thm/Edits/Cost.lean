import AgentWarrant.Spec.Edits.Cost
import AgentWarrant.Thm.Edits.Check
import AgentWarrant.Thm.Edits.Resolve
/-! Step-count bounds of the finite edit checker (Proposition 2 of *When Can Agents Safely
Checkpoint, Fork, Restore, and Merge?*, for the checker modelled in `Spec/Edits/Check.lean`).

Proved: the removal rounds are output-sensitive (at most `|B̂₀| − |B̂†|`, the candidates removed),
and they are the rounds the rejection proof lists (`sizes`); the `keep` evaluations are at most
`|B̂₀|²` and at least `|B̂₀|·|B̂†|`, so when every candidate is safe the checker makes exactly
`|B̂₀|²` of them: it runs its whole fuel instead of stopping at the fixed point. `CostFamily.lean`
gives a family on which the checker's `supports` tests outgrow Proposition 2's bound. -/
namespace AgentWarrant.Edits
open AgentWarrant

/-- The rejection proof's round sizes are one more than the removal rounds. -/
theorem sizesLength (i : Inst) : ∀ (n : Nat) (B : List Cand),
    List.length (sizes i n B) = rounds i n B + 1
  | 0, B => rfl
  | n + 1, B => by
    cases h : Nat.beq (List.length (phi i B)) (List.length B) with
    | true => simp [sizes, rounds, h]
    | false =>
      simp [sizes, rounds, h]
      exact sizesLength i n (phi i B)

theorem iterLength (i : Inst) : ∀ (n : Nat) (B : List Cand), List.length (iter i n B) ≤ List.length B
  | 0, B => Nat.leRefl _
  | n + 1, B => Nat.leTrans (iterLength i n (phi i B)) (filtLe _ B)

/-- A round that does not shrink the set is a fixed point, so a removal round removes a candidate. -/
theorem removalShrinks (i : Inst) (B : List Cand)
    (h : Nat.beq (List.length (phi i B)) (List.length B) = false) :
    Nat.succ (List.length (phi i B)) ≤ List.length B := by
  cases filtSameOrShorter (keep i B) B with
  | inl hfix =>
    have hp : phi i B = B := hfix
    rw [hp, beqSelf] at h
    exact Bool.noConfusion h
  | inr hlt => exact hlt

/-- Removal rounds plus what survives never exceed the starting set. -/
theorem roundsBound (i : Inst) : ∀ (n : Nat) (B : List Cand),
    rounds i n B + List.length (iter i n B) ≤ List.length B
  | 0, B => by show 0 + List.length B ≤ List.length B; rw [Nat.zero_add]; exact Nat.leRefl _
  | n + 1, B => by
    cases h : Nat.beq (List.length (phi i B)) (List.length B) with
    | true =>
      have e : rounds i (n + 1) B = 0 := by simp [rounds, h]
      rw [e, Nat.zero_add]
      exact iterLength i (n + 1) B
    | false =>
      have e : rounds i (n + 1) B = rounds i n (phi i B) + 1 := by
        show (match Nat.beq (List.length (phi i B)) (List.length B) with
          | true => 0
          | false => rounds i n (phi i B) + 1) = rounds i n (phi i B) + 1
        rw [h]
      rw [e, iterSucc]
      show Nat.succ (rounds i n (phi i B)) + List.length (iter i n (phi i B)) ≤ List.length B
      rw [Nat.succ_add]
      exact Nat.leTrans (Nat.succLeSucc (roundsBound i n (phi i B))) (removalShrinks i B h)

/-- Proposition 2's round count for the modelled checker: the removal rounds number at most the
candidates removed, `|B̂₀| − |B̂†|` (stated without subtraction), and they are the rounds the
rejection proof lists. -/
theorem checkerRoundsOutputSensitive (i : Inst) :
    rounds i (List.length (b0 i)) (b0 i) + List.length (safeSet i) ≤ List.length (b0 i) ∧
    List.length (sizes i (List.length (b0 i)) (b0 i)) = rounds i (List.length (b0 i)) (b0 i) + 1 :=
  ⟨roundsBound i _ _, sizesLength i _ _⟩

/-- At most `|B|` `keep` evaluations per round. -/
theorem keepCallsLe (i : Inst) : ∀ (n : Nat) (B : List Cand), keepCalls i n B ≤ n * List.length B
  | 0, B => by rw [Nat.zero_mul]; exact Nat.leRefl _
  | n + 1, B => by
    show List.length B + keepCalls i n (phi i B) ≤ Nat.succ n * List.length B
    rw [Nat.succ_mul, Nat.add_comm (n * List.length B)]
    exact Nat.addLeAddLeft (Nat.leTrans (keepCallsLe i n (phi i B)) (Nat.mulLeMulLeft n (filtLe _ B)))
      (List.length B)

/-- Every round evaluates `keep` on at least the final set: `n·|iter n B|` evaluations at least. -/
theorem keepCallsGe (i : Inst) : ∀ (n : Nat) (B : List Cand),
    n * List.length (iter i n B) ≤ keepCalls i n B
  | 0, B => by rw [Nat.zero_mul]; exact Nat.zeroLe _
  | n + 1, B => by
    show Nat.succ n * List.length (iter i n (phi i B)) ≤ List.length B + keepCalls i n (phi i B)
    rw [Nat.succ_mul, Nat.add_comm (n * List.length (iter i n (phi i B)))]
    exact Nat.leTrans (Nat.addLeAddRight (iterLength i (n + 1) B) _)
      (Nat.addLeAddLeft (keepCallsGe i n (phi i B)) (List.length B))

/-- Proposition 2's per-candidate work for the modelled checker: between `|B̂₀|·|B̂†|` and `|B̂₀|²`
`keep` evaluations, whatever the answer. -/
theorem checkerKeepCalls (i : Inst) :
    List.length (b0 i) * List.length (safeSet i) ≤ keepCalls i (List.length (b0 i)) (b0 i) ∧
    keepCalls i (List.length (b0 i)) (b0 i) ≤ List.length (b0 i) * List.length (b0 i) :=
  ⟨keepCallsGe i _ _, keepCallsLe i _ _⟩

/-- When every candidate is safe the checker makes exactly `|B̂₀|²` `keep` evaluations: it iterates
`Φ̂` for its whole fuel and does not stop at the fixed point. -/
theorem checkerKeepCallsAllSafe (i : Inst) (h : phi i (b0 i) = b0 i) :
    keepCalls i (List.length (b0 i)) (b0 i) = List.length (b0 i) * List.length (b0 i) := by
  apply Nat.leAntisymm (keepCallsLe i _ _)
  have e : safeSet i = b0 i := iterFix i h _
  have hg := keepCallsGe i (List.length (b0 i)) (b0 i)
  have e' : iter i (List.length (b0 i)) (b0 i) = b0 i := e
  rw [e'] at hg
  exact hg

end AgentWarrant.Edits
