import AgentWarrant.Thm.Monitor.Full.Determinism
import AgentWarrant.Thm.Revision.Safety
/-! Section 7.1, part 2, on the whole monitor, for one step: a revision replaces the two permission
lists and nothing else (`revisedP`: nodes, edges, agents, tools, resolvers, origins, flows and
histories stay). The safety state is the records (labels, lineage, admitted trace, success flags),
the bindings, the invalid slots and the satisfied requirements (`SafetyEq`); the new monitor's
state may differ from the old one only in the counters and the permits (`revisedS`). Identical
observations: the same call and the same outcome.

Then every admission of the old monitor is an admission of the new one with the same label, and
the two successors have identical safety states, under three named hypotheses about the new lists
at this call: their first-fit serves the call (the subject of §7.1 part 1), they add no explicit
deny on its effects that the old lists lacked (`NoNewDeny`'s form here), and if the grants they
choose need an exact-call permit, the new state holds an unconsumed one; and (for the extensions beyond
Agenra, `Spec/Monitor/Extensions.lean`) when the old state held a reviewer's approval of the call, the
new state holds one too. Preparation, the label,
the structural checks, origin, flow and history are computed from the unchanged parts, so they need
no hypothesis; Pause and "no matching allow" are excluded by the successful new allocation (the
closed core's `servedChecks`). Over whole traces (`runFullRevised`): every client trace of the old
monitor (every call admitted) is admitted call by call by the new monitor with the same labels, and
the safety states stay identical, when the four hypotheses hold at every step of the paired run
(`RevHyps`; the closed core's `AllocSim` is a way to supply the allocation one). -/
namespace AgentWarrant.Monitor.Full
open Lean AgentWarrant.Monitor AgentWarrant.Monitor.Run

/-- The revised policy: the same policy with new permission lists. -/
def revisedP (p : Policy) (u' a' : List Grant) : Policy := { p with user := u', app := a' }

/-- A state with the same safety state and possibly other counters and permits. -/
def revisedS (s : State) (uu ua : List Nat) (pm : List Permit) : State :=
  { s with usedUser := uu, usedApp := ua, permits := pm }

/-- Identical safety states: records, bindings, invalid slots, satisfied requirements. -/
def SafetyEq (s s' : State) : Prop :=
  s'.trace = s.trace ∧ s'.bindings = s.bindings ∧ s'.invalid = s.invalid ∧ s'.satisfied = s.satisfied

theorem originOkRev (p p' : Policy) (s : State) (uu ua : List Nat) (pm : List Permit) (c : Call) (t : Tool)
    (h : p'.origins = p.origins) : originOk p' (revisedS s uu ua pm) c t = originOk p s c t := by
  simp only [originOk, h]; rfl

theorem historyOkRev (p p' : Policy) (s : State) (uu ua : List Nat) (pm : List Permit) (c : Call) (t : Tool)
    (h : p'.histories = p.histories) : historyOk p' (revisedS s uu ua pm) c t = historyOk p s c t := by
  simp only [historyOk, h]; rfl

theorem observeSafety (p p' : Policy) (s s' : State) (d : Nat) (o : Outcome) (hr : p'.resolvers = p.resolvers)
    (h : SafetyEq s s') : SafetyEq (observe p s d o) (observe p' s' d o) := by
  cases s with
  | mk tr bs inv uu ua sat pm =>
  cases s' with
  | mk tr' bs' inv' uu' ua' sat' pm' =>
  have ⟨h1, h2, h3, h4⟩ := h
  have e1 : tr' = tr := h1
  have e2 : bs' = bs := h2
  have e3 : inv' = inv := h3
  have e4 : sat' = sat := h4
  subst e1; subst e2; subst e3; subst e4
  cases p with
  | mk n e a t rs o' f hi u ap =>
  cases p' with
  | mk n' e' a' t' rs' o'' f' hi' u' ap' =>
  have e5 : rs' = rs := hr
  subst e5
  cases o with
  | mk ok v =>
    cases ok with
    | false => exact ⟨rfl, rfl, rfl, rfl⟩
    | true =>
      cases hx : nth? tr' d with
      | none => simp [observe, State.record?, hx]; exact ⟨rfl, rfl, rfl, rfl⟩
      | some r =>
        simp only [observe, State.record?, hx]
        cases List.foldl (bindOne v d) (bs', inv')
          (List.filter (fun x => x.tool == r.tool && jeq x.args (argsJson r.args)) rs') with
        | mk b i => exact ⟨rfl, rfl, rfl, rfl⟩

/-- The whole step on the revised policy, for a call the old monitor admits. -/
theorem decideFullRevised (p : Policy) (u' a' : List Grant) (s : State) (uu ua : List Nat) (pm : List Permit)
    (c : Call) (l : Label) (pu pa : List Nat) (k : Option Nat) (hold : decideFull p s c = Verdict.allow l pu pa k)
    (t : Tool) (es : List Effect) (hp : prepare p s c = Except.ok (t, es)) (pu' pa' : List Nat)
    (hnew : allocBoth (List.map account (sideEntries (revisedS s uu ua pm) c.args es u' uu))
      (List.map account (sideEntries (revisedS s uu ua pm) c.args es a' ua)) (range 0 (List.length es)) = some (pu', pa'))
    (hdeny : anyDeny (sideEntries (revisedS s uu ua pm) c.args es u' uu) (sideEntries (revisedS s uu ua pm) c.args es a' ua)
        (range 0 (List.length es)) = true →
      anyDeny (sideEntries s c.args es p.user s.usedUser) (sideEntries s c.args es p.app s.usedApp)
        (range 0 (List.length es)) = true)
    (hpermit : extCheck p s c t es l = Ext.allow → (chosenNeedPermit u' pu' || chosenNeedPermit a' pa') = true →
      ∃ q, findPermit (revisedS s uu ua pm) c = Except.ok q)
    (happrove : ∀ q, findApproval s c = some q → ∃ q', findApproval (revisedS s uu ua pm) c = some q') :
    ∃ k', decideFull (revisedP p u' a') (revisedS s uu ua pm) c = Verdict.allow l pu' pa' k' := by
  have ⟨t0, es0, hp0, hcore⟩ := decideFullAllow p s c l pu pa k hold
  rw [hp] at hp0
  cases hp0
  have hp' : prepare (revisedP p u' a') (revisedS s uu ua pm) c = Except.ok (t, es) := hp
  have hci : coreInput (revisedP p u' a') (revisedS s uu ua pm) c t es =
      { coreInput p s c t es with user := sideEntries (revisedS s uu ua pm) c.args es u' uu,
                                  app := sideEntries (revisedS s uu ua pm) c.args es a' ua } := by
    have ho := originOkRev p (revisedP p u' a') s uu ua pm c t rfl
    have hh := historyOkRev p (revisedP p u' a') s uu ua pm c t rfl
    simp only [coreInput]
    rw [ho, hh]
    rfl
  have hdec := decideRevised (coreInput p s c t es) _ _ l pu pa pu' pa' hcore hnew hdeny
  rw [← hci] at hdec
  have eu : (revisedP p u' a').user = u' := rfl
  have ea : (revisedP p u' a').app = a' := rfl
  -- the extensions read no permission list, counter or permit except through the approval
  have ex : extCheck (revisedP p u' a') (revisedS s uu ua pm) c t es l = extCheck p s c t es l := rfl
  cases hx : extCheck p s c t es l with
  | deny => simp [decideFull, hp, hcore, hx] at hold
  | pause =>
    have hx' : extCheck (revisedP p u' a') (revisedS s uu ua pm) c t es l = Ext.pause := by rw [ex, hx]
    cases ha : findApproval s c with
    | none => simp [decideFull, hp, hcore, hx, ha] at hold
    | some q =>
      have ⟨q', hq'⟩ := happrove q ha
      exact ⟨some q', by simp [decideFull, hp', hdec, hx', hq']⟩
  | allow =>
  have hx' : extCheck (revisedP p u' a') (revisedS s uu ua pm) c t es l = Ext.allow := by rw [ex, hx]
  cases hn : (chosenNeedPermit u' pu' || chosenNeedPermit a' pa') with
  | false => exact ⟨none, by simp [decideFull, hp', hdec, eu, ea, hx', hn]⟩
  | true =>
    have ⟨q, hq⟩ := hpermit hx hn
    exact ⟨some q, by simp [decideFull, hp', hdec, eu, ea, hx', hn, hq]⟩

/-- When both monitors admit a call, with identical observations (same call, same outcome), the
successors' safety states are identical. -/
theorem stepFullRevisedSafety (p : Policy) (u' a' : List Grant) (s : State) (uu ua : List Nat) (pm : List Permit)
    (c : Call) (o : Outcome) (l : Label) (pu pa pu' pa' : List Nat) (k k' : Option Nat)
    (hold : decideFull p s c = Verdict.allow l pu pa k)
    (hnew : decideFull (revisedP p u' a') (revisedS s uu ua pm) c = Verdict.allow l pu' pa' k') :
    SafetyEq (stepFull p s c o).2 (stepFull (revisedP p u' a') (revisedS s uu ua pm) c o).2 := by
  rw [stepFullAllow p s c o l pu pa k hold, stepFullAllow _ _ c o l pu' pa' k' hnew]
  exact observeSafety p (revisedP p u' a') _ _ _ o rfl ⟨rfl, rfl, rfl, rfl⟩

/-- Section 7.1 (2) on the whole monitor, one step: every old admission is a new admission with
the same label, and the safety states stay identical. -/
theorem stepFullRevised (p : Policy) (u' a' : List Grant) (s : State) (uu ua : List Nat) (pm : List Permit)
    (c : Call) (o : Outcome) (l : Label) (pu pa : List Nat) (k : Option Nat) (hold : decideFull p s c = Verdict.allow l pu pa k)
    (t : Tool) (es : List Effect) (hp : prepare p s c = Except.ok (t, es)) (pu' pa' : List Nat)
    (hnew : allocBoth (List.map account (sideEntries (revisedS s uu ua pm) c.args es u' uu))
      (List.map account (sideEntries (revisedS s uu ua pm) c.args es a' ua)) (range 0 (List.length es)) = some (pu', pa'))
    (hdeny : anyDeny (sideEntries (revisedS s uu ua pm) c.args es u' uu) (sideEntries (revisedS s uu ua pm) c.args es a' ua)
        (range 0 (List.length es)) = true →
      anyDeny (sideEntries s c.args es p.user s.usedUser) (sideEntries s c.args es p.app s.usedApp)
        (range 0 (List.length es)) = true)
    (hpermit : (chosenNeedPermit u' pu' || chosenNeedPermit a' pa') = true →
      ∃ q, findPermit (revisedS s uu ua pm) c = Except.ok q)
    (happrove : ∀ q, findApproval s c = some q → ∃ q', findApproval (revisedS s uu ua pm) c = some q') :
    ∃ k', (stepFull (revisedP p u' a') (revisedS s uu ua pm) c o).1 = Verdict.allow l pu' pa' k' ∧
      SafetyEq (stepFull p s c o).2 (stepFull (revisedP p u' a') (revisedS s uu ua pm) c o).2 := by
  have ⟨k', hk⟩ := decideFullRevised p u' a' s uu ua pm c l pu pa k hold t es hp pu' pa' hnew hdeny
    (fun _ => hpermit) happrove
  exact ⟨k', by rw [stepFullVerdict]; exact hk, stepFullRevisedSafety p u' a' s uu ua pm c o l pu pa pu' pa' k k' hold hk⟩

theorem safetyRevisedS (s s' : State) (h : SafetyEq s s') : s' = revisedS s s'.usedUser s'.usedApp s'.permits := by
  cases s with
  | mk tr bs inv uu ua sat pm =>
  cases s' with
  | mk tr' bs' inv' uu' ua' sat' pm' =>
  have ⟨h1, h2, h3, h4⟩ := h
  have e1 : tr' = tr := h1
  have e2 : bs' = bs := h2
  have e3 : inv' = inv := h3
  have e4 : sat' = sat := h4
  subst e1; subst e2; subst e3; subst e4
  rfl

/-- The hypotheses about the new lists (and the new state's approvals) at one step, for states `s` (old) and `s'` (new). -/
def RevStep (p : Policy) (u' a' : List Grant) (s s' : State) (c : Call) : Prop :=
  ∀ l pu pa k t es, decideFull p s c = Verdict.allow l pu pa k → prepare p s c = Except.ok (t, es) →
    ∃ pu' pa',
      allocBoth (List.map account (sideEntries s' c.args es u' s'.usedUser))
        (List.map account (sideEntries s' c.args es a' s'.usedApp)) (range 0 (List.length es)) = some (pu', pa') ∧
      (anyDeny (sideEntries s' c.args es u' s'.usedUser) (sideEntries s' c.args es a' s'.usedApp)
          (range 0 (List.length es)) = true →
        anyDeny (sideEntries s c.args es p.user s.usedUser) (sideEntries s c.args es p.app s.usedApp)
          (range 0 (List.length es)) = true) ∧
      ((chosenNeedPermit u' pu' || chosenNeedPermit a' pa') = true → ∃ q, findPermit s' c = Except.ok q) ∧
      (∀ q, findApproval s c = some q → ∃ q', findApproval s' c = some q')

/-- The hypotheses at every step of the paired run. -/
def RevHyps (p : Policy) (u' a' : List Grant) : State → State → List (Call × Outcome) → Prop
  | _, _, [] => True
  | s, s', (c, o) :: cs => RevStep p u' a' s s' c ∧
    RevHyps p u' a' (stepFull p s c o).2 (stepFull (revisedP p u' a') s' c o).2 cs

/-- A client trace of the old monitor: it admits every call. -/
def Client (p : Policy) : State → List (Call × Outcome) → Prop
  | _, [] => True
  | s, (c, o) :: cs => isAllowV (stepFull p s c o).1 = true ∧ Client p (stepFull p s c o).2 cs

def verdictLabel : Verdict → Option Label
  | Verdict.allow l _ _ _ => some l
  | _ => none

theorem allowOfV {v : Verdict} (h : isAllowV v = true) : ∃ l pu pa k, v = Verdict.allow l pu pa k := by
  cases v with
  | allow l pu pa k => exact ⟨l, pu, pa, k, rfl⟩
  | pause w => simp [isAllowV] at h
  | deny r => simp [isAllowV] at h

/-- Section 7.1 (2) on the whole monitor over client traces. -/
theorem runFullRevised (p : Policy) (u' a' : List Grant) : ∀ (cs : List (Call × Outcome)) (s s' : State),
    SafetyEq s s' → Client p s cs → RevHyps p u' a' s s' cs →
    List.map verdictLabel (runFull (revisedP p u' a') s' cs).1 = List.map verdictLabel (runFull p s cs).1 ∧
    allB isAllowV (runFull (revisedP p u' a') s' cs).1 = true ∧
    SafetyEq (runFull p s cs).2 (runFull (revisedP p u' a') s' cs).2
  | [], s, s', hs, _, _ => ⟨rfl, rfl, hs⟩
  | (c, o) :: cs, s, s', hs, ⟨ha, hc⟩, ⟨hst, hh⟩ => by
    have ⟨l, pu, pa, k, hv⟩ := allowOfV ha
    rw [stepFullVerdict] at hv
    have ⟨t, es, hp, _⟩ := decideFullAllow p s c l pu pa k hv
    have ⟨pu', pa', hnew, hdeny, hpermit, happrove⟩ := hst l pu pa k t es hv hp
    have e := safetyRevisedS s s' hs
    rw [e] at hnew hdeny hpermit happrove hh
    have ⟨k', hk, hsafe⟩ := stepFullRevised p u' a' s s'.usedUser s'.usedApp s'.permits c o l pu pa k hv t es hp pu' pa'
      hnew hdeny hpermit happrove
    rw [← e] at hk hsafe hh
    have ih := runFullRevised p u' a' cs _ _ hsafe hc hh
    have r1 : runFull p s ((c, o) :: cs) = ((stepFull p s c o).1 :: (runFull p (stepFull p s c o).2 cs).1,
        (runFull p (stepFull p s c o).2 cs).2) := rfl
    have r2 : runFull (revisedP p u' a') s' ((c, o) :: cs) =
        ((stepFull (revisedP p u' a') s' c o).1 :: (runFull (revisedP p u' a') (stepFull (revisedP p u' a') s' c o).2 cs).1,
          (runFull (revisedP p u' a') (stepFull (revisedP p u' a') s' c o).2 cs).2) := rfl
    rw [r1, r2]
    have hv' : (stepFull p s c o).1 = Verdict.allow l pu pa k := by rw [stepFullVerdict]; exact hv
    refine ⟨?_, ?_, ih.2.2⟩
    · simp only [List.map]
      rw [hk, hv', ih.1]
      rfl
    · simp only [allB]
      rw [hk]
      exact ih.2.1

end AgentWarrant.Monitor.Full
