import AgentWarrant.Spec.Revision.ArgCoverClassR
import AgentWarrant.Thm.Revision.ArgCoverClassA
import AgentWarrant.Thm.Revision.ArgCoverResA
import AgentWarrant.Thm.Revision.ArgCoverNeqQ
/-! The class question on `wayQR`'s positions (`Spec/Revision/ArgCoverClassR.lean`, `classQR`) means the
monitor's matching on the class's binding states (Agenra Sections 1 and 7.1), as `classCoverMatchesA` states
for `classQA`:
* `classQRKeysOk`: every literal of `classQR`'s question passes the oracle's name check when the entries of
  the action are in `grantOkR` (the way's literals are `wayQRKeysOk`'s, the class's are `Lit`s);
* `classCoverMatchesR`: a `covered` answer on `classQR`'s question covers every call of every binding state
  of the class on an effect whose resource is a scalar or null (`hres`), under `classCoverMatchesA`'s
  hypotheses with `grantOkR` for `grantOkA`; on the calls the monitor prepares, `preparedClassCoverMatchesR`,
  where `hres` follows from `ToolResScalar` (`preparedResScalar`);
* `classQRIsA`: on entries of the action in `grantOkA`, `classQR` writes `classQA`'s question, so
  `ToolResScalar` is needed only when an entry has an array or object resource constant
  (`preparedClassCoverMatchesRA`);
* `classNeqCoverMatchesR`: the same for `classQNR` (a class denying equalities between slots), on a binding
  state whose group values differ where the class denies an equality (`hapart`), the denied equalities'
  clauses holding by `neqClHolds`; `hres` is asked only when an entry of the action lies outside `grantOkA`
  (`posMapMatchesRA`); on prepared calls `preparedClassNeqCoverMatchesR`, and of the oracle's way-by-way
  `covered` `oracleClassCoverR` and `oracleClassNeqCoverR`.
The converse, on the class's meaning, is `classUncoveredMeantR` (`Thm/Revision/ArgCoverClassConvR.lean`);
for `classQNR` it is proved only against the class without its denials (`classUncoveredMeantNR`: an
`uncovered` witness may stand for no binding state of the class with them, as for `classQN`). Not proved:
that the Python translation writes the same clauses (compared clause for clause,
tests/drt/test_arg_cover_facts.py). -/
namespace AgentWarrant.Revision.ArgCover
open Lean AgentWarrant AgentWarrant.Monitor AgentWarrant.Monitor.Full

theorem classQRKeysOk (a : String) (rk : Src) (keys : List String) (cond : List SClause) (F : List CClause)
    (gs : List Monitor.Full.Grant) (hfrag : ∀ g, g ∈ gs → g.action = a → grantOkR g = true) :
    ∀ y, y ∈ litsOfFCA ((cond.map liftC).map liftSA ++ F.map liftCA) ++ posLitsCA ((gs.map (posOfR a rk keys)).map liftPA) →
      aLitKeysOk y.2 = true := by
  intro y hy
  have hw := wayQRKeysOk a rk keys cond gs hfrag
  cases memAppE hy with
  | inl h1 =>
    have ⟨c, x, hc, hx, e⟩ := litsOfFCAOut h1
    cases memAppE hc with
    | inl hc1 =>
      have ⟨z, hz, ez⟩ := liftSALit (litsOfFCAMem hc1 hx)
      rw [← e, ← ez]
      exact hw z (memAppL _ hz)
    | inr hc2 =>
      rw [← e]
      exact liftCALit (litsOfFCAMem hc2 hx)
  | inr h2 =>
    have ⟨z, hz, ez⟩ := posLitsCAOut h2
    rw [← ez]
    exact hw z (memAppR _ _ hz)

/-- `classCoverMatchesA` for `classQR`: with the entries of the action in `grantOkR` (array or object
resource constants included), a `covered` answer on the class question puts the monitor's match vector of
every call of every binding state of the class meeting the way's condition among the listed ones, on an
effect whose resource is a scalar or null (`hres`). -/
theorem classCoverMatchesR (fs : List Fact) (a : String) (tools : List Tool) (gs : List Monitor.Full.Grant)
    (E : Option (List Json)) (t : Tool) (d : EffDecl) (listed : List (List Bool)) (cond : List SClause)
    (Q : BuiltQC) (hcond : wayCond a tools gs E t d = some cond) (hq : classQR fs a tools gs E t d = some Q)
    (hfrag : ∀ g, g ∈ gs → g.action = a → grantOkR g = true)
    (hcov : argCover (Oracle.ArgCover.good Q.cond Q.pos listed) Q.atoms = Answer.covered)
    (s : State) (args : List (String × Json)) (e : Effect) (ha : e.action = a) (val : Src → AV)
    (hval : ∀ src, val (reSrc (wayRes d.res) src) = srcVal s args e src)
    (hdecl : ∀ x, x ∈ args → memStr x.1 (actionKeys a (ownTools a tools) gs) = true)
    (hres : scalarOrNull e.res = true)
    (hadm : JsonPathsAdmitted a gs args)
    (hin : sCnfHolds val cond = true) (w : String → AV)
    (hw : ∀ g, slotOk (w g) = true ∧ factsOk (groupLits fs g) (w g) = true)
    (hclass : ∀ n, resMatches s e.res (Pat.slot n) = true → avOf e.res = w (grpOf fs n)) :
    anyB (fun u => decide (u = gs.map (fun g => grantMatches s args g e))) listed = true := by
  have hq' : (match wayCond a tools gs E t d with
    | none => none
    | some cond =>
      some (buildQCA ((cond.map liftC).map liftSA ++ (factCl fs (wayRes d.res)
          (gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a tools) gs)))).map liftCA)
        ((gs.map (posOfR a (wayRes d.res) (actionKeys a (ownTools a tools) gs))).map liftPA))) = some Q := hq
  rw [hcond] at hq'
  have hQ := Option.some.inj hq'
  subst hQ
  exact classCoverMatchesP fs a tools gs d listed cond (gs.map (posOfR a (wayRes d.res) (actionKeys a (ownTools a tools) gs)))
    (classQRKeysOk a (wayRes d.res) (actionKeys a (ownTools a tools) gs) cond _ gs hfrag) hcov s args e val hval hin w hw hclass
    (posMapMatchesR s args e a (wayRes d.res) (actionKeys a (ownTools a tools) gs) val hval ha hdecl
      (classBindOk fs s e w hw hclass) hres gs hfrag hadm)

