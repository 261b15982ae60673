import AgentWarrant.Spec.Edits.DeriveTreeJudged
/-! Whether the terms `src` gives Lean's edit judgment agree with the record's branch tree (*When Can
Agents Safely Checkpoint, Fork, Restore, and Merge?*, Section IV-B1's remaining-work equation
`𝒞_b = Γ_b/raw(χ_b)`, Section VII's stored copies, Table I's Fork and Restore rows).

`derJT` (`Spec/Edits/DeriveTreeJudged.lean`) reads the branch's region and the checkpoints' regions as
terms from `src`, not off the tree. This file states, as a Boolean check Lean can run, what it takes for
those terms to be the tree's: the leaf of the branch the edit names has, as its remaining contract by
outcome pomsets, exactly the outcomes of `src`'s branch term, and every checkpoint copy the record stores
has exactly the outcomes of `src`'s term for its ID. `derJTC` is `derJT` refusing a Fork or Restore
(`readsLeaf`) whose terms fail the check (`checkedTab`); the `edit_derive` oracle runs the same check
(`termAgreesB`, `savedAgreesB`) on the leaf and copies its caller sends.

Choices, where the paper is silent or the tree's encoding forces one:
- A leaf's remaining contract by pomsets (`restPoms`): each outcome of `Γ_b` of which `χ_b` is a
  linearization prefix (`compatP`, as for `residualOf`), restricted to its events outside `χ_b`, its
  order to the pairs with both ends outside `χ_b`. Its events are `residualOf`'s outcomes, the leaf's
  `restOuts` (proved, `restPomsEvents`); the order is kept because `judgedTEdit` gives new leaves
  pomsets, not call sets.
- Outcomes are compared as lists (the term's result order, `Γ_b`'s stored order), not as sets: this is
  the stricter reading, and it is what the contracts a Fork or Restore hands to its new leaves are.
- Only the leaf the edit names and the stored copies are checked: `src` gives one branch term per
  record, so a check over every current leaf would ask one term to equal several contracts. -/
namespace AgentWarrant.Edits.DeriveTreeSrc
open AgentWarrant AgentWarrant.Edits AgentWarrant.Edits.Machine AgentWarrant.Edits.DeriveTreeJudged

/-- One outcome with `χ`'s calls removed (from its events and from its order). -/
def restPom (done : List Nat) (p : Pomset) : Pomset :=
  ⟨filt (fun e => !memN e done) p.events, filt (fun ab => !memN ab.1 done && !memN ab.2 done) p.order⟩

/-- `Γ/raw(χ)` by pomsets: the outcomes `χ` is a linearization prefix of, less `χ`. -/
def restPoms (gamma : List Pomset) (done : List Nat) : List Pomset :=
  List.map (restPom done) (filt (compatP done) gamma)

/-- The pomset of a result of `l ∥ r` (`ordered` false) or `l ; r` (true) from one pomset of each part
(`joinOut`'s pomset). -/
def joinPom (ordered : Bool) (p q : Pomset) : Pomset :=
  ⟨p.events ++ q.events, p.order ++ (q.order ++ extraOrder ordered p.events q.events)⟩

/-- `prodOut` on pomsets alone: a Fork arm's contract `clone(𝒞) ; E_σ` from the parts' pomsets. -/
def prodPoms (ordered : Bool) (P Q : List Pomset) : List Pomset :=
  concatL (List.map (fun p => List.map (joinPom ordered p) Q) P)

/-- A leaf's `Γ` (by pomsets) and `χ` have `T`'s outcomes as their remaining contract. -/
def termAgreesB (gamma : List Pomset) (done : List Nat) (T : Tm) : Bool := decide (restPoms gamma done = poms T)

/-- The leaf named `x` exists and its remaining contract is `T`'s outcomes. -/
def leafAgreesB (t : Tree) (x : Nat) (T : Tm) : Bool := match leafNamed t x with
  | some l => termAgreesB l.gamma l.done T
  | none => false

/-- A stored copy's remaining contract is the outcomes of the term `K` gives for its ID. -/
def savedAgreeB (K : Nat → Option Tm) (s : Saved) : Bool := match K s.id with
  | some Ck => decide (restPoms s.gamma s.done = poms Ck)
  | none => false

def savedAgreesB (saved : List Saved) (K : Nat → Option Tm) : Bool := allB (savedAgreeB K) saved

/-- `src` agrees with the record `c` for an edit on the branch `x`: `x`'s leaf has `src`'s branch term as
its remaining contract, and each stored copy has `src`'s term for its checkpoint ID. -/
def srcAgreesB (src : Core → Tm × (Nat → Option Tm)) (c : Core) (x : Nat) : Bool :=
  leafAgreesB c.tree x (src c).1 && savedAgreesB c.saved (src c).2

open AgentWarrant.Edits.DeriveCover AgentWarrant.Edits.DeriveFork

/-- The rows whose new leaves copy the edited branch's or a checkpoint's term (Fork, Restore): the ones
whose contracts `srcAgreesB` ties to the tree (a Merge's `b_J` is the rule's `E_J`, Extend adds none). -/
def readsLeaf : AReq → Bool
  | AReq.base (CReq.forkChoice _) => true
  | AReq.base CReq.forkParallel => true
  | AReq.base (CReq.restoreReplace _ _) => true
  | AReq.base (CReq.restoreLive _ _) => true
  | AReq.base (CReq.mergeSelect _ _ _) => false
  | AReq.base (CReq.mergeJoin _) => false
  | AReq.base CReq.extend => false
  | AReq.fork _ => true
  | AReq.forkT _ => true

/-- `judgedTab`, refusing a Fork or Restore entry whose source terms do not agree with the record's tree. -/
def checkedTab (src : Core → Tm × (Nat → Option Tm)) (tab : Nat → Option (EntryA × Nat)) (c : Core)
    (u : Nat) : Option (Machine.Derived × TEdit) :=
  match tab u with
  | none => none
  | some (e, x) => match !readsLeaf e.req || srcAgreesB src c x with
    | true => judgedTab src tab c u
    | false => none

/-- `derJT` with Lean's own check that the terms it reads are the tree's (`srcAgreesB`). -/
def derJTC (src : Core → Tm × (Nat → Option Tm)) (tab : Nat → Option (EntryA × Nat)) : Derivation :=
  treeDer (checkedTab src tab)

end AgentWarrant.Edits.DeriveTreeSrc
