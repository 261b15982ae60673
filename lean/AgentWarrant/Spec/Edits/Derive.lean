import AgentWarrant.Spec.Edits.Term
/-! The edit judgment's derived records on contract terms (*When Can Agents Safely Checkpoint, Fork,
Restore, and Merge?*, Section V-A, Table I, Section V-A2; Appendix A-D1 for the six edit rules and
A-D2 for `Extend`), for the binary term model of `Spec/Edits/Term.lean`.

Each of the six forms of `Edit₆` and `Extend` maps its source regions to a `Derived` record: the
target region `T'`, the required source results (each tagged with its region), which regions are
authorized removals, and the relation `Covers_u(t, a)` between a target result and a source result.
`Derived.theta` turns a record into the checker's instance `Θ` (target outcomes numbered by position
in `⟦T'⟧`, required results numbered by position in the list).

    ForkChoice      C            ↦ clone_L(C) ⊕_g clone_R(C)   Copy_L(C), Copy_R(C)
    ForkParallel    C            ↦ clone_L(C) ∥ clone_R(C)     Copy_L(C), Copy_R(C)
    RestoreReplace  C, C_k       ↦ clone_k(C_k)                Copy_k(C_k); C removed
    RestoreLive     C, C_k       ↦ C ∥ clone_k(C_k)            Keep(C), Copy_k(C_k)
    MergeSelect     T_L ⊕_g T_R  ↦ T_w ; E_J                   Keep(T_w); the other arm removed
    MergeJoin       T_L ∥_g T_R  ↦ (T_L ∥ T_R) ; E_J           Keep(T_L), Keep(T_R)
    Extend          T            ↦ T                           Covers(t, (ctx, o)) ⟺ t = o

Choices where the paper is silent or the model is smaller: the surrounding context `𝓔[·]`, families,
`▷ E_σ` and branch IDs are not modelled, so a record is the edited region only; `carry` is the
identity (a kept region is the source region itself); `join(carry T_L, carry T_R); b_J:E_J` is the
parallel pair followed in sequence by the edit rule's continuation term `E_J` (the barrier orders
every event of both arms before `E_J`); the edit rule's continuation terms of the Fork and Restore
rows are `nil` and omitted; no source result is already satisfied (the term model carries no
progress), and the removed region of RestoreReplace (the current branch) and of MergeSelect (the
unselected arm) counts as an authorized removal. The fresh-identifier checks are the conditions of
`ValidDerives` (stated on the renamings and continuation terms), not computed here. -/
namespace AgentWarrant.Edits
open AgentWarrant

/-- The `n`-th entry of a list. -/
def pick : List α → Nat → Option α
  | [], _ => none
  | a :: _, 0 => some a
  | _ :: l, n + 1 => pick l n

/-- One of two alternatives by a region tag (`false`: the first region, `true`: the second). -/
def onSide (b : Bool) (l r : α) : α := match b with
  | false => l
  | true => r

/-- A derived record over contract terms. -/
structure Derived where
  target : Tm
  required : List (Bool × TOut)
  removed : Bool → Bool
  rel : TOut → Bool × TOut → Prop

/-- The results of one source region, tagged with the region. -/
def tagReq (side : Bool) (A : List TOut) : List (Bool × TOut) := List.map (fun o => (side, o)) A

/-- The required results of two source regions. -/
def twoRegions (C1 C2 : Tm) : List (Bool × TOut) := tagReq false C1.outs ++ tagReq true C2.outs

namespace Derived

/-- The check instance `Θ` of a derived record, over any actions, labels, log and policy. -/
def theta (D : Derived) (act lab log : List Nat) (A : List Nat → Prop) : Theta :=
  { O := fun t => ∃ x, pick D.target.outs t = some x,
    pom := fun t => match pick D.target.outs t with
      | some x => x.pom
      | none => ⟨[], []⟩,
    act := act, lab := lab, log := log, A := A,
    requiredBefore := fun a => ∃ r, pick D.required a = some r,
    satisfied := fun _ => False,
    authorizedRemoval := fun a => ∃ r, pick D.required a = some r ∧ D.removed r.1 = true,
    covers := fun t a => ∃ x r, pick D.target.outs t = some x ∧ pick D.required a = some r ∧ D.rel x r }

