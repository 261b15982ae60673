import AgentWarrant.Spec.Lib
import AgentWarrant.Edits.Resolve
/-! The finite edit checker (execution-edit-checking.md, Section V-C1, Appendix A-A; Lemma 4).

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

def labels (lab : List Nat) : List Nat → List Nat
  | [] => []
  | d :: ds => nth lab d :: labels lab ds

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

def concatL : List (List α) → List α
  | [] => []
  | l :: ls => l ++ concatL ls

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

theorem iterSucc (i : Inst) (n : Nat) (B : List Cand) : iter i (n + 1) B = iter i n (phi i B) := rfl

/-- Φ̂ is deflationary. -/
theorem phiDeflationary (i : Inst) (B : List Cand) : Sub (phi i B) B :=
  fun _ h => (memFilt h).1

theorem supportsMono {S B : List Cand} (hSB : Sub S B) (z : Word) (o : Nat) :
    supports S z o = true → supports B z o = true := by
  intro h
  have ⟨c, hc, hp⟩ := anyBElim h
  exact anyBIntro (hSB c hc) hp

theorem keepMono (i : Inst) {S B : List Cand} (hSB : Sub S B) (c : Cand) :
    keep i S c = true → keep i B c = true := by
  intro h
  exact allBMono (fun z hz => allBMono (supportsMono hSB z) hz) h

/-- Φ̂ is monotone. -/
theorem phiMonotone (i : Inst) {S B : List Cand} (hSB : Sub S B) : Sub (phi i S) (phi i B) := by
  intro c hc
  have ⟨hcS, hk⟩ := memFilt hc
  exact filtMem (hSB c hcS) (keepMono i hSB c hk)

theorem iterFix (i : Inst) {B : List Cand} (h : phi i B = B) : ∀ n, iter i n B = B
  | 0 => rfl
  | n + 1 => by rw [iterSucc, h]; exact iterFix i h n

theorem lenZero : ∀ {B : List Cand}, List.length B ≤ 0 → B = []
  | [], _ => rfl
  | a :: l, h => by rw [List.length_cons] at h; exact absurd h (Nat.notSuccLeZero _)

/-- With fuel at least `|B|`, the iteration reaches a fixed point of Φ̂. -/
theorem iterFixed (i : Inst) : ∀ (n : Nat) (B : List Cand), List.length B ≤ n → phi i (iter i n B) = iter i n B
  | 0, B, h => by rw [lenZero h]; rfl
  | n + 1, B, h => by
    rw [iterSucc]
    cases filtSameOrShorter (keep i B) B with
    | inl hfix =>
      have hp : phi i B = B := hfix
      rw [hp, iterFix i hp n]; exact hp
    | inr hlt => exact iterFixed i n (phi i B) (Nat.leOfSuccLeSucc (Nat.leTrans hlt h))

/-- The iteration reaches a post-fixed set. -/
theorem iterPostFixed (i : Inst) (n : Nat) (B : List Cand) (h : List.length B ≤ n) :
    PostFixed i (iter i n B) := by
  intro c hc
  have hfix := iterFixed i n B h
  rw [← hfix] at hc
  exact (memFilt hc).2

theorem iterSub (i : Inst) : ∀ (n : Nat) (B : List Cand), Sub (iter i n B) B
  | 0, _ => fun _ h => h
  | n + 1, B => fun c h => phiDeflationary i B c (iterSub i n (phi i B) c h)

/-- Every post-fixed subset of `B` survives every round. -/
theorem iterGreatest (i : Inst) {S : List Cand} (hS : PostFixed i S) :
    ∀ (n : Nat) (B : List Cand), Sub S B → Sub S (iter i n B)
  | 0, _, h => h
  | n + 1, B, h => by
    rw [iterSucc]
    apply iterGreatest i hS n
    intro c hc
    exact filtMem (h c hc) (keepMono i h c (hS c hc))

/-- A safe execution set in its finite form: a nonempty post-fixed subset of `B̂₀`. -/
def SafeSet (i : Inst) (S : List Cand) : Prop := S ≠ [] ∧ Sub S (b0 i) ∧ PostFixed i S

/-- The checker's set is post-fixed and below `B̂₀`. -/
theorem safeSetPostFixed (i : Inst) : PostFixed i (safeSet i) ∧ Sub (safeSet i) (b0 i) :=
  ⟨iterPostFixed i _ _ (Nat.leRefl _), iterSub i _ _⟩

/-- Every safe execution set is contained in the checker's answer. -/
theorem safeSetGreatest (i : Inst) {S : List Cand} (h : SafeSet i S) : Sub S (safeSet i) :=
  iterGreatest i h.2.2 _ _ h.2.1

/-- Lemma 4, finite form: the checker accepts iff a safe execution set exists ... -/
theorem acceptsIff (i : Inst) : accepts i = true ↔ ∃ S, SafeSet i S := by
  constructor
  · intro h
    have hp := safeSetPostFixed i
    cases hs : safeSet i with
    | nil => simp [accepts, hs] at h
    | cons c l =>
      rw [hs] at hp
      exact ⟨c :: l, fun e => List.noConfusion e, hp.2, hp.1⟩
  · intro ⟨S, hS⟩
    have hsub := safeSetGreatest i hS
    cases S with
    | nil => exact absurd rfl hS.1
    | cons c l =>
      have hc := hsub c (Mem.head _)
      cases hs : safeSet i with
      | nil => rw [hs] at hc; exact absurd hc notMemNil
      | cons _ _ => simp [accepts, hs]

/-- ... and when it accepts, its answer is itself safe, hence the largest safe execution set. -/
theorem acceptsLargest (i : Inst) (h : accepts i = true) :
    SafeSet i (safeSet i) ∧ ∀ S, SafeSet i S → Sub S (safeSet i) := by
  have hp := safeSetPostFixed i
  refine ⟨⟨?_, hp.2, hp.1⟩, fun S hS => safeSetGreatest i hS⟩
  intro e
  simp [accepts, e] at h

end AgentWarrant.Edits
