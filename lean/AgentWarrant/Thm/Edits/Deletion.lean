import AgentWarrant.Spec.Edits.Deletion
import AgentWarrant.Thm.Edits.Rename
import AgentWarrant.Thm.Edits.RecheckContract
import AgentWarrant.Thm.Edits.Certificate
/-! Lemma 11 for the paper's recursive `Keep_J`, `Drop_ca`, `Drop_ra` (*When Can Agents Safely
Checkpoint, Fork, Restore, and Merge?*, Appendix A-F), and the four-part record's fixed projections
as instances of them.

- Lemma 11 (`delRen`): renaming the facts' names by a bijection and their values by any map, then
  deleting, gives the renamed deletion, for every record, every dependency relation and every
  predicate of omitted kinds; so for `Keep_J`, `Drop_ca`, `Drop_ra` (`keepJGRen`, `dropCAGRen`,
  `dropRAGRen`). The proof is the paper's: each deletion step of the renamed record is the renamed
  step, by induction along the dependency order; the bijection is what keeps the question "was this
  dependency kept?" the same after renaming.
- `delChar`: on an acyclic record with distinct names, the one pass keeps exactly the facts whose
  names `Removed` (the recursive deletion stated without an order) does not reach; `removedRen`:
  Lemma 11 for `Removed` itself, on every record.
- The fixed projections are instances: `Keep_J` of the four-part record is read off the recursive
  `Keep_J` of its graph, and determines it (`keepJInstance`, `keepJGDetermined`); likewise `Drop_ca`
  (`dropCAInstance`); so Theorem 4 holds for the recursive views (`keepGExactRIff`), and the
  record's own renaming is a renaming of its graph (`recGraphRen`, `recViewsRen`). -/
namespace AgentWarrant.Edits
open AgentWarrant

/-! ### Lemma 11 -/

theorem allBMemRen (ρ : Perm) (alive deps : List Nat) :
    allB (fun d => memN d (List.map ρ.f alive)) (List.map ρ.f deps) = allB (fun d => memN d alive) deps := by
  rw [allBMap]
  exact congrArg (fun q => allB q deps) (funext (fun d => memNRen ρ d alive))

theorem delAuxRen (ρ : Perm) (r : α → α) (omit : Kind → Bool) : ∀ (alive : List Nat) (G : Graph α),
    delAux omit (List.map ρ.f alive) (renGraph ρ r G) = renGraph ρ r (delAux omit alive G)
  | _, [] => rfl
  | alive, f :: G => by
    show (match !omit f.kind && allB (fun d => memN d (List.map ρ.f alive)) (List.map ρ.f f.deps) with
      | true => renFact ρ r f :: delAux omit (ρ.f f.name :: List.map ρ.f alive) (renGraph ρ r G)
      | false => delAux omit (List.map ρ.f alive) (renGraph ρ r G)) =
      renGraph ρ r (match !omit f.kind && allB (fun d => memN d alive) f.deps with
      | true => f :: delAux omit (f.name :: alive) G
      | false => delAux omit alive G)
    rw [allBMemRen]
    cases !omit f.kind && allB (fun d => memN d alive) f.deps with
    | true =>
      show renFact ρ r f :: delAux omit (List.map ρ.f (f.name :: alive)) (renGraph ρ r G) =
        renFact ρ r f :: renGraph ρ r (delAux omit (f.name :: alive) G)
      rw [delAuxRen ρ r omit (f.name :: alive) G]
    | false => exact delAuxRen ρ r omit alive G

/-- Lemma 11 for recursive deletion: renaming commutes with deleting the facts of omitted kinds
and everything depending on them, for every record and dependency relation. -/
theorem delRen (ρ : Perm) (r : α → α) (omit : Kind → Bool) (G : Graph α) :
    del omit (renGraph ρ r G) = renGraph ρ r (del omit G) :=
  delAuxRen ρ r omit [] G

theorem keepJGRen (ρ : Perm) (r : α → α) (J : Part → Bool) (G : Graph α) :
    keepJG J (renGraph ρ r G) = renGraph ρ r (keepJG J G) :=
  delRen ρ r (omitJ J) G

