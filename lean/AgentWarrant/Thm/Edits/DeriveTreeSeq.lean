import AgentWarrant.Thm.Edits.DeriveTreeKeep
/-! The preorder invariant of the flat branch tree, towards the new leaves' currency with a sequence above
the edited node (*When Can Agents Safely Checkpoint, Fork, Restore, and Merge?*, Section V-A and Table I):
- `NoCross t`: parent links do not cross — for positions `b < c`, `c`'s parent is not strictly between
  `b`'s parent and `b`. With parents before children it gives preorder (a node's descendants follow it
  contiguously): every node strictly between a node `q` and a descendant of `q` descends from `q`
  (`noCrossContiguous`, descent `Desc` by parent links);
- `HStep` keeps it (`hstepNoCross`: it moves only progress and choice selections), the no-op change too
  (`applyEditKeepNoCross`);
- what it buys the splice: in a tree without crossings, every node after the run that `spliceAt` replaces
  (the nodes after position `j` whose parent is `j` or later, `runLen`) has its parent before `j` or after
  the run (`afterRunParent`), so `spliceAt`'s shift (`Nat.ble j parent`) re-parents exactly the nodes
  whose parent lies after the replaced subtree, and none is moved onto a parent inside it.

Choices: the invariant is stated arithmetically on positions (no ancestor relation), like
`ParentsBefore`, so that its preservation is arithmetic on the flat list. Not proved here: that each
row of `applyEdit` keeps `NoCross` (the splice's prefix, new nodes and shifted suffix, pair by pair), and
so the currency results with a sequence above the edited node; the root tree's `NoCross` would be a
hypothesis beside its `ParentsBefore` (the root is `Derive`'s input). -/
namespace AgentWarrant.Edits.Machine
open AgentWarrant AgentWarrant.Edits

/-- Parent links do not cross: for positions `b < c`, `c`'s parent is at or before `b`'s parent, or at
or after `b`. -/
def NoCross (t : Tree) : Prop :=
  ∀ b c nb nc, nodeAt t b = some nb → nodeAt t c = some nc → b < c → nc.parent ≤ nb.parent ∨ b ≤ nc.parent

/-- `HStep` keeps the links uncrossed: it changes no node's parent (`hstepShape`). -/
theorem hstepNoCross (t : Tree) (x : Nat) (h : NoCross t) : NoCross (hstep t x) := by
  intro b c nb nc hb hc hlt
  have ⟨i, eb, _, hi⟩ := nodeAtPos hb
  have ⟨j, ec, _, hj⟩ := nodeAtPos hc
  subst eb
  subst ec
  have ⟨mb, hmb, hpb⟩ := nthShape (hstep t x) t i nb (hstepShape t x) hi
  have ⟨mc, hmc, hpc⟩ := nthShape (hstep t x) t j nc (hstepShape t x) hj
  have r := h (i + 1) (j + 1) mb mc hmb hmc hlt
  rw [hpb, hpc] at r
  exact r

/-- The no-op change (Extend, Checkpoint) keeps the links uncrossed. -/
theorem applyEditKeepNoCross {t t' : Tree} (h : applyEdit t TEdit.keep = some t') (hc : NoCross t) :
    NoCross t' := by
  have h := (rowOf h).2
  have e := applied h
  subst e
  exact hc

-- the run `spliceAt` replaces ----------------------------------------------------------------------------

theorem nthDrop : ∀ (a : Nat) (t : Tree) (m : Nat), nthNode (dropN a t) m = nthNode t (a + m)
  | 0, t, m => by rw [Nat.zero_add]; rfl
  | a + 1, [], m => by cases m <;> rfl
  | a + 1, x :: t, m => by
    show nthNode (dropN a t) m = nthNode (x :: t) (a + 1 + m)
    rw [nthDrop a t m, Nat.add_right_comm]
    rfl

theorem nthExists : ∀ (t : Tree) (m i : Nat) (n : TNode), nthNode t i = some n → m ≤ i →
    ∃ x, nthNode t m = some x
  | [], _, _, _, h, _ => Option.noConfusion h
  | x :: _, 0, _, _, _, _ => ⟨x, rfl⟩
  | _ :: _, _ + 1, 0, _, _, hm => absurd hm (Nat.notSuccLeZero _)
  | _ :: t, m + 1, i + 1, n, h, hm => nthExists t m i n h (Nat.leOfSuccLeSucc hm)

/-- The node just after the run below `j` (if any) has its parent before `j`. -/
theorem runLenStop (j : Nat) : ∀ (l : Tree) (n : TNode), nthNode l (runLen j l) = some n → n.parent < j
  | [], n, h => by
    have e : nthNode [] (runLen j []) = none := rfl
    rw [e] at h
    exact Option.noConfusion h
  | x :: l, n, h => by
    cases hb : Nat.ble j x.parent with
    | false =>
      have e : runLen j (x :: l) = 0 := by simp only [runLen, hb]
      rw [e] at h
      have h' : some x = some n := h
      cases Option.some.inj h'
      exact bleFalse hb
    | true =>
      have e : runLen j (x :: l) = runLen j l + 1 := by simp only [runLen, hb] <;> rfl
      rw [e] at h
      exact runLenStop j l n h

/-- Without crossings, every node after the run below position `j` that `spliceAt` replaces has its
parent before `j` or after the run: `spliceAt`'s shift moves only parents after the replaced subtree. -/
theorem afterRunParent {t : Tree} (hc : NoCross t) (j : Nat) :
    ∀ c nc, nodeAt t c = some nc → j + runLen j (dropN j t) + 1 ≤ c →
      nc.parent < j ∨ j + runLen j (dropN j t) + 1 ≤ nc.parent := by
  intro c nc hcn hle
  have ⟨i, ec, _, hi⟩ := nodeAtPos hcn
  subst ec
  have hle' : j + runLen j (dropN j t) ≤ i := Nat.leOfSuccLeSucc hle
  have ⟨x, hx⟩ := nthExists t _ i nc hi hle'
  have hx' : nthNode (dropN j t) (runLen j (dropN j t)) = some x := by rw [nthDrop]; exact hx
  have hxp := runLenStop j _ x hx'
  cases Nat.eqOrLtOfLe hle' with
  | inl e =>
    rw [e, hi] at hx
    cases Option.some.inj hx
    exact Or.inl hxp
  | inr hlt =>
    have hxn : nodeAt t (j + runLen j (dropN j t) + 1) = some x := hx
    have r := hc (j + runLen j (dropN j t) + 1) (i + 1) x nc hxn hi (Nat.succLeSucc hlt)
    cases r with
    | inl h1 => exact Or.inl (Nat.ltOfLeOfLt h1 hxp)
    | inr h2 => exact Or.inr h2

-- no crossings is preorder ------------------------------------------------------------------------------

/-- Position `c` is `q` or lies below it (following parent links, whatever the choices select). -/
inductive Desc (t : Tree) (q : Nat) : Nat → Prop
  | self : Desc t q q
  | step {c : Nat} {n : TNode} : nodeAt t c = some n → Desc t q n.parent → Desc t q c

/-- A node strictly between a node `w` below `q` and a child `z` of `w` lies below `q` too. -/
theorem descBetween {t : Tree} (hpb : ParentsBefore t) (hnc : NoCross t) {q w z : Nat} {nz : TNode}
    (hz : nodeAt t z = some nz) (hw : nz.parent = w) (hdw : Desc t q w) :
    ∀ (m y : Nat) (ny : TNode), y ≤ m → nodeAt t y = some ny → w < y → y < z → Desc t q y
  | 0, y, _, hym, _, hwy, _ => absurd (Nat.leTrans hwy hym) (Nat.notSuccLeZero w)
  | m + 1, y, ny, hym, hy, hwy, hyz => by
    have r := hnc y z ny nz hy hz hyz
    rw [hw] at r
    cases r with
    | inr h => exact absurd (Nat.ltOfLtOfLe hwy h) (Nat.ltIrrefl w)
    | inl h =>
      cases Nat.eqOrLtOfLe h with
      | inl e => exact Desc.step hy (by rw [← e]; exact hdw)
      | inr hlt =>
        have hp := hpb y ny hy
        have ⟨i, ey, _, hi⟩ := nodeAtPos hy
        subst ey
        cases hpar : ny.parent with
        | zero => rw [hpar] at hlt; exact absurd hlt (Nat.notLtZero w)
        | succ p =>
          rw [hpar] at hp hlt
          have ⟨x, hx⟩ := nthExists t p i ny hi (Nat.leOfSuccLe (Nat.leOfSuccLeSucc hp))
          have hpm : p + 1 ≤ m := Nat.leTrans (Nat.leOfSuccLeSucc hp) (Nat.leOfSuccLeSucc hym)
          have r := descBetween hpb hnc hz hw hdw m (p + 1) x hpm hx hlt (Nat.ltTrans hp hyz)
          exact Desc.step hi (by rw [hpar]; exact r)

/-- Without crossings, and with parents before children, the flat tree is in preorder: every node
strictly between a node `q` and one of its descendants is itself a descendant of `q` (a node's
descendants follow it contiguously). -/
theorem noCrossContiguous {t : Tree} (hpb : ParentsBefore t) (hnc : NoCross t) (q : Nat) :
    ∀ z, Desc t q z → ∀ y ny, nodeAt t y = some ny → q < y → y < z → Desc t q y := by
  intro z hd
  induction hd with
  | self => intro y _ _ hqy hyz; exact absurd (Nat.ltTrans hqy hyz) (Nat.ltIrrefl q)
  | step hz hdw ih =>
    intro y ny hy hqy hyz
    cases Nat.ltOrGe y _ with
    | inl hlt => exact ih y ny hy hqy hlt
    | inr hge =>
      cases Nat.eqOrLtOfLe hge with
      | inl e => rw [← e]; exact hdw
      | inr hlt => exact descBetween hpb hnc hz rfl hdw y y ny (Nat.leRefl y) hy hlt hyz

end AgentWarrant.Edits.Machine
