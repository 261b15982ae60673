import AgentWarrant.Thm.Monitor.DecodeConverse
/-! The exact reading in the forward direction: on a document whose objects are search trees, the
policy the decoder returns is the one `DecodesIs` describes (`policyOfDecodesIs`), so with
`policyOfIs` (`Thm/Monitor/DecodeConverse.lean`) the decoder returns `p` exactly when `DecodesIs j p`
(`policyOfIff`). The element proofs follow `Thm/Monitor/Decode.lean`'s, with each optional member
read both ways: what `opt` does not find is absent or `null` (`absentOfOpt`), and a member is the one
value `req` finds at its key (`fieldEqOfReq`). -/
namespace AgentWarrant.Monitor.Full
open Lean AgentWarrant AgentWarrant.Oracle AgentWarrant.Oracle.MonitorFull AgentWarrant.Json

theorem fieldEqOfReq {x v w : Json} {k : String} (hx : ObjsOrdered x) (hr : req x k = Except.ok w) (hv : Field x k v) :
    v = w := by
  have e := (reqOfField hx hv).symm.trans hr
  cases e
  rfl

/-- What `opt` finds, or its absence, as `OptIs` for one type. -/
theorem optIsOfNone {β : Type} {x : Json} {k : String} {sel : Json → Option β} (hx : ObjsOrdered x)
    (hn : sel Json.null = none) (ho : opt x k = none) : OptIs x k sel none :=
  Or.inr ⟨fun v hv => by rw [absentOfOpt hx ho v hv]; exact hn, rfl⟩

theorem optIsOfSome {β : Type} {x w : Json} {k : String} {sel : Json → Option β} (hx : ObjsOrdered x)
    (ho : opt x k = some w) : OptIs x k sel (sel w) := by
  cases hs : sel w with
  | some b => exact Or.inl ⟨w, b, reqOk (optReq ho), hs, rfl⟩
  | none => exact Or.inr ⟨fun v hv => by rw [fieldEqOfReq hx (optReq ho) hv]; exact hs, rfl⟩

theorem optStrOf {x : Json} {k : String} (hx : ObjsOrdered x) :
    OptIs x k selStr (match opt x k with | some (Json.str r) => some r | _ => none) := by
  cases ho : opt x k with
  | none => exact optIsOfNone hx rfl ho
  | some w => have h := optIsOfSome (sel := selStr) hx ho; cases w <;> exact h

theorem optBoolOf {x : Json} {k : String} (hx : ObjsOrdered x) :
    OptIs x k selBool (match opt x k with | some (Json.bool b) => some b | _ => none) := by
  cases ho : opt x k with
  | none => exact optIsOfNone hx rfl ho
  | some w => have h := optIsOfSome (sel := selBool) hx ho; cases w <;> exact h

theorem optStrGetDOf {x : Json} {k : String} (d : String) (hx : ObjsOrdered x) :
    ∃ o, OptIs x k selStr o ∧ (match opt x k with | some (Json.str r) => r | _ => d) = o.getD d :=
  ⟨_, optStrOf hx, (optStrGetD d hx (optStrOf hx)).symm ▸ rfl⟩

theorem optBoolGetDOf {x : Json} {k : String} (hx : ObjsOrdered x) :
    ∃ o, OptIs x k selBool o ∧ (match opt x k with | some (Json.bool b) => b | _ => false) = o.getD false :=
  ⟨_, optBoolOf hx, optBoolGetD hx (optBoolOf hx)⟩

theorem optNumOf {x : Json} {k : String} (hx : ObjsOrdered x) :
    OptIs x k selNum (match opt x k with | some (Json.num n) => some n | _ => none) := by
  cases ho : opt x k with
  | none => exact optIsOfNone hx rfl ho
  | some w => have h := optIsOfSome (sel := selNum) hx ho; cases w <;> exact h

theorem optDecOf {x : Json} {k : String} (hx : ObjsOrdered x) :
    ∃ o, OptIs x k selNum o ∧ (match opt x k with | some (Json.num n) => n.mantissa.toNat | _ => 0) =
      (o.map (fun n => n.mantissa.toNat)).getD 0 :=
  ⟨_, optNumOf hx, optDecIs hx (optNumOf hx)⟩

