import AgentWarrant.Spec.Revision.GlobCover
import AgentWarrant.Thm.Monitor.Json
/-! The glob coverage decision (`Spec/Revision/GlobCover.lean`) is sound both ways against the
declarative glob meaning `GlobMatch`, over every string of every character:

* `globCoveredSound`: when it answers `covered`, every string's match vector (each bit the truth of
  `GlobMatch` of one pattern's tokens) is good.
* `globUncoveredSound`: when it answers `uncovered w`, `w`'s match vector is not good.

The steps: derivatives (`derOk`: `globMatch ts (c :: w)` is "some derivative matches `w`"), states
compared as sets (`sameTVec`), and the representative lemma (`repAgrees`): every character behaves,
on every token whose breakpoints are listed, as the representative of the greatest listed breakpoint
at or below its code point, a valid code point because 0xD800 and 0xE000 are breakpoints. With these,
a set of states closed under the representatives is closed under every character (`closedInv`).
That a fuel of `fuelBound` rounds always suffices (no `unknown`) is `Thm/Revision/GlobFuel.lean`. -/
namespace AgentWarrant.Revision.Glob
open AgentWarrant AgentWarrant.Monitor.Full

theorem orComm : ∀ (a b : Bool), (a || b) = (b || a)
  | true, true => rfl
  | true, false => rfl
  | false, true => rfl
  | false, false => rfl

theorem orFalse : ∀ (a : Bool), (a || false) = a
  | true => rfl
  | false => rfl

theorem orAssoc : ∀ (a b c : Bool), ((a || b) || c) = (a || (b || c))
  | true, _, _ => rfl
  | false, _, _ => rfl

-- derivatives ----------------------------------------------------------------------------------

theorem derOk (x : Char) (w : List Char) : ∀ (ts : List GlobTok), globMatch ts (x :: w) = anyM (der x ts) w
  | [] => rfl
  | GlobTok.star :: ts => by
    show (globMatch ts (x :: w) || anySuffix (globMatch ts) w) = (globMatch (GlobTok.star :: ts) w || anyM (der x ts) w)
    rw [derOk x w ts]
    show (anyM (der x ts) w || anySuffix (globMatch ts) w) = (anySuffix (globMatch ts) w || anyM (der x ts) w)
    exact orComm _ _
  | GlobTok.one :: ts => by
    show globMatch ts w = (globMatch ts w || false)
    rw [orFalse]
  | GlobTok.lit l :: ts => by
    show (decide (l = x) && globMatch ts w) = anyM (match decide (l = x) with | true => [ts] | false => []) w
    cases decide (l = x) with
    | true => show globMatch ts w = (globMatch ts w || false); rw [orFalse]
    | false => rfl
  | GlobTok.cls neg rs :: ts => by
    show ((inRanges x rs != neg) && globMatch ts w) = anyM (match inRanges x rs != neg with | true => [ts] | false => []) w
    cases (inRanges x rs != neg) with
    | true => show globMatch ts w = (globMatch ts w || false); rw [orFalse]
    | false => rfl

theorem anyMAppend (w : List Char) : ∀ (A B : List (List GlobTok)), anyM (A ++ B) w = (anyM A w || anyM B w)
  | [], B => rfl
  | t :: A, B => by
    rw [List.cons_append]
    show (globMatch t w || anyM (A ++ B) w) = ((globMatch t w || anyM A w) || anyM B w)
    rw [anyMAppend w A B, orAssoc]

theorem derSOk (x : Char) (w : List Char) : ∀ (S : List (List GlobTok)), anyM S (x :: w) = anyM (derS x S) w
  | [] => rfl
  | t :: S => by
    show (globMatch t (x :: w) || anyM S (x :: w)) = anyM (der x t ++ derS x S) w
    rw [anyMAppend, derOk x w t, derSOk x w S]

theorem vecStep (x : Char) (w : List Char) : ∀ (T : GState), vecM T (x :: w) = vecM (stepT x T) w
  | [] => rfl
  | S :: T => by
    show (anyM S (x :: w) :: vecM T (x :: w)) = (anyM (derS x S) w :: vecM (stepT x T) w)
    rw [derSOk, vecStep x w T]

