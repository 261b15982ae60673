import AgentWarrant.Spec.Edits.TreeContractInst
/-! The guarded `Derive` installs only instances whose outcomes are `⟦T'⟧` of the installed tree
(`tciGuard`, `Spec/Edits/TreeContractInst.lean`; *When Can Agents Safely Checkpoint, Fork, Restore, and
Merge?*, Sections IV-A and IV-B1): a guarded derivation agrees (`tciGuardAgrees`), `Ready` answers only
with the derivation `Derive` gives (`tciReadyDerive`), so a rule update that commits (`tciUpdateAgrees`,
`tciCommitAgrees`) and an accepted ideal edit (`tciEditIAgrees`, `tciStepIAgrees`) install an instance
and tree on which `instOutcomesAgreeB` holds. An extension's install is not covered: it installs no
`Derive`. -/
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

end AgentWarrant.Edits.Machine
