import AgentWarrant.Oracle.MonitorFull
import AgentWarrant.Thm.Oracle.Traverse
import AgentWarrant.Thm.Oracle.Depth
import AgentWarrant.Thm.Monitor.Full.Permits
import AgentWarrant.Thm.Monitor.Json
/-! The oracle's policy decoder reads the places `Decodes` names (`policyOfDecodes`): every list it
covers is empty or read element by element from the document's array at that key (`listOfRead`,
`optStrsRead` also say when it is empty: `opt` found no member, which `DecodeExact.lean` uses; the
proof, `policyOfDecodesVia`, takes how a list is read as a parameter), names and
references from string members, ranks from level names (`rankOk`: a rank is the first position of
the level it names in the document's level list, `rangeFind`: `find?` over `List.range` finds the first), optional members through `opt` (`optReq`: what it
returns is the member at that key), optional string lists through `optStrs` (`optStrsOk`), and the
decoder's `match` on a `kind` string one branch per kind (`resMatch`, `patMatch`, `predMatch`: the
compiled chain of decidable equality tests, taken apart once). On a document with distinct keys a
member is unique (`fieldUnique`), so `Decodes` fixes every value it names. Every resolver's arguments
are a member value of an element of the document's `resolvers` array: they nest less deep than the
document (`resolverArgsDepth`), and less deep than `jsonFuel` whenever the document does, which the
oracle's input guard checks of every judgment's input (`guardedDepth`) and so of the policy inside it
(`policyArgsWithin`). -/
namespace AgentWarrant.Monitor.Full
open Lean AgentWarrant AgentWarrant.Oracle AgentWarrant.Oracle.MonitorFull

theorem fieldOfReq {j v : Json} {k : String} (h : req j k = Except.ok v) : Field j k v := reqOk h

/-- On a document whose objects have distinct keys (every input the oracle judges, `judgedInput`),
a member is unique: `Field` fixes the value the decoder read. -/
theorem fieldUnique {j v w : Json} {k : String} (hd : KeysDistinct j) (hv : Field j k v) (hw : Field j k w) :
    v = w := by
  have ⟨kvs, ej, hmv⟩ := hv
  have ⟨kvs', ej', hmw⟩ := hw
  rw [ej] at ej'
  cases ej'
  rw [ej] at hd
  cases hd with
  | obj _ hn _ =>
    have a := lookupKOfMem hn hmv
    have b := lookupKOfMem hn hmw
    rw [a] at b
    cases b
    rfl

