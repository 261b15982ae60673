import Lean.Data.Json
import AgentWarrant.Spec.Lib
/-! JSON values as the monitor compares them (Agenra Section 5: resources, constants and
arguments are JSON values).

Equality is RFC 8785 value equality: numbers by value (`1 = 1.0`), never a boolean for a number,
objects by their key sets. Choices where the source is silent: the ordering of numbers (range
predicates) is exact decimal comparison, and a glob is `fnmatch.fnmatchcase` over strings (`*`, `?`,
`[...]` and `[!...]` with ranges; an unclosed `[` is a literal).
Every function here is total, so the step that calls them terminates by construction. `Json` is a
nested inductive (through `Array` and the RB map), over which the 2021 compiler has no structural
recursion; the functions over it recurse on a nesting-depth fuel, `jsonFuel`, which only bounds how
deep a value may nest (it is not a step count: each level costs one unit). `Thm/Monitor/Json.lean`
proves what `jeq` and the glob matcher mean, that `jeq` decides its meaning for every value nesting
less deep than the fuel (`jeqIff`), and that `jeq` never answers equal wrongly at any depth;
`normJ` (normalization for printing the state) has no theorem, and the differential tests compare
its output. The oracle refuses every input nesting `jsonFuel` levels or deeper before a judgment
runs (`Oracle/Depth.lean`). Python's JSON boundary refuses texts nesting deeper than its recursion
limit allows (under a thousand levels), and its JSON equality answers `InvalidInput` for values
nested deeper than its recursion reaches (a few hundred levels), so no value the Python model
accepts comes near the bound (tests/unit/test_json_depth_bound.py). The glob tokenizer
recurses on a fuel of the pattern's length (each token consumes a character; `globToksStable`). -/
namespace AgentWarrant.Monitor.Full
open Lean

def pow10 : Nat → Int
  | 0 => 1
  | n + 1 => 10 * pow10 n

/-- `a = b` for decimal numbers `m · 10^-e`: cross-multiplied, so exact. -/
def numEq (a b : JsonNumber) : Bool := a.mantissa * pow10 b.exponent == b.mantissa * pow10 a.exponent
def numLe (a b : JsonNumber) : Bool := decide (a.mantissa * pow10 b.exponent ≤ b.mantissa * pow10 a.exponent)

/-- Drop trailing zero decimals (`1.50` is `1.5`, `-0.0` is `0`): the 2021 printer writes a number
whose decimals are all zero as `1.`, which is not JSON. -/
def normNumAux : Int → Nat → JsonNumber
  | m, 0 => ⟨m, 0⟩
  | m, e + 1 => if m % 10 == 0 then normNumAux (m / 10) e else ⟨m, e + 1⟩

def normNum (n : JsonNumber) : JsonNumber := normNumAux n.mantissa n.exponent

/-- How deep a value may nest before the recursive functions over `Json` stop descending. -/
def jsonFuel : Nat := 100000

def pairs (kvs : Std.RBNode String (fun _ => Json)) : List (String × Json) :=
  kvs.fold (fun acc k v => (k, v) :: acc) []

def keysOf : Json → List String
  | Json.obj kvs => (pairs kvs).map Prod.fst
  | _ => []

/-- The value bound to a key, first binding first. -/
def lookupK (k : String) : List (String × Json) → Option Json
  | [] => none
  | p :: ps => if k = p.1 then some p.2 else lookupK k ps

/-- Equality to depth `n` (out of fuel: unequal). Arrays pointwise, objects as key-to-value maps:
as many keys on both sides, and every key of the left bound on the right to an equal value. -/
def jeqF : Nat → Json → Json → Bool
  | 0, _, _ => false
  | n + 1, a, b => match a, b with
    | Json.null, Json.null => true
    | Json.bool a, Json.bool b => a == b
    | Json.num a, Json.num b => numEq a b
    | Json.str a, Json.str b => decide (a = b)
    | Json.arr a, Json.arr b =>
      decide (List.length a.data = List.length b.data) && allB (fun p => jeqF n p.1 p.2) (List.zip a.data b.data)
    | Json.obj a, Json.obj b =>
      decide (List.length (pairs a) = List.length (pairs b)) && allB (fun p => match lookupK p.1 (pairs b) with
        | some w => jeqF n p.2 w
        | none => false) (pairs a)
    | _, _ => false

