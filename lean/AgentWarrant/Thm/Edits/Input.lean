import AgentWarrant.Spec.Edits.Input
import AgentWarrant.Thm.Edits.Bridge
import AgentWarrant.Thm.Edits.Verify
import AgentWarrant.Thm.Edits.RecheckContract
/-! What the oracle computes from the given instance is what the declarative objective reads
(*When Can Agents Safely Checkpoint, Fork, Restore, and Merge?*, Sections IV-B3, V-C1, Appendix A-A).

- `linsOfIff`: the enumeration `linsOf p` holds exactly the words `w` with `Lin p w` (sound and
  complete, for any pomset: repeated events, order pairs naming non-events and cyclic orders
  included);
- `dfaPrefixClosed`: the language of a policy automaton is closed under truncation;
- `presentsAgrees`: the finite instance `build pi` presents every `θ` that `pi` presents, so
  `Agrees` is a theorem about the computation, not an input;
- `checkerExactFromInput`, `verifySoundFromInput`: the exactness of the checker and the soundness of
  the rejection-proof verifier on the given instance, with `Agrees` and `PrefixClosed` discharged. -/
namespace AgentWarrant.Edits
open AgentWarrant

-- Small facts ------------------------------------------------------------------------------------

theorem beqFalseNe {a b : Nat} (h : Nat.beq a b = false) : a ≠ b := by
  intro e; rw [e, beqSelf b] at h; exact Bool.noConfusion h

theorem andTrue : ∀ {a b : Bool}, (a && b) = true → a = true ∧ b = true
  | true, true, _ => ⟨rfl, rfl⟩
  | true, false, h => Bool.noConfusion h
  | false, true, h => Bool.noConfusion h
  | false, false, h => Bool.noConfusion h

theorem memRemove {e x : Nat} : ∀ {l : List Nat}, x ∈ removeN e l ↔ x ∈ l ∧ x ≠ e
  | [] => ⟨fun h => absurd h notMemNil, fun h => absurd h.1 notMemNil⟩
  | a :: l => by
    cases hb : Nat.beq a e with
    | true =>
      have hae : a = e := Nat.eqOfBeqEqTrue hb
      simp [removeN, hb]
      constructor
      · intro h
        have ⟨h1, h2⟩ := (memRemove (l := l)).1 h
        exact ⟨Mem.tail _ h1, h2⟩
      · intro ⟨h1, h2⟩
        cases memCons h1 with
        | inl e1 => exact absurd (by rw [e1, hae]) h2
        | inr e2 => exact (memRemove (l := l)).2 ⟨e2, h2⟩
    | false =>
      have hae : a ≠ e := beqFalseNe hb
      simp [removeN, hb]
      constructor
      · intro h
        cases memCons h with
        | inl e1 => rw [e1]; exact ⟨Mem.head _, hae⟩
        | inr e2 =>
          have ⟨h1, h2⟩ := (memRemove (l := l)).1 e2
          exact ⟨Mem.tail _ h1, h2⟩
      · intro ⟨h1, h2⟩
        cases memCons h1 with
        | inl e1 => rw [e1]; exact Mem.head _
        | inr e2 => exact Mem.tail _ ((memRemove (l := l)).2 ⟨e2, h2⟩)

theorem removeLe (e : Nat) : ∀ (l : List Nat), List.length (removeN e l) ≤ List.length l
  | [] => Nat.leRefl 0
  | a :: l => by
    cases hb : Nat.beq a e with
    | true => simp [removeN, hb]; exact Nat.leStep (removeLe e l)
    | false => simp [removeN, hb]; exact Nat.succLeSucc (removeLe e l)

theorem removeShorter {e : Nat} : ∀ {l : List Nat}, e ∈ l → List.length (removeN e l) + 1 ≤ List.length l
  | [], h => absurd h notMemNil
  | a :: l, h => by
    cases hb : Nat.beq a e with
    | true => simp [removeN, hb]; exact Nat.succLeSucc (removeLe e l)
    | false =>
      simp [removeN, hb]
      cases memCons h with
      | inl e1 => exact absurd e1.symm (beqFalseNe hb)
      | inr e2 => exact Nat.succLeSucc (removeShorter e2)

