import AgentWarrant.Thm.Revision.ArgCoverClassChk
import AgentWarrant.Thm.Revision.ArgCoverClassConvR
import AgentWarrant.Thm.Revision.ArgCoverResA
/-! The `uncovered` answers of the two oracles that check the tools they are given (`Oracle/ArgCoverToolChk.lean`,
`argCoverPolicyAnswer` and `classChkAnswer`; Agenra Sections 6.1 and 7.1), read back as what their witnesses are:
* `uncChkClass`: `classChkAnswer` answered `uncovered` means the tools passed registration's effect check and
  the routed class answer is `uncovered`, so `classAllUncoveredR` (a class denying no equality between slots)
  or `classAllUncoveredN` (a class denying one) names the way and question whose witness
  `classUncoveredMeantR`, `classUncoveredMeantN` or `classUncoveredMeantNR` describe;
* `uncChkPolicyWays`: `argCoverPolicyAnswer` answered `uncovered` means the tools passed the check and some way
  of the action had its `wayQ` question (every entry in `grantOk`) or its `wayQR` question (the entries in
  `grantOkR`) answered `uncovered` by `argCover`;
* `uncChkWayQMeant`, `uncChkWayQRMeant`: such a question's witness, read at the question's sources (variable
  `i`'s value at the `i`-th name), meets the way's condition and has a match vector over the entries that is
  not listed (`argUncoveredSound` through `buildQMeans` / `buildQAMeans`); `uncChkPolicy` puts the three
  together.
Choices: a unit's witness is a valuation of the way's sources, not a state: no run reaching a state with those
values and no call the monitor prepares on it are built, as for the class converses. -/
namespace AgentWarrant.Revision.ArgCover
open Lean AgentWarrant AgentWarrant.Monitor AgentWarrant.Monitor.Full

/-- The tool-checked class oracle's `uncovered`: every effect of every tool passed registration's effect
check, and the routed class answer's `uncovered` is `classAllUncoveredR`'s (no denied equality) or
`classAllUncoveredN`'s (a denied equality). -/
theorem uncChkClass (fs : List Fact) (a : String) (tools : List Tool) (gs : List Monitor.Full.Grant)
    (E : Option (List Json)) (listedS : List String) (listed : List (List Bool))
    (hans : (Oracle.ArgCoverClassChk.classChkAnswer fs a tools gs E listedS listed).getObjVal? "answer" =
      Except.ok (Json.str "uncovered")) :
    (∀ t, t ∈ tools → ∀ d, d ∈ t.effects → effArgOk t d = true) ∧
    (apartFree fs = true → (∀ g, g ∈ gs → g.action = a → grantOkR g = true) ∧
      ∃ t d cond Q xs, (t, d) ∈ ways a tools ∧ wayCond a tools gs E t d = some cond ∧
        classQR fs a tools gs E t d = some Q ∧
        argCover (Oracle.ArgCover.good Q.cond Q.pos listed) Q.atoms = Answer.uncovered xs) ∧
    (apartFree fs = false →
      (allB grantOk (ofAction a gs) = true ∧
        ∃ t d cond Q xs, (t, d) ∈ ways a tools ∧ wayCond a tools gs E t d = some cond ∧
          classQN fs a tools gs E t d = some Q ∧
          argCover (Oracle.ArgCover.good Q.cond Q.pos listed) Q.atoms = Answer.uncovered xs) ∨
      ((∀ g, g ∈ gs → g.action = a → grantOkR g = true) ∧
        ∃ t d cond Q xs, (t, d) ∈ ways a tools ∧ wayCond a tools gs E t d = some cond ∧
          classQNR fs a tools gs E t d = some Q ∧
          argCover (Oracle.ArgCover.good Q.cond Q.pos listed) Q.atoms = Answer.uncovered xs)) :=
  let ⟨htc, h⟩ := classChkUncovered fs a tools gs E listedS listed hans
  ⟨toolChkBadNone tools htc, fun hf => classAllUncoveredR fs a tools gs E listedS listed hf h,
    fun hd => classAllUncoveredN fs a tools gs E listedS listed hd h⟩

-- the policy oracle's `uncovered` ------------------------------------------------------------------------

/-- The oracle's way-by-way decision on unit questions (`decideWays`) answers `uncovered` only when `argCover`
answers `uncovered` on one of the questions it is given. -/
theorem uncChkDecideWays (listedS : List String) (listed : List (List Bool)) :
    ∀ (qs : List BuiltQ) (acc : List Json),
      (Oracle.ArgCover.decideWays listedS listed qs acc).getObjVal? "answer" = Except.ok (Json.str "uncovered") →
      ∃ q xs, q ∈ qs ∧ argCover (Oracle.ArgCover.good q.cond q.pos listed) q.atoms = Answer.uncovered xs
  | [], acc, h => by
    have h' : (Oracle.ArgCover.decideWays listedS listed [] acc).getObjVal? "answer" =
      Except.ok (Json.str "covered") := convCovAnswer _ _ _ _ _
    exact (classChkStrNe h' h (by decide)).elim
  | r :: rest, acc, h => by
    cases hr : argCover (Oracle.ArgCover.good r.cond r.pos listed) r.atoms with
    | uncovered xs => exact ⟨r, xs, Mem.head _, hr⟩
    | unknown => exact absurd hr (argCoverNeverUnknown _ _)
    | covered =>
      have h' := h
      simp only [Oracle.ArgCover.decideWays, hr] at h'
      have ⟨q, xs, hq, hx⟩ := uncChkDecideWays listedS listed rest _ h'
      exact ⟨q, xs, Mem.tail _ hq, hx⟩

theorem uncChkSomesQ {q : BuiltQ} {f : Tool × EffDecl → Option BuiltQ} :
    ∀ {l : List (Tool × EffDecl)}, q ∈ Oracle.ArgCover.somesQ (l.map f) → ∃ w, w ∈ l ∧ f w = some q
  | [], h => absurd h notMemNil
  | x :: l, h => by
    have h' : q ∈ Oracle.ArgCover.somesQ (f x :: l.map f) := h
    cases hx : f x with
    | none =>
      rw [hx] at h'
      have ⟨w, hw, e⟩ := uncChkSomesQ (f := f) (l := l) h'
      exact ⟨w, Mem.tail _ hw, e⟩
    | some q' =>
      rw [hx] at h'
      cases memCons h' with
      | inl e => rw [e]; exact ⟨x, Mem.head _, hx⟩
      | inr h2 =>
        have ⟨w, hw, e⟩ := uncChkSomesQ (f := f) (l := l) h2
        exact ⟨w, Mem.tail _ hw, e⟩

theorem uncChkCondOf {β : Type} {o : Option (List SClause)} {f : List SClause → β} {Q : β}
    (h : (match o with | none => none | some cond => some (f cond)) = some Q) : ∃ cond, o = some cond := by
  cases o with
  | none => cases h
  | some cond => exact ⟨cond, rfl⟩

/-- An `uncovered` way-by-way decision over the unit questions a writer `W` writes for the ways, `W` writing
one only for a way with a condition, finds a way whose question `argCover` answered `uncovered`. -/
theorem uncChkWays (a : String) (tools : List Tool) (gs : List Monitor.Full.Grant) (E : Option (List Json))
    (listedS : List String) (listed : List (List Bool)) (W : Tool → EffDecl → Option BuiltQ)
    (hW : ∀ t d Q, W t d = some Q → ∃ cond, wayCond a tools gs E t d = some cond)
    (hans : (Oracle.ArgCover.decideWays listedS listed (Oracle.ArgCover.somesQ ((ways a tools).map
      (fun w => W w.1 w.2))) []).getObjVal? "answer" = Except.ok (Json.str "uncovered")) :
    ∃ t d cond Q xs, (t, d) ∈ ways a tools ∧ wayCond a tools gs E t d = some cond ∧ W t d = some Q ∧
      argCover (Oracle.ArgCover.good Q.cond Q.pos listed) Q.atoms = Answer.uncovered xs := by
  have ⟨Q, xs, hQ, hx⟩ := uncChkDecideWays listedS listed _ [] hans
  have ⟨w, hw, hq⟩ := uncChkSomesQ (f := fun w => W w.1 w.2) hQ
  cases w with
  | mk t d =>
    have ⟨cond, hc⟩ := hW t d Q hq
    exact ⟨t, d, cond, Q, xs, hw, hc, hq, hx⟩

theorem uncChkOutsideNot (a : String) (xs : List (Nat × String)) :
    (Oracle.ArgCover.outsideJ a xs).getObjVal? "answer" ≠ Except.ok (Json.str "uncovered") :=
  fun h => classChkStrNe (toolChkOutsideAnswer a xs) h (by decide)

/-- The checked policy oracle's `uncovered`: the tools passed the check, and some way of the action had its
`wayQ` question (every entry of the action in `grantOk`) or its `wayQR` question (the entries in `grantOkR`)
answered `uncovered` by `argCover`. -/
theorem uncChkPolicyWays (a : String) (tools : List Tool) (gs : List Monitor.Full.Grant) (E : Option (List Json))
    (listedS : List String) (listed : List (List Bool))
    (hans : (Oracle.ArgCoverToolChk.argCoverPolicyAnswer a tools gs E listedS listed).getObjVal? "answer" =
      Except.ok (Json.str "uncovered")) :
    Oracle.ArgCoverToolChk.toolChkBad tools = none ∧
    ((allB grantOk (ofAction a gs) = true ∧
      ∃ t d cond Q xs, (t, d) ∈ ways a tools ∧ wayCond a tools gs E t d = some cond ∧
        wayQ a tools gs E t d = some Q ∧
        argCover (Oracle.ArgCover.good Q.cond Q.pos listed) Q.atoms = Answer.uncovered xs) ∨
    ((∀ g, g ∈ gs → g.action = a → grantOkR g = true) ∧
      ∃ t d cond Q xs, (t, d) ∈ ways a tools ∧ wayCond a tools gs E t d = some cond ∧
        wayQR a tools gs E t d = some Q ∧
        argCover (Oracle.ArgCover.good Q.cond Q.pos listed) Q.atoms = Answer.uncovered xs)) := by
  cases hb : Oracle.ArgCoverToolChk.toolChkBad tools with
  | some t =>
    simp only [Oracle.ArgCoverToolChk.argCoverPolicyAnswer, hb] at hans
    exact (classChkStrNe (toolChkInvalidAnswer t) hans (by decide)).elim
  | none =>
    cases hg : allB grantOk (ofAction a gs) with
    | true =>
      simp only [Oracle.ArgCoverToolChk.argCoverPolicyAnswer, hb, hg] at hans
      exact ⟨rfl, Or.inl ⟨rfl, uncChkWays a tools gs E listedS listed (fun t d => wayQ a tools gs E t d)
        (fun t d Q hq => uncChkCondOf (f := fun cond => buildQ cond
          (gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a tools) gs)))) hq) hans⟩⟩
    | false =>
      cases hr : allB grantOkR (ofAction a gs) with
      | true =>
        simp only [Oracle.ArgCoverToolChk.argCoverPolicyAnswer, hb, hg, hr] at hans
        exact ⟨rfl, Or.inr ⟨ofActionAll hr, uncChkWays a tools gs E listedS listed (fun t d => wayQR a tools gs E t d)
          (fun t d Q hq => uncChkCondOf (f := fun cond => buildQA (cond.map liftC)
            (gs.map (posOfR a (wayRes d.res) (actionKeys a (ownTools a tools) gs)))) hq) hans⟩⟩
      | false =>
        simp only [Oracle.ArgCoverToolChk.argCoverPolicyAnswer, hb, hg, hr] at hans
        exact absurd hans (uncChkOutsideNot _ _)

