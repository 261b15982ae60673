import AgentWarrant.Spec.Monitor.Issuance
import AgentWarrant.Thm.Monitor.Full.Permits
import AgentWarrant.Thm.Monitor.Transition
/-! Exact-call permits are single use over whole tasks (Agenra Table 1 and Section 3: a permit is
consumed once, before invocation): once an Allow consumes permit `k`, no later Allow consumes it again,
whatever calls and issuances follow (`permitSingleUse`). The invariant behind it is that every permit
ID is below the number of permits (`IdsBelow`), which the state a task starts in meets and every step
and every issuance keep, so an issued permit never takes the ID of an existing one. -/
namespace AgentWarrant.Monitor.Full
open Lean AgentWarrant

def IdsBelow (ps : List Permit) : Prop := ∀ q, q ∈ ps → q.id < List.length ps

/-- Permit `k` exists and every permit with that ID is consumed. -/
def Spent (k : Nat) (ps : List Permit) : Prop := k < List.length ps ∧ ∀ q, q ∈ ps → q.id = k → q.consumed = true

theorem lengthAppOnePermit : ∀ (l : List Permit) (x : Permit), List.length (l ++ [x]) = List.length l + 1
  | [], _ => rfl
  | a :: l, x => by rw [List.cons_append, List.length_cons, List.length_cons, lengthAppOnePermit l x]

theorem memAppOne {x q : Permit} : ∀ {l : List Permit}, q ∈ l ++ [x] → q ∈ l ∨ q = x
  | [], h => by cases h with | head _ => exact Or.inr rfl | tail _ t => exact nomatch t
  | a :: l, h => by
    rw [List.cons_append] at h
    cases h with
    | head _ => exact Or.inl (Mem.head _)
    | tail _ t => cases memAppOne t with
      | inl m => exact Or.inl (Mem.tail _ m)
      | inr e => exact Or.inr e

/-- A step changes the permits only by consuming some: IDs and the number of permits stay, and a
consumed permit stays consumed. -/
theorem stepPermits (p : Policy) (s : State) (c : Call) (o : Outcome) :
    List.length (stepFull p s c o).2.permits = List.length s.permits ∧
    ∀ q', q' ∈ (stepFull p s c o).2.permits → ∃ q, q ∈ s.permits ∧ q.id = q'.id ∧ (q.consumed = true → q'.consumed = true) := by
  cases hd : decideFull p s c with
  | allow l pu pa k =>
    rw [stepFullAllow p s c o l pu pa k hd]
    have ⟨_, _, _, ep, _, _, _⟩ := commitFields p s c l pu pa k
    have ⟨_, _, _, _, _, eq, _⟩ := observeFields p (commit p s c l pu pa k) (List.length s.trace) o
    rw [eq, ep]
    refine ⟨lengthMap _ _, fun q' hq' => ?_⟩
    have ⟨q, hq, e⟩ := memMapInv _ hq'
    rw [← e]
    cases hc : (some q.id == k) with
    | true => exact ⟨q, hq, by simp [hc], fun _ => by simp [hc]⟩
    | false => exact ⟨q, hq, by simp [hc], fun h => by simp [hc]; exact h⟩
  | pause w =>
    rw [stepFullOnlyAllowChanges p s c o (fun l pu pa k e => by rw [hd] at e; cases e)]
    exact ⟨rfl, fun q hq => ⟨q, hq, rfl, fun h => h⟩⟩
  | deny r =>
    rw [stepFullOnlyAllowChanges p s c o (fun l pu pa k e => by rw [hd] at e; cases e)]
    exact ⟨rfl, fun q hq => ⟨q, hq, rfl, fun h => h⟩⟩

theorem stepIdsBelow (p : Policy) (s : State) (c : Call) (o : Outcome) (h : IdsBelow s.permits) :
    IdsBelow (stepFull p s c o).2.permits := by
  have ⟨hl, hm⟩ := stepPermits p s c o
  intro q' hq'
  have ⟨q, hq, e, _⟩ := hm q' hq'
  rw [hl, ← e]
  exact h q hq

