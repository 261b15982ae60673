import Lean.Data.Json
import AgentWarrant.Oracle.Common
import AgentWarrant.Oracle.Edits
import AgentWarrant.Spec.Edits.DeriveFork
import AgentWarrant.Spec.Edits.DeriveTreeJudged
import AgentWarrant.Spec.Edits.DeriveTreeSrc
/-! The `edit_derive` judgment: the Lean edit judgment `judge` (`Spec/Edits/DeriveCover.lean`) run on
an edited region, returning the derived check instance in the form `edit_check` consumes (*When Can
Agents Safely Checkpoint, Fork, Restore, and Merge?*, Section V-A, Table I, Appendices A-D1, A-D2).

Input (every key required):
- `"region"`: the edited region as a binary term: `["call", c]`, `["nil"]`, `["choice", g, l, r]`,
  `["par", l, r]`, `["seq", l, r]` (calls and choice IDs numbers);
- `"store"`: `[[k, term]]`, the checkpoint store (checkpoint ID → stored remaining contract);
- `"request"`: `["fork_choice", g]`, `["fork_parallel"]`, `["restore_replace", k, n]`,
  `["restore_live", k, n]`, `["merge_select", g, right, EJ]` (`right` a boolean: the second arm),
  `["merge_join", EJ]`, `["extend"]` (`CReq`: the judgment allocates the copy renamings); and the Fork
  rows with the rule's continuation steps, `["fork_choice_steps", g, EL, ER]`,
  `["fork_parallel_steps", EL, ER]` (`KReq`, judged by `judgeK` of `Spec/Edits/DeriveFork.lean`), or
  with the rule's continuation templates (calls in the templates' own numbering), which the judgment
  instantiates with fresh calls (`instK`: template call `t` becomes `2(n + t)` on the left and
  `2(n + t) + 1` on the right, `n = bound` of the region's calls), `["fork_choice_templates", g, TL, TR]`,
  `["fork_parallel_templates", TL, TR]`.

Optional: `"leaf"`: `[gamma, done]`, the edited branch's leaf as the record's tree holds it (`Γ_b` as a term,
`χ_b` as its calls in order), and `"saved"`: `[[k, gamma, done]]`, stored copies by checkpoint ID; with
`"leaf"` the output has `"srcAgrees"`: Lean's `srcAgreesB` check (`Spec/Edits/DeriveTreeSrc.lean`) that
the region is the leaf's `Γ_b/raw(χ_b)` and each copy's `Γ_k/raw(χ_k)` is the store's term for its ID,
outcome pomsets compared as lists.

Output: `{"derived": false}` when the judgment derives nothing (`Invalid`), else `{"derived": true,
"target": term, "outcomes": [{"id", "events", "order"}], "sources": [{"id", "side", "events",
"order", "satisfied", "removed", "covers"}]}`: the target region, its results numbered `0, 1, …` by
position in `⟦T'⟧` with their pomsets (`inputOf`'s outcomes), and the required source results
numbered by position, each with its region (`side`: `false` the first source region, `true` the
second), its pomset, `satisfied` (always `false`: the term model has no progress), whether its region
is an authorized removal, and the target results covering it (`DeriveRT.coversOf`, proved equal to
the record's `Covers_u` relation: `DeriveRT.coversOfIff`, `DeriveFork.coversOfKIff`). The `outcomes`
and `sources` keys are those of `edit_check`'s input. -/
namespace AgentWarrant.Oracle.DeriveRT
open Lean AgentWarrant AgentWarrant.Edits AgentWarrant.Edits.DeriveCover AgentWarrant.Edits.DeriveRT
open AgentWarrant.Edits.DeriveFork
open AgentWarrant.Oracle.Edits (field as listOf nats)

/-- A binary term, decoded with a nesting fuel (structural on the fuel; out of fuel is an error). -/
def tmDF : Nat → Json → Dec Tm
  | 0, _ => throw "region: nested deeper than the decoder's bound"
  | n + 1, j => do
    let xs ← listOf pure j
    match xs with
    | [k] => match ← as String k with
      | "nil" => pure Tm.nil
      | s => throw s!"region: unknown {s}"
    | [k, x] => match ← as String k with
      | "call" => pure (Tm.call (← as Nat x))
      | s => throw s!"region: unknown {s}"
    | [k, l, r] => match ← as String k with
      | "par" => pure (Tm.par (← tmDF n l) (← tmDF n r))
      | "seq" => pure (Tm.seq (← tmDF n l) (← tmDF n r))
      | s => throw s!"region: unknown {s}"
    | [k, g, l, r] => match ← as String k with
      | "choice" => pure (Tm.choice (← as Nat g) (← tmDF n l) (← tmDF n r))
      | s => throw s!"region: unknown {s}"
    | _ => throw "region: a tagged array expected"

def tmD (j : Json) : Dec Tm := tmDF AgentWarrant.Monitor.Full.jsonFuel j

def tmJ : Tm → Json
  | Tm.call c => Json.arr #[toJson "call", toJson c]
  | Tm.nil => Json.arr #[toJson "nil"]
  | Tm.choice g l r => Json.arr #[toJson "choice", toJson g, tmJ l, tmJ r]
  | Tm.par l r => Json.arr #[toJson "par", tmJ l, tmJ r]
  | Tm.seq l r => Json.arr #[toJson "seq", tmJ l, tmJ r]

def storeD (j : Json) : Dec (List (Nat × Tm)) :=
  listOf (fun e => do
    match ← listOf pure e with
    | [k, t] => pure (← as Nat k, ← tmD t)
    | _ => throw "store: [checkpoint, term] expected") j

/-- The store as the judgment reads it: the first entry for a checkpoint ID. -/
def storeFn : List (Nat × Tm) → Nat → Option Tm
  | [], _ => none
  | (k, t) :: l, j => match Nat.beq k j with
    | true => some t
    | false => storeFn l j

/-- A Fork request with continuation steps (given, or templates instantiated for region `T` by
`instK`), or `none` for the other requests. -/
def kreqD (T : Tm) (j : Json) : Dec (Option KReq) := do
  let xs ← listOf pure j
  match xs with
  | [k, g, l, r] => match ← as String k with
    | "fork_choice_steps" => pure (some (KReq.forkChoice (← as Nat g) (← tmD l) (← tmD r)))
    | "fork_choice_templates" => pure (some (instK T (TReq.forkChoice (← as Nat g) (← tmD l) (← tmD r))))
    | _ => pure none
  | [k, l, r] => match ← as String k with
    | "fork_parallel_steps" => pure (some (KReq.forkParallel (← tmD l) (← tmD r)))
    | "fork_parallel_templates" => pure (some (instK T (TReq.forkParallel (← tmD l) (← tmD r))))
    | _ => pure none
  | _ => pure none

def reqD (j : Json) : Dec CReq := do
  let xs ← listOf pure j
  match xs with
  | [k] => match ← as String k with
    | "fork_parallel" => pure CReq.forkParallel
    | "merge_join" => throw "request: merge_join needs its continuation"
    | "extend" => pure CReq.extend
    | s => throw s!"request: unknown {s}"
  | [k, x] => match ← as String k with
    | "fork_choice" => pure (CReq.forkChoice (← as Nat x))
    | "merge_join" => pure (CReq.mergeJoin (← tmD x))
    | s => throw s!"request: unknown {s}"
  | [k, a, b] => match ← as String k with
    | "restore_replace" => pure (CReq.restoreReplace (← as Nat a) (← as Nat b))
    | "restore_live" => pure (CReq.restoreLive (← as Nat a) (← as Nat b))
    | s => throw s!"request: unknown {s}"
  | [k, g, w, e] => match ← as String k with
    | "merge_select" => pure (CReq.mergeSelect (← as Nat g) (← as Bool w) (← tmD e))
    | s => throw s!"request: unknown {s}"
  | _ => throw "request: a tagged array expected"

def pomJ (p : Pomset) : List (String × Json) :=
  [("events", jNats p.events), ("order", Json.arr (p.order.map (fun ab => jNats [ab.1, ab.2])).toArray)]

def outcomesJ : List POutcome → Json
  | l => Json.arr (l.map (fun o => Json.mkObj ([("id", toJson o.id)] ++ pomJ o.pom))).toArray

/-- The required source results from position `a` on, with their region, status and covering results. -/
def sourcesJ (D : Derived) (cov : TOut → Bool × TOut → Bool) : Nat → List (Bool × TOut) → List Json
  | _, [] => []
  | a, r :: l => Json.mkObj ([("id", toJson a), ("side", toJson r.1)] ++ pomJ r.2.pom ++
      [("satisfied", toJson false), ("removed", toJson (D.removed r.1)),
       ("covers", jNats (coversOf cov r D.target.outs))]) :: sourcesJ D cov (a + 1) l

def leavesJ (l : List (List Pomset)) : Json :=
  Json.arr (l.map (fun g => Json.arr (g.map (fun p => Json.mkObj (pomJ p))).toArray)).toArray

def derivedJ (req : AReq) (cov : TOut → Bool × TOut → Bool) (extra : List (String × Json)) :
    Option Derived → Json
  | none => Json.mkObj ([("derived", toJson false)] ++ extra)
  | some D => Json.mkObj ([("derived", toJson true), ("target", tmJ D.target),
      ("outcomes", outcomesJ (numberFrom 0 D.target.outs)),
      ("leaves", leavesJ (DeriveTreeJudged.newContracts (DeriveTreeJudged.judgedTEdit req D 0))),
      ("sources", Json.arr (sourcesJ D cov 0 D.required).toArray)] ++ extra)

/-- A leaf as the tree holds it: `Γ` as a term, `χ` in order. -/
def leafD (j : Json) : Dec (Tm × List Nat) := do
  match ← listOf pure j with
  | [g, d] => pure (← tmD g, ← nats d)
  | _ => throw "leaf: [gamma, done] expected"

/-- Stored copies, each `Γ` by its outcome pomsets (the branch and stored rest are not read). -/
def savedD (j : Json) : Dec (List Machine.Saved) :=
  listOf (fun e => do
    match ← listOf pure e with
    | [k, g, d] => pure ⟨← as Nat k, 0, DeriveTreeJudged.poms (← tmD g), ← nats d, []⟩
    | _ => throw "saved: [checkpoint, gamma, done] expected") j

/-- `srcAgreesB` on the leaf and copies the input gives (`"srcAgrees"`), nothing without `"leaf"`. -/
def agreesJ (T : Tm) (K : Nat → Option Tm) (j : Json) : Dec (List (String × Json)) :=
  match j.getObjVal? "leaf" with
  | Except.ok Json.null => pure []
  | Except.ok v => do
    let (g, d) ← leafD v
    let saved ← match j.getObjVal? "saved" with
      | Except.ok Json.null => pure []
      | Except.ok w => savedD w
      | Except.error _ => pure []
    pure [("srcAgrees", toJson (DeriveTreeSrc.termAgreesB (DeriveTreeJudged.poms g) d T &&
      DeriveTreeSrc.savedAgreesB saved K))]
  | Except.error _ => pure []

def editDerive (j : Json) : Dec Json := do
  let T ← tmD (← field j "region")
  let K := storeFn (← storeD (← field j "store"))
  let extra ← agreesJ T K j
  let rj ← field j "request"
  match ← kreqD T rj with
  | some q => pure (derivedJ (AReq.fork q) (relBK T q) extra (judgeK T q))
  | none =>
    let r ← reqD rj
    pure (derivedJ (AReq.base r) (relB T K r) extra (judge T K r))

def judgments : List Judgment := [("edit_derive", editDerive)]

end AgentWarrant.Oracle.DeriveRT
