import AgentWarrant.Spec.Revision.ClosureWhole
import AgentWarrant.Thm.Revision.ClosureBridge
import AgentWarrant.Thm.Revision.ArgCoverBuild
import AgentWarrant.Thm.Monitor.Full.RevisionCert
/-! The closure check's charge is the whole monitor's (Agenra Sections 1, 5.2 and 7.1): on one list,
one effect unit's `firstFitU` on a usage vector picks what the ledger first-fit `scanL` picks on that
list's ledger at the call (`polOf`, which `sideChargeZ` ties to the monitor's Allow), and the usage
it returns has the ledger `scanL` returns. Over a call's effect units and both lists, `runSide` on
the call's units (`cwUnits`) succeeds exactly when both ledger allocations succeed and no explicit
deny matches, with the same successor ledgers.

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

end AgentWarrant.Monitor.Full
