import AgentWarrant.Thm.Edits.Machine
import AgentWarrant.Thm.Edits.Judgment
import AgentWarrant.Thm.Edits.Input
/-! The registered extension on the machines (*When Can Agents Safely Checkpoint, Fork, Restore, and
Merge?*, Appendices A-D2 and A-D3): the `Extend(ξ)` event of `Spec/Edits/Machine.lean` checks the
extension instance it computes from the record (`extInst`), and that instance is A-D2's.

`extPresents`: the extension instance presents `(Θ/z)⁺` — `Theta.after` of the installed instance's
declarative form after the calls `z` processed since the rule update, extended (`Theta.extendWith`)
by the new policy automaton's language: the outcomes still compatible with `z`, their residual
pomsets, the log `Δ·auth(z)`, the same actions and labels. With it, `registeredExtensionAfter`
(`Thm/Edits/Judgment.lean`) applies to the record itself: at an AgentSec record (whose automaton
state `z` is in `W†`), a verified extension whose policy includes the current one keeps every current
safe execution after `z` in the new checked set, so it is never rejected, and it commits whenever
rules are in force and `η⁺` is unallocated.

Hypotheses beyond the machine model: the installed instance's outcome IDs are distinct (the
oracle's are `0, 1, …`; `pomOf` reads the first outcome with an ID), and `𝒜 ⊆ 𝒜⁺` as languages —
what "`ξ` is verified" stands for in the event's `ok` input, which the model takes rather than
deciding automaton inclusion. -/
namespace AgentWarrant.Edits.Machine.Extend
open AgentWarrant AgentWarrant.Edits AgentWarrant.Edits.Machine

/-- The declarative form of the installed derived instance (its source results are not read here:
the extension instance sets its own). -/
def thetaIn (c : Core) : Theta :=
  thetaOf c.inst (fun _ => False) (fun _ => False) (fun _ => False) (fun _ _ => False)

/-- The language of a policy automaton. -/
def lang (dfa : Dfa) (u : List Nat) : Prop := dfaAccepts dfa u = true

