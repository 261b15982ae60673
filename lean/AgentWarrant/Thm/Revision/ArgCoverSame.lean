import AgentWarrant.Thm.Revision.ArgCoverBuildAPrep
import AgentWarrant.Thm.Revision.ArgCoverNum
/-! On entries with scalar or null constants only, `wayQA` (`Spec/Revision/ArgCoverBuildA.lean`) writes
exactly the question `wayQ` (`Spec/Revision/ArgCoverBuild.lean`) writes (Agenra Sections 1 and 7.1: the
closure check's coverage question). The oracle's `arg_cover_policy` (`Oracle/ArgCover.lean`) writes `wayQ`
when every entry of the action is in `grantOk` and otherwise `wayQR` (`Spec/Revision/ArgCoverResA.lean`),
which writes `wayQA`'s question on entries in `grantOkA` (`wayQRIsA`); so whichever it wrote on such
entries, its question is `wayQA`'s, and one coverage theorem (`Thm.oracleCoverageIsMonitorMatching`, through
`oracleAnswerCoverR` in `Thm/Revision/ArgCoverResA.lean`) covers every action it answers for.
* `buildQALift`: numbering the clauses lifted into `ALit` (`liftC`) by `buildQA` gives `buildQ`'s question
  on the unlifted ones, the same `BuiltQ` (names, atoms, condition, positions): on lifted literals the
  Boolean test `sLitABeq` is `Lit`'s decidable equality, so `dedupB` keeps and `idxOfB` finds what
  `dedupL` and `idxOf` do;
* `posOfALift`: a position of an entry in `grantOk` that `posOfA` writes is `posOf`'s lifted (a scalar or
  null constant's `litOfConst` is `ALit.lit (eqLitOf c)`);
* `wayQSame`: hence `wayQ = wayQA` way by way when the entries of the action are in `grantOk`;
  `oracleWriterIsWayQA`: the oracle's choice of writer is `wayQA` for every action;
* `grantOkOkA`, `admVacuous`: an entry in `grantOk` is in `grantOkA` (scalars and null are admitted) and
  `JsonPathsAdmitted` holds of every call when every entry of the action is in `grantOk`, so the headline
  asks `hadm` only when the oracle wrote `wayQA` because of an array or object predicate constant;
* `decideWaysCovered`, `oracleCoveredWays`: the oracle's way-by-way decision answering `covered` on the
  questions it collects for the action's ways (`somesQ` over `ways`) means `argCover` answered covered on
  every way's question, so `oracleAnswerCoverDistinct` starts from the oracle's own answer.
Choices: the equality is proved of the questions themselves, not of their answers; the oracle is left
writing `wayQ` on scalar constants (its written-back questions are what the differential test compares);
the oracle's decoding of its JSON input is not part of these statements. -/
namespace AgentWarrant.Revision.ArgCover
open Lean AgentWarrant AgentWarrant.Monitor AgentWarrant.Monitor.Full

/-- A sourced `Lit` as an `ALit` (what `liftC` does to each literal of a clause). -/
def liftS (x : SLit) : SLitA := (x.1, ALit.lit x.2)

def liftPS : Option (List SClause) → Option (List SClauseA)
  | none => none
  | some f => some (f.map liftC)

theorem sLitABeqLift (x y : SLit) : sLitABeq (liftS x) (liftS y) = decide (x = y) := by
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

theorem anyBLift (x : SLit) : ∀ (acc : List SLit),
    anyB (fun y => sLitABeq y (liftS x)) (acc.map liftS) = anyB (fun y => decide (y = x)) acc
  | [] => rfl
  | y :: acc => by
    show (match sLitABeq (liftS y) (liftS x) with
      | true => true
      | false => anyB (fun z => sLitABeq z (liftS x)) (acc.map liftS)) =
      (match decide (y = x) with | true => true | false => anyB (fun z => decide (z = x)) acc)
    rw [sLitABeqLift, anyBLift x acc]

