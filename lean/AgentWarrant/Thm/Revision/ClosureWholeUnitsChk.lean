import AgentWarrant.Spec.Revision.ClosureWholeUnitsChk
import AgentWarrant.Thm.Revision.ClosureWholeCovReq
/-! The Boolean checks of `Spec/Revision/ClosureWholeUnitsChk.lean` against the premises they stand
for (Agenra Sections 1 and 7.1): `cwuReqsInB R gs = true ↔ CwReqsIn R gs`, and `cwuUnitsFromB` on
`acts` and `listed` gives `CwUnitsFrom` for the listed vectors of the actions of `acts`
(`cwuOnly acts listed`), which the coverage oracle reads the same as `listed` on `acts`
(`cwuCoveredOnly`). -/
namespace AgentWarrant.Monitor.Full
open Lean AgentWarrant AgentWarrant.Revision

theorem cwuSplitCons (n : Nat) (b : Bool) (w : List Bool) :
    cwuSplit (n + 1) (b :: w) = (b :: (cwuSplit n w).1, (cwuSplit n w).2) := rfl

theorem cwuSplitApp : ∀ (v1 v2 : List Bool), cwuSplit (List.length v1) (v1 ++ v2) = (v1, v2)
  | [], _ => rfl
  | b :: v1, v2 => by
    rw [List.length_cons, List.cons_append, cwuSplitCons, cwuSplitApp v1 v2]

theorem cwuUApp (v1 v2 v3 v4 : List Bool) (q : List String) :
    cwuU (List.length v1) (List.length v2) (List.length v3) (v1 ++ v2 ++ v3 ++ v4) q = ⟨[v1, v2], [v3, v4], q⟩ := by
  rw [List.append_assoc, List.append_assoc]
  show cwuU1 (List.length v2) (List.length v3) q (cwuSplit (List.length v1) (v1 ++ (v2 ++ (v3 ++ v4)))) = _
  rw [cwuSplitApp]
  show cwuU2 (List.length v3) q v1 (cwuSplit (List.length v2) (v2 ++ (v3 ++ v4))) = _
  rw [cwuSplitApp]
  show cwuU3 q v1 v2 (cwuSplit (List.length v3) (v3 ++ v4)) = _
  rw [cwuSplitApp]
  rfl

theorem cwuAnd : ∀ {a b : Bool}, (a && b) = true → a = true ∧ b = true
  | true, true, _ => ⟨rfl, rfl⟩
  | true, false, h => Bool.noConfusion h
  | false, _, h => Bool.noConfusion h

