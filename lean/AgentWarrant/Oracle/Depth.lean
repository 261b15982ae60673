import Lean.Data.Json
import AgentWarrant.Spec.Monitor.Json
import AgentWarrant.Spec.Json.Admit
/-! The nesting bound every judgment's input is held to before the judgment runs.

The functions over `Json` (equality `jeq`, normalization, the glob matcher's callers) recurse on the
nesting-depth fuel `jsonFuel` and decide their meaning only for values nesting less deep than it
(`jeqIff` in `Thm/Monitor/Json.lean`). The oracle therefore checks, with `depthWithin jsonFuel`
(`Spec/Json/Admit.lean`), that the input nests less deep than the fuel, and refuses it otherwise (an
`input` error, before any judgment runs); `Thm/Oracle/Depth.lean` proves the check sound and complete
for `Depth`. This is a finite-carrier restriction checked at the input: judgments are stated for all
JSON values, and the oracle answers only those nesting fewer than `jsonFuel` levels. Python's `json`
module refuses nesting far shallower than that, so no input that reaches the oracle as JSON text
produced by the Python model is refused by the bound. -/
namespace AgentWarrant.Oracle
open Lean AgentWarrant.Monitor.Full

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
