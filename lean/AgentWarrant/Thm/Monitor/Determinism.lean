import AgentWarrant.Spec.Revision.Run
/-! Totality and determinism up to renaming of fresh IDs (Agenra Section 6.3), for the closed core
of AgentWarrant.Monitor.Run.

The renaming: any injective `ρ : Nat → Nat`, applied to every record ID, every parent list and the
call's parents (`renameS`, `renameC`). Equivariance: renaming the state, the call and the fresh
ID gives the same decision and the renamed successor. Consequence: two choices `d₁, d₂` of fresh
ID give the same decision and successors that differ exactly by the transposition of `d₁` and
`d₂`. Totality: `stepS` is a total function (structural recursion only), and a fresh ID exists. -/
namespace AgentWarrant.Monitor.Run
open AgentWarrant.Monitor

theorem lookupRename (ρ : Nat → Nat) (inj : ∀ a b, ρ a = ρ b → a = b) :
    ∀ (rs : List Rec) (j : Nat), lookupL (renameR ρ rs) (ρ j) = lookupL rs j
  | [], j => rfl
  | (i, l, js) :: rs, j => by
    cases Nat.decEq i j with
    | isTrue h => subst h; simp [renameR, lookupL]
    | isFalse h =>
      have h' : ¬ ρ i = ρ j := fun e => h (inj _ _ e)
      simp [renameR, lookupL, h, h', lookupRename ρ inj rs j]

theorem mapLookupRename (ρ : Nat → Nat) (inj : ∀ a b, ρ a = ρ b → a = b) (rs : List Rec) :
    ∀ js : List Nat, List.map (lookupL (renameR ρ rs)) (List.map ρ js) = List.map (lookupL rs) js
  | [] => rfl
  | j :: js => by simp [List.map, lookupRename ρ inj rs j, mapLookupRename ρ inj rs js]

theorem renameRAppend (ρ : Nat → Nat) : ∀ (a b : List Rec), renameR ρ (a ++ b) = renameR ρ a ++ renameR ρ b
  | [], _ => rfl
  | (i, l, js) :: a, b => by simp [renameR, renameRAppend ρ a b]

theorem toInRename (ρ : Nat → Nat) (inj : ∀ a b, ρ a = ρ b → a = b) (S : MState) (c : Call) :
    toIn (renameS ρ S) (renameC ρ c) = toIn S c := by
  simp [toIn, renameS, renameC, mapLookupRename ρ inj, lengthMap]

/-- Equivariance of the transition under an injective renaming of IDs. -/
theorem stepEquivariant (ρ : Nat → Nat) (inj : ∀ a b, ρ a = ρ b → a = b) (S : MState) (c : Call) (d : Nat) :
    stepS (renameS ρ S) (renameC ρ c) (ρ d) = ((stepS S c d).1, renameS ρ (stepS S c d).2) := by
  have e := toInRename ρ inj S c
  simp only [stepS]
  rw [e]
  cases h : (step (toIn S c)).decision with
  | allow l pu pa => simp [renameS, renameC, renameRAppend, renameR, List.map]
  | pause w => simp [renameS]
  | deny r => simp [renameS]

theorem swapLeft (a b : Nat) : swap a b a = b := by simp [swap]

theorem swapInvol (a b x : Nat) : swap a b (swap a b x) = x := by
  cases Nat.decEq x a with
  | isTrue ha =>
    subst ha
    cases Nat.decEq b x with
    | isTrue hb => subst hb; simp [swap]
    | isFalse hb =>
      have hb' : ¬ x = b := fun e => hb e.symm
      simp [swap, hb, hb']
  | isFalse ha =>
    cases Nat.decEq x b with
    | isTrue hb => subst hb; simp [swap, ha]
    | isFalse hb => simp [swap, ha, hb]

theorem swapInj (a b : Nat) : ∀ x y, swap a b x = swap a b y → x = y := by
  intro x y h
  rw [← swapInvol a b x, ← swapInvol a b y, h]

theorem swapFix {a b x : Nat} (ha : ¬ x = a) (hb : ¬ x = b) : swap a b x = x := by simp [swap, ha, hb]

theorem renameFix (ρ : Nat → Nat) : ∀ (rs : List Rec), (∀ x, x ∈ idsR rs → ρ x = x) → renameR ρ rs = rs
  | [], _ => rfl
  | (i, l, js) :: rs, h => by
    have hi : ρ i = i := h i (Mem.head _)
    have hj : List.map ρ js = js := mapFix ρ js (fun x hx => h x (Mem.tail _ (memAppL _ hx)))
    have hr := renameFix ρ rs (fun x hx => h x (Mem.tail _ (memAppR _ js hx)))
    simp [renameR, hi, hj, hr]

theorem neOfNotMem {x y : Nat} {l : List Nat} (hx : x ∈ l) (hy : ¬ y ∈ l) : ¬ x = y := fun e => hy (e ▸ hx)

/-- Section 6.3: the next decision is unique, and the next state is unique up to the consistent
renaming (the transposition) of the fresh ID. -/
theorem stepUpToRenaming (S : MState) (c : Call) (d₁ d₂ : Nat) (h₁ : Fresh S c d₁) (h₂ : Fresh S c d₂) :
    (stepS S c d₂).1 = (stepS S c d₁).1 ∧ (stepS S c d₂).2 = renameS (swap d₁ d₂) (stepS S c d₁).2 := by
  have hs : renameS (swap d₁ d₂) S = S := by
    have e := renameFix (swap d₁ d₂) S.recs (fun x hx => swapFix (neOfNotMem hx h₁.1) (neOfNotMem hx h₂.1))
    cases S with | mk recs uu ua => simp [renameS] at e ⊢; exact e
  have hc : renameC (swap d₁ d₂) c = c := by
    have e := mapFix (swap d₁ d₂) c.parents (fun x hx => swapFix (neOfNotMem hx h₁.2) (neOfNotMem hx h₂.2))
    cases c with | mk ps f => simp [renameC] at e ⊢; exact e
  have e := stepEquivariant (swap d₁ d₂) (swapInj d₁ d₂) S c d₁
  rw [hs, hc, swapLeft] at e
  rw [e]
  exact ⟨rfl, rfl⟩

theorem leSumL {x : Nat} : ∀ {l : List Nat}, x ∈ l → x ≤ sumL l
  | [], h => absurd h notMemNil
  | a :: l, h => by
    cases h with
    | head _ => exact Nat.leAddRight x (sumL l)
    | tail _ h => exact Nat.leTrans (leSumL h) (by show sumL l ≤ a + sumL l; rw [Nat.add_comm]; exact Nat.leAddRight _ a)

theorem freshIdFresh (S : MState) (c : Call) : Fresh S c (freshId S c) := by
  have big : ∀ x, x ∈ idsR S.recs ++ c.parents → ¬ x = freshId S c := fun x hx e => by
    have hle := leSumL hx
    rw [e] at hle
    exact Nat.notSuccLeSelf _ hle
  exact ⟨fun h => big _ (memAppL _ h) rfl, fun h => big _ (memAppR _ _ h) rfl⟩

/-- Section 6.3, totality: for every state and call a fresh ID exists, and the transition with
it yields one decision and one successor. -/
theorem stepTotal (S : MState) (c : Call) : ∃ d, Fresh S c d ∧ ∃ r, stepS S c d = r :=
  ⟨freshId S c, freshIdFresh S c, _, rfl⟩

end AgentWarrant.Monitor.Run
