import AgentWarrant.Thm.Monitor.Full.Quota
/-! Only an Allow changes the authorization state, for the whole monitor (Agenra Sections 6.2, 5.1).

The whole transition is two steps. The decision step `D(S, c)` changes nothing on Pause or Deny;
on Allow it commits (`commit`): it appends the admitted record, adds both charge vectors to the
counters and consumes the chosen permit, and leaves the bindings, the invalid slots and the
satisfied requirements alone. The result step (`observe`) then processes the admitted call's
declared outcome; it touches only the admitted record's success flag (`markOk`: every record keeps
every other field, and the trace keeps its length), the bindings and the invalid slots, and the
invalid slots only grow (an invalidated slot stays invalid for the rest of the task). It leaves the
counters, the permits and the satisfied requirements alone; a failed outcome changes nothing.
Over whole traces: replaying only the admitted calls (with their outcomes) reaches the same state
and admits each of them. -/
namespace AgentWarrant.Monitor.Full
open Lean AgentWarrant.Monitor AgentWarrant.Monitor.Run

/-- What the Allow commit changes, field by field. -/
theorem commitFields (p : Policy) (s : State) (c : Call) (l : Label) (pu pa : List Nat) (k : Option Nat) :
    (∃ r : Record, (commit p s c l pu pa k).trace = s.trace ++ [r] ∧ r.label = l ∧ r.parents = c.parents ∧ r.ok = false) ∧
    (commit p s c l pu pa k).usedUser = addVec s.usedUser (chargeVec 0 (List.length s.usedUser) pu) ∧
    (commit p s c l pu pa k).usedApp = addVec s.usedApp (chargeVec 0 (List.length s.usedApp) pa) ∧
    (commit p s c l pu pa k).permits = s.permits.map (fun q => if some q.id == k then { q with consumed := true } else q) ∧
    (commit p s c l pu pa k).bindings = s.bindings ∧ (commit p s c l pu pa k).invalid = s.invalid ∧
    (commit p s c l pu pa k).satisfied = s.satisfied := by
  refine ⟨?_, rfl, rfl, rfl, rfl, rfl, rfl⟩
  cases ht : p.tools.find? (fun t => t.name == c.tool) with
  | some t =>
    exact ⟨⟨c.agent, t.name, t.operation, t.source, t.destination, c.parents, c.args, l, false⟩,
      by simp [commit, ht], rfl, rfl, rfl⟩
  | none =>
    exact ⟨⟨c.agent, c.tool, "", "", "", c.parents, c.args, l, false⟩, by simp [commit, ht], rfl, rfl, rfl⟩

/-- A record with its success flag cleared: everything result processing may not change. -/
def forgetOk (r : Record) : Record := { r with ok := false }

theorem markOkKeeps (d : Nat) : ∀ (i : Nat) (rs : List Record), List.map forgetOk (markOk d i rs) = List.map forgetOk rs
  | _, [] => rfl
  | i, r :: rs => by
    cases h : i == d with
    | true =>
      have e : markOk d i (r :: rs) = { r with ok := true } :: markOk d (i + 1) rs := by simp [markOk, h]
      rw [e]
      simp only [List.map]
      rw [markOkKeeps d (i + 1) rs]
      rfl
    | false => simp [markOk, h, List.map, markOkKeeps d (i + 1) rs]

theorem bindOneGrows (v : Json) (d : Nat) (r : Resolver) (x : String) :
    ∀ (acc : List (String × Json × Nat) × List String), x ∈ acc.2 → x ∈ (bindOne v d acc r).2
  | (bs, inv), hx => by
    cases hm : memS r.slot inv with
    | true => simp [bindOne, hm]; exact hx
    | false =>
      cases hp : lookupPath v r.path with
      | none => simp [bindOne, hm, hp]; exact Mem.tail _ hx
      | some w =>
        cases hw : wellFormedAddress w with
        | false => simp [bindOne, hm, hp, hw]; exact Mem.tail _ hx
        | true =>
          cases hb : bs.find? (fun b => b.1 == r.slot) with
          | none => simp [bindOne, hm, hp, hw, hb]; exact hx
          | some b =>
            cases hj : jeq b.2.1 w with
            | true => simp [bindOne, hm, hp, hw, hb, hj]; exact hx
            | false => simp [bindOne, hm, hp, hw, hb, hj]; exact Mem.tail _ hx

