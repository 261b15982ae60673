import AgentWarrant.Spec.Monitor.Naming
import AgentWarrant.Thm.Monitor.Full.Determinism
import AgentWarrant.Thm.Monitor.Determinism
import AgentWarrant.Spec.Revision.ListLemmas
import AgentWarrant.Thm.Monitor.Registration
import AgentWarrant.Thm.Monitor.Full.RevisionCert
import AgentWarrant.Thm.Monitor.Full.Bindings
/-! Section 6.3 with record IDs chosen freely (`Spec/Monitor/Naming.lean`): the whole monitor's
step is equivariant under every injective renaming of IDs (`stepNEquivariant`), so two choices of
fresh ID give the same decision and successors that differ exactly by the transposition of the two
IDs (`stepNUpToRenaming`). An Allow admits the record under the chosen ID with the decided label,
and its parents, read as IDs, are exactly the IDs the call's handles name (`stepNAllowRecord`: the
paper's `M[d ↦ ℓ_out]`, `L[d ↦ J]`); the names stay distinct and one per record (`stepNNamesOk`).
At the deployed naming (each record named by its position, the trace length as fresh ID) the
named step is `stepFull` (`stepNCanonical`). -/
namespace AgentWarrant.Monitor.Full
open Lean AgentWarrant AgentWarrant.Monitor AgentWarrant.Monitor.Run