theorem issueIdsBelow (s : State) (t : String) (i : List (String × Ident)) (h : IdsBelow s.permits) :
    IdsBelow (issuePermit s t i).permits := by
  intro q hq
  show q.id < List.length (s.permits ++ [⟨List.length s.permits, t, i, false⟩])
  rw [lengthAppOnePermit]
  cases memAppOne hq with
  | inl m => exact Nat.leStep (h q m)
  | inr e => rw [e]; exact Nat.leRefl _

theorem runEventsIdsBelow (p : Policy) : ∀ (es : List Event) (s : State), IdsBelow s.permits →
    IdsBelow (runEvents p s es).permits
  | [], s, h => h
  | Event.call c o :: es, s, h => runEventsIdsBelow p es _ (stepIdsBelow p s c o h)
  | Event.issue t i :: es, s, h => runEventsIdsBelow p es _ (issueIdsBelow s t i h)

theorem stepSpent (p : Policy) (s : State) (c : Call) (o : Outcome) (k : Nat) (h : Spent k s.permits) :
    Spent k (stepFull p s c o).2.permits := by
  have ⟨hl, hm⟩ := stepPermits p s c o
  refine ⟨by rw [hl]; exact h.1, fun q' hq' e' => ?_⟩
  have ⟨q, hq, e, hc⟩ := hm q' hq'
  exact hc (h.2 q hq (e.trans e'))

theorem issueSpent (s : State) (t : String) (i : List (String × Ident)) (k : Nat) (h : Spent k s.permits) :
    Spent k (issuePermit s t i).permits := by
  refine ⟨?_, fun q hq e => ?_⟩
  · show k < List.length (s.permits ++ [⟨List.length s.permits, t, i, false⟩])
    rw [lengthAppOnePermit]
    exact Nat.leStep h.1
  · cases memAppOne hq with
    | inl m => exact h.2 q m e
    | inr eq =>
      -- the new permit's ID is the old number of permits, above `k`
      have e2 : List.length s.permits = k := by rw [eq] at e; exact e
      rw [← e2] at h
      exact absurd h.1 (Nat.ltIrrefl _)

theorem runEventsSpent (p : Policy) (k : Nat) : ∀ (es : List Event) (s : State), Spent k s.permits →
    Spent k (runEvents p s es).permits
  | [], s, h => h
  | Event.call c o :: es, s, h => runEventsSpent p k es _ (stepSpent p s c o k h)
  | Event.issue t i :: es, s, h => runEventsSpent p k es _ (issueSpent s t i k h)

/-- No Allow uses a spent permit. -/
theorem spentNotUsed (p : Policy) (s : State) (c : Call) (k : Nat) (h : Spent k s.permits)
    (l : Label) (pu pa : List Nat) : decideFull p s c ≠ Verdict.allow l pu pa (some k) := by
  intro hd
  have ⟨⟨q, hq, e, _, _, hc⟩, _⟩ := allowConsumesPermit p s c ⟨false, Json.null⟩ l pu pa k hd
  rw [h.2 q hq e] at hc
  cases hc

/-- Permits are single use over whole tasks: in any state reached from a task's start by calls and
issuances, once an Allow consumes permit `k`, no Allow after any further calls and issuances consumes
`k` again. -/
theorem permitSingleUse (p : Policy) (pre : List Event) (c : Call) (o : Outcome) (l : Label) (pu pa : List Nat) (k : Nat)
    (h : decideFull p (runEvents p (initialState p) pre) c = Verdict.allow l pu pa (some k))
    (post : List Event) (c' : Call) (l' : Label) (pu' pa' : List Nat) :
    decideFull p (runEvents p (stepFull p (runEvents p (initialState p) pre) c o).2 post) c' ≠ Verdict.allow l' pu' pa' (some k) := by
  let s := runEvents p (initialState p) pre
  have hb : IdsBelow s.permits := runEventsIdsBelow p pre (initialState p) (fun q hq => nomatch hq)
  have ⟨⟨q, hq, e, _⟩, hspent⟩ := allowConsumesPermit p s c o l pu pa k h
  have hk : k < List.length (stepFull p s c o).2.permits := by
    rw [(stepPermits p s c o).1, ← e]
    exact hb q hq
  exact spentNotUsed p _ c' k (runEventsSpent p k post _ ⟨hk, hspent⟩) l' pu' pa'

end AgentWarrant.Monitor.Full
