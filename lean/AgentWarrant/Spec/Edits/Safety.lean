import AgentWarrant.Spec.Edits.List
import AgentWarrant.Spec.Edits.Resolve
/-! The security objective of execution edits, stated from scratch (*When Can Agents Safely Checkpoint, Fork, Restore, and Merge?*,
Section IV-D, Section V-C1 Definition 2, Appendix A-A), independently of the checker.

A derived check instance `Θ` (what `Derive` produces; the derivation itself is not modelled here)
has target outcomes `O`, each with a pomset `p_o` over workflow calls, the action of each call
(`q_act`), the label of each action (`ℓ`), the authorization log `Δ` (its actions in order, which
are also `D_Δ`), a policy `𝒜_u` over label words, and the source results with their status:
`RequiredBefore`, `Satisfied`, `AuthorizedRemoval` and the relation `Covers_u(t, a)`.

    Lin(p)      = duplicate-free words over p's events respecting p's order
    R_o         = {Resolve_Δ(w) | w ∈ Lin(p_o)}
    M_o         = {z ∈ R_o | lab(Δ)·lab(auth z) ∈ 𝒜_u}
    Compat(z)   = {o ∈ O | z ∈ ↓R_o}
    B̂₀          = ⊎_o {o} × M_o
    Φ̂(B̂)        = {(o, y) ∈ B̂ | ∀ z ⪯ y. ∀ o' ∈ Compat(z). ∃ (o', y') ∈ B̂. z ⪯ y'}
    B̂†          = the greatest fixed point of Φ̂ in 2^{B̂₀}, W† = ↓(π₂ B̂†)

Sets are predicates, so nothing here is finite: pomsets may have any finite number of events,
the policy need not be finite or regular (Definition 2 only uses its closure under truncation,
which the theorems take as a hypothesis), and `B̂†` is defined as the union of all post-fixed
subsets of `B̂₀` (Knaster–Tarski), not by iteration; `Thm/Edits/Bridge.lean` proves the checker's
iteration computes it on finite instances.
Choices where the paper is silent: calls, actions, labels, outcomes and source results are
natural numbers; `q_act` and `ℓ` are given as lists read by `nth` (any finite numbering). -/
namespace AgentWarrant.Edits
open AgentWarrant

/-- A pomset over workflow calls: its events and its (strict) order as pairs `a ≺ b`. -/
structure Pomset where
  events : List Nat
  order : List (Nat × Nat)
  deriving DecidableEq

/-- `a` occurs before `b` in `w`. -/
def Before (w : List Nat) (a b : Nat) : Prop := ∃ u v, w = u ++ a :: v ∧ b ∈ v

/-- `w ∈ Lin(p)`. -/
def Lin (p : Pomset) (w : List Nat) : Prop :=
  Nodup w ∧ (∀ x, x ∈ w ↔ x ∈ p.events) ∧ ∀ a b, (a, b) ∈ p.order → Before w a b

/-- A derived safety-check instance. -/
structure Theta where
  O : Nat → Prop
  pom : Nat → Pomset
  act : List Nat
  lab : List Nat
  log : List Nat
  A : List Nat → Prop
  requiredBefore : Nat → Prop
  satisfied : Nat → Prop
  authorizedRemoval : Nat → Prop
  covers : Nat → Nat → Prop

abbrev CandP := Nat × Word

namespace Theta
variable (θ : Theta)

def R (o : Nat) (y : Word) : Prop := ∃ w, Lin (θ.pom o) w ∧ y = resolve θ.act θ.log w

/-- The policy condition `lab(Δ)·lab(auth z) ∈ 𝒜_u`. -/
def Allowed (z : Word) : Prop := θ.A (labels θ.lab θ.log ++ labels θ.lab (auth z))

def M (o : Nat) (y : Word) : Prop := θ.R o y ∧ θ.Allowed y

def Compat (z : Word) (o : Nat) : Prop := θ.O o ∧ ∃ y, θ.R o y ∧ IsPrefix z y

def StillRequired (a : Nat) : Prop := θ.requiredBefore a ∧ ¬ θ.satisfied a ∧ ¬ θ.authorizedRemoval a

def PreservesRequired (B : CandP → Prop) : Prop :=
  ∀ a, θ.StillRequired a → ∃ t y, B (t, y) ∧ θ.covers t a

/-- Definition 2: `(L, B̂)` is a safe execution set. -/
structure Safe (L : Word → Prop) (B : CandP → Prop) : Prop where
  nonempty : ∃ c, B c
  preserves : θ.PreservesRequired B
  inWorkflow : ∀ o y, B (o, y) → θ.O o ∧ θ.R o y
  partialInWorkflow : ∀ z, L z → ∃ o y, θ.O o ∧ θ.R o y ∧ IsPrefix z y
  policy : ∀ z, L z → θ.Allowed z
  generated : ∀ z, L z ↔ ∃ o y, B (o, y) ∧ IsPrefix z y
  completable : ∀ z o, L z → θ.Compat z o → ∃ y, B (o, y) ∧ IsPrefix z y

def B0 (c : CandP) : Prop := θ.O c.1 ∧ θ.M c.1 c.2

/-- The condition `Φ̂` tests on each member. -/
def Keep (B : CandP → Prop) (c : CandP) : Prop :=
  ∀ z o, IsPrefix z c.2 → θ.Compat z o → ∃ y, B (o, y) ∧ IsPrefix z y

def Phi (B : CandP → Prop) (c : CandP) : Prop := B c ∧ θ.Keep B c

def PostFixed (B : CandP → Prop) : Prop := ∀ c, B c → θ.Keep B c

/-- `B̂†`: the union of the post-fixed subsets of `B̂₀`. -/
def Bdag (c : CandP) : Prop := ∃ S : CandP → Prop, (∀ d, S d → θ.B0 d) ∧ θ.PostFixed S ∧ S c

/-- `W† = ↓(π₂ B̂†)`. -/
def Wdag (z : Word) : Prop := ∃ o y, θ.Bdag (o, y) ∧ IsPrefix z y

/-- `SafeEdit(Θ)` for a derived instance: `B̂† ≠ ∅`. -/
def SafeEdit : Prop := ∃ c, θ.Bdag c

/-- `MaxSafe(Θ; L, B̂)`: safe, and contains every safe execution set. -/
def MaxSafe (L : Word → Prop) (B : CandP → Prop) : Prop :=
  θ.Safe L B ∧ ∀ L' B', θ.Safe L' B' → (∀ z, L' z → L z) ∧ (∀ c, B' c → B c)

/-- The policy is closed under truncation (Section IV-B3). -/
def PrefixClosed : Prop := ∀ u v, θ.A (u ++ v) → θ.A u

/-- The checked coverage witnesses the derivation provides (Section V-A2, the preservation lemma):
every still-required source result is covered by a complete target outcome, one with a
linearization. -/
def CoverWitnesses : Prop :=
  ∀ a, θ.StillRequired a → ∃ t, θ.O t ∧ θ.covers t a ∧ ∃ w, Lin (θ.pom t) w

end Theta
end AgentWarrant.Edits
