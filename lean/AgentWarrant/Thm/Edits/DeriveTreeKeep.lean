import AgentWarrant.Thm.Edits.DeriveTreeCurrent
/-! Every tree change keeps parents before children (*When Can Agents Safely Checkpoint, Fork, Restore,
and Merge?*, Section V-A and Table I): `applyEdit` keeps `ParentsBefore` for every `TEdit`
(`applyEditParentsBefore`), and so, with `HStep` (`hstepParentsBefore`), every tree the runtime and the
ideal machine reach from a root tree with parents before children has them
(`replayParentsBefore`, `stepIParentsBefore`). The currency results of `Thm/Edits/DeriveTreeCurrent.lean`
then hold on every such tree without `ParentsBefore` as a hypothesis (`forkArmsCurrentReached`,
`restoreCurrentReached`, `restoreLiveCurrentReached`, `selectJoinCurrentReached`,
`joinJoinCurrentReached`).

Choices: the property is arithmetic on the flat list (a node's parent is an earlier position), read
from an offset (`PBL`), so the splice is handled in three pieces: the kept prefix, the row's new nodes
(the moved subtree of a Merge keeps its parents by the shift `moveTo` applies, `moveRunPB`), and the
shifted suffix (`spliceAt`'s parent shift). It needs nothing of preorder. The root tree is `Derive`'s
input (`start`), so that it has parents before children is the hypothesis of the reachability result. -/
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

/-- The trees of the runtime reached from an accepted root whose tree has parents before children. -/
def Reached (tab : Core → Nat → Option (Derived × TEdit)) (t : Tree) : Prop :=
  ∃ d S es, start d = some S ∧ ParentsBefore d.tree ∧ t = (replay (treeDer tab) S es).core.tree

theorem reachedParentsBefore {tab : Core → Nat → Option (Derived × TEdit)} {t : Tree} (h : Reached tab t) :
    ParentsBefore t := by
  have ⟨_, S, es, hs, hd, e⟩ := h
  rw [e]
  exact replayParentsBefore tab es S (startParentsBefore hs hd)

-- currency of the new leaves on reached trees --------------------------------------------------------------

/-- On a reached tree with no sequence node, both fresh arms of a Fork of a current branch are current. -/
theorem forkArmsCurrentReached {tab : Core → Nat → Option (Derived × TEdit)} {t t' : Tree} {par : Bool}
    {b g bl br : Nat} {gl gr : List Pomset} (hr : Reached tab t)
    (h : applyEdit t (TEdit.fork par b g bl br gl gr) = some t') (hseq : ∀ k n, nodeAt t k = some n → n.kind ≠ 4) :
    currentB t' bl = true ∧ currentB t' br = true :=
  forkArmsStayCurrent h (reachedParentsBefore hr) hseq

/-- On a reached tree with no sequence node, RestoreReplace's fresh `b_k` is current. -/
theorem restoreCurrentReached {tab : Core → Nat → Option (Derived × TEdit)} {t t' : Tree} {b g bk : Nat}
    {gk : List Pomset} (hr : Reached tab t) (h : applyEdit t (TEdit.restore false b g bk gk) = some t')
    (hseq : ∀ k n, nodeAt t k = some n → n.kind ≠ 4) : currentB t' bk = true :=
  restoreStaysCurrent h (reachedParentsBefore hr) hseq

/-- On a reached tree with no sequence node, RestoreLive's parts `b` and `b_k` are current. -/
theorem restoreLiveCurrentReached {tab : Core → Nat → Option (Derived × TEdit)} {t t' : Tree} {b g bk : Nat}
    {gk : List Pomset} (hr : Reached tab t) (h : applyEdit t (TEdit.restore true b g bk gk) = some t')
    (hseq : ∀ k n, nodeAt t k = some n → n.kind ≠ 4) : currentB t' b = true ∧ currentB t' bk = true :=
  restoreLiveStaysCurrent h (reachedParentsBefore hr) hseq

/-- On a reached tree with no sequence node, MergeSelect's `b_J` is current exactly when the kept arm is
complete. -/
theorem selectJoinCurrentReached {tab : Core → Nat → Option (Derived × TEdit)} {t t' : Tree} {g arm bj : Nat}
    {gj : List Pomset} (hr : Reached tab t) (h : applyEdit t (TEdit.select g arm bj gj) = some t')
    (hseq : ∀ k n, nodeAt t k = some n → n.kind ≠ 4) :
    ∃ i n, currentGroupAt t g = some (i + 1, n) ∧
      currentB t' bj = seqOk t' (i + 1) ⟨0, 4, n.parent, n.pos, 0, [], []⟩ (newLeaf bj (i + 1) 1 gj) :=
  selectJoinStaysCurrent h (reachedParentsBefore hr) hseq

/-- On a reached tree with no sequence node, MergeJoin's `b_J` is current exactly when the join barrier is
complete. -/
theorem joinJoinCurrentReached {tab : Core → Nat → Option (Derived × TEdit)} {t t' : Tree} {g bj : Nat}
    {gj : List Pomset} (hr : Reached tab t) (h : applyEdit t (TEdit.join g bj gj) = some t')
    (hseq : ∀ k n, nodeAt t k = some n → n.kind ≠ 4) :
    ∃ i n, currentGroupAt t g = some (i + 1, n) ∧
      currentB t' bj = seqOk t' (i + 1) ⟨0, 4, n.parent, n.pos, 0, [], []⟩ (newLeaf bj (i + 1) 1 gj) :=
  joinJoinStaysCurrent h (reachedParentsBefore hr) hseq

end AgentWarrant.Edits.Machine
