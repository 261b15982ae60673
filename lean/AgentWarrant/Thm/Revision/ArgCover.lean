import AgentWarrant.Spec.Revision.ArgCover
import AgentWarrant.Spec.Revision.ListLemmas
import AgentWarrant.Thm.Revision.GlobCover
/-! The argument coverage decision (`Spec/Revision/ArgCover.lean`) is sound both ways over every
valuation of its variables:

* `argCoveredSound`: when it answers `covered`, every valuation's atom vector is good.
* `argUncoveredSound`: when it answers `uncovered xs`, the valuation `getV xs` has a vector that is not.

The step is `repsExact`, the partition's exactness, proved as `repAgrees` is for characters: every value
agrees with one of its variable's representatives on every literal of that variable. Numbers: a number
equal to a constant agrees with it on every equality (`numEq` is symmetric and transitive); a number
equal to none agrees with the fresh number, which equals none (checked). Strings: a string constant is
the literal glob of its characters (`litGlob`), and the glob decision's `covered` answer
(`globCoveredSound`) gives every string a word with the same vector over all the variable's globs.
`build` picks one representative per variable, so the product of the representatives holds a valuation
with the same atom vector as any valuation. Not proved: that the glob certification's fuel always
suffices (`argCover` may answer `unknown`). -/
namespace AgentWarrant.Revision.ArgCover
open Lean AgentWarrant.Monitor.Full

theorem boolEq : ∀ {a b : Bool}, (a = true → b = true) → (b = true → a = true) → a = b
  | true, true, _, _ => rfl
  | false, false, _, _ => rfl
  | true, false, h, _ => by cases h rfl
  | false, true, _, h => by cases h rfl

theorem anyBFalse {p : α → Bool} {x : α} : ∀ {l : List α}, anyB p l = false → x ∈ l → p x = false
  | [], _, h => nomatch h
  | y :: l, h, hx => by
    cases hp : p x with
    | false => rfl
    | true =>
      have t : anyB p (y :: l) = true := anyBIntro hx hp
      rw [h] at t
      cases t

theorem notTrue : ∀ {b : Bool}, (!b) = true → b = false
  | false, _ => rfl
  | true, h => by cases h

-- numbers ----------------------------------------------------------------------------------------

theorem numEqSymm {a b : JsonNumber} (h : numEq a b = true) : numEq b a = true := by
  have ⟨c, n⟩ := numEqNat h
  exact numEqOfNat c.symm n.symm

theorem numAgree {n c : JsonNumber} (h : numEq n c = true) (d : JsonNumber) : numEq n d = numEq c d :=
  boolEq (fun hd => numEqTrans (numEqSymm h) hd) (fun hd => numEqTrans h hd)

-- string constants as literal globs ----------------------------------------------------------------

theorem litGlob : ∀ (s w : List Char), globMatch (s.map GlobTok.lit) w = decide (w = s)
  | [], [] => rfl
  | [], x :: r => by
    show List.isEmpty (x :: r) = decide (x :: r = [])
    exact (decideEqFalse (fun h => by cases h)).symm
  | c :: s, [] => by
    show false = decide ([] = c :: s)
    exact (decideEqFalse (fun h => by cases h)).symm
  | c :: s, x :: r => by
    show (decide (c = x) && globMatch (s.map GlobTok.lit) r) = decide (x :: r = c :: s)
    rw [litGlob s r]
    apply boolEq
    · intro h
      have ⟨h1, h2⟩ := andT h
      have e1 : c = x := ofDecideEqTrue h1
      have e2 : r = s := ofDecideEqTrue h2
      rw [e1, e2]
      exact decideEqTrue rfl
    · intro h
      have e : x :: r = c :: s := ofDecideEqTrue h
      have ⟨e1, e2⟩ := List.cons.inj e
      rw [e1, e2]
      show (decide (c = c) && decide (s = s)) = true
      rw [decideEqTrue (rfl : c = c), decideEqTrue (rfl : s = s)]
      rfl

