import AgentWarrant.Thm.Revision.ArgCover
/-! The number stand-ins of the argument coverage decision lie where they should, so `numOk` never fails
(`numOkTrue`) and `argCover` never answers `unknown` (`argCoverNeverUnknown`). `below ns`, `-(S+1)` for
`S` the sum of the constants' absolute mantissas, lies below every constant (`belowLt`). `above ns c` is
`c + 10^-(e + E + 1)` for `c`'s exponent `e` and `E` the greatest of the constants' exponents: it lies
above `c` (`aboveGt`), and a constant `d` is at or below it exactly when `d` is at or below `c` (`aboveLe`),
since two different decimals of exponents `e` and `e' ≤ E` are at least `10^-(e+e')` apart, and that
exceeds the step: in natural numbers, `10^e'` is below `10^(E+1)` (`noGap`). The comparisons are read as natural numbers by the mantissas' signs
(`numLeS`, `Thm/Revision/ArgCoverOrder.lean`). -/
namespace AgentWarrant.Revision.ArgCover
open Lean AgentWarrant AgentWarrant.Monitor.Full

theorem tenToP10 : ∀ (n : Nat), tenTo n = p10 n
  | 0 => rfl
  | n + 1 => by show 10 * tenTo n = 10 * p10 n; rw [tenToP10 n]

theorem p10Add (n : Nat) : ∀ (m : Nat), p10 (n + m) = p10 n * p10 m
  | 0 => (Nat.mul_one _).symm
  | m + 1 => by
    show 10 * p10 (n + m) = p10 n * (10 * p10 m)
    rw [p10Add n m, ← Nat.mul_assoc, Nat.mul_comm 10 (p10 n), Nat.mul_assoc]

theorem p10Mono {n : Nat} : ∀ (m : Nat), n ≤ m → p10 n ≤ p10 m
  | 0, h => by
    have e : n = 0 := Nat.leAntisymm h (Nat.zeroLe _)
    rw [e]; exact Nat.leRefl _
  | m + 1, h => by
    cases Nat.eqOrLtOfLe h with
    | inl e => rw [e]; exact Nat.leRefl _
    | inr hl =>
      have ih := p10Mono m (Nat.leOfLtSucc hl)
      show p10 n ≤ 10 * p10 m
      exact Nat.leTrans ih (Nat.leTrans (Nat.leOfEq (Nat.one_mul _).symm) (Nat.mulLeMulRight _ (by decide)))

theorem lt10 (t : Nat) (ht : 1 ≤ t) : t + 1 ≤ 10 * t := by
  have e : 2 * t = t + t := by rw [Nat.succ_mul, Nat.one_mul]
  have h2 : 2 * t ≤ 10 * t := Nat.mulLeMulRight _ (by decide)
  rw [e] at h2
  exact Nat.leTrans (Nat.addLeAddLeft ht t) h2

theorem maxExpGe (n : JsonNumber) (ns : List JsonNumber) :
    n.exponent ≤ maxExp (n :: ns) ∧ maxExp ns ≤ maxExp (n :: ns) := by
  show n.exponent ≤ (match decide (n.exponent ≤ maxExp ns) with
      | true => maxExp ns
      | false => n.exponent) ∧
    maxExp ns ≤ (match decide (n.exponent ≤ maxExp ns) with
      | true => maxExp ns
      | false => n.exponent)
  cases h : decide (n.exponent ≤ maxExp ns) with
  | true => exact ⟨ofDecideEqTrue h, Nat.leRefl _⟩
  | false => exact ⟨Nat.leRefl _, Nat.leOfLt (Nat.gtOfNotLe (ofDecideEqFalse h))⟩

theorem memMaxExp {d : JsonNumber} : ∀ {ns : List JsonNumber}, d ∈ ns → d.exponent ≤ maxExp ns
  | _ :: ns, Mem.head _ => (maxExpGe d ns).1
  | n :: _, Mem.tail _ h => Nat.leTrans (memMaxExp h) (maxExpGe n _).2

