import AgentWarrant.Oracle.MonitorFull
import AgentWarrant.Spec.Monitor.Registration
import AgentWarrant.Spec.Monitor.RegistrationSchema
/-! The `policy_check` judgment: a policy in its JSON form (the whole monitor's input) is checked
against the schema's structure (`Spec/Monitor/RegistrationSchema.lean`, `schema` in the answer lists
the places that break it), decoded, and its registration checked (`Spec/Monitor/Registration.lean`): the checks on the `Policy` the monitor
evaluates (`registrationOk`) and the declaration checks on what only the JSON form carries (`formOk`
on `formOf`: name and action syntax, the level list, category and requirement references,
authoritative resolver paths, audience node kinds, the numeric domain of counts, constants and
bounds). A decoding failure (a label naming an undeclared level, a missing field) is a registration
error, not an oracle error, so the answer is always a verdict: `{"ok": ..., "errors": [check, ...],
"schema": [path, ...]}` (the failed checks by name, `"schema"` first when the structure is broken). The
verdict is the structural judgment and the registration's; on a document that meets the schema the
decoder refuses only a level reference to an undeclared level, which the form's check `levelRefs`
refuses too, so a decoding failure is never the only error (the differential tests check it).

`formOf` reads leniently (a field of the wrong type contributes nothing): the decoder of the policy
itself refuses what is malformed, and the form's lists only collect what the declaration checks look
at. Which places of the JSON form each list collects is stated on the document and proved both ways
on every input the oracle answers (`Thm/Monitor/DecodeFind.lean`, `Thm/Monitor/DecodeFormRefs.lean`);
the differential test (tests/drt/test_registration.py) breaks each of them against the Python
validator. -/
namespace AgentWarrant.Oracle.Registration
open Lean AgentWarrant.Oracle AgentWarrant.Monitor.Full

def field (j : Json) (k : String) : Option Json := match j.getObjVal? k with
  | Except.ok v => some v
  | Except.error _ => none

/-- The elements of an array field (none when absent or not an array). -/
def arrL (j : Json) (k : String) : List Json := match field j k with
  | some (Json.arr a) => a.toList
  | _ => []

def strsOf (l : List Json) : List String :=
  l.foldr (fun v acc => match v with
    | Json.str s => s :: acc
    | _ => acc) []

def strL (j : Json) (k : String) : List String := strsOf (arrL j k)

/-- A string field, as a list of at most one. -/
def strF (j : Json) (k : String) : List String := match field j k with
  | some (Json.str s) => [s]
  | _ => []

/-- A field present and not null, as a list of at most one. -/
def valF (j : Json) (k : String) : List Json := match field j k with
  | some Json.null => []
  | some v => [v]
  | none => []

def catMap {α β : Type} (f : α → List β) (l : List α) : List β := l.foldr (fun x acc => f x ++ acc) []

def kindIs (j : Json) (k : String) : Bool := strF j "kind" == [k]

/-- The constant of a resource or resource pattern of kind `const`. -/
def constOf (r : Json) : List Json := if kindIs r "const" then valF r "value" else []

def objVals (j : Json) : List Json := match j with
  | Json.obj kvs => (pairs kvs).map (·.2)
  | _ => []

