import AgentWarrant.Spec.Revision.ArgCoverBuildA
import AgentWarrant.Thm.Revision.ArgCoverJsonEq
import AgentWarrant.Thm.Revision.ArgCoverJsonMatch
import AgentWarrant.Thm.Revision.ArgCoverWay
/-! The question `wayQA` writes (`Spec/Revision/ArgCoverBuildA.lean`: `wayQ` with predicates against array
or object constants as `ALit.eqJson`) means the monitor's matching (Agenra Sections 5.2 and 7.1), as
`builtCoverMatches` states for `wayQ`:
* `posOfMatchesA`: a position `posOfA` writes is the monitor's `grantMatches` of its entry, for an entry in
  the fragment `grantOkA` (predicate constants admitted: scalar, null, or an array or object that passes
  the oracle's checks; a resource constant scalar or null), under `posOfMatches`'s hypotheses and one more,
  `hadm`: the value the call holds at the path of each predicate comparing with an array or object
  constant (`predJsonConst`) passes the oracle's checks (`admitted`; what `ALit.eqJson` needs,
  `predEqLitS`/`predOneOfLitS`, and `jsonRepNeedsJudged` shows the checks cannot be dropped; a scalar or
  null constant's literal needs nothing of the value, `constLit`, so on such entries `hadm` is vacuous;
  it holds of every call the oracle decodes from an input it answers, `decodedJsonPathsAdmitted` in
  `Thm/Revision/ArgCoverAdmCall.lean`);
* `wayQAKeysOk`: every literal of `wayQA`'s question passes the oracle's name check (`buildQAMeans`'s
  `hok`) when the entries of the action are in `grantOkA`: a condition's and a lifted clause's literals are
  `Lit`s, and a predicate's array or object constant is admitted;
* `builtCoverMatchesA`: `argCover` answering covered on `wayQA`'s question puts the monitor's match vector
  of every such call meeting the way's condition among the listed ones. The prepared-call form is
  `preparedCoverDistinctA` (`Thm/Revision/ArgCoverBuildAPrep.lean`). -/
namespace AgentWarrant.Revision.ArgCover
open Lean AgentWarrant AgentWarrant.Monitor AgentWarrant.Monitor.Full

theorem liftCHolds (val : Src → AV) (c : SClause) : sClauseHoldsA val (liftC c) = sClauseHolds val c := by
  show anyB _ (c.map _) = anyB _ c
  rw [anyBMap]
  exact anyBCongr c (fun _ _ => rfl)

theorem liftFHolds (val : Src → AV) (f : List SClause) : sCnfHoldsA val (f.map liftC) = sCnfHolds val f := by
  show allB _ (f.map liftC) = allB _ f
  rw [allBMap]
  exact allBCongr f (fun c _ => liftCHolds val c)

theorem allBAppA (val : Src → AV) (f1 f2 : List SClauseA) :
    sCnfHoldsA val (f1 ++ f2) = (sCnfHoldsA val f1 && sCnfHoldsA val f2) :=
  allBApp _ f1 f2

theorem clauseOfLits (val : Src → AV) (s : Src) (ls : List ALit) :
    sClauseHoldsA val (ls.map (fun l => ((s, l), true))) = ls.any (fun l => holdsA l (val s)) := by
  show anyB _ (ls.map _) = _
  rw [anyBMap, ← anyBAny]
  apply anyBCongr
  intro l _
  show decide (holdsA l (val s) = true) = holdsA l (val s)
  rw [decEqTrue]

theorem litOfConstIs (c : Json) : litOfConst c = predLitA c := rfl

theorem anyMapA (f : ALit → Bool) : ∀ (cs : List Json), (cs.map litOfConst).any f = cs.any (fun c => f (predLitA c))
  | [] => rfl
  | c :: cs => by
    show (f (litOfConst c) || (cs.map litOfConst).any f) = (f (predLitA c) || cs.any (fun c => f (predLitA c)))
    rw [anyMapA f cs]
    rfl

theorem cnfConsA (val : Src → AV) (c : SClauseA) (f : List SClauseA) :
    sCnfHoldsA val (c :: f) = (sClauseHoldsA val c && sCnfHoldsA val f) := by
  show (match sClauseHoldsA val c with | true => allB (sClauseHoldsA val) f | false => false) = _
  cases sClauseHoldsA val c <;> rfl