theorem dropCAGRen (ρ : Perm) (r : α → α) (G : Graph α) : dropCAG (renGraph ρ r G) = renGraph ρ r (dropCAG G) :=
  delRen ρ r omitCA G

theorem dropRAGRen (ρ : Perm) (r : α → α) (G : Graph α) : dropRAG (renGraph ρ r G) = renGraph ρ r (dropRAG G) :=
  delRen ρ r omitRA G

/-! ### One pass along the order is the recursive deletion -/

theorem removedInv {omit : Kind → Bool} {G : Graph α} (hd : NamesDistinct G) {f : Fact α} (hf : f ∈ G)
    (h : Removed omit G f.name) : omit f.kind = true ∨ ∃ d, d ∈ f.deps ∧ Removed omit G d := by
  have key : ∀ n, Removed omit G n → ∀ f, f ∈ G → f.name = n →
      omit f.kind = true ∨ ∃ d, d ∈ f.deps ∧ Removed omit G d := by
    intro n h
    cases h with
    | base g hg ho => intro f hf e; rw [hd f g hf hg e]; exact Or.inl ho
    | dep g d hg hdg hr => intro f hf e; rw [hd f g hf hg e]; exact Or.inr ⟨d, hdg, hr⟩
  exact key _ h f hf rfl

/-- One deletion step: with the names seen so far kept exactly when not removed, a fact whose
dependencies were all seen is kept exactly when its own name is not removed. -/
theorem keptIff {omit : Kind → Bool} {Gt : Graph α} (hd : NamesDistinct Gt) {alive seen : List Nat}
    (hI : ∀ n, n ∈ seen → (n ∈ alive ↔ ¬ Removed omit Gt n)) {g : Fact α} (hg : g ∈ Gt)
    (hac : allB (fun d => memN d seen) g.deps = true) :
    (!omit g.kind && allB (fun d => memN d alive) g.deps) = true ↔ ¬ Removed omit Gt g.name := by
  have hs : ∀ d, d ∈ g.deps → d ∈ seen := fun d h => (memNIff d seen).1 (allBElim hac d h)
  constructor
  · intro h hr
    cases ho : omit g.kind with
    | true =>
      rw [ho] at h
      have c : false = true := h
      cases c
    | false =>
      rw [ho] at h
      have ha : allB (fun d => memN d alive) g.deps = true := h
      cases removedInv hd hg hr with
      | inl h' =>
        rw [ho] at h'
        cases h'
      | inr h' =>
        have ⟨d, hdm, hrd⟩ := h'
        exact ((hI d (hs d hdm)).1 ((memNIff d alive).1 (allBElim ha d hdm))) hrd
  · intro hn
    cases ho : omit g.kind with
    | true => exact absurd (Removed.base g hg ho) hn
    | false =>
      show allB (fun d => memN d alive) g.deps = true
      exact allBIntro (fun d hdm =>
        (memNIff d alive).2 ((hI d (hs d hdm)).2 (fun hrd => hn (Removed.dep g d hg hdm hrd))))

/-- A fact the step does not keep has a removed name (with every seen name not kept removed). -/
theorem removedOfNotKept {omit : Kind → Bool} {Gt : Graph α} {alive seen : List Nat}
    (hR : ∀ n, n ∈ seen → ¬ n ∈ alive → Removed omit Gt n) {g : Fact α} (hg : g ∈ Gt)
    (hac : allB (fun d => memN d seen) g.deps = true)
    (h : (!omit g.kind && allB (fun d => memN d alive) g.deps) = false) : Removed omit Gt g.name := by
  cases ho : omit g.kind with
  | true => exact Removed.base g hg ho
  | false =>
    rw [ho] at h
    have ha : allB (fun d => memN d alive) g.deps = false := h
    have ⟨d, hdm, hd⟩ := allBFalse ha
    exact Removed.dep g d hg hdm (hR d ((memNIff d seen).1 (allBElim hac d hdm)) ((memNFalseIff d alive).1 hd))

