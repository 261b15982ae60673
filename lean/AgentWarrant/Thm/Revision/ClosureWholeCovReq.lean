import AgentWarrant.Thm.Revision.ClosureWholeCovOracle
/-! The closure check on the whole monitor with no hypothesis on the states' requirement lists and
no hypothesis that each prepared effect's action is among the oracle's (Agenra Sections 1 and 7.1).

The closure check reads a unit's requirement list only through `reqOk` on the requirements the
lists' entries ask for (`rqStepAll`, proved per operation of the check: first-fit, one list, all
lists, a run of units), so a call's unit may be replaced by a listed unit with the same match bits
and a requirement list that agrees with the state's on those requirements (`ReqAgree`). The subsets
of a list `R` naming every requirement of the four lists (`cwSubsets R`, each subset in `R`'s
order) hold, for every requirement list the monitor may keep, in whatever order it satisfied them,
one that agrees with it: the elements of `R` it contains (`cwSubsetsComplete`). The Python checker
writes one unit per vector and per subset of the sorted requirement names, each subset sorted:
`cwSubsets R` with `R` those names sorted.

An effect the monitor prepares comes from a declaration of one of the policy's tools
(`prepareParts`, `effectsOfFrom`), so `e.action ∈ acts` follows when `acts` names every action the
policy's tools declare (`CwActsNamed`), and the per-call conditions drop that conjunct
(`CwOracleSideR`).

Choices where the source is silent: `R` is any list naming the four lists' requirements (duplicates
and extra names only add units); the order of `Qs` and of `acts` does not matter. -/
namespace AgentWarrant.Revision.Closure
open AgentWarrant

