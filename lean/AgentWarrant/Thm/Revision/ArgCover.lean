import AgentWarrant.Spec.Revision.ArgCover
import AgentWarrant.Spec.Revision.ListLemmas
import AgentWarrant.Thm.Revision.GlobCover
import AgentWarrant.Thm.Revision.GlobFuel
import AgentWarrant.Thm.Revision.ArgCoverOrder
import AgentWarrant.Thm.Revision.ArgCoverJson
/-! The argument coverage decision (`Spec/Revision/ArgCover.lean`) is sound both ways over every
valuation of its variables:

* `argCoveredSound`: when it answers `covered`, every valuation's atom vector is good.
* `argUncoveredSound`: when it answers `uncovered xs`, the valuation `getV xs` has a vector that is not.

The step is `repsExact`, the partition's exactness, proved as `repAgrees` is for characters: every value
agrees with one of its variable's representatives on every literal of that variable. Numbers
(`numRepExact`), over the constants the literals name (equalities' constants, ranges' bounds): a number
equal to a constant agrees with it on every equality and every bound (`numEq` is symmetric and
transitive, `numLe` respects it: `ordCongrL`/`ordCongrR`); a number equal to none either lies below
every constant, and agrees with `below`, or has a greatest constant `c` at or below it (`greatest`) and
agrees with `above c`: the constants at or below it are those at or below `c` (`numLe` is transitive,
`ordTrans`), and a bound it does not equal is above it exactly when it is not at or below it
(`ordFlip`, from totality and antisymmetry, `Thm/Revision/ArgCoverOrder.lean`); `numOk` checks that
`below` and each `above c` have these properties. Strings (`strRepsExact`): a string constant is the
literal glob of its characters (`litGlob`), and every string has a word of `strReps` with the same vector
over all the variable's globs: the searched words when the glob decision certifies them, otherwise one
word per vector some string has, each the glob decision's witness, which never answers `unknown` at its
proved-sufficient fuel (`GlobFuel.coverTotalNeverUnknown`). `build` picks one representative per
variable, so the product of the representatives holds a valuation with the same atom vector as any
valuation. Arrays and objects (`jsonRepArr`, `jsonRepObj`): over the array and object constants of the
variable's literals, a constant it equals or a fresh value of its kind (`eqJsonExact`,
`Thm/Revision/ArgCoverJson.lean`), with no hypothesis on the value. No fuel is left to the caller: `argCover` answers `unknown` only when `numOk` fails
(`argUnknownOnlyNumOk`), and `Thm/Revision/ArgCoverNum.lean` proves that it never fails (`numOkTrue`,
`argCoverNeverUnknown`). -/
namespace AgentWarrant.Revision.ArgCover
open Lean AgentWarrant.Monitor.Full

-- numbers ----------------------------------------------------------------------------------------

theorem numAgree {n c : JsonNumber} (h : numEq n c = true) (d : JsonNumber) : numEq n d = numEq c d :=
  boolEq (fun hd => numEqTrans (numEqSymm h) hd) (fun hd => numEqTrans h hd)

-- string constants as literal globs ----------------------------------------------------------------

theorem litGlob : ∀ (s w : List Char), globMatch (s.map GlobTok.lit) w = decide (w = s)
  | [], [] => rfl
  | [], x :: r => by
    show List.isEmpty (x :: r) = decide (x :: r = [])
    exact (decideEqFalse ((fun h => by cases h))).symm
  | c :: s, [] => by
    show false = decide ([] = c :: s)
    exact (decideEqFalse ((fun h => by cases h))).symm
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

theorem numConstsMem {d : JsonNumber} {l : Lit} : ∀ {ls : List ALit}, ALit.lit l ∈ ls → d ∈ litNums l → d ∈ numConsts ls
  | _ :: _, Mem.head _, h => AgentWarrant.memAppL _ h
  | k :: ls, Mem.tail _ hl, h => AgentWarrant.memAppR _ (litNumsA k) (numConstsMem hl h)

