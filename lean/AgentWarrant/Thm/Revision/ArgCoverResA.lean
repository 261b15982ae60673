import AgentWarrant.Spec.Revision.ArgCoverResA
import AgentWarrant.Thm.Revision.ArgCoverBuildAPrep
import AgentWarrant.Thm.Revision.ArgCoverSame
/-! The question `wayQR` writes (`Spec/Revision/ArgCoverResA.lean`: `wayQA` with an entry whose resource
pattern is an array or object constant written as never matching) means the monitor's matching on every
call it prepares (Agenra Sections 5.1, 5.2 and 7.1):
* `preparedResScalar`: the resource of every effect the monitor prepares is a scalar or null when no tool
  declares an array or object resource constant (`ToolResScalar`): an argument resource and a list
  argument's element are scalars (preparation refuses others, `FromRes`), a constant is the tool's own.
  Lean's model keeps any constant (`effectsOf`); registration refuses an array or object one, in the
  Python model and in Lean (`effArgOk`), so here it is a stated hypothesis, which
  `Thm/Revision/ArgCoverResReg.lean` derives from `registrationOk`;
* `structNoMatch`: `jeq` of an array or object pattern constant with a scalar or null resource is false, so
  such an entry never matches a prepared effect (`structGrantNoMatch`), which is what `posOfR`'s `none`
  says (`posOfMatchesR`); on other entries `posOfR` is `posOfA` and `posOfMatchesA` applies;
* `builtCoverMatchesR`, `preparedCoverDistinctR`: `builtCoverMatchesA`'s and `preparedCoverDistinctA`'s
  chain with `posOfR`, the fragment `grantOkR` (predicate constants admitted, any resource pattern) and the
  one more hypothesis `ToolResScalar`;
* `oracleAnswerCoverR`: the oracle's `covered` answer on the questions `arg_cover_policy` writes (`wayQ`
  when the action's entries have scalar or null constants only, else `wayQR`) puts the monitor's match
  vector of every prepared call among the listed ones; `ToolResScalar` is asked only when an entry of the
  action has an array or object resource constant (otherwise `wayQR` writes `wayQA`'s question,
  `wayQRIsA`, and `oracleCoverDistinct` applies). -/
namespace AgentWarrant.Revision.ArgCover
open Lean AgentWarrant AgentWarrant.Monitor AgentWarrant.Monitor.Full

/-- No tool declares an array or object resource constant (what registration refuses in the Python model). -/
def ToolResScalar (p : Policy) : Prop :=
  ∀ t, t ∈ p.tools → ∀ d, d ∈ t.effects → ∀ v, d.res = ResRef.const v → scalarOrNull v = true

theorem isScalarOrNull : ∀ (x : Json), isScalar x = true → scalarOrNull x = true
  | Json.null, _ => rfl
  | Json.bool _, _ => rfl
  | Json.num _, _ => rfl
  | Json.str _, _ => rfl
  | Json.arr _, h => by have h' : false = true := h; cases h'
  | Json.obj _, h => by have h' : false = true := h; cases h'

theorem fromResScalar (args : List (String × Json)) (x : Json) : ∀ (r : ResRef), FromRes args x r →
    (∀ v, r = ResRef.const v → scalarOrNull v = true) → scalarOrNull x = true
  | ResRef.const v, h, hc => by
    have e1 : x = v := h
    rw [e1]
    exact hc v rfl
  | ResRef.arg _, h, _ => isScalarOrNull x h.2
  | ResRef.listArg _, h, _ => isScalarOrNull x h.2