/-- A list the decoder reads is empty when `opt` finds no member, else read from the array at `k`. -/
theorem listOfRead {α : Type} {j : Json} {k : String} {f : Json → Dec α} {R : Json → α → Prop}
    (hf : ∀ x y, f x = Except.ok y → R x y) {l : List α} (h : listOf j k f = Except.ok l) :
    (opt j k = none ∧ l = []) ∨ ∃ xs, Field j k (Json.arr ⟨xs⟩) ∧ Forall2 R xs l := by
  cases ho : opt j k with
  | none =>
    have u : listOf j k f = Except.ok [] := by
      have u' : listOf j k f = (match opt j k with
        | none => pure []
        | some _ => arrOf f j k) := rfl
      rw [u', ho]; rfl
    rw [u] at h; cases h; exact Or.inl ⟨rfl, rfl⟩
  | some v =>
    have u : listOf j k f = arrOf f j k := by
      have u' : listOf j k f = (match opt j k with
        | none => pure []
        | some _ => arrOf f j k) := rfl
      rw [u', ho]
    rw [u] at h
    have ⟨xs, hx, hr⟩ := arrOfOk h
    exact Or.inr ⟨xs, fieldOfReq hx, Oracle.forall2Mono hf hr⟩

theorem listOfOk {α : Type} {j : Json} {k : String} {f : Json → Dec α} {R : Json → α → Prop}
    (hf : ∀ x y, f x = Except.ok y → R x y) {l : List α} (h : listOf j k f = Except.ok l) : ListAt j k R l :=
  match listOfRead hf h with
  | Or.inl ⟨_, e⟩ => Or.inl e
  | Or.inr r => Or.inr r

theorem optBeqSome {a : Option String} {s : String} (h : (a == some s) = true) : a = some s := by
  cases a with
  | none => cases h
  | some t =>
    have e : (t == s) = true := h
    have e' : t = s := ofDecideEqTrue e
    rw [e']

theorem rangeAuxAcc : ∀ (n : Nat) (acc : List Nat), List.rangeAux n acc = List.rangeAux n [] ++ acc
  | 0, acc => rfl
  | n + 1, acc => by
    show List.rangeAux n (n :: acc) = List.rangeAux n [n] ++ acc
    rw [rangeAuxAcc n (n :: acc), rangeAuxAcc n [n], List.append_assoc]
    rfl

theorem rangeSucc (n : Nat) : List.range (n + 1) = List.range n ++ [n] :=
  show List.rangeAux n [n] = List.rangeAux n [] ++ [n] from rangeAuxAcc n [n]

theorem findAppend {α : Type} (p : α → Bool) (a : α) : ∀ (l : List α),
    List.find? p (l ++ [a]) = (match List.find? p l with | some x => some x | none => if p a = true then some a else none)
  | [] => by cases h : p a <;> simp [List.find?, h]
  | b :: l => by
    cases h : p b with
    | true => simp [List.find?, h]
    | false => simp [List.find?, h, findAppend p a l]

/-- `find?` over `range n` returns the first index that satisfies `p`. -/
theorem rangeFind (p : Nat → Bool) : ∀ (n : Nat),
    (∀ i, List.find? p (List.range n) = some i → i < n ∧ p i = true ∧ ∀ m, m < i → p m = false) ∧
    (List.find? p (List.range n) = none → ∀ m, m < n → p m = false)
  | 0 => ⟨(fun i h => by cases h), fun _ m hm => absurd hm (Nat.notLtZero m)⟩
  | n + 1 => by
    have ⟨ihS, ihN⟩ := rangeFind p n
    rw [rangeSucc, findAppend]
    cases hf : List.find? p (List.range n) with
    | some j =>
      refine ⟨fun i h => ?_, fun h => by cases h⟩
      cases h
      have ⟨l, pj, mn⟩ := ihS j hf
      exact ⟨Nat.leStep l, pj, mn⟩
    | none =>
      have below := ihN hf
      cases hp : p n with
      | true =>
        refine ⟨fun i h => ?_, fun h => ?_⟩
        · have h' : (some n : Option Nat) = some i := h
          cases h'
          exact ⟨Nat.leRefl _, hp, below⟩
        · have h' : (some n : Option Nat) = none := h
          cases h'
      | false =>
        refine ⟨fun i h => ?_, fun _ m hm => ?_⟩
        · have h' : (none : Option Nat) = some i := h
          cases h'
        · cases Nat.ltOrGe m n with
          | inl hl => exact below m hl
          | inr hg =>
            have e : m = n := Nat.leAntisymm (Nat.leOfLtSucc hm) hg
            rw [e]; exact hp

theorem optBeqSelf (s : String) : (some s == some s) = true :=
  show (s == s) = true from decideEqTrue rfl

/-- A rank is the position of the level it names, and the first such position. -/
theorem rankOk {levels : List String} {name : String} {i : Nat} (h : rank levels name = Except.ok i) :
    nth? levels i = some name ∧ ∀ m, m < i → nth? levels m ≠ some name := by
  cases hf : (List.range levels.length).find? (fun i => nth? levels i == some name) with
  | none =>
    have u : rank levels name = throw s!"unknown level {name}" := by simp [rank, hf]
    rw [u] at h; cases h
  | some k =>
    have u : rank levels name = pure k := by simp [rank, hf]
    rw [u] at h; cases h
    have ⟨_, pk, below⟩ := (rangeFind (fun i => nth? levels i == some name) levels.length).1 _ hf
    refine ⟨optBeqSome pk, fun m hm e => ?_⟩
    have f := below m hm
    have t : (nth? levels m == some name) = true := by rw [e]; exact optBeqSelf name
    rw [t] at f
    cases f

theorem strsOk {j : Json} {k : String} {l : List String} (h : strs j k = Except.ok l) : StrsAt j k l := by
  have ⟨a, ha, e⟩ := bindOk h
  have el := pureOk e
  subst el
  have ⟨xs, hx, hf⟩ := getStrsOk ha
  exact ⟨xs, fieldOfReq hx, hf⟩

theorem rankAtOk {levels : List String} {x : Json} {k : String} {s : String} {i : Nat}
    (hs : getAs String x k = Except.ok s) (hr : rank levels s = Except.ok i) : RankAt levels x k i :=
  ⟨s, fieldOfReq (getStrOk hs), rankOk hr⟩

/-- The decoder wraps a bare value in a one-member object to read it with the field readers. -/
theorem mkObjX (v : Json) : req (Json.mkObj [("x", v)]) "x" = Except.ok v := rfl

/-- An optional member `opt` returns is the object's member at that key. -/
theorem optReq {j v : Json} {k : String} (h : opt j k = some v) : req j k = Except.ok v := by
  have h' : (match j.getObjVal? k with
    | Except.ok Json.null => none
    | Except.ok v => some v
    | Except.error _ => none) = some v := h
  have r : req j k = j.getObjVal? k := rfl
  rw [r]
  cases hg : j.getObjVal? k with
  | error e => rw [hg] at h'; cases h'
  | ok w =>
    rw [hg] at h'
    cases w with
    | null => cases h'
    | bool b => cases h'; rfl
    | num n => cases h'; rfl
    | str s => cases h'; rfl
    | arr a => cases h'; rfl
    | obj o => cases h'; rfl

theorem strOfOk {x : Json} {s : String} (h : strOf x = Except.ok s) : x = Json.str s := by
  cases x with
  | str t => cases h; rfl
  | null => cases h
  | bool _ => cases h
  | num _ => cases h
  | arr _ => cases h
  | obj _ => cases h

/-- An optional string list is empty when `opt` finds no member, else the strings of the array at `k`. -/
theorem optStrsRead {j : Json} {k : String} {l : List String} (h : optStrs j k = Except.ok l) :
    (opt j k = none ∧ l = []) ∨ StrsAt j k l := by
  have h' : (match opt j k with
    | none => pure []
    | some v => do pure (← arrOf strOf (Json.mkObj [("x", v)]) "x")) = Except.ok l := h
  cases ho : opt j k with
  | none => rw [ho] at h'; cases h'; exact Or.inl ⟨rfl, rfl⟩
  | some v =>
    rw [ho] at h'
    have ⟨a, ha, e⟩ := bindOk h'
    have ea := pureOk e
    subst ea
    have ⟨xs, hx, hf⟩ := arrOfOk ha
    rw [mkObjX] at hx
    cases hx
    exact Or.inr ⟨xs, fieldOfReq (optReq ho), Oracle.forall2Mono (fun x y e => strOfOk e) hf⟩

theorem optStrsOk {j : Json} {k : String} {l : List String} (h : optStrs j k = Except.ok l) : OptStrsAt j k l :=
  match optStrsRead h with
  | Or.inl ⟨_, e⟩ => Or.inl e
  | Or.inr r => Or.inr r

/-- An optional string member read as `some` only from a string there. -/
theorem optStrField {x : Json} {k a : String}
    (h : (match opt x k with | some (Json.str r) => some r | _ => none) = some a) : Field x k (Json.str a) := by
  cases ho : opt x k with
  | none => rw [ho] at h; cases h
  | some v =>
    rw [ho] at h
    cases v with
    | str s => cases h; exact fieldOfReq (optReq ho)
    | null => cases h
    | bool _ => cases h
    | num _ => cases h
    | arr _ => cases h
    | obj _ => cases h

/-- An optional flag read as `true` only from `true` there. -/
theorem optBoolField {x : Json} {k : String}
    (h : (match opt x k with | some (Json.bool b) => b | _ => false) = true) : Field x k (Json.bool true) := by
  cases ho : opt x k with
  | none => rw [ho] at h; cases h
  | some v =>
    rw [ho] at h
    cases v with
    | bool b => cases h; exact fieldOfReq (optReq ho)
    | null => cases h
    | str _ => cases h
    | num _ => cases h
    | arr _ => cases h
    | obj _ => cases h

