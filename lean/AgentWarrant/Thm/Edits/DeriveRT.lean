import AgentWarrant.Spec.Edits.DeriveRT
import AgentWarrant.Thm.Edits.DeriveCover
/-! The covering lists `edit_derive` reports are the derived record's `Covers_u` (*When Can Agents Safely
Checkpoint, Fork, Restore, and Merge?*, Section V-A2; definitions in `Spec/Edits/DeriveRT.lean`).

- `relBIff`: for every record the judgment derives (`judge T K q = some D`), `relB T K q` decides
  `D.rel`, for every target and source result;
- `memCoversOf`: `coversOf cov r outs` lists exactly the positions of the results `cov` relates to `r`;
- `coversOfIff`, `coversOfTheta`: so the list the oracle reports for the required result at position
  `a` is exactly the set of target outcomes `t` with `Covers_u(t, a)` in the record's check instance
  `D.theta` (any actions, labels, log and policy). -/
namespace AgentWarrant.Edits.DeriveRT
open AgentWarrant AgentWarrant.Edits AgentWarrant.Edits.DeriveCover

theorem decIff {p : Prop} [Decidable p] : decide p = true ↔ p := ⟨ofDecideEqTrue, decideEqTrue⟩

theorem andBoolIff {a b : Bool} : (a && b) = true ↔ a = true ∧ b = true := by
  cases a <;> cases b <;> simp

theorem toutBIff (x y : TOut) : toutB x y = true ↔ x = y := by
  cases x with
  | mk s p =>
    cases y with
    | mk s' p' =>
      constructor
      · intro h
        have ⟨h1, h2⟩ := andBoolIff.1 h
        have e1 : s = s' := ofDecideEqTrue h1
        have e2 : p = p' := ofDecideEqTrue h2
        rw [e1, e2]
      · intro h
        cases h
        exact andBoolIff.2 ⟨decideEqTrue rfl, decideEqTrue rfl⟩

theorem anyToutIff {l : List TOut} {f : TOut → TOut} {x : TOut} :
    anyB (fun o' => toutB x (f o')) l = true ↔ ∃ o', o' ∈ l ∧ x = f o' :=
  ⟨fun h => let ⟨o', hm, he⟩ := anyBElim h; ⟨o', hm, (toutBIff _ _).1 he⟩,
   fun ⟨o', hm, he⟩ => anyBIntro hm ((toutBIff _ _).2 he)⟩

theorem anyAnyIff {A B : List TOut} {f : TOut → TOut → TOut} {x : TOut} :
    anyB (fun a => anyB (fun b => toutB x (f a b)) B) A = true ↔ ∃ a b, a ∈ A ∧ b ∈ B ∧ x = f a b :=
  ⟨fun h => let ⟨a, ha, hb⟩ := anyBElim h; let ⟨b, hb', he⟩ := anyBElim hb; ⟨a, b, ha, hb', (toutBIff _ _).1 he⟩,
   fun ⟨a, b, ha, hb, he⟩ => anyBIntro ha (anyBIntro hb ((toutBIff _ _).2 he))⟩

/-- `relB` decides the coverage relation of every record the judgment derives. -/
theorem relBIff {T : Tm} {K : Nat → Option Tm} {q : CReq} {D : Derived} (h : judge T K q = some D)
    (x : TOut) (r : Bool × TOut) : relB T K q x r = true ↔ D.rel x r := by
  cases q with
  | forkChoice g =>
    have hj : EditJ T K (Req.forkChoice g dblL dblR) D := (judgeSound h).1
    cases hj
    exact (andBoolIff.trans ⟨fun ⟨a, b⟩ => ⟨ofDecideEqTrue a, ofDecideEqTrue b⟩,
      fun ⟨a, b⟩ => ⟨decideEqTrue a, decideEqTrue b⟩⟩)
  | forkParallel =>
    have hj : EditJ T K (Req.forkParallel dblL dblR) D := (judgeSound h).1
    cases hj
    cases r with
    | mk b o =>
      cases b with
      | false => exact anyToutIff
      | true => exact anyToutIff
  | restoreReplace k n =>
    have hj : EditJ T K (Req.restoreReplace k (shift n)) D := (judgeSound h).1
    cases hj
    exact (andBoolIff.trans ⟨fun ⟨a, b⟩ => ⟨a, (toutBIff _ _).1 b⟩, fun ⟨a, b⟩ => ⟨a, (toutBIff _ _).2 b⟩⟩)
  | restoreLive k n =>
    have hj : EditJ T K (Req.restoreLive k (shift n)) D := (judgeSound h).1
    cases hj with
    | restoreLive _ _ Ck hK _ _ =>
      cases r with
      | mk b o =>
        cases b with
        | false =>
          show (match K k with
            | some Ck => anyB (fun o' => toutB x (joinOut false o (renameOut (shift n) o'))) Ck.outs
            | none => false) = true ↔ _
          rw [hK]
          exact anyToutIff
        | true => exact anyToutIff
  | mergeSelect g w EJ =>
    have hj : EditJ T K (Req.mergeSelect g w EJ) D := (judgeSound h).1
    cases hj with
    | mergeSelect _ _ TL TR _ hT _ _ _ =>
      subst hT
      exact (andBoolIff.trans ⟨fun ⟨a, b⟩ => ⟨ofDecideEqTrue a, anyBElim b |> fun ⟨e, he, hx⟩ =>
          ⟨e, he, (toutBIff _ _).1 hx⟩⟩,
        fun ⟨a, e, he, hx⟩ => ⟨decideEqTrue a, anyBIntro he ((toutBIff _ _).2 hx)⟩⟩)
  | mergeJoin EJ =>
    have hj : EditJ T K (Req.mergeJoin EJ) D := (judgeSound h).1
    cases hj with
    | mergeJoin TL TR _ hT _ _ _ =>
      subst hT
      cases r with
      | mk b o =>
        cases b with
        | false => exact anyAnyIff
        | true => exact anyAnyIff
  | extend =>
    have hj : EditJ T K Req.extend D := (judgeSound h).1
    cases hj
    exact toutBIff _ _

