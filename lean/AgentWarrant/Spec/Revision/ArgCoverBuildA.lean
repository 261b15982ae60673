import AgentWarrant.Spec.Revision.ArgCoverJsonEq
/-! The question Lean writes (`Spec/Revision/ArgCoverBuild.lean`, `wayQ`) with predicates against array or
object constants too (Agenra Sections 1 and 7.1: the closure check's coverage question). `wayQ` numbers
its literals by `Lit`'s decidable equality, so it writes no `ALit.eqJson` and answers `outside` for such
an entry; `wayQA` writes the same condition and positions with `ALit` literals, an equality or one-of
predicate's array or object constant as `ALit.eqJson c` (the literal `["json", c]` of the Python
translation, `model/revision/trusted/arg_cover.py`), and numbers them by `buildQA`
(`Spec/Revision/ArgCoverJsonEq.lean`).
* `litOfConst`: a scalar or null constant's `eqLitOf`, an array or object constant's `ALit.eqJson`;
* `grantOkA`: the fragment with such predicate constants inside when the oracle admits them (`admitted`:
  depth and names); a resource pattern's array or object constant stays outside (`patOkS`, as in
  `grantOk`), and `wayQR` (`Spec/Revision/ArgCoverResA.lean`) writes such an entry as never matching;
* `posOfA`: `posOf` with the predicates' clauses of `ALit` literals (the other clauses lifted by `liftC`).
Proved in `Thm/Revision/ArgCoverBuildA.lean`. The oracle's `arg_cover_policy` writes `wayQR`, which is
`wayQA` on entries in `grantOkA` (`Oracle/ArgCover.lean`), when an entry of the action has such a constant,
and `wayQ` otherwise
(on entries with scalar or null constants only the two write the same question: `wayQSame`,
`Thm/Revision/ArgCoverSame.lean`). -/
namespace AgentWarrant.Revision.ArgCover
open Lean AgentWarrant AgentWarrant.Monitor AgentWarrant.Monitor.Full

/-- The literal of equality to a constant (what the Python translation writes). -/
def litOfConst (c : Json) : ALit := match scalarOrNull c with
  | true => ALit.lit (eqLitOf c)
  | false => ALit.eqJson c

def predConjA : Pred → Src × List ALit
  | Pred.eq p c => (Src.path p, [litOfConst c])
  | Pred.oneOf p cs => (Src.path p, cs.map litOfConst)
  | Pred.range p lo hi => (Src.path p, [ALit.lit (Lit.range lo hi)])

/-- A predicate in the fragment: its constants admitted (scalars and null always are). -/
def predOkA : Pred → Bool
  | Pred.eq _ c => admitted c
  | Pred.oneOf _ cs => allB admitted cs
  | Pred.range _ _ _ => true

def grantOkA (g : Monitor.Full.Grant) : Bool :=
  patOkS g.pat && allB predOkA g.preds

def liftC (c : SClause) : SClauseA := c.map (fun x => ((x.1.1, ALit.lit x.1.2), x.2))

def predClauseA (rk : Src) (p : Pred) : SClauseA :=
  (predConjA p).2.map (fun l => ((reSrc rk (predConjA p).1, l), true))

/-- Where a grant lies outside `grantOkA` (`none`: inside), as the `outside` answer names it. A predicate
constant failing the oracle's checks cannot reach it (the oracle checks its whole input first). -/
def outsideWhyA (g : Monitor.Full.Grant) : Option String :=
  match patOkS g.pat, allB predOkA g.preds with
  | true, true => none
  | false, _ => some "an array or object constant as its resource"
  | true, false => some "a predicate constant failing the oracle's checks"

/-- `posOf` with the predicates' literals of the decision's kind. -/
def posOfA (a : String) (rk : Src) (keys : List String) (g : Monitor.Full.Grant) : Option (List SClauseA) :=
  match g.action == a with
  | true => some (((patConj g.pat).map (fun c => c.2.map (fun l => ((reSrc rk c.1, l), true)))).map liftC ++
      g.preds.map (predClauseA rk) ++ (slotConj rk g.pat).map liftC ++ (keyConj keys g.keys).map liftC)
  | false => none

/-- `wayQ` with `posOfA` and `buildQA`. -/
def wayQA (a : String) (tools : List Tool) (gs : List Monitor.Full.Grant) (E : Option (List Json)) (t : Tool)
    (d : EffDecl) : Option BuiltQ :=
  match wayCond a tools gs E t d with
  | none => none
  | some cond => some (buildQA (cond.map liftC) (gs.map (posOfA a (wayRes d.res) (actionKeys a (ownTools a tools) gs))))

end AgentWarrant.Revision.ArgCover
