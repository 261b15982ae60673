import AgentWarrant.Spec.Revision.ArgCoverClass
import AgentWarrant.Spec.Revision.ArgCoverBuildA
/-! A binding class's coverage question for an action whose entries compare with array or object constants
(Agenra Sections 1 and 7.1): `classQ` (`Spec/Revision/ArgCoverClass.lean`) built on `wayQA`'s positions
(`Spec/Revision/ArgCoverBuildA.lean`) instead of `wayQ`'s. The class's clauses are `factCl`'s, unchanged
(a fact's literal is a `Lit`: the class's constants are scalars or null); which slots they are written for
is read from `posOf`'s positions, whose slot variables are `posOfA`'s (`slotConj`, lifted by `liftC`).
Literals are `CSrc × ALit`, kept once each and numbered by `cLitABeq` as `buildQA` numbers `SLitA`
(`buildQCA`). Proved in `Thm/Revision/ArgCoverClassA.lean`. -/
namespace AgentWarrant.Revision.ArgCover
open Lean AgentWarrant AgentWarrant.Monitor AgentWarrant.Monitor.Full

abbrev CLitA := CSrc × ALit
abbrev CClauseA := List (CLitA × Bool)

def cLitABeq (x y : CLitA) : Bool := decide (x.1 = y.1) && aLitBeq x.2 y.2

def cClauseHoldsA (val : CSrc → AV) (c : CClauseA) : Bool := anyB (fun x => decide (holdsA x.1.2 (val x.1.1) = x.2)) c

def cCnfHoldsA (val : CSrc → AV) (f : List CClauseA) : Bool := allB (cClauseHoldsA val) f

/-- A way's clause, its literals of the decision's kind, on the class question's sources. -/
def liftSA (c : SClauseA) : CClauseA := c.map (fun x => ((CSrc.src x.1.1, x.1.2), x.2))

/-- A class clause with its `Lit` literals as `ALit.lit`. -/
def liftCA (c : CClause) : CClauseA := c.map (fun x => ((x.1.1, ALit.lit x.1.2), x.2))

def liftPA : Option (List SClauseA) → Option (List CClauseA)
  | none => none
  | some f => some (f.map liftSA)

def litsOfCCA (c : CClauseA) : List CLitA := c.map (fun x => x.1)

def litsOfFCA (f : List CClauseA) : List CLitA := (f.map litsOfCCA).join

def posLitsCA : List (Option (List CClauseA)) → List CLitA
  | [] => []
  | none :: ps => posLitsCA ps
  | some f :: ps => litsOfFCA f ++ posLitsCA ps

def numCCA (syms : List CLitA) (c : CClauseA) : Clause := c.map (fun x => (idxOfB cLitABeq x.1 syms, x.2))

def numFCA (syms : List CLitA) (f : List CClauseA) : List Clause := f.map (numCCA syms)

def numPCA (syms : List CLitA) : Option (List CClauseA) → Option (List Clause)
  | none => none
  | some f => some (numFCA syms f)

/-- `buildQA` on `CSrc`. -/
def buildQCA (cond : List CClauseA) (pos : List (Option (List CClauseA))) : BuiltQC :=
  let syms := dedupB cLitABeq [] (litsOfFCA cond ++ posLitsCA pos)
  let names := dedupL [] (syms.map (fun x => x.1))
  ⟨names, syms.map (fun x => (idxOf x.1 names, x.2)), numFCA syms cond, pos.map (numPCA syms)⟩

/-- The class question of one way on `wayQA`'s positions: the way's condition and the class's clauses
(`factCl`, as `classQ` writes them), with `posOfA`'s positions. -/
def classQA (fs : List Fact) (a : String) (tools : List Tool) (gs : List Monitor.Full.Grant) (E : Option (List Json))
    (t : Tool) (d : EffDecl) : Option BuiltQC :=
  match wayCond a tools gs E t d with
  | none => none
  | some cond =>
    let keys := actionKeys a (ownTools a tools) gs
    some (buildQCA ((cond.map liftC).map liftSA ++ (factCl fs (wayRes d.res) (gs.map (posOf a (wayRes d.res) keys))).map liftCA)
      ((gs.map (posOfA a (wayRes d.res) keys)).map liftPA))

end AgentWarrant.Revision.ArgCover
