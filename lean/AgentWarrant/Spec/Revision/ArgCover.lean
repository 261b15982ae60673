import AgentWarrant.Spec.Revision.GlobCover
import AgentWarrant.Spec.Revision.ArgCoverJson
/-! Effect coverage for entries whose match reads argument values, decided in Lean (Agenra Sections 1
and 7.1: a simulation certificate is sound for the policies only when its units cover every effect; the
Python checker asks Z3 whether some effect — resource, arguments — has a match vector the certificate
omits).

The question: finitely many variables (an effect's resource and its arguments at argument paths), each
holding an abstract JSON value `AV` (missing, null, a boolean, a decimal number, a string, an array or an
object; a nested path is a variable of its own), and *atoms*, each a literal on one variable: a `Lit`
(present — a key allowlist reads "key absent" —, scalar, null, array, object, equality to a boolean, a
number (exact decimal equality, the monitor's `numEq`) or a string, a range (each given bound inclusive,
by the monitor's `numLe`) and a glob on strings (the monitor's `globMatch`)), or equality to an array or
object constant (`ALit.eqJson`: the monitor's `jeq` on a value the oracle admits, `eqJsonHolds`).
Given a Boolean test `good` of atom vectors, does every valuation have `good (its atom vector) = true`?
`good` carries the rest: the tools' constraint (`E`, which keys a call has, where its resource comes
from, a nested path present only under an object) and the listed match vectors of the certificate, both
Boolean combinations of atoms.

The decision is a finite partition per variable (`repsFor`): every value agrees, on every literal of
its variable, with one representative —
* missing, null, `true`, `false`: itself;
* an array or an object: over the array and object constants the literals name, a constant it equals, or
  else a fresh array or object equal to none (`jsonReps`, exact: `eqJsonExact` in
  `Thm/Revision/ArgCoverJson.lean`);
* a number: over the constants the literals name (equalities' constants and ranges' bounds), a constant
  it equals; or, when it equals none, `below` (a number below every constant) or `above c` for the
  greatest constant `c` below it (`c` plus a step smaller than any gap between constants) — `numOk`
  checks that these lie where they should, and `Thm/Revision/ArgCoverNum.lean` proves it never fails;
* a string: a word of a finite list with every glob vector (string constants read as literal globs)
  some string has (`strReps`): the breadth-first search's words when the glob decision certifies them,
  else one word per realisable vector, each the glob decision's witness.
Representatives the literals do not tell apart are one (`dedupV`). The product of the variables'
representatives (`prodL`) is then checked, valuation by valuation.
`argCover` answers `covered`, `uncovered xs` (a representative valuation whose vector is not good,
re-checked) or `unknown` (`numOk` failed, or an atom names a variable past the count; neither happens:
`argCoverNeverUnknown`). No fuel is the
caller's: the glob searches run with `fuelBound`, which `Thm/Revision/GlobFuel.lean` proves sufficient.
Choices where the source is silent: slots are not literals here; equality to an array or object constant
is a literal of the decision only (`ALit`): of the questions Lean writes itself, `wayQ`
(`Spec/Revision/ArgCoverBuild.lean`) has none, `wayQA` (`Spec/Revision/ArgCoverBuildA.lean`) writes it for
equality and one-of predicates; the word search is untrusted and re-checked; the number
stand-ins are proved (`numOkTrue`) and re-checked. -/
namespace AgentWarrant.Revision.ArgCover
open Lean AgentWarrant AgentWarrant.Monitor.Full AgentWarrant.Revision.Glob

/-- A JSON value at one variable. An array or an object carries its value, which only the literal of
equality to an array or object constant reads (`ALit.eqJson`); a nested path is a variable of its own. -/
inductive AV where
  | missing
  | null
  | bool (b : Bool)
  | num (n : JsonNumber)
  | str (s : List Char)
  | arr (x : Json)
  | obj (x : Json)

inductive Lit where
  | present
  | scalar
  | isNull
  | isArr
  | eqBool (b : Bool)
  | eqNum (n : JsonNumber)
  | eqStr (s : List Char)
  | glob (ts : List GlobTok)
  | range (lo hi : Option JsonNumber)
  | isObj

/-- The monitor's range predicate on a number (`predHolds`'s `Pred.range` clause): each given bound
inclusive, by `numLe`. -/
def lowOk (lo : Option JsonNumber) (x : JsonNumber) : Bool := match lo with
  | none => true
  | some l => numLe l x

