import AgentWarrant.Spec.Revision.Charge
import AgentWarrant.Thm.Monitor.Ledger
/-! Monitor invariants over whole traces (Agenra Sections 6.1–6.2): no counter exceeds its quota on
either list; only Allow changes the state; every admitted call passed the flow, origin, history,
ceiling and structural checks in force. Each is proved for one transition and then for every run,
by induction over the trace. -/
namespace AgentWarrant.Monitor.Run
open AgentWarrant.Monitor

theorem beqRefl : ∀ n : Nat, Nat.beq n n = true
  | 0 => rfl
  | n + 1 => beqRefl n

theorem beqFalse {p j : Nat} (h : ¬ p = j) : Nat.beq p j = false := by
  cases hb : Nat.beq p j with
  | true => exact absurd (Nat.eqOfBeqEqTrue hb) h
  | false => rfl

theorem countNZero (j : Nat) : ∀ (ps : List Nat), (∀ p, p ∈ ps → ¬ p = j) → countN j ps = 0
  | [], _ => rfl
  | p :: ps, h => by
    simp [countN, beqFalse (h p (Mem.head _)), countNZero j ps (fun q hq => h q (Mem.tail _ hq))]

theorem resEqZero : ∀ r : Option Nat, ResEq r r 0
  | none => trivial
  | some a => Nat.add_zero a

theorem chargedSelf : ∀ (j : Nat) (l : List Acct) (ps : List Nat), (∀ p, p ∈ ps → p < j) → Charged j l l ps
  | j, [], ps, _ => Charged.nil j ps
  | j, (g, r) :: l, ps, h => by
    have h0 : countN j ps = 0 := countNZero j ps (fun p hp e => Nat.ltIrrefl j (e ▸ h p hp))
    refine Charged.cons j g ?_ (chargedSelf (j + 1) l ps (fun p hp => Nat.leStep (h p hp)))
    rw [h0]; exact resEqZero r

theorem resEqDec : ∀ {r : Option Nat}, avail r = true → ResEq r (dec r) 1
  | none, _ => trivial
  | some 0, h => by simp [avail] at h
  | some (n + 1), _ => rfl

