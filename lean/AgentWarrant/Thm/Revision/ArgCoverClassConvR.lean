import AgentWarrant.Thm.Revision.ArgCoverClassConvA
import AgentWarrant.Thm.Revision.ArgCoverClassAll
/-! The converse of `classCoverMatchesR` at the level of the class's meaning (Agenra Sections 1 and 7.1): an
`uncovered` answer on the class question on `wayQR`'s positions (`classQR`, `Spec/Revision/ArgCoverClassR.lean`:
an entry whose resource pattern is an array or object constant written as never matching) stands for a binding
state of the class, as `classUncoveredMeantA` (`Thm/Revision/ArgCoverClassConvA.lean`) states for `classQA`.
The route is that proof's: `classQR` is `buildQCA` on the same condition and class clauses (the class's clauses
are `factCl`'s on `posOf`'s positions, as for `classQA`), so `convWitnessBitsA`, `buildQCAMeans` (its name
check through `classQRKeysOk`) and `convMeant` apply unchanged; the only new step is `convPosCanonR`: a
never-matching position (`none`) reads no source at all, every other position is `posOfA`'s
(`convPosCanonA`).
`classAllUncoveredR`: when the oracle's routing (`classAllOut`) answers `uncovered` for a class denying no
equality between slots, whichever of `classQ`, `classQA`, `classQR` it wrote, the entries of the action are in
`grantOkR` and some way's `classQR` question was answered `uncovered` by `argCover`: on entries in `grantOkA`
`classQR` writes `classQA`'s question (`classQRIsA`) and on entries in `grantOk` `classQA` writes `classQ`'s
(`classQSame`); the `outside` answer is never `uncovered` (`convUncoveredW`: the way-by-way step for any
writer that writes a question only for a way with a condition).
Classes denying an equality between slots (`classQN`, `classQNR`, the oracle's answer flagged `"exact": false`):
`classUncoveredMeantN`, `classUncoveredMeantNR` state the converse against the class WITHOUT its denials,
which is what `classMeant` reads (the class's constant and glob facts and its asserted equalities), the
check the Python DRT makes of such a witness: the question is the exact class's with the denied equalities'
clauses (`neqCl`) appended, so a witness meets the exact class's clauses and `convMeant` applies; the
`neqCl` clauses it also meets are not read back, and whether its group values differ where the class
denies an equality is not claimed. `classAllUncoveredN`: the oracle's routed `uncovered` answer for such a
class comes from some way's `classQN` question (entries in `grantOk`) or `classQNR` question (entries in
`grantOkR`).

Not proved here, as for `classQ`: that the state so described is reached by a run, or a call the monitor
prepares on it; for a class denying an equality, that the witness is a binding state of the class with its
denials. -/
namespace AgentWarrant.Revision.ArgCover
open Lean AgentWarrant AgentWarrant.Monitor AgentWarrant.Monitor.Full

/-- `convPosCanonA` for `posOfR`: an entry written as never matching reads no source. -/
theorem convPosCanonR (a : String) (rk : Src) (keys : List String) (hrk : convNotSlot rk = true) (vs : Src → AV)
    (m : String → Bool)
    (hm : ∀ n, m n = (holds Lit.present (vs (Src.slot n)) && (holds Lit.scalar (vs rk) && !holds (Lit.eqStr []) (vs rk))))
    (g : Monitor.Full.Grant) : sPosBitA vs (posOfR a rk keys g) = sPosBitA (convCanon vs m) (posOfR a rk keys g) := by
  show sPosBitA vs (match resStruct g.pat with | true => none | false => posOfA a rk keys g) =
    sPosBitA (convCanon vs m) (match resStruct g.pat with | true => none | false => posOfA a rk keys g)
  cases resStruct g.pat with
  | true => rfl
  | false => exact convPosCanonA a rk keys hrk vs m hm g

theorem convPosMapCanonR (a : String) (rk : Src) (keys : List String) (hrk : convNotSlot rk = true) (vs : Src → AV)
    (gs : List Monitor.Full.Grant) :
    (gs.map (posOfR a rk keys)).map (sPosBitA vs) =
      (gs.map (posOfR a rk keys)).map (sPosBitA (convCanon vs (fun s => holds Lit.present (vs (Src.slot s)) && slotOk (vs rk)))) := by
  rw [mapMapB, mapMapB]
  exact mapCongrB gs (fun g _ => convPosCanonR a rk keys hrk vs _ (fun n => rfl) g)

/-- `classUncoveredMeantA` for `classQR`: with the entries of the action in `grantOkR`, an `uncovered xs`
answer on `classQR`'s question for way `(t, d)` with condition `cond` gives, read at the question's sources, a
value meeting the condition, whose match vector over `posOfR`'s positions is not listed, in the class's
meaning (`classMeant`), and whose vector with each slot's variable present exactly when the slot matches
(`convCanon`) is the same, so not listed either. -/
theorem classUncoveredMeantR (fs : List Fact) (a : String) (tools : List Tool) (gs : List Monitor.Full.Grant)
    (E : Option (List Json)) (t : Tool) (d : EffDecl) (listed : List (List Bool)) (cond : List SClause)
    (Q : BuiltQC) (xs : List AV) (hcond : wayCond a tools gs E t d = some cond)
    (hq : classQR fs a tools gs E t d = some Q)
    (hfrag : ∀ g, g ∈ gs → g.action = a → grantOkR g = true)
    (hunc : argCover (Oracle.ArgCover.good Q.cond Q.pos listed) Q.atoms = Answer.uncovered xs) :
    sCnfHolds (fun x => convVal Q.names xs (CSrc.src x)) cond = true ∧
    anyB (fun u => decide (u = (gs.map (posOfR a (wayRes d.res) (actionKeys a (ownTools a tools) gs))).map
      (sPosBitA (fun x => convVal Q.names xs (CSrc.src x))))) listed = false ∧
    classMeant fs (gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a tools) gs)))
      (convVal Q.names xs (CSrc.src (wayRes d.res)))
      (fun s => holds Lit.present (convVal Q.names xs (CSrc.src (Src.slot s))) &&
        slotOk (convVal Q.names xs (CSrc.src (wayRes d.res)))) ∧
    anyB (fun u => decide (u = (gs.map (posOfR a (wayRes d.res) (actionKeys a (ownTools a tools) gs))).map
      (sPosBitA (convCanon (fun x => convVal Q.names xs (CSrc.src x))
        (fun s => holds Lit.present (convVal Q.names xs (CSrc.src (Src.slot s))) &&
          slotOk (convVal Q.names xs (CSrc.src (wayRes d.res)))))))) listed = false := by
  have hq' : (match wayCond a tools gs E t d with
    | none => none
    | some cond =>
      some (buildQCA ((cond.map liftC).map liftSA ++ (factCl fs (wayRes d.res)
          (gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a tools) gs)))).map liftCA)
        ((gs.map (posOfR a (wayRes d.res) (actionKeys a (ownTools a tools) gs))).map liftPA))) = some Q := hq
  rw [hcond] at hq'
  have hQ := Option.some.inj hq'
  subst hQ
  have g := argUncoveredSound _ _ _ hunc
  rw [convWitnessBitsA] at g
  have ⟨hc, hp⟩ := buildQCAMeans ((cond.map liftC).map liftSA ++ (factCl fs (wayRes d.res)
      (gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a tools) gs)))).map liftCA)
    ((gs.map (posOfR a (wayRes d.res) (actionKeys a (ownTools a tools) gs))).map liftPA)
    (convVal (buildQCA ((cond.map liftC).map liftSA ++ (factCl fs (wayRes d.res)
      (gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a tools) gs)))).map liftCA)
      ((gs.map (posOfR a (wayRes d.res) (actionKeys a (ownTools a tools) gs))).map liftPA)).names xs)
    (classQRKeysOk a (wayRes d.res) (actionKeys a (ownTools a tools) gs) cond _ gs hfrag)
  have ⟨g1, g2⟩ := convOrFalse g
  have hcl := convNotFalse g1
  rw [hc] at hcl
  have ⟨h1, h2⟩ := convCnfAppA _ _ _ hcl
  rw [liftSAHolds, liftFHolds] at h1
  rw [liftCAHolds] at h2
  rw [hp, liftPAMap] at g2
  refine ⟨h1, g2, convMeant fs (wayRes d.res) _ _ h2, ?_⟩
  rw [convPosMapCanonR a (wayRes d.res) (actionKeys a (ownTools a tools) gs) (convWayRes d.res)] at g2
  exact g2

