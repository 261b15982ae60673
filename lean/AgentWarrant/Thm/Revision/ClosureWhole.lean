import AgentWarrant.Spec.Revision.ClosureWhole
import AgentWarrant.Thm.Revision.ClosureBridge
import AgentWarrant.Thm.Revision.ArgCoverBuild
import AgentWarrant.Thm.Monitor.Full.RevisionCert
/-! The closure check's charge is the whole monitor's (Agenra Sections 1, 5.2 and 7.1): on one list,
one effect unit's `firstFitU` on a usage vector picks what the ledger first-fit `scanL` picks on that
list's ledger at the call (`polOf`, which `sideChargeZ` ties to the monitor's Allow), and the usage
it returns has the ledger `scanL` returns. Over a call's effect units and both lists: when both
ledger allocations on the old lists succeed and no explicit deny matches, `runSide` on the call's
units (`cwUnits`) succeeds on the old lists into the same ledgers (`cwRunOld`); when `runSide`
succeeds on the new lists, both ledger allocations there succeed into its ledgers and no explicit
deny matches (`cwRunNew`). A joint run on both lists is a per-list run on each and back
(`cwSplitOld`, `cwJoinNew`), for per-list certificates.

The link is on ledgers, not on counter vectors: the monitor counts a use of an unlimited grant, the
closure check does not, and neither reads that counter. -/
namespace AgentWarrant.Monitor.Full
open Lean AgentWarrant AgentWarrant.Monitor AgentWarrant.Monitor.Run AgentWarrant.Revision

theorem cwReq (s : State) (g : Grant) : Closure.reqOk s.satisfied g.requires = ready s g := by
  cases h : g.requires with
  | none => simp [Closure.reqOk, ready, h]
  | some r =>
    simp only [ready, h, Closure.reqOk, Closure.memS, memS]
    exact ArgCover.anyBAny _ _

theorem cwCond (b a r : Bool) : (b && a && r) = (a && r && b) := by
  cases b <;> cases a <;> cases r <;> rfl

theorem cwFitsEq (s : State) (args : List (String × Json)) (es : List Effect) (e : Nat) (g : Grant) :
    fits (gOf g (s, args, es)) e =
      (hit (List.map (grantMatches s args g) es) e && (cwEntry g).allow && Closure.reqOk s.satisfied (cwEntry g).requires) := by
  show (g.allow && ready s g && hit (List.map (grantMatches s args g) es) e) =
    (hit (List.map (grantMatches s args g) es) e && g.allow && Closure.reqOk s.satisfied g.requires)
  rw [cwReq]
  exact (cwCond _ _ _).symm

theorem cwResidDec (q : Option Nat) (u : Nat) : dec (resid q u) = resid q (u + 1) := by
  cases q with
  | none => rfl
  | some m => exact Closure.decSub m u