theorem memDedup {x : Nat} : ∀ {l : List Nat}, x ∈ dedupN l ↔ x ∈ l
  | [] => Iff.rfl
  | a :: l => by
    cases hm : memN a l with
    | true =>
      simp [dedupN, hm]
      constructor
      · intro h; exact Mem.tail _ ((memDedup (l := l)).1 h)
      · intro h
        cases memCons h with
        | inl e1 => rw [e1]; exact (memDedup (l := l)).2 ((memNIff a l).1 hm)
        | inr e2 => exact (memDedup (l := l)).2 e2
    | false =>
      simp [dedupN, hm]
      constructor
      · intro h
        cases memCons h with
        | inl e1 => rw [e1]; exact Mem.head _
        | inr e2 => exact Mem.tail _ ((memDedup (l := l)).1 e2)
      · intro h
        cases memCons h with
        | inl e1 => rw [e1]; exact Mem.head _
        | inr e2 => exact Mem.tail _ ((memDedup (l := l)).2 e2)

theorem readyIff (ord : List (Nat × Nat)) (rem : List Nat) (e : Nat) :
    ready ord rem e = true ↔ ∀ a, (a, e) ∈ ord → ¬ a ∈ rem := by
  constructor
  · intro h a ha hr
    have hany : anyB (fun pr => Nat.beq pr.2 e && memN pr.1 rem) ord = true :=
      anyBIntro ha (by show (Nat.beq e e && memN a rem) = true; rw [beqSelf e, (memNIff a rem).2 hr]; rfl)
    simp [ready, hany] at h
  · intro h
    cases hany : anyB (fun pr => Nat.beq pr.2 e && memN pr.1 rem) ord with
    | false => simp [ready, hany]
    | true =>
      have ⟨pr, hpr, hp⟩ := anyBElim hany
      have ⟨h1, h2⟩ := andTrue hp
      cases pr with
      | mk a b =>
        have hb : b = e := Nat.eqOfBeqEqTrue h1
        rw [hb] at hpr
        exact absurd ((memNIff a rem).1 h2) (h a hpr)

-- Order in a word that starts with a given event --------------------------------------------------

theorem beforeHead {e : Nat} {w : List Nat} {b : Nat} (hb : b ∈ w) : Before (e :: w) e b := ⟨[], w, rfl, hb⟩

theorem beforeTail {e : Nat} {w : List Nat} {a b : Nat} (h : Before w a b) : Before (e :: w) a b :=
  beforeR (r := [e]) h

theorem beforeUntail {e : Nat} {w : List Nat} {a b : Nat} (h : Before (e :: w) a b) (ha : a ≠ e) : Before w a b :=
  beforeDropL (r := [e]) h (fun hm => ha (memSingle hm))

