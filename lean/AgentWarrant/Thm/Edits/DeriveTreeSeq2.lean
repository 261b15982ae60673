import AgentWarrant.Thm.Edits.DeriveTreeSeq
import AgentWarrant.Thm.Edits.DeriveTreeAddr
/-! The new leaves' currency with a sequence above the edited node (*When Can Agents Safely Checkpoint,
Fork, Restore, and Merge?*, Section IV-B1 and Table I): on a tree in preorder (`ParentsBefore` and
`NoCross`), a splice `𝓔[new]` at a position in the declarative `addr(T)` (`Addr`) whose head keeps the
replaced node's parent and place, the rest of the new nodes hanging below it, leaves that position in
`addr(T')` (`spliceAddr`).

How the sequences above are carried across: the path up from the edited position reads only kept
nodes; a sequence on it lets its part through when every earlier part is complete, and an earlier part
(a sibling of a node on the path, with a smaller place) sits either before the path node — then, by
preorder, everything below it sits before the path node too, in the kept prefix (`preBelow`) — or after
the replaced subtree, where `spliceAt` moved it and everything below it by one constant, its parent links
shifted with it (`spliceSuffix`, from `afterRunParent`), so that what lies below it, and each leaf's
remaining work, is the same (`sufBelow`, `sufComplete`). No new node is such a part: the head has the
replaced node's place, and the others hang below it.

Choices: the transfer is stated on `Addr`, not on the fuelled walk `addrUp`, and read back through
`currentBIffAddr`; it needs preorder of both trees, which every run from a root whose tree has it keeps
(`ReachedPre`, `Thm/Edits/DeriveTreeSeq.lean`). -/
namespace AgentWarrant.Edits.Machine
open AgentWarrant AgentWarrant.Edits

-- arithmetic ------------------------------------------------------------------------------------------------

theorem addCancelL : ∀ (k a b : Nat), k + a = k + b → a = b
  | 0, a, b, h => by rw [Nat.zero_add, Nat.zero_add] at h; exact h
  | k + 1, a, b, h => by
    rw [Nat.succ_add, Nat.succ_add] at h
    exact addCancelL k a b (Nat.succ.inj h)

theorem sh1 (a b c : Nat) : a + 1 + b + c = a + b + c + 1 := by
  rw [Nat.add_right_comm a 1 b, Nat.add_right_comm (a + b) 1 c]

theorem sh2 (a m e : Nat) : a + m + 1 + 1 + e = a + (m + 1 + e) + 1 := by
  rw [Nat.add_right_comm (a + m + 1) 1 e, Nat.add_assoc (a + m) 1 e, Nat.add_assoc a m (1 + e),
    Nat.add_assoc m 1 e]

theorem leAdd3 (i a b : Nat) : i + 1 ≤ i + a + b + 1 :=
  Nat.succLeSucc (Nat.leTrans (Nat.leAddRight i a) (Nat.leAddRight (i + a) b))

-- descent ---------------------------------------------------------------------------------------------------

theorem descLe {t : Tree} (hpb : ParentsBefore t) {q x : Nat} (h : Desc t q x) : q ≤ x := by
  induction h with
  | self => exact Nat.leRefl _
  | step hc _ ih => exact Nat.leTrans ih (Nat.leOfSuccLe (hpb _ _ hc))

theorem descTrans {t : Tree} {a b z : Nat} (h1 : Desc t a z) (h2 : Desc t b a) : Desc t b z := by
  induction h1 with
  | self => exact h2
  | step hc _ ih => exact Desc.step hc ih

/-- A node below `q` whose parent lies before `q` is `q` itself. -/
theorem descParentLt {t : Tree} (hpb : ParentsBefore t) {q x : Nat} {s : TNode} (h : Desc t q x)
    (hs : nodeAt t x = some s) (hlt : s.parent < q) : x = q := by
  cases h with
  | self => rfl
  | step hc hd =>
    rw [hs] at hc
    have e := Option.some.inj hc
    subst e
    exact absurd (Nat.ltOfLtOfLe hlt (descLe hpb hd)) (Nat.ltIrrefl _)

theorem belowDesc {t : Tree} {n k : Nat} (h : Below t n k) : Desc t n k := by
  induction h with
  | here => exact Desc.self
  | up hc _ _ _ ih => exact Desc.step hc ih

-- the splice's regions --------------------------------------------------------------------------------------

/-- Two nodes alike but for their parent: what `Lets`, `SeqLets`' places and `Complete` read. -/
def Like (y z : TNode) : Prop := y.kind = z.kind ∧ y.sel = z.sel ∧ y.pos = z.pos ∧ leafDone y = leafDone z

theorem splicePre (t : Tree) (i : Nat) (new : Tree) (hi : i ≤ List.length t) :
    ∀ x, x < i + 1 → nodeAt (spliceAt t (i + 1) new) x = nodeAt t x
  | 0, _ => rfl
  | k + 1, h => spliceBefore t i new k (Nat.leOfSuccLeSucc h) hi

