import AgentWarrant.Thm.Monitor.Full.History
import AgentWarrant.Thm.Monitor.Full.Parents
import AgentWarrant.Thm.Monitor.Full.Bindings
/-! The lineage of a call (Agenra Section 4.3: "the operations that produced the current inputs"),
stated independently of the executable closure: `AncD n d` says record `d` is `n` parent steps above
one of the call's parents (`n = 0`: a parent itself), and `Anc` is "some `n`". On a trace whose
parents precede their children, and for parents that name records, the fuelled `closure` collects
exactly the ancestors (`closureIff`; its fuel, the trace length plus one, is sufficient because an
ancestor `n` steps up has an ID at least `n` below a parent's), so `lineage` is the ancestors'
records in trace order (`lineageMeaning`). With `historyHoldsIff`, a history rule over the lineage
scope is decided against this meaning (`historyLineageIff`). -/
namespace AgentWarrant.Monitor.Full
open Lean AgentWarrant

/-- `d` is `n` parent steps above one of `ps` in `tr`. -/
inductive AncD (tr : List Record) (ps : List Nat) : Nat → Nat → Prop
  | root (d : Nat) : d ∈ ps → AncD tr ps 0 d
  | up (n q d : Nat) (r : Record) : AncD tr ps n q → nth? tr q = some r → d ∈ r.parents → AncD tr ps (n + 1) d

/-- `d` is one of `ps` or a transitive parent of one. -/
def Anc (tr : List Record) (ps : List Nat) (d : Nat) : Prop := ∃ n, AncD tr ps n d

theorem anyBeqMem : ∀ (l : List Nat) (d : Nat), List.any l (· == d) = true → d ∈ l
  | [], d, h => by cases h
  | a :: l, d, h => by
    cases hb : (a == d) with
    | true =>
      have e : a = d := ofDecideEqTrue hb
      rw [← e]; exact Mem.head _
    | false =>
      have h' : ((a == d) || List.any l (· == d)) = true := h
      rw [hb] at h'
      exact Mem.tail _ (anyBeqMem l d h')

theorem memAnyBeq {l : List Nat} {d : Nat} (h : d ∈ l) : List.any l (· == d) = true :=
  anyMem h (decideEqTrue rfl)

theorem memJoinE {α : Type} {x : α} : ∀ {L : List (List α)}, x ∈ List.join L → ∃ l, l ∈ L ∧ x ∈ l
  | [], h => by cases h
  | l :: L, h => by
    have h' : x ∈ l ++ List.join L := h
    cases memAppE h' with
    | inl h1 => exact ⟨l, Mem.head _, h1⟩
    | inr h2 =>
      have ⟨l', hl', hx⟩ := memJoinE h2
      exact ⟨l', Mem.tail _ hl', hx⟩

theorem memJoinI {α : Type} {x : α} {l : List α} : ∀ {L : List (List α)}, l ∈ L → x ∈ l → x ∈ List.join L
  | [], hL, _ => by cases hL
  | l' :: L, hL, hx => by
    show x ∈ l' ++ List.join L
    cases hL with
    | head _ => exact memAppL _ hx
    | tail _ h' => exact memAppR _ _ (memJoinI h' hx)

/-- The parents of `acc`'s records that `acc` lacks: what one round of `closure` adds. -/
def moreOf (tr : List Record) (acc : List Nat) : List Nat :=
  acc.bind (fun d => match nth? tr d with
    | some r => r.parents.filter (fun q => !acc.any (· == q))
    | none => [])

theorem closureSucc (tr : List Record) (f : Nat) (acc : List Nat) :
    closure tr (f + 1) acc = if (moreOf tr acc).isEmpty then acc else closure tr f (acc ++ moreOf tr acc) := rfl

theorem moreSound (tr : List Record) (acc : List Nat) (q : Nat) (h : q ∈ moreOf tr acc) :
    ∃ a r, a ∈ acc ∧ nth? tr a = some r ∧ q ∈ r.parents := by
  have h' : q ∈ List.join (List.map (fun d => match nth? tr d with
    | some r => r.parents.filter (fun q => !acc.any (· == q))
    | none => []) acc) := h
  have ⟨l, hl, hq⟩ := memJoinE h'
  have ⟨a, ha, ea⟩ := memMapInv _ hl
  rw [← ea] at hq
  cases hn : nth? tr a with
  | none => rw [hn] at hq; cases hq
  | some r =>
    rw [hn] at hq
    exact ⟨a, r, ha, hn, (memFilterStdElim hq).1⟩

