import AgentWarrant.Spec.Monitor.Json
import AgentWarrant.Spec.Json.Admit
/-! Representatives for equality against array and object constants (Agenra Sections 1 and 7.1: the
closure check's coverage question, which `Spec/Revision/ArgCover.lean` decides; an array or object
value there carries its value, read only by the literal of equality to an array or object constant).

The partition this file supplies for one variable: given the array and object constants `cs` the
variable is compared against (`jeq x c`, the monitor's equality), every value the oracle judges (nesting
less deep than `jsonFuel`, distinct names in every object) that is an array or an object agrees on every
`jeq x c` with one of `jsonReps cs` of its own kind (`Thm/Revision/ArgCoverJson.lean`, `jsonRepExact`):
* when it equals a constant, that constant (`jeq` is an equivalence on judged values);
* otherwise a fresh value of its kind equal to no constant: `freshArr`, an array of nulls longer than
  every array constant, or `freshObj`, an object with one name longer than every name of every object
  constant.
The literal such a constant gives (`eqJsonHolds`, the decision's `ALit.eqJson`) reads the monitor's `jeq`
when the constant and the value pass the oracle's checks (`admitted`: depth and names,
`Spec/Json/Admit.lean`) and false otherwise, so that its representatives are exact on every value
(`eqJsonExact`) and the decision's soundness needs no hypothesis on the valuation; what needs the value
and the constant admitted is only the step from the monitor's `jeq` to the literal (`eqJsonLit`). That the
values at a call's paths are admitted is proved for every call the oracle decodes from an input it answers
(`Thm/Revision/ArgCoverAdmCall.lean`: the oracle runs its checks on its whole input, and they hold of every
value inside a checked one).
Choices where the source is silent: freshness is re-checked (`jsonRepsOk`, as `numOk` re-checks the
number stand-ins), and the check is proved never to fail (`jsonRepsOkTrue`). The decision's values and
literals use it (`AV.arr`, `AV.obj`, `ALit.eqJson`, `Spec/Revision/ArgCover.lean`), and so does the question
Lean writes for predicates against such constants (`wayQA`, `Spec/Revision/ArgCoverBuildA.lean`); a resource
pattern's array or object constant is still answered `outside`. -/
namespace AgentWarrant.Revision.ArgCover
open Lean AgentWarrant AgentWarrant.Monitor.Full

def isArrJ : Json → Bool
  | Json.arr _ => true
  | _ => false

def isObjJ : Json → Bool
  | Json.obj _ => true
  | _ => false

def arrLen : Json → Nat
  | Json.arr a => a.data.length
  | _ => 0

def sumArrLen : List Json → Nat
  | [] => 0
  | c :: cs => arrLen c + sumArrLen cs

def nullsN : Nat → List Json
  | 0 => []
  | n + 1 => Json.null :: nullsN n

/-- An array longer than every array constant of `cs`. -/
def freshArr (cs : List Json) : Json := Json.arr ⟨nullsN (sumArrLen cs + 1)⟩

def objKeyChars : Json → List Char
  | Json.obj kvs => ((pairs kvs).map (fun p => p.1.toList)).join
  | _ => []

def allKeyChars : List Json → List Char
  | [] => []
  | c :: cs => objKeyChars c ++ allKeyChars cs

/-- A name longer than every name of every object constant of `cs`. -/
def freshKey (cs : List Json) : String := String.mk ('#' :: allKeyChars cs)

/-- An object whose one name no object constant of `cs` has. -/
def freshObj (cs : List Json) : Json :=
  Json.obj (Std.RBNode.node Std.Rbcolor.red Std.RBNode.leaf (freshKey cs) Json.null Std.RBNode.leaf)

/-- A variable's array and object representatives: its constants, then one fresh value of each kind. -/
def jsonReps (cs : List Json) : List Json := cs ++ [freshArr cs, freshObj cs]

/-- The fresh values equal no constant. -/
def jsonRepsOk (cs : List Json) : Bool := allB (fun c => !jeq (freshArr cs) c && !jeq (freshObj cs) c) cs

/-- The oracle's admission of a value (`guarded`, `keysGuard`): nesting less deep than `jsonFuel`, its
objects' names distinct and ordered at every depth. -/
def admitted (x : Json) : Bool := Oracle.depthWithin jsonFuel x && Oracle.keysAtMost jsonFuel x

/-- Equality to an array or object constant `c` as the literal reads it (`ALit.eqJson`,
`Spec/Revision/ArgCover.lean`): the monitor's `jeq` when both the constant and the value are admitted,
false otherwise. On admitted values it is `jeq` (`eqJsonLit`); on every value the representatives are
exact for it (`eqJsonExact`), with no hypothesis on the value or the constants. -/
def eqJsonHolds (c x : Json) : Bool := admitted c && admitted x && jeq x c

end AgentWarrant.Revision.ArgCover