/-- One list, one effect unit: a `firstFitU` that charges is a `scanL` on the list's ledger that
charges, into the ledger of the usage `firstFitU` returns. -/
theorem cwFitSome (s : State) (args : List (String × Json)) (es : List Effect) (e : Nat) :
    ∀ (gs : List Grant) (us pre : List Nat) (i : Nat) (w : List Nat), List.length gs = List.length us →
    Closure.firstFitU s.satisfied (pre ++ us) (List.length pre) (cwEntries gs) (cwBits s args es e gs) = some w →
    ∃ k us', scanL (s, args, es) e i (ledgerOf (polOf gs) us) = some (k, ledgerOf (polOf gs) us') ∧
      w = pre ++ us' ∧ List.length us' = List.length us
  | [], _, _, _, _, _, h => by cases h
  | _ :: _, [], _, _, _, h, _ => by simp [List.length_cons] at h
  | g :: gs, u :: us, pre, i, w, hl, h => by
    simp [List.length_cons] at hl
    have hrest : pre ++ u :: us = (pre ++ [u]) ++ us := by rw [List.append_assoc]; rfl
    have hlen := Closure.lengthAppOne pre u
    have eE : cwEntries (g :: gs) = cwEntry g :: cwEntries gs := rfl
    have eB : cwBits s args es e (g :: gs) = hit (List.map (grantMatches s args g) es) e :: cwBits s args es e gs := rfl
    have eL : ledgerOf (polOf (g :: gs)) (u :: us) = (gOf g, resid g.quota u) :: ledgerOf (polOf gs) us := rfl
    have eLg : ∀ v vs, ledgerOf (polOf (g :: gs)) (v :: vs) = (gOf g, resid g.quota v) :: ledgerOf (polOf gs) vs :=
      fun _ _ => rfl
    rw [eE, eB] at h
    rw [eL]
    have hf := cwFitsEq s args es e g
    cases hc : (hit (List.map (grantMatches s args g) es) e && (cwEntry g).allow &&
        Closure.reqOk s.satisfied (cwEntry g).requires) with
    | true =>
      rw [hc] at hf
      have hq0 : (cwEntry g).quota = g.quota := rfl
      cases hq : g.quota with
      | none =>
        rw [hq] at hq0
        simp [Closure.firstFitU, hc, hq0] at h
        refine ⟨i, u :: us, ?_, h.symm, rfl⟩
        simp [scanL, hf, hq, resid, avail, dec]
        rw [eLg, hq] <;> rfl
      | some m =>
        rw [hq] at hq0
        have hg : Closure.getN (pre ++ u :: us) (List.length pre) = u := Closure.getNApp pre (u :: us)
        cases hm : Nat.ble (u + 1) m with
        | true =>
          simp [Closure.firstFitU, hc, hq0, hg, hm] at h
          have hi : Closure.incAt (pre ++ u :: us) (List.length pre) = pre ++ (u + 1) :: us := Closure.incAtApp pre (u :: us)
          rw [hi] at h
          have ha : avail (some (m - u)) = true := by rw [Closure.availSub]; exact hm
          refine ⟨i, (u + 1) :: us, ?_, h.symm, rfl⟩
          have ed : dec (some (m - u)) = some (m - (u + 1)) := Closure.decSub m u
          simp [scanL, hf, hq, resid, ha, ed]
          rw [eLg, hq] <;> rfl
        | false =>
          simp [Closure.firstFitU, hc, hq0, hg, hm] at h
          have ha : avail (some (m - u)) = false := by rw [Closure.availSub]; exact hm
          rw [hrest, ← hlen] at h
          have ⟨k, us', hs, hw, hl'⟩ := cwFitSome s args es e gs us (pre ++ [u]) (i + 1) w hl h
          refine ⟨k, u :: us', ?_, by rw [hw, List.append_assoc]; rfl, by rw [List.length_cons, List.length_cons, hl']⟩
          simp [scanL, hf, hq, resid, ha, hs]
          rw [eLg, hq] <;> rfl
    | false =>
      rw [hc] at hf
      simp [Closure.firstFitU, hc] at h
      rw [hrest, ← hlen] at h
      have ⟨k, us', hs, hw, hl'⟩ := cwFitSome s args es e gs us (pre ++ [u]) (i + 1) w hl h
      refine ⟨k, u :: us', ?_, by rw [hw, List.append_assoc]; rfl, by rw [List.length_cons, List.length_cons, hl']⟩
      simp [scanL, hf, hs]
      rw [eLg] <;> rfl

