import AgentWarrant.Thm.Revision.ClosureWhole
import AgentWarrant.Thm.Revision.Closure
/-! The closure check's conclusion on the whole monitor (Agenra Sections 1 and 7.1): a relation on the
two lists' usage vectors that passes `closedC` (`cwRunFull`), or one per list (`cwRunFullPerList`),
keeps every client of the old monitor a client of the revised one, call by call, with the same
labels. Both go through one argument (`cwStepFullBy`, `cwRunFullBy`) from what a check gives on the
whole monitor (`CwClosed`: a covered call's units charged on the old lists from related usages are
charged on the new lists into related usages).

The relation between the two monitors' states (`CwRel`): both keep their counters one per grant and
within quota, and the four lists' ledgers at the counters (each grant's residual) are the ledgers
of usage vectors the relation relates. The relation speaks of residuals rather than counters
because the monitor counts the uses of an unlimited grant and the closure check does not; neither
reads that counter. The client's calls must have their units among the check's (`CwCovered`, along
the old run: the coverage premise, which the Python checker discharges with Z3). Explicit denies
need no hypothesis: the check's charge refuses a unit an explicit deny matches, so a related pair
the new lists charge has no new deny. Permits do: the grants the new lists choose must need an
exact-call permit exactly when the old lists' do, which `PermitByAction` (from the certificate
route) gives. -/
namespace AgentWarrant.Monitor.Full
open Lean AgentWarrant AgentWarrant.Monitor AgentWarrant.Monitor.Run AgentWarrant.Revision

