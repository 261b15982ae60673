import AgentWarrant.Oracle.Common
import AgentWarrant.Spec.Lib
import AgentWarrant.Spec.Monitor.Decode
/-! What a successful decoding step says about its input: the inversion lemmas the 2021 core lacks
for `Except` bind, the array traversals (`Array.forIn`, `Array.mapM`, `Array.toList`, all index
loops over `Array.get`) and the oracle's field readers (`req`, `getAs`, `arrOf`).

The traversals are stated with `Forall2` (`Spec/Monitor/Decode.lean`): input and output lists of the same length, related
element by element. The index loops are handled by an invariant on how much of the array is left
(`k + i = size`: `k` elements done, `i` to go), so no subtraction lemma is needed beyond
`addSubCancel`. -/
namespace AgentWarrant.Oracle
open Lean AgentWarrant.Monitor.Full

theorem forall2Right {α β : Type} {R : α → β → Prop} {y : β} :
    ∀ {l : List α} {m : List β}, Forall2 R l m → y ∈ m → ∃ x, x ∈ l ∧ R x y
  | _, _, Forall2.nil, hy => nomatch hy
  | a :: _, _ :: _, Forall2.cons hab hr, hy => by
    cases hy with
    | head _ => exact ⟨a, Mem.head _, hab⟩
    | tail _ t => have ⟨x, hx, r⟩ := forall2Right hr t; exact ⟨x, Mem.tail _ hx, r⟩

theorem forall2Length {α β : Type} {R : α → β → Prop} :
    ∀ {l : List α} {m : List β}, Forall2 R l m → List.length l = List.length m
  | _, _, Forall2.nil => rfl
  | _, _, Forall2.cons _ hr => by rw [List.length_cons, List.length_cons, forall2Length hr]

