import AgentWarrant.Oracle.Common
import AgentWarrant.Spec.Revision.ArgCoverBuild
import AgentWarrant.Spec.Revision.ArgCoverBuildA
import AgentWarrant.Spec.Revision.ArgCoverResA
import AgentWarrant.Oracle.MonitorFull
/-! The `arg_cover` judgment: a simulation certificate's effect coverage for entries whose match reads
argument values (Agenra Section 7.1), decided by `Revision.ArgCover.argCover` over every valuation (its
meaning: `Revision.ArgCover.argCoveredSound` and `argUncoveredSound`).

Input (every key required): `{"atoms": [[var, lit]…], "cond": [clause…], "positions": [null | [clause…]…],
"listed": [bits…]}`. A `lit` is `["present"]`, `["scalar"]`, `["null"]`, `["arr"]`, `["obj"]`,
`["bool", b]`, `["num", number]`, `["str", s]`, `["glob", pattern]`, `["range", low, high]` (each bound
a number, or `null` when open; inclusive, by exact decimal order) or `["json", c]` (equality to the array
or object `c`, by the monitor's `jeq`; `ALit.eqJson`); a `clause` is a list of
`[atom index, sign]` and holds when one of its signed atoms does. `cond` (every clause holds) is the
effect's being one a tool can produce and in `E`; a position matches when every clause holds (`null`:
never); `listed` are the certificate's match vectors, one bit per position. The question: does every
valuation satisfying `cond` have its vector listed? Output: `{"answer": "covered" | "uncovered" |
"unknown", "witness": [value…] | null, "vector": bits | null}`, a witness value per variable written as
a `lit` is (`["missing"]`, `["null"]`, `["bool", b]`, `["num", n]`, `["str", s]`, `["arr", value]`,
`["obj", value]`).
`unknown` is never answered (`Revision.ArgCover.argCoverNeverUnknown`).

`arg_cover_policy` writes the question itself (`Revision.ArgCover.wayQ`, `Spec/Revision/ArgCoverBuild.lean`,
its meaning `Revision.ArgCover.builtCoverMatches`, when the action's entries have scalar or null constants
only; else `wayQR`, `Spec/Revision/ArgCoverResA.lean`: `wayQA`'s question, `Spec/Revision/ArgCoverBuildA.lean`,
which writes an equality or one-of predicate's array or object constant as `["json", c]`, its meaning
`builtCoverMatchesA`, for every call the monitor prepares `Thm.leanWrittenCoverageIsMonitorMatchingA`, with
an entry whose resource pattern is an array or object constant written as never matching, `null`, its
meaning `builtCoverMatchesR`; on scalar or null constants `wayQA` writes `wayQ`'s very question,
`Revision.ArgCover.wayQSame`, so `Thm.oracleCoverageIsMonitorMatching` speaks of the question written for
every action) and decides it, way by way. Input (every key required):
`{"action": a, "entries": [entry…], "tools": [tool…], "resources": [value…] | null, "listed": [bits…]}`,
the entries being every position of the old and new lists in order, in the policy's JSON form
(corpus/schemas/policy.schema.json), the tools likewise, `resources` `E`'s resources of `a` (`null`: any).
Output: `{"answer": "covered" | "uncovered" | "outside", "reason": text | null, "names": [source…] | null,
"witness": [value…] | null, "vector": bits | null, "questions": [question…]}`: `outside` when an entry of
`a` has a predicate constant failing the oracle's checks (outside the fragment the meaning covers,
`grantOkR`; the oracle's check of its whole input refuses such a constant first, so the answer is kept for
the caller, which then writes the question itself, or asks Z3), with `"outside": [[position,
feature]…]` naming each such entry by its 0-based position among `entries` and where the constant is
(`outsideWhyR`), and `reason` saying the same in words; on `uncovered`, the first uncovered way's variables (a
source is `null` for the resource, `{"slot": name}` for a slot's variable, else its argument path),
witness and vector; `questions` every way's
question as `arg_cover` takes it, with its `names`, written back for the differential test. -/
namespace AgentWarrant.Oracle.ArgCover
open Lean AgentWarrant.Oracle AgentWarrant.Monitor.Full AgentWarrant.Revision.ArgCover

