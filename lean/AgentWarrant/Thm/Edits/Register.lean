import AgentWarrant.Spec.Edits.Register
import AgentWarrant.Thm.Edits.Input
/-! Registration reflection: `checkReg W R = true ↔ Refines W R` (`𝒲 ⊑_λ ℛ`, Definition 6) for every
finite workflow and registration (`Spec/Edits/Register.lean`). -/
namespace AgentWarrant.Edits.Reg
open AgentWarrant AgentWarrant.Edits

-- Boolean membership and deduplication ---------------------------------------------------------

theorem memDIff [DecidableEq α] (l : List α) (x : α) : memD l x = true ↔ x ∈ l :=
  ⟨fun h => have ⟨y, hy, hb⟩ := anyBElim h; by rw [← ofDecideEqTrue hb]; exact hy,
   fun h => anyBIntro h (decideEqTrue rfl)⟩

theorem memDFalse [DecidableEq α] {l : List α} {x : α} (h : memD l x = false) : ¬ x ∈ l :=
  fun hx => by rw [(memDIff l x).2 hx] at h; contradiction

theorem notMemD [DecidableEq α] {l : List α} {x : α} (h : ¬ x ∈ l) : memD l x = false := by
  cases e : memD l x with
  | true => exact absurd ((memDIff l x).1 e) h
  | false => rfl

theorem memDedupD [DecidableEq α] {x : α} : ∀ {l : List α}, x ∈ dedupD l ↔ x ∈ l
  | [] => Iff.rfl
  | a :: l => by
    cases hm : memD l a with
    | true =>
      simp [dedupD, hm]
      constructor
      · intro h; exact Mem.tail _ ((memDedupD (l := l)).1 h)
      · intro h
        cases memCons h with
        | inl e1 => rw [e1]; exact (memDedupD (l := l)).2 ((memDIff l a).1 hm)
        | inr e2 => exact (memDedupD (l := l)).2 e2
    | false =>
      simp [dedupD, hm]
      constructor
      · intro h
        cases memCons h with
        | inl e1 => rw [e1]; exact Mem.head _
        | inr e2 => exact Mem.tail _ ((memDedupD (l := l)).1 e2)
      · intro h
        cases memCons h with
        | inl e1 => rw [e1]; exact Mem.head _
        | inr e2 => exact Mem.tail _ ((memDedupD (l := l)).2 e2)

-- The least fixed point -------------------------------------------------------------------------

section Closure
variable {α : Type} [DecidableEq α] (U inits : List α) (next : α → List α)

theorem rreachU {x : α} (h : RReach U inits next x) : x ∈ U := by
  cases h with
  | base _ hu => exact hu
  | step _ _ hu => exact hu

theorem lenZeroG : ∀ {B : List α}, List.length B ≤ 0 → B = []
  | [], _ => rfl
  | a :: l, h => by rw [List.length_cons] at h; exact absurd h (Nat.notSuccLeZero _)

theorem filtSameLen (p : α → Bool) (l : List α) (h : Nat.beq (List.length (filt p l)) (List.length l) = true) :
    filt p l = l := by
  cases filtSameOrShorter p l with
  | inl e => exact e
  | inr hlt =>
    rw [Nat.eqOfBeqEqTrue h] at hlt
    exact absurd hlt (Nat.notSuccLeSelf _)

