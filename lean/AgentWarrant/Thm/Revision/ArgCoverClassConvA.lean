import AgentWarrant.Thm.Revision.ArgCoverClassConv
/-! The converse of `classCoverMatchesA` at the level of the class's meaning (Agenra Sections 1 and 7.1): an
`uncovered` answer on the class question on `wayQA`'s positions (`classQA`, `Spec/Revision/ArgCoverClassA.lean`)
stands for a binding state of the class, as `classUncoveredMeant` (`Thm/Revision/ArgCoverClassConv.lean`)
states for `classQ`. The route is that proof's, with `buildQCA` for `buildQC`:
* `convWitnessBitsA`: the witness read at the question's sources (`convVal`) gives the same atom bits;
* `buildQCAMeans` turns the condition and positions into the lifted clauses on those values, which hold
  exactly as the unlifted ones (`liftSAHolds`, `liftFHolds`, `liftCAHolds`, `liftPAMap`), so the class's
  clauses give `classMeant` through `convMeant` unchanged;
* `convPosCanonA`: `posOfA`'s positions, too, read a slot only through its match bit (`slotConj`'s clauses,
  lifted); a predicate's clause of `ALit` literals reads a path.
`classUncoveredMeantA` needs `classCoverMatchesA`'s `hfrag` (entries of the action in `grantOkA`): the
numbering keeps meaning only when every array or object constant passes the oracle's name check
(`classQAKeysOk`). `oracleClassUncoveredA`: the oracle's own `uncovered` answer, whichever writer it picked
(`classQ` on entries in `grantOk`, which is `classQA`'s question there, `oracleClassWriterIsClassQA`), comes
from some way's `classQA` question.

Not proved here, as for `classQ`: that the state so described is reached by a run, or a call the monitor
prepares on it; classes denying an equality between slots (`classQN`). -/
namespace AgentWarrant.Revision.ArgCover
open Lean AgentWarrant AgentWarrant.Monitor AgentWarrant.Monitor.Full

theorem convWitnessBitsA (cond : List CClauseA) (pos : List (Option (List CClauseA))) (xs : List AV) :
    bitsOf (buildQCA cond pos).atoms (getV xs) =
      bitsOf (buildQCA cond pos).atoms (valOfC (buildQCA cond pos).names (convVal (buildQCA cond pos).names xs)) := by
  apply mapCongr
  intro a ha
  have ha' : a ∈ (dedupB cLitABeq [] (litsOfFCA cond ++ posLitsCA pos)).map (fun (x : CLitA) => (idxOf x.1
      (dedupL [] ((dedupB cLitABeq [] (litsOfFCA cond ++ posLitsCA pos)).map (fun (y : CLitA) => y.1))), x.2)) := ha
  have ⟨x, hx, e⟩ := memMapOut ha'
  rw [e]
  have hn : x.1 ∈ (buildQCA cond pos).names := dedupMem _ [] x.1 (Or.inr (memMapOf (fun x => x.1) hx))
  show holdsA x.2 (getV xs (idxOf x.1 (buildQCA cond pos).names)) =
    holdsA x.2 (valOfC (buildQCA cond pos).names (convVal (buildQCA cond pos).names xs)
      (idxOf x.1 (buildQCA cond pos).names))
  rw [valOfCIdx _ _ x.1 hn]
  rfl

theorem convCnfAppA (v : CSrc → AV) (l1 l2 : List CClauseA) (h : cCnfHoldsA v (l1 ++ l2) = true) :
    cCnfHoldsA v l1 = true ∧ cCnfHoldsA v l2 = true := by
  apply factsAndTrue
  show (allB (cClauseHoldsA v) l1 && allB (cClauseHoldsA v) l2) = true
  rw [← allBApp]
  exact h

