import AgentWarrant.Spec.Edits.TreeContractInst
/-! The guarded `Derive` installs only instances whose outcomes are `⟦T'⟧` of the installed tree
(`tciGuard`, `Spec/Edits/TreeContractInst.lean`; *When Can Agents Safely Checkpoint, Fork, Restore, and
Merge?*, Sections IV-A and IV-B1): a guarded derivation agrees (`tciGuardAgrees`), `Ready` answers only
with the derivation `Derive` gives (`tciReadyDerive`), so a rule update that commits (`tciUpdateAgrees`,
`tciCommitAgrees`) and an accepted ideal edit (`tciEditIAgrees`, `tciStepIAgrees`) install an instance
and tree on which `instOutcomesAgreeB` holds. An extension installs no `Derive` but the machine's own
`extInst` with the record's tree; on the machines the oracles run (`tciCommit`, `tciStepI`: the guarded
`Derive`, and an extension refused unless `tciExtOk`), an extension that commits installs an instance and
tree on which `instOutcomesAgreeB` holds too (`tciExtendInstalls`, `tciCommitExtAgrees`,
`tciStepIExtAgrees`), and a rule update or an edit is the unrefused step (`tciCommitUpdateAgrees`,
`tciStepIEditAgrees`). -/
namespace AgentWarrant.Edits.Machine
open AgentWarrant AgentWarrant.Edits