theorem sPosBitASome (val : Src → AV) (f : List SClauseA) : sPosBitA val (some f) = sCnfHoldsA val f := rfl

theorem orFalseA : ∀ (b : Bool), (b || false) = b
  | true => rfl
  | false => rfl

/-- The predicate compares with an array or object constant, whose literal `ALit.eqJson` reads the whole
value at its path; a scalar or null constant's literal means `jeq` on every value (`constLit`). -/
def predJsonConst : Pred → Bool
  | Pred.eq _ c => !scalarOrNull c
  | Pred.oneOf _ cs => anyB (fun c => !scalarOrNull c) cs
  | Pred.range _ _ _ => false

/-- Every value the call holds at a path where an entry of action `a` compares with an array or object
constant passes the oracle's depth and distinct-name checks (`hadm`). -/
def JsonPathsAdmitted (a : String) (gs : List Monitor.Full.Grant) (args : List (String × Json)) : Prop :=
  ∀ g, g ∈ gs → g.action = a → ∀ q, q ∈ g.preds → predJsonConst q = true →
    ∀ x, lookupPath (argsJson args) (predPath q) = some x → admitted x = true

theorem notScalarB {c : Json} (h : scalarOrNull c = false) : (!scalarOrNull c) = true := by rw [h]; rfl

/-- `predLitAMeans` asking the value's checks only against an array or object constant. -/
theorem predLitAMeansS (x c : Json) (hc : admitted c = true) (hx : scalarOrNull c = false → admitted x = true) :
    jeq x c = holdsA (predLitA c) (avOf x) := by
  cases hs : scalarOrNull c with
  | true =>
    show jeq x c = holdsA (match scalarOrNull c with
      | true => ALit.lit (eqLitOf c)
      | false => ALit.eqJson c) (avOf x)
    rw [hs]
    exact constLit x c hs
  | false => exact predLitAMeans x c hc (hx hs)

theorem anyLitAS (x : Json) : ∀ (cs : List Json), allB admitted cs = true →
    (anyB (fun c => !scalarOrNull c) cs = true → admitted x = true) →
    cs.any (jeq x) = cs.any (fun c => holdsA (predLitA c) (avOf x))
  | [], _, _ => rfl
  | c :: cs, h, hx => by
    have ⟨h1, h2⟩ := andT h
    have hc : scalarOrNull c = false → admitted x = true := by
      intro hs
      apply hx
      show (match (!scalarOrNull c) with | true => true | false => anyB (fun c => !scalarOrNull c) cs) = true
      rw [hs]
      rfl
    have hcs : anyB (fun c => !scalarOrNull c) cs = true → admitted x = true := by
      intro hr
      apply hx
      show (match (!scalarOrNull c) with | true => true | false => anyB (fun c => !scalarOrNull c) cs) = true
      cases (!scalarOrNull c) with
      | true => rfl
      | false => exact hr
    show (jeq x c || List.any cs (jeq x)) = (holdsA (predLitA c) (avOf x) || List.any cs (fun c => holdsA (predLitA c) (avOf x)))
    rw [predLitAMeansS x c h1 hc, anyLitAS x cs h2 hcs]

/-- `predEqLitA` asking the value's checks only against an array or object constant. -/
theorem predEqLitS (args : List (String × Json)) (path : List String) (c : Json) (hc : admitted c = true)
    (hx : scalarOrNull c = false → ∀ x, lookupPath (argsJson args) path = some x → admitted x = true) :
    predHolds args (Pred.eq path c) = holdsA (predLitA c) (avOfOpt (lookupPath (argsJson args) path)) := by
  show (match lookupPath (argsJson args) path with
    | some x => jeq x c
    | none => false) = _
  cases h : lookupPath (argsJson args) path with
  | none => exact (predLitAMissing c).symm
  | some x => exact predLitAMeansS x c hc (fun hs => hx hs x h)

