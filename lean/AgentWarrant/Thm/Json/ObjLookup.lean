import AgentWarrant.Spec.Json.ObjLookup
import AgentWarrant.Spec.Revision.ArgCoverBuild
import AgentWarrant.Thm.Oracle.Traverse
/-! Lookups in JSON objects (`Spec/Json/ObjLookup.lean`). String `compare` is a strict total order
(`cmpSelf`, `cmpEqOf`, `cmpTrans`, `cmpLtSwap`, `cmpGtSwap`: Char order is code-point order, String
order `List.lt` over it, `listLtTrans`, `listLtTotal`). Red-black insertion keeps a search tree ordered
(`insOrd`, `insertOrd`; the rotations `balance1`/`balance2` through `bal1Ord`, `bal2Ord`) and adds exactly
its key (`insAll`, `insertAll`: the keys of `ins t k v` meet `P` iff `k` and the keys of `t` do). On an
ordered tree `find` misses `k` only when no key is `k` (`findNoneAll`; `findNoneOf` needs no order) and
returns every member at its key (`findOfMemFold`, `findPairs`). `Json.mkObj` is `objOf` from the empty
tree (`mkObjEq`), so it has a value at exactly the keys of its list (`mkObjFind`), and the closure
check's fact about the argument object (`argsJsonPresent`) follows. `orderedBSound`: the oracle's check
decides `Ordered`. -/
namespace AgentWarrant.Json
open Lean AgentWarrant.Oracle AgentWarrant.Monitor.Full

-- String `compare` is a strict total order ----------------------------------------------------------

theorem charLtIrrefl (c : Char) : ¬ c < c := Nat.ltIrrefl _

theorem charLtTrans {a b c : Char} (h1 : a < b) (h2 : b < c) : a < c := Nat.ltTrans h1 h2

theorem charEqOf : ∀ {a b : Char}, ¬ a < b → ¬ b < a → a = b
  | ⟨⟨⟨an, al⟩⟩, av⟩, ⟨⟨⟨bn, bl⟩⟩, bv⟩, h1, h2 => by
    have e : an = bn := by
      cases Nat.ltOrGe an bn with
      | inl h => exact absurd h h1
      | inr h => cases Nat.eqOrLtOfLe h with
        | inl h' => exact h'.symm
        | inr h' => exact absurd h' h2
    subst e
    rfl

theorem listLtIrrefl : ∀ (l : List Char), ¬ List.lt l l
  | [], h => nomatch h
  | a :: as, h => by
    cases h with
    | head _ _ hab => exact charLtIrrefl a hab
    | tail _ _ ht => exact listLtIrrefl as ht

theorem listLtTrans : ∀ {a b c : List Char}, List.lt a b → List.lt b c → List.lt a c := by
  intro a
  induction a with
  | nil =>
    intro b c h1 h2
    cases h2 with
    | nil => cases h1
    | head _ _ _ => exact List.lt.nil _ _
    | tail _ _ _ => exact List.lt.nil _ _
  | cons x xs ih =>
    intro b c h1 h2
    cases h1 with
    | head _ _ hxy =>
      cases h2 with
      | head _ _ hyz => exact List.lt.head _ _ (charLtTrans hxy hyz)
      | tail n1 n2 _ => have e := charEqOf n1 n2; subst e; exact List.lt.head _ _ hxy
    | tail m1 m2 ht =>
      have e := charEqOf m1 m2; subst e
      cases h2 with
      | head _ _ hyz => exact List.lt.head _ _ hyz
      | tail n1 n2 ht' => exact List.lt.tail n1 n2 (ih ht ht')

