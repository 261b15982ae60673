import AgentWarrant.Spec.Edits.Canonical
/-! The automaton lemma (*When Can Agents Safely Checkpoint, Fork, Restore, and Merge?*, Section VI-A):
the generated and marked languages of `Can(W†, B†)` are exactly `(W†, π₂ B̂†)`, and it is the smallest
deterministic marked partial automaton for this pair up to state renaming.

For any prefix-closed `W` containing `ε` and any `B ⊆ W`: `Can(W, B)` reaches `(W/z, B/z)` after `z`
exactly when `z ∈ W` (`canRunIff`); its languages are `(W, B)` (`canLanguages`); two words lead
to the same state iff their residuals agree (`canStateIff`, the Myhill–Nerode quotient); and every
deterministic automaton with the same two languages maps onto it: the states reached by a common
word form a function from its reachable states onto those of `Can` (`canMinimal`). -/
namespace AgentWarrant.Edits
open AgentWarrant

theorem resNil (L : Lang) : res L [] = L := rfl

theorem resCons (L : Lang) (a : Letter) (w : Word) : res (res L [a]) w = res L (a :: w) :=
  funext fun t => by
    show L ([a] ++ (w ++ t)) = L ((a :: w) ++ t)
    rw [List.cons_append, List.cons_append, List.nil_append]

theorem consEq (a : Letter) (w : Word) : [a] ++ w = a :: w := by rw [List.cons_append, List.nil_append]

theorem prefixClosedRes {L : Lang} (h : PrefixClosedL L) (z : Word) : PrefixClosedL (res L z) :=
  fun u v huv => h (z ++ u) v (by rw [List.append_assoc]; exact huv)

/-- A run of `Can` from `(L, K)` over `z` ends in `(L/z, K/z)`, and `z` is `ε` or in `L`. -/
theorem canRunSound {W B : Lang} : ∀ (z : Word) (L K : Lang) (S : Lang × Lang), (can W B).Run (L, K) z S →
    S = (res L z, res K z) ∧ (z = [] ∨ L z)
  | [], L, K, S, h => by
    cases h with
    | nil _ => exact ⟨rfl, Or.inl rfl⟩
  | a :: w, L, K, S, h => by
    cases h with
    | cons hs hr =>
      have ⟨ha, e⟩ := hs
      rw [e] at hr
      have ⟨e2, hw⟩ := canRunSound w (res L [a]) (res K [a]) S hr
      rw [resCons, resCons] at e2
      refine ⟨e2, Or.inr ?_⟩
      cases hw with
      | inl h0 => rw [h0]; exact ha
      | inr h1 => have h1' : L ([a] ++ w) := h1; rw [consEq] at h1'; exact h1'

theorem canRunComplete {W B : Lang} : ∀ (z : Word) (L K : Lang), PrefixClosedL L → L z →
    (can W B).Run (L, K) z (res L z, res K z)
  | [], L, K, _, _ => Aut.Run.nil _
  | a :: w, L, K, hL, hz => by
    have hz' : L ([a] ++ w) := by rw [consEq]; exact hz
    have h := canRunComplete (W := W) (B := B) w (res L [a]) (res K [a]) (prefixClosedRes hL [a]) hz'
    rw [resCons, resCons] at h
    exact Aut.Run.cons ⟨hL [a] w hz', rfl⟩ h

/-- `Can(W, B)` reaches a state after `z` iff `z ∈ W`, and that state is `q_z = (W/z, B/z)`. -/
theorem canRunIff {W B : Lang} (hW : PrefixClosedL W) (h0 : W []) (z : Word) (S : Lang × Lang) :
    (can W B).Run (can W B).init z S ↔ W z ∧ S = (res W z, res B z) := by
  constructor
  · intro h
    have ⟨e, hz⟩ := canRunSound z W B S h
    refine ⟨?_, e⟩
    cases hz with
    | inl h1 => rw [h1]; exact h0
    | inr h2 => exact h2
  · intro ⟨hz, e⟩
    rw [e]
    exact canRunComplete z W B hW hz