theorem moreComplete (tr : List Record) (acc : List Nat) (a q : Nat) (r : Record) (ha : a ∈ acc)
    (hr : nth? tr a = some r) (hq : q ∈ r.parents) : q ∈ acc ∨ q ∈ moreOf tr acc := by
  cases hb : List.any acc (· == q) with
  | true => exact Or.inl (anyBeqMem acc q hb)
  | false =>
    refine Or.inr ?_
    show q ∈ List.join (List.map (fun d => match nth? tr d with
      | some r => r.parents.filter (fun q => !acc.any (· == q))
      | none => []) acc)
    refine memJoinI (memMapOf _ ha) ?_
    rw [hr]
    exact memFilterStd hq (by rw [hb]; rfl)

theorem isEmptyNoMem {α : Type} {x : α} {l : List α} (h : List.isEmpty l = true) (hx : x ∈ l) : False := by
  cases hx with
  | head _ => cases h
  | tail _ _ => cases h

theorem closureSound (tr : List Record) (ps : List Nat) : ∀ (f : Nat) (acc : List Nat),
    (∀ a, a ∈ acc → Anc tr ps a) → ∀ d, d ∈ closure tr f acc → Anc tr ps d
  | 0, acc, h, d, hd => h d hd
  | f + 1, acc, h, d, hd => by
    rw [closureSucc] at hd
    cases he : (moreOf tr acc).isEmpty with
    | true => rw [he] at hd; exact h d hd
    | false =>
      rw [he] at hd
      refine closureSound tr ps f (acc ++ moreOf tr acc) ?_ d hd
      intro a ha
      cases memAppE ha with
      | inl h1 => exact h a h1
      | inr h2 =>
        have ⟨b, r, hb, hr, hq⟩ := moreSound tr acc a h2
        have ⟨n, hn⟩ := h b hb
        exact ⟨n + 1, AncD.up n b a r hn hr hq⟩

theorem closureClosedAll (tr : List Record) (ps acc : List Nat) (hps : ∀ d, d ∈ ps → d ∈ acc)
    (he : (moreOf tr acc).isEmpty = true) : ∀ n d, AncD tr ps n d → d ∈ acc := by
  intro n d h
  induction h with
  | root d hd => exact hps d hd
  | up n q d r _ hr hq ih =>
    cases moreComplete tr acc q d r ih hr hq with
    | inl h1 => exact h1
    | inr h2 => exact absurd (isEmptyNoMem he h2) id

theorem closureComplete (tr : List Record) (ps : List Nat) : ∀ (f : Nat) (acc : List Nat) (k : Nat),
    (∀ n d, AncD tr ps n d → n ≤ k → d ∈ acc) → ∀ n d, AncD tr ps n d → n ≤ k + f → d ∈ closure tr f acc
  | 0, acc, k, h, n, d, hd, hn => h n d hd hn
  | f + 1, acc, k, h, n, d, hd, hn => by
    rw [closureSucc]
    cases he : (moreOf tr acc).isEmpty with
    | true =>
      exact closureClosedAll tr ps acc (fun d hd => h 0 d (AncD.root d hd) (Nat.zeroLe k)) he n d hd
    | false =>
      refine closureComplete tr ps f (acc ++ moreOf tr acc) (k + 1) ?_ n d hd ?_
      · intro m x hx hm
        cases hx with
        | root x hx0 => exact memAppL _ (h 0 x (AncD.root x hx0) (Nat.zeroLe k))
        | up m q x r hq hr hxq =>
          have hqa := h m q hq (Nat.leOfSuccLeSucc hm)
          cases moreComplete tr acc q x r hqa hr hxq with
          | inl h1 => exact memAppL _ h1
          | inr h2 => exact memAppR _ _ h2
      · rw [Nat.succ_add]; rw [Nat.add_succ] at hn; exact hn

