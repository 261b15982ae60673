import AgentWarrant.Spec.Edits.Record
import AgentWarrant.Thm.Edits.Deletion
/-! The four-part record as a fact graph with one fact per entry, and the fixed `Keep_J`, `Drop_ca`
and `Drop_ra` as the recursive views of it (*When Can Agents Safely Checkpoint, Fork, Restore, and Merge?*, Appendix
A-F, Lemma 11; Appendix A-G, the `Drop_ra` pair; Theorem 4).

- `graphOfWellFormed`: a graph named by position whose first fact depends on nothing is acyclic with
  distinct names, so `recordGraph V` is for every record (`recordGraphWellFormed`), and `delChar`
  (the one pass is the order-free recursive deletion) and Lemma 11 (`delRen`) apply to it directly
  (`recordGraphViewsRen`).
- `delGraphOfPres`: on such a graph the one pass keeps exactly the facts `keepPres` keeps walking the
  list (a fact is kept when its kind is not omitted and the facts it refers to were kept), so each
  view's values are computed section by section.
- `keepJInstanceR`, `dropCAInstanceR`, `dropRAInstance`: the fixed `Keep_J`, `Drop_ca` and `Drop_ra`
  are what the recursive views of the record's graph show, for every record and `J`. The fixed and
  recursive views differ only in how computed labels are classified: the recursive views keep an
  authorization's label and a call's label because they are recorded as depending on `ℓ`, not on the
  action they are computed from (`Spec/Edits/Record.lean`). The recursive views show more than the
  fixed ones: `Keep_J` without E still shows, with I kept, how many authorization records there are
  (the calls' facts are named after them) and which calls created one (the kinds of their `q_act`
  entries); Theorem 4 over this graph is `Thm/Edits/RecordExact.lean`.
- `AgreeK`, `keepPresCongr`: two lists of facts with the same kinds and dependencies, equal where a
  fact is kept, give the same deletion; so the paper's `Drop_ra` pair has the same recursive `Drop_ra`
  (`dropRAGPairCollapses`).
- `dropRAGInexactR`: the recursive `Drop_ra` of the record's graph is inexact up to renaming: the
  paper's `Drop_ra` pair has equal graphs after it. -/
namespace AgentWarrant.Edits
open AgentWarrant

/-! ### Graphs named by position are well formed -/

theorem nameFromAcyclic : ∀ (L : List (Pre α)) (k : Nat) (seen : List Nat), 0 ∈ seen →
    (∀ j, k = j + 1 → j ∈ seen) → acyclicB seen (nameFrom k L) = true
  | [], _, _, _, _ => rfl
  | p :: L, k, seen, h0, hk => by
    have hd : allB (fun d => memN d seen) (List.map (resolveRef k) p.refs) = true := by
      apply allBIntro
      intro d hd
      have ⟨r, _, e⟩ := memMap hd
      rw [e]
      apply (memNIff _ seen).2
      cases r with
      | first => exact h0
      | prev =>
        cases k with
        | zero => exact h0
        | succ j => exact hk j rfl
    show (match allB (fun d => memN d seen) (List.map (resolveRef k) p.refs) with
      | true => acyclicB (k :: seen) (nameFrom (k + 1) L)
      | false => false) = true
    rw [hd]
    exact nameFromAcyclic L (k + 1) (k :: seen) (Mem.tail _ h0) (fun j e => by
      have e' : k = j := Nat.succ.inj e
      rw [e']
      exact Mem.head _)

theorem nameFromNames : ∀ (L : List (Pre α)) (k : Nat),
    (∀ f, f ∈ nameFrom k L → k ≤ f.name) ∧ NamesDistinct (nameFrom k L)
  | [], _ => ⟨fun _ h => absurd h notMemNil, fun _ _ h => absurd h notMemNil⟩
  | p :: L, k => by
    have ⟨ihb, ihd⟩ := nameFromNames L (k + 1)
    have hb : ∀ f, f ∈ nameFrom k (p :: L) → k ≤ f.name := fun f h => by
      cases memCons h with
      | inl e => rw [e]; exact Nat.leRefl k
      | inr h' => exact Nat.leOfSuccLe (ihb f h')
    refine ⟨hb, ?_⟩
    intro f g hf hg e
    cases memCons hf with
    | inl ef =>
      cases memCons hg with
      | inl eg => rw [ef, eg]
      | inr hg' =>
        have h1 := ihb g hg'
        rw [← e, ef] at h1
        exact absurd h1 (Nat.notSuccLeSelf k)
    | inr hf' =>
      cases memCons hg with
      | inl eg =>
        have h1 := ihb f hf'
        rw [e, eg] at h1
        exact absurd h1 (Nat.notSuccLeSelf k)
      | inr hg' => exact ihd f g hf' hg' e