theorem quotaOf {x : Json} (hx : ObjsOrdered x) :
    QuotaIs x (match x.getObjVal? "quota" with
      | Except.ok (Json.num n) => some n.mantissa.toNat
      | Except.ok Json.null => none
      | _ => some 1) := by
  cases hq : x.getObjVal? "quota" with
  | error e =>
    refine Or.inr (Or.inr ⟨fun v hv => ?_, rfl⟩)
    have r := reqOfField hx hv
    have r' : x.getObjVal? "quota" = Except.ok v := r
    rw [hq] at r'
    cases r'
  | ok w =>
    have hf : Field x "quota" w := reqOk hq
    cases w with
    | num n => exact Or.inl ⟨n, hf, rfl⟩
    | null => exact Or.inr (Or.inl ⟨hf, rfl⟩)
    | bool b => exact Or.inr (Or.inr ⟨fun v hv => by rw [fieldEqOfReq hx hq hv]; exact ⟨fun e => (by cases e), rfl⟩, rfl⟩)
    | str s => exact Or.inr (Or.inr ⟨fun v hv => by rw [fieldEqOfReq hx hq hv]; exact ⟨fun e => (by cases e), rfl⟩, rfl⟩)
    | arr a => exact Or.inr (Or.inr ⟨fun v hv => by rw [fieldEqOfReq hx hq hv]; exact ⟨fun e => (by cases e), rfl⟩, rfl⟩)
    | obj o => exact Or.inr (Or.inr ⟨fun v hv => by rw [fieldEqOfReq hx hq hv]; exact ⟨fun e => (by cases e), rfl⟩, rfl⟩)

theorem numOptOf {x : Json} {k : String} {o : Option JsonNumber} (hx : ObjsOrdered x) (h : numOpt x k = Except.ok o) :
    NumIs x k o := by
  have h' : (match opt x k with
    | none => pure none
    | some (Json.num n) => pure (some n)
    | some v => throw s!"{k}: expected a number, got {v.compress}" : Dec (Option JsonNumber)) = Except.ok o := h
  cases ho : opt x k with
  | none => rw [ho] at h'; cases h'; exact Or.inl ⟨absentOfOpt hx ho, rfl⟩
  | some v =>
    rw [ho] at h'
    cases v with
    | num m => cases h'; exact Or.inr ⟨m, rfl, reqOk (optReq ho)⟩
    | null => cases h'
    | bool _ => cases h'
    | str _ => cases h'
    | arr _ => cases h'
    | obj _ => cases h'

theorem lvOf {levels : List String} {x : Json} {k : String} {o : Option Nat} (hx : ObjsOrdered x)
    (h : (match opt x k with
      | none => pure none
      | some v => do
        let a ← strOf v
        let a ← rank levels a
        pure (some a) : Dec (Option Nat)) = Except.ok o) : OptRankIs levels x k o := by
  cases ho : opt x k with
  | none => rw [ho] at h; cases h; exact Or.inl ⟨absentOfOpt hx ho, rfl⟩
  | some v =>
    rw [ho] at h
    have ⟨s, hs, e1⟩ := bindOk h
    have ⟨r, hr, e2⟩ := bindOk e1
    have er := pureOk e2
    subst er
    have hv := strOfOk hs
    subst hv
    exact Or.inr ⟨r, rfl, s, reqOk (optReq ho), rankOk hr⟩

theorem guardIsOf {levels cats : List String} {x : Json} {g : Guard} (hx : ObjsOrdered x)
    (h : guardOf levels cats x = Except.ok g) : GuardIs levels cats x g := by
  have ⟨mx, hmx, e1⟩ := bindOk h
  have ⟨mn, hmn, e2⟩ := bindOk e1
  have ⟨ac, hac, e3⟩ := bindOk e2
  have ⟨nc, hnc, e4⟩ := bindOk e3
  have ey := pureOk e4
  subst ey
  exact ⟨lvOf hx hmx, lvOf hx hmn, ⟨ac, optStrsIs hx hac, rfl⟩, ⟨nc, optStrsIs hx hnc, rfl⟩, optBoolOf hx⟩

