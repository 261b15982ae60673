import Lean.Data.Json
/-! A JSON text parser for the oracle's requests (RFC 8259).

Why not `Json.parse`: the 2021 library reads the hex letters of a `\uXXXX` escape as 0–5 instead
of 10–15 (`\u00e9` becomes `I`), so every non-ASCII or control character a Python client escapes
would arrive changed. This parser decodes escapes (surrogate pairs included) and numbers exactly
into `JsonNumber` (mantissa and decimal exponent); duplicate object keys keep the last value. -/
namespace AgentWarrant.Oracle.Parse
open Lean

abbrev P := StateT (List Char) (Except String)

def peek : P (Option Char) := do
  match (← get) with
  | c :: _ => pure (some c)
  | [] => pure none

def next : P Char := do
  match (← get) with
  | c :: rest => set rest; pure c
  | [] => throw "unexpected end of input"

def ws : P Unit := do
  let s ← get
  set (s.dropWhile (fun c => c == ' ' || c == '\t' || c == '\n' || c == '\r'))

def expect (c : Char) : P Unit := do
  let d ← next
  if d != c then throw s!"expected '{c}', found '{d}'"

def lit (word : String) (v : Json) : P Json := do
  for c in word.toList do expect c
  pure v

def hexVal (c : Char) : P Nat :=
  if '0' ≤ c && c ≤ '9' then pure (c.toNat - '0'.toNat)
  else if 'a' ≤ c && c ≤ 'f' then pure (c.toNat - 'a'.toNat + 10)
  else if 'A' ≤ c && c ≤ 'F' then pure (c.toNat - 'A'.toNat + 10)
  else throw s!"invalid hex digit '{c}'"

def hex4 : P Nat := do
  let a ← hexVal (← next)
  let b ← hexVal (← next)
  let c ← hexVal (← next)
  let d ← hexVal (← next)
  pure (((a * 16 + b) * 16 + c) * 16 + d)

def escape : P Char := do
  match ← next with
  | '"' => pure '"'
  | '\\' => pure '\\'
  | '/' => pure '/'
  | 'b' => pure (Char.ofNat 8)
  | 'f' => pure (Char.ofNat 12)
  | 'n' => pure '\n'
  | 'r' => pure '\r'
  | 't' => pure '\t'
  | 'u' =>
    let hi ← hex4
    if 0xD800 ≤ hi && hi < 0xDC00 then
      expect '\\'
      expect 'u'
      let lo ← hex4
      if 0xDC00 ≤ lo && lo < 0xE000 then pure (Char.ofNat (0x10000 + (hi - 0xD800) * 0x400 + (lo - 0xDC00)))
      else throw "unpaired surrogate"
    else if 0xDC00 ≤ hi && hi < 0xE000 then throw "unpaired surrogate"
    else pure (Char.ofNat hi)
  | c => throw s!"invalid escape '\\{c}'"

partial def strBody (acc : List Char) : P String := do
  match ← next with
  | '"' => pure (String.mk acc.reverse)
  | '\\' => strBody ((← escape) :: acc)
  | c => if c.toNat < 0x20 then throw "control character in string" else strBody (c :: acc)

partial def digits (acc : List Char) : P (List Char) := do
  match ← peek with
  | some c =>
    if '0' ≤ c && c ≤ '9' then
      let _ ← next
      digits (c :: acc)
    else pure acc.reverse
  | none => pure acc.reverse

def natOf (ds : List Char) : Nat := ds.foldl (fun n c => n * 10 + (c.toNat - '0'.toNat)) 0

def pow10 : Nat → Nat
  | 0 => 1
  | n + 1 => 10 * pow10 n

def optNeg : P Bool := do
  match ← peek with
  | some '-' => let _ ← next; pure true
  | _ => pure false

def fracPart : P (List Char) := do
  match ← peek with
  | some '.' =>
    let _ ← next
    let f ← digits []
    if f.isEmpty then throw "expected a digit after '.'"
    pure f
  | _ => pure []

def expSign : P Bool := do
  match ← peek with
  | some '-' => let _ ← next; pure true
  | some '+' => let _ ← next; pure false
  | _ => pure false

def expPart : P (Bool × Nat) := do
  match ← peek with
  | some 'e' => let _ ← next; expRest
  | some 'E' => let _ ← next; expRest
  | _ => pure (false, 0)
where
  expRest : P (Bool × Nat) := do
    let s ← expSign
    let ds ← digits []
    if ds.isEmpty then throw "expected a digit in the exponent"
    pure (s, natOf ds)

def number : P Json := do
  let neg ← optNeg
  let int ← digits []
  if int.isEmpty then throw "expected a digit"
  let frac ← fracPart
  let (eneg, e) ← expPart
  let m := natOf (int ++ frac)
  -- value = m · 10^(±e - |frac|)
  let (mant, exp) := if eneg then (m, frac.length + e)
    else if e ≥ frac.length then (m * pow10 (e - frac.length), 0) else (m, frac.length - e)
  let mi : Int := if neg then -(Int.ofNat mant) else Int.ofNat mant
  pure (Json.num ⟨mi, exp⟩)

mutual
  partial def value : P Json := do
    ws
    match ← peek with
    | some '{' => let _ ← next; object []
    | some '[' => let _ ← next; array #[]
    | some '"' => let _ ← next; pure (Json.str (← strBody []))
    | some 't' => lit "true" (Json.bool true)
    | some 'f' => lit "false" (Json.bool false)
    | some 'n' => lit "null" Json.null
    | some _ => number
    | none => throw "unexpected end of input"

  partial def array (acc : Array Json) : P Json := do
    ws
    if acc.isEmpty && (← peek) == some ']' then
      let _ ← next
      return Json.arr acc
    let v ← value
    ws
    match ← next with
    | ',' => array (acc.push v)
    | ']' => pure (Json.arr (acc.push v))
    | c => throw s!"expected ',' or ']', found '{c}'"

  partial def object (acc : List (String × Json)) : P Json := do
    ws
    if acc.isEmpty && (← peek) == some '}' then
      let _ ← next
      return Json.mkObj []
    expect '"'
    let k ← strBody []
    ws
    expect ':'
    let v ← value
    ws
    match ← next with
    | ',' => object ((k, v) :: acc)
    | '}' => pure (Json.mkObj ((k, v) :: acc).reverse)
    | c => throw s!"expected ',' or '}', found '{c}'"
end

/-- Parse one JSON text (surrounding whitespace allowed, nothing after the value). -/
def parse (s : String) : Except String Json :=
  match (do let v ← value; ws; pure v : P Json).run s.toList with
  | Except.ok (v, []) => pure v
  | Except.ok (_, c :: _) => throw s!"unexpected '{c}' after the value"
  | Except.error e => throw e

end AgentWarrant.Oracle.Parse
