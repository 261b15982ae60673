import AgentWarrant.Spec.Revision.ArgCoverJsonEq
import AgentWarrant.Thm.Revision.ArgCoverBuild
/-! The Boolean equality on `Json` and on the decision's literals (`Spec/Revision/ArgCoverJsonEq.lean`) is
equality where the numbering of a coverage question needs it (Agenra Sections 1 and 7.1):
* `jsonBeqSound`: at every fuel, `jsonBeqF n a b = true` only when `a = b`;
* `jsonBeqRefl`: `jsonBeqF n a a = true` when `a` passes the oracle's name check at depth `n`
  (`keysAtMost n a`; so at `jsonFuel` on every admitted value, `admittedKeys`);
* `aLitBeqIff`: `aLitBeq a b = true ↔ a = b` when `a`'s array or object constant, if it has one, passes
  that check (`aLitKeysOk`); `sLitABeqIff` the same on sourced literals;
* `dedupBMem`, `dedupBSub`, `idxOfBNth`, `getBMapB`: keeping first occurrences and numbering by a test
  that is sound (true only on equal elements) keeps every element, keeps nothing else, and finds each
  element the test finds equal to itself — `dedupMem`, `idxNth` and `getBMap2` of
  `Thm/Revision/ArgCoverBuild.lean` with the test in place of `DecidableEq`;
* `buildQAMeans`: a question whose literals may be `eqJson`, numbered by these (`buildQA`), keeps its
  meaning (`buildQMeans` for `ALit`), when every literal's constant passes the name check.
The hypothesis of reflexivity is needed: past the fuel the test answers false, so a value nesting deeper
than `jsonFuel` is not equal to itself by it. -/
namespace AgentWarrant.Revision.ArgCover
open Lean AgentWarrant AgentWarrant.Monitor.Full

-- soundness -------------------------------------------------------------------------------------------

theorem colorBSound : ∀ {c d : Std.Rbcolor}, colorB c d = true → c = d
  | Std.Rbcolor.red, Std.Rbcolor.red, _ => rfl
  | Std.Rbcolor.black, Std.Rbcolor.black, _ => rfl
  | Std.Rbcolor.red, Std.Rbcolor.black, h => by cases h
  | Std.Rbcolor.black, Std.Rbcolor.red, h => by cases h

theorem colorBRefl : ∀ (c : Std.Rbcolor), colorB c c = true
  | Std.Rbcolor.red => rfl
  | Std.Rbcolor.black => rfl

theorem listBeqSound {f : Json → Json → Bool} (hf : ∀ x y, f x y = true → x = y) :
    ∀ (l1 l2 : List Json), listBeqJ f l1 l2 = true → l1 = l2
  | [], [], _ => rfl
  | [], _ :: _, h => by cases h
  | _ :: _, [], h => by cases h
  | x :: xs, y :: ys, h => by
    have ⟨h1, h2⟩ := andT h
    rw [hf x y h1, listBeqSound hf xs ys h2]

theorem nodeBeqSound {f : Json → Json → Bool} (hf : ∀ x y, f x y = true → x = y) :
    ∀ (a b : Std.RBNode String (fun _ => Json)), nodeBeqJ f a b = true → a = b
  | Std.RBNode.leaf, Std.RBNode.leaf, _ => rfl
  | Std.RBNode.leaf, Std.RBNode.node _ _ _ _ _, h => by cases h
  | Std.RBNode.node _ _ _ _ _, Std.RBNode.leaf, h => by cases h
  | Std.RBNode.node c l k v r, Std.RBNode.node c' l' k' v' r', h => by
    have ⟨h1, h2⟩ := andT h
    have ⟨h3, h4⟩ := andT h2
    have ⟨h5, h6⟩ := andT h4
    have ⟨h7, h8⟩ := andT h6
    have e1 := colorBSound h1
    have e3 := nodeBeqSound hf l l' h3
    have e5 : k = k' := ofDecideEqTrue h5
    have e7 : v = v' := hf v v' h7
    have e8 := nodeBeqSound hf r r' h8
    subst e1 e3 e5 e7 e8
    rfl

theorem arrEqOfData : ∀ {a b : Array Json}, a.data = b.data → a = b
  | ⟨_⟩, ⟨_⟩, h => by cases h; rfl

theorem boolCase {x y : Bool} (h : decide (x = y) = true) : Json.bool x = Json.bool y :=
  congrArg Json.bool (ofDecideEqTrue h)

theorem numCase {x y : JsonNumber} (h : decide (x = y) = true) : Json.num x = Json.num y :=
  congrArg Json.num (ofDecideEqTrue h)

