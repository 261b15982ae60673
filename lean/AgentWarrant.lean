import AgentWarrant.Spec.Lib
import AgentWarrant.Thm
import AgentWarrant.Oracle.Main
import AgentWarrant.Spec.Edits.List
import AgentWarrant.Spec.Edits.Resolve
import AgentWarrant.Spec.Edits.Check
import AgentWarrant.Thm.Edits.Resolve
import AgentWarrant.Thm.Edits.Check
import AgentWarrant.Spec.Edits.Safety
import AgentWarrant.Thm.Edits.Safety
import AgentWarrant.Thm.Edits.Bridge
import AgentWarrant.Spec.Edits.Nonblocking
import AgentWarrant.Thm.Edits.Nonblocking
import AgentWarrant.Thm.Edits.Strictness
import AgentWarrant.Spec.Edits.Verify
import AgentWarrant.Thm.Edits.Verify
import AgentWarrant.Thm.Edits.Recheck
import AgentWarrant.Spec.Revision.Alternatives
import AgentWarrant.Thm.Monitor.Allocation
import AgentWarrant.Spec.Revision.ListLemmas
import AgentWarrant.Spec.Revision.Run
import AgentWarrant.Thm.Monitor.Determinism
import AgentWarrant.Spec.Revision.Charge
import AgentWarrant.Thm.Monitor.Invariants
import AgentWarrant.Spec.Revision.Ledger
import AgentWarrant.Thm.Revision.Bridge
import AgentWarrant.Thm.Revision.Simulation
import AgentWarrant.Thm.Revision.Structural
import AgentWarrant.Thm.Revision.Safety
import AgentWarrant.Spec.Revision.Closure
import AgentWarrant.Thm.Revision.Closure
import AgentWarrant.Oracle.Revision
import AgentWarrant.Spec.Revision.Policy
import AgentWarrant.Thm.Revision.Link
import AgentWarrant.Thm.Revision.ClosureBridge

/-- The oracle executable's entry point (`leanpkg build bin` → build/bin/AgentWarrant). -/
def main : IO Unit := AgentWarrant.Oracle.main
