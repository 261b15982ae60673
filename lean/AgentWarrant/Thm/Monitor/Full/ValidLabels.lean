import AgentWarrant.Thm.Monitor.Full.WellFormed
import AgentWarrant.Thm.Monitor.Full.Admitted
import AgentWarrant.Thm.Monitor.Full.Permits
/-! Agenra Section 6.1's "labels are valid", and with it the section's well-formed state as one
invariant of the whole monitor, all six clauses.

A label is valid for a registration whose sensitivity order has ranks `0 … top` and whose sorted
category names number `m` when its rank is at most `top` and its category vector names only
declared categories (it is no longer than `m`; a shorter vector is padded with "absent", the
labels' choice in `Spec/Monitor/Labels.lean`). The registration's labels are valid when every
node's declared label is, and every edge transform that sets a sensitivity sets a declared rank:
Section 6.1's "registration has … valid labels", the paper's hypothesis on the fixed environment.
Join, the bottom label and every transform keep labels valid, so each recorded label (the output
label of an admitted call) is valid, and every step and every run keep the trace's labels valid. -/
namespace AgentWarrant.Monitor.Full
open Lean AgentWarrant AgentWarrant.Monitor

def ValidLabel (top m : Nat) (l : Label) : Prop := l.sens ≤ top ∧ List.length l.cats ≤ m

/-- The registration's labels: every node's declared label, and every sensitivity a transform sets. -/
def RegistrationLabelsValid (top m : Nat) (p : Policy) : Prop :=
  (∀ n, n ∈ p.nodes → ValidLabel top m n.label) ∧
  (∀ e t v, e ∈ p.edges → e.prop = some t → t.setSens = some v → v ≤ top)

/-- Every record's label is valid. -/
def LabelsValid (top m : Nat) (s : State) : Prop := ∀ r, r ∈ s.trace → ValidLabel top m r.label

theorem mxLe : ∀ (a b t : Nat), a ≤ t → b ≤ t → mx a b ≤ t
  | 0, b, t, _, hb => hb
  | a + 1, 0, t, ha, _ => ha
  | a + 1, b + 1, 0, ha, _ => absurd ha (Nat.notSuccLeZero a)
  | a + 1, b + 1, t + 1, ha, hb => Nat.succLeSucc (mxLe a b t (Nat.leOfSuccLeSucc ha) (Nat.leOfSuccLeSucc hb))

theorem orLLen : ∀ (x y : List Bool) (m : Nat), List.length x ≤ m → List.length y ≤ m → List.length (orL x y) ≤ m
  | [], y, m, _, hy => hy
  | a :: x, [], m, hx, _ => hx
  | a :: x, b :: y, 0, hx, _ => by rw [List.length_cons] at hx; exact absurd hx (Nat.notSuccLeZero _)
  | a :: x, b :: y, m + 1, hx, hy => by
    rw [List.length_cons] at hx hy
    have e : orL (a :: x) (b :: y) = (a || b) :: orL x y := rfl
    rw [e, List.length_cons]
    exact Nat.succLeSucc (orLLen x y m (Nat.leOfSuccLeSucc hx) (Nat.leOfSuccLeSucc hy))

theorem minusLen : ∀ (x r : List Bool), List.length (minus x r) ≤ List.length x
  | [], r => Nat.zeroLe _
  | a :: x, [] => Nat.leRefl _
  | a :: x, b :: r => by
    have e : minus (a :: x) (b :: r) = (a && !b) :: minus x r := rfl
    rw [e, List.length_cons, List.length_cons]
    exact Nat.succLeSucc (minusLen x r)

theorem validBot (top m : Nat) : ValidLabel top m bot := ⟨Nat.zeroLe _, Nat.zeroLe _⟩

theorem validJoin {top m : Nat} {a b : Label} (ha : ValidLabel top m a) (hb : ValidLabel top m b) :
    ValidLabel top m (join a b) :=
  ⟨mxLe _ _ _ ha.1 hb.1, orLLen _ _ _ ha.2 hb.2⟩

theorem validJoinAll {top m : Nat} : ∀ (ls : List Label), (∀ l, l ∈ ls → ValidLabel top m l) → ValidLabel top m (joinAll ls)
  | [], _ => validBot top m
  | l :: ls, h => validJoin (validJoinAll ls (fun x hx => h x (Mem.tail _ hx))) (h l (Mem.head _))

theorem validPropagate {top m : Nat} (t : Transform) (l : Label) (hl : ValidLabel top m l)
    (ht : ∀ v, t.setSens = some v → v ≤ top) : ValidLabel top m (propagate (some t) l) := by
  refine ⟨?_, Nat.leTrans (minusLen _ _) hl.2⟩
  cases hs : t.setSens with
  | none =>
    show (match t.setSens with | none => l.sens - t.decrement | some s => s) ≤ top
    rw [hs]
    exact Nat.leTrans (Nat.subLe _ _) hl.1
  | some v =>
    show (match t.setSens with | none => l.sens - t.decrement | some s => s) ≤ top
    rw [hs]
    exact ht v hs

theorem nthMemL {α : Type} : ∀ (l : List α) (d : Nat) (x : α), nth? l d = some x → x ∈ l
  | [], _, x, h => by cases h
  | a :: l, 0, x, h => by
    have e : a = x := Option.some.inj h
    rw [← e]; exact Mem.head _
  | a :: l, d + 1, x, h => Mem.tail _ (nthMemL l d x h)

theorem validRecordLabel {top m : Nat} (s : State) (hs : LabelsValid top m s) (d : Nat) :
    ValidLabel top m (match s.record? d with | some r => r.label | none => bot) := by
  cases h : s.record? d with
  | none => exact validBot top m
  | some r => exact hs r (nthMemL s.trace d r h)

/-- The input label of any call, in a state whose labels are valid, under a valid registration. -/
theorem validLabelIn {top m : Nat} (p : Policy) (s : State) (c : Call) (t : Tool)
    (hp : RegistrationLabelsValid top m p) (hs : LabelsValid top m s) : ValidLabel top m (labelIn p s c t) := by
  cases hc : c.parents with
  | nil =>
    simp only [labelIn, hc]
    cases hn : p.nodes.find? (fun n => n.name == t.source) with
    | none => exact validBot top m
    | some n => exact hp.1 n (findSome hn).1
  | cons x xs =>
    simp only [labelIn, hc]
    refine validJoinAll _ ?_
    intro l hl
    have ⟨d, _, e⟩ := memMapInv _ hl
    rw [← e]
    exact validRecordLabel s hs d

theorem validLabelOut {top m : Nat} (p : Policy) (s : State) (c : Call) (t : Tool)
    (hp : RegistrationLabelsValid top m p) (hs : LabelsValid top m s) : ValidLabel top m (labelOutOf p s c t) := by
  have hin := validLabelIn p s c t hp hs
  cases he : edgeOf p t with
  | none => simp only [labelOutOf, he]; exact hin
  | some e =>
    simp only [labelOutOf, he]
    cases hpr : e.prop with
    | none => exact hin
    | some tr => exact validPropagate tr _ hin (fun v hv => hp.2 e tr v (findSome he).1 hpr hv)

theorem forgetOkLabel (t t' : List Record) (e : List.map forgetOk t' = List.map forgetOk t) :
    ∀ r, r ∈ t' → ∃ r0, r0 ∈ t ∧ r.label = r0.label := by
  intro r hr
  have h := memMapOf forgetOk hr
  rw [e] at h
  have ⟨r0, h0, e0⟩ := memMapInv forgetOk h
  have e1 : (forgetOk r0).label = (forgetOk r).label := congrArg Record.label e0
  exact ⟨r0, h0, e1.symm⟩

/-- Every step keeps every recorded label valid. -/
theorem stepFullLabelsValid {top m : Nat} (p : Policy) (s : State) (c : Call) (o : Outcome)
    (hp : RegistrationLabelsValid top m p) (h : LabelsValid top m s) : LabelsValid top m (stepFull p s c o).2 := by
  cases hd : decideFull p s c with
  | pause w => rw [stepFullOnlyAllowChanges p s c o (fun l pu pa k e => by rw [hd] at e; cases e)]; exact h
  | deny r => rw [stepFullOnlyAllowChanges p s c o (fun l pu pa k e => by rw [hd] at e; cases e)]; exact h
  | allow l pu pa k =>
    rw [stepFullAllow p s c o l pu pa k hd]
    have ⟨t, es, _, _, _, hl, _⟩ := decideFullPasses p s c l pu pa k hd
    have ⟨⟨rec, et, el, _, _⟩, _⟩ := commitFields p s c l pu pa k
    have ⟨ef, _⟩ := observeFields p (commit p s c l pu pa k) (List.length s.trace) o
    intro r hr
    have ⟨r0, h0, e0⟩ := forgetOkLabel _ _ ef r hr
    rw [e0]
    rw [et] at h0
    cases memAppE h0 with
    | inl h1 => exact h r0 h1
    | inr h1 =>
      cases h1 with
      | head _ => rw [el, hl]; exact validLabelOut p s c t hp h
      | tail _ h2 => exact absurd h2 notMemNil

theorem runFullLabelsValid {top m : Nat} (p : Policy) (hp : RegistrationLabelsValid top m p) :
    ∀ (cs : List (Call × Outcome)) (s : State), LabelsValid top m s → LabelsValid top m (runFull p s cs).2
  | [], s, h => h
  | (c, o) :: cs, s, h => runFullLabelsValid p hp cs (stepFull p s c o).2 (stepFullLabelsValid p s c o hp h)

/-- Section 6.1's well-formed state, all six clauses: distinct IDs (an ID is a trace position, and
every ID the state holds names a record), parents precede their children, labels are valid,
counters stay within their quotas, invalid slots have no binding, and every live binding came from
an applicable successful lookup. -/
def WellFormed (top m : Nat) (p : Policy) (s : State) : Prop :=
  WellFormedState p s ∧ LabelsValid top m s

