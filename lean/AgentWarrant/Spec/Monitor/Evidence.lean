import Lean.Data.Json
import AgentWarrant.Spec.Monitor.EvidenceCrypto
import AgentWarrant.Spec.Monitor.Issuance
/-! The evidence check an application runs before it issues an exact-call permit (Agenra Table 1 and
Section 3; the signed single-use approvals of the Parmana paper, Section 4.3), mirroring
`model/monitor/decide/permits.py` (`signed_approval_evidence`), `model/admission/decision/evidence.py`,
`approvals.py` (`load_approval`, `verify_approval`) and `model/admission/signatures/hybrid.py`
(`verify_message`) for classical Ed25519 approver keys, and runs whose issuances it gates.

An approval is accepted when, in the Python model's order: the call has exactly one effect unit with a
string resource (and a numeric amount when the deployment names an amount argument); the approval has
the wire format (`loadApproval`); its approver key is registered and unrevoked; the Ed25519 signature
(computed in `EvidenceCrypto.lean`, not supplied) verifies over the RFC 8785 bytes of its payload
(`canonBytes`) in the form the length requires; its lifetime is in (0, 24 h], it was issued at most 60 s
after the supplied clock and expires after it; it names the call's action and resource, and its scope
binds the resource (no amount) or bounds the amount; and its nonce (`approverId/nonce`) is not in the
nonce store, which then records it.

Choices and limits where the Lean form differs from the Python model's inputs:
- Numbers: a JSON number is read exactly (mantissa and decimal exponent). `canonNum` writes the RFC 8785
  (ECMAScript) form of integers within ±(2^53 - 1) and of non-integers with at most 15 significant
  digits in the normal double range, where the decimal is its double's shortest form. An approval or
  amount holding another number is outside this model: the check answers `unsupported`, never a verdict.
- Registry keys are classical (one Ed25519 key each). An approver with a hybrid key (Ed25519 with
  ML-DSA-65) is not representable: ML-DSA-65 is not computed here. A hybrid signature under a classical
  key is refused as a downgrade before any ML-DSA check, as in Python.
- The clock is a number of microseconds since 1970-01-01 UTC; the nonce store is the list of spent
  `approverId/nonce` strings of the approval namespace.
- The call's effect units (action, resource) are an input, as `signed_approval_evidence` receives them. -/
namespace AgentWarrant.Evidence
open Lean

-- RFC 8785 canonical JSON ---------------------------------------------------------------------------

def utf16Units (s : String) : List Nat :=
  s.toList.bind (fun c => let n := c.toNat
    if n < 65536 then [n] else [55296 + (n - 65536) / 1024, 56320 + (n - 65536) % 1024])

def unitsLt : List Nat → List Nat → Bool
  | [], [] => false
  | [], _ => true
  | _, [] => false
  | a :: as, b :: bs => if a < b then true else if b < a then false else unitsLt as bs

def insertKey (kv : String × Json) : List (String × Json) → List (String × Json)
  | [] => [kv]
  | x :: xs => if unitsLt (utf16Units kv.1) (utf16Units x.1) then kv :: x :: xs else x :: insertKey kv xs

def sortKeys (l : List (String × Json)) : List (String × Json) := l.foldl (fun acc kv => insertKey kv acc) []

def objList (kvs : Std.RBNode String (fun _ => Json)) : List (String × Json) :=
  kvs.fold (fun acc k v => acc ++ [(k, v)]) []

def hexDigit (d : Nat) : Char := if d < 10 then Char.ofNat (48 + d) else Char.ofNat (87 + d)

def escChar (c : Char) : String :=
  let n := c.toNat
  if c = '"' then "\\\"" else if c = '\\' then "\\\\"
  else if n = 8 then "\\b" else if n = 9 then "\\t" else if n = 10 then "\\n"
  else if n = 12 then "\\f" else if n = 13 then "\\r"
  else if n < 32 then String.mk ['\\', 'u', '0', '0', hexDigit (n / 16), hexDigit (n % 16)]
  else String.singleton c