theorem sensJpOf {β : Type} {levels : List String} {x : Json} {jp : Option Nat → Dec β} {r : β} (hx : ObjsOrdered x)
    (h : (match opt x "sensitivity" with
      | none => do
        let y ← pure none
        jp y
      | some v => do
        let a ← strOf v
        let a ← rank levels a
        let y ← pure (some a)
        jp y : Dec β) = Except.ok r) :
    ∃ s, OptRankIs levels x "sensitivity" s ∧ jp s = Except.ok r := by
  cases ho : opt x "sensitivity" with
  | none =>
    rw [ho] at h
    have ⟨y, hy, e⟩ := bindOk h
    have ey := pureOk hy
    subst ey
    exact ⟨none, Or.inl ⟨absentOfOpt hx ho, rfl⟩, e⟩
  | some v =>
    rw [ho] at h
    have ⟨s, hs, e1⟩ := bindOk h
    have ⟨i, hi, e2⟩ := bindOk e1
    have ⟨y, hy, e3⟩ := bindOk e2
    have ey := pureOk hy
    subst ey
    have hv := strOfOk hs
    subst hv
    exact ⟨some i, Or.inr ⟨i, rfl, s, reqOk (optReq ho), rankOk hi⟩, e3⟩

theorem trustedJpOf {β : Type} {x : Json} {jp : Option Bool → Dec β} {r : β} (hx : ObjsOrdered x)
    (h : (match opt x "trusted" with
      | some (Json.bool b) => do
        let y ← pure (some b)
        jp y
      | _ => do
        let y ← pure none
        jp y : Dec β) = Except.ok r) :
    ∃ tr, OptIs x "trusted" selBool tr ∧ jp tr = Except.ok r := by
  refine ⟨_, optBoolOf (k := "trusted") hx, ?_⟩
  cases ho : opt x "trusted" with
  | none =>
    rw [ho] at h
    exact h
  | some w =>
    rw [ho] at h
    cases w <;> exact h

theorem transformIsOf {levels cats : List String} {v : Json} {t : Option Transform} (hv : ObjsOrdered v)
    (h : transformOf levels cats v = Except.ok t) : TransformIs levels cats v t := by
  have ⟨kind, hk, e⟩ := bindOk h
  have hkf := fieldOfReq (getStrOk hk)
  refine inheritMatch (fun b => b = Except.ok t → TransformIs levels cats v t) kind _ _ ?_ ?_ e
  · intro hc e1
    subst hc
    have et := pureOk e1
    subst et
    exact hkf
  · intro hc e1
    have ⟨sv, hsv, e2⟩ := sensJpOf hv e1
    have ⟨tr, htr, e3⟩ := trustedJpOf hv e2
    have ⟨rm, hrm, e4⟩ := bindOk e3
    have et := pureOk e4
    subst et
    exact ⟨⟨kind, hkf, hc⟩, hsv, htr, ⟨rm, optStrsIs hv hrm, rfl⟩, optDecOf hv⟩

theorem predIsOf {x : Json} {q : Pred} (hx : ObjsOrdered x) (h : predOf x = Except.ok q) : PredIs x q := by
  have ⟨path, hpath, e0⟩ := bindOk h
  have hp := strsOk hpath
  have ⟨kind, hk, e⟩ := bindOk e0
  have hkf := fieldOfReq (getStrOk hk)
  refine predMatch (fun b => b = Except.ok q → PredIs x q) kind _ _ _ ?_ ?_ ?_ e
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
    exact ⟨hp, ⟨kind, hkf, he, ho⟩, numOptOf hx hlo, numOptOf hx hhi⟩