theorem cwuUnitEq : ∀ (x u : Closure.Unit'), x.old = u.old → x.new = u.new → x.reqs = u.reqs → x = u
  | ⟨_, _, _⟩, ⟨_, _, _⟩, h1, h2, h3 => by
    cases h1
    cases h2
    cases h3
    rfl

theorem cwuHasMem (units : List Closure.Unit') (u : Closure.Unit') (h : cwuHas units u = true) : u ∈ units := by
  have ⟨x, hx, hb⟩ := anyBElim h
  have h1 := cwuAnd hb
  have h2 := cwuAnd h1.2
  have e : x = u := cwuUnitEq x u (ofDecideEqTrue h1.1) (ofDecideEqTrue h2.1) (ofDecideEqTrue h2.2)
  rw [← e]
  exact hx

theorem cwuMemS {acts : List String} {a : String} (h : Closure.memS acts a = true) : a ∈ acts := by
  have ⟨x, hx, hxa⟩ := anyBElim h
  have e : x = a := ofDecideEqTrue hxa
  rw [← e]
  exact hx

theorem cwuMemSOf {acts : List String} {a : String} (h : a ∈ acts) : Closure.memS acts a = true :=
  anyBIntro h (decideEqTrue rfl)

theorem cwuOnlyIn (acts : List String) (listed : String → List (List Bool)) (a : String)
    (h : Closure.memS acts a = true) : cwuOnly acts listed a = listed a := by
  show cwuIf (Closure.memS acts a) (listed a) = listed a
  rw [h]
  rfl

theorem cwuOnlyOut (acts : List String) (listed : String → List (List Bool)) (a : String)
    (h : Closure.memS acts a = false) : cwuOnly acts listed a = [] := by
  show cwuIf (Closure.memS acts a) (listed a) = []
  rw [h]
  rfl

/-- The units check gives the premise on units, for the vectors listed for the actions of `acts`. -/
theorem cwuUnitsFromOf (units : List Closure.Unit') (p : Policy) (u' a' : List Grant) (acts : List String)
    (listed : String → List (List Bool)) (Qs : List (List String))
    (h : cwuUnitsFromB units p u' acts listed Qs = true) :
    CwUnitsFrom units p u' a' (cwuOnly acts listed) Qs := by
  intro a v1 v2 v3 v4 q h1 h2 h3 _ hv hq
  cases hm : Closure.memS acts a with
  | false =>
    rw [cwuOnlyOut acts listed a hm] at hv
    exact Bool.noConfusion hv
  | true =>
    rw [cwuOnlyIn acts listed a hm] at hv
    have ⟨w, hw, hwe⟩ := anyBElim hv
    have e : w = v1 ++ v2 ++ v3 ++ v4 := ofDecideEqTrue hwe
    have hu : cwuHas units (cwuU (List.length p.user) (List.length p.app) (List.length u') w q) = true :=
      allBElim (allBElim (allBElim h a (cwuMemS hm)) w hw) q hq
    rw [e, ← h1, ← h2, ← h3, cwuUApp] at hu
    exact cwuHasMem units _ hu

theorem cwuSubsetsEq : ∀ (R : List String), cwuSubsets R = cwSubsets R
  | [] => rfl
  | r :: rs => by
    show List.map (fun q => r :: q) (cwuSubsets rs) ++ cwuSubsets rs =
      List.map (fun q => r :: q) (cwSubsets rs) ++ cwSubsets rs
    rw [cwuSubsetsEq rs]

/-- The judgment's `unitsComplete` check, at the lengths of the closure check's lists of the four
grant lists, over the actions and vectors of an association list and the subsets of `names`, gives
the premise on units for those vectors and `cwSubsets names`. -/
theorem cwuUnitsFromOfJudged (units : List Closure.Unit') (p : Policy) (u' a' : List Grant)
    (L : List (String × List (List Bool))) (names : List String)
    (h : cwuUnitsFromN units (List.length (cwEntries p.user)) (List.length (cwEntries p.app))
      (List.length (cwEntries u')) (L.map Prod.fst) (cwuListedOf L) (cwuSubsets names) = true) :
    CwUnitsFrom units p u' a' (cwuOnly (L.map Prod.fst) (cwuListedOf L)) (cwSubsets names) := by
  have e1 : List.length (cwEntries p.user) = List.length p.user := lengthMap cwEntry p.user
  have e2 : List.length (cwEntries p.app) = List.length p.app := lengthMap cwEntry p.app
  have e3 : List.length (cwEntries u') = List.length u' := lengthMap cwEntry u'
  rw [e1, e2, e3, cwuSubsetsEq] at h
  exact cwuUnitsFromOf units p u' a' _ _ _ h

/-- The requirement-name check decides `CwReqsIn`. -/
theorem cwuReqsInIff (R : List String) (gs : List Grant) : cwuReqsInB R gs = true ↔ CwReqsIn R gs :=
  ⟨fun h g hg r hr => by
    have hg' : Closure.reqOk R g.requires = true := allBElim h g hg
    rw [hr] at hg'
    exact hg',
   fun h => allBIntro (fun g hg => by
    show Closure.reqOk R g.requires = true
    cases hr : g.requires with
    | none => rfl
    | some r => exact h g hg r hr)⟩

/-- The judgment's `reqsNamed` check on the closure check's lists of the four grant lists gives the
check on the grants. -/
theorem cwuReqsInOfL (R : List String) (p : Policy) (u' a' : List Grant)
    (h : cwuReqsInL R (cwLists p.user p.app ++ cwLists u' a') = true) : cwuReqsInB R (cwAll p u' a') = true := by
  apply allBIntro
  intro g hg
  have hg' : g ∈ p.user ++ p.app ++ u' ++ a' := hg
  have hl : ∃ l, l ∈ cwLists p.user p.app ++ cwLists u' a' ∧ cwEntry g ∈ l := by
    cases memAppE hg' with
    | inr h4 => exact ⟨cwEntries a', memAppR _ _ (Mem.tail _ (Mem.head _)), memMapOf cwEntry h4⟩
    | inl h123 => cases memAppE h123 with
      | inr h3 => exact ⟨cwEntries u', memAppR _ _ (Mem.head _), memMapOf cwEntry h3⟩
      | inl h12 => cases memAppE h12 with
        | inr h2 => exact ⟨cwEntries p.app, memAppL _ (Mem.tail _ (Mem.head _)), memMapOf cwEntry h2⟩
        | inl h1 => exact ⟨cwEntries p.user, memAppL _ (Mem.head _), memMapOf cwEntry h1⟩
  have ⟨l, hl1, hl2⟩ := hl
  have he : Closure.reqOk R (cwEntry g).requires = true := allBElim (allBElim h l hl1) (cwEntry g) hl2
  exact he

/-- The coverage oracle is asked about the actions of `acts` alone, where `cwuOnly acts listed`
is `listed`. -/
theorem cwuCoveredOnly (E : String → Option (List Json)) (listedS : String → List String)
    (listed : String → List (List Bool)) (acts : List String) (p : Policy) (u' a' : List Grant)
    (h : CwOracleCovered E listedS listed acts p u' a') : CwOracleCovered E listedS (cwuOnly acts listed) acts p u' a' := by
  intro a ha
  rw [cwuOnlyIn acts listed a (cwuMemSOf ha)]
  exact h a ha

end AgentWarrant.Monitor.Full
