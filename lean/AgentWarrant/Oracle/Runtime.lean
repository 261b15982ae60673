import Lean.Data.Json
import AgentWarrant.Spec.Edits.Machine
import AgentWarrant.Spec.Edits.DeriveTree
import AgentWarrant.Spec.Edits.DeriveTreeJudged
import AgentWarrant.Spec.Edits.DeriveTreeRoot
import AgentWarrant.Spec.Edits.DeriveTreeNames
import AgentWarrant.Spec.Edits.DeriveTreeArity
import AgentWarrant.Spec.Edits.DeriveTreeRunJ
import AgentWarrant.Spec.Edits.TreeContractInst
import AgentWarrant.Spec.Edits.TreeContractInstRoot
import AgentWarrant.Oracle.Edits
import AgentWarrant.Oracle.Common
import AgentWarrant.Oracle.DeriveRT
/-! The oracle entry `edit_runtime`: one session of the durable runtime of
`Spec/Edits/Machine.lean`, run event by event, with the observation and the committed state after
each (model/oracle/drt_runtime.py runs the same session on the Python runtime and compares).

Input: `{"root": derived, "events": [event]}` with `derived = {"instance": <edit_check's given
instance: outcomes as pomsets, act, lab, log, policy automaton>, "calls": [call], "names": [name],
"eta": version, "tree": [node]}` (or `null`: the derivation is undefined); the tree is flat, in
preorder, `node = {"name": n, "kind": 0 leaf | 1 choice | 2 parallel | 3 join | 4 sequence,
"parent": 1 + the parent's position | 0, "pos": place among the parent's arms or parts, "sel": 0 open |
1 + the selected arm, "gamma": [{"events": [call], "order": [[call, call]]}] (a leaf's `Γ_b` by its
outcomes), "done": [call] (`χ_b`)}` (`Spec/Edits/MachineTree.lean`), with `"term": term` (`edit_derive`'s
spelling) when `Γ_b` lies in the binary term model: Lean then takes the term's outcome pomsets (`poms`) as
`Γ_b`, so its source check compares like with like. Events (`"crash": true` on any of them
interrupts its transaction before the commit, after which the process restarts):
`{"kind": "check", "edit": u, "derived": derived}` (the derivation `Derive` gives at the committed
record, with `"edit": change` in place of `"tree"`: the tree change of `Spec/Edits/DeriveTree.lean`,
`{"form": "keep"}`, `{"form": "fork", "par": b, "branch": b, "group": g, "leaves": [leaf, leaf]}`,
`{"form": "restore", "live": b, "branch": b, "group": g, "leaves": [leaf]}`, `{"form": "select",
"group": g, "arm": i, "leaves": [leaf]}` or `{"form": "join", "group": g, "leaves": [leaf]}` with
`leaf = [name, [pomset]]` or `[name, [pomset], term]` (`Γ` as a term, as `"term"` above); the names of the
group and leaves are not read: Lean builds the derived tree from the record's own tree with its own names
for the new nodes (`leanNames`), checks the derivation and the Agent keeps the answer; an optional
`"judged": {"region": term, "store": [[k, term]], "request": req, "out": [[a, b]]}` is the edit's judged
request, in `edit_derive`'s spelling with the terms in the record's calls and `out` the caller's names for
the calls the judgment allocates: then the new leaves' contracts are Lean's (`derRunJ` of
`Spec/Edits/DeriveTreeRunJ.lean`: the source check against the record, `judgeA`, `out` one-to-one on the
judged contracts' calls (`runJOutInjB`) and fresh for the leaves the change keeps and the record's
processed calls (`runJOutFreshB` against `runJStaleCalls`),
`judgedTEdit`), and the step reports `"judged": {"agrees": b, "outInj": b | null, "outFresh": b | null,
"leaves": [[pomset]] | null}`, the three verdicts and the contracts the machine installs when all hold), `{"kind": "update" | "preload", "edit": u,
"answer": i}` (the Agent's `i`-th answer, in the order of the session's checks; an update that commits reports
`"contract": {"agrees": b, "outcomes": [pomset]}`, `⟦T'⟧` of the installed tree and whether the installed
instance's outcomes are it, `instOutcomesAgreeB` of `Spec/Edits/TreeContractInst.lean`; a check reports
`"instContract": b`, whether its derivation's instance's outcomes are `⟦T'⟧` of its tree, and `Derive`
is guarded by it, `tciGuard`, so a derivation failing it is undefined and the check answers invalid), `{"kind": "use" |
"retry", "call": x, "token": version | null, "request": ok}`, `{"kind": "dispatch"}`, `{"kind":
"settle", "action": d, "value": v}`, `{"kind": "checkpoint", "id": k, "branch": b}` (Lean decides whether `b` is current from its tree),
`{"kind": "restart"}`, and the registered extension `{"kind": "extend", "policy": {"delta": [...]},
"eta": version, "verified": b}` (`Ev.extend`: Lean computes the extension instance from its own
record; `b` says whether `ξ` verifies; the step reports `"extContract": b`, whether that instance's outcomes
are `⟦T⟧` of the record's tree, `tciExtOk`: the machines run through `tciCommit` and `tciStepI`, which
refuse the extension, `["no-commit", "extension-not-tree-contract"]`, when not; a committed extension
reports `"contract"` as an update does).

