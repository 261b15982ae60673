import AgentWarrant.Thm.Edits.DeriveCover
import AgentWarrant.Thm.Edits.Machine
/-! The ideal edit transition and exact checking (*When Can Agents Safely Checkpoint, Fork, Restore, and
Merge?*, Appendix A-A "the ideal edit transition", Section VII "exact checking") with the machine
model's `Derive` the Lean edit judgment (`derJ src tab`, `Spec/Edits/DeriveCover.lean`): the machine
theorems of `Thm/Edits/Machine.lean` hold for every `Derive` parameter, and `derJCheck` supplies the
declarative meaning of the checker's answer for the judgment's instances, so no coverage hypothesis
remains.

- `idealEditJudged`: an undefined derivation is `Invalid` and keeps the state; otherwise the derived
  instance is a judged one with `CoverWitnesses`, and the edit is `Reject` (state kept) exactly when
  the instance has no safe execution set, else `Accepted`, installing the checker's set, which with
  `W†` is the instance's maximal safe pair;
- `readyJudged`: the runtime's `Ready(S, u, Check(Θ_S(u)))` holds iff the judgment derives a record
  whose instance has a safe execution set and `η⁺` is unallocated (with `runtimeEditIsIdeal`, the
  rule update then makes exactly the ideal edge's change). -/
namespace AgentWarrant.Edits.JudgedMachine
open AgentWarrant AgentWarrant.Edits AgentWarrant.Edits.DeriveCover

theorem safeSetNeIff {i : Inst} : safeSet i ≠ [] ↔ accepts i = true := by
  constructor
  · intro h
    cases hs : safeSet i with
    | nil => exact absurd hs h
    | cons s ss => exact acceptsOfSafeSet hs
  · intro h hs
    simp only [accepts, hs] at h <;> exact Bool.noConfusion h

/-- The ideal edit transition with `Derive` the Lean edit judgment. -/
theorem idealEditJudged (src : Machine.Core → Tm × (Nat → Option Tm)) (tab : Nat → Option Entry)
    (c : Machine.Core) (u : Nat) :
    (derJ src tab c u = none →
      (Machine.editI (derJ src tab) c u).2 = c ∧
      Machine.answerObs (Machine.check (derJ src tab) c u) = Machine.Obs.invalid) ∧
    ∀ d, derJ src tab c u = some d → ∃ e D, tab u = some e ∧ judge (src c).1 (src c).2 e.req = some D ∧
      d.inst = inputOf D e.act e.lab (Machine.logActions c) e.dfa ∧
      Judged (thetaAt e D c) ∧ (thetaAt e D c).CoverWitnesses ∧
      ((¬ ∃ L B, (thetaAt e D c).Safe L B) →
        (Machine.editI (derJ src tab) c u).2 = c ∧
        Machine.answerObs (Machine.check (derJ src tab) c u) = Machine.Obs.rejected) ∧
      ((∃ L B, (thetaAt e D c).Safe L B) →
        (Machine.editI (derJ src tab) c u).2 = Machine.install c d (safeSet (build d.inst)) ∧
        Machine.answerObs (Machine.check (derJ src tab) c u) = Machine.Obs.accepted ∧
        (thetaAt e D c).MaxSafe (thetaAt e D c).Wdag (fun x => x ∈ safeSet (build d.inst))) := by
  have ⟨_, hN, hR, hA⟩ := Machine.editAnswersAgree (derJ src tab) c u
  refine ⟨hN, fun d hd => ?_⟩
  have ⟨e, D, ht, hj, hi, hJ, hcov, hiff, hmax⟩ := derJCheck src tab c u d hd
  refine ⟨e, D, ht, hj, hi, hJ, hcov, fun hno => ?_, fun hs => ?_⟩
  · have hempty : safeSet (build d.inst) = [] := by
      cases hss : safeSet (build d.inst) with
      | nil => rfl
      | cons s ss => exact absurd (hiff.1 (acceptsOfSafeSet hss)) hno
    exact hR d hd hempty
  · have hacc := hiff.2 hs
    have ⟨h1, h2⟩ := hA d hd (safeSetNeIff.2 hacc)
    exact ⟨h1, h2, hmax hacc⟩

/-- The runtime's readiness with `Derive` the Lean edit judgment: the rule update can commit exactly
when the judged instance has a safe execution set and `η⁺` is unallocated. -/
theorem readyJudged (src : Machine.Core → Tm × (Nat → Option Tm)) (tab : Nat → Option Entry)
    (c : Machine.Core) (u : Nat) :
    (∃ d, Machine.ready (derJ src tab) c u (Machine.check (derJ src tab) c u) = Except.ok d) ↔
    ∃ d e D, derJ src tab c u = some d ∧ tab u = some e ∧ judge (src c).1 (src c).2 e.req = some D ∧
      (∃ L B, (thetaAt e D c).Safe L B) ∧ Machine.unallocated c d.etaNew = true := by
  rw [Machine.readyIffAccepted]
  constructor
  · intro ⟨d, hd, hn, hu⟩
    have ⟨e, D, ht, hj, _, _, _, hiff, _⟩ := derJCheck src tab c u d hd
    exact ⟨d, e, D, hd, ht, hj, hiff.1 (safeSetNeIff.1 hn), hu⟩
  · intro ⟨d, e, D, hd, ht, hj, hs, hu⟩
    have ⟨e', D', ht', hj', _, _, _, hiff, _⟩ := derJCheck src tab c u d hd
    have ee : e = e' := Option.some.inj (ht.symm.trans ht')
    subst ee
    have eD : D = D' := Option.some.inj (hj.symm.trans hj')
    subst eD
    exact ⟨d, hd, safeSetNeIff.2 (hiff.2 hs), hu⟩

end AgentWarrant.Edits.JudgedMachine

namespace AgentWarrant.Thm
open AgentWarrant.Edits

/-- The ideal edit transition (A-A) with `Derive` the Lean edit judgment: `Invalid` (state kept) when
the judgment derives nothing; `Reject` (state kept) exactly when the derived instance has no safe
execution set; else `Accepted`, installing the checker's set, which with `W†` is its maximal safe
pair. -/
theorem idealEditUnderEditJudgment (src : Machine.Core → Tm × (Nat → Option Tm))
    (tab : Nat → Option DeriveCover.Entry) (c : Machine.Core) (u : Nat) (d : Machine.Derived)
    (hd : DeriveCover.derJ src tab c u = some d) :
    ∃ e D, tab u = some e ∧ DeriveCover.judge (src c).1 (src c).2 e.req = some D ∧
      ((¬ ∃ L B, (DeriveCover.thetaAt e D c).Safe L B) →
        (Machine.editI (DeriveCover.derJ src tab) c u).2 = c ∧
        Machine.answerObs (Machine.check (DeriveCover.derJ src tab) c u) = Machine.Obs.rejected) ∧
      ((∃ L B, (DeriveCover.thetaAt e D c).Safe L B) →
        (Machine.editI (DeriveCover.derJ src tab) c u).2 = Machine.install c d (safeSet (build d.inst)) ∧
        Machine.answerObs (Machine.check (DeriveCover.derJ src tab) c u) = Machine.Obs.accepted ∧
        (DeriveCover.thetaAt e D c).MaxSafe (DeriveCover.thetaAt e D c).Wdag
          (fun x => x ∈ safeSet (build d.inst))) :=
  let ⟨e, D, ht, hj, _, _, _, hR, hA⟩ := (JudgedMachine.idealEditJudged src tab c u).2 d hd
  ⟨e, D, ht, hj, hR, hA⟩

end AgentWarrant.Thm