theorem delAuxChar {omit : Kind → Bool} {Gt : Graph α} (hd : NamesDistinct Gt) :
    ∀ (G : Graph α) (alive seen : List Nat), (∀ f, f ∈ G → f ∈ Gt) → acyclicB seen G = true →
      (∀ n, n ∈ seen → (n ∈ alive ↔ ¬ Removed omit Gt n)) → (∀ n, n ∈ seen → ¬ n ∈ alive → Removed omit Gt n) →
      (∀ n, n ∈ alive → n ∈ seen) → ∀ f, (f ∈ delAux omit alive G ↔ f ∈ G ∧ ¬ Removed omit Gt f.name)
  | [], _, _, _, _, _, _, _, _ => ⟨fun h => absurd h notMemNil, fun h => absurd h.1 notMemNil⟩
  | g :: G, alive, seen, hsub, hac, hI, hR, hA, f => by
    have hg : g ∈ Gt := hsub g (Mem.head _)
    have hsub' : ∀ f, f ∈ G → f ∈ Gt := fun f h => hsub f (Mem.tail _ h)
    have hac' : (match allB (fun d => memN d seen) g.deps with
      | true => acyclicB (g.name :: seen) G
      | false => false) = true := hac
    cases hg1 : allB (fun d => memN d seen) g.deps with
    | false =>
      rw [hg1] at hac'
      cases hac'
    | true =>
      rw [hg1] at hac'
      have hk := keptIff hd hI hg hg1
      show f ∈ (match (!omit g.kind && allB (fun d => memN d alive) g.deps) with
        | true => g :: delAux omit (g.name :: alive) G
        | false => delAux omit alive G) ↔ _
      cases hkb : (!omit g.kind && allB (fun d => memN d alive) g.deps) with
      | true =>
        have hn : ¬ Removed omit Gt g.name := hk.1 hkb
        have hI' : ∀ n, n ∈ g.name :: seen → (n ∈ g.name :: alive ↔ ¬ Removed omit Gt n) := by
          intro n hn'
          cases memCons hn' with
          | inl e => rw [e]; exact ⟨fun _ => hn, fun _ => Mem.head _⟩
          | inr hs =>
            constructor
            · intro ha
              cases memCons ha with
              | inl e => rw [e]; exact hn
              | inr ha' => exact (hI n hs).1 ha'
            · intro hr
              exact Mem.tail _ ((hI n hs).2 hr)
        have hR' : ∀ n, n ∈ g.name :: seen → ¬ n ∈ g.name :: alive → Removed omit Gt n := by
          intro n hn' hna
          cases memCons hn' with
          | inl e => exact absurd (by rw [e]; exact Mem.head _) hna
          | inr hs => exact hR n hs (fun ha => hna (Mem.tail _ ha))
        have hA' : ∀ n, n ∈ g.name :: alive → n ∈ g.name :: seen := by
          intro n h
          cases memCons h with
          | inl e => rw [e]; exact Mem.head _
          | inr h' => exact Mem.tail _ (hA n h')
        have ih := delAuxChar hd G (g.name :: alive) (g.name :: seen) hsub' hac' hI' hR' hA' f
        constructor
        · intro h
          cases memCons h with
          | inl e => rw [e]; exact ⟨Mem.head _, hn⟩
          | inr h' => have ⟨m, r⟩ := ih.1 h'; exact ⟨Mem.tail _ m, r⟩
        · intro ⟨m, r⟩
          cases memCons m with
          | inl e => rw [e]; exact Mem.head _
          | inr m' => exact Mem.tail _ (ih.2 ⟨m', r⟩)
      | false =>
        have hr : Removed omit Gt g.name := removedOfNotKept hR hg hg1 hkb
        have hI' : ∀ n, n ∈ g.name :: seen → (n ∈ alive ↔ ¬ Removed omit Gt n) := by
          intro n hn'
          cases memCons hn' with
          | inl e =>
            rw [e]
            exact ⟨fun ha => (hI g.name (hA g.name ha)).1 ha, fun hnr => absurd hr hnr⟩
          | inr hs => exact hI n hs
        have hR' : ∀ n, n ∈ g.name :: seen → ¬ n ∈ alive → Removed omit Gt n := by
          intro n hn' hna
          cases memCons hn' with
          | inl e => rw [e]; exact hr
          | inr hs => exact hR n hs hna
        have hA' : ∀ n, n ∈ alive → n ∈ g.name :: seen := fun n h => Mem.tail _ (hA n h)
        have ih := delAuxChar hd G alive (g.name :: seen) hsub' hac' hI' hR' hA' f
        constructor
        · intro h
          have ⟨m, r⟩ := ih.1 h
          exact ⟨Mem.tail _ m, r⟩
        · intro ⟨m, r⟩
          cases memCons m with
          | inl e => rw [e] at r; exact absurd hr r
          | inr m' => exact ih.2 ⟨m', r⟩