`Derive` is the session's table of derivations: a rule update or Preload re-derives `u` at the
committed record by looking up the derivation a check gave at an equal record (none: undefined), its
tree Lean's `applyEdit` of the record's tree with Lean's names (`leanNames`, above the tree's names, the
checkpoint IDs and the registered names; undefined when the change does not apply), its new leaves' contracts,
for an entry with a judged request, the judgment's after the source check (`derRunJ`). The session's names
are Lean's throughout: the caller translates every event's node names into Lean's numbering, and the
states it compares, by the renaming the committed trees so far give.
Output: `{"root": accepted, "rootOrder": [pb, nc, dn, ar], "steps": [{"obs": [...], "state": {...}, "judged"?}]}`:
the root update is the checked one (`startArity`, `Spec/Edits/DeriveTreeArity.lean`, over `startNamed`,
`Spec/Edits/DeriveTreeNames.lean`, and `startChecked`, `Spec/Edits/DeriveTreeRoot.lean`), which refuses a
root whose tree breaks parents before children, has crossing parent links, repeats a name or gives a node
other than the children its kind has in every tree the edits build, and `"rootOrder"` (absent for a
`null` root) gives Lean's verdict on each (`parentsBeforeB`, `noCrossB`, `namesDistinctB`, `aritiesB`), so
the caller's own check of the root tree is compared with Lean's. Every tree a run reaches from a root so
installed has the four properties (`Thm.editTreeAritiesHold` for the arities). An accepted root also reports
`"rootContract": {"agrees": b, "outcomes": [pomset]}`, `⟦T⟧` of the root tree and whether the root's instance's outcomes are it
(`tciRootOk`, `Spec/Edits/TreeContractInstRoot.lean`); the session still starts from `startArity`, so a
false verdict is the caller's mismatch, not a refused root.

`edit_ideal` runs the ideal machine (`stepI`: the atomic edit, the tokenless tool call, Dispatch,
completion, Checkpoint, the registered extension; a retry changes nothing) over `{"root": derived, "events": [event]}` with
events `{"kind": "edit", "edit": u, "derived": derived}` (with `"judged"` as for a check), `{"kind": "use", "call": x, "request": ok}`,
`{"kind": "retry", "call": x}`, `dispatch`, `settle`, `checkpoint` and `extend` as above; same output (an
accepted edit reports `"contract"` as an update does, and an edit `"instContract"` as a check does). -/
namespace AgentWarrant.Oracle.Runtime
open Lean AgentWarrant AgentWarrant.Edits AgentWarrant.Edits.Machine
open AgentWarrant.Oracle.Edits (field as listOf nats pinstD tripleD pairD)

