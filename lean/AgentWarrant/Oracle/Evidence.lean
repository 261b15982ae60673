import AgentWarrant.Oracle.Common
import AgentWarrant.Spec.Monitor.Evidence
/-! The permit evidence judgments (`Spec/Monitor/Evidence.lean`, `Spec/Monitor/EvidenceCrypto.lean`):

- `permit_evidence`: `{"registry": [{"approverId", "keyId", "publicKey": hex of 32 bytes, "revoked"}],
  "spent": [approverId/nonce, ...], "now": microseconds since 1970-01-01 UTC, "effects": [[action, resource],
  ...], "args": {...}, "amountArgument": name or null, "approval": any JSON}` answers
  `{"verdict": "accepted" | "refused" | "unsupported", "reason": refusal or null, "spent": [...] after,
  "canonical": hex of the payload's RFC 8785 bytes or null}`;
- `sha512` (`{"message": hex}` → `{"digest": hex}`), `ed25519_verify` (`{"publicKey", "message",
  "signature"}` in hex → `{"valid": bool}`) and `canonical_json` (`{"value": any}` → `{"bytes": hex or
  null}`): the primitives on their own, for the standards' test vectors. -/
namespace AgentWarrant.Oracle.Evidence
open Lean AgentWarrant.Oracle AgentWarrant.Evidence

def hexVal (c : Char) : Option Nat :=
  if '0' ≤ c && c ≤ '9' then some (c.toNat - 48)
  else if 'a' ≤ c && c ≤ 'f' then some (c.toNat - 87)
  else if 'A' ≤ c && c ≤ 'F' then some (c.toNat - 55)
  else none

def hexPairs : List Char → Option Bytes
  | [] => some []
  | a :: b :: rest => match hexVal a, hexVal b, hexPairs rest with
    | some x, some y, some r => some ((16 * x + y) :: r)
    | _, _, _ => none
  | [_] => none

def hexOf (b : Bytes) : String := String.join (b.map (fun n => String.mk [hexDigit (n / 16 % 16), hexDigit (n % 16)]))

def hexField (j : Json) (k : String) : Dec Bytes := do
  match hexPairs (← getAs String j k).toList with
  | some b => pure b
  | none => throw s!"{k}: hex expected"

def keyEntry (j : Json) : Dec KeyEntry := do
  pure ⟨← getAs String j "approverId", ← getAs String j "keyId", ← hexField j "publicKey", ← getAs Bool j "revoked"⟩

def effectOf (j : Json) : Dec (String × Json) := do
  match j with
  | Json.arr a => match a.toList with
    | [Json.str action, r] => pure (action, r)
    | _ => throw "effects: [action, resource] expected"
  | _ => throw "effects: [action, resource] expected"

def objPairs (j : Json) : Dec (List (String × Json)) :=
  match j with
  | Json.obj kvs => pure (objList kvs)
  | _ => throw "args: an object expected"

def permitEvidence (j : Json) : Dec Json := do
  let reg ← arrOf keyEntry j "registry"
  let spent ← strList j "spent"
  let now ← getAs Int j "now"
  let effects ← arrOf effectOf j "effects"
  let args ← objPairs (← req j "args")
  let amountArg ← getAs (Option String) j "amountArgument"
  let approval ← req j "approval"
  let q : Request := ⟨effects, args, amountArg, approval, now⟩
  let (v, after) := evidenceCheck reg spent q
  let (name, reason) := match v with
    | EvVerdict.accepted => ("accepted", Json.null)
    | EvVerdict.refused r => ("refused", toJson r)
    | EvVerdict.unsupported => ("unsupported", Json.null)
  let canonical := match canonBytes (payloadOf approval) with
    | some b => toJson (hexOf b)
    | none => Json.null
  pure $ Json.mkObj [("verdict", toJson name), ("reason", reason), ("spent", toJson after.toArray),
    ("canonical", canonical)]

def sha512J (j : Json) : Dec Json := do
  pure $ Json.mkObj [("digest", toJson (hexOf (sha512 (← hexField j "message"))))]

def ed25519J (j : Json) : Dec Json := do
  let ok := ed25519Verify (← hexField j "publicKey") (← hexField j "message") (← hexField j "signature")
  pure $ Json.mkObj [("valid", toJson ok)]

def canonicalJ (j : Json) : Dec Json := do
  let out := match canonBytes (← req j "value") with
    | some b => toJson (hexOf b)
    | none => Json.null
  pure $ Json.mkObj [("bytes", out)]

def judgments : List Judgment :=
  [("permit_evidence", permitEvidence), ("sha512", sha512J), ("ed25519_verify", ed25519J),
   ("canonical_json", canonicalJ)]

end AgentWarrant.Oracle.Evidence
