import AgentWarrant.Thm.Revision.ArgCoverMonitor
/-! The way's condition (`wayCond`, `Spec/Revision/ArgCoverBuild.lean`) proved of every call the monitor
prepares, for the way that produced the effect (Agenra Sections 5.1, 7.1; `preparedCoverMatches` in
`Thm/Revision/ArgCoverMonitor.lean` took it as a hypothesis). The values are read canonically: every
source is what the monitor reads on the call (`srcVal`), so the way's reading of its resource at its
argument holds by the call's own consistency. Clause by clause:
* the tool's required keys present: preparation refuses a call missing one (`missing_argument`);
* keys the tool does not declare absent: preparation refuses an undeclared argument;
* the resource where the tool reads it: the effect comes from one declaration of the tool
  (`effectsOfWay`), which takes its resource from its constant, a scalar argument or a scalar element of
  an array argument (`hereFrom`);
* a nested path present only under an object: `lookupPath` finds a member only inside an object
  (`lookupParent`), on every call;
* `E`'s resources: NOT implied. The monitor never reads `E` (the set of effects the revision's certificate
  speaks for), so a prepared call's resource can lie outside it; the clause stays a hypothesis on the
  effect (`InE`).
One more fact is a hypothesis of `preparedCoverEvery`:
* the argument object reads each key as the call's first argument of that key (`hfirst`). Preparation
  reads a resource argument with `List.lookup` (the first pair of that key) while matching reads
  `Json.mkObj`, in which a later pair of the same key replaces an earlier one, and preparation accepts a
  call whose argument list repeats a key. Distinct keys imply it (`firstOfDistinct`,
  `Thm/Revision/ArgCoverWayKeys.lean`).
The effect's resource needs no hypothesis: every way has a question (`wayCondSomeAll`), a declaration
whose resource is a constant reading the resource as that constant's literal (`resLitSelf`; a null
constant is `isNull`, the effect the monitor emits and an `any` or null constant entry matches:
`Thm/Revision/ArgCoverNull.lean`). Each of the two hypotheses is needed: `Thm/Revision/ArgCoverWayEx.lean`
gives, for each, a policy on which every other hypothesis holds and the conclusion fails. -/
namespace AgentWarrant.Revision.ArgCover
open Lean AgentWarrant AgentWarrant.Monitor AgentWarrant.Monitor.Full

-- where an effect's resource comes from -------------------------------------------------------------

/-- Where an effect of a declaration whose resource is `r` took its resource from, on the call's arguments. -/
def FromRes (args : List (String × Json)) (x : Json) : ResRef → Prop
  | ResRef.const v => x = v
  | ResRef.arg k => args.lookup k = some x ∧ isScalar x = true
  | ResRef.listArg k => (∃ items, args.lookup k = some (Json.arr items)) ∧ isScalar x = true

theorem memOne {x a : α} (h : x ∈ [a]) : x = a := match memCons h with
  | Or.inl e => e
  | Or.inr h1 => absurd h1 notMemNil

theorem memMapEff (act : String) (e : Effect) : ∀ (vs : List Json), e ∈ vs.map (fun v => (⟨act, v⟩ : Effect)) →
    e.res ∈ vs
  | [], h => absurd h notMemNil
  | v :: vs, h => match memCons h with
    | Or.inl e1 => by rw [e1]; exact Mem.head _
    | Or.inr h1 => Mem.tail _ (memMapEff act e vs h1)

theorem allScalar (x : Json) : ∀ (vs : List Json), vs.all isScalar = true → x ∈ vs → isScalar x = true := by
  intro vs h hx
  rw [← allBAll] at h
  exact allBElim h x hx

