import AgentWarrant.Thm.Revision.ArgCoverSame
import AgentWarrant.Thm.Revision.ArgCoverClassA
import AgentWarrant.Oracle.ArgCoverClass
/-! On entries with scalar or null constants only, `classQA` (`Spec/Revision/ArgCoverClassA.lean`) writes
exactly the class question `classQ` (`Spec/Revision/ArgCoverClass.lean`) writes (Agenra Sections 1 and 7.1:
a certificate must hold in every binding state). The oracle's `arg_cover_class` (`Oracle/ArgCoverClass.lean`)
writes `classQ` when every entry of the action is in `grantOk` and `classQA` otherwise; so whichever it wrote,
its question is `classQA`'s, and one coverage theorem covers every class it answers for. The route is
`wayQSame`'s (`Thm/Revision/ArgCoverSame.lean`) on `CSrc`:
* `buildQCALift`: numbering clauses lifted into `ALit` (`liftCA`) by `buildQCA` gives `buildQC`'s question on
  the unlifted ones (on lifted literals `cLitABeq` is `CLit`'s decidable equality);
* `classQSame`: hence `classQ = classQA` way by way when the entries of the action are in `grantOk` (the
  way's clauses lifted either way round are the same, and `posOfA` is `posOf` lifted, `posOfALift`);
  `oracleClassWriterIsClassQA`: the oracle's choice of writer is `classQA` for every action;
* `decideWaysCCovered`, `oracleClassCoverDistinct`: the oracle's `covered` answer on the questions it collects
  for the action's ways is `argCover` answering covered on every way's question, which with
  `preparedClassCoverMatchesA` covers the monitor's matching in every binding state of the class; `hadm` is
  asked only when the oracle wrote `classQA` because an entry has an array or object predicate constant
  (`admVacuous`).
Choices: the equality is of the questions, not of their answers; the oracle's branch on `apartFree` and its
decoding of the JSON input are not part of these statements. -/
namespace AgentWarrant.Revision.ArgCover
open Lean AgentWarrant AgentWarrant.Monitor AgentWarrant.Monitor.Full

/-- A class literal as a `CLitA` (what `liftCA` does to each literal of a clause). -/
def liftCL (x : CLit) : CLitA := (x.1, ALit.lit x.2)

def liftPC : Option (List CClause) → Option (List CClauseA)
  | none => none
  | some f => some (f.map liftCA)

theorem cLitABeqLift (x y : CLit) : cLitABeq (liftCL x) (liftCL y) = decide (x = y) := by
  cases x with
  | mk s l => cases y with
    | mk s' l' =>
      show (decide (s = s') && decide (l = l')) = decide ((s, l) = (s', l'))
      cases Decidable.em (s = s') with
      | inl h1 => cases Decidable.em (l = l') with
        | inl h2 =>
          subst h1
          subst h2
          rw [decideEqTrue (rfl : s = s), decideEqTrue (rfl : l = l), decideEqTrue (rfl : (s, l) = (s, l))]
          rfl
        | inr h2 =>
          have hne : (s, l) ≠ (s', l') := fun e => h2 (congrArg Prod.snd e)
          rw [decideEqTrue h1, decideEqFalse h2, decideEqFalse hne]
          rfl
      | inr h1 =>
        have hne : (s, l) ≠ (s', l') := fun e => h1 (congrArg Prod.fst e)
        rw [decideEqFalse h1, decideEqFalse hne]
        rfl

theorem anyBLiftC (x : CLit) : ∀ (acc : List CLit),
    anyB (fun y => cLitABeq y (liftCL x)) (acc.map liftCL) = anyB (fun y => decide (y = x)) acc
  | [] => rfl
  | y :: acc => by
    show (match cLitABeq (liftCL y) (liftCL x) with
      | true => true
      | false => anyB (fun z => cLitABeq z (liftCL x)) (acc.map liftCL)) =
      (match decide (y = x) with | true => true | false => anyB (fun z => decide (z = x)) acc)
    rw [cLitABeqLift, anyBLiftC x acc]

theorem dedupBLiftC : ∀ (xs acc : List CLit), dedupB cLitABeq (acc.map liftCL) (xs.map liftCL) = (dedupL acc xs).map liftCL
  | [], _ => rfl
  | x :: xs, acc => by
    show (match anyB (fun y => cLitABeq y (liftCL x)) (acc.map liftCL) with
      | true => dedupB cLitABeq (acc.map liftCL) (xs.map liftCL)
      | false => dedupB cLitABeq (acc.map liftCL ++ [liftCL x]) (xs.map liftCL)) =
      (match anyB (fun y => decide (y = x)) acc with
      | true => dedupL acc xs
      | false => dedupL (acc ++ [x]) xs).map liftCL
    rw [anyBLiftC x acc]
    cases anyB (fun y => decide (y = x)) acc with
    | true => exact dedupBLiftC xs acc
    | false =>
      have e : acc.map liftCL ++ [liftCL x] = (acc ++ [x]).map liftCL := (mapAppend liftCL acc [x]).symm
      show dedupB cLitABeq (acc.map liftCL ++ [liftCL x]) (xs.map liftCL) = (dedupL (acc ++ [x]) xs).map liftCL
      rw [e]
      exact dedupBLiftC xs (acc ++ [x])

theorem idxOfBLiftC (x : CLit) : ∀ (ys : List CLit), idxOfB cLitABeq (liftCL x) (ys.map liftCL) = idxOf x ys
  | [] => rfl
  | y :: ys => by
    show (match cLitABeq (liftCL x) (liftCL y) with | true => 0 | false => idxOfB cLitABeq (liftCL x) (ys.map liftCL) + 1) =
      (match decide (x = y) with | true => 0 | false => idxOf x ys + 1)
    rw [cLitABeqLift, idxOfBLiftC x ys]

theorem litsOfCCALift (c : CClause) : litsOfCCA (liftCA c) = (litsOfCC c).map liftCL := by
  show (c.map _).map _ = (c.map _).map _
  rw [mapMapB, mapMapB]
  rfl

theorem litsOfFCALift : ∀ (f : List CClause), litsOfFCA (f.map liftCA) = (litsOfFC f).map liftCL
  | [] => rfl
  | c :: f => by
    show litsOfCCA (liftCA c) ++ litsOfFCA (f.map liftCA) = (litsOfCC c ++ litsOfFC f).map liftCL
    rw [litsOfCCALift, litsOfFCALift f, mapAppend]

theorem posLitsCALift : ∀ (P : List (Option (List CClause))), posLitsCA (P.map liftPC) = (posLitsC P).map liftCL
  | [] => rfl
  | none :: P => posLitsCALift P
  | some f :: P => by
    show litsOfFCA (f.map liftCA) ++ posLitsCA (P.map liftPC) = (litsOfFC f ++ posLitsC P).map liftCL
    rw [litsOfFCALift, posLitsCALift P, mapAppend]

theorem numCCALift (syms : List CLit) (c : CClause) : numCCA (syms.map liftCL) (liftCA c) = numCC syms c := by
  show (c.map _).map _ = c.map _
  rw [mapMapB]
  apply mapCongrB
  intro x _
  show (idxOfB cLitABeq (liftCL x.1) (syms.map liftCL), x.2) = (idxOf x.1 syms, x.2)
  rw [idxOfBLiftC]

theorem numFCALift (syms : List CLit) (f : List CClause) : numFCA (syms.map liftCL) (f.map liftCA) = numFC syms f := by
  show (f.map liftCA).map _ = f.map _
  rw [mapMapB]
  exact mapCongrB f (fun c _ => numCCALift syms c)

theorem numPCALift (syms : List CLit) : ∀ (o : Option (List CClause)), numPCA (syms.map liftCL) (liftPC o) = numPC syms o
  | none => rfl
  | some f => congrArg some (numFCALift syms f)

theorem fstLiftC (syms : List CLit) : (syms.map liftCL).map (fun x => x.1) = syms.map (fun x => x.1) := by
  rw [mapMapB]
  rfl

/-- `buildQCA` on lifted clauses is `buildQC` on the unlifted ones: the same names, atoms, condition and
positions. -/
theorem buildQCALift (F : List CClause) (P : List (Option (List CClause))) :
    buildQCA (F.map liftCA) (P.map liftPC) = buildQC F P := by
  have hs : dedupB cLitABeq [] (litsOfFCA (F.map liftCA) ++ posLitsCA (P.map liftPC)) =
      (dedupL [] (litsOfFC F ++ posLitsC P)).map liftCL := by
    rw [litsOfFCALift, posLitsCALift, ← mapAppend]
    exact dedupBLiftC _ []
  show BuiltQC.mk (dedupL [] ((dedupB cLitABeq [] (litsOfFCA (F.map liftCA) ++ posLitsCA (P.map liftPC))).map (fun x => x.1)))
      ((dedupB cLitABeq [] (litsOfFCA (F.map liftCA) ++ posLitsCA (P.map liftPC))).map (fun x =>
        (idxOf x.1 (dedupL [] ((dedupB cLitABeq [] (litsOfFCA (F.map liftCA) ++ posLitsCA (P.map liftPC))).map
          (fun x => x.1))), x.2)))
      (numFCA (dedupB cLitABeq [] (litsOfFCA (F.map liftCA) ++ posLitsCA (P.map liftPC))) (F.map liftCA))
      ((P.map liftPC).map (numPCA (dedupB cLitABeq [] (litsOfFCA (F.map liftCA) ++ posLitsCA (P.map liftPC))))) =
    BuiltQC.mk (dedupL [] ((dedupL [] (litsOfFC F ++ posLitsC P)).map (fun x => x.1)))
      ((dedupL [] (litsOfFC F ++ posLitsC P)).map (fun x =>
        (idxOf x.1 (dedupL [] ((dedupL [] (litsOfFC F ++ posLitsC P)).map (fun x => x.1))), ALit.lit x.2)))
      (numFC (dedupL [] (litsOfFC F ++ posLitsC P)) F)
      (P.map (numPC (dedupL [] (litsOfFC F ++ posLitsC P))))
  rw [hs, fstLiftC, numFCALift, mapMapB, mapMapB]
  have hp : P.map (fun o => numPCA ((dedupL [] (litsOfFC F ++ posLitsC P)).map liftCL) (liftPC o)) =
      P.map (numPC (dedupL [] (litsOfFC F ++ posLitsC P))) :=
    mapCongrB P (fun o _ => numPCALift _ o)
  rw [hp]
  rfl

-- the way's clauses lifted either way round --------------------------------------------------------------

theorem liftBoth (f : List SClause) : (f.map liftC).map liftSA = (liftF f).map liftCA := by
  show (f.map liftC).map liftSA = (f.map liftSC).map liftCA
  rw [mapMapB, mapMapB]
  apply mapCongrB
  intro c _
  show (c.map _).map _ = (c.map _).map _
  rw [mapMapB, mapMapB]

theorem liftPBoth : ∀ (o : Option (List SClause)), liftPA (liftPS o) = liftPC (liftP o)
  | none => rfl
  | some f => congrArg some (liftBoth f)

/-- On entries of the action with scalar or null constants only, `classQA` writes `classQ`'s question. -/
theorem classQSame (fs : List Fact) (a : String) (tools : List Tool) (gs : List Monitor.Full.Grant)
    (E : Option (List Json)) (t : Tool) (d : EffDecl) (hfrag : ∀ g, g ∈ gs → g.action = a → grantOk g = true) :
    classQ fs a tools gs E t d = classQA fs a tools gs E t d := by
  show (match wayCond a tools gs E t d with
    | none => none
    | some cond => some (buildQC (liftF cond ++ factCl fs (wayRes d.res)
        (gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a tools) gs))))
        ((gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a tools) gs))).map liftP))) =
    (match wayCond a tools gs E t d with
    | none => none
    | some cond => some (buildQCA ((cond.map liftC).map liftSA ++ (factCl fs (wayRes d.res)
        (gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a tools) gs)))).map liftCA)
        ((gs.map (posOfA a (wayRes d.res) (actionKeys a (ownTools a tools) gs))).map liftPA)))
  cases wayCond a tools gs E t d with
  | none => rfl
  | some cond =>
    have hp : (gs.map (posOfA a (wayRes d.res) (actionKeys a (ownTools a tools) gs))).map liftPA =
        ((gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a tools) gs))).map liftP).map liftPC := by
      rw [mapMapB, mapMapB, mapMapB]
      apply mapCongrB
      intro g hg
      show liftPA (posOfA a _ _ g) = liftPC (liftP (posOf a _ _ g))
      rw [posOfALift a _ _ g (hfrag g hg), liftPBoth]
    have hc : (cond.map liftC).map liftSA ++ (factCl fs (wayRes d.res)
        (gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a tools) gs)))).map liftCA =
        (liftF cond ++ factCl fs (wayRes d.res)
          (gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a tools) gs)))).map liftCA := by
      rw [liftBoth, mapAppend]
    show some (buildQC _ _) = some (buildQCA _ _)
    rw [hp, hc, buildQCALift]