theorem convCnfCongrA (v1 v2 : Src → AV) (f : List SClauseA) (h : ∀ c x, c ∈ f → x ∈ c → v1 x.1.1 = v2 x.1.1) :
    sCnfHoldsA v1 f = sCnfHoldsA v2 f :=
  allBCongr f (fun c hc => anyBCongr c (fun x hx => by
    show decide (holdsA x.1.2 (v1 x.1.1) = x.2) = decide (holdsA x.1.2 (v2 x.1.1) = x.2)
    rw [h c x hc hx]))

theorem convPredNotSlotA (rk : Src) (hrk : convNotSlot rk = true) (q : Pred) :
    convNotSlot (reSrc rk (predConjA q).1) = true := by
  cases q <;> rfl

/-- `convPosCanon` for `posOfA`: a position of `classQA`'s question reads the slots only through their match
bits. -/
theorem convPosCanonA (a : String) (rk : Src) (keys : List String) (hrk : convNotSlot rk = true) (vs : Src → AV)
    (m : String → Bool)
    (hm : ∀ n, m n = (holds Lit.present (vs (Src.slot n)) && (holds Lit.scalar (vs rk) && !holds (Lit.eqStr []) (vs rk))))
    (g : Monitor.Full.Grant) : sPosBitA vs (posOfA a rk keys g) = sPosBitA (convCanon vs m) (posOfA a rk keys g) := by
  have hsame : ∀ x, convNotSlot x = true → convCanon vs m x = vs x := by
    intro x hx
    cases x with
    | slot n => exact Bool.noConfusion hx
    | res => rfl
    | path _ => rfl
  cases h : g.action == a with
  | false =>
    show sPosBitA vs (match g.action == a with
      | true => some (((patConj g.pat).map (fun c => c.2.map (fun l => ((reSrc rk c.1, l), true)))).map liftC ++
          g.preds.map (predClauseA rk) ++ (slotConj rk g.pat).map liftC ++ (keyConj keys g.keys).map liftC)
      | false => none) = sPosBitA (convCanon vs m) (match g.action == a with
      | true => some (((patConj g.pat).map (fun c => c.2.map (fun l => ((reSrc rk c.1, l), true)))).map liftC ++
          g.preds.map (predClauseA rk) ++ (slotConj rk g.pat).map liftC ++ (keyConj keys g.keys).map liftC)
      | false => none)
    rw [h]
    rfl
  | true =>
    show sPosBitA vs (match g.action == a with
      | true => some (((patConj g.pat).map (fun c => c.2.map (fun l => ((reSrc rk c.1, l), true)))).map liftC ++
          g.preds.map (predClauseA rk) ++ (slotConj rk g.pat).map liftC ++ (keyConj keys g.keys).map liftC)
      | false => none) = sPosBitA (convCanon vs m) (match g.action == a with
      | true => some (((patConj g.pat).map (fun c => c.2.map (fun l => ((reSrc rk c.1, l), true)))).map liftC ++
          g.preds.map (predClauseA rk) ++ (slotConj rk g.pat).map liftC ++ (keyConj keys g.keys).map liftC)
      | false => none)
    rw [h, sPosBitASome, sPosBitASome, allBAppA, allBAppA, allBAppA, allBAppA, allBAppA, allBAppA,
      liftFHolds, liftFHolds, liftFHolds, liftFHolds, liftFHolds, liftFHolds]
    have hA := convCnfCongr vs (convCanon vs m)
      ((patConj g.pat).map (fun c => c.2.map (fun l => ((reSrc rk c.1, l), true))))
      (fun c x hc hx => by
        have ⟨c0, hc0, e⟩ := memMapOut hc
        rw [e] at hx
        have ⟨l, _, e2⟩ := memMapOut hx
        rw [e2]
        exact (hsame _ (convConjNotSlot rk hrk g.pat [] c0 (memAppL _ hc0))).symm)
    have hB := convCnfCongrA vs (convCanon vs m) (g.preds.map (predClauseA rk)) (fun c x hc hx => by
      have ⟨q, _, e⟩ := memMapOut hc
      rw [e] at hx
      have ⟨l, _, e2⟩ := memMapOut hx
      rw [e2]
      exact (hsame _ (convPredNotSlotA rk hrk q)).symm)
    have hK := convCnfCongr vs (convCanon vs m) (keyConj keys g.keys) (fun c x hc hx => by
      cases hk : g.keys with
      | none => rw [hk] at hc; exact absurd hc notMemNil
      | some ks =>
        rw [hk] at hc
        have ⟨k, _, e⟩ := memMapOut hc
        rw [e] at hx
        rw [convMemOne hx]
        rfl)
    have hS := convSlotPart vs (convCanon vs m) rk m hm (fun n => rfl) (hsame rk hrk) g.pat
    rw [hA, hB, hS, hK]

