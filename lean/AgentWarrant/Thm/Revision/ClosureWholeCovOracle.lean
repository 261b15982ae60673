import AgentWarrant.Thm.Revision.ClosureWholeCov
import AgentWarrant.Thm.Revision.ArgCoverToolChk
import AgentWarrant.Thm.Monitor.Full.RevisionNeed
/-! The closure check on the whole monitor with its coverage premise from the tool-checked coverage
oracle's answers (Agenra Sections 1 and 7.1). For each action of a list `acts`, the policy oracle
(`argCoverPolicyAnswer`, asked about the four lists read as one, `cwAll`) answers `covered` with the
vectors `listed a`; then every call the old monitor prepares, on a state a run from the task's start
reaches, has its effects' match vectors listed (`toolChkOracleAnswerCover`), under that theorem's
per-call conditions: the effect's action is among `acts`, its resource is among `E`'s (`InE`, vacuous
when `E` is `none`), the call names no argument twice, and a value compared with an array or object
constant passes the oracle's checks (vacuous on entries without such constants). With the check's
units built from the listed vectors and the requirement sets `Qs` (`CwUnitsFrom`) and each state's
requirement list in `Qs`, that is `CwCovered` along the old run, and the closure theorem follows.
States stay reachable along the run: a reached state's step is reached (`cwReachStep`, `cwAlongReach`).
The oracle's facts are stated on any grant list `G` (`CwOracleCoveredOn`, `CwOracleSideOn`,
`CwVecsListedOn`, `cwVecsOfOracleOn`); the joint ones are their instance on the four lists read as one,
`G = cwAll p u' a'`, and the per-list forms read them on each list pair. -/
namespace AgentWarrant.Monitor.Full
open Lean AgentWarrant AgentWarrant.Monitor AgentWarrant.Monitor.Run AgentWarrant.Revision

theorem cwRunFullApp (p : Policy) : ∀ (xs ys : List (Call × Outcome)) (s : State),
    (runFull p s (xs ++ ys)).2 = (runFull p (runFull p s xs).2 ys).2
  | [], ys, s => rfl
  | (c, o) :: xs, ys, s => by
    rw [List.cons_append]
    exact cwRunFullApp p xs ys (stepFull p s c o).2

theorem cwReachStep (p : Policy) (s : State) (c : Call) (o : Outcome)
    (h : ∃ cs, s = (runFull p (initialState p) cs).2) : ∃ cs, (stepFull p s c o).2 = (runFull p (initialState p) cs).2 :=
  let ⟨cs, hs⟩ := h
  ⟨cs ++ [(c, o)], by rw [cwRunFullApp, ← hs]; rfl⟩

/-- The tool-checked policy oracle answers `covered` for every action of `acts`, asked about the
grant list `G` with the vectors `listed a`. -/
def CwOracleCoveredOn (E : String → Option (List Json)) (listedS : String → List String)
    (listed : String → List (List Bool)) (acts : List String) (p : Policy) (G : List Grant) : Prop :=
  ∀ a, a ∈ acts → (Oracle.ArgCoverToolChk.argCoverPolicyAnswer a p.tools G (E a) (listedS a)
    (listed a)).getObjVal? "answer" = Except.ok (Json.str "covered")

/-- The coverage theorem's per-call conditions on the grant list `G`, for a call with arguments
`args` and prepared effects `es`. -/
def CwOracleSideOn (E : String → Option (List Json)) (acts : List String) (G : List Grant)
    (args : List (String × Json)) (es : List Effect) : Prop :=
  ArgCover.keysDistinct args = true ∧ ∀ e, e ∈ es → e.action ∈ acts ∧ ArgCover.InE (E e.action) e ∧
    (allB ArgCover.grantOk (ArgCover.ofAction e.action G) = false → ArgCover.JsonPathsAdmitted e.action G args)

/-- Every effect's match vector over `G` is among its action's listed vectors. -/
def CwVecsListedOn (listed : String → List (List Bool)) (G : List Grant) (s : State)
    (args : List (String × Json)) (es : List Effect) : Prop :=
  ∀ e, e ∈ es → anyB (fun u => Decidable.decide (u = G.map (fun g => grantMatches s args g e))) (listed e.action) = true

