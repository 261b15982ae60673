import AgentWarrant.Spec.Edits.DeriveRT
/-! The two Fork rows of Table I with the edit rule's continuation steps (*When Can Agents Safely
Checkpoint, Fork, Restore, and Merge?*, Section V-A, Table I: `L_σ = clone_L(𝒞) ▷ E_σ^L`,
`R_σ = clone_R(𝒞) ▷ E_σ^R`), over the binary term model of `Spec/Edits/Term.lean`; the rows of
`Spec/Edits/Derive.lean` are the case `E_σ^L = E_σ^R = nil`.

    ForkChoice    C  ↦ (clone_L(C) ; E_L) ⊕_g (clone_R(C) ; E_R)
    ForkParallel  C  ↦ (clone_L(C) ; E_L) ∥ (clone_R(C) ; E_R)

A target result covers a required result of the copy it extends: in ForkChoice the arm of its copy,
the renamed pomset followed by a result of that arm's continuation; in ForkParallel the pair of the
two extended copies, one of them the required result's.

`judgeK T q`: the judgment for these two rows, with the copy renamings `c ↦ 2c`, `c ↦ 2c + 1` of
`judge`, and the continuations (instantiated with fresh call IDs) given by the request, as `E_J` is
for the Merge rows. Choice where the paper is silent: the fresh-identifier and partial-constructor
premises are decided on the target — its calls unique (the continuation steps fresh for the copies
and for each other) and every constructor defined (`wfB`) — and the source region must be well
formed. -/
namespace AgentWarrant.Edits.DeriveFork
open AgentWarrant AgentWarrant.Edits AgentWarrant.Edits.DeriveCover AgentWarrant.Edits.DeriveRT

/-- ForkChoice with continuation steps `EL`, `ER`. -/
def forkChoiceK (g : Nat) (fL fR : Nat → Nat) (EL ER C : Tm) : Derived :=
  { target := Tm.choice g (Tm.seq (C.clone fL) EL) (Tm.seq (C.clone fR) ER),
    required := twoRegions C C,
    removed := fun _ => false,
    rel := fun x r => ∃ e, e ∈ (onSide r.1 EL ER).outs ∧
      x = tagOut g r.1 (joinOut true (renameOut (onSide r.1 fL fR) r.2) e) }

/-- ForkParallel with continuation steps `EL`, `ER`. -/
def forkParallelK (fL fR : Nat → Nat) (EL ER C : Tm) : Derived :=
  { target := Tm.par (Tm.seq (C.clone fL) EL) (Tm.seq (C.clone fR) ER),
    required := twoRegions C C,
    removed := fun _ => false,
    rel := fun x r => match r with
      | (false, o) => ∃ o' e e', o' ∈ C.outs ∧ e ∈ EL.outs ∧ e' ∈ ER.outs ∧
          x = joinOut false (joinOut true (renameOut fL o) e) (joinOut true (renameOut fR o') e')
      | (true, o) => ∃ o' e e', o' ∈ C.outs ∧ e ∈ EL.outs ∧ e' ∈ ER.outs ∧
          x = joinOut false (joinOut true (renameOut fL o') e) (joinOut true (renameOut fR o) e') }

/-- A Fork request with its continuation steps. -/
inductive KReq
  | forkChoice (g : Nat) (EL ER : Tm)
  | forkParallel (EL ER : Tm)

/-- The record of a request on region `T`, with the judgment's copy renamings. -/
def recordK (T : Tm) : KReq → Derived
  | KReq.forkChoice g EL ER => forkChoiceK g dblL dblR EL ER T
  | KReq.forkParallel EL ER => forkParallelK dblL dblR EL ER T

/-- The judgment for the Fork rows with continuation steps: the record, or `none` (`Invalid`). -/
def judgeK (T : Tm) (q : KReq) : Option Derived :=
  match wfB T && wfB (recordK T q).target with
  | true => some (recordK T q)
  | false => none

/-- The coverage relation of `recordK T q`, decided. -/
def relBK (T : Tm) : KReq → TOut → Bool × TOut → Bool
  | KReq.forkChoice g EL ER, x, r =>
      anyB (fun e => toutB x (tagOut g r.1 (joinOut true (renameOut (onSide r.1 dblL dblR) r.2) e)))
        (onSide r.1 EL ER).outs
  | KReq.forkParallel EL ER, x, (false, o) =>
      anyB (fun o' => anyB (fun e => anyB (fun e' =>
        toutB x (joinOut false (joinOut true (renameOut dblL o) e) (joinOut true (renameOut dblR o') e')))
        ER.outs) EL.outs) T.outs
  | KReq.forkParallel EL ER, x, (true, o) =>
      anyB (fun o' => anyB (fun e => anyB (fun e' =>
        toutB x (joinOut false (joinOut true (renameOut dblL o') e) (joinOut true (renameOut dblR o) e')))
        ER.outs) EL.outs) T.outs