/-- `classCoverMatchesR` on every call the monitor prepares: the call's keys are the action's
(`preparedDeclared`) and, when no tool declares an array or object resource constant (`ToolResScalar`),
the effect's resource is a scalar or null (`preparedResScalar`). -/
theorem preparedClassCoverMatchesR (fs : List Fact) (p : Policy) (a : String) (gs : List Monitor.Full.Grant)
    (E : Option (List Json)) (t : Tool) (d : EffDecl) (listed : List (List Bool)) (cond : List SClause)
    (Q : BuiltQC) (hcond : wayCond a p.tools gs E t d = some cond) (hq : classQR fs a p.tools gs E t d = some Q)
    (hfrag : ∀ g, g ∈ gs → g.action = a → grantOkR g = true) (htools : ToolResScalar p)
    (hcov : argCover (Oracle.ArgCover.good Q.cond Q.pos listed) Q.atoms = Answer.covered)
    (s : State) (c : Call) (t' : Tool) (es : List Effect) (hprep : prepare p s c = Except.ok (t', es))
    (e : Effect) (he : e ∈ es) (ha : e.action = a) (val : Src → AV)
    (hval : ∀ src, val (reSrc (wayRes d.res) src) = srcVal s c.args e src)
    (hadm : JsonPathsAdmitted a gs c.args)
    (hin : sCnfHolds val cond = true) (w : String → AV)
    (hw : ∀ g, slotOk (w g) = true ∧ factsOk (groupLits fs g) (w g) = true)
    (hclass : ∀ n, resMatches s e.res (Pat.slot n) = true → avOf e.res = w (grpOf fs n)) :
    anyB (fun u => decide (u = gs.map (fun g => grantMatches s c.args g e))) listed = true :=
  classCoverMatchesR fs a p.tools gs E t d listed cond Q hcond hq hfrag hcov s c.args e ha val hval
    (preparedDeclared p s c t' es hprep e he a ha gs) (preparedResScalar p s c t' es hprep htools e he) hadm hin w
    hw hclass

