import AgentWarrant.Thm.Revision.Closure
/-! Effect coverage of a simulation certificate, checked in Lean for a finite alphabet of effects
(Agenra Sections 1 and 7.1: the closure check speaks of units, and a certificate is sound for the
policies only if its units cover every effect a client can present).

An effect `e` is seen by the lists through their matchers: one predicate per position of every old
and new list, and the requirements `e` satisfies. Its unit (`unitOf`) is those match bits and
requirements. `coversC` checks that the unit of every effect of a finite alphabet is one of the
certificate's units. `coveredClosedPreserves`: when the closure check and the coverage check both
pass, every client made of effects of the alphabet (any finite sequence) that the old lists admit
from the start is admitted by the new lists, with related final usage: the unit-level theorem with
its hypothesis "the client's units are the certificate's" discharged by the Lean check.
Where the source is silent: the matchers are any Boolean functions of the effect, so this is the
finite-alphabet case of the Python checker's Z3 coverage query (which ranges over every resource
string a glob can match), and the link from the monitor's own grant matching to these matchers is
not stated here. -/
namespace AgentWarrant.Revision.Closure
open AgentWarrant

/-- How the lists see an effect of type `ε`. -/
structure View (ε : Type) where
  oldM : List (List (ε → Bool))
  newM : List (List (ε → Bool))
  reqs : ε → List String

def unitOf {ε : Type} (v : View ε) (e : ε) : Unit' :=
  ⟨v.oldM.map (fun l => l.map (fun m => m e)), v.newM.map (fun l => l.map (fun m => m e)), v.reqs e⟩

def unitEq (a b : Unit') : Bool := decide (a.old = b.old) && decide (a.new = b.new) && decide (a.reqs = b.reqs)

theorem unitEqSound : ∀ {a b : Unit'}, unitEq a b = true → a = b
  | ⟨o, n, q⟩, ⟨o', n', q'⟩, h => by
    have h1 := andLeft (andLeft h)
    have h2 := andRight (andLeft h)
    have h3 := andRight h
    have e1 : o = o' := ofDecideEqTrue h1
    have e2 : n = n' := ofDecideEqTrue h2
    have e3 : q = q' := ofDecideEqTrue h3
    rw [e1, e2, e3]

/-- The coverage check: every effect of the alphabet has its unit among the certificate's. -/
def coversC {ε : Type} (v : View ε) (alphabet : List ε) (units : List Unit') : Bool :=
  allB (fun e => anyB (fun u => unitEq u (unitOf v e)) units) alphabet

theorem coversSound {ε : Type} {v : View ε} {alphabet : List ε} {units : List Unit'}
    (h : coversC v alphabet units = true) (e : ε) (he : e ∈ alphabet) : unitOf v e ∈ units := by
  have ⟨u, hu, eq⟩ := anyBElim (allBElim h e he)
  rw [← unitEqSound eq]
  exact hu

theorem memMap {α β : Type} (f : α → β) {y : β} : ∀ {l : List α}, y ∈ l.map f → ∃ x, x ∈ l ∧ y = f x
  | [], h => nomatch h
  | a :: l, h => by
    cases h with
    | head _ => exact ⟨a, Mem.head _, rfl⟩
    | tail _ t =>
      have ⟨x, hx, e⟩ := memMap f t
      exact ⟨x, Mem.tail _ hx, e⟩

/-- Closure and coverage (both checked in Lean) preserve every client over the alphabet, at every length. -/
theorem coveredClosedPreserves {ε : Type} (O N : List (List LEntry)) (units : List Unit')
    (rel : List (Usage × Usage)) (start : Usage × Usage) (v : View ε) (alphabet : List ε)
    (hc : closedC O N units rel start = true) (hcov : coversC v alphabet units = true)
    (client : List ε) (hcl : ∀ e, e ∈ client → e ∈ alphabet) (of : Usage)
    (h : runSide true O start.1 (client.map (unitOf v)) = some of) :
    ∃ nf, runSide false N start.2 (client.map (unitOf v)) = some nf ∧ memR rel (of, nf) = true :=
  closedPreservesFromStart O N units rel start hc (client.map (unitOf v)) (fun u hu => by
    have ⟨e, he, eq⟩ := memMap (unitOf v) hu
    rw [eq]
    exact coversSound hcov e (hcl e he)) of h

end AgentWarrant.Revision.Closure
