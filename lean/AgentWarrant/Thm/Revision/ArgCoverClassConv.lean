import AgentWarrant.Spec.Revision.ArgCoverClassConv
import AgentWarrant.Thm.Revision.ArgCoverClass
import AgentWarrant.Thm.Revision.ArgCoverWay
import AgentWarrant.Thm.Revision.ArgCoverNeq
import AgentWarrant.Thm.Revision.ArgCoverClassSame
/-! The converse of `classCoverMatches` at the level of the class's meaning (Agenra Sections 1 and 7.1): an
`uncovered` answer on the class question Lean writes (`classQ`) stands for a binding state of the class.
`argUncoveredSound` gives a valuation of the question's variables whose vector is not good; read at the
question's sources (`convVal`, `convWitnessBits`), it satisfies the way's condition, its match vector (the
positions' bits on the way's sources) is not listed, and every clause the class adds holds
(`buildQCMeans`, `liftCnf`, `liftPosMap`). From those clauses the group values are rebuilt as
`factsElim` does for one group: the resource for a group whose facts it has, else the group's value
variable, else (a string that is no group, which has no facts: `convGroupLitsNil`) a fixed valid value;
a slot is bound when its variable is present. A slot the positions name but no fact names is its own
group (`convGrpOut`: the asserted equalities join only slots that facts name), with no facts
(`convNoFacts`), so its match needs nothing of the question. The positions read a slot only through its
match bit (its variable present, the resource a valid slot value: `slotConj`'s three clauses; every other
literal of a position reads the resource or a path), so the vector not listed is also the vector with each
slot's variable present exactly when the slot matches (`convCanon`, `convPosCanon`), the values `srcVal`
gives a call. Result: `classUncoveredMeant`; from the oracle's own `uncovered` answer when it writes
`classQ`, `oracleClassUncovered` finds the way and the `argCover` answer it applies to. The same for
`classQA`: `classUncoveredMeantA` (`Thm/Revision/ArgCoverClassConvA.lean`).

