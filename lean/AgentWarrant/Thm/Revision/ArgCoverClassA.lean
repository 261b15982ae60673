import AgentWarrant.Spec.Revision.ArgCoverClassA
import AgentWarrant.Thm.Revision.ArgCoverClass
import AgentWarrant.Thm.Revision.ArgCoverBuildA
/-! The class question on `wayQA`'s positions (`Spec/Revision/ArgCoverClassA.lean`, `classQA`) means the
monitor's matching on the class's binding states (Agenra Sections 1 and 7.1), as `classCoverMatches` states
for `classQ`:
* `buildQCAMeans`: numbering `CSrc × ALit` literals by `cLitABeq` keeps meaning when every literal's array or
  object constant passes the oracle's name check (`buildQAMeans`'s proof on `CSrc`);
* `classQAKeysOk`: every literal of `classQA`'s question passes it when the entries of the action are in
  `grantOkA` (the class's literals are `Lit`s; the way's are `wayQAKeysOk`'s);
* `classCoverMatchesA`: a `covered` answer on `classQA`'s question covers every call of every binding state
  of the class, under `classCoverMatches`'s hypotheses with `grantOkA` for `grantOk` and `builtCoverMatchesA`'s
  `hadm` (`JsonPathsAdmitted`); on the calls the monitor prepares, `preparedClassCoverMatchesA`. Its proof is
  `classCoverMatchesP`, stated for any positions whose literals pass the name check and which are the monitor's
  matching on the call, which `classCoverMatchesR` (`posOfR`'s positions) uses too. The converse,
  on the class's meaning, is `classUncoveredMeantA` (`Thm/Revision/ArgCoverClassConvA.lean`). -/
namespace AgentWarrant.Revision.ArgCover
open Lean AgentWarrant AgentWarrant.Monitor AgentWarrant.Monitor.Full

theorem cLitABeqSound (x y : CLitA) (h : cLitABeq x y = true) : x = y := by
  have ⟨h1, h2⟩ := andT h
  have e1 : x.1 = y.1 := ofDecideEqTrue h1
  have e2 := aLitBeqSound x.2 y.2 h2
  cases x with
  | mk s l =>
    cases y with
    | mk s' l' =>
      cases e1
      cases e2
      rfl

theorem cLitABeqRefl (x : CLitA) (h : aLitKeysOk x.2 = true) : cLitABeq x x = true := by
  have h1 : decide (x.1 = x.1) = true := decideEqTrue rfl
  show (decide (x.1 = x.1) && aLitBeq x.2 x.2) = true
  rw [h1, aLitBeqRefl x.2 h]
  rfl

theorem bitAtCA (syms : List CLitA) (names : List CSrc) (val : CSrc → AV) (x : CLitA) (hx : x ∈ syms)
    (hk : aLitKeysOk x.2 = true) (hn : x.1 ∈ names) :
    getB (bitsOf (syms.map (fun y => (idxOf y.1 names, y.2))) (valOfC names val)) (idxOfB cLitABeq x syms) =
      holdsA x.2 (val x.1) := by
  show getB ((syms.map (fun y => (idxOf y.1 names, y.2))).map (fun a => holdsA a.2 (valOfC names val a.1)))
    (idxOfB cLitABeq x syms) = _
  rw [getBMapB cLitABeq cLitABeqSound _ _ x (cLitABeqRefl x hk) syms hx]
  show holdsA x.2 (valOfC names val (idxOf x.1 names)) = _
  rw [valOfCIdx names val x.1 hn]

theorem numClauseCA (syms : List CLitA) (names : List CSrc) (val : CSrc → AV) (c : CClauseA)
    (h : ∀ y, y ∈ c → y.1 ∈ syms ∧ y.1.1 ∈ names ∧ aLitKeysOk y.1.2 = true) :
    anyB (fun s => decide (getB (bitsOf (syms.map (fun y => (idxOf y.1 names, y.2))) (valOfC names val)) s.1 = s.2))
      (numCCA syms c) = cClauseHoldsA val c := by
  show anyB _ (c.map (fun x => (idxOfB cLitABeq x.1 syms, x.2))) = anyB _ c
  rw [anyBMap]
  apply anyBCongr
  intro y hy
  have ⟨h1, h2, h3⟩ := h y hy
  show decide (getB _ (idxOfB cLitABeq y.1 syms) = y.2) = decide (holdsA y.1.2 (val y.1.1) = y.2)
  rw [bitAtCA syms names val y.1 h1 h3 h2]

theorem numCnfCA (syms : List CLitA) (names : List CSrc) (val : CSrc → AV) (f : List CClauseA)
    (h : ∀ c y, c ∈ f → y ∈ c → y.1 ∈ syms ∧ y.1.1 ∈ names ∧ aLitKeysOk y.1.2 = true) :
    cnfHolds (bitsOf (syms.map (fun y => (idxOf y.1 names, y.2))) (valOfC names val)) (numFCA syms f) =
      cCnfHoldsA val f := by
  show allB _ (f.map (numCCA syms)) = allB _ f
  rw [allBMap]
  apply allBCongr
  intro c hc
  exact numClauseCA syms names val c (fun y hy => h c y hc hy)

theorem symsNamesCA (cond : List CClauseA) (pos : List (Option (List CClauseA))) (y : CLitA)
    (hy : y ∈ litsOfFCA cond ++ posLitsCA pos) :
    y ∈ dedupB cLitABeq [] (litsOfFCA cond ++ posLitsCA pos) ∧
      y.1 ∈ dedupL [] ((dedupB cLitABeq [] (litsOfFCA cond ++ posLitsCA pos)).map (fun x => x.1)) := by
  have h1 := dedupBMem cLitABeq cLitABeqSound _ [] y (Or.inr hy)
  exact ⟨h1, dedupMem _ [] y.1 (Or.inr (memMapOf (fun x => x.1) h1))⟩

theorem litsOfFCAMem {f : List CClauseA} {c : CClauseA} {y : CLitA × Bool} (hc : c ∈ f) (hy : y ∈ c) :
    y.1 ∈ litsOfFCA f :=
  memJoin (memMapOf litsOfCCA hc) (memMapOf (fun x => x.1) hy)

theorem posLitsCAMem {f : List CClauseA} : ∀ {pos : List (Option (List CClauseA))}, some f ∈ pos →
    ∀ y, y ∈ litsOfFCA f → y ∈ posLitsCA pos
  | [], h, _, _ => absurd h notMemNil
  | none :: ps, h, y, hy => by
    show y ∈ posLitsCA ps
    match memCons h with
    | Or.inl e => cases e
    | Or.inr h => exact posLitsCAMem h y hy
  | some g :: ps, h, y, hy => by
    show y ∈ litsOfFCA g ++ posLitsCA ps
    match memCons h with
    | Or.inl e => cases e; exact memAppL _ hy
    | Or.inr h => exact memAppR _ _ (posLitsCAMem h y hy)

def cPosBitA (val : CSrc → AV) : Option (List CClauseA) → Bool
  | none => false
  | some f => cCnfHoldsA val f

/-- `buildQAMeans` on `CSrc`. -/
theorem buildQCAMeans (cond : List CClauseA) (pos : List (Option (List CClauseA))) (val : CSrc → AV)
    (hok : ∀ y, y ∈ litsOfFCA cond ++ posLitsCA pos → aLitKeysOk y.2 = true) :
    cnfHolds (bitsOf (buildQCA cond pos).atoms (valOfC (buildQCA cond pos).names val)) (buildQCA cond pos).cond =
      cCnfHoldsA val cond ∧
    (buildQCA cond pos).pos.map (posBit (bitsOf (buildQCA cond pos).atoms (valOfC (buildQCA cond pos).names val))) =
      pos.map (cPosBitA val) := by
  refine ⟨?_, ?_⟩
  · exact numCnfCA _ _ val cond (fun c y hc hy =>
      have hm := memAppL _ (litsOfFCAMem hc hy)
      have ⟨h1, h2⟩ := symsNamesCA cond pos y.1 hm
      ⟨h1, h2, hok y.1 hm⟩)
  · show (pos.map (numPCA _)).map _ = _
    rw [mapMapB]
    apply mapCongrB
    intro p hp
    cases p with
    | none => rfl
    | some f =>
      show cnfHolds _ (numFCA _ f) = cCnfHoldsA val f
      exact numCnfCA _ _ val f (fun c y hc hy =>
        have hm := memAppR _ _ (posLitsCAMem hp y.1 (litsOfFCAMem hc hy))
        have ⟨h1, h2⟩ := symsNamesCA cond pos y.1 hm
        ⟨h1, h2, hok y.1 hm⟩)

-- lifted clauses -----------------------------------------------------------------------------------------

theorem liftSAHolds (val : CSrc → AV) (f : List SClauseA) :
    cCnfHoldsA val (f.map liftSA) = sCnfHoldsA (fun s => val (CSrc.src s)) f := by
  show allB _ (f.map liftSA) = allB _ f
  rw [allBMap]
  apply allBCongr
  intro c _
  show anyB _ (c.map _) = anyB _ c
  rw [anyBMap]

theorem liftCAHolds (val : CSrc → AV) (f : List CClause) : cCnfHoldsA val (f.map liftCA) = cCnfHolds val f := by
  show allB _ (f.map liftCA) = allB _ f
  rw [allBMap]
  apply allBCongr
  intro c _
  show anyB _ (c.map _) = anyB _ c
  rw [anyBMap]
  rfl

theorem liftPAMap (val : CSrc → AV) (pos : List (Option (List SClauseA))) :
    (pos.map liftPA).map (cPosBitA val) = pos.map (sPosBitA (fun s => val (CSrc.src s))) := by
  rw [mapMapB]
  apply mapCongrB
  intro p _
  cases p with
  | none => rfl
  | some f => exact liftSAHolds val f

-- every literal passes the name check ----------------------------------------------------------------------

theorem litsOfFCAOut {f : List CClauseA} {y : CLitA} (h : y ∈ litsOfFCA f) : ∃ c x, c ∈ f ∧ x ∈ c ∧ x.1 = y := by
  have ⟨l, hl, hy⟩ := memJoinOut (L := f.map litsOfCCA) h
  have ⟨c, hc, e⟩ := memMapOut hl
  rw [e] at hy
  have ⟨x, hx, ex⟩ := memMapOut hy
  exact ⟨c, x, hc, hx, ex.symm⟩

theorem liftSALit {F : List SClauseA} {y : CLitA} (h : y ∈ litsOfFCA (F.map liftSA)) :
    ∃ z, z ∈ litsOfFA F ∧ z.2 = y.2 := by
  have ⟨c, x, hc, hx, e⟩ := litsOfFCAOut h
  have ⟨c0, hc0, ec⟩ := memMapOut hc
  rw [ec] at hx
  have ⟨x0, hx0, ex⟩ := memMapOut hx
  rw [← e, ex]
  exact ⟨x0.1, litsOfFAMem hc0 hx0, rfl⟩

theorem liftCALit {F : List CClause} {y : CLitA} (h : y ∈ litsOfFCA (F.map liftCA)) : aLitKeysOk y.2 = true := by
  have ⟨c, x, hc, hx, e⟩ := litsOfFCAOut h
  have ⟨c0, _, ec⟩ := memMapOut hc
  rw [ec] at hx
  have ⟨x0, _, ex⟩ := memMapOut hx
  rw [← e, ex]
  rfl

theorem posLitsCAOut {y : CLitA} : ∀ {pos : List (Option (List SClauseA))}, y ∈ posLitsCA (pos.map liftPA) →
    ∃ z, z ∈ posLitsA pos ∧ z.2 = y.2
  | [], h => absurd h notMemNil
  | none :: ps, h => by
    have ⟨z, hz, e⟩ := posLitsCAOut (pos := ps) h
    exact ⟨z, hz, e⟩
  | some f :: ps, h => by
    have h' : y ∈ litsOfFCA (f.map liftSA) ++ posLitsCA (ps.map liftPA) := h
    cases memAppE h' with
    | inl h1 =>
      have ⟨z, hz, e⟩ := liftSALit h1
      exact ⟨z, memAppL _ hz, e⟩
    | inr h2 =>
      have ⟨z, hz, e⟩ := posLitsCAOut h2
      exact ⟨z, memAppR _ _ hz, e⟩

theorem classQAKeysOk (a : String) (rk : Src) (keys : List String) (cond : List SClause) (F : List CClause)
    (gs : List Monitor.Full.Grant) (hfrag : ∀ g, g ∈ gs → g.action = a → grantOkA g = true) :
    ∀ y, y ∈ litsOfFCA ((cond.map liftC).map liftSA ++ F.map liftCA) ++ posLitsCA ((gs.map (posOfA a rk keys)).map liftPA) →
      aLitKeysOk y.2 = true := by
  intro y hy
  have hw := wayQAKeysOk a rk keys cond gs hfrag
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

theorem cnfAppHoldsA (v : CSrc → AV) (l1 l2 : List CClauseA) (h1 : cCnfHoldsA v l1 = true)
    (h2 : cCnfHoldsA v l2 = true) : cCnfHoldsA v (l1 ++ l2) = true :=
  clAllApp l1 l2 h1 h2

/-- The class question on any positions `P` of the entries (`classQA`'s `posOfA`, `classQR`'s `posOfR`) whose
literals pass the oracle's name check (`hok`), answered `covered`, covers every call of every binding state of
the class meeting the way's condition on which the positions are the monitor's matching (`hP`);
`classCoverMatchesA` and `classCoverMatchesR` give `hP` by `posMapMatchesA` and `posMapMatchesR`. -/
theorem classCoverMatchesP (fs : List Fact) (a : String) (tools : List Tool) (gs : List Monitor.Full.Grant)
    (d : EffDecl) (listed : List (List Bool)) (cond : List SClause) (P : List (Option (List SClauseA)))
    (hok : ∀ y, y ∈ litsOfFCA ((cond.map liftC).map liftSA ++ (factCl fs (wayRes d.res)
        (gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a tools) gs)))).map liftCA) ++
        posLitsCA (P.map liftPA) → aLitKeysOk y.2 = true)
    (hcov : argCover (Oracle.ArgCover.good
      (buildQCA ((cond.map liftC).map liftSA ++ (factCl fs (wayRes d.res)
        (gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a tools) gs)))).map liftCA) (P.map liftPA)).cond
      (buildQCA ((cond.map liftC).map liftSA ++ (factCl fs (wayRes d.res)
        (gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a tools) gs)))).map liftCA) (P.map liftPA)).pos listed)
      (buildQCA ((cond.map liftC).map liftSA ++ (factCl fs (wayRes d.res)
        (gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a tools) gs)))).map liftCA) (P.map liftPA)).atoms =
      Answer.covered)
    (s : State) (args : List (String × Json)) (e : Effect) (val : Src → AV)
    (hval : ∀ src, val (reSrc (wayRes d.res) src) = srcVal s args e src)
    (hin : sCnfHolds val cond = true) (w : String → AV)
    (hw : ∀ g, slotOk (w g) = true ∧ factsOk (groupLits fs g) (w g) = true)
    (hclass : ∀ n, resMatches s e.res (Pat.slot n) = true → avOf e.res = w (grpOf fs n))
    (hP : P.map (sPosBitA val) = gs.map (fun g => grantMatches s args g e)) :
    anyB (fun u => decide (u = gs.map (fun g => grantMatches s args g e))) listed = true := by
  have g := argCoveredSound _ _ hcov (valOfC (buildQCA ((cond.map liftC).map liftSA ++ (factCl fs (wayRes d.res)
    (gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a tools) gs)))).map liftCA) (P.map liftPA)).names
    (classVal val w))
  have ⟨hc, hp⟩ := buildQCAMeans ((cond.map liftC).map liftSA ++ (factCl fs (wayRes d.res)
    (gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a tools) gs)))).map liftCA) (P.map liftPA)
    (classVal val w) hok
  have hv : (fun x => classVal val w (CSrc.src x)) = val := funext (fun _ => rfl)
  have h1 : cCnfHoldsA (classVal val w) ((cond.map liftC).map liftSA) = true := by
    rw [liftSAHolds, hv, liftFHolds]
    exact hin
  have h2 : cCnfHoldsA (classVal val w) ((factCl fs (wayRes d.res)
      (gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a tools) gs)))).map liftCA) = true := by
    rw [liftCAHolds]
    exact factClHolds fs (wayRes d.res) (gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a tools) gs)))
      s args e val w hval hw hclass
  have g2 := orFalseL g (hc.trans (cnfAppHoldsA _ _ _ h1 h2))
  rw [hp, liftPAMap, hv, hP] at g2
  exact g2