theorem strCase {x y : String} (h : decide (x = y) = true) : Json.str x = Json.str y :=
  congrArg Json.str (ofDecideEqTrue h)

theorem arrCase {a b : Array Json} (h : a.data = b.data) : Json.arr a = Json.arr b :=
  congrArg Json.arr (arrEqOfData h)

theorem objCase {a b : Std.RBNode String (fun _ => Json)} (h : a = b) : Json.obj a = Json.obj b :=
  congrArg Json.obj h

/-- The test is true only on equal values, at every fuel. -/
theorem jsonBeqSound : ∀ (n : Nat) (a b : Json), jsonBeqF n a b = true → a = b
  | 0, a, b, h => by
    cases a <;> cases b <;> first
      | rfl
      | (apply boolCase; exact h)
      | (apply numCase; exact h)
      | (apply strCase; exact h)
      | cases h
  | n + 1, a, b, h => by
    cases a <;> cases b <;> first
      | rfl
      | (apply boolCase; exact h)
      | (apply numCase; exact h)
      | (apply strCase; exact h)
      | (apply arrCase; exact listBeqSound (jsonBeqSound n) _ _ h)
      | (apply objCase; exact nodeBeqSound (jsonBeqSound n) _ _ h)
      | cases h

-- reflexivity on admitted values ----------------------------------------------------------------------

theorem listBeqRefl {f : Json → Json → Bool} : ∀ (l : List Json), (∀ x, x ∈ l → f x x = true) → listBeqJ f l l = true
  | [], _ => rfl
  | x :: xs, h => by
    show (f x x && listBeqJ f xs xs) = true
    rw [h x (Mem.head xs), listBeqRefl xs (fun y hy => h y (Mem.tail x hy))]
    rfl

theorem foldAccMem {x : String × Json} : ∀ (t : Std.RBNode String (fun _ => Json)) (acc : List (String × Json)),
    x ∈ acc → x ∈ t.fold (fun acc k v => (k, v) :: acc) acc
  | Std.RBNode.leaf, _, h => h
  | Std.RBNode.node _ l _ _ r, acc, h => foldAccMem r _ (Mem.tail _ (foldAccMem l acc h))

theorem nodeBeqRefl {f : Json → Json → Bool} : ∀ (t : Std.RBNode String (fun _ => Json)) (acc : List (String × Json)),
    (∀ p, p ∈ t.fold (fun acc k v => (k, v) :: acc) acc → f p.2 p.2 = true) → nodeBeqJ f t t = true
  | Std.RBNode.leaf, _, _ => rfl
  | Std.RBNode.node c l k v r, acc, h => by
    have hl : nodeBeqJ f l l = true := nodeBeqRefl l acc (fun p hp => h p (foldAccMem r _ (Mem.tail _ hp)))
    have hv : f v v = true := h (k, v) (foldAccMem r _ (Mem.head _))
    have hr : nodeBeqJ f r r = true := nodeBeqRefl r _ (fun p hp => h p hp)
    have hk : decide (k = k) = true := decideEqTrue rfl
    show (colorB c c && (nodeBeqJ f l l && (decide (k = k) && (f v v && nodeBeqJ f r r)))) = true
    rw [colorBRefl, hl, hk, hv, hr]
    rfl