theorem foldBindGrows (v : Json) (d : Nat) (x : String) : ∀ (rs : List Resolver)
    (acc : List (String × Json × Nat) × List String), x ∈ acc.2 → x ∈ (List.foldl (bindOne v d) acc rs).2
  | [], acc, hx => hx
  | r :: rs, acc, hx => foldBindGrows v d x rs (bindOne v d acc r) (bindOneGrows v d r x acc hx)

/-- What result processing changes: only success flags, bindings and (growing) invalid slots. -/
theorem observeFields (p : Policy) (s : State) (d : Nat) (o : Outcome) :
    List.map forgetOk (observe p s d o).trace = List.map forgetOk s.trace ∧
    (∀ x, x ∈ s.invalid → x ∈ (observe p s d o).invalid) ∧
    (observe p s d o).usedUser = s.usedUser ∧ (observe p s d o).usedApp = s.usedApp ∧
    (observe p s d o).satisfied = s.satisfied ∧ (observe p s d o).permits = s.permits ∧
    (o.ok = false → observe p s d o = s) := by
  have ⟨k1, k2, k3, k4⟩ := observeKeeps p s d o
  refine ⟨?_, ?_, k1, k2, k3, k4, ?_⟩
  · cases o with
    | mk ok v =>
      cases ok with
      | false => simp [observe]
      | true =>
        cases hr : s.record? d with
        | none => simp [observe, hr]
        | some r =>
          simp only [observe, hr]
          cases List.foldl (bindOne v d) (s.bindings, s.invalid)
            (List.filter (fun x => x.tool == r.tool && jeq x.args (argsJson r.args)) p.resolvers) with
          | mk bs inv => exact markOkKeeps d 0 s.trace
  · intro x hx
    cases o with
    | mk ok v =>
      cases ok with
      | false => simp [observe]; exact hx
      | true =>
        cases hr : s.record? d with
        | none => simp [observe, hr]; exact hx
        | some r =>
          simp only [observe, hr]
          have g := foldBindGrows v d x
            (List.filter (fun x => x.tool == r.tool && jeq x.args (argsJson r.args)) p.resolvers) (s.bindings, s.invalid) hx
          cases hf : List.foldl (bindOne v d) (s.bindings, s.invalid)
            (List.filter (fun x => x.tool == r.tool && jeq x.args (argsJson r.args)) p.resolvers) with
          | mk bs inv => rw [hf] at g; exact g
  · intro hf
    cases o with
    | mk ok v => simp at hf; rw [hf]; simp [observe]

/-- The whole transition on an Allow: the commit, then result processing of the new record. -/
theorem stepFullAllow (p : Policy) (s : State) (c : Call) (o : Outcome) (l : Label) (pu pa : List Nat) (k : Option Nat)
    (h : decideFull p s c = Verdict.allow l pu pa k) :
    stepFull p s c o = (Verdict.allow l pu pa k, observe p (commit p s c l pu pa k) (List.length s.trace) o) := by
  simp [stepFull, h]

theorem isAllowVFalse (p : Policy) (s : State) (c : Call) (h : isAllowV (decideFull p s c) = false) :
    ∀ l pu pa k, decideFull p s c ≠ Verdict.allow l pu pa k := by
  intro l pu pa k e
  rw [e] at h
  simp [isAllowV] at h

/-- Over whole traces: replaying just the admitted calls reaches the same state, and admits each. -/
theorem runFullOnlyAllowChanges (p : Policy) : ∀ (cs : List (Call × Outcome)) (s : State),
    (runFull p s (admittedFull p s cs)).2 = (runFull p s cs).2 ∧
    allB isAllowV (runFull p s (admittedFull p s cs)).1 = true
  | [], s => ⟨rfl, rfl⟩
  | (c, o) :: cs, s => by
    have ih := runFullOnlyAllowChanges p cs (stepFull p s c o).2
    cases hd : isAllowV (stepFull p s c o).1 with
    | true =>
      simp [admittedFull, runFull, hd]
      refine ⟨ih.1, ?_⟩
      simp [allB, hd]; exact ih.2
    | false =>
      have hv : isAllowV (decideFull p s c) = false := by rw [← stepFullVerdict p s c o]; exact hd
      have same := stepFullOnlyAllowChanges p s c o (isAllowVFalse p s c hv)
      simp [admittedFull, runFull, hd]
      have ih' := ih
      rw [same] at ih'
      rw [same]
      exact ih'

end AgentWarrant.Monitor.Full
