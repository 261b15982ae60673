import AgentWarrant.Spec.Revision.ArgCoverBuild
import AgentWarrant.Spec.Revision.ArgCoverFacts
/-! A binding class's coverage question written in Lean from the class's facts (Agenra Sections 1 and 7.1:
"a certificate must hold in every binding state"; a simulation per binding class lists facts about the
values slots are bound to and proves each class's coverage with the facts added to every question).
`wayQ` (`Spec/Revision/ArgCoverBuild.lean`) writes the unit-level question; here the class's facts are
added to it, as the Python translation's `_fact_clauses` (model/revision/trusted/arg_cover.py) adds them.

The facts: a slot's value matches a constant (`eqLitOf`) or a glob, or equals another slot's value, each
asserted or denied. Written:
* groups (`grpOf`): the slots the class asserts equal, each group named by its least slot (the Python
  translation's union–find keeps the least root), found by closing under the asserted equalities with one
  round per fact (`reach`);
* per group `g`, a value variable (`CSrc.value g`, `<value:g>` in Python): a valid slot value (`slotOk`:
  a scalar, not the empty string) with the group's constant and glob facts, each literal true or false as
  the class says (`factsOk`'s clauses);
* per slot the question's positions name (its variable `Src.slot s` among their literals), one clause per
  fact of its group: when the slot pattern matches (its variable present, the resource a valid slot
  value), the resource has the fact (`factsWritten`'s clauses, whose elimination `factsElim` proves exact).
The class question's sources are `CSrc`: the way's sources, and the value variables, apart from `Src` so
the unit-level question and its theorems are untouched; numbering is `buildQ`'s, on `CSrc`
(`buildQC`). Choices where the source is silent: a class denying that two slots' values are equal is not
written here (`apartFree`: such a relation between two values is no literal on one variable; the Python
caller writes it, `_apart_clauses`, and says so). -/
namespace AgentWarrant.Revision.ArgCover
open Lean AgentWarrant AgentWarrant.Monitor AgentWarrant.Monitor.Full

/-- What a fact says of a slot's value: a literal (a constant's `eqLitOf`, a glob) or equality to
another slot's value. -/
inductive FPat where
  | lit (l : Lit)
  | slot (t : String)

/-- A fact: the slot, what it says, and whether the class asserts it (`false`: denies it). -/
abbrev Fact := String × FPat × Bool

/-- A source of the class question: one of the way's, or a group's value. -/
inductive CSrc where
  | src (s : Src)
  | value (g : String)
  deriving DecidableEq

abbrev CLit := CSrc × Lit
abbrev CClause := List (CLit × Bool)

def cClauseHolds (val : CSrc → AV) (c : CClause) : Bool := anyB (fun x => decide (holds x.1.2 (val x.1.1) = x.2)) c

def cCnfHolds (val : CSrc → AV) (f : List CClause) : Bool := allB (cClauseHolds val) f

def liftSC (c : SClause) : CClause := c.map (fun x => ((CSrc.src x.1.1, x.1.2), x.2))

def liftF (f : List SClause) : List CClause := f.map liftSC

def liftP : Option (List SClause) → Option (List CClause)
  | none => none
  | some f => some (liftF f)

-- groups -------------------------------------------------------------------------------------------------

/-- The slots a fact names. -/
def factSlots1 : Fact → List String
  | (s, FPat.slot t, _) => [s, t]
  | (s, _, _) => [s]

def factSlots (fs : List Fact) : List String := dedupL [] (fs.map factSlots1).join

/-- The asserted equalities between slots. -/
def eqPairs : List Fact → List (String × String)
  | [] => []
  | (s, FPat.slot t, true) :: fs => (s, t) :: eqPairs fs
  | _ :: fs => eqPairs fs

def memSl (x : String) (l : List String) : Bool := anyB (fun y => decide (y = x)) l

/-- One round: the slots an asserted equality joins to one of `S`. -/
def reachStep (E : List (String × String)) (S : List String) : List String :=
  dedupL S ((E.map (fun p => match memSl p.1 S, memSl p.2 S with
    | true, _ => [p.2]
    | _, true => [p.1]
    | _, _ => [])).join)

def reach (E : List (String × String)) : Nat → List String → List String
  | 0, S => S
  | n + 1, S => reach E n (reachStep E S)

def minS (m : String) : List String → String
  | [] => m
  | x :: xs => match decide (x < m) with
    | true => minS x xs
    | false => minS m xs

/-- A slot's group: the least slot joined to it by the asserted equalities (one round per fact). -/
def grpOf (fs : List Fact) (s : String) : String := minS s (reach (eqPairs fs) fs.length [s])

def insS (x : String) : List String → List String
  | [] => [x]
  | y :: ys => match decide (y < x) with
    | true => y :: insS x ys
    | false => x :: y :: ys

def sortS : List String → List String
  | [] => []
  | x :: xs => insS x (sortS xs)

/-- A group's constant and glob facts, each with the truth the class asserts. -/
def groupLits (fs : List Fact) (g : String) : List (Lit × Bool) :=
  (fs.map (fun f => match f with
    | (s, FPat.lit l, h) => match decide (grpOf fs s = g) with
      | true => [(l, h)]
      | false => []
    | _ => [])).join

def groupsOf (fs : List Fact) : List String := sortS (dedupL [] ((factSlots fs).map (grpOf fs)))

/-- The class denies no equality between slots (those classes are the Python caller's). -/
def apartFree : List Fact → Bool
  | [] => true
  | (_, FPat.slot _, false) :: _ => false
  | _ :: fs => apartFree fs

-- the class's clauses ------------------------------------------------------------------------------------

/-- A group's value: valid, with the group's facts. -/
def valueCl (F : List (Lit × Bool)) (g : String) : List CClause :=
  [[((CSrc.value g, Lit.scalar), true)], [((CSrc.value g, Lit.eqStr []), false)]] ++
    F.map (fun f => [((CSrc.value g, f.1), f.2)])

/-- A slot's clauses on the way whose resource is read at `rk`: when its pattern matches, the resource
has its group's facts. -/
def slotCl (F : List (Lit × Bool)) (rk : Src) (s : String) : List CClause :=
  F.map (fun f => [((CSrc.src (Src.slot s), Lit.present), false), ((CSrc.src rk, Lit.scalar), false),
    ((CSrc.src rk, Lit.eqStr []), true), ((CSrc.src rk, f.1), f.2)])

/-- Whether the positions name slot `s`'s variable. -/
def namesSlot (pos : List (Option (List SClause))) (s : String) : Bool :=
  anyB (fun x => decide (x.1 = Src.slot s)) (posLits pos)

/-- The class's clauses on a way (`rk` where it reads its resource, `pos` its positions). -/
def factCl (fs : List Fact) (rk : Src) (pos : List (Option (List SClause))) : List CClause :=
  ((groupsOf fs).map (fun g => valueCl (groupLits fs g) g)).join ++
    ((filt (namesSlot pos) (sortS (factSlots fs))).map (fun s => slotCl (groupLits fs (grpOf fs s)) rk s)).join

-- numbering on `CSrc` -----------------------------------------------------------------------------------

structure BuiltQC where
  names : List CSrc
  atoms : List Atom
  cond : List Clause
  pos : List (Option (List Clause))

def litsOfCC (c : CClause) : List CLit := c.map (fun x => x.1)

def litsOfFC (f : List CClause) : List CLit := (f.map litsOfCC).join

def posLitsC : List (Option (List CClause)) → List CLit
  | [] => []
  | none :: ps => posLitsC ps
  | some f :: ps => litsOfFC f ++ posLitsC ps

def numCC (syms : List CLit) (c : CClause) : Clause := c.map (fun x => (idxOf x.1 syms, x.2))

def numFC (syms : List CLit) (f : List CClause) : List Clause := f.map (numCC syms)

def numPC (syms : List CLit) : Option (List CClause) → Option (List Clause)
  | none => none
  | some f => some (numFC syms f)

/-- `buildQ` on `CSrc`. -/
def buildQC (cond : List CClause) (pos : List (Option (List CClause))) : BuiltQC :=
  let syms := dedupL [] (litsOfFC cond ++ posLitsC pos)
  let names := dedupL [] (syms.map (fun x => x.1))
  ⟨names, syms.map (fun x => (idxOf x.1 names, ALit.lit x.2)), numFC syms cond, pos.map (numPC syms)⟩

def valOfC (names : List CSrc) (val : CSrc → AV) (i : Nat) : AV :=
  match nthO names i with
  | some s => val s
  | none => AV.missing

/-- The class question of one way: `wayQ`'s condition and positions with the class's clauses. -/
def classQ (fs : List Fact) (a : String) (tools : List Tool) (gs : List Monitor.Full.Grant) (E : Option (List Json))
    (t : Tool) (d : EffDecl) : Option BuiltQC :=
  match wayCond a tools gs E t d with
  | none => none
  | some cond =>
    let pos := gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a tools) gs))
    some (buildQC (liftF cond ++ factCl fs (wayRes d.res) pos) (pos.map liftP))

end AgentWarrant.Revision.ArgCover