/-- The writer `arg_cover_class` picks (`classQ` when every entry of the action is in `grantOk`, else
`classQA`) writes `classQA`'s question for every action. -/
theorem oracleClassWriterIsClassQA (fs : List Fact) (a : String) (tools : List Tool) (gs : List Monitor.Full.Grant)
    (E : Option (List Json)) (t : Tool) (d : EffDecl) :
    (match allB grantOk (ofAction a gs) with
      | true => classQ fs a tools gs E t d
      | false => classQA fs a tools gs E t d) = classQA fs a tools gs E t d := by
  cases h : allB grantOk (ofAction a gs) with
  | true => exact classQSame fs a tools gs E t d (ofActionGrantOk h)
  | false => rfl

-- the oracle's `covered` answer --------------------------------------------------------------------------

/-- The oracle's way-by-way decision on class questions (`decideWaysC`) answers `covered` only when
`argCover` answers covered on every question it is given. -/
theorem decideWaysCCovered (listedS : List String) (listed : List (List Bool)) :
    ∀ (qs : List BuiltQC) (acc : List Json),
      (Oracle.ArgCoverClass.decideWaysC listedS listed qs acc).getObjVal? "answer" = Except.ok (Json.str "covered") →
      ∀ q, q ∈ qs → argCover (Oracle.ArgCover.good q.cond q.pos listed) q.atoms = Answer.covered
  | [], _, _, q, hq => absurd hq notMemNil
  | r :: rest, acc, h, q, hq => by
    cases hr : argCover (Oracle.ArgCover.good r.cond r.pos listed) r.atoms with
    | uncovered xs =>
      have h' := h
      simp only [Oracle.ArgCoverClass.decideWaysC, hr] at h'
      rw [uncovAnswer] at h'
      have hs := congrArg (fun (x : Except String Json) => match x with
        | Except.ok (Json.str s) => s
        | _ => "") h'
      exact absurd hs (by decide)
    | unknown => exact absurd hr (argCoverNeverUnknown _ _)
    | covered =>
      have h' := h
      simp only [Oracle.ArgCoverClass.decideWaysC, hr] at h'
      cases hq with
      | head => exact hr
      | tail _ hq' => exact decideWaysCCovered listedS listed rest _ h' q hq'

