import AgentWarrant.Thm.Revision.ArgCoverMatch
import AgentWarrant.Oracle.ArgCover
/-! The question Lean writes from the entries (`Spec/Revision/ArgCoverBuild.lean`, `wayQ`) means the
monitor's matching (Agenra Sections 5.2 and 7.1). Numbering keeps meaning (`numCnf`): when every source
has its value (`valOf`), a numbered clause holds exactly when the clause on named sources does. A position
on the way whose resource is read at `rk` is the monitor's `grantMatches` (`posOfMatches`, from
`grantMatchesConj`) for every call whose effect is of the action, when the way's sources have the call's
values (`val (reSrc rk s) = srcVal args e s`: the resource where the way reads it, each argument path
where `lookupPath` finds it) and the entry lies in the fragment (`grantOk`). So `argCoveredSound` on
Lean's own question (`builtCoverMatches`) gives: every such call satisfying the way's condition has the
monitor's match vector among the listed ones — no atom, clause or variable supplied by the caller.
Not stated here: that every call the monitor prepares satisfies the way's condition (the tools' required
and declared keys, where the resource comes from, `E`); the condition is Lean's own translation of them,
read as written. -/
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
    getB (bitsOf (syms.map (fun y => (idxOf y.1 names, y.2))) (valOf names val)) (idxOf x syms) = holds x.2 (val x.1) := by
  show getB ((syms.map (fun y => (idxOf y.1 names, y.2))).map (fun a => holds a.2 (valOf names val a.1))) (idxOf x syms) = _
  rw [getBMap2 _ _ x syms hx]
  show holds x.2 (valOf names val (idxOf x.1 names)) = _
  rw [valOfIdx names val x.1 hn]

theorem numClause (syms : List SLit) (names : List Src) (val : Src → AV) (c : SClause)
    (h : ∀ y, y ∈ c → y.1 ∈ syms ∧ y.1.1 ∈ names) :
    anyB (fun s => decide (getB (bitsOf (syms.map (fun y => (idxOf y.1 names, y.2))) (valOf names val)) s.1 = s.2)) (numC syms c) =
      sClauseHolds val c := by
  show anyB _ (c.map (fun x => (idxOf x.1 syms, x.2))) = anyB _ c
  rw [anyBMap]
  apply anyBCongr
  intro y hy
  show decide (getB _ (idxOf y.1 syms) = y.2) = decide (holds y.1.2 (val y.1.1) = y.2)
  rw [bitAt syms names val y.1 (h y hy).1 (h y hy).2]

theorem numCnf (syms : List SLit) (names : List Src) (val : Src → AV) (f : List SClause)
    (h : ∀ c y, c ∈ f → y ∈ c → y.1 ∈ syms ∧ y.1.1 ∈ names) :
    cnfHolds (bitsOf (syms.map (fun y => (idxOf y.1 names, y.2))) (valOf names val)) (numF syms f) = sCnfHolds val f := by
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

theorem conjClause (args : List (String × Json)) (e : Effect) (rk : Src) (val : Src → AV)
    (hval : ∀ s, val (reSrc rk s) = srcVal args e s) (c : Conj) :
    sClauseHolds val (c.2.map (fun l => ((reSrc rk c.1, l), true))) = conjHolds args e c := by
  show anyB _ (c.2.map _) = c.2.any _
  rw [anyBMap, ← anyBAny]
  apply anyBCongr
  intro l _
  show decide (holds l (val (reSrc rk c.1)) = true) = holds l (srcVal args e c.1)
  rw [hval c.1, decEqTrue]

theorem conjsCnf (args : List (String × Json)) (e : Effect) (rk : Src) (val : Src → AV)
    (hval : ∀ s, val (reSrc rk s) = srcVal args e s) (cs : List Conj) :
    sCnfHolds val (cs.map (fun c => c.2.map (fun l => ((reSrc rk c.1, l), true)))) = cs.all (conjHolds args e) := by
  show allB _ (cs.map _) = _
  rw [allBMap, ← allBAll]
  apply allBCongr
  intro c _
  exact conjClause args e rk val hval c

theorem grantOkParts {g : Monitor.Full.Grant} (h : grantOk g = true) :
    g.keys = none ∧ patOk g.pat = true ∧ allB predOk g.preds = true := by
  have ⟨h12, h3⟩ := andT h
  have ⟨h1, h2⟩ := andT h12
  refine ⟨?_, h2, h3⟩
  cases hk : g.keys with
  | none => rfl
  | some _ => rw [hk] at h1; cases h1

