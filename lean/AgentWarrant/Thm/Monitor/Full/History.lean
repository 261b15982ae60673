import AgentWarrant.Thm.Monitor.Json
import AgentWarrant.Spec.Monitor.Full
/-! The meaning of a history rule over a scope of records (Agenra Section 4.3), stated independently of
the executable fold: the scope is *pending* when some record of the rule's `after` operation (not
itself a `require` record) has no `require` record after it. `historyHolds` decides "not pending, or
the call itself is the required operation" (`historyHoldsIff`). The scope is the session's trace or
the call's lineage; `Full/Lineage.lean` gives the lineage its own meaning (the ancestors' records in
trace order) and proves `lineage` computes it. -/
namespace AgentWarrant.Monitor.Full
open Lean AgentWarrant

inductive PendingIn (h : History) : List Record → Prop
  | here (r : Record) (rest : List Record) : named r h.after = true → named r h.require = false →
      (∀ r', r' ∈ rest → named r' h.require = false) → PendingIn h (r :: rest)
  | later (r : Record) (rest : List Record) : PendingIn h rest → PendingIn h (r :: rest)

theorem pendingFoldStays (h : History) : ∀ (rest : List Record), (∀ r', r' ∈ rest → named r' h.require = false) →
    List.foldl (fun pend r => if named r h.require then false else if named r h.after then true else pend) true rest = true
  | [], _ => rfl
  | r :: rest, hall => by
    have hr : named r h.require = false := hall r (Mem.head _)
    have e : (if named r h.require then false else if named r h.after then true else true) = true := by
      cases named r h.after <;> simp [hr]
    show List.foldl _ (if named r h.require then false else if named r h.after then true else true) rest = true
    rw [e]
    exact pendingFoldStays h rest (fun r' hm => hall r' (Mem.tail _ hm))

theorem pendingFoldOfPending (h : History) {scope : List Record} (hp : PendingIn h scope) : ∀ (pend : Bool),
    List.foldl (fun pend r => if named r h.require then false else if named r h.after then true else pend) pend scope = true := by
  induction hp with
  | here r rest ha hr hall =>
    intro pend
    have e : (if named r h.require then false else if named r h.after then true else pend) = true := by simp [hr, ha]
    show List.foldl _ (if named r h.require then false else if named r h.after then true else pend) rest = true
    rw [e]
    exact pendingFoldStays h rest hall
  | later r rest _ ih => intro pend; exact ih _

theorem pendingOfFold (h : History) : ∀ (scope : List Record) (pend : Bool),
    List.foldl (fun pend r => if named r h.require then false else if named r h.after then true else pend) pend scope = true →
    PendingIn h scope ∨ (pend = true ∧ ∀ r', r' ∈ scope → named r' h.require = false)
  | [], pend, hf => Or.inr ⟨hf, fun r' hm => nomatch hm⟩
  | r :: rest, pend, hf => by
    cases pendingOfFold h rest _ hf with
    | inl hp => exact Or.inl (PendingIn.later r rest hp)
    | inr hq =>
      have ⟨hg0, hall⟩ := hq
      have hg : (if named r h.require then false else if named r h.after then true else pend) = true := hg0
      cases hr : named r h.require with
      | true => simp [hr] at hg
      | false =>
        cases ha : named r h.after with
        | true => exact Or.inl (PendingIn.here r rest ha hr hall)
        | false =>
          have hg' : pend = true := by simp [hr, ha] at hg; exact hg
          refine Or.inr ⟨hg', fun r' hm => ?_⟩
          cases hm with
          | head _ => exact hr
          | tail _ t => exact hall r' t

/-- The executable history check decides the meaning: the scope is not pending, or the call is itself
the required operation. -/
theorem historyHoldsIff (h : History) (scope : List Record) (tool op : String) :
    historyHolds h scope tool op = true ↔ (¬ PendingIn h scope ∨ (tool == h.require || op == h.require) = true) := by
  cases hp : List.foldl (fun pend r => if named r h.require then false else if named r h.after then true else pend) false scope with
  | true =>
    have hpend : PendingIn h scope := by
      cases pendingOfFold h scope false hp with
      | inl x => exact x
      | inr x => cases x.1
    show ((!List.foldl _ false scope) || (tool == h.require || op == h.require)) = true ↔ _
    rw [hp]
    exact ⟨fun e => Or.inr e, fun o => match o with
      | Or.inl n => absurd hpend n
      | Or.inr e => e⟩
  | false =>
    have hnot : ¬ PendingIn h scope := fun x => by
      have t := pendingFoldOfPending h x false
      rw [hp] at t
      cases t
    show ((!List.foldl _ false scope) || (tool == h.require || op == h.require)) = true ↔ _
    rw [hp]
    exact ⟨fun _ => Or.inl hnot, fun _ => rfl⟩

end AgentWarrant.Monitor.Full
