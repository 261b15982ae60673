import AgentWarrant.Thm.Monitor.Full.OnlyAllow
import AgentWarrant.Thm.Monitor.Json
/-! Agenra Section 5.1, the slot cases, as theorems about one applicable resolver reading a
successful designated lookup's result (`bindOne`): an equal address keeps the binding; a conflicting
address, a malformed address or a missing result field invalidates the slot (its binding dropped); an
invalidated slot is never rebound; a first well-formed address binds the slot to it, recording the
lookup's ID. "Equal" is `jeq`, which `jeqIff` (Thm/Monitor/Json.lean) shows is JSON value equality for
every value nesting less deep than its fuel. A failed lookup changes nothing (`observeFailed`), and the
invalid slots only grow over a step (`Thm.wholeResultStepTouches`), so an invalidation is permanent. -/
namespace AgentWarrant.Monitor.Full
open Lean AgentWarrant

variable (value : Json) (d : Nat) (bs : List (String × Json × Nat)) (inv : List String) (r : Resolver)

/-- A slot already invalid stays exactly as it is. -/
theorem slotInvalidStays (h : memS r.slot inv = true) : bindOne value d (bs, inv) r = (bs, inv) := by
  simp [bindOne, h]

/-- A repeated equal address preserves the binding. -/
theorem slotEqualKeeps (v : Json) (b : String × Json × Nat) (hi : memS r.slot inv = false)
    (hp : lookupPath value r.path = some v) (hw : wellFormedAddress v = true)
    (hb : bs.find? (fun b => b.1 == r.slot) = some b) (he : jeq b.2.1 v = true) :
    bindOne value d (bs, inv) r = (bs, inv) := by
  simp [bindOne, hi, hp, hw, hb, he]

/-- A conflicting address invalidates the slot and drops its binding. -/
theorem slotConflictInvalidates (v : Json) (b : String × Json × Nat) (hi : memS r.slot inv = false)
    (hp : lookupPath value r.path = some v) (hw : wellFormedAddress v = true)
    (hb : bs.find? (fun b => b.1 == r.slot) = some b) (he : jeq b.2.1 v = false) :
    bindOne value d (bs, inv) r = (dropBinding r.slot bs, r.slot :: inv) := by
  simp [bindOne, hi, hp, hw, hb, he]

/-- A malformed address invalidates the slot and drops its binding. -/
theorem slotMalformedInvalidates (v : Json) (hi : memS r.slot inv = false)
    (hp : lookupPath value r.path = some v) (hw : wellFormedAddress v = false) :
    bindOne value d (bs, inv) r = (dropBinding r.slot bs, r.slot :: inv) := by
  simp [bindOne, hi, hp, hw]

/-- A result without the designated field is malformed too. -/
theorem slotMissingInvalidates (hi : memS r.slot inv = false) (hp : lookupPath value r.path = none) :
    bindOne value d (bs, inv) r = (dropBinding r.slot bs, r.slot :: inv) := by
  simp [bindOne, hi, hp]

/-- A first well-formed address binds the slot, recording the lookup that produced it. -/
theorem slotFirstBinds (v : Json) (hi : memS r.slot inv = false)
    (hp : lookupPath value r.path = some v) (hw : wellFormedAddress v = true)
    (hb : bs.find? (fun b => b.1 == r.slot) = none) :
    bindOne value d (bs, inv) r = (insertBy (fun b => b.1) (r.slot, v, d) bs, inv) := by
  simp [bindOne, hi, hp, hw, hb]

/-- A failed lookup (or any failed outcome) leaves the state as it is. -/
theorem observeFailed (p : Policy) (s : State) (d : Nat) (o : Outcome) (h : o.ok = false) : observe p s d o = s := by
  simp [observe, h]

end AgentWarrant.Monitor.Full
