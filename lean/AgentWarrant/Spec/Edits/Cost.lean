import AgentWarrant.Spec.Edits.Check
/-! Step counts of the finite edit checker (*When Can Agents Safely Checkpoint, Fork, Restore, and
Merge?*, Proposition 2).

Lean 4 gives definitions no cost semantics, so a step count is a second function that follows the
checker's recursion clause by clause and adds up one kind of step. Two are counted:

- `keepCalls`: the evaluations of `keep` (the test `(o, y) ∈ Φ̂(B̂)`) that `iter` performs, one per
  member of the current set in every round;
- `rounds`: the rounds in which `Φ̂` still removes a candidate, the same test as `sizes` (the round
  sizes of the rejection proof).

Choice where the paper is silent: Proposition 2 bounds a worklist algorithm with support counters,
tries and a sorted `Can` construction; the checker modelled here is the plain iteration of `Φ̂`
with fuel `|B̂₀|`, so what is counted is that iteration's steps, not the paper's algorithm's. -/
namespace AgentWarrant.Edits
open AgentWarrant

/-- The `keep` evaluations of `iter i n B`: `Φ̂` filters the current set, one `keep` per member. -/
def keepCalls (i : Inst) : Nat → List Cand → Nat
  | 0, _ => 0
  | n + 1, B => List.length B + keepCalls i n (phi i B)

/-- The rounds of `iter i n B` that remove a candidate (`sizes` lists one size more). -/
def rounds (i : Inst) : Nat → List Cand → Nat
  | 0, _ => 0
  | n + 1, B => match Nat.beq (List.length (phi i B)) (List.length B) with
    | true => 0
    | false => rounds i n (phi i B) + 1

end AgentWarrant.Edits
