import AgentWarrant.Spec.Monitor.RegistrationSchema
import AgentWarrant.Thm.Monitor.Registration
/-! The structural checks decide the schema's meaning: for every definition of
`corpus/schemas/policy.schema.json`, the checker reports no place exactly when the value meets the
definition's meaning (`Sound`), and so `schemaOk` decides `PolicySchema` for every JSON value
(`policySchemaIff`). Each keyword's checker is proved against its meaning once (`objSound`, `arrSound`,
`varSound`, `reGoIff`, ...); a definition's theorem only assembles them. -/
namespace AgentWarrant.Monitor.Full.Schema
open Lean AgentWarrant AgentWarrant.Monitor AgentWarrant.Monitor.Full

/-- A checker reports no place exactly when the value meets the meaning, whatever the path. -/
def Sound (c : Chk) (S : Json → Prop) : Prop := ∀ path j, c path j = [] ↔ S j

-- lists -----------------------------------------------------------------------------------------

theorem appendNil {α : Type} : ∀ (a b : List α), a ++ b = [] ↔ a = [] ∧ b = []
  | [], b => by rw [List.nil_append]; exact ⟨fun h => ⟨rfl, h⟩, fun h => h.2⟩
  | x :: a, b => by rw [List.cons_append]; exact ⟨fun h => List.noConfusion h, fun h => List.noConfusion h.1⟩

theorem singleNe {α : Type} (p : α) : [p] = [] ↔ False := ⟨fun h => List.noConfusion h, fun h => False.elim h⟩

theorem ifNil (b : Bool) (p : Path) : (if b then [] else [p]) = [] ↔ b = true := by
  cases b with
  | true => exact ⟨fun _ => rfl, fun _ => rfl⟩
  | false => exact ⟨fun h => List.noConfusion h, fun h => Bool.noConfusion h⟩

theorem orHereNe (p : Path) : ∀ (l : List Path), orHere p l = [] ↔ False
  | [] => singleNe p
  | x :: l => ⟨fun h => List.noConfusion h, fun h => False.elim h⟩

theorem ifOrHere (b : Bool) (p : Path) (l : List Path) : (if b then [] else orHere p l) = [] ↔ b = true := by
  cases b with
  | true => exact ⟨fun _ => rfl, fun _ => rfl⟩
  | false => exact ⟨fun h => False.elim ((orHereNe p l).1 h), fun h => Bool.noConfusion h⟩

theorem catNil {α : Type} (f : α → List Path) : ∀ (l : List α), cat f l = [] ↔ ∀ x, x ∈ l → f x = []
  | [] => ⟨fun _ _ h => nomatch h, fun _ => rfl⟩
  | a :: l => by
    show f a ++ cat f l = [] ↔ _
    rw [appendNil, catNil f l]
    refine Iff.intro (fun ⟨ha, hl⟩ x hx => ?_) (fun h => ⟨h a (Mem.head _), fun x hx => h x (Mem.tail _ hx)⟩)
    cases hx with
    | head _ => exact ha
    | tail _ t => exact hl x t

theorem catINil (f : Nat → Json → List Path) (P : Json → Prop) (hf : ∀ i x, f i x = [] ↔ P x) :
    ∀ (l : List Json) (n : Nat), catI f n l = [] ↔ ∀ x, x ∈ l → P x
  | [], n => ⟨fun _ _ h => nomatch h, fun _ => rfl⟩
  | a :: l, n => by
    show f n a ++ catI f (n + 1) l = [] ↔ _
    rw [appendNil, hf, catINil f P hf l (n + 1)]
    refine Iff.intro (fun ⟨ha, hl⟩ x hx => ?_) (fun h => ⟨h a (Mem.head _), fun x hx => h x (Mem.tail _ hx)⟩)
    cases hx with
    | head _ => exact ha
    | tail _ t => exact hl x t

theorem anyIff {α : Type} (f : α → Bool) : ∀ (l : List α), List.any l f = true ↔ ∃ x, x ∈ l ∧ f x = true
  | [] => ⟨fun h => Bool.noConfusion h, fun ⟨_, h, _⟩ => nomatch h⟩
  | a :: l => by
    have e : List.any (a :: l) f = (f a || List.any l f) := rfl
    rw [e, orIff, anyIff f l]
    refine Iff.intro (fun h => ?_) (fun ⟨x, hx, fx⟩ => ?_)
    · cases h with
      | inl h => exact ⟨a, Mem.head _, h⟩
      | inr h => have ⟨x, hx, fx⟩ := h; exact ⟨x, Mem.tail _ hx, fx⟩
    · cases hx with
      | head _ => exact Or.inl fx
      | tail _ t => exact Or.inr ⟨x, t, fx⟩

theorem isEmptyIff {α : Type} : ∀ (l : List α), l.isEmpty = true ↔ l = []
  | [] => ⟨fun _ => rfl, fun _ => rfl⟩
  | a :: l => ⟨fun h => Bool.noConfusion h, fun h => List.noConfusion h⟩

