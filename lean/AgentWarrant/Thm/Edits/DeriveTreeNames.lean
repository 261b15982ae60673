import AgentWarrant.Spec.Edits.DeriveTreeNames
import AgentWarrant.Thm.Edits.DeriveTreeRoot
import AgentWarrant.Thm.Edits.DeriveTreeJudged
import AgentWarrant.Thm.Edits.DeriveTreeIdealN
/-! The branch tree's names stay distinct (*When Can Agents Safely Checkpoint, Fork, Restore, and
Merge?*, Section V-A, Appendix A-D1; `namesDistinctB`, `startNamed` in `Spec/Edits/DeriveTreeNames.lean`).
- `HStep` keeps every name (`hstepNames`, from `hstepShape`);
- every tree change keeps the names distinct: `spliceAt` keeps the nodes before the replaced subtree and
  after it, and drops the subtree itself; a Fork or Restore adds only its fresh names (and RestoreLive
  the branch it replaced), MergeJoin the fresh `b_J` to the replaced group's own subtree, and
  MergeSelect the fresh `b_J` to the kept arm's subtree, which on a tree with parents before children
  and uncrossed links lies inside the replaced group's subtree (`selectKeptInside`);
- so every tree a runtime or ideal run reaches from a root `startNamed` accepts has distinct names;
- `namesDistinctB` decides the declarative `NamesDistinct` (by position: two named nodes with one name are
  one node), `namesDistinctBIff`;
- with Lean's names (`leanNames`) a change adds a node named at or above `nextName`, so the tree's largest
  name never decreases on the runtime and ideal machines run with `treeDerN`, and Lean's fresh names never
  take again a name a node of the run once had (`leanNamesNotReused`, `leanNamesNeverReused`,
  `leanNamesNeverReusedIdeal`).

Choices: distinctness is proved on the list of names (`TnSub`, a sublist relation, and insertion of
fresh names), since `namesOf` is the list `freshIn` already reads. -/
namespace AgentWarrant.Edits.Machine
open AgentWarrant AgentWarrant.Edits

-- a sublist relation and distinct lists ---------------------------------------------------------------

inductive TnSub {α : Type} : List α → List α → Prop
  | nil : TnSub [] []
  | keep (x : α) (a b : List α) : TnSub a b → TnSub (x :: a) (x :: b)
  | skip (x : α) (a b : List α) : TnSub a b → TnSub a (x :: b)

theorem tnSubRefl {α : Type} : ∀ (l : List α), TnSub l l
  | [] => TnSub.nil
  | x :: l => TnSub.keep x l l (tnSubRefl l)

theorem tnSubNil {α : Type} : ∀ (l : List α), TnSub [] l
  | [] => TnSub.nil
  | x :: l => TnSub.skip x [] l (tnSubNil l)

theorem tnSubApp {α : Type} {c d : List α} (hcd : TnSub c d) {a b : List α} (h : TnSub a b) :
    TnSub (a ++ c) (b ++ d) := by
  induction h with
  | nil => exact hcd
  | keep x a b _ ih => rw [List.cons_append, List.cons_append]; exact TnSub.keep x _ _ ih
  | skip x a b _ ih => rw [List.cons_append]; exact TnSub.skip x _ _ ih

theorem tnSubPre {α : Type} {a b : List α} (h : TnSub a b) : ∀ (c : List α), TnSub a (c ++ b)
  | [] => h
  | x :: c => by rw [List.cons_append]; exact TnSub.skip x _ _ (tnSubPre h c)

theorem tnSubTrans {α : Type} {b c : List α} (hbc : TnSub b c) : ∀ {a : List α}, TnSub a b → TnSub a c := by
  induction hbc with
  | nil => intro a h; exact h
  | keep x b c _ ih =>
    intro a h
    cases h with
    | keep _ a _ h => exact TnSub.keep x _ _ (ih h)
    | skip _ _ _ h => exact TnSub.skip x _ _ (ih h)
  | skip x b c _ ih => intro a h; exact TnSub.skip x _ _ (ih h)

theorem tnMemCons (v x : Nat) (l : List Nat) : memN v (x :: l) = (Nat.beq x v || memN v l) := by
  cases h : Nat.beq x v with
  | true => show anyB (fun y => Nat.beq y v) (x :: l) = _; simp only [anyB, h]; rfl
  | false => show anyB (fun y => Nat.beq y v) (x :: l) = _; simp only [anyB, h]; rfl

theorem tnOrTrue {a b : Bool} (h : (a || b) = true) : a = true ∨ b = true := by
  cases a with
  | true => exact Or.inl rfl
  | false => exact Or.inr h

theorem tnNotTrue {a : Bool} (h : (!a) = true) : a = false := by
  cases a with
  | true => exact Bool.noConfusion h
  | false => rfl

theorem tnNotOf {a : Bool} (h : a = false) : (!a) = true := by rw [h]; rfl

theorem tnSubMem {v : Nat} {a b : List Nat} (h : TnSub a b) : memN v a = true → memN v b = true := by
  induction h with
  | nil => intro h; exact h
  | keep x a b _ ih =>
    intro hm
    rw [tnMemCons] at hm ⊢
    cases tnOrTrue hm with
    | inl e => rw [e]; rfl
    | inr e => rw [ih e]; cases Nat.beq x v <;> rfl
  | skip x a b _ ih =>
    intro hm
    rw [tnMemCons, ih hm]
    cases Nat.beq x v <;> rfl

theorem tnSubNotMem {v : Nat} {a b : List Nat} (h : TnSub a b) (hb : memN v b = false) : memN v a = false := by
  cases ha : memN v a with
  | false => rfl
  | true => rw [tnSubMem h ha] at hb; exact hb

theorem tnDistinctCons {x : Nat} {l : List Nat} (h : distinctN (x :: l) = true) :
    memN x l = false ∧ distinctN l = true := by
  have ⟨h1, h2⟩ := andTrue h
  exact ⟨tnNotTrue h1, h2⟩

theorem tnDistinctOfCons {x : Nat} {l : List Nat} (h1 : memN x l = false) (h2 : distinctN l = true) :
    distinctN (x :: l) = true := by
  show (!(memN x l) && distinctN l) = true
  rw [h1, h2]
  rfl

theorem tnSubDistinct {a b : List Nat} (h : TnSub a b) : distinctN b = true → distinctN a = true := by
  induction h with
  | nil => intro h; exact h
  | keep x a b hs ih =>
    intro hd
    have ⟨h1, h2⟩ := tnDistinctCons hd
    exact tnDistinctOfCons (tnSubNotMem hs h1) (ih h2)
  | skip x a b _ ih => intro hd; exact ih (tnDistinctCons hd).2

theorem tnBeqSymm {x v : Nat} (h : Nat.beq x v = false) : Nat.beq v x = false := by
  cases e : Nat.beq v x with
  | false => rfl
  | true =>
    have e' := Nat.eqOfBeqEqTrue e
    subst e'
    rw [beqSelf] at h
    exact h

theorem tnBeqSymm' {x v : Nat} (h : Nat.beq x v = true) : Nat.beq v x = true := by
  have e := Nat.eqOfBeqEqTrue h
  subst e
  exact beqSelf x

theorem tnMemApp (v : Nat) : ∀ (a b : List Nat), memN v (a ++ b) = (memN v a || memN v b)
  | [], b => rfl
  | x :: a, b => by
    rw [List.cons_append, tnMemCons, tnMemCons, tnMemApp v a b]
    cases Nat.beq x v <;> rfl