/-- An effect one declaration produces has the declaration's action and takes its resource where the
declaration says. -/
theorem hereFrom (args : List (String × Json)) (d : EffDecl) (here : List Effect) (e : Effect)
    (h : hereOf args d = Except.ok here) (he : e ∈ here) : FromRes args e.res d.res := by
  cases d with
  | mk act res => cases res with
    | const v =>
      have h1 : (pure [⟨act, v⟩] : Except String (List Effect)) = Except.ok here := h
      rw [← pureOk h1] at he
      show e.res = v
      rw [memOne he]
    | arg k =>
      have h1 : (match args.lookup k with
        | none => throw "malformed_resource"
        | some v => if isScalar v then pure [⟨act, v⟩] else throw "malformed_resource" :
          Except String (List Effect)) = Except.ok here := h
      cases hl : args.lookup k with
      | none => rw [hl] at h1; exact Except.noConfusion h1
      | some v =>
        rw [hl] at h1
        cases hs : isScalar v with
        | false => simp only [hs] at h1; exact Except.noConfusion h1
        | true =>
          simp only [hs] at h1
          rw [← pureOk h1] at he
          have ev : e.res = v := by rw [memOne he]
          show args.lookup k = some e.res ∧ isScalar e.res = true
          rw [ev]; exact ⟨hl, hs⟩
    | listArg k =>
      have h1 : (match args.lookup k with
        | some (Json.arr items) =>
          if items.size > 0 && items.toList.all isScalar then pure (items.toList.map (fun v => ⟨act, v⟩))
          else throw "malformed_resource"
        | _ => throw "malformed_resource" : Except String (List Effect)) = Except.ok here := h
      cases hl : args.lookup k with
      | none => rw [hl] at h1; exact Except.noConfusion h1
      | some v =>
        rw [hl] at h1
        cases v with
        | arr items =>
          cases hs : (items.size > 0 && items.toList.all isScalar) with
          | false => simp only [hs] at h1; exact Except.noConfusion h1
          | true =>
            simp only [hs] at h1
            rw [← pureOk h1] at he
            exact ⟨⟨items, hl⟩, allScalar e.res items.toList (AgentWarrant.Json.andParts hs).2 (memMapEff act e _ he)⟩
        | null => exact Except.noConfusion h1
        | bool _ => exact Except.noConfusion h1
        | num _ => exact Except.noConfusion h1
        | str _ => exact Except.noConfusion h1
        | obj _ => exact Except.noConfusion h1

-- the clauses ---------------------------------------------------------------------------------------

theorem oneClause (val : Src → AV) (x : SLit) (b : Bool) (h : holds x.2 (val x.1) = b) :
    sClauseHolds val [(x, b)] = true := by
  simp only [sClauseHolds, anyB]
  rw [h]
  cases b <;> rfl

theorem strEqOfBeq {a b : String} (h : (a == b) = true) : a = b := ofDecideEqTrue h

theorem anyBFalseOf {p : α → Bool} {l : List α} (h : ∀ x, x ∈ l → p x = false) : anyB p l = false := by
  cases hb : anyB p l with
  | false => rfl
  | true =>
    have ⟨x, hx, hp⟩ := anyBElim hb
    rw [h x hx] at hp
    cases hp

/-- The required keys' clauses hold of a prepared call. -/
theorem reqClauses (s : State) (args : List (String × Json)) (e : Effect) (req : List String)
    (hr : req.any (fun r => !(args.any (fun a => a.1 == r))) = false) :
    allB (sClauseHolds (srcVal s args e)) (req.map (fun k => [((Src.path [k], Lit.present), true)])) = true := by
  rw [allBMap]
  apply allBIntro
  intro k hk
  apply oneClause
  show holds Lit.present (srcVal s args e (Src.path [k])) = true
  rw [argsJsonPresent, anyBAny]
  cases ha : args.any (fun a => a.1 == k) with
  | true => rfl
  | false =>
    have g := anyMem (f := fun r => !(args.any (fun a => a.1 == r))) hk (by show (!(args.any (fun a => a.1 == k))) = true; rw [ha]; rfl)
    rw [hr] at g
    cases g

/-- The undeclared keys' clauses hold of a call whose every argument its tool declares. -/
theorem declClauses (s : State) (args : List (String × Json)) (e : Effect) (targs keys : List String)
    (hu : args.any (fun a => !memS a.1 targs) = false) :
    allB (sClauseHolds (srcVal s args e)) ((filt (fun k => !memStr k targs) keys).map
      (fun k => [((Src.path [k], Lit.present), false)])) = true := by
  rw [allBMap]
  apply allBIntro
  intro k hk
  apply oneClause
  show holds Lit.present (srcVal s args e (Src.path [k])) = false
  rw [argsJsonPresent]
  apply anyBFalseOf
  intro x hx
  cases hb : x.1 == k with
  | false => rfl
  | true =>
    have ek := strEqOfBeq hb
    have hm : memS x.1 targs = true := by
      cases hm : memS x.1 targs with
      | true => rfl
      | false =>
        have g := anyMem (f := fun a => !memS a.1 targs) hx (by show (!memS x.1 targs) = true; rw [hm]; rfl)
        rw [hu] at g
        cases g
    have hk2 := (memFilt hk).2
    rw [← ek, memMemStr (memSMem hm)] at hk2
    cases hk2

