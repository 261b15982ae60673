import AgentWarrant.Thm.Edits.Bisim
import AgentWarrant.Thm.Edits.JudgedMachineK
import AgentWarrant.Thm.Edits.DeriveTreeRunJ
/-! Exact checking and the weak bisimulation without their hypotheses on prepared content and on `η⁺`
(*When Can Agents Safely Checkpoint, Fork, Restore, and Merge?*, Section VII "exact checking",
Appendices A-I "Final check and atomic rule update" and A-L).

Prepared content. `runtimeEditIsIdeal` (`Thm/Edits/Machine.lean`) assumes that content Preload
prepared in `η⁺` for this answer is the recomputation. Preload is modelled as a runtime event
(`Ev.preload`, Table III "Preload"): it re-runs the final check and stores the checker's answer for
the record it checked. So every runtime state reached from the accepted root update by committed
events satisfies `PrepOk` (every prepared version holds the recomputation of its own answer;
`stepPrepOk`, `replayPrepOk`, `reachedPrepOk`), and on those states the rule update presenting the
runtime's own check makes the ideal edge's change with no hypothesis on prepared content
(`runtimeEditIsIdealReached`). A restart exposes the committed state, which is the replay of the
committed events (`restartRecovers`), so it adds no state outside `RuntimeReached`.

