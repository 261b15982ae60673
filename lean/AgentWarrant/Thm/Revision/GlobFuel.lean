import AgentWarrant.Thm.Revision.GlobCover
import AgentWarrant.Spec.Revision.ListLemmas
/-! The glob coverage decision's fuel suffices (Agenra Sections 1 and 7.1): `coverTotal`, the search
run with `fuelBound gs` rounds (two to the number of suffixes of the patterns), never answers `unknown`
(`coverTotalNeverUnknown`); with the soundness of both answers (`Thm/Revision/GlobCover.lean`) it
decides coverage over every string (`coverTotalDecides`).

Why it suffices:
* Every token list of a reached state is a suffix of its pattern (`derSuf`: a derivative is a suffix),
  so a state is described, as sets, by its signature (`sigT`): for each pattern and each of its
  suffixes, whether the set holds it. States with the same signature are equal as sets (`sigTSame`).
* The search adds a state only when no found state is equal to it as sets, so the found states'
  signatures are pairwise distinct (`ND`), all of length `sufCount gs`, hence at most
  `pow2 (sufCount gs)` of them (`pigeon`).
* Every round that goes on adds a state, so the search stops (frontier empty) before that many rounds.
* When it stops, the re-checks pass: a witness reaches its state from the start, so its vector is the
  state's (`Reach`); the found states contain the start, were each checked good when they were the
  frontier, and each frontier state's steps by the start's representatives were added or already
  found; the representatives of the found states' breakpoints are among the start's (a suffix's
  breakpoints are the pattern's), so `closedCheck` passes. -/
namespace AgentWarrant.Revision.GlobFuel
open AgentWarrant AgentWarrant.Monitor.Full AgentWarrant.Revision.Glob

-- small list and arithmetic lemmas --------------------------------------------------------------

theorem fuMemApp {x : α} : ∀ {a b : List α}, x ∈ a ++ b → x ∈ a ∨ x ∈ b
  | [], b, h => Or.inr h
  | y :: a, b, h => by
    rw [List.cons_append] at h
    cases h with
    | head _ => exact Or.inl (Mem.head _)
    | tail _ h' => cases fuMemApp h' with
      | inl h1 => exact Or.inl (Mem.tail _ h1)
      | inr h2 => exact Or.inr h2

theorem fuMemL {x : α} (b : List α) : ∀ {a : List α}, x ∈ a → x ∈ a ++ b
  | [], h => nomatch h
  | y :: a, h => by
    rw [List.cons_append]
    cases h with
    | head _ => exact Mem.head _
    | tail _ h' => exact Mem.tail _ (fuMemL b h')

theorem fuMemR {x : α} (b : List α) : ∀ (a : List α), x ∈ b → x ∈ a ++ b
  | [], h => h
  | y :: a, h => by
    rw [List.cons_append]
    exact Mem.tail _ (fuMemR b a h)

theorem fuMemOne {x y : α} (h : x ∈ [y]) : x = y := by
  cases h with
  | head _ => rfl
  | tail _ h' => cases h'

theorem fuLenApp : ∀ (a b : List α), List.length (a ++ b) = List.length a + List.length b
  | [], b => (Nat.zero_add _).symm
  | x :: a, b => by
    rw [List.cons_append, List.length_cons, List.length_cons, fuLenApp a b, Nat.succ_add]

theorem appCancel : ∀ (a c b d : List α), List.length a = List.length c → a ++ b = c ++ d → a = c ∧ b = d
  | [], [], b, d, _, h => ⟨rfl, h⟩
  | x :: a, y :: c, b, d, hl, h => by
    rw [List.cons_append, List.cons_append] at h
    have ⟨e1, e2⟩ := List.cons.inj h
    rw [List.length_cons, List.length_cons] at hl
    have ⟨e3, e4⟩ := appCancel a c b d (Nat.succ.inj hl) e2
    rw [e1, e3]
    exact ⟨rfl, e4⟩
  | [], y :: c, b, d, hl, _ => by
    rw [List.length_cons] at hl
    exact Nat.noConfusion hl
  | x :: a, [], b, d, hl, _ => by
    rw [List.length_cons] at hl
    exact Nat.noConfusion hl

theorem revAux : ∀ (l r : List α), List.reverseAux l r = List.reverseAux l [] ++ r
  | [], r => rfl
  | a :: l, r => by
    show List.reverseAux l (a :: r) = List.reverseAux l [a] ++ r
    rw [revAux l (a :: r), revAux l [a], List.append_assoc]
    rfl

theorem revCons (c : α) (w : List α) : List.reverse (c :: w) = List.reverse w ++ [c] := revAux w [c]

theorem addLe {a b c d : Nat} (h1 : a ≤ c) (h2 : b ≤ d) : a + b ≤ c + d :=
  Nat.leTrans (Nat.addLeAddRight h1 b) (Nat.addLeAddLeft h2 c)

theorem leStep (n a b : Nat) : n + 1 + a ≤ n + (a + (b + 1)) := by
  rw [Nat.add_assoc n 1 a, Nat.add_comm 1 a]
  exact Nat.addLeAddLeft (Nat.addLeAddLeft (Nat.succLeSucc (Nat.zeroLe b)) a) n

theorem pow2Succ (n : Nat) : pow2 (n + 1) = pow2 n + pow2 n := by
  show pow2 n * 2 = pow2 n + pow2 n
  rw [Nat.mul_succ, Nat.mul_one]

-- suffixes ---------------------------------------------------------------------------------------

theorem sufSelf : ∀ (t : List GlobTok), t ∈ sufs t
  | [] => Mem.head _
  | _ :: _ => Mem.head _