/-- A name missing from a distinct list may be inserted anywhere. -/
theorem tnInsert (v : Nat) (y : List Nat) : ∀ (x : List Nat), distinctN (x ++ y) = true →
    memN v (x ++ y) = false → distinctN (x ++ v :: y) = true
  | [], hd, hm => tnDistinctOfCons hm hd
  | z :: x, hd, hm => by
    rw [List.cons_append] at hd hm ⊢
    have ⟨h1, h2⟩ := tnDistinctCons hd
    have hm' : memN v (z :: (x ++ y)) = false := hm
    rw [tnMemCons] at hm'
    have hzv : Nat.beq z v = false := by cases e : Nat.beq z v with
      | false => rfl
      | true => rw [e] at hm'; exact hm'
    have hvx : memN v (x ++ y) = false := by rw [hzv] at hm'; exact hm'
    apply tnDistinctOfCons _ (tnInsert v y x h2 hvx)
    rw [tnMemApp, tnMemCons] at *
    rw [tnBeqSymm hzv]
    cases e1 : memN z x with
    | true => rw [e1] at h1; exact h1
    | false => rw [e1] at h1; exact h1

-- the names of a tree ---------------------------------------------------------------------------------

/-- The name a node contributes to `namesOf`: none for a sequence. -/
def tnNm (y : TNode) : List Nat := match Nat.beq y.kind 4 with
  | true => []
  | false => [y.name]

theorem tnNamesCons (y : TNode) (l : Tree) : namesOf (y :: l) = tnNm y ++ namesOf l := by
  cases h : Nat.beq y.kind 4 with
  | true => simp only [namesOf, filt, tnNm, h]; rfl
  | false => simp only [namesOf, filt, tnNm, h]; rfl

theorem tnNamesApp : ∀ (a b : Tree), namesOf (a ++ b) = namesOf a ++ namesOf b
  | [], b => rfl
  | y :: a, b => by
    rw [List.cons_append, tnNamesCons, tnNamesCons, tnNamesApp a b, List.append_assoc]

theorem tnNamesMap (f : TNode → TNode) (hf : ∀ y, tnNm (f y) = tnNm y) :
    ∀ (l : Tree), namesOf (l.map f) = namesOf l
  | [] => rfl
  | y :: l => by
    show namesOf (f y :: l.map f) = namesOf (y :: l)
    rw [tnNamesCons, tnNamesCons, hf, tnNamesMap f hf l]

theorem tnNamesSub {a b : Tree} (h : TnSub a b) : TnSub (namesOf a) (namesOf b) := by
  induction h with
  | nil => exact TnSub.nil
  | keep y a b _ ih => rw [tnNamesCons, tnNamesCons]; exact tnSubApp ih (tnSubRefl _)
  | skip y a b _ ih => rw [tnNamesCons]; exact tnSubPre ih _

theorem tnNmShape {x y : TNode} (h : shape x = shape y) : tnNm x = tnNm y := by
  have hn : x.name = y.name := congrArg (fun s => s.1) h
  have hk : x.kind = y.kind := congrArg (fun s => s.2.1) h
  simp only [tnNm, hn, hk]
  rfl

theorem tnNamesShape : ∀ (a b : Tree), a.map shape = b.map shape → namesOf a = namesOf b
  | [], [], _ => rfl
  | [], _ :: _, h => List.noConfusion h
  | _ :: _, [], h => List.noConfusion h
  | x :: a, y :: b, h => by
    have ⟨h1, h2⟩ := List.cons.inj h
    rw [tnNamesCons, tnNamesCons, tnNmShape h1, tnNamesShape a b h2]

/-- `HStep` keeps every name. -/
theorem hstepNames (t : Tree) (x : Nat) : namesOf (hstep t x) = namesOf t :=
  tnNamesShape _ _ (hstepShape t x)

-- take, drop and the splice ---------------------------------------------------------------------------------

theorem tnTakeDrop : ∀ (n : Nat) (l : Tree), takeN n l ++ dropN n l = l
  | 0, l => rfl
  | _ + 1, [] => rfl
  | n + 1, y :: l => by
    show (y :: takeN n l) ++ dropN n l = y :: l
    rw [List.cons_append, tnTakeDrop n l]

theorem tnDropNth : ∀ (i : Nat) (t : Tree) (n : TNode), nthNode t i = some n → dropN i t = n :: dropN (i + 1) t
  | _, [], _, h => Option.noConfusion h
  | 0, y :: l, n, h => by
    have e : some y = some n := h
    cases Option.some.inj e
    rfl
  | i + 1, y :: l, n, h => tnDropNth i l n h

theorem tnDropDrop : ∀ (a b : Nat) (t : Tree), dropN (a + b) t = dropN b (dropN a t)
  | 0, b, t => by rw [Nat.zero_add]; rfl
  | a + 1, b, [] => by cases b <;> rfl
  | a + 1, b, y :: l => by
    rw [Nat.add_right_comm]
    exact tnDropDrop a b l

theorem tnSubTake : ∀ (n : Nat) (l : Tree), TnSub (takeN n l) l
  | 0, l => tnSubNil l
  | _ + 1, [] => by show TnSub [] []; exact TnSub.nil
  | n + 1, y :: l => TnSub.keep y _ _ (tnSubTake n l)

theorem tnSubTakeLe : ∀ (q k : Nat) (l : Tree), q ≤ k → TnSub (takeN q l) (takeN k l)
  | 0, k, l, _ => tnSubNil _
  | q + 1, k, [], _ => by cases k <;> exact TnSub.nil
  | q + 1, 0, y :: l, h => absurd h (Nat.notSuccLeZero q)
  | q + 1, k + 1, y :: l, h => TnSub.keep y _ _ (tnSubTakeLe q k l (Nat.leOfSuccLeSucc h))

/-- A window `takeN q (dropN p L)` inside the first `k` of `L` is a sublist of them. -/
theorem tnSubWindow : ∀ (p q k : Nat) (l : Tree), p + q ≤ k → TnSub (takeN q (dropN p l)) (takeN k l)
  | 0, q, k, l, h => tnSubTakeLe q k l (by rw [Nat.zero_add] at h; exact h)
  | p + 1, q, k, [], _ => by cases q <;> cases k <;> exact TnSub.nil
  | p + 1, q, 0, y :: l, h => by
    rw [Nat.succ_add] at h
    exact absurd h (Nat.notSuccLeZero _)
  | p + 1, q, k + 1, y :: l, h => by
    rw [Nat.succ_add] at h
    exact TnSub.skip y _ _ (tnSubWindow p q k l (Nat.leOfSuccLeSucc h))

/-- The splice's shift keeps every name and kind. -/
theorem tnShiftNm (j L k : Nat) (y : TNode) :
    tnNm (match Nat.ble j y.parent with
      | true => { y with parent := y.parent + L - (k + 1) }
      | false => y) = tnNm y := by
  cases Nat.ble j y.parent <;> rfl

/-- The names before and after `𝓔[new]` at position `i + 1`: the prefix and the suffix after the replaced
subtree are the same names, the replaced node and its descendants give way to `new`'s. -/
theorem spliceNames (t : Tree) (i : Nat) (new : Tree) (n : TNode) (hn : nthNode t i = some n) :
    namesOf t = namesOf (takeN i t) ++ (tnNm n ++ namesOf (below t (i + 1))) ++
      namesOf (dropN (runLen (i + 1) (dropN (i + 1) t)) (dropN (i + 1) t)) ∧
    namesOf (spliceAt t (i + 1) new) = namesOf (takeN i t) ++ namesOf new ++
      namesOf (dropN (runLen (i + 1) (dropN (i + 1) t)) (dropN (i + 1) t)) := by
  constructor
  · have e1 := tnTakeDrop i t
    rw [tnDropNth i t n hn] at e1
    have e2 := tnTakeDrop (runLen (i + 1) (dropN (i + 1) t)) (dropN (i + 1) t)
    show namesOf t = namesOf (takeN i t) ++ (tnNm n ++ namesOf (takeN (runLen (i + 1) (dropN (i + 1) t)) (dropN (i + 1) t))) ++
      namesOf (dropN (runLen (i + 1) (dropN (i + 1) t)) (dropN (i + 1) t))
    rw [List.append_assoc, List.append_assoc, ← tnNamesApp, ← tnNamesCons, e2, ← tnNamesApp, e1]
  · show namesOf (takeN i t ++ new ++ _) = _
    rw [tnNamesApp, tnNamesApp, tnNamesMap _ ?_]
    intro y
    cases Nat.ble (i + 1) y.parent <;> rfl

