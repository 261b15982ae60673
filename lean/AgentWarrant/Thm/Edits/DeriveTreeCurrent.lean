import AgentWarrant.Thm.Edits.DeriveTree
/-! Currency of the new leaves of the Restore and Merge rows (*When Can Agents Safely Checkpoint, Fork,
Restore, and Merge?*, Section V-A and Table I, Appendix A-D1), on the trees Lean builds
(`Spec/Edits/DeriveTree.lean`):
- RestoreReplace: the fresh leaf `b_k` is the leaf `currentB` finds by its name, at the restored branch's
  position with its parent and place, so `b_k` is current in `T'` exactly when `addr(T')`'s walk accepts
  that position (`restoreFreshCurrent`);
- RestoreLive: both parts of the new parallel group, the branch `b` (progress kept) and the fresh `b_k`,
  are found by name right after the group, and each is current exactly when the walk reaches the group
  (`restoreLiveCurrent`): a parallel group lets every part through;
- MergeSelect and MergeJoin: `b_J` is found by name as the second part of the new sequence, and it is
  current exactly when the walk reaches the sequence and the sequence's earlier parts (the kept arm, or
  the join barrier) are complete (`seqOk`; `selectJoinCurrent`, `joinJoinCurrent`): Table I's `;` runs
  `b_J` after the merged work.

- Fork, Restore and Merge of a current branch or group: the new leaves stay current in `T'`
  (`forkArmsStayCurrent`, `restoreStaysCurrent`, `restoreLiveStaysCurrent`, `selectJoinStaysCurrent`,
  `joinJoinStaysCurrent`) are proved in `Thm/Edits/DeriveTreeKeep.lean`, from the walk above the edited
  node reading only kept nodes.

Choices: "current" is the executable walk `addrUp` behind `currentB`. That parents precede children is a
hypothesis here (`ParentsBefore`), kept by `HStep` (`hstepParentsBefore`) and by every tree change
(`applyEditParentsBefore`, `Thm/Edits/DeriveTreeKeep.lean`, which discharges it on reached trees and
needs no sequence only above the edited node). Where a sequence lies above it the walk also reads the
completeness of earlier sequence parts over the whole tree, which the splice shifts; relating that across
the splice is not proved. -/
namespace AgentWarrant.Edits.Machine
open AgentWarrant AgentWarrant.Edits

-- leaves by name ------------------------------------------------------------------------------------

theorem noLeafTail {b : Nat} {n : TNode} {l : Tree} (h : noLeaf b (n :: l) = true) :
    (Nat.beq n.kind 0 && Nat.beq n.name b) = false ∧ noLeaf b l = true := by
  cases hp : (Nat.beq n.kind 0 && Nat.beq n.name b) with
  | true =>
    have e : (!(Nat.beq n.kind 0 && Nat.beq n.name b)) = false := by rw [hp]; rfl
    simp only [noLeaf, allB, e] at h
  | false =>
    have e : (!(Nat.beq n.kind 0 && Nat.beq n.name b)) = true := by rw [hp]; rfl
    simp only [noLeaf, allB, e] at h
    exact ⟨rfl, h⟩

theorem noLeafCons (b : Nat) (n : TNode) (l : Tree) (hn : (Nat.beq n.kind 0 && Nat.beq n.name b) = false)
    (hl : noLeaf b l = true) : noLeaf b (n :: l) = true := by
  have e : (!(Nat.beq n.kind 0 && Nat.beq n.name b)) = true := by rw [hn]; rfl
  show allB _ (n :: l) = true
  simp only [allB, e]
  exact hl

theorem noLeafApp (b : Nat) : ∀ (x y : Tree), noLeaf b x = true → noLeaf b y = true → noLeaf b (x ++ y) = true
  | [], y, _, hy => by rw [List.nil_append]; exact hy
  | n :: x, y, hx, hy => by
    rw [List.cons_append]
    exact noLeafCons b n _ (noLeafTail hx).1 (noLeafApp b x y (noLeafTail hx).2 hy)

theorem noLeafDrop (b : Nat) : ∀ (k : Nat) (l : Tree), noLeaf b l = true → noLeaf b (dropN k l) = true
  | 0, _, h => h
  | _ + 1, [], _ => rfl
  | k + 1, _ :: l, h => noLeafDrop b k l (noLeafTail h).2

theorem noLeafMove (b x y : Nat) : ∀ (l : Tree), noLeaf b l = true → noLeaf b (moveTo x y l) = true
  | [], _ => rfl
  | n :: l, h => noLeafCons b _ (moveTo x y l) (noLeafTail h).1 (noLeafMove b x y l (noLeafTail h).2)