/-- An optional flag read as `some` only from a boolean there. -/
theorem optBoolSome {x : Json} {k : String} {b : Bool}
    (h : (match opt x k with | some (Json.bool b) => some b | _ => none) = some b) : Field x k (Json.bool b) := by
  cases ho : opt x k with
  | none => rw [ho] at h; cases h
  | some v =>
    rw [ho] at h
    cases v with
    | bool c => cases h; exact fieldOfReq (optReq ho)
    | null => cases h
    | str _ => cases h
    | num _ => cases h
    | arr _ => cases h
    | obj _ => cases h

/-- An optional level name, ranked. -/
theorem lvOk {levels : List String} {x : Json} {k : String} {o : Option Nat}
    (h : (match opt x k with
      | none => pure none
      | some v => do
        let a ← strOf v
        let a ← rank levels a
        pure (some a) : Dec (Option Nat)) = Except.ok o) : OptRankAt levels x k o := by
  intro i hi
  subst hi
  cases ho : opt x k with
  | none => rw [ho] at h; cases h
  | some v =>
    rw [ho] at h
    have ⟨s, hs, e1⟩ := bindOk h
    have ⟨r, hr, e2⟩ := bindOk e1
    have er := pureOk e2
    cases er
    have hv := strOfOk hs
    subst hv
    exact ⟨s, fieldOfReq (optReq ho), rankOk hr⟩

theorem guardAtOk {levels cats : List String} {x : Json} {g : Guard} (h : guardOf levels cats x = Except.ok g) :
    GuardAt levels cats x g := by
  have ⟨mx, hmx, e1⟩ := bindOk h
  have ⟨mn, hmn, e2⟩ := bindOk e1
  have ⟨ac, hac, e3⟩ := bindOk e2
  have ⟨nc, hnc, e4⟩ := bindOk e3
  have ey := pureOk e4
  subst ey
  exact ⟨lvOk hmx, lvOk hmn, ⟨ac, optStrsOk hac, rfl⟩, ⟨nc, optStrsOk hnc, rfl⟩, fun _ h => optBoolSome h⟩

/-- The sensitivity a propagation sets: none when absent, else the rank of the level name there. -/
theorem sensJpOk {β : Type} {levels : List String} {x : Json} {jp : Option Nat → Dec β} {r : β}
    (h : (match opt x "sensitivity" with
      | none => do
        let y ← pure none
        jp y
      | some v => do
        let a ← strOf v
        let a ← rank levels a
        let y ← pure (some a)
        jp y : Dec β) = Except.ok r) :
    ∃ s, OptRankAt levels x "sensitivity" s ∧ jp s = Except.ok r := by
  cases ho : opt x "sensitivity" with
  | none =>
    rw [ho] at h
    have ⟨y, hy, e⟩ := bindOk h
    have ey := pureOk hy
    subst ey
    exact ⟨none, fun _ hi => nomatch hi, e⟩
  | some v =>
    rw [ho] at h
    have ⟨s, hs, e1⟩ := bindOk h
    have ⟨i, hi, e2⟩ := bindOk e1
    have ⟨y, hy, e3⟩ := bindOk e2
    have ey := pureOk hy
    subst ey
    have hv := strOfOk hs
    subst hv
    exact ⟨some i, fun _ hk => by cases hk; exact ⟨s, fieldOfReq (optReq ho), rankOk hi⟩, e3⟩

/-- The trust a propagation sets: only from a boolean at `trusted`. -/
theorem trustedJpOk {β : Type} {x : Json} {jp : Option Bool → Dec β} {r : β}
    (h : (match opt x "trusted" with
      | some (Json.bool b) => do
        let y ← pure (some b)
        jp y
      | _ => do
        let y ← pure none
        jp y : Dec β) = Except.ok r) :
    ∃ tr, (∀ b, tr = some b → Field x "trusted" (Json.bool b)) ∧ jp tr = Except.ok r := by
  cases ho : opt x "trusted" with
  | none =>
    rw [ho] at h
    have ⟨y, hy, e⟩ := bindOk h
    have ey := pureOk hy
    subst ey
    exact ⟨none, fun _ hb => nomatch hb, e⟩
  | some w =>
    rw [ho] at h
    cases w with
    | bool c =>
      have ⟨y, hy, e⟩ := bindOk h
      have ey := pureOk hy
      subst ey
      exact ⟨some c, fun _ hb => by cases hb; exact fieldOfReq (optReq ho), e⟩
    | null =>
      have ⟨y, hy, e⟩ := bindOk h
      have ey := pureOk hy
      subst ey
      exact ⟨none, fun _ hb => nomatch hb, e⟩
    | num _ =>
      have ⟨y, hy, e⟩ := bindOk h
      have ey := pureOk hy
      subst ey
      exact ⟨none, fun _ hb => nomatch hb, e⟩
    | str _ =>
      have ⟨y, hy, e⟩ := bindOk h
      have ey := pureOk hy
      subst ey
      exact ⟨none, fun _ hb => nomatch hb, e⟩
    | arr _ =>
      have ⟨y, hy, e⟩ := bindOk h
      have ey := pureOk hy
      subst ey
      exact ⟨none, fun _ hb => nomatch hb, e⟩
    | obj _ =>
      have ⟨y, hy, e⟩ := bindOk h
      have ey := pureOk hy
      subst ey
      exact ⟨none, fun _ hb => nomatch hb, e⟩

/-- A propagation's decrement: the number at `decrement`, else zero. -/
theorem decOk (x : Json) :
    (∃ n, Field x "decrement" (Json.num n) ∧
      (match opt x "decrement" with | some (Json.num n) => n.mantissa.toNat | _ => 0) = n.mantissa.toNat) ∨
    (match opt x "decrement" with | some (Json.num n) => n.mantissa.toNat | _ => 0) = 0 := by
  cases ho : opt x "decrement" with
  | none => exact Or.inr rfl
  | some w =>
    cases w with
    | num n => exact Or.inl ⟨n, fieldOfReq (optReq ho), rfl⟩
    | null => exact Or.inr rfl
    | bool _ => exact Or.inr rfl
    | str _ => exact Or.inr rfl
    | arr _ => exact Or.inr rfl
    | obj _ => exact Or.inr rfl