theorem jsonConstsMem {c : Json} : ∀ {ls : List ALit}, ALit.eqJson c ∈ ls → c ∈ jsonConsts ls
  | _ :: _, Mem.head _ => Mem.head _
  | k :: ls, Mem.tail _ h => by
    cases k with
    | eqJson _ => exact Mem.tail _ (jsonConstsMem h)
    | lit _ =>
      show c ∈ jsonConsts ls
      exact jsonConstsMem h

theorem strToksMem {t : List GlobTok} : ∀ {ls : List ALit}, (ALit.lit (Lit.glob t) ∈ ls → t ∈ strToks ls) ∧
    (∀ s, t = s.map GlobTok.lit → ALit.lit (Lit.eqStr s) ∈ ls → t ∈ strToks ls)
  | [] => ⟨fun h => nomatch h, fun _ _ h => nomatch h⟩
  | l :: ls => by
    have ih := @strToksMem t ls
    constructor
    · intro h
      cases h with
      | head _ => exact Mem.head _
      | tail _ h' =>
        cases l with
        | eqJson _ => exact ih.1 h'
        | lit l => cases l with
          | eqStr s => exact Mem.tail _ (ih.1 h')
          | glob _ => exact Mem.tail _ (ih.1 h')
          | present => exact ih.1 h'
          | scalar => exact ih.1 h'
          | isNull => exact ih.1 h'
          | isArr => exact ih.1 h'
          | eqBool _ => exact ih.1 h'
          | eqNum _ => exact ih.1 h'
          | range _ _ => exact ih.1 h'
          | isObj => exact ih.1 h'
    · intro s e h
      cases h with
      | head _ => rw [e]; exact Mem.head _
      | tail _ h' =>
        cases l with
        | eqJson _ => exact ih.2 s e h'
        | lit l => cases l with
          | eqStr _ => exact Mem.tail _ (ih.2 s e h')
          | glob _ => exact Mem.tail _ (ih.2 s e h')
          | present => exact ih.2 s e h'
          | scalar => exact ih.2 s e h'
          | isNull => exact ih.2 s e h'
          | isArr => exact ih.2 s e h'
          | eqBool _ => exact ih.2 s e h'
          | eqNum _ => exact ih.2 s e h'
          | range _ _ => exact ih.2 s e h'
          | isObj => exact ih.2 s e h'

theorem litsOfMem {i : Nat} {l : ALit} : ∀ {atoms : List Atom}, (i, l) ∈ atoms → l ∈ litsOf i atoms
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

-- strings: every glob vector some string has, one word each -----------------------------------------

theorem allVecsMem : ∀ (v : List Bool), v ∈ allVecs v.length
  | [] => Mem.head _
  | true :: v => by
    rw [List.length_cons]
    show true :: v ∈ (allVecs v.length).map (List.cons true) ++ (allVecs v.length).map (List.cons false)
    exact AgentWarrant.memAppL _ (AgentWarrant.memMapOf (List.cons true) (allVecsMem v))
  | false :: v => by
    rw [List.length_cons]
    show false :: v ∈ (allVecs v.length).map (List.cons true) ++ (allVecs v.length).map (List.cons false)
    exact AgentWarrant.memAppR _ _ (AgentWarrant.memMapOf (List.cons false) (allVecsMem v))

theorem vecGLen (w : List Char) : ∀ (gs : List (List GlobTok)), List.length (Revision.Glob.vecG gs w) = gs.length
  | [] => rfl
  | g :: gs => by
    show List.length (globMatch g w :: Revision.Glob.vecG gs w) = List.length (g :: gs)
    rw [List.length_cons, List.length_cons, vecGLen w gs]

theorem somesMem {w : List Char} : ∀ {os : List (Option (List Char))}, some w ∈ os → w ∈ somes os
  | _ :: _, Mem.head _ => Mem.head _
  | none :: os, Mem.tail _ h => @somesMem w os h
  | some u :: os, Mem.tail _ h => Mem.tail _ (@somesMem w os h)

/-- The glob decision finds a word with any vector some string has (it never answers `unknown`). -/
theorem wordOfSome (gs : List (List GlobTok)) (w : List Char) :
    ∃ u, wordOf gs (Revision.Glob.vecG gs w) = some u ∧ Revision.Glob.vecG gs u = Revision.Glob.vecG gs w := by
  cases hc : Revision.Glob.coverTotal (fun u => !decide (u = Revision.Glob.vecG gs w)) gs with
  | covered =>
    have g := Revision.Glob.globCoveredSound _ gs _ hc w _ (Revision.Glob.vecGMeaning w gs)
    rw [decideEqTrue (rfl : Revision.Glob.vecG gs w = Revision.Glob.vecG gs w)] at g
    cases g
  | uncovered u =>
    have ⟨v, hv, g⟩ := Revision.Glob.globUncoveredSound _ gs _ u hc
    rw [Revision.Glob.vecMeaningUnique hv] at g
    refine ⟨u, ?_, ?_⟩
    · show (match Revision.Glob.coverTotal (fun u => !decide (u = Revision.Glob.vecG gs w)) gs with
        | Revision.Glob.Answer.uncovered w => some w
        | _ => none) = some u
      rw [hc]
    · cases hd : decide (Revision.Glob.vecG gs u = Revision.Glob.vecG gs w) with
      | true => exact ofDecideEqTrue hd
      | false => rw [hd] at g; cases g
  | unknown => exact absurd hc (Revision.GlobFuel.coverTotalNeverUnknown _ gs)

theorem vecWordsExact (gs : List (List GlobTok)) (w : List Char) :
    ∃ u, u ∈ vecWords gs ∧ Revision.Glob.vecG gs u = Revision.Glob.vecG gs w := by
  have ⟨u, hu, eu⟩ := wordOfSome gs w
  have hv := allVecsMem (Revision.Glob.vecG gs w)
  rw [vecGLen] at hv
  have hm := AgentWarrant.memMapOf (wordOf gs) hv
  rw [hu] at hm
  exact ⟨u, somesMem hm, eu⟩

/-- Every string has a word of `strReps` with the same vector over the globs. -/
theorem strRepsExact (gs : List (List GlobTok)) (w : List Char) :
    ∃ u, u ∈ strReps gs ∧ Revision.Glob.vecG gs u = Revision.Glob.vecG gs w := by
  cases hc : Revision.Glob.coverTotal (hasVec gs (wordsFor gs (Revision.Glob.fuelBound gs))) gs with
  | covered =>
    have e : strReps gs = wordsFor gs (Revision.Glob.fuelBound gs) := by
      show (match Revision.Glob.coverTotal (hasVec gs (wordsFor gs (Revision.Glob.fuelBound gs))) gs with
        | Revision.Glob.Answer.covered => wordsFor gs (Revision.Glob.fuelBound gs)
        | _ => vecWords gs) = _
      rw [hc]
    have g := Revision.Glob.globCoveredSound _ gs _ hc w _ (Revision.Glob.vecGMeaning w gs)
    have ⟨u, hu, eu⟩ := anyBElim g
    rw [e]
    exact ⟨u, hu, ofDecideEqTrue eu⟩
  | uncovered x =>
    have e : strReps gs = vecWords gs := by
      show (match Revision.Glob.coverTotal (hasVec gs (wordsFor gs (Revision.Glob.fuelBound gs))) gs with
        | Revision.Glob.Answer.covered => wordsFor gs (Revision.Glob.fuelBound gs)
        | _ => vecWords gs) = _
      rw [hc]
    rw [e]
    exact vecWordsExact gs w
  | unknown => exact absurd hc (Revision.GlobFuel.coverTotalNeverUnknown _ gs)

-- numbers: the constants, one below them all, one just above each ---------------------------------

theorem beqBool : ∀ {a b : Bool}, (a == b) = true → a = b
  | true, true, _ => rfl
  | false, false, _ => rfl
  | true, false, h => by cases h
  | false, true, h => by cases h

theorem eqFalseOfLe {a b : JsonNumber} (h : numLe b a = false) : numEq a b = false := by
  cases he : numEq a b with
  | false => rfl
  | true => rw [ordOfEq (numEqSymm he)] at h; cases h

/-- Every number agrees with a number representative on equality to, and order against, every constant. -/
theorem numRepExact (ns : List JsonNumber) (hok : numOk ns = true) (n : JsonNumber) :
    ∃ r, r ∈ numReps ns ∧ (∀ d, d ∈ ns → numEq n d = numEq r d) ∧ (∀ d, d ∈ ns → numLe d n = numLe d r) ∧
      (∀ d, d ∈ ns → numLe n d = numLe r d) := by
  have ⟨hb, ha⟩ := andT hok
  cases hn : anyB (fun c => numEq n c) ns with
  | true =>
    have ⟨c, hc, ec⟩ := anyBElim hn
    exact ⟨c, AgentWarrant.memAppL _ hc, fun d _ => numAgree ec d, fun d _ => ordCongrR ec d,
      fun d _ => ordCongrL ec d⟩
  | false =>
    cases greatest n ns with
    | inl hno =>
      refine ⟨below ns, AgentWarrant.memAppR _ ns (Mem.head _), fun d hd => ?_, fun d hd => ?_, fun d hd => ?_⟩
      · have lb : numLe d (below ns) = false := notTrue (allBElim hb d hd)
        rw [anyBFalse hn hd, eqFalseOfLe lb]
      · rw [hno d hd, notTrue (allBElim hb d hd)]
      · have lb : numLe d (below ns) = false := notTrue (allBElim hb d hd)
        rw [ordFlip (anyBFalse hn hd), ordFlip (eqFalseOfLe lb), hno d hd, lb]
    | inr h =>
      have ⟨c, hc, hcn, hg⟩ := h
      have chk : ∀ d, d ∈ ns → numEq (above ns c) d = false ∧ numLe d (above ns c) = numLe d c := fun d hd => by
        have ⟨x, y⟩ := andT (allBElim (allBElim ha c hc) d hd)
        exact ⟨notTrue x, beqBool y⟩
      have below' : ∀ d, d ∈ ns → numLe d n = numLe d c := fun d hd => by
        cases h1 : numLe d n with
        | true => exact (hg d hd h1).symm
        | false =>
          cases h2 : numLe d c with
          | false => rfl
          | true => rw [ordTrans h2 hcn] at h1; cases h1
      refine ⟨above ns c, AgentWarrant.memAppR _ ns (Mem.tail _ (AgentWarrant.memMapOf (above ns) hc)),
        fun d hd => ?_, fun d hd => ?_, fun d hd => ?_⟩
      · rw [anyBFalse hn hd, (chk d hd).1]
      · rw [below' d hd, (chk d hd).2]
      · rw [ordFlip (anyBFalse hn hd), ordFlip (chk d hd).1, below' d hd, (chk d hd).2]

theorem rangeAgree {n r : JsonNumber} : ∀ (lo hi : Option JsonNumber),
    (∀ l, lo = some l → numLe l n = numLe l r) → (∀ h, hi = some h → numLe n h = numLe r h) →
    (lowOk lo n && highOk hi n) = (lowOk lo r && highOk hi r)
  | none, none, _, _ => rfl
  | some l, none, e1, _ => by
    show (numLe l n && true) = (numLe l r && true)
    rw [e1 l rfl]
  | none, some h, _, e2 => by
    show (true && numLe n h) = (true && numLe r h)
    rw [e2 h rfl]
  | some l, some h, e1, e2 => by
    show (numLe l n && numLe n h) = (numLe l r && numLe r h)
    rw [e1 l rfl, e2 h rfl]

theorem memBase {x : AV} {R : List AV} (h : x ∈ baseReps) : x ∈ baseReps ++ R := AgentWarrant.memAppL R h

theorem memRest {x : AV} {R : List AV} (h : x ∈ R) : x ∈ baseReps ++ R := AgentWarrant.memAppR R baseReps h

theorem dedupKeeps (ls : List ALit) : ∀ (R acc : List AV) (x : AV), (x ∈ acc ∨ x ∈ R) →
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

theorem keyAt {v r : AV} : ∀ {ls : List ALit}, keyOf ls v = keyOf ls r → ∀ l, l ∈ ls → holdsA l v = holdsA l r
  | [], _, _, h => nomatch h
  | l :: ls, e, x, h => by
    have ⟨e1, e2⟩ := List.cons.inj e
    cases h with
    | head _ => exact e1
    | tail _ h' => exact keyAt e2 x h'

-- arrays and objects: the constants, one fresh value of each kind -----------------------------------

theorem memJsonAVs {r : Json} : ∀ {rs : List Json}, r ∈ rs →
    (isArrJ r = true → AV.arr r ∈ jsonAVs rs) ∧ (isObjJ r = true → AV.obj r ∈ jsonAVs rs)
  | _ :: rs, Mem.head _ => by
    cases r with
    | arr a => exact ⟨fun _ => Mem.head _, (fun h => by cases h)⟩
    | obj o => exact ⟨(fun h => by cases h), fun _ => Mem.head _⟩
    | null => exact ⟨(fun h => by cases h), (fun h => by cases h)⟩
    | bool _ => exact ⟨(fun h => by cases h), (fun h => by cases h)⟩
    | num _ => exact ⟨(fun h => by cases h), (fun h => by cases h)⟩
    | str _ => exact ⟨(fun h => by cases h), (fun h => by cases h)⟩
  | q :: rs, Mem.tail _ h => by
    have ih := memJsonAVs h
    cases q with
    | arr a => exact ⟨fun hk => Mem.tail _ (ih.1 hk), fun hk => Mem.tail _ (ih.2 hk)⟩
    | obj o => exact ⟨fun hk => Mem.tail _ (ih.1 hk), fun hk => Mem.tail _ (ih.2 hk)⟩
    | null => exact ih
    | bool _ => exact ih
    | num _ => exact ih
    | str _ => exact ih

/-- An array value (whatever it carries) agrees with an array representative on equality to every
constant: `eqJsonExact` when it carries an array, else the fresh array, equal to no constant. -/
theorem jsonRepArr (cs : List Json) (x : Json) :
    ∃ r, AV.arr r ∈ jsonAVs (jsonReps cs) ∧ ∀ c, c ∈ cs → holdsJ c (AV.arr x) = holdsJ c (AV.arr r) := by
  cases hk : isArrJ x with
  | true =>
    have ⟨r, hr, ka, _, agr⟩ := eqJsonExact cs x (by rw [hk]; rfl)
    exact ⟨r, (memJsonAVs hr).1 (ka.trans hk), fun c hc => by
      show (isArrJ x && eqJsonHolds c x) = (isArrJ r && eqJsonHolds c r)
      rw [ka, agr c hc]⟩
  | false =>
    have hf : freshArr cs ∈ jsonReps cs := AgentWarrant.memAppR _ cs (Mem.head _)
    exact ⟨freshArr cs, (memJsonAVs hf).1 rfl, fun c hc => by
      show (isArrJ x && eqJsonHolds c x) = (true && (admitted c && admitted (freshArr cs) && jeq (freshArr cs) c))
      rw [hk, freshArrNe cs c hc, andFalseR]
      rfl⟩

theorem jsonRepObj (cs : List Json) (x : Json) :
    ∃ r, AV.obj r ∈ jsonAVs (jsonReps cs) ∧ ∀ c, c ∈ cs → holdsJ c (AV.obj x) = holdsJ c (AV.obj r) := by
  cases hk : isObjJ x with
  | true =>
    have ⟨r, hr, _, ko, agr⟩ := eqJsonExact cs x (by rw [hk]; cases isArrJ x <;> rfl)
    exact ⟨r, (memJsonAVs hr).2 (ko.trans hk), fun c hc => by
      show (isObjJ x && eqJsonHolds c x) = (isObjJ r && eqJsonHolds c r)
      rw [ko, agr c hc]⟩
  | false =>
    have hf : freshObj cs ∈ jsonReps cs := AgentWarrant.memAppR _ cs (Mem.tail _ (Mem.head _))
    exact ⟨freshObj cs, (memJsonAVs hf).2 rfl, fun c hc => by
      show (isObjJ x && eqJsonHolds c x) = (true && (admitted c && admitted (freshObj cs) && jeq (freshObj cs) c))
      rw [hk, freshObjNe cs c hc, andFalseR]
      rfl⟩

/-- Every value agrees with a representative among all the candidates (before `dedupV`). -/
theorem allRepsExact (ls : List ALit) (ha : numOk (numConsts ls) = true) (v : AV) :
    ∃ r, r ∈ allReps ls (strReps (strToks ls)) ∧ ∀ l, l ∈ ls → holdsA l v = holdsA l r := by
  show ∃ r, r ∈ baseReps ++ (jsonAVs (jsonReps (jsonConsts ls)) ++
    ((numReps (numConsts ls)).map AV.num ++ (strReps (strToks ls)).map AV.str)) ∧ _
  cases v with
  | missing => exact ⟨AV.missing, memBase (Mem.head _), fun _ _ => rfl⟩
  | null => exact ⟨AV.null, memBase (Mem.tail _ (Mem.head _)), fun _ _ => rfl⟩
  | bool b => cases b with
    | true => exact ⟨AV.bool true, memBase (Mem.tail _ (Mem.tail _ (Mem.head _))), fun _ _ => rfl⟩
    | false => exact ⟨AV.bool false, memBase (Mem.tail _ (Mem.tail _ (Mem.tail _ (Mem.head _)))), fun _ _ => rfl⟩
  | arr x =>
    have ⟨r, hr, agr⟩ := jsonRepArr (jsonConsts ls) x
    refine ⟨AV.arr r, memRest (AgentWarrant.memAppL _ hr), fun l hl => ?_⟩
    cases l with
    | lit _ => rfl
    | eqJson c => exact agr c (jsonConstsMem hl)
  | obj x =>
    have ⟨r, hr, agr⟩ := jsonRepObj (jsonConsts ls) x
    refine ⟨AV.obj r, memRest (AgentWarrant.memAppL _ hr), fun l hl => ?_⟩
    cases l with
    | lit _ => rfl
    | eqJson c => exact agr c (jsonConstsMem hl)
  | num n =>
    have ⟨r, hr, eqs, los, his⟩ := numRepExact (numConsts ls) ha n
    refine ⟨AV.num r, memRest (AgentWarrant.memAppR _ _ (AgentWarrant.memAppL _ (AgentWarrant.memMapOf AV.num hr))),
      fun l hl => ?_⟩
    cases l with
    | eqJson _ => rfl
    | lit l => cases l with
      | eqNum d => exact eqs d (numConstsMem hl (Mem.head _))
      | range lo hi =>
        show (lowOk lo n && highOk hi n) = (lowOk lo r && highOk hi r)
        refine rangeAgree lo hi (fun x ex => los x (numConstsMem hl ?_)) (fun x ex => his x (numConstsMem hl ?_))
        · rw [ex]; exact AgentWarrant.memAppL _ (Mem.head _)
        · rw [ex]; exact AgentWarrant.memAppR _ (optL lo) (Mem.head _)
      | present => rfl
      | scalar => rfl
      | isNull => rfl
      | isArr => rfl
      | isObj => rfl
      | eqBool _ => rfl
      | eqStr _ => rfl
      | glob _ => rfl
  | str w =>
    have ⟨u, hu, eu⟩ := strRepsExact (strToks ls) w
    refine ⟨AV.str u, memRest (AgentWarrant.memAppR _ _ (AgentWarrant.memAppR _ _ (AgentWarrant.memMapOf AV.str hu))),
      fun l hl => ?_⟩
    cases l with
    | eqJson _ => rfl
    | lit l => cases l with
      | glob t => exact vecGAgree eu.symm (strToksMem.1 hl)
      | eqStr s =>
        show decide (w = s) = decide (u = s)
        rw [← litGlob s w, ← litGlob s u]
        exact vecGAgree eu.symm (strToksMem.2 s rfl hl)
      | present => rfl
      | scalar => rfl
      | isNull => rfl
      | isArr => rfl
      | isObj => rfl
      | eqBool _ => rfl
      | eqNum _ => rfl
      | range _ _ => rfl

/-- Every value agrees with a representative of its variable on every literal of the variable. -/
theorem repsExact (ls : List ALit) (R : List AV) (h : repsFor ls = some R) (v : AV) :
    ∃ r, r ∈ R ∧ ∀ l, l ∈ ls → holdsA l v = holdsA l r := by
  have h1 : (match numOk (numConsts ls) with
    | true => some (dedupV ls [] (allReps ls (strReps (strToks ls))))
    | false => none) = some R := h
  cases ha : numOk (numConsts ls) with
  | false => rw [ha] at h1; cases h1
  | true =>
    rw [ha] at h1
    rw [← Option.some.inj h1]
    have ⟨r, hr, agr⟩ := allRepsExact ls ha v
    have ⟨y, hy, ey⟩ := dedupKeeps ls (allReps ls (strReps (strToks ls))) [] r (Or.inr hr)
    exact ⟨y, hy, fun l hl => (agr l hl).trans (keyAt ey.symm l hl)⟩

-- one representative per variable ------------------------------------------------------------------

theorem memProdAux {r : AV} {xs : List AV} {P : List (List AV)} (hx : xs ∈ P) :
    ∀ {R : List AV}, r ∈ R → (r :: xs) ∈ prodAux R P
  | _ :: R, Mem.head _ => AgentWarrant.memAppL _ (AgentWarrant.memMapOf (List.cons r) hx)
  | q :: R, Mem.tail _ h => AgentWarrant.memAppR _ _ (memProdAux hx h)

theorem build (atoms : List Atom) (ρ : Nat → AV) : ∀ (k off : Nat) (Rs : List (List AV)),
    repsFrom atoms off k = some Rs → ∃ xs, xs ∈ prodL Rs ∧
      ∀ j, j < k → ∀ l, l ∈ litsOf (off + j) atoms → holdsA l (ρ (off + j)) = holdsA l (getV xs j)
  | 0, off, Rs, h => by
    have e : some [] = some Rs := h
    rw [← Option.some.inj e]
    exact ⟨[], Mem.head _, fun j hj => absurd hj (Nat.notSuccLeZero j)⟩
  | k + 1, off, Rs, h => by
    have h1 : (match repsFor (litsOf off atoms), repsFrom atoms (off + 1) k with
      | some R, some Rs => some (R :: Rs)
      | _, _ => none) = some Rs := h
    cases hR : repsFor (litsOf off atoms) with
    | none => rw [hR] at h1; cases h1
    | some R =>
      cases hT : repsFrom atoms (off + 1) k with
      | none => rw [hR, hT] at h1; cases h1
      | some Ts =>
        rw [hR, hT] at h1
        rw [← Option.some.inj h1]
        have ⟨r, hr, agr⟩ := repsExact _ R hR (ρ off)
        have ⟨xs, hxs, agx⟩ := build atoms ρ k (off + 1) Ts hT
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
theorem argCoveredSound (good : List Bool → Bool) (atoms : List Atom)
    (h : argCover good atoms = Answer.covered) : ∀ (ρ : Nat → AV), good (bitsOf atoms ρ) = true := by
  intro ρ
  have h1 : (match allB (fun a => decide (a.1 < maxVar atoms)) atoms, repsFrom atoms 0 (maxVar atoms) with
    | true, some Rs => (match firstBadV good atoms (prodL Rs) with
      | none => Answer.covered
      | some xs => Answer.uncovered xs)
    | _, _ => Answer.unknown) = Answer.covered := h
  cases hi : allB (fun a => decide (a.1 < maxVar atoms)) atoms with
  | false => rw [hi] at h1; cases h1
  | true =>
    cases hr : repsFrom atoms 0 (maxVar atoms) with
    | none => rw [hi, hr] at h1; cases h1
    | some Rs =>
      rw [hi, hr] at h1
      have h2 : (match firstBadV good atoms (prodL Rs) with
        | none => Answer.covered
        | some xs => Answer.uncovered xs) = Answer.covered := h1
      cases hb : firstBadV good atoms (prodL Rs) with
      | some xs => rw [hb] at h2; cases h2
      | none =>
        have ⟨xs, hxs, agx⟩ := build atoms ρ (maxVar atoms) 0 Rs hr
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
theorem argUncoveredSound (good : List Bool → Bool) (atoms : List Atom) (xs : List AV)
    (h : argCover good atoms = Answer.uncovered xs) : good (bitsOf atoms (getV xs)) = false := by
  have h1 : (match allB (fun a => decide (a.1 < maxVar atoms)) atoms, repsFrom atoms 0 (maxVar atoms) with
    | true, some Rs => (match firstBadV good atoms (prodL Rs) with
      | none => Answer.covered
      | some xs => Answer.uncovered xs)
    | _, _ => Answer.unknown) = Answer.uncovered xs := h
  cases hi : allB (fun a => decide (a.1 < maxVar atoms)) atoms with
  | false => rw [hi] at h1; cases h1
  | true =>
    cases hr : repsFrom atoms 0 (maxVar atoms) with
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

namespace AgentWarrant.Revision.ArgCover
open Lean AgentWarrant.Monitor.Full

-- no fuel: what `unknown` can mean ------------------------------------------------------------------

theorem maxVarGt : ∀ (atoms : List Atom) (a : Atom), a ∈ atoms → a.1 < maxVar atoms
  | [], _, h => nomatch h
  | b :: bs, a, h => by
    have ih := maxVarGt bs
    show a.1 < (match decide (maxVar bs < b.1 + 1) with
      | true => b.1 + 1
      | false => maxVar bs)
    cases hd : decide (maxVar bs < b.1 + 1) with
    | true =>
      cases h with
      | head _ => exact Nat.leRefl _
      | tail _ h' => exact Nat.leTrans (ih a h') (Nat.leTrans (Nat.leSucc _) (ofDecideEqTrue hd))
    | false =>
      have hn : ¬ (maxVar bs < b.1 + 1) := ofDecideEqFalse hd
      cases h with
      | head _ => exact Nat.leOfLtSucc (Nat.gtOfNotLe hn)
      | tail _ h' => exact ih a h'

theorem repsFromNone (atoms : List Atom) : ∀ (k off : Nat), repsFrom atoms off k = none →
    ∃ i, repsFor (litsOf i atoms) = none
  | 0, off, h => by cases h
  | k + 1, off, h => by
    have h1 : (match repsFor (litsOf off atoms), repsFrom atoms (off + 1) k with
      | some R, some Rs => some (R :: Rs)
      | _, _ => none) = none := h
    cases hR : repsFor (litsOf off atoms) with
    | none => exact ⟨off, hR⟩
    | some R =>
      cases hT : repsFrom atoms (off + 1) k with
      | none => exact repsFromNone atoms k (off + 1) hT
      | some Ts => rw [hR, hT] at h1; cases h1

theorem repsForNone {ls : List ALit} (h : repsFor ls = none) : numOk (numConsts ls) = false := by
  have h1 : (match numOk (numConsts ls) with
    | true => some (dedupV ls [] (allReps ls (strReps (strToks ls))))
    | false => none) = none := h
  cases ha : numOk (numConsts ls) with
  | false => rfl
  | true => rw [ha] at h1; cases h1

/-- `argCover` takes no fuel, and answers `unknown` only when the check of some variable's number
representatives (`numOk`) fails: never for lack of fuel, never for a string. -/
theorem argUnknownOnlyNumOk (good : List Bool → Bool) (atoms : List Atom) (h : argCover good atoms = Answer.unknown) :
    ∃ i, numOk (numConsts (litsOf i atoms)) = false := by
  have h1 : (match allB (fun a => decide (a.1 < maxVar atoms)) atoms, repsFrom atoms 0 (maxVar atoms) with
    | true, some Rs => (match firstBadV good atoms (prodL Rs) with
      | none => Answer.covered
      | some xs => Answer.uncovered xs)
    | _, _ => Answer.unknown) = Answer.unknown := h
  have hi : allB (fun a => decide (a.1 < maxVar atoms)) atoms = true :=
    allBIntro (fun a ha => decideEqTrue (maxVarGt atoms a ha))
  cases hr : repsFrom atoms 0 (maxVar atoms) with
  | none =>
    have ⟨i, hn⟩ := repsFromNone atoms _ 0 hr
    exact ⟨i, repsForNone hn⟩
  | some Rs =>
    rw [hi, hr] at h1
    have h2 : (match firstBadV good atoms (prodL Rs) with
      | none => Answer.covered
      | some xs => Answer.uncovered xs) = Answer.unknown := h1
    cases hb : firstBadV good atoms (prodL Rs) with
    | none => rw [hb] at h2; cases h2
    | some xs => rw [hb] at h2; cases h2

end AgentWarrant.Revision.ArgCover