theorem scanCharged (e : Nat) : ∀ (i : Nat) (l : List Acct) (k : Nat) (l' : List Acct),
    scan e i l = some (k, l') → Charged i l l' [k] ∧ i ≤ k
  | _, [], _, _, h => by simp [scan] at h
  | i, (g, r) :: l, k, l', h => by
    cases hf : (fits g e && avail r) with
    | true =>
      simp [scan, hf] at h
      have ⟨e1, e2⟩ := h
      rw [← e1, ← e2]
      have ha : avail r = true := by cases hr : avail r <;> simp [hr] at hf ⊢
      refine ⟨Charged.cons i g ?_ (chargedSelf (i + 1) l [i] (fun p hp => ?_)), Nat.leRefl i⟩
      · simp [countN, beqRefl i]; exact resEqDec ha
      · cases hp with
        | head _ => exact Nat.ltSuccSelf i
        | tail _ h => exact absurd h notMemNil
    | false =>
      simp [scan, hf] at h
      cases hs : scan e (i + 1) l with
      | none => rw [hs] at h; simp at h
      | some p =>
        cases p with
        | mk k0 l0 =>
          rw [hs] at h
          simp at h
          have ⟨e1, e2⟩ := h
          rw [← e1, ← e2]
          have ⟨hc, hle⟩ := scanCharged e (i + 1) l k0 l0 hs
          have hne : ¬ k0 = i := fun q => Nat.notSuccLeSelf i (q ▸ hle)
          refine ⟨Charged.cons i g ?_ hc, Nat.leOfSuccLeSucc (Nat.leStep hle)⟩
          simp [countN, beqFalse hne]; exact resEqZero r

theorem resEqComp : ∀ {r r1 r2 : Option Nat} {c1 c2 : Nat}, ResEq r r1 c1 → ResEq r1 r2 c2 → ResEq r r2 (c2 + c1)
  | none, none, none, _, _, _, _ => trivial
  | some a, some b, some c, c1, c2, h1, h2 => by
    show c + (c2 + c1) = a
    rw [← Nat.add_assoc, h2, h1]
  | none, some _, _, _, _, h, _ => absurd h id
  | some _, none, _, _, _, h, _ => absurd h id
  | none, none, some _, _, _, _, h => absurd h id
  | some _, some _, none, _, _, _, h => absurd h id

theorem chargedComp (k : Nat) : ∀ {i : Nat} {a b c : List Acct} {ps : List Nat},
    Charged i a b [k] → Charged i b c ps → Charged i a c (k :: ps)
  | _, _, _, _, _, Charged.nil i _, Charged.nil _ _ => Charged.nil i _
  | _, _, _, _, _, Charged.cons i g h1 t1, Charged.cons _ _ h2 t2 => by
    refine Charged.cons i g ?_ (chargedComp k t1 t2)
    have e := resEqComp h1 h2
    cases hb : Nat.beq k i with
    | true => simp [countN, hb] at e ⊢; exact e
    | false => simp [countN, hb] at e ⊢; exact e

/-- A successful first-fit batch charges exactly the positions it reports. -/
theorem allocCharged : ∀ (es : List Nat) (l : List Acct) (ps : List Nat),
    alloc l es = some ps → ∃ lf, Charged 0 l lf ps
  | [], l, ps, h => by
    simp [alloc] at h
    rw [← h]
    exact ⟨l, chargedSelf 0 l [] (fun p hp => absurd hp notMemNil)⟩
  | e :: es, l, ps, h => by
    cases hs : scan e 0 l with
    | none => simp [alloc, hs] at h
    | some p =>
      cases p with
      | mk k l1 =>
        cases ha : alloc l1 es with
        | none => simp [alloc, hs, ha] at h
        | some qs =>
          simp [alloc, hs, ha] at h
          rw [← h]
          have ⟨lf, hf⟩ := allocCharged es l1 qs ha
          exact ⟨lf, chargedComp k (scanCharged e 0 l k l1 hs).1 hf⟩

/-- What an Allow of the closed core guarantees about the call: every check before the allocation
passed, both allocations succeeded with the positions reported, and the label is the output label. -/
theorem decideAllow (i : StepIn) (l : Label) (pu pa : List Nat) (h : decide i = Decision.allow l pu pa) :
    i.prep = none ∧ i.agentKnown = true ∧ i.opPermitted = true ∧ i.endpointOk = true ∧
    Nat.ble (labelOut i).sens i.ceiling = true ∧ i.originOk = true ∧
    flowAux i.operation i.destination (labelOut i) i.flows false = true ∧ i.historyOk = true ∧
    allocBoth (List.map account i.user) (List.map account i.app) (effects i) = some (pu, pa) ∧ l = labelOut i := by
  cases hp : i.prep with
  | some w => simp [decide, hp] at h
  | none =>
  cases h1 : i.agentKnown <;> simp [decide, hp, h1] at h
  cases h2 : i.opPermitted <;> simp [decide, hp, h1, h2] at h
  cases h3 : i.endpointOk <;> simp [decide, hp, h1, h2, h3] at h
  cases h4 : Nat.ble (labelOut i).sens i.ceiling <;> simp [decide, hp, h1, h2, h3, h4] at h
  cases h5 : (List.any [i.user, i.app] fun (s : List Entry) => List.any (effects i) (explicitDeny s)) <;> simp [h5] at h
  cases h6 : (List.any [i.user, i.app] fun (s : List Entry) => List.any (effects i) fun (e : Nat) => List.isEmpty (matchingAllows s e)) <;> simp [h6] at h
  cases h7 : (List.isEmpty (List.join (List.map (fun (s : List Entry) => List.join (List.map (waitsFor s) (effects i))) [i.user, i.app]))) <;> simp [h7] at h
  cases h8 : i.originOk <;> simp [h8] at h
  cases h9 : flowAux i.operation i.destination (labelOut i) i.flows false <;> simp [h9] at h
  cases h10 : i.historyOk <;> simp [h10] at h
  cases h11 : allocBoth (List.map account i.user) (List.map account i.app) (effects i) with
  | none => simp [h11] at h
  | some p =>
    cases p with
    | mk x y =>
      simp [h11] at h
      have ⟨e1, e2, e3⟩ := h
      rw [e1, e2, e3]
      exact ⟨rfl, rfl, rfl, rfl, rfl, rfl, rfl, rfl, rfl, rfl⟩

theorem stepDecision (i : StepIn) : (step i).decision = decide i := by
  cases h : decide i <;> simp [step, h]

theorem stepSDecision (S : MState) (c : Call) (d : Nat) : (stepS S c d).1 = decide (toIn S c) := by
  have e := stepDecision (toIn S c)
  simp only [stepS]
  cases h : (step (toIn S c)).decision <;> simp [h] <;> rw [← e, h]

theorem addSubLeft : ∀ u k : Nat, u + k - u = k
  | 0, k => by rw [Nat.zero_add, Nat.sub_zero]
  | u + 1, k => by rw [Nat.succ_add, Nat.succ_sub_succ]; exact addSubLeft u k

theorem withinAdd {u m c : Nat} (hu : u ≤ m) (hc : c ≤ m - u) : u + c ≤ m := by
  have ⟨k, hk⟩ := Nat.le.dest hu
  rw [← hk] at hc ⊢
  rw [addSubLeft] at hc
  exact Nat.addLeAddLeft hc u

theorem chargedHead {i : Nat} {a : Acct} {l l2 : List Acct} {ps : List Nat} (h : Charged i (a :: l) l2 ps) :
    ∃ r' l', l2 = (a.1, r') :: l' ∧ ResEq a.2 r' (countN i ps) ∧ Charged (i + 1) l l' ps := by
  cases a with
  | mk g r => cases h with
    | cons _ _ hr ht => exact ⟨_, _, rfl, hr, ht⟩

theorem resEqLe : ∀ {a : Nat} {r' : Option Nat} {c : Nat}, ResEq (some a) r' c → c ≤ a
  | a, none, c, h => absurd h id
  | a, some b, c, h => Nat.le.intro (by rw [Nat.add_comm]; exact h)

/-- Charging a batch that first-fit allocated keeps every finite counter within its quota. -/
theorem chargeWithin : ∀ (i : Nat) (es : List Entry) (lf : List Acct) (ps : List Nat),
    Charged i (List.map account es) lf ps → WithinL (List.map Entry.quota es) (List.map Entry.used es) →
    WithinL (List.map Entry.quota es) (addVec (List.map Entry.used es) (chargeVec i (List.length es) ps))
  | i, [], lf, ps, _, _ => trivial
  | i, x :: es, lf, ps, hc, hw => by
    have ⟨r', l', _, hr, ht⟩ := chargedHead hc
    have ⟨hx, hrest⟩ : withinQ x.quota x.used ∧ WithinL (List.map Entry.quota es) (List.map Entry.used es) := hw
    rw [List.length_cons]
    show withinQ x.quota (x.used + countN i ps) ∧
      WithinL (List.map Entry.quota es) (addVec (List.map Entry.used es) (chargeVec (i + 1) (List.length es) ps))
    refine ⟨?_, chargeWithin (i + 1) es l' ps ht hrest⟩
    cases hq : x.quota with
    | none => trivial
    | some m =>
      simp [account, hq] at hr
      rw [hq] at hx
      exact withinAdd hx (resEqLe hr)

theorem usedSetUsed : ∀ (es : List Entry) (us : List Nat), List.length es = List.length us →
    List.map Entry.used (setUsed es us) = us
  | [], [], _ => rfl
  | [], _ :: _, h => by simp [List.length_cons] at h
  | _ :: _, [], h => by simp [List.length_cons] at h
  | e :: es, u :: us, h => by
    simp [List.length_cons] at h
    simp [setUsed, List.map, usedSetUsed es us h]

theorem quotaSetUsed : ∀ (es : List Entry) (us : List Nat), List.length es = List.length us →
    List.map Entry.quota (setUsed es us) = List.map Entry.quota es
  | [], [], _ => rfl
  | [], _ :: _, h => by simp [List.length_cons] at h
  | _ :: _, [], h => by simp [List.length_cons] at h
  | e :: es, u :: us, h => by
    simp [List.length_cons] at h
    simp [setUsed, List.map, quotaSetUsed es us h]

theorem lengthSetUsed : ∀ (es : List Entry) (us : List Nat), List.length es = List.length us →
    List.length (setUsed es us) = List.length es
  | [], [], _ => rfl
  | [], _ :: _, h => by simp [List.length_cons] at h
  | _ :: _, [], h => by simp [List.length_cons] at h
  | e :: es, u :: us, h => by
    simp [List.length_cons] at h
    simp [setUsed, List.length_cons, lengthSetUsed es us h]

theorem lengthChargeVec : ∀ (i n : Nat) (ps : List Nat), List.length (chargeVec i n ps) = n
  | _, 0, _ => rfl
  | i, n + 1, ps => by
    rw [show chargeVec i (n + 1) ps = countN i ps :: chargeVec (i + 1) n ps from rfl, List.length_cons,
      lengthChargeVec (i + 1) n ps]

theorem lengthAddVec : ∀ (us cs : List Nat), List.length cs = List.length us → List.length (addVec us cs) = List.length us
  | [], [], _ => rfl
  | [], _ :: _, h => by simp [List.length_cons] at h
  | _ :: _, [], h => by simp [List.length_cons] at h
  | u :: us, c :: cs, h => by
    simp [List.length_cons] at h
    simp [addVec, List.length_cons, lengthAddVec us cs h]

/-- The successor's user counters: the old ones, plus the charge on Allow. -/
theorem stepUsedUser (S : MState) (c : Call) (d : Nat) :
    (stepS S c d).2.usedUser = (match decide (toIn S c) with
      | Decision.allow _ pu _ => addVec (List.map Entry.used (toIn S c).user) (chargeVec 0 (List.length (toIn S c).user) pu)
      | _ => List.map Entry.used (toIn S c).user) := by
  cases h : decide (toIn S c) <;> simp [stepS, step, h]

theorem stepUsedApp (S : MState) (c : Call) (d : Nat) :
    (stepS S c d).2.usedApp = (match decide (toIn S c) with
      | Decision.allow _ _ pa => addVec (List.map Entry.used (toIn S c).app) (chargeVec 0 (List.length (toIn S c).app) pa)
      | _ => List.map Entry.used (toIn S c).app) := by
  cases h : decide (toIn S c) <;> simp [stepS, step, h]

/-- One transition keeps every user-list counter within its quota. -/
theorem stepWithinUser (S : MState) (c : Call) (d : Nat) (hl : List.length c.facts.user = List.length S.usedUser)
    (hw : WithinL (List.map Entry.quota c.facts.user) S.usedUser) :
    WithinL (List.map Entry.quota c.facts.user) (stepS S c d).2.usedUser := by
  have hq := quotaSetUsed c.facts.user S.usedUser hl
  have hu := usedSetUsed c.facts.user S.usedUser hl
  have hlen := lengthSetUsed c.facts.user S.usedUser hl
  rw [stepUsedUser]
  cases h : decide (toIn S c) with
  | allow l pu pa =>
    have ha := (allocBothAllOrNothing _ _ _ pu pa).1 (decideAllow _ _ _ _ h).2.2.2.2.2.2.2.2.1
    have ⟨lf, hc⟩ := allocCharged _ _ _ ha.1
    have hw' : WithinL (List.map Entry.quota (toIn S c).user) (List.map Entry.used (toIn S c).user) := by
      simp [toIn, hq, hu]; exact hw
    have r := chargeWithin 0 _ lf pu hc hw'
    simp [toIn, hq] at r ⊢
    exact r
  | pause w => simp [toIn, hu]; exact hw
  | deny r => simp [toIn, hu]; exact hw

/-- One transition keeps every application-list counter within its quota. -/
theorem stepWithinApp (S : MState) (c : Call) (d : Nat) (hl : List.length c.facts.app = List.length S.usedApp)
    (hw : WithinL (List.map Entry.quota c.facts.app) S.usedApp) :
    WithinL (List.map Entry.quota c.facts.app) (stepS S c d).2.usedApp := by
  have hq := quotaSetUsed c.facts.app S.usedApp hl
  have hu := usedSetUsed c.facts.app S.usedApp hl
  rw [stepUsedApp]
  cases h : decide (toIn S c) with
  | allow l pu pa =>
    have ha := (allocBothAllOrNothing _ _ _ pu pa).1 (decideAllow _ _ _ _ h).2.2.2.2.2.2.2.2.1
    have ⟨lf, hc⟩ := allocCharged _ _ _ ha.2
    have hw' : WithinL (List.map Entry.quota (toIn S c).app) (List.map Entry.used (toIn S c).app) := by
      simp [toIn, hq, hu]; exact hw
    have r := chargeWithin 0 _ lf pa hc hw'
    simp [toIn, hq] at r ⊢
    exact r
  | pause w => simp [toIn, hu]; exact hw
  | deny r => simp [toIn, hu]; exact hw

theorem stepLengthUser (S : MState) (c : Call) (d : Nat) (hl : List.length c.facts.user = List.length S.usedUser) :
    List.length (stepS S c d).2.usedUser = List.length S.usedUser := by
  have hu := usedSetUsed c.facts.user S.usedUser hl
  have hlen := lengthSetUsed c.facts.user S.usedUser hl
  rw [stepUsedUser]
  cases h : decide (toIn S c) with
  | allow l pu pa =>
    simp [toIn, hu, hlen]
    exact lengthAddVec _ _ (by rw [lengthChargeVec]; exact hl)
  | pause w => simp [toIn, hu]
  | deny r => simp [toIn, hu]

theorem stepLengthApp (S : MState) (c : Call) (d : Nat) (hl : List.length c.facts.app = List.length S.usedApp) :
    List.length (stepS S c d).2.usedApp = List.length S.usedApp := by
  have hu := usedSetUsed c.facts.app S.usedApp hl
  have hlen := lengthSetUsed c.facts.app S.usedApp hl
  rw [stepUsedApp]
  cases h : decide (toIn S c) with
  | allow l pu pa =>
    simp [toIn, hu, hlen]
    exact lengthAddVec _ _ (by rw [lengthChargeVec]; exact hl)
  | pause w => simp [toIn, hu]
  | deny r => simp [toIn, hu]

/-- Every call of the trace carries the installed policy's quotas `qu`, `qa` on the two lists. -/
def Installed (qu qa : List (Option Nat)) (cs : List Call) : Prop :=
  ∀ c, c ∈ cs → List.map Entry.quota c.facts.user = qu ∧ List.map Entry.quota c.facts.app = qa

/-- Section 6.1's "counters stay within their finite limits", over every trace: starting within the
quotas, no counter on either list ever exceeds its quota, whatever the calls and decisions. -/
theorem runWithin (fresh : MState → Call → Nat) (qu qa : List (Option Nat)) :
    ∀ (cs : List Call) (S : MState), Installed qu qa cs →
    List.length qu = List.length S.usedUser → List.length qa = List.length S.usedApp →
    WithinL qu S.usedUser → WithinL qa S.usedApp →
    WithinL qu (run fresh S cs).2.usedUser ∧ WithinL qa (run fresh S cs).2.usedApp
  | [], S, _, _, _, hu, ha => ⟨hu, ha⟩
  | c :: cs, S, hi, lu, la, hu, ha => by
    have ⟨eu, ea⟩ := hi c (Mem.head _)
    have lu' : List.length c.facts.user = List.length S.usedUser := by rw [← lu, ← eu, lengthMap]
    have la' : List.length c.facts.app = List.length S.usedApp := by rw [← la, ← ea, lengthMap]
    have hu' := stepWithinUser S c (fresh S c) lu' (by rw [eu]; exact hu)
    have ha' := stepWithinApp S c (fresh S c) la' (by rw [ea]; exact ha)
    rw [eu] at hu'
    rw [ea] at ha'
    exact runWithin fresh qu qa cs _ (fun c' hc' => hi c' (Mem.tail _ hc'))
      (by rw [stepLengthUser S c _ lu']; exact lu) (by rw [stepLengthApp S c _ la']; exact la) hu' ha'

theorem stepRecs (S : MState) (c : Call) (d : Nat) :
    (stepS S c d).2.recs = (match decide (toIn S c) with
      | Decision.allow l _ _ => S.recs ++ [(d, l, c.parents)]
      | _ => S.recs) := by
  cases h : decide (toIn S c) <;> simp [stepS, step, h]

theorem mstateExt : ∀ {T S : MState}, T.recs = S.recs → T.usedUser = S.usedUser → T.usedApp = S.usedApp → T = S
  | ⟨_, _, _⟩, ⟨_, _, _⟩, a, b, c => by simp at a b c; simp [a, b, c]

/-- Only Allow changes the state: a Pause or Deny returns the state it was given. -/
theorem stepNonAllowSame (S : MState) (c : Call) (d : Nat)
    (hu : List.length c.facts.user = List.length S.usedUser) (ha : List.length c.facts.app = List.length S.usedApp)
    (h : isAllow (stepS S c d).1 = false) : (stepS S c d).2 = S := by
  rw [stepSDecision] at h
  have eu := usedSetUsed c.facts.user S.usedUser hu
  have ea := usedSetUsed c.facts.app S.usedApp ha
  have r1 := stepRecs S c d
  have r2 := stepUsedUser S c d
  have r3 := stepUsedApp S c d
  cases hd : decide (toIn S c) with
  | allow l pu pa => rw [hd] at h; simp [isAllow] at h
  | pause w =>
    rw [hd] at r1 r2 r3
    exact mstateExt r1 (by rw [r2]; simp [toIn, eu]) (by rw [r3]; simp [toIn, ea])
  | deny r =>
    rw [hd] at r1 r2 r3
    exact mstateExt r1 (by rw [r2]; simp [toIn, eu]) (by rw [r3]; simp [toIn, ea])

/-- The calls of a trace that the monitor admits, computed along the run. -/
def admitted (fresh : MState → Call → Nat) : MState → List Call → List Call
  | _, [] => []
  | S, c :: cs => match isAllow (stepS S c (fresh S c)).1 with
    | true => c :: admitted fresh (stepS S c (fresh S c)).2 cs
    | false => admitted fresh (stepS S c (fresh S c)).2 cs

/-- Every call whose entries have the installed list lengths. -/
def Shaped (nu na : Nat) (cs : List Call) : Prop :=
  ∀ c, c ∈ cs → List.length c.facts.user = nu ∧ List.length c.facts.app = na

/-- Only Allow changes the state, over whole traces: replaying just the admitted calls reaches the
same state as the whole trace, and admits each of them. -/
theorem runOnlyAllowChanges (fresh : MState → Call → Nat) (nu na : Nat) :
    ∀ (cs : List Call) (S : MState), Shaped nu na cs → List.length S.usedUser = nu → List.length S.usedApp = na →
    (run fresh S (admitted fresh S cs)).2 = (run fresh S cs).2 ∧
    allB isAllow (run fresh S (admitted fresh S cs)).1 = true
  | [], S, _, _, _ => ⟨rfl, rfl⟩
  | c :: cs, S, hs, lu, la => by
    have ⟨cu, ca⟩ := hs c (Mem.head _)
    have lu' : List.length c.facts.user = List.length S.usedUser := by rw [cu, lu]
    have la' : List.length c.facts.app = List.length S.usedApp := by rw [ca, la]
    have ih := runOnlyAllowChanges fresh nu na cs (stepS S c (fresh S c)).2 (fun c' h => hs c' (Mem.tail _ h))
      (by rw [stepLengthUser S c _ lu']; exact lu) (by rw [stepLengthApp S c _ la']; exact la)
    cases hd : isAllow (stepS S c (fresh S c)).1 with
    | true =>
      simp [admitted, run, hd]
      refine ⟨ih.1, ?_⟩
      simp [allB, hd]; exact ih.2
    | false =>
      have same := stepNonAllowSame S c (fresh S c) lu' la' hd
      simp [admitted, run, hd]
      have ih' := ih
      rw [same] at ih'
      rw [same]
      exact ih'

/-- The checks an admitted call passed, all but the allocation. -/
def Passed (i : StepIn) : Prop :=
  i.prep = none ∧ i.agentKnown = true ∧ i.opPermitted = true ∧ i.endpointOk = true ∧
  Nat.ble (labelOut i).sens i.ceiling = true ∧ i.originOk = true ∧
  flowAux i.operation i.destination (labelOut i) i.flows false = true ∧ i.historyOk = true

/-- Along a run, every admitted call passed the checks in force in the state it was decided in. -/
def AdmittedPassed (fresh : MState → Call → Nat) : MState → List Call → Prop
  | _, [] => True
  | S, c :: cs => (isAllow (stepS S c (fresh S c)).1 = true → Passed (toIn S c)) ∧
    AdmittedPassed fresh (stepS S c (fresh S c)).2 cs

theorem stepAdmittedPassed (S : MState) (c : Call) (d : Nat) (h : isAllow (stepS S c d).1 = true) :
    Passed (toIn S c) := by
  rw [stepSDecision] at h
  cases hd : decide (toIn S c) with
  | allow l pu pa =>
    have ⟨a1, a2, a3, a4, a5, a6, a7, a8, _⟩ := decideAllow _ _ _ _ hd
    exact ⟨a1, a2, a3, a4, a5, a6, a7, a8⟩
  | pause w => rw [hd] at h; simp [isAllow] at h
  | deny r => rw [hd] at h; simp [isAllow] at h

/-- Every admitted call of every trace satisfied the flow, origin, history, ceiling and structural
rules in force when it was decided. -/
theorem runAdmittedPassed (fresh : MState → Call → Nat) : ∀ (cs : List Call) (S : MState), AdmittedPassed fresh S cs
  | [], _ => trivial
  | c :: cs, S => ⟨stepAdmittedPassed S c (fresh S c), runAdmittedPassed fresh cs _⟩

end AgentWarrant.Monitor.Run