theorem convPosMapCanonA (a : String) (rk : Src) (keys : List String) (hrk : convNotSlot rk = true) (vs : Src → AV)
    (gs : List Monitor.Full.Grant) :
    (gs.map (posOfA a rk keys)).map (sPosBitA vs) =
      (gs.map (posOfA a rk keys)).map (sPosBitA (convCanon vs (fun s => holds Lit.present (vs (Src.slot s)) && slotOk (vs rk)))) := by
  rw [mapMapB, mapMapB]
  exact mapCongrB gs (fun g _ => convPosCanonA a rk keys hrk vs _ (fun n => rfl) g)

/-- `classUncoveredMeant` for `classQA`: with the entries of the action in `grantOkA`, an `uncovered xs` answer
on `classQA`'s question for way `(t, d)` with condition `cond` gives, read at the question's sources, a value
meeting the condition, whose match vector over `posOfA`'s positions is not listed, in the class's meaning
(`classMeant`), and whose vector with each slot's variable present exactly when the slot matches (`convCanon`)
is the same, so not listed either. -/
theorem classUncoveredMeantA (fs : List Fact) (a : String) (tools : List Tool) (gs : List Monitor.Full.Grant)
    (E : Option (List Json)) (t : Tool) (d : EffDecl) (listed : List (List Bool)) (cond : List SClause)
    (Q : BuiltQC) (xs : List AV) (hcond : wayCond a tools gs E t d = some cond)
    (hq : classQA fs a tools gs E t d = some Q)
    (hfrag : ∀ g, g ∈ gs → g.action = a → grantOkA g = true)
    (hunc : argCover (Oracle.ArgCover.good Q.cond Q.pos listed) Q.atoms = Answer.uncovered xs) :
    sCnfHolds (fun x => convVal Q.names xs (CSrc.src x)) cond = true ∧
    anyB (fun u => decide (u = (gs.map (posOfA a (wayRes d.res) (actionKeys a (ownTools a tools) gs))).map
      (sPosBitA (fun x => convVal Q.names xs (CSrc.src x))))) listed = false ∧
    classMeant fs (gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a tools) gs)))
      (convVal Q.names xs (CSrc.src (wayRes d.res)))
      (fun s => holds Lit.present (convVal Q.names xs (CSrc.src (Src.slot s))) &&
        slotOk (convVal Q.names xs (CSrc.src (wayRes d.res)))) ∧
    anyB (fun u => decide (u = (gs.map (posOfA a (wayRes d.res) (actionKeys a (ownTools a tools) gs))).map
      (sPosBitA (convCanon (fun x => convVal Q.names xs (CSrc.src x))
        (fun s => holds Lit.present (convVal Q.names xs (CSrc.src (Src.slot s))) &&
          slotOk (convVal Q.names xs (CSrc.src (wayRes d.res)))))))) listed = false := by
  have hq' : (match wayCond a tools gs E t d with
    | none => none
    | some cond =>
      some (buildQCA ((cond.map liftC).map liftSA ++ (factCl fs (wayRes d.res)
          (gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a tools) gs)))).map liftCA)
        ((gs.map (posOfA a (wayRes d.res) (actionKeys a (ownTools a tools) gs))).map liftPA))) = some Q := hq
  rw [hcond] at hq'
  have hQ := Option.some.inj hq'
  subst hQ
  have g := argUncoveredSound _ _ _ hunc
  rw [convWitnessBitsA] at g
  have ⟨hc, hp⟩ := buildQCAMeans ((cond.map liftC).map liftSA ++ (factCl fs (wayRes d.res)
      (gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a tools) gs)))).map liftCA)
    ((gs.map (posOfA a (wayRes d.res) (actionKeys a (ownTools a tools) gs))).map liftPA)
    (convVal (buildQCA ((cond.map liftC).map liftSA ++ (factCl fs (wayRes d.res)
      (gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a tools) gs)))).map liftCA)
      ((gs.map (posOfA a (wayRes d.res) (actionKeys a (ownTools a tools) gs))).map liftPA)).names xs)
    (classQAKeysOk a (wayRes d.res) (actionKeys a (ownTools a tools) gs) cond _ gs hfrag)
  have ⟨g1, g2⟩ := convOrFalse g
  have hcl := convNotFalse g1
  rw [hc] at hcl
  have ⟨h1, h2⟩ := convCnfAppA _ _ _ hcl
  rw [liftSAHolds, liftFHolds] at h1
  rw [liftCAHolds] at h2
  rw [hp, liftPAMap] at g2
  refine ⟨h1, g2, convMeant fs (wayRes d.res) _ _ h2, ?_⟩
  rw [convPosMapCanonA a (wayRes d.res) (actionKeys a (ownTools a tools) gs) (convWayRes d.res)] at g2
  exact g2