theorem succMemMap {t : Nat} {l : List Nat} (h : t ∈ l) : Nat.succ t ∈ List.map Nat.succ l := mapMem h

/-- `coversOf` lists exactly the positions of the results `cov` relates to `r`. -/
theorem memCoversOf (cov : TOut → Bool × TOut → Bool) (r : Bool × TOut) :
    ∀ (outs : List TOut) (t : Nat), t ∈ coversOf cov r outs ↔ ∃ x, pick outs t = some x ∧ cov x r = true
  | [], t => ⟨fun h => absurd h notMemNil, fun ⟨x, hx, _⟩ => by cases t <;> exact Option.noConfusion hx⟩
  | x :: l, 0 => by
    cases hc : cov x r with
    | true =>
      constructor
      · intro _
        exact ⟨x, rfl, hc⟩
      · intro _
        simp only [coversOf, hc]
        exact Mem.head _
    | false =>
      constructor
      · intro h
        simp only [coversOf, hc] at h
        have ⟨y, _, hy⟩ := memMap h
        exact Nat.noConfusion hy
      · intro ⟨y, hy, hc'⟩
        have e : x = y := Option.some.inj hy
        rw [e, hc'] at hc
        exact Bool.noConfusion hc
  | x :: l, Nat.succ t => by
    have ih := memCoversOf cov r l t
    constructor
    · intro h
      apply ih.1
      cases hc : cov x r with
      | true =>
        simp only [coversOf, hc] at h
        cases memCons h with
        | inl h0 => exact Nat.noConfusion h0
        | inr hm =>
          have ⟨y, hy, he⟩ := memMap hm
          rw [Nat.succ.inj he]
          exact hy
      | false =>
        simp only [coversOf, hc] at h
        have ⟨y, hy, he⟩ := memMap h
        rw [Nat.succ.inj he]
        exact hy
    · intro hx
      have hm := succMemMap (ih.2 hx)
      cases hc : cov x r with
      | true =>
        simp only [coversOf, hc]
        exact Mem.tail _ hm
      | false =>
        simp only [coversOf, hc]
        exact hm

/-- The covering list of a derived record's required result is its `Covers_u` relation. -/
theorem coversOfIff {T : Tm} {K : Nat → Option Tm} {q : CReq} {D : Derived} (h : judge T K q = some D)
    (r : Bool × TOut) (t : Nat) :
    t ∈ coversOf (relB T K q) r D.target.outs ↔ ∃ x, pick D.target.outs t = some x ∧ D.rel x r :=
  (memCoversOf _ r D.target.outs t).trans
    ⟨fun ⟨x, hx, hr⟩ => ⟨x, hx, (relBIff h x r).1 hr⟩, fun ⟨x, hx, hr⟩ => ⟨x, hx, (relBIff h x r).2 hr⟩⟩

/-- In the record's check instance: the list reported for the required result at position `a` holds
exactly the target outcomes `t` with `Covers_u(t, a)`. -/
theorem coversOfTheta {T : Tm} {K : Nat → Option Tm} {q : CReq} {D : Derived} (h : judge T K q = some D)
    {a : Nat} {r : Bool × TOut} (ha : pick D.required a = some r) (act lab log : List Nat)
    (A : List Nat → Prop) (t : Nat) :
    t ∈ coversOf (relB T K q) r D.target.outs ↔ (D.theta act lab log A).covers t a := by
  constructor
  · intro hm
    have ⟨x, hx, hr⟩ := (coversOfIff h r t).1 hm
    exact ⟨x, r, hx, ha, hr⟩
  · intro ⟨x, r', hx, ha', hr⟩
    have e : r' = r := Option.some.inj (ha'.symm.trans ha)
    rw [e] at hr
    exact (coversOfIff h r t).2 ⟨x, hx, hr⟩

end AgentWarrant.Edits.DeriveRT