theorem dedupBLift : ∀ (xs acc : List SLit), dedupB sLitABeq (acc.map liftS) (xs.map liftS) = (dedupL acc xs).map liftS
  | [], _ => rfl
  | x :: xs, acc => by
    show (match anyB (fun y => sLitABeq y (liftS x)) (acc.map liftS) with
      | true => dedupB sLitABeq (acc.map liftS) (xs.map liftS)
      | false => dedupB sLitABeq (acc.map liftS ++ [liftS x]) (xs.map liftS)) =
      (match anyB (fun y => decide (y = x)) acc with
      | true => dedupL acc xs
      | false => dedupL (acc ++ [x]) xs).map liftS
    rw [anyBLift x acc]
    cases anyB (fun y => decide (y = x)) acc with
    | true => exact dedupBLift xs acc
    | false =>
      have e : acc.map liftS ++ [liftS x] = (acc ++ [x]).map liftS := (mapAppend liftS acc [x]).symm
      show dedupB sLitABeq (acc.map liftS ++ [liftS x]) (xs.map liftS) = (dedupL (acc ++ [x]) xs).map liftS
      rw [e]
      exact dedupBLift xs (acc ++ [x])

theorem idxOfBLift (x : SLit) : ∀ (ys : List SLit), idxOfB sLitABeq (liftS x) (ys.map liftS) = idxOf x ys
  | [] => rfl
  | y :: ys => by
    show (match sLitABeq (liftS x) (liftS y) with | true => 0 | false => idxOfB sLitABeq (liftS x) (ys.map liftS) + 1) =
      (match decide (x = y) with | true => 0 | false => idxOf x ys + 1)
    rw [sLitABeqLift, idxOfBLift x ys]

theorem litsOfCALift (c : SClause) : litsOfCA (liftC c) = (litsOfC c).map liftS := by
  show (c.map _).map _ = (c.map _).map _
  rw [mapMapB, mapMapB]
  rfl

theorem litsOfFALift : ∀ (f : List SClause), litsOfFA (f.map liftC) = (litsOfF f).map liftS
  | [] => rfl
  | c :: f => by
    show litsOfCA (liftC c) ++ litsOfFA (f.map liftC) = (litsOfC c ++ litsOfF f).map liftS
    rw [litsOfCALift, litsOfFALift f, mapAppend]

theorem posLitsALift : ∀ (P : List (Option (List SClause))), posLitsA (P.map liftPS) = (posLits P).map liftS
  | [] => rfl
  | none :: P => posLitsALift P
  | some f :: P => by
    show litsOfFA (f.map liftC) ++ posLitsA (P.map liftPS) = (litsOfF f ++ posLits P).map liftS
    rw [litsOfFALift, posLitsALift P, mapAppend]

theorem numCALift (syms : List SLit) (c : SClause) : numCA (syms.map liftS) (liftC c) = numC syms c := by
  show (c.map _).map _ = c.map _
  rw [mapMapB]
  apply mapCongrB
  intro x _
  show (idxOfB sLitABeq (liftS x.1) (syms.map liftS), x.2) = (idxOf x.1 syms, x.2)
  rw [idxOfBLift]

theorem numFALift (syms : List SLit) (f : List SClause) : numFA (syms.map liftS) (f.map liftC) = numF syms f := by
  show (f.map liftC).map _ = f.map _
  rw [mapMapB]
  exact mapCongrB f (fun c _ => numCALift syms c)

theorem numPALift (syms : List SLit) : ∀ (o : Option (List SClause)), numPA (syms.map liftS) (liftPS o) = numP syms o
  | none => rfl
  | some f => congrArg some (numFALift syms f)

theorem fstLift (syms : List SLit) : (syms.map liftS).map (fun x => x.1) = syms.map (fun x => x.1) := by
  rw [mapMapB]
  rfl