/-- `lookupPath` finds a value at a path one step longer than `q` only inside an object at `q`. -/
theorem lookupParent : ∀ (q : List String) (v : Json) (y : String) (w : Json),
    lookupPath v (q ++ [y]) = some w → ∃ kvs, lookupPath v q = some (Json.obj kvs)
  | [], v, y, w, h => by
    cases v with
    | obj kvs => exact ⟨kvs, lookupNil _⟩
    | null => cases h
    | bool _ => cases h
    | num _ => cases h
    | str _ => cases h
    | arr _ => cases h
  | k :: q, v, y, w, h => by
    rw [List.cons_append] at h
    cases v with
    | obj kvs =>
      have h1 : (match kvs.find compare k with
        | some u => lookupPath u (q ++ [y])
        | none => none) = some w := h
      show ∃ kvs', (match kvs.find compare k with
        | some u => lookupPath u q
        | none => none) = some (Json.obj kvs')
      cases hf : kvs.find compare k with
      | none => rw [hf] at h1; cases h1
      | some u => rw [hf] at h1; exact lookupParent q u y w h1
    | null => cases h
    | bool _ => cases h
    | num _ => cases h
    | str _ => cases h
    | arr _ => cases h

/-- Every pair `nestedOf` lists is a path and its parent. -/
theorem nestedShape : ∀ (acc p : List String) (pq : List String × List String), pq ∈ nestedOf acc p →
    ∃ y, pq.1 = pq.2 ++ [y]
  | _, [], pq, h => absurd h notMemNil
  | acc, x :: xs, pq, h => by
    cases acc with
    | nil => exact nestedShape [x] xs pq h
    | cons a as =>
      cases memCons h with
      | inl e => rw [e]; exact ⟨x, rfl⟩
      | inr h1 => exact nestedShape ((a :: as) ++ [x]) xs pq h1

theorem dedupFrom [DecidableEq α] : ∀ (l acc : List α) (x : α), x ∈ dedupL acc l → x ∈ acc ∨ x ∈ l
  | [], acc, x, h => Or.inl h
  | y :: ys, acc, x, h => by
    cases hy : anyB (fun z => decide (z = y)) acc with
    | true =>
      have h1 : x ∈ dedupL acc ys := by
        have e : dedupL acc (y :: ys) = dedupL acc ys := by simp only [dedupL, hy] <;> rfl
        rw [e] at h; exact h
      cases dedupFrom ys acc x h1 with
      | inl h2 => exact Or.inl h2
      | inr h2 => exact Or.inr (Mem.tail _ h2)
    | false =>
      have h1 : x ∈ dedupL (acc ++ [y]) ys := by
        have e : dedupL acc (y :: ys) = dedupL (acc ++ [y]) ys := by simp only [dedupL, hy] <;> rfl
        rw [e] at h; exact h
      cases dedupFrom ys (acc ++ [y]) x h1 with
      | inl h2 => cases memAppE h2 with
        | inl h3 => exact Or.inl h3
        | inr h3 => rw [memOne h3]; exact Or.inr (Mem.head _)
      | inr h2 => exact Or.inr (Mem.tail _ h2)

theorem memJoinOut {x : α} : ∀ {L : List (List α)}, x ∈ L.join → ∃ l, l ∈ L ∧ x ∈ l
  | [], h => absurd h notMemNil
  | l :: L, h => by
    have h' : x ∈ l ++ L.join := h
    cases memAppE h' with
    | inl h1 => exact ⟨l, Mem.head _, h1⟩
    | inr h1 => have ⟨l', hl, hx⟩ := memJoinOut h1; exact ⟨l', Mem.tail _ hl, hx⟩

theorem memMapOut {f : α → β} {y : β} : ∀ {l : List α}, y ∈ l.map f → ∃ x, x ∈ l ∧ y = f x
  | [], h => absurd h notMemNil
  | a :: l, h => match memCons h with
    | Or.inl e => ⟨a, Mem.head _, e⟩
    | Or.inr h1 => have ⟨x, hx, e⟩ := memMapOut h1; ⟨x, Mem.tail _ hx, e⟩

/-- The nested paths' clauses hold of every call: a nested path's value is present only under an object. -/
theorem nestedClauses (s : State) (args : List (String × Json)) (e : Effect) (gs : List Monitor.Full.Grant) :
    allB (sClauseHolds (srcVal s args e))
      ((dedupL [] (gs.map (fun g => (g.preds.map (fun p => nestedOf [] (predPath p))).join)).join).map
        (fun pq => [((Src.path pq.1, Lit.present), false), ((Src.path pq.2, Lit.isObj), true)])) = true := by
  rw [allBMap]
  apply allBIntro
  intro pq hpq
  have hn : ∃ y, pq.1 = pq.2 ++ [y] := by
    cases dedupFrom _ [] pq hpq with
    | inl h => exact absurd h notMemNil
    | inr h =>
      have ⟨l1, hl1, h1⟩ := memJoinOut h
      have ⟨g, _, e1⟩ := memMapOut hl1
      rw [e1] at h1
      have ⟨l2, hl2, h2⟩ := memJoinOut h1
      have ⟨pr, _, e2⟩ := memMapOut hl2
      rw [e2] at h2
      exact nestedShape [] _ pq h2
  have ⟨y, ey⟩ := hn
  show anyB (fun x => decide (holds x.1.2 (srcVal s args e x.1.1) = x.2))
    [((Src.path pq.1, Lit.present), false), ((Src.path pq.2, Lit.isObj), true)] = true
  cases hl : lookupPath (argsJson args) pq.1 with
  | none =>
    have h0 : holds Lit.present (srcVal s args e (Src.path pq.1)) = false := by
      show holds Lit.present (avOfOpt (lookupPath (argsJson args) pq.1)) = false
      rw [hl]; rfl
    simp only [anyB]
    rw [h0]
    rfl
  | some w =>
    have ⟨kvs, hk⟩ := lookupParent pq.2 (argsJson args) y w (by rw [← ey]; exact hl)
    have h1 : holds Lit.isObj (srcVal s args e (Src.path pq.2)) = true := by
      show holds Lit.isObj (avOfOpt (lookupPath (argsJson args) pq.2)) = true
      rw [hk]; rfl
    have h0 : holds Lit.present (srcVal s args e (Src.path pq.1)) = true := by
      show holds Lit.present (avOfOpt (lookupPath (argsJson args) pq.1)) = true
      rw [hl]; exact presentAvOf w
    simp only [anyB]
    rw [h0, h1]
    rfl

theorem scalarHolds : ∀ (x : Json), isScalar x = true → holds Lit.scalar (avOf x) = true
  | Json.str _, _ => rfl
  | Json.num _, _ => rfl
  | Json.bool _, _ => rfl
  | Json.null, h => nomatch h
  | Json.arr _, h => nomatch h
  | Json.obj _, h => nomatch h

theorem eqLitSelf : ∀ (x : Json), isScalar x = true → holds (eqLitOf x) (avOf x) = true
  | Json.str _, _ => decideEqTrue rfl
  | Json.num n, _ => numEqRefl n
  | Json.bool b, _ => by cases b <;> rfl
  | Json.null, h => nomatch h
  | Json.arr _, h => nomatch h
  | Json.obj _, h => nomatch h

/-- A resource constant's literal holds of the constant, whatever it is (null included). -/
theorem resLitSelf : ∀ (x : Json), holds (resLitOf x) (avOf x) = true
  | Json.str s => eqLitSelf (Json.str s) rfl
  | Json.num n => eqLitSelf (Json.num n) rfl
  | Json.bool b => eqLitSelf (Json.bool b) rfl
  | Json.null => rfl
  | Json.arr _ => rfl
  | Json.obj _ => rfl

/-- The resource's clauses hold of an effect taking its resource where the way says, when the argument
object reads each key as the call's first argument of that key. -/
theorem resClauses (s : State) (args : List (String × Json)) (e : Effect) (r : ResRef) (rc : List SClause)
    (hr : resCond r = some rc) (hfrom : FromRes args e.res r)
    (hfirst : ∀ k, lookupPath (argsJson args) [k] = args.lookup k) :
    allB (sClauseHolds (srcVal s args e)) rc = true := by
  cases r with
  | const v =>
    have ev : e.res = v := hfrom
    rw [← Option.some.inj hr]
    have h1 := oneClause (srcVal s args e) (Src.res, resLitOf v) true
      (by show holds (resLitOf v) (avOf e.res) = true; rw [ev]; exact resLitSelf v)
    simp [allB, h1]
  | arg k =>
    have ⟨hl, hs⟩ := (hfrom : args.lookup k = some e.res ∧ isScalar e.res = true)
    rw [← Option.some.inj hr]
    have h1 := oneClause (srcVal s args e) (Src.path [k], Lit.scalar) true
      (by show holds Lit.scalar (avOfOpt (lookupPath (argsJson args) [k])) = true
          rw [hfirst k, hl]; exact scalarHolds e.res hs)
    simp [allB, h1]
  | listArg k =>
    have ⟨⟨items, hl⟩, hs⟩ := (hfrom : (∃ items, args.lookup k = some (Json.arr items)) ∧ isScalar e.res = true)
    rw [← Option.some.inj hr]
    have h1 := oneClause (srcVal s args e) (Src.res, Lit.scalar) true (scalarHolds e.res hs)
    have h2 := oneClause (srcVal s args e) (Src.path [k], Lit.isArr) true
      (by show holds Lit.isArr (avOfOpt (lookupPath (argsJson args) [k])) = true
          rw [hfirst k, hl]; rfl)
    simp [allB, h1, h2]

/-- The shape of a way's condition. -/
theorem wayCondShape (a : String) (tools : List Tool) (gs : List Monitor.Full.Grant) (E : Option (List Json))
    (t : Tool) (d : EffDecl) (cond : List SClause) (h : wayCond a tools gs E t d = some cond) :
    ∃ rc, resCond d.res = some rc ∧ cond = (t.required.map (fun k => [((Src.path [k], Lit.present), true)]) ++
      (filt (fun k => !memStr k t.args) (actionKeys a (ownTools a tools) gs)).map
        (fun k => [((Src.path [k], Lit.present), false)]) ++
      rc ++ eCond (wayRes d.res) E ++
      (dedupL [] ((ofAction a gs).map (fun g => (g.preds.map (fun p => nestedOf [] (predPath p))).join)).join).map
        (fun pq => [((Src.path pq.1, Lit.present), false), ((Src.path pq.2, Lit.isObj), true)])) := by
  cases hr : resCond d.res with
  | none =>
    have e : wayCond a tools gs E t d = none := by simp only [wayCond, hr]
    rw [e] at h; cases h
  | some rc =>
    refine ⟨rc, rfl, ?_⟩
    have e : wayCond a tools gs E t d = some (t.required.map (fun k => [((Src.path [k], Lit.present), true)]) ++
      (filt (fun k => !memStr k t.args) (actionKeys a (ownTools a tools) gs)).map
        (fun k => [((Src.path [k], Lit.present), false)]) ++
      rc ++ eCond (wayRes d.res) E ++
      (dedupL [] ((ofAction a gs).map (fun g => (g.preds.map (fun p => nestedOf [] (predPath p))).join)).join).map
        (fun pq => [((Src.path pq.1, Lit.present), false), ((Src.path pq.2, Lit.isObj), true)])) := by
      simp only [wayCond, hr] <;> rfl
    rw [e] at h
    exact (Option.some.inj h).symm

/-- The effect's resource is among `E`'s resources for the action (when `E` lists them), by the literal's
meaning (`constLit`: `jeq` against a scalar or null constant). -/
def InE (E : Option (List Json)) (e : Effect) : Prop :=
  ∀ cs, E = some cs → anyB (fun c => holds (eqLitOf c) (avOf e.res)) cs = true

/-- The way's reading of its resource (`wayRes`) is the resource itself on a call whose argument object
reads each key as its first argument of that key. -/
theorem wayResVal (s : State) (args : List (String × Json)) (e : Effect) (r : ResRef) (hfrom : FromRes args e.res r)
    (hfirst : ∀ k, lookupPath (argsJson args) [k] = args.lookup k) :
    ∀ src, srcVal s args e (reSrc (wayRes r) src) = srcVal s args e src := by
  intro src
  cases src with
  | path _ => rfl
  | slot _ => rfl
  | res =>
    cases r with
    | const _ => rfl
    | listArg _ => rfl
    | arg k =>
      have ⟨hl, _⟩ := (hfrom : args.lookup k = some e.res ∧ isScalar e.res = true)
      show avOfOpt (lookupPath (argsJson args) [k]) = avOf e.res
      rw [hfirst k, hl]; rfl

theorem eClauses (s : State) (args : List (String × Json)) (e : Effect) (r : ResRef) (E : Option (List Json))
    (hfrom : FromRes args e.res r) (hfirst : ∀ k, lookupPath (argsJson args) [k] = args.lookup k) (hE : InE E e) :
    allB (sClauseHolds (srcVal s args e)) (eCond (wayRes r) E) = true := by
  cases E with
  | none => rfl
  | some cs =>
    have h := hE cs rfl
    have hv : srcVal s args e (wayRes r) = avOf e.res := wayResVal s args e r hfrom hfirst Src.res
    show (sClauseHolds (srcVal s args e) (cs.map (fun c => ((wayRes r, eqLitOf c), true))) && true) = true
    have h2 : sClauseHolds (srcVal s args e) (cs.map (fun c => ((wayRes r, eqLitOf c), true))) = true := by
      show anyB _ _ = true
      rw [anyBMap]
      refine Eq.trans (anyBCongr cs ?_) h
      intro c _
      show decide (holds (eqLitOf c) (srcVal s args e (wayRes r)) = true) = holds (eqLitOf c) (avOf e.res)
      rw [hv]
      cases holds (eqLitOf c) (avOf e.res) <;> rfl
    rw [h2]; rfl

theorem cnfApp (v : Src → AV) (x y : List SClause) (hx : sCnfHolds v x = true) (hy : sCnfHolds v y = true) :
    sCnfHolds v (x ++ y) = true := by
  have e : sCnfHolds v (x ++ y) = (sCnfHolds v x && sCnfHolds v y) := allBApp (sClauseHolds v) x y
  rw [e, hx, hy]
  rfl

/-- The way's condition holds of every call the monitor prepares, read canonically (`srcVal`), for the way
that produced the effect, given the effect's resource among `E`'s and the argument object reading each
key as the call's first argument of that key. -/
theorem preparedWayCond (p : Policy) (a : String) (gs : List Monitor.Full.Grant) (E : Option (List Json))
    (s : State) (c : Call) (t : Tool) (es : List Effect) (hprep : prepare p s c = Except.ok (t, es))
    (e : Effect) (d : EffDecl) (here : List Effect) (hh : hereOf c.args d = Except.ok here) (he : e ∈ here)
    (hfirst : ∀ k, lookupPath (argsJson c.args) [k] = c.args.lookup k) (hE : InE E e)
    (cond : List SClause) (hcond : wayCond a p.tools gs E t d = some cond) :
    sCnfHolds (srcVal s c.args e) cond = true := by
  have ⟨_, hu, hr, _⟩ := prepareChecks p s c t es hprep
  have hfrom := hereFrom c.args d here e hh he
  have ⟨rc, hrc, econd⟩ := wayCondShape a p.tools gs E t d cond hcond
  have hA := reqClauses s c.args e t.required hr
  have hB := declClauses s c.args e t.args (actionKeys a (ownTools a p.tools) gs) hu
  have hC := resClauses s c.args e d.res rc hrc hfrom hfirst
  have hD := eClauses s c.args e d.res E hfrom hfirst hE
  have hF := nestedClauses s c.args e (ofAction a gs)
  rw [econd]
  exact cnfApp _ _ _ (cnfApp _ _ _ (cnfApp _ _ _ (cnfApp _ _ _ hA hB) hC) hD) hF

theorem resCondSome : ∀ (r : ResRef), ∃ rc, resCond r = some rc
  | ResRef.const _ => ⟨_, rfl⟩
  | ResRef.arg _ => ⟨_, rfl⟩
  | ResRef.listArg _ => ⟨_, rfl⟩

/-- Every way has a question: a resource constant, null included, is written as its literal. -/
theorem wayCondSomeAll (a : String) (tools : List Tool) (gs : List Monitor.Full.Grant) (E : Option (List Json))
    (t : Tool) (d : EffDecl) : ∃ cond, wayCond a tools gs E t d = some cond := by
  have ⟨rc, hr⟩ := resCondSome d.res
  exact ⟨_, by simp only [wayCond, hr] <;> rfl⟩

/-- Every way of `a` whose question exists is answered covered (`preparedCoverEvery`'s `hcov`). -/
def WaysCovered (p : Policy) (a : String) (gs : List Monitor.Full.Grant) (E : Option (List Json))
    (listed : List (List Bool)) : Prop :=
  ∀ t d cond, (t, d) ∈ ways a p.tools → wayCond a p.tools gs E t d = some cond →
    argCover (Oracle.ArgCover.good
      (buildQ cond (gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a p.tools) gs)))).cond
      (buildQ cond (gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a p.tools) gs)))).pos listed)
      (buildQ cond (gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a p.tools) gs)))).atoms =
      Answer.covered

