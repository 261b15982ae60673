import AgentWarrant.Thm.Edits.DeriveTreeCurrent
/-! Every tree change keeps parents before children, and sequences matter to the new leaves' currency only
above the edited node (*When Can Agents Safely Checkpoint, Fork, Restore, and Merge?*, Section V-A and
Table I):
- `applyEdit` keeps `ParentsBefore` for every `TEdit` (`applyEditParentsBefore`), and so, with `HStep`
  (`hstepParentsBefore`), every tree the runtime reaches from an accepted root whose tree has parents
  before children has them (`replayParentsBefore`, `Reached`, `reachedParentsBefore`); likewise on the
  ideal machine (`stepIParentsBefore`, `replayIdealParentsBefore`);
- the walk above the edited node reads only kept nodes, and reads a sequence's earlier parts only at a
  sequence above the node: so when no sequence lies above the edited branch or group
  (`seqFreeAboveLeaf`, `seqFreeAboveGroup`; sequences elsewhere in the tree are allowed), both fresh arms
  of a Fork of a current branch are current (`forkArmsCurrentSeqFree`), RestoreReplace's `b_k` and
  RestoreLive's `b` and `b_k` are current (`restoreCurrentSeqFree`, `restoreLiveCurrentSeqFree`), and a
  Merge's `b_J` is current exactly when the sequence's earlier part is complete
  (`selectJoinCurrentSeqFree`, `joinJoinCurrentSeqFree`); on reached trees parents before children is
  no longer a hypothesis (`forkArmsCurrentReached`, `restoreCurrentReached`,
  `restoreLiveCurrentReached`, `selectJoinCurrentReached`, `joinJoinCurrentReached`). A tree with no
  sequence node has none above any node (`seqFreeOfNoSeq`), which gives the versions with no sequence
  node in the tree (`forkArmsStayCurrent`, `restoreStaysCurrent`, `restoreLiveStaysCurrent`,
  `selectJoinStaysCurrent`, `joinJoinStaysCurrent`).

