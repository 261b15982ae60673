import Lean.Data.Json
import AgentWarrant.Spec.Edits.Verify
import AgentWarrant.Spec.Edits.Register
import AgentWarrant.Spec.Edits.WellFormed
import AgentWarrant.Spec.Edits.Input
import AgentWarrant.Spec.Edits.Cover
import AgentWarrant.Spec.Monitor.Json
/-! Oracle entries for execution edits beyond `edit_check` and `resolve` (which live in
`Oracle/Main.lean`): `verify_rejection`, the rejection-proof verifier of `Spec/Edits/Verify.lean`;
and `rawD`, the decoder of the raw instance `edit_check` checks for well-formedness
(`Spec/Edits/WellFormed.lean`).

Raw instance keys of the `edit_check` input: `"term"` (`["call", c]`, `["nil"]`,
`["choice", g, [[arm, term]]]`, `["par", [term]]`, `["seq", [term]]`, `["family", g, [[name, [call]]]]`),
`"calls"` (`[[call, action]]`, the action map as given, possibly partial) and `"labels"`
(`[[action, label]]`, likewise); `"outcomes"` (`[{"id": n, "events": [call], "order": [[call, call]]}]`,
each outcome's pomset), `"act"`, `"lab"` (the maps as lists indexed by call and by action), `"log"`,
and `"policy"` (`{"delta": [[state, label, target]]}`, the policy automaton); optionally `"sources"`
(`[{"id", "satisfied", "removed", "covers"}]`, the derived record's source results and the target
outcomes covering each, `sourcesD`), from which the oracle decides the coverage witnesses. The finite form the
checker reads (each outcome's linearizations, the finite policy) is computed here by `build`
(`Spec/Edits/Input.lean`), never taken from the input.

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

def pairD (j : Json) : Dec (Nat × Nat) := do
  match ← nats j with
  | [a, b] => pure (a, b)
  | _ => throw "pair: [key, value] expected"

def tripleD (j : Json) : Dec (Nat × Nat × Nat) := do
  match ← nats j with
  | [q, a, r] => pure (q, a, r)
  | _ => throw "transition: [state, label, target] expected"

def outcomeD (j : Json) : Dec POutcome := do
  pure ⟨← as Nat (← field j "id"), ⟨← nats (← field j "events"), ← listOf pairD (← field j "order")⟩⟩

/-- The given instance: pomset outcomes and the policy automaton. -/
def pinstD (j : Json) : Dec PInst := do
  pure ⟨← listOf outcomeD (← field j "outcomes"), ← nats (← field j "act"), ← nats (← field j "lab"),
        ← nats (← field j "log"), ← listOf tripleD (← field (← field j "policy") "delta")⟩

/-- One source result: `{"id": n, "satisfied": bool, "removed": bool, "covers": [outcome]}`. -/
def srcD (j : Json) : Dec Cover.Src := do
  pure ⟨← as Nat (← field j "id"), ← as Bool (← field j "satisfied"), ← as Bool (← field j "removed"),
        ← nats (← field j "covers")⟩

/-- The source results `RequiredBefore` with their status and coverage relation (`"sources"`,
`Spec/Edits/Cover.lean`); an input without the key has none. -/
def sourcesD (j : Json) : Dec (List Cover.Src) :=
  match j.getObjVal? "sources" with
  | Except.ok Json.null => pure []
  | Except.ok v => listOf srcD v
  | Except.error _ => pure []

/-- The finite check instance, computed from the given one. -/
def instD (j : Json) : Dec Inst := do pure (build (← pinstD j))

def removalD (j : Json) : Dec Removal := do
  pure ⟨← candD (← field j "cand"), ← wordD (← field j "pre"), ← as Nat (← field j "miss")⟩

/-- The contract term, decoded with a nesting fuel (structural on the fuel, so total; each term
level uses one unit). Out of fuel: an error, never a truncated term. -/
def termDF : Nat → Json → Dec Term
  | 0, _ => throw "term: nested deeper than the decoder's bound"
  | n + 1, j => do
    let xs ← listOf pure j
    match xs with
    | [k] => match ← as String k with
      | "nil" => pure Term.nil
      | s => throw s!"term: unknown {s}"
    | [k, x] => match ← as String k with
      | "call" => pure (Term.call (← as Nat x))
      | "par" => pure (Term.par (← listOf (termDF n) x))
      | "seq" => pure (Term.seq (← listOf (termDF n) x))
      | s => throw s!"term: unknown {s}"
    | [k, g, x] => match ← as String k with
      | "choice" => pure (Term.choice (← as Nat g) (← listOf (fun a => do
          match ← listOf pure a with
          | [m, t] => pure (← as Nat m, ← termDF n t)
          | _ => throw "arm: [name, term] expected") x))
      | "family" => pure (Term.family (← as Nat g) (← listOf (fun m => do
          match ← listOf pure m with
          | [nm, cs] => pure (← as Nat nm, ← nats cs)
          | _ => throw "member: [name, calls] expected") x))
      | s => throw s!"term: unknown {s}"
    | _ => throw "term: a tagged array expected"

/-- The contract term, with the fuel of the JSON nesting bound. Each term level is at least two JSON
levels, so the term of an input the oracle admits (`Oracle/Depth.lean`, less deep than `jsonFuel`)
never exhausts the fuel; that is an argument, not a Lean theorem. -/
def termD (j : Json) : Dec Term := termDF AgentWarrant.Monitor.Full.jsonFuel j

/-- The raw instance of an `edit_check` input whose finite form is `i`. -/
def rawD (j : Json) (i : Inst) : Dec Raw := do
  pure ⟨← termD (← field j "term"), ← listOf pairD (← field j "calls"), ← listOf pairD (← field j "labels"),
        i.log, i.outs, i.policy⟩

def verifyRejection (j : Json) : Dec Json := do
  let i ← instD (← field j "instance")
  let fam ← listOf candD (← field j "family")
  let rounds ← listOf (listOf removalD) (← field j "rounds")
  pure $ Json.mkObj [("valid", toJson (verifyProof i fam rounds))]

-- check_reg -------------------------------------------------------------------------------------

def trD (j : Json) : Dec Reg.Tr := do
  match ← listOf pure j with
  | [a, b, Json.null] => pure ⟨← as Nat a, ← as Nat b, none⟩
  | [a, b, l] => pure ⟨← as Nat a, ← as Nat b, some (← pairD l)⟩
  | _ => throw "transition: [from, to, null | [site, request]] expected"

/-- `CheckReg(𝒲, ℛ)` (`Spec/Edits/Register.lean`, proved to accept iff `𝒲 ⊑_λ ℛ`).
Input: `{"workflow": {"initial": n, "transitions": [[from, to, null | [site, request]]],
"results": [[state, label]]}, "registration": {"outcomes": [{"id", "events", "order"}],
"templates": [[call, action]], "requests": [[action, request]], "lambda_calls": [[site, call]],
"lambda_results": [[label, outcome]]}}`, every name a number. Output: `{"accepts": bool,
"checks": [[name, bool]]}`, the seven checks in order. -/
def checkRegJ (j : Json) : Dec Json := do
  let w ← field j "workflow"
  let r ← field j "registration"
  let W : Reg.Wf := ⟨← as Nat (← field w "initial"), ← listOf trD (← field w "transitions"),
    ← listOf pairD (← field w "results")⟩
  let R : Reg.RegR := ⟨← listOf outcomeD (← field r "outcomes"), ← listOf pairD (← field r "templates"),
    ← listOf pairD (← field r "requests"), ← listOf pairD (← field r "lambda_calls"),
    ← listOf pairD (← field r "lambda_results")⟩
  pure $ Json.mkObj [("accepts", toJson (Reg.checkReg W R)),
    ("checks", Json.arr ((Reg.regChecks W R).map (fun c => Json.arr #[toJson c.1, toJson c.2])).toArray)]

end AgentWarrant.Oracle.Edits
