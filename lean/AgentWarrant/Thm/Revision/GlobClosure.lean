import AgentWarrant.Thm.Revision.GlobCover
import AgentWarrant.Thm.Revision.Coverage
/-! The closure check's coverage premise computed in Lean for glob resources (Agenra Sections 1 and
7.1): when every position of the old and new lists matches an effect by its resource glob alone, an
effect is a resource string with the set of requirements it satisfies, and its unit is the match bit of
every position (`unitOfG`). `globCoveredClosedPreserves`: if the closure check passes and the glob
coverage decision answers `covered` for "every match vector, with every requirement set of `reqSets`,
gives a unit of the certificate" (`unitsGood`), then every client — any finite sequence of effects over
any resource strings, with requirement sets among `reqSets` — that the old lists admit from the start
is admitted by the new lists, with related final usage. No hypothesis about the units remains: the
coverage premise of `closedPreservesFromStart` is discharged by the Lean decision.
Where the source is silent: the positions' matchers are resource globs only; an entry whose match also
reads arguments (predicates, key allowlists), slots or a constant resource is not modelled here, and
the client's requirement sets are those of `reqSets` (the Python checker's: every subset of the
requirements the lists name). -/
namespace AgentWarrant.Revision.Glob
open AgentWarrant AgentWarrant.Monitor.Full AgentWarrant.Revision.Closure

/-- Every position of the old and of the new lists, as the tokens of its resource glob. -/
structure GView where
  oldG : List (List (List GlobTok))
  newG : List (List (List GlobTok))

def listsBits : List (List (List GlobTok)) → List Char → List (List Bool)
  | [], _ => []
  | row :: rows, w => vecG row w :: listsBits rows w

/-- An effect's unit: the match bit of every position, and its requirement set. -/
def unitOfG (v : GView) (w : List Char) (q : List String) : Unit' := ⟨listsBits v.oldG w, listsBits v.newG w, q⟩

def flat : List (List (List GlobTok)) → List (List GlobTok)
  | [] => []
  | row :: rows => row ++ flat rows

def positions (v : GView) : List (List GlobTok) := flat v.oldG ++ flat v.newG

def takeN : List (List GlobTok) → List Bool → List Bool × List Bool
  | [], bs => ([], bs)
  | _ :: _, [] => ([], [])
  | _ :: row, b :: bs => (b :: (takeN row bs).1, (takeN row bs).2)

def takeShape : List (List (List GlobTok)) → List Bool → List (List Bool) × List Bool
  | [], bs => ([], bs)
  | row :: rows, bs => ((takeN row bs).1 :: (takeShape rows (takeN row bs).2).1, (takeShape rows (takeN row bs).2).2)

/-- A flat match vector read back as a unit, list by list. -/
def unitOfBits (v : GView) (bs : List Bool) (q : List String) : Unit' :=
  ⟨(takeShape v.oldG bs).1, (takeShape v.newG (takeShape v.oldG bs).2).1, q⟩

/-- The coverage test of one match vector: with every requirement set, its unit is one of the certificate's. -/
def unitsGood (v : GView) (units : List Unit') (reqSets : List (List String)) (bs : List Bool) : Bool :=
  allB (fun q => anyB (fun u => unitEq u (unitOfBits v bs q)) units) reqSets

theorem vecGAppend (w : List Char) : ∀ (A B : List (List GlobTok)), vecG (A ++ B) w = vecG A w ++ vecG B w
  | [], B => rfl
  | g :: A, B => by
    rw [List.cons_append]
    show globMatch g w :: vecG (A ++ B) w = (globMatch g w :: vecG A w) ++ vecG B w
    rw [List.cons_append, vecGAppend w A B]

theorem takeNOk (w : List Char) : ∀ (row : List (List GlobTok)) (rest : List Bool), takeN row (vecG row w ++ rest) = (vecG row w, rest)
  | [], rest => rfl
  | g :: row, rest => by
    show takeN (g :: row) ((globMatch g w :: vecG row w) ++ rest) = (globMatch g w :: vecG row w, rest)
    rw [List.cons_append]
    show (globMatch g w :: (takeN row (vecG row w ++ rest)).1, (takeN row (vecG row w ++ rest)).2) = (globMatch g w :: vecG row w, rest)
    rw [takeNOk w row rest]

theorem takeShapeOk (w : List Char) : ∀ (rows : List (List (List GlobTok))) (rest : List Bool),
    takeShape rows (vecG (flat rows) w ++ rest) = (listsBits rows w, rest)
  | [], rest => rfl
  | row :: rows, rest => by
    have e : vecG (flat (row :: rows)) w ++ rest = vecG row w ++ (vecG (flat rows) w ++ rest) := by
      show vecG (row ++ flat rows) w ++ rest = _
      rw [vecGAppend, List.append_assoc]
    rw [e]
    show ((takeN row (vecG row w ++ (vecG (flat rows) w ++ rest))).1 ::
        (takeShape rows (takeN row (vecG row w ++ (vecG (flat rows) w ++ rest))).2).1,
        (takeShape rows (takeN row (vecG row w ++ (vecG (flat rows) w ++ rest))).2).2) = (vecG row w :: listsBits rows w, rest)
    rw [takeNOk w row, takeShapeOk w rows rest]

theorem unitOfBitsOk (v : GView) (w : List Char) (q : List String) :
    unitOfBits v (vecG (positions v) w) q = unitOfG v w q := by
  have e : vecG (positions v) w = vecG (flat v.oldG) w ++ (vecG (flat v.newG) w ++ []) := by
    show vecG (flat v.oldG ++ flat v.newG) w = _
    rw [vecGAppend, List.append_nil]
  show Unit'.mk (takeShape v.oldG (vecG (positions v) w)).1
    (takeShape v.newG (takeShape v.oldG (vecG (positions v) w)).2).1 q = Unit'.mk (listsBits v.oldG w) (listsBits v.newG w) q
  rw [e, takeShapeOk w v.oldG, takeShapeOk w v.newG]

/-- Closure checked in Lean and glob coverage decided in Lean preserve every client over every resource
string, at every length. -/
theorem globCoveredClosedPreserves (O N : List (List LEntry)) (units : List Unit')
    (rel : List (Usage × Usage)) (start : Usage × Usage) (v : GView) (reqSets : List (List String)) (fuel : Nat)
    (hc : closedC O N units rel start = true)
    (hcov : coverDecide (unitsGood v units reqSets) (positions v) fuel = Answer.covered)
    (client : List (List Char × List String)) (hq : ∀ e, e ∈ client → e.2 ∈ reqSets) (of : Usage)
    (h : runSide true O start.1 (client.map (fun e => unitOfG v e.1 e.2)) = some of) :
    ∃ nf, runSide false N start.2 (client.map (fun e => unitOfG v e.1 e.2)) = some nf ∧ memR rel (of, nf) = true :=
  closedPreservesFromStart O N units rel start hc _ (fun u hu => by
    have ⟨e, he, eq⟩ := memMap (fun (e : List Char × List String) => unitOfG v e.1 e.2) hu
    rw [eq]
    show unitOfG v e.1 e.2 ∈ units
    have hg := globCoveredSound _ _ fuel hcov e.1 _ (vecGMeaning e.1 (positions v))
    have ⟨u', hu', equ⟩ := anyBElim (allBElim hg e.2 (hq e he))
    rw [unitOfBitsOk] at equ
    rw [← unitEqSound equ]
    exact hu') of h

end AgentWarrant.Revision.Glob