theorem inheritMatch {β : Type} (P : β → Prop) (kind : String) (f1 : Unit → β) (f2 : String → β)
    (h1 : kind = "inherit" → P (f1 ())) (h2 : ¬ kind = "inherit" → P (f2 kind)) :
    P (transformOf.match_3 (fun _ => β) kind f1 f2) := by
  cases Decidable.em (kind = "inherit") with
  | inl hc => subst hc; exact h1 rfl
  | inr hc =>
    simp only [transformOf.match_3, diteFalse hc]
    exact h2 hc

theorem transformAtOk {levels cats : List String} {v : Json} {t : Option Transform}
    (h : transformOf levels cats v = Except.ok t) : TransformAt levels cats v t := by
  have ⟨kind, hk, e⟩ := bindOk h
  have hkf := fieldOfReq (getStrOk hk)
  refine inheritMatch (fun b => b = Except.ok t → TransformAt levels cats v t) kind _ _ ?_ ?_ e
  · intro hc e1
    subst hc
    have et := pureOk e1
    subst et
    exact hkf
  · intro hc e1
    have ⟨sv, hsv, e2⟩ := sensJpOk e1
    have ⟨tr, htr, e3⟩ := trustedJpOk e2
    have ⟨rm, hrm, e4⟩ := bindOk e3
    have et := pureOk e4
    subst et
    exact ⟨⟨kind, hkf, hc⟩, hsv, htr, ⟨rm, optStrsOk hrm, rfl⟩, decOk v⟩

theorem effectMatch {β : Type} (P : β → Prop) (ef : String) (f1 f2 : Unit → β) (f3 : String → β)
    (h1 : ef = "deny" → P (f1 ())) (h2 : ef = "pause" → P (f2 ()))
    (h3 : ¬ ef = "deny" → ¬ ef = "pause" → P (f3 ef)) :
    P (policyOf.match_2 (fun _ => β) ef f1 f2 f3) := by
  cases Decidable.em (ef = "deny") with
  | inl hc => subst hc; exact h1 rfl
  | inr hc =>
    cases Decidable.em (ef = "pause") with
    | inl ha => subst ha; exact h2 rfl
    | inr ha =>
      simp only [policyOf.match_2, diteFalse hc, diteFalse ha]
      exact h3 hc ha

/-- A flow rule's effect, numbered as the closed core reads it. -/
theorem effectOk (ef : String) :
    (ef = "deny" ∧ policyOf.match_2 (fun _ => Nat) ef (fun _ => 1) (fun _ => 2) (fun _ => 0) = 1) ∨
    (ef = "pause" ∧ policyOf.match_2 (fun _ => Nat) ef (fun _ => 1) (fun _ => 2) (fun _ => 0) = 2) ∨
    (¬ ef = "deny" ∧ ¬ ef = "pause" ∧ policyOf.match_2 (fun _ => Nat) ef (fun _ => 1) (fun _ => 2) (fun _ => 0) = 0) :=
  effectMatch (fun n => (ef = "deny" ∧ n = 1) ∨ (ef = "pause" ∧ n = 2) ∨ (¬ ef = "deny" ∧ ¬ ef = "pause" ∧ n = 0))
    ef (fun _ => 1) (fun _ => 2) (fun _ => 0)
    (fun h => Or.inl ⟨h, rfl⟩) (fun h => Or.inr (Or.inl ⟨h, rfl⟩)) (fun h1 h2 => Or.inr (Or.inr ⟨h1, h2, rfl⟩))

/-- A flow rule's guard object: the member `when`, or an empty object. -/
theorem whenOrEmpty (x : Json) :
    Field x "when" (match opt x "when" with | some g => g | none => Json.mkObj []) ∨
      (match opt x "when" with | some g => g | none => Json.mkObj []) = Json.mkObj [] := by
  cases ho : opt x "when" with
  | none => exact Or.inr rfl
  | some g => exact Or.inl (fieldOfReq (optReq ho))

/-- A tool's operation: a string member `operation`, else its name. -/
theorem opOrName (x : Json) (name : String) :
    Field x "operation" (Json.str (match opt x "operation" with | some (Json.str o) => o | _ => name)) ∨
      (match opt x "operation" with | some (Json.str o) => o | _ => name) = name := by
  cases ho : opt x "operation" with
  | none => exact Or.inr rfl
  | some v =>
    cases v with
    | str s => exact Or.inl (fieldOfReq (optReq ho))
    | null => exact Or.inr rfl
    | bool _ => exact Or.inr rfl
    | num _ => exact Or.inr rfl
    | arr _ => exact Or.inr rfl
    | obj _ => exact Or.inr rfl

/-- A grant's quota: a number's value, unlimited for `null`, one otherwise. -/
theorem quotaOk (x : Json) :
    (∃ n, Field x "quota" (Json.num n) ∧ (match x.getObjVal? "quota" with
      | Except.ok (Json.num n) => some n.mantissa.toNat
      | Except.ok Json.null => none
      | _ => some 1) = some n.mantissa.toNat) ∨
    (Field x "quota" Json.null ∧ (match x.getObjVal? "quota" with
      | Except.ok (Json.num n) => some n.mantissa.toNat
      | Except.ok Json.null => none
      | _ => some 1) = none) ∨
    (match x.getObjVal? "quota" with
      | Except.ok (Json.num n) => some n.mantissa.toNat
      | Except.ok Json.null => none
      | _ => some 1) = some 1 := by
  cases hq : x.getObjVal? "quota" with
  | error e => exact Or.inr (Or.inr rfl)
  | ok w =>
    cases w with
    | num n => exact Or.inl ⟨n, fieldOfReq hq, rfl⟩
    | null => exact Or.inr (Or.inl ⟨fieldOfReq hq, rfl⟩)
    | bool _ => exact Or.inr (Or.inr rfl)
    | str _ => exact Or.inr (Or.inr rfl)
    | arr _ => exact Or.inr (Or.inr rfl)
    | obj _ => exact Or.inr (Or.inr rfl)

