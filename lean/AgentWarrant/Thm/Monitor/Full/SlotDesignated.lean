import AgentWarrant.Thm.Monitor.Full.JsonExact
import AgentWarrant.Thm.Monitor.Full.Permits
import AgentWarrant.Thm.Monitor.Full.Determinism
/-! Which lookups make up a slot's history, stated without the step (Agenra Section 5.1: "the rule
fixes the lookup tool, exact arguments and result-field path before execution"; Section 6.3: a
successful designated lookup updates the bindings, and results are observed only after Allow and
declared success).

`Applies`: a resolver applies to a call when it names the call's tool and its argument object is
`JEq` (declarative JSON equality) to the call's arguments. `Applying c rs ks`: `ks` is the sublist of
the resolvers `rs` that apply, in declaration order. `Designated`: an admitted call (the monitor's
decision is Allow) with a successful outcome designates one lookup per applying resolver, each reading
the outcome's value under the new record's ID (the trace length before the call); any other call
designates none. `RunDesignated`: a trace's lookups are its calls' designated lookups, in order, each
call taken in the state the monitor reached before it. None of these calls `stepLookups`, `observe`
or `jeq`; admission is the monitor's own decision (`decideFull`), since the trace is the monitor's.
The address a lookup finds is read at the resolver's path by `history`.

Every relation is functional with no hypothesis (`applyingUnique`, `designatedUnique`,
`runDesignatedUnique`). The step's lists satisfy them whenever every resolver's arguments nest less
deep than `jsonFuel` (`ArgsWithin`; `designatedStep`, `runDesignatedLookups`), the hypothesis under
which `jeq` decides `JEq` (`jeqResolversApplying`); it holds of every policy the oracle decodes from an
input its guard admits (`policyArgsWithin`). So `stepLookups` and `runLookups` list exactly the
designated lookups (`stepLookupsDesignated`, `runLookupsDesignated`), and the slot meaning over runs
holds with the history built from them (`slotsOverDesignated`). -/
namespace AgentWarrant.Monitor.Full
open Lean AgentWarrant

/-- Section 5.1: a resolver applies to a call when it names the call's tool and its arguments equal
the call's as JSON values. -/
def Applies (c : Call) (r : Resolver) : Prop := r.tool = c.tool ∧ JEq r.args (argsJson c.args)

/-- `ks` is the sublist of `rs` whose resolvers apply to the call, in declaration order. -/
inductive Applying (c : Call) : List Resolver → List Resolver → Prop
  | nil : Applying c [] []
  | keep {r : Resolver} {rs ks : List Resolver} : Applies c r → Applying c rs ks → Applying c (r :: rs) (r :: ks)
  | skip {r : Resolver} {rs ks : List Resolver} : ¬ Applies c r → Applying c rs ks → Applying c (r :: rs) ks

/-- The lookups one call designates: on Allow with a successful outcome, one per applying resolver,
reading the outcome's value under the new record's ID; otherwise none. -/
inductive Designated (p : Policy) (s : State) (c : Call) (o : Outcome) : List Lookup → Prop
  | admittedOk {l : Label} {pu pa : List Nat} {k : Option Nat} {ks : List Resolver} :
      decideFull p s c = Verdict.allow l pu pa k → o.ok = true → Applying c p.resolvers ks →
      Designated p s c o (ks.map (fun r => (o.value, List.length s.trace, r)))
  | notAdmitted : (∀ l pu pa k, decideFull p s c ≠ Verdict.allow l pu pa k) → Designated p s c o []
  | failed : o.ok = false → Designated p s c o []

/-- The lookups a trace designates, in order, each call taken in the state the monitor reached. -/
inductive RunDesignated (p : Policy) : State → List (Call × Outcome) → List Lookup → Prop
  | nil {s : State} : RunDesignated p s [] []
  | cons {s : State} {c : Call} {o : Outcome} {cs : List (Call × Outcome)} {L M : List Lookup} :
      Designated p s c o L → RunDesignated p (stepFull p s c o).2 cs M → RunDesignated p s ((c, o) :: cs) (L ++ M)

/-- Every resolver's arguments nest less deep than `jsonFuel`. -/
def ArgsWithin (p : Policy) : Prop := ∀ r, r ∈ p.resolvers → ∃ n, Depth n r.args ∧ n < jsonFuel

-- functional, with no hypothesis -----------------------------------------------------------------