theorem memSumAbs {d : JsonNumber} : ∀ {ns : List JsonNumber}, d ∈ ns → Int.natAbs d.mantissa ≤ sumAbs ns
  | _ :: _, Mem.head _ => Nat.leAddRight _ _
  | n :: _, Mem.tail _ h => Nat.leTrans (memSumAbs h) (Nat.leAddLeft _ (Int.natAbs n.mantissa))

theorem addCancelLe {a b : Nat} : ∀ (u : Nat), u + a ≤ u + b → a ≤ b
  | 0, h => by rw [Nat.zero_add, Nat.zero_add] at h; exact h
  | u + 1, h => by
    rw [Nat.succ_add, Nat.succ_add] at h
    exact addCancelLe u (Nat.leOfSuccLeSucc h)

/-- No natural number lies in a gap of width `T` and also within `B < T` of the gap's start. -/
theorem noGap {u v B T : Nat} (hBT : B + 1 ≤ T) (h1 : u + T ≤ v) (h2 : v ≤ u + B) : False :=
  Nat.notSuccLeSelf B (Nat.leTrans hBT (addCancelLe u (Nat.leTrans h1 h2)))

theorem stepMul {x y T : Nat} (h : x + 1 ≤ y) : x * T + T ≤ y * T := by
  have h' := Nat.mulLeMulRight T h
  rw [Nat.succ_mul] at h'
  exact h'

theorem succMulEq {n m r : Nat} (h : (n + 1) * m = r) : n * m + m = r := (Nat.succ_mul n m).symm.trans h

theorem notLe {a b : Nat} (h : b + 1 ≤ a) : decide (a ≤ b) = false :=
  decideEqFalse (fun hab => Nat.notSuccLeSelf b (Nat.leTrans h hab))

/-- Both constants at least zero: `q/B ≤ (pT+1)/(AT)` exactly when `q/B ≤ p/A`. -/
theorem leNonneg (p q A B T : Nat) (hBT : B + 1 ≤ T) :
    decide (q * (A * T) ≤ (p * T + 1) * B) = decide (q * A ≤ p * B) := by
  have r1 : q * (A * T) = q * A * T := (Nat.mul_assoc _ _ _).symm
  have r2 : (p * T + 1) * B = p * B * T + B := by rw [Nat.right_distrib, Nat.one_mul, swap23]
  rw [r1, r2]
  apply decIff
  · intro h
    cases Nat.ltOrGe (p * B) (q * A) with
    | inl hl => exact absurd (noGap hBT (stepMul hl) h) id
    | inr hg => exact hg
  · intro h
    exact Nat.leTrans (Nat.mulLeMulRight T h) (Nat.leAddRight _ _)

/-- Both constants below zero, `c = -(p+1)/A` and its stand-in `-N/(AT)` with `N + 1 = (p+1)T`. -/
theorem leNeg (p q A B T N : Nat) (hBT : B + 1 ≤ T) (hN : N + 1 = (p + 1) * T) :
    decide (N * B ≤ (q + 1) * (A * T)) = decide ((p + 1) * B ≤ (q + 1) * A) := by
  have r1 : (q + 1) * (A * T) = (q + 1) * A * T := (Nat.mul_assoc _ _ _).symm
  have r0 : (N + 1) * B = (p + 1) * B * T := by rw [hN, swap23]
  have r2 : N * B + B = (p + 1) * B * T := by rw [Nat.succ_mul] at r0; exact r0
  rw [r1]
  apply decIff
  · intro h
    cases Nat.ltOrGe ((q + 1) * A) ((p + 1) * B) with
    | inl hl =>
      have h1 := stepMul (T := T) hl
      rw [← r2] at h1
      exact absurd (noGap hBT h1 (Nat.addLeAddRight h B)) id
    | inr hg => exact hg
  · intro h
    have h1 : N * B + B ≤ (q + 1) * A * T := by rw [r2]; exact Nat.mulLeMulRight T h
    exact Nat.leTrans (Nat.leAddRight _ _) h1

