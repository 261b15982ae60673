import AgentWarrant.Thm.Revision.Simulation
/-! Structural revision certificates preserve clients (Agenra Section 7.1, part 1).

Each generator of `Rev D` is closed under one first-fit reservation (`ScanSim`), and so is their
closure under lifting and composition; hence `Rev D` is a simulation, and every client of calls
in `D` admitted by the old pair of lists is admitted by the new pair at every finite length, with
successor ledgers again related by `Rev D`. For a capacity extension, the new scan picks a
position no later than the old one, and residual dominance holds after charging. -/
namespace AgentWarrant.Revision
open AgentWarrant.Monitor

variable {C : Type}

theorem andTrueLeft {a b : Bool} (h : (a && b) = true) : a = true := by cases a <;> simp at h ⊢
theorem andTrueRight {a b : Bool} (h : (a && b) = true) : b = true := by cases a <;> cases b <;> simp at h ⊢

theorem scanLAppend (c : C) (e : Nat) (x : Ledger C) : ∀ (i : Nat) (l : Ledger C) (k : Nat) (l' : Ledger C),
    scanL c e i l = some (k, l') → scanL c e i (l ++ x) = some (k, l' ++ x)
  | _, [], _, _, h => by simp [scanL] at h
  | i, (g, r) :: l, k, l', h => by
    rw [List.cons_append]
    cases hf : (fits (g c) e && avail r) with
    | true =>
      simp [scanL, hf] at h ⊢
      have ⟨e1, e2⟩ := h
      rw [← e1, ← e2]; exact ⟨rfl, (List.cons_append _ _ _).symm⟩
    | false =>
      simp [scanL, hf] at h ⊢
      cases hs : scanL c e (i + 1) l with
      | none => rw [hs] at h; simp at h
      | some p => cases p with
        | mk k0 l0 =>
          rw [hs] at h
          simp at h
          have ⟨e1, e2⟩ := h
          rw [scanLAppend c e x (i + 1) l k0 l0 hs, ← e1, ← e2]
          simp [List.cons_append]

theorem scanLGe (c : C) (e : Nat) : ∀ (i : Nat) (l : Ledger C) (k : Nat) (l' : Ledger C),
    scanL c e i l = some (k, l') → i ≤ k
  | _, [], _, _, h => by simp [scanL] at h
  | i, (g, r) :: l, k, l', h => by
    cases hf : (fits (g c) e && avail r) with
    | true => simp [scanL, hf] at h; rw [← h.1]; exact Nat.leRefl i
    | false =>
      simp [scanL, hf] at h
      cases hs : scanL c e (i + 1) l with
      | none => rw [hs] at h; simp at h
      | some p => cases p with
        | mk k0 l0 =>
          rw [hs] at h; simp at h
          rw [← h.1]
          exact Nat.leOfSuccLeSucc (Nat.leStep (scanLGe c e (i + 1) l k0 l0 hs))

theorem capExtRefl : ∀ l : Ledger C, CapExt l l
  | [] => CapExt.nil
  | (g, r) :: l => CapExt.cons g (geqRefl r) (capExtRefl l)

theorem capExtTrans : ∀ {a b d : Ledger C}, CapExt a b → CapExt b d → CapExt a d
  | _, _, _, CapExt.nil, CapExt.nil => CapExt.nil
  | _, _, _, CapExt.cons g h1 t1, CapExt.cons _ h2 t2 => CapExt.cons g (geqTrans h2 h1) (capExtTrans t1 t2)

theorem scanLLowers (c : C) (e : Nat) : ∀ (i : Nat) (l : Ledger C) (k : Nat) (l' : Ledger C),
    scanL c e i l = some (k, l') → CapExt l' l
  | _, [], _, _, h => by simp [scanL] at h
  | i, (g, r) :: l, k, l', h => by
    cases hf : (fits (g c) e && avail r) with
    | true =>
      simp [scanL, hf] at h
      rw [← h.2]
      exact CapExt.cons g (decLe r) (capExtRefl l)
    | false =>
      simp [scanL, hf] at h
      cases hs : scanL c e (i + 1) l with
      | none => rw [hs] at h; simp at h
      | some p => cases p with
        | mk k0 l0 =>
          rw [hs] at h; simp at h
          rw [← h.2]
          exact CapExt.cons g (geqRefl r) (scanLLowers c e (i + 1) l k0 l0 hs)

/-- Section 7.1, capacity extension: if the old scan picks `j`, the new one picks some `k ≤ j`, and
after charging both, every new residual still dominates the old one. -/
theorem capScan (c : C) (e : Nat) : ∀ (i : Nat) {l n : Ledger C}, CapExt l n → ∀ (j : Nat) (l1 : Ledger C),
    scanL c e i l = some (j, l1) → ∃ k n1, scanL c e i n = some (k, n1) ∧ k ≤ j ∧ CapExt l1 n1
  | _, _, _, CapExt.nil, _, _, h => by simp [scanL] at h
  | i, _, _, @CapExt.cons _ g r r' l n hg hl, j, l1, h => by
    cases hf : fits (g c) e with
    | true =>
      cases ha : avail r with
      | true =>
        have ha' : avail r' = true := availMono hg ha
        simp [scanL, hf, ha] at h
        refine ⟨i, (g, dec r') :: n, by simp [scanL, hf, ha'], ?_, ?_⟩
        · rw [← h.1]; exact Nat.leRefl i
        · rw [← h.2]; exact CapExt.cons g (decMono hg) hl
      | false =>
        simp [scanL, hf, ha] at h
        cases hs : scanL c e (i + 1) l with
        | none => rw [hs] at h; simp at h
        | some p => cases p with
          | mk k0 l0 =>
            rw [hs] at h; simp at h
            cases ha' : avail r' with
            | true =>
              refine ⟨i, (g, dec r') :: n, by simp [scanL, hf, ha'], ?_, ?_⟩
              · rw [← h.1]; exact Nat.leOfSuccLeSucc (Nat.leStep (scanLGe c e (i + 1) l k0 l0 hs))
              · rw [← h.2, availFalse ha]
                exact CapExt.cons g (geqZero _) (capExtTrans (scanLLowers c e (i + 1) l k0 l0 hs) hl)
            | false =>
              have ⟨k', n1, hs', hle, hx⟩ := capScan c e (i + 1) hl k0 l0 hs
              refine ⟨k', (g, r') :: n1, by simp [scanL, hf, ha', hs'], ?_, ?_⟩
              · rw [← h.1]; exact hle
              · rw [← h.2]; exact CapExt.cons g hg hx
    | false =>
      simp [scanL, hf] at h
      cases hs : scanL c e (i + 1) l with
      | none => rw [hs] at h; simp at h
      | some p => cases p with
        | mk k0 l0 =>
          rw [hs] at h; simp at h
          have ⟨k', n1, hs', hle, hx⟩ := capScan c e (i + 1) hl k0 l0 hs
          refine ⟨k', (g, r') :: n1, by simp [scanL, hf, hs'], ?_, ?_⟩
          · rw [← h.1]; exact hle
          · rw [← h.2]; exact CapExt.cons g hg hx

theorem swapScanBase (D : C → Prop) (ga gb : C → Grant) (hi : Indep D ga gb) (c : C) (hd : D c) (e : Nat)
    (ra rb : Option Nat) (post : Ledger C) (i k : Nat) (l' : Ledger C)
    (h : scanL c e i ((ga, ra) :: (gb, rb) :: post) = some (k, l')) :
    ∃ k' post' ra' rb', l' = (ga, ra') :: (gb, rb') :: post' ∧
      scanL c e i ((gb, rb) :: (ga, ra) :: post) = some (k', (gb, rb') :: (ga, ra') :: post') := by
  cases hfa : (fits (ga c) e && avail ra) with
  | true =>
    simp [scanL, hfa] at h
    have hb : (fits (gb c) e && avail rb) = false := by
      rw [hi c e hd (andTrueLeft hfa)]; rfl
    refine ⟨i + 1, post, dec ra, rb, by rw [← h.2], ?_⟩
    simp [scanL, hb, hfa]
  | false =>
    cases hfb : (fits (gb c) e && avail rb) with
    | true =>
      simp [scanL, hfa, hfb] at h
      refine ⟨i, post, ra, dec rb, by rw [← h.2], ?_⟩
      simp [scanL, hfb]
    | false =>
      simp [scanL, hfa, hfb] at h
      cases hs : scanL c e (i + 1 + 1) post with
      | none => rw [hs] at h; simp at h
      | some p => cases p with
        | mk k0 p0 =>
          rw [hs] at h; simp at h
          refine ⟨k0, p0, ra, rb, by rw [← h.2], ?_⟩
          simp [scanL, hfa, hfb, hs]

theorem swapScan (D : C → Prop) (ga gb : C → Grant) (hi : Indep D ga gb) (c : C) (hd : D c) (e : Nat)
    (ra rb : Option Nat) : ∀ (pre post : Ledger C) (i k : Nat) (l' : Ledger C),
    scanL c e i (pre ++ (ga, ra) :: (gb, rb) :: post) = some (k, l') →
    ∃ k' pre' post' ra' rb', l' = pre' ++ (ga, ra') :: (gb, rb') :: post' ∧
      scanL c e i (pre ++ (gb, rb) :: (ga, ra) :: post) = some (k', pre' ++ (gb, rb') :: (ga, ra') :: post')
  | [], post, i, k, l', h => by
    have ⟨k', post', ra', rb', e1, e2⟩ := swapScanBase D ga gb hi c hd e ra rb post i k l' h
    exact ⟨k', [], post', ra', rb', e1, e2⟩
  | (g, r) :: pre, post, i, k, l', h => by
    rw [List.cons_append] at h
    rw [List.cons_append]
    cases hf : (fits (g c) e && avail r) with
    | true =>
      simp [scanL, hf] at h
      refine ⟨i, (g, dec r) :: pre, post, ra, rb, ?_, ?_⟩
      · rw [← h.2, List.cons_append]
      · simp [scanL, hf, List.cons_append]
    | false =>
      simp [scanL, hf] at h
      cases hs : scanL c e (i + 1) (pre ++ (ga, ra) :: (gb, rb) :: post) with
      | none => rw [hs] at h; simp at h
      | some p => cases p with
        | mk k0 l0 =>
          rw [hs] at h; simp at h
          have ⟨k', pre', post', ra', rb', e1, e2⟩ := swapScan D ga gb hi c hd e ra rb pre post (i + 1) k0 l0 hs
          refine ⟨k', (g, r) :: pre', post', ra', rb', ?_, ?_⟩
          · rw [← h.2, e1, List.cons_append]
          · simp [scanL, hf, e2, List.cons_append]

theorem matchEqScan (D : C → Prop) (c : C) (hd : D c) (e : Nat) : ∀ (i : Nat) {l n : Ledger C}, MatchEq D l n →
    ∀ (k : Nat) (l' : Ledger C), scanL c e i l = some (k, l') → ∃ n', scanL c e i n = some (k, n') ∧ MatchEq D l' n'
  | _, _, _, MatchEq.nil, _, _, h => by simp [scanL] at h
  | i, _, _, MatchEq.cons g g' r hm t, k, l', h => by
    have hf := hm c e hd
    cases hx : (fits (g c) e && avail r) with
    | true =>
      have hx' : (fits (g' c) e && avail r) = true := by rw [← hf]; exact hx
      simp [scanL, hx] at h
      rw [← h.1, ← h.2]
      exact ⟨(g', dec r) :: _, by simp [scanL, hx'], MatchEq.cons g g' (dec r) hm t⟩
    | false =>
      have hx' : (fits (g' c) e && avail r) = false := by rw [← hf]; exact hx
      simp [scanL, hx] at h
      cases hs : scanL c e (i + 1) _ with
      | none => rw [hs] at h; simp at h
      | some p => cases p with
        | mk k0 l0 =>
          rw [hs] at h; simp at h
          have ⟨n0, hn0, hm0⟩ := matchEqScan D c hd e (i + 1) t k0 l0 hs
          rw [← h.1, ← h.2]
          exact ⟨(g', r) :: n0, by simp [scanL, hx', hn0], MatchEq.cons g g' r hm hm0⟩

/-- Every structural certificate is closed under one first-fit reservation. -/
theorem revScanSim (D : C → Prop) : ∀ {l n : Ledger C}, Rev D l n → ∀ (c : C) (e i k : Nat) (l' : Ledger C),
    D c → scanL c e i l = some (k, l') → ∃ k' n', scanL c e i n = some (k', n') ∧ Rev D l' n' := by
  intro l n h
  induction h with
  | append l x =>
    intro c e i k l' _ hs
    exact ⟨k, l' ++ x, scanLAppend c e x i l k l' hs, Rev.append l' x⟩
  | equiv hm =>
    intro c e i k l' hd hs
    have ⟨n', hn, hm'⟩ := matchEqScan D c hd e i hm k l' hs
    exact ⟨k, n', hn, Rev.equiv hm'⟩
  | cap hc =>
    intro c e i k l' _ hs
    have ⟨k', n1, hn, _, hx⟩ := capScan c e i hc k l' hs
    exact ⟨k', n1, hn, Rev.cap hx⟩
  | swap pre post a b hi =>
    intro c e i k l' hd hs
    cases a with
    | mk ga ra => cases b with
      | mk gb rb =>
        have ⟨k', pre', post', ra', rb', e1, e2⟩ := swapScan D ga gb hi c hd e ra rb pre post i k l' hs
        rw [e1]
        exact ⟨k', _, e2, Rev.swap pre' post' (ga, ra') (gb, rb') hi⟩
  | lift a h ih =>
    intro c e i k l' hd hs
    cases a with
    | mk g r =>
      cases hf : (fits (g c) e && avail r) with
      | true =>
        simp [scanL, hf] at hs
        rw [← hs.2]
        exact ⟨i, _, by simp [scanL, hf], Rev.lift (g, dec r) h⟩
      | false =>
        simp [scanL, hf] at hs
        cases h0 : scanL c e (i + 1) _ with
        | none => rw [h0] at hs; simp at hs
        | some p => cases p with
          | mk k0 l0 =>
            rw [h0] at hs; simp at hs
            have ⟨k', n0, hn0, hr0⟩ := ih c e (i + 1) k0 l0 hd h0
            rw [← hs.2]
            exact ⟨k', (g, r) :: n0, by simp [scanL, hf, hn0], Rev.lift (g, r) hr0⟩
  | comp h1 h2 ih1 ih2 =>
    intro c e i k l' hd hs
    have ⟨k1, m', hm, hr1⟩ := ih1 c e i k l' hd hs
    have ⟨k2, n', hn, hr2⟩ := ih2 c e i k1 m' hd hm
    exact ⟨k2, n', hn, Rev.comp hr1 hr2⟩

/-- The structural certificates form a simulation on each list. -/
theorem revSim (effs : C → List Nat) (D : C → Prop) : Sim effs D (Rev D) :=
  simOfScanSim effs D (Rev D) (fun c e i l n k l' hd hr hs => revScanSim D hr c e i k l' hd hs)

/-- Section 7.1 (1): if `P ⇝_D P'` and `A ⇝_D A'`, every client of calls in `D` admitted by the old
lists is admitted by the new ones at every finite length, with successor ledgers again related. -/
theorem revPreservesClients (effs : C → List Nat) (D : C → Prop) {P P' A A' : Ledger C}
    (hp : Rev D P P') (ha : Rev D A A') (cs : List C) (hd : ∀ c, c ∈ cs → D c) (Pf Af : Ledger C)
    (h : runBoth effs P A cs = some (Pf, Af)) :
    ∃ Pf' Af', runBoth effs P' A' cs = some (Pf', Af') ∧ Rev D Pf Pf' ∧ Rev D Af Af' := by
  have ⟨g, hg, hr⟩ := jointPreserves effs D _ (simBoth effs D (Rev D) (Rev D) (revSim effs D) (revSim effs D))
    cs (P, A) (P', A') (Pf, Af) hd ⟨hp, ha⟩ h
  cases g with
  | mk gp ga => exact ⟨gp, ga, hg, hr⟩

end AgentWarrant.Revision