/-- On entries of the action in `grantOkA`, `classQR` writes `classQA`'s question. -/
theorem classQRIsA (fs : List Fact) (a : String) (tools : List Tool) (gs : List Monitor.Full.Grant)
    (E : Option (List Json)) (t : Tool) (d : EffDecl) (hA : ∀ g, g ∈ gs → g.action = a → grantOkA g = true) :
    classQR fs a tools gs E t d = classQA fs a tools gs E t d := by
  show (match wayCond a tools gs E t d with
    | none => none
    | some cond =>
      some (buildQCA ((cond.map liftC).map liftSA ++ (factCl fs (wayRes d.res)
          (gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a tools) gs)))).map liftCA)
        ((gs.map (posOfR a (wayRes d.res) (actionKeys a (ownTools a tools) gs))).map liftPA))) =
    (match wayCond a tools gs E t d with
    | none => none
    | some cond =>
      some (buildQCA ((cond.map liftC).map liftSA ++ (factCl fs (wayRes d.res)
          (gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a tools) gs)))).map liftCA)
        ((gs.map (posOfA a (wayRes d.res) (actionKeys a (ownTools a tools) gs))).map liftPA)))
  rw [mapCongrB gs (fun g hg => posOfRA a (wayRes d.res) (actionKeys a (ownTools a tools) gs) g (hA g hg))]

/-- `preparedClassCoverMatchesR` asking `ToolResScalar` only when an entry of the action lies outside
`grantOkA` (an array or object resource constant): otherwise `classQR` is `classQA` (`classQRIsA`) and
`preparedClassCoverMatchesA` applies. -/
theorem preparedClassCoverMatchesRA (fs : List Fact) (p : Policy) (a : String) (gs : List Monitor.Full.Grant)
    (E : Option (List Json)) (t : Tool) (d : EffDecl) (listed : List (List Bool)) (cond : List SClause)
    (Q : BuiltQC) (hcond : wayCond a p.tools gs E t d = some cond) (hq : classQR fs a p.tools gs E t d = some Q)
    (hfrag : ∀ g, g ∈ gs → g.action = a → grantOkR g = true)
    (htools : allB grantOkA (ofAction a gs) = false → ToolResScalar p)
    (hcov : argCover (Oracle.ArgCover.good Q.cond Q.pos listed) Q.atoms = Answer.covered)
    (s : State) (c : Call) (t' : Tool) (es : List Effect) (hprep : prepare p s c = Except.ok (t', es))
    (e : Effect) (he : e ∈ es) (ha : e.action = a) (val : Src → AV)
    (hval : ∀ src, val (reSrc (wayRes d.res) src) = srcVal s c.args e src)
    (hadm : JsonPathsAdmitted a gs c.args)
    (hin : sCnfHolds val cond = true) (w : String → AV)
    (hw : ∀ g, slotOk (w g) = true ∧ factsOk (groupLits fs g) (w g) = true)
    (hclass : ∀ n, resMatches s e.res (Pat.slot n) = true → avOf e.res = w (grpOf fs n)) :
    anyB (fun u => decide (u = gs.map (fun g => grantMatches s c.args g e))) listed = true := by
  cases hA : allB grantOkA (ofAction a gs) with
  | true =>
    have hokA := ofActionAll hA
    have hq' : classQA fs a p.tools gs E t d = some Q := by
      rw [← classQRIsA fs a p.tools gs E t d hokA]
      exact hq
    exact preparedClassCoverMatchesA fs p a gs E t d listed cond Q hcond hq' hokA hcov s c t' es hprep e he ha val
      hval hadm hin w hw hclass
  | false =>
    exact preparedClassCoverMatchesR fs p a gs E t d listed cond Q hcond hq hfrag (htools hA) hcov s c t' es hprep e
      he ha val hval hadm hin w hw hclass

