import AgentWarrant.Thm.Monitor.Full.Slots
/-! Agenra Section 5.1's slot cases compared with an independent meaning: what a slot holds after any
history of designated lookups, stated over the history, not over the step's case split.

A slot's history is the list of its designated lookups' results, in order: the address found at the
resolver's result path (`none` when the field is missing) and the lookup's ID. The meaning
(`HistInvalid`, `firstAddr`): the slot is invalid exactly when some lookup's address is missing or
malformed, or two addresses of the history are not equal JSON values (`JEq`); otherwise it is bound to
the first lookup's address and ID, or unbound when the history is empty. `bindsMeaning` shows that the
monitor's result processing (`bindOne`, folded over any sequence of lookups by resolvers of any
slots, from a state where the slot is unbound and valid) yields exactly that meaning for the slot: its
view (`slotView`: invalid, unbound or bound) after the fold is the meaning of the subsequence of
lookups designated for it. `JEq` is the declarative JSON equality, so "equal" here does not depend on
`jeq`'s fuel: addresses are scalars (`wellFormedAddress`), which `jeq` decides at any fuel, and the
proof reads "equal to the first address" as "pairwise equal" through `JEq`'s symmetry and
transitivity (`Thm/Monitor/Json.lean`). -/
namespace AgentWarrant.Monitor.Full
open Lean AgentWarrant

abbrev Acc := List (String × Json × Nat) × List String
abbrev SlotV := Option (Option (Json × Nat))

/-- A slot as the state shows it: `none` invalid, `some none` unbound, `some (some (v, d))` bound. -/
def slotView (σ : String) (acc : Acc) : SlotV :=
  match memS σ acc.2 with
  | true => none
  | false => match acc.1.find? (fun b => b.1 == σ) with
    | some b => some (some (b.2.1, b.2.2))
    | none => some none

/-- The view's transition on one designated lookup (the bridge between the fold and the meaning). -/
def slotStep : SlotV → Option Json × Nat → SlotV
  | none, _ => none
  | some _, (none, _) => none
  | some cur, (some v, d) => match wellFormedAddress v with
    | false => none
    | true => match cur with
      | some (w, d0) => match jeq w v with
        | true => some (some (w, d0))
        | false => none
      | none => some (some (v, d))

/-- The meaning: some address missing or malformed, or two addresses not equal JSON values. -/
def HistInvalid (xs : List (Option Json × Nat)) : Prop :=
  (∃ x, x ∈ xs ∧ ∀ v, x.1 = some v → wellFormedAddress v = false) ∨
  (∃ x y v w, x ∈ xs ∧ y ∈ xs ∧ x.1 = some v ∧ y.1 = some w ∧ ¬ JEq v w)

/-- The first lookup's address and ID. -/
def firstAddr : List (Option Json × Nat) → Option (Json × Nat)
  | (some v, d) :: _ => some (v, d)
  | _ => none

-- strings and lists -------------------------------------------------------------------------------

theorem strBeqSelf (a : String) : (a == a) = true := decideEqTrue rfl
theorem strBeqNe {a b : String} (h : a ≠ b) : (a == b) = false := decideEqFalse h
theorem strEqOfBeq {a b : String} (h : (a == b) = true) : a = b := ofDecideEqTrue h

theorem memSCons (x y : String) (l : List String) : memS x (y :: l) = ((y == x) || memS x l) := rfl

theorem memSSelf (x : String) (l : List String) : memS x (x :: l) = true := by
  rw [memSCons, strBeqSelf]; rfl

theorem memSOther {x y : String} (h : y ≠ x) (l : List String) : memS x (y :: l) = memS x l := by
  rw [memSCons, strBeqNe h]; rfl

theorem findCons (p : α → Bool) (a : α) (l : List α) :
    List.find? p (a :: l) = (match p a with | true => some a | false => List.find? p l) := rfl

