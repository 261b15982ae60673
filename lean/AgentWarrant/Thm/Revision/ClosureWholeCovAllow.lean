import AgentWarrant.Thm.Revision.ClosureWholeCovReq
/-! The closure check on the whole monitor with the oracle asked only about the actions an old
user-list Allow entry names (Agenra Sections 1 and 7.1).

A unit whose effect's action no Allow grant of the old user list names fails on the old lists
whatever the usage: no Allow entry of that list matches it, so first-fit finds none
(`cwRqOldDead`). A run of units containing it fails on the old side, so the closure property asks
nothing of it (`rqRunSideD`), and it needs no listed stand-in. The oracle must therefore answer
`covered` only for the actions of `acts`, where `acts` names every action an Allow grant of the old
user list names, unless `E` holds no resource for it (`CwActsAllowed`: an effect outside `E`
breaks the per-call condition `InE` instead). `revise` asks about the actions of `E` that an old
Allow entry of either list names, which meets this when `E`'s reading gives no resource to the
actions `E` leaves out. -/
namespace AgentWarrant.Revision.Closure
open AgentWarrant

theorem rqFitFDead (used : List Nat) (k : Nat) (e : LEntry) (b c : Bool) (rest : Option (List Nat))
    (h : (b && e.allow) = false) : rqFitF used k e b c rest = rest := by
  cases e with
  | mk al qu rq =>
    cases b with
    | false => rfl
    | true =>
      cases al with
      | false => rfl
      | true => exact Bool.noConfusion h

/-- A client's units, each dead on the old side or replaced by a listed unit with the same bits and
an agreeing requirement list: either the old side fails from every usage, or the listed units run
the same on both sides. -/
theorem rqRunSideD (O N : List (List LEntry)) (units : List Unit') : ∀ (xs : List Unit'),
    (∀ x, x ∈ xs → (∀ u, stepAll x.reqs O u x.old = none) ∨ ∃ y, y ∈ units ∧ y.old = x.old ∧ y.new = x.new ∧
      ReqAgree O x.reqs y.reqs ∧ ReqAgree N x.reqs y.reqs) →
    (∀ u, runSide true O u xs = none) ∨ ∃ ys, (∀ y, y ∈ ys → y ∈ units) ∧
      (∀ u, runSide true O u xs = runSide true O u ys) ∧ (∀ u, runSide false N u xs = runSide false N u ys)
  | [], _ => Or.inr ⟨[], fun _ h => absurd h notMemNil, fun _ => rfl, fun _ => rfl⟩
  | x :: xs, h => by
    cases h x (Mem.head _) with
    | inl hd =>
      apply Or.inl
      intro u
      rw [rqRunOld, hd u, rqRunNone]
    | inr hy =>
      have ⟨y, hy, ho, hn, ao, an⟩ := hy
      cases rqRunSideD O N units xs (fun z hz => h z (Mem.tail _ hz)) with
      | inl hdead =>
        apply Or.inl
        intro u
        rw [rqRunOld]
        cases stepAll x.reqs O u x.old with
        | none => rw [rqRunNone]
        | some v => rw [rqRunSome]; exact hdead v
      | inr hys' =>
        have ⟨ys, hys, r1, r2⟩ := hys'
        refine Or.inr ⟨y :: ys, ?_, ?_, ?_⟩
        · intro z hz
          cases hz with
          | head _ => exact hy
          | tail _ hz' => exact hys z hz'
        · intro u
          rw [rqRunOld, rqRunOld, ho, rqStepAll x.reqs y.reqs O u x.old ao]
          cases stepAll y.reqs O u x.old with
          | none => rw [rqRunNone, rqRunNone]
          | some v => rw [rqRunSome, rqRunSome]; exact r1 v
        · intro u
          rw [rqRunNew, rqRunNew, hn, rqStepAll x.reqs y.reqs N u x.new an]
          cases stepAll y.reqs N u x.new with
          | none => rw [rqRunNone, rqRunNone]
          | some v => rw [rqRunSome, rqRunSome]; exact r2 v

end AgentWarrant.Revision.Closure

namespace AgentWarrant.Monitor.Full
open Lean AgentWarrant AgentWarrant.Monitor AgentWarrant.Monitor.Run AgentWarrant.Revision