theorem idxOfMap (σ : Nat → Nat) (inj : ∀ a b, σ a = σ b → a = b) (x : Nat) :
    ∀ (ns : List Nat), idxOf (List.map σ ns) (σ x) = idxOf ns x
  | [] => rfl
  | n :: ns => by
    cases Nat.decEq n x with
    | isTrue h => subst h; simp [idxOf]
    | isFalse h =>
      have h' : ¬ σ n = σ x := fun e => h (inj _ _ e)
      simp [idxOf, h, h', idxOfMap σ inj x ns]

theorem toPosRename (σ : Nat → Nat) (inj : ∀ a b, σ a = σ b → a = b) (ns : List Nat) (c : Call) :
    toPos (List.map σ ns) (renameCall σ c) = toPos ns c := by
  have e : ∀ (rs : List (String × Nat)),
      List.map (fun r => (r.1, idxOf (List.map σ ns) r.2)) (List.map (fun r => (r.1, σ r.2)) rs) =
        List.map (fun r => (r.1, idxOf ns r.2)) rs := by
    intro rs
    induction rs with
    | nil => rfl
    | cons r rs ih =>
      show (r.1, idxOf (List.map σ ns) (σ r.2)) :: _ = (r.1, idxOf ns r.2) :: _
      rw [idxOfMap σ inj r.2 ns]
      exact congrArg _ ih
  simp only [toPos, renameCall]
  rw [e c.refs]

theorem mapAppendOne (σ : Nat → Nat) (l : List Nat) (x : Nat) : List.map σ (l ++ [x]) = List.map σ l ++ [σ x] := by
  induction l with
  | nil => rfl
  | cons a l ih =>
    have e1 : a :: l ++ [x] = a :: (l ++ [x]) := List.cons_append _ _ _
    rw [e1]
    show σ a :: List.map σ (l ++ [x]) = (σ a :: List.map σ l) ++ [σ x]
    rw [ih, List.cons_append]

/-- Section 6.3, equivariance: renaming the state's names, the call's handles and the fresh ID by
any injective map gives the same decision and the renamed successor. -/
theorem stepNEquivariant (σ : Nat → Nat) (inj : ∀ a b, σ a = σ b → a = b) (p : Policy) (d : Nat) (ks : NState)
    (c : Call) (o : Outcome) :
    stepN p (σ d) (renameK σ ks) (renameCall σ c) o = ((stepN p d ks c o).1, renameK σ (stepN p d ks c o).2) := by
  have e : toPos (renameK σ ks).names (renameCall σ c) = toPos ks.names c := toPosRename σ inj ks.names c
  simp only [stepN, e]
  cases isAllowV (stepFull p ks.st (toPos ks.names c) o).1 with
  | true => simp only [renameK]; simp; rw [mapAppendOne]
  | false => rfl

theorem mapFixN (σ : Nat → Nat) : ∀ (l : List Nat), (∀ x, x ∈ l → σ x = x) → List.map σ l = l
  | [], _ => rfl
  | a :: l, h => by
    show σ a :: List.map σ l = a :: l
    rw [h a (Mem.head _), mapFixN σ l (fun x hx => h x (Mem.tail _ hx))]

/-- Section 6.3, uniqueness up to renaming: for two IDs `d₁, d₂` that name no record, the step
gives the same decision, and successors that differ exactly by the transposition of `d₁` and `d₂`
(the positional state is the same; the admitted record is named `d₁` in one and `d₂` in the other). -/
theorem stepNUpToRenaming (p : Policy) (ks : NState) (c : Call) (o : Outcome) (d₁ d₂ : Nat)
    (h₁ : ¬ d₁ ∈ ks.names) (h₂ : ¬ d₂ ∈ ks.names) :
    (stepN p d₂ ks c o).1 = (stepN p d₁ ks c o).1 ∧
    (stepN p d₂ ks c o).2 = renameK (swap d₁ d₂) (stepN p d₁ ks c o).2 := by
  have hk : renameK (swap d₁ d₂) ks = ks := by
    have e := mapFixN (swap d₁ d₂) ks.names (fun x hx => swapFix (neOfNotMem hx h₁) (neOfNotMem hx h₂))
    simp only [renameK]; rw [e]; cases ks; rfl
  have e := stepNEquivariant (swap d₁ d₂) (swapInj d₁ d₂) p d₁ ks c o
  rw [hk, swapLeft] at e
  -- the call is renamed too; its renaming does not change what it names in `ks`
  have ec : stepN p d₂ ks (renameCall (swap d₁ d₂) c) o = stepN p d₂ ks c o := by
    have t : toPos ks.names (renameCall (swap d₁ d₂) c) = toPos ks.names c := by
      have t0 := toPosRename (swap d₁ d₂) (swapInj d₁ d₂) ks.names c
      have e2 : List.map (swap d₁ d₂) ks.names = ks.names :=
        mapFixN (swap d₁ d₂) ks.names (fun x hx => swapFix (neOfNotMem hx h₁) (neOfNotMem hx h₂))
      rw [e2] at t0
      exact t0
    simp only [stepN, t]; rfl
  rw [ec] at e
  rw [e]
  exact ⟨rfl, rfl⟩

-- the names stay distinct, one per record, and an Allow admits under the chosen ID ----------------

/-- Distinct names, one per record (the paper's "distinct attempt IDs, with exactly those IDs in
`M` and `L`"). -/
def NamesOk (ks : NState) : Prop := Distinct ks.names ∧ List.length ks.names = List.length ks.st.trace

theorem memSingle {a d : Nat} (h : a ∈ [d]) : a = d := by
  cases h with
  | head _ => rfl
  | tail _ h => exact absurd h notMemNil

theorem distinctSnoc (d : Nat) : ∀ (l : List Nat), Distinct l → ¬ d ∈ l → Distinct (l ++ [d])
  | [], _, _ => Distinct.cons notMemNil Distinct.nil
  | a :: l, Distinct.cons ha hl, hd => by
    have e1 : a :: l ++ [d] = a :: (l ++ [d]) := List.cons_append _ _ _
    rw [e1]
    refine Distinct.cons (fun h => ?_) (distinctSnoc d l hl (fun h => hd (Mem.tail _ h)))
    cases memAppE h with
    | inl h1 => exact ha h1
    | inr h2 => exact hd (by rw [← memSingle h2]; exact Mem.head _)

theorem idxOfSnoc (d : Nat) : ∀ (l : List Nat), ¬ d ∈ l → idxOf (l ++ [d]) d = List.length l
  | [], _ => by simp [idxOf]
  | a :: l, hd => by
    have e1 : a :: l ++ [d] = a :: (l ++ [d]) := List.cons_append _ _ _
    have ne : ¬ a = d := fun e => hd (by rw [← e]; exact Mem.head _)
    rw [e1, List.length_cons]
    simp [idxOf, ne, idxOfSnoc d l (fun h => hd (Mem.tail _ h))]

/-- A task starts with no records and no names. -/
theorem initialNamesOk (p : Policy) : NamesOk ⟨[], initialState p⟩ := ⟨Distinct.nil, rfl⟩

/-- Every step with a fresh ID keeps the names distinct and one per record. -/
theorem stepNNamesOk (p : Policy) (d : Nat) (ks : NState) (c : Call) (o : Outcome) (h : NamesOk ks)
    (hd : ¬ d ∈ ks.names) : NamesOk (stepN p d ks c o).2 := by
  cases hv : decideFull p ks.st (toPos ks.names c) with
  | allow l pu pa k =>
    have hs := stepFullAllow p ks.st (toPos ks.names c) o l pu pa k hv
    have ⟨⟨rec, et, _, _, _⟩, _⟩ := commitFields p ks.st (toPos ks.names c) l pu pa k
    have ⟨ef, _⟩ := observeFields p (commit p ks.st (toPos ks.names c) l pu pa k) (List.length ks.st.trace) o
    have hlen : List.length (observe p (commit p ks.st (toPos ks.names c) l pu pa k) (List.length ks.st.trace) o).trace =
        List.length ks.st.trace + 1 := by
      rw [forgetOkLength _ _ ef, et, lengthAppendOne]
    have e : (stepN p d ks c o).2 =
        ⟨ks.names ++ [d], observe p (commit p ks.st (toPos ks.names c) l pu pa k) (List.length ks.st.trace) o⟩ := by
      simp only [stepN, hs]; rfl
    rw [e]
    refine ⟨distinctSnoc d ks.names h.1 hd, ?_⟩
    show List.length (ks.names ++ [d]) = _
    rw [hlen, lengthAppendOne, h.2]
  | pause w =>
    have e : (stepN p d ks c o).2 = ks := by
      simp only [stepN, stepFull, hv]; cases ks; rfl
    rw [e]; exact h
  | deny r =>
    have e : (stepN p d ks c o).2 = ks := by
      simp only [stepN, stepFull, hv]; cases ks; rfl
    rw [e]; exact h

/-- An Allow admits the record under the chosen ID: after the step, `d` names a record, and its
label is the decided label `ℓ_out` (the paper's `M[d ↦ ℓ_out]`, with `τ · σ`). -/
theorem stepNAllowNamed (p : Policy) (d : Nat) (ks : NState) (c : Call) (o : Outcome) (h : NamesOk ks)
    (hd : ¬ d ∈ ks.names) (l : Label) (pu pa : List Nat) (k : Option Nat)
    (hv : (stepN p d ks c o).1 = Verdict.allow l pu pa k) :
    ∃ r, (stepN p d ks c o).2.named d = some r ∧ r.label = l := by
  have hv' : decideFull p ks.st (toPos ks.names c) = Verdict.allow l pu pa k := by
    rw [← stepFullVerdict p ks.st (toPos ks.names c) o]; exact hv
  have ⟨r, hr, hl, _⟩ := stepFullAllowAt p ks.st (toPos ks.names c) o l pu pa k hv'
  have hs := stepFullAllow p ks.st (toPos ks.names c) o l pu pa k hv'
  have e : (stepN p d ks c o).2 = ⟨ks.names ++ [d], (stepFull p ks.st (toPos ks.names c) o).2⟩ := by
    simp only [stepN, hs]; rfl
  refine ⟨r, ?_, hl⟩
  rw [e]
  show nth? (stepFull p ks.st (toPos ks.names c) o).2.trace (idxOf (ks.names ++ [d]) d) = some r
  rw [idxOfSnoc d ks.names hd, h.2]
  exact hr

-- the deployed naming ---------------------------------------------------------------------------

theorem idxOfRange : ∀ (n i j : Nat), j < n → idxOf (range i n) (i + j) = j
  | 0, i, j, h => absurd h (Nat.notSuccLeZero j)
  | n + 1, i, 0, _ => by simp [range, idxOf]
  | n + 1, i, j + 1, h => by
    have ne : ¬ i = i + (j + 1) := fun e => by
      have h1 : i + (j + 1) ≤ i + j := by rw [← e]; exact Nat.leAddRight i j
      exact Nat.notSuccLeSelf (i + j) h1
    have e4 : i + (j + 1) = (i + 1) + j := by rw [Nat.add_succ, Nat.succ_add]
    have ih := idxOfRange n (i + 1) j (Nat.leOfSuccLeSucc h)
    show (if i = i + (j + 1) then 0 else idxOf (range (i + 1) n) (i + (j + 1)) + 1) = j + 1
    rw [e4] at ne ⊢
    simp [ne, ih]

theorem rangeSnoc : ∀ (n i : Nat), range i n ++ [i + n] = range i (n + 1)
  | 0, i => rfl
  | n + 1, i => by
    have e0 : range i (n + 1) = i :: range (i + 1) n := rfl
    have e1 : range i (n + 1 + 1) = i :: range (i + 1) (n + 1) := rfl
    have e : i + (n + 1) = (i + 1) + n := by rw [Nat.add_succ, Nat.succ_add]
    rw [e0, e1, List.cons_append, e, rangeSnoc n (i + 1)]

/-- The deployed monitor is the named step at the canonical naming: when the records are named by
their positions and every handle of the call names a record, the named step with the trace length
as fresh ID gives `stepFull`'s decision and state, and names the records by position again. -/
theorem stepNCanonical (p : Policy) (s : State) (c : Call) (o : Outcome)
    (h : ∀ r, r ∈ c.refs → r.2 < List.length s.trace) :
    (stepN p (List.length s.trace) ⟨range 0 (List.length s.trace), s⟩ c o).1 = (stepFull p s c o).1 ∧
    (stepN p (List.length s.trace) ⟨range 0 (List.length s.trace), s⟩ c o).2.st = (stepFull p s c o).2 ∧
    (isAllowV (stepFull p s c o).1 = true →
      (stepN p (List.length s.trace) ⟨range 0 (List.length s.trace), s⟩ c o).2.names = range 0 (List.length s.trace + 1)) := by
  have hm : ∀ (rs : List (String × Nat)), (∀ r, r ∈ rs → r.2 < List.length s.trace) →
      List.map (fun r => (r.1, idxOf (range 0 (List.length s.trace)) r.2)) rs = rs := by
    intro rs
    induction rs with
    | nil => intro _; rfl
    | cons r rs ih =>
      intro hr
      have e := idxOfRange (List.length s.trace) 0 r.2 (hr r (Mem.head _))
      rw [Nat.zero_add] at e
      show (r.1, idxOf (range 0 (List.length s.trace)) r.2) :: _ = r :: rs
      rw [e, ih (fun x hx => hr x (Mem.tail _ hx))]
      cases r; rfl
  have ht : toPos (range 0 (List.length s.trace)) c = c := by
    simp only [toPos]; rw [hm c.refs h]; cases c; rfl
  refine ⟨?_, ?_, ?_⟩
  · show (stepFull p s (toPos (range 0 (List.length s.trace)) c) o).1 = _
    rw [ht]
  · show (stepFull p s (toPos (range 0 (List.length s.trace)) c) o).2 = _
    rw [ht]
  · intro ha
    show (if isAllowV (stepFull p s (toPos (range 0 (List.length s.trace)) c) o).1 then
      range 0 (List.length s.trace) ++ [List.length s.trace] else range 0 (List.length s.trace)) = _
    rw [ht, ha]
    have e := rangeSnoc (List.length s.trace) 0
    rw [Nat.zero_add] at e
    exact e

-- the admitted record's parents, read as IDs, are the IDs the call's handles name ---------------

theorem idxOfLtMem {x : Nat} : ∀ {l : List Nat}, idxOf l x < List.length l → x ∈ l
  | [], h => absurd h (Nat.notSuccLeZero _)
  | n :: l, h => by
    cases Nat.decEq n x with
    | isTrue e => rw [e]; exact Mem.head _
    | isFalse ne =>
      have e : idxOf (n :: l) x = idxOf l x + 1 := by simp [idxOf, ne]
      rw [e, List.length_cons] at h
      exact Mem.tail _ (idxOfLtMem (Nat.leOfSuccLeSucc h))

theorem nthIdxOf {x : Nat} : ∀ {l : List Nat}, x ∈ l → nth? l (idxOf l x) = some x
  | [], h => absurd h notMemNil
  | n :: l, h => by
    cases Nat.decEq n x with
    | isTrue e => rw [e]; simp [idxOf, nth?]
    | isFalse ne =>
      have e : idxOf (n :: l) x = idxOf l x + 1 := by simp [idxOf, ne]
      have h' : x ∈ l := by
        cases h with
        | head _ => exact absurd rfl ne
        | tail _ h => exact h
      rw [e]
      exact nthIdxOf h'

theorem memInsertSelf (key : α → String) (x : α) : ∀ (l : List α), x ∈ insertBy key x l
  | [] => Mem.head _
  | y :: ys => by
    cases hk : Decidable.decide (key x < key y) with
    | true =>
      have e : insertBy key x (y :: ys) = x :: y :: ys := by simp only [insertBy]; rw [hk]; rfl
      rw [e]; exact Mem.head _
    | false =>
      have e : insertBy key x (y :: ys) = y :: insertBy key x ys := by simp only [insertBy]; rw [hk]; rfl
      rw [e]; exact Mem.tail _ (memInsertSelf key x ys)

theorem memInsertOther (key : α → String) (x : α) {z : α} : ∀ {l : List α}, z ∈ l → z ∈ insertBy key x l
  | [], h => absurd h notMemNil
  | y :: ys, h => by
    cases hk : Decidable.decide (key x < key y) with
    | true =>
      have e : insertBy key x (y :: ys) = x :: y :: ys := by simp only [insertBy]; rw [hk]; rfl
      rw [e]; exact Mem.tail _ h
    | false =>
      have e : insertBy key x (y :: ys) = y :: insertBy key x ys := by simp only [insertBy]; rw [hk]; rfl
      rw [e]
      cases h with
      | head _ => exact Mem.head _
      | tail _ h => exact Mem.tail _ (memInsertOther key x h)

theorem memSortByOf (key : α → String) {z : α} : ∀ {l : List α}, z ∈ l → z ∈ sortBy key l
  | [], h => absurd h notMemNil
  | x :: xs, h => by
    show z ∈ insertBy key x (sortBy key xs)
    cases h with
    | head _ => exact memInsertSelf key _ _
    | tail _ h => exact memInsertOther key x (memSortByOf key h)

def parentsStep (acc : List Nat) (r : String × Nat) : List Nat :=
  if acc.any (fun d => d == r.2) then acc else acc ++ [r.2]

/-- The parents fold keeps what it has and adds every handle's ID. -/
theorem foldParentsHas : ∀ (l : List (String × Nat)) (acc : List Nat),
    (∀ q, q ∈ acc → q ∈ List.foldl parentsStep acc l) ∧ (∀ r, r ∈ l → r.2 ∈ List.foldl parentsStep acc l)
  | [], acc => ⟨fun q h => h, fun r h => absurd h notMemNil⟩
  | r :: l, acc => by
    have step : (∀ q, q ∈ acc → q ∈ parentsStep acc r) ∧ r.2 ∈ parentsStep acc r := by
      cases ha : acc.any (fun d => d == r.2) with
      | true =>
        have e : parentsStep acc r = acc := by simp only [parentsStep]; rw [ha]; rfl
        rw [e]
        have ⟨x, hx, hb⟩ := anyEx ha
        have ex : x = r.2 := ofDecideEqTrue hb
        exact ⟨fun q h => h, ex ▸ hx⟩
      | false =>
        have e : parentsStep acc r = acc ++ [r.2] := by simp only [parentsStep]; rw [ha]; rfl
        rw [e]
        exact ⟨fun q h => memAppL _ h, memAppR _ _ (Mem.head _)⟩
    have ih := foldParentsHas l (parentsStep acc r)
    refine ⟨fun q h => ih.1 q (step.1 q h), fun r' h => ?_⟩
    cases h with
    | head _ => exact ih.1 _ step.2
    | tail _ h => exact ih.2 r' h

theorem refsInParents (c : Call) (r : String × Nat) (h : r ∈ c.refs) : r.2 ∈ c.parents :=
  (foldParentsHas (sortBy (fun r => r.1) c.refs) []).2 r (memSortByOf _ h)

theorem memToPosRefs (ns : List Nat) (c : Call) {r : String × Nat} (h : r ∈ (toPos ns c).refs) :
    ∃ x, x ∈ List.map Prod.snd c.refs ∧ r.2 = idxOf ns x := by
  have ⟨r0, h0, e⟩ := memMapInv _ h
  exact ⟨r0.2, memMapOf Prod.snd h0, by rw [← e]⟩

theorem toPosRefsMem (ns : List Nat) (c : Call) {r : String × Nat} (h : r ∈ c.refs) :
    (r.1, idxOf ns r.2) ∈ (toPos ns c).refs := memMapOf (fun r => (r.1, idxOf ns r.2)) h

/-- An Allow admits the record under the chosen ID `d`, with the decided label, and its parents read
as IDs are exactly the IDs the call's handles name (the paper's `M[d ↦ ℓ_out]`, `L[d ↦ J]`). -/
theorem stepNAllowRecord (p : Policy) (d : Nat) (ks : NState) (c : Call) (o : Outcome) (h : NamesOk ks)
    (hd : ¬ d ∈ ks.names) (l : Label) (pu pa : List Nat) (k : Option Nat)
    (hv : (stepN p d ks c o).1 = Verdict.allow l pu pa k) :
    ∃ r, (stepN p d ks c o).2.named d = some r ∧ r.label = l ∧
      (∀ q, q ∈ r.parents → ∃ x, x ∈ List.map Prod.snd c.refs ∧ nth? (stepN p d ks c o).2.names q = some x) ∧
      (∀ x, x ∈ List.map Prod.snd c.refs → ∃ q, q ∈ r.parents ∧ nth? (stepN p d ks c o).2.names q = some x) := by
  have hv' : decideFull p ks.st (toPos ks.names c) = Verdict.allow l pu pa k := by
    rw [← stepFullVerdict p ks.st (toPos ks.names c) o]; exact hv
  have ⟨r, hr, hl, hpar⟩ := stepFullAllowAt p ks.st (toPos ks.names c) o l pu pa k hv'
  have ⟨t, es, hp, _⟩ := decideFullAllow p ks.st (toPos ks.names c) l pu pa k hv'
  have hrec := refsRecorded p ks.st (toPos ks.names c) t es hp
  have hs := stepFullAllow p ks.st (toPos ks.names c) o l pu pa k hv'
  have e : (stepN p d ks c o).2 = ⟨ks.names ++ [d], (stepFull p ks.st (toPos ks.names c) o).2⟩ := by
    simp only [stepN, hs]; rfl
  -- every handle's ID names a record, at its position
  have hx : ∀ (n : String) (x : Nat), (n, idxOf ks.names x) ∈ (toPos ks.names c).refs →
      nth? (ks.names ++ [d]) (idxOf ks.names x) = some x := by
    intro n x hm
    have ⟨rec, hrc, _⟩ := hrec _ hm
    have hlt : idxOf ks.names x < List.length ks.names := by
      rw [h.2]; exact nthLt _ _ _ hrc
    exact nthSnocLt d ks.names _ x (nthIdxOf (idxOfLtMem hlt))
  refine ⟨r, ?_, hl, ?_, ?_⟩
  · rw [e]
    show nth? (stepFull p ks.st (toPos ks.names c) o).2.trace (idxOf (ks.names ++ [d]) d) = some r
    rw [idxOfSnoc d ks.names hd, h.2]
    exact hr
  · intro q hq
    rw [hpar] at hq
    have ⟨r', hr', eq⟩ := parentsFromRefs (toPos ks.names c) q hq
    have ⟨x, hxm, ex⟩ := memToPosRefs ks.names c hr'
    refine ⟨x, hxm, ?_⟩
    rw [e, ← eq, ex]
    have hm : (r'.1, idxOf ks.names x) ∈ (toPos ks.names c).refs := by rw [← ex]; cases r'; exact hr'
    exact hx r'.1 x hm
  · intro x hxm
    have ⟨r0, h0, e0⟩ := memMapInv Prod.snd hxm
    have hm := toPosRefsMem ks.names c h0
    have hq := refsInParents (toPos ks.names c) _ hm
    rw [← hpar] at hq
    refine ⟨idxOf ks.names r0.2, hq, ?_⟩
    rw [e]
    have hx' := hx r0.1 r0.2 hm
    rw [← e0]
    exact hx'

end AgentWarrant.Monitor.Full