theorem findFiltOther {σ σ' : String} (h : σ' ≠ σ) : ∀ (bs : List (String × Json × Nat)),
    List.find? (fun b => b.1 == σ) (filt (fun b => b.1 != σ') bs) = List.find? (fun b => b.1 == σ) bs
  | [] => rfl
  | b :: bs => by
    cases decEq b.1 σ' with
    | isTrue e =>
      have hf : (b.1 != σ') = false := by
        show (!(b.1 == σ')) = false
        rw [e, strBeqSelf]; rfl
      have hb : (b.1 == σ) = false := by rw [e]; exact strBeqNe h
      show List.find? _ (match (b.1 != σ') with | true => b :: filt _ bs | false => filt _ bs) = _
      rw [hf, findCons, hb]
      exact findFiltOther h bs
    | isFalse e =>
      have hf : (b.1 != σ') = true := by
        show (!(b.1 == σ')) = true
        rw [strBeqNe e]; rfl
      show List.find? _ (match (b.1 != σ') with | true => b :: filt _ bs | false => filt _ bs) = _
      rw [hf, findCons, findCons, findFiltOther h bs]

theorem findInsertOther {σ σ' : String} (h : σ' ≠ σ) (x : Json × Nat) : ∀ (bs : List (String × Json × Nat)),
    List.find? (fun b => b.1 == σ) (insertBy (fun b => b.1) (σ', x) bs) = List.find? (fun b => b.1 == σ) bs
  | [] => by
    show List.find? _ [(σ', x)] = none
    rw [findCons]
    have hb : ((σ', x).1 == σ) = false := strBeqNe h
    rw [hb]; try rfl
  | b :: bs => by
    have hb : ((σ', x).1 == σ) = false := strBeqNe h
    cases hlt : Decidable.decide (σ' < b.1) with
    | true =>
      have e : insertBy (fun b => b.1) (σ', x) (b :: bs) = (σ', x) :: b :: bs := by simp [insertBy, hlt]
      rw [e, findCons, hb]; try rfl
    | false =>
      have e : insertBy (fun b => b.1) (σ', x) (b :: bs) = b :: insertBy (fun b => b.1) (σ', x) bs := by
        simp [insertBy, hlt]
      rw [e, findCons, findCons, findInsertOther h x bs]

theorem findInsertSelf (σ : String) (x : Json × Nat) : ∀ (bs : List (String × Json × Nat)),
    List.find? (fun b => b.1 == σ) bs = none →
    List.find? (fun b => b.1 == σ) (insertBy (fun b => b.1) (σ, x) bs) = some (σ, x)
  | [], _ => by
    show List.find? _ [(σ, x)] = _
    rw [findCons]
    have hb : ((σ, x).1 == σ) = true := strBeqSelf σ
    rw [hb]; try rfl
  | b :: bs, hn => by
    have hs : ((σ, x).1 == σ) = true := strBeqSelf σ
    cases hbe : (b.1 == σ) with
    | true =>
      rw [findCons, hbe] at hn
      cases hn
    | false =>
      rw [findCons, hbe] at hn
      cases hlt : Decidable.decide (σ < b.1) with
      | true =>
        have e : insertBy (fun b => b.1) (σ, x) (b :: bs) = (σ, x) :: b :: bs := by simp [insertBy, hlt]
        rw [e, findCons, hs]; try rfl
      | false =>
        have e : insertBy (fun b => b.1) (σ, x) (b :: bs) = b :: insertBy (fun b => b.1) (σ, x) bs := by
          simp [insertBy, hlt]
        rw [e, findCons, hbe]
        exact findInsertSelf σ x bs hn

-- the view ------------------------------------------------------------------------------------------

theorem viewInvalid {σ : String} {acc : Acc} (h : memS σ acc.2 = true) : slotView σ acc = none := by
  simp [slotView, h]

theorem viewBound {σ : String} {acc : Acc} {b : String × Json × Nat} (h : memS σ acc.2 = false)
    (hb : acc.1.find? (fun b => b.1 == σ) = some b) : slotView σ acc = some (some (b.2.1, b.2.2)) := by
  simp [slotView, h, hb]

theorem viewUnbound {σ : String} {acc : Acc} (h : memS σ acc.2 = false)
    (hb : acc.1.find? (fun b => b.1 == σ) = none) : slotView σ acc = some none := by
  simp [slotView, h, hb]

theorem viewCongr {σ : String} {acc acc' : Acc} (h1 : memS σ acc.2 = memS σ acc'.2)
    (h2 : acc.1.find? (fun b => b.1 == σ) = acc'.1.find? (fun b => b.1 == σ)) : slotView σ acc = slotView σ acc' := by
  cases hi : memS σ acc'.2 with
  | true => rw [viewInvalid (h1.trans hi), viewInvalid hi]
  | false =>
    cases hb : acc'.1.find? (fun b => b.1 == σ) with
    | none => rw [viewUnbound (h1.trans hi) (h2.trans hb), viewUnbound hi hb]
    | some b => rw [viewBound (h1.trans hi) (h2.trans hb), viewBound hi hb]

-- one lookup ----------------------------------------------------------------------------------------

/-- What one resolver does to the state: nothing, invalidate its slot, or bind it. -/
theorem bindOneShape (value : Json) (d : Nat) (bs : List (String × Json × Nat)) (inv : List String) (r : Resolver) :
    bindOne value d (bs, inv) r = (bs, inv) ∨ bindOne value d (bs, inv) r = (dropBinding r.slot bs, r.slot :: inv) ∨
    ∃ v, bindOne value d (bs, inv) r = (insertBy (fun b => b.1) (r.slot, v, d) bs, inv) := by
  cases hi : memS r.slot inv with
  | true => exact Or.inl (slotInvalidStays value d bs inv r hi)
  | false =>
    cases hp : lookupPath value r.path with
    | none => exact Or.inr (Or.inl (slotMissingInvalidates value d bs inv r hi hp))
    | some v =>
      cases hw : wellFormedAddress v with
      | false => exact Or.inr (Or.inl (slotMalformedInvalidates value d bs inv r v hi hp hw))
      | true =>
        cases hb : bs.find? (fun b => b.1 == r.slot) with
        | none => exact Or.inr (Or.inr ⟨v, slotFirstBinds value d bs inv r v hi hp hw hb⟩)
        | some b =>
          cases he : jeq b.2.1 v with
          | true => exact Or.inl (slotEqualKeeps value d bs inv r v b hi hp hw hb he)
          | false => exact Or.inr (Or.inl (slotConflictInvalidates value d bs inv r v b hi hp hw hb he))

theorem dropBindingEq (slot : String) (bs : List (String × Json × Nat)) :
    dropBinding slot bs = filt (fun b => b.1 != slot) bs := rfl

/-- A lookup designated for another slot leaves this slot's view as it was. -/
theorem bindOneOther {σ : String} (value : Json) (d : Nat) (acc : Acc) (r : Resolver) (h : r.slot ≠ σ) :
    slotView σ (bindOne value d acc r) = slotView σ acc := by
  cases acc with
  | mk bs inv =>
    cases bindOneShape value d bs inv r with
    | inl e => rw [e]
    | inr h2 => cases h2 with
      | inl e =>
        rw [e]
        exact viewCongr (memSOther h inv) (by
          show List.find? _ (dropBinding r.slot bs) = List.find? _ bs
          rw [dropBindingEq]; exact findFiltOther h bs)
      | inr e =>
        have ⟨v, e⟩ := e
        rw [e]
        exact viewCongr rfl (findInsertOther h (v, d) bs)

theorem stepNone (x : Option Json × Nat) : slotStep none x = none := by
  cases x with
  | mk a d => cases a <;> rfl

/-- A lookup designated for the slot moves its view by `slotStep`. -/
theorem bindOneSelf (value : Json) (d : Nat) (acc : Acc) (r : Resolver) :
    slotView r.slot (bindOne value d acc r) = slotStep (slotView r.slot acc) (lookupPath value r.path, d) := by
  cases acc with
  | mk bs inv =>
    have inval : slotView r.slot (dropBinding r.slot bs, r.slot :: inv) = none := viewInvalid (memSSelf r.slot inv)
    cases hi : memS r.slot inv with
    | true =>
      rw [slotInvalidStays value d bs inv r hi, viewInvalid (acc := (bs, inv)) hi, stepNone]
    | false =>
      cases hb : bs.find? (fun b => b.1 == r.slot) with
      | none =>
        rw [viewUnbound (acc := (bs, inv)) hi hb]
        cases hp : lookupPath value r.path with
        | none => rw [slotMissingInvalidates value d bs inv r hi hp, inval]; rfl
        | some v =>
          cases hw : wellFormedAddress v with
          | false =>
            rw [slotMalformedInvalidates value d bs inv r v hi hp hw, inval]
            simp [slotStep, hw]
          | true =>
            rw [slotFirstBinds value d bs inv r v hi hp hw hb,
              viewBound (acc := (insertBy (fun b => b.1) (r.slot, v, d) bs, inv)) hi (findInsertSelf r.slot (v, d) bs hb)]
            simp [slotStep, hw]
      | some b =>
        rw [viewBound (acc := (bs, inv)) hi hb]
        cases hp : lookupPath value r.path with
        | none => rw [slotMissingInvalidates value d bs inv r hi hp, inval]; rfl
        | some v =>
          cases hw : wellFormedAddress v with
          | false =>
            rw [slotMalformedInvalidates value d bs inv r v hi hp hw, inval]
            simp [slotStep, hw]
          | true =>
            cases he : jeq b.2.1 v with
            | true =>
              rw [slotEqualKeeps value d bs inv r v b hi hp hw hb he, viewBound (acc := (bs, inv)) hi hb]
              simp [slotStep, hw, he]
            | false =>
              rw [slotConflictInvalidates value d bs inv r v b hi hp hw hb he, inval]
              simp [slotStep, hw, he]

-- any sequence of lookups ---------------------------------------------------------------------

/-- A lookup: the whole result, the lookup's ID, and the applicable resolver that reads it. -/
abbrev Lookup := Json × Nat × Resolver

def foldBind (L : List Lookup) (acc : Acc) : Acc := L.foldl (fun a x => bindOne x.1 x.2.1 a x.2.2) acc

/-- The slot's history in `L`: the address each lookup designated for it found, and the lookup's ID. -/
def history (σ : String) : List Lookup → List (Option Json × Nat)
  | [] => []
  | x :: L => match x.2.2.slot == σ with
    | true => (lookupPath x.1 x.2.2.path, x.2.1) :: history σ L
    | false => history σ L

theorem foldBindView (σ : String) : ∀ (L : List Lookup) (acc : Acc),
    slotView σ (foldBind L acc) = (history σ L).foldl slotStep (slotView σ acc)
  | [], acc => rfl
  | x :: L, acc => by
    have e : foldBind (x :: L) acc = foldBind L (bindOne x.1 x.2.1 acc x.2.2) := rfl
    rw [e, foldBindView σ L]
    cases hs : (x.2.2.slot == σ) with
    | true =>
      have hx : history σ (x :: L) = (lookupPath x.1 x.2.2.path, x.2.1) :: history σ L := by
        simp [history, hs]
      have es : x.2.2.slot = σ := strEqOfBeq hs
      rw [hx]
      show List.foldl slotStep (slotView σ (bindOne x.1 x.2.1 acc x.2.2)) (history σ L) =
        List.foldl slotStep (slotStep (slotView σ acc) (lookupPath x.1 x.2.2.path, x.2.1)) (history σ L)
      rw [← es, bindOneSelf]
    | false =>
      have hx : history σ (x :: L) = history σ L := by simp [history, hs]
      have ne : x.2.2.slot ≠ σ := fun h => by rw [h, strBeqSelf] at hs; cases hs
      rw [hx, bindOneOther x.1 x.2.1 acc x.2.2 ne]

-- the meaning -----------------------------------------------------------------------------------

theorem foldNone : ∀ (xs : List (Option Json × Nat)), xs.foldl slotStep none = none
  | [] => rfl
  | x :: xs => by
    show List.foldl slotStep (slotStep none x) xs = none
    rw [stepNone, foldNone xs]

/-- An address is a scalar, so it nests no deeper than zero. -/
theorem addrDepth {v : Json} (h : wellFormedAddress v = true) : Depth 0 v := by
  cases v with
  | null => cases h
  | bool b => exact Depth.bool 0 b
  | num x => exact Depth.num 0 x
  | str s => exact Depth.str 0 s
  | arr a => cases h
  | obj o => cases h

theorem addrKeys {v : Json} (h : wellFormedAddress v = true) : KeysDistinct v := by
  cases v with
  | null => cases h
  | bool b => exact KeysDistinct.bool b
  | num x => exact KeysDistinct.num x
  | str s => exact KeysDistinct.str s
  | arr a => cases h
  | obj o => cases h

theorem fuelPos : 0 < jsonFuel := Nat.succLeSucc (Nat.zeroLe _)

/-- On addresses `jeq` is `JEq`, at the monitor's fuel. -/
theorem jeqAddr {w : Json} (hw : wellFormedAddress w = true) (v : Json) : jeq w v = true ↔ JEq w v :=
  jeqIff (addrDepth hw) fuelPos v

/-- Starting bound to a well-formed `w`: the slot ends invalid exactly when some later address is
missing, malformed or not equal to `w`; otherwise it stays bound to `w`. -/
def BadAfter (w : Json) (xs : List (Option Json × Nat)) : Prop :=
  ∃ x, x ∈ xs ∧ ∀ v, x.1 = some v → (wellFormedAddress v = false ∨ ¬ JEq w v)

theorem foldBound (w : Json) (d0 : Nat) (hw : wellFormedAddress w = true) : ∀ (xs : List (Option Json × Nat)),
    (xs.foldl slotStep (some (some (w, d0))) = none ↔ BadAfter w xs) ∧
    (¬ BadAfter w xs → xs.foldl slotStep (some (some (w, d0))) = some (some (w, d0)))
  | [] => ⟨⟨(fun h => by cases h), fun ⟨_, hm, _⟩ => nomatch hm⟩, fun _ => rfl⟩
  | (a, d) :: xs => by
    have ih := foldBound w d0 hw xs
    have bad : (∀ v, a = some v → (wellFormedAddress v = false ∨ ¬ JEq w v)) →
        (List.foldl slotStep (some (some (w, d0))) ((a, d) :: xs) = none ↔ BadAfter w ((a, d) :: xs)) ∧
        (¬ BadAfter w ((a, d) :: xs) → List.foldl slotStep (some (some (w, d0))) ((a, d) :: xs) = some (some (w, d0))) := by
      intro hx
      have hb : BadAfter w ((a, d) :: xs) := ⟨(a, d), Mem.head _, hx⟩
      have hs : slotStep (some (some (w, d0))) (a, d) = none := by
        cases a with
        | none => rfl
        | some v =>
          cases hx v rfl with
          | inl hm => simp [slotStep, hm]
          | inr hn =>
            cases hwv : wellFormedAddress v with
            | false => simp [slotStep, hwv]
            | true =>
              have hj : jeq w v = false := by
                cases hj' : jeq w v with
                | false => rfl
                | true => exact absurd ((jeqAddr hw v).1 hj') hn
              simp [slotStep, hwv, hj]
      have e : List.foldl slotStep (some (some (w, d0))) ((a, d) :: xs) = none := by
        show List.foldl slotStep (slotStep (some (some (w, d0))) (a, d)) xs = none
        rw [hs, foldNone]
      exact ⟨⟨fun _ => hb, fun _ => e⟩, fun hn => absurd hb hn⟩
    cases a with
    | none => exact bad (fun v h => by cases h)
    | some v =>
      cases hwv : wellFormedAddress v with
      | false => exact bad (fun v' h => by cases h; exact Or.inl hwv)
      | true =>
        cases hj : jeq w v with
        | false =>
          exact bad (fun v' h => by
            cases h
            exact Or.inr (fun hq => by rw [(jeqAddr hw v).2 hq] at hj; cases hj))
        | true =>
          have hs : slotStep (some (some (w, d0))) (some v, d) = some (some (w, d0)) := by
            simp [slotStep, hwv, hj]
          have e : List.foldl slotStep (some (some (w, d0))) ((some v, d) :: xs) =
              List.foldl slotStep (some (some (w, d0))) xs := by
            show List.foldl slotStep (slotStep (some (some (w, d0))) (some v, d)) xs = _
            rw [hs]
          have hq : JEq w v := (jeqAddr hw v).1 hj
          -- the head is fine, so being bad after it is being bad in the rest
          have iff : BadAfter w ((some v, d) :: xs) ↔ BadAfter w xs := by
            refine ⟨fun ⟨x, hm, hx⟩ => ?_, fun ⟨x, hm, hx⟩ => ⟨x, Mem.tail _ hm, hx⟩⟩
            cases hm with
            | head _ =>
              cases hx v rfl with
              | inl h => rw [hwv] at h; cases h
              | inr h => exact absurd hq h
            | tail _ t => exact ⟨x, t, hx⟩
          rw [e]
          exact ⟨ih.1.trans iff.symm, fun hn => ih.2 (fun hb => hn (iff.2 hb))⟩

/-- The meaning of a history from an unbound valid slot, as the monitor computes it. -/
theorem foldFresh : ∀ (xs : List (Option Json × Nat)),
    (xs.foldl slotStep (some none) = none ↔ HistInvalid xs) ∧
    (¬ HistInvalid xs → xs.foldl slotStep (some none) = some (firstAddr xs))
  | [] => ⟨⟨(fun h => by cases h), fun h => by
      cases h with
      | inl h => have ⟨_, hm, _⟩ := h; exact nomatch hm
      | inr h => have ⟨_, _, _, _, hm, _⟩ := h; exact nomatch hm⟩, fun _ => rfl⟩
  | (a, d) :: xs => by
    cases a with
    | none =>
      have hi : HistInvalid ((none, d) :: xs) := Or.inl ⟨(none, d), Mem.head _, fun v h => by cases h⟩
      have e : List.foldl slotStep (some none) ((none, d) :: xs) = none := foldNone xs
      exact ⟨⟨fun _ => hi, fun _ => e⟩, fun hn => absurd hi hn⟩
    | some w =>
      cases hw : wellFormedAddress w with
      | false =>
        have hi : HistInvalid ((some w, d) :: xs) :=
          Or.inl ⟨(some w, d), Mem.head _, fun v h => by cases h; exact hw⟩
        have e : List.foldl slotStep (some none) ((some w, d) :: xs) = none := by
          show List.foldl slotStep (slotStep (some none) (some w, d)) xs = none
          have hs : slotStep (some none) (some w, d) = none := by simp [slotStep, hw]
          rw [hs, foldNone]
        exact ⟨⟨fun _ => hi, fun _ => e⟩, fun hn => absurd hi hn⟩
      | true =>
        have hs : slotStep (some none) (some w, d) = some (some (w, d)) := by simp [slotStep, hw]
        have e : List.foldl slotStep (some none) ((some w, d) :: xs) = List.foldl slotStep (some (some (w, d))) xs := by
          show List.foldl slotStep (slotStep (some none) (some w, d)) xs = _
          rw [hs]
        have kw := addrKeys hw
        -- invalid history iff something after the first address is bad against it
        have iff : HistInvalid ((some w, d) :: xs) ↔ BadAfter w xs := by
          constructor
          · intro h
            cases h with
            | inl h =>
              have ⟨x, hm, hx⟩ := h
              cases hm with
              | head _ => have h' := hx w rfl; rw [hw] at h'; cases h'
              | tail _ t => exact ⟨x, t, fun v hv => Or.inl (hx v hv)⟩
            | inr h =>
              have ⟨x, y, v, u, hx, hy, hv, hu, hn⟩ := h
              -- decided case by case (no excluded middle: the audit admits no `Classical.choice`)
              have badOf : ∀ z q, z ∈ xs → z.1 = some q → (wellFormedAddress q = false ∨ ¬ JEq w q) → BadAfter w xs :=
                fun z q hz hq hb => ⟨z, hz, fun q' h' => by rw [hq] at h'; cases h'; exact hb⟩
              -- an address after the first is bad against it, or `JEq` to it
              have split : ∀ z q, z ∈ xs → z.1 = some q → BadAfter w xs ∨ (JEq w q ∧ wellFormedAddress q = true) := by
                intro z q hz hq
                cases hwq : wellFormedAddress q with
                | false => exact Or.inl (badOf z q hz hq (Or.inl hwq))
                | true =>
                  cases hj : jeq w q with
                  | true => exact Or.inr ⟨(jeqAddr hw q).1 hj, rfl⟩
                  | false => exact Or.inl (badOf z q hz hq (Or.inr (fun hq' => by rw [(jeqAddr hw q).2 hq'] at hj; cases hj)))
              cases hx with
              | head _ =>
                cases hv
                cases hy with
                | head _ => cases hu; exact absurd (jeqReflexive kw) hn
                | tail _ ty => exact badOf y u ty hu (Or.inr hn)
              | tail _ tx =>
                cases split x v tx hv with
                | inl hb => exact hb
                | inr hv' =>
                  have ⟨jv, wv⟩ := hv'
                  cases hy with
                  | head _ => cases hu; exact absurd (jeqSymmetric jv kw (addrKeys wv)) hn
                  | tail _ ty =>
                    cases split y u ty hu with
                    | inl hb => exact hb
                    | inr hu' => exact absurd (jeqTransitive (jeqSymmetric jv kw (addrKeys wv)) u hu'.1) hn
          · intro ⟨x, hm, hx⟩
            cases hx0 : x.1 with
            | none => exact Or.inl ⟨x, Mem.tail _ hm, fun v h => by rw [hx0] at h; cases h⟩
            | some v =>
              cases hx v hx0 with
              | inl h => exact Or.inl ⟨x, Mem.tail _ hm, fun v' h' => by rw [hx0] at h'; cases h'; exact h⟩
              | inr h => exact Or.inr ⟨(some w, d), x, w, v, Mem.head _, Mem.tail _ hm, rfl, hx0, h⟩
        have fb := foldBound w d hw xs
        rw [e]
        exact ⟨fb.1.trans iff.symm, fun hn => fb.2 (fun hb => hn (iff.2 hb))⟩

/-- Section 5.1 against its meaning: from a state where slot `σ` is unbound and valid, after any
sequence of successful lookups by applicable resolvers (of any slots), the slot is invalid exactly
when its history has a missing or malformed address or two addresses that are not equal JSON values,
and otherwise it is bound to its first lookup's address and ID (unbound when none was designated for it). -/
theorem bindsMeaning (σ : String) (L : List Lookup) (acc : Acc) (h0 : slotView σ acc = some none) :
    (slotView σ (foldBind L acc) = none ↔ HistInvalid (history σ L)) ∧
    (¬ HistInvalid (history σ L) → slotView σ (foldBind L acc) = some (firstAddr (history σ L))) := by
  rw [foldBindView, h0]
  exact foldFresh (history σ L)

-- over the monitor's runs ---------------------------------------------------------------------

/-- The lookups one step processes: on Allow with a successful outcome, every applicable resolver
reads the result of the new record (as `observe` does); otherwise none. The lookups a call designates,
stated without the step, are `Designated` (`Thm/Monitor/Full/SlotDesignated.lean`), and these are
exactly them (`stepLookupsDesignated`). -/
def stepLookups (p : Policy) (s : State) (c : Call) (o : Outcome) : List Lookup :=
  match decideFull p s c with
  | Verdict.allow l pu pa k => match o.ok, (commit p s c l pu pa k).record? (List.length s.trace) with
    | true, some rec =>
      (p.resolvers.filter (fun r => r.tool == rec.tool && jeq r.args (argsJson rec.args))).map
        (fun r => (o.value, List.length s.trace, r))
    | _, _ => []
  | _ => []

/-- The lookups a run processes, in order. -/
def runLookups (p : Policy) : State → List (Call × Outcome) → List Lookup
  | _, [] => []
  | s, (c, o) :: cs => stepLookups p s c o ++ runLookups p (stepFull p s c o).2 cs

theorem foldlMapBind (v : Json) (d : Nat) : ∀ (rs : List Resolver) (acc : Acc),
    List.foldl (bindOne v d) acc rs = foldBind (rs.map (fun r => (v, d, r))) acc
  | [], _ => rfl
  | r :: rs, acc => foldlMapBind v d rs (bindOne v d acc r)

theorem foldBindAppend : ∀ (A B : List Lookup) (acc : Acc), foldBind (A ++ B) acc = foldBind B (foldBind A acc)
  | [], _, _ => rfl
  | x :: A, B, acc => by
    rw [List.cons_append]
    exact foldBindAppend A B (bindOne x.1 x.2.1 acc x.2.2)

theorem historyAppend (σ : String) : ∀ (A B : List Lookup), history σ (A ++ B) = history σ A ++ history σ B
  | [], _ => rfl
  | x :: A, B => by
    cases hs : (x.2.2.slot == σ) with
    | true =>
      have e1 : history σ (x :: (A ++ B)) = (lookupPath x.1 x.2.2.path, x.2.1) :: history σ (A ++ B) := by
        simp [history, hs]
      have e2 : history σ (x :: A) = (lookupPath x.1 x.2.2.path, x.2.1) :: history σ A := by simp [history, hs]
      rw [List.cons_append, e1, e2, historyAppend σ A B, List.cons_append]
    | false =>
      have e1 : history σ (x :: (A ++ B)) = history σ (A ++ B) := by simp [history, hs]
      have e2 : history σ (x :: A) = history σ A := by simp [history, hs]
      rw [List.cons_append, e1, e2, historyAppend σ A B]

/-- One step's effect on bindings and invalid slots is the fold of its lookups. -/
theorem stepAcc (p : Policy) (s : State) (c : Call) (o : Outcome) :
    ((stepFull p s c o).2.bindings, (stepFull p s c o).2.invalid) = foldBind (stepLookups p s c o) (s.bindings, s.invalid) := by
  cases hd : decideFull p s c with
  | allow l pu pa k =>
    rw [stepFullAllow p s c o l pu pa k hd]
    have ⟨_, _, _, _, hb, hi, _⟩ := commitFields p s c l pu pa k
    have hl : stepLookups p s c o = (match o.ok, (commit p s c l pu pa k).record? (List.length s.trace) with
      | true, some rec =>
        (p.resolvers.filter (fun r => r.tool == rec.tool && jeq r.args (argsJson rec.args))).map
          (fun r => (o.value, List.length s.trace, r))
      | _, _ => []) := by simp [stepLookups, hd]
    rw [hl]
    cases o with
    | mk ok v =>
      cases ok with
      | false => simp [observe]; rw [hb, hi]; rfl
      | true =>
        cases hr : (commit p s c l pu pa k).record? (List.length s.trace) with
        | none => simp [observe, hr]; rw [hb, hi]; rfl
        | some rec =>
          simp only [observe, hr]
          rw [foldlMapBind, hb, hi]
          cases foldBind (List.map (fun r => (v, List.length s.trace, r))
            (List.filter (fun r => r.tool == rec.tool && jeq r.args (argsJson rec.args)) p.resolvers)) (s.bindings, s.invalid) with
          | mk bs inv => rfl
  | pause w =>
    have e : stepFull p s c o = (Verdict.pause w, s) := by simp [stepFull, hd]
    have hl : stepLookups p s c o = [] := by simp [stepLookups, hd]
    rw [e, hl]; rfl
  | deny r =>
    have e : stepFull p s c o = (Verdict.deny r, s) := by simp [stepFull, hd]
    have hl : stepLookups p s c o = [] := by simp [stepLookups, hd]
    rw [e, hl]; rfl

/-- A run's effect on bindings and invalid slots is the fold of all its lookups. -/
theorem runAcc (p : Policy) : ∀ (cs : List (Call × Outcome)) (s : State),
    ((runFull p s cs).2.bindings, (runFull p s cs).2.invalid) = foldBind (runLookups p s cs) (s.bindings, s.invalid)
  | [], s => rfl
  | (c, o) :: cs, s => by
    have e : (runFull p s ((c, o) :: cs)).2 = (runFull p (stepFull p s c o).2 cs).2 := rfl
    have el : runLookups p s ((c, o) :: cs) = stepLookups p s c o ++ runLookups p (stepFull p s c o).2 cs := rfl
    rw [e, el, runAcc p cs (stepFull p s c o).2, foldBindAppend, stepAcc]

/-- Section 5.1 over the monitor's runs: for every trace from the state a task starts in, a slot of
the final state is invalid exactly when its history (the addresses its designated lookups found, in
the order the run processed them) has a missing or malformed address or two addresses that are not
equal JSON values; otherwise it is bound to the first address and the ID of the lookup that found
it, or unbound when no lookup was designated for it. -/
theorem slotsOverRuns (p : Policy) (cs : List (Call × Outcome)) (σ : String) :
    (slotView σ ((runFull p (initialState p) cs).2.bindings, (runFull p (initialState p) cs).2.invalid) = none ↔
      HistInvalid (history σ (runLookups p (initialState p) cs))) ∧
    (¬ HistInvalid (history σ (runLookups p (initialState p) cs)) →
      slotView σ ((runFull p (initialState p) cs).2.bindings, (runFull p (initialState p) cs).2.invalid) =
        some (firstAddr (history σ (runLookups p (initialState p) cs)))) := by
  rw [runAcc p cs (initialState p)]
  exact bindsMeaning σ (runLookups p (initialState p) cs) ((initialState p).bindings, (initialState p).invalid) rfl

end AgentWarrant.Monitor.Full
