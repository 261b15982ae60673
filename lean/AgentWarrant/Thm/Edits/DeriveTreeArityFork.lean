import AgentWarrant.Thm.Edits.DeriveTreeArityRows
/-! Fork and RestoreLive keep the group arities (*When Can Agents Safely Checkpoint, Fork, Restore, and
Merge?*, Table I; the property is `AritiesOk` of `Thm/Edits/DeriveTreeArity.lean`).

Both rows replace the current leaf (which has no children, so it is the whole run `spliceAt` replaces)
by a group over two leaves; the nodes after it move by two, their links past the leaf with them.
Counting the links to each position: a position before the leaf keeps its children, the new group gets
its two leaves, the new leaves get none, and a moved node's children moved with it. -/
namespace AgentWarrant.Edits.Machine
open AgentWarrant AgentWarrant.Edits

theorem arCntApp (p : Nat) : ∀ (a b : Tree), childCount p (a ++ b) = childCount p a + childCount p b
  | [], b => by rw [List.nil_append]; exact (Nat.zero_add _).symm
  | x :: a, b => by
    rw [List.cons_append]
    have ih := arCntApp p a b
    cases h : Nat.beq x.parent p with
    | true =>
      show (match Nat.beq x.parent p with | true => childCount p (a ++ b) + 1 | false => childCount p (a ++ b)) =
        (match Nat.beq x.parent p with | true => childCount p a + 1 | false => childCount p a) + childCount p b
      rw [h, ih]
      show childCount p a + childCount p b + 1 = childCount p a + 1 + childCount p b
      rw [Nat.add_assoc, Nat.add_comm (childCount p b) 1, ← Nat.add_assoc]
    | false =>
      show (match Nat.beq x.parent p with | true => childCount p (a ++ b) + 1 | false => childCount p (a ++ b)) =
        (match Nat.beq x.parent p with | true => childCount p a + 1 | false => childCount p a) + childCount p b
      rw [h, ih]

theorem arBeqFalse {a b : Nat} (h : a ≠ b) : Nat.beq a b = false := by
  cases e : Nat.beq a b with
  | false => rfl
  | true => exact absurd (Nat.eqOfBeqEqTrue e) h

/-- Counting through a map: each node's link to `p` after is its link to `q` before. -/
theorem arCntMap (f : TNode → TNode) (p q : Nat) : ∀ (l : Tree),
    (∀ m x, nthNode l m = some x → Nat.beq (f x).parent p = Nat.beq x.parent q) →
    childCount p (l.map f) = childCount q l
  | [], _ => rfl
  | x :: l, h => by
    have ih := arCntMap f p q l (fun m y hy => h (m + 1) y (by rw [nthSucc]; exact hy))
    have hx := h 0 x rfl
    show (match Nat.beq (f x).parent p with | true => childCount p (l.map f) + 1 | false => childCount p (l.map f)) =
      (match Nat.beq x.parent q with | true => childCount q l + 1 | false => childCount q l)
    rw [hx, ih]

theorem arCntZero (p : Nat) : ∀ (l : Tree), (∀ m x, nthNode l m = some x → x.parent ≠ p) → childCount p l = 0
  | [], _ => rfl
  | x :: l, h => by
    have ih := arCntZero p l (fun m y hy => h (m + 1) y (by rw [nthSucc]; exact hy))
    show (match Nat.beq x.parent p with | true => childCount p l + 1 | false => childCount p l) = 0
    rw [arBeqFalse (h 0 x rfl), ih]

theorem arNeOfLt {a b : Nat} (h : a < b) : a ≠ b := fun e => Nat.ltIrrefl b (by rw [e] at h; exact h)

theorem arLtOfLeLt {a b c : Nat} (h1 : a ≤ b) (h2 : b < c) : a < c := Nat.ltOfLeOfLt h1 h2

/-- Every node of a list of nodes is classified by its link: at or before `i + 1`, or at `i + 4` or after. -/
def ArCls (i : Nat) (l : Tree) : Prop := ∀ m x, nthNode l m = some x → x.parent ≤ i + 1 ∨ i + 4 ≤ x.parent

theorem arClsApp {i : Nat} {a b : Tree} (ha : ArCls i a) (hb : ArCls i b) : ArCls i (a ++ b) := by
  intro m x h
  cases nthApp a b m x h with
  | inl h1 => exact ha m x h1.2
  | inr h2 => have ⟨k, _, hk⟩ := h2; exact hb k x hk

theorem arLeSucc (a : Nat) : a ≤ a + 1 := Nat.leSucc a