theorem hasKeyIff (l : List (String × Json)) (k : String) : hasKey l k = true ↔ ∃ v, (k, v) ∈ l := by
  show List.any l _ = true ↔ _
  rw [anyIff]
  refine Iff.intro (fun ⟨q, hq, e⟩ => ?_) (fun ⟨v, hv⟩ => ⟨(k, v), hv, strBeqSelf k⟩)
  cases q with
  | mk k' v => have e' : k' = k := strEqOfBeq e; rw [← e']; exact ⟨v, hq⟩

theorem uniqSDistinct : ∀ (l : List String), uniqS l = true ↔ DistinctL l
  | [] => ⟨fun _ => trivial, fun _ => rfl⟩
  | x :: l => by
    have e : uniqS (x :: l) = (!memS x l && uniqS l) := rfl
    rw [e, andIff, notIff, falseIffNot (memSIff x l), uniqSDistinct l]
    exact Iff.rfl

theorem decideIff (p : Prop) [Decidable p] : Decidable.decide p = true ↔ p := ⟨ofDecideEqTrue, decideEqTrue⟩

theorem charEqOfBeq {a b : Char} (h : (a == b) = true) : a = b := ofDecideEqTrue h
theorem charBeqSelf (a : Char) : (a == a) = true := decideEqTrue rfl

-- the schema's table of properties ---------------------------------------------------------------

/-- The checkers and the meanings name the same keys in the same order, each checker deciding its
meaning. -/
def Rel : List (String × Chk) → List (String × (Json → Prop)) → Prop
  | [], [] => True
  | a :: cs, b :: ss => a.1 = b.1 ∧ Sound a.2 b.2 ∧ Rel cs ss
  | [], _ :: _ => False
  | _ :: _, [] => False

theorem relNil : Rel [] [] := trivial

theorem relCons {k : String} {c : Chk} {S : Json → Prop} {cs : List (String × Chk)} {ss : List (String × (Json → Prop))}
    (h : Sound c S) (r : Rel cs ss) : Rel ((k, c) :: cs) ((k, S) :: ss) := And.intro rfl (And.intro h r)

theorem lookupRel (k : String) : ∀ (cs : List (String × Chk)) (ss : List (String × (Json → Prop))), Rel cs ss →
    (lookupF k cs = none ∧ lookupF k ss = none) ∨ ∃ c S, lookupF k cs = some c ∧ lookupF k ss = some S ∧ Sound c S
  | [], [], _ => Or.inl ⟨rfl, rfl⟩
  | [], _ :: _, r => False.elim r
  | _ :: _, [], r => False.elim r
  | a :: cs, b :: ss, r => by
    have ⟨e, hs, r'⟩ := r
    have e1 : lookupF k (a :: cs) = (match a.1 == k with | true => some a.2 | false => lookupF k cs) := rfl
    have e2 : lookupF k (b :: ss) = (match b.1 == k with | true => some b.2 | false => lookupF k ss) := rfl
    rw [e1, e2, ← e]
    cases (a.1 == k) with
    | true => exact Or.inr ⟨a.2, b.2, rfl, rfl, hs⟩
    | false => exact lookupRel k cs ss r'

-- keywords --------------------------------------------------------------------------------------

