import AgentWarrant.Spec.Edits.Term
/-! One-hole contexts `𝓔[·]` of contract terms (*When Can Agents Safely Checkpoint, Fork, Restore, and
Merge?*, Section V-A, Table I's "required current shape" `𝓔[b:𝒞]`; Appendix A-D1: "context identity
preserves everything outside the edited region"), for the binary term model of `Spec/Edits/Term.lean`.

`Ctx.plug E T` is `𝓔[T]`. `Ctx.lift rel E x r` lifts a relation between results of the edited region
(a region-level `Covers`) to results of the whole term: `x` and `r` take the same context around
region results related by `rel`, or — in a choice arm away from the hole — are the same result.
`Ctx.keep keep E r` lifts "this region result is required": every way of reading `r` as the context
around a region result has a required one (a result in a choice arm away from the hole is unchanged
and counts as required). Choice where the paper is silent: branch IDs and families are not modelled,
so a context is a path of binary constructors. -/
namespace AgentWarrant.Edits
open AgentWarrant

inductive Ctx
  | hole
  | choiceL (g : Nat) (c : Ctx) (r : Tm)
  | choiceR (g : Nat) (l : Tm) (c : Ctx)
  | parL (c : Ctx) (r : Tm)
  | parR (l : Tm) (c : Ctx)
  | seqL (c : Ctx) (r : Tm)
  | seqR (l : Tm) (c : Ctx)

/-- `𝓔[T]`. -/
def Ctx.plug : Ctx → Tm → Tm
  | hole, T => T
  | choiceL g c r, T => Tm.choice g (plug c T) r
  | choiceR g l c, T => Tm.choice g l (plug c T)
  | parL c r, T => Tm.par (plug c T) r
  | parR l c, T => Tm.par l (plug c T)
  | seqL c r, T => Tm.seq (plug c T) r
  | seqR l c, T => Tm.seq l (plug c T)

/-- A region-level relation lifted through the context. -/
def Ctx.lift (rel : TOut → TOut → Prop) : Ctx → TOut → TOut → Prop
  | hole, x, r => rel x r
  | choiceL g c _, x, r =>
    (∃ x' r', x = tagOut g false x' ∧ r = tagOut g false r' ∧ lift rel c x' r') ∨ (x = r ∧ ∃ r', r = tagOut g true r')
  | choiceR g _ c, x, r =>
    (∃ x' r', x = tagOut g true x' ∧ r = tagOut g true r' ∧ lift rel c x' r') ∨ (x = r ∧ ∃ r', r = tagOut g false r')
  | parL c _, x, r => ∃ x' r' b, x = joinOut false x' b ∧ r = joinOut false r' b ∧ lift rel c x' r'
  | parR _ c, x, r => ∃ x' r' a, x = joinOut false a x' ∧ r = joinOut false a r' ∧ lift rel c x' r'
  | seqL c _, x, r => ∃ x' r' b, x = joinOut true x' b ∧ r = joinOut true r' b ∧ lift rel c x' r'
  | seqR _ c, x, r => ∃ x' r' a, x = joinOut true a x' ∧ r = joinOut true a r' ∧ lift rel c x' r'

/-- "Required" lifted through the context. -/
def Ctx.keep (kp : TOut → Prop) : Ctx → TOut → Prop
  | hole, r => kp r
  | choiceL g c _, r => ∀ r', r = tagOut g false r' → keep kp c r'
  | choiceR g _ c, r => ∀ r', r = tagOut g true r' → keep kp c r'
  | parL c _, r => ∀ r' b, r = joinOut false r' b → keep kp c r'
  | parR _ c, r => ∀ a r', r = joinOut false a r' → keep kp c r'
  | seqL c _, r => ∀ r' b, r = joinOut true r' b → keep kp c r'
  | seqR _ c, r => ∀ a r', r = joinOut true a r' → keep kp c r'

end AgentWarrant.Edits