/-- An endpoint pair is read from an array of exactly two strings. -/
theorem pairOk {p : Json} {ab : String × String}
    (h : (do
      let l ← getAs (Array String) (Json.mkObj [("x", p)]) "x"
      match l.toList with
      | [a, b] => pure (a, b)
      | _ => throw "an endpoint is a pair" : Dec (String × String)) = Except.ok ab) : PairAt p ab := by
  have ⟨l, hl, e⟩ := bindOk h
  have ⟨xs, hx, hf⟩ := getStrsOk hl
  rw [mkObjX] at hx
  cases hx
  have e' : (match l.toList with
      | [a, b] => pure (a, b)
      | _ => throw "an endpoint is a pair" : Dec (String × String)) = Except.ok ab := e
  revert hf e'
  cases l.toList with
  | nil => intro _ e'; cases e'
  | cons a t =>
    cases t with
    | nil => intro _ e'; cases e'
    | cons b t =>
      cases t with
      | cons c t => intro _ e'; cases e'
      | nil =>
        intro hf e'
        cases e'
        cases hf with
        | cons h1 hr =>
          cases hr with
          | cons h2 hr2 =>
            cases hr2
            subst h1
            subst h2
            rfl

-- The decoder's `match` on a `kind` string compiles to a chain of decidable equality tests; these
-- two lemmas take it apart once, so each branch is proved with the kind known.
theorem resMatch {β : Type} (P : β → Prop) (kind : String) (f1 f2 : Unit → β) (f3 : String → β)
    (h1 : kind = "const" → P (f1 ())) (h2 : kind = "arg" → P (f2 ()))
    (h3 : ¬ kind = "const" → ¬ kind = "arg" → P (f3 kind)) :
    P (resRefOf.match_1 (fun _ => β) kind f1 f2 f3) := by
  cases Decidable.em (kind = "const") with
  | inl hc => subst hc; exact h1 rfl
  | inr hc =>
    cases Decidable.em (kind = "arg") with
    | inl ha => subst ha; exact h2 rfl
    | inr ha =>
      simp only [resRefOf.match_1, diteFalse hc, diteFalse ha]
      exact h3 hc ha

theorem patMatch {β : Type} (P : β → Prop) (kind : String) (f1 f2 f3 : Unit → β) (f4 : String → β)
    (h1 : kind = "any" → P (f1 ())) (h2 : kind = "const" → P (f2 ())) (h3 : kind = "slot" → P (f3 ()))
    (h4 : ¬ kind = "any" → ¬ kind = "const" → ¬ kind = "slot" → P (f4 kind)) :
    P (patOf.match_1 (fun _ => β) kind f1 f2 f3 f4) := by
  cases Decidable.em (kind = "any") with
  | inl h => subst h; exact h1 rfl
  | inr ha =>
    cases Decidable.em (kind = "const") with
    | inl h => subst h; exact h2 rfl
    | inr hc =>
      cases Decidable.em (kind = "slot") with
      | inl h => subst h; exact h3 rfl
      | inr hs =>
        simp only [patOf.match_1, diteFalse ha, diteFalse hc, diteFalse hs]
        exact h4 ha hc hs

theorem resRefOk {r : Json} {x : ResRef} (h : resRefOf r = Except.ok x) : ResAt r x := by
  have ⟨kind, hk, e⟩ := bindOk h
  have hkf := fieldOfReq (getStrOk hk)
  refine resMatch (fun b => b = Except.ok x → ResAt r x) kind _ _ _ ?_ ?_ ?_ e
  · intro hc e1
    subst hc
    have ⟨v, hv, e2⟩ := bindOk e1
    have ex := pureOk e2
    subst ex
    exact ⟨hkf, fieldOfReq hv⟩
  · intro hc e1
    subst hc
    have ⟨a, ha, e2⟩ := bindOk e1
    have ex := pureOk e2
    subst ex
    exact ⟨hkf, fieldOfReq (getStrOk ha)⟩
  · intro hc ha e1
    have ⟨a, harg, e2⟩ := bindOk e1
    have ex := pureOk e2
    subst ex
    exact ⟨⟨kind, hkf, hc, ha⟩, fieldOfReq (getStrOk harg)⟩

theorem patAtOk {r : Json} {x : Pat} (h : patOf r = Except.ok x) : PatAt r x := by
  have ⟨kind, hk, e⟩ := bindOk h
  have hkf := fieldOfReq (getStrOk hk)
  refine patMatch (fun b => b = Except.ok x → PatAt r x) kind _ _ _ _ ?_ ?_ ?_ ?_ e
  · intro hc e1
    subst hc
    have ex := pureOk e1
    subst ex
    exact hkf
  · intro hc e1
    subst hc
    have ⟨v, hv, e2⟩ := bindOk e1
    have ex := pureOk e2
    subst ex
    exact ⟨hkf, fieldOfReq hv⟩
  · intro hc e1
    subst hc
    have ⟨a, ha, e2⟩ := bindOk e1
    have ex := pureOk e2
    subst ex
    exact ⟨hkf, fieldOfReq (getStrOk ha)⟩
  · intro ha hc hs e1
    have ⟨g, hg, e2⟩ := bindOk e1
    have ex := pureOk e2
    subst ex
    exact ⟨⟨kind, hkf, ha, hc, hs⟩, fieldOfReq (getStrOk hg)⟩

theorem numOptOk {x : Json} {k : String} {o : Option JsonNumber} (h : numOpt x k = Except.ok o) : NumAt x k o := by
  intro n hn
  subst hn
  have h' : (match opt x k with
    | none => pure none
    | some (Json.num n) => pure (some n)
    | some v => throw s!"{k}: expected a number, got {v.compress}" : Dec (Option JsonNumber)) = Except.ok (some n) := h
  cases ho : opt x k with
  | none => rw [ho] at h'; cases h'
  | some v =>
    rw [ho] at h'
    cases v with
    | num m => cases h'; exact fieldOfReq (optReq ho)
    | null => cases h'
    | bool _ => cases h'
    | str _ => cases h'
    | arr _ => cases h'
    | obj _ => cases h'