/-- `buildQA` on lifted clauses is `buildQ` on the unlifted ones: the same names, atoms, condition and
positions. -/
theorem buildQALift (F : List SClause) (P : List (Option (List SClause))) :
    buildQA (F.map liftC) (P.map liftPS) = buildQ F P := by
  have hs : dedupB sLitABeq [] (litsOfFA (F.map liftC) ++ posLitsA (P.map liftPS)) =
      (dedupL [] (litsOfF F ++ posLits P)).map liftS := by
    rw [litsOfFALift, posLitsALift, ← mapAppend]
    exact dedupBLift _ []
  show BuiltQ.mk (dedupL [] ((dedupB sLitABeq [] (litsOfFA (F.map liftC) ++ posLitsA (P.map liftPS))).map (fun x => x.1)))
      ((dedupB sLitABeq [] (litsOfFA (F.map liftC) ++ posLitsA (P.map liftPS))).map (fun x =>
        (idxOf x.1 (dedupL [] ((dedupB sLitABeq [] (litsOfFA (F.map liftC) ++ posLitsA (P.map liftPS))).map
          (fun x => x.1))), x.2)))
      (numFA (dedupB sLitABeq [] (litsOfFA (F.map liftC) ++ posLitsA (P.map liftPS))) (F.map liftC))
      ((P.map liftPS).map (numPA (dedupB sLitABeq [] (litsOfFA (F.map liftC) ++ posLitsA (P.map liftPS))))) =
    BuiltQ.mk (dedupL [] ((dedupL [] (litsOfF F ++ posLits P)).map (fun x => x.1)))
      ((dedupL [] (litsOfF F ++ posLits P)).map (fun x =>
        (idxOf x.1 (dedupL [] ((dedupL [] (litsOfF F ++ posLits P)).map (fun x => x.1))), ALit.lit x.2)))
      (numF (dedupL [] (litsOfF F ++ posLits P)) F)
      (P.map (numP (dedupL [] (litsOfF F ++ posLits P))))
  rw [hs, fstLift, numFALift, mapMapB, mapMapB]
  have hp : P.map (fun o => numPA ((dedupL [] (litsOfF F ++ posLits P)).map liftS) (liftPS o)) =
      P.map (numP (dedupL [] (litsOfF F ++ posLits P))) :=
    mapCongrB P (fun o _ => numPALift _ o)
  rw [hp]
  rfl

-- a position of an entry with scalar or null constants ---------------------------------------------

theorem litOfConstScalar {c : Json} (h : scalarOrNull c = true) : litOfConst c = ALit.lit (eqLitOf c) := by
  show (match scalarOrNull c with | true => ALit.lit (eqLitOf c) | false => ALit.eqJson c) = _
  rw [h]

theorem mapLitOfConst : ∀ (cs : List Json), allB scalarOrNull cs = true →
    cs.map litOfConst = cs.map (fun c => ALit.lit (eqLitOf c))
  | [], _ => rfl
  | c :: cs, h => by
    have ⟨h1, h2⟩ := andT h
    show litOfConst c :: cs.map litOfConst = ALit.lit (eqLitOf c) :: cs.map (fun c => ALit.lit (eqLitOf c))
    rw [litOfConstScalar h1, mapLitOfConst cs h2]

/-- The clause `posOf` writes for a predicate with scalar or null constants, lifted, is `posOfA`'s. -/
theorem predClauseALift (rk : Src) : ∀ (p : Pred), predOk p = true →
    predClauseA rk p = liftC ((predConj p).2.map (fun l => ((reSrc rk (predConj p).1, l), true)))
  | Pred.eq path c, h => by
    show [litOfConst c].map (fun l => ((reSrc rk (Src.path path), l), true)) =
      liftC ([eqLitOf c].map (fun l => ((reSrc rk (Src.path path), l), true)))
    rw [litOfConstScalar h]
    rfl
  | Pred.oneOf path cs, h => by
    show (cs.map litOfConst).map (fun l => ((reSrc rk (Src.path path), l), true)) =
      ((cs.map eqLitOf).map (fun l => ((reSrc rk (Src.path path), l), true))).map _
    rw [mapLitOfConst cs h, mapMapB, mapMapB, mapMapB]
  | Pred.range _ _ _, _ => rfl