-- a unit question's witness read at its sources ------------------------------------------------------------

/-- A numbered question whose every atom reads one of its names' variables: the witness's atom vector is the
one of the witness read at the names (variable `i`'s value at the `i`-th name). -/
theorem uncChkWitnessBits (Q : BuiltQ) (xs : List AV)
    (hQ : ∀ y, y ∈ Q.atoms → ∃ s, s ∈ Q.names ∧ y.1 = idxOf s Q.names) :
    bitsOf Q.atoms (getV xs) = bitsOf Q.atoms (valOf Q.names (fun x => getV xs (idxOf x Q.names))) := by
  apply mapCongr
  intro y hy
  have ⟨s, hs, e⟩ := hQ y hy
  have hv : valOf Q.names (fun x => getV xs (idxOf x Q.names)) (idxOf s Q.names) = getV xs (idxOf s Q.names) :=
    valOfIdx Q.names _ s hs
  show holdsA y.2 (getV xs y.1) = holdsA y.2 (valOf Q.names (fun x => getV xs (idxOf x Q.names)) y.1)
  rw [e, hv]

theorem uncChkAtomsQ (cond : List SClause) (pos : List (Option (List SClause))) :
    ∀ y, y ∈ (buildQ cond pos).atoms → ∃ s, s ∈ (buildQ cond pos).names ∧ y.1 = idxOf s (buildQ cond pos).names := by
  intro y hy
  have hy' : y ∈ (dedupL [] (litsOfF cond ++ posLits pos)).map (fun (x : SLit) => (idxOf x.1
      (dedupL [] ((dedupL [] (litsOfF cond ++ posLits pos)).map (fun (z : SLit) => z.1))), ALit.lit x.2)) := hy
  have ⟨x, hx, e⟩ := memMapOut hy'
  exact ⟨x.1, dedupMem _ [] x.1 (Or.inr (memMapOf (fun (z : SLit) => z.1) hx)), congrArg Prod.fst e⟩