theorem negN (p t : Nat) (ht : 1 ≤ t) :
    (p * (10 * t) + (10 * Nat.pred t + 8) + 1) + 1 = (p + 1) * (10 * t) := by
  cases t with
  | zero => cases ht
  | succ t' =>
    have e1 : 10 * Nat.pred (t' + 1) + 8 + 1 + 1 = 10 * (t' + 1) := by rw [Nat.mul_succ]; rfl
    show p * (10 * (t' + 1)) + (10 * Nat.pred (t' + 1) + 8 + 1 + 1) = (p + 1) * (10 * (t' + 1))
    rw [e1, Nat.succ_mul p (10 * (t' + 1))]

theorem p10One (n : Nat) : 1 ≤ p10 n := by
  have ⟨q, hq⟩ := p10Pos n
  rw [hq]; exact Nat.succLeSucc (Nat.zeroLe q)

/-- The exponent of `above ns c` is `c`'s plus `E + 1`, so its power of ten is `c`'s times `10 · 10^E`. -/
theorem aboveNumLe (ns : List JsonNumber) (c d : JsonNumber) :
    numLe d (above ns c) = leS d.mantissa (aboveM (p10 (maxExp ns)) c.mantissa) (p10 d.exponent)
      (p10 c.exponent * (10 * p10 (maxExp ns))) := by
  rw [numLeS]
  show leS d.mantissa (aboveM (tenTo (maxExp ns)) c.mantissa) (p10 d.exponent) (p10 (c.exponent + (maxExp ns + 1))) = _
  rw [tenToP10, p10Add]
  rfl

theorem aboveNumLeR (ns : List JsonNumber) (c d : JsonNumber) :
    numLe (above ns c) d = leS (aboveM (p10 (maxExp ns)) c.mantissa) d.mantissa
      (p10 c.exponent * (10 * p10 (maxExp ns))) (p10 d.exponent) := by
  rw [numLeS]
  show leS (aboveM (tenTo (maxExp ns)) c.mantissa) d.mantissa (p10 (c.exponent + (maxExp ns + 1))) (p10 d.exponent) = _
  rw [tenToP10, p10Add]
  rfl

/-- A constant is at or below `above ns c` exactly when it is at or below `c`. -/
theorem aboveLe (ns : List JsonNumber) (c d : JsonNumber) (hd : d ∈ ns) : numLe d (above ns c) = numLe d c := by
  rw [aboveNumLe, numLeS d c]
  have ht : 1 ≤ p10 (maxExp ns) := p10One _
  have hBT : p10 d.exponent + 1 ≤ 10 * p10 (maxExp ns) :=
    Nat.leTrans (Nat.succLeSucc (p10Mono _ (memMaxExp hd))) (lt10 _ ht)
  cases hc : c.mantissa with
  | ofNat p =>
    cases d.mantissa with
    | ofNat q => exact leNonneg p q _ _ _ hBT
    | negSucc q => rfl
  | negSucc p =>
    cases d.mantissa with
    | ofNat q => rfl
    | negSucc q => exact leNeg p q _ _ _ _ hBT (negN p _ ht)

/-- `above ns c` lies strictly above `c`. -/
theorem aboveGt (ns : List JsonNumber) (c : JsonNumber) : numLe (above ns c) c = false := by
  rw [aboveNumLeR]
  have ht : 1 ≤ p10 (maxExp ns) := p10One _
  have hA : 1 ≤ p10 c.exponent := p10One _
  have hT : 1 ≤ 10 * p10 (maxExp ns) := Nat.leTrans (Nat.leAddLeft 1 _) (lt10 _ ht)
  cases hc : c.mantissa with
  | ofNat p =>
    show decide ((p * (10 * p10 (maxExp ns)) + 1) * p10 c.exponent
      ≤ p * (p10 c.exponent * (10 * p10 (maxExp ns)))) = false
    apply notLe
    rw [Nat.right_distrib, Nat.one_mul, ← Nat.mul_assoc, swap23]
    exact Nat.addLeAddLeft hA _
  | negSucc p =>
    show decide ((p + 1) * (p10 c.exponent * (10 * p10 (maxExp ns)))
      ≤ (p * (10 * p10 (maxExp ns)) + (10 * Nat.pred (p10 (maxExp ns)) + 8) + 1) * p10 c.exponent) = false
    apply notLe
    have e : (p * (10 * p10 (maxExp ns)) + (10 * Nat.pred (p10 (maxExp ns)) + 8) + 1 + 1) * p10 c.exponent
        = (p + 1) * (p10 c.exponent * (10 * p10 (maxExp ns))) := by
      rw [negN p _ ht, swap23, Nat.mul_assoc]
    rw [← succMulEq e]
    exact Nat.addLeAddLeft hA _

/-- `below ns` lies strictly below every constant. -/
theorem belowLt (ns : List JsonNumber) (d : JsonNumber) (hd : d ∈ ns) : numLe d (below ns) = false := by
  rw [numLeS]
  have hab := memSumAbs hd
  have hB : 1 ≤ p10 d.exponent := p10One _
  cases hm : d.mantissa with
  | ofNat q => rfl
  | negSucc q =>
    rw [hm] at hab
    show decide ((sumAbs ns + 1) * p10 d.exponent ≤ (q + 1) * 1) = false
    apply notLe
    rw [Nat.mul_one]
    have h1 : (sumAbs ns + 1) * 1 ≤ (sumAbs ns + 1) * p10 d.exponent := Nat.mulLeMulLeft _ hB
    rw [Nat.mul_one] at h1
    have hab' : q + 1 ≤ sumAbs ns := hab
    exact Nat.leTrans (Nat.succLeSucc hab') h1

theorem beqSelf : ∀ (b : Bool), (b == b) = true
  | true => rfl
  | false => rfl

/-- The check of the number stand-ins never fails. -/
theorem numOkTrue (ns : List JsonNumber) : numOk ns = true := by
  have h1 : allB (fun d => !numLe d (below ns)) ns = true :=
    allBIntro (fun d hd => by rw [belowLt ns d hd]; rfl)
  have h2 : allB (fun c => allB (fun d => !numEq (above ns c) d && (numLe d (above ns c) == numLe d c)) ns) ns = true :=
    allBIntro (fun c _ => allBIntro (fun d hd => by
      have hne : numEq (above ns c) d = false := by
        cases hdc : numLe d c with
        | false => exact eqFalseOfLe (by rw [aboveLe ns c d hd, hdc])
        | true =>
          cases he : numEq (above ns c) d with
          | false => rfl
          | true =>
            have t := ordTrans (ordOfEq he) hdc
            rw [aboveGt] at t
            cases t
      rw [hne, aboveLe ns c d hd, beqSelf]
      rfl))
  show (allB (fun d => !numLe d (below ns)) ns &&
    allB (fun c => allB (fun d => !numEq (above ns c) d && (numLe d (above ns c) == numLe d c)) ns) ns) = true
  rw [h1, h2]
  rfl

/-- `argCover` never answers `unknown`: it decides every question, `covered` or `uncovered` with a
valuation (both sound: `argCoveredSound`, `argUncoveredSound`). -/
theorem argCoverNeverUnknown (good : List Bool → Bool) (atoms : List Atom) : argCover good atoms ≠ Answer.unknown := by
  intro h
  have ⟨i, hi⟩ := argUnknownOnlyNumOk good atoms h
  rw [numOkTrue] at hi
  cases hi

end AgentWarrant.Revision.ArgCover