-- every row keeps the names distinct ---------------------------------------------------------------------

/-- A list's names outside the tree's: fresh there, fresh in every sublist. -/
theorem tnFreshOf {t : Tree} {v : Nat} (hf : allB (fun x => !(memN x (namesOf t))) [v] = true) :
    memN v (namesOf t) = false := by
  have ⟨h1, _⟩ := allBCons hf
  exact tnNotTrue h1

theorem tnFresh2 {t : Tree} {v w : Nat} (hf : allB (fun x => !(memN x (namesOf t))) [v, w] = true) :
    memN v (namesOf t) = false ∧ memN w (namesOf t) = false := by
  have ⟨h1, h2⟩ := allBCons hf
  exact ⟨tnNotTrue h1, tnFreshOf h2⟩

theorem tnFresh3 {t : Tree} {u v w : Nat} (hf : allB (fun x => !(memN x (namesOf t))) [u, v, w] = true) :
    memN u (namesOf t) = false ∧ memN v (namesOf t) = false ∧ memN w (namesOf t) = false := by
  have ⟨h1, h2⟩ := allBCons hf
  exact ⟨tnNotTrue h1, tnFresh2 h2⟩

/-- The generic step: the tree's names are `P ++ M ++ S`, the kept old names `O` a sublist of `M`; then
`P ++ O ++ S` is distinct and each of its names is the tree's. -/
theorem tnKept {P M O S N : List Nat} (he : N = P ++ M ++ S) (hd : distinctN N = true) (ho : TnSub O M) :
    distinctN (P ++ O ++ S) = true ∧ TnSub (P ++ O ++ S) N := by
  have hs : TnSub (P ++ O ++ S) N := by
    rw [he]
    exact tnSubApp (tnSubRefl S) (tnSubApp ho (tnSubRefl P))
  exact ⟨tnSubDistinct hs hd, hs⟩

theorem tnAppNil (l : List Nat) : l ++ [] = l := List.append_nil l

theorem tnMemMid {v f : Nat} {X R : List Nat} (h : memN v (X ++ f :: R) = true) :
    Nat.beq f v = true ∨ memN v (X ++ R) = true := by
  rw [tnMemApp, tnMemCons] at h
  rw [tnMemApp]
  cases e1 : memN v X with
  | true => exact Or.inr rfl
  | false =>
    rw [e1] at h
    cases e2 : Nat.beq f v with
    | true => exact Or.inl rfl
    | false => rw [e2] at h; exact Or.inr h

theorem tnMemHead (f : Nat) (F : List Nat) : memN f (f :: F) = true := by
  rw [tnMemCons, beqSelf]; rfl

/-- Fresh, distinct names `F` inserted into a distinct list of the tree's names stay distinct, and every
name of the result is the tree's or one of `F`. -/
theorem tnFreshAt (X Y N : List Nat) (hd : distinctN (X ++ Y) = true)
    (hm : ∀ v, memN v (X ++ Y) = true → memN v N = true) :
    ∀ (F : List Nat), distinctN F = true → (∀ v, memN v F = true → memN v N = false) →
      distinctN (X ++ (F ++ Y)) = true ∧ ∀ v, memN v (X ++ (F ++ Y)) = true → memN v N = true ∨ memN v F = true
  | [], _, _ => ⟨hd, fun v h => Or.inl (hm v h)⟩
  | f :: F, hdf, hf => by
    have ⟨hf1, hf2⟩ := tnDistinctCons hdf
    have hfF : ∀ v, memN v F = true → memN v N = false := fun v h => hf v (by rw [tnMemCons, h]; cases Nat.beq f v <;> rfl)
    have ⟨ih1, ih2⟩ := tnFreshAt X Y N hd hm F hf2 hfF
    rw [List.cons_append]
    constructor
    · apply tnInsert f _ X ih1
      cases e : memN f (X ++ (F ++ Y)) with
      | false => rfl
      | true => cases ih2 f e with
        | inl h => rw [hf f (tnMemHead f F)] at h; exact Bool.noConfusion h
        | inr h => rw [hf1] at h; exact Bool.noConfusion h
    · intro v h
      cases tnMemMid h with
      | inl e =>
        have e' := Nat.eqOfBeqEqTrue e
        subst e'
        exact Or.inr (tnMemHead f F)
      | inr h => cases ih2 v h with
        | inl h => exact Or.inl h
        | inr h => exact Or.inr (by rw [tnMemCons, h]; cases Nat.beq f v <;> rfl)

theorem tnMemSub {a b : List Nat} (h : TnSub a b) : ∀ v, memN v a = true → memN v b = true := fun _ => tnSubMem h

theorem tnFreshList {t : Tree} {F : List Nat} (hf : allB (fun x => !(memN x (namesOf t))) F = true) :
    ∀ v, memN v F = true → memN v (namesOf t) = false := by
  intro v hv
  induction F with
  | nil => exact Bool.noConfusion hv
  | cons f F ih =>
    have ⟨h1, h2⟩ := allBCons hf
    rw [tnMemCons] at hv
    cases e : Nat.beq f v with
    | true => have e' := Nat.eqOfBeqEqTrue e; subst e'; exact tnNotTrue h1
    | false => rw [e] at hv; exact ih h2 hv

theorem tnDistinctOfNames {t : Tree} (h : distinctN (namesOf t) = true) : namesDistinctB t = true := h

theorem tnNames3 (x y z : TNode) (hx : Nat.beq x.kind 4 = false) (hy : Nat.beq y.kind 4 = false)
    (hz : Nat.beq z.kind 4 = false) : namesOf [x, y, z] = [x.name, y.name, z.name] := by
  rw [tnNamesCons, tnNamesCons, tnNamesCons]
  simp only [tnNm, hx, hy, hz]
  rfl

theorem tnSubLeft (a d : List Nat) : TnSub a (a ++ d) := by
  have r := tnSubApp (tnSubNil d) (tnSubRefl a)
  rw [List.append_nil] at r
  exact r

theorem tnMemCons1 {v w : Nat} {N : List Nat} (h : memN v N = true) : memN v (w :: N) = true := by
  rw [tnMemCons, h]; cases Nat.beq w v <;> rfl