Not proved here: that the state so described is reached by a run, or a call the monitor prepares on it
(the unit-level converse, `argUncoveredSound`, is also about valuations); classes
denying an equality between slots (`classQ` does not write them; `neqExact2` covers one case of the Python
caller's question). -/
namespace AgentWarrant.Revision.ArgCover
open Lean AgentWarrant AgentWarrant.Monitor AgentWarrant.Monitor.Full

-- small Boolean and list steps ------------------------------------------------------------------------

theorem convMemOne {x a : α} (h : x ∈ [a]) : x = a := match memCons h with
  | Or.inl e => e
  | Or.inr h1 => absurd h1 notMemNil

theorem convOrFalse : ∀ {a b : Bool}, (a || b) = false → a = false ∧ b = false
  | false, false, _ => ⟨rfl, rfl⟩
  | true, _, h => Bool.noConfusion h
  | false, true, h => Bool.noConfusion h

theorem convNotFalse : ∀ {b : Bool}, (!b) = false → b = true
  | true, _ => rfl
  | false, h => Bool.noConfusion h

theorem convAnyOne {p : α → Bool} {a : α} (h : anyB p [a] = true) : p a = true := by
  cases hp : p a with
  | true => rfl
  | false =>
    have e : anyB p [a] = false := by
      show (match p a with | true => true | false => anyB p []) = false
      rw [hp]
      rfl
    rw [e] at h
    exact h

theorem convAnyTail {p : α → Bool} {a : α} {l : List α} (h : anyB p (a :: l) = true) (ha : p a = false) :
    anyB p l = true := by
  have e : anyB p (a :: l) = anyB p l := by
    show (match p a with | true => true | false => anyB p l) = anyB p l
    rw [ha]
  rw [← e]
  exact h

theorem convMemSl {x : String} {l : List String} (h : memSl x l = true) : x ∈ l := by
  have ⟨y, hy, hd⟩ := anyBSome h
  have e : y = x := ofDecideEqTrue hd
  rw [← e]
  exact hy

theorem convMemSlOf {x : String} {l : List String} (h : x ∈ l) : memSl x l = true :=
  anyBOf h (decideEqTrue rfl)

theorem convCnfApp (v : CSrc → AV) (l1 l2 : List CClause) (h : cCnfHolds v (l1 ++ l2) = true) :
    cCnfHolds v l1 = true ∧ cCnfHolds v l2 = true := by
  apply factsAndTrue
  show (allB (cClauseHolds v) l1 && allB (cClauseHolds v) l2) = true
  rw [← allBApp]
  exact h

theorem convCnfJoin (v : CSrc → AV) (f : α → List CClause) :
    ∀ (L : List α) (x : α), x ∈ L → cCnfHolds v (L.map f).join = true → cCnfHolds v (f x) = true
  | [], _, h, _ => absurd h notMemNil
  | y :: L, x, h, hc => by
    have ⟨h1, h2⟩ := convCnfApp v (f y) (L.map f).join hc
    cases memCons h with
    | inl e => rw [e]; exact h1
    | inr h3 => exact convCnfJoin v f L x h3 h2

-- groups ---------------------------------------------------------------------------------------------

theorem convMinS : ∀ (L : List String) (m : String), minS m L = m ∨ minS m L ∈ L
  | [], _ => Or.inl rfl
  | x :: xs, m => by
    cases hd : decide (x < m) with
    | true =>
      have e : minS m (x :: xs) = minS x xs := by
        show (match decide (x < m) with | true => minS x xs | false => minS m xs) = minS x xs
        rw [hd]
      rw [e]
      cases convMinS xs x with
      | inl e2 => rw [e2]; exact Or.inr (Mem.head _)
      | inr h2 => exact Or.inr (Mem.tail _ h2)
    | false =>
      have e : minS m (x :: xs) = minS m xs := by
        show (match decide (x < m) with | true => minS x xs | false => minS m xs) = minS m xs
        rw [hd]
      rw [e]
      cases convMinS xs m with
      | inl e2 => exact Or.inl e2
      | inr h2 => exact Or.inr (Mem.tail _ h2)

theorem convStepPick (p : String × String) (x : String) : ∀ (b1 b2 : Bool),
    x ∈ (match b1, b2 with
      | true, _ => [p.2]
      | _, true => [p.1]
      | _, _ => []) → (b1 = true ∧ x = p.2) ∨ (b2 = true ∧ x = p.1)
  | true, true, h => Or.inl ⟨rfl, convMemOne h⟩
  | true, false, h => Or.inl ⟨rfl, convMemOne h⟩
  | false, true, h => Or.inr ⟨rfl, convMemOne h⟩
  | false, false, h => absurd h notMemNil

theorem convStepMem (E : List (String × String)) (S : List String) (x : String) (h : x ∈ reachStep E S) :
    x ∈ S ∨ ∃ p, p ∈ E ∧ ((memSl p.1 S = true ∧ x = p.2) ∨ (memSl p.2 S = true ∧ x = p.1)) := by
  cases dedupFrom _ S x h with
  | inl h1 => exact Or.inl h1
  | inr h1 =>
    have ⟨l, hl, hx⟩ := memJoinOut h1
    have ⟨p, hp, e⟩ := memMapOut hl
    rw [e] at hx
    exact Or.inr ⟨p, hp, convStepPick p x (memSl p.1 S) (memSl p.2 S) hx⟩

/-- A property that every asserted equality carries both ways holds of every slot `reach` finds, when it
holds of the start. -/
theorem convReachInv (Q : String → Prop) (E : List (String × String))
    (hE : ∀ p, p ∈ E → (Q p.1 → Q p.2) ∧ (Q p.2 → Q p.1)) :
    ∀ (k : Nat) (S : List String), (∀ x, x ∈ S → Q x) → ∀ x, x ∈ reach E k S → Q x
  | 0, _, hS, x, hx => hS x hx
  | k + 1, S, hS, x, hx => by
    apply convReachInv Q E hE k (reachStep E S) _ x hx
    intro y hy
    cases convStepMem E S y hy with
    | inl h1 => exact hS y h1
    | inr h1 =>
      have ⟨p, hp, hc⟩ := h1
      cases hc with
      | inl h2 => rw [h2.2]; exact (hE p hp).1 (hS _ (convMemSl h2.1))
      | inr h2 => rw [h2.2]; exact (hE p hp).2 (hS _ (convMemSl h2.1))

theorem convFactSlot {f : Fact} {fs : List Fact} {x : String} (hf : f ∈ fs) (hx : x ∈ factSlots1 f) :
    x ∈ factSlots fs :=
  dedupMem _ [] x (Or.inr (memJoin (memMapOf factSlots1 hf) hx))

theorem convEqPairsFrom : ∀ (fs : List Fact) (p : String × String), p ∈ eqPairs fs →
    ∃ f, f ∈ fs ∧ p.1 ∈ factSlots1 f ∧ p.2 ∈ factSlots1 f
  | [], _, h => absurd h notMemNil
  | (s, FPat.slot t, true) :: fs, p, h => by
    have h' : p ∈ (s, t) :: eqPairs fs := h
    cases memCons h' with
    | inl e => rw [e]; exact ⟨_, Mem.head _, Mem.head _, Mem.tail _ (Mem.head _)⟩
    | inr h1 =>
      have ⟨f, hf, h2⟩ := convEqPairsFrom fs p h1
      exact ⟨f, Mem.tail _ hf, h2⟩
  | (s, FPat.slot t, false) :: fs, p, h => by
    have ⟨f, hf, h2⟩ := convEqPairsFrom fs p h
    exact ⟨f, Mem.tail _ hf, h2⟩
  | (s, FPat.lit l, b) :: fs, p, h => by
    have ⟨f, hf, h2⟩ := convEqPairsFrom fs p h
    exact ⟨f, Mem.tail _ hf, h2⟩

theorem convEqPairsSlots (fs : List Fact) (p : String × String) (h : p ∈ eqPairs fs) :
    p.1 ∈ factSlots fs ∧ p.2 ∈ factSlots fs := by
  have ⟨f, hf, h1, h2⟩ := convEqPairsFrom fs p h
  exact ⟨convFactSlot hf h1, convFactSlot hf h2⟩

/-- A slot a fact names has its group among the slots facts name. -/
theorem convGrpIn (fs : List Fact) (s : String) (hs : s ∈ factSlots fs) : grpOf fs s ∈ factSlots fs := by
  show minS s (reach (eqPairs fs) fs.length [s]) ∈ factSlots fs
  cases convMinS (reach (eqPairs fs) fs.length [s]) s with
  | inl e => rw [e]; exact hs
  | inr h =>
    exact convReachInv (fun x => x ∈ factSlots fs) (eqPairs fs)
      (fun p hp => ⟨fun _ => (convEqPairsSlots fs p hp).2, fun _ => (convEqPairsSlots fs p hp).1⟩)
      fs.length [s] (fun x hx => by rw [convMemOne hx]; exact hs) _ h

/-- A slot no fact names is its own group. -/
theorem convGrpOut (fs : List Fact) (s : String) (hs : ¬ s ∈ factSlots fs) : grpOf fs s = s := by
  show minS s (reach (eqPairs fs) fs.length [s]) = s
  cases convMinS (reach (eqPairs fs) fs.length [s]) s with
  | inl e => exact e
  | inr h =>
    exact convReachInv (fun x => x = s) (eqPairs fs)
      (fun p hp => ⟨fun e => by
          have h1 := (convEqPairsSlots fs p hp).1
          rw [e] at h1
          exact absurd h1 hs,
        fun e => by
          have h1 := (convEqPairsSlots fs p hp).2
          rw [e] at h1
          exact absurd h1 hs⟩)
      fs.length [s] (fun x hx => convMemOne hx) _ h

theorem convInsS (x : String) : ∀ (ys : List String) (z : String), (z = x ∨ z ∈ ys) → z ∈ insS x ys
  | [], z, h => by
    cases h with
    | inl e => rw [e]; exact Mem.head _
    | inr h1 => exact absurd h1 notMemNil
  | y :: ys, z, h => by
    cases hd : decide (y < x) with
    | true =>
      have e : insS x (y :: ys) = y :: insS x ys := by
        show (match decide (y < x) with | true => y :: insS x ys | false => x :: y :: ys) = _
        rw [hd]
      rw [e]
      cases h with
      | inl e2 => exact Mem.tail _ (convInsS x ys z (Or.inl e2))
      | inr h1 =>
        cases memCons h1 with
        | inl e2 => rw [e2]; exact Mem.head _
        | inr h2 => exact Mem.tail _ (convInsS x ys z (Or.inr h2))
    | false =>
      have e : insS x (y :: ys) = x :: y :: ys := by
        show (match decide (y < x) with | true => y :: insS x ys | false => x :: y :: ys) = _
        rw [hd]
      rw [e]
      cases h with
      | inl e2 => rw [e2]; exact Mem.head _
      | inr h1 => exact Mem.tail _ h1

theorem convSortMem : ∀ (l : List String) (z : String), z ∈ l → z ∈ sortS l
  | [], _, h => absurd h notMemNil
  | x :: xs, z, h => by
    show z ∈ insS x (sortS xs)
    cases memCons h with
    | inl e => exact convInsS x (sortS xs) z (Or.inl e)
    | inr h1 => exact convInsS x (sortS xs) z (Or.inr (convSortMem xs z h1))

/-- A group with a fact is the group of a slot some fact names. -/
theorem convGroupLitsFrom (fs : List Fact) (g : String) (y : Lit × Bool) (hy : y ∈ groupLits fs g) :
    ∃ s, s ∈ factSlots fs ∧ grpOf fs s = g := by
  have ⟨l, hl, hyl⟩ := memJoinOut hy
  have ⟨f, hf, e⟩ := memMapOut hl
  rw [e] at hyl
  match f, hf, hyl with
  | (s, FPat.lit l', h), hf, hyl =>
    cases hd : decide (grpOf fs s = g) with
    | true => exact ⟨s, convFactSlot hf (Mem.head _), ofDecideEqTrue hd⟩
    | false =>
      have e2 : y ∈ ([] : List (Lit × Bool)) := by
        have h3 : y ∈ (match decide (grpOf fs s = g) with
          | true => [(l', h)]
          | false => []) := hyl
        rw [hd] at h3
        exact h3
      exact absurd e2 notMemNil
  | (s, FPat.slot t, h), _, hyl => exact absurd hyl notMemNil

theorem convGroupIn (fs : List Fact) (g : String) (y : Lit × Bool) (hy : y ∈ groupLits fs g) : g ∈ groupsOf fs := by
  have ⟨s, hs, e⟩ := convGroupLitsFrom fs g y hy
  rw [← e]
  exact convSortMem _ _ (dedupMem _ [] _ (Or.inr (memMapOf (grpOf fs) hs)))

/-- A string that is no group has no facts. -/
theorem convGroupLitsNil (fs : List Fact) (g : String) (h : memSl g (groupsOf fs) = false) : groupLits fs g = [] := by
  cases hl : groupLits fs g with
  | nil => rfl
  | cons y ys =>
    have hy : y ∈ groupLits fs g := by rw [hl]; exact Mem.head _
    rw [convMemSlOf (convGroupIn fs g y hy)] at h
    exact Bool.noConfusion h

/-- A slot no fact names has no facts on its group. -/
theorem convNoFacts (fs : List Fact) (s : String) (hs : ¬ s ∈ factSlots fs) : groupLits fs (grpOf fs s) = [] := by
  rw [convGrpOut fs s hs]
  cases hl : groupLits fs s with
  | nil => rfl
  | cons y ys =>
    have hy : y ∈ groupLits fs s := by rw [hl]; exact Mem.head _
    have ⟨s', hs', e⟩ := convGroupLitsFrom fs s y hy
    have h1 := convGrpIn fs s' hs'
    rw [e] at h1
    exact absurd h1 hs

-- the class's clauses, read back ---------------------------------------------------------------------

theorem convValueFacts (v : CSrc → AV) (g : String) : ∀ (F : List (Lit × Bool)),
    cCnfHolds v (F.map (fun f => [((CSrc.value g, f.1), f.2)])) = true → factsOk F (v (CSrc.value g)) = true
  | [], _ => rfl
  | f :: F, h => by
    have ⟨h1, h2⟩ := clAllConsE h
    exact clAllCons (convAnyOne h1) (convValueFacts v g F h2)

theorem convValueCl (v : CSrc → AV) (g : String) (F : List (Lit × Bool)) (h : cCnfHolds v (valueCl F g) = true) :
    slotOk (v (CSrc.value g)) = true ∧ factsOk F (v (CSrc.value g)) = true := by
  have ⟨h12, hF⟩ := convCnfApp v _ _ h
  have ⟨h1, h2'⟩ := clAllConsE h12
  have ⟨h2, _⟩ := clAllConsE h2'
  have e1 : holds Lit.scalar (v (CSrc.value g)) = true := ofDecideEqTrue (convAnyOne h1)
  have e2 : holds (Lit.eqStr []) (v (CSrc.value g)) = false := ofDecideEqTrue (convAnyOne h2)
  refine ⟨?_, convValueFacts v g F hF⟩
  show (holds Lit.scalar (v (CSrc.value g)) && !holds (Lit.eqStr []) (v (CSrc.value g))) = true
  rw [e1, e2]
  rfl

theorem convSlotCl (v : CSrc → AV) (s : String) (rk : Src)
    (hp : holds Lit.present (v (CSrc.src (Src.slot s))) = true) (hr : slotOk (v (CSrc.src rk)) = true) :
    ∀ (F : List (Lit × Bool)), cCnfHolds v (slotCl F rk s) = true → factsOk F (v (CSrc.src rk)) = true
  | [], _ => rfl
  | f :: F, h => by
    have ⟨h1, h2⟩ := clAllConsE h
    have ⟨r1, r2⟩ := factsAndTrue hr
    have n1 : decide (holds Lit.present (v (CSrc.src (Src.slot s))) = false) = false := by rw [hp]; rfl
    have n2 : decide (holds Lit.scalar (v (CSrc.src rk)) = false) = false := by rw [r1]; rfl
    have n3 : decide (holds (Lit.eqStr []) (v (CSrc.src rk)) = true) = false := by rw [clNotTrue r2]; rfl
    have h4 := convAnyTail (convAnyTail (convAnyTail h1 n1) n2) n3
    exact clAllCons (convAnyOne h4) (convSlotCl v s rk hp hr F h2)

-- the witness read at the question's sources ------------------------------------------------------------

theorem convWitnessBits (cond : List CClause) (pos : List (Option (List CClause))) (xs : List AV) :
    bitsOf (buildQC cond pos).atoms (getV xs) =
      bitsOf (buildQC cond pos).atoms (valOfC (buildQC cond pos).names (convVal (buildQC cond pos).names xs)) := by
  apply mapCongr
  intro a ha
  have ha' : a ∈ (dedupL [] (litsOfFC cond ++ posLitsC pos)).map (fun (x : CLit) => (idxOf x.1
      (dedupL [] ((dedupL [] (litsOfFC cond ++ posLitsC pos)).map (fun (y : CLit) => y.1))), ALit.lit x.2)) := ha
  have ⟨x, hx, e⟩ := memMapOut ha'
  rw [e]
  have hn : x.1 ∈ (buildQC cond pos).names := dedupMem _ [] x.1 (Or.inr (memMapOf (fun x => x.1) hx))
  show holdsA (ALit.lit x.2) (getV xs (idxOf x.1 (buildQC cond pos).names)) =
    holdsA (ALit.lit x.2) (valOfC (buildQC cond pos).names (convVal (buildQC cond pos).names xs)
      (idxOf x.1 (buildQC cond pos).names))
  rw [valOfCIdx _ _ x.1 hn]
  rfl

/-- A valid slot value (a string, non-empty) for a string that is no group. -/
def convDflt : AV := AV.str ['x']

/-- The group values rebuilt from a valuation of the class question (as `factsElim` does per group). -/
def convW (fs : List Fact) (v : CSrc → AV) (r : AV) (g : String) : AV :=
  convPick (slotOk r && factsOk (groupLits fs g) r) r
    (convPick (memSl g (groupsOf fs)) (v (CSrc.value g)) convDflt)

/-- The class's clauses on a way, holding of a valuation, give the class's meaning on the slots the positions
name, each slot's match bit its variable's presence with the resource a valid slot value. -/
theorem convMeant (fs : List Fact) (rk : Src) (pos : List (Option (List SClause))) (v : CSrc → AV)
    (h : cCnfHolds v (factCl fs rk pos) = true) :
    classMeant fs pos (v (CSrc.src rk)) (fun s => holds Lit.present (v (CSrc.src (Src.slot s))) && slotOk (v (CSrc.src rk))) := by
  have ⟨hg, hs⟩ := convCnfApp v _ _ h
  have hval : ∀ g, g ∈ groupsOf fs → slotOk (v (CSrc.value g)) = true ∧ factsOk (groupLits fs g) (v (CSrc.value g)) = true :=
    fun g hm => convValueCl v g _ (convCnfJoin v (fun g => valueCl (groupLits fs g) g) _ g hm hg)
  have hslot : ∀ s, s ∈ factSlots fs → namesSlot pos s = true →
      holds Lit.present (v (CSrc.src (Src.slot s))) = true → slotOk (v (CSrc.src rk)) = true →
      factsOk (groupLits fs (grpOf fs s)) (v (CSrc.src rk)) = true :=
    fun s hm hn hp hr => convSlotCl v s rk hp hr _
      (convCnfJoin v (fun s => slotCl (groupLits fs (grpOf fs s)) rk s) _ s (filtMem (convSortMem _ s hm) hn) hs)
  refine ⟨convW fs v (v (CSrc.src rk)), fun s => holds Lit.present (v (CSrc.src (Src.slot s))), fun g => ?_,
    fun s hn => ⟨fun hm => ?_, fun hm => factsAndOfTrue hm.1 hm.2.1⟩⟩
  · cases h1 : (slotOk (v (CSrc.src rk)) && factsOk (groupLits fs g) (v (CSrc.src rk))) with
    | true =>
      have e : convW fs v (v (CSrc.src rk)) g = v (CSrc.src rk) := by
        show convPick (slotOk (v (CSrc.src rk)) && factsOk (groupLits fs g) (v (CSrc.src rk))) _ _ = _
        rw [h1]
        rfl
      rw [e]
      exact factsAndTrue h1
    | false =>
      cases h2 : memSl g (groupsOf fs) with
      | true =>
        have e : convW fs v (v (CSrc.src rk)) g = v (CSrc.value g) := by
          show convPick (slotOk (v (CSrc.src rk)) && factsOk (groupLits fs g) (v (CSrc.src rk))) _
            (convPick (memSl g (groupsOf fs)) _ _) = _
          rw [h1, h2]
          rfl
        rw [e]
        exact hval g (convMemSl h2)
      | false =>
        have e : convW fs v (v (CSrc.src rk)) g = convDflt := by
          show convPick (slotOk (v (CSrc.src rk)) && factsOk (groupLits fs g) (v (CSrc.src rk))) _
            (convPick (memSl g (groupsOf fs)) _ _) = _
          rw [h1, h2]
          rfl
        rw [e, convGroupLitsNil fs g h2]
        exact ⟨rfl, rfl⟩
  · have ⟨hp, hr⟩ := factsAndTrue hm
    have hf : factsOk (groupLits fs (grpOf fs s)) (v (CSrc.src rk)) = true := by
      cases hin : memSl s (factSlots fs) with
      | true => exact hslot s (convMemSl hin) hn hp hr
      | false =>
        have hout : ¬ s ∈ factSlots fs := fun hm2 => by
          rw [convMemSlOf hm2] at hin
          exact Bool.noConfusion hin
        rw [convNoFacts fs s hout]
        rfl
    have e : convW fs v (v (CSrc.src rk)) (grpOf fs s) = v (CSrc.src rk) := by
      show convPick (slotOk (v (CSrc.src rk)) && factsOk (groupLits fs (grpOf fs s)) (v (CSrc.src rk))) _ _ = _
      rw [hr, hf]
      rfl
    exact ⟨hp, hr, e.symm⟩

-- the positions read the slots only through their match bits ---------------------------------------------

def convNotSlot : Src → Bool
  | Src.slot _ => false
  | _ => true

theorem convAllCons (p : α → Bool) (a : α) (l : List α) : allB p (a :: l) = (p a && allB p l) := by
  show (match p a with | true => allB p l | false => false) = _
  cases p a <;> rfl

theorem convAnyOneEq (p : α → Bool) (a : α) : anyB p [a] = p a := by
  show (match p a with | true => true | false => anyB p []) = p a
  cases p a <;> rfl

theorem convSClauseOne (v : Src → AV) (x : SLit × Bool) : sClauseHolds v [x] = decide (holds x.1.2 (v x.1.1) = x.2) :=
  convAnyOneEq _ x

theorem convSlotConjVal (v : Src → AV) (n : String) (rk : Src) :
    sCnfHolds v (slotConj rk (Pat.slot n)) =
      (holds Lit.present (v (Src.slot n)) && (holds Lit.scalar (v rk) && !holds (Lit.eqStr []) (v rk))) := by
  show allB (sClauseHolds v) [[((Src.slot n, Lit.present), true)], [((rk, Lit.scalar), true)],
    [((rk, Lit.eqStr []), false)]] = _
  rw [convAllCons, convAllCons, convAllCons, convSClauseOne, convSClauseOne, convSClauseOne]
  show (decide (holds Lit.present (v (Src.slot n)) = true) && (decide (holds Lit.scalar (v rk) = true) &&
    (decide (holds (Lit.eqStr []) (v rk) = false) && true))) = _
  cases holds Lit.present (v (Src.slot n)) <;> cases holds Lit.scalar (v rk) <;>
    cases holds (Lit.eqStr []) (v rk) <;> rfl

theorem convSCnfApp (v : Src → AV) (f1 f2 : List SClause) : sCnfHolds v (f1 ++ f2) = (sCnfHolds v f1 && sCnfHolds v f2) :=
  allBApp _ f1 f2

theorem convCnfCongr (v1 v2 : Src → AV) (f : List SClause) (h : ∀ c x, c ∈ f → x ∈ c → v1 x.1.1 = v2 x.1.1) :
    sCnfHolds v1 f = sCnfHolds v2 f :=
  allBCongr f (fun c hc => anyBCongr c (fun x hx => by
    show decide (holds x.1.2 (v1 x.1.1) = x.2) = decide (holds x.1.2 (v2 x.1.1) = x.2)
    rw [h c x hc hx]))

theorem convConjNotSlot (rk : Src) (hrk : convNotSlot rk = true) (p : Pat) (ps : List Pred) (c : Conj)
    (hc : c ∈ patConj p ++ ps.map predConj) : convNotSlot (reSrc rk c.1) = true := by
  cases memAppE hc with
  | inl h1 =>
    cases p with
    | glob g => rw [convMemOne h1]; exact hrk
    | const k => rw [convMemOne h1]; exact hrk
    | any => exact absurd h1 notMemNil
    | slot n => exact absurd h1 notMemNil
  | inr h1 =>
    have ⟨q, _, e⟩ := memMapOut h1
    rw [e]
    cases q <;> rfl

theorem convSlotPart (vs v2 : Src → AV) (rk : Src) (m : String → Bool)
    (hm : ∀ n, m n = (holds Lit.present (vs (Src.slot n)) && (holds Lit.scalar (vs rk) && !holds (Lit.eqStr []) (vs rk))))
    (h2slot : ∀ n, v2 (Src.slot n) = convPick (m n) AV.null AV.missing) (h2rk : v2 rk = vs rk) :
    ∀ (p : Pat), sCnfHolds vs (slotConj rk p) = sCnfHolds v2 (slotConj rk p)
  | Pat.slot n => by
    rw [convSlotConjVal vs n rk, convSlotConjVal v2 n rk, h2slot, h2rk, hm]
    cases holds Lit.present (vs (Src.slot n)) <;> cases holds Lit.scalar (vs rk) <;>
      cases holds (Lit.eqStr []) (vs rk) <;> rfl
  | Pat.any => rfl
  | Pat.glob _ => rfl
  | Pat.const _ => rfl

/-- A position reads the slots only through their match bits: on `convCanon`'s values (a slot's variable
present exactly when it matches, every other source unchanged) its bit is the same. -/
theorem convPosCanon (a : String) (rk : Src) (keys : List String) (hrk : convNotSlot rk = true) (vs : Src → AV)
    (m : String → Bool)
    (hm : ∀ n, m n = (holds Lit.present (vs (Src.slot n)) && (holds Lit.scalar (vs rk) && !holds (Lit.eqStr []) (vs rk))))
    (g : Monitor.Full.Grant) : sPosBit vs (posOf a rk keys g) = sPosBit (convCanon vs m) (posOf a rk keys g) := by
  have hsame : ∀ x, convNotSlot x = true → convCanon vs m x = vs x := by
    intro x hx
    cases x with
    | slot n => exact Bool.noConfusion hx
    | res => rfl
    | path _ => rfl
  cases h : g.action == a with
  | false =>
    show sPosBit vs (match g.action == a with
      | true => some ((patConj g.pat ++ g.preds.map predConj).map (fun c => c.2.map (fun l => ((reSrc rk c.1, l), true))) ++
          slotConj rk g.pat ++ keyConj keys g.keys)
      | false => none) = sPosBit (convCanon vs m) (match g.action == a with
      | true => some ((patConj g.pat ++ g.preds.map predConj).map (fun c => c.2.map (fun l => ((reSrc rk c.1, l), true))) ++
          slotConj rk g.pat ++ keyConj keys g.keys)
      | false => none)
    rw [h]
    rfl
  | true =>
    show sPosBit vs (match g.action == a with
      | true => some ((patConj g.pat ++ g.preds.map predConj).map (fun c => c.2.map (fun l => ((reSrc rk c.1, l), true))) ++
          slotConj rk g.pat ++ keyConj keys g.keys)
      | false => none) = sPosBit (convCanon vs m) (match g.action == a with
      | true => some ((patConj g.pat ++ g.preds.map predConj).map (fun c => c.2.map (fun l => ((reSrc rk c.1, l), true))) ++
          slotConj rk g.pat ++ keyConj keys g.keys)
      | false => none)
    rw [h]
    show sPosBit vs (some (List.map (fun (c : Conj) => c.2.map (fun l => ((reSrc rk c.1, l), true)))
        (patConj g.pat ++ g.preds.map predConj) ++ slotConj rk g.pat ++ keyConj keys g.keys)) =
      sPosBit (convCanon vs m) (some (List.map (fun (c : Conj) => c.2.map (fun l => ((reSrc rk c.1, l), true)))
        (patConj g.pat ++ g.preds.map predConj) ++ slotConj rk g.pat ++ keyConj keys g.keys))
    rw [sPosBitSome, sPosBitSome, convSCnfApp, convSCnfApp, convSCnfApp, convSCnfApp]
    have hA := convCnfCongr vs (convCanon vs m)
      ((patConj g.pat ++ g.preds.map predConj).map (fun c => c.2.map (fun l => ((reSrc rk c.1, l), true))))
      (fun c x hc hx => by
        have ⟨c0, hc0, e⟩ := memMapOut hc
        rw [e] at hx
        have ⟨l, _, e2⟩ := memMapOut hx
        rw [e2]
        exact (hsame _ (convConjNotSlot rk hrk g.pat g.preds c0 hc0)).symm)
    have hK := convCnfCongr vs (convCanon vs m) (keyConj keys g.keys) (fun c x hc hx => by
      cases hk : g.keys with
      | none => rw [hk] at hc; exact absurd hc notMemNil
      | some ks =>
        rw [hk] at hc
        have ⟨k, _, e⟩ := memMapOut hc
        rw [e] at hx
        rw [convMemOne hx]
        rfl)
    have hS := convSlotPart vs (convCanon vs m) rk m hm (fun n => rfl) (hsame rk hrk) g.pat
    rw [hA, hS, hK]

theorem convWayRes (r : ResRef) : convNotSlot (wayRes r) = true := by
  cases r <;> rfl

theorem convPosMapCanon (a : String) (rk : Src) (keys : List String) (hrk : convNotSlot rk = true) (vs : Src → AV)
    (gs : List Monitor.Full.Grant) :
    (gs.map (posOf a rk keys)).map (sPosBit vs) =
      (gs.map (posOf a rk keys)).map (sPosBit (convCanon vs (fun s => holds Lit.present (vs (Src.slot s)) && slotOk (vs rk)))) := by
  rw [mapMapB, mapMapB]
  exact mapCongrB gs (fun g _ => convPosCanon a rk keys hrk vs _ (fun n => rfl) g)

/-- The converse of `classCoverMatches` on the class's meaning: when `argCover` answers `uncovered xs` on the
class question Lean writes (`classQ`) for one way `(t, d)` of action `a` with condition `cond`, the witness
read at the question's sources (`convVal`) satisfies the way's condition, its match vector over the
positions of `gs` is not listed, and the class's meaning holds of it (`classMeant`): group values, each a
valid slot value with its group's facts, and binding bits, with each slot the positions name matching
(its variable present, the resource a valid slot value) exactly when it is bound and the resource equals
its group's value; and the match vector with each slot's variable present exactly when the slot matches
(`convCanon`) is the same, so not listed either. -/
theorem classUncoveredMeant (fs : List Fact) (a : String) (tools : List Tool) (gs : List Monitor.Full.Grant)
    (E : Option (List Json)) (t : Tool) (d : EffDecl) (listed : List (List Bool)) (cond : List SClause)
    (Q : BuiltQC) (xs : List AV) (hcond : wayCond a tools gs E t d = some cond)
    (hq : classQ fs a tools gs E t d = some Q)
    (hunc : argCover (Oracle.ArgCover.good Q.cond Q.pos listed) Q.atoms = Answer.uncovered xs) :
    sCnfHolds (fun x => convVal Q.names xs (CSrc.src x)) cond = true ∧
    anyB (fun u => decide (u = (gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a tools) gs))).map
      (sPosBit (fun x => convVal Q.names xs (CSrc.src x))))) listed = false ∧
    classMeant fs (gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a tools) gs)))
      (convVal Q.names xs (CSrc.src (wayRes d.res)))
      (fun s => holds Lit.present (convVal Q.names xs (CSrc.src (Src.slot s))) &&
        slotOk (convVal Q.names xs (CSrc.src (wayRes d.res)))) ∧
    anyB (fun u => decide (u = (gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a tools) gs))).map
      (sPosBit (convCanon (fun x => convVal Q.names xs (CSrc.src x))
        (fun s => holds Lit.present (convVal Q.names xs (CSrc.src (Src.slot s))) &&
          slotOk (convVal Q.names xs (CSrc.src (wayRes d.res)))))))) listed = false := by
  have hq' : (match wayCond a tools gs E t d with
    | none => none
    | some cond =>
      some (buildQC (liftF cond ++ factCl fs (wayRes d.res) (gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a tools) gs))))
        ((gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a tools) gs))).map liftP))) = some Q := hq
  rw [hcond] at hq'
  have hQ := Option.some.inj hq'
  subst hQ
  have g := argUncoveredSound _ _ _ hunc
  rw [convWitnessBits] at g
  have ⟨hc, hp⟩ := buildQCMeans (liftF cond ++ factCl fs (wayRes d.res) (gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a tools) gs))))
    ((gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a tools) gs))).map liftP)
    (convVal (buildQC (liftF cond ++ factCl fs (wayRes d.res) (gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a tools) gs))))
      ((gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a tools) gs))).map liftP)).names xs)
  have ⟨g1, g2⟩ := convOrFalse g
  have hcl := convNotFalse g1
  rw [hc] at hcl
  have ⟨h1, h2⟩ := convCnfApp _ _ _ hcl
  rw [liftCnf] at h1
  rw [hp, liftPosMap] at g2
  refine ⟨h1, g2, convMeant fs (wayRes d.res) _ _ h2, ?_⟩
  rw [convPosMapCanon a (wayRes d.res) (actionKeys a (ownTools a tools) gs) (convWayRes d.res)] at g2
  exact g2

