import AgentWarrant.Thm.Revision.ArgCoverWay
/-! A call whose argument keys are distinct reads each key of its argument object (`Json.mkObj`, a
red-black tree built by insertion) as `List.lookup` reads it: `hfirst` of `preparedCoverEvery`
(`Thm/Revision/ArgCoverWay.lean`) from distinct keys (`firstOfDistinct`). Insertion keeps every pair-wise
invariant that the inserted pair meets (`insPairs`: the balancing rotations only move pairs, and a
repeated key's old pair is dropped), and `find` returns a pair of the tree (`findPairsAll`), so the
invariant "the pair of key `k` has the value `List.lookup` reads" survives `Json.mkObj` when no key
repeats. -/
namespace AgentWarrant.Json
open Lean AgentWarrant.Monitor.Full Std.RBNode

/-- Every pair of the tree meets `P`. -/
def PairsAll (P : String → Json → Prop) : Obj → Prop
  | leaf => True
  | node _ l k v r => PairsAll P l ∧ P k v ∧ PairsAll P r

theorem bal1Pairs (P : String → Json → Prop) (kv : String) (vv : Json) (t : Obj) (c : Std.Rbcolor) (l : Obj) (k : String)
    (v : Json) (r : Obj) :
    PairsAll P (node c l k v r) ∧ P kv vv ∧ PairsAll P t → PairsAll P (balance1 kv vv t (node c l k v r)) := by
  cases l with
  | leaf =>
    cases r with
    | leaf => exact fun ⟨⟨a, b, c⟩, d, e⟩ => ⟨⟨a, b, c⟩, d, e⟩
    | node rc rl rk rv rr =>
      cases rc with
      | red => exact fun ⟨⟨a, b, c, d, e⟩, f, g⟩ => ⟨⟨a, b, c⟩, d, e, f, g⟩
      | black => exact fun ⟨⟨a, b, c⟩, d, e⟩ => ⟨⟨a, b, c⟩, d, e⟩
  | node lc ll lk lv lr =>
    cases lc with
    | red =>
      cases r with
      | leaf => exact fun ⟨⟨⟨a, b, c⟩, d, e⟩, f, g⟩ => ⟨⟨a, b, c⟩, d, e, f, g⟩
      | node rc rl rk rv rr =>
        cases rc <;> exact fun ⟨⟨⟨a, b, c⟩, d, e⟩, f, g⟩ => ⟨⟨a, b, c⟩, d, e, f, g⟩
    | black =>
      cases r with
      | leaf => exact fun ⟨⟨a, b, c⟩, d, e⟩ => ⟨⟨a, b, c⟩, d, e⟩
      | node rc rl rk rv rr =>
        cases rc with
        | red => exact fun ⟨⟨a, b, c, d, e⟩, f, g⟩ => ⟨⟨a, b, c⟩, d, e, f, g⟩
        | black => exact fun ⟨⟨a, b, c⟩, d, e⟩ => ⟨⟨a, b, c⟩, d, e⟩

theorem bal2Pairs (P : String → Json → Prop) (t : Obj) (kv : String) (vv : Json) (c : Std.Rbcolor) (l : Obj) (k : String)
    (v : Json) (r : Obj) :
    PairsAll P t ∧ P kv vv ∧ PairsAll P (node c l k v r) → PairsAll P (balance2 t kv vv (node c l k v r)) := by
  cases l with
  | leaf =>
    cases r with
    | leaf => exact fun h => h
    | node rc rl rk rv rr =>
      cases rc with
      | red => exact fun ⟨a, b, c, d, e⟩ => ⟨⟨a, b, c⟩, d, e⟩
      | black => exact fun h => h
  | node lc ll lk lv lr =>
    cases lc with
    | red =>
      cases r with
      | leaf => exact fun ⟨a, b, ⟨c, d, e⟩, f, g⟩ => ⟨⟨a, b, c⟩, d, e, f, g⟩
      | node rc rl rk rv rr =>
        cases rc <;> exact fun ⟨a, b, ⟨c, d, e⟩, f, g⟩ => ⟨⟨a, b, c⟩, d, e, f, g⟩
    | black =>
      cases r with
      | leaf => exact fun h => h
      | node rc rl rk rv rr =>
        cases rc with
        | red => exact fun ⟨a, b, c, d, e⟩ => ⟨⟨a, b, c⟩, d, e⟩
        | black => exact fun h => h

/-- Insertion keeps an invariant of the pairs that the inserted pair meets. -/
theorem insPairs (P : String → Json → Prop) (kx : String) (vx : Json) (hx : P kx vx) :
    ∀ (t : Obj), PairsAll P t → PairsAll P (ins compare t kx vx)
  | leaf, _ => ⟨trivial, hx, trivial⟩
  | node c a ky vy b, ⟨ha, hy, hb⟩ => by
    cases c with
    | red =>
      cases h : compare kx ky with
      | lt => rw [show ins compare (node Std.Rbcolor.red a ky vy b) kx vx = node Std.Rbcolor.red (ins compare a kx vx) ky vy b
                by simp [Std.RBNode.ins, h]]; exact ⟨insPairs P kx vx hx a ha, hy, hb⟩
      | gt => rw [show ins compare (node Std.Rbcolor.red a ky vy b) kx vx = node Std.Rbcolor.red a ky vy (ins compare b kx vx)
                by simp [Std.RBNode.ins, h]]; exact ⟨ha, hy, insPairs P kx vx hx b hb⟩
      | eq =>
        have e := cmpEqOf h; subst e
        rw [show ins compare (node Std.Rbcolor.red a kx vy b) kx vx = node Std.Rbcolor.red a kx vx b
                by simp [Std.RBNode.ins, h]]; exact ⟨ha, hx, hb⟩
    | black =>
      cases h : compare kx ky with
      | lt =>
        cases hr : isRed a with
        | true =>
          rw [show ins compare (node Std.Rbcolor.black a ky vy b) kx vx = balance1 ky vy b (ins compare a kx vx)
                by simp [Std.RBNode.ins, h, hr]]
          have ia := insPairs P kx vx hx a ha
          have ⟨c', l', k', v', r', e⟩ := insNode kx vx a
          rw [e] at ia ⊢
          exact bal1Pairs P ky vy b c' l' k' v' r' ⟨ia, hy, hb⟩
        | false =>
          rw [show ins compare (node Std.Rbcolor.black a ky vy b) kx vx = node Std.Rbcolor.black (ins compare a kx vx) ky vy b
                by simp [Std.RBNode.ins, h, hr]]; exact ⟨insPairs P kx vx hx a ha, hy, hb⟩
      | gt =>
        cases hr : isRed b with
        | true =>
          rw [show ins compare (node Std.Rbcolor.black a ky vy b) kx vx = balance2 a ky vy (ins compare b kx vx)
                by simp [Std.RBNode.ins, h, hr]]
          have ib := insPairs P kx vx hx b hb
          have ⟨c', l', k', v', r', e⟩ := insNode kx vx b
          rw [e] at ib ⊢
          exact bal2Pairs P a ky vy c' l' k' v' r' ⟨ha, hy, ib⟩
        | false =>
          rw [show ins compare (node Std.Rbcolor.black a ky vy b) kx vx = node Std.Rbcolor.black a ky vy (ins compare b kx vx)
                by simp [Std.RBNode.ins, h, hr]]; exact ⟨ha, hy, insPairs P kx vx hx b hb⟩
      | eq =>
        have e := cmpEqOf h; subst e
        rw [show ins compare (node Std.Rbcolor.black a kx vy b) kx vx = node Std.Rbcolor.black a kx vx b
                by simp [Std.RBNode.ins, h]]; exact ⟨ha, hx, hb⟩

theorem insertPairs (P : String → Json → Prop) (t : Obj) (k : String) (v : Json) (hx : P k v) (ht : PairsAll P t) :
    PairsAll P (insert compare t k v) := by
  cases hr : isRed t with
  | true =>
    rw [show insert compare t k v = setBlack (ins compare t k v) by simp [Std.RBNode.insert, hr]]
    have i := insPairs P k v hx t ht
    have ⟨c, l, k', v', r, e⟩ := insNode k v t
    rw [e] at i ⊢
    exact i
  | false =>
    rw [show insert compare t k v = ins compare t k v by simp [Std.RBNode.insert, hr]]
    exact insPairs P k v hx t ht

/-- `Json.mkObj`'s tree meets every pair-wise invariant its list's pairs meet. -/
theorem objOfPairs (P : String → Json → Prop) : ∀ (ps : List (String × Json)) (t : Obj),
    PairsAll P t → (∀ p, p ∈ ps → P p.1 p.2) → PairsAll P (objOf t ps)
  | [], t, ht, _ => ht
  | (k, v) :: ps, t, ht, hp => objOfPairs P ps _ (insertPairs P t k v (hp (k, v) (Mem.head _)) ht)
      (fun p h => hp p (Mem.tail _ h))

/-- `find` returns a pair of the tree. -/
theorem findPairsAll (P : String → Json → Prop) (k : String) : ∀ (t : Obj) (v : Json),
    PairsAll P t → t.find compare k = some v → P k v
  | leaf, v, _, h => by cases h
  | node c l ky vy r, v, ⟨hl, hy, hr⟩, h => by
    rw [findNode] at h
    cases hc : compare k ky with
    | lt => rw [hc] at h; exact findPairsAll P k l v hl h
    | gt => rw [hc] at h; exact findPairsAll P k r v hr h
    | eq =>
      rw [hc] at h
      have e1 := cmpEqOf hc
      have e2 : vy = v := Option.some.inj h
      rw [e1, ← e2]; exact hy

end AgentWarrant.Json

namespace AgentWarrant.Revision.ArgCover
open Lean AgentWarrant AgentWarrant.Monitor AgentWarrant.Monitor.Full AgentWarrant.Json

/-- No key of the list repeats. -/
def keysDistinct : List (String × Json) → Bool
  | [] => true
  | p :: ps => !anyB (fun x => x.1 == p.1) ps && keysDistinct ps

theorem lookupNoneKey (k : String) : ∀ (ps : List (String × Json)), ps.lookup k = none → anyB (fun x => x.1 == k) ps = false
  | [], _ => rfl
  | (k1, v1) :: ps, h => by
    have h1 : (match k == k1 with | true => some v1 | false => ps.lookup k) = none := h
    cases hk : k == k1 with
    | true => rw [hk] at h1; cases h1
    | false =>
      rw [hk] at h1
      have hp : (k1 == k) = false := decideEqFalse (fun e => neOfBeqFalse hk e.symm)
      show (match k1 == k with | true => true | false => anyB (fun x => x.1 == k) ps) = false
      rw [hp]
      exact lookupNoneKey k ps h1

theorem lookupSomeKey (k : String) (w : Json) : ∀ (ps : List (String × Json)), ps.lookup k = some w →
    anyB (fun x => x.1 == k) ps = true
  | [], h => by cases h
  | (k1, v1) :: ps, h => by
    have h1 : (match k == k1 with | true => some v1 | false => ps.lookup k) = some w := h
    show (match k1 == k with | true => true | false => anyB (fun x => x.1 == k) ps) = true
    cases hk : k == k1 with
    | true =>
      have hp : (k1 == k) = true := by rw [strEqOfBeq hk]; exact strBeqSelf k1
      rw [hp]
    | false =>
      rw [hk] at h1
      cases k1 == k with
      | true => rfl
      | false => exact lookupSomeKey k w ps h1

/-- With distinct keys, every pair of key `k` has the value `List.lookup` reads. -/
theorem distinctLookup (k : String) (w : Json) : ∀ (ps : List (String × Json)), keysDistinct ps = true →
    ps.lookup k = some w → ∀ p, p ∈ ps → p.1 = k → p.2 = w
  | [], _, h, _, _, _ => by cases h
  | (k1, v1) :: ps, hd, h, p, hp, ek => by
    have ⟨hq, hds⟩ := AgentWarrant.Json.andParts hd
    have h1 : (match k == k1 with | true => some v1 | false => ps.lookup k) = some w := h
    cases hk : k == k1 with
    | true =>
      rw [hk] at h1
      have ew : v1 = w := Option.some.inj h1
      cases memCons hp with
      | inl e => rw [e]; exact ew
      | inr hin =>
        have eq1 : k = k1 := strEqOfBeq hk
        have g : anyB (fun x => x.1 == k1) ps = true := by
          apply anyBIntro hin
          rw [ek, eq1]; exact strBeqSelf k1
        rw [g] at hq; cases hq
    | false =>
      rw [hk] at h1
      cases memCons hp with
      | inl e =>
        rw [e] at ek
        have ek' : k1 = k := ek
        rw [← ek', strBeqSelf] at hk; cases hk
      | inr hin => exact distinctLookup k w ps hds h1 p hin ek

/-- A call whose argument keys are distinct: its argument object reads each key as `List.lookup` does
(`hfirst` of `preparedCoverEvery`). -/
theorem firstOfDistinct (args : List (String × Json)) (hd : keysDistinct args = true) (k : String) :
    lookupPath (argsJson args) [k] = args.lookup k := by
  have hf := mkObjFind args k
  show lookupPath (Json.mkObj args) [k] = _
  rw [mkObjEq]
  show (match (objOf Std.RBNode.leaf args).find compare k with
    | some v => lookupPath v []
    | none => none) = _
  cases hl : args.lookup k with
  | none =>
    rw [lookupNoneKey k args hl] at hf
    cases hfd : (objOf Std.RBNode.leaf args).find compare k with
    | none => rfl
    | some v => rw [hfd] at hf; cases hf
  | some w =>
    rw [lookupSomeKey k w args hl] at hf
    cases hfd : (objOf Std.RBNode.leaf args).find compare k with
    | none => rw [hfd] at hf; cases hf
    | some v =>
      have inv := objOfPairs (fun k' v' => k' = k → v' = w) args Std.RBNode.leaf trivial
        (fun p hp ek => distinctLookup k w args hd hl p hp ek)
      have ev : v = w := findPairsAll (fun k' v' => k' = k → v' = w) k _ v inv hfd rfl
      show lookupPath v [] = some w
      rw [lookupNil, ev]

/-- `preparedCoverEvery` with distinct argument keys in place of `hfirst` (`firstOfDistinct`). -/
theorem preparedCoverDistinct (p : Policy) (a : String) (gs : List Monitor.Full.Grant) (E : Option (List Json))
    (listed : List (List Bool))
    (hfrag : ∀ g, g ∈ gs → g.action = a → grantOk g = true)
    (hcov : WaysCovered p a gs E listed)
    (s : State) (hreach : ∃ cs, s = (runFull p (initialState p) cs).2)
    (c : Call) (t : Tool) (es : List Effect) (hprep : prepare p s c = Except.ok (t, es))
    (e : Effect) (he : e ∈ es) (ha : e.action = a)
    (hE : InE E e) (hdistinct : keysDistinct c.args = true) :
    anyB (fun u => decide (u = gs.map (fun g => grantMatches s c.args g e))) listed = true :=
  preparedCoverEvery p a gs E listed hfrag hcov s hreach c t es hprep e he ha hE
    (firstOfDistinct c.args hdistinct)

end AgentWarrant.Revision.ArgCover
