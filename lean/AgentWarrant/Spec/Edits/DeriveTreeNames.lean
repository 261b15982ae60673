import AgentWarrant.Spec.Edits.DeriveTreeRoot
import AgentWarrant.Spec.Edits.DeriveTree
/-! The branch tree's names are distinct (*When Can Agents Safely Checkpoint, Fork, Restore, and
Merge?*, Section V-A and Appendix A-D1: every branch and group of `T` has its own name, and an edit's
new names are fresh).

Every tree change takes its new names fresh (`freshIn`) and `HStep` renames nothing, so a run's trees
keep distinct names once its root tree has them. The root tree is `Derive`'s input (`start` installs
`d.tree` unread), so distinctness is decided here on it, beside the order check of
`Spec/Edits/DeriveTreeRoot.lean`.

Choices: a sequence node is unnamed (its name field is 0 and `namesOf` skips it), so only branches,
groups and join barriers are compared; the check is quadratic in the tree's size, as `noCrossB` is; a
root with a repeated name is refused as a whole (`none`), as a root whose order check fails is. -/
namespace AgentWarrant.Edits.Machine
open AgentWarrant AgentWarrant.Edits

/-- No two named nodes of the tree share a name. -/
def namesDistinctB (t : Tree) : Bool := distinctN (namesOf t)

/-- The root update with both root checks: the order check (`startChecked`) and distinct names. -/
def startNamed (d : Derived) : Option RState := match namesDistinctB d.tree with
  | true => startChecked d
  | false => none

end AgentWarrant.Edits.Machine