def boundOf : Json → Dec (Option JsonNumber)
  | Json.null => pure none
  | Json.num n => pure (some n)
  | j => throw s!"atoms: a range bound is a number or null, not {j.compress}"

def baseLitOf (j : Json) : List Json → Dec Lit
  | [Json.str "present"] => pure Lit.present
  | [Json.str "scalar"] => pure Lit.scalar
  | [Json.str "null"] => pure Lit.isNull
  | [Json.str "arr"] => pure Lit.isArr
  | [Json.str "bool", Json.bool b] => pure (Lit.eqBool b)
  | [Json.str "num", Json.num n] => pure (Lit.eqNum n)
  | [Json.str "str", Json.str s] => pure (Lit.eqStr s.toList)
  | [Json.str "glob", Json.str g] => pure (Lit.glob (globToks g.toList))
  | [Json.str "obj"] => pure Lit.isObj
  | [Json.str "range", lo, hi] => do pure (Lit.range (← boundOf lo) (← boundOf hi))
  | _ => throw s!"atoms: unknown literal {j.compress}"

def litOf (j : Json) : Dec ALit := do
  let a ← match j.getArr? with
    | Except.ok a => pure a.toList
    | Except.error _ => throw "atoms: expected [var, lit] with lit a list"
  match a with
  | [Json.str "json", Json.arr c] => pure (ALit.eqJson (Json.arr c))
  | [Json.str "json", Json.obj c] => pure (ALit.eqJson (Json.obj c))
  | [Json.str "json", c] => throw s!"atoms: a json literal's constant is an array or object, not {c.compress}"
  | _ => ALit.lit <$> baseLitOf j a

def atomOf (j : Json) : Dec Atom := do
  match j.getArr? with
  | Except.ok a => match a.toList with
    | [v, l] => match v.getNat? with
      | Except.ok n => pure (n, ← litOf l)
      | Except.error _ => throw "atoms: a variable is a natural number"
    | _ => throw "atoms: expected [var, lit]"
  | Except.error _ => throw "atoms: expected [var, lit]"

def signedOf (n : Nat) (j : Json) : Dec (Nat × Bool) := do
  match j.getArr? with
  | Except.ok a => match a.toList with
    | [k, Json.bool s] => match k.getNat? with
      | Except.ok i => if i < n then pure (i, s) else throw s!"clause: atom index {i} out of range"
      | Except.error _ => throw "clause: an atom index is a natural number"
    | _ => throw "clause: expected [atom index, sign]"
  | Except.error _ => throw "clause: expected [atom index, sign]"

def clauseOf (n : Nat) (j : Json) : Dec (List (Nat × Bool)) := do
  match j.getArr? with
  | Except.ok a => a.toList.mapM (signedOf n)
  | Except.error _ => throw "expected a clause (a list of [atom index, sign])"

def cnfOf (n : Nat) (j : Json) : Dec (List (List (Nat × Bool))) := do
  match j.getArr? with
  | Except.ok a => a.toList.mapM (clauseOf n)
  | Except.error _ => throw "expected a list of clauses"

def good (cond : List (List (Nat × Bool))) (pos : List (Option (List (List (Nat × Bool))))) (listed : List (List Bool))
    (bits : List Bool) : Bool :=
  !cnfHolds bits cond || anyB (fun u => decide (u = pos.map (posBit bits))) listed

def avJson : AV → Json
  | AV.missing => Json.arr #[toJson "missing"]
  | AV.null => Json.arr #[toJson "null"]
  | AV.bool b => Json.arr #[toJson "bool", toJson b]
  | AV.num n => Json.arr #[toJson "num", Json.num (normNum n)]
  | AV.str s => Json.arr #[toJson "str", toJson (String.mk s)]
  | AV.arr x => Json.arr #[toJson "arr", normJ x]
  | AV.obj x => Json.arr #[toJson "obj", normJ x]

