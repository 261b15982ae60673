import AgentWarrant.Thm.Revision.ClosureWholeCovOracle
/-! The closure check on the whole monitor with no hypothesis on the states' requirement lists and
no hypothesis that each prepared effect's action is among the oracle's (Agenra Sections 1 and 7.1).

The closure check reads a unit's requirement list only through `reqOk` on the requirements the
lists' entries ask for (`rqStepAll`, proved per operation of the check: first-fit, one list, all
lists, a run of units), so a call's unit may be replaced by a listed unit with the same match bits
and a requirement list that agrees with the state's on those requirements (`ReqAgree`). The subsets
of a list `R` naming every requirement of the four lists (`cwSubsets R`, each subset in `R`'s
order) hold, for every requirement list the monitor may keep, in whatever order it satisfied them,
one that agrees with it: the elements of `R` it contains (`cwSubsetsComplete`). The Python checker
writes one unit per vector and per subset of the sorted requirement names, each subset sorted:
`cwSubsets R` with `R` those names sorted.

An effect the monitor prepares comes from a declaration of one of the policy's tools
(`prepareParts`, `effectsOfFrom`), so `e.action ∈ acts` follows when `acts` names every action the
policy's tools declare (`CwActsNamed`), and the per-call conditions drop that conjunct
(`CwOracleSideR`).

Choices where the source is silent: `R` is any list naming the four lists' requirements (duplicates
and extra names only add units); the order of `Qs` and of `acts` does not matter. -/
namespace AgentWarrant.Revision.Closure
open AgentWarrant

