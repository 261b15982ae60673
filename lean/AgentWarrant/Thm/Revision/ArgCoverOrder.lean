import AgentWarrant.Thm.Monitor.Json
/-! The ordering of decimal numbers that range predicates read (`numLe`, Agenra Section 5.2's `χ_k` with
the monitor's choice: exact decimal comparison, cross-multiplied) is a total preorder whose equivalence is
`numEq`: transitive (`ordTrans`), total (`ordTotal`), antisymmetric up to `numEq` (`ordAnti`) and implied
by `numEq` (`ordOfEq`). The 2021 core library has no ordering lemmas for `Int`, so `numLe` is first read
by the signs of the two mantissas as a comparison of natural numbers (`numLeS`, through `intLe`, which
evaluates `Int`'s `≤` on its constructors), where `Nat`'s order and a cancellation of the middle number's
positive power of ten (`cancelLe`, `chainLe`) give transitivity. -/
namespace AgentWarrant.Revision.ArgCover
open Lean AgentWarrant AgentWarrant.Monitor.Full


theorem decIff {p q : Prop} [dp : Decidable p] [Decidable q] (h1 : p → q) (h2 : q → p) : decide p = decide q := by
  cases dp with
  | isTrue hp => exact (decideEqTrue (h1 hp)).symm
  | isFalse hp => exact (decideEqFalse (fun hq => hp (h2 hq))).symm

def nonnegB : Int → Bool
  | Int.ofNat _ => true
  | Int.negSucc _ => false

theorem decLeEq (x y : Int) : decide (x ≤ y) = nonnegB (y - x) := by
  cases h : y - x with
  | ofNat n => exact decideEqTrue (by show Int.NonNeg (y - x); rw [h]; exact Int.NonNeg.mk n)
  | negSucc n => exact decideEqFalse (fun (hn : Int.NonNeg (y - x)) => by rw [h] at hn; cases hn)

theorem subZeroLe : ∀ (n m : Nat), n - m = 0 → n ≤ m
  | 0, m, _ => Nat.zeroLe m
  | n + 1, 0, h => by rw [Nat.sub_zero] at h; cases h
  | n + 1, m + 1, h => by rw [Nat.succ_sub_succ] at h; exact Nat.succLeSucc (subZeroLe n m h)

theorem zeroSub : ∀ (m : Nat), 0 - m = 0
  | 0 => rfl
  | m + 1 => by show Nat.pred (0 - m) = 0; rw [zeroSub m]; rfl

theorem leSubZero : ∀ (n m : Nat), n ≤ m → n - m = 0
  | 0, m, _ => zeroSub m
  | n + 1, 0, h => absurd h (Nat.notSuccLeZero n)
  | n + 1, m + 1, h => by rw [Nat.succ_sub_succ]; exact leSubZero n m (Nat.leOfSuccLeSucc h)

theorem subNNB (m n : Nat) : nonnegB (Int.subNatNat m n) = decide (n ≤ m) := by
  show nonnegB (match (n - m : Nat) with | 0 => Int.ofNat (m - n) | Nat.succ k => Int.negSucc k) = _
  cases h : n - m with
  | zero => exact (decideEqTrue (subZeroLe n m h)).symm
  | succ k => exact (decideEqFalse (fun hl => by rw [leSubZero n m hl] at h; cases h)).symm

/-- `≤` on integers by their constructors. -/
def leI : Int → Int → Bool
  | Int.ofNat a, Int.ofNat b => decide (a ≤ b)
  | Int.ofNat _, Int.negSucc _ => false
  | Int.negSucc _, Int.ofNat _ => true
  | Int.negSucc a, Int.negSucc b => decide (b ≤ a)

theorem intLe : ∀ (x y : Int), decide (x ≤ y) = leI x y
  | Int.ofNat 0, Int.ofNat b => by
    rw [decLeEq]
    exact (decideEqTrue (Nat.zeroLe b)).symm
  | Int.ofNat (a + 1), Int.ofNat b => by
    rw [decLeEq]
    exact subNNB b (a + 1)
  | Int.ofNat 0, Int.negSucc b => by rw [decLeEq]; rfl
  | Int.ofNat (a + 1), Int.negSucc b => by rw [decLeEq]; rfl
  | Int.negSucc a, Int.ofNat b => by rw [decLeEq]; rfl
  | Int.negSucc a, Int.negSucc b => by
    rw [decLeEq]
    show nonnegB (Int.subNatNat (a + 1) (b + 1)) = decide (b ≤ a)
    rw [subNNB]
    exact decIff Nat.leOfSuccLeSucc Nat.succLeSucc

theorem cancelLe (k : Nat) {m n : Nat} (h : m * (k + 1) ≤ n * (k + 1)) : m ≤ n := by
  cases Nat.ltOrGe n m with
  | inl hlt =>
    have h2 : (n + 1) * (k + 1) ≤ m * (k + 1) := Nat.mulLeMulRight _ hlt
    have h3 : (n + 1) * (k + 1) ≤ n * (k + 1) := Nat.leTrans h2 h
    rw [Nat.succ_mul] at h3
    have h4 : n * (k + 1) + 1 ≤ n * (k + 1) + (k + 1) := Nat.addLeAddLeft (Nat.succLeSucc (Nat.zeroLe k)) _
    exact absurd (Nat.leTrans h4 h3) (Nat.notSuccLeSelf _)
  | inr hge => exact hge

theorem chainLe {u v w A B C k : Nat} (hB : B = k + 1) (h1 : u * B ≤ v * A) (h2 : v * C ≤ w * B) : u * C ≤ w * A := by
  apply cancelLe k
  rw [← hB]
  have s1 : u * C * B ≤ v * A * C := by rw [swap23]; exact Nat.mulLeMulRight C h1
  have s2 : v * A * C ≤ w * B * A := by rw [swap23]; exact Nat.mulLeMulRight A h2
  rw [swap23 w B A] at s2
  exact Nat.leTrans s1 s2

/-- `x·B ≤ y·A` for positive `A`, `B`, by the signs of `x` and `y`. -/
def leS : Int → Int → Nat → Nat → Bool
  | Int.ofNat p, Int.ofNat q, A, B => decide (p * B ≤ q * A)
  | Int.ofNat _, Int.negSucc _, _, _ => false
  | Int.negSucc _, Int.ofNat _, _, _ => true
  | Int.negSucc p, Int.negSucc q, A, B => decide ((q + 1) * A ≤ (p + 1) * B)

theorem negMul (p k : Nat) : Int.negSucc p * Int.ofNat (k + 1) = Int.negSucc (Nat.succ p * k + p) := by
  have e : Int.negSucc p * Int.ofNat (k + 1) = Int.negOfNat (Nat.succ p * (k + 1)) := rfl
  have e2 : Nat.succ p * (k + 1) = (Nat.succ p * k + p) + 1 := by rw [Nat.mul_succ]; rfl
  rw [e, e2]
  rfl

theorem negMulNat (p k : Nat) : Nat.succ p * k + p + 1 = (p + 1) * (k + 1) := by
  rw [Nat.mul_succ]; rfl

theorem leSIff (x y : Int) (a b : Nat) : leI (x * Int.ofNat (b + 1)) (y * Int.ofNat (a + 1)) = leS x y (a + 1) (b + 1) := by
  cases x with
  | ofNat p => cases y with
    | ofNat q => rfl
    | negSucc q => rw [negMul]; rfl
  | negSucc p => cases y with
    | ofNat q => rw [negMul]; rfl
    | negSucc q =>
      rw [negMul, negMul]
      show decide (_ ≤ _) = decide (_ ≤ _)
      rw [← negMulNat q a, ← negMulNat p b]
      exact decIff Nat.succLeSucc Nat.leOfSuccLeSucc

theorem leSTrans {A B C k : Nat} (hB : B = k + 1) : ∀ (x y z : Int), leS x y A B = true → leS y z B C = true → leS x z A C = true
  | Int.ofNat p, Int.ofNat q, Int.ofNat r, h1, h2 => decideEqTrue (chainLe hB (ofDecideEqTrue h1) (ofDecideEqTrue h2))
  | Int.negSucc p, Int.negSucc q, Int.negSucc r, h1, h2 => decideEqTrue (chainLe hB (ofDecideEqTrue h2) (ofDecideEqTrue h1))
  | Int.negSucc _, _, Int.ofNat _, _, _ => rfl
  | Int.ofNat _, Int.negSucc _, _, h1, _ => by cases h1
  | Int.ofNat _, Int.ofNat _, Int.negSucc _, _, h2 => by cases h2
  | Int.negSucc _, Int.ofNat _, Int.negSucc _, _, h2 => by cases h2

theorem leSTotal {A B : Nat} : ∀ (x y : Int), leS x y A B = false → leS y x B A = true
  | Int.ofNat p, Int.ofNat q, h => by
    cases Nat.leTotal (q * A) (p * B) with
    | inl hl => exact decideEqTrue hl
    | inr hl =>
      have h' : decide (p * B ≤ q * A) = false := h
      rw [decideEqTrue hl] at h'
      cases h'
  | Int.negSucc p, Int.negSucc q, h => by
    cases Nat.leTotal ((p + 1) * B) ((q + 1) * A) with
    | inl hl => exact decideEqTrue hl
    | inr hl =>
      have h' : decide ((q + 1) * A ≤ (p + 1) * B) = false := h
      rw [decideEqTrue hl] at h'
      cases h'
  | Int.ofNat _, Int.negSucc _, _ => rfl
  | Int.negSucc _, Int.ofNat _, h => by cases h

theorem leSAnti (a b : Nat) : ∀ (x y : Int), leS x y (a + 1) (b + 1) = true → leS y x (b + 1) (a + 1) = true →
    x * Int.ofNat (b + 1) = y * Int.ofNat (a + 1)
  | Int.ofNat p, Int.ofNat q, h1, h2 => congrArg Int.ofNat (Nat.leAntisymm (ofDecideEqTrue h1) (ofDecideEqTrue h2))
  | Int.negSucc p, Int.negSucc q, h1, h2 => by
    rw [negMul, negMul]
    have e : (p + 1) * (b + 1) = (q + 1) * (a + 1) := Nat.leAntisymm (ofDecideEqTrue h2) (ofDecideEqTrue h1)
    rw [← negMulNat p b, ← negMulNat q a] at e
    exact congrArg Int.negSucc (Nat.succ.inj e)
  | Int.ofNat _, Int.negSucc _, h1, _ => by cases h1
  | Int.negSucc _, Int.ofNat _, _, h2 => by cases h2

theorem leIRefl : ∀ (x : Int), leI x x = true
  | Int.ofNat a => decideEqTrue (Nat.leRefl a)
  | Int.negSucc a => decideEqTrue (Nat.leRefl a)

/-- `numLe` read by the signs of the mantissas, over natural numbers. -/
theorem numLeS (a b : JsonNumber) : numLe a b = leS a.mantissa b.mantissa (p10 a.exponent) (p10 b.exponent) := by
  have ⟨qa, ha⟩ := p10Pos a.exponent
  have ⟨qb, hb⟩ := p10Pos b.exponent
  show decide (a.mantissa * pow10 b.exponent ≤ b.mantissa * pow10 a.exponent) = _
  rw [pow10Nat, pow10Nat, ha, hb, intLe]
  exact leSIff _ _ qa qb

theorem ordTrans {a b c : JsonNumber} (h1 : numLe a b = true) (h2 : numLe b c = true) : numLe a c = true := by
  have ⟨qb, hb⟩ := p10Pos b.exponent
  rw [numLeS] at h1 h2 ⊢
  exact leSTrans hb _ _ _ h1 h2

theorem ordTotal {a b : JsonNumber} (h : numLe a b = false) : numLe b a = true := by
  rw [numLeS] at h ⊢
  exact leSTotal _ _ h

theorem ordAnti {a b : JsonNumber} (h1 : numLe a b = true) (h2 : numLe b a = true) : numEq a b = true := by
  have ⟨qa, ha⟩ := p10Pos a.exponent
  have ⟨qb, hb⟩ := p10Pos b.exponent
  rw [numLeS, ha, hb] at h1 h2
  have e : a.mantissa * pow10 b.exponent = b.mantissa * pow10 a.exponent := by
    rw [pow10Nat, pow10Nat, ha, hb]
    exact leSAnti qa qb _ _ h1 h2
  exact decideEqTrue e

theorem ordOfEq {a b : JsonNumber} (h : numEq a b = true) : numLe a b = true := by
  have e : a.mantissa * pow10 b.exponent = b.mantissa * pow10 a.exponent := ofDecideEqTrue h
  show decide (a.mantissa * pow10 b.exponent ≤ b.mantissa * pow10 a.exponent) = true
  rw [e, intLe]
  exact leIRefl _

theorem numEqSymm {a b : JsonNumber} (h : numEq a b = true) : numEq b a = true := by
  have ⟨c, n⟩ := numEqNat h
  exact numEqOfNat c.symm n.symm

theorem numEqRefl (a : JsonNumber) : numEq a a = true := decideEqTrue rfl

theorem ordRefl (a : JsonNumber) : numLe a a = true := ordOfEq (numEqRefl a)

/-- Two numbers that are not equal are strictly ordered one way. -/
theorem ordFlip {a b : JsonNumber} (h : numEq a b = false) : numLe a b = !numLe b a := by
  cases h1 : numLe a b with
  | false => rw [ordTotal h1]; rfl
  | true =>
    cases h2 : numLe b a with
    | false => rfl
    | true => rw [ordAnti h1 h2] at h; cases h

theorem ordCongrL {n c : JsonNumber} (h : numEq n c = true) (d : JsonNumber) : numLe n d = numLe c d := by
  cases h1 : numLe n d with
  | true => exact (ordTrans (ordOfEq (numEqSymm h)) h1).symm
  | false =>
    cases h2 : numLe c d with
    | false => rfl
    | true => rw [ordTrans (ordOfEq h) h2] at h1; cases h1

theorem ordCongrR {n c : JsonNumber} (h : numEq n c = true) (d : JsonNumber) : numLe d n = numLe d c := by
  cases h1 : numLe d n with
  | true => exact (ordTrans h1 (ordOfEq h)).symm
  | false =>
    cases h2 : numLe d c with
    | false => rfl
    | true => rw [ordTrans h2 (ordOfEq (numEqSymm h))] at h1; cases h1

/-- Among finitely many numbers, none is at most `n`, or one is the greatest of those that are. -/
theorem greatest (n : JsonNumber) : ∀ (cs : List JsonNumber), (∀ d, d ∈ cs → numLe d n = false) ∨
    ∃ c, c ∈ cs ∧ numLe c n = true ∧ ∀ d, d ∈ cs → numLe d n = true → numLe d c = true
  | [] => Or.inl (fun _ h => nomatch h)
  | d :: ds => by
    have ih := greatest n ds
    cases hd : numLe d n with
    | false =>
      cases ih with
      | inl h => exact Or.inl (fun x hx => by
          cases hx with
          | head _ => exact hd
          | tail _ hx' => exact h x hx')
      | inr h =>
        have ⟨c, hc, hcn, hg⟩ := h
        exact Or.inr ⟨c, Mem.tail _ hc, hcn, fun x hx hxn => by
          cases hx with
          | head _ => rw [hd] at hxn; cases hxn
          | tail _ hx' => exact hg x hx' hxn⟩
    | true =>
      cases ih with
      | inl h => exact Or.inr ⟨d, Mem.head _, hd, fun x hx hxn => by
          cases hx with
          | head _ => exact ordRefl d
          | tail _ hx' => rw [h x hx'] at hxn; cases hxn⟩
      | inr h =>
        have ⟨c, hc, hcn, hg⟩ := h
        cases hcd : numLe c d with
        | true => exact Or.inr ⟨d, Mem.head _, hd, fun x hx hxn => by
            cases hx with
            | head _ => exact ordRefl d
            | tail _ hx' => exact ordTrans (hg x hx' hxn) hcd⟩
        | false => exact Or.inr ⟨c, Mem.tail _ hc, hcn, fun x hx hxn => by
            cases hx with
            | head _ => exact ordTotal hcd
            | tail _ hx' => exact hg x hx' hxn⟩

end AgentWarrant.Revision.ArgCover
