import AgentWarrant.Oracle.Common
import AgentWarrant.Spec.Revision.GlobCover
/-! The `glob_cover` judgment: the glob half of a simulation certificate's effect coverage (Agenra
Section 7.1), decided by `Revision.Glob.coverTotal` over every string (its meaning:
`Revision.Glob.globCoveredSound` and `globUncoveredSound`; it never answers `unknown`:
`Revision.GlobFuel.coverTotalNeverUnknown`).

Input (every key required): `{"globs": [pattern…], "listed": [bits…]}`, each `bits` a
string of `0`/`1` with one character per pattern, read as the match vector "pattern `i` matches"
(the monitor's `fnmatch`). The question: does every string's match vector lie in `listed`?
Output: `{"answer": "covered" | "uncovered", "witness": string | null, "vector": bits | null}` — for
`uncovered`, a string whose vector (also given) is not listed. The `unknown` arm below is unreachable
(proved), kept because the match must name every answer. -/
namespace AgentWarrant.Oracle.GlobCover
open Lean AgentWarrant.Oracle AgentWarrant.Monitor.Full AgentWarrant.Revision.Glob

def bitsOf (s : String) (n : Nat) (w : String) : Dec (List Bool) := do
  let bs ← s.toList.mapM (fun c => match c with
    | '0' => pure false
    | '1' => pure true
    | _ => throw s!"{w}: expected a string of 0 and 1")
  if bs.length != n then throw s!"{w}: expected {n} bits, one per pattern"
  pure bs

def bitsStr (v : List Bool) : String := String.mk (v.map (fun b => match b with | true => '1' | false => '0'))

def listedGood (listed : List (List Bool)) (v : List Bool) : Bool := anyB (fun u => decide (u = v)) listed

def globCover (j : Json) : Dec Json := do
  let globs ← strList j "globs"
  let raw ← strList j "listed"
  let mut listed : List (List Bool) := []
  for (s, i) in raw.zip (List.range raw.length) do
    listed := listed ++ [← bitsOf s globs.length s!"listed[{i}]"]
  let gs := globs.map (fun g => globToks g.toList)
  match coverTotal (listedGood listed) gs with
  | Answer.covered => pure $ Json.mkObj [("answer", toJson "covered"), ("witness", Json.null), ("vector", Json.null)]
  | Answer.unknown => pure $ Json.mkObj [("answer", toJson "unknown"), ("witness", Json.null), ("vector", Json.null)]
  | Answer.uncovered w => pure $ Json.mkObj [("answer", toJson "uncovered"), ("witness", toJson (String.mk w)),
      ("vector", toJson (bitsStr (vecG gs w)))]

def judgments : List Judgment := [("glob_cover", globCover)]

end AgentWarrant.Oracle.GlobCover
