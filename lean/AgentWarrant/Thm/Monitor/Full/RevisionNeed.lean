import AgentWarrant.Thm.Monitor.Full.RevisionCert
/-! Which conditions of the whole-monitor revision theorem (Agenra Section 7.1 (2)) go beyond the
paper's statement, and whether they can be dropped.

`runFullCert` assumes two conditions on the policy pair besides the structural certificates:
`NoNewDenyGrant` and `PermitByAction`. The paper's relation `P ⇝_E P′` appends arbitrary grants, so it
does not exclude an appended deny. `needNoNewDeny` shows that the condition cannot be dropped: a
one-tool policy, a revision that appends one deny grant to the user list (related by `Rev.append`,
every other hypothesis of `runFullCert` met, `PermitByAction` included), and a one-call client of
the old monitor that the new monitor refuses (`explicit_deny`).

`PermitByAction` concerns exact-call permits, which the paper's base monitor of Sections 6 and 7.1
does not have (Section 9 adds them). For policies whose grants need no permit it holds outright
(`permitFreeByAction`), so on the base monitor the certified revision theorem needs no such
hypothesis (`baseRevisionKeepsSafety`). With permits it is necessary: `needPermitByAction` gives a
quota raise that Lean's own revision check accepts (`certifiedB` on both lists) under which first-fit
moves the charge to an earlier grant that needs a permit, and the new monitor refuses the old
client (`permit_missing`).

The example policies are computed on: every verdict below is the whole monitor's own (`stepFull`),
evaluated by the kernel (`rfl`). -/
namespace AgentWarrant.Monitor.Full
open Lean AgentWarrant AgentWarrant.Monitor AgentWarrant.Monitor.Run AgentWarrant.Revision

def openGuard : Guard := ⟨none, none, [], [], none⟩

/-- One tool, `delete(obj)`, with the effect `delete(obj)`. -/
def delTool : Tool := ⟨"delete", "del", "store", "store", ["obj"], ["obj"], [⟨"delete", ResRef.arg "obj"⟩]⟩

def allowDel (q : Option Nat) (permit : Bool) : Grant := ⟨true, "delete", Pat.any, none, [], q, none, permit⟩
def denyDel : Grant := ⟨false, "delete", Pat.any, none, [], none, none, false⟩

def delPolicy (user app : List Grant) : Policy :=
  { nodes := [⟨"store", bot⟩], edges := [⟨"del", [("store", "store")], none⟩], agents := [⟨"agent", ["del"], 0⟩],
    tools := [delTool], resolvers := [], origins := [], flows := [⟨false, "*", "*", openGuard⟩], histories := [],
    user := user, app := app }

def delCall : Call := ⟨"agent", "delete", [("obj", Json.str "A")], [], []⟩
def delOut : Outcome := ⟨true, Json.null⟩

-- an appended deny --------------------------------------------------------------------------------

def denyOld : Policy := delPolicy [allowDel (some 1) false] [allowDel (some 1) false]
def denyUser' : List Grant := [allowDel (some 1) false, denyDel]
def denyApp' : List Grant := [allowDel (some 1) false]

theorem denyOldAdmits : Client denyOld (initialState denyOld) [(delCall, delOut)] := ⟨rfl, trivial⟩

theorem denyNewRefuses :
    (stepFull (revisedP denyOld denyUser' denyApp') (initialState (revisedP denyOld denyUser' denyApp')) delCall delOut).1 =
      Verdict.deny "explicit_deny" := rfl

