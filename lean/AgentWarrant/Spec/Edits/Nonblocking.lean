import AgentWarrant.Spec.Edits.Safety
/-! The transition system `𝒯_B̂` of a family and generalized (marker) nonblocking
(*When Can Agents Safely Checkpoint, Fork, Restore, and Merge?*, Section V-C2, Proposition 1).

`𝒯_B̂` is the prefix tree of `↓(π₂ B̂)`: its states are the partial executions of the family, its
initial state is `ε` (so an empty family has no states), and `z --a--> z·a` whenever `z·a` is a
state. A system is `(possible, done)`-nonblocking when from every reachable state marked
`possible` some state marked `done` is reachable. Proposition 1 marks `z` with `possible_o` when
`o ∈ Compat(z)` and with `done_o` when `(o, z) ∈ B̂`. -/
namespace AgentWarrant.Edits
open AgentWarrant

/-- The states of `𝒯_B̂`: `↓(π₂ B̂)`. -/
def Down (B : CandP → Prop) (z : Word) : Prop := ∃ o y, B (o, y) ∧ IsPrefix z y

/-- Multi-step reachability in `𝒯_B̂`, one letter at a time. -/
inductive ReachFrom (B : CandP → Prop) : Word → Word → Prop
  | refl (z : Word) : ReachFrom B z z
  | step {z z' : Word} (a : Letter) : Down B (z ++ [a]) → ReachFrom B (z ++ [a]) z' → ReachFrom B z z'

def Reachable (B : CandP → Prop) (z : Word) : Prop := Down B z ∧ ReachFrom B [] z

def Nonblocking (B : CandP → Prop) (possible done : Word → Prop) : Prop :=
  ∀ z, Reachable B z → possible z → ∃ z', ReachFrom B z z' ∧ done z'

end AgentWarrant.Edits