abbrev Dec := Except String

def pomD (j : Json) : Dec Pomset := do pure ⟨← nats (← field j "events"), ← listOf pairD (← field j "order")⟩

/-- A leaf's `Γ_b`: given as a term (`"term"`, in the record's calls), its outcome pomsets as the judgment
computes them (`poms`), else the pomsets `"gamma"` lists. -/
def gammaD (j : Json) : Dec (List Pomset) := match j.getObjVal? "term" with
  | Except.ok Json.null => do listOf pomD (← field j "gamma")
  | Except.ok t => do pure (DeriveTreeJudged.poms (← Oracle.DeriveRT.tmD t))
  | Except.error _ => do listOf pomD (← field j "gamma")

def nodeD (j : Json) : Dec TNode := do
  pure ⟨← as Nat (← field j "name"), ← as Nat (← field j "kind"), ← as Nat (← field j "parent"),
        ← as Nat (← field j "pos"), ← as Nat (← field j "sel"), ← gammaD j,
        ← nats (← field j "done")⟩

def derivedD (j : Json) : Dec (Option Machine.Derived) := match j with
  | Json.null => pure none
  | _ => do
    pure (some ⟨← pinstD (← field j "instance"), ← nats (← field j "calls"), ← nats (← field j "names"),
                ← as Nat (← field j "eta"), ← listOf nodeD (← field j "tree")⟩)

