import AgentWarrant.Oracle.Common
import AgentWarrant.Spec.Monitor.Transition
/-! The `monitor` judgment: the whole monitor's step from the policy (its JSON form,
corpus/schemas/policy.schema.json), the state and the call, with nothing computed by the caller
(model/oracle/monitor_full_json.py writes the input and reads the output).

Input: `{"policy": <policy JSON>, "state": {...}, "call": {...}, "outcome": {"ok", "value"}}`.
`monitor_decide` (policy, state, call) and `monitor_observe` (policy, state, id, outcome) are its two
halves, for the enforcement backend, which must decide before the tool runs.
The state's labels are in the numbered form (sensitivity rank, category vector over the policy's
sorted categories); names elsewhere. Output: the decision, its reason, the waiting set, the
label and both allocations of an Allow, the permit consumed, and the whole next state. -/
namespace AgentWarrant.Oracle.MonitorFull
open Lean AgentWarrant.Oracle AgentWarrant.Monitor AgentWarrant.Monitor.Full

/-- An optional key: absent or `null` is `none`. -/
def opt (j : Json) (k : String) : Option Json := match j.getObjVal? k with
  | Except.ok Json.null => none
  | Except.ok v => some v
  | Except.error _ => none

def strOf (j : Json) : Dec String := match j with
  | Json.str s => pure s
  | _ => throw s!"expected a string, got {j.compress}"

def strs (j : Json) (k : String) : Dec (List String) := do pure (← getAs (Array String) j k).toList
def optStrs (j : Json) (k : String) : Dec (List String) := match opt j k with
  | none => pure []
  | some v => do pure (← arrOf strOf (Json.mkObj [("x", v)]) "x")

def objPairs (j : Json) : Dec (List (String × Json)) := match j with
  | Json.obj kvs => pure (sortBy (fun p => p.1) (pairs kvs))
  | _ => throw "expected an object"

def rank (levels : List String) (name : String) : Dec Nat :=
  match (List.range levels.length).find? (fun i => nth? levels i == some name) with
  | some i => pure i
  | none => throw s!"unknown level {name}"

def catVec (cats : List String) (have_ : List String) : List Bool := cats.map (fun c => memS c have_)

def namedLabel (levels cats : List String) (j : Json) : Dec Label := do
  pure ⟨← rank levels (← getAs String j "sensitivity"), catVec cats (← strs j "categories"),
        ← getAs Bool j "trusted"⟩

def transformOf (levels cats : List String) (j : Json) : Dec (Option Transform) := do
  match ← getAs String j "kind" with
  | "inherit" => pure none
  | _ =>
    let sens ← match opt j "sensitivity" with
      | none => pure none
      | some v => do pure (some (← rank levels (← strOf v)))
    let tr ← match opt j "trusted" with
      | some (Json.bool b) => pure (some b)
      | _ => pure none
    pure (some ⟨catVec cats (← optStrs j "remove"), (match opt j "decrement" with
      | some (Json.num n) => n.mantissa.toNat
      | _ => 0), sens, tr⟩)

def guardOf (levels cats : List String) (j : Json) : Dec Guard := do
  let lv := fun (k : String) => match opt j k with
    | none => pure none
    | some v => do pure (some (← rank levels (← strOf v)))
  pure ⟨← lv "max_sensitivity", ← lv "min_sensitivity", catVec cats (← optStrs j "any_category"),
        catVec cats (← optStrs j "no_category"), match opt j "trusted" with
          | some (Json.bool b) => some b
          | _ => none⟩

def resRefOf (j : Json) : Dec ResRef := do
  match ← getAs String j "kind" with
  | "const" => pure (ResRef.const (← req j "value"))
  | "arg" => pure (ResRef.arg (← getAs String j "arg"))
  | _ => pure (ResRef.listArg (← getAs String j "arg"))

