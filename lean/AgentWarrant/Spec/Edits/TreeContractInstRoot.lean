import AgentWarrant.Spec.Edits.TreeContractInst
import AgentWarrant.Spec.Edits.DeriveTreeArity
/-! The root's instance checked against the workflow contract `⟦T⟧` of the root tree (*When Can Agents
Safely Checkpoint, Fork, Restore, and Merge?*, Sections IV-A and IV-B1).

The root update (`startArity`) installs `Derive`'s input instance and tree unread, so the check every
edit's install passes (`instOutcomesAgreeB`, `Spec/Edits/TreeContractInst.lean`) is made here on the
root. Choice: the oracles report the verdict (`"rootContract"`) and still start the session from
`startArity`, so a root failing it shows as a mismatch beside the rest of the session's comparison rather
than as a refused root. -/
namespace AgentWarrant.Edits.Machine
open AgentWarrant AgentWarrant.Edits

/-- The root's instance's outcomes are `⟦T⟧` of the root tree. -/
def tciRootOk (d : Derived) : Bool := instOutcomesAgreeB d.inst d.tree

end AgentWarrant.Edits.Machine