theorem tciGuardAgrees {D : Derivation} {c : Core} {u : Nat} {d : Derived} (h : tciGuard D c u = some d) :
    instOutcomesAgreeB d.inst d.tree = true := by
  cases hD : D c u with
  | none => simp [tciGuard, hD] at h
  | some d' =>
    cases hb : instOutcomesAgreeB d'.inst d'.tree with
    | false => simp [tciGuard, hD, hb] at h
    | true =>
      have h' : d' = d := by simp [tciGuard, hD, hb] at h; exact h
      rw [← h']; exact hb

/-- `Ready` answers with the derivation `Derive` gives at the record. -/
theorem tciReadyDerive {D : Derivation} {c : Core} {u : Nat} {y : Answer} {d : Derived}
    (h : ready D c u y = Except.ok d) : D c u = some d := by
  cases y with
  | invalid _ _ => cases h
  | rejected _ _ => cases h
  | accepted v cut etaOld etaNew safe =>
    revert h
    simp only [ready]
    cases Nat.beq v u <;> simp
    cases decide (cut = c) <;> simp
    cases decide (c.eta = etaOld) <;> simp
    cases unallocated c etaNew <;> simp
    cases hD : D c u with
    | none => simp
    | some d' =>
      simp
      cases decide (safeSet (build d'.inst) = safe) <;> cases Nat.beq d'.etaNew etaNew <;> simp
      cases safe with
      | nil => simp
      | cons s ss => simp; intro e; rw [e]

theorem tciUpdateAgrees {D : Derivation} {S S' : RState} {u e : Nat} {y : Answer}
    (h : tryUpdate (tciGuard D) S u y = (Obs.updated e, S')) : instOutcomesAgreeB S'.core.inst S'.core.tree = true := by
  revert h
  simp only [tryUpdate]
  cases hr : ready (tciGuard D) S.core u y with
  | error w => simp
  | ok d =>
    have hd := tciGuardAgrees (tciReadyDerive hr)
    simp
    cases findPrep d.etaNew S.prepared with
    | none => intro hh; simp at hh; rw [← hh.2]; exact hd
    | some p =>
      simp
      cases decide (p.edit = u ∧ p.cut = S.core ∧ p.etaOld = S.core.eta) <;>
        cases decide (p.safe = safeSet (build d.inst)) <;> intro hh <;> simp at hh <;> rw [← hh.2] <;> exact hd

theorem tciEditIAgrees {D : Derivation} {c c' : Core} {u : Nat}
    (h : editI (tciGuard D) c u = (Obs.accepted, c')) : instOutcomesAgreeB c'.inst c'.tree = true := by
  revert h
  simp only [editI]
  cases hD : tciGuard D c u with
  | none => simp
  | some d =>
    have hd := tciGuardAgrees hD
    simp
    cases safeSet (build d.inst) with
    | nil => simp
    | cons s ss => simp; intro hc; rw [← hc]; exact hd

/-- A committed rule update of the durable runtime on the guarded `Derive`. -/
theorem tciCommitAgrees {D : Derivation} {St St' : Store} {u e : Nat} {y : Answer}
    (h : commit (tciGuard D) St (Ev.update u y) = (Obs.updated e, St')) :
    instOutcomesAgreeB St'.committed.core.inst St'.committed.core.tree = true := by
  revert h
  simp only [commit, stepR]
  cases hT : tryUpdate (tciGuard D) St.committed u y with
  | mk o S' =>
    intro hh
    simp at hh
    rw [← hh.2]
    rw [hh.1] at hT
    exact tciUpdateAgrees hT

/-- An accepted edit of the ideal machine on the guarded `Derive`. -/
theorem tciStepIAgrees {D : Derivation} {c c' : Core} {u : Nat}
    (h : stepI (tciGuard D) c (IEv.edit u) = (Obs.accepted, c')) : instOutcomesAgreeB c'.inst c'.tree = true :=
  tciEditIAgrees h

/-- An `Extend(ξ)` that commits installs `extInst` with the record's tree, so `tciExtOk` is the verdict on
what it installs. -/
theorem tciExtendInstalls {c : Core} {dfa : Dfa} {en e : Nat} {ok : Bool}
    (h : (extendStep c dfa en ok).1 = Obs.updated e) (hx : tciExtOk c dfa = true) :
    instOutcomesAgreeB (pickCore c (extendStep c dfa en ok).2).inst (pickCore c (extendStep c dfa en ok).2).tree
      = true := by
  revert h
  simp only [extendStep]
  cases c.eta with
  | none => simp
  | some _ =>
    cases ok with
    | false => simp
    | true =>
      simp only
      cases unallocated c en with
      | false => simp
      | true =>
        simp only
        cases safeSet (build (extInst c dfa)) with
        | nil => simp
        | cons s ss => intro _; simp only [pickCore, install, extDerived]; exact hx

theorem tciPickCore (S : RState) (oc : Option Core) : (pickR S oc).core = pickCore S.core oc := by
  cases oc <;> rfl

/-- An extension that commits on the oracles' runtime installs an instance whose outcomes are `⟦T⟧` of
the installed tree. -/
theorem tciCommitExtAgrees {D : Derivation} {St St' : Store} {dfa : Dfa} {en e : Nat} {ok : Bool}
    (h : tciCommit D St (Ev.extend dfa en ok) = (Obs.updated e, St')) :
    instOutcomesAgreeB St'.committed.core.inst St'.committed.core.tree = true := by
  cases hb : tciExtOk St.committed.core dfa with
  | false =>
    have hr : tciExtRefused St.committed.core (Ev.extend dfa en ok) = true := by simp [tciExtRefused, hb]
    simp [tciCommit, hr] at h
  | true =>
    have hr : tciExtRefused St.committed.core (Ev.extend dfa en ok) = false := by simp [tciExtRefused, hb]
    simp only [tciCommit, hr, commit, stepR] at h
    have h1 := congrArg Prod.fst h
    have h2 := congrArg (fun p => p.2.committed.core) h
    simp only at h1 h2
    rw [← h2]
    simp only [extendR, tciPickCore]
    exact tciExtendInstalls h1 hb

/-- A rule update on the oracles' runtime is the guarded machine's. -/
theorem tciCommitUpdateAgrees {D : Derivation} {St St' : Store} {u e : Nat} {y : Answer}
    (h : tciCommit D St (Ev.update u y) = (Obs.updated e, St')) :
    instOutcomesAgreeB St'.committed.core.inst St'.committed.core.tree = true := by
  have hc : tciCommit D St (Ev.update u y) = commit (tciGuard D) St (Ev.update u y) := rfl
  rw [hc] at h
  exact tciCommitAgrees h

/-- An extension that commits on the oracles' ideal machine. -/
theorem tciStepIExtAgrees {D : Derivation} {c c' : Core} {dfa : Dfa} {en e : Nat} {ok : Bool}
    (h : tciStepI D c (IEv.extend dfa en ok) = (Obs.updated e, c')) : instOutcomesAgreeB c'.inst c'.tree = true := by
  cases hb : tciExtOk c dfa with
  | false =>
    have hr : tciIExtRefused c (IEv.extend dfa en ok) = true := by simp [tciIExtRefused, hb]
    simp [tciStepI, hr] at h
  | true =>
    have hr : tciIExtRefused c (IEv.extend dfa en ok) = false := by simp [tciIExtRefused, hb]
    simp only [tciStepI, hr, stepI] at h
    have h1 := congrArg Prod.fst h
    have h2 := congrArg Prod.snd h
    simp only at h1 h2
    rw [← h2]
    exact tciExtendInstalls h1 hb

/-- An accepted edit on the oracles' ideal machine is the guarded machine's. -/
theorem tciStepIEditAgrees {D : Derivation} {c c' : Core} {u : Nat}
    (h : tciStepI D c (IEv.edit u) = (Obs.accepted, c')) : instOutcomesAgreeB c'.inst c'.tree = true := by
  have hc : tciStepI D c (IEv.edit u) = stepI (tciGuard D) c (IEv.edit u) := rfl
  rw [hc] at h
  exact tciStepIAgrees h

end AgentWarrant.Edits.Machine