/-- The oracle's `uncovered` class answer, whichever writer it picked (`classQ` when every entry of the action
is in `grantOk`, else `classQA`), comes from some way `(t, d)` of the action with a condition `cond` and
`classQA`'s question `Q` answered `uncovered xs` by `argCover`. -/
theorem oracleClassUncoveredA (fs : List Fact) (a : String) (tools : List Tool) (gs : List Monitor.Full.Grant)
    (E : Option (List Json)) (listedS : List String) (listed : List (List Bool))
    (hans : (Oracle.ArgCoverClass.decideWaysC listedS listed (Oracle.ArgCoverClass.somesQC ((ways a tools).map
      (fun w => match allB grantOk (ofAction a gs) with
        | true => classQ fs a tools gs E w.1 w.2
        | false => classQA fs a tools gs E w.1 w.2))) []).getObjVal? "answer" = Except.ok (Json.str "uncovered")) :
    ∃ t d cond Q xs, (t, d) ∈ ways a tools ∧ wayCond a tools gs E t d = some cond ∧
      classQA fs a tools gs E t d = some Q ∧
      argCover (Oracle.ArgCover.good Q.cond Q.pos listed) Q.atoms = Answer.uncovered xs := by
  have ⟨Q, xs, hQ, hx⟩ := decideWaysCUncovered listedS listed _ [] hans
  have ⟨w, hw, hq⟩ := convSomesQC (f := fun w => match allB grantOk (ofAction a gs) with
    | true => classQ fs a tools gs E w.1 w.2
    | false => classQA fs a tools gs E w.1 w.2) hQ
  cases w with
  | mk t d =>
    have hqA : classQA fs a tools gs E t d = some Q := by
      rw [← oracleClassWriterIsClassQA fs a tools gs E t d]
      exact hq
    cases hc : wayCond a tools gs E t d with
    | none =>
      have hq' : (match wayCond a tools gs E t d with
        | none => none
        | some cond =>
          some (buildQCA ((cond.map liftC).map liftSA ++ (factCl fs (wayRes d.res)
              (gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a tools) gs)))).map liftCA)
            ((gs.map (posOfA a (wayRes d.res) (actionKeys a (ownTools a tools) gs))).map liftPA))) = some Q := hqA
      rw [hc] at hq'
      cases hq'
    | some cond => exact ⟨t, d, cond, Q, xs, hw, hc, hqA, hx⟩

end AgentWarrant.Revision.ArgCover
