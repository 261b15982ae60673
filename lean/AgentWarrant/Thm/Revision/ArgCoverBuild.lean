import AgentWarrant.Thm.Revision.ArgCoverMatch
import AgentWarrant.Oracle.ArgCover
import AgentWarrant.Thm.Json.ObjLookup
/-! The question Lean writes from the entries (`Spec/Revision/ArgCoverBuild.lean`, `wayQ`) means the
monitor's matching (Agenra Sections 5.2 and 7.1). Numbering keeps meaning (`numCnf`): when every source
has its value (`valOf`), a numbered clause holds exactly when the clause on named sources does. A position
on the way whose resource is read at `rk` is the monitor's `grantMatches` (`posOfMatches`, from
`grantMatchesConj`'s literal lemmas, `slotConjMeans` and `keyConjMeans`) for every call whose effect is of
the action, when the way's sources have the call's values (`val (reSrc rk src) = srcVal s args e src`: the
resource where the way reads it, each argument path where `lookupPath` finds it, a slot's variable present
when the slot is bound to the resource's value) and the entry lies in the fragment (`grantOk`: scalar or
null constants). So `argCoveredSound` on Lean's own question (`builtCoverMatches`) gives: every such call
satisfying the way's condition has the monitor's match vector among the listed ones — no atom, clause or
variable supplied by the caller.
A top-level key's value is present exactly when the call has an argument of that key: proved
(`argsJsonPresent`, `Thm/Json/ObjLookup.lean`: `Json.mkObj` builds a search tree). Hypotheses about the
call, not proved here: the call's keys are among the action's keys (`hdecl`), and a slot's bound value the resource equals is a
scalar other than the empty string (`hbind`: the checker's encoding's reading of a binding, which the
Python translation writes too). Not stated either: that every call the monitor prepares satisfies the
way's condition (the tools' required and declared keys, where the resource comes from, `E`); the
condition is Lean's own translation of them, read as written. -/
namespace AgentWarrant.Revision.ArgCover
open Lean AgentWarrant AgentWarrant.Monitor AgentWarrant.Monitor.Full

-- list facts ------------------------------------------------------------------------------------------

theorem dedupMem [DecidableEq α] : ∀ (l acc : List α) (x : α), (x ∈ acc ∨ x ∈ l) → x ∈ dedupL acc l
  | [], acc, x, h => match h with
    | Or.inl h => h
    | Or.inr h => absurd h notMemNil
  | y :: ys, acc, x, h => by
    cases hy : anyB (fun z => decide (z = y)) acc with
    | true =>
      show x ∈ (match anyB (fun z => decide (z = y)) acc with
        | true => dedupL acc ys
        | false => dedupL (acc ++ [y]) ys)
      rw [hy]
      apply dedupMem ys acc x
      match h with
      | Or.inl h => exact Or.inl h
      | Or.inr h => match memCons h with
        | Or.inl e =>
          have ⟨z, hz, ez⟩ := anyBElim hy
          rw [e, ← ofDecideEqTrue ez]
          exact Or.inl hz
        | Or.inr h => exact Or.inr h
    | false =>
      show x ∈ (match anyB (fun z => decide (z = y)) acc with
        | true => dedupL acc ys
        | false => dedupL (acc ++ [y]) ys)
      rw [hy]
      apply dedupMem ys (acc ++ [y]) x
      match h with
      | Or.inl h => exact Or.inl (memAppL [y] h)
      | Or.inr h => match memCons h with
        | Or.inl e => rw [e]; exact Or.inl (memAppR [y] acc (Mem.head []))
        | Or.inr h => exact Or.inr h

theorem idxNth [DecidableEq α] (x : α) : ∀ (l : List α), x ∈ l → nthO l (idxOf x l) = some x
  | [], h => absurd h notMemNil
  | y :: ys, h => by
    cases hd : decide (x = y) with
    | true =>
      show nthO (y :: ys) (match decide (x = y) with | true => 0 | false => idxOf x ys + 1) = some x
      rw [hd, ofDecideEqTrue hd]
      rfl
    | false =>
      show nthO (y :: ys) (match decide (x = y) with | true => 0 | false => idxOf x ys + 1) = some x
      rw [hd]
      show nthO ys (idxOf x ys) = some x
      match memCons h with
      | Or.inl e => exact absurd e (ofDecideEqFalse hd)
      | Or.inr h => exact idxNth x ys h

