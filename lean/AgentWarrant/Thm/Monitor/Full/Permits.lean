import AgentWarrant.Thm.Monitor.Full.Bindings
/-! Exact-call permits (Agenra Section 9, Table 1), as the whole monitor computes them: the permit an
Allow consumes is an unconsumed permit for the call's tool whose identity matches the call's exactly
(`identsEq`: handles by record ID, values by JSON equality), and after the step every permit with
that ID is consumed (`allowConsumesPermit`); a consumed permit stays consumed (`consumedStays`). -/
namespace AgentWarrant.Monitor.Full
open Lean AgentWarrant

theorem findSome {α : Type} {p : α → Bool} : ∀ {l : List α} {x : α}, List.find? p l = some x → x ∈ l ∧ p x = true
  | [], _, h => by cases h
  | a :: l, x, h => by
    cases hp : p a with
    | true =>
      have e : List.find? p (a :: l) = some a := by simp [List.find?, hp]
      rw [e] at h
      have e2 : a = x := Option.some.inj h
      rw [← e2]
      exact ⟨Mem.head _, hp⟩
    | false =>
      have e : List.find? p (a :: l) = List.find? p l := by simp [List.find?, hp]
      rw [e] at h
      have ⟨m, q⟩ := findSome h
      exact ⟨Mem.tail _ m, q⟩

/-- The permit `findPermit` names is an unconsumed permit for the call's tool and exact identity. -/
theorem findPermitSound (s : State) (c : Call) (k : Nat) (h : findPermit s c = Except.ok k) :
    ∃ q, q ∈ s.permits ∧ q.id = k ∧ (q.tool == c.tool) = true ∧ identsEq q.ident c.identity = true ∧ q.consumed = false := by
  cases hf : List.find? (fun q => !q.consumed)
      (List.filter (fun q => identsEq q.ident c.identity) (List.filter (fun q => q.tool == c.tool) s.permits)) with
  | none =>
    have h' := h
    simp only [findPermit, hf] at h'
    cases e1 : List.isEmpty (List.filter (fun q => identsEq q.ident c.identity) (List.filter (fun q => q.tool == c.tool) s.permits)) <;>
    cases e2 : List.any (List.filter (fun q => q.tool == c.tool) s.permits) (fun q => !q.consumed) <;>
    simp [e1, e2] at h' <;> cases h'
  | some q =>
    have h' := h
    simp only [findPermit, hf] at h'
    have e : q.id = k := by cases h'; rfl
    have ⟨m1, hc⟩ := findSome hf
    have ⟨m2, hi⟩ := memFilterStdElim m1
    have ⟨m3, ht⟩ := memFilterStdElim m2
    have hc' : q.consumed = false := by
      cases e3 : q.consumed with
      | false => rfl
      | true => rw [e3] at hc; cases hc
    exact ⟨q, m3, e, ht, hi, hc'⟩

/-- An Allow that names a permit found it through `findPermit`. -/
theorem decideFullPermit (p : Policy) (s : State) (c : Call) (l : Label) (pu pa : List Nat) (k : Nat)
    (h : decideFull p s c = Verdict.allow l pu pa (some k)) :
    findPermit s c = Except.ok k ∨ findApproval s c = some k := by
  cases hp : prepare p s c with
  | error why => simp [decideFull, hp] at h
  | ok te =>
    cases te with
    | mk t es =>
      cases hd : Monitor.decide (coreInput p s c t es) with
      | allow l' pu' pa' =>
        cases hx : extCheck p s c t es l' with
        | deny => simp [decideFull, hp, hd, hx] at h
        | pause =>
          cases ha : findApproval s c with
          | some q => simp [decideFull, hp, hd, hx, ha] at h; simp [h]
          | none => simp [decideFull, hp, hd, hx, ha] at h
        | allow =>
        cases hn : chosenNeedPermit p.user pu' || chosenNeedPermit p.app pa' with
        | true =>
          cases hf : findPermit s c with
          | ok q => simp [decideFull, hp, hd, hx, hn, hf] at h; simp [h]
          | error w => simp [decideFull, hp, hd, hx, hn, hf] at h
        | false => simp [decideFull, hp, hd, hx, hn] at h
      | pause w => simp [decideFull, hp, hd] at h
      | deny r => cases r <;> simp [decideFull, hp, hd] at h

theorem andTrue3 : ∀ {a b c : Bool}, (a && b && !c) = true → a = true ∧ b = true ∧ c = false
  | true, true, false, _ => ⟨rfl, rfl, rfl⟩
  | true, true, true, h => by cases h
  | true, false, _, h => by cases h
  | false, _, _, h => by cases h

