import AgentWarrant.Spec.Edits.DeriveTreeJudged
import AgentWarrant.Spec.Revision.ListLemmas
import AgentWarrant.Thm.Edits.DeriveTree
import AgentWarrant.Thm.Edits.RecheckContract
/-! Lean's fresh names for an edit's new nodes (`Spec/Edits/DeriveTreeJudged.lean`; *When Can Agents Safely
Checkpoint, Fork, Restore, and Merge?*, Table I, Appendix A-D1):
- every name of a list is at most its `maxName` (`maxNameGe`), so every name from `nextName` up is
  unused by the tree (`aboveUnused`) and outside the reserved names (`aboveReserved`);
- Lean's names are fresh for the tree, distinct and unused (`leanNamesFresh`), none of them a reserved
  name, such as a checkpoint ID (`leanNamesAvoid`), so `applyEdit` with them is Table I's row itself
  (`applyLeanNames`);
- whether the row applies does not depend on the new names (`rowTreeNames`), so with Lean's names the
  change is defined whenever the row applies with any names the caller might give, fresh or not
  (`leanNamesDefined`);
- on the machines run with `treeDerN`, every committed step's tree is the record's, its `HStep`, or
  `applyEdit` of it for the change `Derive` names there with Lean's names (`stepTreeN`), and the
  derivation is defined wherever `Derive`'s entry is and its row applies (`treeDerNDefined`);