theorem classAllOutsideNotUnc (a : String) (xs : List (Nat × String)) :
    (Oracle.ArgCover.outsideJ a xs).getObjVal? "answer" ≠ Except.ok (Json.str "uncovered") := by
  intro h
  have h' : (Oracle.ArgCover.outsideJ a xs).getObjVal? "answer" = Except.ok (Json.str "outside") := rfl
  rw [h'] at h
  have hs := congrArg (fun (x : Except String Json) => match x with
    | Except.ok (Json.str s) => s
    | _ => "") h
  exact absurd hs (by decide)

theorem convCondOf {o : Option (List SClause)} {f : List SClause → BuiltQC} {Q : BuiltQC}
    (h : (match o with | none => none | some cond => some (f cond)) = some Q) : ∃ cond, o = some cond := by
  cases o with
  | none => cases h
  | some cond => exact ⟨cond, rfl⟩

/-- An `uncovered` way-by-way decision over the questions a writer `f` writes for the ways, `f` writing one
only for a way with a condition, finds a way whose question `argCover` answered `uncovered`. -/
theorem convUncoveredW (a : String) (tools : List Tool) (gs : List Monitor.Full.Grant) (E : Option (List Json))
    (listedS : List String) (listed : List (List Bool)) (f : Tool × EffDecl → Option BuiltQC)
    (hW : ∀ t d Q, (t, d) ∈ ways a tools → f (t, d) = some Q → ∃ cond, wayCond a tools gs E t d = some cond)
    (hans : (Oracle.ArgCoverClass.decideWaysC listedS listed (Oracle.ArgCoverClass.somesQC ((ways a tools).map f))
      []).getObjVal? "answer" = Except.ok (Json.str "uncovered")) :
    ∃ t d cond Q xs, (t, d) ∈ ways a tools ∧ wayCond a tools gs E t d = some cond ∧ f (t, d) = some Q ∧
      argCover (Oracle.ArgCover.good Q.cond Q.pos listed) Q.atoms = Answer.uncovered xs := by
  have ⟨Q, xs, hQ, hx⟩ := decideWaysCUncovered listedS listed _ [] hans
  have ⟨w, hw, hq⟩ := convSomesQC (f := f) hQ
  cases w with
  | mk t d =>
    have ⟨cond, hc⟩ := hW t d Q hw hq
    exact ⟨t, d, cond, Q, xs, hw, hc, hq, hx⟩

/-- `convUncoveredW` for questions that are `classQR`'s for every way. -/
theorem convUncoveredR (fs : List Fact) (a : String) (tools : List Tool) (gs : List Monitor.Full.Grant)
    (E : Option (List Json)) (listedS : List String) (listed : List (List Bool)) (f : Tool × EffDecl → Option BuiltQC)
    (hf : ∀ w, w ∈ ways a tools → f w = classQR fs a tools gs E w.1 w.2)
    (hans : (Oracle.ArgCoverClass.decideWaysC listedS listed (Oracle.ArgCoverClass.somesQC ((ways a tools).map f))
      []).getObjVal? "answer" = Except.ok (Json.str "uncovered")) :
    ∃ t d cond Q xs, (t, d) ∈ ways a tools ∧ wayCond a tools gs E t d = some cond ∧
      classQR fs a tools gs E t d = some Q ∧
      argCover (Oracle.ArgCover.good Q.cond Q.pos listed) Q.atoms = Answer.uncovered xs := by
  have ⟨t, d, cond, Q, xs, hw, hc, hq, hx⟩ := convUncoveredW a tools gs E listedS listed f
    (fun t d Q hm hq => by rw [hf (t, d) hm] at hq; exact convCondOf hq) hans
  rw [hf (t, d) hw] at hq
  exact ⟨t, d, cond, Q, xs, hw, hc, hq, hx⟩

theorem convGrantOkAR (g : Monitor.Full.Grant) (h : grantOkA g = true) : grantOkR g = true :=
  (andT (show (patOkS g.pat && allB predOkA g.preds) = true from h)).2

/-- The oracle's routed `uncovered` answer for a class denying no equality between slots, whichever of
`classQ`, `classQA`, `classQR` it wrote: the entries of the action are in `grantOkR`, and some way's
`classQR` question was answered `uncovered` by `argCover`. -/
theorem classAllUncoveredR (fs : List Fact) (a : String) (tools : List Tool) (gs : List Monitor.Full.Grant)
    (E : Option (List Json)) (listedS : List String) (listed : List (List Bool)) (hfree : apartFree fs = true)
    (hans : (Oracle.ArgCoverClass.classAllOut fs a tools gs E listedS listed).getObjVal? "answer" =
      Except.ok (Json.str "uncovered")) :
    (∀ g, g ∈ gs → g.action = a → grantOkR g = true) ∧
    ∃ t d cond Q xs, (t, d) ∈ ways a tools ∧ wayCond a tools gs E t d = some cond ∧
      classQR fs a tools gs E t d = some Q ∧
      argCover (Oracle.ArgCover.good Q.cond Q.pos listed) Q.atoms = Answer.uncovered xs := by
  cases h1 : allB grantOk (ofAction a gs) with
  | true =>
    have h' := hans
    simp only [Oracle.ArgCoverClass.classAllOut, h1, hfree] at h'
    have hA : ∀ g, g ∈ gs → g.action = a → grantOkA g = true :=
      fun g hg hga => grantOkOkA g (ofActionGrantOk h1 g hg hga)
    exact ⟨fun g hg hga => convGrantOkAR g (hA g hg hga),
      convUncoveredR fs a tools gs E listedS listed _ (fun w _ =>
        (classQSame fs a tools gs E w.1 w.2 (ofActionGrantOk h1)).trans
          (classQRIsA fs a tools gs E w.1 w.2 hA).symm) h'⟩
  | false =>
    cases h2 : allB grantOkA (ofAction a gs) with
    | true =>
      have h' : (Oracle.ArgCoverClass.decideWaysC listedS listed (Oracle.ArgCoverClass.somesQC ((ways a tools).map
          (fun w => classQA fs a tools gs E w.1 w.2))) []).getObjVal? "answer" = Except.ok (Json.str "uncovered") := by
        cases h3 : allB grantOkR (ofAction a gs) <;>
          (have h' := hans; simp only [Oracle.ArgCoverClass.classAllOut, h1, h2, h3, hfree] at h'; exact h')
      exact ⟨fun g hg hga => convGrantOkAR g (ofActionAll h2 g hg hga),
        convUncoveredR fs a tools gs E listedS listed _ (fun w _ =>
          (classQRIsA fs a tools gs E w.1 w.2 (ofActionAll h2)).symm) h'⟩
    | false =>
      cases h3 : allB grantOkR (ofAction a gs) with
      | true =>
        have h' := hans
        simp only [Oracle.ArgCoverClass.classAllOut, h1, h2, h3, hfree] at h'
        exact ⟨ofActionAll h3, convUncoveredR fs a tools gs E listedS listed _ (fun w _ => rfl) h'⟩
      | false =>
        have h' := hans
        simp only [Oracle.ArgCoverClass.classAllOut, h1, h2, h3, hfree] at h'
        exact absurd h' (classAllOutsideNotUnc _ _)

-- classes denying an equality between slots, against the class without its denials ---------------------

/-- `classUncoveredMeant` for `classQN` (a class denying equalities between slots, entries in `grantOk`),
against the class without its denials: `classMeant` reads only the class's constant and glob facts and its
asserted equalities (`groupLits`, `grpOf`), so an `uncovered` witness, read at the question's sources, meets
the way's condition, has a match vector that is not listed, and is a binding state of the class with its
denied equalities dropped; the denied equalities' clauses (`neqCl`) it also meets are not read back. -/
theorem classUncoveredMeantN (fs : List Fact) (a : String) (tools : List Tool) (gs : List Monitor.Full.Grant)
    (E : Option (List Json)) (t : Tool) (d : EffDecl) (listed : List (List Bool)) (cond : List SClause)
    (Q : BuiltQC) (xs : List AV) (hcond : wayCond a tools gs E t d = some cond)
    (hq : classQN fs a tools gs E t d = some Q)
    (hunc : argCover (Oracle.ArgCover.good Q.cond Q.pos listed) Q.atoms = Answer.uncovered xs) :
    sCnfHolds (fun x => convVal Q.names xs (CSrc.src x)) cond = true ∧
    anyB (fun u => decide (u = (gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a tools) gs))).map
      (sPosBit (fun x => convVal Q.names xs (CSrc.src x))))) listed = false ∧
    classMeant fs (gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a tools) gs)))
      (convVal Q.names xs (CSrc.src (wayRes d.res)))
      (fun s => holds Lit.present (convVal Q.names xs (CSrc.src (Src.slot s))) &&
        slotOk (convVal Q.names xs (CSrc.src (wayRes d.res)))) ∧
    anyB (fun u => decide (u = (gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a tools) gs))).map
      (sPosBit (convCanon (fun x => convVal Q.names xs (CSrc.src x))
        (fun s => holds Lit.present (convVal Q.names xs (CSrc.src (Src.slot s))) &&
          slotOk (convVal Q.names xs (CSrc.src (wayRes d.res)))))))) listed = false := by
  have hq' : (match wayCond a tools gs E t d with
    | none => none
    | some cond =>
      some (buildQC ((liftF cond ++ factCl fs (wayRes d.res) (gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a tools) gs)))) ++
          neqCl fs (wayRes d.res) (gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a tools) gs))))
        ((gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a tools) gs))).map liftP))) = some Q := hq
  rw [hcond] at hq'
  have hQ := Option.some.inj hq'
  subst hQ
  have g := argUncoveredSound _ _ _ hunc
  rw [convWitnessBits] at g
  have ⟨hc, hp⟩ := buildQCMeans ((liftF cond ++ factCl fs (wayRes d.res)
      (gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a tools) gs)))) ++
      neqCl fs (wayRes d.res) (gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a tools) gs))))
    ((gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a tools) gs))).map liftP)
    (convVal (buildQC ((liftF cond ++ factCl fs (wayRes d.res)
      (gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a tools) gs)))) ++
      neqCl fs (wayRes d.res) (gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a tools) gs))))
      ((gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a tools) gs))).map liftP)).names xs)
  have ⟨g1, g2⟩ := convOrFalse g
  have hcl := convNotFalse g1
  rw [hc] at hcl
  have ⟨h0, _⟩ := convCnfApp _ _ _ hcl
  have ⟨h1, h2⟩ := convCnfApp _ _ _ h0
  rw [liftCnf] at h1
  rw [hp, liftPosMap] at g2
  refine ⟨h1, g2, convMeant fs (wayRes d.res) _ _ h2, ?_⟩
  rw [convPosMapCanon a (wayRes d.res) (actionKeys a (ownTools a tools) gs) (convWayRes d.res)] at g2
  exact g2