/-- `posMapMatchesR` asking `hres` only when an entry of the action lies outside `grantOkA`: otherwise
`posOfR` is `posOfA` (`posOfRA`) and `posMapMatchesA` applies. -/
theorem posMapMatchesRA (s : State) (args : List (String × Json)) (e : Effect) (a : String) (rk : Src)
    (keys : List String) (val : Src → AV) (hval : ∀ src, val (reSrc rk src) = srcVal s args e src) (ha : e.action = a)
    (hin : ∀ x, x ∈ args → memStr x.1 keys = true)
    (hbind : ∀ n, resMatches s e.res (Pat.slot n) = true →
      holds Lit.scalar (avOf e.res) = true ∧ holds (Lit.eqStr []) (avOf e.res) = false)
    (gs : List Monitor.Full.Grant) (hres : allB grantOkA (ofAction a gs) = false → scalarOrNull e.res = true)
    (hg : ∀ g, g ∈ gs → g.action = a → grantOkR g = true)
    (hadm : JsonPathsAdmitted a gs args) :
    (gs.map (posOfR a rk keys)).map (sPosBitA val) = gs.map (fun g => grantMatches s args g e) := by
  cases hA : allB grantOkA (ofAction a gs) with
  | true =>
    have hokA := ofActionAll hA
    rw [mapCongrB gs (fun g hg' => posOfRA a rk keys g (hokA g hg'))]
    exact posMapMatchesA s args e a rk keys val hval ha hin hbind gs hokA hadm
  | false => exact posMapMatchesR s args e a rk keys val hval ha hin hbind (hres hA) gs hg hadm

/-- `classNeqCoverMatches` for `classQNR`: with the entries of the action in `grantOkR`, a `covered` answer
on the class question puts the monitor's match vector of every call of every binding state of the class
(group values with their facts, differing where the class denies an equality, `hapart`) meeting the way's
condition among the listed ones; the effect's resource a scalar or null (`hres`) only when an entry of the
action has an array or object resource constant. -/
theorem classNeqCoverMatchesR (fs : List Fact) (a : String) (tools : List Tool) (gs : List Monitor.Full.Grant)
    (E : Option (List Json)) (t : Tool) (d : EffDecl) (listed : List (List Bool)) (cond : List SClause)
    (Q : BuiltQC) (hcond : wayCond a tools gs E t d = some cond) (hq : classQNR fs a tools gs E t d = some Q)
    (hfrag : ∀ g, g ∈ gs → g.action = a → grantOkR g = true)
    (hcov : argCover (Oracle.ArgCover.good Q.cond Q.pos listed) Q.atoms = Answer.covered)
    (s : State) (args : List (String × Json)) (e : Effect) (ha : e.action = a) (val : Src → AV)
    (hval : ∀ src, val (reSrc (wayRes d.res) src) = srcVal s args e src)
    (hdecl : ∀ x, x ∈ args → memStr x.1 (actionKeys a (ownTools a tools) gs) = true)
    (hres : allB grantOkA (ofAction a gs) = false → scalarOrNull e.res = true)
    (hadm : JsonPathsAdmitted a gs args)
    (hin : sCnfHolds val cond = true) (w : String → AV)
    (hw : ∀ g, slotOk (w g) = true ∧ factsOk (groupLits fs g) (w g) = true)
    (hapart : ∀ x y, (x, FPat.slot y, false) ∈ fs → w (grpOf fs x) ≠ w (grpOf fs y))
    (hclass : ∀ n, resMatches s e.res (Pat.slot n) = true → avOf e.res = w (grpOf fs n)) :
    anyB (fun u => decide (u = gs.map (fun g => grantMatches s args g e))) listed = true := by
  let keys := actionKeys a (ownTools a tools) gs
  let pos := gs.map (posOf a (wayRes d.res) keys)
  let F := factCl fs (wayRes d.res) pos ++ neqCl fs (wayRes d.res) pos
  have hq' : (match wayCond a tools gs E t d with
    | none => none
    | some cond =>
      some (buildQCA ((cond.map liftC).map liftSA ++ F.map liftCA)
        ((gs.map (posOfR a (wayRes d.res) keys)).map liftPA))) = some Q := hq
  rw [hcond] at hq'
  have hQ := Option.some.inj hq'
  subst hQ
  have hbind := classBindOk fs s e w hw hclass
  have g := argCoveredSound _ _ hcov (valOfC (buildQCA ((cond.map liftC).map liftSA ++ F.map liftCA)
    ((gs.map (posOfR a (wayRes d.res) keys)).map liftPA)).names (classVal val w))
  have ⟨hc, hp⟩ := buildQCAMeans ((cond.map liftC).map liftSA ++ F.map liftCA)
    ((gs.map (posOfR a (wayRes d.res) keys)).map liftPA) (classVal val w)
    (classQRKeysOk a (wayRes d.res) keys cond F gs hfrag)
  have hv : (fun x => classVal val w (CSrc.src x)) = val := funext (fun _ => rfl)
  have h1 : cCnfHoldsA (classVal val w) ((cond.map liftC).map liftSA) = true := by
    rw [liftSAHolds, hv, liftFHolds]
    exact hin
  have h2 : cCnfHoldsA (classVal val w) (F.map liftCA) = true := by
    rw [liftCAHolds]
    exact cnfAppHolds _ _ _ (factClHolds fs (wayRes d.res) pos s args e val w hval hw hclass)
      (neqClHolds fs (wayRes d.res) pos s args e val w hval hclass hapart)
  have g2 := orFalseL g (hc.trans (cnfAppHoldsA _ _ _ h1 h2))
  rw [hp, liftPAMap, hv, posMapMatchesRA s args e a (wayRes d.res) keys val hval ha hdecl hbind gs hres hfrag hadm]
    at g2
  exact g2

