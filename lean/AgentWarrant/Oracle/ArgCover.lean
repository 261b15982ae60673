import AgentWarrant.Oracle.Common
import AgentWarrant.Spec.Revision.ArgCover
/-! The `arg_cover` judgment: a simulation certificate's effect coverage for entries whose match reads
argument values (Agenra Section 7.1), decided by `Revision.ArgCover.argCover` over every valuation (its
meaning: `Revision.ArgCover.argCoveredSound` and `argUncoveredSound`).

Input (every key required): `{"atoms": [[var, lit]…], "cond": [clause…], "positions": [null | [clause…]…],
"listed": [bits…]}`. A `lit` is `["present"]`, `["scalar"]`, `["null"]`, `["arr"]`, `["obj"]`,
`["bool", b]`, `["num", number]`, `["str", s]`, `["glob", pattern]` or `["range", low, high]` (each bound
a number, or `null` when open; inclusive, by exact decimal order); a `clause` is a list of
`[atom index, sign]` and holds when one of its signed atoms does. `cond` (every clause holds) is the
effect's being one a tool can produce and in `E`; a position matches when every clause holds (`null`:
never); `listed` are the certificate's match vectors, one bit per position. The question: does every
valuation satisfying `cond` have its vector listed? Output: `{"answer": "covered" | "uncovered" |
"unknown", "witness": [value…] | null, "vector": bits | null}`, a witness value per variable written as
a `lit` is (`["missing"]`, `["null"]`, `["bool", b]`, `["num", n]`, `["str", s]`, `["arr"]`, `["obj"]`).
`unknown` is never answered (`Revision.ArgCover.argCoverNeverUnknown`). -/
namespace AgentWarrant.Oracle.ArgCover
open Lean AgentWarrant.Oracle AgentWarrant.Monitor.Full AgentWarrant.Revision.ArgCover

def boundOf : Json → Dec (Option JsonNumber)
  | Json.null => pure none
  | Json.num n => pure (some n)
  | j => throw s!"atoms: a range bound is a number or null, not {j.compress}"

def litOf (j : Json) : Dec Lit := do
  let a ← match j.getArr? with
    | Except.ok a => pure a.toList
    | Except.error _ => throw "atoms: expected [var, lit] with lit a list"
  match a with
  | [Json.str "present"] => pure Lit.present
  | [Json.str "scalar"] => pure Lit.scalar
  | [Json.str "null"] => pure Lit.isNull
  | [Json.str "arr"] => pure Lit.isArr
  | [Json.str "bool", Json.bool b] => pure (Lit.eqBool b)
  | [Json.str "num", Json.num n] => pure (Lit.eqNum n)
  | [Json.str "str", Json.str s] => pure (Lit.eqStr s.toList)
  | [Json.str "glob", Json.str g] => pure (Lit.glob (globToks g.toList))
  | [Json.str "obj"] => pure Lit.isObj
  | [Json.str "range", lo, hi] => pure (Lit.range (← boundOf lo) (← boundOf hi))
  | _ => throw s!"atoms: unknown literal {j.compress}"

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
  | AV.arr => Json.arr #[toJson "arr"]
  | AV.obj => Json.arr #[toJson "obj"]

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

def judgments : List Judgment := [("arg_cover", argCoverJ)]

end AgentWarrant.Oracle.ArgCover
