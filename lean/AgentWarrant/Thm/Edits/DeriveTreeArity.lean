import AgentWarrant.Spec.Edits.DeriveTreeArity
import AgentWarrant.Thm.Edits.DeriveTreeNames
/-! The group-arity check decides its property, and `HStep` keeps it (*When Can Agents Safely
Checkpoint, Fork, Restore, and Merge?*, Section V-A, Table I; the check is
`Spec/Edits/DeriveTreeArity.lean`).

`aritiesB` is proved equivalent to `AritiesOk` (every node at position `p` has exactly `arityOf` its
kind nodes linking to `p`), so the root check decides the property itself. `HStep` changes only
progress and selections, so it keeps every node's kind and parent link (`hstepShape`) and with them
the property; the no-op change (Extend, Checkpoint) keeps the tree; the registered root (one leaf)
passes the check. The Fork and Restore rows are in `Thm/Edits/DeriveTreeArityRows.lean` and
`Thm/Edits/DeriveTreeArityFork.lean`, MergeJoin in `Thm/Edits/DeriveTreeArityMerge.lean`, MergeSelect
and the reached-tree theorem in `Thm/Edits/DeriveTreeArityMergeSelect.lean`. -/
namespace AgentWarrant.Edits.Machine
open AgentWarrant AgentWarrant.Edits

/-- Every node of the tree, at position `p`, has exactly the children its kind gives it. -/
def AritiesOk (t : Tree) : Prop :=
  ∀ (p : Nat) (n : TNode), nodeAt t p = some n → childCount p t = arityOf n.kind

theorem arBeqRefl : ∀ (n : Nat), Nat.beq n n = true
  | 0 => rfl
  | n + 1 => arBeqRefl n

theorem arShift (o m : Nat) : o + 1 + m = o + (m + 1) := by
  rw [Nat.add_assoc, Nat.add_comm 1 m]

theorem arBIff (t : Tree) : ∀ (l : Tree) (o : Nat), arB t o l = true ↔
    ∀ (m : Nat) (n : TNode), nthNode l m = some n → childCount (o + m + 1) t = arityOf n.kind
  | [], o => by
    apply Iff.intro
    · intro _ m n h
      cases m <;> cases h
    · intro _
      rfl
  | x :: l, o => by
    apply Iff.intro
    · intro h m n hm
      have ⟨h1, h2⟩ := rootAndIff.mp h
      cases m with
      | zero =>
        cases hm
        exact Nat.eqOfBeqEqTrue h1
      | succ m =>
        have e := (arBIff t l (o + 1)).mp h2 m n hm
        rw [arShift] at e
        exact e
    · intro h
      apply rootAndIff.mpr
      apply And.intro
      · rw [h 0 x rfl]
        exact arBeqRefl _
      · apply (arBIff t l (o + 1)).mpr
        intro m n hm
        rw [arShift]
        exact h (m + 1) n hm

/-- The arity check decides the property. -/
theorem aritiesBIff (t : Tree) : aritiesB t = true ↔ AritiesOk t := by
  apply Iff.intro
  · intro h p n hp
    cases p with
    | zero => cases hp
    | succ m =>
      have e := (arBIff t t 0).mp h m n hp
      rw [Nat.zero_add] at e
      exact e
  · intro h
    apply (arBIff t t 0).mpr
    intro m n hm
    rw [Nat.zero_add]
    exact h (m + 1) n hm

-- HStep -----------------------------------------------------------------------------------------------------

theorem arCountShape (p : Nat) : ∀ (a b : Tree), a.map shape = b.map shape → childCount p a = childCount p b
  | [], [], _ => rfl
  | [], _ :: _, h => List.noConfusion h
  | _ :: _, [], h => List.noConfusion h
  | x :: a, y :: b, h => by
    have ⟨h1, h2⟩ := List.cons.inj h
    have hp : x.parent = y.parent := congrArg (fun s => s.2.2.1) h1
    simp only [childCount]
    rw [hp, arCountShape p a b h2]

theorem arNthShape : ∀ (a b : Tree) (m : Nat) (n : TNode), a.map shape = b.map shape → nthNode a m = some n →
    ∃ n', nthNode b m = some n' ∧ n'.kind = n.kind
  | [], _, m, n, _, h => by cases m <;> cases h
  | _ :: _, [], _, _, h, _ => List.noConfusion h
  | x :: a, y :: b, 0, n, h, hm => by
    have ⟨h1, _⟩ := List.cons.inj h
    cases hm
    exact ⟨y, rfl, (congrArg (fun s => s.2.1) h1).symm⟩
  | x :: a, y :: b, m + 1, n, h, hm => by
    have ⟨_, h2⟩ := List.cons.inj h
    exact arNthShape a b m n h2 hm

/-- Two trees of one shape (names, kinds, parent links, places) have the same arities. -/
theorem aritiesShape {a b : Tree} (h : a.map shape = b.map shape) (hb : AritiesOk b) : AritiesOk a := by
  intro p n hp
  cases p with
  | zero => cases hp
  | succ m =>
    have ⟨n', h', hk⟩ := arNthShape a b m n h hp
    rw [arCountShape (m + 1) a b h, ← hk]
    exact hb (m + 1) n' h'

/-- `HStep` keeps every node's arity. -/
theorem hstepArities (t : Tree) (x : Nat) (h : AritiesOk t) : AritiesOk (hstep t x) :=
  aritiesShape (hstepShape t x) h

/-- The no-op change (Extend, Checkpoint) keeps every node's arity. -/
theorem applyEditKeepArities {t t' : Tree} (h : applyEdit t TEdit.keep = some t') (ha : AritiesOk t) :
    AritiesOk t' := by
  have h := (rowOf h).2
  have e := applied h
  subst e
  exact ha


-- the root check --------------------------------------------------------------------------------------------

/-- The root update with the arity check installs exactly the roots `startNamed` installs whose tree has
the arities. -/
theorem startArityIff {d : Derived} {S : RState} :
    startArity d = some S ↔ startNamed d = some S ∧ AritiesOk d.tree := by
  apply Iff.intro
  · intro h
    simp only [startArity] at h
    cases hr : aritiesB d.tree with
    | true => rw [hr] at h; exact ⟨h, (aritiesBIff d.tree).mp hr⟩
    | false => rw [hr] at h; exact Option.noConfusion h
  · intro ⟨h, hr⟩
    simp only [startArity]
    rw [(aritiesBIff d.tree).mpr hr]
    exact h

/-- The registered root's tree is one leaf, which has no children, so the registered root passes the
arity check too. -/
theorem registeredRootArity {W : Reg.Wf} {R : Reg.RegR} {n : Nat} {lab : List Nat} {dfa : Dfa}
    {calls names : List Nat} {eta : Nat} {S : RState}
    (h : Reg.registerThenStart W R n lab dfa calls names eta = some S) :
    startArity (Reg.rootDerived R n lab dfa calls names eta) = some S :=
  startArityIff.2 ⟨registeredRootNamed h, (aritiesBIff _).1 rfl⟩

end AgentWarrant.Edits.Machine
