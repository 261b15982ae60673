import AgentWarrant.Oracle.Main
import AgentWarrant.Oracle.MonitorFull
import AgentWarrant.Oracle.FastParse
import AgentWarrant.Oracle.Depth
import AgentWarrant.Oracle.Keys
/-! Entry points of the in-process library (lean/native/shim.c links them into
libagentwarrant.so; model/oracle/inproc.py loads it with ctypes).

Two uses. `aw_lean_handle` is the oracle executable's request handler on one JSON line (the DRT
runs every judgment through it, the same judgments as the subprocess oracle; the line is read by
`FastParse`). The others are the
enforcement backend's stateful half of the `monitor_decide`/`monitor_observe` judgments: the policy
is parsed once into a `Policy` value and the monitor state stays a `State` value; the caller keeps
both as opaque objects, and only the call (JSON text) and the verdict (compact JSON text) cross.
Their texts are read by `FastParse.parse` (the same values as `Parse.parse`, faster) and held to the
oracle's nesting bound and distinct object names (`boundedText`).
Every function is total: input errors come back as `Except.error`, never as a panic. -/
namespace AgentWarrant.Oracle.InProc
open Lean AgentWarrant.Monitor AgentWarrant.Monitor.Full AgentWarrant.Oracle.MonitorFull

/-- The oracle's request handler, the request read by `FastParse` (the same values as the executable's
`Parse`, checked by `agrees`; only a parse error's message can differ). -/
@[export aw_lean_handle]
def handleLine (line : String) : String := (Oracle.handleParsed (FastParse.parse line)).compress

/-- A JSON text read by `FastParse` once, kept by the caller as an opaque value (the policy of a whole
DRT run of the `monitor` judgment, for `aw_lean_handle_with`). -/
@[export aw_lean_json]
def jsonText (text : String) : Except String Json := FastParse.parse text

/-- The request `j` with `p` as its input's `policy` (a request whose input is not an object is left as
it is, for the handler to refuse). -/
def withPolicy (p : Json) (j : Json) : Json :=
  match j, j.getObjVal? "input" with
  | Json.obj _, Except.ok input@(Json.obj _) => j.setObjVal! "input" (input.setObjVal! "policy" p)
  | _, _ => j

/-- The request handler on a request line whose input lacks its `policy`, given as the value `p`
(`aw_lean_json`): the answer `handleLine` gives the request with `p` in its input, without reading
the policy's text again at every step of a run. -/
@[export aw_lean_handle_with]
def handleWith (p : Json) (line : String) : String :=
  (Oracle.handleParsed (withPolicy p <$> FastParse.parse line)).compress

/-- A JSON text read by `FastParse` and held to the nesting bound the oracle's requests are
(`Oracle/Depth.lean`) and to distinct object names (`Oracle/Keys.lean`): the stateful monitor path's
policy, state, call and outcome texts. -/
def boundedText (text : String) : Except String Json := do
  admitKeys (← admitDepth (← FastParse.parse text))

@[export aw_lean_policy]
def policyText (text : String) : Except String Policy := do
  policyOf (← boundedText text)

@[export aw_lean_state]
def stateText (text : String) : Except String State := do
  stateOf (← boundedText text)

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
  let c ← callOf (← boundedText call)
  let v := decideFull p s c
  let s' := match v with
    | Full.Verdict.allow l pu pa k => commit p s c l pu pa k
    | _ => s
  pure (s', verdictText v s.trace.length)

/-! The positional forms, for the enforcement backend's per-call path (model/oracle/backend.py's
`InProcCore`): the call crosses as `[agent, tool, {args}, [[name, id], ...], [[name, path], ...]]`
(read by position, no key lookups) and the verdict comes back as `<id>;A<sens>;<cats>;<trusted>;<user>;<app>;<permit>`
(categories as a 0/1 string, positions comma-separated, no permit empty), `<id>;P<waiting as a JSON
array>` or `<id>;D<reason as a JSON string>`. The same values as `callOf` and `verdictText`. -/

def refOf (v : Json) : Except String (String × Nat) := match v with
  | Json.arr a => match a.toList with
    | [Json.str n, d] => match (fromJson? d : Except String Nat) with
      | Except.ok k => pure (n, k)
      | Except.error e => throw s!"refs: {e}"
    | _ => throw "refs: expected [name, id] pairs"
  | _ => throw "refs: expected [name, id] pairs"

def refPathOf (v : Json) : Except String (String × String) := match v with
  | Json.arr a => match a.toList with
    | [Json.str n, Json.str q] => pure (n, q)
    | _ => throw "ref_paths: expected [name, path] pairs"
  | _ => throw "ref_paths: expected [name, path] pairs"

def arrList (what : String) (f : Json → Except String α) (v : Json) : Except String (List α) := match v with
  | Json.arr a => a.toList.mapM f
  | _ => throw s!"{what}: expected an array"

def callPos (j : Json) : Except String Call := match j with
  | Json.arr a => match a.toList with
    | [Json.str agent, Json.str tool, args, refs, paths] => do
      pure ⟨agent, tool, ← objPairs args, ← arrList "refs" refOf refs, ← arrList "ref_paths" refPathOf paths⟩
    | _ => throw "a call is [agent, tool, args, refs, ref_paths]"
  | _ => throw "a call is [agent, tool, args, refs, ref_paths]"

def bitsText (l : List Bool) : String := String.mk (l.map (fun (b : Bool) => if b = true then '1' else '0'))
def csvText (l : List Nat) : String := ",".intercalate (l.map toString)

def verdictPos (v : Full.Verdict) (id : Nat) : String :=
  toString id ++ match v with
  | Full.Verdict.allow l pu pa k =>
    ";A" ++ toString l.sens ++ ";" ++ bitsText l.cats ++ ";" ++ (if l.trusted then "1" else "0") ++ ";" ++
    csvText pu ++ ";" ++ csvText pa ++ ";" ++ (match k with | some n => toString n | none => "")
  | Full.Verdict.pause w => ";P" ++ (Json.arr (w.map Json.str).toArray).compress
  | Full.Verdict.deny r => ";D" ++ (Json.str r).compress

/-- `decideText` on the positional forms. -/
@[export aw_lean_decide_pos]
def decidePos (p : Policy) (s : State) (call : String) : Except String (State × String) := do
  let c ← callPos (← boundedText call)
  let v := decideFull p s c
  let s' := match v with
    | Full.Verdict.allow l pu pa k => commit p s c l pu pa k
    | _ => s
  pure (s', verdictPos v s.trace.length)

/-- `observeText` for an outcome whose value the caller did not read (`null`), with nothing to parse. -/
@[export aw_lean_observe_null]
def observeNull (p : Policy) (s : State) (d : USize) (ok : UInt8) : State :=
  observe p s d.toNat ⟨ok != 0, Json.null⟩

/-- The declared outcome of admitted attempt `d` processed; `value` is the result's JSON text. -/
@[export aw_lean_observe]
def observeText (p : Policy) (s : State) (d : USize) (ok : UInt8) (value : String) : Except String State := do
  let v ← boundedText value
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
