import AgentWarrant.Spec.Edits.Check
import AgentWarrant.Thm.Edits.Resolve
/-! The finite checker's properties (*When Can Agents Safely Checkpoint, Fork, Restore, and Merge?*, Section V-C1, Appendix A-A): Φ̂ is
monotone and deflationary, the fuel-bounded iteration reaches the greatest post-fixed subset of
`B̂₀`, and the Bool keep test is exactly the closure condition over `Compat`. The link to the
declarative Definition 2 (over pomsets) is `Thm/Edits/Bridge.lean`. -/
namespace AgentWarrant.Edits
open AgentWarrant

theorem isPrefixBSound : ∀ (z w : Word), isPrefixB z w = true → IsPrefix z w
  | [], w, _ => ⟨w, rfl⟩
  | a :: z, [], h => by simp [isPrefixB] at h
  | a :: z, b :: w, h => by
    cases hab : decide (a = b) with
    | true =>
      have e : a = b := ofDecideEqTrue hab
      simp [isPrefixB, hab] at h
      have ⟨t, ht⟩ := isPrefixBSound z w h
      exact ⟨t, by rw [e, ht, List.cons_append]⟩
    | false => simp [isPrefixB, hab] at h

theorem isPrefixBComplete : ∀ (z w : Word), IsPrefix z w → isPrefixB z w = true
  | [], w, _ => rfl
  | a :: z, [], ⟨t, ht⟩ => by rw [List.cons_append] at ht; exact List.noConfusion ht
  | a :: z, b :: w, ⟨t, ht⟩ => by
    rw [List.cons_append] at ht
    have ⟨e1, e2⟩ := List.cons.inj ht
    have hab : decide (a = b) = true := decideEqTrue e1.symm
    simp [isPrefixB, hab]
    exact isPrefixBComplete z w ⟨t, e2⟩

theorem prefixesSound : ∀ (w z : Word), z ∈ prefixes w → IsPrefix z w
  | [], z, h => by
    cases h with
    | head _ => exact ⟨[], rfl⟩
    | tail _ h' => exact absurd h' notMemNil
  | a :: w, z, h => by
    cases h with
    | head _ => exact ⟨a :: w, rfl⟩
    | tail _ h' =>
      have ⟨y, hy, e⟩ := memMap h'
      have ⟨t, ht⟩ := prefixesSound w y hy
      exact ⟨t, by rw [e, ht, List.cons_append]⟩

theorem prefixesComplete : ∀ (w z : Word), IsPrefix z w → z ∈ prefixes w
  | [], [], _ => Mem.head _
  | [], b :: z, ⟨t, ht⟩ => by rw [List.cons_append] at ht; exact List.noConfusion ht
  | a :: w, [], _ => Mem.head _
  | a :: w, b :: z, ⟨t, ht⟩ => by
    rw [List.cons_append] at ht
    have ⟨e1, e2⟩ := List.cons.inj ht
    have hz := prefixesComplete w z ⟨t, e2⟩
    rw [e1]
    exact Mem.tail _ (mapMem (f := fun z => b :: z) hz)

/-- Definition 2's closure condition, stated without the checker's Bool functions. -/
def Closed (i : Inst) (S : List Cand) : Prop :=
  ∀ c z o, c ∈ S → IsPrefix z c.2 → o ∈ compat i z → ∃ c', c' ∈ S ∧ c'.1 = o ∧ IsPrefix z c'.2

