import AgentWarrant.Oracle.MonitorFull
import AgentWarrant.Spec.Monitor.Registration
/-! The `policy_check` judgment: a policy in its JSON form (the whole monitor's input) is decoded and
its registration checked (`Spec/Monitor/Registration.lean`). A decoding failure (a label naming an
undeclared level, a missing field) is a registration error, not an oracle error, so the answer is
always a verdict: `{"ok": registrationOk, "errors": [check, ...]}` (the failed checks by name). -/
namespace AgentWarrant.Oracle.Registration
open Lean AgentWarrant.Oracle AgentWarrant.Monitor.Full

def policyCheck (j : Json) : Dec Json := do
  let (ok, errs) := match MonitorFull.policyOf (← req j "policy") with
    | Except.ok p => (registrationOk p, registrationErrors p)
    | Except.error e => (false, ["decoding: " ++ e])
  pure $ Json.mkObj [("ok", toJson ok), ("errors", toJson errs.toArray)]

def judgments : List Judgment := [("policy_check", policyCheck)]

end AgentWarrant.Oracle.Registration
