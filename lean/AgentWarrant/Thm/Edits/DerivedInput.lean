import AgentWarrant.Spec.Edits.DerivedInput
import AgentWarrant.Thm.Edits.Input
import AgentWarrant.Thm.Edits.Derive
/-! The computed answer equals the declarative one for the instance of a valid derivation, with no
hypothesis (*When Can Agents Safely Checkpoint, Fork, Restore, and Merge?*, Lemma 2 and Lemma 4,
Appendix A-A): the checker's input built from a validly derived record of the binary term model
(`inputOf`) presents the record's instance (`presentsDerived`), whose `CoverWitnesses` Lemma 2 supplies
(`validDerivesCoverWitnesses`), so the checker accepts iff a safe execution set exists and its set is
the largest one (`derivedInputExact`). -/
namespace AgentWarrant.Edits
open AgentWarrant

theorem addOneComm (k : Nat) : ∀ i : Nat, (k + 1) + i = k + (i + 1)
  | 0 => rfl
  | i + 1 => by
    show Nat.succ ((k + 1) + i) = Nat.succ (k + (i + 1))
    rw [addOneComm k i]

theorem numberFromMem : ∀ {l : List TOut} {k : Nat} {o : POutcome}, o ∈ numberFrom k l →
    ∃ i x, o.id = k + i ∧ pick l i = some x ∧ o.pom = x.pom
  | [], _, _, h => absurd h notMemNil
  | x :: l, k, o, h => by
    cases h with
    | head _ => exact ⟨0, x, rfl, rfl, rfl⟩
    | tail _ h' =>
      have ⟨i, y, e1, e2, e3⟩ := numberFromMem h'
      exact ⟨i + 1, y, by rw [e1, addOneComm], e2, e3⟩

theorem numberFromOf : ∀ {l : List TOut} {k i : Nat} {x : TOut}, pick l i = some x →
    ∃ o, o ∈ numberFrom k l ∧ o.id = k + i ∧ o.pom = x.pom
  | [], _, _, _, h => Option.noConfusion h
  | y :: l, k, 0, x, h => by
    have e : y = x := Option.some.inj h
    rw [← e]
    exact ⟨⟨k, y.pom⟩, Mem.head _, rfl, rfl⟩
  | y :: l, k, i + 1, x, h => by
    have ⟨o, ho, e1, e2⟩ := numberFromOf (l := l) (k := k + 1) (i := i) h
    exact ⟨o, Mem.tail _ ho, by rw [e1, addOneComm], e2⟩

/-- The input built from a derived record presents the record's instance (automaton language as policy). -/
theorem presentsDerived (D : Derived) (act lab log : List Nat) (δ : Dfa) :
    Presents (D.theta act lab log (fun u => dfaAccepts δ u = true)) (inputOf D act lab log δ) := by
  refine ⟨rfl, rfl, rfl, fun n => ⟨fun hn => ?_, fun hn => ?_⟩, fun o ho => ?_, fun _ => Iff.rfl⟩
  · have ⟨x, hx⟩ := hn
    have ⟨o, ho, e1, _⟩ := numberFromOf (k := 0) hx
    exact ⟨o, ho, by rw [e1, Nat.zero_add]⟩
  · have ⟨o, ho, e⟩ := hn
    have ⟨i, x, e1, e2, _⟩ := numberFromMem ho
    rw [Nat.zero_add] at e1
    rw [← e, e1]
    exact ⟨x, e2⟩
  · have ⟨i, x, e1, e2, e3⟩ := numberFromMem ho
    rw [Nat.zero_add] at e1
    rw [e1, e3]
    simp only [Derived.theta, e2]
    rfl

/-- For the input of a valid derivation (any actions, labels, log and policy automaton) the checker's
answer is the declarative one with no hypothesis: it accepts iff a safe execution set exists, and then
its set with `W†` is the maximal safe pair. -/
theorem derivedInputExact {D : Derived} (hD : ValidDerives D) (act lab log : List Nat) (δ : Dfa) :
    (accepts (build (inputOf D act lab log δ)) = true ↔
      ∃ L B, (D.theta act lab log (fun u => dfaAccepts δ u = true)).Safe L B) ∧
    (accepts (build (inputOf D act lab log δ)) = true →
      (D.theta act lab log (fun u => dfaAccepts δ u = true)).MaxSafe
        (D.theta act lab log (fun u => dfaAccepts δ u = true)).Wdag
        (fun c => c ∈ safeSet (build (inputOf D act lab log δ)))) :=
  checkerExactFromInput (presentsDerived D act lab log δ) (validDerivesCoverWitnesses hD act lab log _)

end AgentWarrant.Edits

namespace AgentWarrant.Thm
open AgentWarrant.Edits

/-- The computed answer equals the declarative one, `CoverWitnesses` discharged, for every checker input
that is the instance of a valid derivation of the binary term model. -/
theorem checkerAnswerForDerivedInput {D : Derived} (hD : ValidDerives D) (act lab log : List Nat) (δ : Dfa) :
    (accepts (build (inputOf D act lab log δ)) = true ↔
      ∃ L B, (D.theta act lab log (fun u => dfaAccepts δ u = true)).Safe L B) ∧
    (accepts (build (inputOf D act lab log δ)) = true →
      (D.theta act lab log (fun u => dfaAccepts δ u = true)).MaxSafe
        (D.theta act lab log (fun u => dfaAccepts δ u = true)).Wdag
        (fun c => c ∈ safeSet (build (inputOf D act lab log δ)))) :=
  derivedInputExact hD act lab log δ

end AgentWarrant.Thm