/-- Both Fork forms keep the names distinct: only the fresh `g`, `b_L`, `b_R` come in, `b` goes. -/
theorem forkNames {t t' : Tree} {par : Bool} {b g bl br : Nat} {gl gr : List Pomset}
    (h : applyEdit t (TEdit.fork par b g bl br gl gr) = some t') (hd : namesDistinctB t = true) :
    namesDistinctB t' = true := by
  have hd' : distinctN (namesOf t) = true := hd
  have ⟨hfd, hfa⟩ := applyEditFresh h
  have hfr := tnFreshList hfa
  have h := (rowOf h).2
  cases hc : currentLeafAt t b with
  | none => simp only [rowTree, hc] at h
  | some p => cases p with
    | mk j n =>
      have ⟨_, _, hj⟩ := currentLeafAtSome hc
      have ⟨i, ei, _, hi⟩ := nodeAtPos hj
      subst ei
      simp only [rowTree, hc] at h
      have e := applied h
      subst e
      have e1 := (spliceNames t i [] n hi).1
      have ⟨k1, k2⟩ := tnKept e1 hd' (tnSubNil _)
      rw [List.append_nil] at k1 k2
      have r := tnFreshAt _ _ _ k1 (tnMemSub k2) [g, bl, br] hfd hfr
      apply tnDistinctOfNames
      rw [(spliceNames t i _ n hi).2, tnNames3 _ _ _ ?_ ?_ ?_, List.append_assoc]
      allGoals (first | exact r.1 | rfl | (cases par <;> rfl))

/-- Both Restore forms keep the names distinct: the fresh `b_k` (and, live, the fresh group `g` over
`b` and `b_k`) come in. -/
theorem restoreNames {t t' : Tree} {live : Bool} {b g bk : Nat} {gk : List Pomset}
    (h : applyEdit t (TEdit.restore live b g bk gk) = some t') (hd : namesDistinctB t = true) :
    namesDistinctB t' = true := by
  have hd' : distinctN (namesOf t) = true := hd
  have ⟨hfd, hfa⟩ := applyEditFresh h
  have hfr := tnFreshList hfa
  have h := (rowOf h).2
  cases hc : currentLeafAt t b with
  | none => simp only [rowTree, hc] at h
  | some p => cases p with
    | mk j n =>
      have ⟨_, _, hj⟩ := currentLeafAtSome hc
      have ⟨i, ei, _, hi⟩ := nodeAtPos hj
      subst ei
      cases live with
      | false =>
        simp only [rowTree, hc] at h
        have e := applied h
        subst e
        have e1 := (spliceNames t i [] n hi).1
        have ⟨k1, k2⟩ := tnKept e1 hd' (tnSubNil _)
        rw [List.append_nil] at k1 k2
        have r := tnFreshAt _ _ _ k1 (tnMemSub k2) [bk] hfd hfr
        apply tnDistinctOfNames
        rw [(spliceNames t i _ n hi).2, List.append_assoc]
        exact r.1
      | true =>
        simp only [rowTree, hc] at h
        have e := applied h
        subst e
        have e1 := (spliceNames t i [] n hi).1
        have ⟨k1, k2⟩ := tnKept e1 hd' (tnSubLeft (tnNm n) _)
        have hb : memN bk (namesOf t) = false := hfr bk (by show memN bk [g, bk] = true; rw [tnMemCons, tnMemCons, beqSelf]; cases Nat.beq g bk <;> rfl)
        have hg : memN g (namesOf t) = false := hfr g (tnMemHead g [bk])
        have hfd' : distinctN [g, bk] = true := hfd
        have hgb : memN g [bk] = false := (tnDistinctCons hfd').1
        have r1 := tnFreshAt (namesOf (takeN i t) ++ tnNm n) _ _ k1 (tnMemSub k2) [bk] rfl
          (fun v hv => by
            rw [tnMemCons] at hv
            cases e : Nat.beq bk v with
            | true => have e' := Nat.eqOfBeqEqTrue e; subst e'; exact hb
            | false => rw [e] at hv; exact Bool.noConfusion hv)
        have r2 := tnFreshAt (namesOf (takeN i t)) (tnNm n ++ ([bk] ++ namesOf
            (dropN (runLen (i + 1) (dropN (i + 1) t)) (dropN (i + 1) t)))) (bk :: namesOf t)
          (by rw [← List.append_assoc]; exact r1.1)
          (fun v hv => by
            rw [← List.append_assoc] at hv
            cases r1.2 v hv with
            | inl h => exact tnMemCons1 h
            | inr h => rw [tnMemCons] at h ⊢; cases e : Nat.beq bk v with
              | true => rfl
              | false => rw [e] at h; exact Bool.noConfusion h)
          [g] rfl
          (fun v hv => by
            rw [tnMemCons] at hv
            cases e : Nat.beq g v with
            | true =>
              have e' := Nat.eqOfBeqEqTrue e
              subst e'
              rw [tnMemCons, hg]
              rw [tnMemCons] at hgb
              cases e2 : Nat.beq bk g with
              | true => rw [e2] at hgb; exact Bool.noConfusion hgb
              | false => rfl
            | false => rw [e] at hv; exact Bool.noConfusion hv)
        apply tnDistinctOfNames
        rw [(spliceNames t i _ n hi).2, tnNamesCons, tnNamesCons, tnNamesCons]
        have r := r2.1
        simp only [List.append_assoc] at r ⊢
        exact r

theorem tnNamesMove (a b : Nat) (l : Tree) : namesOf (moveTo a b l) = namesOf l :=
  tnNamesMap (fun n => { n with parent := n.parent + b - a }) (fun _ => rfl) l

/-- MergeJoin keeps the names distinct: the group stays as the join barrier under its name, its parts
move below it, and only the fresh `b_J` comes in. -/
theorem joinNames {t t' : Tree} {g bj : Nat} {gj : List Pomset}
    (h : applyEdit t (TEdit.join g bj gj) = some t') (hd : namesDistinctB t = true) :
    namesDistinctB t' = true := by
  have hd' : distinctN (namesOf t) = true := hd
  have ⟨hfd, hfa⟩ := applyEditFresh h
  have hfr := tnFreshList hfa
  have ⟨j, n, hc, hk⟩ := joinCurrent h
  have ⟨_, _, hj⟩ := currentGroupAtSome hc
  have ⟨i, ei, _, hi⟩ := nodeAtPos hj
  subst ei
  have hk' : Nat.beq n.kind 2 = true := by rw [hk]; rfl
  have h := (rowOf h).2
  simp only [rowTree, hc, hk'] at h
  have e := applied h
  subst e
  have e1 := (spliceNames t i [] n hi).1
  have ⟨k1, k2⟩ := tnKept e1 hd' (tnSubRefl _)
  have r := tnFreshAt _ _ _ k1 (tnMemSub k2) [bj] hfd hfr
  have hn4 : tnNm n = [n.name] := by simp only [tnNm, hk]; rfl
  rw [hn4] at r
  apply tnDistinctOfNames
  rw [(spliceNames t i _ n hi).2, tnNamesApp, tnNamesCons, tnNamesCons, tnNamesMove]
  have r' := r.1
  simp only [List.append_assoc] at r' ⊢
  exact r'

theorem tnFindChild (j arm : Nat) : ∀ (l : Tree) (k a : Nat), findChild j arm k l = some a →
    ∃ m c, a = k + m ∧ nthNode l m = some c ∧ c.parent = j
  | [], k, a, h => by
    have h' : (none : Option Nat) = some a := h
    exact Option.noConfusion h'
  | y :: l, k, a, h => by
    cases e : (Nat.beq y.parent j && Nat.beq y.pos arm) with
    | true =>
      simp only [findChild, e] at h
      cases Option.some.inj h
      exact ⟨0, y, rfl, rfl, Nat.eqOfBeqEqTrue (andTrue e).1⟩
    | false =>
      simp only [findChild, e] at h
      have ⟨m, c, h1, h2, h3⟩ := tnFindChild j arm l (k + 1) a h
      exact ⟨m + 1, c, by rw [h1, Nat.add_right_comm]; rfl, h2, h3⟩

/-- The run below position `a` ends by position `s` of the list when the node there hangs above `a`. -/
theorem tnRunLe (a : Nat) : ∀ (l : Tree) (s : Nat), (∀ x, nthNode l s = some x → x.parent < a) → runLen a l ≤ s
  | [], s, _ => Nat.zeroLe s
  | y :: l, 0, h => by
    have hy := h y rfl
    have hb : Nat.ble a y.parent = false := by
      cases e : Nat.ble a y.parent with
      | false => rfl
      | true =>
        have e' : a ≤ y.parent := e
        have h2 : y.parent + 1 ≤ y.parent := Nat.leTrans hy e'
        exact absurd h2 (Nat.notSuccLeSelf y.parent)
    have e : runLen a (y :: l) = 0 := by simp only [runLen, hb]
    rw [e]
    exact Nat.zeroLe 0
  | y :: l, s + 1, h => by
    have ih := tnRunLe a l s h
    cases hb : Nat.ble a y.parent with
    | true =>
      have e : runLen a (y :: l) = runLen a l + 1 := by simp only [runLen, hb] <;> rfl
      rw [e]
      exact Nat.succLeSucc ih
    | false =>
      have e : runLen a (y :: l) = 0 := by simp only [runLen, hb]
      rw [e]
      exact Nat.zeroLe _

/-- On a tree with parents before children and uncrossed links, a child of the node at position `i + 1`
and everything below it lie inside that node's subtree (the run `below` takes). -/
theorem selectKeptInside {t : Tree} (hpb : ParentsBefore t) (hnc : NoCross t) (i a : Nat) (c : TNode)
    (hc : nodeAt t a = some c) (hp : c.parent = i + 1) : TnSub (c :: below t a) (below t (i + 1)) := by
  have ⟨m, ea, _, hm⟩ := nodeAtPos hc
  subst ea
  have hlt : i + 1 < m + 1 := by rw [← hp]; exact hpb (m + 1) c hc
  have ⟨p, ep0⟩ := Nat.le.dest (Nat.leOfSuccLeSucc hlt)
  have ep : i + 1 + p = m := ep0
  have hin : m < i + 1 + runLen (i + 1) (dropN (i + 1) t) := by
    cases Nat.ltOrGe m (i + 1 + runLen (i + 1) (dropN (i + 1) t)) with
    | inl h => exact h
    | inr h =>
      have r := afterRunParent hnc (i + 1) (m + 1) c hc (Nat.succLeSucc h)
      rw [hp] at r
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
  have hr : runLen (m + 1) (dropN (m + 1) t) ≤ s := by
    apply tnRunLe
    intro x hx
    rw [nthDrop, eq, ← nthDrop] at hx
    exact Nat.ltOfLtOfLe (runLenStop (i + 1) _ x hx) (Nat.leOfLt hlt)
  have ew : c :: below t (m + 1) = takeN (runLen (m + 1) (dropN (m + 1) t) + 1) (dropN p (dropN (i + 1) t)) := by
    rw [← tnDropDrop, ep, tnDropNth m t c hm]
    rfl
  rw [ew]
  apply tnSubWindow
  rw [← es, Nat.add_assoc]
  apply Nat.addLeAddLeft
  rw [Nat.add_comm 1 s]
  exact Nat.succLeSucc hr

/-- MergeSelect keeps the names distinct on a tree with parents before children and uncrossed links: the
kept arm's subtree comes from inside the group's, and only the fresh `b_J` comes in. -/
theorem selectNames {t t' : Tree} {g arm bj : Nat} {gj : List Pomset}
    (h : applyEdit t (TEdit.select g arm bj gj) = some t') (hpb : ParentsBefore t) (hnc : NoCross t)
    (hd : namesDistinctB t = true) : namesDistinctB t' = true := by
  have hd' : distinctN (namesOf t) = true := hd
  have ⟨hfd, hfa⟩ := applyEditFresh h
  have hfr := tnFreshList hfa
  have ⟨j, n, a, hc, hk, hs, ha⟩ := selectCurrent h
  have ⟨_, _, hj⟩ := currentGroupAtSome hc
  have ⟨i, ei, _, hi⟩ := nodeAtPos hj
  subst ei
  have hk' : Nat.beq n.kind 1 = true := by rw [hk]; rfl
  have hb : (Nat.beq n.kind 1 && selOk n arm) = true := by rw [hk', hs]; rfl
  have h := (rowOf h).2
  have ⟨m, c0, ea, hm, hcp⟩ := tnFindChild (i + 1) arm t 1 a ha
  cases hcn : nodeAt t a with
  | none => simp only [rowTree, hc, hb, ha, hcn] at h
  | some c =>
    simp only [rowTree, hc, hb, ha, hcn] at h
    have e := applied h
    subst e
    have ec : c0 = c := by
      rw [ea, Nat.add_comm] at hcn
      have hcn' : nthNode t m = some c := hcn
      rw [hm] at hcn'
      exact Option.some.inj hcn'
    subst ec
    have hin := tnNamesSub (selectKeptInside hpb hnc i a c0 hcn hcp)
    rw [tnNamesCons] at hin
    have e1 := (spliceNames t i [] n hi).1
    have ⟨k1, k2⟩ := tnKept e1 hd' (tnSubPre hin (tnNm n))
    have r := tnFreshAt _ _ _ k1 (tnMemSub k2) [bj] hfd hfr
    apply tnDistinctOfNames
    rw [(spliceNames t i _ n hi).2, tnNamesApp, tnNamesCons, tnNamesCons, tnNamesMove]
    have r' := r.1
    simp only [List.append_assoc] at r' ⊢
    exact r'

/-- Every tree change keeps the names distinct on a tree with parents before children and uncrossed links. -/
theorem applyEditNames {t t' : Tree} {e : TEdit} (h : applyEdit t e = some t') (hpb : ParentsBefore t)
    (hnc : NoCross t) (hd : namesDistinctB t = true) : namesDistinctB t' = true := by
  cases e with
  | keep =>
    have h := (rowOf h).2
    have e := applied h
    subst e
    exact hd
  | fork par b g bl br gl gr => exact forkNames h hd
  | restore live b g bk gk => exact restoreNames h hd
  | select g arm bj gj => exact selectNames h hpb hnc hd
  | join g bj gj => exact joinNames h hd

theorem treeStepNames {tab : Core → Nat → Option (Derived × TEdit)} {c : Core} {t' : Tree}
    (h : TreeStep tab c t') (hpb : ParentsBefore c.tree) (hnc : NoCross c.tree) (hd : namesDistinctB c.tree = true) :
    namesDistinctB t' = true := by
  cases h with
  | inl e => rw [e]; exact hd
  | inr h => cases h with
    | inl p =>
      have ⟨x, e⟩ := p
      rw [e]
      apply tnDistinctOfNames
      rw [hstepNames]
      exact hd
    | inr p => have ⟨_, _, _, _, ha⟩ := p; exact applyEditNames ha hpb hnc hd

theorem startNames {d : Derived} {S : RState} (h : start d = some S) (hd : namesDistinctB d.tree = true) :
    namesDistinctB S.core.tree = true := by
  simp only [start] at h
  cases hs : safeSet (build d.inst) with
  | nil => rw [hs] at h; exact Option.noConfusion h
  | cons a l => rw [hs] at h; cases Option.some.inj h; exact hd

/-- On the runtime run, every tree reached from a record whose tree has parents before children,
uncrossed links and distinct names has distinct names, after any finite sequence of events. -/
theorem replayNames (tab : Core → Nat → Option (Derived × TEdit)) :
    ∀ (es : List Ev) (S : RState), ParentsBefore S.core.tree → NoCross S.core.tree →
      namesDistinctB S.core.tree = true → namesDistinctB (replay (treeDer tab) S es).core.tree = true
  | [], _, _, _, h => h
  | e :: es, S, hp, hn, h => replayNames tab es _ (treeStepParentsBefore (stepTree tab S e) hp)
      (treeStepNoCross (stepTree tab S e) hp hn) (treeStepNames (stepTree tab S e) hp hn h)

/-- On the ideal machine, the same. -/
theorem replayIdealNames (tab : Core → Nat → Option (Derived × TEdit)) :
    ∀ (es : List IEv) (c : Core), ParentsBefore c.tree → NoCross c.tree →
      namesDistinctB c.tree = true → namesDistinctB (replayIdeal (treeDer tab) c es).tree = true
  | [], _, _, _, h => h
  | e :: es, c, hp, hn, h => replayIdealNames tab es _ (stepIParentsBefore tab c e hp)
      (treeStepNoCross (stepITree tab c e) hp hn) (treeStepNames (stepITree tab c e) hp hn h)

-- the Boolean check decides the declarative property ----------------------------------------------------

/-- Pairwise distinct names, by position: two named nodes (not sequences) with the same name are one node. -/
def NamesDistinct (t : Tree) : Prop :=
  ∀ j k nj nk, nodeAt t j = some nj → nodeAt t k = some nk → nj.kind ≠ 4 → nk.kind ≠ 4 →
    nj.name = nk.name → j = k

theorem tnMemNamesIff : ∀ (l : Tree) (v : Nat),
    memN v (namesOf l) = true ↔ ∃ m y, nthNode l m = some y ∧ y.kind ≠ 4 ∧ y.name = v
  | [], v => Iff.intro (fun h => Bool.noConfusion h) (fun ⟨_, _, h, _⟩ => Option.noConfusion h)
  | x :: l, v => by
    rw [tnNamesCons]
    cases hk : Nat.beq x.kind 4 with
    | true =>
      have e : tnNm x = [] := by simp only [tnNm, hk]
      rw [e, List.nil_append, tnMemNamesIff l v]
      apply Iff.intro
      · intro ⟨m, y, h1, h2, h3⟩
        exact ⟨m + 1, y, h1, h2, h3⟩
      · intro ⟨m, y, h1, h2, h3⟩
        cases m with
        | zero =>
          have e' : some x = some y := h1
          cases Option.some.inj e'
          exact absurd (Nat.eqOfBeqEqTrue hk) h2
        | succ m => exact ⟨m, y, h1, h2, h3⟩
    | false =>
      have e : tnNm x = [x.name] := by simp only [tnNm, hk]; rfl
      rw [e, List.cons_append, List.nil_append, tnMemCons]
      apply Iff.intro
      · intro h
        cases e2 : Nat.beq x.name v with
        | true =>
          exact ⟨0, x, rfl, fun h4 => by rw [h4] at hk; exact Bool.noConfusion hk, Nat.eqOfBeqEqTrue e2⟩
        | false =>
          rw [e2] at h
          have ⟨m, y, h1, h2, h3⟩ := (tnMemNamesIff l v).1 h
          exact ⟨m + 1, y, h1, h2, h3⟩
      · intro ⟨m, y, h1, h2, h3⟩
        cases m with
        | zero =>
          have e' : some x = some y := h1
          cases Option.some.inj e'
          rw [h3, beqSelf]
          rfl
        | succ m =>
          rw [(tnMemNamesIff l v).2 ⟨m, y, h1, h2, h3⟩]
          cases Nat.beq x.name v <;> rfl

theorem tnDistinctIff : ∀ (l : Tree), distinctN (namesOf l) = true ↔
    ∀ m m' y y', nthNode l m = some y → nthNode l m' = some y' → y.kind ≠ 4 → y'.kind ≠ 4 →
      y.name = y'.name → m = m'
  | [] => Iff.intro (fun _ _ _ _ _ h => Option.noConfusion h) (fun _ => rfl)
  | x :: l => by
    have ih := tnDistinctIff l
    rw [tnNamesCons]
    cases hk : Nat.beq x.kind 4 with
    | true =>
      have e : tnNm x = [] := by simp only [tnNm, hk]
      rw [e, List.nil_append]
      have hx4 : x.kind = 4 := Nat.eqOfBeqEqTrue hk
      apply Iff.intro
      · intro h m m' y y' h1 h2 k1 k2 en
        cases m with
        | zero =>
          have e' : some x = some y := h1
          cases Option.some.inj e'
          exact absurd hx4 k1
        | succ m => cases m' with
          | zero =>
            have e' : some x = some y' := h2
            cases Option.some.inj e'
            exact absurd hx4 k2
          | succ m' => exact congrArg Nat.succ (ih.1 h m m' y y' h1 h2 k1 k2 en)
      · intro h
        exact ih.2 (fun m m' y y' h1 h2 k1 k2 en => Nat.succ.inj (h (m + 1) (m' + 1) y y' (by rw [nthSucc]; exact h1) (by rw [nthSucc]; exact h2) k1 k2 en))
    | false =>
      have e : tnNm x = [x.name] := by simp only [tnNm, hk]; rfl
      rw [e, List.cons_append, List.nil_append]
      have hx4 : x.kind ≠ 4 := fun h4 => by rw [h4] at hk; exact Bool.noConfusion hk
      apply Iff.intro
      · intro h m m' y y' h1 h2 k1 k2 en
        have ⟨d1, d2⟩ := tnDistinctCons h
        cases m with
        | zero =>
          have e' : some x = some y := h1
          cases Option.some.inj e'
          cases m' with
          | zero => rfl
          | succ m' =>
            have hm := (tnMemNamesIff l x.name).2 ⟨m', y', h2, k2, en.symm⟩
            rw [d1] at hm
            exact Bool.noConfusion hm
        | succ m => cases m' with
          | zero =>
            have e' : some x = some y' := h2
            cases Option.some.inj e'
            have hm := (tnMemNamesIff l x.name).2 ⟨m, y, h1, k1, en⟩
            rw [d1] at hm
            exact Bool.noConfusion hm
          | succ m' => exact congrArg Nat.succ (ih.1 d2 m m' y y' h1 h2 k1 k2 en)
      · intro h
        apply tnDistinctOfCons
        · cases hm : memN x.name (namesOf l) with
          | false => rfl
          | true =>
            have ⟨m, y, h1, h2, h3⟩ := (tnMemNamesIff l x.name).1 hm
            exact Nat.noConfusion (h 0 (m + 1) x y rfl h1 hx4 h2 h3.symm)
        · exact ih.2 (fun m m' y y' h1 h2 k1 k2 en => Nat.succ.inj (h (m + 1) (m' + 1) y y' (by rw [nthSucc]; exact h1) (by rw [nthSucc]; exact h2) k1 k2 en))

theorem tnNodeAtSucc (t : Tree) (m : Nat) : nodeAt t (m + 1) = nthNode t m := rfl

/-- `namesDistinctB` decides `NamesDistinct`. -/
theorem namesDistinctBIff (t : Tree) : namesDistinctB t = true ↔ NamesDistinct t := by
  apply Iff.intro
  · intro h j k nj nk hj hk k1 k2 en
    have ⟨i, ei, _, hi⟩ := nodeAtPos hj
    have ⟨i', ei', _, hi'⟩ := nodeAtPos hk
    subst ei
    subst ei'
    exact congrArg Nat.succ ((tnDistinctIff t).1 h i i' nj nk hi hi' k1 k2 en)
  · intro h
    exact (tnDistinctIff t).2 (fun m m' y y' h1 h2 k1 k2 en => Nat.succ.inj (h (m + 1) (m' + 1) y y' (by rw [tnNodeAtSucc]; exact h1) (by rw [tnNodeAtSucc]; exact h2) k1 k2 en))

-- the root check --------------------------------------------------------------------------------------------

/-- The root update with both checks installs exactly the roots the order-checked update installs whose
tree has distinct names. -/
theorem startNamedIff {d : Derived} {S : RState} :
    startNamed d = some S ↔ startChecked d = some S ∧ namesDistinctB d.tree = true := by
  apply Iff.intro
  · intro h
    simp only [startNamed] at h
    cases hr : namesDistinctB d.tree with
    | true => rw [hr] at h; exact ⟨h, rfl⟩
    | false => rw [hr] at h; exact Option.noConfusion h
  · intro ⟨h, hr⟩
    simp only [startNamed]
    rw [hr]
    exact h

/-- The registered root's tree is one leaf, so its names are distinct and it passes both root checks. -/
theorem registeredRootNamed {W : Reg.Wf} {R : Reg.RegR} {n : Nat} {lab : List Nat} {dfa : Dfa}
    {calls names : List Nat} {eta : Nat} {S : RState}
    (h : Reg.registerThenStart W R n lab dfa calls names eta = some S) :
    startNamed (Reg.rootDerived R n lab dfa calls names eta) = some S :=
  startNamedIff.2 ⟨registeredRootChecked h, rfl⟩

/-- After any finite sequence of runtime or ideal events from a root both checks accept, the tree's names
are distinct. -/
theorem namedReplayNames (tab : Core → Nat → Option (Derived × TEdit)) {d : Derived} {S : RState}
    (hs : startNamed d = some S) :
    (∀ es : List Ev, namesDistinctB (replay (treeDer tab) S es).core.tree = true) ∧
    (∀ es : List IEv, namesDistinctB (replayIdeal (treeDer tab) S.core es).tree = true) := by
  have ⟨hc, hd⟩ := startNamedIff.1 hs
  have ⟨h, hp, hn⟩ := startCheckedIff.1 hc
  exact ⟨fun es => replayNames tab es S (startParentsBefore h hp) (startNoCross h hn) (startNames h hd),
    fun es => replayIdealNames tab es S.core (startParentsBefore h hp) (startNoCross h hn) (startNames h hd)⟩

/-- The root update with both checks, stated with the declarative properties. -/
theorem startNamedIffDecl {d : Derived} {S : RState} : startNamed d = some S ↔
    start d = some S ∧ ParentsBefore d.tree ∧ NoCross d.tree ∧ NamesDistinct d.tree := by
  apply Iff.intro
  · intro h
    have ⟨hc, hd⟩ := startNamedIff.1 h
    have ⟨h1, h2, h3⟩ := startCheckedIff.1 hc
    exact ⟨h1, h2, h3, (namesDistinctBIff d.tree).1 hd⟩
  · intro ⟨h1, h2, h3, h4⟩
    exact startNamedIff.2 ⟨startCheckedIff.2 ⟨h1, h2, h3⟩, (namesDistinctBIff d.tree).2 h4⟩

/-- Every tree a runtime or ideal run reaches from a root both checks accept has pairwise distinct names. -/
theorem namedReplayDistinct (tab : Core → Nat → Option (Derived × TEdit)) {d : Derived} {S : RState}
    (hs : startNamed d = some S) :
    (∀ es : List Ev, NamesDistinct (replay (treeDer tab) S es).core.tree) ∧
    (∀ es : List IEv, NamesDistinct (replayIdeal (treeDer tab) S.core es).tree) :=
  have ⟨h1, h2⟩ := namedReplayNames tab hs
  ⟨fun es => (namesDistinctBIff _).1 (h1 es), fun es => (namesDistinctBIff _).1 (h2 es)⟩

-- Lean's names never come back ----------------------------------------------------------------------------

theorem tnBelowNext {t : Tree} {x : Nat} (r : List Nat) (h : memN x (namesOf t) = true) : x < nextName t r := by
  cases Nat.ltOrGe x (nextName t r) with
  | inl h' => exact h'
  | inr h' => rw [aboveUnused t r x h'] at h; exact Bool.noConfusion h

theorem tnNameAt {t : Tree} {p : Nat} {y : TNode} (h : nodeAt t p = some y) (hk : y.kind ≠ 4) :
    memN y.name (namesOf t) = true := by
  have ⟨i, ei, _, hi⟩ := nodeAtPos h
  exact (tnMemNamesIff t y.name).2 ⟨i, y, hi, hk, rfl⟩

theorem tnLeafKind (a b c : Nat) (g : List Pomset) : (newLeaf a b c g).kind ≠ 4 := by
  intro e
  cases e

theorem tnThrough {x y m : Nat} (hx : x < m) (hm : m ≤ y) {N : Nat} (hy : y < N) : x < N :=
  Nat.ltTrans (Nat.ltOfLtOfLe hx hm) hy

/-- With Lean's names, every name the tree had before an edit lies below `nextName` of the tree after it,
whatever the record then reserves: the change's new leaf is named at or above the old `nextName`, so the
names Lean takes later are above every name the tree ever had, a removed node's among them. -/
theorem leanNamesNotReused {t t' : Tree} {r : List Nat} {e : TEdit} (h : applyEdit t (leanNames t r e) = some t')
    (r' : List Nat) (x : Nat) (hx : memN x (namesOf t) = true) : x < nextName t' r' := by
  have hxr := tnBelowNext r hx
  cases e with
  | keep =>
    have h := (rowOf h).2
    have e := applied h
    subst e
    exact tnBelowNext r' hx
  | fork par b g bl br gl gr =>
    have h' : applyEdit t (TEdit.fork par b (nextName t r) (nextName t r + 1) (nextName t r + 2) gl gr) = some t' := h
    have ⟨_, _, _, _, _, hl, _⟩ := forkNodes h'
    exact tnThrough hxr (Nat.leSucc _) (tnBelowNext r' (tnNameAt hl (tnLeafKind _ _ _ _)))
  | restore live b g bk gk => cases live with
    | false =>
      have h' : applyEdit t (TEdit.restore false b (nextName t r) (nextName t r + 1) gk) = some t' := h
      have ⟨_, _, _, _, hl⟩ := restoreNodes h'
      exact tnThrough hxr (Nat.leSucc _) (tnBelowNext r' (tnNameAt hl (tnLeafKind _ _ _ _)))
    | true =>
      have h' : applyEdit t (TEdit.restore true b (nextName t r) (nextName t r + 1) gk) = some t' := h
      have ⟨_, _, _, _, _, _, hl⟩ := restoreLiveNodes h'
      exact tnThrough hxr (Nat.leSucc _) (tnBelowNext r' (tnNameAt hl (tnLeafKind _ _ _ _)))
  | select g arm bj gj =>
    have h' : applyEdit t (TEdit.select g arm (nextName t r) gj) = some t' := h
    have ⟨_, _, _, _, _, _, _, _, _, _, _, _, hl⟩ := selectNodes h'
    exact tnThrough hxr (Nat.leRefl _) (tnBelowNext r' (tnNameAt hl (tnLeafKind _ _ _ _)))
  | join g bj gj =>
    have h' : applyEdit t (TEdit.join g (nextName t r) gj) = some t' := h
    have ⟨_, _, _, _, _, _, _, _, hl⟩ := joinNodes h'
    exact tnThrough hxr (Nat.leRefl _) (tnBelowNext r' (tnNameAt hl (tnLeafKind _ _ _ _)))

/-- A change with Lean's names leaves the tree as it was, or adds a node named at or above `nextName`. -/
theorem tnNewLeaf {t t' : Tree} {r : List Nat} {e : TEdit} (h : applyEdit t (leanNames t r e) = some t') :
    t' = t ∨ ∃ y, memN y (namesOf t') = true ∧ nextName t r ≤ y := by
  cases e with
  | keep =>
    have h := (rowOf h).2
    exact Or.inl (applied h)
  | fork par b g bl br gl gr =>
    have h' : applyEdit t (TEdit.fork par b (nextName t r) (nextName t r + 1) (nextName t r + 2) gl gr) = some t' := h
    have ⟨_, _, _, _, _, hl, _⟩ := forkNodes h'
    exact Or.inr ⟨_, tnNameAt hl (tnLeafKind _ _ _ _), Nat.leSucc _⟩
  | restore live b g bk gk => cases live with
    | false =>
      have h' : applyEdit t (TEdit.restore false b (nextName t r) (nextName t r + 1) gk) = some t' := h
      have ⟨_, _, _, _, hl⟩ := restoreNodes h'
      exact Or.inr ⟨_, tnNameAt hl (tnLeafKind _ _ _ _), Nat.leSucc _⟩
    | true =>
      have h' : applyEdit t (TEdit.restore true b (nextName t r) (nextName t r + 1) gk) = some t' := h
      have ⟨_, _, _, _, _, _, hl⟩ := restoreLiveNodes h'
      exact Or.inr ⟨_, tnNameAt hl (tnLeafKind _ _ _ _), Nat.leSucc _⟩
  | select g arm bj gj =>
    have h' : applyEdit t (TEdit.select g arm (nextName t r) gj) = some t' := h
    have ⟨_, _, _, _, _, _, _, _, _, _, _, _, hl⟩ := selectNodes h'
    exact Or.inr ⟨_, tnNameAt hl (tnLeafKind _ _ _ _), Nat.leRefl _⟩
  | join g bj gj =>
    have h' : applyEdit t (TEdit.join g (nextName t r) gj) = some t' := h
    have ⟨_, _, _, _, _, _, _, _, hl⟩ := joinNodes h'
    exact Or.inr ⟨_, tnNameAt hl (tnLeafKind _ _ _ _), Nat.leRefl _⟩

theorem tnMaxGe {x : Nat} {l : List Nat} (h : memN x l = true) : x ≤ maxName l :=
  maxNameGe l x ((memNIff x l).1 h)

theorem tnMaxMem : ∀ (l : List Nat), maxName l = 0 ∨ memN (maxName l) l = true
  | [] => Or.inl rfl
  | x :: l => by
    cases hb : Nat.ble x (maxName l) with
    | true =>
      have e : maxName (x :: l) = maxName l := by simp only [maxName, hb]; rfl
      rw [e]
      cases tnMaxMem l with
      | inl h => exact Or.inl h
      | inr h => exact Or.inr (tnMemCons1 h)
    | false =>
      have e : maxName (x :: l) = x := by simp only [maxName, hb]; rfl
      rw [e]
      exact Or.inr (tnMemHead x l)

theorem tnMaxApp (l r : List Nat) : maxName l ≤ maxName (l ++ r) := by
  cases tnMaxMem l with
  | inl h => rw [h]; exact Nat.zeroLe _
  | inr h => exact tnMaxGe (by rw [tnMemApp, h]; rfl)

/-- One step of the runtime machine run with Lean's names never lowers the tree's largest name. -/
theorem stepMaxName (der : Core → Nat → Option (Derived × TEdit)) (S : RState) (e : Ev) :
    maxName (namesOf S.core.tree) ≤ maxName (namesOf (stepR (treeDerN der) S e).2.core.tree) := by
  cases stepTreeN der S e with
  | inl h => rw [h]; exact Nat.leRefl _
  | inr h => cases h with
    | inl h => have ⟨x, hx⟩ := h; rw [hx, hstepNames]; exact Nat.leRefl _
    | inr h =>
      have ⟨_, _, _, _, ha⟩ := h
      cases tnNewLeaf ha with
      | inl e => rw [e]; exact Nat.leRefl _
      | inr p =>
        have ⟨y, hy, hle⟩ := p
        exact Nat.leTrans (Nat.leOfLt (Nat.ltOfLtOfLe (Nat.ltOfLeOfLt (tnMaxApp _ _) (Nat.ltSuccSelf _)) hle))
          (tnMaxGe hy)

theorem replayMaxName (der : Core → Nat → Option (Derived × TEdit)) : ∀ (es : List Ev) (S : RState),
    maxName (namesOf S.core.tree) ≤ maxName (namesOf (replay (treeDerN der) S es).core.tree)
  | [], S => Nat.leRefl _
  | e :: es, S => Nat.leTrans (stepMaxName der S e) (replayMaxName der es _)

theorem tnReplayApp (d : Derivation) : ∀ (es1 es2 : List Ev) (S : RState),
    replay d S (es1 ++ es2) = replay d (replay d S es1) es2
  | [], es2, S => rfl
  | e :: es1, es2, S => by
    rw [List.cons_append]
    exact tnReplayApp d es1 es2 _

/-- On the runtime machine run with Lean's names (`treeDerN`), a name any tree of the run has is below
`nextName` of every later tree, whatever the record reserves: Lean's fresh names never take again a name
a node had, removed since or not. -/
theorem leanNamesNeverReused (der : Core → Nat → Option (Derived × TEdit)) (S : RState) (es1 es2 : List Ev)
    (x : Nat) (hx : memN x (namesOf (replay (treeDerN der) S es1).core.tree) = true) (r : List Nat) :
    x < nextName (replay (treeDerN der) S (es1 ++ es2)).core.tree r := by
  rw [tnReplayApp]
  exact Nat.succLeSucc (Nat.leTrans (tnMaxGe hx) (Nat.leTrans (replayMaxName der es2 _) (tnMaxApp _ _)))

/-- One step of the ideal machine run with Lean's names never lowers the tree's largest name. -/
theorem stepIMaxName (der : Core → Nat → Option (Derived × TEdit)) (c : Core) (e : IEv) :
    maxName (namesOf c.tree) ≤ maxName (namesOf (stepI (treeDerN der) c e).2.tree) := by
  cases stepITreeN der c e with
  | inl h => rw [h]; exact Nat.leRefl _
  | inr h => cases h with
    | inl h => have ⟨x, hx⟩ := h; rw [hx, hstepNames]; exact Nat.leRefl _
    | inr h =>
      have ⟨_, _, _, _, _, _, ha⟩ := h
      cases tnNewLeaf ha with
      | inl e => rw [e]; exact Nat.leRefl _
      | inr p =>
        have ⟨y, hy, hle⟩ := p
        exact Nat.leTrans (Nat.leOfLt (Nat.ltOfLtOfLe (Nat.ltOfLeOfLt (tnMaxApp _ _) (Nat.ltSuccSelf _)) hle))
          (tnMaxGe hy)

theorem replayIdealMaxName (der : Core → Nat → Option (Derived × TEdit)) : ∀ (es : List IEv) (c : Core),
    maxName (namesOf c.tree) ≤ maxName (namesOf (replayIdeal (treeDerN der) c es).tree)
  | [], c => Nat.leRefl _
  | e :: es, c => Nat.leTrans (stepIMaxName der c e) (replayIdealMaxName der es _)

theorem tnReplayIdealApp (d : Derivation) : ∀ (es1 es2 : List IEv) (c : Core),
    replayIdeal d c (es1 ++ es2) = replayIdeal d (replayIdeal d c es1) es2
  | [], es2, c => rfl
  | e :: es1, es2, c => by
    rw [List.cons_append]
    exact tnReplayIdealApp d es1 es2 _

/-- The same on the ideal machine run with Lean's names. -/
theorem leanNamesNeverReusedIdeal (der : Core → Nat → Option (Derived × TEdit)) (c : Core) (es1 es2 : List IEv)
    (x : Nat) (hx : memN x (namesOf (replayIdeal (treeDerN der) c es1).tree) = true) (r : List Nat) :
    x < nextName (replayIdeal (treeDerN der) c (es1 ++ es2)).tree r := by
  rw [tnReplayIdealApp]
  exact Nat.succLeSucc (Nat.leTrans (tnMaxGe hx) (Nat.leTrans (replayIdealMaxName der es2 _) (tnMaxApp _ _)))

end AgentWarrant.Edits.Machine