/-- One call on a reachable state: covered answers on `G` give its effects' listed vectors over `G`. -/
theorem cwVecsOfOracleOn (E : String → Option (List Json)) (listedS : String → List String)
    (listed : String → List (List Bool)) (acts : List String) (p : Policy) (G : List Grant)
    (hans : CwOracleCoveredOn E listedS listed acts p G) (s : State)
    (hreach : ∃ cs, s = (runFull p (initialState p) cs).2) (c : Call) (t : Tool) (es : List Effect)
    (hprep : prepare p s c = Except.ok (t, es)) (hside : CwOracleSideOn E acts G c.args es) :
    CwVecsListedOn listed G s c.args es :=
  fun e he => ArgCover.toolChkOracleAnswerCover p e.action G (E e.action) (listedS e.action)
    (listed e.action) (hans e.action (hside.2 e he).1) s hreach c t es hprep e he rfl (hside.2 e he).2.1 hside.1
    (hside.2 e he).2.2

/-- A fact of each call along the old run follows from another on states a run from the task's start
reaches. -/
theorem cwAlongReach (P Q : State → Call → Prop) (p : Policy)
    (h : ∀ s c, (∃ cs0, s = (runFull p (initialState p) cs0).2) → P s c → Q s c) :
    ∀ (cs : List (Call × Outcome)) (s : State), (∃ cs0, s = (runFull p (initialState p) cs0).2) →
    AlongTrace P p s cs → AlongTrace Q p s cs
  | [], _, _, _ => trivial
  | (c, o) :: cs, s, hr, hP => by
    have hP' : P s c ∧ AlongTrace P p (stepFull p s c o).2 cs := hP
    exact ⟨h s c hr hP'.1, cwAlongReach P Q p h cs _ (cwReachStep p s c o hr) hP'.2⟩

/-- The joint instance: the oracle asked about the four lists read as one. -/
abbrev CwOracleCovered (E : String → Option (List Json)) (listedS : String → List String)
    (listed : String → List (List Bool)) (acts : List String) (p : Policy) (u' a' : List Grant) : Prop :=
  CwOracleCoveredOn E listedS listed acts p (cwAll p u' a')

/-- The joint instance of the per-call conditions, on the four lists read as one. -/
abbrev CwOracleSide (E : String → Option (List Json)) (acts : List String) (p : Policy) (u' a' : List Grant)
    (args : List (String × Json)) (es : List Effect) : Prop :=
  CwOracleSideOn E acts (cwAll p u' a') args es

theorem cwVecsOfOracle (E : String → Option (List Json)) (listedS : String → List String)
    (listed : String → List (List Bool)) (acts : List String) (p : Policy) (u' a' : List Grant)
    (hans : CwOracleCovered E listedS listed acts p u' a') (s : State)
    (hreach : ∃ cs, s = (runFull p (initialState p) cs).2) (c : Call) (t : Tool) (es : List Effect)
    (hprep : prepare p s c = Except.ok (t, es)) (hside : CwOracleSide E acts p u' a' c.args es) :
    CwVecsListed listed p u' a' s c.args es :=
  cwVecsOfOracleOn E listedS listed acts p (cwAll p u' a') hans s hreach c t es hprep hside

/-- Along the old run: each state's requirement list in `Qs`, and each prepared call meets the
coverage theorem's per-call conditions. -/
abbrev CwOracleAlong (E : String → Option (List Json)) (acts : List String) (Qs : List (List String)) (p : Policy)
    (u' a' : List Grant) : State → List (Call × Outcome) → Prop :=
  AlongTrace (fun s c => s.satisfied ∈ Qs ∧
    ∀ t es, prepare p s c = Except.ok (t, es) → CwOracleSide E acts p u' a' c.args es) p

