import Lean.Data.Json
import AgentWarrant.Spec.Monitor.Json
import AgentWarrant.Oracle.Parse
import AgentWarrant.Oracle.Fuel
/-! The JSON parser of `Oracle/Parse.lean`, over byte positions of the text instead of an array of
its characters, for the in-process backend's per-call texts (a call, a tool's result), where the
conversion and the state monad would cost most of a decision. Same grammar and same values: escapes (surrogate
pairs included) decoded, numbers kept exactly as mantissa and decimal exponent computed the same
way, a repeated object name refused, whitespace ' ', tab, LF, CR. Every structural character is
ASCII, so a position moves by one byte past it; string contents move by `String.next`. Every loop is
total (`Fuel.fixF` on a fuel of the text's byte length, proved sufficient by `Fuel.fixStable`).
`agrees` (exported for the tests) checks both parsers give the same value, or both an error (values
compared to depth `jsonFuel`). -/
namespace AgentWarrant.Oracle.FastParse
open Lean

def isWs (c : Char) : Bool := c == ' ' || c == '\t' || c == '\n' || c == '\r'

@[inline] def wsStep (s : String) (n : Nat) (rec : Nat → Nat) (i : Nat) : Nat :=
  if i < n then (if isWs (s.get i) then rec (i + 1) else i) else i

/-- The first position at or after `i` that is not whitespace (or the end). -/
def ws (s : String) (n i : Nat) : Nat := Fuel.run n id id (wsStep s n) i

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

@[inline] def runStep (s : String) (n : Nat) (rec : Nat → Nat) (i : Nat) : Nat :=
  if i < n then
    let c := s.get i
    if c == '"' || c == '\\' || c.toNat < 0x20 then i else rec (s.next i)
  else i

/-- The end of the run of plain characters from `i`: the first quote, backslash or control character
(or the end). -/
def runEnd (s : String) (n i : Nat) : Nat := Fuel.run n id id (runStep s n) i

/-- A string body's loop state: the text so far, and the position of the next run. -/
abbrev StrSt := String × Nat

abbrev StrRes := Except String (String × Nat)

def strStop (n : Nat) (x : StrSt) : StrRes :=
  if x.2 < n then throw "string scan did not move forward" else throw "unexpected end of input"

/-- One run of plain characters and what ends it; a loop step per escape, not per character. -/
@[inline] def strStep (s : String) (n : Nat) (rec : StrSt → StrRes) (x : StrSt) : StrRes :=
  let (acc, i) := x
  let j := runEnd s n i
  if j < n then
    let c := s.get j
    if c == '"' then pure (acc ++ s.extract i j, j + 1)
    else if c == '\\' then
      match escape s n (j + 1) with
      | Except.ok (e, k) => rec ((acc ++ s.extract i j).push e, k)
      | Except.error m => throw m
    else throw "control character in string"
  else throw "unexpected end of input"

/-- A string's contents up to its closing quote, from position `i` just past the opening quote. -/
def strBody (s : String) (n i : Nat) : StrRes :=
  Fuel.run n (fun x => x.2) (strStop n) (strStep s n) ("", i)

@[inline] def digitStep (s : String) (n : Nat) (rec : Nat → Nat) (i : Nat) : Nat :=
  if i < n then (let c := s.get i; if '0' ≤ c && c ≤ '9' then rec (i + 1) else i) else i

def digitsEnd (s : String) (n i : Nat) : Nat := Fuel.run n id id (digitStep s n) i

@[inline] def natStep (s : String) (e : Nat) (rec : Nat × Nat → Nat) (x : Nat × Nat) : Nat :=
  if x.1 < e then rec (x.1 + 1, x.2 * 10 + ((s.get x.1).toNat - '0'.toNat)) else x.2

/-- The decimal value of the digits from `i` to `e`, after `acc`. -/
def natSpan (s : String) (i e acc : Nat) : Nat := Fuel.run e (fun x => x.1) (fun x => x.2) (natStep s e) (i, acc)

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

open Parse (Frame Mode)

abbrev St := Mode × Nat
abbrev Res := Except String (Json × Nat)

/-- Past the end every mode still needs a character (a value that ends the text is answered without
continuing); a continuation that would not move forward is refused (none does: each follows a
consumed character). -/
def stop (n : Nat) (x : St) : Res :=
  if x.2 < n then throw "parser did not move forward" else throw "unexpected end of input"

/-- A container closed by the character before `j`: the answer when no container is open, else
continue after it (a step of its own, so consecutive closing brackets cost no stack). -/
@[inline] def closeTo (rec : St → Res) (st : List Frame) (v : Json) (j : Nat) : Res :=
  match st with
  | [] => pure (v, j)
  | _ => rec (Mode.after v st, j)

/-- A value `v` ended at `i0`: the answer when no container is open, else `,` or the innermost
container's closing bracket. -/
@[inline] def emit (s : String) (n : Nat) (rec : St → Res) (st : List Frame) (v : Json) (i0 : Nat) : Res :=
  match st with
  | [] => pure (v, i0)
  | Frame.arr acc :: st' =>
    let j := ws s n i0
    if j < n then
      match s.get j with
      | ',' => rec (Mode.value (Frame.arr (acc.push v) :: st'), j + 1)
      | ']' => closeTo rec st' (Json.arr (acc.push v)) (j + 1)
      | c => throw s!"expected ',' or ']', found '{c}'"
    else throw "unexpected end of input"
  | Frame.obj acc k :: st' =>
    let j := ws s n i0
    if j < n then
      match s.get j with
      | ',' => rec (Mode.objNext (acc.insert compare k v) st', j + 1)
      | '}' => closeTo rec st' (Json.obj (acc.insert compare k v)) (j + 1)
      | c => throw s!"expected ',' or '}', found '{c}'"
    else throw "unexpected end of input"

/-- The value starting at `i` (no whitespace before it), inside the containers `st`. -/
@[inline] def valueAt (s : String) (n : Nat) (rec : St → Res) (st : List Frame) (i : Nat) : Res :=
  let scalar := fun (r : Res) => match r with
    | Except.ok (v, j) => emit s n rec st v j
    | Except.error m => throw m
  if i < n then
    match s.get i with
    | '{' => rec (Mode.objFirst st, i + 1)
    | '[' => rec (Mode.arrFirst st, i + 1)
    | '"' => match strBody s n (i + 1) with
      | Except.ok (str, j) => emit s n rec st (Json.str str) j
      | Except.error m => throw m
    | 't' => scalar (lit s i "true" (Json.bool true))
    | 'f' => scalar (lit s i "false" (Json.bool false))
    | 'n' => scalar (lit s i "null" Json.null)
    | _ => scalar (number s n i)
  else throw "unexpected end of input"

/-- A member starting at `i`: its name (not one of `acc`'s), `:`, then its value. -/
@[inline] def memberAt (s : String) (n : Nat) (rec : St → Res) (acc : Std.RBNode String (fun _ => Json))
    (st : List Frame) (i : Nat) : Res :=
  if i < n && s.get i == '"' then
    match strBody s n (i + 1) with
    | Except.error m => throw m
    | Except.ok (k, j0) =>
      if (acc.find compare k).isSome then throw s!"repeated object name \"{k}\"" else
      let j := ws s n j0
      if j < n && s.get j == ':' then rec (Mode.value (Frame.obj acc k :: st), j + 1)
      else throw "expected ':'"
  else throw "expected '\"'"

/-- One step of the parser: it reads at least one character before it continues. -/
@[inline] def step (s : String) (n : Nat) (rec : St → Res) : St → Res
  | (Mode.value st, i0) => valueAt s n rec st (ws s n i0)
  | (Mode.arrFirst st, i0) =>
    let i := ws s n i0
    if i < n && s.get i == ']' then closeTo rec st (Json.arr #[]) (i + 1) else valueAt s n rec (Frame.arr #[] :: st) i
  | (Mode.objFirst st, i0) =>
    let i := ws s n i0
    if i < n && s.get i == '}' then closeTo rec st (Json.obj Std.RBNode.leaf) (i + 1)
    else memberAt s n rec Std.RBNode.leaf st i
  | (Mode.objNext acc st, i0) => memberAt s n rec acc st (ws s n i0)
  | (Mode.after v st, i0) => emit s n rec st v i0

/-- The parser from state `x`, on a fuel of the text's length (`Fuel.fixStable`: enough). -/
def value (s : String) (n : Nat) (x : St) : Res := Fuel.run n (fun x => x.2) (stop n) (step s n) x

/-- Parse one JSON text (surrounding whitespace allowed, nothing after the value). -/
def parse (s : String) : Except String Json :=
  let n := s.utf8ByteSize
  match value s n (Mode.value [], 0) with
  | Except.ok (v, i) =>
    let j := ws s n i
    if j < n then throw s!"unexpected '{s.get j}' after the value" else pure v
  | Except.error m => throw m

/-- Exactly the same value to depth `d`: mantissas and exponents as parsed, not only equal numbers. -/
def sameF : Nat → Json → Json → Bool
  | 0, _, _ => false
  | d + 1, a, b => match a, b with
  | Json.null, Json.null => true
  | Json.bool a, Json.bool b => a == b
  | Json.num a, Json.num b => a.mantissa == b.mantissa && a.exponent == b.exponent
  | Json.str a, Json.str b => a == b
  | Json.arr a, Json.arr b => a.size == b.size && (List.zip a.toList b.toList).all (fun p => sameF d p.1 p.2)
  | Json.obj a, Json.obj b =>
    let pa := AgentWarrant.Monitor.Full.pairs a
    let pb := AgentWarrant.Monitor.Full.pairs b
    pa.length == pb.length && (List.zip pa pb).all (fun p => p.1.1 == p.2.1 && sameF d p.1.2 p.2.2)
  | _, _ => false

/-- 1 when both parsers accept `s` with the same value, 2 when both reject it, 0 when they differ. -/
@[export aw_lean_parse_agrees]
def agrees (s : String) : UInt8 :=
  match Parse.parse s, parse s with
  | Except.ok a, Except.ok b => if sameF AgentWarrant.Monitor.Full.jsonFuel a b then 1 else 0
  | Except.error _, Except.error _ => 2
  | _, _ => 0

end AgentWarrant.Oracle.FastParse
