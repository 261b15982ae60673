import AgentWarrant.Lib
import AgentWarrant.Edits.Resolve
import AgentWarrant.Edits.Check
import AgentWarrant.Edits.Declarative
import AgentWarrant.Monitor.Labels
import AgentWarrant.Monitor.Ledger
import AgentWarrant.Monitor.Capacity