/-- `classNeqCoverMatchesR` on every call the monitor prepares (`preparedDeclared`; the resource a scalar or
null by `preparedResScalar` when no tool declares an array or object resource constant, asked only when an
entry of the action has one). -/
theorem preparedClassNeqCoverMatchesR (fs : List Fact) (p : Policy) (a : String) (gs : List Monitor.Full.Grant)
    (E : Option (List Json)) (t : Tool) (d : EffDecl) (listed : List (List Bool)) (cond : List SClause)
    (Q : BuiltQC) (hcond : wayCond a p.tools gs E t d = some cond) (hq : classQNR fs a p.tools gs E t d = some Q)
    (hfrag : ∀ g, g ∈ gs → g.action = a → grantOkR g = true)
    (htools : allB grantOkA (ofAction a gs) = false → ToolResScalar p)
    (hcov : argCover (Oracle.ArgCover.good Q.cond Q.pos listed) Q.atoms = Answer.covered)
    (s : State) (c : Call) (t' : Tool) (es : List Effect) (hprep : prepare p s c = Except.ok (t', es))
    (e : Effect) (he : e ∈ es) (ha : e.action = a) (val : Src → AV)
    (hval : ∀ src, val (reSrc (wayRes d.res) src) = srcVal s c.args e src)
    (hadm : JsonPathsAdmitted a gs c.args)
    (hin : sCnfHolds val cond = true) (w : String → AV)
    (hw : ∀ g, slotOk (w g) = true ∧ factsOk (groupLits fs g) (w g) = true)
    (hapart : ∀ x y, (x, FPat.slot y, false) ∈ fs → w (grpOf fs x) ≠ w (grpOf fs y))
    (hclass : ∀ n, resMatches s e.res (Pat.slot n) = true → avOf e.res = w (grpOf fs n)) :
    anyB (fun u => decide (u = gs.map (fun g => grantMatches s c.args g e))) listed = true :=
  classNeqCoverMatchesR fs a p.tools gs E t d listed cond Q hcond hq hfrag hcov s c.args e ha val hval
    (preparedDeclared p s c t' es hprep e he a ha gs)
    (fun hA => preparedResScalar p s c t' es hprep (htools hA) e he) hadm hin w hw hapart hclass

/-- The oracle's way-by-way decision on the `classQR` questions of an action's ways, answering `covered`,
covers every call the monitor prepares in every binding state of the class meeting a way's condition. -/
theorem oracleClassCoverR (fs : List Fact) (p : Policy) (a : String) (gs : List Monitor.Full.Grant)
    (E : Option (List Json)) (listedS : List String) (listed : List (List Bool))
    (hfrag : ∀ g, g ∈ gs → g.action = a → grantOkR g = true)
    (htools : allB grantOkA (ofAction a gs) = false → ToolResScalar p)
    (hans : (Oracle.ArgCoverClass.decideWaysC listedS listed (Oracle.ArgCoverClass.somesQC ((ways a p.tools).map
      (fun w => classQR fs a p.tools gs E w.1 w.2))) []).getObjVal? "answer" = Except.ok (Json.str "covered"))
    (t : Tool) (d : EffDecl) (hway : (t, d) ∈ ways a p.tools) (cond : List SClause)
    (hcond : wayCond a p.tools gs E t d = some cond)
    (s : State) (c : Call) (t' : Tool) (es : List Effect) (hprep : prepare p s c = Except.ok (t', es))
    (e : Effect) (he : e ∈ es) (ha : e.action = a) (val : Src → AV)
    (hval : ∀ src, val (reSrc (wayRes d.res) src) = srcVal s c.args e src)
    (hadm : JsonPathsAdmitted a gs c.args)
    (hin : sCnfHolds val cond = true) (w : String → AV)
    (hw : ∀ g, slotOk (w g) = true ∧ factsOk (groupLits fs g) (w g) = true)
    (hclass : ∀ n, resMatches s e.res (Pat.slot n) = true → avOf e.res = w (grpOf fs n)) :
    anyB (fun u => decide (u = gs.map (fun g => grantMatches s c.args g e))) listed = true := by
  cases hq : classQR fs a p.tools gs E t d with
  | none =>
    have hq' : (match wayCond a p.tools gs E t d with
      | none => none
      | some cond =>
        some (buildQCA ((cond.map liftC).map liftSA ++ (factCl fs (wayRes d.res)
            (gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a p.tools) gs)))).map liftCA)
          ((gs.map (posOfR a (wayRes d.res) (actionKeys a (ownTools a p.tools) gs))).map liftPA))) = none := hq
    rw [hcond] at hq'
    cases hq'
  | some Q =>
    have hcov := decideWaysCCovered listedS listed _ [] hans Q
      (memSomesQC (f := fun w => classQR fs a p.tools gs E w.1 w.2) hway hq)
    exact preparedClassCoverMatchesRA fs p a gs E t d listed cond Q hcond hq hfrag htools hcov s c t' es hprep e he ha
      val hval hadm hin w hw hclass

