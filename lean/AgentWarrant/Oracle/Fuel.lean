/-! Total loops over positions of a text, for the request parsers (`Oracle/Parse.lean`,
`Oracle/FastParse.lean`).

A parser's loops (over whitespace, digits, a string's runs, and the values of the text, whose open
arrays and objects it keeps as data) move forward through the text; the 2021 equation compiler
accepts only structural recursion, so every loop here is `fixF`: structural on a fuel, with a guard
on each continuation. With the step inlined, the specialized loop's continuation is a tail call, so
a loop costs no stack per step. A step hands `rec` the state
to continue from; `rec` continues only when the state's position is past the current one and still
inside the text (`pos y < n`), and otherwise answers `stop y` (for a position at or past the end, what
the parser answers there: the end of input). `fixStable` proves the fuel sufficient: from a position
inside the text, any two fuels of at least the distance to the end give the same answer, so the fuel
a parser starts with (the text's length) is never what ends it. The guard's other refusal, a
continuation that does not move forward, is part of the definition: every continuation of the
parsers follows a consumed character, so it answers `stop` there only if that is broken (the
differential tests would see the refusal). -/
namespace AgentWarrant.Oracle.Fuel

/-- Iterate `step` on a fuel: `step rec x` answers for the state `x`, calling `rec y` to continue from
`y`, which is refused (`stop y`) unless `y` is past `x` and inside the text of length `n`. -/
@[specialize] def fixF {σ α : Type} (n : Nat) (pos : σ → Nat) (stop : σ → α) (step : (σ → α) → σ → α) :
    Nat → σ → α
  | 0, x => stop x
  | f + 1, x => step (fun y => if pos x < pos y ∧ pos y < n then fixF n pos stop step f y else stop y) x

theorem fixSucc {σ α : Type} (n : Nat) (pos : σ → Nat) (stop : σ → α) (step : (σ → α) → σ → α) (f : Nat) (x : σ) :
    fixF n pos stop step (f + 1) x =
      step (fun y => if pos x < pos y ∧ pos y < n then fixF n pos stop step f y else stop y) x := rfl

theorem fuelAfter {p q n f : Nat} (hpq : p < q) (h : n ≤ p + (f + 1)) : n ≤ q + f := by
  have e : p + (f + 1) = Nat.succ p + f := (Nat.succ_add p f).symm
  rw [e] at h
  exact Nat.leTrans h (Nat.addLeAddRight hpq f)

theorem noFuel {p n : Nat} (hp : p < n) (h : n ≤ p + 0) : False :=
  Nat.ltIrrefl p (Nat.ltOfLtOfLe hp h)

/-- The fuel is sufficient: from a state inside the text, every fuel of at least the distance to the
text's end gives the same answer. -/
theorem fixStable {σ α : Type} (n : Nat) (pos : σ → Nat) (stop : σ → α) (step : (σ → α) → σ → α) :
    ∀ (f g : Nat) (x : σ), pos x < n → n ≤ pos x + f → n ≤ pos x + g →
      fixF n pos stop step f x = fixF n pos stop step g x
  | 0, _, x, hx, hf, _ => absurd hf (fun h => noFuel hx h)
  | _ + 1, 0, x, hx, _, hg => absurd hg (fun h => noFuel hx h)
  | f + 1, g + 1, x, hx, hf, hg => by
    rw [fixSucc, fixSucc]
    have e : (fun y => if pos x < pos y ∧ pos y < n then fixF n pos stop step f y else stop y) =
        (fun y => if pos x < pos y ∧ pos y < n then fixF n pos stop step g y else stop y) := by
      apply funext
      intro y
      exact Decidable.byCases (p := pos x < pos y ∧ pos y < n)
        (fun h => by
          rw [ifPos h, ifPos h]
          exact fixStable n pos stop step f g y h.2 (fuelAfter h.1 hf) (fuelAfter h.1 hg))
        (fun h => by rw [ifNeg h, ifNeg h])
    rw [e]

/-- Run a loop from `x` with the fuel `n` (enough from any position, `fixStable`); a state at or past
the end is answered by `stop`. -/
@[inline] def run {σ α : Type} (n : Nat) (pos : σ → Nat) (stop : σ → α) (step : (σ → α) → σ → α) (x : σ) : α :=
  if pos x < n then fixF n pos stop step n x else stop x

/-- `run`'s answer is the one every larger fuel gives. -/
theorem runStable {σ α : Type} (n : Nat) (pos : σ → Nat) (stop : σ → α) (step : (σ → α) → σ → α) (x : σ)
    (hx : pos x < n) (f : Nat) (hf : n ≤ f) : run n pos stop step x = fixF n pos stop step f x := by
  show (if pos x < n then fixF n pos stop step n x else stop x) = _
  rw [ifPos hx]
  exact fixStable n pos stop step n f x hx (Nat.leAddLeft n (pos x)) (Nat.leTrans hf (Nat.leAddLeft f (pos x)))

end AgentWarrant.Oracle.Fuel
