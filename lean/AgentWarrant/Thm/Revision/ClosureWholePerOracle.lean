import AgentWarrant.Thm.Revision.ClosureWholeCovOracle
/-! The closure check on the whole monitor for two per-list certificates, with their coverage premise
from the tool-checked coverage oracle's answers (Agenra Sections 1 and 7.1). The Python checker asks a
per-list certificate's coverage question of one list pair, the old list and its revision read as one
(`gs ++ gs'`), with that certificate's listed vectors; so does this file: for each action of `acts`,
the policy oracle asked about the user pair answers `covered` with `listedU a`, and asked about the
application pair, with `listedA a`. Each certificate's units hold every vector listed for its pair,
split at the old list's length, with every requirement set of `Qs` (`CwUnitsFromL`, the per-list form
of `CwUnitsFrom`).

The coverage oracle's facts are stated on any grant list `G` in the joint file (`CwOracleCoveredOn`,
`CwOracleSideOn`, `CwVecsListedOn`, `cwVecsOfOracleOn`, `cwAlongReach`); the joint ones are the
instance `G = cwAll p u' a'`, and this file reads them on each pair. The
per-call conditions along the old run are the joint theorem's (`CwOracleAlong`, taken as it is):
they hold of each pair because the pair's grants are among the four lists' (`cwSideSub`).

Choices where the source is silent: both certificates take the same `E`, `acts` and `Qs`, as the
Python checker asks both with the certificate's one effect set. -/
namespace AgentWarrant.Monitor.Full
open Lean AgentWarrant AgentWarrant.Monitor AgentWarrant.Monitor.Run AgentWarrant.Revision

/-- The joint facts are the instance on the four lists read as one. -/
theorem cwOracleOnAll (E : String → Option (List Json)) (listedS : String → List String)
    (listed : String → List (List Bool)) (acts : List String) (p : Policy) (u' a' : List Grant) (s : State)
    (args : List (String × Json)) (es : List Effect) :
    (CwOracleCovered E listedS listed acts p u' a' = CwOracleCoveredOn E listedS listed acts p (cwAll p u' a')) ∧
    (CwOracleSide E acts p u' a' args es = CwOracleSideOn E acts (cwAll p u' a') args es) ∧
    (CwVecsListed listed p u' a' s args es = CwVecsListedOn listed (cwAll p u' a') s args es) :=
  ⟨rfl, rfl, rfl⟩

theorem cwOkSub (G H : List Grant) (hsub : ∀ g, g ∈ H → g ∈ G) (a : String)
    (h : allB ArgCover.grantOk (ArgCover.ofAction a H) = false) : allB ArgCover.grantOk (ArgCover.ofAction a G) = false := by
  cases hG : allB ArgCover.grantOk (ArgCover.ofAction a G) with
  | false => rfl
  | true =>
    have hH : allB ArgCover.grantOk (ArgCover.ofAction a H) = true := allBIntro (fun x hx =>
      let ⟨hxH, hxa⟩ := memFilt hx
      allBElim hG x (filtMem (hsub x hxH) hxa))
    rw [hH] at h
    cases h

/-- The per-call conditions on `G` hold on any list of grants among `G`'s. -/
theorem cwSideSub (E : String → Option (List Json)) (acts : List String) (G H : List Grant)
    (hsub : ∀ g, g ∈ H → g ∈ G) (args : List (String × Json)) (es : List Effect)
    (h : CwOracleSideOn E acts G args es) : CwOracleSideOn E acts H args es :=
  ⟨h.1, fun e he => ⟨(h.2 e he).1, (h.2 e he).2.1, fun hb =>
    fun g hg => (h.2 e he).2.2 (cwOkSub G H hsub e.action hb) g (hsub g hg)⟩⟩

theorem cwUserSub (p : Policy) (u' a' : List Grant) : ∀ g, g ∈ p.user ++ u' → g ∈ cwAll p u' a' := by
  intro g hg
  cases memAppE hg with
  | inl h => exact memAppL a' (memAppL u' (memAppL p.app h))
  | inr h => exact memAppL a' (memAppR u' (p.user ++ p.app) h)

theorem cwAppSub (p : Policy) (u' a' : List Grant) : ∀ g, g ∈ p.app ++ a' → g ∈ cwAll p u' a' := by
  intro g hg
  cases memAppE hg with
  | inl h => exact memAppL a' (memAppL u' (memAppR p.app p.user h))
  | inr h => exact memAppR a' (p.user ++ p.app ++ u') h

