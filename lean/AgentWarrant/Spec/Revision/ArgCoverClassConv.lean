import AgentWarrant.Spec.Revision.ArgCoverClass
/-! What an `uncovered` answer on a binding class's question stands for (Agenra Sections 1 and 7.1: "a
certificate must hold in every binding state"; a simulation per binding class lists facts about the values
slots are bound to). `classQ` (`Spec/Revision/ArgCoverClass.lean`) writes the class's facts with one value
variable per group of slots asserted equal; `factsElim` proves that elimination exact for one group. Here
the class's meaning is stated over every group at once, on the slots one way's positions name
(`classMeant`), and the witness an `uncovered` answer gives is read back as values of the question's
sources (`convVal`).

Choices where the source is silent: the meaning speaks of the slots the positions name (a slot no position
names cannot change a match vector); every string names a group value (`w`), as in the coverage theorem's
hypothesis on binding states (`Thm.bindingClassQuestionCovers`'s `hw`), a string that is no group having no
facts; a class denying an equality between slots is not the meaning here (`classQ` does not write such
facts, `apartFree`). -/
namespace AgentWarrant.Revision.ArgCover
open AgentWarrant

/-- The class's meaning on the slots that the positions `pos` name, on resource value `r`: group values `w`,
each a valid slot value with its group's facts, and binding bits `b`, such that slot `s`'s pattern matches
(`m s`) exactly when it is bound and the resource, a valid slot value, equals its group's value. -/
def classMeant (fs : List Fact) (pos : List (Option (List SClause))) (r : AV) (m : String → Bool) : Prop :=
  ∃ (w : String → AV) (b : String → Bool), (∀ g, slotOk (w g) = true ∧ factsOk (groupLits fs g) (w g) = true) ∧
    ∀ s, namesSlot pos s = true → (m s = true ↔ (b s = true ∧ slotOk r = true ∧ r = w (grpOf fs s)))

/-- An `uncovered xs` answer's valuation read at the question's sources: source `c` has the value of its
variable, `c`'s place among the question's names. -/
def convVal (names : List CSrc) (xs : List AV) (c : CSrc) : AV := getV xs (idxOf c names)

def convPick (b : Bool) (x y : AV) : AV :=
  match b with
  | true => x
  | false => y

/-- The way's sources as a binding state with match bits `m` gives them: a slot's variable present (null)
exactly when its pattern matches, as `srcVal` reads a slot on a call; every other source as `vs`. -/
def convCanon (vs : Src → AV) (m : String → Bool) : Src → AV
  | Src.slot s => convPick (m s) AV.null AV.missing
  | x => vs x

end AgentWarrant.Revision.ArgCover