/-- `oracleClassCoverR` for `classQNR` (a class denying equalities between slots; the oracle flags the
answer `"exact": false`). -/
theorem oracleClassNeqCoverR (fs : List Fact) (p : Policy) (a : String) (gs : List Monitor.Full.Grant)
    (E : Option (List Json)) (listedS : List String) (listed : List (List Bool))
    (hfrag : ∀ g, g ∈ gs → g.action = a → grantOkR g = true)
    (htools : allB grantOkA (ofAction a gs) = false → ToolResScalar p)
    (hans : (Oracle.ArgCoverClass.decideWaysC listedS listed (Oracle.ArgCoverClass.somesQC ((ways a p.tools).map
      (fun w => classQNR fs a p.tools gs E w.1 w.2))) []).getObjVal? "answer" = Except.ok (Json.str "covered"))
    (t : Tool) (d : EffDecl) (hway : (t, d) ∈ ways a p.tools) (cond : List SClause)
    (hcond : wayCond a p.tools gs E t d = some cond)
    (s : State) (c : Call) (t' : Tool) (es : List Effect) (hprep : prepare p s c = Except.ok (t', es))
    (e : Effect) (he : e ∈ es) (ha : e.action = a) (val : Src → AV)
    (hval : ∀ src, val (reSrc (wayRes d.res) src) = srcVal s c.args e src)
    (hadm : JsonPathsAdmitted a gs c.args)
    (hin : sCnfHolds val cond = true) (w : String → AV)
    (hw : ∀ g, slotOk (w g) = true ∧ factsOk (groupLits fs g) (w g) = true)
    (hapart : ∀ x y, (x, FPat.slot y, false) ∈ fs → w (grpOf fs x) ≠ w (grpOf fs y))
    (hclass : ∀ n, resMatches s e.res (Pat.slot n) = true → avOf e.res = w (grpOf fs n)) :
    anyB (fun u => decide (u = gs.map (fun g => grantMatches s c.args g e))) listed = true := by
  cases hq : classQNR fs a p.tools gs E t d with
  | none =>
    have hq' : (match wayCond a p.tools gs E t d with
      | none => none
      | some cond =>
        some (buildQCA ((cond.map liftC).map liftSA ++ (factCl fs (wayRes d.res)
            (gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a p.tools) gs))) ++
            neqCl fs (wayRes d.res) (gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a p.tools) gs)))).map liftCA)
          ((gs.map (posOfR a (wayRes d.res) (actionKeys a (ownTools a p.tools) gs))).map liftPA))) = none := hq
    rw [hcond] at hq'
    cases hq'
  | some Q =>
    have hcov := decideWaysCCovered listedS listed _ [] hans Q
      (memSomesQC (f := fun w => classQNR fs a p.tools gs E w.1 w.2) hway hq)
    exact preparedClassNeqCoverMatchesR fs p a gs E t d listed cond Q hcond hq hfrag htools hcov s c t' es hprep e he
      ha val hval hadm hin w hw hapart hclass

end AgentWarrant.Revision.ArgCover