/-- Two requirement lists agree on every requirement an entry of the lists asks for. -/
def ReqAgree (L : List (List LEntry)) (q q' : List String) : Prop :=
  ∀ es, es ∈ L → ∀ e, e ∈ es → reqOk q e.requires = reqOk q' e.requires

/-- First-fit's step at one entry, with the requirement test `c` and the rest of the search `rest`
as arguments, so that rewriting either leaves the step alone. -/
def rqFitF (used : List Nat) (k : Nat) (e : LEntry) (b c : Bool) (rest : Option (List Nat)) : Option (List Nat) :=
  match b && e.allow && c with
  | false => rest
  | true => match e.quota with
    | none => some used
    | some m => match Nat.ble (getN used k + 1) m with
      | true => some (incAt used k)
      | false => rest

theorem rqFitUnfold (q : List String) (used : List Nat) (k : Nat) (e : LEntry) (es : List LEntry) (b : Bool)
    (bs : List Bool) :
    firstFitU q used k (e :: es) (b :: bs) = rqFitF used k e b (reqOk q e.requires) (firstFitU q used (k + 1) es bs) :=
  rfl

theorem rqFirstFitU (q q' : List String) (used : List Nat) : ∀ (k : Nat) (es : List LEntry) (bs : List Bool),
    (∀ e, e ∈ es → reqOk q e.requires = reqOk q' e.requires) → firstFitU q used k es bs = firstFitU q' used k es bs
  | _, [], _, _ => rfl
  | _, _ :: _, [], _ => rfl
  | k, e :: es, b :: bs, h => by
    rw [rqFitUnfold, rqFitUnfold, h e (Mem.head _),
      rqFirstFitU q q' used (k + 1) es bs (fun x hx => h x (Mem.tail _ hx))]

def rqFitUF (d : Bool) (r : Option (List Nat)) : Option (List Nat) :=
  match d with
  | true => none
  | false => r

theorem rqFitUUnfold (es : List LEntry) (used : List Nat) (bits : List Bool) (q : List String) :
    fitU es used bits q = rqFitUF (denyHit es bits) (firstFitU q used 0 es bits) := rfl

def rqStepF (a : Option (List Nat)) (r : Option Usage) : Option Usage :=
  match a, r with
  | some u', some us' => some (u' :: us')
  | _, _ => none

theorem rqStepUnfold (q : List String) (es : List LEntry) (ls : List (List LEntry)) (u : List Nat) (us : Usage)
    (b : List Bool) (bs : Bits) :
    stepAll q (es :: ls) (u :: us) (b :: bs) = rqStepF (fitU es u b q) (stepAll q ls us bs) := rfl

-- The shapes `stepAll` refuses, each against its value: comparing the two sides directly sends the
-- elaborator's unifier into `q` and `q'` and takes it tens of seconds.
theorem rqStepNNN (q : List String) : stepAll q [] [] [] = some [] := rfl
theorem rqStepNNC (q : List String) (b : List Bool) (bs : Bits) : stepAll q [] [] (b :: bs) = none := rfl
theorem rqStepNC (q : List String) (u : List Nat) (us : Usage) (bs : Bits) : stepAll q [] (u :: us) bs = none := rfl
theorem rqStepCN (q : List String) (es : List LEntry) (ls : List (List LEntry)) (bs : Bits) :
    stepAll q (es :: ls) [] bs = none := rfl
theorem rqStepCCN (q : List String) (es : List LEntry) (ls : List (List LEntry)) (u : List Nat) (us : Usage) :
    stepAll q (es :: ls) (u :: us) [] = none := rfl

/-- One unit on all lists: agreeing requirement lists step alike. -/
theorem rqStepAll (q q' : List String) : ∀ (L : List (List LEntry)) (us : Usage) (bs : Bits),
    ReqAgree L q q' → stepAll q L us bs = stepAll q' L us bs
  | [], [], [], _ => by rw [rqStepNNN, rqStepNNN]
  | [], [], _ :: _, _ => by rw [rqStepNNC, rqStepNNC]
  | [], _ :: _, _, _ => by rw [rqStepNC, rqStepNC]
  | _ :: _, [], _, _ => by rw [rqStepCN, rqStepCN]
  | _ :: _, _ :: _, [], _ => by rw [rqStepCCN, rqStepCCN]
  | es :: L, u :: us, b :: bs, h => by
    rw [rqStepUnfold, rqStepUnfold, rqFitUUnfold, rqFitUUnfold, rqFirstFitU q q' u 0 es b (h es (Mem.head _)),
      rqStepAll q q' L us bs (fun es' hes => h es' (Mem.tail _ hes))]

def rqRunF (side : Bool) (L : List (List LEntry)) (r : Option Usage) (xs : List Unit') : Option Usage :=
  match r with
  | none => none
  | some u' => runSide side L u' xs

theorem rqRunOld (L : List (List LEntry)) (u : Usage) (x : Unit') (xs : List Unit') :
    runSide true L u (x :: xs) = rqRunF true L (stepAll x.reqs L u x.old) xs := rfl

theorem rqRunNew (L : List (List LEntry)) (u : Usage) (x : Unit') (xs : List Unit') :
    runSide false L u (x :: xs) = rqRunF false L (stepAll x.reqs L u x.new) xs := rfl

theorem rqRunNone (side : Bool) (L : List (List LEntry)) (xs : List Unit') : rqRunF side L none xs = none := rfl

theorem rqRunSome (side : Bool) (L : List (List LEntry)) (u : Usage) (xs : List Unit') :
    rqRunF side L (some u) xs = runSide side L u xs := rfl

/-- A client's units, each replaced by a listed unit with the same bits and an agreeing requirement
list, run the same on both sides. -/
theorem rqRunSide (O N : List (List LEntry)) (units : List Unit') : ∀ (xs : List Unit'),
    (∀ x, x ∈ xs → ∃ y, y ∈ units ∧ y.old = x.old ∧ y.new = x.new ∧ ReqAgree O x.reqs y.reqs ∧ ReqAgree N x.reqs y.reqs) →
    ∃ ys, (∀ y, y ∈ ys → y ∈ units) ∧ (∀ u, runSide true O u xs = runSide true O u ys) ∧
      (∀ u, runSide false N u xs = runSide false N u ys)
  | [], _ => ⟨[], fun _ h => absurd h notMemNil, fun _ => rfl, fun _ => rfl⟩
  | x :: xs, h => by
    have ⟨y, hy, ho, hn, ao, an⟩ := h x (Mem.head _)
    have ⟨ys, hys, r1, r2⟩ := rqRunSide O N units xs (fun z hz => h z (Mem.tail _ hz))
    refine ⟨y :: ys, ?_, ?_, ?_⟩
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

/-- Every requirement list has one in `Qs` that agrees with it on the four lists' requirements. -/
def CwQsComplete (Qs : List (List String)) (p : Policy) (u' a' : List Grant) : Prop :=
  ∀ sat : List String, ∃ q, q ∈ Qs ∧ Closure.ReqAgree (cwLists p.user p.app) sat q ∧
    Closure.ReqAgree (cwLists u' a') sat q

/-- A call's units have listed stand-ins: the same bits, an agreeing requirement list. -/
abbrev CwStandIn (units : List Closure.Unit') (p : Policy) (u' a' : List Grant) (s : State)
    (args : List (String × Json)) (es : List Effect) : Prop :=
  ∀ x, x ∈ cwUnits p u' a' s args es → ∃ y, y ∈ units ∧ y.old = x.old ∧ y.new = x.new ∧
    Closure.ReqAgree (cwLists p.user p.app) x.reqs y.reqs ∧ Closure.ReqAgree (cwLists u' a') x.reqs y.reqs

/-- A relation that passes the closure check has the closure property for calls whose units have
listed stand-ins. -/
theorem cwClosedJointReq (units : List Closure.Unit') (rel : List (Closure.Usage × Closure.Usage))
    (start : Closure.Usage × Closure.Usage) (p : Policy) (u' a' : List Grant)
    (hc : Closure.closedC (cwLists p.user p.app) (cwLists u' a') units rel start = true) :
    CwClosed (fun ou oa nu na => Closure.memR rel ([ou, oa], [nu, na]) = true) (CwStandIn units p u' a') p u' a' := by
  intro s args es hcov ou oa nu na ou' oa' hq lnu lna hrun
  have ⟨ys, hys, r1, r2⟩ := Closure.rqRunSide _ _ units (cwUnits p u' a' s args es) hcov
  rw [r1] at hrun
  have ⟨nf, hnf, hrel⟩ := Closure.closedPreserves _ _ units rel start hc ys ([ou, oa], [nu, na]) [ou', oa'] hq hys hrun
  rw [← r2] at hnf
  have ⟨_, _, nu', na', _, _, enf, _, _, _⟩ := cwRunNew p u' a' s args es _ nu na nf lnu lna hnf
  rw [enf] at hnf hrel
  exact ⟨nu', na', hnf, hrel⟩

/-- One call: listed vectors for its effects give its units listed stand-ins, whatever its state's
requirement list, when `Qs` is complete. -/
theorem cwStandInOneCall (units : List Closure.Unit') (p : Policy) (u' a' : List Grant)
    (listed : String → List (List Bool)) (Qs : List (List String)) (hu : CwUnitsFrom units p u' a' listed Qs)
    (hQs : CwQsComplete Qs p u' a') (s : State) (args : List (String × Json)) (es : List Effect)
    (hv : CwVecsListed listed p u' a' s args es) : CwStandIn units p u' a' s args es := by
  intro x hx
  have ⟨i, hi, hxi⟩ := memMapInv _ hx
  have ⟨q, hq, ao, an⟩ := hQs s.satisfied
  rw [← hxi]
  exact ⟨⟨(cwUnit p u' a' s args es i).old, (cwUnit p u' a' s args es i).new, q⟩,
    cwCovUnitAt units p u' a' listed Qs hu s args es hv q hq i hi, rfl, rfl, ao, an⟩

/-- Along the old run, every prepared call's effects have listed vectors. -/
abbrev CwVecsAlong (listed : String → List (List Bool)) (p : Policy) (u' a' : List Grant) :
    State → List (Call × Outcome) → Prop :=
  AlongTrace (fun s c => ∀ t es, prepare p s c = Except.ok (t, es) → CwVecsListed listed p u' a' s c.args es) p

theorem cwStandInAlong (units : List Closure.Unit') (p : Policy) (u' a' : List Grant)
    (listed : String → List (List Bool)) (Qs : List (List String)) (hu : CwUnitsFrom units p u' a' listed Qs)
    (hQs : CwQsComplete Qs p u' a') :
    ∀ (cs : List (Call × Outcome)) (s : State), CwVecsAlong listed p u' a' s cs →
    CwCoveredBy (CwStandIn units p u' a') p s cs
  | [], _, _ => trivial
  | (c, o) :: cs, s, h => by
    have h' : (∀ t es, prepare p s c = Except.ok (t, es) → CwVecsListed listed p u' a' s c.args es) ∧
        CwVecsAlong listed p u' a' (stepFull p s c o).2 cs := h
    exact ⟨fun t es hp => cwStandInOneCall units p u' a' listed Qs hu hQs s c.args es (h'.1 t es hp),
      cwStandInAlong units p u' a' listed Qs hu hQs cs _ h'.2⟩

-- the requirement sets the Python checker writes ------------------------------------------------

/-- Every sublist of `R`, each in `R`'s order. -/
def cwSubsets : List String → List (List String)
  | [] => [[]]
  | r :: rs => List.map (fun q => r :: q) (cwSubsets rs) ++ cwSubsets rs

/-- `R` names every requirement a grant of `gs` asks for. -/
def CwReqsIn (R : List String) (gs : List Grant) : Prop :=
  ∀ g, g ∈ gs → ∀ r, g.requires = some r → Closure.memS R r = true

def cwRqIf (b : Bool) (x y : List String) : List String :=
  match b with
  | true => x
  | false => y

theorem cwRqFiltCons (p : String → Bool) (a : String) (l : List String) :
    filt p (a :: l) = cwRqIf (p a) (a :: filt p l) (filt p l) := rfl

theorem cwRqKeepSub (sat : List String) : ∀ R : List String, filt (Closure.memS sat) R ∈ cwSubsets R
  | [] => Mem.head _
  | r :: rs => by
    rw [cwRqFiltCons]
    cases Closure.memS sat r with
    | true => exact memAppL _ (memMapOf (fun q => r :: q) (cwRqKeepSub sat rs))
    | false => exact memAppR _ _ (cwRqKeepSub sat rs)

/-- The elements of `R` a list contains agree with it on every name of `R`. -/
theorem cwRqKeepMem (sat R : List String) (r : String) (hR : Closure.memS R r = true) :
    Closure.memS (filt (Closure.memS sat) R) r = Closure.memS sat r := by
  cases hs : Closure.memS sat r with
  | true =>
    have ⟨x, hx, hxr⟩ := anyBElim hR
    have e : x = r := ofDecideEqTrue hxr
    rw [e] at hx
    exact anyBIntro (filtMem hx hs) (strBeqSelf r)
  | false =>
    cases ht : Closure.memS (filt (Closure.memS sat) R) r with
    | false => rfl
    | true =>
      have ⟨x, hx, hxr⟩ := anyBElim ht
      have e : x = r := ofDecideEqTrue hxr
      have hsx := (memFilt hx).2
      rw [e] at hsx
      rw [hs] at hsx
      exact Bool.noConfusion hsx

theorem cwRqAgreeEntries (sat R : List String) (gs : List Grant) (hR : CwReqsIn R gs) :
    ∀ e, e ∈ cwEntries gs → Closure.reqOk sat e.requires = Closure.reqOk (filt (Closure.memS sat) R) e.requires := by
  intro e he
  have ⟨g, hg, hge⟩ := memMapInv _ he
  rw [← hge]
  show Closure.reqOk sat g.requires = Closure.reqOk (filt (Closure.memS sat) R) g.requires
  cases hr : g.requires with
  | none => rfl
  | some r => exact (cwRqKeepMem sat R r (hR g hg r hr)).symm

theorem cwRqAgreeLists (sat R : List String) (us as : List Grant) (hu : CwReqsIn R us) (ha : CwReqsIn R as) :
    Closure.ReqAgree (cwLists us as) sat (filt (Closure.memS sat) R) := by
  intro es hes
  cases hes with
  | head _ => exact cwRqAgreeEntries sat R us hu
  | tail _ h' =>
    cases h' with
    | head _ => exact cwRqAgreeEntries sat R as ha
    | tail _ h'' => exact absurd h'' notMemNil

theorem cwRqReqsInApp (R : List String) (xs ys : List Grant) (h : CwReqsIn R (xs ++ ys)) :
    CwReqsIn R xs ∧ CwReqsIn R ys :=
  ⟨fun g hg => h g (memAppL _ hg), fun g hg => h g (memAppR _ _ hg)⟩

/-- The subsets of a list naming the four lists' requirements are complete: whatever requirement
list the monitor keeps, in whatever order, the elements of `R` it contains are one of them and
agree with it on every entry. -/
theorem cwSubsetsComplete (R : List String) (p : Policy) (u' a' : List Grant) (hR : CwReqsIn R (cwAll p u' a')) :
    CwQsComplete (cwSubsets R) p u' a' := by
  have ⟨h3, h4⟩ := cwRqReqsInApp R _ _ hR
  have ⟨h2, h3'⟩ := cwRqReqsInApp R _ _ h3
  have ⟨h1, h2'⟩ := cwRqReqsInApp R _ _ h2
  intro sat
  exact ⟨filt (Closure.memS sat) R, cwRqKeepSub sat R, cwRqAgreeLists sat R _ _ h1 h2',
    cwRqAgreeLists sat R _ _ h3' h4⟩

-- the actions the oracle is asked about ----------------------------------------------------------

/-- `acts` names every action the policy's tools declare. -/
def CwActsNamed (acts : List String) (p : Policy) : Prop :=
  ∀ t, t ∈ p.tools → ∀ d, d ∈ t.effects → d.action ∈ acts

/-- An effect the monitor prepares has an action some tool of the policy declares. -/
theorem cwActOfPrepare (acts : List String) (p : Policy) (hacts : CwActsNamed acts p) (s : State) (c : Call)
    (t : Tool) (es : List Effect) (hprep : prepare p s c = Except.ok (t, es)) (e : Effect) (he : e ∈ es) :
    e.action ∈ acts := by
  have ⟨ht, _, hes⟩ := ArgCover.prepareParts p s c t es hprep
  have ⟨d, hd, hda⟩ := ArgCover.effectsOfFrom c.args e t.effects es hes he
  rw [← hda]
  exact hacts t ht d hd

/-- The coverage theorem's per-call conditions without `e.action ∈ acts`, which preparation gives. -/
def CwOracleSideR (E : String → Option (List Json)) (p : Policy) (u' a' : List Grant)
    (args : List (String × Json)) (es : List Effect) : Prop :=
  ArgCover.keysDistinct args = true ∧ ∀ e, e ∈ es → ArgCover.InE (E e.action) e ∧
    (allB ArgCover.grantOk (ArgCover.ofAction e.action (cwAll p u' a')) = false →
      ArgCover.JsonPathsAdmitted e.action (cwAll p u' a') args)

theorem cwOracleSideOfR (E : String → Option (List Json)) (acts : List String) (p : Policy) (u' a' : List Grant)
    (hacts : CwActsNamed acts p) (s : State) (c : Call) (t : Tool) (es : List Effect)
    (hprep : prepare p s c = Except.ok (t, es)) (h : CwOracleSideR E p u' a' c.args es) :
    CwOracleSide E acts p u' a' c.args es :=
  ⟨h.1, fun e he => ⟨cwActOfPrepare acts p hacts s c t es hprep e he, (h.2 e he).1, (h.2 e he).2⟩⟩

/-- Along the old run, every prepared call meets `CwOracleSideR`. -/
abbrev CwSideAlongR (E : String → Option (List Json)) (p : Policy) (u' a' : List Grant) :
    State → List (Call × Outcome) → Prop :=
  AlongTrace (fun s c => ∀ t es, prepare p s c = Except.ok (t, es) → CwOracleSideR E p u' a' c.args es) p

theorem cwVecsAlongOfOracleR (E : String → Option (List Json)) (listedS : String → List String)
    (listed : String → List (List Bool)) (acts : List String) (p : Policy) (u' a' : List Grant)
    (hacts : CwActsNamed acts p) (hans : CwOracleCovered E listedS listed acts p u' a') :
    ∀ (cs : List (Call × Outcome)) (s : State), (∃ cs0, s = (runFull p (initialState p) cs0).2) →
    CwSideAlongR E p u' a' s cs → CwVecsAlong listed p u' a' s cs
  | [], _, _, _ => trivial
  | (c, o) :: cs, s, hr, h => by
    have h' : (∀ t es, prepare p s c = Except.ok (t, es) → CwOracleSideR E p u' a' c.args es) ∧
        CwSideAlongR E p u' a' (stepFull p s c o).2 cs := h
    exact ⟨fun t es hp => cwVecsOfOracle E listedS listed acts p u' a' hans s hr c t es hp
        (cwOracleSideOfR E acts p u' a' hacts s c t es hp (h'.1 t es hp)),
      cwVecsAlongOfOracleR E listedS listed acts p u' a' hacts hans cs _ (cwReachStep p s c o hr) h'.2⟩

/-- `cwRunFull` with the coverage premise from the tool-checked oracle's covered answers, the
check's units holding every listed vector with every subset of `R`, `R` naming the four lists'
requirements and `acts` the tools' actions: no hypothesis on the states' requirement lists, and
none that a prepared effect's action is among `acts`. -/
theorem cwRunFullOracleReq (units : List Closure.Unit') (rel : List (Closure.Usage × Closure.Usage))
    (start : Closure.Usage × Closure.Usage) (p : Policy) (u' a' : List Grant)
    (E : String → Option (List Json)) (listedS : String → List String) (listed : String → List (List Bool))
    (acts : List String) (R : List String)
    (hc : Closure.closedC (cwLists p.user p.app) (cwLists u' a') units rel start = true)
    (hu : CwUnitsFrom units p u' a' listed (cwSubsets R)) (hR : CwReqsIn R (cwAll p u' a'))
    (hacts : CwActsNamed acts p) (hans : CwOracleCovered E listedS listed acts p u' a')
    (hpa : PermitByAction p u' a') (cs : List (Call × Outcome)) (s s' : State)
    (hreach : ∃ cs0, s = (runFull p (initialState p) cs0).2) (hs : SafetyEqP s s') (hrel : CwRel rel p u' a' s s')
    (hcl : Client p s cs) (hside : CwSideAlongR E p u' a' s cs) :
    List.map verdictLabel (runFull (revisedP p u' a') s' cs).1 = List.map verdictLabel (runFull p s cs).1 ∧
    allB isAllowV (runFull (revisedP p u' a') s' cs).1 = true ∧
    SafetyEqP (runFull p s cs).2 (runFull (revisedP p u' a') s' cs).2 ∧
    CwRel rel p u' a' (runFull p s cs).2 (runFull (revisedP p u' a') s' cs).2 :=
  cwRunFullBy _ _ p u' a' (cwClosedJointReq units rel start p u' a' hc) hpa cs s s' hs hrel hcl
    (cwStandInAlong units p u' a' listed (cwSubsets R) hu (cwSubsetsComplete R p u' a' hR) cs s
      (cwVecsAlongOfOracleR E listedS listed acts p u' a' hacts hans cs s hreach hside))

/-- The same on permit-free lists (the paper's base monitor): no `PermitByAction` hypothesis. -/
theorem cwRunFullOracleReqPermitFree (units : List Closure.Unit') (rel : List (Closure.Usage × Closure.Usage))
    (start : Closure.Usage × Closure.Usage) (p : Policy) (u' a' : List Grant)
    (E : String → Option (List Json)) (listedS : String → List String) (listed : String → List (List Bool))
    (acts : List String) (R : List String)
    (hc : Closure.closedC (cwLists p.user p.app) (cwLists u' a') units rel start = true)
    (hu : CwUnitsFrom units p u' a' listed (cwSubsets R)) (hR : CwReqsIn R (cwAll p u' a'))
    (hacts : CwActsNamed acts p) (hans : CwOracleCovered E listedS listed acts p u' a')
    (h1 : ∀ g, g ∈ p.user → g.permit = false) (h2 : ∀ g, g ∈ u' → g.permit = false)
    (h3 : ∀ g, g ∈ p.app → g.permit = false) (h4 : ∀ g, g ∈ a' → g.permit = false)
    (cs : List (Call × Outcome)) (s s' : State)
    (hreach : ∃ cs0, s = (runFull p (initialState p) cs0).2) (hs : SafetyEqP s s') (hrel : CwRel rel p u' a' s s')
    (hcl : Client p s cs) (hside : CwSideAlongR E p u' a' s cs) :
    List.map verdictLabel (runFull (revisedP p u' a') s' cs).1 = List.map verdictLabel (runFull p s cs).1 ∧
    allB isAllowV (runFull (revisedP p u' a') s' cs).1 = true ∧
    SafetyEqP (runFull p s cs).2 (runFull (revisedP p u' a') s' cs).2 ∧
    CwRel rel p u' a' (runFull p s cs).2 (runFull (revisedP p u' a') s' cs).2 :=
  cwRunFullOracleReq units rel start p u' a' E listedS listed acts R hc hu hR hacts hans
    (permitFreeByAction p u' a' h1 h2 h3 h4) cs s s' hreach hs hrel hcl hside

end AgentWarrant.Monitor.Full