theorem arCntHead (p : Nat) (x : TNode) (r : Tree) :
    childCount p (x :: r) = (match Nat.beq x.parent p with | true => childCount p r + 1 | false => childCount p r) := rfl

theorem arSplice3 {P S : Tree} {i : Nat} {n G X Y : TNode} (f : TNode → TNode)
    (hlen : List.length P = i)
    (hP : ∀ m x, nthNode P m = some x → x.parent ≤ i)
    (hS : ∀ m x, nthNode S m = some x → x.parent ≤ i ∨ i + 2 ≤ x.parent)
    (hf1 : ∀ x, x.parent ≤ i → (f x).parent = x.parent)
    (hf2 : ∀ x, i + 2 ≤ x.parent → (f x).parent = x.parent + 2)
    (hfk : ∀ x, (f x).kind = x.kind)
    (hn : n.parent ≤ i) (hnk : n.kind = 0)
    (hG : G.parent = n.parent) (hGk : G.kind ≠ 0)
    (hX : X.parent = i + 1) (hY : Y.parent = i + 1) (hXk : X.kind = 0) (hYk : Y.kind = 0)
    (ha : AritiesOk (P ++ n :: S)) : AritiesOk (P ++ [G, X, Y] ++ S.map f) := by
  have clsP : ArCls i P := fun m x h => Or.inl (Nat.leTrans (hP m x h) (arLeSucc i))
  have clsN : ArCls i [G, X, Y] := by
    intro m x h
    cases m with
    | zero => cases h; rw [hG]; exact Or.inl (Nat.leTrans hn (arLeSucc i))
    | succ m => cases m with
      | zero => cases h; rw [hX]; exact Or.inl (Nat.leRefl _)
      | succ m => cases m with
        | zero => cases h; rw [hY]; exact Or.inl (Nat.leRefl _)
        | succ m => cases h
  have clsS : ArCls i (S.map f) := by
    intro m x h
    have ⟨z, hz, ez⟩ := nthMap f S m x h
    subst ez
    cases hS m z hz with
    | inl h1 => rw [hf1 z h1]; exact Or.inl (Nat.leTrans h1 (arLeSucc i))
    | inr h2 => rw [hf2 z h2]; exact Or.inr (Nat.addLeAddRight h2 2)
  have cls : ArCls i (P ++ [G, X, Y] ++ S.map f) := arClsApp (arClsApp clsP clsN) clsS
  intro p y hp
  cases p with
  | zero => cases hp
  | succ m =>
  have hp' : nthNode (P ++ [G, X, Y] ++ S.map f) m = some y := hp
  cases nthApp _ _ m y hp' with
  | inl hA =>
    have ⟨hm, hA⟩ := hA
    cases nthApp _ _ m y hA with
    | inl hB =>
      -- a node before the leaf: its children are the old ones, the group taking the leaf's link
      have ⟨hm2, hB⟩ := hB
      have hold := ha (m + 1) y (by show nthNode (P ++ n :: S) m = some y; rw [nthAppendL _ _ m hm2]; exact hB)
      rw [← hold, List.append_assoc, List.cons_append, arCntApp, arCntApp, arCntHead, arCntHead, hG]
      have hm3 : m + 1 ≤ i := by rw [← hlen]; exact hm2
      have e : childCount (m + 1) ([X, Y] ++ S.map f) = childCount (m + 1) S := by
        rw [arCntApp]
        have z1 : childCount (m + 1) [X, Y] = 0 := by
          apply arCntZero
          intro k x hk
          cases k with
          | zero => cases hk; rw [hX]; exact fun e => arNeOfLt (Nat.ltOfLeOfLt hm3 (Nat.ltSuccSelf i)) e.symm
          | succ k => cases k with
            | zero => cases hk; rw [hY]; exact fun e => arNeOfLt (Nat.ltOfLeOfLt hm3 (Nat.ltSuccSelf i)) e.symm
            | succ k => cases hk
        rw [z1, Nat.zero_add]
        apply arCntMap
        intro k x hk
        cases hS k x hk with
        | inl h1 => rw [hf1 x h1]
        | inr h2 =>
          rw [hf2 x h2]
          have l1 : m + 1 < x.parent := Nat.ltOfLeOfLt hm3 (Nat.ltOfLtOfLe (Nat.ltSuccSelf i) (Nat.leTrans (arLeSucc (i + 1)) h2))
          have l2 : m + 1 < x.parent + 2 := Nat.ltOfLtOfLe l1 (Nat.leAddRight _ 2)
          rw [arBeqFalse (fun e => arNeOfLt l2 e.symm), arBeqFalse (fun e => arNeOfLt l1 e.symm)]
      rw [e]
    | inr hB =>
      have ⟨k, ek, hk⟩ := hB
      rw [hlen] at ek
      subst ek
      cases k with
      | zero =>
        -- the new group: its two leaves
        cases hk
        have e2 : arityOf G.kind = 2 := by
          cases hg : G.kind with
          | zero => exact absurd hg hGk
          | succ _ => rfl
        rw [e2]
        show childCount (i + 1) (P ++ [G, X, Y] ++ S.map f) = 2
        have zP : childCount (i + 1) P = 0 :=
          arCntZero _ P (fun k x hk e => arNeOfLt (Nat.ltOfLeOfLt (hP k x hk) (Nat.ltSuccSelf i)) e)
        have zS : childCount (i + 1) (S.map f) = 0 := by
          apply arCntZero
          intro k x hk e
          have ⟨z, hz, ez⟩ := nthMap f S k x hk
          subst ez
          cases hS k z hz with
          | inl h1 => rw [hf1 z h1] at e; exact arNeOfLt (Nat.ltOfLeOfLt h1 (Nat.ltSuccSelf i)) e
          | inr h2 =>
            rw [hf2 z h2] at e
            have l1 : i + 1 < z.parent + 2 :=
              Nat.ltOfLtOfLe (Nat.ltOfLtOfLe (Nat.ltSuccSelf (i + 1)) h2) (Nat.leAddRight _ 2)
            exact arNeOfLt l1 e.symm
        have hb : Nat.beq n.parent (i + 1) = false := arBeqFalse (arNeOfLt (Nat.ltOfLeOfLt hn (Nat.ltSuccSelf i)))
        rw [List.append_assoc, arCntApp, arCntApp, zP, zS]
        show 0 + (match Nat.beq G.parent (i + 1) with
          | true => (match Nat.beq X.parent (i + 1) with
            | true => (match Nat.beq Y.parent (i + 1) with | true => 0 + 1 | false => 0) + 1
            | false => (match Nat.beq Y.parent (i + 1) with | true => 0 + 1 | false => 0)) + 1
          | false => (match Nat.beq X.parent (i + 1) with
            | true => (match Nat.beq Y.parent (i + 1) with | true => 0 + 1 | false => 0) + 1
            | false => (match Nat.beq Y.parent (i + 1) with | true => 0 + 1 | false => 0))) + 0 = 2
        rw [hG, hX, hY, hb, arBeqRefl]
        rfl
      | succ k =>
        -- a new leaf: no children
        have hy : y.kind = 0 ∧ (k = 0 ∨ k = 1) := by
          cases k with
          | zero => cases hk; exact ⟨hXk, Or.inl rfl⟩
          | succ k => cases k with
            | zero => cases hk; exact ⟨hYk, Or.inr rfl⟩
            | succ k => cases hk
        rw [hy.1]
        apply arCntZero
        intro j x hj e
        cases cls j x hj with
        | inl h1 =>
          rw [e] at h1
          have l : i + 1 < i + (k + 1) + 1 := Nat.succLeSucc (Nat.succLeSucc (Nat.leAddRight i k))
          exact Nat.ltIrrefl _ (Nat.ltOfLtOfLe l h1)
        | inr h2 =>
          rw [e] at h2
          have l : i + (k + 1) + 1 < i + 4 := by
            cases hy.2 with
            | inl h0 => subst h0; exact Nat.ltOfLtOfLe (Nat.ltSuccSelf _) (Nat.leSucc _)
            | inr h0 => subst h0; exact Nat.ltSuccSelf _
          exact Nat.ltIrrefl _ (Nat.ltOfLtOfLe l h2)
  | inr hA =>
    -- a moved node: its children moved with it
    have ⟨k, ek, hk⟩ := hA
    have ⟨z, hz, ez⟩ := nthMap f S k y hk
    subst ez
    rw [hfk]
    have hold := ha (i + (k + 1) + 1) z (by
      show nthNode (P ++ n :: S) (i + (k + 1)) = some z
      rw [← hlen, nthAppendR]
      exact hz)
    rw [← hold]
    have el : List.length (P ++ [G, X, Y]) = i + 3 := by rw [lengthApp, hlen]; rfl
    rw [el] at ek
    have eq : m + 1 = i + (k + 1) + 1 + 2 := by
      rw [ek, Nat.add_assoc i 3 k, Nat.add_comm 3 k, ← Nat.add_assoc]
      rfl
    show childCount (m + 1) (P ++ [G, X, Y] ++ S.map f) = _
    rw [eq, arCntApp, arCntZero _ (P ++ [G, X, Y]) ?_, Nat.zero_add]
    have hb2 : Nat.beq n.parent (i + (k + 1) + 1) = false := arBeqFalse (arNeOfLt
      (Nat.ltOfLeOfLt hn (Nat.ltOfLtOfLe (Nat.ltSuccSelf i) (Nat.succLeSucc (Nat.leAddRight i (k + 1))))))
    rw [arCntApp, arCntZero _ P ?_, Nat.zero_add, arCntHead, hb2]
    · apply arCntMap
      intro j x hj
      cases hS j x hj with
      | inl h1 =>
        rw [hf1 x h1]
        have l1 : x.parent < i + (k + 1) + 1 :=
          Nat.ltOfLeOfLt h1 (Nat.ltOfLtOfLe (Nat.ltSuccSelf i) (Nat.succLeSucc (Nat.leAddRight i (k + 1))))
        have l2 : x.parent < i + (k + 1) + 1 + 2 := Nat.ltOfLtOfLe l1 (Nat.leAddRight _ 2)
        rw [arBeqFalse (arNeOfLt l1), arBeqFalse (arNeOfLt l2)]
      | inr h2 =>
        rw [hf2 x h2]
        rfl
    · intro j x hj e
      have l : x.parent < i + (k + 1) + 1 :=
        Nat.ltOfLeOfLt (hP j x hj) (Nat.ltOfLtOfLe (Nat.ltSuccSelf i) (Nat.succLeSucc (Nat.leAddRight i (k + 1))))
      exact arNeOfLt l e
    · intro j x hj e
      have hle : x.parent ≤ i + 1 := by
        cases nthApp P [G, X, Y] j x hj with
        | inl h1 => exact Nat.leTrans (hP j x h1.2) (arLeSucc i)
        | inr h2 =>
          have ⟨r, _, hr⟩ := h2
          cases clsN r x hr with
          | inl h3 => exact h3
          | inr h4 =>
            cases r with
            | zero => cases hr; rw [hG] at h4; exact absurd (Nat.leTrans h4 hn) (Nat.notSuccLeSelf i |> fun f h => f (Nat.leTrans (Nat.leAddRight (i + 1) 3) h))
            | succ r => cases r with
              | zero => cases hr; rw [hX] at h4; exact Nat.leOfEq hX
              | succ r => cases r with
                | zero => cases hr; exact Nat.leOfEq hY
                | succ r => cases hr
      rw [e] at hle
      exact Nat.ltIrrefl _ (Nat.ltOfLtOfLe (Nat.succLeSucc (Nat.succLeSucc (Nat.leAddRight i (k + 1)))) (Nat.leTrans hle (Nat.leSucc _)))