theorem predMatch {β : Type} (P : β → Prop) (kind : String) (f1 f2 : Unit → β) (f3 : String → β)
    (h1 : kind = "eq" → P (f1 ())) (h2 : kind = "one_of" → P (f2 ()))
    (h3 : ¬ kind = "eq" → ¬ kind = "one_of" → P (f3 kind)) :
    P (predOf.match_1 (fun _ => β) kind f1 f2 f3) := by
  cases Decidable.em (kind = "eq") with
  | inl hc => subst hc; exact h1 rfl
  | inr hc =>
    cases Decidable.em (kind = "one_of") with
    | inl ha => subst ha; exact h2 rfl
    | inr ha =>
      simp only [predOf.match_1, diteFalse hc, diteFalse ha]
      exact h3 hc ha

theorem predAtOk {x : Json} {q : Pred} (h : predOf x = Except.ok q) : PredAt x q := by
  have ⟨path, hpath, e0⟩ := bindOk h
  have hp := strsOk hpath
  have ⟨kind, hk, e⟩ := bindOk e0
  have hkf := fieldOfReq (getStrOk hk)
  refine predMatch (fun b => b = Except.ok q → PredAt x q) kind _ _ _ ?_ ?_ ?_ e
  · intro hc e1
    subst hc
    have ⟨v, hv, e2⟩ := bindOk e1
    have ex := pureOk e2
    subst ex
    exact ⟨hp, hkf, fieldOfReq hv⟩
  · intro hc e1
    subst hc
    have ⟨a, ha, e2⟩ := bindOk e1
    have ex := pureOk e2
    subst ex
    have hv := getArrOk ha
    rw [toListData]
    exact ⟨hp, hkf, fieldOfReq hv⟩
  · intro he ho e1
    have ⟨lo, hlo, e2⟩ := bindOk e1
    have ⟨hi, hhi, e3⟩ := bindOk e2
    have ex := pureOk e3
    subst ex
    exact ⟨hp, ⟨kind, hkf, he, ho⟩, numOptOk hlo, numOptOk hhi⟩

/-- The fields of a grant read after its kind, keys and predicates. -/
theorem grantTail {x rj : Json} {kind act : String} {pat : Pat} {keys : Option (List String)} {preds : List Pred}
    (hk : getAs String x "kind" = Except.ok kind) (ha : getAs String x "action" = Except.ok act)
    (hr : req x "resource" = Except.ok rj) (hp : patOf rj = Except.ok pat)
    (hkeys : ∀ ks, keys = some ks → StrsAt x "keys" ks) (hpreds : ListAt x "where" PredAt preds) :
    GrantAt x ⟨kind == "allow", act, pat, keys, preds, (match x.getObjVal? "quota" with
      | Except.ok (Json.num n) => some n.mantissa.toNat
      | Except.ok Json.null => none
      | _ => some 1), (match opt x "requires" with | some (Json.str r) => some r | _ => none),
      (match opt x "permit" with | some (Json.bool b) => b | _ => false)⟩ :=
  ⟨⟨kind, fieldOfReq (getStrOk hk), rfl⟩, fieldOfReq (getStrOk ha), ⟨rj, fieldOfReq hr, patAtOk hp⟩, hkeys, hpreds, quotaOk x,
    fun _ h => optStrField h, optBoolField⟩

theorem wherePreds {x : Json} {pv : List Pred} (h : arrOf predOf x "where" = Except.ok pv) : ListAt x "where" PredAt pv :=
  have ⟨xs, hxs, hf⟩ := arrOfOk h
  Or.inr ⟨xs, fieldOfReq hxs, Oracle.forall2Mono (fun _ _ h => predAtOk h) hf⟩

theorem grantAtOk {x : Json} {g : Full.Grant} (e : grantOf x = Except.ok g) : GrantAt x g := by
  have ⟨kind, hk, e1⟩ := bindOk e
  -- the optional `keys` and `where` are read before the action, each through a join point
  cases hkeys : opt x "keys" with
  | none =>
    cases hw : opt x "where" with
    | none =>
      simp only [hkeys, hw] at e1
      have ⟨kv, hkv, p0⟩ := bindOk e1
      have ⟨pv, hpv, p1⟩ := bindOk p0
      have ⟨act, hact, t1⟩ := bindOk p1
      have ⟨rj, hrj, t2⟩ := bindOk t1
      have ⟨pat, hpat, t3⟩ := bindOk t2
      have ey := pureOk t3
      subst ey
      have ek := pureOk hkv
      have ep := pureOk hpv
      subst ek
      subst ep
      exact grantTail hk hact hrj hpat (fun _ h => nomatch h) (Or.inl rfl)
    | some w =>
      simp only [hkeys, hw] at e1
      have ⟨kv, hkv, p0⟩ := bindOk e1
      have ⟨pv, hpv, p1⟩ := bindOk p0
      have ⟨act, hact, t1⟩ := bindOk p1
      have ⟨rj, hrj, t2⟩ := bindOk t1
      have ⟨pat, hpat, t3⟩ := bindOk t2
      have ey := pureOk t3
      subst ey
      have ek := pureOk hkv
      subst ek
      exact grantTail hk hact hrj hpat (fun _ h => nomatch h) (wherePreds hpv)
  | some kj =>
    cases hw : opt x "where" with
    | none =>
      simp only [hkeys, hw] at e1
      have ⟨ks, hks, p0⟩ := bindOk e1
      have ⟨kv, hkv, p1⟩ := bindOk p0
      have ⟨pv, hpv, p2⟩ := bindOk p1
      have ⟨act, hact, t1⟩ := bindOk p2
      have ⟨rj, hrj, t2⟩ := bindOk t1
      have ⟨pat, hpat, t3⟩ := bindOk t2
      have ey := pureOk t3
      subst ey
      have ek := pureOk hkv
      have ep := pureOk hpv
      subst ek
      subst ep
      exact grantTail hk hact hrj hpat (fun _ h => by cases h; exact strsOk hks) (Or.inl rfl)
    | some w =>
      simp only [hkeys, hw] at e1
      have ⟨ks, hks, p0⟩ := bindOk e1
      have ⟨kv, hkv, p1⟩ := bindOk p0
      have ⟨pv, hpv, p2⟩ := bindOk p1
      have ⟨act, hact, t1⟩ := bindOk p2
      have ⟨rj, hrj, t2⟩ := bindOk t1
      have ⟨pat, hpat, t3⟩ := bindOk t2
      have ey := pureOk t3
      subst ey
      have ek := pureOk hkv
      subst ek
      exact grantTail hk hact hrj hpat (fun _ h => by cases h; exact strsOk hks) (wherePreds hpv)

