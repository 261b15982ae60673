import AgentWarrant.Spec.Revision.Closure
import AgentWarrant.Spec.Monitor.Ledger
import AgentWarrant.Thm.Monitor.Ledger
/-! The closure checker's charge is the monitor's first-fit (Agenra Section 5.2): on one list, one
unit's `firstFitU` picks what the monitor's `scan` picks for one effect on the accounts the unit
describes (the grant is an allow or not, ready when its requirement is satisfied, matching the
effect when its bit is set; the residual is `quota - used`), and the usage it returns is the one
whose accounts `scan` returns. So `closedPreservesFromStart` speaks of the deployed allocation. -/
namespace AgentWarrant.Revision.Closure
open AgentWarrant AgentWarrant.Monitor

def residU : Option Nat → Nat → Option Nat
  | none, _ => none
  | some m, u => some (m - u)

/-- The monitor's accounts for one unit on one list. -/
def uAccts (q : List String) : List LEntry → List Nat → List Bool → List Acct
  | e :: es, u :: us, b :: bs => (⟨e.allow, reqOk q e.requires, [b]⟩, residU e.quota u) :: uAccts q es us bs
  | _, _, _ => []

theorem zeroSubN : ∀ n : Nat, 0 - n = 0
  | 0 => rfl
  | n + 1 => by rw [Nat.sub_succ, zeroSubN n]; rfl

theorem availSub : ∀ (m u : Nat), avail (some (m - u)) = Nat.ble (u + 1) m
  | 0, u => by rw [zeroSubN]; rfl
  | m + 1, 0 => by rw [Nat.sub_zero]; cases m <;> rfl
  | m + 1, u + 1 => by rw [Nat.succ_sub_succ, availSub m u]; rfl

theorem decSub (m u : Nat) : dec (some (m - u)) = some (m - (u + 1)) := by
  rw [Nat.sub_succ]
  cases m - u <;> rfl

theorem condEq (b a r : Bool) : (b && a && r) = (a && r && hit [b] 0) := by
  cases b <;> cases a <;> cases r <;> rfl

theorem getNApp : ∀ (pre us : List Nat), getN (pre ++ us) (List.length pre) = getN us 0
  | [], us => rfl
  | a :: pre, us => by rw [List.cons_append, List.length_cons]; exact getNApp pre us

theorem incAtApp : ∀ (pre us : List Nat), incAt (pre ++ us) (List.length pre) = pre ++ incAt us 0
  | [], us => rfl
  | a :: pre, us => by
    rw [List.cons_append, List.length_cons]
    show a :: incAt (pre ++ us) (List.length pre) = (a :: pre) ++ incAt us 0
    rw [incAtApp pre us, List.cons_append]

theorem lengthAppOne (pre : List Nat) (u : Nat) : List.length (pre ++ [u]) = List.length pre + 1 := by
  induction pre with
  | nil => rfl
  | cons a pre ih => rw [List.cons_append, List.length_cons, List.length_cons, ih]

