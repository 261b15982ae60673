import AgentWarrant.Spec.Edits.DeriveTree
import AgentWarrant.Thm.Edits.Machine
/-! The target tree of an edit, computed by Lean (`Spec/Edits/DeriveTree.lean`; *When Can Agents Safely
Checkpoint, Fork, Restore, and Merge?*, Section V-A, Table I, Appendix A-D1):
- each tree change applies only to what Table I's row names: a Fork or Restore only to a current branch,
  MergeSelect only to a current choice group that is open or already selects the arm, MergeJoin only to
  a current parallel group (`forkCurrent`, `restoreCurrent`, `selectCurrent`, `joinCurrent`), and only
  with fresh new names (`applyEditFresh`);
- `𝓔[n]` keeps every node before the named one (`spliceBefore`) and puts the row's new nodes at its
  position (`spliceAt_new`): after a Fork the branch's position holds an open choice group (or a parallel
  group) with the branch's parent and place, followed by the two fresh leaves, its arms, with no
  progress and the given contracts (`forkNodes`); RestoreReplace puts the fresh leaf in the branch's
  place, RestoreLive a parallel group over the branch (its progress kept) and the fresh leaf
  (`restoreNodes`); MergeSelect a sequence whose first part is the selected arm (`selectNodes`),
  MergeJoin a sequence whose first part is a join barrier named by the group (`joinNodes`), each with the
  fresh leaf `b_J` as the second part;
- a new arm of a Fork is current in `T'` exactly when the new group is (`forkArmCurrent`); with the fresh
  names, `currentB` finds the arms by name right after the group, so both are current branches of `T'`
  exactly when `addr(T')`'s walk reaches the group at the forked branch's position (`forkArmsFound`,
  `forkArmsCurrent`);
- on the machines run with a `Derive` that names tree changes (`treeDer`), every committed step's tree
  is the record's tree, its `HStep`, or Lean's `applyEdit` of it for a change the derivation names
  (`stepTree`); likewise every step of the ideal machine (`stepITree`). -/
namespace AgentWarrant.Edits.Machine
open AgentWarrant AgentWarrant.Edits

-- list facts ------------------------------------------------------------------------------------------

theorem takeNLen : ∀ (n : Nat) (l : Tree), n ≤ List.length l → List.length (takeN n l) = n
  | 0, _, _ => rfl
  | n + 1, [], h => absurd h (Nat.notSuccLeZero n)
  | n + 1, a :: l, h => by
    rw [List.length_cons] at h
    show List.length (a :: takeN n l) = n + 1
    rw [List.length_cons, takeNLen n l (Nat.leOfSuccLeSucc h)]

theorem nthTakeN : ∀ (n i : Nat) (l : Tree), i < n → nthNode (takeN n l) i = nthNode l i
  | 0, i, _, h => absurd h (Nat.notLtZero i)
  | n + 1, _, [], _ => rfl
  | n + 1, 0, a :: l, _ => rfl
  | n + 1, i + 1, a :: l, h => by
    simp only [takeN, nthNode]
    exact nthTakeN n i l (Nat.leOfSuccLeSucc h)

theorem nthAppendL : ∀ (a b : Tree) (i : Nat), i < List.length a → nthNode (a ++ b) i = nthNode a i
  | [], _, i, h => absurd h (Nat.notLtZero i)
  | x :: a, b, 0, _ => by rw [List.cons_append]; rfl
  | x :: a, b, i + 1, h => by
    rw [List.length_cons] at h
    rw [List.cons_append]
    exact nthAppendL a b i (Nat.leOfSuccLeSucc h)

theorem nthAppendR : ∀ (a b : Tree) (i : Nat), nthNode (a ++ b) (List.length a + i) = nthNode b i
  | [], b, i => by rw [List.nil_append]; show nthNode b (0 + i) = _; rw [Nat.zero_add]
  | x :: a, b, i => by
    rw [List.cons_append, List.length_cons, Nat.succ_add]
    simp only [nthNode]
    exact nthAppendR a b i

theorem nthSome : ∀ (t : Tree) (i : Nat) (n : TNode), nthNode t i = some n → i < List.length t
  | [], _, _, h => Option.noConfusion h
  | _ :: t, 0, _, _ => by
    rw [List.length_cons]
    exact Nat.succLeSucc (Nat.zeroLe _)
  | _ :: t, i + 1, n, h => by
    rw [List.length_cons]
    exact Nat.succLeSucc (nthSome t i n h)

theorem nodeAtPos {t : Tree} {j : Nat} {n : TNode} (h : nodeAt t j = some n) :
    ∃ i, j = i + 1 ∧ i < List.length t ∧ nthNode t i = some n := by
  cases j with
  | zero => exact Option.noConfusion h
  | succ i => exact ⟨i, rfl, nthSome t i n h, h⟩

-- the splice -------------------------------------------------------------------------------------------

/-- `𝓔[new]` keeps every node before the replaced one. -/
theorem spliceBefore (t : Tree) (i : Nat) (new : Tree) (k : Nat) (hk : k < i) (hi : i ≤ List.length t) :
    nodeAt (spliceAt t (i + 1) new) (k + 1) = nodeAt t (k + 1) := by
  show nthNode (takeN i t ++ new ++ _) k = nthNode t k
  rw [List.append_assoc, nthAppendL _ _ k (by rw [takeNLen i t hi]; exact hk), nthTakeN i k t hk]