theorem posOfALift (a : String) (rk : Src) (keys : List String) (g : Monitor.Full.Grant)
    (hg : g.action = a → grantOk g = true) : posOfA a rk keys g = liftPS (posOf a rk keys g) := by
  cases h : g.action == a with
  | false =>
    show (match g.action == a with
      | true => some (((patConj g.pat).map (fun c => c.2.map (fun l => ((reSrc rk c.1, l), true)))).map liftC ++
          g.preds.map (predClauseA rk) ++ (slotConj rk g.pat).map liftC ++ (keyConj keys g.keys).map liftC)
      | false => none) =
      liftPS (match g.action == a with
      | true => some ((patConj g.pat ++ g.preds.map predConj).map (fun c => c.2.map (fun l => ((reSrc rk c.1, l), true))) ++
          slotConj rk g.pat ++ keyConj keys g.keys)
      | false => none)
    rw [h]
    rfl
  | true =>
    have ⟨_, hq⟩ := andT (hg (ofDecideEqTrue h))
    have hp : g.preds.map (predClauseA rk) =
        ((g.preds.map predConj).map (fun (c : Conj) => c.2.map (fun l => ((reSrc rk c.1, l), true)))).map liftC := by
      rw [mapMapB, mapMapB]
      exact mapCongrB g.preds (fun p hp => predClauseALift rk p (allBElim hq p hp))
    have e : ((patConj g.pat).map (fun (c : Conj) => c.2.map (fun l => ((reSrc rk c.1, l), true)))).map liftC ++
          g.preds.map (predClauseA rk) ++ (slotConj rk g.pat).map liftC ++ (keyConj keys g.keys).map liftC =
        ((patConj g.pat ++ g.preds.map predConj).map (fun (c : Conj) => c.2.map (fun l => ((reSrc rk c.1, l), true))) ++
          slotConj rk g.pat ++ keyConj keys g.keys).map liftC := by
      rw [hp, mapAppend, mapAppend, mapAppend, mapAppend]
    show (match g.action == a with
      | true => some (((patConj g.pat).map (fun c => c.2.map (fun l => ((reSrc rk c.1, l), true)))).map liftC ++
          g.preds.map (predClauseA rk) ++ (slotConj rk g.pat).map liftC ++ (keyConj keys g.keys).map liftC)
      | false => none) =
      liftPS (match g.action == a with
      | true => some ((patConj g.pat ++ g.preds.map predConj).map (fun c => c.2.map (fun l => ((reSrc rk c.1, l), true))) ++
          slotConj rk g.pat ++ keyConj keys g.keys)
      | false => none)
    rw [h]
    exact congrArg some e

/-- On entries of the action with scalar or null constants only, `wayQA` writes `wayQ`'s question. -/
theorem wayQSame (a : String) (tools : List Tool) (gs : List Monitor.Full.Grant) (E : Option (List Json)) (t : Tool)
    (d : EffDecl) (hfrag : ∀ g, g ∈ gs → g.action = a → grantOk g = true) :
    wayQ a tools gs E t d = wayQA a tools gs E t d := by
  show (match wayCond a tools gs E t d with
    | none => none
    | some cond => some (buildQ cond (gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a tools) gs))))) =
    (match wayCond a tools gs E t d with
    | none => none
    | some cond => some (buildQA (cond.map liftC) (gs.map (posOfA a (wayRes d.res) (actionKeys a (ownTools a tools) gs)))))
  cases wayCond a tools gs E t d with
  | none => rfl
  | some cond =>
    have hp : gs.map (posOfA a (wayRes d.res) (actionKeys a (ownTools a tools) gs)) =
        (gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a tools) gs))).map liftPS := by
      rw [mapMapB]
      exact mapCongrB gs (fun g hg => posOfALift a _ _ g (hfrag g hg))
    show some (buildQ cond _) = some (buildQA (cond.map liftC) _)
    rw [hp, buildQALift]