/-- `predOneOfLitA` asking the value's checks only when a constant is an array or object. -/
theorem predOneOfLitS (args : List (String × Json)) (path : List String) (cs : List Json)
    (hc : allB admitted cs = true)
    (hx : anyB (fun c => !scalarOrNull c) cs = true → ∀ x, lookupPath (argsJson args) path = some x → admitted x = true) :
    predHolds args (Pred.oneOf path cs) =
      cs.any (fun c => holdsA (predLitA c) (avOfOpt (lookupPath (argsJson args) path))) := by
  show (match lookupPath (argsJson args) path with
    | some x => cs.any (jeq x)
    | none => false) = _
  cases h : lookupPath (argsJson args) path with
  | none => exact (anyLitAMissing cs).symm
  | some x => exact anyLitAS x cs hc (fun hr => hx hr x h)

/-- A predicate's clause of `ALit` literals is the monitor's `predHolds`, when its constants are admitted
and, if one is an array or object, so is the value at its path (`hadm`). -/
theorem predClauseAOk (s : State) (args : List (String × Json)) (e : Effect) (rk : Src) (val : Src → AV)
    (hval : ∀ src, val (reSrc rk src) = srcVal s args e src) :
    ∀ (p : Pred), predOkA p = true →
      (predJsonConst p = true → ∀ x, lookupPath (argsJson args) (predPath p) = some x → admitted x = true) →
      predHolds args p = sClauseHoldsA val (predClauseA rk p)
  | Pred.eq path c, h, hadm => by
    show _ = sClauseHoldsA val ([litOfConst c].map (fun l => ((reSrc rk (Src.path path), l), true)))
    rw [clauseOfLits, hval]
    show _ = (holdsA (litOfConst c) (avOfOpt (lookupPath (argsJson args) path)) || false)
    rw [orFalseA]
    exact predEqLitS args path c h (fun hs x hx => hadm (notScalarB hs) x hx)
  | Pred.oneOf path cs, h, hadm => by
    show _ = sClauseHoldsA val ((cs.map litOfConst).map (fun l => ((reSrc rk (Src.path path), l), true)))
    rw [clauseOfLits, hval]
    show _ = (cs.map litOfConst).any (fun l => holdsA l (avOfOpt (lookupPath (argsJson args) path)))
    rw [anyMapA]
    exact predOneOfLitS args path cs h hadm
  | Pred.range path lo hi, _, _ => by
    show _ = sClauseHoldsA val ([ALit.lit (Lit.range lo hi)].map (fun l => ((reSrc rk (Src.path path), l), true)))
    rw [clauseOfLits, hval]
    show _ = (holds (Lit.range lo hi) (avOfOpt (lookupPath (argsJson args) path)) || false)
    rw [orFalseA]
    exact predRangeLit args path lo hi

theorem predsClauseAOk (s : State) (args : List (String × Json)) (e : Effect) (rk : Src) (val : Src → AV)
    (hval : ∀ src, val (reSrc rk src) = srcVal s args e src) :
    ∀ (ps : List Pred), allB predOkA ps = true →
      (∀ q, q ∈ ps → predJsonConst q = true → ∀ x, lookupPath (argsJson args) (predPath q) = some x →
        admitted x = true) →
      ps.all (predHolds args) = sCnfHoldsA val (ps.map (predClauseA rk))
  | [], _, _ => rfl
  | p :: ps, h, hadm => by
    have ⟨h1, h2⟩ := andT h
    show (predHolds args p && ps.all (predHolds args)) = sCnfHoldsA val (predClauseA rk p :: ps.map (predClauseA rk))
    rw [cnfConsA, predClauseAOk s args e rk val hval p h1 (hadm p (Mem.head _)),
      predsClauseAOk s args e rk val hval ps h2 (fun q hq => hadm q (Mem.tail _ hq))]

