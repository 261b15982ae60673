import AgentWarrant.Spec.Edits.Register
import AgentWarrant.Spec.Edits.Machine
import AgentWarrant.Spec.Edits.DeriveTreeJudged
/-! The common initial state through registration (*When Can Agents Safely Checkpoint, Fork, Restore,
and Merge?*, Appendix A-G: `S_∅ → Reg(ℛ, n) → S_ℛ`, the registered-root lemma), in the machine model
of `Spec/Edits/Machine.lean`.

`registerThenStart` is the registration step followed by the checked root update: `CheckReg(𝒲, ℛ)`
must accept (`Spec/Edits/Register.lean`), and the root derivation is the registered root contract —
its outcomes as given, each call's action read from ℛ's call → action map (0 for a number ℛ does not
map) — under the registered labels and policy automaton, with the root branch tree `T = b₀:Γ`; the
update installs the Lean checker's largest safe set when it is nonempty.

The root tree is built here, not given: one leaf (the paper's root branch `b₀`, as the Python model's
`Reg(ℛ, n)` places it) holding the registered contract `Γ_{b₀}` by the registered outcomes' pomsets and
the empty progress `χ_{b₀} = ε`, so its remaining contract is the whole registered contract.
Choices where the paper is silent: the labels, the policy automaton, the registered calls and
names and the first rule version `η⁺` are parameters (the model's ℛ holds only what `CheckReg`
reads); the call → action list covers the calls `0 … n-1` for a given `n`; the root leaf's name is the
first number above every registered name (`rootName`, so it is fresh), and joins the record's names, since
the Python model's Checkpoint counts every tree name as used (a checkpoint may not take it). -/
namespace AgentWarrant.Edits.Reg
open AgentWarrant AgentWarrant.Edits AgentWarrant.Edits.Machine

/-- The call → action list of the first `n` calls. -/
def actList (R : RegR) (n : Nat) : List Nat :=
  List.map (fun c => match lookupN c R.tmpl with
    | some a => a
    | none => 0) (List.range n)

/-- The root branch's name: the first number above every registered name. -/
def rootName (names : List Nat) : Nat := maxName names + 1

/-- The root branch `b₀:Γ`: a leaf with the registered outcomes' pomsets and no progress. -/
def rootLeaf (R : RegR) (names : List Nat) : TNode :=
  ⟨rootName names, 0, 0, 0, 0, R.outs.map POutcome.pom, []⟩

/-- The registered root derivation: the root contract's instance, with the one-leaf tree of the root branch. -/
def rootDerived (R : RegR) (n : Nat) (lab : List Nat) (dfa : Dfa) (calls names : List Nat) (eta : Nat) : Machine.Derived :=
  ⟨⟨R.outs, actList R n, lab, [], dfa⟩, calls, names ++ [rootName names], eta, [rootLeaf R names]⟩

/-- `S_∅ → Reg(ℛ, n) → S_ℛ`: registration, then the checked root update. -/
def registerThenStart (W : Wf) (R : RegR) (n : Nat) (lab : List Nat) (dfa : Dfa) (calls names : List Nat)
    (eta : Nat) : Option RState := match checkReg W R with
  | true => start (rootDerived R n lab dfa calls names eta)
  | false => none

end AgentWarrant.Edits.Reg
