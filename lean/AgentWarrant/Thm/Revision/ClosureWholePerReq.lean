import AgentWarrant.Thm.Revision.ClosureWholeCovReq
import AgentWarrant.Thm.Revision.ClosureWholePerOracle
/-! The closure check on the whole monitor for two per-list certificates, with no hypothesis on the
states' requirement lists and none that a prepared effect's action is among the oracle's (Agenra
Sections 1 and 7.1): the per-list form of `cwRunFullOracleReq`.

The same two steps as the joint form, on one list pair at a time. The check reads a unit's
requirement list only through the entries' requirements (`Closure.rqRunSide`), so a call's per-list
unit may be replaced by a listed one with the same bits and a requirement list agreeing with the
state's on the pair's entries (`CwStandInL`). The subsets of a list naming every requirement of the
pair (`cwSubsets R`) hold one such list for every requirement list the monitor may keep
(`cwSubsetsCompleteL`, the elements of `R` it contains). `acts` naming every action the policy's
tools declare gives `e.action ∈ acts` (`cwActOfPrepare`), so the per-call conditions along the old
run are the joint theorem's `CwSideAlongR`; they hold on each pair because the pair's grants are among
the four lists' (`cwSideSub`).

Choices where the source is silent: each certificate takes its own requirement names (`RU` for the
user pair, `RA` for the application pair), as the Python checker writes a per-list certificate's
units with the subsets of the requirements its own two lists name, sorted; `E` and `acts` are shared,
as in `cwRunFullPerListOracle`. -/
namespace AgentWarrant.Monitor.Full
open Lean AgentWarrant AgentWarrant.Monitor AgentWarrant.Monitor.Run AgentWarrant.Revision