- each new leaf's contract is what the row's judged record says (`forkContracts`, `forkKContracts`,
  `forkTContracts`, `restoreContracts`, `mergeContracts`): a Fork's arms the copies `clone_L(𝒞) ; E_σ^L`,
  `clone_R(𝒞) ; E_σ^R` of the branch's region under the judgment's renamings, with the continuation
  steps (given, or the rule's templates instantiated by `instK`); a Restore's `b_k` the copy
  `clone_k(𝒞_k)` of the checkpoint's term; a Merge's `b_J` the rule's `E_J`;
- `derJT` derives exactly `derJK`'s instance, with Lean's tree for the judged change (`derJTIsDerJK`),
  is defined wherever the judgment is and the row applies to the tree (`derJTDefined`), and every
  committed step's tree is the record's, its `HStep`, or that tree (`stepTreeJT`). -/
namespace AgentWarrant.Edits.Machine
open AgentWarrant AgentWarrant.Edits

theorem maxNameGe : ∀ (l : List Nat) (x : Nat), x ∈ l → x ≤ maxName l
  | [], _, h => absurd h notMemNil
  | y :: l, x, h => by
    cases hb : Nat.ble y (maxName l) with
    | true =>
      have e : maxName (y :: l) = maxName l := by
        show (match Nat.ble y (maxName l) with | true => maxName l | false => y) = _
        rw [hb]
      rw [e]
      cases memCons h with
      | inl ex => rw [ex]; exact hb
      | inr hl => exact maxNameGe l x hl
    | false =>
      have e : maxName (y :: l) = y := by
        show (match Nat.ble y (maxName l) with | true => maxName l | false => y) = _
        rw [hb]
      rw [e]
      cases memCons h with
      | inl ex => rw [ex]; exact Nat.leRefl y
      | inr hl =>
        have hlt : maxName l < y := Nat.gtOfNotLe (fun hle => Bool.noConfusion (Eq.trans hb.symm hle))
        exact Nat.leTrans (maxNameGe l x hl) (Nat.leOfLt hlt)

/-- Every name from `nextName` up is unused by the tree. -/
theorem aboveUnused (t : Tree) (r : List Nat) (x : Nat) (h : nextName t r ≤ x) : memN x (namesOf t) = false :=
  (memNFalseIff x (namesOf t)).2 (fun hx =>
    Nat.notSuccLeSelf (maxName (namesOf t ++ r)) (Nat.leTrans h (maxNameGe (namesOf t ++ r) x (memAppL r hx))))

/-- Every name from `nextName` up is outside the reserved names. -/
theorem aboveReserved (t : Tree) (r : List Nat) (x : Nat) (h : nextName t r ≤ x) : memN x r = false :=
  (memNFalseIff x r).2 (fun hx =>
    Nat.notSuccLeSelf (maxName (namesOf t ++ r)) (Nat.leTrans h (maxNameGe (namesOf t ++ r) x (memAppR r (namesOf t) hx))))

theorem notMemBig (l : List Nat) (d : Nat) (h : ∀ y, y ∈ l → d + 1 ≤ y) : memN d l = false :=
  (memNFalseIff d l).2 (fun hd => Nat.notSuccLeSelf d (h d hd))

theorem distinct3 (m : Nat) : distinctN [m, m + 1, m + 2] = true := by
  have h1 : memN m [m + 1, m + 2] = false := notMemBig _ _ (fun y hy => by
    cases memCons hy with
    | inl e => rw [e]; exact Nat.leRefl _
    | inr hy => cases memCons hy with
      | inl e => rw [e]; exact Nat.leSucc _
      | inr hy => exact absurd hy notMemNil)
  have h2 : memN (m + 1) [m + 2] = false := notMemBig _ _ (fun y hy => by
    cases memCons hy with
    | inl e => rw [e]; exact Nat.leRefl _
    | inr hy => exact absurd hy notMemNil)
  show (!(memN m [m + 1, m + 2]) && (!(memN (m + 1) [m + 2]) && (!(memN (m + 2) []) && true))) = true
  rw [h1, h2]; rfl

theorem distinct2 (m : Nat) : distinctN [m, m + 1] = true := by
  have h1 : memN m [m + 1] = false := notMemBig _ _ (fun y hy => by
    cases memCons hy with
    | inl e => rw [e]; exact Nat.leRefl _
    | inr hy => exact absurd hy notMemNil)
  show (!(memN m [m + 1]) && (!(memN (m + 1) []) && true)) = true
  rw [h1]; rfl

/-- Lean's names all lie from `nextName` up. -/
theorem leanNamesAbove (t : Tree) (r : List Nat) (e : TEdit) :
    ∀ x, x ∈ freshNames (leanNames t r e) → nextName t r ≤ x := by
  intro x hx
  cases e with
  | keep => exact absurd hx notMemNil
  | fork par b g bl br gl gr =>
    cases memCons hx with
    | inl ex => rw [ex]; exact Nat.leRefl _
    | inr hx => cases memCons hx with
      | inl ex => rw [ex]; exact Nat.leAddRight _ _
      | inr hx => cases memCons hx with
        | inl ex => rw [ex]; exact Nat.leAddRight _ _
        | inr hx => exact absurd hx notMemNil
  | restore live b g bk gk =>
    cases live with
    | true =>
      cases memCons hx with
      | inl ex => rw [ex]; exact Nat.leRefl _
      | inr hx => cases memCons hx with
        | inl ex => rw [ex]; exact Nat.leAddRight _ _
        | inr hx => exact absurd hx notMemNil
    | false =>
      cases memCons hx with
      | inl ex => rw [ex]; exact Nat.leAddRight _ _
      | inr hx => exact absurd hx notMemNil
  | select g arm bj gj =>
    cases memCons hx with
    | inl ex => rw [ex]; exact Nat.leRefl _
    | inr hx => exact absurd hx notMemNil
  | join g bj gj =>
    cases memCons hx with
    | inl ex => rw [ex]; exact Nat.leRefl _
    | inr hx => exact absurd hx notMemNil

/-- A-D1's fresh IDs, chosen by Lean: its names for a change are distinct and unused by the tree. -/
theorem leanNamesFresh (t : Tree) (r : List Nat) (e : TEdit) : freshIn t (leanNames t r e) = true := by
  have hd : distinctN (freshNames (leanNames t r e)) = true := by
    cases e with
    | keep => rfl
    | fork par b g bl br gl gr => exact distinct3 (nextName t r)
    | restore live b g bk gk => cases live with
      | true => exact distinct2 (nextName t r)
      | false => rfl
    | select g arm bj gj => rfl
    | join g bj gj => rfl
  have hu : allB (fun x => !(memN x (namesOf t))) (freshNames (leanNames t r e)) = true :=
    allBIntro (fun x hx => by rw [aboveUnused t r x (leanNamesAbove t r e x hx)]; rfl)
  show (distinctN (freshNames (leanNames t r e)) && allB (fun x => !(memN x (namesOf t))) (freshNames (leanNames t r e))) = true
  rw [hd, hu]; rfl

/-- Lean's names avoid the reserved names (on the runtime, `reserved`: the checkpoint IDs and the
registered names), so no new leaf or group takes a checkpoint's ID. -/
theorem leanNamesAvoid (t : Tree) (r : List Nat) (e : TEdit) :
    allB (fun x => !(memN x r)) (freshNames (leanNames t r e)) = true :=
  allBIntro (fun x hx => by rw [aboveReserved t r x (leanNamesAbove t r e x hx)]; rfl)

