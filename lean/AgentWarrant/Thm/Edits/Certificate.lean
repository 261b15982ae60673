import AgentWarrant.Spec.Edits.Certificate
import AgentWarrant.Thm.Edits.Verify
import AgentWarrant.Thm.Edits.Input
/-! Completeness of the rejection-proof verifier (*When Can Agents Safely Checkpoint, Fork, Restore, and
Merge?*, Section V-C3, Appendix A-B): when the checker rejects, the proof its iteration yields
(`proofOf`, `Spec/Edits/Certificate.lean`) is accepted by the verifier (`verifyComplete`); with
soundness, the verifier accepts some proof for an instance iff the checker rejects it. -/
namespace AgentWarrant.Edits
open AgentWarrant

theorem notBTrue {b : Bool} (h : b = false) : notB b = true := by rw [h]; rfl

theorem andBIntro {a b : Bool} (ha : a = true) (hb : b = true) : andB a b = true := by rw [ha, hb]; rfl

theorem memCFalse {c : Cand} {B : List Cand} (h : ¬ c ∈ B) : memC c B = false := by
  cases hm : memC c B with
  | false => rfl
  | true => exact absurd (memCElim hm) h

theorem allBFalse {p : α → Bool} : ∀ {l : List α}, allB p l = false → ∃ x, x ∈ l ∧ p x = false
  | [], h => Bool.noConfusion h
  | a :: l, h => by
    cases hp : p a with
    | false => exact ⟨a, Mem.head _, hp⟩
    | true =>
      simp [allB, hp] at h
      have ⟨x, hx, hpx⟩ := allBFalse h
      exact ⟨x, Mem.tail _ hx, hpx⟩

theorem firstFalseSome {p : α → Bool} {x : α} : ∀ {l : List α}, firstFalse p l = some x → x ∈ l ∧ p x = false
  | [], h => Option.noConfusion h
  | a :: l, h => by
    cases hp : p a with
    | false =>
      simp [firstFalse, hp] at h
      rw [← h]; exact ⟨Mem.head _, hp⟩
    | true =>
      simp [firstFalse, hp] at h
      have ⟨hx, hpx⟩ := firstFalseSome h
      exact ⟨Mem.tail _ hx, hpx⟩

theorem firstFalseNone {p : α → Bool} : ∀ {l : List α}, firstFalse p l = none → allB p l = true
  | [], _ => rfl
  | a :: l, h => by
    cases hp : p a with
    | false => simp [firstFalse, hp] at h
    | true => simp [firstFalse, hp] at h; simp [allB, hp]; exact firstFalseNone h

theorem memDedupC {x : Cand} : ∀ {l : List Cand}, x ∈ dedupC l ↔ x ∈ l
  | [] => Iff.rfl
  | c :: l => by
    cases hm : memC c l with
    | true =>
      simp [dedupC, hm]
      constructor
      · intro h; exact Mem.tail _ ((memDedupC (l := l)).1 h)
      · intro h
        cases memCons h with
        | inl e1 => rw [e1]; exact (memDedupC (l := l)).2 (memCElim hm)
        | inr e2 => exact (memDedupC (l := l)).2 e2
    | false =>
      simp [dedupC, hm]
      constructor
      · intro h
        cases memCons h with
        | inl e1 => rw [e1]; exact Mem.head _
        | inr e2 => exact Mem.tail _ ((memDedupC (l := l)).1 e2)
      · intro h
        cases memCons h with
        | inl e1 => rw [e1]; exact Mem.head _
        | inr e2 => exact Mem.tail _ ((memDedupC (l := l)).2 e2)

theorem nodupDedupC : ∀ (l : List Cand), nodupC (dedupC l) = true
  | [] => rfl
  | c :: l => by
    cases hm : memC c l with
    | true => simp [dedupC, hm]; exact nodupDedupC l
    | false =>
      simp [dedupC, hm]
      show andB (notB (memC c (dedupC l))) (nodupC (dedupC l)) = true
      refine andBIntro (notBTrue (memCFalse (fun h => ?_))) (nodupDedupC l)
      rw [memCIntro (memDedupC.1 h)] at hm; exact Bool.noConfusion hm

