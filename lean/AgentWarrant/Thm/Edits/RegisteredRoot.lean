import AgentWarrant.Spec.Edits.RegisteredRoot
import AgentWarrant.Thm.Edits.Register
import AgentWarrant.Thm.Edits.Machine
/-! The registered-root lemma (A-G) in the machine model: a state reached by registration and the
checked root update satisfies the model's `AgentSec`, and its registration witnesses `𝒲 ⊑_λ ℛ`;
conversely an accepted registration whose root has a nonempty largest safe set reaches such a state. -/
namespace AgentWarrant.Edits.Reg
open AgentWarrant AgentWarrant.Edits AgentWarrant.Edits.Machine

theorem registeredRoot {W : Wf} {R : RegR} {n : Nat} {lab : List Nat} {dfa : Dfa} {calls names : List Nat}
    {eta : Nat} {S : RState} (h : registerThenStart W R n lab dfa calls names eta = some S) :
    Refines W R ∧ AgentSec S.core := by
  cases hc : checkReg W R with
  | false => simp [registerThenStart, hc] at h
  | true =>
    have h' : start (rootDerived R n lab dfa calls names eta) = some S := by
      simp [registerThenStart, hc] at h; exact h
    exact ⟨checkSound W R hc, startSec h'⟩

theorem registeredRootReached {W : Wf} {R : RegR} {n : Nat} {lab : List Nat} {dfa : Dfa} {calls names : List Nat}
    {eta : Nat} (hr : Refines W R) (hs : safeSet (build (rootDerived R n lab dfa calls names eta).inst) ≠ []) :
    ∃ S, registerThenStart W R n lab dfa calls names eta = some S ∧ AgentSec S.core := by
  have hc := checkComplete W R hr
  cases e : safeSet (build (rootDerived R n lab dfa calls names eta).inst) with
  | nil => exact absurd e hs
  | cons a l =>
    have hst : start (rootDerived R n lab dfa calls names eta) = some ⟨install empty (rootDerived R n lab dfa calls names eta) (a :: l), []⟩ := by
      simp only [start]; rw [e]
    have h : registerThenStart W R n lab dfa calls names eta = some ⟨install empty (rootDerived R n lab dfa calls names eta) (a :: l), []⟩ := by
      simp only [registerThenStart]; rw [hc]; exact hst
    exact ⟨_, h, startSec hst⟩

end AgentWarrant.Edits.Reg