def toolOf (j : Json) : Dec Tool := do
  let name ← getAs String j "name"
  pure ⟨name, (match opt j "operation" with | some (Json.str o) => o | _ => name),
        ← getAs String j "source", ← getAs String j "destination", ← optStrs j "args", ← optStrs j "required",
        ← arrOf (fun e => do pure ⟨← getAs String e "action", ← resRefOf (← req e "resource")⟩) j "effects"⟩

def patOf (j : Json) : Dec Pat := do
  match ← getAs String j "kind" with
  | "any" => pure Pat.any
  | "const" => pure (Pat.const (← req j "value"))
  | "slot" => pure (Pat.slot (← getAs String j "slot"))
  | _ => pure (Pat.glob (← getAs String j "glob"))

def numOpt (j : Json) (k : String) : Dec (Option JsonNumber) := match opt j k with
  | none => pure none
  | some (Json.num n) => pure (some n)
  | some v => throw s!"{k}: expected a number, got {v.compress}"

def predOf (j : Json) : Dec Pred := do
  let path ← strs j "path"
  match ← getAs String j "kind" with
  | "eq" => pure (Pred.eq path (← req j "value"))
  | "one_of" => pure (Pred.oneOf path (← getAs (Array Json) j "values").toList)
  | _ => pure (Pred.range path (← numOpt j "low") (← numOpt j "high"))

def grantOf (j : Json) : Dec Full.Grant := do
  let allow := (← getAs String j "kind") == "allow"
  let keys ← match opt j "keys" with
    | none => pure none
    | some _ => do pure (some (← strs j "keys"))
  let preds ← match opt j "where" with
    | none => pure []
    | some _ => arrOf predOf j "where"
  -- quota: omitted means 1, null means unlimited
  let quota := match j.getObjVal? "quota" with
    | Except.ok (Json.num n) => some n.mantissa.toNat
    | Except.ok Json.null => none
    | _ => some 1
  pure ⟨allow, ← getAs String j "action", ← patOf (← req j "resource"), keys, preds, quota,
        (match opt j "requires" with | some (Json.str r) => some r | _ => none),
        (match opt j "permit" with | some (Json.bool b) => b | _ => false)⟩

def listOf (j : Json) (k : String) (f : Json → Dec α) : Dec (List α) := match opt j k with
  | none => pure []
  | some _ => arrOf f j k

def policyOf (j : Json) : Dec Policy := do
  let levels ← strs j "levels"
  let cats ← optStrs j "categories"
  let xflowOf := fun (f : Json) => do
    let effect : Nat := match ← getAs String f "effect" with
      | "deny" => 1
      | "pause" => 2
      | _ => 0
    let xf : XFlow := ⟨effect, ← getAs String f "operation", ← getAs String f "destination",
      (match opt f "argument" with | some (Json.str a) => some a | _ => none),
      ← guardOf levels cats (match opt f "when" with | some g => g | none => Json.mkObj [])⟩
    pure xf
  pure {
    nodes := ← listOf j "nodes" (fun n => do pure ⟨← getAs String n "name", ← namedLabel levels cats (← req n "label")⟩)
    edges := ← listOf j "edges" (fun e => do
      let eps ← arrOf (fun p => do
        let l ← getAs (Array String) (Json.mkObj [("x", p)]) "x"
        match l.toList with
        | [a, b] => pure (a, b)
        | _ => throw "an endpoint is a pair") e "endpoints"
      pure ⟨← getAs String e "name", eps, ← transformOf levels cats (← req e "propagation")⟩)
    agents := ← listOf j "agents" (fun a => do
      pure ⟨← getAs String a "name", ← strs a "operations", ← rank levels (← getAs String a "ceiling")⟩)
    tools := ← listOf j "tools" toolOf
    resolvers := ← listOf j "resolvers" (fun r => do
      pure ⟨← getAs String r "slot", ← getAs String r "tool", ← req r "args",
            (← getAs String r "path").splitOn "."⟩)
    origins := ← listOf j "origins" (fun o => do
      pure ⟨← getAs String o "name", ← getAs String o "via", ← getAs String o "argument",
            ← getAs String o "producer", ← optStrs o "preserving"⟩)
    -- the closed core reads the rules into nodes, a pause as an allow; the extensions read them all
    flows := (← listOf j "flows" xflowOf).filterMap (fun r =>
      if r.argument.isSome then none else some ⟨r.effect == 1, r.operation, r.destination, r.guard⟩)
    xflows := ← listOf j "flows" xflowOf
    audiences := ← listOf j "audiences" (fun a => do
      pure ⟨← getAs String a "node", ← arrOf (fun e => do
        pure ⟨← getAs String e "action", ← patOf (← req e "resource")⟩) a "effects"⟩)
    histories := ← listOf j "histories" (fun h => do
      pure ⟨← getAs String h "name", (← getAs String h "scope") == "lineage", ← getAs String h "after",
            ← getAs String h "require", ← getAs String h "before"⟩)
    user := ← listOf j "user" grantOf
    app := ← listOf j "application" grantOf }