/-- `classCoverMatches` for `classQA`: with the entries of the action in `grantOkA` (array or object
predicate constants included), a `covered` answer on Lean's class question puts the monitor's match vector
of every call of every binding state of the class meeting the way's condition among the listed ones, under
`classCoverMatches`'s hypotheses and `builtCoverMatchesA`'s `hadm` (the values the call holds where an entry
compares with an array or object constant are admitted, `JsonPathsAdmitted`). -/
theorem classCoverMatchesA (fs : List Fact) (a : String) (tools : List Tool) (gs : List Monitor.Full.Grant)
    (E : Option (List Json)) (t : Tool) (d : EffDecl) (listed : List (List Bool)) (cond : List SClause)
    (Q : BuiltQC) (hcond : wayCond a tools gs E t d = some cond) (hq : classQA fs a tools gs E t d = some Q)
    (hfrag : ∀ g, g ∈ gs → g.action = a → grantOkA g = true)
    (hcov : argCover (Oracle.ArgCover.good Q.cond Q.pos listed) Q.atoms = Answer.covered)
    (s : State) (args : List (String × Json)) (e : Effect) (ha : e.action = a) (val : Src → AV)
    (hval : ∀ src, val (reSrc (wayRes d.res) src) = srcVal s args e src)
    (hdecl : ∀ x, x ∈ args → memStr x.1 (actionKeys a (ownTools a tools) gs) = true)
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
        ((gs.map (posOfA a (wayRes d.res) (actionKeys a (ownTools a tools) gs))).map liftPA))) = some Q := hq
  rw [hcond] at hq'
  have hQ := Option.some.inj hq'
  subst hQ
  exact classCoverMatchesP fs a tools gs d listed cond (gs.map (posOfA a (wayRes d.res) (actionKeys a (ownTools a tools) gs)))
    (classQAKeysOk a (wayRes d.res) (actionKeys a (ownTools a tools) gs) cond _ gs hfrag) hcov s args e val hval hin w hw hclass
    (posMapMatchesA s args e a (wayRes d.res) (actionKeys a (ownTools a tools) gs) val hval ha hdecl
      (classBindOk fs s e w hw hclass) gs hfrag hadm)