def canonStr (s : String) : String := "\"" ++ String.join (s.toList.map escChar) ++ "\""

def decDigits : Nat → Nat → List Char
  | 0, _ => []
  | f+1, n => if n < 10 then [Char.ofNat (48 + n)] else decDigits f (n / 10) ++ [Char.ofNat (48 + n % 10)]

/-- `n` without its trailing decimal zeros, and how many there were. -/
def stripZeros : Nat → Nat → Nat × Nat
  | 0, n => (n, 0)
  | f+1, n => if n != 0 && n % 10 == 0 then let r := stripZeros f (n / 10); (r.1, r.2 + 1) else (n, 0)

def zeros (n : Nat) : List Char := List.replicate n '0'

/-- ECMAScript's Number::toString for the digits `ds` (no trailing zero) and decimal point position
`n` (the value is 0.ds × 10^n). -/
def esFormat (ds : List Char) (n : Int) : String :=
  let k : Int := List.length ds
  if k ≤ n && n ≤ 21 then String.mk (ds ++ zeros (n - k).toNat)
  else if 0 < n && n ≤ 21 then String.mk (ds.take n.toNat ++ ['.'] ++ ds.drop n.toNat)
  else if -6 < n && n ≤ 0 then String.mk (['0', '.'] ++ zeros (-n).toNat ++ ds)
  else
    let e := n - 1
    let mant := match ds with
      | [d] => [d]
      | d :: rest => d :: '.' :: rest
      | [] => []
    String.mk mant ++ "e" ++ (if e ≥ 0 then "+" else "-") ++ toString e.natAbs

def safeMax : Nat := 2 ^ 53 - 1

/-- The RFC 8785 text of a JSON number, or `none` outside the domain in the module docstring. -/
def canonNum (x : JsonNumber) : Option String :=
  let a := x.mantissa.natAbs
  if a = 0 then some "0" else
  let (s, t) := stripZeros (a + 1) a
  let ds := decDigits (s + 1) s
  let isInt := t ≥ x.exponent
  let n : Int := (List.length ds : Int) + t - x.exponent
  let ok := (isInt && s * 10 ^ (t - x.exponent) ≤ safeMax) ||
    (!isInt && List.length ds ≤ 15 && -306 ≤ n && n ≤ 308)
  if !ok then none else some ((if x.mantissa < 0 then "-" else "") ++ esFormat ds n)

def canon : Nat → Json → Option String
  | 0, _ => none
  | _+1, Json.null => some "null"
  | _+1, Json.bool b => some (if b then "true" else "false")
  | _+1, Json.num x => canonNum x
  | _+1, Json.str s => some (canonStr s)
  | f+1, Json.arr a =>
    let parts := a.toList.map (canon f)
    if parts.any Option.isNone then none else some ("[" ++ ",".intercalate (parts.map (·.getD "")) ++ "]")
  | f+1, Json.obj kvs =>
    let parts := (sortKeys (objList kvs)).map (fun kv => (canon f kv.2).map (fun v => canonStr kv.1 ++ ":" ++ v))
    if parts.any Option.isNone then none else some ("{" ++ ",".intercalate (parts.map (·.getD "")) ++ "}")

/-- Nesting the canonical form reads: deeper values are outside the model. -/
def canonFuel : Nat := 256

def utf8 (s : String) : Bytes := s.toUTF8.toList.map UInt8.toNat

/-- The RFC 8785 bytes of a JSON value (`model.base.canonical.canonical_bytes`). -/
def canonBytes (j : Json) : Option Bytes := (canon canonFuel j).map utf8

-- ISO-8601 instants -------------------------------------------------------------------------------

def digitOf (c : Char) : Option Nat := if '0' ≤ c && c ≤ '9' then some (c.toNat - 48) else none

