import AgentWarrant.Spec.Revision.ArgCoverFacts
/-! The elimination of a binding class's slot values is exact (`Spec/Revision/ArgCoverFacts.lean`): the
written clauses hold for some value variable exactly when the class's meaning holds with each slot's match
bit its presence bit read with the resource a valid slot value (`factsElim`). So a valuation of the written
question and an effect with a binding state of the class have the same match vectors, and `argCover`'s
`covered` on the written question is the class's coverage. Not proved here: that the Python translation
writes exactly these clauses (the differential test compares it with Z3's encoding, tests/drt/
test_arg_cover_facts.py), and facts relating two slots (only classes asserting slots equal are written, each
group of equal slots one value variable; groups share no fact, so the groups' eliminations are independent). -/
namespace AgentWarrant.Revision.ArgCover
open AgentWarrant

theorem factsAndTrue : ∀ {a b : Bool}, (a && b) = true → a = true ∧ b = true
  | true, true, _ => ⟨rfl, rfl⟩
  | true, false, h => Bool.noConfusion h
  | false, _, h => Bool.noConfusion h

theorem factsAndOfTrue {a b : Bool} (ha : a = true) (hb : b = true) : (a && b) = true := by
  rw [ha, hb]; rfl

/-- Written clauses for some value variable ⇔ the class's meaning, each slot's match bit being its presence
bit with the resource a valid slot value. -/
theorem factsElim (F : List (Lit × Bool)) (S : Nat → Prop) (P : Nat → Bool) (r : AV) :
    (∃ v, factsWritten F S P r v) ↔ factsMeant F S (fun i => P i && slotOk r) r := by
  constructor
  · intro ⟨v, hv, hfv, hw⟩
    cases hs : slotOk r with
    | false =>
      refine ⟨v, fun _ => false, hv, hfv, fun i _ => ⟨fun h => ?_, fun h => ?_⟩⟩
      · exact Bool.noConfusion (factsAndTrue h).2
      · exact Bool.noConfusion h.1
    | true =>
      cases hf : factsOk F r with
      | true =>
        refine ⟨r, P, hs, hf, fun i _ => ⟨fun h => ⟨(factsAndTrue h).1, hs, rfl⟩, fun h => factsAndOfTrue h.1 rfl⟩⟩
      | false =>
        refine ⟨v, fun _ => false, hv, hfv, fun i hi => ⟨fun h => ?_, fun h => ?_⟩⟩
        · have := hw i hi (factsAndTrue h).1 hs
          rw [hf] at this
          exact Bool.noConfusion this
        · exact Bool.noConfusion h.1
  · intro ⟨w, b, hw, hfw, hm⟩
    refine ⟨w, hw, hfw, fun i hi hp hs => ?_⟩
    have ⟨_, _, e⟩ := (hm i hi).1 (factsAndOfTrue hp hs)
    rw [e]
    exact hfw

end AgentWarrant.Revision.ArgCover