theorem vecStart (w : List Char) : ∀ (gs : List (List GlobTok)), vecM (startT gs) w = vecG gs w
  | [] => rfl
  | g :: gs => by
    show ((globMatch g w || false) :: vecM (startT gs) w) = (globMatch g w :: vecG gs w)
    rw [orFalse, vecStart w gs]

-- states as sets -------------------------------------------------------------------------------

theorem tokEqSound : ∀ {a b : GlobTok}, tokEq a b = true → a = b
  | GlobTok.star, GlobTok.star, _ => rfl
  | GlobTok.one, GlobTok.one, _ => rfl
  | GlobTok.lit a, GlobTok.lit b, h => by
    have e : a = b := ofDecideEqTrue h
    rw [e]
  | GlobTok.cls n rs, GlobTok.cls m qs, h => by
    have ⟨h1, h2⟩ := andT h
    have e1 : n = m := ofDecideEqTrue h1
    have e2 : rs = qs := ofDecideEqTrue h2
    rw [e1, e2]
  | GlobTok.star, GlobTok.one, h => by cases h
  | GlobTok.star, GlobTok.lit _, h => by cases h
  | GlobTok.star, GlobTok.cls _ _, h => by cases h
  | GlobTok.one, GlobTok.star, h => by cases h
  | GlobTok.one, GlobTok.lit _, h => by cases h
  | GlobTok.one, GlobTok.cls _ _, h => by cases h
  | GlobTok.lit _, GlobTok.star, h => by cases h
  | GlobTok.lit _, GlobTok.one, h => by cases h
  | GlobTok.lit _, GlobTok.cls _ _, h => by cases h
  | GlobTok.cls _ _, GlobTok.star, h => by cases h
  | GlobTok.cls _ _, GlobTok.one, h => by cases h
  | GlobTok.cls _ _, GlobTok.lit _, h => by cases h

theorem toksEqSound : ∀ {a b : List GlobTok}, toksEq a b = true → a = b
  | [], [], _ => rfl
  | x :: xs, y :: ys, h => by
    have ⟨h1, h2⟩ := andT h
    rw [tokEqSound h1, toksEqSound h2]
  | [], _ :: _, h => by cases h
  | _ :: _, [], h => by cases h

theorem anyMMem {w : List Char} : ∀ {S : List (List GlobTok)}, anyM S w = true → ∃ t, t ∈ S ∧ globMatch t w = true
  | [], h => by cases h
  | t :: S, h => by
    cases ht : globMatch t w with
    | true => exact ⟨t, Mem.head _, ht⟩
    | false =>
      have h' : anyM S w = true := by
        have h2 : (globMatch t w || anyM S w) = true := h
        rw [ht] at h2
        exact h2
      have ⟨u, hu, e⟩ := anyMMem h'
      exact ⟨u, Mem.tail _ hu, e⟩

theorem memAnyM {w : List Char} {t : List GlobTok} (ht : globMatch t w = true) :
    ∀ {S : List (List GlobTok)}, t ∈ S → anyM S w = true
  | [], h => nomatch h
  | u :: S, h => by
    cases h with
    | head _ => show (globMatch t w || anyM S w) = true; rw [ht]; rfl
    | tail _ h' => show (globMatch u w || anyM S w) = true; rw [memAnyM ht h']; cases globMatch u w <;> rfl

theorem subSAnyM {A B : List (List GlobTok)} (h : subS A B = true) (w : List Char) (ha : anyM A w = true) :
    anyM B w = true := by
  have ⟨t, ht, e⟩ := anyMMem ha
  have hm : memT B t = true := allBElim h t ht
  have ⟨u, hu, eu⟩ := anyBElim hm
  have eq : u = t := toksEqSound eu
  rw [← eq] at e
  exact memAnyM e hu

theorem boolEqOfImp : ∀ {a b : Bool}, (a = true → b = true) → (b = true → a = true) → a = b
  | true, true, _, _ => rfl
  | false, false, _, _ => rfl
  | true, false, h, _ => by cases h rfl
  | false, true, _, h => by cases h rfl

theorem sameSAnyM {A B : List (List GlobTok)} (h : sameS A B = true) (w : List Char) : anyM A w = anyM B w := by
  have ⟨h1, h2⟩ := andT h
  exact boolEqOfImp (subSAnyM h1 w) (subSAnyM h2 w)

