import AgentWarrant.Thm.Monitor.Full.OnlyAllow
import AgentWarrant.Thm.Monitor.Full.Determinism
import AgentWarrant.Thm.Monitor.Json
/-! Agenra Section 5.1, the slot cases, as theorems about one applicable resolver reading a
successful designated lookup's result (`bindOne`): an equal address keeps the binding; a conflicting
address, a malformed address or a missing result field invalidates the slot (its binding dropped); an
invalidated slot is never rebound; a first well-formed address binds the slot to it, recording the
lookup's ID. "Equal" is `jeq`, which `jeqIff` (Thm/Monitor/Json.lean) shows is JSON value equality for
every value nesting less deep than its fuel. A failed lookup changes nothing (`observeFailed`), and the
invalid slots only grow over a step (`Thm.wholeResultStepTouches`), so an invalidation is permanent.
Section 6.1's clause "invalid slots have no binding" is `InvalidUnbound`, kept by every step
(`stepFullInvalidUnbound`) and over every trace (`runFullInvalidUnbound`) from the state a task
starts in. -/
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


-- Section 6.1: invalid slots have no binding ---------------------------------------------------

def InvalidUnbound (s : State) : Prop := ∀ b, b ∈ s.bindings → memS b.1 s.invalid = false

def AccOk (acc : List (String × Json × Nat) × List String) : Prop := ∀ b, b ∈ acc.1 → memS b.1 acc.2 = false

theorem beqStrSymmFalse {a b : String} (h : (a == b) = false) : (b == a) = false := by
  cases h' : (b == a) with
  | false => rfl
  | true =>
    have e : b = a := ofDecideEqTrue h'
    rw [e] at h
    have t : (a == a) = true := decideEqTrue rfl
    rw [t] at h
    cases h

theorem invalidateOk (slot : String) (bs : List (String × Json × Nat)) (inv : List String) (h : AccOk (bs, inv)) :
    AccOk (dropBinding slot bs, slot :: inv) := by
  intro b hb
  have ⟨hm, hne⟩ := memFilt hb
  have hne' : (b.1 == slot) = false := by
    cases e : (b.1 == slot) with
    | false => rfl
    | true =>
      have hne2 : (!(b.1 == slot)) = true := hne
      rw [e] at hne2
      cases hne2
  show ((slot == b.1) || memS b.1 inv) = false
  rw [beqStrSymmFalse hne', h b hm]
  rfl

theorem bindOneOk (value : Json) (d : Nat) (r : Resolver) :
    ∀ (acc : List (String × Json × Nat) × List String), AccOk acc → AccOk (bindOne value d acc r)
  | (bs, inv), h => by
    cases hm : memS r.slot inv with
    | true => rw [slotInvalidStays value d bs inv r hm]; exact h
    | false =>
      cases hp : lookupPath value r.path with
      | none => rw [slotMissingInvalidates value d bs inv r hm hp]; exact invalidateOk r.slot bs inv h
      | some v =>
        cases hw : wellFormedAddress v with
        | false => rw [slotMalformedInvalidates value d bs inv r v hm hp hw]; exact invalidateOk r.slot bs inv h
        | true =>
          cases hb : bs.find? (fun b => b.1 == r.slot) with
          | none =>
            rw [slotFirstBinds value d bs inv r v hm hp hw hb]
            intro b hx
            cases memInsertBy (fun b => b.1) (r.slot, v, d) hx with
            | inl e => rw [e]; exact hm
            | inr e => exact h b e
          | some b' =>
            cases hj : jeq b'.2.1 v with
            | true => rw [slotEqualKeeps value d bs inv r v b' hm hp hw hb hj]; exact h
            | false => rw [slotConflictInvalidates value d bs inv r v b' hm hp hw hb hj]; exact invalidateOk r.slot bs inv h

theorem foldBindOk (value : Json) (d : Nat) : ∀ (rs : List Resolver) (acc : List (String × Json × Nat) × List String),
    AccOk acc → AccOk (List.foldl (bindOne value d) acc rs)
  | [], acc, h => h
  | r :: rs, acc, h => foldBindOk value d rs (bindOne value d acc r) (bindOneOk value d r acc h)

theorem observeInvalidUnbound (p : Policy) (s : State) (d : Nat) (o : Outcome) (h : InvalidUnbound s) :
    InvalidUnbound (observe p s d o) := by
  cases o with
  | mk ok v =>
    cases ok with
    | false => rw [observeFailed p s d ⟨false, v⟩ rfl]; exact h
    | true =>
      cases hr : s.record? d with
      | none => simp [observe, hr]; exact h
      | some r =>
        have g := foldBindOk v d
          (List.filter (fun x => x.tool == r.tool && jeq x.args (argsJson r.args)) p.resolvers) (s.bindings, s.invalid) h
        intro b hb
        simp only [observe, hr] at hb
        cases hf : List.foldl (bindOne v d) (s.bindings, s.invalid)
          (List.filter (fun x => x.tool == r.tool && jeq x.args (argsJson r.args)) p.resolvers) with
        | mk bs inv =>
          rw [hf] at hb g
          show memS b.1 (observe p s d ⟨true, v⟩).invalid = false
          simp only [observe, hr, hf]
          exact g b hb

/-- Every step keeps every invalid slot unbound. -/
theorem stepFullInvalidUnbound (p : Policy) (s : State) (c : Call) (o : Outcome) (h : InvalidUnbound s) :
    InvalidUnbound (stepFull p s c o).2 := by
  cases hd : decideFull p s c with
  | pause w => rw [stepFullOnlyAllowChanges p s c o (fun l pu pa k e => by rw [hd] at e; cases e)]; exact h
  | deny r => rw [stepFullOnlyAllowChanges p s c o (fun l pu pa k e => by rw [hd] at e; cases e)]; exact h
  | allow l pu pa k =>
    rw [stepFullAllow p s c o l pu pa k hd]
    have ⟨_, _, _, _, eb, ei, _⟩ := commitFields p s c l pu pa k
    refine observeInvalidUnbound p _ _ o ?_
    intro b hb
    rw [eb] at hb
    rw [ei]
    exact h b hb

theorem runFullInvalidUnbound (p : Policy) : ∀ (cs : List (Call × Outcome)) (s : State), InvalidUnbound s →
    InvalidUnbound (runFull p s cs).2
  | [], s, h => h
  | (c, o) :: cs, s, h => runFullInvalidUnbound p cs (stepFull p s c o).2 (stepFullInvalidUnbound p s c o h)

theorem initialInvalidUnbound (p : Policy) : InvalidUnbound (initialState p) :=
  fun b hb => absurd hb notMemNil

end AgentWarrant.Monitor.Full
