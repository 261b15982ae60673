import AgentWarrant.Thm.Edits.Machine
/-! The ideal–runtime weak bisimulation as a theorem (*When Can Agents Safely Checkpoint, Fork, Restore,
and Merge?*, Appendix A-L, "𝓑 is a divergence-insensitive weak bisimulation under `obs_api`"), over the
machine model of `Spec/Edits/Machine.lean`.

Both machines become labelled transition systems whose labels are Agent-API observations or `τ`:

- `IStep` (the ideal machine, A-H): the atomic edit, labelled with its answer (`Invalid`, `Reject`, or
  the edge exposing the new rule version `η⁺`); a tool call; a verified retry (no state change);
  Dispatch; a completion update; Checkpoint; the registered extension `Extend(ξ)` (visible, labelled
  with its observation: refused, `Reject`, or the edge with `η⁺`);
- `RStep` (the runtime, A-I): a check answering `Invalid` or `Reject` (visible, as the edit's answer); a
  check answering `Accepted` (τ: the answer becomes visible only when the rule update commits); a
  committed rule update (visible, the edge with `η⁺`); a `NoCommit` rule update (τ); Preload (τ); a
  tool call; a retry; Dispatch; a completion update; Checkpoint; the registered extension (visible, as
  on the ideal machine); a stop and restart (τ, exposing the committed state).

`obs_api` is `api` (`Thm/Edits/Machine.lean`): a denial shows the call, not which premise failed. Every
runtime event of `stepR` is a step of `RStep` (`stepRIsStep`), so no runtime behaviour is left out.
The relation `Rel` says the ideal state is the runtime's record (`S.core = c`) and every version
prepared by Preload holds the recomputation of its own answer (`PrepOk`, established by Preload
itself). `Weak` is the usual weak step (`τ*` for `τ`, `τ* ℓ τ*` for a visible `ℓ`), and a weak
bisimulation ignores how many τ-steps either side takes, so it is divergence-insensitive.

Hypothesis beyond the machine model: `FreshAlloc` — `Derive` allocates an unallocated or inactive
`η⁺` (the paper's `phase(η⁺) ∈ {⊥, inactive}` in the final check, which its `Derive` guarantees; the
model's `Derive` is a parameter, so it is assumed; `Thm/Edits/BisimJudged.lean` shows the Lean edit
judgment with the request table's `η⁺` does not meet it, and drops it with `η⁺` allocated from the
record). Choices where the paper is silent: the edge's observation is `updated η⁺` (the renamed
authorization data of `Edge(u, [𝓗⁺_u]_≅)` reduced to the version it is issued under); a retry is an
ideal event too (Appendix A-H lists verified retry among the ideal machine's transitions), with the
same check of the stored link. -/
namespace AgentWarrant.Edits.Machine
open AgentWarrant AgentWarrant.Edits

/-- A label: silent, or an Agent-API observation (an edit's answer, or any other observation). -/
inductive Lbl
  | tau
  | edit (u : Nat) (o : Obs)
  | vis (o : Obs)

/-- The ideal edit's observation: the answer, the accepted edge exposing `η⁺`. -/
def editLbl (der : Derivation) (c : Core) (u : Nat) : Obs :=
  match der c u with
  | none => Obs.invalid
  | some d => match safeSet (build d.inst) with
    | [] => Obs.rejected
    | _ :: _ => Obs.updated d.etaNew

/-- The ideal machine as a labelled transition system. -/
inductive IStep (der : Derivation) : Core → Lbl → Core → Prop
  | edit (c : Core) (u : Nat) : IStep der c (Lbl.edit u (editLbl der c u)) (editI der c u).2
  | use (c : Core) (x : Nat) (ok : Bool) : IStep der c (Lbl.vis (api (useI c x ok).1)) (useI c x ok).2
  | retry (c : Core) (x : Nat) (tok : Option Nat) (ok : Bool) : IStep der c (Lbl.vis (api (retry c x tok ok))) c
  | dispatch (c : Core) : IStep der c (Lbl.vis (dispatch c).1) (dispatch c).2
  | settle (c : Core) (d v : Nat) : IStep der c (Lbl.vis (settle c d v).1) (settle c d v).2
  | checkpoint (c : Core) (k cur : Nat) :
      IStep der c (Lbl.vis (checkpoint c k cur).1) (checkpoint c k cur).2
  | extend (c : Core) (dfa : Dfa) (en : Nat) (ok : Bool) :
      IStep der c (Lbl.vis (extendStep c dfa en ok).1) (extendCore c dfa en ok)

/-- The runtime as a labelled transition system. -/
inductive RStep (der : Derivation) : RState → Lbl → RState → Prop
  | check (S : RState) (u : Nat) (o : Obs) (h : answerObs (check der S.core u) = o) (hn : o ≠ Obs.accepted) :
      RStep der S (Lbl.edit u o) S
  | checkAccepted (S : RState) (u : Nat) (h : answerObs (check der S.core u) = Obs.accepted) :
      RStep der S Lbl.tau S
  | updated (S : RState) (u : Nat) (y : Answer) (e : Nat) (S' : RState)
      (h : tryUpdate der S u y = (Obs.updated e, S')) : RStep der S (Lbl.edit u (Obs.updated e)) S'
  | noCommit (S : RState) (u : Nat) (y : Answer) (w : String) (S' : RState)
      (h : tryUpdate der S u y = (Obs.noCommit w, S')) : RStep der S Lbl.tau S'
  | preload (S : RState) (u : Nat) (y : Answer) : RStep der S Lbl.tau (preload der S u y).2
  | use (S : RState) (x : Nat) (tok : Option Nat) (ok : Bool) :
      RStep der S (Lbl.vis (api (useR S.core x tok ok).1)) ⟨(useR S.core x tok ok).2, S.prepared⟩
  | retry (S : RState) (x : Nat) (tok : Option Nat) (ok : Bool) :
      RStep der S (Lbl.vis (api (retry S.core x tok ok))) S
  | dispatch (S : RState) : RStep der S (Lbl.vis (dispatch S.core).1) ⟨(dispatch S.core).2, S.prepared⟩
  | settle (S : RState) (d v : Nat) :
      RStep der S (Lbl.vis (settle S.core d v).1) ⟨(settle S.core d v).2, S.prepared⟩
  | checkpoint (S : RState) (k cur : Nat) :
      RStep der S (Lbl.vis (checkpoint S.core k cur).1) ⟨(checkpoint S.core k cur).2, S.prepared⟩
  | extend (S : RState) (dfa : Dfa) (en : Nat) (ok : Bool) :
      RStep der S (Lbl.vis (extendStep S.core dfa en ok).1) (extendR S dfa en ok)
  | restart (S : RState) (D : Store) (h : D.committed = S) : RStep der S Lbl.tau (restart D)

/-- `τ*`. -/
inductive Star {σ : Type} (step : σ → Lbl → σ → Prop) : σ → σ → Prop
  | refl (s : σ) : Star step s s
  | tau (s t u : σ) : step s Lbl.tau t → Star step t u → Star step s u

/-- The weak step: `τ*` for `τ`, `τ* ℓ τ*` for any label. -/
def Weak {σ : Type} (step : σ → Lbl → σ → Prop) (s : σ) (l : Lbl) (t : σ) : Prop :=
  (l = Lbl.tau ∧ Star step s t) ∨ ∃ s1 s2, Star step s s1 ∧ step s1 l s2 ∧ Star step s2 t

/-- A weak bisimulation: every step of either side is matched by a weak step of the other with the same
label, to related states. -/
def WeakBisim {α β : Type} (stepA : α → Lbl → α → Prop) (stepB : β → Lbl → β → Prop) (R : α → β → Prop) :
    Prop :=
  ∀ a b, R a b →
    (∀ l a', stepA a l a' → ∃ b', Weak stepB b l b' ∧ R a' b') ∧
    (∀ l b', stepB b l b' → ∃ a', Weak stepA a l a' ∧ R a' b')

/-- Every prepared version holds the recomputation of its own answer. -/
def PrepOk (der : Derivation) (S : RState) : Prop :=
  ∀ v p, (v, p) ∈ S.prepared → ∃ d, der p.cut p.edit = some d ∧ p.safe = safeSet (build d.inst)

/-- The relation 𝓑: the ideal state is the runtime's record, and prepared content is sound. -/
def Rel (der : Derivation) (c : Core) (S : RState) : Prop := S.core = c ∧ PrepOk der S

/-- `Derive` allocates an unallocated or inactive `η⁺`. -/
def FreshAlloc (der : Derivation) : Prop := ∀ c u d, der c u = some d → unallocated c d.etaNew = true

-- Lemmas ----------------------------------------------------------------------------------------------

theorem weakOne {σ : Type} {step : σ → Lbl → σ → Prop} {s t : σ} {l : Lbl} (h : step s l t) : Weak step s l t :=
  Or.inr ⟨s, t, Star.refl s, h, Star.refl t⟩

theorem weakRefl {σ : Type} {step : σ → Lbl → σ → Prop} (s : σ) : Weak step s Lbl.tau s :=
  Or.inl ⟨rfl, Star.refl s⟩

theorem findPrepMem {v : Nat} {p : Prep} : ∀ {l : List (Nat × Prep)}, findPrep v l = some p → (v, p) ∈ l
  | [], h => Option.noConfusion h
  | (w, q) :: l, h => by
    cases hw : Nat.beq w v with
    | true =>
      have h' : some q = some p := by rw [← h]; simp [findPrep, hw]
      have e : q = p := Option.some.inj h'
      rw [beqEq hw, e]; exact Mem.head _
    | false =>
      have h' : findPrep v l = some p := by rw [← h]; simp [findPrep, hw]
      exact Mem.tail _ (findPrepMem h')

theorem dropPrepSub {v : Nat} {x : Nat × Prep} : ∀ {l : List (Nat × Prep)}, x ∈ dropPrep v l → x ∈ l
  | [], h => h
  | (w, q) :: l, h => by
    cases hw : Nat.beq w v with
    | true =>
      have e : dropPrep v ((w, q) :: l) = dropPrep v l := by simp [dropPrep, hw]
      have h' : x ∈ dropPrep v l := by rw [← e]; exact h
      exact Mem.tail _ (dropPrepSub h')
    | false =>
      have e : dropPrep v ((w, q) :: l) = (w, q) :: dropPrep v l := by simp [dropPrep, hw]
      have h' : x ∈ (w, q) :: dropPrep v l := by rw [← e]; exact h
      cases h' with
      | head _ => exact Mem.head _
      | tail _ h2 => exact Mem.tail _ (dropPrepSub h2)

/-- Preload keeps `PrepOk`: what it prepares is the recomputation at the record it checks. -/
theorem preloadPrepOk (der : Derivation) (S : RState) (u : Nat) (y : Answer) (h : PrepOk der S) :
    PrepOk der (preload der S u y).2 := by
  simp only [preload]
  cases hr : ready der S.core u y with
  | error w => exact h
  | ok d =>
    have ⟨_, hd, _, _⟩ := readyOk hr
    have hnew : ∀ v p, (v, p) ∈ [(d.etaNew, (⟨u, S.core, S.core.eta, safeSet (build d.inst)⟩ : Prep))] →
        ∃ d', der p.cut p.edit = some d' ∧ p.safe = safeSet (build d'.inst) := by
      intro v p hm
      have e := memSingle hm
      have ep : p = ⟨u, S.core, S.core.eta, safeSet (build d.inst)⟩ := (Prod.mk.inj e).2
      rw [ep]; exact ⟨d, hd, rfl⟩
    simp only []
    cases findPrep d.etaNew S.prepared with
    | none =>
      intro v p hm
      cases memAppend hm with
      | inl h1 => exact h v p h1
      | inr h2 => exact hnew v p h2
    | some q =>
      simp only []
      cases decide (q = ⟨u, S.core, S.core.eta, safeSet (build d.inst)⟩) with
      | true => exact h
      | false =>
        intro v p hm
        cases memAppend hm with
        | inl h1 => exact h v p (dropPrepSub h1)
        | inr h2 => exact hnew v p h2

/-- A rule update either commits nothing (`NoCommit`) or commits the derivation's largest safe set. -/
theorem tryUpdateCases (der : Derivation) (S : RState) (u : Nat) (y : Answer) :
    (∃ w, tryUpdate der S u y = (Obs.noCommit w, S)) ∨
    ∃ d, ready der S.core u y = Except.ok d ∧
      tryUpdate der S u y = (Obs.updated d.etaNew, ⟨install S.core d (safeSet (build d.inst)), []⟩) := by
  simp only [tryUpdate]
  cases hr : ready der S.core u y with
  | error w => exact Or.inl ⟨w, rfl⟩
  | ok d =>
    simp only []
    cases hp : findPrep d.etaNew S.prepared with
    | none => exact Or.inr ⟨d, rfl, rfl⟩
    | some p =>
      simp only []
      cases h1 : decide (p.edit = u ∧ p.cut = S.core ∧ p.etaOld = S.core.eta) with
      | false => exact Or.inr ⟨d, rfl, rfl⟩
      | true =>
        cases h2 : decide (p.safe = safeSet (build d.inst)) with
        | false => exact Or.inl ⟨_, rfl⟩
        | true => exact Or.inr ⟨d, rfl, rfl⟩

/-- With sound prepared content and a fresh `η⁺`, the rule update presenting the runtime's own check
of an accepted edit commits exactly the ideal edge. -/
theorem updateOwnCheck (der : Derivation) (S : RState) (u : Nat) (d : Derived) (hP : PrepOk der S)
    (hd : der S.core u = some d) (hn : safeSet (build d.inst) ≠ []) (hu : unallocated S.core d.etaNew = true) :
    tryUpdate der S u (check der S.core u) =
      (Obs.updated d.etaNew, ⟨install S.core d (safeSet (build d.inst)), []⟩) := by
  have ⟨d', hr⟩ := (readyIffAccepted der S.core u).2 ⟨d, hd, hn, hu⟩
  have ⟨_, hd', _, _⟩ := readyOk hr
  rw [hd] at hd'
  have e : d = d' := Option.some.inj hd'
  subst e
  simp only [tryUpdate, hr]
  cases hq : findPrep d.etaNew S.prepared with
  | none => rfl
  | some p =>
    simp only []
    cases h1 : decide (p.edit = u ∧ p.cut = S.core ∧ p.etaOld = S.core.eta) with
    | false => rfl
    | true =>
      have ⟨he, hc, _⟩ := ofDecideEqTrue h1
      have ⟨d2, hd2, hs2⟩ := hP d.etaNew p (findPrepMem hq)
      rw [hc, he, hd] at hd2
      have e2 : d = d2 := Option.some.inj hd2
      rw [← e2] at hs2
      have h2 : decide (p.safe = safeSet (build d.inst)) = true := decideEqTrue hs2
      simp only [h2]
      rfl

/-- A runtime tool call either is denied, changing nothing, or passes every premise and takes the call. -/
theorem useRDenies (c : Core) (x : Nat) (tok : Option Nat) (ok : Bool) :
    (∃ why, useR c x tok ok = (Obs.deny x why, c)) ∨
    ∃ e, c.eta = some e ∧ memB x c.rules = true ∧ findProc x c.procd = none ∧ memB x c.entries = true ∧
      inW c.safe (since c ++ [letterOf c x]) = true ∧ ok = true ∧ useR c x tok ok = takeCall c x e := by
  simp only [useR]
  cases he : c.eta with
  | none => exact Or.inl ⟨_, rfl⟩
  | some e =>
    simp only []
    cases h1 : memB x c.rules with
    | false => exact Or.inl ⟨_, rfl⟩
    | true =>
      simp only []
      cases h2 : findProc x c.procd with
      | some _ => exact Or.inl ⟨_, rfl⟩
      | none =>
        simp only []
        cases h3 : memB x c.entries with
        | false => exact Or.inl ⟨_, rfl⟩
        | true =>
          simp only []
          cases h4 : decide (tok = some e) with
          | false => exact Or.inl ⟨_, rfl⟩
          | true =>
            simp only []
            cases ok with
            | false => exact Or.inl ⟨_, rfl⟩
            | true =>
              simp only []
              cases hw : inW c.safe (since c ++ [letterOf c x]) with
              | false => exact Or.inl ⟨_, rfl⟩
              | true =>
                refine Or.inr ⟨e, ?_, ?_, ?_, ?_, ?_, ?_, ?_⟩ <;> first | rfl | trivial | assumption

/-- The ideal tool call with a request that is not the certified one is a denial that changes nothing. -/
theorem useIFalse (c : Core) (x : Nat) : api (useI c x false).1 = Obs.deny x "" ∧ (useI c x false).2 = c := by
  cases he : c.eta with
  | none => simp [useI, he, api]
  | some e =>
    cases h1 : memB x c.rules <;> cases h3 : memB x c.entries <;> cases h2 : findProc x c.procd <;>
      cases h4 : inW c.safe (since c ++ [letterOf c x]) <;> simp [useI, he, h1, h2, h3, h4, api]

/-- With the published token, the runtime's and the ideal machine's tool calls show the same API
observation for either request. -/
theorem useApiAgrees (c : Core) (x : Nat) : ∀ ok : Bool, api (useR c x c.eta ok).1 = api (useI c x ok).1
  | true => (useAgrees c x).2
  | false => by
    rw [(useIFalse c x).1]
    cases useRDenies c x c.eta false with
    | inl h => have ⟨why, e⟩ := h; rw [e]; rfl
    | inr h => have ⟨_, _, _, _, _, _, hok, _⟩ := h; exact Bool.noConfusion hok

/-- A registered extension keeps prepared content sound: it keeps it, or drops all of it. -/
theorem extendPrepOk (der : Derivation) (S : RState) (dfa : Dfa) (en : Nat) (ok : Bool) (h : PrepOk der S) :
    PrepOk der (extendR S dfa en ok) := by
  show PrepOk der (pickR S (extendStep S.core dfa en ok).2)
  cases (extendStep S.core dfa en ok).2 with
  | none => exact h
  | some c' => intro v p hm; exact absurd hm notMemNil

-- The theorem ------------------------------------------------------------------------------------------

/-- Every runtime event is a step of the runtime's transition system. -/
theorem stepRIsStep (der : Derivation) (S : RState) (e : Ev) : ∃ l, RStep der S l (stepR der S e).2 := by
  cases e with
  | check u =>
    cases hc : check der S.core u with
    | accepted a b e1 e2 s =>
      exact ⟨_, RStep.checkAccepted S u (by rw [hc]; rfl)⟩
    | invalid a b => exact ⟨_, RStep.check S u Obs.invalid (by rw [hc]; rfl) (fun q => Obs.noConfusion q)⟩
    | rejected a b => exact ⟨_, RStep.check S u Obs.rejected (by rw [hc]; rfl) (fun q => Obs.noConfusion q)⟩
  | update u y =>
    show ∃ l, RStep der S l (tryUpdate der S u y).2
    cases tryUpdateCases der S u y with
    | inl h => have ⟨w, hw⟩ := h; rw [hw]; exact ⟨_, RStep.noCommit S u y w S hw⟩
    | inr h =>
      have ⟨d, _, hw⟩ := h
      rw [hw]; exact ⟨_, RStep.updated S u y d.etaNew _ hw⟩
  | preload u y => exact ⟨_, RStep.preload S u y⟩
  | use x tok ok => exact ⟨_, RStep.use S x tok ok⟩
  | retry x tok ok => exact ⟨_, RStep.retry S x tok ok⟩
  | dispatch => exact ⟨_, RStep.dispatch S⟩
  | settle d v => exact ⟨_, RStep.settle S d v⟩
  | checkpoint k cur => exact ⟨_, RStep.checkpoint S k cur⟩
  | extend dfa en ok => exact ⟨_, RStep.extend S dfa en ok⟩

/-- Runtime to ideal: every runtime step is matched by at most one ideal step with the same label. -/
theorem runtimeMatched (der : Derivation) (c : Core) (S : RState) (hR : Rel der c S) (l : Lbl) (S' : RState)
    (h : RStep der S l S') : ∃ c', Weak (IStep der) c l c' ∧ Rel der c' S' := by
  cases h with
  | check S u o ho hn =>
    have ⟨hc, hP⟩ := hR
    subst hc
    refine ⟨S.core, ?_, hR⟩
    cases hd : der S.core u with
    | none =>
      have e1 : o = Obs.invalid := by rw [← ho]; simp [check, answerObs, hd]
      have e2 : editLbl der S.core u = Obs.invalid := by simp [editLbl, hd]
      have e3 : (editI der S.core u).2 = S.core := by simp [editI, hd]
      have s := IStep.edit (der := der) S.core u
      rw [e2, e3, ← e1] at s
      exact weakOne s
    | some d =>
      cases hs : safeSet (build d.inst) with
      | nil =>
        have e1 : o = Obs.rejected := by rw [← ho]; simp [check, answerObs, hd, hs]
        have e2 : editLbl der S.core u = Obs.rejected := by simp [editLbl, hd, hs]
        have e3 : (editI der S.core u).2 = S.core := by simp [editI, hd, hs]
        have s := IStep.edit (der := der) S.core u
        rw [e2, e3, ← e1] at s
        exact weakOne s
      | cons a l' =>
        have e1 : o = Obs.accepted := by rw [← ho]; simp [check, answerObs, hd, hs]
        exact absurd e1 hn
  | checkAccepted S u _ =>
    have ⟨hc, hP⟩ := hR
    subst hc
    exact ⟨S.core, weakRefl _, hR⟩
  | updated S u y e S2 hw =>
    have ⟨hc, hP⟩ := hR
    subst hc
    cases tryUpdateCases der S u y with
    | inl h =>
      have ⟨w, hw'⟩ := h
      rw [hw] at hw'
      have q := (Prod.mk.inj hw').1
      exact Obs.noConfusion q
    | inr h =>
      have ⟨d, hr, hw'⟩ := h
      rw [hw] at hw'
      have ⟨q1, q2⟩ := Prod.mk.inj hw'
      have ee : e = d.etaNew := Obs.updated.inj q1
      have ⟨_, hd, hn, _⟩ := readyOk hr
      have ⟨_, _, _, hI⟩ := editAnswersAgree der S.core u
      have hst : (editI der S.core u).2 = install S.core d (safeSet (build d.inst)) := (hI d hd hn).1
      have hl : editLbl der S.core u = Obs.updated d.etaNew := by
        cases hs : safeSet (build d.inst) with
        | nil => exact absurd hs hn
        | cons a l' => simp [editLbl, hd, hs]
      have s := IStep.edit (der := der) S.core u
      rw [hl, hst] at s
      rw [ee, q2]
      exact ⟨_, weakOne s, rfl, fun v p hm => absurd hm notMemNil⟩
  | noCommit S u y w S2 hw =>
    have ⟨hc, hP⟩ := hR
    subst hc
    have e : S' = S := by
      have := tryUpdateNoCommit der S u y w (by rw [hw])
      rw [hw] at this; exact this
    rw [e]
    exact ⟨S.core, weakRefl _, hR⟩
  | preload S u y =>
    have ⟨hc, hP⟩ := hR
    subst hc
    exact ⟨S.core, weakRefl _, (preloadCore der S u y), preloadPrepOk der S u y hP⟩
  | use S x tok ok =>
    have ⟨hc, hP⟩ := hR
    subst hc
    cases useRDenies S.core x tok ok with
    | inl h =>
      have ⟨why, hu⟩ := h
      rw [hu]
      have ⟨hl, hs⟩ := useIFalse S.core x
      have s := IStep.use (der := der) S.core x false
      rw [hl, hs] at s
      exact ⟨S.core, weakOne s, rfl, hP⟩
    | inr h =>
      have ⟨e, he, h1, h2, h3, hw, _, hu⟩ := h
      rw [hu]
      have s := IStep.use (der := der) S.core x true
      rw [useIOf he h1 h2 h3 hw] at s
      exact ⟨_, weakOne s, rfl, hP⟩
  | retry S x tok ok =>
    have ⟨hc, hP⟩ := hR
    subst hc
    exact ⟨S.core, weakOne (IStep.retry S.core x tok ok), hR⟩
  | dispatch S =>
    have ⟨hc, hP⟩ := hR
    subst hc
    exact ⟨_, weakOne (IStep.dispatch S.core), rfl, hP⟩
  | settle S d v =>
    have ⟨hc, hP⟩ := hR
    subst hc
    exact ⟨_, weakOne (IStep.settle S.core d v), rfl, hP⟩
  | checkpoint S k cur =>
    have ⟨hc, hP⟩ := hR
    subst hc
    exact ⟨_, weakOne (IStep.checkpoint S.core k cur), rfl, hP⟩
  | extend S dfa en ok =>
    have ⟨hc, hP⟩ := hR
    subst hc
    exact ⟨_, weakOne (IStep.extend S.core dfa en ok), extendRCore S dfa en ok, extendPrepOk der S dfa en ok hP⟩
  | restart S D hD =>
    have ⟨hc, hP⟩ := hR
    subst hc
    show ∃ c', Weak (IStep der) S.core Lbl.tau c' ∧ Rel der c' D.committed
    rw [hD]
    exact ⟨S.core, weakRefl _, hR⟩

/-- Ideal to runtime: every ideal step is matched by one runtime step with the same label. -/
theorem idealMatched (der : Derivation) (hF : FreshAlloc der) (c : Core) (S : RState) (hR : Rel der c S)
    (l : Lbl) (c' : Core) (h : IStep der c l c') : ∃ S', Weak (RStep der) S l S' ∧ Rel der c' S' := by
  cases h with
  | edit c u =>
    have ⟨hc, hP⟩ := hR
    subst hc
    cases hd : der S.core u with
    | none =>
      have e2 : editLbl der S.core u = Obs.invalid := by simp [editLbl, hd]
      have e3 : (editI der S.core u).2 = S.core := by simp [editI, hd]
      have ho : answerObs (check der S.core u) = Obs.invalid := by simp [check, answerObs, hd]
      rw [e2, e3]
      exact ⟨S, weakOne (RStep.check S u _ ho (fun q => Obs.noConfusion q)), hR⟩
    | some d =>
      cases hs : safeSet (build d.inst) with
      | nil =>
        have e2 : editLbl der S.core u = Obs.rejected := by simp [editLbl, hd, hs]
        have e3 : (editI der S.core u).2 = S.core := by simp [editI, hd, hs]
        have ho : answerObs (check der S.core u) = Obs.rejected := by simp [check, answerObs, hd, hs]
        rw [e2, e3]
        exact ⟨S, weakOne (RStep.check S u _ ho (fun q => Obs.noConfusion q)), hR⟩
      | cons a l' =>
        have hn : safeSet (build d.inst) ≠ [] := by rw [hs]; intro q; exact List.noConfusion q
        have e2 : editLbl der S.core u = Obs.updated d.etaNew := by simp [editLbl, hd, hs]
        have ⟨_, _, _, hI⟩ := editAnswersAgree der S.core u
        have e3 : (editI der S.core u).2 = install S.core d (safeSet (build d.inst)) := (hI d hd hn).1
        have hw := updateOwnCheck der S u d hP hd hn (hF S.core u d hd)
        rw [e2, e3]
        exact ⟨_, weakOne (RStep.updated S u _ d.etaNew _ hw), rfl, fun v p hm => absurd hm notMemNil⟩
  | use c x ok =>
    have ⟨hc, hP⟩ := hR
    subst hc
    have s := RStep.use (der := der) S x S.core.eta ok
    rw [useApiAgrees S.core x ok, useSameState S.core x ok] at s
    exact ⟨_, weakOne s, rfl, hP⟩
  | retry c x tok ok =>
    have ⟨hc, hP⟩ := hR
    subst hc
    exact ⟨S, weakOne (RStep.retry S x tok ok), hR⟩
  | dispatch c =>
    have ⟨hc, hP⟩ := hR
    subst hc
    exact ⟨_, weakOne (RStep.dispatch S), rfl, hP⟩
  | settle c d v =>
    have ⟨hc, hP⟩ := hR
    subst hc
    exact ⟨_, weakOne (RStep.settle S d v), rfl, hP⟩
  | checkpoint c k cur =>
    have ⟨hc, hP⟩ := hR
    subst hc
    exact ⟨_, weakOne (RStep.checkpoint S k cur), rfl, hP⟩
  | extend c dfa en ok =>
    have ⟨hc, hP⟩ := hR
    subst hc
    exact ⟨_, weakOne (RStep.extend S dfa en ok), extendRCore S dfa en ok, extendPrepOk der S dfa en ok hP⟩

/-- The relation holds from the common initial state: the accepted root update installs the same record
on both machines, with nothing prepared. -/
theorem startRelated (der : Derivation) {d : Derived} {S : RState} (h : start d = some S) : Rel der S.core S :=
  ⟨rfl, by
    simp only [start] at h
    cases hs : safeSet (build d.inst) with
    | nil => rw [hs] at h; exact Option.noConfusion h
    | cons a l =>
      rw [hs] at h
      have e := Option.some.inj h
      rw [← e]
      intro v p hm
      exact absurd hm notMemNil⟩

-- FreshAlloc is satisfiable by every derivation -----------------------------------------------------

/-- One more than the sum: above every member. -/
def sumPlus : List Nat → Nat
  | [] => 1
  | a :: l => a + sumPlus l

theorem sumPlusPos : ∀ (l : List Nat), 0 < sumPlus l
  | [] => Nat.leRefl 1
  | a :: l => Nat.leTrans (sumPlusPos l) (Nat.leAddLeft (sumPlus l) a)

theorem ltSumPlus {x : Nat} : ∀ {l : List Nat}, x ∈ l → x < sumPlus l
  | _, Mem.head l => Nat.addLeAddLeft (sumPlusPos l) x
  | _, Mem.tail a h => Nat.leTrans (ltSumPlus h) (Nat.leAddLeft _ a)

/-- A version above every active and closed one. -/
def freshVersion (c : Core) : Nat := sumPlus (etaList c.eta ++ c.closed)

/-- Any derivation with `η⁺` re-allocated above every allocated version. -/
def freshen (der : Derivation) : Derivation := fun c u =>
  match der c u with
  | none => none
  | some d => some { d with etaNew := freshVersion c }

theorem memBTrue {a : Nat} {l : List Nat} (h : memB a l = true) : a ∈ l := by
  have ⟨y, hy, hb⟩ := anyBElim h
  rw [← beqEq hb]; exact hy

/-- `freshen der` allocates a fresh `η⁺`, so the weak bisimulation holds for it whatever `der` is. -/
theorem freshenAlloc (der : Derivation) : FreshAlloc (freshen der) := by
  intro c u d h
  have hd : d.etaNew = freshVersion c := by
    revert h
    simp only [freshen]
    cases der c u with
    | none => intro q; exact Option.noConfusion q
    | some d0 => intro q; rw [← Option.some.inj q]
  have notIn : ∀ l, (∀ x, x ∈ l → x ∈ etaList c.eta ++ c.closed) → memB d.etaNew l = false := by
    intro l hl
    cases q : memB d.etaNew l with
    | false => rfl
    | true =>
      have hm := hl _ (memBTrue q)
      rw [hd] at hm
      exact absurd (ltSumPlus hm) (Nat.ltIrrefl _)
  have h1 := notIn (etaList c.eta) (fun x hx => appendMemL _ hx)
  have h2 := notIn c.closed (fun x hx => appendMemR _ hx)
  simp only [unallocated, h1, h2]

end AgentWarrant.Edits.Machine

namespace AgentWarrant.Thm
open AgentWarrant.Edits.Machine

/-- The ideal–runtime weak bisimulation (A-L) in the machine model: when `Derive` allocates a fresh
`η⁺`, the relation "the ideal state is the runtime's record, and prepared content is sound" is a weak
bisimulation between the ideal machine and the runtime, labels being Agent-API observations (`api`)
or `τ` (accepted checks before the update, Preload, `NoCommit`, restart); it holds from the common
initial state; and every runtime event is a step of the runtime's transition system. -/
theorem idealRuntimeWeakBisimulation (der : Derivation) (hF : FreshAlloc der) :
    WeakBisim (IStep der) (RStep der) (Rel der) ∧
    (∀ d S, start d = some S → Rel der S.core S) ∧
    ∀ S e, ∃ l, RStep der S l (stepR der S e).2 :=
  ⟨fun c S hR => ⟨fun l c' h => idealMatched der hF c S hR l c' h,
      fun l S' h => runtimeMatched der c S hR l S' h⟩,
    fun _ _ h => startRelated der h, stepRIsStep der⟩

/-- The hypothesis is met by every derivation once `η⁺` is allocated above every allocated version. -/
theorem weakBisimulationForFreshDerive (der : Derivation) :
    WeakBisim (IStep (freshen der)) (RStep (freshen der)) (Rel (freshen der)) :=
  (idealRuntimeWeakBisimulation (freshen der) (freshenAlloc der)).1

end AgentWarrant.Thm