def bitsOfStr (s : String) (n : Nat) (w : String) : Dec (List Bool) := do
  let bs ← s.toList.mapM (fun c => match c with
    | '0' => pure false
    | '1' => pure true
    | _ => throw s!"{w}: expected a string of 0 and 1")
  if bs.length != n then throw s!"{w}: expected {n} bits, one per position"
  pure bs

def bitsStr (v : List Bool) : String := String.mk (v.map (fun b => match b with | true => '1' | false => '0'))

def argCoverJ (j : Json) : Dec Json := do
  let atoms ← arrOf atomOf j "atoms"
  let n := atoms.length
  let cond ← cnfOf n (← req j "cond")
  let posJ ← match (← req j "positions").getArr? with
    | Except.ok a => pure a.toList
    | Except.error _ => throw "positions: expected a list"
  let pos ← posJ.mapM (fun p => match p with
    | Json.null => pure none
    | p => do pure (some (← cnfOf n p)))
  let raw ← strList j "listed"
  let listed ← raw.mapM (fun s => bitsOfStr s pos.length "listed")
  let g := good cond pos listed
  match argCover g atoms with
  | Answer.covered => pure $ Json.mkObj [("answer", toJson "covered"), ("witness", Json.null), ("vector", Json.null)]
  | Answer.unknown => pure $ Json.mkObj [("answer", toJson "unknown"), ("witness", Json.null), ("vector", Json.null)]
  | Answer.uncovered xs =>
    let nv := maxVar atoms
    let vals := (List.range nv).map (fun i => avJson (getV xs i))
    pure $ Json.mkObj [("answer", toJson "uncovered"), ("witness", Json.arr vals.toArray),
      ("vector", toJson (bitsStr (pos.map (posBit (bitsOf atoms (getV xs))))))]

def globText : List GlobTok → String
  | [] => ""
  | GlobTok.star :: ts => "*" ++ globText ts
  | GlobTok.one :: ts => "?" ++ globText ts
  | GlobTok.lit c :: ts => (if c == '*' || c == '?' || c == '[' then "[" ++ c.toString ++ "]" else c.toString) ++ globText ts
  | GlobTok.cls neg rs :: ts => "[" ++ (if neg then "!" else "") ++
      String.join (rs.map (fun r => if r.1 = r.2 then r.1.toString else r.1.toString ++ "-" ++ r.2.toString)) ++
      "]" ++ globText ts

def boundJ : Option JsonNumber → Json
  | none => Json.null
  | some n => Json.num (normNum n)

/-- A literal as `arg_cover` reads it (a glob written back from its tokens). -/
def litJ : Lit → Json
  | Lit.present => Json.arr #[toJson "present"]
  | Lit.scalar => Json.arr #[toJson "scalar"]
  | Lit.isNull => Json.arr #[toJson "null"]
  | Lit.isArr => Json.arr #[toJson "arr"]
  | Lit.isObj => Json.arr #[toJson "obj"]
  | Lit.eqBool b => Json.arr #[toJson "bool", toJson b]
  | Lit.eqNum n => Json.arr #[toJson "num", Json.num (normNum n)]
  | Lit.eqStr s => Json.arr #[toJson "str", toJson (String.mk s)]
  | Lit.glob ts => Json.arr #[toJson "glob", toJson (globText ts)]
  | Lit.range lo hi => Json.arr #[toJson "range", boundJ lo, boundJ hi]

def aLitJ : ALit → Json
  | ALit.lit l => litJ l
  | ALit.eqJson c => Json.arr #[toJson "json", normJ c]

def srcJ : Src → Json
  | Src.res => Json.null
  | Src.path p => toJson p.toArray
  | Src.slot n => Json.mkObj [("slot", toJson n)]

