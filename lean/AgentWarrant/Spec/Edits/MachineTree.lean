import AgentWarrant.Spec.Edits.Input
/-! The current workflow `T` of the machine record as a branch tree (*When Can Agents Safely
Checkpoint, Fork, Restore, and Merge?*, Sections IV-B1, VII; Table III's `HStep` and Checkpoint rows).
Mirrors `model/edits/runtime/tree.py`.

Choices, where the paper is silent or the Lean core forces one:
- The tree is a flat list of nodes with parent links (nested inductive types over lists cannot be
  recursed on structurally in this Lean): a node's `parent` is one more than its parent's position in
  the list (`0` at the root) and `pos` its place among its parent's arms or parts. Kinds: a leaf
  (branch `b:𝒞`), an open or selected choice group, a parallel group, a join barrier, a sequence.
- A leaf stores its immutable registered contract `Γ_b` by its outcomes' pomsets and its ordered
  progress `χ_b`. Its remaining contract `𝒞_b = Γ_b / raw(χ_b)` is computed (`restOuts`): the outcomes
  of `Γ_b` for which `χ_b` is a prefix of a linearization (its calls are events, closed under
  predecessors), with `χ_b`'s calls removed. So the remaining-work equation holds of every leaf by
  construction, as in the Python tree (`remaining`), and a Checkpoint stores the leaf's `(Γ_b, χ_b)`.
- `addr(T)` (what Checkpoint's "`b` is current" reads, `currentB`): a leaf is current when every
  choice above it is open or selects its arm, and every sequence above it has all earlier parts
  complete (every leaf below them through enabled arms has no remaining work).
- `HStep` (`hstep`): the leaf whose remaining work contains `x` records `x`, and every open choice
  above it selects the arm leading to it. -/
namespace AgentWarrant.Edits.Machine
open AgentWarrant AgentWarrant.Edits

/-- One tree node. `kind`: 0 leaf, 1 choice, 2 parallel, 3 join, 4 sequence. `sel` (a choice): 0
open, `i + 1` arm `i` selected. `gamma` and `done` (a leaf): `Γ_b`'s outcome pomsets and `χ_b`. -/
structure TNode where
  name : Nat
  kind : Nat
  parent : Nat
  pos : Nat
  sel : Nat
  gamma : List Pomset
  done : List Nat
  deriving DecidableEq

abbrev Tree := List TNode

def nthNode : Tree → Nat → Option TNode
  | [], _ => none
  | n :: _, 0 => some n
  | _ :: t, i + 1 => nthNode t i

/-- The node at a 1-based position. -/
def nodeAt (t : Tree) : Nat → Option TNode
  | 0 => none
  | i + 1 => nthNode t i

def positions : Nat → Tree → List Nat
  | _, [] => []
  | i, _ :: t => i :: positions (i + 1) t

def subsetN (a b : List Nat) : Bool := allB (fun x => memN x b) a

/-- `χ_b` is a prefix of a linearization of `p`. -/
def compatP (done : List Nat) (p : Pomset) : Bool :=
  subsetN done p.events && allB (fun e => !memN e.2 done || memN e.1 done) p.order

/-- The outcomes of `Γ / raw(χ)`, each by its remaining calls. -/
def residualOf (gamma : List Pomset) (done : List Nat) : List (List Nat) :=
  (filt (compatP done) gamma).map (fun p => filt (fun e => !memN e done) p.events)

/-- A leaf's remaining contract `𝒞_b = Γ_b / raw(χ_b)`. -/
def restOuts (l : TNode) : List (List Nat) := residualOf l.gamma l.done

def restCalls (l : TNode) : List Nat := concatL (restOuts l)

def isNil : List Nat → Bool
  | [] => true
  | _ :: _ => false

def leafDone (l : TNode) : Bool := allB isNil (restOuts l)

/-- The choice `p` lets its arm `c` through (it is not a choice, is open, or selects `c`). -/
def armOk (p c : TNode) : Bool := !(Nat.beq p.kind 1) || Nat.beq p.sel 0 || Nat.beq p.sel (c.pos + 1)

/-- Walking up from position `j`, position `n` is met, every choice passed (and `n`) letting the path through. -/
def under : Nat → Tree → Nat → Nat → Bool
  | 0, _, _, _ => false
  | f + 1, t, j, n => match nodeAt t j with
    | none => false
    | some c => match nodeAt t c.parent with
      | none => false
      | some p => armOk p c && (Nat.beq c.parent n || under f t c.parent n)

/-- `complete(n)`: every leaf below position `n` through enabled arms (or `n` itself) has no remaining work. -/
def completeAt (t : Tree) (n : Nat) : Bool :=
  allB (fun j => match nodeAt t j with
    | some l => !(Nat.beq l.kind 0) || !(Nat.beq j n || under (List.length t) t j n) || leafDone l
    | none => true) (positions 1 t)

/-- The sequence `p` (at position `pn`) lets its part `c` through: every earlier part is complete. -/
def seqOk (t : Tree) (pn : Nat) (p c : TNode) : Bool :=
  !(Nat.beq p.kind 4) || allB (fun j => match nodeAt t j with
    | some s => !(Nat.beq s.parent pn) || !(Nat.ble (s.pos + 1) c.pos) || completeAt t j
    | none => true) (positions 1 t)

/-- The node at position `j` lies in `addr(T)`'s walk from the root. -/
def addrUp : Nat → Tree → Nat → Bool
  | 0, _, _ => false
  | f + 1, t, j => match nodeAt t j with
    | none => false
    | some c => match c.parent with
      | 0 => true
      | pn + 1 => match nodeAt t (pn + 1) with
        | none => false
        | some p => armOk p c && seqOk t (pn + 1) p c && addrUp f t (pn + 1)

def findLeaf (b : Nat) : Nat → Tree → Option Nat
  | _, [] => none
  | i, n :: t => match Nat.beq n.kind 0 && Nat.beq n.name b with
    | true => some i
    | false => findLeaf b (i + 1) t

/-- Checkpoint's "`b` is current": `b` names a leaf of `addr(T)`. -/
def currentB (t : Tree) (b : Nat) : Bool := match findLeaf b 1 t with
  | some j => addrUp (List.length t) t j
  | none => false

/-- The leaf of `b` (the branch a Checkpoint stores: `Γ_b`, `χ_b`). -/
def leafNamed (t : Tree) (b : Nat) : Option TNode := match findLeaf b 1 t with
  | some j => nodeAt t j
  | none => none

/-- A checkpoint's stored copy of its branch (Section VII): the branch, `Γ_b`, `χ_b` and the remaining
contract `𝒞_b`. -/
structure Saved where
  id : Nat
  branch : Nat
  gamma : List Pomset
  done : List Nat
  rest : List (List Nat)
  deriving DecidableEq

/-- The copy `Checkpoint(k, b)` stores of the leaf `l`. -/
def saveLeaf (k b : Nat) (l : TNode) : Saved := ⟨k, b, l.gamma, l.done, restOuts l⟩

-- HStep ---------------------------------------------------------------------------------------------

/-- The position of the leaf whose remaining work contains `x`. -/
def leafOf (x : Nat) : Nat → Tree → Option Nat
  | _, [] => none
  | i, n :: t => match Nat.beq n.kind 0 && memN x (restCalls n) with
    | true => some i
    | false => leafOf x (i + 1) t

/-- The ancestors of position `j`, each with the arm the path enters it by. -/
def pathUp : Nat → Tree → Nat → List (Nat × Nat)
  | 0, _, _ => []
  | f + 1, t, j => match nodeAt t j with
    | none => []
    | some c => match c.parent with
      | 0 => []
      | pn + 1 => (pn + 1, c.pos) :: pathUp f t (pn + 1)

def armFor (i : Nat) : List (Nat × Nat) → Option Nat
  | [] => none
  | (p, a) :: l => match Nat.beq p i with
    | true => some a
    | false => armFor i l

def mapAt (f : Nat → TNode → TNode) : Nat → Tree → Tree
  | _, [] => []
  | i, n :: t => f i n :: mapAt f (i + 1) t

def stepNode (x j : Nat) (path : List (Nat × Nat)) (i : Nat) (n : TNode) : TNode :=
  match Nat.beq i j with
  | true => { n with done := n.done ++ [x] }
  | false => match armFor i path with
    | some a => match Nat.beq n.kind 1 && Nat.beq n.sel 0 with
      | true => { n with sel := a + 1 }
      | false => n
    | none => n

/-- `T/(x, a)`: record `x` in its leaf and select the arm of every open choice above it. -/
def hstep (t : Tree) (x : Nat) : Tree := match leafOf x 1 t with
  | none => t
  | some j => mapAt (stepNode x j (pathUp (List.length t) t j)) 1 t

end AgentWarrant.Edits.Machine
