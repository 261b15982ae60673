import AgentWarrant.Thm.Monitor.Full.Parents
import AgentWarrant.Thm.Monitor.Full.Slots
/-! Agenra Section 6.1, "each live binding came from an applicable successful lookup", on the whole
monitor: every binding names a successful record for which some resolver of the policy for that
slot is applicable (same tool, arguments equal as JSON). Kept by every step (`stepFullLiveBindings`)
and over every trace (`runFullLiveBindings`) from the state a task starts in. What the record
returned is the service's business (the paper's trust assumption), so the binding's value is not
related to it here. -/
namespace AgentWarrant.Monitor.Full
open Lean AgentWarrant

def Applicable (r : Resolver) (rec : Record) : Bool := r.tool == rec.tool && jeq r.args (argsJson rec.args)

def LiveBindings (p : Policy) (s : State) : Prop :=
  ∀ b, b ∈ s.bindings → ∃ rec, s.record? b.2.2 = some rec ∧ rec.ok = true ∧
    ∃ r, r ∈ p.resolvers ∧ r.slot = b.1 ∧ Applicable r rec = true

theorem bindOneNew (v : Json) (d : Nat) (r : Resolver) (b : String × Json × Nat) :
    ∀ (acc : List (String × Json × Nat) × List String), b ∈ (bindOne v d acc r).1 → b ∈ acc.1 ∨ (b.2.2 = d ∧ b.1 = r.slot)
  | (bs, inv), hx => by
    cases hm : memS r.slot inv with
    | true => simp [bindOne, hm] at hx; exact Or.inl hx
    | false =>
      cases hp : lookupPath v r.path with
      | none => simp [bindOne, hm, hp, dropBinding] at hx; exact Or.inl (memFilt hx).1
      | some w =>
        cases hw : wellFormedAddress w with
        | false => simp [bindOne, hm, hp, hw, dropBinding] at hx; exact Or.inl (memFilt hx).1
        | true =>
          cases hb : bs.find? (fun b => b.1 == r.slot) with
          | none =>
            simp [bindOne, hm, hp, hw, hb] at hx
            cases memInsertBy _ _ hx with
            | inl e => rw [e]; exact Or.inr ⟨rfl, rfl⟩
            | inr e => exact Or.inl e
          | some b' =>
            cases hj : jeq b'.2.1 w with
            | true => simp [bindOne, hm, hp, hw, hb, hj] at hx; exact Or.inl hx
            | false => simp [bindOne, hm, hp, hw, hb, hj, dropBinding] at hx; exact Or.inl (memFilt hx).1

theorem foldBindNew (v : Json) (d : Nat) (b : String × Json × Nat) : ∀ (rs : List Resolver)
    (acc : List (String × Json × Nat) × List String), b ∈ (List.foldl (bindOne v d) acc rs).1 →
    b ∈ acc.1 ∨ (b.2.2 = d ∧ ∃ r, r ∈ rs ∧ b.1 = r.slot)
  | [], acc, hx => Or.inl hx
  | r :: rs, acc, hx => by
    cases foldBindNew v d b rs (bindOne v d acc r) hx with
    | inl h =>
      cases bindOneNew v d r b acc h with
      | inl h1 => exact Or.inl h1
      | inr h2 => exact Or.inr ⟨h2.1, r, Mem.head _, h2.2⟩
    | inr h => exact Or.inr ⟨h.1, have ⟨r', hr', e⟩ := h.2; ⟨r', Mem.tail _ hr', e⟩⟩

/-- `markOk d i` sets the success flag of the record at absolute index `d` (the list starting at `i`). -/
theorem nthMarkOk (d : Nat) : ∀ (i j : Nat) (rs : List Record),
    nth? (markOk d i rs) j = Option.map (fun r => if i + j == d then { r with ok := true } else r) (nth? rs j)
  | _, _, [] => rfl
  | i, 0, r :: rs => rfl
  | i, j + 1, r :: rs => by
    show nth? (markOk d (i + 1) rs) j = _
    rw [nthMarkOk d (i + 1) j rs, Nat.succ_add]
    rfl

