import AgentWarrant.Spec.Monitor.Trace
/-! Permit issuance (Agenra Table 1: the application, never the agent, issues an exact-call permit),
and runs that interleave it with the monitor's transitions. A permit takes the next ID (the number
of permits issued so far) and starts unconsumed, as `issue_permit` does in the Python model. Whether
the application may issue a permit (a signed approval's evidence check, `model/monitor/decide/permits.py`)
is outside the monitor's state: `Spec/Monitor/Evidence.lean` models that check and the runs it gates
(`runGated`), whose monitor state is a `runEvents` run (`runGatedProj`). -/
namespace AgentWarrant.Monitor.Full
open Lean AgentWarrant.Monitor

def issuePermit (s : State) (tool : String) (ident : List (String × Ident)) : State :=
  { s with permits := s.permits ++ [⟨List.length s.permits, tool, ident, false⟩] }

/-- What happens in a task: the agent proposes a call (with its declared outcome), or the application
issues a permit. -/
inductive Event where
  | call (c : Call) (o : Outcome)
  | issue (tool : String) (ident : List (String × Ident))

def runEvents (p : Policy) : State → List Event → State
  | s, [] => s
  | s, Event.call c o :: es => runEvents p (stepFull p s c o).2 es
  | s, Event.issue t i :: es => runEvents p (issuePermit s t i) es

end AgentWarrant.Monitor.Full
