import Lean.Data.Json
import AgentWarrant.Spec.Edits.Verify
/-! Oracle entries for execution edits beyond `edit_check` and `resolve` (which live in
`Oracle/Main.lean`): `verify_rejection`, the rejection-proof verifier of `Spec/Edits/Verify.lean`.

Input: `{"instance": <edit_check input>, "family": [cand], "rounds": [[{"cand": cand, "pre": word,
"miss": n}]]}` with `cand = [outcome, word]` and `word = [[call, action, new]]`, numbered as for
`edit_check`. Output: `{"valid": bool}`. Decoders are local so this file depends on no other
oracle module. -/
namespace AgentWarrant.Oracle.Edits
open Lean AgentWarrant AgentWarrant.Edits

abbrev Dec := Except String

def field (j : Json) (k : String) : Dec Json := j.getObjVal? k

def as (α : Type) [FromJson α] (j : Json) : Dec α :=
  match fromJson? j with
  | Except.ok a => pure a
  | Except.error e => throw e

def listOf (f : Json → Dec α) (j : Json) : Dec (List α) := do
  let a ← as (Array Json) j
  let mut out := #[]
  for x in a do
    out := out.push (← f x)
  pure out.toList

def nats (j : Json) : Dec (List Nat) := do pure (← as (Array Nat) j).toList

def letterD (j : Json) : Dec Letter := do
  match ← listOf pure j with
  | [c, a, n] => pure ⟨← as Nat c, ← as Nat a, ← as Bool n⟩
  | _ => throw "letter: [call, action, new] expected"

def wordD (j : Json) : Dec Word := listOf letterD j

def candD (j : Json) : Dec Cand := do
  match ← listOf pure j with
  | [o, w] => pure (← as Nat o, ← wordD w)
  | _ => throw "candidate: [outcome, word] expected"

def outcomeD (j : Json) : Dec Outcome := do
  pure ⟨← as Nat (← field j "id"), ← listOf nats (← field j "lins")⟩

def instD (j : Json) : Dec Inst := do
  pure ⟨← listOf outcomeD (← field j "outcomes"), ← nats (← field j "act"), ← nats (← field j "lab"),
        ← nats (← field j "log"), ← listOf nats (← field j "policy")⟩

def removalD (j : Json) : Dec Removal := do
  pure ⟨← candD (← field j "cand"), ← wordD (← field j "pre"), ← as Nat (← field j "miss")⟩

def verifyRejection (j : Json) : Dec Json := do
  let i ← instD (← field j "instance")
  let fam ← listOf candD (← field j "family")
  let rounds ← listOf (listOf removalD) (← field j "rounds")
  pure $ Json.mkObj [("valid", toJson (verifyProof i fam rounds))]

end AgentWarrant.Oracle.Edits