/-- A current leaf of a tree with parents before children and the arities has no children: replacing it by
a group over two new leaves keeps the arities. -/
theorem arSpliceLeaf {t : Tree} (hpb : ParentsBefore t) (ha : AritiesOk t) {i : Nat} {n : TNode}
    (hn : nthNode t i = some n) (hnk : n.kind = 0) (hi : i < List.length t) (G X Y : TNode)
    (hG : G.parent = n.parent) (hGk : G.kind ≠ 0)
    (hX : X.parent = i + 1) (hY : Y.parent = i + 1) (hXk : X.kind = 0) (hYk : Y.kind = 0) :
    AritiesOk (spliceAt t (i + 1) [G, X, Y]) := by
  have hr := arRunZero hpb ha hn hnk
  have ht : spliceAt t (i + 1) [G, X, Y] = takeN i t ++ [G, X, Y] ++ (dropN (i + 1) t).map (fun n =>
      match Nat.ble (i + 1) n.parent with
      | true => { n with parent := n.parent + List.length [G, X, Y] - (0 + 1) }
      | false => n) := by
    show takeN (i + 1 - 1) t ++ _ ++ (dropN (runLen (i + 1) (dropN (i + 1) t)) (dropN (i + 1) t)).map _ = _
    rw [hr, addSubR i 1]
    rfl
  rw [ht]
  have e5 := tnTakeDrop i t
  rw [tnDropNth i t n hn] at e5
  have hc : childCount (i + 1) t = 0 := by rw [ha (i + 1) n hn, hnk]; rfl
  have hnp : n.parent ≤ i := Nat.leOfSuccLeSucc (hpb (i + 1) n hn)
  apply arSplice3 _ (takeNLen i t (Nat.leOfLt hi)) _ _ _ _ _ hnp hnk hG hGk hX hY hXk hYk (by rw [e5]; exact ha)
  · intro m x hm
    have hmi : m < i := by
      have l := nthSome _ m x hm
      rw [takeNLen i t (Nat.leOfLt hi)] at l
      exact l
    rw [nthTakeN i m t hmi] at hm
    exact Nat.leTrans (Nat.leOfSuccLeSucc (hpb (m + 1) x hm)) (Nat.leOfLt hmi)
  · intro m x hm
    have hx : nthNode t (i + 1 + m) = some x := by rw [← nthDrop]; exact hm
    have hne : x.parent ≠ i + 1 := fun e => arCountPos (i + 1) t (i + 1 + m) x hx e hc
    cases Nat.ltOrGe x.parent (i + 1) with
    | inl h1 => exact Or.inl (Nat.leOfSuccLeSucc h1)
    | inr h2 => exact Or.inr (Nat.ltOfLeAndNe h2 (fun e => hne e.symm))
  · intro x hx
    have hb : Nat.ble (i + 1) x.parent = false := by
      cases e : Nat.ble (i + 1) x.parent with
      | false => rfl
      | true => exact absurd (Nat.leTrans (show i + 1 ≤ x.parent from e) (Nat.leRefl _)) (fun h => Nat.notSuccLeSelf i (Nat.leTrans h hx))
    simp only [hb]
    rfl
  · intro x hx
    have hb : Nat.ble (i + 1) x.parent = true := Nat.leTrans (Nat.leSucc (i + 1)) hx
    simp only [hb]
    exact addSubR (x.parent + 2) 1
  · intro x
    cases Nat.ble (i + 1) x.parent <;> rfl

