import AgentWarrant.Thm.Revision.ArgCover
import AgentWarrant.Thm.Revision.Coverage
import AgentWarrant.Thm.Revision.ArgCoverMatch
/-! The closure check's coverage premise computed in Lean for entries whose match reads argument values
(Agenra Sections 1 and 7.1). An effect is a valuation `ρ` of the question's variables (its resource and
top-level arguments, `Spec/Revision/ArgCover.lean`) with the set of requirements it satisfies; the tools'
constraint `E` is a CNF `cond` over the atoms, and every position of the old and new lists is a CNF over
the atoms (or `none`: never matches). An effect's unit (`unitOfA`) is the match bit of every position.
`argCoveredClosedPreserves`: if the closure check passes and the argument coverage decision answers
`covered` for "every atom vector satisfying `cond` gives, with every requirement set of `reqSets`, a unit
of the certificate" (`goodA`), then every client — any finite sequence of effects satisfying `cond`, with
requirement sets among `reqSets` — that the old lists admit from the start is admitted by the new lists,
with related final usage. No hypothesis about the units remains.
Where the source is silent: the positions' CNFs, `cond` and the atoms are taken as given here; for entries
without slot patterns (key allowlists included) Lean writes them itself and `builtCoverMatches`
(`Thm/Revision/ArgCoverBuild.lean`) proves its positions are the monitor's `grantMatches`; otherwise they
are the Python caller's translation (`model/revision/trusted/arg_cover.py`). That every call the monitor
prepares meets `cond` is not stated. -/
namespace AgentWarrant.Revision.ArgCover
open AgentWarrant AgentWarrant.Revision.Closure

/-- Every position of the old and of the new lists, as clauses over the atoms. -/
structure AView where
  oldP : List (List (Option (List Clause)))
  newP : List (List (Option (List Clause)))

def rowsBits (bits : List Bool) (rows : List (List (Option (List Clause)))) : List (List Bool) :=
  rows.map (fun row => row.map (posBit bits))

/-- The unit of an atom vector with a requirement set. -/
def unitOfA (v : AView) (bits : List Bool) (q : List String) : Unit' := ⟨rowsBits bits v.oldP, rowsBits bits v.newP, q⟩

/-- The coverage test of one atom vector: outside `cond`, or with every requirement set one of the units. -/
def goodA (v : AView) (cond : List Clause) (units : List Unit') (reqSets : List (List String)) (bits : List Bool) : Bool :=
  !cnfHolds bits cond || allB (fun q => anyB (fun u => unitEq u (unitOfA v bits q)) units) reqSets

theorem orLeftFalse : ∀ {a b : Bool}, (!a || b) = true → a = true → b = true
  | true, true, _, _ => rfl
  | true, false, h, _ => by cases h
  | false, _, _, h => by cases h

/-- Closure checked in Lean and argument coverage decided in Lean preserve every client over every
valuation satisfying `cond`. -/
theorem argCoveredClosedPreserves (O N : List (List LEntry)) (units : List Unit')
    (rel : List (Usage × Usage)) (start : Usage × Usage) (v : AView) (atoms : List Atom) (cond : List Clause)
    (reqSets : List (List String))
    (hc : closedC O N units rel start = true)
    (hcov : argCover (goodA v cond units reqSets) atoms = Answer.covered)
    (client : List ((Nat → AV) × List String))
    (hin : ∀ e, e ∈ client → cnfHolds (bitsOf atoms e.1) cond = true)
    (hq : ∀ e, e ∈ client → e.2 ∈ reqSets) (of : Usage)
    (h : runSide true O start.1 (client.map (fun e => unitOfA v (bitsOf atoms e.1) e.2)) = some of) :
    ∃ nf, runSide false N start.2 (client.map (fun e => unitOfA v (bitsOf atoms e.1) e.2)) = some nf ∧
      memR rel (of, nf) = true :=
  closedPreservesFromStart O N units rel start hc _ (fun u hu => by
    have ⟨e, he, eq⟩ := memMap (fun (e : (Nat → AV) × List String) => unitOfA v (bitsOf atoms e.1) e.2) hu
    rw [eq]
    show unitOfA v (bitsOf atoms e.1) e.2 ∈ units
    have g := argCoveredSound _ atoms hcov e.1
    have g2 := orLeftFalse g (hin e he)
    have ⟨u', hu', equ⟩ := anyBElim (allBElim g2 e.2 (hq e he))
    rw [← unitEqSound equ]
    exact hu') of h

end AgentWarrant.Revision.ArgCover
