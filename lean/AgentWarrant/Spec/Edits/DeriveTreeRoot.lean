import AgentWarrant.Spec.Edits.Machine
/-! The root tree's order, checked (*When Can Agents Safely Checkpoint, Fork, Restore, and Merge?*,
Section V-A: the branch tree `T` of the accepted root update).

Lean's currency results read two properties of the tree: every node's parent lies before it
(`ParentsBefore`, `Thm/Edits/DeriveTreeCurrent.lean`) and parent links do not cross (`NoCross`,
`Thm/Edits/DeriveTreeSeq.lean`). Every tree change and `HStep` keeps both, so a run's trees have them
once its root tree has. The root tree is `Derive`'s input (`start` installs `d.tree` unread), so the
two properties are decided here on it, and `startChecked` is the root update that installs a root only
when its tree has both.

Choices: the checks walk the flat list once per node (`noCrossB` compares each node with every later
one, quadratic in the tree's size, which is a handful of nodes on the DRT's path); a refused root is
refused as a whole (`none`, as an undefined root derivation), since no run from it is covered by the
reached-tree results. -/
namespace AgentWarrant.Edits.Machine
open AgentWarrant AgentWarrant.Edits

/-- Every node of the list, the first at position `o + 1`, has its parent at `o` or before. -/
def pblB : Nat → Tree → Bool
  | _, [] => true
  | o, n :: l => Nat.ble n.parent o && pblB (o + 1) l

/-- Every node's parent lies before it (`ParentsBefore`). -/
def parentsBeforeB (t : Tree) : Bool := pblB 0 t

/-- The links of the node `nb` at position `b` and a later node `nc` do not cross. -/
def uncrossedB (b : Nat) (nb nc : TNode) : Bool := Nat.ble nc.parent nb.parent || Nat.ble b nc.parent

/-- Every later node's link misses `nb`'s (at position `b`). -/
def laterUncrossedB (b : Nat) (nb : TNode) : Tree → Bool
  | [] => true
  | nc :: l => uncrossedB b nb nc && laterUncrossedB b nb l

/-- No two links of the list, the first node at position `k`, cross. -/
def ncFromB : Nat → Tree → Bool
  | _, [] => true
  | k, n :: l => laterUncrossedB k n l && ncFromB (k + 1) l

/-- Parent links do not cross (`NoCross`). -/
def noCrossB (t : Tree) : Bool := ncFromB 1 t

/-- Both properties the reached-tree results read of the root. -/
def rootOrderB (t : Tree) : Bool := parentsBeforeB t && noCrossB t

/-- The checked root update with the root tree's order checked: `start` when the tree has both. -/
def startChecked (d : Derived) : Option RState := match rootOrderB d.tree with
  | true => start d
  | false => none

end AgentWarrant.Edits.Machine
