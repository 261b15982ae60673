import AgentWarrant.Thm.Monitor.Ledger
import AgentWarrant.Spec.Revision.Policy
import AgentWarrant.Thm.Revision.Structural
import AgentWarrant.Thm.Revision.Bridge
import AgentWarrant.Thm.Revision.Safety
/-! Structural certificates on the installed lists give the counter simulation of Section 7.1 (2):
the two parts of Section 7.1 joined over the closed core.

For calls consistent with the lists, the monitor's accounts are the ledger instantiated at the
call (`accountsOf`), an Allow charges each list's ledger exactly as `chargeL` does
(`stepLedgerUser`, `stepLedgerApp`), and so a `Rev` relation between the old and the new ledgers,
kept by every charge (`revSim`), is an `AllocSim`. With `runRevised` this gives
`revisionPreservesMonitor`: every client of the old monitor is a client of the new one with the
same labels and records, and the ledgers stay related. -/
namespace AgentWarrant.Revision
open AgentWarrant.Monitor AgentWarrant.Monitor.Run

theorem accountsOf (c : Call) : ∀ (pl : PolList) (es : List Entry) (us : List Nat), Consistent pl c es →
    List.length es = List.length us → List.map account (setUsed es us) = inst c (ledgerOf pl us)
  | [], [], [], _, _ => rfl
  | [], [], _ :: _, _, h => by simp [List.length_cons] at h
  | [], _ :: _, _, hc, _ => by simp [Consistent, List.map] at hc
  | _ :: _, [], _, hc, _ => by simp [Consistent, List.map] at hc
  | _ :: _, _ :: _, [], _, h => by simp [List.length_cons] at h
  | (g, q) :: pl, x :: es, u :: us, hc, hl => by
    simp [Consistent, List.map] at hc
    simp [List.length_cons] at hl
    have ⟨⟨e1, e2⟩, e3⟩ := hc
    have ih := accountsOf c pl es us e3 hl
    simp [setUsed, List.map, ledgerOf, inst, ih]
    simp [grantOf] at e1
    rw [← e2]
    cases hq : x.quota <;> simp [account, e1, resid]