/-- `classUncoveredMeantR` for `classQNR` (a class denying equalities between slots, an entry outside
`grantOk`), against the class without its denials, as `classUncoveredMeantN`. -/
theorem classUncoveredMeantNR (fs : List Fact) (a : String) (tools : List Tool) (gs : List Monitor.Full.Grant)
    (E : Option (List Json)) (t : Tool) (d : EffDecl) (listed : List (List Bool)) (cond : List SClause)
    (Q : BuiltQC) (xs : List AV) (hcond : wayCond a tools gs E t d = some cond)
    (hq : classQNR fs a tools gs E t d = some Q)
    (hfrag : ∀ g, g ∈ gs → g.action = a → grantOkR g = true)
    (hunc : argCover (Oracle.ArgCover.good Q.cond Q.pos listed) Q.atoms = Answer.uncovered xs) :
    sCnfHolds (fun x => convVal Q.names xs (CSrc.src x)) cond = true ∧
    anyB (fun u => decide (u = (gs.map (posOfR a (wayRes d.res) (actionKeys a (ownTools a tools) gs))).map
      (sPosBitA (fun x => convVal Q.names xs (CSrc.src x))))) listed = false ∧
    classMeant fs (gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a tools) gs)))
      (convVal Q.names xs (CSrc.src (wayRes d.res)))
      (fun s => holds Lit.present (convVal Q.names xs (CSrc.src (Src.slot s))) &&
        slotOk (convVal Q.names xs (CSrc.src (wayRes d.res)))) ∧
    anyB (fun u => decide (u = (gs.map (posOfR a (wayRes d.res) (actionKeys a (ownTools a tools) gs))).map
      (sPosBitA (convCanon (fun x => convVal Q.names xs (CSrc.src x))
        (fun s => holds Lit.present (convVal Q.names xs (CSrc.src (Src.slot s))) &&
          slotOk (convVal Q.names xs (CSrc.src (wayRes d.res)))))))) listed = false := by
  have hq' : (match wayCond a tools gs E t d with
    | none => none
    | some cond =>
      some (buildQCA ((cond.map liftC).map liftSA ++ (factCl fs (wayRes d.res)
          (gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a tools) gs))) ++
          neqCl fs (wayRes d.res) (gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a tools) gs)))).map liftCA)
        ((gs.map (posOfR a (wayRes d.res) (actionKeys a (ownTools a tools) gs))).map liftPA))) = some Q := hq
  rw [hcond] at hq'
  have hQ := Option.some.inj hq'
  subst hQ
  have g := argUncoveredSound _ _ _ hunc
  rw [convWitnessBitsA] at g
  have ⟨hc, hp⟩ := buildQCAMeans ((cond.map liftC).map liftSA ++ (factCl fs (wayRes d.res)
      (gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a tools) gs))) ++
      neqCl fs (wayRes d.res) (gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a tools) gs)))).map liftCA)
    ((gs.map (posOfR a (wayRes d.res) (actionKeys a (ownTools a tools) gs))).map liftPA)
    (convVal (buildQCA ((cond.map liftC).map liftSA ++ (factCl fs (wayRes d.res)
      (gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a tools) gs))) ++
      neqCl fs (wayRes d.res) (gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a tools) gs)))).map liftCA)
      ((gs.map (posOfR a (wayRes d.res) (actionKeys a (ownTools a tools) gs))).map liftPA)).names xs)
    (classQRKeysOk a (wayRes d.res) (actionKeys a (ownTools a tools) gs) cond _ gs hfrag)
  have ⟨g1, g2⟩ := convOrFalse g
  have hcl := convNotFalse g1
  rw [hc] at hcl
  have ⟨h1, h0⟩ := convCnfAppA _ _ _ hcl
  rw [liftSAHolds, liftFHolds] at h1
  rw [liftCAHolds] at h0
  have ⟨h2, _⟩ := convCnfApp _ _ _ h0
  rw [hp, liftPAMap] at g2
  refine ⟨h1, g2, convMeant fs (wayRes d.res) _ _ h2, ?_⟩
  rw [convPosMapCanonR a (wayRes d.res) (actionKeys a (ownTools a tools) gs) (convWayRes d.res)] at g2
  exact g2

