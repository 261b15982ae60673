import AgentWarrant.Spec.Edits.Record
import AgentWarrant.Thm.Edits.Deletion
/-! The four-part record as a fact graph with one fact per entry, and the fixed `Drop_ra` as the
recursive `Drop_ra` of it (*When Can Agents Safely Checkpoint, Fork, Restore, and Merge?*, Appendix
A-F, Lemma 11; Appendix A-G, the `Drop_ra` pair; Theorem 4).

- `graphOfWellFormed`: a graph named by position whose first fact depends on nothing is acyclic with
  distinct names, so `recordGraph V` is for every record (`recordGraphWellFormed`), and `delChar`
  (the one pass is the order-free recursive deletion) and Lemma 11 (`delRen`) apply to it directly
  (`recordGraphViewsRen`).
- `dropRAInstance`: the fixed `Drop_ra` is what the recursive `Drop_ra` of the record's graph shows.
  The two differ only in how the authorization's label is classified: the recursive view keeps it
  because it is recorded as depending on `ℓ`, not on the action it is computed from
  (`Spec/Edits/Record.lean`).
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

/-! ### When every dependency is kept, deletion removes exactly the omitted kinds -/

theorem keepValsTrue {omit : Kind → Bool} {p : Pre α} (L : List (Pre α)) (h : omit p.kind = true) :
    keepVals omit (p :: L) = keepVals omit L := by
  simp [keepVals, h]

theorem keepValsFalse {omit : Kind → Bool} {p : Pre α} (L : List (Pre α)) (h : omit p.kind = false) :
    keepVals omit (p :: L) = p.val :: keepVals omit L := by
  simp [keepVals, h]