/-- A new leaf of a tree change: `[name, [pomset]]`, or `[name, [pomset], term]` with `Γ` as a term (its
outcome pomsets, `poms`, are the leaf's). -/
def leafD (j : Json) : Dec (Nat × List Pomset) := do
  match (← as (Array Json) j).toList with
  | [n, g] => pure (← as Nat n, ← listOf pomD g)
  | [n, _, t] => pure (← as Nat n, DeriveTreeJudged.poms (← Oracle.DeriveRT.tmD t))
  | _ => throw "tree edit: a new leaf is [name, gamma] or [name, gamma, term]"

def leavesD (j : Json) : Dec (List (Nat × List Pomset)) := do listOf leafD (← field j "leaves")

/-- The tree change an edit names (`Spec/Edits/DeriveTree.lean`), spelled `{"form": "keep" | "fork" |
"restore" | "select" | "join", ...}`. -/
def teditD (j : Json) : Dec TEdit := do
  match ← as String (← field j "form") with
  | "keep" => pure TEdit.keep
  | "fork" => match ← leavesD j with
    | [(bl, gl), (br, gr)] => pure (TEdit.fork (← as Bool (← field j "par")) (← as Nat (← field j "branch"))
                                      (← as Nat (← field j "group")) bl br gl gr)
    | _ => throw "tree edit: a fork has two new leaves"
  | "restore" => match ← leavesD j with
    | [(bk, gk)] => pure (TEdit.restore (← as Bool (← field j "live")) (← as Nat (← field j "branch"))
                                         (← as Nat (← field j "group")) bk gk)
    | _ => throw "tree edit: a restore has one new leaf"
  | "select" => match ← leavesD j with
    | [(bj, gj)] => pure (TEdit.select (← as Nat (← field j "group")) (← as Nat (← field j "arm")) bj gj)
    | _ => throw "tree edit: a merge has one new leaf"
  | "join" => match ← leavesD j with
    | [(bj, gj)] => pure (TEdit.join (← as Nat (← field j "group")) bj gj)
    | _ => throw "tree edit: a merge has one new leaf"
  | s => throw s!"tree edit: unknown form {s}"

/-- A finite naming of calls (`[[a, b]]`: `a` named `b`; any other call keeps its number). -/
def mapFn : List (Nat × Nat) → Nat → Nat
  | [], c => c
  | (a, b) :: l, c => match Nat.beq a c with
    | true => b
    | false => mapFn l c

/-- A judged request (`"judged"`): `{"region": term, "store": [[k, term]], "request": req, "out": [[a, b]]}`,
spelled as `edit_derive`'s, its terms in the record's calls, `out` the record's names for the judgment's
fresh calls. -/
def runJD (j : Json) : Dec DeriveTreeRunJ.RunJReq := do
  let T ← Oracle.DeriveRT.tmD (← field j "region")
  let K := Oracle.DeriveRT.storeFn (← Oracle.DeriveRT.storeD (← field j "store"))
  let rj ← field j "request"
  let q ← match ← Oracle.DeriveRT.kreqD T rj with
    | some q => pure (DeriveFork.AReq.fork q)
    | none => do pure (DeriveFork.AReq.base (← Oracle.DeriveRT.reqD rj))
  pure ⟨T, K, q, mapFn (← listOf pairD (← field j "out"))⟩

/-- What `Derive` gives for an edit at a record: the derived instance, calls, names and version, with
the tree change (`"edit"`) in place of the tree, which Lean computes (`treeDer`), and the judged request
when the caller sends one (`"judged"`). -/
def editDerivedD (j : Json) : Dec (Option ((Machine.Derived × TEdit) × Option DeriveTreeRunJ.RunJReq)) :=
  match j with
  | Json.null => pure none
  | _ => do
    let jr ← match j.getObjVal? "judged" with
      | Except.ok Json.null => pure none
      | Except.ok v => do pure (some (← runJD v))
      | Except.error _ => pure none
    pure (some ((⟨← pinstD (← field j "instance"), ← nats (← field j "calls"), ← nats (← field j "names"),
                 ← as Nat (← field j "eta"), []⟩, ← teditD (← field j "edit")), jr))

/-- The extension's policy automaton, spelled as `edit_check`'s `"policy"`. -/
def extendPolicy (j : Json) : Dec Dfa := do listOf tripleD (← field (← field j "policy") "delta")

def optNat (j : Json) : Dec (Option Nat) := match j with
  | Json.null => pure none
  | _ => do pure (some (← as Nat j))

/-- A session event as the Agent issues it (answers named by index). -/
inductive SEv
  | check (u : Nat) (d : Option ((Machine.Derived × TEdit) × Option DeriveTreeRunJ.RunJReq))
  | update (u i : Nat)
  | preload (u i : Nat)
  | ev (e : Ev)
  | restart

def sevD (j : Json) : Dec (SEv × Bool) := do
  let crash ← match j.getObjVal? "crash" with
    | Except.ok v => as Bool v
    | Except.error _ => pure false
  let k ← as String (← field j "kind")
  let e ← match k with
    | "check" => do pure (SEv.check (← as Nat (← field j "edit")) (← editDerivedD (← field j "derived")))
    | "update" => do pure (SEv.update (← as Nat (← field j "edit")) (← as Nat (← field j "answer")))
    | "preload" => do pure (SEv.preload (← as Nat (← field j "edit")) (← as Nat (← field j "answer")))
    | "use" => do pure (SEv.ev (Ev.use (← as Nat (← field j "call")) (← optNat (← field j "token"))
                                       (← as Bool (← field j "request"))))
    | "retry" => do pure (SEv.ev (Ev.retry (← as Nat (← field j "call")) (← optNat (← field j "token"))
                                         (← as Bool (← field j "request"))))
    | "dispatch" => pure (SEv.ev Ev.dispatch)
    | "settle" => do pure (SEv.ev (Ev.settle (← as Nat (← field j "action")) (← as Nat (← field j "value"))))
    | "checkpoint" => do pure (SEv.ev (Ev.checkpoint (← as Nat (← field j "id")) (← as Nat (← field j "branch"))))
    | "extend" => do pure (SEv.ev (Ev.extend (← extendPolicy j) (← as Nat (← field j "eta")) (← as Bool (← field j "verified"))))
    | "restart" => pure SEv.restart
    | s => throw s!"event: unknown kind {s}"
  pure (e, crash)

/-- The session's derivations (each with its tree change), looked up by record and edit. -/
def lookupT : List (Core × Nat × Option ((Machine.Derived × TEdit) × Option DeriveTreeRunJ.RunJReq)) → Core → Nat → Option ((Machine.Derived × TEdit) × Option DeriveTreeRunJ.RunJReq)
  | [], _, _ => none
  | (c, v, d) :: t, c', u => match decide (c = c'), Nat.beq v u with
    | true, true => d
    | _, _ => lookupT t c' u

