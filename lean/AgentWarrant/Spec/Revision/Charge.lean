import AgentWarrant.Spec.Revision.Run
/-! What a first-fit allocation charges, position by position (Agenra Sections 5.2 and 6.2), and the
quota invariant's statement.

`Charged i l l' ps`: the accounts `l'` are the accounts `l` (starting at position `i` of a list)
after charging the positions `ps`: each finite residual went down by exactly the number of
times its position occurs in `ps`, unlimited ones stayed unlimited, grants unchanged.
`WithinL qs us`: every finite quota bounds its counter. -/
namespace AgentWarrant.Monitor.Run
open AgentWarrant.Monitor

/-- `ResEq r r' c`: residual `r'` is `r` less `c` charges (unlimited stays unlimited). -/
def ResEq : Option Nat → Option Nat → Nat → Prop
  | none, none, _ => True
  | some a, some b, c => b + c = a
  | _, _, _ => False

inductive Charged : Nat → List Acct → List Acct → List Nat → Prop
  | nil (i : Nat) (ps : List Nat) : Charged i [] [] ps
  | cons (i : Nat) (g : Grant) {r r' : Option Nat} {l l' : List Acct} {ps : List Nat} :
      ResEq r r' (countN i ps) → Charged (i + 1) l l' ps → Charged i ((g, r) :: l) ((g, r') :: l') ps

def withinQ : Option Nat → Nat → Prop
  | none, _ => True
  | some m, u => u ≤ m

def WithinL : List (Option Nat) → List Nat → Prop
  | q :: qs, u :: us => withinQ q u ∧ WithinL qs us
  | _, _ => True

end AgentWarrant.Monitor.Run
