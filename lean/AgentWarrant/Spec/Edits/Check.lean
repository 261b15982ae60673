import AgentWarrant.Spec.Lib
import AgentWarrant.Spec.Edits.Resolve
import AgentWarrant.Spec.Edits.List
/-! The finite edit checker (*When Can Agents Safely Checkpoint, Fork, Restore, and Merge?*, Section V-C1, Appendix A-A; Lemma 4).

    B̂₀        = {(o, z) | w ∈ Lin(p_o), z = Resolve_Δ(w), lab(Δ)·lab(auth z) ∈ 𝒜}
    Compat(z) = {o | z ⪯ Resolve_Δ(w) for some w ∈ Lin(p_o)}
    Φ(B̂)      = {(o, y) ∈ B̂ | ∀ z ⪯ y, ∀ o' ∈ Compat(z), ∃ (o', y') ∈ B̂, z ⪯ y'}

Finite form: every outcome carries the explicit list of its linearizations, and the policy is
a finite prefix-closed list of label words (the oracle's translation passes every policy word
the check can ask about). The fixed point is reached by iterating Φ with fuel `|B̂₀|`: Φ is a
filter, so each round either changes nothing or removes a candidate.
Choice where the paper is silent: candidates keep the order of enumeration (outcomes, then
linearizations, as given); sets are compared by membership, never by position. -/
namespace AgentWarrant.Edits
open AgentWarrant

structure Outcome where
  id : Nat
  lins : List (List Nat)

structure Inst where
  outs : List Outcome
  act : List Nat
  lab : List Nat
  log : List Nat
  policy : List (List Nat)

abbrev Cand := Nat × Word

def inPolicy (P : List (List Nat)) (u : List Nat) : Bool := anyB (fun v => decide (v = u)) P

def isPrefixB : Word → Word → Bool
  | [], _ => true
  | _ :: _, [] => false
  | a :: z, b :: w => match decide (a = b) with
    | true => isPrefixB z w
    | false => false

def prefixes : Word → List Word
  | [] => [[]]
  | a :: w => [] :: List.map (fun z => a :: z) (prefixes w)

def resolved (i : Inst) (w : List Nat) : Word := resolve i.act i.log w

def admitted (i : Inst) (w : List Nat) : Bool :=
  inPolicy i.policy (labels i.lab i.log ++ labels i.lab (auth (resolved i w)))

def candsOf (i : Inst) (o : Outcome) : List Cand :=
  List.map (fun w => (o.id, resolved i w)) (filt (admitted i) o.lins)

/-- `B̂₀`. -/
def b0 (i : Inst) : List Cand := concatL (List.map (candsOf i) i.outs)

/-- `Compat(z)` as the list of outcome IDs (over the workflow, regardless of policy). -/
def compat (i : Inst) (z : Word) : List Nat :=
  List.map Outcome.id (filt (fun o => anyB (fun w => isPrefixB z (resolved i w)) o.lins) i.outs)

def supports (B : List Cand) (z : Word) (o : Nat) : Bool :=
  anyB (fun c => match decide (c.1 = o) with | true => isPrefixB z c.2 | false => false) B

def keep (i : Inst) (B : List Cand) (c : Cand) : Bool :=
  allB (fun z => allB (supports B z) (compat i z)) (prefixes c.2)

/-- `Φ̂`. -/
def phi (i : Inst) (B : List Cand) : List Cand := filt (keep i B) B

def iter (i : Inst) : Nat → List Cand → List Cand
  | 0, B => B
  | n + 1, B => iter i n (phi i B)

/-- The checker's answer: the greatest fixed point below `B̂₀`, empty iff rejected. -/
def safeSet (i : Inst) : List Cand := iter i (List.length (b0 i)) (b0 i)

def accepts (i : Inst) : Bool := match safeSet i with
  | [] => false
  | _ :: _ => true

/-- The sizes `|B̂₀|, |B̂₁|, …` until the fixed point (the rounds of the rejection proof). -/
def sizes (i : Inst) : Nat → List Cand → List Nat
  | 0, B => [List.length B]
  | n + 1, B => match Nat.beq (List.length (phi i B)) (List.length B) with
    | true => [List.length B]
    | false => List.length B :: sizes i n (phi i B)

def Sub (S B : List Cand) : Prop := ∀ c, c ∈ S → c ∈ B

/-- Post-fixed: every member is kept by Φ̂ (`S ⊆ Φ̂(S)`). -/
def PostFixed (i : Inst) (S : List Cand) : Prop := ∀ c, c ∈ S → keep i S c = true

/-- A safe execution set in the checker's finite form: a nonempty post-fixed subset of `B̂₀`. -/
def SafeSet (i : Inst) (S : List Cand) : Prop := S ≠ [] ∧ Sub S (b0 i) ∧ PostFixed i S

end AgentWarrant.Edits
