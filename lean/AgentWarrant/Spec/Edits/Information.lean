import AgentWarrant.Spec.Edits.Check
/-! What the checker must know (*When Can Agents Safely Checkpoint, Fork, Restore, and Merge?*,
Section VII "What the checker must know", Appendix A-F; Theorem 4).

A checked record `V = Sec(S; c, r)` has four parts:
- **P** the workflow and its required results: the target outcomes with their linearizations;
- **I** which calls refer to the same action: `q_act` (call → action) and `ℓ` (action → label);
- **E** earlier authorizations and progress: the authorization records (each with the call that
  created it and the action it names; the checker's `Δ` is the list of their actions), the current
  policy state `𝒜`, and the actions whose canonical request is queued and not yet sent;
- **C** the active rule version.

Two requests are answered: `Decide` returns the finite checker's answer (`safeSet`, the largest
safe execution set, or a rejection); `TryUpdate Y` puts the rules of a checked answer `Y` into
effect exactly when `Ready(V, Y)`: `Y` is nonempty and the final check at `V` reproduces it, cut
included. The cut of a checked answer is the record it was checked at (the paper's digest of the
checked record together with the active version `η`), so any change to the record since the
check — a request sent, a new rule version — makes the update return `NoCommit`.

`Keep_J` keeps exactly the parts in `J`. `Exact f` holds when two records with equal views get the
same answer to every request. `Drop_ca` removes only the call → action correspondence (it keeps each
call's label); `Drop_ra` removes only which action each authorization record names, together with
the action of each record's creator call, which would reconstruct it (it keeps each record's label,
so the authorization sequence stays visible).

Choices where the paper is silent: `Derive` is not modelled, so a record carries its derived
check instance directly (the target outcomes are P); `Exact` compares views and answers by
equality, while the paper's exactness is modulo a consistent renaming of internal identifiers:
that comparison is `ExactR` (`Spec/Edits/Rename.lean`), for which the same four parts are necessary
and sufficient (the pairs' opposite answers differ in kind, accept against reject, update against
`NoCommit`, so no renaming identifies them). -/
namespace AgentWarrant.Edits
open AgentWarrant

deriving instance DecidableEq for Outcome

/-- An authorization record: the workflow call that created it and the tool action it names. -/
structure AuthRec where
  creator : Nat
  action : Nat
  deriving DecidableEq

/-- **P**: the workflow and its required results. -/
structure PartP where
  outs : List Outcome
  deriving DecidableEq

/-- **I**: which calls refer to the same action, and each action's authorization label. -/
structure PartI where
  act : List Nat
  lab : List Nat
  deriving DecidableEq

/-- **E**: authorization records, the current policy state, queued requests not yet sent. -/
structure PartE where
  auths : List AuthRec
  policy : List (List Nat)
  queued : List Nat
  deriving DecidableEq

/-- **C**: the active rule version. -/
structure PartC where
  version : Nat
  deriving DecidableEq

structure Record where
  p : PartP
  i : PartI
  e : PartE
  c : PartC
  deriving DecidableEq

/-- The check instance the record presents (`Θ_V(u)`). -/
def Record.inst (V : Record) : Inst :=
  ⟨V.p.outs, V.i.act, V.i.lab, List.map AuthRec.action V.e.auths, V.e.policy⟩

/-- A checked answer: the safe set found and the cut it was checked at. -/
structure Checked where
  set : List Cand
  cut : Record
  deriving DecidableEq

def check (V : Record) : Checked := ⟨safeSet V.inst, V⟩

inductive Query where
  | decide
  | tryUpdate (y : Checked)

inductive Answer where
  | accepted (B : List Cand)
  | rejected
  | updated (B : List Cand)
  | noCommit
  deriving DecidableEq

def decideAnswer : List Cand → Answer
  | [] => Answer.rejected
  | c :: B => Answer.accepted (c :: B)

def updateAnswer (y : Checked) : Bool → Answer
  | true => match y.set with
    | [] => Answer.noCommit
    | c :: B => Answer.updated (c :: B)
  | false => Answer.noCommit

/-- `Ans(V, q)`. -/
def ans (V : Record) : Query → Answer
  | Query.decide => decideAnswer (safeSet V.inst)
  | Query.tryUpdate y => updateAnswer y (decide (y = check V))

/-- `Exact(f)`: records `f` cannot tell apart get the same answer to every request. -/
def Exact (f : Record → β) : Prop := ∀ V₀ V₁, f V₀ = f V₁ → ∀ q, ans V₀ q = ans V₁ q

inductive Part where
  | P | I | E | C
  deriving DecidableEq

def keepOpt (b : Bool) (x : α) : Option α := match b with
  | true => some x
  | false => none

structure View where
  p : Option PartP
  i : Option PartI
  e : Option PartE
  c : Option PartC
  deriving DecidableEq

/-- `Keep_J`: exactly the parts named by `J`. -/
def keepJ (J : Part → Bool) (V : Record) : View :=
  ⟨keepOpt (J Part.P) V.p, keepOpt (J Part.I) V.i, keepOpt (J Part.E) V.e, keepOpt (J Part.C) V.c⟩

/-- `Drop_ca`: every part, except that calls carry their label instead of their action. -/
def dropCA (V : Record) : PartP × List Nat × List Nat × PartE × PartC :=
  (V.p, labels V.i.lab V.i.act, V.i.lab, V.e, V.c)

def isCreator (auths : List AuthRec) (x : Nat) : Bool := anyB (fun r => Nat.beq r.creator x) auths

/-- `q_act` with the entries of creator calls erased (`n` is the index of the first entry). -/
def maskAct (auths : List AuthRec) : Nat → List Nat → List (Option Nat)
  | _, [] => []
  | n, d :: ds => keepOpt (!isCreator auths n) d :: maskAct auths (n + 1) ds

/-- `Drop_ra`: every part, except which action each authorization record names (and the creator
calls' actions that would reconstruct it); each record keeps its creator and its label. -/
def dropRA (V : Record) : PartP × List (Option Nat) × List Nat × List (Nat × Nat) × List (List Nat) × List Nat × PartC :=
  (V.p, maskAct V.e.auths 0 V.i.act, V.i.lab, List.map (fun r => (r.creator, nth V.i.lab r.action)) V.e.auths,
    V.e.policy, V.e.queued, V.c)

end AgentWarrant.Edits
