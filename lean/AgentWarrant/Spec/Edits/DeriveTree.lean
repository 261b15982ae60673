import AgentWarrant.Spec.Edits.Machine
/-! The target tree `T'` of an accepted edit, computed from the record's tree `T` (*When Can Agents Safely
Checkpoint, Fork, Restore, and Merge?*, Section V-A and Table I, Appendix A-D1): `Derive` no longer
supplies the derived record's tree; it names the edit's tree change (`TEdit`) and Lean builds `T'` from
`T` (`applyEdit`), refusing (the derivation undefined) when the change does not apply to `T`. Mirrors
`model/edits/runtime/derive.py` (`_fork`, `_restore`, `_merge`; `replace_at`).

The rows of Table I, on the flat preorder tree of `Spec/Edits/MachineTree.lean` (`𝓔[n]` replaces the
node `n` and its whole subtree, the nodes after it moving by the size difference):
- Fork (`⊕`/`∥`): the current leaf `b` becomes an open choice group (or a parallel group) `g` with arms
  (parts) `b_L`, `b_R`, each a fresh leaf with no progress.
- RestoreReplace: the current leaf `b` becomes a fresh leaf `b_k` with no progress; RestoreLive: a
  parallel group `g` of `b` (with its progress) and `b_k`.
- MergeSelect: the current choice group `g`, open or already selecting the arm, becomes a sequence of
  the selected arm's subtree and a fresh leaf `b_J`; MergeJoin: the current parallel group `g` becomes a
  sequence of a join barrier (the group, kept under its name but no longer addressable) over its parts
  and a fresh leaf `b_J`.
- Extend and Checkpoint leave the tree as it is.