theorem forall2Append {α β : Type} {R : α → β → Prop} :
    ∀ {l : List α} {m : List β} {l' : List α} {m' : List β}, Forall2 R l m → Forall2 R l' m' →
      Forall2 R (l ++ l') (m ++ m')
  | _, _, _, _, Forall2.nil, h' => h'
  | _, _, _, _, Forall2.cons hab hr, h' => by
    rw [List.cons_append, List.cons_append]; exact Forall2.cons hab (forall2Append hr h')

theorem forall2Mono {α β : Type} {R S : α → β → Prop} (hrs : ∀ a b, R a b → S a b) :
    ∀ {l : List α} {m : List β}, Forall2 R l m → Forall2 S l m
  | _, _, Forall2.nil => Forall2.nil
  | _, _, Forall2.cons hab hr => Forall2.cons (hrs _ _ hab) (forall2Mono hrs hr)

-- Except -------------------------------------------------------------------------------------------

theorem bindOk {ε α β : Type} {x : Except ε α} {f : α → Except ε β} {b : β} (h : (x >>= f) = Except.ok b) :
    ∃ a, x = Except.ok a ∧ f a = Except.ok b := by
  cases x with
  | error e => cases h
  | ok a => exact ⟨a, rfl, h⟩

theorem pureOk {ε α : Type} {a b : α} (h : (pure a : Except ε α) = Except.ok b) : a = b := by
  cases h; rfl

-- lists and indices --------------------------------------------------------------------------------

theorem addSubCancel (k : Nat) : ∀ (i : Nat), (k + i) - i = k
  | 0 => rfl
  | i + 1 => by
    show Nat.pred ((k + i + 1) - i) = k
    rw [Nat.add_assoc, Nat.add_comm i 1, ← Nat.add_assoc, addSubCancel (k + 1) i]
    rfl

theorem dropGet {α : Type} : ∀ (l : List α) (k : Nat) (h : k < List.length l),
    List.drop k l = List.get l k h :: List.drop (k + 1) l
  | [], _, h => absurd h (Nat.notSuccLeZero _)
  | a :: l, 0, _ => rfl
  | a :: l, k + 1, h => dropGet l k (Nat.leOfSuccLeSucc (by rw [List.length_cons] at h; exact h))

theorem dropLength {α : Type} : ∀ (l : List α), List.drop (List.length l) l = []
  | [] => rfl
  | _ :: l => by rw [List.length_cons]; exact dropLength l

theorem takeGet {α : Type} : ∀ (l : List α) (k : Nat) (h : k < List.length l),
    List.take (k + 1) l = List.take k l ++ [List.get l k h]
  | [], _, h => absurd h (Nat.notSuccLeZero _)
  | a :: l, 0, _ => rfl
  | a :: l, k + 1, h => by
    have h' : k < List.length l := Nat.leOfSuccLeSucc (by rw [List.length_cons] at h; exact h)
    show a :: List.take (k + 1) l = a :: List.take k l ++ [List.get l k h']
    rw [takeGet l k h', List.cons_append]

theorem takeLength {α : Type} : ∀ (l : List α), List.take (List.length l) l = l
  | [] => rfl
  | a :: l => by rw [List.length_cons]; exact congrArg (List.cons a) (takeLength l)

theorem concatEq {α : Type} (a : α) : ∀ (l : List α), List.concat l a = l ++ [a]
  | [] => rfl
  | b :: l => by
    show b :: List.concat l a = _
    rw [concatEq a l, List.cons_append]

theorem pushData {α : Type} (out : Array α) (y : α) : (out.push y).data = out.data ++ [y] :=
  concatEq y out.data

theorem arrayGetEq {α : Type} (as : Array α) (n m : Nat) (h1 : n < as.size) (h2 : m < List.length as.data)
    (e : n = m) : Array.get as ⟨n, h1⟩ = List.get as.data m h2 := by
  subst e; rfl

theorem addOneComm (k i : Nat) : k + (i + 1) = k + 1 + i := by
  rw [Nat.add_assoc, Nat.add_comm 1 i]

-- the array traversals -----------------------------------------------------------------------------

/-- The loop a `for x in as do out := out.push (← f x)` runs: with `k` elements behind it, it has
pushed one related output per remaining input. -/
theorem forInLoopOk {ε α γ : Type} (as : Array α) (g : α → Array γ → Except ε (ForInStep (Array γ)))
    (R : α → γ → Prop) (hg : ∀ x out r, g x out = Except.ok r → ∃ y, R x y ∧ r = ForInStep.yield (out.push y)) :
    ∀ (i : Nat) (h : i ≤ as.size) (k : Nat) (out res : Array γ), k + i = as.size →
      Array.forIn.loop as g i h out = Except.ok res →
      ∃ ys, Forall2 R (List.drop k as.data) ys ∧ res.data = out.data ++ ys
  | 0, h, k, out, res, hk, e => by
    have e0 : Array.forIn.loop as g 0 h out = Except.ok out := rfl
    rw [e0] at e
    cases e
    have hk' : k = List.length as.data := hk
    rw [hk', dropLength]
    exact ⟨[], Forall2.nil, (List.append_nil _).symm⟩
  | i + 1, h, k, out, res, hk, e => by
    simp only [Array.forIn.loop] at e
    have ⟨a, ha, e2⟩ := bindOk e
    have hlt : k < List.length as.data := by
      have hk' : k + (i + 1) = List.length as.data := hk
      rw [← hk', ← Nat.add_assoc]
      exact Nat.succLeSucc (Nat.leAddRight k i)
    have idx : Array.size as - 1 - Nat.add i 0 = k := by
      have hk' : Array.size as = k + i + 1 := by rw [← hk]; rfl
      rw [hk']
      exact addSubCancel k i
    rw [arrayGetEq as _ k _ hlt idx] at ha
    have ⟨y, hy, hr⟩ := hg _ out a ha
    rw [hr] at e2
    have ⟨ys, hys, hres⟩ := forInLoopOk as g R hg i (Nat.leTrans (Nat.leSucc i) h) (k + 1) (out.push y) res
      (by rw [← addOneComm]; exact hk) e2
    rw [dropGet as.data k hlt]
    refine ⟨y :: ys, Forall2.cons hy hys, ?_⟩
    rw [hres, pushData, List.append_assoc]
    rfl

theorem diteTrue {β : Type} {c : Prop} [d : Decidable c] (hc : c) (t : c → β) (e : ¬ c → β) : dite c t e = t hc := by
  cases d with
  | isTrue _ => rfl
  | isFalse hn => exact absurd hc hn

theorem diteFalse {β : Sort u} {c : Prop} [d : Decidable c] (hc : ¬ c) (t : c → β) (e : ¬ c → β) : dite c t e = e hc := by
  cases d with
  | isTrue h => exact absurd h hc
  | isFalse _ => rfl

theorem diteSame {β : Type} {c : Prop} [d : Decidable c] (x : β) : (dite c (fun _ => x) (fun _ => x)) = x := by
  cases d <;> rfl

/-- The step `Array.mapM` folds with. -/
def pushF {ε α γ : Type} (f : α → Except ε γ) (bs : Array γ) (a : α) : Except ε (Array γ) := do
  let y ← f a
  pure (bs.push y)

-- The loops' exit step does not unfold under smart unfolding (the `if` sits outside the match on
-- the counter), so these two are proved by unfolding the recursor itself.
set_option smartUnfolding false in
theorem foldlLoopZero {ε α γ : Type} (f : α → Except ε γ) (as : Array α) (h : as.size ≤ as.size) (j : Nat) (b : Array γ) :
    Array.foldlM.loop (pushF f) as as.size h 0 j b = dite (j < as.size) (fun _ => pure b) (fun _ => pure b) := rfl
set_option smartUnfolding false in
theorem foldlLoopSucc {ε α γ : Type} (f : α → Except ε γ) (as : Array α) (h : as.size ≤ as.size) (i j : Nat) (b : Array γ) :
    Array.foldlM.loop (pushF f) as as.size h (i + 1) j b =
      dite (j < as.size) (fun hl => pushF f b (as.get ⟨j, hl⟩) >>= fun a => Array.foldlM.loop (pushF f) as as.size h i (j + 1) a)
        (fun _ => Except.ok b) := rfl
set_option smartUnfolding false in
theorem foldrFoldZero {α : Type} (as : Array α) (h : 0 ≤ as.size) (b : List α) :
      Array.foldrM.fold (m := Id) (fun a acc => a :: acc) as 0 0 h b = b := rfl
theorem foldlLoopOk {ε α γ : Type} (f : α → Except ε γ) (R : α → γ → Prop)
    (hf : ∀ x y, f x = Except.ok y → R x y) (as : Array α) (h : as.size ≤ as.size) :
    ∀ (i j : Nat) (b res : Array γ), j + i = as.size →
      Array.foldlM.loop (pushF f) as as.size h i j b = Except.ok res →
      ∃ ys, Forall2 R (List.drop j as.data) ys ∧ res.data = b.data ++ ys
  | 0, j, b, res, hk, e => by
    have hj : j = List.length as.data := hk
    have e0 : Array.foldlM.loop (pushF f) as as.size h 0 j b = Except.ok b := by
      rw [foldlLoopZero]
      exact diteSame (Except.ok b)
    rw [e0] at e
    cases e
    rw [hj, dropLength]
    exact ⟨[], Forall2.nil, (List.append_nil _).symm⟩
  | i + 1, j, b, res, hk, e => by
    have hlt : j < List.length as.data := by
      have hk' : j + (i + 1) = List.length as.data := hk
      rw [← hk', ← Nat.add_assoc]
      exact Nat.succLeSucc (Nat.leAddRight j i)
    have hlt' : j < as.size := hlt
    rw [foldlLoopSucc, diteTrue hlt'] at e
    have ⟨c, hc, e2⟩ := bindOk e
    have ⟨y, hy, e3⟩ := bindOk hc
    rw [arrayGetEq as j j hlt' hlt rfl] at hy
    have ey : c = b.push y := (pureOk e3).symm
    rw [ey] at e2
    have ⟨ys, hys, hres⟩ := foldlLoopOk f R hf as h i (j + 1) (b.push y) res (by rw [← addOneComm]; exact hk) e2
    rw [dropGet as.data j hlt]
    refine ⟨y :: ys, Forall2.cons (hf _ _ hy) hys, ?_⟩
    rw [hres, pushData, List.append_assoc]
    rfl

/-- `Array.mapM` in `Except` succeeds only with one related output per input, in order. -/
theorem arrayMapMOk {ε α γ : Type} (f : α → Except ε γ) (R : α → γ → Prop)
    (hf : ∀ x y, f x = Except.ok y → R x y) (as : Array α) (res : Array γ) (e : as.mapM f = Except.ok res) :
    Forall2 R as.data res.data := by
  have u : as.mapM f = dite (as.size ≤ as.size)
      (fun hl => Array.foldlM.loop (pushF f) as as.size hl (as.size - 0) 0 (Array.mkEmpty as.size))
      (fun _ => Array.foldlM.loop (pushF f) as as.size (Nat.leRefl _) (as.size - 0) 0 (Array.mkEmpty as.size)) := rfl
  rw [u, diteTrue (Nat.leRefl _)] at e
  have e' : Array.foldlM.loop (pushF f) as as.size (Nat.leRefl _) as.size 0 (Array.mkEmpty as.size) = Except.ok res := e
  have ⟨ys, hys, hres⟩ := foldlLoopOk f R hf as (Nat.leRefl _) as.size 0 (Array.mkEmpty as.size) res (Nat.zero_add _) e'
  rw [hres]
  exact hys

theorem foldrFold {α : Type} (as : Array α) :
    ∀ (i : Nat) (h : i ≤ as.size) (b : List α),
      Array.foldrM.fold (m := Id) (fun a acc => a :: acc) as 0 i h b = List.take i as.data ++ b
  | 0, h, b => by
    exact foldrFoldZero as h b
  | i + 1, h, b => by
    have hlt : i < List.length as.data := h
    have u : Array.foldrM.fold (m := Id) (fun a acc => a :: acc) as 0 (i + 1) h b =
      Array.foldrM.fold (m := Id) (fun a acc => a :: acc) as 0 i (Nat.leTrans (Nat.leSucc i) h) (Array.get as ⟨i, h⟩ :: b) := rfl
    rw [u, foldrFold as i _ _, arrayGetEq as i i h hlt rfl, takeGet as.data i hlt, List.append_assoc]
    rfl

theorem iteTrue {β : Type} {c : Prop} [d : Decidable c] (hc : c) (t e : β) : (if c then t else e) = t := by
  cases d with
  | isTrue _ => rfl
  | isFalse hn => exact absurd hc hn

theorem iteFalse {β : Type} {c : Prop} [d : Decidable c] (hc : ¬ c) (t e : β) : (if c then t else e) = e := by
  cases d with
  | isTrue h => exact absurd h hc
  | isFalse _ => rfl

theorem toListData {α : Type} (as : Array α) : as.toList = as.data := by
  have u : as.toList = dite (as.size ≤ as.size) (fun hl => if 0 < as.size then
        Array.foldrM.fold (m := Id) (fun a acc => a :: acc) as 0 as.size hl [] else [])
      (fun _ => if 0 < as.size then Array.foldrM.fold (m := Id) (fun a acc => a :: acc) as 0 as.size (Nat.leRefl _) [] else []) := rfl
  rw [u, diteTrue (Nat.leRefl _)]
  -- split on the decision procedures, not `byCases` (which would bring in `Classical.choice`)
  cases Decidable.em (0 < as.size) with
  | inl hp =>
    rw [iteTrue hp, foldrFold as as.size (Nat.leRefl _) [], List.append_nil]
    exact takeLength as.data
  | inr hp =>
    rw [iteFalse hp]
    have hs : ¬ 0 < List.length as.data := hp
    cases hd : as.data with
    | nil => rfl
    | cons a l => rw [hd, List.length_cons] at hs; exact absurd (Nat.succLeSucc (Nat.zeroLe _)) hs

-- objects and the field readers -------------------------------------------------------------------

theorem compareEqStr {a b : String} (h : compare a b = Ordering.eq) : a = b := by
  have u : compare a b = (if a < b then Ordering.lt else if a = b then Ordering.eq else Ordering.gt) := rfl
  rw [u] at h
  cases Decidable.em (a < b) with
  | inl hl => rw [iteTrue hl] at h; cases h
  | inr hl =>
    rw [iteFalse hl] at h
    cases Decidable.em (a = b) with
    | inl he => exact he
    | inr he => rw [iteFalse he] at h; cases h

theorem memFoldAcc {x : String × Json} : ∀ (t : Std.RBNode String (fun _ => Json)) (acc : List (String × Json)),
    x ∈ acc → x ∈ Std.RBNode.fold (fun acc k v => (k, v) :: acc) acc t
  | Std.RBNode.leaf, acc, h => h
  | Std.RBNode.node c l k v r, acc, h =>
    memFoldAcc r _ (Mem.tail _ (memFoldAcc l acc h))

/-- What `find` returns is one of the pairs `pairs` lists. -/
theorem findMemFold {k : String} {v : Json} : ∀ (t : Std.RBNode String (fun _ => Json)) (acc : List (String × Json)),
    t.find compare k = some v → (k, v) ∈ Std.RBNode.fold (fun acc k v => (k, v) :: acc) acc t
  | Std.RBNode.leaf, acc, h => by cases h
  | Std.RBNode.node c l ky vy r, acc, h => by
    cases hc : compare k ky with
    | lt =>
      have h' : l.find compare k = some v := by
        have u : (Std.RBNode.node c l ky vy r).find compare k = (match compare k ky with
          | Ordering.lt => l.find compare k
          | Ordering.gt => r.find compare k
          | Ordering.eq => some vy) := rfl
        rw [u, hc] at h; exact h
      exact memFoldAcc r _ (Mem.tail _ (findMemFold l acc h'))
    | gt =>
      have h' : r.find compare k = some v := by
        have u : (Std.RBNode.node c l ky vy r).find compare k = (match compare k ky with
          | Ordering.lt => l.find compare k
          | Ordering.gt => r.find compare k
          | Ordering.eq => some vy) := rfl
        rw [u, hc] at h; exact h
      exact findMemFold r _ h'
    | eq =>
      have h' : some vy = some v := by
        have u : (Std.RBNode.node c l ky vy r).find compare k = (match compare k ky with
          | Ordering.lt => l.find compare k
          | Ordering.gt => r.find compare k
          | Ordering.eq => some vy) := rfl
        rw [u, hc] at h; exact h
      have ek : k = ky := compareEqStr hc
      cases h'
      rw [ek]
      exact memFoldAcc r _ (Mem.head _)

/-- `req` succeeds only on an object that holds the key with that value. -/
theorem reqOk {j v : Json} {k : String} (h : req j k = Except.ok v) :
    ∃ kvs, j = Json.obj kvs ∧ (k, v) ∈ pairs kvs := by
  cases j with
  | obj kvs =>
    have u : req (Json.obj kvs) k = (match kvs.find compare k with
      | some v => Except.ok v
      | none => throw (toString "property not found: " ++ toString k ++ toString "")) := rfl
    rw [u] at h
    cases hf : kvs.find compare k with
    | none => rw [hf] at h; cases h
    | some w =>
      rw [hf] at h
      cases h
      exact ⟨kvs, rfl, findMemFold kvs [] hf⟩
  | null => cases h
  | bool _ => cases h
  | num _ => cases h
  | str _ => cases h
  | arr _ => cases h

theorem getAsOk {α : Type} [FromJson α] {j : Json} {k : String} {a : α} (h : getAs α j k = Except.ok a) :
    ∃ v, req j k = Except.ok v ∧ fromJson? v = Except.ok a := by
  have ⟨v, hv, e⟩ := bindOk h
  refine ⟨v, hv, ?_⟩
  cases hd : (fromJson? v : Except String α) with
  | ok b => rw [hd] at e; cases e; rfl
  | error m => rw [hd] at e; cases e

/-- A string field is a JSON string at that key. -/
theorem getStrOk {j : Json} {k s : String} (h : getAs String j k = Except.ok s) : req j k = Except.ok (Json.str s) := by
  have ⟨v, hv, e⟩ := getAsOk h
  cases v with
  | str t => cases e; exact hv
  | null => cases e
  | bool _ => cases e
  | num _ => cases e
  | arr _ => cases e
  | obj _ => cases e

theorem forall2EqSelf {α : Type} : ∀ {l m : List α}, Forall2 (fun x y => Except.ok x = (Except.ok y : Except String α)) l m → m = l
  | _, _, Forall2.nil => rfl
  | _, _, Forall2.cons e hr => by cases e; rw [forall2EqSelf hr]

/-- An array field read as JSON values is that array. -/
theorem getArrOk {j : Json} {k : String} {a : Array Json} (h : getAs (Array Json) j k = Except.ok a) :
    req j k = Except.ok (Json.arr ⟨a.data⟩) := by
  have ⟨v, hv, e⟩ := getAsOk h
  cases v with
  | arr a0 =>
    cases a0 with
    | mk d =>
    have hm : (Array.mk d).mapM (fun x => (Except.ok x : Except String Json)) = Except.ok a := e
    have hf := arrayMapMOk (fun x => (Except.ok x : Except String Json)) (fun x y => Except.ok x = (Except.ok y : Except String Json))
      (fun x y hxy => hxy) (Array.mk d) a hm
    rw [forall2EqSelf hf]
    exact hv
  | null => cases e
  | bool _ => cases e
  | num _ => cases e
  | str _ => cases e
  | obj _ => cases e

theorem forInOk {ε α γ : Type} (as : Array α) (g : α → Array γ → Except ε (ForInStep (Array γ)))
    (R : α → γ → Prop) (hg : ∀ x out r, g x out = Except.ok r → ∃ y, R x y ∧ r = ForInStep.yield (out.push y))
    (out res : Array γ) (h : forIn as out g = Except.ok res) :
    ∃ ys, Forall2 R as.data ys ∧ res.data = out.data ++ ys :=
  forInLoopOk as g R hg as.size (Nat.leRefl _) 0 out res (Nat.zero_add _) h

/-- `arrOf f j k` succeeds only when `j` holds an array at `k` and the result is `f` of its elements, in order. -/
theorem arrOfOk {α : Type} {f : Json → Dec α} {j : Json} {k : String} {l : List α} (h : arrOf f j k = Except.ok l) :
    ∃ xs, req j k = Except.ok (Json.arr ⟨xs⟩) ∧ Forall2 (fun x y => f x = Except.ok y) xs l := by
  have ⟨a, ha, e⟩ := bindOk h
  have ⟨r, hr, e2⟩ := bindOk e
  have er : r.toList = l := pureOk e2
  have ⟨ys, hys, hres⟩ := forInOk a _ (fun x y => f x = Except.ok y) (fun x out q hq => by
    have ⟨y, hy, e3⟩ := bindOk hq
    refine ⟨y, hy, ?_⟩
    cases e3; rfl) #[] r hr
  refine ⟨a.data, getArrOk ha, ?_⟩
  rw [← er, toListData, hres]
  exact hys

theorem getStrOfJson {x : Json} {s : String} (h : Json.getStr? x = Except.ok s) : x = Json.str s := by
  cases x with
  | str t => cases h; rfl
  | null => cases h
  | bool _ => cases h
  | num _ => cases h
  | arr _ => cases h
  | obj _ => cases h

/-- A boolean field is a JSON boolean at that key. -/
theorem getBoolOk {j : Json} {k : String} {b : Bool} (h : getAs Bool j k = Except.ok b) : req j k = Except.ok (Json.bool b) := by
  have ⟨v, hv, e⟩ := getAsOk h
  cases v with
  | bool c => cases e; exact hv
  | null => cases e
  | str _ => cases e
  | num _ => cases e
  | arr _ => cases e
  | obj _ => cases e

/-- A string-array field is an array of JSON strings at that key, these strings in order. -/
theorem getStrsOk {j : Json} {k : String} {a : Array String} (h : getAs (Array String) j k = Except.ok a) :
    ∃ xs, req j k = Except.ok (Json.arr ⟨xs⟩) ∧ Forall2 (fun x s => x = Json.str s) xs a.toList := by
  have ⟨v, hv, e⟩ := getAsOk h
  cases v with
  | arr a0 =>
    cases a0 with
    | mk d =>
    have hm : (Array.mk d).mapM Json.getStr? = Except.ok a := e
    have hf := arrayMapMOk Json.getStr? (fun x s => x = Json.str s) (fun x y hxy => getStrOfJson hxy) (Array.mk d) a hm
    rw [toListData]
    exact ⟨d, hv, hf⟩
  | null => cases e
  | bool _ => cases e
  | num _ => cases e
  | str _ => cases e
  | obj _ => cases e

end AgentWarrant.Oracle