/-- Deletion is the recursive deletion: on an acyclic record with distinct names, a fact is kept
exactly when its name is not removed (not of an omitted kind, and not depending, directly or
through other facts, on a fact of an omitted kind). -/
theorem delChar {omit : Kind → Bool} {G : Graph α} (hac : Acyclic G) (hd : NamesDistinct G) (f : Fact α) :
    f ∈ del omit G ↔ f ∈ G ∧ ¬ Removed omit G f.name :=
  delAuxChar hd G [] [] (fun _ h => h) hac (fun _ h => absurd h notMemNil) (fun _ h => absurd h notMemNil)
    (fun _ h => absurd h notMemNil) f

/-- Lemma 11 for the order-free recursive deletion: a name is removed from the renamed record exactly
when its preimage is removed from the record, for every record (acyclic or not). -/
theorem removedRen (ρ : Perm) (r : α → α) (omit : Kind → Bool) (G : Graph α) (n : Nat) :
    Removed omit (renGraph ρ r G) (ρ.f n) ↔ Removed omit G n := by
  have fwd : ∀ m, Removed omit G m → Removed omit (renGraph ρ r G) (ρ.f m) := by
    intro m h
    induction h with
    | base f hf ho => exact Removed.base (renFact ρ r f) (mapMem hf) ho
    | dep f d hf hd _ ih => exact Removed.dep (renFact ρ r f) (ρ.f d) (mapMem hf) (mapMem hd) ih
  have bwd : ∀ m, Removed omit (renGraph ρ r G) m → Removed omit G (ρ.g m) := by
    intro m h
    induction h with
    | base f' hf' ho =>
      have ⟨f, hf, e⟩ := memMap hf'
      rw [e]
      show Removed omit G (ρ.g (ρ.f f.name))
      rw [ρ.gf]
      rw [e] at ho
      exact Removed.base f hf ho
    | dep f' d hf' hd _ ih =>
      have ⟨f, hf, e⟩ := memMap hf'
      rw [e] at hd
      have ⟨d₀, hd₀, ed⟩ := memMap hd
      rw [ed, ρ.gf] at ih
      rw [e]
      show Removed omit G (ρ.g (ρ.f f.name))
      rw [ρ.gf]
      exact Removed.dep f d₀ hf hd₀ ih
  exact ⟨fun h => by have h' := bwd _ h; rw [ρ.gf] at h'; exact h', fwd n⟩

/-! ### The four-part record's fixed projections are instances -/

def sel (bP bI bE bC : Bool) : Part → Bool
  | Part.P => bP
  | Part.I => bI
  | Part.E => bE
  | Part.C => bC

theorem selEta (J : Part → Bool) : J = sel (J Part.P) (J Part.I) (J Part.E) (J Part.C) :=
  funext (fun x => by cases x <;> rfl)

theorem keepJInstanceSel (bP bI bE bC : Bool) (V : Record) :
    viewOf (keepJG (sel bP bI bE bC) (recGraph V)) = keepJ (sel bP bI bE bC) V := by
  cases V with
  | mk p i e c =>
    cases i with
    | mk a l => cases bP <;> cases bI <;> cases bE <;> cases bC <;> rfl

theorem forallMemCons {P : α → Prop} {a : α} {l : List α} (ha : P a) (hl : ∀ x, x ∈ l → P x) :
    ∀ x, x ∈ a :: l → P x := fun x h => match memCons h with
  | Or.inl e => by rw [e]; exact ha
  | Or.inr h' => hl x h'