/-- `𝓔[new]` puts the new nodes at the replaced node's position and after it, in order. -/
theorem spliceNew (t : Tree) (i : Nat) (new : Tree) (m : Nat) (n : TNode) (hi : i ≤ List.length t)
    (hn : nthNode new m = some n) : nodeAt (spliceAt t (i + 1) new) (i + m + 1) = some n := by
  show nthNode (takeN i t ++ new ++ _) (i + m) = some n
  rw [List.append_assoc]
  have key : ∀ rest : Tree, nthNode (takeN i t ++ (new ++ rest)) (i + m) = some n := fun rest => by
    have e := nthAppendR (takeN i t) (new ++ rest) m
    rw [takeNLen i t hi] at e
    rw [e, nthAppendL _ _ m (nthSome new m n hn), hn]
  exact key _

-- what each change applies to ----------------------------------------------------------------------

theorem andTrue {a b : Bool} (h : (a && b) = true) : a = true ∧ b = true := by
  cases a with
  | false => exact Bool.noConfusion h
  | true => cases b with
    | false => exact Bool.noConfusion h
    | true => exact ⟨rfl, rfl⟩

/-- A change that applies has fresh new names and is Table I's row. -/
theorem rowOf {t t' : Tree} {e : TEdit} (h : applyEdit t e = some t') : freshIn t e = true ∧ rowTree t e = some t' := by
  have h2 : (match freshIn t e with
    | true => rowTree t e
    | false => none) = some t' := h
  cases hf : freshIn t e with
  | false => rw [hf] at h2; exact Option.noConfusion h2
  | true => rw [hf] at h2; exact ⟨rfl, h2⟩