theorem applyingUnique {c : Call} : ∀ {rs ks ks' : List Resolver}, Applying c rs ks → Applying c rs ks' → ks = ks'
  | _, _, _, Applying.nil, Applying.nil => rfl
  | _, _, _, Applying.keep _ h, Applying.keep _ h' => by rw [applyingUnique h h']
  | _, _, _, Applying.keep a _, Applying.skip na _ => absurd a na
  | _, _, _, Applying.skip na _, Applying.keep a _ => absurd a na
  | _, _, _, Applying.skip _ h, Applying.skip _ h' => applyingUnique h h'

theorem designatedUnique {p : Policy} {s : State} {c : Call} {o : Outcome} {L L' : List Lookup}
    (h : Designated p s c o L) (h' : Designated p s c o L') : L = L' := by
  cases h with
  | admittedOk hd ho ha =>
    cases h' with
    | admittedOk _ _ ha' => rw [applyingUnique ha ha']
    | notAdmitted hn => exact absurd hd (hn _ _ _ _)
    | failed hf => rw [ho] at hf; cases hf
  | notAdmitted hn =>
    cases h' with
    | admittedOk hd _ _ => exact absurd hd (hn _ _ _ _)
    | notAdmitted _ => rfl
    | failed _ => rfl
  | failed hf =>
    cases h' with
    | admittedOk _ ho _ => rw [ho] at hf; cases hf
    | notAdmitted _ => rfl
    | failed _ => rfl

theorem runDesignatedUnique {p : Policy} : ∀ {s : State} {cs : List (Call × Outcome)} {L L' : List Lookup},
    RunDesignated p s cs L → RunDesignated p s cs L' → L = L'
  | _, _, _, _, RunDesignated.nil, RunDesignated.nil => rfl
  | _, _, _, _, RunDesignated.cons h hr, RunDesignated.cons h' hr' => by
    rw [designatedUnique h h', runDesignatedUnique hr hr']

-- the step's lists satisfy them ----------------------------------------------------------------

/-- The result step's filter keeps exactly the applying resolvers, in order (stated over
`filterAux`'s reversed accumulator, which the core library's `filter` runs on). -/
theorem applyingFilterAux (c : Call) : ∀ (rs : List Resolver), (∀ r, r ∈ rs → ∃ n, Depth n r.args ∧ n < jsonFuel) →
    ∃ ks, Applying c rs ks ∧ ∀ acc, List.filterAux (fun r => r.tool == c.tool && jeq r.args (argsJson c.args)) rs acc =
      List.reverseAux acc ks
  | [], _ => ⟨[], Applying.nil, fun _ => rfl⟩
  | r :: rs, hd => by
    have ⟨ks, ha, hf⟩ := applyingFilterAux c rs (fun r' hr => hd r' (Mem.tail _ hr))
    have ⟨n, hdn, hn⟩ := hd r (Mem.head _)
    have iff := jeqResolverApplies r c.tool c.args hdn hn
    cases hb : (r.tool == c.tool && jeq r.args (argsJson c.args)) with
    | true =>
      refine ⟨r :: ks, Applying.keep (iff.1 hb) ha, fun acc => ?_⟩
      simp only [List.filterAux, hb]
      exact hf (r :: acc)
    | false =>
      refine ⟨ks, Applying.skip (fun h => by rw [iff.2 h] at hb; cases hb) ha, fun acc => ?_⟩
      simp only [List.filterAux, hb]
      exact hf acc

theorem applyingFilter (c : Call) (rs : List Resolver) (hd : ∀ r, r ∈ rs → ∃ n, Depth n r.args ∧ n < jsonFuel) :
    Applying c rs (rs.filter (fun r => r.tool == c.tool && jeq r.args (argsJson c.args))) := by
  have ⟨ks, ha, hf⟩ := applyingFilterAux c rs hd
  have e : rs.filter (fun r => r.tool == c.tool && jeq r.args (argsJson c.args)) = ks := hf []
  rw [e]
  exact ha

/-- The record an Allow appends has the call's tool and arguments, at the old trace length. -/
theorem commitRecordAt (p : Policy) (s : State) (c : Call) (l : Label) (pu pa : List Nat) (k : Option Nat) :
    ∃ rec, (commit p s c l pu pa k).record? (List.length s.trace) = some rec ∧ rec.tool = c.tool ∧ rec.args = c.args := by
  cases ht : p.tools.find? (fun t => t.name == c.tool) with
  | some t =>
    have ⟨_, hn⟩ := findSome ht
    refine ⟨⟨c.agent, t.name, t.operation, t.source, t.destination, c.parents, c.args, l, false⟩, ?_,
      strEqOfBeq hn, rfl⟩
    show nth? (commit p s c l pu pa k).trace (List.length s.trace) = _
    simp only [commit, ht]
    exact nthAppendOne _ _
  | none =>
    refine ⟨⟨c.agent, c.tool, "", "", "", c.parents, c.args, l, false⟩, ?_, rfl, rfl⟩
    show nth? (commit p s c l pu pa k).trace (List.length s.trace) = _
    simp only [commit, ht]
    exact nthAppendOne _ _

