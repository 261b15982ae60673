import AgentWarrant.Spec.Edits.Input
/-! The coverage half of the derivation's witnesses, decided on the checker's input (*When Can Agents
Safely Checkpoint, Fork, Restore, and Merge?*, Sections V-A2 and V-C1, Appendix A-A).

Lemma 2's conclusion `CoverWitnesses` (`Spec/Edits/Safety.lean`) says every still-required source
result is covered by a target outcome that has a linearization. The checker's input carries, next to
the target outcomes as pomsets (`PInst`), the source results `RequiredBefore` of the record with their
status and the coverage relation: each source result's ID, whether it is `Satisfied`, whether its
removal is authorized (`AuthorizedRemoval`), and the target outcome IDs `t` with `Covers_u(t, a)`.
`coverB` decides `CoverWitnesses` from these, computing each outcome's linearizations itself
(`linsOf`); `answer` is the checker's three-way answer:

    Check(Θ) = Invalid   when coverage fails (the derivation is undefined, Section V-A2),
               Reject    when the fixed point is empty,
               Accepted  otherwise.

Choices where the paper is silent: source results are numbered by the input (IDs, not positions);
the listed results are exactly `RequiredBefore`; a target outcome ID that no outcome of the input
carries covers nothing; when several outcomes carry one ID, any of them with a linearization counts. -/
namespace AgentWarrant.Edits
open AgentWarrant

namespace Cover

/-- One source result of `RequiredBefore`: its ID, its status, and the target outcomes covering it. -/
structure Src where
  id : Nat
  satisfied : Bool
  removed : Bool
  covers : List Nat

/-- The result is still required: neither satisfied nor removed by an authorized removal. -/
def stillReq (s : Src) : Bool := !s.satisfied && !s.removed

/-- Some target outcome with ID `t` has a linearization (is a complete result). -/
def complete (pi : PInst) (t : Nat) : Bool :=
  anyB (fun o => Nat.beq o.id t && match linsOf o.pom with
    | [] => false
    | _ :: _ => true) pi.outs

/-- Every still-required source result is covered by a complete target outcome. -/
def coverB (pi : PInst) (src : List Src) : Bool :=
  allB (fun s => !stillReq s || anyB (complete pi) s.covers) src

/-- `θ`'s source results are the listed ones, with their status and coverage relation. -/
structure PresentsSrc (θ : Theta) (src : List Src) : Prop where
  req : ∀ a, θ.requiredBefore a ↔ ∃ s, s ∈ src ∧ s.id = a
  sat : ∀ s, s ∈ src → (θ.satisfied s.id ↔ s.satisfied = true)
  rem : ∀ s, s ∈ src → (θ.authorizedRemoval s.id ↔ s.removed = true)
  cov : ∀ s, s ∈ src → ∀ t, (θ.covers t s.id ↔ t ∈ s.covers)

/-- The first listed source result with ID `a`. -/
def find : List Src → Nat → Option Src
  | [], _ => none
  | s :: l, a => match Nat.beq s.id a with
    | true => some s
    | false => find l a

/-- The declarative instance of an input with its source results. -/
def thetaOf (pi : PInst) (src : List Src) : Theta :=
  AgentWarrant.Edits.thetaOf pi (fun a => ∃ s, s ∈ src ∧ s.id = a)
    (fun a => ∃ s, find src a = some s ∧ s.satisfied = true)
    (fun a => ∃ s, find src a = some s ∧ s.removed = true)
    (fun t a => ∃ s, find src a = some s ∧ t ∈ s.covers)

/-- The checker's answer on an input with its source results. -/
inductive Answer where
  | invalidDropped
  | rejected
  | accepted
  deriving DecidableEq

def answer (pi : PInst) (src : List Src) : Answer := match coverB pi src with
  | false => Answer.invalidDropped
  | true => match accepts (build pi) with
    | true => Answer.accepted
    | false => Answer.rejected

end Cover
end AgentWarrant.Edits