/-- `posOfMatches` for `posOfA`: a position is the monitor's `grantMatches` of its entry, for an entry in
`grantOkA`, when moreover the values its array or object constants are compared with are admitted
(`hadm`). -/
theorem posOfMatchesA (s : State) (args : List (String × Json)) (e : Effect) (a : String) (rk : Src)
    (keys : List String) (val : Src → AV) (hval : ∀ src, val (reSrc rk src) = srcVal s args e src) (ha : e.action = a)
    (hin : ∀ x, x ∈ args → memStr x.1 keys = true)
    (hbind : ∀ n, resMatches s e.res (Pat.slot n) = true →
      holds Lit.scalar (avOf e.res) = true ∧ holds (Lit.eqStr []) (avOf e.res) = false)
    (g : Monitor.Full.Grant) (hg : g.action = a → grantOkA g = true)
    (hadm : g.action = a → ∀ q, q ∈ g.preds → predJsonConst q = true →
      ∀ x, lookupPath (argsJson args) (predPath q) = some x → admitted x = true) :
    sPosBitA val (posOfA a rk keys g) = grantMatches s args g e := by
  have hv : ∀ k, holds Lit.present (val (Src.path [k])) = anyB (fun x => x.1 == k) args := by
    intro k
    have e1 : val (Src.path [k]) = srcVal s args e (Src.path [k]) := hval (Src.path [k])
    rw [e1]
    exact argsJsonPresent s args e k
  cases h : g.action == a with
  | true =>
    have hga : g.action = a := ofDecideEqTrue h
    have ⟨hp, hq⟩ := andT (hg hga)
    show sPosBitA val (match g.action == a with
      | true => some (((patConj g.pat).map (fun c => c.2.map (fun l => ((reSrc rk c.1, l), true)))).map liftC ++
          g.preds.map (predClauseA rk) ++ (slotConj rk g.pat).map liftC ++ (keyConj keys g.keys).map liftC)
      | false => none) = _
    rw [h, sPosBitASome, allBAppA, allBAppA, allBAppA, liftFHolds, liftFHolds, liftFHolds, conjsCnf s args e rk val hval,
      keysOkConj g args keys val hv hin, ← predsClauseAOk s args e rk val hval g.preds hq (hadm hga)]
    show _ = (g.action == e.action && resMatches s e.res g.pat && keysOk g args && g.preds.all (predHolds args))
    rw [patSplit s args e rk val hval hbind g.pat hp, ha, h, andPerm]
  | false =>
    show sPosBitA val (match g.action == a with
      | true => some (((patConj g.pat).map (fun c => c.2.map (fun l => ((reSrc rk c.1, l), true)))).map liftC ++
          g.preds.map (predClauseA rk) ++ (slotConj rk g.pat).map liftC ++ (keyConj keys g.keys).map liftC)
      | false => none) = _
    rw [h]
    show false = (g.action == e.action && resMatches s e.res g.pat && keysOk g args && g.preds.all (predHolds args))
    rw [ha, h]
    rfl

theorem posMapMatchesA (s : State) (args : List (String × Json)) (e : Effect) (a : String) (rk : Src)
    (keys : List String) (val : Src → AV) (hval : ∀ src, val (reSrc rk src) = srcVal s args e src) (ha : e.action = a)
    (hin : ∀ x, x ∈ args → memStr x.1 keys = true)
    (hbind : ∀ n, resMatches s e.res (Pat.slot n) = true →
      holds Lit.scalar (avOf e.res) = true ∧ holds (Lit.eqStr []) (avOf e.res) = false)
    (gs : List Monitor.Full.Grant) (hg : ∀ g, g ∈ gs → g.action = a → grantOkA g = true)
    (hadm : JsonPathsAdmitted a gs args) :
    (gs.map (posOfA a rk keys)).map (sPosBitA val) = gs.map (fun g => grantMatches s args g e) := by
  rw [mapMapB]
  exact mapCongrB gs (fun g hg' => posOfMatchesA s args e a rk keys val hval ha hin hbind g (hg g hg') (hadm g hg'))

-- every literal of `wayQA`'s question passes the name check (`buildQAMeans`'s `hok`) -------------------

theorem litsOfFAOut {f : List SClauseA} {y : SLitA} (h : y ∈ litsOfFA f) : ∃ c x, c ∈ f ∧ x ∈ c ∧ x.1 = y := by
  have ⟨l, hl, hy⟩ := memJoinOut (L := f.map litsOfCA) h
  have ⟨c, hc, e⟩ := memMapOut hl
  rw [e] at hy
  have ⟨x, hx, e2⟩ := memMapOut (f := fun x : SLitA × Bool => x.1) hy
  exact ⟨c, x, hc, hx, e2.symm⟩

