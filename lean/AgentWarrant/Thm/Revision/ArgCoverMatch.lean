import AgentWarrant.Thm.Revision.ArgCover
import AgentWarrant.Spec.Revision.ArgCoverBuild
/-! The literals of the argument coverage question (`Spec/Revision/ArgCover.lean`) mean what the monitor's
matching means (Agenra Section 5.2, `grantMatches` in `Spec/Monitor/Full.lean`), on the value the monitor
reads: a grant's resource pattern on the effect's resource, and each argument predicate on the value
`lookupPath` finds at its path (missing when it finds none).
* `constLit`: `jeq x c` against a scalar or null constant `c` is the literal `eqLitOf c` on `avOf x`;
* `resGlobLit`, `resConstLit`: `resMatches` of a glob or a scalar constant pattern is its literal;
* `predEqLit`, `predOneOfLit`, `predRangeLit`: `predHolds` of an equality, one-of (a clause of literals)
  or range predicate is its literal(s) on the looked-up value.
* `grantMatchesConj`: for a grant without a key allowlist or slot pattern, with scalar or null constants,
  `grantMatches` is its action test and the conjunction of these clauses (`grantConj`'s shape).
This is the translation's scheme; Lean writes a question in it itself (`Spec/Revision/ArgCoverBuild.lean`,
proved to mean `grantMatches` in `Thm/Revision/ArgCoverBuild.lean`, which adds the key allowlist and the
slot pattern: `keyConjMeans`, `slotConjMeans`), the Python translation (`model/revision/trusted/arg_cover.py`)
for entries outside that fragment. Not stated here: that the Python code writes exactly these clauses, and
that the variables' values of one call are consistent (a nested path's value lies inside its parent's). -/
namespace AgentWarrant.Revision.ArgCover
open Lean AgentWarrant AgentWarrant.Monitor AgentWarrant.Monitor.Full

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

-- a grant as conjuncts of literal clauses ------------------------------------------------------------

theorem orFalse : ∀ (b : Bool), (b || false) = b
  | true => rfl
  | false => rfl

theorem andTrue : ∀ (b : Bool), (b && true) = b
  | true => rfl
  | false => rfl

theorem patConjOk (s : State) (args : List (String × Json)) (e : Effect) : ∀ (p : Pat), patOk p = true →
    resMatches s e.res p = (patConj p).all (conjHolds s args e)
  | Pat.any, _ => rfl
  | Pat.glob g, _ => by
    show resMatches s e.res (Pat.glob g) = ((holds (Lit.glob (globToks g.toList)) (avOf e.res) || false) && true)
    rw [orFalse, andTrue]
    exact resGlobLit s e.res g
  | Pat.const c, h => by
    show resMatches s e.res (Pat.const c) = ((holds (eqLitOf c) (avOf e.res) || false) && true)
    rw [orFalse, andTrue]
    exact resConstLit s e.res c h
  | Pat.slot _, h => by cases h

theorem anyMapLit (v : AV) : ∀ (cs : List Json),
    (cs.map eqLitOf).any (fun l => holds l v) = cs.any (fun c => holds (eqLitOf c) v)
  | [] => rfl
  | c :: cs => by
    show (holds (eqLitOf c) v || (cs.map eqLitOf).any (fun l => holds l v)) = (holds (eqLitOf c) v || cs.any (fun c => holds (eqLitOf c) v))
    rw [anyMapLit v cs]

theorem predConjOk (s : State) (args : List (String × Json)) (e : Effect) : ∀ (p : Pred), predOk p = true →
    predHolds args p = conjHolds s args e (predConj p)
  | Pred.eq path c, h => by
    show _ = (holds (eqLitOf c) (avOfOpt (lookupPath (argsJson args) path)) || false)
    rw [orFalse]
    exact predEqLit args path c h
  | Pred.oneOf path cs, h => by
    show _ = (cs.map eqLitOf).any (fun l => holds l (avOfOpt (lookupPath (argsJson args) path)))
    rw [anyMapLit]
    exact predOneOfLit args path cs h
  | Pred.range path lo hi, _ => by
    show _ = (holds (Lit.range lo hi) (avOfOpt (lookupPath (argsJson args) path)) || false)
    rw [orFalse]
    exact predRangeLit args path lo hi

theorem predsConjOk (s : State) (args : List (String × Json)) (e : Effect) : ∀ (ps : List Pred), allB predOk ps = true →
    ps.all (predHolds args) = (ps.map predConj).all (conjHolds s args e)
  | [], _ => rfl
  | p :: ps, h => by
    have ⟨h1, h2⟩ := andT h
    show (predHolds args p && ps.all (predHolds args)) = (conjHolds s args e (predConj p) && (ps.map predConj).all (conjHolds s args e))
    rw [predConjOk s args e p h1, predsConjOk s args e ps h2]

/-- For a grant without a key allowlist or a slot pattern, whose constants are scalar or null, the monitor's
`grantMatches` is its action test and the conjunction of its conjuncts' literal clauses, each read on the
resource or on the value `lookupPath` finds: the shape the translation writes a position in. -/
theorem grantMatchesConj (s : State) (args : List (String × Json)) (g : Monitor.Full.Grant) (e : Effect) (hk : g.keys = none)
    (hp : patOk g.pat = true) (hq : allB predOk g.preds = true) :
    grantMatches s args g e =
      (g.action == e.action && (patConj g.pat).all (conjHolds s args e) && (g.preds.map predConj).all (conjHolds s args e)) := by
  have hko : keysOk g args = true := by
    show (match g.keys with
      | none => true
      | some ks => args.all (fun a => memS a.1 ks)) = true
    rw [hk]
  show (g.action == e.action && resMatches s e.res g.pat && keysOk g args && g.preds.all (predHolds args)) = _
  rw [hko, patConjOk s args e g.pat hp, predsConjOk s args e g.preds hq, andTrue]

end AgentWarrant.Revision.ArgCover