theorem supportsSound {S : List Cand} {z : Word} {o : Nat} (h : supports S z o = true) :
    ∃ c', c' ∈ S ∧ c'.1 = o ∧ IsPrefix z c'.2 := by
  have ⟨c', hc', hp⟩ := anyBElim h
  cases ho : decide (c'.1 = o) with
  | true =>
    simp [ho] at hp
    exact ⟨c', hc', ofDecideEqTrue ho, isPrefixBSound _ _ hp⟩
  | false => simp [ho] at hp

theorem supportsComplete {S : List Cand} {z : Word} {o : Nat} (c' : Cand) (hc' : c' ∈ S) (ho : c'.1 = o)
    (hz : IsPrefix z c'.2) : supports S z o = true := by
  apply anyBIntro hc'
  have hd : decide (c'.1 = o) = true := decideEqTrue ho
  simp [hd]
  exact isPrefixBComplete _ _ hz

/-- The checker's Bool test is exactly Definition 2's closure condition. -/
theorem postFixedIffClosed (i : Inst) (S : List Cand) : PostFixed i S ↔ Closed i S := by
  constructor
  · intro h c z o hc hz ho
    have h1 := allBElim (h c hc) z (prefixesComplete _ _ hz)
    exact supportsSound (allBElim h1 o ho)
  · intro h c hc
    apply allBIntro
    intro z hz
    apply allBIntro
    intro o ho
    have ⟨c', hc', e, hp⟩ := h c z o hc (prefixesSound _ _ hz) ho
    exact supportsComplete c' hc' e hp

theorem iterSucc (i : Inst) (n : Nat) (B : List Cand) : iter i (n + 1) B = iter i n (phi i B) := rfl

/-- Φ̂ is deflationary. -/
theorem phiDeflationary (i : Inst) (B : List Cand) : Sub (phi i B) B :=
  fun _ h => (memFilt h).1

theorem supportsMono {S B : List Cand} (hSB : Sub S B) (z : Word) (o : Nat) :
    supports S z o = true → supports B z o = true := by
  intro h
  have ⟨c, hc, hp⟩ := anyBElim h
  exact anyBIntro (hSB c hc) hp

theorem keepMono (i : Inst) {S B : List Cand} (hSB : Sub S B) (c : Cand) :
    keep i S c = true → keep i B c = true := by
  intro h
  exact allBMono (fun z hz => allBMono (supportsMono hSB z) hz) h

/-- Φ̂ is monotone. -/
theorem phiMonotone (i : Inst) {S B : List Cand} (hSB : Sub S B) : Sub (phi i S) (phi i B) := by
  intro c hc
  have ⟨hcS, hk⟩ := memFilt hc
  exact filtMem (hSB c hcS) (keepMono i hSB c hk)

theorem iterFix (i : Inst) {B : List Cand} (h : phi i B = B) : ∀ n, iter i n B = B
  | 0 => rfl
  | n + 1 => by rw [iterSucc, h]; exact iterFix i h n

theorem lenZero : ∀ {B : List Cand}, List.length B ≤ 0 → B = []
  | [], _ => rfl
  | a :: l, h => by rw [List.length_cons] at h; exact absurd h (Nat.notSuccLeZero _)

/-- With fuel at least `|B|`, the iteration reaches a fixed point of Φ̂. -/
theorem iterFixed (i : Inst) : ∀ (n : Nat) (B : List Cand), List.length B ≤ n → phi i (iter i n B) = iter i n B
  | 0, B, h => by rw [lenZero h]; rfl
  | n + 1, B, h => by
    rw [iterSucc]
    cases filtSameOrShorter (keep i B) B with
    | inl hfix =>
      have hp : phi i B = B := hfix
      rw [hp, iterFix i hp n]; exact hp
    | inr hlt => exact iterFixed i n (phi i B) (Nat.leOfSuccLeSucc (Nat.leTrans hlt h))

/-- The iteration reaches a post-fixed set. -/
theorem iterPostFixed (i : Inst) (n : Nat) (B : List Cand) (h : List.length B ≤ n) :
    PostFixed i (iter i n B) := by
  intro c hc
  have hfix := iterFixed i n B h
  rw [← hfix] at hc
  exact (memFilt hc).2

theorem iterSub (i : Inst) : ∀ (n : Nat) (B : List Cand), Sub (iter i n B) B
  | 0, _ => fun _ h => h
  | n + 1, B => fun c h => phiDeflationary i B c (iterSub i n (phi i B) c h)

/-- Every post-fixed subset of `B` survives every round. -/
theorem iterGreatest (i : Inst) {S : List Cand} (hS : PostFixed i S) :
    ∀ (n : Nat) (B : List Cand), Sub S B → Sub S (iter i n B)
  | 0, _, h => h
  | n + 1, B, h => by
    rw [iterSucc]
    apply iterGreatest i hS n
    intro c hc
    exact filtMem (h c hc) (keepMono i h c (hS c hc))

/-- The checker's set is post-fixed and below `B̂₀`. -/
theorem safeSetPostFixed (i : Inst) : PostFixed i (safeSet i) ∧ Sub (safeSet i) (b0 i) :=
  ⟨iterPostFixed i _ _ (Nat.leRefl _), iterSub i _ _⟩

/-- Every safe execution set is contained in the checker's answer. -/
theorem safeSetGreatest (i : Inst) {S : List Cand} (h : SafeSet i S) : Sub S (safeSet i) :=
  iterGreatest i h.2.2 _ _ h.2.1

/-- Lemma 4, finite form: the checker accepts iff a safe execution set exists ... -/
theorem acceptsIff (i : Inst) : accepts i = true ↔ ∃ S, SafeSet i S := by
  constructor
  · intro h
    have hp := safeSetPostFixed i
    cases hs : safeSet i with
    | nil => simp [accepts, hs] at h
    | cons c l =>
      rw [hs] at hp
      exact ⟨c :: l, fun e => List.noConfusion e, hp.2, hp.1⟩
  · intro ⟨S, hS⟩
    have hsub := safeSetGreatest i hS
    cases S with
    | nil => exact absurd rfl hS.1
    | cons c l =>
      have hc := hsub c (Mem.head _)
      cases hs : safeSet i with
      | nil => rw [hs] at hc; exact absurd hc notMemNil
      | cons _ _ => simp [accepts, hs]

/-- ... and when it accepts, its answer is itself safe, hence the largest safe execution set. -/
theorem acceptsLargest (i : Inst) (h : accepts i = true) :
    SafeSet i (safeSet i) ∧ ∀ S, SafeSet i S → Sub S (safeSet i) := by
  have hp := safeSetPostFixed i
  refine ⟨⟨?_, hp.2, hp.1⟩, fun S hS => safeSetGreatest i hS⟩
  intro e
  simp [accepts, e] at h

end AgentWarrant.Edits