/-- With Lean's names, `applyEdit` is Table I's row. -/
theorem applyLeanNames (t : Tree) (r : List Nat) (e : TEdit) :
    applyEdit t (leanNames t r e) = rowTree t (leanNames t r e) := by
  show (match freshIn t (leanNames t r e) with
    | true => rowTree t (leanNames t r e)
    | false => none) = rowTree t (leanNames t r e)
  rw [leanNamesFresh]

theorem isSomeSome (x : α) : (some x).isSome = true := rfl

/-- Whether Table I's row applies does not depend on the names of the new nodes. -/
theorem rowTreeNames (t : Tree) (r : List Nat) (e : TEdit) :
    (rowTree t (leanNames t r e)).isSome = (rowTree t e).isSome := by
  cases e with
  | keep => rfl
  | fork par b g bl br gl gr =>
    cases h : currentLeafAt t b with
    | none => simp only [leanNames, rowTree, h]
    | some p => cases p with
      | mk j n => simp only [leanNames, rowTree, h, isSomeSome]
  | restore live b g bk gk =>
    cases h : currentLeafAt t b with
    | none => simp only [leanNames, rowTree, h]
    | some p => cases p with
      | mk j n => cases live with
        | true => simp only [leanNames, rowTree, h, isSomeSome]
        | false => simp only [leanNames, rowTree, h, isSomeSome]
  | select g arm bj gj =>
    cases h : currentGroupAt t g with
    | none => simp only [leanNames, rowTree, h]
    | some p => cases p with
      | mk j n =>
        cases h2 : (Nat.beq n.kind 1 && selOk n arm) with
        | false => simp only [leanNames, rowTree, h, h2]
        | true => cases h3 : findChild j arm 1 t with
          | none => simp only [leanNames, rowTree, h, h2, h3]
          | some a => cases h4 : nodeAt t a with
            | none => simp only [leanNames, rowTree, h, h2, h3, h4]
            | some c => simp only [leanNames, rowTree, h, h2, h3, h4, isSomeSome]
  | join g bj gj =>
    cases h : currentGroupAt t g with
    | none => simp only [leanNames, rowTree, h]
    | some p => cases p with
      | mk j n =>
        cases h2 : Nat.beq n.kind 2 with
        | false => simp only [leanNames, rowTree, h, h2]
        | true => simp only [leanNames, rowTree, h, h2, isSomeSome]

theorem isSomeOf {o : Option α} (h : o.isSome = true) : ∃ x, o = some x := by
  cases o with
  | none => exact Bool.noConfusion h
  | some x => exact ⟨x, rfl⟩

