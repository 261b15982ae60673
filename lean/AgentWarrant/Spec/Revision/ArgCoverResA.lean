import AgentWarrant.Spec.Revision.ArgCoverBuildA
/-! The question Lean writes (`wayQA`, `Spec/Revision/ArgCoverBuildA.lean`) with an array or object
constant as an entry's resource pattern too (Agenra Sections 1 and 7.1: the closure check's coverage
question). `wayQA` leaves such an entry outside its fragment (`patOkS`); here its position is written as
never matching (`none`), as the Python translation (`model/revision/trusted/arg_cover.py`) writes it.
That is the monitor's matching on every call it prepares when no tool declares an array or object
resource constant: the resource the monitor compares with the pattern is then a scalar or null (an
argument resource and a list argument's element are scalars, preparation refuses others), and `jeq` of an
array or object with a scalar or null is false (`Thm/Revision/ArgCoverResA.lean`).
* `resStruct`: the pattern is an array or object constant;
* `grantOkR`: the fragment is `grantOkA`'s with such resource patterns inside: only a predicate constant
  failing the oracle's checks stays outside (which the oracle's input check refuses first);
* `posOfR`: `none` for such an entry, else `posOfA`'s clauses; `wayQR`: `wayQA` with `posOfR` (on entries
  with no such pattern the two write the same question). -/
namespace AgentWarrant.Revision.ArgCover
open Lean AgentWarrant AgentWarrant.Monitor AgentWarrant.Monitor.Full

/-- An array or object constant as a resource pattern. -/
def resStruct : Pat → Bool
  | Pat.const c => !scalarOrNull c
  | _ => false

/-- A grant in the fragment `wayQR` writes: its predicates' constants admitted (any resource pattern). -/
def grantOkR (g : Monitor.Full.Grant) : Bool := allB predOkA g.preds

/-- Where a grant lies outside `grantOkR` (`none`: inside), as the `outside` answer names it. -/
def outsideWhyR (g : Monitor.Full.Grant) : Option String :=
  match allB predOkA g.preds with
  | true => none
  | false => some "a predicate constant failing the oracle's checks"

/-- `posOfA`, with an array or object resource constant's entry never matching. -/
def posOfR (a : String) (rk : Src) (keys : List String) (g : Monitor.Full.Grant) : Option (List SClauseA) :=
  match resStruct g.pat with
  | true => none
  | false => posOfA a rk keys g

/-- `wayQA` with `posOfR`. -/
def wayQR (a : String) (tools : List Tool) (gs : List Monitor.Full.Grant) (E : Option (List Json)) (t : Tool)
    (d : EffDecl) : Option BuiltQ :=
  match wayCond a tools gs E t d with
  | none => none
  | some cond => some (buildQA (cond.map liftC) (gs.map (posOfR a (wayRes d.res) (actionKeys a (ownTools a tools) gs))))

end AgentWarrant.Revision.ArgCover