theorem uncChkAtomsQA (cond : List SClauseA) (pos : List (Option (List SClauseA))) :
    ∀ y, y ∈ (buildQA cond pos).atoms → ∃ s, s ∈ (buildQA cond pos).names ∧ y.1 = idxOf s (buildQA cond pos).names := by
  intro y hy
  have hy' : y ∈ (dedupB sLitABeq [] (litsOfFA cond ++ posLitsA pos)).map (fun (x : SLitA) => (idxOf x.1
      (dedupL [] ((dedupB sLitABeq [] (litsOfFA cond ++ posLitsA pos)).map (fun (z : SLitA) => z.1))), x.2)) := hy
  have ⟨x, hx, e⟩ := memMapOut hy'
  exact ⟨x.1, dedupMem _ [] x.1 (Or.inr (memMapOf (fun (z : SLitA) => z.1) hx)), congrArg Prod.fst e⟩

/-- An `uncovered xs` answer on `wayQ`'s question for way `(t, d)` with condition `cond`: the witness read at
the question's sources meets the condition, and its match vector over the entries' positions is not
listed. -/
theorem uncChkWayQMeant (a : String) (tools : List Tool) (gs : List Monitor.Full.Grant) (E : Option (List Json))
    (t : Tool) (d : EffDecl) (listed : List (List Bool)) (cond : List SClause) (Q : BuiltQ) (xs : List AV)
    (hcond : wayCond a tools gs E t d = some cond) (hq : wayQ a tools gs E t d = some Q)
    (hunc : argCover (Oracle.ArgCover.good Q.cond Q.pos listed) Q.atoms = Answer.uncovered xs) :
    sCnfHolds (fun x => getV xs (idxOf x Q.names)) cond = true ∧
    anyB (fun u => decide (u = (gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a tools) gs))).map
      (sPosBit (fun x => getV xs (idxOf x Q.names))))) listed = false := by
  have hq' : (match wayCond a tools gs E t d with
    | none => none
    | some cond => some (buildQ cond (gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a tools) gs))))) =
      some Q := hq
  rw [hcond] at hq'
  have hQ := Option.some.inj hq'
  subst hQ
  have g := argUncoveredSound _ _ _ hunc
  rw [uncChkWitnessBits _ xs (uncChkAtomsQ _ _)] at g
  have ⟨hc, hp⟩ := buildQMeans cond (gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a tools) gs)))
    (fun x => getV xs (idxOf x (buildQ cond (gs.map (posOf a (wayRes d.res)
      (actionKeys a (ownTools a tools) gs)))).names))
  have ⟨g1, g2⟩ := convOrFalse g
  have hcl := convNotFalse g1
  rw [hc] at hcl
  rw [hp] at g2
  exact ⟨hcl, g2⟩