`η⁺`. The paper's `Derive` yields `η⁺` by deterministic allocation from the record ("deterministic
allocation constructs every runtime identifier"), and its final check asks
`phase(η⁺) ∈ {⊥, inactive}`. The Lean edit judgment as the machine runs it (`derJ`, `derJK`, and the
oracles' `derRunJ`) takes `η⁺` from the edit's table entry instead, a constant per edit, so the same
edit re-derived after it was installed names the active version: `FreshAlloc` fails for it in general
(`derJNotFreshAlloc`). `freshen` keeps everything the judgment derives and allocates `η⁺`
deterministically from the record, above every active and closed version, so its phase is `⊥` by
construction. With it, `Ready(S, u, Check(Θ_S(u)))` holds exactly when the judgment derives a record
whose instance has a safe execution set (`readyFreshIff`, `readyFreshJudged`, `readyFreshJudgedK`),
and the weak bisimulation holds with no hypothesis (`Thm.weakBisimulationUnderEditJudgment`,
`Thm.weakBisimulationUnderRunJudgment`). -/
namespace AgentWarrant.Edits.Machine
open AgentWarrant AgentWarrant.Edits

/-- A runtime state reached from the accepted root update by finitely many committed events. -/
def RuntimeReached (der : Derivation) (S : RState) : Prop :=
  ∃ d0 S0 es, start d0 = some S0 ∧ replay der S0 es = S

/-- Every runtime event keeps prepared content sound: Preload stores the recomputation of the answer
it checked, a committed rule update or extension drops all prepared content, the other events keep it. -/
theorem stepPrepOk (der : Derivation) (S : RState) (h : PrepOk der S) : ∀ e : Ev, PrepOk der (stepR der S e).2
  | Ev.check _ => h
  | Ev.update u y => by
    show PrepOk der (tryUpdate der S u y).2
    cases tryUpdateCases der S u y with
    | inl q => have ⟨w, hw⟩ := q; rw [hw]; exact h
    | inr q => have ⟨d, _, hw⟩ := q; rw [hw]; exact fun v p hm => absurd hm notMemNil
  | Ev.preload u y => preloadPrepOk der S u y h
  | Ev.use _ _ _ => h
  | Ev.retry _ _ _ => h
  | Ev.dispatch => h
  | Ev.settle _ _ => h
  | Ev.checkpoint _ _ => h
  | Ev.extend dfa en ok => extendPrepOk der S dfa en ok h

theorem replayPrepOk (der : Derivation) : ∀ (es : List Ev) (S : RState), PrepOk der S → PrepOk der (replay der S es)
  | [], _, h => h
  | e :: es, S, h => replayPrepOk der es _ (stepPrepOk der S h e)

theorem reachedPrepOk {der : Derivation} {S : RState} (h : RuntimeReached der S) : PrepOk der S := by
  have ⟨_, S0, es, h0, e⟩ := h
  rw [← e]
  exact replayPrepOk der es S0 (startRelated der h0).2

/-- `runtimeEditIsIdeal` with its hypothesis on prepared content replaced by `PrepOk`. -/
theorem runtimeEditIsIdealPrepOk (der : Derivation) (S : RState) (u : Nat) (d : Derived) (hP : PrepOk der S)
    (hd : der S.core u = some d) (hn : safeSet (build d.inst) ≠ []) (hu : unallocated S.core d.etaNew = true) :
    tryUpdate der S u (check der S.core u) = (Obs.updated d.etaNew, ⟨(editI der S.core u).2, []⟩) := by
  rw [updateOwnCheck der S u d hP hd hn hu, ((editAnswersAgree der S.core u).2.2.2 d hd hn).1]

/-- On every reached runtime state, the rule update presenting the runtime's own check of an accepted
edit with an unallocated `η⁺` makes exactly the ideal edge's change. -/
theorem runtimeEditIsIdealReached (der : Derivation) {S : RState} (hS : RuntimeReached der S) (u : Nat)
    (d : Derived) (hd : der S.core u = some d) (hn : safeSet (build d.inst) ≠ [])
    (hu : unallocated S.core d.etaNew = true) :
    tryUpdate der S u (check der S.core u) = (Obs.updated d.etaNew, ⟨(editI der S.core u).2, []⟩) :=
  runtimeEditIsIdealPrepOk der S u d (reachedPrepOk hS) hd hn hu

-- `η⁺` allocated from the record ------------------------------------------------------------------------

theorem freshenSome {der : Derivation} {c : Core} {u : Nat} {d' : Derived} (h : freshen der c u = some d') :
    ∃ d, der c u = some d ∧ d'.inst = d.inst := by
  revert h
  simp only [freshen]
  cases der c u with
  | none => intro q; exact Option.noConfusion q
  | some d => intro q; rw [← Option.some.inj q]; exact ⟨d, rfl, rfl⟩

theorem freshenOfSome {der : Derivation} {c : Core} {u : Nat} {d : Derived} (h : der c u = some d) :
    freshen der c u = some { d with etaNew := freshVersion c } := by
  simp only [freshen, h] <;> rfl

/-- Allocating `η⁺` from the record changes no answer: the check of `freshen der` is the check of
`der` (the checker reads the derived instance, not `η⁺`). -/
theorem checkFreshen (der : Derivation) (c : Core) (u : Nat) :
    answerObs (check (freshen der) c u) = answerObs (check der c u) := by
  cases hd : der c u with
  | none =>
    have h : freshen der c u = none := by simp only [freshen, hd] <;> rfl
    simp only [check, h, hd] <;> rfl
  | some d =>
    have h := freshenOfSome hd
    cases hs : safeSet (build d.inst) with
    | nil => simp only [check, h, hd, hs] <;> rfl
    | cons a l => simp only [check, h, hd, hs] <;> rfl

/-- With `η⁺` allocated from the record, the final check passes exactly when the derivation is
defined and the checker's largest safe set is nonempty. -/
theorem readyFreshIff (der : Derivation) (c : Core) (u : Nat) :
    (∃ d, ready (freshen der) c u (check (freshen der) c u) = Except.ok d) ↔
    ∃ d, der c u = some d ∧ safeSet (build d.inst) ≠ [] := by
  rw [readyIffAccepted]
  constructor
  · intro ⟨d', hd', hn, _⟩
    have ⟨d, hd, hi⟩ := freshenSome hd'
    rw [hi] at hn
    exact ⟨d, hd, hn⟩
  · intro ⟨d, hd, hn⟩
    have hd' := freshenOfSome hd
    exact ⟨_, hd', hn, freshenAlloc der c u _ hd'⟩

/-- Exact checking with `η⁺` allocated from the record, on every reached runtime state: the rule update
presenting the runtime's own accepted check makes exactly the ideal edge's change, no hypothesis left. -/
theorem freshRuntimeEditIsIdeal (der : Derivation) {S : RState} (hS : RuntimeReached (freshen der) S) (u : Nat)
    (d : Derived) (hd : freshen der S.core u = some d) (hn : safeSet (build d.inst) ≠ []) :
    tryUpdate (freshen der) S u (check (freshen der) S.core u) =
      (Obs.updated d.etaNew, ⟨(editI (freshen der) S.core u).2, []⟩) :=
  runtimeEditIsIdealReached (freshen der) hS u d hd hn (freshenAlloc der S.core u d hd)

end AgentWarrant.Edits.Machine

namespace AgentWarrant.Edits.JudgedMachine
open AgentWarrant AgentWarrant.Edits AgentWarrant.Edits.DeriveCover

/-- The runtime's readiness with `Derive` the Lean edit judgment, `η⁺` allocated from the record: the
rule update can commit exactly when the judged instance has a safe execution set. -/
theorem readyFreshJudged (src : Machine.Core → Tm × (Nat → Option Tm)) (tab : Nat → Option Entry)
    (c : Machine.Core) (u : Nat) :
    (∃ d, Machine.ready (Machine.freshen (derJ src tab)) c u
      (Machine.check (Machine.freshen (derJ src tab)) c u) = Except.ok d) ↔
    ∃ d e D, derJ src tab c u = some d ∧ tab u = some e ∧ judge (src c).1 (src c).2 e.req = some D ∧
      ∃ L B, (thetaAt e D c).Safe L B := by
  rw [Machine.readyFreshIff]
  constructor
  · intro ⟨d, hd, hn⟩
    have ⟨e, D, ht, hj, _, _, _, hiff, _⟩ := derJCheck src tab c u d hd
    exact ⟨d, e, D, hd, ht, hj, hiff.1 (safeSetNeIff.1 hn)⟩
  · intro ⟨d, e, D, hd, ht, hj, hs⟩
    have ⟨e', D', ht', hj', _, _, _, hiff, _⟩ := derJCheck src tab c u d hd
    have ee : e = e' := Option.some.inj (ht.symm.trans ht')
    subst ee
    have eD : D = D' := Option.some.inj (hj.symm.trans hj')
    subst eD
    exact ⟨d, hd, safeSetNeIff.2 (hiff.2 hs)⟩

