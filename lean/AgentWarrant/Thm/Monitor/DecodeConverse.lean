import AgentWarrant.Thm.Monitor.DecodeExact
import AgentWarrant.Spec.Monitor.DecodeIs
/-! The decoder's readers in the converse direction: on a document whose objects are search trees
(every input the oracle judges, `Oracle.judgedOrdered`), a member of the shape a reader expects makes
that reader succeed with the value the member holds. `Thm/Oracle/Traverse.lean` and
`Thm/Monitor/Decode.lean` prove what a successful reader says about its input; these are the other
direction: the array traversals (`Array.forIn` as `arrOf` runs it, `Array.mapM` as the typed reader
runs it for arrays), the typed readers (`getAs` for strings, booleans, arrays of strings and of JSON
values), the optional readers (`opt`, `optStrs`), `rank` on a declared level, and `listOf` on a list
`ListIs` describes. The index loops use the same invariant as the forward proofs (`k + i = size`). -/
namespace AgentWarrant.Monitor.Full
open Lean AgentWarrant AgentWarrant.Oracle AgentWarrant.Oracle.MonitorFull AgentWarrant.Json

-- the array traversals -----------------------------------------------------------------------------

theorem forall2ConsInv {α β : Type} {R : α → β → Prop} {x : α} {xs : List α} {ys : List β}
    (h : Forall2 R (x :: xs) ys) : ∃ y ys', ys = y :: ys' ∧ R x y ∧ Forall2 R xs ys' := by
  cases h with
  | cons hy hr => exact ⟨_, _, rfl, hy, hr⟩

