import AgentWarrant.Spec.Revision.ArgCoverNeq
import AgentWarrant.Thm.Revision.ArgCoverFacts
/-! A binding class asserting slots' values differ (`Spec/Revision/ArgCoverNeq.lean`): every binding state
of the class and effect yields a valuation of the written clauses whose match bits (presence bit, the
resource a valid slot value) are the state's (`neqSound`). So a match vector no valuation of the written
question has is one no binding state of the class has, and `arg_cover`'s `covered` on the written question
is the class's coverage. The converse (`neqExact2`), so `uncovered` too, for one pair of groups asserted
different whose facts each admit a value other than any two given (`hfree`, a hypothesis): the groups'
values are rebuilt from a written valuation, the resource for a group with a matching slot and otherwise
a value the hypothesis gives, different from the resource and from the other group's. Not proved: the
converse elsewhere (an `uncovered` witness may stand for no binding state, and the caller then asks Z3), and that the Python translation writes exactly these clauses (compared with
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

theorem anyBSome {p : α → Bool} : ∀ {l : List α}, anyB p l = true → ∃ x, x ∈ l ∧ p x = true
  | [], h => Bool.noConfusion h
  | a :: l, h => by
    cases hp : p a with
    | true => exact ⟨a, Mem.head _, hp⟩
    | false =>
      have h' : anyB p l = true := by
        have e : anyB p (a :: l) = anyB p l := by simp [anyB, hp]
        rw [← e]; exact h
      have ⟨x, hx, px⟩ := anyBSome h'
      exact ⟨x, Mem.tail _ hx, px⟩

theorem anyBOf {p : α → Bool} {x : α} : ∀ {l : List α}, x ∈ l → p x = true → anyB p l = true
  | [], h, _ => by cases h
  | a :: l, h, hx => by
    cases hp : p a with
    | true => simp [anyB, hp]
    | false =>
      have e : anyB p (a :: l) = anyB p l := by simp [anyB, hp]
      rw [e]
      cases h with
      | head _ => rw [hp] at hx; exact Bool.noConfusion hx
      | tail _ h => exact anyBOf h hx

theorem hitSlot {grp : Nat → Nat} {ss : List Nat} {P : Nat → Bool} {r : AV} {g : Nat}
    (h : hitG grp ss P r g = true) : slotOk r = true ∧ ∃ i, i ∈ ss ∧ P i = true ∧ grp i = g := by
  have ⟨hs, ha⟩ := factsAndTrue h
  have ⟨i, hi, hp⟩ := anyBSome ha
  have ⟨hpi, hg⟩ := factsAndTrue hp
  exact ⟨hs, i, hi, hpi, ofDecideEqTrue hg⟩

theorem pickHit {hit : Nat → Bool} {r y0 y1 : AV} {g0 h0 : Nat} {v : Nat → AV} {g : Nat}
    (h : hit g = true) : pickV hit r y0 y1 g0 h0 v g = r := by
  simp [pickV, h]

theorem pickMiss {hit : Nat → Bool} {r y0 y1 : AV} {g0 h0 : Nat} {v : Nat → AV} {g : Nat}
    (h : hit g = false) : pickV hit r y0 y1 g0 h0 v g = if g = g0 then y0 else if g = h0 then y1 else v g := by
  simp [pickV, h]

theorem pickAt0 {hit : Nat → Bool} {r y0 y1 : AV} {g0 h0 : Nat} {v : Nat → AV}
    (h : hit g0 = false) : pickV hit r y0 y1 g0 h0 v g0 = y0 := by
  simp [pickV, h]

theorem pickAt1 {hit : Nat → Bool} {r y0 y1 : AV} {g0 h0 : Nat} {v : Nat → AV}
    (h : hit h0 = false) (hne : h0 ≠ g0) : pickV hit r y0 y1 g0 h0 v h0 = y1 := by
  simp [pickV, h, hne]

theorem pickAtOther {hit : Nat → Bool} {r y0 y1 : AV} {g0 h0 : Nat} {v : Nat → AV} {g : Nat}
    (h : hit g = false) (e0 : g ≠ g0) (e1 : g ≠ h0) : pickV hit r y0 y1 g0 h0 v g = v g := by
  simp [pickV, h, e0, e1]

theorem neqExact2 (F : Nat → List (Lit × Bool)) (grp : Nat → Nat) (ss : List Nat) (g0 h0 : Nat)
    (P : Nat → Bool) (r : AV) (v : Nat → AV)
    (hw : neqWritten F grp (apart2 g0 h0) (fun i => i ∈ ss) P r v)
    (hfree : ∀ g, (g = g0 ∨ g = h0) → ∀ x x' : AV,
      ∃ y, y ≠ x ∧ y ≠ x' ∧ slotOk y = true ∧ factsOk (F g) y = true) :
    neqMeant F grp (apart2 g0 h0) (fun i => i ∈ ss) (fun i => P i && slotOk r) r := by
  have ⟨hv, hres, hboth, hself⟩ := hw
  have ⟨y0, hy0r, _, hy0s, hy0f⟩ := hfree g0 (Or.inl rfl) r r
  have ⟨y1, hy1r, hy10, hy1s, hy1f⟩ := hfree h0 (Or.inr rfl) r y0
  have hne : g0 ≠ h0 := fun e => hself g0 (Or.inl ⟨rfl, e⟩)
  have hfacts : ∀ g, slotOk (pickV (hitG grp ss P r) r y0 y1 g0 h0 v g) = true ∧
      factsOk (F g) (pickV (hitG grp ss P r) r y0 y1 g0 h0 v g) = true := by
    intro g
    cases hh : hitG grp ss P r g with
    | true =>
      rw [pickHit hh]
      have ⟨hs, i, hi, hp, hg⟩ := hitSlot hh
      have := hres i hi hp hs
      rw [hg] at this
      exact ⟨hs, this⟩
    | false =>
      exact if e0 : g = g0 then by rw [e0] at hh ⊢; rw [pickAt0 hh]; exact ⟨hy0s, hy0f⟩
        else if e1 : g = h0 then by
          rw [e1] at hh ⊢; rw [pickAt1 hh (fun e => hne e.symm)]; exact ⟨hy1s, hy1f⟩
        else by rw [pickAtOther hh e0 e1]; exact hv g
  have hdiff : pickV (hitG grp ss P r) r y0 y1 g0 h0 v g0 ≠ pickV (hitG grp ss P r) r y0 y1 g0 h0 v h0 := by
    cases h0h : hitG grp ss P r g0 with
    | true =>
      cases h1h : hitG grp ss P r h0 with
      | true =>
        have ⟨hs, i, hi, hp, hg⟩ := hitSlot h0h
        have ⟨_, j, hj, hq, hg'⟩ := hitSlot h1h
        have := hboth i j hi hj (show apart2 g0 h0 (grp i) (grp j) by rw [hg, hg']; exact Or.inl ⟨rfl, rfl⟩) hp hq
        rw [hs] at this
        exact Bool.noConfusion this
      | false =>
        rw [pickHit h0h, pickAt1 h1h (fun e => hne e.symm)]
        exact fun e => hy1r e.symm
    | false =>
      cases h1h : hitG grp ss P r h0 with
      | true =>
        rw [pickAt0 h0h, pickHit h1h]
        exact hy0r
      | false =>
        rw [pickAt0 h0h, pickAt1 h1h (fun e => hne e.symm)]
        exact fun e => hy10 e.symm
  refine ⟨pickV (hitG grp ss P r) r y0 y1 g0 h0 v, P, hfacts, fun g h hd => ?_, fun i hi => ⟨fun hm => ?_, fun hm => ?_⟩⟩
  · cases hd with
    | inl e => rw [e.1, e.2]; exact hdiff
    | inr e => rw [e.1, e.2]; exact fun x => hdiff x.symm
  · have ⟨hp, hs⟩ := factsAndTrue hm
    have hh : hitG grp ss P r (grp i) = true :=
      factsAndOfTrue hs (anyBOf hi (factsAndOfTrue hp (decideEqTrue rfl)))
    exact ⟨hp, hs, (pickHit hh).symm⟩
  · exact factsAndOfTrue hm.1 hm.2.1

end AgentWarrant.Revision.ArgCover