theorem getBMap2 [DecidableEq α] (g : α → β) (f : β → Bool) (x : α) : ∀ (l : List α), x ∈ l →
    getB ((l.map g).map f) (idxOf x l) = f (g x)
  | [], h => absurd h notMemNil
  | y :: ys, h => by
    cases hd : decide (x = y) with
    | true =>
      show getB ((List.map g (y :: ys)).map f) (match decide (x = y) with | true => 0 | false => idxOf x ys + 1) = _
      rw [hd, ofDecideEqTrue hd]
      rfl
    | false =>
      show getB ((List.map g (y :: ys)).map f) (match decide (x = y) with | true => 0 | false => idxOf x ys + 1) = _
      rw [hd]
      show getB ((ys.map g).map f) (idxOf x ys) = _
      match memCons h with
      | Or.inl e => exact absurd e (ofDecideEqFalse hd)
      | Or.inr h => exact getBMap2 g f x ys h

theorem memJoin {x : α} {l : List α} : ∀ {ls : List (List α)}, l ∈ ls → x ∈ l → x ∈ ls.join
  | [], h, _ => absurd h notMemNil
  | a :: as, h, hx => by
    show x ∈ a ++ as.join
    match memCons h with
    | Or.inl e => rw [← e]; exact memAppL _ hx
    | Or.inr h => exact memAppR _ a (memJoin h hx)

theorem allBAll (p : α → Bool) : ∀ (l : List α), allB p l = l.all p
  | [] => rfl
  | a :: l => by
    show (match p a with | true => allB p l | false => false) = (p a && List.all l p)
    rw [allBAll p l]
    cases p a <;> rfl

theorem anyBAny (p : α → Bool) : ∀ (l : List α), anyB p l = l.any p
  | [] => rfl
  | a :: l => by
    show (match p a with | true => true | false => anyB p l) = (p a || List.any l p)
    rw [anyBAny p l]
    cases p a <;> rfl

theorem allBApp (p : α → Bool) : ∀ (l1 l2 : List α), allB p (l1 ++ l2) = (allB p l1 && allB p l2)
  | [], l2 => rfl
  | a :: l, l2 => by
    rw [List.cons_append]
    show (match p a with | true => allB p (l ++ l2) | false => false) =
      ((match p a with | true => allB p l | false => false) && allB p l2)
    rw [allBApp p l l2]
    cases p a <;> rfl

theorem allBMap (p : β → Bool) (h : α → β) : ∀ (l : List α), allB p (l.map h) = allB (fun x => p (h x)) l
  | [] => rfl
  | a :: l => by
    show (match p (h a) with | true => allB p (l.map h) | false => false) =
      (match p (h a) with | true => allB (fun x => p (h x)) l | false => false)
    rw [allBMap p h l]

theorem anyBMap (p : β → Bool) (h : α → β) : ∀ (l : List α), anyB p (l.map h) = anyB (fun x => p (h x)) l
  | [] => rfl
  | a :: l => by
    show (match p (h a) with | true => true | false => anyB p (l.map h)) =
      (match p (h a) with | true => true | false => anyB (fun x => p (h x)) l)
    rw [anyBMap p h l]

theorem allBCongr {p q : α → Bool} : ∀ (l : List α), (∀ x, x ∈ l → p x = q x) → allB p l = allB q l
  | [], _ => rfl
  | a :: l, h => by
    show (match p a with | true => allB p l | false => false) = (match q a with | true => allB q l | false => false)
    rw [h a (Mem.head l), allBCongr l (fun x hx => h x (Mem.tail a hx))]

theorem anyBCongr {p q : α → Bool} : ∀ (l : List α), (∀ x, x ∈ l → p x = q x) → anyB p l = anyB q l
  | [], _ => rfl
  | a :: l, h => by
    show (match p a with | true => true | false => anyB p l) = (match q a with | true => true | false => anyB q l)
    rw [h a (Mem.head l), anyBCongr l (fun x hx => h x (Mem.tail a hx))]

theorem mapCongrB {f g : α → β} : ∀ (l : List α), (∀ x, x ∈ l → f x = g x) → l.map f = l.map g
  | [], _ => rfl
  | a :: l, h => by
    show f a :: l.map f = g a :: l.map g
    rw [h a (Mem.head l), mapCongrB l (fun x hx => h x (Mem.tail a hx))]

theorem mapMapB (f : β → γ) (g : α → β) : ∀ (l : List α), (l.map g).map f = l.map (fun x => f (g x))
  | [] => rfl
  | a :: l => by
    show f (g a) :: (l.map g).map f = f (g a) :: l.map (fun x => f (g x))
    rw [mapMapB f g l]