theorem sameTVec (w : List Char) : ∀ {T U : GState}, sameT T U = true → vecM T w = vecM U w
  | [], [], _ => rfl
  | A :: T, B :: U, h => by
    have ⟨h1, h2⟩ := andT h
    show (anyM A w :: vecM T w) = (anyM B w :: vecM U w)
    rw [sameSAnyM h1 w, sameTVec w h2]
  | [], _ :: _, h => by cases h
  | _ :: _, [], h => by cases h

-- characters: agreement on tokens ---------------------------------------------------------------

/-- `x` and `r` are told apart by no token of `ts`. -/
def tokAgree (x r : Char) : GlobTok → Prop
  | GlobTok.lit l => decide (l = x) = decide (l = r)
  | GlobTok.cls _ rs => inRanges x rs = inRanges r rs
  | _ => True

theorem derAgree (x r : Char) : ∀ (ts : List GlobTok), (∀ t, t ∈ ts → tokAgree x r t) → der x ts = der r ts
  | [], _ => rfl
  | GlobTok.star :: ts, h => by
    show ((GlobTok.star :: ts) :: der x ts) = ((GlobTok.star :: ts) :: der r ts)
    rw [derAgree x r ts (fun t ht => h t (Mem.tail _ ht))]
  | GlobTok.one :: ts, _ => rfl
  | GlobTok.lit l :: ts, h => by
    have e : decide (l = x) = decide (l = r) := h (GlobTok.lit l) (Mem.head _)
    show (match decide (l = x) with | true => [ts] | false => []) = (match decide (l = r) with | true => [ts] | false => [])
    rw [e]
  | GlobTok.cls neg rs :: ts, h => by
    have e : inRanges x rs = inRanges r rs := h (GlobTok.cls neg rs) (Mem.head _)
    show (match inRanges x rs != neg with | true => [ts] | false => []) = (match inRanges r rs != neg with | true => [ts] | false => [])
    rw [e]

theorem memAppL {a : α} (l2 : List α) : ∀ {l1 : List α}, a ∈ l1 → a ∈ l1 ++ l2
  | [], h => nomatch h
  | b :: l1, h => by
    rw [List.cons_append]
    cases h with
    | head _ => exact Mem.head _
    | tail _ h' => exact Mem.tail _ (memAppL l2 h')

theorem memAppR {a : α} (l2 : List α) : ∀ (l1 : List α), a ∈ l2 → a ∈ l1 ++ l2
  | [], h => h
  | b :: l1, h => by
    rw [List.cons_append]
    exact Mem.tail _ (memAppR l2 l1 h)

/-- What a list of breakpoints `B` gives: for every token whose breakpoints are in `B`, `x` and `r`
agree. -/
def RepFor (B : List Nat) (x r : Char) : Prop :=
  ∀ t, (∀ n, n ∈ tokBps t → n ∈ B) → tokAgree x r t

theorem derSAgree {B : List Nat} {x r : Char} (hr : RepFor B x r) :
    ∀ (S : List (List GlobTok)), (∀ n, n ∈ setBps S → n ∈ B) → derS x S = derS r S
  | [], _ => rfl
  | t :: S, h => by
    have ht : ∀ n, n ∈ toksBps t → n ∈ B := fun n hn => h n (memAppL _ hn)
    have hS : ∀ n, n ∈ setBps S → n ∈ B := fun n hn => h n (memAppR _ _ hn)
    show (der x t ++ derS x S) = (der r t ++ derS r S)
    rw [derSAgree hr S hS, derAgree x r t (toksAgree t ht)]
where
  toksAgree : ∀ (ts : List GlobTok), (∀ n, n ∈ toksBps ts → n ∈ B) → ∀ t, t ∈ ts → tokAgree x r t
    | [], _, _, h => nomatch h
    | u :: ts, h, t, ht => by
      cases ht with
      | head _ => exact hr _ (fun n hn => h n (memAppL _ hn))
      | tail _ ht' => exact toksAgree ts (fun n hn => h n (memAppR _ _ hn)) t ht'