theorem posLitsAOut {y : SLitA} : ∀ {pos : List (Option (List SClauseA))}, y ∈ posLitsA pos →
    ∃ f, some f ∈ pos ∧ y ∈ litsOfFA f
  | [], h => absurd h notMemNil
  | none :: ps, h => by
    have ⟨f, hf, hy⟩ := posLitsAOut (pos := ps) h
    exact ⟨f, Mem.tail _ hf, hy⟩
  | some f :: ps, h => by
    have h' : y ∈ litsOfFA f ++ posLitsA ps := h
    cases memAppE h' with
    | inl h1 => exact ⟨f, Mem.head _, h1⟩
    | inr h2 =>
      have ⟨g, hg, hy⟩ := posLitsAOut h2
      exact ⟨g, Mem.tail _ hg, hy⟩

/-- A lifted clause's literals are `Lit`s, which have no constant to check. -/
theorem liftCKeysOk {F : List SClause} {c : SClauseA} {x : SLitA × Bool} (hc : c ∈ F.map liftC) (hx : x ∈ c) :
    aLitKeysOk x.1.2 = true := by
  have ⟨c0, _, ec⟩ := memMapOut hc
  rw [ec] at hx
  have ⟨x0, _, ex⟩ := memMapOut hx
  rw [ex]
  rfl

theorem litOfConstKeysOk (c : Json) (h : admitted c = true) : aLitKeysOk (litOfConst c) = true := by
  show aLitKeysOk (match scalarOrNull c with | true => ALit.lit (eqLitOf c) | false => ALit.eqJson c) = true
  cases scalarOrNull c with
  | true => rfl
  | false => exact admittedKeys h

/-- A predicate in the fragment writes only literals that pass the name check (its constants admitted). -/
theorem predConjAKeysOk : ∀ (p : Pred), predOkA p = true → ∀ l, l ∈ (predConjA p).2 → aLitKeysOk l = true
  | Pred.eq _ c, h, l, hl => by
    have e : l = litOfConst c := memOne hl
    rw [e]
    exact litOfConstKeysOk c h
  | Pred.oneOf _ cs, h, l, hl => by
    have ⟨c, hc, e⟩ := memMapOut (f := litOfConst) hl
    rw [e]
    exact litOfConstKeysOk c (allBElim h c hc)
  | Pred.range _ _ _, _, l, hl => by
    have e : l = ALit.lit (Lit.range _ _) := memOne hl
    rw [e]
    rfl