/-- `uncChkWayQMeant` for `wayQR`'s question (the entries in `grantOkR`), with `posOfR`'s positions (an array
or object resource constant's entry never matching). -/
theorem uncChkWayQRMeant (a : String) (tools : List Tool) (gs : List Monitor.Full.Grant) (E : Option (List Json))
    (t : Tool) (d : EffDecl) (listed : List (List Bool)) (cond : List SClause) (Q : BuiltQ) (xs : List AV)
    (hcond : wayCond a tools gs E t d = some cond) (hq : wayQR a tools gs E t d = some Q)
    (hfrag : ∀ g, g ∈ gs → g.action = a → grantOkR g = true)
    (hunc : argCover (Oracle.ArgCover.good Q.cond Q.pos listed) Q.atoms = Answer.uncovered xs) :
    sCnfHolds (fun x => getV xs (idxOf x Q.names)) cond = true ∧
    anyB (fun u => decide (u = (gs.map (posOfR a (wayRes d.res) (actionKeys a (ownTools a tools) gs))).map
      (sPosBitA (fun x => getV xs (idxOf x Q.names))))) listed = false := by
  have hq' : (match wayCond a tools gs E t d with
    | none => none
    | some cond => some (buildQA (cond.map liftC)
        (gs.map (posOfR a (wayRes d.res) (actionKeys a (ownTools a tools) gs))))) = some Q := hq
  rw [hcond] at hq'
  have hQ := Option.some.inj hq'
  subst hQ
  have g := argUncoveredSound _ _ _ hunc
  rw [uncChkWitnessBits _ xs (uncChkAtomsQA _ _)] at g
  have ⟨hc, hp⟩ := buildQAMeans (cond.map liftC) (gs.map (posOfR a (wayRes d.res) (actionKeys a (ownTools a tools) gs)))
    (fun x => getV xs (idxOf x (buildQA (cond.map liftC) (gs.map (posOfR a (wayRes d.res)
      (actionKeys a (ownTools a tools) gs)))).names))
    (wayQRKeysOk a (wayRes d.res) (actionKeys a (ownTools a tools) gs) cond gs hfrag)
  have ⟨g1, g2⟩ := convOrFalse g
  have hcl := convNotFalse g1
  rw [hc, liftFHolds] at hcl
  rw [hp] at g2
  exact ⟨hcl, g2⟩

