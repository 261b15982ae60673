import AgentWarrant.Spec.Revision.ArgCoverBuild
/-! A Boolean equality on `Json` and on the decision's literals (Agenra Sections 1 and 7.1: the closure
check's coverage question; `Spec/Revision/ArgCoverBuild.lean` numbers the literals of the question Lean
writes, keeping each once, which needs an equality test on literals).

`Json` has no `DecidableEq` in this Lean (deriving fails for the nested inductive, and recursion through
`Array Json` or the object tree is not structural), so the literal of equality to an array or object
constant (`ALit.eqJson`) cannot be compared by `decide`. This file gives the test the numbering needs:
* `jsonBeqF n`: structural equality, arrays element by element and objects node by node (colour, left
  subtree, name, value, right subtree), nesting at most `n` deep; structural on the fuel `n`, with the
  elements' and subtrees' comparisons passed down as a function of smaller fuel.
* `aLitBeq`: a `Lit` by its derived equality, an `eqJson` constant by `jsonBeqF jsonFuel`.
* `dedupB`/`idxOfB`: first occurrences kept, and an element's index, by a Boolean test.
Proved (`Thm/Revision/ArgCoverJsonEq.lean`): the test is sound at every fuel (`jsonBeqSound`: true only on
equal values) and reflexive on every value the oracle admits (`jsonBeqRefl`, from `keysAtMost`, half of
`admitted`); so `aLitBeq a b = true ↔ a = b` when `a`'s constant, if any, is admitted (`aLitBeqIff`), and
numbering by `idxOfB` finds a literal that is kept by `dedupB` (`idxOfBNth`, `dedupBMem`); and a question
numbered so (`buildQA`, `buildQ` with `ALit` literals) keeps its meaning (`buildQAMeans`) when every
literal's constant passes the oracle's name check.
Choices where the source is silent: equality is structural, not the monitor's `jeq` (two objects with the
same members in differently balanced trees are different literals, each still read by `jeq`); the fuel is
the oracle's `jsonFuel`, which every admitted value nests less deep than. `wayQA`
(`Spec/Revision/ArgCoverBuildA.lean`) numbers its question by `buildQA`; `wayQ` keeps `dedupL`/`idxOf`. -/
namespace AgentWarrant.Revision.ArgCover
open Lean AgentWarrant AgentWarrant.Monitor.Full

def colorB : Std.Rbcolor → Std.Rbcolor → Bool
  | Std.Rbcolor.red, Std.Rbcolor.red => true
  | Std.Rbcolor.black, Std.Rbcolor.black => true
  | _, _ => false

/-- Two lists equal element by element under `f`. -/
def listBeqJ (f : Json → Json → Bool) : List Json → List Json → Bool
  | [], [] => true
  | x :: xs, y :: ys => f x y && listBeqJ f xs ys
  | _, _ => false

/-- Two object trees equal node by node, values under `f`. -/
def nodeBeqJ (f : Json → Json → Bool) : Std.RBNode String (fun _ => Json) → Std.RBNode String (fun _ => Json) → Bool
  | Std.RBNode.leaf, Std.RBNode.leaf => true
  | Std.RBNode.node c l k v r, Std.RBNode.node c' l' k' v' r' =>
    colorB c c' && (nodeBeqJ f l l' && (decide (k = k') && (f v v' && nodeBeqJ f r r')))
  | _, _ => false

/-- Structural equality of values nesting at most `n` arrays or objects deep (deeper: false). -/
def jsonBeqF : Nat → Json → Json → Bool
  | _, Json.null, Json.null => true
  | _, Json.bool a, Json.bool b => decide (a = b)
  | _, Json.num a, Json.num b => decide (a = b)
  | _, Json.str a, Json.str b => decide (a = b)
  | n + 1, Json.arr a, Json.arr b => listBeqJ (jsonBeqF n) a.data b.data
  | n + 1, Json.obj a, Json.obj b => nodeBeqJ (jsonBeqF n) a b
  | _, _, _ => false

/-- Equality of the decision's literals: an array or object constant structurally, at the oracle's depth
bound. -/
def aLitBeq : ALit → ALit → Bool
  | ALit.lit l, ALit.lit m => decide (l = m)
  | ALit.eqJson c, ALit.eqJson d => jsonBeqF jsonFuel c d
  | _, _ => false

/-- A literal on a named source, of the decision's kind. -/
abbrev SLitA := Src × ALit

def sLitABeq (x y : SLitA) : Bool := decide (x.1 = y.1) && aLitBeq x.2 y.2

/-- First occurrences kept, by the test `eq`. -/
def dedupB (eq : α → α → Bool) : List α → List α → List α
  | acc, [] => acc
  | acc, x :: xs => match anyB (fun y => eq y x) acc with
    | true => dedupB eq acc xs
    | false => dedupB eq (acc ++ [x]) xs

/-- The index of the first element `eq` finds equal to `x`. -/
def idxOfB (eq : α → α → Bool) (x : α) : List α → Nat
  | [] => 0
  | y :: ys => match eq x y with
    | true => 0
    | false => idxOfB eq x ys + 1

/-- A literal's constant passes the oracle's name and depth checks (`keysAtMost`, half of `admitted`);
a `Lit` has none. -/
def aLitKeysOk : ALit → Bool
  | ALit.lit _ => true
  | ALit.eqJson c => Oracle.keysAtMost jsonFuel c

-- a question numbered with the decision's literals ------------------------------------------------------

/-- A clause on named sources whose literals may be `eqJson` (`SClause` with `ALit` for `Lit`). -/
abbrev SClauseA := List (SLitA × Bool)

def sClauseHoldsA (val : Src → AV) (c : SClauseA) : Bool := anyB (fun x => decide (holdsA x.1.2 (val x.1.1) = x.2)) c

def sCnfHoldsA (val : Src → AV) (f : List SClauseA) : Bool := allB (sClauseHoldsA val) f

def litsOfCA (c : SClauseA) : List SLitA := c.map (fun x => x.1)

def litsOfFA (f : List SClauseA) : List SLitA := (f.map litsOfCA).join

def posLitsA : List (Option (List SClauseA)) → List SLitA
  | [] => []
  | none :: ps => posLitsA ps
  | some f :: ps => litsOfFA f ++ posLitsA ps

def numCA (syms : List SLitA) (c : SClauseA) : Clause := c.map (fun x => (idxOfB sLitABeq x.1 syms, x.2))

def numFA (syms : List SLitA) (f : List SClauseA) : List Clause := f.map (numCA syms)

def numPA (syms : List SLitA) : Option (List SClauseA) → Option (List Clause)
  | none => none
  | some f => some (numFA syms f)

/-- `buildQ` with the decision's literals: the sourced literals kept once each by `sLitABeq`, numbered by
`idxOfB`; the sources, which have decidable equality, as in `buildQ`. -/
def buildQA (cond : List SClauseA) (pos : List (Option (List SClauseA))) : BuiltQ :=
  let syms := dedupB sLitABeq [] (litsOfFA cond ++ posLitsA pos)
  let names := dedupL [] (syms.map (fun x => x.1))
  ⟨names, syms.map (fun x => (idxOf x.1 names, x.2)), numFA syms cond, pos.map (numPA syms)⟩

end AgentWarrant.Revision.ArgCover
