import AgentWarrant.Spec.Revision.ArgCover
import AgentWarrant.Spec.Monitor.Full
/-! The argument coverage question written in Lean from the policies' entries, the tools and `E`
(Agenra Sections 1 and 7.1: the closure check's units must cover every effect; `Spec/Revision/ArgCover.lean`
decides the question once it is written). Before this file the question's variables, atoms and clauses
were written by the Python caller alone (`model/revision/trusted/arg_cover.py`); here Lean writes them
itself for the fragment the literal lemmas cover (`grantMatchesConj`, `keyConjMeans`, `slotConjMeans`):
entries whose constants are scalars or null (globs, slot patterns, key allowlists; equality, one-of and
range predicates on top-level and nested argument paths). Outside: an array or object constant (as the
resource pattern or in an equality or one-of predicate): `Lit` has no literal for it, and `ALit.eqJson`,
which has, lacks decidable equality; `wayQA` (`Spec/Revision/ArgCoverBuildA.lean`) writes the predicates'
ones.

The question of one action `a` and one way a tool produces it (a tool and one of its effect declarations
for `a`), written first on named sources (`Src`: the effect's resource or an argument path) and then
numbered:
* a position (an entry, old or new, user or application) never matches when its action is not `a`;
  otherwise it is the clauses of `patConj`/`predConj` (`grantMatchesConj`'s shape), the resource read
  where the way puts it (`wayRes`: an argument for a named-argument resource, else the resource itself),
  for a slot pattern, the slot's variable (`Src.slot`: present when the slot is bound to the resource's
  value) present and the resource a scalar other than the empty string (`slotConj`); and for a key
  allowlist one clause per key of the action outside it: that key absent (`keyConj`);
* the condition `wayCond`: the tool's required keys present, keys it does not declare absent (the keys are
  the action's tools' arguments, its entries' allowlists and the first steps of their predicate paths), the resource
  where the tool reads it (its constant, by `resLitOf`: a null constant is `isNull`; a scalar argument; a
  scalar with the list argument an array), among `E`'s resources when `E` lists them, and a nested path
  present only under an object;
* numbering (`buildQ`): the sourced literals, first occurrences kept (`dedupL`), are the atoms; the
  sources, first occurrences kept, are the variables; a clause names each literal by its first index.
Every way has a question. A null resource constant matters: the monitor prepares the effect (`prepare`
keeps the constant) and an `any` or null constant entry matches it; its way's question reads the
resource as null (the Python translation's `isNull` too), so the coverage theorem needs no scalar
resource (`Thm/Revision/ArgCoverNull.lean`). An array or object constant, which registration refuses,
is read by its kind (the Python translation writes no question for one). Choices where the source is
silent are the Python translation's, which the differential test compares answer for answer and clause
for clause. -/
namespace AgentWarrant.Revision.ArgCover
open Lean AgentWarrant AgentWarrant.Monitor AgentWarrant.Monitor.Full

-- sourced literals are kept once each (`dedupL`) and found by equality (`idxOf`)
deriving instance DecidableEq for GlobTok
deriving instance DecidableEq for Lit

/-- A JSON value as the question sees it. -/
def avOf : Json → AV
  | Json.null => AV.null
  | Json.bool b => AV.bool b
  | Json.num n => AV.num n
  | Json.str s => AV.str s.toList
  | Json.arr a => AV.arr (Json.arr a)
  | Json.obj kvs => AV.obj (Json.obj kvs)

def avOfOpt : Option Json → AV
  | none => AV.missing
  | some x => avOf x

/-- The literal of equality to a scalar or null constant (what the translation writes). -/
def eqLitOf : Json → Lit
  | Json.null => Lit.isNull
  | Json.bool b => Lit.eqBool b
  | Json.num n => Lit.eqNum n
  | Json.str s => Lit.eqStr s.toList
  | Json.arr _ => Lit.isArr
  | Json.obj _ => Lit.isObj

def scalarOrNull : Json → Bool
  | Json.null => true
  | Json.bool _ => true
  | Json.num _ => true
  | Json.str _ => true
  | _ => false

/-- Where a conjunct reads: the effect's resource, the value at an argument path, or a slot's binding. -/
inductive Src where
  | res
  | path (p : List String)
  | slot (n : String)
  deriving DecidableEq

/-- A source's value on a call in state `s`: a slot's variable is present (null) exactly when the slot
pattern matches the resource (the slot valid and bound to a value equal to it), the Python translation's
free bit. -/
def srcVal (s : State) (args : List (String × Json)) (e : Effect) : Src → AV
  | Src.res => avOf e.res
  | Src.path p => avOfOpt (lookupPath (argsJson args) p)
  | Src.slot n => match resMatches s e.res (Pat.slot n) with
    | true => AV.null
    | false => AV.missing

/-- One conjunct of a grant's match: a clause of literals on one source. -/
abbrev Conj := Src × List Lit

def conjHolds (s : State) (args : List (String × Json)) (e : Effect) (c : Conj) : Bool :=
  c.2.any (fun l => holds l (srcVal s args e c.1))

def patConj : Pat → List Conj
  | Pat.glob g => [(Src.res, [Lit.glob (globToks g.toList)])]
  | Pat.const c => [(Src.res, [eqLitOf c])]
  | _ => []

def predConj : Pred → Conj
  | Pred.eq p c => (Src.path p, [eqLitOf c])
  | Pred.oneOf p cs => (Src.path p, cs.map eqLitOf)
  | Pred.range p lo hi => (Src.path p, [Lit.range lo hi])

/-- The fragment: no slot pattern, constants scalar or null. -/
def patOk : Pat → Bool
  | Pat.any => true
  | Pat.glob _ => true
  | Pat.const c => scalarOrNull c
  | Pat.slot _ => false

def predOk : Pred → Bool
  | Pred.eq _ c => scalarOrNull c
  | Pred.oneOf _ cs => allB scalarOrNull cs
  | Pred.range _ _ _ => true

/-- A resource pattern Lean writes: a slot too (`slotConj`). -/
def patOkS : Pat → Bool
  | Pat.slot _ => true
  | p => patOk p

/-- A grant in the fragment: scalar or null constants (slot patterns and key allowlists are inside). -/
def grantOk (g : Monitor.Full.Grant) : Bool :=
  patOkS g.pat && allB predOk g.preds

/-- Where a grant lies outside the fragment (`none`: inside), as the `outside` answer names it. -/
def outsideWhy (g : Monitor.Full.Grant) : Option String :=
  match patOkS g.pat, allB predOk g.preds with
  | true, true => none
  | false, _ => some "an array or object constant as its resource"
  | true, false => some "an array or object constant in a predicate"

-- the question on named sources -------------------------------------------------------------------

/-- A literal on a named source; a signed one; a clause holds when one of its signed literals does. -/
abbrev SLit := Src × Lit
abbrev SClause := List (SLit × Bool)

/-- A clause's truth when each source has the value `val`. -/
def sClauseHolds (val : Src → AV) (c : SClause) : Bool := anyB (fun x => decide (holds x.1.2 (val x.1.1) = x.2)) c

def sCnfHolds (val : Src → AV) (f : List SClause) : Bool := allB (sClauseHolds val) f

/-- Where the way's resource is read: the named argument, or the resource itself. -/
def wayRes : ResRef → Src
  | ResRef.arg a => Src.path [a]
  | _ => Src.res

def reSrc (rk : Src) : Src → Src
  | Src.res => rk
  | s => s

def memStr (k : String) : List String → Bool
  | [] => false
  | x :: xs => k == x || memStr k xs

/-- A key allowlist's clauses: every key of the action outside the allowlist absent (`keysOk` reads the
call's keys, which the way's condition confines to the action's keys). -/
def keyConj (keys : List String) : Option (List String) → List SClause
  | none => []
  | some ks => (filt (fun k => !memStr k ks) keys).map (fun k => [((Src.path [k], Lit.present), false)])

/-- A slot pattern's clauses on the way whose resource is read at `rk`: the slot's variable present (the
slot bound to the resource's value), the resource a scalar and not the empty string (a bound value is a
scalar, a string non-empty, as in the checker's encoding). -/
def slotConj (rk : Src) : Pat → List SClause
  | Pat.slot n => [[((Src.slot n, Lit.present), true)], [((rk, Lit.scalar), true)], [((rk, Lit.eqStr []), false)]]
  | _ => []

/-- A position's clauses on the way whose resource is read at `rk`, `keys` the action's keys (`none`:
never matches). -/
def posOf (a : String) (rk : Src) (keys : List String) (g : Monitor.Full.Grant) : Option (List SClause) :=
  match g.action == a with
  | true => some ((patConj g.pat ++ g.preds.map predConj).map (fun c => c.2.map (fun l => ((reSrc rk c.1, l), true))) ++
      slotConj rk g.pat ++ keyConj keys g.keys)
  | false => none

/-- First occurrences kept. -/
def dedupL [DecidableEq α] : List α → List α → List α
  | acc, [] => acc
  | acc, x :: xs => match anyB (fun y => decide (y = x)) acc with
    | true => dedupL acc xs
    | false => dedupL (acc ++ [x]) xs

def predHead : Pred → List String
  | Pred.eq p _ => p.take 1
  | Pred.oneOf p _ => p.take 1
  | Pred.range p _ _ => p.take 1

def predPath : Pred → List String
  | Pred.eq p _ => p
  | Pred.oneOf p _ => p
  | Pred.range p _ _ => p

/-- The action's tools: those declaring an effect of it. -/
def ownTools (a : String) (tools : List Tool) : List Tool := filt (fun t => anyB (fun d => d.action == a) t.effects) tools

def ofAction (a : String) (gs : List Monitor.Full.Grant) : List Monitor.Full.Grant := filt (fun g => g.action == a) gs

def optKeys : Option (List String) → List String
  | none => []
  | some ks => ks

/-- The keys of the action: its tools' arguments, its entries' allowlists and the first steps of its
entries' predicate paths. -/
def actionKeys (a : String) (tools : List Tool) (gs : List Monitor.Full.Grant) : List String :=
  dedupL [] ((tools.map (fun t => t.args)).join ++
    ((ofAction a gs).map (fun g => optKeys g.keys ++ (g.preds.map predHead).join)).join)

/-- Every nested path of `p` (length at least two) with its parent: `acc` is the prefix read so far. -/
def nestedOf : List String → List String → List (List String × List String)
  | _, [] => []
  | acc, x :: xs => match acc with
    | [] => nestedOf [x] xs
    | _ => (acc ++ [x], acc) :: nestedOf (acc ++ [x]) xs

/-- A resource constant's literal: equality to a scalar or null (`isNull`), an array's or object's kind
(registration refuses those). -/
def resLitOf : Json → Lit
  | Json.arr _ => Lit.isArr
  | Json.obj _ => Lit.isObj
  | c => eqLitOf c

/-- The resource's clauses of the way: a constant is the resource's value by its literal. Always `some`
(`wayCondSomeAll`); the option stays for the callers. -/
def resCond : ResRef → Option (List SClause)
  | ResRef.const c => some [[((Src.res, resLitOf c), true)]]
  | ResRef.arg x => some [[((Src.path [x], Lit.scalar), true)]]
  | ResRef.listArg x => some [[((Src.res, Lit.scalar), true)], [((Src.path [x], Lit.isArr), true)]]

def eCond (rk : Src) : Option (List Json) → List SClause
  | none => []
  | some cs => [cs.map (fun c => ((rk, eqLitOf c), true))]

/-- The condition of one way: the tools' constraint and `E` (every way has one: `wayCondSomeAll`). -/
def wayCond (a : String) (tools : List Tool) (gs : List Monitor.Full.Grant) (E : Option (List Json)) (t : Tool)
    (d : EffDecl) : Option (List SClause) :=
  match resCond d.res with
  | none => none
  | some rc => some (t.required.map (fun k => [((Src.path [k], Lit.present), true)]) ++
      (filt (fun k => !memStr k t.args) (actionKeys a (ownTools a tools) gs)).map
        (fun k => [((Src.path [k], Lit.present), false)]) ++
      rc ++ eCond (wayRes d.res) E ++
      (dedupL [] ((ofAction a gs).map (fun g => (g.preds.map (fun p => nestedOf [] (predPath p))).join)).join).map
        (fun pq => [((Src.path pq.1, Lit.present), false), ((Src.path pq.2, Lit.isObj), true)]))

-- numbering ------------------------------------------------------------------------------------------

def idxOf [DecidableEq α] (x : α) : List α → Nat
  | [] => 0
  | y :: ys => match decide (x = y) with
    | true => 0
    | false => idxOf x ys + 1

def nthO : List α → Nat → Option α
  | [], _ => none
  | a :: _, 0 => some a
  | _ :: l, k + 1 => nthO l k

/-- A question as `argCover` takes it, with its variables' sources. -/
structure BuiltQ where
  names : List Src
  atoms : List Atom
  cond : List Clause
  pos : List (Option (List Clause))

def litsOfC (c : SClause) : List SLit := c.map (fun x => x.1)

def litsOfF (f : List SClause) : List SLit := (f.map litsOfC).join

def posLits : List (Option (List SClause)) → List SLit
  | [] => []
  | none :: ps => posLits ps
  | some f :: ps => litsOfF f ++ posLits ps

def numC (syms : List SLit) (c : SClause) : Clause := c.map (fun x => (idxOf x.1 syms, x.2))

def numF (syms : List SLit) (f : List SClause) : List Clause := f.map (numC syms)

def numP (syms : List SLit) : Option (List SClause) → Option (List Clause)
  | none => none
  | some f => some (numF syms f)

/-- Number a condition and positions written on named sources. -/
def buildQ (cond : List SClause) (pos : List (Option (List SClause))) : BuiltQ :=
  let syms := dedupL [] (litsOfF cond ++ posLits pos)
  let names := dedupL [] (syms.map (fun x => x.1))
  ⟨names, syms.map (fun x => (idxOf x.1 names, ALit.lit x.2)), numF syms cond, pos.map (numP syms)⟩

/-- The question of one way (every way has one, a null resource constant's included). -/
def wayQ (a : String) (tools : List Tool) (gs : List Monitor.Full.Grant) (E : Option (List Json)) (t : Tool)
    (d : EffDecl) : Option BuiltQ :=
  match wayCond a tools gs E t d with
  | none => none
  | some cond => some (buildQ cond (gs.map (posOf a (wayRes d.res) (actionKeys a (ownTools a tools) gs))))

/-- The action's tools (those declaring an effect of it) and their effect declarations of it. -/
def ways (a : String) (tools : List Tool) : List (Tool × EffDecl) :=
  ((ownTools a tools).map
    (fun t => (filt (fun d => d.action == a) t.effects).map (fun d => (t, d)))).join

/-- A valuation of the variables from the sources' values. -/
def valOf (names : List Src) (val : Src → AV) (i : Nat) : AV :=
  match nthO names i with
  | some s => val s
  | none => AV.missing

end AgentWarrant.Revision.ArgCover
