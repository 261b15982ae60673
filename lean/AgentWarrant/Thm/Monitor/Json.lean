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
* `JEq` is reflexive (`jeqReflexive`, `jeqRefl`) and symmetric (`jeqSymmetric`, `jeqSymm`) on values
  whose objects have distinct keys (`KeysDistinct`: what a JSON object is, and what the RB map Lean's
  parser builds guarantees, but not what the `Json` type carries: without it `lookupK` finds only the
  first binding of a repeated key, and reflexivity fails). Symmetry of the object clause is a counting
  argument (`keysCover`: as many keys on both sides, all distinct, and those of one side bound on the
  other, so those of the other side are bound on the first).
* `JEq` is transitive on every pair of values (`jeqTransitive`, `jeqTrans`), so it is an equivalence
  on JSON values (`jeqEquivalence`). The number clause is cross-multiplication, whose transitivity
  needs cancellation in `Int`, which the 2021 core library does not have: `numEqNat` reads an
  equation `m·10^e = m'·10^e'` as equal sign classes and equal absolute products in `Nat`, where
  `mulRightCancel` cancels the middle number's (positive) power of ten.
* Every value has a finite depth (`depthExists`, through `Json.rec`), so for every value some fuel
  decides `JEq` (`jeqDecidesEventually`).
* The depth bound is sharp and cannot be dropped: for every fuel `n`, the value nesting `n` arrays
  of one element around `null` (`nestedNull n`) is `JEq` to itself and `jeqF n` answers "unequal"
  on it (`jeqFuelSharp`), so no fixed fuel decides `JEq` on every pair (`jeqFNotTotal`), and
  "`jeq a b = true ↔ JEq a b` for all `a b`" is false of the deployed `jeq` (`jeqNotTotal`).
