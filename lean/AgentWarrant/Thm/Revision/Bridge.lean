import AgentWarrant.Spec.Revision.Ledger
/-! The ledger first-fit of AgentWarrant.Spec.Revision.Ledger is the monitor's first-fit: on the
accounts a call instantiates, `scanL`/`allocL` pick what `scan`/`alloc` pick. So a client admitted
by `runL` is one every call of which the deployed allocation serves. -/
namespace AgentWarrant.Revision
open AgentWarrant.Monitor

variable {C : Type}

theorem scanInst (c : C) (e : Nat) : ∀ (i : Nat) (l : Ledger C),
    scan e i (inst c l) = (match scanL c e i l with
      | none => none
      | some (k, l') => some (k, inst c l'))
  | i, [] => rfl
  | i, (g, r) :: l => by
    cases hf : (fits (g c) e && avail r) with
    | true => simp [inst, scan, scanL, hf]
    | false =>
      have ih := scanInst c e (i + 1) l
      cases hs : scanL c e (i + 1) l with
      | none => rw [hs] at ih; simp [inst, scan, scanL, hf, hs, ih]
      | some p => cases p with
        | mk k l' => rw [hs] at ih; simp [inst, scan, scanL, hf, hs, ih]

theorem allocInst (c : C) : ∀ (es : List Nat) (l : Ledger C),
    alloc (inst c l) es = (match allocL c l es with
      | none => none
      | some (ps, _) => some ps)
  | [], l => rfl
  | e :: es, l => by
    have hs := scanInst c e 0 l
    cases h : scanL c e 0 l with
    | none => rw [h] at hs; simp [alloc, allocL, hs, h]
    | some p => cases p with
      | mk k l' =>
        rw [h] at hs
        have ih := allocInst c es l'
        cases ha : allocL c l' es with
        | none => rw [ha] at ih; simp [alloc, allocL, hs, h, ha, ih]
        | some q => cases q with
          | mk ps lf => rw [ha] at ih; simp [alloc, allocL, hs, h, ha, ih]

end AgentWarrant.Revision