theorem cwListedOfOracle (E : String → Option (List Json)) (listedS : String → List String)
    (listed : String → List (List Bool)) (acts : List String) (Qs : List (List String)) (p : Policy)
    (u' a' : List Grant) (hans : CwOracleCovered E listedS listed acts p u' a') (cs : List (Call × Outcome))
    (s : State) (hr : ∃ cs0, s = (runFull p (initialState p) cs0).2) (h : CwOracleAlong E acts Qs p u' a' s cs) :
    CwListedAlong listed Qs p u' a' s cs :=
  cwAlongReach _ _ p (fun s c hr h => ⟨h.1, fun t es hp => cwVecsOfOracle E listedS listed acts p u' a' hans s hr c t es hp
    (h.2 t es hp)⟩) cs s hr h

/-- `cwRunFull` with the coverage premise from the tool-checked oracle's covered answers. -/
theorem cwRunFullOracle (units : List Closure.Unit') (rel : List (Closure.Usage × Closure.Usage))
    (start : Closure.Usage × Closure.Usage) (p : Policy) (u' a' : List Grant)
    (E : String → Option (List Json)) (listedS : String → List String) (listed : String → List (List Bool))
    (acts : List String) (Qs : List (List String))
    (hc : Closure.closedC (cwLists p.user p.app) (cwLists u' a') units rel start = true)
    (hu : CwUnitsFrom units p u' a' listed Qs) (hans : CwOracleCovered E listedS listed acts p u' a')
    (hpa : PermitByAction p u' a') (cs : List (Call × Outcome)) (s s' : State)
    (hreach : ∃ cs0, s = (runFull p (initialState p) cs0).2) (hs : SafetyEqP s s') (hR : CwRel rel p u' a' s s')
    (hcl : Client p s cs) (hside : CwOracleAlong E acts Qs p u' a' s cs) :
    List.map verdictLabel (runFull (revisedP p u' a') s' cs).1 = List.map verdictLabel (runFull p s cs).1 ∧
    allB isAllowV (runFull (revisedP p u' a') s' cs).1 = true ∧
    SafetyEqP (runFull p s cs).2 (runFull (revisedP p u' a') s' cs).2 ∧
    CwRel rel p u' a' (runFull p s cs).2 (runFull (revisedP p u' a') s' cs).2 :=
  cwRunFullListed units rel start p u' a' listed Qs hc hu hpa cs s s' hs hR hcl
    (cwListedOfOracle E listedS listed acts Qs p u' a' hans cs s hreach hside)

/-- The same on permit-free lists (the paper's base monitor): no `PermitByAction` hypothesis. -/
theorem cwRunFullOraclePermitFree (units : List Closure.Unit') (rel : List (Closure.Usage × Closure.Usage))
    (start : Closure.Usage × Closure.Usage) (p : Policy) (u' a' : List Grant)
    (E : String → Option (List Json)) (listedS : String → List String) (listed : String → List (List Bool))
    (acts : List String) (Qs : List (List String))
    (hc : Closure.closedC (cwLists p.user p.app) (cwLists u' a') units rel start = true)
    (hu : CwUnitsFrom units p u' a' listed Qs) (hans : CwOracleCovered E listedS listed acts p u' a')
    (h1 : ∀ g, g ∈ p.user → g.permit = false) (h2 : ∀ g, g ∈ u' → g.permit = false)
    (h3 : ∀ g, g ∈ p.app → g.permit = false) (h4 : ∀ g, g ∈ a' → g.permit = false)
    (cs : List (Call × Outcome)) (s s' : State)
    (hreach : ∃ cs0, s = (runFull p (initialState p) cs0).2) (hs : SafetyEqP s s') (hR : CwRel rel p u' a' s s')
    (hcl : Client p s cs) (hside : CwOracleAlong E acts Qs p u' a' s cs) :
    List.map verdictLabel (runFull (revisedP p u' a') s' cs).1 = List.map verdictLabel (runFull p s cs).1 ∧
    allB isAllowV (runFull (revisedP p u' a') s' cs).1 = true ∧
    SafetyEqP (runFull p s cs).2 (runFull (revisedP p u' a') s' cs).2 ∧
    CwRel rel p u' a' (runFull p s cs).2 (runFull (revisedP p u' a') s' cs).2 :=
  cwRunFullOracle units rel start p u' a' E listedS listed acts Qs hc hu hans
    (permitFreeByAction p u' a' h1 h2 h3 h4) cs s s' hreach hs hR hcl hside

end AgentWarrant.Monitor.Full