/-- Every requirement list has one in `Qs` that agrees with it on the pair `gs`, `gs'`'s requirements. -/
def CwQsCompleteL (Qs : List (List String)) (gs gs' : List Grant) : Prop :=
  ∀ sat : List String, ∃ q, q ∈ Qs ∧ Closure.ReqAgree [cwEntries gs] sat q ∧ Closure.ReqAgree [cwEntries gs'] sat q

theorem cwRqAgreeOne (sat R : List String) (gs : List Grant) (hR : CwReqsIn R gs) :
    Closure.ReqAgree [cwEntries gs] sat (filt (Closure.memS sat) R) := by
  intro es hes
  cases hes with
  | head _ => exact cwRqAgreeEntries sat R gs hR
  | tail _ h' => exact absurd h' notMemNil

/-- The per-list form of `cwSubsetsComplete`: the subsets of a list naming the pair's requirements. -/
theorem cwSubsetsCompleteL (R : List String) (gs gs' : List Grant) (hR : CwReqsIn R (gs ++ gs')) :
    CwQsCompleteL (cwSubsets R) gs gs' :=
  fun sat => ⟨filt (Closure.memS sat) R, cwRqKeepSub sat R,
    cwRqAgreeOne sat R gs (cwRqReqsInApp R gs gs' hR).1, cwRqAgreeOne sat R gs' (cwRqReqsInApp R gs gs' hR).2⟩

/-- A call's per-list units have listed stand-ins: the same bits, an agreeing requirement list. -/
abbrev CwStandInL (units : List Closure.Unit') (gs gs' : List Grant) (s : State) (args : List (String × Json))
    (es : List Effect) : Prop :=
  ∀ x, x ∈ cwUnitsL gs gs' s args es → ∃ y, y ∈ units ∧ y.old = x.old ∧ y.new = x.new ∧
    Closure.ReqAgree [cwEntries gs] x.reqs y.reqs ∧ Closure.ReqAgree [cwEntries gs'] x.reqs y.reqs

/-- One call: listed vectors over a pair give its per-list units listed stand-ins, whatever its
state's requirement list, when `Qs` is complete for the pair. -/
theorem cwStandInOneCallL (units : List Closure.Unit') (gs gs' : List Grant) (listed : String → List (List Bool))
    (Qs : List (List String)) (hu : CwUnitsFromL units gs gs' listed Qs) (hQs : CwQsCompleteL Qs gs gs')
    (s : State) (args : List (String × Json)) (es : List Effect) (hv : CwVecsListedOn listed (gs ++ gs') s args es) :
    CwStandInL units gs gs' s args es := by
  intro x hx
  have ⟨i, hi, hxi⟩ := memMapInv _ hx
  have ⟨q, hq, ao, an⟩ := hQs s.satisfied
  rw [← hxi]
  exact ⟨⟨[cwBits s args es i gs], [cwBits s args es i gs'], q⟩, cwUnitLAt units gs gs' listed Qs hu s args es hv q hq i hi,
    rfl, rfl, ao, an⟩

/-- Two per-list relations that pass the closure check have the closure property for calls whose
per-list units have listed stand-ins. -/
theorem cwClosedPerListReq (unitsU unitsA : List Closure.Unit') (relU relA : List (Closure.Usage × Closure.Usage))
    (startU startA : Closure.Usage × Closure.Usage) (p : Policy) (u' a' : List Grant)
    (hcU : Closure.closedC [cwEntries p.user] [cwEntries u'] unitsU relU startU = true)
    (hcA : Closure.closedC [cwEntries p.app] [cwEntries a'] unitsA relA startA = true) :
    CwClosed (fun ou oa nu na => Closure.memR relU ([ou], [nu]) = true ∧ Closure.memR relA ([oa], [na]) = true)
      (fun s args es => CwStandInL unitsU p.user u' s args es ∧ CwStandInL unitsA p.app a' s args es) p u' a' := by
  intro s args es hcov ou oa nu na ou' oa' hq _ _ hrun
  have ⟨r1, r2⟩ := cwSplitOld p u' a' s args es _ _ _ ou oa ou' oa' hrun
  have ⟨ysU, hysU, sU1, sU2⟩ := Closure.rqRunSide [cwEntries p.user] [cwEntries u'] unitsU
    (cwUnitsL p.user u' s args es) hcov.1
  have ⟨ysA, hysA, sA1, sA2⟩ := Closure.rqRunSide [cwEntries p.app] [cwEntries a'] unitsA
    (cwUnitsL p.app a' s args es) hcov.2
  have ⟨f1, h1, q1⟩ := Closure.closedPreserves _ _ unitsU relU startU hcU ysU ([ou], [nu]) [ou'] hq.1 hysU
    ((sU1 [ou]).symm.trans r1)
  have ⟨f2, h2, q2⟩ := Closure.closedPreserves _ _ unitsA relA startA hcA ysA ([oa], [na]) [oa'] hq.2 hysA
    ((sA1 [oa]).symm.trans r2)
  have ⟨v1, v2, e1, e2, hj⟩ := cwJoinNew p u' a' s args es _ _ _ nu na f1 f2 ((sU2 [nu]).trans h1)
    ((sA2 [na]).trans h2)
  rw [e1] at q1
  rw [e2] at q2
  exact ⟨v1, v2, hj, q1, q2⟩

/-- The whole trace: per-list stand-ins for every prepared call along the old run, from the two
pairs' covered answers. -/
theorem cwStandInLAlong (unitsU unitsA : List Closure.Unit') (p : Policy) (u' a' : List Grant)
    (E : String → Option (List Json)) (listedSU listedSA : String → List String)
    (listedU listedA : String → List (List Bool)) (acts : List String) (RU RA : List String)
    (huU : CwUnitsFromL unitsU p.user u' listedU (cwSubsets RU))
    (huA : CwUnitsFromL unitsA p.app a' listedA (cwSubsets RA))
    (hRU : CwReqsIn RU (p.user ++ u')) (hRA : CwReqsIn RA (p.app ++ a')) (hacts : CwActsNamed acts p)
    (hansU : CwOracleCoveredOn E listedSU listedU acts p (p.user ++ u'))
    (hansA : CwOracleCoveredOn E listedSA listedA acts p (p.app ++ a'))
    (cs : List (Call × Outcome)) (s : State) (hreach : ∃ cs0, s = (runFull p (initialState p) cs0).2)
    (hside : CwSideAlongR E p u' a' s cs) :
    CwCoveredBy (fun s args es => CwStandInL unitsU p.user u' s args es ∧ CwStandInL unitsA p.app a' s args es) p s cs :=
  cwAlongReach (fun s c => ∀ t es, prepare p s c = Except.ok (t, es) → CwOracleSideR E p u' a' c.args es)
    (fun s c => ∀ t es, prepare p s c = Except.ok (t, es) →
      CwStandInL unitsU p.user u' s c.args es ∧ CwStandInL unitsA p.app a' s c.args es) p
    (fun s c hr h t es hp =>
      have hs := cwOracleSideOfR E acts p u' a' hacts s c t es hp (h t es hp)
      ⟨cwStandInOneCallL unitsU p.user u' listedU _ huU (cwSubsetsCompleteL RU p.user u' hRU) s c.args es
        (cwVecsOfOracleOn E listedSU listedU acts p _ hansU s hr c t es hp
          (cwSideSub E acts _ _ (cwUserSub p u' a') c.args es hs)),
       cwStandInOneCallL unitsA p.app a' listedA _ huA (cwSubsetsCompleteL RA p.app a' hRA) s c.args es
        (cwVecsOfOracleOn E listedSA listedA acts p _ hansA s hr c t es hp
          (cwSideSub E acts _ _ (cwAppSub p u' a') c.args es hs))⟩)
    cs s hreach hside

/-- `cwRunFullPerListOracle` with each certificate's units holding every listed vector with every
subset of its pair's requirement names, and `acts` naming the tools' actions: no hypothesis on the
states' requirement lists, and none that a prepared effect's action is among `acts`. -/
theorem cwRunFullPerListOracleReq (unitsU unitsA : List Closure.Unit')
    (relU relA : List (Closure.Usage × Closure.Usage))
    (startU startA : Closure.Usage × Closure.Usage) (p : Policy) (u' a' : List Grant)
    (E : String → Option (List Json)) (listedSU listedSA : String → List String)
    (listedU listedA : String → List (List Bool)) (acts : List String) (RU RA : List String)
    (hcU : Closure.closedC [cwEntries p.user] [cwEntries u'] unitsU relU startU = true)
    (hcA : Closure.closedC [cwEntries p.app] [cwEntries a'] unitsA relA startA = true)
    (huU : CwUnitsFromL unitsU p.user u' listedU (cwSubsets RU))
    (huA : CwUnitsFromL unitsA p.app a' listedA (cwSubsets RA))
    (hRU : CwReqsIn RU (p.user ++ u')) (hRA : CwReqsIn RA (p.app ++ a')) (hacts : CwActsNamed acts p)
    (hansU : CwOracleCoveredOn E listedSU listedU acts p (p.user ++ u'))
    (hansA : CwOracleCoveredOn E listedSA listedA acts p (p.app ++ a'))
    (hpa : PermitByAction p u' a') (cs : List (Call × Outcome)) (s s' : State)
    (hreach : ∃ cs0, s = (runFull p (initialState p) cs0).2) (hs : SafetyEqP s s') (hR : CwRelL relU relA p u' a' s s')
    (hcl : Client p s cs) (hside : CwSideAlongR E p u' a' s cs) :
    List.map verdictLabel (runFull (revisedP p u' a') s' cs).1 = List.map verdictLabel (runFull p s cs).1 ∧
    allB isAllowV (runFull (revisedP p u' a') s' cs).1 = true ∧
    SafetyEqP (runFull p s cs).2 (runFull (revisedP p u' a') s' cs).2 ∧
    CwRelL relU relA p u' a' (runFull p s cs).2 (runFull (revisedP p u' a') s' cs).2 :=
  cwRunFullBy _ _ p u' a' (cwClosedPerListReq unitsU unitsA relU relA startU startA p u' a' hcU hcA) hpa cs s s' hs hR
    hcl (cwStandInLAlong unitsU unitsA p u' a' E listedSU listedSA listedU listedA acts RU RA huU huA hRU hRA hacts
      hansU hansA cs s hreach hside)

/-- The same on permit-free lists (the paper's base monitor): no `PermitByAction` hypothesis. -/
theorem cwRunFullPerListOracleReqPermitFree (unitsU unitsA : List Closure.Unit')
    (relU relA : List (Closure.Usage × Closure.Usage))
    (startU startA : Closure.Usage × Closure.Usage) (p : Policy) (u' a' : List Grant)
    (E : String → Option (List Json)) (listedSU listedSA : String → List String)
    (listedU listedA : String → List (List Bool)) (acts : List String) (RU RA : List String)
    (hcU : Closure.closedC [cwEntries p.user] [cwEntries u'] unitsU relU startU = true)
    (hcA : Closure.closedC [cwEntries p.app] [cwEntries a'] unitsA relA startA = true)
    (huU : CwUnitsFromL unitsU p.user u' listedU (cwSubsets RU))
    (huA : CwUnitsFromL unitsA p.app a' listedA (cwSubsets RA))
    (hRU : CwReqsIn RU (p.user ++ u')) (hRA : CwReqsIn RA (p.app ++ a')) (hacts : CwActsNamed acts p)
    (hansU : CwOracleCoveredOn E listedSU listedU acts p (p.user ++ u'))
    (hansA : CwOracleCoveredOn E listedSA listedA acts p (p.app ++ a'))
    (h1 : ∀ g, g ∈ p.user → g.permit = false) (h2 : ∀ g, g ∈ u' → g.permit = false)
    (h3 : ∀ g, g ∈ p.app → g.permit = false) (h4 : ∀ g, g ∈ a' → g.permit = false)
    (cs : List (Call × Outcome)) (s s' : State)
    (hreach : ∃ cs0, s = (runFull p (initialState p) cs0).2) (hs : SafetyEqP s s') (hR : CwRelL relU relA p u' a' s s')
    (hcl : Client p s cs) (hside : CwSideAlongR E p u' a' s cs) :
    List.map verdictLabel (runFull (revisedP p u' a') s' cs).1 = List.map verdictLabel (runFull p s cs).1 ∧
    allB isAllowV (runFull (revisedP p u' a') s' cs).1 = true ∧
    SafetyEqP (runFull p s cs).2 (runFull (revisedP p u' a') s' cs).2 ∧
    CwRelL relU relA p u' a' (runFull p s cs).2 (runFull (revisedP p u' a') s' cs).2 :=
  cwRunFullPerListOracleReq unitsU unitsA relU relA startU startA p u' a' E listedSU listedSA listedU listedA acts RU RA
    hcU hcA huU huA hRU hRA hacts hansU hansA (permitFreeByAction p u' a' h1 h2 h3 h4) cs s s' hreach hs hR hcl hside

end AgentWarrant.Monitor.Full