/-- With Lean's names the change is defined whenever Table I's row applies, whatever names (fresh or
not) the caller gave. -/
theorem leanNamesDefined {t t' : Tree} {e : TEdit} (r : List Nat) (h : rowTree t e = some t') :
    ∃ t'', applyEdit t (leanNames t r e) = some t'' := by
  rw [applyLeanNames]
  apply isSomeOf
  rw [rowTreeNames, h]; rfl

/-- On the runtime machine run with `treeDerN`, every committed step's tree is the record's, its
`HStep`, or `applyEdit` of the record's tree for the change `Derive` names there, with Lean's names. -/
theorem stepTreeN (der : Core → Nat → Option (Derived × TEdit)) (S : RState) (e : Ev) :
    let t' := (stepR (treeDerN der) S e).2.core.tree
    t' = S.core.tree ∨ (∃ x, t' = hstep S.core.tree x) ∨
      (∃ u d e0, der S.core u = some (d, e0) ∧
        applyEdit S.core.tree (leanNames S.core.tree (reserved S.core) e0) = some t') := by
  cases stepTree (namedTab der) S e with
  | inl h => exact Or.inl h
  | inr h => cases h with
    | inl h => exact Or.inr (Or.inl h)
    | inr h =>
      have ⟨u, d, e1, ht, ha⟩ := h
      cases hd : der S.core u with
      | none => simp only [namedTab, hd] at ht
      | some p => cases p with
        | mk d0 e0 =>
          simp only [namedTab, hd] at ht
          have ⟨h1, h2⟩ := Prod.mk.inj (Option.some.inj ht)
          rw [← h2] at ha
          exact Or.inr (Or.inr ⟨u, d0, e0, hd, ha⟩)

/-- The derivation with Lean's names is defined wherever `Derive`'s entry is and its row applies. -/
theorem treeDerNDefined {der : Core → Nat → Option (Derived × TEdit)} {c : Core} {u : Nat} {d : Derived}
    {e : TEdit} {t' : Tree} (hd : der c u = some (d, e)) (hr : rowTree c.tree e = some t') :
    ∃ d', treeDerN der c u = some d' ∧ applyEdit c.tree (leanNames c.tree (reserved c) e) = some d'.tree := by
  have ⟨t'', ha⟩ := leanNamesDefined (reserved c) hr
  exact ⟨{ d with tree := t'' }, by simp only [treeDerN, treeDer, namedTab, hd, withTree, ha]; rfl, ha⟩

end AgentWarrant.Edits.Machine

namespace AgentWarrant.Edits.DeriveTreeJudged
open AgentWarrant AgentWarrant.Edits AgentWarrant.Edits.DeriveCover AgentWarrant.Edits.DeriveFork

theorem judgeKSome {T : Tm} {q : KReq} {D : Derived} (h : judgeK T q = some D) : D = recordK T q := by
  cases hw : (wfB T && wfB (recordK T q).target) with
  | true => simp only [judgeK, hw] at h; exact (Option.some.inj h).symm
  | false => simp only [judgeK, hw] at h

/-- A Fork's arms, with continuation steps given: `clone_L(𝒞) ; E_L` and `clone_R(𝒞) ; E_R`. -/
theorem forkKContracts {T : Tm} {K : Nat → Option Tm} {q : KReq} {D : Derived} (x : Nat)
    (h : judgeA T K (AReq.fork q) = some D) :
    ∃ par EL ER, judgedTEdit (AReq.fork q) D x =
      Machine.TEdit.fork par x 0 0 0 (poms (Tm.seq (T.clone dblL) EL)) (poms (Tm.seq (T.clone dblR) ER)) := by
  have hD := judgeKSome h
  rw [hD]
  cases q with
  | forkChoice g EL ER => exact ⟨false, EL, ER, rfl⟩
  | forkParallel EL ER => exact ⟨true, EL, ER, rfl⟩

/-- A Fork's arms, with the rule's templates: the copies followed by the templates instantiated with
fresh calls (`instK`). -/
theorem forkTContracts {T : Tm} {K : Nat → Option Tm} {q : TReq} {D : Derived} (x : Nat)
    (h : judgeA T K (AReq.forkT q) = some D) :
    ∃ (par : Bool) (TL TR : Tm), judgedTEdit (AReq.forkT q) D x =
      Machine.TEdit.fork par x 0 0 0 (poms (Tm.seq (T.clone dblL) (TL.clone (instL (bound T.calls)))))
        (poms (Tm.seq (T.clone dblR) (TR.clone (instR (bound T.calls))))) := by
  have hD : D = recordK T (instK T q) := judgeKSome h
  rw [hD]
  cases q with
  | forkChoice g TL TR => exact ⟨false, TL, TR, rfl⟩
  | forkParallel TL TR => exact ⟨true, TL, TR, rfl⟩

/-- A Fork's arms in `judge`'s rows (no continuation steps): the copies `clone_L(𝒞)`, `clone_R(𝒞)`. -/
theorem forkContracts {T : Tm} {K : Nat → Option Tm} {D : Derived} (x : Nat) :
    (∀ g, judgeA T K (AReq.base (CReq.forkChoice g)) = some D →
      judgedTEdit (AReq.base (CReq.forkChoice g)) D x =
        Machine.TEdit.fork false x 0 0 0 (poms (T.clone dblL)) (poms (T.clone dblR))) ∧
    (judgeA T K (AReq.base CReq.forkParallel) = some D →
      judgedTEdit (AReq.base CReq.forkParallel) D x =
        Machine.TEdit.fork true x 0 0 0 (poms (T.clone dblL)) (poms (T.clone dblR))) := by
  constructor
  · intro g h
    cases hw : wfB T with
    | true =>
      have h' : judge T K (CReq.forkChoice g) = some D := h
      simp only [judge, hw] at h'
      rw [← Option.some.inj h']; rfl
    | false =>
      have h' : judge T K (CReq.forkChoice g) = some D := h
      simp only [judge, hw] at h'
  · intro h
    cases hw : wfB T with
    | true =>
      have h' : judge T K CReq.forkParallel = some D := h
      simp only [judge, hw] at h'
      rw [← Option.some.inj h']; rfl
    | false =>
      have h' : judge T K CReq.forkParallel = some D := h
      simp only [judge, hw] at h'

/-- A Restore's new leaf `b_k`: the copy `clone_k(𝒞_k)` of the checkpoint's term, under the judgment's
renaming from the counter. -/
theorem restoreContracts {T : Tm} {K : Nat → Option Tm} {D : Derived} (x k n : Nat) :
    (judgeA T K (AReq.base (CReq.restoreReplace k n)) = some D → ∃ Ck, K k = some Ck ∧
      judgedTEdit (AReq.base (CReq.restoreReplace k n)) D x =
        Machine.TEdit.restore false x 0 0 (poms (Ck.clone (shift n)))) ∧
    (judgeA T K (AReq.base (CReq.restoreLive k n)) = some D → ∃ Ck, K k = some Ck ∧
      judgedTEdit (AReq.base (CReq.restoreLive k n)) D x =
        Machine.TEdit.restore true x 0 0 (poms (Ck.clone (shift n)))) := by
  constructor
  · intro h
    have h' : judge T K (CReq.restoreReplace k n) = some D := h
    cases hw : wfB T with
    | false => simp only [judge, hw] at h'
    | true => cases hk : K k with
      | none => simp only [judge, hw, hk] at h'
      | some Ck => cases hc : wfB Ck with
        | false => simp only [judge, hw, hk, hc] at h'
        | true =>
          simp only [judge, hw, hk, hc] at h'
          exact ⟨Ck, rfl, by rw [← Option.some.inj h']; rfl⟩
  · intro h
    have h' : judge T K (CReq.restoreLive k n) = some D := h
    cases hw : wfB T with
    | false => simp only [judge, hw] at h'
    | true => cases hk : K k with
      | none => simp only [judge, hw, hk] at h'
      | some Ck => cases hc : (wfB Ck && belowB T n) with
        | false => simp only [judge, hw, hk, hc] at h'
        | true =>
          simp only [judge, hw, hk, hc] at h'
          exact ⟨Ck, rfl, by rw [← Option.some.inj h']; rfl⟩

/-- A Merge's new leaf `b_J`: the rule's continuation `E_J`. -/
theorem mergeContracts {T : Tm} {K : Nat → Option Tm} {D : Derived} (x : Nat) (EJ : Tm) :
    (∀ g w, judgeA T K (AReq.base (CReq.mergeSelect g w EJ)) = some D →
      ∃ arm, judgedTEdit (AReq.base (CReq.mergeSelect g w EJ)) D x = Machine.TEdit.select x arm 0 (poms EJ)) ∧
    (judgeA T K (AReq.base (CReq.mergeJoin EJ)) = some D →
      judgedTEdit (AReq.base (CReq.mergeJoin EJ)) D x = Machine.TEdit.join x 0 (poms EJ)) := by
  constructor
  · intro g w h
    have h' : judge T K (CReq.mergeSelect g w EJ) = some D := h
    cases T with
    | choice g' TL TR =>
      cases hb : (Nat.beq g' g && wfB (Tm.choice g' TL TR) && contOk TL TR EJ) with
      | false => simp only [judge, hb] at h'
      | true =>
        simp only [judge, hb] at h'
        rw [← Option.some.inj h']
        exact ⟨match w with | false => 0 | true => 1, rfl⟩
    | call c => simp only [judge] at h'
    | nil => simp only [judge] at h'
    | par l r => simp only [judge] at h'
    | seq l r => simp only [judge] at h'
  · intro h
    have h' : judge T K (CReq.mergeJoin EJ) = some D := h
    cases T with
    | par TL TR =>
      cases hb : (wfB (Tm.par TL TR) && contOk TL TR EJ) with
      | false => simp only [judge, hb] at h'
      | true =>
        simp only [judge, hb] at h'
        rw [← Option.some.inj h']; rfl
    | call c => simp only [judge] at h'
    | nil => simp only [judge] at h'
    | choice g l r => simp only [judge] at h'
    | seq l r => simp only [judge] at h'

/-- The table's entries without the branch or group. -/
def fstTab (tab : Nat → Option (EntryA × Nat)) : Nat → Option EntryA := fun u => match tab u with
  | some (e, _) => some e
  | none => none

/-- `derJT` derives `derJK`'s instance, with the tree Lean builds for the judged change (new leaves'
contracts from the judged record, Lean's fresh names). -/
theorem derJTIsDerJK {src : Machine.Core → Tm × (Nat → Option Tm)} {tab : Nat → Option (EntryA × Nat)}
    {c : Machine.Core} {u : Nat} {d : Machine.Derived} (h : derJT src tab c u = some d) :
    ∃ e x D d0, tab u = some (e, x) ∧ judgeA (src c).1 (src c).2 e.req = some D ∧
      derJK src (fstTab tab) c u = some d0 ∧ d = { d0 with tree := d.tree } ∧
      Machine.applyEdit c.tree (Machine.leanNames c.tree (Machine.reserved c) (judgedTEdit e.req D x)) = some d.tree := by
  cases ht : tab u with
  | none => simp only [derJT, Machine.treeDer, judgedTab, ht] at h
  | some p => cases p with
    | mk e x => cases hj : judgeA (src c).1 (src c).2 e.req with
      | none => simp only [derJT, Machine.treeDer, judgedTab, ht, hj] at h
      | some D =>
        cases ha : Machine.applyEdit c.tree (Machine.leanNames c.tree (Machine.reserved c) (judgedTEdit e.req D x)) with
        | none => simp only [derJT, Machine.treeDer, judgedTab, ht, hj, Machine.withTree, ha] at h
        | some t =>
          simp only [derJT, Machine.treeDer, judgedTab, ht, hj, Machine.withTree, ha] at h
          rw [← Option.some.inj h]
          exact ⟨e, x, D, ⟨inputOf D e.act e.lab (Machine.logActions c) e.dfa, e.calls, e.names, e.etaNew, []⟩,
            rfl, hj, by simp only [derJK, fstTab, ht, hj]; rfl, rfl, ha⟩

/-- `derJT` is defined wherever the judgment is and the row's change applies to the record's tree (with
any names). -/
theorem derJTDefined {src : Machine.Core → Tm × (Nat → Option Tm)} {tab : Nat → Option (EntryA × Nat)}
    {c : Machine.Core} {u : Nat} {e : EntryA} {x : Nat} {D : Derived} {t : Machine.Tree}
    (ht : tab u = some (e, x)) (hj : judgeA (src c).1 (src c).2 e.req = some D)
    (hr : Machine.rowTree c.tree (judgedTEdit e.req D x) = some t) : ∃ d, derJT src tab c u = some d := by
  have ⟨t'', ha⟩ := Machine.leanNamesDefined (Machine.reserved c) hr
  exact ⟨{ inst := inputOf D e.act e.lab (Machine.logActions c) e.dfa, calls := e.calls, names := e.names,
           etaNew := e.etaNew, tree := t'' },
         by simp only [derJT, Machine.treeDer, judgedTab, ht, hj, Machine.withTree, ha]; rfl⟩

/-- On the runtime machine run with `derJT`, every committed step's tree is the record's, its `HStep`,
or Lean's `applyEdit` of it for the judged change (`stepTree` on `judgedTab`). -/
theorem stepTreeJT (src : Machine.Core → Tm × (Nat → Option Tm)) (tab : Nat → Option (EntryA × Nat))
    (S : Machine.RState) (e : Machine.Ev) :
    Machine.TreeStep (judgedTab src tab) S.core (Machine.stepR (derJT src tab) S e).2.core.tree :=
  Machine.stepTree (judgedTab src tab) S e

/-- `stepTreeJT` spelled out: a changed tree is Lean's `applyEdit`, with its names, of the change on the
branch or group the table names, each new leaf's contract read from the record the judgment derives. -/
theorem stepTreeJudged (src : Machine.Core → Tm × (Nat → Option Tm)) (tab : Nat → Option (EntryA × Nat))
    (S : Machine.RState) (ev : Machine.Ev) :
    let t' := (Machine.stepR (derJT src tab) S ev).2.core.tree
    t' = S.core.tree ∨ (∃ y, t' = Machine.hstep S.core.tree y) ∨
      (∃ u e x D, tab u = some (e, x) ∧ judgeA (src S.core).1 (src S.core).2 e.req = some D ∧
        Machine.applyEdit S.core.tree (Machine.leanNames S.core.tree (Machine.reserved S.core)
          (judgedTEdit e.req D x)) = some t') := by
  cases stepTreeJT src tab S ev with
  | inl h => exact Or.inl h
  | inr h => cases h with
    | inl h => exact Or.inr (Or.inl h)
    | inr h =>
      have ⟨u, d, te, ht, ha⟩ := h
      cases htab : tab u with
      | none => simp only [judgedTab, htab] at ht
      | some p => cases p with
        | mk e x => cases hj : judgeA (src S.core).1 (src S.core).2 e.req with
          | none => simp only [judgedTab, htab, hj] at ht
          | some D =>
            simp only [judgedTab, htab, hj] at ht
            have ⟨_, h2⟩ := Prod.mk.inj (Option.some.inj ht)
            rw [← h2] at ha
            exact Or.inr (Or.inr ⟨u, e, x, D, htab, hj, ha⟩)

end AgentWarrant.Edits.DeriveTreeJudged
