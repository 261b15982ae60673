import AgentWarrant.Thm.Revision.ArgCover
import AgentWarrant.Spec.Monitor.Full
/-! The literals of the argument coverage question (`Spec/Revision/ArgCover.lean`) mean what the monitor's
matching means (Agenra Section 5.2, `grantMatches` in `Spec/Monitor/Full.lean`), on the value the monitor
reads: a grant's resource pattern on the effect's resource, and each argument predicate on the value
`lookupPath` finds at its path (missing when it finds none).
* `constLit`: `jeq x c` against a scalar or null constant `c` is the literal `eqLitOf c` on `avOf x`;
* `resGlobLit`, `resConstLit`: `resMatches` of a glob or a scalar constant pattern is its literal;
* `predEqLit`, `predOneOfLit`, `predRangeLit`: `predHolds` of an equality, one-of (a clause of literals)
  or range predicate is its literal(s) on the looked-up value.
This is the literal-level half of the Python translation (`model/revision/trusted/arg_cover.py`) stated in
Lean. Not stated here: that the translation assembles these literals into the positions' clauses as
`grantMatches` conjoins them, the key allowlist (which reads the argument list, not `lookupPath`), slot
patterns, and that the variables' values of one call are consistent (a nested path's value lies inside its
parent's). -/
namespace AgentWarrant.Revision.ArgCover
open Lean AgentWarrant AgentWarrant.Monitor AgentWarrant.Monitor.Full

/-- A JSON value as the question sees it: arrays and objects by kind. -/
def avOf : Json → AV
  | Json.null => AV.null
  | Json.bool b => AV.bool b
  | Json.num n => AV.num n
  | Json.str s => AV.str s.toList
  | Json.arr _ => AV.arr
  | Json.obj _ => AV.obj

def avOfOpt : Option Json → AV
  | none => AV.missing
  | some x => avOf x

/-- The literal of equality to a scalar or null constant (what the translation writes). -/
def eqLitOf : Json → Lit
  | Json.null => Lit.isNull
  | Json.bool b => Lit.eqBool b
  | Json.num n => Lit.eqNum n
  | Json.str s => Lit.eqStr s.toList
  | Json.arr _ => Lit.isArr
  | Json.obj _ => Lit.isObj

def scalarOrNull : Json → Bool
  | Json.null => true
  | Json.bool _ => true
  | Json.num _ => true
  | Json.str _ => true
  | _ => false

theorem strEqData (a b : String) : decide (a = b) = decide (a.toList = b.toList) := by
  cases a with
  | mk x => cases b with
    | mk y => exact decIff (fun h => congrArg String.data h) (fun h => congrArg String.mk h)

theorem jeqUnfold (x c : Json) : jeq x c = jeqF (99999 + 1) x c := rfl

/-- Equality to a scalar or null constant is the constant's literal. -/
theorem constLit (x c : Json) (hc : scalarOrNull c = true) : jeq x c = holds (eqLitOf c) (avOf x) := by
  rw [jeqUnfold]
  cases c with
  | null => cases x <;> rfl
  | bool b => cases x with
    | bool a => cases a <;> cases b <;> rfl
    | null => rfl
    | num _ => rfl
    | str _ => rfl
    | arr _ => rfl
    | obj _ => rfl
  | num m => cases x <;> rfl
  | str t => cases x with
    | str s =>
      show decide (s = t) = decide (s.toList = t.toList)
      exact strEqData s t
    | null => rfl
    | bool _ => rfl
    | num _ => rfl
    | arr _ => rfl
    | obj _ => rfl
  | arr _ => cases hc
  | obj _ => cases hc

