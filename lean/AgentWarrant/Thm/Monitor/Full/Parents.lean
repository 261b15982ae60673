import AgentWarrant.Thm.Monitor.Full.Determinism
import AgentWarrant.Thm.Monitor.Full.Origin
/-! Agenra Section 6.1, "parents precede their children", on the whole monitor: every step keeps
every record's parents at earlier trace positions (`stepFullParentsPrecede`), over every trace
(`runFullParentsPrecede`), from the state a task starts in. An Allow appends the admitted record at
the trace length, and preparation has checked that each of its parents names an existing record;
result processing changes only success flags. With it, the origin walk decides the inductive origin
meaning on every reachable state (`originWalkDecidesReachable`). -/
namespace AgentWarrant.Monitor.Full
open Lean AgentWarrant

theorem nthMapOpt {α β : Type} (f : α → β) : ∀ (l : List α) (d : Nat), nth? (List.map f l) d = Option.map f (nth? l d)
  | [], _ => rfl
  | _ :: _, 0 => rfl
  | _ :: l, d + 1 => nthMapOpt f l d

theorem nthSnoc {α : Type} (x y : α) : ∀ (l : List α) (d : Nat), nth? (l ++ [x]) d = some y →
    (nth? l d = some y) ∨ (d = List.length l ∧ y = x)
  | [], 0, h => by
    rw [List.nil_append] at h
    have e : x = y := Option.some.inj h
    exact Or.inr ⟨rfl, e.symm⟩
  | [], d + 1, h => by
    rw [List.nil_append] at h
    cases h
  | a :: l, 0, h => by
    rw [List.cons_append] at h
    exact Or.inl h
  | a :: l, d + 1, h => by
    rw [List.cons_append] at h
    cases nthSnoc x y l d h with
    | inl h1 => exact Or.inl h1
    | inr h2 => exact Or.inr ⟨by rw [List.length_cons, h2.1], h2.2⟩

/-- Every step keeps parents before their children. -/
theorem stepFullParentsPrecede (p : Policy) (s : State) (c : Call) (o : Outcome) (h : ParentsPrecede s.trace) :
    ParentsPrecede (stepFull p s c o).2.trace := by
  cases hd : decideFull p s c with
  | pause w => rw [stepFullOnlyAllowChanges p s c o (fun l pu pa k e => by rw [hd] at e; cases e)]; exact h
  | deny r => rw [stepFullOnlyAllowChanges p s c o (fun l pu pa k e => by rw [hd] at e; cases e)]; exact h
  | allow l pu pa k =>
    rw [stepFullAllow p s c o l pu pa k hd]
    have ⟨t, es, hp, _⟩ := decideFullAllow p s c l pu pa k hd
    have ⟨⟨rec, et, _, ep, _⟩, _⟩ := commitFields p s c l pu pa k
    have ⟨ef, _⟩ := observeFields p (commit p s c l pu pa k) (List.length s.trace) o
    intro d r q hn hq
    have hm : nth? (List.map forgetOk (observe p (commit p s c l pu pa k) (List.length s.trace) o).trace) d
        = some (forgetOk r) := by rw [nthMapOpt, hn]; rfl
    rw [ef, et, nthMapOpt] at hm
    cases h0 : nth? (s.trace ++ [rec]) d with
    | none => rw [h0] at hm; cases hm
    | some r0 =>
      rw [h0] at hm
      have e0 : forgetOk r0 = forgetOk r := Option.some.inj hm
      have epar : r.parents = r0.parents := (congrArg Record.parents e0).symm
      rw [epar] at hq
      cases nthSnoc rec r0 s.trace d h0 with
      | inl h1 => exact h d r0 q h1 hq
      | inr h2 =>
        rw [h2.2, ep] at hq
        rw [h2.1]
        have ⟨ref, href, eq⟩ := parentsFromRefs c q hq
        have ⟨x, hx, _⟩ := refsRecorded p s c t es hp ref href
        rw [eq] at hx
        exact nthLt s.trace q x hx

theorem runFullParentsPrecede (p : Policy) : ∀ (cs : List (Call × Outcome)) (s : State), ParentsPrecede s.trace →
    ParentsPrecede (runFull p s cs).2.trace
  | [], s, h => h
  | (c, o) :: cs, s, h => runFullParentsPrecede p cs (stepFull p s c o).2 (stepFullParentsPrecede p s c o h)

theorem initialParentsPrecede (p : Policy) : ParentsPrecede (initialState p).trace :=
  fun d r q hn _ => by cases hn

/-- On every state the monitor reaches from the state a task starts in, the origin walk `originOk`
runs decides the inductive origin meaning. -/
theorem originWalkDecidesReachable (p : Policy) (cs : List (Call × Outcome)) (o : Origin) (d : Nat) :
    producedBy (runFull p (initialState p) cs).2.trace o (List.length (runFull p (initialState p) cs).2.trace + 1) d = true
      ↔ Produced (runFull p (initialState p) cs).2.trace o d :=
  producedByIff _ o (runFullParentsPrecede p cs _ (initialParentsPrecede p)) d

end AgentWarrant.Monitor.Full
