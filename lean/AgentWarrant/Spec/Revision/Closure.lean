import AgentWarrant.Spec.Lib
/-! Simulation certificates as data, and their closure check (Agenra Section 1: "for other
finite-quota revisions, Lean checks a proposed relation for closure"; Section 7.1).

A certificate speaks of `n` old lists and `n` new lists (one each for a per-list certificate,
`(P, A)` and `(P′, A′)` for a joint one). A *unit* is one effect as first-fit sees it: a match bit
per position of every list, and the set of satisfied requirements. Charging a unit on a group of
lists is all or nothing: on each list a matching explicit deny refuses it; otherwise the first
matching allow whose requirement holds and that has capacity is charged (an unlimited one
charges nothing). The certificate lists the units it claims cover every effect (that claim is
checked by the Python checker with Z3, not here), the starting usage vectors and the related
pairs of usage-vector groups. `closedC` checks that the start is related and that from every
related pair every unit the old lists charge is charged by the new lists into a related pair.
Choices where the source is silent: a position outside a usage vector reads as zero use;
relation membership is list membership under decidable equality. -/
namespace AgentWarrant.Revision.Closure
open AgentWarrant

structure LEntry where
  allow : Bool
  quota : Option Nat
  requires : Option String

abbrev Usage := List (List Nat)
abbrev Bits := List (List Bool)

structure Unit' where
  old : Bits
  new : Bits
  reqs : List String

def memS (q : List String) (r : String) : Bool := anyB (fun x => x == r) q

def reqOk (q : List String) : Option String → Bool
  | none => true
  | some r => memS q r

def getN : List Nat → Nat → Nat
  | [], _ => 0
  | a :: _, 0 => a
  | _ :: l, k + 1 => getN l k

def incAt : List Nat → Nat → List Nat
  | [], _ => []
  | a :: l, 0 => (a + 1) :: l
  | a :: l, k + 1 => a :: incAt l k

def denyHit : List LEntry → List Bool → Bool
  | e :: es, b :: bs => (b && !e.allow) || denyHit es bs
  | _, _ => false

/-- First fit over one list, positions from `k`, on usage vector `used`. -/
def firstFitU (q : List String) (used : List Nat) : Nat → List LEntry → List Bool → Option (List Nat)
  | k, e :: es, b :: bs => match b && e.allow && reqOk q e.requires with
    | false => firstFitU q used (k + 1) es bs
    | true => match e.quota with
      | none => some used
      | some m => match Nat.ble (getN used k + 1) m with
        | true => some (incAt used k)
        | false => firstFitU q used (k + 1) es bs
  | _, _, _ => none

def fitU (es : List LEntry) (used : List Nat) (bits : List Bool) (q : List String) : Option (List Nat) :=
  match denyHit es bits with
  | true => none
  | false => firstFitU q used 0 es bits

/-- One unit on a group of lists, all or nothing. -/
def stepAll (q : List String) : List (List LEntry) → Usage → Bits → Option Usage
  | [], [], [] => some []
  | es :: ls, u :: us, b :: bs => match fitU es u b q, stepAll q ls us bs with
    | some u', some us' => some (u' :: us')
    | _, _ => none
  | _, _, _ => none

def memR (rel : List (Usage × Usage)) (x : Usage × Usage) : Bool := anyB (fun y => decide (y = x)) rel

def okUnit (O N : List (List LEntry)) (rel : List (Usage × Usage)) (s : Usage × Usage) (u : Unit') : Bool :=
  match stepAll u.reqs O s.1 u.old with
  | none => true
  | some o' => match stepAll u.reqs N s.2 u.new with
    | none => false
    | some n' => memR rel (o', n')

/-- The closure check. -/
def closedC (O N : List (List LEntry)) (units : List Unit') (rel : List (Usage × Usage)) (start : Usage × Usage) : Bool :=
  memR rel start && allB (fun s => allB (fun u => okUnit O N rel s u) units) rel

/-- A client's units charged on the old lists (`side = true`) or the new ones. -/
def runSide (side : Bool) (L : List (List LEntry)) : Usage → List Unit' → Option Usage
  | u, [] => some u
  | u, x :: xs => match stepAll x.reqs L u (match side with | true => x.old | false => x.new) with
    | none => none
    | some u' => runSide side L u' xs

end AgentWarrant.Revision.Closure
