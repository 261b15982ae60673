import Lean.Data.Json
import AgentWarrant.Oracle.Fuel
/-! A JSON text parser for the oracle's requests (RFC 8259).

Why not `Json.parse`: the 2021 library reads the hex letters of a `\uXXXX` escape as 0–5 instead
of 10–15 (`\u00e9` becomes `I`), so every non-ASCII or control character a Python client escapes
would arrive changed. This parser decodes escapes (surrogate pairs included) and numbers exactly
into `JsonNumber` (mantissa and decimal exponent). A repeated object name is refused, as the project's
JSON boundary (`model/base/jsonio.py`, I-JSON) refuses it, so every object parsed has distinct keys.
The text is read as an array of characters by position (the helpers in the state monad `P`, the
values by a loop over `Mode`s that keeps the open arrays and objects as data); every loop is total
(`Fuel.fixF` on a fuel of the text's length, proved sufficient by `Fuel.fixStable`). -/
namespace AgentWarrant.Oracle.Parse
open Lean

/-- The text, and the position of the next character. -/
abbrev P := ReaderT (Array Char) (StateT Nat (Except String))

def runP {α : Type} (m : P α) (a : Array Char) (i : Nat) : Except String (α × Nat) := (m.run a).run i

def peek : P (Option Char) := do
  pure ((← read).get? (← get))

def next : P Char := do
  match (← read).get? (← get) with
  | some c => modify (· + 1); pure c
  | none => throw "unexpected end of input"

def isWs (c : Char) : Bool := c == ' ' || c == '\t' || c == '\n' || c == '\r'

@[inline] def wsStep (a : Array Char) (rec : Nat → Nat) (i : Nat) : Nat :=
  match a.get? i with
  | some c => if isWs c then rec (i + 1) else i
  | none => i

def ws : P Unit := do
  let a ← read
  set (Fuel.run a.size id id (wsStep a) (← get))

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

/-- A loop over characters: what it collected (reversed) and the position. -/
abbrev Loop := List Char × Nat

def loopStop {α : Type} (n : Nat) (x : Loop) : Except String α :=
  if x.2 < n then throw "parser did not move forward" else throw "unexpected end of input"

@[inline] def strStep (a : Array Char) (rec : Loop → Except String (String × Nat)) (x : Loop) : Except String (String × Nat) :=
  match a.get? x.2 with
  | some '"' => pure (String.mk x.1.reverse, x.2 + 1)
  | some '\\' => match runP escape a (x.2 + 1) with
    | Except.ok (e, j) => rec (e :: x.1, j)
    | Except.error m => throw m
  | some c => if c.toNat < 0x20 then throw "control character in string" else rec (c :: x.1, x.2 + 1)
  | none => throw "unexpected end of input"

/-- The body of a string literal, after its opening quote, up to and past its closing quote. -/
def strBody : P String := do
  let a ← read
  match Fuel.run a.size (fun x => x.2) (loopStop a.size) (strStep a) ([], ← get) with
  | Except.ok (str, j) => set j; pure str
  | Except.error m => throw m

@[inline] def digitStep (a : Array Char) (rec : Loop → Loop) (x : Loop) : Loop :=
  match a.get? x.2 with
  | some c => if '0' ≤ c && c ≤ '9' then rec (c :: x.1, x.2 + 1) else x
  | none => x

/-- The digits from the position on (possibly none). -/
def digits : P (List Char) := do
  let a ← read
  let x := Fuel.run a.size (fun x => x.2) id (digitStep a) ([], ← get)
  set x.2
  pure x.1.reverse

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
    let f ← digits
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
    let ds ← digits
    if ds.isEmpty then throw "expected a digit in the exponent"
    pure (s, natOf ds)

def number : P Json := do
  let neg ← optNeg
  let int ← digits
  if int.isEmpty then throw "expected a digit"
  let frac ← fracPart
  let (eneg, e) ← expPart
  let m := natOf (int ++ frac)
  -- value = m · 10^(±e - |frac|)
  let (mant, exp) := if eneg then (m, frac.length + e)
    else if e ≥ frac.length then (m * pow10 (e - frac.length), 0) else (m, frac.length - e)
  let mi : Int := if neg then -(Int.ofNat mant) else Int.ofNat mant
  pure (Json.num ⟨mi, exp⟩)

/-- An array or object the parser is inside: the elements so far, or the members so far and the name
whose value is being read. -/
inductive Frame where
  | arr (acc : Array Json)
  | obj (acc : Std.RBNode String (fun _ => Json)) (key : String)

/-- What the parser expects at a position, and the containers it is inside (innermost first). The
containers are data, not calls: a nesting level costs no stack frame. -/
inductive Mode where
  -- a value
  | value (st : List Frame)
  -- just after `[`: `]` or a value
  | arrFirst (st : List Frame)
  -- just after `{`: `}` or a member
  | objFirst (st : List Frame)
  -- after `,` in an object (the members so far): a member
  | objNext (acc : Std.RBNode String (fun _ => Json)) (st : List Frame)
  -- a value just ended: `,` or the innermost container's closing bracket
  | after (v : Json) (st : List Frame)

abbrev St := Mode × Nat
abbrev Res := Except String (Json × Nat)

/-- Past the end every mode still needs a character (a value that ends the text is answered without
continuing); a continuation that would not move forward is refused (none does: each follows a
consumed character). -/
def stop (n : Nat) (x : St) : Res :=
  if x.2 < n then throw "parser did not move forward" else throw "unexpected end of input"

def wsAt (a : Array Char) (i : Nat) : Nat := Fuel.run a.size id id (wsStep a) i

/-- A value `v` ended at `j`: the answer when no container is open, else continue after it. -/
@[inline] def emit (rec : St → Res) (st : List Frame) (v : Json) (j : Nat) : Res :=
  match st with
  | [] => pure (v, j)
  | _ => rec (Mode.after v st, j)

/-- The value starting at `i` (no whitespace before it), inside the containers `st`. -/
@[inline] def valueAt (a : Array Char) (rec : St → Res) (st : List Frame) (i : Nat) : Res :=
  let scalar := fun (r : Res) => match r with
    | Except.ok (v, j) => emit rec st v j
    | Except.error m => throw m
  match a.get? i with
  | some '{' => rec (Mode.objFirst st, i + 1)
  | some '[' => rec (Mode.arrFirst st, i + 1)
  | some '"' => match runP strBody a (i + 1) with
    | Except.ok (str, j) => emit rec st (Json.str str) j
    | Except.error m => throw m
  | some 't' => scalar (runP (lit "true" (Json.bool true)) a i)
  | some 'f' => scalar (runP (lit "false" (Json.bool false)) a i)
  | some 'n' => scalar (runP (lit "null" Json.null) a i)
  | some _ => scalar (runP number a i)
  | none => throw "unexpected end of input"

/-- A member starting at `i`: its name (not one of `acc`'s), `:`, then its value. -/
@[inline] def memberAt (a : Array Char) (rec : St → Res) (acc : Std.RBNode String (fun _ => Json))
    (st : List Frame) (i : Nat) : Res :=
  match a.get? i with
  | some '"' =>
    match runP strBody a (i + 1) with
    | Except.error m => throw m
    | Except.ok (k, j0) =>
      if (acc.find compare k).isSome then throw s!"repeated object name \"{k}\"" else
      let j := wsAt a j0
      match a.get? j with
      | some ':' => rec (Mode.value (Frame.obj acc k :: st), j + 1)
      | some c => throw s!"expected ':', found '{c}'"
      | none => throw "unexpected end of input"
  | some c => throw s!"expected '\"', found '{c}'"
  | none => throw "unexpected end of input"

/-- One step of the parser: it reads at least one character before it continues. -/
@[inline] def step (a : Array Char) (rec : St → Res) : St → Res
  | (Mode.value st, i0) => valueAt a rec st (wsAt a i0)
  | (Mode.arrFirst st, i0) =>
    let i := wsAt a i0
    if a.get? i == some ']' then emit rec st (Json.arr #[]) (i + 1) else valueAt a rec (Frame.arr #[] :: st) i
  | (Mode.objFirst st, i0) =>
    let i := wsAt a i0
    if a.get? i == some '}' then emit rec st (Json.obj Std.RBNode.leaf) (i + 1)
    else memberAt a rec Std.RBNode.leaf st i
  | (Mode.objNext acc st, i0) => memberAt a rec acc st (wsAt a i0)
  | (Mode.after v [], i) => pure (v, i)
  | (Mode.after v (Frame.arr acc :: st), i0) =>
    let j := wsAt a i0
    match a.get? j with
    | some ',' => rec (Mode.value (Frame.arr (acc.push v) :: st), j + 1)
    | some ']' => emit rec st (Json.arr (acc.push v)) (j + 1)
    | some c => throw s!"expected ',' or ']', found '{c}'"
    | none => throw "unexpected end of input"
  | (Mode.after v (Frame.obj acc k :: st), i0) =>
    let j := wsAt a i0
    match a.get? j with
    | some ',' => rec (Mode.objNext (acc.insert compare k v) st, j + 1)
    | some '}' => emit rec st (Json.obj (acc.insert compare k v)) (j + 1)
    | some c => throw s!"expected ',' or '}', found '{c}'"
    | none => throw "unexpected end of input"

/-- A value from the position on, on a fuel of the text's length (`Fuel.fixStable`: enough). -/
def value : P Json := do
  let a ← read
  match Fuel.run a.size (fun x => x.2) (stop a.size) (step a) (Mode.value [], ← get) with
  | Except.ok (v, j) => set j; pure v
  | Except.error e => throw e

/-- Parse one JSON text (surrounding whitespace allowed, nothing after the value). -/
def parse (s : String) : Except String Json :=
  let a := s.foldl (fun acc c => acc.push c) (Array.mkEmpty s.length)
  match runP (do let v ← value; ws; pure v : P Json) a 0 with
  | Except.ok (v, i) => match a.get? i with
    | none => pure v
    | some c => throw s!"unexpected '{c}' after the value"
  | Except.error e => throw e

end AgentWarrant.Oracle.Parse
