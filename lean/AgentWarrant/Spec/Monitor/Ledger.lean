/-! First-fit allocation over ordered grant lists (Agenra Section 5.2), finite form.

Each position of a list is an account: the grant (is it an allow, is it ready, which effects it
matches) and its remaining capacity (`none` = unlimited, else `quota - used`). For each effect in
order, the scan reserves one unit of the first ready matching allow with capacity left. The
two-list charge is all-or-nothing: both lists must serve every effect, else nothing is charged.
Choices where the source is silent: matching facts (`hits`, by effect index) and readiness are
inputs, computed once per call by the caller; reserving on an unlimited account changes nothing. -/
namespace AgentWarrant.Monitor

structure Grant where
  allow : Bool
  ready : Bool
  hits : List Bool
  deriving Repr

def hit : List Bool → Nat → Bool
  | [], _ => false
  | b :: _, 0 => b
  | _ :: l, n + 1 => hit l n

def fits (g : Grant) (e : Nat) : Bool := g.allow && g.ready && hit g.hits e

def avail : Option Nat → Bool
  | none => true
  | some 0 => false
  | some (_ + 1) => true

def dec : Option Nat → Option Nat
  | none => none
  | some 0 => some 0
  | some (n + 1) => some n

abbrev Acct := Grant × Option Nat

/-- First fit for one effect: the position chosen and the accounts after reserving one unit. -/
def scan (e : Nat) : Nat → List Acct → Option (Nat × List Acct)
  | _, [] => none
  | i, (g, r) :: l => match fits g e && avail r with
    | true => some (i, (g, dec r) :: l)
    | false => match scan e (i + 1) l with
      | none => none
      | some (k, l') => some (k, (g, r) :: l')

/-- First fit for a batch of effects, with tentative reservations: the positions chosen. -/
def alloc : List Acct → List Nat → Option (List Nat)
  | _, [] => some []
  | l, e :: es => match scan e 0 l with
    | none => none
    | some (k, l') => match alloc l' es with
      | none => none
      | some ps => some (k :: ps)

def countN (k : Nat) : List Nat → Nat
  | [] => 0
  | p :: ps => match Nat.beq p k with
    | true => countN k ps + 1
    | false => countN k ps

/-- The charge vector of a list of `n` accounts from the positions chosen. -/
def chargeVec : Nat → Nat → List Nat → List Nat
  | _, 0, _ => []
  | i, n + 1, ps => countN i ps :: chargeVec (i + 1) n ps

/-- The two-list all-or-nothing charge: both allocations, or nothing. -/
def allocBoth (user app : List Acct) (es : List Nat) : Option (List Nat × List Nat) :=
  match alloc user es, alloc app es with
  | some pu, some pa => some (pu, pa)
  | _, _ => none

end AgentWarrant.Monitor