def numOf (cs : List Char) : Option Nat :=
  cs.foldl (fun acc c => match acc, digitOf c with | some a, some d => some (10 * a + d) | _, _ => none) (some 0)

def leap (y : Nat) : Bool := y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)

def monthDays (y m : Nat) : Nat :=
  if m = 2 then (if leap y then 29 else 28) else if m = 4 || m = 6 || m = 9 || m = 11 then 30 else 31

/-- Days from 1970-01-01 to the civil date (proleptic Gregorian, year ≥ 1). -/
def daysFromCivil (y m d : Nat) : Int :=
  let y' := if m ≤ 2 then y - 1 else y
  let era := y' / 400
  let yoe := y' - era * 400
  let mp := if m > 2 then m - 3 else m + 9
  let doy := (153 * mp + 2) / 5 + d - 1
  let doe := yoe * 365 + yoe / 4 - yoe / 100 + doy
  Int.ofNat (era * 146097 + doe) - 719468

/-- `model.base.signing.parse_instant`: `YYYY-MM-DDTHH:MM:SS[.f{1,6}]Z` (a calendar date of a year from 1,
hours below 24, minutes and seconds below 60), in microseconds since 1970-01-01; a final line feed after
the `Z` is accepted, as Python's `$` accepts it. -/
def parseInstant (s : String) : Option Int :=
  let cs0 := s.toList
  let cs := if cs0.getLast? == some '\n' then cs0.dropLast else cs0
  if cs.getLast? != some 'Z' then none else
  let body := cs.dropLast
  let main := body.take 19
  let frac := body.drop 19
  let sep := fun (i : Nat) (c : Char) => main.getD i ' ' == c
  if List.length main != 19 || !(sep 4 '-' && sep 7 '-' && sep 10 'T' && sep 13 ':' && sep 16 ':') then none else
  let fracOk := frac.isEmpty || (frac.head? == some '.' && 2 ≤ List.length frac && List.length frac ≤ 7)
  if !fracOk then none else
  let fd := frac.drop 1
  match numOf (main.take 4), numOf ((main.drop 5).take 2), numOf ((main.drop 8).take 2),
        numOf ((main.drop 11).take 2), numOf ((main.drop 14).take 2), numOf ((main.drop 17).take 2),
        numOf fd with
  | some y, some mo, some d, some h, some mi, some sec, some f =>
    if y = 0 || mo = 0 || mo > 12 || d = 0 || d > monthDays y mo || h > 23 || mi > 59 || sec > 59 then none
    else
      let micros := f * 10 ^ (6 - List.length fd)
      some (daysFromCivil y mo d * 86400000000 + Int.ofNat ((h * 3600 + mi * 60 + sec) * 1000000 + micros))
  | _, _, _, _, _, _, _ => none

-- the wire format ----------------------------------------------------------------------------------

structure Approval where
  approvalId : String
  approverId : String
  keyId : String
  issuedAt : Int
  expiresAt : Int
  capability : String
  resourceId : String
  scopeField : String
  scopeValue : Json
  nonce : String
  algorithm : String
  sigValue : String
  pqValue : Option String

def keysOf : Json → Option (List String)
  | Json.obj kvs => some ((objList kvs).map (·.1))
  | _ => none

def sameKeys (j : Json) (ks : List String) : Bool :=
  match keysOf j with
  | some have_ => List.length have_ == List.length ks && ks.all (fun k => have_.contains k)
  | none => false

def field (j : Json) (k : String) : Option Json :=
  match j with
  | Json.obj kvs => kvs.find compare k
  | _ => none

def hasKey (j : Json) (k : String) : Bool := (field j k).isSome

/-- `approvals._string`: a non-empty string. -/
def nonEmpty (j : Json) (k : String) : Option String :=
  match field j k with
  | some (Json.str s) => if s.isEmpty then none else some s
  | _ => none

def strField (j : Json) (k : String) : Option String :=
  match field j k with
  | some (Json.str s) => some s
  | _ => none

