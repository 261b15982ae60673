import AgentWarrant.Spec.Edits.Judgment
import AgentWarrant.Spec.Edits.DerivedInput
import AgentWarrant.Spec.Edits.Residual
import AgentWarrant.Spec.Edits.Reach
/-! The check instances the edit judgment derives, and `Derive` as that judgment in the machine model
(*When Can Agents Safely Checkpoint, Fork, Restore, and Merge?*, Section V-A (the edit judgment and
Lemma 2), Appendix A-D2 (the registered extension's instance), Section VII and Appendix A-G (the
machine's `Derive`)), over the binary term model of `Spec/Edits/Term.lean`.

- `Judged θ`: `θ` is a check instance the Lean edit judgment derives — the instance of a record
  `EditJ T K u D` derives from a well-formed source (any actions, labels, log and policy), or A-D2's
  extension instance `θ.extendWith A'` over a judged `θ`, or over a judged `θ` after recorded
  progress `z` (`(θ.after z).extendWith A'`).
- `judge T K r`: the judgment as a function, for a request `CReq` that names what the Agent names
  (the choice ID and arm, the checkpoint, the continuation `E_J`, a fresh-identifier counter) and
  leaves the copy renamings to the judgment (`reqOf r`): on a well-formed source, `judge T K r = some D`
  iff `EditJ T K (reqOf r) D` (`judgeIff`, `Thm/Edits/DeriveCover.lean`).
- `derJ src tab`: a `Machine.Derivation` (the machine model's `Derive` parameter) that reads the
  source region and checkpoint store of the record (`src`), looks the edit up in a table of requests
  (`tab`, with the derived record's action map, labels, policy automaton, registered calls, names and
  `η⁺`), runs `judge`, and hands the checker the record's input (`inputOf`) with the record's own
  authorization log as `Δ`.
- `src0`, `tab0`: the source region `call 0` with two stored checkpoints, and the ten requests that
  give exactly the machine model's fixed derivation `der0` (`Spec/Edits/Reach.lean`).

Choices where the paper is silent or the model is smaller: the judgment allocates the fork copies'
names as `c ↦ 2c` and `c ↦ 2c + 1` (injective with disjoint images, so the fresh-identifier
premises hold for every region), and a checkpoint's copy as `c ↦ c + n` for the request's counter
`n` (RestoreLive needs every call of the kept branch below `n`: the copy is then fresh); a source
region or checkpoint whose calls repeat, or one with an undefined constructor, derives nothing
(`Invalid`); `Defined` is decided on the enumerated linearizations (`linsOf`, proved to be `Lin`).
The machine model carries no term, so which region and store a record has is the parameter `src`;
in `src0` it is the same for every record. -/
namespace AgentWarrant.Edits.DeriveCover
open AgentWarrant AgentWarrant.Edits

-- The instances the judgment derives ----------------------------------------------------------------

/-- The check instances the Lean edit judgment derives: a derived record's instance, and A-D2's
extension instance over one (as it is, or after recorded progress). -/
inductive Judged : Theta → Prop
  | edit {T : Tm} {K : Nat → Option Tm} {u : Req} {D : Derived} (hW : WellFormedSrc T K)
      (h : EditJ T K u D) (act lab log : List Nat) (A : List Nat → Prop) : Judged (D.theta act lab log A)
  | extend {θ : Theta} (h : Judged θ) (A' : List Nat → Prop) : Judged (θ.extendWith A')
  | extendAfter {θ : Theta} (h : Judged θ) (z : Word) (A' : List Nat → Prop) :
      Judged ((θ.after z).extendWith A')

/-- Every target outcome of the instance is a complete result (its pomset has a linearization). -/
def AllComplete (θ : Theta) : Prop := ∀ o, θ.O o → ∃ w, Lin (θ.pom o) w

-- The judgment as a function ------------------------------------------------------------------------

/-- An edit request as the Agent names it: the judgment allocates the copy renamings. -/
inductive CReq
  | forkChoice (g : Nat)
  | forkParallel
  | restoreReplace (k n : Nat)
  | restoreLive (k n : Nat)
  | mergeSelect (g : Nat) (w : Bool) (EJ : Tm)
  | mergeJoin (EJ : Tm)
  | extend

/-- The fork copies' renamings, `c ↦ 2c` and `c ↦ 2c + 1`. -/
def dblL (c : Nat) : Nat := c + c
def dblR (c : Nat) : Nat := c + c + 1

/-- A checkpoint copy's renaming from the counter `n`, `c ↦ c + n`. -/
def shift (n c : Nat) : Nat := c + n

/-- The request with the renamings the judgment allocates. -/
def reqOf : CReq → Req
  | CReq.forkChoice g => Req.forkChoice g dblL dblR
  | CReq.forkParallel => Req.forkParallel dblL dblR
  | CReq.restoreReplace k n => Req.restoreReplace k (shift n)
  | CReq.restoreLive k n => Req.restoreLive k (shift n)
  | CReq.mergeSelect g w EJ => Req.mergeSelect g w EJ
  | CReq.mergeJoin EJ => Req.mergeJoin EJ
  | CReq.extend => Req.extend

/-- `Defined T`, decided on the enumerated linearizations: no complete sequence of one result
properly prefixes a complete sequence of another. -/
def definedB (T : Tm) : Bool :=
  !prefixViolation (List.map (fun o => (⟨0, linsOf o.pom⟩ : Outcome)) T.outs)

/-- A well-formed term, decided: unique calls and every constructor defined (unique calls make every
result complete). -/
def wfB (T : Tm) : Bool := !hasDup T.calls && definedB T

/-- Every call of `E` is fresh for the calls `S`. -/
def freshB (E : Tm) (S : List Nat) : Bool := allB (fun x => !memN x S) E.calls

/-- Every call of `T` is below the counter `n`. -/
def belowB (T : Tm) (n : Nat) : Bool := allB (fun x => decide (x < n)) T.calls

/-- The judgment's premises for a continuation `E_J` after the sources `TL`, `TR`. -/
def contOk (TL TR EJ : Tm) : Bool := !hasDup EJ.calls && freshB EJ (TL.calls ++ TR.calls) && definedB EJ

/-- The edit judgment as a function: the derived record, or `none` (`Invalid`). -/
def judge (T : Tm) (K : Nat → Option Tm) : CReq → Option Derived
  | CReq.forkChoice g => match wfB T with
    | true => some (forkChoice g dblL dblR T)
    | false => none
  | CReq.forkParallel => match wfB T with
    | true => some (forkParallel dblL dblR T)
    | false => none
  | CReq.restoreReplace k n => match wfB T, K k with
    | true, some Ck => match wfB Ck with
      | true => some (restoreReplace (shift n) T Ck)
      | false => none
    | _, _ => none
  | CReq.restoreLive k n => match wfB T, K k with
    | true, some Ck => match wfB Ck && belowB T n with
      | true => some (restoreLive (shift n) T Ck)
      | false => none
    | _, _ => none
  | CReq.mergeSelect g w EJ => match T with
    | Tm.choice g' TL TR => match Nat.beq g' g && wfB (Tm.choice g' TL TR) && contOk TL TR EJ with
      | true => some (mergeSelect w TL TR EJ)
      | false => none
    | _ => none
  | CReq.mergeJoin EJ => match T with
    | Tm.par TL TR => match wfB (Tm.par TL TR) && contOk TL TR EJ with
      | true => some (mergeJoin TL TR EJ)
      | false => none
    | _ => none
  | CReq.extend => match wfB T with
    | true => some (extendRow T)
    | false => none

/-- The checkpoint store restricted to what the request reads. -/
def storeFor (K : Nat → Option Tm) : CReq → Nat → Option Tm
  | CReq.restoreReplace k _ => fun j => match Nat.beq j k with
    | true => K k
    | false => none
  | CReq.restoreLive k _ => fun j => match Nat.beq j k with
    | true => K k
    | false => none
  | _ => fun _ => none

-- `Derive` in the machine model ------------------------------------------------------------------

/-- What the table gives for one edit: the request, and the derived record's action map, labels,
policy automaton, registered calls, names and new rule version. -/
structure Entry where
  req : CReq
  act : List Nat
  lab : List Nat
  dfa : Dfa
  calls : List Nat
  names : List Nat
  etaNew : Nat

/-- `Derive` as the edit judgment: the record's source region and store (`src`), the edit's request
(`tab`), the judgment, and the derived record's checker input with the record's log as `Δ`. -/
def derJ (src : Machine.Core → Tm × (Nat → Option Tm)) (tab : Nat → Option Entry) : Machine.Derivation :=
  fun c u => match tab u with
    | none => none
    | some e => match judge (src c).1 (src c).2 e.req with
      | none => none
      | some D => some ⟨inputOf D e.act e.lab (Machine.logActions c) e.dfa, e.calls, e.names, e.etaNew, []⟩

/-- The checkpoint store of `src0`: checkpoint 0 holds `x` (call 0), checkpoint 1 holds
`(x ∥ x₂) ⊕₀ y` (calls 0, 2, 1). -/
def store0 : Nat → Option Tm
  | 0 => some (Tm.call 0)
  | 1 => some (Tm.choice 0 (Tm.par (Tm.call 0) (Tm.call 2)) (Tm.call 1))
  | _ => none

/-- Every record's source region is the root contract `x` (call 0), with `store0`. -/
def src0 (_ : Machine.Core) : Tm × (Nat → Option Tm) := (Tm.call 0, store0)

def entry0 (r : CReq) (act lab : List Nat) : Entry := ⟨r, act, lab, Reach.dfaA, [0, 1, 2], [], 1⟩

/-- The requests of `der0`'s ten edits: 0 ForkChoice (`x ⊕ x'`), 1 ForkParallel (`x ∥ x'`), 2/3
RestoreReplace from checkpoint 1, 4–7 RestoreReplace from checkpoint 0 with counter 2 (the clone
`x_k`, call 2), 8/9 Extend; the action maps and labels are `der0`'s. -/
def tab0 : Nat → Option Entry
  | 0 => some (entry0 (CReq.forkChoice 0) [0, 1] [0, 0])
  | 1 => some (entry0 CReq.forkParallel [0, 1] [0, 0])
  | 2 => some (entry0 (CReq.restoreReplace 1 0) [0, 0, 0] [0, 0])
  | 3 => some (entry0 (CReq.restoreReplace 1 0) [0, 1, 1] [0, 0])
  | 4 => some (entry0 (CReq.restoreReplace 0 2) [0, 0, 0] [0])
  | 5 => some (entry0 (CReq.restoreReplace 0 2) [0, 1, 1] [0, 0])
  | 6 => some (entry0 (CReq.restoreReplace 0 2) [0, 0, 0] [0, 0])
  | 7 => some (entry0 (CReq.restoreReplace 0 2) [1, 0, 0] [0, 0])
  | 8 => some (entry0 CReq.extend [0, 0, 0] [0, 0])
  | 9 => some (entry0 CReq.extend [1, 0, 0] [0, 0])
  | _ => none

end AgentWarrant.Edits.DeriveCover