theorem nodupFilt (p : Cand → Bool) : ∀ {l : List Cand}, nodupC l = true → nodupC (filt p l) = true
  | [], _ => rfl
  | c :: l, h => by
    have ⟨h1, h2⟩ := andBElim h
    cases hp : p c with
    | false => simp [filt, hp]; exact nodupFilt p h2
    | true =>
      simp [filt, hp]
      show andB (notB (memC c (filt p l))) (nodupC (filt p l)) = true
      refine andBIntro (notBTrue (memCFalse (fun hm => ?_))) (nodupFilt p h2)
      rw [memCIntro (memFilt hm).1] at h1; exact Bool.noConfusion h1

theorem filtShorter {p : α → Bool} {x : α} : ∀ {l : List α}, x ∈ l → p x = false →
    List.length (filt p l) + 1 ≤ List.length l
  | [], h, _ => absurd h notMemNil
  | a :: l, h, hx => by
    cases h with
    | head _ => simp [filt, hx]; exact Nat.succLeSucc (filtLe p l)
    | tail _ h' =>
      cases hp : p a with
      | true => simp [filt, hp]; exact Nat.succLeSucc (filtShorter h' hx)
      | false => simp [filt, hp]; exact Nat.leStep (filtShorter h' hx)

theorem witnessCand (i : Inst) (B : List Cand) (c : Cand) : (witness i B c).cand = c := by
  cases h1 : firstFalse (fun z => allB (supports B z) (compat i z)) (prefixes c.2) with
  | none => simp [witness, h1]
  | some z =>
    cases h2 : firstFalse (supports B z) (compat i z) with
    | none => simp [witness, h1, h2]
    | some o => simp [witness, h1, h2]

theorem witnessOkOf (i : Inst) (B : List Cand) (c : Cand) (hc : c ∈ B) (hk : keep i B c = false) :
    witnessOk i B (witness i B c) = true := by
  cases h1 : firstFalse (fun z => allB (supports B z) (compat i z)) (prefixes c.2) with
  | none =>
    have hk' : keep i B c = true := firstFalseNone h1
    rw [hk'] at hk; exact Bool.noConfusion hk
  | some z =>
    have ⟨hz, hzf⟩ := firstFalseSome h1
    cases h2 : firstFalse (supports B z) (compat i z) with
    | none =>
      have hzf' : allB (supports B z) (compat i z) = false := hzf
      rw [firstFalseNone h2] at hzf'; exact Bool.noConfusion hzf'
    | some o =>
      have ⟨ho, hof⟩ := firstFalseSome h2
      have hw : witness i B c = ⟨c, z, o⟩ := by simp [witness, h1, h2]
      rw [hw]
      exact andBIntro (memCIntro hc) (andBIntro (isPrefixBComplete _ _ (prefixesSound _ _ hz))
        (andBIntro (anyBIntro ho (beqSelf o)) (notBTrue hof)))

theorem removedRemovals (i : Inst) (B : List Cand) :
    removedC (removals i B) = filt (fun c => notB (keep i B c)) B := by
  show List.map Removal.cand (List.map (witness i B) (filt (fun c => notB (keep i B c)) B)) = _
  generalize filt (fun c => notB (keep i B c)) B = l
  induction l with
  | nil => rfl
  | cons c l ih => simp [List.map, witnessCand]; exact ih

theorem notBFalse {b : Bool} (h : notB b = true) : b = false := by
  cases b with
  | true => exact Bool.noConfusion h
  | false => rfl

theorem roundsComplete (i : Inst) (hrej : ¬ ∃ S, SafeSet i S) :
    ∀ (n : Nat) (B : List Cand), nodupC B = true → Sub B (b0 i) → List.length B ≤ n →
      verifyRounds i B (proofRounds i n B) = true
  | 0, B, _, _, hl => by rw [lenZero hl]; rfl
  | n + 1, [], _, _, _ => rfl
  | n + 1, c :: l, hnd, hsub, hl => by
    have hnk : ∃ d, d ∈ c :: l ∧ keep i (c :: l) d = false := by
      cases ha : allB (keep i (c :: l)) (c :: l) with
      | false => exact allBFalse ha
      | true =>
        exact absurd ⟨c :: l, fun h => List.noConfusion h, hsub, fun d hd => allBElim ha d hd⟩ hrej
    have ⟨d, hd, hdk⟩ := hnk
    have hdr : d ∈ filt (fun c' => notB (keep i (c :: l) c')) (c :: l) := filtMem hd (notBTrue hdk)
    have hrem := removedRemovals i (c :: l)
    show andB (andB (notB (isNil (removals i (c :: l)))) (nodupC (removedC (removals i (c :: l)))))
      (andB (allB (witnessOk i (c :: l)) (removals i (c :: l)))
        (andB (allB (fun c' => orB (memC c' (removedC (removals i (c :: l)))) (keep i (c :: l) c')) (c :: l))
          (verifyRounds i (rest (c :: l) (removals i (c :: l))) (proofRounds i n (rest (c :: l) (removals i (c :: l))))))) = true
    refine andBIntro (andBIntro ?_ ?_) (andBIntro ?_ (andBIntro ?_ ?_))
    · cases hE : removals i (c :: l) with
      | nil =>
        have hdm : d ∈ removedC (removals i (c :: l)) := by rw [hrem]; exact hdr
        rw [hE] at hdm; exact absurd hdm notMemNil
      | cons _ _ => rfl
    · rw [hrem]; exact nodupFilt _ hnd
    · apply allBIntro
      intro r hr
      have ⟨c', hc', e⟩ := memMap hr
      have ⟨hc'B, hk⟩ := memFilt hc'
      rw [e]; exact witnessOkOf i _ c' hc'B (notBFalse hk)
    · apply allBIntro
      intro c' hc'
      cases hk : keep i (c :: l) c' with
      | true => cases memC c' (removedC (removals i (c :: l))) <;> rfl
      | false =>
        rw [hrem, memCIntro (filtMem hc' (notBTrue hk))]; rfl
    · apply roundsComplete i hrej n
      · exact nodupFilt _ hnd
      · intro x hx; exact hsub x (memFilt hx).1
      · have hq : notB (memC d (removedC (removals i (c :: l)))) = false := by
          rw [hrem, memCIntro hdr]; rfl
        exact Nat.leOfSuccLeSucc (Nat.leTrans (filtShorter hd hq) hl)

/-- Completeness of the verifier: when the checker rejects, it accepts the checker's proof. -/
theorem verifyComplete (i : Inst) (h : accepts i = false) : verifyProof i (proofFamily i) (proofOf i) = true := by
  have hrej : ¬ ∃ S, SafeSet i S := fun hs => by rw [(acceptsIff i).2 hs] at h; exact Bool.noConfusion h
  refine andBIntro (andBIntro (nodupDedupC _) ?_) (andBIntro ?_ ?_)
  · exact allBIntro (fun c hc => memCIntro (memDedupC.1 hc))
  · exact allBIntro (fun c hc => memCIntro (memDedupC.2 hc))
  · exact roundsComplete i hrej _ _ (nodupDedupC _) (fun c hc => memDedupC.1 hc) (Nat.leRefl _)

/-- The verifier accepts some proof for an instance exactly when the checker rejects it. -/
theorem verifierExact (i : Inst) :
    (∃ fam Es, verifyProof i fam Es = true) ↔ accepts i = false := by
  constructor
  · intro ⟨fam, Es, hv⟩; exact verifySoundChecker i fam Es hv
  · intro h; exact ⟨_, _, verifyComplete i h⟩

/-- On the instance as given (pomsets, policy automaton): when no safe execution set exists for a
`θ` the input presents, the verifier accepts the checker's rejection proof. -/
theorem verifyCompleteFromInput {θ : Theta} {pi : PInst} (h : Presents θ pi) (hn : ¬ θ.SafeEdit) :
    verifyProof (build pi) (proofFamily (build pi)) (proofOf (build pi)) = true := by
  apply verifyComplete
  cases ha : accepts (build pi) with
  | false => rfl
  | true => exact absurd ((acceptsIffSafeEdit (presentsAgrees h)).1 ha) hn

end AgentWarrant.Edits
