import Lean.Data.Json
/-! Decoding helpers shared by every judgment module of the oracle. Every key of an input is
required (an optional value is written `null`), so a misspelt key is an `input` error rather than a
silently defaulted field. -/
namespace AgentWarrant.Oracle
open Lean

abbrev Dec := Except String

def req (j : Json) (k : String) : Dec Json := j.getObjVal? k

def getAs (α : Type) [FromJson α] (j : Json) (k : String) : Dec α := do
  let v ← req j k
  match fromJson? v with
  | Except.ok a => pure a
  | Except.error e => throw s!"{k}: {e}"

def arrOf (f : Json → Dec α) (j : Json) (k : String) : Dec (List α) := do
  let a ← getAs (Array Json) j k
  let mut out := #[]
  for x in a do
    out := out.push (← f x)
  pure out.toList

def natList (j : Json) (k : String) : Dec (List Nat) := do pure (← getAs (Array Nat) j k).toList
def boolList (j : Json) (k : String) : Dec (List Bool) := do pure (← getAs (Array Bool) j k).toList
def strList (j : Json) (k : String) : Dec (List String) := do pure (← getAs (Array String) j k).toList

def natListJ (j : Json) : Dec (List Nat) := do
  match fromJson? j with
  | Except.ok (a : Array Nat) => pure a.toList
  | Except.error e => throw e

def jNats (l : List Nat) : Json := toJson l.toArray

/-- A judgment: its name in the request, and its input-to-output function. -/
abbrev Judgment := String × (Json → Dec Json)

end AgentWarrant.Oracle