/-- One list, one effect unit: a `firstFitU` that refuses is a `scanL` that refuses. -/
theorem cwFitNone (s : State) (args : List (String × Json)) (es : List Effect) (e : Nat) :
    ∀ (gs : List Grant) (us pre : List Nat) (i : Nat), List.length gs = List.length us →
    Closure.firstFitU s.satisfied (pre ++ us) (List.length pre) (cwEntries gs) (cwBits s args es e gs) = none →
    scanL (s, args, es) e i (ledgerOf (polOf gs) us) = none
  | [], _, _, _, _, _ => rfl
  | _ :: _, [], _, _, h, _ => by simp [List.length_cons] at h
  | g :: gs, u :: us, pre, i, hl, h => by
    simp [List.length_cons] at hl
    have hrest : pre ++ u :: us = (pre ++ [u]) ++ us := by rw [List.append_assoc]; rfl
    have hlen := Closure.lengthAppOne pre u
    have eE : cwEntries (g :: gs) = cwEntry g :: cwEntries gs := rfl
    have eB : cwBits s args es e (g :: gs) = hit (List.map (grantMatches s args g) es) e :: cwBits s args es e gs := rfl
    have eL : ledgerOf (polOf (g :: gs)) (u :: us) = (gOf g, resid g.quota u) :: ledgerOf (polOf gs) us := rfl
    rw [eE, eB] at h
    rw [eL]
    have hf := cwFitsEq s args es e g
    cases hc : (hit (List.map (grantMatches s args g) es) e && (cwEntry g).allow &&
        Closure.reqOk s.satisfied (cwEntry g).requires) with
    | true =>
      rw [hc] at hf
      have hq0 : (cwEntry g).quota = g.quota := rfl
      cases hq : g.quota with
      | none =>
        rw [hq] at hq0
        simp [Closure.firstFitU, hc, hq0] at h
      | some m =>
        rw [hq] at hq0
        have hg : Closure.getN (pre ++ u :: us) (List.length pre) = u := Closure.getNApp pre (u :: us)
        cases hm : Nat.ble (u + 1) m with
        | true => simp [Closure.firstFitU, hc, hq0, hg, hm] at h
        | false =>
          simp [Closure.firstFitU, hc, hq0, hg, hm] at h
          have ha : avail (some (m - u)) = false := by rw [Closure.availSub]; exact hm
          rw [hrest, ← hlen] at h
          have hs := cwFitNone s args es e gs us (pre ++ [u]) (i + 1) hl h
          simp [scanL, hf, hq, resid, ha, hs]
    | false =>
      rw [hc] at hf
      simp [Closure.firstFitU, hc] at h
      rw [hrest, ← hlen] at h
      have hs := cwFitNone s args es e gs us (pre ++ [u]) (i + 1) hl h
      simp [scanL, hf, hs]

/-- One list, one effect unit: a ledger scan that charges is a `firstFitU` that charges, into the
ledger of the usage it returns. -/
theorem cwScanFit (s : State) (args : List (String × Json)) (es : List Effect) (e : Nat) (gs : List Grant)
    (us : List Nat) (k : Nat) (L : Ledger Ctx) (hl : List.length gs = List.length us)
    (h : scanL (s, args, es) e 0 (ledgerOf (polOf gs) us) = some (k, L)) :
    ∃ us', Closure.firstFitU s.satisfied us 0 (cwEntries gs) (cwBits s args es e gs) = some us' ∧
      L = ledgerOf (polOf gs) us' ∧ List.length gs = List.length us' := by
  cases hf : Closure.firstFitU s.satisfied us 0 (cwEntries gs) (cwBits s args es e gs) with
  | none =>
    have hn := cwFitNone s args es e gs us [] 0 hl hf
    rw [hn] at h
    cases h
  | some w =>
    have ⟨k', us', hs, hw, hl'⟩ := cwFitSome s args es e gs us [] 0 w hl hf
    rw [hs] at h
    have e2 : ledgerOf (polOf gs) us' = L := (Prod.mk.inj (Option.some.inj h)).2
    have e3 : w = us' := hw
    exact ⟨us', by rw [e3], e2.symm, by rw [hl, hl']⟩

theorem cwAllocCons (x : Ctx) (e : Nat) (effs : List Nat) (L : Ledger Ctx) (ps : List Nat) (Lf : Ledger Ctx)
    (h : allocL x L (e :: effs) = some (ps, Lf)) :
    ∃ k L1 ps', scanL x e 0 L = some (k, L1) ∧ allocL x L1 effs = some (ps', Lf) := by
  cases hs : scanL x e 0 L with
  | none => simp [allocL, hs] at h
  | some r => cases r with
    | mk k L1 =>
      cases ha : allocL x L1 effs with
      | none => simp [allocL, hs, ha] at h
      | some q => cases q with
        | mk ps' lf =>
          simp [allocL, hs, ha] at h
          exact ⟨k, L1, ps', rfl, by rw [ha, h.2]⟩

