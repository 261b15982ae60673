import AgentWarrant.Thm.Edits.DeriveTreeArity
/-! The RestoreReplace row keeps the group arities (*When Can Agents Safely Checkpoint, Fork, Restore,
and Merge?*, Table I; the property is `AritiesOk` of `Thm/Edits/DeriveTreeArity.lean`).

A current branch is a leaf, which on a tree with the arities has no children, so (parents before
children) no node after it links to it and the run `spliceAt` replaces is the leaf alone; the fresh
leaf `b_k` takes its place, kind and parent link, and every other link stays. The Fork and
RestoreLive rows, which add nodes and so shift the links after them, are in
`Thm/Edits/DeriveTreeArityFork.lean`, MergeJoin in `Thm/Edits/DeriveTreeArityMerge.lean`, MergeSelect in
`Thm/Edits/DeriveTreeArityMergeSelect.lean`. -/
namespace AgentWarrant.Edits.Machine
open AgentWarrant AgentWarrant.Edits

/-- A node's kind and parent link: all the arities read of it. -/
def arKp (n : TNode) : Nat × Nat := (n.kind, n.parent)

theorem arCountKp (p : Nat) : ∀ (a b : Tree), a.map arKp = b.map arKp → childCount p a = childCount p b
  | [], [], _ => rfl
  | [], _ :: _, h => List.noConfusion h
  | _ :: _, [], h => List.noConfusion h
  | x :: a, y :: b, h => by
    have ⟨h1, h2⟩ := List.cons.inj h
    have hp : x.parent = y.parent := congrArg (fun s => s.2) h1
    simp only [childCount]
    rw [hp, arCountKp p a b h2]

theorem arNthKp : ∀ (a b : Tree) (m : Nat) (n : TNode), a.map arKp = b.map arKp → nthNode a m = some n →
    ∃ n', nthNode b m = some n' ∧ n'.kind = n.kind
  | [], _, m, n, _, h => by cases m <;> cases h
  | _ :: _, [], _, _, h, _ => List.noConfusion h
  | x :: a, y :: b, 0, n, h, hm => by
    have ⟨h1, _⟩ := List.cons.inj h
    cases hm
    exact ⟨y, rfl, (congrArg (fun s => s.1) h1).symm⟩
  | x :: a, y :: b, m + 1, n, h, hm => by
    have ⟨_, h2⟩ := List.cons.inj h
    exact arNthKp a b m n h2 hm

/-- Two trees with the same kinds and parent links have the same arities. -/
theorem aritiesKp {a b : Tree} (h : a.map arKp = b.map arKp) (hb : AritiesOk b) : AritiesOk a := by
  intro p n hp
  cases p with
  | zero => cases hp
  | succ m =>
    have ⟨n', h', hk⟩ := arNthKp a b m n h hp
    rw [arCountKp (m + 1) a b h, ← hk]
    exact hb (m + 1) n' h'

theorem arMapApp (f : TNode → Nat × Nat) : ∀ (a b : Tree), (a ++ b).map f = a.map f ++ b.map f
  | [], b => rfl
  | x :: a, b => by
    rw [List.cons_append]
    show f x :: (a ++ b).map f = (f x :: a.map f) ++ b.map f
    rw [List.cons_append, arMapApp f a b]

/-- Replacing one node by another of the same kind and parent link keeps the kinds and links. -/
theorem arKpMid (A B : Tree) (x y : TNode) (h : arKp x = arKp y) :
    (A ++ x :: B).map arKp = (A ++ y :: B).map arKp := by
  rw [arMapApp, arMapApp]
  show _ ++ (arKp x :: _) = _ ++ (arKp y :: _)
  rw [h]

/-- A node linking to `p` makes `p`'s child count nonzero. -/
theorem arCountPos (p : Nat) : ∀ (l : Tree) (m : Nat) (x : TNode), nthNode l m = some x → x.parent = p →
    childCount p l ≠ 0
  | [], m, _, h, _ => by cases m <;> cases h
  | y :: l, 0, x, h, hx => by
    cases h
    simp only [childCount]
    rw [hx, arBeqRefl]
    exact fun e => Nat.noConfusion e
  | y :: l, m + 1, x, h, hx => by
    have ih := arCountPos p l m x h hx
    simp only [childCount]
    cases Nat.beq y.parent p with
    | true => exact fun e => Nat.noConfusion e
    | false => exact ih