theorem ofActionGrantOk {a : String} {gs : List Monitor.Full.Grant} (h : allB grantOk (ofAction a gs) = true) :
    ∀ g, g ∈ gs → g.action = a → grantOk g = true := by
  intro g hg ha
  apply allBElim h g
  apply filtMem hg
  rw [ha]
  exact strBeqSelf a

/-- The writer `arg_cover_policy` picks (`wayQ` when every entry of the action is in `grantOk`, else
`wayQA`) writes `wayQA`'s question for every action. -/
theorem oracleWriterIsWayQA (a : String) (tools : List Tool) (gs : List Monitor.Full.Grant) (E : Option (List Json))
    (t : Tool) (d : EffDecl) :
    (match allB grantOk (ofAction a gs) with
      | true => wayQ a tools gs E t d
      | false => wayQA a tools gs E t d) = wayQA a tools gs E t d := by
  cases h : allB grantOk (ofAction a gs) with
  | true => exact wayQSame a tools gs E t d (ofActionGrantOk h)
  | false => rfl

-- `grantOk` inside `grantOkA`; `hadm` vacuous on it -------------------------------------------------

theorem scalarAdmitted : ∀ (c : Json), scalarOrNull c = true → admitted c = true
  | Json.null, _ => rfl
  | Json.bool _, _ => rfl
  | Json.num _, _ => rfl
  | Json.str _, _ => rfl
  | Json.arr _, h => by cases h
  | Json.obj _, h => by cases h

theorem allScalarAdmitted : ∀ (cs : List Json), allB scalarOrNull cs = true → allB admitted cs = true
  | [], _ => rfl
  | c :: cs, h => by
    have ⟨h1, h2⟩ := andT h
    show (match admitted c with | true => allB admitted cs | false => false) = true
    rw [scalarAdmitted c h1]
    exact allScalarAdmitted cs h2

theorem predOkOkA : ∀ (p : Pred), predOk p = true → predOkA p = true
  | Pred.eq _ c, h => scalarAdmitted c h
  | Pred.oneOf _ cs, h => allScalarAdmitted cs h
  | Pred.range _ _ _, _ => rfl

theorem allPredOkA : ∀ (ps : List Pred), allB predOk ps = true → allB predOkA ps = true
  | [], _ => rfl
  | p :: ps, h => by
    have ⟨h1, h2⟩ := andT h
    show (match predOkA p with | true => allB predOkA ps | false => false) = true
    rw [predOkOkA p h1]
    exact allPredOkA ps h2

theorem grantOkOkA (g : Monitor.Full.Grant) (h : grantOk g = true) : grantOkA g = true := by
  have ⟨h1, h2⟩ := andT h
  show (patOkS g.pat && allB predOkA g.preds) = true
  rw [h1, allPredOkA g.preds h2]
  rfl