theorem cwAllocConsOf (x : Ctx) (e : Nat) (effs : List Nat) (L L1 Lf : Ledger Ctx) (k : Nat) (ps : List Nat)
    (h1 : scanL x e 0 L = some (k, L1)) (h2 : allocL x L1 effs = some (ps, Lf)) :
    allocL x L (e :: effs) = some (k :: ps, Lf) := by
  simp [allocL, h1, h2]

theorem cwFitUOf (q : List String) (E : List Closure.LEntry) (u : List Nat) (b : List Bool) (v : List Nat)
    (hd : Closure.denyHit E b = false) (hf : Closure.firstFitU q u 0 E b = some v) : Closure.fitU E u b q = some v := by
  simp [Closure.fitU, hd, hf]

theorem cwFitUElim (q : List String) (E : List Closure.LEntry) (u : List Nat) (b : List Bool) (v : List Nat)
    (h : Closure.fitU E u b q = some v) : Closure.denyHit E b = false ∧ Closure.firstFitU q u 0 E b = some v := by
  cases hd : Closure.denyHit E b with
  | true => simp [Closure.fitU, hd] at h
  | false =>
    have h' : Closure.firstFitU q u 0 E b = some v := by simp [Closure.fitU, hd] at h; exact h
    exact ⟨rfl, h'⟩

theorem cwStepAll2 (q : List String) (E1 E2 : List Closure.LEntry) (u1 u2 v1 v2 : List Nat) (b1 b2 : List Bool)
    (h1 : Closure.fitU E1 u1 b1 q = some v1) (h2 : Closure.fitU E2 u2 b2 q = some v2) :
    Closure.stepAll q [E1, E2] [u1, u2] [b1, b2] = some [v1, v2] := by
  simp [Closure.stepAll, h1, h2]

theorem cwStepAll2Elim (q : List String) (E1 E2 : List Closure.LEntry) (u1 u2 : List Nat) (b1 b2 : List Bool)
    (w : Closure.Usage) (h : Closure.stepAll q [E1, E2] [u1, u2] [b1, b2] = some w) :
    ∃ v1 v2, Closure.fitU E1 u1 b1 q = some v1 ∧ Closure.fitU E2 u2 b2 q = some v2 ∧ w = [v1, v2] := by
  cases h1 : Closure.fitU E1 u1 b1 q with
  | none => simp [Closure.stepAll, h1] at h
  | some v1 =>
    cases h2 : Closure.fitU E2 u2 b2 q with
    | none => simp [Closure.stepAll, h1, h2] at h
    | some v2 =>
      simp [Closure.stepAll, h1, h2] at h
      exact ⟨v1, v2, rfl, rfl, h.symm⟩