/-- The oracle's routed `uncovered` answer for a class denying an equality between slots (flagged
`"exact": false`): on entries in `grantOk`, some way's `classQN` question was answered `uncovered` by
`argCover`; otherwise the entries are in `grantOkR` and some way's `classQNR` question was. -/
theorem classAllUncoveredN (fs : List Fact) (a : String) (tools : List Tool) (gs : List Monitor.Full.Grant)
    (E : Option (List Json)) (listedS : List String) (listed : List (List Bool)) (hden : apartFree fs = false)
    (hans : (Oracle.ArgCoverClass.classAllOut fs a tools gs E listedS listed).getObjVal? "answer" =
      Except.ok (Json.str "uncovered")) :
    (allB grantOk (ofAction a gs) = true ∧
      ∃ t d cond Q xs, (t, d) ∈ ways a tools ∧ wayCond a tools gs E t d = some cond ∧
        classQN fs a tools gs E t d = some Q ∧
        argCover (Oracle.ArgCover.good Q.cond Q.pos listed) Q.atoms = Answer.uncovered xs) ∨
    ((∀ g, g ∈ gs → g.action = a → grantOkR g = true) ∧
      ∃ t d cond Q xs, (t, d) ∈ ways a tools ∧ wayCond a tools gs E t d = some cond ∧
        classQNR fs a tools gs E t d = some Q ∧
        argCover (Oracle.ArgCover.good Q.cond Q.pos listed) Q.atoms = Answer.uncovered xs) := by
  cases h1 : allB grantOk (ofAction a gs) with
  | true =>
    have h' := hans
    simp only [Oracle.ArgCoverClass.classAllOut, h1, hden] at h'
    rw [classAllExactKeepsAnswer] at h'
    exact Or.inl ⟨rfl, convUncoveredW a tools gs E listedS listed (fun w => classQN fs a tools gs E w.1 w.2)
      (fun t d Q _ hq => convCondOf hq) h'⟩
  | false =>
    cases h3 : allB grantOkR (ofAction a gs) with
    | true =>
      have h'' : (Oracle.ArgCoverClass.decideWaysC listedS listed (Oracle.ArgCoverClass.somesQC ((ways a tools).map
          (fun w => classQNR fs a tools gs E w.1 w.2))) []).getObjVal? "answer" = Except.ok (Json.str "uncovered") := by
        cases h2 : allB grantOkA (ofAction a gs) <;>
          (have h' := hans; simp only [Oracle.ArgCoverClass.classAllOut, h1, h2, h3, hden] at h'
           rw [classAllExactKeepsAnswer] at h'; exact h')
      exact Or.inr ⟨ofActionAll h3, convUncoveredW a tools gs E listedS listed (fun w => classQNR fs a tools gs E w.1 w.2)
        (fun t d Q _ hq => convCondOf hq) h''⟩
    | false =>
      cases h2 : allB grantOkA (ofAction a gs) <;>
        (have h' := hans
         simp only [Oracle.ArgCoverClass.classAllOut, h1, h2, h3, hden] at h'
         exact absurd h' (classAllOutsideNotUnc _ _))

end AgentWarrant.Revision.ArgCover
