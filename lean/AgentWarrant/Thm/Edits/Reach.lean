import AgentWarrant.Spec.Edits.Reach
import AgentWarrant.Thm.Edits.Machine
import AgentWarrant.Thm.Edits.Rename
/-! Theorem 4 over the runtime's reachable states, up to renaming (*When Can Agents Safely
Checkpoint, Fork, Restore, and Merge?*, Section VII, Appendices A-F and A-G; Lemma 14's reachability of
the record pairs). Definitions in `Spec/Edits/Reach.lean`.

- Every reachable state satisfies the machine model's `AgentSec` (`reachableSec`), and a record's
  check instance is the derived instance the machine checks whenever the derivation carries the
  state's log (`recordInst`, `recordDecideAgrees`: the record's `Decide` answer accepts exactly when
  the machine's check does, with the same set).
- Lemma 14 (A-G): under the derivation `der0` and the root `root0`, each of Table II's record pairs
  (P, I, E, C, the `Decide` pair for E, `Drop_ra`) consists of records of states reached from the
  common initial state by runtime events — the root update, a tool call creating a record (`new`),
  Dispatch, a rule update to version 1 — and the common requests are ones an Agent holds there
  (`pairsReachable`, `pairStates`: the states' logs, queues and versions, by evaluation).
- Theorem 4: over the reachable records and requests, `Keep_J` is exact up to renaming iff `J`
  names all four parts (`keepExactReachIff`); the "if" half holds for every derivation and root
  (`keepExactReachOfAll`). `Drop_ca` and `Drop_ra` are inexact over the reachable records too. -/
namespace AgentWarrant.Edits.Reach
open AgentWarrant AgentWarrant.Edits

/-- Every reachable state satisfies `AgentSec` (Lemma 14 with Lemma 15). -/
theorem reachableSec {der : Machine.Derivation} {root : Machine.Derived} {S : Machine.RState}
    (h : Reachable der root S) : Machine.AgentSec S.core := by
  induction h with
  | start hs => exact Machine.startSec hs
  | step e _ ih => exact Machine.stepSec der _ e ih

theorem mapAuthAction : ∀ l : List Machine.Auth,
    List.map AuthRec.action (List.map authRecOf l) = List.map Machine.Auth.action l
  | [] => rfl
  | a :: l => by simp only [List.map]; rw [mapAuthAction l]; rfl

/-- The record's check instance is the derived instance the machine checks, when the derivation's
`Δ` is the state's log. -/
theorem recordInst (S : Machine.RState) (d : Machine.Derived) (h : d.inst.log = Machine.logActions S.core) :
    (recordOf S d).inst = build d.inst := by
  show (⟨(build d.inst).outs, (build d.inst).act, (build d.inst).lab,
    List.map AuthRec.action (List.map authRecOf S.core.log), (build d.inst).policy⟩ : Inst) = build d.inst
  rw [mapAuthAction]
  show _ = (⟨(build d.inst).outs, (build d.inst).act, (build d.inst).lab, d.inst.log, (build d.inst).policy⟩ : Inst)
  rw [h]
  rfl

/-- The record's `Decide` answer is the machine's check: `Reject` exactly when the machine rejects,
and otherwise the machine's accepted set. -/
theorem recordDecideAgrees (der : Machine.Derivation) (S : Machine.RState) (u : Nat) (d : Machine.Derived)
    (hd : der S.core u = some d) (h : d.inst.log = Machine.logActions S.core) :
    (ans (recordOf S d) Query.decide = Answer.rejected ↔
      Machine.check der S.core u = Machine.Answer.rejected u S.core) ∧
    ∀ B, ans (recordOf S d) Query.decide = Answer.accepted B ↔
      Machine.check der S.core u = Machine.Answer.accepted u S.core S.core.eta d.etaNew B := by
  have ha : ans (recordOf S d) Query.decide = decideAnswer (safeSet (build d.inst)) := by
    show decideAnswer (safeSet (recordOf S d).inst) = _
    rw [recordInst S d h]
  rw [ha]
  cases hs : safeSet (build d.inst) with
  | nil =>
    have hc : Machine.check der S.core u = Machine.Answer.rejected u S.core := by
      simp only [Machine.check, hd, hs]
      rfl
    rw [hc]
    exact ⟨⟨fun _ => rfl, fun _ => rfl⟩, fun B => ⟨fun e => Answer.noConfusion e, fun e => Machine.Answer.noConfusion e⟩⟩
  | cons s ss =>
    have hc : Machine.check der S.core u = Machine.Answer.accepted u S.core S.core.eta d.etaNew (s :: ss) := by
      simp only [Machine.check, hd, hs]
      rfl
    rw [hc]
    refine ⟨⟨fun e => Answer.noConfusion e, fun e => Machine.Answer.noConfusion e⟩, fun B => ⟨fun e => ?_, fun e => ?_⟩⟩
    · have e' : Answer.accepted (s :: ss) = Answer.accepted B := e
      rw [Answer.accepted.inj e']
    · have e' := Machine.Answer.accepted.inj e
      show Answer.accepted (s :: ss) = Answer.accepted B
      rw [e'.2.2.2.2]

/-- `der0` carries the state's log as `Δ`. -/
theorem der0Log (c : Machine.Core) (u : Nat) (d : Machine.Derived) (h : der0 c u = some d) :
    d.inst.log = Machine.logActions c := by
  simp only [der0] at h
  cases ht : table u with
  | none => rw [ht] at h; exact Option.noConfusion h
  | some t =>
    rw [ht] at h
    cases t with
    | mk o al => cases al with
      | mk a l =>
        have e : mkDerived o a l (Machine.logActions c) = d := Option.some.inj h
        subst e
        rfl

-- the reached states -----------------------------------------------------------------------------

/-- The common initial state: the accepted root update. -/
def sStart : Machine.RState := match Machine.start root0 with
  | some S => S
  | none => ⟨Machine.empty, []⟩

theorem startOk : Machine.start root0 = some sStart := rfl

/-- Call 0 uses action 0 (`new`): record 1, created by call 0, its request queued. -/
def sE0 : Machine.RState := (Machine.stepR der0 sStart (Machine.Ev.use 0 (some 0) true)).2
/-- Then `Dispatch`: the request is sent. -/
def sE1 : Machine.RState := (Machine.stepR der0 sE0 Machine.Ev.dispatch).2
/-- The root contract re-installed under version 1 (edit 8: checked, then the rule update). -/
def sV1 : Machine.RState :=
  (Machine.stepR der0 sStart (Machine.Ev.update 8 (Machine.check der0 sStart.core 8))).2
/-- Under version 1, call 0 uses action 0 (`new`). -/
def sC1 : Machine.RState := (Machine.stepR der0 sV1 (Machine.Ev.use 0 (some 1) true)).2
def sR0 : Machine.RState := (Machine.stepR der0 sC1 Machine.Ev.dispatch).2
/-- The root contract re-installed under version 1 with `q_act(0) = 1` (edit 9). -/
def sW1 : Machine.RState :=
  (Machine.stepR der0 sStart (Machine.Ev.update 9 (Machine.check der0 sStart.core 9))).2
def sW2 : Machine.RState := (Machine.stepR der0 sW1 (Machine.Ev.use 0 (some 1) true)).2
def sR1 : Machine.RState := (Machine.stepR der0 sW2 Machine.Ev.dispatch).2

theorem rStart : Reachable der0 root0 sStart := Reachable.start startOk
theorem rE0 : Reachable der0 root0 sE0 := Reachable.step _ rStart
theorem rE1 : Reachable der0 root0 sE1 := Reachable.step _ rE0
theorem rV1 : Reachable der0 root0 sV1 := Reachable.step _ rStart
theorem rC1 : Reachable der0 root0 sC1 := Reachable.step _ rV1
theorem rR0 : Reachable der0 root0 sR0 := Reachable.step _ rC1
theorem rW1 : Reachable der0 root0 sW1 := Reachable.step _ rStart
theorem rW2 : Reachable der0 root0 sW2 := Reachable.step _ rW1
theorem rR1 : Reachable der0 root0 sR1 := Reachable.step _ rW2

/-- What each event did, by evaluation: the log and the active version of each reached state. -/
theorem logStart : sStart.core.log = [] := rfl
theorem etaStart : sStart.core.eta = some 0 := rfl
theorem logE0 : sE0.core.log = [⟨0, 0, false, none⟩] := rfl
theorem etaE0 : sE0.core.eta = some 0 := rfl
theorem logE1 : sE1.core.log = [⟨0, 0, true, none⟩] := rfl
theorem etaE1 : sE1.core.eta = some 0 := rfl
theorem logC1 : sC1.core.log = [⟨0, 0, false, none⟩] := rfl
theorem etaC1 : sC1.core.eta = some 1 := rfl
theorem logR0 : sR0.core.log = [⟨0, 0, true, none⟩] := rfl
theorem etaR0 : sR0.core.eta = some 1 := rfl
theorem logR1 : sR1.core.log = [⟨1, 0, true, none⟩] := rfl
theorem etaR1 : sR1.core.eta = some 1 := rfl

/-- `pairStates`: the reached states, each event having taken effect (a denied tool call or a
`NoCommit` update would leave the log or the version unchanged). -/
theorem pairStates :
    sStart.core.log = [] ∧ sStart.core.eta = some 0 ∧
    sE0.core.log = [⟨0, 0, false, none⟩] ∧ sE0.core.eta = some 0 ∧
    sE1.core.log = [⟨0, 0, true, none⟩] ∧ sE1.core.eta = some 0 ∧
    sC1.core.log = [⟨0, 0, false, none⟩] ∧ sC1.core.eta = some 1 ∧
    sR0.core.log = [⟨0, 0, true, none⟩] ∧ sR0.core.eta = some 1 ∧
    sR1.core.log = [⟨1, 0, true, none⟩] ∧ sR1.core.eta = some 1 :=
  ⟨logStart, etaStart, logE0, etaE0, logE1, etaE1, logC1, etaC1, logR0, etaR0, logR1, etaR1⟩

-- the record pairs ---------------------------------------------------------------------------------

def mkD (u : Nat) (Δ : List Nat) : Machine.Derived := match table u with
  | some (o, a, l) => mkDerived o a l Δ
  | none => root0

/-- The record of a state with log `log` and active version `eta`, checked for edit `u` under
`der0`. -/
def recL (log : List Machine.Auth) (eta : Option Nat) (u : Nat) : Record :=
  ⟨⟨(build (mkD u (List.map Machine.Auth.action log)).inst).outs⟩,
   ⟨(build (mkD u (List.map Machine.Auth.action log)).inst).act, (build (mkD u (List.map Machine.Auth.action log)).inst).lab⟩,
   ⟨List.map authRecOf log, (build (mkD u (List.map Machine.Auth.action log)).inst).policy, queuedOf log⟩,
   ⟨versionOf eta⟩⟩

theorem reachL {S : Machine.RState} (h : Reachable der0 root0 S) (u : Nat) (hu : table u ≠ none)
    {log : List Machine.Auth} {eta : Option Nat} (hl : S.core.log = log) (he : S.core.eta = eta) :
    ReachRec der0 root0 (recL log eta u) := by
  rw [← hl, ← he]
  refine ⟨S, u, mkD u (Machine.logActions S.core), h, ?_, rfl⟩
  simp only [der0, mkD]
  cases ht : table u with
  | none => exact absurd ht hu
  | some t => cases t with
    | mk o al => cases al with
      | mk a l => rfl

def lE0 : List Machine.Auth := [⟨0, 0, false, none⟩]
def lE1 : List Machine.Auth := [⟨0, 0, true, none⟩]
def lR1 : List Machine.Auth := [⟨1, 0, true, none⟩]

def qE : Query := Query.tryUpdate (check (recL lE0 (some 0) 4))

/-- Table II over reachable states: for each part, two reachable records and the common request. -/
def rpair : Part → Record × Record × Query
  | Part.P => (recL [] (some 0) 0, recL [] (some 0) 1, Query.decide)
  | Part.I => (recL [] (some 0) 2, recL [] (some 0) 3, Query.decide)
  | Part.E => (recL lE0 (some 0) 4, recL lE1 (some 0) 4, qE)
  | Part.C => (recL lE0 (some 0) 4, recL lE0 (some 1) 4, qE)

theorem someNe (a : α) : some a ≠ none := fun e => Option.noConfusion e

/-- Lemma 14's reachability: each pair's records are records of reachable states, and the common
request is `Decide` or the update of an answer checked at a reachable record. -/
theorem pairsReachable (x : Part) :
    ReachRec der0 root0 (rpair x).1 ∧ ReachRec der0 root0 (rpair x).2.1 ∧ ReachQ der0 root0 (rpair x).2.2 := by
  have hq : ReachQ der0 root0 qE := ⟨_, reachL rE0 4 (someNe _) logE0 etaE0, rfl⟩
  cases x with
  | P => exact ⟨reachL rStart 0 (someNe _) logStart etaStart, reachL rStart 1 (someNe _) logStart etaStart, trivial⟩
  | I => exact ⟨reachL rStart 2 (someNe _) logStart etaStart, reachL rStart 3 (someNe _) logStart etaStart, trivial⟩
  | E => exact ⟨reachL rE0 4 (someNe _) logE0 etaE0, reachL rE1 4 (someNe _) logE1 etaE1, hq⟩
  | C => exact ⟨reachL rE0 4 (someNe _) logE0 etaE0, reachL rC1 4 (someNe _) logC1 etaC1, hq⟩

/-- The `Decide` pair for E and the `Drop_ra` pair are reachable too. -/
theorem extraPairsReachable :
    ReachRec der0 root0 (recL [] (some 0) 5) ∧ ReachRec der0 root0 (recL lE1 (some 0) 5) ∧
    ReachRec der0 root0 (recL lE1 (some 1) 6) ∧ ReachRec der0 root0 (recL lR1 (some 1) 7) :=
  ⟨reachL rStart 5 (someNe _) logStart etaStart, reachL rE1 5 (someNe _) logE1 etaE1,
   reachL rR0 6 (someNe _) logR0 etaR0, reachL rR1 7 (someNe _) logR1 etaR1⟩

-- The pairs' records are evaluated; the default bound on the elaborator's unfolding is small for
-- records whose policy words are computed.
set_option maxHeartbeats 400000

/-- Each pair differs only in its part (by evaluation). -/
theorem rpairPi : (rpair Part.P).1.i = (rpair Part.P).2.1.i := rfl
theorem rpairPe : (rpair Part.P).1.e = (rpair Part.P).2.1.e := by decide
theorem rpairPc : (rpair Part.P).1.c = (rpair Part.P).2.1.c := rfl
theorem rpairIp : (rpair Part.I).1.p = (rpair Part.I).2.1.p := rfl
theorem rpairIe : (rpair Part.I).1.e = (rpair Part.I).2.1.e := by decide
theorem rpairIc : (rpair Part.I).1.c = (rpair Part.I).2.1.c := rfl
theorem rpairEp : (rpair Part.E).1.p = (rpair Part.E).2.1.p := rfl
theorem rpairEi : (rpair Part.E).1.i = (rpair Part.E).2.1.i := rfl
theorem rpairEc : (rpair Part.E).1.c = (rpair Part.E).2.1.c := rfl
theorem rpairCp : (rpair Part.C).1.p = (rpair Part.C).2.1.p := rfl
theorem rpairCi : (rpair Part.C).1.i = (rpair Part.C).2.1.i := rfl
theorem rpairCe : (rpair Part.C).1.e = (rpair Part.C).2.1.e := rfl

theorem rpairCollapses (J : Part → Bool) (x : Part) (hx : J x = false) :
    keepJ J (rpair x).1 = keepJ J (rpair x).2.1 := by
  cases x with
  | P => exact keepCollapses J _ _ (notKept hx) (fun _ => rpairPi) (fun _ => rpairPe) (fun _ => rpairPc)
  | I => exact keepCollapses J _ _ (fun _ => rpairIp) (notKept hx) (fun _ => rpairIe) (fun _ => rpairIc)
  | E => exact keepCollapses J _ _ (fun _ => rpairEp) (fun _ => rpairEi) (notKept hx) (fun _ => rpairEc)
  | C => exact keepCollapses J _ _ (fun _ => rpairCp) (fun _ => rpairCi) (fun _ => rpairCe) (notKept hx)

/-- The verdicts, by evaluation: each pair's first record is accepted (or updated), the second
rejected (or `NoCommit`). -/
theorem posP0 : positive (ans (rpair Part.P).1 (rpair Part.P).2.2) = true := rfl
theorem posP1 : positive (ans (rpair Part.P).2.1 (rpair Part.P).2.2) = false := rfl
theorem posI0 : positive (ans (rpair Part.I).1 (rpair Part.I).2.2) = true := rfl
theorem posI1 : positive (ans (rpair Part.I).2.1 (rpair Part.I).2.2) = false := rfl
theorem posE0 : positive (ans (rpair Part.E).1 (rpair Part.E).2.2) = true := rfl
theorem posE1 : positive (ans (rpair Part.E).2.1 (rpair Part.E).2.2) = false := rfl
theorem posC1 : positive (ans (rpair Part.C).2.1 (rpair Part.C).2.2) = false := rfl
theorem posL0 : positive (ans (recL [] (some 0) 5) Query.decide) = true := rfl
theorem posL1 : positive (ans (recL lE1 (some 0) 5) Query.decide) = false := rfl
theorem posR0 : positive (ans (recL lE1 (some 1) 6) Query.decide) = true := rfl
theorem posR1 : positive (ans (recL lR1 (some 1) 7) Query.decide) = false := rfl

theorem boolNe : ∀ {a b : Bool}, a = true → b = false → a ≠ b
  | _, _, ha, hb, e => by rw [ha, hb] at e; exact Bool.noConfusion e

theorem rpairNotIso (x : Part) (π : Ren) :
    ans (rpair x).1 (rpair x).2.2 ≠ renAnswer π (ans (rpair x).2.1 (rpair x).2.2) := by
  cases x with
  | P => exact notIsoOfPositive (boolNe posP0 posP1) π
  | I => exact notIsoOfPositive (boolNe posI0 posI1) π
  | E => exact notIsoOfPositive (boolNe posE0 posE1) π
  | C => exact notIsoOfPositive (boolNe posE0 posC1) π

-- Theorem 4 over reachable states -----------------------------------------------------------------

/-- Exactness over all records implies it over any set of records and requests. -/
theorem exactROnOf {R : Record → Prop} {Q : Query → Prop} {ren : Ren → β → β} {fits : Ren → β → Prop}
    {f : Record → β} (h : ExactR ren fits f) : ExactROn R Q ren fits f :=
  fun V₀ V₁ q₀ q₁ π _ _ _ _ hf hq e eq => h V₀ V₁ q₀ q₁ π hf hq e eq

/-- Lemma 12 over a set of records and requests. -/
theorem exactROnSeparates {R : Record → Prop} {Q : Query → Prop} {ren : Ren → β → β} {fits : Ren → β → Prop}
    {f : Record → β} (hf : ExactROn R Q ren fits f) {V₀ V₁ : Record} {q₀ q₁ : Query}
    (r₀ : R V₀) (r₁ : R V₁) (s₀ : Q q₀) (s₁ : Q q₁)
    (h : ∀ π', ans V₀ q₀ ≠ renAnswer π' (ans V₁ q₁)) (π : Ren)
    (h₁ : fits π (f V₁)) (h₂ : FitsQ π q₁) (hq : q₀ = renQuery π q₁) : f V₀ ≠ ren π (f V₁) :=
  fun e => let ⟨π', e'⟩ := hf V₀ V₁ q₀ q₁ π r₀ r₁ s₀ s₁ h₁ h₂ e hq; h π' e'

/-- The "if" half for every derivation and root: keeping all four parts is exact on reachable
records. -/
theorem keepExactReachOfAll (der : Machine.Derivation) (root : Machine.Derived) (J : Part → Bool)
    (hJ : ∀ x, J x = true) : ExactROn (ReachRec der root) (ReachQ der root) renView FitsView (keepJ J) :=
  exactROnOf ((keepExactRIff J).2 hJ)

/-- Theorem 4 over the runtime's reachable states, up to renaming: on the records of states
reached from the common initial state, with the requests an Agent holds there, `Keep_J` is exact iff
`J` names all four parts. -/
theorem keepExactReachIff (J : Part → Bool) :
    ExactROn (ReachRec der0 root0) (ReachQ der0 root0) renView FitsView (keepJ J) ↔ ∀ x, J x = true := by
  constructor
  · intro hE x
    cases hx : J x with
    | true => rfl
    | false =>
      have e : keepJ J (rpair x).1 = renView Ren.id (keepJ J (rpair x).2.1) := by
        rw [renViewId]; exact rpairCollapses J x hx
      have ⟨r₀, r₁, s⟩ := pairsReachable x
      exact absurd e (exactROnSeparates hE r₀ r₁ s s (rpairNotIso x) Ren.id (fitsViewId _) (fitsQId _)
        (renQueryId _).symm)
  · exact keepExactReachOfAll der0 root0 J

/-- `Drop_ca` is inexact on reachable records: the I pair's views are equal. -/
theorem dropCAInexactReach : ¬ ExactROn (ReachRec der0 root0) (ReachQ der0 root0) renDropCA FitsDropCA dropCA := by
  intro hE
  have e : dropCA (rpair Part.I).1 = renDropCA Ren.id (dropCA (rpair Part.I).2.1) := by
    show dropCA (rpair Part.I).1 = (renP Ren.id _, reindex Perm.id (fun d => d) _, reindex Perm.id (fun d => d) _,
      renE Ren.id _, renC Ren.id _)
    rw [renPId, reindexId, reindexId, renEId, renCId]
    decide
  have ⟨r₀, r₁, s⟩ := pairsReachable Part.I
  exact exactROnSeparates hE r₀ r₁ s s (rpairNotIso Part.I) Ren.id ⟨permOnId _, permOnId _, rfl⟩ trivial rfl e

/-- `Drop_ra` is inexact on reachable records: the `Drop_ra` pair (the creator call's action `0` /
`1`, both reached under version 1) has equal views. -/
theorem dropRAInexactReach : ¬ ExactROn (ReachRec der0 root0) (ReachQ der0 root0) renDropRA FitsDropRA dropRA := by
  intro hE
  have e : dropRA (recL lE1 (some 1) 6) = renDropRA Ren.id (dropRA (recL lR1 (some 1) 7)) := by
    rw [renDropRAId]
    decide
  have ⟨_, _, r₀, r₁⟩ := extraPairsReachable
  exact exactROnSeparates hE (q₀ := Query.decide) (q₁ := Query.decide) r₀ r₁ trivial trivial
    (fun π' => notIsoOfPositive (boolNe posR0 posR1) π') Ren.id
    ⟨permOnId _, permOnId _, rfl⟩ trivial rfl e

/-- E matters at `Decide` on reachable records too: one more earlier authorization (call 0's `new`,
then Dispatch) flips the verdict, and the two records agree on P, I and C. -/
theorem logPairReach (J : Part → Bool) (hx : J Part.E = false) :
    keepJ J (recL [] (some 0) 5) = keepJ J (recL lE1 (some 0) 5) ∧
    ans (recL [] (some 0) 5) Query.decide ≠ ans (recL lE1 (some 0) 5) Query.decide := by
  refine ⟨keepCollapses J _ _ (fun _ => rfl) (fun _ => rfl) (notKept hx) (fun _ => rfl), ?_⟩
  exact fun e => boolNe posL0 posL1 (congrArg positive e)

end AgentWarrant.Edits.Reach