theorem designatedStep (p : Policy) (hd : ArgsWithin p) (s : State) (c : Call) (o : Outcome) :
    Designated p s c o (stepLookups p s c o) := by
  cases hv : decideFull p s c with
  | allow l pu pa k =>
    have ⟨rec, hr, et, ea⟩ := commitRecordAt p s c l pu pa k
    cases o with
    | mk ok v =>
      cases ok with
      | false =>
        have e : stepLookups p s c ⟨false, v⟩ = [] := by simp [stepLookups, hv]
        rw [e]
        exact Designated.failed rfl
      | true =>
        have e : stepLookups p s c ⟨true, v⟩ =
            (p.resolvers.filter (fun r => r.tool == c.tool && jeq r.args (argsJson c.args))).map
              (fun r => (v, List.length s.trace, r)) := by
          simp only [stepLookups, hv, hr]
          rw [et, ea]
        rw [e]
        exact Designated.admittedOk hv rfl (applyingFilter c p.resolvers hd)
  | pause w =>
    have e : stepLookups p s c o = [] := by simp [stepLookups, hv]
    rw [e]
    exact Designated.notAdmitted (fun l pu pa k h => by rw [hv] at h; cases h)
  | deny w =>
    have e : stepLookups p s c o = [] := by simp [stepLookups, hv]
    rw [e]
    exact Designated.notAdmitted (fun l pu pa k h => by rw [hv] at h; cases h)

theorem runDesignatedLookups (p : Policy) (hd : ArgsWithin p) :
    ∀ (cs : List (Call × Outcome)) (s : State), RunDesignated p s cs (runLookups p s cs)
  | [], _ => RunDesignated.nil
  | (c, o) :: cs, s => RunDesignated.cons (designatedStep p hd s c o) (runDesignatedLookups p hd cs _)

/-- The lookups the result step processes are exactly the designated ones. -/
theorem stepLookupsDesignated (p : Policy) (hd : ArgsWithin p) (s : State) (c : Call) (o : Outcome)
    (L : List Lookup) : Designated p s c o L ↔ L = stepLookups p s c o :=
  ⟨fun h => designatedUnique h (designatedStep p hd s c o), fun e => by rw [e]; exact designatedStep p hd s c o⟩

/-- The lookups a run processes are exactly the ones its trace designates. -/
theorem runLookupsDesignated (p : Policy) (hd : ArgsWithin p) (s : State) (cs : List (Call × Outcome))
    (L : List Lookup) : RunDesignated p s cs L ↔ L = runLookups p s cs :=
  ⟨fun h => runDesignatedUnique h (runDesignatedLookups p hd cs s), fun e => by rw [e]; exact runDesignatedLookups p hd cs s⟩

/-- Section 5.1 over the monitor's runs, with the history built from the designated lookups: every
trace from the state a task starts in designates its lookups, and for them a slot of the final state is
invalid exactly when its history has a missing or malformed address or two addresses that are not equal
JSON values; otherwise it is bound to the first address and the ID of the lookup that found it, or
unbound when no lookup was designated for it. -/
theorem slotsOverDesignated (p : Policy) (hd : ArgsWithin p) (cs : List (Call × Outcome)) (σ : String) :
    (∃ L, RunDesignated p (initialState p) cs L) ∧
    ∀ L, RunDesignated p (initialState p) cs L →
      (slotView σ ((runFull p (initialState p) cs).2.bindings, (runFull p (initialState p) cs).2.invalid) = none ↔
        HistInvalid (history σ L)) ∧
      (¬ HistInvalid (history σ L) →
        slotView σ ((runFull p (initialState p) cs).2.bindings, (runFull p (initialState p) cs).2.invalid) =
          some (firstAddr (history σ L))) := by
  refine ⟨⟨_, runDesignatedLookups p hd cs (initialState p)⟩, fun L hL => ?_⟩
  rw [(runLookupsDesignated p hd (initialState p) cs L).1 hL]
  exact slotsOverRuns p cs σ

end AgentWarrant.Monitor.Full
