import AgentWarrant.Spec.Revision.GlobCover
/-! Effect coverage for entries whose match reads argument values, decided in Lean (Agenra Sections 1
and 7.1: a simulation certificate is sound for the policies only when its units cover every effect; the
Python checker asks Z3 whether some effect — resource, arguments — has a match vector the certificate
omits).

The question: finitely many variables (an effect's resource and its arguments at top-level keys), each
holding an abstract JSON value `AV` (missing, null, a boolean, a decimal number, a string, an array or an
object; arrays and objects by their kind only), and *atoms*, each a literal `Lit` on one variable:
present (a key allowlist reads "key absent"), scalar, null, equality to a boolean, a number (exact
decimal equality, the monitor's `numEq`) or a string, and a glob on strings (the monitor's `globMatch`).
Given a Boolean test `good` of atom vectors, does every valuation have `good (its atom vector) = true`?
`good` carries the rest: the tools' constraint (`E`, which keys a call has, where its resource comes
from) and the listed match vectors of the certificate, both Boolean combinations of atoms.

The decision is a finite partition per variable (`repsFor`): every value agrees, on every literal of
its variable, with one representative —
* missing, null, `true`, `false`, an array, an object: itself;
* a number: a number constant of the literals it equals, or (when it equals none) one fresh number that
  equals none (checked by `numEq` on every constant);
* a string: a word of a finite list whose glob vectors (string constants read as literal globs) are
  every vector some string has — certified by the glob decision `Glob.coverDecide` answering
  `covered` for "this vector is one of the words' vectors".
Representatives the literals do not tell apart are one (`dedupV`). The product of the variables'
representatives (`prodL`) is then checked, valuation by valuation.
`argCover` answers `covered`, `uncovered xs` (a representative valuation whose vector is not good,
re-checked) or `unknown` (the glob certification's fuel ran out or an atom names a variable past the
count). Choices where the source is silent: range predicates, nested argument paths and slots are not
literals here (the Python caller does not send such questions); the word search is untrusted and
re-checked by the certification. -/
namespace AgentWarrant.Revision.ArgCover
open Lean AgentWarrant AgentWarrant.Monitor.Full AgentWarrant.Revision.Glob

/-- A JSON value at one variable: arrays and objects by their kind only (no literal reads inside). -/
inductive AV where
  | missing
  | null
  | bool (b : Bool)
  | num (n : JsonNumber)
  | str (s : List Char)
  | arr
  | obj

inductive Lit where
  | present
  | scalar
  | isNull
  | isArr
  | eqBool (b : Bool)
  | eqNum (n : JsonNumber)
  | eqStr (s : List Char)
  | glob (ts : List GlobTok)

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
  | _ => false

/-- The literal's truth on a value (the monitor's: `jeq` of a scalar against a constant is a kind test and
the payload's equality, `numEq` for numbers; a glob matches strings only). -/
def holds (l : Lit) : AV → Bool
  | AV.missing => false
  | AV.null => holdsNull l
  | AV.bool b => holdsBool b l
  | AV.num n => holdsNum n l
  | AV.str w => holdsStr w l
  | AV.arr => holdsArr l
  | AV.obj => holdsObj l

/-- An atom: a variable and a literal on it. -/
abbrev Atom := Nat × Lit

def bitsOf (atoms : List Atom) (ρ : Nat → AV) : List Bool := atoms.map (fun a => holds a.2 (ρ a.1))

-- the representatives of one variable -----------------------------------------------------------

def litsOf (i : Nat) : List Atom → List Lit
  | [] => []
  | a :: as => match decide (a.1 = i) with
    | true => a.2 :: litsOf i as
    | false => litsOf i as

def numConsts : List Lit → List JsonNumber
  | [] => []
  | Lit.eqNum n :: ls => n :: numConsts ls
  | _ :: ls => numConsts ls

def strToks : List Lit → List (List GlobTok)
  | [] => []
  | Lit.eqStr s :: ls => s.map GlobTok.lit :: strToks ls
  | Lit.glob ts :: ls => ts :: strToks ls
  | _ :: ls => strToks ls

def sumAbs : List JsonNumber → Nat
  | [] => 0
  | n :: ns => Int.natAbs n.mantissa + sumAbs ns

/-- A number meant to equal no constant (checked, not assumed). -/
def fresh (ns : List JsonNumber) : JsonNumber := ⟨Int.ofNat (sumAbs ns + 1), 0⟩

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

def strReps (gs : List (List GlobTok)) (fuel : Nat) : Option (List (List Char)) :=
  match coverDecide (hasVec gs (wordsFor gs fuel)) gs fuel with
  | Answer.covered => some (wordsFor gs fuel)
  | _ => none

def baseReps : List AV := [AV.missing, AV.null, AV.bool true, AV.bool false, AV.arr, AV.obj]

/-- What the literals `ls` see of a value. -/
def keyOf (ls : List Lit) (v : AV) : List Bool := ls.map (fun l => holds l v)

/-- One representative per distinct `keyOf` (the first), so a variable no literal tells apart costs one. -/
def dedupV (ls : List Lit) : List AV → List AV → List AV
  | acc, [] => acc
  | acc, r :: R => match anyB (fun a => decide (keyOf ls a = keyOf ls r)) acc with
    | true => dedupV ls acc R
    | false => dedupV ls (acc ++ [r]) R

def allReps (ls : List Lit) (ws : List (List Char)) : List AV :=
  baseReps ++ ((numConsts ls).map AV.num ++ (AV.num (fresh (numConsts ls)) :: ws.map AV.str))

def repsFor (ls : List Lit) (fuel : Nat) : Option (List AV) :=
  match strReps (strToks ls) fuel, allB (fun c => !numEq (fresh (numConsts ls)) c) (numConsts ls) with
  | some ws, true => some (dedupV ls [] (allReps ls ws))
  | _, _ => none

/-- The representatives of variables `off, off+1, …, off+k-1`. -/
def repsFrom (atoms : List Atom) (fuel : Nat) : Nat → Nat → Option (List (List AV))
  | _, 0 => some []
  | off, k + 1 => match repsFor (litsOf off atoms) fuel, repsFrom atoms fuel (off + 1) k with
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
def argCover (good : List Bool → Bool) (atoms : List Atom) (fuel : Nat) : Answer :=
  match allB (fun a => decide (a.1 < maxVar atoms)) atoms, repsFrom atoms fuel 0 (maxVar atoms) with
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
