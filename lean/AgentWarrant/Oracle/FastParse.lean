import Lean.Data.Json
import AgentWarrant.Spec.Monitor.Json
import AgentWarrant.Oracle.Parse
/-! The JSON parser of `Oracle/Parse.lean`, over byte positions of the text instead of a list of its
characters, for the in-process backend's per-call texts (a call, a tool's result), where the list
and the state monad cost most of a decision. Same grammar and same values: escapes (surrogate
pairs included) decoded, numbers kept exactly as mantissa and decimal exponent computed the same
way, duplicate object keys keep the last value, whitespace ' ', tab, LF, CR. Every structural
character is ASCII, so a position moves by one byte past it; string contents move by `String.next`.
`agrees` (exported for the tests) checks both parsers give the same value, or both an error. -/
namespace AgentWarrant.Oracle.FastParse
open Lean

partial def ws (s : String) (n i : Nat) : Nat :=
  if i < n then
    let c := s.get i
    if c == ' ' || c == '\t' || c == '\n' || c == '\r' then ws s n (i + 1) else i
  else i

def hexV (c : Char) : Option Nat :=
  if '0' ≤ c && c ≤ '9' then some (c.toNat - '0'.toNat)
  else if 'a' ≤ c && c ≤ 'f' then some (c.toNat - 'a'.toNat + 10)
  else if 'A' ≤ c && c ≤ 'F' then some (c.toNat - 'A'.toNat + 10)
  else none

def hex4 (s : String) (n i : Nat) : Except String Nat :=
  if i + 4 ≤ n then
    match hexV (s.get i), hexV (s.get (i + 1)), hexV (s.get (i + 2)), hexV (s.get (i + 3)) with
    | some a, some b, some c, some d => pure (((a * 16 + b) * 16 + c) * 16 + d)
    | _, _, _, _ => throw "invalid hex digit"
  else throw "unexpected end of input"

/-- The character an escape stands for; `i` is just past the backslash. -/
def escape (s : String) (n i : Nat) : Except String (Char × Nat) :=
  if i < n then
    match s.get i with
    | '"' => pure ('"', i + 1)
    | '\\' => pure ('\\', i + 1)
    | '/' => pure ('/', i + 1)
    | 'b' => pure (Char.ofNat 8, i + 1)
    | 'f' => pure (Char.ofNat 12, i + 1)
    | 'n' => pure ('\n', i + 1)
    | 'r' => pure ('\r', i + 1)
    | 't' => pure ('\t', i + 1)
    | 'u' => do
      let hi ← hex4 s n (i + 1)
      let j := i + 5
      if 0xD800 ≤ hi && hi < 0xDC00 then
        if j + 1 < n && s.get j == '\\' && s.get (j + 1) == 'u' then
          let lo ← hex4 s n (j + 2)
          if 0xDC00 ≤ lo && lo < 0xE000 then pure (Char.ofNat (0x10000 + (hi - 0xD800) * 0x400 + (lo - 0xDC00)), j + 6)
          else throw "unpaired surrogate"
        else throw "unpaired surrogate"
      else if 0xDC00 ≤ hi && hi < 0xE000 then throw "unpaired surrogate"
      else pure (Char.ofNat hi, j)
    | c => throw s!"invalid escape '\\{c}'"
  else throw "unexpected end of input"

/-- A string's contents up to its closing quote; `start` is where the unescaped run began. -/
partial def strBody (s : String) (n : Nat) (acc : String) (start i : Nat) : Except String (String × Nat) :=
  if i < n then
    let c := s.get i
    if c == '"' then pure (acc ++ s.extract start i, i + 1)
    else if c == '\\' then
      match escape s n (i + 1) with
      | Except.ok (e, j) => strBody s n ((acc ++ s.extract start i).push e) j j
      | Except.error m => throw m
    else if c.toNat < 0x20 then throw "control character in string"
    else strBody s n acc start (s.next i)
  else throw "unexpected end of input"

partial def digitsEnd (s : String) (n i : Nat) : Nat :=
  if i < n then
    let c := s.get i
    if '0' ≤ c && c ≤ '9' then digitsEnd s n (i + 1) else i
  else i

partial def natSpan (s : String) (i e acc : Nat) : Nat :=
  if i < e then natSpan s (i + 1) e (acc * 10 + ((s.get i).toNat - '0'.toNat)) else acc

/-- The fraction's digits `(start, end)` after the integer part ending at `ie` (empty when none). -/
def frac (s : String) (n ie : Nat) : Except String (Nat × Nat) :=
  if ie < n && s.get ie == '.' then
    let fe := digitsEnd s n (ie + 1)
    if fe == ie + 1 then throw "expected a digit after '.'" else pure (ie + 1, fe)
  else pure (ie, ie)

/-- The exponent after position `fe`: its sign, value and end. -/
def expo (s : String) (n fe : Nat) : Except String (Bool × Nat × Nat) :=
  if fe < n && (s.get fe == 'e' || s.get fe == 'E') then
    let j := fe + 1
    let sg := j < n && s.get j == '-'
    let j' := if j < n && (s.get j == '-' || s.get j == '+') then j + 1 else j
    let je := digitsEnd s n j'
    if je == j' then throw "expected a digit in the exponent" else pure (sg, natSpan s j' je 0, je)
  else pure (false, 0, fe)

