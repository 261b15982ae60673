import AgentWarrant.Thm.Monitor.Json
import AgentWarrant.Spec.Monitor.Full
/-! The meaning of an origin rule (Agenra Sections 4.4 and 7.2), stated inductively and independently
of the executable walk, and its equivalence with the check the monitor runs (`producedBy`, which
`originOk` calls with the trace length plus one as fuel).
`Produced tr o d`: record `d` of the trace is a successful result of the rule's producer, or a
successful result of one of the rule's `preserving` operations whose single parent was so produced.
The equivalence needs the trace's parents to precede their children (`ParentsPrecede`), a clause of
the paper's well-formed state (Section 6.1): without it a cycle of preserving records could make the
walk run out of fuel. `Thm/Monitor/Full/Parents.lean` proves the whole model keeps that clause, so the
walk decides the meaning on every reachable state. -/
namespace AgentWarrant.Monitor.Full
open Lean AgentWarrant

inductive Produced (tr : List Record) (o : Origin) : Nat → Prop
  | direct (d : Nat) (r : Record) : nth? tr d = some r → r.ok = true → named r o.producer = true → Produced tr o d
  | through (d q : Nat) (r : Record) : nth? tr d = some r → r.ok = true → r.parents = [q] →
      o.preserving.any (named r) = true → Produced tr o q → Produced tr o d

/-- Parents precede their children (Section 6.1). -/
def ParentsPrecede (tr : List Record) : Prop := ∀ d r q, nth? tr d = some r → q ∈ r.parents → q < d

theorem nthSomeLt {α : Type} {x : α} : ∀ {l : List α} {d : Nat}, nth? l d = some x → d < List.length l
  | [], _, h => by cases h
  | a :: l, 0, _ => by rw [List.length_cons]; exact Nat.succLeSucc (Nat.zeroLe _)
  | a :: l, d + 1, h => by rw [List.length_cons]; exact Nat.succLeSucc (nthSomeLt (l := l) h)

theorem producedBySound (tr : List Record) (o : Origin) : ∀ (fuel d : Nat), producedBy tr o fuel d = true → Produced tr o d
  | 0, d, h => by cases h
  | fuel + 1, d, h => by
    cases hn : nth? tr d with
    | none => simp [producedBy, hn] at h
    | some r =>
      cases hok : r.ok with
      | false => simp [producedBy, hn, hok] at h
      | true =>
        cases hnm : named r o.producer with
        | true => exact Produced.direct d r hn hok hnm
        | false =>
          cases hp : r.parents with
          | nil => simp [producedBy, hn, hok, hnm, hp] at h
          | cons q qs =>
            cases qs with
            | cons q' qs' => simp [producedBy, hn, hok, hnm, hp] at h
            | nil =>
              have h' : (o.preserving.any (named r) && producedBy tr o fuel q) = true := by
                simp [producedBy, hn, hok, hnm, hp] at h
                exact h
              have ⟨hpres, hq⟩ := andT h'
              exact Produced.through d q r hn hok hp hpres (producedBySound tr o fuel q hq)

theorem producedByComplete (tr : List Record) (o : Origin) (hpp : ParentsPrecede tr) {d : Nat} (h : Produced tr o d) :
    ∀ fuel, d < fuel → producedBy tr o fuel d = true := by
  induction h with
  | direct d r hn hok hnm =>
    intro fuel hf
    cases fuel with
    | zero => exact absurd hf (Nat.notSuccLeZero _)
    | succ f => simp [producedBy, hn, hok, hnm]
  | through d q r hn hok hp hpres _ ih =>
    intro fuel hf
    cases fuel with
    | zero => exact absurd hf (Nat.notSuccLeZero _)
    | succ f =>
      have hqd : q < d := hpp d r q hn (by rw [hp]; exact Mem.head _)
      have hqf : q < f := Nat.leTrans hqd (Nat.leOfSuccLeSucc hf)
      have hq := ih f hqf
      cases hnm : named r o.producer with
      | true => simp [producedBy, hn, hok, hnm]
      | false => simp [producedBy, hn, hok, hnm, hp, hpres, hq]

/-- The monitor's origin walk decides the inductive meaning, on every trace whose parents precede
their children. -/
theorem producedByIff (tr : List Record) (o : Origin) (hpp : ParentsPrecede tr) (d : Nat) :
    producedBy tr o (List.length tr + 1) d = true ↔ Produced tr o d := by
  refine ⟨producedBySound tr o _ d, fun h => producedByComplete tr o hpp h _ ?_⟩
  cases h with
  | direct _ r hn _ _ => exact Nat.leStep (nthSomeLt hn)
  | through _ _ r hn _ _ _ _ => exact Nat.leStep (nthSomeLt hn)

end AgentWarrant.Monitor.Full