theorem cwRqFirstDead (q : List String) (used : List Nat) (s : State) (args : List (String × Json)) (e : Effect) :
    ∀ (k : Nat) (gs : List Grant), (∀ g, g ∈ gs → g.allow = true → (g.action == e.action) = false) →
    Closure.firstFitU q used k (cwEntries gs) (gs.map (fun g => grantMatches s args g e)) = none
  | _, [], _ => rfl
  | k, g :: gs, h => by
    have e1 : Closure.firstFitU q used k (cwEntries (g :: gs)) ((g :: gs).map (fun g => grantMatches s args g e)) =
        Closure.rqFitF used k (cwEntry g) (grantMatches s args g e) (Closure.reqOk q (cwEntry g).requires)
          (Closure.firstFitU q used (k + 1) (cwEntries gs) (gs.map (fun g => grantMatches s args g e))) := rfl
    have hd : (grantMatches s args g e && (cwEntry g).allow) = false := by
      show (grantMatches s args g e && g.allow) = false
      cases ha : g.allow with
      | false => cases grantMatches s args g e <;> rfl
      | true =>
        have hne := h g (Mem.head _) ha
        show ((g.action == e.action && resMatches s e.res g.pat && keysOk g args && g.preds.all (predHolds args)) &&
          true) = false
        rw [hne]
        rfl
    rw [e1, Closure.rqFitFDead used k (cwEntry g) _ _ _ hd]
    exact cwRqFirstDead q used s args e (k + 1) gs (fun x hx => h x (Mem.tail _ hx))

/-- A unit whose effect's action no Allow grant of the old user list names fails on the old lists
from every usage. -/
theorem cwRqOldDead (q : List String) (s : State) (args : List (String × Json)) (e : Effect) (user app : List Grant)
    (h : ∀ g, g ∈ user → g.allow = true → (g.action == e.action) = false) (u : Closure.Usage) :
    Closure.stepAll q (cwLists user app) u
      [user.map (fun g => grantMatches s args g e), app.map (fun g => grantMatches s args g e)] = none := by
  cases u with
  | nil => exact Closure.rqStepCN q _ _ _
  | cons u1 us =>
    show Closure.stepAll q (cwEntries user :: [cwEntries app]) (u1 :: us)
      (user.map (fun g => grantMatches s args g e) :: [app.map (fun g => grantMatches s args g e)]) = none
    rw [Closure.rqStepUnfold, Closure.rqFitUUnfold, cwRqFirstDead q u1 s args e 0 user h]
    cases Closure.denyHit (cwEntries user) (user.map (fun g => grantMatches s args g e)) <;> rfl