theorem decEqTrue : ∀ (b : Bool), decide (b = true) = b
  | true => rfl
  | false => rfl

-- numbering keeps meaning -------------------------------------------------------------------------------

theorem valOfIdx (names : List Src) (val : Src → AV) (s : Src) (h : s ∈ names) : valOf names val (idxOf s names) = val s := by
  show (match nthO names (idxOf s names) with | some s => val s | none => AV.missing) = val s
  rw [idxNth s names h]

/-- The numbered question's atom vector at a literal's index is the literal on its source's value. -/
theorem bitAt (syms : List SLit) (names : List Src) (val : Src → AV) (x : SLit) (hx : x ∈ syms) (hn : x.1 ∈ names) :
    getB (bitsOf (syms.map (fun y => (idxOf y.1 names, ALit.lit y.2))) (valOf names val)) (idxOf x syms) = holds x.2 (val x.1) := by
  show getB ((syms.map (fun y => (idxOf y.1 names, ALit.lit y.2))).map (fun a => holdsA a.2 (valOf names val a.1))) (idxOf x syms) = _
  rw [getBMap2 _ _ x syms hx]
  show holds x.2 (valOf names val (idxOf x.1 names)) = _
  rw [valOfIdx names val x.1 hn]

theorem numClause (syms : List SLit) (names : List Src) (val : Src → AV) (c : SClause)
    (h : ∀ y, y ∈ c → y.1 ∈ syms ∧ y.1.1 ∈ names) :
    anyB (fun s => decide (getB (bitsOf (syms.map (fun y => (idxOf y.1 names, ALit.lit y.2))) (valOf names val)) s.1 = s.2)) (numC syms c) =
      sClauseHolds val c := by
  show anyB _ (c.map (fun x => (idxOf x.1 syms, x.2))) = anyB _ c
  rw [anyBMap]
  apply anyBCongr
  intro y hy
  show decide (getB _ (idxOf y.1 syms) = y.2) = decide (holds y.1.2 (val y.1.1) = y.2)
  rw [bitAt syms names val y.1 (h y hy).1 (h y hy).2]

theorem numCnf (syms : List SLit) (names : List Src) (val : Src → AV) (f : List SClause)
    (h : ∀ c y, c ∈ f → y ∈ c → y.1 ∈ syms ∧ y.1.1 ∈ names) :
    cnfHolds (bitsOf (syms.map (fun y => (idxOf y.1 names, ALit.lit y.2))) (valOf names val)) (numF syms f) = sCnfHolds val f := by
  show allB _ (f.map (numC syms)) = allB _ f
  rw [allBMap]
  apply allBCongr
  intro c hc
  exact numClause syms names val c (fun y hy => h c y hc hy)

/-- A literal of the question is among its atoms, and its source among its variables. -/
theorem symsNames (cond : List SClause) (pos : List (Option (List SClause))) (y : SLit)
    (hy : y ∈ litsOfF cond ++ posLits pos) :
    y ∈ dedupL [] (litsOfF cond ++ posLits pos) ∧
      y.1 ∈ dedupL [] ((dedupL [] (litsOfF cond ++ posLits pos)).map (fun x => x.1)) := by
  have h1 := dedupMem _ [] y (Or.inr hy)
  exact ⟨h1, dedupMem _ [] y.1 (Or.inr (memMapOf (fun x => x.1) h1))⟩

theorem litsOfFMem {f : List SClause} {c : SClause} {y : SLit × Bool} (hc : c ∈ f) (hy : y ∈ c) : y.1 ∈ litsOfF f :=
  memJoin (memMapOf litsOfC hc) (memMapOf (fun x => x.1) hy)

theorem posLitsMem {f : List SClause} : ∀ {pos : List (Option (List SClause))}, some f ∈ pos → ∀ y, y ∈ litsOfF f → y ∈ posLits pos
  | [], h, _, _ => absurd h notMemNil
  | none :: ps, h, y, hy => by
    show y ∈ posLits ps
    match memCons h with
    | Or.inl e => cases e
    | Or.inr h => exact posLitsMem h y hy
  | some g :: ps, h, y, hy => by
    show y ∈ litsOfF g ++ posLits ps
    match memCons h with
    | Or.inl e => cases e; exact memAppL _ hy
    | Or.inr h => exact memAppR _ _ (posLitsMem h y hy)

