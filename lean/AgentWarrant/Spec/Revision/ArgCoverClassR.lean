import AgentWarrant.Spec.Revision.ArgCoverClassA
import AgentWarrant.Spec.Revision.ArgCoverResA
import AgentWarrant.Spec.Revision.ArgCoverNeqQ
/-! A binding class's coverage question for an action with an entry whose resource pattern is an array or
object constant (Agenra Sections 1 and 7.1): `classQA` (`Spec/Revision/ArgCoverClassA.lean`) with `wayQR`'s
positions (`posOfR`, `Spec/Revision/ArgCoverResA.lean`: such an entry written as never matching, as the
Python translation writes it) instead of `posOfA`'s. The class's clauses are `factCl`'s on `posOf`'s
positions, as in `classQA`: an entry whose resource pattern is a constant names no slot, so the slots
`factCl` writes clauses for are those `posOfR`'s positions name. `classQNR`: a class denying equalities
between slots on the same positions, `classQN`'s denied equalities' clauses (`neqCl`, on one variable's
literals, so `Lit`s as the facts' are) after the facts', as `classQN` appends them (entries in `grantOk`
included: there `posOfR` is `posOf` lifted). Proved in `Thm/Revision/ArgCoverClassR.lean`. -/
namespace AgentWarrant.Revision.ArgCover
open Lean AgentWarrant AgentWarrant.Monitor AgentWarrant.Monitor.Full

/-- The class question of one way on `wayQR`'s positions. -/
def classQR (fs : List Fact) (a : String) (tools : List Tool) (gs : List Monitor.Full.Grant) (E : Option (List Json))
    (t : Tool) (d : EffDecl) : Option BuiltQC :=
  match wayCond a tools gs E t d with
  | none => none
  | some cond =>
    let keys := actionKeys a (ownTools a tools) gs
    some (buildQCA ((cond.map liftC).map liftSA ++ (factCl fs (wayRes d.res) (gs.map (posOf a (wayRes d.res) keys))).map liftCA)
      ((gs.map (posOfR a (wayRes d.res) keys)).map liftPA))

/-- `classQR` with the denied equalities' clauses after the facts' (`classQN`'s, on `posOfR`'s positions). -/
def classQNR (fs : List Fact) (a : String) (tools : List Tool) (gs : List Monitor.Full.Grant) (E : Option (List Json))
    (t : Tool) (d : EffDecl) : Option BuiltQC :=
  match wayCond a tools gs E t d with
  | none => none
  | some cond =>
    let keys := actionKeys a (ownTools a tools) gs
    let pos := gs.map (posOf a (wayRes d.res) keys)
    some (buildQCA ((cond.map liftC).map liftSA ++ (factCl fs (wayRes d.res) pos ++ neqCl fs (wayRes d.res) pos).map liftCA)
      ((gs.map (posOfR a (wayRes d.res) keys)).map liftPA))

end AgentWarrant.Revision.ArgCover