/-- A call's units each dead on the old side or with a listed stand-in. -/
abbrev CwStandInD (units : List Closure.Unit') (p : Policy) (u' a' : List Grant) (s : State)
    (args : List (String × Json)) (es : List Effect) : Prop :=
  ∀ x, x ∈ cwUnits p u' a' s args es → (∀ u, Closure.stepAll x.reqs (cwLists p.user p.app) u x.old = none) ∨
    ∃ y, y ∈ units ∧ y.old = x.old ∧ y.new = x.new ∧
      Closure.ReqAgree (cwLists p.user p.app) x.reqs y.reqs ∧ Closure.ReqAgree (cwLists u' a') x.reqs y.reqs

theorem cwClosedJointReqD (units : List Closure.Unit') (rel : List (Closure.Usage × Closure.Usage))
    (start : Closure.Usage × Closure.Usage) (p : Policy) (u' a' : List Grant)
    (hc : Closure.closedC (cwLists p.user p.app) (cwLists u' a') units rel start = true) :
    CwClosed (fun ou oa nu na => Closure.memR rel ([ou, oa], [nu, na]) = true) (CwStandInD units p u' a') p u' a' := by
  intro s args es hcov ou oa nu na ou' oa' hq lnu lna hrun
  cases Closure.rqRunSideD _ _ units (cwUnits p u' a' s args es) hcov with
  | inl hdead =>
    rw [hdead] at hrun
    exact Option.noConfusion hrun
  | inr hys' =>
    have ⟨ys, hys, r1, r2⟩ := hys'
    rw [r1] at hrun
    have ⟨nf, hnf, hrel⟩ := Closure.closedPreserves _ _ units rel start hc ys ([ou, oa], [nu, na]) [ou', oa'] hq hys hrun
    rw [← r2] at hnf
    have ⟨_, _, nu', na', _, _, enf, _, _, _⟩ := cwRunNew p u' a' s args es _ nu na nf lnu lna hnf
    rw [enf] at hnf hrel
    exact ⟨nu', na', hnf, hrel⟩

/-- Effect unit `i` of a call whose effect `e` has its vector listed, with any requirement set of
`Qs`, is among the units. -/
theorem cwStandInListed (units : List Closure.Unit') (p : Policy) (u' a' : List Grant)
    (listed : String → List (List Bool)) (Qs : List (List String)) (hu : CwUnitsFrom units p u' a' listed Qs)
    (s : State) (args : List (String × Json)) (es : List Effect) (e : Effect) (j i : Nat) (hij : i = 0 + j)
    (hf : ∀ f : Effect → Bool, hit (List.map f es) j = f e)
    (hvec : anyB (fun u => Decidable.decide (u = (cwAll p u' a').map (fun g => grantMatches s args g e)))
      (listed e.action) = true) (q : List String) (hq : q ∈ Qs) :
    (⟨(cwUnit p u' a' s args es i).old, (cwUnit p u' a' s args es i).new, q⟩ : Closure.Unit') ∈ units := by
  have hj : i = j := by rw [hij, Nat.zero_add]
  rw [hj]
  have e1 : (cwAll p u' a').map (fun g => grantMatches s args g e) =
      p.user.map (fun g => grantMatches s args g e) ++ p.app.map (fun g => grantMatches s args g e) ++
        u'.map (fun g => grantMatches s args g e) ++ a'.map (fun g => grantMatches s args g e) := by
    show List.map _ (p.user ++ p.app ++ u' ++ a') = _
    rw [mapAppend, mapAppend, mapAppend]
  rw [e1] at hvec
  show (⟨[cwBits s args es j p.user, cwBits s args es j p.app], [cwBits s args es j u', cwBits s args es j a'],
    q⟩ : Closure.Unit') ∈ units
  rw [cwCovBits s args es j e hf p.user, cwCovBits s args es j e hf p.app, cwCovBits s args es j e hf u',
    cwCovBits s args es j e hf a']
  exact hu e.action _ _ _ _ _ (lengthMap _ _) (lengthMap _ _) (lengthMap _ _) (lengthMap _ _) hvec hq

/-- Effect unit `i` of a call: listed when its effect's action is asked about, else dead on the old
side. -/
theorem cwStandInAtD (units : List Closure.Unit') (p : Policy) (u' a' : List Grant)
    (listed : String → List (List Bool)) (Qs : List (List String)) (hu : CwUnitsFrom units p u' a' listed Qs)
    (hQs : CwQsComplete Qs p u' a') (s : State) (args : List (String × Json)) (es : List Effect)
    (hv : ∀ e, e ∈ es → (∀ g, g ∈ p.user → g.allow = true → (g.action == e.action) = false) ∨
      anyB (fun u => Decidable.decide (u = (cwAll p u' a').map (fun g => grantMatches s args g e))) (listed e.action) = true)
    (i : Nat) (hi : i ∈ range 0 (List.length es)) :
    (∀ u, Closure.stepAll (cwUnit p u' a' s args es i).reqs (cwLists p.user p.app) u (cwUnit p u' a' s args es i).old = none) ∨
    ∃ y, y ∈ units ∧ y.old = (cwUnit p u' a' s args es i).old ∧ y.new = (cwUnit p u' a' s args es i).new ∧
      Closure.ReqAgree (cwLists p.user p.app) (cwUnit p u' a' s args es i).reqs y.reqs ∧
      Closure.ReqAgree (cwLists u' a') (cwUnit p u' a' s args es i).reqs y.reqs := by
  have ⟨j, e, hij, he, hf⟩ := cwCovRangeHit es 0 i hi
  cases hv e he with
  | inl hd =>
    apply Or.inl
    intro u
    have hj : i = j := by rw [hij, Nat.zero_add]
    rw [hj]
    show Closure.stepAll s.satisfied (cwLists p.user p.app) u [cwBits s args es j p.user, cwBits s args es j p.app] = none
    rw [cwCovBits s args es j e hf p.user, cwCovBits s args es j e hf p.app]
    exact cwRqOldDead s.satisfied s args e p.user p.app hd u
  | inr hl =>
    apply Or.inr
    have ⟨q, hq, ao, an⟩ := hQs s.satisfied
    exact ⟨⟨(cwUnit p u' a' s args es i).old, (cwUnit p u' a' s args es i).new, q⟩,
      cwStandInListed units p u' a' listed Qs hu s args es e j i hij hf hl q hq, rfl, rfl, ao, an⟩

/-- `acts` names every action an Allow grant of the old user list names, unless `E` holds no resource
for it. -/
def CwActsAllowed (acts : List String) (E : String → Option (List Json)) (p : Policy) : Prop :=
  ∀ g, g ∈ p.user → g.allow = true → g.action ∈ acts ∨ E g.action = some []

/-- An effect meeting `InE` has its action among `acts`, or no Allow grant of the old user list
names its action. -/
theorem cwActsOrDead (E : String → Option (List Json)) (acts : List String) (p : Policy)
    (hacts : CwActsAllowed acts E p) (e : Effect) (hE : ArgCover.InE (E e.action) e) :
    e.action ∈ acts ∨ ∀ g, g ∈ p.user → g.allow = true → (g.action == e.action) = false := by
  cases hm : Closure.memS acts e.action with
  | true =>
    have ⟨x, hx, hxe⟩ := anyBElim hm
    have ex : x = e.action := ofDecideEqTrue hxe
    rw [ex] at hx
    exact Or.inl hx
  | false =>
    apply Or.inr
    intro g hg ha
    cases hge : (g.action == e.action) with
    | false => rfl
    | true =>
      have ee : g.action = e.action := ofDecideEqTrue hge
      cases hacts g hg ha with
      | inl hin =>
        rw [ee] at hin
        have hm' : Closure.memS acts e.action = true := anyBIntro hin (strBeqSelf e.action)
        rw [hm] at hm'
        exact Bool.noConfusion hm'
      | inr hE' =>
        rw [ee] at hE'
        exact Bool.noConfusion (hE [] hE')

/-- Each effect of a prepared call on a reachable state meeting the per-call conditions: its action
named by no Allow grant of the old user list, or its match vector listed. -/
theorem cwVecOrDead (E : String → Option (List Json)) (listedS : String → List String)
    (listed : String → List (List Bool)) (acts : List String) (p : Policy) (u' a' : List Grant)
    (hacts : CwActsAllowed acts E p) (hans : CwOracleCovered E listedS listed acts p u' a') (s : State)
    (hreach : ∃ cs, s = (runFull p (initialState p) cs).2) (c : Call) (t : Tool) (es : List Effect)
    (hprep : prepare p s c = Except.ok (t, es)) (hside : CwOracleSideR E p u' a' c.args es) :
    ∀ e, e ∈ es → (∀ g, g ∈ p.user → g.allow = true → (g.action == e.action) = false) ∨
      anyB (fun u => Decidable.decide (u = (cwAll p u' a').map (fun g => grantMatches s c.args g e))) (listed e.action) = true := by
  intro e he
  cases cwActsOrDead E acts p hacts e (hside.2 e he).1 with
  | inr hd => exact Or.inl hd
  | inl hx =>
    exact Or.inr (ArgCover.toolChkOracleAnswerCover p e.action (cwAll p u' a') (E e.action) (listedS e.action)
      (listed e.action) (hans e.action hx) s hreach c t es hprep e he rfl (hside.2 e he).1 hside.1 (hside.2 e he).2)

theorem cwStandInOneCallD (units : List Closure.Unit') (p : Policy) (u' a' : List Grant)
    (listed : String → List (List Bool)) (Qs : List (List String)) (hu : CwUnitsFrom units p u' a' listed Qs)
    (hQs : CwQsComplete Qs p u' a') (E : String → Option (List Json)) (listedS : String → List String)
    (acts : List String) (hacts : CwActsAllowed acts E p) (hans : CwOracleCovered E listedS listed acts p u' a')
    (s : State) (hreach : ∃ cs, s = (runFull p (initialState p) cs).2) (c : Call) (t : Tool) (es : List Effect)
    (hprep : prepare p s c = Except.ok (t, es)) (hside : CwOracleSideR E p u' a' c.args es) :
    CwStandInD units p u' a' s c.args es := by
  intro x hx
  have ⟨i, hi, hxi⟩ := memMapInv _ hx
  rw [← hxi]
  exact cwStandInAtD units p u' a' listed Qs hu hQs s c.args es
    (cwVecOrDead E listedS listed acts p u' a' hacts hans s hreach c t es hprep hside) i hi

theorem cwStandInDAlong (units : List Closure.Unit') (p : Policy) (u' a' : List Grant)
    (listed : String → List (List Bool)) (Qs : List (List String)) (hu : CwUnitsFrom units p u' a' listed Qs)
    (hQs : CwQsComplete Qs p u' a') (E : String → Option (List Json)) (listedS : String → List String)
    (acts : List String) (hacts : CwActsAllowed acts E p) (hans : CwOracleCovered E listedS listed acts p u' a') :
    ∀ (cs : List (Call × Outcome)) (s : State), (∃ cs0, s = (runFull p (initialState p) cs0).2) →
    CwSideAlongR E p u' a' s cs → CwCoveredBy (CwStandInD units p u' a') p s cs
  | [], _, _, _ => trivial
  | (c, o) :: cs, s, hr, h => by
    have h' : (∀ t es, prepare p s c = Except.ok (t, es) → CwOracleSideR E p u' a' c.args es) ∧
        CwSideAlongR E p u' a' (stepFull p s c o).2 cs := h
    exact ⟨fun t es hp => cwStandInOneCallD units p u' a' listed Qs hu hQs E listedS acts hacts hans s hr c t es hp
        (h'.1 t es hp),
      cwStandInDAlong units p u' a' listed Qs hu hQs E listedS acts hacts hans cs _ (cwReachStep p s c o hr) h'.2⟩

/-- `cwRunFullOracleReq` with the oracle asked only about the actions an old user-list Allow grant
names (`CwActsAllowed`) instead of every action the tools declare. -/
theorem cwRunFullOracleAllow (units : List Closure.Unit') (rel : List (Closure.Usage × Closure.Usage))
    (start : Closure.Usage × Closure.Usage) (p : Policy) (u' a' : List Grant)
    (E : String → Option (List Json)) (listedS : String → List String) (listed : String → List (List Bool))
    (acts : List String) (R : List String)
    (hc : Closure.closedC (cwLists p.user p.app) (cwLists u' a') units rel start = true)
    (hu : CwUnitsFrom units p u' a' listed (cwSubsets R)) (hR : CwReqsIn R (cwAll p u' a'))
    (hacts : CwActsAllowed acts E p) (hans : CwOracleCovered E listedS listed acts p u' a')
    (hpa : PermitByAction p u' a') (cs : List (Call × Outcome)) (s s' : State)
    (hreach : ∃ cs0, s = (runFull p (initialState p) cs0).2) (hs : SafetyEqP s s') (hrel : CwRel rel p u' a' s s')
    (hcl : Client p s cs) (hside : CwSideAlongR E p u' a' s cs) :
    List.map verdictLabel (runFull (revisedP p u' a') s' cs).1 = List.map verdictLabel (runFull p s cs).1 ∧
    allB isAllowV (runFull (revisedP p u' a') s' cs).1 = true ∧
    SafetyEqP (runFull p s cs).2 (runFull (revisedP p u' a') s' cs).2 ∧
    CwRel rel p u' a' (runFull p s cs).2 (runFull (revisedP p u' a') s' cs).2 :=
  cwRunFullBy _ _ p u' a' (cwClosedJointReqD units rel start p u' a' hc) hpa cs s s' hs hrel hcl
    (cwStandInDAlong units p u' a' listed (cwSubsets R) hu (cwSubsetsComplete R p u' a' hR) E listedS acts hacts hans
      cs s hreach hside)

/-- The same on permit-free lists (the paper's base monitor): no `PermitByAction` hypothesis. -/
theorem cwRunFullOracleAllowPermitFree (units : List Closure.Unit') (rel : List (Closure.Usage × Closure.Usage))
    (start : Closure.Usage × Closure.Usage) (p : Policy) (u' a' : List Grant)
    (E : String → Option (List Json)) (listedS : String → List String) (listed : String → List (List Bool))
    (acts : List String) (R : List String)
    (hc : Closure.closedC (cwLists p.user p.app) (cwLists u' a') units rel start = true)
    (hu : CwUnitsFrom units p u' a' listed (cwSubsets R)) (hR : CwReqsIn R (cwAll p u' a'))
    (hacts : CwActsAllowed acts E p) (hans : CwOracleCovered E listedS listed acts p u' a')
    (h1 : ∀ g, g ∈ p.user → g.permit = false) (h2 : ∀ g, g ∈ u' → g.permit = false)
    (h3 : ∀ g, g ∈ p.app → g.permit = false) (h4 : ∀ g, g ∈ a' → g.permit = false)
    (cs : List (Call × Outcome)) (s s' : State)
    (hreach : ∃ cs0, s = (runFull p (initialState p) cs0).2) (hs : SafetyEqP s s') (hrel : CwRel rel p u' a' s s')
    (hcl : Client p s cs) (hside : CwSideAlongR E p u' a' s cs) :
    List.map verdictLabel (runFull (revisedP p u' a') s' cs).1 = List.map verdictLabel (runFull p s cs).1 ∧
    allB isAllowV (runFull (revisedP p u' a') s' cs).1 = true ∧
    SafetyEqP (runFull p s cs).2 (runFull (revisedP p u' a') s' cs).2 ∧
    CwRel rel p u' a' (runFull p s cs).2 (runFull (revisedP p u' a') s' cs).2 :=
  cwRunFullOracleAllow units rel start p u' a' E listedS listed acts R hc hu hR hacts hans
    (permitFreeByAction p u' a' h1 h2 h3 h4) cs s s' hreach hs hrel hcl hside

end AgentWarrant.Monitor.Full