/-- An ancestor `n` steps up lies at least `n` below one of the starting IDs. -/
theorem ancBelow (tr : List Record) (ps : List Nat) (hp : ParentsPrecede tr) :
    ∀ n d, AncD tr ps n d → ∃ p, p ∈ ps ∧ d + n ≤ p := by
  intro n d h
  induction h with
  | root d hd => exact ⟨d, hd, Nat.leRefl _⟩
  | up n q d r _ hr hq ih =>
    have ⟨p, hp0, hle⟩ := ih
    have hdq : d + 1 ≤ q := hp q r d hr hq
    refine ⟨p, hp0, ?_⟩
    have e : d + (n + 1) = (d + 1) + n := by rw [Nat.add_succ, Nat.succ_add]
    rw [e]
    exact Nat.leTrans (Nat.addLeAddRight hdq n) hle

/-- The closure collects exactly the ancestors. -/
theorem closureIff (tr : List Record) (ps : List Nat) (hp : ParentsPrecede tr)
    (hps : ∀ p, p ∈ ps → p < List.length tr) (d : Nat) :
    d ∈ closure tr (List.length tr + 1) ps ↔ Anc tr ps d := by
  constructor
  · intro h
    exact closureSound tr ps _ ps (fun a ha => ⟨0, AncD.root a ha⟩) d h
  · intro ⟨n, hn⟩
    refine closureComplete tr ps _ ps 0 ?_ n d hn ?_
    · intro m x hx hm
      cases m with
      | zero =>
        cases hx with
        | root x h0 => exact h0
      | succ m => exact absurd hm (Nat.notSuccLeZero m)
    · have ⟨p, hp0, hle⟩ := ancBelow tr ps hp n d hn
      have h1 : n ≤ p := Nat.leTrans (Nat.leAddLeft n d) hle
      have h2 : p < List.length tr := hps p hp0
      rw [Nat.zero_add]
      exact Nat.leStep (Nat.leTrans h1 (Nat.leOfLtSucc (Nat.leStep h2)))

/-- `lineage` is the ancestors' records in trace order: it selects, from the trace positions in
order, exactly those where any decision procedure of `Anc` says yes. -/
theorem lineageMeaning (tr : List Record) (ps : List Nat) (hp : ParentsPrecede tr)
    (hps : ∀ p, p ∈ ps → p < List.length tr) (f : Nat → Bool) (hf : ∀ d, f d = true ↔ Anc tr ps d) :
    lineage tr ps = (List.range (List.length tr)).filterMap (fun d => if f d then nth? tr d else none) := by
  have e : (fun d => if List.any (closure tr (List.length tr + 1) ps) (· == d) then nth? tr d else none) =
      (fun d => if f d then nth? tr d else none) := by
    apply funext
    intro d
    have hb : List.any (closure tr (List.length tr + 1) ps) (· == d) = f d := by
      cases h1 : List.any (closure tr (List.length tr + 1) ps) (· == d) with
      | true =>
        have ha := (closureIff tr ps hp hps d).1 (anyBeqMem _ d h1)
        exact ((hf d).2 ha).symm
      | false =>
        cases h2 : f d with
        | false => rfl
        | true =>
          have hm := (closureIff tr ps hp hps d).2 ((hf d).1 h2)
          rw [memAnyBeq hm] at h1
          cases h1
    rw [hb]
  show (List.range (List.length tr)).filterMap
      (fun d => if List.any (closure tr (List.length tr + 1) ps) (· == d) then nth? tr d else none) = _
  rw [e]

/-- A history rule over the lineage scope, against the independent meanings: it holds exactly when
the ancestors' records, in trace order, are not pending, or the call is the required operation. -/
theorem historyLineageIff (h : History) (tr : List Record) (ps : List Nat) (hp : ParentsPrecede tr)
    (hps : ∀ p, p ∈ ps → p < List.length tr) (f : Nat → Bool) (hf : ∀ d, f d = true ↔ Anc tr ps d)
    (tool op : String) :
    historyHolds h (lineage tr ps) tool op = true ↔
      (¬ PendingIn h ((List.range (List.length tr)).filterMap (fun d => if f d then nth? tr d else none)) ∨
        (tool == h.require || op == h.require) = true) := by
  rw [lineageMeaning tr ps hp hps f hf]
  exact historyHoldsIff h _ tool op

end AgentWarrant.Monitor.Full
