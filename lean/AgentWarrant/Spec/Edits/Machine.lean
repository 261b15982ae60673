import AgentWarrant.Spec.Edits.Input
import AgentWarrant.Spec.Edits.WellFormed
import AgentWarrant.Spec.Edits.Residual
import AgentWarrant.Spec.Edits.MachineTree
/-! The ideal machine and the durable runtime as transition systems over finite records (*When Can
Agents Safely Checkpoint, Fork, Restore, and Merge?*, Sections VI-B, VII and Appendices A-H, A-I,
A-J, A-K; Table III). Mirrors `model/edits/runtime/steps.py` (one function per row of Table III),
`model/edits/runtime/runtime.py` (the committed store and restarts) and `model/edits/ideal/machine.py`.

A record `Core` holds what the checker and the rule update read: the rule version in force `η` and
the closed versions, the processed calls `χ` (each with the rule version of its token and its
authorization record), the authorization log `Δ` with each record's queue and completion status, the
registered calls `dom ρ`, the names the tree uses, the checkpoints, `ver`, and the rules in force:
the checked safe set `B̂*`, the linearizations and action map of the installed target, the rule
entries (current calls), and the installed derived instance itself (`inst`: its pomset outcomes, actions,
labels, log and policy automaton — what the registered extension's instance is computed from). The runtime state adds the inactive versions with their prepared content
(Table III "Preload"), which γ omits: the cut of an answer is the `Core`, compared by equality.

`Derive` is a parameter (`Derivation`): it maps a record and an edit to the derived check instance
(pomset outcomes and the policy automaton, as `edit_check` takes them), the derived record's
registered calls and tree names, and the new rule version `η⁺`, or to nothing (`Invalid`). The
checker is Lean's own (`build`, `safeSet`): every safe set installed is computed here.

Choices where the paper is silent (as in the Python model): authorization records are numbered
`1, 2, …` in creation order; a token is represented by the rule version it was issued under (a
forged token by `none`), so a token verifies exactly when it names the call's current entry version;
a request is represented by whether its canonical form is the certified one; the automaton in force
is represented by its derivative state, the partial execution `r` since the rule update, with
`q →a` enabled iff `r·a ∈ W = ↓π₂B̂*` (the automaton lemma, `Thm/Edits/Canonical.lean`, makes
`Can(W, π₂B̂*)` generate exactly `W`); the current calls after `r` are the remaining events of the
installed outcomes some linearization of which starts with `raw r` (the calls of the residual
contract). The record carries the branch tree `T` (`tree`, `Spec/Edits/MachineTree.lean`): `Derive`
supplies the derived record's tree as it supplies its names, a tool call applies `HStep` to it, and
Checkpoint's "`b` is current" is computed from it (`currentB`); an accepted Checkpoint stores the
branch's copy (`saved`: `Γ_b`, `χ_b` and `𝒞_b`).

The registered extension `Extend(ξ)` (Appendix A-D2) is the operator's event, on both machines: its
check instance is computed from the record (`extInst`: `Θ/z` of the installed instance after the calls
`z` processed since the rule update — the outcomes still compatible with `z`, their residual pomsets,
the log `Δ·auth(z)`, the same actions and labels — under the extension's policy automaton `𝒜⁺`, with
A-D2's requirement that every current outcome is required and covers itself, which the finite checker
does not read). Whether `ξ` verifies (its signed entries under the extended authorities, and
`𝒜 ⊆ 𝒜⁺`) is an input of the event: signatures, edit rules, templates and
authorities are not modelled, and the registered calls and tree names are kept (`ρ⁺ ⊇ ρ` adds no
call the model could use). A verified extension with rules in force and an unallocated `η⁺` is
checked and, when the checker's set is nonempty, installed in one atomic step on both machines (it is
not an Agent's answer, so there is no separate `Ready`); on the runtime it drops prepared content, as a
rule update does. -/
namespace AgentWarrant.Edits.Machine
open AgentWarrant AgentWarrant.Edits

/-- One authorization record: the action it names, the call that created it, whether its request was
sent (`Dispatch`) and its stored return value (`some` once settled). -/
structure Auth where
  action : Nat
  call : Nat
  sent : Bool
  value : Option Nat
  deriving DecidableEq

/-- One processed call: its resolved letter, the rule version of the token it presented, and the
number of its authorization record. -/
structure Proc where
  letter : Letter
  version : Nat
  record : Nat
  deriving DecidableEq

/-- The execution record with the rules in force (everything γ covers). -/
structure Core where
  ver : Nat
  eta : Option Nat
  closed : List Nat
  procd : List Proc
  log : List Auth
  rules : List Nat
  names : List Nat
  ckpts : List Nat
  base : Nat
  safe : List Cand
  lins : List (List (List Nat))
  act : List Nat
  entries : List Nat
  inst : PInst
  tree : Tree
  saved : List Saved
  deriving DecidableEq

/-- What an Agent may present to a rule update: a checked answer, tied to the record it was checked
at (`cut`, the counterpart of γ). -/
inductive Answer
  | invalid (edit : Nat) (cut : Core)
  | rejected (edit : Nat) (cut : Core)
  | accepted (edit : Nat) (cut : Core) (etaOld : Option Nat) (etaNew : Nat) (safe : List Cand)

/-- Content prepared by Preload in an inactive version. -/
structure Prep where
  edit : Nat
  cut : Core
  etaOld : Option Nat
  safe : List Cand
  deriving DecidableEq

/-- The runtime state: the record and the inactive versions with their prepared content. -/
structure RState where
  core : Core
  prepared : List (Nat × Prep)

/-- What `Derive` supplies for a defined derivation. -/
structure Derived where
  inst : PInst
  calls : List Nat
  names : List Nat
  etaNew : Nat
  tree : Tree

abbrev Derivation := Core → Nat → Option Derived

/-- Agent-API observations (reasons as in `model/edits/runtime/answers.py`). -/
inductive Obs
  | invalid | rejected | accepted
  | updated (eta : Nat) | noCommit (why : String) | preloaded (eta : Nat)
  | new (x d rec : Nat) | reuse (x d rec : Nat) | deny (x : Nat) (why : String)
  | returned (x rec : Nat) (v : Option Nat)
  | sent (rec d : Nat) | queueEmpty
  | settled (rec : Nat) | settleRefused (d : Nat) (why : String)
  | saved (k : Nat) | ckRefused (k : Nat) (why : String)
  | crashed | restarted

-- small list functions ----------------------------------------------------------------------------

def memB (a : Nat) (l : List Nat) : Bool := anyB (fun y => Nat.beq y a) l

def removeAll (a : Nat) : List Nat → List Nat
  | [] => []
  | b :: l => match Nat.beq b a with
    | true => removeAll a l
    | false => b :: removeAll a l

def dropN : Nat → List α → List α
  | 0, l => l
  | _ + 1, [] => []
  | n + 1, _ :: l => dropN n l

def isPrefixN : List Nat → List Nat → Bool
  | [], _ => true
  | _ :: _, [] => false
  | a :: z, b :: w => Nat.beq a b && isPrefixN z w

/-- The processed calls since the rule update (`r`). -/
def since (c : Core) : Word := dropN c.base (c.procd.map Proc.letter)

/-- The calls of the residual contract after the raw word `z`: the remaining events of every
installed outcome one of whose linearizations starts with `z`. -/
def curCalls (lins : List (List (List Nat))) (z : List Nat) : List Nat :=
  dedupN (concatL (lins.map (fun ws => concatL (ws.map (fun w => match isPrefixN z w with
    | true => dropN (List.length z) w
    | false => [])))))

/-- `z ∈ W = ↓π₂B̂*`. -/
def inW (safe : List Cand) (z : Word) : Bool := anyB (fun c => isPrefixB z c.2) safe

def logActions (c : Core) : List Nat := c.log.map Auth.action

/-- The first record naming action `d`, with its number. -/
def findAuth (d : Nat) : Nat → List Auth → Option (Nat × Auth)
  | _, [] => none
  | n, a :: l => match Nat.beq a.action d with
    | true => some (n, a)
    | false => findAuth d (n + 1) l

def findProc (x : Nat) : List Proc → Option Proc
  | [] => none
  | p :: l => match Nat.beq p.letter.call x with
    | true => some p
    | false => findProc x l

def nthAuth : List Auth → Nat → Option Auth
  | [], _ => none
  | a :: _, 0 => some a
  | _ :: l, n + 1 => nthAuth l n

def findPrep (v : Nat) : List (Nat × Prep) → Option Prep
  | [] => none
  | (w, p) :: l => match Nat.beq w v with
    | true => some p
    | false => findPrep v l

def dropPrep (v : Nat) : List (Nat × Prep) → List (Nat × Prep)
  | [] => []
  | (w, p) :: l => match Nat.beq w v with
    | true => dropPrep v l
    | false => (w, p) :: dropPrep v l

def etaList : Option Nat → List Nat
  | none => []
  | some e => [e]

-- the checker on a derived instance ---------------------------------------------------------------

/-- The check of Table III: `Invalid` when the derivation is undefined, `Reject` when the fixed point
is empty, else `Accepted` with the largest safe set, tied to the record it was checked at. -/
def check (derive : Derivation) (c : Core) (u : Nat) : Answer :=
  match derive c u with
  | none => Answer.invalid u c
  | some d => match safeSet (build d.inst) with
    | [] => Answer.rejected u c
    | s :: ss => Answer.accepted u c c.eta d.etaNew (s :: ss)

def answerObs : Answer → Obs
  | Answer.invalid _ _ => Obs.invalid
  | Answer.rejected _ _ => Obs.rejected
  | Answer.accepted _ _ _ _ _ => Obs.accepted

/-- `phase(η⁺) ∈ {⊥, inactive}`: `η⁺` is neither the active version nor a closed one. -/
def unallocated (c : Core) (v : Nat) : Bool := !(memB v (etaList c.eta) || memB v c.closed)

/-- `Ready(S, u, Y)`: the answer is an accepted one for `u`, checked at this very record, the old
version is current, `η⁺` is unallocated or inactive, and re-deriving and re-checking reproduce it. -/
def ready (derive : Derivation) (c : Core) (u : Nat) : Answer → Except String Derived
  | Answer.accepted v cut etaOld etaNew safe =>
    match Nat.beq v u with
    | false => Except.error "not-an-accepted-answer"
    | true => match decide (cut = c) with
      | false => Except.error "record-changed"
      | true => match decide (c.eta = etaOld) with
        | false => Except.error "old-version-not-current"
        | true => match unallocated c etaNew with
          | false => Except.error "new-version-allocated"
          | true => match derive c u with
            | none => Except.error "recheck-differs"
            | some d => match decide (safeSet (build d.inst) = safe), Nat.beq d.etaNew etaNew with
              | true, true => match safe with
                | [] => Except.error "recheck-differs"
                | _ :: _ => Except.ok d
              | _, _ => Except.error "recheck-differs"
  | _ => Except.error "not-an-accepted-answer"

/-- The atomic rule update (Table III, successful edit transition): close the old version, activate
`η⁺`, install the checked set with its automaton at `q_ε`, publish an entry for every current call. -/
def install (c : Core) (d : Derived) (safe : List Cand) : Core :=
  let lins := (build d.inst).outs.map Outcome.lins
  { c with ver := c.ver + 1, eta := some d.etaNew, closed := c.closed ++ etaList c.eta,
           rules := d.calls, names := d.names, tree := d.tree, base := List.length c.procd, safe := safe,
           lins := lins, act := d.inst.act, entries := curCalls lins [], inst := d.inst }

def tryUpdate (derive : Derivation) (S : RState) (u : Nat) (y : Answer) : Obs × RState :=
  match ready derive S.core u y with
  | Except.error why => (Obs.noCommit why, S)
  | Except.ok d =>
    let safe := safeSet (build d.inst)
    match findPrep d.etaNew S.prepared with
    | some p => match decide (p.edit = u ∧ p.cut = S.core ∧ p.etaOld = S.core.eta), decide (p.safe = safe) with
      | true, false => (Obs.noCommit "preload-differs", S)
      | _, _ => (Obs.updated d.etaNew, ⟨install S.core d safe, []⟩)
    | none => (Obs.updated d.etaNew, ⟨install S.core d safe, []⟩)

/-- Table III "Preload": the checked content in the inactive version `η⁺`; the record is unchanged. -/
def preload (derive : Derivation) (S : RState) (u : Nat) (y : Answer) : Obs × RState :=
  match ready derive S.core u y with
  | Except.error why => (Obs.noCommit why, S)
  | Except.ok d =>
    let p : Prep := ⟨u, S.core, S.core.eta, safeSet (build d.inst)⟩
    match findPrep d.etaNew S.prepared with
    | some q => match decide (q = p) with
      | true => (Obs.preloaded d.etaNew, S)
      | false => (Obs.preloaded d.etaNew, ⟨S.core, dropPrep d.etaNew S.prepared ++ [(d.etaNew, p)]⟩)
    | none => (Obs.preloaded d.etaNew, ⟨S.core, S.prepared ++ [(d.etaNew, p)]⟩)

/-- The resolved letter of call `x` at record `c`. -/
def letterOf (c : Core) (x : Nat) : Letter :=
  ⟨x, nth c.act x, !(memB (nth c.act x) (logActions c))⟩

/-- The state change of a tool call that passes (HStep, χ, `ver`, the log and queue, the entries). -/
def takeCall (c : Core) (x : Nat) (v : Nat) : Obs × Core :=
  let a := letterOf c x
  let z := raw (since c ++ [a])
  match a.new with
  | true =>
    let rid := List.length c.log + 1
    (Obs.new x a.action rid,
     { c with ver := c.ver + 1, procd := c.procd ++ [⟨a, v, rid⟩],
              log := c.log ++ [⟨a.action, x, false, none⟩], entries := curCalls c.lins z,
              tree := hstep c.tree x })
  | false =>
    let rid := match findAuth a.action 1 c.log with
      | some (n, _) => n
      | none => 0
    (Obs.reuse x a.action rid,
     { c with ver := c.ver + 1, procd := c.procd ++ [⟨a, v, rid⟩], entries := curCalls c.lins z,
              tree := hstep c.tree x })

/-- A tool call at the runtime (`Use_x(m)`): every premise of the atomic tool call, in the runtime's
order, then the state change; any failed premise is `deny(x)` with no state change. -/
def useR (c : Core) (x : Nat) (tok : Option Nat) (reqOk : Bool) : Obs × Core :=
  match c.eta with
  | none => (Obs.deny x "no-rules-in-force", c)
  | some eta =>
    match memB x c.rules with
    | false => (Obs.deny x "unknown-call", c)
    | true => match findProc x c.procd with
      | some _ => (Obs.deny x "already-processed", c)
      | none => match memB x c.entries with
        | false => (Obs.deny x "not-a-current-call", c)
        | true => match decide (tok = some eta) with
          | false => (Obs.deny x "bad-token", c)
          | true => match reqOk with
            | false => (Obs.deny x "request-differs", c)
            | true => match inW c.safe (since c ++ [letterOf c x]) with
              | false => (Obs.deny x "no-enabled-transition", c)
              | true => takeCall c x eta

/-- A tool call at the ideal machine: `x` current and unprocessed, the canonical request the
certified one, and `r·a ∈ L*`; no tokens. -/
def useI (c : Core) (x : Nat) (reqOk : Bool) : Obs × Core :=
  match c.eta with
  | none => (Obs.deny x "no-rules-in-force", c)
  | some eta =>
    match memB x c.rules && memB x c.entries, findProc x c.procd, reqOk,
          inW c.safe (since c ++ [letterOf c x]) with
    | true, none, true, true => takeCall c x eta
    | _, _, _, _ => (Obs.deny x "", c)

/-- Verified retry: the stored link and value; never a state change. -/
def retry (c : Core) (x : Nat) (tok : Option Nat) (reqOk : Bool) : Obs :=
  match findProc x c.procd with
  | none => Obs.deny x "not-processed"
  | some p => match decide (tok = some p.version) with
    | false => Obs.deny x "bad-token"
    | true => match reqOk with
      | false => Obs.deny x "request-differs"
      | true => match nthAuth c.log (p.record - 1) with
        | some a => Obs.returned x p.record a.value
        | none => Obs.returned x p.record none

def markSent : List Auth → Option (Nat × Auth) × List Auth
  | [] => (none, [])
  | a :: l => match a.sent with
    | false => (some (0, a), { a with sent := true } :: l)
    | true => match markSent l with
      | (some (n, b), l') => (some (n + 1, b), a :: l')
      | (none, l') => (none, a :: l')

/-- `Dispatch`: the oldest queued request is marked sent. -/
def dispatch (c : Core) : Obs × Core :=
  match markSent c.log with
  | (some (n, a), l) => (Obs.sent (n + 1) a.action, { c with log := l })
  | (none, _) => (Obs.queueEmpty, c)

def setValue (d v : Nat) : List Auth → List Auth
  | [] => []
  | a :: l => match Nat.beq a.action d with
    | true => { a with value := some v } :: l
    | false => a :: setValue d v l

/-- A completion update: a sent, unsettled record's return value is stored. -/
def settle (c : Core) (d v : Nat) : Obs × Core :=
  match findAuth d 1 c.log with
  | none => (Obs.settleRefused d "no-authorization-record", c)
  | some (n, a) => match a.sent, a.value with
    | false, _ => (Obs.settleRefused d "request-not-sent", c)
    | true, some _ => (Obs.settleRefused d "already-settled", c)
    | true, none => (Obs.settled n, { c with log := setValue d v c.log })

/-- `Checkpoint(k, b)`: rules in force, `k` fresh among the record's names, `b` a current branch of
the record's tree; the record stores the branch's copy (`saveLeaf`). -/
def checkpoint (c : Core) (k b : Nat) : Obs × Core :=
  match c.eta with
  | none => (Obs.ckRefused k "no-rules-in-force", c)
  | some _ => match memB k c.names || memB k c.ckpts with
    | true => (Obs.ckRefused k "checkpoint-id-not-fresh", c)
    | false => match currentB c.tree b with
      | false => (Obs.ckRefused k "not-a-current-branch", c)
      | true => match leafNamed c.tree b with
        | some l => (Obs.saved k, { c with ckpts := c.ckpts ++ [k], ver := c.ver + 1,
                                           saved := c.saved ++ [saveLeaf k b l] })
        | none => (Obs.ckRefused k "not-a-current-branch", c)

-- the registered extension (A-D2) -----------------------------------------------------------------

/-- The extension instance of the record `c` under the policy automaton `dfa` (`𝒜⁺`): `Θ/z`
(`Theta.after`) of the installed instance after the calls `z` processed since the rule update — the
outcomes still compatible with `z` (`compat`), each with its residual pomset `p_o/raw(z)`, the log
`Δ·auth(z)`, the same actions and labels. -/
def extInst (c : Core) (dfa : Dfa) : PInst :=
  ⟨List.map (fun o => ⟨o.id, o.pom.residual (raw (since c))⟩)
     (filt (fun o => memN o.id (compat (build c.inst) (since c))) c.inst.outs),
   c.inst.act, c.inst.lab, c.inst.log ++ auth (since c), dfa⟩

/-- What the extension installs: the extension instance, the registered calls and names kept, `η⁺`. -/
def extDerived (c : Core) (dfa : Dfa) (en : Nat) : Derived := ⟨extInst c dfa, c.rules, c.names, en, c.tree⟩

/-- `Extend(ξ)` with policy automaton `dfa` and new rule version `en`; `ok` is whether `ξ` verifies.
Refused (nothing committed) without rules in force, for an unverified `ξ`, or an allocated `η⁺`;
`Reject` when the extension instance's largest safe set is empty; else the rule update installing it. -/
def extendStep (c : Core) (dfa : Dfa) (en : Nat) (ok : Bool) : Obs × Option Core :=
  match c.eta with
  | none => (Obs.noCommit "no-rules-in-force", none)
  | some _ => match ok with
    | false => (Obs.noCommit "extension-not-verified", none)
    | true => match unallocated c en with
      | false => (Obs.noCommit "new-version-allocated", none)
      | true => match safeSet (build (extInst c dfa)) with
        | [] => (Obs.rejected, none)
        | s :: ss => (Obs.updated en, some (install c (extDerived c dfa en) (s :: ss)))

def pickCore (c : Core) : Option Core → Core
  | some c' => c'
  | none => c

/-- A committed record drops prepared content, as a rule update does. -/
def pickR (S : RState) : Option Core → RState
  | some c' => ⟨c', []⟩
  | none => S

/-- The record after `Extend(ξ)` on the ideal machine. -/
def extendCore (c : Core) (dfa : Dfa) (en : Nat) (ok : Bool) : Core := pickCore c (extendStep c dfa en ok).2

/-- The runtime state after `Extend(ξ)`. -/
def extendR (S : RState) (dfa : Dfa) (en : Nat) (ok : Bool) : RState := pickR S (extendStep S.core dfa en ok).2

-- the machines -------------------------------------------------------------------------------------

/-- The events of one policy domain. Tokens and requests are the Agent's inputs. -/
inductive Ev
  | check (u : Nat)
  | update (u : Nat) (y : Answer)
  | preload (u : Nat) (y : Answer)
  | use (x : Nat) (tok : Option Nat) (reqOk : Bool)
  | retry (x : Nat) (tok : Option Nat) (reqOk : Bool)
  | dispatch
  | settle (d v : Nat)
  | checkpoint (k b : Nat)
  | extend (dfa : Dfa) (en : Nat) (ok : Bool)

/-- One atomic runtime step: its observation and the state it commits (unchanged when it changes
nothing). A `check` commits nothing (its answer is what the Agent holds). -/
def stepR (derive : Derivation) (S : RState) : Ev → Obs × RState
  | Ev.check u => (answerObs (check derive S.core u), S)
  | Ev.update u y => tryUpdate derive S u y
  | Ev.preload u y => preload derive S u y
  | Ev.use x tok ok => let p := useR S.core x tok ok; (p.1, ⟨p.2, S.prepared⟩)
  | Ev.retry x tok ok => (retry S.core x tok ok, S)
  | Ev.dispatch => let p := dispatch S.core; (p.1, ⟨p.2, S.prepared⟩)
  | Ev.settle d v => let p := settle S.core d v; (p.1, ⟨p.2, S.prepared⟩)
  | Ev.checkpoint k b => let p := checkpoint S.core k b; (p.1, ⟨p.2, S.prepared⟩)
  | Ev.extend dfa en ok => ((extendStep S.core dfa en ok).1, extendR S dfa en ok)

/-- The ideal edit transition: one atomic step from the same record — `Invalid`, `Reject`, or the
edge that makes the derived target and its largest safe set current and resets `r`. -/
def editI (derive : Derivation) (c : Core) (u : Nat) : Obs × Core :=
  match derive c u with
  | none => (Obs.invalid, c)
  | some d => match safeSet (build d.inst) with
    | [] => (Obs.rejected, c)
    | s :: ss => (Obs.accepted, install c d (s :: ss))

/-- The ideal machine's events (Appendix A-H): an atomic edit, a tool call (no token), Dispatch, a
completion update, a Checkpoint, a registered extension. Retries change no state on either machine. -/
inductive IEv
  | edit (u : Nat)
  | use (x : Nat) (reqOk : Bool)
  | dispatch
  | settle (d v : Nat)
  | checkpoint (k b : Nat)
  | extend (dfa : Dfa) (en : Nat) (ok : Bool)

def stepI (der : Derivation) (c : Core) : IEv → Obs × Core
  | IEv.edit u => editI der c u
  | IEv.use x ok => useI c x ok
  | IEv.dispatch => dispatch c
  | IEv.settle d v => settle c d v
  | IEv.checkpoint k b => checkpoint c k b
  | IEv.extend dfa en ok => ((extendStep c dfa en ok).1, extendCore c dfa en ok)

/-- The empty record the checked root update starts from. -/
def empty : Core := ⟨0, none, [], [], [], [], [], [], 0, [], [], [], [], ⟨[], [], [], [], []⟩, [], []⟩

/-- The checked root update of the common initial state (Lemma 14): the root's derivation checked
and, when accepted, installed with version `η⁺`. -/
def start (d : Derived) : Option RState :=
  match safeSet (build d.inst) with
  | [] => none
  | s :: ss => some ⟨install empty d (s :: ss), []⟩

-- the durable store ---------------------------------------------------------------------------------

/-- The store: the committed state and the journal of committed events (Section VI-B; the SQLite
file of `model/edits/runtime/runtime.py`). A step is one transaction: it commits its new state and
journal row together, or — interrupted before the commit — nothing. -/
structure Store where
  init : RState
  committed : RState
  journal : List Ev

/-- `Recover(D, v, t̄)`: the committed events replayed from the initial state. -/
def replay (derive : Derivation) : RState → List Ev → RState
  | S, [] => S
  | S, e :: es => replay derive (stepR derive S e).2 es

/-- A transaction that runs to its commit. -/
def commit (derive : Derivation) (D : Store) (e : Ev) : Obs × Store :=
  let p := stepR derive D.committed e
  (p.1, { D with committed := p.2, journal := D.journal ++ [e] })

/-- A transaction interrupted before its commit: nothing is written. -/
def crash (D : Store) (_e : Ev) : Store := D

/-- Stop and restart: the process's memory is discarded and the last committed state exposed. -/
def restart (D : Store) : RState := D.committed

end AgentWarrant.Edits.Machine
