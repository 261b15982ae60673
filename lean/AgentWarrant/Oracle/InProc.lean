import AgentWarrant.Oracle.Main
import AgentWarrant.Oracle.MonitorFull
import AgentWarrant.Oracle.FastParse
/-! Entry points of the in-process library (lean/native/shim.c links them into
libagentwarrant.so; model/oracle/inproc.py loads it with ctypes).

Two uses. `aw_lean_handle` is the oracle executable's request handler on one JSON line (the DRT
runs every judgment through it, the same judgments as the subprocess oracle; the line is read by
`FastParse`). The others are the
enforcement backend's stateful half of the `monitor_decide`/`monitor_observe` judgments: the policy
is parsed once into a `Policy` value and the monitor state stays a `State` value; the caller keeps
both as opaque objects, and only the call (JSON text) and the verdict (compact JSON text) cross.
Their texts are read by `FastParse.parse` (the same values as `Parse.parse`, faster).
Every function is total: input errors come back as `Except.error`, never as a panic. -/
namespace AgentWarrant.Oracle.InProc
open Lean AgentWarrant.Monitor AgentWarrant.Monitor.Full AgentWarrant.Oracle.MonitorFull

/-- The oracle's request handler, the request read by `FastParse` (the same values as the executable's
`Parse`, checked by `agrees`; only a parse error's message can differ). -/
@[export aw_lean_handle]
def handleLine (line : String) : String := (Oracle.handleParsed (FastParse.parse line)).compress

@[export aw_lean_policy]
def policyText (text : String) : Except String Policy := do
  policyOf (← FastParse.parse text)

@[export aw_lean_state]
def stateText (text : String) : Except String State := do
  stateOf (← FastParse.parse text)

def natsText (l : List Nat) : String := "[" ++ ",".intercalate (l.map toString) ++ "]"
def boolText (b : Bool) : String := if b then "true" else "false"

def labelText (l : Label) : String :=
  "{\"sens\":" ++ toString l.sens ++ ",\"cats\":[" ++ ",".intercalate (l.cats.map boolText) ++
  "],\"trusted\":" ++ boolText l.trusted ++ "}"

/-- `verdictFields v` and the ID, written directly as JSON text (the same keys and values; building
a `Json` value and compressing it cost more than the decision). Strings go through `Json.compress`
for their escapes. -/
def verdictText (v : Full.Verdict) (id : Nat) : String :=
  let tail := ",\"id\":" ++ toString id ++ "}"
  match v with
  | Full.Verdict.allow l pu pa k =>
    "{\"decision\":\"allow\",\"reason\":null,\"waiting\":[],\"label\":" ++ labelText l ++ ",\"user\":" ++
    natsText pu ++ ",\"app\":" ++ natsText pa ++ ",\"permit\":" ++
    (match k with | some n => toString n | none => "null") ++ tail
  | Full.Verdict.pause w =>
    "{\"decision\":\"pause\",\"reason\":null,\"waiting\":[" ++ ",".intercalate (w.map (fun x => (Json.str x).compress)) ++
    "],\"label\":null,\"user\":null,\"app\":null,\"permit\":null" ++ tail
  | Full.Verdict.deny r =>
    "{\"decision\":\"deny\",\"reason\":" ++ (Json.str r).compress ++
    ",\"waiting\":[],\"label\":null,\"user\":null,\"app\":null,\"permit\":null" ++ tail

/-- `D(S, c)` and, on Allow, the commit: the next state and the verdict's fields, plus `id`, the
trace position the committed record got (the caller's handle for `aw_lean_observe`). -/
@[export aw_lean_decide]
def decideText (p : Policy) (s : State) (call : String) : Except String (State × String) := do
  let c ← callOf (← FastParse.parse call)
  let v := decideFull p s c
  let s' := match v with
    | Full.Verdict.allow l pu pa k => commit p s c l pu pa k
    | _ => s
  pure (s', verdictText v s.trace.length)

/-- The declared outcome of admitted attempt `d` processed; `value` is the result's JSON text. -/
@[export aw_lean_observe]
def observeText (p : Policy) (s : State) (d : USize) (ok : UInt8) (value : String) : Except String State := do
  let v ← FastParse.parse value
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
