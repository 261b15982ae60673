import Lean.Data.Json
import AgentWarrant.Spec.Edits.Check
import AgentWarrant.Spec.Edits.WellFormed
import AgentWarrant.Spec.Edits.Certificate
import AgentWarrant.Oracle.Common
import AgentWarrant.Oracle.Depth
import AgentWarrant.Oracle.Keys
import AgentWarrant.Oracle.Monitor
import AgentWarrant.Oracle.MonitorFull
import AgentWarrant.Oracle.Parse
import AgentWarrant.Oracle.Edits
import AgentWarrant.Oracle.Revision
import AgentWarrant.Oracle.Runtime
import AgentWarrant.Oracle.Registration
import AgentWarrant.Oracle.Evidence
import AgentWarrant.Oracle.GlobCover
import AgentWarrant.Oracle.ArgCover
import AgentWarrant.Oracle.ArgCoverClass
import AgentWarrant.Oracle.ArgCoverToolChk
import AgentWarrant.Oracle.DeriveRT
import AgentWarrant.Oracle.TreeContract
/-! The oracle executable: JSON lines in, JSON lines out (model/oracle/lean.py drives it).

Request:  `{"id": n, "judgment": "edit_check" | "resolve" | "ledger_allocate" | "monitor_step" | "monitor" | "verify_rejection" | …, "input": {...}}`
Response: `{"id": n, "output": {...}}`, or `{"id": n | null, "error": {"kind": k, "message": m}}` with
`k` one of `parse` (the line is not JSON), `request` (no id/judgment/input), `unknown_judgment`,
`input` (the input does not have the judgment's shape, or nests `jsonFuel` or more levels deep:
`Oracle/Depth.lean`, checked before the judgment runs). Errors are plumbing, never verdicts.
Adding a judgment module `Oracle/X.lean` (with its own `judgments` list) takes one import and one
line in `judgments` below. -/
namespace AgentWarrant.Oracle
open Lean AgentWarrant.Edits

-- edit_check and resolve --------------------------------------------------------------------

def letterJ (l : Letter) : Json := Json.arr #[toJson l.call, toJson l.action, toJson l.new]
def wordJ (w : Word) : Json := Json.arr (w.map letterJ).toArray
def candJ (c : Cand) : Json := Json.arr #[toJson c.1, wordJ c.2]

def removalJ (r : Removal) : Json :=
  Json.mkObj [("cand", candJ r.cand), ("pre", wordJ r.pre), ("miss", toJson r.miss)]

/-- The rejection proof the checker's rounds yield (`proofOf`, proved accepted by the verifier). -/
def proofJ (i : Inst) : Json :=
  Json.mkObj [("family", Json.arr ((proofFamily i).map candJ).toArray),
    ("rounds", Json.arr ((proofOf i).map (fun E => Json.arr (E.map removalJ).toArray)).toArray)]

/-- The coverage witnesses first, decided from the source results (`Cover.coverB`,
`Spec/Edits/Cover.lean`): `invalid` with reason `required-result-dropped` and `coverage: false` when a
still-required result has no complete covering target outcome, as the derivation is then undefined
(`coverage` is reported with every answer, vacuously true without `"sources"`); then the raw
instance's well-formedness (`invalid` with the reason class); then the finite
checker on the finite form computed from the pomsets and the policy automaton (`Oracle.Edits.instD`):
`accepts`, `B̂₀`, `B̂†` (`safe`), `W†` (`prefixes`), the round sizes, the computed finite form
(`lins` per outcome, `policy` words) for comparison, and on a rejection its proof (`proof`). -/
def editCheck (j : Json) : Dec Json := do
  let pi ← Oracle.Edits.pinstD j
  let i := build pi
  let r ← Oracle.Edits.rawD j i
  let src ← Oracle.Edits.sourcesD j
  match Cover.coverB pi src, wellFormed r with
  | false, _ => pure $ Json.mkObj [("verdict", toJson "invalid"),
      ("reason", toJson "required-result-dropped"), ("coverage", toJson false)]
  | true, some why => pure $ Json.mkObj [("verdict", toJson "invalid"), ("reason", toJson why.name),
      ("coverage", toJson true)]
  | true, none =>
    let b := b0 i
    let s := safeSet i
    pure $ Json.mkObj [
      ("verdict", toJson (match Cover.answer pi src with | Cover.Answer.accepted => "accepted" | _ => "rejected")),
      ("coverage", toJson (Cover.coverB pi src)),
      ("accepts", toJson (accepts i)),
      ("candidates", Json.arr (b.map candJ).toArray),
      ("safe", Json.arr (s.map candJ).toArray),
      ("prefixes", Json.arr ((wdag s).map wordJ).toArray),
      ("sizes", jNats (sizes i (List.length b) b)),
      ("lins", Json.arr (i.outs.map (fun o => Json.arr (o.lins.map jNats).toArray)).toArray),
      ("policy", Json.arr (i.policy.map jNats).toArray),
      ("proof", match accepts i with
        | true => Json.null
        | false => proofJ i)]

def resolveJ (j : Json) : Dec Json := do
  let act ← natList j "act"
  let d ← natList j "authorized"
  let w ← natList j "word"
  pure $ Json.mkObj [("word", wordJ (resolve act d w))]

/-- Every judgment the oracle answers, by module. -/
def judgments : List Judgment :=
  [("edit_check", editCheck), ("resolve", resolveJ),
   ("verify_rejection", Oracle.Edits.verifyRejection), ("check_reg", Oracle.Edits.checkRegJ),
   ("simulation_closure", Oracle.Revision.simulationClosure),
   ("edit_runtime", Oracle.Runtime.editRuntime), ("edit_ideal", Oracle.Runtime.editIdeal)] ++
  Oracle.Monitor.judgments ++
  Oracle.MonitorFull.judgments ++
  Oracle.Registration.judgments ++
  Oracle.Evidence.judgments ++
  Oracle.GlobCover.judgments ++
  -- `arg_cover_policy` and `arg_cover_class` with their tools checked (`ArgCoverToolChk`)
  Oracle.ArgCoverToolChk.judgments ++
  Oracle.DeriveRT.judgments ++
  Oracle.TreeContract.judgments

-- the loop ---------------------------------------------------------------------------------------

def errorJ (id : Json) (kind msg : String) : Json :=
  Json.mkObj [("id", id), ("error", Json.mkObj [("kind", toJson kind), ("message", toJson msg)])]

/-- The answer to a request, given its parse (the in-process library parses with `FastParse`, which
reads the same values). -/
def handleParsed (parsed : Except String Json) : Json :=
  match parsed with
  | Except.error e => errorJ Json.null "parse" e
  | Except.ok j =>
    match req j "id", getAs String j "judgment", req j "input" with
    | Except.ok id, Except.ok name, Except.ok input =>
      let run := match judgments.lookup name with
        | some f => some (guarded (keysGuard f) input)
        | none => none
      match run with
      | none => errorJ id "unknown_judgment" s!"no judgment {name}"
      | some (Except.error e) => errorJ id "input" e
      | some (Except.ok out) => Json.mkObj [("id", id), ("output", out)]
    | Except.error e, _, _ => errorJ Json.null "request" e
    | _, Except.error e, _ => errorJ (j.getObjValD "id") "request" e
    | _, _, Except.error e => errorJ (j.getObjValD "id") "request" e

def handle (line : String) : Json := handleParsed (Parse.parse line)

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