theorem listLtTotal : ∀ (a b : List Char), List.lt a b ∨ a = b ∨ List.lt b a
  | [], [] => Or.inr (Or.inl rfl)
  | [], y :: ys => Or.inl (List.lt.nil _ _)
  | x :: xs, [] => Or.inr (Or.inr (List.lt.nil _ _))
  | x :: xs, y :: ys => by
    cases Decidable.em (x < y) with
    | inl h => exact Or.inl (List.lt.head _ _ h)
    | inr h =>
      cases Decidable.em (y < x) with
      | inl h' => exact Or.inr (Or.inr (List.lt.head _ _ h'))
      | inr h' =>
        cases listLtTotal xs ys with
        | inl hl => exact Or.inl (List.lt.tail h h' hl)
        | inr hr => cases hr with
          | inl he => have e := charEqOf h h'; subst e; subst he; exact Or.inr (Or.inl rfl)
          | inr hg => exact Or.inr (Or.inr (List.lt.tail h' h hg))

theorem strLtIrrefl (a : String) : ¬ a < a := listLtIrrefl a.data

theorem strLtTrans {a b c : String} (h1 : a < b) (h2 : b < c) : a < c := listLtTrans h1 h2

theorem strData : ∀ {a b : String}, a.data = b.data → a = b
  | ⟨_⟩, ⟨_⟩, h => by cases h; rfl

theorem strLtTotal (a b : String) : a < b ∨ a = b ∨ b < a :=
  match listLtTotal a.data b.data with
  | Or.inl h => Or.inl h
  | Or.inr (Or.inl h) => Or.inr (Or.inl (strData h))
  | Or.inr (Or.inr h) => Or.inr (Or.inr h)

theorem cmpDef (a b : String) :
    compare a b = (if a < b then Ordering.lt else if a = b then Ordering.eq else Ordering.gt) := rfl

theorem cmpSelf (a : String) : compare a a = Ordering.eq := by
  rw [cmpDef, iteFalse (strLtIrrefl a), iteTrue rfl]

theorem cmpEqOf {a b : String} (h : compare a b = Ordering.eq) : a = b := compareEqStr h

theorem cmpLtOf {a b : String} (h : compare a b = Ordering.lt) : a < b := by
  rw [cmpDef] at h
  cases Decidable.em (a < b) with
  | inl hl => exact hl
  | inr hl =>
    rw [iteFalse hl] at h
    cases Decidable.em (a = b) with
    | inl he => rw [iteTrue he] at h; cases h
    | inr he => rw [iteFalse he] at h; cases h

theorem cmpLtIntro {a b : String} (h : a < b) : compare a b = Ordering.lt := by
  rw [cmpDef, iteTrue h]

theorem cmpTrans {a b c : String} (h1 : compare a b = Ordering.lt) (h2 : compare b c = Ordering.lt) :
    compare a c = Ordering.lt := cmpLtIntro (strLtTrans (cmpLtOf h1) (cmpLtOf h2))

/-- `compare a b = gt` is `b < a`: the order is total. -/
theorem cmpGtSwap {a b : String} (h : compare a b = Ordering.gt) : compare b a = Ordering.lt := by
  rw [cmpDef] at h
  cases strLtTotal a b with
  | inl hl => rw [iteTrue hl] at h; cases h
  | inr hr => cases hr with
    | inl he => subst he; rw [iteFalse (strLtIrrefl a), iteTrue rfl] at h; cases h
    | inr hg => exact cmpLtIntro hg

theorem cmpLtSwap {a b : String} (h : compare a b = Ordering.lt) : compare b a = Ordering.gt := by
  have hab := cmpLtOf h
  rw [cmpDef, iteFalse (fun hba => strLtIrrefl a (strLtTrans hab hba)),
    iteFalse (fun (he : b = a) => by rw [he] at hab; exact strLtIrrefl a hab)]


open Std.RBNode

-- trees ------------------------------------------------------------------------------------------

theorem keysAllImp {P Q : String → Prop} (hpq : ∀ x, P x → Q x) : ∀ (t : Obj), KeysAll P t → KeysAll Q t
  | leaf, _ => trivial
  | node _ l k _ r, ⟨hl, hk, hr⟩ => ⟨keysAllImp hpq l hl, hpq k hk, keysAllImp hpq r hr⟩

theorem bal1All (P : String → Prop) (kv : String) (vv : Json) (t : Obj) (c : Std.Rbcolor) (l : Obj) (k : String) (v : Json) (r : Obj) :
    KeysAll P (balance1 kv vv t (node c l k v r)) ↔ KeysAll P (node c l k v r) ∧ P kv ∧ KeysAll P t := by
  cases l with
  | leaf =>
    cases r with
    | leaf => exact ⟨fun ⟨⟨a, b, c⟩, d, e⟩ => ⟨⟨a, b, c⟩, d, e⟩, fun ⟨⟨a, b, c⟩, d, e⟩ => ⟨⟨a, b, c⟩, d, e⟩⟩
    | node rc rl rk rv rr =>
      cases rc with
      | red => exact ⟨fun ⟨⟨a, b, c⟩, d, e, f, g⟩ => ⟨⟨a, b, c, d, e⟩, f, g⟩, fun ⟨⟨a, b, c, d, e⟩, f, g⟩ => ⟨⟨a, b, c⟩, d, e, f, g⟩⟩
      | black => exact ⟨fun ⟨⟨a, b, c⟩, d, e⟩ => ⟨⟨a, b, c⟩, d, e⟩, fun ⟨⟨a, b, c⟩, d, e⟩ => ⟨⟨a, b, c⟩, d, e⟩⟩
  | node lc ll lk lv lr =>
    cases lc with
    | red =>
      cases r with
      | leaf => exact ⟨fun ⟨⟨a, b, c⟩, d, e, f, g⟩ => ⟨⟨⟨a, b, c⟩, d, e⟩, f, g⟩, fun ⟨⟨⟨a, b, c⟩, d, e⟩, f, g⟩ => ⟨⟨a, b, c⟩, d, e, f, g⟩⟩
      | node rc rl rk rv rr =>
        cases rc <;> exact ⟨fun ⟨⟨a, b, c⟩, d, e, f, g⟩ => ⟨⟨⟨a, b, c⟩, d, e⟩, f, g⟩, fun ⟨⟨⟨a, b, c⟩, d, e⟩, f, g⟩ => ⟨⟨a, b, c⟩, d, e, f, g⟩⟩
    | black =>
      cases r with
      | leaf => exact ⟨fun ⟨⟨a, b, c⟩, d, e⟩ => ⟨⟨a, b, c⟩, d, e⟩, fun ⟨⟨a, b, c⟩, d, e⟩ => ⟨⟨a, b, c⟩, d, e⟩⟩
      | node rc rl rk rv rr =>
        cases rc with
        | red => exact ⟨fun ⟨⟨a, b, c⟩, d, e, f, g⟩ => ⟨⟨a, b, c, d, e⟩, f, g⟩, fun ⟨⟨a, b, c, d, e⟩, f, g⟩ => ⟨⟨a, b, c⟩, d, e, f, g⟩⟩
        | black => exact ⟨fun ⟨⟨a, b, c⟩, d, e⟩ => ⟨⟨a, b, c⟩, d, e⟩, fun ⟨⟨a, b, c⟩, d, e⟩ => ⟨⟨a, b, c⟩, d, e⟩⟩

theorem bal2All (P : String → Prop) (t : Obj) (kv : String) (vv : Json) (c : Std.Rbcolor) (l : Obj) (k : String) (v : Json) (r : Obj) :
    KeysAll P (balance2 t kv vv (node c l k v r)) ↔ KeysAll P t ∧ P kv ∧ KeysAll P (node c l k v r) := by
  cases l with
  | leaf =>
    cases r with
    | leaf => exact ⟨fun h => h, fun h => h⟩
    | node rc rl rk rv rr =>
      cases rc with
      | red => exact ⟨fun ⟨⟨a, b, c⟩, d, e⟩ => ⟨a, b, c, d, e⟩, fun ⟨a, b, c, d, e⟩ => ⟨⟨a, b, c⟩, d, e⟩⟩
      | black => exact ⟨fun h => h, fun h => h⟩
  | node lc ll lk lv lr =>
    cases lc with
    | red =>
      cases r with
      | leaf => exact ⟨fun ⟨⟨a, b, c⟩, d, e, f, g⟩ => ⟨a, b, ⟨c, d, e⟩, f, g⟩, fun ⟨a, b, ⟨c, d, e⟩, f, g⟩ => ⟨⟨a, b, c⟩, d, e, f, g⟩⟩
      | node rc rl rk rv rr =>
        cases rc <;> exact ⟨fun ⟨⟨a, b, c⟩, d, e, f, g⟩ => ⟨a, b, ⟨c, d, e⟩, f, g⟩, fun ⟨a, b, ⟨c, d, e⟩, f, g⟩ => ⟨⟨a, b, c⟩, d, e, f, g⟩⟩
    | black =>
      cases r with
      | leaf => exact ⟨fun h => h, fun h => h⟩
      | node rc rl rk rv rr =>
        cases rc with
        | red => exact ⟨fun ⟨⟨a, b, c⟩, d, e⟩ => ⟨a, b, c, d, e⟩, fun ⟨a, b, c, d, e⟩ => ⟨⟨a, b, c⟩, d, e⟩⟩
        | black => exact ⟨fun h => h, fun h => h⟩

-- the rotations keep the order ---------------------------------------------------------------------

theorem rot1aOrd {kv : String} {vv : Json} {t ll lr r : Obj} {c : Std.Rbcolor} {lk k : String} {lv v : Json}
    (ot : Ordered t) (hn : Ordered (node c (node Std.Rbcolor.red ll lk lv lr) k v r))
    (hkv : KeysAll (fun x => compare x kv = Ordering.lt) (node c (node Std.Rbcolor.red ll lk lv lr) k v r))
    (ht : KeysAll (fun x => compare kv x = Ordering.lt) t) :
    Ordered (node Std.Rbcolor.red (node Std.Rbcolor.black ll lk lv lr) k v (node Std.Rbcolor.black r kv vv t)) :=
  match hn, hkv with
  | ⟨⟨hllk, hlkk, hlrk⟩, hrk, ⟨hlllk, hlrlk, oll, olr⟩, or⟩, ⟨_, kkv, rkv⟩ =>
    ⟨⟨hllk, hlkk, hlrk⟩, ⟨hrk, kkv, keysAllImp (fun x hx => cmpTrans kkv hx) t ht⟩, ⟨hlllk, hlrlk, oll, olr⟩, ⟨rkv, ht, or, ot⟩⟩

theorem rot1bOrd {kv : String} {vv : Json} {t l rl rr : Obj} {c : Std.Rbcolor} {k rk : String} {v rv : Json}
    (ot : Ordered t) (hn : Ordered (node c l k v (node Std.Rbcolor.red rl rk rv rr)))
    (hkv : KeysAll (fun x => compare x kv = Ordering.lt) (node c l k v (node Std.Rbcolor.red rl rk rv rr)))
    (ht : KeysAll (fun x => compare kv x = Ordering.lt) t) :
    Ordered (node Std.Rbcolor.red (node Std.Rbcolor.black l k v rl) rk rv (node Std.Rbcolor.black rr kv vv t)) :=
  match hn, hkv with
  | ⟨hlk, ⟨hrlk, hrkk, hrrk⟩, ol, ⟨hrlrk, hrrrk, orl, orr⟩⟩, ⟨_, _, ⟨_, rkkv, rrkv⟩⟩ =>
    ⟨⟨keysAllImp (fun x hx => cmpTrans hx hrkk) l hlk, hrkk, hrlrk⟩, ⟨hrrrk, rkkv, keysAllImp (fun x hx => cmpTrans rkkv hx) t ht⟩,
      ⟨hlk, hrlk, ol, orl⟩, ⟨rrkv, ht, orr, ot⟩⟩

theorem rot2aOrd {kv : String} {vv : Json} {t ll lr r : Obj} {c : Std.Rbcolor} {lk k : String} {lv v : Json}
    (ot : Ordered t) (hn : Ordered (node c (node Std.Rbcolor.red ll lk lv lr) k v r))
    (hkv : KeysAll (fun x => compare kv x = Ordering.lt) (node c (node Std.Rbcolor.red ll lk lv lr) k v r))
    (ht : KeysAll (fun x => compare x kv = Ordering.lt) t) :
    Ordered (node Std.Rbcolor.red (node Std.Rbcolor.black t kv vv ll) lk lv (node Std.Rbcolor.black lr k v r)) :=
  match hn, hkv with
  | ⟨⟨hllk, hlkk, hlrk⟩, hrk, ⟨hlllk, hlrlk, oll, olr⟩, or⟩, ⟨⟨kvll, kvlk, _⟩, _, _⟩ =>
    ⟨⟨keysAllImp (fun x hx => cmpTrans hx kvlk) t ht, kvlk, hlllk⟩, ⟨hlrlk, hlkk, keysAllImp (fun x hx => cmpTrans hlkk hx) r hrk⟩,
      ⟨ht, kvll, ot, oll⟩, ⟨hlrk, hrk, olr, or⟩⟩

theorem rot2bOrd {kv : String} {vv : Json} {t l rl rr : Obj} {c : Std.Rbcolor} {k rk : String} {v rv : Json}
    (ot : Ordered t) (hn : Ordered (node c l k v (node Std.Rbcolor.red rl rk rv rr)))
    (hkv : KeysAll (fun x => compare kv x = Ordering.lt) (node c l k v (node Std.Rbcolor.red rl rk rv rr)))
    (ht : KeysAll (fun x => compare x kv = Ordering.lt) t) :
    Ordered (node Std.Rbcolor.red (node Std.Rbcolor.black t kv vv l) k v (node Std.Rbcolor.black rl rk rv rr)) :=
  match hn, hkv with
  | ⟨hlk, hkr, ol, orr⟩, ⟨kvl, kvk, _⟩ =>
    ⟨⟨keysAllImp (fun x hx => cmpTrans hx kvk) t ht, kvk, hlk⟩, hkr, ⟨ht, kvl, ot, ol⟩, orr⟩

theorem bal1Ord (kv : String) (vv : Json) (t n : Obj) (ot : Ordered t) (hn : Ordered n)
    (hkv : KeysAll (fun x => compare x kv = Ordering.lt) n) (ht : KeysAll (fun x => compare kv x = Ordering.lt) t) :
    Ordered (balance1 kv vv t n) := by
  cases n with
  | leaf => exact trivial
  | node c l k v r =>
    cases l with
    | leaf =>
      cases r with
      | leaf => exact ⟨hkv, ht, hn, ot⟩
      | node rc rl rk rv rr =>
        cases rc with
        | red => exact rot1bOrd ot hn hkv ht
        | black => exact ⟨hkv, ht, hn, ot⟩
    | node lc ll lk lv lr =>
      cases lc with
      | red =>
        cases r with
        | leaf => exact rot1aOrd ot hn hkv ht
        | node rc rl rk rv rr => cases rc <;> exact rot1aOrd ot hn hkv ht
      | black =>
        cases r with
        | leaf => exact ⟨hkv, ht, hn, ot⟩
        | node rc rl rk rv rr =>
          cases rc with
          | red => exact rot1bOrd ot hn hkv ht
          | black => exact ⟨hkv, ht, hn, ot⟩

theorem bal2Ord (t : Obj) (kv : String) (vv : Json) (n : Obj) (ot : Ordered t) (hn : Ordered n)
    (hkv : KeysAll (fun x => compare kv x = Ordering.lt) n) (ht : KeysAll (fun x => compare x kv = Ordering.lt) t) :
    Ordered (balance2 t kv vv n) := by
  cases n with
  | leaf => exact trivial
  | node c l k v r =>
    cases l with
    | leaf =>
      cases r with
      | leaf => exact ⟨ht, hkv, ot, hn⟩
      | node rc rl rk rv rr =>
        cases rc with
        | red => exact rot2bOrd ot hn hkv ht
        | black => exact ⟨ht, hkv, ot, hn⟩
    | node lc ll lk lv lr =>
      cases lc with
      | red =>
        cases r with
        | leaf => exact rot2aOrd ot hn hkv ht
        | node rc rl rk rv rr => cases rc <;> exact rot2aOrd ot hn hkv ht
      | black =>
        cases r with
        | leaf => exact ⟨ht, hkv, ot, hn⟩
        | node rc rl rk rv rr =>
          cases rc with
          | red => exact rot2bOrd ot hn hkv ht
          | black => exact ⟨ht, hkv, ot, hn⟩


theorem bal1Node (kv : String) (vv : Json) (t : Obj) (c : Std.Rbcolor) (l : Obj) (k : String) (v : Json) (r : Obj) :
    ∃ c' l' k' v' r', balance1 kv vv t (node c l k v r) = node c' l' k' v' r' := by
  cases l with
  | leaf =>
    cases r with
    | leaf => exact ⟨_, _, _, _, _, rfl⟩
    | node rc rl rk rv rr => cases rc <;> exact ⟨_, _, _, _, _, rfl⟩
  | node lc ll lk lv lr =>
    cases lc with
    | red =>
      cases r with
      | leaf => exact ⟨_, _, _, _, _, rfl⟩
      | node rc rl rk rv rr => cases rc <;> exact ⟨_, _, _, _, _, rfl⟩
    | black =>
      cases r with
      | leaf => exact ⟨_, _, _, _, _, rfl⟩
      | node rc rl rk rv rr => cases rc <;> exact ⟨_, _, _, _, _, rfl⟩

theorem bal2Node (t : Obj) (kv : String) (vv : Json) (c : Std.Rbcolor) (l : Obj) (k : String) (v : Json) (r : Obj) :
    ∃ c' l' k' v' r', balance2 t kv vv (node c l k v r) = node c' l' k' v' r' := by
  cases l with
  | leaf =>
    cases r with
    | leaf => exact ⟨_, _, _, _, _, rfl⟩
    | node rc rl rk rv rr => cases rc <;> exact ⟨_, _, _, _, _, rfl⟩
  | node lc ll lk lv lr =>
    cases lc with
    | red =>
      cases r with
      | leaf => exact ⟨_, _, _, _, _, rfl⟩
      | node rc rl rk rv rr => cases rc <;> exact ⟨_, _, _, _, _, rfl⟩
    | black =>
      cases r with
      | leaf => exact ⟨_, _, _, _, _, rfl⟩
      | node rc rl rk rv rr => cases rc <;> exact ⟨_, _, _, _, _, rfl⟩

-- insertion ----------------------------------------------------------------------------------------

theorem insNode (kx : String) (vx : Json) : ∀ (t : Obj), ∃ c l k v r, ins compare t kx vx = node c l k v r
  | leaf => ⟨_, _, _, _, _, rfl⟩
  | node c a ky vy b => by
    cases c with
    | red =>
      cases h : compare kx ky with
      | lt => exact ⟨Std.Rbcolor.red, ins compare a kx vx, ky, vy, b, by simp [Std.RBNode.ins, h]⟩
      | gt => exact ⟨Std.Rbcolor.red, a, ky, vy, ins compare b kx vx, by simp [Std.RBNode.ins, h]⟩
      | eq => exact ⟨Std.Rbcolor.red, a, kx, vx, b, by simp [Std.RBNode.ins, h]⟩
    | black =>
      cases h : compare kx ky with
      | lt =>
        cases hr : isRed a with
        | true =>
          have ⟨c', l', k', v', r', e⟩ := insNode kx vx a
          have ⟨c'', l'', k'', v'', r'', e'⟩ := bal1Node ky vy b c' l' k' v' r'
          exact ⟨c'', l'', k'', v'', r'', by simp [Std.RBNode.ins, h, hr]; rw [e, e']⟩
        | false => exact ⟨Std.Rbcolor.black, ins compare a kx vx, ky, vy, b, by simp [Std.RBNode.ins, h, hr]⟩
      | gt =>
        cases hr : isRed b with
        | true =>
          have ⟨c', l', k', v', r', e⟩ := insNode kx vx b
          have ⟨c'', l'', k'', v'', r'', e'⟩ := bal2Node a ky vy c' l' k' v' r'
          exact ⟨c'', l'', k'', v'', r'', by simp [Std.RBNode.ins, h, hr]; rw [e, e']⟩
        | false => exact ⟨Std.Rbcolor.black, a, ky, vy, ins compare b kx vx, by simp [Std.RBNode.ins, h, hr]⟩
      | eq => exact ⟨Std.Rbcolor.black, a, kx, vx, b, by simp [Std.RBNode.ins, h]⟩

theorem shapeLt {P : String → Prop} {kx ky : String} {a a' b : Obj} (ia : KeysAll P a' ↔ P kx ∧ KeysAll P a) :
    (KeysAll P a' ∧ P ky ∧ KeysAll P b) ↔ P kx ∧ (KeysAll P a ∧ P ky ∧ KeysAll P b) :=
  ⟨fun ⟨h1, h2, h3⟩ => match ia.1 h1 with | ⟨p, q⟩ => ⟨p, q, h2, h3⟩, fun ⟨p, q, h2, h3⟩ => ⟨ia.2 ⟨p, q⟩, h2, h3⟩⟩

theorem shapeGt {P : String → Prop} {kx ky : String} {a b b' : Obj} (ib : KeysAll P b' ↔ P kx ∧ KeysAll P b) :
    (KeysAll P a ∧ P ky ∧ KeysAll P b') ↔ P kx ∧ (KeysAll P a ∧ P ky ∧ KeysAll P b) :=
  ⟨fun ⟨h1, h2, h3⟩ => match ib.1 h3 with | ⟨p, q⟩ => ⟨p, h1, h2, q⟩, fun ⟨p, h1, h2, q⟩ => ⟨h1, h2, ib.2 ⟨p, q⟩⟩⟩

theorem shapeEq {P : String → Prop} {kx : String} {a b : Obj} :
    (KeysAll P a ∧ P kx ∧ KeysAll P b) ↔ P kx ∧ (KeysAll P a ∧ P kx ∧ KeysAll P b) :=
  ⟨fun ⟨h1, h2, h3⟩ => ⟨h2, h1, h2, h3⟩, fun ⟨_, h1, h2, h3⟩ => ⟨h1, h2, h3⟩⟩

/-- The keys of `ins t kx vx` are `kx` and the keys of `t`. -/
theorem insAll (P : String → Prop) (kx : String) (vx : Json) :
    ∀ (t : Obj), KeysAll P (ins compare t kx vx) ↔ P kx ∧ KeysAll P t
  | leaf => ⟨fun ⟨_, h, _⟩ => ⟨h, trivial⟩, fun ⟨h, _⟩ => ⟨trivial, h, trivial⟩⟩
  | node c a ky vy b => by
    cases c with
    | red =>
      cases h : compare kx ky with
      | lt => rw [show ins compare (node Std.Rbcolor.red a ky vy b) kx vx = node Std.Rbcolor.red (ins compare a kx vx) ky vy b
                by simp [Std.RBNode.ins, h]]; exact shapeLt (insAll P kx vx a)
      | gt => rw [show ins compare (node Std.Rbcolor.red a ky vy b) kx vx = node Std.Rbcolor.red a ky vy (ins compare b kx vx)
                by simp [Std.RBNode.ins, h]]; exact shapeGt (insAll P kx vx b)
      | eq =>
        have e := cmpEqOf h; subst e
        rw [show ins compare (node Std.Rbcolor.red a kx vy b) kx vx = node Std.Rbcolor.red a kx vx b
                by simp [Std.RBNode.ins, h]]; exact shapeEq
    | black =>
      cases h : compare kx ky with
      | lt =>
        cases hr : isRed a with
        | true =>
          rw [show ins compare (node Std.Rbcolor.black a ky vy b) kx vx = balance1 ky vy b (ins compare a kx vx)
                by simp [Std.RBNode.ins, h, hr]]
          have ⟨c', l', k', v', r', e⟩ := insNode kx vx a
          have ia := insAll P kx vx a
          rw [e] at ia ⊢
          exact Iff.trans (bal1All P ky vy b c' l' k' v' r') (shapeLt ia)
        | false =>
          rw [show ins compare (node Std.Rbcolor.black a ky vy b) kx vx = node Std.Rbcolor.black (ins compare a kx vx) ky vy b
                by simp [Std.RBNode.ins, h, hr]]; exact shapeLt (insAll P kx vx a)
      | gt =>
        cases hr : isRed b with
        | true =>
          rw [show ins compare (node Std.Rbcolor.black a ky vy b) kx vx = balance2 a ky vy (ins compare b kx vx)
                by simp [Std.RBNode.ins, h, hr]]
          have ⟨c', l', k', v', r', e⟩ := insNode kx vx b
          have ib := insAll P kx vx b
          rw [e] at ib ⊢
          exact Iff.trans (bal2All P a ky vy c' l' k' v' r') (shapeGt ib)
        | false =>
          rw [show ins compare (node Std.Rbcolor.black a ky vy b) kx vx = node Std.Rbcolor.black a ky vy (ins compare b kx vx)
                by simp [Std.RBNode.ins, h, hr]]; exact shapeGt (insAll P kx vx b)
      | eq =>
        have e := cmpEqOf h; subst e
        rw [show ins compare (node Std.Rbcolor.black a kx vy b) kx vx = node Std.Rbcolor.black a kx vx b
                by simp [Std.RBNode.ins, h]]; exact shapeEq

/-- Insertion keeps a search tree ordered. -/
theorem insOrd (kx : String) (vx : Json) : ∀ (t : Obj), Ordered t → Ordered (ins compare t kx vx)
  | leaf, _ => ⟨trivial, trivial, trivial, trivial⟩
  | node c a ky vy b, ⟨ha, hb, oa, ob⟩ => by
    cases c with
    | red =>
      cases h : compare kx ky with
      | lt => rw [show ins compare (node Std.Rbcolor.red a ky vy b) kx vx = node Std.Rbcolor.red (ins compare a kx vx) ky vy b
                by simp [Std.RBNode.ins, h]]; exact ⟨(insAll _ kx vx a).2 ⟨h, ha⟩, hb, insOrd kx vx a oa, ob⟩
      | gt => rw [show ins compare (node Std.Rbcolor.red a ky vy b) kx vx = node Std.Rbcolor.red a ky vy (ins compare b kx vx)
                by simp [Std.RBNode.ins, h]]; exact ⟨ha, (insAll _ kx vx b).2 ⟨cmpGtSwap h, hb⟩, oa, insOrd kx vx b ob⟩
      | eq =>
        have e := cmpEqOf h; subst e
        rw [show ins compare (node Std.Rbcolor.red a kx vy b) kx vx = node Std.Rbcolor.red a kx vx b
                by simp [Std.RBNode.ins, h]]; exact ⟨ha, hb, oa, ob⟩
    | black =>
      cases h : compare kx ky with
      | lt =>
        cases hr : isRed a with
        | true =>
          rw [show ins compare (node Std.Rbcolor.black a ky vy b) kx vx = balance1 ky vy b (ins compare a kx vx)
                by simp [Std.RBNode.ins, h, hr]]
          exact bal1Ord ky vy b _ ob (insOrd kx vx a oa) ((insAll _ kx vx a).2 ⟨h, ha⟩) hb
        | false =>
          rw [show ins compare (node Std.Rbcolor.black a ky vy b) kx vx = node Std.Rbcolor.black (ins compare a kx vx) ky vy b
                by simp [Std.RBNode.ins, h, hr]]; exact ⟨(insAll _ kx vx a).2 ⟨h, ha⟩, hb, insOrd kx vx a oa, ob⟩
      | gt =>
        cases hr : isRed b with
        | true =>
          rw [show ins compare (node Std.Rbcolor.black a ky vy b) kx vx = balance2 a ky vy (ins compare b kx vx)
                by simp [Std.RBNode.ins, h, hr]]
          exact bal2Ord a ky vy _ oa (insOrd kx vx b ob) ((insAll _ kx vx b).2 ⟨cmpGtSwap h, hb⟩) ha
        | false =>
          rw [show ins compare (node Std.Rbcolor.black a ky vy b) kx vx = node Std.Rbcolor.black a ky vy (ins compare b kx vx)
                by simp [Std.RBNode.ins, h, hr]]; exact ⟨ha, (insAll _ kx vx b).2 ⟨cmpGtSwap h, hb⟩, oa, insOrd kx vx b ob⟩
      | eq =>
        have e := cmpEqOf h; subst e
        rw [show ins compare (node Std.Rbcolor.black a kx vy b) kx vx = node Std.Rbcolor.black a kx vx b
                by simp [Std.RBNode.ins, h]]; exact ⟨ha, hb, oa, ob⟩


theorem insertAll (P : String → Prop) (t : Obj) (k : String) (v : Json) :
    KeysAll P (insert compare t k v) ↔ P k ∧ KeysAll P t := by
  cases hr : isRed t with
  | true =>
    rw [show insert compare t k v = setBlack (ins compare t k v) by simp [Std.RBNode.insert, hr]]
    have ⟨c, l, k', v', r, e⟩ := insNode k v t
    have i := insAll P k v t
    rw [e] at i ⊢
    exact i
  | false =>
    rw [show insert compare t k v = ins compare t k v by simp [Std.RBNode.insert, hr]]
    exact insAll P k v t

theorem insertOrd (t : Obj) (k : String) (v : Json) (ht : Ordered t) : Ordered (insert compare t k v) := by
  cases hr : isRed t with
  | true =>
    rw [show insert compare t k v = setBlack (ins compare t k v) by simp [Std.RBNode.insert, hr]]
    have o := insOrd k v t ht
    have ⟨c, l, k', v', r, e⟩ := insNode k v t
    rw [e] at o ⊢
    exact o
  | false =>
    rw [show insert compare t k v = ins compare t k v by simp [Std.RBNode.insert, hr]]
    exact insOrd k v t ht

-- lookup -------------------------------------------------------------------------------------------

theorem findNode (c : Std.Rbcolor) (l : Obj) (ky : String) (vy : Json) (r : Obj) (k : String) :
    (node c l ky vy r).find compare k = (match compare k ky with
      | Ordering.lt => l.find compare k
      | Ordering.gt => r.find compare k
      | Ordering.eq => some vy) := rfl

/-- A tree none of whose keys is `k` has no value at `k` (no order needed). -/
theorem findNoneOf {k : String} : ∀ (t : Obj), KeysAll (fun x => x ≠ k) t → t.find compare k = none
  | leaf, _ => rfl
  | node c l ky vy r, ⟨hl, hky, hr⟩ => by
    rw [findNode]
    cases h : compare k ky with
    | lt => exact findNoneOf l hl
    | gt => exact findNoneOf r hr
    | eq => exact absurd (cmpEqOf h).symm hky

/-- What `find` returns is at a key of the tree. -/
theorem findSomeKey {P : String → Prop} {k : String} {v : Json} :
    ∀ (t : Obj), t.find compare k = some v → KeysAll P t → P k
  | leaf, h, _ => nomatch h
  | node c l ky vy r, h, ⟨hl, hky, hr⟩ => by
    rw [findNode] at h
    cases hc : compare k ky with
    | lt => rw [hc] at h; exact findSomeKey l h hl
    | gt => rw [hc] at h; exact findSomeKey r h hr
    | eq => rw [cmpEqOf hc]; exact hky

theorem neOfLt {a b : String} (h : compare a b = Ordering.lt) : b ≠ a := by
  intro e; rw [e, cmpSelf] at h; cases h

theorem neOfGt {a b : String} (h : compare a b = Ordering.gt) : b ≠ a := by
  intro e; rw [e, cmpSelf] at h; cases h

theorem neOfLtGt {x k ky : String} (hx : compare x ky = Ordering.lt) (hk : compare k ky = Ordering.gt) : x ≠ k := by
  intro e; rw [e, hk] at hx; cases hx

/-- On a search tree, `find` misses `k` only when no key is `k`. -/
theorem findNoneAll {k : String} : ∀ (t : Obj), Ordered t → t.find compare k = none → KeysAll (fun x => x ≠ k) t
  | leaf, _, _ => trivial
  | node c l ky vy r, ⟨hl, hr, ol, or⟩, h => by
    rw [findNode] at h
    cases hc : compare k ky with
    | lt =>
      rw [hc] at h
      exact ⟨findNoneAll l ol h, neOfLt hc, keysAllImp (fun x hx => neOfLt (cmpTrans hc hx)) r hr⟩
    | gt =>
      rw [hc] at h
      exact ⟨keysAllImp (fun x hx => neOfLtGt hx hc) l hl, neOfGt hc, findNoneAll r or h⟩
    | eq => rw [hc] at h; cases h

theorem memFoldNode {x : String × Json} {acc : List (String × Json)} {c : Std.Rbcolor} {l : Obj} {ky : String} {vy : Json}
    {r : Obj} (h : x ∈ (node c l ky vy r).fold (fun acc k v => (k, v) :: acc) acc) :
    x ∈ r.fold (fun acc k v => (k, v) :: acc) ((ky, vy) :: l.fold (fun acc k v => (k, v) :: acc) acc) := h

/-- On a search tree every member is found: a pair the fold lists is what `find` returns at its key. -/
theorem findOfMemFold {k : String} {v : Json} : ∀ (t : Obj) (acc : List (String × Json)), Ordered t →
    (k, v) ∈ t.fold (fun acc k v => (k, v) :: acc) acc → (k, v) ∈ acc ∨ t.find compare k = some v
  | leaf, acc, _, h => Or.inl h
  | node c l ky vy r, acc, ⟨hl, hr, ol, or⟩, h => by
    rw [findNode]
    cases findOfMemFold r _ or (memFoldNode h) with
    | inr hf =>
      have hk : compare ky k = Ordering.lt := findSomeKey r hf hr
      rw [cmpLtSwap hk]
      exact Or.inr hf
    | inl hm =>
      cases memCons hm with
      | inl e =>
        cases e
        rw [cmpSelf]
        exact Or.inr rfl
      | inr hm' =>
        cases findOfMemFold l acc ol hm' with
        | inl ha => exact Or.inl ha
        | inr hf =>
          have hk : compare k ky = Ordering.lt := findSomeKey l hf hl
          rw [hk]
          exact Or.inr hf


-- objects built by `Json.mkObj` ---------------------------------------------------------------------

theorem objOfLoop (f : String × Json → Obj → Id (ForInStep Obj))
    (hf : ∀ k v r, f (k, v) r = ForInStep.yield (insert compare r k v)) :
    ∀ (ps : List (String × Json)) (t : Obj), List.forIn.loop f ps t = objOf t ps
  | [], t => rfl
  | (k, v) :: ps, t => by
    show (do let a ← f (k, v) t; match a with
      | ForInStep.done b => pure b
      | ForInStep.yield b => List.forIn.loop f ps b : Id Obj) = _
    rw [hf k v t]
    exact objOfLoop f hf ps _

theorem mkObjEq (ps : List (String × Json)) : Json.mkObj ps = Json.obj (objOf leaf ps) :=
  congrArg Json.obj (objOfLoop _ (fun k v r => rfl) ps leaf)

theorem objOfOrd : ∀ (ps : List (String × Json)) (t : Obj), Ordered t → Ordered (objOf t ps)
  | [], t, h => h
  | (k, v) :: ps, t, h => objOfOrd ps _ (insertOrd t k v h)

theorem objOfAll (P : String → Prop) : ∀ (ps : List (String × Json)) (t : Obj),
    KeysAll P (objOf t ps) ↔ KeysAll P t ∧ KeysAllL P ps
  | [], t => ⟨fun h => ⟨h, trivial⟩, fun ⟨h, _⟩ => h⟩
  | (k, v) :: ps, t => by
    have i := objOfAll P ps (insert compare t k v)
    have j := insertAll P t k v
    exact ⟨fun h => match i.1 h with | ⟨h1, h2⟩ => match j.1 h1 with | ⟨h3, h4⟩ => ⟨h4, h3, h2⟩,
      fun ⟨h1, h2, h3⟩ => i.2 ⟨j.2 ⟨h2, h1⟩, h3⟩⟩

theorem neOfBeqFalse {a b : String} (h : (a == b) = false) : a ≠ b := by
  intro e; rw [e] at h
  have t : (b == b) = true := decideEqTrue rfl
  rw [t] at h; cases h

theorem anyKeyFalse {k : String} : ∀ (ps : List (String × Json)),
    anyB (fun x => x.1 == k) ps = false → KeysAllL (fun x => x ≠ k) ps
  | [], _ => trivial
  | p :: ps, h => by
    cases hp : p.1 == k with
    | true =>
      have e : anyB (fun x => x.1 == k) (p :: ps) = true := by simp [anyB, hp]
      rw [e] at h; cases h
    | false =>
      have e : anyB (fun x => x.1 == k) (p :: ps) = anyB (fun x => x.1 == k) ps := by simp [anyB, hp]
      rw [e] at h
      exact ⟨neOfBeqFalse hp, anyKeyFalse ps h⟩

theorem keysAllLAny {k : String} : ∀ (ps : List (String × Json)),
    KeysAllL (fun x => x ≠ k) ps → anyB (fun x => x.1 == k) ps = false
  | [], _ => rfl
  | p :: ps, ⟨hp, hs⟩ => by
    have hb : (p.1 == k) = false := decideEqFalse hp
    have e : anyB (fun x => x.1 == k) (p :: ps) = anyB (fun x => x.1 == k) ps := by simp [anyB, hb]
    rw [e]
    exact keysAllLAny ps hs

/-- `Json.mkObj` has a value at `k` exactly when the list has a pair with key `k`. -/
theorem mkObjFind (ps : List (String × Json)) (k : String) :
    ((objOf leaf ps).find compare k).isSome = anyB (fun x => x.1 == k) ps := by
  cases hf : (objOf leaf ps).find compare k with
  | none =>
    have h := (objOfAll _ ps leaf).1 (findNoneAll _ (objOfOrd ps leaf trivial) hf)
    exact (keysAllLAny ps h.2).symm
  | some v =>
    cases ha : anyB (fun x => x.1 == k) ps with
    | true => rfl
    | false =>
      have hn := findNoneOf _ ((objOfAll _ ps leaf).2 ⟨trivial, anyKeyFalse ps ha⟩)
      rw [hf] at hn; cases hn

/-- On a search tree every pair `pairs` lists is what `find` returns at its key. -/
theorem findPairs {t : Obj} {k : String} {v : Json} (ht : Ordered t) (h : (k, v) ∈ pairs t) :
    t.find compare k = some v :=
  match findOfMemFold t [] ht h with
  | Or.inl hm => nomatch hm
  | Or.inr hf => hf

/-- `getObjVal?` finds every member of an ordered object. -/
theorem getObjValPairs {t : Obj} {k : String} {v : Json} (ht : Ordered t) (h : (k, v) ∈ pairs t) :
    (Json.obj t).getObjVal? k = Except.ok v := by
  have e := findPairs ht h
  simp [Json.getObjVal?, e]
  rfl

-- the oracle's check ---------------------------------------------------------------------------------

theorem andParts : ∀ {x y : Bool}, (x && y) = true → x = true ∧ y = true
  | true, true, _ => ⟨rfl, rfl⟩
  | true, false, h => nomatch h
  | false, _, h => nomatch h

theorem keysAllBSound {p : String → Bool} : ∀ (t : Obj), keysAllB p t = true → KeysAll (fun x => p x = true) t
  | leaf, _ => trivial
  | node _ l k _ r, h => by
    have ⟨h12, h3⟩ := andParts h
    have ⟨h1, h2⟩ := andParts h12
    exact ⟨keysAllBSound l h1, h2, keysAllBSound r h3⟩

theorem ordLtOfBeq {a b : String} (h : (compare a b == Ordering.lt) = true) : compare a b = Ordering.lt := by
  cases hc : compare a b with
  | lt => rfl
  | eq => rw [hc] at h; cases h
  | gt => rw [hc] at h; cases h

theorem orderedBSound : ∀ (t : Obj), orderedB t = true → Ordered t
  | leaf, _ => trivial
  | node _ l k _ r, h => by
    have ⟨h123, h4⟩ := andParts h
    have ⟨h12, h3⟩ := andParts h123
    have ⟨h1, h2⟩ := andParts h12
    exact ⟨keysAllImp (fun x hx => ordLtOfBeq hx) l (keysAllBSound l h1),
      keysAllImp (fun x hx => ordLtOfBeq hx) r (keysAllBSound r h2), orderedBSound l h3, orderedBSound r h4⟩

theorem objsOrderedArrElem {a : Array Json} {x : Json} (h : ObjsOrdered (Json.arr a)) (hx : x ∈ a.data) : ObjsOrdered x := by
  cases h with
  | arr _ hm => exact hm x hx

theorem objsOrderedObjElem {kvs : Obj} {k : String} {v : Json} (h : ObjsOrdered (Json.obj kvs)) (hx : (k, v) ∈ pairs kvs) :
    ObjsOrdered v := by
  cases h with
  | obj _ _ hm => exact hm k v hx

/-- On a value whose objects are ordered, every member of an object is what `getObjVal?` reads. -/
theorem getObjValOfMem {j : Json} {kvs : Obj} {k : String} {v : Json} (hj : ObjsOrdered j) (e : j = Json.obj kvs)
    (h : (k, v) ∈ pairs kvs) : j.getObjVal? k = Except.ok v := by
  subst e
  cases hj with
  | obj _ ho _ => exact getObjValPairs ho h

end AgentWarrant.Json

namespace AgentWarrant.Revision.ArgCover
open Lean AgentWarrant.Monitor.Full AgentWarrant.Json

theorem presentAvOf : ∀ (v : Json), holds Lit.present (avOf v) = true
  | Json.null => rfl
  | Json.bool _ => rfl
  | Json.num _ => rfl
  | Json.str _ => rfl
  | Json.arr _ => rfl
  | Json.obj _ => rfl

theorem lookupNil : ∀ (v : Json), lookupPath v [] = some v
  | Json.null => rfl
  | Json.bool _ => rfl
  | Json.num _ => rfl
  | Json.str _ => rfl
  | Json.arr _ => rfl
  | Json.obj _ => rfl

/-- A top-level key of the argument object `argsJson args` is present exactly when `args` has a pair
with that key: the closure check's `hkeys`, proved. -/
theorem argsJsonPresent (s : State) (args : List (String × Json)) (e : Effect) (k : String) :
    holds Lit.present (srcVal s args e (Src.path [k])) = anyB (fun x => x.1 == k) args := by
  rw [← mkObjFind args k]
  show holds Lit.present (avOfOpt (lookupPath (Json.mkObj args) [k])) = _
  rw [mkObjEq]
  show holds Lit.present (avOfOpt (match (objOf Std.RBNode.leaf args).find compare k with
    | some v => lookupPath v []
    | none => none)) = _
  cases (objOf Std.RBNode.leaf args).find compare k with
  | none => rfl
  | some v => show holds Lit.present (avOfOpt (lookupPath v [])) = true; rw [lookupNil]; exact presentAvOf v

end AgentWarrant.Revision.ArgCover