-- the oracle's `uncovered` answer ---------------------------------------------------------------------

theorem convCovAnswer (a b c d e : Json) :
    (Json.mkObj [("answer", toJson "covered"), ("reason", a), ("names", b), ("witness", c), ("vector", d),
      ("questions", e)]).getObjVal? "answer" = Except.ok (Json.str "covered") := rfl

/-- The oracle's way-by-way decision on class questions (`decideWaysC`) answers `uncovered` only when
`argCover` answers `uncovered` on one of the questions it is given. -/
theorem decideWaysCUncovered (listedS : List String) (listed : List (List Bool)) :
    ∀ (qs : List BuiltQC) (acc : List Json),
      (Oracle.ArgCoverClass.decideWaysC listedS listed qs acc).getObjVal? "answer" = Except.ok (Json.str "uncovered") →
      ∃ q xs, q ∈ qs ∧ argCover (Oracle.ArgCover.good q.cond q.pos listed) q.atoms = Answer.uncovered xs
  | [], acc, h => by
    have h' : (Oracle.ArgCoverClass.decideWaysC listedS listed [] acc).getObjVal? "answer" =
      Except.ok (Json.str "covered") := convCovAnswer _ _ _ _ _
    rw [h'] at h
    have hs := congrArg (fun (x : Except String Json) => match x with
      | Except.ok (Json.str s) => s
      | _ => "") h
    exact absurd hs (by decide)
  | r :: rest, acc, h => by
    cases hr : argCover (Oracle.ArgCover.good r.cond r.pos listed) r.atoms with
    | uncovered xs => exact ⟨r, xs, Mem.head _, hr⟩
    | unknown => exact absurd hr (argCoverNeverUnknown _ _)
    | covered =>
      have h' := h
      simp only [Oracle.ArgCoverClass.decideWaysC, hr] at h'
      have ⟨q, xs, hq, hx⟩ := decideWaysCUncovered listedS listed rest _ h'
      exact ⟨q, xs, Mem.tail _ hq, hx⟩

theorem convSomesQC {q : BuiltQC} {f : Tool × EffDecl → Option BuiltQC} :
    ∀ {l : List (Tool × EffDecl)}, q ∈ Oracle.ArgCoverClass.somesQC (l.map f) → ∃ w, w ∈ l ∧ f w = some q
  | [], h => absurd h notMemNil
  | x :: l, h => by
    have h' : q ∈ Oracle.ArgCoverClass.somesQC (f x :: l.map f) := h
    cases hx : f x with
    | none =>
      rw [hx] at h'
      have ⟨w, hw, e⟩ := convSomesQC (f := f) (l := l) h'
      exact ⟨w, Mem.tail _ hw, e⟩
    | some q' =>
      rw [hx] at h'
      cases memCons h' with
      | inl e => rw [e]; exact ⟨x, Mem.head _, hx⟩
      | inr h2 =>
        have ⟨w, hw, e⟩ := convSomesQC (f := f) (l := l) h2
        exact ⟨w, Mem.tail _ hw, e⟩

/-- The oracle's `uncovered` class answer stands for a binding state of the class: when `arg_cover_class`
writes `classQ` (every entry of the action in `grantOk`, the class denying no equality between slots) and its
way-by-way decision answers `uncovered`, some way `(t, d)` of the action has a condition `cond`, a class
question `Q` and an `uncovered xs` answer, of which `classUncoveredMeant` holds. -/
theorem oracleClassUncovered (fs : List Fact) (a : String) (tools : List Tool) (gs : List Monitor.Full.Grant)
    (E : Option (List Json)) (listedS : List String) (listed : List (List Bool))
    (hans : (Oracle.ArgCoverClass.decideWaysC listedS listed (Oracle.ArgCoverClass.somesQC ((ways a tools).map
      (fun w => classQ fs a tools gs E w.1 w.2))) []).getObjVal? "answer" = Except.ok (Json.str "uncovered")) :
    ∃ t d cond Q xs, (t, d) ∈ ways a tools ∧ wayCond a tools gs E t d = some cond ∧
      classQ fs a tools gs E t d = some Q ∧
      argCover (Oracle.ArgCover.good Q.cond Q.pos listed) Q.atoms = Answer.uncovered xs := by
  have ⟨Q, xs, hQ, hx⟩ := decideWaysCUncovered listedS listed _ [] hans
  have ⟨w, hw, hq⟩ := convSomesQC (f := fun w => classQ fs a tools gs E w.1 w.2) hQ
  cases w with
  | mk t d =>
    cases hc : wayCond a tools gs E t d with
    | none =>
      have hq' : (match wayCond a tools gs E t d with
        | none => none
        | some cond =>
          some (buildQC (liftF cond ++ factCl fs (wayRes d.res) (gs.map (posOf a (wayRes d.res)
              (actionKeys a (ownTools a tools) gs))))
            ((gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a tools) gs))).map liftP))) = some Q := hq
      rw [hc] at hq'
      cases hq'
    | some cond => exact ⟨t, d, cond, Q, xs, hw, hc, hq, hx⟩

end AgentWarrant.Revision.ArgCover