-- unifying each bind of the decoder's long `do` block against `x >>= f` takes more than the default budget
set_option maxHeartbeats 1000000 in
theorem policyOfDecodesVia {j : Json} {p : Policy} {Q : {α : Type} → String → (Json → α → Prop) → List α → Prop}
    {C : List String → Prop}
    (hL : ∀ {α : Type} {k : String} {f : Json → Dec α} {R : Json → α → Prop} {l : List α},
      (∀ x y, f x = Except.ok y → R x y) → listOf j k f = Except.ok l → Q k R l)
    (hC : ∀ {l}, optStrs j "categories" = Except.ok l → C l)
    (h : policyOf j = Except.ok p) : DecodesVia j Q C p := by
  have ⟨levels, hl, h1⟩ := bindOk h
  have ⟨cats, hc, h2⟩ := bindOk h1
  have ⟨nodes, hn, h3⟩ := bindOk h2
  have ⟨edges, he, h4⟩ := bindOk h3
  have ⟨agents, ha, h5⟩ := bindOk h4
  have ⟨tools, ht, h6⟩ := bindOk h5
  have ⟨resolvers, hr, h7⟩ := bindOk h6
  have ⟨origins, ho, h8⟩ := bindOk h7
  have ⟨flows, hfl, h9⟩ := bindOk h8
  have ⟨xflows, hxf, h10⟩ := bindOk h9
  have ⟨auds, hau, h11⟩ := bindOk h10
  have ⟨hists, hh, h12⟩ := bindOk h11
  have ⟨user, hu, h13⟩ := bindOk h12
  have ⟨app, hp, h14⟩ := bindOk h13
  have ep := pureOk h14
  subst ep
  -- the closed core's rules and the extensions' are read by the same call
  rw [hxf] at hfl
  cases hfl
  refine ⟨levels, cats, strsOk hl, hC hc, hL (fun x y e => ?_) hr, hL (fun x y e => ?_) hn,
    hL (fun x y e => ?_) he, hL (fun x y e => ?_) ha, hL (fun x y e => ?_) ht,
    hL (fun x y e => ?_) ho, hL (fun x y e => ?_) hh, hL (fun x y e => ?_) hu,
    hL (fun x y e => ?_) hp, hL (fun x y e => ?_) hxf, rfl, hL (fun x y e => ?_) hau⟩
  · -- resolvers
    have ⟨slot, hs, e1⟩ := bindOk e
    have ⟨tool, htl, e2⟩ := bindOk e1
    have ⟨args, hargs, e3⟩ := bindOk e2
    have ⟨path, hpa, e4⟩ := bindOk e3
    have ey := pureOk e4
    subst ey
    exact ⟨fieldOfReq (getStrOk hs), fieldOfReq (getStrOk htl), fieldOfReq hargs, path, fieldOfReq (getStrOk hpa), rfl⟩
  · -- nodes
    have ⟨name, hs, e1⟩ := bindOk e
    have ⟨lj, hlj, e2⟩ := bindOk e1
    have ⟨lab, hlab, e3⟩ := bindOk e2
    have ey := pureOk e3
    subst ey
    have ⟨sens, hsens, l1⟩ := bindOk hlab
    have ⟨rk, hrk, l2⟩ := bindOk l1
    have ⟨hv, hhv, l3⟩ := bindOk l2
    have ⟨tr, htr, l4⟩ := bindOk l3
    have el := pureOk l4
    subst el
    exact ⟨fieldOfReq (getStrOk hs), lj, fieldOfReq hlj, rankAtOk hsens hrk, ⟨hv, strsOk hhv, rfl⟩,
      fieldOfReq (getBoolOk htr)⟩
  · -- edges
    have ⟨eps, heps, e1⟩ := bindOk e
    have ⟨name, hs, e2⟩ := bindOk e1
    have ⟨pj, hpj, e3⟩ := bindOk e2
    have ⟨tp, htp, e4⟩ := bindOk e3
    have ey := pureOk e4
    subst ey
    have ⟨xs, hxs, hf⟩ := arrOfOk heps
    exact ⟨fieldOfReq (getStrOk hs), ⟨xs, fieldOfReq hxs, Oracle.forall2Mono (fun _ _ h => pairOk h) hf⟩,
      pj, fieldOfReq hpj, transformAtOk htp⟩
  · -- agents
    have ⟨name, hs, e1⟩ := bindOk e
    have ⟨ops, hops, e2⟩ := bindOk e1
    have ⟨ce, hce, e3⟩ := bindOk e2
    have ⟨rk, hrk, e4⟩ := bindOk e3
    have ey := pureOk e4
    subst ey
    exact ⟨fieldOfReq (getStrOk hs), strsOk hops, rankAtOk hce hrk⟩
  · -- tools
    have ⟨name, hs, e1⟩ := bindOk e
    have ⟨src, hsrc, e2⟩ := bindOk e1
    have ⟨dst, hdst, e3⟩ := bindOk e2
    have ⟨args, hargs, e4⟩ := bindOk e3
    have ⟨reqd, hreqd, e5⟩ := bindOk e4
    have ⟨effs, heffs, e6⟩ := bindOk e5
    have ey := pureOk e6
    subst ey
    have ⟨xs, hxs, hf⟩ := arrOfOk heffs
    refine ⟨fieldOfReq (getStrOk hs), opOrName x name, fieldOfReq (getStrOk hsrc), fieldOfReq (getStrOk hdst),
      optStrsOk hargs, optStrsOk hreqd, xs, fieldOfReq hxs, Oracle.forall2Mono (fun ex d hd => ?_) hf⟩
    have ⟨act, hact, d1⟩ := bindOk hd
    have ⟨rj, hrj, d2⟩ := bindOk d1
    have ⟨rr, hrr, d3⟩ := bindOk d2
    have ed := pureOk d3
    subst ed
    exact ⟨fieldOfReq (getStrOk hact), rj, fieldOfReq hrj, resRefOk hrr⟩
  · -- origins
    have ⟨name, hs, e1⟩ := bindOk e
    have ⟨via, hvia, e2⟩ := bindOk e1
    have ⟨arg, harg, e3⟩ := bindOk e2
    have ⟨prod, hprod, e4⟩ := bindOk e3
    have ⟨pres, hpres, e5⟩ := bindOk e4
    have ey := pureOk e5
    subst ey
    exact ⟨fieldOfReq (getStrOk hs), fieldOfReq (getStrOk hvia), fieldOfReq (getStrOk harg), fieldOfReq (getStrOk hprod),
      optStrsOk hpres⟩
  · -- histories
    have ⟨name, hs, e1⟩ := bindOk e
    have ⟨sc, hsc, e2⟩ := bindOk e1
    have ⟨af, haf, e3⟩ := bindOk e2
    have ⟨rq, hrq, e4⟩ := bindOk e3
    have ⟨bf, hbf, e5⟩ := bindOk e4
    have ey := pureOk e5
    subst ey
    exact ⟨fieldOfReq (getStrOk hs), ⟨sc, fieldOfReq (getStrOk hsc), rfl⟩, fieldOfReq (getStrOk haf),
      fieldOfReq (getStrOk hrq), fieldOfReq (getStrOk hbf)⟩
  · -- user grants
    exact grantAtOk e
  · -- application grants
    exact grantAtOk e
  · -- flows
    have ⟨ef, hef, f1⟩ := bindOk e
    have ⟨op, hop, f2⟩ := bindOk f1
    have ⟨dst, hdst, f3⟩ := bindOk f2
    have ⟨gd, hgd, f4⟩ := bindOk f3
    have ey := pureOk f4
    subst ey
    exact ⟨⟨ef, fieldOfReq (getStrOk hef), effectOk ef⟩, fieldOfReq (getStrOk hop), fieldOfReq (getStrOk hdst),
      fun _ h => optStrField h, _, whenOrEmpty x,
      guardAtOk hgd⟩
  · -- audiences
    have ⟨node, hnode, a1⟩ := bindOk e
    have ⟨effs, heffs, a2⟩ := bindOk a1
    have ey := pureOk a2
    subst ey
    have ⟨xs, hxs, hf⟩ := arrOfOk heffs
    refine ⟨fieldOfReq (getStrOk hnode), xs, fieldOfReq hxs, Oracle.forall2Mono (fun ex d hd => ?_) hf⟩
    have ⟨act, hact, d1⟩ := bindOk hd
    have ⟨rj, hrj, d2⟩ := bindOk d1
    have ⟨pat, hpat, d3⟩ := bindOk d2
    have ed := pureOk d3
    subst ed
    exact ⟨fieldOfReq (getStrOk hact), rj, fieldOfReq hrj, patAtOk hpat⟩

