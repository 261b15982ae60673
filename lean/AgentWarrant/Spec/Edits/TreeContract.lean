import AgentWarrant.Spec.Edits.MachineTree
import AgentWarrant.Spec.Edits.Term
/-! The workflow contract of the record's branch tree, `⟦T⟧` (*When Can Agents Safely Checkpoint, Fork,
Restore, and Merge?*, Sections IV-A and IV-B1), on the flat preorder tree of
`Spec/Edits/MachineTree.lean`. Mirrors `contract_of` in `model/edits/runtime/tree.py`.

    ⟦b:𝒞⟧            = the outcomes of Γ_b / raw(χ_b)
    ⟦⊕_g(T₁ … Tₙ)⟧   = ⟦T₁⟧ ∪ … ∪ ⟦Tₙ⟧   (a selected choice: its selected arm's only)
    ⟦∥_g(T₁ … Tₙ)⟧   = {p₁ ⊎ … ⊎ pₙ | pᵢ ∈ ⟦Tᵢ⟧}   (a join barrier likewise)
    ⟦(T₁ ; … ; Tₙ)⟧  = the same, with every event of an earlier part before every event of a later one

Choices, where the paper is silent or the flat tree forces one:
- The contract is the list of its outcomes' pomsets, in the order of the arms and parts (the first
  part's outcome varying slowest); outcome IDs are not kept, since a leaf stores `Γ_b` by its outcome
  pomsets only. Compared with Python's as a multiset of pomsets up to the transitive closure of the order.
- A leaf's remaining outcome (`tcRest`) keeps the outcomes of `Γ_b` that `χ_b` is a prefix of a
  linearization of (`compatP`, as `residualOf`), with `χ_b`'s calls and every order pair touching one
  removed; since `χ_b` is closed under predecessors, no order between two remaining calls passes through
  a removed one.
- The products reuse the term model's merge of two results (`joinOut`); an n-ary group is folded from
  the left from the empty pomset.
- Recursion goes down by fuel (the tree's length bounds its depth); a position with no node, or fuel
  run out, contributes no outcome. -/
namespace AgentWarrant.Edits.Machine
open AgentWarrant AgentWarrant.Edits

/-- One outcome of `Γ_b` with the processed calls `χ_b` removed. -/
def tcRest (done : List Nat) (p : Pomset) : Pomset :=
  ⟨filt (fun e => !memN e done) p.events, filt (fun ab => !memN ab.1 done && !memN ab.2 done) p.order⟩

/-- `⟦b:𝒞⟧`: the outcome pomsets of the leaf's remaining contract `Γ_b / raw(χ_b)`. -/
def tcLeaf (l : TNode) : List Pomset := (filt (compatP l.done) l.gamma).map (tcRest l.done)

/-- The merge of two outcomes (in sequence when `ordered`). -/
def tcJoin (ordered : Bool) (a b : Pomset) : Pomset := (joinOut ordered ⟨[], a⟩ ⟨[], b⟩).pom

/-- Every outcome of `A` merged with every outcome of `B`. -/
def tcProd (ordered : Bool) (A B : List Pomset) : List Pomset := concatL (A.map (fun a => B.map (tcJoin ordered a)))

/-- An n-ary group's outcomes: the parts' products, folded from the left. -/
def tcFold (ordered : Bool) : List Pomset → List (List Pomset) → List Pomset
  | acc, [] => acc
  | acc, B :: l => tcFold ordered (tcProd ordered acc B) l

def tcEmpty : Pomset := ⟨[], []⟩

/-- The children of position `j` (node `n`) that `⟦T⟧` reads, in preorder: all of them, but only the
selected arm of a selected choice (`armOk`). -/
def tcKids (t : Tree) (j : Nat) (n : TNode) : List Nat :=
  filt (fun i => match nodeAt t i with
    | some c => Nat.beq c.parent j && armOk n c
    | none => false) (positions 1 t)

/-- The contract of the node `n` at position `j`, its children's contracts read by `r`. -/
def tcNode (r : Nat → List Pomset) (t : Tree) (j : Nat) (n : TNode) : List Pomset := match n.kind with
  | 0 => tcLeaf n
  | 1 => concatL ((tcKids t j n).map r)
  | 4 => tcFold true [tcEmpty] ((tcKids t j n).map r)
  | _ => tcFold false [tcEmpty] ((tcKids t j n).map r)

/-- `⟦T⟧` of the subtree at position `j`, with fuel `f`. -/
def tcAt : Nat → Tree → Nat → List Pomset
  | 0, _, _ => []
  | f + 1, t, j => match nodeAt t j with
    | none => []
    | some n => tcNode (tcAt f t) t j n

/-- `⟦T⟧`: the contract of the whole tree (its root at position 1). -/
def treeContract (t : Tree) : List Pomset := tcAt (List.length t) t 1

end AgentWarrant.Edits.Machine