/-- The judgment's `η⁺` is the table's, so `FreshAlloc` is not a property of `derJ`: an edit whose
entry names the active version derives at a record where that version is active. -/
theorem derJNotFreshAlloc : ∃ src tab, ¬ Machine.FreshAlloc (derJ src tab) := by
  refine ⟨fun _ => (Tm.call 0, fun _ => none),
    fun _ => some ⟨CReq.extend, [], [], Reach.dfaA, [], [], 0⟩, fun h => ?_⟩
  have hw : wfB (Tm.call 0) = true := rfl
  have hd : derJ (fun _ => (Tm.call 0, fun _ => none))
      (fun _ => some ⟨CReq.extend, [], [], Reach.dfaA, [], [], 0⟩) { Machine.empty with eta := some 0 } 0 =
      some ⟨inputOf (extendRow (Tm.call 0)) [] [] (Machine.logActions { Machine.empty with eta := some 0 })
        Reach.dfaA, [], [], 0, []⟩ := by
    simp only [derJ, judge, hw] <;> rfl
  have hu : Machine.unallocated { Machine.empty with eta := some 0 } 0 = false := rfl
  have q := h _ _ _ hd
  rw [hu] at q
  exact Bool.noConfusion q

end AgentWarrant.Edits.JudgedMachine

namespace AgentWarrant.Edits.DeriveFork
open AgentWarrant AgentWarrant.Edits AgentWarrant.Edits.DeriveCover

/-- `readyFreshJudged` for the edit judgment with continuation steps. -/
theorem readyFreshJudgedK (src : Machine.Core → Tm × (Nat → Option Tm)) (tab : Nat → Option EntryA)
    (c : Machine.Core) (u : Nat) :
    (∃ d, Machine.ready (Machine.freshen (derJK src tab)) c u
      (Machine.check (Machine.freshen (derJK src tab)) c u) = Except.ok d) ↔
    ∃ d e D, derJK src tab c u = some d ∧ tab u = some e ∧ judgeA (src c).1 (src c).2 e.req = some D ∧
      ∃ L B, (thetaAtK e D c).Safe L B := by
  rw [Machine.readyFreshIff]
  constructor
  · intro ⟨d, hd, hn⟩
    have ⟨e, D, ht, hj, _, _, _, hiff, _⟩ := derJKCheck src tab c u d hd
    exact ⟨d, e, D, hd, ht, hj, hiff.1 (JudgedMachine.safeSetNeIff.1 hn)⟩
  · intro ⟨d, e, D, hd, ht, hj, hs⟩
    have ⟨e', D', ht', hj', _, _, _, hiff, _⟩ := derJKCheck src tab c u d hd
    have ee : e = e' := Option.some.inj (ht.symm.trans ht')
    subst ee
    have eD : D = D' := Option.some.inj (hj.symm.trans hj')
    subst eD
    exact ⟨d, hd, JudgedMachine.safeSetNeIff.2 (hiff.2 hs)⟩

end AgentWarrant.Edits.DeriveFork
