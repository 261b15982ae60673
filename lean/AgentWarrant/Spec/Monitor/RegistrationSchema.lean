import AgentWarrant.Spec.Monitor.Registration
/-! The structural checks of a policy's JSON form: what `corpus/schemas/policy.schema.json` states
(JSON Schema, draft 2020-12), as a judgment over the parsed JSON, checked before the registration
checks (Agenra Section 6.1, `Spec/Monitor/Registration.lean`) so that what the oracle answers does not
depend on what its decoder happens to refuse.

Every definition of the schema is a checker `Chk` (a place's path and its value to the paths of the
places that break it: none exactly when the value meets the definition) and a meaning stated with
membership and quantifiers (`Thm/Monitor/RegistrationSchema.lean` proves they agree, `policySchemaIff`).
The combinators are the schema's keywords: `type` with `properties`, `required` and
`additionalProperties: false` (`objE`, meaning `ObjS`), `type: array` with `items`, `minItems` and
`uniqueItems` (`arrE`), a tagged union discriminated by its `kind` field (`varE`: the schema's
`if`/`then` on `kind`, with `kind` required and enumerated), `enum`, `pattern`, `integer`,
`minimum: 0`, `number`, the scalar type list, and the resolver's argument map (`propertyNames` and
`additionalProperties`).

Choices where the schema's reader decides:
* `pattern` is Python's `re.search`, in which `$` also matches before one final newline, so `"a\n"` meets
  `^[A-Za-z_][A-Za-z0-9_]*$` (the reference validator, `jsonschema`, answers; the registration's name
  checks then refuse such a name wherever a name is read, `IsName`).
* `integer` is a number whose value is integral (`1.0` is one), `number` any number; neither is a boolean
  (the Lean JSON keeps the two apart).
* `uniqueItems` compares JSON values; the arrays it applies to hold names, so equal strings.
* The paths reported (a place, then the keys or array positions below it, positions in decimal) follow
  the reference validator's convention: a type, `enum`, `pattern` or item error at the value, a
  `required`, `additionalProperties`, `minItems`, `uniqueItems` or `anyOf`-of-`required` error at the
  object or array. Which of several errors the reference reports is its heuristic, not modelled:
  the differential test checks that the path it reports is one of these. -/
namespace AgentWarrant.Monitor.Full.Schema
open Lean AgentWarrant.Monitor AgentWarrant.Monitor.Full

abbrev Path := List String
/-- A schema definition, executable: the paths of the places under `path` that break it. -/
abbrev Chk := Path → Json → List Path