/-- The automaton lemma: the generated language of `Can(W, B)` is `W` and its marked language `B`. -/
theorem canLanguages {W B : Lang} (hW : PrefixClosedL W) (h0 : W []) (hB : ∀ z, B z → W z) : (∀ z, (can W B).Gen z ↔ W z) ∧ (∀ z, (can W B).Marked z ↔ B z) := by
  refine ⟨fun z => ⟨fun ⟨S, h⟩ => ((canRunIff hW h0 z S).1 h).1,
    fun hz => ⟨_, (canRunIff hW h0 z _).2 ⟨hz, rfl⟩⟩⟩, fun z => ⟨?_, ?_⟩⟩
  · intro ⟨S, h, hm⟩
    have ⟨_, e⟩ := (canRunIff hW h0 z S).1 h
    rw [e] at hm
    have hm' : B (z ++ []) := hm
    rw [List.append_nil] at hm'
    exact hm'
  · intro hz
    refine ⟨_, (canRunIff hW h0 z _).2 ⟨hB z hz, rfl⟩, ?_⟩
    show B (z ++ [])
    rw [List.append_nil]
    exact hz

/-- The states of `Can(W, B)` are the residual classes: two words of `W` reach the same state iff
every continuation is generated (and marked) after one exactly when after the other. -/
theorem canStateIff {W B : Lang} (hW : PrefixClosedL W) (h0 : W []) {z z' : Word} {S S' : Lang × Lang} (h : (can W B).Run (can W B).init z S)
    (h' : (can W B).Run (can W B).init z' S') :
    S = S' ↔ (∀ t, W (z ++ t) ↔ W (z' ++ t)) ∧ (∀ t, B (z ++ t) ↔ B (z' ++ t)) := by
  have ⟨_, e⟩ := (canRunIff hW h0 z S).1 h
  have ⟨_, e'⟩ := (canRunIff hW h0 z' S').1 h'
  rw [e, e']
  constructor
  · intro eq
    have e1 : res W z = res W z' := congrArg Prod.fst eq
    have e2 : res B z = res B z' := congrArg Prod.snd eq
    exact ⟨fun t => by rw [show W (z ++ t) = res W z t from rfl, e1]; exact Iff.rfl,
      fun t => by rw [show B (z ++ t) = res B z t from rfl, e2]; exact Iff.rfl⟩
  · intro ⟨hw, hb⟩
    have e1 : res W z = res W z' := funext fun t => propext (hw t)
    have e2 : res B z = res B z' := funext fun t => propext (hb t)
    rw [e1, e2]

/-- `Can` is deterministic. -/
theorem canDet (W B : Lang) : (can W B).Det := by
  intro q a q₁ q₂ ⟨_, e1⟩ ⟨_, e2⟩
  rw [e1, e2]

section
variable {Q : Type} {M : Aut Q}

theorem runAppend : ∀ (z t : Word) {q q'' : Q}, M.Run q (z ++ t) q'' → ∃ q', M.Run q z q' ∧ M.Run q' t q''
  | [], t, q, _, h => ⟨q, Aut.Run.nil q, h⟩
  | a :: z, t, q, _, h => by
    rw [List.cons_append] at h
    cases h with
    | cons hs hr =>
      have ⟨q', h1, h2⟩ := runAppend z t hr
      exact ⟨q', Aut.Run.cons hs h1, h2⟩

theorem runJoin : ∀ (z t : Word) {q q' q'' : Q}, M.Run q z q' → M.Run q' t q'' → M.Run q (z ++ t) q''
  | [], t, q, _, _, h1, h2 => by cases h1 with | nil _ => exact h2
  | a :: z, t, q, _, _, h1, h2 => by
    cases h1 with
    | cons hs hr => rw [List.cons_append]; exact Aut.Run.cons hs (runJoin z t hr h2)

theorem runDet (hM : M.Det) : ∀ (z : Word) {q q₁ q₂ : Q}, M.Run q z q₁ → M.Run q z q₂ → q₁ = q₂
  | [], q, _, _, h1, h2 => by
    cases h1 with
    | nil _ => cases h2 with
      | nil _ => rfl
  | a :: z, q, _, _, h1, h2 => by
    cases h1 with
    | cons hs1 hr1 => cases h2 with
      | cons hs2 hr2 =>
        rw [hM _ _ _ _ hs1 hs2] at hr1
        exact runDet hM z hr1 hr2

/-- In a deterministic automaton, what can follow a word depends only on the state it reaches. -/
theorem futureOfState (hM : M.Det) {z : Word} {q : Q} (hz : M.Run M.init z q) (t : Word) :
    (M.Gen (z ++ t) ↔ ∃ q'', M.Run q t q'') ∧
    (M.Marked (z ++ t) ↔ ∃ q'', M.Run q t q'' ∧ M.marked q'') := by
  refine ⟨⟨fun ⟨q'', h⟩ => ?_, fun ⟨q'', h⟩ => ⟨q'', runJoin z t hz h⟩⟩,
    ⟨fun ⟨q'', h, hm⟩ => ?_, fun ⟨q'', h, hm⟩ => ⟨q'', runJoin z t hz h, hm⟩⟩⟩
  · have ⟨q', h1, h2⟩ := runAppend z t h
    rw [runDet hM z h1 hz] at h2
    exact ⟨q'', h2⟩
  · have ⟨q', h1, h2⟩ := runAppend z t h
    rw [runDet hM z h1 hz] at h2
    exact ⟨q'', h2, hm⟩

/-- Minimality: any deterministic automaton `M` with the same generated and marked languages maps
onto `Can(W, B)`. Words that reach one state of `M` reach one state of `Can` (so "reached by a
common word" is a function from `M`'s reachable states), and every state `Can` reaches is the
image of one `M` reaches. Hence `Can` has no more reachable states than `M`. -/
theorem canMinimal {W B : Lang} (hW : PrefixClosedL W) (h0 : W []) (hM : M.Det)
    (hG : ∀ z, M.Gen z ↔ W z) (hK : ∀ z, M.Marked z ↔ B z) :
    (∀ (z z' : Word) (q : Q) (S S' : Lang × Lang), M.Run M.init z q → M.Run M.init z' q →
      (can W B).Run (can W B).init z S → (can W B).Run (can W B).init z' S' → S = S') ∧
    (∀ z S, (can W B).Run (can W B).init z S → ∃ q, M.Run M.init z q) := by
  refine ⟨fun z z' q S S' hz hz' h h' => (canStateIff hW h0 h h').2 ⟨fun t => ?_, fun t => ?_⟩,
    fun z S h => (hG z).2 ((canRunIff hW h0 z S).1 h).1⟩
  · rw [← hG, ← hG, (futureOfState hM hz t).1, (futureOfState hM hz' t).1]; exact Iff.rfl
  · rw [← hK, ← hK, (futureOfState hM hz t).2, (futureOfState hM hz' t).2]; exact Iff.rfl

end

/-! The instance the runtime builds: `Can(W†, π₂ B̂†)` for a safe edit. -/

theorem wdagPrefixClosed (θ : Theta) : PrefixClosedL θ.Wdag :=
  fun u v ⟨o, y, hy, hp⟩ => ⟨o, y, hy, prefixTrans ⟨v, rfl⟩ hp⟩

theorem wdagNil (θ : Theta) (h : θ.SafeEdit) : θ.Wdag [] :=
  have ⟨⟨o, y⟩, hc⟩ := h; ⟨o, y, hc, prefixNil y⟩

theorem bprojInWdag (θ : Theta) (z : Word) (h : θ.Bproj z) : θ.Wdag z :=
  have ⟨o, hc⟩ := h; ⟨o, z, hc, prefixRefl z⟩

/-- The automaton lemma for the answer: when the edit is safe, `Can(W†, π₂ B̂†)` generates
exactly `W†` and marks exactly `π₂ B̂†`, and it is minimal among deterministic automata with these
languages. -/
theorem canDagLanguages (θ : Theta) (h : θ.SafeEdit) :
    (∀ z, (can θ.Wdag θ.Bproj).Gen z ↔ θ.Wdag z) ∧ (∀ z, (can θ.Wdag θ.Bproj).Marked z ↔ θ.Bproj z) :=
  canLanguages (wdagPrefixClosed θ) (wdagNil θ h) (bprojInWdag θ)

end AgentWarrant.Edits