theorem scanLCharged {C : Type} (c : C) (e i : Nat) (L : Ledger C) (k : Nat) (L' : Ledger C)
    (h : scanL c e i L = some (k, L')) : Charged i (inst c L) (inst c L') [k] := by
  have hs := scanInst c e i L
  rw [h] at hs
  exact (scanCharged e i (inst c L) k (inst c L') hs).1

theorem scanLGrants {C : Type} (c : C) (e : Nat) : ∀ (i : Nat) (L : Ledger C) (k : Nat) (L' : Ledger C),
    scanL c e i L = some (k, L') → List.map Prod.fst L' = List.map Prod.fst L
  | _, [], _, _, h => by simp [scanL] at h
  | i, (g, r) :: l, k, l', h => by
    cases hf : (fits (g c) e && avail r) with
    | true => simp [scanL, hf] at h; rw [← h.2]; rfl
    | false =>
      simp [scanL, hf] at h
      cases hs : scanL c e (i + 1) l with
      | none => rw [hs] at h; simp at h
      | some p => cases p with
        | mk k0 l0 =>
          rw [hs] at h; simp at h
          rw [← h.2]
          simp [List.map, scanLGrants c e (i + 1) l k0 l0 hs]

theorem allocLCharged {C : Type} (c : C) : ∀ (es : List Nat) (L : Ledger C) (ps : List Nat) (Lf : Ledger C),
    allocL c L es = some (ps, Lf) → Charged 0 (inst c L) (inst c Lf) ps ∧ List.map Prod.fst Lf = List.map Prod.fst L
  | [], L, ps, Lf, h => by
    simp [allocL] at h
    rw [← h.1, ← h.2]
    exact ⟨chargedSelf 0 _ [] (fun p hp => absurd hp notMemNil), rfl⟩
  | e :: es, L, ps, Lf, h => by
    cases h1 : scanL c e 0 L with
    | none => simp [allocL, h1] at h
    | some p => cases p with
      | mk k L1 =>
        cases h2 : allocL c L1 es with
        | none => simp [allocL, h1, h2] at h
        | some q => cases q with
          | mk qs Lf1 =>
            simp [allocL, h1, h2] at h
            have ⟨hc, hg⟩ := allocLCharged c es L1 qs Lf1 h2
            rw [← h.1, ← h.2]
            refine ⟨chargedComp k (scanLCharged c e 0 L k L1 h1) hc, ?_⟩
            rw [hg, scanLGrants c e 0 L k L1 h1]

theorem residStep : ∀ {q : Option Nat} {u cnt : Nat} {r : Option Nat}, ResEq (resid q u) r cnt → withinQ q u →
    resid q (u + cnt) = r
  | none, _, _, none, _, _ => rfl
  | none, _, _, some _, h, _ => absurd h id
  | some _, _, _, none, h, _ => absurd h id
  | some m, u, cnt, some b, h, hw => by
    have ⟨k, hk⟩ := Nat.le.dest hw
    have h' : b + cnt = m - u := h
    rw [← hk, addSubLeft] at h'
    show some ((m) - (u + cnt)) = some b
    rw [← hk, ← h', Nat.add_comm b cnt, ← Nat.add_assoc, addSubLeft]

theorem ledgerAfter {C : Type} (c : C) : ∀ (i : Nat) (pl : PolListOf C) (us : List Nat) (Lf : Ledger C) (ps : List Nat),
    Charged i (inst c (ledgerOf pl us)) (inst c Lf) ps → List.map Prod.fst Lf = List.map Prod.fst (ledgerOf pl us) →
    WithinL (List.map Prod.snd pl) us → List.length pl = List.length us →
    ledgerOf pl (addVec us (chargeVec i (List.length us) ps)) = Lf
  | i, [], [], [], ps, _, _, _, _ => rfl
  | i, [], [], _ :: _, ps, _, hg, _, _ => by simp [ledgerOf, List.map] at hg
  | i, [], _ :: _, _, _, _, _, _, hl => by simp [List.length_cons] at hl
  | i, _ :: _, [], _, _, _, _, _, hl => by simp [List.length_cons] at hl
  | i, (g, q) :: pl, u :: us, [], ps, _, hg, _, _ => by simp [ledgerOf, List.map] at hg
  | i, (g, q) :: pl, u :: us, (g', r) :: Lf, ps, hc, hg, hw, hl => by
    simp [ledgerOf, List.map] at hg
    simp [List.length_cons] at hl
    have ⟨hw1, hw2⟩ : withinQ q u ∧ WithinL (List.map Prod.snd pl) us := hw
    have ⟨e1, e2⟩ := hg
    subst e1
    have hc' : Charged i ((g' c, resid q u) :: inst c (ledgerOf pl us)) ((g' c, r) :: inst c Lf) ps := hc
    cases hc' with
    | cons _ _ hr ht =>
      have ih := ledgerAfter c (i + 1) pl us Lf ps ht e2 hw2 hl
      rw [List.length_cons]
      show (g', resid q (u + countN i ps)) :: ledgerOf pl (addVec us (chargeVec (i + 1) (List.length us) ps)) = (g', r) :: Lf
      rw [ih, residStep hr hw1]

theorem mapMap (f : β → γ) (g : α → β) : ∀ (l : List α), List.map f (List.map g l) = List.map (fun x => f (g x)) l
  | [] => rfl
  | a :: l => by simp [List.map, mapMap f g l]

theorem consistentLength {pl : PolList} {c : Call} {es : List Entry} (h : Consistent pl c es) :
    List.length es = List.length pl := by
  have e := congrArg List.length h
  rw [lengthMap, lengthMap] at e
  exact e

theorem consistentQuota {pl : PolList} {c : Call} {es : List Entry} (h : Consistent pl c es) :
    List.map Entry.quota es = List.map Prod.snd pl := by
  have e := congrArg (List.map Prod.snd) h
  rw [mapMap, mapMap] at e
  exact e

/-- One list, one Allow: the monitor's charge is the ledger's `chargeL`. -/
theorem sideCharge (pl : PolList) (es : List Entry) (us : List Nat) (c : Call) (hc : Consistent pl c es)
    (hl : List.length es = List.length us) (hw : WithinL (List.map Prod.snd pl) us) (ps : List Nat)
    (ha : alloc (List.map account (setUsed es us)) (effsOf c) = some ps) :
    chargeL effsOf c (ledgerOf pl us) =
      some (ledgerOf pl (addVec (List.map Entry.used (setUsed es us)) (chargeVec 0 (List.length (setUsed es us)) ps))) := by
  have hlp : List.length pl = List.length us := by rw [← consistentLength hc]; exact hl
  rw [accountsOf c pl es us hc hl, allocInst] at ha
  rw [usedSetUsed es us hl, lengthSetUsed es us hl, hl]
  cases hL : allocL c (ledgerOf pl us) (effsOf c) with
  | none => rw [hL] at ha; simp at ha
  | some p => cases p with
    | mk qs Lf =>
      rw [hL] at ha
      simp at ha
      have ⟨hch, hg⟩ := allocLCharged c _ _ qs Lf hL
      have e := ledgerAfter c 0 pl us Lf qs hch hg hw hlp
      rw [← ha, e]
      simp [chargeL, hL]

/-- One list: a ledger charge that succeeds is a monitor allocation that succeeds. -/
theorem sideAlloc (pl : PolList) (es : List Entry) (us : List Nat) (c : Call) (hc : Consistent pl c es)
    (hl : List.length es = List.length us) (Ln : Ledger Call) (h : chargeL effsOf c (ledgerOf pl us) = some Ln) :
    ∃ ps, alloc (List.map account (setUsed es us)) (effsOf c) = some ps := by
  rw [accountsOf c pl es us hc hl, allocInst]
  cases hL : allocL c (ledgerOf pl us) (effsOf c) with
  | none => simp [chargeL, hL] at h
  | some p => cases p with
    | mk qs Lf => exact ⟨qs, rfl⟩

/-- Structural certificates on both installed lists give the counter simulation of Section 7.1 (2). -/
theorem linkAllocSim (D : Call → Prop) (oU oA nU nA : PolList) (nl : Call → List Entry × List Entry) :
    AllocSim nl (LinkDom D oU oA nU nA nl) (LinkRel D oU oA nU nA) := by
  intro S S' c l pu pa hdom hnd hR hr hold
  have ⟨hD, cU, cA, nUc, nAc⟩ := hdom
  have ⟨⟨w1, l1⟩, ⟨w2, l2⟩, ⟨w3, l3⟩, ⟨w4, l4⟩, rU, rA⟩ := hR
  have lenU : List.length c.facts.user = List.length S.usedUser := by rw [consistentLength cU]; exact l1
  have lenA : List.length c.facts.app = List.length S.usedApp := by rw [consistentLength cA]; exact l2
  have lenU' : List.length (nl c).1 = List.length S'.usedUser := by rw [consistentLength nUc]; exact l3
  have lenA' : List.length (nl c).2 = List.length S'.usedApp := by rw [consistentLength nAc]; exact l4
  have ⟨_, _, _, _, _, _, _, _, a9, _⟩ := decideAllow _ _ _ _ hold
  have ⟨hu, ha⟩ := (allocBothAllOrNothing _ _ _ pu pa).1 a9
  have chU := sideCharge oU c.facts.user S.usedUser c cU lenU w1 pu hu
  have chA := sideCharge oA c.facts.app S.usedApp c cA lenA w2 pa ha
  have ⟨LnU, hnU, rU'⟩ := revSim effsOf D c _ _ _ hD rU chU
  have ⟨LnA, hnA, rA'⟩ := revSim effsOf D c _ _ _ hD rA chA
  have ⟨pu', hpu'⟩ := sideAlloc nU (nl c).1 S'.usedUser c nUc lenU' LnU hnU
  have ⟨pa', hpa'⟩ := sideAlloc nA (nl c).2 S'.usedApp c nAc lenA' LnA hnA
  have hboth : allocBoth (List.map account (setUsed (nl c).1 S'.usedUser)) (List.map account (setUsed (nl c).2 S'.usedApp))
      (effects (toIn S c)) = some (pu', pa') := (allocBothAllOrNothing _ _ _ pu' pa').2 ⟨hpu', hpa'⟩
  refine ⟨pu', pa', hboth, fun d => ?_⟩
  have hdec : decide (toIn S' (revise nl c)) = Decision.allow l pu' pa' := by
    rw [toInRevise S S' c nl hr]
    exact decideRevised (toIn S c) _ _ l pu pa pu' pa' hold hboth (hnd S S')
  have suU : (stepS S c d).2.usedUser = addVec (List.map Entry.used (setUsed c.facts.user S.usedUser))
      (chargeVec 0 (List.length (setUsed c.facts.user S.usedUser)) pu) := by rw [stepUsedUser, hold]; rfl
  have suA : (stepS S c d).2.usedApp = addVec (List.map Entry.used (setUsed c.facts.app S.usedApp))
      (chargeVec 0 (List.length (setUsed c.facts.app S.usedApp)) pa) := by rw [stepUsedApp, hold]; rfl
  have snU : (stepS S' (revise nl c) d).2.usedUser = addVec (List.map Entry.used (setUsed (nl c).1 S'.usedUser))
      (chargeVec 0 (List.length (setUsed (nl c).1 S'.usedUser)) pu') := by rw [stepUsedUser, hdec]; rfl
  have snA : (stepS S' (revise nl c) d).2.usedApp = addVec (List.map Entry.used (setUsed (nl c).2 S'.usedApp))
      (chargeVec 0 (List.length (setUsed (nl c).2 S'.usedApp)) pa') := by rw [stepUsedApp, hdec]; rfl
  have eU : ledgerOf nU (stepS S' (revise nl c) d).2.usedUser = LnU := by
    have x := sideCharge nU (nl c).1 S'.usedUser c nUc lenU' w3 pu' hpu'
    rw [hnU] at x
    rw [snU]
    exact (Option.some.inj x).symm
  have eA : ledgerOf nA (stepS S' (revise nl c) d).2.usedApp = LnA := by
    have x := sideCharge nA (nl c).2 S'.usedApp c nAc lenA' w4 pa' hpa'
    rw [hnA] at x
    rw [snA]
    exact (Option.some.inj x).symm
  have wo1 := stepWithinUser S c d lenU (by rw [consistentQuota cU]; exact w1)
  have wo2 := stepWithinApp S c d lenA (by rw [consistentQuota cA]; exact w2)
  have wn1 := stepWithinUser S' (revise nl c) d lenU'
    (by show WithinL (List.map Entry.quota (nl c).1) S'.usedUser; rw [consistentQuota nUc]; exact w3)
  have wn2 := stepWithinApp S' (revise nl c) d lenA'
    (by show WithinL (List.map Entry.quota (nl c).2) S'.usedApp; rw [consistentQuota nAc]; exact w4)
  have qn1 : List.map Entry.quota (revise nl c).facts.user = List.map Prod.snd nU := consistentQuota nUc
  have qn2 : List.map Entry.quota (revise nl c).facts.app = List.map Prod.snd nA := consistentQuota nAc
  rw [consistentQuota cU] at wo1
  rw [consistentQuota cA] at wo2
  rw [qn1] at wn1
  rw [qn2] at wn2
  refine ⟨⟨wo1, ?_⟩, ⟨wo2, ?_⟩, ⟨wn1, ?_⟩, ⟨wn2, ?_⟩, ?_, ?_⟩
  · rw [stepLengthUser S c d lenU]; exact l1
  · rw [stepLengthApp S c d lenA]; exact l2
  · rw [stepLengthUser S' (revise nl c) d lenU']; exact l3
  · rw [stepLengthApp S' (revise nl c) d lenA']; exact l4
  · rw [suU, eU]; exact rU'
  · rw [suA, eA]; exact rA'

/-- Section 7.1, parts (1) and (2) joined on the closed core: if the old and new ledgers of both
lists are related by structural certificates on `D` (e.g. at task start, `P ⇝_D P'` and
`A ⇝_D A'` with zero counters), the records are identical, and every call is in `D`, carries the
old lists' entries, is revised to the new lists' entries and meets no new explicit deny, then
every client of the old monitor is a client of the new one, the records (labels, lineage,
admitted trace) stay identical, and the ledgers stay related, at every length. -/
theorem revisionPreservesMonitor (D : Call → Prop) (oU oA nU nA : PolList) (nl : Call → List Entry × List Entry)
    (cs : List Call) (S S' : MState) (hR : LinkRel D oU oA nU nA S S') (hr : S'.recs = S.recs)
    (hd : ∀ c, c ∈ cs → LinkDom D oU oA nU nA nl c ∧ NoNewDeny nl c)
    (hold : allB isAllow (run freshId S cs).1 = true) :
    allB isAllow (run freshId S' (List.map (revise nl) cs)).1 = true ∧
      (run freshId S' (List.map (revise nl) cs)).2.recs = (run freshId S cs).2.recs ∧
      LinkRel D oU oA nU nA (run freshId S cs).2 (run freshId S' (List.map (revise nl) cs)).2 :=
  runRevised freshId (fun S S' c c' hr hp => freshIdRecs S S' c c' hr hp) nl _ _ (linkAllocSim D oU oA nU nA nl)
    cs S S' hR hr hd hold

end AgentWarrant.Revision