theorem noLeafNth (b : Nat) : ∀ (t : Tree) (i : Nat) (c : TNode), noLeaf b t = true → nthNode t i = some c →
    (Nat.beq c.kind 0 && Nat.beq c.name b) = false
  | [], _, _, _, hc => Option.noConfusion hc
  | n :: t, 0, c, h, hc => by
    have e := Option.some.inj hc
    subst e
    exact (noLeafTail h).1
  | _ :: t, i + 1, c, h, hc => noLeafNth b t i c (noLeafTail h).2 hc

theorem findLeafHit (b k : Nat) (x : TNode) (r : Tree) (hx : (Nat.beq x.kind 0 && Nat.beq x.name b) = true) :
    findLeaf b k (x :: r) = some k := by
  simp only [findLeaf, hx] <;> rfl

theorem findLeafSkip (b k : Nat) (x : TNode) (r : Tree) (hx : (Nat.beq x.kind 0 && Nat.beq x.name b) = false) :
    findLeaf b k (x :: r) = findLeaf b (k + 1) r := by
  simp only [findLeaf, hx] <;> rfl

/-- `findLeaf` stops at the first leaf named `b`: no leaf before it has the name. -/
theorem findLeafSplit (b : Nat) : ∀ (t : Tree) (k j : Nat), findLeaf b k t = some j →
    ∃ i n, j = k + i ∧ nthNode t i = some n ∧ (Nat.beq n.kind 0 && Nat.beq n.name b) = true ∧
      noLeaf b (takeN i t) = true
  | [], _, _, h => Option.noConfusion h
  | n :: t, k, j, h => by
    cases hp : (Nat.beq n.kind 0 && Nat.beq n.name b) with
    | true =>
      rw [findLeafHit b k n t hp] at h
      have e := Option.some.inj h
      subst e
      exact ⟨0, n, rfl, rfl, hp, rfl⟩
    | false =>
      rw [findLeafSkip b k n t hp] at h
      have ⟨i, c, ei, hc, hb, hn⟩ := findLeafSplit b t (k + 1) j h
      refine ⟨i + 1, c, ?_, hc, hb, noLeafCons b n _ hp hn⟩
      rw [ei, Nat.add_assoc, Nat.add_comm 1 i]

theorem lengthApp : ∀ (a b : Tree), List.length (a ++ b) = List.length a + List.length b
  | [], b => by rw [List.nil_append]; exact (Nat.zero_add _).symm
  | x :: a, b => by
    rw [List.cons_append, List.length_cons, List.length_cons, lengthApp a b, Nat.succ_add]

theorem lenPerm (a b : Nat) : 1 + a + b = a + b + 1 := by
  rw [Nat.add_comm 1 a, Nat.add_assoc, Nat.add_comm 1 b, ← Nat.add_assoc]

theorem beqSelf' (n : Nat) (l : TNode) (h : l.kind = 0) (hn : l.name = n) :
    (Nat.beq l.kind 0 && Nat.beq l.name n) = true := by
  rw [h, hn]
  show (Nat.beq 0 0 && Nat.beq n n) = true
  rw [beqSelf n]
  rfl

theorem freshOne {t t' : Tree} {e : TEdit} {x : Nat} (h : applyEdit t e = some t') (hx : freshNames e = [x]) :
    memN x (namesOf t) = false := by
  have ⟨_, ha⟩ := applyEditFresh h
  rw [hx] at ha
  exact notTrueF (allBCons ha).1

-- RestoreReplace --------------------------------------------------------------------------------------

