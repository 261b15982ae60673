import AgentWarrant.Thm.Edits.DeriveTreeArityFork
/-! MergeJoin keeps the group arities (*When Can Agents Safely Checkpoint, Fork, Restore, and Merge?*,
Table I; the property is `AritiesOk` of `Thm/Edits/DeriveTreeArity.lean`).

The row replaces the current parallel group `g` and its subtree `D` by a sequence over a join barrier
(the group, relinked below the sequence), `D` moved down by one, and the fresh leaf `b_J`; the nodes
after the subtree move by two. Counting the links to each position, old against new: a position
before `g` keeps its children (the sequence takes `g`'s link), the sequence gets the barrier and `b_J`,
the barrier gets `g`'s parts (they moved with it), a moved node of `D` or of the suffix gets its old
children (they moved with it), and `b_J` gets none. Uncrossed links (`afterRunParent`) keep the
suffix's links off `g` and `D`; `D`, the run `spliceAt` replaces after `g`, links only to `g` or to
nodes of `D` before it (parents before children). MergeSelect is in
`Thm/Edits/DeriveTreeArityMergeSelect.lean`. -/
namespace AgentWarrant.Edits.Machine
open AgentWarrant AgentWarrant.Edits

theorem arMCons (p : Nat) (x : TNode) (r : Tree) : childCount p (x :: r) = childCount p [x] + childCount p r := by
  have e := arCntApp p [x] r
  rw [List.cons_append, List.nil_append] at e
  exact e

theorem arMOne (p : Nat) (x : TNode) (h : x.parent = p) : childCount p [x] = 1 := by
  show (match Nat.beq x.parent p with | true => childCount p [] + 1 | false => childCount p []) = 1
  rw [h, arBeqRefl] <;> rfl

theorem arMZero1 (p : Nat) (x : TNode) (h : x.parent ≠ p) : childCount p [x] = 0 := by
  show (match Nat.beq x.parent p with | true => childCount p [] + 1 | false => childCount p []) = 0
  rw [arBeqFalse h] <;> rfl

theorem arMSame (p : Nat) (x y : TNode) (h : x.parent = y.parent) : childCount p [x] = childCount p [y] := by
  show (match Nat.beq x.parent p with | true => childCount p [] + 1 | false => childCount p []) =
    (match Nat.beq y.parent p with | true => childCount p [] + 1 | false => childCount p [])
  rw [h]

theorem arMZeroLo (p : Nat) (l : Tree) (h : ∀ m x, nthNode l m = some x → p < x.parent) : childCount p l = 0 :=
  arCntZero p l (fun m x hm e => arNeOfLt (h m x hm) e.symm)

theorem arMZeroHi (p : Nat) (l : Tree) (h : ∀ m x, nthNode l m = some x → x.parent < p) : childCount p l = 0 :=
  arCntZero p l (fun m x hm e => arNeOfLt (h m x hm) e)

/-- The new tree's count at `p`, region by region. -/
theorem arMSplitN (p : Nat) (P Dm Sm : Tree) (Q B L : TNode) :
    childCount p (P ++ (Q :: B :: Dm ++ [L]) ++ Sm) = childCount p P + (childCount p [Q] +
      (childCount p [B] + (childCount p Dm + (childCount p [L] + childCount p Sm)))) := by
  rw [List.append_assoc, List.append_assoc, List.cons_append, List.cons_append, arCntApp, arMCons p Q,
    arMCons p B, arCntApp, arCntApp]

/-- The old tree's count at `p`, region by region. -/
theorem arMSplitO (p : Nat) (P D S : Tree) (g : TNode) :
    childCount p (P ++ g :: (D ++ S)) = childCount p P + (childCount p [g] + (childCount p D + childCount p S)) := by
  rw [arCntApp, arMCons, arCntApp]

theorem arMNodeAt (t : Tree) (x : Nat) : nodeAt t (x + 1) = nthNode t x := rfl

theorem arMLt (i k : Nat) : i < i + 1 + k + 1 := Nat.leTrans (Nat.leAddRight (i + 1) k) (Nat.leSucc (i + 1 + k))

theorem arMLe12 (x : Nat) : x + 1 ≤ x + 2 := Nat.leSucc (x + 1)

theorem arMAC1 (i k s : Nat) : i + (k + 1 + 1 + 1) + s + 1 = i + (k + s + 1) + 1 + 2 := by
  simp only [Nat.add_comm, Nat.add_left_comm, Nat.add_assoc] <;> rfl

theorem arMAC2 (i k s : Nat) : i + (k + s + 1) + 1 = i + 1 + k + 1 + s := by
  simp only [Nat.add_comm, Nat.add_left_comm, Nat.add_assoc] <;> rfl

theorem arMAC3 (i k : Nat) : i + (k + 2) + 1 = i + 1 + k + 2 := by
  simp only [Nat.add_comm, Nat.add_left_comm, Nat.add_assoc] <;> rfl

-- the counts of six regions, old against new: more than the default budget in one declaration
set_option maxHeartbeats 1000000 in
/-- A sequence over a relinked group, its moved subtree and a new leaf, in place of the group and its
subtree, with the suffix after them moved by two, keeps the arities. -/
theorem arMergeSplice {P D S : Tree} {i k : Nat} {g Q B L : TNode} (f hs : TNode → TNode)
    (hlen : List.length P = i) (hk : List.length D = k)
    (hP : ∀ m x, nthNode P m = some x → x.parent ≤ i)
    (hg : g.parent ≤ i)
    (hD : ∀ m x, nthNode D m = some x → i + 1 ≤ x.parent ∧ x.parent ≤ i + 1 + m)
    (hS : ∀ m x, nthNode S m = some x → x.parent ≤ i ∨ i + 1 + k + 1 ≤ x.parent)
    (hf : ∀ x, (f x).parent = x.parent + 1) (hfk : ∀ x, (f x).kind = x.kind)
    (hs1 : ∀ x, x.parent ≤ i → (hs x).parent = x.parent)
    (hs2 : ∀ x, i + 1 + k + 1 ≤ x.parent → (hs x).parent = x.parent + 2)
    (hsk : ∀ x, (hs x).kind = x.kind)
    (hQ : Q.parent = g.parent) (hQk : Q.kind ≠ 0)
    (hB : B.parent = i + 1) (hBk : arityOf B.kind = arityOf g.kind)
    (hL : L.parent = i + 1) (hLk : L.kind = 0)
    (ha : AritiesOk (P ++ g :: (D ++ S))) :
    AritiesOk (P ++ (Q :: B :: D.map f ++ [L]) ++ S.map hs) := by
  -- the regions' counts
  have zP : ∀ p, i < p → childCount p P = 0 := fun p hp =>
    arMZeroHi p P (fun m x hm => Nat.ltOfLeOfLt (hP m x hm) hp)
  have zg : ∀ p, i < p → childCount p [g] = 0 := fun p hp =>
    arMZero1 p g (arNeOfLt (Nat.ltOfLeOfLt hg hp))
  have zQ : ∀ p, i < p → childCount p [Q] = 0 := fun p hp => by
    rw [arMSame p Q g hQ]
    exact zg p hp
  have zB : ∀ p, p ≠ i + 1 → childCount p [B] = 0 := fun p hp =>
    arMZero1 p B (by rw [hB]; exact fun e => hp e.symm)
  have zL : ∀ p, p ≠ i + 1 → childCount p [L] = 0 := fun p hp =>
    arMZero1 p L (by rw [hL]; exact fun e => hp e.symm)
  have dLt : ∀ m x, nthNode D m = some x → x.parent < i + 1 + k := fun m x hm => by
    have l1 : m < k := by rw [← hk]; exact nthSome D m x hm
    exact Nat.ltOfLeOfLt (hD m x hm).2 (Nat.addLeAddLeft l1 (i + 1))
  have zDlo : ∀ p, p ≤ i → childCount p D = 0 := fun p hp =>
    arMZeroLo p D (fun m x hm => Nat.ltOfLeOfLt hp (hD m x hm).1)
  have zDhi : ∀ p, i + 1 + k ≤ p → childCount p D = 0 := fun p hp =>
    arMZeroHi p D (fun m x hm => Nat.ltOfLtOfLe (dLt m x hm) hp)
  have zDmlo : ∀ p, p ≤ i + 1 → childCount p (D.map f) = 0 := fun p hp => by
    apply arMZeroLo
    intro m y hy
    have ⟨z, hz, ez⟩ := nthMap f D m y hy
    rw [ez, hf]
    exact Nat.ltOfLeOfLt hp (Nat.succLeSucc (hD m z hz).1)
  have zDmhi : ∀ p, i + 1 + k + 1 ≤ p → childCount p (D.map f) = 0 := fun p hp => by
    apply arMZeroHi
    intro m y hy
    have ⟨z, hz, ez⟩ := nthMap f D m y hy
    rw [ez, hf]
    exact Nat.ltOfLtOfLe (Nat.succLeSucc (dLt m z hz)) hp
  have cDm : ∀ p, childCount (p + 1) (D.map f) = childCount p D := fun p =>
    arCntMap f (p + 1) p D (fun m x _ => by rw [hf] <;> rfl)
  have zS : ∀ p, i < p → p < i + 1 + k + 1 → childCount p S = 0 := fun p h1 h2 => by
    apply arCntZero
    intro m x hm e
    cases hS m x hm with
    | inl h => exact arNeOfLt (Nat.ltOfLeOfLt h h1) e
    | inr h => exact arNeOfLt (Nat.ltOfLtOfLe h2 h) e.symm
  have zSm : ∀ p, i < p → p < i + 1 + k + 1 + 2 → childCount p (S.map hs) = 0 := fun p h1 h2 => by
    apply arCntZero
    intro m y hy e
    have ⟨z, hz, ez⟩ := nthMap hs S m y hy
    rw [ez] at e
    cases hS m z hz with
    | inl h => rw [hs1 z h] at e; exact arNeOfLt (Nat.ltOfLeOfLt h h1) e
    | inr h => rw [hs2 z h] at e; exact arNeOfLt (Nat.ltOfLtOfLe h2 (Nat.addLeAddRight h 2)) e.symm
  have cSmLo : ∀ p, p ≤ i → childCount p (S.map hs) = childCount p S := fun p hp => by
    apply arCntMap
    intro m x hm
    cases hS m x hm with
    | inl h => rw [hs1 x h]
    | inr h =>
      rw [hs2 x h]
      have l1 : p < x.parent := Nat.ltOfLeOfLt hp (Nat.ltOfLtOfLe (arMLt i k) h)
      have l2 : p < x.parent + 2 := Nat.ltOfLtOfLe l1 (Nat.leAddRight _ 2)
      rw [arBeqFalse (fun e => arNeOfLt l2 e.symm), arBeqFalse (fun e => arNeOfLt l1 e.symm)]
  have cSmHi : ∀ p, i + 1 + k + 1 ≤ p → childCount (p + 2) (S.map hs) = childCount p S := fun p hp => by
    apply arCntMap
    intro m x hm
    cases hS m x hm with
    | inl h =>
      rw [hs1 x h]
      have l1 : x.parent < p := Nat.ltOfLeOfLt h (Nat.ltOfLtOfLe (arMLt i k) hp)
      have l2 : x.parent < p + 2 := Nat.ltOfLtOfLe l1 (Nat.leAddRight _ 2)
      rw [arBeqFalse (arNeOfLt l2), arBeqFalse (arNeOfLt l1)]
    | inr h =>
      rw [hs2 x h] <;> rfl
  -- the claims, old count against new
  have cA : ∀ p, p ≤ i → childCount p (P ++ (Q :: B :: D.map f ++ [L]) ++ S.map hs) =
      childCount p (P ++ g :: (D ++ S)) := fun p hp => by
    have hne : p ≠ i + 1 := arNeOfLt (Nat.succLeSucc hp)
    rw [arMSplitN, arMSplitO, arMSame p Q g hQ, zB p hne, zDmlo p (Nat.leTrans hp (Nat.leSucc i)), zL p hne,
      cSmLo p hp, zDlo p hp]
    simp only [Nat.zero_add] <;> rfl
  have cB : ∀ p, i + 1 ≤ p → p ≤ i + 1 + k → childCount (p + 1) (P ++ (Q :: B :: D.map f ++ [L]) ++ S.map hs) =
      childCount p (P ++ g :: (D ++ S)) := fun p hp1 hp2 => by
    have l1 : i < p + 1 := Nat.leTrans hp1 (Nat.leSucc p)
    have hne : p + 1 ≠ i + 1 := fun e => arNeOfLt (Nat.succLeSucc hp1) e.symm
    have l2 : p + 1 < i + 1 + k + 1 + 2 :=
      Nat.leTrans (Nat.addLeAddRight hp2 2) (Nat.addLeAddRight (Nat.leSucc (i + 1 + k)) 2)
    rw [arMSplitN, arMSplitO, zP (p + 1) l1, zQ (p + 1) l1, zB (p + 1) hne, cDm p, zL (p + 1) hne,
      zSm (p + 1) l1 l2, zP p hp1, zg p hp1, zS p hp1 (Nat.succLeSucc hp2)]
    simp only [Nat.zero_add, Nat.add_zero] <;> rfl
  have cC : ∀ p, i + 1 + k + 1 ≤ p → childCount (p + 2) (P ++ (Q :: B :: D.map f ++ [L]) ++ S.map hs) =
      childCount p (P ++ g :: (D ++ S)) := fun p hp => by
    have l0 : i < p := Nat.ltOfLtOfLe (arMLt i k) hp
    have l1 : i < p + 2 := Nat.ltOfLtOfLe l0 (Nat.leAddRight p 2)
    have hne : p + 2 ≠ i + 1 := fun e => arNeOfLt (Nat.ltOfLtOfLe (Nat.succLeSucc l0) (Nat.leSucc (p + 1))) e.symm
    rw [arMSplitN, arMSplitO, zP (p + 2) l1, zQ (p + 2) l1, zB (p + 2) hne,
      zDmhi (p + 2) (Nat.leTrans hp (Nat.leAddRight p 2)), zL (p + 2) hne, cSmHi p hp, zP p l0, zg p l0,
      zDhi p (Nat.leTrans (Nat.leSucc _) hp)]
    simp only [Nat.zero_add] <;> rfl
  have cD1 : childCount (i + 1) (P ++ (Q :: B :: D.map f ++ [L]) ++ S.map hs) = 2 := by
    rw [arMSplitN, zP (i + 1) (Nat.ltSuccSelf i), zQ (i + 1) (Nat.ltSuccSelf i), arMOne (i + 1) B hB,
      zDmlo (i + 1) (Nat.leRefl _), arMOne (i + 1) L hL,
      zSm (i + 1) (Nat.ltSuccSelf i) (Nat.ltOfLtOfLe (Nat.succLeSucc (arMLt i k)) (Nat.leSucc _))] <;> rfl
  have cD2 : childCount (i + 1 + k + 2) (P ++ (Q :: B :: D.map f ++ [L]) ++ S.map hs) = 0 := by
    have l0 : i < i + 1 + k + 2 := Nat.ltOfLtOfLe (arMLt i k) (Nat.leSucc _)
    have hne : i + 1 + k + 2 ≠ i + 1 := fun e =>
      arNeOfLt (Nat.leTrans (Nat.succLeSucc (Nat.leAddRight (i + 1) k)) (Nat.leSucc _) : i + 1 < i + 1 + k + 2) e.symm
    rw [arMSplitN, zP _ l0, zQ _ l0, zB _ hne, zDmhi (i + 1 + k + 2) (arMLe12 (i + 1 + k)), zL _ hne, zSm (i + 1 + k + 2) l0 (Nat.ltSuccSelf _)] <;> rfl
  have hO : ∀ r, nthNode (P ++ g :: (D ++ S)) (i + r) = nthNode (g :: (D ++ S)) r := fun r => by
    rw [← hlen]
    exact nthAppendR P _ r
  -- each node of the new tree
  intro q y hq
  cases q with
  | zero => cases hq
  | succ m =>
  have hq' : nthNode (P ++ (Q :: B :: D.map f ++ [L]) ++ S.map hs) m = some y := hq
  cases nthApp _ _ m y hq' with
  | inl hA =>
    have ⟨_, hA⟩ := hA
    cases nthApp _ _ m y hA with
    | inl hB0 =>
      -- a node before the group: its old children
      have ⟨hm2, hB0⟩ := hB0
      have hmi : m + 1 ≤ i := by rw [← hlen]; exact hm2
      have hz' : nthNode (P ++ g :: (D ++ S)) m = some y := by rw [nthAppendL _ _ m hm2]; exact hB0
      have hold := ha (m + 1) y (by rw [arMNodeAt]; exact hz')
      exact (cA (m + 1) hmi).trans hold
    | inr hB0 =>
      have ⟨r, er, hr⟩ := hB0
      rw [hlen] at er
      subst er
      cases nthApp _ _ r y hr with
      | inl hC =>
        have ⟨_, hC⟩ := hC
        cases r with
        | zero =>
          -- the sequence: the barrier and `b_J`
          have ey : Q = y := Option.some.inj hC
          subst ey
          have e2 : arityOf Q.kind = 2 := by
            cases hq0 : Q.kind with
            | zero => exact absurd hq0 hQk
            | succ _ => rfl
          exact cD1.trans e2.symm
        | succ r => cases r with
          | zero =>
            -- the barrier: the group's parts
            have ey : B = y := Option.some.inj hC
            subst ey
            have hz' : nthNode (P ++ g :: (D ++ S)) (i + 0) = some g := by rw [hO 0]; rfl
            have hold := ha (i + 0 + 1) g (by rw [arMNodeAt]; exact hz')
            exact (cB (i + 1) (Nat.leRefl _) (Nat.leAddRight _ k)).trans (hold.trans hBk.symm)
          | succ s =>
            -- a moved node of the group's subtree: its old children, moved with it
            have hC' : nthNode (D.map f) s = some y := hC
            have ⟨z, hz, ez⟩ := nthMap f D s y hC'
            subst ez
            have hsl : s < List.length D := nthSome D s z hz
            have hz' : nthNode (P ++ g :: (D ++ S)) (i + (s + 1)) = some z := by
              rw [hO (s + 1), nthSucc, nthAppendL D S s hsl]
              exact hz
            have hold := ha (i + (s + 1) + 1) z (by rw [arMNodeAt]; exact hz')
            have hsk' : s + 1 ≤ k := by rw [← hk]; exact hsl
            have l1 : i + 1 ≤ i + (s + 1) + 1 := Nat.addLeAddRight (Nat.leAddRight i (s + 1)) 1
            have l2 : i + (s + 1) + 1 ≤ i + 1 + k := by
              rw [Nat.add_right_comm i 1 k]
              exact Nat.addLeAddRight (Nat.addLeAddLeft hsk' i) 1
            exact (cB (i + (s + 1) + 1) l1 l2).trans (hold.trans (congrArg arityOf (hfk z)).symm)
      | inr hC =>
        -- `b_J`: no children
        have ⟨s, es, hs0⟩ := hC
        cases s with
        | succ s => cases hs0
        | zero =>
          have ey : L = y := Option.some.inj hs0
          subst ey
          have er : i + r + 1 = i + 1 + k + 2 := by
            rw [es, List.length_cons, List.length_cons, lengthMap, hk]
            exact arMAC3 i k
          exact (congrArg (fun p => childCount p (P ++ (Q :: B :: D.map f ++ [L]) ++ S.map hs)) er).trans
            (cD2.trans (congrArg arityOf hLk).symm)
  | inr hA =>
    -- a moved node after the subtree: its old children, moved with it
    have ⟨s, es, hs0⟩ := hA
    have ⟨z, hz, ez⟩ := nthMap hs S s y hs0
    subst ez
    have el : List.length (P ++ (Q :: B :: D.map f ++ [L])) = i + (k + 1 + 1 + 1) := by
      rw [lengthApp, hlen, lengthApp, List.length_cons, List.length_cons, lengthMap, hk] <;> rfl
    rw [el] at es
    subst es
    have hz' : nthNode (P ++ g :: (D ++ S)) (i + (k + s + 1)) = some z := by
      rw [hO (k + s + 1), nthSucc, ← hk, nthAppendR D S s]
      exact hz
    have hold := ha (i + (k + s + 1) + 1) z (by rw [arMNodeAt]; exact hz')
    have hle : i + 1 + k + 1 ≤ i + (k + s + 1) + 1 := by rw [arMAC2]; exact Nat.leAddRight _ s
    exact ((congrArg (fun p => childCount p (P ++ (Q :: B :: D.map f ++ [L]) ++ S.map hs)) (arMAC1 i k s)).trans
      (cC _ hle)).trans (hold.trans (congrArg arityOf (hsk z)).symm)

theorem arRunLe (a : Nat) : ∀ (l : Tree), runLen a l ≤ List.length l
  | [] => Nat.leRefl 0
  | x :: l => by
    cases hb : Nat.ble a x.parent with
    | false =>
      have e : runLen a (x :: l) = 0 := by simp only [runLen, hb]
      rw [e]
      exact Nat.zeroLe _
    | true =>
      have e : runLen a (x :: l) = runLen a l + 1 := by simp only [runLen, hb] <;> rfl
      rw [e, List.length_cons]
      exact Nat.succLeSucc (arRunLe a l)

theorem moveLen (a b : Nat) (l : Tree) : List.length (moveTo a b l) = List.length l := lengthMap _ l

theorem arMShift2 (x K : Nat) : x + (K + 1 + 1 + 1) - (K + 1) = x + 2 := by
  have e : x + (K + 1 + 1 + 1) = x + 2 + (K + 1) := by
    simp only [Nat.add_comm, Nat.add_left_comm, Nat.add_assoc] <;> rfl
  rw [e, addSubR]

theorem arMMove1 (x i : Nat) : x + (i + 1 + 1) - (i + 1) = x + 1 := by
  have e : x + (i + 1 + 1) = x + 1 + (i + 1) := by
    rw [Nat.add_assoc x 1 (i + 1), Nat.add_comm 1 (i + 1)]
  rw [e, addSubR]

/-- MergeJoin keeps every node's arity on a tree with parents before children and uncrossed links. -/
theorem joinArities {t t' : Tree} {g bj : Nat} {gj : List Pomset}
    (h : applyEdit t (TEdit.join g bj gj) = some t') (hpb : ParentsBefore t) (hnc : NoCross t)
    (ha : AritiesOk t) : AritiesOk t' := by
  have ⟨j, n, hc, hk⟩ := joinCurrent h
  have ⟨_, _, hj⟩ := currentGroupAtSome hc
  have ⟨i, ei, hi, hn⟩ := nodeAtPos hj
  subst ei
  have hk' : Nat.beq n.kind 2 = true := by rw [hk]; rfl
  have h := (rowOf h).2
  simp only [rowTree, hc, hk'] at h
  have e := applied h
  subst e
  have hK : runLen (i + 1) (dropN (i + 1) t) ≤ List.length (dropN (i + 1) t) := arRunLe _ _
  have et : t = takeN i t ++ n :: (below t (i + 1) ++
      dropN (runLen (i + 1) (dropN (i + 1) t)) (dropN (i + 1) t)) := by
    have e5 := tnTakeDrop i t
    rw [tnDropNth i t n hn] at e5
    show t = takeN i t ++ n :: (takeN (runLen (i + 1) (dropN (i + 1) t)) (dropN (i + 1) t) ++
      dropN (runLen (i + 1) (dropN (i + 1) t)) (dropN (i + 1) t))
    rw [tnTakeDrop]
    exact e5.symm
  rw [et] at ha
  have hD : List.length (below t (i + 1)) = runLen (i + 1) (dropN (i + 1) t) := takeNLen _ _ hK
  show AritiesOk (takeN (i + 1 - 1) t ++ _ ++ _)
  rw [addSubR i 1]
  refine arMergeSplice _ _ (takeNLen i t (Nat.leOfLt hi)) hD ?_ ?_ ?_ ?_ ?_ ?_ ?_ ?_ ?_ ?_ ?_ ?_ ?_ ?_ ?_ ha
  · intro m x hm
    have hmi : m < i := by
      have l := nthSome _ m x hm
      rw [takeNLen i t (Nat.leOfLt hi)] at l
      exact l
    rw [nthTakeN i m t hmi] at hm
    exact Nat.leTrans (Nat.leOfSuccLeSucc (hpb (m + 1) x hm)) (Nat.leOfLt hmi)
  · exact Nat.leOfSuccLeSucc (hpb (i + 1) n hn)
  · intro m x hm
    have ⟨h1, h2⟩ := runMem (i + 1) _ m x hm
    rw [nthDrop] at h2
    have h2' : nodeAt t (i + 1 + m + 1) = some x := by rw [arMNodeAt]; exact h2
    have h3 : x.parent < i + 1 + m + 1 := hpb (i + 1 + m + 1) x h2'
    exact ⟨h1, Nat.leOfLtSucc h3⟩
  · intro m x hm
    have hx : nodeAt t (i + 1 + runLen (i + 1) (dropN (i + 1) t) + m + 1) = some x := by
      rw [arMNodeAt, Nat.add_assoc (i + 1), ← nthDrop, ← nthDrop]
      exact hm
    cases afterRunParent hnc (i + 1) _ x hx (Nat.succLeSucc (Nat.leAddRight _ m)) with
    | inl h1 => exact Or.inl (Nat.leOfSuccLeSucc h1)
    | inr h2 => exact Or.inr h2
  · intro x
    exact arMMove1 x.parent i
  · intro x
    rfl
  · intro x hx
    have hb : Nat.ble (i + 1) x.parent = false := by
      cases e : Nat.ble (i + 1) x.parent with
      | false => rfl
      | true => exact absurd (Nat.leTrans (show i + 1 ≤ x.parent from e) hx) (Nat.notSuccLeSelf i)
    simp only [hb]
    rfl
  · intro x hx
    have hb : Nat.ble (i + 1) x.parent = true :=
      Nat.leTrans (Nat.leTrans (Nat.leAddRight (i + 1) _) (Nat.leSucc _)) hx
    simp only [hb]
    show x.parent + List.length (_ :: _ :: moveTo (i + 1) (i + 1 + 1) (below t (i + 1)) ++ [_]) -
      (runLen (i + 1) (dropN (i + 1) t) + 1) = x.parent + 2
    rw [lengthApp, List.length_cons, List.length_cons, moveLen, hD]
    exact arMShift2 x.parent _
  · intro x
    cases Nat.ble (i + 1) x.parent <;> rfl
  · rfl
  · exact fun e => Nat.noConfusion e
  · rfl
  · show arityOf 3 = arityOf n.kind
    rw [hk]
    rfl
  · rfl
  · rfl

end AgentWarrant.Edits.Machine
