import AgentWarrant.Spec.Monitor.Trace
import AgentWarrant.Thm.Monitor.Invariants
import AgentWarrant.Thm.Monitor.Transition
/-! No counter exceeds its quota on either list, for the whole monitor over every trace (Agenra
Section 6.1). The quotas are the installed policy's (`Policy.user`, `Policy.app`); the hypothesis
is that the starting state's counters have one entry per grant and start within quota
(`QuotaOk`). The step's allocation is the closed core's first-fit on entries that the whole
monitor builds from the policy and the state (`sideEntries`), so the closed core's accounting
(`allocCharged`, `chargeWithin`) carries over once those entries are shown to carry the policy's
quotas and the state's counters. Result processing never touches the counters. -/
namespace AgentWarrant.Monitor.Full
open Lean AgentWarrant.Monitor AgentWarrant.Monitor.Run

/-- The state's counters have one entry per grant of each list and each is within its quota. -/
def QuotaOk (p : Policy) (s : State) : Prop :=
  List.length s.usedUser = List.length p.user ∧ List.length s.usedApp = List.length p.app ∧
  WithinL (List.map Grant.quota p.user) s.usedUser ∧ WithinL (List.map Grant.quota p.app) s.usedApp

def zipEntries (s : State) (args : List (String × Json)) (es : List Effect) (gs : List Grant) (us : List Nat) :
    List Entry :=
  (List.zip gs us).map (fun p => entryOf s args es p.1 p.2)

theorem appendReplicateZero (us : List Nat) : us ++ List.replicate 0 0 = us := List.append_nil us

theorem sideEntriesZip (s : State) (args : List (String × Json)) (es : List Effect) (gs : List Grant) (us : List Nat)
    (hl : List.length gs = List.length us) : sideEntries s args es gs us = zipEntries s args es gs us := by
  simp only [sideEntries, zipEntries]
  rw [hl, Nat.sub_self, appendReplicateZero]

theorem zipEntriesFacts (s : State) (args : List (String × Json)) (es : List Effect) :
    ∀ (gs : List Grant) (us : List Nat), List.length gs = List.length us →
    List.map Entry.quota (zipEntries s args es gs us) = List.map Grant.quota gs ∧
    List.map Entry.used (zipEntries s args es gs us) = us ∧
    List.length (zipEntries s args es gs us) = List.length us
  | [], [], _ => ⟨rfl, rfl, rfl⟩
  | [], _ :: _, h => by simp [List.length_cons] at h
  | _ :: _, [], h => by simp [List.length_cons] at h
  | g :: gs, u :: us, h => by
    simp [List.length_cons] at h
    have ⟨a, b, c⟩ := zipEntriesFacts s args es gs us h
    have e : zipEntries s args es (g :: gs) (u :: us) = entryOf s args es g u :: zipEntries s args es gs us := rfl
    rw [e]
    simp [List.map, a, b, List.length_cons, c, entryOf]

/-- Result processing leaves the counters, the satisfied requirements, the permits and the trace's
length as they were. -/
theorem observeKeeps (p : Policy) (s : State) (d : Nat) (o : Outcome) :
    (observe p s d o).usedUser = s.usedUser ∧ (observe p s d o).usedApp = s.usedApp ∧
    (observe p s d o).satisfied = s.satisfied ∧ (observe p s d o).permits = s.permits := by
  cases o with
  | mk ok v =>
    cases ok with
    | false => simp [observe]
    | true =>
      cases hr : s.record? d with
      | none => simp [observe, hr]
      | some r =>
        simp only [observe, hr]
        cases List.foldl (bindOne v d) (s.bindings, s.invalid)
          (List.filter (fun x => x.tool == r.tool && jeq x.args (argsJson r.args)) p.resolvers) with
        | mk bs inv => exact ⟨rfl, rfl, rfl, rfl⟩