/-- `classCoverMatchesA` on every call the monitor prepares on a reachable state: the call's keys are the
action's (`preparedDeclared`), as in `preparedClassCoverMatches`; `hadm` stays a hypothesis (it holds of
every call the oracle decodes from an input it answers, `decodedJsonPathsAdmitted`). -/
theorem preparedClassCoverMatchesA (fs : List Fact) (p : Policy) (a : String) (gs : List Monitor.Full.Grant)
    (E : Option (List Json)) (t : Tool) (d : EffDecl) (listed : List (List Bool)) (cond : List SClause)
    (Q : BuiltQC) (hcond : wayCond a p.tools gs E t d = some cond) (hq : classQA fs a p.tools gs E t d = some Q)
    (hfrag : ∀ g, g ∈ gs → g.action = a → grantOkA g = true)
    (hcov : argCover (Oracle.ArgCover.good Q.cond Q.pos listed) Q.atoms = Answer.covered)
    (s : State) (c : Call) (t' : Tool) (es : List Effect) (hprep : prepare p s c = Except.ok (t', es))
    (e : Effect) (he : e ∈ es) (ha : e.action = a) (val : Src → AV)
    (hval : ∀ src, val (reSrc (wayRes d.res) src) = srcVal s c.args e src)
    (hadm : JsonPathsAdmitted a gs c.args)
    (hin : sCnfHolds val cond = true) (w : String → AV)
    (hw : ∀ g, slotOk (w g) = true ∧ factsOk (groupLits fs g) (w g) = true)
    (hclass : ∀ n, resMatches s e.res (Pat.slot n) = true → avOf e.res = w (grpOf fs n)) :
    anyB (fun u => decide (u = gs.map (fun g => grantMatches s c.args g e))) listed = true :=
  classCoverMatchesA fs a p.tools gs E t d listed cond Q hcond hq hfrag hcov s c.args e ha val hval
    (preparedDeclared p s c t' es hprep e he a ha gs) hadm hin w hw hclass

end AgentWarrant.Revision.ArgCover