/-- Every effect the monitor prepares has a scalar or null resource when no tool declares an array or
object resource constant. -/
theorem preparedResScalar (p : Policy) (s : State) (c : Call) (t : Tool) (es : List Effect)
    (hprep : prepare p s c = Except.ok (t, es)) (htools : ToolResScalar p) (e : Effect) (he : e ∈ es) :
    scalarOrNull e.res = true := by
  have ⟨ht, _, _, hes⟩ := prepareChecks p s c t es hprep
  have ⟨d, hd, here, hh, he'⟩ := effectsOfWay c.args e t.effects es hes he
  exact fromResScalar c.args e.res d.res (hereFrom c.args d here e hh he') (htools t ht d hd)

theorem structNoMatchJ (r : Json) (hr : scalarOrNull r = true) : ∀ (c : Json), scalarOrNull c = false →
    jeq c r = false
  | Json.arr a, _ => by
    rw [jeqUnfold]
    cases r with
    | arr _ => have h' : false = true := hr; cases h'
    | obj _ => have h' : false = true := hr; cases h'
    | null => rfl
    | bool _ => rfl
    | num _ => rfl
    | str _ => rfl
  | Json.obj kvs, _ => by
    rw [jeqUnfold]
    cases r with
    | arr _ => have h' : false = true := hr; cases h'
    | obj _ => have h' : false = true := hr; cases h'
    | null => rfl
    | bool _ => rfl
    | num _ => rfl
    | str _ => rfl
  | Json.null, h => by have h' : true = false := h; cases h'
  | Json.bool _, h => by have h' : true = false := h; cases h'
  | Json.num _, h => by have h' : true = false := h; cases h'
  | Json.str _, h => by have h' : true = false := h; cases h'

theorem notTrueFalse : ∀ {b : Bool}, (!b) = true → b = false
  | false, _ => rfl
  | true, h => by have h' : false = true := h; cases h'

/-- An array or object pattern constant never matches a scalar or null resource. -/
theorem structNoMatch (s : State) (r : Json) (hr : scalarOrNull r = true) :
    ∀ (p : Pat), resStruct p = true → resMatches s r p = false
  | Pat.const c, h => structNoMatchJ r hr c (notTrueFalse h)
  | Pat.any, h => by have h' : false = true := h; cases h'
  | Pat.glob _, h => by have h' : false = true := h; cases h'
  | Pat.slot _, h => by have h' : false = true := h; cases h'

theorem structGrantNoMatch (s : State) (args : List (String × Json)) (g : Monitor.Full.Grant) (e : Effect)
    (hr : scalarOrNull e.res = true) (hs : resStruct g.pat = true) : grantMatches s args g e = false := by
  show (g.action == e.action && resMatches s e.res g.pat && keysOk g args && g.preds.all (predHolds args)) = false
  rw [structNoMatch s e.res hr g.pat hs]
  cases (g.action == e.action) <;> rfl

theorem resStructPatOk : ∀ (p : Pat), resStruct p = false → patOkS p = true
  | Pat.any, _ => rfl
  | Pat.glob _, _ => rfl
  | Pat.slot _, _ => rfl
  | Pat.const c, h => by
    show scalarOrNull c = true
    cases hc : scalarOrNull c with
    | true => rfl
    | false =>
      have h' : (!scalarOrNull c) = false := h
      rw [hc] at h'
      cases h'

theorem grantOkRA (g : Monitor.Full.Grant) (hg : grantOkR g = true) (hs : resStruct g.pat = false) :
    grantOkA g = true := by
  show (patOkS g.pat && allB predOkA g.preds) = true
  rw [resStructPatOk g.pat hs]
  exact hg

theorem grantOkAR (g : Monitor.Full.Grant) (hg : grantOkA g = true) : grantOkR g = true := (andT hg).2

/-- A position `posOfR` writes is the monitor's `grantMatches` of its entry on an effect whose resource
is a scalar or null (`hres`), under `posOfMatchesA`'s other hypotheses. -/
theorem posOfMatchesR (s : State) (args : List (String × Json)) (e : Effect) (a : String) (rk : Src)
    (keys : List String) (val : Src → AV) (hval : ∀ src, val (reSrc rk src) = srcVal s args e src) (ha : e.action = a)
    (hin : ∀ x, x ∈ args → memStr x.1 keys = true)
    (hbind : ∀ n, resMatches s e.res (Pat.slot n) = true →
      holds Lit.scalar (avOf e.res) = true ∧ holds (Lit.eqStr []) (avOf e.res) = false)
    (hres : scalarOrNull e.res = true)
    (g : Monitor.Full.Grant) (hg : g.action = a → grantOkR g = true)
    (hadm : g.action = a → ∀ q, q ∈ g.preds → predJsonConst q = true →
      ∀ x, lookupPath (argsJson args) (predPath q) = some x → admitted x = true) :
    sPosBitA val (posOfR a rk keys g) = grantMatches s args g e := by
  cases hs : resStruct g.pat with
  | true =>
    show sPosBitA val (match resStruct g.pat with | true => none | false => posOfA a rk keys g) = _
    rw [hs, structGrantNoMatch s args g e hres hs]
    rfl
  | false =>
    show sPosBitA val (match resStruct g.pat with | true => none | false => posOfA a rk keys g) = _
    rw [hs]
    exact posOfMatchesA s args e a rk keys val hval ha hin hbind g (fun h => grantOkRA g (hg h) hs) hadm

theorem posMapMatchesR (s : State) (args : List (String × Json)) (e : Effect) (a : String) (rk : Src)
    (keys : List String) (val : Src → AV) (hval : ∀ src, val (reSrc rk src) = srcVal s args e src) (ha : e.action = a)
    (hin : ∀ x, x ∈ args → memStr x.1 keys = true)
    (hbind : ∀ n, resMatches s e.res (Pat.slot n) = true →
      holds Lit.scalar (avOf e.res) = true ∧ holds (Lit.eqStr []) (avOf e.res) = false)
    (hres : scalarOrNull e.res = true)
    (gs : List Monitor.Full.Grant) (hg : ∀ g, g ∈ gs → g.action = a → grantOkR g = true)
    (hadm : JsonPathsAdmitted a gs args) :
    (gs.map (posOfR a rk keys)).map (sPosBitA val) = gs.map (fun g => grantMatches s args g e) := by
  rw [mapMapB]
  exact mapCongrB gs (fun g hg' => posOfMatchesR s args e a rk keys val hval ha hin hbind hres g (hg g hg')
    (hadm g hg'))

theorem posOfRKeysOk (a : String) (rk : Src) (keys : List String) (g : Monitor.Full.Grant)
    (hg : g.action = a → grantOkR g = true) (f : List SClauseA) (hf : posOfR a rk keys g = some f) :
    ∀ c x, c ∈ f → x ∈ c → aLitKeysOk x.1.2 = true := by
  have hf2 : (match resStruct g.pat with | true => none | false => posOfA a rk keys g) = some f := hf
  cases hs : resStruct g.pat with
  | true =>
    rw [hs] at hf2
    cases hf2
  | false =>
    rw [hs] at hf2
    exact posOfAKeysOk a rk keys g (fun h => grantOkRA g (hg h) hs) f hf2

/-- `wayQAKeysOk` for `wayQR`'s positions. -/
theorem wayQRKeysOk (a : String) (rk : Src) (keys : List String) (cond : List SClause) (gs : List Monitor.Full.Grant)
    (hfrag : ∀ g, g ∈ gs → g.action = a → grantOkR g = true) :
    ∀ y, y ∈ litsOfFA (cond.map liftC) ++ posLitsA (gs.map (posOfR a rk keys)) → aLitKeysOk y.2 = true := by
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
    exact posOfRKeysOk a rk keys g (hfrag g hg) f ef.symm c x hc hx

/-- `builtCoverMatchesA` for `wayQR`, on an effect whose resource is a scalar or null (`hres`). -/
theorem builtCoverMatchesR (a : String) (tools : List Tool) (gs : List Monitor.Full.Grant) (E : Option (List Json))
    (t : Tool) (d : EffDecl) (listed : List (List Bool)) (cond : List SClause)
    (hfrag : ∀ g, g ∈ gs → g.action = a → grantOkR g = true)
    (hcov : argCover (Oracle.ArgCover.good
      (buildQA (cond.map liftC) (gs.map (posOfR a (wayRes d.res) (actionKeys a (ownTools a tools) gs)))).cond
      (buildQA (cond.map liftC) (gs.map (posOfR a (wayRes d.res) (actionKeys a (ownTools a tools) gs)))).pos listed)
      (buildQA (cond.map liftC) (gs.map (posOfR a (wayRes d.res) (actionKeys a (ownTools a tools) gs)))).atoms =
      Answer.covered)
    (s : State) (args : List (String × Json)) (e : Effect) (ha : e.action = a) (val : Src → AV)
    (hval : ∀ src, val (reSrc (wayRes d.res) src) = srcVal s args e src)
    (hdecl : ∀ x, x ∈ args → memStr x.1 (actionKeys a (ownTools a tools) gs) = true)
    (hbind : ∀ n, resMatches s e.res (Pat.slot n) = true →
      holds Lit.scalar (avOf e.res) = true ∧ holds (Lit.eqStr []) (avOf e.res) = false)
    (hres : scalarOrNull e.res = true)
    (hadm : JsonPathsAdmitted a gs args)
    (hin : sCnfHolds val cond = true) :
    anyB (fun u => decide (u = gs.map (fun g => grantMatches s args g e))) listed = true := by
  have g := argCoveredSound _ _ hcov
    (valOf (buildQA (cond.map liftC) (gs.map (posOfR a (wayRes d.res) (actionKeys a (ownTools a tools) gs)))).names val)
  have ⟨hc, hp⟩ := buildQAMeans (cond.map liftC) (gs.map (posOfR a (wayRes d.res) (actionKeys a (ownTools a tools) gs)))
    val (wayQRKeysOk a (wayRes d.res) (actionKeys a (ownTools a tools) gs) cond gs hfrag)
  have hc' := (hc.trans (liftFHolds val cond)).trans hin
  have g2 := orFalseL g hc'
  rw [hp, posMapMatchesR s args e a (wayRes d.res) (actionKeys a (ownTools a tools) gs) val hval ha hdecl hbind hres gs
    hfrag hadm]
    at g2
  exact g2

/-- Every way of `a` is answered covered on the question `wayQR` writes for it. -/
def WaysCoveredR (p : Policy) (a : String) (gs : List Monitor.Full.Grant) (E : Option (List Json))
    (listed : List (List Bool)) : Prop :=
  ∀ t d cond, (t, d) ∈ ways a p.tools → wayCond a p.tools gs E t d = some cond →
    argCover (Oracle.ArgCover.good
      (buildQA (cond.map liftC) (gs.map (posOfR a (wayRes d.res) (actionKeys a (ownTools a p.tools) gs)))).cond
      (buildQA (cond.map liftC) (gs.map (posOfR a (wayRes d.res) (actionKeys a (ownTools a p.tools) gs)))).pos listed)
      (buildQA (cond.map liftC) (gs.map (posOfR a (wayRes d.res) (actionKeys a (ownTools a p.tools) gs)))).atoms =
      Answer.covered

/-- `preparedCoverDistinctA` for `wayQR`: the way, its values and its condition from preparation as
there, the resource a scalar or null by `preparedResScalar`. -/
theorem preparedCoverDistinctR (p : Policy) (a : String) (gs : List Monitor.Full.Grant) (E : Option (List Json))
    (listed : List (List Bool))
    (hfrag : ∀ g, g ∈ gs → g.action = a → grantOkR g = true)
    (htools : ToolResScalar p)
    (hcov : WaysCoveredR p a gs E listed)
    (s : State) (hreach : ∃ cs, s = (runFull p (initialState p) cs).2)
    (c : Call) (t : Tool) (es : List Effect) (hprep : prepare p s c = Except.ok (t, es))
    (e : Effect) (he : e ∈ es) (ha : e.action = a)
    (hE : InE E e) (hdistinct : keysDistinct c.args = true) (hadm : JsonPathsAdmitted a gs c.args) :
    anyB (fun u => decide (u = gs.map (fun g => grantMatches s c.args g e))) listed = true := by
  have hfirst := firstOfDistinct c.args hdistinct
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
  have ⟨cs, hs⟩ := hreach
  have haddr : AddrBindings s := by rw [hs]; exact runFullAddrBindings p cs
  exact builtCoverMatchesR a p.tools gs E t d listed cond hfrag (hcov t d cond hway hcond) s c.args e ha
    (srcVal s c.args e) (wayResVal s c.args e d.res hfrom hfirst)
    (preparedDeclared p s c t es hprep e he a ha gs) (fun n hm => slotBoundScalar s haddr e.res n hm)
    (fromResScalar c.args e.res d.res hfrom (htools t ht d hd)) hadm
    (preparedWayCond p a gs E s c t es hprep e d here hh he' hfirst hE cond hcond)

theorem resStructNotOk : ∀ (p : Pat), resStruct p = true → patOkS p = false
  | Pat.const c, h => by
    show scalarOrNull c = false
    exact notTrueFalse h
  | Pat.any, h => by have h' : false = true := h; cases h'
  | Pat.glob _, h => by have h' : false = true := h; cases h'
  | Pat.slot _, h => by have h' : false = true := h; cases h'

/-- On an entry in `grantOkA` (or of another action) `posOfR` writes `posOfA`'s position. -/
theorem posOfRA (a : String) (rk : Src) (keys : List String) (g : Monitor.Full.Grant)
    (hg : g.action = a → grantOkA g = true) : posOfR a rk keys g = posOfA a rk keys g := by
  show (match resStruct g.pat with | true => none | false => posOfA a rk keys g) = _
  cases hs : resStruct g.pat with
  | false => rfl
  | true =>
    show none = (match g.action == a with
      | true => some (((patConj g.pat).map (fun c => c.2.map (fun l => ((reSrc rk c.1, l), true)))).map liftC ++
          g.preds.map (predClauseA rk) ++ (slotConj rk g.pat).map liftC ++ (keyConj keys g.keys).map liftC)
      | false => none)
    cases h : g.action == a with
    | false => rfl
    | true =>
      have hp := (andT (hg (ofDecideEqTrue h))).1
      rw [resStructNotOk g.pat hs] at hp
      cases hp

/-- On entries of the action in `grantOkA`, `wayQR` writes `wayQA`'s question. -/
theorem wayQRIsA (a : String) (tools : List Tool) (gs : List Monitor.Full.Grant) (E : Option (List Json))
    (t : Tool) (d : EffDecl) (hA : ∀ g, g ∈ gs → g.action = a → grantOkA g = true) :
    wayQR a tools gs E t d = wayQA a tools gs E t d := by
  show (match wayCond a tools gs E t d with
    | none => none
    | some cond => some (buildQA (cond.map liftC) (gs.map (posOfR a (wayRes d.res) (actionKeys a (ownTools a tools) gs))))) =
    (match wayCond a tools gs E t d with
    | none => none
    | some cond => some (buildQA (cond.map liftC) (gs.map (posOfA a (wayRes d.res) (actionKeys a (ownTools a tools) gs)))))
  rw [mapCongrB gs (fun g hg => posOfRA a (wayRes d.res) (actionKeys a (ownTools a tools) gs) g (hA g hg))]

theorem ofActionAll {a : String} {gs : List Monitor.Full.Grant} {f : Monitor.Full.Grant → Bool}
    (h : allB f (ofAction a gs) = true) : ∀ g, g ∈ gs → g.action = a → f g = true := by
  intro g hg ha
  apply allBElim h g
  apply filtMem hg
  rw [ha]
  exact strBeqSelf a

/-- The oracle's `covered` answer on the questions `arg_cover_policy` writes (`wayQ` when the action's
entries are in `grantOk`, else `wayQR`) puts the monitor's match vector of every prepared call among the
listed ones, entries whose resource pattern is an array or object constant included; no tool declaring an
array or object resource constant (`htools`) is needed only when an entry of the action lies outside
`grantOkA` (on entries in it `wayQR` writes `wayQA`'s question, `wayQRIsA`). -/
theorem oracleAnswerCoverR (p : Policy) (a : String) (gs : List Monitor.Full.Grant) (E : Option (List Json))
    (listedS : List String) (listed : List (List Bool))
    (hfrag : ∀ g, g ∈ gs → g.action = a → grantOkR g = true)
    (htools : allB grantOkA (ofAction a gs) = false → ToolResScalar p)
    (hans : (Oracle.ArgCover.decideWays listedS listed (Oracle.ArgCover.somesQ ((ways a p.tools).map (fun w =>
      match allB grantOk (ofAction a gs) with
        | true => wayQ a p.tools gs E w.1 w.2
        | false => wayQR a p.tools gs E w.1 w.2))) []).getObjVal? "answer" = Except.ok (Json.str "covered"))
    (s : State) (hreach : ∃ cs, s = (runFull p (initialState p) cs).2)
    (c : Call) (t : Tool) (es : List Effect) (hprep : prepare p s c = Except.ok (t, es))
    (e : Effect) (he : e ∈ es) (ha : e.action = a)
    (hE : InE E e) (hdistinct : keysDistinct c.args = true)
    (hadm : allB grantOk (ofAction a gs) = false → JsonPathsAdmitted a gs c.args) :
    anyB (fun u => decide (u = gs.map (fun g => grantMatches s c.args g e))) listed = true := by
  have hw := oracleCoveredWays a p.tools (fun t d => match allB grantOk (ofAction a gs) with
    | true => wayQ a p.tools gs E t d
    | false => wayQR a p.tools gs E t d) listedS listed hans
  cases h : allB grantOk (ofAction a gs) with
  | true =>
    have hok := ofActionGrantOk h
    apply oracleCoverDistinct p a gs E listed (fun g hg hga => grantOkOkA g (hok g hg hga)) _ s hreach c t es hprep
      e he ha hE hdistinct hadm
    intro t' d q hw' hq
    apply hw t' d q hw'
    rw [h]
    rw [h] at hq
    exact hq
  | false => cases hA : allB grantOkA (ofAction a gs) with
    | true =>
      have hokA := ofActionAll hA
      apply oracleCoverDistinct p a gs E listed hokA _ s hreach c t es hprep e he ha hE hdistinct hadm
      intro t' d q hw' hq
      apply hw t' d q hw'
      rw [h]
      rw [h] at hq
      have hq' : wayQA a p.tools gs E t' d = some q := hq
      show wayQR a p.tools gs E t' d = some q
      rw [wayQRIsA a p.tools gs E t' d hokA]
      exact hq'
    | false =>
      apply preparedCoverDistinctR p a gs E listed hfrag (htools hA) _ s hreach c t es hprep e he ha hE hdistinct
        (hadm h)
      intro t' d cond hw' hcond
      apply hw t' d _ hw'
      rw [h]
      show (match wayCond a p.tools gs E t' d with
        | none => none
        | some cond => some (buildQA (cond.map liftC)
            (gs.map (posOfR a (wayRes d.res) (actionKeys a (ownTools a p.tools) gs))))) = _
      rw [hcond]

end AgentWarrant.Revision.ArgCover
