import AgentWarrant.Thm.Monitor.Full.Revision
import AgentWarrant.Thm.Revision.Link
/-! Section 7.1, part 2, on the whole monitor, from the revision certificates: the allocation half of
"every old admission is a new admission" is derived, not assumed.

A whole-monitor grant is a ledger account over contexts `Ctx`: what its matching reads (the state's
bindings, invalid slots and satisfied requirements, the call's arguments and its effect units).
`polOf` turns a permission list into a policy list over `Ctx`, and the monitor's accounts at a call
are that list's ledger at the state's counters instantiated at the call (`accountsZ`), so an Allow
charges each list exactly as `chargeL` does (`sideChargeZ`). The relation the certificates carry
(`CertRel`): both counter vectors are one per grant and within quota, and on each list the old and
the new ledgers are related by `Rev D`, the structural certificates of Section 7.1 (appending,
matching-equivalent edits, capacity extension, independent swaps, lifting, composition). `revSim`
keeps it through every charge, so the new lists' first-fit serves every call the old lists serve.

The safety state now includes the approval state: `SafetyEqP` is the records, bindings, invalid
slots, satisfied requirements and the permits; the counters are related by `CertRel`. Explicit
denies: the new lists add no deny grant (`NoNewDenyGrant`, a condition on the policy pair). Permits:
the grants the new lists choose need an exact-call permit exactly when the old lists' do
(`PermitAgrees`, at each admitted call); then both monitors consume the same permit. -/
namespace AgentWarrant.Monitor.Full
open Lean AgentWarrant AgentWarrant.Monitor AgentWarrant.Monitor.Run AgentWarrant.Revision

/-- What a grant's matching reads: the state (bindings, invalid slots, satisfied requirements), the
call's arguments and its effect units. -/
abbrev Ctx := State × List (String × Json) × List Effect

/-- A grant as a ledger account's matching: allow, ready, and which effect units it matches. -/
def gOf (g : Grant) (x : Ctx) : Monitor.Grant := ⟨g.allow, ready x.1 g, List.map (grantMatches x.1 x.2.1 g) x.2.2⟩

def polOf (gs : List Grant) : PolListOf Ctx := List.map (fun g => (gOf g, g.quota)) gs

def effsX (x : Ctx) : List Nat := range 0 (List.length x.2.2)

theorem accountsZ (s : State) (args : List (String × Json)) (es : List Effect) :
    ∀ (gs : List Grant) (us : List Nat), List.length gs = List.length us →
    List.map account (zipEntries s args es gs us) = inst (s, args, es) (ledgerOf (polOf gs) us)
  | [], [], _ => rfl
  | [], _ :: _, h => by simp [List.length_cons] at h
  | _ :: _, [], h => by simp [List.length_cons] at h
  | g :: gs, u :: us, h => by
    simp [List.length_cons] at h
    have ih := accountsZ s args es gs us h
    have e1 : zipEntries s args es (g :: gs) (u :: us) = entryOf s args es g u :: zipEntries s args es gs us := rfl
    have e2 : ledgerOf (polOf (g :: gs)) (u :: us) = (gOf g, resid g.quota u) :: ledgerOf (polOf gs) us := rfl
    rw [e1, e2]
    show account (entryOf s args es g u) :: List.map account (zipEntries s args es gs us) =
      (gOf g (s, args, es), resid g.quota u) :: inst (s, args, es) (ledgerOf (polOf gs) us)
    rw [ih]
    cases hq : g.quota <;> simp [account, entryOf, hq, resid, gOf]

theorem polQuota (gs : List Grant) : List.map Prod.snd (polOf gs) = List.map Grant.quota gs := by
  simp only [polOf]; rw [mapMap]

theorem polLength (gs : List Grant) : List.length (polOf gs) = List.length gs := lengthMap _ gs

/-- One list, one Allow of the whole monitor: its charge is the ledger's `chargeL`. -/
theorem sideChargeZ (s : State) (args : List (String × Json)) (es : List Effect) (gs : List Grant) (us : List Nat)
    (hl : List.length gs = List.length us) (hw : WithinL (List.map Grant.quota gs) us) (ps : List Nat)
    (ha : alloc (List.map account (sideEntries s args es gs us)) (range 0 (List.length es)) = some ps) :
    chargeL effsX (s, args, es) (ledgerOf (polOf gs) us) =
      some (ledgerOf (polOf gs) (addVec us (chargeVec 0 (List.length us) ps))) := by
  rw [sideEntriesZip s args es gs us hl, accountsZ s args es gs us hl, allocInst] at ha
  have hlp : List.length (polOf gs) = List.length us := by rw [polLength]; exact hl
  have hwp : WithinL (List.map Prod.snd (polOf gs)) us := by rw [polQuota]; exact hw
  cases hL : allocL (s, args, es) (ledgerOf (polOf gs) us) (range 0 (List.length es)) with
  | none => rw [hL] at ha; simp at ha
  | some p => cases p with
    | mk qs Lf =>
      rw [hL] at ha
      simp at ha
      have ⟨hch, hg⟩ := allocLCharged (s, args, es) _ _ qs Lf hL
      have e := ledgerAfter (s, args, es) 0 (polOf gs) us Lf qs hch hg hwp hlp
      rw [← ha, e]
      show (match allocL (s, args, es) (ledgerOf (polOf gs) us) (range 0 (List.length es)) with
        | none => none
        | some (_, lf) => some lf) = some Lf
      rw [hL]

/-- One list: a ledger charge that succeeds is an allocation of the whole monitor that succeeds. -/
theorem sideAllocZ (s : State) (args : List (String × Json)) (es : List Effect) (gs : List Grant) (us : List Nat)
    (hl : List.length gs = List.length us) (Ln : Ledger Ctx)
    (h : chargeL effsX (s, args, es) (ledgerOf (polOf gs) us) = some Ln) :
    ∃ ps, alloc (List.map account (sideEntries s args es gs us)) (range 0 (List.length es)) = some ps := by
  rw [sideEntriesZip s args es gs us hl, accountsZ s args es gs us hl, allocInst]
  have h' : (match allocL (s, args, es) (ledgerOf (polOf gs) us) (range 0 (List.length es)) with
      | none => none
      | some (_, lf) => some lf) = some Ln := h
  cases hL : allocL (s, args, es) (ledgerOf (polOf gs) us) (range 0 (List.length es)) with
  | none => rw [hL] at h'; cases h'
  | some p => cases p with
    | mk qs Lf => exact ⟨qs, rfl⟩


-- list facts --------------------------------------------------------------------------------------

theorem anyEx {α : Type} {f : α → Bool} : ∀ {l : List α}, List.any l f = true → ∃ x, x ∈ l ∧ f x = true
  | [], h => by cases h
  | a :: l, h => by
    cases ha : f a with
    | true => exact ⟨a, Mem.head _, ha⟩
    | false =>
      have h' : (f a || List.any l f) = true := h
      rw [ha] at h'
      have ⟨x, hx, fx⟩ := anyEx (l := l) h'
      exact ⟨x, Mem.tail _ hx, fx⟩

theorem nthMemZ {α : Type} : ∀ (l : List α) (d : Nat) (x : α), nth? l d = some x → x ∈ l
  | [], _, x, h => by cases h
  | a :: l, 0, x, h => by
    have e : a = x := Option.some.inj h
    rw [← e]; exact Mem.head _
  | a :: l, d + 1, x, h => Mem.tail _ (nthMemZ l d x h)

theorem hitNth : ∀ (l : List Bool) (e : Nat), hit l e = true → nth? l e = some true
  | [], _, h => by cases h
  | b :: l, 0, h => by have e : b = true := h; rw [e]; rfl
  | b :: l, e + 1, h => hitNth l e h

