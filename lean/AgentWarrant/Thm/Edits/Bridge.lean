import AgentWarrant.Thm.Edits.Check
import AgentWarrant.Thm.Edits.Safety
/-! The computed answer equals the declarative one (*When Can Agents Safely Checkpoint, Fork, Restore, and Merge?*, Appendix A-A, "the
declarative object and the computed fixed point are defined independently, and the lemma proves
their equality").

The finite checker (`Spec/Edits/Check.lean`) takes each outcome's linearizations as an explicit
list and the policy as a finite list of words. `Agrees θ i` says the checker instance `i` presents
the declarative instance `θ`: same actions, labels and log; the checker's outcome IDs are exactly
`O`; each outcome's list holds exactly `Lin(p_o)`; and the finite policy list agrees with `𝒜_u` on
every word the check asks about. Under it, the checker's set is exactly `B̂†`, so (with Lemma 4)
the checker accepts iff a safe execution set exists and then returns the largest one. -/
namespace AgentWarrant.Edits
open AgentWarrant

structure Agrees (θ : Theta) (i : Inst) : Prop where
  act : θ.act = i.act
  log : θ.log = i.log
  outs : ∀ n, θ.O n ↔ ∃ o, o ∈ i.outs ∧ o.id = n
  lins : ∀ o, o ∈ i.outs → ∀ w, w ∈ o.lins ↔ Lin (θ.pom o.id) w
  policy : ∀ o w, o ∈ i.outs → w ∈ o.lins → (admitted i w = true ↔ θ.Allowed (resolved i w))

section
variable {θ : Theta} {i : Inst} (h : Agrees θ i)

theorem resolvedEq (w : List Nat) : resolved i w = resolve θ.act θ.log w := by
  rw [h.act, h.log]; rfl

theorem memB0 (c : Cand) : c ∈ b0 i ↔ θ.B0 c := by
  constructor
  · intro hc
    have ⟨l, hl, hcl⟩ := memConcat hc
    have ⟨o, ho, e⟩ := memMap hl
    rw [e] at hcl
    have ⟨w, hw, e2⟩ := memMap hcl
    have ⟨hwl, hadm⟩ := memFilt hw
    rw [e2]
    exact ⟨(h.outs o.id).2 ⟨o, ho, rfl⟩, ⟨w, (h.lins o ho w).1 hwl, resolvedEq h w⟩,
      (h.policy o w ho hwl).1 hadm⟩
  · intro ⟨hO, ⟨w, hw, hy⟩, hall⟩
    have ⟨o, ho, e⟩ := (h.outs c.1).1 hO
    rw [← e] at hw
    have hwl := (h.lins o ho w).2 hw
    have hy' : c.2 = resolved i w := by rw [resolvedEq h]; exact hy
    rw [hy'] at hall
    have hadm := (h.policy o w ho hwl).2 hall
    have hc : c = (o.id, resolved i w) := by
      cases c with
      | mk a b => simp at e hy'; rw [e, hy']
    rw [hc]
    exact concatMem (mapMem (f := candsOf i) ho) (mapMem (f := fun w => (o.id, resolved i w)) (filtMem hwl hadm))

theorem memCompat (z : Word) (n : Nat) : n ∈ compat i z ↔ θ.Compat z n := by
  constructor
  · intro hn
    have ⟨o, ho, e⟩ := memMap hn
    have ⟨hoo, hany⟩ := memFilt ho
    have ⟨w, hw, hp⟩ := anyBElim hany
    rw [e]
    exact ⟨(h.outs o.id).2 ⟨o, hoo, rfl⟩, resolved i w, ⟨w, (h.lins o hoo w).1 hw, resolvedEq h w⟩,
      isPrefixBSound _ _ hp⟩
  · intro ⟨hO, y, ⟨w, hw, hy⟩, hp⟩
    have ⟨o, ho, e⟩ := (h.outs n).1 hO
    rw [← e] at hw
    have hwl := (h.lins o ho w).2 hw
    rw [← resolvedEq h] at hy
    rw [hy] at hp
    have hany : anyB (fun w => isPrefixB z (resolved i w)) o.lins = true :=
      anyBIntro hwl (isPrefixBComplete _ _ hp)
    rw [← e]
    exact mapMem (filtMem ho hany)

theorem keepIff (S : List Cand) (c : Cand) : keep i S c = true ↔ θ.Keep (fun d => d ∈ S) c := by
  constructor
  · intro hk z o hz ho
    have h1 := allBElim hk z (prefixesComplete _ _ hz)
    have ⟨c', hc', e, hp⟩ := supportsSound (allBElim h1 o ((memCompat h z o).2 ho))
    cases c' with
    | mk a b => simp at e; rw [e] at hc'; exact ⟨b, hc', hp⟩
  · intro hk
    apply allBIntro
    intro z hz
    apply allBIntro
    intro o ho
    have ⟨y, hy, hp⟩ := hk z o (prefixesSound _ _ hz) ((memCompat h z o).1 ho)
    exact supportsComplete (o, y) hy rfl hp

/-- Every declarative post-fixed family inside `B` survives every round of the iteration. -/
theorem iterGreatestP {S : CandP → Prop} (hP : θ.PostFixed S) :
    ∀ (n : Nat) (B : List Cand), (∀ d, S d → d ∈ B) → ∀ d, S d → d ∈ iter i n B
  | 0, B, hB => hB
  | n + 1, B, hB => by
    rw [iterSucc]
    apply iterGreatestP hP n
    intro d hd
    exact filtMem (hB d hd) ((keepIff h B d).2 (Theta.keepMono hB (hP d hd)))

/-- The checker's set is exactly `B̂†`. -/
theorem safeSetIff (c : Cand) : c ∈ safeSet i ↔ θ.Bdag c := by
  have ⟨hpf, hsub⟩ := safeSetPostFixed i
  constructor
  · intro hc
    exact ⟨fun d => d ∈ safeSet i, fun d hd => (memB0 h d).1 (hsub d hd),
      fun d hd => (keepIff h _ d).1 (hpf d hd), hc⟩
  · intro ⟨S, hS, hP, hc⟩
    exact iterGreatestP h hP _ _ (fun d hd => (memB0 h d).2 (hS d hd)) c hc

theorem acceptsIffSafeEdit : accepts i = true ↔ θ.SafeEdit := by
  constructor
  · intro ha
    cases hs : safeSet i with
    | nil => simp [accepts, hs] at ha
    | cons c l => exact ⟨c, (safeSetIff h c).1 (by rw [hs]; exact Mem.head _)⟩
  · intro ⟨c, hc⟩
    have hm := (safeSetIff h c).2 hc
    cases hs : safeSet i with
    | nil => rw [hs] at hm; exact absurd hm notMemNil
    | cons _ _ => simp [accepts, hs]

/-- The checker is exact for Definition 2: it accepts iff a safe execution set exists, and then its
set is `B̂†`, the `B̂` of the unique `MaxSafe` pair. -/
theorem checkerExact (hA : θ.PrefixClosed) (hcov : θ.CoverWitnesses) :
    (accepts i = true ↔ ∃ L B, θ.Safe L B) ∧
    (accepts i = true → θ.MaxSafe θ.Wdag (fun c => c ∈ safeSet i)) := by
  refine ⟨Iff.trans (acceptsIffSafeEdit h) (Theta.lemma4 hA hcov).1.symm, ?_⟩
  intro ha
  have hne := (acceptsIffSafeEdit h).1 ha
  have ⟨L, B, hm⟩ := (Theta.lemma8 hA hcov).1.2 hne
  have ⟨hL, hB⟩ := (Theta.lemma8 hA hcov).2 L B hm
  have hs : θ.Safe θ.Wdag (fun c => c ∈ safeSet i) := by
    have hs0 := Theta.bdagSafe hA hcov hne
    exact ⟨have ⟨c, hc⟩ := hs0.nonempty; ⟨c, (safeSetIff h c).2 hc⟩,
      fun a ha => have ⟨t, y, hy, hc⟩ := hs0.preserves a ha; ⟨t, y, (safeSetIff h _).2 hy, hc⟩,
      fun o y hy => hs0.inWorkflow o y ((safeSetIff h _).1 hy),
      hs0.partialInWorkflow, hs0.policy,
      fun z => ⟨fun ⟨o, y, hy, hp⟩ => ⟨o, y, (safeSetIff h _).2 hy, hp⟩,
                fun ⟨o, y, hy, hp⟩ => ⟨o, y, (safeSetIff h _).1 hy, hp⟩⟩,
      fun z o hz ho => have ⟨y, hy, hp⟩ := hs0.completable z o hz ho; ⟨y, (safeSetIff h _).2 hy, hp⟩⟩
  exact ⟨hs, fun L' B' h' => ⟨(Theta.safeInside h').2, fun c hc => (safeSetIff h c).2 ((Theta.safeInside h').1 c hc)⟩⟩

end
end AgentWarrant.Edits
