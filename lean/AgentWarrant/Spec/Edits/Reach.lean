import AgentWarrant.Spec.Edits.Machine
import AgentWarrant.Spec.Edits.Rename
/-! The records the runtime reaches (*When Can Agents Safely Checkpoint, Fork, Restore, and Merge?*,
Section VII "What the checker must know", Appendices A-F and A-G: Lemma 14's common initial state and
the reachability of Table II's record pairs; Theorem 4 over reachable states).

`Reachable der root S`: the runtime state `S` of `Spec/Edits/Machine.lean` is reached from the
common initial state — the accepted root update `start root` — by a finite sequence of runtime events
(`stepR`: checks, rule updates, Preloads, tool calls, retries, Dispatch, completion updates,
Checkpoints). A crash commits nothing and a restart exposes the committed state
(`restartRecovers`), so they reach no other state.

`recordOf S d` is the four-part record (`Spec/Edits/Information.lean`) of the state `S` checked with
the derivation `d` that `Derive` gives for an edit there:
- **P** the derived target outcomes, each with its computed linearizations (`build`);
- **I** the derived instance's call → action map and labels;
- **E** the state's authorization log (each record's creator call and action), the finite policy the
  checker reads (`policyWords`), and the actions of the records whose request is queued (not sent);
- **C** the active rule version (`0` when none is active, which no reachable state has).
`ReachRec der root V`: `V` is the record of a reachable state and an edit `der` defines there.
`ReachQ`: the requests an Agent can present there — `Decide`, or `TryUpdate Y` for a checked answer
`Y = check V'` of a reachable record `V'`. `ExactROn R Q` is `ExactR` (`Spec/Edits/Rename.lean`) with
both records in `R` and both requests in `Q`.

`Derive` is a parameter of the machine model, so the reachable records depend on it. `der0` is one
derivation, a fixed table from edits to derived targets (pomset outcomes, call → action map,
labels, the policy `↓{a}` as an automaton), each carrying the state's own authorization log as `Δ`;
`root0` is a root contract with one call on action `0` and three registered calls. Under `der0` and
`root0` the record pairs of Table II are records of reachable states (`Thm/Edits/Reach.lean`). -/
namespace AgentWarrant.Edits.Reach
open AgentWarrant AgentWarrant.Edits

/-- The runtime states reached from the common initial state. -/
inductive Reachable (der : Machine.Derivation) (root : Machine.Derived) : Machine.RState → Prop
  | start {S : Machine.RState} : Machine.start root = some S → Reachable der root S
  | step {S : Machine.RState} (e : Machine.Ev) : Reachable der root S → Reachable der root (Machine.stepR der S e).2

def authRecOf (a : Machine.Auth) : AuthRec := ⟨a.call, a.action⟩

/-- The actions whose canonical request is queued and not yet sent. -/
def queuedOf : List Machine.Auth → List Nat
  | [] => []
  | a :: l => match a.sent with
    | true => queuedOf l
    | false => a.action :: queuedOf l

def versionOf : Option Nat → Nat
  | none => 0
  | some v => v

/-- The four-part record of state `S` checked with the derivation `d`. -/
def recordOf (S : Machine.RState) (d : Machine.Derived) : Record :=
  ⟨⟨(build d.inst).outs⟩, ⟨(build d.inst).act, (build d.inst).lab⟩,
   ⟨List.map authRecOf S.core.log, (build d.inst).policy, queuedOf S.core.log⟩, ⟨versionOf S.core.eta⟩⟩

/-- The records of reachable states. -/
def ReachRec (der : Machine.Derivation) (root : Machine.Derived) (V : Record) : Prop :=
  ∃ S u d, Reachable der root S ∧ der S.core u = some d ∧ V = recordOf S d

/-- The requests an Agent can present at a reachable record. -/
def ReachQ (der : Machine.Derivation) (root : Machine.Derived) : Query → Prop
  | Query.decide => True
  | Query.tryUpdate y => ∃ V, ReachRec der root V ∧ y = check V

/-- `Exact(f)` up to renaming, over the records in `R` and the requests in `Q`. -/
def ExactROn (R : Record → Prop) (Q : Query → Prop) (ren : Ren → β → β) (fits : Ren → β → Prop)
    (f : Record → β) : Prop :=
  ∀ V₀ V₁ q₀ q₁ π, R V₀ → R V₁ → Q q₀ → Q q₁ → fits π (f V₁) → FitsQ π q₁ → f V₀ = ren π (f V₁) →
    q₀ = renQuery π q₁ → ∃ π', ans V₀ q₀ = renAnswer π' (ans V₁ q₁)

-- one derivation and one root ----------------------------------------------------------------------

/-- `↓{a}` with `a = 0`: accepts `ε` and `a`. -/
def dfaA : Dfa := [(0, 0, 1)]

/-- Outcomes `n, n+1, …`, each the pomset of the given events with no order pairs. -/
def poms : Nat → List (List Nat) → List POutcome
  | _, [] => []
  | n, es :: l => ⟨n, ⟨es, []⟩⟩ :: poms (n + 1) l

/-- A derivation with log `Δ`: the target outcomes, the call → action map and labels; the derived
registered calls are `0, 1, 2` and `η⁺ = 1`. -/
def mkDerived (outs : List (List Nat)) (act lab : List Nat) (Δ : List Nat) : Machine.Derived :=
  ⟨⟨poms 0 outs, act, lab, Δ, dfaA⟩, [0, 1, 2], [], 1, []⟩

/-- The edits `der0` defines: 0/1 the P pair (`X ⊕ Y` / `X ∥ Y`), 2/3 the I pair, 4 the E and C
pairs' target (the clone `x_k`, call 2, of `x`), 5 the `Decide` pair for E, 6/7 the `Drop_ra` pair,
8/9 re-installations of the root contract (with `q_act(0) = 0` / `1`) under version 1. -/
def table : Nat → Option (List (List Nat) × List Nat × List Nat)
  | 0 => some ([[0], [1]], [0, 1], [0, 0])
  | 1 => some ([[0, 1]], [0, 1], [0, 0])
  | 2 => some ([[0, 2], [1]], [0, 0, 0], [0, 0])
  | 3 => some ([[0, 2], [1]], [0, 1, 1], [0, 0])
  | 4 => some ([[2]], [0, 0, 0], [0])
  | 5 => some ([[2]], [0, 1, 1], [0, 0])
  | 6 => some ([[2]], [0, 0, 0], [0, 0])
  | 7 => some ([[2]], [1, 0, 0], [0, 0])
  | 8 => some ([[0]], [0, 0, 0], [0, 0])
  | 9 => some ([[0]], [1, 0, 0], [0, 0])
  | _ => none

/-- `Derive` as the table, with the record's own log as `Δ`. -/
def der0 : Machine.Derivation := fun c u => match table u with
  | some (o, a, l) => some (mkDerived o a l (Machine.logActions c))
  | none => none

/-- The root contract: one outcome, call 0 on action 0 labelled `a`; calls 0, 1, 2 registered;
installed as version 0. -/
def root0 : Machine.Derived := ⟨⟨poms 0 [[0]], [0, 0, 0], [0], [], dfaA⟩, [0, 1, 2], [], 0, []⟩

end AgentWarrant.Edits.Reach