theorem shrinkFixed : ∀ (n : Nat) (N : List α), List.length N ≤ n →
    shrink U inits next (unreachedF U inits next n N) = unreachedF U inits next n N
  | 0, N, h => by rw [lenZeroG h]; rfl
  | n + 1, N, h => by
    cases hb : Nat.beq (List.length (shrink U inits next N)) (List.length N) with
    | true =>
      simp [unreachedF, stopOr, hb]
      exact filtSameLen _ N hb
    | false =>
      simp [unreachedF, stopOr, hb]
      cases filtSameOrShorter (fun x => !memD (frontier U inits next N) x) N with
      | inl e =>
        have e' : shrink U inits next N = N := e
        rw [e', beqSelf] at hb
        contradiction
      | inr hlt => exact shrinkFixed n _ (Nat.leOfSuccLeSucc (Nat.leTrans hlt h))

/-- Everything of `U` outside the unreached list is reachable. -/
def Inv (N : List α) : Prop := ∀ x, x ∈ U → ¬ x ∈ N → RReach U inits next x

theorem shrinkInv (N : List α) (h : Inv U inits next N) : Inv U inits next (shrink U inits next N) := by
  intro x hx hn
  cases hmN : memD N x with
  | false => exact h x hx (memDFalse hmN)
  | true =>
    have hN := (memDIff N x).1 hmN
    cases hk : memD (frontier U inits next N) x with
    | false =>
      have hk' : (!memD (frontier U inits next N) x) = true := by rw [hk]; rfl
      exact absurd (filtMem hN hk') hn
    | true =>
      cases memAppend ((memDIff _ x).1 hk) with
      | inl hi => exact RReach.base hi hx
      | inr hc =>
        have ⟨l, hl, hxl⟩ := memConcat hc
        have ⟨y, hy, e⟩ := memMap hl
        have ⟨hyU, hyN⟩ := memFilt hy
        have hyN' : ¬ y ∈ N := by
          cases e2 : memD N y with
          | true => rw [e2] at hyN; contradiction
          | false => exact memDFalse e2
        rw [e] at hxl
        exact RReach.step (h y hyU hyN') hxl hx

theorem unreachedInv : ∀ (n : Nat) (N : List α), Inv U inits next N → Inv U inits next (unreachedF U inits next n N)
  | 0, N, h => h
  | n + 1, N, h => by
    cases hb : Nat.beq (List.length (shrink U inits next N)) (List.length N) with
    | true => simp [unreachedF, stopOr, hb]; exact h
    | false => simp [unreachedF, stopOr, hb]; exact unreachedInv n _ (shrinkInv U inits next N h)

theorem reachSetIff (x : α) : x ∈ reachSet U inits next ↔ RReach U inits next x := by
  have hfix := shrinkFixed U inits next (List.length U) U (Nat.leRefl _)
  constructor
  · intro h
    have ⟨hu, hn⟩ := memFilt h
    have hinv := unreachedInv U inits next (List.length U) U (fun x hx hn => absurd hx hn)
    apply hinv x hu
    cases e : memD (unreachedF U inits next (List.length U) U) x with
    | true => rw [e] at hn; contradiction
    | false => exact memDFalse e
  · intro h
    apply filtMem (rreachU U inits next h)
    have key : ∀ z, RReach U inits next z → ¬ z ∈ unreachedF U inits next (List.length U) U := by
      intro z hz
      induction hz with
      | base hi hu =>
        intro hN
        rw [← hfix] at hN
        have ⟨_, hk⟩ := memFilt hN
        have h2 : memD (frontier U inits next (unreachedF U inits next (List.length U) U)) _ = true :=
          (memDIff _ _).2 (appendMemL _ hi)
        rw [h2] at hk
        contradiction
      | step hy hxy hu ih =>
        intro hN
        rw [← hfix] at hN
        have ⟨_, hk⟩ := memFilt hN
        have hyF : _ ∈ filt (fun y => !memD (unreachedF U inits next (List.length U) U) y) U :=
          filtMem (rreachU U inits next hy) (by rw [notMemD ih]; rfl)
        have hin := appendMemR inits (concatMem (mapMem (f := next) hyF) hxy)
        have h2 : memD (frontier U inits next (unreachedF U inits next (List.length U) U)) _ = true :=
          (memDIff _ _).2 hin
        rw [h2] at hk
        contradiction
    rw [notMemD (key x h)]
    rfl

end Closure

-- Lists, paths and images -------------------------------------------------------------------------

theorem snocCancel {α : Type} : ∀ {u v : List α} {a b : α}, u ++ [a] = v ++ [b] → u = v ∧ a = b
  | [], [], a, b, h => by simp at h; exact ⟨rfl, h⟩
  | [], x :: v, a, b, h => by
    rw [List.nil_append, List.cons_append] at h
    have ⟨_, h2⟩ := List.cons.inj h
    cases v with
    | nil => simp at h2
    | cons _ _ => simp at h2
  | x :: u, [], a, b, h => by
    rw [List.nil_append, List.cons_append] at h
    have ⟨_, h2⟩ := List.cons.inj h
    cases u with
    | nil => simp at h2
    | cons _ _ => simp at h2
  | x :: u, y :: v, a, b, h => by
    rw [List.cons_append, List.cons_append] at h
    have ⟨h1, h2⟩ := List.cons.inj h
    have ⟨e1, e2⟩ := snocCancel h2
    rw [h1, e1]; exact ⟨rfl, e2⟩

theorem snocNeNil {α : Type} : ∀ (u : List α) (a : α), u ++ [a] ≠ []
  | [], a, h => by simp at h
  | x :: u, a, h => by rw [List.cons_append] at h; simp at h

theorem flagSnoc (u v : List SLetter) (a b : SLetter) :
    (!decide (u ++ [a] = v ++ [b])) = ((!decide (u = v)) || !decide (a = b)) := by
  cases Decidable.em (u = v) with
  | inl huv =>
    cases Decidable.em (a = b) with
    | inl hab =>
      subst huv; subst hab
      rw [decideEqTrue (rfl : u ++ [a] = u ++ [a]), decideEqTrue (rfl : u = u), decideEqTrue (rfl : a = a)]; rfl
    | inr hab =>
      have hne : ¬ (u ++ [a] = v ++ [b]) := fun e => hab (snocCancel e).2
      rw [decideEqFalse hne, decideEqTrue huv, decideEqFalse hab]; rfl
  | inr huv =>
    have hne : ¬ (u ++ [a] = v ++ [b]) := fun e => huv (snocCancel e).1
    rw [decideEqFalse hne, decideEqFalse huv]
    cases decide (a = b) <;> rfl

theorem beqTrueEq {a b : Nat} (h : Nat.beq a b = true) : a = b := Nat.eqOfBeqEqTrue h

theorem outOfIff (W : Wf) (s : Nat) (tr : Tr) : tr ∈ outOf W s ↔ tr ∈ W.trs ∧ tr.src = s :=
  ⟨fun h => have ⟨h1, h2⟩ := memFilt h; ⟨h1, beqTrueEq h2⟩,
   fun ⟨h1, h2⟩ => filtMem h1 (by rw [h2]; exact beqSelf s)⟩

theorem initSts (W : Wf) : W.init ∈ sts W := (memDedupD).2 (Mem.head _)

theorem srcSts {W : Wf} {tr : Tr} (h : tr ∈ W.trs) : tr.src ∈ sts W :=
  (memDedupD).2 (Mem.tail _ (appendMemL _ (appendMemL _ (mapMem h))))

theorem tgtSts {W : Wf} {tr : Tr} (h : tr ∈ W.trs) : tr.tgt ∈ sts W :=
  (memDedupD).2 (Mem.tail _ (appendMemL _ (appendMemR _ (mapMem h))))

theorem resSts {W : Wf} {t r : Nat} (h : (t, r) ∈ W.res) : t ∈ sts W :=
  (memDedupD).2 (Mem.tail _ (appendMemR _ (mapMem (f := Prod.fst) h)))

/-- One step at the end of a path. -/
theorem pathStep {W : Wf} {s t : Nat} {ws : List SLetter} (p : Path W s ws t) (tr : Tr) (htr : tr ∈ W.trs)
    (hs : tr.src = t) : ∃ ws', Path W s ws' tr.tgt ∧ (tr.lbl = none → ws' = ws) ∧
      ∀ l, tr.lbl = some l → ws' = ws ++ [l] := by
  cases hl : tr.lbl with
  | none => exact ⟨ws, Path.tau tr p htr hs hl, fun _ => rfl, fun l e => by cases e⟩
  | some l =>
    refine ⟨ws ++ [l], Path.call tr l p htr hs hl, ?_, ?_⟩
    · intro e; cases e
    · intro l' e; rw [Option.some.inj e]

theorem pathAppend {W : Wf} {s t : Nat} {ws : List SLetter} (p : Path W s ws t) :
    ∀ {ws' : List SLetter} {t' : Nat}, Path W t ws' t' → Path W s (ws ++ ws') t' := by
  intro ws' t' q
  induction q with
  | refl => rw [List.append_nil]; exact p
  | tau tr _ htr hs hl ih => exact Path.tau tr ih htr hs hl
  | call tr l _ htr hs hl ih => rw [← List.append_assoc]; exact Path.call tr l ih htr hs hl

theorem pathOne {W : Wf} (tr : Tr) (htr : tr ∈ W.trs) :
    ∃ ws, Path W tr.src ws tr.tgt := by
  have ⟨ws, p, _, _⟩ := pathStep (Path.refl (W := W) (s := tr.src)) tr htr rfl
  exact ⟨ws, p⟩

theorem imgSnoc {R : RegR} : ∀ {ws : List SLetter} {u : List Nat} {l : SLetter} {c : Nat},
    imgW R ws = some u → lookupN l.1 R.lamCall = some c → imgW R (ws ++ [l]) = some (u ++ [c])
  | [], u, l, c, h, hc => by
    simp [imgW] at h
    rw [← h]
    simp [imgW, hc]
  | x :: ws, u, l, c, h, hc => by
    rw [List.cons_append]
    cases hx : lookupN x.1 R.lamCall with
    | none => simp [imgW, hx] at h
    | some cx =>
      cases hw : imgW R ws with
      | none => simp [imgW, hx, hw] at h
      | some uw =>
        simp [imgW, hx, hw] at h
        rw [← h]
        simp [imgW, hx, imgSnoc hw hc]

theorem imgAppendInv {R : RegR} : ∀ {a b : List SLetter} {v : List Nat}, imgW R (a ++ b) = some v →
    ∃ va vb, imgW R a = some va ∧ imgW R b = some vb ∧ v = va ++ vb
  | [], b, v, h => ⟨[], v, rfl, h, rfl⟩
  | x :: a, b, v, h => by
    rw [List.cons_append] at h
    cases hx : lookupN x.1 R.lamCall with
    | none => simp [imgW, hx] at h
    | some cx =>
      cases hw : imgW R (a ++ b) with
      | none => simp [imgW, hx, hw] at h
      | some uw =>
        simp [imgW, hx, hw] at h
        have ⟨va, vb, h1, h2, h3⟩ := imgAppendInv hw
        refine ⟨cx :: va, vb, ?_, h2, ?_⟩
        · simp [imgW, hx, h1]
        · rw [← h, h3, List.cons_append]

theorem imgSnocInv {R : RegR} {ws : List SLetter} {l : SLetter} {v : List Nat}
    (h : imgW R (ws ++ [l]) = some v) : ∃ u c, imgW R ws = some u ∧ lookupN l.1 R.lamCall = some c ∧ v = u ++ [c] := by
  have ⟨va, vb, h1, h2, h3⟩ := imgAppendInv h
  cases hc : lookupN l.1 R.lamCall with
  | none => simp [imgW, hc] at h2
  | some c =>
    simp [imgW, hc] at h2
    rw [← h2] at h3
    exact ⟨va, c, h1, rfl, h3⟩

theorem imgNilInv {R : RegR} : ∀ {ws : List SLetter}, imgW R ws = some [] → ws = []
  | [], _ => rfl
  | x :: ws, h => by
    cases hx : lookupN x.1 R.lamCall with
    | none => simp [imgW, hx] at h
    | some cx =>
      cases hw : imgW R ws with
      | none => simp [imgW, hx, hw] at h
      | some uw =>
        have e : imgW R (x :: ws) = some (cx :: uw) := by simp [imgW, hx, hw]
        rw [e] at h
        exact absurd (Option.some.inj h) (fun e2 => by cases e2)

theorem rawPrefixesIff : ∀ (w z : List Nat), z ∈ rawPrefixes w ↔ IsPrefix z w
  | [], z => by
    constructor
    · intro h; rw [memSingle h]; exact prefixNil _
    · intro ⟨t, ht⟩
      cases z with
      | nil => exact Mem.head _
      | cons a z => simp at ht
  | a :: w, z => by
    constructor
    · intro h
      cases memCons h with
      | inl e => rw [e]; exact prefixNil _
      | inr h' =>
        have ⟨y, hy, e⟩ := memMap h'
        have ⟨t, ht⟩ := (rawPrefixesIff w y).1 hy
        rw [e, ht]; exact ⟨t, by rw [List.cons_append]⟩
    · intro ⟨t, ht⟩
      cases z with
      | nil => exact Mem.head _
      | cons b z =>
        rw [List.cons_append] at ht
        have ⟨e1, e2⟩ := List.cons.inj ht
        rw [← e1]
        exact Mem.tail _ (mapMem (f := fun z => a :: z) ((rawPrefixesIff w z).2 ⟨t, e2⟩))

theorem pwOf {R : RegR} {po : POutcome} {w z : List Nat} (hpo : po ∈ R.outs) (hw : w ∈ linsOf po.pom)
    (hz : IsPrefix z w) : z ∈ pw R :=
  (memDedupD).2 (concatMem (mapMem hpo) (concatMem (mapMem hw) ((rawPrefixesIff w z).2 hz)))

theorem pwInv {R : RegR} {z : List Nat} (h : z ∈ pw R) :
    ∃ po w, po ∈ R.outs ∧ w ∈ linsOf po.pom ∧ IsPrefix z w := by
  have ⟨l, hl, hz⟩ := memConcat ((memDedupD).1 h)
  have ⟨po, hpo, e⟩ := memMap hl
  rw [e] at hz
  have ⟨l', hl', hz'⟩ := memConcat hz
  have ⟨w, hw, e'⟩ := memMap hl'
  rw [e'] at hz'
  exact ⟨po, w, hpo, hw, (rawPrefixesIff w z).1 hz'⟩

theorem pwPrefix {R : RegR} {z y : List Nat} (h : z ++ y ∈ pw R) : z ∈ pw R := by
  have ⟨po, w, hpo, hw, hp⟩ := pwInv h
  exact pwOf hpo hw (prefixTrans ⟨y, rfl⟩ hp)

-- Reachability and co-reachability in the workflow ----------------------------------------------

theorem reachWIff (W : Wf) (s : Nat) : s ∈ reachW W ↔ ∃ ws, Path W W.init ws s := by
  show s ∈ reachSet (sts W) [W.init] (succW W) ↔ _
  rw [reachSetIff]
  constructor
  · intro h
    induction h with
    | base hi _ => rw [memSingle hi]; exact ⟨[], Path.refl⟩
    | step _ hxy _ ih =>
      have ⟨ws, p⟩ := ih
      have ⟨tr, htr, e⟩ := memMap hxy
      have ⟨h1, h2⟩ := (outOfIff W _ tr).1 htr
      have ⟨ws', p', _, _⟩ := pathStep p tr h1 h2
      rw [e]; exact ⟨ws', p'⟩
  · intro ⟨ws, p⟩
    induction p with
    | refl => exact RReach.base (Mem.head _) (initSts W)
    | tau tr _ htr hs _ ih =>
      exact RReach.step ih (mapMem ((outOfIff W _ tr).2 ⟨htr, hs⟩)) (tgtSts htr)
    | call tr _ _ htr hs _ ih =>
      exact RReach.step ih (mapMem ((outOfIff W _ tr).2 ⟨htr, hs⟩)) (tgtSts htr)

theorem pathStartSts {W : Wf} {s t : Nat} {ws : List SLetter} (p : Path W s ws t) : t ∈ sts W → s ∈ sts W := by
  induction p with
  | refl => exact id
  | tau tr _ htr hs _ ih => intro _; rw [← hs] at ih; exact ih (srcSts htr)
  | call tr _ _ htr hs _ ih => intro _; rw [← hs] at ih; exact ih (srcSts htr)

theorem pathEndSts {W : Wf} {s t : Nat} {ws : List SLetter} (p : Path W s ws t) : s ∈ sts W → t ∈ sts W := by
  induction p with
  | refl => exact id
  | tau tr _ htr _ _ _ => intro _; exact tgtSts htr
  | call tr _ _ htr _ _ _ => intro _; exact tgtSts htr

theorem coWIff (W : Wf) (s : Nat) : s ∈ coW W ↔ ∃ ws t r, Path W s ws t ∧ (t, r) ∈ W.res := by
  show s ∈ reachSet (sts W) (List.map Prod.fst W.res) (predW W) ↔ _
  rw [reachSetIff]
  constructor
  · intro h
    induction h with
    | base hi _ =>
      have ⟨pr, hpr, e⟩ := memMap hi
      rw [e]; exact ⟨[], pr.1, pr.2, Path.refl, by cases pr; exact hpr⟩
    | step _ hxy _ ih =>
      have ⟨ws, t, r, p, hr⟩ := ih
      have ⟨tr, htr, e⟩ := memMap hxy
      have ⟨h1, h2⟩ := memFilt htr
      have ⟨ws1, p1⟩ := pathOne (W := W) tr h1
      rw [beqTrueEq h2] at p1
      rw [e]; exact ⟨ws1 ++ ws, t, r, pathAppend p1 p, hr⟩
  · intro ⟨ws, t, r, p, hr⟩
    have hback : ∀ {s' : Nat} {ws' : List SLetter} {t' : Nat}, Path W s' ws' t' →
        RReach (sts W) (List.map Prod.fst W.res) (predW W) t' →
        s' ∈ sts W → RReach (sts W) (List.map Prod.fst W.res) (predW W) s' := by
      intro s' ws' t' q
      induction q with
      | refl => exact fun h _ => h
      | tau tr _ htr hs _ ih =>
        intro h hs'
        apply ih _ hs'
        rw [← hs]
        exact RReach.step h (mapMem (filtMem htr (beqSelf _))) (srcSts htr)
      | call tr _ _ htr hs _ ih =>
        intro h hs'
        apply ih _ hs'
        rw [← hs]
        exact RReach.step h (mapMem (filtMem htr (beqSelf _))) (srcSts htr)
    exact hback p (RReach.base (mapMem (f := Prod.fst) hr) (resSts hr)) (pathStartSts p (resSts hr))

-- The product with the registered prefixes -------------------------------------------------------

theorem u1Mem {W : Wf} {R : RegR} {s : Nat} {u : List Nat} (hs : s ∈ sts W) (hu : u ∈ pw R) : (s, u) ∈ u1 W R :=
  concatMem (mapMem hs) (mapMem (f := fun u => (s, u)) hu)

theorem u1Pw {W : Wf} {R : RegR} {y : Nat × List Nat} (h : y ∈ u1 W R) : y.2 ∈ pw R := by
  have ⟨l, hl, hy⟩ := memConcat h
  have ⟨s, _, e⟩ := memMap hl
  rw [e] at hy
  have ⟨u, hu, e'⟩ := memMap hy
  rw [e']; exact hu

theorem next1Mem {W : Wf} {R : RegR} {y x : Nat × List Nat} {tr : Tr} (htr : tr ∈ W.trs) (hs : tr.src = y.1)
    (hx : x ∈ step1 R y.2 tr) : x ∈ next1 W R y :=
  concatMem (mapMem ((outOfIff W y.1 tr).2 ⟨htr, hs⟩)) hx

theorem next1Inv {W : Wf} {R : RegR} {y x : Nat × List Nat} (h : x ∈ next1 W R y) :
    ∃ tr, tr ∈ W.trs ∧ tr.src = y.1 ∧ x ∈ step1 R y.2 tr := by
  have ⟨l, hl, hx⟩ := memConcat h
  have ⟨tr, htr, e⟩ := memMap hl
  rw [e] at hx
  have ⟨h1, h2⟩ := (outOfIff W y.1 tr).1 htr
  exact ⟨tr, h1, h2, hx⟩

theorem step1Tau {R : RegR} {u : List Nat} {tr : Tr} (hl : tr.lbl = none) : (tr.tgt, u) ∈ step1 R u tr := by
  simp [step1, hl]; exact Mem.head _

theorem step1Call {R : RegR} {u : List Nat} {tr : Tr} {l : SLetter} {c : Nat} (hl : tr.lbl = some l)
    (hc : lookupN l.1 R.lamCall = some c) : (tr.tgt, u ++ [c]) ∈ step1 R u tr := by
  simp [step1, hl, hc]; exact Mem.head _

theorem step1Inv {R : RegR} {u : List Nat} {tr : Tr} {x : Nat × List Nat} (h : x ∈ step1 R u tr) :
    (tr.lbl = none ∧ x = (tr.tgt, u)) ∨
    ∃ l c, tr.lbl = some l ∧ lookupN l.1 R.lamCall = some c ∧ x = (tr.tgt, u ++ [c]) := by
  cases hl : tr.lbl with
  | none =>
    have h' : x ∈ [(tr.tgt, u)] := by simp [step1, hl] at h; exact h
    exact Or.inl ⟨rfl, memSingle h'⟩
  | some l =>
    cases hc : lookupN l.1 R.lamCall with
    | none =>
      have h' : x ∈ ([] : List (Nat × List Nat)) := by simp [step1, hl, hc] at h; exact h
      exact absurd h' notMemNil
    | some c =>
      have h' : x ∈ [(tr.tgt, u ++ [c])] := by simp [step1, hl, hc] at h; exact h
      exact Or.inr ⟨l, c, rfl, hc, memSingle h'⟩

theorem r1Iff (W : Wf) (R : RegR) (y : Nat × List Nat) :
    y ∈ r1 W R ↔ RReach (u1 W R) [(W.init, [])] (next1 W R) y := by
  simp only [r1]; exact reachSetIff (u1 W R) [(W.init, [])] (next1 W R) y

theorem r1Sound {W : Wf} {R : RegR} {y : Nat × List Nat} (h : y ∈ r1 W R) :
    ∃ ws, Path W W.init ws y.1 ∧ imgW R ws = some y.2 := by
  have h' := (r1Iff W R y).1 h
  clear h
  induction h' with
  | base hi _ => rw [memSingle hi]; exact ⟨[], Path.refl, rfl⟩
  | step _ hxy _ ih =>
    have ⟨ws, p, hi⟩ := ih
    have ⟨tr, htr, hs, hx⟩ := next1Inv hxy
    cases step1Inv hx with
    | inl h1 => rw [h1.2]; exact ⟨ws, Path.tau tr p htr hs h1.1, hi⟩
    | inr h2 =>
      have ⟨l, c, hl, hc, e⟩ := h2
      rw [e]; exact ⟨ws ++ [l], Path.call tr l p htr hs hl, imgSnoc hi hc⟩

theorem r1Complete {W : Wf} {R : RegR} {ws : List SLetter} {s : Nat} (p : Path W W.init ws s) :
    ∀ u, imgW R ws = some u → u ∈ pw R → (s, u) ∈ r1 W R := by
  induction p with
  | refl =>
    intro u hu hpw
    simp [imgW] at hu
    rw [← hu] at hpw ⊢
    exact (r1Iff W R _).2 (RReach.base (Mem.head _) (u1Mem (initSts W) hpw))
  | tau tr _ htr hs hl ih =>
    intro u hu hpw
    have hprev := (r1Iff W R _).1 (ih u hu hpw)
    exact (r1Iff W R _).2 (RReach.step hprev (next1Mem htr hs (step1Tau hl)) (u1Mem (tgtSts htr) hpw))
  | call tr l _ htr hs hl ih =>
    intro u hu hpw
    have ⟨u', c, h1, h2, e⟩ := imgSnocInv hu
    rw [e] at hpw ⊢
    have hprev := (r1Iff W R _).1 (ih u' h1 (pwPrefix hpw))
    exact (r1Iff W R _).2 (RReach.step hprev (next1Mem htr hs (step1Call hl h2)) (u1Mem (tgtSts htr) hpw))

theorem r1U {W : Wf} {R : RegR} {y : Nat × List Nat} (h : y ∈ r1 W R) : y ∈ u1 W R :=
  rreachU _ _ _ ((r1Iff W R y).1 h)

-- The synchronized self-product -------------------------------------------------------------------

theorem u2Mem {W : Wf} {a b : Nat} (d : Bool) (ha : a ∈ sts W) (hb : b ∈ sts W) : (a, b, d) ∈ u2 W := by
  apply concatMem (mapMem ha)
  apply concatMem (mapMem (f := fun b => [(a, b, false), (a, b, true)]) hb)
  cases d with
  | false => exact Mem.head _
  | true => exact Mem.tail _ (Mem.head _)

theorem r2Iff (W : Wf) (R : RegR) (y : Nat × Nat × Bool) :
    y ∈ r2 W R ↔ RReach (u2 W) [(W.init, W.init, false)] (next2 W R) y := by
  simp only [r2]; exact reachSetIff (u2 W) [(W.init, W.init, false)] (next2 W R) y

theorem isTauOf {tr : Tr} (h : tr.lbl = none) : isTau tr = true := by simp [isTau, h]

theorem isTauInv {tr : Tr} (h : isTau tr = true) : tr.lbl = none := by
  cases hl : tr.lbl with
  | none => rfl
  | some l => simp [isTau, hl] at h

theorem leftTau {W : Wf} {R : RegR} {y : Nat × Nat × Bool} {tr : Tr} (htr : tr ∈ W.trs) (hs : tr.src = y.1)
    (hl : tr.lbl = none) : (tr.tgt, y.2.1, y.2.2) ∈ next2 W R y :=
  appendMemL _ (appendMemL _ (mapMem (f := fun tr => (tr.tgt, y.2.1, y.2.2))
    (filtMem ((outOfIff W y.1 tr).2 ⟨htr, hs⟩) (isTauOf hl))))

theorem rightTau {W : Wf} {R : RegR} {y : Nat × Nat × Bool} {tr : Tr} (htr : tr ∈ W.trs) (hs : tr.src = y.2.1)
    (hl : tr.lbl = none) : (y.1, tr.tgt, y.2.2) ∈ next2 W R y :=
  appendMemL _ (appendMemR _ (mapMem (f := fun tr => (y.1, tr.tgt, y.2.2))
    (filtMem ((outOfIff W y.2.1 tr).2 ⟨htr, hs⟩) (isTauOf hl))))

theorem syncMem {W : Wf} {R : RegR} {y : Nat × Nat × Bool} {t1 t2 : Tr} {l1 l2 : SLetter} {c : Nat}
    (h1 : t1 ∈ W.trs) (hs1 : t1.src = y.1) (hl1 : t1.lbl = some l1) (hc1 : lookupN l1.1 R.lamCall = some c)
    (h2 : t2 ∈ W.trs) (hs2 : t2.src = y.2.1) (hl2 : t2.lbl = some l2) (hc2 : lookupN l2.1 R.lamCall = some c) :
    (t1.tgt, t2.tgt, y.2.2 || !decide (l1 = l2)) ∈ next2 W R y := by
  apply appendMemR
  apply concatMem (mapMem ((outOfIff W y.1 t1).2 ⟨h1, hs1⟩))
  apply concatMem (mapMem ((outOfIff W y.2.1 t2).2 ⟨h2, hs2⟩))
  simp [syncOut, hl1, hl2, hc1, hc2, beqSelf]
  exact Mem.head _

theorem syncInv {R : RegR} {d : Bool} {t1 t2 : Tr} {x : Nat × Nat × Bool} (h : x ∈ syncOut R d t1 t2) :
    ∃ l1 l2 c, t1.lbl = some l1 ∧ t2.lbl = some l2 ∧ lookupN l1.1 R.lamCall = some c ∧
      lookupN l2.1 R.lamCall = some c ∧ x = (t1.tgt, t2.tgt, d || !decide (l1 = l2)) := by
  cases hl1 : t1.lbl with
  | none => simp [syncOut, hl1] at h; exact absurd h notMemNil
  | some l1 =>
    cases hl2 : t2.lbl with
    | none => simp [syncOut, hl1, hl2] at h; exact absurd h notMemNil
    | some l2 =>
      cases hc1 : lookupN l1.1 R.lamCall with
      | none => simp [syncOut, hl1, hl2, hc1] at h; exact absurd h notMemNil
      | some c1 =>
        cases hc2 : lookupN l2.1 R.lamCall with
        | none => simp [syncOut, hl1, hl2, hc1, hc2] at h; exact absurd h notMemNil
        | some c2 =>
          cases hb : Nat.beq c1 c2 with
          | false => simp [syncOut, hl1, hl2, hc1, hc2, hb] at h; exact absurd h notMemNil
          | true =>
            have h' : x ∈ [(t1.tgt, t2.tgt, d || !decide (l1 = l2))] := by
              simp [syncOut, hl1, hl2, hc1, hc2, hb] at h; exact h
            rw [beqTrueEq hb] at hc1
            exact ⟨l1, l2, c2, rfl, rfl, hc1, hc2, memSingle h'⟩

theorem next2Inv {W : Wf} {R : RegR} {y x : Nat × Nat × Bool} (h : x ∈ next2 W R y) :
    (∃ tr, tr ∈ W.trs ∧ tr.src = y.1 ∧ tr.lbl = none ∧ x = (tr.tgt, y.2.1, y.2.2)) ∨
    (∃ tr, tr ∈ W.trs ∧ tr.src = y.2.1 ∧ tr.lbl = none ∧ x = (y.1, tr.tgt, y.2.2)) ∨
    (∃ t1 t2, t1 ∈ W.trs ∧ t1.src = y.1 ∧ t2 ∈ W.trs ∧ t2.src = y.2.1 ∧ x ∈ syncOut R y.2.2 t1 t2) := by
  cases memAppend h with
  | inl h12 =>
    cases memAppend h12 with
    | inl hL =>
      have ⟨tr, htr, e⟩ := memMap hL
      have ⟨hm, ht⟩ := memFilt htr
      have ⟨h1, h2⟩ := (outOfIff W _ tr).1 hm
      exact Or.inl ⟨tr, h1, h2, isTauInv ht, e⟩
    | inr hR =>
      have ⟨tr, htr, e⟩ := memMap hR
      have ⟨hm, ht⟩ := memFilt htr
      have ⟨h1, h2⟩ := (outOfIff W _ tr).1 hm
      exact Or.inr (Or.inl ⟨tr, h1, h2, isTauInv ht, e⟩)
  | inr h3 =>
    have ⟨l, hl, hx⟩ := memConcat h3
    have ⟨t1, ht1, e⟩ := memMap hl
    rw [e] at hx
    have ⟨l', hl', hx'⟩ := memConcat hx
    have ⟨t2, ht2, e'⟩ := memMap hl'
    rw [e'] at hx'
    have ⟨a1, a2⟩ := (outOfIff W _ t1).1 ht1
    have ⟨b1, b2⟩ := (outOfIff W _ t2).1 ht2
    exact Or.inr (Or.inr ⟨t1, t2, a1, a2, b1, b2, hx'⟩)

theorem r2Sound {W : Wf} {R : RegR} {y : Nat × Nat × Bool} (h : y ∈ r2 W R) :
    ∃ ws1 ws2 u, Path W W.init ws1 y.1 ∧ Path W W.init ws2 y.2.1 ∧ imgW R ws1 = some u ∧
      imgW R ws2 = some u ∧ y.2.2 = !decide (ws1 = ws2) := by
  have h' := (r2Iff W R y).1 h
  clear h
  induction h' with
  | base hi _ =>
    rw [memSingle hi]
    exact ⟨[], [], [], Path.refl, Path.refl, rfl, rfl, by rw [decideEqTrue (rfl : ([] : List SLetter) = [])]; rfl⟩
  | step _ hxy _ ih =>
    have ⟨ws1, ws2, u, p1, p2, i1, i2, hd⟩ := ih
    cases next2Inv hxy with
    | inl hL =>
      have ⟨tr, htr, hs, hl, e⟩ := hL
      rw [e]; exact ⟨ws1, ws2, u, Path.tau tr p1 htr hs hl, p2, i1, i2, hd⟩
    | inr hR =>
      cases hR with
      | inl hR' =>
        have ⟨tr, htr, hs, hl, e⟩ := hR'
        rw [e]; exact ⟨ws1, ws2, u, p1, Path.tau tr p2 htr hs hl, i1, i2, hd⟩
      | inr hS =>
        have ⟨t1, t2, a1, a2, b1, b2, hx⟩ := hS
        have ⟨l1, l2, c, hl1, hl2, hc1, hc2, e⟩ := syncInv hx
        rw [e]
        refine ⟨ws1 ++ [l1], ws2 ++ [l2], u ++ [c], Path.call t1 l1 p1 a1 a2 hl1, Path.call t2 l2 p2 b1 b2 hl2,
          imgSnoc i1 hc1, imgSnoc i2 hc2, ?_⟩
        show (_ || _) = _
        rw [flagSnoc, hd]

theorem r2Complete {W : Wf} {R : RegR} {ws1 : List SLetter} {t1 : Nat} (p1 : Path W W.init ws1 t1) :
    ∀ {ws2 : List SLetter} {t2 : Nat} {u : List Nat}, Path W W.init ws2 t2 → imgW R ws1 = some u →
      imgW R ws2 = some u → (t1, t2, !decide (ws1 = ws2)) ∈ r2 W R := by
  induction p1 with
  | refl =>
    intro ws2 t2 u p2 i1 i2
    simp [imgW] at i1
    rw [← i1] at i2
    have e := imgNilInv i2
    rw [e]
    rw [e] at p2
    rw [decideEqTrue (rfl : ([] : List SLetter) = [])]
    apply (r2Iff W R _).2
    have hτ : ∀ {ws : List SLetter} {t : Nat}, Path W W.init ws t → ws = [] →
        RReach (u2 W) [(W.init, W.init, false)] (next2 W R) (W.init, t, false) := by
      intro ws t q
      induction q with
      | refl => intro _; exact RReach.base (Mem.head _) (u2Mem false (initSts W) (initSts W))
      | tau tr _ htr hs hl ih =>
        intro he
        exact RReach.step (ih he) (rightTau (y := (W.init, _, false)) htr hs hl) (u2Mem false (initSts W) (tgtSts htr))
      | call tr l _ _ _ _ _ => intro he; exact absurd he (snocNeNil _ _)
    exact hτ p2 rfl
  | tau tr _ htr hs hl ih =>
    intro ws2 t2 u p2 i1 i2
    have hprev := (r2Iff W R _).1 (ih p2 i1 i2)
    apply (r2Iff W R _).2
    exact RReach.step hprev (leftTau (y := (_, t2, _)) htr hs hl) (u2Mem _ (tgtSts htr) (pathEndSts p2 (initSts W)))
  | @call ws0 t0 tr l1 q1 htr hs hl ih =>
    intro ws2 t2 u p2 i1 i2
    have ⟨u', c, j1, jc, e⟩ := imgSnocInv i1
    rw [e] at i2
    have key : ∀ {ws : List SLetter} {t : Nat}, Path W W.init ws t → imgW R ws = some (u' ++ [c]) →
        (tr.tgt, t, !decide (ws0 ++ [l1] = ws)) ∈ r2 W R := by
      intro ws t q
      induction q with
      | refl => intro h; simp [imgW] at h; exact absurd h.symm (snocNeNil _ _)
      | tau tr2 _ htr2 hs2 hl2 ih2 =>
        intro h
        have hprev := (r2Iff W R _).1 (ih2 h)
        apply (r2Iff W R _).2
        exact RReach.step hprev (rightTau (y := (tr.tgt, _, _)) htr2 hs2 hl2) (u2Mem _ (tgtSts htr) (tgtSts htr2))
      | @call wsB tB tr2 l2 q2 htr2 hs2 hl2 _ =>
        intro h
        have ⟨u2', c2, k1, kc, e2⟩ := imgSnocInv h
        have ⟨eu, ec⟩ := snocCancel e2
        rw [← eu] at k1
        rw [← ec] at kc
        have hprev := (r2Iff W R _).1 (ih q2 j1 k1)
        apply (r2Iff W R _).2
        have hstep := syncMem (R := R) (y := (t0, tB, !decide (ws0 = wsB))) htr hs hl jc htr2 hs2 hl2 kc
        rw [← flagSnoc] at hstep
        exact RReach.step hprev hstep (u2Mem _ (tgtSts htr) (tgtSts htr2))
    exact key p2 i2

-- The checks against `⊑_λ` ------------------------------------------------------------------------

theorem andT {a b : Bool} : (a && b) = true ↔ a = true ∧ b = true := by
  cases a <;> cases b <;> simp

theorem certBIff (R : RegR) (l : SLetter) : certB R l = true ↔ Certified R l := by
  constructor
  · intro h
    cases hc : lookupN l.1 R.lamCall with
    | none => simp [certB, hc] at h
    | some c =>
      cases ha : lookupN c R.tmpl with
      | none => simp [certB, hc, ha] at h
      | some a =>
        cases hq : lookupN a R.req with
        | none => simp [certB, hc, ha, hq] at h
        | some q =>
          have h' : Nat.beq q l.2 = true := by simp [certB, hc, ha, hq] at h; exact h
          rw [beqTrueEq h'] at hq
          exact ⟨c, a, hc, ha, hq⟩
  · intro ⟨c, a, hc, ha, hq⟩
    simp [certB, hc, ha, hq, beqSelf]

theorem brunBIff (R : RegR) (o : Nat) (u : List Nat) : brunB R o u = true ↔ BRun R o u := by
  constructor
  · intro h
    have ⟨po, hpo, hb⟩ := anyBElim h
    have ⟨h1, h2⟩ := andT.1 hb
    exact ⟨po, hpo, beqTrueEq h1, (linsOfIff _ _).1 ((memDIff _ _).1 h2)⟩
  · intro ⟨po, hpo, hid, hlin⟩
    apply anyBIntro hpo
    apply andT.2
    rw [hid]
    exact ⟨beqSelf o, (memDIff _ _).2 ((linsOfIff _ _).2 hlin)⟩

/-- The forward walk: every path from the initial state is tracked in the product when the checks hold. -/
theorem forward {W : Wf} {R : RegR} (hI' : memD (r1 W R) (W.init, []) = true)
    (hC' : allB (fun y => allB (callOk R y.2) (outOf W y.1)) (r1 W R) = true)
    {ws : List SLetter} {s : Nat} (p : Path W W.init ws s) :
    ∃ u, imgW R ws = some u ∧ (s, u) ∈ r1 W R ∧ ∀ l, l ∈ ws → Certified R l := by
  induction p with
  | refl => exact ⟨[], rfl, (memDIff (r1 W R) (W.init, [])).1 hI', fun l h => absurd h notMemNil⟩
  | tau tr _ htr hs hl ih =>
    have ⟨u, i, hr1, hc⟩ := ih
    exact ⟨u, i, (r1Iff W R _).2 (RReach.step ((r1Iff W R _).1 hr1) (next1Mem htr hs (step1Tau hl))
      (u1Mem (tgtSts htr) (u1Pw (r1U hr1)))), hc⟩
  | @call ws0 t0 tr l _ htr hs hl ih =>
    have ⟨u, i, hr1, hcert⟩ := ih
    have hok : callOk R u tr = true :=
      allBElim (allBElim hC' (t0, u) hr1) tr ((outOfIff W t0 tr).2 ⟨htr, hs⟩)
    cases hc : lookupN l.1 R.lamCall with
    | none => simp [callOk, hl, hc] at hok
    | some c =>
      have hok' : (certB R l && memD (pw R) (u ++ [c])) = true := by simp [callOk, hl, hc] at hok; exact hok
      have ⟨h1, h2⟩ := andT.1 hok'
      refine ⟨u ++ [c], imgSnoc i hc, ?_, ?_⟩
      · exact (r1Iff W R _).2 (RReach.step ((r1Iff W R _).1 hr1) (next1Mem htr hs (step1Call hl hc))
          (u1Mem (tgtSts htr) ((memDIff _ _).1 h2)))
      · intro l' hl'
        cases memAppend hl' with
        | inl h => exact hcert l' h
        | inr h => rw [memSingle h]; exact (certBIff R l).1 h1

theorem checkSound (W : Wf) (R : RegR) (h : checkReg W R = true) : Refines W R := by
  have ⟨h6, hInj⟩ := andT.1 h
  have ⟨h5, hOnto⟩ := andT.1 h6
  have ⟨h4, hRes⟩ := andT.1 h5
  have ⟨h3, hCall⟩ := andT.1 h4
  have ⟨h2, hInit⟩ := andT.1 h3
  have ⟨hReq0, hStuck0⟩ := andT.1 h2
  have hReq : allB (fun p => allB (fun q => !(Nat.beq p.2 q.2) || Nat.beq p.1 q.1) R.req) R.req = true := by simp only [chkReq] at hReq0; exact hReq0
  have hStuck : allB (memD (coW W)) (reachW W) = true := by simp only [chkStuck] at hStuck0; exact hStuck0
  have hRes' : allB (fun y => allB (resOk R y) W.res) (r1 W R) = true := by simp only [chkRes] at hRes; exact hRes
  have hOnto' : allB (fun po => allB (fun w => anyB (closesRun W R po.id w) (r1 W R)) (linsOf po.pom)) R.outs = true := by
    simp only [chkOnto, chkOntoIn] at hOnto; exact hOnto
  have hInj' : allB (fun y => allB (fun p1 => allB (injOk R y p1) W.res) W.res) (r2 W R) = true := by simp only [chkInj] at hInj; exact hInj
  constructor
  · intro ws s p
    exact (coWIff W s).1 ((memDIff _ _).1 (allBElim hStuck s ((reachWIff W s).2 ⟨ws, p⟩)))
  · intro a b q ha hb
    have h' : (!(Nat.beq q q) || Nat.beq a b) = true := allBElim (allBElim hReq (a, q) ha) (b, q) hb
    rw [beqSelf] at h'
    exact beqTrueEq h'
  · intro r ws ⟨t, p, hr⟩
    have hI' : memD (r1 W R) (W.init, []) = true := by simp only [chkInit] at hInit; exact hInit
    have hC' : allB (fun y => allB (callOk R y.2) (outOf W y.1)) (r1 W R) = true := by
      simp only [chkCall] at hCall; exact hCall
    have ⟨u, i, hr1, hcert⟩ := forward hI' hC' p
    have hok : resOk R (t, u) (t, r) = true := allBElim (allBElim hRes' (t, u) hr1) (t, r) hr
    cases ho : lookupN r R.lamRes with
    | none => simp [resOk, ho, beqSelf] at hok
    | some o =>
      have hb : brunB R o u = true := by simp [resOk, ho, beqSelf] at hok; exact hok
      exact ⟨hcert, o, u, rfl, i, (brunBIff R o u).1 hb⟩
  · intro o w ⟨po, hpo, hid, hlin⟩
    have hw := (linsOfIff _ _).2 hlin
    have ⟨y, hy, hcl⟩ := anyBElim (allBElim (allBElim hOnto' po hpo) w hw)
    simp only [closesRun] at hcl
    have ⟨hc1, hc2⟩ := andT.1 hcl
    have ⟨pr, hpr, hm⟩ := anyBElim hc2
    have ⟨hm1, hm2⟩ := andT.1 hm
    have ⟨ws, p, i⟩ := r1Sound hy
    cases ho : lookupN pr.2 R.lamRes with
    | none => simp [ho] at hm2
    | some o' =>
      have e1 : o' = po.id := by simp [ho] at hm2; exact beqTrueEq hm2
      have e2 : pr.1 = y.1 := beqTrueEq hm1
      have e3 : y.2 = w := ofDecideEqTrue hc1
      refine ⟨pr.2, ws, ⟨y.1, p, ?_⟩, ?_, ?_⟩
      · rw [← e2]; cases pr; exact hpr
      · rw [ho, e1, hid]
      · rw [i, e3]
  · intro r ws r' ws' o u ⟨t1, p1, hr1⟩ ⟨t2, p2, hr2⟩ ho ho' i1 i2
    have hy := r2Complete p1 p2 i1 i2
    have hok : injOk R (t1, t2, !decide (ws = ws')) (t1, r) (t2, r') = true :=
      allBElim (allBElim (allBElim hInj' _ hy) (t1, r) hr1) (t2, r') hr2
    have hok' : ((!!decide (ws = ws')) && Nat.beq r r') = true := by
      simp [injOk, beqSelf, ho, ho'] at hok; exact hok
    have ⟨f1, f2⟩ := andT.1 hok'
    cases hd : decide (ws = ws') with
    | false => rw [hd] at f1; exact absurd f1 (by decide)
    | true => exact ⟨beqTrueEq f2, ofDecideEqTrue hd⟩

theorem checkComplete (W : Wf) (R : RegR) (h : Refines W R) : checkReg W R = true := by
  have hReq : chkReq R = true := by
    simp only [chkReq]
    apply allBIntro
    intro p hp
    apply allBIntro
    intro q hq
    cases hb : Nat.beq p.2 q.2 with
    | false => rfl
    | true =>
      have e : p.1 = q.1 := by
        apply h.distinctReq p.1 q.1 p.2
        · cases p; exact hp
        · rw [beqTrueEq hb]; cases q; exact hq
      show (!true || Nat.beq p.1 q.1) = true
      rw [e, beqSelf]; rfl
  have hStuck : chkStuck W = true := by
    simp only [chkStuck]
    apply allBIntro
    intro s hs
    have ⟨ws, p⟩ := (reachWIff W s).1 hs
    exact (memDIff _ _).2 ((coWIff W s).2 (h.noStuck ws s p))
  have hInit : chkInit W R = true := by
    simp only [chkInit]
    have ⟨ws, t, r, p, hr⟩ := h.noStuck [] W.init Path.refl
    have ⟨_, o, u, _, _, po, hpo, _, hlin⟩ := h.into r ws ⟨t, p, hr⟩
    have hpw := pwOf hpo ((linsOfIff _ _).2 hlin) (prefixNil u)
    exact (memDIff _ _).2 (r1Complete Path.refl [] rfl hpw)
  have hCall : chkCall W R = true := by
    simp only [chkCall]
    apply allBIntro
    intro y hy
    apply allBIntro
    intro tr htr
    have ⟨ws, p, i⟩ := r1Sound hy
    have ⟨h1, h2⟩ := (outOfIff W y.1 tr).1 htr
    cases hl : tr.lbl with
    | none => simp [callOk, hl]
    | some l =>
      have p1 := Path.call tr l p h1 h2 hl
      have ⟨ws', t, r, q, hr⟩ := h.noStuck _ _ p1
      have ⟨hcert, o, v, _, iv, po, hpo, _, hlin⟩ := h.into r _ ⟨t, pathAppend p1 q, hr⟩
      have ⟨c, a, hc, ha, hq⟩ := hcert l (appendMemL _ (appendMemR ws (Mem.head _)))
      have ⟨va, vb, j1, _, e⟩ := imgAppendInv iv
      rw [imgSnoc i hc] at j1
      have e' := Option.some.inj j1
      rw [← e'] at e
      have hpw := pwOf hpo ((linsOfIff _ _).2 hlin) ⟨vb, e⟩
      have hcb := (certBIff R l).2 ⟨c, a, hc, ha, hq⟩
      simp [callOk, hl, hc, hcb, (memDIff _ _).2 hpw]
  have hRes : chkRes W R = true := by
    simp only [chkRes]
    apply allBIntro
    intro y hy
    apply allBIntro
    intro pr hpr
    cases hb : Nat.beq pr.1 y.1 with
    | false => simp [resOk, hb] <;> rfl
    | true =>
      have ⟨ws, p, i⟩ := r1Sound hy
      have hpr' : (y.1, pr.2) ∈ W.res := by rw [← beqTrueEq hb]; cases pr; exact hpr
      have ⟨_, o, u, ho, iu, hbr⟩ := h.into pr.2 ws ⟨y.1, p, hpr'⟩
      rw [i] at iu
      rw [← Option.some.inj iu] at hbr
      simp [resOk, hb, ho, (brunBIff R o y.2).2 hbr] <;> rfl
  have hOnto : chkOnto W R = true := by
    simp only [chkOnto, chkOntoIn]
    apply allBIntro
    intro po hpo
    apply allBIntro
    intro w hw
    have ⟨r, ws, ⟨t, p, hr⟩, ho, i⟩ := h.onto po.id w ⟨po, hpo, rfl, (linsOfIff _ _).1 hw⟩
    have hy := r1Complete p w i (pwOf hpo hw (prefixRefl w))
    apply anyBIntro hy
    simp only [closesRun]
    apply andT.2
    refine ⟨decideEqTrue rfl, ?_⟩
    apply anyBIntro hr
    simp [ho, beqSelf]
  have hInj : chkInj W R = true := by
    simp only [chkInj]
    apply allBIntro
    intro y hy
    apply allBIntro
    intro p1 hp1
    apply allBIntro
    intro p2 hp2
    have ⟨ws1, ws2, u, q1, q2, i1, i2, hd⟩ := r2Sound hy
    cases hb : (Nat.beq p1.1 y.1 && Nat.beq p2.1 y.2.1) with
    | false => simp [injOk, hb] <;> rfl
    | true =>
      have ⟨b1, b2⟩ := andT.1 hb
      cases ho1 : lookupN p1.2 R.lamRes with
      | none => simp [injOk, hb, ho1] <;> rfl
      | some o1 =>
        cases ho2 : lookupN p2.2 R.lamRes with
        | none => simp [injOk, hb, ho1, ho2] <;> rfl
        | some o2 =>
          cases ho : Nat.beq o1 o2 with
          | false => simp [injOk, hb, ho1, ho2, ho] <;> rfl
          | true =>
            have hp1' : (y.1, p1.2) ∈ W.res := by rw [← beqTrueEq b1]; cases p1; exact hp1
            have hp2' : (y.2.1, p2.2) ∈ W.res := by rw [← beqTrueEq b2]; cases p2; exact hp2
            rw [beqTrueEq ho] at ho1
            have ⟨er, ew⟩ := h.inj p1.2 ws1 p2.2 ws2 o2 u ⟨y.1, q1, hp1'⟩ ⟨y.2.1, q2, hp2'⟩ ho1 ho2 i1 i2
            have hd' : y.2.2 = false := by rw [hd, ew, decideEqTrue (rfl : ws2 = ws2)]; rfl
            simp [injOk, hb, ho1, ho2, beqSelf, hd', er] <;> rfl
  simp [checkReg, hReq, hStuck, hInit, hCall, hRes, hOnto, hInj]

/-- Registration reflection (Definition 6, A-G): `CheckReg(𝒲, ℛ)` accepts iff λ witnesses `𝒲 ⊑_λ ℛ`. -/
theorem checkRegIff (W : Wf) (R : RegR) : checkReg W R = true ↔ Refines W R :=
  ⟨checkSound W R, checkComplete W R⟩

-- What an accepted registration preserves ----------------------------------------------------------

theorem lookupMem {k v : Nat} : ∀ {l : List (Nat × Nat)}, lookupN k l = some v → (k, v) ∈ l
  | [], h => by simp [lookupN] at h
  | p :: ps, h => by
    cases hb : Nat.beq p.1 k with
    | true =>
      have e : some p.2 = some v := by simp [lookupN, hb] at h; rw [h]
      rw [← Nat.eqOfBeqEqTrue hb, ← Option.some.inj e]
      cases p; exact Mem.head _
    | false =>
      have h' : lookupN k ps = some v := by simp [lookupN, hb] at h; exact h
      exact Mem.tail _ (lookupMem h')

/-- On acceptance λ preserves which calls refer to the same action: two letters of traces request the
same thing iff the workflow calls λ maps them to name the same action. -/
theorem sameActionIffSameRequest {W : Wf} {R : RegR} (h : checkReg W R = true) {r1 r2 : Nat}
    {ws1 ws2 : List SLetter} (t1 : Trace W r1 ws1) (t2 : Trace W r2 ws2) {l1 l2 : SLetter}
    (h1 : l1 ∈ ws1) (h2 : l2 ∈ ws2) :
    ∃ c1 c2 a1 a2, lookupN l1.1 R.lamCall = some c1 ∧ lookupN l2.1 R.lamCall = some c2 ∧
      lookupN c1 R.tmpl = some a1 ∧ lookupN c2 R.tmpl = some a2 ∧ (l1.2 = l2.2 ↔ a1 = a2) := by
  have hr := checkSound W R h
  have ⟨c1, a1, e1, f1, g1⟩ := (hr.into r1 ws1 t1).1 l1 h1
  have ⟨c2, a2, e2, f2, g2⟩ := (hr.into r2 ws2 t2).1 l2 h2
  refine ⟨c1, c2, a1, a2, e1, e2, f1, f2, ⟨?_, ?_⟩⟩
  · intro eq
    rw [eq] at g1
    exact hr.distinctReq a1 a2 l2.2 (lookupMem g1) (lookupMem g2)
  · intro ea
    rw [ea, g2] at g1
    exact (Option.some.inj g1).symm

end AgentWarrant.Edits.Reg