theorem arBleEq {a b : Nat} (h1 : Nat.ble a b = true) (h2 : b < a + 1) : b = a :=
  Nat.leAntisymm (Nat.leOfLtSucc h2) h1

/-- A leaf with no children ends the run `spliceAt` replaces at itself: no node after it links to it. -/
theorem arRunZero {t : Tree} (hpb : ParentsBefore t) (ha : AritiesOk t) {i : Nat} {n : TNode}
    (hn : nthNode t i = some n) (hk : n.kind = 0) : runLen (i + 1) (dropN (i + 1) t) = 0 := by
  cases hd : dropN (i + 1) t with
  | nil => rfl
  | cons x r =>
    have hx : nthNode t (i + 1 + 0) = some x := by rw [← nthDrop, hd]; rfl
    have hlt := hpb (i + 2) x hx
    have hc : childCount (i + 1) t = 0 := by rw [ha (i + 1) n hn, hk]; rfl
    simp only [runLen]
    cases hb : Nat.ble (i + 1) x.parent with
    | false => rfl
    | true => exact absurd hc (arCountPos (i + 1) t (i + 1 + 0) x hx (arBleEq hb hlt))

theorem arShiftOne (j : Nat) (x : TNode) : (match Nat.ble j x.parent with
    | true => { x with parent := x.parent + 1 - (0 + 1) }
    | false => x) = x := by
  cases Nat.ble j x.parent with
  | false => rfl
  | true =>
    have e : x.parent + 1 - (0 + 1) = x.parent := addSubR x.parent 1
    cases x
    simp only []
    rw [e]

theorem arShiftId (j : Nat) : ∀ (l : Tree), l.map (fun n => match Nat.ble j n.parent with
    | true => { n with parent := n.parent + 1 - (0 + 1) }
    | false => n) = l
  | [] => rfl
  | x :: l => by
    show _ :: _ = x :: l
    rw [arShiftId j l]
    exact congrArg (fun y => y :: l) (arShiftOne j x)

/-- RestoreReplace keeps every node's arity on a tree with parents before children. -/
theorem restoreReplaceArities {t t' : Tree} {b g bk : Nat} {gk : List Pomset}
    (h : applyEdit t (TEdit.restore false b g bk gk) = some t') (hpb : ParentsBefore t) (ha : AritiesOk t) :
    AritiesOk t' := by
  have h := (rowOf h).2
  cases hc : currentLeafAt t b with
  | none => simp only [rowTree, hc] at h
  | some p => cases p with
    | mk j n =>
      have ⟨_, hf, hj⟩ := currentLeafAtSome hc
      have ⟨i, ei, _, hn⟩ := nodeAtPos hj
      subst ei
      have ⟨i2, n2, e2, hn2, hb2, _⟩ := findLeafSplit b t 1 (i + 1) hf
      rw [Nat.add_comm 1 i2] at e2
      have e3 : i = i2 := Nat.succ.inj e2
      subst e3
      have e4 : n2 = n := Option.some.inj (hn2.symm.trans hn)
      subst e4
      have hk : n2.kind = 0 := Nat.eqOfBeqEqTrue (andTrue hb2).1
      simp only [rowTree, hc] at h
      have e := applied h
      subst e
      have hr := arRunZero hpb ha hn hk
      have ht : spliceAt t (i + 1) [newLeaf bk n2.parent n2.pos gk] =
          takeN i t ++ [newLeaf bk n2.parent n2.pos gk] ++ dropN (i + 1) t := by
        show takeN (i + 1 - 1) t ++ _ ++ (dropN (runLen (i + 1) (dropN (i + 1) t)) (dropN (i + 1) t)).map _ = _
        rw [hr, addSubR i 1]
        exact congrArg (fun r => takeN i t ++ [newLeaf bk n2.parent n2.pos gk] ++ r) (arShiftId (i + 1) _)
      rw [ht]
      apply aritiesKp _ ha
      have e5 := tnTakeDrop i t
      rw [tnDropNth i t n2 hn] at e5
      have e6 : (takeN i t ++ n2 :: dropN (i + 1) t).map arKp = t.map arKp := congrArg _ e5
      rw [← e6, List.append_assoc, List.cons_append, List.nil_append]
      apply arKpMid
      show (0, n2.parent) = (n2.kind, n2.parent)
      rw [hk]

end AgentWarrant.Edits.Machine
