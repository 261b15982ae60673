import AgentWarrant.Oracle.ArgCover
import AgentWarrant.Spec.Revision.ArgCoverClassA
import AgentWarrant.Spec.Revision.ArgCoverNeqQ
import AgentWarrant.Spec.Revision.ArgCoverClassR
/-! The `arg_cover_class` judgment: a binding class's coverage question written in Lean from the class's
facts (`Revision.ArgCover.classQ`, `Spec/Revision/ArgCoverClass.lean`; its meaning
`Revision.ArgCover.classCoverMatches`; for an action whose entries compare with array or object constants,
`Revision.ArgCover.classQA` on `wayQA`'s positions, `Spec/Revision/ArgCoverClassA.lean`, its meaning
`Revision.ArgCover.classCoverMatchesA`) and decided way by way (Agenra Sections 1 and 7.1).

Input (every key required): `arg_cover_policy`'s (`action`, `entries`, `tools`, `resources`, `listed`) and
`"facts": [[slot, fact, holds]…]`, a fact being `{"slot": t}` (the slot's value equals slot `t`'s),
`{"glob": g}` or `{"const": c}` (a scalar or null constant), `holds` whether the class asserts it.
Output: `arg_cover_policy`'s, a source of a group's value variable written `{"value": g}` (`g` the group's
least slot). An action with an entry whose resource pattern is an array or object constant gets
`classQR` (`Spec/Revision/ArgCoverClassR.lean`: `classQA` on `wayQR`'s positions, such an entry never
matching; its meaning `Revision.ArgCover.classCoverMatchesR`). A class denying an equality between slots
(`apartFree` false) gets `classQN` (`Spec/Revision/ArgCoverNeqQ.lean`, the denied equalities' clauses added;
its meaning `Revision.ArgCover.classNeqCoverMatches`) when the action's entries are in `grantOk`, else
`classQNR` (the same clauses on `classQR`'s question, its meaning `Revision.ArgCover.classNeqCoverMatchesR`),
and the answer carries `"exact": false`: `covered` is the class's coverage; an `uncovered` witness is proved a
binding state of the class without its denials (`Thm.bindingClassUncoveredIsBindingStateN`,
`Thm.bindingClassUncoveredIsBindingStateNR`), not proved one of the class itself (its group values need not
differ where the class denies an equality), so the caller does not take it as final. `outside` (the caller
writes the question itself) only when an entry of the action lies outside `grantOkR` (a predicate constant
failing the oracle's checks, which the input check refuses first); `outside` then names the entries, as
`arg_cover_policy` does (`outsideOfR`). -/
namespace AgentWarrant.Oracle.ArgCoverClass
open Lean AgentWarrant.Oracle AgentWarrant.Oracle.ArgCover AgentWarrant.Monitor.Full AgentWarrant.Revision.ArgCover

def fpatOf (j : Json) : Dec FPat := do
  match j.getObjValAs? String "slot", j.getObjValAs? String "glob", j.getObjVal? "const" with
  | Except.ok t, _, _ => pure (FPat.slot t)
  | _, Except.ok g, _ => pure (FPat.lit (Lit.glob (globToks g.toList)))
  | _, _, Except.ok c => match scalarOrNull c with
    | true => pure (FPat.lit (eqLitOf c))
    | false => throw s!"facts: a fact's constant is a scalar or null, not {c.compress}"
  | _, _, _ => throw s!"facts: a fact is {"{"}\"slot\": t}, {"{"}\"glob\": g} or {"{"}\"const\": c}, not {j.compress}"

def factOf (j : Json) : Dec Fact := do
  match j.getArr? with
  | Except.ok a => match a.toList with
    | [Json.str s, p, Json.bool h] => pure (s, ← fpatOf p, h)
    | _ => throw s!"facts: a fact is [slot, fact, holds], not {j.compress}"
  | Except.error _ => throw s!"facts: a fact is [slot, fact, holds], not {j.compress}"

def srcJC : CSrc → Json
  | CSrc.src x => srcJ x
  | CSrc.value g => Json.mkObj [("value", toJson g)]

def questionJC (q : BuiltQC) (listed : List String) : Json := Json.mkObj [
  ("names", Json.arr (q.names.map srcJC).toArray),
  ("atoms", Json.arr (q.atoms.map (fun a => Json.arr #[toJson a.1, aLitJ a.2])).toArray),
  ("cond", cnfJ q.cond),
  ("positions", Json.arr (q.pos.map (fun p => match p with | none => Json.null | some f => cnfJ f)).toArray),
  ("listed", toJson listed.toArray)]

/-- The first uncovered way's answer, else covered; every question written back. -/
def decideWaysC (listedS : List String) (listed : List (List Bool)) : List BuiltQC → List Json → Json
  | [], qs => Json.mkObj [("answer", toJson "covered"), ("reason", Json.null), ("names", Json.null),
      ("witness", Json.null), ("vector", Json.null), ("questions", Json.arr qs.toArray)]
  | q :: rest, qs => match argCover (good q.cond q.pos listed) q.atoms with
    | Answer.uncovered xs =>
      let vals := (List.range (maxVar q.atoms)).map (fun i => avJson (getV xs i))
      Json.mkObj [("answer", toJson "uncovered"), ("reason", Json.null),
        ("names", Json.arr (q.names.map srcJC).toArray), ("witness", Json.arr vals.toArray),
        ("vector", toJson (bitsStr (q.pos.map (posBit (bitsOf q.atoms (getV xs)))))),
        ("questions", Json.arr (qs ++ [questionJC q listedS] ++ rest.map (fun r => questionJC r listedS)).toArray)]
    | _ => decideWaysC listedS listed rest (qs ++ [questionJC q listedS])

def somesQC : List (Option BuiltQC) → List BuiltQC
  | [] => []
  | none :: r => somesQC r
  | some q :: r => q :: somesQC r

/-- The answer on decoded inputs: the routing on the action's entries (`grantOk`, `grantOkA`, `grantOkR`) and
the class's denials (`apartFree`) to one of the five writers, or `outside`. -/
def classAllOut (fs : List Fact) (a : String) (tools : List Tool) (gs : List Monitor.Full.Grant)
    (E : Option (List Json)) (listedS : List String) (listed : List (List Bool)) : Json :=
  -- scalar constants only: `classQ` (`classCoverMatches`); array or object predicate constants too:
  -- `classQA` (`classCoverMatchesA`); array or object resource constants too: `classQR` (`classCoverMatchesR`)
  match allB grantOk (ofAction a gs), allB grantOkA (ofAction a gs), allB grantOkR (ofAction a gs), apartFree fs with
  | true, _, _, true =>
    let qs := somesQC ((ways a tools).map (fun w => classQ fs a tools gs E w.1 w.2))
    decideWaysC listedS listed qs []
  | false, true, _, true =>
    let qs := somesQC ((ways a tools).map (fun w => classQA fs a tools gs E w.1 w.2))
    decideWaysC listedS listed qs []
  | false, false, true, true =>
    let qs := somesQC ((ways a tools).map (fun w => classQR fs a tools gs E w.1 w.2))
    decideWaysC listedS listed qs []
  | true, _, _, false =>
    -- the denied equalities' clauses are implied by the class, not equivalent to it: `covered` is the
    -- class's coverage (`classNeqCoverMatches`), an `uncovered` witness is a binding state of the class
    -- without its denials only
    let qs := somesQC ((ways a tools).map (fun w => classQN fs a tools gs E w.1 w.2))
    (decideWaysC listedS listed qs []).setObjVal! "exact" (toJson false)
  | false, _, true, false =>
    -- as `classQN`, on `classQR`'s question (`classNeqCoverMatchesR`)
    let qs := somesQC ((ways a tools).map (fun w => classQNR fs a tools gs E w.1 w.2))
    (decideWaysC listedS listed qs []).setObjVal! "exact" (toJson false)
  | _, _, _, _ => outsideJ a (outsideOfR a 0 gs)

/-- What the judgment decodes besides the tools: facts, action, entries, resources, listed vectors (their
strings and bits). -/
abbrev ClassRest := List Fact × String × List Monitor.Full.Grant × Option (List Json) × List String × List (List Bool)

/-- The input besides the tools, decoded in the order the judgment reads it (action, entries, resources,
listed vectors, facts); the judgment (`argCoverClassChkJ`, `Oracle/ArgCoverToolChk.lean`) decodes the tools
first and the rest only when the tools pass its check. -/
def classRestJ (j : Json) : Dec ClassRest := do
  let a ← getAs String j "action"
  let gs ← arrOf Oracle.MonitorFull.grantOf j "entries"
  let E ← match ← req j "resources" with
    | Json.null => pure none
    | r => match r.getArr? with
      | Except.ok xs => pure (some xs.toList)
      | Except.error _ => throw "resources: expected a list or null"
  let listedS ← strList j "listed"
  let listed ← listedS.mapM (fun s => bitsOfStr s gs.length "listed")
  let fs ← arrOf factOf j "facts"
  pure (fs, a, gs, E, listedS, listed)

end AgentWarrant.Oracle.ArgCoverClass
