import AgentWarrant.Spec.Lib
/-! Resolve (*When Can Agents Safely Checkpoint, Fork, Restore, and Merge?*, Section V-B), finite form.

Calls, actions and labels are natural numbers (the oracle's JSON translation numbers them); the
action map `q_act` and the labels `ℓ` are lists indexed by call and by action. `D` is the list of
actions that already have authorization records. A call whose action is in `D` is a `reuse`,
otherwise a `new` authorization that adds the action to `D`.
Choice where the paper is silent: an index outside a list reads as 0 (`nth`); the oracle only
receives total maps, so this default is never used on its inputs. -/
namespace AgentWarrant.Edits
open AgentWarrant

structure Letter where
  call : Nat
  action : Nat
  new : Bool
  deriving DecidableEq, Repr

abbrev Word := List Letter

def nth : List Nat → Nat → Nat
  | [], _ => 0
  | a :: _, 0 => a
  | _ :: l, n + 1 => nth l n

def memN (d : Nat) (D : List Nat) : Bool := anyB (fun y => Nat.beq y d) D

def resolve (act : List Nat) : List Nat → List Nat → Word
  | _, [] => []
  | D, x :: w => match memN (nth act x) D with
    | true => ⟨x, nth act x, false⟩ :: resolve act D w
    | false => ⟨x, nth act x, true⟩ :: resolve act (nth act x :: D) w

/-- `Δ_z`: the record set extended by the new authorizations of `z`. -/
def extend : List Nat → Word → List Nat
  | D, [] => D
  | D, l :: z => match l.new with
    | true => extend (l.action :: D) z
    | false => extend D z

/-- The calls of a resolved word (`raw`). -/
def raw : Word → List Nat
  | [] => []
  | l :: z => l.call :: raw z

/-- The actions a word newly authorizes, in order (`auth`). -/
def auth : Word → List Nat
  | [] => []
  | l :: z => match l.new with
    | true => l.action :: auth z
    | false => auth z

/-- `ℓ` lifted to words of actions (`lab`). -/
def labels (lab : List Nat) : List Nat → List Nat
  | [] => []
  | d :: ds => nth lab d :: labels lab ds

end AgentWarrant.Edits