/-- After a RestoreReplace of the current branch `b` (at position `i + 1`), the fresh leaf `b_k` is the
leaf named `b_k`, at `b`'s position with its parent and place: it is current in `T'` exactly when
`addr(T')`'s walk accepts that position. -/
theorem restoreFreshCurrent {t t' : Tree} {b g bk : Nat} {gk : List Pomset}
    (h : applyEdit t (TEdit.restore false b g bk gk) = some t') :
    ∃ i n, currentLeafAt t b = some (i + 1, n) ∧ nodeAt t' (i + 1) = some (newLeaf bk n.parent n.pos gk) ∧
      findLeaf bk 1 t' = some (i + 1) ∧ currentB t' bk = addrUp (List.length t') t' (i + 1) := by
  have hbk := freshOne h rfl
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
      have hf : findLeaf bk 1 (spliceAt t (i + 1) [newLeaf bk n.parent n.pos gk]) = some (i + 1) := by
        show findLeaf bk 1 (takeN i t ++ _ ++ _) = _
        rw [List.append_assoc, findLeafApp bk _ _ 1 (noLeafTake bk i t (noLeafFresh bk t hbk)), takeNLen i t hi,
          Nat.add_comm 1 i, List.cons_append, findLeafHit bk _ _ _ (beqSelf' bk (newLeaf bk n.parent n.pos gk) rfl rfl)]
      refine ⟨i, n, rfl, h0, hf, ?_⟩
      simp only [currentB, hf] <;> rfl

-- RestoreLive -----------------------------------------------------------------------------------------

/-- After a RestoreLive of the current branch `b` (at position `i + 1`), the new parallel group `g`
stands at `b`'s position with its parent and place, and its two parts, `b` itself and the fresh `b_k`,
are the leaves named `b` and `b_k`: each is current in `T'` exactly when the walk reaches the group. -/
theorem restoreLiveCurrent {t t' : Tree} {b g bk : Nat} {gk : List Pomset}
    (h : applyEdit t (TEdit.restore true b g bk gk) = some t') :
    ∃ i n f, currentLeafAt t b = some (i + 1, n) ∧ List.length t' = f + 1 ∧
      nodeAt t' (i + 1) = some ⟨g, 2, n.parent, n.pos, 0, [], []⟩ ∧
      currentB t' b = addrUp f t' (i + 1) ∧ currentB t' bk = addrUp f t' (i + 1) := by
  have ⟨_, ha⟩ := applyEditFresh h
  have hbk := notTrueF (allBCons (allBCons ha).2).1
  have ⟨i, n, hc, _, hg, hb, hk⟩ := restoreLiveNodes h
  have ⟨_, hfb, hj⟩ := currentLeafAtSome hc
  have ⟨i0, c, ei, hc0, hbc, hpre⟩ := findLeafSplit b t 1 (i + 1) hfb
  rw [Nat.add_comm 1 i0] at ei
  have ei' := Nat.succ.inj ei
  subst ei'
  have ecn : some c = some n := hc0.symm.trans hj
  have ecn' := Option.some.inj ecn
  have hbn : (Nat.beq n.kind 0 && Nat.beq n.name b) = true := by rw [← ecn']; exact hbc
  have hkn : (Nat.beq n.kind 0 && Nat.beq n.name bk) = false := noLeafNth bk t i n (noLeafFresh bk t hbk) hj
  have h := (rowOf h).2
  simp only [rowTree, hc] at h
  have e := applied h
  subst e
  have hi := nodeAtLe hj
  have s1 : ∀ rest : Tree, findLeaf b (i + 1) (⟨g, 2, n.parent, n.pos, 0, [], []⟩ :: { n with parent := i + 1, pos := 0 } ::
      newLeaf bk (i + 1) 1 gk :: rest) = some (i + 1 + 1) := fun rest => by
    rw [findLeafSkip b _ ⟨g, 2, n.parent, n.pos, 0, [], []⟩ _ rfl, findLeafHit b _ { n with parent := i + 1, pos := 0 } _ hbn]
  have s2 : ∀ rest : Tree, findLeaf bk (i + 1) (⟨g, 2, n.parent, n.pos, 0, [], []⟩ :: { n with parent := i + 1, pos := 0 } ::
      newLeaf bk (i + 1) 1 gk :: rest) = some (i + 2 + 1) := fun rest => by
    rw [findLeafSkip bk _ ⟨g, 2, n.parent, n.pos, 0, [], []⟩ _ rfl, findLeafSkip bk _ { n with parent := i + 1, pos := 0 } _ hkn,
      findLeafHit bk _ (newLeaf bk (i + 1) 1 gk) _ (beqSelf' bk (newLeaf bk (i + 1) 1 gk) rfl rfl)]
  have hfb' : findLeaf b 1 (spliceAt t (i + 1) [⟨g, 2, n.parent, n.pos, 0, [], []⟩, { n with parent := i + 1, pos := 0 },
      newLeaf bk (i + 1) 1 gk]) = some (i + 1 + 1) := by
    show findLeaf b 1 (takeN i t ++ _ ++ _) = _
    rw [List.append_assoc, findLeafApp b _ _ 1 hpre, takeNLen i t hi, Nat.add_comm 1 i]
    exact s1 _
  have hfk : findLeaf bk 1 (spliceAt t (i + 1) [⟨g, 2, n.parent, n.pos, 0, [], []⟩, { n with parent := i + 1, pos := 0 },
      newLeaf bk (i + 1) 1 gk]) = some (i + 2 + 1) := by
    show findLeaf bk 1 (takeN i t ++ _ ++ _) = _
    rw [List.append_assoc, findLeafApp bk _ _ 1 (noLeafTake bk i t (noLeafFresh bk t hbk)), takeNLen i t hi, Nat.add_comm 1 i]
    exact s2 _
  have ⟨k, _, hk', _⟩ := nodeAtPos hb
  cases hlen : List.length (spliceAt t (i + 1) [⟨g, 2, n.parent, n.pos, 0, [], []⟩, { n with parent := i + 1, pos := 0 },
      newLeaf bk (i + 1) 1 gk]) with
  | zero => rw [hlen] at hk'; exact absurd hk' (Nat.notLtZero _)
  | succ f =>
    refine ⟨i, n, f, hc, rfl, hg, ?_, ?_⟩
    · simp only [currentB, hfb']
      rw [hlen, addrUpStep f _ _ _ _ i hb rfl hg]
      rfl
    · simp only [currentB, hfk]
      rw [hlen, addrUpStep f _ _ _ _ i hk rfl hg]
      rfl

-- MergeSelect and MergeJoin -----------------------------------------------------------------------------

theorem assoc4 (a b : Tree) (x : TNode) (r : Tree) : a ++ (b ++ [x]) ++ r = (a ++ b) ++ (x :: r) := by
  simp only [List.append_assoc, List.cons_append, List.nil_append] <;> rfl

/-- A sequence spliced in at position `i + 1` with parts `kept` and a last part `b_J`: `b_J` is the leaf
named `b_J` when no other leaf before it has the name, and it is current exactly when the walk reaches
the sequence and the sequence's earlier parts are complete. -/
theorem seqTail (t t' : Tree) (i : Nat) (hi : i ≤ List.length t) (par pos bj : Nat) (gj : List Pomset) (kept : Tree)
    (hkept : noLeaf bj kept = true) (hpre : noLeaf bj (takeN i t) = true)
    (ht : t' = spliceAt t (i + 1) (⟨0, 4, par, pos, 0, [], []⟩ :: kept ++ [newLeaf bj (i + 1) 1 gj])) :
    ∃ p f, nodeAt t' (i + 1) = some ⟨0, 4, par, pos, 0, [], []⟩ ∧ nodeAt t' p = some (newLeaf bj (i + 1) 1 gj) ∧
      findLeaf bj 1 t' = some p ∧ List.length t' = f + 1 ∧
      currentB t' bj = (seqOk t' (i + 1) ⟨0, 4, par, pos, 0, [], []⟩ (newLeaf bj (i + 1) 1 gj) && addrUp f t' (i + 1)) := by
  subst ht
  have h0 := spliceNew t i _ 0 _ hi (nthHead ⟨0, 4, par, pos, 0, [], []⟩ kept (newLeaf bj (i + 1) 1 gj))
  rw [Nat.add_zero] at h0
  have hL := spliceNew t i _ _ _ hi (nthLast ⟨0, 4, par, pos, 0, [], []⟩ kept (newLeaf bj (i + 1) 1 gj))
  have hf : findLeaf bj 1 (spliceAt t (i + 1) (⟨0, 4, par, pos, 0, [], []⟩ :: kept ++ [newLeaf bj (i + 1) 1 gj])) =
      some (i + (List.length kept + 1) + 1) := by
    show findLeaf bj 1 (takeN i t ++ (⟨0, 4, par, pos, 0, [], []⟩ :: kept ++ [newLeaf bj (i + 1) 1 gj]) ++ _) = _
    rw [assoc4, findLeafApp bj _ _ 1 (noLeafApp bj _ _ hpre (noLeafCons bj ⟨0, 4, par, pos, 0, [], []⟩ kept rfl hkept)),
      findLeafHit bj _ (newLeaf bj (i + 1) 1 gj) _ (beqSelf' bj (newLeaf bj (i + 1) 1 gj) rfl rfl), lengthApp, takeNLen i t hi, List.length_cons,
      Nat.add_comm 1]
  have ⟨k, _, hk, _⟩ := nodeAtPos hL
  cases hlen : List.length (spliceAt t (i + 1) (⟨0, 4, par, pos, 0, [], []⟩ :: kept ++ [newLeaf bj (i + 1) 1 gj])) with
  | zero => rw [hlen] at hk; exact absurd hk (Nat.notLtZero _)
  | succ f =>
    refine ⟨_, f, h0, hL, hf, rfl, ?_⟩
    simp only [currentB, hf]
    rw [hlen, addrUpStep f _ _ _ _ i hL rfl h0]
    rfl

/-- After a MergeSelect of the current choice group `g` (at position `i + 1`), the fresh `b_J` is the
leaf named `b_J`, the second part of the sequence now at `g`'s position: it is current in `T'` exactly
when the walk reaches the sequence and its earlier part, the kept arm, is complete. -/
theorem selectJoinCurrent {t t' : Tree} {g arm bj : Nat} {gj : List Pomset}
    (h : applyEdit t (TEdit.select g arm bj gj) = some t') :
    ∃ i n p f, currentGroupAt t g = some (i + 1, n) ∧ n.kind = 1 ∧
      nodeAt t' (i + 1) = some ⟨0, 4, n.parent, n.pos, 0, [], []⟩ ∧ nodeAt t' p = some (newLeaf bj (i + 1) 1 gj) ∧
      findLeaf bj 1 t' = some p ∧ List.length t' = f + 1 ∧
      currentB t' bj = (seqOk t' (i + 1) ⟨0, 4, n.parent, n.pos, 0, [], []⟩ (newLeaf bj (i + 1) 1 gj) && addrUp f t' (i + 1)) := by
  have hnl := noLeafFresh bj t (freshOne h rfl)
  have ⟨j, n, a, hc, hk, hs, ha⟩ := selectCurrent h
  have ⟨_, _, hj⟩ := currentGroupAtSome hc
  have ⟨i, ei, _, _⟩ := nodeAtPos hj
  subst ei
  have hi := nodeAtLe hj
  have hk' : Nat.beq n.kind 1 = true := by rw [hk]; rfl
  have hb : (Nat.beq n.kind 1 && selOk n arm) = true := by rw [hk', hs]; rfl
  have h := (rowOf h).2
  cases hcn : nodeAt t a with
  | none => simp only [rowTree, hc, hb, ha, hcn] at h
  | some c =>
    simp only [rowTree, hc, hb, ha, hcn] at h
    have e := applied h
    subst e
    have ⟨a0, ea, _, hc0⟩ := nodeAtPos hcn
    have hkept : noLeaf bj ({ c with parent := i + 1, pos := 0 } :: moveTo a (i + 1 + 1) (below t a)) = true :=
      noLeafCons bj _ _ (noLeafNth bj t a0 c hnl hc0)
        (noLeafMove bj a (i + 1 + 1) _ (noLeafTake bj _ _ (noLeafDrop bj a t hnl)))
    have ⟨p, f, h0, hL, hf, hlen, hcur⟩ := seqTail t _ i hi n.parent n.pos bj gj _ hkept (noLeafTake bj i t hnl) rfl
    exact ⟨i, n, p, f, hc, hk, h0, hL, hf, hlen, hcur⟩

/-- After a MergeJoin of the current parallel group `g` (at position `i + 1`), the fresh `b_J` is the
leaf named `b_J`, the second part of the sequence now at `g`'s position: it is current in `T'` exactly
when the walk reaches the sequence and its earlier part, the join barrier over the group's parts, is
complete. -/
theorem joinJoinCurrent {t t' : Tree} {g bj : Nat} {gj : List Pomset}
    (h : applyEdit t (TEdit.join g bj gj) = some t') :
    ∃ i n p f, currentGroupAt t g = some (i + 1, n) ∧ n.kind = 2 ∧
      nodeAt t' (i + 1) = some ⟨0, 4, n.parent, n.pos, 0, [], []⟩ ∧ nodeAt t' p = some (newLeaf bj (i + 1) 1 gj) ∧
      findLeaf bj 1 t' = some p ∧ List.length t' = f + 1 ∧
      currentB t' bj = (seqOk t' (i + 1) ⟨0, 4, n.parent, n.pos, 0, [], []⟩ (newLeaf bj (i + 1) 1 gj) && addrUp f t' (i + 1)) := by
  have hnl := noLeafFresh bj t (freshOne h rfl)
  have ⟨j, n, hc, hk⟩ := joinCurrent h
  have ⟨_, _, hj⟩ := currentGroupAtSome hc
  have ⟨i, ei, _, _⟩ := nodeAtPos hj
  subst ei
  have hi := nodeAtLe hj
  have hk' : Nat.beq n.kind 2 = true := by rw [hk]; rfl
  have h := (rowOf h).2
  simp only [rowTree, hc, hk'] at h
  have e := applied h
  subst e
  have hkept : noLeaf bj ({ n with kind := 3, parent := i + 1, pos := 0 } ::
      moveTo (i + 1) (i + 1 + 1) (below t (i + 1))) = true :=
    noLeafCons bj { n with kind := 3, parent := i + 1, pos := 0 } _ rfl (noLeafMove bj (i + 1) (i + 1 + 1) _ (noLeafTake bj _ _ (noLeafDrop bj (i + 1) t hnl)))
  have ⟨p, f, h0, hL, hf, hlen, hcur⟩ := seqTail t _ i hi n.parent n.pos bj gj _ hkept (noLeafTake bj i t hnl) rfl
  exact ⟨i, n, p, f, hc, hk, h0, hL, hf, hlen, hcur⟩

-- Fork: the new group is current when the branch was ---------------------------------------------

/-- Parents precede children: every node's parent is the root (0) or an earlier position. -/
def ParentsBefore (t : Tree) : Prop := ∀ k n, nodeAt t k = some n → n.parent < k

theorem addrUpRoot (f : Nat) (t : Tree) (j : Nat) (c : TNode) (hc : nodeAt t j = some c) (hpar : c.parent = 0) :
    addrUp (f + 1) t j = true := by
  have e : addrUp (f + 1) t j = (match c.parent with
      | 0 => true
      | pn + 1 => match nodeAt t (pn + 1) with
        | none => false
        | some p => armOk p c && seqOk t (pn + 1) p c && addrUp f t (pn + 1)) := by
    simp only [addrUp, hc]; rfl
  rw [e, hpar]
  rfl

theorem addrUpNone (f : Nat) (t : Tree) (j : Nat) (c : TNode) (pn : Nat) (hc : nodeAt t j = some c)
    (hpar : c.parent = pn + 1) (hp : nodeAt t (pn + 1) = none) : addrUp (f + 1) t j = false := by
  have e : addrUp (f + 1) t j = (match c.parent with
      | 0 => true
      | pn + 1 => match nodeAt t (pn + 1) with
        | none => false
        | some p => armOk p c && seqOk t (pn + 1) p c && addrUp f t (pn + 1)) := by
    simp only [addrUp, hc]; rfl
  rw [e, hpar]
  show (match nodeAt t (pn + 1) with
        | none => false
        | some p => armOk p c && seqOk t (pn + 1) p c && addrUp f t (pn + 1)) = false
  rw [hp]

theorem and3 {a b c : Bool} (ha : a = true) (hb : b = true) (hc : c = true) : (a && b && c) = true := by
  rw [ha, hb, hc]; rfl

theorem seqOkNotSeq (t : Tree) (pn : Nat) (p c : TNode) (hk : p.kind ≠ 4) : seqOk t pn p c = true := by
  cases hb : Nat.beq p.kind 4 with
  | true => exact absurd (Nat.eqOfBeqEqTrue hb) hk
  | false => simp only [seqOk, hb] <;> rfl

theorem andTrueR (x : Bool) : (x && true) = x := by cases x <;> rfl

-- `HStep` keeps parents before children ------------------------------------------------------------

theorem nthShape : ∀ (a b : Tree) (i : Nat) (n : TNode), a.map shape = b.map shape → nthNode a i = some n →
    ∃ m, nthNode b i = some m ∧ m.parent = n.parent
  | [], _, _, _, _, h => Option.noConfusion h
  | _ :: _, [], _, _, he, _ => List.noConfusion he
  | x :: a, y :: b, 0, n, he, h => by
    have e := Option.some.inj h
    subst e
    have hxy := (List.cons.inj he).1
    have hp := congrArg (fun s => s.2.2.1) hxy
    exact ⟨y, rfl, hp.symm⟩
  | _ :: a, _ :: b, i + 1, n, he, h => nthShape a b i n (List.cons.inj he).2 h

/-- `HStep` keeps parents before children: it moves only progress and choice selections (`hstepShape`). -/
theorem hstepParentsBefore (t : Tree) (x : Nat) (hwf : ParentsBefore t) : ParentsBefore (hstep t x) := by
  intro k n hn
  have ⟨i, ek, _, hi⟩ := nodeAtPos hn
  subst ek
  have ⟨m, hm, hp⟩ := nthShape (hstep t x) t i n (hstepShape t x) hi
  have h := hwf (i + 1) m hm
  rw [hp] at h
  exact h

end AgentWarrant.Edits.Machine
