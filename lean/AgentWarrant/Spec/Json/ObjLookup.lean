import Lean.Data.Json
import AgentWarrant.Spec.Monitor.Json
/-! JSON objects as search trees. A `Lean.Json` object is a red-black tree (`Std.RBNode`) that
`getObjVal?`, the oracle's readers and `lookupPath` search with `RBNode.find compare`; `Json.mkObj` and
both request parsers (`Oracle/Parse.lean`, `Oracle/FastParse.lean`) build it by `RBNode.insert compare`
from the empty tree. The `Json` type does not carry the search-tree order, so a lookup finding every
member is a fact about how a tree was built: `Thm/Json/ObjLookup.lean` proves that String `compare` is a
strict total order, that insertion keeps a tree `Ordered` and adds exactly its key (`KeysAll`), that on
an ordered tree `find` misses a key only when no key is it and returns every member at its key, and so
that `Json.mkObj` (`objOf`) has a value at exactly the keys of its list.

`Ordered` is stated with the keys below and above each node (`KeysAll`), the order being `compare`'s
`lt`. `orderedB` decides it, for the oracle's check of its input (`Oracle/Keys.lean`): the parsers are
not proved to build ordered trees (their state machines are not taken apart here), so, as for distinct
names, the oracle checks what it relies on; it refuses none of their values. `ObjsOrdered`: every object
of a value, at every depth, is ordered. -/
namespace AgentWarrant.Json
open Lean AgentWarrant.Monitor.Full

abbrev Obj := Std.RBNode String (fun _ => Json)

/-- Every key of the tree meets `P`. -/
def KeysAll (P : String → Prop) : Obj → Prop
  | Std.RBNode.leaf => True
  | Std.RBNode.node _ l k _ r => KeysAll P l ∧ P k ∧ KeysAll P r

/-- A search tree: at every node the keys to the left are below the node's key and those to the right
above it. -/
def Ordered : Obj → Prop
  | Std.RBNode.leaf => True
  | Std.RBNode.node _ l k _ r => KeysAll (fun x => compare x k = Ordering.lt) l ∧
      KeysAll (fun x => compare k x = Ordering.lt) r ∧ Ordered l ∧ Ordered r

/-- The tree `Json.mkObj` builds from a list: each pair inserted in turn. -/
def objOf : Obj → List (String × Json) → Obj
  | t, [] => t
  | t, (k, v) :: ps => objOf (Std.RBNode.insert compare t k v) ps

/-- Every key of the list meets `P`. -/
def KeysAllL (P : String → Prop) : List (String × Json) → Prop
  | [] => True
  | p :: ps => P p.1 ∧ KeysAllL P ps

def keysAllB (p : String → Bool) : Obj → Bool
  | Std.RBNode.leaf => true
  | Std.RBNode.node _ l k _ r => keysAllB p l && p k && keysAllB p r

/-- Decides `Ordered`: each node's key against every key below it (a red-black tree is shallow, so
this is `n log n` comparisons). -/
def orderedB : Obj → Bool
  | Std.RBNode.leaf => true
  | Std.RBNode.node _ l k _ r => keysAllB (fun x => compare x k == Ordering.lt) l &&
      keysAllB (fun x => compare k x == Ordering.lt) r && orderedB l && orderedB r

/-- Every object of the value, at every depth, is a search tree. -/
inductive ObjsOrdered : Json → Prop
  | null : ObjsOrdered Json.null
  | bool (b : Bool) : ObjsOrdered (Json.bool b)
  | num (x : JsonNumber) : ObjsOrdered (Json.num x)
  | str (s : String) : ObjsOrdered (Json.str s)
  | arr (a : Array Json) : (∀ x, x ∈ a.data → ObjsOrdered x) → ObjsOrdered (Json.arr a)
  | obj (kvs : Obj) : Ordered kvs → (∀ k v, (k, v) ∈ pairs kvs → ObjsOrdered v) → ObjsOrdered (Json.obj kvs)

end AgentWarrant.Json
