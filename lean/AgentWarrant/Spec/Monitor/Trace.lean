import AgentWarrant.Spec.Monitor.Transition
/-! The whole monitor over a trace (Agenra Sections 6.1–6.3): each call is decided in the state the
earlier calls left, and the declared outcome of an admitted call is processed before the next call.

A trace is a list of (call, outcome) pairs. Choice where the paper is silent: the outcome paired
with a call the monitor does not admit is never read (the tool does not run). -/
namespace AgentWarrant.Monitor.Full
open Lean AgentWarrant.Monitor

def isAllowV : Verdict → Bool
  | Verdict.allow _ _ _ _ => true
  | _ => false

/-- The verdicts of a trace and the state it ends in. -/
def runFull (p : Policy) : State → List (Call × Outcome) → List Verdict × State
  | s, [] => ([], s)
  | s, (c, o) :: cs =>
    let r := stepFull p s c o
    let rest := runFull p r.2 cs
    (r.1 :: rest.1, rest.2)

/-- The calls of a trace that the monitor admits (with their outcomes), computed along the run. -/
def admittedFull (p : Policy) : State → List (Call × Outcome) → List (Call × Outcome)
  | _, [] => []
  | s, (c, o) :: cs => match isAllowV (stepFull p s c o).1 with
    | true => (c, o) :: admittedFull p (stepFull p s c o).2 cs
    | false => admittedFull p (stepFull p s c o).2 cs

end AgentWarrant.Monitor.Full
