import AgentWarrant.Spec.Lib
import AgentWarrant.Edits.Resolve
import AgentWarrant.Edits.Check
import AgentWarrant.Edits.Declarative
import AgentWarrant.Thm
import AgentWarrant.Oracle.Main

/-- The oracle executable's entry point (`leanpkg build bin` → build/bin/AgentWarrant). -/
def main : IO Unit := AgentWarrant.Oracle.main
