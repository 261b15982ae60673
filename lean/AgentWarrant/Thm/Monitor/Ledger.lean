import AgentWarrant.Spec.Monitor.Ledger
/-! First-fit allocation (Agenra Section 5.2): determinism, the all-or-nothing two-list charge,
and prefix compatibility (appending grants never changes an allocation that succeeded). -/
namespace AgentWarrant.Monitor

theorem allocDeterministic (l : List Acct) (es : List Nat) (p q : Option (List Nat))
    (hp : alloc l es = p) (hq : alloc l es = q) : p = q := by rw [← hp, ← hq]

theorem allocBothAllOrNothing (u a : List Acct) (es : List Nat) (pu pa : List Nat) :
    allocBoth u a es = some (pu, pa) ↔ alloc u es = some pu ∧ alloc a es = some pa := by
  constructor
  · intro h
    cases hu : alloc u es with
    | none => simp [allocBoth, hu] at h
    | some x =>
      cases ha : alloc a es with
      | none => simp [allocBoth, hu, ha] at h
      | some y =>
        simp [allocBoth, hu, ha] at h
        have ⟨e1, e2⟩ := h
        rw [e1, e2]; exact ⟨rfl, rfl⟩
  · intro ⟨hu, ha⟩
    simp [allocBoth, hu, ha]

theorem scanAppend (e : Nat) (x : List Acct) : ∀ (i : Nat) (l : List Acct) (k : Nat) (l' : List Acct),
    scan e i l = some (k, l') → scan e i (l ++ x) = some (k, l' ++ x)
  | _, [], _, _, h => by simp [scan] at h
  | i, (g, r) :: l, k, l', h => by
    cases hf : (fits g e && avail r) with
    | true =>
      simp [scan, hf] at h ⊢
      have ⟨e1, e2⟩ := h
      rw [← e1, ← e2]; exact ⟨rfl, (List.cons_append _ _ _).symm⟩
    | false =>
      simp [scan, hf] at h ⊢
      cases hs : scan e (i + 1) l with
      | none => rw [hs] at h; simp at h
      | some p =>
        cases p with
        | mk k0 l0 =>
          rw [hs] at h
          simp at h
          have ⟨e1, e2⟩ := h
          rw [scanAppend e x (i + 1) l k0 l0 hs]
          rw [← e1, ← e2]
          simp [List.cons_append]

/-- Appending grants never changes an allocation that succeeded (prefix-compatible extension). -/
theorem allocAppend (x : List Acct) : ∀ (es : List Nat) (l : List Acct) (ps : List Nat),
    alloc l es = some ps → alloc (l ++ x) es = some ps
  | [], _, _, h => h
  | e :: es, l, ps, h => by
    cases hs : scan e 0 l with
    | none => simp [alloc, hs] at h
    | some p =>
      cases p with
      | mk k l' =>
        cases ha : alloc l' es with
        | none => simp [alloc, hs, ha] at h
        | some qs =>
          simp [alloc, hs, ha] at h
          simp [alloc, scanAppend e x 0 l k l' hs, allocAppend x es l' qs ha]
          exact h

end AgentWarrant.Monitor
