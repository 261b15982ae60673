import AgentWarrant.Thm.Edits.DeriveTreeKeep
/-! The preorder invariant of the flat branch tree (*When Can Agents Safely Checkpoint, Fork, Restore, and
Merge?*, Section V-A and Table I): a node's descendants follow it contiguously.
- `NoCross t`: parent links do not cross — for positions `b < c`, `c`'s parent is not strictly between
  `b`'s parent and `b`. With parents before children it gives preorder: every node strictly between a
  node `q` and a descendant of `q` descends from `q` (`noCrossContiguous`, descent `Desc` by parent links);
- what it buys the splice: every node after the run that `spliceAt` replaces (the nodes after position
  `j` whose parent is `j` or later, `runLen`) has its parent before `j` or after the run
  (`afterRunParent`), so `spliceAt`'s shift re-parents exactly the nodes whose parent lies after the
  replaced subtree, and none onto a replaced node;
- it is kept: by `HStep` (`hstepNoCross`: only progress and selections move), by the splice when the new
  nodes' own links do not cross and each hangs from the replaced node's parent or a new node
  (`spliceNoCross`), hence by every row of `applyEdit` on a tree with parents before children
  (`applyEditNoCross`: Fork and both Restores a node over fresh children, `forkNoCross`,
  `restoreNoCross`; a Merge's sequence over the kept subtree, moved by `moveTo`'s uniform shift, and
  `b_J`, `selectNoCross`, `joinNoCross`, `movedNC`), and so by every runtime and ideal run from a root
  whose tree has both invariants (`replayNoCross`, `replayIdealNoCross`, `ReachedPre`,
  `reachedPreNoCross`).

Choices: the invariant is stated arithmetically on positions (no ancestor relation), like
`ParentsBefore`, so that its preservation is arithmetic on the flat list: the splice is taken pair by
pair over its three pieces (kept prefix, new nodes, shifted suffix, `spliceRegions`). The root tree is
`Derive`'s input, so its `NoCross` is a hypothesis beside its parents before children. The new leaves'
currency with a sequence above the edited node, which carries an earlier sequence part's completeness
across the splice with this invariant as the premise, is in `Thm/Edits/DeriveTreeSeq2.lean`. -/
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

-- the splice keeps the links uncrossed ------------------------------------------------------------------

theorem addSubR (a : Nat) : ∀ b : Nat, a + b - b = a
  | 0 => rfl
  | b + 1 => by
    show Nat.succ (a + b) - Nat.succ b = a
    rw [Nat.succ_sub_succ]
    exact addSubR a b

theorem leCancelL : ∀ (k a b : Nat), k + a ≤ k + b → a ≤ b
  | 0, a, b, h => by rw [Nat.zero_add, Nat.zero_add] at h; exact h
  | k + 1, a, b, h => by
    rw [Nat.succ_add, Nat.succ_add] at h
    exact leCancelL k a b (Nat.leOfSuccLeSucc h)

theorem nthApp : ∀ (a b : Tree) (x : Nat) (y : TNode), nthNode (a ++ b) x = some y →
    (x < List.length a ∧ nthNode a x = some y) ∨ (∃ m, x = List.length a + m ∧ nthNode b m = some y)
  | [], b, x, y, h => by
    rw [List.nil_append] at h
    exact Or.inr ⟨x, (Nat.zero_add x).symm, h⟩
  | a0 :: a, b, 0, y, h => by
    rw [List.cons_append] at h
    refine Or.inl ⟨?_, h⟩
    rw [List.length_cons]
    exact Nat.succLeSucc (Nat.zeroLe _)
  | a0 :: a, b, x + 1, y, h => by
    rw [List.cons_append] at h
    cases nthApp a b x y h with
    | inl p => exact Or.inl ⟨by rw [List.length_cons]; exact Nat.succLeSucc p.1, p.2⟩
    | inr p =>
      have ⟨m, e, hm⟩ := p
      refine Or.inr ⟨m, ?_, hm⟩
      rw [e, List.length_cons, Nat.succ_add]
      rfl