/-- A per-list certificate's units hold every vector listed for its pair `gs ++ gs'`, split at the old
list's length, with every requirement set of `Qs`. -/
def CwUnitsFromL (units : List Closure.Unit') (gs gs' : List Grant) (listed : String → List (List Bool))
    (Qs : List (List String)) : Prop :=
  ∀ a v1 v2 q, List.length v1 = List.length gs → List.length v2 = List.length gs' →
    anyB (fun u => Decidable.decide (u = v1 ++ v2)) (listed a) = true → q ∈ Qs →
    (⟨[v1], [v2], q⟩ : Closure.Unit') ∈ units

/-- Effect unit `i` of a call whose effect `e` has its vector over the pair listed, with any
requirement set of `Qs`, is among the certificate's units. -/
theorem cwUnitLListed (units : List Closure.Unit') (gs gs' : List Grant) (listed : String → List (List Bool))
    (Qs : List (List String)) (hu : CwUnitsFromL units gs gs' listed Qs) (s : State) (args : List (String × Json))
    (es : List Effect) (e : Effect) (j i : Nat) (hij : i = 0 + j) (hf : ∀ f : Effect → Bool, hit (List.map f es) j = f e)
    (hvec : anyB (fun u => Decidable.decide (u = (gs ++ gs').map (fun g => grantMatches s args g e)))
      (listed e.action) = true) (q : List String) (hq : q ∈ Qs) :
    (⟨[cwBits s args es i gs], [cwBits s args es i gs'], q⟩ : Closure.Unit') ∈ units := by
  have hj : i = j := by rw [hij, Nat.zero_add]
  rw [hj]
  rw [mapAppend] at hvec
  rw [cwCovBits s args es j e hf gs, cwCovBits s args es j e hf gs']
  exact hu e.action _ _ _ (lengthMap _ _) (lengthMap _ _) hvec hq

/-- One effect unit: listed vectors over a pair put its per-list bits, with any requirement set of
`Qs`, among the certificate's units. -/
theorem cwUnitLAt (units : List Closure.Unit') (gs gs' : List Grant) (listed : String → List (List Bool))
    (Qs : List (List String)) (hu : CwUnitsFromL units gs gs' listed Qs) (s : State) (args : List (String × Json))
    (es : List Effect) (hv : CwVecsListedOn listed (gs ++ gs') s args es) (q : List String) (hq : q ∈ Qs) (i : Nat)
    (hi : i ∈ range 0 (List.length es)) :
    (⟨[cwBits s args es i gs], [cwBits s args es i gs'], q⟩ : Closure.Unit') ∈ units :=
  let ⟨j, e, hij, he, hf⟩ := cwCovRangeHit es 0 i hi
  cwUnitLListed units gs gs' listed Qs hu s args es e j i hij hf (hv e he) q hq

/-- One call: listed vectors over a pair and its state's requirement set in `Qs` put its per-list
units among the certificate's. -/
theorem cwCoveredOneCallL (units : List Closure.Unit') (gs gs' : List Grant) (listed : String → List (List Bool))
    (Qs : List (List String)) (hu : CwUnitsFromL units gs gs' listed Qs) (s : State) (args : List (String × Json))
    (es : List Effect) (hv : CwVecsListedOn listed (gs ++ gs') s args es) (hq : s.satisfied ∈ Qs) :
    ∀ x, x ∈ cwUnitsL gs gs' s args es → x ∈ units := by
  intro x hx
  have ⟨i, hi, hxi⟩ := memMapInv _ hx
  rw [← hxi]
  exact cwUnitLAt units gs gs' listed Qs hu s args es hv s.satisfied hq i hi

/-- The whole trace: `CwCoveredL` from the two pairs' covered answers along the old run. -/
theorem cwCoveredLOfOracle (unitsU unitsA : List Closure.Unit') (p : Policy) (u' a' : List Grant)
    (E : String → Option (List Json)) (listedSU listedSA : String → List String)
    (listedU listedA : String → List (List Bool)) (acts : List String) (Qs : List (List String))
    (huU : CwUnitsFromL unitsU p.user u' listedU Qs) (huA : CwUnitsFromL unitsA p.app a' listedA Qs)
    (hansU : CwOracleCoveredOn E listedSU listedU acts p (p.user ++ u'))
    (hansA : CwOracleCoveredOn E listedSA listedA acts p (p.app ++ a'))
    (cs : List (Call × Outcome)) (s : State) (hreach : ∃ cs0, s = (runFull p (initialState p) cs0).2)
    (hside : CwOracleAlong E acts Qs p u' a' s cs) : CwCoveredL unitsU unitsA p u' a' s cs :=
  cwAlongReach (fun s c => s.satisfied ∈ Qs ∧
      ∀ t es, prepare p s c = Except.ok (t, es) → CwOracleSide E acts p u' a' c.args es)
    (fun s c => ∀ t es, prepare p s c = Except.ok (t, es) →
      (∀ x, x ∈ cwUnitsL p.user u' s c.args es → x ∈ unitsU) ∧ (∀ x, x ∈ cwUnitsL p.app a' s c.args es → x ∈ unitsA)) p
    (fun s c hr h t es hp =>
      ⟨cwCoveredOneCallL unitsU p.user u' listedU Qs huU s c.args es
        (cwVecsOfOracleOn E listedSU listedU acts p _ hansU s hr c t es hp
          (cwSideSub E acts _ _ (cwUserSub p u' a') c.args es (h.2 t es hp))) h.1,
       cwCoveredOneCallL unitsA p.app a' listedA Qs huA s c.args es
        (cwVecsOfOracleOn E listedSA listedA acts p _ hansA s hr c t es hp
          (cwSideSub E acts _ _ (cwAppSub p u' a') c.args es (h.2 t es hp))) h.1⟩)
    cs s hreach hside

/-- `cwRunFullPerList` with the coverage premise from the tool-checked oracle's covered answers on
each list pair. -/
theorem cwRunFullPerListOracle (unitsU unitsA : List Closure.Unit') (relU relA : List (Closure.Usage × Closure.Usage))
    (startU startA : Closure.Usage × Closure.Usage) (p : Policy) (u' a' : List Grant)
    (E : String → Option (List Json)) (listedSU listedSA : String → List String)
    (listedU listedA : String → List (List Bool)) (acts : List String) (Qs : List (List String))
    (hcU : Closure.closedC [cwEntries p.user] [cwEntries u'] unitsU relU startU = true)
    (hcA : Closure.closedC [cwEntries p.app] [cwEntries a'] unitsA relA startA = true)
    (huU : CwUnitsFromL unitsU p.user u' listedU Qs) (huA : CwUnitsFromL unitsA p.app a' listedA Qs)
    (hansU : CwOracleCoveredOn E listedSU listedU acts p (p.user ++ u'))
    (hansA : CwOracleCoveredOn E listedSA listedA acts p (p.app ++ a'))
    (hpa : PermitByAction p u' a') (cs : List (Call × Outcome)) (s s' : State)
    (hreach : ∃ cs0, s = (runFull p (initialState p) cs0).2) (hs : SafetyEqP s s') (hR : CwRelL relU relA p u' a' s s')
    (hcl : Client p s cs) (hside : CwOracleAlong E acts Qs p u' a' s cs) :
    List.map verdictLabel (runFull (revisedP p u' a') s' cs).1 = List.map verdictLabel (runFull p s cs).1 ∧
    allB isAllowV (runFull (revisedP p u' a') s' cs).1 = true ∧
    SafetyEqP (runFull p s cs).2 (runFull (revisedP p u' a') s' cs).2 ∧
    CwRelL relU relA p u' a' (runFull p s cs).2 (runFull (revisedP p u' a') s' cs).2 :=
  cwRunFullPerList unitsU unitsA relU relA startU startA p u' a' hcU hcA hpa cs s s' hs hR hcl
    (cwCoveredLOfOracle unitsU unitsA p u' a' E listedSU listedSA listedU listedA acts Qs huU huA hansU hansA cs s
      hreach hside)

/-- The same on permit-free lists (the paper's base monitor): no `PermitByAction` hypothesis. -/
theorem cwRunFullPerListOraclePermitFree (unitsU unitsA : List Closure.Unit')
    (relU relA : List (Closure.Usage × Closure.Usage))
    (startU startA : Closure.Usage × Closure.Usage) (p : Policy) (u' a' : List Grant)
    (E : String → Option (List Json)) (listedSU listedSA : String → List String)
    (listedU listedA : String → List (List Bool)) (acts : List String) (Qs : List (List String))
    (hcU : Closure.closedC [cwEntries p.user] [cwEntries u'] unitsU relU startU = true)
    (hcA : Closure.closedC [cwEntries p.app] [cwEntries a'] unitsA relA startA = true)
    (huU : CwUnitsFromL unitsU p.user u' listedU Qs) (huA : CwUnitsFromL unitsA p.app a' listedA Qs)
    (hansU : CwOracleCoveredOn E listedSU listedU acts p (p.user ++ u'))
    (hansA : CwOracleCoveredOn E listedSA listedA acts p (p.app ++ a'))
    (h1 : ∀ g, g ∈ p.user → g.permit = false) (h2 : ∀ g, g ∈ u' → g.permit = false)
    (h3 : ∀ g, g ∈ p.app → g.permit = false) (h4 : ∀ g, g ∈ a' → g.permit = false)
    (cs : List (Call × Outcome)) (s s' : State)
    (hreach : ∃ cs0, s = (runFull p (initialState p) cs0).2) (hs : SafetyEqP s s') (hR : CwRelL relU relA p u' a' s s')
    (hcl : Client p s cs) (hside : CwOracleAlong E acts Qs p u' a' s cs) :
    List.map verdictLabel (runFull (revisedP p u' a') s' cs).1 = List.map verdictLabel (runFull p s cs).1 ∧
    allB isAllowV (runFull (revisedP p u' a') s' cs).1 = true ∧
    SafetyEqP (runFull p s cs).2 (runFull (revisedP p u' a') s' cs).2 ∧
    CwRelL relU relA p u' a' (runFull p s cs).2 (runFull (revisedP p u' a') s' cs).2 :=
  cwRunFullPerListOracle unitsU unitsA relU relA startU startA p u' a' E listedSU listedSA listedU listedA acts Qs
    hcU hcA huU huA hansU hansA (permitFreeByAction p u' a' h1 h2 h3 h4) cs s s' hreach hs hR hcl hside

end AgentWarrant.Monitor.Full
