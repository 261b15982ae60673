import AgentWarrant.Oracle.Main
import AgentWarrant.Oracle.MonitorFull
/-! Entry points of the in-process library (lean/native/shim.c links them into
libagentwarrant.so; model/oracle/inproc.py loads it with ctypes).

Two uses. `aw_lean_handle` is the oracle executable's request handler on one JSON line (the DRT
runs every judgment through it, the same code as the subprocess oracle). The others are the
enforcement backend's stateful half of the `monitor_decide`/`monitor_observe` judgments: the policy
is parsed once into a `Policy` value and the monitor state stays a `State` value; the caller keeps
both as opaque objects, and only the call (JSON text) and the verdict (compact JSON text) cross.
Every function is total: input errors come back as `Except.error`, never as a panic. -/
namespace AgentWarrant.Oracle.InProc
open Lean AgentWarrant.Monitor AgentWarrant.Monitor.Full AgentWarrant.Oracle.MonitorFull

@[export aw_lean_handle]
def handleLine (line : String) : String := (Oracle.handle line).compress

@[export aw_lean_policy]
def policyText (text : String) : Except String Policy := do
  policyOf (← Parse.parse text)

@[export aw_lean_state]
def stateText (text : String) : Except String State := do
  stateOf (← Parse.parse text)

/-- `D(S, c)` and, on Allow, the commit: the next state and the verdict's fields, plus `id`, the
trace position the committed record got (the caller's handle for `aw_lean_observe`). -/
@[export aw_lean_decide]
def decideText (p : Policy) (s : State) (call : String) : Except String (State × String) := do
  let c ← callOf (← Parse.parse call)
  let v := decideFull p s c
  let s' := match v with
    | Full.Verdict.allow l pu pa k => commit p s c l pu pa k
    | _ => s
  pure (s', (Json.mkObj (verdictFields v ++ [("id", toJson s.trace.length)])).compress)

/-- The declared outcome of admitted attempt `d` processed; `value` is the result's JSON text. -/
@[export aw_lean_observe]
def observeText (p : Policy) (s : State) (d : USize) (ok : UInt8) (value : String) : Except String State := do
  let v ← Parse.parse value
  pure (observe p s d.toNat ⟨ok != 0, v⟩)

/-- The whole state in the `monitor_decide` judgment's output form. -/
@[export aw_lean_state_json]
def stateJson (s : State) : String := (normJ (stateJ s)).compress

/-- The trace's length (the next record's ID), without writing the state. -/
@[export aw_lean_trace_length]
def traceLength (s : State) : USize := s.trace.length.toUSize

/-- A deliberate panic, so the caller's tests can check that a panic inside Lean is reported as a
fault rather than read as an answer. -/
@[export aw_lean_panic_probe]
def panicProbe (text : String) : String := panic! s!"panic probe: {text}"

end AgentWarrant.Oracle.InProc