def jeq (a b : Json) : Bool := jeqF jsonFuel a b

def normJF : Nat → Json → Json
  | 0, v => v
  | n + 1, v => match v with
    | Json.num x => Json.num (normNum x)
    | Json.arr a => Json.arr ⟨a.data.map (normJF n)⟩
    | Json.obj kvs => Json.mkObj ((pairs kvs).map (fun p => (p.1, normJF n p.2)))
    | v => v

/-- The same value with every number normalized (for printing). -/
def normJ (v : Json) : Json := normJF jsonFuel v

/-- Follow a dotted path through objects; `none` when a step is absent. -/
def lookupPath : Json → List String → Option Json
  | v, [] => some v
  | Json.obj kvs, k :: ks => match kvs.find compare k with
    | some v => lookupPath v ks
    | none => none
  | _, _ :: _ => none

def isScalar : Json → Bool
  | Json.str _ => true
  | Json.num _ => true
  | Json.bool _ => true
  | _ => false

-- fnmatch ------------------------------------------------------------------------------------

inductive GlobTok where
  | star
  | one
  | lit (c : Char)
  | cls (neg : Bool) (ranges : List (Char × Char))

/-- The body of a `[...]` class: single characters and `a-z` ranges (a reversed range is empty). -/
def classRanges : List Char → List (Char × Char)
  | a :: '-' :: b :: rest => (a, b) :: classRanges rest
  | a :: rest => (a, a) :: classRanges rest
  | [] => []

/-- Scan a class body for its closing `]`, collecting the characters before it (reversed). -/
def classGo : List Char → List Char → Option (List Char × List Char)
  | _, [] => none
  | acc, x :: r => if x = ']' then some (acc.reverse, r) else classGo (x :: acc) r

/-- Split off a class body ending at the first `]` after position one (`[]]` holds `]`). -/
def takeClass : List Char → Option (List Char × List Char)
  | c :: rest => classGo [c] rest
  | [] => none

/-- A class's negation mark and body. -/
def classBody : List Char → Bool × List Char
  | c :: r => if c = '!' then (true, r) else (false, c :: r)
  | [] => (false, [])

/-- The token a glob starts with, and the characters after it. -/
def globStep (c : Char) (rest : List Char) : GlobTok × List Char :=
  if c = '*' then (GlobTok.star, rest)
  else if c = '?' then (GlobTok.one, rest)
  else if c = '[' then
    match takeClass (classBody rest).2 with
    | some (inner, after) => (GlobTok.cls (classBody rest).1 (classRanges inner), after)
    | none => (GlobTok.lit '[', rest)
  else (GlobTok.lit c, rest)

/-- The tokens of a glob, on a fuel of its length (every token consumes at least one character;
`Thm/Monitor/Json.lean` proves the fuel sufficient, `globToksStable`). -/
def globToksF : Nat → List Char → List GlobTok
  | 0, _ => []
  | _ + 1, [] => []
  | n + 1, c :: rest => (globStep c rest).1 :: globToksF n (globStep c rest).2

def globToks (s : List Char) : List GlobTok := globToksF (List.length s + 1) s

def inRanges (c : Char) (rs : List (Char × Char)) : Bool :=
  rs.any (fun r => decide (r.1.val ≤ c.val) && decide (c.val ≤ r.2.val))

/-- Some suffix of `s` (longest first) satisfies `f`: what a `*` tries. -/
def anySuffix (f : List Char → Bool) : List Char → Bool
  | [] => f []
  | c :: r => f (c :: r) || anySuffix f r

/-- Structural on the tokens: a `*` tries the rest of the pattern on every suffix. -/
def globMatch : List GlobTok → List Char → Bool
  | [], s => s.isEmpty
  | GlobTok.star :: ts, s => anySuffix (globMatch ts) s
  | GlobTok.one :: ts, s => match s with
    | _ :: r => globMatch ts r
    | [] => false
  | GlobTok.lit c :: ts, s => match s with
    | x :: r => decide (c = x) && globMatch ts r
    | [] => false
  | GlobTok.cls neg rs :: ts, s => match s with
    | x :: r => (inRanges x rs != neg) && globMatch ts r
    | [] => false

def fnmatch (glob s : String) : Bool := globMatch (globToks glob.toList) s.toList

end AgentWarrant.Monitor.Full