/-- The same with the constant on the left, as `resMatches` compares a constant pattern. -/
theorem constLitL (c x : Json) (hc : scalarOrNull c = true) : jeq c x = holds (eqLitOf c) (avOf x) := by
  rw [jeqUnfold]
  cases c with
  | null => cases x <;> rfl
  | bool b => cases x with
    | bool a => cases a <;> cases b <;> rfl
    | null => rfl
    | num _ => rfl
    | str _ => rfl
    | arr _ => rfl
    | obj _ => rfl
  | num m => cases x with
    | num n =>
      show numEq m n = numEq n m
      exact boolEq numEqSymm numEqSymm
    | null => rfl
    | bool _ => rfl
    | str _ => rfl
    | arr _ => rfl
    | obj _ => rfl
  | str t => cases x with
    | str s =>
      show decide (t = s) = decide (s.toList = t.toList)
      rw [strEqData t s]
      exact decIff Eq.symm Eq.symm
    | null => rfl
    | bool _ => rfl
    | num _ => rfl
    | arr _ => rfl
    | obj _ => rfl
  | arr _ => cases hc
  | obj _ => cases hc

theorem resGlobLit (s : State) (r : Json) (g : String) :
    resMatches s r (Pat.glob g) = holds (Lit.glob (globToks g.toList)) (avOf r) := by
  cases r <;> rfl

theorem resConstLit (s : State) (r c : Json) (hc : scalarOrNull c = true) :
    resMatches s r (Pat.const c) = holds (eqLitOf c) (avOf r) := by
  exact constLitL c r hc

theorem predEqLit (args : List (String × Json)) (path : List String) (c : Json) (hc : scalarOrNull c = true) :
    predHolds args (Pred.eq path c) = holds (eqLitOf c) (avOfOpt (lookupPath (argsJson args) path)) := by
  show (match lookupPath (argsJson args) path with
    | some x => jeq x c
    | none => false) = _
  cases lookupPath (argsJson args) path with
  | none => cases c <;> rfl
  | some x => exact constLit x c hc

theorem anyConstLit (x : Json) : ∀ (cs : List Json), allB scalarOrNull cs = true →
    cs.any (jeq x) = cs.any (fun c => holds (eqLitOf c) (avOf x))
  | [], _ => rfl
  | c :: cs, h => by
    have ⟨h1, h2⟩ := andT h
    show (jeq x c || List.any cs (jeq x)) = (holds (eqLitOf c) (avOf x) || List.any cs (fun c => holds (eqLitOf c) (avOf x)))
    rw [constLit x c h1, anyConstLit x cs h2]

theorem anyMissing : ∀ (cs : List Json), cs.any (fun c => holds (eqLitOf c) AV.missing) = false
  | [] => rfl
  | c :: cs => by
    show (holds (eqLitOf c) AV.missing || List.any cs (fun c => holds (eqLitOf c) AV.missing)) = false
    rw [anyMissing cs]
    rfl

/-- A one-of predicate is the clause of its constants' literals. -/
theorem predOneOfLit (args : List (String × Json)) (path : List String) (cs : List Json)
    (hc : allB scalarOrNull cs = true) :
    predHolds args (Pred.oneOf path cs) = cs.any (fun c => holds (eqLitOf c) (avOfOpt (lookupPath (argsJson args) path))) := by
  show (match lookupPath (argsJson args) path with
    | some x => cs.any (jeq x)
    | none => false) = _
  cases lookupPath (argsJson args) path with
  | none => exact (anyMissing cs).symm
  | some x => exact anyConstLit x cs hc

theorem predRangeLit (args : List (String × Json)) (path : List String) (lo hi : Option JsonNumber) :
    predHolds args (Pred.range path lo hi) = holds (Lit.range lo hi) (avOfOpt (lookupPath (argsJson args) path)) := by
  show (match lookupPath (argsJson args) path with
    | some (Json.num x) => (match lo with | none => true | some l => numLe l x) &&
        (match hi with | none => true | some h => numLe x h)
    | _ => false) = _
  cases lookupPath (argsJson args) path with
  | none => rfl
  | some x => cases x <;> rfl

end AgentWarrant.Revision.ArgCover
