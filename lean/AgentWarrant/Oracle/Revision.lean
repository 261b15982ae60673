import Lean.Data.Json
import AgentWarrant.Spec.Revision.Closure
import AgentWarrant.Spec.Revision.ClosureWholeUnitsChk
/-! The oracle judgment `simulation_closure`: read a simulation certificate (per-list or joint)
exported by Python and run the closure check `closedC`, whose meaning is the theorem
`AgentWarrant.Revision.Closure.closedPreservesFromStart` (run as `closedF`, proved equal by `closedFEq`).

Input (every key required; `quota`/`requires` may be `null` = unlimited / none):
`{"old": [[entry…]…], "new": [[entry…]…], "units": [{"old": [bits…], "new": [bits…],
"requirements": [name…]}…], "start": {"old": [[count…]…], "new": [[count…]…]},
"related": [{"old": …, "new": …}…]}` with `entry = {"allow": bool, "quota": n | null,
"requires": name | null}` and `bits` a string of `0`/`1`, one per position of its list.
Output: `{"closed": bool, "related": n, "units": m}`.
A joint certificate's input (two old and two new lists) may also carry `"listed": [{"action": name,
"vectors": [bits…]}…]` (each vector one bit per position of the four lists, in order) and
`"requirementNames": [name…]`; the output then adds `"unitsComplete"`: the units hold, for every listed
vector and every sublist of the names, the unit of that vector split at the lists' lengths with that
sublist (`cwuUnitsFromN`), and `"reqsNamed"`: the names cover every entry's requirement
(`cwuReqsInL`). These are the two premises on units that
`closedRelationPreservesWholeMonitorFromOracleChecked` takes as Boolean checks.
Shapes are checked before the closure: every bit string and usage vector must have the length of
its list and every group as many members as there are lists, because a short vector would make
first-fit stop early and the check vacuous. The Python side checks that the units cover every
effect (Z3); this judgment checks closure only. -/
namespace AgentWarrant.Oracle.Revision
open Lean AgentWarrant.Revision.Closure

abbrev Dec := Except String

def field (j : Json) (k : String) : Dec Json := j.getObjVal? k

def asArr (j : Json) (where_ : String) : Dec (List Json) :=
  match j.getArr? with
  | Except.ok a => pure a.toList
  | Except.error _ => throw s!"{where_}: expected a JSON array"

def mapD (f : Json → String → Dec α) (xs : List Json) (where_ : String) : Dec (List α) :=
  let rec go : Nat → List Json → Dec (List α)
    | _, [] => pure []
    | i, x :: rest => do
      let a ← f x s!"{where_}[{i}]"
      let r ← go (i + 1) rest
      pure (a :: r)
  go 0 xs

def natD (j : Json) (w : String) : Dec Nat :=
  match j.getNat? with
  | Except.ok n => pure n
  | Except.error _ => throw s!"{w}: expected a natural number"

def entryD (j : Json) (w : String) : Dec LEntry := do
  let allow ← match (← field j "allow").getBool? with
    | Except.ok b => pure b
    | Except.error _ => throw s!"{w}.allow: expected a boolean"
  let q ← field j "quota"
  let quota ← if q.isNull then pure none else some <$> natD q s!"{w}.quota"
  let r ← field j "requires"
  let requires ← if r.isNull then pure none else match r.getStr? with
    | Except.ok s => pure (some s)
    | Except.error _ => throw s!"{w}.requires: expected a string or null"
  pure ⟨allow, quota, requires⟩

def bitsD (j : Json) (w : String) : Dec (List Bool) := do
  let s ← match j.getStr? with
    | Except.ok s => pure s
    | Except.error _ => throw s!"{w}: expected a string of 0 and 1"
  mapD (fun c w' => match c.getStr? with
    | Except.ok "0" => pure false
    | Except.ok "1" => pure true
    | _ => throw s!"{w'}: expected 0 or 1") (s.toList.map (fun ch => Json.str (Char.toString ch))) w

def usageD (j : Json) (w : String) : Dec Usage := do
  mapD (fun v w' => do mapD natD (← asArr v w') w') (← asArr j w) w

def listsD (j : Json) (w : String) : Dec (List (List LEntry)) := do
  mapD (fun l w' => do mapD entryD (← asArr l w') w') (← asArr j w) w

def pairD (j : Json) (w : String) : Dec (Usage × Usage) := do
  pure (← usageD (← field j "old") s!"{w}.old", ← usageD (← field j "new") s!"{w}.new")

def unitD (j : Json) (w : String) : Dec Unit' := do
  let old ← mapD bitsD (← asArr (← field j "old") s!"{w}.old") s!"{w}.old"
  let new ← mapD bitsD (← asArr (← field j "new") s!"{w}.new") s!"{w}.new"
  let reqs ← mapD (fun r w' => match r.getStr? with
    | Except.ok s => pure s
    | Except.error _ => throw s!"{w'}: expected a string") (← asArr (← field j "requirements") s!"{w}.requirements") s!"{w}.requirements"
  pure ⟨old, new, reqs⟩

def strD (j : Json) (w : String) : Dec String :=
  match j.getStr? with
  | Except.ok s => pure s
  | Except.error _ => throw s!"{w}: expected a string"

def listedD (j : Json) (w : String) : Dec (String × List (List Bool)) := do
  let a ← strD (← field j "action") s!"{w}.action"
  let vs ← mapD bitsD (← asArr (← field j "vectors") s!"{w}.vectors") s!"{w}.vectors"
  pure (a, vs)

/-- Does every member of a group have the length of its list? -/
def fits (ls : List (List LEntry)) (xs : List (List α)) : Bool :=
  ls.length == xs.length && (List.zip ls xs).all (fun p => p.1.length == p.2.length)

-- the closure check as the judgment runs it ---------------------------------------------------
/-! `closedC` compares usage vectors with the generic `DecidableEq` of `List (List Nat) × List (List Nat)`
once per related pair, charged unit and related pair; the judgment runs `closedF`, the same check with
that comparison done by `Nat.beq` count by count (`eqU`), and `closedFEq` proves the two equal, so the
judgment's answer is still `closedC`'s. -/
/-- Equality of two count lists, by `Nat.beq`. -/
def eqN : List Nat → List Nat → Bool
  | [], [] => true
  | a :: as, b :: bs => Nat.beq a b && eqN as bs
  | _, _ => false

def eqU : Usage → Usage → Bool
  | [], [] => true
  | a :: as, b :: bs => eqN a b && eqU as bs
  | _, _ => false

theorem beqSelf (x : Nat) : Nat.beq x x = true := by
  cases h : Nat.beq x x with
  | true => rfl
  | false => exact absurd rfl (Nat.neOfBeqEqFalse h)

theorem eqNRefl : ∀ (a : List Nat), eqN a a = true
  | [] => rfl
  | x :: xs => by simp [eqN, beqSelf x, eqNRefl xs]

theorem eqNSound : ∀ (a b : List Nat), eqN a b = true → a = b
  | [], [], _ => rfl
  | [], _ :: _, h => by simp [eqN] at h
  | _ :: _, [], h => by simp [eqN] at h
  | x :: xs, y :: ys, h => by
    cases hx : Nat.beq x y with
    | false => simp [eqN, hx] at h
    | true =>
      have hr : eqN xs ys = true := by simp [eqN, hx] at h; exact h
      rw [Nat.eqOfBeqEqTrue hx, eqNSound xs ys hr]

theorem eqURefl : ∀ (a : Usage), eqU a a = true
  | [] => rfl
  | x :: xs => by simp [eqU, eqNRefl x, eqURefl xs]

theorem eqUSound : ∀ (a b : Usage), eqU a b = true → a = b
  | [], [], _ => rfl
  | [], _ :: _, h => by simp [eqU] at h
  | _ :: _, [], h => by simp [eqU] at h
  | x :: xs, y :: ys, h => by
    cases hx : eqN x y with
    | false => simp [eqU, hx] at h
    | true =>
      have hr : eqU xs ys = true := by simp [eqU, hx] at h; exact h
      rw [eqNSound x y hx, eqUSound xs ys hr]

def memF (rel : List (Usage × Usage)) (x : Usage × Usage) : Bool :=
  anyB (fun y => eqU y.1 x.1 && eqU y.2 x.2) rel

theorem pairEq (x y : Usage × Usage) : (eqU y.1 x.1 && eqU y.2 x.2) = decide (y = x) := by
  cases Decidable.em (y = x) with
  | inl h => rw [h, decideEqTrue (rfl : x = x), eqURefl, eqURefl]; rfl
  | inr h =>
    rw [decideEqFalse h]
    cases h1 : eqU y.1 x.1 with
    | false => rfl
    | true =>
      cases h2 : eqU y.2 x.2 with
      | false => rfl
      | true =>
        apply absurd _ h
        cases y with
        | mk a b => cases x with
          | mk c d => rw [eqUSound a c h1, eqUSound b d h2]

theorem memFEq (rel : List (Usage × Usage)) (x : Usage × Usage) : memF rel x = memR rel x := by
  have h : (fun y => eqU y.1 x.1 && eqU y.2 x.2) = (fun y => decide (y = x)) := funext (fun y => pairEq x y)
  show anyB _ rel = anyB _ rel
  rw [h]

def okUnitW (mem : Usage × Usage → Bool) (O N : List (List LEntry)) (s : Usage × Usage) (u : Unit') : Bool :=
  match stepAll u.reqs O s.1 u.old with
  | none => true
  | some o' => match stepAll u.reqs N s.2 u.new with
    | none => false
    | some n' => mem (o', n')

def closedW (mem : Usage × Usage → Bool) (O N : List (List LEntry)) (units : List Unit') (rel : List (Usage × Usage))
    (start : Usage × Usage) : Bool :=
  mem start && allB (fun s => allB (fun u => okUnitW mem O N s u) units) rel

/-- `closedC` with `memF` for `memR` (`closedFEq`). -/
def closedF (O N : List (List LEntry)) (units : List Unit') (rel : List (Usage × Usage)) (start : Usage × Usage) : Bool :=
  closedW (memF rel) O N units rel start

theorem closedFEq (O N : List (List LEntry)) (units : List Unit') (rel : List (Usage × Usage)) (start : Usage × Usage) :
    closedF O N units rel start = closedC O N units rel start := by
  have h : memF rel = memR rel := funext (fun x => memFEq rel x)
  show closedW (memF rel) O N units rel start = _
  rw [h]
  rfl

def simulationClosure (j : Json) : Dec Json := do
  let O ← listsD (← field j "old") "old"
  let N ← listsD (← field j "new") "new"
  let units ← mapD unitD (← asArr (← field j "units") "units") "units"
  let start ← pairD (← field j "start") "start"
  let rel ← mapD pairD (← asArr (← field j "related") "related") "related"
  if !(fits O start.1 && fits N start.2) then throw "start: a usage vector does not fit its list"
  for (p, i) in rel.zip (List.range rel.length) do
    if !(fits O p.1 && fits N p.2) then throw s!"related[{i}]: a usage vector does not fit its list"
  for (u, i) in units.zip (List.range units.length) do
    if !(fits O u.old && fits N u.new) then throw s!"units[{i}]: a bit string does not fit its list"
  let base := [("closed", toJson (closedF O N units rel start)), ("related", toJson rel.length),
    ("units", toJson units.length)]
  match j.getObjVal? "listed", j.getObjVal? "requirementNames" with
  | Except.ok l, Except.ok r => do
    let listed ← mapD listedD (← asArr l "listed") "listed"
    let names ← mapD strD (← asArr r "requirementNames") "requirementNames"
    let (n1, n2, n3) ← match O, N with
      | [l1, l2], [l3, _] => pure (l1.length, l2.length, l3.length)
      | _, _ => throw "listed: needs two old and two new lists"
    let complete := Monitor.Full.cwuUnitsFromN units n1 n2 n3 (listed.map Prod.fst)
      (Monitor.Full.cwuListedOf listed) (Monitor.Full.cwuSubsets names)
    pure $ Json.mkObj (base ++ [("unitsComplete", toJson complete),
      ("reqsNamed", toJson (Monitor.Full.cwuReqsInL names (O ++ N)))])
  | _, _ => pure $ Json.mkObj base

end AgentWarrant.Oracle.Revision
