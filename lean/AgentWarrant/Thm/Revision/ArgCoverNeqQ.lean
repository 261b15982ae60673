import AgentWarrant.Spec.Revision.ArgCoverNeqQ
import AgentWarrant.Thm.Revision.ArgCoverClass
import AgentWarrant.Thm.Revision.ArgCoverNeq
import AgentWarrant.Thm.Revision.ArgCoverWay
import AgentWarrant.Thm.Revision.ArgCoverClassSame
import AgentWarrant.Oracle.ArgCoverClass
/-! The class question Lean writes for a class denying equalities between slots (`classQN`,
`Spec/Revision/ArgCoverNeqQ.lean`), answered `covered`, covers the monitor's matching on every binding state
of the class (Agenra Sections 1 and 7.1). A binding state of the class is `classCoverMatches`'s (group values
`w` with their facts, every slot the resource matches bound to its group's value) whose group values differ
where the class denies an equality (`hapart`). On it `classQ`'s clauses hold (`factClHolds`) and so do the
denied equalities' (`neqClHolds`): a slot variable is present exactly when the resource matches the slot
pattern, and two matching slots of groups asserted different would bind both groups' values to the resource
(`neqSound`'s third clause, here on the question's own sources); a denied equality inside one group leaves
the class no binding state. The rest is `classCoverMatches`'s proof; `oracleClassNeqCover` states it of the oracle's way-by-way
`covered` on these questions. Not proved: the converse (an
`uncovered` answer's witness may stand for no binding state, since the inequalities also constrain the
groups' values among themselves and against the resource; `neqExact2` is the one case proved, abstractly),
and that the Python translation writes the same clauses (compared clause for clause,
tests/drt/test_arg_cover_facts.py). -/
namespace AgentWarrant.Revision.ArgCover
open Lean AgentWarrant AgentWarrant.Monitor AgentWarrant.Monitor.Full

theorem neqSlotVal (s : State) (args : List (String × Json)) (e : Effect) (rk : Src) (val : Src → AV)
    (hval : ∀ src, val (reSrc rk src) = srcVal s args e src) (n : String)
    (hm : resMatches s e.res (Pat.slot n) = false) : holds Lit.present (val (Src.slot n)) = false := by
  have h0 : val (Src.slot n) = srcVal s args e (Src.slot n) := hval (Src.slot n)
  have h1 : srcVal s args e (Src.slot n) = AV.missing := by
    show (match resMatches s e.res (Pat.slot n) with | true => AV.null | false => AV.missing) = AV.missing
    rw [hm]
  rw [h0, h1]
  rfl

/-- Not both of two slots of groups whose values differ match. -/
theorem neqPairHolds (fs : List Fact) (rk : Src) (s : State) (args : List (String × Json)) (e : Effect)
    (val : Src → AV) (w : String → AV) (hval : ∀ src, val (reSrc rk src) = srcVal s args e src)
    (hclass : ∀ n, resMatches s e.res (Pat.slot n) = true → avOf e.res = w (grpOf fs n)) (a b : String)
    (hd : w (grpOf fs a) ≠ w (grpOf fs b)) : cClauseHolds (classVal val w) (neqPairCl rk a b) = true := by
  cases ha : resMatches s e.res (Pat.slot a) with
  | false => exact clAnyHead (decideEqTrue (neqSlotVal s args e rk val hval a ha))
  | true =>
    cases hb : resMatches s e.res (Pat.slot b) with
    | false => exact clAnyTail (clAnyHead (decideEqTrue (neqSlotVal s args e rk val hval b hb)))
    | true => exact absurd ((hclass a ha).symm.trans (hclass b hb)) hd

theorem neqGroupOf {fs : List Fact} {pos : List (Option (List SClause))} {g x : String}
    (h : x ∈ neqGroupSlots fs pos g) : grpOf fs x = g :=
  ofDecideEqTrue (factsAndTrue (memFilt h).2).2

/-- The denied equalities' clauses hold on a binding state of the class. -/
theorem neqClHolds (fs : List Fact) (rk : Src) (pos : List (Option (List SClause))) (s : State)
    (args : List (String × Json)) (e : Effect) (val : Src → AV) (w : String → AV)
    (hval : ∀ src, val (reSrc rk src) = srcVal s args e src)
    (hclass : ∀ n, resMatches s e.res (Pat.slot n) = true → avOf e.res = w (grpOf fs n))
    (hapart : ∀ x y, (x, FPat.slot y, false) ∈ fs → w (grpOf fs x) ≠ w (grpOf fs y)) :
    cCnfHolds (classVal val w) (neqCl fs rk pos) = true := by
  apply allBIntro
  intro c hc
  have ⟨l, hl, hcl⟩ := memJoinOut hc
  have ⟨f, hf, hfl⟩ := memMapOut hl
  rw [hfl] at hcl
  cases f with
  | mk x ph =>
    cases ph with
    | mk pat h =>
      cases pat with
      | lit l => exact absurd hcl notMemNil
      | slot y =>
        cases h with
        | true => exact absurd hcl notMemNil
        | false =>
          have hd := hapart x y hf
          cases hg : decide (grpOf fs x = grpOf fs y) with
          | true => exact absurd (congrArg w (ofDecideEqTrue hg)) hd
          | false =>
            have hcl' : c ∈ ((neqGroupSlots fs pos (grpOf fs x)).map (fun a =>
                (neqGroupSlots fs pos (grpOf fs y)).map (neqPairCl rk a))).join := by
              have e : neqFactCl fs rk pos (x, FPat.slot y, false) = ((neqGroupSlots fs pos (grpOf fs x)).map (fun a =>
                  (neqGroupSlots fs pos (grpOf fs y)).map (neqPairCl rk a))).join := by
                simp [neqFactCl, hg]
              rw [← e]
              exact hcl
            have ⟨l2, hl2, hc2⟩ := memJoinOut hcl'
            have ⟨a, ha, hal⟩ := memMapOut hl2
            rw [hal] at hc2
            have ⟨b, hb, hbc⟩ := memMapOut hc2
            rw [hbc]
            apply neqPairHolds fs rk s args e val w hval hclass a b
            rw [neqGroupOf ha, neqGroupOf hb]
            exact hd

