import AgentWarrant.Thm.Revision.ClosureWholeRun
/-! The closure check's coverage premise on the whole monitor from listed match vectors (Agenra
Sections 1 and 7.1). `CwCovered` asks that every call of a client trace have its units among the
check's. This file builds that premise from two facts about each call, at the state the old monitor
reaches: every effect's match vector over the four lists read as one (old user, old application, new
user, new application: `cwAll`) is among the vectors listed for the effect's action
(`CwVecsListed`, what Lean's coverage decisions conclude), and the state's satisfied requirements are
among a list of requirement sets `Qs`. The check's units must hold every listed vector, split at the
four lists' lengths, with every set of `Qs` (`CwUnitsFrom`), which is how the Python checker writes
them: one unit per vector of the certificate and per subset of the requirements the four lists name.

Choices where the source is silent: a unit's requirement set is the state's list as it stands (the
closure check reads it only through membership), so `Qs` must hold that very list; that a state's
list is one of the subsets the Python checker writes is an assumption here, not a proof
(`ClosureWholeCovReq.lean` drops it: the check reads the list only through membership). -/
namespace AgentWarrant.Monitor.Full
open Lean AgentWarrant AgentWarrant.Monitor AgentWarrant.Monitor.Run AgentWarrant.Revision

/-- The four lists read as one, in the closure check's order. -/
def cwAll (p : Policy) (u' a' : List Grant) : List Grant := p.user ++ p.app ++ u' ++ a'

/-- The check's units hold every vector listed for an action, split at the four lists' lengths,
with every requirement set of `Qs`. -/
def CwUnitsFrom (units : List Closure.Unit') (p : Policy) (u' a' : List Grant)
    (listed : String → List (List Bool)) (Qs : List (List String)) : Prop :=
  ∀ a v1 v2 v3 v4 q, List.length v1 = List.length p.user → List.length v2 = List.length p.app →
    List.length v3 = List.length u' → List.length v4 = List.length a' →
    anyB (fun u => Decidable.decide (u = v1 ++ v2 ++ v3 ++ v4)) (listed a) = true → q ∈ Qs →
    (⟨[v1, v2], [v3, v4], q⟩ : Closure.Unit') ∈ units

/-- Every effect of a call has its match vector over the four lists among its action's listed
vectors: the conclusion of Lean's coverage theorems with the four lists as the entries. -/
def CwVecsListed (listed : String → List (List Bool)) (p : Policy) (u' a' : List Grant) (s : State)
    (args : List (String × Json)) (es : List Effect) : Prop :=
  ∀ e, e ∈ es →
    anyB (fun u => Decidable.decide (u = (cwAll p u' a').map (fun g => grantMatches s args g e))) (listed e.action) = true

theorem cwCovRangeHit : ∀ (es : List Effect) (k i : Nat), i ∈ range k (List.length es) →
    ∃ j e, i = k + j ∧ e ∈ es ∧ ∀ f : Effect → Bool, hit (List.map f es) j = f e
  | [], _, _, h => absurd h notMemNil
  | e :: es, k, i, h => by
    rw [List.length_cons] at h
    have hr : range k (List.length es + 1) = k :: range (k + 1) (List.length es) := rfl
    rw [hr] at h
    cases h with
    | head _ => exact ⟨0, e, rfl, Mem.head _, fun _ => rfl⟩
    | tail _ h' =>
      have ⟨j, e', hi, he, hf⟩ := cwCovRangeHit es (k + 1) i h'
      exact ⟨j + 1, e', by rw [hi, Nat.add_assoc, Nat.add_comm 1 j], Mem.tail _ he, fun f => hf f⟩

/-- Effect unit `j` of a call reads each grant's match on the effect at position `j`. -/
theorem cwCovBits (s : State) (args : List (String × Json)) (es : List Effect) (j : Nat) (e : Effect)
    (hf : ∀ f : Effect → Bool, hit (List.map f es) j = f e) (gs : List Grant) :
    cwBits s args es j gs = gs.map (fun g => grantMatches s args g e) :=
  congrArg (fun F => List.map F gs) (funext (fun g => hf (grantMatches s args g)))

/-- Effect unit `i` of a call, with its bits and any requirement set `q` of `Qs`, is among units
built from the listed vectors and `Qs`. -/
theorem cwCovUnitAt (units : List Closure.Unit') (p : Policy) (u' a' : List Grant)
    (listed : String → List (List Bool)) (Qs : List (List String)) (hu : CwUnitsFrom units p u' a' listed Qs)
    (s : State) (args : List (String × Json)) (es : List Effect) (hv : CwVecsListed listed p u' a' s args es)
    (q : List String) (hq : q ∈ Qs) (i : Nat) (hi : i ∈ range 0 (List.length es)) :
    (⟨(cwUnit p u' a' s args es i).old, (cwUnit p u' a' s args es i).new, q⟩ : Closure.Unit') ∈ units := by
  have ⟨j, e, hij, he, hf⟩ := cwCovRangeHit es 0 i hi
  have hj : i = j := by rw [hij, Nat.zero_add]
  rw [hj]
  have hvec := hv e he
  have e1 : (cwAll p u' a').map (fun g => grantMatches s args g e) =
      p.user.map (fun g => grantMatches s args g e) ++ p.app.map (fun g => grantMatches s args g e) ++
        u'.map (fun g => grantMatches s args g e) ++ a'.map (fun g => grantMatches s args g e) := by
    show List.map _ (p.user ++ p.app ++ u' ++ a') = _
    rw [mapAppend, mapAppend, mapAppend]
  rw [e1] at hvec
  show (⟨[cwBits s args es j p.user, cwBits s args es j p.app], [cwBits s args es j u', cwBits s args es j a'],
    q⟩ : Closure.Unit') ∈ units
  rw [cwCovBits s args es j e hf p.user, cwCovBits s args es j e hf p.app, cwCovBits s args es j e hf u',
    cwCovBits s args es j e hf a']
  exact hu e.action _ _ _ _ _ (lengthMap _ _) (lengthMap _ _) (lengthMap _ _) (lengthMap _ _) hvec hq

/-- One call: listed vectors for its effects and its state's requirement set in `Qs` put its units
among units built from the listed vectors and `Qs`. -/
theorem cwCoveredOneCall (units : List Closure.Unit') (p : Policy) (u' a' : List Grant)
    (listed : String → List (List Bool)) (Qs : List (List String)) (hu : CwUnitsFrom units p u' a' listed Qs)
    (s : State) (args : List (String × Json)) (es : List Effect) (hv : CwVecsListed listed p u' a' s args es)
    (hq : s.satisfied ∈ Qs) : ∀ x, x ∈ cwUnits p u' a' s args es → x ∈ units := by
  intro x hx
  have ⟨i, hi, hxi⟩ := memMapInv _ hx
  rw [← hxi]
  exact cwCovUnitAt units p u' a' listed Qs hu s args es hv s.satisfied hq i hi

/-- The calls' facts along the old run that build `CwCovered`: the state's requirement set is in
`Qs` and every prepared call's effects have listed vectors. -/
abbrev CwListedAlong (listed : String → List (List Bool)) (Qs : List (List String)) (p : Policy) (u' a' : List Grant) :
    State → List (Call × Outcome) → Prop :=
  AlongTrace (fun s c => s.satisfied ∈ Qs ∧
    ∀ t es, prepare p s c = Except.ok (t, es) → CwVecsListed listed p u' a' s c.args es) p

/-- The whole trace: `CwCovered` from listed vectors and requirement sets along the old run. -/
theorem cwCoveredOfListed (units : List Closure.Unit') (p : Policy) (u' a' : List Grant)
    (listed : String → List (List Bool)) (Qs : List (List String)) (hu : CwUnitsFrom units p u' a' listed Qs) :
    ∀ (cs : List (Call × Outcome)) (s : State), CwListedAlong listed Qs p u' a' s cs → CwCovered units p u' a' s cs
  | [], _, _ => trivial
  | (c, o) :: cs, s, h => by
    have h' : (s.satisfied ∈ Qs ∧ ∀ t es, prepare p s c = Except.ok (t, es) → CwVecsListed listed p u' a' s c.args es) ∧
        CwListedAlong listed Qs p u' a' (stepFull p s c o).2 cs := h
    exact ⟨fun t es hp => cwCoveredOneCall units p u' a' listed Qs hu s c.args es (h'.1.2 t es hp) h'.1.1,
      cwCoveredOfListed units p u' a' listed Qs hu cs _ h'.2⟩

/-- `cwRunFull` with the coverage premise built from listed vectors and requirement sets. -/
theorem cwRunFullListed (units : List Closure.Unit') (rel : List (Closure.Usage × Closure.Usage))
    (start : Closure.Usage × Closure.Usage) (p : Policy) (u' a' : List Grant)
    (listed : String → List (List Bool)) (Qs : List (List String))
    (hc : Closure.closedC (cwLists p.user p.app) (cwLists u' a') units rel start = true)
    (hu : CwUnitsFrom units p u' a' listed Qs) (hpa : PermitByAction p u' a') (cs : List (Call × Outcome))
    (s s' : State) (hs : SafetyEqP s s') (hR : CwRel rel p u' a' s s') (hcl : Client p s cs)
    (hl : CwListedAlong listed Qs p u' a' s cs) :
    List.map verdictLabel (runFull (revisedP p u' a') s' cs).1 = List.map verdictLabel (runFull p s cs).1 ∧
    allB isAllowV (runFull (revisedP p u' a') s' cs).1 = true ∧
    SafetyEqP (runFull p s cs).2 (runFull (revisedP p u' a') s' cs).2 ∧
    CwRel rel p u' a' (runFull p s cs).2 (runFull (revisedP p u' a') s' cs).2 :=
  cwRunFull units rel start p u' a' hc hpa cs s s' hs hR hcl (cwCoveredOfListed units p u' a' listed Qs hu cs s hl)

end AgentWarrant.Monitor.Full