Choices: parents before children is arithmetic on the flat list (a node's parent is an earlier
position), read from an offset (`PBL`), so the splice is handled in three pieces: the kept prefix, the
row's new nodes (a Merge's moved subtree keeps its parents by the shift `moveTo` applies, `moveRunPB`),
and the shifted suffix (`spliceAt`'s parent shift, `splicePB`); it needs nothing of preorder. The root
tree is `Derive`'s input (`start`), so that it has parents before children is the hypothesis of the
reachability result. A sequence above the edited node stays a hypothesis here: its earlier parts'
completeness is read over the whole tree, which the splice shifts, and relating it across the splice
needs the tree to be in preorder (a node's descendants follow it contiguously): that invariant, and that
every run keeps it, is in `Thm/Edits/DeriveTreeSeq.lean` (`NoCross`), and the currency results with no
hypothesis on the sequences above, on trees in preorder, in `Thm/Edits/DeriveTreeSeq2.lean`. -/
namespace AgentWarrant.Edits.Machine
open AgentWarrant AgentWarrant.Edits

-- arithmetic --------------------------------------------------------------------------------------------

theorem zeroSubN : ∀ b : Nat, 0 - b = 0
  | 0 => rfl
  | b + 1 => by show Nat.pred (0 - b) = 0; rw [zeroSubN b]; rfl

theorem subLeOf : ∀ (a b c : Nat), a ≤ b + c → a - b ≤ c
  | a, 0, c, h => by rw [Nat.zero_add] at h; rw [Nat.sub_zero]; exact h
  | 0, b + 1, c, _ => by rw [zeroSubN]; exact Nat.zeroLe c
  | a + 1, b + 1, c, h => by
    rw [Nat.succ_sub_succ]
    rw [Nat.succ_add] at h
    exact subLeOf a b c (Nat.leOfSuccLeSucc h)

theorem bleFalse {a b : Nat} (h : Nat.ble a b = false) : b < a :=
  Nat.gtOfNotLe (fun h2 => by have h3 : Nat.ble a b = true := h2; rw [h] at h3; exact Bool.noConfusion h3)

-- parents before children, from an offset ---------------------------------------------------------------

/-- The node at position `o + m + 1` of the list (the list starting after position `o`) has its parent
at `o + m` or before. -/
def PBL : Nat → Tree → Prop
  | _, [] => True
  | o, n :: l => n.parent ≤ o ∧ PBL (o + 1) l

theorem pblNth : ∀ (l : Tree) (o : Nat), PBL o l → ∀ m n, nthNode l m = some n → n.parent ≤ o + m
  | [], _, _, _, _, h => Option.noConfusion h
  | x :: l, o, h, 0, n, hn => by
    have e := Option.some.inj hn
    subst e
    exact h.1
  | _ :: l, o, h, m + 1, n, hn => by
    have r := pblNth l (o + 1) h.2 m n hn
    rw [Nat.add_right_comm] at r
    exact r

theorem pblOfNth : ∀ (l : Tree) (o : Nat), (∀ m n, nthNode l m = some n → n.parent ≤ o + m) → PBL o l
  | [], _, _ => trivial
  | x :: l, o, h => ⟨h 0 x rfl, pblOfNth l (o + 1) (fun m n hn => by
      rw [Nat.add_right_comm]; exact h (m + 1) n hn)⟩

theorem pblOfPB {t : Tree} (h : ParentsBefore t) : PBL 0 t :=
  pblOfNth t 0 (fun m n hn => by
    rw [Nat.zero_add]; exact Nat.leOfSuccLeSucc (h (m + 1) n hn))

theorem pbOfPBL {t : Tree} (h : PBL 0 t) : ParentsBefore t := by
  intro k n hn
  have ⟨m, ek, _, hm⟩ := nodeAtPos hn
  subst ek
  have r := pblNth t 0 h m n hm
  rw [Nat.zero_add] at r
  exact Nat.succLeSucc r

theorem pblApp : ∀ (a b : Tree) (o : Nat), PBL o a → PBL (o + List.length a) b → PBL o (a ++ b)
  | [], b, o, _, hb => by rw [List.nil_append]; exact hb
  | x :: a, b, o, ha, hb => by
    rw [List.cons_append]
    refine ⟨ha.1, pblApp a b (o + 1) ha.2 ?_⟩
    rw [Nat.add_right_comm]
    rw [List.length_cons] at hb
    exact hb

theorem pblTake : ∀ (m : Nat) (l : Tree) (o : Nat), PBL o l → PBL o (takeN m l)
  | 0, _, _, _ => trivial
  | _ + 1, [], _, _ => trivial
  | m + 1, x :: l, o, h => ⟨h.1, pblTake m l (o + 1) h.2⟩

theorem pblDrop : ∀ (m : Nat) (l : Tree) (o : Nat), PBL o l → PBL (o + m) (dropN m l)
  | 0, _, _, h => h
  | _ + 1, [], _, _ => trivial
  | m + 1, x :: l, o, h => by
    have r := pblDrop m l (o + 1) h.2
    rw [Nat.add_right_comm] at r
    exact r

theorem pblMap (F : TNode → TNode) : ∀ (l : Tree) (o o' : Nat),
    (∀ n x, n.parent ≤ o + x → (F n).parent ≤ o' + x) → PBL o l → PBL o' (l.map F)
  | [], _, _, _, _ => trivial
  | x :: l, o, o', hF, h => ⟨hF x 0 h.1, pblMap F l (o + 1) (o' + 1) (fun n y hy => by
      rw [Nat.add_right_comm]
      rw [Nat.add_right_comm] at hy
      exact hF n (y + 1) hy) h.2⟩

theorem pblMono : ∀ (l : Tree) (o d : Nat), PBL o l → PBL (o + d) l
  | [], _, _, _ => trivial
  | x :: l, o, d, h => ⟨Nat.leTrans h.1 (Nat.leAddRight o d), by
      rw [Nat.add_right_comm]; exact pblMono l (o + 1) d h.2⟩

/-- A subtree moved by `moveTo a b` keeps its parents before its children: the nodes of the run below
position `a` have their parent at `a` or later, and both parents and places move by `b - a`. -/
theorem moveRunPB (a b : Nat) : ∀ (l : Tree) (o o' : Nat), o' + a = o + b → PBL o l →
    PBL o' (moveTo a b (takeN (runLen a l) l))
  | [], _, _, _, _ => by cases runLen a [] <;> exact trivial
  | x :: l, o, o', he, h => by
    cases hb : Nat.ble a x.parent with
    | false =>
      have e : runLen a (x :: l) = 0 := by simp only [runLen, hb]
      rw [e]
      exact trivial
    | true =>
      have e : runLen a (x :: l) = runLen a l + 1 := by simp only [runLen, hb] <;> rfl
      rw [e]
      refine ⟨?_, moveRunPB a b l (o + 1) (o' + 1) ?_ h.2⟩
      · show x.parent + b - a ≤ o'
        refine subLeOf _ _ _ ?_
        rw [Nat.add_comm a o', he]
        exact Nat.addLeAddRight h.1 b
      · rw [Nat.add_right_comm, he, Nat.add_right_comm]

/-- `𝓔[new]` at position `i + 1` keeps parents before children when the new nodes have theirs before
them: the nodes before are kept, and the nodes after the replaced subtree move with their parents. -/
theorem splicePB (t : Tree) (i : Nat) (new : Tree) (ht : PBL 0 t) (hi : i ≤ List.length t)
    (hn : PBL i new) : PBL 0 (spliceAt t (i + 1) new) := by
  show PBL 0 (takeN i t ++ new ++ _)
  have hpre : PBL 0 (takeN i t ++ new) := by
    refine pblApp _ _ 0 (pblTake i t 0 ht) ?_
    rw [takeNLen i t hi, Nat.zero_add]
    exact hn
  refine pblApp _ _ 0 hpre ?_
  rw [lengthApp, takeNLen i t hi, Nat.zero_add]
  have hd := pblDrop (runLen (i + 1) (dropN (i + 1) t)) _ _ (pblDrop (i + 1) t 0 ht)
  rw [Nat.zero_add] at hd
  refine pblMap _ _ _ _ ?_ hd
  intro n x hx
  cases hb : Nat.ble (i + 1) n.parent with
  | false =>
    show n.parent ≤ _
    exact Nat.leTrans (Nat.leOfLtSucc (bleFalse hb)) (Nat.leTrans (Nat.leAddRight i (List.length new))
      (Nat.leAddRight _ x))
  | true =>
    show n.parent + List.length new - (runLen (i + 1) (dropN (i + 1) t) + 1) ≤ _
    refine subLeOf _ _ _ ?_
    have e : runLen (i + 1) (dropN (i + 1) t) + 1 + (i + List.length new + x) =
        i + 1 + runLen (i + 1) (dropN (i + 1) t) + x + List.length new := by
      simp only [Nat.add_comm, Nat.add_assoc, Nat.add_left_comm] <;> rfl
    rw [e]
    exact Nat.addLeAddRight hx _


-- each row ----------------------------------------------------------------------------------------------

theorem parentAt {t : Tree} {i : Nat} {n : TNode} (ht : PBL 0 t) (hj : nodeAt t (i + 1) = some n) :
    n.parent ≤ i := by
  have r := pblNth t 0 ht i n hj
  rw [Nat.zero_add] at r
  exact r

theorem pblDrop0 (t : Tree) (a : Nat) (ht : PBL 0 t) : PBL a (dropN a t) := by
  have r := pblDrop a t 0 ht
  rw [Nat.zero_add] at r
  exact r

theorem leafLast (i : Nat) (x y : TNode) (m : Tree) : i + 1 ≤ i + List.length (x :: y :: m) := by
  rw [List.length_cons, List.length_cons]
  exact Nat.addLeAddLeft (Nat.succLeSucc (Nat.zeroLe (List.length m + 1))) i

theorem forkPB {t t' : Tree} {par : Bool} {b g bl br : Nat} {gl gr : List Pomset}
    (h : applyEdit t (TEdit.fork par b g bl br gl gr) = some t') (hwf : ParentsBefore t) : ParentsBefore t' := by
  have ht := pblOfPB hwf
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
      exact pbOfPBL (splicePB t i _ ht (nodeAtLe hj)
        ⟨(parentAt ht hj : n.parent ≤ i), Nat.leRefl _, Nat.leSucc _, trivial⟩)

theorem restorePB {t t' : Tree} {live : Bool} {b g bk : Nat} {gk : List Pomset}
    (h : applyEdit t (TEdit.restore live b g bk gk) = some t') (hwf : ParentsBefore t) : ParentsBefore t' := by
  have ht := pblOfPB hwf
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
        exact pbOfPBL (splicePB t i _ ht (nodeAtLe hj) ⟨(parentAt ht hj : n.parent ≤ i), trivial⟩)
      | true =>
        simp only [rowTree, hc] at h
        have e := applied h
        subst e
        exact pbOfPBL (splicePB t i _ ht (nodeAtLe hj)
          ⟨(parentAt ht hj : n.parent ≤ i), Nat.leRefl _, Nat.leSucc _, trivial⟩)

theorem selectPB {t t' : Tree} {g arm bj : Nat} {gj : List Pomset}
    (h : applyEdit t (TEdit.select g arm bj gj) = some t') (hwf : ParentsBefore t) : ParentsBefore t' := by
  have ht := pblOfPB hwf
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
    refine pbOfPBL (splicePB t i _ ht (nodeAtLe hj) (pblApp _ _ i ⟨(parentAt ht hj : n.parent ≤ i), Nat.leRefl _, ?_⟩
      ⟨leafLast i _ _ _, trivial⟩))
    exact moveRunPB a (i + 1 + 1) (dropN a t) a (i + 1 + 1) (Nat.add_comm _ _) (pblDrop0 t a ht)

theorem joinPB {t t' : Tree} {g bj : Nat} {gj : List Pomset}
    (h : applyEdit t (TEdit.join g bj gj) = some t') (hwf : ParentsBefore t) : ParentsBefore t' := by
  have ht := pblOfPB hwf
  have ⟨j, n, hc, hk⟩ := joinCurrent h
  have ⟨_, _, hj⟩ := currentGroupAtSome hc
  have ⟨i, ei, _, _⟩ := nodeAtPos hj
  subst ei
  have hk' : Nat.beq n.kind 2 = true := by rw [hk]; rfl
  have h := (rowOf h).2
  simp only [rowTree, hc, hk'] at h
  have e := applied h
  subst e
  refine pbOfPBL (splicePB t i _ ht (nodeAtLe hj) (pblApp _ _ i ⟨(parentAt ht hj : n.parent ≤ i), Nat.leRefl _, ?_⟩
    ⟨leafLast i _ _ _, trivial⟩))
  exact moveRunPB (i + 1) (i + 1 + 1) (dropN (i + 1) t) (i + 1) (i + 1 + 1) (Nat.add_comm _ _)
    (pblDrop0 t (i + 1) ht)

/-- Every tree change keeps parents before children: `applyEdit` of a tree with parents before children,
when defined, has them too. -/
theorem applyEditParentsBefore {t t' : Tree} {e : TEdit} (h : applyEdit t e = some t') (hwf : ParentsBefore t) :
    ParentsBefore t' := by
  cases e with
  | keep =>
    have h := (rowOf h).2
    have e := applied h
    subst e
    exact hwf
  | fork par b g bl br gl gr => exact forkPB h hwf
  | restore live b g bk gk => exact restorePB h hwf
  | select g arm bj gj => exact selectPB h hwf
  | join g bj gj => exact joinPB h hwf


-- the machines' trees ------------------------------------------------------------------------------------

/-- Every tree a committed step may leave (`TreeStep`: the record's own, its `HStep`, or `applyEdit` of
it) has parents before children when the record's tree has. -/
theorem treeStepParentsBefore {tab : Core → Nat → Option (Derived × TEdit)} {c : Core} {t' : Tree}
    (h : TreeStep tab c t') (hwf : ParentsBefore c.tree) : ParentsBefore t' := by
  cases h with
  | inl e => rw [e]; exact hwf
  | inr h => cases h with
    | inl p => have ⟨x, e⟩ := p; rw [e]; exact hstepParentsBefore c.tree x hwf
    | inr p => have ⟨_, _, _, _, ha⟩ := p; exact applyEditParentsBefore ha hwf

theorem startParentsBefore {d : Derived} {S : RState} (h : start d = some S) (hd : ParentsBefore d.tree) :
    ParentsBefore S.core.tree := by
  simp only [start] at h
  cases hs : safeSet (build d.inst) with
  | nil => rw [hs] at h; exact Option.noConfusion h
  | cons a l => rw [hs] at h; cases Option.some.inj h; exact hd

/-- On the runtime run with a `Derive` that names tree changes, every tree reached from a record whose
tree has parents before children has them too, after any finite sequence of events. -/
theorem replayParentsBefore (tab : Core → Nat → Option (Derived × TEdit)) :
    ∀ (es : List Ev) (S : RState), ParentsBefore S.core.tree → ParentsBefore (replay (treeDer tab) S es).core.tree
  | [], _, h => h
  | e :: es, S, h => replayParentsBefore tab es _ (treeStepParentsBefore (stepTree tab S e) h)

/-- The same for one step of the ideal machine. -/
theorem stepIParentsBefore (tab : Core → Nat → Option (Derived × TEdit)) (c : Core) (e : IEv)
    (h : ParentsBefore c.tree) : ParentsBefore (stepI (treeDer tab) c e).2.tree :=
  treeStepParentsBefore (stepITree tab c e) h

/-- The ideal machine run over a finite sequence of events. -/
def replayIdeal (der : Derivation) : Core → List IEv → Core
  | c, [] => c
  | c, e :: es => replayIdeal der (stepI der c e).2 es

/-- On the ideal machine, every tree reached from a record whose tree has parents before children has
them too, after any finite sequence of events. -/
theorem replayIdealParentsBefore (tab : Core → Nat → Option (Derived × TEdit)) :
    ∀ (es : List IEv) (c : Core), ParentsBefore c.tree → ParentsBefore (replayIdeal (treeDer tab) c es).tree
  | [], _, h => h
  | e :: es, c, h => replayIdealParentsBefore tab es _ (stepIParentsBefore tab c e h)

/-- The trees of the runtime reached from an accepted root whose tree has parents before children. -/
def Reached (tab : Core → Nat → Option (Derived × TEdit)) (t : Tree) : Prop :=
  ∃ d S es, start d = some S ∧ ParentsBefore d.tree ∧ t = (replay (treeDer tab) S es).core.tree

theorem reachedParentsBefore {tab : Core → Nat → Option (Derived × TEdit)} {t : Tree} (h : Reached tab t) :
    ParentsBefore t := by
  have ⟨_, S, es, hs, hd, e⟩ := h
  rw [e]
  exact replayParentsBefore tab es S (startParentsBefore hs hd)

-- sequences: only those above the edited node -------------------------------------------------------------

/-- No sequence node lies on the walk up from position `j` (its strict ancestors), with fuel `f`. -/
def noSeqUp : Nat → Tree → Nat → Bool
  | 0, _, _ => true
  | f + 1, t, j => match nodeAt t j with
    | none => true
    | some c => match c.parent with
      | 0 => true
      | pn + 1 => match nodeAt t (pn + 1) with
        | none => true
        | some p => !(Nat.beq p.kind 4) && noSeqUp f t (pn + 1)

theorem noSeqUpStep (f : Nat) (t : Tree) (j : Nat) (c p : TNode) (pn : Nat) (hc : nodeAt t j = some c)
    (hpar : c.parent = pn + 1) (hp : nodeAt t (pn + 1) = some p) (h : noSeqUp (f + 1) t j = true) :
    p.kind ≠ 4 ∧ noSeqUp f t (pn + 1) = true := by
  have e : noSeqUp (f + 1) t j = (match c.parent with
      | 0 => true
      | pn + 1 => match nodeAt t (pn + 1) with
        | none => true
        | some p => !(Nat.beq p.kind 4) && noSeqUp f t (pn + 1)) := by
    simp only [noSeqUp, hc]; rfl
  rw [e, hpar] at h
  have h2 : (match nodeAt t (pn + 1) with
        | none => true
        | some p => !(Nat.beq p.kind 4) && noSeqUp f t (pn + 1)) = true := h
  rw [hp] at h2
  have h3 : (!(Nat.beq p.kind 4) && noSeqUp f t (pn + 1)) = true := h2
  have ⟨h1, h2⟩ := andTrue h3
  refine ⟨fun hk => ?_, h2⟩
  rw [hk] at h1
  exact Bool.noConfusion h1

/-- A tree with no sequence node has none above any position. -/
theorem noSeqUpOf {t : Tree} (hseq : ∀ k n, nodeAt t k = some n → n.kind ≠ 4) : ∀ f j, noSeqUp f t j = true
  | 0, _ => rfl
  | f + 1, j => by
    cases hc : nodeAt t j with
    | none => simp only [noSeqUp, hc]
    | some c =>
      cases hpar : c.parent with
      | zero => simp only [noSeqUp, hc, hpar]
      | succ pn =>
        cases hp : nodeAt t (pn + 1) with
        | none => simp only [noSeqUp, hc, hpar, hp]
        | some p =>
          have hk : Nat.beq p.kind 4 = false := by
            cases hb : Nat.beq p.kind 4 with
            | false => rfl
            | true => exact absurd (Nat.eqOfBeqEqTrue hb) (hseq _ p hp)
          have e : noSeqUp (f + 1) t j = (!(Nat.beq p.kind 4) && noSeqUp f t (pn + 1)) := by
            simp only [noSeqUp, hc, hpar, hp] <;> rfl
          rw [e, hk, noSeqUpOf hseq f (pn + 1)]
          rfl

/-- The walk from a position before `i + 1` reads only nodes before `i + 1` (parents precede children):
when those are kept and none above it is a sequence, a walk accepted in `t` is accepted in `t'`, with any
fuel at least the position. -/
theorem walkKeptUp (t t' : Tree) (i : Nat) (hwf : ParentsBefore t)
    (hkeep : ∀ k, k < i → nodeAt t' (k + 1) = nodeAt t (k + 1)) :
    ∀ (f g j : Nat), j ≤ i → j ≤ g → noSeqUp f t j = true → addrUp f t j = true → addrUp g t' j = true
  | 0, _, _, _, _, _, h => Bool.noConfusion h
  | f + 1, g, j, hj, hg, hns, h => by
    cases hc : nodeAt t j with
    | none =>
      have e : addrUp (f + 1) t j = false := by simp only [addrUp, hc] <;> rfl
      rw [e] at h
      exact Bool.noConfusion h
    | some c =>
      have ⟨j0, ej, _, _⟩ := nodeAtPos hc
      subst ej
      have hc' : nodeAt t' (j0 + 1) = some c := by rw [hkeep j0 hj]; exact hc
      cases g with
      | zero => exact absurd hg (Nat.notSuccLeZero _)
      | succ g =>
        cases hpar : c.parent with
        | zero => exact addrUpRoot g t' _ c hc' hpar
        | succ pn =>
          have hlt0 := hwf _ _ hc
          rw [hpar] at hlt0
          have hlt : pn + 1 ≤ j0 := Nat.leOfSuccLeSucc hlt0
          have hpi : pn < i := Nat.leTrans hlt (Nat.leOfSuccLe hj)
          cases hp : nodeAt t (pn + 1) with
          | none =>
            rw [addrUpNone f t _ c pn hc hpar hp] at h
            exact Bool.noConfusion h
          | some p =>
            have ⟨hk, hns'⟩ := noSeqUpStep f t _ c p pn hc hpar hp hns
            rw [addrUpStep f t _ c p pn hc hpar hp] at h
            have hp' : nodeAt t' (pn + 1) = some p := by rw [hkeep pn hpi]; exact hp
            rw [addrUpStep g t' _ c p pn hc' hpar hp']
            have ⟨h12, h3⟩ := andTrue h
            have ⟨h1, _⟩ := andTrue h12
            rw [h1, seqOkNotSeq t' (pn + 1) p c hk,
              walkKeptUp t t' i hwf hkeep f g (pn + 1) hpi (Nat.leTrans hlt (Nat.leOfSuccLeSucc hg)) hns' h3]
            rfl

/-- A node put at a current position `i + 1` with the node's parent and place is reached by the walk in
`T'` when parents precede children, the nodes before it are kept and no sequence lies above `i + 1`. -/
theorem reachKeptUp (t t' : Tree) (i : Nat) (n G : TNode) (f : Nat) (hwf : ParentsBefore t)
    (hkeep : ∀ k, k < i → nodeAt t' (k + 1) = nodeAt t (k + 1))
    (hns : noSeqUp (List.length t) t (i + 1) = true) (hj : nodeAt t (i + 1) = some n)
    (hw : addrUp (List.length t) t (i + 1) = true) (hG : nodeAt t' (i + 1) = some G)
    (hpar' : G.parent = n.parent) (hpos : G.pos = n.pos) (hf : i ≤ f) : addrUp (f + 1) t' (i + 1) = true := by
  cases hlt : List.length t with
  | zero => rw [hlt] at hw; exact Bool.noConfusion hw
  | succ m =>
    rw [hlt] at hw hns
    cases hpar : n.parent with
    | zero => exact addrUpRoot f t' _ _ hG (hpar'.trans hpar)
    | succ pn =>
      have hlt0 := hwf _ _ hj
      rw [hpar] at hlt0
      have hpi : pn < i := Nat.leOfSuccLeSucc hlt0
      cases hp : nodeAt t (pn + 1) with
      | none =>
        rw [addrUpNone m t _ n pn hj hpar hp] at hw
        exact Bool.noConfusion hw
      | some p =>
        have ⟨hk, hns'⟩ := noSeqUpStep m t _ n p pn hj hpar hp hns
        rw [addrUpStep m t _ n p pn hj hpar hp] at hw
        have hp' : nodeAt t' (pn + 1) = some p := by rw [hkeep pn hpi]; exact hp
        rw [addrUpStep f t' _ _ p pn hG (hpar'.trans hpar) hp']
        have ⟨h12, h3⟩ := andTrue hw
        have ⟨h1, _⟩ := andTrue h12
        have hw' := walkKeptUp t t' i hwf hkeep m f (pn + 1) hpi (Nat.leTrans hpi hf) hns' h3
        have ha : armOk p G = true := by
          have e : armOk p G = armOk p n := by simp only [armOk, hpos] <;> rfl
          rw [e]; exact h1
        exact and3 ha (seqOkNotSeq t' (pn + 1) p _ hk) hw'

/-- No sequence lies above the leaf named `b`. -/
def seqFreeAboveLeaf (t : Tree) (b : Nat) : Bool := match findLeaf b 1 t with
  | some j => noSeqUp (List.length t) t j
  | none => true

/-- No sequence lies above the group named `g`. -/
def seqFreeAboveGroup (t : Tree) (g : Nat) : Bool := match findGroup g 1 t with
  | some j => noSeqUp (List.length t) t j
  | none => true

theorem seqFreeLeafAt {t : Tree} {b j : Nat} (h : seqFreeAboveLeaf t b = true) (hf : findLeaf b 1 t = some j) :
    noSeqUp (List.length t) t j = true := by
  simp only [seqFreeAboveLeaf, hf] at h
  exact h

theorem seqFreeGroupAt {t : Tree} {g j : Nat} {n : TNode} (h : seqFreeAboveGroup t g = true)
    (hc : currentGroupAt t g = some (j, n)) : noSeqUp (List.length t) t j = true := by
  cases hf : findGroup g 1 t with
  | none => simp only [currentGroupAt, hf] at hc
  | some j' =>
    have e : j' = j := by
      cases hu : addrUp (List.length t) t j' with
      | false => simp only [currentGroupAt, hf, hu] at hc
      | true =>
        cases hn : nodeAt t j' with
        | none => simp only [currentGroupAt, hf, hu, hn] at hc
        | some n' =>
          simp only [currentGroupAt, hf, hu, hn] at hc
          cases hc
          rfl
    subst e
    simp only [seqFreeAboveGroup, hf] at h
    exact h


/-- After a Fork of a current branch `b`, both fresh arms are current in `T'` when parents precede
children in `T` and no sequence lies above `b` (sequences elsewhere in `T` are allowed). -/
theorem forkArmsCurrentSeqFree {t t' : Tree} {par : Bool} {b g bl br : Nat} {gl gr : List Pomset}
    (h : applyEdit t (TEdit.fork par b g bl br gl gr) = some t') (hwf : ParentsBefore t)
    (hs : seqFreeAboveLeaf t b = true) : currentB t' bl = true ∧ currentB t' br = true := by
  have ⟨i, n, hc, hfl, hfr⟩ := forkArmsFound h
  have ⟨i2, n2, hc2, hkeep, hg, hL, hR⟩ := forkNodes h
  rw [hc] at hc2
  have e := Option.some.inj hc2
  cases e
  have ⟨hcur, hfb, hj⟩ := currentLeafAtSome hc
  have hw : addrUp (List.length t) t (i + 1) = true := by
    have e2 : currentB t b = addrUp (List.length t) t (i + 1) := by simp only [currentB, hfb] <;> rfl
    rw [← e2]; exact hcur
  have hns := seqFreeLeafAt hs hfb
  have ⟨k, ek, hk, _⟩ := nodeAtPos hR
  have ek' := Nat.succ.inj ek
  subst ek'
  cases hlen : List.length t' with
  | zero => rw [hlen] at hk; exact absurd hk (Nat.notLtZero _)
  | succ f =>
    rw [hlen] at hk
    have hf : i + 2 ≤ f := Nat.leOfSuccLeSucc hk
    cases f with
    | zero => exact absurd hf (Nat.notSuccLeZero _)
    | succ f =>
      have hf' : i + 1 ≤ f := Nat.leOfSuccLeSucc hf
      have hgrp := reachKeptUp t t' i n _ f hwf hkeep hns hj hw hg rfl rfl (Nat.leOfSuccLe hf')
      refine ⟨?_, ?_⟩
      · simp only [currentB, hfl]
        rw [hlen, addrUpStep (f + 1) t' _ _ _ i hL rfl hg, hgrp]
        cases par <;> rfl
      · simp only [currentB, hfr]
        rw [hlen, addrUpStep (f + 1) t' _ _ _ i hR rfl hg, hgrp]
        cases par <;> rfl

/-- After a RestoreReplace of a current branch `b`, the fresh `b_k` is current in `T'` when parents precede
children in `T` and no sequence lies above `b`. -/
theorem restoreCurrentSeqFree {t t' : Tree} {b g bk : Nat} {gk : List Pomset}
    (h : applyEdit t (TEdit.restore false b g bk gk) = some t') (hwf : ParentsBefore t)
    (hs : seqFreeAboveLeaf t b = true) : currentB t' bk = true := by
  have ⟨i, n, hc, hG, _, hcur⟩ := restoreFreshCurrent h
  have ⟨i2, n2, hc2, hkeep, _⟩ := restoreNodes h
  rw [hc] at hc2
  have e := Option.some.inj hc2
  cases e
  have ⟨hb, hfb, hj⟩ := currentLeafAtSome hc
  have hw : addrUp (List.length t) t (i + 1) = true := by
    have e2 : currentB t b = addrUp (List.length t) t (i + 1) := by simp only [currentB, hfb] <;> rfl
    rw [← e2]; exact hb
  have ⟨k, ek, hk, _⟩ := nodeAtPos hG
  have ek' := Nat.succ.inj ek
  subst ek'
  rw [hcur]
  cases hlen : List.length t' with
  | zero => rw [hlen] at hk; exact absurd hk (Nat.notLtZero _)
  | succ f =>
    rw [hlen] at hk
    exact reachKeptUp t t' i n _ f hwf hkeep (seqFreeLeafAt hs hfb) hj hw hG rfl rfl (Nat.leOfSuccLeSucc hk)

/-- After a RestoreLive of a current branch `b`, both parts `b` and `b_k` of the new parallel group are
current in `T'` when parents precede children in `T` and no sequence lies above `b`. -/
theorem restoreLiveCurrentSeqFree {t t' : Tree} {b g bk : Nat} {gk : List Pomset}
    (h : applyEdit t (TEdit.restore true b g bk gk) = some t') (hwf : ParentsBefore t)
    (hs : seqFreeAboveLeaf t b = true) : currentB t' b = true ∧ currentB t' bk = true := by
  have ⟨i, n, f, hc, hlen, hg, hcb, hck⟩ := restoreLiveCurrent h
  have ⟨i2, n2, hc2, hkeep, _, _, hk2⟩ := restoreLiveNodes h
  rw [hc] at hc2
  have e := Option.some.inj hc2
  cases e
  have ⟨hb, hfb, hj⟩ := currentLeafAtSome hc
  have hw : addrUp (List.length t) t (i + 1) = true := by
    have e2 : currentB t b = addrUp (List.length t) t (i + 1) := by simp only [currentB, hfb] <;> rfl
    rw [← e2]; exact hb
  have ⟨k, ek, hk, _⟩ := nodeAtPos hk2
  have ek' := Nat.succ.inj ek
  rw [hlen, ← ek'] at hk
  have hf : i + 2 ≤ f := Nat.leOfSuccLeSucc hk
  cases f with
  | zero => exact absurd hf (Nat.notSuccLeZero _)
  | succ f =>
    have hr := reachKeptUp t t' i n _ f hwf hkeep (seqFreeLeafAt hs hfb) hj hw hg rfl rfl
      (Nat.leTrans (Nat.leSucc i) (Nat.leOfSuccLeSucc hf))
    exact ⟨by rw [hcb]; exact hr, by rw [hck]; exact hr⟩

/-- After a MergeSelect of a current choice group `g`, `b_J` is current in `T'` exactly when the kept arm
is complete, when parents precede children in `T` and no sequence lies above `g`. -/
theorem selectJoinCurrentSeqFree {t t' : Tree} {g arm bj : Nat} {gj : List Pomset}
    (h : applyEdit t (TEdit.select g arm bj gj) = some t') (hwf : ParentsBefore t)
    (hs : seqFreeAboveGroup t g = true) :
    ∃ i n, currentGroupAt t g = some (i + 1, n) ∧
      currentB t' bj = seqOk t' (i + 1) ⟨0, 4, n.parent, n.pos, 0, [], []⟩ (newLeaf bj (i + 1) 1 gj) := by
  have ⟨i, n, p, f, hc, _, h0, _, _, hlen, hcur⟩ := selectJoinCurrent h
  have ⟨i2, n2, a, c, m, hc2, _, _, _, hkeep, _, h1, _⟩ := selectNodes h
  rw [hc] at hc2
  have e := Option.some.inj hc2
  cases e
  have ⟨_, hw, hj⟩ := currentGroupAtSome hc
  have ⟨k, ek, hk1, _⟩ := nodeAtPos h1
  have ek' := Nat.succ.inj ek
  rw [hlen, ← ek'] at hk1
  have hf : i + 1 ≤ f := Nat.leOfSuccLeSucc hk1
  cases f with
  | zero => exact absurd hf (Nat.notSuccLeZero _)
  | succ f =>
    have hr := reachKeptUp t t' i n _ f hwf hkeep (seqFreeGroupAt hs hc) hj hw h0 rfl rfl (Nat.leOfSuccLeSucc hf)
    exact ⟨i, n, hc, by rw [hcur, hr, andTrueR]⟩

/-- After a MergeJoin of a current parallel group `g`, `b_J` is current in `T'` exactly when the join
barrier is complete, when parents precede children in `T` and no sequence lies above `g`. -/
theorem joinJoinCurrentSeqFree {t t' : Tree} {g bj : Nat} {gj : List Pomset}
    (h : applyEdit t (TEdit.join g bj gj) = some t') (hwf : ParentsBefore t)
    (hs : seqFreeAboveGroup t g = true) :
    ∃ i n, currentGroupAt t g = some (i + 1, n) ∧
      currentB t' bj = seqOk t' (i + 1) ⟨0, 4, n.parent, n.pos, 0, [], []⟩ (newLeaf bj (i + 1) 1 gj) := by
  have ⟨i, n, p, f, hc, _, h0, _, _, hlen, hcur⟩ := joinJoinCurrent h
  have ⟨i2, n2, m, hc2, _, hkeep, _, h1, _⟩ := joinNodes h
  rw [hc] at hc2
  have e := Option.some.inj hc2
  cases e
  have ⟨_, hw, hj⟩ := currentGroupAtSome hc
  have ⟨k, ek, hk1, _⟩ := nodeAtPos h1
  have ek' := Nat.succ.inj ek
  rw [hlen, ← ek'] at hk1
  have hf : i + 1 ≤ f := Nat.leOfSuccLeSucc hk1
  cases f with
  | zero => exact absurd hf (Nat.notSuccLeZero _)
  | succ f =>
    have hr := reachKeptUp t t' i n _ f hwf hkeep (seqFreeGroupAt hs hc) hj hw h0 rfl rfl (Nat.leOfSuccLeSucc hf)
    exact ⟨i, n, hc, by rw [hcur, hr, andTrueR]⟩


/-- A tree with no sequence node has none above any leaf or group. -/
theorem seqFreeOfNoSeq {t : Tree} (hseq : ∀ k n, nodeAt t k = some n → n.kind ≠ 4) (b : Nat) :
    seqFreeAboveLeaf t b = true ∧ seqFreeAboveGroup t b = true := by
  refine ⟨?_, ?_⟩
  · cases hf : findLeaf b 1 t with
    | none => simp only [seqFreeAboveLeaf, hf]
    | some j => simp only [seqFreeAboveLeaf, hf]; exact noSeqUpOf hseq _ j
  · cases hf : findGroup b 1 t with
    | none => simp only [seqFreeAboveGroup, hf]
    | some j => simp only [seqFreeAboveGroup, hf]; exact noSeqUpOf hseq _ j

-- the results with no sequence node in the whole tree ------------------------------------------------------

/-- After a Fork of a current branch `b`, both fresh arms are current branches of `T'`, when parents
precede children in `T` and `T` has no sequence node (a special case of `forkArmsCurrentSeqFree`). -/
theorem forkArmsStayCurrent {t t' : Tree} {par : Bool} {b g bl br : Nat} {gl gr : List Pomset}
    (h : applyEdit t (TEdit.fork par b g bl br gl gr) = some t') (hwf : ParentsBefore t)
    (hseq : ∀ k n, nodeAt t k = some n → n.kind ≠ 4) :
    currentB t' bl = true ∧ currentB t' br = true :=
  forkArmsCurrentSeqFree h hwf (seqFreeOfNoSeq hseq b).1

/-- After a RestoreReplace of a current branch `b`, the fresh `b_k` is current in `T'`, when parents precede
children in `T` and `T` has no sequence node. -/
theorem restoreStaysCurrent {t t' : Tree} {b g bk : Nat} {gk : List Pomset}
    (h : applyEdit t (TEdit.restore false b g bk gk) = some t') (hwf : ParentsBefore t)
    (hseq : ∀ k n, nodeAt t k = some n → n.kind ≠ 4) : currentB t' bk = true :=
  restoreCurrentSeqFree h hwf (seqFreeOfNoSeq hseq b).1

/-- After a RestoreLive of a current branch `b`, both parts `b` and `b_k` are current in `T'`, when parents
precede children in `T` and `T` has no sequence node. -/
theorem restoreLiveStaysCurrent {t t' : Tree} {b g bk : Nat} {gk : List Pomset}
    (h : applyEdit t (TEdit.restore true b g bk gk) = some t') (hwf : ParentsBefore t)
    (hseq : ∀ k n, nodeAt t k = some n → n.kind ≠ 4) : currentB t' b = true ∧ currentB t' bk = true :=
  restoreLiveCurrentSeqFree h hwf (seqFreeOfNoSeq hseq b).1

/-- After a MergeSelect of a current choice group, `b_J` is current in `T'` exactly when the kept arm is
complete, when parents precede children in `T` and `T` has no sequence node. -/
theorem selectJoinStaysCurrent {t t' : Tree} {g arm bj : Nat} {gj : List Pomset}
    (h : applyEdit t (TEdit.select g arm bj gj) = some t') (hwf : ParentsBefore t)
    (hseq : ∀ k n, nodeAt t k = some n → n.kind ≠ 4) :
    ∃ i n, currentGroupAt t g = some (i + 1, n) ∧
      currentB t' bj = seqOk t' (i + 1) ⟨0, 4, n.parent, n.pos, 0, [], []⟩ (newLeaf bj (i + 1) 1 gj) :=
  selectJoinCurrentSeqFree h hwf (seqFreeOfNoSeq hseq g).2

/-- After a MergeJoin of a current parallel group, `b_J` is current in `T'` exactly when the join barrier
is complete, when parents precede children in `T` and `T` has no sequence node. -/
theorem joinJoinStaysCurrent {t t' : Tree} {g bj : Nat} {gj : List Pomset}
    (h : applyEdit t (TEdit.join g bj gj) = some t') (hwf : ParentsBefore t)
    (hseq : ∀ k n, nodeAt t k = some n → n.kind ≠ 4) :
    ∃ i n, currentGroupAt t g = some (i + 1, n) ∧
      currentB t' bj = seqOk t' (i + 1) ⟨0, 4, n.parent, n.pos, 0, [], []⟩ (newLeaf bj (i + 1) 1 gj) :=
  joinJoinCurrentSeqFree h hwf (seqFreeOfNoSeq hseq g).2


-- currency of the new leaves on reached trees --------------------------------------------------------------

/-- On a reached tree, both fresh arms of a Fork of a current branch with no sequence above it are current. -/
theorem forkArmsCurrentReached {tab : Core → Nat → Option (Derived × TEdit)} {t t' : Tree} {par : Bool}
    {b g bl br : Nat} {gl gr : List Pomset} (hr : Reached tab t)
    (h : applyEdit t (TEdit.fork par b g bl br gl gr) = some t') (hs : seqFreeAboveLeaf t b = true) :
    currentB t' bl = true ∧ currentB t' br = true :=
  forkArmsCurrentSeqFree h (reachedParentsBefore hr) hs

/-- On a reached tree, RestoreReplace's fresh `b_k` is current when no sequence lies above `b`. -/
theorem restoreCurrentReached {tab : Core → Nat → Option (Derived × TEdit)} {t t' : Tree} {b g bk : Nat}
    {gk : List Pomset} (hr : Reached tab t) (h : applyEdit t (TEdit.restore false b g bk gk) = some t')
    (hs : seqFreeAboveLeaf t b = true) : currentB t' bk = true :=
  restoreCurrentSeqFree h (reachedParentsBefore hr) hs

/-- On a reached tree, RestoreLive's parts `b` and `b_k` are current when no sequence lies above `b`. -/
theorem restoreLiveCurrentReached {tab : Core → Nat → Option (Derived × TEdit)} {t t' : Tree} {b g bk : Nat}
    {gk : List Pomset} (hr : Reached tab t) (h : applyEdit t (TEdit.restore true b g bk gk) = some t')
    (hs : seqFreeAboveLeaf t b = true) : currentB t' b = true ∧ currentB t' bk = true :=
  restoreLiveCurrentSeqFree h (reachedParentsBefore hr) hs

/-- On a reached tree, MergeSelect's `b_J` is current exactly when the kept arm is complete, when no
sequence lies above the group. -/
theorem selectJoinCurrentReached {tab : Core → Nat → Option (Derived × TEdit)} {t t' : Tree} {g arm bj : Nat}
    {gj : List Pomset} (hr : Reached tab t) (h : applyEdit t (TEdit.select g arm bj gj) = some t')
    (hs : seqFreeAboveGroup t g = true) :
    ∃ i n, currentGroupAt t g = some (i + 1, n) ∧
      currentB t' bj = seqOk t' (i + 1) ⟨0, 4, n.parent, n.pos, 0, [], []⟩ (newLeaf bj (i + 1) 1 gj) :=
  selectJoinCurrentSeqFree h (reachedParentsBefore hr) hs

/-- On a reached tree, MergeJoin's `b_J` is current exactly when the join barrier is complete, when no
sequence lies above the group. -/
theorem joinJoinCurrentReached {tab : Core → Nat → Option (Derived × TEdit)} {t t' : Tree} {g bj : Nat}
    {gj : List Pomset} (hr : Reached tab t) (h : applyEdit t (TEdit.join g bj gj) = some t')
    (hs : seqFreeAboveGroup t g = true) :
    ∃ i n, currentGroupAt t g = some (i + 1, n) ∧
      currentB t' bj = seqOk t' (i + 1) ⟨0, 4, n.parent, n.pos, 0, [], []⟩ (newLeaf bj (i + 1) 1 gj) :=
  joinJoinCurrentSeqFree h (reachedParentsBefore hr) hs

end AgentWarrant.Edits.Machine
