import AgentWarrant.Lib
import AgentWarrant.Edits.Resolve
import AgentWarrant.Edits.Check
