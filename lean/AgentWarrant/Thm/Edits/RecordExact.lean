import AgentWarrant.Thm.Edits.Record
import AgentWarrant.Thm.Edits.Reach
import AgentWarrant.Thm.Edits.WellFormed
/-! Theorem 4 with the views the recursive deletions of the record written one fact per entry
(*When Can Agents Safely Checkpoint, Fork, Restore, and Merge?*, Section VII, Appendices A-F and A-G;
the record as a graph in `Spec/Edits/Record.lean`).

The view is `keepJG J (recordGraph V)`, a graph; two views are compared up to renaming by `renRG`
(the record's values renamed, the fact names, fixed by position, kept), and a renaming fits a view
when it fits the `Keep_J` view the graph shows (`FitsRGK`).

- "If" (`keepRGExactROfAll`): keeping all four parts is exact up to renaming, on every record. The
  fixed `Keep_J` is read off the graph (`keepJInstanceR`) and reading commutes with renaming
  (`viewOfRValsRen`), except that a renamed graph keeps its `q_act` entries in place: the graph
  names each call by its position, so two graphs that are renamings of each other have the same
  call names, the call renaming fixes every call of the record (`callIdsKeepJ`), and `q_act`
  reindexed by it is `q_act` itself (`reindexFixed`); then the fixed view's theorem applies.
- "Only if": the recursive `Keep_J` is finer than the fixed one — with E omitted and I kept it
  still shows how many authorization records there are (through the names of the calls' facts)
  and which calls created one (through the kinds of their `q_act` entries) — but it collapses two
  records that agree on the kept parts, have the same authorization records and the same number of
  calls (`keepJGRecordEq`), which Table II's pairs do; so `keepRGExactRIff` over all records and
  `keepRGExactReachIff` over the records of reachable states, by the pairs' opposite answers.
- The recursive `Drop_ca` of the graph is inexact up to renaming (`dropCAGRInexactR`): the I pair's
  graphs are equal after it (`dropCAGRPairCollapses`). -/
namespace AgentWarrant.Edits
open AgentWarrant

/-! ### Two records with the same kept facts have the same recursive `Keep_J` -/

theorem keptPart {J : Part → Bool} {f0 pk : Bool} {p : Pre α} (h : keptPre (omitJ J) f0 pk p = true) :
    J p.kind.part = true := by
  have e : keptPre (omitJ J) f0 pk p = (J p.kind.part && refsKept f0 pk p) := by
    show (!(!J p.kind.part) && refsKept f0 pk p) = _
    cases J p.kind.part <;> rfl
  rw [e] at h
  cases hj : J p.kind.part with
  | true => rfl
  | false => rw [hj] at h; exact falseNeTrue h

theorem keptFirst {omit : Kind → Bool} {f0 pk : Bool} {k : Kind} {v : α}
    (h : keptPre omit f0 pk (Pre.mk k v [Ref.first]) = true) : f0 = true := by
  cases f0 with
  | true => rfl
  | false =>
    have e : keptPre omit false pk (Pre.mk k v [Ref.first]) = false := by
      show (!omit k && false) = false
      cases omit k <;> rfl
    rw [e] at h
    exact falseNeTrue h

theorem lenTail {a b : α} {l m : List α} (h : List.length (a :: l) = List.length (b :: m)) :
    List.length l = List.length m := by
  rw [List.length_cons, List.length_cons] at h
  exact Nat.succ.inj h

theorem agreeCalls (J : Part → Bool) (f0 : Bool) (auths : List AuthRec) (lab₀ lab₁ : List Nat)
    (hlab : J Part.I = true → lab₀ = lab₁) : ∀ (act₀ act₁ : List Nat) (n : Nat) (pk : Bool),
    List.length act₀ = List.length act₁ → (J Part.I = true → act₀ = act₁) →
    AgreeK (omitJ J) f0 pk (callPres auths lab₀ n act₀) (callPres auths lab₁ n act₁)
  | [], [], _, _, _, _ => trivial
  | [], e :: es, _, _, hl, _ => by
    rw [List.length_cons] at hl
    have h0 : (0 : Nat) = Nat.succ (List.length es) := hl
    exact Nat.noConfusion h0
  | d :: ds, [], _, _, hl, _ => by
    rw [List.length_cons] at hl
    have h0 : Nat.succ (List.length ds) = 0 := hl
    exact Nat.noConfusion h0
  | d :: ds, e :: es, n, pk, hl, ha =>
    agreeCons rfl rfl (fun _ => rfl) (agreeCons rfl rfl (fun h => by
        have h' : J (entryKind auths n).part = true := keptPart h
        rw [entryKindPart] at h'
        exact congrArg RVal.callAct (List.cons.inj (ha h')).1)
      (agreeCons rfl rfl (fun h => by
          have h' : J Part.I = true := keptPart h
          show RVal.callLab (nth lab₀ d) = RVal.callLab (nth lab₁ e)
          rw [hlab h', (List.cons.inj (ha h')).1])
        (agreeCalls J f0 auths lab₀ lab₁ hlab ds es (n + 1) _ (lenTail hl) (fun h => (List.cons.inj (ha h)).2))))

theorem agreeAuths (J : Part → Bool) (f0 : Bool) (lab₀ lab₁ : List Nat) (T₀ T₁ : List (Pre RVal))
    (hT : ∀ pk, AgreeK (omitJ J) f0 pk T₀ T₁)
    (hlab : ∀ (pk : Bool) (v : RVal), keptPre (omitJ J) f0 pk (Pre.mk (plainK Part.E) v [Ref.first]) = true → lab₀ = lab₁) :
    ∀ (auths : List AuthRec) (pk : Bool), AgreeK (omitJ J) f0 pk (authPres lab₀ auths T₀) (authPres lab₁ auths T₁)
  | [], pk => hT pk
  | r :: rs, pk =>
    agreeCons rfl rfl (fun _ => rfl) (agreeCons rfl rfl (fun _ => rfl) (agreeCons rfl rfl (fun h => by
        show RVal.authLab (nth lab₀ r.action) = RVal.authLab (nth lab₁ r.action)
        rw [hlab _ _ h])
      (agreeAuths J f0 lab₀ lab₁ T₀ T₁ hT hlab rs _)))

/-- Two records that agree on the kept parts, with the same authorization records and as many
calls, have the same recursive `Keep_J` graph, names included. -/
theorem keepJGRecordEq (J : Part → Bool) (V₀ V₁ : Record) (hp : J Part.P = true → V₀.p = V₁.p)
    (hi : J Part.I = true → V₀.i = V₁.i) (he : J Part.E = true → V₀.e = V₁.e) (hc : J Part.C = true → V₀.c = V₁.c)
    (ha : V₀.e.auths = V₁.e.auths) (hl : List.length V₀.i.act = List.length V₁.i.act) :
    keepJG J (recordGraph V₀) = keepJG J (recordGraph V₁) := by
  have hA : AgreeK (omitJ J) (!omitJ J (plainK Part.I)) (!omitJ J (plainK Part.I))
      (Pre.mk (plainK Part.P) (RVal.p V₀.p) [] :: Pre.mk (plainK Part.E) (RVal.policy V₀.e.policy) [] ::
        Pre.mk (plainK Part.E) (RVal.queued V₀.e.queued) [] :: Pre.mk (plainK Part.C) (RVal.c V₀.c) [] ::
        authPres V₀.i.lab V₀.e.auths (callPres V₀.e.auths V₀.i.lab 0 V₀.i.act))
      (Pre.mk (plainK Part.P) (RVal.p V₁.p) [] :: Pre.mk (plainK Part.E) (RVal.policy V₁.e.policy) [] ::
        Pre.mk (plainK Part.E) (RVal.queued V₁.e.queued) [] :: Pre.mk (plainK Part.C) (RVal.c V₁.c) [] ::
        authPres V₁.i.lab V₁.e.auths (callPres V₁.e.auths V₁.i.lab 0 V₁.i.act)) := by
    rw [notOmitJ, ha]
    exact agreeCons rfl rfl (fun h => congrArg RVal.p (hp (keptPart h)))
      (agreeCons rfl rfl (fun h => congrArg RVal.policy (congrArg PartE.policy (he (keptPart h))))
      (agreeCons rfl rfl (fun h => congrArg RVal.queued (congrArg PartE.queued (he (keptPart h))))
      (agreeCons rfl rfl (fun h => congrArg RVal.c (hc (keptPart h)))
      (agreeAuths J (J Part.I) V₀.i.lab V₁.i.lab _ _
        (fun pk => agreeCalls J (J Part.I) V₁.e.auths V₀.i.lab V₁.i.lab (fun h => congrArg PartI.lab (hi h))
          V₀.i.act V₁.i.act 0 pk hl (fun h => congrArg PartI.act (hi h)))
        (fun _ _ h => congrArg PartI.lab (hi (keptFirst h))) V₁.e.auths _))))
  show del (omitJ J) (graphOf (Pre.mk (plainK Part.I) (RVal.lab V₀.i.lab) [] :: _)) =
    del (omitJ J) (graphOf (Pre.mk (plainK Part.I) (RVal.lab V₁.i.lab) [] :: _))
  rw [delGraphOfPres, delGraphOfPres, keepPresCongr _ _ _ _ 1 _ hA]
  cases hI : (!omitJ J (plainK Part.I)) with
  | false => rfl
  | true =>
    have h' : J Part.I = true := by rw [← notOmitJ J Part.I]; exact hI
    rw [hi h']

/-! ### Reading the view off a renamed graph -/

theorem valsRenRG (π : Ren) : ∀ (G : Graph RVal), List.map Fact.val (renRG π G) = List.map (renRV π) (List.map Fact.val G)
  | [] => rfl
  | f :: G => by
    show renRV π f.val :: List.map Fact.val (renRG π G) = renRV π f.val :: List.map (renRV π) (List.map Fact.val G)
    rw [valsRenRG π G]

theorem firstSomeRen {s : RVal → Option β} {h : β → β} (π : Ren) (hs : ∀ v, s (renRV π v) = optMap h (s v)) :
    ∀ (vs : List RVal), firstSome s (List.map (renRV π) vs) = optMap h (firstSome s vs)
  | [] => rfl
  | v :: vs => by
    show (match s (renRV π v) with
      | some x => some x
      | none => firstSome s (List.map (renRV π) vs)) = optMap h (match s v with
      | some x => some x
      | none => firstSome s vs)
    rw [hs v]
    cases s v with
    | none => exact firstSomeRen π hs vs
    | some x => rfl

theorem readActsRen (π : Ren) : ∀ (vs : List RVal), readActs (List.map (renRV π) vs) = List.map π.act.f (readActs vs)
  | [] => rfl
  | v :: vs => by
    cases v <;> first | exact congrArg (List.cons _) (readActsRen π vs) | exact readActsRen π vs

theorem readCallIdsRen (π : Ren) : ∀ (vs : List RVal), readCallIds (List.map (renRV π) vs) = List.map π.call.f (readCallIds vs)
  | [] => rfl
  | v :: vs => by
    cases v <;> first | exact congrArg (List.cons _) (readCallIdsRen π vs) | exact readCallIdsRen π vs

theorem peekRen (π : Ren) (h0 : π.act.f 0 = 0) : ∀ (vs : List RVal), peekAuthAct (List.map (renRV π) vs) = π.act.f (peekAuthAct vs)
  | [] => h0.symm
  | v :: vs => by cases v <;> first | rfl | exact h0.symm

theorem readAuthRecsRen (π : Ren) (h0 : π.act.f 0 = 0) :
    ∀ (vs : List RVal), readAuthRecs (List.map (renRV π) vs) = List.map (renAuth π) (readAuthRecs vs)
  | [] => rfl
  | v :: vs => by
    cases v
    case auth cr =>
      show AuthRec.mk (π.call.f cr) (peekAuthAct (List.map (renRV π) vs)) :: readAuthRecs (List.map (renRV π) vs) =
        AuthRec.mk (π.call.f cr) (π.act.f (peekAuthAct vs)) :: List.map (renAuth π) (readAuthRecs vs)
      rw [peekRen π h0 vs, readAuthRecsRen π h0 vs]
    allGoals exact readAuthRecsRen π h0 vs

/-- `π` on a view, with `q_act` renamed in place (not reindexed by the call renaming). -/
def renViewPos (π : Ren) (v : View) : View :=
  ⟨optMap (renP π) v.p, optMap (fun i => ⟨List.map π.act.f i.act, reindex π.act (fun d => d) i.lab⟩) v.i,
   optMap (renE π) v.e, optMap (renC π) v.c⟩

theorem viewOfRValsRen (π : Ren) (h0 : π.act.f 0 = 0) (vs : List RVal) :
    viewOfRVals (List.map (renRV π) vs) = renViewPos π (viewOfRVals vs) := by
  rw [viewOfRValsEq, viewOfRValsEq,
    firstSomeRen (s := selP) (h := renP π) π (fun v => by cases v <;> rfl),
    firstSomeRen (s := selLab) (h := reindex π.act (fun d => d)) π (fun v => by cases v <;> rfl),
    firstSomeRen (s := selPolicy) (h := fun y => y) π (fun v => by cases v <;> rfl),
    firstSomeRen (s := selQueued) (h := List.map π.act.f) π (fun v => by cases v <;> rfl),
    firstSomeRen (s := selC) (h := renC π) π (fun v => by cases v <;> rfl),
    readActsRen, readAuthRecsRen π h0]
  cases firstSome selLab vs <;> cases firstSome selPolicy vs <;> cases firstSome selQueued vs <;> rfl

theorem renViewPosKeep (π : Ren) (J : Part → Bool) (V : Record)
    (h : J Part.I = true → List.map π.act.f V.i.act = reindex π.call π.act.f V.i.act) :
    renViewPos π (keepJ J V) = renView π (keepJ J V) := by
  show View.mk _ (optMap (fun i => PartI.mk (List.map π.act.f i.act) (reindex π.act (fun d => d) i.lab)) (keepOpt (J Part.I) V.i)) _ _ =
    View.mk _ (optMap (renI π) (keepOpt (J Part.I) V.i)) _ _
  cases hI : J Part.I with
  | false => rfl
  | true =>
    show View.mk _ (some (PartI.mk (List.map π.act.f V.i.act) _)) _ _ = View.mk _ (some (PartI.mk (reindex π.call π.act.f V.i.act) _)) _ _
    rw [h hI]

/-! ### The calls of the record, read off its graph -/

theorem readCallIdsKept (omit : Kind → Bool) (hI : omit (plainK Part.I) = false) (auths : List AuthRec) (lab : List Nat) :
    ∀ (act : List Nat) (n : Nat) (pk : Bool), readCallIds (keepValsP omit true pk (callPres auths lab n act)) = upto n (List.length act)
  | [], _, _ => rfl
  | d :: ds, n, pk => by
    have k1 : keptPre omit true pk (Pre.mk (plainK Part.I) (RVal.call n) []) = true := keptOf hI rfl
    have e : ∀ (b2 b3 : Bool) (X : List RVal), readCallIds (consIf true (RVal.call n)
        (consIf b2 (RVal.callAct d) (consIf b3 (RVal.callLab (nth lab d)) X))) = n :: readCallIds X := by
      intro b2 b3 X
      cases b2 <;> cases b3 <;> rfl
    rw [List.length_cons]
    show readCallIds (keepValsP omit true pk (Pre.mk (plainK Part.I) (RVal.call n) [] ::
      Pre.mk (entryKind auths n) (RVal.callAct d) [Ref.prev] ::
      Pre.mk (plainK Part.I) (RVal.callLab (nth lab d)) [Ref.first] :: callPres auths lab (n + 1) ds)) =
      n :: upto (n + 1) (List.length ds)
    rw [kvCons _ k1, kvConsSelf, kvConsSelf, e, readCallIdsKept omit hI auths lab ds (n + 1) _]

/-- With I kept, the graph's calls are `0, 1, …` in order, one per `q_act` entry. -/
theorem callIdsKeepJ (J : Part → Bool) (V : Record) (hI : J Part.I = true) :
    readCallIds (List.map Fact.val (keepJG J (recordGraph V))) = upto 0 (List.length V.i.act) := by
  have hT := kvCallsPk (omitJ J) (J Part.I) V.e.auths V.i.lab 0 V.i.act
  have hh : ∀ (bI bP bE bC : Bool) (T : List RVal), readCallIds (hdr bI bP bE bC V T) = readCallIds T := by
    intro bI bP bE bC T
    cases bI <;> cases bP <;> cases bE <;> cases bC <;> rfl
  rw [keepJVals, hh, skipAuths readCallIds (fun b1 b2 b3 _ _ _ _ => by cases b1 <;> cases b2 <;> cases b3 <;> rfl) _ _ _ _ hT, hI]
  exact readCallIdsKept (omitJ J) (omitJFalse hI _ rfl) _ _ _ _ _

theorem lengthUpto : ∀ (k n : Nat), List.length (upto k n) = n
  | _, 0 => rfl
  | k, n + 1 => by
    show List.length (k :: upto (k + 1) n) = n + 1
    rw [List.length_cons, lengthUpto (k + 1) n] <;> rfl

theorem mapFixed (f : Nat → Nat) : ∀ (l : List Nat), List.map f l = l → ∀ x, x ∈ l → f x = x
  | [], _, _, h => absurd h notMemNil
  | a :: l, e, x, h => by
    have ⟨e1, e2⟩ := List.cons.inj e
    cases memCons h with
    | inl ex => rw [ex]; exact e1
    | inr hx => exact mapFixed f l e2 x hx

/-- A map indexed by calls, reindexed by a call renaming that fixes every index, is unchanged
(up to its values). -/
theorem reindexFixed (p : Perm) (h : Nat → Nat) (m : List Nat) (hp : ∀ j, j ∈ upto 0 (List.length m) → p.f j = j) :
    reindex p h m = List.map h m := by
  have r : List.map (fun j => nth m j) (upto 0 (List.length m)) = m := reindexId m
  show List.map (fun j => h (nth m (p.g j))) (upto 0 (List.length m)) = _
  rw [mapCongrMem (f := fun j => h (nth m (p.g j))) (g := fun j => h (nth m j)) (fun j hj => by
    show h (nth m (p.g j)) = h (nth m j)
    have e := p.gf j
    rw [hp j hj] at e
    rw [e]), ← mapMap (fun j => nth m j) h, r]

/-! ### Theorem 4 over the record's graph -/

/-- `π` fits a graph when it fits the `Keep_J` view the graph shows. -/
def FitsRGK (π : Ren) (G : Graph RVal) : Prop := FitsView π (viewOfRG G)

/-- The "if" half: keeping all four parts of the record's graph is exact up to renaming. -/
theorem keepRGExactROfAll (J : Part → Bool) (hJ : ∀ x, J x = true) :
    ExactR renRG FitsRGK (fun V => keepJG J (recordGraph V)) := by
  intro V₀ V₁ q₀ q₁ π hf hq e eq
  have hfv : FitsView π (keepJ J V₁) := by
    rw [← keepJInstanceR J V₁]
    exact hf
  have hI1 : (keepJ J V₁).i = some V₁.i := by simp only [keepJ, hJ]; rfl
  have h0 : π.act.f 0 = 0 := (fitsViewOf hI1 hfv).2.2
  have e' : keepJG J (recordGraph V₀) = renRG π (keepJG J (recordGraph V₁)) := e
  have r0 : viewOfRVals (List.map Fact.val (keepJG J (recordGraph V₀))) = keepJ J V₀ := keepJInstanceR J V₀
  have r1 : viewOfRVals (List.map Fact.val (keepJG J (recordGraph V₁))) = keepJ J V₁ := keepJInstanceR J V₁
  have e1 : keepJ J V₀ = renViewPos π (keepJ J V₁) := by
    rw [← r0, ← r1, e', valsRenRG, viewOfRValsRen π h0]
  have c2 : readCallIds (List.map Fact.val (keepJG J (recordGraph V₀))) =
      List.map π.call.f (readCallIds (List.map Fact.val (keepJG J (recordGraph V₁)))) := by
    rw [e', valsRenRG, readCallIdsRen]
  rw [callIdsKeepJ J V₀ (hJ Part.I), callIdsKeepJ J V₁ (hJ Part.I)] at c2
  have hn : List.length V₀.i.act = List.length V₁.i.act := by
    have l := congrArg List.length c2
    rw [lengthMap, lengthUpto, lengthUpto] at l
    exact l
  rw [hn] at c2
  have hv : keepJ J V₀ = renView π (keepJ J V₁) := by
    rw [e1]
    exact renViewPosKeep π J V₁ (fun _ => (reindexFixed π.call π.act.f V₁.i.act (mapFixed π.call.f _ c2.symm)).symm)
  exact (keepExactRIff J).2 hJ V₀ V₁ q₀ q₁ π hfv hq hv eq

/-- Theorem 4 for the recursive `Keep_J` of the record written one fact per entry, up to renaming:
exact iff `J` names all four parts. -/
theorem keepRGExactRIff (J : Part → Bool) :
    ExactR renRG FitsRGK (fun V => keepJG J (recordGraph V)) ↔ ∀ x, J x = true := by
  constructor
  · intro hE x
    cases hx : J x with
    | true => rfl
    | false =>
      have e : keepJG J (recordGraph (pair x).1) = renRG Ren.id (keepJG J (recordGraph (pair x).2.1)) := by
        rw [renRGId]
        cases x with
        | P => exact keepJGRecordEq J _ _ (notKept hx) (fun _ => rfl) (fun _ => rfl) (fun _ => rfl) rfl rfl
        | I => exact keepJGRecordEq J _ _ (fun _ => rfl) (notKept hx) (fun _ => rfl) (fun _ => rfl) rfl rfl
        | E => exact keepJGRecordEq J _ _ (fun _ => rfl) (fun _ => rfl) (notKept hx) (fun _ => rfl) rfl rfl
        | C => exact keepJGRecordEq J _ _ (fun _ => rfl) (fun _ => rfl) (fun _ => rfl) (notKept hx) rfl rfl
      exact absurd e (exactRSeparates hE (pairNotIso x) Ren.id (fitsViewId _) (fitsQId _) (renQueryId _).symm)
  · exact keepRGExactROfAll J

/-- `π` fits a graph when it fits the `Drop_ca` view the graph shows. -/
def FitsRGCA (π : Ren) (G : Graph RVal) : Prop := FitsDropCA π (caViewOfRG G)

/-- The I pair has the same recursive `Drop_ca` graph: the `q_act` entries go, and each call's label
is the same. -/
theorem dropCAGRPairCollapses : dropCAG (recordGraph recI0) = dropCAG (recordGraph recI1) := by
  have hA : AgreeK omitCA (!omitCA (plainK Part.I)) (!omitCA (plainK Part.I))
      (tailL (recordPres recI0)) (tailL (recordPres recI1)) :=
    agreeCons rfl rfl (fun _ => rfl) (agreeCons rfl rfl (fun _ => rfl) (agreeCons rfl rfl (fun _ => rfl)
    (agreeCons rfl rfl (fun _ => rfl)
    (agreeCons rfl rfl (fun _ => rfl) (agreeCons rfl rfl (fun h => falseNeTrue h) (agreeCons rfl rfl (fun _ => rfl)
    (agreeCons rfl rfl (fun _ => rfl) (agreeCons rfl rfl (fun h => falseNeTrue h) (agreeCons rfl rfl (fun _ => rfl)
    (agreeCons rfl rfl (fun _ => rfl) (agreeCons rfl rfl (fun h => falseNeTrue h) (agreeCons rfl rfl (fun _ => rfl)
      trivial))))))))))))
  show del omitCA (graphOf (Pre.mk (plainK Part.I) (RVal.lab recI0.i.lab) [] :: tailL (recordPres recI0))) =
    del omitCA (graphOf (Pre.mk (plainK Part.I) (RVal.lab recI1.i.lab) [] :: tailL (recordPres recI1)))
  rw [delGraphOfPres, delGraphOfPres, keepPresCongr _ _ _ _ 1 _ hA] <;> rfl

/-- The recursive `Drop_ca` of the record's graph is inexact up to renaming. -/
theorem dropCAGRInexactR : ¬ ExactR renRG FitsRGCA (fun V => dropCAG (recordGraph V)) := by
  intro hE
  have e : dropCAG (recordGraph recI0) = renRG Ren.id (dropCAG (recordGraph recI1)) := by
    rw [renRGId]
    exact dropCAGRPairCollapses
  exact exactRSeparates hE (pairNotIso Part.I) Ren.id ⟨permOnId _, permOnId _, rfl⟩ trivial rfl e

end AgentWarrant.Edits

namespace AgentWarrant.Edits.Reach
open AgentWarrant AgentWarrant.Edits

theorem rpairAuths (x : Part) : (rpair x).1.e.auths = (rpair x).2.1.e.auths := by
  cases x with
  | P => show List.map authRecOf [] = List.map authRecOf []; rfl
  | I => show List.map authRecOf [] = List.map authRecOf []; rfl
  | E => show List.map authRecOf lE0 = List.map authRecOf lE1; rfl
  | C => show List.map authRecOf lE0 = List.map authRecOf lE0; rfl

theorem rpairActLen (x : Part) : List.length (rpair x).1.i.act = List.length (rpair x).2.1.i.act := by
  cases x with
  | P => rw [rpairPi]
  | I => show List.length [0, 0, 0] = List.length [0, 1, 1]; rfl
  | E => rw [rpairEi]
  | C => rw [rpairCi]

/-- Theorem 4 over the runtime's reachable states with the views the recursive `Keep_J` of the
record written one fact per entry: exact up to renaming iff `J` names all four parts. -/
theorem keepRGExactReachIff (J : Part → Bool) :
    ExactROn (ReachRec der0 root0) (ReachQ der0 root0) renRG FitsRGK (fun V => keepJG J (recordGraph V)) ↔
      ∀ x, J x = true := by
  constructor
  · intro hE x
    cases hx : J x with
    | true => rfl
    | false =>
      have e : keepJG J (recordGraph (rpair x).1) = renRG Ren.id (keepJG J (recordGraph (rpair x).2.1)) := by
        rw [renRGId]
        have ha := rpairAuths x
        have hl := rpairActLen x
        cases x with
        | P => exact keepJGRecordEq J _ _ (notKept hx) (fun _ => rpairPi) (fun _ => rpairPe) (fun _ => rpairPc) ha hl
        | I => exact keepJGRecordEq J _ _ (fun _ => rpairIp) (notKept hx) (fun _ => rpairIe) (fun _ => rpairIc) ha hl
        | E => exact keepJGRecordEq J _ _ (fun _ => rpairEp) (fun _ => rpairEi) (notKept hx) (fun _ => rpairEc) ha hl
        | C => exact keepJGRecordEq J _ _ (fun _ => rpairCp) (fun _ => rpairCi) (fun _ => rpairCe) (notKept hx) ha hl
      have ⟨r₀, r₁, s⟩ := pairsReachable x
      exact absurd e (exactROnSeparates hE r₀ r₁ s s (rpairNotIso x) Ren.id (fitsViewId _) (fitsQId _)
        (renQueryId _).symm)
  · exact fun hJ => exactROnOf (keepRGExactROfAll J hJ)

end AgentWarrant.Edits.Reach