def number (s : String) (n i0 : Nat) : Except String (Json × Nat) :=
  let neg := i0 < n && s.get i0 == '-'
  let i := if neg then i0 + 1 else i0
  let ie := digitsEnd s n i
  if ie == i then throw "expected a digit" else
  match frac s n ie with
  | Except.error m => throw m
  | Except.ok (fs, fe) =>
    match expo s n fe with
    | Except.error m => throw m
    | Except.ok (eneg, e, k) =>
      let fl := fe - fs
      let m := natSpan s fs fe (natSpan s i ie 0)
      -- value = m · 10^(±e - |frac|), as Parse.number
      let me : Nat × Nat := if eneg then (m, fl + e)
        else if e ≥ fl then (m * Parse.pow10 (e - fl), 0) else (m, fl - e)
      let mi : Int := if neg then -(Int.ofNat me.1) else Int.ofNat me.1
      pure (Json.num ⟨mi, me.2⟩, k)

def lit (s : String) (i : Nat) (word : String) (v : Json) : Except String (Json × Nat) :=
  if s.extract i (i + word.length) == word then pure (v, i + word.length) else throw s!"expected {word}"

mutual
  partial def value (s : String) (n i0 : Nat) : Except String (Json × Nat) :=
    let i := ws s n i0
    if i < n then
      match s.get i with
      | '{' => object s n (i + 1) []
      | '[' => array s n (i + 1) #[]
      | '"' => match strBody s n "" (i + 1) (i + 1) with
        | Except.ok (str, j) => pure (Json.str str, j)
        | Except.error m => throw m
      | 't' => lit s i "true" (Json.bool true)
      | 'f' => lit s i "false" (Json.bool false)
      | 'n' => lit s i "null" Json.null
      | _ => number s n i
    else throw "unexpected end of input"

  partial def array (s : String) (n i0 : Nat) (acc : Array Json) : Except String (Json × Nat) :=
    let i := ws s n i0
    if acc.isEmpty && i < n && s.get i == ']' then pure (Json.arr acc, i + 1)
    else match value s n i with
      | Except.error m => throw m
      | Except.ok (v, j0) =>
        let j := ws s n j0
        if j < n then
          match s.get j with
          | ',' => array s n (j + 1) (acc.push v)
          | ']' => pure (Json.arr (acc.push v), j + 1)
          | c => throw s!"expected ',' or ']', found '{c}'"
        else throw "unexpected end of input"

  partial def object (s : String) (n i0 : Nat) (acc : List (String × Json)) : Except String (Json × Nat) :=
    let i := ws s n i0
    if acc.isEmpty && i < n && s.get i == '}' then pure (Json.mkObj [], i + 1)
    else if i < n && s.get i == '"' then
      match strBody s n "" (i + 1) (i + 1) with
      | Except.error m => throw m
      | Except.ok (k, j0) =>
        let j := ws s n j0
        if j < n && s.get j == ':' then
          match value s n (j + 1) with
          | Except.error m => throw m
          | Except.ok (v, l0) =>
            let l := ws s n l0
            if l < n then
              match s.get l with
              | ',' => object s n (l + 1) ((k, v) :: acc)
              | '}' => pure (Json.mkObj ((k, v) :: acc).reverse, l + 1)
              | c => throw s!"expected ',' or '}', found '{c}'"
            else throw "unexpected end of input"
        else throw "expected ':'"
    else throw "expected '\"'"
end

/-- Parse one JSON text (surrounding whitespace allowed, nothing after the value). -/
def parse (s : String) : Except String Json :=
  let n := s.utf8ByteSize
  match value s n 0 with
  | Except.ok (v, i) =>
    let j := ws s n i
    if j < n then throw s!"unexpected '{s.get j}' after the value" else pure v
  | Except.error m => throw m

/-- Exactly the same value: mantissas and exponents as parsed, not only equal numbers. -/
partial def same : Json → Json → Bool
  | Json.null, Json.null => true
  | Json.bool a, Json.bool b => a == b
  | Json.num a, Json.num b => a.mantissa == b.mantissa && a.exponent == b.exponent
  | Json.str a, Json.str b => a == b
  | Json.arr a, Json.arr b => a.size == b.size && (List.zip a.toList b.toList).all (fun p => same p.1 p.2)
  | Json.obj a, Json.obj b =>
    let pa := AgentWarrant.Monitor.Full.pairs a
    let pb := AgentWarrant.Monitor.Full.pairs b
    pa.length == pb.length && (List.zip pa pb).all (fun p => p.1.1 == p.2.1 && same p.1.2 p.2.2)
  | _, _ => false

/-- 1 when both parsers accept `s` with the same value, 2 when both reject it, 0 when they differ. -/
@[export aw_lean_parse_agrees]
def agrees (s : String) : UInt8 :=
  match Parse.parse s, parse s with
  | Except.ok a, Except.ok b => if same a b then 1 else 0
  | Except.error _, Except.error _ => 2
  | _, _ => 0

end AgentWarrant.Oracle.FastParse
