import AgentWarrant.Thm.Monitor.Full.OnlyAllow
/-! Every call the whole monitor admits satisfies the rules in force (Agenra Sections 4.3, 4.4,
4.5, 6.2), with every verdict computed in Lean from the policy, the state and the call: the call
prepares (known tool, declared and required arguments, live handles, well-formed resources); the
agent is known, may perform the tool's operation, and the output label is within its ceiling; the
tool's edge declares its endpoints; every origin rule whose `via` names the tool or its operation
finds its argument to be a handle produced by the rule's producer (through `preserving` steps);
no deny flow rule matches the output label and some allow flow rule does; every history rule whose
`before` names the tool holds over the lineage or the session; and the label recorded is the output
label `labelOutOf`, the input label (join of the parents' labels, else the source node's) through
the edge's propagation. -/
namespace AgentWarrant.Monitor.Full
open Lean AgentWarrant.Monitor AgentWarrant.Monitor.Run

theorem allTrue {f : α → Bool} : ∀ {l : List α}, List.all l f = true → ∀ x, x ∈ l → f x = true
  | [], _, x, hx => absurd hx notMemNil
  | a :: l, h, x, hx => by
    have h' : (f a && List.all l f) = true := h
    cases ha : f a with
    | false => rw [ha] at h'; cases h'
    | true =>
      rw [ha] at h'
      cases hx with
      | head _ => exact ha
      | tail _ hx' => exact allTrue h' x hx'

/-- A flow rule applies to an output label at an operation and destination. -/
def flowApplies (op dest : String) (l : Label) (r : Flow) : Bool :=
  patOk r.operation op && patOk r.destination dest && guardHolds r.guard l

