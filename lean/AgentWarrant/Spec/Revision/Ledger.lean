import AgentWarrant.Thm.Monitor.Capacity
import AgentWarrant.Spec.Revision.ListLemmas
/-! Per-list ledgers across calls, and the structural revision certificates (Agenra Section 7.1).

An account is a grant's matching as a function of the call (the call carries its binding state,
so "for every binding state" is "for every call") and its residual capacity. A ledger is the
ordered list of accounts of one permission list. `scanL`/`allocL` are first-fit over a ledger for
one call; AgentWarrant.Thm.Revision.Bridge proves they are the monitor's `scan`/`alloc` on the
call's instantiated accounts. `runL` charges a trace call by call; a client is admitted (on this
list) when `runL` succeeds.

The structural certificates `Rev D P P'`, for the calls `D` (the paper's `E`): appending grants and
matching-equivalent edits on `D` (together: prefix-compatible extension), capacity extension (same matching
and order, each residual at least the old one), an adjacent swap of two accounts independent on
`D`, lifting under an unchanged head account, and composition. Independence is stated on
`fits` (allow, ready and matching), the predicate first-fit scans with, for every effect index
of every call in `D`. -/
namespace AgentWarrant.Revision
open AgentWarrant.Monitor

abbrev PAcct (C : Type) := (C → Grant) × Option Nat
abbrev Ledger (C : Type) := List (PAcct C)

variable {C : Type}

def inst (c : C) : Ledger C → List Acct
  | [] => []
  | (g, r) :: l => (g c, r) :: inst c l

def scanL (c : C) (e : Nat) : Nat → Ledger C → Option (Nat × Ledger C)
  | _, [] => none
  | i, (g, r) :: l => match fits (g c) e && avail r with
    | true => some (i, (g, dec r) :: l)
    | false => match scanL c e (i + 1) l with
      | none => none
      | some (k, l') => some (k, (g, r) :: l')

def allocL (c : C) : Ledger C → List Nat → Option (List Nat × Ledger C)
  | l, [] => some ([], l)
  | l, e :: es => match scanL c e 0 l with
    | none => none
    | some (k, l') => match allocL c l' es with
      | none => none
      | some (ps, lf) => some (k :: ps, lf)

/-- One call's charge on one list: the successor ledger, or `none` when first-fit fails. -/
def chargeL (effs : C → List Nat) (c : C) (l : Ledger C) : Option (Ledger C) :=
  match allocL c l (effs c) with
  | none => none
  | some (_, lf) => some lf

/-- A client (a trace of calls) on one list: the final ledger, or `none` if some call fails. -/
def runL (effs : C → List Nat) : Ledger C → List C → Option (Ledger C)
  | l, [] => some l
  | l, c :: cs => match chargeL effs c l with
    | none => none
    | some l' => runL effs l' cs

/-- One call on both lists, all or nothing (Section 5.2): both successor ledgers, or `none`. -/
def chargeBoth (effs : C → List Nat) (c : C) (p a : Ledger C) : Option (Ledger C × Ledger C) :=
  match chargeL effs c p, chargeL effs c a with
  | some p', some a' => some (p', a')
  | _, _ => none

/-- A client on both lists: the final ledgers, or `none` if some call is refused by either. -/
def runBoth (effs : C → List Nat) : Ledger C → Ledger C → List C → Option (Ledger C × Ledger C)
  | p, a, [] => some (p, a)
  | p, a, c :: cs => match chargeBoth effs c p a with
    | none => none
    | some (p', a') => runBoth effs p' a' cs

/-- A joint relation on (user, application) ledger pairs closed under one call's joint charge. -/
def JointSim (effs : C → List Nat) (D : C → Prop) (R : Ledger C × Ledger C → Ledger C × Ledger C → Prop) : Prop :=
  ∀ (c : C) (o n o' : Ledger C × Ledger C), D c → R o n → chargeBoth effs c o.1 o.2 = some o' →
    ∃ n', chargeBoth effs c n.1 n.2 = some n' ∧ R o' n'

/-- A relation between old and new ledgers closed under one first-fit reservation, for calls in `D`. -/
def ScanSim (D : C → Prop) (R : Ledger C → Ledger C → Prop) : Prop :=
  ∀ (c : C) (e i : Nat) (l n : Ledger C) (k : Nat) (l' : Ledger C), D c → R l n → scanL c e i l = some (k, l') →
    ∃ k' n', scanL c e i n = some (k', n') ∧ R l' n'

/-- A simulation: closed under one call's charge, for calls in `D`. -/
def Sim (effs : C → List Nat) (D : C → Prop) (R : Ledger C → Ledger C → Prop) : Prop :=
  ∀ (c : C) (l n l' : Ledger C), D c → R l n → chargeL effs c l = some l' → ∃ n', chargeL effs c n = some n' ∧ R l' n'

/-- Capacity extension: same accounts in the same order, each residual at least the old one. -/
inductive CapExt : Ledger C → Ledger C → Prop
  | nil : CapExt [] []
  | cons (g : C → Grant) {r r' : Option Nat} {l l' : Ledger C} : Geq r' r → CapExt l l' → CapExt ((g, r) :: l) ((g, r') :: l')

/-- Two accounts are independent on `D` when no effect of a call in `D` fits both. -/
def Indep (D : C → Prop) (a b : C → Grant) : Prop :=
  ∀ c e, D c → fits (a c) e = true → fits (b c) e = false

/-- Matching-equivalent edits: the same residuals, and at each position grants that fit exactly the
same effects of every call in `D` (the paper's "matching-equivalent edits on a restricted E"). -/
inductive MatchEq (D : C → Prop) : Ledger C → Ledger C → Prop
  | nil : MatchEq D [] []
  | cons (g g' : C → Grant) (r : Option Nat) {l l' : Ledger C} : (∀ c e, D c → fits (g c) e = fits (g' c) e) →
      MatchEq D l l' → MatchEq D ((g, r) :: l) ((g', r) :: l')

/-- The structural certificates `P ⇝_D P'`. -/
inductive Rev (D : C → Prop) : Ledger C → Ledger C → Prop
  | append (l x : Ledger C) : Rev D l (l ++ x)
  | equiv {l n : Ledger C} : MatchEq D l n → Rev D l n
  | cap {l n : Ledger C} : CapExt l n → Rev D l n
  | swap (pre post : Ledger C) (a b : PAcct C) : Indep D a.1 b.1 →
      Rev D (pre ++ a :: b :: post) (pre ++ b :: a :: post)
  | lift (a : PAcct C) {l n : Ledger C} : Rev D l n → Rev D (a :: l) (a :: n)
  | comp {l m n : Ledger C} : Rev D l m → Rev D m n → Rev D l n

end AgentWarrant.Revision
