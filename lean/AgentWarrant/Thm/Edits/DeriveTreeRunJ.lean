import AgentWarrant.Spec.Edits.DeriveTreeRunJ
import AgentWarrant.Thm.Edits.DeriveTreeSrc
import AgentWarrant.Thm.Edits.RecheckContract
/-! The trees of the runtime and ideal oracles' machines (`derRunJ`, `Spec/Edits/DeriveTreeRunJ.lean`;
*When Can Agents Safely Checkpoint, Fork, Restore, and Merge?*, Table I, Section IV-B1):
- a tree step of `runJTab` is the record's tree, its `HStep`, `applyEdit` with Lean's names of the change
  `Derive` names for an entry without a judged request, or `applyEdit` with Lean's names of the judged
  change (`runJEdit`: `judgedTEdit` with the fresh calls named by `out`) for an entry with one, whose
  judgment is defined, whose terms pass the source check where the row copies a source and whose `out` is
  one-to-one on the judged contracts' calls (`runJTreeStep`; `runJOutInjIff`, `runJTabOutRefused`) and
  names none of them as a call of a leaf the change keeps or a call the record has processed
  (`runJStaleCalls`; `runJOutFreshIff`, `runJTabOutStaleRefused`, `runJTabOutProcRefused`);
- under that check no call of an installed contract is a call of a kept leaf or a processed call
  (`runJOutFreshStale`, `runJOutFreshInstalled`, `runJRenameCalls`);
- under that check the installed contracts are the judged ones, each pomset renamed by `out`, which keeps
  events and order up to renaming (`runJOutFaithful`, `runJRenamePomFaithful`);
- so on the runtime machine (`stepTreeRunJ`) and on the ideal machine (`stepITreeRunJ`) every step's tree
  is one of these. Where the check holds, `forkArmsAreResidual`, `forkStepArmsAreResidual` and
  `restoreIsStored` (with `src := runJSrc j`) say what the judged contracts are: the edited leaf's or the
  stored copy's `Γ/raw(χ)` under the copy renamings (`runJForkArms` states it for `judge`'s Fork rows,
  `runJRestoreIsStored` for the Restore rows). -/
namespace AgentWarrant.Edits.DeriveTreeRunJ
open AgentWarrant AgentWarrant.Edits AgentWarrant.Edits.Machine AgentWarrant.Edits.DeriveTreeJudged
open AgentWarrant.Edits.DeriveTreeSrc AgentWarrant.Edits.DeriveCover AgentWarrant.Edits.DeriveFork

