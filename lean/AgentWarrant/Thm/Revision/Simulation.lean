import AgentWarrant.Spec.Revision.Ledger
/-! Simulations give client preservation at every finite length (Agenra Sections 1 and 7.1): a
relation between old and new ledgers that contains the initial pair and is closed under every
call's charge keeps every client of the old list (or of both lists, jointly) admitted by the new
one, whatever the trace's length, with the final ledgers related. A relation closed under one
first-fit reservation is closed under a whole call's batch. -/
namespace AgentWarrant.Revision
open AgentWarrant.Monitor

variable {C : Type}

/-- Section 7.1 (1), per list: a simulation containing the initial pair preserves every client of
calls in `D` at every length, with related successor ledgers. -/
theorem simPreserves (effs : C → List Nat) (D : C → Prop) (R : Ledger C → Ledger C → Prop) (hs : Sim effs D R) :
    ∀ (cs : List C) (l n lf : Ledger C), (∀ c, c ∈ cs → D c) → R l n → runL effs l cs = some lf →
    ∃ nf, runL effs n cs = some nf ∧ R lf nf
  | [], l, n, lf, _, hr, h => by
    simp [runL] at h
    rw [← h]
    exact ⟨n, rfl, hr⟩
  | c :: cs, l, n, lf, hd, hr, h => by
    cases hc : chargeL effs c l with
    | none => simp [runL, hc] at h
    | some l' =>
      simp [runL, hc] at h
      have ⟨n', hn, hr'⟩ := hs c l n l' (hd c (Mem.head _)) hr hc
      have ⟨nf, hnf, hrf⟩ := simPreserves effs D R hs cs l' n' lf (fun c' h' => hd c' (Mem.tail _ h')) hr' h
      exact ⟨nf, by simp [runL, hn, hnf], hrf⟩

/-- A joint simulation containing the initial pair preserves every client of both lists. -/
theorem jointPreserves (effs : C → List Nat) (D : C → Prop) (R : Ledger C × Ledger C → Ledger C × Ledger C → Prop)
    (hs : JointSim effs D R) :
    ∀ (cs : List C) (o n f : Ledger C × Ledger C), (∀ c, c ∈ cs → D c) → R o n → runBoth effs o.1 o.2 cs = some f →
    ∃ g, runBoth effs n.1 n.2 cs = some g ∧ R f g
  | [], o, n, f, _, hr, h => by
    simp [runBoth] at h
    rw [← h]
    cases n with
    | mk np na => cases o with
      | mk op oa => exact ⟨(np, na), rfl, hr⟩
  | c :: cs, o, n, f, hd, hr, h => by
    cases hc : chargeBoth effs c o.1 o.2 with
    | none => simp [runBoth, hc] at h
    | some o' =>
      cases o' with
      | mk p' a' =>
        simp [runBoth, hc] at h
        have ⟨n', hn, hr'⟩ := hs c o n (p', a') (hd c (Mem.head _)) hr hc
        have ⟨g, hg, hrg⟩ := jointPreserves effs D R hs cs (p', a') n' f (fun c' h' => hd c' (Mem.tail _ h')) hr' h
        cases n' with
        | mk np na => exact ⟨g, by simp [runBoth, hn, hg], hrg⟩

/-- Two per-list simulations make a joint one: the all-or-nothing charge succeeds on the new pair
whenever it succeeds on the old. -/
theorem simBoth (effs : C → List Nat) (D : C → Prop) (RP RA : Ledger C → Ledger C → Prop)
    (hp : Sim effs D RP) (ha : Sim effs D RA) : JointSim effs D (fun o n => RP o.1 n.1 ∧ RA o.2 n.2) := by
  intro c o n o' hd ⟨rp, ra⟩ h
  cases hcp : chargeL effs c o.1 with
  | none => simp [chargeBoth, hcp] at h
  | some p' =>
    cases hca : chargeL effs c o.2 with
    | none => simp [chargeBoth, hcp, hca] at h
    | some a' =>
      simp [chargeBoth, hcp, hca] at h
      have ⟨np, hnp, rp'⟩ := hp c o.1 n.1 p' hd rp hcp
      have ⟨na, hna, ra'⟩ := ha c o.2 n.2 a' hd ra hca
      rw [← h]
      exact ⟨(np, na), by simp [chargeBoth, hnp, hna], rp', ra'⟩

theorem allocSim (D : C → Prop) (R : Ledger C → Ledger C → Prop) (hs : ScanSim D R) (c : C) (hd : D c) :
    ∀ (es : List Nat) (l n : Ledger C) (ps : List Nat) (lf : Ledger C), R l n → allocL c l es = some (ps, lf) →
    ∃ qs nf, allocL c n es = some (qs, nf) ∧ R lf nf
  | [], l, n, ps, lf, hr, h => by
    simp [allocL] at h
    rw [← h.2]
    exact ⟨[], n, rfl, hr⟩
  | e :: es, l, n, ps, lf, hr, h => by
    cases h1 : scanL c e 0 l with
    | none => simp [allocL, h1] at h
    | some p => cases p with
      | mk k l1 =>
        cases h2 : allocL c l1 es with
        | none => simp [allocL, h1, h2] at h
        | some q => cases q with
          | mk ps1 lf1 =>
            simp [allocL, h1, h2] at h
            have ⟨k', n1, hn1, hr1⟩ := hs c e 0 l n k l1 hd hr h1
            have ⟨qs, nf, hnf, hrf⟩ := allocSim D R hs c hd es l1 n1 ps1 lf1 hr1 h2
            rw [← h.2]
            exact ⟨k' :: qs, nf, by simp [allocL, hn1, hnf], hrf⟩

/-- Closure under one reservation gives closure under a whole call. -/
theorem simOfScanSim (effs : C → List Nat) (D : C → Prop) (R : Ledger C → Ledger C → Prop) (hs : ScanSim D R) :
    Sim effs D R := by
  intro c l n l' hd hr h
  cases ha : allocL c l (effs c) with
  | none => simp [chargeL, ha] at h
  | some p => cases p with
    | mk ps lf =>
      simp [chargeL, ha] at h
      have ⟨qs, nf, hn, hrf⟩ := allocSim D R hs c hd (effs c) l n ps lf hr ha
      rw [← h]
      exact ⟨nf, by simp [chargeL, hn], hrf⟩

end AgentWarrant.Revision
