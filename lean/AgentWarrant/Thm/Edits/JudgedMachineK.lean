import AgentWarrant.Thm.Edits.DeriveFork
import AgentWarrant.Thm.Edits.JudgedMachine
import AgentWarrant.Thm.Edits.RecheckContract
/-! The ideal edit transition and exact checking (*When Can Agents Safely Checkpoint, Fork, Restore, and
Merge?*, Appendix A-A "the ideal edit transition", Section VII "exact checking", Lemma 2, Lemma 4,
Lemma 8, Table I) with the machine model's `Derive` the Lean edit judgment including the Fork rows'
continuation steps (`derJK src tab`, `judgeA` = `judge` or `judgeK`; `Spec/Edits/DeriveFork.lean`).

- `forkChoiceKExact`, `forkParallelKExact`: A-D1's row exactness for the Fork rows with steps (the
  target's results are exactly those covering a required source result);
- `judgedKCoverWitnesses`: every instance of `JudgedK` (a `Judged` instance, a `judgeK` record's
  instance, A-D2's extension over one) has `CoverWitnesses`; Lemma 4 and Lemma 8 for it with
  `PrefixClosed` the only hypothesis (`judgedKLemma4`, `judgedKLemma8`);
- `derJKCheck`: every instance the machine checks under `derJK` is `JudgedK`, with `CoverWitnesses`,
  and the checker accepts iff it has a safe execution set, then with its maximal safe pair;
- `idealEditJudgedK`, `readyJudgedK`: the ideal edit transition and the runtime's readiness with
  `Derive = derJK src tab`, for any source reader and request table;
- `derJLift`: `derJ` is `derJK` on a table of `judge`'s requests, so the results for `derJ`
  (`derJ0`: the machine model's `der0`) are instances;
- templates instantiated by the judgment (`instK`, `judgeKT`): the fresh-identifier premises hold by
  construction (`instFresh`, `instSides`, injectivity) and the target's calls are unique whenever the
  region's and the templates' are (`instChoiceNodup`, `instParallelNodup`); ForkParallel then derives
  on every well-formed region and templates (`judgeKTParallelDerives`: the target's well-formedness is
  derived, not only decided); for ForkChoice the partial-constructor premise is not implied by
  freshness and stays decided (`judgeKTChoiceNeedsDefined`, a well-formed region and templates the
  judgment refuses); with it, ForkChoice derives too (`judgeKTChoiceDerives`). -/
namespace AgentWarrant.Edits.DeriveFork
open AgentWarrant AgentWarrant.Edits AgentWarrant.Edits.DeriveCover

-- A-D1 for the Fork rows with steps ----------------------------------------------------------------

theorem forkChoiceKExact (g : Nat) (fL fR : Nat → Nat) (EL ER C : Tm) :
    (forkChoiceK g fL fR EL ER C).RowExact := by
  intro x
  constructor
  · intro h
    have h' : x ∈ List.map (tagOut g false) (prodOut true (C.clone fL).outs EL.outs) ++
        List.map (tagOut g true) (prodOut true (C.clone fR).outs ER.outs) := h
    cases memAppend h' with
    | inl h1 =>
      have ⟨y, hy, ex⟩ := memMap h1
      have ⟨a, e, ha, he, ey⟩ := memProd hy
      have ⟨o, ho, ea⟩ := cloneOutsInv fL C a ha
      rw [ex, ey, ea]
      exact ⟨(false, o), appendMemL _ (tagMem ho), rfl, e, he, rfl⟩
    | inr h2 =>
      have ⟨y, hy, ex⟩ := memMap h2
      have ⟨a, e, ha, he, ey⟩ := memProd hy
      have ⟨o, ho, ea⟩ := cloneOutsInv fR C a ha
      rw [ex, ey, ea]
      exact ⟨(true, o), appendMemR _ (tagMem ho), rfl, e, he, rfl⟩
  · intro ⟨r, hr, _, e, he, ex⟩
    rw [ex]
    cases memTwo (C1 := C) (C2 := C) hr with
    | inl h =>
      have ⟨o, ho, eq⟩ := h
      subst eq
      exact appendMemL _ (mapMem (f := tagOut g false) (prodMemOf (cloneOuts fL C o ho) he))
    | inr h =>
      have ⟨o, ho, eq⟩ := h
      subst eq
      exact appendMemR _ (mapMem (f := tagOut g true) (prodMemOf (cloneOuts fR C o ho) he))

theorem forkParallelKExact (fL fR : Nat → Nat) (EL ER C : Tm) : (forkParallelK fL fR EL ER C).RowExact := by
  intro x
  constructor
  · intro h
    have h' : x ∈ prodOut false (prodOut true (C.clone fL).outs EL.outs)
        (prodOut true (C.clone fR).outs ER.outs) := h
    have ⟨a, b, ha, hb, ex⟩ := memProd h'
    have ⟨a1, e, ha1, he, ea⟩ := memProd ha
    have ⟨b1, e', hb1, he', eb⟩ := memProd hb
    have ⟨o, ho, ea1⟩ := cloneOutsInv fL C a1 ha1
    have ⟨o', ho', eb1⟩ := cloneOutsInv fR C b1 hb1
    rw [ex, ea, eb, ea1, eb1]
    exact ⟨(false, o), appendMemL _ (tagMem ho), rfl, o', e, e', ho', he, he', rfl⟩
  · intro ⟨r, hr, _, hrel⟩
    cases memTwo (C1 := C) (C2 := C) hr with
    | inl h =>
      have ⟨o, ho, eq⟩ := h
      subst eq
      have ⟨o', e, e', ho', he, he', ex⟩ := hrel
      rw [ex]
      exact prodMemOf (prodMemOf (cloneOuts fL C o ho) he) (prodMemOf (cloneOuts fR C o' ho') he')
    | inr h =>
      have ⟨o, ho, eq⟩ := h
      subst eq
      have ⟨o', e, e', ho', he, he', ex⟩ := hrel
      rw [ex]
      exact prodMemOf (prodMemOf (cloneOuts fL C o' ho') he) (prodMemOf (cloneOuts fR C o ho) he')

theorem recordKExact (T : Tm) : ∀ q, (recordK T q).RowExact
  | KReq.forkChoice g EL ER => forkChoiceKExact g dblL dblR EL ER T
  | KReq.forkParallel EL ER => forkParallelKExact dblL dblR EL ER T

/-- Lemma 2 for `judgeK`'s records: a well-formed source and target, every required result covered,
the row's record (A-D1), `CoverWitnesses` for every instance. -/
theorem judgeKLemma2 {T : Tm} {q : KReq} {D : Derived} (h : judgeK T q = some D) :
    D = recordK T q ∧ WellFormedTm T ∧ WellFormedTm D.target ∧ D.Covered ∧ D.RowExact ∧
    ∀ act lab log (A : List Nat → Prop), (D.theta act lab log A).CoverWitnesses := by
  have ⟨e, h1, h2⟩ := judgeKSome h
  refine ⟨e, wfBSound h1, ?_, ?_, ?_, judgeKCoverWitnesses h⟩
  · rw [e]; exact wfBSound h2
  · rw [e]; exact recordKCovered T q
  · rw [e]; exact recordKExact T q

-- Instances of the judgment with continuation steps ---------------------------------------------------

theorem judgedKAllComplete : ∀ {θ : Theta}, JudgedK θ → AllComplete θ
  | _, JudgedK.base h => judgedAllComplete h
  | _, JudgedK.fork h act lab log A => by
    have ⟨e, _, h2⟩ := judgeKSome h
    subst e
    exact derivedAllComplete _ (wfBSound h2).1 act lab log A
  | _, JudgedK.extend h A' => extendAllComplete (judgedKAllComplete h) A'
  | _, JudgedK.extendAfter _ z _ => afterAllComplete _ z

/-- Lemma 2's coverage conclusion for every instance the judgment with continuation steps derives. -/
theorem judgedKCoverWitnesses : ∀ {θ : Theta}, JudgedK θ → θ.CoverWitnesses
  | _, JudgedK.base h => judgedCoverWitnesses h
  | _, JudgedK.fork h act lab log A => judgeKCoverWitnesses h act lab log A
  | _, JudgedK.extend h A' => extendCoverWitnesses (judgedKAllComplete h) A'
  | _, JudgedK.extendAfter _ z A' => extendCoverWitnesses (afterAllComplete _ z) A'

/-- Lemma 4 for every `JudgedK` instance, `PrefixClosed` the only hypothesis. -/
theorem judgedKLemma4 {θ : Theta} (h : JudgedK θ) (hA : θ.PrefixClosed) :
    ((∃ L B, θ.Safe L B) ↔ θ.SafeEdit) ∧ (θ.SafeEdit → θ.Safe θ.Wdag θ.Bdag) ∧
    ∀ L B, θ.Safe L B → (∀ c, B c → θ.Bdag c) ∧ (∀ z, L z → θ.Wdag z) :=
  Theta.lemma4 hA (judgedKCoverWitnesses h)

/-- Lemma 8 for every `JudgedK` instance, `PrefixClosed` the only hypothesis. -/
theorem judgedKLemma8 {θ : Theta} (h : JudgedK θ) (hA : θ.PrefixClosed) :
    ((∃ L B, θ.MaxSafe L B) ↔ θ.SafeEdit) ∧
    ∀ L B, θ.MaxSafe L B → (∀ z, L z ↔ θ.Wdag z) ∧ (∀ c, B c ↔ θ.Bdag c) :=
  Theta.lemma8 hA (judgedKCoverWitnesses h)

/-- Every instance of a record `judgeA` derives is `JudgedK`. -/
theorem judgeAJudged {T : Tm} {K : Nat → Option Tm} {r : AReq} {D : Derived} (h : judgeA T K r = some D)
    (act lab log : List Nat) (A : List Nat → Prop) : JudgedK (D.theta act lab log A) := by
  cases r with
  | base r => exact JudgedK.base (judgeJudged (r := r) h act lab log A)
  | fork q => exact JudgedK.fork (q := q) h act lab log A
  | forkT q => exact JudgedK.fork (T := T) (q := instK T q) h act lab log A

-- `Derive` with continuation steps in the machine model -----------------------------------------------

/-- The instance the machine checks for an edit with table entry `e` and record `D`, at record `c`. -/
def thetaAtK (e : EntryA) (D : Derived) (c : Machine.Core) : Theta :=
  D.theta e.act e.lab (Machine.logActions c) (fun w => dfaAccepts e.dfa w = true)

theorem derJKSome {src : Machine.Core → Tm × (Nat → Option Tm)} {tab : Nat → Option EntryA}
    {c : Machine.Core} {u : Nat} {d : Machine.Derived} (h : derJK src tab c u = some d) :
    ∃ e D, tab u = some e ∧ judgeA (src c).1 (src c).2 e.req = some D ∧
      d = ⟨inputOf D e.act e.lab (Machine.logActions c) e.dfa, e.calls, e.names, e.etaNew, []⟩ := by
  cases ht : tab u with
  | none => simp only [derJK, ht] at h <;> exact Option.noConfusion h
  | some e =>
    cases hj : judgeA (src c).1 (src c).2 e.req with
    | none => simp only [derJK, ht, hj] at h <;> exact Option.noConfusion h
    | some D =>
      simp only [derJK, ht, hj] at h
      exact ⟨e, D, rfl, hj, (someInj h).symm⟩

/-- With `Derive` the judgment with continuation steps, every instance the machine checks is
`JudgedK`, with `CoverWitnesses`, and the checker accepts iff it has a safe execution set, then with
the instance's maximal safe pair. -/
theorem derJKCheck (src : Machine.Core → Tm × (Nat → Option Tm)) (tab : Nat → Option EntryA)
    (c : Machine.Core) (u : Nat) (d : Machine.Derived) (h : derJK src tab c u = some d) :
    ∃ e D, tab u = some e ∧ judgeA (src c).1 (src c).2 e.req = some D ∧
      d.inst = inputOf D e.act e.lab (Machine.logActions c) e.dfa ∧
      JudgedK (thetaAtK e D c) ∧ (thetaAtK e D c).CoverWitnesses ∧
      (accepts (build d.inst) = true ↔ ∃ L B, (thetaAtK e D c).Safe L B) ∧
      (accepts (build d.inst) = true →
        (thetaAtK e D c).MaxSafe (thetaAtK e D c).Wdag (fun x => x ∈ safeSet (build d.inst))) := by
  have ⟨e, D, ht, hj, hd⟩ := derJKSome h
  subst hd
  have hJ := judgeAJudged hj e.act e.lab (Machine.logActions c) (fun w => dfaAccepts e.dfa w = true)
  have hcov := judgedKCoverWitnesses hJ
  have hx := checkerExactFromInput (presentsDerived D e.act e.lab (Machine.logActions c) e.dfa) hcov
  exact ⟨e, D, ht, hj, rfl, hJ, hcov, hx.1, hx.2⟩

/-- The ideal edit transition with `Derive` the edit judgment with continuation steps. -/
theorem idealEditJudgedK (src : Machine.Core → Tm × (Nat → Option Tm)) (tab : Nat → Option EntryA)
    (c : Machine.Core) (u : Nat) :
    (derJK src tab c u = none →
      (Machine.editI (derJK src tab) c u).2 = c ∧
      Machine.answerObs (Machine.check (derJK src tab) c u) = Machine.Obs.invalid) ∧
    ∀ d, derJK src tab c u = some d → ∃ e D, tab u = some e ∧ judgeA (src c).1 (src c).2 e.req = some D ∧
      d.inst = inputOf D e.act e.lab (Machine.logActions c) e.dfa ∧
      JudgedK (thetaAtK e D c) ∧ (thetaAtK e D c).CoverWitnesses ∧
      ((¬ ∃ L B, (thetaAtK e D c).Safe L B) →
        (Machine.editI (derJK src tab) c u).2 = c ∧
        Machine.answerObs (Machine.check (derJK src tab) c u) = Machine.Obs.rejected) ∧
      ((∃ L B, (thetaAtK e D c).Safe L B) →
        (Machine.editI (derJK src tab) c u).2 = Machine.install c d (safeSet (build d.inst)) ∧
        Machine.answerObs (Machine.check (derJK src tab) c u) = Machine.Obs.accepted ∧
        (thetaAtK e D c).MaxSafe (thetaAtK e D c).Wdag (fun x => x ∈ safeSet (build d.inst))) := by
  have ⟨_, hN, hR, hA⟩ := Machine.editAnswersAgree (derJK src tab) c u
  refine ⟨hN, fun d hd => ?_⟩
  have ⟨e, D, ht, hj, hi, hJ, hcov, hiff, hmax⟩ := derJKCheck src tab c u d hd
  refine ⟨e, D, ht, hj, hi, hJ, hcov, fun hno => ?_, fun hs => ?_⟩
  · have hempty : safeSet (build d.inst) = [] := by
      cases hss : safeSet (build d.inst) with
      | nil => rfl
      | cons s ss => exact absurd (hiff.1 (acceptsOfSafeSet hss)) hno
    exact hR d hd hempty
  · have hacc := hiff.2 hs
    have ⟨h1, h2⟩ := hA d hd (JudgedMachine.safeSetNeIff.2 hacc)
    exact ⟨h1, h2, hmax hacc⟩

/-- The runtime's readiness with `Derive` the edit judgment with continuation steps. -/
theorem readyJudgedK (src : Machine.Core → Tm × (Nat → Option Tm)) (tab : Nat → Option EntryA)
    (c : Machine.Core) (u : Nat) :
    (∃ d, Machine.ready (derJK src tab) c u (Machine.check (derJK src tab) c u) = Except.ok d) ↔
    ∃ d e D, derJK src tab c u = some d ∧ tab u = some e ∧ judgeA (src c).1 (src c).2 e.req = some D ∧
      (∃ L B, (thetaAtK e D c).Safe L B) ∧ Machine.unallocated c d.etaNew = true := by
  rw [Machine.readyIffAccepted]
  constructor
  · intro ⟨d, hd, hn, hu⟩
    have ⟨e, D, ht, hj, _, _, _, hiff, _⟩ := derJKCheck src tab c u d hd
    exact ⟨d, e, D, hd, ht, hj, hiff.1 (JudgedMachine.safeSetNeIff.1 hn), hu⟩
  · intro ⟨d, e, D, hd, ht, hj, hs, hu⟩
    have ⟨e', D', ht', hj', _, _, _, hiff, _⟩ := derJKCheck src tab c u d hd
    have ee : e = e' := Option.some.inj (ht.symm.trans ht')
    subst ee
    have eD : D = D' := Option.some.inj (hj.symm.trans hj')
    subst eD
    exact ⟨d, hd, JudgedMachine.safeSetNeIff.2 (hiff.2 hs), hu⟩

/-- `derJ` is `derJK` on a table of `judge`'s requests. -/
theorem derJLift (src : Machine.Core → Tm × (Nat → Option Tm)) (tab : Nat → Option Entry) :
    derJ src tab = derJK src (liftTab tab) := by
  apply funext; intro c; apply funext; intro u
  cases ht : tab u with
  | none => simp only [derJ, derJK, liftTab, ht] <;> rfl
  | some e =>
    cases hj : judge (src c).1 (src c).2 e.req with
    | none => simp only [derJ, derJK, liftTab, liftEntry, judgeA, ht, hj] <;> rfl
    | some D => simp only [derJ, derJK, liftTab, liftEntry, judgeA, ht, hj] <;> rfl

/-- The machine model's fixed derivation `der0` is `derJK` on `tab0`'s requests. -/
theorem derJK0 : derJK src0 (liftTab tab0) = Reach.der0 := by
  rw [← derJLift]; exact derJ0

-- Continuation templates instantiated by the judgment ------------------------------------------------

theorem boundGt : ∀ {l : List Nat} {x : Nat}, x ∈ l → x < bound l
  | c :: l, _, Mem.head _ => Nat.leAddRight (c + 1) (bound l)
  | c :: l, _, Mem.tail _ h => Nat.leTrans (boundGt h) (Nat.leAddLeft (bound l) (c + 1))

theorem ltNeAdd {c n : Nat} (hc : c < n) (t : Nat) : c ≠ n + t := fun e => by
  rw [e] at hc
  exact Nat.notSuccLeSelf _ (Nat.leTrans hc (Nat.leAddRight n t))

theorem addLeftCancel {a b : Nat} : ∀ n : Nat, n + a = n + b → a = b
  | 0, h => by rw [Nat.zero_add, Nat.zero_add] at h; exact h
  | n + 1, h => addLeftCancel n (by rw [Nat.succ_add, Nat.succ_add] at h; exact Nat.succ.inj h)

theorem instLInj (n : Nat) : ∀ a b, instL n a = instL n b → a = b :=
  fun a b e => addLeftCancel n (dblLInj _ _ e)

theorem instRInj (n : Nat) : ∀ a b, instR n a = instR n b → a = b :=
  fun a b e => addLeftCancel n (dblRInj _ _ e)

/-- The fresh-identifier premises hold by construction: an instantiated step's call is neither copy's
call of any call of the region, and the two sides' steps are apart. -/
theorem instFresh (T : Tm) (t c : Nat) (hc : c ∈ T.calls) :
    dblL c ≠ instL (bound T.calls) t ∧ dblR c ≠ instL (bound T.calls) t ∧
    dblL c ≠ instR (bound T.calls) t ∧ dblR c ≠ instR (bound T.calls) t :=
  ⟨fun e => ltNeAdd (boundGt hc) t (dblLInj _ _ e), fun e => dblDisjoint _ _ e.symm,
   fun e => dblDisjoint _ _ e, fun e => ltNeAdd (boundGt hc) t (dblRInj _ _ e)⟩

theorem instSides (n a b : Nat) : instL n a ≠ instR n b := dblDisjoint _ _

/-- The calls of both Fork targets with instantiated templates (the two copies, each with its steps) are
unique whenever the region's and the templates' are. -/
theorem instCallsNodup (T TL TR : Tm) (hT : Nodup T.calls) (hL : Nodup TL.calls) (hR : Nodup TR.calls) :
    Nodup (((T.clone dblL).calls ++ (TL.clone (instL (bound T.calls))).calls) ++
      ((T.clone dblR).calls ++ (TR.clone (instR (bound T.calls))).calls)) := by
  rw [cloneCalls, cloneCalls, cloneCalls, cloneCalls]
  refine nodupAppendIntro (nodupAppendIntro (nodupMap dblLInj hT) (nodupMap (instLInj _) hL) ?_)
    (nodupAppendIntro (nodupMap dblRInj hT) (nodupMap (instRInj _) hR) ?_) ?_
  · intro x hx hy
    have ⟨c, hc, e1⟩ := memMap hx
    have ⟨t, _, e2⟩ := memMap hy
    exact (instFresh T t c hc).1 (e1.symm.trans e2)
  · intro x hx hy
    have ⟨c, hc, e1⟩ := memMap hx
    have ⟨t, _, e2⟩ := memMap hy
    exact (instFresh T t c hc).2.2.2 (e1.symm.trans e2)
  · intro x hx hy
    cases memAppend hx with
    | inl h1 =>
      have ⟨c, hc, e1⟩ := memMap h1
      cases memAppend hy with
      | inl h2 => have ⟨c', _, e2⟩ := memMap h2; exact dblDisjoint c c' (e1.symm.trans e2)
      | inr h2 => have ⟨t, _, e2⟩ := memMap h2; exact (instFresh T t c hc).2.2.1 (e1.symm.trans e2)
    | inr h1 =>
      have ⟨t, _, e1⟩ := memMap h1
      cases memAppend hy with
      | inl h2 =>
        have ⟨c', hc', e2⟩ := memMap h2
        exact (instFresh T t c' hc').2.1 (e2.symm.trans e1)
      | inr h2 => have ⟨t', _, e2⟩ := memMap h2; exact instSides _ t t' (e1.symm.trans e2)

/-- For a Fork request with templates, the target's calls are unique whenever the region's and the
templates' are: uniqueness is derived from the fresh instantiation, not decided. -/
theorem instChoiceNodup (T : Tm) (g : Nat) (TL TR : Tm) (hT : Nodup T.calls) (hL : Nodup TL.calls)
    (hR : Nodup TR.calls) : Nodup (recordK T (instK T (TReq.forkChoice g TL TR))).target.calls :=
  instCallsNodup T TL TR hT hL hR

theorem instParallelNodup (T : Tm) (TL TR : Tm) (hT : Nodup T.calls) (hL : Nodup TL.calls)
    (hR : Nodup TR.calls) : Nodup (recordK T (instK T (TReq.forkParallel TL TR))).target.calls :=
  instCallsNodup T TL TR hT hL hR

/-- Lemma 2 for Fork requests with templates: the records `judgeK` derives on the instantiated request. -/
theorem judgeKTLemma2 {T : Tm} {q : TReq} {D : Derived} (h : judgeKT T q = some D) :
    D = recordK T (instK T q) ∧ WellFormedTm T ∧ WellFormedTm D.target ∧ D.Covered ∧ D.RowExact ∧
    ∀ act lab log (A : List Nat → Prop), (D.theta act lab log A).CoverWitnesses :=
  judgeKLemma2 h

/-- ForkParallel with templates derives on every well-formed region with well-formed templates: the
target's well-formedness (unique calls, complete results, every constructor defined) follows from the
fresh instantiation, so the decided check never refuses. -/
theorem judgeKTParallelDerives (T TL TR : Tm) (hT : WellFormedTm T) (hL : WellFormedTm TL)
    (hR : WellFormedTm TR) :
    judgeKT T (TReq.forkParallel TL TR) = some (recordK T (instK T (TReq.forkParallel TL TR))) := by
  have hnd := instCallsNodup T TL TR hT.1 hL.1 hR.1
  have ⟨hA, hB, _⟩ := nodupAppend hnd
  have hdef : Defined (recordK T (instK T (TReq.forkParallel TL TR))).target :=
    definedJoin false (l := Tm.seq (T.clone dblL) (TL.clone (instL (bound T.calls))))
      (r := Tm.seq (T.clone dblR) (TR.clone (instR (bound T.calls))))
      (definedJoin true (l := T.clone dblL) (r := TL.clone (instL (bound T.calls)))
        (definedClone dblLInj hT.2.2) (definedClone (instLInj _) hL.2.2) hA)
      (definedJoin true (l := T.clone dblR) (r := TR.clone (instR (bound T.calls)))
        (definedClone dblRInj hT.2.2) (definedClone (instRInj _) hR.2.2) hB) hnd
  have hwf : WellFormedTm (recordK T (instK T (TReq.forkParallel TL TR))).target :=
    ⟨hnd, outsComplete _ hnd, hdef⟩
  show judgeK T (instK T (TReq.forkParallel TL TR)) = _
  simp only [judgeK, wfBComplete hT, wfBComplete hwf]
  rfl

/-- ForkChoice with templates derives on every well-formed region and templates that meet the choice
constructor's partial-constructor premise (no complete sequence of one extended copy properly
extends one of the other's): the rest of the target's well-formedness is derived from the fresh
instantiation. -/
theorem judgeKTChoiceDerives (T : Tm) (g : Nat) (TL TR : Tm) (hT : WellFormedTm T) (hL : WellFormedTm TL)
    (hR : WellFormedTm TR)
    (hx : ∀ o o' v v', o ∈ (Tm.seq (T.clone dblL) (TL.clone (instL (bound T.calls)))).outs →
      o' ∈ (Tm.seq (T.clone dblR) (TR.clone (instR (bound T.calls)))).outs → Lin o.pom v → Lin o'.pom v' →
      (IsPrefix v v' → v = v') ∧ (IsPrefix v' v → v' = v)) :
    judgeKT T (TReq.forkChoice g TL TR) = some (recordK T (instK T (TReq.forkChoice g TL TR))) := by
  have hnd := instCallsNodup T TL TR hT.1 hL.1 hR.1
  have ⟨hA, hB, _⟩ := nodupAppend hnd
  have hdef : Defined (recordK T (instK T (TReq.forkChoice g TL TR))).target :=
    definedChoice g (l := Tm.seq (T.clone dblL) (TL.clone (instL (bound T.calls))))
      (r := Tm.seq (T.clone dblR) (TR.clone (instR (bound T.calls))))
      (definedJoin true (l := T.clone dblL) (r := TL.clone (instL (bound T.calls)))
        (definedClone dblLInj hT.2.2) (definedClone (instLInj _) hL.2.2) hA)
      (definedJoin true (l := T.clone dblR) (r := TR.clone (instR (bound T.calls)))
        (definedClone dblRInj hT.2.2) (definedClone (instRInj _) hR.2.2) hB) hx
  have hwf : WellFormedTm (recordK T (instK T (TReq.forkChoice g TL TR))).target :=
    ⟨hnd, outsComplete _ hnd, hdef⟩
  show judgeK T (instK T (TReq.forkChoice g TL TR)) = _
  simp only [judgeK, wfBComplete hT, wfBComplete hwf]
  rfl

/-- For ForkChoice, freshness does not give the partial-constructor premise, so the judgment decides it:
on the well-formed region `nil` (a finished branch) with the well-formed templates `nil` and `x`, the
left copy's complete sequence `[]` properly prefixes the right copy's, and nothing is derived. -/
theorem judgeKTChoiceNeedsDefined :
    WellFormedTm Tm.nil ∧ WellFormedTm (Tm.call 0) ∧
    judgeKT Tm.nil (TReq.forkChoice 0 Tm.nil (Tm.call 0)) = none :=
  ⟨wfBSound rfl, wfBSound rfl, rfl⟩

end AgentWarrant.Edits.DeriveFork

namespace AgentWarrant.Thm
open AgentWarrant.Edits

/-- The ideal edit transition (A-A) with `Derive` the Lean edit judgment including the Fork rows'
continuation steps: `Invalid` (state kept) when the judgment derives nothing; `Reject` (state kept)
exactly when the derived instance has no safe execution set; else `Accepted`, installing the checker's
set, which with `W†` is its maximal safe pair. -/
theorem idealEditUnderEditJudgmentWithSteps (src : Machine.Core → Tm × (Nat → Option Tm))
    (tab : Nat → Option DeriveFork.EntryA) (c : Machine.Core) (u : Nat) (d : Machine.Derived)
    (hd : DeriveFork.derJK src tab c u = some d) :
    ∃ e D, tab u = some e ∧ DeriveFork.judgeA (src c).1 (src c).2 e.req = some D ∧
      ((¬ ∃ L B, (DeriveFork.thetaAtK e D c).Safe L B) →
        (Machine.editI (DeriveFork.derJK src tab) c u).2 = c ∧
        Machine.answerObs (Machine.check (DeriveFork.derJK src tab) c u) = Machine.Obs.rejected) ∧
      ((∃ L B, (DeriveFork.thetaAtK e D c).Safe L B) →
        (Machine.editI (DeriveFork.derJK src tab) c u).2 = Machine.install c d (safeSet (build d.inst)) ∧
        Machine.answerObs (Machine.check (DeriveFork.derJK src tab) c u) = Machine.Obs.accepted ∧
        (DeriveFork.thetaAtK e D c).MaxSafe (DeriveFork.thetaAtK e D c).Wdag
          (fun x => x ∈ safeSet (build d.inst))) :=
  let ⟨e, D, ht, hj, _, _, _, hR, hA⟩ := (DeriveFork.idealEditJudgedK src tab c u).2 d hd
  ⟨e, D, ht, hj, hR, hA⟩

/-- Lemma 2's conclusions for the Fork rows with continuation steps, row exactness (A-D1) included. -/
theorem forkWithStepsLemma2 {T : Tm} {q : DeriveFork.KReq} {D : Derived} (h : DeriveFork.judgeK T q = some D) :
    WellFormedTm T ∧ WellFormedTm D.target ∧ D.Covered ∧ D.RowExact ∧
    ∀ act lab log (A : List Nat → Prop), (D.theta act lab log A).CoverWitnesses :=
  let ⟨_, h1, h2, h3, h4, h5⟩ := DeriveFork.judgeKLemma2 h
  ⟨h1, h2, h3, h4, h5⟩

end AgentWarrant.Thm
