import AgentWarrant.Spec.Revision.ArgCoverClass
/-! A binding class's coverage question written in Lean when the class denies an equality between two slots
(Agenra Sections 1 and 7.1: a certificate must hold in every binding state; a binding class lists facts
about bound values, among them "slot `s`'s value is not slot `t`'s"). `classQ`
(`Spec/Revision/ArgCoverClass.lean`) writes the class's facts on one variable each; an inequality relates two
values, so it is eliminated as `neqWritten` (`Spec/Revision/ArgCoverNeq.lean`) writes it and as the Python
translation's `_apart_clauses` (model/revision/trusted/arg_cover.py) does: per denied equality between slots
`s` and `t`, in the facts' order,
* when the class's asserted equalities put `s` and `t` in one group (`grpOf`), the empty clause (the class
  has no binding state);
* otherwise, for every slot `a` of `s`'s group and `b` of `t`'s that the question names (the order and the
  slots `factCl` takes, `sortS (factSlots fs)` filtered by `namesSlot`): not both match, i.e. one of the two
  slot variables absent or the resource not a valid slot value (both matching would bind both slots to the
  resource, making the two values equal).
These clauses follow `factCl`'s (`classQN`). They are implied by the class, not equivalent to it (the
inequalities also constrain the groups' values among themselves and against the resource, which no clause
on one variable states): a `covered` answer is the class's coverage (`Thm/Revision/ArgCoverNeqQ.lean`), an
`uncovered` one may stand for no binding state. -/
namespace AgentWarrant.Revision.ArgCover
open Lean AgentWarrant AgentWarrant.Monitor AgentWarrant.Monitor.Full

/-- Slots `a` and `b` do not both match on the way reading its resource at `rk`. -/
def neqPairCl (rk : Src) (a b : String) : CClause :=
  [((CSrc.src (Src.slot a), Lit.present), false), ((CSrc.src (Src.slot b), Lit.present), false),
    ((CSrc.src rk, Lit.scalar), false), ((CSrc.src rk, Lit.eqStr []), true)]

/-- The slots of group `g` the positions name, in `factCl`'s order. -/
def neqGroupSlots (fs : List Fact) (pos : List (Option (List SClause))) (g : String) : List String :=
  filt (fun x => namesSlot pos x && decide (grpOf fs x = g)) (sortS (factSlots fs))

/-- One fact's clauses: none unless it denies an equality between slots. -/
def neqFactCl (fs : List Fact) (rk : Src) (pos : List (Option (List SClause))) : Fact → List CClause
  | (s, FPat.slot t, false) => match decide (grpOf fs s = grpOf fs t) with
    | true => [[]]
    | false => ((neqGroupSlots fs pos (grpOf fs s)).map (fun a =>
        (neqGroupSlots fs pos (grpOf fs t)).map (neqPairCl rk a))).join
  | _ => []

/-- The class's denied equalities as clauses (`_apart_clauses`). -/
def neqCl (fs : List Fact) (rk : Src) (pos : List (Option (List SClause))) : List CClause :=
  (fs.map (neqFactCl fs rk pos)).join

/-- `classQ` with the denied equalities' clauses after the facts' (as `_fact_clauses` appends them). -/
def classQN (fs : List Fact) (a : String) (tools : List Tool) (gs : List Monitor.Full.Grant) (E : Option (List Json))
    (t : Tool) (d : EffDecl) : Option BuiltQC :=
  match wayCond a tools gs E t d with
  | none => none
  | some cond =>
    let pos := gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a tools) gs))
    some (buildQC ((liftF cond ++ factCl fs (wayRes d.res) pos) ++ neqCl fs (wayRes d.res) pos) (pos.map liftP))

end AgentWarrant.Revision.ArgCover