-- state, call, outcome ------------------------------------------------------------------------------

def labelD (j : Json) : Dec Label := do
  pure ⟨← getAs Nat j "sens", (← getAs (Array Bool) j "cats").toList, ← getAs Bool j "trusted"⟩

def labelJ (l : Label) : Json :=
  Json.mkObj [("sens", toJson l.sens), ("cats", toJson l.cats.toArray), ("trusted", toJson l.trusted)]

def recordOf (j : Json) : Dec Record := do
  pure ⟨← getAs String j "agent", ← getAs String j "tool", ← getAs String j "operation", ← getAs String j "source",
        ← getAs String j "destination", (← getAs (Array Nat) j "parents").toList, ← objPairs (← req j "args"),
        ← labelD (← req j "label"), ← getAs Bool j "succeeded"⟩

def identOf (j : Json) : Dec (String × Ident) := do
  let name ← getAs String j "name"
  match ← getAs String j "kind" with
  | "h" => pure (name, Ident.handle (← getAs Nat j "id"))
  | "p" => pure (name, Ident.field (← getAs Nat j "id") (← getAs String j "path"))
  | _ => pure (name, Ident.value (← req j "value"))

def stateOf (j : Json) : Dec State := do
  pure {
    trace := ← arrOf recordOf j "trace"
    bindings := ← arrOf (fun b => do pure (← getAs String b "slot", ← req b "value", ← getAs Nat b "id")) j "bindings"
    invalid := ← strs j "invalid"
    usedUser := (← getAs (Array Nat) j "used_user").toList
    usedApp := (← getAs (Array Nat) j "used_app").toList
    satisfied := ← strs j "satisfied"
    permits := ← arrOf (fun q => do
      pure ⟨← getAs Nat q "id", ← getAs String q "tool", ← arrOf identOf q "identity", ← getAs Bool q "consumed"⟩)
      j "permits" }

def callOf (j : Json) : Dec Call := do
  let pairsOf := fun (k : String) => arrOf (fun p => do
    match (← getAs (Array Json) (Json.mkObj [("x", p)]) "x").toList with
    | [Json.str n, v] => pure (n, v)
    | _ => throw s!"{k}: expected [name, value] pairs") j k
  let refs ← pairsOf "refs"
  let nat := fun (v : Json) => match (fromJson? v : Except String Nat) with
    | Except.ok n => pure n
    | Except.error e => throw s!"refs: {e}"
  pure ⟨← getAs String j "agent", ← getAs String j "tool", ← objPairs (← req j "args"),
        ← refs.mapM (fun r => do pure (r.1, ← nat r.2)),
        ← (← pairsOf "ref_paths").mapM (fun r => do pure (r.1, ← strOf r.2))⟩

