import AgentWarrant.Spec.Edits.Information
import AgentWarrant.Thm.Edits.Bridge
/-! Theorem 4 (*When Can Agents Safely Checkpoint, Fork, Restore, and Merge?*, Section VII, Appendices A-F
and A-G): `Exact(Keep_J)` iff `J = {P, I, E, C}`, and `Drop_ca`, `Drop_ra` are inexact.

"If": the answer is a function of the whole record. "Only if": for each part, two concrete
records that differ only in that part and get opposite answers (Table II), evaluated by the finite
checker. Throughout, the label `a` is `0` and the policy is `↓{a} = {ε, a}`.

- **P** (checker-level analogue of the paper's `X ⊕ Y` / `X ∥ Y` pair, whose opposite answer comes
  from `Derive`, which is not modelled): calls `x, y` on distinct actions both labelled `a`; the
  target `X ⊕ Y` is accepted (each arm one `new`), `X ∥ Y` is rejected (`aa`).
- **I**: target `(X ⊗ Y_k) ⊕ Y` with calls `x, y, y_k` (`y_k` shares `y`'s action);
  `q_act(x) = q_act(y) = d₀` (one `new`, accepted) against `q_act(y) = d₁ ≠ d₀` (two, `aa`, rejected).
- **E** (the paper's pair): after `c` created record `p` for `d` and queued its request, `Y₀` checks
  the restored clone `x_k` (it reuses `d`); `Dispatch(d)` changes only the queue, and
  `TryUpdate(Y₀)` then returns `NoCommit` instead of putting the rules into effect.
- **E** at `Decide` (one more earlier authorization): the clone's action `e` is new; with a
  prior authorization of `d` (also labelled `a`) the word is `aa`, rejected.
- **C**: the same record under two active rule versions; `TryUpdate(Y₀)`, checked at the first, takes
  effect there and returns `NoCommit` at the second.
- **`Drop_ra`**: creator `c`, clone `x_k` of `x` with `q_act(x) = d`; record `p` names `d` (and
  `q_act(c) = d`): `reuse`, accepted; record `p` names `e` (`q_act(c) = e`): `new d`, `aa`, rejected. -/
namespace AgentWarrant.Edits
open AgentWarrant

def polA : List (List Nat) := [[], [0]]

def recP0 : Record := ⟨⟨[⟨0, [[0]]⟩, ⟨1, [[1]]⟩]⟩, ⟨[0, 1], [0, 0]⟩, ⟨[], polA, []⟩, ⟨0⟩⟩
def recP1 : Record := ⟨⟨[⟨0, [[0, 1], [1, 0]]⟩]⟩, ⟨[0, 1], [0, 0]⟩, ⟨[], polA, []⟩, ⟨0⟩⟩

def recI0 : Record := ⟨⟨[⟨0, [[0, 2], [2, 0]]⟩, ⟨1, [[1]]⟩]⟩, ⟨[0, 0, 0], [0, 0]⟩, ⟨[], polA, []⟩, ⟨0⟩⟩
def recI1 : Record := ⟨⟨[⟨0, [[0, 2], [2, 0]]⟩, ⟨1, [[1]]⟩]⟩, ⟨[0, 1, 1], [0, 0]⟩, ⟨[], polA, []⟩, ⟨0⟩⟩

def recE0 : Record := ⟨⟨[⟨0, [[2]]⟩]⟩, ⟨[0, 0, 0], [0]⟩, ⟨[⟨0, 0⟩], polA, [0]⟩, ⟨0⟩⟩
def recE1 : Record := ⟨⟨[⟨0, [[2]]⟩]⟩, ⟨[0, 0, 0], [0]⟩, ⟨[⟨0, 0⟩], polA, []⟩, ⟨0⟩⟩

def recL0 : Record := ⟨⟨[⟨0, [[2]]⟩]⟩, ⟨[0, 1, 1], [0, 0]⟩, ⟨[], polA, []⟩, ⟨0⟩⟩
def recL1 : Record := ⟨⟨[⟨0, [[2]]⟩]⟩, ⟨[0, 1, 1], [0, 0]⟩, ⟨[⟨0, 0⟩], polA, []⟩, ⟨0⟩⟩

def recC1 : Record := ⟨⟨[⟨0, [[2]]⟩]⟩, ⟨[0, 0, 0], [0]⟩, ⟨[⟨0, 0⟩], polA, [0]⟩, ⟨1⟩⟩

def recR0 : Record := ⟨⟨[⟨0, [[2]]⟩]⟩, ⟨[0, 0, 0], [0, 0]⟩, ⟨[⟨0, 0⟩], polA, []⟩, ⟨0⟩⟩
def recR1 : Record := ⟨⟨[⟨0, [[2]]⟩]⟩, ⟨[1, 0, 0], [0, 0]⟩, ⟨[⟨0, 1⟩], polA, []⟩, ⟨0⟩⟩

/-- Table II: for each part, the two records and the common request. -/
def pair : Part → Record × Record × Query
  | Part.P => (recP0, recP1, Query.decide)
  | Part.I => (recI0, recI1, Query.decide)
  | Part.E => (recE0, recE1, Query.tryUpdate (check recE0))
  | Part.C => (recE0, recC1, Query.tryUpdate (check recE0))

/-- The verdicts, by evaluation: each pair's first record is accepted (or updated), the second
rejected (or `NoCommit`). -/
theorem pairAnswers :
    (∃ B, ans recP0 Query.decide = Answer.accepted B) ∧ ans recP1 Query.decide = Answer.rejected ∧
    (∃ B, ans recI0 Query.decide = Answer.accepted B) ∧ ans recI1 Query.decide = Answer.rejected ∧
    (∃ B, ans recE0 (Query.tryUpdate (check recE0)) = Answer.updated B) ∧
      ans recE1 (Query.tryUpdate (check recE0)) = Answer.noCommit ∧
    ans recC1 (Query.tryUpdate (check recE0)) = Answer.noCommit ∧
    (∃ B, ans recL0 Query.decide = Answer.accepted B) ∧ ans recL1 Query.decide = Answer.rejected ∧
    (∃ B, ans recR0 Query.decide = Answer.accepted B) ∧ ans recR1 Query.decide = Answer.rejected :=
  ⟨⟨_, rfl⟩, rfl, ⟨_, rfl⟩, rfl, ⟨_, rfl⟩, rfl, rfl, ⟨_, rfl⟩, rfl, ⟨_, rfl⟩, rfl⟩

theorem pairOpposite (x : Part) : ans (pair x).1 (pair x).2.2 ≠ ans (pair x).2.1 (pair x).2.2 := by
  cases x <;> decide

theorem keepOptEq (b : Bool) (x y : α) (h : b = true → x = y) : keepOpt b x = keepOpt b y := by
  cases b with
  | true => rw [h rfl]
  | false => rfl

/-- Two records that agree on every kept part have the same `Keep_J` view. -/
theorem keepCollapses (J : Part → Bool) (V₀ V₁ : Record) (hp : J Part.P = true → V₀.p = V₁.p)
    (hi : J Part.I = true → V₀.i = V₁.i) (he : J Part.E = true → V₀.e = V₁.e)
    (hc : J Part.C = true → V₀.c = V₁.c) : keepJ J V₀ = keepJ J V₁ := by
  simp only [keepJ]
  rw [keepOptEq _ _ _ hp, keepOptEq _ _ _ hi, keepOptEq _ _ _ he, keepOptEq _ _ _ hc]

theorem notKept {J : Part → Bool} {x : Part} (hx : J x = false) (h : J x = true) : α :=
  absurd (hx.symm.trans h) (by decide)

/-- Each pair differs only in its part: omitting that part collapses it. -/
theorem pairCollapses (J : Part → Bool) (x : Part) (hx : J x = false) :
    keepJ J (pair x).1 = keepJ J (pair x).2.1 := by
  cases x with
  | P => exact keepCollapses J _ _ (notKept hx) (fun _ => rfl) (fun _ => rfl) (fun _ => rfl)
  | I => exact keepCollapses J _ _ (fun _ => rfl) (notKept hx) (fun _ => rfl) (fun _ => rfl)
  | E => exact keepCollapses J _ _ (fun _ => rfl) (fun _ => rfl) (notKept hx) (fun _ => rfl)
  | C => exact keepCollapses J _ _ (fun _ => rfl) (fun _ => rfl) (fun _ => rfl) (notKept hx)

theorem recordExt : ∀ {V₀ V₁ : Record}, V₀.p = V₁.p → V₀.i = V₁.i → V₀.e = V₁.e → V₀.c = V₁.c → V₀ = V₁
  | ⟨_, _, _, _⟩, ⟨_, _, _, _⟩, hp, hi, he, hc => by simp at hp hi he hc; rw [hp, hi, he, hc]

theorem someInj {a b : α} (h : keepOpt true a = keepOpt true b) : a = b := Option.some.inj h

/-- Lemma 12: an exact view separates every two records some request tells apart. -/
theorem exactSeparates {f : Record → β} (hf : Exact f) {V₀ V₁ : Record} (q : Query)
    (h : ans V₀ q ≠ ans V₁ q) : f V₀ ≠ f V₁ :=
  fun e => h (hf V₀ V₁ e q)

/-- Theorem 4: `Keep_J` is exact iff `J` names all four parts. -/
theorem keepExactIff (J : Part → Bool) : Exact (keepJ J) ↔ ∀ x, J x = true := by
  constructor
  · intro hE x
    cases hx : J x with
    | true => rfl
    | false => exact absurd (pairCollapses J x hx) (exactSeparates hE _ (pairOpposite x))
  · intro hJ V₀ V₁ e q
    have hp := congrArg View.p e
    have hi := congrArg View.i e
    have he := congrArg View.e e
    have hc := congrArg View.c e
    simp only [keepJ, hJ] at hp hi he hc
    rw [recordExt (someInj hp) (someInj hi) (someInj he) (someInj hc)]

/-- The I pair also collapses under `Drop_ca`: it differs only in which calls share an action. -/
theorem dropCAInexact : ¬ Exact dropCA :=
  fun hE => exactSeparates hE _ (pairOpposite Part.I) rfl

/-- The fifth pair: `Drop_ra` is inexact. -/
theorem dropRAInexact : ¬ Exact dropRA :=
  fun hE => exactSeparates hE Query.decide (by decide) (show dropRA recR0 = dropRA recR1 by decide)

/-- E matters at `Decide` too: one more earlier authorization flips the verdict, and the two records
agree on P, I and C. -/
theorem logPairCollapses (J : Part → Bool) (hx : J Part.E = false) :
    keepJ J recL0 = keepJ J recL1 ∧ ans recL0 Query.decide ≠ ans recL1 Query.decide :=
  ⟨keepCollapses J _ _ (fun _ => rfl) (fun _ => rfl) (notKept hx) (fun _ => rfl), by decide⟩

/-- Every exact view distinguishes all five pairs of Table II (and the `Decide` pair for E). -/
theorem exactDistinguishesPairs {f : Record → β} (hf : Exact f) :
    f recP0 ≠ f recP1 ∧ f recI0 ≠ f recI1 ∧ f recE0 ≠ f recE1 ∧ f recE0 ≠ f recC1 ∧
    f recR0 ≠ f recR1 ∧ f recL0 ≠ f recL1 :=
  ⟨exactSeparates hf _ (pairOpposite Part.P), exactSeparates hf _ (pairOpposite Part.I),
   exactSeparates hf _ (pairOpposite Part.E), exactSeparates hf _ (pairOpposite Part.C),
   exactSeparates hf Query.decide (by decide), exactSeparates hf Query.decide (by decide)⟩

/-- The `Decide` answer is the declarative one: for any derived instance `θ` that the record's check
instance presents (`Agrees`), it accepts iff `SafeEdit θ`, and an accepted set is exactly `B̂†`. -/
theorem decideDeclarative (V : Record) (θ : Theta) (h : Agrees θ V.inst) :
    ((∃ B, ans V Query.decide = Answer.accepted B) ↔ θ.SafeEdit) ∧
    (∀ B, ans V Query.decide = Answer.accepted B → ∀ c, c ∈ B ↔ θ.Bdag c) := by
  have hS : ∀ B, ans V Query.decide = Answer.accepted B → B = safeSet V.inst := by
    intro B e
    have e' : decideAnswer (safeSet V.inst) = Answer.accepted B := e
    cases hs : safeSet V.inst with
    | nil => rw [hs] at e'; exact Answer.noConfusion e'
    | cons c B' => rw [hs] at e'; exact (Answer.accepted.inj e').symm
  refine ⟨Iff.trans ?_ (acceptsIffSafeEdit h), fun B e c => by rw [hS B e]; exact safeSetIff h c⟩
  constructor
  · intro ⟨B, e⟩
    have e' : decideAnswer (safeSet V.inst) = Answer.accepted B := e
    cases hs : safeSet V.inst with
    | nil => rw [hs] at e'; exact Answer.noConfusion e'
    | cons c B' => simp [accepts, hs]
  · intro ha
    cases hs : safeSet V.inst with
    | nil => simp [accepts, hs] at ha
    | cons c B' => exact ⟨c :: B', show decideAnswer (safeSet V.inst) = _ by rw [hs]; rfl⟩

end AgentWarrant.Edits