/-- The new names of an applied change are distinct and unused by the tree (A-D1's fresh IDs). -/
theorem applyEditFresh {t t' : Tree} {e : TEdit} (h : applyEdit t e = some t') :
    distinctN (freshNames e) = true ∧ allB (fun x => !(memN x (namesOf t))) (freshNames e) = true :=
  andTrue (rowOf h).1

theorem currentLeafAtSome {t : Tree} {b : Nat} {j : Nat} {n : TNode} (h : currentLeafAt t b = some (j, n)) :
    currentB t b = true ∧ findLeaf b 1 t = some j ∧ nodeAt t j = some n := by
  cases hc : currentB t b with
  | false => simp only [currentLeafAt, hc] at h
  | true =>
    cases hf : findLeaf b 1 t with
    | none => simp only [currentLeafAt, hc, hf] at h
    | some j' =>
      cases hj : nodeAt t j' with
      | none => simp only [currentLeafAt, hc, hf, hj] at h
      | some n' =>
        simp only [currentLeafAt, hc, hf, hj] at h
        have e := Option.some.inj h
        cases e
        refine ⟨?_, ?_, ?_⟩ <;> first | rfl | assumption

theorem currentGroupAtSome {t : Tree} {g : Nat} {j : Nat} {n : TNode} (h : currentGroupAt t g = some (j, n)) :
    findGroup g 1 t = some j ∧ addrUp (List.length t) t j = true ∧ nodeAt t j = some n := by
  cases hf : findGroup g 1 t with
  | none => simp only [currentGroupAt, hf] at h
  | some j' =>
    cases ha : addrUp (List.length t) t j' with
    | false => simp only [currentGroupAt, hf, ha] at h
    | true =>
      cases hj : nodeAt t j' with
      | none => simp only [currentGroupAt, hf, ha, hj] at h
      | some n' =>
        simp only [currentGroupAt, hf, ha, hj] at h
        have e := Option.some.inj h
        cases e
        refine ⟨?_, ?_, ?_⟩ <;> first | rfl | assumption

/-- A Fork applies only to a current branch. -/
theorem forkCurrent {t t' : Tree} {par : Bool} {b g bl br : Nat} {gl gr : List Pomset}
    (h : applyEdit t (TEdit.fork par b g bl br gl gr) = some t') : currentB t b = true := by
  have h := (rowOf h).2
  cases hc : currentLeafAt t b with
  | none => simp only [rowTree, hc] at h
  | some p => cases p with
    | mk j n => exact (currentLeafAtSome hc).1

/-- A Restore applies only to a current branch. -/
theorem restoreCurrent {t t' : Tree} {live : Bool} {b g bk : Nat} {gk : List Pomset}
    (h : applyEdit t (TEdit.restore live b g bk gk) = some t') : currentB t b = true := by
  have h := (rowOf h).2
  cases hc : currentLeafAt t b with
  | none => simp only [rowTree, hc] at h
  | some p => cases p with
    | mk j n => exact (currentLeafAtSome hc).1

/-- MergeSelect applies only to a current choice group, open or already selecting the arm, that has the arm. -/
theorem selectCurrent {t t' : Tree} {g arm bj : Nat} {gj : List Pomset}
    (h : applyEdit t (TEdit.select g arm bj gj) = some t') :
    ∃ j n a, currentGroupAt t g = some (j, n) ∧ n.kind = 1 ∧ selOk n arm = true ∧ findChild j arm 1 t = some a := by
  have h := (rowOf h).2
  cases hc : currentGroupAt t g with
  | none => simp only [rowTree, hc] at h
  | some p =>
    cases p with
    | mk j n =>
      cases hk : (Nat.beq n.kind 1 && selOk n arm) with
      | false => simp only [rowTree, hc, hk] at h
      | true =>
        cases ha : findChild j arm 1 t with
        | none => simp only [rowTree, hc, hk, ha] at h
        | some a =>
          have ⟨h1, h2⟩ := andTrue hk
          exact ⟨j, n, a, rfl, Nat.eqOfBeqEqTrue h1, h2, ha⟩

/-- MergeJoin applies only to a current parallel group. -/
theorem joinCurrent {t t' : Tree} {g bj : Nat} {gj : List Pomset}
    (h : applyEdit t (TEdit.join g bj gj) = some t') :
    ∃ j n, currentGroupAt t g = some (j, n) ∧ n.kind = 2 := by
  have h := (rowOf h).2
  cases hc : currentGroupAt t g with
  | none => simp only [rowTree, hc] at h
  | some p =>
    cases p with
    | mk j n =>
      cases hk : Nat.beq n.kind 2 with
      | false => simp only [rowTree, hc, hk] at h
      | true => exact ⟨j, n, rfl, Nat.eqOfBeqEqTrue hk⟩


-- where the new nodes are ------------------------------------------------------------------------------

theorem nodeAtLe {t : Tree} {i : Nat} {n : TNode} (h : nodeAt t (i + 1) = some n) : i ≤ List.length t :=
  Nat.leTrans (Nat.leSucc i) (nthSome t i n h)

theorem applied {t' t'' : Tree} (h : some t'' = some t') : t' = t'' := (Option.some.inj h).symm

/-- After a Fork of the current branch `b` (at position `i + 1`): every node before it is kept, its
position holds the new group — an open choice, or a parallel group — with `b`'s parent and place,
and the next two the fresh leaves `b_L`, `b_R` under it, with no progress and the given contracts. -/
theorem forkNodes {t t' : Tree} {par : Bool} {b g bl br : Nat} {gl gr : List Pomset}
    (h : applyEdit t (TEdit.fork par b g bl br gl gr) = some t') :
    ∃ i n, currentLeafAt t b = some (i + 1, n) ∧
      (∀ k, k < i → nodeAt t' (k + 1) = nodeAt t (k + 1)) ∧
      nodeAt t' (i + 1) = some ⟨g, match par with | true => 2 | false => 1, n.parent, n.pos, 0, [], []⟩ ∧
      nodeAt t' (i + 1 + 1) = some (newLeaf bl (i + 1) 0 gl) ∧
      nodeAt t' (i + 2 + 1) = some (newLeaf br (i + 1) 1 gr) := by
  have h := (rowOf h).2
  cases hc : currentLeafAt t b with
  | none => simp only [rowTree, hc] at h
  | some p => cases p with
    | mk j n =>
      have ⟨_, _, hj⟩ := currentLeafAtSome hc
      have ⟨i, ei, _, _⟩ := nodeAtPos hj
      subst ei
      have hi := nodeAtLe hj
      simp only [rowTree, hc] at h
      have e := applied h
      subst e
      have h0 := spliceNew t i [⟨g, match par with | true => 2 | false => 1, n.parent, n.pos, 0, [], []⟩,
        newLeaf bl (i + 1) 0 gl, newLeaf br (i + 1) 1 gr] 0 _ hi rfl
      rw [Nat.add_zero] at h0
      exact ⟨i, n, rfl, fun k hk => spliceBefore t i _ k hk hi, h0, spliceNew t i _ 1 _ hi rfl,
        spliceNew t i _ 2 _ hi rfl⟩

/-- After a RestoreReplace of the current branch `b`: every node before it is kept and its position
holds the fresh leaf `b_k`, in `b`'s place, with no progress and the given contract. -/
theorem restoreNodes {t t' : Tree} {b g bk : Nat} {gk : List Pomset}
    (h : applyEdit t (TEdit.restore false b g bk gk) = some t') :
    ∃ i n, currentLeafAt t b = some (i + 1, n) ∧
      (∀ k, k < i → nodeAt t' (k + 1) = nodeAt t (k + 1)) ∧
      nodeAt t' (i + 1) = some (newLeaf bk n.parent n.pos gk) := by
  have h := (rowOf h).2
  cases hc : currentLeafAt t b with
  | none => simp only [rowTree, hc] at h
  | some p => cases p with
    | mk j n =>
      have ⟨_, _, hj⟩ := currentLeafAtSome hc
      have ⟨i, ei, _, _⟩ := nodeAtPos hj
      subst ei
      have hi := nodeAtLe hj
      simp only [rowTree, hc] at h
      have e := applied h
      subst e
      have h0 := spliceNew t i [newLeaf bk n.parent n.pos gk] 0 _ hi rfl
      rw [Nat.add_zero] at h0
      exact ⟨i, n, rfl, fun k hk => spliceBefore t i _ k hk hi, h0⟩

/-- After a RestoreLive of the current branch `b`: every node before it is kept, its position holds a
parallel group `g` in `b`'s place, and the next two `b` itself (its progress kept) and the fresh leaf
`b_k`, the group's parts. -/
theorem restoreLiveNodes {t t' : Tree} {b g bk : Nat} {gk : List Pomset}
    (h : applyEdit t (TEdit.restore true b g bk gk) = some t') :
    ∃ i n, currentLeafAt t b = some (i + 1, n) ∧
      (∀ k, k < i → nodeAt t' (k + 1) = nodeAt t (k + 1)) ∧
      nodeAt t' (i + 1) = some ⟨g, 2, n.parent, n.pos, 0, [], []⟩ ∧
      nodeAt t' (i + 1 + 1) = some { n with parent := i + 1, pos := 0 } ∧
      nodeAt t' (i + 2 + 1) = some (newLeaf bk (i + 1) 1 gk) := by
  have h := (rowOf h).2
  cases hc : currentLeafAt t b with
  | none => simp only [rowTree, hc] at h
  | some p => cases p with
    | mk j n =>
      have ⟨_, _, hj⟩ := currentLeafAtSome hc
      have ⟨i, ei, _, _⟩ := nodeAtPos hj
      subst ei
      have hi := nodeAtLe hj
      simp only [rowTree, hc] at h
      have e := applied h
      subst e
      have h0 := spliceNew t i [⟨g, 2, n.parent, n.pos, 0, [], []⟩, { n with parent := i + 1, pos := 0 },
        newLeaf bk (i + 1) 1 gk] 0 _ hi rfl
      rw [Nat.add_zero] at h0
      exact ⟨i, n, rfl, fun k hk => spliceBefore t i _ k hk hi, h0, spliceNew t i _ 1 _ hi rfl,
        spliceNew t i _ 2 _ hi rfl⟩

theorem nthHead (x : TNode) (kept : Tree) (l : TNode) : nthNode (x :: kept ++ [l]) 0 = some x := by
  rw [List.cons_append]; rfl

theorem nthSecond (x y : TNode) (r : Tree) (l : TNode) : nthNode (x :: y :: r ++ [l]) 1 = some y := by
  rw [List.cons_append, List.cons_append]; rfl

theorem nthLast (x : TNode) (kept : Tree) (l : TNode) :
    nthNode (x :: kept ++ [l]) (List.length kept + 1) = some l := by
  rw [List.cons_append]
  show nthNode (kept ++ [l]) (List.length kept) = some l
  have e := nthAppendR kept [l] 0
  rw [Nat.add_zero] at e
  rw [e]
  rfl

/-- After a MergeSelect of the current choice group `g` (at position `i + 1`) keeping the arm rooted at
`c`: every node before `g` is kept, `g`'s position holds a sequence in its place, the next the arm's
root as the sequence's first part, and a later one the fresh leaf `b_J` as its second part. -/
theorem selectNodes {t t' : Tree} {g arm bj : Nat} {gj : List Pomset}
    (h : applyEdit t (TEdit.select g arm bj gj) = some t') :
    ∃ i n a c m, currentGroupAt t g = some (i + 1, n) ∧ n.kind = 1 ∧ findChild (i + 1) arm 1 t = some a ∧
      nodeAt t a = some c ∧
      (∀ k, k < i → nodeAt t' (k + 1) = nodeAt t (k + 1)) ∧
      nodeAt t' (i + 1) = some ⟨0, 4, n.parent, n.pos, 0, [], []⟩ ∧
      nodeAt t' (i + 1 + 1) = some { c with parent := i + 1, pos := 0 } ∧
      nodeAt t' (i + m + 1) = some (newLeaf bj (i + 1) 1 gj) := by
  have ⟨j, n, a, hc, hk, hs, ha⟩ := selectCurrent h
  have ⟨_, _, hj⟩ := currentGroupAtSome hc
  have ⟨i, ei, _, _⟩ := nodeAtPos hj
  subst ei
  have hi := nodeAtLe hj
  have hk' : Nat.beq n.kind 1 = true := by rw [hk]; rfl
  have hb : (Nat.beq n.kind 1 && selOk n arm) = true := by rw [hk', hs]; rfl
  have h := (rowOf h).2
  cases hcn : nodeAt t a with
  | none =>
    simp only [rowTree, hc, hb, ha, hcn] at h
  | some c =>
    simp only [rowTree, hc, hb, ha, hcn] at h
    have e := applied h
    subst e
    let kept := { c with parent := i + 1, pos := 0 } :: moveTo a (i + 1 + 1) (below t a)
    have h0 := spliceNew t i _ 0 _ hi (nthHead ⟨0, 4, n.parent, n.pos, 0, [], []⟩ kept (newLeaf bj (i + 1) 1 gj))
    rw [Nat.add_zero] at h0
    exact ⟨i, n, a, c, List.length kept + 1, hc, hk, ha, hcn, fun k hk => spliceBefore t i _ k hk hi, h0,
      spliceNew t i _ 1 _ hi (nthSecond _ _ _ _), spliceNew t i _ _ _ hi (nthLast _ kept _)⟩

/-- After a MergeJoin of the current parallel group `g` (at position `i + 1`): every node before it is
kept, its position holds a sequence in its place, the next the join barrier (the group under its name,
no longer a parallel group) as the sequence's first part, and a later one the fresh leaf `b_J` as its
second part. -/
theorem joinNodes {t t' : Tree} {g bj : Nat} {gj : List Pomset}
    (h : applyEdit t (TEdit.join g bj gj) = some t') :
    ∃ i n m, currentGroupAt t g = some (i + 1, n) ∧ n.kind = 2 ∧
      (∀ k, k < i → nodeAt t' (k + 1) = nodeAt t (k + 1)) ∧
      nodeAt t' (i + 1) = some ⟨0, 4, n.parent, n.pos, 0, [], []⟩ ∧
      nodeAt t' (i + 1 + 1) = some { n with kind := 3, parent := i + 1, pos := 0 } ∧
      nodeAt t' (i + m + 1) = some (newLeaf bj (i + 1) 1 gj) := by
  have ⟨j, n, hc, hk⟩ := joinCurrent h
  have ⟨hg, _, hj⟩ := currentGroupAtSome hc
  have ⟨i, ei, _, _⟩ := nodeAtPos hj
  subst ei
  have hi := nodeAtLe hj
  have hk' : Nat.beq n.kind 2 = true := by rw [hk]; rfl
  have h := (rowOf h).2
  simp only [rowTree, hc, hk'] at h
  have e := applied h
  subst e
  let kept := { n with kind := 3, parent := i + 1, pos := 0 } :: moveTo (i + 1) (i + 1 + 1) (below t (i + 1))
  have h0 := spliceNew t i _ 0 _ hi (nthHead ⟨0, 4, n.parent, n.pos, 0, [], []⟩ kept (newLeaf bj (i + 1) 1 gj))
  rw [Nat.add_zero] at h0
  exact ⟨i, n, List.length kept + 1, hc, hk, fun k hk => spliceBefore t i _ k hk hi, h0,
    spliceNew t i _ 1 _ hi (nthSecond _ _ _ _), spliceNew t i _ _ _ hi (nthLast _ kept _)⟩

/-- One step of `addrUp`: a node is in the walk when its parent lets it through and is in the walk. -/
theorem addrUpStep (f : Nat) (t : Tree) (j : Nat) (c p : TNode) (pn : Nat) (hc : nodeAt t j = some c)
    (hpar : c.parent = pn + 1) (hp : nodeAt t (pn + 1) = some p) :
    addrUp (f + 1) t j = (armOk p c && seqOk t (pn + 1) p c && addrUp f t (pn + 1)) := by
  have e : addrUp (f + 1) t j = (match c.parent with
      | 0 => true
      | pn + 1 => match nodeAt t (pn + 1) with
        | none => false
        | some p => armOk p c && seqOk t (pn + 1) p c && addrUp f t (pn + 1)) := by
    simp only [addrUp, hc]; rfl
  rw [e, hpar]
  show (match nodeAt t (pn + 1) with
        | none => false
        | some p => armOk p c && seqOk t (pn + 1) p c && addrUp f t (pn + 1)) = _
  rw [hp]

/-- A new arm of a Fork is current in `T'` exactly when the new group is: the group is open (or
parallel) and not a sequence, so it lets both arms through. -/
theorem forkArmCurrent {t t' : Tree} {par : Bool} {b g bl br : Nat} {gl gr : List Pomset}
    (h : applyEdit t (TEdit.fork par b g bl br gl gr) = some t') (f : Nat) :
    ∃ i, addrUp (f + 1) t' (i + 1 + 1) = addrUp f t' (i + 1) ∧ addrUp (f + 1) t' (i + 2 + 1) = addrUp f t' (i + 1) := by
  have ⟨i, n, _, _, hg, hl, hr⟩ := forkNodes h
  refine ⟨i, ?_, ?_⟩
  · rw [addrUpStep f t' _ _ _ i hl rfl hg]; cases par <;> rfl
  · rw [addrUpStep f t' _ _ _ i hr rfl hg]; cases par <;> rfl

-- the fork's arms by name ------------------------------------------------------------------------------
/-- No leaf of the list is named `b`. -/
def noLeaf (b : Nat) (l : Tree) : Bool := allB (fun n => !(Nat.beq n.kind 0 && Nat.beq n.name b)) l

theorem findLeafApp (b : Nat) : ∀ (a rest : Tree) (k : Nat), noLeaf b a = true →
    findLeaf b k (a ++ rest) = findLeaf b (k + List.length a) rest
  | [], rest, k, _ => by rw [List.nil_append]; show findLeaf b k rest = findLeaf b (k + 0) rest; rw [Nat.add_zero]
  | n :: a, rest, k, h => by
    cases hp : (Nat.beq n.kind 0 && Nat.beq n.name b) with
    | true =>
      have e : (!(Nat.beq n.kind 0 && Nat.beq n.name b)) = false := by rw [hp]; rfl
      simp only [noLeaf, allB, e] at h
    | false =>
      have e : (!(Nat.beq n.kind 0 && Nat.beq n.name b)) = true := by rw [hp]; rfl
      have h' : noLeaf b a = true := by simp only [noLeaf, allB, e] at h; exact h
      rw [List.cons_append, List.length_cons]
      have e2 : findLeaf b k (n :: (a ++ rest)) = findLeaf b (k + 1) (a ++ rest) := by
        simp only [findLeaf, hp]; rfl
      rw [e2, findLeafApp b a rest (k + 1) h', Nat.add_assoc, Nat.add_comm 1]

theorem noLeafTake (b : Nat) : ∀ (i : Nat) (t : Tree), noLeaf b t = true → noLeaf b (takeN i t) = true
  | 0, _, _ => rfl
  | _ + 1, [], _ => rfl
  | i + 1, n :: t, h => by
    cases hp : (!(Nat.beq n.kind 0 && Nat.beq n.name b)) with
    | false => simp only [noLeaf, allB, hp] at h
    | true =>
      have h' : noLeaf b t = true := by simp only [noLeaf, allB, hp] at h; exact h
      have ih := noLeafTake b i t h'
      show allB _ (n :: takeN i t) = true
      simp only [allB, hp]
      exact ih

theorem noLeafFresh (b : Nat) : ∀ (t : Tree), memN b (namesOf t) = false → noLeaf b t = true
  | [], _ => rfl
  | n :: t, h => by
    cases hq : Nat.beq n.kind 4 with
    | true =>
      have hk : n.kind = 4 := Nat.eqOfBeqEqTrue hq
      have e1 : namesOf (n :: t) = namesOf t := by
        have e : (!(Nat.beq n.kind 4)) = false := by rw [hq]; rfl
        simp only [namesOf, filt, e]; rfl
      rw [e1] at h
      have e : (!(Nat.beq n.kind 0 && Nat.beq n.name b)) = true := by rw [hk]; rfl
      show allB _ (n :: t) = true
      simp only [allB, e]
      exact noLeafFresh b t h
    | false =>
      have e1 : namesOf (n :: t) = n.name :: namesOf t := by
        have e : (!(Nat.beq n.kind 4)) = true := by rw [hq]; rfl
        simp only [namesOf, filt, e]
        rfl
      rw [e1] at h
      cases hn : Nat.beq n.name b with
      | true => simp only [memN, anyB, hn] at h
      | false =>
        have h' : memN b (namesOf t) = false := by simp only [memN, anyB, hn] at h; exact h
        have e : (!(Nat.beq n.kind 0 && Nat.beq n.name b)) = true := by
          rw [hn]; cases Nat.beq n.kind 0 <;> rfl
        show allB _ (n :: t) = true
        simp only [allB, e]
        exact noLeafFresh b t h'


theorem allBCons {p : α → Bool} {a : α} {l : List α} (h : allB p (a :: l) = true) : p a = true ∧ allB p l = true := by
  cases hp : p a with
  | false => simp only [allB, hp] at h
  | true => simp only [allB, hp] at h; exact ⟨rfl, h⟩

theorem beqSelf : ∀ n : Nat, Nat.beq n n = true
  | 0 => rfl
  | n + 1 => beqSelf n

theorem notTrueF {x : Bool} (h : (!x) = true) : x = false := by
  cases x with
  | false => rfl
  | true => exact Bool.noConfusion h

/-- After a Fork, its fresh arms are the leaves named `b_L`, `b_R`: right after the new group, at the
branch's old position. -/
theorem forkArmsFound {t t' : Tree} {par : Bool} {b g bl br : Nat} {gl gr : List Pomset}
    (h : applyEdit t (TEdit.fork par b g bl br gl gr) = some t') :
    ∃ i n, currentLeafAt t b = some (i + 1, n) ∧
      findLeaf bl 1 t' = some (i + 1 + 1) ∧ findLeaf br 1 t' = some (i + 2 + 1) := by
  have ⟨hd, ha⟩ := applyEditFresh h
  have ⟨_, ha1⟩ := allBCons ha
  have ⟨hbl0, ha2⟩ := allBCons ha1
  have ⟨hbr0, _⟩ := allBCons ha2
  have hbl := notTrueF hbl0
  have hbr := notTrueF hbr0
  have ⟨_, hd1⟩ := andTrue hd
  have ⟨hd2, _⟩ := andTrue hd1
  have hne : Nat.beq bl br = false := by
    have e := notTrueF hd2
    cases hb : Nat.beq bl br with
    | false => rfl
    | true =>
      have ee := Nat.eqOfBeqEqTrue hb
      subst ee
      simp only [memN, anyB, beqSelf] at e
  have h := (rowOf h).2
  cases hc : currentLeafAt t b with
  | none => simp only [rowTree, hc] at h
  | some p => cases p with
    | mk j n =>
      have ⟨_, _, hj⟩ := currentLeafAtSome hc
      have ⟨i, ei, _, _⟩ := nodeAtPos hj
      subst ei
      have hi := nodeAtLe hj
      simp only [rowTree, hc] at h
      have e := applied h
      subst e
      refine ⟨i, n, rfl, ?_, ?_⟩
      · show findLeaf bl 1 (takeN i t ++ _ ++ _) = _
        rw [List.append_assoc, findLeafApp bl _ _ 1 (noLeafTake bl i t (noLeafFresh bl t hbl)), takeNLen i t hi,
          Nat.add_comm 1 i]
        cases par <;> simp only [List.cons_append, findLeaf, newLeaf, beqSelf] <;> rfl
      · show findLeaf br 1 (takeN i t ++ _ ++ _) = _
        rw [List.append_assoc, findLeafApp br _ _ 1 (noLeafTake br i t (noLeafFresh br t hbr)), takeNLen i t hi,
          Nat.add_comm 1 i]
        cases par <;> simp only [List.cons_append, findLeaf, newLeaf, beqSelf, hne] <;> rfl

/-- After a Fork, both fresh arms are current in `T'` exactly when `addr(T')`'s walk reaches the new
group, which stands at the forked branch's position with its parent and place. -/
theorem forkArmsCurrent {t t' : Tree} {par : Bool} {b g bl br : Nat} {gl gr : List Pomset}
    (h : applyEdit t (TEdit.fork par b g bl br gl gr) = some t') :
    ∃ i n f, currentLeafAt t b = some (i + 1, n) ∧
      nodeAt t' (i + 1) = some ⟨g, match par with | true => 2 | false => 1, n.parent, n.pos, 0, [], []⟩ ∧
      currentB t' bl = addrUp f t' (i + 1) ∧ currentB t' br = addrUp f t' (i + 1) := by
  have ⟨i, n, hc, hfl, hfr⟩ := forkArmsFound h
  have ⟨i2, n2, hc2, _, hg, hl, hr⟩ := forkNodes h
  rw [hc] at hc2
  have e := Option.some.inj hc2
  cases e
  have ⟨k, _, hk, _⟩ := nodeAtPos hl
  cases hlen : List.length t' with
  | zero => rw [hlen] at hk; exact absurd hk (Nat.notLtZero _)
  | succ f =>
    refine ⟨i, n, f, hc, hg, ?_, ?_⟩
    · simp only [currentB, hfl]
      rw [hlen, addrUpStep f t' _ _ _ i hl rfl hg]
      cases par <;> rfl
    · simp only [currentB, hfr]
      rw [hlen, addrUpStep f t' _ _ _ i hr rfl hg]
      cases par <;> rfl

-- the machines ---------------------------------------------------------------------------------------

/-- The trees a committed step may leave: the record's own, its `HStep`, or Lean's `applyEdit` of it for
a tree change the derivation names at this record. -/
def TreeStep (tab : Core → Nat → Option (Derived × TEdit)) (c : Core) (t' : Tree) : Prop :=
  t' = c.tree ∨ (∃ x, t' = hstep c.tree x) ∨ (∃ u d e, tab c u = some (d, e) ∧ applyEdit c.tree e = some t')

theorem treeDerTree {tab : Core → Nat → Option (Derived × TEdit)} {c : Core} {u : Nat} {d : Derived}
    (h : treeDer tab c u = some d) : ∃ d0 e, tab c u = some (d0, e) ∧ applyEdit c.tree e = some d.tree := by
  cases ht : tab c u with
  | none => simp only [treeDer, ht] at h
  | some p => cases p with
    | mk d0 e =>
      cases ha : applyEdit c.tree e with
      | none => simp only [treeDer, withTree, ht, ha] at h
      | some t =>
        simp only [treeDer, withTree, ht, ha] at h
        have e2 := Option.some.inj h
        subst e2
        exact ⟨d0, e, rfl, ha⟩

theorem takeCallTree (c : Core) (x v : Nat) : (takeCall c x v).2.tree = hstep c.tree x := by
  cases hn : (letterOf c x).new with
  | true => simp only [takeCall, hn]; rfl
  | false => simp only [takeCall, hn]; rfl

theorem dispatchTree (c : Core) : (dispatch c).2.tree = c.tree := by
  simp only [dispatch]
  cases markSent c.log with
  | mk r l =>
    cases r with
    | none => rfl
    | some p => cases p with
      | mk n a => rfl

theorem settleTree (c : Core) (d v : Nat) : (settle c d v).2.tree = c.tree := by
  simp only [settle]
  cases findAuth d 1 c.log with
  | none => rfl
  | some p =>
    cases p with
    | mk n a =>
      simp only []
      cases a.sent with
      | false => rfl
      | true =>
        cases a.value with
        | some _ => rfl
        | none => rfl

theorem checkpointTree (c : Core) (k b : Nat) : (checkpoint c k b).2.tree = c.tree := by
  cases he : c.eta with
  | none => simp only [checkpoint, he]; rfl
  | some e =>
    cases hn : (memB k c.names || memB k c.ckpts) with
    | true => simp only [checkpoint, he, hn]; rfl
    | false =>
      cases hc : currentB c.tree b with
      | false => simp only [checkpoint, he, hn, hc]; rfl
      | true =>
        cases hl : leafNamed c.tree b with
        | none => simp only [checkpoint, he, hn, hc, hl]; rfl
        | some l => simp only [checkpoint, he, hn, hc, hl]; rfl

theorem extendTree (c : Core) (dfa : Dfa) (en : Nat) (ok : Bool) : (extendCore c dfa en ok).tree = c.tree := by
  cases hx : (extendStep c dfa en ok).2 with
  | none => simp only [extendCore, pickCore, hx]; rfl
  | some c' =>
    have ⟨_, _, _, _, e⟩ := extendStepSome hx
    simp only [extendCore, pickCore, hx]
    rw [e]
    rfl

/-- Lean computes every tree of the runtime: run with a `Derive` that names tree changes (`treeDer`),
each committed step leaves the record's tree, its `HStep` (a tool call), or Lean's `applyEdit` of it for
the change the derivation names at that record (a rule update). -/
theorem stepTree (tab : Core → Nat → Option (Derived × TEdit)) (S : RState) (e : Ev) :
    TreeStep tab S.core (stepR (treeDer tab) S e).2.core.tree := by
  cases e with
  | check u => exact Or.inl rfl
  | update u y =>
    show TreeStep tab S.core (tryUpdate (treeDer tab) S u y).2.core.tree
    cases tryUpdateSplit (treeDer tab) S u y with
    | inl e => rw [e]; exact Or.inl rfl
    | inr p =>
      have ⟨d, hr, e⟩ := p
      rw [e]
      have ⟨_, hd, _, _⟩ := readyOk hr
      have ⟨d0, te, h1, h2⟩ := treeDerTree hd
      exact Or.inr (Or.inr ⟨u, d0, te, h1, h2⟩)
  | preload u y =>
    show TreeStep tab S.core (preload (treeDer tab) S u y).2.core.tree
    rw [preloadCore]; exact Or.inl rfl
  | use x tok ok =>
    show TreeStep tab S.core (useR S.core x tok ok).2.tree
    cases useRSplit S.core x tok ok with
    | inl e => rw [e]; exact Or.inl rfl
    | inr p => have ⟨v, _, e⟩ := p; rw [e, takeCallTree]; exact Or.inr (Or.inl ⟨x, rfl⟩)
  | retry x tok ok => exact Or.inl rfl
  | dispatch => show TreeStep tab S.core (dispatch S.core).2.tree; rw [dispatchTree]; exact Or.inl rfl
  | settle d v => show TreeStep tab S.core (settle S.core d v).2.tree; rw [settleTree]; exact Or.inl rfl
  | checkpoint k b =>
    show TreeStep tab S.core (checkpoint S.core k b).2.tree; rw [checkpointTree]; exact Or.inl rfl
  | extend dfa en ok =>
    show TreeStep tab S.core (extendR S dfa en ok).core.tree
    rw [extendRCore, extendTree]; exact Or.inl rfl


theorem editITree (tab : Core → Nat → Option (Derived × TEdit)) (c : Core) (u : Nat) :
    TreeStep tab c (editI (treeDer tab) c u).2.tree := by
  cases hd : treeDer tab c u with
  | none => simp only [editI, hd]; exact Or.inl rfl
  | some d =>
    cases hs : safeSet (build d.inst) with
    | nil => simp only [editI, hd, hs]; exact Or.inl rfl
    | cons s ss =>
      simp only [editI, hd, hs]
      have ⟨d0, e, h1, h2⟩ := treeDerTree hd
      exact Or.inr (Or.inr ⟨u, d0, e, h1, h2⟩)

theorem useITree (c : Core) (x : Nat) (ok : Bool) :
    (useI c x ok).2.tree = c.tree ∨ (useI c x ok).2.tree = hstep c.tree x := by
  cases he : c.eta with
  | none => simp only [useI, he]; exact Or.inl rfl
  | some eta =>
    cases h1 : (memB x c.rules && memB x c.entries) <;> cases h2 : findProc x c.procd <;> cases ok <;>
      cases h4 : inW c.safe (since c ++ [letterOf c x]) <;> simp only [useI, he, h1, h2, h4] <;>
      first | (apply Or.inl; rfl) | (apply Or.inr; exact takeCallTree c x eta)

/-- The same on the ideal machine: each step leaves the record's tree, its `HStep`, or Lean's `applyEdit`
of it for the change the derivation names (an accepted edit). -/
theorem stepITree (tab : Core → Nat → Option (Derived × TEdit)) (c : Core) (e : IEv) :
    TreeStep tab c (stepI (treeDer tab) c e).2.tree := by
  cases e with
  | edit u => exact editITree tab c u
  | use x ok =>
    show TreeStep tab c (useI c x ok).2.tree
    cases useITree c x ok with
    | inl h => rw [h]; exact Or.inl rfl
    | inr h => rw [h]; exact Or.inr (Or.inl ⟨x, rfl⟩)
  | dispatch => show TreeStep tab c (dispatch c).2.tree; rw [dispatchTree]; exact Or.inl rfl
  | settle d v => show TreeStep tab c (settle c d v).2.tree; rw [settleTree]; exact Or.inl rfl
  | checkpoint k b => show TreeStep tab c (checkpoint c k b).2.tree; rw [checkpointTree]; exact Or.inl rfl
  | extend dfa en ok => show TreeStep tab c (extendCore c dfa en ok).tree; rw [extendTree]; exact Or.inl rfl

end AgentWarrant.Edits.Machine
