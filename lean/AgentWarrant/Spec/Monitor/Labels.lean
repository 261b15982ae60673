/-! Labels and their join (Agenra Section 4.2), finite form.

A label is `(s, C, t)`: the sensitivity as its rank in the policy's declared order (lowest 0),
the categories as a characteristic vector over the policy's sorted category names, and the trust
flag. Join is `(max, ∪, ∧)` with bottom `(0, ∅, true)`.
Choice where the source is silent: category vectors of different lengths are joined by padding
with "absent" (the oracle always sends full-length vectors, so the padding is never observed). -/
namespace AgentWarrant.Monitor

structure Label where
  sens : Nat
  cats : List Bool
  trusted : Bool
  deriving DecidableEq, Repr

def mx : Nat → Nat → Nat
  | 0, b => b
  | a + 1, 0 => a + 1
  | a + 1, b + 1 => mx a b + 1

def orL : List Bool → List Bool → List Bool
  | [], l => l
  | a :: x, [] => a :: x
  | a :: x, b :: y => (a || b) :: orL x y

def join (a b : Label) : Label := ⟨mx a.sens b.sens, orL a.cats b.cats, a.trusted && b.trusted⟩

def bot : Label := ⟨0, [], true⟩

def joinAll : List Label → Label
  | [] => bot
  | l :: ls => join (joinAll ls) l

end AgentWarrant.Monitor
