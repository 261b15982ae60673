import Lean.Data.Json
/-! JSON values as the monitor compares them (Agenra Section 5: resources, constants and
arguments are JSON values).

Equality is RFC 8785 value equality: numbers by value (`1 = 1.0`), never a boolean for a number,
objects by their key sets. Choices where the source is silent: the ordering of numbers (range
predicates) is exact decimal comparison, and a glob is `fnmatch.fnmatchcase` over strings (`*`, `?`,
`[...]` and `[!...]` with ranges; an unclosed `[` is a literal). The recursive functions are
`partial` (the 2021 compiler has no well-founded recursion over the nested `Json` type), so proofs
treat them as opaque; the differential tests are what check them. -/
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
partial def normNum (n : JsonNumber) : JsonNumber :=
  if n.exponent > 0 && n.mantissa % 10 == 0 then normNum ⟨n.mantissa / 10, n.exponent - 1⟩ else n

def pairs (kvs : Std.RBNode String (fun _ => Json)) : List (String × Json) :=
  kvs.fold (fun acc k v => (k, v) :: acc) []

def keysOf : Json → List String
  | Json.obj kvs => (pairs kvs).map Prod.fst
  | _ => []

partial def jeq : Json → Json → Bool
  | Json.null, Json.null => true
  | Json.bool a, Json.bool b => a == b
  | Json.num a, Json.num b => numEq a b
  | Json.str a, Json.str b => a == b
  | Json.arr a, Json.arr b =>
    a.size == b.size && (List.zip a.toList b.toList).all (fun p => jeq p.1 p.2)
  | Json.obj a, Json.obj b =>
    let pa := pairs a
    let pb := pairs b
    pa.length == pb.length && pa.all (fun p => match pb.lookup p.1 with
      | some w => jeq p.2 w
      | none => false)
  | _, _ => false

/-- The same value with every number normalized (for printing). -/
partial def normJ : Json → Json
  | Json.num n => Json.num (normNum n)
  | Json.arr a => Json.arr (a.map normJ)
  | Json.obj kvs => Json.mkObj ((pairs kvs).map (fun p => (p.1, normJ p.2)))
  | v => v

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

/-- Split off a class body ending at the first `]` after position one (`[]]` holds `]`). -/
def takeClass : List Char → Option (List Char × List Char)
  | c :: rest =>
    let rec go : List Char → List Char → Option (List Char × List Char)
      | acc, ']' :: r => some (acc.reverse, r)
      | acc, x :: r => go (x :: acc) r
      | _, [] => none
    go [c] rest
  | [] => none

partial def globToks : List Char → List GlobTok
  | [] => []
  | '*' :: rest => GlobTok.star :: globToks rest
  | '?' :: rest => GlobTok.one :: globToks rest
  | '[' :: rest =>
    let (neg, body) := match rest with
      | '!' :: r => (true, r)
      | r => (false, r)
    match takeClass body with
    | some (inner, after) => GlobTok.cls neg (classRanges inner) :: globToks after
    | none => GlobTok.lit '[' :: globToks rest
  | c :: rest => GlobTok.lit c :: globToks rest

def inRanges (c : Char) (rs : List (Char × Char)) : Bool :=
  rs.any (fun r => decide (r.1.val ≤ c.val) && decide (c.val ≤ r.2.val))

partial def globMatch : List GlobTok → List Char → Bool
  | [], s => s.isEmpty
  | GlobTok.star :: ts, s => globMatch ts s || (match s with
    | [] => false
    | _ :: r => globMatch (GlobTok.star :: ts) r)
  | GlobTok.one :: ts, _ :: r => globMatch ts r
  | GlobTok.lit c :: ts, x :: r => c == x && globMatch ts r
  | GlobTok.cls neg rs :: ts, x :: r => (inRanges x rs != neg) && globMatch ts r
  | _ :: _, [] => false

def fnmatch (glob s : String) : Bool := globMatch (globToks glob.toList) s.toList

end AgentWarrant.Monitor.Full
