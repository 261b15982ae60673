import AgentWarrant.Spec.Edits.TreeContract
import AgentWarrant.Spec.Edits.Machine
/-! Whether the outcomes of a check instance are the workflow contract `⟦T⟧` of a tree
(*When Can Agents Safely Checkpoint, Fork, Restore, and Merge?*, Sections IV-A and IV-B1): the runtime
and ideal oracles (`Oracle/Runtime.lean`) report it for the instance and tree every accepted edit
installs, so a `Derive` whose instance is not the contract of the derived tree shows in a session.

Choices, where the paper is silent:
- Equality is that of the `tree_contract` DRT (model/oracle/drt_tree_contract.py): a multiset of
  pomsets, two pomsets equal when their event sets are and their orders' transitive closures are; the
  instance's outcome IDs are not read, since `⟦T⟧` keeps none.
- The closure composes the order with itself once per event (enough: a chain has fewer links than
  events), adding only pairs not yet present so the list stays as small as the closed order.
- The multiset comparison removes, for each instance outcome, the first equal outcome of `⟦T⟧`; this is
  exact because the equality is an equivalence.
- The oracles run the machines on `tciGuard` of the session's `Derive`: a derivation whose instance's
  outcomes are not `⟦T'⟧` of its tree is undefined, so the edit is invalid; the instance's maps, log and
  policy automaton are still `Derive`'s, not built from `⟦T'⟧`.
- A registered extension installs `extInst` (`Θ/z` of the installed instance) with the record's tree
  unchanged, computed by the machine, not by `Derive`; the oracles run the machines through `tciCommit` and
  `tciStepI`, which refuse (`noCommit "extension-not-tree-contract"`, nothing installed) an `Extend(ξ)`
  whose instance's outcomes are not `⟦T⟧` of the record's tree (`tciExtOk`), and pass every other event,
  and the extension otherwise, to `commit` and `stepI` on `tciGuard` of `Derive`. Whether `Θ/z` of an
  instance that is `⟦T⟧` is `⟦T⟧` of the tree after the calls `z` is not proved; the oracles report the
  verdict (`"extContract"`) on every extension. -/
namespace AgentWarrant.Edits.Machine
open AgentWarrant AgentWarrant.Edits

def tciMemPair (ab : Nat × Nat) (l : List (Nat × Nat)) : Bool :=
  anyB (fun cd => Nat.beq cd.1 ab.1 && Nat.beq cd.2 ab.2) l

/-- `acc` with every pair of the list not already in it. -/
def tciAdd : List (Nat × Nat) → List (Nat × Nat) → List (Nat × Nat)
  | acc, [] => acc
  | acc, ab :: l => match tciMemPair ab acc with
    | true => tciAdd acc l
    | false => tciAdd (acc ++ [ab]) l

/-- One round of closure: every pair `(a, c)` with `(a, b)` and `(b, c)` in the order. -/
def tciStep (o : List (Nat × Nat)) : List (Nat × Nat) :=
  tciAdd o (concatL (o.map (fun ab => (filt (fun cd => Nat.beq ab.2 cd.1) o).map (fun cd => (ab.1, cd.2)))))

def tciClose : Nat → List (Nat × Nat) → List (Nat × Nat)
  | 0, o => o
  | f + 1, o => tciClose f (tciStep o)

def tciSubN (a b : List Nat) : Bool := allB (fun x => memN x b) a

def tciSubP (a b : List (Nat × Nat)) : Bool := allB (fun ab => tciMemPair ab b) a

/-- Two pomsets with the same events and the same transitively closed order. -/
def tciPomEqB (p q : Pomset) : Bool :=
  let cp := tciClose (List.length p.events) p.order
  let cq := tciClose (List.length q.events) q.order
  tciSubN p.events q.events && tciSubN q.events p.events && tciSubP cp cq && tciSubP cq cp

/-- `m` without its first pomset equal to `p` (`none`: there is none). -/
def tciRemove (p : Pomset) : List Pomset → Option (List Pomset)
  | [] => none
  | q :: l => match tciPomEqB p q with
    | true => some l
    | false => match tciRemove p l with
      | some l' => some (q :: l')
      | none => none

/-- The two lists are equal as multisets of pomsets up to `tciPomEqB`. -/
def tciSameB : List Pomset → List Pomset → Bool
  | [], [] => true
  | [], _ :: _ => false
  | p :: l, m => match tciRemove p m with
    | some m' => tciSameB l m'
    | none => false

/-- The instance's outcomes are `⟦T⟧` of the tree, as multisets of pomsets up to the closure. -/
def instOutcomesAgreeB (i : PInst) (t : Tree) : Bool := tciSameB (i.outs.map POutcome.pom) (treeContract t)

/-- `Derive` restricted to the derivations whose instance's outcomes are `⟦T'⟧` of their tree. -/
def tciGuard (D : Derivation) : Derivation := fun c u => match D c u with
  | some d => match instOutcomesAgreeB d.inst d.tree with
    | true => some d
    | false => none
  | none => none

/-- The instance `Extend(ξ)` with policy automaton `dfa` installs at `c` has as outcomes `⟦T⟧` of the
record's tree, which the extension keeps. -/
def tciExtOk (c : Core) (dfa : Dfa) : Bool := instOutcomesAgreeB (extInst c dfa) c.tree

/-- An `Extend(ξ)` the guard refuses at the record `c`. -/
def tciExtRefused (c : Core) : Ev → Bool
  | Ev.extend dfa _ _ => !tciExtOk c dfa
  | _ => false

/-- A durable-runtime transaction on the guarded `Derive`, an extension refused by `tciExtOk` committing
nothing (journaled, as every `commit` is). -/
def tciCommit (D : Derivation) (St : Store) (e : Ev) : Obs × Store := match tciExtRefused St.committed.core e with
  | true => (Obs.noCommit "extension-not-tree-contract", { St with journal := St.journal ++ [e] })
  | false => commit (tciGuard D) St e

def tciIExtRefused (c : Core) : IEv → Bool
  | IEv.extend dfa _ _ => !tciExtOk c dfa
  | _ => false

/-- An ideal-machine step on the guarded `Derive`, an extension refused by `tciExtOk` changing nothing. -/
def tciStepI (D : Derivation) (c : Core) (e : IEv) : Obs × Core := match tciIExtRefused c e with
  | true => (Obs.noCommit "extension-not-tree-contract", c)
  | false => stepI (tciGuard D) c e

end AgentWarrant.Edits.Machine