/-- The loop of `for x in as do out := out.push (← f x)`, with `k` elements behind it, pushes the
outputs of the remaining inputs when each of them succeeds. -/
theorem forInLoopIs {ε α γ : Type} (as : Array α) (g : α → Array γ → Except ε (ForInStep (Array γ)))
    (f : α → Except ε γ) (hg : ∀ x out y, f x = Except.ok y → g x out = Except.ok (ForInStep.yield (out.push y))) :
    ∀ (i : Nat) (h : i ≤ as.size) (k : Nat) (out : Array γ) (ys : List γ), k + i = as.size →
      Forall2 (fun x y => f x = Except.ok y) (List.drop k as.data) ys →
      Array.forIn.loop as g i h out = Except.ok ⟨out.data ++ ys⟩
  | 0, h, k, out, ys, hk, hr => by
    have e0 : Array.forIn.loop as g 0 h out = Except.ok out := rfl
    rw [e0]
    have hk' : k = List.length as.data := hk
    rw [hk', dropLength] at hr
    cases hr
    rw [List.append_nil]
    cases out
    rfl
  | i + 1, h, k, out, ys, hk, hr => by
    simp only [Array.forIn.loop]
    have hlt : k < List.length as.data := by
      have hk' : k + (i + 1) = List.length as.data := hk
      rw [← hk', ← Nat.add_assoc]
      exact Nat.succLeSucc (Nat.leAddRight k i)
    have idx : Array.size as - 1 - Nat.add i 0 = k := by
      have hk' : Array.size as = k + i + 1 := by rw [← hk]; rfl
      rw [hk']
      exact addSubCancel k i
    rw [arrayGetEq as _ k _ hlt idx]
    rw [dropGet as.data k hlt] at hr
    have ⟨y, ys', ey, hy, hrest⟩ := forall2ConsInv hr
    subst ey
    rw [hg _ out _ hy]
    have ih := forInLoopIs as g f hg i (Nat.leTrans (Nat.leSucc i) h) (k + 1) (out.push y) ys'
      (by rw [← addOneComm]; exact hk) hrest
    rw [pushData, List.append_assoc] at ih
    exact ih

theorem forInIs {ε α γ : Type} (as : Array α) (g : α → Array γ → Except ε (ForInStep (Array γ)))
    (f : α → Except ε γ) (hg : ∀ x out y, f x = Except.ok y → g x out = Except.ok (ForInStep.yield (out.push y)))
    (out : Array γ) (ys : List γ) (hr : Forall2 (fun x y => f x = Except.ok y) as.data ys) :
    forIn as out g = Except.ok ⟨out.data ++ ys⟩ :=
  forInLoopIs as g f hg as.size (Nat.leRefl _) 0 out ys (Nat.zero_add _) hr

set_option smartUnfolding false in
theorem foldlLoopIs {ε α γ : Type} (f : α → Except ε γ) (as : Array α) (h : as.size ≤ as.size) :
    ∀ (i j : Nat) (b : Array γ) (ys : List γ), j + i = as.size →
      Forall2 (fun x y => f x = Except.ok y) (List.drop j as.data) ys →
      Array.foldlM.loop (pushF f) as as.size h i j b = Except.ok ⟨b.data ++ ys⟩
  | 0, j, b, ys, hk, hr => by
    have hj : j = List.length as.data := hk
    rw [foldlLoopZero, diteSame]
    rw [hj, dropLength] at hr
    cases hr
    rw [List.append_nil]
    cases b
    rfl
  | i + 1, j, b, ys, hk, hr => by
    have hlt : j < List.length as.data := by
      have hk' : j + (i + 1) = List.length as.data := hk
      rw [← hk', ← Nat.add_assoc]
      exact Nat.succLeSucc (Nat.leAddRight j i)
    have hlt' : j < as.size := hlt
    rw [foldlLoopSucc, diteTrue hlt', arrayGetEq as j j hlt' hlt rfl]
    rw [dropGet as.data j hlt] at hr
    have ⟨y, ys', ey, hy, hrest⟩ := forall2ConsInv hr
    subst ey
    have ih := foldlLoopIs f as h i (j + 1) (b.push y) ys' (by rw [← addOneComm]; exact hk) hrest
    rw [pushData, List.append_assoc] at ih
    have e : pushF f b (List.get as.data j hlt) = Except.ok (b.push y) := by
      show (f (List.get as.data j hlt) >>= fun y => pure (b.push y)) = _
      rw [hy]
      rfl
    rw [e]
    exact ih

/-- `Array.mapM` in `Except` succeeds when `f` succeeds on every element, with their outputs in order. -/
theorem arrayMapMIs {ε α γ : Type} (f : α → Except ε γ) (as : Array α) (ys : List γ)
    (hr : Forall2 (fun x y => f x = Except.ok y) as.data ys) : as.mapM f = Except.ok ⟨ys⟩ := by
  have u : as.mapM f = dite (as.size ≤ as.size)
      (fun hl => Array.foldlM.loop (pushF f) as as.size hl (as.size - 0) 0 (Array.mkEmpty as.size))
      (fun _ => Array.foldlM.loop (pushF f) as as.size (Nat.leRefl _) (as.size - 0) 0 (Array.mkEmpty as.size)) := rfl
  rw [u, diteTrue (Nat.leRefl _)]
  exact foldlLoopIs f as (Nat.leRefl _) as.size 0 (Array.mkEmpty as.size) ys (Nat.zero_add _) hr

theorem forall2Self {α : Type} {ε : Type} : ∀ (l : List α), Forall2 (fun x y => (Except.ok x : Except ε α) = Except.ok y) l l
  | [] => Forall2.nil
  | _ :: l => Forall2.cons rfl (forall2Self l)

-- the typed readers --------------------------------------------------------------------------------

theorem getAsOfReq {α : Type} [FromJson α] {j v : Json} {k : String} {a : α} (e : req j k = Except.ok v)
    (hd : fromJson? v = Except.ok a) : getAs α j k = Except.ok a := by
  simp [getAs, e]
  show (match (fromJson? v : Except String α) with
    | Except.ok a => (pure a : Except String α)
    | Except.error e => throw (toString "" ++ toString k ++ toString ": " ++ toString e ++ toString "")) = Except.ok a
  rw [hd]
  rfl

theorem getStrIs {j : Json} {k s : String} (hj : ObjsOrdered j) (h : Field j k (Json.str s)) :
    getAs String j k = Except.ok s :=
  (getAsIff hj).2 ⟨_, h, rfl⟩

theorem getBoolIs {j : Json} {k : String} {b : Bool} (hj : ObjsOrdered j) (h : Field j k (Json.bool b)) :
    getAs Bool j k = Except.ok b :=
  (getAsIff hj).2 ⟨_, h, rfl⟩

theorem getArrIs {j : Json} {k : String} {xs : List Json} (h : req j k = Except.ok (Json.arr ⟨xs⟩)) :
    getAs (Array Json) j k = Except.ok ⟨xs⟩ :=
  getAsOfReq h (arrayMapMIs (fun x => (Except.ok x : Except String Json)) ⟨xs⟩ xs (forall2Self xs))

theorem getStrsIs {j : Json} {k : String} {l : List String} (hj : ObjsOrdered j) (h : StrsAt j k l) :
    getAs (Array String) j k = Except.ok ⟨l⟩ := by
  have ⟨xs, hx, hr⟩ := h
  refine (getAsIff hj).2 ⟨_, hx, arrayMapMIs Json.getStr? ⟨xs⟩ l ?_⟩
  exact forall2Mono (fun x s e => by rw [e]; rfl) hr

theorem strsIs {j : Json} {k : String} {l : List String} (hj : ObjsOrdered j) (h : StrsAt j k l) :
    MonitorFull.strs j k = Except.ok l := by
  show (getAs (Array String) j k >>= fun a => pure a.toList) = _
  rw [getStrsIs hj h]
  show Except.ok (Array.toList ⟨l⟩) = _
  rw [toListData]

/-- `arrOf f j k` returns `f` of the array's elements, in order, when each succeeds. -/
theorem arrOfIs {α : Type} {f : Json → Dec α} {j : Json} {k : String} {xs : List Json} {l : List α}
    (h : req j k = Except.ok (Json.arr ⟨xs⟩)) (hr : Forall2 (fun x y => f x = Except.ok y) xs l) :
    arrOf f j k = Except.ok l := by
  show (getAs (Array Json) j k >>= fun a => _) = _
  rw [getArrIs h]
  have e : forIn (⟨xs⟩ : Array Json) (#[] : Array α) (fun x r => (f x >>= fun y => pure (ForInStep.yield (r.push y)))) =
      Except.ok ⟨[] ++ l⟩ :=
    forInIs ⟨xs⟩ _ f (fun x out y hy => by rw [hy]; rfl) #[] l hr
  show (forIn (⟨xs⟩ : Array Json) (#[] : Array α) (fun x r => (f x >>= fun y => pure (ForInStep.yield (r.push y)))) >>=
    fun r => pure r.toList) = _
  rw [e]
  show Except.ok (Array.toList ⟨[] ++ l⟩) = _
  rw [toListData]
  rfl

theorem optNone {j : Json} {k : String} (hj : ObjsOrdered j) (h : Absent j k) : MonitorFull.opt j k = none := by
  cases ho : MonitorFull.opt j k with
  | none => rfl
  | some v =>
    have ⟨hf, hn⟩ := (optIff hj).1 ho
    exact absurd (h v hf) hn

theorem optSome {j v : Json} {k : String} (hj : ObjsOrdered j) (h : Field j k v) (hn : v ≠ Json.null) :
    MonitorFull.opt j k = some v :=
  (optIff hj).2 ⟨h, hn⟩

theorem arrNotNull {xs : List Json} : Json.arr ⟨xs⟩ ≠ Json.null := fun e => by cases e

/-- A list `ListIs` describes is what `listOf` returns, when the element reader succeeds on each
array element with the related output. -/
theorem listOfIs {α : Type} {j : Json} {k : String} {f : Json → Dec α} {R : Json → α → Prop} {l : List α}
    (hj : ObjsOrdered j) (hf : ∀ x a, ObjsOrdered x → R x a → f x = Except.ok a) (h : ListIs j k R l) :
    MonitorFull.listOf j k f = Except.ok l := by
  cases h with
  | inl a =>
    have ⟨ha, e⟩ := a
    subst e
    show (match MonitorFull.opt j k with
      | none => pure []
      | some _ => arrOf f j k) = _
    rw [optNone hj ha]
    rfl
  | inr a =>
    have ⟨xs, hx, hr⟩ := a
    show (match MonitorFull.opt j k with
      | none => pure []
      | some _ => arrOf f j k) = _
    rw [optSome hj hx arrNotNull]
    have ⟨_, ej, hm⟩ := hx
    subst ej
    have hxs : ObjsOrdered (Json.arr ⟨xs⟩) := objsOrderedObjElem hj hm
    refine arrOfIs (reqOfField hj hx) ?_
    have g : ∀ {ys : List Json} {l : List α}, (∀ x, x ∈ ys → ObjsOrdered x) → Forall2 R ys l →
        Forall2 (fun x y => f x = Except.ok y) ys l := by
      intro ys l hy hr
      induction hr with
      | nil => exact Forall2.nil
      | cons ra _ ih => exact Forall2.cons (hf _ _ (hy _ (Mem.head _)) ra) (ih (fun x hm => hy x (Mem.tail _ hm)))
    exact g (fun x hm => objsOrderedArrElem hxs hm) hr

/-- `optStrs` returns the strings `OptStrsIs` names. -/
theorem optStrsOfIs {j : Json} {k : String} {l : List String} (hj : ObjsOrdered j) (h : OptStrsIs j k l) :
    MonitorFull.optStrs j k = Except.ok l := by
  have u : ∀ r, (match MonitorFull.opt j k with
    | none => pure []
    | some v => do pure (← arrOf MonitorFull.strOf (Json.mkObj [("x", v)]) "x")) = Except.ok r →
      MonitorFull.optStrs j k = Except.ok r := fun r e => e
  apply u
  cases h with
  | inl a =>
    have ⟨ha, e⟩ := a
    subst e
    rw [optNone hj ha]
    rfl
  | inr a =>
    have ⟨xs, hx, hr⟩ := a
    rw [optSome hj hx arrNotNull]
    have e := arrOfIs (f := MonitorFull.strOf) (mkObjX _) (forall2Mono (fun x s e => by rw [e]; rfl) hr)
    show (arrOf MonitorFull.strOf (Json.mkObj [("x", Json.arr ⟨xs⟩)]) "x" >>= fun a => pure a) = _
    rw [e]
    rfl

-- ranks ---------------------------------------------------------------------------------------------

/-- `rank` returns the first position of a declared level. -/
theorem rankIs {levels : List String} {s : String} {i : Nat} (hi : nth? levels i = some s)
    (fi : ∀ m, m < i → nth? levels m ≠ some s) : MonitorFull.rank levels s = Except.ok i := by
  have ⟨hS, hN⟩ := rangeFind (fun i => nth? levels i == some s) levels.length
  have pi : (nth? levels i == some s) = true := by rw [hi]; exact optBeqSelf s
  cases hf : (List.range levels.length).find? (fun i => nth? levels i == some s) with
  | none =>
    have f := hN hf i (nthLt levels i s hi)
    rw [pi] at f
    cases f
  | some k =>
    have u : MonitorFull.rank levels s = pure k := by simp [MonitorFull.rank, hf]
    rw [u]
    have ⟨_, pk, below⟩ := hS k hf
    have e := rankUnique (optBeqSome pk) (fun m hm e => by
      have f := below m hm
      rw [e, optBeqSelf s] at f
      cases f) hi fi
    rw [e]
    rfl

theorem rankAtIs {levels : List String} {x : Json} {k : String} {i : Nat} (hx : ObjsOrdered x)
    (h : RankAt levels x k i) : (getAs String x k >>= MonitorFull.rank levels) = Except.ok i := by
  have ⟨s, hs, hi, fi⟩ := h
  rw [getStrIs hx hs]
  exact rankIs hi fi

-- optional members ----------------------------------------------------------------------------------

theorem bindIs {ε α β : Type} {x : Except ε α} {f : α → Except ε β} {a : α} {b : β}
    (hx : x = Except.ok a) (hf : f a = Except.ok b) : (x >>= f) = Except.ok b := by
  rw [hx]; exact hf

/-- The cases of an optional member read from one type, as `opt` finds it. -/
theorem optIsCases {β : Type} {x : Json} {k : String} {sel : Json → Option β} {o : Option β}
    (hx : ObjsOrdered x) (hn : sel Json.null = none) (h : OptIs x k sel o) :
    (∃ v b, opt x k = some v ∧ sel v = some b ∧ o = some b) ∨
      ((∀ v, opt x k = some v → sel v = none) ∧ o = none) := by
  cases h with
  | inl a =>
    have ⟨v, b, hf, hs, e⟩ := a
    refine Or.inl ⟨v, b, optSome hx hf (fun en => ?_), hs, e⟩
    subst en
    rw [hn] at hs
    cases hs
  | inr a =>
    have ⟨hall, e⟩ := a
    exact Or.inr ⟨fun v hv => hall v ((optIff hx).1 hv).1, e⟩

theorem optStrIs {x : Json} {k : String} {o : Option String} (hx : ObjsOrdered x) (h : OptIs x k selStr o) :
    (match opt x k with | some (Json.str r) => some r | _ => none) = o := by
  cases optIsCases hx rfl h with
  | inl a =>
    have ⟨v, b, ho, hs, e⟩ := a
    subst e
    rw [ho]
    cases v <;> cases hs <;> rfl
  | inr a =>
    have ⟨hall, e⟩ := a
    subst e
    cases ho : opt x k with
    | none => rfl
    | some v =>
      have hv := hall v ho
      cases v <;> first | rfl | cases hv

theorem optStrGetD {x : Json} {k : String} {o : Option String} (d : String) (hx : ObjsOrdered x)
    (h : OptIs x k selStr o) : (match opt x k with | some (Json.str r) => r | _ => d) = o.getD d := by
  cases optIsCases hx rfl h with
  | inl a =>
    have ⟨v, b, ho, hs, e⟩ := a
    subst e
    rw [ho]
    cases v <;> cases hs <;> rfl
  | inr a =>
    have ⟨hall, e⟩ := a
    subst e
    cases ho : opt x k with
    | none => rfl
    | some v =>
      have hv := hall v ho
      cases v <;> first | rfl | cases hv

theorem optBoolIs {x : Json} {k : String} {o : Option Bool} (hx : ObjsOrdered x) (h : OptIs x k selBool o) :
    (match opt x k with | some (Json.bool b) => some b | _ => none) = o := by
  cases optIsCases hx rfl h with
  | inl a =>
    have ⟨v, b, ho, hs, e⟩ := a
    subst e
    rw [ho]
    cases v <;> cases hs <;> rfl
  | inr a =>
    have ⟨hall, e⟩ := a
    subst e
    cases ho : opt x k with
    | none => rfl
    | some v =>
      have hv := hall v ho
      cases v <;> first | rfl | cases hv

theorem optBoolGetD {x : Json} {k : String} {o : Option Bool} (hx : ObjsOrdered x) (h : OptIs x k selBool o) :
    (match opt x k with | some (Json.bool b) => b | _ => false) = o.getD false := by
  cases optIsCases hx rfl h with
  | inl a =>
    have ⟨v, b, ho, hs, e⟩ := a
    subst e
    rw [ho]
    cases v <;> cases hs <;> rfl
  | inr a =>
    have ⟨hall, e⟩ := a
    subst e
    cases ho : opt x k with
    | none => rfl
    | some v =>
      have hv := hall v ho
      cases v <;> first | rfl | cases hv

theorem optDecIs {x : Json} {k : String} {o : Option JsonNumber} (hx : ObjsOrdered x) (h : OptIs x k selNum o) :
    (match opt x k with | some (Json.num n) => n.mantissa.toNat | _ => 0) =
      (o.map (fun n => n.mantissa.toNat)).getD 0 := by
  cases optIsCases hx rfl h with
  | inl a =>
    have ⟨v, b, ho, hs, e⟩ := a
    subst e
    rw [ho]
    cases v <;> cases hs <;> rfl
  | inr a =>
    have ⟨hall, e⟩ := a
    subst e
    cases ho : opt x k with
    | none => rfl
    | some v =>
      have hv := hall v ho
      cases v <;> first | rfl | cases hv

theorem quotaIs {x : Json} {q : Option Nat} (hx : ObjsOrdered x) (h : QuotaIs x q) :
    (match x.getObjVal? "quota" with
      | Except.ok (Json.num n) => some n.mantissa.toNat
      | Except.ok Json.null => none
      | _ => some 1) = q := by
  cases h with
  | inl a =>
    have ⟨n, hf, e⟩ := a
    subst e
    have r : x.getObjVal? "quota" = Except.ok (Json.num n) := reqOfField hx hf
    rw [r]
  | inr a =>
    cases a with
    | inl b =>
      have ⟨hf, e⟩ := b
      subst e
      have r : x.getObjVal? "quota" = Except.ok Json.null := reqOfField hx hf
      rw [r]
    | inr b =>
      have ⟨hall, e⟩ := b
      subst e
      cases hq : x.getObjVal? "quota" with
      | error _ => rfl
      | ok v =>
        have ⟨hn, hs⟩ := hall v (reqOk hq)
        cases v <;> first | rfl | exact absurd rfl hn | cases hs

theorem numOptIs {x : Json} {k : String} {o : Option JsonNumber} (hx : ObjsOrdered x) (h : NumIs x k o) :
    numOpt x k = Except.ok o := by
  have u : ∀ r, (match opt x k with
    | none => pure none
    | some (Json.num n) => pure (some n)
    | some v => throw s!"{k}: expected a number, got {v.compress}" : Dec (Option JsonNumber)) = Except.ok r →
      numOpt x k = Except.ok r := fun r e => e
  apply u
  cases h with
  | inl a =>
    have ⟨ha, e⟩ := a
    subst e
    rw [optNone hx ha]
    rfl
  | inr a =>
    have ⟨n, e, hf⟩ := a
    subst e
    rw [optSome hx hf (fun e => by cases e)]
    rfl

/-- An optional level, ranked. -/
theorem lvIs {levels : List String} {x : Json} {k : String} {o : Option Nat} (hx : ObjsOrdered x)
    (h : OptRankIs levels x k o) :
    (match opt x k with
      | none => pure none
      | some v => do
        let a ← strOf v
        let a ← rank levels a
        pure (some a) : Dec (Option Nat)) = Except.ok o := by
  cases h with
  | inl a =>
    have ⟨ha, e⟩ := a
    subst e
    rw [optNone hx ha]
    rfl
  | inr a =>
    have ⟨i, e, s, hf, hi, fi⟩ := a
    subst e
    rw [optSome hx hf (fun e => by cases e)]
    show (rank levels s >>= fun a => pure (some a)) = _
    rw [rankIs hi fi]
    rfl

theorem guardIs {levels cats : List String} {x : Json} {g : Guard} (hx : ObjsOrdered x)
    (h : GuardIs levels cats x g) : guardOf levels cats x = Except.ok g := by
  have ⟨hmx, hmn, ⟨ac, hac, eac⟩, ⟨nc, hnc, enc⟩, htr⟩ := h
  cases g with
  | mk maxS minS anyCat noCat trusted =>
    refine bindIs (lvIs hx hmx) ?_
    refine bindIs (lvIs hx hmn) ?_
    refine bindIs (optStrsOfIs hx hac) ?_
    refine bindIs (optStrsOfIs hx hnc) ?_
    have et := optBoolIs hx htr
    have e1 : anyCat = CatsOf cats ac := eac
    have e2 : noCat = CatsOf cats nc := enc
    subst e1; subst e2; subst et
    rfl

theorem sensJpIs {β : Type} {levels : List String} {x : Json} {jp : Option Nat → Dec β} {r : β} {s : Option Nat}
    (hx : ObjsOrdered x) (hs : OptRankIs levels x "sensitivity" s) (h : jp s = Except.ok r) :
    (match opt x "sensitivity" with
      | none => do
        let y ← pure none
        jp y
      | some v => do
        let a ← strOf v
        let a ← rank levels a
        let y ← pure (some a)
        jp y : Dec β) = Except.ok r := by
  cases hs with
  | inl a =>
    have ⟨ha, e⟩ := a
    subst e
    rw [optNone hx ha]
    exact h
  | inr a =>
    have ⟨i, e, s', hf, hi, fi⟩ := a
    subst e
    rw [optSome hx hf (fun e => by cases e)]
    exact bindIs rfl (bindIs (rankIs hi fi) h)

theorem trustedJpIs {β : Type} {x : Json} {jp : Option Bool → Dec β} {r : β} {tr : Option Bool}
    (hx : ObjsOrdered x) (ht : OptIs x "trusted" selBool tr) (h : jp tr = Except.ok r) :
    (match opt x "trusted" with
      | some (Json.bool b) => do
        let y ← pure (some b)
        jp y
      | _ => do
        let y ← pure none
        jp y : Dec β) = Except.ok r := by
  cases optIsCases hx rfl ht with
  | inl a =>
    have ⟨v, b, ho, hs, e⟩ := a
    subst e
    rw [ho]
    cases v <;> cases hs <;> exact h
  | inr a =>
    have ⟨hall, e⟩ := a
    subst e
    cases ho : opt x "trusted" with
    | none => exact h
    | some v =>
      have hv := hall v ho
      cases v <;> first | exact h | cases hv

theorem transformIs {levels cats : List String} {v : Json} {t : Option Transform} (hv : ObjsOrdered v)
    (h : TransformIs levels cats v t) : transformOf levels cats v = Except.ok t := by
  cases t with
  | none =>
    refine bindIs (getStrIs hv h) ?_
    rfl
  | some t =>
    cases t with
    | mk remove decrement setSens setTrusted =>
      have ⟨⟨k, hk, hne⟩, hs, htr, ⟨rm, hrm, erm⟩, ⟨o, ho, edec⟩⟩ := h
      refine bindIs (getStrIs hv hk) ?_
      refine inheritMatch (fun b => b = Except.ok (some (Transform.mk remove decrement setSens setTrusted))) k _ _
        (fun hc => absurd hc hne) (fun _ => ?_)
      refine sensJpIs hv hs ?_
      refine trustedJpIs hv htr ?_
      refine bindIs (optStrsOfIs hv hrm) ?_
      have e1 : remove = CatsOf cats rm := erm
      have e3 : decrement = (o.map (fun n => n.mantissa.toNat)).getD 0 := edec
      rw [e1, e3, ← optDecIs hv ho]
      rfl

theorem pairIs {p : Json} {ab : String × String} (h : PairAt p ab) :
    (do
      let l ← getAs (Array String) (Json.mkObj [("x", p)]) "x"
      match l.toList with
      | [a, b] => pure (a, b)
      | _ => throw "an endpoint is a pair" : Dec (String × String)) = Except.ok ab := by
  cases ab with
  | mk a b =>
    have e : p = Json.arr ⟨[Json.str a, Json.str b]⟩ := h
    subst e
    refine bindIs (getAsOfReq (mkObjX _) (arrayMapMIs Json.getStr? ⟨[Json.str a, Json.str b]⟩ [a, b]
      (Forall2.cons rfl (Forall2.cons rfl Forall2.nil)))) ?_
    show (match Array.toList (⟨[a, b]⟩ : Array String) with
      | [a, b] => pure (a, b)
      | _ => throw "an endpoint is a pair" : Dec (String × String)) = _
    rw [toListData]
    rfl

theorem resRefIs {r : Json} {x : ResRef} (hr : ObjsOrdered r) (h : ResAt r x) : resRefOf r = Except.ok x := by
  cases x with
  | const v =>
    have ⟨hk, hv⟩ := h
    refine bindIs (getStrIs hr hk) ?_
    exact bindIs (reqOfField hr hv) rfl
  | arg a =>
    have ⟨hk, ha⟩ := h
    refine bindIs (getStrIs hr hk) ?_
    exact bindIs (getStrIs hr ha) rfl
  | listArg a =>
    have ⟨⟨k, hk, n1, n2⟩, ha⟩ := h
    refine bindIs (getStrIs hr hk) ?_
    refine resMatch (fun b => b = Except.ok (ResRef.listArg a)) k _ _ _ (fun e => absurd e n1) (fun e => absurd e n2)
      (fun _ _ => ?_)
    exact bindIs (getStrIs hr ha) rfl

theorem patIs {r : Json} {x : Pat} (hr : ObjsOrdered r) (h : PatAt r x) : patOf r = Except.ok x := by
  cases x with
  | any =>
    refine bindIs (getStrIs hr h) ?_
    rfl
  | const v =>
    have ⟨hk, hv⟩ := h
    refine bindIs (getStrIs hr hk) ?_
    exact bindIs (reqOfField hr hv) rfl
  | slot sl =>
    have ⟨hk, hs⟩ := h
    refine bindIs (getStrIs hr hk) ?_
    exact bindIs (getStrIs hr hs) rfl
  | glob g =>
    have ⟨⟨k, hk, n1, n2, n3⟩, hg⟩ := h
    refine bindIs (getStrIs hr hk) ?_
    refine patMatch (fun b => b = Except.ok (Pat.glob g)) k _ _ _ _ (fun e => absurd e n1) (fun e => absurd e n2)
      (fun e => absurd e n3) (fun _ _ _ => ?_)
    exact bindIs (getStrIs hr hg) rfl

theorem predIs {x : Json} {q : Pred} (hx : ObjsOrdered x) (h : PredIs x q) : predOf x = Except.ok q := by
  cases q with
  | eq path v =>
    have ⟨hp, hk, hv⟩ := h
    refine bindIs (strsIs hx hp) ?_
    refine bindIs (getStrIs hx hk) ?_
    exact bindIs (reqOfField hx hv) rfl
  | oneOf path vs =>
    have ⟨hp, hk, hv⟩ := h
    refine bindIs (strsIs hx hp) ?_
    refine bindIs (getStrIs hx hk) ?_
    refine bindIs (getArrIs (reqOfField hx hv)) ?_
    show Except.ok (Pred.oneOf path (Array.toList ⟨vs⟩)) = _
    rw [toListData]
  | range path lo hi =>
    have ⟨hp, ⟨k, hk, n1, n2⟩, hlo, hhi⟩ := h
    refine bindIs (strsIs hx hp) ?_
    refine bindIs (getStrIs hx hk) ?_
    refine predMatch (fun b => b = Except.ok (Pred.range path lo hi)) k _ _ _ (fun e => absurd e n1)
      (fun e => absurd e n2) (fun _ _ => ?_)
    exact bindIs (numOptIs hx hlo) (bindIs (numOptIs hx hhi) rfl)

/-- A relation's elements, on an ordered array, mapped to the reader's successes. -/
theorem forall2Reads {α : Type} {f : Json → Dec α} {R : Json → α → Prop}
    (hf : ∀ x a, ObjsOrdered x → R x a → f x = Except.ok a) :
    ∀ {ys : List Json} {l : List α}, (∀ x, x ∈ ys → ObjsOrdered x) → Forall2 R ys l →
      Forall2 (fun x y => f x = Except.ok y) ys l
  | _, _, _, Forall2.nil => Forall2.nil
  | _, _, hy, Forall2.cons ra hr =>
    Forall2.cons (hf _ _ (hy _ (Mem.head _)) ra) (forall2Reads hf (fun x hm => hy x (Mem.tail _ hm)) hr)

/-- An array member of an ordered object, read by a relation the reader meets on ordered elements. -/
theorem arrOfRel {α : Type} {f : Json → Dec α} {R : Json → α → Prop} {x : Json} {k : String} {xs : List Json}
    {l : List α} (hx : ObjsOrdered x) (hf : ∀ y a, ObjsOrdered y → R y a → f y = Except.ok a)
    (h : Field x k (Json.arr ⟨xs⟩)) (hr : Forall2 R xs l) : arrOf f x k = Except.ok l := by
  have ho : ObjsOrdered (Json.arr ⟨xs⟩) := fieldOrdered hx h
  exact arrOfIs (reqOfField hx h) (forall2Reads hf (fun y hm => objsOrderedArrElem ho hm) hr)

theorem toolIs {x : Json} {t : Tool} (hx : ObjsOrdered x) (h : ToolIs x t) : toolOf x = Except.ok t := by
  cases t with
  | mk name operation source destination args required effects =>
    have ⟨hn, ⟨o, ho, eo⟩, hs, hd, ha, hr, xs, he, hef⟩ := h
    refine bindIs (getStrIs hx hn) ?_
    refine bindIs (getStrIs hx hs) ?_
    refine bindIs (getStrIs hx hd) ?_
    refine bindIs (optStrsOfIs hx ha) ?_
    refine bindIs (optStrsOfIs hx hr) ?_
    refine bindIs (arrOfRel hx (fun y d hy hd => ?_) he hef) ?_
    · have e1 : operation = o.getD name := eo
      subst e1
      rw [← optStrGetD name hx ho]
      rfl
    · cases d with
      | mk act res =>
        have ⟨h1, rj, h2, h3⟩ := hd
        exact bindIs (getStrIs hy h1) (bindIs (reqOfField hy h2) (bindIs (resRefIs (fieldOrdered hy h2) h3) rfl))

theorem grantIs {x : Json} {g : Full.Grant} (hx : ObjsOrdered x) (h : GrantIs x g) : grantOf x = Except.ok g := by
  cases g with
  | mk allow action pat keys preds quota requires permit =>
    have ⟨⟨kind, hk, ea⟩, hact0, ⟨rj, hrj, hpat0⟩, hkeys0, hwh0, hq0, hreq0, ⟨po, hpo, ep⟩⟩ := h
    have hact : Field x "action" (Json.str action) := hact0
    have hpat : PatAt rj pat := hpat0
    have hkeys : (Absent x "keys" ∧ keys = none) ∨ ∃ ks, keys = some ks ∧ StrsAt x "keys" ks := hkeys0
    have hwh : ListIs x "where" PredIs preds := hwh0
    have hq : QuotaIs x quota := hq0
    have hreq : OptIs x "requires" selStr requires := hreq0
    clear h hact0 hpat0 hkeys0 hwh0 hq0 hreq0
    refine bindIs (getStrIs hx hk) ?_
    have e1 : allow = (kind == "allow") := ea
    have e2 : permit = po.getD false := ep
    rw [e1, e2, ← optBoolGetD hx hpo, ← quotaIs hx hq, ← optStrIs hx hreq]
    have tail : ∀ (kv : Option (List String)) (pv : List Pred),
        (do pure (⟨kind == "allow", ← getAs String x "action", ← patOf (← req x "resource"), kv, pv,
          (match x.getObjVal? "quota" with
            | Except.ok (Json.num n) => some n.mantissa.toNat
            | Except.ok Json.null => none
            | _ => some 1), (match opt x "requires" with | some (Json.str r) => some r | _ => none),
          (match opt x "permit" with | some (Json.bool b) => b | _ => false)⟩ : Full.Grant) : Dec Full.Grant) =
          Except.ok ⟨kind == "allow", action, pat, kv, pv,
            (match x.getObjVal? "quota" with
              | Except.ok (Json.num n) => some n.mantissa.toNat
              | Except.ok Json.null => none
              | _ => some 1), (match opt x "requires" with | some (Json.str r) => some r | _ => none),
            (match opt x "permit" with | some (Json.bool b) => b | _ => false)⟩ := fun kv pv =>
      bindIs (getStrIs hx hact) (bindIs (reqOfField hx hrj) (bindIs (patIs (fieldOrdered hx hrj) hpat) (by rfl)))
    cases hkeys with
    | inl ka =>
      have ⟨kab, ek⟩ := ka
      rw [ek]
      cases hwh with
      | inl wa =>
        have ⟨wab, ew⟩ := wa
        rw [ew]
        simp only [optNone hx kab, optNone hx wab]
        exact bindIs rfl (bindIs rfl (tail _ _))
      | inr wa =>
        have ⟨xs, hw, hr⟩ := wa
        simp only [optNone hx kab, optSome hx hw arrNotNull]
        exact bindIs rfl (bindIs (arrOfRel hx (fun y q hy hq => predIs hy hq) hw hr) (tail _ _))
    | inr ka =>
      have ⟨ks, ek, hks⟩ := ka
      rw [ek]
      have ⟨_, hkf, _⟩ := hks
      cases hwh with
      | inl wa =>
        have ⟨wab, ew⟩ := wa
        rw [ew]
        simp only [optSome hx hkf arrNotNull, optNone hx wab]
        exact bindIs (strsIs hx hks) (bindIs rfl (bindIs rfl (tail _ _)))
      | inr wa =>
        have ⟨xs, hw, hr⟩ := wa
        simp only [optSome hx hkf arrNotNull, optSome hx hw arrNotNull]
        exact bindIs (strsIs hx hks) (bindIs rfl
          (bindIs (arrOfRel hx (fun y q hy hq => predIs hy hq) hw hr) (tail _ _)))

theorem emptyOrdered : ObjsOrdered (Json.mkObj []) := by
  rw [mkObjEq]
  exact ObjsOrdered.obj _ trivial (fun k v h => by
    have h' : (k, v) ∈ ([] : List (String × Json)) := h
    cases h')

/-- A flow rule's guard object is the member `when`, or an empty object when there is none. -/
theorem whenIs {x g : Json} (hx : ObjsOrdered x)
    (h : (Field x "when" g ∧ g ≠ Json.null) ∨ (Absent x "when" ∧ g = Json.mkObj [])) :
    (match opt x "when" with | some g => g | none => Json.mkObj []) = g ∧ ObjsOrdered g := by
  cases h with
  | inl a =>
    have ⟨hf, hn⟩ := a
    rw [optSome hx hf hn]
    exact ⟨rfl, fieldOrdered hx hf⟩
  | inr a =>
    have ⟨ha, e⟩ := a
    subst e
    rw [optNone hx ha]
    exact ⟨rfl, emptyOrdered⟩

theorem namedLabelIs {levels cats : List String} {l : Json} {lab : Label} (hl : ObjsOrdered l)
    (hs : RankAt levels l "sensitivity" lab.sens)
    (hc : ∃ have_, StrsAt l "categories" have_ ∧ lab.cats = CatsOf cats have_)
    (ht : Field l "trusted" (Json.bool lab.trusted)) : namedLabel levels cats l = Except.ok lab := by
  cases lab with
  | mk sens cs tr =>
    have ⟨s, h1, hi, fi⟩ := hs
    have ⟨hv, h2, e⟩ := hc
    have e' : cs = CatsOf cats hv := e
    rw [e']
    exact bindIs (getStrIs hl h1) (bindIs (rankIs hi fi) (bindIs (strsIs hl h2) (bindIs (getBoolIs hl ht) rfl)))

/-- The flow rule's effect number, as the decoder's `match` on the effect string computes it. -/
theorem effectIs {ef : String} {n : Nat}
    (h : (ef = "deny" ∧ n = 1) ∨ (ef = "pause" ∧ n = 2) ∨ (¬ ef = "deny" ∧ ¬ ef = "pause" ∧ n = 0)) :
    policyOf.match_2 (fun _ => Nat) ef (fun _ => 1) (fun _ => 2) (fun _ => 0) = n :=
  effectMatch (fun m => m = n) ef _ _ _
    (fun hd => match h with
      | Or.inl ⟨_, e⟩ => e.symm
      | Or.inr (Or.inl ⟨hp, _⟩) => absurd (hd.symm.trans hp) (by decide)
      | Or.inr (Or.inr ⟨nd, _, _⟩) => absurd hd nd)
    (fun hp => match h with
      | Or.inl ⟨hd, _⟩ => absurd (hp.symm.trans hd) (by decide)
      | Or.inr (Or.inl ⟨_, e⟩) => e.symm
      | Or.inr (Or.inr ⟨_, np, _⟩) => absurd hp np)
    (fun nd np => match h with
      | Or.inl ⟨hd, _⟩ => absurd hd nd
      | Or.inr (Or.inl ⟨hp, _⟩) => absurd hp np
      | Or.inr (Or.inr ⟨_, _, e⟩) => e.symm)

-- unifying each bind of the decoder's long `do` block against `x >>= f` takes more than the default budget
set_option maxHeartbeats 1000000 in
/-- The converse of `policyOfDecodesExactly`, for the exact reading: on a document whose objects are
search trees, the decoder returns exactly the policy `DecodesIs` relates to it. -/
theorem policyOfIs {j : Json} {p : Policy} (hj : ObjsOrdered j) (h : DecodesIs j p) : policyOf j = Except.ok p := by
  cases p with
  | mk nodes edges agents tools resolvers origins flows histories user app xflows audiences =>
  have ⟨levels, cats, hl, hc, hr0, hn0, he0, ha0, ht0, ho0, hh0, hu0, hap0, hxf0, hfl0, hau0⟩ := h
  have hr : ListIs j "resolvers" ResolverAt resolvers := hr0
  have hn : ListIs j "nodes" (NodeAt levels cats) nodes := hn0
  have he : ListIs j "edges" (EdgeIs levels cats) edges := he0
  have ha : ListIs j "agents" (AgentAt levels) agents := ha0
  have ht : ListIs j "tools" ToolIs tools := ht0
  have ho : ListIs j "origins" OriginIs origins := ho0
  have hh : ListIs j "histories" HistoryAt histories := hh0
  have hu : ListIs j "user" GrantIs user := hu0
  have hap : ListIs j "application" GrantIs app := hap0
  have hxf : ListIs j "flows" (XFlowIs levels cats) xflows := hxf0
  have hfl : flows = xflows.filterMap (fun r =>
    if r.argument.isSome then none else some ⟨r.effect == 1, r.operation, r.destination, r.guard⟩) := hfl0
  have hau : ListIs j "audiences" AudienceAt audiences := hau0
  rw [hfl]
  refine bindIs (strsIs hj hl) (bindIs (optStrsOfIs hj hc) ?_)
  refine bindIs (listOfIs hj (fun x a hx hr => by
    cases a with
    | mk name lab =>
      have ⟨a1, l, a2, a3, a4, a5⟩ := hr
      exact bindIs (getStrIs hx a1) (bindIs (reqOfField hx a2)
        (bindIs (namedLabelIs (fieldOrdered hx a2) a3 a4 a5) rfl))) hn) ?_
  refine bindIs (listOfIs hj (fun x a hx hr => by
    cases a with
    | mk name eps prop =>
      have ⟨a1, ⟨xs, a2, a3⟩, v, a4, a5⟩ := hr
      exact bindIs (arrOfIs (reqOfField hx a2) (forall2Mono (fun _ _ h => pairIs h) a3))
        (bindIs (getStrIs hx a1) (bindIs (reqOfField hx a4) (bindIs (transformIs (fieldOrdered hx a4) a5) rfl)))) he) ?_
  refine bindIs (listOfIs hj (fun x a hx hr => by
    cases a with
    | mk name ops ceiling =>
      have ⟨a1, a2, s, a3, hi, fi⟩ := hr
      exact bindIs (getStrIs hx a1) (bindIs (strsIs hx a2) (bindIs (getStrIs hx a3) (bindIs (rankIs hi fi) rfl)))) ha) ?_
  refine bindIs (listOfIs hj (fun x a hx hr => toolIs hx hr) ht) ?_
  refine bindIs (listOfIs hj (fun x a hx hr => by
    cases a with
    | mk slot tool args path =>
      have ⟨a1, a2, a3, ps, a4, a5⟩ := hr
      have e : path = ps.splitOn "." := a5
      rw [e]
      exact bindIs (getStrIs hx a1) (bindIs (getStrIs hx a2) (bindIs (reqOfField hx a3) (bindIs (getStrIs hx a4) rfl)))) hr) ?_
  refine bindIs (listOfIs hj (fun x a hx hr => by
    cases a with
    | mk name via argument producer preserving =>
      have ⟨a1, a2, a3, a4, a5⟩ := hr
      exact bindIs (getStrIs hx a1) (bindIs (getStrIs hx a2) (bindIs (getStrIs hx a3) (bindIs (getStrIs hx a4)
        (bindIs (optStrsOfIs hx a5) rfl))))) ho) ?_
  have xflowIs : ∀ x (a : XFlow), ObjsOrdered x → XFlowIs levels cats x a →
      (do
        let effect : Nat := match ← getAs String x "effect" with
          | "deny" => 1
          | "pause" => 2
          | _ => 0
        let xf : XFlow := ⟨effect, ← getAs String x "operation", ← getAs String x "destination",
          (match opt x "argument" with | some (Json.str a) => some a | _ => none),
          ← guardOf levels cats (match opt x "when" with | some g => g | none => Json.mkObj [])⟩
        pure xf : Dec XFlow) = Except.ok a := by
    intro x a hx hr
    cases a with
    | mk effect operation destination argument guard =>
      have ⟨⟨ef, a1, a2⟩, a3, a4, a5, g, a6, a7⟩ := hr
      have ⟨ew, hgo⟩ := whenIs hx a6
      have a2' : (ef = "deny" ∧ effect = 1) ∨ (ef = "pause" ∧ effect = 2) ∨
          (¬ ef = "deny" ∧ ¬ ef = "pause" ∧ effect = 0) := a2
      have a5' : OptIs x "argument" selStr argument := a5
      have a7' : GuardIs levels cats g guard := a7
      have hg : GuardIs levels cats (match opt x "when" with | some g => g | none => Json.mkObj []) guard := by
        rw [ew]; exact a7'
      have hgo' : ObjsOrdered (match opt x "when" with | some g => g | none => Json.mkObj []) := by
        rw [ew]; exact hgo
      rw [← effectIs a2', ← optStrIs hx a5']
      exact bindIs (getStrIs hx a1) (bindIs (getStrIs hx a3) (bindIs (getStrIs hx a4) (bindIs (guardIs hgo' hg) rfl)))
  refine bindIs (listOfIs hj (fun x a hx hr => xflowIs x a hx hr) hxf) ?_
  refine bindIs (listOfIs hj (fun x a hx hr => xflowIs x a hx hr) hxf) ?_
  refine bindIs (listOfIs hj (fun x a hx hr => by
    cases a with
    | mk node effs =>
      have ⟨a1, xs, a2, a3⟩ := hr
      refine bindIs (getStrIs hx a1) (bindIs (arrOfRel hx (fun y d hy hd => ?_) a2 a3) rfl)
      cases d with
      | mk act pat =>
        have ⟨d1, rj, d2, d3⟩ := hd
        exact bindIs (getStrIs hy d1) (bindIs (reqOfField hy d2) (bindIs (patIs (fieldOrdered hy d2) d3) rfl))) hau) ?_
  refine bindIs (listOfIs hj (fun x a hx hr => by
    cases a with
    | mk name lineage after require before =>
      have ⟨a1, ⟨sc, a2, a3⟩, a4, a5, a6⟩ := hr
      have e : lineage = (sc == "lineage") := a3
      rw [e]
      exact bindIs (getStrIs hx a1) (bindIs (getStrIs hx a2) (bindIs (getStrIs hx a4) (bindIs (getStrIs hx a5)
        (bindIs (getStrIs hx a6) rfl))))) hh) ?_
  refine bindIs (listOfIs hj (fun x a hx hr => grantIs hx hr) hu) ?_
  refine bindIs (listOfIs hj (fun x a hx hr => grantIs hx hr) hap) ?_
  rfl

/-- `DecodesIs` fixes the policy: two policies it relates to one document whose objects are search
trees are both what the decoder returns. -/
theorem decodesIsUnique {j : Json} {p q : Policy} (hj : ObjsOrdered j) (hp : DecodesIs j p) (hq : DecodesIs j q) :
    p = q := by
  have e := (policyOfIs hj hp).symm.trans (policyOfIs hj hq)
  cases e
  rfl

/-- `DecodesIs` strengthens `DecodesExactly` (through the decoder, which meets both). -/
theorem decodesIsExactly {j : Json} {p : Policy} (hj : ObjsOrdered j) (h : DecodesIs j p) : DecodesExactly j p :=
  policyOfDecodesExactly hj (policyOfIs hj h)

end AgentWarrant.Monitor.Full