/-- The way a prepared call's effect of action `a` comes from, with the call's own values read where the way
reads them and the way's condition proved of them: what `preparedCoverEvery` and `preparedCoverEveryA` take
from preparation (`effectsOfWay`, `wayResVal`, `preparedWayCond`). -/
theorem preparedWayOf (p : Policy) (a : String) (gs : List Monitor.Full.Grant) (E : Option (List Json))
    (s : State) (c : Call) (t : Tool) (es : List Effect) (hprep : prepare p s c = Except.ok (t, es))
    (e : Effect) (he : e ∈ es) (ha : e.action = a) (hE : InE E e)
    (hfirst : ∀ k, lookupPath (argsJson c.args) [k] = c.args.lookup k) :
    ∃ d cond, (t, d) ∈ ways a p.tools ∧ wayCond a p.tools gs E t d = some cond ∧
      (∀ src, srcVal s c.args e (reSrc (wayRes d.res) src) = srcVal s c.args e src) ∧
      sCnfHolds (srcVal s c.args e) cond = true := by
  have ⟨ht, _, _, hes⟩ := prepareChecks p s c t es hprep
  have ⟨d, hd, here, hh, he'⟩ := effectsOfWay c.args e t.effects es hes he
  have hda : e.action = d.action := hereAction c.args d here e hh he'
  have hfrom := hereFrom c.args d here e hh he'
  have hway : (t, d) ∈ ways a p.tools := by
    have hown : t ∈ ownTools a p.tools := by
      apply filtMem ht
      apply anyBIntro hd
      rw [← hda, ha]
      exact strBeqSelf a
    have hdf : d ∈ filt (fun d => d.action == a) t.effects := by
      apply filtMem hd
      rw [← hda, ha]
      exact strBeqSelf a
    exact memJoin (memMapOf (fun t => (filt (fun d => d.action == a) t.effects).map (fun d => (t, d))) hown)
      (memMapOf (fun d => (t, d)) hdf)
  have ⟨cond, hcond⟩ := wayCondSomeAll a p.tools gs E t d
  exact ⟨d, cond, hway, hcond, wayResVal s c.args e d.res hfrom hfirst,
    preparedWayCond p a gs E s c t es hprep e d here hh he' hfirst hE cond hcond⟩

