import Lean.Data.Json
import AgentWarrant.Spec.Monitor.Json
import AgentWarrant.Spec.Json.ObjLookup
import AgentWarrant.Spec.Json.Admit
/-! Every object of a judgment's input has distinct names and is a search tree, checked before the
judgment runs.

A JSON object is a map from names to values, and the project's JSON boundary (`model/base/jsonio.py`,
I-JSON) refuses a repeated name; so do both request parsers (`Oracle/Parse.lean`,
`Oracle/FastParse.lean`). The `Json` type does not carry it, and `JEq` is reflexive and symmetric only
on values that have it (`Thm/Monitor/Json.lean`), so the oracle checks it of every input, at every
depth, next to the nesting bound (`Oracle/Depth.lean`), and refuses an input that lacks it with an
`input` error; `Thm/Oracle/Keys.lean` proves the check sound. The parsers never build such an input,
so the check refuses none of their values; it states in Lean what holds of every value judged. The same
check finds every object ordered as a search tree (`Json.orderedB`, `Spec/Json/ObjLookup.lean`), so that a
lookup finds every member (`Json.getObjValOfMem`): the parsers build each object by `insert compare` from
the empty tree, which keeps it ordered (`Json.insertOrd`), and the check refuses none of their values. -/
namespace AgentWarrant.Oracle
open Lean AgentWarrant.Monitor.Full

/-- The first refusal `f` finds along a list. -/
def firstWhy {α : Type} (f : α → Option String) : List α → Option String
  | [] => none
  | x :: xs => match f x with
    | some r => some r
    | none => firstWhy f xs

/-- Why `keysAtMost n v` refuses `v`: the first failing part in the order the check reads it, or
`none` when there is none. -/
def keysWhy : Nat → Json → Option String
  | 0, Json.arr _ => some "a value nests too deep"
  | 0, Json.obj _ => some "a value nests too deep"
  | 0, _ => none
  | n + 1, Json.arr a => firstWhy (fun x => keysWhy n x) a.data
  | n + 1, Json.obj kvs =>
    if nodupKB (pairs kvs) = false then some "an object has a repeated name"
    else if Json.orderedB kvs = false then some "an object's names are not in search-tree order"
    else firstWhy (fun p => keysWhy n p.2) (pairs kvs)
  | n + 1, _ => none

/-- The refusal names its reason: a repeated name, an object not ordered as a search tree (which a
lookup relies on), or too deep a nesting (which `guarded` refuses first). -/
def keysError (v : Json) : String :=
  "input: " ++ match keysWhy jsonFuel v with
    | some r => r
    | none => "an object fails the name check"

/-- A judgment run only on an input whose objects have distinct names at every depth. -/
def keysGuard (f : Json → Except String Json) (input : Json) : Except String Json :=
  match keysAtMost jsonFuel input with
  | true => f input
  | false => Except.error (keysError input)

/-- A value passed on only when its objects have distinct names at every depth. -/
def admitKeys (v : Json) : Except String Json :=
  match keysAtMost jsonFuel v with
  | true => Except.ok v
  | false => Except.error (keysError v)

end AgentWarrant.Oracle
