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

/-- The oracle executable's entry point (`leanpkg build bin` → build/bin/AgentWarrant). -/
def main : IO Unit := AgentWarrant.Oracle.main
