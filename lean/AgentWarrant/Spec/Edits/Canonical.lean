import AgentWarrant.Spec.Edits.Safety
/-! The canonical automaton `Can(W, B)` (*When Can Agents Safely Checkpoint, Fork, Restore, and Merge?*,
Section VI-A, equation 10): the paired-language derivative (Brzozowski) construction.

    Q_{W,B} = {q_z | z ∈ W},   q⁰ = q_ε = (W, B),   q_z --a--> q_{za}  iff  za ∈ W

A state is the pair of residual languages `(W/z, B/z)` itself, so two words reach the same state
exactly when their residuals are equal (the Myhill–Nerode quotient of the prefix tree); a state is
marked when its second residual contains `ε`. Automata here are deterministic marked partial
automata given by a transition relation (`Det` says it is a partial function): the languages are
predicates, and a transition function would have to decide `za ∈ W`, which a predicate does not
provide without classical choice.
Choice where the paper is silent: the state space is all pairs of languages and `Q_{W,B}` is its
reachable part (`Thm/Edits/Canonical.lean` proves the reachable states are exactly the `q_z`). -/
namespace AgentWarrant.Edits
open AgentWarrant

abbrev Lang := Word → Prop

/-- `L/z = {t | z·t ∈ L}`. -/
def res (L : Lang) (z : Word) : Lang := fun t => L (z ++ t)

def PrefixClosedL (L : Lang) : Prop := ∀ u v, L (u ++ v) → L u

/-- A marked partial automaton over letters. -/
structure Aut (Q : Type) where
  init : Q
  step : Q → Letter → Q → Prop
  marked : Q → Prop

namespace Aut
variable {Q : Type} (M : Aut Q)

inductive Run : Q → Word → Q → Prop
  | nil (q : Q) : Run q [] q
  | cons {q q' q'' : Q} {a : Letter} {w : Word} : M.step q a q' → Run q' w q'' → Run q (a :: w) q''

/-- Deterministic: at most one `a`-successor of each state. -/
def Det : Prop := ∀ q a q₁ q₂, M.step q a q₁ → M.step q a q₂ → q₁ = q₂

/-- The generated language: the words the automaton can run from its initial state. -/
def Gen (z : Word) : Prop := ∃ q, M.Run M.init z q

/-- The marked language: the words that reach a marked state. -/
def Marked (z : Word) : Prop := ∃ q, M.Run M.init z q ∧ M.marked q

end Aut

/-- `Can(W, B)`. -/
def can (W B : Lang) : Aut (Lang × Lang) where
  init := (W, B)
  step S a S' := S.1 [a] ∧ S' = (res S.1 [a], res S.2 [a])
  marked S := S.2 []

/-- `B† = π₂ B̂†`, the complete executions of `B̂†` with their results erased. -/
def Theta.Bproj (θ : Theta) (z : Word) : Prop := ∃ o, θ.Bdag (o, z)

end AgentWarrant.Edits
