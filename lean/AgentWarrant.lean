import AgentWarrant.Lib
import AgentWarrant.Edits.Resolve
import AgentWarrant.Edits.Check
import AgentWarrant.Edits.Declarative
import AgentWarrant.Monitor.Labels
import AgentWarrant.Monitor.Ledger
import AgentWarrant.Monitor.Capacity
import AgentWarrant.Monitor.Step
import AgentWarrant.Oracle.Main
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