def sPosBit (val : Src → AV) : Option (List SClause) → Bool
  | none => false
  | some f => sCnfHolds val f

theorem sPosBitSome (val : Src → AV) (f : List SClause) : sPosBit val (some f) = sCnfHolds val f := rfl

/-- The numbered question's condition and position bits are those on named sources. -/
theorem buildQMeans (cond : List SClause) (pos : List (Option (List SClause))) (val : Src → AV) :
    cnfHolds (bitsOf (buildQ cond pos).atoms (valOf (buildQ cond pos).names val)) (buildQ cond pos).cond = sCnfHolds val cond ∧
    (buildQ cond pos).pos.map (posBit (bitsOf (buildQ cond pos).atoms (valOf (buildQ cond pos).names val))) =
      pos.map (sPosBit val) := by
  refine ⟨?_, ?_⟩
  · exact numCnf _ _ val cond (fun c y hc hy => symsNames cond pos y.1 (memAppL _ (litsOfFMem hc hy)))
  · show (pos.map (numP _)).map _ = _
    rw [mapMapB]
    apply mapCongrB
    intro p hp
    cases p with
    | none => rfl
    | some f =>
      show cnfHolds _ (numF _ f) = sCnfHolds val f
      exact numCnf _ _ val f (fun c y hc hy => symsNames cond pos y.1
        (memAppR _ _ (posLitsMem hp y.1 (litsOfFMem hc hy))))

-- a position is the monitor's matching ------------------------------------------------------------------

theorem conjClause (s : State) (args : List (String × Json)) (e : Effect) (rk : Src) (val : Src → AV)
    (hval : ∀ src, val (reSrc rk src) = srcVal s args e src) (c : Conj) :
    sClauseHolds val (c.2.map (fun l => ((reSrc rk c.1, l), true))) = conjHolds s args e c := by
  show anyB _ (c.2.map _) = c.2.any _
  rw [anyBMap, ← anyBAny]
  apply anyBCongr
  intro l _
  show decide (holds l (val (reSrc rk c.1)) = true) = holds l (srcVal s args e c.1)
  rw [hval c.1, decEqTrue]

theorem conjsCnf (s : State) (args : List (String × Json)) (e : Effect) (rk : Src) (val : Src → AV)
    (hval : ∀ src, val (reSrc rk src) = srcVal s args e src) (cs : List Conj) :
    sCnfHolds val (cs.map (fun c => c.2.map (fun l => ((reSrc rk c.1, l), true)))) = cs.all (conjHolds s args e) := by
  show allB _ (cs.map _) = _
  rw [allBMap, ← allBAll]
  apply allBCongr
  intro c _
  exact conjClause s args e rk val hval c

theorem grantOkParts {g : Monitor.Full.Grant} (h : grantOk g = true) :
    patOkS g.pat = true ∧ allB predOk g.preds = true :=
  andT h

-- a slot pattern ----------------------------------------------------------------------------------------

theorem clause1 (val : Src → AV) (x : SLit) (b : Bool) : sClauseHolds val [(x, b)] = decide (holds x.2 (val x.1) = b) := by
  show (match decide (holds x.2 (val x.1) = b) with
    | true => true
    | false => anyB (fun (y : SLit × Bool) => decide (holds y.1.2 (val y.1.1) = y.2)) []) = decide (holds x.2 (val x.1) = b)
  cases decide (holds x.2 (val x.1) = b) <;> rfl

theorem cnfCons (val : Src → AV) (c : SClause) (f : List SClause) :
    sCnfHolds val (c :: f) = (sClauseHolds val c && sCnfHolds val f) := by
  show (match sClauseHolds val c with | true => allB (sClauseHolds val) f | false => false) = _
  cases sClauseHolds val c <;> rfl