def numIs (j : Option Json) (m : Int) : Bool :=
  match j with
  | some (Json.num x) => x.mantissa == m * (10 : Int) ^ x.exponent
  | _ => false

def positiveNum (j : Json) : Bool :=
  match j with
  | Json.num x => x.mantissa > 0
  | _ => false

def classical : String := "ed25519"
def hybrid : String := "ed25519+ml-dsa-65"

def instantField (j : Json) (k : String) : Option Int :=
  match field j k with
  | some (Json.str s) => parseInstant s
  | _ => none

def ok (b : Bool) : Except String Unit := if b then Except.ok () else Except.error "malformed"
def get (o : Option α) : Except String α := match o with | some a => Except.ok a | none => Except.error "malformed"

/-- `approvals.load_approval`: the typed approval, or an error (MALFORMED) for anything else. -/
def loadApproval (j : Json) : Except String Approval := do
  ok (sameKeys j ["payload", "signature"])
  let p ← get $ field j "payload"
  let s ← get $ field j "signature"
  ok (sameKeys p ["version", "approvalId", "issuer", "issuedAt", "expiresAt", "capability", "resourceId",
      "scope", "nonce"])
  let sk ← get $ keysOf s
  ok (["algorithm", "keyId", "value"].all (fun k => sk.contains k) &&
      sk.all (fun k => ["algorithm", "keyId", "value", "signedAt", "pqValue"].contains k))
  ok (numIs (field p "version") 1)
  let issuer ← get $ field p "issuer"
  ok (sameKeys issuer ["approverId", "keyId"])
  let iss ← get $ instantField p "issuedAt"
  let exp ← get $ instantField p "expiresAt"
  let scope ← get $ field p "scope"
  ok (sameKeys scope ["field", "comparator", "value"])
  let sf ← get $ strField scope "field"
  let sc ← get $ strField scope "comparator"
  let sv ← get $ field scope "value"
  ok ((sf == "value" && sc == "lte" && positiveNum sv) ||
      (sf == "resourceId" && sc == "eq" && (nonEmpty scope "value").isSome))
  let alg ← get $ strField s "algorithm"
  ok (alg == classical || alg == hybrid)
  ok (hasKey s "pqValue" == (alg == hybrid))
  let pq ← get (if hasKey s "pqValue" then (nonEmpty s "pqValue").map some else some none)
  ok (!hasKey s "signedAt" || (instantField s "signedAt").isSome)
  let sig ← get $ nonEmpty s "value"
  let keyId ← get $ nonEmpty issuer "keyId"
  ok (strField s "keyId" == some keyId)
  let _ ← get $ canonBytes p
  let approvalId ← get $ nonEmpty p "approvalId"
  let approverId ← get $ nonEmpty issuer "approverId"
  let capability ← get $ nonEmpty p "capability"
  let resourceId ← get $ nonEmpty p "resourceId"
  let nonce ← get $ nonEmpty p "nonce"
  pure { approvalId := approvalId, approverId := approverId, keyId := keyId, issuedAt := iss, expiresAt := exp,
         capability := capability, resourceId := resourceId, scopeField := sf, scopeValue := sv,
         nonce := nonce, algorithm := alg, sigValue := sig, pqValue := pq }

/-- Every number in a value is one `canonNum` writes (the domain of the model). -/
def numsIn : Nat → Json → Bool
  | 0, _ => false
  | _+1, Json.num x => (canonNum x).isSome
  | f+1, Json.arr a => a.toList.all (numsIn f)
  | f+1, Json.obj kvs => (objList kvs).all (fun kv => numsIn f kv.2)
  | _+1, _ => true

-- the signature (hybrid.verify_message for a classical key) ---------------------------------------

def kmsLimit : Nat := 4096
def commitment : Bytes := [255] ++ utf8 "agentwarrant/commitment/sha-512/v1" ++ [0]
def hybridLabel : Bytes := [255] ++ utf8 "agentwarrant/hybrid/ed25519+ml-dsa-65/v1" ++ [0]

