import AgentWarrant.Thm.Edits.Machine
/-! The remaining-work equation of stored checkpoints on the runtime (*When Can Agents Safely
Checkpoint, Fork, Restore, and Merge?*, Section VII): every checkpoint copy the record holds has
`𝒞_b = Γ_b / raw(χ_b)` of its own `Γ_b` and `χ_b`, from the root on, after any finite sequence of
runtime events. Only an accepted Checkpoint adds a copy (`saveLeaf`); every other event keeps the
stored copies as they are. -/
namespace AgentWarrant.Edits.Machine
open AgentWarrant AgentWarrant.Edits

/-- Every stored copy satisfies the remaining-work equation. -/
def SavedOk : List Saved → Prop
  | [] => True
  | s :: l => s.rest = residualOf s.gamma s.done ∧ SavedOk l

theorem savedOkApp : ∀ (l : List Saved) (s : Saved), SavedOk l → s.rest = residualOf s.gamma s.done →
    SavedOk (l ++ [s])
  | [], s, _, h => by rw [List.nil_append]; exact ⟨h, trivial⟩
  | a :: l, s, ⟨h1, h2⟩, h => by rw [List.cons_append]; exact ⟨h1, savedOkApp l s h2 h⟩

theorem checkpointSaved (c : Core) (k b : Nat) (h : SavedOk c.saved) : SavedOk (checkpoint c k b).2.saved := by
  cases he : c.eta with
  | none => simp only [checkpoint, he]; exact h
  | some e =>
    cases hn : memB k c.names with
    | true => simp only [checkpoint, he, hn]; exact h
    | false =>
      cases hk : memB k c.ckpts with
      | true => simp only [checkpoint, he, hn, hk]; exact h
      | false =>
        have hb : (memB k c.names || memB k c.ckpts) = false := by rw [hn, hk]; rfl
        cases hc : currentB c.tree b with
        | false => simp only [checkpoint, he, hb, hc]; exact h
        | true =>
          cases hl : leafNamed c.tree b with
          | none => simp only [checkpoint, he, hb, hc, hl]; exact h
          | some l => simp only [checkpoint, he, hb, hc, hl]; exact savedOkApp c.saved _ h rfl

theorem takeCallSaved (c : Core) (x v : Nat) : (takeCall c x v).2.saved = c.saved := by
  cases hn : (letterOf c x).new with
  | true => simp only [takeCall, hn]; rfl
  | false => simp only [takeCall, hn]; rfl

theorem dispatchSaved (c : Core) : (dispatch c).2.saved = c.saved := by
  simp only [dispatch]
  cases markSent c.log with
  | mk r l =>
    cases r with
    | none => rfl
    | some p => cases p with
      | mk n a => rfl

theorem settleSaved (c : Core) (d v : Nat) : (settle c d v).2.saved = c.saved := by
  simp only [settle]
  cases findAuth d 1 c.log with
  | none => rfl
  | some p =>
    cases p with
    | mk n a =>
      simp only []
      cases a.sent with
      | false => rfl
      | true =>
        cases a.value with
        | some _ => rfl
        | none => rfl

theorem extendSaved (c : Core) (dfa : Dfa) (en : Nat) (ok : Bool) : (extendCore c dfa en ok).saved = c.saved := by
  cases hx : (extendStep c dfa en ok).2 with
  | none => simp only [extendCore, pickCore, hx]; rfl
  | some c' =>
    have ⟨_, _, _, _, e⟩ := extendStepSome hx
    simp only [extendCore, pickCore, hx]
    rw [e]
    rfl

/-- Every runtime event keeps the remaining-work equation of every stored checkpoint copy. -/
theorem stepSaved (der : Derivation) (S : RState) (e : Ev) (h : SavedOk S.core.saved) :
    SavedOk (stepR der S e).2.core.saved := by
  cases e with
  | check u => exact h
  | update u y =>
    show SavedOk (tryUpdate der S u y).2.core.saved
    cases tryUpdateSplit der S u y with
    | inl e => rw [e]; exact h
    | inr p => have ⟨d, _, e⟩ := p; rw [e]; exact h
  | preload u y => show SavedOk (preload der S u y).2.core.saved; rw [preloadCore]; exact h
  | use x tok ok =>
    show SavedOk (useR S.core x tok ok).2.saved
    cases useRSplit S.core x tok ok with
    | inl e => rw [e]; exact h
    | inr p => have ⟨v, _, e⟩ := p; rw [e, takeCallSaved]; exact h
  | retry x tok ok => exact h
  | dispatch => show SavedOk (dispatch S.core).2.saved; rw [dispatchSaved]; exact h
  | settle d v => show SavedOk (settle S.core d v).2.saved; rw [settleSaved]; exact h
  | checkpoint k b => exact checkpointSaved S.core k b h
  | extend dfa en ok =>
    show SavedOk (extendR S dfa en ok).core.saved; rw [extendRCore, extendSaved]; exact h

/-- From the root (no copies), after any finite sequence of runtime events, every stored checkpoint
copy has `𝒞_b = Γ_b / raw(χ_b)` of its own `Γ_b` and `χ_b`. -/
theorem replaySaved (der : Derivation) : ∀ (es : List Ev) (S : RState), SavedOk S.core.saved →
    SavedOk (replay der S es).core.saved
  | [], S, h => h
  | e :: es, S, h => replaySaved der es _ (stepSaved der S e h)

theorem startSaved {d : Derived} {S : RState} (h : start d = some S) : SavedOk S.core.saved := by
  simp only [start] at h
  cases hs : safeSet (build d.inst) with
  | nil => rw [hs] at h; exact Option.noConfusion h
  | cons a l => rw [hs] at h; cases Option.some.inj h; exact trivial

end AgentWarrant.Edits.Machine