/-- An array member read by `arrOf`, its elements related as the reader's successes on ordered elements. -/
theorem arrOfRead {α : Type} {f : Json → Dec α} {R : Json → α → Prop} {x : Json} {k : String} {l : List α}
    (hx : ObjsOrdered x) (hf : ∀ y a, ObjsOrdered y → f y = Except.ok a → R y a) (h : arrOf f x k = Except.ok l) :
    ∃ xs, Field x k (Json.arr ⟨xs⟩) ∧ Forall2 R xs l := by
  have ⟨xs, hxs, hr⟩ := arrOfOk h
  have hfx := fieldOfReq hxs
  have ho : ObjsOrdered (Json.arr ⟨xs⟩) := fieldOrdered hx hfx
  have g : ∀ {ys : List Json} {l : List α}, (∀ y, y ∈ ys → ObjsOrdered y) →
      Forall2 (fun y a => f y = Except.ok a) ys l → Forall2 R ys l := by
    intro ys l hy hr
    induction hr with
    | nil => exact Forall2.nil
    | cons ra _ ih => exact Forall2.cons (hf _ _ (hy _ (Mem.head _)) ra) (ih (fun y hm => hy y (Mem.tail _ hm)))
  exact ⟨xs, hfx, g (fun y hm => objsOrderedArrElem ho hm) hr⟩