def formOf (p : Json) : Form :=
  let nodes := arrL p "nodes"
  let edges := arrL p "edges"
  let tools := arrL p "tools"
  let resolvers := arrL p "resolvers"
  let entries := arrL p "user" ++ arrL p "application"
  let preds := catMap (fun e => arrL e "where") entries
  let audiences := arrL p "audiences"
  let effects := catMap (fun t => arrL t "effects") tools
  let audEffects := catMap (fun a => arrL a "effects") audiences
  let transforms := (edges.filterMap (fun e => field e "propagation")).filter (fun t => kindIs t "transform")
  let allows := entries.filter (fun e => kindIs e "allow")
  { names := strF p "name" ++ strL p "levels" ++ strL p "categories" ++ strL p "requirements" ++
      catMap (fun d => strF d "name") (nodes ++ edges ++ arrL p "agents" ++ tools ++ arrL p "origins" ++
        arrL p "histories") ++
      catMap (fun r => strF r "slot") resolvers ++ catMap (fun t => strL t "args") tools ++
      catMap (fun e => strL e "keys") entries ++ catMap (fun q => strL q "path") preds
    dotted := catMap (fun e => strF e "action") (effects ++ audEffects ++ entries) ++
      catMap (fun t => strL t "authoritative") tools
    levels := strL p "levels"
    categories := strL p "categories"
    catRefs := catMap (fun n => match field n "label" with
        | some l => strL l "categories"
        | none => []) nodes ++
      catMap (fun t => strL t "remove") transforms ++
      catMap (fun f => match field f "when" with
        | some g => strL g "any_category" ++ strL g "no_category"
        | none => []) (arrL p "flows")
    requirements := strL p "requirements"
    reqRefs := catMap (fun e => strF e "requires") allows
    authoritative := catMap (fun t => (strF t "name").map (fun n => (n, strL t "authoritative"))) tools
    resolverPaths := catMap (fun r => match strF r "tool", strF r "path" with
        | [t], [q] => [(t, q)]
        | _, _ => []) resolvers
    sinks := catMap (fun n => if kindIs n "sink" then strF n "name" else []) nodes
    audienceNodes := catMap (fun a => strF a "node") audiences
    counts := catMap (fun t => valF t "decrement") transforms ++ catMap (fun e => valF e "quota") allows
    scalars := catMap (fun e => match field e "resource" with
        | some r => constOf r
        | none => []) (effects ++ audEffects ++ entries) ++
      catMap (fun r => match field r "args" with
        | some a => objVals a
        | none => []) resolvers ++
      catMap (fun q => if kindIs q "eq" then valF q "value" else if kindIs q "one_of" then arrL q "values" else []) preds
    bounds := catMap (fun q => if kindIs q "range" then valF q "low" ++ valF q "high" else []) preds
    levelRefs := catMap (fun n => match field n "label" with
        | some l => strF l "sensitivity"
        | none => []) nodes ++
      catMap (fun a => strF a "ceiling") (arrL p "agents") ++
      catMap (fun t => strF t "sensitivity") transforms ++
      catMap (fun f => match field f "when" with
        | some g => strF g "max_sensitivity" ++ strF g "min_sensitivity"
        | none => []) (arrL p "flows") }

/-- The verdict from the schema's structural check, the form and the decoder's answer: the document
meets the schema, and the decoder returns a policy on which the registration's checks and the form's
hold; a document the decoder refuses fails (`Thm/Monitor/DecodeVerdict.lean` states it on the document). -/
def verdictOf (structural : Bool) (form : Form) (decoded : Dec Policy) : Bool :=
  structural && (match decoded with
    | Except.ok p => registrationOk p && formOk form
    | Except.error _ => false)

/-- The schema's structural checks (`Schema.policyE`, deciding `Schema.PolicySchema`), then the
registration's: the verdict holds only when the document meets the schema, so what the decoder would
refuse of a malformed document never decides it. `schema` lists the places that break the schema. -/
def policyCheck (j : Json) : Dec Json := do
  let pj ← req j "policy"
  let structural := Schema.policyE [] pj
  let form := formOf pj
  let decoded := MonitorFull.policyOf pj
  let errs := match decoded with
    | Except.ok p => registrationErrors p ++ formErrors form
    | Except.error e => formErrors form ++ ["decoding: " ++ e]
  let schemaErrs : List String := if structural.isEmpty then [] else ["schema"]
  pure $ Json.mkObj [("ok", toJson (verdictOf structural.isEmpty form decoded)),
    ("errors", toJson (schemaErrs ++ errs).toArray),
    ("schema", toJson (structural.map (fun p => toJson p.toArray)).toArray)]

def judgments : List Judgment := [("policy_check", policyCheck)]

end AgentWarrant.Oracle.Registration