/-- The record's fact of each name. -/
def factNamed (V : Record) : Nat → Fact Val
  | 0 => ⟨0, kindOf Part.P, Val.p V.p, []⟩
  | 1 => ⟨1, ⟨Part.I, Link.callAct⟩, Val.act V.i.act, []⟩
  | 2 => ⟨2, kindOf Part.I, Val.lab V.i.lab, []⟩
  | 3 => ⟨3, kindOf Part.I, Val.callLab (labels V.i.lab V.i.act), [2]⟩
  | 4 => ⟨4, kindOf Part.E, Val.e V.e, []⟩
  | _ => ⟨5, kindOf Part.C, Val.c V.c, []⟩

/-- The record's graph is one `delChar` applies to: acyclic, with distinct names. -/
theorem recGraphWellFormed (V : Record) : Acyclic (recGraph V) ∧ NamesDistinct (recGraph V) := by
  have h : ∀ f, f ∈ recGraph V → f = factNamed V f.name :=
    forallMemCons rfl (forallMemCons rfl (forallMemCons rfl (forallMemCons rfl (forallMemCons rfl
      (forallMemCons rfl (fun _ h => absurd h notMemNil))))))
  exact ⟨rfl, fun f g hf hg e => by rw [h f hf, h g hg, e]⟩

/-- The fixed `Keep_J` of the four-part record is what the recursive `Keep_J` of its graph shows. -/
theorem keepJInstance (J : Part → Bool) (V : Record) : viewOf (keepJG J (recGraph V)) = keepJ J V := by
  rw [selEta J]
  exact keepJInstanceSel _ _ _ _ V

/-- A record with the parts a view shows (empty parts where it shows none). -/
def fillRec (v : View) : Record :=
  ⟨orElse ⟨[]⟩ v.p, orElse ⟨[], []⟩ v.i, orElse ⟨[], [], []⟩ v.e, orElse ⟨0⟩ v.c⟩

theorem keepJGOfViewSel (bP bI bE bC : Bool) (V : Record) :
    keepJG (sel bP bI bE bC) (recGraph V) = keepJG (sel bP bI bE bC) (recGraph (fillRec (keepJ (sel bP bI bE bC) V))) := by
  cases bP <;> cases bI <;> cases bE <;> cases bC <;> rfl

/-- Conversely the recursive `Keep_J` of the record's graph is a function of the fixed `Keep_J`. -/
theorem keepJGOfView (J : Part → Bool) (V : Record) :
    keepJG J (recGraph V) = keepJG J (recGraph (fillRec (keepJ J V))) := by
  rw [selEta J]
  exact keepJGOfViewSel _ _ _ _ V

/-- Two records have the same recursive `Keep_J` exactly when they have the same fixed `Keep_J`. -/
theorem keepJGDetermined (J : Part → Bool) (V₀ V₁ : Record) :
    keepJG J (recGraph V₀) = keepJG J (recGraph V₁) ↔ keepJ J V₀ = keepJ J V₁ :=
  ⟨fun h => by rw [← keepJInstance J V₀, ← keepJInstance J V₁, h],
   fun h => by rw [keepJGOfView J V₀, keepJGOfView J V₁, h]⟩

/-- The fixed `Drop_ca` of the four-part record is what the recursive `Drop_ca` of its graph shows. -/
theorem dropCAInstance (V : Record) : caViewOf (dropCAG (recGraph V)) = dropCA V := rfl

/-- The graph a `Drop_ca` view determines. -/
def caGraph (v : PartP × List Nat × List Nat × PartE × PartC) : Graph Val :=
  [⟨0, kindOf Part.P, Val.p v.1, []⟩, ⟨2, kindOf Part.I, Val.lab v.2.2.1, []⟩,
   ⟨3, kindOf Part.I, Val.callLab v.2.1, [2]⟩, ⟨4, kindOf Part.E, Val.e v.2.2.2.1, []⟩,
   ⟨5, kindOf Part.C, Val.c v.2.2.2.2, []⟩]

