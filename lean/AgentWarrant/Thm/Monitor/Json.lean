import AgentWarrant.Spec.Monitor.Json
/-! What the monitor's matching means (Agenra Section 5: constants, resources and arguments are JSON
values; resource patterns are globs), proved of the total definitions in `Spec/Monitor/Json.lean`.

* Globs: `GlobMatch` is a declarative meaning of a token list (a `*` matches any string, `?` any one
  character, a literal itself, a class a character in its ranges, or out of them when negated), and
  `globMatchIff` shows the matcher decides exactly it. The tokenizer (`globToks`) is a definition, not
  a theorem: the meaning is of the tokens, as `fnmatchIff` states; `globToksStable` proves its fuel
  (the pattern's length) sufficient.
* JSON equality: `JEq` is value equality read as the JSON data model has it — scalars of one kind and
  equal (numbers by decimal value), arrays of one length and pointwise equal, objects with as many
  keys and every key of one bound in the other to an equal value. `jeqIff` shows `jeq` decides it for
  every value nesting less deep than `jsonFuel`, which is the sufficiency of the fuel; `jeqFSound`
  shows that no fuel ever makes `jeq` say equal wrongly. `jeqObjOrderLeft`/`Right` state that only the
  key-to-value bindings of an object matter, never the order of its pairs.
* Termination: every function here is a total Lean definition (structural recursion on the tokens,
  the suffix, or the fuel), so the step that calls them terminates; no theorem is needed beyond the
  definitions being accepted without `partial`.
What is not proved: that `JEq` is symmetric and transitive (symmetry of the object clause needs the
keys of each side to be distinct, a property of the RB map Lean's parser builds that the `Json` type
does not carry, and a counting argument; transitivity of the number clause needs cancellation in
`Int`, which the 2021 core library lacks). -/
namespace AgentWarrant.Monitor.Full
open Lean AgentWarrant

-- globs ----------------------------------------------------------------------------------------

inductive GlobMatch : List GlobTok → List Char → Prop
  | nil : GlobMatch [] []
  | star (ts : List GlobTok) (u v : List Char) : GlobMatch ts v → GlobMatch (GlobTok.star :: ts) (u ++ v)
  | one (ts : List GlobTok) (c : Char) (s : List Char) : GlobMatch ts s → GlobMatch (GlobTok.one :: ts) (c :: s)
  | lit (ts : List GlobTok) (c : Char) (s : List Char) : GlobMatch ts s → GlobMatch (GlobTok.lit c :: ts) (c :: s)
  | cls (ts : List GlobTok) (neg : Bool) (rs : List (Char × Char)) (c : Char) (s : List Char) :
      (inRanges c rs != neg) = true → GlobMatch ts s → GlobMatch (GlobTok.cls neg rs :: ts) (c :: s)

theorem andT : ∀ {x y : Bool}, (x && y) = true → x = true ∧ y = true
  | true, true, _ => ⟨rfl, rfl⟩
  | true, false, h => by cases h
  | false, _, h => by cases h

theorem anySuffixElim (f : List Char → Bool) : ∀ (s : List Char), anySuffix f s = true → ∃ u v, s = u ++ v ∧ f v = true
  | [], h => ⟨[], [], rfl, h⟩
  | c :: r, h => by
    cases hf : f (c :: r) with
    | true => exact ⟨[], c :: r, rfl, hf⟩
    | false =>
      have h' : anySuffix f r = true := by
        have h2 : (f (c :: r) || anySuffix f r) = true := h
        rw [hf] at h2
        exact h2
      have ⟨u, v, e, hv⟩ := anySuffixElim f r h'
      exact ⟨c :: u, v, by rw [e, List.cons_append], hv⟩

theorem anySuffixIntro (f : List Char → Bool) (v : List Char) (hv : f v = true) :
    ∀ (u : List Char), anySuffix f (u ++ v) = true
  | [] => by
    cases v with
    | nil => exact hv
    | cons c r => show (f (c :: r) || anySuffix f r) = true; rw [hv]; rfl
  | c :: u => by
    rw [List.cons_append]
    show (f (c :: (u ++ v)) || anySuffix f (u ++ v)) = true
    rw [anySuffixIntro f v hv u]
    cases f (c :: (u ++ v)) <;> rfl

theorem globMatchSound : ∀ (ts : List GlobTok) (s : List Char), globMatch ts s = true → GlobMatch ts s
  | [], [], _ => GlobMatch.nil
  | [], _ :: _, h => by cases h
  | GlobTok.star :: ts, s, h => by
    have ⟨u, v, e, hv⟩ := anySuffixElim (globMatch ts) s h
    rw [e]
    exact GlobMatch.star ts u v (globMatchSound ts v hv)
  | GlobTok.one :: ts, [], h => by cases h
  | GlobTok.one :: ts, c :: r, h => GlobMatch.one ts c r (globMatchSound ts r h)
  | GlobTok.lit c :: ts, [], h => by cases h
  | GlobTok.lit c :: ts, x :: r, h => by
    have ⟨hc, hr⟩ := andT h
    have e : c = x := ofDecideEqTrue hc
    rw [e]
    exact GlobMatch.lit ts x r (globMatchSound ts r hr)
  | GlobTok.cls neg rs :: ts, [], h => by cases h
  | GlobTok.cls neg rs :: ts, x :: r, h => by
    have ⟨hc, hr⟩ := andT h
    exact GlobMatch.cls ts neg rs x r hc (globMatchSound ts r hr)

theorem globMatchComplete {ts : List GlobTok} {s : List Char} (h : GlobMatch ts s) : globMatch ts s = true := by
  induction h with
  | nil => rfl
  | star ts u v _ ih => exact anySuffixIntro (globMatch ts) v ih u
  | one ts c s _ ih => exact ih
  | lit ts c s _ ih =>
    show (decide (c = c) && globMatch ts s) = true
    rw [ih, decideEqTrue (rfl : c = c)]
    rfl
  | cls ts neg rs c s hc _ ih =>
    show ((inRanges c rs != neg) && globMatch ts s) = true
    rw [hc, ih]
    rfl

/-- The glob matcher decides the declarative meaning of the tokens, for every token list and string. -/
theorem globMatchIff (ts : List GlobTok) (s : List Char) : globMatch ts s = true ↔ GlobMatch ts s :=
  ⟨globMatchSound ts s, globMatchComplete⟩

theorem fnmatchIff (g x : String) : fnmatch g x = true ↔ GlobMatch (globToks g.toList) x.toList :=
  globMatchIff _ _

-- the tokenizer's fuel ---------------------------------------------------------------------------

theorem leSuccOfLe {a b : Nat} (h : a ≤ b) : a ≤ b + 1 := Nat.leStep h

theorem classGoShorter : ∀ (acc l : List Char) (x r : List Char), classGo acc l = some (x, r) → List.length r ≤ List.length l
  | acc, [], x, r, h => by cases h
  | acc, c :: l, x, r, h => by
    -- case on the decision itself, not `byCases`, which would bring in `Classical.choice`
    cases decEq c ']' with
    | isTrue hc =>
      have h' : some (acc.reverse, l) = some (x, r) := by
        have e : classGo acc (c :: l) = some (acc.reverse, l) := ifPos hc
        rw [← e]; exact h
      have e2 : (acc.reverse, l) = (x, r) := Option.some.inj h'
      have e3 : l = r := congrArg Prod.snd e2
      rw [← e3]
      rw [List.length_cons]
      exact Nat.leStep (Nat.leRefl _)
    | isFalse hc =>
      have h' : classGo (c :: acc) l = some (x, r) := by
        have e : classGo acc (c :: l) = classGo (c :: acc) l := ifNeg hc
        rw [← e]; exact h
      rw [List.length_cons]
      exact Nat.leStep (classGoShorter (c :: acc) l x r h')

theorem takeClassShorter (l x r : List Char) (h : takeClass l = some (x, r)) : List.length r ≤ List.length l := by
  cases l with
  | nil => cases h
  | cons c l =>
    rw [List.length_cons]
    exact Nat.leStep (classGoShorter [c] l x r h)

theorem classBodyShorter (l : List Char) : List.length (classBody l).2 ≤ List.length l := by
  cases l with
  | nil => exact Nat.leRefl _
  | cons c l =>
    cases decEq c '!' with
    | isTrue hc =>
      have e : classBody (c :: l) = (true, l) := ifPos hc
      rw [e, List.length_cons]; exact Nat.leStep (Nat.leRefl _)
    | isFalse hc =>
      have e : classBody (c :: l) = (false, c :: l) := ifNeg hc
      rw [e]; exact Nat.leRefl _

theorem globStepShorter (c : Char) (rest : List Char) : List.length (globStep c rest).2 ≤ List.length rest := by
  cases decEq c '*' with
  | isTrue h1 =>
    have e : globStep c rest = (GlobTok.star, rest) := ifPos h1
    rw [e]; exact Nat.leRefl _
  | isFalse h1 =>
    cases decEq c '?' with
    | isTrue h2 =>
      have e : globStep c rest = (GlobTok.one, rest) := by
        show (if c = '*' then _ else _) = _
        rw [ifNeg h1, ifPos h2]
      rw [e]; exact Nat.leRefl _
    | isFalse h2 =>
      cases decEq c '[' with
      | isTrue h3 =>
        cases ht : takeClass (classBody rest).2 with
        | none =>
          have e : globStep c rest = (GlobTok.lit '[', rest) := by
            show (if c = '*' then _ else _) = _
            rw [ifNeg h1, ifNeg h2, ifPos h3, ht]
          rw [e]; exact Nat.leRefl _
        | some p =>
          cases p with
          | mk inner after =>
            have e : globStep c rest = (GlobTok.cls (classBody rest).1 (classRanges inner), after) := by
              show (if c = '*' then _ else _) = _
              rw [ifNeg h1, ifNeg h2, ifPos h3, ht]
            rw [e]
            exact Nat.leTrans (takeClassShorter _ inner after ht) (classBodyShorter rest)
      | isFalse h3 =>
        have e : globStep c rest = (GlobTok.lit c, rest) := by
          show (if c = '*' then _ else _) = _
          rw [ifNeg h1, ifNeg h2, ifNeg h3]
        rw [e]; exact Nat.leRefl _

/-- The tokenizer's fuel is sufficient: any two fuels beyond the pattern's length give the same tokens. -/
theorem globToksStable : ∀ (n m : Nat) (s : List Char), List.length s < n → List.length s < m → globToksF n s = globToksF m s
  | 0, _, _, h, _ => by cases h
  | _ + 1, 0, _, _, h => by cases h
  | n + 1, m + 1, [], _, _ => rfl
  | n + 1, m + 1, c :: rest, hn, hm => by
    show (globStep c rest).1 :: globToksF n (globStep c rest).2 = (globStep c rest).1 :: globToksF m (globStep c rest).2
    have hl := globStepShorter c rest
    rw [List.length_cons] at hn hm
    have hn' : List.length (globStep c rest).2 < n := Nat.leTrans (Nat.succLeSucc hl) (Nat.leOfSuccLeSucc hn)
    have hm' : List.length (globStep c rest).2 < m := Nat.leTrans (Nat.succLeSucc hl) (Nat.leOfSuccLeSucc hm)
    rw [globToksStable n m _ hn' hm']

theorem globToksEnough (n : Nat) (s : List Char) (h : List.length s < n) : globToksF n s = globToks s :=
  globToksStable n (List.length s + 1) s h (Nat.leRefl _)

-- JSON equality --------------------------------------------------------------------------------

inductive JEq : Json → Json → Prop
  | null : JEq Json.null Json.null
  | bool (b : Bool) : JEq (Json.bool b) (Json.bool b)
  | num (a b : JsonNumber) : numEq a b = true → JEq (Json.num a) (Json.num b)
  | str (s : String) : JEq (Json.str s) (Json.str s)
  | arr (a b : Array Json) : List.length a.data = List.length b.data →
      (∀ p, p ∈ List.zip a.data b.data → JEq p.1 p.2) → JEq (Json.arr a) (Json.arr b)
  | obj (a b : Std.RBNode String (fun _ => Json)) : List.length (pairs a) = List.length (pairs b) →
      (∀ k v, (k, v) ∈ pairs a → lookupK k (pairs b) ≠ none) →
      (∀ k v w, (k, v) ∈ pairs a → lookupK k (pairs b) = some w → JEq v w) → JEq (Json.obj a) (Json.obj b)

/-- `Depth n v`: `v` nests at most `n` arrays or objects deep. -/
inductive Depth : Nat → Json → Prop
  | null (n : Nat) : Depth n Json.null
  | bool (n : Nat) (b : Bool) : Depth n (Json.bool b)
  | num (n : Nat) (x : JsonNumber) : Depth n (Json.num x)
  | str (n : Nat) (s : String) : Depth n (Json.str s)
  | arr (n : Nat) (a : Array Json) : (∀ x, x ∈ a.data → Depth n x) → Depth (n + 1) (Json.arr a)
  | obj (n : Nat) (kvs : Std.RBNode String (fun _ => Json)) :
      (∀ k v, (k, v) ∈ pairs kvs → Depth n v) → Depth (n + 1) (Json.obj kvs)

theorem jeqFSound : ∀ (n : Nat) (a b : Json), jeqF n a b = true → JEq a b
  | 0, a, b, h => by cases h
  | n + 1, Json.null, Json.null, _ => JEq.null
  | n + 1, Json.bool x, Json.bool y, h => by
    cases x <;> cases y <;> first | exact JEq.bool _ | cases h
  | n + 1, Json.num x, Json.num y, h => JEq.num x y h
  | n + 1, Json.str x, Json.str y, h => by
    have e : x = y := ofDecideEqTrue h
    rw [e]
    exact JEq.str y
  | n + 1, Json.arr x, Json.arr y, h => by
    have ⟨hl, ha⟩ := andT h
    exact JEq.arr x y (ofDecideEqTrue hl) (fun p hp => jeqFSound n p.1 p.2 (allBElim ha p hp))
  | n + 1, Json.obj x, Json.obj y, h => by
    have ⟨hl, ha⟩ := andT h
    refine JEq.obj x y (ofDecideEqTrue hl) (fun k v hm hn => ?_) (fun k v w hm hw => ?_)
    · have hx : (match lookupK k (pairs y) with
        | some w => jeqF n v w
        | none => false) = true := allBElim ha (k, v) hm
      rw [hn] at hx
      cases hx
    · have hx : (match lookupK k (pairs y) with
        | some w => jeqF n v w
        | none => false) = true := allBElim ha (k, v) hm
      rw [hw] at hx
      exact jeqFSound n v w hx
  | n + 1, Json.null, Json.bool _, h => by cases h
  | n + 1, Json.null, Json.num _, h => by cases h
  | n + 1, Json.null, Json.str _, h => by cases h
  | n + 1, Json.null, Json.arr _, h => by cases h
  | n + 1, Json.null, Json.obj _, h => by cases h
  | n + 1, Json.bool _, Json.null, h => by cases h
  | n + 1, Json.bool _, Json.num _, h => by cases h
  | n + 1, Json.bool _, Json.str _, h => by cases h
  | n + 1, Json.bool _, Json.arr _, h => by cases h
  | n + 1, Json.bool _, Json.obj _, h => by cases h
  | n + 1, Json.num _, Json.null, h => by cases h
  | n + 1, Json.num _, Json.bool _, h => by cases h
  | n + 1, Json.num _, Json.str _, h => by cases h
  | n + 1, Json.num _, Json.arr _, h => by cases h
  | n + 1, Json.num _, Json.obj _, h => by cases h
  | n + 1, Json.str _, Json.null, h => by cases h
  | n + 1, Json.str _, Json.bool _, h => by cases h
  | n + 1, Json.str _, Json.num _, h => by cases h
  | n + 1, Json.str _, Json.arr _, h => by cases h
  | n + 1, Json.str _, Json.obj _, h => by cases h
  | n + 1, Json.arr _, Json.null, h => by cases h
  | n + 1, Json.arr _, Json.bool _, h => by cases h
  | n + 1, Json.arr _, Json.num _, h => by cases h
  | n + 1, Json.arr _, Json.str _, h => by cases h
  | n + 1, Json.arr _, Json.obj _, h => by cases h
  | n + 1, Json.obj _, Json.null, h => by cases h
  | n + 1, Json.obj _, Json.bool _, h => by cases h
  | n + 1, Json.obj _, Json.num _, h => by cases h
  | n + 1, Json.obj _, Json.str _, h => by cases h
  | n + 1, Json.obj _, Json.arr _, h => by cases h

theorem memZipFst {α β : Type} {p : α × β} : ∀ {l : List α} {r : List β}, p ∈ List.zip l r → p.1 ∈ l
  | [], r, h => by cases h
  | a :: l, [], h => by cases h
  | a :: l, b :: r, h => by
    have h' : p ∈ (a, b) :: List.zip l r := h
    cases h' with
    | head _ => exact Mem.head _
    | tail _ t => exact Mem.tail _ (memZipFst t)

theorem jeqFComplete {n : Nat} {a : Json} (hd : Depth n a) : ∀ (m : Nat) (b : Json), n < m → JEq a b → jeqF m a b = true := by
  induction hd with
  | null n => intro m b hm hj; cases m with
    | zero => cases hm
    | succ m => cases hj; rfl
  | bool n x => intro m b hm hj; cases m with
    | zero => cases hm
    | succ m => cases hj; cases x <;> rfl
  | num n x => intro m b hm hj; cases m with
    | zero => cases hm
    | succ m => cases hj with | num _ _ h => exact h
  | str n x => intro m b hm hj; cases m with
    | zero => cases hm
    | succ m => cases hj; exact decideEqTrue (rfl : x = x)
  | arr n x hx ih => intro m b hm hj; cases m with
    | zero => cases hm
    | succ m =>
      have hm' : n < m := Nat.leOfSuccLeSucc hm
      cases hj with
      | arr _ y hl hp =>
        show (decide (List.length x.data = List.length y.data) && allB (fun p => jeqF m p.1 p.2) (List.zip x.data y.data)) = true
        have hd : decide (List.length x.data = List.length y.data) = true := decideEqTrue hl
        rw [hd]
        exact allBIntro (fun p hmem => ih p.1 (memZipFst hmem) m p.2 hm' (hp p hmem))
  | obj n x hx ih => intro m b hm hj; cases m with
    | zero => cases hm
    | succ m =>
      have hm' : n < m := Nat.leOfSuccLeSucc hm
      cases hj with
      | obj _ y hl hdom hp =>
        show (decide (List.length (pairs x) = List.length (pairs y)) && allB (fun p => match lookupK p.1 (pairs y) with
          | some w => jeqF m p.2 w
          | none => false) (pairs x)) = true
        have hd : decide (List.length (pairs x) = List.length (pairs y)) = true := decideEqTrue hl
        rw [hd]
        refine allBIntro (fun p hmem => ?_)
        cases p with
        | mk k v =>
          show (match lookupK k (pairs y) with
            | some w => jeqF m v w
            | none => false) = true
          cases hw : lookupK k (pairs y) with
          | none => exact absurd hw (hdom k v hmem)
          | some w => exact ih k v hmem m w hm' (hp k v w hmem hw)

/-- `jeq` decides JSON value equality for every value nesting less deep than the fuel (the fuel's
sufficiency), and never answers equal for values that are not (`jeqFSound`, at any depth). -/
theorem jeqIff {n : Nat} {a : Json} (hd : Depth n a) (hn : n < jsonFuel) (b : Json) : jeq a b = true ↔ JEq a b :=
  ⟨jeqFSound jsonFuel a b, jeqFComplete hd jsonFuel b hn⟩

/-- Only an object's bindings matter on the right: two maps with as many pairs and the same value
for every key are equal to the same objects. -/
theorem jeqObjOrderRight (a b b' : Std.RBNode String (fun _ => Json))
    (hl : List.length (pairs b) = List.length (pairs b')) (hk : ∀ k, lookupK k (pairs b) = lookupK k (pairs b')) :
    JEq (Json.obj a) (Json.obj b) → JEq (Json.obj a) (Json.obj b') := by
  intro h
  cases h with
  | obj _ _ hl0 hdom hp =>
    exact JEq.obj a b' (by rw [hl0, hl]) (fun k v hm => by rw [← hk k]; exact hdom k v hm)
      (fun k v w hm hw => hp k v w hm (by rw [hk k]; exact hw))

/-- Only an object's pairs as a set matter on the left, not their order. -/
theorem jeqObjOrderLeft (a a' b : Std.RBNode String (fun _ => Json))
    (hl : List.length (pairs a) = List.length (pairs a')) (hm : ∀ p, p ∈ pairs a' → p ∈ pairs a) :
    JEq (Json.obj a) (Json.obj b) → JEq (Json.obj a') (Json.obj b) := by
  intro h
  cases h with
  | obj _ _ hl0 hdom hp =>
    exact JEq.obj a' b (by rw [← hl, hl0]) (fun k v h' => hdom k v (hm (k, v) h'))
      (fun k v w h' hw => hp k v w (hm (k, v) h') hw)

end AgentWarrant.Monitor.Full
