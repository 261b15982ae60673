import AgentWarrant.Spec.Edits.DeriveTreeAddr
import AgentWarrant.Thm.Edits.DeriveTreeKeep
/-! The executable walk behind `currentB` decides the declarative `addr(T)` (*When Can Agents Safely
Checkpoint, Fork, Restore, and Merge?*, Section IV-B1; `Spec/Edits/DeriveTreeAddr.lean`): on a tree whose
parents precede their children, `addrUp` accepts a position exactly when it is in `Addr`
(`addrUpIffAddr`), and a branch is current exactly when the leaf named by it is in `Addr`
(`currentBIffAddr`). The pieces: a choice's `armOk` is `Lets` (`armOkLets`, `letsArmOk`), the
fuelled walk `under` is `Below` (`underBelow`, `belowUnder`), `completeAt` is `Complete`
(`completeAtIff`), and `seqOk` is `SeqLets` (`seqOkIff`).

Choices: the walks are fuelled, so the equivalence needs fuel at least the position, which parents
before children give (every step goes to an earlier position); every reached tree has them
(`reachedParentsBefore`), so on those `currentB` is `addr(T)` with no hypothesis (`currentBIffAddrReached`),
a Fork's fresh arms are in the declarative `addr(T')` (`forkArmsInAddr`), and a Merge's `b_J` is in it
exactly when the new sequence's earlier part is complete (`selectLeafInAddr`, `joinLeafInAddr`); Exact
Checkpoint's "`b` is current" is then `addr(T)`'s (`checkpointExactAddr`). -/
namespace AgentWarrant.Edits.Machine
open AgentWarrant AgentWarrant.Edits

-- choices --------------------------------------------------------------------------------------------------

theorem armOkLets {p c : TNode} (h : armOk p c = true) : Lets p c := by
  intro hk
  have h' : (!(Nat.beq p.kind 1) || Nat.beq p.sel 0 || Nat.beq p.sel (c.pos + 1)) = true := h
  rw [hk] at h'
  cases h0 : Nat.beq p.sel 0 with
  | true => exact Or.inl (Nat.eqOfBeqEqTrue h0)
  | false =>
    rw [h0] at h'
    exact Or.inr (Nat.eqOfBeqEqTrue h')

theorem letsArmOk {p c : TNode} (h : Lets p c) : armOk p c = true := by
  show (!(Nat.beq p.kind 1) || Nat.beq p.sel 0 || Nat.beq p.sel (c.pos + 1)) = true
  cases hk : Nat.beq p.kind 1 with
  | false => rfl
  | true =>
    cases h (Nat.eqOfBeqEqTrue hk) with
    | inl e => rw [e]; rfl
    | inr e =>
      rw [e, beqSelf]
      cases Nat.beq (c.pos + 1) 0 <;> rfl

-- below ----------------------------------------------------------------------------------------------------

theorem underUnfold (f : Nat) (t : Tree) (k n : Nat) (c p : TNode) (hc : nodeAt t k = some c)
    (hp : nodeAt t c.parent = some p) :
    under (f + 1) t k n = (armOk p c && (Nat.beq c.parent n || under f t c.parent n)) := by
  simp only [under, hc, hp] <;> rfl

/-- The walk `under` finds only positions below `n`. -/
theorem underBelow (t : Tree) (n : Nat) : ∀ (f k : Nat), (Nat.beq k n || under f t k n) = true → Below t n k
  | 0, k, h => by
    cases hb : Nat.beq k n with
    | true => rw [Nat.eqOfBeqEqTrue hb]; exact Below.here
    | false => rw [hb] at h; exact Bool.noConfusion h
  | f + 1, k, h => by
    cases hb : Nat.beq k n with
    | true => rw [Nat.eqOfBeqEqTrue hb]; exact Below.here
    | false =>
      rw [hb] at h
      have h' : under (f + 1) t k n = true := h
      cases hc : nodeAt t k with
      | none =>
        have e : under (f + 1) t k n = false := by simp only [under, hc]
        rw [e] at h'
        exact Bool.noConfusion h'
      | some c =>
        cases hp : nodeAt t c.parent with
        | none =>
          have e : under (f + 1) t k n = false := by simp only [under, hc, hp]
          rw [e] at h'
          exact Bool.noConfusion h'
        | some p =>
          rw [underUnfold f t k n c p hc hp] at h'
          have ⟨h1, h2⟩ := andTrue h'
          exact Below.up hc hp (armOkLets h1) (underBelow t n f c.parent h2)

theorem orTrueR (a : Bool) {b : Bool} (h : b = true) : (a || b) = true := by
  rw [h]; cases a <;> rfl

/-- With fuel at least the position, the walk finds every position below `n`. -/
theorem belowUnder {t : Tree} {n : Nat} (hwf : ParentsBefore t) {k : Nat} (h : Below t n k) :
    ∀ f, k ≤ f → (Nat.beq k n || under f t k n) = true := by
  induction h with
  | here => intro f _; rw [beqSelf]; rfl
  | up hc hp hl hb ih =>
    intro f hf
    have hlt := hwf _ _ hc
    cases f with
    | zero =>
      have ⟨m, ek, _, _⟩ := nodeAtPos hc
      rw [ek] at hf
      exact absurd hf (Nat.notSuccLeZero _)
    | succ f =>
      refine orTrueR _ ?_
      rw [underUnfold f t _ n _ _ hc hp, letsArmOk hl]
      exact ih f (Nat.leOfLtSucc (Nat.ltOfLtOfLe hlt hf))

-- positions ------------------------------------------------------------------------------------------------

theorem allBPos (P : Nat → Bool) : ∀ (t : Tree) (o : Nat), (∀ m, m < List.length t → P (o + m) = true) →
    allB P (positions o t) = true
  | [], _, _ => rfl
  | x :: t, o, h => by
    have h0 : P o = true := h 0 (by rw [List.length_cons]; exact Nat.succLeSucc (Nat.zeroLe _))
    show allB P (o :: positions (o + 1) t) = true
    simp only [allB, h0]
    exact allBPos P t (o + 1) (fun m hm => by
      rw [Nat.add_right_comm]
      exact h (m + 1) (by rw [List.length_cons]; exact Nat.succLeSucc hm))

theorem allBPosOf (P : Nat → Bool) : ∀ (t : Tree) (o : Nat), allB P (positions o t) = true →
    ∀ m, m < List.length t → P (o + m) = true
  | [], _, _, m, hm => absurd hm (Nat.notLtZero m)
  | x :: t, o, h, 0, _ => (allBCons (show allB P (o :: positions (o + 1) t) = true from h)).1
  | x :: t, o, h, m + 1, hm => by
    have r := allBPosOf P t (o + 1) (allBCons (show allB P (o :: positions (o + 1) t) = true from h)).2 m
      (Nat.leOfSuccLeSucc (by rw [List.length_cons] at hm; exact hm))
    rw [Nat.add_right_comm] at r
    exact r

theorem posOfNode {t : Tree} {k : Nat} {s : TNode} (h : nodeAt t k = some s) :
    ∃ m, k = 1 + m ∧ m < List.length t := by
  have ⟨m, ek, hm, _⟩ := nodeAtPos h
  exact ⟨m, by rw [ek, Nat.add_comm], hm⟩

theorem nodeLe {t : Tree} {k : Nat} {s : TNode} (h : nodeAt t k = some s) : k ≤ List.length t := by
  have ⟨m, ek, hm, _⟩ := nodeAtPos h
  rw [ek]; exact hm

-- complete -------------------------------------------------------------------------------------------------

theorem boolOr3 {a b c : Bool} (h : (a || b || c) = true) (ha : a = false) (hb : b = false) : c = true := by
  rw [ha, hb] at h; exact h

/-- `completeAt` decides `complete(n)`. -/
theorem completeAtIff {t : Tree} (hwf : ParentsBefore t) (n : Nat) : completeAt t n = true ↔ Complete t n := by
  refine ⟨fun h => ?_, fun h => ?_⟩
  · intro k l hk hl hb
    have ⟨m, ek, hm⟩ := posOfNode hk
    have r := allBPosOf _ t 1 h m hm
    rw [← ek, hk] at r
    have hl' : Nat.beq l.kind 0 = true := by rw [hl]; rfl
    have hu := belowUnder hwf hb (List.length t) (nodeLe hk)
    refine boolOr3 r ?_ ?_
    · rw [hl']; rfl
    · rw [hu]; rfl
  · refine allBPos _ t 1 (fun m _ => ?_)
    cases hk : nodeAt t (1 + m) with
    | none => rfl
    | some l =>
      show (!(Nat.beq l.kind 0) || !(Nat.beq (1 + m) n || under (List.length t) t (1 + m) n) || leafDone l) = true
      cases hl : Nat.beq l.kind 0 with
      | false => rfl
      | true =>
        cases hu : (Nat.beq (1 + m) n || under (List.length t) t (1 + m) n) with
        | false => rfl
        | true =>
          rw [h _ l hk (Nat.eqOfBeqEqTrue hl) (underBelow t n _ _ hu)]
          rfl

-- sequences ------------------------------------------------------------------------------------------------

/-- `seqOk` decides that a sequence lets its part through: every earlier part is complete. -/
theorem seqOkIff {t : Tree} (hwf : ParentsBefore t) (pn : Nat) (p c : TNode) :
    seqOk t pn p c = true ↔ SeqLets t pn p c := by
  refine ⟨fun h => ?_, fun h => ?_⟩
  · intro hk k s hs hpar hpos
    have h' : (!(Nat.beq p.kind 4) || allB (fun j => match nodeAt t j with
        | some s => !(Nat.beq s.parent pn) || !(Nat.ble (s.pos + 1) c.pos) || completeAt t j
        | none => true) (positions 1 t)) = true := h
    rw [hk] at h'
    have ⟨m, ek, hm⟩ := posOfNode hs
    have r := allBPosOf _ t 1 h' m hm
    rw [← ek, hs] at r
    have hp' : Nat.beq s.parent pn = true := by rw [hpar]; exact beqSelf pn
    have hq : Nat.ble (s.pos + 1) c.pos = true := hpos
    refine (completeAtIff hwf k).1 (boolOr3 r ?_ ?_)
    · rw [hp']; rfl
    · rw [hq]; rfl
  · show (!(Nat.beq p.kind 4) || allB (fun j => match nodeAt t j with
        | some s => !(Nat.beq s.parent pn) || !(Nat.ble (s.pos + 1) c.pos) || completeAt t j
        | none => true) (positions 1 t)) = true
    cases hk : Nat.beq p.kind 4 with
    | false => rfl
    | true =>
      refine allBPos _ t 1 (fun m _ => ?_)
      cases hs : nodeAt t (1 + m) with
      | none => rfl
      | some s =>
        show (!(Nat.beq s.parent pn) || !(Nat.ble (s.pos + 1) c.pos) || completeAt t (1 + m)) = true
        cases hp : Nat.beq s.parent pn with
        | false => rfl
        | true =>
          cases hq : Nat.ble (s.pos + 1) c.pos with
          | false => rfl
          | true =>
            rw [(completeAtIff hwf (1 + m)).2 (h (Nat.eqOfBeqEqTrue hk) _ s hs (Nat.eqOfBeqEqTrue hp) hq)]
            rfl

-- addr(T) --------------------------------------------------------------------------------------------------

/-- A position the walk accepts is in `addr(T)`. -/
theorem addrUpAddr {t : Tree} (hwf : ParentsBefore t) : ∀ (f j : Nat), addrUp f t j = true → Addr t j
  | 0, _, h => Bool.noConfusion h
  | f + 1, j, h => by
    cases hc : nodeAt t j with
    | none =>
      have e : addrUp (f + 1) t j = false := by simp only [addrUp, hc] <;> rfl
      rw [e] at h
      exact Bool.noConfusion h
    | some c =>
      cases hpar : c.parent with
      | zero => exact Addr.root hc hpar
      | succ pn =>
        cases hp : nodeAt t (pn + 1) with
        | none =>
          rw [addrUpNone f t _ c pn hc hpar hp] at h
          exact Bool.noConfusion h
        | some p =>
          rw [addrUpStep f t _ c p pn hc hpar hp] at h
          have ⟨h12, h3⟩ := andTrue h
          have ⟨h1, h2⟩ := andTrue h12
          exact Addr.child hc hpar hp (armOkLets h1) ((seqOkIff hwf _ p c).1 h2) (addrUpAddr hwf f _ h3)

/-- The walk accepts every position of `addr(T)`, with fuel at least the position. -/
theorem addrAddrUp {t : Tree} (hwf : ParentsBefore t) {j : Nat} (h : Addr t j) : ∀ f, j ≤ f → addrUp f t j = true := by
  induction h with
  | root hc hpar =>
    intro f hf
    have ⟨m, ek, _, _⟩ := nodeAtPos hc
    cases f with
    | zero => rw [ek] at hf; exact absurd hf (Nat.notSuccLeZero _)
    | succ f => exact addrUpRoot f t _ _ hc hpar
  | child hc hpar hp hl hs ha ih =>
    intro f hf
    have hlt := hwf _ _ hc
    rw [hpar] at hlt
    cases f with
    | zero =>
      have ⟨m, ek, _, _⟩ := nodeAtPos hc
      rw [ek] at hf
      exact absurd hf (Nat.notSuccLeZero _)
    | succ f =>
      rw [addrUpStep f t _ _ _ _ hc hpar hp, letsArmOk hl, (seqOkIff hwf _ _ _).2 hs,
        ih f (Nat.leOfLtSucc (Nat.ltOfLtOfLe hlt hf))]
      rfl

/-- On a tree whose parents precede their children, the executable walk accepts a position exactly when
it is in the declarative `addr(T)`. -/
theorem addrUpIffAddr {t : Tree} (hwf : ParentsBefore t) (j : Nat) (hj : j ≤ List.length t) :
    addrUp (List.length t) t j = true ↔ Addr t j :=
  ⟨addrUpAddr hwf _ j, fun h => addrAddrUp hwf h _ hj⟩

/-- On a tree whose parents precede their children, `b` is current (`currentB`) exactly when the leaf
named `b` is in the declarative `addr(T)`. -/
theorem currentBIffAddr {t : Tree} (hwf : ParentsBefore t) (b : Nat) :
    currentB t b = true ↔ ∃ j, findLeaf b 1 t = some j ∧ Addr t j := by
  cases hf : findLeaf b 1 t with
  | none =>
    refine ⟨fun h => ?_, fun ⟨j, hj, _⟩ => Option.noConfusion hj⟩
    simp only [currentB, hf] at h
  | some j =>
    have ⟨i, n, ej, hn, _, _⟩ := findLeafSplit b t 1 j hf
    have hle : j ≤ List.length t := by
      rw [ej, Nat.add_comm]
      exact nthSome t i n hn
    have e : currentB t b = addrUp (List.length t) t j := by simp only [currentB, hf] <;> rfl
    rw [e]
    refine ⟨fun h => ⟨j, rfl, (addrUpIffAddr hwf j hle).1 h⟩, fun ⟨j', hj', ha⟩ => ?_⟩
    cases Option.some.inj hj'
    exact (addrUpIffAddr hwf j hle).2 ha

/-- On every reached tree, `b` is current exactly when the leaf named `b` is in `addr(T)`. -/
theorem currentBIffAddrReached {tab : Core → Nat → Option (Derived × TEdit)} {t : Tree} (hr : Reached tab t)
    (b : Nat) : currentB t b = true ↔ ∃ j, findLeaf b 1 t = some j ∧ Addr t j :=
  currentBIffAddr (reachedParentsBefore hr) b

/-- On a reached tree, after a Fork of a current branch with no sequence above it, both fresh arms are
named leaves of the declarative `addr(T')`. -/
theorem forkArmsInAddr {tab : Core → Nat → Option (Derived × TEdit)} {t t' : Tree} {par : Bool}
    {b g bl br : Nat} {gl gr : List Pomset} (hr : Reached tab t)
    (h : applyEdit t (TEdit.fork par b g bl br gl gr) = some t') (hs : seqFreeAboveLeaf t b = true) :
    (∃ j, findLeaf bl 1 t' = some j ∧ Addr t' j) ∧ (∃ j, findLeaf br 1 t' = some j ∧ Addr t' j) := by
  have hwf' := applyEditParentsBefore h (reachedParentsBefore hr)
  have ⟨hl, hr'⟩ := forkArmsCurrentReached hr h hs
  exact ⟨(currentBIffAddr hwf' bl).1 hl, (currentBIffAddr hwf' br).1 hr'⟩

theorem iffOfEqB {a b : Bool} {P Q : Prop} (e : a = b) (ha : a = true ↔ P) (hb : b = true ↔ Q) : P ↔ Q :=
  ⟨fun p => hb.1 (e ▸ ha.2 p), fun q => ha.1 (e.symm ▸ hb.2 q)⟩

/-- On a reached tree, after a MergeSelect of a current choice group with no sequence above it, `b_J` is a
named leaf of the declarative `addr(T')` exactly when the new sequence lets it through (`SeqLets`: its
earlier part, the kept arm, is complete). -/
theorem selectLeafInAddr {tab : Core → Nat → Option (Derived × TEdit)} {t t' : Tree} {g arm bj : Nat}
    {gj : List Pomset} (hr : Reached tab t) (h : applyEdit t (TEdit.select g arm bj gj) = some t')
    (hs : seqFreeAboveGroup t g = true) :
    ∃ i n, currentGroupAt t g = some (i + 1, n) ∧
      ((∃ j, findLeaf bj 1 t' = some j ∧ Addr t' j) ↔
        SeqLets t' (i + 1) ⟨0, 4, n.parent, n.pos, 0, [], []⟩ (newLeaf bj (i + 1) 1 gj)) := by
  have hwf' := applyEditParentsBefore h (reachedParentsBefore hr)
  have ⟨i, n, hc, e⟩ := selectJoinCurrentReached hr h hs
  exact ⟨i, n, hc, iffOfEqB e (currentBIffAddr hwf' bj) (seqOkIff hwf' _ _ _)⟩

/-- On a reached tree, after a MergeJoin of a current parallel group with no sequence above it, `b_J` is a
named leaf of the declarative `addr(T')` exactly when the new sequence lets it through (its earlier part,
the join barrier, is complete). -/
theorem joinLeafInAddr {tab : Core → Nat → Option (Derived × TEdit)} {t t' : Tree} {g bj : Nat}
    {gj : List Pomset} (hr : Reached tab t) (h : applyEdit t (TEdit.join g bj gj) = some t')
    (hs : seqFreeAboveGroup t g = true) :
    ∃ i n, currentGroupAt t g = some (i + 1, n) ∧
      ((∃ j, findLeaf bj 1 t' = some j ∧ Addr t' j) ↔
        SeqLets t' (i + 1) ⟨0, 4, n.parent, n.pos, 0, [], []⟩ (newLeaf bj (i + 1) 1 gj)) := by
  have hwf' := applyEditParentsBefore h (reachedParentsBefore hr)
  have ⟨i, n, hc, e⟩ := joinJoinCurrentReached hr h hs
  exact ⟨i, n, hc, iffOfEqB e (currentBIffAddr hwf' bj) (seqOkIff hwf' _ _ _)⟩

/-- Exact Checkpoint against the declarative `addr(T)`: on a record whose tree has parents before
children (every reached record's, on either machine), `Checkpoint(k, b)` is accepted exactly when rules
are in force, `k` is fresh among the tree's names and the checkpoints, and the leaf named `b` is in
`addr(T)`. -/
theorem checkpointExactAddr {c : Core} (hwf : ParentsBefore c.tree) (k b : Nat) :
    (checkpoint c k b).1 = Obs.saved k ↔
      (c.eta ≠ none ∧ memB k c.names = false ∧ memB k c.ckpts = false ∧
        ∃ j, findLeaf b 1 c.tree = some j ∧ Addr c.tree j) := by
  rw [← currentBIffAddr hwf b]
  exact (checkpointExact c k b).1

end AgentWarrant.Edits.Machine