/-- A slot pattern's clauses are the monitor's `resMatches` of the slot, when the slot's variable and the
resource have the call's values and a bound value the resource equals is a scalar other than the empty
string (`hbind`). -/
theorem slotConjMeans (s : State) (args : List (String × Json)) (e : Effect) (rk : Src) (val : Src → AV) (n : String)
    (hres : val rk = avOf e.res) (hsl : val (Src.slot n) = srcVal s args e (Src.slot n))
    (hbind : resMatches s e.res (Pat.slot n) = true →
      holds Lit.scalar (avOf e.res) = true ∧ holds (Lit.eqStr []) (avOf e.res) = false) :
    sCnfHolds val (slotConj rk (Pat.slot n)) = resMatches s e.res (Pat.slot n) := by
  show sCnfHolds val [[((Src.slot n, Lit.present), true)], [((rk, Lit.scalar), true)], [((rk, Lit.eqStr []), false)]] = _
  rw [cnfCons, cnfCons, cnfCons, clause1, clause1, clause1]
  show (decide (holds Lit.present (val (Src.slot n)) = true) && (decide (holds Lit.scalar (val rk) = true) &&
    (decide (holds (Lit.eqStr []) (val rk) = false) && true))) = _
  rw [hres, hsl]
  cases hm : resMatches s e.res (Pat.slot n) with
  | true =>
    have ⟨h1, h2⟩ := hbind hm
    have e3 : srcVal s args e (Src.slot n) = AV.null := by
      show (match resMatches s e.res (Pat.slot n) with | true => AV.null | false => AV.missing) = AV.null
      rw [hm]
    rw [e3, h1, h2] <;> rfl
  | false =>
    have e3 : srcVal s args e (Src.slot n) = AV.missing := by
      show (match resMatches s e.res (Pat.slot n) with | true => AV.null | false => AV.missing) = AV.missing
      rw [hm]
    rw [e3] <;> rfl

theorem andTrueR : ∀ (b : Bool), (b && true) = b
  | true => rfl
  | false => rfl

/-- A resource pattern Lean writes is the monitor's `resMatches`: its literal clauses and, for a slot,
its slot clauses. -/
theorem patSplit (s : State) (args : List (String × Json)) (e : Effect) (rk : Src) (val : Src → AV)
    (hval : ∀ src, val (reSrc rk src) = srcVal s args e src)
    (hbind : ∀ n, resMatches s e.res (Pat.slot n) = true →
      holds Lit.scalar (avOf e.res) = true ∧ holds (Lit.eqStr []) (avOf e.res) = false) :
    ∀ (p : Pat), patOkS p = true →
      resMatches s e.res p = ((patConj p).all (conjHolds s args e) && sCnfHolds val (slotConj rk p))
  | Pat.any, _ => rfl
  | Pat.glob g, h => by
    show _ = ((patConj (Pat.glob g)).all (conjHolds s args e) && true)
    rw [andTrueR]
    exact patConjOk s args e (Pat.glob g) h
  | Pat.const c, h => by
    show _ = ((patConj (Pat.const c)).all (conjHolds s args e) && true)
    rw [andTrueR]
    exact patConjOk s args e (Pat.const c) h
  | Pat.slot n, _ => by
    show _ = (true && sCnfHolds val (slotConj rk (Pat.slot n)))
    rw [slotConjMeans s args e rk val n (hval Src.res) (hval (Src.slot n)) (hbind n)] <;> rfl

-- a key allowlist ---------------------------------------------------------------------------------------

theorem strBeqSelf (x : String) : (x == x) = true := decideEqTrue rfl

theorem memStrMem : ∀ {k : String} {l : List String}, memStr k l = true → k ∈ l
  | k, [], h => by cases h
  | k, x :: xs, h => by
    cases hx : (k == x) with
    | true => rw [ofDecideEqTrue hx]; exact Mem.head xs
    | false =>
      have h' : (k == x || memStr k xs) = true := h
      rw [hx] at h'
      exact Mem.tail x (memStrMem h')

theorem memMemStr : ∀ {k : String} {l : List String}, k ∈ l → memStr k l = true
  | k, [], h => absurd h notMemNil
  | k, x :: xs, h => by
    show (k == x || memStr k xs) = true
    match memCons h with
    | Or.inl e => rw [e, strBeqSelf x] <;> rfl
    | Or.inr h' => rw [memMemStr h']; cases (k == x) <;> rfl

theorem memSMem {x : String} {l : List String} (h : AgentWarrant.Monitor.Full.memS x l = true) : x ∈ l := by
  have h' : anyB (fun y => y == x) l = true := by rw [anyBAny]; exact h
  have ⟨y, hy, e⟩ := anyBElim h'
  rw [← ofDecideEqTrue e]
  exact hy

theorem memMemS {x : String} {l : List String} (h : x ∈ l) : AgentWarrant.Monitor.Full.memS x l = true := by
  show List.any l (fun y => y == x) = true
  rw [← anyBAny]
  exact anyBIntro h (strBeqSelf x)

