import AgentWarrant.Spec.Lib
import AgentWarrant.Spec.Monitor.Json
/-! Effect coverage over glob resources, decided in Lean over every string (Agenra Sections 1 and 7.1:
a simulation certificate speaks of units, and it is sound for the policies only when its units cover
every effect; the Python checker asks Z3 whether some resource string has a match vector the
certificate omits).

The question: given glob patterns `g₁ … gₖ` (the monitor's `fnmatch` tokens, `Monitor.Full.globToks`)
and a Boolean test `good` of match vectors, does every string `s` have `good (globMatch g₁ s, …,
globMatch gₖ s) = true`? The decision:

* Derivatives (`der`): the token lists that must match the rest of the string after one character;
  `Thm/Revision/GlobCover.lean` proves `globMatch ts (c :: w)` is "some derivative matches `w`".
  A *state* is one set of token lists per pattern; `stepT c` takes every set's derivatives.
* Characters: only the literal characters and class bounds the states name tell characters apart.
  The breakpoints (`bps`) are 0, 0xD800, 0xE000, every literal `l` and `l + 1`, and every class
  range's `lo` and `hi + 1`; one representative per breakpoint that is a valid code point (`reps`).
  Every character behaves, on every token of every state, as the representative of the greatest
  breakpoint at or below its code point (proved: `repAgrees`), so closure under the representatives
  is closure under every character.
* The search (`explore`) is breadth first over states reached from the start by representatives,
  each with the (reversed) word that reached it; states equal as sets per pattern (`sameT`) are one.
  Its result is not trusted: `closedCheck` re-checks that the start is among the found states, that
  each state's every representative step is (as sets) a found state, and that every found state's
  vector at the empty word is `good`. A state whose vector is not good gives a witness word, which
  `coverDecide` re-checks by running `globMatch` on it.

`coverDecide` answers `covered`, `uncovered w` (a string whose vector is not good) or `unknown` (the
fuel, a count of search rounds, ran out first). Where the source is silent: the fuel is a parameter of
`coverDecide`; `coverTotal` runs it with `fuelBound`, two to the number of suffixes of the patterns
(each pattern's set of token lists is a set of its suffixes, so there are at most that many states
distinct as sets, and every round that goes on finds a new one). `Thm/Revision/GlobFuel.lean` proves
that this fuel suffices: `coverTotal` never answers `unknown`. -/
namespace AgentWarrant.Revision.Glob
open AgentWarrant AgentWarrant.Monitor.Full

/-- A character's code point. -/
def code (c : Char) : Nat := c.val.val.val

/-- The token lists that must match what follows `c`. -/
def der (c : Char) : List GlobTok → List (List GlobTok)
  | [] => []
  | GlobTok.star :: ts => (GlobTok.star :: ts) :: der c ts
  | GlobTok.one :: ts => [ts]
  | GlobTok.lit l :: ts => match decide (l = c) with
    | true => [ts]
    | false => []
  | GlobTok.cls neg rs :: ts => match inRanges c rs != neg with
    | true => [ts]
    | false => []

/-- Some token list of the set matches `w`. -/
def anyM : List (List GlobTok) → List Char → Bool
  | [], _ => false
  | t :: S, w => globMatch t w || anyM S w

def derS (c : Char) : List (List GlobTok) → List (List GlobTok)
  | [] => []
  | t :: S => der c t ++ derS c S

abbrev GState := List (List (List GlobTok))

def stepT (c : Char) : GState → GState
  | [] => []
  | S :: T => derS c S :: stepT c T

/-- The match vector of a state on `w`. -/
def vecM : GState → List Char → List Bool
  | [], _ => []
  | S :: T, w => anyM S w :: vecM T w

/-- The match vector of the patterns on `w` (what the monitor's `fnmatch` gives per position). -/
def vecG : List (List GlobTok) → List Char → List Bool
  | [], _ => []
  | g :: gs, w => globMatch g w :: vecG gs w

def startT : List (List GlobTok) → GState
  | [] => []
  | g :: gs => [g] :: startT gs

-- sets of token lists, compared as sets ------------------------------------------------------

def tokEq : GlobTok → GlobTok → Bool
  | GlobTok.star, GlobTok.star => true
  | GlobTok.one, GlobTok.one => true
  | GlobTok.lit a, GlobTok.lit b => decide (a = b)
  | GlobTok.cls n rs, GlobTok.cls m qs => decide (n = m) && decide (rs = qs)
  | _, _ => false

def toksEq : List GlobTok → List GlobTok → Bool
  | [], [] => true
  | a :: as, b :: bs => tokEq a b && toksEq as bs
  | _, _ => false

def memT (S : List (List GlobTok)) (t : List GlobTok) : Bool := anyB (fun u => toksEq u t) S

def subS (A B : List (List GlobTok)) : Bool := allB (fun t => memT B t) A

def sameS (A B : List (List GlobTok)) : Bool := subS A B && subS B A

def sameT : GState → GState → Bool
  | [], [] => true
  | A :: T, B :: U => sameS A B && sameT T U
  | _, _ => false

def memState (R : List GState) (T : GState) : Bool := anyB (fun U => sameT T U) R

-- representatives ------------------------------------------------------------------------------

/-- The breakpoints one token contributes. -/
def rangeBps : List (Char × Char) → List Nat
  | [] => []
  | r :: rs => code r.1 :: (code r.2 + 1) :: rangeBps rs

def tokBps : GlobTok → List Nat
  | GlobTok.lit l => [code l, code l + 1]
  | GlobTok.cls _ rs => rangeBps rs
  | _ => []

def toksBps : List GlobTok → List Nat
  | [] => []
  | t :: ts => tokBps t ++ toksBps ts

def setBps : List (List GlobTok) → List Nat
  | [] => []
  | t :: S => toksBps t ++ setBps S

def stateBps : GState → List Nat
  | [] => []
  | S :: T => setBps S ++ stateBps T

def statesBps : List GState → List Nat
  | [] => []
  | T :: R => stateBps T ++ statesBps R

def bps (R : List GState) : List Nat := 0 :: 55296 :: 57344 :: statesBps R

theorem validLt {p : Nat} (h : Nat.isValidChar p) : p < UInt32.size := by
  cases h with
  | inl h => exact Nat.ltTrans h (by decide)
  | inr h => exact Nat.ltTrans h.2 (by decide)

/-- The character of a valid code point. -/
def mkChar (p : Nat) (h : Nat.isValidChar p) : Char := ⟨⟨⟨p, validLt h⟩⟩, h⟩

def charOf (p : Nat) : Option Char :=
  if h : (p < 55296 ∨ (57343 < p ∧ p < 1114112)) then some (mkChar p h) else none

def repsOf : List Nat → List Char
  | [] => []
  | p :: ps => match charOf p with
    | some c => c :: repsOf ps
    | none => repsOf ps

-- the check ------------------------------------------------------------------------------------

/-- The found states are closed under every representative, start with the start, and are all good. -/
def closedCheck (good : List Bool → Bool) (start : GState) (R : List GState) : Bool :=
  memState R start &&
  allB (fun T => good (vecM T []) && allB (fun c => memState R (stepT c T)) (repsOf (bps R))) R

-- the search (untrusted: `closedCheck` re-checks its result) -----------------------------------

/-- One round: the found states (with the reversed words reaching them) and the frontier. -/
def expandOne (cs : List Char) (T : GState) (w : List Char) : List (GState × List Char) :=
  cs.map (fun c => (stepT c T, c :: w))

def addNew : List (GState × List Char) → List (GState × List Char) → List (GState × List Char) →
    List (GState × List Char) × List (GState × List Char)
  | found, fresh, [] => (found, fresh)
  | found, fresh, (T, w) :: rest =>
    match memState (found.map Prod.fst) T with
    | true => addNew found fresh rest
    | false => addNew (found ++ [(T, w)]) (fresh ++ [(T, w)]) rest

def firstBad (good : List Bool → Bool) : List (GState × List Char) → Option (List Char)
  | [] => none
  | (T, w) :: rest => match good (vecM T []) with
    | true => firstBad good rest
    | false => some w.reverse

def expandAll (cs : List Char) : List (GState × List Char) → List (GState × List Char)
  | [] => []
  | (T, w) :: rest => expandOne cs T w ++ expandAll cs rest

/-- Breadth first, up to `fuel` rounds; the characters are the representatives of the start's
breakpoints (every derivative's tokens are among the start's). -/
def explore (good : List Bool → Bool) (cs : List Char) :
    Nat → List (GState × List Char) → List (GState × List Char) → Sum (Option (List Char)) (List GState)
  | 0, _, _ => Sum.inl none
  | n + 1, found, frontier =>
    match firstBad good frontier with
    | some w => Sum.inl (some w)
    | none => match addNew found [] (expandAll cs frontier) with
      | (found', []) => Sum.inr (found'.map Prod.fst)
      | (found', fresh) => explore good cs n found' fresh

inductive Answer where
  | covered
  | uncovered (w : List Char)
  | unknown
  deriving Repr, BEq

def onWitness (ok : Bool) (w : List Char) : Answer := match ok with
  | false => Answer.uncovered w
  | true => Answer.unknown

def onClosed (ok : Bool) : Answer := match ok with
  | true => Answer.covered
  | false => Answer.unknown

/-- The answer from the search's result: a witness is re-checked with `globMatch`, a closed set with
`closedCheck`. -/
def finish (good : List Bool → Bool) (gs : List (List GlobTok)) : Sum (Option (List Char)) (List GState) → Answer
  | Sum.inl (some w) => onWitness (good (vecG gs w)) w
  | Sum.inl none => Answer.unknown
  | Sum.inr R => onClosed (closedCheck good (startT gs) R)

/-- Every string's match vector over `gs` is `good`: decided, refuted with a witness, or unknown. -/
def coverDecide (good : List Bool → Bool) (gs : List (List GlobTok)) (fuel : Nat) : Answer :=
  finish good gs (explore good (repsOf (bps [startT gs])) fuel [(startT gs, [])] [(startT gs, [])])

-- the fuel that suffices -----------------------------------------------------------------------

/-- Every suffix of a token list, the list itself first. -/
def sufs : List GlobTok → List (List GlobTok)
  | [] => [[]]
  | t :: ts => (t :: ts) :: sufs ts

/-- How many suffixes the patterns have together: a state is one subset of each pattern's suffixes. -/
def sufCount : List (List GlobTok) → Nat
  | [] => 0
  | g :: gs => List.length (sufs g) + sufCount gs

def pow2 : Nat → Nat
  | 0 => 1
  | n + 1 => pow2 n * 2

/-- At most this many states are distinct as sets, so this many rounds always end the search. -/
def fuelBound (gs : List (List GlobTok)) : Nat := pow2 (sufCount gs)

/-- The decision with the fuel that suffices: `covered` or `uncovered w`, never `unknown`
(`GlobFuel.coverTotalNeverUnknown`). -/
def coverTotal (good : List Bool → Bool) (gs : List (List GlobTok)) : Answer := coverDecide good gs (fuelBound gs)

end AgentWarrant.Revision.Glob