What is not proved, and why: that `jeq` decides `JEq` for values nesting `jsonFuel` levels or more,
which is false (`jeqNotTotal`; `Full/JsonExact.lean` states exactly what happens there: only an
"unequal" answer for a left value that deep can be wrong, `jeqWrongOnlyDeep`, `jeqExactOrDeep`).
A `jeq` exact at every depth would have to take its fuel from the value it compares. No computable definition can recurse
on a value's own nesting in this toolchain: the equation compiler has no structural recursion over a
nested inductive (`Json` nests through `Array` and the RB map: "structural recursion does not handle
mutually recursive functions"), nor over a proof of accessibility (`Acc`), and well-founded recursion
"has not been implemented yet"; the code generator compiles no recursor ("code generator does not
support recursor 'Lean.Json.rec' yet", likewise `Acc.rec`), so neither the derived `sizeOf` nor
`WellFounded.fix` has executable code (a definition using either "depends on
'Lean.Json._sizeOf_inst'" / "'WellFounded.fix', and it does not have executable code"); `Json.compress`, `render`
and the library's equality are opaque `partial` constants. A fuel computed from the value cannot
escape this: a function that recurses on no `Json` reads the same local facts at every level of
`[[…[x]…]]` (arrays of one element), so it explores the same fixed depth on every value of that
family deep enough, and cannot tell two of them apart that differ only in `x`. Every route to a computable total `jeq` exact at every depth goes through
code proofs cannot see (a `partial def` or an `implementedBy` override), which the audit refuses on a
judgment's path. -/
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

-- reflexivity and symmetry -----------------------------------------------------------------------

/-- An object's pairs have distinct keys. -/
def NodupK : List (String × Json) → Prop
  | [] => True
  | p :: ps => lookupK p.1 ps = none ∧ NodupK ps

/-- Every object of a value, at every depth, has distinct keys (what the RB map Lean's parser builds
guarantees, and what a JSON object is). -/
inductive KeysDistinct : Json → Prop
  | null : KeysDistinct Json.null
  | bool (b : Bool) : KeysDistinct (Json.bool b)
  | num (x : JsonNumber) : KeysDistinct (Json.num x)
  | str (s : String) : KeysDistinct (Json.str s)
  | arr (a : Array Json) : (∀ x, x ∈ a.data → KeysDistinct x) → KeysDistinct (Json.arr a)
  | obj (kvs : Std.RBNode String (fun _ => Json)) : NodupK (pairs kvs) →
      (∀ k v, (k, v) ∈ pairs kvs → KeysDistinct v) → KeysDistinct (Json.obj kvs)

theorem lookupKNoneNotMem {k : String} {v : Json} : ∀ {l : List (String × Json)}, lookupK k l = none → ¬ (k, v) ∈ l
  | [], _, hm => nomatch hm
  | p :: ps, h, hm => by
    cases decEq k p.1 with
    | isTrue e =>
      have h' : some p.2 = none := by
        have e2 : lookupK k (p :: ps) = some p.2 := ifPos e
        rw [← e2]; exact h
      cases h'
    | isFalse e =>
      have h' : lookupK k ps = none := by
        have e2 : lookupK k (p :: ps) = lookupK k ps := ifNeg e
        rw [← e2]; exact h
      cases hm with
      | head _ => exact e rfl
      | tail _ t => exact lookupKNoneNotMem h' t

theorem lookupKOfMem {k : String} {v : Json} : ∀ {l : List (String × Json)}, NodupK l → (k, v) ∈ l → lookupK k l = some v
  | [], _, hm => nomatch hm
  | p :: ps, ⟨hp, hn⟩, hm => by
    cases hm with
    | head _ => exact ifPos rfl
    | tail _ t =>
      cases decEq k p.1 with
      | isTrue e =>
        rw [← e] at hp
        exact absurd t (lookupKNoneNotMem hp)
      | isFalse e =>
        have e2 : lookupK k (p :: ps) = lookupK k ps := ifNeg e
        rw [e2]
        exact lookupKOfMem hn t

theorem memZipSelf {α : Type} {p : α × α} : ∀ {l : List α}, p ∈ List.zip l l → p.1 = p.2 ∧ p.1 ∈ l
  | [], h => nomatch h
  | a :: l, h => by
    have h' : p ∈ (a, a) :: List.zip l l := h
    cases h' with
    | head _ => exact ⟨rfl, Mem.head _⟩
    | tail _ t =>
      have ⟨e, m⟩ := memZipSelf t
      exact ⟨e, Mem.tail _ m⟩

theorem numEqRefl (x : JsonNumber) : numEq x x = true :=
  decideEqTrue (rfl : x.mantissa * pow10 x.exponent = x.mantissa * pow10 x.exponent)

/-- `JEq` is reflexive on values whose objects have distinct keys. Without distinct keys it is not:
`lookupK` finds the first binding of a key, so a repeated key with another value is unequal to itself. -/
theorem jeqReflexive {a : Json} (h : KeysDistinct a) : JEq a a := by
  induction h with
  | null => exact JEq.null
  | bool b => exact JEq.bool b
  | num x => exact JEq.num x x (numEqRefl x)
  | str s => exact JEq.str s
  | arr a _ ih =>
    refine JEq.arr a a rfl (fun p hp => ?_)
    have ⟨e, m⟩ := memZipSelf hp
    rw [← e]
    exact ih p.1 m
  | obj kvs hn _ ih =>
    refine JEq.obj kvs kvs rfl (fun k v hm hl => ?_) (fun k v w hm hw => ?_)
    · rw [lookupKOfMem hn hm] at hl; cases hl
    · rw [lookupKOfMem hn hm] at hw
      have e : v = w := Option.some.inj hw
      rw [← e]
      exact ih k v hm

/-- `jeq` is reflexive on every value below the fuel whose objects have distinct keys. -/
theorem jeqRefl {n : Nat} {a : Json} (hd : Depth n a) (hn : n < jsonFuel) (h : KeysDistinct a) : jeq a a = true :=
  (jeqIff hd hn a).2 (jeqReflexive h)

theorem memZipSwap {α β : Type} {q : β × α} : ∀ {l : List β} {m : List α}, q ∈ List.zip l m → (q.2, q.1) ∈ List.zip m l
  | [], m, h => nomatch h
  | b :: l, [], h => nomatch h
  | b :: l, a :: m, h => by
    have h' : q ∈ (b, a) :: List.zip l m := h
    cases h' with
    | head _ => exact Mem.head _
    | tail _ t => exact Mem.tail _ (memZipSwap t)

/-- The pairs without the first one bound to `k`. -/
def eraseK (k : String) : List (String × Json) → List (String × Json)
  | [] => []
  | p :: ps => if k = p.1 then ps else p :: eraseK k ps

theorem lengthEraseK (k : String) : ∀ (l : List (String × Json)), lookupK k l ≠ none →
    List.length (eraseK k l) + 1 = List.length l
  | [], h => absurd rfl h
  | p :: ps, h => by
    cases decEq k p.1 with
    | isTrue e =>
      have e2 : eraseK k (p :: ps) = ps := ifPos e
      rw [e2, List.length_cons]
    | isFalse e =>
      have e2 : eraseK k (p :: ps) = p :: eraseK k ps := ifNeg e
      have h' : lookupK k ps ≠ none := by
        have e3 : lookupK k (p :: ps) = lookupK k ps := ifNeg e
        rw [← e3]; exact h
      rw [e2, List.length_cons, List.length_cons]
      exact congrArg Nat.succ (lengthEraseK k ps h')

theorem lookupEraseK {k k' : String} (hk : k' ≠ k) : ∀ (l : List (String × Json)), lookupK k' (eraseK k l) = lookupK k' l
  | [] => rfl
  | p :: ps => by
    cases decEq k p.1 with
    | isTrue e =>
      have e2 : eraseK k (p :: ps) = ps := ifPos e
      have e3 : lookupK k' (p :: ps) = lookupK k' ps := ifNeg (fun h => hk (h.trans e.symm))
      rw [e2, e3]
    | isFalse e =>
      have e2 : eraseK k (p :: ps) = p :: eraseK k ps := ifNeg e
      rw [e2]
      cases decEq k' p.1 with
      | isTrue e' =>
        have a : lookupK k' (p :: eraseK k ps) = some p.2 := ifPos e'
        have b : lookupK k' (p :: ps) = some p.2 := ifPos e'
        rw [a, b]
      | isFalse e' =>
        have a : lookupK k' (p :: eraseK k ps) = lookupK k' (eraseK k ps) := ifNeg e'
        have b : lookupK k' (p :: ps) = lookupK k' ps := ifNeg e'
        rw [a, b, lookupEraseK hk ps]

theorem memEraseK {k : String} {q : String × Json} (hq : q.1 ≠ k) : ∀ {l : List (String × Json)}, q ∈ l → q ∈ eraseK k l
  | [], h => nomatch h
  | p :: ps, h => by
    cases decEq k p.1 with
    | isTrue e =>
      have e2 : eraseK k (p :: ps) = ps := ifPos e
      rw [e2]
      cases h with
      | head _ => exact absurd e.symm hq
      | tail _ t => exact t
    | isFalse e =>
      have e2 : eraseK k (p :: ps) = p :: eraseK k ps := ifNeg e
      rw [e2]
      cases h with
      | head _ => exact Mem.head _
      | tail _ t => exact Mem.tail _ (memEraseK hq t)

theorem lookupKSome {k : String} : ∀ {l : List (String × Json)} {v : Json}, lookupK k l = some v → (k, v) ∈ l
  | [], _, h => by cases h
  | p :: ps, v, h => by
    cases decEq k p.1 with
    | isTrue e =>
      have e2 : lookupK k (p :: ps) = some p.2 := ifPos e
      rw [e2] at h
      have ev : p.2 = v := Option.some.inj h
      cases p with
      | mk a b =>
        have ea : k = a := e
        have eb : b = v := ev
        rw [ea, ← eb]
        exact Mem.head _
    | isFalse e =>
      have e2 : lookupK k (p :: ps) = lookupK k ps := ifNeg e
      rw [e2] at h
      exact Mem.tail _ (lookupKSome h)

theorem memLookupNotNone {l : List (String × Json)} {q : String × Json} (h : q ∈ l) : lookupK q.1 l ≠ none := by
  cases q with
  | mk k v => exact fun hn => lookupKNoneNotMem hn h

/-- Counting: if every key of a list with distinct keys is bound in another list that is no longer,
then every key of the other list is bound in the first. -/
theorem keysCover : ∀ (la lb : List (String × Json)), NodupK la → (∀ p, p ∈ la → lookupK p.1 lb ≠ none) →
    List.length lb ≤ List.length la → ∀ q, q ∈ lb → lookupK q.1 la ≠ none
  | [], lb, _, _, hl, q, hq => by
    cases lb with
    | nil => cases hq
    | cons b bs =>
      rw [List.length_cons] at hl
      exact absurd hl (Nat.notSuccLeZero _)
  | p :: la, lb, ⟨hp, hn⟩, hsub, hl, q, hq => by
    have hpb : lookupK p.1 lb ≠ none := hsub p (Mem.head _)
    have hlen : List.length (eraseK p.1 lb) + 1 = List.length lb := lengthEraseK p.1 lb hpb
    have hl' : List.length (eraseK p.1 lb) ≤ List.length la := by
      have h2 : List.length (eraseK p.1 lb) + 1 ≤ List.length la + 1 := by
        rw [hlen]; rw [List.length_cons] at hl; exact hl
      exact Nat.leOfSuccLeSucc h2
    have hsub' : ∀ p', p' ∈ la → lookupK p'.1 (eraseK p.1 lb) ≠ none := by
      intro p' hm
      have hne : p'.1 ≠ p.1 := fun e => by
        rw [← e] at hp
        exact memLookupNotNone hm hp
      rw [lookupEraseK hne]
      exact hsub p' (Mem.tail _ hm)
    cases decEq q.1 p.1 with
    | isTrue e =>
      have e2 : lookupK q.1 (p :: la) = some p.2 := ifPos e
      rw [e2]; exact fun h => nomatch h
    | isFalse e =>
      have e2 : lookupK q.1 (p :: la) = lookupK q.1 la := ifNeg e
      rw [e2]
      exact keysCover la (eraseK p.1 lb) hn hsub' hl' q (memEraseK e hq)

/-- `JEq` is symmetric on values whose objects have distinct keys. -/
theorem jeqSymmetric {a b : Json} (h : JEq a b) : KeysDistinct a → KeysDistinct b → JEq b a := by
  induction h with
  | null => intro _ _; exact JEq.null
  | bool x => intro _ _; exact JEq.bool x
  | num x y hxy => intro _ _; exact JEq.num y x (by
      -- cross-multiplied equality, read the other way round
      have e : x.mantissa * pow10 y.exponent = y.mantissa * pow10 x.exponent := ofDecideEqTrue hxy
      exact decideEqTrue e.symm)
  | str s => intro _ _; exact JEq.str s
  | arr x y hl hp ih =>
    intro ka kb
    cases ka with
    | arr _ hx =>
      cases kb with
      | arr _ hy =>
        refine JEq.arr y x hl.symm (fun q hq => ?_)
        have hq' : (q.2, q.1) ∈ List.zip x.data y.data := memZipSwap hq
        exact ih (q.2, q.1) hq' (hx q.2 (memZipFst hq')) (hy q.1 (memZipFst hq))
  | obj x y hl hdom hp ih =>
    intro ka kb
    cases ka with
    | obj _ nx vx =>
      cases kb with
      | obj _ ny vy =>
        have hcov := keysCover (pairs x) (pairs y) nx (fun p hm => by
          cases p with
          | mk k v => exact hdom k v hm) (by rw [hl]; exact Nat.leRefl _)
        refine JEq.obj y x hl.symm (fun k w hm => hcov (k, w) hm) (fun k w v hm hv => ?_)
        have hmx : (k, v) ∈ pairs x := lookupKSome hv
        have hw : lookupK k (pairs y) = some w := lookupKOfMem ny hm
        exact ih k v w hmx hw (vx k v hmx) (vy k w hm)

/-- `jeq` is symmetric on values whose objects have distinct keys, the right one below the fuel. -/
theorem jeqSymm {m : Nat} {a b : Json} (hb : Depth m b) (hm : m < jsonFuel) (ka : KeysDistinct a) (kb : KeysDistinct b)
    (h : jeq a b = true) : jeq b a = true :=
  (jeqIff hb hm a).2 (jeqSymmetric (jeqFSound jsonFuel a b h) ka kb)


-- transitivity ---------------------------------------------------------------------------------

/-- `10^n` as a natural number: `pow10 n` is its image in `Int` (`pow10Nat`). -/
def p10 : Nat → Nat
  | 0 => 1
  | n + 1 => 10 * p10 n

theorem pow10Nat : ∀ (n : Nat), pow10 n = Int.ofNat (p10 n)
  | 0 => rfl
  | n + 1 => by
    show 10 * pow10 n = Int.ofNat (10 * p10 n)
    rw [pow10Nat n]
    rfl

theorem p10Pos : ∀ (n : Nat), ∃ q, p10 n = q + 1
  | 0 => ⟨0, rfl⟩
  | n + 1 => by
    have ⟨q, hq⟩ := p10Pos n
    refine ⟨10 * q + 9, ?_⟩
    show 10 * p10 n = 10 * q + 9 + 1
    rw [hq, Nat.mul_succ]

/-- The sign class of an integer: zero, positive or negative. -/
def cls : Int → Nat
  | Int.ofNat 0 => 0
  | Int.ofNat (_ + 1) => 1
  | Int.negSucc _ => 2

/-- An integer is its sign class and its absolute value. -/
theorem intExt : ∀ (x y : Int), cls x = cls y → Int.natAbs x = Int.natAbs y → x = y
  | Int.ofNat a, Int.ofNat b, _, h => congrArg Int.ofNat h
  | Int.negSucc a, Int.negSucc b, _, h => congrArg Int.negSucc (Nat.succ.inj h)
  | Int.ofNat 0, Int.negSucc _, h, _ => by cases h
  | Int.ofNat (_ + 1), Int.negSucc _, h, _ => by cases h
  | Int.negSucc _, Int.ofNat 0, h, _ => by cases h
  | Int.negSucc _, Int.ofNat (_ + 1), h, _ => by cases h

/-- Multiplying by a positive natural number keeps the sign class and scales the absolute value. -/
theorem mulPos : ∀ (x : Int) (k : Nat), cls (x * Int.ofNat (k + 1)) = cls x ∧
    Int.natAbs (x * Int.ofNat (k + 1)) = Int.natAbs x * (k + 1)
  | Int.ofNat 0, k => by
    have e : Int.ofNat 0 * Int.ofNat (k + 1) = Int.ofNat (0 * (k + 1)) := rfl
    rw [e, Nat.zero_mul]
    exact ⟨rfl, (Nat.zero_mul (k + 1)).symm⟩
  | Int.ofNat (a + 1), k => by
    have e : Int.ofNat (a + 1) * Int.ofNat (k + 1) = Int.ofNat ((a + 1) * (k + 1)) := rfl
    have e2 : (a + 1) * (k + 1) = ((a + 1) * k + a) + 1 := by rw [Nat.mul_succ]; rfl
    rw [e, e2]
    exact ⟨rfl, rfl⟩
  | Int.negSucc a, k => by
    have e : Int.negSucc a * Int.ofNat (k + 1) = Int.negOfNat (Nat.succ a * (k + 1)) := rfl
    have e2 : Nat.succ a * (k + 1) = (Nat.succ a * k + a) + 1 := by rw [Nat.mul_succ]; rfl
    rw [e, e2]
    exact ⟨rfl, rfl⟩

theorem mulRightCancel (q : Nat) : ∀ (m k : Nat), m * (q + 1) = k * (q + 1) → m = k
  | 0, 0, _ => rfl
  | 0, k + 1, h => by
    rw [Nat.zero_mul, Nat.succ_mul] at h
    exact Nat.noConfusion h
  | m + 1, 0, h => by
    rw [Nat.zero_mul, Nat.succ_mul] at h
    exact Nat.noConfusion h
  | m + 1, k + 1, h => by
    rw [Nat.succ_mul, Nat.succ_mul] at h
    rw [mulRightCancel q m k (Nat.add_right_cancel h)]

theorem swap23 (x y z : Nat) : x * y * z = x * z * y := by
  rw [Nat.mul_assoc, Nat.mul_comm y z, ← Nat.mul_assoc]

/-- The number clause of `JEq` read in sign classes and natural numbers. -/
theorem numEqNat {a b : JsonNumber} (h : numEq a b = true) :
    cls a.mantissa = cls b.mantissa ∧
    Int.natAbs a.mantissa * p10 b.exponent = Int.natAbs b.mantissa * p10 a.exponent := by
  have e : a.mantissa * pow10 b.exponent = b.mantissa * pow10 a.exponent := ofDecideEqTrue h
  rw [pow10Nat, pow10Nat] at e
  have ⟨qa, hqa⟩ := p10Pos a.exponent
  have ⟨qb, hqb⟩ := p10Pos b.exponent
  rw [hqa, hqb] at e
  rw [hqa, hqb]
  have ⟨ca, na⟩ := mulPos a.mantissa qb
  have ⟨cb, nb⟩ := mulPos b.mantissa qa
  rw [e] at ca na
  exact ⟨ca.symm.trans cb, na.symm.trans nb⟩

theorem numEqOfNat {a b : JsonNumber} (hc : cls a.mantissa = cls b.mantissa)
    (hn : Int.natAbs a.mantissa * p10 b.exponent = Int.natAbs b.mantissa * p10 a.exponent) : numEq a b = true := by
  have ⟨qa, hqa⟩ := p10Pos a.exponent
  have ⟨qb, hqb⟩ := p10Pos b.exponent
  have ⟨ca, na⟩ := mulPos a.mantissa qb
  have ⟨cb, nb⟩ := mulPos b.mantissa qa
  rw [hqa, hqb] at hn
  have e : a.mantissa * pow10 b.exponent = b.mantissa * pow10 a.exponent := by
    rw [pow10Nat, pow10Nat, hqa, hqb]
    exact intExt _ _ (ca.trans (hc.trans cb.symm)) (na.trans (hn.trans nb.symm))
  exact decideEqTrue e

/-- Number equality is transitive: cross-multiplied equalities compose, cancelling the middle
number's power of ten (positive). -/
theorem numEqTrans {a b c : JsonNumber} (hab : numEq a b = true) (hbc : numEq b c = true) : numEq a c = true := by
  have ⟨c1, n1⟩ := numEqNat hab
  have ⟨c2, n2⟩ := numEqNat hbc
  have ⟨qb, hqb⟩ := p10Pos b.exponent
  refine numEqOfNat (c1.trans c2) (mulRightCancel qb _ _ ?_)
  rw [← hqb]
  have s1 : Int.natAbs a.mantissa * p10 c.exponent * p10 b.exponent
      = Int.natAbs b.mantissa * p10 a.exponent * p10 c.exponent := by rw [swap23, n1]
  have s2 : Int.natAbs b.mantissa * p10 a.exponent * p10 c.exponent
      = Int.natAbs c.mantissa * p10 b.exponent * p10 a.exponent := by rw [swap23, n2]
  have s3 : Int.natAbs c.mantissa * p10 b.exponent * p10 a.exponent
      = Int.natAbs c.mantissa * p10 a.exponent * p10 b.exponent := swap23 _ _ _
  exact s1.trans (s2.trans s3)

/-- Pairs of two zips over lists of one length meet in the middle list at the same position. -/
theorem memZipTrans {α : Type} : ∀ {l m r : List α}, List.length l = List.length m → List.length m = List.length r →
    ∀ (p : α × α), p ∈ List.zip l r → ∃ y, (p.1, y) ∈ List.zip l m ∧ (y, p.2) ∈ List.zip m r
  | [], _, _, _, _, p, h => nomatch h
  | a :: l, [], _, h1, _, _, _ => by
    have e : List.length ([] : List α) = 0 := rfl
    rw [List.length_cons, e] at h1
    exact Nat.noConfusion h1
  | a :: l, b :: m, [], _, h2, _, _ => by
    have e : List.length ([] : List α) = 0 := rfl
    rw [List.length_cons, e] at h2
    exact Nat.noConfusion h2
  | a :: l, b :: m, c :: r, h1, h2, p, h => by
    have h' : p ∈ (a, c) :: List.zip l r := h
    cases h' with
    | head _ => exact ⟨b, Mem.head _, Mem.head _⟩
    | tail _ t =>
      rw [List.length_cons, List.length_cons] at h1 h2
      have ⟨y, hy1, hy2⟩ := memZipTrans (Nat.succ.inj h1) (Nat.succ.inj h2) p t
      exact ⟨y, Mem.tail _ hy1, Mem.tail _ hy2⟩

/-- `JEq` is transitive, on every pair of values (no distinct-keys condition is needed: the middle
object's binding of a key is the one both comparisons read). -/
theorem jeqTransitive {a b : Json} (h : JEq a b) : ∀ (c : Json), JEq b c → JEq a c := by
  induction h with
  | null => intro c h2; exact h2
  | bool x => intro c h2; exact h2
  | num x y hxy => intro c h2; cases h2 with
    | num _ z hyz => exact JEq.num x z (numEqTrans hxy hyz)
  | str s => intro c h2; exact h2
  | arr x y hl hp ih => intro c h2; cases h2 with
    | arr _ z hl2 hp2 =>
      refine JEq.arr x z (hl.trans hl2) (fun p hpm => ?_)
      have ⟨w, m1, m2⟩ := memZipTrans hl hl2 p hpm
      exact ih (p.1, w) m1 p.2 (hp2 (w, p.2) m2)
  | obj x y hl hdom hp ih => intro c h2; cases h2 with
    | obj _ z hl2 hdom2 hp2 =>
      refine JEq.obj x z (hl.trans hl2) (fun k v hm => ?_) (fun k v u hm hu => ?_)
      · cases hw : lookupK k (pairs y) with
        | none => exact absurd hw (hdom k v hm)
        | some w => exact hdom2 k w (lookupKSome hw)
      · cases hw : lookupK k (pairs y) with
        | none => exact absurd hw (hdom k v hm)
        | some w => exact ih k v w hm hw u (hp2 k w u (lookupKSome hw) hu)

/-- `JEq` is an equivalence on JSON values (objects with distinct keys, which every JSON object has):
reflexive, symmetric and transitive. -/
theorem jeqEquivalence : (∀ a, KeysDistinct a → JEq a a) ∧
    (∀ a b, KeysDistinct a → KeysDistinct b → JEq a b → JEq b a) ∧
    (∀ a b c, JEq a b → JEq b c → JEq a c) :=
  ⟨fun _ h => jeqReflexive h, fun _ _ ka kb h => jeqSymmetric h ka kb, fun _ _ c h1 h2 => jeqTransitive h1 c h2⟩

/-- `jeq` is transitive on values below the fuel (the left one bounds the answer's depth). -/
theorem jeqTrans {n : Nat} {a b c : Json} (ha : Depth n a) (hn : n < jsonFuel)
    (h1 : jeq a b = true) (h2 : jeq b c = true) : jeq a c = true :=
  (jeqIff ha hn c).2 (jeqTransitive (jeqFSound jsonFuel a b h1) c (jeqFSound jsonFuel b c h2))

-- every value has a depth -------------------------------------------------------------------

theorem depthMono {n : Nat} {v : Json} (h : Depth n v) : ∀ m, n ≤ m → Depth m v := by
  induction h with
  | null n => intro m _; exact Depth.null m
  | bool n b => intro m _; exact Depth.bool m b
  | num n x => intro m _; exact Depth.num m x
  | str n s => intro m _; exact Depth.str m s
  | arr n a _ ih =>
    intro m hm
    cases m with
    | zero => cases hm
    | succ m => exact Depth.arr m a (fun x hx => ih x hx m (Nat.leOfSuccLeSucc hm))
  | obj n kvs _ ih =>
    intro m hm
    cases m with
    | zero => cases hm
    | succ m => exact Depth.obj m kvs (fun k v hx => ih k v hx m (Nat.leOfSuccLeSucc hm))

/-- An object's pairs as `pairs` collects them. -/
abbrev PairsAcc := List (String × Json)

def consKV (acc : PairsAcc) (k : String) (v : Json) : PairsAcc := (k, v) :: acc

/-- Every JSON value nests to some finite depth (by the recursor of the nested inductive, which
proofs can use though the code generator cannot). -/
theorem depthExists (v : Json) : ∃ n, Depth n v :=
  @Json.rec
    (fun v => ∃ n, Depth n v)
    (fun a => ∃ n, ∀ x, x ∈ a.data → Depth n x)
    (fun t => ∃ n, ∀ (acc : PairsAcc) m, (∀ x, x ∈ acc → Depth m x.2) → n ≤ m →
      ∀ x, x ∈ Std.RBNode.fold consKV acc t → Depth m x.2)
    (fun l => ∃ n, ∀ x, x ∈ l → Depth n x)
    ⟨0, Depth.null 0⟩
    (fun b => ⟨0, Depth.bool 0 b⟩)
    (fun x => ⟨0, Depth.num 0 x⟩)
    (fun s => ⟨0, Depth.str 0 s⟩)
    (fun a ⟨n, h⟩ => ⟨n + 1, Depth.arr n a h⟩)
    (fun kvs ⟨n, h⟩ => ⟨n + 1, Depth.obj n kvs (fun k v hm =>
      h [] n (fun x hx => nomatch hx) (Nat.leRefl n) (k, v) hm)⟩)
    (fun data ⟨n, h⟩ => ⟨n, h⟩)
    ⟨0, fun acc m hacc _ x hx => hacc x hx⟩
    (fun c l k v r ⟨nl, hl⟩ ⟨nv, hv⟩ ⟨nr, hr⟩ => ⟨nl + nv + nr, fun acc m hacc hm x hx => by
      have hlm : nl ≤ m := Nat.leTrans (Nat.leTrans (Nat.leAddRight nl nv) (Nat.leAddRight _ nr)) hm
      have hvm : nv ≤ m := Nat.leTrans (Nat.leTrans (Nat.leAddLeft nv nl) (Nat.leAddRight _ nr)) hm
      have hrm : nr ≤ m := Nat.leTrans (Nat.leAddLeft nr (nl + nv)) hm
      have e : Std.RBNode.fold consKV acc (Std.RBNode.node c l k v r) =
          Std.RBNode.fold consKV (consKV (Std.RBNode.fold consKV acc l) k v) r := rfl
      rw [e] at hx
      refine hr _ m (fun y hy => ?_) hrm x hx
      cases hy with
      | head _ => exact depthMono hv m hvm
      | tail _ t => exact hl acc m hacc hlm y t⟩)
    ⟨0, fun x hx => nomatch hx⟩
    (fun hd tl ⟨nh, hh⟩ ⟨nt, ht⟩ => ⟨nh + nt, fun x hx => by
      cases hx with
      | head _ => exact depthMono hh _ (Nat.leAddRight nh nt)
      | tail _ t => exact depthMono (ht x t) _ (Nat.leAddLeft nt nh)⟩)
    v

/-- For every value, every fuel beyond its depth makes `jeqF` decide `JEq` against any value: the
fuel-bounded equality converges to the declarative one on each value; `jeq`'s fixed fuel does so for
every value nesting less deep than `jsonFuel` (`jeqIff`). -/
theorem jeqDecidesEventually (a : Json) : ∃ n, ∀ m b, n < m → (jeqF m a b = true ↔ JEq a b) :=
  match depthExists a with
  | ⟨n, hd⟩ => ⟨n, fun m b hm => ⟨jeqFSound m a b, jeqFComplete hd m b hm⟩⟩

-- the fuel bound is sharp ------------------------------------------------------------------------

/-- `[[…[null]…]]`, `n` arrays of one element deep: the family on which a fixed fuel runs out. -/
def nestedNull : Nat → Json
  | 0 => Json.null
  | n + 1 => Json.arr ⟨[nestedNull n]⟩

theorem nestedNullDepth : ∀ (n : Nat), Depth n (nestedNull n)
  | 0 => Depth.null 0
  | n + 1 => Depth.arr n ⟨[nestedNull n]⟩ (fun x hx => by
      cases hx with
      | head _ => exact nestedNullDepth n
      | tail _ t => cases t)

/-- `nestedNull n` nests no less deep than `n`: every depth it has is at least `n`. -/
theorem nestedNullDeep : ∀ (n m : Nat), Depth m (nestedNull n) → n ≤ m
  | 0, m, _ => Nat.zeroLe m
  | n + 1, m, h => by
    cases h with
    | arr k _ hx => exact Nat.succLeSucc (nestedNullDeep n k (hx (nestedNull n) (Mem.head _)))

theorem nestedNullJEq : ∀ (n : Nat), JEq (nestedNull n) (nestedNull n)
  | 0 => JEq.null
  | n + 1 => JEq.arr ⟨[nestedNull n]⟩ ⟨[nestedNull n]⟩ rfl (fun p hp => by
      cases hp with
      | head _ => exact nestedNullJEq n
      | tail _ t => cases t)

theorem nestedNullJeqF : ∀ (n : Nat), jeqF n (nestedNull n) (nestedNull n) = false
  | 0 => rfl
  | n + 1 => by
    show (decide (1 = 1) && allB (fun p => jeqF n p.1 p.2) [(nestedNull n, nestedNull n)]) = false
    have e : allB (fun (p : Json × Json) => jeqF n p.1 p.2) [(nestedNull n, nestedNull n)] = false := by
      simp [allB, nestedNullJeqF n]
    rw [e]
    cases decide (1 = 1) <;> rfl

/-- The depth bound of `jeqIff` is sharp, for every fuel: fuel `n` decides `JEq` on every value
nesting less deep than `n` (`jeqFComplete`, `jeqFSound`) and answers "unequal" on a value that nests
exactly `n` deep and is `JEq` to itself. -/
theorem jeqFuelSharp (n : Nat) : Depth n (nestedNull n) ∧ (∀ m, Depth m (nestedNull n) → n ≤ m) ∧
    JEq (nestedNull n) (nestedNull n) ∧ jeqF n (nestedNull n) (nestedNull n) = false :=
  ⟨nestedNullDepth n, nestedNullDeep n, nestedNullJEq n, nestedNullJeqF n⟩

/-- No fixed fuel makes `jeqF` decide `JEq` on every pair of values. -/
theorem jeqFNotTotal (n : Nat) : ¬ (∀ a b, jeqF n a b = true ↔ JEq a b) := fun h => by
  have t := (h (nestedNull n) (nestedNull n)).2 (nestedNullJEq n)
  rw [nestedNullJeqF n] at t
  cases t

/-- `jeq` does not decide `JEq` on every pair of values: `nestedNull jsonFuel` is `JEq` to itself and
`jeq` answers "unequal". The statement "`jeq a b = true ↔ JEq a b` for all `a b`" is false of the
deployed definition, not merely unproved; the depth hypothesis of `jeqIff` cannot be dropped. -/
theorem jeqNotTotal : ¬ (∀ a b, jeq a b = true ↔ JEq a b) := by
  -- through the equation, not by unfolding: elaborating `jeq (nestedNull jsonFuel) _` against
  -- `jeqF jsonFuel _ _` directly exhausts the recursion depth
  have d : jeq = jeqF jsonFuel := rfl
  rw [d]
  exact jeqFNotTotal jsonFuel

end AgentWarrant.Monitor.Full