/-- The clause "key `k` absent" holds when no argument has key `k`. -/
theorem absentClause (args : List (String × Json)) (val : Src → AV) (k : String)
    (hv : holds Lit.present (val (Src.path [k])) = anyB (fun x => x.1 == k) args) :
    sClauseHolds val [((Src.path [k], Lit.present), false)] = !anyB (fun x => x.1 == k) args := by
  rw [clause1]
  show decide (holds Lit.present (val (Src.path [k])) = false) = _
  rw [hv]
  cases anyB (fun x => x.1 == k) args <;> rfl

/-- A key allowlist's clauses are the monitor's `keysOk` (every argument's key in the allowlist), when a
key's value is present exactly when an argument has that key (`hv`) and every argument's key is one of the
action's keys (`hin`). -/
theorem keyConjMeans (args : List (String × Json)) (keys ks : List String) (val : Src → AV)
    (hv : ∀ k, holds Lit.present (val (Src.path [k])) = anyB (fun x => x.1 == k) args)
    (hin : ∀ x, x ∈ args → memStr x.1 keys = true) :
    sCnfHolds val (keyConj keys (some ks)) = args.all (fun x => AgentWarrant.Monitor.Full.memS x.1 ks) := by
  have e1 : sCnfHolds val (keyConj keys (some ks)) =
      allB (fun k => !anyB (fun x => x.1 == k) args) (filt (fun k => !memStr k ks) keys) := by
    show allB (sClauseHolds val) ((filt (fun k => !memStr k ks) keys).map
      (fun k => [((Src.path [k], Lit.present), false)])) = _
    rw [allBMap]
    exact allBCongr _ (fun k _ => absentClause args val k (hv k))
  rw [e1, ← allBAll]
  cases hall : allB (fun x => AgentWarrant.Monitor.Full.memS x.1 ks) args with
  | true =>
    apply allBIntro
    intro k hk
    have ⟨_, hk2⟩ := memFilt hk
    cases hany : anyB (fun x => x.1 == k) args with
    | false => rfl
    | true =>
      have ⟨x, hx, ex⟩ := anyBElim hany
      have hm := allBElim hall x hx
      have hxk : x.1 = k := ofDecideEqTrue ex
      rw [hxk] at hm
      rw [memMemStr (memSMem hm)] at hk2
      cases hk2
  | false =>
    cases hq : allB (fun k => !anyB (fun x => x.1 == k) args) (filt (fun k => !memStr k ks) keys) with
    | false => rfl
    | true =>
      have hall' : allB (fun x => AgentWarrant.Monitor.Full.memS x.1 ks) args = true := by
        apply allBIntro
        intro x hx
        cases hm : AgentWarrant.Monitor.Full.memS x.1 ks with
        | true => rfl
        | false =>
          have hnot : (!memStr x.1 ks) = true := by
            cases hs : memStr x.1 ks with
            | false => rfl
            | true => rw [memMemS (memStrMem hs)] at hm; cases hm
          have habs := allBElim hq x.1 (filtMem (memStrMem (hin x hx)) hnot)
          have hpres : anyB (fun y => y.1 == x.1) args = true := anyBIntro hx (strBeqSelf x.1)
          have habs' : (!anyB (fun y => y.1 == x.1) args) = true := habs
          rw [hpres] at habs'
          cases habs'
      rw [hall'] at hall
      cases hall

/-- The monitor's `keysOk` is the allowlist's clauses (none without an allowlist). -/
theorem keysOkConj (g : Monitor.Full.Grant) (args : List (String × Json)) (keys : List String) (val : Src → AV)
    (hv : ∀ k, holds Lit.present (val (Src.path [k])) = anyB (fun x => x.1 == k) args)
    (hin : ∀ x, x ∈ args → memStr x.1 keys = true) :
    sCnfHolds val (keyConj keys g.keys) = keysOk g args := by
  cases hk : g.keys with
  | none =>
    have hko : keysOk g args = true := by
      show (match g.keys with
        | none => true
        | some ks => args.all (fun a => memS a.1 ks)) = true
      rw [hk]
    rw [hko] <;> rfl
  | some ks =>
    have hko : keysOk g args = args.all (fun a => memS a.1 ks) := by
      show (match g.keys with
        | none => true
        | some ks => args.all (fun a => memS a.1 ks)) = args.all (fun a => memS a.1 ks)
      rw [hk]
    rw [hko]
    exact keyConjMeans args keys ks val hv hin

theorem andPerm : ∀ (p q k c : Bool), (true && (p && q) && k && c) = (((p && c) && q) && k)
  | p, q, k, c => by cases p <;> cases q <;> cases k <;> cases c <;> rfl

/-- For a grant whose constants are scalar or null, the monitor's `grantMatches` is its action test, its
resource pattern's and predicates' clauses (`patSplit`) and `keysOk`. -/
theorem grantMatchesConjK (s : State) (args : List (String × Json)) (g : Monitor.Full.Grant) (e : Effect)
    (rk : Src) (val : Src → AV) (hval : ∀ src, val (reSrc rk src) = srcVal s args e src)
    (hbind : ∀ n, resMatches s e.res (Pat.slot n) = true →
      holds Lit.scalar (avOf e.res) = true ∧ holds (Lit.eqStr []) (avOf e.res) = false)
    (hp : patOkS g.pat = true) (hq : allB predOk g.preds = true) :
    grantMatches s args g e =
      (g.action == e.action && ((patConj g.pat).all (conjHolds s args e) && sCnfHolds val (slotConj rk g.pat)) &&
        keysOk g args && (g.preds.map predConj).all (conjHolds s args e)) := by
  show (g.action == e.action && resMatches s e.res g.pat && keysOk g args && g.preds.all (predHolds args)) = _
  rw [patSplit s args e rk val hval hbind g.pat hp, predsConjOk s args e g.preds hq]

/-- A position Lean writes is the monitor's `grantMatches` of its entry, for every call whose effect is of
the action, when the way's sources have the call's values, the entry lies in the fragment, a top-level
key's value is present exactly when an argument has that key (proved: `argsJsonPresent`) and every argument's key
is one of the action's keys `keys` (`hin`), and a slot's bound value that the resource equals is a scalar
other than the empty string (`hbind`, the checker's encoding's reading of a binding). -/
theorem posOfMatches (s : State) (args : List (String × Json)) (e : Effect) (a : String) (rk : Src)
    (keys : List String) (val : Src → AV) (hval : ∀ src, val (reSrc rk src) = srcVal s args e src) (ha : e.action = a)
    (hin : ∀ x, x ∈ args → memStr x.1 keys = true)
    (hbind : ∀ n, resMatches s e.res (Pat.slot n) = true →
      holds Lit.scalar (avOf e.res) = true ∧ holds (Lit.eqStr []) (avOf e.res) = false)
    (g : Monitor.Full.Grant) (hg : g.action = a → grantOk g = true) :
    sPosBit val (posOf a rk keys g) = grantMatches s args g e := by
  have hv : ∀ k, holds Lit.present (val (Src.path [k])) = anyB (fun x => x.1 == k) args := by
    intro k
    have e1 : val (Src.path [k]) = srcVal s args e (Src.path [k]) := hval (Src.path [k])
    rw [e1]
    exact argsJsonPresent s args e k
  cases h : g.action == a with
  | true =>
    have hga : g.action = a := ofDecideEqTrue h
    have ⟨hp, hq⟩ := grantOkParts (hg hga)
    show sPosBit val (match g.action == a with
      | true => some ((patConj g.pat ++ g.preds.map predConj).map (fun c => c.2.map (fun l => ((reSrc rk c.1, l), true))) ++
          slotConj rk g.pat ++ keyConj keys g.keys)
      | false => none) = _
    rw [h, grantMatchesConjK s args g e rk val hval hbind hp hq]
    show sPosBit val (some (List.map (fun (c : Conj) => c.2.map (fun l => ((reSrc rk c.1, l), true)))
      (patConj g.pat ++ g.preds.map predConj) ++ slotConj rk g.pat ++ keyConj keys g.keys)) = _
    rw [sPosBitSome, mapAppend]
    show allB _ _ = _
    rw [allBApp, allBApp, allBApp]
    show (((sCnfHolds val (List.map _ (patConj g.pat)) && sCnfHolds val (List.map _ (g.preds.map predConj))) &&
      sCnfHolds val (slotConj rk g.pat)) && sCnfHolds val (keyConj keys g.keys)) = _
    rw [conjsCnf s args e rk val hval, conjsCnf s args e rk val hval, keysOkConj g args keys val hv hin, ha, h, andPerm]
  | false =>
    show sPosBit val (match g.action == a with
      | true => some ((patConj g.pat ++ g.preds.map predConj).map (fun c => c.2.map (fun l => ((reSrc rk c.1, l), true))) ++
          slotConj rk g.pat ++ keyConj keys g.keys)
      | false => none) = _
    rw [h]
    show false = (g.action == e.action && resMatches s e.res g.pat && keysOk g args && g.preds.all (predHolds args))
    rw [ha, h]
    rfl

theorem posMapMatches (s : State) (args : List (String × Json)) (e : Effect) (a : String) (rk : Src)
    (keys : List String) (val : Src → AV) (hval : ∀ src, val (reSrc rk src) = srcVal s args e src) (ha : e.action = a)
    (hin : ∀ x, x ∈ args → memStr x.1 keys = true)
    (hbind : ∀ n, resMatches s e.res (Pat.slot n) = true →
      holds Lit.scalar (avOf e.res) = true ∧ holds (Lit.eqStr []) (avOf e.res) = false)
    (gs : List Monitor.Full.Grant) (hg : ∀ g, g ∈ gs → g.action = a → grantOk g = true) :
    (gs.map (posOf a rk keys)).map (sPosBit val) = gs.map (fun g => grantMatches s args g e) := by
  rw [mapMapB]
  exact mapCongrB gs (fun g hg' => posOfMatches s args e a rk keys val hval ha hin hbind g (hg g hg'))

theorem orFalseL : ∀ {a b : Bool}, (!a || b) = true → a = true → b = true
  | true, true, _, _ => rfl
  | true, false, h, _ => by cases h
  | false, _, _, h => by cases h

/-- Lean's own coverage question, answered `covered`, covers the monitor's matching: for the question Lean
writes (`wayQ`) for action `a` and one way `(t, d)` from the entries `gs` (every position of the old and
new lists, those of action `a` in the fragment `grantOk`), the tools and `E`, if `argCover` answers covered
for "satisfying the condition, the match vector is listed", then every call `args` with an effect `e` of
action `a`, whose values `val` are read where the way reads them (`hval`: the resource at `wayRes d.res`,
every argument path by `lookupPath`) and which satisfies the way's condition, has the monitor's
`grantMatches` vector over `gs` among `listed`. For key allowlists a top-level key's value is present
exactly when an argument has that key (proved, `argsJsonPresent`), and one fact about the call is a
hypothesis: every argument's key is one of the action's keys (`hdecl`: the monitor prepares only
declared arguments, and the action's keys include its tools' arguments); for slot patterns one more: a
slot's bound value that the resource equals is a scalar other than the empty string (`hbind`, the
checker's encoding's reading of a binding). For the calls the monitor prepares on a reachable state both
`hdecl` and `hbind` are proved (`preparedCoverMatches`, `Thm/Revision/ArgCoverMonitor.lean`). -/
theorem builtCoverMatches (a : String) (tools : List Tool) (gs : List Monitor.Full.Grant) (E : Option (List Json))
    (t : Tool) (d : EffDecl) (listed : List (List Bool)) (cond : List SClause)
    (hcond : wayCond a tools gs E t d = some cond)
    (hfrag : ∀ g, g ∈ gs → g.action = a → grantOk g = true)
    (hcov : argCover (Oracle.ArgCover.good
      (buildQ cond (gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a tools) gs)))).cond
      (buildQ cond (gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a tools) gs)))).pos listed)
      (buildQ cond (gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a tools) gs)))).atoms =
      Answer.covered)
    (s : State) (args : List (String × Json)) (e : Effect) (ha : e.action = a) (val : Src → AV)
    (hval : ∀ src, val (reSrc (wayRes d.res) src) = srcVal s args e src)
    (hdecl : ∀ x, x ∈ args → memStr x.1 (actionKeys a (ownTools a tools) gs) = true)
    (hbind : ∀ n, resMatches s e.res (Pat.slot n) = true →
      holds Lit.scalar (avOf e.res) = true ∧ holds (Lit.eqStr []) (avOf e.res) = false)
    (hin : sCnfHolds val cond = true) :
    anyB (fun u => decide (u = gs.map (fun g => grantMatches s args g e))) listed = true := by
  have g := argCoveredSound _ _ hcov
    (valOf (buildQ cond (gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a tools) gs)))).names val)
  have ⟨hc, hp⟩ := buildQMeans cond (gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a tools) gs))) val
  have hc' := hc.trans hin
  have g2 := orFalseL g hc'
  rw [hp, posMapMatches s args e a (wayRes d.res) (actionKeys a (ownTools a tools) gs) val hval ha hdecl hbind gs
    hfrag]
    at g2
  exact g2

end AgentWarrant.Revision.ArgCover
