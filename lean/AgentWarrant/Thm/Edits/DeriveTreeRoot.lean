import AgentWarrant.Spec.Edits.DeriveTreeRoot
import AgentWarrant.Spec.Edits.RegisteredRoot
import AgentWarrant.Thm.Edits.DeriveTreeSeq
import AgentWarrant.Thm.Edits.DeriveTreeAddr
/-! The root tree's order is checked, not assumed (*When Can Agents Safely Checkpoint, Fork, Restore, and
Merge?*, Section V-A; the root tree of `Spec/Edits/DeriveTreeRoot.lean`).
- `parentsBeforeB` decides `ParentsBefore` and `noCrossB` decides `NoCross` (`parentsBeforeBIff`,
  `noCrossBIff`, `rootOrderBIff`), so the checked root update `startChecked` accepts exactly the roots
  `start` accepts whose tree has both (`startCheckedIff`);
- the registered root (`registerThenStart`) passes the check: its tree is built by Lean, the one leaf
  of the root branch, and so it is a checked root (`registeredRootChecked`);
- every tree a runtime or ideal run reaches from a checked root has both properties
  (`ReachedChecked`, `reachedCheckedPre`, `checkedReplayOrder`, `checkedReplayIdealOrder`), so the
  reached-tree results hold there with no hypothesis on the root.

Choices: the Boolean checks follow the flat list, so their proofs go through the list offsets already
used for parents before children (`PBL`, `pblOfPB`, `pbOfPBL`) and a position-indexed form of
`NoCross` (`ncFromIff`). -/
namespace AgentWarrant.Edits.Machine
open AgentWarrant AgentWarrant.Edits

theorem nthSucc (x : TNode) (l : Tree) (m : Nat) : nthNode (x :: l) (m + 1) = nthNode l m := rfl

theorem rootAndIff : ∀ {a b : Bool}, (a && b) = true ↔ a = true ∧ b = true
  | true, true => Iff.intro (fun _ => ⟨rfl, rfl⟩) (fun _ => rfl)
  | true, false => Iff.intro (fun h => by cases h) (fun h => by cases h.2)
  | false, _ => Iff.intro (fun h => by cases h) (fun h => by cases h.1)

theorem rootOrIff : ∀ {a b : Bool}, (a || b) = true ↔ a = true ∨ b = true
  | true, _ => Iff.intro (fun _ => Or.inl rfl) (fun _ => rfl)
  | false, true => Iff.intro (fun _ => Or.inr rfl) (fun _ => rfl)
  | false, false => Iff.intro (fun h => by cases h) (fun h => by cases h with
    | inl h => cases h
    | inr h => cases h)

-- parents before children --------------------------------------------------------------------------------

theorem pblBIff : ∀ (l : Tree) (o : Nat), pblB o l = true ↔ PBL o l
  | [], _ => Iff.intro (fun _ => trivial) (fun _ => rfl)
  | n :: l, o => by
    have ih := pblBIff l (o + 1)
    show (Nat.ble n.parent o && pblB (o + 1) l) = true ↔ (n.parent ≤ o ∧ PBL (o + 1) l)
    apply Iff.intro
    · intro h
      have ⟨h1, h2⟩ := rootAndIff.1 h
      exact ⟨h1, ih.1 h2⟩
    · intro ⟨h1, h2⟩
      exact rootAndIff.2 ⟨h1, ih.2 h2⟩

theorem parentsBeforeBIff (t : Tree) : parentsBeforeB t = true ↔ ParentsBefore t :=
  Iff.intro (fun h => pbOfPBL ((pblBIff t 0).1 h)) (fun h => (pblBIff t 0).2 (pblOfPB h))

-- uncrossed links ------------------------------------------------------------------------------------------

theorem laterUncrossedIff (b : Nat) (nb : TNode) : ∀ (l : Tree),
    laterUncrossedB b nb l = true ↔ ∀ m nc, nthNode l m = some nc → nc.parent ≤ nb.parent ∨ b ≤ nc.parent
  | [] => Iff.intro (fun _ _ _ h => Option.noConfusion h) (fun _ => rfl)
  | x :: l => by
    have ih := laterUncrossedIff b nb l
    show (uncrossedB b nb x && laterUncrossedB b nb l) = true ↔ _
    apply Iff.intro
    · intro h m nc hm
      have ⟨h1, h2⟩ := rootAndIff.1 h
      cases m with
      | zero =>
        have e := Option.some.inj hm
        subst e
        exact rootOrIff.1 h1
      | succ m => exact ih.1 h2 m nc hm
    · intro h
      exact rootAndIff.2 ⟨rootOrIff.2 (h 0 x rfl), ih.2 (fun m nc hm => h (m + 1) nc (by rw [nthSucc]; exact hm))⟩

/-- `NoCross` of a list whose first node is at position `k`, by list offsets. -/
theorem ncFromIff : ∀ (l : Tree) (k : Nat), ncFromB k l = true ↔
    ∀ i j ni nj, nthNode l i = some ni → nthNode l j = some nj → i < j →
      nj.parent ≤ ni.parent ∨ k + i ≤ nj.parent
  | [], _ => Iff.intro (fun _ _ _ _ _ h => Option.noConfusion h) (fun _ => rfl)
  | x :: l, k => by
    have ih := ncFromIff l (k + 1)
    show (laterUncrossedB k x l && ncFromB (k + 1) l) = true ↔ _
    apply Iff.intro
    · intro h i j ni nj hi hj hij
      have ⟨h1, h2⟩ := rootAndIff.1 h
      cases j with
      | zero => exact absurd hij (Nat.notSuccLeZero i)
      | succ j => cases i with
        | zero =>
          have e := Option.some.inj hi
          subst e
          exact (laterUncrossedIff k x l).1 h1 j nj hj
        | succ i =>
          have r := ih.1 h2 i j ni nj hi hj (Nat.leOfSuccLeSucc hij)
          rw [Nat.add_right_comm] at r
          exact r
    · intro h
      apply rootAndIff.2
      constructor
      · exact (laterUncrossedIff k x l).2
          (fun m nc hm => h 0 (m + 1) x nc rfl (by rw [nthSucc]; exact hm) (Nat.succLeSucc (Nat.zeroLe m)))
      · exact ih.2 (fun i j ni nj hi hj hij => by
          have r := h (i + 1) (j + 1) ni nj hi hj (Nat.succLeSucc hij)
          rw [Nat.add_right_comm]
          exact r)