/-- `Derive` as the machine sees it: the table's derivation with the tree Lean computes and Lean's own
names for its new nodes (`leanNames`, above the tree's names and `reserved`; the names the caller put in
the change are never read), and, for an entry with a judged request, the new leaves' contracts from Lean's
judgment after Lean's source check against the record (`derRunJ`); without one, `treeDerN`'s path. -/
def lookup (t : List (Core × Nat × Option ((Machine.Derived × TEdit) × Option DeriveTreeRunJ.RunJReq))) :
    Derivation := tciGuard (DeriveTreeRunJ.derRunJ (lookupT t))

/-- `"instContract"` on a check or edit step whose derivation Lean computes (before the guard): whether its
instance's outcomes are `⟦T'⟧` of its tree (`instOutcomesAgreeB`); when not, `lookup` (`tciGuard`) leaves
it undefined and the edit is invalid. -/
def instContractJ (t : List (Core × Nat × Option ((Machine.Derived × TEdit) × Option DeriveTreeRunJ.RunJReq)))
    (c : Core) (u : Nat) : List (String × Json) :=
  match DeriveTreeRunJ.derRunJ (lookupT t) c u with
  | some d => [("instContract", toJson (instOutcomesAgreeB d.inst d.tree))]
  | none => []

/-- `"extContract"` on an extension event: whether the instance it would install at the committed record
`c`, `extInst`, has as outcomes `⟦T⟧` of the record's tree (`tciExtOk`); when not, the machine refuses the
extension (`tciCommit`, `tciStepI`: `noCommit "extension-not-tree-contract"`). -/
def extContractJ (c : Core) (dfa : Dfa) : List (String × Json) := [("extContract", toJson (tciExtOk c dfa))]

/-- Lean's view of a judged request at the record `c` (`"judged"` on the step): the source check's verdict,
whether `out` is one-to-one on the calls the judgment allocates (`runJOutInjB`), whether it names none of
them as a call of a leaf the change keeps or a call the record has processed (`runJOutFreshB` against
`runJStaleCalls`), and the new leaves' contracts the judgment
gives (`null`: the judgment derives nothing; the machine installs them only when all three verdicts
hold). -/
def judgedJ (c : Core) : Option ((Machine.Derived × TEdit) × Option DeriveTreeRunJ.RunJReq) → List (String × Json)
  | some ((_, e), some j) =>
    let x := DeriveTreeRunJ.editTarget e
    let D := DeriveFork.judgeA j.region j.store j.req
    [("judged", Json.mkObj [("agrees", toJson (DeriveTreeRunJ.runJAgrees j c x)),
      ("outInj", match D with
        | none => Json.null
        | some D => toJson (DeriveTreeRunJ.runJOutInjB j.out (DeriveTreeRunJ.runJCalls j D x))),
      ("outFresh", match D with
        | none => Json.null
        | some D => toJson (DeriveTreeRunJ.runJOutFreshB j.out (DeriveTreeRunJ.runJCalls j D x)
            (DeriveTreeRunJ.runJStaleCalls c (DeriveTreeRunJ.runJFreshGone (DeriveTreeRunJ.runJEdit j D x))))),
      ("leaves", match D with
        | none => Json.null
        | some D => Oracle.DeriveRT.leavesJ (DeriveTreeJudged.newContracts (DeriveTreeRunJ.runJEdit j D x)))])]
  | _ => []

structure Sess where
  store : Store
  table : List (Core × Nat × Option ((Machine.Derived × TEdit) × Option DeriveTreeRunJ.RunJReq))
  answers : List Machine.Answer

def nthA : List Machine.Answer → Nat → Option Machine.Answer
  | [], _ => none
  | a :: _, 0 => some a
  | _ :: l, n + 1 => nthA l n

/-- One session event: an interrupted transaction commits nothing and the process restarts; a check
records its derivation and the Agent keeps the answer. -/
def runOne (s : Sess) (e : SEv) (down : Bool) : Obs × Sess :=
  let der := DeriveTreeRunJ.derRunJ (lookupT s.table)
  let S := s.store.committed
  match e with
  | SEv.restart => (Obs.restarted, { s with store := { s.store with committed := restart s.store } })
  | SEv.check u d =>
    let t := s.table ++ [(S.core, u, d)]
    match down with
    | true => (Obs.crashed, { s with table := t })
    | false =>
      let y := check (lookup t) S.core u
      (answerObs y, { s with table := t, answers := s.answers ++ [y] })
  | SEv.update u i =>
    let y := match nthA s.answers i with
      | some y => y
      | none => Machine.Answer.invalid u S.core
    match down with
    | true => (Obs.crashed, { s with store := crash s.store (Ev.update u y) })
    | false => let p := tciCommit der s.store (Ev.update u y); (p.1, { s with store := p.2 })
  | SEv.preload u i =>
    let y := match nthA s.answers i with
      | some y => y
      | none => Machine.Answer.invalid u S.core
    match down with
    | true => (Obs.crashed, { s with store := crash s.store (Ev.preload u y) })
    | false => let p := tciCommit der s.store (Ev.preload u y); (p.1, { s with store := p.2 })
  | SEv.ev ev => match down with
    | true => (Obs.crashed, { s with store := crash s.store ev })
    | false => let p := tciCommit der s.store ev; (p.1, { s with store := p.2 })

-- output -------------------------------------------------------------------------------------------

def obsJ : Obs → Json
  | Obs.invalid => Json.arr #["edit", "invalid"]
  | Obs.rejected => Json.arr #["edit", "rejected"]
  | Obs.accepted => Json.arr #["edit", "accepted"]
  | Obs.updated e => Json.arr #["updated", toJson e]
  | Obs.noCommit w => Json.arr #["no-commit", toJson w]
  | Obs.preloaded e => Json.arr #["preloaded", toJson e]
  | Obs.new x d r => Json.arr #["new", toJson x, toJson d, toJson r]
  | Obs.reuse x d r => Json.arr #["reuse", toJson x, toJson d, toJson r]
  | Obs.deny x w => Json.arr #["deny", toJson x, toJson w]
  | Obs.returned x r v => Json.arr #["return", toJson x, toJson r, match v with
    | some n => toJson n
    | none => Json.null]
  | Obs.sent r d => Json.arr #["sent", toJson r, toJson d]
  | Obs.queueEmpty => Json.arr #["queue-empty"]
  | Obs.settled r => Json.arr #["settled", toJson r]
  | Obs.settleRefused d w => Json.arr #["settle-refused", toJson d, toJson w]
  | Obs.saved k => Json.arr #["saved", toJson k]
  | Obs.ckRefused k w => Json.arr #["checkpoint-refused", toJson k, toJson w]
  | Obs.crashed => Json.arr #["crashed"]
  | Obs.restarted => Json.arr #["restarted"]

def optJ : Option Nat → Json
  | some n => toJson n
  | none => Json.null

def wordJ (w : Word) : Json := Json.arr (w.map (fun l => Json.arr #[toJson l.call, toJson l.action, toJson l.new])).toArray

def treeJ (t : Tree) : Json :=
  Json.arr (t.map (fun n => Json.arr #[toJson n.name, toJson n.kind, toJson n.parent,
    toJson n.pos, toJson n.sel, jNats n.done])).toArray

def stateJ (S : RState) : Json :=
  let c := S.core
  Json.mkObj [("ver", toJson c.ver), ("eta", optJ c.eta), ("closed", jNats c.closed),
    ("processed", Json.arr (c.procd.map (fun p => Json.arr #[toJson p.letter.call, toJson p.letter.action,
      toJson p.letter.new, toJson p.version, toJson p.record])).toArray),
    ("log", Json.arr (c.log.map (fun a => Json.arr #[toJson a.action, toJson a.call, toJson a.sent,
      optJ a.value])).toArray),
    ("calls", jNats c.rules), ("names", jNats c.names), ("checkpoints", jNats c.ckpts),
    ("base", toJson c.base), ("words", Json.arr (c.safe.map (fun x => wordJ x.2)).toArray),
    ("entries", jNats c.entries), ("prepared", jNats (S.prepared.map Prod.fst)),
    ("tree", treeJ c.tree),
    ("saved", Json.arr (c.saved.map (fun k => Json.arr #[toJson k.id, toJson k.branch, jNats k.done,
      Json.arr (k.rest.map jNats).toArray])).toArray)]

def sevJudged (t : List (Core × Nat × Option ((Machine.Derived × TEdit) × Option DeriveTreeRunJ.RunJReq)))
    (c : Core) : SEv → List (String × Json)
  | SEv.check u d => judgedJ c d ++ instContractJ t c u
  | SEv.ev (Ev.extend dfa _ _) => extContractJ c dfa
  | _ => []

/-- `"contract"` on a step that installs an edit's derivation: `⟦T'⟧` of the installed tree
(`treeContract`) and whether the installed instance's outcomes are it (`instOutcomesAgreeB`). -/
def contractJ (c : Core) : List (String × Json) :=
  [("contract", Json.mkObj [("agrees", toJson (instOutcomesAgreeB c.inst c.tree)),
    ("outcomes", Json.arr ((treeContract c.tree).map (fun p => Json.mkObj (Oracle.DeriveRT.pomJ p))).toArray)])]