/-- The permit `findApproval` names is an unconsumed permit for the call's tool binding its review
identity (every argument's value and every result it was read from). -/
theorem findApprovalSound (s : State) (c : Call) (k : Nat) (h : findApproval s c = some k) :
    ∃ q, q ∈ s.permits ∧ q.id = k ∧ (q.tool == c.tool) = true ∧ identsEq q.ident c.reviewIdentity = true ∧
      q.consumed = false := by
  cases hf : s.permits.find? (fun q => q.tool == c.tool && identsEq q.ident c.reviewIdentity && !q.consumed) with
  | none => simp [findApproval, hf] at h
  | some q =>
    have e : q.id = k := by simp [findApproval, hf] at h; exact h
    have ⟨m, hq⟩ := findSome hf
    have ⟨a, b, d⟩ := andTrue3 hq
    exact ⟨q, m, e, a, b, d⟩

/-- An Allow that consumes permit `k` used an unconsumed permit for the call's tool and exact identity
(or, for a call a flow rule paused, its review identity: the reviewer's approval), and after the step
every permit with ID `k` is consumed. -/
theorem allowConsumesPermit (p : Policy) (s : State) (c : Call) (o : Outcome) (l : Label) (pu pa : List Nat) (k : Nat)
    (h : decideFull p s c = Verdict.allow l pu pa (some k)) :
    (∃ q, q ∈ s.permits ∧ q.id = k ∧ (q.tool == c.tool) = true ∧
      (identsEq q.ident c.identity = true ∨ identsEq q.ident c.reviewIdentity = true) ∧ q.consumed = false) ∧
    (∀ q', q' ∈ (stepFull p s c o).2.permits → q'.id = k → q'.consumed = true) := by
  refine ⟨?_, ?_⟩
  · cases decideFullPermit p s c l pu pa k h with
    | inl e =>
      have ⟨q, m, i, t, x, d⟩ := findPermitSound s c k e
      exact ⟨q, m, i, t, Or.inl x, d⟩
    | inr e =>
      have ⟨q, m, i, t, x, d⟩ := findApprovalSound s c k e
      exact ⟨q, m, i, t, Or.inr x, d⟩
  rw [stepFullAllow p s c o l pu pa (some k) h]
  have ⟨_, _, _, ep, _, _, _⟩ := commitFields p s c l pu pa (some k)
  have ⟨_, _, _, _, _, eq, _⟩ := observeFields p (commit p s c l pu pa (some k)) (List.length s.trace) o
  intro q' hq' hid
  rw [eq, ep] at hq'
  have ⟨q, _, e⟩ := memMapInv _ hq'
  rw [← e] at hid ⊢
  cases hc : (some q.id == some k) with
  | true => simp [hc]
  | false =>
    have hid' : q.id = k := by simp [hc] at hid; exact hid
    rw [hid'] at hc
    have t : (some k == some k) = true := decideEqTrue rfl
    rw [t] at hc
    cases hc

/-- A consumed permit stays consumed over a step. -/
theorem consumedStays (p : Policy) (s : State) (c : Call) (o : Outcome) :
    ∀ q, q ∈ s.permits → q.consumed = true → ∃ q', q' ∈ (stepFull p s c o).2.permits ∧ q'.id = q.id ∧ q'.consumed = true := by
  intro q hq hc
  cases hd : decideFull p s c with
  | pause w =>
    rw [stepFullOnlyAllowChanges p s c o (fun l pu pa k e => by rw [hd] at e; cases e)]; exact ⟨q, hq, rfl, hc⟩
  | deny r =>
    rw [stepFullOnlyAllowChanges p s c o (fun l pu pa k e => by rw [hd] at e; cases e)]; exact ⟨q, hq, rfl, hc⟩
  | allow l pu pa k =>
    rw [stepFullAllow p s c o l pu pa k hd]
    have ⟨_, _, _, ep, _, _, _⟩ := commitFields p s c l pu pa k
    have ⟨_, _, _, _, _, eq, _⟩ := observeFields p (commit p s c l pu pa k) (List.length s.trace) o
    rw [eq, ep]
    refine ⟨_, memMapOf _ hq, ?_, ?_⟩
    · cases (some q.id == k) <;> rfl
    · cases hk : (some q.id == k) <;> simp [hk, hc]

end AgentWarrant.Monitor.Full
