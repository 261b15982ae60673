import AgentWarrant.Spec.Edits.MachineTree
/-! `addr(T)` declaratively (*When Can Agents Safely Checkpoint, Fork, Restore, and Merge?*, Section
IV-B1: the IDs an edit may currently name, each current group and the current part of a sequence), as
inductive relations over the flat tree of `Spec/Edits/MachineTree.lean`, independent of the executable
walk `addrUp` behind `currentB`:
- a choice lets an arm through when it is open or selects it (`Lets`);
- `Below t n k`: position `k` is `n` or lies below it through arms the choices on the way let through;
- `Complete t n`: every leaf below `n` has no remaining work (`complete(n)`);
- `Addr t j`: position `j` is a root, or its parent is in `Addr`, lets it through, and — a sequence —
  has every earlier part complete.

Choices, where the paper is silent: a join barrier and a parallel group let every part through (as the
Python `addr(T)`); "no remaining work" of a leaf is `leafDone` (its remaining contract `Γ_b/raw(χ_b)` has
only empty outcomes), the remaining-work equation the tree holds by construction. -/
namespace AgentWarrant.Edits.Machine
open AgentWarrant AgentWarrant.Edits

/-- The node `p` lets its child `c` through: unless `p` is a choice, always; a choice when it is open or
selects `c`'s arm. -/
def Lets (p c : TNode) : Prop := p.kind = 1 → p.sel = 0 ∨ p.sel = c.pos + 1

/-- Position `k` is `n` or lies below it, every node on the way letting the path through. -/
inductive Below (t : Tree) (n : Nat) : Nat → Prop
  | here : Below t n n
  | up {k : Nat} {c p : TNode} : nodeAt t k = some c → nodeAt t c.parent = some p → Lets p c →
      Below t n c.parent → Below t n k

/-- `complete(n)`: every leaf below position `n` has no remaining work. -/
def Complete (t : Tree) (n : Nat) : Prop :=
  ∀ k l, nodeAt t k = some l → l.kind = 0 → Below t n k → leafDone l = true

/-- A sequence at position `pn` lets its part `c` through when every earlier part is complete. -/
def SeqLets (t : Tree) (pn : Nat) (p c : TNode) : Prop :=
  p.kind = 4 → ∀ k s, nodeAt t k = some s → s.parent = pn → s.pos < c.pos → Complete t k

/-- `addr(T)` by position: a root, or a node whose parent is in `addr(T)` and lets it through. -/
inductive Addr (t : Tree) : Nat → Prop
  | root {j : Nat} {c : TNode} : nodeAt t j = some c → c.parent = 0 → Addr t j
  | child {j pn : Nat} {c p : TNode} : nodeAt t j = some c → c.parent = pn + 1 → nodeAt t (pn + 1) = some p →
      Lets p c → SeqLets t (pn + 1) p c → Addr t (pn + 1) → Addr t j

end AgentWarrant.Edits.Machine
