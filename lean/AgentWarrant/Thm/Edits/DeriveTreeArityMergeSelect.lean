import AgentWarrant.Thm.Edits.DeriveTreeArityMerge
/-! MergeSelect keeps the group arities (*When Can Agents Safely Checkpoint, Fork, Restore, and Merge?*,
Table I; the property is `AritiesOk` of `Thm/Edits/DeriveTreeArity.lean`).

The row replaces the current choice group `g` and its subtree by a sequence over the selected arm `c`
(relinked below the sequence) with `c`'s own subtree `A` moved along, and the fresh leaf `b_J`; the
other arm's nodes go, and the nodes after `g`'s subtree move by the size difference. On a tree with
parents before children and uncrossed links, `g`'s subtree splits as `D₁ ++ c :: A ++ D₂`: `D₁`, the
nodes before `c`, link only before `c`; `A` (`below t a`) links to `c` or inside `A`; `D₂`, the nodes
after `A`, link before `c` or after `A` (`afterRunParent`). Counting the links to each position, old
against new: a position before `g` keeps its children (the sequence takes `g`'s link), the sequence
gets `c` and `b_J`, `c` and the nodes of `A` keep their children (they moved together), `b_J` gets
none, and a moved node after the subtree keeps its children. -/
namespace AgentWarrant.Edits.Machine
open AgentWarrant AgentWarrant.Edits

-- arithmetic without `omega`: an order fact from an equation, the equation closed by normalising sums

theorem arSLe {x y : Nat} (w : Nat) (h : x + w = y) : x ≤ y := by
  rw [← h]
  exact Nat.leAddRight x w

theorem arSLt {x y : Nat} (w : Nat) (h : x + 1 + w = y) : x < y := arSLe w h

theorem arBeqAddR (x y : Nat) : ∀ (k : Nat), Nat.beq (x + k) (y + k) = Nat.beq x y
  | 0 => rfl
  | k + 1 => arBeqAddR x y k

theorem arBeqAdd (k x y : Nat) : Nat.beq (k + x) (k + y) = Nat.beq x y := by
  rw [Nat.add_comm k x, Nat.add_comm k y]
  exact arBeqAddR x y k

/-- Counting through a shift: a node linking to `b + δ` before links to `b' + δ` after. -/
theorem arSShift (f : TNode → TNode) (l : Tree) (b b' u : Nat)
    (h : ∀ m x, nthNode l m = some x → ∃ δ, x.parent = b + δ ∧ (f x).parent = b' + δ) :
    childCount (b' + u) (l.map f) = childCount (b + u) l :=
  arCntMap f _ _ l (fun m x hm => by
    have ⟨δ, e1, e2⟩ := h m x hm
    rw [e1, e2, arBeqAdd, arBeqAdd])

/-- The old tree's count at `p`, region by region. -/
theorem arSSplitO (p : Nat) (P D1 A D2 S : Tree) (g c : TNode) :
    childCount p (P ++ g :: (D1 ++ c :: (A ++ (D2 ++ S)))) = childCount p P + (childCount p [g] +
      (childCount p D1 + (childCount p [c] + (childCount p A + (childCount p D2 + childCount p S))))) := by
  rw [arCntApp, arMCons p g, arCntApp, arMCons p c, arCntApp, arCntApp]

theorem arSNe {x y z : Nat} (h1 : x ≤ y) (h2 : y < z) : x ≠ z := arNeOfLt (Nat.ltOfLeOfLt h1 h2)

theorem arSNe' {x y z : Nat} (h1 : z < y) (h2 : y ≤ x) : x ≠ z := fun e => arNeOfLt (Nat.ltOfLtOfLe h1 h2) e.symm

-- the counts of seven regions, old against new: more than the default budget in one declaration
set_option maxHeartbeats 2000000 in
/-- A sequence over a relinked arm `c`, its moved subtree `A` and a new leaf, in place of the group and
its subtree `D₁ ++ c :: A ++ D₂`, with the suffix after them moved, keeps the arities. -/
theorem arSelectSplice {P D1 A D2 S : Tree} {i d r e : Nat} {g c Q C L : TNode} (f hs : TNode → TNode)
    (hlen : List.length P = i) (hd : List.length D1 = d) (hr : List.length A = r) (he : List.length D2 = e)
    (hP : ∀ m x, nthNode P m = some x → x.parent ≤ i)
    (hg : g.parent ≤ i)
    (hD1 : ∀ m x, nthNode D1 m = some x → i + 1 ≤ x.parent ∧ x.parent ≤ i + 1 + m)
    (hc : c.parent = i + 1)
    (hA : ∀ m x, nthNode A m = some x → ∃ δ, x.parent = i + 1 + 1 + d + δ ∧ δ ≤ m ∧ (f x).parent = i + 1 + 1 + δ)
    (hD2 : ∀ m x, nthNode D2 m = some x → i + 1 ≤ x.parent ∧
      (x.parent < i + 1 + 1 + d ∨ i + 1 + 1 + d + r + 1 ≤ x.parent) ∧ x.parent ≤ i + 1 + 1 + d + r + m)
    (hS : ∀ m x, nthNode S m = some x → (x.parent ≤ i ∧ (hs x).parent = x.parent) ∨
      ∃ δ, x.parent = i + 1 + 1 + 1 + d + r + e + δ ∧ (hs x).parent = i + 1 + 1 + 1 + 1 + r + δ)
    (hfk : ∀ x, (f x).kind = x.kind) (hsk : ∀ x, (hs x).kind = x.kind)
    (hQ : Q.parent = g.parent) (hQk : Q.kind ≠ 0)
    (hC : C.parent = i + 1) (hCk : C.kind = c.kind)
    (hL : L.parent = i + 1) (hLk : L.kind = 0)
    (ha : AritiesOk (P ++ g :: (D1 ++ c :: (A ++ (D2 ++ S))))) :
    AritiesOk (P ++ (Q :: C :: A.map f ++ [L]) ++ S.map hs) := by
  -- the regions' counts
  have zP : ∀ p, i < p → childCount p P = 0 := fun p hp =>
    arMZeroHi p P (fun m x hm => Nat.ltOfLeOfLt (hP m x hm) hp)
  have zg : ∀ p, i < p → childCount p [g] = 0 := fun p hp =>
    arMZero1 p g (arNeOfLt (Nat.ltOfLeOfLt hg hp))
  have zQ : ∀ p, i < p → childCount p [Q] = 0 := fun p hp => by
    rw [arMSame p Q g hQ]
    exact zg p hp
  have z1 : ∀ (x : TNode) p, x.parent = i + 1 → p ≠ i + 1 → childCount p [x] = 0 := fun x p hx hp =>
    arMZero1 p x (by rw [hx]; exact fun e => hp e.symm)
  -- `A`'s links, old and new
  have aLo : ∀ m x, nthNode A m = some x → i + 1 + 1 + d ≤ x.parent := fun m x hm => by
    have ⟨δ, e1, _, _⟩ := hA m x hm
    rw [e1]
    exact Nat.leAddRight _ δ
  have aHi : ∀ m x, nthNode A m = some x → x.parent < i + 1 + 1 + d + r := fun m x hm => by
    have ⟨δ, e1, h2, _⟩ := hA m x hm
    have hm' : m < r := by rw [← hr]; exact nthSome A m x hm
    rw [e1]
    exact Nat.ltOfLeOfLt (Nat.addLeAddLeft h2 _) (Nat.addLeAddLeft hm' _ : i + 1 + 1 + d + m < i + 1 + 1 + d + r)
  have amLo : ∀ m y, nthNode (A.map f) m = some y → i + 1 + 1 ≤ y.parent := fun m y hy => by
    have ⟨z, hz, ez⟩ := nthMap f A m y hy
    have ⟨δ, _, _, e3⟩ := hA m z hz
    rw [ez, e3]
    exact Nat.leAddRight _ δ
  have amHi : ∀ m y, nthNode (A.map f) m = some y → y.parent < i + 1 + 1 + r := fun m y hy => by
    have ⟨z, hz, ez⟩ := nthMap f A m y hy
    have ⟨δ, _, h2, e3⟩ := hA m z hz
    have hm' : m < r := by rw [← hr]; exact nthSome A m z hz
    rw [ez, e3]
    exact Nat.ltOfLeOfLt (Nat.addLeAddLeft h2 _) (Nat.addLeAddLeft hm' _ : i + 1 + 1 + m < i + 1 + 1 + r)
  have cAm : ∀ u, childCount (i + 1 + 1 + u) (A.map f) = childCount (i + 1 + 1 + d + u) A := fun u =>
    arSShift f A _ _ u (fun m x hm => by
      have ⟨δ, e1, _, e3⟩ := hA m x hm
      exact ⟨δ, e1, e3⟩)
  -- `D₁`, `D₂`, `S`
  have d1Hi : ∀ m x, nthNode D1 m = some x → x.parent < i + 1 + 1 + d := fun m x hm => by
    have hm' : m < d := by rw [← hd]; exact nthSome D1 m x hm
    exact Nat.ltOfLeOfLt (hD1 m x hm).2 (Nat.ltOfLtOfLe (Nat.addLeAddLeft hm' (i + 1) : i + 1 + m < i + 1 + d)
      (arSLe 1 (by simp only [Nat.add_comm, Nat.add_left_comm, Nat.add_assoc] <;> rfl)))
  have d2Hi : ∀ m x, nthNode D2 m = some x → x.parent < i + 1 + 1 + 1 + d + r + e := fun m x hm => by
    have hm' : m < e := by rw [← he]; exact nthSome D2 m x hm
    have l1 : i + 1 + 1 + d + r + m < i + 1 + 1 + d + r + e := Nat.addLeAddLeft hm' _
    refine Nat.ltOfLeOfLt (hD2 m x hm).2.2 (Nat.ltOfLtOfLe l1 (arSLe 1 ?_))
    simp only [Nat.add_comm, Nat.add_left_comm, Nat.add_assoc] <;> rfl
  have cSmLo : ∀ p, p ≤ i → childCount p (S.map hs) = childCount p S := fun p hp => by
    apply arCntMap
    intro m x hm
    cases hS m x hm with
    | inl h => rw [h.2]
    | inr h =>
      have ⟨δ, e1, e2⟩ := h
      have l1 : p < x.parent := by
        rw [e1]
        exact Nat.ltOfLeOfLt hp (arSLt (d + r + e + δ + 1 + 1) (by simp only [Nat.add_comm, Nat.add_left_comm, Nat.add_assoc] <;> rfl))
      have l2 : p < (hs x).parent := by
        rw [e2]
        exact Nat.ltOfLeOfLt hp (arSLt (r + δ + 1 + 1 + 1) (by simp only [Nat.add_comm, Nat.add_left_comm, Nat.add_assoc] <;> rfl))
      rw [arBeqFalse (fun e => arNeOfLt l2 e.symm), arBeqFalse (fun e => arNeOfLt l1 e.symm)]
  have cSmHi : ∀ u, childCount (i + 1 + 1 + 1 + 1 + r + u) (S.map hs) = childCount (i + 1 + 1 + 1 + d + r + e + u) S :=
    fun u => by
    apply arCntMap
    intro m x hm
    cases hS m x hm with
    | inl h =>
      rw [h.2]
      have l1 : x.parent < i + 1 + 1 + 1 + 1 + r + u :=
        Nat.ltOfLeOfLt h.1 (arSLt (r + u + 1 + 1 + 1) (by simp only [Nat.add_comm, Nat.add_left_comm, Nat.add_assoc] <;> rfl))
      have l2 : x.parent < i + 1 + 1 + 1 + d + r + e + u :=
        Nat.ltOfLeOfLt h.1 (arSLt (d + r + e + u + 1 + 1) (by simp only [Nat.add_comm, Nat.add_left_comm, Nat.add_assoc] <;> rfl))
      rw [arBeqFalse (arNeOfLt l1), arBeqFalse (arNeOfLt l2)]
    | inr h =>
      have ⟨δ, e1, e2⟩ := h
      rw [e1, e2, arBeqAdd, arBeqAdd]
  have zSm : ∀ p, i < p → p < i + 1 + 1 + 1 + 1 + r → childCount p (S.map hs) = 0 := fun p h1 h2 => by
    apply arCntZero
    intro m y hy
    have ⟨z, hz, ez⟩ := nthMap hs S m y hy
    rw [ez]
    cases hS m z hz with
    | inl h => rw [h.2]; exact arSNe h.1 h1
    | inr h =>
      have ⟨δ, _, e2⟩ := h
      rw [e2]
      exact arSNe' h2 (Nat.leAddRight _ δ)
  have zS : ∀ p, i < p → p < i + 1 + 1 + 1 + d + r + e → childCount p S = 0 := fun p h1 h2 => by
    apply arCntZero
    intro m x hm
    cases hS m x hm with
    | inl h => exact arSNe h.1 h1
    | inr h =>
      have ⟨δ, e1, _⟩ := h
      rw [e1]
      exact arSNe' h2 (Nat.leAddRight _ δ)
  -- the claims, old count against new
  have cLo : ∀ p, p ≤ i → childCount p (P ++ (Q :: C :: A.map f ++ [L]) ++ S.map hs) =
      childCount p (P ++ g :: (D1 ++ c :: (A ++ (D2 ++ S)))) := fun p hp => by
    have hne : p ≠ i + 1 := arNeOfLt (Nat.succLeSucc hp)
    have lt1 : ∀ y, i + 1 ≤ y → p < y := fun y hy => Nat.ltOfLtOfLe (Nat.succLeSucc hp) hy
    rw [arMSplitN, arSSplitO, arMSame p Q g hQ, z1 C p hC hne, z1 L p hL hne, z1 c p hc hne, cSmLo p hp,
      arMZeroLo p (A.map f) (fun m y hy => lt1 _ (Nat.leTrans (Nat.leSucc _) (amLo m y hy))),
      arMZeroLo p D1 (fun m x hm => lt1 _ (hD1 m x hm).1),
      arMZeroLo p A (fun m x hm => lt1 _ (Nat.leTrans (arSLe (d + 1) (by simp only [Nat.add_comm, Nat.add_left_comm, Nat.add_assoc] <;> rfl)) (aLo m x hm))),
      arMZeroLo p D2 (fun m x hm => lt1 _ (hD2 m x hm).1)]
    simp only [Nat.zero_add, Nat.add_zero] <;> rfl
  have cQ : childCount (i + 1) (P ++ (Q :: C :: A.map f ++ [L]) ++ S.map hs) = 2 := by
    have l0 : i < i + 1 := Nat.ltSuccSelf i
    rw [arMSplitN, zP _ l0, zQ _ l0, arMOne _ C hC, arMOne _ L hL,
      arMZeroLo _ (A.map f) (fun m y hy => amLo m y hy),
      zSm _ l0 (arSLt (r + 1 + 1) (by simp only [Nat.add_comm, Nat.add_left_comm, Nat.add_assoc] <;> rfl))] <;> rfl
  have cMid : ∀ u, u ≤ r → childCount (i + 1 + 1 + u) (P ++ (Q :: C :: A.map f ++ [L]) ++ S.map hs) =
      childCount (i + 1 + 1 + d + u) (P ++ g :: (D1 ++ c :: (A ++ (D2 ++ S)))) := fun u hu => by
    have l0 : i < i + 1 + 1 + u := arSLt (u + 1) (by simp only [Nat.add_comm, Nat.add_left_comm, Nat.add_assoc] <;> rfl)
    have l1 : i < i + 1 + 1 + d + u := arSLt (d + u + 1) (by simp only [Nat.add_comm, Nat.add_left_comm, Nat.add_assoc] <;> rfl)
    have n0 : i + 1 + 1 + u ≠ i + 1 := fun e0 => arNeOfLt (arSLt u (by simp only [Nat.add_comm, Nat.add_left_comm, Nat.add_assoc] <;> rfl) : i + 1 < i + 1 + 1 + u) e0.symm
    have n1 : i + 1 + 1 + d + u ≠ i + 1 := fun e0 => arNeOfLt (arSLt (d + u) (by simp only [Nat.add_comm, Nat.add_left_comm, Nat.add_assoc] <;> rfl) : i + 1 < i + 1 + 1 + d + u) e0.symm
    have s1 : i + 1 + 1 + u < i + 1 + 1 + 1 + 1 + r :=
      Nat.ltOfLeOfLt (Nat.addLeAddLeft hu _) (arSLt 1 (by simp only [Nat.add_comm, Nat.add_left_comm, Nat.add_assoc] <;> rfl))
    have s2 : i + 1 + 1 + d + u < i + 1 + 1 + 1 + d + r + e :=
      Nat.ltOfLeOfLt (Nat.addLeAddLeft hu _) (arSLt e (by simp only [Nat.add_comm, Nat.add_left_comm, Nat.add_assoc] <;> rfl))
    rw [arMSplitN, arSSplitO, zP _ l0, zQ _ l0, z1 C _ hC n0, z1 L _ hL n0, zSm _ l0 s1, cAm u,
      zP _ l1, zg _ l1, z1 c _ hc n1, zS _ l1 s2,
      arMZeroHi _ D1 (fun m x hm => Nat.ltOfLtOfLe (d1Hi m x hm) (Nat.leAddRight _ u)),
      arCntZero _ D2 (fun m x hm => by
        cases (hD2 m x hm).2.1 with
        | inl h => exact arNeOfLt (Nat.ltOfLtOfLe h (Nat.leAddRight _ u))
        | inr h => exact arSNe' (Nat.ltOfLeOfLt (Nat.addLeAddLeft hu _) (Nat.ltSuccSelf _)) h)]
    simp only [Nat.zero_add, Nat.add_zero] <;> rfl
  have cL : childCount (i + 1 + 1 + 1 + r) (P ++ (Q :: C :: A.map f ++ [L]) ++ S.map hs) = 0 := by
    have l0 : i < i + 1 + 1 + 1 + r := arSLt (r + 1 + 1) (by simp only [Nat.add_comm, Nat.add_left_comm, Nat.add_assoc] <;> rfl)
    have n0 : i + 1 + 1 + 1 + r ≠ i + 1 := fun e0 =>
      arNeOfLt (arSLt (r + 1) (by simp only [Nat.add_comm, Nat.add_left_comm, Nat.add_assoc] <;> rfl) : i + 1 < i + 1 + 1 + 1 + r) e0.symm
    rw [arMSplitN, zP _ l0, zQ _ l0, z1 C _ hC n0, z1 L _ hL n0,
      arMZeroHi _ (A.map f) (fun m y hy => Nat.ltOfLtOfLe (amHi m y hy) (arSLe 1 (by simp only [Nat.add_comm, Nat.add_left_comm, Nat.add_assoc] <;> rfl))),
      zSm _ l0 (arSLt 0 (by simp only [Nat.add_comm, Nat.add_left_comm, Nat.add_assoc] <;> rfl))] <;> rfl
  have cHi : ∀ u, childCount (i + 1 + 1 + 1 + 1 + r + u) (P ++ (Q :: C :: A.map f ++ [L]) ++ S.map hs) =
      childCount (i + 1 + 1 + 1 + d + r + e + u) (P ++ g :: (D1 ++ c :: (A ++ (D2 ++ S)))) := fun u => by
    have l0 : i < i + 1 + 1 + 1 + 1 + r + u := arSLt (r + u + 1 + 1 + 1) (by simp only [Nat.add_comm, Nat.add_left_comm, Nat.add_assoc] <;> rfl)
    have l1 : i < i + 1 + 1 + 1 + d + r + e + u := arSLt (d + r + e + u + 1 + 1) (by simp only [Nat.add_comm, Nat.add_left_comm, Nat.add_assoc] <;> rfl)
    have n0 : i + 1 + 1 + 1 + 1 + r + u ≠ i + 1 := fun e0 =>
      arNeOfLt (arSLt (r + u + 1 + 1) (by simp only [Nat.add_comm, Nat.add_left_comm, Nat.add_assoc] <;> rfl) : i + 1 < i + 1 + 1 + 1 + 1 + r + u) e0.symm
    have n1 : i + 1 + 1 + 1 + d + r + e + u ≠ i + 1 := fun e0 =>
      arNeOfLt (arSLt (d + r + e + u + 1) (by simp only [Nat.add_comm, Nat.add_left_comm, Nat.add_assoc] <;> rfl) : i + 1 < i + 1 + 1 + 1 + d + r + e + u) e0.symm
    rw [arMSplitN, arSSplitO, zP _ l0, zQ _ l0, z1 C _ hC n0, z1 L _ hL n0, cSmHi u,
      arMZeroHi _ (A.map f) (fun m y hy => Nat.ltOfLtOfLe (amHi m y hy) (arSLe (u + 1 + 1) (by simp only [Nat.add_comm, Nat.add_left_comm, Nat.add_assoc] <;> rfl))),
      zP _ l1, zg _ l1, z1 c _ hc n1,
      arMZeroHi _ D1 (fun m x hm => Nat.ltOfLtOfLe (d1Hi m x hm) (arSLe (r + e + u + 1) (by simp only [Nat.add_comm, Nat.add_left_comm, Nat.add_assoc] <;> rfl))),
      arMZeroHi _ A (fun m x hm => Nat.ltOfLtOfLe (aHi m x hm) (arSLe (e + u + 1) (by simp only [Nat.add_comm, Nat.add_left_comm, Nat.add_assoc] <;> rfl))),
      arMZeroHi _ D2 (fun m x hm => Nat.ltOfLtOfLe (d2Hi m x hm) (Nat.leAddRight _ u))]
    simp only [Nat.zero_add, Nat.add_zero] <;> rfl
  have hO : ∀ s, nthNode (P ++ g :: (D1 ++ c :: (A ++ (D2 ++ S)))) (i + s) =
      nthNode (g :: (D1 ++ c :: (A ++ (D2 ++ S)))) s := fun s => by
    rw [← hlen]
    exact nthAppendR P _ s
  have hOc : ∀ s, nthNode (P ++ g :: (D1 ++ c :: (A ++ (D2 ++ S)))) (i + 1 + d + s) =
      nthNode (c :: (A ++ (D2 ++ S))) s := fun s => by
    have e0 : i + 1 + d + s = i + (d + s + 1) := by simp only [Nat.add_comm, Nat.add_left_comm, Nat.add_assoc] <;> rfl
    rw [e0, hO, nthSucc, ← hd]
    exact nthAppendR D1 _ s
  -- each node of the new tree
  intro q y hq
  cases q with
  | zero => cases hq
  | succ m =>
  have hq' : nthNode (P ++ (Q :: C :: A.map f ++ [L]) ++ S.map hs) m = some y := hq
  cases nthApp _ _ m y hq' with
  | inl hA0 =>
    have ⟨_, hA0⟩ := hA0
    cases nthApp _ _ m y hA0 with
    | inl hB0 =>
      -- a node before the group: its old children
      have ⟨hm2, hB0⟩ := hB0
      have hmi : m + 1 ≤ i := by rw [← hlen]; exact hm2
      have hz' : nthNode (P ++ g :: (D1 ++ c :: (A ++ (D2 ++ S)))) m = some y := by
        rw [nthAppendL _ _ m hm2]; exact hB0
      have hold := ha (m + 1) y (by rw [arMNodeAt]; exact hz')
      exact (cLo (m + 1) hmi).trans hold
    | inr hB0 =>
      have ⟨s, es, hs0⟩ := hB0
      rw [hlen] at es
      subst es
      cases nthApp _ _ s y hs0 with
      | inl hC0 =>
        have ⟨_, hC0⟩ := hC0
        cases s with
        | zero =>
          -- the sequence: `c` and `b_J`
          have ey : Q = y := Option.some.inj hC0
          subst ey
          have e2 : arityOf Q.kind = 2 := by
            cases hq0 : Q.kind with
            | zero => exact absurd hq0 hQk
            | succ _ => rfl
          exact cQ.trans e2.symm
        | succ s => cases s with
          | zero =>
            -- the kept arm: its old children, moved with it
            have ey : C = y := Option.some.inj hC0
            subst ey
            have hz' : nthNode (P ++ g :: (D1 ++ c :: (A ++ (D2 ++ S)))) (i + 1 + d + 0) = some c := by
              rw [hOc 0]; rfl
            have hold := ha (i + 1 + d + 0 + 1) c (by rw [arMNodeAt]; exact hz')
            have e0 : i + 1 + d + 0 + 1 = i + 1 + 1 + d + 0 := by
              simp only [Nat.add_comm, Nat.add_left_comm, Nat.add_assoc] <;> rfl
            rw [e0] at hold
            exact (cMid 0 (Nat.zeroLe r)).trans (hold.trans (congrArg arityOf hCk).symm)
          | succ s =>
            -- a moved node of the arm's subtree: its old children, moved with it
            have hC' : nthNode (A.map f) s = some y := hC0
            have ⟨z, hz, ez⟩ := nthMap f A s y hC'
            subst ez
            have hsl : s < List.length A := nthSome A s z hz
            have hz' : nthNode (P ++ g :: (D1 ++ c :: (A ++ (D2 ++ S)))) (i + 1 + d + (s + 1)) = some z := by
              rw [hOc (s + 1), nthSucc, nthAppendL A _ s hsl]
              exact hz
            have hold := ha (i + 1 + d + (s + 1) + 1) z (by rw [arMNodeAt]; exact hz')
            have e0 : i + 1 + d + (s + 1) + 1 = i + 1 + 1 + d + (s + 1) := by
              simp only [Nat.add_comm, Nat.add_left_comm, Nat.add_assoc] <;> rfl
            rw [e0] at hold
            have hsr : s + 1 ≤ r := by rw [← hr]; exact hsl
            have e1 : i + (s + 1 + 1) + 1 = i + 1 + 1 + (s + 1) := by
              simp only [Nat.add_comm, Nat.add_left_comm, Nat.add_assoc] <;> rfl
            show childCount (i + (s + 1 + 1) + 1) _ = _
            rw [e1]
            exact (cMid (s + 1) hsr).trans (hold.trans (congrArg arityOf (hfk z)).symm)
      | inr hC0 =>
        -- `b_J`: no children
        have ⟨s', es', hs1⟩ := hC0
        cases s' with
        | succ s' => cases hs1
        | zero =>
          have ey : L = y := Option.some.inj hs1
          subst ey
          have er : i + s + 1 = i + 1 + 1 + 1 + r := by
            rw [es']
            show i + (List.length (Q :: C :: List.map f A) + 0) + 1 = _
            rw [Nat.add_zero, List.length_cons, List.length_cons, lengthMap, hr]
            simp only [Nat.add_comm, Nat.add_left_comm, Nat.add_assoc] <;> rfl
          exact (congrArg (fun p => childCount p (P ++ (Q :: C :: A.map f ++ [L]) ++ S.map hs)) er).trans
            (cL.trans (congrArg arityOf hLk).symm)
  | inr hA0 =>
    -- a moved node after the subtree: its old children, moved with it
    have ⟨s, es, hs0⟩ := hA0
    have ⟨z, hz, ez⟩ := nthMap hs S s y hs0
    subst ez
    have el : List.length (P ++ (Q :: C :: A.map f ++ [L])) = i + (r + 1 + 1 + 1) := by
      rw [lengthApp, hlen, lengthApp, List.length_cons, List.length_cons, lengthMap, hr] <;> rfl
    rw [el] at es
    subst es
    have hz' : nthNode (P ++ g :: (D1 ++ c :: (A ++ (D2 ++ S)))) (i + 1 + d + (r + e + s + 1)) = some z := by
      rw [hOc, nthSucc, Nat.add_assoc r e s, ← hr, nthAppendR A _, ← he, nthAppendR D2 _]
      exact hz
    have hold := ha (i + 1 + d + (r + e + s + 1) + 1) z (by rw [arMNodeAt]; exact hz')
    have e0 : i + 1 + d + (r + e + s + 1) + 1 = i + 1 + 1 + 1 + d + r + e + s := by
      simp only [Nat.add_comm, Nat.add_left_comm, Nat.add_assoc] <;> rfl
    rw [e0] at hold
    have e1 : i + (r + 1 + 1 + 1) + s + 1 = i + 1 + 1 + 1 + 1 + r + s := by
      simp only [Nat.add_comm, Nat.add_left_comm, Nat.add_assoc] <;> rfl
    show childCount (i + (r + 1 + 1 + 1) + s + 1) _ = _
    rw [e1]
    exact (cHi s).trans (hold.trans (congrArg arityOf (hsk z)).symm)

theorem arSubEq {a b c : Nat} (h : a = c + b) : a - b = c := by
  rw [h, addSubR]

theorem arTT : ∀ (r K : Nat) (l : Tree), r ≤ K → takeN r (takeN K l) = takeN r l
  | 0, _, _, _ => rfl
  | r + 1, 0, _, h => absurd h (Nat.notSuccLeZero r)
  | r + 1, K + 1, [], _ => rfl
  | r + 1, K + 1, y :: l, h => congrArg (fun z => y :: z) (arTT r K l (Nat.leOfSuccLeSucc h))

/-- A window inside the first `K` nodes reads the same as in the whole list. -/
theorem arTDT : ∀ (q r K : Nat) (l : Tree), q + r ≤ K → takeN r (dropN q (takeN K l)) = takeN r (dropN q l)
  | 0, r, K, l, h => arTT r K l (by rw [Nat.zero_add] at h; exact h)
  | q + 1, r, K, [], _ => by cases K <;> rfl
  | q + 1, r, 0, y :: l, h => by
    rw [Nat.succ_add] at h
    exact absurd h (Nat.notSuccLeZero _)
  | q + 1, r, K + 1, y :: l, h => by
    rw [Nat.succ_add] at h
    exact arTDT q r K l (Nat.leOfSuccLeSucc h)

theorem arSLenDec (D1 A D2 : Tree) (c : TNode) :
    List.length (D1 ++ c :: (A ++ D2)) = List.length D1 + 1 + List.length A + List.length D2 := by
  rw [lengthApp, List.length_cons, lengthApp]
  show List.length D1 + (List.length A + List.length D2 + 1) = _
  simp only [Nat.add_comm, Nat.add_left_comm, Nat.add_assoc] <;> rfl

-- the row unfolded and the subtree split in one declaration: more than the default budget
set_option maxHeartbeats 2000000 in
/-- MergeSelect keeps every node's arity on a tree with parents before children and uncrossed links. -/
theorem selectArities {t t' : Tree} {g arm bj : Nat} {gj : List Pomset}
    (h : applyEdit t (TEdit.select g arm bj gj) = some t') (hpb : ParentsBefore t) (hnc : NoCross t)
    (ha : AritiesOk t) : AritiesOk t' := by
  have ⟨j, n, a, hc, hk, hs, hfa⟩ := selectCurrent h
  have ⟨_, _, hj⟩ := currentGroupAtSome hc
  have ⟨i, ei, hi0, hi⟩ := nodeAtPos hj
  subst ei
  have hk' : Nat.beq n.kind 1 = true := by rw [hk]; rfl
  have hb : (Nat.beq n.kind 1 && selOk n arm) = true := by rw [hk', hs]; rfl
  have h := (rowOf h).2
  have ⟨m, c0, ea, hm, hcp⟩ := tnFindChild (i + 1) arm t 1 a hfa
  rw [Nat.add_comm] at ea
  subst ea
  have hcn : nodeAt t (m + 1) = some c0 := hm
  simp only [rowTree, hc, hb, hfa, hcn] at h
  have e := applied h
  subst e
  -- the group's subtree `D` and the suffix `S`
  have hK : runLen (i + 1) (dropN (i + 1) t) ≤ List.length (dropN (i + 1) t) := arRunLe _ _
  have et : t = takeN i t ++ n :: (below t (i + 1) ++
      dropN (runLen (i + 1) (dropN (i + 1) t)) (dropN (i + 1) t)) := by
    have e5 := tnTakeDrop i t
    rw [tnDropNth i t n hi] at e5
    show t = takeN i t ++ n :: (takeN (runLen (i + 1) (dropN (i + 1) t)) (dropN (i + 1) t) ++
      dropN (runLen (i + 1) (dropN (i + 1) t)) (dropN (i + 1) t))
    rw [tnTakeDrop]
    exact e5.symm
  have hD : List.length (below t (i + 1)) = runLen (i + 1) (dropN (i + 1) t) := takeNLen _ _ hK
  -- where the kept arm lies in `D` (as in `selectKeptInside`)
  have hlt : i + 1 < m + 1 := by rw [← hcp]; exact hpb (m + 1) c0 hcn
  have ⟨p, ep0⟩ := Nat.le.dest (Nat.leOfSuccLeSucc hlt)
  have ep : i + 1 + p = m := ep0
  have hin : m < i + 1 + runLen (i + 1) (dropN (i + 1) t) := by
    cases Nat.ltOrGe m (i + 1 + runLen (i + 1) (dropN (i + 1) t)) with
    | inl h => exact h
    | inr h =>
      have r := afterRunParent hnc (i + 1) (m + 1) c0 hcn (Nat.succLeSucc h)
      rw [hcp] at r
      cases r with
      | inl r => exact absurd r (Nat.ltIrrefl _)
      | inr r => exact absurd (Nat.leTrans r (Nat.leAddRight (i + 1) _)) (Nat.notSuccLeSelf _)
  have hpk : p + 1 ≤ runLen (i + 1) (dropN (i + 1) t) := by
    rw [← ep] at hin
    exact leCancelL (i + 1) (p + 1) _ hin
  have ⟨s, es⟩ := Nat.le.dest hpk
  have eq : m + 1 + s = i + 1 + runLen (i + 1) (dropN (i + 1) t) := by
    rw [← ep, ← es]
    simp only [Nat.add_assoc]
    rfl
  have hrs : runLen (m + 1) (dropN (m + 1) t) ≤ s := by
    apply tnRunLe
    intro x hx
    rw [nthDrop, eq, ← nthDrop] at hx
    exact Nat.ltOfLtOfLe (runLenStop (i + 1) _ x hx) (Nat.leOfLt hlt)
  -- `D = D₁ ++ c :: (A ++ D₂)`
  have hDc : nthNode (below t (i + 1)) p = some c0 := by
    show nthNode (takeN (runLen (i + 1) (dropN (i + 1) t)) (dropN (i + 1) t)) p = some c0
    rw [nthTakeN _ p _ (Nat.ltOfLtOfLe (Nat.ltSuccSelf p) hpk), nthDrop, ep]
    exact hm
  have hwin : takeN (runLen (m + 1) (dropN (m + 1) t)) (dropN (p + 1) (below t (i + 1))) = below t (m + 1) := by
    show takeN _ (dropN (p + 1) (takeN (runLen (i + 1) (dropN (i + 1) t)) (dropN (i + 1) t))) = _
    have e0 : i + 1 + (p + 1) = m + 1 := by
      rw [← ep]; simp only [Nat.add_comm, Nat.add_left_comm, Nat.add_assoc] <;> rfl
    rw [arTDT (p + 1) _ _ _ (by rw [← es]; exact Nat.addLeAddLeft hrs _), ← tnDropDrop, e0]
    rfl
  have edec : below t (i + 1) = takeN p (below t (i + 1)) ++ c0 :: (below t (m + 1) ++
      dropN (runLen (m + 1) (dropN (m + 1) t)) (dropN (p + 1) (below t (i + 1)))) := by
    rw [← hwin, tnTakeDrop, ← tnDropNth p _ c0 hDc, tnTakeDrop]
  have hplen : List.length (takeN p (below t (i + 1))) = p :=
    takeNLen _ _ (by rw [hD]; exact Nat.leTrans (Nat.leSucc p) hpk)
  have hrlen : List.length (below t (m + 1)) = runLen (m + 1) (dropN (m + 1) t) := takeNLen _ _ (arRunLe _ _)
  have hKdec := congrArg List.length edec
  rw [arSLenDec, hD, hplen, hrlen] at hKdec
  rw [et, edec, List.append_assoc, List.cons_append, List.append_assoc] at ha
  show AritiesOk (takeN (i + 1 - 1) t ++ _ ++ _)
  rw [addSubR i 1]
  refine arSelectSplice _ _ (takeNLen i t (Nat.leOfLt hi0)) hplen hrlen rfl ?_ ?_ ?_ hcp ?_ ?_ ?_ ?_ ?_ ?_ ?_ ?_ ?_ ?_ ?_ ha
  · intro m' x hm'
    have hmi : m' < i := by
      have l := nthSome _ m' x hm'
      rw [takeNLen i t (Nat.leOfLt hi0)] at l
      exact l
    rw [nthTakeN i m' t hmi] at hm'
    exact Nat.leTrans (Nat.leOfSuccLeSucc (hpb (m' + 1) x hm')) (Nat.leOfLt hmi)
  · exact Nat.leOfSuccLeSucc (hpb (i + 1) n hi)
  · intro m' x hm'
    have hmp : m' < p := by
      have l := nthSome _ m' x hm'
      rw [hplen] at l
      exact l
    rw [nthTakeN p m' _ hmp] at hm'
    have ⟨h1, h2⟩ := runMem (i + 1) _ m' x hm'
    rw [nthDrop] at h2
    have h3 : x.parent < i + 1 + m' + 1 := hpb (i + 1 + m' + 1) x h2
    exact ⟨h1, Nat.leOfLtSucc h3⟩
  · intro m' x hm'
    have ⟨h1, h2⟩ := runMem (m + 1) _ m' x hm'
    rw [nthDrop] at h2
    have h3 : x.parent < m + 1 + m' + 1 := hpb (m + 1 + m' + 1) x h2
    have ⟨δ, eδ⟩ := Nat.le.dest h1
    have hδ : δ ≤ m' := by
      rw [← eδ] at h3
      exact leCancelL (m + 1) δ m' (Nat.leOfLtSucc h3)
    have em : m + 1 = i + 1 + 1 + p := by
      have e := Nat.add_right_comm (i + 1) p 1
      rw [ep] at e
      exact e
    refine ⟨δ, ?_, hδ, ?_⟩
    · rw [← eδ, em]
    · show x.parent + (i + 1 + 1) - (m + 1) = i + 1 + 1 + δ
      rw [← eδ]
      have e2 : m + 1 + δ + (i + 1 + 1) = i + 1 + 1 + δ + (m + 1) := by
        simp only [Nat.add_comm, Nat.add_left_comm, Nat.add_assoc] <;> rfl
      rw [e2, addSubR]
  · intro m' x hm'
    have hm2 : nthNode (below t (i + 1)) (p + 1 + (runLen (m + 1) (dropN (m + 1) t) + m')) = some x := by
      rw [← nthDrop, ← nthDrop]
      exact hm'
    have ⟨h1, h2⟩ := runMem (i + 1) _ _ x hm2
    rw [nthDrop] at h2
    have epos : i + 1 + (p + 1 + (runLen (m + 1) (dropN (m + 1) t) + m')) =
        m + 1 + runLen (m + 1) (dropN (m + 1) t) + m' := by
      rw [← ep]; simp only [Nat.add_comm, Nat.add_left_comm, Nat.add_assoc] <;> rfl
    rw [epos] at h2
    have h3 : x.parent < m + 1 + runLen (m + 1) (dropN (m + 1) t) + m' + 1 := hpb _ x h2
    have em : m + 1 = i + 1 + 1 + p := by
      have e := Nat.add_right_comm (i + 1) p 1
      rw [ep] at e
      exact e
    have r := afterRunParent hnc (m + 1) (m + 1 + runLen (m + 1) (dropN (m + 1) t) + m' + 1) x
      (by rw [arMNodeAt]; exact h2)
      (Nat.addLeAddRight (Nat.leAddRight (m + 1 + runLen (m + 1) (dropN (m + 1) t)) m') 1)
    refine ⟨h1, ?_, ?_⟩
    · rw [← em]
      exact r
    · rw [← em]
      exact Nat.leOfLtSucc h3
  · intro m' x hm'
    have hx : nodeAt t (i + 1 + runLen (i + 1) (dropN (i + 1) t) + m' + 1) = some x := by
      rw [arMNodeAt, Nat.add_assoc (i + 1), ← nthDrop, ← nthDrop]
      exact hm'
    cases afterRunParent hnc (i + 1) _ x hx (Nat.succLeSucc (Nat.leAddRight _ m')) with
    | inl h1 =>
      have hb : Nat.ble (i + 1) x.parent = false := by
        cases e : Nat.ble (i + 1) x.parent with
        | false => rfl
        | true => exact absurd (Nat.ltOfLtOfLe h1 (show i + 1 ≤ x.parent from e)) (Nat.ltIrrefl _)
      refine Or.inl ⟨Nat.leOfLtSucc h1, ?_⟩
      simp only [hb]
      rfl
    | inr h2 =>
      have ⟨δ, eδ⟩ := Nat.le.dest h2
      have hb : Nat.ble (i + 1) x.parent = true :=
        Nat.leTrans (Nat.leTrans (Nat.leAddRight (i + 1) _) (Nat.leSucc _)) h2
      refine Or.inr ⟨δ, ?_, ?_⟩
      · rw [← eδ, hKdec]
        simp only [Nat.add_comm, Nat.add_left_comm, Nat.add_assoc] <;> rfl
      · simp only [hb]
        show x.parent + List.length (_ :: _ :: moveTo (m + 1) (i + 1 + 1) (below t (m + 1)) ++ [_]) -
          (runLen (i + 1) (dropN (i + 1) t) + 1) = _
        have hL1 : List.length [newLeaf bj (i + 1) 1 gj] = 1 := rfl
        rw [lengthApp, List.length_cons, List.length_cons, moveLen, hrlen, hL1]
        show x.parent + (runLen (m + 1) (dropN (m + 1) t) + 1 + 1 + 1) - _ = _
        apply arSubEq
        rw [← eδ, hKdec]
        simp only [Nat.add_comm, Nat.add_left_comm, Nat.add_assoc] <;> rfl
  · intro x
    rfl
  · intro x
    cases Nat.ble (i + 1) x.parent <;> rfl
  · rfl
  · exact fun e => Nat.noConfusion e
  · rfl
  · rfl
  · rfl
  · rfl

-- every row, and the reached trees ---------------------------------------------------------------------

/-- Every tree change keeps every node's arity on a tree with parents before children and uncrossed links. -/
theorem applyEditArities {t t' : Tree} {e : TEdit} (h : applyEdit t e = some t') (hpb : ParentsBefore t)
    (hnc : NoCross t) (ha : AritiesOk t) : AritiesOk t' := by
  cases e with
  | keep => exact applyEditKeepArities h ha
  | fork par b g bl br gl gr => exact forkArities h hpb ha
  | restore live b g bk gk => cases live with
    | false => exact restoreReplaceArities h hpb ha
    | true => exact restoreLiveArities h hpb ha
  | select g arm bj gj => exact selectArities h hpb hnc ha
  | join g bj gj => exact joinArities h hpb hnc ha

theorem treeStepArities {tab : Core → Nat → Option (Derived × TEdit)} {c : Core} {t' : Tree}
    (h : TreeStep tab c t') (hpb : ParentsBefore c.tree) (hnc : NoCross c.tree) (ha : AritiesOk c.tree) :
    AritiesOk t' := by
  cases h with
  | inl e => rw [e]; exact ha
  | inr h => cases h with
    | inl p =>
      have ⟨x, e⟩ := p
      rw [e]
      exact hstepArities c.tree x ha
    | inr p => have ⟨_, _, _, _, hp⟩ := p; exact applyEditArities hp hpb hnc ha

theorem startArities {d : Derived} {S : RState} (h : start d = some S) (ha : AritiesOk d.tree) :
    AritiesOk S.core.tree := by
  simp only [start] at h
  cases hs : safeSet (build d.inst) with
  | nil => rw [hs] at h; exact Option.noConfusion h
  | cons a l => rw [hs] at h; cases Option.some.inj h; exact ha

/-- On the runtime run, every tree reached from a record whose tree has parents before children,
uncrossed links and the arities has the arities, after any finite sequence of events. -/
theorem replayArities (tab : Core → Nat → Option (Derived × TEdit)) :
    ∀ (es : List Ev) (S : RState), ParentsBefore S.core.tree → NoCross S.core.tree →
      AritiesOk S.core.tree → AritiesOk (replay (treeDer tab) S es).core.tree
  | [], _, _, _, h => h
  | e :: es, S, hp, hn, h => replayArities tab es _ (treeStepParentsBefore (stepTree tab S e) hp)
      (treeStepNoCross (stepTree tab S e) hp hn) (treeStepArities (stepTree tab S e) hp hn h)

/-- On the ideal machine, the same. -/
theorem replayIdealArities (tab : Core → Nat → Option (Derived × TEdit)) :
    ∀ (es : List IEv) (c : Core), ParentsBefore c.tree → NoCross c.tree →
      AritiesOk c.tree → AritiesOk (replayIdeal (treeDer tab) c es).tree
  | [], _, _, _, h => h
  | e :: es, c, hp, hn, h => replayIdealArities tab es _ (stepIParentsBefore tab c e hp)
      (treeStepNoCross (stepITree tab c e) hp hn) (treeStepArities (stepITree tab c e) hp hn h)

/-- After any finite sequence of runtime or ideal events from a root the arity check accepts (over the
order and name checks), every tree reached has the group arities. -/
theorem arityReplayArities (tab : Core → Nat → Option (Derived × TEdit)) {d : Derived} {S : RState}
    (hs : startArity d = some S) :
    (∀ es : List Ev, AritiesOk (replay (treeDer tab) S es).core.tree) ∧
    (∀ es : List IEv, AritiesOk (replayIdeal (treeDer tab) S.core es).tree) := by
  have ⟨hn, ha⟩ := startArityIff.1 hs
  have ⟨hc, _⟩ := startNamedIff.1 hn
  have ⟨h, hp, hnc⟩ := startCheckedIff.1 hc
  exact ⟨fun es => replayArities tab es S (startParentsBefore h hp) (startNoCross h hnc) (startArities h ha),
    fun es => replayIdealArities tab es S.core (startParentsBefore h hp) (startNoCross h hnc) (startArities h ha)⟩

end AgentWarrant.Edits.Machine