def highOk (hi : Option JsonNumber) (x : JsonNumber) : Bool := match hi with
  | none => true
  | some h => numLe x h

def holdsStr (w : List Char) : Lit → Bool
  | Lit.present => true
  | Lit.scalar => true
  | Lit.eqStr s => decide (w = s)
  | Lit.glob ts => globMatch ts w
  | _ => false

def holdsNum (n : JsonNumber) : Lit → Bool
  | Lit.present => true
  | Lit.scalar => true
  | Lit.eqNum m => numEq n m
  | Lit.range lo hi => lowOk lo n && highOk hi n
  | _ => false

def holdsBool (b : Bool) : Lit → Bool
  | Lit.present => true
  | Lit.scalar => true
  | Lit.eqBool c => decide (b = c)
  | _ => false

def holdsNull : Lit → Bool
  | Lit.present => true
  | Lit.isNull => true
  | _ => false

def holdsArr : Lit → Bool
  | Lit.present => true
  | Lit.isArr => true
  | _ => false

def holdsObj : Lit → Bool
  | Lit.present => true
  | Lit.isObj => true
  | _ => false

/-- The literal's truth on a value (the monitor's: `jeq` of a scalar against a constant is a kind test and
the payload's equality, `numEq` for numbers; a glob matches strings only). -/
def holds (l : Lit) : AV → Bool
  | AV.missing => false
  | AV.null => holdsNull l
  | AV.bool b => holdsBool b l
  | AV.num n => holdsNum n l
  | AV.str w => holdsStr w l
  | AV.arr _ => holdsArr l
  | AV.obj _ => holdsObj l

