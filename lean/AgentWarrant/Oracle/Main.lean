import Lean.Data.Json
import AgentWarrant.Spec.Edits.Check
import AgentWarrant.Oracle.Edits
import AgentWarrant.Monitor.Step
/-! The oracle executable: JSON lines in, JSON lines out (model/oracle/lean.py drives it).

Request:  `{"id": n, "judgment": "edit_check" | "resolve" | "ledger_allocate" | "monitor_step", "input": {...}}`
Response: `{"id": n, "output": {...}}`, or `{"id": n | null, "error": {"kind": k, "message": m}}` with
`k` one of `parse` (the line is not JSON), `request` (no id/judgment/input), `unknown_judgment`,
`input` (the input does not have the judgment's shape). Errors are plumbing, never verdicts.
Every key of an input is required (an optional value is written `null`), so a misspelt key is an
`input` error rather than a silently defaulted field. -/
namespace AgentWarrant.Oracle
open Lean AgentWarrant.Edits AgentWarrant.Monitor

abbrev Dec := Except String

def req (j : Json) (k : String) : Dec Json := j.getObjVal? k

def getAs (α : Type) [FromJson α] (j : Json) (k : String) : Dec α := do
  let v ← req j k
  match fromJson? v with
  | Except.ok a => pure a
  | Except.error e => throw s!"{k}: {e}"

def arrOf (f : Json → Dec α) (j : Json) (k : String) : Dec (List α) := do
  let a ← getAs (Array Json) j k
  let mut out := #[]
  for x in a do
    out := out.push (← f x)
  pure out.toList

def natList (j : Json) (k : String) : Dec (List Nat) := do pure (← getAs (Array Nat) j k).toList
def boolList (j : Json) (k : String) : Dec (List Bool) := do pure (← getAs (Array Bool) j k).toList
def strList (j : Json) (k : String) : Dec (List String) := do pure (← getAs (Array String) j k).toList

def natListJ (j : Json) : Dec (List Nat) := do
  match fromJson? j with
  | Except.ok (a : Array Nat) => pure a.toList
  | Except.error e => throw e

def jNats (l : List Nat) : Json := toJson l.toArray

-- edit_check and resolve --------------------------------------------------------------------

def letterJ (l : Letter) : Json := Json.arr #[toJson l.call, toJson l.action, toJson l.new]
def wordJ (w : Word) : Json := Json.arr (w.map letterJ).toArray
def candJ (c : Cand) : Json := Json.arr #[toJson c.1, wordJ c.2]

def outcomeD (j : Json) : Dec Outcome := do
  pure ⟨← getAs Nat j "id", ← arrOf natListJ j "lins"⟩

def instD (j : Json) : Dec Inst := do
  pure ⟨← arrOf outcomeD j "outcomes", ← natList j "act", ← natList j "lab", ← natList j "log",
        ← arrOf natListJ j "policy"⟩

def editCheck (j : Json) : Dec Json := do
  let i ← instD j
  let b := b0 i
  let s := safeSet i
  pure $ Json.mkObj [
    ("accepts", toJson (accepts i)),
    ("candidates", Json.arr (b.map candJ).toArray),
    ("safe", Json.arr (s.map candJ).toArray),
    ("sizes", jNats (sizes i (List.length b) b))]

def resolveJ (j : Json) : Dec Json := do
  let act ← natList j "act"
  let d ← natList j "authorized"
  let w ← natList j "word"
  pure $ Json.mkObj [("word", wordJ (resolve act d w))]

-- labels --------------------------------------------------------------------------------------

def labelD (j : Json) : Dec Label := do
  pure ⟨← getAs Nat j "sens", ← boolList j "cats", ← getAs Bool j "trusted"⟩

def labelJ (l : Label) : Json :=
  Json.mkObj [("sens", toJson l.sens), ("cats", toJson l.cats.toArray), ("trusted", toJson l.trusted)]

-- ledger_allocate -------------------------------------------------------------------------------

def entryD (j : Json) : Dec Entry := do
  pure ⟨← getAs Bool j "allow", ← getAs Bool j "ready", ← boolList j "hits", ← getAs (Option Nat) j "quota",
        ← getAs Nat j "used", ← getAs (Option String) j "requires"⟩

def allocJ (es : List Entry) (n : Nat) : Json :=
  match alloc (es.map account) (range 0 n) with
  | none => Json.null
  | some ps => Json.mkObj [("positions", jNats ps), ("charge", jNats (chargeVec 0 (List.length es) ps))]

def ledgerAllocate (j : Json) : Dec Json := do
  let u ← arrOf entryD j "user"
  let a ← arrOf entryD j "app"
  let n ← getAs Nat j "effects"
  let both := match allocBoth (u.map account) (a.map account) (range 0 n) with
    | none => false
    | some _ => true
  pure $ Json.mkObj [("user", allocJ u n), ("app", allocJ a n), ("both", toJson both)]

-- monitor_step ----------------------------------------------------------------------------------

def transformD (j : Json) : Dec (Option Transform) := do
  match j with
  | Json.null => pure none
  | _ => pure (some ⟨← boolList j "remove", ← getAs Nat j "decrement", ← getAs (Option Nat) j "set_sens",
                     ← getAs (Option Bool) j "set_trusted"⟩)

def guardD (j : Json) : Dec Guard := do
  pure ⟨← getAs (Option Nat) j "max_sens", ← getAs (Option Nat) j "min_sens", ← boolList j "any_cat",
        ← boolList j "no_cat", ← getAs (Option Bool) j "trusted"⟩

def flowD (j : Json) : Dec Flow := do
  pure ⟨← getAs Bool j "deny", ← getAs String j "operation", ← getAs String j "destination",
        ← guardD (← req j "guard")⟩

def stepD (j : Json) : Dec StepIn := do
  pure {
    prep := ← getAs (Option String) j "prep"
    trace := ← arrOf labelD j "trace"
    parents := ← natList j "parents"
    sourceLabel := ← labelD (← req j "source_label")
    propagation := ← transformD (← req j "propagation")
    agentKnown := ← getAs Bool j "agent_known"
    opPermitted := ← getAs Bool j "operation_permitted"
    endpointOk := ← getAs Bool j "endpoint_ok"
    ceiling := ← getAs Nat j "ceiling"
    nEffects := ← getAs Nat j "effects"
    user := ← arrOf entryD j "user"
    app := ← arrOf entryD j "app"
    originOk := ← getAs Bool j "origin_ok"
    operation := ← getAs String j "operation"
    destination := ← getAs String j "destination"
    flows := ← arrOf flowD j "flows"
    historyOk := ← getAs Bool j "history_ok" }

def reasonS : Reason → String
  | Reason.prep why => why
  | Reason.unknownAgent => "unknown_agent"
  | Reason.operationNotPermitted => "operation_not_permitted"
  | Reason.endpoint => "endpoint"
  | Reason.ceiling => "ceiling"
  | Reason.explicitDeny => "explicit_deny"
  | Reason.noMatchingAllow => "no_matching_allow"
  | Reason.origin => "origin"
  | Reason.flow => "flow"
  | Reason.history => "history"
  | Reason.quota => "quota"

def monitorStep (j : Json) : Dec Json := do
  let i ← stepD j
  let o := step i
  let (d, reason, waiting, label, pu, pa) := match o.decision with
    | Decision.allow l pu pa => ("allow", Json.null, [], labelJ l, jNats pu, jNats pa)
    | Decision.pause w => ("pause", Json.null, w, Json.null, Json.null, Json.null)
    | Decision.deny r => ("deny", toJson (reasonS r), [], Json.null, Json.null, Json.null)
  pure $ Json.mkObj [
    ("decision", toJson d), ("reason", reason), ("waiting", toJson waiting.toArray), ("label", label),
    ("user", pu), ("app", pa), ("used_user", jNats o.usedUser), ("used_app", jNats o.usedApp),
    ("trace", Json.arr (o.trace.map labelJ).toArray)]

-- the loop ---------------------------------------------------------------------------------------

def errorJ (id : Json) (kind msg : String) : Json :=
  Json.mkObj [("id", id), ("error", Json.mkObj [("kind", toJson kind), ("message", toJson msg)])]

def handle (line : String) : Json :=
  match Json.parse line with
  | Except.error e => errorJ Json.null "parse" e
  | Except.ok j =>
    match req j "id", getAs String j "judgment", req j "input" with
    | Except.ok id, Except.ok name, Except.ok input =>
      let run := match name with
        | "edit_check" => some (editCheck input)
        | "resolve" => some (resolveJ input)
        | "ledger_allocate" => some (ledgerAllocate input)
        | "monitor_step" => some (monitorStep input)
        | "verify_rejection" => some (AgentWarrant.Oracle.Edits.verifyRejection input)
        | _ => none
      match run with
      | none => errorJ id "unknown_judgment" s!"no judgment {name}"
      | some (Except.error e) => errorJ id "input" e
      | some (Except.ok out) => Json.mkObj [("id", id), ("output", out)]
    | Except.error e, _, _ => errorJ Json.null "request" e
    | _, Except.error e, _ => errorJ (j.getObjValD "id") "request" e
    | _, _, Except.error e => errorJ (j.getObjValD "id") "request" e

partial def loop (inp : IO.FS.Stream) (out : IO.FS.Stream) : IO Unit := do
  let line ← inp.getLine
  if line.isEmpty then return ()
  let t := line.trim
  if !t.isEmpty then
    out.putStrLn (handle t).compress
    out.flush
  loop inp out

def main : IO Unit := do
  loop (← IO.getStdin) (← IO.getStdout)

end AgentWarrant.Oracle
