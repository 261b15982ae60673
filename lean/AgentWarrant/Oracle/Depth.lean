import Lean.Data.Json
import AgentWarrant.Spec.Monitor.Json
/-! The nesting bound every judgment's input is held to before the judgment runs.

The functions over `Json` (equality `jeq`, normalization, the glob matcher's callers) recurse on the
nesting-depth fuel `jsonFuel` and decide their meaning only for values nesting less deep than it
(`jeqIff` in `Thm/Monitor/Json.lean`). The oracle therefore checks, with `depthWithin jsonFuel`,
that the input nests less deep than the fuel, and refuses it otherwise (an `input` error, before any
judgment runs); `Thm/Oracle/Depth.lean` proves the check sound and complete for `Depth`. This is a
finite-carrier restriction checked at the input: judgments are stated for all JSON values, and the
oracle answers only those nesting fewer than `jsonFuel` levels. Python's `json` module refuses
nesting far shallower than that, so no input that reaches the oracle as JSON text produced by the
Python model is refused by the bound. -/
namespace AgentWarrant.Oracle
open Lean AgentWarrant.Monitor.Full

/-- `v` nests at most `n` arrays or objects deep (a scalar is depth 0; an array or object is one more
than its deepest element). Structural on `n`. -/
def depthAtMost : Nat → Json → Bool
  | 0, Json.arr _ => false
  | 0, Json.obj _ => false
  | 0, _ => true
  | n + 1, Json.arr a => allB (fun x => depthAtMost n x) a.data
  | n + 1, Json.obj kvs => allB (fun p => depthAtMost n p.2) (pairs kvs)
  | n + 1, _ => true

/-- `v` nests less deep than `fuel`. -/
def depthWithin : Nat → Json → Bool
  | 0, _ => false
  | n + 1, v => depthAtMost n v

def depthError : String :=
  s!"input: nests {jsonFuel} or more arrays/objects deep (the bound under which JSON equality is decided)"

/-- A value passed on only when it nests less deep than `jsonFuel`. -/
def admitDepth (v : Json) : Except String Json :=
  match depthWithin jsonFuel v with
  | true => Except.ok v
  | false => Except.error depthError

/-- A judgment run only on an input that nests less deep than `jsonFuel`; a deeper input is refused
with an error naming the bound, and the judgment is not run. -/
def guarded (f : Json → Except String Json) (input : Json) : Except String Json :=
  match depthWithin jsonFuel input with
  | true => f input
  | false => Except.error depthError

end AgentWarrant.Oracle