/-- In a duplicate-free word nothing comes before its first event. -/
theorem notBeforeHead {e a : Nat} {w : List Nat} (hnd : ¬ e ∈ w) : ¬ Before (e :: w) a e
  | ⟨u, v, h, hv⟩ => by
    cases u with
    | nil =>
      have ⟨_, e2⟩ := List.cons.inj h
      rw [e2] at hnd; exact hnd hv
    | cons c u' =>
      rw [List.cons_append] at h
      have ⟨_, e2⟩ := List.cons.inj h
      rw [e2] at hnd; exact hnd (appendMemR u' (Mem.tail _ hv))

-- The enumeration is exactly Lin ------------------------------------------------------------------

/-- `w` orders exactly the remaining events, each once, respecting the pairs among them. -/
def LinR (ord : List (Nat × Nat)) (rem w : List Nat) : Prop :=
  Nodup w ∧ (∀ x, x ∈ w ↔ x ∈ rem) ∧ ∀ a b, (a, b) ∈ ord → a ∈ rem → b ∈ rem → Before w a b

theorem linRNil (ord : List (Nat × Nat)) : LinR ord [] [] :=
  ⟨trivial, fun _ => Iff.rfl, fun _ _ _ ha _ => absurd ha notMemNil⟩

theorem linRNilEq {ord : List (Nat × Nat)} {w : List Nat} (h : LinR ord [] w) : w = [] := by
  cases w with
  | nil => rfl
  | cons x _ => exact absurd ((h.2.1 x).1 (Mem.head _)) notMemNil

theorem linsFStep {ord : List (Nat × Nat)} {n : Nat} {rem : List Nat} {e : Nat} {w' : List Nat}
    (he : e ∈ rem) (hr : ready ord rem e = true) (ih : LinR ord (removeN e rem) w') : LinR ord rem (e :: w') := by
  have ⟨hnd, hmem, hord⟩ := ih
  have hew : ¬ e ∈ w' := fun h => ((memRemove).1 ((hmem e).1 h)).2 rfl
  refine ⟨⟨hew, hnd⟩, fun x => ⟨fun hx => ?_, fun hx => ?_⟩, fun a b hab ha hb => ?_⟩
  · cases memCons hx with
    | inl e1 => rw [e1]; exact he
    | inr e2 => exact ((memRemove).1 ((hmem x).1 e2)).1
  · cases Nat.decEq x e with
    | isTrue hxe => rw [hxe]; exact Mem.head _
    | isFalse hxe => exact Mem.tail _ ((hmem x).2 ((memRemove).2 ⟨hx, hxe⟩))
  · have hbe : b ≠ e := by
      intro hbe; rw [hbe] at hab; exact (readyIff ord rem e).1 hr a hab ha
    cases Nat.decEq a e with
    | isTrue hae => rw [hae]; exact beforeHead ((hmem b).2 ((memRemove).2 ⟨hb, hbe⟩))
    | isFalse hae => exact beforeTail (hord a b hab ((memRemove).2 ⟨ha, hae⟩) ((memRemove).2 ⟨hb, hbe⟩))

theorem linsFSound (ord : List (Nat × Nat)) :
    ∀ (n : Nat) (rem w : List Nat), w ∈ linsF ord n rem → LinR ord rem w
  | 0, [], w, h => by rw [memSingle h]; exact linRNil ord
  | 0, _ :: _, w, h => absurd h notMemNil
  | n + 1, [], w, h => by rw [memSingle h]; exact linRNil ord
  | n + 1, a :: r, w, h => by
    have ⟨l, hl, hwl⟩ := memConcat h
    have ⟨e, he, el⟩ := memMap hl
    rw [el] at hwl
    have ⟨w', hw', ew⟩ := memMap hwl
    have ⟨hem, hr⟩ := memFilt he
    rw [ew]
    exact linsFStep (n := n) hem hr (linsFSound ord n _ w' hw')

theorem linsFComplete (ord : List (Nat × Nat)) :
    ∀ (n : Nat) (rem w : List Nat), List.length rem ≤ n → LinR ord rem w → w ∈ linsF ord n rem
  | 0, [], w, _, h => by rw [linRNilEq h]; exact Mem.head _
  | 0, a :: r, w, hl, _ => False.elim (Nat.notSuccLeZero (List.length r) (by rw [List.length_cons] at hl; exact hl))
  | n + 1, [], w, _, h => by rw [linRNilEq h]; exact Mem.head _
  | n + 1, a :: r, w, hl, h => by
    have ⟨hnd, hmem, hord⟩ := h
    cases w with
    | nil => exact absurd ((hmem a).2 (Mem.head _)) notMemNil
    | cons e w' =>
      have ⟨hew, hnd'⟩ := hnd
      have he : e ∈ a :: r := (hmem e).1 (Mem.head _)
      have hr : ready ord (a :: r) e = true := (readyIff ord (a :: r) e).2 (fun x hx hxr =>
        notBeforeHead hew (hord x e hx hxr he))
      have hlen : List.length (removeN e (a :: r)) ≤ n :=
        Nat.leOfSuccLeSucc (Nat.leTrans (removeShorter he) hl)
      have ih : LinR ord (removeN e (a :: r)) w' := by
        refine ⟨hnd', fun x => ⟨fun hx => ?_, fun hx => ?_⟩, fun x y hxy hx hy => ?_⟩
        · refine (memRemove).2 ⟨(hmem x).1 (Mem.tail _ hx), fun hxe => ?_⟩
          rw [hxe] at hx; exact hew hx
        · have ⟨h1, h2⟩ := (memRemove).1 hx
          cases memCons ((hmem x).2 h1) with
          | inl e1 => exact absurd e1 h2
          | inr e2 => exact e2
        · have ⟨hx1, hx2⟩ := (memRemove).1 hx
          have ⟨hy1, _⟩ := (memRemove).1 hy
          exact beforeUntail (hord x y hxy hx1 hy1) hx2
      have hw' := linsFComplete ord n _ w' hlen ih
      exact concatMem (mapMem (f := fun e => List.map (fun w => e :: w) (linsF ord n (removeN e (a :: r))))
        (filtMem he hr)) (mapMem (f := fun w => e :: w) hw')

theorem orderOnEventsSound {p : Pomset} (h : orderOnEvents p = true) :
    ∀ a b, (a, b) ∈ p.order → a ∈ p.events ∧ b ∈ p.events := by
  intro a b hab
  have ⟨h1, h2⟩ := andTrue (allBElim h (a, b) hab)
  exact ⟨(memNIff a _).1 h1, (memNIff b _).1 h2⟩

/-- The enumeration of linearizations is sound and complete for `Lin`. -/
theorem linsOfIff (p : Pomset) (w : List Nat) : w ∈ linsOf p ↔ Lin p w := by
  cases ho : orderOnEvents p with
  | false =>
    simp [linsOf, ho]
    constructor
    · intro h; exact absurd h notMemNil
    · intro ⟨_, hmem, hord⟩
      have : orderOnEvents p = true := allBIntro (fun pr hpr => by
        cases pr with
        | mk a b =>
          have ⟨ha, hb⟩ := beforeMem (hord a b hpr)
          show (memN a p.events && memN b p.events) = true
          rw [(memNIff a _).2 ((hmem a).1 ha), (memNIff b _).2 ((hmem b).1 hb)]; rfl)
      rw [ho] at this; exact Bool.noConfusion this
  | true =>
    simp [linsOf, ho]
    have hev := orderOnEventsSound ho
    constructor
    · intro h
      have ⟨hnd, hmem, _⟩ := linsFSound p.order _ _ w h
      refine ⟨hnd, fun x => Iff.trans (hmem x) memDedup, fun a b hab => ?_⟩
      have ⟨ha, hb⟩ := hev a b hab
      exact (linsFSound p.order _ _ w h).2.2 a b hab (memDedup.2 ha) (memDedup.2 hb)
    · intro ⟨hnd, hmem, hord⟩
      exact linsFComplete p.order _ _ w (Nat.leRefl _)
        ⟨hnd, fun x => Iff.trans (hmem x) memDedup.symm, fun a b hab _ _ => hord a b hab⟩

-- The policy automaton -----------------------------------------------------------------------------

theorem dfaRunNone (δ : Dfa) (v : List Nat) : ∀ (u : List Nat) (q : Nat), dfaRun δ q u = none → dfaRun δ q (u ++ v) = none
  | [], q, h => Option.noConfusion h
  | a :: u, q, h => by
    cases hs : dfaStep δ q a with
    | none => simp [dfaRun, hs]
    | some r =>
      simp [dfaRun, hs] at h
      rw [List.cons_append]; simp [dfaRun, hs]
      exact dfaRunNone δ v u r h

/-- The language of a policy automaton is closed under truncation. -/
theorem dfaPrefixClosed (δ : Dfa) (u v : List Nat) (h : dfaAccepts δ (u ++ v) = true) : dfaAccepts δ u = true := by
  cases hu : dfaRun δ 0 u with
  | some _ => simp [dfaAccepts, hu]
  | none => simp [dfaAccepts, dfaRunNone δ v u 0 hu] at h

-- The computed instance presents the given one ----------------------------------------------------

theorem rawPrefixesSelf : ∀ (w : List Nat), w ∈ rawPrefixes w
  | [] => Mem.head _
  | a :: w => Mem.tail _ (mapMem (f := fun z => a :: z) (rawPrefixesSelf w))

theorem inPolicyIff (P : List (List Nat)) (u : List Nat) : inPolicy P u = true ↔ u ∈ P :=
  ⟨fun h => have ⟨v, hv, e⟩ := anyBElim h; by rw [← ofDecideEqTrue e]; exact hv,
   fun h => anyBIntro h (decideEqTrue rfl)⟩

theorem pomOfMem : ∀ {os : List POutcome} {o : POutcome}, o ∈ os → Nodup (List.map POutcome.id os) →
    pomOf os o.id = o.pom
  | [], _, h, _ => absurd h notMemNil
  | o' :: os, o, h, ⟨hn, hnd⟩ => by
    cases hb : Nat.beq o'.id o.id with
    | true =>
      simp [pomOf, hb]
      cases h with
      | head _ => rfl
      | tail _ h' =>
        have e : o'.id = o.id := Nat.eqOfBeqEqTrue hb
        exact absurd (by rw [e]; exact mapMem (f := POutcome.id) h') hn
    | false =>
      simp [pomOf, hb]
      cases h with
      | head _ => exact absurd rfl (beqFalseNe hb)
      | tail _ h' => exact pomOfMem h' hnd

/-- Every input whose outcome IDs are distinct (the oracle's are `0, 1, …`) presents a declarative
instance, whatever its source results and coverage relation: the theorems below are never vacuous. -/
theorem presentsThetaOf (pi : PInst) (hid : Nodup (List.map POutcome.id pi.outs))
    (req sat rem : Nat → Prop) (cov : Nat → Nat → Prop) : Presents (thetaOf pi req sat rem cov) pi :=
  ⟨rfl, rfl, rfl, fun _ => Iff.rfl, fun o ho => pomOfMem ho hid, fun _ => Iff.rfl⟩

section
variable {θ : Theta} {pi : PInst} (h : Presents θ pi)

theorem presentsPrefixClosed : θ.PrefixClosed :=
  fun u v hA => (h.policy u).2 (dfaPrefixClosed pi.dfa u v ((h.policy (u ++ v)).1 hA))

/-- `Agrees` holds for the computed finite instance: it is a theorem, not an input. -/
theorem presentsAgrees : Agrees θ (build pi) := by
  refine ⟨h.act, h.log, fun n => ?_, fun o ho w => ?_, fun o w ho hw => ?_⟩
  · constructor
    · intro hn
      have ⟨o, ho, e⟩ := (h.outs n).1 hn
      exact ⟨⟨o.id, linsOf o.pom⟩, mapMem (f := fun o => (⟨o.id, linsOf o.pom⟩ : Outcome)) ho, e⟩
    · intro ⟨o, ho, e⟩
      have ⟨o', ho', e'⟩ := memMap ho
      rw [e'] at e
      exact (h.outs n).2 ⟨o', ho', e⟩
  · have ⟨o', ho', e'⟩ := memMap ho
    rw [e']
    show w ∈ linsOf o'.pom ↔ Lin (θ.pom o'.id) w
    rw [h.pom o' ho']
    exact linsOfIff o'.pom w
  · have ⟨o', ho', e'⟩ := memMap ho
    rw [e'] at hw
    have hw' : w ∈ linsOf o'.pom := hw
    show inPolicy (policyWords pi) (labels pi.lab pi.log ++ labels pi.lab (auth (resolve pi.act pi.log w))) = true ↔
      θ.A (labels θ.lab θ.log ++ labels θ.lab (auth (resolve pi.act pi.log w)))
    rw [h.lab, h.log, h.policy, inPolicyIff]
    constructor
    · intro hm; exact (memFilt hm).2
    · intro ha
      refine filtMem (appendMemR _ ?_) ha
      exact concatMem (mapMem (f := fun o => concatL (List.map (fun w =>
          rawPrefixes (labels pi.lab pi.log ++ labels pi.lab (auth (resolve pi.act pi.log w)))) (linsOf o.pom))) ho')
        (concatMem (mapMem (f := fun w =>
          rawPrefixes (labels pi.lab pi.log ++ labels pi.lab (auth (resolve pi.act pi.log w)))) hw')
          (rawPrefixesSelf _))

/-- The linearization half of Lemma 2's coverage witnesses, computed: when every target outcome of
the input has a linearization (`allComplete`, evaluated on the input), `CoverWitnesses` reduces to
each still-required source result being covered by some target outcome. -/
theorem coverWitnessesOf (hc : allComplete pi = true)
    (hcov : ∀ a, θ.StillRequired a → ∃ t, θ.O t ∧ θ.covers t a) : θ.CoverWitnesses := by
  intro a ha
  have ⟨t, ht, hta⟩ := hcov a ha
  have ⟨o, ho, e⟩ := (h.outs t).1 ht
  have hl := allBElim hc o ho
  cases hw : linsOf o.pom with
  | nil => rw [hw] at hl; exact Bool.noConfusion hl
  | cons w ws =>
    have hlin : Lin o.pom w := (linsOfIff o.pom w).1 (by rw [hw]; exact Mem.head _)
    rw [← h.pom o ho, e] at hlin
    exact ⟨t, ht, hta, w, hlin⟩

/-- The checker on the given instance (pomset outcomes, policy automaton) is exact for
Definition 2: it accepts iff a safe execution set exists, and then its set with `W†` is the maximal
safe pair. The only hypothesis beyond the instance is the derivation's coverage witnesses. -/
theorem checkerExactFromInput (hcov : θ.CoverWitnesses) :
    (accepts (build pi) = true ↔ ∃ L B, θ.Safe L B) ∧
    (accepts (build pi) = true → θ.MaxSafe θ.Wdag (fun c => c ∈ safeSet (build pi))) :=
  checkerExact (presentsAgrees h) (presentsPrefixClosed h) hcov

/-- A rejection proof the verifier accepts on the given instance shows no safe execution set exists. -/
theorem verifySoundFromInput (fam : List Cand) (Es : List (List Removal))
    (hv : verifyProof (build pi) fam Es = true) : ¬ θ.SafeEdit ∧ ¬ ∃ L B, θ.Safe L B :=
  verifySound (presentsAgrees h) fam Es hv

end
end AgentWarrant.Edits