theorem markedOk (d k : Nat) (r : Record) (h : r.ok = true) :
    (if k == d then { r with ok := true } else r).ok = true := by
  cases k == d <;> simp [h]

theorem markedApplicable (d k : Nat) (r : Record) (x : Resolver) :
    Applicable x (if k == d then { r with ok := true } else r) = Applicable x r := by
  cases k == d <;> rfl

theorem nthSnocLt {α : Type} (x : α) : ∀ (l : List α) (d : Nat) (y : α), nth? l d = some y → nth? (l ++ [x]) d = some y
  | [], _, _, h => by cases h
  | a :: l, 0, y, h => by rw [List.cons_append]; exact h
  | a :: l, d + 1, y, h => by rw [List.cons_append]; exact nthSnocLt x l d y h

theorem nthSnocAt {α : Type} (x : α) : ∀ (l : List α), nth? (l ++ [x]) (List.length l) = some x
  | [] => rfl
  | a :: l => by rw [List.cons_append, List.length_cons]; exact nthSnocAt x l

theorem memReverseAuxElim {α : Type} {x : α} : ∀ (l acc : List α), x ∈ List.reverseAux l acc → x ∈ l ∨ x ∈ acc
  | [], acc, h => Or.inr h
  | a :: l, acc, h => by
    cases memReverseAuxElim l (a :: acc) h with
    | inl h1 => exact Or.inl (Mem.tail _ h1)
    | inr h2 =>
      cases h2 with
      | head _ => exact Or.inl (Mem.head _)
      | tail _ t => exact Or.inr t

theorem memFilterAuxElim {α : Type} {p : α → Bool} {x : α} : ∀ (l rs : List α), x ∈ List.filterAux p l rs →
    x ∈ rs ∨ (x ∈ l ∧ p x = true)
  | [], rs, h => by
    have h' : x ∈ List.reverseAux rs [] := h
    cases memReverseAuxElim rs [] h' with
    | inl h1 => exact Or.inl h1
    | inr h2 => exact absurd h2 notMemNil
  | a :: l, rs, h => by
    cases hp : p a with
    | true =>
      have e : List.filterAux p (a :: l) rs = List.filterAux p l (a :: rs) := by simp [List.filterAux, hp]
      rw [e] at h
      cases memFilterAuxElim l (a :: rs) h with
      | inl h1 =>
        cases h1 with
        | head _ => exact Or.inr ⟨Mem.head _, hp⟩
        | tail _ t => exact Or.inl t
      | inr h2 => exact Or.inr ⟨Mem.tail _ h2.1, h2.2⟩
    | false =>
      have e : List.filterAux p (a :: l) rs = List.filterAux p l rs := by simp [List.filterAux, hp]
      rw [e] at h
      cases memFilterAuxElim l rs h with
      | inl h1 => exact Or.inl h1
      | inr h2 => exact Or.inr ⟨Mem.tail _ h2.1, h2.2⟩

theorem memFilterStdElim {α : Type} {p : α → Bool} {x : α} {l : List α} (h : x ∈ List.filter p l) : x ∈ l ∧ p x = true := by
  cases memFilterAuxElim l [] h with
  | inl h1 => exact absurd h1 notMemNil
  | inr h2 => exact h2