theorem nthMap (f : TNode → TNode) : ∀ (l : Tree) (m : Nat) (y : TNode), nthNode (l.map f) m = some y →
    ∃ z, nthNode l m = some z ∧ y = f z
  | [], _, _, h => Option.noConfusion h
  | x :: l, 0, y, h => by
    have h' : some (f x) = some y := h
    exact ⟨x, rfl, (Option.some.inj h').symm⟩
  | x :: l, m + 1, y, h => nthMap f l m y h

/-- Where a node of `𝓔[new]` at `i + 1` comes from: the kept prefix, the new nodes, or the suffix after
the replaced run, whose parent `spliceAt` keeps (before the run's root) or shifts. -/
theorem spliceRegions (t : Tree) (i k : Nat) (new : Tree) (hi : i ≤ List.length t)
    (hk : runLen (i + 1) (dropN (i + 1) t) = k) (x : Nat) (y : TNode)
    (h : nthNode (spliceAt t (i + 1) new) x = some y) :
    (x < i ∧ nthNode t x = some y) ∨ (∃ m, x = i + m ∧ nthNode new m = some y) ∨
    (∃ m z, x = i + List.length new + m ∧ nthNode t (i + 1 + k + m) = some z ∧
      ((z.parent < i + 1 ∧ y.parent = z.parent) ∨
       (i + 1 ≤ z.parent ∧ y.parent = z.parent + List.length new - (k + 1)))) := by
  have hl := takeNLen i t hi
  have e1 : takeN (i + 1 - 1) t = takeN i t := rfl
  cases nthApp _ _ x y h with
  | inl p =>
    rw [e1] at p
    cases nthApp _ _ x y p.2 with
    | inl q =>
      rw [hl] at q
      exact Or.inl ⟨q.1, by rw [← nthTakeN i x t q.1]; exact q.2⟩
    | inr q =>
      have ⟨m, e, hm⟩ := q
      rw [hl] at e
      exact Or.inr (Or.inl ⟨m, e, hm⟩)
  | inr p =>
    rw [e1] at p
    have ⟨m, e, hm⟩ := p
    rw [lengthApp, hl] at e
    have ⟨z, hz, ey⟩ := nthMap _ _ m y hm
    rw [nthDrop, nthDrop, ← Nat.add_assoc, hk] at hz
    refine Or.inr (Or.inr ⟨m, z, e, hz, ?_⟩)
    subst ey
    cases hb : Nat.ble (i + 1) z.parent with
    | false => exact Or.inl ⟨bleFalse hb, by rw [hk]⟩
    | true => exact Or.inr ⟨hb, by rw [hk]⟩

theorem shiftEq (i k L d : Nat) : i + 1 + k + 1 + d + L - (k + 1) = i + 1 + L + d := by
  have e : i + 1 + k + 1 + d + L = i + 1 + L + d + (k + 1) := by
    simp only [Nat.add_comm, Nat.add_left_comm, Nat.add_assoc] <;> rfl
  rw [e, addSubR]

theorem le4 (i a b c : Nat) : i ≤ i + a + b + c :=
  Nat.leTrans (Nat.leAddRight i a) (Nat.leTrans (Nat.leAddRight (i + a) b) (Nat.leAddRight (i + a + b) c))

/-- A suffix node after the replaced run keeps a parent before the run's root, or has one after the run,
shifted onto the same node's new position. -/
theorem suffixParent {t : Tree} (hnc : NoCross t) (i k L m : Nat) (hk : runLen (i + 1) (dropN (i + 1) t) = k)
    (z y : TNode) (hz : nthNode t (i + 1 + k + m) = some z)
    (hp : (z.parent < i + 1 ∧ y.parent = z.parent) ∨ (i + 1 ≤ z.parent ∧ y.parent = z.parent + L - (k + 1))) :
    (z.parent < i + 1 ∧ y.parent = z.parent) ∨
      ∃ d, z.parent = i + 1 + k + 1 + d ∧ y.parent = i + 1 + L + d := by
  cases hp with
  | inl h => exact Or.inl h
  | inr h =>
    have hz' : nodeAt t (i + 1 + k + m + 1) = some z := hz
    have hle : i + 1 + runLen (i + 1) (dropN (i + 1) t) + 1 ≤ i + 1 + k + m + 1 := by
      rw [hk]; exact Nat.succLeSucc (Nat.leAddRight _ m)
    cases afterRunParent hnc (i + 1) _ z hz' hle with
    | inl h2 => exact absurd (Nat.ltOfLtOfLe h2 h.1) (Nat.ltIrrefl _)
    | inr h2 =>
      rw [hk] at h2
      have ⟨d, e⟩ := Nat.le.dest h2
      refine Or.inr ⟨d, e.symm, ?_⟩
      rw [h.2, ← e, shiftEq]

/-- `𝓔[new]` at position `i + 1` keeps the links uncrossed when the new nodes' own links do not cross,
and each new node hangs from the replaced node's parent or from a new node. -/
theorem spliceNoCross (t : Tree) (i : Nat) (new : Tree) (n : TNode) (hpb : ParentsBefore t) (hnc : NoCross t)
    (hj : nodeAt t (i + 1) = some n)
    (hN1 : ∀ m1 m2 x1 x2, nthNode new m1 = some x1 → nthNode new m2 = some x2 → m1 < m2 →
      x2.parent ≤ x1.parent ∨ i + m1 + 1 ≤ x2.parent)
    (hN2 : ∀ m x, nthNode new m = some x → x.parent = n.parent ∨ i + 1 ≤ x.parent) :
    NoCross (spliceAt t (i + 1) new) := by
  have hi := nodeAtLe hj
  have hp0 : n.parent ≤ i := Nat.leOfSuccLeSucc (hpb _ _ hj)
  have hT : ∀ x1 x2 y1 y2, nthNode t x1 = some y1 → nthNode t x2 = some y2 → x1 < x2 →
      y2.parent ≤ y1.parent ∨ x1 + 1 ≤ y2.parent :=
    fun x1 x2 y1 y2 h1 h2 hl => by
      have h1' : nodeAt t (x1 + 1) = some y1 := h1
      have h2' : nodeAt t (x2 + 1) = some y2 := h2
      exact hnc (x1 + 1) (x2 + 1) y1 y2 h1' h2' (Nat.succLeSucc hl)
  have hjn : nthNode t i = some n := hj
  generalize hk : runLen (i + 1) (dropN (i + 1) t) = k
  intro b c nb nc hb hc hlt
  have ⟨b0, eb, _, hb0⟩ := nodeAtPos hb
  have ⟨c0, ec, _, hc0⟩ := nodeAtPos hc
  subst eb
  subst ec
  have hlt0 : b0 < c0 := Nat.leOfSuccLeSucc hlt
  show nc.parent ≤ nb.parent ∨ b0 + 1 ≤ nc.parent
  cases spliceRegions t i k new hi hk c0 nc hc0 with
  | inl rc =>
    have ⟨hc1, hct⟩ := rc
    cases spliceRegions t i k new hi hk b0 nb hb0 with
    | inl rb => exact hT b0 c0 nb nc rb.2 hct hlt0
    | inr rb => cases rb with
      | inl rb =>
        have ⟨m1, e1, _⟩ := rb
        rw [e1] at hlt0
        exact absurd (Nat.ltOfLeOfLt (Nat.leAddRight i m1) (Nat.ltTrans hlt0 hc1)) (Nat.ltIrrefl i)
      | inr rb =>
        have ⟨m1, _, e1, _, _⟩ := rb
        rw [e1] at hlt0
        exact absurd (Nat.ltOfLeOfLt (le4 i (List.length new) m1 0) (Nat.ltTrans hlt0 hc1)) (Nat.ltIrrefl i)
  | inr rc => cases rc with
    | inl rc =>
      have ⟨m2, e2, hm2⟩ := rc
      have hm2L := nthSome new m2 nc hm2
      cases spliceRegions t i k new hi hk b0 nb hb0 with
      | inl rb =>
        have ⟨hb1, hbt⟩ := rb
        cases hN2 m2 nc hm2 with
        | inl e => rw [e]; exact hT b0 i nb n hbt hjn hb1
        | inr h => exact Or.inr (Nat.leTrans (Nat.leTrans hb1 (Nat.leSucc i)) h)
      | inr rb => cases rb with
        | inl rb =>
          have ⟨m1, e1, hm1⟩ := rb
          rw [e1, e2] at hlt0
          rw [e1]
          exact hN1 m1 m2 nb nc hm1 hm2 (leCancelL i (m1 + 1) m2 hlt0)
        | inr rb =>
          have ⟨m1, _, e1, _, _⟩ := rb
          rw [e1, e2] at hlt0
          have h1 : i + List.length new + m1 < i + List.length new :=
            Nat.ltTrans hlt0 (Nat.addLtAddLeft hm2L i)
          exact absurd (Nat.ltOfLeOfLt (Nat.leAddRight _ m1) h1) (Nat.ltIrrefl _)
    | inr rc =>
      have ⟨m2, z, e2, hz, hpz⟩ := rc
      have hsp := suffixParent hnc i k (List.length new) m2 hk z nc hz hpz
      have hzpos : i < i + 1 + k + m2 := Nat.ltOfLtOfLe (Nat.ltSuccSelf i) (le4 (i + 1) k m2 0)
      cases spliceRegions t i k new hi hk b0 nb hb0 with
      | inl rb =>
        have ⟨hb1, hbt⟩ := rb
        cases hsp with
        | inl h => rw [h.2]; exact hT b0 _ nb z hbt hz (Nat.ltTrans hb1 hzpos)
        | inr h =>
          have ⟨d, _, e⟩ := h
          rw [e]
          exact Or.inr (Nat.leTrans (Nat.leTrans hb1 (Nat.leSucc i)) (le4 (i + 1) _ d 0))
      | inr rb => cases rb with
        | inl rb =>
          have ⟨m1, e1, hm1⟩ := rb
          have hm1L := nthSome new m1 nb hm1
          rw [e1]
          cases hsp with
          | inl h =>
            rw [h.2]
            cases hT i _ n z hjn hz hzpos with
            | inr h2 => exact absurd (Nat.ltOfLeOfLt h2 h.1) (Nat.ltIrrefl _)
            | inl h2 =>
              refine Or.inl (Nat.leTrans h2 ?_)
              cases hN2 m1 nb hm1 with
              | inl e => rw [e]; exact Nat.leRefl _
              | inr e => exact Nat.leTrans hp0 (Nat.leTrans (Nat.leSucc i) e)
          | inr h =>
            have ⟨d, _, e⟩ := h
            rw [e]
            refine Or.inr (Nat.leTrans (Nat.addLeAddLeft hm1L i) ?_)
            have e3 : i + 1 + List.length new + d = i + List.length new + (1 + d) := by
              simp only [Nat.add_comm, Nat.add_left_comm, Nat.add_assoc] <;> rfl
            rw [e3]
            exact Nat.leAddRight _ _
        | inr rb =>
          have ⟨m1, zb, e1, hzb, hpb'⟩ := rb
          have hsb := suffixParent hnc i k (List.length new) m1 hk zb nb hzb hpb'
          rw [e1, e2] at hlt0
          have hm12 : m1 < m2 := leCancelL (i + List.length new) (m1 + 1) m2 hlt0
          have ho := hT _ _ zb z hzb hz (Nat.addLtAddLeft hm12 (i + 1 + k))
          rw [e1]
          have hlo : i + 1 ≤ i + 1 + k + m1 + 1 := le4 (i + 1) k m1 1
          -- the original's second case puts `z`'s parent after the run
          have hcase2 : ∀ dc, z.parent = i + 1 + k + 1 + dc → i + 1 + k + m1 + 1 ≤ z.parent →
              i + List.length new + m1 + 1 ≤ i + 1 + List.length new + dc := by
            intro dc hzd hle
            rw [hzd, Nat.add_assoc (i + 1 + k) 1 dc] at hle
            have hm : m1 + 1 ≤ 1 + dc := leCancelL (i + 1 + k) (m1 + 1) (1 + dc) hle
            rw [Nat.add_comm 1 dc] at hm
            have e3 : i + 1 + List.length new + dc = i + List.length new + (dc + 1) := by
              simp only [Nat.add_comm, Nat.add_left_comm, Nat.add_assoc] <;> rfl
            rw [e3]
            exact Nat.addLeAddLeft hm _
          cases hsp with
          | inl hc' =>
            rw [hc'.2]
            cases hsb with
            | inl hb' =>
              rw [hb'.2]
              cases ho with
              | inl h => exact Or.inl h
              | inr h => exact absurd (Nat.ltOfLeOfLt (Nat.leTrans hlo h) hc'.1) (Nat.ltIrrefl _)
            | inr hb' =>
              have ⟨db, _, eb'⟩ := hb'
              rw [eb']
              exact Or.inl (Nat.leTrans (Nat.leOfLtSucc hc'.1) (le4 i 1 _ db))
          | inr hc' =>
            have ⟨dc, hzd, ec'⟩ := hc'
            rw [ec']
            cases hsb with
            | inl hb' =>
              cases ho with
              | inl h =>
                have h3 : i + 1 ≤ z.parent := by rw [hzd]; exact le4 (i + 1) k 1 dc
                exact absurd (Nat.ltOfLeOfLt (Nat.leTrans h3 h) hb'.1) (Nat.ltIrrefl _)
              | inr h => exact Or.inr (hcase2 dc hzd h)
            | inr hb' =>
              have ⟨db, hzbd, eb'⟩ := hb'
              rw [eb']
              cases ho with
              | inl h =>
                rw [hzd, hzbd] at h
                exact Or.inl (Nat.addLeAddLeft (leCancelL (i + 1 + k + 1) dc db h) _)
              | inr h => exact Or.inr (hcase2 dc hzd h)

-- the rows whose new nodes are a node and its children --------------------------------------------------

theorem headRestN (i p0 : Nat) (a : TNode) (rest : Tree) (ha : a.parent = p0)
    (hr : ∀ m x, nthNode rest m = some x → x.parent = i + 1) :
    (∀ m1 m2 x1 x2, nthNode (a :: rest) m1 = some x1 → nthNode (a :: rest) m2 = some x2 → m1 < m2 →
      x2.parent ≤ x1.parent ∨ i + m1 + 1 ≤ x2.parent) ∧
    (∀ m x, nthNode (a :: rest) m = some x → x.parent = p0 ∨ i + 1 ≤ x.parent) := by
  refine ⟨?_, ?_⟩
  · intro m1 m2 x1 x2 h1 h2 hl
    cases m2 with
    | zero => exact absurd hl (Nat.notLtZero _)
    | succ m2 =>
      have h2' : nthNode rest m2 = some x2 := h2
      have e2 := hr m2 x2 h2'
      cases m1 with
      | zero => exact Or.inr (by rw [e2]; exact Nat.leRefl _)
      | succ m1 =>
        have h1' : nthNode rest m1 = some x1 := h1
        have e1 := hr m1 x1 h1'
        exact Or.inl (by rw [e1, e2]; exact Nat.leRefl _)
  · intro m x h
    cases m with
    | zero =>
      have h' : some a = some x := h
      cases Option.some.inj h'
      exact Or.inl ha
    | succ m =>
      have h' : nthNode rest m = some x := h
      exact Or.inr (by rw [hr m x h']; exact Nat.leRefl _)

theorem nilPar (q : Nat) : ∀ m x, nthNode ([] : Tree) m = some x → x.parent = q :=
  fun _ _ h => Option.noConfusion h

theorem twoPar (x y : TNode) (q : Nat) (hx : x.parent = q) (hy : y.parent = q) :
    ∀ m z, nthNode [x, y] m = some z → z.parent = q
  | 0, z, h => by
    have h' : some x = some z := h
    cases Option.some.inj h'
    exact hx
  | 1, z, h => by
    have h' : some y = some z := h
    cases Option.some.inj h'
    exact hy
  | m + 2, z, h => by
    have h' : nthNode ([] : Tree) m = some z := h
    exact Option.noConfusion h'

/-- A Fork keeps the links uncrossed. -/
theorem forkNoCross {t t' : Tree} {par : Bool} {b g bl br : Nat} {gl gr : List Pomset}
    (h : applyEdit t (TEdit.fork par b g bl br gl gr) = some t') (hpb : ParentsBefore t) (hnc : NoCross t) :
    NoCross t' := by
  have h := (rowOf h).2
  cases hc : currentLeafAt t b with
  | none => simp only [rowTree, hc] at h
  | some p => cases p with
    | mk j n =>
      have ⟨_, _, hj⟩ := currentLeafAtSome hc
      have ⟨i, ei, _, _⟩ := nodeAtPos hj
      subst ei
      simp only [rowTree, hc] at h
      have e := applied h
      subst e
      refine spliceNoCross t i _ n hpb hnc hj ?_ ?_
      · refine (headRestN i n.parent _ _ ?_ (twoPar _ _ (i + 1) ?_ ?_)).1 <;> rfl
      · refine (headRestN i n.parent _ _ ?_ (twoPar _ _ (i + 1) ?_ ?_)).2 <;> rfl

/-- A Restore (replacing the branch, or live) keeps the links uncrossed. -/
theorem restoreNoCross {t t' : Tree} {live : Bool} {b g bk : Nat} {gk : List Pomset}
    (h : applyEdit t (TEdit.restore live b g bk gk) = some t') (hpb : ParentsBefore t) (hnc : NoCross t) :
    NoCross t' := by
  have h := (rowOf h).2
  cases hc : currentLeafAt t b with
  | none => simp only [rowTree, hc] at h
  | some p => cases p with
    | mk j n =>
      have ⟨_, _, hj⟩ := currentLeafAtSome hc
      have ⟨i, ei, _, _⟩ := nodeAtPos hj
      subst ei
      cases live with
      | false =>
        simp only [rowTree, hc] at h
        have e := applied h
        subst e
        refine spliceNoCross t i _ n hpb hnc hj ?_ ?_
        · refine (headRestN i n.parent _ _ ?_ (nilPar (i + 1))).1; rfl
        · refine (headRestN i n.parent _ _ ?_ (nilPar (i + 1))).2; rfl
      | true =>
        simp only [rowTree, hc] at h
        have e := applied h
        subst e
        refine spliceNoCross t i _ n hpb hnc hj ?_ ?_
        · refine (headRestN i n.parent _ _ ?_ (twoPar _ _ (i + 1) ?_ ?_)).1 <;> rfl
        · refine (headRestN i n.parent _ _ ?_ (twoPar _ _ (i + 1) ?_ ?_)).2 <;> rfl

-- the Merge rows: a sequence over a moved subtree and a fresh leaf ----------------------------------------

theorem runMem (a : Nat) : ∀ (l : Tree) (m : Nat) (x : TNode), nthNode (takeN (runLen a l) l) m = some x →
    a ≤ x.parent ∧ nthNode l m = some x
  | [], m, x, h => by
    have h' : nthNode ([] : Tree) m = some x := h
    exact Option.noConfusion h'
  | y :: l, m, x, h => by
    cases hb : Nat.ble a y.parent with
    | false =>
      have e : runLen a (y :: l) = 0 := by simp only [runLen, hb]
      rw [e] at h
      have h' : nthNode ([] : Tree) m = some x := h
      exact Option.noConfusion h'
    | true =>
      have e : runLen a (y :: l) = runLen a l + 1 := by simp only [runLen, hb] <;> rfl
      rw [e] at h
      cases m with
      | zero =>
        have h' : some y = some x := h
        cases Option.some.inj h'
        exact ⟨hb, rfl⟩
      | succ m =>
        have h' : nthNode (takeN (runLen a l) l) m = some x := h
        have r := runMem a l m x h'
        exact ⟨r.1, r.2⟩

/-- A node of the subtree below `a` moved by `moveTo a q`: from position `a + m + 1`, with its parent
`a + d` moved to `q + d`. -/
theorem movedNode (t : Tree) (a q m : Nat) (y : TNode) (h : nthNode (moveTo a q (below t a)) m = some y) :
    ∃ x d, nthNode t (a + m) = some x ∧ x.parent = a + d ∧ y.parent = q + d := by
  have h' : nthNode ((below t a).map (fun n => { n with parent := n.parent + q - a })) m = some y := h
  have ⟨x, hx, ey⟩ := nthMap _ _ m y h'
  have hx' : nthNode (takeN (runLen a (dropN a t)) (dropN a t)) m = some x := hx
  have ⟨hle, hd⟩ := runMem a _ m x hx'
  rw [nthDrop] at hd
  have ⟨d, e⟩ := Nat.le.dest hle
  refine ⟨x, d, hd, e.symm, ?_⟩
  rw [ey]
  show x.parent + q - a = q + d
  rw [← e]
  have e2 : a + d + q = q + d + a := by simp only [Nat.add_comm, Nat.add_left_comm, Nat.add_assoc] <;> rfl
  rw [e2, addSubR]

/-- The moved subtree's links stay uncrossed. -/
theorem movedNC (t : Tree) (hnc : NoCross t) (a q : Nat) :
    ∀ m1 m2 y1 y2, nthNode (moveTo a q (below t a)) m1 = some y1 → nthNode (moveTo a q (below t a)) m2 = some y2 →
      m1 < m2 → y2.parent ≤ y1.parent ∨ q + m1 + 1 ≤ y2.parent := by
  intro m1 m2 y1 y2 h1 h2 hl
  have ⟨x1, d1, hx1, e1, f1⟩ := movedNode t a q m1 y1 h1
  have ⟨x2, d2, hx2, e2, f2⟩ := movedNode t a q m2 y2 h2
  have hx1' : nodeAt t (a + m1 + 1) = some x1 := hx1
  have hx2' : nodeAt t (a + m2 + 1) = some x2 := hx2
  rw [f1, f2]
  cases hnc _ _ x1 x2 hx1' hx2' (Nat.succLeSucc (Nat.addLtAddLeft hl a)) with
  | inl h =>
    rw [e1, e2] at h
    exact Or.inl (Nat.addLeAddLeft (leCancelL a d2 d1 h) q)
  | inr h =>
    rw [e2] at h
    exact Or.inr (Nat.addLeAddLeft (leCancelL a (m1 + 1) d2 h) q)

theorem nthOne (L x : TNode) : ∀ m, nthNode [L] m = some x → m = 0 ∧ x = L
  | 0, h => by
    have h' : some L = some x := h
    exact ⟨rfl, (Option.some.inj h').symm⟩
  | m + 1, h => by
    have h' : nthNode ([] : Tree) m = some x := h
    exact Option.noConfusion h'

/-- Where a node of a Merge's new nodes `S :: R :: M ++ [L]` sits. -/
theorem seqClass (S R L : TNode) (M : Tree) (m : Nat) (x : TNode) (h : nthNode (S :: R :: M ++ [L]) m = some x) :
    (m = 0 ∧ x = S) ∨ (m = 1 ∧ x = R) ∨ (∃ k, m = k + 2 ∧ nthNode M k = some x) ∨
      (m = List.length M + 2 ∧ x = L) := by
  cases nthApp _ _ m x h with
  | inl p =>
    have h2 := p.2
    cases m with
    | zero =>
      have h' : some S = some x := h2
      exact Or.inl ⟨rfl, (Option.some.inj h').symm⟩
    | succ m => cases m with
      | zero =>
        have h' : some R = some x := h2
        exact Or.inr (Or.inl ⟨rfl, (Option.some.inj h').symm⟩)
      | succ k =>
        have h' : nthNode M k = some x := h2
        exact Or.inr (Or.inr (Or.inl ⟨k, rfl, h'⟩))
  | inr p =>
    have ⟨m', e, hm⟩ := p
    have ⟨e0, ex⟩ := nthOne L x m' hm
    rw [e0, List.length_cons, List.length_cons] at e
    exact Or.inr (Or.inr (Or.inr ⟨e, ex⟩))

/-- A Merge's new nodes (the sequence `S` with the replaced node's parent, the kept root `R` and the fresh
leaf `L` under it, the moved subtree `M` below `R`) satisfy `spliceNoCross`'s conditions. -/
theorem seqListN (i p0 : Nat) (S R L : TNode) (M : Tree) (hS : S.parent = p0) (hR : R.parent = i + 1)
    (hL : L.parent = i + 1)
    (hM1 : ∀ m y, nthNode M m = some y → ∃ d, y.parent = i + 1 + 1 + d)
    (hM2 : ∀ m1 m2 y1 y2, nthNode M m1 = some y1 → nthNode M m2 = some y2 → m1 < m2 →
      y2.parent ≤ y1.parent ∨ i + 1 + 1 + m1 + 1 ≤ y2.parent) :
    (∀ m1 m2 x1 x2, nthNode (S :: R :: M ++ [L]) m1 = some x1 → nthNode (S :: R :: M ++ [L]) m2 = some x2 →
      m1 < m2 → x2.parent ≤ x1.parent ∨ i + m1 + 1 ≤ x2.parent) ∧
    (∀ m x, nthNode (S :: R :: M ++ [L]) m = some x → x.parent = p0 ∨ i + 1 ≤ x.parent) := by
  have geM : ∀ m y, nthNode M m = some y → i + 1 + 1 ≤ y.parent := fun m y h => by
    have ⟨d, e⟩ := hM1 m y h
    rw [e]; exact Nat.leAddRight _ d
  -- every node after the first hangs at `i + 1` or below
  have late : ∀ m x, nthNode (S :: R :: M ++ [L]) m = some x → 0 < m → i + 1 ≤ x.parent := by
    intro m x h hm
    cases seqClass S R L M m x h with
    | inl c => rw [c.1] at hm; exact absurd hm (Nat.ltIrrefl 0)
    | inr c => cases c with
      | inl c => rw [c.2, hR]; exact Nat.leRefl _
      | inr c => cases c with
        | inl c => have ⟨k, _, hk⟩ := c; exact Nat.leTrans (Nat.leSucc _) (geM k x hk)
        | inr c => rw [c.2, hL]; exact Nat.leRefl _
  refine ⟨?_, ?_⟩
  · intro m1 m2 x1 x2 h1 h2 hl
    cases seqClass S R L M m1 x1 h1 with
    | inl c =>
      rw [c.1]
      rw [c.1] at hl
      exact Or.inr (late m2 x2 h2 hl)
    | inr c => cases c with
      | inl c =>
        have ⟨e1, ex1⟩ := c
        rw [e1] at hl
        cases seqClass S R L M m2 x2 h2 with
        | inl d => rw [d.1] at hl; exact absurd hl (Nat.notLtZero _)
        | inr d => cases d with
          | inl d => rw [d.1] at hl; exact absurd hl (Nat.ltIrrefl 1)
          | inr d => cases d with
            | inl d =>
              have ⟨k, _, hk⟩ := d
              rw [e1]
              exact Or.inr (Nat.leTrans (Nat.leRefl _) (geM k x2 hk))
            | inr d => rw [d.2, ex1, hL, hR]; exact Or.inl (Nat.leRefl _)
      | inr c => cases c with
        | inl c =>
          have ⟨k1, e1, hk1⟩ := c
          have hk1L := nthSome M k1 x1 hk1
          rw [e1] at hl
          cases seqClass S R L M m2 x2 h2 with
          | inl d => rw [d.1] at hl; exact absurd hl (Nat.notLtZero _)
          | inr d => cases d with
            | inl d =>
              rw [d.1] at hl
              exact absurd (Nat.leOfSuccLeSucc hl) (Nat.notSuccLeZero _)
            | inr d => cases d with
              | inl d =>
                have ⟨k2, e2, hk2⟩ := d
                rw [e2] at hl
                have hk : k1 < k2 := Nat.leOfSuccLeSucc (Nat.leOfSuccLeSucc hl)
                rw [e1]
                have e3 : i + (k1 + 2) + 1 = i + 1 + 1 + k1 + 1 := by
                  simp only [Nat.add_comm, Nat.add_left_comm, Nat.add_assoc] <;> rfl
                rw [e3]
                exact hM2 k1 k2 x1 x2 hk1 hk2 hk
              | inr d =>
                rw [d.2, hL]
                exact Or.inl (Nat.leTrans (Nat.leSucc _) (geM k1 x1 hk1))
        | inr c =>
          have ⟨e1, _⟩ := c
          rw [e1] at hl
          cases seqClass S R L M m2 x2 h2 with
          | inl d => rw [d.1] at hl; exact absurd hl (Nat.notLtZero _)
          | inr d => cases d with
            | inl d =>
              rw [d.1] at hl
              exact absurd (Nat.leOfSuccLeSucc hl) (Nat.notSuccLeZero _)
            | inr d => cases d with
              | inl d =>
                have ⟨k2, e2, hk2⟩ := d
                have hk2L := nthSome M k2 x2 hk2
                rw [e2] at hl
                exact absurd (Nat.ltTrans hl (Nat.addLtAddRight hk2L 2)) (Nat.ltIrrefl _)
              | inr d => rw [d.1] at hl; exact absurd hl (Nat.ltIrrefl _)
  · intro m x h
    cases m with
    | zero =>
      cases seqClass S R L M 0 x h with
      | inl c => rw [c.2]; exact Or.inl hS
      | inr c => exact Or.inr (late 0 x h (by cases c with
        | inl c => exact absurd c.1 (fun e => Nat.noConfusion e)
        | inr c => cases c with
          | inl c => have ⟨k, e, _⟩ := c; exact absurd e (fun e => Nat.noConfusion e)
          | inr c => exact absurd c.1 (fun e => Nat.noConfusion e)))
    | succ m => exact Or.inr (late (m + 1) x h (Nat.succLeSucc (Nat.zeroLe m)))

theorem movedP (t : Tree) (a q : Nat) :
    ∀ m y, nthNode (moveTo a q (below t a)) m = some y → ∃ d, y.parent = q + d := fun m y h => by
  have ⟨_, d, _, _, f⟩ := movedNode t a q m y h
  exact ⟨d, f⟩

/-- A MergeSelect keeps the links uncrossed. -/
theorem selectNoCross {t t' : Tree} {g arm bj : Nat} {gj : List Pomset}
    (h : applyEdit t (TEdit.select g arm bj gj) = some t') (hpb : ParentsBefore t) (hnc : NoCross t) :
    NoCross t' := by
  have ⟨j, n, a, hc, hk, hs, ha⟩ := selectCurrent h
  have ⟨_, _, hj⟩ := currentGroupAtSome hc
  have ⟨i, ei, _, _⟩ := nodeAtPos hj
  subst ei
  have hk' : Nat.beq n.kind 1 = true := by rw [hk]; rfl
  have hb : (Nat.beq n.kind 1 && selOk n arm) = true := by rw [hk', hs]; rfl
  have h := (rowOf h).2
  cases hcn : nodeAt t a with
  | none => simp only [rowTree, hc, hb, ha, hcn] at h
  | some c =>
    simp only [rowTree, hc, hb, ha, hcn] at h
    have e := applied h
    subst e
    refine spliceNoCross t i _ n hpb hnc hj ?_ ?_
    · refine (seqListN i n.parent _ _ _ _ ?_ ?_ ?_ ?_ ?_).1
      · rfl
      · rfl
      · rfl
      · exact movedP t a _
      · exact movedNC t hnc a _
    · refine (seqListN i n.parent _ _ _ _ ?_ ?_ ?_ ?_ ?_).2
      · rfl
      · rfl
      · rfl
      · exact movedP t a _
      · exact movedNC t hnc a _

/-- A MergeJoin keeps the links uncrossed. -/
theorem joinNoCross {t t' : Tree} {g bj : Nat} {gj : List Pomset}
    (h : applyEdit t (TEdit.join g bj gj) = some t') (hpb : ParentsBefore t) (hnc : NoCross t) :
    NoCross t' := by
  have ⟨j, n, hc, hk⟩ := joinCurrent h
  have ⟨_, _, hj⟩ := currentGroupAtSome hc
  have ⟨i, ei, _, _⟩ := nodeAtPos hj
  subst ei
  have hk' : Nat.beq n.kind 2 = true := by rw [hk]; rfl
  have h := (rowOf h).2
  simp only [rowTree, hc, hk'] at h
  have e := applied h
  subst e
  refine spliceNoCross t i _ n hpb hnc hj ?_ ?_
  · refine (seqListN i n.parent _ _ _ _ ?_ ?_ ?_ ?_ ?_).1
    · rfl
    · rfl
    · rfl
    · exact movedP t (i + 1) _
    · exact movedNC t hnc (i + 1) _
  · refine (seqListN i n.parent _ _ _ _ ?_ ?_ ?_ ?_ ?_).2
    · rfl
    · rfl
    · rfl
    · exact movedP t (i + 1) _
    · exact movedNC t hnc (i + 1) _

/-- Every tree change keeps the links uncrossed on a tree with parents before children. -/
theorem applyEditNoCross {t t' : Tree} {e : TEdit} (h : applyEdit t e = some t') (hpb : ParentsBefore t)
    (hnc : NoCross t) : NoCross t' := by
  cases e with
  | keep => exact applyEditKeepNoCross h hnc
  | fork par b g bl br gl gr => exact forkNoCross h hpb hnc
  | restore live b g bk gk => exact restoreNoCross h hpb hnc
  | select g arm bj gj => exact selectNoCross h hpb hnc
  | join g bj gj => exact joinNoCross h hpb hnc

-- the machines' trees ------------------------------------------------------------------------------------

theorem treeStepNoCross {tab : Core → Nat → Option (Derived × TEdit)} {c : Core} {t' : Tree}
    (h : TreeStep tab c t') (hpb : ParentsBefore c.tree) (hnc : NoCross c.tree) : NoCross t' := by
  cases h with
  | inl e => rw [e]; exact hnc
  | inr h => cases h with
    | inl p => have ⟨x, e⟩ := p; rw [e]; exact hstepNoCross c.tree x hnc
    | inr p => have ⟨_, _, _, _, ha⟩ := p; exact applyEditNoCross ha hpb hnc

theorem startNoCross {d : Derived} {S : RState} (h : start d = some S) (hd : NoCross d.tree) :
    NoCross S.core.tree := by
  simp only [start] at h
  cases hs : safeSet (build d.inst) with
  | nil => rw [hs] at h; exact Option.noConfusion h
  | cons a l => rw [hs] at h; cases Option.some.inj h; exact hd

/-- On the runtime run, every tree reached from a record whose tree has parents before children and no
crossing links has no crossing links either, after any finite sequence of events. -/
theorem replayNoCross (tab : Core → Nat → Option (Derived × TEdit)) :
    ∀ (es : List Ev) (S : RState), ParentsBefore S.core.tree → NoCross S.core.tree →
      NoCross (replay (treeDer tab) S es).core.tree
  | [], _, _, h => h
  | e :: es, S, hp, h => replayNoCross tab es _ (treeStepParentsBefore (stepTree tab S e) hp)
      (treeStepNoCross (stepTree tab S e) hp h)

/-- On the ideal machine, the same. -/
theorem replayIdealNoCross (tab : Core → Nat → Option (Derived × TEdit)) :
    ∀ (es : List IEv) (c : Core), ParentsBefore c.tree → NoCross c.tree →
      NoCross (replayIdeal (treeDer tab) c es).tree
  | [], _, _, h => h
  | e :: es, c, hp, h => replayIdealNoCross tab es _ (stepIParentsBefore tab c e hp)
      (treeStepNoCross (stepITree tab c e) hp h)

/-- The trees of the runtime reached from an accepted root whose tree has parents before children and
no crossing links (a `Reached` tree, `reachedPreReached`, that is also in preorder, `reachedPreNoCross`). -/
def ReachedPre (tab : Core → Nat → Option (Derived × TEdit)) (t : Tree) : Prop :=
  ∃ d S es, start d = some S ∧ ParentsBefore d.tree ∧ NoCross d.tree ∧ t = (replay (treeDer tab) S es).core.tree

theorem reachedPreReached {tab : Core → Nat → Option (Derived × TEdit)} {t : Tree} (h : ReachedPre tab t) :
    Reached tab t := by
  have ⟨d, S, es, hs, hd, _, e⟩ := h
  exact ⟨d, S, es, hs, hd, e⟩

theorem reachedPreNoCross {tab : Core → Nat → Option (Derived × TEdit)} {t : Tree} (h : ReachedPre tab t) :
    NoCross t := by
  have ⟨_, S, es, hs, hd, hn, e⟩ := h
  rw [e]
  exact replayNoCross tab es S (startParentsBefore hs hd) (startNoCross hs hn)

end AgentWarrant.Edits.Machine
