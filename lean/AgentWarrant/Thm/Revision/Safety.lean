import AgentWarrant.Thm.Monitor.Ledger
import AgentWarrant.Thm.Monitor.Invariants
/-! Section 7.1, part 2, on the closed core: a revision changes only the permission lists; from
identical safety states and identical observations, every admission of the old monitor is an
admission of the new one with the same label, and the safety state (the records: labels,
lineage and the admitted trace) stays identical.

Observations (origin and history verdicts, preparation, matching facts of the unchanged parts)
are the call's facts, so "identical observations" is "the same facts except the two lists".
Hypotheses, named where they are used: the new lists add no explicit deny on an effect the old
lists admitted (`NoNewDeny`), and the counters are related by a relation closed under the
paired charges (`AllocSim`; the ledger simulations of AgentWarrant.Thm.Revision.Structural are
the per-list form of it). The Pause/no-matching-allow cases need no hypothesis: a successful new
allocation already gives a ready matching allow on both new lists. -/
namespace AgentWarrant.Monitor.Run
open AgentWarrant.Monitor

theorem scanFits (e : Nat) : ∀ (i : Nat) (l : List Acct) (k : Nat) (l' : List Acct),
    scan e i l = some (k, l') → ∃ a, a ∈ l ∧ fits a.1 e = true
  | _, [], _, _, h => by simp [scan] at h
  | i, (g, r) :: l, k, l', h => by
    cases hf : (fits g e && avail r) with
    | true =>
      have hg : fits g e = true := by cases hx : fits g e <;> simp [hx] at hf ⊢
      exact ⟨(g, r), Mem.head _, hg⟩
    | false =>
      simp [scan, hf] at h
      cases hs : scan e (i + 1) l with
      | none => rw [hs] at h; simp at h
      | some p => cases p with
        | mk k0 l0 =>
          have ⟨a, ha, hfa⟩ := scanFits e (i + 1) l k0 l0 hs
          exact ⟨a, Mem.tail _ ha, hfa⟩

theorem scanGrants (e : Nat) : ∀ (i : Nat) (l : List Acct) (k : Nat) (l' : List Acct),
    scan e i l = some (k, l') → List.map Prod.fst l' = List.map Prod.fst l
  | _, [], _, _, h => by simp [scan] at h
  | i, (g, r) :: l, k, l', h => by
    cases hf : (fits g e && avail r) with
    | true => simp [scan, hf] at h; rw [← h.2]; rfl
    | false =>
      simp [scan, hf] at h
      cases hs : scan e (i + 1) l with
      | none => rw [hs] at h; simp at h
      | some p => cases p with
        | mk k0 l0 =>
          rw [hs] at h; simp at h
          rw [← h.2]
          simp [List.map, scanGrants e (i + 1) l k0 l0 hs]

/-- A successful batch has, for each effect, a grant of the list that fits it. -/
theorem allocFits : ∀ (es : List Nat) (l : List Acct) (ps : List Nat), alloc l es = some ps →
    ∀ e, e ∈ es → ∃ g, g ∈ List.map Prod.fst l ∧ fits g e = true
  | [], _, _, _, e, he => absurd he notMemNil
  | e0 :: es, l, ps, h, e, he => by
    cases hs : scan e0 0 l with
    | none => simp [alloc, hs] at h
    | some p => cases p with
      | mk k l1 =>
        cases ha : alloc l1 es with
        | none => simp [alloc, hs, ha] at h
        | some qs =>
          cases he with
          | head _ =>
            have ⟨a, hal, hfa⟩ := scanFits e0 0 l k l1 hs
            exact ⟨a.1, memMapOf Prod.fst hal, hfa⟩
          | tail _ he' =>
            have ⟨g, hg, hfg⟩ := allocFits es l1 qs ha e he'
            rw [scanGrants e0 0 l k l1 hs] at hg
            exact ⟨g, hg, hfg⟩

theorem entryFits {es : List Entry} {e : Nat} {g : Grant} (hg : g ∈ List.map Prod.fst (List.map account es))
    (hf : fits g e = true) : ∃ x, x ∈ es ∧ (x.allow && hit x.hits e) = true ∧ x.ready = true := by
  have ⟨a, ha, ea⟩ := memMapInv Prod.fst hg
  have ⟨x, hx, ex⟩ := memMapInv account ha
  refine ⟨x, hx, ?_⟩
  rw [← ea, ← ex] at hf
  simp [account, fits] at hf
  cases h1 : x.allow <;> cases h2 : x.ready <;> cases h3 : hit x.hits e <;> simp [h1, h2, h3] at hf ⊢

theorem servedNotEmpty {es : List Entry} {effs : List Nat} {ps : List Nat} (h : alloc (List.map account es) effs = some ps) :
    ∀ e, e ∈ effs → List.isEmpty (matchingAllows es e) = false ∧ waitsFor es e = [] := by
  intro e he
  have ⟨g, hg, hf⟩ := allocFits effs _ ps h e he
  have ⟨x, hx, hm, hr⟩ := entryFits hg hf
  have hmem : x ∈ matchingAllows es e := memFilterStd hx hm
  refine ⟨isEmptyMem hmem, ?_⟩
  have hany : List.any (matchingAllows es e) (fun x => x.ready) = true := anyMem hmem hr
  simp [waitsFor, hany]

theorem memPair {x u a : α} (h : x ∈ [u, a]) : x = u ∨ x = a := by
  cases h with
  | head _ => exact Or.inl rfl
  | tail _ h => cases h with
    | head _ => exact Or.inr rfl
    | tail _ h => exact absurd h notMemNil

/-- The new lists' pre-allocation checks pass once their allocation succeeds. -/
theorem servedChecks (u a : List Entry) (effs : List Nat) (pu pa : List Nat)
    (h : allocBoth (List.map account u) (List.map account a) effs = some (pu, pa)) :
    List.any [u, a] (fun s => List.any effs (fun e => List.isEmpty (matchingAllows s e))) = false ∧
    List.isEmpty (List.join (List.map (fun s => List.join (List.map (waitsFor s) effs)) [u, a])) = true := by
  have ⟨hu, ha⟩ := (allocBothAllOrNothing _ _ _ pu pa).1 h
  have side : ∀ s, s ∈ [u, a] → ∀ e, e ∈ effs → List.isEmpty (matchingAllows s e) = false ∧ waitsFor s e = [] := by
    intro s hs
    cases memPair hs with
    | inl e => rw [e]; exact servedNotEmpty hu
    | inr e => rw [e]; exact servedNotEmpty ha
  refine ⟨anyAllFalse (fun s hs => anyAllFalse (fun e he => (side s hs e he).1)), ?_⟩
  have hj : List.join (List.map (fun s => List.join (List.map (waitsFor s) effs)) [u, a]) = [] := by
    apply joinNil
    intro x hx
    have ⟨s, hs, es⟩ := memMapInv _ hx
    rw [← es]
    apply joinNil
    intro y hy
    have ⟨e, he, ee⟩ := memMapInv _ hy
    rw [← ee]
    exact (side s hs e he).2
  rw [hj]; rfl

def anyDeny (u a : List Entry) (effs : List Nat) : Bool := List.any [u, a] (fun s => List.any effs (explicitDeny s))

theorem decideAllowNoDeny (i : StepIn) (l : Label) (pu pa : List Nat) (h : decide i = Decision.allow l pu pa) :
    anyDeny i.user i.app (effects i) = false := by
  have ⟨a1, a2, a3, a4, a5, _⟩ := decideAllow i l pu pa h
  cases h5 : anyDeny i.user i.app (effects i) with
  | false => rfl
  | true => simp [anyDeny] at h5; simp [decide, a1, a2, a3, a4, a5, h5] at h

/-- One call under a revision that changes only the lists: an old Allow is a new Allow with the
same label, once the new allocation succeeds and the new lists add no explicit deny here. -/
theorem decideRevised (i : StepIn) (u' a' : List Entry) (l : Label) (pu pa pu' pa' : List Nat)
    (hold : decide i = Decision.allow l pu pa)
    (hnew : allocBoth (List.map account u') (List.map account a') (effects i) = some (pu', pa'))
    (hdeny : anyDeny u' a' (effects i) = true → anyDeny i.user i.app (effects i) = true) :
    decide { i with user := u', app := a' } = Decision.allow l pu' pa' := by
  have ⟨a1, a2, a3, a4, a5, a6, a7, a8, _, a10⟩ := decideAllow i l pu pa hold
  have d0 := decideAllowNoDeny i l pu pa hold
  have dn : anyDeny u' a' (effects i) = false := by
    cases hd : anyDeny u' a' (effects i) with
    | false => rfl
    | true => rw [hdeny hd] at d0; contradiction
  have ⟨m1, m2⟩ := servedChecks u' a' (effects i) pu' pa' hnew
  have lo : labelOut { i with user := u', app := a' } = labelOut i := rfl
  have ef : effects { i with user := u', app := a' } = effects i := rfl
  simp [anyDeny] at dn
  rw [a10]
  simp only [decide]
  rw [lo, ef]
  simp [a1, a2, a3, a4, a5, a6, a7, a8, dn, m1, m2, hnew]

/-- The revised call: the same parents and facts (identical observations), the new policy's lists. -/
def revise (nl : Call → List Entry × List Entry) (c : Call) : Call :=
  ⟨c.parents, { c.facts with user := (nl c).1, app := (nl c).2 }⟩

theorem toInRevise (S S' : MState) (c : Call) (nl : Call → List Entry × List Entry) (hr : S'.recs = S.recs) :
    toIn S' (revise nl c) = { toIn S c with user := setUsed (nl c).1 S'.usedUser, app := setUsed (nl c).2 S'.usedApp } := by
  simp [toIn, revise, hr]

/-- The new lists add no explicit deny on this call's effects that the old lists lacked. -/
def NoNewDeny (nl : Call → List Entry × List Entry) (c : Call) : Prop :=
  ∀ S S' : MState, anyDeny (setUsed (nl c).1 S'.usedUser) (setUsed (nl c).2 S'.usedApp) (effects (toIn S c)) = true →
    anyDeny (toIn S c).user (toIn S c).app (effects (toIn S c)) = true

/-- A relation between old and new states closed under paired admitted calls of the domain `Dom`:
whenever the old monitor admits, the new lists' allocation succeeds, and the successors are related
again. AgentWarrant.Thm.Revision.Link builds one from structural certificates. -/
def AllocSim (nl : Call → List Entry × List Entry) (Dom : Call → Prop) (R : MState → MState → Prop) : Prop :=
  ∀ (S S' : MState) (c : Call) (l : Label) (pu pa : List Nat), Dom c → NoNewDeny nl c → R S S' → S'.recs = S.recs →
    decide (toIn S c) = Decision.allow l pu pa →
    ∃ pu' pa', allocBoth (List.map account (setUsed (nl c).1 S'.usedUser)) (List.map account (setUsed (nl c).2 S'.usedApp))
      (effects (toIn S c)) = some (pu', pa') ∧ ∀ d, R (stepS S c d).2 (stepS S' (revise nl c) d).2

theorem stepRevised (nl : Call → List Entry × List Entry) (Dom : Call → Prop) (R : MState → MState → Prop)
    (hs : AllocSim nl Dom R) (S S' : MState) (c : Call) (d : Nat) (hdom : Dom c) (hR : R S S') (hr : S'.recs = S.recs)
    (hnd : NoNewDeny nl c)
    (l : Label) (pu pa : List Nat) (hold : decide (toIn S c) = Decision.allow l pu pa) :
    ∃ pu' pa', (stepS S' (revise nl c) d).1 = Decision.allow l pu' pa' ∧
      (stepS S' (revise nl c) d).2.recs = (stepS S c d).2.recs ∧ R (stepS S c d).2 (stepS S' (revise nl c) d).2 := by
  have ⟨pu', pa', hnew, hR'⟩ := hs S S' c l pu pa hdom hnd hR hr hold
  have hdec : decide (toIn S' (revise nl c)) = Decision.allow l pu' pa' := by
    rw [toInRevise S S' c nl hr]
    exact decideRevised (toIn S c) _ _ l pu pa pu' pa' hold hnew (hnd S S')
  refine ⟨pu', pa', by rw [stepSDecision, hdec], ?_, hR' d⟩
  rw [stepRecs, stepRecs, hdec, hold, hr]
  rfl

theorem allowOf {d : Decision} (h : isAllow d = true) : ∃ l pu pa, d = Decision.allow l pu pa := by
  cases d with
  | allow l pu pa => exact ⟨l, pu, pa, rfl⟩
  | pause w => simp [isAllow] at h
  | deny r => simp [isAllow] at h

theorem runCons (fresh : MState → Call → Nat) (S : MState) (c : Call) (cs : List Call) :
    run fresh S (c :: cs) = ((stepS S c (fresh S c)).1 :: (run fresh (stepS S c (fresh S c)).2 cs).1,
      (run fresh (stepS S c (fresh S c)).2 cs).2) := rfl

/-- Section 7.1 (2) on the closed core: from identical safety states and identical observations,
every client of the old monitor is admitted by the new one, and the safety state (records:
labels, lineage, admitted trace) stays identical, with the counters related throughout. -/
theorem runRevised (fresh : MState → Call → Nat)
    (hf : ∀ S S' c c', S'.recs = S.recs → c'.parents = c.parents → fresh S' c' = fresh S c)
    (nl : Call → List Entry × List Entry) (Dom : Call → Prop) (R : MState → MState → Prop) (hs : AllocSim nl Dom R) :
    ∀ (cs : List Call) (S S' : MState), R S S' → S'.recs = S.recs → (∀ c, c ∈ cs → Dom c ∧ NoNewDeny nl c) →
    allB isAllow (run fresh S cs).1 = true →
    allB isAllow (run fresh S' (List.map (revise nl) cs)).1 = true ∧
      (run fresh S' (List.map (revise nl) cs)).2.recs = (run fresh S cs).2.recs ∧
      R (run fresh S cs).2 (run fresh S' (List.map (revise nl) cs)).2
  | [], S, S', hR, hr, _, _ => ⟨rfl, hr, hR⟩
  | c :: cs, S, S', hR, hr, hnd, ha => by
    rw [runCons] at ha
    have hfirst : isAllow (stepS S c (fresh S c)).1 = true := by
      cases h : isAllow (stepS S c (fresh S c)).1 with
      | true => rfl
      | false => simp [allB, h] at ha
    have hrest : allB isAllow (run fresh (stepS S c (fresh S c)).2 cs).1 = true := by
      simp [allB, hfirst] at ha; exact ha
    have ⟨l, pu, pa, hd⟩ := allowOf hfirst
    rw [stepSDecision] at hd
    have efr : fresh S' (revise nl c) = fresh S c := hf S S' c (revise nl c) hr rfl
    have ⟨pu', pa', h1, h2, h3⟩ := stepRevised nl Dom R hs S S' c (fresh S c) (hnd c (Mem.head _)).1 hR hr
      (hnd c (Mem.head _)).2 l pu pa hd
    have ih := runRevised fresh hf nl Dom R hs cs _ _ h3 h2 (fun c' h' => hnd c' (Mem.tail _ h')) hrest
    have em : List.map (revise nl) (c :: cs) = revise nl c :: List.map (revise nl) cs := rfl
    rw [em, runCons, efr]
    refine ⟨?_, ih.2.1, ih.2.2⟩
    simp [allB, h1, isAllow]
    exact ih.1

theorem freshIdRecs (S S' : MState) (c c' : Call) (hr : S'.recs = S.recs) (hp : c'.parents = c.parents) :
    freshId S' c' = freshId S c := by simp [freshId, hr, hp]

end AgentWarrant.Monitor.Run
