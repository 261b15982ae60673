import AgentWarrant.Thm.Revision.ArgCoverBuild
import AgentWarrant.Thm.Monitor.Full.Permits
/-! Two hypotheses of `builtCoverMatches` (`Thm/Revision/ArgCoverBuild.lean`) discharged from the whole
monitor (`Spec/Monitor/Full.lean`, `Spec/Monitor/Transition.lean`; Agenra Sections 5.1, 5.2, 6.1, 7.1):
* `hdecl` (every argument's key is one of the action's keys): preparation refuses an argument its tool
  does not declare (`undeclared_argument`), an effect of a prepared call comes from one of its tool's
  effect declarations, so that tool is one of the action's tools and its arguments are among the
  action's keys (`preparedDeclared`);
* `hbind` (a slot's bound value that the resource equals is a scalar other than the empty string):
  result processing binds a slot only to a well-formed address (`wellFormedAddress`: a non-empty string,
  a number or a boolean; anything else invalidates the slot), so on every state a run from the task's
  start reaches every binding is one (`runFullAddrBindings`), and a resource `jeq` to one is a scalar
  and not the empty string (`slotBoundScalar`).
`preparedCoverMatches` is the coverage theorem for the calls the monitor prepares on a reachable state,
with neither hypothesis. -/
namespace AgentWarrant.Revision.ArgCover
open Lean AgentWarrant AgentWarrant.Monitor AgentWarrant.Monitor.Full

-- hbind: bindings are well-formed addresses ----------------------------------------------------------

/-- Every binding of the state holds a well-formed address. -/
def AddrBindings (s : State) : Prop := ∀ b, b ∈ s.bindings → wellFormedAddress b.2.1 = true

def AddrAcc (acc : List (String × Json × Nat) × List String) : Prop := ∀ b, b ∈ acc.1 → wellFormedAddress b.2.1 = true

theorem dropAddr (slot : String) (bs : List (String × Json × Nat)) (inv : List String) (h : AddrAcc (bs, inv)) :
    AddrAcc (dropBinding slot bs, slot :: inv) :=
  fun b hb => h b (memFilt hb).1

theorem bindOneAddr (value : Json) (d : Nat) (r : Resolver) :
    ∀ (acc : List (String × Json × Nat) × List String), AddrAcc acc → AddrAcc (bindOne value d acc r)
  | (bs, inv), h => by
    cases hm : memS r.slot inv with
    | true => rw [slotInvalidStays value d bs inv r hm]; exact h
    | false =>
      cases hp : lookupPath value r.path with
      | none => rw [slotMissingInvalidates value d bs inv r hm hp]; exact dropAddr r.slot bs inv h
      | some v =>
        cases hw : wellFormedAddress v with
        | false => rw [slotMalformedInvalidates value d bs inv r v hm hp hw]; exact dropAddr r.slot bs inv h
        | true =>
          cases hb : bs.find? (fun b => b.1 == r.slot) with
          | none =>
            rw [slotFirstBinds value d bs inv r v hm hp hw hb]
            intro b hx
            cases memInsertBy (fun b => b.1) (r.slot, v, d) hx with
            | inl e => rw [e]; exact hw
            | inr e => exact h b e
          | some b' =>
            cases hj : jeq b'.2.1 v with
            | true => rw [slotEqualKeeps value d bs inv r v b' hm hp hw hb hj]; exact h
            | false => rw [slotConflictInvalidates value d bs inv r v b' hm hp hw hb hj]; exact dropAddr r.slot bs inv h

theorem foldBindAddr (value : Json) (d : Nat) : ∀ (rs : List Resolver) (acc : List (String × Json × Nat) × List String),
    AddrAcc acc → AddrAcc (List.foldl (bindOne value d) acc rs)
  | [], acc, h => h
  | r :: rs, acc, h => foldBindAddr value d rs (bindOne value d acc r) (bindOneAddr value d r acc h)

theorem observeAddr (p : Policy) (s : State) (d : Nat) (o : Outcome) (h : AddrBindings s) :
    AddrBindings (observe p s d o) := by
  cases o with
  | mk ok v =>
    cases ok with
    | false => rw [observeFailed p s d ⟨false, v⟩ rfl]; exact h
    | true =>
      cases hr : s.record? d with
      | none => simp [observe, hr]; exact h
      | some r =>
        have g := foldBindAddr v d
          (List.filter (fun x => x.tool == r.tool && jeq x.args (argsJson r.args)) p.resolvers) (s.bindings, s.invalid) h
        intro b hb
        simp only [observe, hr] at hb
        cases hf : List.foldl (bindOne v d) (s.bindings, s.invalid)
          (List.filter (fun x => x.tool == r.tool && jeq x.args (argsJson r.args)) p.resolvers) with
        | mk bs inv =>
          rw [hf] at hb g
          exact g b hb

/-- Every step keeps every binding a well-formed address. -/
theorem stepFullAddr (p : Policy) (s : State) (c : Call) (o : Outcome) (h : AddrBindings s) :
    AddrBindings (stepFull p s c o).2 := by
  cases hd : decideFull p s c with
  | pause w => rw [stepFullOnlyAllowChanges p s c o (fun l pu pa k e => by rw [hd] at e; cases e)]; exact h
  | deny r => rw [stepFullOnlyAllowChanges p s c o (fun l pu pa k e => by rw [hd] at e; cases e)]; exact h
  | allow l pu pa k =>
    rw [stepFullAllow p s c o l pu pa k hd]
    have ⟨_, _, _, _, eb, _, _⟩ := commitFields p s c l pu pa k
    refine observeAddr p _ _ o ?_
    intro b hb
    rw [eb] at hb
    exact h b hb

theorem runFullAddr (p : Policy) : ∀ (cs : List (Call × Outcome)) (s : State), AddrBindings s →
    AddrBindings (runFull p s cs).2
  | [], s, h => h
  | (c, o) :: cs, s, h => runFullAddr p cs (stepFull p s c o).2 (stepFullAddr p s c o h)

/-- Section 5.1 over the monitor's runs: on every state a run from the task's start reaches, every
binding holds a well-formed address (a non-empty string, a number or a boolean). -/
theorem runFullAddrBindings (p : Policy) (cs : List (Call × Outcome)) : AddrBindings (runFull p (initialState p) cs).2 :=
  runFullAddr p cs (initialState p) (fun b hb => absurd hb notMemNil)

theorem addrScalar {v : Json} (h : wellFormedAddress v = true) : scalarOrNull v = true := by
  cases v with
  | str _ => rfl
  | num _ => rfl
  | bool _ => rfl
  | null => cases h
  | arr _ => cases h
  | obj _ => cases h

theorem slotMatchBinding (s : State) (r : Json) (n : String) (hm : resMatches s r (Pat.slot n) = true) :
    ∃ b, b ∈ s.bindings ∧ jeq b.2.1 r = true := by
  cases hb : s.bindings.find? (fun b => b.1 == n) with
  | none =>
    have e : s.binding? n = none := by simp [State.binding?, hb]
    cases hi : memS n s.invalid <;> simp [resMatches, e, hi] at hm
  | some b =>
    have e : s.binding? n = some b.2.1 := by simp [State.binding?, hb]
    refine ⟨b, (findSome hb).1, ?_⟩
    cases hi : memS n s.invalid with
    | false => simp [resMatches, e, hi] at hm; exact hm
    | true =>
      have e3 : resMatches s r (Pat.slot n) = false := by simp [resMatches, e, hi]; rfl
      rw [e3] at hm
      cases hm

/-- A resource a slot's binding matches is a scalar other than the empty string, when the bindings are
well-formed addresses: `hbind` of `builtCoverMatches`. -/
theorem slotBoundScalar (s : State) (h : AddrBindings s) (r : Json) (n : String)
    (hm : resMatches s r (Pat.slot n) = true) :
    holds Lit.scalar (avOf r) = true ∧ holds (Lit.eqStr []) (avOf r) = false := by
    have ⟨b, hbm, hj⟩ := slotMatchBinding s r n hm
    have hw := h b hbm
    rw [constLitL b.2.1 r (addrScalar hw)] at hj
    cases hv : b.2.1 with
    | str x =>
      rw [hv] at hj hw
      cases r with
      | str y =>
        have ey : y.toList = x.toList := ofDecideEqTrue hj
        refine ⟨rfl, ?_⟩
        show decide (y.toList = []) = false
        rw [ey]
        cases x with
        | mk xs => cases xs with
          | nil => cases hw
          | cons _ _ => rfl
      | null => cases hj
      | bool _ => cases hj
      | num _ => cases hj
      | arr _ => cases hj
      | obj _ => cases hj
    | num m =>
      rw [hv] at hj
      cases r with
      | num _ => exact ⟨rfl, rfl⟩
      | null => cases hj
      | bool _ => cases hj
      | str _ => cases hj
      | arr _ => cases hj
      | obj _ => cases hj
    | bool c =>
      rw [hv] at hj
      cases r with
      | bool _ => exact ⟨rfl, rfl⟩
      | null => cases hj
      | num _ => cases hj
      | str _ => cases hj
      | arr _ => cases hj
      | obj _ => cases hj
    | null => rw [hv] at hw; cases hw
    | arr _ => rw [hv] at hw; cases hw
    | obj _ => rw [hv] at hw; cases hw

-- hdecl: a prepared call's arguments are declared ------------------------------------------------------

theorem bindOk {α β : Type} {x : Except String α} {f : α → Except String β} {y : β}
    (h : (x >>= f) = Except.ok y) : ∃ a, x = Except.ok a ∧ f a = Except.ok y := by
  cases x with
  | error w => exact Except.noConfusion h
  | ok a => exact ⟨a, rfl, h⟩

theorem pureOk {α : Type} {a b : α} (h : (pure a : Except String α) = Except.ok b) : a = b := Except.ok.inj h

theorem memMapAction (act : String) (e : Effect) : ∀ (vs : List Json), e ∈ vs.map (fun v => (⟨act, v⟩ : Effect)) →
    e.action = act
  | [], h => absurd h notMemNil
  | v :: vs, h => match memCons h with
    | Or.inl e1 => by rw [e1]
    | Or.inr h1 => memMapAction act e vs h1

/-- The effects one declaration produces (the first step of `effectsOf`). -/
def hereOf (args : List (String × Json)) (d : EffDecl) : Except String (List Effect) :=
  match d.res with
      | ResRef.const v => pure [⟨d.action, v⟩]
      | ResRef.arg a => match args.lookup a with
        | none => throw "malformed_resource"
        | some v => if isScalar v then pure [⟨d.action, v⟩] else throw "malformed_resource"
      | ResRef.listArg a => match args.lookup a with
        | some (Json.arr items) =>
          if items.size > 0 && items.toList.all isScalar then pure (items.toList.map (fun v => ⟨d.action, v⟩))
          else throw "malformed_resource"
        | _ => throw "malformed_resource"

theorem effectsOfCons (args : List (String × Json)) (d : EffDecl) (ds : List EffDecl) :
    effectsOf args (d :: ds) = (hereOf args d >>= fun here => effectsOf args ds >>= fun rest => pure (here ++ rest)) := by
  cases d with
  | mk act res => cases res with
    | const v => rfl
    | arg a =>
      cases hl : List.lookup a args with
      | none => simp [effectsOf, hereOf, hl]
      | some v => cases hs : isScalar v <;> simp [effectsOf, hereOf, hl, hs]
    | listArg a =>
      cases hl : List.lookup a args with
      | none => simp [effectsOf, hereOf, hl]
      | some v => cases v with
        | arr items => cases hs : (items.size > 0 && items.toList.all isScalar) <;> simp [effectsOf, hereOf, hl, hs]
        | _ => simp [effectsOf, hereOf, hl]

/-- The effects one declaration produces have its action. -/
theorem hereAction (args : List (String × Json)) (d : EffDecl) (here : List Effect) (e : Effect)
    (h : (match d.res with
      | ResRef.const v => pure [⟨d.action, v⟩]
      | ResRef.arg a => match args.lookup a with
        | none => throw "malformed_resource"
        | some v => if isScalar v then pure [⟨d.action, v⟩] else throw "malformed_resource"
      | ResRef.listArg a => match args.lookup a with
        | some (Json.arr items) =>
          if items.size > 0 && items.toList.all isScalar then pure (items.toList.map (fun v => ⟨d.action, v⟩))
          else throw "malformed_resource"
        | _ => throw "malformed_resource" : Except String (List Effect)) = Except.ok here)
    (he : e ∈ here) : e.action = d.action := by
  cases hr : d.res with
  | const v =>
    rw [hr] at h
    rw [← pureOk h] at he
    exact memMapAction d.action e [v] he
  | arg a =>
    rw [hr] at h
    simp only [] at h
    cases hl : args.lookup a with
    | none => rw [hl] at h; exact Except.noConfusion h
    | some v =>
      rw [hl] at h
      simp only [] at h
      cases hs : isScalar v with
      | false => rw [hs] at h; exact Except.noConfusion h
      | true =>
        rw [hs] at h
        rw [← pureOk h] at he
        exact memMapAction d.action e [v] he
  | listArg a =>
    rw [hr] at h
    simp only [] at h
    cases hl : args.lookup a with
    | none => rw [hl] at h; exact Except.noConfusion h
    | some v =>
      rw [hl] at h
      simp only [] at h
      cases v with
      | arr items =>
        simp only [] at h
        cases hs : (items.size > 0 && items.toList.all isScalar) with
        | false => rw [hs] at h; exact Except.noConfusion h
        | true =>
          rw [hs] at h
          rw [← pureOk h] at he
          exact memMapAction d.action e items.toList he
      | null => exact Except.noConfusion h
      | bool _ => exact Except.noConfusion h
      | num _ => exact Except.noConfusion h
      | str _ => exact Except.noConfusion h
      | obj _ => exact Except.noConfusion h

/-- An effect of `effectsOf` comes from one of the declarations: the effects that declaration produces
contain it. -/
theorem effectsOfWay (args : List (String × Json)) (e : Effect) : ∀ (ds : List EffDecl) (es : List Effect),
    effectsOf args ds = Except.ok es → e ∈ es → ∃ d, d ∈ ds ∧ ∃ here, hereOf args d = Except.ok here ∧ e ∈ here
  | [], es, h, he => by
    rw [← pureOk h] at he
    exact absurd he notMemNil
  | d :: ds, es, h, he => by
    rw [effectsOfCons] at h
    have ⟨here, hh, h2⟩ := bindOk h
    have ⟨rest, hrest, h3⟩ := bindOk h2
    rw [← pureOk h3] at he
    cases memAppE he with
    | inl h4 => exact ⟨d, Mem.head _, here, hh, h4⟩
    | inr h4 =>
      have ⟨d', hd', r⟩ := effectsOfWay args e ds rest hrest h4
      exact ⟨d', Mem.tail _ hd', r⟩

/-- What preparation checks of an accepted call: its tool is the policy's, it declares every argument, every
required key is an argument's, and the effects are the tool's declarations' on the arguments. -/
theorem prepareChecks (p : Policy) (s : State) (c : Call) (t : Tool) (es : List Effect)
    (h : prepare p s c = Except.ok (t, es)) :
    t ∈ p.tools ∧ c.args.any (fun a => !memS a.1 t.args) = false ∧
      t.required.any (fun r => !(c.args.any (fun a => a.1 == r))) = false ∧ effectsOf c.args t.effects = Except.ok es := by
  cases hf : p.tools.find? (fun t => t.name == c.tool) with
  | none => simp [prepare, hf] at h
  | some t' =>
    simp only [prepare, hf] at h
    have ⟨h1, hu⟩ := iteThrow h
    have ⟨h2, hr⟩ := iteThrow h1
    have ⟨h3, _⟩ := iteThrow h2
    have ⟨es', hes, h4⟩ := bindOk h3
    have e4 := pureOk h4
    have et : t' = t := congrArg Prod.fst e4
    have ee : es' = es := congrArg Prod.snd e4
    rw [← et, ← ee]
    exact ⟨(findSome hf).1, hu, hr, hes⟩

/-- An effect of `effectsOf` comes from one of the declarations, with its action. -/
theorem effectsOfFrom (args : List (String × Json)) (e : Effect) (ds : List EffDecl) (es : List Effect)
    (h : effectsOf args ds = Except.ok es) (he : e ∈ es) : ∃ d, d ∈ ds ∧ d.action = e.action :=
  match effectsOfWay args e ds es h he with
  | ⟨d, hd, here, hh, h2⟩ => ⟨d, hd, (hereAction args d here e hh h2).symm⟩

/-- A prepared call's arguments are declared by its tool (`undeclared_argument` refuses the others). -/
theorem prepareParts (p : Policy) (s : State) (c : Call) (t : Tool) (es : List Effect)
    (h : prepare p s c = Except.ok (t, es)) :
    t ∈ p.tools ∧ c.args.any (fun a => !memS a.1 t.args) = false ∧ effectsOf c.args t.effects = Except.ok es :=
  match prepareChecks p s c t es h with
  | ⟨h1, h2, _, h4⟩ => ⟨h1, h2, h4⟩

/-- `hdecl` of `builtCoverMatches` for a prepared call with an effect of action `a`: every argument's
key is one of the action's keys. -/
theorem preparedDeclared (p : Policy) (s : State) (c : Call) (t : Tool) (es : List Effect)
    (h : prepare p s c = Except.ok (t, es)) (e : Effect) (he : e ∈ es) (a : String) (ha : e.action = a)
    (gs : List Monitor.Full.Grant) :
    ∀ x, x ∈ c.args → memStr x.1 (actionKeys a (ownTools a p.tools) gs) = true := by
  have ⟨ht, hu, hes⟩ := prepareParts p s c t es h
  have ⟨d, hd, hda⟩ := effectsOfFrom c.args e t.effects es hes he
  have hown : t ∈ ownTools a p.tools := by
    apply filtMem ht
    apply anyBIntro hd
    rw [hda, ha]
    exact strBeqSelf a
  intro x hx
  have hmx : memS x.1 t.args = true := by
    cases hm : memS x.1 t.args with
    | true => rfl
    | false =>
      have g := anyMem (f := fun a => !memS a.1 t.args) hx (by show (!memS x.1 t.args) = true; rw [hm]; rfl)
      rw [hu] at g
      cases g
  apply memMemStr
  apply dedupMem
  apply Or.inr
  apply memAppL
  exact memJoin (memMapOf (fun t => t.args) hown) (memSMem hmx)

-- the coverage theorem for prepared calls on reachable states -----------------------------------------

/-- `builtCoverMatches` for the calls the monitor prepares: for a policy `p` whose tools the question is
written from, every call `c` that preparation accepts (tool `t'`, effects `es`) on a state a run from the
task's start reaches, and every effect `e ∈ es` of action `a` whose values `val` are read where the way
reads them and meet the way's condition, has its `grantMatches` vector over `gs` among `listed` when
`argCover` answers covered. `hdecl` is `preparedDeclared` and `hbind` is `slotBoundScalar` on
`runFullAddrBindings`; the key-presence fact a key allowlist reads is `argsJsonPresent`. `preparedCoverEvery`
(`Thm/Revision/ArgCoverWay.lean`) chooses the way, `val` and proves `hin` from the preparation. -/
theorem preparedCoverMatches (p : Policy) (a : String) (gs : List Monitor.Full.Grant) (E : Option (List Json))
    (t : Tool) (d : EffDecl) (listed : List (List Bool)) (cond : List SClause)
    (hcond : wayCond a p.tools gs E t d = some cond)
    (hfrag : ∀ g, g ∈ gs → g.action = a → grantOk g = true)
    (hcov : argCover (Oracle.ArgCover.good
      (buildQ cond (gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a p.tools) gs)))).cond
      (buildQ cond (gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a p.tools) gs)))).pos listed)
      (buildQ cond (gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a p.tools) gs)))).atoms =
      Answer.covered)
    (s : State) (hreach : ∃ cs, s = (runFull p (initialState p) cs).2)
    (c : Call) (t' : Tool) (es : List Effect) (hprep : prepare p s c = Except.ok (t', es))
    (e : Effect) (he : e ∈ es) (ha : e.action = a) (val : Src → AV)
    (hval : ∀ src, val (reSrc (wayRes d.res) src) = srcVal s c.args e src)
    (hin : sCnfHolds val cond = true) :
    anyB (fun u => decide (u = gs.map (fun g => grantMatches s c.args g e))) listed = true := by
  have ⟨cs, hs⟩ := hreach
  have haddr : AddrBindings s := by rw [hs]; exact runFullAddrBindings p cs
  exact builtCoverMatches a p.tools gs E t d listed cond hcond hfrag hcov s c.args e ha val hval
    (preparedDeclared p s c t' es hprep e he a ha gs) (fun n hm => slotBoundScalar s haddr e.res n hm) hin

end AgentWarrant.Revision.ArgCover