/-- The extension instance the machines check is A-D2's instance `(Θ/z)⁺` over the record. -/
theorem extPresents (c : Core) (dfa : Dfa) (hid : Nodup (List.map POutcome.id c.inst.outs)) :
    Presents (((thetaIn c).after (since c)).extendWith (lang dfa)) (extInst c dfa) := by
  have hP := presentsThetaOf c.inst hid (fun _ => False) (fun _ => False) (fun _ => False) (fun _ _ => False)
  have hA := presentsAgrees hP
  refine ⟨rfl, rfl, rfl, fun n => ?_, fun o ho => ?_, fun u => Iff.rfl⟩
  · show (thetaIn c).Compat (since c) n ↔ ∃ o, o ∈ (extInst c dfa).outs ∧ o.id = n
    constructor
    · intro hc
      have ⟨o, ho, e⟩ := hc.1
      have hm : n ∈ compat (build c.inst) (since c) := (memCompat hA (since c) n).2 hc
      have hf : memN o.id (compat (build c.inst) (since c)) = true := by rw [e]; exact (memNIff _ _).2 hm
      exact ⟨_, mapMem (filtMem ho hf), e⟩
    · intro ⟨o, ho, e⟩
      have ⟨o', ho', e'⟩ := memMap ho
      have ⟨_, hf⟩ := memFilt ho'
      have hm := (memNIff _ _).1 hf
      have ee : o.id = o'.id := by subst e'; rfl
      rw [← e, ee]
      exact (memCompat hA (since c) o'.id).1 hm
  · have ⟨o', ho', e'⟩ := memMap ho
    have ⟨ho'', _⟩ := memFilt ho'
    subst e'
    show (pomOf c.inst.outs o'.id).residual (raw (since c)) = o'.pom.residual (raw (since c))
    rw [pomOfMem ho'' hid]

/-- A-D2/A-D3 on the machines: at an AgentSec record whose installed instance has distinct outcome
IDs, the extension instance under a policy automaton including the current one keeps every current
safe execution after the recorded progress `z` (`(o, z·y) ∈ B̂*` gives `(o, y)` in the new checked
set), so its checked set is nonempty; its checked set is `B̂†` of A-D2's instance `(Θ/z)⁺`, which is
safe, contains every safe pair, and keeps a member for every outcome still compatible with `z`. -/
theorem extendKeepsSafe (c : Core) (dfa : Dfa) (h : AgentSec c) (hid : Nodup (List.map POutcome.id c.inst.outs))
    (hA : ∀ u, dfaAccepts c.inst.dfa u = true → dfaAccepts dfa u = true) :
    let θ' := ((thetaIn c).after (since c)).extendWith (lang dfa)
    (∀ o y, (o, since c ++ y) ∈ c.safe → (o, y) ∈ safeSet (build (extInst c dfa))) ∧
    safeSet (build (extInst c dfa)) ≠ [] ∧
    (∀ x, x ∈ safeSet (build (extInst c dfa)) ↔ θ'.Bdag x) ∧ θ'.Safe θ'.Wdag θ'.Bdag ∧
    (∀ o, (thetaIn c).Compat (since c) o → ∃ y, (o, y) ∈ safeSet (build (extInst c dfa))) := by
  have hP := presentsThetaOf c.inst hid (fun _ => False) (fun _ => False) (fun _ => False) (fun _ _ => False)
  have hAg := presentsAgrees hP
  have hP' := extPresents c dfa hid
  have hAg' := presentsAgrees hP'
  have hsafe : c.safe = safeSet (build c.inst) := h.checked.1
  have hw : anyB (fun x : Cand => isPrefixB (since c) x.2) c.safe = true := h.inW
  have ⟨⟨o0, y0⟩, hx, hpx⟩ := anyBElim hw
  rw [hsafe] at hx
  have hbx := (safeSetIff hAg (o0, y0)).1 hx
  have hz : (thetaIn c).Wdag (since c) := ⟨o0, y0, hbx, isPrefixBSound _ _ hpx⟩
  have ⟨hkeep, hse, hs, hcomp, _⟩ := registeredExtensionAfter (thetaIn c) (since c) hz (lang dfa)
    (fun w hw' => hA w hw') (presentsPrefixClosed hP')
  have h1 : ∀ o y, (o, since c ++ y) ∈ c.safe → (o, y) ∈ safeSet (build (extInst c dfa)) := by
    intro o y hm
    rw [hsafe] at hm
    exact (safeSetIff hAg' (o, y)).2 (hkeep o y ((safeSetIff hAg _).1 hm))
  have h2 : safeSet (build (extInst c dfa)) ≠ [] := by
    have ha := (acceptsIffSafeEdit hAg').2 hse
    intro q
    simp [accepts, q] at ha
  have h3 : ∀ o, (thetaIn c).Compat (since c) o → ∃ y, (o, y) ∈ safeSet (build (extInst c dfa)) := by
    intro o ho
    have ⟨y, hy⟩ := hcomp o ho
    exact ⟨y, (safeSetIff hAg' (o, y)).2 hy⟩
  exact ⟨h1, h2, safeSetIff hAg', hs, h3⟩

/-- A verified extension commits: with rules in force, `η⁺` unallocated and the policy including the
current one, `Extend(ξ)` at an AgentSec record exposes `η⁺` and installs the extension instance with
its checked set, and the record it reaches satisfies AgentSec. -/
theorem extendCommits (c : Core) (dfa : Dfa) (en : Nat) (h : AgentSec c)
    (hid : Nodup (List.map POutcome.id c.inst.outs))
    (hA : ∀ u, dfaAccepts c.inst.dfa u = true → dfaAccepts dfa u = true) (hu : unallocated c en = true) :
    (extendStep c dfa en true).1 = Obs.updated en ∧
    extendCore c dfa en true = install c (extDerived c dfa en) (safeSet (build (extInst c dfa))) ∧
    AgentSec (extendCore c dfa en true) := by
  have ⟨_, hn, _⟩ := extendKeepsSafe c dfa h hid hA
  have ⟨e, he, _⟩ := h.active
  have hx : ∃ s, (extendStep c dfa en true).2 = some s ∧ (extendStep c dfa en true).1 = Obs.updated en := by
    simp only [extendStep, he, hu]
    cases hs : safeSet (build (extInst c dfa)) with
    | nil => exact absurd hs hn
    | cons a l => exact ⟨_, rfl, rfl⟩
  have ⟨s, hs, ho⟩ := hx
  have ⟨_, _, _, _, es⟩ := extendStepSome hs
  refine ⟨ho, ?_, extendSec dfa en true h⟩
  rw [extendStepCommit hs, es]

end AgentWarrant.Edits.Machine.Extend

namespace AgentWarrant.Thm
open AgentWarrant.Edits AgentWarrant.Edits.Machine AgentWarrant.Edits.Machine.Extend

/-- Registered extension (A-D2) on the ideal machine and the runtime: the `Extend(ξ)` event checks
A-D2's instance `(Θ/z)⁺` of the record (`extPresents`); at every AgentSec record (installed outcome
IDs distinct) an extension whose policy includes the current one keeps the current safe executions
after the recorded progress, is never rejected, and, with rules in force and `η⁺` unallocated,
commits to an AgentSec record on both machines (the runtime's state change is the ideal one). -/
theorem registeredExtensionOnMachines (der : Derivation) (S : RState) (dfa : Dfa) (en : Nat)
    (h : AgentSec S.core) (hid : Nodup (List.map POutcome.id S.core.inst.outs))
    (hA : ∀ u, dfaAccepts S.core.inst.dfa u = true → dfaAccepts dfa u = true)
    (hu : unallocated S.core en = true) :
    Presents (((thetaIn S.core).after (since S.core)).extendWith (lang dfa)) (extInst S.core dfa) ∧
    (∀ o y, (o, since S.core ++ y) ∈ S.core.safe → (o, y) ∈ safeSet (build (extInst S.core dfa))) ∧
    (stepR der S (Ev.extend dfa en true)).1 = Obs.updated en ∧
    (stepR der S (Ev.extend dfa en true)).2.core = (stepI der S.core (IEv.extend dfa en true)).2 ∧
    AgentSec (stepR der S (Ev.extend dfa en true)).2.core := by
  have ⟨hk, _⟩ := extendKeepsSafe S.core dfa h hid hA
  have ⟨ho, _, hsec⟩ := extendCommits S.core dfa en h hid hA hu
  refine ⟨extPresents S.core dfa hid, hk, ho, extendRCore S dfa en true, ?_⟩
  show AgentSec (extendR S dfa en true).core
  rw [extendRCore]; exact hsec

end AgentWarrant.Thm