theorem spliceMid (t : Tree) (i : Nat) (new : Tree) (hi : i ≤ List.length t) (m : Nat)
    (hm : m < List.length new) : nodeAt (spliceAt t (i + 1) new) (i + m + 1) = nthNode new m := by
  show nthNode (takeN i t ++ new ++ _) (i + m) = nthNode new m
  rw [List.append_assoc]
  have key : ∀ rest : Tree, nthNode (takeN i t ++ (new ++ rest)) (i + m) = nthNode new m := fun rest => by
    have e := nthAppendR (takeN i t) (new ++ rest) m
    rw [takeNLen i t hi] at e
    rw [e, nthAppendL _ _ m hm]
  exact key _

/-- A node after the replaced subtree is a node of `T` moved by the size difference, alike but for its
parent, which is kept (before the subtree) or moved with it (after the subtree). -/
theorem spliceSuffix (t : Tree) (i : Nat) (new : Tree) (hnc : NoCross t) (hi : i ≤ List.length t) (m : Nat)
    (y : TNode) (h : nodeAt (spliceAt t (i + 1) new) (i + List.length new + m + 1) = some y) :
    ∃ z, nodeAt t (i + 1 + runLen (i + 1) (dropN (i + 1) t) + m + 1) = some z ∧ Like y z ∧
      ((z.parent < i + 1 ∧ y.parent = z.parent) ∨
        ∃ d, z.parent = i + 1 + runLen (i + 1) (dropN (i + 1) t) + 1 + d ∧
          y.parent = i + 1 + List.length new + d) := by
  have e : List.length (takeN (i + 1 - 1) t ++ new) = i + List.length new := by
    rw [lengthApp]
    rw [show takeN (i + 1 - 1) t = takeN i t from rfl, takeNLen i t hi]
  have h' : nthNode (takeN (i + 1 - 1) t ++ new ++ _) (i + List.length new + m) = some y := h
  rw [← e, nthAppendR] at h'
  have ⟨z, hz, ey⟩ := nthMap _ _ m y h'
  rw [nthDrop, nthDrop, ← Nat.add_assoc] at hz
  refine ⟨z, hz, ?_, ?_⟩
  · subst ey
    cases Nat.ble (i + 1) z.parent <;> exact ⟨rfl, rfl, rfl, rfl⟩
  · refine suffixParent hnc i _ _ m rfl z y hz ?_
    subst ey
    cases hb : Nat.ble (i + 1) z.parent with
    | false => exact Or.inl ⟨bleFalse hb, rfl⟩
    | true => exact Or.inr ⟨hb, rfl⟩

-- what lies below a moved or kept node ---------------------------------------------------------------------

