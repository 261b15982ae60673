import AgentWarrant.Spec.Revision.ArgCoverFacts
/-! A binding class asserting two slots' values differ, written for Lean (Agenra Sections 1 and 7.1: a
certificate must hold in every binding state; a binding class lists facts about bound values, among them
"slot `s`'s value is not slot `t`'s").

Design. Of the two options — eliminate the inequality with one-variable literals, or give the decision a
two-variable literal and re-prove its representatives exact — the first keeps `arg_cover`, its
representatives and their exactness proofs untouched, so it is the one taken; but only one direction of the
elimination is proved. The groups of slots asserted equal keep one value variable each with their facts
(`factsWritten`), and an inequality between two groups adds what it forces on the effect: no slot of one
group and slot of the other both match (both would be bound to the resource, so the two values would be
equal), and an inequality inside one group makes the class empty. `Thm/Revision/ArgCoverNeq.lean`
(`neqSound`) proves every binding state of the class and effect yields a valuation of these clauses with
the same match bits, so a `covered` answer on the written question is the class's coverage. The converse
fails in general: the inequalities also constrain the groups' values among themselves and against the
resource (two groups each pinned to one constant by their facts and asserted different make the class
empty; a group pinned to `c` and asserted different from a matched slot's group keeps the resource off `c`),
which no clause on one variable states for every kind of fact (a glob fact can pin a value without naming
it). The converse is proved in one case (`neqExact2`): one pair of groups asserted different, each of whose
facts admits a value other than any two given values (`hfree`; the Python caller supplies it for a group
with no positive fact, where all but finitely many numbers qualify). Elsewhere an `uncovered` answer on
such a class is not taken: the Python caller asks Z3 then, and says so. -/
namespace AgentWarrant.Revision.ArgCover
open AgentWarrant

/-- The class's meaning with inequalities (`grp i` slot `i`'s group, `F g` group `g`'s facts, `D g h` the
class asserts group `g`'s value differs from group `h`'s, `S` the slots the question names): values `w` of
the groups, valid, with their facts and pairwise different where asserted, and binding bits `b`, such that
slot `i`'s pattern matches (`m i`) exactly when it is bound and the resource, a valid slot value, equals its
group's value. -/
def neqMeant (F : Nat → List (Lit × Bool)) (grp : Nat → Nat) (D : Nat → Nat → Prop) (S : Nat → Prop)
    (m : Nat → Bool) (r : AV) : Prop :=
  ∃ (w : Nat → AV) (b : Nat → Bool), (∀ g, slotOk (w g) = true ∧ factsOk (F g) (w g) = true) ∧
    (∀ g h, D g h → w g ≠ w h) ∧
    ∀ i, S i → (m i = true ↔ (b i = true ∧ slotOk r = true ∧ r = w (grp i)))

/-- The written clauses (`P` the slots' presence bits, `v` the groups' value variables): each group's value
valid with its facts; a matching slot's resource with its group's facts (as `factsWritten`); no two matching
slots of groups asserted different; no group asserted different from itself (Python writes an empty
clause). -/
def neqWritten (F : Nat → List (Lit × Bool)) (grp : Nat → Nat) (D : Nat → Nat → Prop) (S : Nat → Prop)
    (P : Nat → Bool) (r : AV) (v : Nat → AV) : Prop :=
  (∀ g, slotOk (v g) = true ∧ factsOk (F g) (v g) = true) ∧
  (∀ i, S i → P i = true → slotOk r = true → factsOk (F (grp i)) r = true) ∧
  (∀ i j, S i → S j → D (grp i) (grp j) → P i = true → P j = true → slotOk r = false) ∧
  (∀ g, D g g → False)

/-- Two groups `g0` and `h0` asserted different, and no other inequality. -/
def apart2 (g0 h0 : Nat) (g h : Nat) : Prop := (g = g0 ∧ h = h0) ∨ (g = h0 ∧ h = g0)

/-- Some slot of `ss` in group `g` matches (its presence bit, the resource a valid slot value). -/
def hitG (grp : Nat → Nat) (ss : List Nat) (P : Nat → Bool) (r : AV) (g : Nat) : Bool :=
  slotOk r && anyB (fun i => P i && decide (grp i = g)) ss

/-- The groups' values built from a written valuation: the resource for a group with a matching slot,
else `y0`/`y1` for the two groups asserted different, else the written value variable. -/
def pickV (hit : Nat → Bool) (r y0 y1 : AV) (g0 h0 : Nat) (v : Nat → AV) (g : Nat) : AV :=
  if hit g = true then r else if g = g0 then y0 else if g = h0 then y1 else v g

end AgentWarrant.Revision.ArgCover