-- Continuation templates instantiated by the judgment ------------------------------------------------

/-- A number above every call of `l`: the sum of `c + 1` over its calls (`0` for none). -/
def bound : List Nat → Nat
  | [] => 0
  | c :: l => (c + 1) + bound l

/-- The fresh call of template call `t` on side `L` (`R`) after a region whose calls are below `n`:
`2(n + t)` (`2(n + t) + 1`), apart from both copies' numbers `2c`, `2c + 1` (`c < n`) and by side. -/
def instL (n t : Nat) : Nat := dblL (n + t)
def instR (n t : Nat) : Nat := dblR (n + t)

/-- A Fork request with the rule's continuation templates `E_σ^L`, `E_σ^R` (calls numbered in the
templates' own numbering), instantiated by the judgment. -/
inductive TReq
  | forkChoice (g : Nat) (TL TR : Tm)
  | forkParallel (TL TR : Tm)

/-- The request with the templates instantiated with fresh calls for region `T` (`Tm.clone`). -/
def instK (T : Tm) : TReq → KReq
  | TReq.forkChoice g TL TR => KReq.forkChoice g (TL.clone (instL (bound T.calls))) (TR.clone (instR (bound T.calls)))
  | TReq.forkParallel TL TR => KReq.forkParallel (TL.clone (instL (bound T.calls))) (TR.clone (instR (bound T.calls)))

/-- The judgment on a Fork request with templates: `judgeK` on the instantiated request. -/
def judgeKT (T : Tm) (q : TReq) : Option Derived := judgeK T (instK T q)

-- `Derive` with the Fork rows' continuation steps in the machine model ----------------------------------

/-- An edit request of either judgment: one of `judge`'s (`CReq`), or a Fork request with its
continuation steps (`KReq`) or with the rule's templates, instantiated by the judgment (`TReq`). -/
inductive AReq
  | base (r : CReq)
  | fork (q : KReq)
  | forkT (q : TReq)

/-- The edit judgment with the Fork rows' continuation steps: `judge` on its requests, `judgeK` on the
Fork requests with steps (given, or templates instantiated by `instK`). -/
def judgeA (T : Tm) (K : Nat → Option Tm) : AReq → Option Derived
  | AReq.base r => judge T K r
  | AReq.fork q => judgeK T q
  | AReq.forkT q => judgeKT T q

/-- What the table gives for one edit, as `Entry`, with a request of either judgment. -/
structure EntryA where
  req : AReq
  act : List Nat
  lab : List Nat
  dfa : Dfa
  calls : List Nat
  names : List Nat
  etaNew : Nat

/-- `Derive` as the edit judgment with continuation steps (`derJ` with `judgeA`). -/
def derJK (src : Machine.Core → Tm × (Nat → Option Tm)) (tab : Nat → Option EntryA) : Machine.Derivation :=
  fun c u => match tab u with
    | none => none
    | some e => match judgeA (src c).1 (src c).2 e.req with
      | none => none
      | some D => some ⟨inputOf D e.act e.lab (Machine.logActions c) e.dfa, e.calls, e.names, e.etaNew, []⟩

/-- A table of `judge`'s requests as one of `judgeA`'s. -/
def liftEntry (e : Entry) : EntryA := ⟨AReq.base e.req, e.act, e.lab, e.dfa, e.calls, e.names, e.etaNew⟩

def liftTab (tab : Nat → Option Entry) : Nat → Option EntryA := fun u => match tab u with
  | none => none
  | some e => some (liftEntry e)

/-- The check instances the edit judgment with continuation steps derives: `Judged`'s, the instance of
a record `judgeK` derives (any actions, labels, log and policy), and A-D2's extension instance over
one (as it is, or after recorded progress). -/
inductive JudgedK : Theta → Prop
  | base {θ : Theta} (h : Judged θ) : JudgedK θ
  | fork {T : Tm} {q : KReq} {D : Derived} (h : judgeK T q = some D) (act lab log : List Nat)
      (A : List Nat → Prop) : JudgedK (D.theta act lab log A)
  | extend {θ : Theta} (h : JudgedK θ) (A' : List Nat → Prop) : JudgedK (θ.extendWith A')
  | extendAfter {θ : Theta} (h : JudgedK θ) (z : Word) (A' : List Nat → Prop) :
      JudgedK ((θ.after z).extendWith A')


end AgentWarrant.Edits.DeriveFork
