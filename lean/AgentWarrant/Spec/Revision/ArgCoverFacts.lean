import AgentWarrant.Spec.Revision.ArgCover
/-! A binding class's facts about bound values as literals of the coverage question (Agenra Sections 1
and 7.1: "a certificate must hold in every binding state"; a simulation per binding class lists facts
about the values slots are bound to — a slot's value matches a constant or a glob, or equals another
slot's value — and proves each class's coverage with the facts' literals added to every question).

Design. A slot's value is a variable of its own in the question (one per group of slots the class asserts
equal, `<value:s>` in the Python translation `_fact_clauses`, model/revision/trusted/arg_cover.py), a valid
slot value (`slotOk`: a scalar, a string non-empty) satisfying the class's constant and glob facts on its
slots (`factsOk`: each literal true or false as the class says). A slot pattern's match stays the
question's free bit, the slot's variable present, read with the resource a valid slot value (`slotConj`);
the binding's equality to the resource becomes one clause per slot: when the slot pattern matches, the
resource satisfies the group's facts. `Thm/Revision/ArgCoverFacts.lean` (`factsElim`) proves the
elimination exact: such clauses hold for some value variable exactly when some slot value satisfying the
facts and some binding bits make every slot's match bit "bound, and the resource equals the value".
Choices where the source is silent: equality is the values' (`=` on `AV`); a class asserting two slots'
values differ relates two variables, which no literal on one variable states, and is not written for Lean
(the Python caller leaves those classes to Z3 and says so). -/
namespace AgentWarrant.Revision.ArgCover
open AgentWarrant

/-- A value a slot can be bound to: a scalar, a string non-empty (the checker's encoding of a binding). -/
def slotOk (v : AV) : Bool := holds Lit.scalar v && !holds (Lit.eqStr []) v

/-- The class's facts on one value: each literal's truth is the one the class asserts. -/
def factsOk (F : List (Lit × Bool)) (v : AV) : Bool := allB (fun f => holds f.1 v == f.2) F

/-- The written clauses of one group of slots (`S` its slots, `P` their variables' presence bits, `r` the
resource, `v` the group's value variable): `v` a valid slot value with the facts, and for each slot whose
pattern matches (`P i`, the resource a valid slot value) the resource with the facts. -/
def factsWritten (F : List (Lit × Bool)) (S : Nat → Prop) (P : Nat → Bool) (r v : AV) : Prop :=
  slotOk v = true ∧ factsOk F v = true ∧ ∀ i, S i → P i = true → slotOk r = true → factsOk F r = true

/-- The class's meaning on one group: some value `w` the group's slots are bound to (when bound), valid
and with the facts, and binding bits `b`, such that slot `i`'s pattern matches (`m i`) exactly when it is
bound and the resource, a valid slot value, equals `w`. -/
def factsMeant (F : List (Lit × Bool)) (S : Nat → Prop) (m : Nat → Bool) (r : AV) : Prop :=
  ∃ (w : AV) (b : Nat → Bool), slotOk w = true ∧ factsOk F w = true ∧
    ∀ i, S i → (m i = true ↔ (b i = true ∧ slotOk r = true ∧ r = w))

end AgentWarrant.Revision.ArgCover