theorem memSomesQC {q : BuiltQC} {f : Tool × EffDecl → Option BuiltQC} :
    ∀ {l : List (Tool × EffDecl)} {w : Tool × EffDecl}, w ∈ l → f w = some q →
      q ∈ Oracle.ArgCoverClass.somesQC (l.map f)
  | [], _, hw, _ => absurd hw notMemNil
  | x :: l, w, hw, hf => by
    cases hw with
    | head =>
      show q ∈ Oracle.ArgCoverClass.somesQC (f x :: l.map f)
      rw [hf]
      exact Mem.head _
    | tail _ hw' =>
      have ih := memSomesQC (f := f) hw' hf
      show q ∈ Oracle.ArgCoverClass.somesQC (f x :: l.map f)
      cases f x with
      | none => exact ih
      | some q' => exact Mem.tail _ ih

/-- The oracle's way-by-way class coverage theorem: its `covered` answer on the class questions it collects
for the action's ways (`somesQC` over `ways`), whichever writer it picked, covers the monitor's matching of
every call it prepares in every binding state of the class meeting a way's condition; `hadm` is asked only
when the oracle wrote `classQA` because an entry of the action is outside `grantOk`. -/
theorem oracleClassCoverDistinct (fs : List Fact) (p : Policy) (a : String) (gs : List Monitor.Full.Grant)
    (E : Option (List Json)) (listedS : List String) (listed : List (List Bool))
    (hfrag : ∀ g, g ∈ gs → g.action = a → grantOkA g = true)
    (hans : (Oracle.ArgCoverClass.decideWaysC listedS listed (Oracle.ArgCoverClass.somesQC ((ways a p.tools).map
      (fun w => match allB grantOk (ofAction a gs) with
        | true => classQ fs a p.tools gs E w.1 w.2
        | false => classQA fs a p.tools gs E w.1 w.2))) []).getObjVal? "answer" = Except.ok (Json.str "covered"))
    (t : Tool) (d : EffDecl) (hway : (t, d) ∈ ways a p.tools) (cond : List SClause)
    (hcond : wayCond a p.tools gs E t d = some cond)
    (s : State) (c : Call) (t' : Tool) (es : List Effect) (hprep : prepare p s c = Except.ok (t', es))
    (e : Effect) (he : e ∈ es) (ha : e.action = a) (val : Src → AV)
    (hval : ∀ src, val (reSrc (wayRes d.res) src) = srcVal s c.args e src)
    (hadm : allB grantOk (ofAction a gs) = false → JsonPathsAdmitted a gs c.args)
    (hin : sCnfHolds val cond = true) (w : String → AV)
    (hw : ∀ g, slotOk (w g) = true ∧ factsOk (groupLits fs g) (w g) = true)
    (hclass : ∀ n, resMatches s e.res (Pat.slot n) = true → avOf e.res = w (grpOf fs n)) :
    anyB (fun u => decide (u = gs.map (fun g => grantMatches s c.args g e))) listed = true := by
  have hadm' : JsonPathsAdmitted a gs c.args := by
    cases h : allB grantOk (ofAction a gs) with
    | true => exact admVacuous a gs c.args (ofActionGrantOk h)
    | false => exact hadm h
  cases hq : classQA fs a p.tools gs E t d with
  | none =>
    have hq' : (match wayCond a p.tools gs E t d with
      | none => none
      | some cond =>
        some (buildQCA ((cond.map liftC).map liftSA ++ (factCl fs (wayRes d.res)
            (gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a p.tools) gs)))).map liftCA)
          ((gs.map (posOfA a (wayRes d.res) (actionKeys a (ownTools a p.tools) gs))).map liftPA))) = none := hq
    rw [hcond] at hq'
    cases hq'
  | some Q =>
    have hcov := decideWaysCCovered listedS listed _ [] hans Q (memSomesQC (f := fun w =>
      match allB grantOk (ofAction a gs) with
        | true => classQ fs a p.tools gs E w.1 w.2
        | false => classQA fs a p.tools gs E w.1 w.2) hway (by
      show (match allB grantOk (ofAction a gs) with
        | true => classQ fs a p.tools gs E t d
        | false => classQA fs a p.tools gs E t d) = some Q
      rw [oracleClassWriterIsClassQA]
      exact hq))
    exact preparedClassCoverMatchesA fs p a gs E t d listed cond Q hcond hq hfrag hcov s c t' es hprep e he ha val
      hval hadm' hin w hw hclass

end AgentWarrant.Revision.ArgCover