end Derived

/-- `ForkChoice(b, σ)` on region `C` with copy renamings `fL`, `fR`: the target result took the arm of
the required result's copy and carries its pomset renamed. -/
def forkChoice (g : Nat) (fL fR : Nat → Nat) (C : Tm) : Derived :=
  { target := Tm.choice g (C.clone fL) (C.clone fR),
    required := twoRegions C C,
    removed := fun _ => false,
    rel := fun x r => x.sel = (g, r.1) :: r.2.sel ∧ x.pom = renamePom (onSide r.1 fL fR) r.2.pom }

/-- `ForkParallel(b, σ)`: the target result joins the required result renamed into its copy with some
result of the other copy. -/
def forkParallel (fL fR : Nat → Nat) (C : Tm) : Derived :=
  { target := Tm.par (C.clone fL) (C.clone fR),
    required := twoRegions C C,
    removed := fun _ => false,
    rel := fun x r => match r with
      | (false, o) => ∃ o', o' ∈ C.outs ∧ x = joinOut false (renameOut fL o) (renameOut fR o')
      | (true, o) => ∃ o', o' ∈ C.outs ∧ x = joinOut false (renameOut fL o') (renameOut fR o) }

/-- `RestoreReplace(b, k, σ)`: the current branch `C` is replaced by the checkpoint's copy
`clone_k(C_k)`; `C`'s results are authorized removals, and each of `C_k`'s is covered by its copy. -/
def restoreReplace (fk : Nat → Nat) (C Ck : Tm) : Derived :=
  { target := Ck.clone fk,
    required := twoRegions C Ck,
    removed := fun b => match b with
      | false => true
      | true => false,
    rel := fun x r => r.1 = true ∧ x = renameOut fk r.2 }

/-- `RestoreLive(b, k, σ)`: the current branch `C` is kept beside the checkpoint's copy. -/
def restoreLive (fk : Nat → Nat) (C Ck : Tm) : Derived :=
  { target := Tm.par C (Ck.clone fk),
    required := twoRegions C Ck,
    removed := fun _ => false,
    rel := fun x r => match r with
      | (false, o) => ∃ o', o' ∈ Ck.outs ∧ x = joinOut false o (renameOut fk o')
      | (true, o) => ∃ o', o' ∈ C.outs ∧ x = joinOut false o' (renameOut fk o) }

/-- `MergeSelect(g, w, σ)` on `T_L ⊕_g T_R`: the selected arm `T_w` is kept and followed by `E_J`; the
other arm's results are authorized removals. -/
def mergeSelect (w : Bool) (TL TR EJ : Tm) : Derived :=
  { target := Tm.seq (onSide w TL TR) EJ,
    required := twoRegions TL TR,
    removed := fun b => match b, w with
      | false, false => false
      | true, true => false
      | _, _ => true,
    rel := fun x r => r.1 = w ∧ ∃ e, e ∈ EJ.outs ∧ x = joinOut true r.2 e }

/-- `MergeJoin(g, σ)` on `T_L ∥_g T_R`: both arms are kept, joined, and followed by `E_J`. -/
def mergeJoin (TL TR EJ : Tm) : Derived :=
  { target := Tm.seq (Tm.par TL TR) EJ,
    required := twoRegions TL TR,
    removed := fun _ => false,
    rel := fun x r => match r with
      | (false, o) => ∃ o' e, o' ∈ TR.outs ∧ e ∈ EJ.outs ∧ x = joinOut true (joinOut false o o') e
      | (true, o) => ∃ o' e, o' ∈ TL.outs ∧ e ∈ EJ.outs ∧ x = joinOut true (joinOut false o' o) e }

/-- `Extend(ξ)` on the current term `T`: the workflow is unchanged and every result covers itself. -/
def extendRow (T : Tm) : Derived :=
  { target := T,
    required := tagReq false T.outs,
    removed := fun _ => false,
    rel := fun x r => x = r.2 }

/-- `Derive` is defined: the record is produced by one of the six edit rows or `Extend`, for some
source regions, renamings, choice ID and continuation term. -/
inductive Derives : Derived → Prop
  | ofForkChoice (g : Nat) (fL fR : Nat → Nat) (C : Tm) : Derives (forkChoice g fL fR C)
  | ofForkParallel (fL fR : Nat → Nat) (C : Tm) : Derives (forkParallel fL fR C)
  | ofRestoreReplace (fk : Nat → Nat) (C Ck : Tm) : Derives (restoreReplace fk C Ck)
  | ofRestoreLive (fk : Nat → Nat) (C Ck : Tm) : Derives (restoreLive fk C Ck)
  | ofMergeSelect (w : Bool) (TL TR EJ : Tm) : Derives (mergeSelect w TL TR EJ)
  | ofMergeJoin (TL TR EJ : Tm) : Derives (mergeJoin TL TR EJ)
  | ofExtend (T : Tm) : Derives (extendRow T)

/-- `Derive` is defined and its fresh-identifier checks pass (Section V-A2, "fresh identifiers …
preserve uniqueness"): the source regions have unique calls, copy renamings are injective with
disjoint images (away from the kept branch for RestoreLive), and a continuation's calls are fresh. -/
inductive ValidDerives : Derived → Prop
  | ofForkChoice (g : Nat) (fL fR : Nat → Nat) (C : Tm) (hL : ∀ a b, fL a = fL b → a = b)
      (hR : ∀ a b, fR a = fR b → a = b) (hdis : ∀ a b, fL a ≠ fR b) (hC : Nodup C.calls) :
      ValidDerives (forkChoice g fL fR C)
  | ofForkParallel (fL fR : Nat → Nat) (C : Tm) (hL : ∀ a b, fL a = fL b → a = b)
      (hR : ∀ a b, fR a = fR b → a = b) (hdis : ∀ a b, fL a ≠ fR b) (hC : Nodup C.calls) :
      ValidDerives (forkParallel fL fR C)
  | ofRestoreReplace (fk : Nat → Nat) (C Ck : Tm) (hk : ∀ a b, fk a = fk b → a = b) (hCk : Nodup Ck.calls) :
      ValidDerives (restoreReplace fk C Ck)
  | ofRestoreLive (fk : Nat → Nat) (C Ck : Tm) (hk : ∀ a b, fk a = fk b → a = b) (hC : Nodup C.calls)
      (hCk : Nodup Ck.calls) (hfresh : ∀ x b, x ∈ C.calls → fk b ≠ x) : ValidDerives (restoreLive fk C Ck)
  | ofMergeSelect (w : Bool) (TL TR EJ : Tm) (hsrc : Nodup (TL.calls ++ TR.calls)) (hE : Nodup EJ.calls)
      (hfresh : ∀ x, x ∈ EJ.calls → ¬ x ∈ TL.calls ++ TR.calls) : ValidDerives (mergeSelect w TL TR EJ)
  | ofMergeJoin (TL TR EJ : Tm) (hsrc : Nodup (TL.calls ++ TR.calls)) (hE : Nodup EJ.calls)
      (hfresh : ∀ x, x ∈ EJ.calls → ¬ x ∈ TL.calls ++ TR.calls) : ValidDerives (mergeJoin TL TR EJ)
  | ofExtend (T : Tm) (hT : Nodup T.calls) : ValidDerives (extendRow T)

end AgentWarrant.Edits