/-- The contract check of a rule update or an extension that committed. -/
def sevContract (o : Obs) (c : Core) : SEv → List (String × Json)
  | SEv.update _ _ => match o with
    | Obs.updated _ => contractJ c
    | _ => []
  | SEv.ev (Ev.extend _ _ _) => match o with
    | Obs.updated _ => contractJ c
    | _ => []
  | _ => []

def runAll : Sess → List (SEv × Bool) → List Json
  | _, [] => []
  | s, (e, c) :: es =>
    let p := runOne s e c
    Json.mkObj ([("obs", obsJ p.1), ("state", stateJ p.2.store.committed)] ++ sevJudged p.2.table s.store.committed.core e
      ++ sevContract p.1 p.2.store.committed.core e)
      :: runAll p.2 es

/-- `"rootOrder"`: Lean's verdicts on the root tree, `[parents before children, no crossing links,
distinct names, group arities]` (`parentsBeforeB`, `noCrossB`, `namesDistinctB`, `aritiesB`); the root
is installed only when all four hold (`startArity`). -/
def rootOrderJ (d : Machine.Derived) : List (String × Json) :=
  [("rootOrder", Json.arr #[toJson (parentsBeforeB d.tree), toJson (noCrossB d.tree),
    toJson (namesDistinctB d.tree), toJson (aritiesB d.tree)])]

/-- `"rootContract"` on an accepted root: `⟦T⟧` of the root tree and whether the root's instance's outcomes
are it (`tciRootOk`, the same check `contractJ` reports on every install). -/
def rootContractJ (d : Machine.Derived) : List (String × Json) :=
  [("rootContract", Json.mkObj [("agrees", toJson (tciRootOk d)),
    ("outcomes", Json.arr ((treeContract d.tree).map (fun p => Json.mkObj (Oracle.DeriveRT.pomJ p))).toArray)])]

def editRuntime (j : Json) : Dec Json := do
  let root ← derivedD (← field j "root")
  let evs ← listOf sevD (← field j "events")
  match root with
  | none => pure (Json.mkObj [("root", toJson false), ("steps", Json.arr #[])])
  | some d => match startArity d with
    | none => pure (Json.mkObj ([("root", toJson false), ("steps", Json.arr #[])] ++ rootOrderJ d))
    | some S0 =>
      let s : Sess := ⟨⟨S0, S0, []⟩, [], []⟩
      pure (Json.mkObj ([("root", toJson true), ("state", stateJ S0),
                         ("steps", Json.arr (runAll s evs).toArray)] ++ rootOrderJ d ++ rootContractJ d))

-- the ideal machine ---------------------------------------------------------------------------------

/-- An ideal session event: an edit with the derivation at the current record, or one `IEv`, or a
retry (which changes nothing on the ideal machine: the stored link's value, no token). -/
inductive IdEv
  | edit (u : Nat) (d : Option ((Machine.Derived × TEdit) × Option DeriveTreeRunJ.RunJReq))
  | ev (e : IEv)
  | retry (x : Nat)

def idEvD (j : Json) : Dec IdEv := do
  match ← as String (← field j "kind") with
  | "edit" => pure (IdEv.edit (← as Nat (← field j "edit")) (← editDerivedD (← field j "derived")))
  | "use" => pure (IdEv.ev (IEv.use (← as Nat (← field j "call")) (← as Bool (← field j "request"))))
  | "retry" => pure (IdEv.retry (← as Nat (← field j "call")))
  | "dispatch" => pure (IdEv.ev IEv.dispatch)
  | "settle" => pure (IdEv.ev (IEv.settle (← as Nat (← field j "action")) (← as Nat (← field j "value"))))
  | "checkpoint" => pure (IdEv.ev (IEv.checkpoint (← as Nat (← field j "id")) (← as Nat (← field j "branch"))))
  | "extend" => pure (IdEv.ev (IEv.extend (← extendPolicy j) (← as Nat (← field j "eta")) (← as Bool (← field j "verified"))))
  | s => throw s!"ideal event: unknown kind {s}"

def retryI (c : Core) (x : Nat) : Obs := match findProc x c.procd with
  | none => Obs.deny x "not-processed"
  | some p => retry c x (some p.version) true

def runIdeal : List (Core × Nat × Option ((Machine.Derived × TEdit) × Option DeriveTreeRunJ.RunJReq)) → Core → List IdEv → List Json
  | _, _, [] => []
  | t, c, e :: es =>
    let (o, c', t') := match e with
      | IdEv.edit u d => let t' := t ++ [(c, u, d)]; let p := tciStepI (DeriveTreeRunJ.derRunJ (lookupT t')) c (IEv.edit u); (p.1, p.2, t')
      | IdEv.ev ie => let p := tciStepI (DeriveTreeRunJ.derRunJ (lookupT t)) c ie; (p.1, p.2, t)
      | IdEv.retry x => (retryI c x, c, t)
    let jd := match e with
      | IdEv.edit u d => judgedJ c d ++ instContractJ t' c u ++ (match o with
        | Obs.accepted => contractJ c'
        | _ => [])
      | IdEv.ev (IEv.extend dfa _ _) => extContractJ c dfa ++ (match o with
        | Obs.updated _ => contractJ c'
        | _ => [])
      | _ => []
    Json.mkObj ([("obs", obsJ o), ("state", stateJ ⟨c', []⟩)] ++ jd) :: runIdeal t' c' es

/-- `edit_ideal`: the ideal machine (`stepI`) over a session of ideal events, from the accepted root. -/
def editIdeal (j : Json) : Dec Json := do
  let root ← derivedD (← field j "root")
  let evs ← listOf idEvD (← field j "events")
  match root with
  | none => pure (Json.mkObj [("root", toJson false), ("steps", Json.arr #[])])
  | some d => match startArity d with
    | none => pure (Json.mkObj ([("root", toJson false), ("steps", Json.arr #[])] ++ rootOrderJ d))
    | some S0 => pure (Json.mkObj ([("root", toJson true), ("state", stateJ S0),
                                    ("steps", Json.arr (runIdeal [] S0.core evs).toArray)] ++ rootOrderJ d
                                    ++ rootContractJ d))

end AgentWarrant.Oracle.Runtime