/-- A position Lean writes is the monitor's `grantMatches` of its entry, for every call whose effect is of
the action, when the way's sources have the call's values and the entry lies in the fragment. -/
theorem posOfMatches (s : State) (args : List (String × Json)) (e : Effect) (a : String) (rk : Src)
    (val : Src → AV) (hval : ∀ src, val (reSrc rk src) = srcVal args e src) (ha : e.action = a)
    (g : Monitor.Full.Grant) (hg : g.action = a → grantOk g = true) :
    sPosBit val (posOf a rk g) = grantMatches s args g e := by
  cases h : g.action == a with
  | true =>
    have hga : g.action = a := ofDecideEqTrue h
    have ⟨hk, hp, hq⟩ := grantOkParts (hg hga)
    show sPosBit val (match g.action == a with
      | true => some ((patConj g.pat ++ g.preds.map predConj).map (fun c => c.2.map (fun l => ((reSrc rk c.1, l), true))))
      | false => none) = _
    rw [h, grantMatchesConj s args g e hk hp hq]
    show sCnfHolds val (List.map _ (patConj g.pat ++ g.preds.map predConj)) = _
    rw [mapAppend]
    show allB _ _ = _
    rw [allBApp]
    show (sCnfHolds val (List.map _ (patConj g.pat)) && sCnfHolds val (List.map _ (g.preds.map predConj))) = _
    rw [conjsCnf args e rk val hval, conjsCnf args e rk val hval, ha, h]
    rfl
  | false =>
    show sPosBit val (match g.action == a with
      | true => some ((patConj g.pat ++ g.preds.map predConj).map (fun c => c.2.map (fun l => ((reSrc rk c.1, l), true))))
      | false => none) = _
    rw [h]
    show false = (g.action == e.action && resMatches s e.res g.pat && keysOk g args && g.preds.all (predHolds args))
    rw [ha, h]
    rfl

theorem posMapMatches (s : State) (args : List (String × Json)) (e : Effect) (a : String) (rk : Src)
    (val : Src → AV) (hval : ∀ src, val (reSrc rk src) = srcVal args e src) (ha : e.action = a)
    (gs : List Monitor.Full.Grant) (hg : ∀ g, g ∈ gs → g.action = a → grantOk g = true) :
    (gs.map (posOf a rk)).map (sPosBit val) = gs.map (fun g => grantMatches s args g e) := by
  rw [mapMapB]
  exact mapCongrB gs (fun g hg' => posOfMatches s args e a rk val hval ha g (hg g hg'))

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
`grantMatches` vector over `gs` among `listed`. -/
theorem builtCoverMatches (a : String) (tools : List Tool) (gs : List Monitor.Full.Grant) (E : Option (List Json))
    (t : Tool) (d : EffDecl) (listed : List (List Bool)) (cond : List SClause)
    (hcond : wayCond a tools gs E t d = some cond)
    (hfrag : ∀ g, g ∈ gs → g.action = a → grantOk g = true)
    (hcov : argCover (Oracle.ArgCover.good (buildQ cond (gs.map (posOf a (wayRes d.res)))).cond
      (buildQ cond (gs.map (posOf a (wayRes d.res)))).pos listed) (buildQ cond (gs.map (posOf a (wayRes d.res)))).atoms =
      Answer.covered)
    (s : State) (args : List (String × Json)) (e : Effect) (ha : e.action = a) (val : Src → AV)
    (hval : ∀ src, val (reSrc (wayRes d.res) src) = srcVal args e src)
    (hin : sCnfHolds val cond = true) :
    anyB (fun u => decide (u = gs.map (fun g => grantMatches s args g e))) listed = true := by
  have g := argCoveredSound _ _ hcov (valOf (buildQ cond (gs.map (posOf a (wayRes d.res)))).names val)
  have ⟨hc, hp⟩ := buildQMeans cond (gs.map (posOf a (wayRes d.res))) val
  have hc' := hc.trans hin
  have g2 := orFalseL g hc'
  rw [hp, posMapMatches s args e a (wayRes d.res) val hval ha gs hfrag] at g2
  exact g2

end AgentWarrant.Revision.ArgCover
