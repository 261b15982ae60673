import AgentWarrant.Spec.Edits.DeriveTreeNames
/-! The branch tree's group arities (*When Can Agents Safely Checkpoint, Fork, Restore, and Merge?*,
Section V-A and Table I: a Fork's choice or parallel group has two arms, RestoreLive's group two parts,
a Merge's sequence two parts, a join barrier its parallel group's two parts; a branch `b:𝒞` has none).

On the flat tree a node's children are the nodes whose parent link is its position, so the arity is a
count of links (`childCount`). The root tree is `Derive`'s input (`start` installs `d.tree` unread), so
the arities are decided here on it (`aritiesB`), beside the order and name checks.

Choices: every group kind (choice, parallel, join barrier, sequence) gets exactly two children, since
every Table I row builds its group with two and no row adds a third; a leaf gets none, as a Python
branch has none; the children's places (`pos`) are not compared, only their number; the check counts
the links to each node, quadratic in the tree's size as `noCrossB` is; `startArity` refuses a root with
a wrong arity as a whole (`none`), over the order and name checks of `startNamed`. -/
namespace AgentWarrant.Edits.Machine
open AgentWarrant AgentWarrant.Edits

/-- The children a node of kind `k` has in every tree the rows build: none for a leaf, two otherwise. -/
def arityOf : Nat → Nat
  | 0 => 0
  | _ + 1 => 2

/-- How many nodes of the list have their parent link at `p`. -/
def childCount (p : Nat) : Tree → Nat
  | [] => 0
  | n :: l => match Nat.beq n.parent p with
    | true => childCount p l + 1
    | false => childCount p l

/-- Every node of the list, the first at position `o + 1`, has in `t` the children its kind gives it. -/
def arB (t : Tree) : Nat → Tree → Bool
  | _, [] => true
  | o, n :: l => Nat.beq (childCount (o + 1) t) (arityOf n.kind) && arB t (o + 1) l

/-- Every node of the tree has the children its kind gives it (`AritiesOk`). -/
def aritiesB (t : Tree) : Bool := arB t 0 t

/-- The root update with the arity check over the order and name checks (`startNamed`). -/
def startArity (d : Derived) : Option RState := match aritiesB d.tree with
  | true => startNamed d
  | false => none

end AgentWarrant.Edits.Machine