theorem stepAgree {B : List Nat} {x r : Char} (hr : RepFor B x r) :
    ∀ (T : GState), (∀ n, n ∈ stateBps T → n ∈ B) → stepT x T = stepT r T
  | [], _ => rfl
  | S :: T, h => by
    show (derS x S :: stepT x T) = (derS r S :: stepT r T)
    rw [derSAgree hr S (fun n hn => h n (memAppL _ hn)), stepAgree hr T (fun n hn => h n (memAppR _ _ hn))]

theorem stateInBps : ∀ {R : List GState} {T : GState}, T ∈ R → ∀ n, n ∈ stateBps T → n ∈ bps R
  | _ :: R, _, Mem.head _, n, hn => Mem.tail _ (Mem.tail _ (Mem.tail _ (memAppL _ hn)))
  | U :: R, T, Mem.tail _ hT, n, hn => by
    have h := stateInBps hT n hn
    cases h with
    | head _ => exact Mem.head _
    | tail _ h => cases h with
      | head _ => exact Mem.tail _ (Mem.head _)
      | tail _ h => cases h with
        | head _ => exact Mem.tail _ (Mem.tail _ (Mem.head _))
        | tail _ h => exact Mem.tail _ (Mem.tail _ (Mem.tail _ (memAppR _ _ h)))

-- the representative ----------------------------------------------------------------------------

/-- The greatest element of `B` at or below `n` (0 when there is none). -/
def pickN (c : Bool) (a b : Nat) : Nat := match c with
  | true => a
  | false => b

def maxLe (n : Nat) : List Nat → Nat
  | [] => 0
  | b :: bs => pickN (decide (b ≤ n) && decide (maxLe n bs < b)) b (maxLe n bs)

theorem maxLeLe (n : Nat) : ∀ (B : List Nat), maxLe n B ≤ n
  | [] => Nat.zeroLe n
  | b :: bs => by
    show pickN (decide (b ≤ n) && decide (maxLe n bs < b)) b (maxLe n bs) ≤ n
    cases h : decide (b ≤ n) && decide (maxLe n bs < b) with
    | true => exact ofDecideEqTrue (andT h).1
    | false => exact maxLeLe n bs

theorem notTrueFalse {b : Bool} (h : ¬ b = true) : b = false := by cases b <;> simp at h ⊢

theorem maxLeGe (n : Nat) : ∀ (B : List Nat) (b : Nat), b ∈ B → b ≤ n → b ≤ maxLe n B
  | [], b, h, _ => nomatch h
  | c :: bs, b, hb, hbn => by
    show b ≤ pickN (decide (c ≤ n) && decide (maxLe n bs < c)) c (maxLe n bs)
    cases h : decide (c ≤ n) && decide (maxLe n bs < c) with
    | true =>
      cases hb with
      | head _ => exact Nat.leRefl _
      | tail _ hb' => exact Nat.leTrans (maxLeGe n bs b hb' hbn) (Nat.leOfLt (ofDecideEqTrue (andT h).2))
    | false =>
      cases hb with
      | tail _ hb' => exact maxLeGe n bs b hb' hbn
      | head _ =>
        -- `b ≤ n`, so `maxLe n bs < b` failed: `b ≤ maxLe n bs`
        have h1 : decide (c ≤ n) = true := decideEqTrue hbn
        rw [h1] at h
        have h2 : decide (maxLe n bs < c) = false := h
        have h3 : ¬ maxLe n bs < c := ofDecideEqFalse h2
        cases Nat.ltOrGe (maxLe n bs) c with
        | inl l => exact absurd l h3
        | inr g => exact g

theorem maxLeMem0 : ∀ (n : Nat) (B : List Nat), maxLe n B = 0 ∨ maxLe n B ∈ B
  | n, [] => Or.inl rfl
  | n, c :: bs => by
    show pickN (decide (c ≤ n) && decide (maxLe n bs < c)) c (maxLe n bs) = 0 ∨
      pickN (decide (c ≤ n) && decide (maxLe n bs < c)) c (maxLe n bs) ∈ c :: bs
    cases h : decide (c ≤ n) && decide (maxLe n bs < c) with
    | true => exact Or.inr (Mem.head _)
    | false =>
      cases maxLeMem0 n bs with
      | inl e => exact Or.inl e
      | inr m => exact Or.inr (Mem.tail _ m)