/-- The current leaf's position, node and kind. -/
theorem arLeafAt {t : Tree} {b j : Nat} {n : TNode} (hc : currentLeafAt t b = some (j, n)) :
    ∃ i, j = i + 1 ∧ i < List.length t ∧ nthNode t i = some n ∧ n.kind = 0 := by
  have ⟨_, hf, hj⟩ := currentLeafAtSome hc
  have ⟨i, ei, hi, hn⟩ := nodeAtPos hj
  subst ei
  have ⟨i2, n2, e2, hn2, hb2, _⟩ := findLeafSplit b t 1 (i + 1) hf
  rw [Nat.add_comm 1 i2] at e2
  have e3 : i = i2 := Nat.succ.inj e2
  subst e3
  have e4 : n2 = n := Option.some.inj (hn2.symm.trans hn)
  subst e4
  exact ⟨i, rfl, hi, hn, Nat.eqOfBeqEqTrue (andTrue hb2).1⟩

/-- Fork keeps every node's arity on a tree with parents before children. -/
theorem forkArities {t t' : Tree} {par : Bool} {b g bl br : Nat} {gl gr : List Pomset}
    (h : applyEdit t (TEdit.fork par b g bl br gl gr) = some t') (hpb : ParentsBefore t) (ha : AritiesOk t) :
    AritiesOk t' := by
  have h := (rowOf h).2
  cases hc : currentLeafAt t b with
  | none => simp only [rowTree, hc] at h
  | some p => cases p with
    | mk j n =>
      have ⟨i, ei, hi, hn, hk⟩ := arLeafAt hc
      subst ei
      simp only [rowTree, hc] at h
      have e := applied h
      subst e
      apply arSpliceLeaf hpb ha hn hk hi
      · rfl
      · cases par <;> exact fun e => Nat.noConfusion e
      · rfl
      · rfl
      · rfl
      · rfl

/-- RestoreLive keeps every node's arity on a tree with parents before children. -/
theorem restoreLiveArities {t t' : Tree} {b g bk : Nat} {gk : List Pomset}
    (h : applyEdit t (TEdit.restore true b g bk gk) = some t') (hpb : ParentsBefore t) (ha : AritiesOk t) :
    AritiesOk t' := by
  have h := (rowOf h).2
  cases hc : currentLeafAt t b with
  | none => simp only [rowTree, hc] at h
  | some p => cases p with
    | mk j n =>
      have ⟨i, ei, hi, hn, hk⟩ := arLeafAt hc
      subst ei
      simp only [rowTree, hc] at h
      have e := applied h
      subst e
      apply arSpliceLeaf hpb ha hn hk hi
      · rfl
      · exact fun e => Nat.noConfusion e
      · rfl
      · rfl
      · exact hk
      · rfl

end AgentWarrant.Edits.Machine
