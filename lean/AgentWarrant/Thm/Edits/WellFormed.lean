import AgentWarrant.Spec.Edits.WellFormed
import AgentWarrant.Thm.Edits.Resolve
/-! What a well-formed answer guarantees (*Exact Checking for Execution Edits*, Sections IV-A, IV-B2,
IV-B3): when `wfOf` answers `none`, the raw instance meets every structural precondition the finite
checker (`Spec/Edits/Check.lean`) takes for granted — unique call leaves and choice IDs, no empty
choice, a total action map on the calls and a total labelling on the actions it uses and on the log,
a log without repeats whose labels the policy admits, and no complete sequence properly prefixing
another. Stated over the scan of the term (`wellFormed r = wfOf (scan r.term) r`). The walk runs on a
nesting-depth fuel; `scanFuelStable` proves that every fuel beyond a term's depth gives the same scan,
so the fuel is sufficient for every term nesting less deep than `termFuel`. -/
namespace AgentWarrant.Edits
open AgentWarrant

/-- `TDepth n t`: `t` nests at most `n` choices, parallels or sequences deep. -/
inductive TDepth : Nat → Term → Prop
  | call (n c : Nat) : TDepth n (Term.call c)
  | nil (n : Nat) : TDepth n Term.nil
  | family (n g : Nat) (ms : List (Nat × List Nat)) : TDepth n (Term.family g ms)
  | choice (n g : Nat) (arms : List (Nat × Term)) : (∀ a, a ∈ arms → TDepth n a.2) → TDepth (n + 1) (Term.choice g arms)
  | par (n : Nat) (ps : List Term) : (∀ t, t ∈ ps → TDepth n t) → TDepth (n + 1) (Term.par ps)
  | seq (n : Nat) (ps : List Term) : (∀ t, t ∈ ps → TDepth n t) → TDepth (n + 1) (Term.seq ps)

theorem mapCongrMem {α β : Type} {f g : α → β} : ∀ {l : List α}, (∀ x, x ∈ l → f x = g x) → List.map f l = List.map g l
  | [], _ => rfl
  | x :: l, h => by
    show f x :: List.map f l = g x :: List.map g l
    rw [h x (Mem.head _), mapCongrMem (fun y hy => h y (Mem.tail _ hy))]