/-- A graph named by position whose first fact depends on nothing is acyclic with distinct names. -/
theorem graphOfWellFormed (p : Pre α) (L : List (Pre α)) (h : p.refs = []) :
    Acyclic (graphOf (p :: L)) ∧ NamesDistinct (graphOf (p :: L)) := by
  refine ⟨?_, (nameFromNames (p :: L) 0).2⟩
  show acyclicB [] (Fact.mk 0 p.kind p.val (List.map (resolveRef 0) p.refs) :: nameFrom (0 + 1) L) = true
  rw [h]
  exact nameFromAcyclic L 1 [0] (Mem.head _) (fun j e => by
    have e' : 0 = j := Nat.succ.inj e
    rw [← e']
    exact Mem.head _)

theorem recordGraphWellFormed (V : Record) : Acyclic (recordGraph V) ∧ NamesDistinct (recordGraph V) :=
  graphOfWellFormed _ _ rfl

/-- Lemma 11 for the recursive views of the record's graph, and the graph is one `delChar` applies to. -/
theorem recordGraphViewsRen (V : Record) (ρ : Perm) (r : RVal → RVal) (J : Part → Bool) :
    (Acyclic (recordGraph V) ∧ NamesDistinct (recordGraph V)) ∧
    keepJG J (renGraph ρ r (recordGraph V)) = renGraph ρ r (keepJG J (recordGraph V)) ∧
    dropCAG (renGraph ρ r (recordGraph V)) = renGraph ρ r (dropCAG (recordGraph V)) ∧
    dropRAG (renGraph ρ r (recordGraph V)) = renGraph ρ r (dropRAG (recordGraph V)) :=
  ⟨recordGraphWellFormed V, keepJGRen ρ r J _, dropCAGRen ρ r _, dropRAGRen ρ r _⟩

/-! ### Deletion on a graph named by position, read along the list -/

def consIf : Bool → α → List α → List α
  | true, a, l => a :: l
  | false, _, l => l

/-- A fact's dependencies are kept: `first` when the first fact was (`f0`), `prev` when the fact
just before was (`pk`). -/
def refsKept (f0 pk : Bool) (p : Pre α) : Bool := allB (fun r => match r with
  | Ref.first => f0
  | Ref.prev => pk) p.refs

def keptPre (omit : Kind → Bool) (f0 pk : Bool) (p : Pre α) : Bool := !omit p.kind && refsKept f0 pk p

/-- The facts deletion keeps, named from `k`: each is kept when its kind is not omitted and its
dependencies were kept. -/
def keepPres (omit : Kind → Bool) (f0 : Bool) : Nat → Bool → List (Pre α) → Graph α
  | _, _, [] => []
  | k, pk, p :: L => consIf (keptPre omit f0 pk p) ⟨k, p.kind, p.val, List.map (resolveRef k) p.refs⟩
      (keepPres omit f0 (k + 1) (keptPre omit f0 pk p) L)

/-- Their values. -/
def keepValsP (omit : Kind → Bool) (f0 : Bool) : Bool → List (Pre α) → List α
  | _, [] => []
  | pk, p :: L => consIf (keptPre omit f0 pk p) p.val (keepValsP omit f0 (keptPre omit f0 pk p) L)

theorem memNOfIff {d : Nat} {D : List Nat} {b : Bool} (h : d ∈ D ↔ b = true) : memN d D = b := by
  cases b with
  | true => exact (memNIff d D).2 (h.2 rfl)
  | false => exact (memNFalseIff d D).2 (fun m => Bool.noConfusion (h.1 m))

theorem zeroNeSucc (k : Nat) : ¬ (0 = k + 1) := fun e => Nat.noConfusion e

/-- With the first fact kept exactly when `f0`, the fact before exactly when `pk`, and no later
name alive, the pass keeps what `keepPres` keeps. -/
theorem delAuxPres (omit : Kind → Bool) (f0 : Bool) : ∀ (L : List (Pre α)) (k : Nat) (alive : List Nat) (pk : Bool),
    (0 ∈ alive ↔ f0 = true) → (k ∈ alive ↔ pk = true) → (∀ j, k + 1 ≤ j → ¬ j ∈ alive) →
    delAux omit alive (nameFrom (k + 1) L) = keepPres omit f0 (k + 1) pk L
  | [], _, _, _, _, _, _ => rfl
  | p :: L, k, alive, pk, h0, hk, hf => by
    have hd : allB (fun d => memN d alive) (List.map (resolveRef (k + 1)) p.refs) = refsKept f0 pk p := by
      rw [allBMap]
      exact congrArg (fun q => allB q p.refs) (funext (fun r => by
        cases r with
        | first => exact memNOfIff h0
        | prev => exact memNOfIff hk))
    show (match !omit p.kind && allB (fun d => memN d alive) (List.map (resolveRef (k + 1)) p.refs) with
      | true => Fact.mk (k + 1) p.kind p.val (List.map (resolveRef (k + 1)) p.refs) ::
          delAux omit ((k + 1) :: alive) (nameFrom (k + 1 + 1) L)
      | false => delAux omit alive (nameFrom (k + 1 + 1) L)) =
      consIf (!omit p.kind && refsKept f0 pk p) (Fact.mk (k + 1) p.kind p.val (List.map (resolveRef (k + 1)) p.refs))
        (keepPres omit f0 (k + 1 + 1) (!omit p.kind && refsKept f0 pk p) L)
    rw [hd]
    cases hb : (!omit p.kind && refsKept f0 pk p) with
    | true =>
      have h0' : 0 ∈ (k + 1) :: alive ↔ f0 = true := ⟨fun m => match memCons m with
        | Or.inl e => absurd e (zeroNeSucc k)
        | Or.inr m' => h0.1 m', fun h => Mem.tail _ (h0.2 h)⟩
      have hk' : k + 1 ∈ (k + 1) :: alive ↔ true = true := ⟨fun _ => rfl, fun _ => Mem.head _⟩
      have hf' : ∀ j, k + 1 + 1 ≤ j → ¬ j ∈ (k + 1) :: alive := fun j hj m => match memCons m with
        | Or.inl e => by rw [e] at hj; exact Nat.notSuccLeSelf (k + 1) hj
        | Or.inr m' => hf j (Nat.leOfSuccLe hj) m'
      exact congrArg (List.cons _) (delAuxPres omit f0 L (k + 1) ((k + 1) :: alive) true h0' hk' hf')
    | false =>
      have hk' : k + 1 ∈ alive ↔ false = true :=
        ⟨fun m => absurd m (hf (k + 1) (Nat.leRefl _)), fun e => Bool.noConfusion e⟩
      exact delAuxPres omit f0 L (k + 1) alive false h0 hk' (fun j hj => hf j (Nat.leOfSuccLe hj))

/-- Deletion on a graph named by position whose first fact depends on nothing. -/
theorem delGraphOfPres (omit : Kind → Bool) (k : Kind) (v : α) (L : List (Pre α)) :
    del omit (graphOf (Pre.mk k v [] :: L)) =
      consIf (!omit k) (Fact.mk 0 k v []) (keepPres omit (!omit k) 1 (!omit k) L) := by
  show (match !omit k && allB (fun d => memN d []) (List.map (resolveRef 0) []) with
    | true => Fact.mk 0 k v (List.map (resolveRef 0) []) :: delAux omit [0] (nameFrom (0 + 1) L)
    | false => delAux omit [] (nameFrom (0 + 1) L)) = _
  cases h : omit k with
  | false =>
    exact congrArg (List.cons _) (delAuxPres omit true L 0 [0] true ⟨fun _ => rfl, fun _ => Mem.head _⟩
      ⟨fun _ => rfl, fun _ => Mem.head _⟩ (fun j hj m => by rw [memSingle m] at hj; exact Nat.notSuccLeSelf 0 hj))
  | true =>
    exact delAuxPres omit false L 0 [] false ⟨fun m => absurd m notMemNil, fun e => Bool.noConfusion e⟩
      ⟨fun m => absurd m notMemNil, fun e => Bool.noConfusion e⟩ (fun _ _ m => absurd m notMemNil)

theorem consIfMap (h : α → β) (b : Bool) (a : α) (l : List α) :
    List.map h (consIf b a l) = consIf b (h a) (List.map h l) := by
  cases b <;> rfl

theorem valsKeepPres (omit : Kind → Bool) (f0 : Bool) : ∀ (L : List (Pre α)) (k : Nat) (pk : Bool),
    List.map Fact.val (keepPres omit f0 k pk L) = keepValsP omit f0 pk L
  | [], _, _ => rfl
  | p :: L, k, pk => by
    show List.map Fact.val (consIf (keptPre omit f0 pk p) (Fact.mk k p.kind p.val (List.map (resolveRef k) p.refs))
      (keepPres omit f0 (k + 1) (keptPre omit f0 pk p) L)) = consIf (keptPre omit f0 pk p) p.val (keepValsP omit f0 (keptPre omit f0 pk p) L)
    rw [consIfMap, valsKeepPres omit f0 L (k + 1)]

/-- The values deletion keeps from a graph named by position whose first fact depends on nothing. -/
theorem valsGraphOf (omit : Kind → Bool) (k : Kind) (v : α) (L : List (Pre α)) :
    List.map Fact.val (del omit (graphOf (Pre.mk k v [] :: L))) = consIf (!omit k) v (keepValsP omit (!omit k) (!omit k) L) := by
  rw [delGraphOfPres, consIfMap, valsKeepPres]

theorem kvCons {omit : Kind → Bool} {f0 pk b : Bool} {p : Pre α} (L : List (Pre α)) (h : keptPre omit f0 pk p = b) :
    keepValsP omit f0 pk (p :: L) = consIf b p.val (keepValsP omit f0 b L) := by
  show consIf (keptPre omit f0 pk p) p.val (keepValsP omit f0 (keptPre omit f0 pk p) L) = _
  rw [h]

theorem kvConsSelf (omit : Kind → Bool) (f0 pk : Bool) (p : Pre α) (L : List (Pre α)) :
    keepValsP omit f0 pk (p :: L) = consIf (keptPre omit f0 pk p) p.val (keepValsP omit f0 (keptPre omit f0 pk p) L) := rfl

theorem keptOf {omit : Kind → Bool} {f0 pk : Bool} {p : Pre α} (ho : omit p.kind = false)
    (hr : refsKept f0 pk p = true) : keptPre omit f0 pk p = true := by
  show (!omit p.kind && refsKept f0 pk p) = true
  rw [ho, hr] <;> rfl

/-- The calls' facts start with one that depends on nothing. -/
theorem kvCallsPk (omit : Kind → Bool) (f0 : Bool) (auths : List AuthRec) (lab : List Nat) (n : Nat) (act : List Nat)
    (pk pk' : Bool) : keepValsP omit f0 pk (callPres auths lab n act) = keepValsP omit f0 pk' (callPres auths lab n act) := by
  cases act with
  | nil => rfl
  | cons d ds => rfl

/-- A reader that skips each authorization's facts skips the whole authorization section. -/
theorem skipAuths (r : List RVal → β) (hr : ∀ (b1 b2 b3 : Bool) (cr a l : Nat) (X : List RVal),
      r (consIf b1 (RVal.auth cr) (consIf b2 (RVal.authAct a) (consIf b3 (RVal.authLab l) X))) = r X)
    (omit : Kind → Bool) (f0 : Bool) (lab : List Nat) (T : List (Pre RVal))
    (hT : ∀ pk pk', keepValsP omit f0 pk T = keepValsP omit f0 pk' T) :
    ∀ (auths : List AuthRec) (pk : Bool), r (keepValsP omit f0 pk (authPres lab auths T)) = r (keepValsP omit f0 false T)
  | [], pk => congrArg r (hT pk false)
  | a :: rs, pk => by
    show r (keepValsP omit f0 pk (Pre.mk (plainK Part.E) (RVal.auth a.creator) [] ::
      Pre.mk ⟨Part.E, Link.authAct⟩ (RVal.authAct a.action) [Ref.prev] ::
      Pre.mk (plainK Part.E) (RVal.authLab (nth lab a.action)) [Ref.first] :: authPres lab rs T)) = _
    rw [kvConsSelf, kvConsSelf, kvConsSelf, hr]
    exact skipAuths r hr omit f0 lab T hT rs _

/-- Each authorization record, with its creator and action, when the E facts are kept. -/
theorem readAuthsKept (omit : Kind → Bool) (f0 : Bool) (lab : List Nat) (T : List (Pre RVal))
    (hE1 : omit (plainK Part.E) = false) (hE2 : omit ⟨Part.E, Link.authAct⟩ = false)
    (hT : ∀ pk pk', keepValsP omit f0 pk T = keepValsP omit f0 pk' T) :
    ∀ (auths : List AuthRec) (pk : Bool),
      readAuthRecs (keepValsP omit f0 pk (authPres lab auths T)) = auths ++ readAuthRecs (keepValsP omit f0 false T)
  | [], pk => congrArg readAuthRecs (hT pk false)
  | ⟨cr, a⟩ :: rs, pk => by
    have k1 : keptPre omit f0 pk (Pre.mk (plainK Part.E) (RVal.auth cr) []) = true := keptOf hE1 rfl
    have k2 : keptPre omit f0 true (Pre.mk ⟨Part.E, Link.authAct⟩ (RVal.authAct a) [Ref.prev]) = true := keptOf hE2 rfl
    have e : ∀ (b : Bool) (l : Nat) (X : List RVal), readAuthRecs (consIf true (RVal.auth cr)
        (consIf true (RVal.authAct a) (consIf b (RVal.authLab l) X))) = AuthRec.mk cr a :: readAuthRecs X := by
      intro b l X
      cases b <;> rfl
    show readAuthRecs (keepValsP omit f0 pk (Pre.mk (plainK Part.E) (RVal.auth cr) [] ::
      Pre.mk ⟨Part.E, Link.authAct⟩ (RVal.authAct a) [Ref.prev] ::
      Pre.mk (plainK Part.E) (RVal.authLab (nth lab a)) [Ref.first] :: authPres lab rs T)) = _
    rw [kvCons _ k1, kvCons _ k2, kvConsSelf, e, readAuthsKept omit f0 lab T hE1 hE2 hT rs, List.cons_append]

/-- The calls' facts name no authorization record. -/
theorem readAuthsNoCalls (omit : Kind → Bool) (f0 : Bool) (auths : List AuthRec) (lab : List Nat) :
    ∀ (act : List Nat) (n : Nat) (pk : Bool), readAuthRecs (keepValsP omit f0 pk (callPres auths lab n act)) = []
  | [], _, _ => rfl
  | d :: ds, n, pk => by
    have e : ∀ (b1 b2 b3 : Bool) (l : Nat) (X : List RVal), readAuthRecs (consIf b1 (RVal.call n)
        (consIf b2 (RVal.callAct d) (consIf b3 (RVal.callLab l) X))) = readAuthRecs X := by
      intro b1 b2 b3 l X
      cases b1 <;> cases b2 <;> cases b3 <;> rfl
    show readAuthRecs (keepValsP omit f0 pk (Pre.mk (plainK Part.I) (RVal.call n) [] ::
      Pre.mk (entryKind auths n) (RVal.callAct d) [Ref.prev] ::
      Pre.mk (plainK Part.I) (RVal.callLab (nth lab d)) [Ref.first] :: callPres auths lab (n + 1) ds)) = []
    rw [kvConsSelf, kvConsSelf, kvConsSelf, e]
    exact readAuthsNoCalls omit f0 auths lab ds (n + 1) _

theorem entryKindPart (auths : List AuthRec) (n : Nat) : (entryKind auths n).part = Part.I := by
  show (match isCreator auths n with
    | true => (⟨Part.I, Link.creatorAct⟩ : Kind)
    | false => ⟨Part.I, Link.callAct⟩).part = Part.I
  cases isCreator auths n <;> rfl

/-- `q_act` read off the calls' facts, when the I facts are kept. -/
theorem readActsKept (omit : Kind → Bool) (hI : ∀ k : Kind, k.part = Part.I → omit k = false)
    (auths : List AuthRec) (lab : List Nat) :
    ∀ (act : List Nat) (n : Nat) (pk : Bool), readActs (keepValsP omit true pk (callPres auths lab n act)) = act
  | [], _, _ => rfl
  | d :: ds, n, pk => by
    have k1 : keptPre omit true pk (Pre.mk (plainK Part.I) (RVal.call n) []) = true := keptOf (hI _ rfl) rfl
    have k2 : keptPre omit true true (Pre.mk (entryKind auths n) (RVal.callAct d) [Ref.prev]) = true :=
      keptOf (hI _ (entryKindPart auths n)) rfl
    have k3 : keptPre omit true true (Pre.mk (plainK Part.I) (RVal.callLab (nth lab d)) [Ref.first]) = true :=
      keptOf (hI _ rfl) rfl
    show readActs (keepValsP omit true pk (Pre.mk (plainK Part.I) (RVal.call n) [] ::
      Pre.mk (entryKind auths n) (RVal.callAct d) [Ref.prev] ::
      Pre.mk (plainK Part.I) (RVal.callLab (nth lab d)) [Ref.first] :: callPres auths lab (n + 1) ds)) = d :: ds
    rw [kvCons _ k1, kvCons _ k2, kvCons _ k3]
    show d :: readActs (keepValsP omit true true (callPres auths lab (n + 1) ds)) = d :: ds
    rw [readActsKept omit hI auths lab ds (n + 1) true]

/-- Every value of the authorization and call sections is an entry, not one of the parts' facts. -/
def isEntry : RVal → Bool
  | RVal.auth _ => true
  | RVal.authAct _ => true
  | RVal.authLab _ => true
  | RVal.call _ => true
  | RVal.callAct _ => true
  | RVal.callLab _ => true
  | _ => false

theorem entriesCalls (auths : List AuthRec) (lab : List Nat) :
    ∀ (act : List Nat) (n : Nat), allB (fun p : Pre RVal => isEntry p.val) (callPres auths lab n act) = true
  | [], _ => rfl
  | _ :: ds, n => entriesCalls auths lab ds (n + 1)

theorem entriesAuths (lab : List Nat) (T : List (Pre RVal)) (hT : allB (fun p : Pre RVal => isEntry p.val) T = true) :
    ∀ (auths : List AuthRec), allB (fun p : Pre RVal => isEntry p.val) (authPres lab auths T) = true
  | [] => hT
  | _ :: rs => entriesAuths lab T hT rs

theorem allBConsIf (q : α → Bool) (b : Bool) {a : α} {l : List α} (ha : q a = true) (hl : allB q l = true) :
    allB q (consIf b a l) = true := by
  cases b with
  | true =>
    show (match q a with
      | true => allB q l
      | false => false) = true
    rw [ha]
    exact hl
  | false => exact hl

theorem entriesKV (omit : Kind → Bool) (f0 : Bool) : ∀ (L : List (Pre RVal)) (pk : Bool),
    allB (fun p : Pre RVal => isEntry p.val) L = true → allB isEntry (keepValsP omit f0 pk L) = true
  | [], _, _ => rfl
  | p :: L, pk, h => by
    rw [kvConsSelf]
    exact allBConsIf isEntry _ (allBElim h p (Mem.head _))
      (entriesKV omit f0 L _ (allBIntro (fun x hx => allBElim h x (Mem.tail _ hx))))

theorem firstSomeCons {s : RVal → Option β} {v : RVal} (l : List RVal) (h : s v = none) :
    firstSome s (v :: l) = firstSome s l := by
  show (match s v with
    | some x => some x
    | none => firstSome s l) = firstSome s l
  cases hs : s v with
  | none => rfl
  | some x => exact Option.noConfusion (hs.symm.trans h)

theorem firstSomeEntries {s : RVal → Option β} (hs : ∀ v, isEntry v = true → s v = none) :
    ∀ (vs : List RVal), allB isEntry vs = true → firstSome s vs = none
  | [], _ => rfl
  | v :: vs, h => by
    rw [firstSomeCons vs (hs v (allBElim h v (Mem.head _)))]
    exact firstSomeEntries hs vs (allBIntro (fun x hx => allBElim h x (Mem.tail _ hx)))

theorem falseNeTrue {P : Prop} (h : false = true) : P := Bool.noConfusion h

theorem selPEntry : ∀ v, isEntry v = true → selP v = none := fun v h => by
  cases v <;> first | rfl | exact falseNeTrue h
theorem selLabEntry : ∀ v, isEntry v = true → selLab v = none := fun v h => by
  cases v <;> first | rfl | exact falseNeTrue h
theorem selPolicyEntry : ∀ v, isEntry v = true → selPolicy v = none := fun v h => by
  cases v <;> first | rfl | exact falseNeTrue h
theorem selQueuedEntry : ∀ v, isEntry v = true → selQueued v = none := fun v h => by
  cases v <;> first | rfl | exact falseNeTrue h
theorem selCEntry : ∀ v, isEntry v = true → selC v = none := fun v h => by
  cases v <;> first | rfl | exact falseNeTrue h

/-! ### Lists of facts deletion treats alike -/

def tailL : List α → List α
  | [] => []
  | _ :: l => l

/-- Two lists of facts deletion treats alike: the same kinds and dependencies, and equal values
where a fact is kept. -/
def AgreeK (omit : Kind → Bool) (f0 : Bool) : Bool → List (Pre α) → List (Pre α) → Prop
  | _, [], [] => True
  | pk, p :: L, q :: M => p.kind = q.kind ∧ p.refs = q.refs ∧ (keptPre omit f0 pk p = true → p.val = q.val) ∧
      AgreeK omit f0 (keptPre omit f0 pk p) L M
  | _, _, _ => False

theorem agreeCons {omit : Kind → Bool} {f0 pk : Bool} {p q : Pre α} {L M : List (Pre α)} (h1 : p.kind = q.kind)
    (h2 : p.refs = q.refs) (h3 : keptPre omit f0 pk p = true → p.val = q.val) (h4 : AgreeK omit f0 (keptPre omit f0 pk p) L M) :
    AgreeK omit f0 pk (p :: L) (q :: M) := ⟨h1, h2, h3, h4⟩

theorem keepPresCongr (omit : Kind → Bool) (f0 : Bool) : ∀ (L M : List (Pre α)) (k : Nat) (pk : Bool),
    AgreeK omit f0 pk L M → keepPres omit f0 k pk L = keepPres omit f0 k pk M
  | [], [], _, _, _ => rfl
  | [], _ :: _, _, _, h => (h : False).elim
  | _ :: _, [], _, _, h => (h : False).elim
  | p :: L, q :: M, k, pk, ⟨hk, hr, hv, h⟩ => by
    have e : keptPre omit f0 pk p = keptPre omit f0 pk q := by
      show (!omit p.kind && allB _ p.refs) = (!omit q.kind && allB _ q.refs)
      rw [hk, hr]
    show consIf (keptPre omit f0 pk p) (Fact.mk k p.kind p.val (List.map (resolveRef k) p.refs))
        (keepPres omit f0 (k + 1) (keptPre omit f0 pk p) L) =
      consIf (keptPre omit f0 pk q) (Fact.mk k q.kind q.val (List.map (resolveRef k) q.refs))
        (keepPres omit f0 (k + 1) (keptPre omit f0 pk q) M)
    rw [← e, keepPresCongr omit f0 L M (k + 1) _ h]
    cases hb : keptPre omit f0 pk p with
    | true => rw [hk, hr, hv hb]
    | false => rfl

/-! ### The fixed `Drop_ra` is an instance -/

theorem dropRAVals (V : Record) : List.map Fact.val (dropRAG (recordGraph V)) =
    RVal.lab V.i.lab :: RVal.p V.p :: RVal.policy V.e.policy :: RVal.queued V.e.queued :: RVal.c V.c ::
      keepValsP omitRA true true (authPres V.i.lab V.e.auths (callPres V.e.auths V.i.lab 0 V.i.act)) :=
  valsGraphOf omitRA (plainK Part.I) (RVal.lab V.i.lab) _

theorem readCallsKeep (auths : List AuthRec) (lab : List Nat) : ∀ (act : List Nat) (n : Nat) (pk : Bool),
    readCalls (keepValsP omitRA true pk (callPres auths lab n act)) = maskAct auths n act
  | [], _, _ => rfl
  | d :: ds, n, pk => by
    have k1 : keptPre omitRA true pk (Pre.mk (plainK Part.I) (RVal.call n) []) = true := rfl
    have k2 : keptPre omitRA true true (Pre.mk (entryKind auths n) (RVal.callAct d) [Ref.prev]) = !isCreator auths n := by
      show (!omitRA (match isCreator auths n with
        | true => (⟨Part.I, Link.creatorAct⟩ : Kind)
        | false => ⟨Part.I, Link.callAct⟩) && true) = !isCreator auths n
      cases isCreator auths n <;> rfl
    have k3 : ∀ q, keptPre omitRA true q (Pre.mk (plainK Part.I) (RVal.callLab (nth lab d)) [Ref.first]) = true :=
      fun _ => rfl
    show readCalls (keepValsP omitRA true pk (Pre.mk (plainK Part.I) (RVal.call n) [] ::
      Pre.mk (entryKind auths n) (RVal.callAct d) [Ref.prev] ::
      Pre.mk (plainK Part.I) (RVal.callLab (nth lab d)) [Ref.first] :: callPres auths lab (n + 1) ds)) =
      keepOpt (!isCreator auths n) d :: maskAct auths (n + 1) ds
    rw [kvCons _ k1, kvCons _ k2, kvCons _ (k3 _)]
    cases (!isCreator auths n) with
    | true =>
      show some d :: readCalls (keepValsP omitRA true true (callPres auths lab (n + 1) ds)) = some d :: maskAct auths (n + 1) ds
      rw [readCallsKeep auths lab ds (n + 1) true]
    | false =>
      show none :: readCalls (keepValsP omitRA true true (callPres auths lab (n + 1) ds)) = none :: maskAct auths (n + 1) ds
      rw [readCallsKeep auths lab ds (n + 1) true]

theorem readAuthsRA (lab : List Nat) (T : List (Pre RVal))
    (hT : ∀ pk pk', keepValsP omitRA true pk T = keepValsP omitRA true pk' T) :
    ∀ (auths : List AuthRec) (pk : Bool), readAuths (keepValsP omitRA true pk (authPres lab auths T)) =
      List.map (fun r : AuthRec => (r.creator, nth lab r.action)) auths ++ readAuths (keepValsP omitRA true false T)
  | [], pk => congrArg readAuths (hT pk false)
  | r :: rs, pk => by
    show readAuths (RVal.auth r.creator :: RVal.authLab (nth lab r.action) ::
      keepValsP omitRA true true (authPres lab rs T)) = _
    show (r.creator, nth lab r.action) :: readAuths (keepValsP omitRA true true (authPres lab rs T)) = _
    rw [readAuthsRA lab T hT rs true]
    show _ = ((r.creator, nth lab r.action) :: List.map (fun r : AuthRec => (r.creator, nth lab r.action)) rs) ++
      readAuths (keepValsP omitRA true false T)
    rw [List.cons_append]

theorem readAuthsCallsRA (auths : List AuthRec) (lab : List Nat) (n : Nat) (pk : Bool) :
    ∀ (act : List Nat), readAuths (keepValsP omitRA true pk (callPres auths lab n act)) = []
  | [] => rfl
  | _ :: _ => rfl

/-- The fixed `Drop_ra` of the four-part record is what the recursive `Drop_ra` of its graph shows. -/
theorem dropRAInstance (V : Record) : raViewOf (dropRAG (recordGraph V)) = dropRA V := by
  show raViewOfVals (List.map Fact.val (dropRAG (recordGraph V))) = dropRA V
  rw [dropRAVals]
  show (V.p, readCalls (keepValsP omitRA true true (authPres V.i.lab V.e.auths (callPres V.e.auths V.i.lab 0 V.i.act))),
    V.i.lab, readAuths (keepValsP omitRA true true (authPres V.i.lab V.e.auths (callPres V.e.auths V.i.lab 0 V.i.act))),
    V.e.policy, V.e.queued, V.c) = dropRA V
  have hT := kvCallsPk omitRA true V.e.auths V.i.lab 0 V.i.act
  rw [skipAuths readCalls (fun b1 b2 b3 _ _ _ _ => by cases b1 <;> cases b2 <;> cases b3 <;> rfl) omitRA true V.i.lab _ hT,
    readCallsKeep, readAuthsRA V.i.lab _ hT, readAuthsCallsRA, List.append_nil]
  rfl

/-! ### The fixed `Drop_ca` is an instance -/

theorem dropCAVals (V : Record) : List.map Fact.val (dropCAG (recordGraph V)) =
    RVal.lab V.i.lab :: RVal.p V.p :: RVal.policy V.e.policy :: RVal.queued V.e.queued :: RVal.c V.c ::
      keepValsP omitCA true true (authPres V.i.lab V.e.auths (callPres V.e.auths V.i.lab 0 V.i.act)) :=
  valsGraphOf omitCA (plainK Part.I) (RVal.lab V.i.lab) _

theorem readCallLabsCA (auths : List AuthRec) (lab : List Nat) : ∀ (act : List Nat) (n : Nat) (pk : Bool),
    readCallLabs (keepValsP omitCA true pk (callPres auths lab n act)) = labels lab act
  | [], _, _ => rfl
  | d :: ds, n, pk => by
    have k3 : ∀ q, keptPre omitCA true q (Pre.mk (plainK Part.I) (RVal.callLab (nth lab d)) [Ref.first]) = true :=
      fun _ => rfl
    have e : ∀ (b1 b2 : Bool) (X : List RVal), readCallLabs (consIf b1 (RVal.call n)
        (consIf b2 (RVal.callAct d) (consIf true (RVal.callLab (nth lab d)) X))) = nth lab d :: readCallLabs X := by
      intro b1 b2 X
      cases b1 <;> cases b2 <;> rfl
    show readCallLabs (keepValsP omitCA true pk (Pre.mk (plainK Part.I) (RVal.call n) [] ::
      Pre.mk (entryKind auths n) (RVal.callAct d) [Ref.prev] ::
      Pre.mk (plainK Part.I) (RVal.callLab (nth lab d)) [Ref.first] :: callPres auths lab (n + 1) ds)) =
      nth lab d :: labels lab ds
    rw [kvConsSelf, kvConsSelf, kvCons _ (k3 _), e, readCallLabsCA auths lab ds (n + 1) true]

/-- The fixed `Drop_ca` of the four-part record is what the recursive `Drop_ca` of its graph shows:
each call keeps its label (a fact depending on `ℓ`), the `q_act` entries go. -/
theorem dropCAInstanceR (V : Record) : caViewOfRG (dropCAG (recordGraph V)) = dropCA V := by
  cases V with
  | mk p i e c =>
    cases e with
    | mk au pol q =>
      show (orElse ⟨[]⟩ (firstSome selP (List.map Fact.val (dropCAG (recordGraph ⟨p, i, ⟨au, pol, q⟩, c⟩)))),
        readCallLabs (List.map Fact.val (dropCAG (recordGraph ⟨p, i, ⟨au, pol, q⟩, c⟩))),
        orElse [] (firstSome selLab (List.map Fact.val (dropCAG (recordGraph ⟨p, i, ⟨au, pol, q⟩, c⟩)))),
        PartE.mk (readAuthRecs (List.map Fact.val (dropCAG (recordGraph ⟨p, i, ⟨au, pol, q⟩, c⟩))))
          (orElse [] (firstSome selPolicy (List.map Fact.val (dropCAG (recordGraph ⟨p, i, ⟨au, pol, q⟩, c⟩)))))
          (orElse [] (firstSome selQueued (List.map Fact.val (dropCAG (recordGraph ⟨p, i, ⟨au, pol, q⟩, c⟩))))),
        orElse ⟨0⟩ (firstSome selC (List.map Fact.val (dropCAG (recordGraph ⟨p, i, ⟨au, pol, q⟩, c⟩))))) = _
      rw [dropCAVals]
      have hT := kvCallsPk omitCA true au i.lab 0 i.act
      show (p, readCallLabs (keepValsP omitCA true true (authPres i.lab au (callPres au i.lab 0 i.act))), i.lab,
        PartE.mk (readAuthRecs (keepValsP omitCA true true (authPres i.lab au (callPres au i.lab 0 i.act)))) pol q, c) =
        (p, labels i.lab i.act, i.lab, PartE.mk au pol q, c)
      rw [skipAuths readCallLabs (fun b1 b2 b3 _ _ _ _ => by cases b1 <;> cases b2 <;> cases b3 <;> rfl) omitCA true i.lab _ hT,
        readCallLabsCA, readAuthsKept omitCA true i.lab _ rfl rfl hT, readAuthsNoCalls, List.append_nil]

/-! ### The fixed `Keep_J` is an instance -/

/-- The parts' facts as `Keep_J` leaves them, before the entries `T`. -/
def hdr (bI bP bE bC : Bool) (V : Record) (T : List RVal) : List RVal :=
  consIf bI (RVal.lab V.i.lab) (consIf bP (RVal.p V.p) (consIf bE (RVal.policy V.e.policy)
    (consIf bE (RVal.queued V.e.queued) (consIf bC (RVal.c V.c) T))))

theorem notOmitJ (J : Part → Bool) (x : Part) : (!omitJ J (plainK x)) = J x := by
  show (!(!J x)) = J x
  cases J x <;> rfl

theorem kvPlainJ (J : Part → Bool) (f0 pk : Bool) (x : Part) (v : α) (L : List (Pre α)) :
    keepValsP (omitJ J) f0 pk (Pre.mk (plainK x) v [] :: L) = consIf (J x) v (keepValsP (omitJ J) f0 (J x) L) := by
  have e : keptPre (omitJ J) f0 pk (Pre.mk (plainK x) v []) = J x := by
    show (!(!J x) && true) = J x
    cases J x <;> rfl
  exact kvCons L e

theorem keepJVals (J : Part → Bool) (V : Record) : List.map Fact.val (keepJG J (recordGraph V)) =
    hdr (J Part.I) (J Part.P) (J Part.E) (J Part.C) V
      (keepValsP (omitJ J) (J Part.I) (J Part.C) (authPres V.i.lab V.e.auths (callPres V.e.auths V.i.lab 0 V.i.act))) := by
  show List.map Fact.val (del (omitJ J) (graphOf (Pre.mk (plainK Part.I) (RVal.lab V.i.lab) [] :: _))) = _
  rw [valsGraphOf, notOmitJ, kvPlainJ, kvPlainJ, kvPlainJ, kvPlainJ] <;> rfl

def mkI (acts : List Nat) : Option (List Nat) → Option PartI
  | some l => some ⟨acts, l⟩
  | none => none

def mkE (auths : List AuthRec) : Option (List (List Nat)) → Option (List Nat) → Option PartE
  | some y, some z => some ⟨auths, y, z⟩
  | _, _ => none

theorem viewOfRValsEq (vs : List RVal) : viewOfRVals vs =
    ⟨firstSome selP vs, mkI (readActs vs) (firstSome selLab vs),
     mkE (readAuthRecs vs) (firstSome selPolicy vs) (firstSome selQueued vs), firstSome selC vs⟩ := by
  show View.mk _ _ _ _ = View.mk _ _ _ _
  cases firstSome selLab vs <;> cases firstSome selPolicy vs <;> cases firstSome selQueued vs <;> rfl

theorem mkIKeep : ∀ (b : Bool) (i : PartI) (acts : List Nat), (b = true → acts = i.act) → mkI acts (keepOpt b i.lab) = keepOpt b i
  | true, ⟨_, l⟩, _, h => congrArg (fun x => some (PartI.mk x l)) (h rfl)
  | false, _, _, _ => rfl

theorem mkEKeep : ∀ (b : Bool) (e : PartE) (auths : List AuthRec), (b = true → auths = e.auths) →
    mkE auths (keepOpt b e.policy) (keepOpt b e.queued) = keepOpt b e
  | true, ⟨_, y, z⟩, _, h => congrArg (fun x => some (PartE.mk x y z)) (h rfl)
  | false, _, _, _ => rfl

/-- The view the parts' facts and the entries `T` show. -/
theorem viewOfHdr (bI bP bE bC : Bool) (V : Record) (T : List RVal) (hT : allB isEntry T = true)
    (hA : bI = true → readActs T = V.i.act) (hE : bE = true → readAuthRecs T = V.e.auths) :
    viewOfRVals (hdr bI bP bE bC V T) = keepJ (sel bP bI bE bC) V := by
  have hP : firstSome selP (hdr bI bP bE bC V T) = keepOpt bP V.p := by
    cases bI <;> cases bP <;> cases bE <;> cases bC <;> first | rfl | exact firstSomeEntries selPEntry T hT
  have hL : firstSome selLab (hdr bI bP bE bC V T) = keepOpt bI V.i.lab := by
    cases bI <;> cases bP <;> cases bE <;> cases bC <;> first | rfl | exact firstSomeEntries selLabEntry T hT
  have hY : firstSome selPolicy (hdr bI bP bE bC V T) = keepOpt bE V.e.policy := by
    cases bI <;> cases bP <;> cases bE <;> cases bC <;> first | rfl | exact firstSomeEntries selPolicyEntry T hT
  have hQ : firstSome selQueued (hdr bI bP bE bC V T) = keepOpt bE V.e.queued := by
    cases bI <;> cases bP <;> cases bE <;> cases bC <;> first | rfl | exact firstSomeEntries selQueuedEntry T hT
  have hC : firstSome selC (hdr bI bP bE bC V T) = keepOpt bC V.c := by
    cases bI <;> cases bP <;> cases bE <;> cases bC <;> first | rfl | exact firstSomeEntries selCEntry T hT
  have hAc : readActs (hdr bI bP bE bC V T) = readActs T := by
    cases bI <;> cases bP <;> cases bE <;> cases bC <;> rfl
  have hAu : readAuthRecs (hdr bI bP bE bC V T) = readAuthRecs T := by
    cases bI <;> cases bP <;> cases bE <;> cases bC <;> rfl
  rw [viewOfRValsEq, hP, hL, hY, hQ, hC, hAc, hAu, mkIKeep bI V.i _ hA, mkEKeep bE V.e _ hE]
  rfl

theorem omitJFalse {J : Part → Bool} {x : Part} (h : J x = true) (k : Kind) (hk : k.part = x) : omitJ J k = false := by
  show (!J k.part) = false
  rw [hk, h] <;> rfl

/-- The fixed `Keep_J` of the four-part record is what the recursive `Keep_J` of its graph shows. -/
theorem keepJInstanceR (J : Part → Bool) (V : Record) : viewOfRG (keepJG J (recordGraph V)) = keepJ J V := by
  have hT := kvCallsPk (omitJ J) (J Part.I) V.e.auths V.i.lab 0 V.i.act
  have e := viewOfHdr (J Part.I) (J Part.P) (J Part.E) (J Part.C) V
    (keepValsP (omitJ J) (J Part.I) (J Part.C) (authPres V.i.lab V.e.auths (callPres V.e.auths V.i.lab 0 V.i.act)))
    (entriesKV _ _ _ _ (entriesAuths _ _ (entriesCalls _ _ _ _) _))
    (fun hI => by
      rw [skipAuths readActs (fun b1 b2 b3 _ _ _ _ => by cases b1 <;> cases b2 <;> cases b3 <;> rfl) _ _ _ _ hT, hI]
      exact readActsKept (omitJ J) (omitJFalse hI) _ _ _ _ _)
    (fun hE => by
      rw [readAuthsKept _ _ _ _ (omitJFalse hE _ rfl) (omitJFalse hE _ rfl) hT, readAuthsNoCalls, List.append_nil])
  rw [← selEta J] at e
  show viewOfRVals (List.map Fact.val (keepJG J (recordGraph V))) = _
  rw [keepJVals]
  exact e

/-! ### The recursive `Drop_ra` of the record's graph is inexact -/

theorem renRVId : ∀ (v : RVal), renRV Ren.id v = v
  | RVal.lab x => congrArg RVal.lab (reindexId x)
  | RVal.p x => congrArg RVal.p (renPId x)
  | RVal.policy _ => rfl
  | RVal.queued x => congrArg RVal.queued (mapId x)
  | RVal.c x => congrArg RVal.c (renCId x)
  | RVal.auth _ => rfl
  | RVal.authAct _ => rfl
  | RVal.authLab _ => rfl
  | RVal.call _ => rfl
  | RVal.callAct _ => rfl
  | RVal.callLab _ => rfl

theorem renRGId : ∀ (G : Graph RVal), renRG Ren.id G = G
  | [] => rfl
  | ⟨n, k, v, ds⟩ :: G => by
    show Fact.mk n k (renRV Ren.id v) (List.map (fun x => x) ds) :: renRG Ren.id G = Fact.mk n k v ds :: G
    rw [renRVId v, mapId ds, renRGId G]

/-- `π` fits a graph when it fits the `Drop_ra` view the graph shows. -/
def FitsRG (π : Ren) (G : Graph RVal) : Prop := FitsDropRA π (raViewOf G)

/-- The paper's `Drop_ra` pair has the same recursive `Drop_ra` graph: the creator call's entry and
the authorization's action are deleted, and everything left is equal, names included. -/
theorem dropRAGPairCollapses : dropRAG (recordGraph recR0) = dropRAG (recordGraph recR1) := by
  have hA : AgreeK omitRA (!omitRA (plainK Part.I)) (!omitRA (plainK Part.I))
      (tailL (recordPres recR0)) (tailL (recordPres recR1)) :=
    agreeCons rfl rfl (fun _ => rfl) (agreeCons rfl rfl (fun _ => rfl) (agreeCons rfl rfl (fun _ => rfl)
    (agreeCons rfl rfl (fun _ => rfl) (agreeCons rfl rfl (fun _ => rfl) (agreeCons rfl rfl (fun h => falseNeTrue h)
    (agreeCons rfl rfl (fun _ => rfl) (agreeCons rfl rfl (fun _ => rfl) (agreeCons rfl rfl (fun h => falseNeTrue h)
    (agreeCons rfl rfl (fun _ => rfl) (agreeCons rfl rfl (fun _ => rfl) (agreeCons rfl rfl (fun _ => rfl)
    (agreeCons rfl rfl (fun _ => rfl) (agreeCons rfl rfl (fun _ => rfl) (agreeCons rfl rfl (fun _ => rfl)
    (agreeCons rfl rfl (fun _ => rfl) trivial)))))))))))))))
  show del omitRA (graphOf (Pre.mk (plainK Part.I) (RVal.lab recR0.i.lab) [] :: tailL (recordPres recR0))) =
    del omitRA (graphOf (Pre.mk (plainK Part.I) (RVal.lab recR1.i.lab) [] :: tailL (recordPres recR1)))
  rw [delGraphOfPres, delGraphOfPres, keepPresCongr _ _ _ _ 1 _ hA] <;> rfl

/-- The recursive `Drop_ra` of the record's graph is inexact up to renaming. -/
theorem dropRAGInexactR : ¬ ExactR renRG FitsRG (fun V => dropRAG (recordGraph V)) := by
  intro hE
  have e : dropRAG (recordGraph recR0) = renRG Ren.id (dropRAG (recordGraph recR1)) := by
    rw [renRGId]
    exact dropRAGPairCollapses
  exact exactRSeparates hE (q₀ := Query.decide) (q₁ := Query.decide) (fun π' => notIsoOfPositive (by decide) π') Ren.id
    ⟨permOnId _, permOnId _, rfl⟩ trivial rfl e

end AgentWarrant.Edits
