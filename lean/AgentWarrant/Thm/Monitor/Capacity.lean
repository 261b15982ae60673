import AgentWarrant.Spec.Monitor.Ledger
/-! Capacity extension (Agenra Section 5.2): raising capacities while keeping the order and the
matching of every grant never makes first-fit fail on a batch the old list served.

The invariant behind the proof: after each effect, every account of the new list has at least
the remaining capacity of the same account of the old list. When the new scan stops earlier than
the old one, it stops at an account the old list had exhausted (same grant, so same matching),
so reserving there keeps the invariant. -/
namespace AgentWarrant.Monitor

/-- `Geq r' r`: remaining capacity `r'` is at least `r` (`none` is unlimited). -/
def Geq : Option Nat → Option Nat → Prop
  | none, _ => True
  | some _, none => False
  | some a, some b => b ≤ a

/-- `Ext old new`: the same grants in the same order, each with at least the old capacity. -/
inductive Ext : List Acct → List Acct → Prop
  | nil : Ext [] []
  | cons (g : Grant) {r r' : Option Nat} {l l' : List Acct} : Geq r' r → Ext l l' → Ext ((g, r) :: l) ((g, r') :: l')

theorem geqRefl : ∀ r : Option Nat, Geq r r
  | none => trivial
  | some a => Nat.leRefl a

theorem geqTrans : ∀ {a b c : Option Nat}, Geq a b → Geq b c → Geq a c
  | none, _, _, _, _ => trivial
  | some _, none, _, h, _ => absurd h id
  | some _, some _, none, _, h => absurd h id
  | some _, some _, some _, h1, h2 => Nat.leTrans h2 h1

theorem geqZero : ∀ r : Option Nat, Geq r (some 0)
  | none => trivial
  | some a => Nat.zeroLe a

theorem availMono : ∀ {r' r : Option Nat}, Geq r' r → avail r = true → avail r' = true
  | none, _, _, _ => rfl
  | some _, none, h, _ => absurd h id
  | some _, some 0, _, h => by simp [avail] at h
  | some 0, some (b + 1), h, _ => absurd h (Nat.notSuccLeZero b)
  | some (a + 1), some (b + 1), _, _ => rfl

theorem availFalse : ∀ {r : Option Nat}, avail r = false → r = some 0
  | none, h => by simp [avail] at h
  | some 0, _ => rfl
  | some (n + 1), h => Bool.noConfusion h

theorem decMono : ∀ {r' r : Option Nat}, Geq r' r → Geq (dec r') (dec r)
  | none, _, _ => trivial
  | some _, none, h => absurd h id
  | some a, some 0, _ => geqZero (dec (some a))
  | some 0, some (b + 1), h => absurd h (Nat.notSuccLeZero b)
  | some (a + 1), some (b + 1), h => Nat.leOfSuccLeSucc h

theorem decLe : ∀ r : Option Nat, Geq r (dec r)
  | none => trivial
  | some 0 => Nat.leRefl 0
  | some (a + 1) => Nat.leSucc a

theorem extRefl : ∀ l : List Acct, Ext l l
  | [] => Ext.nil
  | (g, r) :: l => Ext.cons g (geqRefl r) (extRefl l)

theorem extTrans : ∀ {a b c : List Acct}, Ext a b → Ext b c → Ext a c
  | _, _, _, Ext.nil, Ext.nil => Ext.nil
  | _, _, _, Ext.cons g h1 t1, Ext.cons _ h2 t2 => Ext.cons g (geqTrans h2 h1) (extTrans t1 t2)

/-- A scan only ever lowers capacities. -/
theorem scanLowers (e : Nat) : ∀ (i : Nat) (l : List Acct) (k : Nat) (l' : List Acct),
    scan e i l = some (k, l') → Ext l' l
  | _, [], _, _, h => by simp [scan] at h
  | i, (g, r) :: l, k, l', h => by
    cases hf : (fits g e && avail r) with
    | true =>
      simp [scan, hf] at h
      rw [← h.2]
      exact Ext.cons g (decLe r) (extRefl l)
    | false =>
      simp [scan, hf] at h
      cases hs : scan e (i + 1) l with
      | none => rw [hs] at h; simp at h
      | some p =>
        cases p with
        | mk k0 l0 =>
          rw [hs] at h
          simp at h
          rw [← h.2]
          exact Ext.cons g (geqRefl r) (scanLowers e (i + 1) l k0 l0 hs)

theorem scanExt (e : Nat) : ∀ (i : Nat) {l n : List Acct}, Ext l n → ∀ (k : Nat) (l1 : List Acct),
    scan e i l = some (k, l1) → ∃ k' n1, scan e i n = some (k', n1) ∧ Ext l1 n1
  | _, _, _, Ext.nil, _, _, h => by simp [scan] at h
  | i, _, _, @Ext.cons g r r' l n hg hl, k, l1, h => by
    cases hf : fits g e with
    | true =>
      cases ha : avail r with
      | true =>
        have ha' : avail r' = true := availMono hg ha
        simp [scan, hf, ha] at h
        refine ⟨i, (g, dec r') :: n, ?_, ?_⟩
        · simp [scan, hf, ha']
        · rw [← h.2]; exact Ext.cons g (decMono hg) hl
      | false =>
        simp [scan, hf, ha] at h
        cases hs : scan e (i + 1) l with
        | none => rw [hs] at h; simp at h
        | some p =>
          cases p with
          | mk k0 l0 =>
            rw [hs] at h
            simp at h
            cases ha' : avail r' with
            | true =>
              refine ⟨i, (g, dec r') :: n, ?_, ?_⟩
              · simp [scan, hf, ha']
              · rw [← h.2, availFalse ha]
                exact Ext.cons g (geqZero _) (extTrans (scanLowers e (i + 1) l k0 l0 hs) hl)
            | false =>
              have ⟨k', n1, hs', hx⟩ := scanExt e (i + 1) hl k0 l0 hs
              refine ⟨k', (g, r') :: n1, ?_, ?_⟩
              · simp [scan, hf, ha', hs']
              · rw [← h.2]; exact Ext.cons g hg hx
    | false =>
      simp [scan, hf] at h
      cases hs : scan e (i + 1) l with
      | none => rw [hs] at h; simp at h
      | some p =>
        cases p with
        | mk k0 l0 =>
          rw [hs] at h
          simp at h
          have ⟨k', n1, hs', hx⟩ := scanExt e (i + 1) hl k0 l0 hs
          refine ⟨k', (g, r') :: n1, ?_, ?_⟩
          · simp [scan, hf, hs']
          · rw [← h.2]; exact Ext.cons g hg hx

/-- A capacity extension that keeps order and matching admits every batch the old list admits. -/
theorem allocExt : ∀ (es : List Nat) {l n : List Acct}, Ext l n → ∀ (ps : List Nat),
    alloc l es = some ps → ∃ qs, alloc n es = some qs
  | [], _, _, _, _, _ => ⟨[], rfl⟩
  | e :: es, l, n, hx, ps, h => by
    cases hs : scan e 0 l with
    | none => simp [alloc, hs] at h
    | some p =>
      cases p with
      | mk k l1 =>
        cases ha : alloc l1 es with
        | none => simp [alloc, hs, ha] at h
        | some qs =>
          have ⟨k', n1, hs', hx1⟩ := scanExt e 0 hx k l1 hs
          have ⟨qs', ha'⟩ := allocExt es hx1 qs ha
          exact ⟨k' :: qs', by simp [alloc, hs', ha']⟩

end AgentWarrant.Monitor
