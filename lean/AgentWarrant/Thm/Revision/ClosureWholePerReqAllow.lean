import AgentWarrant.Thm.Revision.ClosureWholePerReq
import AgentWarrant.Thm.Revision.ClosureWholeCovAllow
/-! The per-list closure theorem with the oracle asked only about the actions an old user-list Allow
entry names (Agenra Sections 1 and 7.1): the per-list form of `cwRunFullOracleAllow`.

A call's effect unit whose action no Allow grant of the old user list names fails on the old user
list from every usage (`cwRqOldDeadL`), so the user certificate's old run of the call fails, and with
it the joint old run the two per-list runs project (`cwSplitOld`): the closure property asks nothing
of such a call. Every other effect's action is among `acts` (`cwActsOrDead`), so both pairs' oracles
list its vectors. The step from the old run's success to "no unit is dead" is `rqRunLive`. -/
namespace AgentWarrant.Revision.Closure
open AgentWarrant

/-- A run of units that succeeds on the old side has no unit failing there from every usage. -/
theorem rqRunLive (O : List (List LEntry)) : ∀ (xs : List Unit') (u v : Usage), runSide true O u xs = some v →
    ∀ x, x ∈ xs → (∀ w, stepAll x.reqs O w x.old = none) → False
  | [], _, _, _, x, hx, _ => absurd hx notMemNil
  | y :: ys, u, v, h, x, hx, hd => by
    rw [rqRunOld] at h
    cases hs : stepAll y.reqs O u y.old with
    | none => rw [hs, rqRunNone] at h; exact Option.noConfusion h
    | some w =>
      rw [hs, rqRunSome] at h
      cases hx with
      | head _ => rw [hd u] at hs; exact Option.noConfusion hs
      | tail _ hx' => exact rqRunLive O ys w v h x hx' hd

end AgentWarrant.Revision.Closure

namespace AgentWarrant.Monitor.Full
open Lean AgentWarrant AgentWarrant.Monitor AgentWarrant.Monitor.Run AgentWarrant.Revision

/-- The per-list form of `cwRqOldDead`: on the old user list alone. -/
theorem cwRqOldDeadL (q : List String) (s : State) (args : List (String × Json)) (e : Effect) (user : List Grant)
    (h : ∀ g, g ∈ user → g.allow = true → (g.action == e.action) = false) (u : Closure.Usage) :
    Closure.stepAll q [cwEntries user] u [user.map (fun g => grantMatches s args g e)] = none := by
  cases u with
  | nil => exact Closure.rqStepCN q _ _ _
  | cons u1 us =>
    rw [Closure.rqStepUnfold, Closure.rqFitUUnfold, cwRqFirstDead q u1 s args e 0 user h]
    cases Closure.denyHit (cwEntries user) (user.map (fun g => grantMatches s args g e)) <;> rfl

/-- A per-list unit's stand-in: the same bits, an agreeing requirement list. -/
abbrev CwSI (units : List Closure.Unit') (gs gs' : List Grant) (x : Closure.Unit') : Prop :=
  ∃ y, y ∈ units ∧ y.old = x.old ∧ y.new = x.new ∧
    Closure.ReqAgree [cwEntries gs] x.reqs y.reqs ∧ Closure.ReqAgree [cwEntries gs'] x.reqs y.reqs

/-- Each effect unit of a call: dead on the old user list, or with stand-ins in both certificates. -/
abbrev CwStandInDL (unitsU unitsA : List Closure.Unit') (p : Policy) (u' a' : List Grant) (s : State)
    (args : List (String × Json)) (es : List Effect) : Prop :=
  ∀ i, i ∈ range 0 (List.length es) →
    (∀ w, Closure.stepAll s.satisfied [cwEntries p.user] w [cwBits s args es i p.user] = none) ∨
    (CwSI unitsU p.user u' (cwUnitL p.user u' s args es i) ∧ CwSI unitsA p.app a' (cwUnitL p.app a' s args es i))

theorem cwClosedPerListReqD (unitsU unitsA : List Closure.Unit') (relU relA : List (Closure.Usage × Closure.Usage))
    (startU startA : Closure.Usage × Closure.Usage) (p : Policy) (u' a' : List Grant)
    (hcU : Closure.closedC [cwEntries p.user] [cwEntries u'] unitsU relU startU = true)
    (hcA : Closure.closedC [cwEntries p.app] [cwEntries a'] unitsA relA startA = true) :
    CwClosed (fun ou oa nu na => Closure.memR relU ([ou], [nu]) = true ∧ Closure.memR relA ([oa], [na]) = true)
      (CwStandInDL unitsU unitsA p u' a') p u' a' := by
  intro s args es hcov ou oa nu na ou' oa' hq lnu lna hrun
  have ⟨r1, _⟩ := cwSplitOld p u' a' s args es _ _ _ ou oa ou' oa' hrun
  have live : ∀ i, i ∈ range 0 (List.length es) →
      CwSI unitsU p.user u' (cwUnitL p.user u' s args es i) ∧ CwSI unitsA p.app a' (cwUnitL p.app a' s args es i) :=
    fun i hi => match hcov i hi with
      | Or.inr h => h
      | Or.inl hd => False.elim (Closure.rqRunLive [cwEntries p.user] (cwUnitsL p.user u' s args es) [ou] [ou'] r1
          (cwUnitL p.user u' s args es i) (memMapOf _ hi) hd)
  have hU : CwStandInL unitsU p.user u' s args es := by
    intro x hx
    have ⟨i, hi, hxi⟩ := memMapInv _ hx
    rw [← hxi]
    exact (live i hi).1
  have hA : CwStandInL unitsA p.app a' s args es := by
    intro x hx
    have ⟨i, hi, hxi⟩ := memMapInv _ hx
    rw [← hxi]
    exact (live i hi).2
  exact cwClosedPerListReq unitsU unitsA relU relA startU startA p u' a' hcU hcA s args es ⟨hU, hA⟩ ou oa nu na ou' oa'
    hq lnu lna hrun

/-- One prepared call on a reachable state: each effect unit dead on the old user list or with
stand-ins in both certificates. -/
theorem cwStandInOneCallDL (unitsU unitsA : List Closure.Unit') (p : Policy) (u' a' : List Grant)
    (E : String → Option (List Json)) (listedSU listedSA : String → List String)
    (listedU listedA : String → List (List Bool)) (acts : List String) (QU QA : List (List String))
    (huU : CwUnitsFromL unitsU p.user u' listedU QU) (huA : CwUnitsFromL unitsA p.app a' listedA QA)
    (hQU : CwQsCompleteL QU p.user u') (hQA : CwQsCompleteL QA p.app a') (hacts : CwActsAllowed acts E p)
    (hansU : CwOracleCoveredOn E listedSU listedU acts p (p.user ++ u'))
    (hansA : CwOracleCoveredOn E listedSA listedA acts p (p.app ++ a'))
    (s : State) (hreach : ∃ cs, s = (runFull p (initialState p) cs).2) (c : Call) (t : Tool) (es : List Effect)
    (hprep : prepare p s c = Except.ok (t, es)) (hside : CwOracleSideR E p u' a' c.args es) :
    CwStandInDL unitsU unitsA p u' a' s c.args es := by
  intro i hi
  have ⟨j, e, hij, he, hf⟩ := cwCovRangeHit es 0 i hi
  have hj : i = j := by rw [hij, Nat.zero_add]
  cases cwActsOrDead E acts p hacts e (hside.2 e he).1 with
  | inr hd =>
    apply Or.inl
    intro w
    rw [hj]
    show Closure.stepAll s.satisfied [cwEntries p.user] w [cwBits s c.args es j p.user] = none
    rw [cwCovBits s c.args es j e hf p.user]
    exact cwRqOldDeadL s.satisfied s c.args e p.user hd w
  | inl hin =>
    apply Or.inr
    have hJ : ∀ (G : List Grant), (∀ g, g ∈ G → g ∈ cwAll p u' a') →
        (allB ArgCover.grantOk (ArgCover.ofAction e.action G) = false → ArgCover.JsonPathsAdmitted e.action G c.args) :=
      fun G hsub hb g hg => (hside.2 e he).2 (cwOkSub _ _ hsub e.action hb) g (hsub g hg)
    have vU := ArgCover.toolChkOracleAnswerCover p e.action (p.user ++ u') (E e.action) (listedSU e.action)
      (listedU e.action) (hansU e.action hin) s hreach c t es hprep e he rfl (hside.2 e he).1 hside.1
      (hJ _ (cwUserSub p u' a'))
    have vA := ArgCover.toolChkOracleAnswerCover p e.action (p.app ++ a') (E e.action) (listedSA e.action)
      (listedA e.action) (hansA e.action hin) s hreach c t es hprep e he rfl (hside.2 e he).1 hside.1
      (hJ _ (cwAppSub p u' a'))
    have ⟨qU, hqU, aoU, anU⟩ := hQU s.satisfied
    have ⟨qA, hqA, aoA, anA⟩ := hQA s.satisfied
    exact ⟨⟨⟨[cwBits s c.args es i p.user], [cwBits s c.args es i u'], qU⟩,
        cwUnitLListed unitsU p.user u' listedU QU huU s c.args es e j i hij hf vU qU hqU, rfl, rfl, aoU, anU⟩,
      ⟨⟨[cwBits s c.args es i p.app], [cwBits s c.args es i a'], qA⟩,
        cwUnitLListed unitsA p.app a' listedA QA huA s c.args es e j i hij hf vA qA hqA, rfl, rfl, aoA, anA⟩⟩

/-- `cwRunFullPerListOracleReq` with the oracle asked only about the actions an old user-list Allow
grant names (`CwActsAllowed`) instead of every action the tools declare. -/
theorem cwRunFullPerListOracleAllow (unitsU unitsA : List Closure.Unit')
    (relU relA : List (Closure.Usage × Closure.Usage))
    (startU startA : Closure.Usage × Closure.Usage) (p : Policy) (u' a' : List Grant)
    (E : String → Option (List Json)) (listedSU listedSA : String → List String)
    (listedU listedA : String → List (List Bool)) (acts : List String) (RU RA : List String)
    (hcU : Closure.closedC [cwEntries p.user] [cwEntries u'] unitsU relU startU = true)
    (hcA : Closure.closedC [cwEntries p.app] [cwEntries a'] unitsA relA startA = true)
    (huU : CwUnitsFromL unitsU p.user u' listedU (cwSubsets RU))
    (huA : CwUnitsFromL unitsA p.app a' listedA (cwSubsets RA))
    (hRU : CwReqsIn RU (p.user ++ u')) (hRA : CwReqsIn RA (p.app ++ a')) (hacts : CwActsAllowed acts E p)
    (hansU : CwOracleCoveredOn E listedSU listedU acts p (p.user ++ u'))
    (hansA : CwOracleCoveredOn E listedSA listedA acts p (p.app ++ a'))
    (hpa : PermitByAction p u' a')
    (cs : List (Call × Outcome)) (s s' : State)
    (hreach : ∃ cs0, s = (runFull p (initialState p) cs0).2) (hs : SafetyEqP s s') (hR : CwRelL relU relA p u' a' s s')
    (hcl : Client p s cs) (hside : CwSideAlongR E p u' a' s cs) :
    List.map verdictLabel (runFull (revisedP p u' a') s' cs).1 = List.map verdictLabel (runFull p s cs).1 ∧
    allB isAllowV (runFull (revisedP p u' a') s' cs).1 = true ∧
    SafetyEqP (runFull p s cs).2 (runFull (revisedP p u' a') s' cs).2 ∧
    CwRelL relU relA p u' a' (runFull p s cs).2 (runFull (revisedP p u' a') s' cs).2 :=
  cwRunFullBy _ _ p u' a' (cwClosedPerListReqD unitsU unitsA relU relA startU startA p u' a' hcU hcA) hpa cs s s' hs hR
    hcl (cwAlongReach (fun s c => ∀ t es, prepare p s c = Except.ok (t, es) → CwOracleSideR E p u' a' c.args es)
      (fun s c => ∀ t es, prepare p s c = Except.ok (t, es) → CwStandInDL unitsU unitsA p u' a' s c.args es) p
      (fun s c hr h t es hp => cwStandInOneCallDL unitsU unitsA p u' a' E listedSU listedSA listedU listedA acts _ _
        huU huA (cwSubsetsCompleteL RU p.user u' hRU) (cwSubsetsCompleteL RA p.app a' hRA) hacts hansU hansA s hr c t
        es hp (h t es hp))
      cs s hreach hside)

/-- The same on permit-free lists (the paper's base monitor): no `PermitByAction` hypothesis. -/
theorem cwRunFullPerListOracleAllowPermitFree (unitsU unitsA : List Closure.Unit')
    (relU relA : List (Closure.Usage × Closure.Usage))
    (startU startA : Closure.Usage × Closure.Usage) (p : Policy) (u' a' : List Grant)
    (E : String → Option (List Json)) (listedSU listedSA : String → List String)
    (listedU listedA : String → List (List Bool)) (acts : List String) (RU RA : List String)
    (hcU : Closure.closedC [cwEntries p.user] [cwEntries u'] unitsU relU startU = true)
    (hcA : Closure.closedC [cwEntries p.app] [cwEntries a'] unitsA relA startA = true)
    (huU : CwUnitsFromL unitsU p.user u' listedU (cwSubsets RU))
    (huA : CwUnitsFromL unitsA p.app a' listedA (cwSubsets RA))
    (hRU : CwReqsIn RU (p.user ++ u')) (hRA : CwReqsIn RA (p.app ++ a')) (hacts : CwActsAllowed acts E p)
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
  cwRunFullPerListOracleAllow unitsU unitsA relU relA startU startA p u' a' E listedSU listedSA listedU listedA acts RU
    RA hcU hcA huU huA hRU hRA hacts hansU hansA (permitFreeByAction p u' a' h1 h2 h3 h4) cs s s' hreach hs hR hcl hside

end AgentWarrant.Monitor.Full