theorem memZipOfLen {α β : Type} {x : α} : ∀ {l : List α} {r : List β}, x ∈ l → List.length l = List.length r →
    ∃ y, (x, y) ∈ List.zip l r
  | [], _, h, _ => absurd h notMemNil
  | a :: l, [], _, hl => by simp [List.length_cons] at hl
  | a :: l, b :: r, h, hl => by
    have ez : List.zip (a :: l) (b :: r) = (a, b) :: List.zip l r := rfl
    rw [ez]
    cases h with
    | head _ => exact ⟨b, Mem.head _⟩
    | tail _ h' =>
      simp [List.length_cons] at hl
      have ⟨y, hy⟩ := memZipOfLen h' hl
      exact ⟨y, Mem.tail _ hy⟩

theorem memZipL {α β : Type} {p : α × β} : ∀ {l : List α} {r : List β}, p ∈ List.zip l r → p.1 ∈ l
  | [], _, h => by cases h
  | a :: l, [], h => by cases h
  | a :: l, b :: r, h => by
    have ez : List.zip (a :: l) (b :: r) = (a, b) :: List.zip l r := rfl
    rw [ez] at h
    cases h with
    | head _ => exact Mem.head _
    | tail _ h' => exact Mem.tail _ (memZipL h')

-- first-fit: every chosen position fits an effect, and every effect has a chosen position ---------

theorem scanAt (e : Nat) : ∀ (i : Nat) (l : List Acct) (k : Nat) (l' : List Acct), scan e i l = some (k, l') →
    ∃ j g, k = i + j ∧ nth? (List.map Prod.fst l) j = some g ∧ fits g e = true
  | _, [], _, _, h => by simp [scan] at h
  | i, (g, r) :: l, k, l', h => by
    cases hf : (fits g e && avail r) with
    | true =>
      simp [scan, hf] at h
      have hg : fits g e = true := by cases hx : fits g e <;> simp [hx] at hf ⊢
      exact ⟨0, g, by rw [← h.1]; rfl, rfl, hg⟩
    | false =>
      simp [scan, hf] at h
      cases hs : scan e (i + 1) l with
      | none => rw [hs] at h; simp at h
      | some p => cases p with
        | mk k0 l0 =>
          rw [hs] at h; simp at h
          have ⟨j, g', ek, hn, hfit⟩ := scanAt e (i + 1) l k0 l0 hs
          refine ⟨j + 1, g', ?_, hn, hfit⟩
          rw [← h.1, ek, Nat.succ_add, Nat.add_succ]

theorem allocChosen : ∀ (es : List Nat) (l : List Acct) (ps : List Nat), alloc l es = some ps →
    (∀ k, k ∈ ps → ∃ e g, e ∈ es ∧ nth? (List.map Prod.fst l) k = some g ∧ fits g e = true) ∧
    (∀ e, e ∈ es → ∃ k g, k ∈ ps ∧ nth? (List.map Prod.fst l) k = some g ∧ fits g e = true)
  | [], _, ps, h => by
    simp [alloc] at h
    rw [← h]
    exact ⟨fun k hk => absurd hk notMemNil, fun e he => absurd he notMemNil⟩
  | e0 :: es, l, ps, h => by
    cases hs : scan e0 0 l with
    | none => simp [alloc, hs] at h
    | some p => cases p with
      | mk k l1 =>
        cases ha : alloc l1 es with
        | none => simp [alloc, hs, ha] at h
        | some qs =>
          simp [alloc, hs, ha] at h
          rw [← h]
          have ⟨j, g, ek, hn, hfit⟩ := scanAt e0 0 l k l1 hs
          rw [Nat.zero_add] at ek
          rw [← ek] at hn
          have ⟨ih1, ih2⟩ := allocChosen es l1 qs ha
          have hg := scanGrants e0 0 l k l1 hs
          rw [hg] at ih1 ih2
          refine ⟨fun k' hk => ?_, fun e he => ?_⟩
          · cases hk with
            | head _ => exact ⟨e0, g, Mem.head _, hn, hfit⟩
            | tail _ hk' => have ⟨e, g', he, h1, h2⟩ := ih1 k' hk'; exact ⟨e, g', Mem.tail _ he, h1, h2⟩
          · cases he with
            | head _ => exact ⟨k, g, Mem.head _, hn, hfit⟩
            | tail _ he' => have ⟨k', g', hk, h1, h2⟩ := ih2 e he'; exact ⟨k', g', Mem.tail _ hk, h1, h2⟩

theorem nthLedgerGrant (x : Ctx) : ∀ (gs : List Grant) (us : List Nat) (k : Nat), List.length gs = List.length us →
    nth? (List.map Prod.fst (inst x (ledgerOf (polOf gs) us))) k = Option.map (fun g => gOf g x) (nth? gs k)
  | [], [], k, _ => rfl
  | [], _ :: _, _, h => by simp [List.length_cons] at h
  | _ :: _, [], _, h => by simp [List.length_cons] at h
  | g :: gs, u :: us, 0, _ => rfl
  | g :: gs, u :: us, k + 1, h => by
    simp [List.length_cons] at h
    exact nthLedgerGrant x gs us k h

