import AgentWarrant.Spec.Edits.DeriveTree
import AgentWarrant.Spec.Edits.DeriveFork
/-! The fresh names of an edit's new nodes chosen by Lean from the record's tree (*When Can Agents Safely
Checkpoint, Fork, Restore, and Merge?*, Section V-A, Table I, Appendix A-D1's fresh IDs), so that a tree
change (`TEdit`) no longer needs names chosen by `Derive`.

Choices, where the paper leaves the fresh identifiers to `Derive`: Lean takes the names just above every
name the tree uses and every name the record reserves (`nextName`: one above the largest of `namesOf` and
of `reserved`, the checkpoint IDs and the registered names, which a Checkpoint's ID must also avoid), the
new group first and then the new leaves in Table I's order (`leanNames`: a Fork's `g`, `b_L`, `b_R`; a
Restore's `g`, `b_k`, with `g` unused by RestoreReplace; a Merge's `b_J`). The names a caller put in the
change are ignored, so the derivation (`treeDerN`) reads from `Derive` only the form, the branch or group,
the arm and each new leaf's contract. Any choice above these names would do: A-D1 asks for freshness only,
which is what is proved (`leanNamesFresh`, and `leanNamesAvoid` for the reserved names).

Each new leaf's contract `Γ`, by its outcome pomsets, read from the record Lean's own edit judgment derives
for the row on the binary term model (`judgeA` of `Spec/Edits/DeriveFork.lean`, with its copy renamings
and instantiated continuation steps): a Fork's arms are the two parts of the target, `clone_L(𝒞) ; E_σ^L`
and `clone_R(𝒞) ; E_σ^R` (`E_σ = nil` in `judge`'s rows); RestoreReplace's `b_k` is the whole target
`clone_k(𝒞_k)`, RestoreLive's the second part of `𝒞 ∥ clone_k(𝒞_k)`; a Merge's `b_J` is the second part of
the target sequence, the rule's `E_J` (`judgedTEdit`). The derivation `derJT` then takes from the table
only the request, the instance's action map, labels, automaton, registered calls and names, the new
version, and the branch or group the edit names; the source terms come from `src`, as for `derJ`.
Choices, where the paper is silent: a MergeSelect keeps arm `w` at place 0 (`L`) or 1 (`R`) of the group;
the term model's regions are not read off the tree (`src` gives them, and that a branch's term has the
leaf's `Γ_b/raw(χ_b)` as its outcomes is not checked here). -/
namespace AgentWarrant.Edits.Machine
open AgentWarrant AgentWarrant.Edits

/-- The largest of a list of names (0 for none). -/
def maxName : List Nat → Nat
  | [] => 0
  | x :: l => match Nat.ble x (maxName l) with
    | true => maxName l
    | false => x

/-- The names a record reserves besides its tree's: its checkpoint IDs and its registered names (a
Checkpoint's ID must differ from both). -/
def reserved (c : Core) : List Nat := c.ckpts ++ c.names

/-- The first name above every name the tree uses and every name in `r`. -/
def nextName (t : Tree) (r : List Nat) : Nat := maxName (namesOf t ++ r) + 1

/-- The change with Lean's fresh names (above the tree's names and `r`) for its new group and leaves in
place of the caller's. -/
def leanNames (t : Tree) (r : List Nat) : TEdit → TEdit
  | TEdit.keep => TEdit.keep
  | TEdit.fork par b _ _ _ gl gr => TEdit.fork par b (nextName t r) (nextName t r + 1) (nextName t r + 2) gl gr
  | TEdit.restore live b _ _ gk => TEdit.restore live b (nextName t r) (nextName t r + 1) gk
  | TEdit.select g arm _ gj => TEdit.select g arm (nextName t r) gj
  | TEdit.join g _ gj => TEdit.join g (nextName t r) gj

/-- The changes `Derive` names at a record, with Lean's fresh names in place of its own. -/
def namedTab (der : Core → Nat → Option (Derived × TEdit)) (c : Core) (u : Nat) : Option (Derived × TEdit) :=
  match der c u with
  | some (d, e) => some (d, leanNames c.tree (reserved c) e)
  | none => none

/-- `Derive` naming the tree change without its fresh names: Lean names the new nodes (`leanNames`) and
builds `T'` (`applyEdit`). -/
def treeDerN (der : Core → Nat → Option (Derived × TEdit)) : Derivation := treeDer (namedTab der)

end AgentWarrant.Edits.Machine

namespace AgentWarrant.Edits.DeriveTreeJudged
open AgentWarrant AgentWarrant.Edits AgentWarrant.Edits.DeriveCover AgentWarrant.Edits.DeriveFork

/-- A contract by its outcome pomsets. -/
def poms (T : Tm) : List Pomset := T.outs.map TOut.pom

/-- The first and second part of a binary node (the term itself otherwise). -/
def leftOf : Tm → Tm
  | Tm.choice _ l _ => l
  | Tm.par l _ => l
  | Tm.seq l _ => l
  | t => t

def rightOf : Tm → Tm
  | Tm.choice _ _ r => r
  | Tm.par _ r => r
  | Tm.seq _ r => r
  | t => t

/-- The tree change of the row the request names, on the branch or group `x`, with each new leaf's
contract read from the judged record `D`'s target (the names are placeholders: `leanNames` sets them). -/
def judgedTEdit (q : AReq) (D : Derived) (x : Nat) : Machine.TEdit := match q with
  | AReq.base (CReq.forkChoice _) => Machine.TEdit.fork false x 0 0 0 (poms (leftOf D.target)) (poms (rightOf D.target))
  | AReq.base CReq.forkParallel => Machine.TEdit.fork true x 0 0 0 (poms (leftOf D.target)) (poms (rightOf D.target))
  | AReq.base (CReq.restoreReplace _ _) => Machine.TEdit.restore false x 0 0 (poms D.target)
  | AReq.base (CReq.restoreLive _ _) => Machine.TEdit.restore true x 0 0 (poms (rightOf D.target))
  | AReq.base (CReq.mergeSelect _ w _) => Machine.TEdit.select x (match w with | false => 0 | true => 1) 0
      (poms (rightOf D.target))
  | AReq.base (CReq.mergeJoin _) => Machine.TEdit.join x 0 (poms (rightOf D.target))
  | AReq.base CReq.extend => Machine.TEdit.keep
  | AReq.fork (KReq.forkChoice _ _ _) => Machine.TEdit.fork false x 0 0 0 (poms (leftOf D.target)) (poms (rightOf D.target))
  | AReq.fork (KReq.forkParallel _ _) => Machine.TEdit.fork true x 0 0 0 (poms (leftOf D.target)) (poms (rightOf D.target))
  | AReq.forkT (TReq.forkChoice _ _ _) => Machine.TEdit.fork false x 0 0 0 (poms (leftOf D.target)) (poms (rightOf D.target))
  | AReq.forkT (TReq.forkParallel _ _) => Machine.TEdit.fork true x 0 0 0 (poms (leftOf D.target)) (poms (rightOf D.target))

/-- The new leaves' contracts a change carries, in Table I's order (a Fork's `b_L`, `b_R`). -/
def newContracts : Machine.TEdit → List (List Pomset)
  | Machine.TEdit.keep => []
  | Machine.TEdit.fork _ _ _ _ _ gl gr => [gl, gr]
  | Machine.TEdit.restore _ _ _ _ gk => [gk]
  | Machine.TEdit.select _ _ _ gj => [gj]
  | Machine.TEdit.join _ _ gj => [gj]

/-- The judged derivation with its tree change: the instance `derJK` computes, and the row's change on
`x` with the new leaves' contracts from the judged record and Lean's fresh names. -/
def judgedTab (src : Machine.Core → Tm × (Nat → Option Tm)) (tab : Nat → Option (EntryA × Nat))
    (c : Machine.Core) (u : Nat) : Option (Machine.Derived × Machine.TEdit) :=
  match tab u with
  | none => none
  | some (e, x) => match judgeA (src c).1 (src c).2 e.req with
    | none => none
    | some D => some (⟨inputOf D e.act e.lab (Machine.logActions c) e.dfa, e.calls, e.names, e.etaNew, []⟩,
        Machine.leanNames c.tree (Machine.reserved c) (judgedTEdit e.req D x))

/-- `Derive` built from Lean's edit judgment alone: the table names the request and the branch or group;
Lean derives the instance, the new leaves' contracts and their names, and the target tree. -/
def derJT (src : Machine.Core → Tm × (Nat → Option Tm)) (tab : Nat → Option (EntryA × Nat)) :
    Machine.Derivation := Machine.treeDer (judgedTab src tab)

end AgentWarrant.Edits.DeriveTreeJudged
