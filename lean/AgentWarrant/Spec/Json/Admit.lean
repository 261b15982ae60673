import Lean.Data.Json
import AgentWarrant.Spec.Monitor.Json
import AgentWarrant.Spec.Json.ObjLookup
/-! The two checks the oracle runs on every judgment's input before the judgment runs, as functions on
`Json` (the oracle's refusals built on them live in `Oracle/Depth.lean` and `Oracle/Keys.lean`; their
soundness in `Thm/Oracle/Depth.lean` and `Thm/Oracle/Keys.lean`). They are here, in the specification
library, because a specification reads them too: the literal of equality against an array or object
constant (`Spec/Revision/ArgCoverJson.lean`) holds only on values both checks admit. The names stay in
the `Oracle` namespace, where every proof about them already refers to them. -/
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

/-- No name of the list is bound again later in it. -/
def nodupKB : List (String × Json) → Bool
  | [] => true
  | p :: ps => match lookupK p.1 ps with
    | none => nodupKB ps
    | some _ => false

/-- Every object of `v` has distinct names and is a search tree (`Json.orderedB`: what lets a lookup find
every member, `Thm/Json/ObjLookup.lean`; the parsers build every object by `insert compare`, which keeps
it one, `Json.insertOrd`), and `v` nests at most `n` deep. Structural on `n`. -/
def keysAtMost : Nat → Json → Bool
  | 0, Json.arr _ => false
  | 0, Json.obj _ => false
  | 0, _ => true
  | n + 1, Json.arr a => allB (fun x => keysAtMost n x) a.data
  | n + 1, Json.obj kvs => nodupKB (pairs kvs) && (Json.orderedB kvs && allB (fun p => keysAtMost n p.2) (pairs kvs))
  | n + 1, _ => true

end AgentWarrant.Oracle