/-- A unit `firstFitU` charges is one the monitor's `scan` serves, with the matching accounts after. -/
theorem firstFitScan (q : List String) : ∀ (es : List LEntry) (us : List Nat) (bs : List Bool) (pre : List Nat)
    (used' : List Nat), List.length es = List.length us → List.length bs = List.length us →
    firstFitU q (pre ++ us) (List.length pre) es bs = some used' →
    ∃ k us', scan 0 (List.length pre) (uAccts q es us bs) = some (k, uAccts q es us' bs) ∧ used' = pre ++ us'
  | [], _, _, _, _, _, _, h => by simp [firstFitU] at h
  | _ :: _, [], _, _, _, h, _, _ => by simp [List.length_cons] at h
  | _ :: _, _ :: _, [], _, _, _, h, _ => by simp [List.length_cons] at h
  | e :: es, u :: us, b :: bs, pre, used', he, hb, h => by
    simp [List.length_cons] at he hb
    have hrest : pre ++ u :: us = (pre ++ [u]) ++ us := by rw [List.append_assoc]; rfl
    have hlen := lengthAppOne pre u
    cases hc : (b && e.allow && reqOk q e.requires) with
    | true =>
      have hf : fits ⟨e.allow, reqOk q e.requires, [b]⟩ 0 = true := by
        show (e.allow && reqOk q e.requires && hit [b] 0) = true
        rw [← condEq]; exact hc
      cases hq : e.quota with
      | none =>
        simp [firstFitU, hc, hq] at h
        refine ⟨List.length pre, u :: us, ?_, h.symm⟩
        simp [uAccts, scan, hq, residU, hf, avail, dec]
      | some m =>
        have hg : getN (pre ++ u :: us) (List.length pre) = u := getNApp pre (u :: us)
        cases hm : Nat.ble (u + 1) m with
        | true =>
          simp [firstFitU, hc, hq, hg, hm] at h
          have hi : incAt (pre ++ u :: us) (List.length pre) = pre ++ (u + 1) :: us := incAtApp pre (u :: us)
          rw [hi] at h
          have ha : avail (some (m - u)) = true := by rw [availSub]; exact hm
          refine ⟨List.length pre, (u + 1) :: us, ?_, h.symm⟩
          simp [uAccts, scan, hq, residU, hf, ha, decSub]
        | false =>
          simp [firstFitU, hc, hq, hg, hm] at h
          have ha : avail (some (m - u)) = false := by rw [availSub]; exact hm
          rw [hrest, ← hlen] at h
          have ⟨k, us', hs, hu⟩ := firstFitScan q es us bs (pre ++ [u]) used' he hb h
          rw [hlen] at hs
          refine ⟨k, u :: us', ?_, by rw [hu, List.append_assoc]; rfl⟩
          simp [uAccts, scan, hq, residU, hf, ha, hs]
    | false =>
      have hf : fits ⟨e.allow, reqOk q e.requires, [b]⟩ 0 = false := by
        show (e.allow && reqOk q e.requires && hit [b] 0) = false
        rw [← condEq]; exact hc
      simp [firstFitU, hc] at h
      rw [hrest, ← hlen] at h
      have ⟨k, us', hs, hu⟩ := firstFitScan q es us bs (pre ++ [u]) used' he hb h
      rw [hlen] at hs
      refine ⟨k, u :: us', ?_, by rw [hu, List.append_assoc]; rfl⟩
      simp [uAccts, scan, hf, hs]

/-- A unit `firstFitU` refuses is one the monitor's `scan` refuses: with `firstFitScan`, the two
agree on every unit. -/
theorem firstFitNone (q : List String) : ∀ (es : List LEntry) (us : List Nat) (bs : List Bool) (pre : List Nat),
    List.length es = List.length us → List.length bs = List.length us →
    firstFitU q (pre ++ us) (List.length pre) es bs = none → scan 0 (List.length pre) (uAccts q es us bs) = none
  | [], _, _, _, _, _, _ => rfl
  | _ :: _, [], _, _, h, _, _ => by simp [List.length_cons] at h
  | _ :: _, _ :: _, [], _, _, h, _ => by simp [List.length_cons] at h
  | e :: es, u :: us, b :: bs, pre, he, hb, h => by
    simp [List.length_cons] at he hb
    have hrest : pre ++ u :: us = (pre ++ [u]) ++ us := by rw [List.append_assoc]; rfl
    have hlen := lengthAppOne pre u
    cases hc : (b && e.allow && reqOk q e.requires) with
    | true =>
      have hf : fits ⟨e.allow, reqOk q e.requires, [b]⟩ 0 = true := by
        show (e.allow && reqOk q e.requires && hit [b] 0) = true
        rw [← condEq]; exact hc
      cases hq : e.quota with
      | none => simp [firstFitU, hc, hq] at h
      | some m =>
        have hg : getN (pre ++ u :: us) (List.length pre) = u := getNApp pre (u :: us)
        cases hm : Nat.ble (u + 1) m with
        | true => simp [firstFitU, hc, hq, hg, hm] at h
        | false =>
          simp [firstFitU, hc, hq, hg, hm] at h
          have ha : avail (some (m - u)) = false := by rw [availSub]; exact hm
          rw [hrest, ← hlen] at h
          have hs := firstFitNone q es us bs (pre ++ [u]) he hb h
          rw [hlen] at hs
          simp [uAccts, scan, hq, residU, hf, ha, hs]
    | false =>
      have hf : fits ⟨e.allow, reqOk q e.requires, [b]⟩ 0 = false := by
        show (e.allow && reqOk q e.requires && hit [b] 0) = false
        rw [← condEq]; exact hc
      simp [firstFitU, hc] at h
      rw [hrest, ← hlen] at h
      have hs := firstFitNone q es us bs (pre ++ [u]) he hb h
      rw [hlen] at hs
      simp [uAccts, scan, hf, hs]

end AgentWarrant.Revision.Closure