/-- The bytes signed for a message: the message itself up to 4,096 bytes, else the SHA-512 commitment. -/
def signedForm (m : Bytes) : Bytes := if List.length m ≤ kmsLimit then m else commitment ++ sha512 m
def otherForm (m : Bytes) : Bytes := if List.length m ≤ kmsLimit then commitment ++ sha512 m else m

/-- `verify_message` under a classical key: `none` when the signature verifies over the message's
signed form, else the refusal it leads to. -/
def pqBytes (a : Approval) : Option Bytes :=
  match a.pqValue with
  | some t => b64Decode t
  | none => some []

def sigDefect (pub m : Bytes) (a : Approval) : Option String :=
  if m.head? = some 255 then some "bad-signature" else
  match b64Decode a.sigValue, pqBytes a with
  | some ed, some pq =>
    if List.length ed ≠ 64 then some "bad-signature"
    else if a.algorithm = hybrid then (if List.length pq ≠ 3309 then some "bad-signature" else some "signature-downgrade")
    else if ed25519Verify pub (signedForm m) ed = true then none
    else if ed25519Verify pub (otherForm m) ed = true then some "signature-downgrade"
    else if ed25519Verify pub (hybridLabel ++ signedForm m) ed = true then some "signature-downgrade"
    else some "bad-signature"
  | _, _ => some "bad-signature"

-- the binding rules (approvals.verify_approval) ----------------------------------------------------

structure KeyEntry where
  approverId : String
  keyId : String
  publicKey : Bytes
  revoked : Bool

def lookupKey (reg : List KeyEntry) (aid kid : String) : Option KeyEntry :=
  reg.find? (fun k => k.approverId == aid && k.keyId == kid)

def maxTtl : Int := 86400000000
def clockSkew : Int := 60000000

def timeDefect (a : Approval) (now : Int) : Option String :=
  if a.expiresAt - a.issuedAt ≤ 0 then some "ttl-too-long"
  else if a.expiresAt - a.issuedAt > maxTtl then some "ttl-too-long"
  else if a.issuedAt > now + clockSkew then some "not-yet-valid"
  else if now ≥ a.expiresAt then some "expired"
  else none

/-- Exact comparison of two JSON numbers: `x < y`. -/
def numLt (x y : JsonNumber) : Bool :=
  x.mantissa * (10 : Int) ^ y.exponent < y.mantissa * (10 : Int) ^ x.exponent

def bindingDefect (a : Approval) (action resource : String) (amount : Option JsonNumber) : Option String :=
  if a.capability ≠ action then some "wrong-action"
  else if a.resourceId ≠ resource then some "wrong-resource"
  else match amount with
    | none =>
      if a.scopeField ≠ "resourceId" then some "scope-mismatch" else
      match a.scopeValue with
      | Json.str v => if v ≠ resource then some "scope-mismatch" else none
      | _ => some "scope-mismatch"
    | some x =>
      if a.scopeField ≠ "value" then some "scope-mismatch"
      else if x.mantissa < 0 then some "amount-out-of-domain"
      else match a.scopeValue with
        | Json.num v => if numLt v x then some "amount-exceeded" else none
        | _ => some "scope-mismatch"

def verifyApproval (reg : List KeyEntry) (a : Approval) (m : Bytes) (action resource : String)
    (amount : Option JsonNumber) (now : Int) : Option String :=
  match lookupKey reg a.approverId a.keyId with
  | none => some "unknown-approver"
  | some k =>
    if k.revoked then some "revoked-key" else
    match sigDefect k.publicKey m a with
    | some r => some r
    | none => match timeDefect a now with
      | some r => some r
      | none => bindingDefect a action resource amount

-- the permit evidence check (permits.signed_approval_evidence) -------------------------------------

