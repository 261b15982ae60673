import AgentWarrant.Spec.Edits.Derive
/-! The edit judgment `Σ_ζ; H ⊢_edit u ⇒ (T', 𝒫_u)` as a relation (*When Can Agents Safely Checkpoint,
Fork, Restore, and Merge?*, Section V-A1, Table I, Lemma 2; Appendix A-D1 for the six rules and
A-D2 for `Extend`), over the binary term model of `Spec/Edits/Term.lean` and the derived records of
`Spec/Edits/Derive.lean`.

`EditJ T K u D` says: on the edited region `T`, with the checkpoint store `K` (checkpoint ID →
stored remaining contract), the request `u` derives the record `D`. Each rule's premises are the row's
"required current shape" (MergeSelect needs `T = T_L ⊕_g T_R` with the requested `g`, MergeJoin
`T = T_L ∥ T_R`, the Restore rows a stored checkpoint `k ∈ dom K`) and its fresh-identifier checks
(copy renamings injective with disjoint images, RestoreLive's copy renamed away from the kept
branch, the continuation `E_J`'s calls unique and fresh) and its partial-constructor check (every
constructor of `E_J` defined). The judgment is a relation, so its
determinism is a theorem (`editDeterministic`), not a consequence of writing each row as a function.

Choices where the paper is silent or the model is smaller: the request carries the copy renamings
and the continuation term `E_J` (the paper's runtime allocates the former and reads the latter from
the edit-rule registry; both are inputs here); the surrounding context `𝓔[·]`, families, branch IDs,
progress and signed authorities are not modelled (see `Spec/Edits/Derive.lean`), so MergeSelect's
"the unselected arm has no recorded progress" holds vacuously.

`WellFormedTm T` is the well-formedness of a term that the model can state: unique calls, every
result complete (its pomset has a linearization, so no cycle), and every constructor defined (no
complete sequence properly extends another, `Defined`). `RowExact D` is A-D1's "the rule
derives the record its row states": the target's results are exactly the results covering a
preserved (required, not removed) source result. -/
namespace AgentWarrant.Edits
open AgentWarrant

/-- An edit request: the kind of Table I's row (or `Extend`) with what it names. -/
inductive Req
  | forkChoice (g : Nat) (fL fR : Nat → Nat)
  | forkParallel (fL fR : Nat → Nat)
  | restoreReplace (k : Nat) (fk : Nat → Nat)
  | restoreLive (k : Nat) (fk : Nat → Nat)
  | mergeSelect (g : Nat) (w : Bool) (EJ : Tm)
  | mergeJoin (EJ : Tm)
  | extend

/-- Every constructor of `T` is defined (Section IV-B2, well-formedness clause 3): no complete sequence
of `T` properly extends another. -/
def Defined (T : Tm) : Prop :=
  ∀ o o' v v', o ∈ T.outs → o' ∈ T.outs → Lin o.pom v → Lin o'.pom v' → IsPrefix v v' → v = v'

/-- The edit judgment on region `T` with checkpoint store `K`. -/
inductive EditJ (T : Tm) (K : Nat → Option Tm) : Req → Derived → Prop
  | forkChoice (g : Nat) (fL fR : Nat → Nat) (hL : ∀ a b, fL a = fL b → a = b)
      (hR : ∀ a b, fR a = fR b → a = b) (hdis : ∀ a b, fL a ≠ fR b) :
      EditJ T K (Req.forkChoice g fL fR) (forkChoice g fL fR T)
  | forkParallel (fL fR : Nat → Nat) (hL : ∀ a b, fL a = fL b → a = b)
      (hR : ∀ a b, fR a = fR b → a = b) (hdis : ∀ a b, fL a ≠ fR b) :
      EditJ T K (Req.forkParallel fL fR) (forkParallel fL fR T)
  | restoreReplace (k : Nat) (fk : Nat → Nat) (Ck : Tm) (hK : K k = some Ck)
      (hk : ∀ a b, fk a = fk b → a = b) :
      EditJ T K (Req.restoreReplace k fk) (restoreReplace fk T Ck)
  | restoreLive (k : Nat) (fk : Nat → Nat) (Ck : Tm) (hK : K k = some Ck)
      (hk : ∀ a b, fk a = fk b → a = b) (hfresh : ∀ x b, x ∈ T.calls → fk b ≠ x) :
      EditJ T K (Req.restoreLive k fk) (restoreLive fk T Ck)
  | mergeSelect (g : Nat) (w : Bool) (TL TR EJ : Tm) (hT : T = Tm.choice g TL TR) (hE : Nodup EJ.calls)
      (hfresh : ∀ x, x ∈ EJ.calls → ¬ x ∈ TL.calls ++ TR.calls) (hD : Defined EJ) :
      EditJ T K (Req.mergeSelect g w EJ) (mergeSelect w TL TR EJ)
  | mergeJoin (TL TR EJ : Tm) (hT : T = Tm.par TL TR) (hE : Nodup EJ.calls)
      (hfresh : ∀ x, x ∈ EJ.calls → ¬ x ∈ TL.calls ++ TR.calls) (hD : Defined EJ) :
      EditJ T K (Req.mergeJoin EJ) (mergeJoin TL TR EJ)
  | extend : EditJ T K Req.extend (extendRow T)

/-- A well-formed term: unique calls, every result has a linearization, and every constructor is
defined. -/
def WellFormedTm (T : Tm) : Prop := Nodup T.calls ∧ (∀ o, o ∈ T.outs → ∃ w, Lin o.pom w) ∧ Defined T

/-- A well-formed source: the edited region and every stored checkpoint contract. -/
def WellFormedSrc (T : Tm) (K : Nat → Option Tm) : Prop :=
  WellFormedTm T ∧ ∀ k Ck, K k = some Ck → WellFormedTm Ck

/-- The target's results are exactly those covering a required source result that is not removed. -/
def Derived.RowExact (D : Derived) : Prop :=
  ∀ x, x ∈ D.target.outs ↔ ∃ r, r ∈ D.required ∧ D.removed r.1 = false ∧ D.rel x r

/-- The check instance of a registered extension `Extend(ξ)` (A-D2) over the current instance `θ`: the
same outcomes and pomsets (the current workflow), actions, labels and log, the extended policy `A'`,
and `Extend`'s requirement — every current outcome is required (`{ctx} × O`), nothing is satisfied or
removed, and an outcome covers exactly itself. -/
def Theta.extendWith (θ : Theta) (A' : List Nat → Prop) : Theta :=
  { θ with A := A', requiredBefore := θ.O, satisfied := fun _ => False, authorizedRemoval := fun _ => False,
           covers := fun t a => t = a }

end AgentWarrant.Edits