theorem sufTrans : ∀ {g t u : List GlobTok}, t ∈ sufs g → u ∈ sufs t → u ∈ sufs g
  | [], t, u, ht, hu => by
    have ht' : t ∈ [([] : List GlobTok)] := ht
    rw [fuMemOne ht'] at hu
    exact hu
  | a :: g, t, u, ht, hu => by
    have ht' : t ∈ (a :: g) :: sufs g := ht
    cases ht' with
    | head _ => exact hu
    | tail _ h => exact Mem.tail _ (sufTrans h hu)

theorem derSuf (c : Char) : ∀ (t u : List GlobTok), u ∈ der c t → u ∈ sufs t
  | [], u, h => nomatch h
  | GlobTok.star :: ts, u, h => by
    have h' : u ∈ (GlobTok.star :: ts) :: der c ts := h
    cases h' with
    | head _ => exact Mem.head _
    | tail _ h2 => exact Mem.tail _ (derSuf c ts u h2)
  | GlobTok.one :: ts, u, h => by
    have h' : u ∈ [ts] := h
    rw [fuMemOne h']
    exact Mem.tail _ (sufSelf ts)
  | GlobTok.lit l :: ts, u, h => by
    have h' : u ∈ (match decide (l = c) with | true => [ts] | false => []) := h
    cases e : decide (l = c) with
    | true =>
      rw [e] at h'
      rw [fuMemOne h']
      exact Mem.tail _ (sufSelf ts)
    | false =>
      rw [e] at h'
      exact nomatch h'
  | GlobTok.cls neg rs :: ts, u, h => by
    have h' : u ∈ (match inRanges c rs != neg with | true => [ts] | false => []) := h
    cases e : (inRanges c rs != neg) with
    | true =>
      rw [e] at h'
      rw [fuMemOne h']
      exact Mem.tail _ (sufSelf ts)
    | false =>
      rw [e] at h'
      exact nomatch h'

theorem derSSuf (c : Char) (g : List GlobTok) : ∀ (S : List (List GlobTok)), (∀ t, t ∈ S → t ∈ sufs g) →
    ∀ u, u ∈ derS c S → u ∈ sufs g
  | [], _, u, h => nomatch h
  | t :: S, hS, u, h => by
    have h' : u ∈ der c t ++ derS c S := h
    cases fuMemApp h' with
    | inl h1 => exact sufTrans (hS t (Mem.head _)) (derSuf c t u h1)
    | inr h2 => exact derSSuf c g S (fun t' ht' => hS t' (Mem.tail _ ht')) u h2

/-- Every set of the state holds suffixes of its pattern only, one set per pattern. -/
def Within : List (List GlobTok) → GState → Prop
  | [], [] => True
  | g :: gs, S :: T => (∀ t, t ∈ S → t ∈ sufs g) ∧ Within gs T
  | [], _ :: _ => False
  | _ :: _, [] => False

theorem withinStart : ∀ (gs : List (List GlobTok)), Within gs (startT gs)
  | [] => trivial
  | g :: gs => ⟨fun t ht => by rw [fuMemOne ht]; exact sufSelf g, withinStart gs⟩

theorem withinStep (c : Char) : ∀ {gs : List (List GlobTok)} {T : GState}, Within gs T → Within gs (stepT c T)
  | [], [], _ => trivial
  | g :: gs, S :: T, h => ⟨derSSuf c g S h.1, withinStep c h.2⟩
  | [], _ :: _, h => False.elim h
  | _ :: _, [], h => False.elim h

-- signatures --------------------------------------------------------------------------------------

/-- For each listed suffix, whether the set holds it. -/
def sigS (S : List (List GlobTok)) : List (List GlobTok) → List Bool
  | [] => []
  | s :: ss => memT S s :: sigS S ss

/-- A state's signature: its sets' memberships over every suffix of every pattern. -/
def sigT : List (List GlobTok) → GState → List Bool
  | [], _ => []
  | _ :: _, [] => []
  | g :: gs, S :: T => sigS S (sufs g) ++ sigT gs T

theorem lenSigS (S : List (List GlobTok)) : ∀ (L : List (List GlobTok)), List.length (sigS S L) = List.length L
  | [] => rfl
  | s :: L => by
    show List.length (memT S s :: sigS S L) = List.length (s :: L)
    rw [List.length_cons, List.length_cons, lenSigS S L]

theorem lenSigT : ∀ {gs : List (List GlobTok)} {T : GState}, Within gs T → List.length (sigT gs T) = sufCount gs
  | [], [], _ => rfl
  | g :: gs, S :: T, h => by
    show List.length (sigS S (sufs g) ++ sigT gs T) = List.length (sufs g) + sufCount gs
    rw [fuLenApp, lenSigS, lenSigT h.2]
  | [], _ :: _, h => False.elim h
  | _ :: _, [], h => False.elim h

theorem tokEqRefl : ∀ (a : GlobTok), tokEq a a = true
  | GlobTok.star => rfl
  | GlobTok.one => rfl
  | GlobTok.lit a => decideEqTrue rfl
  | GlobTok.cls n rs => by
    show (decide (n = n) && decide (rs = rs)) = true
    rw [decideEqTrue (rfl : n = n), decideEqTrue (rfl : rs = rs)]
    rfl

theorem toksEqRefl : ∀ (t : List GlobTok), toksEq t t = true
  | [] => rfl
  | a :: t => by
    show (tokEq a a && toksEq t t) = true
    rw [tokEqRefl a, toksEqRefl t]
    rfl

theorem memTOf {S : List (List GlobTok)} {t : List GlobTok} (h : t ∈ S) : memT S t = true :=
  anyBIntro h (toksEqRefl t)

theorem sameSRefl (A : List (List GlobTok)) : sameS A A = true := by
  have h : subS A A = true := allBIntro (fun t ht => memTOf ht)
  show (subS A A && subS A A) = true
  rw [h]
  rfl

theorem sameTRefl : ∀ (T : GState), sameT T T = true
  | [] => rfl
  | A :: T => by
    show (sameS A A && sameT T T) = true
    rw [sameSRefl A, sameTRefl T]
    rfl

theorem sigSAt {A B : List (List GlobTok)} : ∀ {L : List (List GlobTok)}, sigS A L = sigS B L →
    ∀ s, s ∈ L → memT A s = memT B s
  | [], _, s, hs => nomatch hs
  | x :: L, h, s, hs => by
    have ⟨e1, e2⟩ := List.cons.inj h
    cases hs with
    | head _ => exact e1
    | tail _ hs' => exact sigSAt e2 s hs'

theorem subOfSig {g : List GlobTok} {A B : List (List GlobTok)} (hA : ∀ t, t ∈ A → t ∈ sufs g)
    (h : sigS A (sufs g) = sigS B (sufs g)) : subS A B = true :=
  allBIntro (fun t ht => by
    rw [← sigSAt h t (hA t ht)]
    exact memTOf ht)

/-- States within the patterns with one signature are equal as sets. -/
theorem sigTSame : ∀ {gs : List (List GlobTok)} {T U : GState}, Within gs T → Within gs U →
    sigT gs T = sigT gs U → sameT T U = true
  | [], [], [], _, _, _ => rfl
  | g :: gs, A :: T, B :: U, hT, hU, h => by
    have h' : sigS A (sufs g) ++ sigT gs T = sigS B (sufs g) ++ sigT gs U := h
    have ⟨e1, e2⟩ := appCancel _ _ _ _ (by rw [lenSigS, lenSigS]) h'
    have s1 : subS A B = true := subOfSig hT.1 e1
    have s2 : subS B A = true := subOfSig hU.1 e1.symm
    show (sameS A B && sameT T U) = true
    have s3 : sameS A B = true := by
      show (subS A B && subS B A) = true
      rw [s1, s2]
      rfl
    rw [s3, sigTSame hT.2 hU.2 e2]
    rfl
  | [], _ :: _, _, hT, _, _ => False.elim hT
  | [], [], _ :: _, _, hU, _ => False.elim hU
  | _ :: _, [], _, hT, _, _ => False.elim hT
  | _ :: _, _ :: _, [], _, hU, _ => False.elim hU

-- pigeonholes -------------------------------------------------------------------------------------

/-- No element occurs twice. -/
inductive ND : List α → Prop
  | nil : ND []
  | cons {a : α} {l : List α} : ¬ a ∈ l → ND l → ND (a :: l)

theorem ndSnoc {x : α} : ∀ {l : List α}, ND l → ¬ x ∈ l → ND (l ++ [x])
  | [], _, _ => ND.cons (fun h => nomatch h) ND.nil
  | a :: l, ND.cons ha hl, hx => by
    rw [List.cons_append]
    refine ND.cons ?_ (ndSnoc hl (fun h => hx (Mem.tail _ h)))
    intro h
    cases fuMemApp h with
    | inl h1 => exact ha h1
    | inr h2 =>
      rw [fuMemOne h2] at hx
      exact hx (Mem.head _)

theorem beqTrue : ∀ {a b : Bool}, (a == b) = true → a = b
  | true, true, _ => rfl
  | false, false, _ => rfl
  | true, false, h => by cases h
  | false, true, h => by cases h

/-- The tails of the lists that start with `b`. -/
def tailsOf (b : Bool) : List (List Bool) → List (List Bool)
  | [] => []
  | [] :: L => tailsOf b L
  | (c :: t) :: L => match c == b with
    | true => t :: tailsOf b L
    | false => tailsOf b L

theorem memTailsOf (b : Bool) {t : List Bool} : ∀ {L : List (List Bool)}, t ∈ tailsOf b L → (b :: t) ∈ L
  | [], h => nomatch h
  | [] :: L, h => Mem.tail _ (memTailsOf b (L := L) h)
  | (c :: u) :: L, h => by
    have h' : t ∈ (match c == b with | true => u :: tailsOf b L | false => tailsOf b L) := h
    cases e : (c == b) with
    | true =>
      rw [e] at h'
      have ec : c = b := beqTrue e
      rw [ec]
      cases h' with
      | head _ => exact Mem.head _
      | tail _ h2 => exact Mem.tail _ (memTailsOf b h2)
    | false =>
      rw [e] at h'
      exact Mem.tail _ (memTailsOf b h')

theorem ndTailsOf (b : Bool) : ∀ {L : List (List Bool)}, ND L → ND (tailsOf b L)
  | [], _ => ND.nil
  | [] :: L, ND.cons _ h => by
    show ND (tailsOf b L)
    exact ndTailsOf b h
  | (c :: u) :: L, ND.cons ha h => by
    show ND (match c == b with | true => u :: tailsOf b L | false => tailsOf b L)
    cases e : (c == b) with
    | true =>
      have ec : c = b := beqTrue e
      refine ND.cons ?_ (ndTailsOf b h)
      intro m
      rw [ec] at ha
      exact ha (memTailsOf b m)
    | false => exact (ndTailsOf b h : ND (tailsOf b L))

theorem lenTailsOf : ∀ (L : List (List Bool)), (∀ x, x ∈ L → x ≠ []) →
    List.length L = List.length (tailsOf true L) + List.length (tailsOf false L)
  | [], _ => rfl
  | [] :: L, h => absurd rfl (h [] (Mem.head _))
  | (true :: u) :: L, h => by
    have e1 : tailsOf true ((true :: u) :: L) = u :: tailsOf true L := rfl
    have e2 : tailsOf false ((true :: u) :: L) = tailsOf false L := rfl
    rw [e1, e2, List.length_cons, List.length_cons, Nat.succ_add, lenTailsOf L (fun x hx => h x (Mem.tail _ hx))]
  | (false :: u) :: L, h => by
    have e1 : tailsOf true ((false :: u) :: L) = tailsOf true L := rfl
    have e2 : tailsOf false ((false :: u) :: L) = u :: tailsOf false L := rfl
    rw [e1, e2, List.length_cons, List.length_cons, Nat.add_succ, lenTailsOf L (fun x hx => h x (Mem.tail _ hx))]

theorem nilOfLen0 : ∀ {x : List Bool}, List.length x = 0 → x = []
  | [], _ => rfl
  | _ :: _, h => by
    rw [List.length_cons] at h
    exact Nat.noConfusion h

/-- Distinct lists of `K` bits are at most `2^K`. -/
theorem pigeon : ∀ (K : Nat) (L : List (List Bool)), ND L → (∀ x, x ∈ L → List.length x = K) →
    List.length L ≤ pow2 K
  | 0, [], _, _ => Nat.zeroLe _
  | 0, [_], _, _ => Nat.leRefl _
  | 0, a :: b :: L, ND.cons ha _, hl => by
    have ea : a = [] := nilOfLen0 (hl a (Mem.head _))
    have eb : b = [] := nilOfLen0 (hl b (Mem.tail _ (Mem.head _)))
    rw [ea, ← eb] at ha
    exact absurd (Mem.head _) ha
  | K + 1, L, hn, hl => by
    have ne : ∀ x, x ∈ L → x ≠ [] := fun x hx e => by
      have h := hl x hx
      rw [e] at h
      exact Nat.noConfusion h
    have tl : ∀ b t, t ∈ tailsOf b L → List.length t = K := fun b t ht => by
      have h := hl (b :: t) (memTailsOf b ht)
      rw [List.length_cons] at h
      exact Nat.succ.inj h
    rw [lenTailsOf L ne, pow2Succ]
    exact addLe (pigeon K _ (ndTailsOf true hn) (tl true)) (pigeon K _ (ndTailsOf false hn) (tl false))

-- the search's invariant ------------------------------------------------------------------------

/-- The found states' signatures. -/
def sigsOf (gs : List (List GlobTok)) : List (GState × List Char) → List (List Bool)
  | [] => []
  | p :: ps => sigT gs p.1 :: sigsOf gs ps

theorem sigsOfApp (gs : List (List GlobTok)) : ∀ (a b : List (GState × List Char)), sigsOf gs (a ++ b) = sigsOf gs a ++ sigsOf gs b
  | [], b => rfl
  | p :: a, b => by
    rw [List.cons_append]
    show sigT gs p.1 :: sigsOf gs (a ++ b) = (sigT gs p.1 :: sigsOf gs a) ++ sigsOf gs b
    rw [sigsOfApp gs a b, List.cons_append]

theorem memSigsOf {gs : List (List GlobTok)} {s : List Bool} : ∀ {F : List (GState × List Char)}, s ∈ sigsOf gs F →
    ∃ p, p ∈ F ∧ sigT gs p.1 = s
  | [], h => nomatch h
  | p :: F, h => by
    cases h with
    | head _ => exact ⟨p, Mem.head _, rfl⟩
    | tail _ h' =>
      have ⟨q, hq, e⟩ := memSigsOf h'
      exact ⟨q, Mem.tail _ hq, e⟩

theorem lenSigsOf (gs : List (List GlobTok)) : ∀ (F : List (GState × List Char)), List.length (sigsOf gs F) = List.length F
  | [] => rfl
  | p :: F => by
    show List.length (sigT gs p.1 :: sigsOf gs F) = List.length (p :: F)
    rw [List.length_cons, List.length_cons, lenSigsOf gs F]

theorem memStateOf {T : GState} {F : List (GState × List Char)} {p : GState × List Char} (hp : p ∈ F)
    (h : sameT T p.1 = true) : memState (F.map Prod.fst) T = true :=
  anyBIntro (memMapOf Prod.fst hp) h

theorem memStateInv {T : GState} {F : List (GState × List Char)} (h : memState (F.map Prod.fst) T = true) :
    ∃ p, p ∈ F ∧ sameT T p.1 = true := by
  have ⟨U, hU, e⟩ := anyBElim h
  have ⟨p, hp, ep⟩ := memMapInv Prod.fst hU
  rw [← ep] at e
  exact ⟨p, hp, e⟩

theorem memStateGrow {T : GState} {F : List (GState × List Char)} (k : List (GState × List Char))
    (h : memState (F.map Prod.fst) T = true) : memState ((F ++ k).map Prod.fst) T = true := by
  have ⟨p, hp, e⟩ := memStateInv h
  exact memStateOf (fuMemL k hp) e

/-- The state's vector on every word is the patterns' vector on the word that reached it, then that word. -/
def Reach (gs : List (List GlobTok)) (p : GState × List Char) : Prop :=
  ∀ u, vecM p.1 u = vecG gs (List.reverse p.2 ++ u)

theorem reachStart (gs : List (List GlobTok)) : Reach gs (startT gs, []) := fun u => vecStart u gs

theorem reachStep (gs : List (List GlobTok)) (c : Char) (p : GState × List Char) (h : Reach gs p) :
    Reach gs (stepT c p.1, c :: p.2) := fun u => by
  show vecM (stepT c p.1) u = vecG gs (List.reverse (c :: p.2) ++ u)
  rw [← vecStep, h (c :: u), revCons, List.append_assoc]
  rfl

structure Inv (gs : List (List GlobTok)) (good : List Bool → Bool) (cs : List Char)
    (F Fr : List (GState × List Char)) : Prop where
  within : ∀ p, p ∈ F → Within gs p.1
  reach : ∀ p, p ∈ F → Reach gs p
  sub : ∀ p, p ∈ Fr → p ∈ F
  good : ∀ p, p ∈ F → p ∈ Fr ∨ good (vecM p.1 []) = true
  closed : ∀ p, p ∈ F → p ∈ Fr ∨ ∀ c, c ∈ cs → memState (F.map Prod.fst) (stepT c p.1) = true
  nd : ND (sigsOf gs F)
  start : memState (F.map Prod.fst) (startT gs) = true

theorem invStart (gs : List (List GlobTok)) (good : List Bool → Bool) (cs : List Char) :
    Inv gs good cs [(startT gs, [])] [(startT gs, [])] where
  within p hp := by rw [fuMemOne hp]; exact withinStart gs
  reach p hp := by rw [fuMemOne hp]; exact reachStart gs
  sub p hp := hp
  good p hp := Or.inl hp
  closed p hp := Or.inl hp
  nd := ND.cons (fun h => nomatch h) ND.nil
  start := memStateOf (Mem.head _) (sameTRefl _)

-- the expansion and the insertion ----------------------------------------------------------------

theorem memExpandOne (cs : List Char) (T : GState) (w : List Char) {q : GState × List Char} :
    q ∈ expandOne cs T w → ∃ c, c ∈ cs ∧ q = (stepT c T, c :: w) := fun h => by
  have ⟨c, hc, e⟩ := memMapInv (fun c => (stepT c T, c :: w)) h
  exact ⟨c, hc, e.symm⟩

theorem expandOneMem (cs : List Char) (T : GState) (w : List Char) {c : Char} (hc : c ∈ cs) :
    (stepT c T, c :: w) ∈ expandOne cs T w :=
  memMapOf (fun c => (stepT c T, c :: w)) hc

theorem memExpandAll (cs : List Char) {q : GState × List Char} : ∀ {Fr : List (GState × List Char)},
    q ∈ expandAll cs Fr → ∃ p c, p ∈ Fr ∧ c ∈ cs ∧ q = (stepT c p.1, c :: p.2)
  | [], h => nomatch h
  | (T, w) :: Fr, h => by
    have h' : q ∈ expandOne cs T w ++ expandAll cs Fr := h
    cases fuMemApp h' with
    | inl h1 =>
      have ⟨c, hc, e⟩ := memExpandOne cs T w h1
      exact ⟨(T, w), c, Mem.head _, hc, e⟩
    | inr h2 =>
      have ⟨p, c, hp, hc, e⟩ := memExpandAll cs h2
      exact ⟨p, c, Mem.tail _ hp, hc, e⟩

theorem expandAllMem (cs : List Char) {c : Char} (hc : c ∈ cs) : ∀ {Fr : List (GState × List Char)} {p : GState × List Char},
    p ∈ Fr → (stepT c p.1, c :: p.2) ∈ expandAll cs Fr
  | (T, w) :: Fr, _, Mem.head _ => fuMemL _ (expandOneMem cs T w hc)
  | (T, w) :: Fr, p, Mem.tail _ h => fuMemR _ (expandOne cs T w) (expandAllMem cs hc h)

/-- What one insertion pass gives: the found and fresh lists both grow by the same new states, taken
from the candidates; every candidate is then found (as a set); the signatures stay distinct. -/
theorem addNewSpec (gs : List (List GlobTok)) : ∀ (rest found fresh : List (GState × List Char)),
    (∀ q, q ∈ rest → Within gs q.1) → (∀ p, p ∈ found → Within gs p.1) → ND (sigsOf gs found) →
    ∃ k, addNew found fresh rest = (found ++ k, fresh ++ k) ∧ (∀ q, q ∈ k → q ∈ rest) ∧
      (∀ q, q ∈ rest → memState ((found ++ k).map Prod.fst) q.1 = true) ∧ ND (sigsOf gs (found ++ k))
  | [], found, fresh, _, _, hnd => ⟨[], by rw [List.append_nil, List.append_nil]; rfl,
      fun q hq => nomatch hq, fun q hq => nomatch hq, by rw [List.append_nil]; exact hnd⟩
  | (T, w) :: rest, found, fresh, hr, hf, hnd => by
    have hrest : ∀ q, q ∈ rest → Within gs q.1 := fun q hq => hr q (Mem.tail _ hq)
    cases hm : memState (found.map Prod.fst) T with
    | true =>
      have e : addNew found fresh ((T, w) :: rest) = addNew found fresh rest := by
        show (match memState (found.map Prod.fst) T with
          | true => addNew found fresh rest
          | false => addNew (found ++ [(T, w)]) (fresh ++ [(T, w)]) rest) = _
        rw [hm]
      have ⟨k, e1, e2, e3, e4⟩ := addNewSpec gs rest found fresh hrest hf hnd
      refine ⟨k, by rw [e, e1], fun q hq => Mem.tail _ (e2 q hq), ?_, e4⟩
      intro q hq
      cases hq with
      | head _ => exact memStateGrow k hm
      | tail _ hq' => exact e3 q hq'
    | false =>
      have e : addNew found fresh ((T, w) :: rest) = addNew (found ++ [(T, w)]) (fresh ++ [(T, w)]) rest := by
        show (match memState (found.map Prod.fst) T with
          | true => addNew found fresh rest
          | false => addNew (found ++ [(T, w)]) (fresh ++ [(T, w)]) rest) = _
        rw [hm]
      have hT : Within gs T := hr (T, w) (Mem.head _)
      have hf' : ∀ p, p ∈ found ++ [(T, w)] → Within gs p.1 := fun p hp => by
        cases fuMemApp hp with
        | inl h1 => exact hf p h1
        | inr h2 => rw [fuMemOne h2]; exact hT
      have hnd' : ND (sigsOf gs (found ++ [(T, w)])) := by
        rw [sigsOfApp]
        refine ndSnoc hnd ?_
        intro hs
        have ⟨p, hp, ep⟩ := memSigsOf hs
        have same : sameT T p.1 = true := sigTSame hT (hf p hp) ep.symm
        rw [memStateOf hp same] at hm
        cases hm
      have ⟨k, e1, e2, e3, e4⟩ := addNewSpec gs rest (found ++ [(T, w)]) (fresh ++ [(T, w)]) hrest hf' hnd'
      have a1 : found ++ [(T, w)] ++ k = found ++ ((T, w) :: k) := by rw [List.append_assoc]; rfl
      have a2 : fresh ++ [(T, w)] ++ k = fresh ++ ((T, w) :: k) := by rw [List.append_assoc]; rfl
      refine ⟨(T, w) :: k, by rw [e, e1, a1, a2], ?_, ?_, by rw [← a1]; exact e4⟩
      · intro q hq
        cases hq with
        | head _ => exact Mem.head _
        | tail _ hq' => exact Mem.tail _ (e2 q hq')
      · intro q hq
        rw [← a1]
        cases hq with
        | head _ => exact memStateOf (fuMemL k (fuMemR _ found (Mem.head _))) (sameTRefl T)
        | tail _ hq' => exact e3 q hq'

-- the breakpoints of found states are the start's ------------------------------------------------

theorem toksBpsSuf {n : Nat} : ∀ {g t : List GlobTok}, t ∈ sufs g → n ∈ toksBps t → n ∈ toksBps g
  | [], t, ht, hn => by
    have ht' : t ∈ [([] : List GlobTok)] := ht
    rw [fuMemOne ht'] at hn
    exact hn
  | a :: g, t, ht, hn => by
    have ht' : t ∈ (a :: g) :: sufs g := ht
    cases ht' with
    | head _ => exact hn
    | tail _ h => exact fuMemR _ (tokBps a) (toksBpsSuf h hn)

theorem setBpsSuf {n : Nat} {g : List GlobTok} : ∀ {S : List (List GlobTok)}, (∀ t, t ∈ S → t ∈ sufs g) →
    n ∈ setBps S → n ∈ toksBps g
  | [], _, hn => nomatch hn
  | t :: S, hS, hn => by
    cases fuMemApp hn with
    | inl h1 => exact toksBpsSuf (hS t (Mem.head _)) h1
    | inr h2 => exact setBpsSuf (fun u hu => hS u (Mem.tail _ hu)) h2

theorem stateBpsWithin {n : Nat} : ∀ {gs : List (List GlobTok)} {T : GState}, Within gs T →
    n ∈ stateBps T → n ∈ stateBps (startT gs)
  | [], [], _, hn => hn
  | g :: gs, S :: T, h, hn => by
    show n ∈ (toksBps g ++ []) ++ stateBps (startT gs)
    cases fuMemApp hn with
    | inl h1 => exact fuMemL _ (fuMemL _ (setBpsSuf h.1 h1))
    | inr h2 => exact fuMemR _ _ (stateBpsWithin h.2 h2)
  | [], _ :: _, h, _ => False.elim h
  | _ :: _, [], h, _ => False.elim h

theorem statesBpsWithin {n : Nat} (gs : List (List GlobTok)) : ∀ {R : List GState}, (∀ T, T ∈ R → Within gs T) →
    n ∈ statesBps R → n ∈ stateBps (startT gs)
  | [], _, hn => nomatch hn
  | T :: R, h, hn => by
    cases fuMemApp hn with
    | inl h1 => exact stateBpsWithin (h T (Mem.head _)) h1
    | inr h2 => exact statesBpsWithin gs (fun U hU => h U (Mem.tail _ hU)) h2

theorem bpsWithin {n : Nat} (gs : List (List GlobTok)) {R : List GState} (h : ∀ T, T ∈ R → Within gs T)
    (hn : n ∈ bps R) : n ∈ bps [startT gs] := by
  cases hn with
  | head _ => exact Mem.head _
  | tail _ h1 => cases h1 with
    | head _ => exact Mem.tail _ (Mem.head _)
    | tail _ h2 => cases h2 with
      | head _ => exact Mem.tail _ (Mem.tail _ (Mem.head _))
      | tail _ h3 => exact Mem.tail _ (Mem.tail _ (Mem.tail _ (fuMemL _ (statesBpsWithin gs h h3))))

theorem repsOfInv {c : Char} : ∀ {B : List Nat}, c ∈ repsOf B → ∃ p, p ∈ B ∧ charOf p = some c
  | [], h => nomatch h
  | b :: B, h => by
    have h' : c ∈ (match charOf b with | some c => c :: repsOf B | none => repsOf B) := h
    cases e : charOf b with
    | some d =>
      rw [e] at h'
      cases h' with
      | head _ => exact ⟨b, Mem.head _, e⟩
      | tail _ h2 =>
        have ⟨p, hp, ep⟩ := repsOfInv h2
        exact ⟨p, Mem.tail _ hp, ep⟩
    | none =>
      rw [e] at h'
      have ⟨p, hp, ep⟩ := repsOfInv h'
      exact ⟨p, Mem.tail _ hp, ep⟩

theorem repsOfOf {c : Char} {p : Nat} (hc : charOf p = some c) : ∀ {B : List Nat}, p ∈ B → c ∈ repsOf B
  | [], h => nomatch h
  | b :: B, h => by
    cases h with
    | head _ =>
      show c ∈ (match charOf p with | some c => c :: repsOf B | none => repsOf B)
      rw [hc]
      exact Mem.head _
    | tail _ h' =>
      show c ∈ (match charOf b with | some c => c :: repsOf B | none => repsOf B)
      cases charOf b with
      | some d => exact Mem.tail _ (repsOfOf hc h')
      | none => exact repsOfOf hc h'

theorem repsWithin (gs : List (List GlobTok)) {R : List GState} (h : ∀ T, T ∈ R → Within gs T) {c : Char}
    (hc : c ∈ repsOf (bps R)) : c ∈ repsOf (bps [startT gs]) := by
  have ⟨p, hp, ep⟩ := repsOfInv hc
  exact repsOfOf ep (bpsWithin gs h hp)

-- one round, and the search ------------------------------------------------------------------------

theorem firstBadNone {good : List Bool → Bool} : ∀ {Fr : List (GState × List Char)}, firstBad good Fr = none →
    ∀ p, p ∈ Fr → good (vecM p.1 []) = true
  | [], _, p, hp => nomatch hp
  | (T, w) :: Fr, h, p, hp => by
    have h' : (match good (vecM T []) with
      | true => firstBad good Fr
      | false => some w.reverse) = none := h
    cases e : good (vecM T []) with
    | true =>
      rw [e] at h'
      cases hp with
      | head _ => exact e
      | tail _ hp' => exact firstBadNone h' p hp'
    | false =>
      rw [e] at h'
      cases h'

theorem firstBadSome {good : List Bool → Bool} {w : List Char} : ∀ {Fr : List (GState × List Char)},
    firstBad good Fr = some w → ∃ p, p ∈ Fr ∧ good (vecM p.1 []) = false ∧ w = List.reverse p.2
  | [], h => by cases h
  | (T, v) :: Fr, h => by
    have h' : (match good (vecM T []) with
      | true => firstBad good Fr
      | false => some v.reverse) = some w := h
    cases e : good (vecM T []) with
    | true =>
      rw [e] at h'
      have ⟨p, hp, g, ew⟩ := firstBadSome h'
      exact ⟨p, Mem.tail _ hp, g, ew⟩
    | false =>
      rw [e] at h'
      exact ⟨(T, v), Mem.head _, e, (Option.some.inj h').symm⟩

/-- After a round whose frontier is all good, the invariant holds of the grown found list and the
fresh states as the frontier. -/
theorem invRound (gs : List (List GlobTok)) (good : List Bool → Bool) (cs : List Char)
    (F Fr k : List (GState × List Char)) (hi : Inv gs good cs F Fr)
    (hgood : ∀ p, p ∈ Fr → good (vecM p.1 []) = true)
    (hk : ∀ q, q ∈ k → q ∈ expandAll cs Fr)
    (hall : ∀ q, q ∈ expandAll cs Fr → memState ((F ++ k).map Prod.fst) q.1 = true)
    (hnd : ND (sigsOf gs (F ++ k))) : Inv gs good cs (F ++ k) k := by
  have exp : ∀ q, q ∈ k → ∃ p c, p ∈ F ∧ c ∈ cs ∧ q = (stepT c p.1, c :: p.2) := fun q hq => by
    have ⟨p, c, hp, hc, e⟩ := memExpandAll cs (hk q hq)
    exact ⟨p, c, hi.sub p hp, hc, e⟩
  exact {
    within := fun p hp => by
      cases fuMemApp hp with
      | inl h1 => exact hi.within p h1
      | inr h2 =>
        have ⟨q, c, hq, _, e⟩ := exp p h2
        rw [e]
        exact withinStep c (hi.within q hq)
    reach := fun p hp => by
      cases fuMemApp hp with
      | inl h1 => exact hi.reach p h1
      | inr h2 =>
        have ⟨q, c, hq, _, e⟩ := exp p h2
        rw [e]
        exact reachStep gs c q (hi.reach q hq)
    sub := fun p hp => fuMemR _ F hp
    good := fun p hp => by
      cases fuMemApp hp with
      | inr h2 => exact Or.inl h2
      | inl h1 => cases hi.good p h1 with
        | inl hf => exact Or.inr (hgood p hf)
        | inr hg => exact Or.inr hg
    closed := fun p hp => by
      cases fuMemApp hp with
      | inr h2 => exact Or.inl h2
      | inl h1 => cases hi.closed p h1 with
        | inl hf => exact Or.inr (fun c hc => hall _ (expandAllMem cs hc hf))
        | inr hc => exact Or.inr (fun c hc' => memStateGrow k (hc c hc'))
    nd := hnd
    start := memStateGrow k hi.start
  }

/-- With an empty frontier, the found states pass the re-check. -/
theorem closedOfInv (gs : List (List GlobTok)) (good : List Bool → Bool) (F : List (GState × List Char))
    (hi : Inv gs good (repsOf (bps [startT gs])) F []) : closedCheck good (startT gs) (F.map Prod.fst) = true := by
  have hw : ∀ T, T ∈ F.map Prod.fst → Within gs T := fun T hT => by
    have ⟨p, hp, e⟩ := memMapInv Prod.fst hT
    rw [← e]
    exact hi.within p hp
  have hall : allB (fun T => good (vecM T []) && allB (fun c => memState (F.map Prod.fst) (stepT c T)) (repsOf (bps (F.map Prod.fst))))
      (F.map Prod.fst) = true := allBIntro (fun T hT => by
    have ⟨p, hp, e⟩ := memMapInv Prod.fst hT
    rw [← e]
    have g : good (vecM p.1 []) = true := match hi.good p hp with
      | Or.inl h => nomatch h
      | Or.inr h => h
    have cl : ∀ c, c ∈ repsOf (bps [startT gs]) → memState (F.map Prod.fst) (stepT c p.1) = true :=
      match hi.closed p hp with
      | Or.inl h => nomatch h
      | Or.inr h => h
    rw [g]
    exact allBIntro (fun c hc => cl c (repsWithin gs hw hc)))
  show (memState (F.map Prod.fst) (startT gs) && _) = true
  rw [hi.start, hall]
  rfl

theorem exploreSome (good : List Bool → Bool) (cs : List Char) (n : Nat) (F Fr : List (GState × List Char))
    (w : List Char) (h : firstBad good Fr = some w) : explore good cs (n + 1) F Fr = Sum.inl (some w) := by
  show (match firstBad good Fr with
    | some w => Sum.inl (some w)
    | none => match addNew F [] (expandAll cs Fr) with
      | (found', []) => Sum.inr (found'.map Prod.fst)
      | (found', fresh) => explore good cs n found' fresh) = _
  rw [h]

theorem exploreNone (good : List Bool → Bool) (cs : List Char) (n : Nat) (F Fr : List (GState × List Char))
    (h : firstBad good Fr = none) : explore good cs (n + 1) F Fr =
      (match addNew F [] (expandAll cs Fr) with
      | (found', []) => Sum.inr (found'.map Prod.fst)
      | (found', fresh) => explore good cs n found' fresh) := by
  show (match firstBad good Fr with
    | some w => Sum.inl (some w)
    | none => match addNew F [] (expandAll cs Fr) with
      | (found', []) => Sum.inr (found'.map Prod.fst)
      | (found', fresh) => explore good cs n found' fresh) = _
  rw [h]

/-- From the invariant, with more rounds left than states can still be added, the search ends with a
witness whose vector is not good or with found states that pass the re-check. -/
theorem exploreEnds (gs : List (List GlobTok)) (good : List Bool → Bool) :
    ∀ (n : Nat) (F Fr : List (GState × List Char)), Inv gs good (repsOf (bps [startT gs])) F Fr →
      pow2 (sufCount gs) < n + List.length F →
      (∃ w, explore good (repsOf (bps [startT gs])) n F Fr = Sum.inl (some w) ∧ good (vecG gs w) = false) ∨
      (∃ R, explore good (repsOf (bps [startT gs])) n F Fr = Sum.inr R ∧ closedCheck good (startT gs) R = true)
  | 0, F, Fr, hi, hlt => by
    have hle : List.length F ≤ pow2 (sufCount gs) := by
      rw [← lenSigsOf gs F]
      refine pigeon (sufCount gs) _ hi.nd ?_
      intro s hs
      have ⟨p, hp, e⟩ := memSigsOf hs
      rw [← e]
      exact lenSigT (hi.within p hp)
    rw [Nat.zero_add] at hlt
    exact absurd (Nat.ltOfLtOfLe hlt hle) (Nat.ltIrrefl _)
  | n + 1, F, Fr, hi, hlt => by
    cases hb : firstBad good Fr with
    | some w =>
      have ⟨p, hp, g, ew⟩ := firstBadSome hb
      refine Or.inl ⟨w, exploreSome good _ n F Fr w hb, ?_⟩
      have r := hi.reach p (hi.sub p hp) []
      rw [List.append_nil] at r
      rw [ew, ← r]
      exact g
    | none =>
      rw [exploreNone good _ n F Fr hb]
      have hex : ∀ q, q ∈ expandAll (repsOf (bps [startT gs])) Fr → Within gs q.1 := fun q hq => by
        have ⟨p, c, hp, _, e⟩ := memExpandAll _ hq
        rw [e]
        exact withinStep c (hi.within p (hi.sub p hp))
      have ⟨k, e1, e2, e3, e4⟩ := addNewSpec gs (expandAll (repsOf (bps [startT gs])) Fr) F [] hex hi.within hi.nd
      have hi' := invRound gs good _ F Fr k hi (firstBadNone hb) e2 e3 e4
      cases k with
      | nil =>
        have e1' : addNew F [] (expandAll (repsOf (bps [startT gs])) Fr) = (F ++ [], []) := e1
        rw [e1']
        exact Or.inr ⟨List.map Prod.fst (F ++ []), rfl, closedOfInv gs good (F ++ []) hi'⟩
      | cons q k' =>
        have e1' : addNew F [] (expandAll (repsOf (bps [startT gs])) Fr) = (F ++ q :: k', q :: k') := e1
        rw [e1']
        have hlt' : pow2 (sufCount gs) < n + List.length (F ++ q :: k') := by
          refine Nat.ltOfLtOfLe hlt ?_
          rw [fuLenApp, List.length_cons]
          exact leStep n _ _
        exact exploreEnds gs good n (F ++ q :: k') (q :: k') hi' hlt'

/-- With at least `fuelBound gs` rounds, the decision answers `covered` or `uncovered`. -/
theorem coverDecideNeverUnknown (good : List Bool → Bool) (gs : List (List GlobTok)) (fuel : Nat)
    (hf : fuelBound gs ≤ fuel) : coverDecide good gs fuel ≠ Answer.unknown := by
  have hlt : pow2 (sufCount gs) < fuel + List.length [(startT gs, ([] : List Char))] :=
    Nat.ltOfLeOfLt hf (Nat.ltSuccSelf fuel)
  intro hu
  cases exploreEnds gs good fuel _ _ (invStart gs good _) hlt with
  | inl h =>
    have ⟨w, e, g⟩ := h
    have hu' : finish good gs (Sum.inl (some w)) = Answer.unknown := by
      rw [← e]
      exact hu
    have hu'' : onWitness (good (vecG gs w)) w = Answer.unknown := hu'
    rw [g] at hu''
    cases hu''
  | inr h =>
    have ⟨R, e, c⟩ := h
    have hu' : finish good gs (Sum.inr R) = Answer.unknown := by
      rw [← e]
      exact hu
    have hu'' : onClosed (closedCheck good (startT gs) R) = Answer.unknown := hu'
    rw [c] at hu''
    cases hu''

/-- `coverTotal` never answers `unknown`. -/
theorem coverTotalNeverUnknown (good : List Bool → Bool) (gs : List (List GlobTok)) :
    coverTotal good gs ≠ Answer.unknown :=
  coverDecideNeverUnknown good gs (fuelBound gs) (Nat.leRefl _)

/-- `coverTotal` decides coverage against the declarative glob meaning: `covered` exactly when every
string's match vector is good, and otherwise `uncovered w` with `w`'s vector not good. -/
theorem coverTotalDecides (good : List Bool → Bool) (gs : List (List GlobTok)) :
    (coverTotal good gs = Answer.covered ↔ ∀ (w : List Char) (v : List Bool), VecMeaning gs w v → good v = true) ∧
    (∀ w, coverTotal good gs = Answer.uncovered w → ∃ v, VecMeaning gs w v ∧ good v = false) := by
  refine ⟨⟨globCoveredSound good gs (fuelBound gs), ?_⟩, globUncoveredSound good gs (fuelBound gs)⟩
  intro hall
  cases e : coverTotal good gs with
  | covered => rfl
  | unknown => exact absurd e (coverTotalNeverUnknown good gs)
  | uncovered w =>
    have ⟨v, hv, g⟩ := globUncoveredSound good gs (fuelBound gs) w e
    rw [hall w v hv] at g
    cases g

end AgentWarrant.Revision.GlobFuel