theorem maxLeMem (n : Nat) (B : List Nat) (h0 : 0 ∈ B) : maxLe n B ∈ B := by
  cases maxLeMem0 n B with
  | inl e => rw [e]; exact h0
  | inr m => exact m

theorem codeInj : ∀ {c d : Char}, code c = code d → c = d
  | ⟨⟨⟨n, _⟩⟩, _⟩, ⟨⟨⟨m, _⟩⟩, _⟩, h => by
    have e : n = m := h
    subst e
    rfl

theorem decideCongr {p q : Prop} [Decidable p] [Decidable q] (h : p ↔ q) : decide p = decide q := by
  cases hp : decide p with
  | true => exact (decideEqTrue (h.1 (ofDecideEqTrue hp))).symm
  | false => exact (decideEqFalse (fun hq => ofDecideEqFalse hp (h.2 hq))).symm

theorem anyCongr {α : Type} {f g : α → Bool} : ∀ (l : List α), (∀ a, a ∈ l → f a = g a) → l.any f = l.any g
  | [], _ => rfl
  | a :: l, h => by
    show (f a || List.any l f) = (g a || List.any l g)
    rw [h a (Mem.head _), anyCongr l (fun b hb => h b (Mem.tail _ hb))]

theorem notSuccLe (k : Nat) (h : k + 1 ≤ k) : False := Nat.notSuccLeSelf k h

section rep
variable (B : List Nat) (x r : Char) (hr : code r = maxLe (code x) B)

theorem litAgree (l : Char) (h1 : code l ∈ B) (h2 : code l + 1 ∈ B) : decide (l = x) = decide (l = r) := by
  apply decideCongr
  constructor
  · intro e
    apply codeInj
    have hx : code l = code x := congrArg code e
    have a : code l ≤ code r := by rw [hr]; exact maxLeGe (code x) B (code l) h1 (Nat.leOfEq hx)
    have b : code r ≤ code l := by rw [hr, hx]; exact maxLeLe (code x) B
    exact Nat.leAntisymm a b
  · intro e
    apply codeInj
    have hp : code l = maxLe (code x) B := by rw [← hr]; exact congrArg code e
    have le : code l ≤ code x := by rw [hp]; exact maxLeLe (code x) B
    cases Nat.eqOrLtOfLe le with
    | inl eq => exact eq
    | inr lt =>
      have g := maxLeGe (code x) B (code l + 1) h2 (Nat.succLeOfLt lt)
      rw [← hp] at g
      exact absurd g (Nat.notSuccLeSelf _)