/-- `classCoverMatches` for a class denying equalities between slots: for the question Lean writes
(`classQN`) from the class's facts `fs`, action `a`, one way `(t, d)`, the entries `gs` (those of `a` in the
fragment `grantOk`), the tools and `E`, if `argCover` answers covered, then every call `args` with an effect
`e` of action `a` on a state `s` of the class — group values `w` with their facts (`hw`), differing where the
class denies an equality (`hapart`), every slot whose pattern the resource matches bound to its group's value
(`hclass`) — whose values are read where the way reads them (`hval`), whose keys are the action's (`hdecl`)
and which satisfies the way's condition (`hin`), has the monitor's `grantMatches` vector over `gs` among
`listed`. -/
theorem classNeqCoverMatches (fs : List Fact) (a : String) (tools : List Tool) (gs : List Monitor.Full.Grant)
    (E : Option (List Json)) (t : Tool) (d : EffDecl) (listed : List (List Bool)) (cond : List SClause)
    (Q : BuiltQC) (hcond : wayCond a tools gs E t d = some cond) (hq : classQN fs a tools gs E t d = some Q)
    (hfrag : ∀ g, g ∈ gs → g.action = a → grantOk g = true)
    (hcov : argCover (Oracle.ArgCover.good Q.cond Q.pos listed) Q.atoms = Answer.covered)
    (s : State) (args : List (String × Json)) (e : Effect) (ha : e.action = a) (val : Src → AV)
    (hval : ∀ src, val (reSrc (wayRes d.res) src) = srcVal s args e src)
    (hdecl : ∀ x, x ∈ args → memStr x.1 (actionKeys a (ownTools a tools) gs) = true)
    (hin : sCnfHolds val cond = true) (w : String → AV)
    (hw : ∀ g, slotOk (w g) = true ∧ factsOk (groupLits fs g) (w g) = true)
    (hapart : ∀ x y, (x, FPat.slot y, false) ∈ fs → w (grpOf fs x) ≠ w (grpOf fs y))
    (hclass : ∀ n, resMatches s e.res (Pat.slot n) = true → avOf e.res = w (grpOf fs n)) :
    anyB (fun u => decide (u = gs.map (fun g => grantMatches s args g e))) listed = true := by
  have hq' : (match wayCond a tools gs E t d with
    | none => none
    | some cond =>
      some (buildQC ((liftF cond ++ factCl fs (wayRes d.res) (gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a tools) gs))))
          ++ neqCl fs (wayRes d.res) (gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a tools) gs))))
        ((gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a tools) gs))).map liftP))) = some Q := hq
  rw [hcond] at hq'
  have hQ := Option.some.inj hq'
  subst hQ
  have hbind := classBindOk fs s e w hw hclass
  let pos := gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a tools) gs))
  let C := (liftF cond ++ factCl fs (wayRes d.res) pos) ++ neqCl fs (wayRes d.res) pos
  have g := argCoveredSound _ _ hcov (valOfC (buildQC C (pos.map liftP)).names (classVal val w))
  have ⟨hc, hp⟩ := buildQCMeans C (pos.map liftP) (classVal val w)
  have h1 : cCnfHolds (classVal val w) (liftF cond) = true := by
    rw [liftCnf]
    exact hin
  have h2 := factClHolds fs (wayRes d.res) pos s args e val w hval hw hclass
  have h3 := neqClHolds fs (wayRes d.res) pos s args e val w hval hclass hapart
  have hcl : cCnfHolds (classVal val w) C = true := cnfAppHolds _ _ _ (cnfAppHolds _ _ _ h1 h2) h3
  have g2 := orFalseL g (hc.trans hcl)
  have hv : (fun x => classVal val w (CSrc.src x)) = val := funext (fun _ => rfl)
  rw [hp, liftPosMap, hv, posMapMatches s args e a (wayRes d.res) (actionKeys a (ownTools a tools) gs) val hval ha hdecl
    hbind gs hfrag] at g2
  exact g2

