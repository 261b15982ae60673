import AgentWarrant.Spec.Monitor.Ledger
import AgentWarrant.Thm.Monitor.Ledger
/-! Online allocators over one permission list (Agenra Section 5.2, the module the paper calls
AllocationAlternatives): the setting of the two-grant obstruction of Barth and Mitchell.

A grant is the finite set of resources it covers, with a finite quota; a workload is the sequence of
resources its calls touch, one effect per call. An allocator is *prefix-based* by its type: it sees
the calls admitted so far and the current call, never a later one, and names the grant it charges
(or `none` to reject). Charges are irrevocable: nothing is reassigned or refunded later.
First-fit is one such allocator; it is built from the monitor's own `scan`, so the statements below
are about the deployed first-fit scan rather than a re-implementation.
Choices where the paper is silent: resources are numbers (A = 0, B = 1, C = 2 in the instance);
a charge naming a position outside the list, a grant not covering the call, or a grant without
capacity rejects the call. -/
namespace AgentWarrant.Monitor.Alternatives
open AgentWarrant.Monitor

/-- Prefix-based: the choice is a function of the prefix and the current call only. -/
abbrev Allocator := List Nat → Nat → Option Nat

def memB : List Nat → Nat → Bool
  | [], _ => false
  | a :: l, r => Nat.beq a r || memB l r

def covAt : List (List Nat) → Nat → Nat → Bool
  | [], _, _ => false
  | g :: _, 0, r => memB g r
  | _ :: gs, k + 1, r => covAt gs k r

def capAt : List Nat → Nat → Nat
  | [], _ => 0
  | c :: _, 0 => c
  | _ :: cs, k + 1 => capAt cs k

def useAt : List Nat → Nat → List Nat
  | [], _ => []
  | c :: cs, 0 => Nat.pred c :: cs
  | c :: cs, k + 1 => c :: useAt cs k

/-- Does `al` admit every call of the workload, charging irrevocably from remaining quotas `caps`? -/
def completes (al : Allocator) (gs : List (List Nat)) : List Nat → List Nat → List Nat → Bool
  | _, _, [] => true
  | pre, caps, r :: rs => match al pre r with
    | none => false
    | some k => covAt gs k r && Nat.ble 1 (capAt caps k) && completes al gs (pre ++ [r]) (useAt caps k) rs

/-- The monitor's accounts for one call touching resource `r`: every grant an allow, ready, with
a one-effect matching vector. -/
def accts : List (List Nat) → List Nat → Nat → List Acct
  | g :: gs, c :: cs, r => (⟨true, true, [memB g r]⟩, some c) :: accts gs cs r
  | _, _, _ => []

/-- First-fit's pick: the position the monitor's `scan` reserves. -/
def ffPick (gs : List (List Nat)) (caps : List Nat) (r : Nat) : Option Nat :=
  match scan 0 0 (accts gs caps r) with
  | none => none
  | some (k, _) => some k

/-- The remaining quotas after first-fit has served a prefix. -/
def ffCaps (gs : List (List Nat)) : List Nat → List Nat → List Nat
  | caps, [] => caps
  | caps, r :: rs => match ffPick gs caps r with
    | none => caps
    | some k => ffCaps gs (useAt caps k) rs

/-- First-fit as an online allocator: it replays the prefix to know the remaining quotas. -/
def firstFit (gs : List (List Nat)) (caps0 : List Nat) : Allocator :=
  fun pre r => ffPick gs (ffCaps gs caps0 pre) r

/-- The instance: grants {A,B} then {A,C}, each of quota one. -/
def gAB : List Nat := [0, 1]
def gAC : List Nat := [0, 2]
def twoGrants : List (List Nat) := [gAB, gAC]
def quotaOne : List Nat := [1, 1]

end AgentWarrant.Monitor.Alternatives