def cnfJ (f : List Clause) : Json :=
  Json.arr (f.map (fun c => Json.arr (c.map (fun x => Json.arr #[toJson x.1, toJson x.2])).toArray)).toArray

def questionJ (q : BuiltQ) (listed : List String) : Json := Json.mkObj [
  ("names", Json.arr (q.names.map srcJ).toArray),
  ("atoms", Json.arr (q.atoms.map (fun a => Json.arr #[toJson a.1, aLitJ a.2])).toArray),
  ("cond", cnfJ q.cond),
  ("positions", Json.arr (q.pos.map (fun p => match p with | none => Json.null | some f => cnfJ f)).toArray),
  ("listed", toJson listed.toArray)]

/-- The entries of action `a` outside the fragment, each with its position among `gs` and its feature. -/
def outsideOf (a : String) : Nat → List Monitor.Full.Grant → List (Nat × String)
  | _, [] => []
  | i, g :: gs => match g.action == a, outsideWhyA g with
    | true, some w => (i, w) :: outsideOf a (i + 1) gs
    | _, _ => outsideOf a (i + 1) gs

/-- `outsideOf` for `arg_cover_policy`'s fragment `grantOkR` (any resource pattern). -/
def outsideOfR (a : String) : Nat → List Monitor.Full.Grant → List (Nat × String)
  | _, [] => []
  | i, g :: gs => match g.action == a, outsideWhyR g with
    | true, some w => (i, w) :: outsideOfR a (i + 1) gs
    | _, _ => outsideOfR a (i + 1) gs

def outsideJ (a : String) (xs : List (Nat × String)) : Json :=
  let why := String.intercalate "; " (xs.map (fun x => s!"{a}: entry {x.1} has {x.2}"))
  Json.mkObj [("answer", toJson "outside"), ("reason", toJson why),
    ("outside", Json.arr (xs.map (fun x => Json.arr #[toJson x.1, toJson x.2])).toArray),
    ("names", Json.null), ("witness", Json.null), ("vector", Json.null), ("questions", Json.arr #[])]

/-- The first uncovered way's answer, else covered; every question written back. -/
def decideWays (listedS : List String) (listed : List (List Bool)) : List BuiltQ → List Json → Json
  | [], qs => Json.mkObj [("answer", toJson "covered"), ("reason", Json.null), ("names", Json.null),
      ("witness", Json.null), ("vector", Json.null), ("questions", Json.arr qs.toArray)]
  | q :: rest, qs => match argCover (good q.cond q.pos listed) q.atoms with
    | Answer.uncovered xs =>
      let vals := (List.range (maxVar q.atoms)).map (fun i => avJson (getV xs i))
      Json.mkObj [("answer", toJson "uncovered"), ("reason", Json.null),
        ("names", Json.arr (q.names.map srcJ).toArray), ("witness", Json.arr vals.toArray),
        ("vector", toJson (bitsStr (q.pos.map (posBit (bitsOf q.atoms (getV xs)))))),
        ("questions", Json.arr (qs ++ [questionJ q listedS] ++ rest.map (fun r => questionJ r listedS)).toArray)]
    | _ => decideWays listedS listed rest (qs ++ [questionJ q listedS])

def somesQ : List (Option BuiltQ) → List BuiltQ
  | [] => []
  | none :: r => somesQ r
  | some q :: r => q :: somesQ r

/-- `arg_cover_policy`'s input decoded and handed to `k` (the action, entries, tools, `E`, the listed vectors as
sent and as bits); the judgment itself, which checks the tools first, is `Oracle/ArgCoverToolChk.lean`'s. -/
def withPolicyInput (j : Json)
    (k : String → List Tool → List Monitor.Full.Grant → Option (List Json) → List String → List (List Bool) → Json) :
    Dec Json := do
  let a ← getAs String j "action"
  let gs ← arrOf Oracle.MonitorFull.grantOf j "entries"
  let tools ← arrOf Oracle.MonitorFull.toolOf j "tools"
  let E ← match ← req j "resources" with
    | Json.null => pure none
    | r => match r.getArr? with
      | Except.ok xs => pure (some xs.toList)
      | Except.error _ => throw "resources: expected a list or null"
  let listedS ← strList j "listed"
  let listed ← listedS.mapM (fun s => bitsOfStr s gs.length "listed")
  pure (k a tools gs E listedS listed)

end AgentWarrant.Oracle.ArgCover