theorem flowAuxSound (op dest : String) (l : Label) : ∀ (rs : List Flow) (acc : Bool),
    flowAux op dest l rs acc = true →
    (∀ r, r ∈ rs → flowApplies op dest l r = true → r.deny = false) ∧
    (acc = true ∨ ∃ r, r ∈ rs ∧ flowApplies op dest l r = true ∧ r.deny = false)
  | [], acc, h => ⟨fun r hr => absurd hr notMemNil, Or.inl h⟩
  | r :: rs, acc, h => by
    cases hm : flowApplies op dest l r with
    | false =>
      have h' : flowAux op dest l rs acc = true := by
        have hm' : (patOk r.operation op && patOk r.destination dest && guardHolds r.guard l) = false := hm
        simp [flowAux, hm'] at h; exact h
      have ⟨a, b⟩ := flowAuxSound op dest l rs acc h'
      have p1 : ∀ x, x ∈ r :: rs → flowApplies op dest l x = true → x.deny = false := fun x hx hxm => by
        cases hx with
        | head _ => rw [hm] at hxm; cases hxm
        | tail _ hx' => exact a x hx' hxm
      have p2 : acc = true ∨ ∃ x, x ∈ r :: rs ∧ flowApplies op dest l x = true ∧ x.deny = false := by
        cases b with
        | inl e => exact Or.inl e
        | inr e => have ⟨x, hx, h1, h2⟩ := e; exact Or.inr ⟨x, Mem.tail _ hx, h1, h2⟩
      exact ⟨p1, p2⟩
    | true =>
      have hm' : (patOk r.operation op && patOk r.destination dest && guardHolds r.guard l) = true := hm
      cases hd : r.deny with
      | true => simp [flowAux, hm', hd] at h
      | false =>
        have h' : flowAux op dest l rs true = true := by simp [flowAux, hm', hd] at h; exact h
        have ⟨a, _⟩ := flowAuxSound op dest l rs true h'
        have p1 : ∀ x, x ∈ r :: rs → flowApplies op dest l x = true → x.deny = false := fun x hx hxm => by
          cases hx with
          | head _ => exact hd
          | tail _ hx' => exact a x hx' hxm
        exact ⟨p1, Or.inr ⟨r, Mem.head _, hm, hd⟩⟩

theorem labelAtMap : ∀ (tr : List Record) (d : Nat),
    labelAt (List.map Record.label tr) d = (match nth? tr d with | some r => r.label | none => bot)
  | [], d => rfl
  | r :: tr, 0 => rfl
  | r :: tr, d + 1 => labelAtMap tr d

theorem labelInCore (p : Policy) (s : State) (c : Call) (t : Tool) (es : List Effect) :
    Monitor.labelIn (coreInput p s c t es) = labelIn p s c t := by
  have e : labelAt (List.map Record.label s.trace) = (fun d => match s.record? d with | some r => r.label | none => bot) :=
    funext (labelAtMap s.trace)
  show (match c.parents with
    | [] => labelIn p s c t
    | ps => joinAll (List.map (labelAt (List.map Record.label s.trace)) ps)) = labelIn p s c t
  rw [e]
  cases h : c.parents with
  | nil => rfl
  | cons x xs => simp only [labelIn, h]; rfl

/-- The label the core computes for the whole monitor's input is the whole monitor's output label. -/
theorem labelOutCore (p : Policy) (s : State) (c : Call) (t : Tool) (es : List Effect) :
    labelOut (coreInput p s c t es) = labelOutOf p s c t := by
  show propagate (coreInput p s c t es).propagation (Monitor.labelIn (coreInput p s c t es)) = labelOutOf p s c t
  rw [labelInCore]
  cases h : edgeOf p t with
  | none => simp [coreInput, labelOutOf, h, propagate]
  | some e => simp [coreInput, labelOutOf, h]

/-- Origin rules in force: each rule routed through this tool or operation finds its argument to be
a handle the rule's producer made (directly or through `preserving` steps). -/
def OriginRulesHold (p : Policy) (s : State) (c : Call) (t : Tool) : Prop :=
  ∀ o, o ∈ p.origins → (o.via == c.tool || o.via == t.operation) = true →
    ∃ d, c.refs.lookup o.argument = some d ∧ producedBy s.trace o (List.length s.trace + 1) d = true

/-- Flow rules in force: no deny rule applies to the output label, and some allow rule does. -/
def FlowRulesHold (p : Policy) (t : Tool) (l : Label) : Prop :=
  (∀ r, r ∈ p.flows → flowApplies t.operation t.destination l r = true → r.deny = false) ∧
  ∃ r, r ∈ p.flows ∧ flowApplies t.operation t.destination l r = true ∧ r.deny = false

/-- History rules in force: each rule whose `before` names this tool or operation holds over the
call's lineage or the whole session, as the rule says. -/
def HistoryRulesHold (p : Policy) (s : State) (c : Call) (t : Tool) : Prop :=
  ∀ h, h ∈ p.histories → (t.name == h.before || t.operation == h.before) = true →
    historyHolds h (if h.lineage then lineage s.trace c.parents else s.trace) t.name t.operation = true

/-- Everything an admitted call satisfied in the state it was decided in, and its recorded label. -/
def Passes (p : Policy) (s : State) (c : Call) (l : Label) : Prop :=
  ∃ t es, prepare p s c = Except.ok (t, es) ∧
    (∃ a, p.agents.find? (fun a => a.name == c.agent) = some a ∧ memS t.operation a.ops = true ∧
      Nat.ble l.sens a.ceiling = true) ∧
    (∃ e, edgeOf p t = some e ∧ e.endpoints.any (fun ep => ep.1 == t.source && ep.2 == t.destination) = true) ∧
    l = labelOutOf p s c t ∧ OriginRulesHold p s c t ∧ FlowRulesHold p t l ∧ HistoryRulesHold p s c t

theorem decideFullPasses (p : Policy) (s : State) (c : Call) (l : Label) (pu pa : List Nat) (k : Option Nat)
    (h : decideFull p s c = Verdict.allow l pu pa k) : Passes p s c l := by
  have ⟨t, es, hp, hcore⟩ := decideFullAllow p s c l pu pa k h
  have ⟨_, a2, a3, a4, a5, a6, a7, a8, _, a10⟩ := decideAllow _ _ _ _ hcore
  have hl : l = labelOutOf p s c t := by rw [a10, labelOutCore]
  rw [labelOutCore, ← hl] at a5 a7
  refine ⟨t, es, hp, ?_, ?_, hl, ?_, ?_, ?_⟩
  · cases ha : p.agents.find? (fun a => a.name == c.agent) with
    | none => simp [coreInput, ha] at a2
    | some ag =>
      simp [coreInput, ha] at a3 a5
      exact ⟨ag, rfl, a3, a5⟩
  · cases he : edgeOf p t with
    | none => simp [coreInput, he] at a4
    | some e => simp [coreInput, he] at a4; exact ⟨e, rfl, a4⟩
  · intro o ho hv
    have r := allTrue (show originOk p s c t = true from a6) o ho
    simp [hv] at r
    cases hl : c.refs.lookup o.argument with
    | none => simp [hl] at r
    | some d => simp [hl] at r; exact ⟨d, rfl, r⟩
  · have ⟨x, y⟩ := flowAuxSound t.operation t.destination l p.flows false a7
    refine ⟨x, ?_⟩
    cases y with
    | inl e => cases e
    | inr e => exact e
  · intro hh hm hb
    have r := allTrue (show historyOk p s c t = true from a8) hh hm
    simp [hb] at r
    exact r

/-- Along a run, every admitted call passed the rules in force in the state it was decided in. -/
def AdmittedPass (p : Policy) : State → List (Call × Outcome) → Prop
  | _, [] => True
  | s, (c, o) :: cs => (∀ l pu pa k, (stepFull p s c o).1 = Verdict.allow l pu pa k → Passes p s c l) ∧
    AdmittedPass p (stepFull p s c o).2 cs

theorem runFullAdmittedPass (p : Policy) : ∀ (cs : List (Call × Outcome)) (s : State), AdmittedPass p s cs
  | [], _ => trivial
  | (c, o) :: cs, s => ⟨fun l pu pa k h => decideFullPasses p s c l pu pa k (by rw [← stepFullVerdict p s c o]; exact h),
      runFullAdmittedPass p cs _⟩

end AgentWarrant.Monitor.Full