/-- The fuel is sufficient: beyond a term's depth, more fuel never changes its scan. -/
theorem scanFuelStable {n : Nat} {t : Term} (hd : TDepth n t) : ∀ m, n < m → scanF m t = scanF (n + 1) t := by
  induction hd with
  | call n c => intro m hm; cases m with
    | zero => cases hm
    | succ m => rfl
  | nil n => intro m hm; cases m with
    | zero => cases hm
    | succ m => rfl
  | family n g ms => intro m hm; cases m with
    | zero => cases hm
    | succ m => rfl
  | choice n g arms h ih => intro m hm; cases m with
    | zero => cases hm
    | succ m =>
      have hm' : n < m := Nat.leOfSuccLeSucc hm
      show joinS (⟨[], [g], badArms (List.map Prod.fst arms)⟩ :: List.map (fun a => scanF m a.2) arms)
        = joinS (⟨[], [g], badArms (List.map Prod.fst arms)⟩ :: List.map (fun a => scanF (n + 1) a.2) arms)
      rw [mapCongrMem (fun a ha => ih a ha m hm')]
  | par n ps h ih => intro m hm; cases m with
    | zero => cases hm
    | succ m =>
      have hm' : n < m := Nat.leOfSuccLeSucc hm
      show joinS (List.map (scanF m) ps) = joinS (List.map (scanF (n + 1)) ps)
      rw [mapCongrMem (fun t ht => ih t ht m hm')]
  | seq n ps h ih => intro m hm; cases m with
    | zero => cases hm
    | succ m =>
      have hm' : n < m := Nat.leOfSuccLeSucc hm
      show joinS (List.map (scanF m) ps) = joinS (List.map (scanF (n + 1)) ps)
      rw [mapCongrMem (fun t ht => ih t ht m hm')]

/-- For every term nesting less deep than `termFuel`, the well-formedness answer is the one any
larger fuel gives: the fuel never decides it. -/
theorem scanIsStable {n : Nat} {t : Term} (hd : TDepth n t) (hn : n < termFuel) : scan t = scanF (n + 1) t :=
  scanFuelStable hd termFuel hn

theorem memNOfMem {a : Nat} : ∀ {l : List Nat}, a ∈ l → memN a l = true
  | [], h => absurd h notMemNil
  | b :: l, h => by
    cases h with
    | head _ => exact memNSelf a l
    | tail _ h' =>
      have ih := memNOfMem h'
      cases hb : Nat.beq b a with
      | true => simp [memN, anyB, hb]
      | false =>
        have e : anyB (fun y => Nat.beq y a) (b :: l) = anyB (fun y => Nat.beq y a) l := by simp [anyB, hb]
        exact e.trans ih

theorem hasDupFalse : ∀ {l : List Nat}, hasDup l = false → Nodup l
  | [], _ => trivial
  | a :: l, h => by
    cases hm : memN a l with
    | true => simp [hasDup, hm] at h
    | false =>
      simp [hasDup, hm] at h
      exact ⟨fun ha => by rw [memNOfMem ha] at hm; contradiction, hasDupFalse h⟩

theorem anyBFalse {p : α → Bool} {l : List α} (h : anyB p l = false) {x : α} (hx : x ∈ l) : p x = false := by
  cases hp : p x with
  | false => rfl
  | true => rw [anyBIntro hx hp] at h; contradiction

theorem isPrefixNComplete : ∀ (v w : List Nat), IsPrefix v w → isPrefixN v w = true
  | [], w, _ => rfl
  | a :: v, [], ⟨t, ht⟩ => by rw [List.cons_append] at ht; exact List.noConfusion ht
  | a :: v, b :: w, ⟨t, ht⟩ => by
    rw [List.cons_append] at ht
    have ⟨e1, e2⟩ := List.cons.inj ht
    rw [e1]
    simp [isPrefixN, beqSelf]
    exact isPrefixNComplete v w ⟨t, e2⟩

theorem properPrefixFalse {v w : List Nat} (h : properPrefix v w = false) (hp : IsPrefix v w) : v = w := by
  cases hd : decide (v = w) with
  | true => exact ofDecideEqTrue hd
  | false =>
    simp [properPrefix, hd] at h
    rw [isPrefixNComplete v w hp] at h
    contradiction

theorem isSomeNSome {x : Option Nat} (h : isSomeN x = true) : ∃ y, x = some y := by
  cases x with
  | some y => exact ⟨y, rfl⟩
  | none => simp [isSomeN] at h

/-- A `none` answer: the structural preconditions of the finite checker hold. -/
theorem wellFormedSound (s : Scan) (r : Raw) (h : wfOf s r = none) :
    Nodup s.leaves ∧ Nodup s.groups ∧ s.empty = false ∧
    (∀ c, c ∈ s.leaves → ∃ d l, lookupN c r.act = some d ∧ lookupN d r.lab = some l) ∧
    (∀ d, d ∈ r.log → ∃ l, lookupN d r.lab = some l) ∧ Nodup r.log ∧
    inPolicy r.policy (List.map (labelOf r.lab) r.log) = true ∧
    (∀ o v o' w, o ∈ r.outs → v ∈ o.lins → o' ∈ r.outs → w ∈ o'.lins → IsPrefix v w → v = w) := by
  cases h1 : hasDup s.leaves with
  | true => simp [wfOf, h1] at h
  | false =>
  cases h2 : hasDup s.groups with
  | true => simp [wfOf, h1, h2] at h
  | false =>
  cases h3 : s.empty with
  | true => simp [wfOf, h1, h2, h3] at h
  | false =>
  cases h4 : allB (fun c => isSomeN (lookupN c r.act)) s.leaves with
  | false => simp [wfOf, h1, h2, h3, h4] at h
  | true =>
  cases h5a : allB (callLabelled r.act r.lab) s.leaves with
  | false => simp [wfOf, h1, h2, h3, h4, h5a] at h
  | true =>
  cases h5b : allB (fun d => isSomeN (lookupN d r.lab)) r.log with
  | false => simp [wfOf, h1, h2, h3, h4, h5a, h5b] at h
  | true =>
  cases h6 : hasDup r.log with
  | true => simp [wfOf, h1, h2, h3, h4, h5a, h5b, h6] at h
  | false =>
  cases h7 : inPolicy r.policy (List.map (labelOf r.lab) r.log) with
  | false => simp [wfOf, h1, h2, h3, h4, h5a, h5b, h6, h7] at h
  | true =>
  cases h8 : prefixViolation r.outs with
  | true => simp [wfOf, h1, h2, h3, h4, h5a, h5b, h6, h7, h8] at h
  | false =>
  refine ⟨hasDupFalse h1, hasDupFalse h2, rfl, ?_, ?_, hasDupFalse h6, rfl, ?_⟩
  · intro c hc
    have hl := allBElim h5a c hc
    cases hd : lookupN c r.act with
    | none => simp [callLabelled, hd] at hl
    | some d =>
      simp [callLabelled, hd] at hl
      have ⟨l, hl'⟩ := isSomeNSome hl
      exact ⟨d, l, rfl, hl'⟩
  · intro d hd
    exact isSomeNSome (allBElim h5b d hd)
  · intro o v o' w ho hv ho' hw hp
    have a1 := anyBFalse h8 ho
    have a2 := anyBFalse a1 hv
    have a3 := anyBFalse a2 ho'
    exact properPrefixFalse (anyBFalse a3 hw) hp

end AgentWarrant.Edits
