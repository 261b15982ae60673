import AgentWarrant.Spec.Lib
import AgentWarrant.Spec.Edits.List
import AgentWarrant.Spec.Edits.Resolve
import AgentWarrant.Spec.Edits.Check
/-! Well-formedness of a raw check instance (*Exact Checking for Execution Edits*, Sections IV-A,
IV-B2, IV-B3): the paper's "Derive is undefined", answered as `invalid` with a reason class.

The raw instance is the one the Python checker receives, before any of its validation: the
contract term (calls, choice and family IDs and arm names numbered), the action map `q_act` and the
labels `ℓ` as *partial* maps (lists of pairs, possibly missing entries), the log `Δ`, the finite
policy (`Spec/Edits/Check.lean`), and the outcomes with their linearizations for the prefix
condition.

Eight reason classes, in a fixed order: the answer is the *first class whose condition holds*
(each later condition is read only once the earlier ones fail, so `lab(Δ)` is asked of the policy
only when every logged action has a label):
1. `duplicate-call`     a call leaf occurs twice (an explicit family's calls count once);
2. `duplicate-group`    a choice or family ID occurs twice;
3. `empty-choice`       a choice or family has no arm, or repeats an arm name;
4. `unmapped-call`      a call leaf has no action;
5. `unlabelled-action`  the action of a call leaf, or a logged action, has no label;
6. `log-repeats-action` an action occurs twice in `Δ`;
7. `log-outside-policy` `lab(Δ) ∉ 𝒜`;
8. `complete-prefixes-another` a linearization of one outcome properly prefixes one of another.
Choice where the paper is silent: the order is the one the Python checker documents
(`model/edits/check/instance_wellformed.py`); within a class no order is needed, since only the class is
answered. The walk of the term (`scan`) recurses on a nesting-depth fuel, `termFuel` (the term is a
nested inductive, and the 2021 compiler has no structural recursion through `List Term`); the fuel
bounds how deep a term may nest, one unit per level, and `Thm/Edits/WellFormed.lean` proves that any
fuel beyond a term's depth gives the same scan (`scanFuelStable`). The term is decoded from a JSON
value of at least the same depth, which Python's `json` module bounds far below `termFuel`. The
conditions themselves (`wfOf`) are total, and `Thm/Edits/WellFormed.lean` proves what a `none` answer
guarantees.
The file also defines `wdag`, the prefix set `W†` of the checker's answer, which the oracle reports
next to `B̂†`. -/
namespace AgentWarrant.Edits
open AgentWarrant

/-- A contract term as received: `family g members` lists each outcome's name with its calls. -/
inductive Term
  | call (c : Nat)
  | nil
  | choice (g : Nat) (arms : List (Nat × Term))
  | par (parts : List Term)
  | seq (parts : List Term)
  | family (g : Nat) (members : List (Nat × List Nat))

inductive Reason
  | duplicateCall | duplicateGroup | emptyChoice | unmappedCall | unlabelledAction
  | logRepeatsAction | logOutsidePolicy | completePrefixesAnother
  deriving DecidableEq, Repr

/-- The reason's name, as the Python checker spells it (`InvalidReason`). -/
def Reason.name : Reason → String
  | duplicateCall => "duplicate-call"
  | duplicateGroup => "duplicate-group"
  | emptyChoice => "empty-choice"
  | unmappedCall => "unmapped-call"
  | unlabelledAction => "unlabelled-action"
  | logRepeatsAction => "log-repeats-action"
  | logOutsidePolicy => "log-outside-policy"
  | completePrefixesAnother => "complete-prefixes-another"

/-- What the conditions read off the term: call leaves and choice/family IDs in left-to-right
order, and whether some choice or family has no arm or repeats an arm name. -/
structure Scan where
  leaves : List Nat
  groups : List Nat
  empty : Bool
  deriving Inhabited

def hasDup : List Nat → Bool
  | [] => false
  | a :: l => match memN a l with
    | true => true
    | false => hasDup l

/-- The list without repeats, first occurrences kept (`seen` are dropped). -/
def dedupAux : List Nat → List Nat → List Nat
  | _, [] => []
  | seen, a :: l => match memN a seen with
    | true => dedupAux seen l
    | false => a :: dedupAux (a :: seen) l

def badArms (names : List Nat) : Bool := match names with
  | [] => true
  | _ :: _ => hasDup names

def joinS : List Scan → Scan
  | [] => ⟨[], [], false⟩
  | s :: ss => let t := joinS ss; ⟨s.leaves ++ t.leaves, s.groups ++ t.groups, s.empty || t.empty⟩

/-- How deep a term may nest before `scan` stops descending (out of fuel: an empty scan). -/
def termFuel : Nat := 100000

def scanF : Nat → Term → Scan
  | 0, _ => ⟨[], [], false⟩
  | n + 1, t => match t with
    | Term.call c => ⟨[c], [], false⟩
    | Term.nil => ⟨[], [], false⟩
    | Term.family g ms =>
      ⟨dedupAux [] (concatL (List.map Prod.snd ms)), [g], badArms (List.map Prod.fst ms)⟩
    | Term.choice g arms =>
      joinS (⟨[], [g], badArms (List.map Prod.fst arms)⟩ :: List.map (fun a => scanF n a.2) arms)
    | Term.par ps => joinS (List.map (scanF n) ps)
    | Term.seq ps => joinS (List.map (scanF n) ps)

def scan (t : Term) : Scan := scanF termFuel t

def lookupN (k : Nat) : List (Nat × Nat) → Option Nat
  | [] => none
  | p :: ps => match Nat.beq p.1 k with
    | true => some p.2
    | false => lookupN k ps

def isSomeN : Option Nat → Bool
  | some _ => true
  | none => false

def callLabelled (act lab : List (Nat × Nat)) (c : Nat) : Bool := match lookupN c act with
  | some d => isSomeN (lookupN d lab)
  | none => false

def labelOf (lab : List (Nat × Nat)) (d : Nat) : Nat := match lookupN d lab with
  | some l => l
  | none => 0

def isPrefixN : List Nat → List Nat → Bool
  | [], _ => true
  | _ :: _, [] => false
  | a :: v, b :: w => match Nat.beq a b with
    | true => isPrefixN v w
    | false => false

def properPrefix (v w : List Nat) : Bool := match decide (v = w) with
  | true => false
  | false => isPrefixN v w

/-- Some linearization of some outcome properly prefixes a linearization of some outcome. -/
def prefixViolation (outs : List Outcome) : Bool :=
  anyB (fun o => anyB (fun v => anyB (fun o' => anyB (properPrefix v) o'.lins) outs) o.lins) outs

structure Raw where
  term : Term
  act : List (Nat × Nat)
  lab : List (Nat × Nat)
  log : List Nat
  outs : List Outcome
  policy : List (List Nat)

/-- The eight conditions over the scan of the term, first class that holds. -/
def wfOf (s : Scan) (r : Raw) : Option Reason :=
  match hasDup s.leaves with
  | true => some Reason.duplicateCall
  | false => match hasDup s.groups with
  | true => some Reason.duplicateGroup
  | false => match s.empty with
  | true => some Reason.emptyChoice
  | false => match allB (fun c => isSomeN (lookupN c r.act)) s.leaves with
  | false => some Reason.unmappedCall
  | true => match allB (callLabelled r.act r.lab) s.leaves && allB (fun d => isSomeN (lookupN d r.lab)) r.log with
  | false => some Reason.unlabelledAction
  | true => match hasDup r.log with
  | true => some Reason.logRepeatsAction
  | false => match inPolicy r.policy (List.map (labelOf r.lab) r.log) with
  | false => some Reason.logOutsidePolicy
  | true => match prefixViolation r.outs with
  | true => some Reason.completePrefixesAnother
  | false => none

def wellFormed (r : Raw) : Option Reason := wfOf (scan r.term) r

-- The prefix set of the answer, for the oracle's output ---------------------------------------

def dedupW : List Word → List Word → List Word
  | _, [] => []
  | seen, z :: zs => match anyB (fun y => decide (y = z)) seen with
    | true => dedupW seen zs
    | false => z :: dedupW (z :: seen) zs

/-- `W† = ↓(π₂ B̂†)` of a safe set `S` (`Spec/Edits/Safety.lean`'s `Wdag`), as a list without repeats:
every prefix of every word of `S`. -/
def wdag (S : List Cand) : List Word := dedupW [] (concatL (List.map (fun c => prefixes c.2) S))

end AgentWarrant.Edits