/-- Both lists, a call's effect units in order: two ledger allocations that succeed, with no
explicit deny matching, are the closure check's `runSide` on the old lists succeeding, into the
ledgers of the usages it returns. -/
theorem cwRunOld (p : Policy) (u' a' : List Grant) (s : State) (args : List (String × Json)) (es : List Effect) :
    ∀ (effs : List Nat) (ou oa pu pa : List Nat) (Lu La : Ledger Ctx),
    List.length p.user = List.length ou → List.length p.app = List.length oa →
    allocL (s, args, es) (ledgerOf (polOf p.user) ou) effs = some (pu, Lu) →
    allocL (s, args, es) (ledgerOf (polOf p.app) oa) effs = some (pa, La) →
    (∀ e, e ∈ effs → Closure.denyHit (cwEntries p.user) (cwBits s args es e p.user) = false ∧
      Closure.denyHit (cwEntries p.app) (cwBits s args es e p.app) = false) →
    ∃ ou' oa', Closure.runSide true (cwLists p.user p.app) [ou, oa] (List.map (cwUnit p u' a' s args es) effs) =
        some [ou', oa'] ∧ Lu = ledgerOf (polOf p.user) ou' ∧ La = ledgerOf (polOf p.app) oa' ∧
        List.length p.user = List.length ou' ∧ List.length p.app = List.length oa'
  | [], ou, oa, pu, pa, Lu, La, _, _, hu, ha, _ => by
    have e1 : ledgerOf (polOf p.user) ou = Lu := (Prod.mk.inj (Option.some.inj hu)).2
    have e2 : ledgerOf (polOf p.app) oa = La := (Prod.mk.inj (Option.some.inj ha)).2
    exact ⟨ou, oa, rfl, e1.symm, e2.symm, by assumption, by assumption⟩
  | e :: effs, ou, oa, pu, pa, Lu, La, lu, la, hu, ha, hd => by
    have ⟨ku, Lu1, pu1, su, au⟩ := cwAllocCons _ e effs _ pu Lu hu
    have ⟨ka, La1, pa1, sa, aa⟩ := cwAllocCons _ e effs _ pa La ha
    have ⟨ou1, fu, eu, lu1⟩ := cwScanFit s args es e p.user ou ku Lu1 lu su
    have ⟨oa1, fa, ea, la1⟩ := cwScanFit s args es e p.app oa ka La1 la sa
    have ⟨du, da⟩ := hd e (Mem.head _)
    have hstep : Closure.stepAll s.satisfied (cwLists p.user p.app) [ou, oa] (cwUnit p u' a' s args es e).old =
        some [ou1, oa1] :=
      cwStepAll2 _ _ _ _ _ _ _ _ _ (cwFitUOf _ _ _ _ _ du fu) (cwFitUOf _ _ _ _ _ da fa)
    rw [eu] at au
    rw [ea] at aa
    have ⟨ou', oa', hr, r1, r2, r3, r4⟩ := cwRunOld p u' a' s args es effs ou1 oa1 pu1 pa1 Lu La lu1 la1 au aa
      (fun x hx => hd x (Mem.tail _ hx))
    refine ⟨ou', oa', ?_, r1, r2, r3, r4⟩
    show (match Closure.stepAll s.satisfied (cwLists p.user p.app) [ou, oa] (cwUnit p u' a' s args es e).old with
      | none => none
      | some v => Closure.runSide true (cwLists p.user p.app) v (List.map (cwUnit p u' a' s args es) effs)) = _
    rw [hstep]
    exact hr

