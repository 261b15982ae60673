import AgentWarrant.Spec.Revision.ArgCoverClass
import AgentWarrant.Thm.Revision.ArgCoverBuild
import AgentWarrant.Thm.Revision.ArgCoverFacts
import AgentWarrant.Thm.Revision.ArgCoverMonitor
/-! The class question Lean writes (`Spec/Revision/ArgCoverClass.lean`, `classQ`) means the monitor's
matching on the class's binding states (Agenra Sections 1 and 7.1). Numbering on `CSrc` keeps meaning as on
`Src` (`buildQCMeans`, `buildQMeans`'s proof); the way's clauses and positions lifted to `CSrc` are the
unit-level ones (`liftCnf`), so `posMapMatches` gives the positions; and every clause the class adds holds
on a binding state of the class, its group values read as the value variables (`factClHolds`). So a
`covered` answer on `classQ` covers every call of every binding state of the class (`classCoverMatches`).
A binding state of the class is given by its group values `w` (each a valid slot value with its group's
facts, `hw`) and a state whose slots the resource matches are bound to their group's value (`hclass`); the
unit theorem's hypothesis that a bound value is a scalar other than the empty string (`hbind`) follows.
On the calls the monitor prepares on a reachable state, the call's keys are the action's (`preparedDeclared`),
so that hypothesis goes too (`preparedClassCoverMatches`). The converse, on the class's meaning (an
`uncovered` answer's witness is a binding state of the class), is `classUncoveredMeant`
(`Thm/Revision/ArgCoverClassConv.lean`). Not proved: that the Python translation writes the same clauses
(compared clause for clause, tests/drt/test_arg_cover_facts.py). -/
namespace AgentWarrant.Revision.ArgCover
open Lean AgentWarrant AgentWarrant.Monitor AgentWarrant.Monitor.Full

-- Boolean list steps -------------------------------------------------------------------------------------

theorem clAnyHead {p : α → Bool} {a : α} {l : List α} (h : p a = true) : anyB p (a :: l) = true := by
  show (match p a with | true => true | false => anyB p l) = true
  rw [h]

theorem clAnyTail {p : α → Bool} {a : α} {l : List α} (h : anyB p l = true) : anyB p (a :: l) = true := by
  show (match p a with | true => true | false => anyB p l) = true
  cases p a
  · exact h
  · rfl

theorem clAllCons {p : α → Bool} {a : α} {l : List α} (ha : p a = true) (hl : allB p l = true) :
    allB p (a :: l) = true := by
  show (match p a with | true => allB p l | false => false) = true
  rw [ha]
  exact hl

theorem clAllApp {p : α → Bool} (l1 l2 : List α) (h1 : allB p l1 = true) (h2 : allB p l2 = true) :
    allB p (l1 ++ l2) = true := by
  rw [allBApp, h1, h2]
  rfl

theorem clAllConsE {p : α → Bool} {a : α} {l : List α} (h : allB p (a :: l) = true) : p a = true ∧ allB p l = true := by
  have h' : (match p a with | true => allB p l | false => false) = true := h
  cases hp : p a with
  | true => rw [hp] at h'; exact ⟨rfl, h'⟩
  | false => rw [hp] at h'; cases h'

theorem clNotTrue : ∀ {b : Bool}, (!b) = true → b = false
  | false, _ => rfl
  | true, h => Bool.noConfusion h

-- numbering on `CSrc` keeps meaning -------------------------------------------------------------------

theorem valOfCIdx (names : List CSrc) (val : CSrc → AV) (s : CSrc) (h : s ∈ names) :
    valOfC names val (idxOf s names) = val s := by
  show (match nthO names (idxOf s names) with | some s => val s | none => AV.missing) = val s
  rw [idxNth s names h]

theorem bitAtC (syms : List CLit) (names : List CSrc) (val : CSrc → AV) (x : CLit) (hx : x ∈ syms) (hn : x.1 ∈ names) :
    getB (bitsOf (syms.map (fun y => (idxOf y.1 names, ALit.lit y.2))) (valOfC names val)) (idxOf x syms) =
      holds x.2 (val x.1) := by
  show getB ((syms.map (fun y => (idxOf y.1 names, ALit.lit y.2))).map (fun a => holdsA a.2 (valOfC names val a.1)))
    (idxOf x syms) = _
  rw [getBMap2 _ _ x syms hx]
  show holds x.2 (valOfC names val (idxOf x.1 names)) = _
  rw [valOfCIdx names val x.1 hn]

theorem numClauseC (syms : List CLit) (names : List CSrc) (val : CSrc → AV) (c : CClause)
    (h : ∀ y, y ∈ c → y.1 ∈ syms ∧ y.1.1 ∈ names) :
    anyB (fun s => decide (getB (bitsOf (syms.map (fun y => (idxOf y.1 names, ALit.lit y.2))) (valOfC names val)) s.1 = s.2))
      (numCC syms c) = cClauseHolds val c := by
  show anyB _ (c.map (fun x => (idxOf x.1 syms, x.2))) = anyB _ c
  rw [anyBMap]
  apply anyBCongr
  intro y hy
  show decide (getB _ (idxOf y.1 syms) = y.2) = decide (holds y.1.2 (val y.1.1) = y.2)
  rw [bitAtC syms names val y.1 (h y hy).1 (h y hy).2]

theorem numCnfC (syms : List CLit) (names : List CSrc) (val : CSrc → AV) (f : List CClause)
    (h : ∀ c y, c ∈ f → y ∈ c → y.1 ∈ syms ∧ y.1.1 ∈ names) :
    cnfHolds (bitsOf (syms.map (fun y => (idxOf y.1 names, ALit.lit y.2))) (valOfC names val)) (numFC syms f) =
      cCnfHolds val f := by
  show allB _ (f.map (numCC syms)) = allB _ f
  rw [allBMap]
  apply allBCongr
  intro c hc
  exact numClauseC syms names val c (fun y hy => h c y hc hy)

theorem symsNamesC (cond : List CClause) (pos : List (Option (List CClause))) (y : CLit)
    (hy : y ∈ litsOfFC cond ++ posLitsC pos) :
    y ∈ dedupL [] (litsOfFC cond ++ posLitsC pos) ∧
      y.1 ∈ dedupL [] ((dedupL [] (litsOfFC cond ++ posLitsC pos)).map (fun x => x.1)) := by
  have h1 := dedupMem _ [] y (Or.inr hy)
  exact ⟨h1, dedupMem _ [] y.1 (Or.inr (memMapOf (fun x => x.1) h1))⟩

theorem litsOfFCMem {f : List CClause} {c : CClause} {y : CLit × Bool} (hc : c ∈ f) (hy : y ∈ c) : y.1 ∈ litsOfFC f :=
  memJoin (memMapOf litsOfCC hc) (memMapOf (fun x => x.1) hy)

theorem posLitsCMem {f : List CClause} :
    ∀ {pos : List (Option (List CClause))}, some f ∈ pos → ∀ y, y ∈ litsOfFC f → y ∈ posLitsC pos
  | [], h, _, _ => absurd h notMemNil
  | none :: ps, h, y, hy => by
    show y ∈ posLitsC ps
    match memCons h with
    | Or.inl e => cases e
    | Or.inr h => exact posLitsCMem h y hy
  | some g :: ps, h, y, hy => by
    show y ∈ litsOfFC g ++ posLitsC ps
    match memCons h with
    | Or.inl e => cases e; exact memAppL _ hy
    | Or.inr h => exact memAppR _ _ (posLitsCMem h y hy)

def cPosBit (val : CSrc → AV) : Option (List CClause) → Bool
  | none => false
  | some f => cCnfHolds val f

/-- The numbered class question's condition and position bits are those on named sources. -/
theorem buildQCMeans (cond : List CClause) (pos : List (Option (List CClause))) (val : CSrc → AV) :
    cnfHolds (bitsOf (buildQC cond pos).atoms (valOfC (buildQC cond pos).names val)) (buildQC cond pos).cond =
      cCnfHolds val cond ∧
    (buildQC cond pos).pos.map (posBit (bitsOf (buildQC cond pos).atoms (valOfC (buildQC cond pos).names val))) =
      pos.map (cPosBit val) := by
  refine ⟨?_, ?_⟩
  · exact numCnfC _ _ val cond (fun c y hc hy => symsNamesC cond pos y.1 (memAppL _ (litsOfFCMem hc hy)))
  · show (pos.map (numPC _)).map _ = _
    rw [mapMapB]
    apply mapCongrB
    intro p hp
    cases p with
    | none => rfl
    | some f =>
      show cnfHolds _ (numFC _ f) = cCnfHolds val f
      exact numCnfC _ _ val f (fun c y hc hy => symsNamesC cond pos y.1
        (memAppR _ _ (posLitsCMem hp y.1 (litsOfFCMem hc hy))))

-- lifted clauses are the way's ------------------------------------------------------------------------

theorem liftCnf (val : CSrc → AV) (f : List SClause) : cCnfHolds val (liftF f) = sCnfHolds (fun s => val (CSrc.src s)) f := by
  show allB _ (f.map liftSC) = allB _ f
  rw [allBMap]
  apply allBCongr
  intro c _
  show anyB _ (c.map _) = anyB _ c
  rw [anyBMap]

theorem liftPosMap (val : CSrc → AV) (pos : List (Option (List SClause))) :
    (pos.map liftP).map (cPosBit val) = pos.map (sPosBit (fun s => val (CSrc.src s))) := by
  rw [mapMapB]
  apply mapCongrB
  intro p _
  cases p with
  | none => rfl
  | some f => exact liftCnf val f

-- the class's clauses hold on its binding states ------------------------------------------------------

theorem joinHolds (v : CSrc → AV) (f : α → List CClause) (h : ∀ x, cCnfHolds v (f x) = true) :
    ∀ (L : List α), cCnfHolds v (L.map f).join = true
  | [] => rfl
  | x :: L => clAllApp (f x) (L.map f).join (h x) (joinHolds v f h L)

theorem valueFacts (v : CSrc → AV) (g : String) : ∀ (F : List (Lit × Bool)), factsOk F (v (CSrc.value g)) = true →
    cCnfHolds v (F.map (fun f => [((CSrc.value g, f.1), f.2)])) = true
  | [], _ => rfl
  | f :: F, h => by
    have ⟨h1, h2⟩ := clAllConsE h
    exact clAllCons (clAnyHead h1) (valueFacts v g F h2)

theorem valueClHolds (v : CSrc → AV) (g : String) (F : List (Lit × Bool)) (hs : slotOk (v (CSrc.value g)) = true)
    (hf : factsOk F (v (CSrc.value g)) = true) : cCnfHolds v (valueCl F g) = true := by
  have ⟨h1, h2⟩ := factsAndTrue hs
  exact clAllApp _ _ (clAllCons (clAnyHead (decideEqTrue h1)) (clAllCons (clAnyHead (decideEqTrue (clNotTrue h2))) rfl))
    (valueFacts v g F hf)

theorem slotOff (v : CSrc → AV) (s : String) (rk : Src) (hoff : holds Lit.present (v (CSrc.src (Src.slot s))) = false) :
    ∀ (F : List (Lit × Bool)), cCnfHolds v (slotCl F rk s) = true
  | [] => rfl
  | _ :: F => clAllCons (clAnyHead (decideEqTrue hoff)) (slotOff v s rk hoff F)

theorem slotOn (v : CSrc → AV) (s : String) (rk : Src) :
    ∀ (F : List (Lit × Bool)), factsOk F (v (CSrc.src rk)) = true → cCnfHolds v (slotCl F rk s) = true
  | [], _ => rfl
  | _ :: F, h => by
    have ⟨h1, h2⟩ := clAllConsE h
    exact clAllCons (clAnyTail (clAnyTail (clAnyTail (clAnyHead h1)))) (slotOn v s rk F h2)

theorem cnfAppHolds (v : CSrc → AV) (l1 l2 : List CClause) (h1 : cCnfHolds v l1 = true) (h2 : cCnfHolds v l2 = true) :
    cCnfHolds v (l1 ++ l2) = true :=
  clAllApp l1 l2 h1 h2

/-- The values of a binding state of the class, read as the class question's sources. -/
def classVal (val : Src → AV) (w : String → AV) : CSrc → AV
  | CSrc.src x => val x
  | CSrc.value g => w g

theorem factClHolds (fs : List Fact) (rk : Src) (pos : List (Option (List SClause))) (s : State)
    (args : List (String × Json)) (e : Effect) (val : Src → AV) (w : String → AV)
    (hval : ∀ src, val (reSrc rk src) = srcVal s args e src)
    (hw : ∀ g, slotOk (w g) = true ∧ factsOk (groupLits fs g) (w g) = true)
    (hclass : ∀ n, resMatches s e.res (Pat.slot n) = true → avOf e.res = w (grpOf fs n)) :
    cCnfHolds (classVal val w) (factCl fs rk pos) = true := by
  apply clAllApp
  · exact joinHolds _ _ (fun g => valueClHolds (classVal val w) g _ (hw g).1 (hw g).2) _
  · apply joinHolds
    intro n
    cases hm : resMatches s e.res (Pat.slot n) with
    | true =>
      apply slotOn
      have hr : val rk = avOf e.res := hval Src.res
      show factsOk _ (val rk) = true
      rw [hr, hclass n hm]
      exact (hw _).2
    | false =>
      apply slotOff
      have h0 : val (Src.slot n) = srcVal s args e (Src.slot n) := hval (Src.slot n)
      have h1 : srcVal s args e (Src.slot n) = AV.missing := by
        show (match resMatches s e.res (Pat.slot n) with | true => AV.null | false => AV.missing) = AV.missing
        rw [hm]
      show holds Lit.present (val (Src.slot n)) = false
      rw [h0, h1]
      rfl

/-- A slot matching in a binding state of the class means the resource is its group's value, a valid slot value
(a scalar, not the empty string), the `hbind` the position lemmas (`posMapMatchesA`, `posMapMatchesR`) ask. -/
theorem classBindOk (fs : List Fact) (s : State) (e : Effect) (w : String → AV)
    (hw : ∀ g, slotOk (w g) = true ∧ factsOk (groupLits fs g) (w g) = true)
    (hclass : ∀ n, resMatches s e.res (Pat.slot n) = true → avOf e.res = w (grpOf fs n)) :
    ∀ n, resMatches s e.res (Pat.slot n) = true →
      holds Lit.scalar (avOf e.res) = true ∧ holds (Lit.eqStr []) (avOf e.res) = false := by
  intro n hm
  rw [hclass n hm]
  have ⟨h1, h2⟩ := factsAndTrue (hw (grpOf fs n)).1
  exact ⟨h1, clNotTrue h2⟩

/-- Lean's own class question, answered `covered`, covers the monitor's matching on every binding state of
the class: for the question Lean writes (`classQ`) from the class's facts `fs`, action `a`, one way
`(t, d)`, the entries `gs` (those of `a` in the fragment `grantOk`), the tools and `E`, if `argCover`
answers covered for "satisfying the condition, the match vector is listed", then every call `args` with
an effect `e` of action `a` on a state `s` of the class — group values `w`, each a valid slot value with
its group's facts (`hw`), every slot whose pattern the resource matches bound to its group's value
(`hclass`) — whose values are read where the way reads them (`hval`), whose keys are the action's
(`hdecl`) and which satisfies the way's condition (`hin`), has the monitor's `grantMatches` vector over
`gs` among `listed`. `builtCoverMatches`'s hypothesis `hbind` follows from `hw` and `hclass`. -/
theorem classCoverMatches (fs : List Fact) (a : String) (tools : List Tool) (gs : List Monitor.Full.Grant)
    (E : Option (List Json)) (t : Tool) (d : EffDecl) (listed : List (List Bool)) (cond : List SClause)
    (Q : BuiltQC) (hcond : wayCond a tools gs E t d = some cond) (hq : classQ fs a tools gs E t d = some Q)
    (hfrag : ∀ g, g ∈ gs → g.action = a → grantOk g = true)
    (hcov : argCover (Oracle.ArgCover.good Q.cond Q.pos listed) Q.atoms = Answer.covered)
    (s : State) (args : List (String × Json)) (e : Effect) (ha : e.action = a) (val : Src → AV)
    (hval : ∀ src, val (reSrc (wayRes d.res) src) = srcVal s args e src)
    (hdecl : ∀ x, x ∈ args → memStr x.1 (actionKeys a (ownTools a tools) gs) = true)
    (hin : sCnfHolds val cond = true) (w : String → AV)
    (hw : ∀ g, slotOk (w g) = true ∧ factsOk (groupLits fs g) (w g) = true)
    (hclass : ∀ n, resMatches s e.res (Pat.slot n) = true → avOf e.res = w (grpOf fs n)) :
    anyB (fun u => decide (u = gs.map (fun g => grantMatches s args g e))) listed = true := by
  have hq' : (match wayCond a tools gs E t d with
    | none => none
    | some cond =>
      some (buildQC (liftF cond ++ factCl fs (wayRes d.res) (gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a tools) gs))))
        ((gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a tools) gs))).map liftP))) = some Q := hq
  rw [hcond] at hq'
  have hQ := Option.some.inj hq'
  subst hQ
  have hbind := classBindOk fs s e w hw hclass
  have g := argCoveredSound _ _ hcov (valOfC (buildQC (liftF cond ++ factCl fs (wayRes d.res)
    (gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a tools) gs))))
    ((gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a tools) gs))).map liftP)).names (classVal val w))
  have ⟨hc, hp⟩ := buildQCMeans (liftF cond ++ factCl fs (wayRes d.res) (gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a tools) gs))))
    ((gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a tools) gs))).map liftP) (classVal val w)
  have h1 : cCnfHolds (classVal val w) (liftF cond) = true := by
    rw [liftCnf]
    exact hin
  have h2 := factClHolds fs (wayRes d.res) (gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a tools) gs)))
    s args e val w hval hw hclass
  have hcl : cCnfHolds (classVal val w) (liftF cond ++ factCl fs (wayRes d.res)
      (gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a tools) gs)))) = true :=
    cnfAppHolds _ _ _ h1 h2
  have g2 := orFalseL g (hc.trans hcl)
  have hv : (fun x => classVal val w (CSrc.src x)) = val := funext (fun _ => rfl)
  rw [hp, liftPosMap, hv, posMapMatches s args e a (wayRes d.res) (actionKeys a (ownTools a tools) gs) val hval ha hdecl
    hbind gs hfrag] at g2
  exact g2

