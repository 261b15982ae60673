import AgentWarrant.Spec.Revision.ArgCoverNeq
import AgentWarrant.Thm.Revision.ArgCoverFacts
/-! A binding class asserting slots' values differ (`Spec/Revision/ArgCoverNeq.lean`): every binding state
of the class and effect yields a valuation of the written clauses whose match bits (presence bit, the
resource a valid slot value) are the state's (`neqSound`). So a match vector no valuation of the written
question has is one no binding state of the class has, and `arg_cover`'s `covered` on the written question
is the class's coverage. Not proved: the converse (an `uncovered` witness may stand for no binding state,
and the caller then asks Z3), and that the Python translation writes exactly these clauses (compared with
Z3's encoding, tests/drt/test_arg_cover_facts.py). -/
namespace AgentWarrant.Revision.ArgCover
open AgentWarrant

theorem neqSound (F : Nat → List (Lit × Bool)) (grp : Nat → Nat) (D : Nat → Nat → Prop) (S : Nat → Prop)
    (m : Nat → Bool) (r : AV) (h : neqMeant F grp D S m r) :
    ∃ (P : Nat → Bool) (v : Nat → AV), neqWritten F grp D S P r v ∧
      ∀ i, S i → (m i = true ↔ (P i && slotOk r) = true) := by
  have ⟨w, b, hw, hd, hm⟩ := h
  refine ⟨m, w, ⟨hw, fun i hi hp _ => ?_, fun i j hi hj hij hpi hpj => ?_, fun g hg => hd g g hg rfl⟩,
    fun i hi => ⟨fun hp => factsAndOfTrue hp ((hm i hi).1 hp).2.1, fun hp => (factsAndTrue hp).1⟩⟩
  · have ⟨_, _, e⟩ := (hm i hi).1 hp
    rw [e]
    exact (hw (grp i)).2
  · have ⟨_, _, ei⟩ := (hm i hi).1 hpi
    have ⟨_, _, ej⟩ := (hm j hj).1 hpj
    exact absurd (ei.symm.trans ej) (hd _ _ hij)

end AgentWarrant.Revision.ArgCover