/-- Every step keeps every binding tied to an applicable successful lookup. -/
theorem stepFullLiveBindings (p : Policy) (s : State) (c : Call) (o : Outcome) (h : LiveBindings p s) :
    LiveBindings p (stepFull p s c o).2 := by
  cases hd : decideFull p s c with
  | pause w => rw [stepFullOnlyAllowChanges p s c o (fun l pu pa k e => by rw [hd] at e; cases e)]; exact h
  | deny r => rw [stepFullOnlyAllowChanges p s c o (fun l pu pa k e => by rw [hd] at e; cases e)]; exact h
  | allow l pu pa k =>
    rw [stepFullAllow p s c o l pu pa k hd]
    have ⟨⟨rec0, et, _, _, _⟩, _, _, _, eb, _, _⟩ := commitFields p s c l pu pa k
    -- after the commit: the old bindings still name their records
    have hc : LiveBindings p (commit p s c l pu pa k) := by
      intro b hb
      rw [eb] at hb
      have ⟨rec, hr, hok, r, hmem, hs, ha⟩ := h b hb
      refine ⟨rec, ?_, hok, r, hmem, hs, ha⟩
      show nth? (commit p s c l pu pa k).trace b.2.2 = some rec
      rw [et]
      exact nthSnocLt rec0 s.trace b.2.2 rec hr
    cases o with
    | mk ok v =>
      cases ok with
      | false => rw [observeFailed p _ _ ⟨false, v⟩ rfl]; exact hc
      | true =>
        cases hr : (commit p s c l pu pa k).record? (List.length s.trace) with
        | none => simp [observe, hr]; exact hc
        | some r0 =>
          intro b hb
          simp only [observe, hr] at hb
          have g := foldBindNew v (List.length s.trace) b
            (List.filter (fun x => x.tool == r0.tool && jeq x.args (argsJson r0.args)) p.resolvers)
            ((commit p s c l pu pa k).bindings, (commit p s c l pu pa k).invalid)
          cases hf : List.foldl (bindOne v (List.length s.trace))
            ((commit p s c l pu pa k).bindings, (commit p s c l pu pa k).invalid)
            (List.filter (fun x => x.tool == r0.tool && jeq x.args (argsJson r0.args)) p.resolvers) with
          | mk bs inv =>
            rw [hf] at g hb
            have hb' : b ∈ bs := hb
            show ∃ rec, nth? (observe p (commit p s c l pu pa k) (List.length s.trace) ⟨true, v⟩).trace b.2.2 = some rec ∧
              rec.ok = true ∧ ∃ r, r ∈ p.resolvers ∧ r.slot = b.1 ∧ Applicable r rec = true
            simp only [observe, hr, hf]
            rw [nthMarkOk, Nat.zero_add]
            cases g hb' with
            | inl hold =>
              have ⟨rec, hrec, hok, r, hmem, hs, ha⟩ := hc b hold
              have hrec' : nth? (commit p s c l pu pa k).trace b.2.2 = some rec := hrec
              rw [hrec']
              exact ⟨_, rfl, markedOk _ _ rec hok, r, hmem, hs, by rw [markedApplicable]; exact ha⟩
            | inr hnew =>
              have ⟨hd', r, hmem, hs⟩ := hnew
              have ⟨hmem', happ⟩ := memFilterStdElim hmem
              have hr' : nth? (commit p s c l pu pa k).trace b.2.2 = some r0 := by rw [hd']; exact hr
              rw [hr']
              have hk : (b.2.2 == List.length s.trace) = true := by rw [hd']; exact decideEqTrue rfl
              refine ⟨_, rfl, ?_, r, hmem', hs.symm, ?_⟩
              · show (if b.2.2 == List.length s.trace then { r0 with ok := true } else r0).ok = true
                rw [hk]; rfl
              · rw [markedApplicable]; exact happ

theorem runFullLiveBindings (p : Policy) : ∀ (cs : List (Call × Outcome)) (s : State), LiveBindings p s →
    LiveBindings p (runFull p s cs).2
  | [], s, h => h
  | (c, o) :: cs, s, h => runFullLiveBindings p cs (stepFull p s c o).2 (stepFullLiveBindings p s c o h)

theorem initialLiveBindings (p : Policy) : LiveBindings p (initialState p) :=
  fun b hb => absurd hb notMemNil

end AgentWarrant.Monitor.Full