/-- What an Allow of the whole monitor rests on: the call prepared to a tool and effects, and the
closed core's cascade on the input built from the policy and the state allowed it. -/
theorem decideFullAllow (p : Policy) (s : State) (c : Call) (l : Label) (pu pa : List Nat) (k : Option Nat)
    (h : decideFull p s c = Verdict.allow l pu pa k) :
    ∃ t es, prepare p s c = Except.ok (t, es) ∧ Monitor.decide (coreInput p s c t es) = Decision.allow l pu pa := by
  cases hp : prepare p s c with
  | error why => simp [decideFull, hp] at h
  | ok te =>
    cases te with
    | mk t es =>
      refine ⟨t, es, rfl, ?_⟩
      cases hd : Monitor.decide (coreInput p s c t es) with
      | allow l' pu' pa' =>
        cases hx : extCheck p s c t es l' with
        | deny => simp [decideFull, hp, hd, hx] at h
        | pause =>
          cases ha : findApproval s c with
          | some q => simp [decideFull, hp, hd, hx, ha] at h; simp [h]
          | none => simp [decideFull, hp, hd, hx, ha] at h
        | allow =>
        cases hn : chosenNeedPermit p.user pu' || chosenNeedPermit p.app pa' with
        | true =>
          cases hf : findPermit s c with
          | ok q => simp [decideFull, hp, hd, hx, hn, hf] at h; simp [h]
          | error w => simp [decideFull, hp, hd, hx, hn, hf] at h
        | false => simp [decideFull, hp, hd, hx, hn] at h; simp [h]
      | pause w => simp [decideFull, hp, hd] at h
      | deny r => cases r <;> simp [decideFull, hp, hd] at h

theorem lengthAddCharge (us pu : List Nat) : List.length (addVec us (chargeVec 0 (List.length us) pu)) = List.length us :=
  lengthAddVec _ _ (lengthChargeVec _ _ _)

/-- One whole-monitor step keeps every counter of both lists within its quota. -/
theorem stepFullQuota (p : Policy) (s : State) (c : Call) (o : Outcome) (h : QuotaOk p s) :
    QuotaOk p (stepFull p s c o).2 := by
  have ⟨lu, la, wu, wa⟩ := h
  cases hd : decideFull p s c with
  | pause w => rw [stepFullOnlyAllowChanges p s c o (fun l pu pa k e => by rw [hd] at e; cases e)]; exact h
  | deny r => rw [stepFullOnlyAllowChanges p s c o (fun l pu pa k e => by rw [hd] at e; cases e)]; exact h
  | allow l pu pa k =>
    have e : (stepFull p s c o).2 = observe p (commit p s c l pu pa k) s.trace.length o := by simp [stepFull, hd]
    rw [e]
    have ⟨ku, ka, _, _⟩ := observeKeeps p (commit p s c l pu pa k) s.trace.length o
    simp only [QuotaOk]
    rw [ku, ka]
    have cu : (commit p s c l pu pa k).usedUser = addVec s.usedUser (chargeVec 0 (List.length s.usedUser) pu) := rfl
    have ca : (commit p s c l pu pa k).usedApp = addVec s.usedApp (chargeVec 0 (List.length s.usedApp) pa) := rfl
    rw [cu, ca]
    have ⟨t, es, _, hcore⟩ := decideFullAllow p s c l pu pa k hd
    have ha := (allocBothAllOrNothing _ _ _ pu pa).1 (decideAllow _ _ _ _ hcore).2.2.2.2.2.2.2.2.1
    have eu : (coreInput p s c t es).user = zipEntries s c.args es p.user s.usedUser :=
      sideEntriesZip s c.args es p.user s.usedUser lu.symm
    have ea : (coreInput p s c t es).app = zipEntries s c.args es p.app s.usedApp :=
      sideEntriesZip s c.args es p.app s.usedApp la.symm
    have ⟨qu, uu, nu⟩ := zipEntriesFacts s c.args es p.user s.usedUser lu.symm
    have ⟨qa, ua, na⟩ := zipEntriesFacts s c.args es p.app s.usedApp la.symm
    have ⟨lfu, hcu⟩ := allocCharged _ _ _ ha.1
    have ⟨lfa, hca⟩ := allocCharged _ _ _ ha.2
    rw [eu] at hcu
    rw [ea] at hca
    have ru := chargeWithin 0 _ lfu pu hcu (by rw [qu, uu]; exact wu)
    have ra := chargeWithin 0 _ lfa pa hca (by rw [qa, ua]; exact wa)
    rw [qu, uu, nu] at ru
    rw [qa, ua, na] at ra
    exact ⟨by rw [← lu]; exact lengthAddCharge _ _, by rw [← la]; exact lengthAddCharge _ _, ru, ra⟩

/-- Over every trace: starting within quota, no counter of either list ever exceeds its quota. -/
theorem runFullQuota (p : Policy) : ∀ (cs : List (Call × Outcome)) (s : State), QuotaOk p s → QuotaOk p (runFull p s cs).2
  | [], s, h => h
  | (c, o) :: cs, s, h => runFullQuota p cs (stepFull p s c o).2 (stepFullQuota p s c o h)

end AgentWarrant.Monitor.Full