theorem permitFreeByAction (p : Policy) (u' a' : List Grant) (h1 : ∀ g, g ∈ p.user → g.permit = false)
    (h2 : ∀ g, g ∈ u' → g.permit = false) (h3 : ∀ g, g ∈ p.app → g.permit = false)
    (h4 : ∀ g, g ∈ a' → g.permit = false) : PermitByAction p u' a' :=
  ⟨fun g g' hg hg' _ _ _ => by rw [h1 g hg, h2 g' hg'], fun g g' hg hg' _ _ _ => by rw [h3 g hg, h4 g' hg']⟩

theorem memOne {x g : Grant} (h : g ∈ [x]) : g = x := by
  cases h with
  | head _ => rfl
  | tail _ h => exact absurd h notMemNil

theorem memTwo {x y g : Grant} (h : g ∈ [x, y]) : g = x ∨ g = y := by
  cases h with
  | head _ => exact Or.inl rfl
  | tail _ h => exact Or.inr (memOne h)

theorem denyCert : SafetyEqP (initialState denyOld) (initialState (revisedP denyOld denyUser' denyApp')) ∧
    CertRel (fun _ => True) denyOld denyUser' denyApp' (initialState denyOld) (initialState (revisedP denyOld denyUser' denyApp')) ∧
    PermitByAction denyOld denyUser' denyApp' := by
  refine ⟨⟨⟨rfl, rfl, rfl, rfl⟩, rfl⟩, ⟨(initialStateOk _).1, (initialStateOk _).1, ?_, ?_⟩, ?_⟩
  · have e : ledgerOf (polOf denyUser') (initialState (revisedP denyOld denyUser' denyApp')).usedUser =
        ledgerOf (polOf denyOld.user) (initialState denyOld).usedUser ++ [(gOf denyDel, none)] := rfl
    rw [e]; exact Rev.append _ _
  · have e : ledgerOf (polOf denyApp') (initialState (revisedP denyOld denyUser' denyApp')).usedApp =
        ledgerOf (polOf denyOld.app) (initialState denyOld).usedApp ++ [] := rfl
    rw [e]; exact Rev.append _ _
  · apply permitFreeByAction
    · intro g hg; rw [memOne hg]; rfl
    · intro g hg; cases memTwo hg with
      | inl e => rw [e]; rfl
      | inr e => rw [e]; rfl
    · intro g hg; rw [memOne hg]; rfl
    · intro g hg; rw [memOne hg]; rfl

/-- The appended grant is a deny that no old grant matches like. -/
theorem denyIsNew : ¬ NoNewDenyGrant denyOld denyUser' denyApp' := fun h => by
  have ⟨g0, hg0, he⟩ := h.1 denyDel (Mem.tail _ (Mem.head _)) rfl
  have e := he (initialState denyOld, [], [⟨"delete", Json.null⟩])
  rw [memOne hg0] at e
  have e2 := congrArg Monitor.Grant.allow e
  cases e2

/-- `NoNewDenyGrant` cannot be dropped from `runFullCert`: there are a policy pair related by the
structural certificates (`CertRel`) from identical safety states, with exact-call permits following
the action, and a client trace of the old monitor whose call the new monitor does not admit. -/
theorem needNoNewDeny : ∃ (p : Policy) (u' a' : List Grant) (s s' : State) (cs : List (Call × Outcome)),
    SafetyEqP s s' ∧ CertRel (fun _ => True) p u' a' s s' ∧ PermitByAction p u' a' ∧ Client p s cs ∧
    ¬ NoNewDenyGrant p u' a' ∧ allB isAllowV (runFull (revisedP p u' a') s' cs).1 = false :=
  ⟨denyOld, denyUser', denyApp', initialState denyOld, initialState (revisedP denyOld denyUser' denyApp'),
   [(delCall, delOut)], denyCert.1, denyCert.2.1, denyCert.2.2, denyOldAdmits, denyIsNew, rfl⟩

-- a charge moved to a grant that needs a permit ---------------------------------------------------

/-- The user list: a spent grant that needs a permit, then one that does not. -/
def permOld : Policy := delPolicy [allowDel (some 0) true, allowDel (some 1) false] [allowDel (some 1) false]
def permQu : List (Option Nat) := [some 1, some 1]
def permQa : List (Option Nat) := [some 1]

theorem permChecked : certifiedB permOld.user permQu [] = true ∧ certifiedB permOld.app permQa [] = true := ⟨rfl, rfl⟩

theorem permOldAdmits : Client permOld (initialState permOld) [(delCall, delOut)] := ⟨rfl, trivial⟩

theorem permNewRefuses :
    let p' := revisedP permOld (raiseQ permOld.user permQu ++ []) (raiseQ permOld.app permQa ++ [])
    (stepFull p' (initialState p') delCall delOut).1 = Verdict.deny "permit_missing" := rfl

/-- `PermitByAction` cannot be dropped from `checkedRevisionKeepsSafety` when grants may need a
permit: a quota raise Lean's check accepts on both lists, and a client trace of the old monitor that
the new monitor refuses, because first-fit now charges the raised grant, which needs a permit. -/
theorem needPermitByAction : ∃ (p : Policy) (qu qa : List (Option Nat)) (xu xa : List Grant) (cs : List (Call × Outcome)),
    certifiedB p.user qu xu = true ∧ certifiedB p.app qa xa = true ∧ Client p (initialState p) cs ∧
    allB isAllowV (runFull (revisedP p (raiseQ p.user qu ++ xu) (raiseQ p.app qa ++ xa))
      (initialState (revisedP p (raiseQ p.user qu ++ xu) (raiseQ p.app qa ++ xa))) cs).1 = false :=
  ⟨permOld, permQu, permQa, [], [], [(delCall, delOut)], permChecked.1, permChecked.2, permOldAdmits, rfl⟩

-- the base monitor (no exact-call permits) ---------------------------------------------------------

theorem raisePermit : ∀ (gs : List Grant) (qs : List (Option Nat)) (g : Grant), g ∈ raiseQ gs qs →
    ∃ g0, g0 ∈ gs ∧ g.permit = g0.permit
  | [], _, g, h => by cases h
  | _ :: _, [], g, h => by cases h
  | g0 :: gs, q :: qs, g, h => by
    have e : raiseQ (g0 :: gs) (q :: qs) = { g0 with quota := q } :: raiseQ gs qs := rfl
    rw [e] at h
    cases h with
    | head _ => exact ⟨g0, Mem.head _, rfl⟩
    | tail _ h' => have ⟨g1, hg1, he⟩ := raisePermit gs qs g h'; exact ⟨g1, Mem.tail _ hg1, he⟩

theorem permitFreeRaise (gs : List Grant) (qs : List (Option Nat)) (xs : List Grant)
    (h : ∀ g, g ∈ gs → g.permit = false) (hx : ∀ g, g ∈ xs → g.permit = false) :
    ∀ g, g ∈ raiseQ gs qs ++ xs → g.permit = false := by
  intro g hg
  cases memAppE hg with
  | inl h1 => have ⟨g0, hg0, e⟩ := raisePermit gs qs g h1; rw [e]; exact h g0 hg0
  | inr h2 => exact hx g h2

/-- Section 7.1 (2) on the base monitor, where no grant needs an exact-call permit (Section 9 adds
permits): for a revision Lean checks on the policy pair, every client trace of the old monitor from a
task's start is admitted by the new one with the same labels, ending in identical safety states. -/
theorem baseRevisionKeepsSafety (p : Policy) (qu qa : List (Option Nat)) (xu xa : List Grant)
    (hu : certifiedB p.user qu xu = true) (ha : certifiedB p.app qa xa = true)
    (h1 : ∀ g, g ∈ p.user → g.permit = false) (h2 : ∀ g, g ∈ p.app → g.permit = false)
    (h3 : ∀ g, g ∈ xu → g.permit = false) (h4 : ∀ g, g ∈ xa → g.permit = false)
    (cs : List (Call × Outcome)) (hc : Client p (initialState p) cs) :
    let p' := revisedP p (raiseQ p.user qu ++ xu) (raiseQ p.app qa ++ xa)
    List.map verdictLabel (runFull p' (initialState p') cs).1 = List.map verdictLabel (runFull p (initialState p) cs).1 ∧
    allB isAllowV (runFull p' (initialState p') cs).1 = true ∧
    SafetyEqP (runFull p (initialState p) cs).2 (runFull p' (initialState p') cs).2 :=
  certifiedRevisionKeepsSafety p qu qa xu xa hu ha
    (permitFreeByAction p _ _ h1 (permitFreeRaise p.user qu xu h1 h3) h2 (permitFreeRaise p.app qa xa h2 h4)) cs hc

-- Section 7.1 (1) on the whole monitor's admissions ----------------------------------------------

/-- What the allocator of a call sees: the state it is decided in, its arguments and its effect
units (none when preparation fails, in which case the call is not admitted). -/
def ctxOf (p : Policy) (s : State) (c : Call) : Ctx :=
  match prepare p s c with
  | Except.ok (_, es) => (s, c.args, es)
  | Except.error _ => (s, c.args, [])

/-- The calls of a trace as the allocator sees them along the whole monitor's run. -/
def ctxsOf (p : Policy) : State → List (Call × Outcome) → List Ctx
  | _, [] => []
  | s, (c, o) :: cs => ctxOf p s c :: ctxsOf p (stepFull p s c o).2 cs

/-- The whole monitor's admissions are a client of its ledgers: along every client trace of the
monitor, first-fit on the two lists' ledgers (`runBoth`, Section 7.1 (1)'s notion of admission)
serves every call, each in the binding state the monitor decided it in, and ends in the ledgers of
the monitor's final counters. -/
theorem clientLedgers (p : Policy) : ∀ (cs : List (Call × Outcome)) (s : State), QuotaOk p s → Client p s cs →
    runBoth effsX (ledgerOf (polOf p.user) s.usedUser) (ledgerOf (polOf p.app) s.usedApp) (ctxsOf p s cs) =
      some (ledgerOf (polOf p.user) (runFull p s cs).2.usedUser, ledgerOf (polOf p.app) (runFull p s cs).2.usedApp)
  | [], s, _, _ => rfl
  | (c, o) :: cs, s, hq, ⟨ha, hc⟩ => by
    have ⟨l, pu, pa, k, hv⟩ := allowOfV ha
    rw [stepFullVerdict] at hv
    have ⟨t, es, hp, hcore⟩ := decideFullAllow p s c l pu pa k hv
    have ⟨_, _, _, _, _, _, _, _, a9, _⟩ := decideAllow _ _ _ _ hcore
    have ⟨hu, ha2⟩ := (allocBothAllOrNothing _ _ _ pu pa).1 a9
    have hu' : alloc (List.map account (sideEntries s c.args es p.user s.usedUser)) (range 0 (List.length es)) = some pu := hu
    have ha' : alloc (List.map account (sideEntries s c.args es p.app s.usedApp)) (range 0 (List.length es)) = some pa := ha2
    have ⟨lu, la, wu, wa⟩ := hq
    have chU := sideChargeZ s c.args es p.user s.usedUser lu.symm wu pu hu'
    have chA := sideChargeZ s c.args es p.app s.usedApp la.symm wa pa ha'
    have hstep := stepFullAllow p s c o l pu pa k hv
    have su : (stepFull p s c o).2.usedUser = addVec s.usedUser (chargeVec 0 (List.length s.usedUser) pu) := by
      rw [hstep, (observeKeeps _ _ _ o).1]; rfl
    have sa : (stepFull p s c o).2.usedApp = addVec s.usedApp (chargeVec 0 (List.length s.usedApp) pa) := by
      rw [hstep, (observeKeeps _ _ _ o).2.1]; rfl
    have hx : ctxOf p s c = (s, c.args, es) := by simp only [ctxOf, hp]; rfl
    have ih := clientLedgers p cs (stepFull p s c o).2 (stepFullQuota p s c o hq) hc
    have e1 : ctxsOf p s ((c, o) :: cs) = ctxOf p s c :: ctxsOf p (stepFull p s c o).2 cs := rfl
    have e2 : runFull p s ((c, o) :: cs) = ((stepFull p s c o).1 :: (runFull p (stepFull p s c o).2 cs).1,
        (runFull p (stepFull p s c o).2 cs).2) := rfl
    rw [e1, e2, hx]
    show (match chargeBoth effsX (s, c.args, es) (ledgerOf (polOf p.user) s.usedUser) (ledgerOf (polOf p.app) s.usedApp) with
      | none => none
      | some (p', a') => runBoth effsX p' a' (ctxsOf p (stepFull p s c o).2 cs)) = _
    have hb : chargeBoth effsX (s, c.args, es) (ledgerOf (polOf p.user) s.usedUser) (ledgerOf (polOf p.app) s.usedApp) =
        some (ledgerOf (polOf p.user) (stepFull p s c o).2.usedUser, ledgerOf (polOf p.app) (stepFull p s c o).2.usedApp) := by
      simp only [chargeBoth]; rw [chU, chA, su, sa]
    rw [hb]
    exact ih

/-- Section 7.1 (1) for the whole monitor's admissions: if the old and new lists' ledgers are
related by the structural certificates, every client trace of the old monitor, presented call by
call to the allocator as the monitor decided it, is served by first-fit on the new ledgers at every
length, and the successor ledgers stay related. -/
theorem monitorClientsPreserved (D : Ctx → Prop) (p : Policy) (u' a' : List Grant) (uu ua : List Nat) (s : State)
    (hq : QuotaOk p s) (hP : Rev D (ledgerOf (polOf p.user) s.usedUser) (ledgerOf (polOf u') uu))
    (hA : Rev D (ledgerOf (polOf p.app) s.usedApp) (ledgerOf (polOf a') ua))
    (cs : List (Call × Outcome)) (hc : Client p s cs) (hd : ∀ x, x ∈ ctxsOf p s cs → D x) :
    ∃ Pf' Af', runBoth effsX (ledgerOf (polOf u') uu) (ledgerOf (polOf a') ua) (ctxsOf p s cs) = some (Pf', Af') ∧
      Rev D (ledgerOf (polOf p.user) (runFull p s cs).2.usedUser) Pf' ∧
      Rev D (ledgerOf (polOf p.app) (runFull p s cs).2.usedApp) Af' :=
  revPreservesClients effsX D hP hA (ctxsOf p s cs) hd _ _ (clientLedgers p cs s hq hc)

end AgentWarrant.Monitor.Full