/-- A list read by `listOf`, exactly, its elements related as the reader's successes on ordered elements. -/
theorem listOfRel {α : Type} {j : Json} {k : String} {f : Json → Dec α} {R : Json → α → Prop} {l : List α}
    (hj : ObjsOrdered j) (hf : ∀ y a, ObjsOrdered y → f y = Except.ok a → R y a) (h : listOf j k f = Except.ok l) :
    ListIs j k R l := by
  cases ho : opt j k with
  | none =>
    have u : listOf j k f = Except.ok [] := by
      have u' : listOf j k f = (match opt j k with
        | none => pure []
        | some _ => arrOf f j k) := rfl
      rw [u', ho]; rfl
    rw [u] at h; cases h; exact Or.inl ⟨absentOfOpt hj ho, rfl⟩
  | some v =>
    have u : listOf j k f = arrOf f j k := by
      have u' : listOf j k f = (match opt j k with
        | none => pure []
        | some _ => arrOf f j k) := rfl
      rw [u', ho]
    rw [u] at h
    exact Or.inr (arrOfRead hj hf h)

theorem grantTailIs {x rj : Json} {kind act : String} {pat : Pat} {keys : Option (List String)} {preds : List Pred}
    (hx : ObjsOrdered x) (hk : getAs String x "kind" = Except.ok kind) (ha : getAs String x "action" = Except.ok act)
    (hr : req x "resource" = Except.ok rj) (hp : patOf rj = Except.ok pat)
    (hkeys : (Absent x "keys" ∧ keys = none) ∨ ∃ ks, keys = some ks ∧ StrsAt x "keys" ks)
    (hpreds : ListIs x "where" PredIs preds) :
    GrantIs x ⟨kind == "allow", act, pat, keys, preds, (match x.getObjVal? "quota" with
      | Except.ok (Json.num n) => some n.mantissa.toNat
      | Except.ok Json.null => none
      | _ => some 1), (match opt x "requires" with | some (Json.str r) => some r | _ => none),
      (match opt x "permit" with | some (Json.bool b) => b | _ => false)⟩ :=
  ⟨⟨kind, fieldOfReq (getStrOk hk), rfl⟩, fieldOfReq (getStrOk ha), ⟨rj, fieldOfReq hr, patAtOk hp⟩, hkeys, hpreds,
    quotaOf hx, optStrOf hx, optBoolGetDOf hx⟩

theorem grantIsOf {x : Json} {g : Full.Grant} (hx : ObjsOrdered x) (e : grantOf x = Except.ok g) : GrantIs x g := by
  have ⟨kind, hk, e1⟩ := bindOk e
  have whereRel : ∀ {pv : List Pred}, arrOf predOf x "where" = Except.ok pv → ListIs x "where" PredIs pv :=
    fun h => Or.inr (arrOfRead hx (fun y q hy hq => predIsOf hy hq) h)
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
      exact grantTailIs hx hk hact hrj hpat (Or.inl ⟨absentOfOpt hx hkeys, rfl⟩) (Or.inl ⟨absentOfOpt hx hw, rfl⟩)
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
      exact grantTailIs hx hk hact hrj hpat (Or.inl ⟨absentOfOpt hx hkeys, rfl⟩) (whereRel hpv)
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
      exact grantTailIs hx hk hact hrj hpat (Or.inr ⟨ks, rfl, strsOk hks⟩) (Or.inl ⟨absentOfOpt hx hw, rfl⟩)
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
      exact grantTailIs hx hk hact hrj hpat (Or.inr ⟨ks, rfl, strsOk hks⟩) (whereRel hpv)

theorem whenOf {x : Json} (hx : ObjsOrdered x) :
    ((Field x "when" (match opt x "when" with | some g => g | none => Json.mkObj []) ∧
        (match opt x "when" with | some g => g | none => Json.mkObj []) ≠ Json.null) ∨
      (Absent x "when" ∧ (match opt x "when" with | some g => g | none => Json.mkObj []) = Json.mkObj [])) ∧
    ObjsOrdered (match opt x "when" with | some g => g | none => Json.mkObj []) := by
  cases ho : opt x "when" with
  | none => exact ⟨Or.inr ⟨absentOfOpt hx ho, rfl⟩, emptyOrdered⟩
  | some g =>
    have ⟨hf, hn⟩ := (optIff hx).1 ho
    exact ⟨Or.inl ⟨hf, hn⟩, fieldOrdered hx hf⟩

-- unifying each bind of the decoder's long `do` block against `x >>= f` takes more than the default budget
set_option maxHeartbeats 1000000 in
/-- On a document whose objects are search trees, the decoder returns only the policy `DecodesIs`
describes. -/
theorem policyOfDecodesIs {j : Json} {p : Policy} (hj : ObjsOrdered j) (h : policyOf j = Except.ok p) :
    DecodesIs j p := by
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
  rw [hxf] at hfl
  cases hfl
  refine ⟨levels, cats, strsOk hl, optStrsIs hj hc, listOfRel hj (fun x y hx e => ?_) hr,
    listOfRel hj (fun x y hx e => ?_) hn, listOfRel hj (fun x y hx e => ?_) he, listOfRel hj (fun x y hx e => ?_) ha,
    listOfRel hj (fun x y hx e => ?_) ht, listOfRel hj (fun x y hx e => ?_) ho, listOfRel hj (fun x y hx e => ?_) hh,
    listOfRel hj (fun x y hx e => ?_) hu, listOfRel hj (fun x y hx e => ?_) hp, listOfRel hj (fun x y hx e => ?_) hxf,
    rfl, listOfRel hj (fun x y hx e => ?_) hau⟩
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
      pj, fieldOfReq hpj, transformIsOf (fieldOrdered hx (fieldOfReq hpj)) htp⟩
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
    refine ⟨fieldOfReq (getStrOk hs), optStrGetDOf name hx, fieldOfReq (getStrOk hsrc), fieldOfReq (getStrOk hdst),
      optStrsIs hx hargs, optStrsIs hx hreqd, xs, fieldOfReq hxs, Oracle.forall2Mono (fun ex d hd => ?_) hf⟩
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
      optStrsIs hx hpres⟩
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
    exact grantIsOf hx e
  · -- application grants
    exact grantIsOf hx e
  · -- flows
    have ⟨ef, hef, f1⟩ := bindOk e
    have ⟨op, hop, f2⟩ := bindOk f1
    have ⟨dst, hdst, f3⟩ := bindOk f2
    have ⟨gd, hgd, f4⟩ := bindOk f3
    have ey := pureOk f4
    subst ey
    have ⟨hw, hwo⟩ := whenOf hx
    exact ⟨⟨ef, fieldOfReq (getStrOk hef), effectOk ef⟩, fieldOfReq (getStrOk hop), fieldOfReq (getStrOk hdst),
      optStrOf hx, _, hw, guardIsOf hwo hgd⟩
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

/-- On a document whose objects are search trees, the decoder returns `p` exactly when `DecodesIs j p`:
`DecodesIs` is the decoder's meaning, stated on the document. -/
theorem policyOfIff {j : Json} {p : Policy} (hj : ObjsOrdered j) : policyOf j = Except.ok p ↔ DecodesIs j p :=
  ⟨policyOfDecodesIs hj, policyOfIs hj⟩

end AgentWarrant.Monitor.Full