theorem posOfAKeysOk (a : String) (rk : Src) (keys : List String) (g : Monitor.Full.Grant)
    (hg : g.action = a → grantOkA g = true) (f : List SClauseA) (hf : posOfA a rk keys g = some f) :
    ∀ c x, c ∈ f → x ∈ c → aLitKeysOk x.1.2 = true := by
  intro c x hc hx
  have hf2 : (match g.action == a with
      | true => some (((patConj g.pat).map (fun (c : Conj) => c.2.map (fun l => ((reSrc rk c.1, l), true)))).map liftC ++
          g.preds.map (predClauseA rk) ++ (slotConj rk g.pat).map liftC ++ (keyConj keys g.keys).map liftC)
      | false => none) = some f := hf
  cases h : g.action == a with
  | false =>
    rw [h] at hf2
    cases hf2
  | true =>
    have ⟨_, hq⟩ := andT (hg (ofDecideEqTrue h))
    rw [h] at hf2
    have hf' := Option.some.inj hf2
    rw [← hf'] at hc
    cases memAppE hc with
    | inr h4 => exact liftCKeysOk h4 hx
    | inl h3 => cases memAppE h3 with
      | inr h3' => exact liftCKeysOk h3' hx
      | inl h2 => cases memAppE h2 with
        | inl h1 => exact liftCKeysOk h1 hx
        | inr hp =>
          have ⟨p, hpm, ep⟩ := memMapOut hp
          rw [ep] at hx
          have ⟨l, hl, el⟩ := memMapOut hx
          rw [el]
          exact predConjAKeysOk p (allBElim hq p hpm) l hl

/-- `buildQAMeans`'s `hok` for `wayQA`'s question: every literal passes the oracle's name check when the
entries of the action are in `grantOkA` (a condition's and a lifted clause's literals are `Lit`s; a
predicate's array or object constant is admitted). -/
theorem wayQAKeysOk (a : String) (rk : Src) (keys : List String) (cond : List SClause) (gs : List Monitor.Full.Grant)
    (hfrag : ∀ g, g ∈ gs → g.action = a → grantOkA g = true) :
    ∀ y, y ∈ litsOfFA (cond.map liftC) ++ posLitsA (gs.map (posOfA a rk keys)) → aLitKeysOk y.2 = true := by
  intro y hy
  cases memAppE hy with
  | inl h1 =>
    have ⟨c, x, hc, hx, e⟩ := litsOfFAOut h1
    rw [← e]
    exact liftCKeysOk hc hx
  | inr h2 =>
    have ⟨f, hf, hy2⟩ := posLitsAOut h2
    have ⟨g, hg, ef⟩ := memMapOut hf
    have ⟨c, x, hc, hx, e⟩ := litsOfFAOut hy2
    rw [← e]
    exact posOfAKeysOk a rk keys g (hfrag g hg) f ef.symm c x hc hx

/-- `builtCoverMatches` for `wayQA`: with the entries of the action in `grantOkA` (array or object
predicate constants included), a covered answer on Lean's question puts the monitor's match vector of
every call meeting the way's condition among the listed ones, under `builtCoverMatches`'s hypotheses and
one more: the values the call holds where an entry compares with an array or object constant are
admitted (`hadm`, `JsonPathsAdmitted`). The numbering's name check on the
question's literals is proved from the fragment (`wayQAKeysOk`). -/
theorem builtCoverMatchesA (a : String) (tools : List Tool) (gs : List Monitor.Full.Grant) (E : Option (List Json))
    (t : Tool) (d : EffDecl) (listed : List (List Bool)) (cond : List SClause)
    (hcond : wayCond a tools gs E t d = some cond)
    (hfrag : ∀ g, g ∈ gs → g.action = a → grantOkA g = true)
    (hcov : argCover (Oracle.ArgCover.good
      (buildQA (cond.map liftC) (gs.map (posOfA a (wayRes d.res) (actionKeys a (ownTools a tools) gs)))).cond
      (buildQA (cond.map liftC) (gs.map (posOfA a (wayRes d.res) (actionKeys a (ownTools a tools) gs)))).pos listed)
      (buildQA (cond.map liftC) (gs.map (posOfA a (wayRes d.res) (actionKeys a (ownTools a tools) gs)))).atoms =
      Answer.covered)
    (s : State) (args : List (String × Json)) (e : Effect) (ha : e.action = a) (val : Src → AV)
    (hval : ∀ src, val (reSrc (wayRes d.res) src) = srcVal s args e src)
    (hdecl : ∀ x, x ∈ args → memStr x.1 (actionKeys a (ownTools a tools) gs) = true)
    (hbind : ∀ n, resMatches s e.res (Pat.slot n) = true →
      holds Lit.scalar (avOf e.res) = true ∧ holds (Lit.eqStr []) (avOf e.res) = false)
    (hadm : JsonPathsAdmitted a gs args)
    (hin : sCnfHolds val cond = true) :
    anyB (fun u => decide (u = gs.map (fun g => grantMatches s args g e))) listed = true := by
  have g := argCoveredSound _ _ hcov
    (valOf (buildQA (cond.map liftC) (gs.map (posOfA a (wayRes d.res) (actionKeys a (ownTools a tools) gs)))).names val)
  have ⟨hc, hp⟩ := buildQAMeans (cond.map liftC) (gs.map (posOfA a (wayRes d.res) (actionKeys a (ownTools a tools) gs)))
    val (wayQAKeysOk a (wayRes d.res) (actionKeys a (ownTools a tools) gs) cond gs hfrag)
  have hc' := (hc.trans (liftFHolds val cond)).trans hin
  have g2 := orFalseL g hc'
  rw [hp, posMapMatchesA s args e a (wayRes d.res) (actionKeys a (ownTools a tools) gs) val hval ha hdecl hbind gs
    hfrag hadm]
    at g2
  exact g2

end AgentWarrant.Revision.ArgCover