theorem rangeAgree (lo hi : Char) (h1 : code lo ∈ B) (h2 : code hi + 1 ∈ B) :
    (decide (lo.val ≤ x.val) && decide (x.val ≤ hi.val)) = (decide (lo.val ≤ r.val) && decide (r.val ≤ hi.val)) := by
  have pn : code r ≤ code x := by rw [hr]; exact maxLeLe (code x) B
  have a : decide (lo.val ≤ x.val) = decide (lo.val ≤ r.val) := by
    apply decideCongr
    constructor
    · intro h
      show code lo ≤ code r
      rw [hr]
      exact maxLeGe (code x) B (code lo) h1 h
    · intro h
      exact Nat.leTrans (show code lo ≤ code r from h) pn
  have b : decide (x.val ≤ hi.val) = decide (r.val ≤ hi.val) := by
    apply decideCongr
    constructor
    · intro h
      exact Nat.leTrans pn (show code x ≤ code hi from h)
    · intro h
      show code x ≤ code hi
      cases Nat.ltOrGe (code x) (code hi + 1) with
      | inl l => exact Nat.leOfLtSucc l
      | inr g =>
        have g' := maxLeGe (code x) B (code hi + 1) h2 g
        rw [← hr] at g'
        exact absurd (Nat.leTrans g' (show code r ≤ code hi from h)) (Nat.notSuccLeSelf _)
  rw [a, b]

theorem rangesAgree : ∀ (rs : List (Char × Char)), (∀ n, n ∈ rangeBps rs → n ∈ B) → inRanges x rs = inRanges r rs
  | rs, h => anyCongr rs (fun q hq => rangeAgree B x r hr q.1 q.2 (h _ (inBps rs q hq).1) (h _ (inBps rs q hq).2))
where
  inBps : ∀ (rs : List (Char × Char)) (q : Char × Char), q ∈ rs → code q.1 ∈ rangeBps rs ∧ code q.2 + 1 ∈ rangeBps rs
    | _ :: _, _, Mem.head _ => ⟨Mem.head _, Mem.tail _ (Mem.head _)⟩
    | _ :: rs, q, Mem.tail _ h => ⟨Mem.tail _ (Mem.tail _ (inBps rs q h).1), Mem.tail _ (Mem.tail _ (inBps rs q h).2)⟩

theorem repFor : RepFor B x r
  | GlobTok.star, _ => trivial
  | GlobTok.one, _ => trivial
  | GlobTok.lit l, h => litAgree B x r hr l (h _ (Mem.head _)) (h _ (Mem.tail _ (Mem.head _)))
  | GlobTok.cls _ rs, h => rangesAgree B x r hr rs h

end rep

theorem repValid (B : List Nat) (x : Char) (h1 : 55296 ∈ B) (h2 : 57344 ∈ B) :
    Nat.isValidChar (maxLe (code x) B) := by
  have hv : Nat.isValidChar (code x) := x.valid
  have pn := maxLeLe (code x) B
  cases hv with
  | inl l => exact Or.inl (Nat.ltOfLeOfLt pn l)
  | inr h =>
    have g : 57344 ≤ maxLe (code x) B := maxLeGe (code x) B 57344 h2 h.1
    exact Or.inr ⟨g, Nat.ltOfLeOfLt pn h.2⟩

theorem memReps {p : Nat} (hp : Nat.isValidChar p) : ∀ {B : List Nat}, p ∈ B → mkChar p hp ∈ repsOf B
  | [], h => nomatch h
  | b :: B, hb => by
    cases hb with
    | head _ =>
      have e : charOf p = some (mkChar p hp) := difPos hp
      show mkChar p hp ∈ (match charOf p with | some c => c :: repsOf B | none => repsOf B)
      rw [e]
      exact Mem.head _
    | tail _ h =>
      show mkChar p hp ∈ (match charOf b with | some c => c :: repsOf B | none => repsOf B)
      cases charOf b with
      | some c => exact Mem.tail _ (memReps hp h)
      | none => exact memReps hp h

/-- Every character has a representative among those of `bps R` that no token of a state of `R` tells
apart from it, so the two steps agree on every state of `R`. -/
theorem repAgrees (R : List GState) (x : Char) :
    ∃ r, r ∈ repsOf (bps R) ∧ ∀ T, T ∈ R → stepT x T = stepT r T := by
  have hv := repValid (bps R) x (Mem.tail _ (Mem.head _)) (Mem.tail _ (Mem.tail _ (Mem.head _)))
  have hm : maxLe (code x) (bps R) ∈ bps R := maxLeMem (code x) (bps R) (Mem.head _)
  exact ⟨mkChar _ hv, memReps hv hm, fun T hT =>
    stepAgree (repFor (bps R) x (mkChar _ hv) rfl) T (stateInBps hT)⟩

-- the closed set ---------------------------------------------------------------------------------

theorem memStateElim {R : List GState} {T : GState} (h : memState R T = true) : ∃ U, U ∈ R ∧ sameT T U = true :=
  anyBElim h

/-- Every state similar to one of a closed set has good vectors on every word. -/
theorem closedInv (good : List Bool → Bool) (start : GState) (R : List GState)
    (hc : closedCheck good start R = true) :
    ∀ (w : List Char) (T : GState), memState R T = true → good (vecM T w) = true
  | [], T, hT => by
    have ⟨U, hU, hs⟩ := memStateElim hT
    rw [sameTVec [] hs]
    exact (andT (allBElim (andT hc).2 U hU)).1
  | x :: w, T, hT => by
    have ⟨U, hU, hs⟩ := memStateElim hT
    rw [sameTVec (x :: w) hs, vecStep]
    have ⟨r, hr, hstep⟩ := repAgrees R x
    rw [hstep U hU]
    have hcl := allBElim (andT (allBElim (andT hc).2 U hU)).2 r hr
    exact closedInv good start R hc w (stepT r U) hcl

-- the declarative meaning ----------------------------------------------------------------------

/-- `v` is the match vector of the patterns `gs` on `w`, bit by bit the truth of `GlobMatch`. -/
inductive VecMeaning : List (List GlobTok) → List Char → List Bool → Prop
  | nil (w : List Char) : VecMeaning [] w []
  | cons (g : List GlobTok) (gs : List (List GlobTok)) (w : List Char) (b : Bool) (v : List Bool) :
      (b = true ↔ GlobMatch g w) → VecMeaning gs w v → VecMeaning (g :: gs) w (b :: v)

theorem vecGMeaning (w : List Char) : ∀ (gs : List (List GlobTok)), VecMeaning gs w (vecG gs w)
  | [] => VecMeaning.nil w
  | g :: gs => VecMeaning.cons g gs w _ _ (globMatchIff g w) (vecGMeaning w gs)

theorem vecMeaningUnique {w : List Char} : ∀ {gs : List (List GlobTok)} {v : List Bool}, VecMeaning gs w v → v = vecG gs w
  | [], [], _ => rfl
  | g :: gs, b :: v, VecMeaning.cons _ _ _ _ _ hb hv => by
    have e : b = globMatch g w := boolEqOfImp (fun h => (globMatchIff g w).2 (hb.1 h)) (fun h => hb.2 ((globMatchIff g w).1 h))
    show b :: v = globMatch g w :: vecG gs w
    rw [e, vecMeaningUnique hv]

theorem onWitnessUncovered : ∀ {ok : Bool} {w w' : List Char}, onWitness ok w = Answer.uncovered w' → ok = false ∧ w = w'
  | false, w, w', h => ⟨rfl, Answer.uncovered.inj h⟩
  | true, w, w', h => by cases h

theorem onWitnessNotCovered : ∀ {ok : Bool} {w : List Char}, onWitness ok w ≠ Answer.covered
  | false, w, h => by cases h
  | true, w, h => by cases h

theorem onClosedCovered : ∀ {ok : Bool}, onClosed ok = Answer.covered → ok = true
  | true, _ => rfl
  | false, h => by cases h

theorem onClosedNotUncovered : ∀ {ok : Bool} {w : List Char}, onClosed ok ≠ Answer.uncovered w
  | true, w, h => by cases h
  | false, w, h => by cases h

theorem finishCovered (good : List Bool → Bool) (gs : List (List GlobTok)) :
    ∀ (x : Sum (Option (List Char)) (List GState)), finish good gs x = Answer.covered →
      ∃ R, closedCheck good (startT gs) R = true
  | Sum.inl (some w), h => absurd h onWitnessNotCovered
  | Sum.inl none, h => by cases h
  | Sum.inr R, h => ⟨R, onClosedCovered h⟩

theorem finishUncovered (good : List Bool → Bool) (gs : List (List GlobTok)) (w : List Char) :
    ∀ (x : Sum (Option (List Char)) (List GState)), finish good gs x = Answer.uncovered w → good (vecG gs w) = false
  | Sum.inl (some w'), h => by
    have ⟨e1, e2⟩ := onWitnessUncovered h
    rw [← e2]
    exact e1
  | Sum.inl none, h => by cases h
  | Sum.inr R, h => absurd h onClosedNotUncovered

/-- A `covered` answer: every string's match vector, in the declarative meaning, is good. -/
theorem globCoveredSound (good : List Bool → Bool) (gs : List (List GlobTok)) (fuel : Nat)
    (h : coverDecide good gs fuel = Answer.covered) : ∀ (w : List Char) (v : List Bool), VecMeaning gs w v → good v = true := by
  intro w v hv
  rw [vecMeaningUnique hv, ← vecStart w gs]
  have ⟨R, hc⟩ := finishCovered good gs _ h
  exact closedInv good (startT gs) R hc w (startT gs) (andT hc).1

/-- An `uncovered w` answer: `w`'s match vector, in the declarative meaning, is not good. -/
theorem globUncoveredSound (good : List Bool → Bool) (gs : List (List GlobTok)) (fuel : Nat) (w : List Char)
    (h : coverDecide good gs fuel = Answer.uncovered w) : ∃ v, VecMeaning gs w v ∧ good v = false :=
  ⟨vecG gs w, vecGMeaning w gs, finishUncovered good gs w _ h⟩

end AgentWarrant.Revision.Glob
