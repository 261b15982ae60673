import AgentWarrant.Thm.Monitor.Full.Lineage
import AgentWarrant.Thm.Monitor.Full.Admitted
/-! Every call the whole monitor admits satisfies the origin and history rules in force in their
independent meanings (Agenra Sections 4.3, 4.4, 6.2), not in the executable checks the decision
runs: each origin rule routed through the tool finds its argument to be a handle with an inductive
derivation `Produced` (a chain of successful preserving records ending at a successful result of
the producer), and each history rule whose `before` names the tool is not pending (`PendingIn`) over
its scope, or the call is the required operation. The lineage scope is the records of the call's
ancestors (`Anc`, the transitive parents) in trace order, selected by any decision of `Anc`; one
exists (`ancDecided`). The hypothesis is Section 6.1's "parents precede their children", which every
state reached from a task's start meets (`reachableWellFormed`). -/
namespace AgentWarrant.Monitor.Full
open Lean AgentWarrant

/-- The records at the positions `f` selects, in trace order. -/
def selectRecords (tr : List Record) (f : Nat → Bool) : List Record :=
  (List.range (List.length tr)).filterMap (fun d => if f d then nth? tr d else none)

def OriginMeaning (p : Policy) (s : State) (c : Call) (t : Tool) : Prop :=
  ∀ o, o ∈ p.origins → (o.via == c.tool || o.via == t.operation) = true →
    ∃ d, c.refs.lookup o.argument = some d ∧ Produced s.trace o d

def HistoryMeaning (p : Policy) (s : State) (c : Call) (t : Tool) : Prop :=
  ∀ h, h ∈ p.histories → (t.name == h.before || t.operation == h.before) = true →
    (h.lineage = true → ∀ f : Nat → Bool, (∀ d, f d = true ↔ Anc s.trace c.parents d) →
      ¬ PendingIn h (selectRecords s.trace f) ∨ (t.name == h.require || t.operation == h.require) = true) ∧
    (h.lineage = false → ¬ PendingIn h s.trace ∨ (t.name == h.require || t.operation == h.require) = true)

/-- A prepared call's parents name records. -/
theorem preparedParentsBounded (p : Policy) (s : State) (c : Call) (t : Tool) (es : List Effect)
    (hp : prepare p s c = Except.ok (t, es)) : ∀ q, q ∈ c.parents → q < List.length s.trace := by
  intro q hq
  have ⟨r, hr, e⟩ := parentsFromRefs c q hq
  have ⟨rec, hrec, _⟩ := refsRecorded p s c t es hp r hr
  rw [e] at hrec
  exact nthLt s.trace q rec hrec

/-- `Anc` is decided (by the closure), so the lineage scope of `HistoryMeaning` is never vacuous. -/
theorem ancDecided (tr : List Record) (ps : List Nat) (hp : ParentsPrecede tr)
    (hps : ∀ q, q ∈ ps → q < List.length tr) : ∃ f : Nat → Bool, ∀ d, f d = true ↔ Anc tr ps d :=
  ⟨fun d => List.any (closure tr (List.length tr + 1) ps) (· == d), fun d =>
    ⟨fun h => (closureIff tr ps hp hps d).1 (anyBeqMem _ d h), fun h => memAnyBeq ((closureIff tr ps hp hps d).2 h)⟩⟩

theorem decideFullMeanings (p : Policy) (s : State) (c : Call) (l : Label) (pu pa : List Nat) (k : Option Nat)
    (hpp : ParentsPrecede s.trace) (h : decideFull p s c = Verdict.allow l pu pa k) :
    ∃ t es, prepare p s c = Except.ok (t, es) ∧ OriginMeaning p s c t ∧ HistoryMeaning p s c t := by
  have ⟨t, es, hp, _, _, _, hO, _, hH⟩ := decideFullPasses p s c l pu pa k h
  have hps := preparedParentsBounded p s c t es hp
  refine ⟨t, es, hp, ?_, ?_⟩
  · intro o ho hv
    have ⟨d, hd, hprod⟩ := hO o ho hv
    exact ⟨d, hd, (producedByIff s.trace o hpp d).1 hprod⟩
  · intro hr hm hb
    have hh := hH hr hm hb
    refine ⟨fun hl f hf => ?_, fun hl => ?_⟩
    · rw [hl] at hh
      exact (historyLineageIff hr s.trace c.parents hpp hps f hf t.name t.operation).1 hh
    · rw [hl] at hh
      exact (historyHoldsIff hr s.trace t.name t.operation).1 hh

/-- Over every trace from a task's start: every admitted call satisfied the origin and history rules
in force, in their independent meanings, in the state it was decided in. -/
def AdmittedMeaning (p : Policy) : State → List (Call × Outcome) → Prop
  | _, [] => True
  | s, (c, o) :: cs => (∀ l pu pa k, (stepFull p s c o).1 = Verdict.allow l pu pa k →
      ∃ t es, prepare p s c = Except.ok (t, es) ∧ OriginMeaning p s c t ∧ HistoryMeaning p s c t) ∧
    AdmittedMeaning p (stepFull p s c o).2 cs

theorem runFullAdmittedMeaning (p : Policy) : ∀ (cs : List (Call × Outcome)) (s : State), ParentsPrecede s.trace →
    AdmittedMeaning p s cs
  | [], _, _ => trivial
  | (c, o) :: cs, s, hpp =>
    ⟨fun l pu pa k h => decideFullMeanings p s c l pu pa k hpp (by rw [← stepFullVerdict p s c o]; exact h),
     runFullAdmittedMeaning p cs _ (stepFullParentsPrecede p s c o hpp)⟩

theorem reachableAdmittedMeaning (p : Policy) (cs : List (Call × Outcome)) : AdmittedMeaning p (initialState p) cs :=
  runFullAdmittedMeaning p cs _ (initialParentsPrecede p)

end AgentWarrant.Monitor.Full