theorem dropCAGOfView (V : Record) : dropCAG (recGraph V) = caGraph (dropCA V) := rfl

/-! ### Renaming the record's values, and Theorem 4 for the recursive views -/

theorem getPRen (ρ : Perm) (π : Ren) : ∀ (G : Graph Val), getP (renGraph ρ (renVal π) G) = optMap (renP π) (getP G)
  | [] => rfl
  | ⟨_, _, v, _⟩ :: G => by cases v <;> first | rfl | exact getPRen ρ π G

theorem getActRen (ρ : Perm) (π : Ren) : ∀ (G : Graph Val),
    getAct (renGraph ρ (renVal π) G) = optMap (reindex π.call π.act.f) (getAct G)
  | [] => rfl
  | ⟨_, _, v, _⟩ :: G => by cases v <;> first | rfl | exact getActRen ρ π G

theorem getLabRen (ρ : Perm) (π : Ren) : ∀ (G : Graph Val),
    getLab (renGraph ρ (renVal π) G) = optMap (reindex π.act (fun d => d)) (getLab G)
  | [] => rfl
  | ⟨_, _, v, _⟩ :: G => by cases v <;> first | rfl | exact getLabRen ρ π G

theorem getERen (ρ : Perm) (π : Ren) : ∀ (G : Graph Val), getE (renGraph ρ (renVal π) G) = optMap (renE π) (getE G)
  | [] => rfl
  | ⟨_, _, v, _⟩ :: G => by cases v <;> first | rfl | exact getERen ρ π G

theorem getCRen (ρ : Perm) (π : Ren) : ∀ (G : Graph Val), getC (renGraph ρ (renVal π) G) = optMap (renC π) (getC G)
  | [] => rfl
  | ⟨_, _, v, _⟩ :: G => by cases v <;> first | rfl | exact getCRen ρ π G

theorem getIRen (ρ : Perm) (π : Ren) (G : Graph Val) :
    getI (renGraph ρ (renVal π) G) = optMap (renI π) (getI G) := by
  show (match getAct (renGraph ρ (renVal π) G), getLab (renGraph ρ (renVal π) G) with
    | some a, some l => some (PartI.mk a l)
    | _, _ => none) = optMap (renI π) (match getAct G, getLab G with
    | some a, some l => some (PartI.mk a l)
    | _, _ => none)
  rw [getActRen, getLabRen]
  cases getAct G with
  | none => rfl
  | some a => cases getLab G <;> rfl

/-- The view a renamed graph shows is the renamed view. -/
theorem viewOfRen (ρ : Perm) (π : Ren) (G : Graph Val) : viewOf (renGraph ρ (renVal π) G) = renView π (viewOf G) := by
  show View.mk (getP _) (getI _) (getE _) (getC _) = View.mk (optMap _ _) (optMap _ _) (optMap _ _) (optMap _ _)
  rw [getPRen, getIRen, getERen, getCRen]
  rfl

theorem renValId : ∀ (v : Val), renVal Ren.id v = v
  | Val.p x => congrArg Val.p (renPId x)
  | Val.act x => congrArg Val.act (reindexId x)
  | Val.lab x => congrArg Val.lab (reindexId x)
  | Val.callLab x => congrArg Val.callLab (reindexId x)
  | Val.e x => congrArg Val.e (renEId x)
  | Val.c x => congrArg Val.c (renCId x)

theorem renGraphId : ∀ (G : Graph Val), renGraph Perm.id (renVal Ren.id) G = G
  | [] => rfl
  | ⟨n, k, v, ds⟩ :: G => by
    show Fact.mk n k (renVal Ren.id v) (List.map (fun x => x) ds) :: renGraph Perm.id (renVal Ren.id) G =
      Fact.mk n k v ds :: G
    rw [renValId v, mapId ds, renGraphId G]

/-- `π` on the record's graph: its values renamed, the fact names (fixed by `recGraph`) kept. -/
def renG (π : Ren) (G : Graph Val) : Graph Val := renGraph Perm.id (renVal π) G