/-- Both lists, a call's effect units in order: the closure check's `runSide` on the new lists
succeeding is two ledger allocations that succeed into the ledgers of the usages it returns, with no
explicit deny matching any effect unit. -/
theorem cwRunNew (p : Policy) (u' a' : List Grant) (s : State) (args : List (String × Json)) (es : List Effect) :
    ∀ (effs : List Nat) (nu na : List Nat) (nf : Closure.Usage),
    List.length u' = List.length nu → List.length a' = List.length na →
    Closure.runSide false (cwLists u' a') [nu, na] (List.map (cwUnit p u' a' s args es) effs) = some nf →
    ∃ pu pa nu' na', allocL (s, args, es) (ledgerOf (polOf u') nu) effs = some (pu, ledgerOf (polOf u') nu') ∧
      allocL (s, args, es) (ledgerOf (polOf a') na) effs = some (pa, ledgerOf (polOf a') na') ∧ nf = [nu', na'] ∧
      List.length u' = List.length nu' ∧ List.length a' = List.length na' ∧
      (∀ e, e ∈ effs → Closure.denyHit (cwEntries u') (cwBits s args es e u') = false ∧
        Closure.denyHit (cwEntries a') (cwBits s args es e a') = false)
  | [], nu, na, nf, lu, la, h => by
    have e : [nu, na] = nf := Option.some.inj h
    exact ⟨[], [], nu, na, rfl, rfl, e.symm, lu, la, fun _ hx => absurd hx notMemNil⟩
  | e :: effs, nu, na, nf, lu, la, h => by
    have h' : (match Closure.stepAll s.satisfied (cwLists u' a') [nu, na] (cwUnit p u' a' s args es e).new with
      | none => none
      | some v => Closure.runSide false (cwLists u' a') v (List.map (cwUnit p u' a' s args es) effs)) = some nf := h
    cases hs : Closure.stepAll s.satisfied (cwLists u' a') [nu, na] (cwUnit p u' a' s args es e).new with
    | none => rw [hs] at h'; cases h'
    | some w =>
      rw [hs] at h'
      have ⟨v1, v2, f1, f2, ew⟩ := cwStepAll2Elim _ _ _ _ _ _ _ w hs
      rw [ew] at h'
      have ⟨d1, g1⟩ := cwFitUElim _ _ _ _ _ f1
      have ⟨d2, g2⟩ := cwFitUElim _ _ _ _ _ f2
      have ⟨k1, w1, s1, hw1, l1⟩ := cwFitSome s args es e u' nu [] 0 v1 lu g1
      have ⟨k2, w2, s2, hw2, l2⟩ := cwFitSome s args es e a' na [] 0 v2 la g2
      have e1 : v1 = w1 := hw1
      have e2 : v2 = w2 := hw2
      rw [e1, e2] at h'
      have ⟨pu, pa, nu', na', r1, r2, r3, r4, r5, r6⟩ := cwRunNew p u' a' s args es effs w1 w2 nf
        (by rw [lu, l1]) (by rw [la, l2]) h'
      refine ⟨k1 :: pu, k2 :: pa, nu', na', cwAllocConsOf _ e effs _ _ _ k1 pu s1 r1,
        cwAllocConsOf _ e effs _ _ _ k2 pa s2 r2, r3, r4, r5, ?_⟩
      intro x hx
      cases hx with
      | head _ => exact ⟨d1, d2⟩
      | tail _ hx' => exact r6 x hx'

theorem cwStepAll1 (q : List String) (E : List Closure.LEntry) (u v : List Nat) (b : List Bool)
    (h : Closure.fitU E u b q = some v) : Closure.stepAll q [E] [u] [b] = some [v] := by
  simp [Closure.stepAll, h]

theorem cwStepAll1Elim (q : List String) (E : List Closure.LEntry) (u : List Nat) (b : List Bool) (w : Closure.Usage)
    (h : Closure.stepAll q [E] [u] [b] = some w) : ∃ v, Closure.fitU E u b q = some v ∧ w = [v] := by
  cases h1 : Closure.fitU E u b q with
  | none => simp [Closure.stepAll, h1] at h
  | some v =>
    simp [Closure.stepAll, h1] at h
    exact ⟨v, rfl, h.symm⟩

/-- A joint run of a call's units on the old lists is a per-list run on each. -/
theorem cwSplitOld (p : Policy) (u' a' : List Grant) (s : State) (args : List (String × Json)) (es : List Effect)
    (E1 E2 : List Closure.LEntry) : ∀ (effs : List Nat) (u1 u2 v1 v2 : List Nat),
    Closure.runSide true [E1, E2] [u1, u2] (List.map (cwUnit p u' a' s args es) effs) = some [v1, v2] →
    Closure.runSide true [E1] [u1] (List.map (cwUnitL p.user u' s args es) effs) = some [v1] ∧
    Closure.runSide true [E2] [u2] (List.map (cwUnitL p.app a' s args es) effs) = some [v2]
  | [], u1, u2, v1, v2, h => by
    have e : [u1, u2] = [v1, v2] := Option.some.inj h
    have ⟨e1, e2⟩ := List.cons.inj e
    have ⟨e3, _⟩ := List.cons.inj e2
    rw [e1, e3]
    exact ⟨rfl, rfl⟩
  | e :: effs, u1, u2, v1, v2, h => by
    have h' : (match Closure.stepAll s.satisfied [E1, E2] [u1, u2] (cwUnit p u' a' s args es e).old with
      | none => none
      | some w => Closure.runSide true [E1, E2] w (List.map (cwUnit p u' a' s args es) effs)) = some [v1, v2] := h
    cases hs : Closure.stepAll s.satisfied [E1, E2] [u1, u2] (cwUnit p u' a' s args es e).old with
    | none => rw [hs] at h'; cases h'
    | some w =>
      rw [hs] at h'
      have ⟨y1, y2, f1, f2, ew⟩ := cwStepAll2Elim _ _ _ _ _ _ _ w hs
      rw [ew] at h'
      have ⟨r1, r2⟩ := cwSplitOld p u' a' s args es E1 E2 effs y1 y2 v1 v2 h'
      have s1 : Closure.stepAll s.satisfied [E1] [u1] (cwUnitL p.user u' s args es e).old = some [y1] :=
        cwStepAll1 _ _ _ _ _ f1
      have s2 : Closure.stepAll s.satisfied [E2] [u2] (cwUnitL p.app a' s args es e).old = some [y2] :=
        cwStepAll1 _ _ _ _ _ f2
      constructor
      · show (match Closure.stepAll s.satisfied [E1] [u1] (cwUnitL p.user u' s args es e).old with
          | none => none
          | some w => Closure.runSide true [E1] w (List.map (cwUnitL p.user u' s args es) effs)) = some [v1]
        rw [s1]; exact r1
      · show (match Closure.stepAll s.satisfied [E2] [u2] (cwUnitL p.app a' s args es e).old with
          | none => none
          | some w => Closure.runSide true [E2] w (List.map (cwUnitL p.app a' s args es) effs)) = some [v2]
        rw [s2]; exact r2

/-- Per-list runs of a call's units on the new lists make a joint run. -/
theorem cwJoinNew (p : Policy) (u' a' : List Grant) (s : State) (args : List (String × Json)) (es : List Effect)
    (E1 E2 : List Closure.LEntry) : ∀ (effs : List Nat) (u1 u2 : List Nat) (f1 f2 : Closure.Usage),
    Closure.runSide false [E1] [u1] (List.map (cwUnitL p.user u' s args es) effs) = some f1 →
    Closure.runSide false [E2] [u2] (List.map (cwUnitL p.app a' s args es) effs) = some f2 →
    ∃ v1 v2, f1 = [v1] ∧ f2 = [v2] ∧
      Closure.runSide false [E1, E2] [u1, u2] (List.map (cwUnit p u' a' s args es) effs) = some [v1, v2]
  | [], u1, u2, f1, f2, h1, h2 => ⟨u1, u2, (Option.some.inj h1).symm, (Option.some.inj h2).symm, rfl⟩
  | e :: effs, u1, u2, f1, f2, h1, h2 => by
    have h1' : (match Closure.stepAll s.satisfied [E1] [u1] (cwUnitL p.user u' s args es e).new with
      | none => none
      | some w => Closure.runSide false [E1] w (List.map (cwUnitL p.user u' s args es) effs)) = some f1 := h1
    have h2' : (match Closure.stepAll s.satisfied [E2] [u2] (cwUnitL p.app a' s args es e).new with
      | none => none
      | some w => Closure.runSide false [E2] w (List.map (cwUnitL p.app a' s args es) effs)) = some f2 := h2
    cases hs1 : Closure.stepAll s.satisfied [E1] [u1] (cwUnitL p.user u' s args es e).new with
    | none => rw [hs1] at h1'; cases h1'
    | some w1 =>
    cases hs2 : Closure.stepAll s.satisfied [E2] [u2] (cwUnitL p.app a' s args es e).new with
    | none => rw [hs2] at h2'; cases h2'
    | some w2 =>
      rw [hs1] at h1'
      rw [hs2] at h2'
      have ⟨y1, g1, e1⟩ := cwStepAll1Elim _ _ _ _ w1 hs1
      have ⟨y2, g2, e2⟩ := cwStepAll1Elim _ _ _ _ w2 hs2
      rw [e1] at h1'
      rw [e2] at h2'
      have ⟨v1, v2, r1, r2, r3⟩ := cwJoinNew p u' a' s args es E1 E2 effs y1 y2 f1 f2 h1' h2'
      refine ⟨v1, v2, r1, r2, ?_⟩
      have hj : Closure.stepAll s.satisfied [E1, E2] [u1, u2] (cwUnit p u' a' s args es e).new = some [y1, y2] :=
        cwStepAll2 _ _ _ _ _ _ _ _ _ g1 g2
      show (match Closure.stepAll s.satisfied [E1, E2] [u1, u2] (cwUnit p u' a' s args es e).new with
        | none => none
        | some w => Closure.runSide false [E1, E2] w (List.map (cwUnit p u' a' s args es) effs)) = some [v1, v2]
      rw [hj]; exact r3

end AgentWarrant.Monitor.Full