/-- A literal of the decision: one the translation writes (`Lit`), or equality to an array or object
constant `c` (`eqJsonHolds`: the monitor's `jeq` on values the oracle admits). It is apart from `Lit`
because `Lit` is compared for equality where a question is numbered, and `Json` has no decidable
equality. -/
inductive ALit where
  | lit (l : Lit)
  | eqJson (c : Json)

/-- Equality to an array or object constant, on a value of the right kind. -/
def holdsJ (c : Json) : AV → Bool
  | AV.arr x => isArrJ x && eqJsonHolds c x
  | AV.obj x => isObjJ x && eqJsonHolds c x
  | _ => false

def holdsA : ALit → AV → Bool
  | ALit.lit l, v => holds l v
  | ALit.eqJson c, v => holdsJ c v

/-- An atom: a variable and a literal on it. -/
abbrev Atom := Nat × ALit

def bitsOf (atoms : List Atom) (ρ : Nat → AV) : List Bool := atoms.map (fun a => holdsA a.2 (ρ a.1))

-- the representatives of one variable -----------------------------------------------------------

def litsOf (i : Nat) : List Atom → List ALit
  | [] => []
  | a :: as => match decide (a.1 = i) with
    | true => a.2 :: litsOf i as
    | false => litsOf i as

def optL : Option JsonNumber → List JsonNumber
  | none => []
  | some x => [x]

/-- The numbers a literal names: an equality's constant, a range's bounds. -/
def litNums : Lit → List JsonNumber
  | Lit.eqNum n => [n]
  | Lit.range lo hi => optL lo ++ optL hi
  | _ => []

def litNumsA : ALit → List JsonNumber
  | ALit.lit l => litNums l
  | ALit.eqJson _ => []

def numConsts : List ALit → List JsonNumber
  | [] => []
  | l :: ls => litNumsA l ++ numConsts ls

def strToks : List ALit → List (List GlobTok)
  | [] => []
  | ALit.lit (Lit.eqStr s) :: ls => s.map GlobTok.lit :: strToks ls
  | ALit.lit (Lit.glob ts) :: ls => ts :: strToks ls
  | _ :: ls => strToks ls

/-- The array and object constants the literals name. -/
def jsonConsts : List ALit → List Json
  | [] => []
  | ALit.eqJson c :: ls => c :: jsonConsts ls
  | _ :: ls => jsonConsts ls

def sumAbs : List JsonNumber → Nat
  | [] => 0
  | n :: ns => Int.natAbs n.mantissa + sumAbs ns

/-- A number below every constant (`belowLt`; still checked by `numOk`). -/
def below (ns : List JsonNumber) : JsonNumber := ⟨Int.negSucc (sumAbs ns), 0⟩

/-- The greatest exponent among `ns` (0 for none). -/
def maxExp : List JsonNumber → Nat
  | [] => 0
  | n :: ns => match decide (n.exponent ≤ maxExp ns) with
    | true => maxExp ns
    | false => n.exponent

def tenTo : Nat → Nat
  | 0 => 1
  | n + 1 => 10 * tenTo n

/-- The mantissa of `m · 10^-e + 10^-(e+E+1)` at exponent `e + E + 1`, where `t = 10^E`: `m · 10t + 1`,
written on `Int`'s constructors (a negative `m = -(p+1)` gives `-((p+1) · 10t - 1)`). -/
def aboveM (t : Nat) : Int → Int
  | Int.ofNat p => Int.ofNat (p * (10 * t) + 1)
  | Int.negSucc p => Int.negSucc (p * (10 * t) + (10 * Nat.pred t + 8))

/-- A number above `c` and below every constant above `c`: `c + 10^-(e + E + 1)` for `c`'s exponent `e`
and `E` the greatest of the constants' exponents, a step smaller than any gap between `c` and another
constant (the gap between two different decimals of exponents `e` and `e' ≤ E` is at least
`10^-(e+e')`). Proved (`aboveLe`, `aboveGt`), and still checked by `numOk`. -/
def above (ns : List JsonNumber) (c : JsonNumber) : JsonNumber :=
  ⟨aboveM (tenTo (maxExp ns)) c.mantissa, c.exponent + (maxExp ns + 1)⟩

/-- The number representatives' check: `below` lies below every constant, and `above c` equals no
constant and has the same constants at or below it as `c`. -/
def numOk (ns : List JsonNumber) : Bool :=
  allB (fun d => !numLe d (below ns)) ns &&
    allB (fun c => allB (fun d => !numEq (above ns c) d && (numLe d (above ns c) == numLe d c)) ns) ns

/-- Words reaching the glob states found breadth first (untrusted: `strReps` certifies them). -/
def collect (cs : List Char) : Nat → List (GState × List Char) → List (GState × List Char) → List (GState × List Char)
  | 0, found, _ => found
  | n + 1, found, frontier => match addNew found [] (expandAll cs frontier) with
    | (found', []) => found'
    | (found', fresh') => collect cs n found' fresh'

def wordsFor (gs : List (List GlobTok)) (fuel : Nat) : List (List Char) :=
  (collect (repsOf (bps [startT gs])) fuel [(startT gs, [])] [(startT gs, [])]).map (fun p => p.2.reverse)

def hasVec (gs : List (List GlobTok)) (ws : List (List Char)) (v : List Bool) : Bool :=
  anyB (fun w => decide (vecG gs w = v)) ws

/-- Every Boolean vector of length `k`. -/
def allVecs : Nat → List (List Bool)
  | 0 => [[]]
  | k + 1 => (allVecs k).map (List.cons true) ++ (allVecs k).map (List.cons false)

/-- A string whose glob vector is `v`, when some string has it: the glob decision's witness that not
every string's vector differs from `v`. -/
def wordOf (gs : List (List GlobTok)) (v : List Bool) : Option (List Char) :=
  match coverTotal (fun u => !decide (u = v)) gs with
  | Answer.uncovered w => some w
  | _ => none

def somes : List (Option (List Char)) → List (List Char)
  | [] => []
  | none :: os => somes os
  | some w :: os => w :: somes os

/-- One word per vector some string has, found vector by vector (the fallback: exact by construction). -/
def vecWords (gs : List (List GlobTok)) : List (List Char) := somes ((allVecs gs.length).map (wordOf gs))

/-- Words with every glob vector some string has: the breadth-first search's words when the glob
decision (with its proved-sufficient fuel, `coverTotal`) certifies that they have every vector, otherwise
one word per realisable vector (`vecWords`). Either way exact (`strRepsExact`), never `unknown`. -/
def strReps (gs : List (List GlobTok)) : List (List Char) :=
  match coverTotal (hasVec gs (wordsFor gs (fuelBound gs))) gs with
  | Answer.covered => wordsFor gs (fuelBound gs)
  | _ => vecWords gs

def baseReps : List AV := [AV.missing, AV.null, AV.bool true, AV.bool false]

/-- The arrays and objects of `rs` as values (`jsonReps`: the constants and one fresh value of each kind). -/
def jsonAVs : List Json → List AV
  | [] => []
  | Json.arr a :: rs => AV.arr (Json.arr a) :: jsonAVs rs
  | Json.obj o :: rs => AV.obj (Json.obj o) :: jsonAVs rs
  | _ :: rs => jsonAVs rs

/-- What the literals `ls` see of a value. -/
def keyOf (ls : List ALit) (v : AV) : List Bool := ls.map (fun l => holdsA l v)

/-- One representative per distinct `keyOf` (the first), so a variable no literal tells apart costs one. -/
def dedupV (ls : List ALit) : List AV → List AV → List AV
  | acc, [] => acc
  | acc, r :: R => match anyB (fun a => decide (keyOf ls a = keyOf ls r)) acc with
    | true => dedupV ls acc R
    | false => dedupV ls (acc ++ [r]) R

def numReps (ns : List JsonNumber) : List JsonNumber := ns ++ (below ns :: ns.map (above ns))

def allReps (ls : List ALit) (ws : List (List Char)) : List AV :=
  baseReps ++ (jsonAVs (jsonReps (jsonConsts ls)) ++ ((numReps (numConsts ls)).map AV.num ++ ws.map AV.str))

def repsFor (ls : List ALit) : Option (List AV) :=
  match numOk (numConsts ls) with
  | true => some (dedupV ls [] (allReps ls (strReps (strToks ls))))
  | false => none

/-- The representatives of variables `off, off+1, …, off+k-1`. -/
def repsFrom (atoms : List Atom) : Nat → Nat → Option (List (List AV))
  | _, 0 => some []
  | off, k + 1 => match repsFor (litsOf off atoms), repsFrom atoms (off + 1) k with
    | some R, some Rs => some (R :: Rs)
    | _, _ => none

-- valuations -------------------------------------------------------------------------------------

def getV : List AV → Nat → AV
  | [], _ => AV.missing
  | a :: _, 0 => a
  | _ :: l, k + 1 => getV l k

def prodAux : List AV → List (List AV) → List (List AV)
  | [], _ => []
  | r :: R, P => P.map (List.cons r) ++ prodAux R P

/-- Every choice of one representative per variable. -/
def prodL : List (List AV) → List (List AV)
  | [] => [[]]
  | R :: Rs => prodAux R (prodL Rs)

def maxVar : List Atom → Nat
  | [] => 0
  | a :: as => match decide (maxVar as < a.1 + 1) with
    | true => a.1 + 1
    | false => maxVar as

def firstBadV (good : List Bool → Bool) (atoms : List Atom) : List (List AV) → Option (List AV)
  | [] => none
  | xs :: P => match good (bitsOf atoms (getV xs)) with
    | false => some xs
    | true => firstBadV good atoms P

inductive Answer where
  | covered
  | uncovered (xs : List AV)
  | unknown

/-- Every valuation's atom vector is `good`: decided over the representatives, refuted with a valuation
(`getV xs`), or unknown. -/
def argCover (good : List Bool → Bool) (atoms : List Atom) : Answer :=
  match allB (fun a => decide (a.1 < maxVar atoms)) atoms, repsFrom atoms 0 (maxVar atoms) with
  | true, some Rs => match firstBadV good atoms (prodL Rs) with
    | none => Answer.covered
    | some xs => Answer.uncovered xs
  | _, _ => Answer.unknown

-- conditions and positions as clauses of signed atoms ---------------------------------------------

/-- A clause holds when one of its signed atoms does; a CNF when every clause holds. -/
abbrev Clause := List (Nat × Bool)

def getB : List Bool → Nat → Bool
  | [], _ => false
  | b :: _, 0 => b
  | _ :: l, k + 1 => getB l k

def cnfHolds (bits : List Bool) (f : List Clause) : Bool :=
  allB (fun c => anyB (fun s => decide (getB bits s.1 = s.2)) c) f

/-- A position's match bit: `none` never matches. -/
def posBit (bits : List Bool) : Option (List Clause) → Bool
  | none => false
  | some f => cnfHolds bits f

end AgentWarrant.Revision.ArgCover