/-- `classCoverMatches` on every call the monitor prepares on a reachable state: the call's keys are the
action's (`preparedDeclared`), as in `preparedCoverMatches`. -/
theorem preparedClassCoverMatches (fs : List Fact) (p : Policy) (a : String) (gs : List Monitor.Full.Grant)
    (E : Option (List Json)) (t : Tool) (d : EffDecl) (listed : List (List Bool)) (cond : List SClause)
    (Q : BuiltQC) (hcond : wayCond a p.tools gs E t d = some cond) (hq : classQ fs a p.tools gs E t d = some Q)
    (hfrag : ∀ g, g ∈ gs → g.action = a → grantOk g = true)
    (hcov : argCover (Oracle.ArgCover.good Q.cond Q.pos listed) Q.atoms = Answer.covered)
    (s : State) (c : Call) (t' : Tool) (es : List Effect) (hprep : prepare p s c = Except.ok (t', es))
    (e : Effect) (he : e ∈ es) (ha : e.action = a) (val : Src → AV)
    (hval : ∀ src, val (reSrc (wayRes d.res) src) = srcVal s c.args e src)
    (hin : sCnfHolds val cond = true) (w : String → AV)
    (hw : ∀ g, slotOk (w g) = true ∧ factsOk (groupLits fs g) (w g) = true)
    (hclass : ∀ n, resMatches s e.res (Pat.slot n) = true → avOf e.res = w (grpOf fs n)) :
    anyB (fun u => decide (u = gs.map (fun g => grantMatches s c.args g e))) listed = true :=
  classCoverMatches fs a p.tools gs E t d listed cond Q hcond hq hfrag hcov s c.args e ha val hval
    (preparedDeclared p s c t' es hprep e he a ha gs) hin w hw hclass

end AgentWarrant.Revision.ArgCover