theorem stepFullWellFormedAll {top m : Nat} (p : Policy) (s : State) (c : Call) (o : Outcome)
    (hp : RegistrationLabelsValid top m p) (h : WellFormed top m p s) : WellFormed top m p (stepFull p s c o).2 :=
  ⟨stepFullWellFormed p s c o h.1, stepFullLabelsValid p s c o hp h.2⟩

theorem runFullWellFormedAll {top m : Nat} (p : Policy) (hp : RegistrationLabelsValid top m p)
    (cs : List (Call × Outcome)) (s : State) (h : WellFormed top m p s) : WellFormed top m p (runFull p s cs).2 :=
  ⟨runFullWellFormed p cs s h.1, runFullLabelsValid p hp cs s h.2⟩

theorem initialWellFormedAll (top m : Nat) (p : Policy) : WellFormed top m p (initialState p) :=
  ⟨initialWellFormed p, fun r hr => absurd hr notMemNil⟩

/-- Every state the monitor reaches from a task's start is well formed, all six clauses. -/
theorem reachableWellFormedAll {top m : Nat} (p : Policy) (hp : RegistrationLabelsValid top m p)
    (cs : List (Call × Outcome)) : WellFormed top m p (runFull p (initialState p) cs).2 :=
  runFullWellFormedAll p hp cs _ (initialWellFormedAll top m p)

end AgentWarrant.Monitor.Full
