import AgentWarrant.Thm.Edits.Register
import AgentWarrant.Thm.Edits.RecheckContract
/-! What an accepted registration preserves (*When Can Agents Safely Checkpoint, Fork, Restore, and
Merge?*, Section IV-C and Appendix A-G: registration "preserves the exact answer"): when
`CheckReg(𝒲, ℛ)` accepts, the safety check read off the workflow's own traces through λ has the same
largest safe set `B̂†` and the same `W†` as the check of the registered contract `ℛ`.

Both sides are the checker's abstract space (`Space`, `Thm/Edits/Recheck.lean`: outcomes, resolved
runs `R_o`, the policy condition) over the same actions, log and policy condition:
- `regSpace`: the outcomes are `ℛ`'s root outcome IDs, and `R_o` is the linearizations of `p_o` (the
  registered runs `BRuns(ℛ)`) resolved;
- `wfSpace`: the same outcome IDs, and `R_o` is the λ-images of the workflow's τ-erased tool-call
  traces whose result λ maps to `o`, resolved.
Choice where the paper is silent: the policy condition is any predicate on resolved words, shared by
both sides (the registered contract's `lab(Δ)·lab(auth z) ∈ 𝒜` is one). -/
namespace AgentWarrant.Edits.Reg
open AgentWarrant AgentWarrant.Edits

/-- The registered contract's space. -/
def regSpace (R : RegR) (act log : List Nat) (Al : Word → Prop) : Space :=
  ⟨fun o => ∃ po, po ∈ R.outs ∧ po.id = o, fun o y => ∃ w, BRun R o w ∧ y = resolve act log w, Al⟩

/-- The workflow's space: its traces through λ. -/
def wfSpace (W : Wf) (R : RegR) (act log : List Nat) (Al : Word → Prop) : Space :=
  ⟨fun o => ∃ po, po ∈ R.outs ∧ po.id = o,
   fun o y => ∃ r ws u, Trace W r ws ∧ lookupN r R.lamRes = some o ∧ imgW R ws = some u ∧ y = resolve act log u,
   Al⟩

/-- An accepted registration preserves the safety answer: the workflow's traces through λ and the
registered contract have the same `B̂†` and `W†` (so one is accepted iff the other is). -/
theorem registrationKeepsAnswer {W : Wf} {R : RegR} (h : checkReg W R = true) (act log : List Nat)
    (Al : Word → Prop) :
    (∀ c, (wfSpace W R act log Al).Bdag c ↔ (regSpace R act log Al).Bdag c) ∧
    (∀ z, (wfSpace W R act log Al).Wdag z ↔ (regSpace R act log Al).Wdag z) := by
  have hr := checkSound W R h
  have hRW : ∀ o y, (wfSpace W R act log Al).R o y → (regSpace R act log Al).R o y := by
    intro o y hy
    have ⟨r, ws, u, ht, hl, hi, hy'⟩ := hy
    have ⟨_, o', u', hl', hi', hb⟩ := hr.into r ws ht
    rw [hl] at hl'
    rw [hi] at hi'
    have e1 : o = o' := Option.some.inj hl'
    have e2 : u = u' := Option.some.inj hi'
    rw [← e1, ← e2] at hb
    exact ⟨u, hb, hy'⟩
  have hRR : ∀ o y, (regSpace R act log Al).R o y → (wfSpace W R act log Al).R o y := by
    intro o y hy
    have ⟨w, hb, hy'⟩ := hy
    have ⟨r, ws, ht, hl, hi⟩ := hr.onto o w hb
    exact ⟨r, ws, w, ht, hl, hi, hy'⟩
  have hto : ∀ c, (wfSpace W R act log Al).Bdag c → (regSpace R act log Al).Bdag c :=
    Space.bdagTransfer (fun _ q => q) (fun _ q => q) (fun o y _ q => hRW o y q) (fun o y _ q => hRR o y q)
      (fun _ q => q)
  have hfro : ∀ c, (regSpace R act log Al).Bdag c → (wfSpace W R act log Al).Bdag c :=
    Space.bdagTransfer (fun _ q => q) (fun _ q => q) (fun o y _ q => hRR o y q) (fun o y _ q => hRW o y q)
      (fun _ q => q)
  refine ⟨fun c => ⟨hto c, hfro c⟩, fun z => ⟨fun hz => ?_, fun hz => ?_⟩⟩
  · have ⟨o, y, hb, hp⟩ := hz
    exact ⟨o, y, hto _ hb, hp⟩
  · have ⟨o, y, hb, hp⟩ := hz
    exact ⟨o, y, hfro _ hb, hp⟩

end AgentWarrant.Edits.Reg

namespace AgentWarrant.Thm
open AgentWarrant.Edits AgentWarrant.Edits.Reg

/-- Registration preserves the exact answer (IV-C, A-G): when `CheckReg(𝒲, ℛ)` accepts, the largest safe
set and `W†` computed over the workflow's traces through λ are those of the registered contract. -/
theorem registrationPreservesAnswer {W : Wf} {R : RegR} (h : checkReg W R = true) (act log : List Nat)
    (Al : Word → Prop) :
    (∀ c, (wfSpace W R act log Al).Bdag c ↔ (regSpace R act log Al).Bdag c) ∧
    (∀ z, (wfSpace W R act log Al).Wdag z ↔ (regSpace R act log Al).Wdag z) :=
  registrationKeepsAnswer h act log Al

end AgentWarrant.Thm