theorem vecGAgree {w u : List Char} {t : List GlobTok} : ∀ {gs : List (List GlobTok)},
    Revision.Glob.vecG gs w = Revision.Glob.vecG gs u → t ∈ gs → globMatch t w = globMatch t u
  | [], _, h => nomatch h
  | g :: gs, e, h => by
    have ⟨e1, e2⟩ := List.cons.inj e
    cases h with
    | head _ => exact e1
    | tail _ h' => exact vecGAgree e2 h'

-- membership in the literals' summaries --------------------------------------------------------------

theorem numConstsMem {d : JsonNumber} : ∀ {ls : List Lit}, Lit.eqNum d ∈ ls → d ∈ numConsts ls
  | _ :: _, Mem.head _ => Mem.head _
  | l :: ls, Mem.tail _ h => by
    cases l with
    | eqNum m => exact Mem.tail _ (@numConstsMem d ls h)
    | present => exact @numConstsMem d ls h
    | scalar => exact @numConstsMem d ls h
    | isNull => exact @numConstsMem d ls h
    | isArr => exact @numConstsMem d ls h
    | eqBool _ => exact @numConstsMem d ls h
    | eqStr _ => exact @numConstsMem d ls h
    | glob _ => exact @numConstsMem d ls h

theorem strToksMem {t : List GlobTok} : ∀ {ls : List Lit}, (Lit.glob t ∈ ls → t ∈ strToks ls) ∧
    (∀ s, t = s.map GlobTok.lit → Lit.eqStr s ∈ ls → t ∈ strToks ls)
  | [] => ⟨fun h => nomatch h, fun _ _ h => nomatch h⟩
  | l :: ls => by
    have ih := @strToksMem t ls
    constructor
    · intro h
      cases h with
      | head _ => exact Mem.head _
      | tail _ h' =>
        cases l with
        | eqStr s => exact Mem.tail _ (ih.1 h')
        | glob _ => exact Mem.tail _ (ih.1 h')
        | present => exact ih.1 h'
        | scalar => exact ih.1 h'
        | isNull => exact ih.1 h'
        | isArr => exact ih.1 h'
        | eqBool _ => exact ih.1 h'
        | eqNum _ => exact ih.1 h'
    · intro s e h
      cases h with
      | head _ => rw [e]; exact Mem.head _
      | tail _ h' =>
        cases l with
        | eqStr _ => exact Mem.tail _ (ih.2 s e h')
        | glob _ => exact Mem.tail _ (ih.2 s e h')
        | present => exact ih.2 s e h'
        | scalar => exact ih.2 s e h'
        | isNull => exact ih.2 s e h'
        | isArr => exact ih.2 s e h'
        | eqBool _ => exact ih.2 s e h'
        | eqNum _ => exact ih.2 s e h'

theorem litsOfMem {i : Nat} {l : Lit} : ∀ {atoms : List Atom}, (i, l) ∈ atoms → l ∈ litsOf i atoms
  | _ :: _, Mem.head _ => by
    show l ∈ (match decide (i = i) with | true => l :: litsOf i _ | false => litsOf i _)
    rw [decideEqTrue (rfl : i = i)]
    exact Mem.head _
  | a :: as, Mem.tail _ h => by
    show l ∈ (match decide (a.1 = i) with | true => a.2 :: litsOf i as | false => litsOf i as)
    cases decide (a.1 = i) with
    | true => exact Mem.tail _ (litsOfMem h)
    | false => exact litsOfMem h

-- the partition is exact ---------------------------------------------------------------------------

theorem strRepsSome {gs : List (List GlobTok)} {fuel : Nat} {ws : List (List Char)} (h : strReps gs fuel = some ws) :
    ∀ w, ∃ u, u ∈ ws ∧ Revision.Glob.vecG gs u = Revision.Glob.vecG gs w := by
  have h2 : (match Revision.Glob.coverDecide (hasVec gs (wordsFor gs fuel)) gs fuel with
    | Revision.Glob.Answer.covered => some (wordsFor gs fuel)
    | _ => none) = some ws := h
  intro w
  cases hc : Revision.Glob.coverDecide (hasVec gs (wordsFor gs fuel)) gs fuel with
  | covered =>
    rw [hc] at h2
    have e : wordsFor gs fuel = ws := Option.some.inj h2
    have g := Revision.Glob.globCoveredSound _ _ fuel hc w _ (Revision.Glob.vecGMeaning w gs)
    have ⟨u, hu, eu⟩ := anyBElim g
    rw [← e]
    exact ⟨u, hu, ofDecideEqTrue eu⟩
  | uncovered _ => rw [hc] at h2; cases h2
  | unknown => rw [hc] at h2; cases h2

theorem memBase {x : AV} {R : List AV} (h : x ∈ baseReps) : x ∈ baseReps ++ R := AgentWarrant.memAppL R h

theorem memRest {x : AV} {R : List AV} (h : x ∈ R) : x ∈ baseReps ++ R := AgentWarrant.memAppR R baseReps h

theorem dedupKeeps (ls : List Lit) : ∀ (R acc : List AV) (x : AV), (x ∈ acc ∨ x ∈ R) →
    ∃ y, y ∈ dedupV ls acc R ∧ keyOf ls y = keyOf ls x
  | [], acc, x, Or.inl h => ⟨x, h, rfl⟩
  | [], acc, x, Or.inr h => nomatch h
  | r :: R, acc, x, hx => by
    have h1 : dedupV ls acc (r :: R) = (match anyB (fun a => decide (keyOf ls a = keyOf ls r)) acc with
      | true => dedupV ls acc R
      | false => dedupV ls (acc ++ [r]) R) := rfl
    rw [h1]
    cases ha : anyB (fun a => decide (keyOf ls a = keyOf ls r)) acc with
    | true =>
      cases hx with
      | inl h => exact dedupKeeps ls R acc x (Or.inl h)
      | inr h =>
        cases h with
        | head _ =>
          have ⟨a, hm, e⟩ := anyBElim ha
          have ⟨y, hy, ey⟩ := dedupKeeps ls R acc a (Or.inl hm)
          exact ⟨y, hy, ey.trans (ofDecideEqTrue e)⟩
        | tail _ h' => exact dedupKeeps ls R acc x (Or.inr h')
    | false =>
      cases hx with
      | inl h => exact dedupKeeps ls R (acc ++ [r]) x (Or.inl (AgentWarrant.memAppL _ h))
      | inr h =>
        cases h with
        | head _ => exact dedupKeeps ls R (acc ++ [r]) r (Or.inl (AgentWarrant.memAppR _ acc (Mem.head _)))
        | tail _ h' => exact dedupKeeps ls R (acc ++ [r]) x (Or.inr h')

theorem keyAt {v r : AV} : ∀ {ls : List Lit}, keyOf ls v = keyOf ls r → ∀ l, l ∈ ls → holds l v = holds l r
  | [], _, _, h => nomatch h
  | l :: ls, e, x, h => by
    have ⟨e1, e2⟩ := List.cons.inj e
    cases h with
    | head _ => exact e1
    | tail _ h' => exact keyAt e2 x h'

/-- Every value agrees with a representative among all the candidates (before `dedupV`). -/
theorem allRepsExact (ls : List Lit) (fuel : Nat) (ws : List (List Char)) (hs : strReps (strToks ls) fuel = some ws)
    (ha : allB (fun c => !numEq (fresh (numConsts ls)) c) (numConsts ls) = true) (v : AV) :
    ∃ r, r ∈ allReps ls ws ∧ ∀ l, l ∈ ls → holds l v = holds l r := by
  show ∃ r, r ∈ baseReps ++ ((numConsts ls).map AV.num ++ (AV.num (fresh (numConsts ls)) :: ws.map AV.str)) ∧ _
  cases v with
  | missing => exact ⟨AV.missing, memBase (Mem.head _), fun _ _ => rfl⟩
  | null => exact ⟨AV.null, memBase (Mem.tail _ (Mem.head _)), fun _ _ => rfl⟩
  | bool b => cases b with
    | true => exact ⟨AV.bool true, memBase (Mem.tail _ (Mem.tail _ (Mem.head _))), fun _ _ => rfl⟩
    | false => exact ⟨AV.bool false, memBase (Mem.tail _ (Mem.tail _ (Mem.tail _ (Mem.head _)))), fun _ _ => rfl⟩
  | arr => exact ⟨AV.arr, memBase (Mem.tail _ (Mem.tail _ (Mem.tail _ (Mem.tail _ (Mem.head _))))), fun _ _ => rfl⟩
  | obj => exact ⟨AV.obj, memBase (Mem.tail _ (Mem.tail _ (Mem.tail _ (Mem.tail _ (Mem.tail _ (Mem.head _)))))), fun _ _ => rfl⟩
  | num n =>
    cases hn : anyB (fun c => numEq n c) (numConsts ls) with
    | true =>
      have ⟨c, hc, ec⟩ := anyBElim hn
      refine ⟨AV.num c, memRest (AgentWarrant.memAppL _ (AgentWarrant.memMapOf AV.num hc)), fun l _ => ?_⟩
      cases l with
      | eqNum d => exact numAgree ec d
      | present => rfl
      | scalar => rfl
      | isNull => rfl
      | isArr => rfl
      | eqBool _ => rfl
      | eqStr _ => rfl
      | glob _ => rfl
    | false =>
      refine ⟨AV.num (fresh (numConsts ls)), memRest (AgentWarrant.memAppR _ _ (Mem.head _)), fun l hl => ?_⟩
      cases l with
      | eqNum d =>
        show numEq n d = numEq (fresh (numConsts ls)) d
        have hd := numConstsMem hl
        rw [anyBFalse hn hd, notTrue (allBElim ha d hd)]
      | present => rfl
      | scalar => rfl
      | isNull => rfl
      | isArr => rfl
      | eqBool _ => rfl
      | eqStr _ => rfl
      | glob _ => rfl
  | str w =>
    have ⟨u, hu, eu⟩ := strRepsSome hs w
    refine ⟨AV.str u, memRest (AgentWarrant.memAppR _ _ (Mem.tail _ (AgentWarrant.memMapOf AV.str hu))), fun l hl => ?_⟩
    cases l with
    | glob t => exact vecGAgree eu.symm (strToksMem.1 hl)
    | eqStr s =>
      show decide (w = s) = decide (u = s)
      rw [← litGlob s w, ← litGlob s u]
      exact vecGAgree eu.symm (strToksMem.2 s rfl hl)
    | present => rfl
    | scalar => rfl
    | isNull => rfl
    | isArr => rfl
    | eqBool _ => rfl
    | eqNum _ => rfl

/-- Every value agrees with a representative of its variable on every literal of the variable. -/
theorem repsExact (ls : List Lit) (fuel : Nat) (R : List AV) (h : repsFor ls fuel = some R) (v : AV) :
    ∃ r, r ∈ R ∧ ∀ l, l ∈ ls → holds l v = holds l r := by
  have h1 : (match strReps (strToks ls) fuel, allB (fun c => !numEq (fresh (numConsts ls)) c) (numConsts ls) with
    | some ws, true => some (dedupV ls [] (allReps ls ws))
    | _, _ => none) = some R := h
  cases hs : strReps (strToks ls) fuel with
  | none => rw [hs] at h1; cases h1
  | some ws =>
    cases ha : allB (fun c => !numEq (fresh (numConsts ls)) c) (numConsts ls) with
    | false => rw [hs, ha] at h1; cases h1
    | true =>
      rw [hs, ha] at h1
      rw [← Option.some.inj h1]
      have ⟨r, hr, agr⟩ := allRepsExact ls fuel ws hs ha v
      have ⟨y, hy, ey⟩ := dedupKeeps ls (allReps ls ws) [] r (Or.inr hr)
      exact ⟨y, hy, fun l hl => (agr l hl).trans (keyAt ey.symm l hl)⟩

-- one representative per variable ------------------------------------------------------------------

theorem memProdAux {r : AV} {xs : List AV} {P : List (List AV)} (hx : xs ∈ P) :
    ∀ {R : List AV}, r ∈ R → (r :: xs) ∈ prodAux R P
  | _ :: R, Mem.head _ => AgentWarrant.memAppL _ (AgentWarrant.memMapOf (List.cons r) hx)
  | q :: R, Mem.tail _ h => AgentWarrant.memAppR _ _ (memProdAux hx h)

theorem build (atoms : List Atom) (fuel : Nat) (ρ : Nat → AV) : ∀ (k off : Nat) (Rs : List (List AV)),
    repsFrom atoms fuel off k = some Rs → ∃ xs, xs ∈ prodL Rs ∧
      ∀ j, j < k → ∀ l, l ∈ litsOf (off + j) atoms → holds l (ρ (off + j)) = holds l (getV xs j)
  | 0, off, Rs, h => by
    have e : some [] = some Rs := h
    rw [← Option.some.inj e]
    exact ⟨[], Mem.head _, fun j hj => absurd hj (Nat.notSuccLeZero j)⟩
  | k + 1, off, Rs, h => by
    have h1 : (match repsFor (litsOf off atoms) fuel, repsFrom atoms fuel (off + 1) k with
      | some R, some Rs => some (R :: Rs)
      | _, _ => none) = some Rs := h
    cases hR : repsFor (litsOf off atoms) fuel with
    | none => rw [hR] at h1; cases h1
    | some R =>
      cases hT : repsFrom atoms fuel (off + 1) k with
      | none => rw [hR, hT] at h1; cases h1
      | some Ts =>
        rw [hR, hT] at h1
        rw [← Option.some.inj h1]
        have ⟨r, hr, agr⟩ := repsExact _ fuel R hR (ρ off)
        have ⟨xs, hxs, agx⟩ := build atoms fuel ρ k (off + 1) Ts hT
        refine ⟨r :: xs, memProdAux hxs hr, fun j hj l hl => ?_⟩
        cases j with
        | zero => exact agr l hl
        | succ j =>
          have e : off + Nat.succ j = off + 1 + j := (Nat.succ_add off j).symm
          rw [e] at hl ⊢
          exact agx j (Nat.leOfSuccLeSucc hj) l hl

-- the answers -------------------------------------------------------------------------------------

theorem firstBadNone (good : List Bool → Bool) (atoms : List Atom) : ∀ (P : List (List AV)),
    firstBadV good atoms P = none → ∀ xs, xs ∈ P → good (bitsOf atoms (getV xs)) = true
  | [], _, _, h => nomatch h
  | ys :: P, h, xs, hx => by
    have h1 : (match good (bitsOf atoms (getV ys)) with
      | false => some ys
      | true => firstBadV good atoms P) = none := h
    cases hg : good (bitsOf atoms (getV ys)) with
    | false => rw [hg] at h1; cases h1
    | true =>
      rw [hg] at h1
      cases hx with
      | head _ => exact hg
      | tail _ hx' => exact firstBadNone good atoms P h1 xs hx'

theorem firstBadSome (good : List Bool → Bool) (atoms : List Atom) (xs : List AV) : ∀ (P : List (List AV)),
    firstBadV good atoms P = some xs → good (bitsOf atoms (getV xs)) = false
  | [], h => by cases h
  | ys :: P, h => by
    have h1 : (match good (bitsOf atoms (getV ys)) with
      | false => some ys
      | true => firstBadV good atoms P) = some xs := h
    cases hg : good (bitsOf atoms (getV ys)) with
    | false =>
      rw [hg] at h1
      rw [← Option.some.inj h1]
      exact hg
    | true =>
      rw [hg] at h1
      exact firstBadSome good atoms xs P h1

theorem mapCongr {f g : α → β} : ∀ (l : List α), (∀ x, x ∈ l → f x = g x) → l.map f = l.map g
  | [], _ => rfl
  | a :: l, h => by
    show f a :: l.map f = g a :: l.map g
    rw [h a (Mem.head _), mapCongr l (fun x hx => h x (Mem.tail _ hx))]

/-- A `covered` answer: every valuation of the variables has a good atom vector. -/
theorem argCoveredSound (good : List Bool → Bool) (atoms : List Atom) (fuel : Nat)
    (h : argCover good atoms fuel = Answer.covered) : ∀ (ρ : Nat → AV), good (bitsOf atoms ρ) = true := by
  intro ρ
  have h1 : (match allB (fun a => decide (a.1 < maxVar atoms)) atoms, repsFrom atoms fuel 0 (maxVar atoms) with
    | true, some Rs => (match firstBadV good atoms (prodL Rs) with
      | none => Answer.covered
      | some xs => Answer.uncovered xs)
    | _, _ => Answer.unknown) = Answer.covered := h
  cases hi : allB (fun a => decide (a.1 < maxVar atoms)) atoms with
  | false => rw [hi] at h1; cases h1
  | true =>
    cases hr : repsFrom atoms fuel 0 (maxVar atoms) with
    | none => rw [hi, hr] at h1; cases h1
    | some Rs =>
      rw [hi, hr] at h1
      have h2 : (match firstBadV good atoms (prodL Rs) with
        | none => Answer.covered
        | some xs => Answer.uncovered xs) = Answer.covered := h1
      cases hb : firstBadV good atoms (prodL Rs) with
      | some xs => rw [hb] at h2; cases h2
      | none =>
        have ⟨xs, hxs, agx⟩ := build atoms fuel ρ (maxVar atoms) 0 Rs hr
        have e : bitsOf atoms ρ = bitsOf atoms (getV xs) := mapCongr atoms (fun a ha => by
          cases a with
          | mk i l =>
            have hlt : i < maxVar atoms := ofDecideEqTrue (allBElim hi (i, l) ha)
            have hl : l ∈ litsOf (0 + i) atoms := by
              rw [Nat.zero_add]
              exact litsOfMem ha
            have g := agx i hlt l hl
            rw [Nat.zero_add] at g
            exact g)
        rw [e]
        exact firstBadNone good atoms _ hb xs hxs

/-- An `uncovered xs` answer: the valuation `getV xs` has an atom vector that is not good. -/
theorem argUncoveredSound (good : List Bool → Bool) (atoms : List Atom) (fuel : Nat) (xs : List AV)
    (h : argCover good atoms fuel = Answer.uncovered xs) : good (bitsOf atoms (getV xs)) = false := by
  have h1 : (match allB (fun a => decide (a.1 < maxVar atoms)) atoms, repsFrom atoms fuel 0 (maxVar atoms) with
    | true, some Rs => (match firstBadV good atoms (prodL Rs) with
      | none => Answer.covered
      | some xs => Answer.uncovered xs)
    | _, _ => Answer.unknown) = Answer.uncovered xs := h
  cases hi : allB (fun a => decide (a.1 < maxVar atoms)) atoms with
  | false => rw [hi] at h1; cases h1
  | true =>
    cases hr : repsFrom atoms fuel 0 (maxVar atoms) with
    | none => rw [hi, hr] at h1; cases h1
    | some Rs =>
      rw [hi, hr] at h1
      have h2 : (match firstBadV good atoms (prodL Rs) with
        | none => Answer.covered
        | some xs => Answer.uncovered xs) = Answer.uncovered xs := h1
      cases hb : firstBadV good atoms (prodL Rs) with
      | none => rw [hb] at h2; cases h2
      | some ys =>
        rw [hb] at h2
        have e : ys = xs := Answer.uncovered.inj h2
        rw [← e]
        exact firstBadSome good atoms ys _ hb

end AgentWarrant.Revision.ArgCover