/-- The old and the revised monitor's counters have the residuals of usage vectors `Q` relates
(old user, old application, new user, new application), and both are one per grant and within
quota. -/
def CwRelBy (Q : List Nat → List Nat → List Nat → List Nat → Prop) (p : Policy) (u' a' : List Grant)
    (s s' : State) : Prop :=
  QuotaOk p s ∧ QuotaOk (revisedP p u' a') s' ∧
  ∃ ou oa nu na, Q ou oa nu na ∧
    List.length p.user = List.length ou ∧ List.length p.app = List.length oa ∧
    List.length u' = List.length nu ∧ List.length a' = List.length na ∧
    ledgerOf (polOf p.user) s.usedUser = ledgerOf (polOf p.user) ou ∧
    ledgerOf (polOf p.app) s.usedApp = ledgerOf (polOf p.app) oa ∧
    ledgerOf (polOf u') s'.usedUser = ledgerOf (polOf u') nu ∧
    ledgerOf (polOf a') s'.usedApp = ledgerOf (polOf a') na

/-- A joint relation: `rel` relates the old lists' usage pair to the new lists'. -/
abbrev CwRel (rel : List (Closure.Usage × Closure.Usage)) (p : Policy) (u' a' : List Grant) (s s' : State) : Prop :=
  CwRelBy (fun ou oa nu na => Closure.memR rel ([ou, oa], [nu, na]) = true) p u' a' s s'

/-- Two per-list relations: `relU` relates the user lists' usages, `relA` the application lists'. -/
abbrev CwRelL (relU relA : List (Closure.Usage × Closure.Usage)) (p : Policy) (u' a' : List Grant) (s s' : State) :
    Prop :=
  CwRelBy (fun ou oa nu na => Closure.memR relU ([ou], [nu]) = true ∧ Closure.memR relA ([oa], [na]) = true) p u' a' s s'

/-- Every call of the trace, at the state the old monitor reaches, meets `Cov` with its arguments
and prepared effect units. -/
abbrev CwCoveredBy (Cov : State → List (String × Json) → List Effect → Prop) (p : Policy) :
    State → List (Call × Outcome) → Prop :=
  AlongTrace (fun s c => ∀ t es, prepare p s c = Except.ok (t, es) → Cov s c.args es) p

/-- Every call of the trace, at the state the old monitor reaches, has its units among `units`. -/
abbrev CwCovered (units : List Closure.Unit') (p : Policy) (u' a' : List Grant) : State → List (Call × Outcome) → Prop :=
  CwCoveredBy (fun s args es => ∀ x, x ∈ cwUnits p u' a' s args es → x ∈ units) p

/-- Every call of the trace has its per-list units among each per-list certificate's. -/
abbrev CwCoveredL (unitsU unitsA : List Closure.Unit') (p : Policy) (u' a' : List Grant) :
    State → List (Call × Outcome) → Prop :=
  CwCoveredBy (fun s args es => (∀ x, x ∈ cwUnitsL p.user u' s args es → x ∈ unitsU) ∧
    (∀ x, x ∈ cwUnitsL p.app a' s args es → x ∈ unitsA)) p

/-- What a closure check gives on the whole monitor: for a covered call, from related usages, a run
of its units on the old lists is a run on the new lists into related usages. -/
def CwClosed (Q : List Nat → List Nat → List Nat → List Nat → Prop) (Cov : State → List (String × Json) → List Effect → Prop)
    (p : Policy) (u' a' : List Grant) : Prop :=
  ∀ s args es, Cov s args es → ∀ ou oa nu na ou' oa', Q ou oa nu na →
    List.length u' = List.length nu → List.length a' = List.length na →
    Closure.runSide true (cwLists p.user p.app) [ou, oa] (cwUnits p u' a' s args es) = some [ou', oa'] →
    ∃ nu' na', Closure.runSide false (cwLists u' a') [nu, na] (cwUnits p u' a' s args es) = some [nu', na'] ∧
      Q ou' oa' nu' na'

theorem cwAndNot (a b c : Bool) : (a && !b || c) = (!b && a || c) := by cases a <;> cases b <;> rfl

/-- The closure check's explicit deny on one list is the monitor's. -/
theorem cwDenyEq (s : State) (args : List (String × Json)) (es : List Effect) (e : Nat) :
    ∀ (gs : List Grant) (us : List Nat), List.length gs = List.length us →
    Closure.denyHit (cwEntries gs) (cwBits s args es e gs) = explicitDeny (zipEntries s args es gs us) e
  | [], [], _ => rfl
  | [], _ :: _, h => by simp [List.length_cons] at h
  | _ :: _, [], h => by simp [List.length_cons] at h
  | g :: gs, u :: us, h => by
    simp [List.length_cons] at h
    have ih := cwDenyEq s args es e gs us h
    show (hit (List.map (grantMatches s args g) es) e && !g.allow || Closure.denyHit (cwEntries gs) (cwBits s args es e gs)) =
      (!g.allow && hit (List.map (grantMatches s args g) es) e || explicitDeny (zipEntries s args es gs us) e)
    rw [ih, cwAndNot]

theorem cwChargeAlloc (x : Ctx) (L L' : Ledger Ctx) (h : chargeL effsX x L = some L') :
    ∃ ps, allocL x L (effsX x) = some (ps, L') := by
  have h' : (match allocL x L (effsX x) with | none => none | some (_, lf) => some lf) = some L' := h
  cases ha : allocL x L (effsX x) with
  | none => rw [ha] at h'; cases h'
  | some q => cases q with
    | mk ps lf => rw [ha] at h'; exact ⟨ps, by rw [Option.some.inj h']⟩

theorem cwAllocCharge (x : Ctx) (L L' : Ledger Ctx) (ps : List Nat) (h : allocL x L (effsX x) = some (ps, L')) :
    chargeL effsX x L = some L' := by
  show (match allocL x L (effsX x) with | none => none | some (_, lf) => some lf) = some L'
  rw [h]

/-- Section 7.1 on the whole monitor, one step, from a closure property: from identical safety
states (with permits) whose counters `Q` relates, an old admission of a covered call is a new
admission with the same label and permit, and afterwards the safety states are again identical and
the counters again related. -/
theorem cwStepFullBy (Q : List Nat → List Nat → List Nat → List Nat → Prop)
    (Cov : State → List (String × Json) → List Effect → Prop) (p : Policy) (u' a' : List Grant)
    (hQ : CwClosed Q Cov p u' a')
    (s : State) (uu ua : List Nat) (c : Call) (o : Outcome) (hR : CwRelBy Q p u' a' s (revisedS s uu ua s.permits))
    (hU : ∀ t es, prepare p s c = Except.ok (t, es) → Cov s c.args es)
    (hpa : PermitByAction p u' a')
    (l : Label) (pu pa : List Nat) (k : Option Nat) (hold : decideFull p s c = Verdict.allow l pu pa k) :
    ∃ pu' pa', (stepFull (revisedP p u' a') (revisedS s uu ua s.permits) c o).1 = Verdict.allow l pu' pa' k ∧
      SafetyEqP (stepFull p s c o).2 (stepFull (revisedP p u' a') (revisedS s uu ua s.permits) c o).2 ∧
      CwRelBy Q p u' a' (stepFull p s c o).2 (stepFull (revisedP p u' a') (revisedS s uu ua s.permits) c o).2 := by
  have ⟨t, es, hp, hcore⟩ := decideFullAllow p s c l pu pa k hold
  have ⟨_, _, _, _, _, _, _, _, a9, _⟩ := decideAllow _ _ _ _ hcore
  have ⟨hu, ha⟩ := (allocBothAllOrNothing _ _ _ pu pa).1 a9
  have hu' : alloc (List.map account (sideEntries s c.args es p.user s.usedUser)) (range 0 (List.length es)) = some pu := hu
  have ha' : alloc (List.map account (sideEntries s c.args es p.app s.usedApp)) (range 0 (List.length es)) = some pa := ha
  have ⟨⟨lu, la, wu, wa⟩, ⟨lu', la', wu', wa'⟩, ou, oa, nu, na, hmem, lou, loa, lnu, lna, eou, eoa, enu, ena⟩ := hR
  have lu' : List.length uu = List.length u' := lu'
  have la' : List.length ua = List.length a' := la'
  have enu : ledgerOf (polOf u') uu = ledgerOf (polOf u') nu := enu
  have ena : ledgerOf (polOf a') ua = ledgerOf (polOf a') na := ena
  have chU0 := sideChargeZ s c.args es p.user s.usedUser lu.symm wu pu hu'
  have chA0 := sideChargeZ s c.args es p.app s.usedApp la.symm wa pa ha'
  have chU := chU0
  have chA := chA0
  rw [eou] at chU
  rw [eoa] at chA
  have ⟨qu, alU⟩ := cwChargeAlloc _ _ _ chU
  have ⟨qa, alA⟩ := cwChargeAlloc _ _ _ chA
  -- the old admission matched no explicit deny, so no unit of the call does on the old lists
  have hnd : anyDeny (sideEntries s c.args es p.user s.usedUser) (sideEntries s c.args es p.app s.usedApp)
      (range 0 (List.length es)) = false := decideAllowNoDeny _ _ _ _ hcore
  have hdOld : ∀ e, e ∈ range 0 (List.length es) →
      Closure.denyHit (cwEntries p.user) (cwBits s c.args es e p.user) = false ∧
      Closure.denyHit (cwEntries p.app) (cwBits s c.args es e p.app) = false := by
    intro e he
    rw [cwDenyEq s c.args es e p.user s.usedUser lu.symm, cwDenyEq s c.args es e p.app s.usedApp la.symm,
      ← sideEntriesZip s c.args es p.user s.usedUser lu.symm, ← sideEntriesZip s c.args es p.app s.usedApp la.symm]
    constructor
    · cases hx : explicitDeny (sideEntries s c.args es p.user s.usedUser) e with
      | false => rfl
      | true =>
        have h1 : anyDeny (sideEntries s c.args es p.user s.usedUser) (sideEntries s c.args es p.app s.usedApp)
            (range 0 (List.length es)) = true := anyMem (Mem.head _) (anyMem he hx)
        rw [hnd] at h1
        cases h1
    · cases hx : explicitDeny (sideEntries s c.args es p.app s.usedApp) e with
      | false => rfl
      | true =>
        have h1 : anyDeny (sideEntries s c.args es p.user s.usedUser) (sideEntries s c.args es p.app s.usedApp)
            (range 0 (List.length es)) = true := anyMem (Mem.tail _ (Mem.head _)) (anyMem he hx)
        rw [hnd] at h1
        cases h1
  have ⟨ou', oa', hrun, eLu, eLa, lou', loa'⟩ :=
    cwRunOld p u' a' s c.args es (range 0 (List.length es)) ou oa qu qa _ _ lou loa alU alA hdOld
  have ⟨nu0, na0, hnf, hrel⟩ := hQ s c.args es (hU t es hp) ou oa nu na ou' oa' hmem lnu lna hrun
  have ⟨qu', qa', nu', na', anU, anA, enf, lnu', lna', hdNew⟩ :=
    cwRunNew p u' a' s c.args es _ nu na [nu0, na0] lnu lna hnf
  have hnU : chargeL effsX (s, c.args, es) (ledgerOf (polOf u') uu) = some (ledgerOf (polOf u') nu') := by
    rw [enu]; exact cwAllocCharge _ _ _ _ anU
  have hnA : chargeL effsX (s, c.args, es) (ledgerOf (polOf a') ua) = some (ledgerOf (polOf a') na') := by
    rw [ena]; exact cwAllocCharge _ _ _ _ anA
  -- the new lists charged every unit, so no explicit deny of theirs matches the call
  have hdeny : anyDeny (sideEntries (revisedS s uu ua s.permits) c.args es u' uu)
      (sideEntries (revisedS s uu ua s.permits) c.args es a' ua) (range 0 (List.length es)) = true →
      anyDeny (sideEntries s c.args es p.user s.usedUser) (sideEntries s c.args es p.app s.usedApp)
        (range 0 (List.length es)) = true := by
    intro h
    have ⟨side, hside, hany⟩ := anyEx h
    have ⟨e, he, hde⟩ := anyEx hany
    have ⟨d1, d2⟩ := hdNew e he
    cases Run.memPair hside with
    | inl eq =>
      rw [eq] at hde
      have hde' : explicitDeny (sideEntries s c.args es u' uu) e = true := hde
      rw [sideEntriesZip s c.args es u' uu lu'.symm, ← cwDenyEq s c.args es e u' uu lu'.symm, d1] at hde'
      cases hde'
    | inr eq =>
      rw [eq] at hde
      have hde' : explicitDeny (sideEntries s c.args es a' ua) e = true := hde
      rw [sideEntriesZip s c.args es a' ua la'.symm, ← cwDenyEq s c.args es e a' ua la'.symm, d2] at hde'
      cases hde'
  have ⟨pu', pa', hk, hsafe, q1, q2, oU, oA, nU, nA⟩ :=
    stepFullNewCharge p u' a' s uu ua c o hR.1 hR.2.1 hpa l pu pa k hold t es hp _ _ hnU hnA hdeny
  rw [chU0] at oU
  rw [chA0] at oA
  have ⟨en1, en2⟩ := List.cons.inj enf
  have ⟨en3, _⟩ := List.cons.inj en2
  rw [en1, en3] at hrel
  refine ⟨pu', pa', hk, hsafe, q1, q2, ou', oa', nu', na', hrel, lou', loa', lnu', lna', ?_, ?_, nU, nA⟩
  · rw [← Option.some.inj oU]; exact eLu
  · rw [← Option.some.inj oA]; exact eLa

/-- Over every client trace of the old policy, from a closure property: from identical safety states
(with permits) whose counters `Q` relates, with every call covered, the new monitor admits every
call with the same label, and the safety states (with permits) stay identical and the counters
related. -/
theorem cwRunFullBy (Q : List Nat → List Nat → List Nat → List Nat → Prop)
    (Cov : State → List (String × Json) → List Effect → Prop) (p : Policy) (u' a' : List Grant)
    (hQ : CwClosed Q Cov p u' a')
    (hpa : PermitByAction p u' a') : ∀ (cs : List (Call × Outcome)) (s s' : State),
    SafetyEqP s s' → CwRelBy Q p u' a' s s' → Client p s cs → CwCoveredBy Cov p s cs →
    List.map verdictLabel (runFull (revisedP p u' a') s' cs).1 = List.map verdictLabel (runFull p s cs).1 ∧
    allB isAllowV (runFull (revisedP p u' a') s' cs).1 = true ∧
    SafetyEqP (runFull p s cs).2 (runFull (revisedP p u' a') s' cs).2 ∧
    CwRelBy Q p u' a' (runFull p s cs).2 (runFull (revisedP p u' a') s' cs).2 :=
  runFullOfStep p u' a' (CwRelBy Q p u' a') (fun s c => ∀ t es, prepare p s c = Except.ok (t, es) → Cov s c.args es)
    (fun s uu ua c o l pu pa k hR hU hv => cwStepFullBy Q Cov p u' a' hQ s uu ua c o hR hU hpa l pu pa k hv)

/-- A relation on both lists' usages that passes the closure check has the closure property for
calls whose units are the check's. -/
theorem cwClosedJoint (units : List Closure.Unit') (rel : List (Closure.Usage × Closure.Usage))
    (start : Closure.Usage × Closure.Usage) (p : Policy) (u' a' : List Grant)
    (hc : Closure.closedC (cwLists p.user p.app) (cwLists u' a') units rel start = true) :
    CwClosed (fun ou oa nu na => Closure.memR rel ([ou, oa], [nu, na]) = true)
      (fun s args es => ∀ x, x ∈ cwUnits p u' a' s args es → x ∈ units) p u' a' := by
  intro s args es hcov ou oa nu na ou' oa' hq lnu lna hrun
  have ⟨nf, hnf, hrel⟩ := Closure.closedPreserves _ _ units rel start hc (cwUnits p u' a' s args es)
    ([ou, oa], [nu, na]) [ou', oa'] hq hcov hrun
  have ⟨_, _, nu', na', _, _, enf, _, _, _⟩ := cwRunNew p u' a' s args es _ nu na nf lnu lna hnf
  rw [enf] at hnf hrel
  exact ⟨nu', na', hnf, hrel⟩

/-- Two per-list relations that pass the closure check (user lists, application lists) have the
closure property for calls whose per-list units are each check's. -/
theorem cwClosedPerList (unitsU unitsA : List Closure.Unit') (relU relA : List (Closure.Usage × Closure.Usage))
    (startU startA : Closure.Usage × Closure.Usage) (p : Policy) (u' a' : List Grant)
    (hcU : Closure.closedC [cwEntries p.user] [cwEntries u'] unitsU relU startU = true)
    (hcA : Closure.closedC [cwEntries p.app] [cwEntries a'] unitsA relA startA = true) :
    CwClosed (fun ou oa nu na => Closure.memR relU ([ou], [nu]) = true ∧ Closure.memR relA ([oa], [na]) = true)
      (fun s args es => (∀ x, x ∈ cwUnitsL p.user u' s args es → x ∈ unitsU) ∧
        (∀ x, x ∈ cwUnitsL p.app a' s args es → x ∈ unitsA)) p u' a' := by
  intro s args es hcov ou oa nu na ou' oa' hq _ _ hrun
  have ⟨r1, r2⟩ := cwSplitOld p u' a' s args es _ _ _ ou oa ou' oa' hrun
  have ⟨f1, h1, q1⟩ := Closure.closedPreserves _ _ unitsU relU startU hcU (cwUnitsL p.user u' s args es)
    ([ou], [nu]) [ou'] hq.1 hcov.1 r1
  have ⟨f2, h2, q2⟩ := Closure.closedPreserves _ _ unitsA relA startA hcA (cwUnitsL p.app a' s args es)
    ([oa], [na]) [oa'] hq.2 hcov.2 r2
  have ⟨v1, v2, e1, e2, hj⟩ := cwJoinNew p u' a' s args es _ _ _ nu na f1 f2 h1 h2
  rw [e1] at q1
  rw [e2] at q2
  exact ⟨v1, v2, hj, q1, q2⟩

/-- The closure check on the whole monitor over every client trace of the old policy (a joint
relation on both lists' usages): from identical safety states (with permits) whose counters the
relation relates, with every call's units among the check's, the new monitor admits every call with
the same label, and the safety states (with permits) stay identical and the counters related. -/
theorem cwRunFull (units : List Closure.Unit') (rel : List (Closure.Usage × Closure.Usage))
    (start : Closure.Usage × Closure.Usage) (p : Policy) (u' a' : List Grant)
    (hc : Closure.closedC (cwLists p.user p.app) (cwLists u' a') units rel start = true)
    (hpa : PermitByAction p u' a') (cs : List (Call × Outcome)) (s s' : State)
    (hs : SafetyEqP s s') (hR : CwRel rel p u' a' s s') (hcl : Client p s cs) (hcov : CwCovered units p u' a' s cs) :
    List.map verdictLabel (runFull (revisedP p u' a') s' cs).1 = List.map verdictLabel (runFull p s cs).1 ∧
    allB isAllowV (runFull (revisedP p u' a') s' cs).1 = true ∧
    SafetyEqP (runFull p s cs).2 (runFull (revisedP p u' a') s' cs).2 ∧
    CwRel rel p u' a' (runFull p s cs).2 (runFull (revisedP p u' a') s' cs).2 :=
  cwRunFullBy _ _ p u' a' (cwClosedJoint units rel start p u' a' hc) hpa cs s s' hs hR hcl hcov

/-- The same for two per-list certificates, one on the user lists and one on the application lists. -/
theorem cwRunFullPerList (unitsU unitsA : List Closure.Unit') (relU relA : List (Closure.Usage × Closure.Usage))
    (startU startA : Closure.Usage × Closure.Usage) (p : Policy) (u' a' : List Grant)
    (hcU : Closure.closedC [cwEntries p.user] [cwEntries u'] unitsU relU startU = true)
    (hcA : Closure.closedC [cwEntries p.app] [cwEntries a'] unitsA relA startA = true)
    (hpa : PermitByAction p u' a') (cs : List (Call × Outcome)) (s s' : State)
    (hs : SafetyEqP s s') (hR : CwRelL relU relA p u' a' s s') (hcl : Client p s cs)
    (hcov : CwCoveredL unitsU unitsA p u' a' s cs) :
    List.map verdictLabel (runFull (revisedP p u' a') s' cs).1 = List.map verdictLabel (runFull p s cs).1 ∧
    allB isAllowV (runFull (revisedP p u' a') s' cs).1 = true ∧
    SafetyEqP (runFull p s cs).2 (runFull (revisedP p u' a') s' cs).2 ∧
    CwRelL relU relA p u' a' (runFull p s cs).2 (runFull (revisedP p u' a') s' cs).2 :=
  cwRunFullBy _ _ p u' a' (cwClosedPerList unitsU unitsA relU relA startU startA p u' a' hcU hcA) hpa cs s s' hs hR hcl hcov

/-- The closure check's starting pair at a task's start: zero use of every grant of the four lists. -/
def cwStart (p : Policy) (u' a' : List Grant) : Closure.Usage × Closure.Usage :=
  ([List.map (fun _ => 0) p.user, List.map (fun _ => 0) p.app], [List.map (fun _ => 0) u', List.map (fun _ => 0) a'])

/-- From a task's start: a relation that passes the closure check with the zero-use starting pair
relates the two monitors' initial states, which are identical in their safety state. -/
theorem cwStartRel (units : List Closure.Unit') (rel : List (Closure.Usage × Closure.Usage)) (p : Policy)
    (u' a' : List Grant) (hc : Closure.closedC (cwLists p.user p.app) (cwLists u' a') units rel (cwStart p u' a') = true) :
    SafetyEqP (initialState p) (initialState (revisedP p u' a')) ∧
    CwRel rel p u' a' (initialState p) (initialState (revisedP p u' a')) :=
  ⟨⟨⟨rfl, rfl, rfl, rfl⟩, rfl⟩,
   (initialStateOk p).1, (initialStateOk _).1, _, _, _, _, Closure.andLeft hc,
   (lengthMap _ _).symm, (lengthMap _ _).symm, (lengthMap _ _).symm, (lengthMap _ _).symm, rfl, rfl, rfl, rfl⟩

/-- From a task's start, for per-list certificates: checks passed with the zero-use starting pairs
relate the two monitors' initial states. -/
theorem cwStartRelL (unitsU unitsA : List Closure.Unit') (relU relA : List (Closure.Usage × Closure.Usage))
    (p : Policy) (u' a' : List Grant)
    (hcU : Closure.closedC [cwEntries p.user] [cwEntries u'] unitsU relU
      ([List.map (fun _ => 0) p.user], [List.map (fun _ => 0) u']) = true)
    (hcA : Closure.closedC [cwEntries p.app] [cwEntries a'] unitsA relA
      ([List.map (fun _ => 0) p.app], [List.map (fun _ => 0) a']) = true) :
    SafetyEqP (initialState p) (initialState (revisedP p u' a')) ∧
    CwRelL relU relA p u' a' (initialState p) (initialState (revisedP p u' a')) :=
  ⟨⟨⟨rfl, rfl, rfl, rfl⟩, rfl⟩,
   (initialStateOk p).1, (initialStateOk _).1, _, _, _, _, ⟨Closure.andLeft hcU, Closure.andLeft hcA⟩,
   (lengthMap _ _).symm, (lengthMap _ _).symm, (lengthMap _ _).symm, (lengthMap _ _).symm, rfl, rfl, rfl, rfl⟩

end AgentWarrant.Monitor.Full