/-- What an application hands the check: the call's effect units (action, resource), its arguments,
the deployment's amount argument, the approval, and the clock's reading. -/
structure Request where
  effects : List (String × Json)
  args : List (String × Json)
  amountArg : Option String
  approval : Json
  now : Int

inductive EvVerdict where
  | accepted
  | refused (reason : String)
  | unsupported
  deriving BEq, Repr

def nonceKey (a : Approval) : String := a.approverId ++ "/" ++ a.nonce

def payloadOf (j : Json) : Json := (field j "payload").getD Json.null

/-- The action, resource and amount the approval must bind, or the refusal of `permits.py`. -/
def callBinding (q : Request) : Except String (String × String × Option JsonNumber) :=
  match q.effects with
  | [e] =>
    match e.2 with
    | Json.str resource =>
      match q.amountArg with
      | none => Except.ok (e.1, resource, none)
      | some name => match q.args.lookup name with
        | some (Json.num x) => Except.ok (e.1, resource, some x)
        | _ => Except.error "not-an-amount"
    | _ => Except.error "resource-not-a-string"
  | _ => Except.error "not-one-effect"

def inDomain (q : Request) : Bool :=
  numsIn canonFuel q.approval && q.args.all (fun kv => numsIn canonFuel kv.2)

/-- The evidence check and the nonce store after it: an accepted approval spends its nonce; a refusal
leaves the store as it was. -/
def evidenceCheck (reg : List KeyEntry) (spent : List String) (q : Request) : EvVerdict × List String :=
  if !inDomain q then (EvVerdict.unsupported, spent) else
  match callBinding q with
  | Except.error r => (EvVerdict.refused r, spent)
  | Except.ok (action, resource, amount) =>
    match loadApproval q.approval with
    | Except.error _ => (EvVerdict.refused "malformed", spent)
    | Except.ok a =>
      match canonBytes (payloadOf q.approval) with
      | none => (EvVerdict.refused "malformed", spent)
      | some m =>
        match verifyApproval reg a m action resource amount q.now with
        | some r => (EvVerdict.refused r, spent)
        | none =>
          if spent.contains (nonceKey a) then (EvVerdict.refused "nonce-spent", spent)
          else (EvVerdict.accepted, nonceKey a :: spent)

-- runs whose issuances the check gates ---------------------------------------------------------------

open AgentWarrant.Monitor AgentWarrant.Monitor.Full

/-- A task's events when the application issues permits only on accepted evidence: the agent proposes
a call, or the application asks for a permit for `tool` with argument identity `ident`, backed by `q`. -/
inductive GatedEvent where
  | call (c : Call) (o : Outcome)
  | request (tool : String) (ident : List (String × Ident)) (q : Request)

def gatedStep (p : Policy) (reg : List KeyEntry) (st : State × List String) : GatedEvent → State × List String
  | GatedEvent.call c o => ((stepFull p st.1 c o).2, st.2)
  | GatedEvent.request t i q =>
    match evidenceCheck reg st.2 q with
    | (EvVerdict.accepted, spent) => (issuePermit st.1 t i, spent)
    | (_, spent) => (st.1, spent)

def runGated (p : Policy) (reg : List KeyEntry) : State × List String → List GatedEvent → State × List String
  | st, [] => st
  | st, e :: es => runGated p reg (gatedStep p reg st e) es

/-- The monitor events a gated run amounts to: its calls, and the issuances whose evidence was accepted. -/
def gatedTrace (p : Policy) (reg : List KeyEntry) : State × List String → List GatedEvent → List Event
  | _, [] => []
  | st, GatedEvent.call c o :: es => Event.call c o :: gatedTrace p reg ((stepFull p st.1 c o).2, st.2) es
  | st, GatedEvent.request t i q :: es =>
    match evidenceCheck reg st.2 q with
    | (EvVerdict.accepted, sp) => Event.issue t i :: gatedTrace p reg (issuePermit st.1 t i, sp) es
    | (_, sp) => gatedTrace p reg (st.1, sp) es

end AgentWarrant.Evidence