/-- The coverage theorem for every call the monitor prepares: when `argCover` answers covered on the
question Lean writes for every way of action `a` (every way has one), every call the monitor prepares on
a state a run from the task's start reaches, with an effect of action `a` whose resource is among
`E`'s, has its `grantMatches` vector among `listed`, provided the argument object reads each key as the
call's first argument of that key. The way is the one that produced the effect (`effectsOfWay`), its
values are the call's own (`srcVal`), and its condition is proved (`preparedWayCond`). -/
theorem preparedCoverEvery (p : Policy) (a : String) (gs : List Monitor.Full.Grant) (E : Option (List Json))
    (listed : List (List Bool))
    (hfrag : ∀ g, g ∈ gs → g.action = a → grantOk g = true)
    (hcov : WaysCovered p a gs E listed)
    (s : State) (hreach : ∃ cs, s = (runFull p (initialState p) cs).2)
    (c : Call) (t : Tool) (es : List Effect) (hprep : prepare p s c = Except.ok (t, es))
    (e : Effect) (he : e ∈ es) (ha : e.action = a)
    (hE : InE E e)
    (hfirst : ∀ k, lookupPath (argsJson c.args) [k] = c.args.lookup k) :
    anyB (fun u => decide (u = gs.map (fun g => grantMatches s c.args g e))) listed = true := by
  have ⟨d, cond, hway, hcond, hval, hin⟩ := preparedWayOf p a gs E s c t es hprep e he ha hE hfirst
  exact preparedCoverMatches p a gs E t d listed cond hcond hfrag (hcov t d cond hway hcond) s hreach c t es hprep
    e he ha (srcVal s c.args e) hval hin

end AgentWarrant.Revision.ArgCover
