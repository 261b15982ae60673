import AgentWarrant.Oracle.ArgCoverClass
import AgentWarrant.Spec.Monitor.Registration
/-! `arg_cover_policy` and `arg_cover_class` with the tools they are given checked first (Agenra Sections
6.1 and 7.1): every effect of every tool must pass registration's effect clause `effArgOk` (a resource
constant a JSON scalar or null, `resConstOk`; a resource argument one the tool declares). The rest of
registration's tool clause `toolOk` (the tool's edge and nodes, its required arguments) reads the policy's
edges and nodes, which the input lacks, and coverage needs only the resource constants' form
(`Revision.ArgCover.ToolResScalar`). A tool failing the check gets `{"answer": "invalid", "reason": text,
"tool": name, …}` (the other keys as `arg_cover_policy`'s, null or empty) rather than a question written
for a tool registration refuses. Input and output are otherwise those of `Oracle/ArgCover.lean` and
`Oracle/ArgCoverClass.lean`; `argCoverPolicyAnswer` is what `arg_cover_policy` answers once its input is
decoded, the function `Thm.oracleCoverageIsMonitorMatchingToolChecked` speaks of; `classChkAnswer` is what
`arg_cover_class` answers once its input is decoded, the function `Thm.oracleClassCoverageToolChecked` speaks
of, and the judgment returns it (`Revision.ArgCover.classChkJOut`). -/
namespace AgentWarrant.Oracle.ArgCoverToolChk
open Lean AgentWarrant.Oracle AgentWarrant.Oracle.ArgCover AgentWarrant.Monitor.Full AgentWarrant.Revision.ArgCover

/-- The first tool with an effect registration's `effArgOk` refuses. -/
def toolChkBad : List Tool → Option Tool
  | [] => none
  | t :: ts => match t.effects.all (effArgOk t) with
    | true => toolChkBad ts
    | false => some t

def toolChkInvalidJ (t : Tool) : Json :=
  Json.mkObj [("answer", toJson "invalid"),
    ("reason", toJson s!"tools: tool {t.name} has an effect registration refuses (a resource constant that is an array or object, or a resource argument the tool does not declare)"),
    ("tool", toJson t.name), ("names", Json.null), ("witness", Json.null), ("vector", Json.null),
    ("questions", Json.arr #[])]

/-- `arg_cover_policy`'s answer on decoded input: the tools checked; then, with scalar constants only, `wayQ`'s
questions (`Thm.leanWrittenCoverageIsMonitorMatching`), else `wayQR`'s (`wayQA`'s with an array or object resource
constant's entry never matching), else `outside`. -/
def argCoverPolicyAnswer (a : String) (tools : List Tool) (gs : List Monitor.Full.Grant) (E : Option (List Json))
    (listedS : List String) (listed : List (List Bool)) : Json :=
  match toolChkBad tools with
  | some t => toolChkInvalidJ t
  | none => match allB Revision.ArgCover.grantOk (ofAction a gs), allB grantOkR (ofAction a gs) with
    | true, _ => decideWays listedS listed (somesQ ((ways a tools).map (fun w => wayQ a tools gs E w.1 w.2))) []
    | false, true => decideWays listedS listed (somesQ ((ways a tools).map (fun w => wayQR a tools gs E w.1 w.2))) []
    | false, false => outsideJ a (outsideOfR a 0 gs)

def argCoverPolicyChkJ (j : Json) : Dec Json := withPolicyInput j argCoverPolicyAnswer

end AgentWarrant.Oracle.ArgCoverToolChk

namespace AgentWarrant.Oracle.ArgCoverClassChk
open Lean AgentWarrant.Oracle AgentWarrant.Monitor.Full AgentWarrant.Revision.ArgCover

/-- `arg_cover_class`'s answer on decoded input: the tools checked, then the routed class answer
`classAllOut` (`Oracle/ArgCoverClass.lean`). -/
def classChkAnswer (fs : List Fact) (a : String) (tools : List Tool) (gs : List Monitor.Full.Grant)
    (E : Option (List Json)) (listedS : List String) (listed : List (List Bool)) : Json :=
  match ArgCoverToolChk.toolChkBad tools with
  | some t => ArgCoverToolChk.toolChkInvalidJ t
  | none => ArgCoverClass.classAllOut fs a tools gs E listedS listed

end AgentWarrant.Oracle.ArgCoverClassChk

namespace AgentWarrant.Oracle.ArgCoverToolChk
open Lean AgentWarrant.Oracle AgentWarrant.Oracle.ArgCover AgentWarrant.Monitor.Full AgentWarrant.Revision.ArgCover

/-- `arg_cover_class`: `classChkAnswer` on what it decodes. A tool the check refuses is answered whatever the
rest of the input holds, so the rest is decoded only once the tools pass (the answer then reads none of it). -/
def argCoverClassChkJ (j : Json) : Dec Json := do
  let tools ← arrOf Oracle.MonitorFull.toolOf j "tools"
  let r ← match toolChkBad tools with
    | some _ => pure (([], "", [], none, [], []) : ArgCoverClass.ClassRest)
    | none => ArgCoverClass.classRestJ j
  pure (ArgCoverClassChk.classChkAnswer r.1 r.2.1 tools r.2.2.1 r.2.2.2.1 r.2.2.2.2.1 r.2.2.2.2.2)

/-- `arg_cover` unchanged; the two judgments that read tools, checked. -/
def judgments : List Judgment :=
  [("arg_cover", argCoverJ), ("arg_cover_policy", argCoverPolicyChkJ), ("arg_cover_class", argCoverClassChkJ)]

end AgentWarrant.Oracle.ArgCoverToolChk