/-- Two requirement lists agree on every requirement an entry of the lists asks for. -/
def ReqAgree (L : List (List LEntry)) (q q' : List String) : Prop :=
  ∀ es, es ∈ L → ∀ e, e ∈ es → reqOk q e.requires = reqOk q' e.requires

/-- First-fit's step at one entry, with the requirement test `c` and the rest of the search `rest`
as arguments, so that rewriting either leaves the step alone. -/
def rqFitF (used : List Nat) (k : Nat) (e : LEntry) (b c : Bool) (rest : Option (List Nat)) : Option (List Nat) :=
  match b && e.allow && c with
  | false => rest
  | true => match e.quota with
    | none => some used
    | some m => match Nat.ble (getN used k + 1) m with
      | true => some (incAt used k)
      | false => rest

theorem rqFitUnfold (q : List String) (used : List Nat) (k : Nat) (e : LEntry) (es : List LEntry) (b : Bool)
    (bs : List Bool) :
    firstFitU q used k (e :: es) (b :: bs) = rqFitF used k e b (reqOk q e.requires) (firstFitU q used (k + 1) es bs) :=
  rfl

theorem rqFirstFitU (q q' : List String) (used : List Nat) : ∀ (k : Nat) (es : List LEntry) (bs : List Bool),
    (∀ e, e ∈ es → reqOk q e.requires = reqOk q' e.requires) → firstFitU q used k es bs = firstFitU q' used k es bs
  | _, [], _, _ => rfl
  | _, _ :: _, [], _ => rfl
  | k, e :: es, b :: bs, h => by
    rw [rqFitUnfold, rqFitUnfold, h e (Mem.head _),
      rqFirstFitU q q' used (k + 1) es bs (fun x hx => h x (Mem.tail _ hx))]

def rqFitUF (d : Bool) (r : Option (List Nat)) : Option (List Nat) :=
  match d with
  | true => none
  | false => r

theorem rqFitUUnfold (es : List LEntry) (used : List Nat) (bits : List Bool) (q : List String) :
    fitU es used bits q = rqFitUF (denyHit es bits) (firstFitU q used 0 es bits) := rfl

def rqStepF (a : Option (List Nat)) (r : Option Usage) : Option Usage :=
  match a, r with
  | some u', some us' => some (u' :: us')
  | _, _ => none

theorem rqStepUnfold (q : List String) (es : List LEntry) (ls : List (List LEntry)) (u : List Nat) (us : Usage)
    (b : List Bool) (bs : Bits) :
    stepAll q (es :: ls) (u :: us) (b :: bs) = rqStepF (fitU es u b q) (stepAll q ls us bs) := rfl

-- The shapes `stepAll` refuses, each against its value: comparing the two sides directly sends the
-- elaborator's unifier into `q` and `q'` and takes it tens of seconds.
theorem rqStepNNN (q : List String) : stepAll q [] [] [] = some [] := rfl
theorem rqStepNNC (q : List String) (b : List Bool) (bs : Bits) : stepAll q [] [] (b :: bs) = none := rfl
theorem rqStepNC (q : List String) (u : List Nat) (us : Usage) (bs : Bits) : stepAll q [] (u :: us) bs = none := rfl
theorem rqStepCN (q : List String) (es : List LEntry) (ls : List (List LEntry)) (bs : Bits) :
    stepAll q (es :: ls) [] bs = none := rfl
theorem rqStepCCN (q : List String) (es : List LEntry) (ls : List (List LEntry)) (u : List Nat) (us : Usage) :
    stepAll q (es :: ls) (u :: us) [] = none := rfl

/-- One unit on all lists: agreeing requirement lists step alike. -/
theorem rqStepAll (q q' : List String) : ∀ (L : List (List LEntry)) (us : Usage) (bs : Bits),
    ReqAgree L q q' → stepAll q L us bs = stepAll q' L us bs
  | [], [], [], _ => by rw [rqStepNNN, rqStepNNN]
  | [], [], _ :: _, _ => by rw [rqStepNNC, rqStepNNC]
  | [], _ :: _, _, _ => by rw [rqStepNC, rqStepNC]
  | _ :: _, [], _, _ => by rw [rqStepCN, rqStepCN]
  | _ :: _, _ :: _, [], _ => by rw [rqStepCCN, rqStepCCN]
  | es :: L, u :: us, b :: bs, h => by
    rw [rqStepUnfold, rqStepUnfold, rqFitUUnfold, rqFitUUnfold, rqFirstFitU q q' u 0 es b (h es (Mem.head _)),
      rqStepAll q q' L us bs (fun es' hes => h es' (Mem.tail _ hes))]

def rqRunF (side : Bool) (L : List (List LEntry)) (r : Option Usage) (xs : List Unit') : Option Usage :=
  match r with
  | none => none
  | some u' => runSide side L u' xs

theorem rqRunOld (L : List (List LEntry)) (u : Usage) (x : Unit') (xs : List Unit') :
    runSide true L u (x :: xs) = rqRunF true L (stepAll x.reqs L u x.old) xs := rfl

theorem rqRunNew (L : List (List LEntry)) (u : Usage) (x : Unit') (xs : List Unit') :
    runSide false L u (x :: xs) = rqRunF false L (stepAll x.reqs L u x.new) xs := rfl

theorem rqRunNone (side : Bool) (L : List (List LEntry)) (xs : List Unit') : rqRunF side L none xs = none := rfl

theorem rqRunSome (side : Bool) (L : List (List LEntry)) (u : Usage) (xs : List Unit') :
    rqRunF side L (some u) xs = runSide side L u xs := rfl

/-- A client's units, each replaced by a listed unit with the same bits and an agreeing requirement
list, run the same on both sides. -/
theorem rqRunSide (O N : List (List LEntry)) (units : List Unit') : ∀ (xs : List Unit'),
    (∀ x, x ∈ xs → ∃ y, y ∈ units ∧ y.old = x.old ∧ y.new = x.new ∧ ReqAgree O x.reqs y.reqs ∧ ReqAgree N x.reqs y.reqs) →
    ∃ ys, (∀ y, y ∈ ys → y ∈ units) ∧ (∀ u, runSide true O u xs = runSide true O u ys) ∧
      (∀ u, runSide false N u xs = runSide false N u ys)
  | [], _ => ⟨[], fun _ h => absurd h notMemNil, fun _ => rfl, fun _ => rfl⟩
  | x :: xs, h => by
    have ⟨y, hy, ho, hn, ao, an⟩ := h x (Mem.head _)
    have ⟨ys, hys, r1, r2⟩ := rqRunSide O N units xs (fun z hz => h z (Mem.tail _ hz))
    refine ⟨y :: ys, ?_, ?_, ?_⟩
    · intro z hz
      cases hz with
      | head _ => exact hy
      | tail _ hz' => exact hys z hz'
    · intro u
      rw [rqRunOld, rqRunOld, ho, rqStepAll x.reqs y.reqs O u x.old ao]
      cases stepAll y.reqs O u x.old with
      | none => rw [rqRunNone, rqRunNone]
      | some v => rw [rqRunSome, rqRunSome]; exact r1 v
    · intro u
      rw [rqRunNew, rqRunNew, hn, rqStepAll x.reqs y.reqs N u x.new an]
      cases stepAll y.reqs N u x.new with
      | none => rw [rqRunNone, rqRunNone]
      | some v => rw [rqRunSome, rqRunSome]; exact r2 v

end AgentWarrant.Revision.Closure