/-- Below a node of the kept prefix, a path that stays in the prefix is a path of `T`. -/
theorem preBelow {t t' : Tree} {i : Nat} (hpre : ∀ x, x < i + 1 → nodeAt t' x = nodeAt t x)
    (hpb' : ParentsBefore t') {k x : Nat} (h : Below t' k x) : x < i + 1 → Below t k x := by
  induction h with
  | here => intro _; exact Below.here
  | up hc hp hl _ ih =>
    intro hx
    have hlt := hpb' _ _ hc
    rw [hpre _ hx] at hc
    rw [hpre _ (Nat.ltTrans hlt hx)] at hp
    exact Below.up hc hp hl (ih (Nat.ltTrans hlt hx))

/-- Below a moved node, every path is a moved path of `T`. -/
theorem sufBelow {t t' : Tree} {i L K : Nat} (hpb' : ParentsBefore t')
    (hsuf : ∀ m y, nodeAt t' (i + L + m + 1) = some y → ∃ z, nodeAt t (i + 1 + K + m + 1) = some z ∧ Like y z ∧
      ((z.parent < i + 1 ∧ y.parent = z.parent) ∨ ∃ d, z.parent = i + 1 + K + 1 + d ∧ y.parent = i + 1 + L + d))
    (m : Nat) {x : Nat} (h : Below t' (i + L + m + 1) x) :
    ∃ m2, x = i + L + m2 + 1 ∧ Below t (i + 1 + K + m + 1) (i + 1 + K + m2 + 1) := by
  induction h with
  | here => exact ⟨m, rfl, Below.here⟩
  | @up k c p hc hp hl _ ih =>
    have ⟨m3, e3, hb3⟩ := ih
    have hlt := hpb' _ _ hc
    rw [e3] at hlt
    have ⟨e, ee0⟩ := Nat.le.dest hlt
    have ee : i + L + m3 + 1 + 1 + e = k := ee0
    rw [sh2] at ee
    rw [← ee] at hc
    refine ⟨m3 + 1 + e, ee.symm, ?_⟩
    have ⟨z, hz, hlz, hzp⟩ := hsuf _ c hc
    rw [e3] at hp
    have ⟨zp, hzp', hlp, _⟩ := hsuf _ p hp
    cases hzp with
    | inl q =>
      have h1 := q.1
      rw [← q.2, e3] at h1
      exact absurd (Nat.ltOfLtOfLe h1 (leAdd3 i L m3)) (Nat.ltIrrefl _)
    | inr q =>
      have ⟨d, ez, ec⟩ := q
      rw [e3, sh1] at ec
      have ed : m3 = d := addCancelL (i + L) m3 d (Nat.succ.inj ec)
      subst ed
      have ez' : z.parent = i + 1 + K + m3 + 1 := by rw [ez, Nat.add_right_comm (i + 1 + K) 1 m3]
      have hlets : Lets zp z := by
        intro hk
        rw [← hlp.1] at hk
        rw [← hlp.2.1, ← hlz.2.2.1]
        exact hl hk
      exact Below.up hz (by rw [ez']; exact hzp') hlets (by rw [ez']; exact hb3)

/-- A moved node is complete in `T'` when it was in `T`. -/
theorem sufComplete {t t' : Tree} {i L K : Nat} (hpb' : ParentsBefore t')
    (hsuf : ∀ m y, nodeAt t' (i + L + m + 1) = some y → ∃ z, nodeAt t (i + 1 + K + m + 1) = some z ∧ Like y z ∧
      ((z.parent < i + 1 ∧ y.parent = z.parent) ∨ ∃ d, z.parent = i + 1 + K + 1 + d ∧ y.parent = i + 1 + L + d))
    (m : Nat) (hc : Complete t (i + 1 + K + m + 1)) : Complete t' (i + L + m + 1) := by
  intro x l hx hk hb
  have ⟨m2, ex, hb2⟩ := sufBelow hpb' hsuf m hb
  rw [ex] at hx
  have ⟨z, hz, hlz, _⟩ := hsuf m2 l hx
  rw [hlz.2.2.2]
  exact hc _ z hz (hlz.1.symm.trans hk) hb2

-- the transfer ----------------------------------------------------------------------------------------------

theorem sh3 (i e : Nat) : i + 1 + 1 + e = i + (e + 1) + 1 := by
  rw [sh1, Nat.add_assoc i 1 e, Nat.add_comm 1 e]

/-- A position of `addr(T)` on the path up from the edited position `i + 1` is in `addr(T')`, when `T'` keeps
the nodes before `i + 1`, puts at `i + 1` a node with the replaced node's parent and place, hangs the
other new nodes below it, and moves the nodes after the replaced subtree by one constant (`hsuf`). -/
theorem addrKeep {t t' : Tree} {i L K : Nat} {n G : TNode} (hpb : ParentsBefore t) (hnc : NoCross t)
    (hpb' : ParentsBefore t') (hnc' : NoCross t')
    (hpre : ∀ x, x < i + 1 → nodeAt t' x = nodeAt t x)
    (hn : nodeAt t (i + 1) = some n) (hG : nodeAt t' (i + 1) = some G) (hGp : G.parent = n.parent)
    (hGpos : G.pos = n.pos)
    (hmid : ∀ x y, nodeAt t' x = some y → i + 1 < x → x < i + 1 + L → i + 1 ≤ y.parent)
    (hsuf : ∀ m y, nodeAt t' (i + L + m + 1) = some y → ∃ z, nodeAt t (i + 1 + K + m + 1) = some z ∧ Like y z ∧
      ((z.parent < i + 1 ∧ y.parent = z.parent) ∨ ∃ d, z.parent = i + 1 + K + 1 + d ∧ y.parent = i + 1 + L + d))
    {p : Nat} (ha : Addr t p) : Desc t p (i + 1) → Addr t' p := by
  induction ha with
  | @root j c hc hpar =>
    intro hd
    cases Nat.eqOrLtOfLe (descLe hpb hd) with
    | inl e =>
      subst e
      rw [hn] at hc
      have e2 := Option.some.inj hc
      subst e2
      exact Addr.root hG (hGp.trans hpar)
    | inr hlt => exact Addr.root (by rw [hpre _ hlt]; exact hc) hpar
  | @child j pn c p hc hpar hp hl hs _ ih =>
    intro hd
    have hle := descLe hpb hd
    have hjp : pn + 1 < j := by have r := hpb _ _ hc; rw [hpar] at r; exact r
    have hdp : Desc t (pn + 1) (i + 1) := descTrans hd (Desc.step hc (by rw [hpar]; exact Desc.self))
    have hp' : nodeAt t' (pn + 1) = some p := by rw [hpre _ (Nat.ltOfLtOfLe hjp hle)]; exact hp
    have ⟨c', hc', hpar', hpos'⟩ : ∃ c', nodeAt t' j = some c' ∧ c'.parent = c.parent ∧ c'.pos = c.pos := by
      cases Nat.eqOrLtOfLe hle with
      | inl e =>
        subst e
        rw [hn] at hc
        have e2 := Option.some.inj hc
        subst e2
        exact ⟨G, hG, hGp, hGpos⟩
      | inr hlt => exact ⟨c, by rw [hpre _ hlt]; exact hc, rfl, rfl⟩
    refine Addr.child hc' (hpar'.trans hpar) hp' (fun hk => by rw [hpos']; exact hl hk) ?_ (ih hdp)
    intro hk k s hks hsp hspos
    rw [hpos'] at hspos
    have hpi : pn + 1 < i + 1 := Nat.ltOfLtOfLe hjp hle
    cases Nat.ltOrGe k (i + 1) with
    | inl hk1 =>
      -- an earlier part in the kept prefix: it, and all below it, come before the path node
      have hks0 : nodeAt t k = some s := by rw [← hpre _ hk1]; exact hks
      have hct := hs hk k s hks0 hsp hspos
      have hkj : k < j := by
        cases Nat.ltOrGe k j with
        | inl h => exact h
        | inr h => cases Nat.eqOrLtOfLe h with
          | inl e =>
            subst e
            rw [hc'] at hks
            have e2 := Option.some.inj hks
            subst e2
            rw [hpos'] at hspos
            exact absurd hspos (Nat.ltIrrefl _)
          | inr h2 =>
            have hdk := noCrossContiguous hpb hnc j (i + 1) hd k s hks0 h2 hk1
            have e := descParentLt hpb hdk hks0 (by rw [hsp]; exact hjp)
            rw [e] at h2
            exact absurd h2 (Nat.ltIrrefl _)
      have hbel : ∀ x, Below t' k x → x < j := by
        intro x hb
        have hdx := belowDesc hb
        have hsk : s.parent < k := hpb' _ _ hks
        cases Nat.ltOrGe x j with
        | inl h => exact h
        | inr h =>
          have hdj : Desc t' k j := by
            cases Nat.eqOrLtOfLe h with
            | inl e => rw [e]; exact hdx
            | inr h2 => exact noCrossContiguous hpb' hnc' k x hdx j c' hc' hkj h2
          have hcp : c'.parent < k := by rw [hpar', hpar, ← hsp]; exact hsk
          have e := descParentLt hpb' hdj hc' hcp
          rw [e] at hkj
          exact absurd hkj (Nat.ltIrrefl _)
      intro x l hx hl hb
      have hx1 : x < i + 1 := Nat.ltOfLtOfLe (hbel x hb) hle
      rw [hpre _ hx1] at hx
      exact hct x l hx hl (preBelow hpre hpb' hb hx1)
    | inr hk1 => cases Nat.eqOrLtOfLe hk1 with
      | inl ek =>
        -- the head of the new nodes has the replaced node's place: not an earlier part
        subst ek
        rw [hG] at hks
        have e2 := Option.some.inj hks
        subst e2
        cases Nat.eqOrLtOfLe hle with
        | inl e =>
          subst e
          rw [hG] at hc'
          have e3 := Option.some.inj hc'
          subst e3
          rw [hpos'] at hspos
          exact absurd hspos (Nat.ltIrrefl _)
        | inr hlt =>
          have e := descParentLt hpb hd hn (by rw [← hGp, hsp]; exact hjp)
          rw [e] at hlt
          exact absurd hlt (Nat.ltIrrefl _)
      | inr hk2 => cases Nat.ltOrGe k (i + 1 + L) with
        | inl hk3 =>
          have h1 := hmid k s hks hk2 hk3
          rw [hsp] at h1
          exact absurd (Nat.ltOfLtOfLe hpi h1) (Nat.ltIrrefl _)
        | inr hk3 =>
          -- an earlier part after the replaced subtree: moved, with everything below it
          have ⟨e, ee⟩ := Nat.le.dest hk3
          rw [sh1] at ee
          rw [← ee] at hks
          have ⟨z, hz, hlz, hzp⟩ := hsuf e s hks
          cases hzp with
          | inl q =>
            have hzpos : z.pos < c.pos := by rw [← hlz.2.2.1]; exact hspos
            have hct := hs hk _ z hz (q.2.symm.trans hsp) hzpos
            rw [← ee]
            exact sufComplete hpb' hsuf e hct
          | inr q =>
            have ⟨d, _, es⟩ := q
            have h1 := hpi
            rw [← hsp, es] at h1
            exact absurd (Nat.ltOfLtOfLe h1 (Nat.leTrans (Nat.leAddRight _ L) (Nat.leAddRight _ d)))
              (Nat.ltIrrefl _)

/-- `𝓔[new]` at a position of `addr(T)`, on a tree in preorder that it keeps in preorder, leaves the position
in `addr(T')` when the head of `new` has the replaced node's parent and place and the rest hang below it. -/
theorem spliceAddr (t : Tree) (i : Nat) (new : Tree) (n G : TNode) (hpb : ParentsBefore t) (hnc : NoCross t)
    (hpb' : ParentsBefore (spliceAt t (i + 1) new)) (hnc' : NoCross (spliceAt t (i + 1) new))
    (hn : nodeAt t (i + 1) = some n) (h0 : nthNode new 0 = some G) (hGp : G.parent = n.parent)
    (hGpos : G.pos = n.pos) (hrest : ∀ m y, nthNode new (m + 1) = some y → i + 1 ≤ y.parent)
    (ha : Addr t (i + 1)) : Addr (spliceAt t (i + 1) new) (i + 1) := by
  have hi := nodeAtLe hn
  have hG : nodeAt (spliceAt t (i + 1) new) (i + 1) = some G := spliceNew t i new 0 G hi h0
  refine addrKeep (L := List.length new) (K := runLen (i + 1) (dropN (i + 1) t)) hpb hnc hpb' hnc'
    (splicePre t i new hi) hn hG hGp hGpos ?_ (spliceSuffix t i new hnc hi) ha Desc.self
  intro x y hx h1 h2
  have ⟨e, ee0⟩ := Nat.le.dest h1
  have ee : i + 1 + 1 + e = x := ee0
  rw [sh3] at ee
  subst ee
  rw [Nat.add_right_comm i 1 (List.length new)] at h2
  have h3 : i + (e + 1) < i + List.length new := Nat.leOfSuccLeSucc h2
  have hm : e + 1 < List.length new := leCancelL i (e + 1 + 1) _ (show i + (e + 1 + 1) ≤ i + List.length new from h3)
  rw [spliceMid t i new hi (e + 1) hm] at hx
  exact hrest e y hx

-- the rows ------------------------------------------------------------------------------------------------

theorem pairLe (L R : TNode) (q : Nat) (hL : q ≤ L.parent) (hR : q ≤ R.parent) :
    ∀ m y, nthNode [L, R] m = some y → q ≤ y.parent
  | 0, y, h => by have e : L = y := Option.some.inj h; rw [← e]; exact hL
  | 1, y, h => by have e : R = y := Option.some.inj h; rw [← e]; exact hR
  | m + 2, _, h => Option.noConfusion h

theorem nilLe (q : Nat) : ∀ m y, nthNode ([] : Tree) m = some y → q ≤ y.parent :=
  fun _ _ h => Option.noConfusion h

/-- A Merge's new nodes after the sequence (the kept root, the moved subtree, `b_J`) hang below it. -/
theorem seqRest (i : Nat) (S R L : TNode) (M : Tree) (hR : R.parent = i + 1) (hL : L.parent = i + 1)
    (hM : ∀ m y, nthNode M m = some y → ∃ d, y.parent = i + 1 + 1 + d) :
    ∀ m y, nthNode (S :: R :: M ++ [L]) (m + 1) = some y → i + 1 ≤ y.parent := by
  intro m y h
  cases seqClass S R L M (m + 1) y h with
  | inl c => exact absurd c.1 (fun e => Nat.noConfusion e)
  | inr c => cases c with
    | inl c => rw [c.2, hR]; exact Nat.leRefl _
    | inr c => cases c with
      | inl c =>
        have ⟨k, _, hk⟩ := c
        have ⟨d, e⟩ := hM k y hk
        rw [e]
        exact Nat.leTrans (Nat.leSucc _) (Nat.leAddRight _ d)
      | inr c => rw [c.2, hL]; exact Nat.leRefl _

theorem leafAddr {t : Tree} {b i : Nat} {n : TNode} (hpb : ParentsBefore t)
    (hc : currentLeafAt t b = some (i + 1, n)) : Addr t (i + 1) := by
  have ⟨hcur, hfb, _⟩ := currentLeafAtSome hc
  have ⟨j, hj, ha⟩ := (currentBIffAddr hpb b).1 hcur
  rw [hfb] at hj
  have e := Option.some.inj hj
  subst e
  exact ha

theorem groupAddr {t : Tree} {g i : Nat} {n : TNode} (hpb : ParentsBefore t)
    (hc : currentGroupAt t g = some (i + 1, n)) : Addr t (i + 1) := by
  have ⟨_, hw, hj⟩ := currentGroupAtSome hc
  exact (addrUpIffAddr hpb (i + 1) (nodeLe hj)).1 hw

/-- After a Fork of a current branch of a tree in preorder, the new group is in `addr(T')`. -/
theorem forkGroupAddr {t t' : Tree} {par : Bool} {b g bl br : Nat} {gl gr : List Pomset}
    (h : applyEdit t (TEdit.fork par b g bl br gl gr) = some t') (hpb : ParentsBefore t) (hnc : NoCross t) :
    ∃ i n, currentLeafAt t b = some (i + 1, n) ∧ Addr t' (i + 1) := by
  have hpb' := applyEditParentsBefore h hpb
  have hnc' := applyEditNoCross h hpb hnc
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
      exact ⟨i, n, rfl, spliceAddr t i _ n _ hpb hnc hpb' hnc' hj rfl rfl rfl
        (pairLe _ _ _ (Nat.leRefl _) (Nat.leRefl _)) (leafAddr hpb hc)⟩

theorem kindLt (k : Nat) (h : k = 4) (hk : k < 3) : False := by
  subst h
  exact absurd hk (by decide)

/-- After a Fork of a current branch `b`, both fresh arms are current in `T'`, on a tree in preorder
(parents before children, `NoCross`), whatever sequences lie above `b`. -/
theorem forkArmsCurrentPre {t t' : Tree} {par : Bool} {b g bl br : Nat} {gl gr : List Pomset}
    (h : applyEdit t (TEdit.fork par b g bl br gl gr) = some t') (hpb : ParentsBefore t) (hnc : NoCross t) :
    currentB t' bl = true ∧ currentB t' br = true := by
  have hpb' := applyEditParentsBefore h hpb
  have ⟨i, n, hc, hfl, hfr⟩ := forkArmsFound h
  have ⟨i2, n2, hc2, _, hg, hL, hR⟩ := forkNodes h
  have ⟨i3, n3, hc3, ha⟩ := forkGroupAddr h hpb hnc
  rw [hc] at hc2 hc3
  have e := Option.some.inj hc2
  cases e
  have e := Option.some.inj hc3
  cases e
  refine ⟨(currentBIffAddr hpb' bl).2 ⟨_, hfl, ?_⟩, (currentBIffAddr hpb' br).2 ⟨_, hfr, ?_⟩⟩
  · exact Addr.child hL rfl hg (fun _ => Or.inl rfl) (fun hk => by
      cases par <;> first
        | exact False.elim (kindLt _ hk (by decide : (1 : Nat) < 3))
        | exact False.elim (kindLt _ hk (by decide : (2 : Nat) < 3))) ha
  · exact Addr.child hR rfl hg (fun _ => Or.inl rfl) (fun hk => by
      cases par <;> first
        | exact False.elim (kindLt _ hk (by decide : (1 : Nat) < 3))
        | exact False.elim (kindLt _ hk (by decide : (2 : Nat) < 3))) ha

/-- After a RestoreReplace of a current branch `b` of a tree in preorder, the fresh `b_k` is current in
`T'`, whatever sequences lie above `b`. -/
theorem restoreCurrentPre {t t' : Tree} {b g bk : Nat} {gk : List Pomset}
    (h : applyEdit t (TEdit.restore false b g bk gk) = some t') (hpb : ParentsBefore t) (hnc : NoCross t) :
    currentB t' bk = true := by
  have hpb' := applyEditParentsBefore h hpb
  have hnc' := applyEditNoCross h hpb hnc
  have ⟨i, n, hc, hG, _, hcur⟩ := restoreFreshCurrent h
  rw [hcur]
  refine (addrUpIffAddr hpb' (i + 1) (nodeLe hG)).2 ?_
  have h := (rowOf h).2
  have ⟨_, _, hj⟩ := currentLeafAtSome hc
  simp only [rowTree, hc] at h
  have e := applied h
  subst e
  exact spliceAddr t i _ n _ hpb hnc hpb' hnc' hj rfl rfl rfl (nilLe _) (leafAddr hpb hc)

/-- After a RestoreLive of a current branch `b` of a tree in preorder, both parts `b` and `b_k` of the new
parallel group are current in `T'`, whatever sequences lie above `b`. -/
theorem restoreLiveCurrentPre {t t' : Tree} {b g bk : Nat} {gk : List Pomset}
    (h : applyEdit t (TEdit.restore true b g bk gk) = some t') (hpb : ParentsBefore t) (hnc : NoCross t) :
    currentB t' b = true ∧ currentB t' bk = true := by
  have hpb' := applyEditParentsBefore h hpb
  have hnc' := applyEditNoCross h hpb hnc
  have ⟨i, n, f, hc, hlen, _, hcb, hck⟩ := restoreLiveCurrent h
  have ⟨i2, n2, hc2, _, _, _, hk2⟩ := restoreLiveNodes h
  rw [hc] at hc2
  have e := Option.some.inj hc2
  cases e
  have ⟨k, ek, hk, _⟩ := nodeAtPos hk2
  have ek' := Nat.succ.inj ek
  rw [hlen, ← ek'] at hk
  have hf : i + 2 ≤ f := Nat.leOfSuccLeSucc hk
  have ha : Addr t' (i + 1) := by
    have h := (rowOf h).2
    have ⟨_, _, hj⟩ := currentLeafAtSome hc
    simp only [rowTree, hc] at h
    have e := applied h
    subst e
    exact spliceAddr t i _ n _ hpb hnc hpb' hnc' hj rfl rfl rfl
      (pairLe _ _ _ (Nat.leRefl _) (Nat.leRefl _)) (leafAddr hpb hc)
  have hr := addrAddrUp hpb' ha f (Nat.leOfSuccLe hf)
  exact ⟨by rw [hcb]; exact hr, by rw [hck]; exact hr⟩

/-- After a MergeSelect of a current choice group of a tree in preorder, the new sequence is in `addr(T')`. -/
theorem selectSeqAddr {t t' : Tree} {g arm bj : Nat} {gj : List Pomset}
    (h : applyEdit t (TEdit.select g arm bj gj) = some t') (hpb : ParentsBefore t) (hnc : NoCross t) :
    ∃ i n, currentGroupAt t g = some (i + 1, n) ∧ Addr t' (i + 1) := by
  have hpb' := applyEditParentsBefore h hpb
  have hnc' := applyEditNoCross h hpb hnc
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
    exact ⟨i, n, hc, spliceAddr t i _ n ⟨0, 4, n.parent, n.pos, 0, [], []⟩ hpb hnc hpb' hnc' hj
      (by rw [List.cons_append]; rfl) rfl rfl (seqRest i _ _ _ _ rfl rfl (movedP t a _)) (groupAddr hpb hc)⟩

/-- After a MergeJoin of a current parallel group of a tree in preorder, the new sequence is in `addr(T')`. -/
theorem joinSeqAddr {t t' : Tree} {g bj : Nat} {gj : List Pomset}
    (h : applyEdit t (TEdit.join g bj gj) = some t') (hpb : ParentsBefore t) (hnc : NoCross t) :
    ∃ i n, currentGroupAt t g = some (i + 1, n) ∧ Addr t' (i + 1) := by
  have hpb' := applyEditParentsBefore h hpb
  have hnc' := applyEditNoCross h hpb hnc
  have ⟨j, n, hc, hk⟩ := joinCurrent h
  have ⟨_, _, hj⟩ := currentGroupAtSome hc
  have ⟨i, ei, _, _⟩ := nodeAtPos hj
  subst ei
  have hk' : Nat.beq n.kind 2 = true := by rw [hk]; rfl
  have h := (rowOf h).2
  simp only [rowTree, hc, hk'] at h
  have e := applied h
  subst e
  exact ⟨i, n, hc, spliceAddr t i _ n ⟨0, 4, n.parent, n.pos, 0, [], []⟩ hpb hnc hpb' hnc' hj
    (by rw [List.cons_append]; rfl) rfl rfl (seqRest i _ _ _ _ rfl rfl (movedP t (i + 1) _)) (groupAddr hpb hc)⟩

/-- After a MergeSelect of a current choice group `g` of a tree in preorder, `b_J` is current in `T'`
exactly when the kept arm is complete, whatever sequences lie above `g`. -/
theorem selectJoinCurrentPre {t t' : Tree} {g arm bj : Nat} {gj : List Pomset}
    (h : applyEdit t (TEdit.select g arm bj gj) = some t') (hpb : ParentsBefore t) (hnc : NoCross t) :
    ∃ i n, currentGroupAt t g = some (i + 1, n) ∧
      currentB t' bj = seqOk t' (i + 1) ⟨0, 4, n.parent, n.pos, 0, [], []⟩ (newLeaf bj (i + 1) 1 gj) := by
  have hpb' := applyEditParentsBefore h hpb
  have ⟨i, n, p, f, hc, _, _, _, _, hlen, hcur⟩ := selectJoinCurrent h
  have ⟨i2, n2, a, c, m, hc2, _, _, _, _, _, h1, _⟩ := selectNodes h
  have ⟨i3, n3, hc3, ha⟩ := selectSeqAddr h hpb hnc
  rw [hc] at hc2 hc3
  have e := Option.some.inj hc2
  cases e
  have e := Option.some.inj hc3
  cases e
  have ⟨k, ek, hk1, _⟩ := nodeAtPos h1
  have ek' := Nat.succ.inj ek
  rw [hlen, ← ek'] at hk1
  have hf : i + 1 ≤ f := Nat.leOfSuccLeSucc hk1
  exact ⟨i, n, hc, by rw [hcur, addrAddrUp hpb' ha f hf, andTrueR]⟩

/-- After a MergeJoin of a current parallel group `g` of a tree in preorder, `b_J` is current in `T'`
exactly when the join barrier is complete, whatever sequences lie above `g`. -/
theorem joinJoinCurrentPre {t t' : Tree} {g bj : Nat} {gj : List Pomset}
    (h : applyEdit t (TEdit.join g bj gj) = some t') (hpb : ParentsBefore t) (hnc : NoCross t) :
    ∃ i n, currentGroupAt t g = some (i + 1, n) ∧
      currentB t' bj = seqOk t' (i + 1) ⟨0, 4, n.parent, n.pos, 0, [], []⟩ (newLeaf bj (i + 1) 1 gj) := by
  have hpb' := applyEditParentsBefore h hpb
  have ⟨i, n, p, f, hc, _, _, _, _, hlen, hcur⟩ := joinJoinCurrent h
  have ⟨i2, n2, m, hc2, _, _, _, h1, _⟩ := joinNodes h
  have ⟨i3, n3, hc3, ha⟩ := joinSeqAddr h hpb hnc
  rw [hc] at hc2 hc3
  have e := Option.some.inj hc2
  cases e
  have e := Option.some.inj hc3
  cases e
  have ⟨k, ek, hk1, _⟩ := nodeAtPos h1
  have ek' := Nat.succ.inj ek
  rw [hlen, ← ek'] at hk1
  have hf : i + 1 ≤ f := Nat.leOfSuccLeSucc hk1
  exact ⟨i, n, hc, by rw [hcur, addrAddrUp hpb' ha f hf, andTrueR]⟩

-- on reached trees ------------------------------------------------------------------------------------------

/-- On a tree reached from a root in preorder, both fresh arms of a Fork of a current branch are current,
with no hypothesis on the sequences above it. -/
theorem forkArmsCurrentReachedPre {tab : Core → Nat → Option (Derived × TEdit)} {t t' : Tree} {par : Bool}
    {b g bl br : Nat} {gl gr : List Pomset} (hr : ReachedPre tab t)
    (h : applyEdit t (TEdit.fork par b g bl br gl gr) = some t') :
    currentB t' bl = true ∧ currentB t' br = true :=
  forkArmsCurrentPre h (reachedParentsBefore (reachedPreReached hr)) (reachedPreNoCross hr)

/-- On a tree reached from a root in preorder, RestoreReplace's fresh `b_k` is current. -/
theorem restoreCurrentReachedPre {tab : Core → Nat → Option (Derived × TEdit)} {t t' : Tree} {b g bk : Nat}
    {gk : List Pomset} (hr : ReachedPre tab t) (h : applyEdit t (TEdit.restore false b g bk gk) = some t') :
    currentB t' bk = true :=
  restoreCurrentPre h (reachedParentsBefore (reachedPreReached hr)) (reachedPreNoCross hr)

/-- On a tree reached from a root in preorder, RestoreLive's parts `b` and `b_k` are current. -/
theorem restoreLiveCurrentReachedPre {tab : Core → Nat → Option (Derived × TEdit)} {t t' : Tree} {b g bk : Nat}
    {gk : List Pomset} (hr : ReachedPre tab t) (h : applyEdit t (TEdit.restore true b g bk gk) = some t') :
    currentB t' b = true ∧ currentB t' bk = true :=
  restoreLiveCurrentPre h (reachedParentsBefore (reachedPreReached hr)) (reachedPreNoCross hr)

/-- On a tree reached from a root in preorder, MergeSelect's `b_J` is current exactly when the kept arm is
complete. -/
theorem selectJoinCurrentReachedPre {tab : Core → Nat → Option (Derived × TEdit)} {t t' : Tree}
    {g arm bj : Nat} {gj : List Pomset} (hr : ReachedPre tab t)
    (h : applyEdit t (TEdit.select g arm bj gj) = some t') :
    ∃ i n, currentGroupAt t g = some (i + 1, n) ∧
      currentB t' bj = seqOk t' (i + 1) ⟨0, 4, n.parent, n.pos, 0, [], []⟩ (newLeaf bj (i + 1) 1 gj) :=
  selectJoinCurrentPre h (reachedParentsBefore (reachedPreReached hr)) (reachedPreNoCross hr)

/-- On a tree reached from a root in preorder, MergeJoin's `b_J` is current exactly when the join barrier
is complete. -/
theorem joinJoinCurrentReachedPre {tab : Core → Nat → Option (Derived × TEdit)} {t t' : Tree} {g bj : Nat}
    {gj : List Pomset} (hr : ReachedPre tab t) (h : applyEdit t (TEdit.join g bj gj) = some t') :
    ∃ i n, currentGroupAt t g = some (i + 1, n) ∧
      currentB t' bj = seqOk t' (i + 1) ⟨0, 4, n.parent, n.pos, 0, [], []⟩ (newLeaf bj (i + 1) 1 gj) :=
  joinJoinCurrentPre h (reachedParentsBefore (reachedPreReached hr)) (reachedPreNoCross hr)

/-- MergeSelect's `b_J` against the declarative `SeqLets`: on a tree reached from a root in preorder, it is
current exactly when the new sequence lets it through (the kept arm complete). -/
theorem selectLeafSeqLets {tab : Core → Nat → Option (Derived × TEdit)} {t t' : Tree} {g arm bj : Nat}
    {gj : List Pomset} (hr : ReachedPre tab t) (h : applyEdit t (TEdit.select g arm bj gj) = some t') :
    ∃ i n, currentGroupAt t g = some (i + 1, n) ∧
      (currentB t' bj = true ↔ SeqLets t' (i + 1) ⟨0, 4, n.parent, n.pos, 0, [], []⟩ (newLeaf bj (i + 1) 1 gj)) := by
  have hwf' := applyEditParentsBefore h (reachedParentsBefore (reachedPreReached hr))
  have ⟨i, n, hc, e⟩ := selectJoinCurrentReachedPre hr h
  exact ⟨i, n, hc, by rw [e]; exact seqOkIff hwf' _ _ _⟩

/-- MergeJoin's `b_J` against the declarative `SeqLets`: on a tree reached from a root in preorder, it is
current exactly when the new sequence lets it through (the join barrier complete). -/
theorem joinLeafSeqLets {tab : Core → Nat → Option (Derived × TEdit)} {t t' : Tree} {g bj : Nat}
    {gj : List Pomset} (hr : ReachedPre tab t) (h : applyEdit t (TEdit.join g bj gj) = some t') :
    ∃ i n, currentGroupAt t g = some (i + 1, n) ∧
      (currentB t' bj = true ↔ SeqLets t' (i + 1) ⟨0, 4, n.parent, n.pos, 0, [], []⟩ (newLeaf bj (i + 1) 1 gj)) := by
  have hwf' := applyEditParentsBefore h (reachedParentsBefore (reachedPreReached hr))
  have ⟨i, n, hc, e⟩ := joinJoinCurrentReachedPre hr h
  exact ⟨i, n, hc, by rw [e]; exact seqOkIff hwf' _ _ _⟩

end AgentWarrant.Edits.Machine
