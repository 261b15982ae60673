import AgentWarrant.Spec.Revision.Charge
import AgentWarrant.Spec.Revision.Ledger
/-! An installed permission list seen both ways (Agenra Sections 6 and 7.1): as the entries each
call carries in the closed core, and as a ledger of accounts.

A policy list is a list of grants (matching as a function of the call) with their quotas. A call
is consistent with it when its entries are those grants evaluated at the call, with those quotas.
The ledger of a list at counters `us` gives each grant its residual `quota - used` (unlimited
stays unlimited). -/
namespace AgentWarrant.Revision
open AgentWarrant.Monitor AgentWarrant.Monitor.Run

/-- A policy list over any type of calls `C`: what a grant's matching reads is `C`. -/
abbrev PolListOf (C : Type) := List ((C → Grant) × Option Nat)

abbrev PolList := PolListOf Call

def resid : Option Nat → Nat → Option Nat
  | none, _ => none
  | some q, u => some (q - u)

def ledgerOf {C : Type} : PolListOf C → List Nat → Ledger C
  | (g, q) :: pl, u :: us => (g, resid q u) :: ledgerOf pl us
  | _, _ => []

def grantOf (x : Entry) : Grant := ⟨x.allow, x.ready, x.hits⟩

/-- The call's entries are the list's grants evaluated at the call, with the list's quotas. -/
def Consistent (pl : PolList) (c : Call) (es : List Entry) : Prop :=
  List.map (fun x => (grantOf x, x.quota)) es = List.map (fun p => (p.1 c, p.2)) pl

/-- The effect indices of a call (what `effects` computes from the call's facts). -/
def effsOf (c : Call) : List Nat := range 0 c.facts.nEffects

/-- The counter relation of a structural revision: on each side the counters are within the quotas
and of the list's length, and on each list the old and new ledgers are related by `Rev D`. -/
def LinkRel (D : Call → Prop) (oU oA nU nA : PolList) (S S' : MState) : Prop :=
  (WithinL (List.map Prod.snd oU) S.usedUser ∧ List.length oU = List.length S.usedUser) ∧
  (WithinL (List.map Prod.snd oA) S.usedApp ∧ List.length oA = List.length S.usedApp) ∧
  (WithinL (List.map Prod.snd nU) S'.usedUser ∧ List.length nU = List.length S'.usedUser) ∧
  (WithinL (List.map Prod.snd nA) S'.usedApp ∧ List.length nA = List.length S'.usedApp) ∧
  Rev D (ledgerOf oU S.usedUser) (ledgerOf nU S'.usedUser) ∧ Rev D (ledgerOf oA S.usedApp) (ledgerOf nA S'.usedApp)

/-- The calls the result speaks of: in `D`, carrying the old lists' entries, and revised to the new
lists' entries. -/
def LinkDom (D : Call → Prop) (oU oA nU nA : PolList) (nl : Call → List Entry × List Entry) (c : Call) : Prop :=
  D c ∧ Consistent oU c c.facts.user ∧ Consistent oA c c.facts.app ∧ Consistent nU c (nl c).1 ∧ Consistent nA c (nl c).2

end AgentWarrant.Revision
