import AgentWarrant.Spec.Edits.Register
import AgentWarrant.Spec.Edits.Machine
/-! The common initial state through registration (*When Can Agents Safely Checkpoint, Fork, Restore,
and Merge?*, Appendix A-G: `S_∅ → Reg(ℛ, n) → S_ℛ`, the registered-root lemma), in the machine model
of `Spec/Edits/Machine.lean`.

`registerThenStart` is the registration step followed by the checked root update: `CheckReg(𝒲, ℛ)`
must accept (`Spec/Edits/Register.lean`), and the root derivation is the registered root contract —
its outcomes as given, each call's action read from ℛ's call → action map (0 for a number ℛ does not
map) — under the registered labels and policy automaton; the update installs the Lean checker's
largest safe set when it is nonempty.
Choices where the paper is silent: the labels, the policy automaton, the registered calls and
names and the first rule version `η⁺` are parameters (the model's ℛ holds only what `CheckReg`
reads); the call → action list covers the calls `0 … n-1` for a given `n`. -/
namespace AgentWarrant.Edits.Reg
open AgentWarrant AgentWarrant.Edits AgentWarrant.Edits.Machine

/-- The call → action list of the first `n` calls. -/
def actList (R : RegR) (n : Nat) : List Nat :=
  List.map (fun c => match lookupN c R.tmpl with
    | some a => a
    | none => 0) (List.range n)

/-- The registered root derivation. -/
def rootDerived (R : RegR) (n : Nat) (lab : List Nat) (dfa : Dfa) (calls names : List Nat) (eta : Nat) : Derived :=
  ⟨⟨R.outs, actList R n, lab, [], dfa⟩, calls, names, eta, []⟩

/-- `S_∅ → Reg(ℛ, n) → S_ℛ`: registration, then the checked root update. -/
def registerThenStart (W : Wf) (R : RegR) (n : Nat) (lab : List Nat) (dfa : Dfa) (calls names : List Nat)
    (eta : Nat) : Option RState := match checkReg W R with
  | true => start (rootDerived R n lab dfa calls names eta)
  | false => none

end AgentWarrant.Edits.Reg