/-- The record-level renaming, when it fits the record, is a renaming of the record's graph (of
its values): so Lemma 11 for the recursive views covers the four-part record's renamings. -/
theorem recGraphRen {π : Ren} {V : Record} (hf : Fits π V) : recGraph (renRec π V) = renG π (recGraph V) := by
  have hl : labels (renRec π V).i.lab (renRec π V).i.act = reindex π.call (fun d => d) (labels V.i.lab V.i.act) :=
    congrArg (fun t => t.2.1) (dropCARen hf)
  have e : recGraph (renRec π V) =
      ([⟨0, kindOf Part.P, Val.p (renP π V.p), []⟩, ⟨1, ⟨Part.I, Link.callAct⟩, Val.act (reindex π.call π.act.f V.i.act), []⟩,
       ⟨2, kindOf Part.I, Val.lab (reindex π.act (fun d => d) V.i.lab), []⟩,
       ⟨3, kindOf Part.I, Val.callLab (labels (renRec π V).i.lab (renRec π V).i.act), [2]⟩,
       ⟨4, kindOf Part.E, Val.e (renE π V.e), []⟩, ⟨5, kindOf Part.C, Val.c (renC π V.c), []⟩] : Graph Val) := rfl
  rw [e, hl]
  rfl

/-- Lemma 11 for the recursive `Keep_J` and `Drop_ca` of the four-part record, under its own renaming. -/
theorem recViewsRen {π : Ren} {V : Record} (hf : Fits π V) (J : Part → Bool) :
    keepJG J (recGraph (renRec π V)) = renG π (keepJG J (recGraph V)) ∧
    dropCAG (recGraph (renRec π V)) = renG π (dropCAG (recGraph V)) := by
  rw [recGraphRen hf]
  exact ⟨keepJGRen Perm.id (renVal π) J _, dropCAGRen Perm.id (renVal π) _⟩

/-- `π` fits a graph when it fits the view the graph shows. -/
def FitsG (π : Ren) (G : Graph Val) : Prop := FitsView π (viewOf G)

/-- Theorem 4 for the recursive `Keep_J` of the four-part record's graph, up to renaming: exact iff
`J` names all four parts. -/
theorem keepGExactRIff (J : Part → Bool) :
    ExactR renG FitsG (fun V => keepJG J (recGraph V)) ↔ ∀ x, J x = true := by
  constructor
  · intro hE x
    cases hx : J x with
    | true => rfl
    | false =>
      have e : keepJG J (recGraph (pair x).1) = renG Ren.id (keepJG J (recGraph (pair x).2.1)) := by
        show _ = renGraph Perm.id (renVal Ren.id) _
        rw [renGraphId]
        exact (keepJGDetermined J _ _).2 (pairCollapses J x hx)
      exact absurd e (exactRSeparates hE (pairNotIso x) Ren.id (fitsViewId _) (fitsQId _) (renQueryId _).symm)
  · intro hJ V₀ V₁ q₀ q₁ π hfv hfq e eq
    have hv : keepJ J V₀ = renView π (keepJ J V₁) := by
      rw [← keepJInstance J V₀, ← keepJInstance J V₁, ← viewOfRen Perm.id π]
      exact congrArg viewOf e
    have hfv' : FitsView π (keepJ J V₁) := by
      rw [← keepJInstance J V₁]
      exact hfv
    exact (keepExactRIff J).2 hJ V₀ V₁ q₀ q₁ π hfv' hfq hv eq

/-- The recursive `Drop_ca` of the record's graph is inexact up to renaming: the I pair's graphs
have equal `Drop_ca`. -/
theorem dropCAGInexactR : ¬ ExactR renG FitsG (fun V => dropCAG (recGraph V)) := by
  intro hE
  have e : dropCAG (recGraph recI0) = renG Ren.id (dropCAG (recGraph recI1)) := by
    show _ = renGraph Perm.id (renVal Ren.id) _
    rw [renGraphId, dropCAGOfView, dropCAGOfView]
    exact congrArg caGraph (rfl : dropCA recI0 = dropCA recI1)
  exact exactRSeparates hE (pairNotIso Part.I) Ren.id (fitsViewId _) trivial rfl e

end AgentWarrant.Edits