/-- The first entry of that key (the schema's tables have distinct keys). -/
def lookupF {α : Type} (k : String) : List (String × α) → Option α
  | [] => none
  | a :: l => match a.1 == k with
    | true => some a.2
    | false => lookupF k l

def cat {α : Type} (f : α → List Path) : List α → List Path
  | [] => []
  | x :: l => f x ++ cat f l

/-- `f` on each element with its position. -/
def catI (f : Nat → Json → List Path) : Nat → List Json → List Path
  | _, [] => []
  | i, x :: l => f i x ++ catI f (i + 1) l

/-- A failure's diagnostics, never empty. -/
def orHere (path : Path) : List Path → List Path
  | [] => [path]
  | es => es

-- strings ---------------------------------------------------------------------------------------

/-- The regular expressions `^[A-Za-z_][A-Za-z0-9_]*$` (`dots = false`) and
`^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$` (`dots = true`) under `re.search`: `start`
when a segment's first character is due. -/
def reGo (dots : Bool) : Bool → List Char → Bool
  | true, [] => false
  | true, c :: cs => identStart c && reGo dots false cs
  | false, [] => true
  | false, c :: cs => (c == '\n' && cs.isEmpty) || (identChar c && reGo dots false cs) ||
      (dots && c == '.' && reGo dots true cs)

/-- What may follow a segment's first character, as a grammar: more identifier characters, a dot
and a new segment (when `dots`), and at the very end at most one newline. -/
inductive ReRest (dots : Bool) : List Char → Prop
  | done : ReRest dots []
  | newline : ReRest dots ['\n']
  | char {c : Char} {cs : List Char} : identChar c = true → ReRest dots cs → ReRest dots (c :: cs)
  | dot {c : Char} {cs : List Char} : dots = true → identStart c = true → ReRest dots cs → ReRest dots ('.' :: c :: cs)

def ReMatch (dots : Bool) (s : String) : Prop :=
  ∃ c cs, s.toList = c :: cs ∧ identStart c = true ∧ ReRest dots cs

def strE (dots : Bool) : Chk := fun path j => match j with
  | Json.str s => if reGo dots true s.toList then [] else [path]
  | _ => [path]

def StrS (dots : Bool) (j : Json) : Prop := ∃ s, j = Json.str s ∧ ReMatch dots s

/-- `$defs/name` and `$defs/dotted`. -/
def nameE : Chk := strE false
def dottedE : Chk := strE true
def NameS : Json → Prop := StrS false
def DottedS : Json → Prop := StrS true

def enumE (vals : List String) : Chk := fun path j => match j with
  | Json.str s => if memS s vals then [] else [path]
  | _ => [path]

def EnumS (vals : List String) (j : Json) : Prop := ∃ s, j = Json.str s ∧ s ∈ vals

/-- `$defs/nameOrAny`: a name or `"*"`. -/
def nameOrAnyE : Chk := fun path j => match j with
  | Json.str s => if reGo false true s.toList || s == "*" then [] else [path]
  | _ => [path]

def NameOrAnyS (j : Json) : Prop := ∃ s, j = Json.str s ∧ (ReMatch false s ∨ s = "*")

-- scalars and numbers ---------------------------------------------------------------------------

def boolE : Chk := fun path j => match j with
  | Json.bool _ => []
  | _ => [path]

def BoolS (j : Json) : Prop := ∃ b, j = Json.bool b

def numE : Chk := fun path j => match j with
  | Json.num _ => []
  | _ => [path]

def NumS (j : Json) : Prop := ∃ x, j = Json.num x

/-- `$defs/scalar`: a string, number, boolean or null. -/
def scalarE : Chk := fun path j => match j with
  | Json.arr _ => [path]
  | Json.obj _ => [path]
  | _ => []

def ScalarS (j : Json) : Prop := j = Json.null ∨ (∃ b, j = Json.bool b) ∨ (∃ x, j = Json.num x) ∨ ∃ s, j = Json.str s

/-- An integral value (`m · 10^-e` with `10^e` dividing `m`) that is not negative. -/
def natNumB (x : JsonNumber) : Bool :=
  Decidable.decide (0 ≤ x.mantissa) && Int.natAbs x.mantissa % pow10N x.exponent == 0

def NatNum (x : JsonNumber) : Prop := 0 ≤ x.mantissa ∧ Int.natAbs x.mantissa % pow10N x.exponent = 0

/-- `type: integer, minimum: 0`. -/
def countE : Chk := fun path j => match j with
  | Json.num x => if natNumB x then [] else [path]
  | _ => [path]

def CountS (j : Json) : Prop := ∃ x, j = Json.num x ∧ NatNum x

/-- An allow entry's quota: a count or null (unlimited). -/
def quotaE : Chk := fun path j => match j with
  | Json.null => []
  | _ => countE path j

def QuotaS (j : Json) : Prop := j = Json.null ∨ CountS j

-- objects, arrays, unions -----------------------------------------------------------------------

def hasKey (l : List (String × Json)) (k : String) : Bool := l.any (fun q => q.1 == k)

/-- `type: object`, `required`, `properties` and `additionalProperties: false`. -/
def objE (req : List String) (props : List (String × Chk)) : Chk := fun path j => match j with
  | Json.obj kvs =>
    (if req.all (hasKey (pairs kvs)) then [] else [path]) ++
      cat (fun q => match lookupF q.1 props with
        | some c => c (path ++ [q.1]) q.2
        | none => [path]) (pairs kvs)
  | _ => [path]

/-- An object: every required field present, every field a declared property meeting its schema. -/
def ObjS (req : List String) (props : List (String × (Json → Prop))) (j : Json) : Prop :=
  ∃ kvs, j = Json.obj kvs ∧ (∀ k, k ∈ req → ∃ v, (k, v) ∈ pairs kvs) ∧
    ∀ k v, (k, v) ∈ pairs kvs → ∃ S, lookupF k props = some S ∧ S v

/-- The strings of a list of JSON values. -/
def strsJ : List Json → List String
  | [] => []
  | Json.str s :: l => s :: strsJ l
  | _ :: l => strsJ l

/-- No string occurs twice. -/
def DistinctL : List String → Prop
  | [] => True
  | x :: l => ¬ x ∈ l ∧ DistinctL l

/-- `type: array` with `items` and, when asked, `minItems: 1` and `uniqueItems` (stated on the strings
the array holds: the arrays it applies to must hold names only). -/
def arrE (nonEmpty unique : Bool) (item : Chk) : Chk := fun path j => match j with
  | Json.arr a =>
    (if (!nonEmpty || !a.toList.isEmpty) && (!unique || uniqS (strsJ a.toList)) then [] else [path]) ++
      catI (fun i x => item (path ++ [toString i]) x) 0 a.toList
  | _ => [path]

def ArrS (nonEmpty unique : Bool) (item : Json → Prop) (j : Json) : Prop :=
  ∃ a, j = Json.arr a ∧ (nonEmpty = true → a.toList ≠ []) ∧ (unique = true → DistinctL (strsJ a.toList)) ∧
    ∀ x, x ∈ a.toList → item x

/-- `$defs/pair`: exactly two names. -/
def pairE : Chk := fun path j => match j with
  | Json.arr a => match a.toList with
    | [x, y] => nameE (path ++ ["0"]) x ++ nameE (path ++ ["1"]) y
    | _ => [path]
  | _ => [path]

def PairS (j : Json) : Prop := ∃ a x y, j = Json.arr a ∧ a.toList = [x, y] ∧ NameS x ∧ NameS y

/-- A resolver's `args`: an object whose keys are names and values scalars. -/
def mapE : Chk := fun path j => match j with
  | Json.obj kvs =>
    (if (pairs kvs).all (fun q => reGo false true q.1.toList) then [] else [path]) ++
      cat (fun q => scalarE (path ++ [q.1]) q.2) (pairs kvs)
  | _ => [path]

def MapS (j : Json) : Prop := ∃ kvs, j = Json.obj kvs ∧ ∀ k v, (k, v) ∈ pairs kvs → ReMatch false k ∧ ScalarS v

/-- Some field `kind` of the object names a variant whose schema `j` meets. -/
def varOk (tags : List (String × Chk)) (j : Json) : Bool := match j with
  | Json.obj kvs => (pairs kvs).any (fun q => q.1 == "kind" && match q.2 with
    | Json.str s => (match lookupF s tags with
      | some c => (c [] j).isEmpty
      | none => false)
    | _ => false)
  | _ => false

/-- The diagnostics of a broken union: the object when a field every variant requires (`req`) is
missing, and the variant its first `kind` names, else the `kind` field (no `kind`: the object). -/
def varDiag (req : List String) (tags : List (String × Chk)) (path : Path) (j : Json) : List Path := match j with
  | Json.obj kvs => (if req.all (hasKey (pairs kvs)) then [] else [path]) ++
    match lookupK "kind" (pairs kvs) with
    | some (Json.str s) => (match lookupF s tags with
      | some c => c path j
      | none => [path ++ ["kind"]])
    | some _ => [path ++ ["kind"]]
    | none => []
  | _ => [path]

/-- A union tagged by `kind` (`required: req`, `kind` among them and enumerated, `if kind = t then
S_t`, each variant repeating `req`). The diagnostics only name places; whether there are any is
`varOk`. -/
def varE (req : List String) (tags : List (String × Chk)) : Chk := fun path j =>
  if varOk tags j then [] else orHere path (varDiag req tags path j)

def VarS (tags : List (String × (Json → Prop))) (j : Json) : Prop :=
  ∃ kvs s S, j = Json.obj kvs ∧ ("kind", Json.str s) ∈ pairs kvs ∧ lookupF s tags = some S ∧ S j

-- the definitions of policy.schema.json -----------------------------------------------------------

def nameSetE : Chk := arrE false true nameE
def NameSetS : Json → Prop := ArrS false true NameS

def labelE : Chk := objE ["sensitivity", "categories", "trusted"]
  [("sensitivity", nameE), ("categories", nameSetE), ("trusted", boolE)]
def LabelS : Json → Prop := ObjS ["sensitivity", "categories", "trusted"]
  [("sensitivity", NameS), ("categories", NameSetS), ("trusted", BoolS)]

def nodeE : Chk := objE ["name", "kind", "label"]
  [("name", nameE), ("kind", enumE ["source", "memory", "sink"]), ("label", labelE)]
def NodeS : Json → Prop := ObjS ["name", "kind", "label"]
  [("name", NameS), ("kind", EnumS ["source", "memory", "sink"]), ("label", LabelS)]

def propagationE : Chk := varE ["kind"] [
  ("inherit", objE ["kind"] [("kind", fun _ _ => [])]),
  ("transform", objE ["kind"] [("kind", fun _ _ => []), ("remove", nameSetE), ("decrement", countE),
    ("sensitivity", nameE), ("trusted", boolE)])]
def PropagationS : Json → Prop := VarS [
  ("inherit", ObjS ["kind"] [("kind", fun _ => True)]),
  ("transform", ObjS ["kind"] [("kind", fun _ => True), ("remove", NameSetS), ("decrement", CountS),
    ("sensitivity", NameS), ("trusted", BoolS)])]

def edgeE : Chk := objE ["name", "endpoints", "propagation"]
  [("name", nameE), ("endpoints", arrE true false pairE), ("propagation", propagationE)]
def EdgeS : Json → Prop := ObjS ["name", "endpoints", "propagation"]
  [("name", NameS), ("endpoints", ArrS true false PairS), ("propagation", PropagationS)]

def agentE : Chk := objE ["name", "operations", "ceiling"]
  [("name", nameE), ("operations", nameSetE), ("ceiling", nameE)]
def AgentS : Json → Prop := ObjS ["name", "operations", "ceiling"]
  [("name", NameS), ("operations", NameSetS), ("ceiling", NameS)]

def resourceRefE : Chk := varE ["kind"] [
  ("const", objE ["kind", "value"] [("kind", fun _ _ => []), ("value", scalarE)]),
  ("arg", objE ["kind", "arg"] [("kind", fun _ _ => []), ("arg", nameE)]),
  ("list_arg", objE ["kind", "arg"] [("kind", fun _ _ => []), ("arg", nameE)])]
def ResourceRefS : Json → Prop := VarS [
  ("const", ObjS ["kind", "value"] [("kind", fun _ => True), ("value", ScalarS)]),
  ("arg", ObjS ["kind", "arg"] [("kind", fun _ => True), ("arg", NameS)]),
  ("list_arg", ObjS ["kind", "arg"] [("kind", fun _ => True), ("arg", NameS)])]

def effectE : Chk := objE ["action", "resource"] [("action", dottedE), ("resource", resourceRefE)]
def EffectS : Json → Prop := ObjS ["action", "resource"] [("action", DottedS), ("resource", ResourceRefS)]

def toolE : Chk := objE ["name", "source", "destination", "effects"]
  [("name", nameE), ("operation", nameE), ("source", nameE), ("destination", nameE), ("args", nameSetE),
   ("required", nameSetE), ("effects", arrE true false effectE), ("authoritative", arrE false true dottedE)]
def ToolS : Json → Prop := ObjS ["name", "source", "destination", "effects"]
  [("name", NameS), ("operation", NameS), ("source", NameS), ("destination", NameS), ("args", NameSetS),
   ("required", NameSetS), ("effects", ArrS true false EffectS), ("authoritative", ArrS false true DottedS)]

def resolverE : Chk := objE ["slot", "tool", "args", "path"]
  [("slot", nameE), ("tool", nameE), ("args", mapE), ("path", dottedE)]
def ResolverS : Json → Prop := ObjS ["slot", "tool", "args", "path"]
  [("slot", NameS), ("tool", NameS), ("args", MapS), ("path", DottedS)]

def originE : Chk := objE ["name", "via", "argument", "producer"]
  [("name", nameE), ("via", nameE), ("argument", nameE), ("producer", nameE), ("preserving", nameSetE)]
def OriginS : Json → Prop := ObjS ["name", "via", "argument", "producer"]
  [("name", NameS), ("via", NameS), ("argument", NameS), ("producer", NameS), ("preserving", NameSetS)]

def guardE : Chk := objE []
  [("max_sensitivity", nameE), ("min_sensitivity", nameE), ("any_category", nameSetE),
   ("no_category", nameSetE), ("trusted", boolE)]
def GuardS : Json → Prop := ObjS []
  [("max_sensitivity", NameS), ("min_sensitivity", NameS), ("any_category", NameSetS),
   ("no_category", NameSetS), ("trusted", BoolS)]

def flowE : Chk := objE ["effect", "operation", "destination"]
  [("effect", enumE ["allow", "deny", "pause"]), ("operation", nameOrAnyE), ("destination", nameOrAnyE),
   ("argument", nameOrAnyE), ("when", guardE)]
def FlowS : Json → Prop := ObjS ["effect", "operation", "destination"]
  [("effect", EnumS ["allow", "deny", "pause"]), ("operation", NameOrAnyS), ("destination", NameOrAnyS),
   ("argument", NameOrAnyS), ("when", GuardS)]

def patternE : Chk := varE ["kind"] [
  ("any", objE ["kind"] [("kind", fun _ _ => [])]),
  ("const", objE ["kind", "value"] [("kind", fun _ _ => []), ("value", scalarE)]),
  ("slot", objE ["kind", "slot"] [("kind", fun _ _ => []), ("slot", nameE)]),
  ("like", objE ["kind", "glob"] [("kind", fun _ _ => []), ("glob", fun path j => match j with
    | Json.str _ => []
    | _ => [path])])]
def PatternS : Json → Prop := VarS [
  ("any", ObjS ["kind"] [("kind", fun _ => True)]),
  ("const", ObjS ["kind", "value"] [("kind", fun _ => True), ("value", ScalarS)]),
  ("slot", ObjS ["kind", "slot"] [("kind", fun _ => True), ("slot", NameS)]),
  ("like", ObjS ["kind", "glob"] [("kind", fun _ => True), ("glob", fun j => ∃ s, j = Json.str s)])]

def audienceE : Chk := objE ["node", "effects"]
  [("node", nameE), ("effects", arrE true false (objE ["action", "resource"]
    [("action", dottedE), ("resource", patternE)]))]
def AudienceS : Json → Prop := ObjS ["node", "effects"]
  [("node", NameS), ("effects", ArrS true false (ObjS ["action", "resource"]
    [("action", DottedS), ("resource", PatternS)]))]

def historyE : Chk := objE ["name", "scope", "after", "require", "before"]
  [("name", nameE), ("scope", enumE ["lineage", "session"]), ("after", nameE), ("require", nameE),
   ("before", nameE)]
def HistoryS : Json → Prop := ObjS ["name", "scope", "after", "require", "before"]
  [("name", NameS), ("scope", EnumS ["lineage", "session"]), ("after", NameS), ("require", NameS),
   ("before", NameS)]

def pathE : Chk := arrE true false nameE
def PathS : Json → Prop := ArrS true false NameS

/-- A range's `anyOf: [{required: [low]}, {required: [high]}]`. -/
def boundedE : Chk := fun path j => match j with
  | Json.obj kvs => if hasKey (pairs kvs) "low" || hasKey (pairs kvs) "high" then [] else [path]
  | _ => []

def BoundedS (j : Json) : Prop := ∀ kvs, j = Json.obj kvs → (∃ v, ("low", v) ∈ pairs kvs) ∨ ∃ v, ("high", v) ∈ pairs kvs

def predicateE : Chk := varE ["kind", "path"] [
  ("eq", objE ["kind", "path", "value"] [("kind", fun _ _ => []), ("path", pathE), ("value", scalarE)]),
  ("one_of", objE ["kind", "path", "values"] [("kind", fun _ _ => []), ("path", pathE),
    ("values", arrE true false scalarE)]),
  ("range", fun path j => objE ["kind", "path"] [("kind", fun _ _ => []), ("path", pathE), ("low", numE),
    ("high", numE)] path j ++ boundedE path j)]
def PredicateS : Json → Prop := VarS [
  ("eq", ObjS ["kind", "path", "value"] [("kind", fun _ => True), ("path", PathS), ("value", ScalarS)]),
  ("one_of", ObjS ["kind", "path", "values"] [("kind", fun _ => True), ("path", PathS),
    ("values", ArrS true false ScalarS)]),
  ("range", fun j => ObjS ["kind", "path"] [("kind", fun _ => True), ("path", PathS), ("low", NumS),
    ("high", NumS)] j ∧ BoundedS j)]

def entryE : Chk := varE ["kind", "action", "resource"] [
  ("allow", objE ["kind", "action", "resource"] [("kind", fun _ _ => []), ("action", dottedE),
    ("resource", patternE), ("keys", nameSetE), ("where", arrE false false predicateE), ("quota", quotaE),
    ("requires", nameE), ("permit", boolE)]),
  ("deny", objE ["kind", "action", "resource"] [("kind", fun _ _ => []), ("action", dottedE),
    ("resource", patternE), ("keys", nameSetE), ("where", arrE false false predicateE)])]
def EntryS : Json → Prop := VarS [
  ("allow", ObjS ["kind", "action", "resource"] [("kind", fun _ => True), ("action", DottedS),
    ("resource", PatternS), ("keys", NameSetS), ("where", ArrS false false PredicateS), ("quota", QuotaS),
    ("requires", NameS), ("permit", BoolS)]),
  ("deny", ObjS ["kind", "action", "resource"] [("kind", fun _ => True), ("action", DottedS),
    ("resource", PatternS), ("keys", NameSetS), ("where", ArrS false false PredicateS)])]

/-- The whole document (`policy.schema.json`'s top level). -/
def policyE : Chk := objE ["name", "levels"]
  [("name", nameE), ("levels", arrE true true nameE), ("categories", nameSetE), ("requirements", nameSetE),
   ("nodes", arrE false false nodeE), ("edges", arrE false false edgeE), ("agents", arrE false false agentE),
   ("tools", arrE false false toolE), ("resolvers", arrE false false resolverE),
   ("origins", arrE false false originE), ("flows", arrE false false flowE),
   ("histories", arrE false false historyE), ("user", arrE false false entryE),
   ("application", arrE false false entryE), ("audiences", arrE false false audienceE)]
def PolicySchema : Json → Prop := ObjS ["name", "levels"]
  [("name", NameS), ("levels", ArrS true true NameS), ("categories", NameSetS), ("requirements", NameSetS),
   ("nodes", ArrS false false NodeS), ("edges", ArrS false false EdgeS), ("agents", ArrS false false AgentS),
   ("tools", ArrS false false ToolS), ("resolvers", ArrS false false ResolverS),
   ("origins", ArrS false false OriginS), ("flows", ArrS false false FlowS),
   ("histories", ArrS false false HistoryS), ("user", ArrS false false EntryS),
   ("application", ArrS false false EntryS), ("audiences", ArrS false false AudienceS)]

/-- The structural judgment: the document meets the schema (`policySchemaIff`). -/
def schemaOk (j : Json) : Bool := (policyE [] j).isEmpty

end AgentWarrant.Monitor.Full.Schema