theorem delAuxNumber (omit : Kind → Bool) : ∀ (L : List (Pre α)) (k : Nat) (alive : List Nat) (pk : Bool),
    0 ∈ alive → (pk = true → ∀ j, k = j + 1 → j ∈ alive) → okB omit pk L = true →
    List.map Fact.val (delAux omit alive (nameFrom k L)) = keepVals omit L
  | [], _, _, _, _, _, _ => rfl
  | p :: L, k, alive, pk, h0, hk, hok => by
    have hok' : (refsOk pk p && okB omit (!omit p.kind) L) = true := hok
    have hr : refsOk pk p = true := by
      cases h : refsOk pk p with
      | true => rfl
      | false => rw [h] at hok'; cases hok'
    have hL : okB omit (!omit p.kind) L = true := by
      rw [hr] at hok'
      exact hok'
    have hd : allB (fun d => memN d alive) (List.map (resolveRef k) p.refs) = true := by
      apply allBIntro
      intro d hd
      have ⟨r, hrm, e⟩ := memMap hd
      rw [e]
      apply (memNIff _ alive).2
      have hrr := allBElim hr r hrm
      cases r with
      | first => exact h0
      | prev =>
        have hp : pk = true := hrr
        cases k with
        | zero => exact h0
        | succ j => exact hk hp j rfl
    show List.map Fact.val (match !omit p.kind && allB (fun d => memN d alive) (List.map (resolveRef k) p.refs) with
      | true => Fact.mk k p.kind p.val (List.map (resolveRef k) p.refs) :: delAux omit (k :: alive) (nameFrom (k + 1) L)
      | false => delAux omit alive (nameFrom (k + 1) L)) = keepVals omit (p :: L)
    rw [hd]
    cases ho : omit p.kind with
    | true =>
      rw [keepValsTrue L ho]
      rw [ho] at hL
      exact delAuxNumber omit L (k + 1) alive false h0 (fun h => by cases h) hL
    | false =>
      rw [keepValsFalse L ho]
      rw [ho] at hL
      show p.val :: List.map Fact.val (delAux omit (k :: alive) (nameFrom (k + 1) L)) = p.val :: keepVals omit L
      rw [delAuxNumber omit L (k + 1) (k :: alive) true (Mem.tail _ h0) (fun _ j e => by
        have e' : k = j := Nat.succ.inj e
        rw [e']
        exact Mem.head _) hL]

/-- On a graph named by position whose first fact is kept and depends on nothing, and in which every
dependency is on a kept fact, deletion keeps exactly the facts of the kinds not omitted. -/
theorem delGraphOf (omit : Kind → Bool) (p : Pre α) (L : List (Pre α)) (hp : omit p.kind = false) (hr : p.refs = [])
    (hok : okB omit true L = true) : List.map Fact.val (del omit (graphOf (p :: L))) = keepVals omit (p :: L) := by
  show List.map Fact.val (match !omit p.kind && allB (fun d => memN d []) (List.map (resolveRef 0) p.refs) with
    | true => Fact.mk 0 p.kind p.val (List.map (resolveRef 0) p.refs) :: delAux omit [0] (nameFrom (0 + 1) L)
    | false => delAux omit [] (nameFrom (0 + 1) L)) = keepVals omit (p :: L)
  rw [hr, hp, keepValsFalse L hp]
  show p.val :: List.map Fact.val (delAux omit [0] (nameFrom 1 L)) = p.val :: keepVals omit L
  rw [delAuxNumber omit L 1 [0] true (Mem.head _) (fun _ j e => by
    have e' : 0 = j := Nat.succ.inj e
    rw [← e']
    exact Mem.head _) hok]

theorem keepValsAppend (omit : Kind → Bool) : ∀ (L M : List (Pre α)),
    keepVals omit (L ++ M) = keepVals omit L ++ keepVals omit M
  | [], M => by
    show keepVals omit ([] ++ M) = [] ++ keepVals omit M
    rw [List.nil_append, List.nil_append]
  | p :: L, M => by
    rw [List.cons_append]
    cases ho : omit p.kind with
    | true => rw [keepValsTrue _ ho, keepValsTrue _ ho]; exact keepValsAppend omit L M
    | false => rw [keepValsFalse _ ho, keepValsFalse _ ho, List.cons_append, keepValsAppend omit L M]

/-! ### The fixed `Drop_ra` is an instance -/

theorem okCalls (auths : List AuthRec) : ∀ (act : List Nat) (n : Nat) (b : Bool),
    okB omitRA b (callPres auths n act) = true
  | [], _, _ => rfl
  | _ :: ds, n, _ => okCalls auths ds (n + 1) _

theorem okAuths (lab : List Nat) (T : List (Pre RVal)) (hT : ∀ b, okB omitRA b T = true) :
    ∀ (auths : List AuthRec) (b : Bool), okB omitRA b (authPres lab auths ++ T) = true
  | [], b => by
    show okB omitRA b ([] ++ T) = true
    rw [List.nil_append]
    exact hT b
  | r :: rs, b => by
    show okB omitRA b ((Pre.mk (plainK Part.E) (RVal.auth r.creator) [] ::
      Pre.mk ⟨Part.E, Link.authAct⟩ (RVal.authAct r.action) [Ref.prev] ::
      Pre.mk (plainK Part.E) (RVal.authLab (nth lab r.action)) [Ref.first] :: authPres lab rs) ++ T) = true
    rw [List.cons_append, List.cons_append, List.cons_append]
    exact okAuths lab T hT rs true

theorem readAuthsKeep (lab : List Nat) (Y : List RVal) : ∀ (auths : List AuthRec),
    readAuths (keepVals omitRA (authPres lab auths) ++ Y) =
      List.map (fun r : AuthRec => (r.creator, nth lab r.action)) auths ++ readAuths Y
  | [] => by
    show readAuths ([] ++ Y) = [] ++ readAuths Y
    rw [List.nil_append, List.nil_append]
  | r :: rs => by
    show readAuths ((RVal.auth r.creator :: RVal.authLab (nth lab r.action) :: keepVals omitRA (authPres lab rs)) ++ Y) =
      ((r.creator, nth lab r.action) :: List.map (fun r : AuthRec => (r.creator, nth lab r.action)) rs) ++ readAuths Y
    rw [List.cons_append, List.cons_append, List.cons_append]
    show (r.creator, nth lab r.action) :: readAuths (keepVals omitRA (authPres lab rs) ++ Y) = _
    rw [readAuthsKeep lab Y rs]

theorem readCallsSkip (lab : List Nat) (Y : List RVal) : ∀ (auths : List AuthRec),
    readCalls (keepVals omitRA (authPres lab auths) ++ Y) = readCalls Y
  | [] => by
    show readCalls ([] ++ Y) = _
    rw [List.nil_append]
  | r :: rs => by
    show readCalls ((RVal.auth r.creator :: RVal.authLab (nth lab r.action) :: keepVals omitRA (authPres lab rs)) ++ Y) = _
    rw [List.cons_append, List.cons_append]
    exact readCallsSkip lab Y rs

theorem readCallsKeep (auths : List AuthRec) : ∀ (act : List Nat) (n : Nat),
    readCalls (keepVals omitRA (callPres auths n act)) = maskAct auths n act
  | [], _ => rfl
  | d :: ds, n => by
    show readCalls (RVal.call n :: (match omitRA (entryKind auths n) with
      | true => keepVals omitRA (callPres auths (n + 1) ds)
      | false => RVal.callAct d :: keepVals omitRA (callPres auths (n + 1) ds))) =
      keepOpt (!isCreator auths n) d :: maskAct auths (n + 1) ds
    have ek : omitRA (entryKind auths n) = isCreator auths n := by
      show omitRA (match isCreator auths n with
        | true => ⟨Part.I, Link.creatorAct⟩
        | false => ⟨Part.I, Link.callAct⟩) = isCreator auths n
      cases isCreator auths n <;> rfl
    rw [ek]
    cases isCreator auths n with
    | true =>
      show peekAct (keepVals omitRA (callPres auths (n + 1) ds)) :: readCalls (keepVals omitRA (callPres auths (n + 1) ds)) =
        none :: maskAct auths (n + 1) ds
      rw [readCallsKeep auths ds (n + 1)]
      cases ds <;> rfl
    | false =>
      show some d :: readCalls (keepVals omitRA (callPres auths (n + 1) ds)) = some d :: maskAct auths (n + 1) ds
      rw [readCallsKeep auths ds (n + 1)]

theorem readAuthsCalls (auths : List AuthRec) (n : Nat) : ∀ (act : List Nat),
    readAuths (keepVals omitRA (callPres auths n act)) = []
  | [] => rfl
  | _ :: _ => rfl

/-- The fixed `Drop_ra` of the four-part record is what the recursive `Drop_ra` of its graph shows. -/
theorem dropRAInstance (V : Record) : raViewOf (dropRAG (recordGraph V)) = dropRA V := by
  have hok : okB omitRA true (Pre.mk (plainK Part.P) (RVal.p V.p) [] :: Pre.mk (plainK Part.E) (RVal.policy V.e.policy) [] ::
      Pre.mk (plainK Part.E) (RVal.queued V.e.queued) [] :: Pre.mk (plainK Part.C) (RVal.c V.c) [] ::
      (authPres V.i.lab V.e.auths ++ callPres V.e.auths 0 V.i.act)) = true :=
    okAuths V.i.lab _ (fun b => okCalls V.e.auths V.i.act 0 b) V.e.auths true
  have hv : List.map Fact.val (dropRAG (recordGraph V)) = keepVals omitRA (recordPres V) := delGraphOf omitRA _ _ rfl rfl hok
  show raViewOfVals (List.map Fact.val (dropRAG (recordGraph V))) = dropRA V
  rw [hv]
  show raViewOfVals (RVal.lab V.i.lab :: RVal.p V.p :: RVal.policy V.e.policy :: RVal.queued V.e.queued :: RVal.c V.c ::
    keepVals omitRA (authPres V.i.lab V.e.auths ++ callPres V.e.auths 0 V.i.act)) = dropRA V
  rw [keepValsAppend]
  show (V.p, readCalls (keepVals omitRA (authPres V.i.lab V.e.auths) ++ keepVals omitRA (callPres V.e.auths 0 V.i.act)),
    V.i.lab, readAuths (keepVals omitRA (authPres V.i.lab V.e.auths) ++ keepVals omitRA (callPres V.e.auths 0 V.i.act)),
    V.e.policy, V.e.queued, V.c) = dropRA V
  rw [readCallsSkip, readCallsKeep, readAuthsKeep, readAuthsCalls, List.append_nil]
  rfl

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

theorem renRGId : ∀ (G : Graph RVal), renRG Ren.id G = G
  | [] => rfl
  | ⟨n, k, v, ds⟩ :: G => by
    show Fact.mk n k (renRV Ren.id v) (List.map (fun x => x) ds) :: renRG Ren.id G = Fact.mk n k v ds :: G
    rw [renRVId v, mapId ds, renRGId G]

/-- `π` fits a graph when it fits the `Drop_ra` view the graph shows. -/
def FitsRG (π : Ren) (G : Graph RVal) : Prop := FitsDropRA π (raViewOf G)

/-- The paper's `Drop_ra` pair has the same recursive `Drop_ra` graph: the creator call's entry and
the authorization's action are deleted, and everything left is equal, names included. -/
theorem dropRAGPairCollapses : dropRAG (recordGraph recR0) = dropRAG (recordGraph recR1) := rfl

/-- The recursive `Drop_ra` of the record's graph is inexact up to renaming. -/
theorem dropRAGInexactR : ¬ ExactR renRG FitsRG (fun V => dropRAG (recordGraph V)) := by
  intro hE
  have e : dropRAG (recordGraph recR0) = renRG Ren.id (dropRAG (recordGraph recR1)) := by
    rw [renRGId]
    exact dropRAGPairCollapses
  exact exactRSeparates hE (q₀ := Query.decide) (q₁ := Query.decide) (fun π' => notIsoOfPositive (by decide) π') Ren.id
    ⟨permOnId _, permOnId _, rfl⟩ trivial rfl e

end AgentWarrant.Edits