theorem predOkNotJson : ∀ (p : Pred), predOk p = true → predJsonConst p = false
  | Pred.eq _ c, h => by
    show (!scalarOrNull c) = false
    have h' : scalarOrNull c = true := h
    rw [h']
    rfl
  | Pred.oneOf _ cs, h => by
    show anyB (fun c => !scalarOrNull c) cs = false
    cases hb : anyB (fun c => !scalarOrNull c) cs with
    | false => rfl
    | true =>
      have ⟨c, hc, hn⟩ := anyBElim hb
      have hs : scalarOrNull c = true := allBElim h c hc
      rw [hs] at hn
      cases hn
  | Pred.range _ _ _, _ => rfl

/-- `hadm` holds of every call when every entry of the action has scalar or null constants only. -/
theorem admVacuous (a : String) (gs : List Monitor.Full.Grant) (args : List (String × Json))
    (hfrag : ∀ g, g ∈ gs → g.action = a → grantOk g = true) : JsonPathsAdmitted a gs args := by
  intro g hg ha q hq hj
  have ⟨_, hp⟩ := andT (hfrag g hg ha)
  rw [predOkNotJson q (allBElim hp q hq)] at hj
  cases hj

/-- The coverage theorem for the question `arg_cover_policy` writes, whichever writer it picks: every way's
question the oracle writes answered covered puts the monitor's match vector of every prepared call among
the listed ones; `hadm` is asked only when the oracle wrote `wayQA` because an entry has an array or object
predicate constant. -/
theorem oracleCoverDistinct (p : Policy) (a : String) (gs : List Monitor.Full.Grant) (E : Option (List Json))
    (listed : List (List Bool))
    (hfrag : ∀ g, g ∈ gs → g.action = a → grantOkA g = true)
    (hcov : ∀ t d q, (t, d) ∈ ways a p.tools →
      (match allB grantOk (ofAction a gs) with
        | true => wayQ a p.tools gs E t d
        | false => wayQA a p.tools gs E t d) = some q →
      argCover (Oracle.ArgCover.good q.cond q.pos listed) q.atoms = Answer.covered)
    (s : State) (hreach : ∃ cs, s = (runFull p (initialState p) cs).2)
    (c : Call) (t : Tool) (es : List Effect) (hprep : prepare p s c = Except.ok (t, es))
    (e : Effect) (he : e ∈ es) (ha : e.action = a)
    (hE : InE E e) (hdistinct : keysDistinct c.args = true)
    (hadm : allB grantOk (ofAction a gs) = false → JsonPathsAdmitted a gs c.args) :
    anyB (fun u => decide (u = gs.map (fun g => grantMatches s c.args g e))) listed = true := by
  have hcovA : WaysCoveredA p a gs E listed := by
    intro t d cond hw hcond
    apply hcov t d _ hw
    rw [oracleWriterIsWayQA]
    show (match wayCond a p.tools gs E t d with
      | none => none
      | some cond => some (buildQA (cond.map liftC)
          (gs.map (posOfA a (wayRes d.res) (actionKeys a (ownTools a p.tools) gs))))) = _
    rw [hcond]
  have hadm' : JsonPathsAdmitted a gs c.args := by
    cases h : allB grantOk (ofAction a gs) with
    | true => exact admVacuous a gs c.args (ofActionGrantOk h)
    | false => exact hadm h
  exact preparedCoverDistinctA p a gs E listed hfrag hcovA s hreach c t es hprep e he ha hE hdistinct hadm'

-- the oracle's `covered` answer -----------------------------------------------------------------------

theorem uncovAnswer (a b c d e : Json) :
    (Json.mkObj [("answer", toJson "uncovered"), ("reason", a), ("names", b), ("witness", c), ("vector", d),
      ("questions", e)]).getObjVal? "answer" = Except.ok (Json.str "uncovered") := rfl

/-- The oracle's way-by-way decision (`decideWays`) answers `covered` only when `argCover` answers covered
on every question it is given (`unknown` never comes, `argCoverNeverUnknown`). -/
theorem decideWaysCovered (listedS : List String) (listed : List (List Bool)) :
    ∀ (qs : List BuiltQ) (acc : List Json),
      (Oracle.ArgCover.decideWays listedS listed qs acc).getObjVal? "answer" = Except.ok (Json.str "covered") →
      ∀ q, q ∈ qs → argCover (Oracle.ArgCover.good q.cond q.pos listed) q.atoms = Answer.covered
  | [], _, _, q, hq => absurd hq notMemNil
  | r :: rest, acc, h, q, hq => by
    cases hr : argCover (Oracle.ArgCover.good r.cond r.pos listed) r.atoms with
    | uncovered xs =>
      have h' := h
      simp only [Oracle.ArgCover.decideWays, hr] at h'
      rw [uncovAnswer] at h'
      have hs := congrArg (fun (x : Except String Json) => match x with
        | Except.ok (Json.str s) => s
        | _ => "") h'
      exact absurd hs (by decide)
    | unknown => exact absurd hr (argCoverNeverUnknown _ _)
    | covered =>
      have h' := h
      simp only [Oracle.ArgCover.decideWays, hr] at h'
      cases hq with
      | head => exact hr
      | tail _ hq' => exact decideWaysCovered listedS listed rest _ h' q hq'

theorem memSomesQ {q : BuiltQ} {f : Tool × EffDecl → Option BuiltQ} :
    ∀ {l : List (Tool × EffDecl)} {w : Tool × EffDecl}, w ∈ l → f w = some q → q ∈ Oracle.ArgCover.somesQ (l.map f)
  | [], _, hw, _ => absurd hw notMemNil
  | x :: l, w, hw, hf => by
    cases hw with
    | head =>
      show q ∈ Oracle.ArgCover.somesQ (f x :: l.map f)
      rw [hf]
      exact Mem.head _
    | tail _ hw' =>
      have ih := memSomesQ (f := f) hw' hf
      show q ∈ Oracle.ArgCover.somesQ (f x :: l.map f)
      cases f x with
      | none => exact ih
      | some q' => exact Mem.tail _ ih

/-- The oracle answering `covered` on the questions of the action's ways, as `arg_cover_policy` collects
them (`somesQ` over `ways`), is `argCover` answering covered on the question of every way. -/
theorem oracleCoveredWays (a : String) (tools : List Tool) (W : Tool → EffDecl → Option BuiltQ)
    (listedS : List String) (listed : List (List Bool))
    (h : (Oracle.ArgCover.decideWays listedS listed
      (Oracle.ArgCover.somesQ ((ways a tools).map (fun w => W w.1 w.2))) []).getObjVal? "answer" =
      Except.ok (Json.str "covered")) :
    ∀ t d q, (t, d) ∈ ways a tools → W t d = some q →
      argCover (Oracle.ArgCover.good q.cond q.pos listed) q.atoms = Answer.covered :=
  fun t d q hw hq => decideWaysCovered listedS listed _ [] h q (memSomesQ (f := fun w => W w.1 w.2) hw hq)

/-- `oracleCoverDistinct` from the oracle's own `covered` answer on the questions it writes. -/
theorem oracleAnswerCoverDistinct (p : Policy) (a : String) (gs : List Monitor.Full.Grant) (E : Option (List Json))
    (listedS : List String) (listed : List (List Bool))
    (hfrag : ∀ g, g ∈ gs → g.action = a → grantOkA g = true)
    (hans : (Oracle.ArgCover.decideWays listedS listed (Oracle.ArgCover.somesQ ((ways a p.tools).map (fun w =>
      match allB grantOk (ofAction a gs) with
        | true => wayQ a p.tools gs E w.1 w.2
        | false => wayQA a p.tools gs E w.1 w.2))) []).getObjVal? "answer" = Except.ok (Json.str "covered"))
    (s : State) (hreach : ∃ cs, s = (runFull p (initialState p) cs).2)
    (c : Call) (t : Tool) (es : List Effect) (hprep : prepare p s c = Except.ok (t, es))
    (e : Effect) (he : e ∈ es) (ha : e.action = a)
    (hE : InE E e) (hdistinct : keysDistinct c.args = true)
    (hadm : allB grantOk (ofAction a gs) = false → JsonPathsAdmitted a gs c.args) :
    anyB (fun u => decide (u = gs.map (fun g => grantMatches s c.args g e))) listed = true :=
  oracleCoverDistinct p a gs E listed hfrag
    (oracleCoveredWays a p.tools (fun t d => match allB grantOk (ofAction a gs) with
        | true => wayQ a p.tools gs E t d
        | false => wayQA a p.tools gs E t d) listedS listed hans)
    s hreach c t es hprep e he ha hE hdistinct hadm

end AgentWarrant.Revision.ArgCover
