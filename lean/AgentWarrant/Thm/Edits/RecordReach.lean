import AgentWarrant.Thm.Edits.RecordExact
/-! The recursive `Drop_ca` and `Drop_ra` of the record written one fact per entry, over the
runtime's reachable states (*When Can Agents Safely Checkpoint, Fork, Restore, and Merge?*,
Section VII, Appendices A-F and A-G; the record as a graph in `Spec/Edits/Record.lean`, the
reachable pairs in `Thm/Edits/Reach.lean`).

Both views are inexact up to renaming (`renRG`) on the records of states reached from the common
initial state, with the requests an Agent holds there:

- `Drop_ca` (`dropCAGRInexactReach`): the reachable I pair (`rpair Part.I`, `q_act = [0,0,0]` /
  `[0,1,1]` at the initial state) has the same graph after it: the `q_act` entries go, and every
  call's label, `ℓ`, P, E and C agree.
- `Drop_ra` (`dropRAGRInexactReach`): the reachable `Drop_ra` pair of `Reach.extraPairsReachable`
  (root re-installed as version 1 with `q_act(0) = 0` / `1`, then call 0's `new` and Dispatch) has
  the same graph after it. Both records have one authorization record with the same creator (call 0:
  a `Machine.Auth` is action first, then call); they differ only in that record's action and in the
  creator call's `q_act` entry, which are exactly the facts `Drop_ra` deletes, and the
  authorization's and each call's label agree.

Lemma 11's renaming on this graph (`recordRenNotGraphRen`): the record's renaming `renRec`, which
reorders `q_act` by the call renaming, is in general not a renaming of `recordGraph` in the sense of
`renGraph` (a bijection of fact names and a map of values, each fact keeping its kind and its place in
the list). The graph names facts by position and lists the calls in order, so moving a call moves its
three facts; exchanging calls 0 and 1 of a record where only call 0 created an authorization record
fits the record, and no `renGraph` carries the record's graph to the renamed record's graph, since the
creator kind of call 0's `q_act` entry would have to move to the second call's place. The renamed
record's graph has the renamed facts in another order (the call blocks permuted); that is not proved.
When the call renaming fixes every call of the record (any fitting renaming of actions, rule versions
and results), the renamed record's graph is the record's graph with its values renamed by `renRG`,
names, kinds and order kept (`recordGraphRenFixed`): `q_act` reindexed by calls that stay is `q_act`
with its actions renamed (`reindexFixed`), each label is read at the renamed action of the renamed
`ℓ` (`reindexNth`), and a call creates an authorization in the renamed record exactly when it did
(`isCreatorRen`).

Each collapse is proved as `dropRAGPairCollapses` is: the two lists of facts have the same kinds
and dependencies and equal values wherever a fact is kept (`keepPresCongr`); the values are
compared on the two records evaluated to literals (`rpairI0Lit`, `raPair0Lit`, ...). -/
namespace AgentWarrant.Edits
open AgentWarrant

/-! ### The record's renaming is not a renaming of its graph -/

/-- A renaming of fact names and values keeps each fact's kind in place. -/
theorem kindsRenGraph (ρ : Perm) (r : α → α) : ∀ (G : Graph α), List.map Fact.kind (renGraph ρ r G) = List.map Fact.kind G
  | [] => rfl
  | f :: G => congrArg (List.cons f.kind) (kindsRenGraph ρ r G)

/-- Call 0 creates the one authorization record; call 1 does not. -/
def recSw : Record := ⟨⟨[]⟩, ⟨[0, 1], [0, 0]⟩, ⟨[⟨0, 0⟩], [], []⟩, ⟨0⟩⟩

/-- Exchange calls 0 and 1, keep everything else. -/
def callSwap : Ren := ⟨⟨swap01, swap01, swap01Inv, swap01Inv⟩, Perm.id, Perm.id, Perm.id⟩

theorem swap01On : PermOn ⟨swap01, swap01, swap01Inv, swap01Inv⟩ 2 :=
  let h : ∀ x, x < 2 → swap01 x < 2 := fun x hx => match x, hx with
    | 0, _ => Nat.leRefl 2
    | 1, _ => Nat.leStep (Nat.leRefl 1)
    | n + 2, hn => absurd (Nat.leOfSuccLeSucc (Nat.leOfSuccLeSucc hn)) (Nat.notSuccLeZero n)
  ⟨h, h⟩

theorem callSwapFits : Fits callSwap recSw := ⟨swap01On, permOnId _, rfl⟩

/-- The record's renaming is not a renaming of its graph: exchanging calls 0 and 1 fits the record,
but no bijection of fact names and map of values carries `recordGraph recSw` to the graph of the
renamed record, because such a renaming keeps each fact's kind at its place in the list, while the
renamed record's graph lists the creator call's `q_act` entry (creator kind) second, not first. -/
theorem recordRenNotGraphRen : Fits callSwap recSw ∧
    ∀ (ρ : Perm) (r : RVal → RVal), recordGraph (renRec callSwap recSw) ≠ renGraph ρ r (recordGraph recSw) := by
  refine ⟨callSwapFits, fun ρ r e => ?_⟩
  have k := congrArg (List.map Fact.kind) e
  rw [kindsRenGraph] at k
  exact absurd k (by decide)

/-! ### When the calls stay, the record's renaming is the renaming of its graph's values -/

/-- A fact before it is named, with its value renamed. -/
def renPre (r : α → α) (p : Pre α) : Pre α := ⟨p.kind, r p.val, p.refs⟩

theorem nameFromRen (r : α → α) : ∀ (L : List (Pre α)) (k : Nat),
    nameFrom k (List.map (renPre r) L) = renGraph Perm.id r (nameFrom k L)
  | [], _ => rfl
  | p :: L, k => by
    show Fact.mk k p.kind (r p.val) (List.map (resolveRef k) p.refs) :: nameFrom (k + 1) (List.map (renPre r) L) =
      Fact.mk k p.kind (r p.val) (List.map (fun x => x) (List.map (resolveRef k) p.refs)) :: renGraph Perm.id r (nameFrom (k + 1) L)
    rw [mapId, nameFromRen r L (k + 1)]

theorem authPresRen (π : Ren) (lab lab' : List Nat) (hlab : ∀ a, nth lab' (π.act.f a) = nth lab a)
    (T T' : List (Pre RVal)) (hT : T' = List.map (renPre (renRV π)) T) : ∀ (auths : List AuthRec),
    authPres lab' (List.map (renAuth π) auths) T' = List.map (renPre (renRV π)) (authPres lab auths T)
  | [] => hT
  | a :: auths => by
    show Pre.mk _ (RVal.auth (π.call.f a.creator)) [] :: Pre.mk _ (RVal.authAct (π.act.f a.action)) [Ref.prev] ::
      Pre.mk _ (RVal.authLab (nth lab' (π.act.f a.action))) [Ref.first] :: authPres lab' (List.map (renAuth π) auths) T' =
      Pre.mk _ (RVal.auth (π.call.f a.creator)) [] :: Pre.mk _ (RVal.authAct (π.act.f a.action)) [Ref.prev] ::
      Pre.mk _ (RVal.authLab (nth lab a.action)) [Ref.first] :: List.map (renPre (renRV π)) (authPres lab auths T)
    rw [hlab, authPresRen π lab lab' hlab T T' hT auths]

theorem callPresRen (π : Ren) (auths : List AuthRec) (lab lab' : List Nat) (hlab : ∀ a, nth lab' (π.act.f a) = nth lab a) :
    ∀ (act : List Nat) (n : Nat), (∀ j, j ∈ upto n (List.length act) → π.call.f j = j) →
    callPres (List.map (renAuth π) auths) lab' n (List.map π.act.f act) = List.map (renPre (renRV π)) (callPres auths lab n act)
  | [], _, _ => rfl
  | d :: ds, n, hc => by
    rw [List.length_cons] at hc
    have hn : π.call.f n = n := hc n (by show n ∈ n :: upto (n + 1) (List.length ds); exact Mem.head _)
    have hg : π.call.g n = n := by
      have e := π.call.gf n
      rw [hn] at e
      exact e
    have hk : entryKind (List.map (renAuth π) auths) n = entryKind auths n := by
      show (match isCreator (List.map (renAuth π) auths) n with
        | true => Kind.mk Part.I Link.creatorAct
        | false => Kind.mk Part.I Link.callAct) = (match isCreator auths n with
        | true => Kind.mk Part.I Link.creatorAct
        | false => Kind.mk Part.I Link.callAct)
      rw [isCreatorRen, hg]
    show Pre.mk (plainK Part.I) (RVal.call n) [] :: Pre.mk (entryKind (List.map (renAuth π) auths) n) (RVal.callAct (π.act.f d)) [Ref.prev] ::
      Pre.mk (plainK Part.I) (RVal.callLab (nth lab' (π.act.f d))) [Ref.first] ::
        callPres (List.map (renAuth π) auths) lab' (n + 1) (List.map π.act.f ds) =
      Pre.mk (plainK Part.I) (RVal.call (π.call.f n)) [] :: Pre.mk (entryKind auths n) (RVal.callAct (π.act.f d)) [Ref.prev] ::
      Pre.mk (plainK Part.I) (RVal.callLab (nth lab d)) [Ref.first] :: List.map (renPre (renRV π)) (callPres auths lab (n + 1) ds)
    rw [hn, hk, hlab, callPresRen π auths lab lab' hlab ds (n + 1) (fun j hj => hc j (by show j ∈ n :: upto (n + 1) (List.length ds); exact Mem.tail _ hj))]

/-- When the renaming fixes every call of the record, the record's renaming is the renaming of its
graph's values (`renRG`), names, kinds and order kept. -/
theorem recordGraphRenFixed (π : Ren) (V : Record) (hf : Fits π V)
    (hc : ∀ j, j ∈ upto 0 (List.length V.i.act) → π.call.f j = j) :
    recordGraph (renRec π V) = renRG π (recordGraph V) := by
  have hlab : ∀ a, nth (reindex π.act (fun d => d) V.i.lab) (π.act.f a) = nth V.i.lab a :=
    reindexNth π.act (fun d => d) rfl V.i.lab hf.2.1
  have hact : reindex π.call π.act.f V.i.act = List.map π.act.f V.i.act := reindexFixed π.call π.act.f V.i.act hc
  have hp : recordPres (renRec π V) = List.map (renPre (renRV π)) (recordPres V) := by
    show Pre.mk _ _ [] :: Pre.mk _ _ [] :: Pre.mk _ _ [] :: Pre.mk _ _ [] :: Pre.mk _ _ [] ::
      authPres (reindex π.act (fun d => d) V.i.lab) (List.map (renAuth π) V.e.auths)
        (callPres (List.map (renAuth π) V.e.auths) (reindex π.act (fun d => d) V.i.lab) 0 (reindex π.call π.act.f V.i.act)) =
      Pre.mk _ _ [] :: Pre.mk _ _ [] :: Pre.mk _ _ [] :: Pre.mk _ _ [] :: Pre.mk _ _ [] ::
      List.map (renPre (renRV π)) (authPres V.i.lab V.e.auths (callPres V.e.auths V.i.lab 0 V.i.act))
    rw [hact, authPresRen π V.i.lab _ hlab _ _ (callPresRen π V.e.auths V.i.lab _ hlab V.i.act 0 hc)]
    rfl
  show nameFrom 0 (recordPres (renRec π V)) = renGraph Perm.id (renRV π) (nameFrom 0 (recordPres V))
  rw [hp, nameFromRen]

end AgentWarrant.Edits

namespace AgentWarrant.Edits.Reach
open AgentWarrant AgentWarrant.Edits

-- The reachable records are evaluated to literals once (`decide`), so the facts are compared on
-- literals; the default bound on the elaborator's unfolding is small for computed policy words.
set_option maxHeartbeats 400000

/-- The reachable I pair (`rpair Part.I`) and `Drop_ra` pair, as literals. -/
def recCA0 : Record := ⟨⟨[⟨0, [[0, 2], [2, 0]]⟩, ⟨1, [[1]]⟩]⟩, ⟨[0, 0, 0], [0, 0]⟩, ⟨[], [[], [], [0], [], [0], [], [0]], []⟩, ⟨0⟩⟩
def recCA1 : Record := ⟨⟨[⟨0, [[0, 2], [2, 0]]⟩, ⟨1, [[1]]⟩]⟩, ⟨[0, 1, 1], [0, 0]⟩, ⟨[], [[], [], [0], [], [0], [], [0]], []⟩, ⟨0⟩⟩
def recRA0 : Record := ⟨⟨[⟨0, [[2]]⟩]⟩, ⟨[0, 0, 0], [0, 0]⟩, ⟨[⟨0, 0⟩], [[], [0], [], [0]], []⟩, ⟨1⟩⟩
def recRA1 : Record := ⟨⟨[⟨0, [[2]]⟩]⟩, ⟨[1, 0, 0], [0, 0]⟩, ⟨[⟨0, 1⟩], [[], [0], [], [0]], []⟩, ⟨1⟩⟩

theorem rpairI0Lit : (rpair Part.I).1 = recCA0 := by decide
theorem rpairI1Lit : (rpair Part.I).2.1 = recCA1 := by decide
theorem raPair0Lit : recL lE1 (some 1) 6 = recRA0 := by decide
theorem raPair1Lit : recL lR1 (some 1) 7 = recRA1 := by decide

/-- The reachable I pair has the same recursive `Drop_ca` graph, names included. -/
theorem dropCAGRReachPairCollapses :
    dropCAG (recordGraph (rpair Part.I).1) = dropCAG (recordGraph (rpair Part.I).2.1) := by
  have hA : AgreeK omitCA (!omitCA (plainK Part.I)) (!omitCA (plainK Part.I))
      (tailL (recordPres recCA0)) (tailL (recordPres recCA1)) :=
    agreeCons rfl rfl (fun _ => rfl) (agreeCons rfl rfl (fun _ => rfl) (agreeCons rfl rfl (fun _ => rfl)
    (agreeCons rfl rfl (fun _ => rfl)
    (agreeCons rfl rfl (fun _ => rfl) (agreeCons rfl rfl (fun h => falseNeTrue h) (agreeCons rfl rfl (fun _ => rfl)
    (agreeCons rfl rfl (fun _ => rfl) (agreeCons rfl rfl (fun h => falseNeTrue h) (agreeCons rfl rfl (fun _ => rfl)
    (agreeCons rfl rfl (fun _ => rfl) (agreeCons rfl rfl (fun h => falseNeTrue h) (agreeCons rfl rfl (fun _ => rfl)
      trivial))))))))))))
  rw [rpairI0Lit, rpairI1Lit]
  show del omitCA (graphOf (Pre.mk (plainK Part.I) (RVal.lab recCA0.i.lab) [] :: tailL (recordPres recCA0))) =
    del omitCA (graphOf (Pre.mk (plainK Part.I) (RVal.lab recCA1.i.lab) [] :: tailL (recordPres recCA1)))
  rw [delGraphOfPres, delGraphOfPres, keepPresCongr _ _ _ _ 1 _ hA] <;> rfl

/-- The recursive `Drop_ca` of the record's graph is inexact up to renaming on reachable records. -/
theorem dropCAGRInexactReach :
    ¬ ExactROn (ReachRec der0 root0) (ReachQ der0 root0) renRG FitsRGCA (fun V => dropCAG (recordGraph V)) := by
  intro hE
  have e : dropCAG (recordGraph (rpair Part.I).1) = renRG Ren.id (dropCAG (recordGraph (rpair Part.I).2.1)) := by
    rw [renRGId]
    exact dropCAGRReachPairCollapses
  have ⟨r₀, r₁, s⟩ := pairsReachable Part.I
  exact exactROnSeparates hE r₀ r₁ s s (rpairNotIso Part.I) Ren.id ⟨permOnId _, permOnId _, rfl⟩ trivial rfl e

/-- The reachable `Drop_ra` pair has the same recursive `Drop_ra` graph, names included: the
authorization's action and the creator call's `q_act` entry are deleted, and everything left is
equal. -/
theorem dropRAGRReachPairCollapses :
    dropRAG (recordGraph (recL lE1 (some 1) 6)) = dropRAG (recordGraph (recL lR1 (some 1) 7)) := by
  have hA : AgreeK omitRA (!omitRA (plainK Part.I)) (!omitRA (plainK Part.I))
      (tailL (recordPres recRA0)) (tailL (recordPres recRA1)) :=
    agreeCons rfl rfl (fun _ => rfl) (agreeCons rfl rfl (fun _ => rfl) (agreeCons rfl rfl (fun _ => rfl)
    (agreeCons rfl rfl (fun _ => rfl) (agreeCons rfl rfl (fun _ => rfl) (agreeCons rfl rfl (fun h => falseNeTrue h)
    (agreeCons rfl rfl (fun _ => rfl) (agreeCons rfl rfl (fun _ => rfl) (agreeCons rfl rfl (fun h => falseNeTrue h)
    (agreeCons rfl rfl (fun _ => rfl) (agreeCons rfl rfl (fun _ => rfl) (agreeCons rfl rfl (fun _ => rfl)
    (agreeCons rfl rfl (fun _ => rfl) (agreeCons rfl rfl (fun _ => rfl) (agreeCons rfl rfl (fun _ => rfl)
    (agreeCons rfl rfl (fun _ => rfl) trivial)))))))))))))))
  rw [raPair0Lit, raPair1Lit]
  show del omitRA (graphOf (Pre.mk (plainK Part.I) (RVal.lab recRA0.i.lab) [] :: tailL (recordPres recRA0))) =
    del omitRA (graphOf (Pre.mk (plainK Part.I) (RVal.lab recRA1.i.lab) [] :: tailL (recordPres recRA1)))
  rw [delGraphOfPres, delGraphOfPres, keepPresCongr _ _ _ _ 1 _ hA] <;> rfl

/-- The recursive `Drop_ra` of the record's graph is inexact up to renaming on reachable records. -/
theorem dropRAGRInexactReach :
    ¬ ExactROn (ReachRec der0 root0) (ReachQ der0 root0) renRG FitsRG (fun V => dropRAG (recordGraph V)) := by
  intro hE
  have e : dropRAG (recordGraph (recL lE1 (some 1) 6)) = renRG Ren.id (dropRAG (recordGraph (recL lR1 (some 1) 7))) := by
    rw [renRGId]
    exact dropRAGRReachPairCollapses
  have ⟨_, _, r₀, r₁⟩ := extraPairsReachable
  exact exactROnSeparates hE (q₀ := Query.decide) (q₁ := Query.decide) r₀ r₁ trivial trivial
    (fun π' => notIsoOfPositive (boolNe posR0 posR1) π') Ren.id ⟨permOnId _, permOnId _, rfl⟩ trivial rfl e

end AgentWarrant.Edits.Reach