theorem objSound (req : List String) {cs : List (String × Chk)} {ss : List (String × (Json → Prop))}
    (r : Rel cs ss) : Sound (objE req cs) (ObjS req ss) := by
  intro path j
  cases j with
  | obj kvs =>
    show (if req.all (hasKey (pairs kvs)) then [] else [path]) ++ cat _ (pairs kvs) = [] ↔ _
    rw [appendNil, ifNil, allIff, catNil]
    have hreq : (∀ k, k ∈ req → hasKey (pairs kvs) k = true) ↔ ∀ k, k ∈ req → ∃ v, (k, v) ∈ pairs kvs :=
      ⟨fun h k hk => (hasKeyIff _ k).1 (h k hk), fun h k hk => (hasKeyIff _ k).2 (h k hk)⟩
    have hfield : ∀ (k : String) (v : Json), (match lookupF k cs with
        | some c => c (path ++ [k]) v
        | none => [path]) = [] ↔ ∃ S, lookupF k ss = some S ∧ S v := by
      intro k v
      cases lookupRel k cs ss r with
      | inl h => rw [h.1, h.2]; exact ⟨fun e => List.noConfusion e, fun ⟨_, e, _⟩ => Option.noConfusion e⟩
      | inr h =>
        have ⟨c, S, hc, hS, hs⟩ := h
        rw [hc, hS]
        exact ⟨fun e => ⟨S, rfl, (hs _ v).1 e⟩, fun ⟨S', e, h'⟩ => (hs _ v).2 (by cases e; exact h')⟩
    rw [hreq]
    constructor
    · intro ⟨h1, h2⟩
      exact ⟨kvs, rfl, h1, fun k v hq => (hfield k v).1 (h2 (k, v) hq)⟩
    · intro ⟨kvs', e, h1, h2⟩
      cases e
      refine ⟨h1, fun q hq => ?_⟩
      cases q with
      | mk k v => exact (hfield k v).2 (h2 k v hq)
  | null => exact ⟨fun h => List.noConfusion h, fun ⟨_, e, _⟩ => Json.noConfusion e⟩
  | bool b => exact ⟨fun h => List.noConfusion h, fun ⟨_, e, _⟩ => Json.noConfusion e⟩
  | num x => exact ⟨fun h => List.noConfusion h, fun ⟨_, e, _⟩ => Json.noConfusion e⟩
  | str s => exact ⟨fun h => List.noConfusion h, fun ⟨_, e, _⟩ => Json.noConfusion e⟩
  | arr a => exact ⟨fun h => List.noConfusion h, fun ⟨_, e, _⟩ => Json.noConfusion e⟩

theorem arrSound (ne u : Bool) {item : Chk} {S : Json → Prop} (h : Sound item S) :
    Sound (arrE ne u item) (ArrS ne u S) := by
  intro path j
  cases j with
  | arr a =>
    show (if (!ne || !a.toList.isEmpty) && (!u || uniqS (strsJ a.toList)) then [] else [path]) ++
      catI (fun i x => item (path ++ [toString i]) x) 0 a.toList = [] ↔ _
    rw [appendNil, ifNil, andIff, catINil _ S (fun i x => h _ x)]
    have hne : (!ne || !a.toList.isEmpty) = true ↔ (ne = true → a.toList ≠ []) := by
      cases ne with
      | false => exact ⟨fun _ e => Bool.noConfusion e, fun _ => rfl⟩
      | true =>
        show (!a.toList.isEmpty) = true ↔ _
        rw [nonEmptyIff]
        exact ⟨fun h _ => h, fun h => h rfl⟩
    have hu : (!u || uniqS (strsJ a.toList)) = true ↔ (u = true → DistinctL (strsJ a.toList)) := by
      cases u with
      | false => exact ⟨fun _ e => Bool.noConfusion e, fun _ => rfl⟩
      | true =>
        show uniqS (strsJ a.toList) = true ↔ _
        rw [uniqSDistinct]
        exact ⟨fun h _ => h, fun h => h rfl⟩
    rw [hne, hu]
    constructor
    · intro ⟨⟨h1, h2⟩, h3⟩
      exact ⟨a, rfl, h1, h2, h3⟩
    · intro ⟨a', e, h1, h2, h3⟩
      cases e
      exact ⟨⟨h1, h2⟩, h3⟩
  | null => exact ⟨fun h => List.noConfusion h, fun ⟨_, e, _⟩ => Json.noConfusion e⟩
  | bool b => exact ⟨fun h => List.noConfusion h, fun ⟨_, e, _⟩ => Json.noConfusion e⟩
  | num x => exact ⟨fun h => List.noConfusion h, fun ⟨_, e, _⟩ => Json.noConfusion e⟩
  | str s => exact ⟨fun h => List.noConfusion h, fun ⟨_, e, _⟩ => Json.noConfusion e⟩
  | obj kvs => exact ⟨fun h => List.noConfusion h, fun ⟨_, e, _⟩ => Json.noConfusion e⟩

theorem varOkIff {cs : List (String × Chk)} {ss : List (String × (Json → Prop))} (r : Rel cs ss) (j : Json) :
    varOk cs j = true ↔ VarS ss j := by
  cases j with
  | obj kvs =>
    show List.any (pairs kvs) _ = true ↔ _
    rw [anyIff]
    constructor
    · intro ⟨q, hq, hb⟩
      cases q with
      | mk k v =>
        have ⟨hk, hv⟩ := andIff.1 hb
        have ek : k = "kind" := strEqOfBeq hk
        cases v with
        | str s =>
          have hv2 : (match lookupF s cs with
            | some c => List.isEmpty (c [] (Json.obj kvs))
            | none => false) = true := hv
          cases lookupRel s cs ss r with
          | inl h => rw [h.1] at hv2; exact Bool.noConfusion hv2
          | inr h =>
            have ⟨c, S, hc, hS, hs⟩ := h
            have hv : List.isEmpty (c [] (Json.obj kvs)) = true := by rw [hc] at hv2; exact hv2
            rw [ek] at hq
            exact ⟨kvs, s, S, rfl, hq, hS, (hs [] _).1 ((isEmptyIff _).1 hv)⟩
        | null => exact Bool.noConfusion hv
        | bool _ => exact Bool.noConfusion hv
        | num _ => exact Bool.noConfusion hv
        | arr _ => exact Bool.noConfusion hv
        | obj _ => exact Bool.noConfusion hv
    · intro ⟨kvs', s, S, e, hq, hS, hj⟩
      cases e
      refine ⟨("kind", Json.str s), hq, ?_⟩
      show ("kind" == "kind" && _) = true
      rw [strBeqSelf]
      show (match lookupF s cs with
        | some c => (c [] (Json.obj kvs)).isEmpty
        | none => false) = true
      cases lookupRel s cs ss r with
      | inl h => rw [h.2] at hS; exact Option.noConfusion hS
      | inr h =>
        have ⟨c, S', hc, hS', hs⟩ := h
        rw [hc]
        rw [hS'] at hS
        have eS : S' = S := Option.some.inj hS
        rw [← eS] at hj
        exact (isEmptyIff _).2 ((hs [] _).2 hj)
  | null => exact ⟨fun h => Bool.noConfusion h, fun ⟨_, _, _, e, _⟩ => Json.noConfusion e⟩
  | bool b => exact ⟨fun h => Bool.noConfusion h, fun ⟨_, _, _, e, _⟩ => Json.noConfusion e⟩
  | num x => exact ⟨fun h => Bool.noConfusion h, fun ⟨_, _, _, e, _⟩ => Json.noConfusion e⟩
  | str x => exact ⟨fun h => Bool.noConfusion h, fun ⟨_, _, _, e, _⟩ => Json.noConfusion e⟩
  | arr a => exact ⟨fun h => Bool.noConfusion h, fun ⟨_, _, _, e, _⟩ => Json.noConfusion e⟩

theorem varSound {req : List String} {cs : List (String × Chk)} {ss : List (String × (Json → Prop))}
    (r : Rel cs ss) : Sound (varE req cs) (VarS ss) := by
  intro path j
  show (if varOk cs j then [] else orHere path (varDiag req cs path j)) = [] ↔ _
  rw [ifOrHere, varOkIff r]
  exact Iff.rfl

theorem andSound {c1 c2 : Chk} {S1 S2 : Json → Prop} (h1 : Sound c1 S1) (h2 : Sound c2 S2) :
    Sound (fun p j => c1 p j ++ c2 p j) (fun j => S1 j ∧ S2 j) := by
  intro path j
  show c1 path j ++ c2 path j = [] ↔ _
  rw [appendNil, h1, h2]
  exact Iff.rfl

theorem anySound : Sound (fun _ _ => []) (fun _ => True) := fun _ _ => ⟨fun _ => trivial, fun _ => rfl⟩

-- strings ---------------------------------------------------------------------------------------

theorem reGoIff (d : Bool) : ∀ (l : List Char), (reGo d false l = true ↔ ReRest d l) ∧
    (reGo d true l = true ↔ ∃ c cs, l = c :: cs ∧ identStart c = true ∧ ReRest d cs)
  | [] => ⟨⟨fun _ => ReRest.done, fun _ => rfl⟩, ⟨fun h => Bool.noConfusion h, fun ⟨_, _, e, _⟩ => List.noConfusion e⟩⟩
  | c :: cs => by
    have ih := reGoIff d cs
    constructor
    · have e : reGo d false (c :: cs) = ((c == '\n' && cs.isEmpty) || (identChar c && reGo d false cs) ||
          (d && c == '.' && reGo d true cs)) := rfl
      rw [e, orIff, orIff, andIff, andIff, andIff, andIff, isEmptyIff, ih.1, ih.2]
      constructor
      · intro h
        cases h with
        | inl h =>
          cases h with
          | inl h => have ⟨hc, hn⟩ := h; rw [charEqOfBeq hc, hn]; exact ReRest.newline
          | inr h => exact ReRest.char h.1 h.2
        | inr h =>
          have ⟨⟨hd, hc⟩, c', cs', ecs, hs, hr⟩ := h
          rw [charEqOfBeq hc, ecs]
          exact ReRest.dot hd hs hr
      · intro h
        cases h with
        | newline => exact Or.inl (Or.inl ⟨charBeqSelf _, rfl⟩)
        | char hc hr => exact Or.inl (Or.inr ⟨hc, hr⟩)
        | dot hd hs hr => exact Or.inr ⟨⟨hd, charBeqSelf _⟩, _, _, rfl, hs, hr⟩
    · have e : reGo d true (c :: cs) = (identStart c && reGo d false cs) := rfl
      rw [e, andIff, ih.1]
      exact ⟨fun ⟨h1, h2⟩ => ⟨c, cs, rfl, h1, h2⟩, fun ⟨c', cs', e', h1, h2⟩ => by
        cases e'
        exact ⟨h1, h2⟩⟩

theorem reMatchIff (d : Bool) (s : String) : reGo d true s.toList = true ↔ ReMatch d s :=
  (reGoIff d s.toList).2

theorem strSound (d : Bool) : Sound (strE d) (StrS d) := by
  intro path j
  cases j with
  | str s =>
    show (if reGo d true s.toList then [] else [path]) = [] ↔ _
    rw [ifNil, reMatchIff]
    exact ⟨fun h => ⟨s, rfl, h⟩, fun ⟨s', e, h⟩ => by cases e; exact h⟩
  | null => exact ⟨fun h => List.noConfusion h, fun ⟨_, e, _⟩ => Json.noConfusion e⟩
  | bool b => exact ⟨fun h => List.noConfusion h, fun ⟨_, e, _⟩ => Json.noConfusion e⟩
  | num x => exact ⟨fun h => List.noConfusion h, fun ⟨_, e, _⟩ => Json.noConfusion e⟩
  | arr a => exact ⟨fun h => List.noConfusion h, fun ⟨_, e, _⟩ => Json.noConfusion e⟩
  | obj kvs => exact ⟨fun h => List.noConfusion h, fun ⟨_, e, _⟩ => Json.noConfusion e⟩

theorem nameSound : Sound nameE NameS := strSound false
theorem dottedSound : Sound dottedE DottedS := strSound true

theorem enumSound (vals : List String) : Sound (enumE vals) (EnumS vals) := by
  intro path j
  cases j with
  | str s =>
    show (if memS s vals then [] else [path]) = [] ↔ _
    rw [ifNil, memSIff]
    exact ⟨fun h => ⟨s, rfl, h⟩, fun ⟨s', e, h⟩ => by cases e; exact h⟩
  | null => exact ⟨fun h => List.noConfusion h, fun ⟨_, e, _⟩ => Json.noConfusion e⟩
  | bool b => exact ⟨fun h => List.noConfusion h, fun ⟨_, e, _⟩ => Json.noConfusion e⟩
  | num x => exact ⟨fun h => List.noConfusion h, fun ⟨_, e, _⟩ => Json.noConfusion e⟩
  | arr a => exact ⟨fun h => List.noConfusion h, fun ⟨_, e, _⟩ => Json.noConfusion e⟩
  | obj kvs => exact ⟨fun h => List.noConfusion h, fun ⟨_, e, _⟩ => Json.noConfusion e⟩

theorem nameOrAnySound : Sound nameOrAnyE NameOrAnyS := by
  intro path j
  cases j with
  | str s =>
    show (if reGo false true s.toList || s == "*" then [] else [path]) = [] ↔ _
    rw [ifNil, orIff, reMatchIff]
    exact ⟨fun h => ⟨s, rfl, by cases h with
        | inl h => exact Or.inl h
        | inr h => exact Or.inr (strEqOfBeq h)⟩,
      fun ⟨s', e, h⟩ => by
        cases e
        cases h with
        | inl h => exact Or.inl h
        | inr h => rw [h]; exact Or.inr (strBeqSelf _)⟩
  | null => exact ⟨fun h => List.noConfusion h, fun ⟨_, e, _⟩ => Json.noConfusion e⟩
  | bool b => exact ⟨fun h => List.noConfusion h, fun ⟨_, e, _⟩ => Json.noConfusion e⟩
  | num x => exact ⟨fun h => List.noConfusion h, fun ⟨_, e, _⟩ => Json.noConfusion e⟩
  | arr a => exact ⟨fun h => List.noConfusion h, fun ⟨_, e, _⟩ => Json.noConfusion e⟩
  | obj kvs => exact ⟨fun h => List.noConfusion h, fun ⟨_, e, _⟩ => Json.noConfusion e⟩

theorem globSound : Sound (fun path j => match j with
    | Json.str _ => []
    | _ => [path]) (fun j => ∃ s, j = Json.str s) := by
  intro path j
  cases j with
  | str s => exact ⟨fun _ => ⟨s, rfl⟩, fun _ => rfl⟩
  | null => exact ⟨fun h => List.noConfusion h, fun ⟨_, e⟩ => Json.noConfusion e⟩
  | bool b => exact ⟨fun h => List.noConfusion h, fun ⟨_, e⟩ => Json.noConfusion e⟩
  | num x => exact ⟨fun h => List.noConfusion h, fun ⟨_, e⟩ => Json.noConfusion e⟩
  | arr a => exact ⟨fun h => List.noConfusion h, fun ⟨_, e⟩ => Json.noConfusion e⟩
  | obj kvs => exact ⟨fun h => List.noConfusion h, fun ⟨_, e⟩ => Json.noConfusion e⟩

-- scalars and numbers ---------------------------------------------------------------------------

theorem boolSound : Sound boolE BoolS := by
  intro path j
  cases j with
  | bool b => exact ⟨fun _ => ⟨b, rfl⟩, fun _ => rfl⟩
  | null => exact ⟨fun h => List.noConfusion h, fun ⟨_, e⟩ => Json.noConfusion e⟩
  | num x => exact ⟨fun h => List.noConfusion h, fun ⟨_, e⟩ => Json.noConfusion e⟩
  | str s => exact ⟨fun h => List.noConfusion h, fun ⟨_, e⟩ => Json.noConfusion e⟩
  | arr a => exact ⟨fun h => List.noConfusion h, fun ⟨_, e⟩ => Json.noConfusion e⟩
  | obj kvs => exact ⟨fun h => List.noConfusion h, fun ⟨_, e⟩ => Json.noConfusion e⟩

theorem numSound : Sound numE NumS := by
  intro path j
  cases j with
  | num x => exact ⟨fun _ => ⟨x, rfl⟩, fun _ => rfl⟩
  | null => exact ⟨fun h => List.noConfusion h, fun ⟨_, e⟩ => Json.noConfusion e⟩
  | bool b => exact ⟨fun h => List.noConfusion h, fun ⟨_, e⟩ => Json.noConfusion e⟩
  | str s => exact ⟨fun h => List.noConfusion h, fun ⟨_, e⟩ => Json.noConfusion e⟩
  | arr a => exact ⟨fun h => List.noConfusion h, fun ⟨_, e⟩ => Json.noConfusion e⟩
  | obj kvs => exact ⟨fun h => List.noConfusion h, fun ⟨_, e⟩ => Json.noConfusion e⟩

theorem scalarSound : Sound scalarE ScalarS := by
  intro path j
  cases j with
  | null => exact ⟨fun _ => Or.inl rfl, fun _ => rfl⟩
  | bool b => exact ⟨fun _ => Or.inr (Or.inl ⟨b, rfl⟩), fun _ => rfl⟩
  | num x => exact ⟨fun _ => Or.inr (Or.inr (Or.inl ⟨x, rfl⟩)), fun _ => rfl⟩
  | str s => exact ⟨fun _ => Or.inr (Or.inr (Or.inr ⟨s, rfl⟩)), fun _ => rfl⟩
  | arr a =>
    refine ⟨fun h => List.noConfusion h, fun h => ?_⟩
    cases h with
    | inl e => exact Json.noConfusion e
    | inr h => cases h with
      | inl h => have ⟨_, e⟩ := h; exact Json.noConfusion e
      | inr h => cases h with
        | inl h => have ⟨_, e⟩ := h; exact Json.noConfusion e
        | inr h => have ⟨_, e⟩ := h; exact Json.noConfusion e
  | obj kvs =>
    refine ⟨fun h => List.noConfusion h, fun h => ?_⟩
    cases h with
    | inl e => exact Json.noConfusion e
    | inr h => cases h with
      | inl h => have ⟨_, e⟩ := h; exact Json.noConfusion e
      | inr h => cases h with
        | inl h => have ⟨_, e⟩ := h; exact Json.noConfusion e
        | inr h => have ⟨_, e⟩ := h; exact Json.noConfusion e

theorem natNumIff (x : JsonNumber) : natNumB x = true ↔ NatNum x := by
  show (Decidable.decide _ && Decidable.decide _) = true ↔ _
  rw [andIff, decideIff, decideIff]
  exact Iff.rfl

theorem countSound : Sound countE CountS := by
  intro path j
  cases j with
  | num x =>
    show (if natNumB x then [] else [path]) = [] ↔ _
    rw [ifNil, natNumIff]
    exact ⟨fun h => ⟨x, rfl, h⟩, fun ⟨x', e, h⟩ => by cases e; exact h⟩
  | null => exact ⟨fun h => List.noConfusion h, fun ⟨_, e, _⟩ => Json.noConfusion e⟩
  | bool b => exact ⟨fun h => List.noConfusion h, fun ⟨_, e, _⟩ => Json.noConfusion e⟩
  | str s => exact ⟨fun h => List.noConfusion h, fun ⟨_, e, _⟩ => Json.noConfusion e⟩
  | arr a => exact ⟨fun h => List.noConfusion h, fun ⟨_, e, _⟩ => Json.noConfusion e⟩
  | obj kvs => exact ⟨fun h => List.noConfusion h, fun ⟨_, e, _⟩ => Json.noConfusion e⟩

theorem quotaSound : Sound quotaE QuotaS := by
  intro path j
  cases j with
  | null => exact ⟨fun _ => Or.inl rfl, fun _ => rfl⟩
  | num x =>
    show countE path (Json.num x) = [] ↔ _
    rw [countSound]
    exact ⟨fun h => Or.inr h, fun h => by cases h with
      | inl e => exact Json.noConfusion e
      | inr h => exact h⟩
  | bool b =>
    show countE path (Json.bool b) = [] ↔ _
    rw [countSound]
    exact ⟨fun h => Or.inr h, fun h => by cases h with
      | inl e => exact Json.noConfusion e
      | inr h => exact h⟩
  | str s =>
    show countE path (Json.str s) = [] ↔ _
    rw [countSound]
    exact ⟨fun h => Or.inr h, fun h => by cases h with
      | inl e => exact Json.noConfusion e
      | inr h => exact h⟩
  | arr a =>
    show countE path (Json.arr a) = [] ↔ _
    rw [countSound]
    exact ⟨fun h => Or.inr h, fun h => by cases h with
      | inl e => exact Json.noConfusion e
      | inr h => exact h⟩
  | obj kvs =>
    show countE path (Json.obj kvs) = [] ↔ _
    rw [countSound]
    exact ⟨fun h => Or.inr h, fun h => by cases h with
      | inl e => exact Json.noConfusion e
      | inr h => exact h⟩

-- pairs, argument maps, range bounds --------------------------------------------------------------

theorem pairSound : Sound pairE PairS := by
  intro path j
  cases j with
  | arr a =>
    have hno : ∀ (l : List Json), (¬ ∃ x y, l = [x, y]) → ((match l with
        | [x, y] => nameE (path ++ ["0"]) x ++ nameE (path ++ ["1"]) y
        | _ => [path]) = [] ↔ ∃ x y, l = [x, y] ∧ NameS x ∧ NameS y) := by
      intro l hl
      cases l with
      | nil => exact ⟨fun h => List.noConfusion h, fun ⟨x, y, e, _⟩ => List.noConfusion e⟩
      | cons x l => cases l with
        | nil => exact ⟨fun h => List.noConfusion h, fun ⟨x, y, e, _⟩ => List.noConfusion (List.cons.inj e).2⟩
        | cons y l => cases l with
          | nil => exact False.elim (hl ⟨x, y, rfl⟩)
          | cons z l => exact ⟨fun h => List.noConfusion h, fun ⟨x, y, e, _⟩ =>
              List.noConfusion (List.cons.inj (List.cons.inj e).2).2⟩
    have key : (match a.toList with
        | [x, y] => nameE (path ++ ["0"]) x ++ nameE (path ++ ["1"]) y
        | _ => [path]) = [] ↔ ∃ x y, a.toList = [x, y] ∧ NameS x ∧ NameS y := by
      cases h : a.toList with
      | nil => exact hno [] (fun ⟨x, y, e⟩ => List.noConfusion e)
      | cons x l => cases l with
        | nil => exact hno [x] (fun ⟨x, y, e⟩ => List.noConfusion (List.cons.inj e).2)
        | cons y l => cases l with
          | nil =>
            show nameE (path ++ ["0"]) x ++ nameE (path ++ ["1"]) y = [] ↔ _
            rw [appendNil, nameSound, nameSound]
            exact ⟨fun ⟨h1, h2⟩ => ⟨x, y, rfl, h1, h2⟩, fun ⟨x', y', e, h1, h2⟩ => by
              have ⟨e1, e2⟩ := List.cons.inj e
              have ⟨e3, _⟩ := List.cons.inj e2
              rw [e1, e3]
              exact ⟨h1, h2⟩⟩
          | cons z l => exact hno (x :: y :: z :: l) (fun ⟨x, y, e⟩ =>
              List.noConfusion (List.cons.inj (List.cons.inj e).2).2)
    show (match a.toList with
        | [x, y] => nameE (path ++ ["0"]) x ++ nameE (path ++ ["1"]) y
        | _ => [path]) = [] ↔ _
    rw [key]
    exact ⟨fun ⟨x, y, e, h1, h2⟩ => ⟨a, x, y, rfl, e, h1, h2⟩, fun ⟨a', x, y, e, e', h1, h2⟩ => by
      cases e
      exact ⟨x, y, e', h1, h2⟩⟩
  | null => exact ⟨fun h => List.noConfusion h, fun ⟨_, _, _, e, _⟩ => Json.noConfusion e⟩
  | bool b => exact ⟨fun h => List.noConfusion h, fun ⟨_, _, _, e, _⟩ => Json.noConfusion e⟩
  | num x => exact ⟨fun h => List.noConfusion h, fun ⟨_, _, _, e, _⟩ => Json.noConfusion e⟩
  | str s => exact ⟨fun h => List.noConfusion h, fun ⟨_, _, _, e, _⟩ => Json.noConfusion e⟩
  | obj kvs => exact ⟨fun h => List.noConfusion h, fun ⟨_, _, _, e, _⟩ => Json.noConfusion e⟩

theorem mapSound : Sound mapE MapS := by
  intro path j
  cases j with
  | obj kvs =>
    show (if (pairs kvs).all (fun q => reGo false true q.1.toList) then [] else [path]) ++
      cat (fun q => scalarE (path ++ [q.1]) q.2) (pairs kvs) = [] ↔ _
    rw [appendNil, ifNil, allIff, catNil]
    constructor
    · intro ⟨h1, h2⟩
      exact ⟨kvs, rfl, fun k v hq => ⟨(reMatchIff false k).1 (h1 (k, v) hq), (scalarSound _ v).1 (h2 (k, v) hq)⟩⟩
    · intro ⟨kvs', e, h⟩
      cases e
      refine ⟨fun q hq => ?_, fun q hq => ?_⟩
      · cases q with
        | mk k v => exact (reMatchIff false k).2 (h k v hq).1
      · cases q with
        | mk k v => exact (scalarSound _ v).2 (h k v hq).2
  | null => exact ⟨fun h => List.noConfusion h, fun ⟨_, e, _⟩ => Json.noConfusion e⟩
  | bool b => exact ⟨fun h => List.noConfusion h, fun ⟨_, e, _⟩ => Json.noConfusion e⟩
  | num x => exact ⟨fun h => List.noConfusion h, fun ⟨_, e, _⟩ => Json.noConfusion e⟩
  | str s => exact ⟨fun h => List.noConfusion h, fun ⟨_, e, _⟩ => Json.noConfusion e⟩
  | arr a => exact ⟨fun h => List.noConfusion h, fun ⟨_, e, _⟩ => Json.noConfusion e⟩

theorem boundedSound : Sound boundedE BoundedS := by
  intro path j
  cases j with
  | obj kvs =>
    show (if hasKey (pairs kvs) "low" || hasKey (pairs kvs) "high" then [] else [path]) = [] ↔ _
    rw [ifNil, orIff, hasKeyIff, hasKeyIff]
    exact ⟨fun h kvs' e => by cases e; exact h, fun h => h kvs rfl⟩
  | null => exact ⟨fun _ _ e => Json.noConfusion e, fun _ => rfl⟩
  | bool b => exact ⟨fun _ _ e => Json.noConfusion e, fun _ => rfl⟩
  | num x => exact ⟨fun _ _ e => Json.noConfusion e, fun _ => rfl⟩
  | str s => exact ⟨fun _ _ e => Json.noConfusion e, fun _ => rfl⟩
  | arr a => exact ⟨fun _ _ e => Json.noConfusion e, fun _ => rfl⟩

-- the definitions of policy.schema.json -----------------------------------------------------------

theorem nameSetSound : Sound nameSetE NameSetS := arrSound false true nameSound

theorem labelSound : Sound labelE LabelS :=
  objSound _ (relCons nameSound (relCons nameSetSound (relCons boolSound relNil)))

theorem nodeSound : Sound nodeE NodeS :=
  objSound _ (relCons nameSound (relCons (enumSound _) (relCons labelSound relNil)))

theorem propagationSound : Sound propagationE PropagationS :=
  varSound (relCons (objSound _ (relCons anySound relNil))
    (relCons (objSound _ (relCons anySound (relCons nameSetSound (relCons countSound (relCons nameSound
      (relCons boolSound relNil)))))) relNil))

theorem edgeSound : Sound edgeE EdgeS :=
  objSound _ (relCons nameSound (relCons (arrSound true false pairSound) (relCons propagationSound relNil)))

theorem agentSound : Sound agentE AgentS :=
  objSound _ (relCons nameSound (relCons nameSetSound (relCons nameSound relNil)))

theorem resourceRefSound : Sound resourceRefE ResourceRefS :=
  varSound (relCons (objSound _ (relCons anySound (relCons scalarSound relNil)))
    (relCons (objSound _ (relCons anySound (relCons nameSound relNil)))
    (relCons (objSound _ (relCons anySound (relCons nameSound relNil))) relNil)))

theorem effectSound : Sound effectE EffectS :=
  objSound _ (relCons dottedSound (relCons resourceRefSound relNil))

theorem toolSound : Sound toolE ToolS :=
  objSound _ (relCons nameSound (relCons nameSound (relCons nameSound (relCons nameSound (relCons nameSetSound
    (relCons nameSetSound (relCons (arrSound true false effectSound) (relCons (arrSound false true dottedSound)
    relNil))))))))

theorem resolverSound : Sound resolverE ResolverS :=
  objSound _ (relCons nameSound (relCons nameSound (relCons mapSound (relCons dottedSound relNil))))

theorem originSound : Sound originE OriginS :=
  objSound _ (relCons nameSound (relCons nameSound (relCons nameSound (relCons nameSound
    (relCons nameSetSound relNil)))))

theorem guardSound : Sound guardE GuardS :=
  objSound _ (relCons nameSound (relCons nameSound (relCons nameSetSound (relCons nameSetSound
    (relCons boolSound relNil)))))

theorem flowSound : Sound flowE FlowS :=
  objSound _ (relCons (enumSound _) (relCons nameOrAnySound (relCons nameOrAnySound (relCons nameOrAnySound
    (relCons guardSound relNil)))))

theorem patternSound : Sound patternE PatternS :=
  varSound (relCons (objSound _ (relCons anySound relNil))
    (relCons (objSound _ (relCons anySound (relCons scalarSound relNil)))
    (relCons (objSound _ (relCons anySound (relCons nameSound relNil)))
    (relCons (objSound _ (relCons anySound (relCons globSound relNil))) relNil))))

theorem audienceSound : Sound audienceE AudienceS :=
  objSound _ (relCons nameSound (relCons (arrSound true false (objSound _ (relCons dottedSound
    (relCons patternSound relNil)))) relNil))

theorem historySound : Sound historyE HistoryS :=
  objSound _ (relCons nameSound (relCons (enumSound _) (relCons nameSound (relCons nameSound
    (relCons nameSound relNil)))))

theorem pathSound : Sound pathE PathS := arrSound true false nameSound

theorem predicateSound : Sound predicateE PredicateS :=
  varSound (relCons (objSound _ (relCons anySound (relCons pathSound (relCons scalarSound relNil))))
    (relCons (objSound _ (relCons anySound (relCons pathSound (relCons (arrSound true false scalarSound) relNil))))
    (relCons (andSound (objSound _ (relCons anySound (relCons pathSound (relCons numSound (relCons numSound
      relNil))))) boundedSound) relNil)))

theorem entrySound : Sound entryE EntryS :=
  varSound (relCons (objSound _ (relCons anySound (relCons dottedSound (relCons patternSound
      (relCons nameSetSound (relCons (arrSound false false predicateSound) (relCons quotaSound
      (relCons nameSound (relCons boolSound relNil)))))))))
    (relCons (objSound _ (relCons anySound (relCons dottedSound (relCons patternSound
      (relCons nameSetSound (relCons (arrSound false false predicateSound) relNil)))))) relNil))

theorem policySound : Sound policyE PolicySchema :=
  objSound _ (relCons nameSound (relCons (arrSound true true nameSound) (relCons nameSetSound
    (relCons nameSetSound (relCons (arrSound false false nodeSound) (relCons (arrSound false false edgeSound)
    (relCons (arrSound false false agentSound) (relCons (arrSound false false toolSound)
    (relCons (arrSound false false resolverSound) (relCons (arrSound false false originSound)
    (relCons (arrSound false false flowSound) (relCons (arrSound false false historySound)
    (relCons (arrSound false false entrySound) (relCons (arrSound false false entrySound)
    (relCons (arrSound false false audienceSound) relNil)))))))))))))))

/-- The structural judgment decides the schema's meaning, for every JSON value. -/
theorem policySchemaIff (j : Json) : schemaOk j = true ↔ PolicySchema j := by
  show (policyE [] j).isEmpty = true ↔ _
  rw [isEmptyIff, policySound]
  exact Iff.rfl

end AgentWarrant.Monitor.Full.Schema
