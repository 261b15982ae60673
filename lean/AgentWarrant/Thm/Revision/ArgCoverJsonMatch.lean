import AgentWarrant.Thm.Revision.ArgCoverMatch
import AgentWarrant.Thm.Revision.ArgCoverJson
/-! The decision's literal of equality to an array or object constant (`ALit.eqJson`,
`Spec/Revision/ArgCover.lean`) means the monitor's matching (Agenra Section 5.2, `predHolds` in
`Spec/Monitor/Full.lean`) on the values the oracle admits: the literals Python's translation writes for an
equality or one-of predicate (`predLitA`: a scalar or null constant's `eqLitOf`, an array or object
constant's `ALit.eqJson`; `model/revision/trusted/arg_cover.py`) are the predicate on the value
`lookupPath` finds, when the constants and that value pass the oracle's depth and distinct-name checks
(`admitted`).
* `jsonConstLit`: `jeq x c` against an admitted array or object constant is its literal on an admitted `x`;
* `predEqLitA`, `predOneOfLitA`: `predHolds` of an equality or one-of predicate is its literal(s).
The hypothesis on the value is needed (`jsonRepNeedsJudged`, `Thm/Revision/ArgCoverJson.lean`); that the
values at a call's paths pass the checks is not proved here. Lean's own translation `wayQ` does not
write these literals; `wayQA` does (`Thm/Revision/ArgCoverBuildA.lean`, `posOfMatchesA`). -/
namespace AgentWarrant.Revision.ArgCover
open Lean AgentWarrant AgentWarrant.Monitor AgentWarrant.Monitor.Full

/-- The literal of equality to a constant as Python's translation writes it. -/
def predLitA (c : Json) : ALit := match scalarOrNull c with
  | true => ALit.lit (eqLitOf c)
  | false => ALit.eqJson c

theorem jsonConstLit (x c : Json) (hk : (isArrJ c || isObjJ c) = true) (hc : admitted c = true)
    (hx : admitted x = true) : jeq x c = holdsJ c (avOf x) := by
  cases x with
  | arr a =>
    show jeq (Json.arr a) c = (true && eqJsonHolds c (Json.arr a))
    rw [eqJsonLit c _ hc hx]
    rfl
  | obj o =>
    show jeq (Json.obj o) c = (true && eqJsonHolds c (Json.obj o))
    rw [eqJsonLit c _ hc hx]
    rfl
  | null => show jeq Json.null c = false; cases c <;> first | rfl | cases hk
  | bool _ => show jeq _ c = false; cases c <;> first | rfl | cases hk
  | num _ => show jeq _ c = false; cases c <;> first | rfl | cases hk
  | str _ => show jeq _ c = false; cases c <;> first | rfl | cases hk

/-- Equality to any admitted constant is `predLitA`'s literal on an admitted value. -/
theorem predLitAMeans (x c : Json) (hc : admitted c = true) (hx : admitted x = true) :
    jeq x c = holdsA (predLitA c) (avOf x) := by
  cases hs : scalarOrNull c with
  | true =>
    show jeq x c = holdsA (match scalarOrNull c with
      | true => ALit.lit (eqLitOf c)
      | false => ALit.eqJson c) (avOf x)
    rw [hs]
    exact constLit x c hs
  | false =>
    show jeq x c = holdsA (match scalarOrNull c with
      | true => ALit.lit (eqLitOf c)
      | false => ALit.eqJson c) (avOf x)
    rw [hs]
    have hk : (isArrJ c || isObjJ c) = true := by
      cases c with
      | arr _ => rfl
      | obj _ => rfl
      | null => cases hs
      | bool _ => cases hs
      | num _ => cases hs
      | str _ => cases hs
    exact jsonConstLit x c hk hc hx

theorem predLitAMissing (c : Json) : holdsA (predLitA c) AV.missing = false := by
  show holdsA (match scalarOrNull c with
    | true => ALit.lit (eqLitOf c)
    | false => ALit.eqJson c) AV.missing = false
  cases scalarOrNull c <;> rfl

/-- An equality predicate is its literal on the looked-up value, when the constant and that value are
admitted. -/
theorem predEqLitA (args : List (String × Json)) (path : List String) (c : Json) (hc : admitted c = true)
    (hx : ∀ x, lookupPath (argsJson args) path = some x → admitted x = true) :
    predHolds args (Pred.eq path c) = holdsA (predLitA c) (avOfOpt (lookupPath (argsJson args) path)) := by
  show (match lookupPath (argsJson args) path with
    | some x => jeq x c
    | none => false) = _
  cases h : lookupPath (argsJson args) path with
  | none => exact (predLitAMissing c).symm
  | some x => exact predLitAMeans x c hc (hx x h)

theorem anyLitA (x : Json) (hx : admitted x = true) : ∀ (cs : List Json), allB admitted cs = true →
    cs.any (jeq x) = cs.any (fun c => holdsA (predLitA c) (avOf x))
  | [], _ => rfl
  | c :: cs, h => by
    have ⟨h1, h2⟩ := andT h
    show (jeq x c || List.any cs (jeq x)) = (holdsA (predLitA c) (avOf x) || List.any cs (fun c => holdsA (predLitA c) (avOf x)))
    rw [predLitAMeans x c h1 hx, anyLitA x hx cs h2]

theorem anyLitAMissing : ∀ (cs : List Json), cs.any (fun c => holdsA (predLitA c) AV.missing) = false
  | [] => rfl
  | c :: cs => by
    show (holdsA (predLitA c) AV.missing || List.any cs (fun c => holdsA (predLitA c) AV.missing)) = false
    rw [predLitAMissing c, anyLitAMissing cs]
    rfl

/-- A one-of predicate is the clause of its constants' literals, when the constants and the looked-up
value are admitted. -/
theorem predOneOfLitA (args : List (String × Json)) (path : List String) (cs : List Json)
    (hc : allB admitted cs = true) (hx : ∀ x, lookupPath (argsJson args) path = some x → admitted x = true) :
    predHolds args (Pred.oneOf path cs) =
      cs.any (fun c => holdsA (predLitA c) (avOfOpt (lookupPath (argsJson args) path))) := by
  show (match lookupPath (argsJson args) path with
    | some x => cs.any (jeq x)
    | none => false) = _
  cases h : lookupPath (argsJson args) path with
  | none => exact (anyLitAMissing cs).symm
  | some x => exact anyLitA x (hx x h) cs hc

end AgentWarrant.Revision.ArgCover
