import AgentWarrant.Oracle.Common
import AgentWarrant.Spec.Monitor.Step
/-! The monitor's judgments in the oracle: `ledger_allocate` and `monitor_step` (model/oracle/monitor_json.py
writes their inputs and reads their outputs). -/
namespace AgentWarrant.Oracle.Monitor
open Lean AgentWarrant.Oracle AgentWarrant.Monitor

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

def judgments : List Judgment := [("ledger_allocate", ledgerAllocate), ("monitor_step", monitorStep)]

end AgentWarrant.Oracle.Monitor