/-- The grant first-fit chose at a position of the whole monitor's accounts is the list's grant there. -/
theorem chosenGrant (s : State) (args : List (String × Json)) (es : List Effect) (gs : List Grant) (us : List Nat)
    (hl : List.length gs = List.length us) (k : Nat) (g' : Monitor.Grant)
    (h : nth? (List.map Prod.fst (List.map account (sideEntries s args es gs us))) k = some g') :
    ∃ g, nth? gs k = some g ∧ g' = gOf g (s, args, es) := by
  rw [sideEntriesZip s args es gs us hl, accountsZ s args es gs us hl, nthLedgerGrant _ gs us k hl] at h
  cases hn : nth? gs k with
  | none => rw [hn] at h; cases h
  | some g => rw [hn] at h; exact ⟨g, rfl, (Option.some.inj h).symm⟩

theorem nthMapSome {α β : Type} (f : α → β) : ∀ (l : List α) (d : Nat) (y : β), nth? (List.map f l) d = some y →
    ∃ x, nth? l d = some x ∧ f x = y
  | [], _, _, h => by cases h
  | a :: l, 0, y, h => ⟨a, rfl, Option.some.inj h⟩
  | a :: l, d + 1, y, h => nthMapSome f l d y h

theorem mapAppend {α β : Type} (f : α → β) : ∀ (a b : List α), List.map f (a ++ b) = List.map f a ++ List.map f b
  | [], b => rfl
  | x :: a, b => by simp [List.map, mapAppend f a b]

theorem mapConstLen {α : Type} {c : Nat} : ∀ {a b : List α}, List.length a = List.length b →
    List.map (fun _ => c) a = List.map (fun _ => c) b
  | [], [], _ => rfl
  | [], _ :: _, h => by simp [List.length_cons] at h
  | _ :: _, [], h => by simp [List.length_cons] at h
  | x :: a, y :: b, h => by
    simp [List.length_cons] at h
    simp [List.map, mapConstLen h]

theorem andT1 {a b : Bool} (h : (a && b) = true) : a = true := by cases a <;> simp at h ⊢
theorem andT2 {a b : Bool} (h : (a && b) = true) : b = true := by cases a <;> cases b <;> simp at h ⊢

/-- A grant fits effect unit `e` of a call only if it is an allow for that unit's action. -/
theorem fitsAction (g : Grant) (x : Ctx) (e : Nat) (h : fits (gOf g x) e = true) :
    g.allow = true ∧ ∃ ef, nth? x.2.2 e = some ef ∧ g.action = ef.action := by
  have h1 : (g.allow && ready x.1 g && hit (List.map (grantMatches x.1 x.2.1 g) x.2.2) e) = true := h
  refine ⟨andT1 (andT1 h1), ?_⟩
  have ⟨ef, hef, hm⟩ := nthMapSome _ _ _ _ (hitNth _ _ (andT2 h1))
  refine ⟨ef, hef, ?_⟩
  have hm' : (g.action == ef.action && resMatches x.1 ef.res g.pat && keysOk g x.2.1 && g.preds.all (predHolds x.2.1)) = true := hm
  exact ofDecideEqTrue (andT1 (andT1 (andT1 hm')))

/-- Exact-call permits follow the action: any two allow grants, one of the old and one of the new
list of the same side, for the same action need a permit alike. -/
def PermitByAction (p : Policy) (u' a' : List Grant) : Prop :=
  (∀ g g', g ∈ p.user → g' ∈ u' → g.allow = true → g'.allow = true → g.action = g'.action → g.permit = g'.permit) ∧
  (∀ g g', g ∈ p.app → g' ∈ a' → g.allow = true → g'.allow = true → g.action = g'.action → g.permit = g'.permit)

theorem permitSide (s : State) (args : List (String × Json)) (es : List Effect) (G1 G2 : List Grant) (us1 us2 : List Nat)
    (hl1 : List.length G1 = List.length us1) (hl2 : List.length G2 = List.length us2) (ps1 ps2 : List Nat)
    (ha1 : alloc (List.map account (sideEntries s args es G1 us1)) (range 0 (List.length es)) = some ps1)
    (ha2 : alloc (List.map account (sideEntries s args es G2 us2)) (range 0 (List.length es)) = some ps2)
    (hpa : ∀ g g', g ∈ G1 → g' ∈ G2 → g.allow = true → g'.allow = true → g.action = g'.action → g.permit = g'.permit)
    (h : chosenNeedPermit G1 ps1 = true) : chosenNeedPermit G2 ps2 = true := by
  have ⟨k, hk, hperm0⟩ := anyEx h
  have hperm : (match nth? G1 k with | some g => g.permit | none => false) = true := hperm0
  cases hn : nth? G1 k with
  | none => rw [hn] at hperm; cases hperm
  | some g =>
    rw [hn] at hperm
    have hperm : g.permit = true := hperm
    have ⟨c1, _⟩ := allocChosen _ _ _ ha1
    have ⟨e, g1, he, hn1, hf1⟩ := c1 k hk
    have ⟨g0, hg0, eg0⟩ := chosenGrant s args es G1 us1 hl1 k g1 hn1
    rw [hn] at hg0
    have eg : g = g0 := Option.some.inj hg0
    rw [eg0, ← eg] at hf1
    have ⟨al1, ef1, hef1, act1⟩ := fitsAction g _ e hf1
    have ⟨_, c2⟩ := allocChosen _ _ _ ha2
    have ⟨k2, g2', hk2, hn2, hf2⟩ := c2 e he
    have ⟨g2, hg2, eg2⟩ := chosenGrant s args es G2 us2 hl2 k2 g2' hn2
    rw [eg2] at hf2
    have ⟨al2, ef2, hef2, act2⟩ := fitsAction g2 _ e hf2
    have eef : ef1 = ef2 := by rw [hef1] at hef2; exact Option.some.inj hef2
    have hsame : g.permit = g2.permit :=
      hpa g g2 (nthMemZ G1 k g hn) (nthMemZ G2 k2 g2 hg2) al1 al2 (by rw [act1, act2, eef])
    refine anyMem hk2 ?_
    show (match nth? G2 k2 with | some g => g.permit | none => false) = true
    rw [hg2]
    show g2.permit = true
    rw [← hsame]
    exact hperm

/-- Identical safety states including the approval state: records, bindings, invalid slots,
satisfied requirements and permits. -/
def SafetyEqP (s s' : State) : Prop := SafetyEq s s' ∧ s'.permits = s.permits

/-- The counter relation the certificates carry: on both monitors the counters are one per grant
and within quota, and on each list the old and new ledgers are related by `Rev D`. -/
def CertRel (D : Ctx → Prop) (p : Policy) (u' a' : List Grant) (s s' : State) : Prop :=
  QuotaOk p s ∧ QuotaOk (revisedP p u' a') s' ∧
  Rev D (ledgerOf (polOf p.user) s.usedUser) (ledgerOf (polOf u') s'.usedUser) ∧
  Rev D (ledgerOf (polOf p.app) s.usedApp) (ledgerOf (polOf a') s'.usedApp)

/-- The new lists hold no deny grant the old lists lack. -/
def NoNewDenyGrant (p : Policy) (u' a' : List Grant) : Prop :=
  (∀ g, g ∈ u' → g.allow = false → ∃ g0, g0 ∈ p.user ∧ ∀ x, gOf g0 x = gOf g x) ∧
  (∀ g, g ∈ a' → g.allow = false → ∃ g0, g0 ∈ p.app ∧ ∀ x, gOf g0 x = gOf g x)

/-- A deny grant of the new list that is a grant of the old list denies what it denied there. -/
theorem denySide (s : State) (args : List (String × Json)) (es : List Effect) (G1 G2 : List Grant) (us1 us2 : List Nat)
    (hl1 : List.length G1 = List.length us1) (hl2 : List.length G2 = List.length us2)
    (hsub : ∀ g, g ∈ G2 → g.allow = false → ∃ g0, g0 ∈ G1 ∧ ∀ x, gOf g0 x = gOf g x) (e : Nat)
    (h : explicitDeny (sideEntries s args es G2 us2) e = true) : explicitDeny (sideEntries s args es G1 us1) e = true := by
  rw [sideEntriesZip s args es G2 us2 hl2] at h
  rw [sideEntriesZip s args es G1 us1 hl1]
  have ⟨x, hx, hd⟩ := anyEx h
  have ⟨pr, hpr, ex⟩ := memMapInv _ hx
  rw [← ex] at hd
  have hd' : (!pr.1.allow && hit (List.map (grantMatches s args pr.1) es) e) = true := hd
  have hal : pr.1.allow = false := by
    cases hh : pr.1.allow with
    | false => rfl
    | true =>
      rw [hh] at hd'
      have z : (!true && hit (List.map (grantMatches s args pr.fst) es) e) = false := rfl
      rw [z] at hd'
      cases hd'
  have ⟨g0, hg1, hsame⟩ := hsub pr.1 (memZipL hpr) hal
  have ⟨y, hy⟩ := memZipOfLen hg1 hl1
  have hm : entryOf s args es g0 y ∈ zipEntries s args es G1 us1 :=
    memMapOf (fun q : Grant × Nat => entryOf s args es q.1 q.2) hy
  have ea : g0.allow = pr.1.allow := congrArg Monitor.Grant.allow (hsame (s, args, es))
  have eh : List.map (grantMatches s args g0) es = List.map (grantMatches s args pr.1) es :=
    congrArg Monitor.Grant.hits (hsame (s, args, es))
  refine anyMem hm ?_
  show (!g0.allow && hit (List.map (grantMatches s args g0) es) e) = true
  rw [ea, eh]
  exact hd'

theorem anyDenyTransfer (s : State) (args : List (String × Json)) (es : List Effect) (U1 A1 U2 A2 : List Grant)
    (uu1 ua1 uu2 ua2 : List Nat) (l1 : List.length U1 = List.length uu1) (l2 : List.length A1 = List.length ua1)
    (l3 : List.length U2 = List.length uu2) (l4 : List.length A2 = List.length ua2)
    (hu : ∀ g, g ∈ U2 → g.allow = false → ∃ g0, g0 ∈ U1 ∧ ∀ x, gOf g0 x = gOf g x)
    (ha : ∀ g, g ∈ A2 → g.allow = false → ∃ g0, g0 ∈ A1 ∧ ∀ x, gOf g0 x = gOf g x)
    (effs : List Nat)
    (h : anyDeny (sideEntries s args es U2 uu2) (sideEntries s args es A2 ua2) effs = true) :
    anyDeny (sideEntries s args es U1 uu1) (sideEntries s args es A1 ua1) effs = true := by
  have ⟨side, hside, hany⟩ := anyEx h
  have ⟨e, he, hde⟩ := anyEx hany
  cases memPair hside with
  | inl eq =>
    rw [eq] at hde
    exact anyMem (Mem.head _) (anyMem he (denySide s args es U1 U2 uu1 uu2 l1 l3 hu e hde))
  | inr eq =>
    rw [eq] at hde
    exact anyMem (Mem.tail _ (Mem.head _)) (anyMem he (denySide s args es A1 A2 ua1 ua2 l2 l4 ha e hde))

/-- What an Allow's permit is: under a flow pause (an extension beyond Agenra) the approval
`findApproval` names; otherwise the one `findPermit` names when the chosen grants need one, else
none. A flow denial never allows. -/
theorem decideFullPermitChoice (p : Policy) (s : State) (c : Call) (l : Label) (pu pa : List Nat) (k : Option Nat)
    (h : decideFull p s c = Verdict.allow l pu pa k) (t : Tool) (es : List Effect)
    (hp : prepare p s c = Except.ok (t, es)) :
    (extCheck p s c t es l = Ext.pause → findApproval s c = k) ∧
    (extCheck p s c t es l = Ext.allow →
      ((chosenNeedPermit p.user pu || chosenNeedPermit p.app pa) = true → ∃ q, findPermit s c = Except.ok q ∧ k = some q) ∧
      ((chosenNeedPermit p.user pu || chosenNeedPermit p.app pa) = false → k = none)) ∧
    extCheck p s c t es l ≠ Ext.deny := by
  have ⟨t0, es0, hp0, hcore⟩ := decideFullAllow p s c l pu pa k h
  rw [hp] at hp0
  cases hp0
  have key : ∀ x, extCheck p s c t es l = x → (x = Ext.pause → findApproval s c = k) ∧
      (x = Ext.allow →
        ((chosenNeedPermit p.user pu || chosenNeedPermit p.app pa) = true → ∃ q, findPermit s c = Except.ok q ∧ k = some q) ∧
        ((chosenNeedPermit p.user pu || chosenNeedPermit p.app pa) = false → k = none)) ∧ x ≠ Ext.deny := by
    intro x hx
    cases x with
    | deny =>
      have e : decideFull p s c = Verdict.deny "flow" := by simp [decideFull, hp, hcore, hx]
      rw [e] at h
      cases h
    | pause =>
      have ap : ∀ q, findApproval s c = some q → findApproval s c = k := by
        intro q ha
        have e : decideFull p s c = Verdict.allow l pu pa (some q) := by simp [decideFull, hp, hcore, hx, ha]
        rw [e] at h
        have ⟨_, _, _, h4⟩ := Verdict.allow.inj h
        rw [ha]
        exact h4
      have an : findApproval s c ≠ none := by
        intro ha
        have e : decideFull p s c = Verdict.pause ["flow approval"] := by simp [decideFull, hp, hcore, hx, ha]
        rw [e] at h
        cases h
      have fa : findApproval s c = k := by
        cases ha : findApproval s c with
        | none => exact absurd ha an
        | some q => rw [← ha]; exact ap q ha
      refine ⟨fun _ => fa, ?_, ?_⟩
      · intro e
        cases e
      · intro e
        cases e
    | allow =>
      have mid : ((chosenNeedPermit p.user pu || chosenNeedPermit p.app pa) = true → ∃ q, findPermit s c = Except.ok q ∧ k = some q) ∧
          ((chosenNeedPermit p.user pu || chosenNeedPermit p.app pa) = false → k = none) := by
        cases hn : (chosenNeedPermit p.user pu || chosenNeedPermit p.app pa) with
        | true =>
          cases hf : findPermit s c with
          | ok q =>
            have e : decideFull p s c = Verdict.allow l pu pa (some q) := by simp [decideFull, hp, hcore, hx, hn, hf]
            rw [e] at h
            have ⟨_, _, _, h4⟩ := Verdict.allow.inj h
            exact ⟨fun _ => ⟨q, rfl, h4.symm⟩, fun e => by cases e⟩
          | error w =>
            have e : decideFull p s c = Verdict.deny w := by simp [decideFull, hp, hcore, hx, hn, hf]
            rw [e] at h
            cases h
        | false =>
          have e : decideFull p s c = Verdict.allow l pu pa none := by simp [decideFull, hp, hcore, hx, hn]
          rw [e] at h
          have ⟨_, _, _, h4⟩ := Verdict.allow.inj h
          exact ⟨(fun e => by cases e), fun _ => h4.symm⟩
      refine ⟨?_, fun _ => mid, ?_⟩
      · intro e
        cases e
      · intro e
        cases e
  exact key _ rfl

theorem orFlags {a b a' b' : Bool} (ha : a = true → a' = true) (ha' : a' = true → a = true)
    (hb : b = true → b' = true) (hb' : b' = true → b = true) : (a' || b') = (a || b) := by
  cases a <;> cases b <;> cases a' <;> cases b' <;> simp at ha ha' hb hb' ⊢

/-- Section 7.1 (2) on the whole monitor, one step, given the new lists' charge: from identical safety
states (with permits), an old admission is a new admission with the same label and the same permit
when the new lists' ledgers charge the call, their explicit denies match it only where the old
lists' do, and exact-call permits follow the action. Afterwards the safety states are again
identical, both monitors' counters one per grant and within quota, the old monitor's ledgers those
its lists' charge gives and the new monitor's the given charge's. Both the certificate route
(`stepFullCertR`) and the closure check (`cwStepFull`) supply the new charge. -/
theorem stepFullNewCharge (p : Policy) (u' a' : List Grant) (s : State) (uu ua : List Nat)
    (c : Call) (o : Outcome) (hq : QuotaOk p s) (hq' : QuotaOk (revisedP p u' a') (revisedS s uu ua s.permits))
    (hpa : PermitByAction p u' a')
    (l : Label) (pu pa : List Nat) (k : Option Nat) (hold : decideFull p s c = Verdict.allow l pu pa k)
    (t : Tool) (es : List Effect) (hp : prepare p s c = Except.ok (t, es)) (LnU LnA : Ledger Ctx)
    (hnU : chargeL effsX (s, c.args, es) (ledgerOf (polOf u') uu) = some LnU)
    (hnA : chargeL effsX (s, c.args, es) (ledgerOf (polOf a') ua) = some LnA)
    (hdeny : anyDeny (sideEntries (revisedS s uu ua s.permits) c.args es u' uu)
      (sideEntries (revisedS s uu ua s.permits) c.args es a' ua) (range 0 (List.length es)) = true →
      anyDeny (sideEntries s c.args es p.user s.usedUser) (sideEntries s c.args es p.app s.usedApp)
        (range 0 (List.length es)) = true) :
    ∃ pu' pa', (stepFull (revisedP p u' a') (revisedS s uu ua s.permits) c o).1 = Verdict.allow l pu' pa' k ∧
      SafetyEqP (stepFull p s c o).2 (stepFull (revisedP p u' a') (revisedS s uu ua s.permits) c o).2 ∧
      QuotaOk p (stepFull p s c o).2 ∧ QuotaOk (revisedP p u' a') (stepFull (revisedP p u' a') (revisedS s uu ua s.permits) c o).2 ∧
      chargeL effsX (s, c.args, es) (ledgerOf (polOf p.user) s.usedUser) =
        some (ledgerOf (polOf p.user) (stepFull p s c o).2.usedUser) ∧
      chargeL effsX (s, c.args, es) (ledgerOf (polOf p.app) s.usedApp) =
        some (ledgerOf (polOf p.app) (stepFull p s c o).2.usedApp) ∧
      ledgerOf (polOf u') (stepFull (revisedP p u' a') (revisedS s uu ua s.permits) c o).2.usedUser = LnU ∧
      ledgerOf (polOf a') (stepFull (revisedP p u' a') (revisedS s uu ua s.permits) c o).2.usedApp = LnA := by
  have ⟨t0, es0, hp0, hcore⟩ := decideFullAllow p s c l pu pa k hold
  rw [hp] at hp0
  cases hp0
  have ⟨_, _, _, _, _, _, _, _, a9, _⟩ := decideAllow _ _ _ _ hcore
  have ⟨hu, ha⟩ := (allocBothAllOrNothing _ _ _ pu pa).1 a9
  have hu' : alloc (List.map account (sideEntries s c.args es p.user s.usedUser)) (range 0 (List.length es)) = some pu := hu
  have ha' : alloc (List.map account (sideEntries s c.args es p.app s.usedApp)) (range 0 (List.length es)) = some pa := ha
  have ⟨lu, la, wu, wa⟩ := hq
  have ⟨lu', la', wu', wa'⟩ := hq'
  have lu' : List.length uu = List.length u' := lu'
  have la' : List.length ua = List.length a' := la'
  have wu' : WithinL (List.map Grant.quota u') uu := wu'
  have wa' : WithinL (List.map Grant.quota a') ua := wa'
  have ⟨pu', hpu'⟩ := sideAllocZ s c.args es u' uu lu'.symm LnU hnU
  have ⟨pa', hpa'⟩ := sideAllocZ s c.args es a' ua la'.symm LnA hnA
  have hnew : allocBoth (List.map account (sideEntries (revisedS s uu ua s.permits) c.args es u' uu))
      (List.map account (sideEntries (revisedS s uu ua s.permits) c.args es a' ua)) (range 0 (List.length es)) =
        some (pu', pa') := (allocBothAllOrNothing _ _ _ pu' pa').2 ⟨hpu', hpa'⟩
  have flagEq : (chosenNeedPermit u' pu' || chosenNeedPermit a' pa') = (chosenNeedPermit p.user pu || chosenNeedPermit p.app pa) :=
    orFlags
      (permitSide s c.args es p.user u' s.usedUser uu lu.symm lu'.symm pu pu' hu' hpu' hpa.1)
      (permitSide s c.args es u' p.user uu s.usedUser lu'.symm lu.symm pu' pu hpu' hu'
        (fun g g' h1 h2 a1 a2 ea => (hpa.1 g' g h2 h1 a2 a1 ea.symm).symm))
      (permitSide s c.args es p.app a' s.usedApp ua la.symm la'.symm pa pa' ha' hpa' hpa.2)
      (permitSide s c.args es a' p.app ua s.usedApp la'.symm la.symm pa' pa hpa' ha'
        (fun g g' h1 h2 a1 a2 ea => (hpa.2 g' g h2 h1 a2 a1 ea.symm).symm))
  have ⟨pmP, pmA, pmD⟩ := decideFullPermitChoice p s c l pu pa k hold t es hp
  have hfp : findPermit (revisedS s uu ua s.permits) c = findPermit s c := rfl
  have hpermit : extCheck p s c t es l = Ext.allow → (chosenNeedPermit u' pu' || chosenNeedPermit a' pa') = true →
      ∃ q, findPermit (revisedS s uu ua s.permits) c = Except.ok q := by
    intro hx hf
    rw [flagEq] at hf
    have ⟨q, hq, _⟩ := (pmA hx).1 hf
    exact ⟨q, by rw [hfp]; exact hq⟩
  -- the approval state is the old one (`revisedS` keeps `s.permits`), so an approval carries over
  have ⟨k', hk'⟩ := decideFullRevised p u' a' s uu ua s.permits c l pu pa k hold t es hp pu' pa' hnew hdeny hpermit
    (fun q hq => ⟨q, hq⟩)
  have ekk : k' = k := by
    have hp' : prepare (revisedP p u' a') (revisedS s uu ua s.permits) c = Except.ok (t, es) := hp
    have ex : extCheck (revisedP p u' a') (revisedS s uu ua s.permits) c t es l = extCheck p s c t es l := rfl
    have ⟨nP, nA, _⟩ := decideFullPermitChoice (revisedP p u' a') (revisedS s uu ua s.permits) c l pu' pa' k' hk' t es hp'
    cases hx : extCheck p s c t es l with
    | deny => exact absurd hx pmD
    | pause =>
      have e1 := pmP hx
      have e2 : findApproval (revisedS s uu ua s.permits) c = k' := nP (by rw [ex, hx])
      have e3 : findApproval (revisedS s uu ua s.permits) c = findApproval s c := rfl
      rw [← e2, ← e1, e3]
    | allow =>
    have ⟨nT, nF⟩ := nA (by rw [ex, hx])
    have ⟨pmT, pmF⟩ := pmA hx
    have eu : (revisedP p u' a').user = u' := rfl
    have ea : (revisedP p u' a').app = a' := rfl
    rw [eu, ea, flagEq] at nT nF
    cases hf : (chosenNeedPermit p.user pu || chosenNeedPermit p.app pa) with
    | true =>
      have ⟨q, hq, e1⟩ := pmT hf
      have ⟨q', hq', e2⟩ := nT hf
      rw [hfp, hq] at hq'
      have eq : q = q' := by cases hq'; rfl
      rw [e1, e2, eq]
    | false => rw [pmF hf, nF hf]
  rw [ekk] at hk'
  have hstepN := stepFullAllow (revisedP p u' a') (revisedS s uu ua s.permits) c o l pu' pa' k hk'
  have hstepO := stepFullAllow p s c o l pu pa k hold
  have hsafe := stepFullRevisedSafety p u' a' s uu ua s.permits c o l pu pa pu' pa' k k hold hk'
  have q1 := stepFullQuota p s c o hq
  have q2 := stepFullQuota (revisedP p u' a') _ c o hq'
  refine ⟨pu', pa', by rw [hstepN], ?_, ?_⟩
  · refine ⟨hsafe, ?_⟩
    rw [hstepN, hstepO, (observeKeeps _ _ _ o).2.2.2, (observeKeeps _ _ _ o).2.2.2]; rfl
  have su : (stepFull p s c o).2.usedUser = addVec s.usedUser (chargeVec 0 (List.length s.usedUser) pu) := by
    rw [hstepO, (observeKeeps _ _ _ o).1]; rfl
  have sa : (stepFull p s c o).2.usedApp = addVec s.usedApp (chargeVec 0 (List.length s.usedApp) pa) := by
    rw [hstepO, (observeKeeps _ _ _ o).2.1]; rfl
  have sn : (stepFull (revisedP p u' a') (revisedS s uu ua s.permits) c o).2.usedUser =
      addVec uu (chargeVec 0 (List.length uu) pu') := by
    rw [hstepN, (observeKeeps _ _ _ o).1]; rfl
  have sna : (stepFull (revisedP p u' a') (revisedS s uu ua s.permits) c o).2.usedApp =
      addVec ua (chargeVec 0 (List.length ua) pa') := by
    rw [hstepN, (observeKeeps _ _ _ o).2.1]; rfl
  have xU := sideChargeZ s c.args es u' uu lu'.symm wu' pu' hpu'
  have xA := sideChargeZ s c.args es a' ua la'.symm wa' pa' hpa'
  rw [hnU] at xU
  rw [hnA] at xA
  refine ⟨q1, q2, ?_, ?_, ?_, ?_⟩
  · rw [su]; exact sideChargeZ s c.args es p.user s.usedUser lu.symm wu pu hu'
  · rw [sa]; exact sideChargeZ s c.args es p.app s.usedApp la.symm wa pa ha'
  · rw [sn, ← Option.some.inj xU]
  · rw [sna, ← Option.some.inj xA]

/-- Section 7.1 (2) on the whole monitor, one step, from the certificates: from identical safety
states (with permits) whose ledgers the certificates relate, an old admission of a call in the
certificates' domain is a new admission with the same label and the same permit, and afterwards
the safety states are again identical and the ledgers again related. -/
theorem stepFullCertR (D : Ctx → Prop) (p : Policy) (u' a' : List Grant) (s : State) (uu ua : List Nat)
    (c : Call) (o : Outcome) (hR : CertRel D p u' a' s (revisedS s uu ua s.permits))
    (hD : ∀ x : Ctx, x.2.1 = c.args → D x) (hnd : NoNewDenyGrant p u' a') (hpa : PermitByAction p u' a')
    (l : Label) (pu pa : List Nat) (k : Option Nat) (hold : decideFull p s c = Verdict.allow l pu pa k) :
    ∃ pu' pa', (stepFull (revisedP p u' a') (revisedS s uu ua s.permits) c o).1 = Verdict.allow l pu' pa' k ∧
      SafetyEqP (stepFull p s c o).2 (stepFull (revisedP p u' a') (revisedS s uu ua s.permits) c o).2 ∧
      CertRel D p u' a' (stepFull p s c o).2 (stepFull (revisedP p u' a') (revisedS s uu ua s.permits) c o).2 := by
  have ⟨t, es, hp, hcore⟩ := decideFullAllow p s c l pu pa k hold
  have ⟨_, _, _, _, _, _, _, _, a9, _⟩ := decideAllow _ _ _ _ hcore
  have ⟨hu, ha⟩ := (allocBothAllOrNothing _ _ _ pu pa).1 a9
  have hu' : alloc (List.map account (sideEntries s c.args es p.user s.usedUser)) (range 0 (List.length es)) = some pu := hu
  have ha' : alloc (List.map account (sideEntries s c.args es p.app s.usedApp)) (range 0 (List.length es)) = some pa := ha
  have ⟨⟨lu, la, wu, wa⟩, ⟨lu', la', wu', wa'⟩, rU, rA⟩ := hR
  have lu' : List.length uu = List.length u' := lu'
  have la' : List.length ua = List.length a' := la'
  have rU : Rev D (ledgerOf (polOf p.user) s.usedUser) (ledgerOf (polOf u') uu) := rU
  have rA : Rev D (ledgerOf (polOf p.app) s.usedApp) (ledgerOf (polOf a') ua) := rA
  have chU := sideChargeZ s c.args es p.user s.usedUser lu.symm wu pu hu'
  have chA := sideChargeZ s c.args es p.app s.usedApp la.symm wa pa ha'
  have hd := hD (s, c.args, es) rfl
  have ⟨LnU, hnU, rU'⟩ := revSim effsX D (s, c.args, es) _ _ _ hd rU chU
  have ⟨LnA, hnA, rA'⟩ := revSim effsX D (s, c.args, es) _ _ _ hd rA chA
  have hdeny : anyDeny (sideEntries (revisedS s uu ua s.permits) c.args es u' uu)
      (sideEntries (revisedS s uu ua s.permits) c.args es a' ua) (range 0 (List.length es)) = true →
      anyDeny (sideEntries s c.args es p.user s.usedUser) (sideEntries s c.args es p.app s.usedApp)
        (range 0 (List.length es)) = true :=
    fun h => anyDenyTransfer s c.args es p.user p.app u' a' s.usedUser s.usedApp uu ua lu.symm la.symm lu'.symm la'.symm
      hnd.1 hnd.2 _ h
  have ⟨pu', pa', hk, hsafe, q1, q2, oU, oA, nU, nA⟩ :=
    stepFullNewCharge p u' a' s uu ua c o hR.1 hR.2.1 hpa l pu pa k hold t es hp LnU LnA hnU hnA hdeny
  rw [chU] at oU
  rw [chA] at oA
  refine ⟨pu', pa', hk, hsafe, q1, q2, ?_, ?_⟩
  · show Rev D (ledgerOf (polOf p.user) (stepFull p s c o).2.usedUser)
      (ledgerOf (polOf u') (stepFull (revisedP p u' a') (revisedS s uu ua s.permits) c o).2.usedUser)
    rw [← Option.some.inj oU, nU]; exact rU'
  · show Rev D (ledgerOf (polOf p.app) (stepFull p s c o).2.usedApp)
      (ledgerOf (polOf a') (stepFull (revisedP p u' a') (revisedS s uu ua s.permits) c o).2.usedApp)
    rw [← Option.some.inj oA, nA]; exact rA'

/-- Every call of the trace, at the state the old monitor reaches, meets `Cov`. -/
def AlongTrace (Cov : State → Call → Prop) (p : Policy) : State → List (Call × Outcome) → Prop
  | _, [] => True
  | s, (c, o) :: cs => Cov s c ∧ AlongTrace Cov p (stepFull p s c o).2 cs

theorem alongOfMem (Cov : State → Call → Prop) (p : Policy) : ∀ (cs : List (Call × Outcome)) (s : State),
    (∀ c o, (c, o) ∈ cs → ∀ s, Cov s c) → AlongTrace Cov p s cs
  | [], _, _ => trivial
  | (c, o) :: cs, s, h => ⟨h c o (Mem.head _) s, alongOfMem Cov p cs _ (fun c' o' hm => h c' o' (Mem.tail _ hm))⟩

/-- Section 7.1 on the whole monitor over every client trace of the old policy, from any one-step
argument: if from identical safety states (with permits) related by `R` an old admission of a call
meeting `Cov` is a new admission with the same label and permit into identical safety states related
by `R`, then so is every client trace whose calls meet `Cov` along the old run. -/
theorem runFullOfStep (p : Policy) (u' a' : List Grant) (R : State → State → Prop) (Cov : State → Call → Prop)
    (hstep : ∀ (s : State) (uu ua : List Nat) (c : Call) (o : Outcome) (l : Label) (pu pa : List Nat) (k : Option Nat),
      R s (revisedS s uu ua s.permits) → Cov s c → decideFull p s c = Verdict.allow l pu pa k →
      ∃ pu' pa', (stepFull (revisedP p u' a') (revisedS s uu ua s.permits) c o).1 = Verdict.allow l pu' pa' k ∧
        SafetyEqP (stepFull p s c o).2 (stepFull (revisedP p u' a') (revisedS s uu ua s.permits) c o).2 ∧
        R (stepFull p s c o).2 (stepFull (revisedP p u' a') (revisedS s uu ua s.permits) c o).2) :
    ∀ (cs : List (Call × Outcome)) (s s' : State), SafetyEqP s s' → R s s' → Client p s cs → AlongTrace Cov p s cs →
    List.map verdictLabel (runFull (revisedP p u' a') s' cs).1 = List.map verdictLabel (runFull p s cs).1 ∧
    allB isAllowV (runFull (revisedP p u' a') s' cs).1 = true ∧
    SafetyEqP (runFull p s cs).2 (runFull (revisedP p u' a') s' cs).2 ∧
    R (runFull p s cs).2 (runFull (revisedP p u' a') s' cs).2
  | [], s, s', hs, hR, _, _ => ⟨rfl, rfl, hs, hR⟩
  | (c, o) :: cs, s, s', hs, hR, ⟨ha, hc⟩, ⟨hD, hD'⟩ => by
    have ⟨l, pu, pa, k, hv⟩ := allowOfV ha
    rw [stepFullVerdict] at hv
    have e0 := safetyRevisedS s s' hs.1
    have e : s' = revisedS s s'.usedUser s'.usedApp s.permits := by rw [hs.2] at e0; exact e0
    have hR0 : R s (revisedS s s'.usedUser s'.usedApp s.permits) := by rw [← e]; exact hR
    have ⟨pu', pa', hk, hsafe, hR'⟩ := hstep s s'.usedUser s'.usedApp c o l pu pa k hR0 hD hv
    rw [← e] at hk hsafe hR'
    have ih := runFullOfStep p u' a' R Cov hstep cs _ _ hsafe hR' hc hD'
    have r1 : runFull p s ((c, o) :: cs) = ((stepFull p s c o).1 :: (runFull p (stepFull p s c o).2 cs).1,
        (runFull p (stepFull p s c o).2 cs).2) := rfl
    have r2 : runFull (revisedP p u' a') s' ((c, o) :: cs) =
        ((stepFull (revisedP p u' a') s' c o).1 :: (runFull (revisedP p u' a') (stepFull (revisedP p u' a') s' c o).2 cs).1,
          (runFull (revisedP p u' a') (stepFull (revisedP p u' a') s' c o).2 cs).2) := rfl
    rw [r1, r2]
    have hv' : (stepFull p s c o).1 = Verdict.allow l pu pa k := by rw [stepFullVerdict]; exact hv
    refine ⟨?_, ?_, ih.2.2.1, ih.2.2.2⟩
    · simp only [List.map]
      rw [hk, hv', ih.1]
      rfl
    · simp only [allB]
      rw [hk]
      exact ih.2.1

/-- Section 7.1 (2) on the whole monitor over every client trace of the old policy, from the
certificates: from identical safety states (with permits) whose ledgers the certificates relate,
with every call of the trace in the certificates' domain in every binding state, the new monitor
admits every call with the same label, and the safety states (with permits) stay identical and
the ledgers related. -/
theorem runFullCert (D : Ctx → Prop) (p : Policy) (u' a' : List Grant) (hnd : NoNewDenyGrant p u' a')
    (hpa : PermitByAction p u' a') (cs : List (Call × Outcome)) (s s' : State)
    (hs : SafetyEqP s s') (hR : CertRel D p u' a' s s') (hc : Client p s cs)
    (hD : ∀ c o, (c, o) ∈ cs → ∀ x : Ctx, x.2.1 = c.args → D x) :
    List.map verdictLabel (runFull (revisedP p u' a') s' cs).1 = List.map verdictLabel (runFull p s cs).1 ∧
    allB isAllowV (runFull (revisedP p u' a') s' cs).1 = true ∧
    SafetyEqP (runFull p s cs).2 (runFull (revisedP p u' a') s' cs).2 ∧
    CertRel D p u' a' (runFull p s cs).2 (runFull (revisedP p u' a') s' cs).2 :=
  runFullOfStep p u' a' (CertRel D p u' a') (fun _ c => ∀ x : Ctx, x.2.1 = c.args → D x)
    (fun s uu ua c o l pu pa k hR hD hv => stepFullCertR D p u' a' s uu ua c o hR hD hnd hpa l pu pa k hv)
    cs s s' hs hR hc (alongOfMem _ p cs s (fun c o hm _ => hD c o hm))

-- a revision Lean certifies: quotas raised at the old positions, allow grants appended ---------------

/-- A quota at least the old one: unlimited stays unlimited; a finite quota may grow or become unlimited. -/
def quotaGe : Option Nat → Option Nat → Bool
  | _, none => true
  | none, some _ => false
  | some a, some b => Nat.ble a b

/-- The old grants in order, each with its new quota (matching, requirement and permit unchanged). -/
def raiseQ : List Grant → List (Option Nat) → List Grant
  | g :: gs, q :: qs => { g with quota := q } :: raiseQ gs qs
  | _, _ => []

/-- The check: one new quota per old grant, each at least the old, and the appended grants allow. -/
def certifiedB (gs : List Grant) (qs : List (Option Nat)) (extra : List Grant) : Bool :=
  Nat.beq (List.length qs) (List.length gs) && quotaGeAll gs qs && allB (fun g => g.allow) extra
where quotaGeAll : List Grant → List (Option Nat) → Bool
  | g :: gs, q :: qs => quotaGe g.quota q && quotaGeAll gs qs
  | _, _ => true

theorem subMono (a b : Nat) (h : a ≤ b) : ∀ u, a - u ≤ b - u
  | 0 => h
  | u + 1 => by rw [Nat.sub_succ, Nat.sub_succ]; exact Nat.predLePred (subMono a b h u)

theorem residGe (q q' : Option Nat) (u : Nat) (h : quotaGe q q' = true) : Geq (resid q' u) (resid q u) := by
  cases q' with
  | none => exact trivial
  | some b => cases q with
    | none => cases h
    | some a => exact subMono a b h u

theorem capRaise (D : Ctx → Prop) : ∀ (gs : List Grant) (qs : List (Option Nat)) (us : List Nat),
    List.length qs = List.length gs → certifiedB.quotaGeAll gs qs = true →
    CapExt (ledgerOf (polOf gs) us) (ledgerOf (polOf (raiseQ gs qs)) us)
  | [], [], us, _, _ => by cases us <;> exact CapExt.nil
  | [], _ :: _, _, h, _ => by simp [List.length_cons] at h
  | _ :: _, [], _, h, _ => by simp [List.length_cons] at h
  | g :: gs, q :: qs, [], _, _ => CapExt.nil
  | g :: gs, q :: qs, u :: us, hl, hc => by
    simp [List.length_cons] at hl
    have hc' : (quotaGe g.quota q && certifiedB.quotaGeAll gs qs) = true := hc
    have ih := capRaise D gs qs us hl (andT2 hc')
    exact CapExt.cons (gOf g) (residGe g.quota q u (andT1 hc')) ih

theorem ledgerAppend {C : Type} : ∀ (pl x : PolListOf C) (us vs : List Nat), List.length pl = List.length us →
    ledgerOf (pl ++ x) (us ++ vs) = ledgerOf pl us ++ ledgerOf x vs
  | [], x, [], vs, _ => rfl
  | [], x, _ :: _, vs, h => by simp [List.length_cons] at h
  | _ :: _, x, [], vs, h => by simp [List.length_cons] at h
  | (g, q) :: pl, x, u :: us, vs, h => by
    simp [List.length_cons] at h
    rw [List.cons_append, List.cons_append]
    have e1 : ledgerOf ((g, q) :: (pl ++ x)) (u :: (us ++ vs)) = (g, resid q u) :: ledgerOf (pl ++ x) (us ++ vs) := rfl
    have e2 : ledgerOf ((g, q) :: pl) (u :: us) = (g, resid q u) :: ledgerOf pl us := rfl
    rw [e1, e2, List.cons_append, ledgerAppend pl x us vs h]

theorem polAppend (a b : List Grant) : polOf (a ++ b) = polOf a ++ polOf b := by
  simp only [polOf]; exact mapAppend _ a b

theorem raiseLength : ∀ (gs : List Grant) (qs : List (Option Nat)), List.length qs = List.length gs →
    List.length (raiseQ gs qs) = List.length gs
  | [], [], _ => rfl
  | [], _ :: _, h => by simp [List.length_cons] at h
  | _ :: _, [], h => by simp [List.length_cons] at h
  | g :: gs, q :: qs, h => by
    simp [List.length_cons] at h
    have e : raiseQ (g :: gs) (q :: qs) = { g with quota := q } :: raiseQ gs qs := rfl
    rw [e, List.length_cons, List.length_cons, raiseLength gs qs h]

/-- A certified pair of lists, from zero counters: the old ledger and the new are related by `Rev`
(capacity extension of the raised grants, then the appended ones), for any domain. -/
theorem certifiedRev (D : Ctx → Prop) (gs : List Grant) (qs : List (Option Nat)) (extra : List Grant)
    (h : certifiedB gs qs extra = true) :
    Rev D (ledgerOf (polOf gs) (List.map (fun _ => 0) gs))
      (ledgerOf (polOf (raiseQ gs qs ++ extra)) (List.map (fun _ => 0) (raiseQ gs qs ++ extra))) := by
  have h1 : (Nat.beq (List.length qs) (List.length gs) && certifiedB.quotaGeAll gs qs) = true := andT1 h
  have hl : List.length qs = List.length gs := Nat.eqOfBeqEqTrue (andT1 h1)
  have hz : List.map (fun _ => 0) (raiseQ gs qs ++ extra) =
      List.map (fun _ => 0) (raiseQ gs qs) ++ List.map (fun (_ : Grant) => 0) extra := mapAppend _ _ _
  have hzl : List.length (polOf (raiseQ gs qs)) = List.length (List.map (fun (_ : Grant) => 0) (raiseQ gs qs)) := by
    rw [polLength, lengthMap]
  rw [hz, polAppend, ledgerAppend _ _ _ _ hzl]
  have hzr : List.map (fun (_ : Grant) => 0) (raiseQ gs qs) = List.map (fun (_ : Grant) => 0) gs := by
    apply mapConstLen; rw [raiseLength gs qs hl]
  rw [hzr]
  exact Rev.comp (Rev.cap (capRaise D gs qs _ hl (andT2 h1))) (Rev.append _ _)

theorem memRaise : ∀ (gs : List Grant) (qs : List (Option Nat)) (g : Grant), g ∈ raiseQ gs qs →
    ∃ g0, g0 ∈ gs ∧ ∀ x, gOf g0 x = gOf g x
  | [], _, g, h => by cases h
  | _ :: _, [], g, h => by cases h
  | g0 :: gs, q :: qs, g, h => by
    have e : raiseQ (g0 :: gs) (q :: qs) = { g0 with quota := q } :: raiseQ gs qs := rfl
    rw [e] at h
    cases h with
    | head _ => exact ⟨g0, Mem.head _, fun x => rfl⟩
    | tail _ h' => have ⟨g1, hg1, he⟩ := memRaise gs qs g h'; exact ⟨g1, Mem.tail _ hg1, he⟩

theorem certifiedNoDeny (gs : List Grant) (qs : List (Option Nat)) (extra : List Grant) (h : certifiedB gs qs extra = true) :
    ∀ g, g ∈ raiseQ gs qs ++ extra → g.allow = false → ∃ g0, g0 ∈ gs ∧ ∀ x, gOf g0 x = gOf g x := by
  intro g hg hd
  cases memAppE hg with
  | inl h1 => exact memRaise gs qs g h1
  | inr h2 =>
    have ha := allBElim (andT2 h) g h2
    rw [hd] at ha
    cases ha

/-- A revision Lean certifies (on each list: one new quota per old grant, at least the old, then
appended allow grants), at a task's start: both monitors start in identical safety states (with
permits), the ledgers are related by the structural certificates on every call, and the new lists
add no deny grant. -/
theorem certifiedStart (p : Policy) (qu qa : List (Option Nat)) (xu xa : List Grant)
    (hu : certifiedB p.user qu xu = true) (ha : certifiedB p.app qa xa = true) :
    SafetyEqP (initialState p) (initialState (revisedP p (raiseQ p.user qu ++ xu) (raiseQ p.app qa ++ xa))) ∧
    CertRel (fun _ => True) p (raiseQ p.user qu ++ xu) (raiseQ p.app qa ++ xa) (initialState p)
      (initialState (revisedP p (raiseQ p.user qu ++ xu) (raiseQ p.app qa ++ xa))) ∧
    NoNewDenyGrant p (raiseQ p.user qu ++ xu) (raiseQ p.app qa ++ xa) :=
  ⟨⟨⟨rfl, rfl, rfl, rfl⟩, rfl⟩,
   ⟨(initialStateOk p).1, (initialStateOk _).1, certifiedRev _ p.user qu xu hu, certifiedRev _ p.app qa xa ha⟩,
   ⟨certifiedNoDeny p.user qu xu hu, certifiedNoDeny p.app qa xa ha⟩⟩

/-- Section 7.1 (2) for a certified revision, from a task's start: every client trace of the old
monitor is admitted call by call by the new one with the same labels, and the two end in identical
safety states, approval state included, with ledgers related by the certificates. -/
theorem certifiedRevisionKeepsSafety (p : Policy) (qu qa : List (Option Nat)) (xu xa : List Grant)
    (hu : certifiedB p.user qu xu = true) (ha : certifiedB p.app qa xa = true)
    (hpa : PermitByAction p (raiseQ p.user qu ++ xu) (raiseQ p.app qa ++ xa))
    (cs : List (Call × Outcome)) (hc : Client p (initialState p) cs) :
    let p' := revisedP p (raiseQ p.user qu ++ xu) (raiseQ p.app qa ++ xa)
    List.map verdictLabel (runFull p' (initialState p') cs).1 = List.map verdictLabel (runFull p (initialState p) cs).1 ∧
    allB isAllowV (runFull p' (initialState p') cs).1 = true ∧
    SafetyEqP (runFull p (initialState p) cs).2 (runFull p' (initialState p') cs).2 := by
  have ⟨hs, hR, hnd⟩ := certifiedStart p qu qa xu xa hu ha
  have r := runFullCert (fun _ => True) p _ _ hnd hpa cs _ _ hs hR hc (fun _ _ _ _ _ => trivial)
  exact ⟨r.1, r.2.1, r.2.2.1⟩

/-- `PermitByAction` for one side, as a check Lean runs on the two lists. -/
def permitByActionB (old new : List Grant) : Bool :=
  allB (fun g => allB (fun g' => !(g.allow && g'.allow && g.action == g'.action) || g.permit == g'.permit) new) old

theorem permitByActionOf (old new : List Grant) (h : permitByActionB old new = true) :
    ∀ g g', g ∈ old → g' ∈ new → g.allow = true → g'.allow = true → g.action = g'.action → g.permit = g'.permit := by
  intro g g' hg hg' a1 a2 ea
  have h1 := allBElim (allBElim h g hg) g' hg'
  have hact : (g.action == g'.action) = true := decideEqTrue ea
  have h2 : (!(g.allow && g'.allow && g.action == g'.action) || g.permit == g'.permit) = true := h1
  rw [a1, a2, hact] at h2
  exact ofDecideEqTrue h2

/-- Section 7.1 (2) for a revision whose every condition Lean checks on the policy pair: on each
list the old grants in order with quotas at least the old, then appended allow grants
(`certifiedB`), and permits following the action (`permitByActionB`). From a task's start, every
client trace of the old monitor is admitted call by call by the new one with the same labels, and
the two end in identical safety states, approval state included. -/
theorem checkedRevisionKeepsSafety (p : Policy) (qu qa : List (Option Nat)) (xu xa : List Grant)
    (hu : certifiedB p.user qu xu = true) (ha : certifiedB p.app qa xa = true)
    (hpu : permitByActionB p.user (raiseQ p.user qu ++ xu) = true) (hpa : permitByActionB p.app (raiseQ p.app qa ++ xa) = true)
    (cs : List (Call × Outcome)) (hc : Client p (initialState p) cs) :
    let p' := revisedP p (raiseQ p.user qu ++ xu) (raiseQ p.app qa ++ xa)
    List.map verdictLabel (runFull p' (initialState p') cs).1 = List.map verdictLabel (runFull p (initialState p) cs).1 ∧
    allB isAllowV (runFull p' (initialState p') cs).1 = true ∧
    SafetyEqP (runFull p (initialState p) cs).2 (runFull p' (initialState p') cs).2 :=
  certifiedRevisionKeepsSafety p qu qa xu xa hu ha ⟨permitByActionOf _ _ hpu, permitByActionOf _ _ hpa⟩ cs hc

end AgentWarrant.Monitor.Full
