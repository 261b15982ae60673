import AgentWarrant.Spec.Revision.Closure
import AgentWarrant.Spec.Monitor.Full
/-! Boolean checks of the two premises the closure check's whole-monitor theorem takes on its units
(Agenra Sections 1 and 7.1), so that Lean decides them on the certificate instead of assuming them.

`cwuUnitsFromB` asks that for every action of `acts`, every vector listed for it and every
requirement set of `Qs`, the units hold the unit whose bits are that vector split at the four lists'
lengths (old user, old application, new user; the rest is the new application list's) with that
requirement set. `cwuReqsInB R gs` asks that `R` name the requirement of every grant of `gs` that has
one.

Choices where the source is silent: only actions of `acts` are checked, so the theorem reads the
listed vectors through `cwuOnly acts listed` (no vector for an action outside `acts`); the coverage
oracle is asked about the actions of `acts` alone, where the two agree. Units are compared field by
field with the core library's list equality, so a unit with the right vector and requirement set in
another order does not count. -/
namespace AgentWarrant.Monitor.Full
open AgentWarrant AgentWarrant.Revision

/-- The first `n` bits of a vector and the rest (fewer if the vector is short). -/
def cwuSplit : Nat → List Bool → List Bool × List Bool
  | 0, w => ([], w)
  | _ + 1, [] => ([], [])
  | n + 1, b :: w => (b :: (cwuSplit n w).1, (cwuSplit n w).2)

def cwuU3 (q : List String) (a b : List Bool) (s : List Bool × List Bool) : Closure.Unit' :=
  ⟨[a, b], [s.1, s.2], q⟩

def cwuU2 (n3 : Nat) (q : List String) (a : List Bool) (s : List Bool × List Bool) : Closure.Unit' :=
  cwuU3 q a s.1 (cwuSplit n3 s.2)

def cwuU1 (n2 n3 : Nat) (q : List String) (s : List Bool × List Bool) : Closure.Unit' :=
  cwuU2 n3 q s.1 (cwuSplit n2 s.2)

/-- The unit a listed vector `w` with requirement set `q` stands for, `w` split at the lengths of
the first three lists. -/
def cwuU (n1 n2 n3 : Nat) (w : List Bool) (q : List String) : Closure.Unit' :=
  cwuU1 n2 n3 q (cwuSplit n1 w)

def cwuIf (b : Bool) (x : List (List Bool)) : List (List Bool) :=
  match b with
  | true => x
  | false => []

/-- `units` holds a unit equal to `u` field by field. -/
def cwuHas (units : List Closure.Unit') (u : Closure.Unit') : Bool :=
  anyB (fun x => Decidable.decide (x.old = u.old) && (Decidable.decide (x.new = u.new) &&
    Decidable.decide (x.reqs = u.reqs))) units

/-- Every vector listed for an action of `acts`, with every requirement set of `Qs`, has its unit,
the first three lists of lengths `n1`, `n2`, `n3`. -/
def cwuUnitsFromN (units : List Closure.Unit') (n1 n2 n3 : Nat) (acts : List String)
    (listed : String → List (List Bool)) (Qs : List (List String)) : Bool :=
  allB (fun a => allB (fun w => allB (fun q => cwuHas units (cwuU n1 n2 n3 w q)) Qs) (listed a)) acts

/-- `cwuUnitsFromN` at the lengths of the old user, old application and new user lists. -/
def cwuUnitsFromB (units : List Closure.Unit') (p : Policy) (u' : List Grant) (acts : List String)
    (listed : String → List (List Bool)) (Qs : List (List String)) : Bool :=
  cwuUnitsFromN units (List.length p.user) (List.length p.app) (List.length u') acts listed Qs

/-- Every sublist of `R`, each in `R`'s order (the same as `cwSubsets`, `cwuSubsetsEq`). -/
def cwuSubsets : List String → List (List String)
  | [] => [[]]
  | r :: rs => List.map (fun q => r :: q) (cwuSubsets rs) ++ cwuSubsets rs

/-- The vectors listed for `a` in an association list (all entries named `a`, in order). -/
def cwuListedOf : List (String × List (List Bool)) → String → List (List Bool)
  | [], _ => []
  | (b, ws) :: L, a => cwuIf (b == a) ws ++ cwuListedOf L a

/-- The listed vectors of the actions of `acts`; none for any other action. -/
def cwuOnly (acts : List String) (listed : String → List (List Bool)) (a : String) : List (List Bool) :=
  cwuIf (Closure.memS acts a) (listed a)

/-- `R` names the requirement of every grant of `gs` that has one. -/
def cwuReqsInB (R : List String) (gs : List Grant) : Bool :=
  allB (fun g => Closure.reqOk R g.requires) gs

/-- `R` names the requirement of every entry of the lists that has one (the oracle's form of
`cwuReqsInB`, on the closure check's entries). -/
def cwuReqsInL (R : List String) (L : List (List Closure.LEntry)) : Bool :=
  allB (fun es => allB (fun e => Closure.reqOk R e.requires) es) L

end AgentWarrant.Monitor.Full