/-- The test is true on a value against itself when its objects pass the oracle's name check within the
fuel (`keysAtMost`, which also bounds its depth). -/
theorem jsonBeqRefl : ∀ (n : Nat) (a : Json), Oracle.keysAtMost n a = true → jsonBeqF n a a = true
  | 0, a, h => by
    cases a <;> first
      | rfl
      | exact decideEqTrue rfl
      | cases h
  | n + 1, Json.arr a, h => by
    have h' : allB (fun x => Oracle.keysAtMost n x) a.data = true := h
    exact listBeqRefl a.data (fun x hx => jsonBeqRefl n x (allBElim h' x hx))
  | n + 1, Json.obj kvs, h => by
    have ⟨_, h2⟩ := andT h
    have ⟨_, h3⟩ := andT h2
    exact nodeBeqRefl kvs [] (fun p hp => jsonBeqRefl n p.2 (allBElim h3 p hp))
  | n + 1, Json.null, _ => rfl
  | n + 1, Json.bool _, _ => decideEqTrue rfl
  | n + 1, Json.num _, _ => decideEqTrue rfl
  | n + 1, Json.str _, _ => decideEqTrue rfl

theorem admittedKeys {c : Json} (h : admitted c = true) : Oracle.keysAtMost jsonFuel c = true := (andT h).2

-- literals --------------------------------------------------------------------------------------------

theorem aLitBeqSound : ∀ (a b : ALit), aLitBeq a b = true → a = b
  | ALit.lit _, ALit.lit _, h => congrArg ALit.lit (ofDecideEqTrue h)
  | ALit.eqJson c, ALit.eqJson d, h => congrArg ALit.eqJson (jsonBeqSound jsonFuel c d h)
  | ALit.lit _, ALit.eqJson _, h => by cases h
  | ALit.eqJson _, ALit.lit _, h => by cases h

theorem aLitBeqRefl : ∀ (a : ALit), aLitKeysOk a = true → aLitBeq a a = true
  | ALit.lit _, _ => decideEqTrue rfl
  | ALit.eqJson c, h => jsonBeqRefl jsonFuel c h

/-- Equality of literals is decided by `aLitBeq` when the first one's constant passes the oracle's name
check (every admitted constant does, `admittedKeys`). -/
theorem aLitBeqIff (a b : ALit) (h : aLitKeysOk a = true) : aLitBeq a b = true ↔ a = b :=
  ⟨aLitBeqSound a b, fun e => by rw [← e]; exact aLitBeqRefl a h⟩

theorem sLitABeqSound (x y : SLitA) (h : sLitABeq x y = true) : x = y := by
  have ⟨h1, h2⟩ := andT h
  have e1 : x.1 = y.1 := ofDecideEqTrue h1
  have e2 := aLitBeqSound x.2 y.2 h2
  cases x with
  | mk s l =>
    cases y with
    | mk s' l' =>
      cases e1
      cases e2
      rfl

theorem sLitABeqRefl (x : SLitA) (h : aLitKeysOk x.2 = true) : sLitABeq x x = true := by
  have h1 : decide (x.1 = x.1) = true := decideEqTrue rfl
  show (decide (x.1 = x.1) && aLitBeq x.2 x.2) = true
  rw [h1, aLitBeqRefl x.2 h]
  rfl

theorem sLitABeqIff (x y : SLitA) (h : aLitKeysOk x.2 = true) : sLitABeq x y = true ↔ x = y :=
  ⟨sLitABeqSound x y, fun e => by rw [← e]; exact sLitABeqRefl x h⟩

-- numbering by a Boolean test --------------------------------------------------------------------------

/-- Keeping first occurrences by a sound test keeps every element. -/
theorem dedupBMem (eq : α → α → Bool) (hs : ∀ x y, eq x y = true → x = y) :
    ∀ (l acc : List α) (x : α), (x ∈ acc ∨ x ∈ l) → x ∈ dedupB eq acc l
  | [], acc, x, h => match h with
    | Or.inl h => h
    | Or.inr h => absurd h notMemNil
  | y :: ys, acc, x, h => by
    cases hy : anyB (fun z => eq z y) acc with
    | true =>
      show x ∈ (match anyB (fun z => eq z y) acc with
        | true => dedupB eq acc ys
        | false => dedupB eq (acc ++ [y]) ys)
      rw [hy]
      apply dedupBMem eq hs ys acc x
      match h with
      | Or.inl h => exact Or.inl h
      | Or.inr h => match memCons h with
        | Or.inl e =>
          have ⟨z, hz, ez⟩ := anyBElim hy
          rw [e, ← hs z y ez]
          exact Or.inl hz
        | Or.inr h => exact Or.inr h
    | false =>
      show x ∈ (match anyB (fun z => eq z y) acc with
        | true => dedupB eq acc ys
        | false => dedupB eq (acc ++ [y]) ys)
      rw [hy]
      apply dedupBMem eq hs ys (acc ++ [y]) x
      match h with
      | Or.inl h => exact Or.inl (memAppL [y] h)
      | Or.inr h => match memCons h with
        | Or.inl e => rw [e]; exact Or.inl (memAppR [y] acc (Mem.head []))
        | Or.inr h => exact Or.inr h

/-- Keeping first occurrences keeps nothing else. -/
theorem dedupBSub (eq : α → α → Bool) : ∀ (l acc : List α) (x : α), x ∈ dedupB eq acc l → x ∈ acc ∨ x ∈ l
  | [], acc, x, h => Or.inl h
  | y :: ys, acc, x, h => by
    cases hy : anyB (fun z => eq z y) acc with
    | true =>
      have h' : x ∈ dedupB eq acc ys := by
        have h0 : x ∈ (match anyB (fun z => eq z y) acc with
          | true => dedupB eq acc ys
          | false => dedupB eq (acc ++ [y]) ys) := h
        rw [hy] at h0
        exact h0
      match dedupBSub eq ys acc x h' with
      | Or.inl h2 => exact Or.inl h2
      | Or.inr h2 => exact Or.inr (Mem.tail y h2)
    | false =>
      have h' : x ∈ dedupB eq (acc ++ [y]) ys := by
        have h0 : x ∈ (match anyB (fun z => eq z y) acc with
          | true => dedupB eq acc ys
          | false => dedupB eq (acc ++ [y]) ys) := h
        rw [hy] at h0
        exact h0
      match dedupBSub eq ys (acc ++ [y]) x h' with
      | Or.inl h2 => match memAppE h2 with
        | Or.inl h3 => exact Or.inl h3
        | Or.inr h3 => match memCons h3 with
          | Or.inl e => rw [e]; exact Or.inr (Mem.head ys)
          | Or.inr h4 => exact absurd h4 notMemNil
      | Or.inr h2 => exact Or.inr (Mem.tail y h2)

/-- Numbering by a sound test finds an element the test finds equal to itself. -/
theorem idxOfBNth (eq : α → α → Bool) (hs : ∀ x y, eq x y = true → x = y) (x : α) (hx : eq x x = true) :
    ∀ (l : List α), x ∈ l → nthO l (idxOfB eq x l) = some x
  | [], h => absurd h notMemNil
  | y :: ys, h => by
    cases hd : eq x y with
    | true =>
      show nthO (y :: ys) (match eq x y with | true => 0 | false => idxOfB eq x ys + 1) = some x
      rw [hd, hs x y hd]
      rfl
    | false =>
      show nthO (y :: ys) (match eq x y with | true => 0 | false => idxOfB eq x ys + 1) = some x
      rw [hd]
      show nthO ys (idxOfB eq x ys) = some x
      match memCons h with
      | Or.inl e => rw [e] at hx; rw [e] at hd; rw [hx] at hd; cases hd
      | Or.inr h => exact idxOfBNth eq hs x hx ys h

/-- `getBMap2` for numbering by a sound test. -/
theorem getBMapB (eq : α → α → Bool) (hs : ∀ x y, eq x y = true → x = y) (g : α → β) (f : β → Bool) (x : α)
    (hx : eq x x = true) : ∀ (l : List α), x ∈ l → getB ((l.map g).map f) (idxOfB eq x l) = f (g x)
  | [], h => absurd h notMemNil
  | y :: ys, h => by
    cases hd : eq x y with
    | true =>
      show getB ((List.map g (y :: ys)).map f) (match eq x y with | true => 0 | false => idxOfB eq x ys + 1) = _
      rw [hd, hs x y hd]
      rfl
    | false =>
      show getB ((List.map g (y :: ys)).map f) (match eq x y with | true => 0 | false => idxOfB eq x ys + 1) = _
      rw [hd]
      show getB ((ys.map g).map f) (idxOfB eq x ys) = _
      match memCons h with
      | Or.inl e => rw [e] at hx; rw [e] at hd; rw [hx] at hd; cases hd
      | Or.inr h => exact getBMapB eq hs g f x hx ys h

-- a question numbered with the decision's literals keeps its meaning ------------------------------------

theorem bitAtA (syms : List SLitA) (names : List Src) (val : Src → AV) (x : SLitA) (hx : x ∈ syms)
    (hk : aLitKeysOk x.2 = true) (hn : x.1 ∈ names) :
    getB (bitsOf (syms.map (fun y => (idxOf y.1 names, y.2))) (valOf names val)) (idxOfB sLitABeq x syms) =
      holdsA x.2 (val x.1) := by
  show getB ((syms.map (fun y => (idxOf y.1 names, y.2))).map (fun a => holdsA a.2 (valOf names val a.1)))
    (idxOfB sLitABeq x syms) = _
  rw [getBMapB sLitABeq sLitABeqSound _ _ x (sLitABeqRefl x hk) syms hx]
  show holdsA x.2 (valOf names val (idxOf x.1 names)) = _
  rw [valOfIdx names val x.1 hn]

theorem numClauseA (syms : List SLitA) (names : List Src) (val : Src → AV) (c : SClauseA)
    (h : ∀ y, y ∈ c → y.1 ∈ syms ∧ y.1.1 ∈ names ∧ aLitKeysOk y.1.2 = true) :
    anyB (fun s => decide (getB (bitsOf (syms.map (fun y => (idxOf y.1 names, y.2))) (valOf names val)) s.1 = s.2))
      (numCA syms c) = sClauseHoldsA val c := by
  show anyB _ (c.map (fun x => (idxOfB sLitABeq x.1 syms, x.2))) = anyB _ c
  rw [anyBMap]
  apply anyBCongr
  intro y hy
  have ⟨h1, h2, h3⟩ := h y hy
  show decide (getB _ (idxOfB sLitABeq y.1 syms) = y.2) = decide (holdsA y.1.2 (val y.1.1) = y.2)
  rw [bitAtA syms names val y.1 h1 h3 h2]

theorem numCnfA (syms : List SLitA) (names : List Src) (val : Src → AV) (f : List SClauseA)
    (h : ∀ c y, c ∈ f → y ∈ c → y.1 ∈ syms ∧ y.1.1 ∈ names ∧ aLitKeysOk y.1.2 = true) :
    cnfHolds (bitsOf (syms.map (fun y => (idxOf y.1 names, y.2))) (valOf names val)) (numFA syms f) =
      sCnfHoldsA val f := by
  show allB _ (f.map (numCA syms)) = allB _ f
  rw [allBMap]
  apply allBCongr
  intro c hc
  exact numClauseA syms names val c (fun y hy => h c y hc hy)

theorem symsNamesA (cond : List SClauseA) (pos : List (Option (List SClauseA))) (y : SLitA)
    (hy : y ∈ litsOfFA cond ++ posLitsA pos) :
    y ∈ dedupB sLitABeq [] (litsOfFA cond ++ posLitsA pos) ∧
      y.1 ∈ dedupL [] ((dedupB sLitABeq [] (litsOfFA cond ++ posLitsA pos)).map (fun x => x.1)) := by
  have h1 := dedupBMem sLitABeq sLitABeqSound _ [] y (Or.inr hy)
  exact ⟨h1, dedupMem _ [] y.1 (Or.inr (memMapOf (fun x => x.1) h1))⟩

theorem litsOfFAMem {f : List SClauseA} {c : SClauseA} {y : SLitA × Bool} (hc : c ∈ f) (hy : y ∈ c) :
    y.1 ∈ litsOfFA f :=
  memJoin (memMapOf litsOfCA hc) (memMapOf (fun x => x.1) hy)

theorem posLitsAMem {f : List SClauseA} : ∀ {pos : List (Option (List SClauseA))}, some f ∈ pos →
    ∀ y, y ∈ litsOfFA f → y ∈ posLitsA pos
  | [], h, _, _ => absurd h notMemNil
  | none :: ps, h, y, hy => by
    show y ∈ posLitsA ps
    match memCons h with
    | Or.inl e => cases e
    | Or.inr h => exact posLitsAMem h y hy
  | some g :: ps, h, y, hy => by
    show y ∈ litsOfFA g ++ posLitsA ps
    match memCons h with
    | Or.inl e => cases e; exact memAppL _ hy
    | Or.inr h => exact memAppR _ _ (posLitsAMem h y hy)

def sPosBitA (val : Src → AV) : Option (List SClauseA) → Bool
  | none => false
  | some f => sCnfHoldsA val f

/-- `buildQMeans` for a question with the decision's literals: its numbered condition and position bits
are those on named sources, when every literal's array or object constant passes the oracle's name check
(`hok`; every admitted constant does, `admittedKeys`). -/
theorem buildQAMeans (cond : List SClauseA) (pos : List (Option (List SClauseA))) (val : Src → AV)
    (hok : ∀ y, y ∈ litsOfFA cond ++ posLitsA pos → aLitKeysOk y.2 = true) :
    cnfHolds (bitsOf (buildQA cond pos).atoms (valOf (buildQA cond pos).names val)) (buildQA cond pos).cond =
      sCnfHoldsA val cond ∧
    (buildQA cond pos).pos.map (posBit (bitsOf (buildQA cond pos).atoms (valOf (buildQA cond pos).names val))) =
      pos.map (sPosBitA val) := by
  refine ⟨?_, ?_⟩
  · exact numCnfA _ _ val cond (fun c y hc hy =>
      have hm := memAppL _ (litsOfFAMem hc hy)
      have ⟨h1, h2⟩ := symsNamesA cond pos y.1 hm
      ⟨h1, h2, hok y.1 hm⟩)
  · show (pos.map (numPA _)).map _ = _
    rw [mapMapB]
    apply mapCongrB
    intro p hp
    cases p with
    | none => rfl
    | some f =>
      show cnfHolds _ (numFA _ f) = sCnfHoldsA val f
      exact numCnfA _ _ val f (fun c y hc hy =>
        have hm := memAppR _ _ (posLitsAMem hp y.1 (litsOfFAMem hc hy))
        have ⟨h1, h2⟩ := symsNamesA cond pos y.1 hm
        ⟨h1, h2, hok y.1 hm⟩)

end AgentWarrant.Revision.ArgCover