/-- The checked policy oracle's `uncovered`, read back: the tools passed registration's effect check, and some
way `(t, d)` of the action with condition `cond` has a valuation of its sources (the witness `xs` at the
question's names `names`) meeting the condition whose match vector over the entries is not listed, on `wayQ`'s
positions when every entry is in `grantOk`, else on `wayQR`'s with the entries in `grantOkR`. -/
theorem uncChkPolicy (a : String) (tools : List Tool) (gs : List Monitor.Full.Grant) (E : Option (List Json))
    (listedS : List String) (listed : List (List Bool))
    (hans : (Oracle.ArgCoverToolChk.argCoverPolicyAnswer a tools gs E listedS listed).getObjVal? "answer" =
      Except.ok (Json.str "uncovered")) :
    (∀ t, t ∈ tools → ∀ d, d ∈ t.effects → effArgOk t d = true) ∧
    ∃ (t : Tool) (d : EffDecl) (cond : List SClause) (names : List Src) (xs : List AV), (t, d) ∈ ways a tools ∧ wayCond a tools gs E t d = some cond ∧
      sCnfHolds (fun x => getV xs (idxOf x names)) cond = true ∧
      ((allB grantOk (ofAction a gs) = true ∧
        anyB (fun u => decide (u = (gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a tools) gs))).map
          (sPosBit (fun x => getV xs (idxOf x names))))) listed = false) ∨
      ((∀ g, g ∈ gs → g.action = a → grantOkR g = true) ∧
        anyB (fun u => decide (u = (gs.map (posOfR a (wayRes d.res) (actionKeys a (ownTools a tools) gs))).map
          (sPosBitA (fun x => getV xs (idxOf x names))))) listed = false)) := by
  have ⟨htc, h⟩ := uncChkPolicyWays a tools gs E listedS listed hans
  refine ⟨toolChkBadNone tools htc, ?_⟩
  cases h with
  | inl h =>
    have ⟨hg, t, d, cond, Q, xs, hw, hc, hq, hx⟩ := h
    have ⟨h1, h2⟩ := uncChkWayQMeant a tools gs E t d listed cond Q xs hc hq hx
    exact ⟨t, d, cond, Q.names, xs, hw, hc, h1, Or.inl ⟨hg, h2⟩⟩
  | inr h =>
    have ⟨hr, t, d, cond, Q, xs, hw, hc, hq, hx⟩ := h
    have ⟨h1, h2⟩ := uncChkWayQRMeant a tools gs E t d listed cond Q xs hc hq hr hx
    exact ⟨t, d, cond, Q.names, xs, hw, hc, h1, Or.inr ⟨hr, h2⟩⟩

end AgentWarrant.Revision.ArgCover