Choices, where the paper leaves it to `Derive` or is silent:
- What each new leaf holds is given with the edit: its registered contract `Γ` by its outcome pomsets
  (`clone_L(𝒞) ▷ E_σ^L` for a fork, `clone_k(𝒞_k)` for a restore, `E_σ^J` for a merge). Cloning renames
  calls and registers them in `ρ`, and the rule's instantiated calls get fresh names; both are `Derive`'s
  naming, which this model does not follow (calls are numbers), so the contracts are inputs. The fresh
  branch and group names are inputs too (the record's counter is not modelled).
- The new names must be fresh (A-D1): distinct, and used by no node of the tree (`freshIn`); a change
  that reuses one leaves the derivation undefined.
- A current branch is a leaf with `currentB`; a current group is a choice or parallel node (not a join
  barrier) whose position `addrUp` accepts, the same walk as a branch's (Python `addr(T)`).
- A sequence node has name 0 (it is never named) and a group node no contract or progress. -/
namespace AgentWarrant.Edits.Machine
open AgentWarrant AgentWarrant.Edits

/-- The tree change an edit makes: `fork par b g bL bR ΓL ΓR`, `restore live b g bk Γk`
(`g` unused when not `live`), `select g arm bJ ΓJ`, `join g bJ ΓJ`, or none (`keep`). -/
inductive TEdit
  | keep
  | fork (par : Bool) (b g bl br : Nat) (gl gr : List Pomset)
  | restore (live : Bool) (b g bk : Nat) (gk : List Pomset)
  | select (g arm bj : Nat) (gj : List Pomset)
  | join (g bj : Nat) (gj : List Pomset)

def takeN : Nat → Tree → Tree
  | 0, _ => []
  | _ + 1, [] => []
  | n + 1, a :: l => a :: takeN n l

/-- The size of the run of nodes (after position `j`) whose parent is at `j` or later: in preorder, the
descendants of `j`. -/
def runLen (j : Nat) : Tree → Nat
  | [] => 0
  | n :: t => match Nat.ble j n.parent with
    | true => runLen j t + 1
    | false => 0

/-- The descendants of position `j`, in preorder. -/
def below (t : Tree) (j : Nat) : Tree := takeN (runLen j (dropN j t)) (dropN j t)

/-- `𝓔[new]`: the subtree at position `j` replaced by `new` (given with its final positions); the nodes
after it keep their parents before `j` and move theirs after it by the size difference. -/
def spliceAt (t : Tree) (j : Nat) (new : Tree) : Tree :=
  let after := dropN j t
  let k := runLen j after
  takeN (j - 1) t ++ new ++ (dropN k after).map (fun n => match Nat.ble j n.parent with
    | true => { n with parent := n.parent + List.length new - (k + 1) }
    | false => n)

/-- A subtree moved from position `a` to position `b` (its root's parent and place are set apart). -/
def moveTo (a b : Nat) (l : Tree) : Tree := l.map (fun n => { n with parent := n.parent + b - a })

def newLeaf (name parent pos : Nat) (gamma : List Pomset) : TNode := ⟨name, 0, parent, pos, 0, gamma, []⟩

/-- The position of the choice or parallel group named `g`. -/
def findGroup (g : Nat) : Nat → Tree → Option Nat
  | _, [] => none
  | i, n :: t => match (Nat.beq n.kind 1 || Nat.beq n.kind 2) && Nat.beq n.name g with
    | true => some i
    | false => findGroup g (i + 1) t

/-- The position of the child of `j` at place `arm`. -/
def findChild (j arm : Nat) : Nat → Tree → Option Nat
  | _, [] => none
  | i, n :: t => match Nat.beq n.parent j && Nat.beq n.pos arm with
    | true => some i
    | false => findChild j arm (i + 1) t

/-- A current branch's position and leaf. -/
def currentLeafAt (t : Tree) (b : Nat) : Option (Nat × TNode) :=
  match currentB t b, findLeaf b 1 t with
  | true, some j => match nodeAt t j with
    | some n => some (j, n)
    | none => none
  | _, _ => none

/-- A current group's position and node. -/
def currentGroupAt (t : Tree) (g : Nat) : Option (Nat × TNode) :=
  match findGroup g 1 t with
  | some j => match addrUp (List.length t) t j, nodeAt t j with
    | true, some n => some (j, n)
    | _, _ => none
  | none => none

/-- The selection of a choice lets `MergeSelect` keep `arm`: open, or already selecting it. -/
def selOk (n : TNode) (arm : Nat) : Bool := Nat.beq n.sel 0 || Nat.beq n.sel (arm + 1)

/-- The names the tree uses (branches, groups, joined groups; a sequence is unnamed). -/
def namesOf (t : Tree) : List Nat := (filt (fun n => !(Nat.beq n.kind 4)) t).map TNode.name

def distinctN : List Nat → Bool
  | [] => true
  | x :: l => !(memN x l) && distinctN l

/-- The names a change introduces: the new group and the new leaves. -/
def freshNames : TEdit → List Nat
  | TEdit.keep => []
  | TEdit.fork _ _ g bl br _ _ => [g, bl, br]
  | TEdit.restore live _ g bk _ => match live with
    | true => [g, bk]
    | false => [bk]
  | TEdit.select _ _ bj _ => [bj]
  | TEdit.join _ bj _ => [bj]

/-- A-D1's fresh IDs: the change's new names are distinct and none is used by the tree. -/
def freshIn (t : Tree) (e : TEdit) : Bool :=
  distinctN (freshNames e) && allB (fun x => !(memN x (namesOf t))) (freshNames e)

/-- `T'` of Table I's row for the edit, or `none` (the row does not apply: the branch or group is not
current, a group of the other mode, an arm that does not exist or was not selected). -/
def rowTree (t : Tree) : TEdit → Option Tree
  | TEdit.keep => some t
  | TEdit.fork par b g bl br gl gr => match currentLeafAt t b with
    | some (j, n) => some (spliceAt t j
        [⟨g, match par with | true => 2 | false => 1, n.parent, n.pos, 0, [], []⟩,
         newLeaf bl j 0 gl, newLeaf br j 1 gr])
    | none => none
  | TEdit.restore live b g bk gk => match currentLeafAt t b with
    | some (j, n) => match live with
      | false => some (spliceAt t j [newLeaf bk n.parent n.pos gk])
      | true => some (spliceAt t j
          [⟨g, 2, n.parent, n.pos, 0, [], []⟩, { n with parent := j, pos := 0 }, newLeaf bk j 1 gk])
    | none => none
  | TEdit.select g arm bj gj => match currentGroupAt t g with
    | some (j, n) => match Nat.beq n.kind 1 && selOk n arm, findChild j arm 1 t with
      | true, some a => match nodeAt t a with
        | some c =>
          let kept := { c with parent := j, pos := 0 } :: moveTo a (j + 1) (below t a)
          some (spliceAt t j (⟨0, 4, n.parent, n.pos, 0, [], []⟩ :: kept ++ [newLeaf bj j 1 gj]))
        | none => none
      | _, _ => none
    | none => none
  | TEdit.join g bj gj => match currentGroupAt t g with
    | some (j, n) => match Nat.beq n.kind 2 with
      | true => some (spliceAt t j (⟨0, 4, n.parent, n.pos, 0, [], []⟩ ::
          { n with kind := 3, parent := j, pos := 0 } :: moveTo j (j + 1) (below t j) ++ [newLeaf bj j 1 gj]))
      | false => none
    | none => none

/-- `T'` for the edit, or `none` (the derivation is undefined): Table I's row, with fresh new names. -/
def applyEdit (t : Tree) (e : TEdit) : Option Tree := match freshIn t e with
  | true => rowTree t e
  | false => none

/-- `Derive` naming the tree change instead of the tree: the derivation is defined when the table's
entry is and its change applies to the record's own tree, and the derived record's tree is Lean's
`applyEdit` of it. -/
def withTree (c : Core) (d : Derived) (e : TEdit) : Option Derived :=
  match applyEdit c.tree e with
  | some t => some { d with tree := t }
  | none => none

def treeDer (der : Core → Nat → Option (Derived × TEdit)) : Derivation := fun c u =>
  match der c u with
  | some (d, e) => withTree c d e
  | none => none

end AgentWarrant.Edits.Machine