/-- The trees a step of `derRunJ der` may leave at the record `c`. -/
def RunJTree (der : Core → Nat → Option ((Machine.Derived × TEdit) × Option RunJReq)) (c : Core) (t' : Tree) :
    Prop :=
  t' = c.tree ∨ (∃ x, t' = hstep c.tree x) ∨
    (∃ u d e, der c u = some ((d, e), none) ∧ applyEdit c.tree (leanNames c.tree (reserved c) e) = some t') ∨
    (∃ u d e j D, der c u = some ((d, e), some j) ∧ judgeA j.region j.store j.req = some D ∧
      (readsLeaf j.req = true → srcAgreesB (runJSrc j) c (editTarget e) = true) ∧
      runJOutInjB j.out (runJCalls j D (editTarget e)) = true ∧
      runJOutFreshB j.out (runJCalls j D (editTarget e))
        (runJStaleCalls c (runJFreshGone (runJEdit j D (editTarget e)))) = true ∧
      applyEdit c.tree (leanNames c.tree (reserved c) (runJEdit j D (editTarget e))) = some t')

theorem runJTreeStep {der : Core → Nat → Option ((Machine.Derived × TEdit) × Option RunJReq)} {c : Core}
    {t' : Tree} (h : TreeStep (runJTab der) c t') : RunJTree der c t' := by
  cases h with
  | inl h => exact Or.inl h
  | inr h => cases h with
    | inl h => exact Or.inr (Or.inl h)
    | inr h =>
      have ⟨u, d1, te, ht, ha⟩ := h
      cases hd : der c u with
      | none => simp only [runJTab, hd] at ht
      | some p => cases p with
        | mk de oj => cases de with
          | mk d e => cases oj with
            | none =>
              simp only [runJTab, hd] at ht
              have ⟨_, h2⟩ := Prod.mk.inj (Option.some.inj ht)
              rw [← h2] at ha
              exact Or.inr (Or.inr (Or.inl ⟨u, d, e, hd, ha⟩))
            | some j =>
              cases hb : runJAgrees j c (editTarget e) with
              | false => simp only [runJTab, hd, hb] at ht
              | true =>
                have hs : readsLeaf j.req = true → srcAgreesB (runJSrc j) c (editTarget e) = true := fun hr => by
                  have hb2 : (!readsLeaf j.req || srcAgreesB (runJSrc j) c (editTarget e)) = true := hb
                  rw [hr] at hb2
                  exact hb2
                cases hj : judgeA j.region j.store j.req with
                | none => simp only [runJTab, hd, hb, hj] at ht
                | some D =>
                  cases hi : runJOutInjB j.out (runJCalls j D (editTarget e)) with
                  | false => simp only [runJTab, hd, hb, hj, hi] at ht
                  | true =>
                    cases hf : runJOutFreshB j.out (runJCalls j D (editTarget e))
                        (runJStaleCalls c (runJFreshGone (runJEdit j D (editTarget e)))) with
                    | false => simp only [runJTab, hd, hb, hj, hi, hf] at ht
                    | true =>
                      simp only [runJTab, hd, hb, hj, hi, hf] at ht
                      have ⟨_, h2⟩ := Prod.mk.inj (Option.some.inj ht)
                      rw [← h2] at ha
                      exact Or.inr (Or.inr (Or.inr ⟨u, d, e, j, D, hd, hj, hs, hi, hf, ha⟩))

/-- `runJOutInjB` decides that `f` is one-to-one on `l`. -/
theorem runJOutInjIff {f : Nat → Nat} {l : List Nat} :
    runJOutInjB f l = true ↔ ∀ a b, a ∈ l → b ∈ l → f a = f b → a = b := by
  constructor
  · intro h a b ha hb he
    have h2 : (!(Nat.beq (f a) (f b)) || Nat.beq a b) = true := allBElim (allBElim h a ha) b hb
    rw [he, natBeqSelf] at h2
    exact beqEq h2
  · intro h
    apply allBIntro
    intro a ha
    show allB _ l = true
    apply allBIntro
    intro b hb
    show (!(Nat.beq (f a) (f b)) || Nat.beq a b) = true
    cases hab : Nat.beq (f a) (f b) with
    | false => rfl
    | true =>
      have e := h a b ha hb (beqEq hab)
      rw [e, natBeqSelf]
      rfl

/-- A judged entry whose `out` names two of the judged contracts' calls alike has no derivation, whatever
the source check says. -/
theorem runJTabOutRefused {der : Core → Nat → Option ((Machine.Derived × TEdit) × Option RunJReq)} {c : Core}
    {u : Nat} {d : Machine.Derived} {e : TEdit} {j : RunJReq} {D : Edits.Derived}
    (hd : der c u = some ((d, e), some j)) (hj : judgeA j.region j.store j.req = some D)
    (hi : runJOutInjB j.out (runJCalls j D (editTarget e)) = false) : runJTab der c u = none := by
  cases hb : runJAgrees j c (editTarget e) with
  | false => simp only [runJTab, hd, hb]; rfl
  | true => simp only [runJTab, hd, hb, hj, hi]; rfl

/-- `runJOutFreshB` decides that `f` sends no call of `l` into `r`. -/
theorem runJOutFreshIff {f : Nat → Nat} {l r : List Nat} :
    runJOutFreshB f l r = true ↔ ∀ a, a ∈ l → ¬ f a ∈ r := by
  constructor
  · intro h a ha hr
    have h2 : (!(memN (f a) r)) = true := allBElim h a ha
    rw [(memNIff (f a) r).mpr hr] at h2
    cases h2
  · intro h
    apply allBIntro
    intro a ha
    show (!(memN (f a) r)) = true
    rw [(memNFalseIff (f a) r).mpr (h a ha)]
    rfl

/-- A judged entry whose `out` names one of the judged contracts' calls as a call of a leaf the change
keeps or a call the record has processed has no derivation, whatever the other checks say. -/
theorem runJTabOutStaleRefused {der : Core → Nat → Option ((Machine.Derived × TEdit) × Option RunJReq)}
    {c : Core} {u : Nat} {d : Machine.Derived} {e : TEdit} {j : RunJReq} {D : Edits.Derived} {a : Nat}
    (hd : der c u = some ((d, e), some j)) (hj : judgeA j.region j.store j.req = some D)
    (ha : a ∈ runJCalls j D (editTarget e))
    (hk : j.out a ∈ runJStaleCalls c (runJFreshGone (runJEdit j D (editTarget e)))) :
    runJTab der c u = none := by
  have hf : runJOutFreshB j.out (runJCalls j D (editTarget e))
      (runJStaleCalls c (runJFreshGone (runJEdit j D (editTarget e)))) = false := by
    cases h : runJOutFreshB j.out (runJCalls j D (editTarget e))
        (runJStaleCalls c (runJFreshGone (runJEdit j D (editTarget e)))) with
    | false => rfl
    | true => exact absurd hk ((runJOutFreshIff.mp h) a ha)
  cases hb : runJAgrees j c (editTarget e) with
  | false => simp only [runJTab, hd, hb]; rfl
  | true => cases hi : runJOutInjB j.out (runJCalls j D (editTarget e)) with
    | false => simp only [runJTab, hd, hb, hj, hi]; rfl
    | true => simp only [runJTab, hd, hb, hj, hi, hf]; rfl

/-- A judged entry whose `out` names one of the judged contracts' calls as a call the record has processed
(the replaced branch's `χ_b` among them) has no derivation, whatever the other checks say. -/
theorem runJTabOutProcRefused {der : Core → Nat → Option ((Machine.Derived × TEdit) × Option RunJReq)}
    {c : Core} {u : Nat} {d : Machine.Derived} {e : TEdit} {j : RunJReq} {D : Edits.Derived} {a : Nat}
    (hd : der c u = some ((d, e), some j)) (hj : judgeA j.region j.store j.req = some D)
    (ha : a ∈ runJCalls j D (editTarget e)) (hp : j.out a ∈ runJProcCalls c) :
    runJTab der c u = none :=
  runJTabOutStaleRefused hd hj ha (appendMemR _ hp)

/-- Renaming by an `f` one-to-one on a pomset's calls keeps the pomset up to that renaming: a renamed call
is an event exactly when the call is, and two renamed calls are ordered exactly when the calls are. -/
theorem runJRenamePomFaithful {f : Nat → Nat} {p : Pomset}
    (h : ∀ a b, a ∈ runJPomCalls p → b ∈ runJPomCalls p → f a = f b → a = b) :
    (∀ a, a ∈ runJPomCalls p → (f a ∈ (renamePom f p).events ↔ a ∈ p.events)) ∧
    (∀ a b, a ∈ runJPomCalls p → b ∈ runJPomCalls p →
      ((f a, f b) ∈ (renamePom f p).order ↔ (a, b) ∈ p.order)) := by
  refine ⟨fun a ha => ⟨fun hm => ?_, fun hm => mapMem hm⟩, fun a b ha hb => ⟨fun hm => ?_, fun hm => ?_⟩⟩
  · have ⟨y, hy, e⟩ := memMap hm
    have hyc : y ∈ runJPomCalls p := appendMemL _ hy
    rw [h a y ha hyc e]
    exact hy
  · have ⟨q, hq, e⟩ := memMap hm
    cases q with
    | mk q1 q2 =>
      have ⟨e1, e2⟩ := Prod.mk.inj e
      have h1 : q1 ∈ runJPomCalls p :=
        appendMemR _ (appendMemL _ (mapMem (f := Prod.fst) hq))
      have h2 : q2 ∈ runJPomCalls p :=
        appendMemR _ (appendMemR _ (mapMem (f := Prod.snd) hq))
      rw [h a q1 ha h1 e1, h b q2 hb h2 e2]
      exact hq
  · exact mapMem (f := fun ab => (f ab.1, f ab.2)) hm

/-- A judged change's new contracts are the judged record's, each pomset renamed by `out`; where
`runJOutInjB` holds (as `runJTab` requires), the renaming keeps every one of them up to renaming. -/
theorem runJOutFaithful {j : RunJReq} {D : Edits.Derived} {x : Nat}
    (hi : runJOutInjB j.out (runJCalls j D x) = true) :
    newContracts (runJEdit j D x) =
      List.map (List.map (renamePom j.out)) (newContracts (judgedTEdit j.req D x)) ∧
    (∀ a b, a ∈ runJCalls j D x → b ∈ runJCalls j D x → j.out a = j.out b → a = b) ∧
    ∀ g p, g ∈ newContracts (judgedTEdit j.req D x) → p ∈ g →
      (∀ a, a ∈ runJPomCalls p → (j.out a ∈ (renamePom j.out p).events ↔ a ∈ p.events)) ∧
      (∀ a b, a ∈ runJPomCalls p → b ∈ runJPomCalls p →
        ((j.out a, j.out b) ∈ (renamePom j.out p).order ↔ (a, b) ∈ p.order)) := by
  have hinj := runJOutInjIff.mp hi
  refine ⟨?_, hinj, fun g p hg hp => runJRenamePomFaithful (fun a b ha hb e => ?_)⟩
  · show newContracts (renameTEdit j.out (judgedTEdit j.req D x)) = _
    cases judgedTEdit j.req D x <;> rfl
  · have hpc : p ∈ concatL (newContracts (judgedTEdit j.req D x)) := concatMem hg hp
    have hm : runJPomCalls p ∈ List.map runJPomCalls (concatL (newContracts (judgedTEdit j.req D x))) :=
      mapMem hpc
    exact hinj a b (concatMem hm ha) (concatMem hm hb) e

/-- A call of a pomset renamed by `f` is `f` of one of the pomset's calls. -/
theorem runJRenameCalls {f : Nat → Nat} {p : Pomset} {z : Nat} (hz : z ∈ runJPomCalls (renamePom f p)) :
    ∃ a, a ∈ runJPomCalls p ∧ z = f a := by
  have hz' : z ∈ List.map f p.events ++ (List.map Prod.fst (List.map (fun (ab : Nat × Nat) => (f ab.1, f ab.2)) p.order) ++
      List.map Prod.snd (List.map (fun (ab : Nat × Nat) => (f ab.1, f ab.2)) p.order)) := hz
  cases memAppend hz' with
  | inl h =>
    have ⟨a, ha, e⟩ := memMap h
    exact ⟨a, appendMemL _ ha, e⟩
  | inr h => cases memAppend h with
    | inl h =>
      have ⟨q, hq, e⟩ := memMap h
      have ⟨r, hr, e2⟩ := memMap hq
      rw [e2] at e
      exact ⟨r.1, appendMemR _ (appendMemL _ (mapMem (f := Prod.fst) hr)), e⟩
    | inr h =>
      have ⟨q, hq, e⟩ := memMap h
      have ⟨r, hr, e2⟩ := memMap hq
      rw [e2] at e
      exact ⟨r.2, appendMemR _ (appendMemR _ (mapMem (f := Prod.snd) hr)), e⟩

/-- Where `runJOutFreshB` holds against `r` (as `runJTab` requires, with `r` the calls of the leaves the
change keeps), no call of a contract the judged change installs is a call of `r`. -/
theorem runJOutFreshInstalled {j : RunJReq} {D : Edits.Derived} {x : Nat} {r : List Nat}
    (hf : runJOutFreshB j.out (runJCalls j D x) r = true) :
    ∀ g p z, g ∈ newContracts (runJEdit j D x) → p ∈ g → z ∈ runJPomCalls p → ¬ z ∈ r := by
  intro g p z hg hp hz
  have e : newContracts (runJEdit j D x) =
      List.map (List.map (renamePom j.out)) (newContracts (judgedTEdit j.req D x)) := by
    show newContracts (renameTEdit j.out (judgedTEdit j.req D x)) = _
    cases judgedTEdit j.req D x <;> rfl
  rw [e] at hg
  have ⟨g0, hg0, eg⟩ := memMap hg
  rw [eg] at hp
  have ⟨p0, hp0, ep⟩ := memMap hp
  rw [ep] at hz
  have ⟨a, ha, ez⟩ := runJRenameCalls hz
  rw [ez]
  have hpc : p0 ∈ concatL (newContracts (judgedTEdit j.req D x)) := concatMem hg0 hp0
  have hm : runJPomCalls p0 ∈ List.map runJPomCalls (concatL (newContracts (judgedTEdit j.req D x))) :=
    mapMem hpc
  exact (runJOutFreshIff.mp hf) a (concatMem hm ha)

/-- Where `runJOutFreshB` holds against `runJStaleCalls` (as `runJTab` requires), no call of a contract
the judged change installs is a call of a leaf the change keeps or a call the record has processed. -/
theorem runJOutFreshStale {j : RunJReq} {D : Edits.Derived} {x : Nat} {c : Core} {gone : Option Nat}
    (hf : runJOutFreshB j.out (runJCalls j D x) (runJStaleCalls c gone) = true) :
    ∀ g p z, g ∈ newContracts (runJEdit j D x) → p ∈ g → z ∈ runJPomCalls p →
      ¬ z ∈ runJKeptCalls c.tree gone ∧ ¬ z ∈ runJProcCalls c := by
  intro g p z hg hp hz
  have h := runJOutFreshInstalled hf g p z hg hp hz
  exact ⟨fun hk => h (appendMemL _ hk), fun hq => h (appendMemR _ hq)⟩

/-- On the runtime machine run with `derRunJ`, every committed step's tree is one `RunJTree` allows. -/
theorem stepTreeRunJ (der : Core → Nat → Option ((Machine.Derived × TEdit) × Option RunJReq)) (S : RState)
    (ev : Ev) : RunJTree der S.core (stepR (derRunJ der) S ev).2.core.tree :=
  runJTreeStep (stepTree (runJTab der) S ev)

/-- On the ideal machine run with `derRunJ`, every step's tree is one `RunJTree` allows. -/
theorem stepITreeRunJ (der : Core → Nat → Option ((Machine.Derived × TEdit) × Option RunJReq)) (c : Core)
    (ev : IEv) : RunJTree der c (stepI (derRunJ der) c ev).2.tree :=
  runJTreeStep (stepITree (runJTab der) c ev)

/-- A judged Fork of `judge`'s rows whose terms pass the check installs, before Lean's node names, the
forked leaf's `Γ_b/raw(χ_b)` under the two copy renamings, each then named by `out`. -/
theorem runJForkArms {j : RunJReq} {c : Core} {x : Nat} {D : Edits.Derived}
    (ha : srcAgreesB (runJSrc j) c x = true) :
    ∃ l, leafNamed c.tree x = some l ∧
      (∀ g, j.req = AReq.base (CReq.forkChoice g) → judgeA j.region j.store j.req = some D →
        runJEdit j D x = TEdit.fork false x 0 0 0
          (List.map (renamePom j.out) (List.map (renamePom dblL) (restPoms l.gamma l.done)))
          (List.map (renamePom j.out) (List.map (renamePom dblR) (restPoms l.gamma l.done)))) ∧
      (j.req = AReq.base CReq.forkParallel → judgeA j.region j.store j.req = some D →
        runJEdit j D x = TEdit.fork true x 0 0 0
          (List.map (renamePom j.out) (List.map (renamePom dblL) (restPoms l.gamma l.done)))
          (List.map (renamePom j.out) (List.map (renamePom dblR) (restPoms l.gamma l.done)))) := by
  have ⟨l, hl, hc, hp⟩ := forkArmsAreResidual (D := D) ha
  refine ⟨l, hl, fun g hr hj => ?_, fun hr hj => ?_⟩
  · rw [hr] at hj
    show renameTEdit j.out (judgedTEdit j.req D x) = _
    rw [hr, hc g hj]
    rfl
  · rw [hr] at hj
    show renameTEdit j.out (judgedTEdit j.req D x) = _
    rw [hr, hp hj]
    rfl

/-- A judged Restore whose terms pass the check installs, before Lean's node names, the stored copy's
`Γ_k/raw(χ_k)` (the checkpoint with ID `k` the record holds) under the counter's renaming, then named by
`out`. -/
theorem runJRestoreIsStored {j : RunJReq} {c : Core} {x k n : Nat} {D : Edits.Derived} {s : Saved}
    (ha : srcAgreesB (runJSrc j) c x = true) (hs : s ∈ c.saved) (hk : s.id = k) :
    (j.req = AReq.base (CReq.restoreReplace k n) → judgeA j.region j.store j.req = some D →
      runJEdit j D x = TEdit.restore false x 0 0
        (List.map (renamePom j.out) (List.map (renamePom (shift n)) (restPoms s.gamma s.done)))) ∧
    (j.req = AReq.base (CReq.restoreLive k n) → judgeA j.region j.store j.req = some D →
      runJEdit j D x = TEdit.restore true x 0 0
        (List.map (renamePom j.out) (List.map (renamePom (shift n)) (restPoms s.gamma s.done)))) := by
  have ⟨hr, hl⟩ := restoreIsStored (n := n) (D := D) ha hs hk
  refine ⟨fun hq hj => ?_, fun hq hj => ?_⟩
  · rw [hq] at hj
    show renameTEdit j.out (judgedTEdit j.req D x) = _
    rw [hq, hr hj]
    rfl
  · rw [hq] at hj
    show renameTEdit j.out (judgedTEdit j.req D x) = _
    rw [hq, hl hj]
    rfl

end AgentWarrant.Edits.DeriveTreeRunJ