theorem noCrossBIff (t : Tree) : noCrossB t = true ↔ NoCross t := by
  apply Iff.intro
  · intro h b c nb nc hb hc hbc
    have ⟨i, eb, _, hi⟩ := nodeAtPos hb
    have ⟨j, ec, _, hj⟩ := nodeAtPos hc
    subst eb
    subst ec
    have r := (ncFromIff t 1).1 h i j nb nc hi hj (Nat.leOfSuccLeSucc hbc)
    rw [Nat.add_comm 1 i] at r
    exact r
  · intro h
    apply (ncFromIff t 1).2
    intro i j ni nj hi hj hij
    have r := h (i + 1) (j + 1) ni nj hi hj (Nat.succLeSucc hij)
    rw [Nat.add_comm 1 i]
    exact r

theorem rootOrderBIff (t : Tree) : rootOrderB t = true ↔ ParentsBefore t ∧ NoCross t :=
  Iff.intro
    (fun h => have ⟨h1, h2⟩ := rootAndIff.1 h; ⟨(parentsBeforeBIff t).1 h1, (noCrossBIff t).1 h2⟩)
    (fun ⟨h1, h2⟩ => rootAndIff.2 ⟨(parentsBeforeBIff t).2 h1, (noCrossBIff t).2 h2⟩)

-- the checked root update ------------------------------------------------------------------------------------

theorem startCheckedIff {d : Derived} {S : RState} :
    startChecked d = some S ↔ start d = some S ∧ ParentsBefore d.tree ∧ NoCross d.tree := by
  have e := rootOrderBIff d.tree
  apply Iff.intro
  · intro h
    simp only [startChecked] at h
    cases hr : rootOrderB d.tree with
    | true => rw [hr] at h; exact ⟨h, e.1 hr⟩
    | false => rw [hr] at h; exact Option.noConfusion h
  · intro ⟨h, hp, hn⟩
    have hr := e.2 ⟨hp, hn⟩
    simp only [startChecked]
    rw [hr]
    exact h

/-- The registered root's tree is Lean's own (the root branch's one leaf, which the order check accepts),
so the registered root is a checked root. -/
theorem registeredRootChecked {W : Reg.Wf} {R : Reg.RegR} {n : Nat} {lab : List Nat} {dfa : Dfa}
    {calls names : List Nat} {eta : Nat} {S : RState}
    (h : Reg.registerThenStart W R n lab dfa calls names eta = some S) :
    startChecked (Reg.rootDerived R n lab dfa calls names eta) = some S := by
  simp only [Reg.registerThenStart] at h
  cases hc : Reg.checkReg W R with
  | true => rw [hc] at h; exact h
  | false => rw [hc] at h; exact Option.noConfusion h

/-- The trees of the runtime reached from a root the checked root update accepts. -/
def ReachedChecked (tab : Core → Nat → Option (Derived × TEdit)) (t : Tree) : Prop :=
  ∃ d S es, startChecked d = some S ∧ t = (replay (treeDer tab) S es).core.tree

theorem reachedCheckedPre {tab : Core → Nat → Option (Derived × TEdit)} {t : Tree} (h : ReachedChecked tab t) :
    ReachedPre tab t := by
  have ⟨d, S, es, hs, e⟩ := h
  have ⟨hs', hp, hn⟩ := startCheckedIff.1 hs
  exact ⟨d, S, es, hs', hp, hn, e⟩

theorem reachedCheckedReached {tab : Core → Nat → Option (Derived × TEdit)} {t : Tree}
    (h : ReachedChecked tab t) : Reached tab t :=
  reachedPreReached (reachedCheckedPre h)

/-- After any finite sequence of runtime events from a checked root, the tree has parents before children
and uncrossed links. -/
theorem checkedReplayOrder (tab : Core → Nat → Option (Derived × TEdit)) {d : Derived} {S : RState}
    (hs : startChecked d = some S) (es : List Ev) :
    ParentsBefore (replay (treeDer tab) S es).core.tree ∧ NoCross (replay (treeDer tab) S es).core.tree :=
  have hr : ReachedPre tab (replay (treeDer tab) S es).core.tree := reachedCheckedPre ⟨d, S, es, hs, rfl⟩
  ⟨reachedParentsBefore (reachedPreReached hr), reachedPreNoCross hr⟩

/-- The same on the ideal machine, from the checked root's record. -/
theorem checkedReplayIdealOrder (tab : Core → Nat → Option (Derived × TEdit)) {d : Derived} {S : RState}
    (hs : startChecked d = some S) (es : List IEv) :
    ParentsBefore (replayIdeal (treeDer tab) S.core es).tree ∧ NoCross (replayIdeal (treeDer tab) S.core es).tree :=
  have ⟨h, hp, hn⟩ := startCheckedIff.1 hs
  ⟨replayIdealParentsBefore tab es S.core (startParentsBefore h hp),
   replayIdealNoCross tab es S.core (startParentsBefore h hp) (startNoCross h hn)⟩

end AgentWarrant.Edits.Machine