/-- The decoder reads the places `Decodes` names. -/
theorem policyOfDecodes {j : Json} {p : Policy} (h : policyOf j = Except.ok p) : Decodes j p :=
  policyOfDecodesVia (Q := fun k R l => ListAt j k R l) (fun hf e => listOfOk hf e) (fun e => optStrsOk e) h

theorem ltTrans3 {a b c d : Nat} (h1 : a < b) (h2 : b < c) (h3 : c < d) : a < d :=
  Nat.leTrans h1 (Nat.leTrans (Nat.leOfSuccLe h2) (Nat.leOfSuccLe h3))

/-- A decoded resolver's arguments are the `args` member of an element of the document's
`resolvers` array, so they nest less deep than the document. -/
theorem resolverArgsDepth {n : Nat} {j : Json} {p : Policy} {r : Resolver} (hd : Depth n j)
    (h : policyOf j = Except.ok p) (hr : r ∈ p.resolvers) : ∃ m, Depth m r.args ∧ m < n := by
  have ⟨_, _, _, _, hres, _⟩ := policyOfDecodes h
  cases hres with
  | inl e => rw [e] at hr; exact nomatch hr
  | inr hx =>
    have ⟨xs, ⟨kvs, ej, hm⟩, hf⟩ := hx
    have ⟨x, hxm, ⟨_, _, ⟨kx, ex, ha⟩, _⟩⟩ := Oracle.forall2Right hf hr
    rw [ej] at hd
    have ⟨m1, d1, l1⟩ := depthObjElem hd hm
    have ⟨m2, d2, l2⟩ := depthArrElem d1 hxm
    rw [ex] at d2
    have ⟨m3, d3, l3⟩ := depthObjElem d2 ha
    exact ⟨m3, d3, ltTrans3 l3 l2 l1⟩

/-- On every input the oracle answers (`guarded`, which every judgment runs under), the resolvers of
the policy decoded from its `policy` member have arguments nesting less deep than `jsonFuel`, the
hypothesis under which `jeq` decides `JEq` on them (`jeqResolversApplying`). -/
theorem policyArgsWithin {f : Json → Except String Json} {input out pj : Json} {p : Policy} {r : Resolver}
    (hg : guarded f input = Except.ok out) (hp : req input "policy" = Except.ok pj)
    (h : policyOf pj = Except.ok p) (hr : r ∈ p.resolvers) : ∃ m, Depth m r.args ∧ m < jsonFuel := by
  have ⟨⟨n, hd, hn⟩, _⟩ := guardedDepth hg
  have ⟨kvs, ej, hm⟩ := reqOk hp
  rw [ej] at hd
  have ⟨m1, d1, l1⟩ := depthObjElem hd hm
  have ⟨m, d, l⟩ := resolverArgsDepth d1 h hr
  exact ⟨m, d, Nat.leTrans l (Nat.leTrans (Nat.leOfSuccLe l1) (Nat.leOfSuccLe hn))⟩

end AgentWarrant.Monitor.Full