/-- `classNeqCoverMatches` on every call the monitor prepares on a reachable state (`preparedDeclared`). -/
theorem preparedClassNeqCoverMatches (fs : List Fact) (p : Policy) (a : String) (gs : List Monitor.Full.Grant)
    (E : Option (List Json)) (t : Tool) (d : EffDecl) (listed : List (List Bool)) (cond : List SClause)
    (Q : BuiltQC) (hcond : wayCond a p.tools gs E t d = some cond) (hq : classQN fs a p.tools gs E t d = some Q)
    (hfrag : ∀ g, g ∈ gs → g.action = a → grantOk g = true)
    (hcov : argCover (Oracle.ArgCover.good Q.cond Q.pos listed) Q.atoms = Answer.covered)
    (s : State) (c : Call) (t' : Tool) (es : List Effect) (hprep : prepare p s c = Except.ok (t', es))
    (e : Effect) (he : e ∈ es) (ha : e.action = a) (val : Src → AV)
    (hval : ∀ src, val (reSrc (wayRes d.res) src) = srcVal s c.args e src)
    (hin : sCnfHolds val cond = true) (w : String → AV)
    (hw : ∀ g, slotOk (w g) = true ∧ factsOk (groupLits fs g) (w g) = true)
    (hapart : ∀ x y, (x, FPat.slot y, false) ∈ fs → w (grpOf fs x) ≠ w (grpOf fs y))
    (hclass : ∀ n, resMatches s e.res (Pat.slot n) = true → avOf e.res = w (grpOf fs n)) :
    anyB (fun u => decide (u = gs.map (fun g => grantMatches s c.args g e))) listed = true :=
  classNeqCoverMatches fs a p.tools gs E t d listed cond Q hcond hq hfrag hcov s c.args e ha val hval
    (preparedDeclared p s c t' es hprep e he a ha gs) hin w hw hapart hclass

/-- The oracle's way-by-way decision on the `classQN` questions of an action's ways (what `arg_cover_class`
decides for a class denying slot equalities whose action's entries are in `grantOk`, before it flags the
answer `"exact": false`), answering `covered`, covers every call the monitor prepares in every binding state of
the class meeting a way's condition. -/
theorem oracleClassNeqCover (fs : List Fact) (p : Policy) (a : String) (gs : List Monitor.Full.Grant)
    (E : Option (List Json)) (listedS : List String) (listed : List (List Bool))
    (hfrag : ∀ g, g ∈ gs → g.action = a → grantOk g = true)
    (hans : (Oracle.ArgCoverClass.decideWaysC listedS listed (Oracle.ArgCoverClass.somesQC ((ways a p.tools).map
      (fun w => classQN fs a p.tools gs E w.1 w.2))) []).getObjVal? "answer" = Except.ok (Json.str "covered"))
    (t : Tool) (d : EffDecl) (hway : (t, d) ∈ ways a p.tools) (cond : List SClause)
    (hcond : wayCond a p.tools gs E t d = some cond)
    (s : State) (c : Call) (t' : Tool) (es : List Effect) (hprep : prepare p s c = Except.ok (t', es))
    (e : Effect) (he : e ∈ es) (ha : e.action = a) (val : Src → AV)
    (hval : ∀ src, val (reSrc (wayRes d.res) src) = srcVal s c.args e src)
    (hin : sCnfHolds val cond = true) (w : String → AV)
    (hw : ∀ g, slotOk (w g) = true ∧ factsOk (groupLits fs g) (w g) = true)
    (hapart : ∀ x y, (x, FPat.slot y, false) ∈ fs → w (grpOf fs x) ≠ w (grpOf fs y))
    (hclass : ∀ n, resMatches s e.res (Pat.slot n) = true → avOf e.res = w (grpOf fs n)) :
    anyB (fun u => decide (u = gs.map (fun g => grantMatches s c.args g e))) listed = true := by
  cases hq : classQN fs a p.tools gs E t d with
  | none =>
    have hq' : (match wayCond a p.tools gs E t d with
      | none => none
      | some cond =>
        some (buildQC ((liftF cond ++ factCl fs (wayRes d.res) (gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a p.tools) gs))))
            ++ neqCl fs (wayRes d.res) (gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a p.tools) gs))))
          ((gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a p.tools) gs))).map liftP))) = none := hq
    rw [hcond] at hq'
    cases hq'
  | some Q =>
    have hcov := decideWaysCCovered listedS listed _ [] hans Q
      (memSomesQC (f := fun w => classQN fs a p.tools gs E w.1 w.2) hway hq)
    exact preparedClassNeqCoverMatches fs p a gs E t d listed cond Q hcond hq hfrag hcov s c t' es hprep e he ha val
      hval hin w hw hapart hclass

end AgentWarrant.Revision.ArgCover
