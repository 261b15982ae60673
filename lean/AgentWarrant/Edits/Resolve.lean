import AgentWarrant.Spec.Lib
/-! Resolve (execution-edit-checking.md, Section V-B), finite form.

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

theorem resolveDeterministic (act D w : List Nat) (z z' : Word)
    (h : resolve act D w = z) (h' : resolve act D w = z') : z = z' := by
  rw [← h, ← h']

theorem resolveLength (act : List Nat) : ∀ (D w : List Nat), List.length (resolve act D w) = List.length w
  | _, [] => rfl
  | D, x :: w => by
    cases h : memN (nth act x) D with
    | true => simp [resolve, h, resolveLength act D w]
    | false => simp [resolve, h, resolveLength act (nth act x :: D) w]

theorem resolveRaw (act : List Nat) : ∀ (D w : List Nat), raw (resolve act D w) = w
  | _, [] => rfl
  | D, x :: w => by
    cases h : memN (nth act x) D with
    | true => simp [resolve, h, raw, resolveRaw act D w]
    | false => simp [resolve, h, raw, resolveRaw act (nth act x :: D) w]

/-- Prefix composition: `Resolve_Δ(rv) = Resolve_Δ(r) · Resolve_{Δ_z}(v)` with `z = Resolve_Δ(r)`. -/
theorem resolveAppend (act : List Nat) : ∀ (D r v : List Nat),
    resolve act D (r ++ v) = resolve act D r ++ resolve act (extend D (resolve act D r)) v
  | _, [], v => rfl
  | D, x :: r, v => by
    cases h : memN (nth act x) D with
    | true =>
      simp [resolve, h, extend]
      exact resolveAppend act D r v
    | false =>
      simp [resolve, h, extend]
      exact resolveAppend act (nth act x :: D) r v

end AgentWarrant.Edits