def stateJ (s : State) : Json := Json.mkObj [
  ("trace", Json.arr (s.trace.map (fun r => Json.mkObj [
    ("agent", toJson r.agent), ("tool", toJson r.tool), ("operation", toJson r.operation),
    ("source", toJson r.source), ("destination", toJson r.destination), ("parents", toJson r.parents.toArray),
    ("args", argsJson r.args), ("label", labelJ r.label), ("succeeded", toJson r.ok)])).toArray),
  ("bindings", Json.arr (s.bindings.map (fun b => Json.mkObj [
    ("slot", toJson b.1), ("value", b.2.1), ("id", toJson b.2.2)])).toArray),
  ("invalid", toJson s.invalid.toArray), ("used_user", toJson s.usedUser.toArray),
  ("used_app", toJson s.usedApp.toArray), ("satisfied", toJson s.satisfied.toArray),
  ("permits", Json.arr (s.permits.map (fun q => Json.mkObj [
    ("id", toJson q.id), ("tool", toJson q.tool), ("consumed", toJson q.consumed)])).toArray)]

def monitor (j : Json) : Dec Json := do
  let p ← policyOf (← req j "policy")
  let s ← stateOf (← req j "state")
  let c ← callOf (← req j "call")
  let oj ← req j "outcome"
  let o : Outcome := ⟨← getAs Bool oj "ok", ← req oj "value"⟩
  let (v, s') := stepFull p s c o
  let (d, reason, waiting, label, pu, pa, permit) := match v with
    | Verdict.allow l pu pa k => ("allow", Json.null, [], labelJ l, toJson pu.toArray, toJson pa.toArray,
                                  match k with | some n => toJson n | none => Json.null)
    | Verdict.pause w => ("pause", Json.null, w, Json.null, Json.null, Json.null, Json.null)
    | Verdict.deny r => ("deny", toJson r, [], Json.null, Json.null, Json.null, Json.null)
  pure $ Json.mkObj [("decision", toJson d), ("reason", reason), ("waiting", toJson waiting.toArray),
    ("label", label), ("user", pu), ("app", pa), ("permit", permit), ("state", normJ (stateJ s'))]

def verdictFields (v : Full.Verdict) : List (String × Json) :=
  let (d, reason, waiting, label, pu, pa, permit) := match v with
    | Full.Verdict.allow l pu pa k => ("allow", Json.null, [], labelJ l, toJson pu.toArray, toJson pa.toArray,
                                  match k with | some n => toJson n | none => Json.null)
    | Full.Verdict.pause w => ("pause", Json.null, w, Json.null, Json.null, Json.null, Json.null)
    | Full.Verdict.deny r => ("deny", toJson r, [], Json.null, Json.null, Json.null, Json.null)
  [("decision", toJson d), ("reason", reason), ("waiting", toJson waiting.toArray), ("label", label),
   ("user", pu), ("app", pa), ("permit", permit)]

/-- The enforcement backend's first half: `D(S, c)` and, on Allow, the commit (before the tool runs). -/
def monitorDecide (j : Json) : Dec Json := do
  let p ← policyOf (← req j "policy")
  let s ← stateOf (← req j "state")
  let c ← callOf (← req j "call")
  let v := decideFull p s c
  let s' := match v with
    | Full.Verdict.allow l pu pa k => commit p s c l pu pa k
    | _ => s
  pure $ Json.mkObj (verdictFields v ++ [("state", normJ (stateJ s'))])

/-- The second half: the declared outcome of admitted attempt `id` processed (Section 6.3). -/
def monitorObserve (j : Json) : Dec Json := do
  let p ← policyOf (← req j "policy")
  let s ← stateOf (← req j "state")
  let oj ← req j "outcome"
  let o : Outcome := ⟨← getAs Bool oj "ok", ← req oj "value"⟩
  pure $ Json.mkObj [("state", normJ (stateJ (observe p s (← getAs Nat j "id") o)))]

def judgments : List Judgment :=
  [("monitor", monitor), ("monitor_decide", monitorDecide), ("monitor_observe", monitorObserve)]

end AgentWarrant.Oracle.MonitorFull
