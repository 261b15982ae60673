import AgentWarrant.Spec.Edits.Cost
/-! A family of instances on which the modelled edit checker's work grows faster than Proposition 2's
bound (*When Can Agents Safely Checkpoint, Fork, Restore, and Merge?*, Proposition 2).

`fam l`: one outcome per entry `o` of `l`, each the single call 0 on action 0 labelled 0, under the
policy `{ε, 0}`. Every outcome has the one resolved linearization `w₀ = new(0)`, so `B̂₀` holds
`(o, w₀)` for every `o` and is already the fixed point.

`supportTests` counts the `supports` tests `iter` performs when every `keep` succeeds (as on a fixed
point): per round, per candidate, per prefix `z`, one test for each outcome of `Compat(z)`; `allB`
stops at the first failing test, so elsewhere it is an upper bound. -/
namespace AgentWarrant.Edits
open AgentWarrant

def sumN : List Nat → Nat
  | [] => 0
  | a :: l => a + sumN l

def famOut (o : Nat) : Outcome := ⟨o, [[0]]⟩

def fam (l : List Nat) : Inst :=
  { outs := List.map famOut l, act := [0], lab := [0], log := [], policy := [[], [0]] }

def w0 : Word := [⟨0, 0, true⟩]

def testsOf (i : Inst) (c : Cand) : Nat := sumN (List.map (fun z => List.length (compat i z)) (prefixes c.2))

def supportTests (i : Inst) : Nat → List Cand → Nat
  | 0, _ => 0
  | n + 1, B => sumN (List.map (testsOf i) B) + supportTests i n (phi i B)

end AgentWarrant.Edits
