import AgentWarrant.Lib
import AgentWarrant.Edits.Resolve
import AgentWarrant.Edits.Check
import AgentWarrant.Edits.Declarative
