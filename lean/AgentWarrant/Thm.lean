import AgentWarrant.Thm.Monitor.Labels
import AgentWarrant.Thm.Monitor.Ledger
import AgentWarrant.Thm.Monitor.Capacity
import AgentWarrant.Thm.Monitor.Step
import AgentWarrant.Thm.Monitor.Transition
import AgentWarrant.Thm.Edits.Information
import AgentWarrant.Thm.Edits.Rename
import AgentWarrant.Thm.Edits.Deletion
import AgentWarrant.Thm.Edits.Record
import AgentWarrant.Thm.Edits.Reach
import AgentWarrant.Thm.Edits.RecordExact
import AgentWarrant.Thm.Edits.RecordReach
import AgentWarrant.Thm.Edits.Canonical
import AgentWarrant.Thm.Edits.RecheckContract
import AgentWarrant.Thm.Monitor.Full.Admitted
import AgentWarrant.Thm.Monitor.Full.Determinism
import AgentWarrant.Thm.Monitor.Full.Revision
import AgentWarrant.Thm.Monitor.Full.ValidLabels
import AgentWarrant.Thm.Monitor.Full.RevisionCert
import AgentWarrant.Thm.Monitor.Full.RevisionNeed
import AgentWarrant.Thm.Monitor.Full.Naming
import AgentWarrant.Thm.Monitor.Full.AdmittedMeaning
import AgentWarrant.Thm.Monitor.Decode
import AgentWarrant.Thm.Monitor.DecodeFind
import AgentWarrant.Thm.Monitor.DecodeExact
import AgentWarrant.Thm.Monitor.DecodeVerdict
import AgentWarrant.Thm.Oracle.Keys
import AgentWarrant.Thm.Monitor.Registration
import AgentWarrant.Thm.Edits.WellFormed
import AgentWarrant.Thm.Edits.Bridge
import AgentWarrant.Thm.Edits.Verify
import AgentWarrant.Thm.Edits.Input
import AgentWarrant.Thm.Edits.Certificate
import AgentWarrant.Thm.Edits.Term
import AgentWarrant.Thm.Edits.Derive
import AgentWarrant.Thm.Revision.Structural
import AgentWarrant.Thm.Revision.Closure
import AgentWarrant.Thm.Revision.ClosureWholeRun
import AgentWarrant.Thm.Revision.ClosureWholeCovOracle
import AgentWarrant.Thm.Revision.ClosureWholePerOracle
import AgentWarrant.Thm.Revision.ClosureWholeCovReq
import AgentWarrant.Thm.Revision.ClosureWholeCovAllow
import AgentWarrant.Thm.Revision.ClosureWholePerReq
import AgentWarrant.Thm.Revision.ClosureWholePerReqAllow
import AgentWarrant.Thm.Revision.ClosureWholeUnitsChk
import AgentWarrant.Thm.Edits.Machine
import AgentWarrant.Thm.Edits.MachineSaved
import AgentWarrant.Thm.Edits.DeriveTree
import AgentWarrant.Thm.Edits.DeriveTreeCurrent
import AgentWarrant.Thm.Edits.DeriveTreeKeep
import AgentWarrant.Thm.Edits.DeriveTreeSeq
import AgentWarrant.Thm.Edits.DeriveTreeAddr
import AgentWarrant.Thm.Edits.DeriveTreeRoot
import AgentWarrant.Thm.Edits.DeriveTreeSeq2
import AgentWarrant.Thm.Edits.Cost
import AgentWarrant.Thm.Edits.CostFamily
import AgentWarrant.Thm.Edits.Register
import AgentWarrant.Thm.Edits.Cover
import AgentWarrant.Thm.Revision.ArgCoverBuild
import AgentWarrant.Thm.Revision.ArgCoverMonitor
import AgentWarrant.Thm.Revision.ArgCoverWay
import AgentWarrant.Thm.Revision.ArgCoverWayKeys
import AgentWarrant.Thm.Revision.ArgCoverBuildAPrep
import AgentWarrant.Thm.Revision.ArgCoverAdmCall
import AgentWarrant.Thm.Revision.ArgCoverSame
import AgentWarrant.Thm.Revision.ArgCoverResA
import AgentWarrant.Thm.Revision.ArgCoverResReg
import AgentWarrant.Thm.Revision.ArgCoverToolChk
import AgentWarrant.Thm.Revision.ArgCoverWayEx
import AgentWarrant.Thm.Revision.ArgCoverFacts
import AgentWarrant.Thm.Revision.ArgCoverNeq
import AgentWarrant.Thm.Revision.ArgCoverClass
import AgentWarrant.Thm.Revision.ArgCoverClassA
import AgentWarrant.Thm.Revision.ArgCoverClassR
import AgentWarrant.Thm.Revision.ArgCoverNeqQ
import AgentWarrant.Thm.Revision.ArgCoverClassSame
import AgentWarrant.Thm.Revision.ArgCoverClassAll
import AgentWarrant.Thm.Revision.ArgCoverClassConv
import AgentWarrant.Thm.Revision.ArgCoverClassConvA
import AgentWarrant.Thm.Revision.ArgCoverClassConvR
import AgentWarrant.Thm.Revision.ArgCoverClassChk
import AgentWarrant.Thm.Revision.ArgCoverUncChk
import AgentWarrant.Thm.Revision.ArgCoverNull
import AgentWarrant.Thm.Monitor.Full.JsonExact
import AgentWarrant.Thm.Monitor.Full.SlotDesignated
import AgentWarrant.Thm.Edits.DeriveTreeJudged
import AgentWarrant.Thm.Edits.DeriveTreeIdealN
import AgentWarrant.Thm.Edits.RegisteredRootTree
import AgentWarrant.Thm.Edits.DeriveTreeSrc
import AgentWarrant.Thm.Edits.DeriveTreeNames
import AgentWarrant.Thm.Edits.DeriveTreeRunJ
import AgentWarrant.Thm.Edits.DeriveTreeArityMergeSelect
import AgentWarrant.Thm.Edits.TreeContract
import AgentWarrant.Thm.Edits.TreeContractInst
import AgentWarrant.Thm.Edits.TreeContractInstRoot
import AgentWarrant.Thm.Edits.BisimJudged
/-! The headline results, each stated once in plain words and proved by the lemma named in its
proof (in the mirrored `Thm/` file of the judgment). docs/lean.md tabulates them against the
papers' statements. Definitions live in `Spec/`; nothing here defines behaviour. -/
namespace AgentWarrant.Thm
open AgentWarrant.Monitor

-- Monitor: labels (Agenra Section 4.2) --------------------------------------------------------

/-- Joining labels is order-insensitive: `a ⊔ b = b ⊔ a`. -/
theorem labelJoinCommutative (a b : Label) : join a b = join b a := joinComm a b

/-- Joining labels is associative: `(a ⊔ b) ⊔ c = a ⊔ (b ⊔ c)`. -/
theorem labelJoinAssociative (a b c : Label) : join (join a b) c = join a (join b c) := joinAssoc a b c

/-- Joining a label with itself changes nothing. -/
theorem labelJoinIdempotent (a : Label) : join a a = a := joinIdem a

/-- The bottom label `(lowest, ∅, trusted)` is the unit of join. -/
theorem labelJoinBottom (a : Label) : join bot a = a := joinBot a

-- Monitor: first-fit ledger (Agenra Section 5.2) ----------------------------------------------

/-- The two-list charge is all-or-nothing: it succeeds exactly when both lists serve the batch. -/
theorem chargeAllOrNothing (u a : List Acct) (es : List Nat) (pu pa : List Nat) :
    allocBoth u a es = some (pu, pa) ↔ alloc u es = some pu ∧ alloc a es = some pa :=
  allocBothAllOrNothing u a es pu pa

/-- Appending grants to a list never changes an allocation that already succeeded. -/
theorem allocationPrefixCompatible (x l : List Acct) (es ps : List Nat) (h : alloc l es = some ps) :
    alloc (l ++ x) es = some ps := allocAppend x es l ps h

/-- Raising capacities (same grants, same order) never makes a served batch unservable. -/
theorem capacityExtensionMonotone (es : List Nat) {l n : List Acct} (hx : Ext l n) (ps : List Nat)
    (h : alloc l es = some ps) : ∃ qs, alloc n es = some qs := allocExt es hx ps h

-- Monitor: the transition (Agenra Section 6) ---------------------------------------------------

/-- Pause and Deny leave the state (counters and trace) exactly as it was. -/
theorem onlyAllowChangesState (i : StepIn) (hd : ∀ l pu pa, decide i ≠ Decision.allow l pu pa) :
    (step i).usedUser = List.map Entry.used i.user ∧ (step i).usedApp = List.map Entry.used i.app ∧
    (step i).trace = i.trace := stepOnlyAllowChanges i hd

/-- An Allow appends exactly the decided record's label to the trace. -/
theorem allowAppendsItsLabel (i : StepIn) (l : Label) (pu pa : List Nat) (h : decide i = Decision.allow l pu pa) :
    (step i).trace = i.trace ++ [l] := (stepAllowAppends i l pu pa h).1

-- Monitor: the whole transition (Agenra Sections 6.2, 6.3) ----------------------------------------

/-- The whole monitor: Pause and Deny leave the state (trace, bindings, counters, permits) unchanged. -/
theorem wholeOnlyAllowChanges (p : Full.Policy) (s : Full.State) (c : Full.Call) (o : Full.Outcome)
    (hd : ∀ l pu pa k, Full.decideFull p s c ≠ Full.Verdict.allow l pu pa k) : (Full.stepFull p s c o).2 = s :=
  Full.stepFullOnlyAllowChanges p s c o hd

/-- The whole monitor: when an admitted tool fails, the state is the commit alone — the charges and
the consumed permit stay (no refund), and no handle, binding or invalidation results. -/
theorem wholeFailureKeepsCommit (p : Full.Policy) (s : Full.State) (c : Full.Call) (v : Lean.Json) (l : Label)
    (pu pa : List Nat) (k : Option Nat) (h : Full.decideFull p s c = Full.Verdict.allow l pu pa k) :
    (Full.stepFull p s c ⟨false, v⟩).2 = Full.commit p s c l pu pa k :=
  Full.stepFullFailureKeepsCommit p s c v l pu pa k h

-- Execution edits: what the checker must know (Exact Checking for Execution Edits, Theorem 4) ----

/-- A view of the checked record that keeps only some of its four parts (workflow and required
results; which calls share an action; earlier authorizations and progress; the active rule
version) answers every check and rule-update request correctly exactly when it keeps all four. -/
theorem exactNeedsAllFourParts (J : AgentWarrant.Edits.Part → Bool) :
    AgentWarrant.Edits.Exact (AgentWarrant.Edits.keepJ J) ↔ ∀ x, J x = true :=
  AgentWarrant.Edits.keepExactIff J

/-- Forgetting only which action each earlier authorization names already makes some check
answer wrong. -/
theorem authorizationActionsNeeded : ¬ AgentWarrant.Edits.Exact AgentWarrant.Edits.dropRA :=
  AgentWarrant.Edits.dropRAInexact

/-- The same with records compared the paper's way, up to a consistent renaming of calls,
actions, rule versions and result IDs: a view keeping some of the four parts is exact (views and
requests that are renamings of each other always get answers that are renamings of each other)
exactly when it keeps all four; the finite checker commutes with every such renaming. -/
theorem exactUpToRenamingNeedsAllFourParts (J : AgentWarrant.Edits.Part → Bool) :
    AgentWarrant.Edits.ExactR AgentWarrant.Edits.renView AgentWarrant.Edits.FitsView
      (AgentWarrant.Edits.keepJ J) ↔ ∀ x, J x = true :=
  AgentWarrant.Edits.keepExactRIff J

/-- The same over the runtime's reachable states: on the records of machine states reached from
the common initial state (under one derivation standing for `Derive`), with the requests an Agent
holds there, a view keeping some of the four parts is exact up to renaming exactly when it keeps
all four; Table II's pairs are records of reachable states. -/
theorem theorem4OnReachableStates (J : AgentWarrant.Edits.Part → Bool) :
    AgentWarrant.Edits.Reach.ExactROn
      (AgentWarrant.Edits.Reach.ReachRec AgentWarrant.Edits.Reach.der0 AgentWarrant.Edits.Reach.root0)
      (AgentWarrant.Edits.Reach.ReachQ AgentWarrant.Edits.Reach.der0 AgentWarrant.Edits.Reach.root0)
      AgentWarrant.Edits.renView AgentWarrant.Edits.FitsView (AgentWarrant.Edits.keepJ J) ↔ ∀ x, J x = true :=
  AgentWarrant.Edits.Reach.keepExactReachIff J

/-- Renaming the private identifiers of a record and then keeping the parts in `J` gives the
renamed view: what a partial view shows does not depend on how identifiers are spelled. -/
theorem keepingPartsCommutesWithRenaming (J : AgentWarrant.Edits.Part → Bool) (π : AgentWarrant.Edits.Ren)
    (V : AgentWarrant.Edits.Record) :
    AgentWarrant.Edits.keepJ J (AgentWarrant.Edits.renRec π V) =
      AgentWarrant.Edits.renView π (AgentWarrant.Edits.keepJ J V) :=
  AgentWarrant.Edits.keepJRen J V

/-- The paper's views as it defines them, by recursive deletion, commute with renaming: take a
record as a finite list of facts with an explicit dependency relation; renaming the facts' names by
a bijection and their contents consistently, then keeping the parts in `J` (or dropping the
call → action, or the authorization → action, correspondence) together with removing everything
that depends on what is dropped, gives the renamed result of doing it the other way round. The
deletion is one pass along the dependency order; on an acyclic record with distinct names it keeps
exactly the facts the order-free recursive definition keeps, and that definition commutes with
renaming as well. -/
theorem recursiveViewsCommuteWithRenaming {α : Type} (ρ : AgentWarrant.Edits.Perm) (r : α → α)
    (J : AgentWarrant.Edits.Part → Bool) (G : AgentWarrant.Edits.Graph α) :
    AgentWarrant.Edits.keepJG J (AgentWarrant.Edits.renGraph ρ r G) =
      AgentWarrant.Edits.renGraph ρ r (AgentWarrant.Edits.keepJG J G) ∧
    AgentWarrant.Edits.dropCAG (AgentWarrant.Edits.renGraph ρ r G) =
      AgentWarrant.Edits.renGraph ρ r (AgentWarrant.Edits.dropCAG G) ∧
    AgentWarrant.Edits.dropRAG (AgentWarrant.Edits.renGraph ρ r G) =
      AgentWarrant.Edits.renGraph ρ r (AgentWarrant.Edits.dropRAG G) ∧
    (∀ omit n, AgentWarrant.Edits.Removed omit (AgentWarrant.Edits.renGraph ρ r G) (ρ.f n) ↔
      AgentWarrant.Edits.Removed omit G n) :=
  ⟨AgentWarrant.Edits.keepJGRen ρ r J G, AgentWarrant.Edits.dropCAGRen ρ r G, AgentWarrant.Edits.dropRAGRen ρ r G,
   fun omit n => AgentWarrant.Edits.removedRen ρ r omit G n⟩

/-- The checked record, written one fact per entry (each workflow call and the action it refers to,
each earlier authorization with its creator, the action it names and its label, the action labels,
the workflow, policy state, queued requests and active rule version), in dependency order: this
graph is acyclic with distinct names, so the recursive views apply to it and commute with renaming;
dropping the authorization → action correspondence from it, together with the creator calls'
actions that would reconstruct it and everything depending on them, leaves exactly the fixed
`Drop_ra` view; and that recursive view is not exact even up to renaming, because the paper's
`Drop_ra` record pair becomes the same graph after it while the two records get opposite answers.
Keeping the parts in `J`, with everything depending on another part removed, leaves exactly the
fixed `Keep_J` view, and dropping the call → action correspondence exactly the fixed `Drop_ca`. -/
theorem recordGraphRecursiveViews (V : AgentWarrant.Edits.Record) (ρ : AgentWarrant.Edits.Perm)
    (r : AgentWarrant.Edits.RVal → AgentWarrant.Edits.RVal) (J : AgentWarrant.Edits.Part → Bool) :
    (AgentWarrant.Edits.Acyclic (AgentWarrant.Edits.recordGraph V) ∧
      AgentWarrant.Edits.NamesDistinct (AgentWarrant.Edits.recordGraph V)) ∧
    AgentWarrant.Edits.keepJG J (AgentWarrant.Edits.renGraph ρ r (AgentWarrant.Edits.recordGraph V)) =
      AgentWarrant.Edits.renGraph ρ r (AgentWarrant.Edits.keepJG J (AgentWarrant.Edits.recordGraph V)) ∧
    AgentWarrant.Edits.dropCAG (AgentWarrant.Edits.renGraph ρ r (AgentWarrant.Edits.recordGraph V)) =
      AgentWarrant.Edits.renGraph ρ r (AgentWarrant.Edits.dropCAG (AgentWarrant.Edits.recordGraph V)) ∧
    AgentWarrant.Edits.dropRAG (AgentWarrant.Edits.renGraph ρ r (AgentWarrant.Edits.recordGraph V)) =
      AgentWarrant.Edits.renGraph ρ r (AgentWarrant.Edits.dropRAG (AgentWarrant.Edits.recordGraph V)) ∧
    AgentWarrant.Edits.raViewOf (AgentWarrant.Edits.dropRAG (AgentWarrant.Edits.recordGraph V)) =
      AgentWarrant.Edits.dropRA V ∧
    ¬ AgentWarrant.Edits.ExactR AgentWarrant.Edits.renRG AgentWarrant.Edits.FitsRG
      (fun V => AgentWarrant.Edits.dropRAG (AgentWarrant.Edits.recordGraph V)) ∧
    AgentWarrant.Edits.viewOfRG (AgentWarrant.Edits.keepJG J (AgentWarrant.Edits.recordGraph V)) =
      AgentWarrant.Edits.keepJ J V ∧
    AgentWarrant.Edits.caViewOfRG (AgentWarrant.Edits.dropCAG (AgentWarrant.Edits.recordGraph V)) =
      AgentWarrant.Edits.dropCA V :=
  let h := AgentWarrant.Edits.recordGraphViewsRen V ρ r J
  ⟨h.1, h.2.1, h.2.2.1, h.2.2.2, AgentWarrant.Edits.dropRAInstance V, AgentWarrant.Edits.dropRAGInexactR,
   AgentWarrant.Edits.keepJInstanceR J V, AgentWarrant.Edits.dropCAInstanceR V⟩

/-- Renaming the checked record's calls is not a renaming of the record written one fact per entry:
exchanging two calls, only the first of which created an authorization, fits the record, yet no
renaming of fact names and values (which keeps each fact's kind in place) carries the graph of the
record to the graph of the renamed record, because that graph lists each call's facts in call order.
A fitting renaming that keeps every call of the record is the renaming of the graph's values. -/
theorem recordRenamingNotGraphRenaming :
    (AgentWarrant.Edits.Fits AgentWarrant.Edits.callSwap AgentWarrant.Edits.recSw ∧
    ∀ (ρ : AgentWarrant.Edits.Perm) (r : AgentWarrant.Edits.RVal → AgentWarrant.Edits.RVal),
      AgentWarrant.Edits.recordGraph (AgentWarrant.Edits.renRec AgentWarrant.Edits.callSwap AgentWarrant.Edits.recSw) ≠
        AgentWarrant.Edits.renGraph ρ r (AgentWarrant.Edits.recordGraph AgentWarrant.Edits.recSw)) ∧
    ∀ (π : AgentWarrant.Edits.Ren) (V : AgentWarrant.Edits.Record), AgentWarrant.Edits.Fits π V →
      (∀ j, AgentWarrant.Mem j (AgentWarrant.Edits.upto 0 (List.length V.i.act)) → π.call.f j = j) →
      AgentWarrant.Edits.recordGraph (AgentWarrant.Edits.renRec π V) =
        AgentWarrant.Edits.renRG π (AgentWarrant.Edits.recordGraph V) :=
  ⟨AgentWarrant.Edits.recordRenNotGraphRen, AgentWarrant.Edits.recordGraphRenFixed⟩

/-- Theorem 4 with the views the paper's recursive deletions of the checked record written one fact
per entry: keeping the facts of some of the four parts, and removing everything that depends on
another part, is exact up to renaming (graphs that are renamings of each other get answers that are
renamings of each other) exactly when all four parts are kept — on every record, and on the records
of the runtime's states reached from the common initial state with the requests an Agent holds
there; dropping the call → action correspondence, or which action each authorization names, this
way is not exact, on every record and on the records of reachable states. -/
theorem theorem4OverRecordGraph (J : AgentWarrant.Edits.Part → Bool) :
    (AgentWarrant.Edits.ExactR AgentWarrant.Edits.renRG AgentWarrant.Edits.FitsRGK
      (fun V => AgentWarrant.Edits.keepJG J (AgentWarrant.Edits.recordGraph V)) ↔ ∀ x, J x = true) ∧
    (AgentWarrant.Edits.Reach.ExactROn
      (AgentWarrant.Edits.Reach.ReachRec AgentWarrant.Edits.Reach.der0 AgentWarrant.Edits.Reach.root0)
      (AgentWarrant.Edits.Reach.ReachQ AgentWarrant.Edits.Reach.der0 AgentWarrant.Edits.Reach.root0)
      AgentWarrant.Edits.renRG AgentWarrant.Edits.FitsRGK
      (fun V => AgentWarrant.Edits.keepJG J (AgentWarrant.Edits.recordGraph V)) ↔ ∀ x, J x = true) ∧
    ¬ AgentWarrant.Edits.ExactR AgentWarrant.Edits.renRG AgentWarrant.Edits.FitsRGCA
      (fun V => AgentWarrant.Edits.dropCAG (AgentWarrant.Edits.recordGraph V)) ∧
    ¬ AgentWarrant.Edits.Reach.ExactROn
      (AgentWarrant.Edits.Reach.ReachRec AgentWarrant.Edits.Reach.der0 AgentWarrant.Edits.Reach.root0)
      (AgentWarrant.Edits.Reach.ReachQ AgentWarrant.Edits.Reach.der0 AgentWarrant.Edits.Reach.root0)
      AgentWarrant.Edits.renRG AgentWarrant.Edits.FitsRGCA
      (fun V => AgentWarrant.Edits.dropCAG (AgentWarrant.Edits.recordGraph V)) ∧
    ¬ AgentWarrant.Edits.Reach.ExactROn
      (AgentWarrant.Edits.Reach.ReachRec AgentWarrant.Edits.Reach.der0 AgentWarrant.Edits.Reach.root0)
      (AgentWarrant.Edits.Reach.ReachQ AgentWarrant.Edits.Reach.der0 AgentWarrant.Edits.Reach.root0)
      AgentWarrant.Edits.renRG AgentWarrant.Edits.FitsRG
      (fun V => AgentWarrant.Edits.dropRAG (AgentWarrant.Edits.recordGraph V)) :=
  ⟨AgentWarrant.Edits.keepRGExactRIff J, AgentWarrant.Edits.Reach.keepRGExactReachIff J,
   AgentWarrant.Edits.dropCAGRInexactR, AgentWarrant.Edits.Reach.dropCAGRInexactReach,
   AgentWarrant.Edits.Reach.dropRAGRInexactReach⟩

-- Execution edits: the runtime's automaton (Exact Checking for Execution Edits, Section VI-A) -------

/-- For a safe edit, the canonical automaton built from the largest safe execution set allows
exactly the safe partial executions and accepts exactly the safe complete ones. -/
theorem canonicalAutomatonLanguages (θ : AgentWarrant.Edits.Theta) (h : θ.SafeEdit) :
    (∀ z, (AgentWarrant.Edits.can θ.Wdag θ.Bproj).Gen z ↔ θ.Wdag z) ∧
    (∀ z, (AgentWarrant.Edits.can θ.Wdag θ.Bproj).Marked z ↔ θ.Bproj z) :=
  AgentWarrant.Edits.canDagLanguages θ h

/-- The canonical automaton is the smallest: any deterministic automaton with the same allowed and
accepted executions maps its reachable states onto the canonical automaton's. -/
theorem canonicalAutomatonMinimal {Q : Type} (M : AgentWarrant.Edits.Aut Q) (θ : AgentWarrant.Edits.Theta)
    (h : θ.SafeEdit) (hM : M.Det) (hG : ∀ z, M.Gen z ↔ θ.Wdag z) (hK : ∀ z, M.Marked z ↔ θ.Bproj z) :
    (∀ z z' q S S', M.Run M.init z q → M.Run M.init z' q →
      (AgentWarrant.Edits.can θ.Wdag θ.Bproj).Run (AgentWarrant.Edits.can θ.Wdag θ.Bproj).init z S →
      (AgentWarrant.Edits.can θ.Wdag θ.Bproj).Run (AgentWarrant.Edits.can θ.Wdag θ.Bproj).init z' S' → S = S') ∧
    (∀ z S, (AgentWarrant.Edits.can θ.Wdag θ.Bproj).Run (AgentWarrant.Edits.can θ.Wdag θ.Bproj).init z S →
      ∃ q, M.Run M.init z q) :=
  AgentWarrant.Edits.canMinimal (AgentWarrant.Edits.wdagPrefixClosed θ) (AgentWarrant.Edits.wdagNil θ h) hM hG hK

-- Execution edits: rechecking after a partial execution (Exact Checking for Execution Edits, V-C4) ---

/-- After any permitted partial execution, checking the remaining contract from scratch (the
residual pomsets, with the authorizations the partial execution added) gives exactly the
continuations the original answer allowed: the same safe complete and partial executions. -/
theorem recheckGivesResidual (θ : AgentWarrant.Edits.Theta) (z : AgentWarrant.Edits.Word) (hz : θ.Wdag z) :
    (∀ o y, (θ.after z).Bdag (o, y) ↔ θ.Bdag (o, z ++ y)) ∧ (∀ v, (θ.after z).Wdag v ↔ θ.Wdag (z ++ v)) :=
  AgentWarrant.Edits.recheckContract θ z hz

-- Monitor: invariants of the whole monitor over every trace (Agenra Sections 6.1, 6.2) --------------

/-- The whole monitor, over every trace of calls and outcomes: if every counter starts within the
installed policy's quota (one counter per grant on each list), no counter of either list ever
exceeds its quota. -/
theorem wholeQuotaNeverExceeded (p : Full.Policy) (cs : List (Full.Call × Full.Outcome)) (s : Full.State)
    (h : Full.QuotaOk p s) : Full.QuotaOk p (Full.runFull p s cs).2 :=
  Full.runFullQuota p cs s h

/-- The whole monitor's Allow commit changes exactly this: one record appended (the decided label,
the call's parents, not yet successful), both charge vectors added to the counters, the chosen
permit consumed; bindings, invalid slots and satisfied requirements are untouched. -/
theorem wholeCommitChanges (p : Full.Policy) (s : Full.State) (c : Full.Call) (l : Label) (pu pa : List Nat)
    (k : Option Nat) :
    (∃ r : Full.Record, (Full.commit p s c l pu pa k).trace = s.trace ++ [r] ∧ r.label = l ∧
      r.parents = c.parents ∧ r.ok = false) ∧
    (Full.commit p s c l pu pa k).usedUser = addVec s.usedUser (chargeVec 0 (List.length s.usedUser) pu) ∧
    (Full.commit p s c l pu pa k).usedApp = addVec s.usedApp (chargeVec 0 (List.length s.usedApp) pa) ∧
    (Full.commit p s c l pu pa k).permits =
      s.permits.map (fun q => if some q.id == k then { q with consumed := true } else q) ∧
    (Full.commit p s c l pu pa k).bindings = s.bindings ∧ (Full.commit p s c l pu pa k).invalid = s.invalid ∧
    (Full.commit p s c l pu pa k).satisfied = s.satisfied :=
  Full.commitFields p s c l pu pa k

/-- The whole monitor's result step touches only the records' success flags (every other field of
every record, and the trace's length, stay), the bindings and the invalid slots, which only grow;
counters, permits and satisfied requirements stay, and a failed outcome changes nothing. -/
theorem wholeResultStepTouches (p : Full.Policy) (s : Full.State) (d : Nat) (o : Full.Outcome) :
    List.map Full.forgetOk (Full.observe p s d o).trace = List.map Full.forgetOk s.trace ∧
    (∀ x, x ∈ s.invalid → x ∈ (Full.observe p s d o).invalid) ∧
    (Full.observe p s d o).usedUser = s.usedUser ∧ (Full.observe p s d o).usedApp = s.usedApp ∧
    (Full.observe p s d o).satisfied = s.satisfied ∧ (Full.observe p s d o).permits = s.permits ∧
    (o.ok = false → Full.observe p s d o = s) :=
  Full.observeFields p s d o

/-- The whole monitor, over every trace: replaying only the admitted calls (with their outcomes)
reaches the same state as the whole trace and admits each of them; Pause and Deny change nothing. -/
theorem wholeOnlyAllowChangesRun (p : Full.Policy) (cs : List (Full.Call × Full.Outcome)) (s : Full.State) :
    (Full.runFull p s (Full.admittedFull p s cs)).2 = (Full.runFull p s cs).2 ∧
    allB Full.isAllowV (Full.runFull p s (Full.admittedFull p s cs)).1 = true :=
  Full.runFullOnlyAllowChanges p cs s

/-- The whole monitor: an admitted call prepared, passed the structural checks and the ceiling, and
satisfied every origin, flow and history rule in force (all computed in Lean from the policy, the
state and the call), and its recorded label is the output label. -/
theorem wholeAdmittedSatisfiesRules (p : Full.Policy) (s : Full.State) (c : Full.Call) (l : Label) (pu pa : List Nat)
    (k : Option Nat) (h : Full.decideFull p s c = Full.Verdict.allow l pu pa k) : Full.Passes p s c l :=
  Full.decideFullPasses p s c l pu pa k h

/-- The whole monitor, over every trace: every admitted call satisfied the rules in force in the
state it was decided in. -/
theorem wholeRunAdmittedSatisfyRules (p : Full.Policy) (cs : List (Full.Call × Full.Outcome)) (s : Full.State) :
    Full.AdmittedPass p s cs :=
  Full.runFullAdmittedPass p cs s

/-- Section 6.1's well-formed state, all six clauses (distinct IDs naming records, parents before
children, valid labels, counters within quotas, invalid slots unbound, live bindings from applicable
successful lookups), holds in every state the whole monitor reaches from a task's start, when the
registration's labels are valid (node labels and the sensitivities transforms set, for a top rank
`top` and `m` categories). -/
theorem wholeWellFormedReachable {top m : Nat} (p : Full.Policy) (hp : Full.RegistrationLabelsValid top m p)
    (cs : List (Full.Call × Full.Outcome)) : Full.WellFormed top m p (Full.runFull p (Full.initialState p) cs).2 :=
  Full.reachableWellFormedAll p hp cs

/-- Registration (Section 6.1) as the oracle reads it: every policy its decoder returns for a
document is read from the places of the document that `Decodes` names, element by element and in
order from the document's arrays, for every field of the policy (so every field the registration
checks read); and on that policy the registration check holds exactly when the declarative
`RegistrationWF` does. -/
theorem registrationOnDecoded {j : Lean.Json} {p : Full.Policy} (h : Oracle.MonitorFull.policyOf j = Except.ok p) :
    Full.Decodes j p ∧ (Full.registrationOk p = true ↔ Full.RegistrationWF p) :=
  ⟨Full.policyOfDecodes h, Full.registrationOkIff p⟩

/-- Registration's JSON form on every request the oracle judges (its objects search trees, which the
request handler checks): the decoder's required-member reader finds exactly the policy document's
members, and the form's declaration and reference lists (levels, categories, requirements, level and
requirement references, sinks, audience nodes) hold exactly the places of the document that
`FormFrom` and `FormCollects` name. -/
theorem registrationFormOnJudged {f : Lean.Json → Except String Lean.Json} {input out pj : Lean.Json}
    (h : Oracle.guarded (Oracle.keysGuard f) input = Except.ok out) (hp : Oracle.req input "policy" = Except.ok pj) :
    (∀ k v, Oracle.req pj k = Except.ok v ↔ Full.Field pj k v) ∧
      Full.FormFrom pj (Oracle.Registration.formOf pj) ∧ Full.FormCollects pj (Oracle.Registration.formOf pj) := by
  have ⟨_, e, hm⟩ := Oracle.reqOk hp
  have ho := Oracle.judgedOrdered h
  subst e
  have hpo : Json.ObjsOrdered pj := Json.objsOrderedObjElem ho hm
  exact ⟨fun k v => Full.reqIff hpo, Full.formOfFrom pj, Full.formOfCollects pj hpo⟩

/-- Registration on every request the oracle judges: each top-level list of the policy decoded from
its `policy` member, and the declared categories, are exactly the document's array at that key (empty
only when the document has none), element by element and in order; `registrationOk` on that policy
decides `RegistrationWF`. -/
theorem registrationExactOnJudged {f : Lean.Json → Except String Lean.Json} {input out pj : Lean.Json}
    {p : Full.Policy} (h : Oracle.guarded (Oracle.keysGuard f) input = Except.ok out)
    (hp : Oracle.req input "policy" = Except.ok pj) (hd : Oracle.MonitorFull.policyOf pj = Except.ok p) :
    Full.DecodesExactly pj p ∧ (Full.registrationOk p = true ↔ Full.RegistrationWF p) := by
  have ⟨_, e, hm⟩ := Oracle.reqOk hp
  have ho := Oracle.judgedOrdered h
  subst e
  exact ⟨Full.policyOfDecodesExactly (Json.objsOrderedObjElem ho hm) hd, Full.registrationOkIff p⟩

/-- Registration in both directions, on every request the oracle judges: the decoder returns a policy
for the document in its `policy` member exactly when that policy is the one `DecodesIs` describes
(every top-level list the document's array at its key, every member of every element read as it is
written: present members of the type read, absent ones only when the document has none), and
`DecodesIs` fixes that policy; `registrationOk` decides `RegistrationWF`; and the verdict the judgment
`policy_check` answers under `ok` holds exactly when the document meets the schema, describes a
policy that is `RegistrationWF`, and meets the declaration checks stated on the document itself
(`FormDocWF`: names, dotted names, the level list, declared categories, requirements and levels,
authoritative resolver paths, sink audiences, counts, scalars and bounds at the places they occupy). -/
theorem registrationDecodesIffOnJudged {f : Lean.Json → Except String Lean.Json} {input out pj : Lean.Json}
    (h : Oracle.guarded (Oracle.keysGuard f) input = Except.ok out)
    (hp : Oracle.req input "policy" = Except.ok pj) :
    (∀ p, Oracle.MonitorFull.policyOf pj = Except.ok p ↔ Full.DecodesIs pj p) ∧
      (∀ p q, Full.DecodesIs pj p → Full.DecodesIs pj q → p = q) ∧
      (∀ p, Full.registrationOk p = true ↔ Full.RegistrationWF p) ∧
      (Oracle.Registration.verdictOf (Full.Schema.policyE [] pj).isEmpty (Oracle.Registration.formOf pj)
          (Oracle.MonitorFull.policyOf pj) = true ↔
        Full.Schema.PolicySchema pj ∧ (∃ p, Full.DecodesIs pj p ∧ Full.RegistrationWF p) ∧
          Full.FormDocWF pj) := by
  have ⟨_, e, hm⟩ := Oracle.reqOk hp
  have ho := Oracle.judgedOrdered h
  subst e
  have hpo : Json.ObjsOrdered pj := Json.objsOrderedObjElem ho hm
  exact ⟨fun p => Full.policyOfIff hpo, fun p q hp' hq => Full.decodesIsUnique hpo hp' hq, Full.registrationOkIff,
    Full.policyCheckVerdictDocIff hpo⟩

/-- A call's lineage is its ancestors' records in trace order: on a trace whose parents precede
their children, for parents that name records, `lineage` selects from the trace positions in order
exactly those of the transitive parents (`Anc`), for any decision of `Anc`. -/
theorem lineageIsAncestors (tr : List Full.Record) (ps : List Nat) (hp : Full.ParentsPrecede tr)
    (hps : ∀ q, q ∈ ps → q < List.length tr) (f : Nat → Bool) (hf : ∀ d, f d = true ↔ Full.Anc tr ps d) :
    Full.lineage tr ps = Full.selectRecords tr f :=
  Full.lineageMeaning tr ps hp hps f hf

/-- The whole monitor over every trace from a task's start: every admitted call satisfied the
origin rules in force in their inductive meaning (`Produced`) and the history rules in force in
their independent meaning (`PendingIn` over the ancestors' records or the session), in the state it
was decided in. -/
theorem wholeAdmittedMeetsMeanings (p : Full.Policy) (cs : List (Full.Call × Full.Outcome)) :
    Full.AdmittedMeaning p (Full.initialState p) cs :=
  Full.reachableAdmittedMeaning p cs

-- Monitor: totality and determinism of the whole step (Agenra Section 6.3) ---------------------------

/-- The whole monitor's step is total and its decision and next state are unique. Records are named
by trace position, so the one fresh identifier a step introduces is the canonical one, the trace
length, and the renaming between any two results is the identity. In a state whose IDs all name
records (parents and bindings), that identifier names no record and occurs nowhere, and the next
state again has all its IDs naming records. -/
theorem wholeStepTotalAndFresh (p : Full.Policy) (s : Full.State) (c : Full.Call) (o : Full.Outcome) :
    (∃ v s', Full.stepFull p s c o = (v, s') ∧ ∀ v₂ s₂, Full.stepFull p s c o = (v₂, s₂) → v₂ = v ∧ s₂ = s') ∧
    (Full.IdsBounded s → Full.FreshIn s (List.length s.trace) ∧ Full.IdsBounded (Full.stepFull p s c o).2) :=
  Full.stepFullTotalFresh p s c o

/-- Section 6.3 on the whole monitor with freely chosen record IDs (`Full.stepN`: the caller names
each record, the call names its handles' records by those IDs, and an Allow admits under a chosen
fresh ID): renaming every ID of the state and the call, and the fresh ID, by any injective map gives
the same decision and the renamed successor. -/
theorem wholeStepEquivariant (σ : Nat → Nat) (inj : ∀ a b, σ a = σ b → a = b) (p : Full.Policy) (d : Nat)
    (ks : Full.NState) (c : Full.Call) (o : Full.Outcome) :
    Full.stepN p (σ d) (Full.renameK σ ks) (Full.renameCall σ c) o =
      ((Full.stepN p d ks c o).1, Full.renameK σ (Full.stepN p d ks c o).2) :=
  Full.stepNEquivariant σ inj p d ks c o

/-- Section 6.3 on the whole monitor with freely chosen record IDs: two fresh IDs give the same
decision and successors that differ exactly by their transposition; the successor's IDs stay
distinct and one per record, and an Allow admits the record under the chosen ID with the decided
label and, read as IDs, exactly the parents the call's handles name. -/
theorem wholeStepUpToRenaming (p : Full.Policy) (ks : Full.NState) (c : Full.Call) (o : Full.Outcome) (d₁ d₂ : Nat)
    (h : Full.NamesOk ks) (h₁ : ¬ d₁ ∈ ks.names) (h₂ : ¬ d₂ ∈ ks.names) :
    (Full.stepN p d₂ ks c o).1 = (Full.stepN p d₁ ks c o).1 ∧
    (Full.stepN p d₂ ks c o).2 = Full.renameK (Run.swap d₁ d₂) (Full.stepN p d₁ ks c o).2 ∧
    Full.NamesOk (Full.stepN p d₁ ks c o).2 ∧
    (∀ l pu pa k, (Full.stepN p d₁ ks c o).1 = Full.Verdict.allow l pu pa k →
      ∃ r, (Full.stepN p d₁ ks c o).2.named d₁ = some r ∧ r.label = l ∧
        (∀ q, q ∈ r.parents → ∃ x, x ∈ List.map Prod.snd c.refs ∧ Full.nth? (Full.stepN p d₁ ks c o).2.names q = some x) ∧
        (∀ x, x ∈ List.map Prod.snd c.refs → ∃ q, q ∈ r.parents ∧ Full.nth? (Full.stepN p d₁ ks c o).2.names q = some x)) :=
  ⟨(Full.stepNUpToRenaming p ks c o d₁ d₂ h₁ h₂).1, (Full.stepNUpToRenaming p ks c o d₁ d₂ h₁ h₂).2,
   Full.stepNNamesOk p d₁ ks c o h h₁, fun l pu pa k hv => Full.stepNAllowRecord p d₁ ks c o h h₁ l pu pa k hv⟩

/-- The named step at the deployed naming is the deployed step: records named by their positions,
every handle of the call naming a record, and the trace length as fresh ID give `stepFull`'s decision
and state, with the records named by position again. -/
theorem wholeStepNamedIsDeployed (p : Full.Policy) (s : Full.State) (c : Full.Call) (o : Full.Outcome)
    (h : ∀ r, r ∈ c.refs → r.2 < List.length s.trace) :
    (Full.stepN p (List.length s.trace) ⟨range 0 (List.length s.trace), s⟩ c o).1 = (Full.stepFull p s c o).1 ∧
    (Full.stepN p (List.length s.trace) ⟨range 0 (List.length s.trace), s⟩ c o).2.st = (Full.stepFull p s c o).2 ∧
    (Full.isAllowV (Full.stepFull p s c o).1 = true →
      (Full.stepN p (List.length s.trace) ⟨range 0 (List.length s.trace), s⟩ c o).2.names =
        range 0 (List.length s.trace + 1)) :=
  Full.stepNCanonical p s c o h

/-- The whole monitor: an Allow stores the admitted record (its label and parents) at the fresh
identifier, the old trace length. -/
theorem wholeAllowAtFreshId (p : Full.Policy) (s : Full.State) (c : Full.Call) (o : Full.Outcome) (l : Label)
    (pu pa : List Nat) (k : Option Nat) (h : Full.decideFull p s c = Full.Verdict.allow l pu pa k) :
    ∃ r, (Full.stepFull p s c o).2.record? (List.length s.trace) = some r ∧ r.label = l ∧ r.parents = c.parents :=
  Full.stepFullAllowAt p s c o l pu pa k h

/-- The state a task starts in (no records, bindings, invalid slots, approvals or permits; every
counter zero) meets the hypotheses of the quota and identifier invariants. -/
theorem wholeInitialStateOk (p : Full.Policy) : Full.QuotaOk p (Full.initialState p) ∧ Full.IdsBounded (Full.initialState p) :=
  Full.initialStateOk p

-- Revision: the safety state under a change of the permission lists (Agenra Section 7.1, part 2) ----

/-- The whole monitor, one step of a revision that replaces only the two permission lists: if the
old monitor admits a call, the new monitor in a state with the same records, bindings, invalid slots
and satisfied requirements (its counters and permits may differ) admits it with the same label, and
after the same outcome both safety states are again identical. Hypotheses about the new lists at
this call: their first-fit serves it, they add no explicit deny the old lists lacked, a permit
their chosen grants need is there, and a reviewer's approval the old state held for it (a flow Pause,
an extension beyond Agenra) is held by the new state too. -/
theorem wholeRevisionKeepsSafety (p : Full.Policy) (u' a' : List Full.Grant) (s : Full.State) (uu ua : List Nat)
    (pm : List Full.Permit) (c : Full.Call) (o : Full.Outcome) (l : Label) (pu pa : List Nat) (k : Option Nat)
    (hold : Full.decideFull p s c = Full.Verdict.allow l pu pa k)
    (t : Full.Tool) (es : List Full.Effect) (hp : Full.prepare p s c = Except.ok (t, es)) (pu' pa' : List Nat)
    (hnew : allocBoth (List.map account (Full.sideEntries (Full.revisedS s uu ua pm) c.args es u' uu))
      (List.map account (Full.sideEntries (Full.revisedS s uu ua pm) c.args es a' ua)) (range 0 (List.length es)) =
        some (pu', pa'))
    (hdeny : Run.anyDeny (Full.sideEntries (Full.revisedS s uu ua pm) c.args es u' uu)
        (Full.sideEntries (Full.revisedS s uu ua pm) c.args es a' ua) (range 0 (List.length es)) = true →
      Run.anyDeny (Full.sideEntries s c.args es p.user s.usedUser) (Full.sideEntries s c.args es p.app s.usedApp)
        (range 0 (List.length es)) = true)
    (hpermit : (Full.chosenNeedPermit u' pu' || Full.chosenNeedPermit a' pa') = true →
      ∃ q, Full.findPermit (Full.revisedS s uu ua pm) c = Except.ok q)
    (happrove : ∀ q, Full.findApproval s c = some q → ∃ q', Full.findApproval (Full.revisedS s uu ua pm) c = some q') :
    ∃ k', (Full.stepFull (Full.revisedP p u' a') (Full.revisedS s uu ua pm) c o).1 = Full.Verdict.allow l pu' pa' k' ∧
      Full.SafetyEq (Full.stepFull p s c o).2 (Full.stepFull (Full.revisedP p u' a') (Full.revisedS s uu ua pm) c o).2 :=
  Full.stepFullRevised p u' a' s uu ua pm c o l pu pa k hold t es hp pu' pa' hnew hdeny hpermit happrove

/-- The whole monitor over every client trace of the old policy (every call admitted): under a
revision that replaces only the two permission lists, starting from identical safety states and
seeing the same calls and outcomes, the new monitor admits every call with the same label and the
safety states stay identical, when the four hypotheses about the new lists and approvals hold at each step. -/
theorem wholeRevisionKeepsSafetyRun (p : Full.Policy) (u' a' : List Full.Grant) (cs : List (Full.Call × Full.Outcome))
    (s s' : Full.State) (hs : Full.SafetyEq s s') (hc : Full.Client p s cs) (hh : Full.RevHyps p u' a' s s' cs) :
    List.map Full.verdictLabel (Full.runFull (Full.revisedP p u' a') s' cs).1 = List.map Full.verdictLabel (Full.runFull p s cs).1 ∧
    allB Full.isAllowV (Full.runFull (Full.revisedP p u' a') s' cs).1 = true ∧
    Full.SafetyEq (Full.runFull p s cs).2 (Full.runFull (Full.revisedP p u' a') s' cs).2 :=
  Full.runFullRevised p u' a' cs s s' hs hc hh

/-- Section 7.1 (2) on the whole monitor from the revision certificates, over every client trace of
the old policy: when the old and new ledgers of both lists are related by the structural
certificates `Rev D` (with counters one per grant and within quota), every call of the trace is in
`D` in every binding state, the new lists add no deny grant, and exact-call permits follow the
action, then from identical safety states (records, bindings, invalid slots, satisfied
requirements, permits) the new monitor admits every call with the same label, and the safety states
stay identical and the ledgers related. The new allocation is derived, not assumed. -/
theorem wholeRevisionFromCertificates (D : Full.Ctx → Prop) (p : Full.Policy) (u' a' : List Full.Grant)
    (hnd : Full.NoNewDenyGrant p u' a') (hpa : Full.PermitByAction p u' a') (cs : List (Full.Call × Full.Outcome))
    (s s' : Full.State) (hs : Full.SafetyEqP s s') (hR : Full.CertRel D p u' a' s s') (hc : Full.Client p s cs)
    (hD : ∀ c o, (c, o) ∈ cs → ∀ x : Full.Ctx, x.2.1 = c.args → D x) :
    List.map Full.verdictLabel (Full.runFull (Full.revisedP p u' a') s' cs).1 = List.map Full.verdictLabel (Full.runFull p s cs).1 ∧
    allB Full.isAllowV (Full.runFull (Full.revisedP p u' a') s' cs).1 = true ∧
    Full.SafetyEqP (Full.runFull p s cs).2 (Full.runFull (Full.revisedP p u' a') s' cs).2 ∧
    Full.CertRel D p u' a' (Full.runFull p s cs).2 (Full.runFull (Full.revisedP p u' a') s' cs).2 :=
  Full.runFullCert D p u' a' hnd hpa cs s s' hs hR hc hD

/-- Section 7.1 (2) for a revision whose every condition Lean checks on the policy pair (each list:
the old grants in order with quotas at least the old, then appended allow grants; exact-call permits
following the action), from a task's start: every client trace of the old monitor is admitted by
the new one with the same labels, ending in identical safety states, approval state included. -/
theorem checkedRevisionKeepsSafety (p : Full.Policy) (qu qa : List (Option Nat)) (xu xa : List Full.Grant)
    (hu : Full.certifiedB p.user qu xu = true) (ha : Full.certifiedB p.app qa xa = true)
    (hpu : Full.permitByActionB p.user (Full.raiseQ p.user qu ++ xu) = true)
    (hpa : Full.permitByActionB p.app (Full.raiseQ p.app qa ++ xa) = true)
    (cs : List (Full.Call × Full.Outcome)) (hc : Full.Client p (Full.initialState p) cs) :
    let p' := Full.revisedP p (Full.raiseQ p.user qu ++ xu) (Full.raiseQ p.app qa ++ xa)
    List.map Full.verdictLabel (Full.runFull p' (Full.initialState p') cs).1 =
      List.map Full.verdictLabel (Full.runFull p (Full.initialState p) cs).1 ∧
    allB Full.isAllowV (Full.runFull p' (Full.initialState p') cs).1 = true ∧
    Full.SafetyEqP (Full.runFull p (Full.initialState p) cs).2 (Full.runFull p' (Full.initialState p') cs).2 :=
  Full.checkedRevisionKeepsSafety p qu qa xu xa hu ha hpu hpa cs hc

/-- Section 7.1 (2) on the base monitor (no grant needs an exact-call permit; Section 9 adds permits):
for a revision Lean checks on the policy pair (each list: the old grants in order with quotas at
least the old, then appended allow grants), every client trace of the old monitor from a task's
start is admitted by the new one with the same labels, ending in identical safety states. -/
theorem baseRevisionKeepsSafety (p : Full.Policy) (qu qa : List (Option Nat)) (xu xa : List Full.Grant)
    (hu : Full.certifiedB p.user qu xu = true) (ha : Full.certifiedB p.app qa xa = true)
    (h1 : ∀ g, g ∈ p.user → g.permit = false) (h2 : ∀ g, g ∈ p.app → g.permit = false)
    (h3 : ∀ g, g ∈ xu → g.permit = false) (h4 : ∀ g, g ∈ xa → g.permit = false)
    (cs : List (Full.Call × Full.Outcome)) (hc : Full.Client p (Full.initialState p) cs) :
    let p' := Full.revisedP p (Full.raiseQ p.user qu ++ xu) (Full.raiseQ p.app qa ++ xa)
    List.map Full.verdictLabel (Full.runFull p' (Full.initialState p') cs).1 =
      List.map Full.verdictLabel (Full.runFull p (Full.initialState p) cs).1 ∧
    allB Full.isAllowV (Full.runFull p' (Full.initialState p') cs).1 = true ∧
    Full.SafetyEqP (Full.runFull p (Full.initialState p) cs).2 (Full.runFull p' (Full.initialState p') cs).2 :=
  Full.baseRevisionKeepsSafety p qu qa xu xa hu ha h1 h2 h3 h4 cs hc

/-- The whole-monitor revision theorem needs its "no new deny grant" condition: appending a deny
grant (a prefix-compatible extension, related by the certificates) can refuse a client of the old
monitor, every other hypothesis met. -/
theorem revisionNeedsNoNewDeny : ∃ (p : Full.Policy) (u' a' : List Full.Grant) (s s' : Full.State)
    (cs : List (Full.Call × Full.Outcome)),
    Full.SafetyEqP s s' ∧ Full.CertRel (fun _ => True) p u' a' s s' ∧ Full.PermitByAction p u' a' ∧ Full.Client p s cs ∧
    ¬ Full.NoNewDenyGrant p u' a' ∧ allB Full.isAllowV (Full.runFull (Full.revisedP p u' a') s' cs).1 = false :=
  Full.needNoNewDeny

/-- With exact-call permits, the revision theorem needs permits to follow the action: a quota raise
Lean's check accepts can move a charge to a grant that needs a permit and refuse an old client. -/
theorem revisionNeedsPermitByAction : ∃ (p : Full.Policy) (qu qa : List (Option Nat)) (xu xa : List Full.Grant)
    (cs : List (Full.Call × Full.Outcome)),
    Full.certifiedB p.user qu xu = true ∧ Full.certifiedB p.app qa xa = true ∧ Full.Client p (Full.initialState p) cs ∧
    allB Full.isAllowV (Full.runFull (Full.revisedP p (Full.raiseQ p.user qu ++ xu) (Full.raiseQ p.app qa ++ xa))
      (Full.initialState (Full.revisedP p (Full.raiseQ p.user qu ++ xu) (Full.raiseQ p.app qa ++ xa))) cs).1 = false :=
  Full.needPermitByAction

/-- Section 7.1 (1) on the whole monitor's admissions: when the structural certificates relate the
old and new ledgers of both lists, every client trace of the old monitor, each call presented to
the allocator in the state the monitor decided it in, is served by first-fit on the new ledgers at
every length, with the successor ledgers related. -/
theorem structuralRevisionPreservesMonitorClients (D : Full.Ctx → Prop) (p : Full.Policy) (u' a' : List Full.Grant)
    (uu ua : List Nat) (s : Full.State) (hq : Full.QuotaOk p s)
    (hP : AgentWarrant.Revision.Rev D (AgentWarrant.Revision.ledgerOf (Full.polOf p.user) s.usedUser)
      (AgentWarrant.Revision.ledgerOf (Full.polOf u') uu))
    (hA : AgentWarrant.Revision.Rev D (AgentWarrant.Revision.ledgerOf (Full.polOf p.app) s.usedApp)
      (AgentWarrant.Revision.ledgerOf (Full.polOf a') ua))
    (cs : List (Full.Call × Full.Outcome)) (hc : Full.Client p s cs) (hd : ∀ x, x ∈ Full.ctxsOf p s cs → D x) :
    ∃ Pf' Af', AgentWarrant.Revision.runBoth Full.effsX (AgentWarrant.Revision.ledgerOf (Full.polOf u') uu)
        (AgentWarrant.Revision.ledgerOf (Full.polOf a') ua) (Full.ctxsOf p s cs) = some (Pf', Af') ∧
      AgentWarrant.Revision.Rev D (AgentWarrant.Revision.ledgerOf (Full.polOf p.user) (Full.runFull p s cs).2.usedUser) Pf' ∧
      AgentWarrant.Revision.Rev D (AgentWarrant.Revision.ledgerOf (Full.polOf p.app) (Full.runFull p s cs).2.usedApp) Af' :=
  Full.monitorClientsPreserved D p u' a' uu ua s hq hP hA cs hc hd

-- Execution edits: what a well-formed answer guarantees (Exact Checking for Execution Edits, IV-A, IV-B) --

/-- When the well-formedness check of a raw edit instance finds nothing wrong, the instance meets
every precondition the finite checker takes for granted: no call or choice identifier repeats, no
choice is empty, every call has an action and every such action a label (and so has every logged
action), the log repeats no action and the policy admits its labels, and no complete execution
properly prefixes another. -/
theorem wellFormedMeetsCheckerPreconditions (s : AgentWarrant.Edits.Scan) (r : AgentWarrant.Edits.Raw)
    (h : AgentWarrant.Edits.wfOf s r = none) :
    AgentWarrant.Edits.Nodup s.leaves ∧ AgentWarrant.Edits.Nodup s.groups ∧ s.empty = false ∧
    (∀ c, c ∈ s.leaves → ∃ d l, AgentWarrant.Edits.lookupN c r.act = some d ∧
      AgentWarrant.Edits.lookupN d r.lab = some l) ∧
    (∀ d, d ∈ r.log → ∃ l, AgentWarrant.Edits.lookupN d r.lab = some l) ∧ AgentWarrant.Edits.Nodup r.log ∧
    AgentWarrant.Edits.inPolicy r.policy (List.map (AgentWarrant.Edits.labelOf r.lab) r.log) = true ∧
    (∀ o v o' w, o ∈ r.outs → v ∈ o.lins → o' ∈ r.outs → w ∈ o'.lins → AgentWarrant.Edits.IsPrefix v w → v = w) :=
  AgentWarrant.Edits.wellFormedSound s r h

-- Execution edits: the largest safe execution set (Exact Checking for Execution Edits, Lemma 4, A-A) --

/-- A safe execution set exists exactly when the greatest fixed point `B̂†` is nonempty; then
`(W†, B̂†)` is itself safe and contains every safe pair. Hypotheses, both the paper's: the policy is
closed under truncation, and every still-required source result is covered by a target outcome
that has a linearization. -/
theorem largestSafeExecutionSet (θ : AgentWarrant.Edits.Theta) (hA : θ.PrefixClosed) (hcov : θ.CoverWitnesses) :
    ((∃ L B, θ.Safe L B) ↔ θ.SafeEdit) ∧ (θ.SafeEdit → θ.Safe θ.Wdag θ.Bdag) ∧
    ∀ L B, θ.Safe L B → (∀ c, B c → θ.Bdag c) ∧ (∀ z, L z → θ.Wdag z) :=
  AgentWarrant.Edits.Theta.lemma4 hA hcov

/-- The finite checker computes the declarative answer: on the instance as given — each outcome's
pomset and the policy automaton, from which the oracle computes the linearizations and the finite
policy itself — it accepts exactly when a safe execution set of any `θ` the input presents exists,
and then `W†` with the checker's safe set is the maximal safe pair. The policy's closure under
truncation is proved from the automaton; the one hypothesis left is the derivation's coverage
witnesses (Lemma 2's conclusion). -/
theorem checkerAnswerIsDeclarative {θ : AgentWarrant.Edits.Theta} {pi : AgentWarrant.Edits.PInst}
    (h : AgentWarrant.Edits.Presents θ pi) (hcov : θ.CoverWitnesses) :
    (AgentWarrant.Edits.accepts (AgentWarrant.Edits.build pi) = true ↔ ∃ L B, θ.Safe L B) ∧
    (AgentWarrant.Edits.accepts (AgentWarrant.Edits.build pi) = true →
      θ.MaxSafe θ.Wdag (fun c => c ∈ AgentWarrant.Edits.safeSet (AgentWarrant.Edits.build pi))) :=
  AgentWarrant.Edits.checkerExactFromInput h hcov

/-- The same with the linearization half of the coverage witnesses computed on the input: when every
target outcome has a linearization (`allComplete`, evaluated), what is left of Lemma 2's conclusion
is that each still-required source result is covered by some target outcome. -/
theorem checkerAnswerGivenCovers {θ : AgentWarrant.Edits.Theta} {pi : AgentWarrant.Edits.PInst}
    (h : AgentWarrant.Edits.Presents θ pi) (hc : AgentWarrant.Edits.allComplete pi = true)
    (hcov : ∀ a, θ.StillRequired a → ∃ t, θ.O t ∧ θ.covers t a) :
    (AgentWarrant.Edits.accepts (AgentWarrant.Edits.build pi) = true ↔ ∃ L B, θ.Safe L B) ∧
    (AgentWarrant.Edits.accepts (AgentWarrant.Edits.build pi) = true →
      θ.MaxSafe θ.Wdag (fun c => c ∈ AgentWarrant.Edits.safeSet (AgentWarrant.Edits.build pi))) :=
  AgentWarrant.Edits.checkerExactFromInput h (AgentWarrant.Edits.coverWitnessesOf h hc hcov)

/-- The checker's answer with the coverage witnesses decided, no hypothesis beyond the meaning of the
input: on the instance as given (outcome pomsets, policy automaton) with the derived record's source
results (status and covering target outcomes), the decided coverage holds iff Lemma 2's coverage
witnesses hold for every `θ` the input presents; the oracle answers `Invalid` exactly when they fail,
`Accepted` exactly when a safe execution set exists (then `W†` with the checker's set is the maximal
safe pair), and `Reject` exactly when they hold and no safe execution set exists. -/
theorem checkerAnswerDecidesCoverage {θ : AgentWarrant.Edits.Theta} {pi : AgentWarrant.Edits.PInst}
    {src : List AgentWarrant.Edits.Cover.Src}
    (h : AgentWarrant.Edits.Presents θ pi) (hs : AgentWarrant.Edits.Cover.PresentsSrc θ src) :
    (AgentWarrant.Edits.Cover.coverB pi src = true ↔ θ.CoverWitnesses) ∧
    (AgentWarrant.Edits.Cover.answer pi src = AgentWarrant.Edits.Cover.Answer.invalidDropped ↔ ¬ θ.CoverWitnesses) ∧
    (AgentWarrant.Edits.Cover.answer pi src = AgentWarrant.Edits.Cover.Answer.accepted ↔ ∃ L B, θ.Safe L B) ∧
    (AgentWarrant.Edits.Cover.answer pi src = AgentWarrant.Edits.Cover.Answer.rejected ↔
      θ.CoverWitnesses ∧ ¬ ∃ L B, θ.Safe L B) ∧
    (AgentWarrant.Edits.Cover.answer pi src = AgentWarrant.Edits.Cover.Answer.accepted →
      θ.MaxSafe θ.Wdag (fun c => c ∈ AgentWarrant.Edits.safeSet (AgentWarrant.Edits.build pi))) :=
  ⟨AgentWarrant.Edits.Cover.coverBIff h hs, AgentWarrant.Edits.Cover.answerExact h hs⟩

/-- Lemma 4 on the instance as given with its source results: unless the decided coverage is false
(and then no coverage witnesses exist), a safe execution set exists iff `B̂† ≠ ∅`, `(W†, B̂†)` is then
safe, and it contains every safe pair. -/
theorem largestSafeExecutionSetOnInput {θ : AgentWarrant.Edits.Theta} {pi : AgentWarrant.Edits.PInst}
    {src : List AgentWarrant.Edits.Cover.Src}
    (h : AgentWarrant.Edits.Presents θ pi) (hs : AgentWarrant.Edits.Cover.PresentsSrc θ src) :
    (AgentWarrant.Edits.Cover.coverB pi src = false ∧ ¬ θ.CoverWitnesses) ∨
    (((∃ L B, θ.Safe L B) ↔ θ.SafeEdit) ∧ (θ.SafeEdit → θ.Safe θ.Wdag θ.Bdag) ∧
      ∀ L B, θ.Safe L B → (∀ c, B c → θ.Bdag c) ∧ (∀ z, L z → θ.Wdag z)) :=
  AgentWarrant.Edits.Cover.lemma4OnInput h hs

/-- Lemma 8 on the instance as given with its source results: unless the decided coverage is false,
`MaxSafe` holds for some pair iff `B̂† ≠ ∅`, and such a pair is unique and equals `(W†, B̂†)`. -/
theorem maxSafeUniqueOnInput {θ : AgentWarrant.Edits.Theta} {pi : AgentWarrant.Edits.PInst}
    {src : List AgentWarrant.Edits.Cover.Src}
    (h : AgentWarrant.Edits.Presents θ pi) (hs : AgentWarrant.Edits.Cover.PresentsSrc θ src) :
    (AgentWarrant.Edits.Cover.coverB pi src = false ∧ ¬ θ.CoverWitnesses) ∨
    (((∃ L B, θ.MaxSafe L B) ↔ θ.SafeEdit) ∧
      ∀ L B, θ.MaxSafe L B → (∀ z, L z ↔ θ.Wdag z) ∧ (∀ c, B c ↔ θ.Bdag c)) :=
  AgentWarrant.Edits.Cover.lemma8OnInput h hs

/-- The three results above are never vacuous: every input whose outcome and source IDs are distinct
(the oracle's are `0, 1, …`) presents a declarative instance with its source results. -/
theorem inputWithSourcesPresentsInstance (pi : AgentWarrant.Edits.PInst) (src : List AgentWarrant.Edits.Cover.Src)
    (hid : AgentWarrant.Edits.Nodup (List.map AgentWarrant.Edits.POutcome.id pi.outs))
    (hsid : AgentWarrant.Edits.Nodup (List.map AgentWarrant.Edits.Cover.Src.id src)) :
    AgentWarrant.Edits.Presents (AgentWarrant.Edits.Cover.thetaOf pi src) pi ∧
    AgentWarrant.Edits.Cover.PresentsSrc (AgentWarrant.Edits.Cover.thetaOf pi src) src :=
  AgentWarrant.Edits.Cover.presentsSrcOf pi src hid hsid

/-- A rejection proof that the independent verifier accepts on the instance as given (pomsets and
policy automaton) shows that the edit has no safe execution set at all. -/
theorem acceptedRejectionProofIsSound {θ : AgentWarrant.Edits.Theta} {pi : AgentWarrant.Edits.PInst}
    (h : AgentWarrant.Edits.Presents θ pi) (fam : List AgentWarrant.Edits.Cand)
    (Es : List (List AgentWarrant.Edits.Removal))
    (hv : AgentWarrant.Edits.verifyProof (AgentWarrant.Edits.build pi) fam Es = true) :
    ¬ θ.SafeEdit ∧ ¬ ∃ L B, θ.Safe L B :=
  AgentWarrant.Edits.verifySoundFromInput h fam Es hv

/-- The verifier is complete: when a `θ` the given instance presents has no safe execution set, the
rejection proof the checker's iteration yields (`B̂₀` and each round's removals with their
witnesses) is accepted. -/
theorem rejectionProofIsComplete {θ : AgentWarrant.Edits.Theta} {pi : AgentWarrant.Edits.PInst}
    (h : AgentWarrant.Edits.Presents θ pi) (hn : ¬ θ.SafeEdit) :
    AgentWarrant.Edits.verifyProof (AgentWarrant.Edits.build pi)
      (AgentWarrant.Edits.proofFamily (AgentWarrant.Edits.build pi))
      (AgentWarrant.Edits.proofOf (AgentWarrant.Edits.build pi)) = true :=
  AgentWarrant.Edits.verifyCompleteFromInput h hn

/-- The defined-constructor lemma (binary contract terms): every result of a term whose calls are
unique has a linearization. -/
theorem definedConstructorsComplete (T : AgentWarrant.Edits.Tm) (h : AgentWarrant.Edits.Nodup T.calls)
    (o : AgentWarrant.Edits.TOut) (ho : o ∈ T.outs) : ∃ w, AgentWarrant.Edits.Lin o.pom w :=
  AgentWarrant.Edits.outsComplete T h o ho

/-- Lemma 4 for the derived instance of a ForkChoice on a region `C` (binary terms, no context): with
unique calls in `C` and injective copy renamings, the coverage witnesses are proved (every source
result, once per copy, is covered by a complete target result), so the only hypothesis left is the
policy's closure under truncation. -/
theorem forkChoiceLargestSafeSet (g : Nat) {fL fR : Nat → Nat} (hL : AgentWarrant.Edits.Injective fL)
    (hR : AgentWarrant.Edits.Injective fR) (C : AgentWarrant.Edits.Tm) (hC : AgentWarrant.Edits.Nodup C.calls)
    (act lab log : List Nat) (A : List Nat → Prop)
    (hA : (AgentWarrant.Edits.ForkChoice.theta g fL fR C act lab log A).PrefixClosed) :
    let θ := AgentWarrant.Edits.ForkChoice.theta g fL fR C act lab log A
    ((∃ L B, θ.Safe L B) ↔ θ.SafeEdit) ∧ (θ.SafeEdit → θ.Safe θ.Wdag θ.Bdag) ∧
    ∀ L B, θ.Safe L B → (∀ c, B c → θ.Bdag c) ∧ (∀ z, L z → θ.Wdag z) :=
  AgentWarrant.Edits.ForkChoice.lemma4 g hL hR C hC act lab log A hA

/-- Lemma 4 for the derived instance of a ForkParallel on a region `C` (binary terms, no context): when
the two copies' calls are fresh and distinct, the coverage witnesses are proved, so the only
hypothesis left is the policy's closure under truncation. -/
theorem forkParallelLargestSafeSet {fL fR : Nat → Nat} (C : AgentWarrant.Edits.Tm)
    (hnd : AgentWarrant.Edits.Nodup (AgentWarrant.Edits.Tm.calls (AgentWarrant.Edits.ForkParallel.target fL fR C)))
    (act lab log : List Nat) (A : List Nat → Prop)
    (hA : (AgentWarrant.Edits.ForkParallel.theta fL fR C act lab log A).PrefixClosed) :
    let θ := AgentWarrant.Edits.ForkParallel.theta fL fR C act lab log A
    ((∃ L B, θ.Safe L B) ↔ θ.SafeEdit) ∧ (θ.SafeEdit → θ.Safe θ.Wdag θ.Bdag) ∧
    ∀ L B, θ.Safe L B → (∀ c, B c → θ.Bdag c) ∧ (∀ z, L z → θ.Wdag z) :=
  AgentWarrant.Edits.ForkParallel.lemma4 C hnd act lab log A hA

/-- Lemma 2's coverage conclusion for the six edit forms and `Extend` (binary terms, no context):
every derived record covers each required source result that is not an authorized removal by some
target result. -/
theorem editRowsCover {D : AgentWarrant.Edits.Derived} (hD : AgentWarrant.Edits.Derives D) : D.Covered :=
  AgentWarrant.Edits.derivesCovered hD

/-- Lemma 4 for the instance of any record a valid derivation produces (any of the six edit forms or
`Extend`, binary terms, no context; source calls unique and identifiers fresh): the coverage
witnesses are proved, so the only hypothesis left is the policy's closure under truncation. -/
theorem derivedLargestSafeSet {D : AgentWarrant.Edits.Derived} (hD : AgentWarrant.Edits.ValidDerives D)
    (act lab log : List Nat) (A : List Nat → Prop) (hA : (D.theta act lab log A).PrefixClosed) :
    let θ := D.theta act lab log A
    ((∃ L B, θ.Safe L B) ↔ θ.SafeEdit) ∧ (θ.SafeEdit → θ.Safe θ.Wdag θ.Bdag) ∧
    ∀ L B, θ.Safe L B → (∀ c, B c → θ.Bdag c) ∧ (∀ z, L z → θ.Wdag z) :=
  AgentWarrant.Edits.Theta.lemma4 hA (AgentWarrant.Edits.validDerivesCoverWitnesses hD act lab log A)

/-- The oracle's enumeration of linearizations is exactly `Lin(p)`, for every pomset. -/
theorem linearizationsEnumerated (p : AgentWarrant.Edits.Pomset) (w : List Nat) :
    w ∈ AgentWarrant.Edits.linsOf p ↔ AgentWarrant.Edits.Lin p w :=
  AgentWarrant.Edits.linsOfIff p w

-- Revision: client preservation (Agenra Sections 1 and 7.1, part 1) ------------------------------------

/-- If both permission lists are revised by structural certificates for the calls `D` (grants
appended, matching-equivalent edits, capacity extensions, adjacent independent swaps, and their
lifts and compositions), every client made of calls in `D` that first-fit on the old lists serves is
served by the new lists at every length, and the final ledgers are again so related. -/
theorem structuralRevisionPreservesClients {C : Type} (effs : C → List Nat) (D : C → Prop)
    {P P' A A' : AgentWarrant.Revision.Ledger C} (hp : AgentWarrant.Revision.Rev D P P')
    (ha : AgentWarrant.Revision.Rev D A A') (cs : List C) (hd : ∀ c, c ∈ cs → D c)
    (Pf Af : AgentWarrant.Revision.Ledger C) (h : AgentWarrant.Revision.runBoth effs P A cs = some (Pf, Af)) :
    ∃ Pf' Af', AgentWarrant.Revision.runBoth effs P' A' cs = some (Pf', Af') ∧
      AgentWarrant.Revision.Rev D Pf Pf' ∧ AgentWarrant.Revision.Rev D Af Af' :=
  AgentWarrant.Revision.revPreservesClients effs D hp ha cs hd Pf Af h

/-- A simulation relation that passes the closure check and contains the starting pair preserves
every client: whatever sequence of the certificate's units the old lists serve, the new lists serve
too, ending in a related pair of usages. -/
theorem closedRelationPreservesClients (O N : List (List AgentWarrant.Revision.Closure.LEntry))
    (units : List AgentWarrant.Revision.Closure.Unit')
    (rel : List (AgentWarrant.Revision.Closure.Usage × AgentWarrant.Revision.Closure.Usage))
    (start : AgentWarrant.Revision.Closure.Usage × AgentWarrant.Revision.Closure.Usage)
    (hc : AgentWarrant.Revision.Closure.closedC O N units rel start = true)
    (client : List AgentWarrant.Revision.Closure.Unit') (hu : ∀ u, u ∈ client → u ∈ units)
    (of : AgentWarrant.Revision.Closure.Usage)
    (h : AgentWarrant.Revision.Closure.runSide true O start.1 client = some of) :
    ∃ nf, AgentWarrant.Revision.Closure.runSide false N start.2 client = some nf ∧
      AgentWarrant.Revision.Closure.memR rel (of, nf) = true :=
  AgentWarrant.Revision.Closure.closedPreservesFromStart O N units rel start hc client hu of h

/-- The closure check on the whole monitor, over every client trace of the old policy: take a
relation on usage vectors (old user, old application; new user, new application) that passes the
closure check on the old and revised lists' first-fit entries, and a client trace every call of
which, at the state the old monitor reaches, has its units (one per effect unit: match bits on the
four lists, the state's satisfied requirements) among the check's. If exact-call permits follow the
action, then from identical safety states (records, bindings, invalid slots, satisfied requirements,
permits) whose counters have the residuals of a related pair, the new monitor admits every call with
the same label, and the safety states stay identical and the counters related. New explicit denies
need no hypothesis: the check refuses them. At a task's start, a check passed with the zero-use
starting pair (`cwStart`) relates the two initial states (`cwStartRel`). -/
theorem closedRelationPreservesWholeMonitor (units : List AgentWarrant.Revision.Closure.Unit')
    (rel : List (AgentWarrant.Revision.Closure.Usage × AgentWarrant.Revision.Closure.Usage))
    (start : AgentWarrant.Revision.Closure.Usage × AgentWarrant.Revision.Closure.Usage)
    (p : Full.Policy) (u' a' : List Full.Grant)
    (hc : AgentWarrant.Revision.Closure.closedC (Full.cwLists p.user p.app) (Full.cwLists u' a') units rel start = true)
    (hpa : Full.PermitByAction p u' a') (cs : List (Full.Call × Full.Outcome))
    (s s' : Full.State) (hs : Full.SafetyEqP s s') (hR : Full.CwRel rel p u' a' s s') (hcl : Full.Client p s cs)
    (hcov : Full.CwCovered units p u' a' s cs) :
    List.map Full.verdictLabel (Full.runFull (Full.revisedP p u' a') s' cs).1 = List.map Full.verdictLabel (Full.runFull p s cs).1 ∧
    allB Full.isAllowV (Full.runFull (Full.revisedP p u' a') s' cs).1 = true ∧
    Full.SafetyEqP (Full.runFull p s cs).2 (Full.runFull (Full.revisedP p u' a') s' cs).2 ∧
    Full.CwRel rel p u' a' (Full.runFull p s cs).2 (Full.runFull (Full.revisedP p u' a') s' cs).2 :=
  Full.cwRunFull units rel start p u' a' hc hpa cs s s' hs hR hcl hcov

/-- The same for per-list certificates, as the Python checker tries them first: one relation on the
user lists' usages and one on the application lists', each passing the closure check on its pair
of lists, and a client trace every call of which has its per-list units among each check's. With
exact-call permits following the action, from identical safety states whose counters have the
residuals of pairs the two relations relate, the new monitor admits every call with the same label,
and the safety states stay identical and the counters related (`cwStartRelL` at a task's start). -/
theorem closedRelationsPreserveWholeMonitorPerList (unitsU unitsA : List AgentWarrant.Revision.Closure.Unit')
    (relU relA : List (AgentWarrant.Revision.Closure.Usage × AgentWarrant.Revision.Closure.Usage))
    (startU startA : AgentWarrant.Revision.Closure.Usage × AgentWarrant.Revision.Closure.Usage)
    (p : Full.Policy) (u' a' : List Full.Grant)
    (hcU : AgentWarrant.Revision.Closure.closedC [Full.cwEntries p.user] [Full.cwEntries u'] unitsU relU startU = true)
    (hcA : AgentWarrant.Revision.Closure.closedC [Full.cwEntries p.app] [Full.cwEntries a'] unitsA relA startA = true)
    (hpa : Full.PermitByAction p u' a') (cs : List (Full.Call × Full.Outcome))
    (s s' : Full.State) (hs : Full.SafetyEqP s s') (hR : Full.CwRelL relU relA p u' a' s s') (hcl : Full.Client p s cs)
    (hcov : Full.CwCoveredL unitsU unitsA p u' a' s cs) :
    List.map Full.verdictLabel (Full.runFull (Full.revisedP p u' a') s' cs).1 = List.map Full.verdictLabel (Full.runFull p s cs).1 ∧
    allB Full.isAllowV (Full.runFull (Full.revisedP p u' a') s' cs).1 = true ∧
    Full.SafetyEqP (Full.runFull p s cs).2 (Full.runFull (Full.revisedP p u' a') s' cs).2 ∧
    Full.CwRelL relU relA p u' a' (Full.runFull p s cs).2 (Full.runFull (Full.revisedP p u' a') s' cs).2 :=
  Full.cwRunFullPerList unitsU unitsA relU relA startU startA p u' a' hcU hcA hpa cs s s' hs hR hcl hcov

/-- `closedRelationPreservesWholeMonitor` with its coverage premise from Lean's coverage oracle
instead of assumed: for each action of `acts`, the tool-checked policy oracle, asked about the four
lists read as one (old user, old application, new user, new application), answers `covered` with the
vectors `listed a`; the check's units hold every listed vector, split at the four lists' lengths,
with every requirement set of `Qs` (as the Python checker writes them, `Qs` being the subsets of the
requirements the lists name); the old run starts from a state a run from the task's start reaches.
What is still assumed of each call along the old run (`CwOracleAlong`): the state's requirement list
is one of `Qs` (the monitor's list is kept in the order requirements were satisfied and may name
requirements no entry asks for, so this is not proved; `closedRelationPreservesWholeMonitorFromOracleAnyReqs`
drops it), and the coverage theorem's per-call
conditions (the effect's action among `acts`, its resource among `E`'s, no argument named twice, and
values compared with array or object constants passing the oracle's checks). Exact-call permits must
follow the action, as before. -/
theorem closedRelationPreservesWholeMonitorFromOracle (units : List AgentWarrant.Revision.Closure.Unit')
    (rel : List (AgentWarrant.Revision.Closure.Usage × AgentWarrant.Revision.Closure.Usage))
    (start : AgentWarrant.Revision.Closure.Usage × AgentWarrant.Revision.Closure.Usage)
    (p : Full.Policy) (u' a' : List Full.Grant)
    (E : String → Option (List Lean.Json)) (listedS : String → List String) (listed : String → List (List Bool))
    (acts : List String) (Qs : List (List String))
    (hc : AgentWarrant.Revision.Closure.closedC (Full.cwLists p.user p.app) (Full.cwLists u' a') units rel start = true)
    (hu : Full.CwUnitsFrom units p u' a' listed Qs) (hans : Full.CwOracleCovered E listedS listed acts p u' a')
    (hpa : Full.PermitByAction p u' a') (cs : List (Full.Call × Full.Outcome)) (s s' : Full.State)
    (hreach : ∃ cs0, s = (Full.runFull p (Full.initialState p) cs0).2) (hs : Full.SafetyEqP s s')
    (hR : Full.CwRel rel p u' a' s s') (hcl : Full.Client p s cs) (hside : Full.CwOracleAlong E acts Qs p u' a' s cs) :
    List.map Full.verdictLabel (Full.runFull (Full.revisedP p u' a') s' cs).1 = List.map Full.verdictLabel (Full.runFull p s cs).1 ∧
    allB Full.isAllowV (Full.runFull (Full.revisedP p u' a') s' cs).1 = true ∧
    Full.SafetyEqP (Full.runFull p s cs).2 (Full.runFull (Full.revisedP p u' a') s' cs).2 ∧
    Full.CwRel rel p u' a' (Full.runFull p s cs).2 (Full.runFull (Full.revisedP p u' a') s' cs).2 :=
  Full.cwRunFullOracle units rel start p u' a' E listedS listed acts Qs hc hu hans hpa cs s s' hreach hs hR hcl hside

/-- The same on the paper's base monitor, whose grants need no exact-call permit (Section 9 adds
permits): with no grant of the four lists needing one, `PermitByAction` is not assumed. -/
theorem closedRelationPreservesBaseMonitorFromOracle (units : List AgentWarrant.Revision.Closure.Unit')
    (rel : List (AgentWarrant.Revision.Closure.Usage × AgentWarrant.Revision.Closure.Usage))
    (start : AgentWarrant.Revision.Closure.Usage × AgentWarrant.Revision.Closure.Usage)
    (p : Full.Policy) (u' a' : List Full.Grant)
    (E : String → Option (List Lean.Json)) (listedS : String → List String) (listed : String → List (List Bool))
    (acts : List String) (Qs : List (List String))
    (hc : AgentWarrant.Revision.Closure.closedC (Full.cwLists p.user p.app) (Full.cwLists u' a') units rel start = true)
    (hu : Full.CwUnitsFrom units p u' a' listed Qs) (hans : Full.CwOracleCovered E listedS listed acts p u' a')
    (h1 : ∀ g, AgentWarrant.Mem g p.user → g.permit = false) (h2 : ∀ g, AgentWarrant.Mem g u' → g.permit = false)
    (h3 : ∀ g, AgentWarrant.Mem g p.app → g.permit = false) (h4 : ∀ g, AgentWarrant.Mem g a' → g.permit = false)
    (cs : List (Full.Call × Full.Outcome)) (s s' : Full.State)
    (hreach : ∃ cs0, s = (Full.runFull p (Full.initialState p) cs0).2) (hs : Full.SafetyEqP s s')
    (hR : Full.CwRel rel p u' a' s s') (hcl : Full.Client p s cs) (hside : Full.CwOracleAlong E acts Qs p u' a' s cs) :
    List.map Full.verdictLabel (Full.runFull (Full.revisedP p u' a') s' cs).1 = List.map Full.verdictLabel (Full.runFull p s cs).1 ∧
    allB Full.isAllowV (Full.runFull (Full.revisedP p u' a') s' cs).1 = true ∧
    Full.SafetyEqP (Full.runFull p s cs).2 (Full.runFull (Full.revisedP p u' a') s' cs).2 ∧
    Full.CwRel rel p u' a' (Full.runFull p s cs).2 (Full.runFull (Full.revisedP p u' a') s' cs).2 :=
  Full.cwRunFullOraclePermitFree units rel start p u' a' E listedS listed acts Qs hc hu hans h1 h2 h3 h4 cs s s'
    hreach hs hR hcl hside

/-- `closedRelationsPreserveWholeMonitorPerList` with its coverage premise from Lean's coverage oracle
instead of assumed, as the Python checker asks a per-list certificate's questions: for each action of
`acts`, the tool-checked policy oracle, asked about the user lists read as one (old, then new),
answers `covered` with the vectors `listedU a`, and asked about the application lists read as one,
with `listedA a`; each certificate's units hold every vector listed for its pair, split at the old
list's length, with every requirement set of `Qs`; the old run starts from a state a run from the
task's start reaches. What is still assumed of each call along the old run is the joint theorem's
`CwOracleAlong`, unchanged (the state's requirement list one of `Qs`; the coverage theorem's per-call
conditions, stated on the four lists, which give them on each pair because a pair's grants are among
the four lists'). Exact-call permits must follow the action, as before. -/
theorem closedRelationsPreserveWholeMonitorPerListFromOracle (unitsU unitsA : List AgentWarrant.Revision.Closure.Unit')
    (relU relA : List (AgentWarrant.Revision.Closure.Usage × AgentWarrant.Revision.Closure.Usage))
    (startU startA : AgentWarrant.Revision.Closure.Usage × AgentWarrant.Revision.Closure.Usage)
    (p : Full.Policy) (u' a' : List Full.Grant)
    (E : String → Option (List Lean.Json)) (listedSU listedSA : String → List String)
    (listedU listedA : String → List (List Bool)) (acts : List String) (Qs : List (List String))
    (hcU : AgentWarrant.Revision.Closure.closedC [Full.cwEntries p.user] [Full.cwEntries u'] unitsU relU startU = true)
    (hcA : AgentWarrant.Revision.Closure.closedC [Full.cwEntries p.app] [Full.cwEntries a'] unitsA relA startA = true)
    (huU : Full.CwUnitsFromL unitsU p.user u' listedU Qs) (huA : Full.CwUnitsFromL unitsA p.app a' listedA Qs)
    (hansU : Full.CwOracleCoveredOn E listedSU listedU acts p (p.user ++ u'))
    (hansA : Full.CwOracleCoveredOn E listedSA listedA acts p (p.app ++ a'))
    (hpa : Full.PermitByAction p u' a') (cs : List (Full.Call × Full.Outcome)) (s s' : Full.State)
    (hreach : ∃ cs0, s = (Full.runFull p (Full.initialState p) cs0).2) (hs : Full.SafetyEqP s s')
    (hR : Full.CwRelL relU relA p u' a' s s') (hcl : Full.Client p s cs)
    (hside : Full.CwOracleAlong E acts Qs p u' a' s cs) :
    List.map Full.verdictLabel (Full.runFull (Full.revisedP p u' a') s' cs).1 = List.map Full.verdictLabel (Full.runFull p s cs).1 ∧
    allB Full.isAllowV (Full.runFull (Full.revisedP p u' a') s' cs).1 = true ∧
    Full.SafetyEqP (Full.runFull p s cs).2 (Full.runFull (Full.revisedP p u' a') s' cs).2 ∧
    Full.CwRelL relU relA p u' a' (Full.runFull p s cs).2 (Full.runFull (Full.revisedP p u' a') s' cs).2 :=
  Full.cwRunFullPerListOracle unitsU unitsA relU relA startU startA p u' a' E listedSU listedSA listedU listedA acts Qs
    hcU hcA huU huA hansU hansA hpa cs s s' hreach hs hR hcl hside

/-- The same on the paper's base monitor, whose grants need no exact-call permit (Section 9 adds
permits): with no grant of the four lists needing one, `PermitByAction` is not assumed. -/
theorem closedRelationsPreserveBaseMonitorPerListFromOracle (unitsU unitsA : List AgentWarrant.Revision.Closure.Unit')
    (relU relA : List (AgentWarrant.Revision.Closure.Usage × AgentWarrant.Revision.Closure.Usage))
    (startU startA : AgentWarrant.Revision.Closure.Usage × AgentWarrant.Revision.Closure.Usage)
    (p : Full.Policy) (u' a' : List Full.Grant)
    (E : String → Option (List Lean.Json)) (listedSU listedSA : String → List String)
    (listedU listedA : String → List (List Bool)) (acts : List String) (Qs : List (List String))
    (hcU : AgentWarrant.Revision.Closure.closedC [Full.cwEntries p.user] [Full.cwEntries u'] unitsU relU startU = true)
    (hcA : AgentWarrant.Revision.Closure.closedC [Full.cwEntries p.app] [Full.cwEntries a'] unitsA relA startA = true)
    (huU : Full.CwUnitsFromL unitsU p.user u' listedU Qs) (huA : Full.CwUnitsFromL unitsA p.app a' listedA Qs)
    (hansU : Full.CwOracleCoveredOn E listedSU listedU acts p (p.user ++ u'))
    (hansA : Full.CwOracleCoveredOn E listedSA listedA acts p (p.app ++ a'))
    (h1 : ∀ g, AgentWarrant.Mem g p.user → g.permit = false) (h2 : ∀ g, AgentWarrant.Mem g u' → g.permit = false)
    (h3 : ∀ g, AgentWarrant.Mem g p.app → g.permit = false) (h4 : ∀ g, AgentWarrant.Mem g a' → g.permit = false)
    (cs : List (Full.Call × Full.Outcome)) (s s' : Full.State)
    (hreach : ∃ cs0, s = (Full.runFull p (Full.initialState p) cs0).2) (hs : Full.SafetyEqP s s')
    (hR : Full.CwRelL relU relA p u' a' s s') (hcl : Full.Client p s cs)
    (hside : Full.CwOracleAlong E acts Qs p u' a' s cs) :
    List.map Full.verdictLabel (Full.runFull (Full.revisedP p u' a') s' cs).1 = List.map Full.verdictLabel (Full.runFull p s cs).1 ∧
    allB Full.isAllowV (Full.runFull (Full.revisedP p u' a') s' cs).1 = true ∧
    Full.SafetyEqP (Full.runFull p s cs).2 (Full.runFull (Full.revisedP p u' a') s' cs).2 ∧
    Full.CwRelL relU relA p u' a' (Full.runFull p s cs).2 (Full.runFull (Full.revisedP p u' a') s' cs).2 :=
  Full.cwRunFullPerListOraclePermitFree unitsU unitsA relU relA startU startA p u' a' E listedSU listedSA listedU
    listedA acts Qs hcU hcA huU huA hansU hansA h1 h2 h3 h4 cs s s' hreach hs hR hcl hside

/-- `closedRelationPreservesWholeMonitorFromOracle` with neither per-state requirement hypothesis
nor `e.action ∈ acts` assumed. The check's units hold every listed vector with every subset of `R`,
each in `R`'s order (`cwSubsets R`), where `R` names every requirement a grant of the four lists asks
for (`CwReqsIn`): the Python checker writes the subsets of the sorted requirement names, each
sorted, which is `cwSubsets` of the sorted names. Whatever requirement list a state keeps, in the
order the requirements were satisfied and with names no entry asks for, the check treats its units
as those of the elements of `R` it contains (the check reads a unit's list only through membership of
the entries' requirements), so no hypothesis on the states' lists remains. `acts` names every action
the policy's tools declare (`CwActsNamed`), so every prepared effect's action is among them. What is
still assumed of each prepared call along the old run (`CwSideAlongR`): its resource among `E`'s, no
argument named twice, and values compared with array or object constants passing the oracle's
checks. Exact-call permits must follow the action, as before. -/
theorem closedRelationPreservesWholeMonitorFromOracleAnyReqs (units : List AgentWarrant.Revision.Closure.Unit')
    (rel : List (AgentWarrant.Revision.Closure.Usage × AgentWarrant.Revision.Closure.Usage))
    (start : AgentWarrant.Revision.Closure.Usage × AgentWarrant.Revision.Closure.Usage)
    (p : Full.Policy) (u' a' : List Full.Grant)
    (E : String → Option (List Lean.Json)) (listedS : String → List String) (listed : String → List (List Bool))
    (acts : List String) (R : List String)
    (hc : AgentWarrant.Revision.Closure.closedC (Full.cwLists p.user p.app) (Full.cwLists u' a') units rel start = true)
    (hu : Full.CwUnitsFrom units p u' a' listed (Full.cwSubsets R)) (hR : Full.CwReqsIn R (Full.cwAll p u' a'))
    (hacts : Full.CwActsNamed acts p) (hans : Full.CwOracleCovered E listedS listed acts p u' a')
    (hpa : Full.PermitByAction p u' a') (cs : List (Full.Call × Full.Outcome)) (s s' : Full.State)
    (hreach : ∃ cs0, s = (Full.runFull p (Full.initialState p) cs0).2) (hs : Full.SafetyEqP s s')
    (hrel : Full.CwRel rel p u' a' s s') (hcl : Full.Client p s cs) (hside : Full.CwSideAlongR E p u' a' s cs) :
    List.map Full.verdictLabel (Full.runFull (Full.revisedP p u' a') s' cs).1 = List.map Full.verdictLabel (Full.runFull p s cs).1 ∧
    allB Full.isAllowV (Full.runFull (Full.revisedP p u' a') s' cs).1 = true ∧
    Full.SafetyEqP (Full.runFull p s cs).2 (Full.runFull (Full.revisedP p u' a') s' cs).2 ∧
    Full.CwRel rel p u' a' (Full.runFull p s cs).2 (Full.runFull (Full.revisedP p u' a') s' cs).2 :=
  Full.cwRunFullOracleReq units rel start p u' a' E listedS listed acts R hc hu hR hacts hans hpa cs s s' hreach hs
    hrel hcl hside

/-- `closedRelationPreservesWholeMonitorFromOracleAnyReqs` with its two premises on the units and on
`R` decided by Lean: the units hold, for every vector listed for an action of `acts` and every subset
of `R`, the unit of that vector split at the four lists' lengths with that subset
(`cwuUnitsFromB`), and `R` names every requirement a grant of the four lists asks for
(`cwuReqsInB`, equivalent to `CwReqsIn` by `cwuReqsInIff`). The listed vectors of actions outside
`acts` are not read (the oracle is asked about `acts` alone). -/
theorem closedRelationPreservesWholeMonitorFromOracleChecked (units : List AgentWarrant.Revision.Closure.Unit')
    (rel : List (AgentWarrant.Revision.Closure.Usage × AgentWarrant.Revision.Closure.Usage))
    (start : AgentWarrant.Revision.Closure.Usage × AgentWarrant.Revision.Closure.Usage)
    (p : Full.Policy) (u' a' : List Full.Grant)
    (E : String → Option (List Lean.Json)) (listedS : String → List String) (listed : String → List (List Bool))
    (acts : List String) (R : List String)
    (hc : AgentWarrant.Revision.Closure.closedC (Full.cwLists p.user p.app) (Full.cwLists u' a') units rel start = true)
    (hu : Full.cwuUnitsFromB units p u' acts listed (Full.cwSubsets R) = true)
    (hR : Full.cwuReqsInB R (Full.cwAll p u' a') = true)
    (hacts : Full.CwActsNamed acts p) (hans : Full.CwOracleCovered E listedS listed acts p u' a')
    (hpa : Full.PermitByAction p u' a') (cs : List (Full.Call × Full.Outcome)) (s s' : Full.State)
    (hreach : ∃ cs0, s = (Full.runFull p (Full.initialState p) cs0).2) (hs : Full.SafetyEqP s s')
    (hrel : Full.CwRel rel p u' a' s s') (hcl : Full.Client p s cs) (hside : Full.CwSideAlongR E p u' a' s cs) :
    List.map Full.verdictLabel (Full.runFull (Full.revisedP p u' a') s' cs).1 = List.map Full.verdictLabel (Full.runFull p s cs).1 ∧
    allB Full.isAllowV (Full.runFull (Full.revisedP p u' a') s' cs).1 = true ∧
    Full.SafetyEqP (Full.runFull p s cs).2 (Full.runFull (Full.revisedP p u' a') s' cs).2 ∧
    Full.CwRel rel p u' a' (Full.runFull p s cs).2 (Full.runFull (Full.revisedP p u' a') s' cs).2 :=
  Full.cwRunFullOracleReq units rel start p u' a' E listedS (Full.cwuOnly acts listed) acts R hc
    (Full.cwuUnitsFromOf units p u' a' acts listed (Full.cwSubsets R) hu) ((Full.cwuReqsInIff R _).1 hR) hacts
    (Full.cwuCoveredOnly E listedS listed acts p u' a' hans) hpa cs s s' hreach hs hrel hcl hside

/-- The same on the paper's base monitor (no grant of the four lists needs an exact-call permit):
`PermitByAction` is not assumed. -/
theorem closedRelationPreservesBaseMonitorFromOracleAnyReqs (units : List AgentWarrant.Revision.Closure.Unit')
    (rel : List (AgentWarrant.Revision.Closure.Usage × AgentWarrant.Revision.Closure.Usage))
    (start : AgentWarrant.Revision.Closure.Usage × AgentWarrant.Revision.Closure.Usage)
    (p : Full.Policy) (u' a' : List Full.Grant)
    (E : String → Option (List Lean.Json)) (listedS : String → List String) (listed : String → List (List Bool))
    (acts : List String) (R : List String)
    (hc : AgentWarrant.Revision.Closure.closedC (Full.cwLists p.user p.app) (Full.cwLists u' a') units rel start = true)
    (hu : Full.CwUnitsFrom units p u' a' listed (Full.cwSubsets R)) (hR : Full.CwReqsIn R (Full.cwAll p u' a'))
    (hacts : Full.CwActsNamed acts p) (hans : Full.CwOracleCovered E listedS listed acts p u' a')
    (h1 : ∀ g, AgentWarrant.Mem g p.user → g.permit = false) (h2 : ∀ g, AgentWarrant.Mem g u' → g.permit = false)
    (h3 : ∀ g, AgentWarrant.Mem g p.app → g.permit = false) (h4 : ∀ g, AgentWarrant.Mem g a' → g.permit = false)
    (cs : List (Full.Call × Full.Outcome)) (s s' : Full.State)
    (hreach : ∃ cs0, s = (Full.runFull p (Full.initialState p) cs0).2) (hs : Full.SafetyEqP s s')
    (hrel : Full.CwRel rel p u' a' s s') (hcl : Full.Client p s cs) (hside : Full.CwSideAlongR E p u' a' s cs) :
    List.map Full.verdictLabel (Full.runFull (Full.revisedP p u' a') s' cs).1 = List.map Full.verdictLabel (Full.runFull p s cs).1 ∧
    allB Full.isAllowV (Full.runFull (Full.revisedP p u' a') s' cs).1 = true ∧
    Full.SafetyEqP (Full.runFull p s cs).2 (Full.runFull (Full.revisedP p u' a') s' cs).2 ∧
    Full.CwRel rel p u' a' (Full.runFull p s cs).2 (Full.runFull (Full.revisedP p u' a') s' cs).2 :=
  Full.cwRunFullOracleReqPermitFree units rel start p u' a' E listedS listed acts R hc hu hR hacts hans h1 h2 h3 h4
    cs s s' hreach hs hrel hcl hside

/-- `closedRelationPreservesWholeMonitorFromOracleAnyReqs` with the oracle asked only about the
actions an Allow grant of the old user list names (`CwActsAllowed`: each such action is among
`acts` unless `E` holds no resource for it), as `revise` asks about the actions of `E` that an old
Allow entry names, `E` read as no resource for an action it leaves out (`EffectSet.resources`). A
unit whose effect's action no such grant names fails on the old lists from every usage (no Allow
entry of the old user list matches it), so a run containing it fails on the old side and the
closure property asks nothing of it; such units need no listed vector. Still assumed of each
prepared call along the old run (`CwSideAlongR`): its resources among `E`'s, no argument named
twice, and values compared with array or object constants passing the oracle's checks. -/
theorem closedRelationPreservesWholeMonitorFromOracleAllowed (units : List AgentWarrant.Revision.Closure.Unit')
    (rel : List (AgentWarrant.Revision.Closure.Usage × AgentWarrant.Revision.Closure.Usage))
    (start : AgentWarrant.Revision.Closure.Usage × AgentWarrant.Revision.Closure.Usage)
    (p : Full.Policy) (u' a' : List Full.Grant)
    (E : String → Option (List Lean.Json)) (listedS : String → List String) (listed : String → List (List Bool))
    (acts : List String) (R : List String)
    (hc : AgentWarrant.Revision.Closure.closedC (Full.cwLists p.user p.app) (Full.cwLists u' a') units rel start = true)
    (hu : Full.CwUnitsFrom units p u' a' listed (Full.cwSubsets R)) (hR : Full.CwReqsIn R (Full.cwAll p u' a'))
    (hacts : Full.CwActsAllowed acts E p) (hans : Full.CwOracleCovered E listedS listed acts p u' a')
    (hpa : Full.PermitByAction p u' a') (cs : List (Full.Call × Full.Outcome)) (s s' : Full.State)
    (hreach : ∃ cs0, s = (Full.runFull p (Full.initialState p) cs0).2) (hs : Full.SafetyEqP s s')
    (hrel : Full.CwRel rel p u' a' s s') (hcl : Full.Client p s cs) (hside : Full.CwSideAlongR E p u' a' s cs) :
    List.map Full.verdictLabel (Full.runFull (Full.revisedP p u' a') s' cs).1 = List.map Full.verdictLabel (Full.runFull p s cs).1 ∧
    allB Full.isAllowV (Full.runFull (Full.revisedP p u' a') s' cs).1 = true ∧
    Full.SafetyEqP (Full.runFull p s cs).2 (Full.runFull (Full.revisedP p u' a') s' cs).2 ∧
    Full.CwRel rel p u' a' (Full.runFull p s cs).2 (Full.runFull (Full.revisedP p u' a') s' cs).2 :=
  Full.cwRunFullOracleAllow units rel start p u' a' E listedS listed acts R hc hu hR hacts hans hpa cs s s' hreach hs
    hrel hcl hside

/-- The same on the paper's base monitor (no grant of the four lists needs an exact-call permit):
`PermitByAction` is not assumed. -/
theorem closedRelationPreservesBaseMonitorFromOracleAllowed (units : List AgentWarrant.Revision.Closure.Unit')
    (rel : List (AgentWarrant.Revision.Closure.Usage × AgentWarrant.Revision.Closure.Usage))
    (start : AgentWarrant.Revision.Closure.Usage × AgentWarrant.Revision.Closure.Usage)
    (p : Full.Policy) (u' a' : List Full.Grant)
    (E : String → Option (List Lean.Json)) (listedS : String → List String) (listed : String → List (List Bool))
    (acts : List String) (R : List String)
    (hc : AgentWarrant.Revision.Closure.closedC (Full.cwLists p.user p.app) (Full.cwLists u' a') units rel start = true)
    (hu : Full.CwUnitsFrom units p u' a' listed (Full.cwSubsets R)) (hR : Full.CwReqsIn R (Full.cwAll p u' a'))
    (hacts : Full.CwActsAllowed acts E p) (hans : Full.CwOracleCovered E listedS listed acts p u' a')
    (h1 : ∀ g, AgentWarrant.Mem g p.user → g.permit = false) (h2 : ∀ g, AgentWarrant.Mem g u' → g.permit = false)
    (h3 : ∀ g, AgentWarrant.Mem g p.app → g.permit = false) (h4 : ∀ g, AgentWarrant.Mem g a' → g.permit = false)
    (cs : List (Full.Call × Full.Outcome)) (s s' : Full.State)
    (hreach : ∃ cs0, s = (Full.runFull p (Full.initialState p) cs0).2) (hs : Full.SafetyEqP s s')
    (hrel : Full.CwRel rel p u' a' s s') (hcl : Full.Client p s cs) (hside : Full.CwSideAlongR E p u' a' s cs) :
    List.map Full.verdictLabel (Full.runFull (Full.revisedP p u' a') s' cs).1 = List.map Full.verdictLabel (Full.runFull p s cs).1 ∧
    allB Full.isAllowV (Full.runFull (Full.revisedP p u' a') s' cs).1 = true ∧
    Full.SafetyEqP (Full.runFull p s cs).2 (Full.runFull (Full.revisedP p u' a') s' cs).2 ∧
    Full.CwRel rel p u' a' (Full.runFull p s cs).2 (Full.runFull (Full.revisedP p u' a') s' cs).2 :=
  Full.cwRunFullOracleAllowPermitFree units rel start p u' a' E listedS listed acts R hc hu hR hacts hans h1 h2 h3 h4
    cs s s' hreach hs hrel hcl hside

/-- `closedRelationsPreserveWholeMonitorPerListFromOracle` with neither per-state requirement
hypothesis nor `e.action ∈ acts` assumed: the per-list form of
`closedRelationPreservesWholeMonitorFromOracleAnyReqs`. Each certificate's units hold every vector
listed for its pair with every subset of a list naming every requirement a grant of that pair asks
for (`cwSubsets RU` with `CwReqsIn RU (p.user ++ u')`, `cwSubsets RA` with `CwReqsIn RA (p.app ++ a')`),
as the Python checker writes a per-list certificate's units with the subsets of the requirements its
two lists name, each sorted. `acts` names every action the policy's tools declare (`CwActsNamed`).
Still assumed of each prepared call along the old run is the joint theorem's `CwSideAlongR` (its
resources among `E`'s, no argument named twice, values compared with array or object constants
passing the oracle's checks, stated on the four lists, which gives it on each pair). Exact-call
permits must follow the action, as before. -/
theorem closedRelationsPreserveWholeMonitorPerListFromOracleAnyReqs
    (unitsU unitsA : List AgentWarrant.Revision.Closure.Unit')
    (relU relA : List (AgentWarrant.Revision.Closure.Usage × AgentWarrant.Revision.Closure.Usage))
    (startU startA : AgentWarrant.Revision.Closure.Usage × AgentWarrant.Revision.Closure.Usage)
    (p : Full.Policy) (u' a' : List Full.Grant)
    (E : String → Option (List Lean.Json)) (listedSU listedSA : String → List String)
    (listedU listedA : String → List (List Bool)) (acts : List String) (RU RA : List String)
    (hcU : AgentWarrant.Revision.Closure.closedC [Full.cwEntries p.user] [Full.cwEntries u'] unitsU relU startU = true)
    (hcA : AgentWarrant.Revision.Closure.closedC [Full.cwEntries p.app] [Full.cwEntries a'] unitsA relA startA = true)
    (huU : Full.CwUnitsFromL unitsU p.user u' listedU (Full.cwSubsets RU))
    (huA : Full.CwUnitsFromL unitsA p.app a' listedA (Full.cwSubsets RA))
    (hRU : Full.CwReqsIn RU (p.user ++ u')) (hRA : Full.CwReqsIn RA (p.app ++ a')) (hacts : Full.CwActsNamed acts p)
    (hansU : Full.CwOracleCoveredOn E listedSU listedU acts p (p.user ++ u'))
    (hansA : Full.CwOracleCoveredOn E listedSA listedA acts p (p.app ++ a'))
    (hpa : Full.PermitByAction p u' a') (cs : List (Full.Call × Full.Outcome)) (s s' : Full.State)
    (hreach : ∃ cs0, s = (Full.runFull p (Full.initialState p) cs0).2) (hs : Full.SafetyEqP s s')
    (hR : Full.CwRelL relU relA p u' a' s s') (hcl : Full.Client p s cs) (hside : Full.CwSideAlongR E p u' a' s cs) :
    List.map Full.verdictLabel (Full.runFull (Full.revisedP p u' a') s' cs).1 = List.map Full.verdictLabel (Full.runFull p s cs).1 ∧
    allB Full.isAllowV (Full.runFull (Full.revisedP p u' a') s' cs).1 = true ∧
    Full.SafetyEqP (Full.runFull p s cs).2 (Full.runFull (Full.revisedP p u' a') s' cs).2 ∧
    Full.CwRelL relU relA p u' a' (Full.runFull p s cs).2 (Full.runFull (Full.revisedP p u' a') s' cs).2 :=
  Full.cwRunFullPerListOracleReq unitsU unitsA relU relA startU startA p u' a' E listedSU listedSA listedU listedA acts
    RU RA hcU hcA huU huA hRU hRA hacts hansU hansA hpa cs s s' hreach hs hR hcl hside

/-- The same on the paper's base monitor (no grant of the four lists needs an exact-call permit):
`PermitByAction` is not assumed. -/
theorem closedRelationsPreserveBaseMonitorPerListFromOracleAnyReqs
    (unitsU unitsA : List AgentWarrant.Revision.Closure.Unit')
    (relU relA : List (AgentWarrant.Revision.Closure.Usage × AgentWarrant.Revision.Closure.Usage))
    (startU startA : AgentWarrant.Revision.Closure.Usage × AgentWarrant.Revision.Closure.Usage)
    (p : Full.Policy) (u' a' : List Full.Grant)
    (E : String → Option (List Lean.Json)) (listedSU listedSA : String → List String)
    (listedU listedA : String → List (List Bool)) (acts : List String) (RU RA : List String)
    (hcU : AgentWarrant.Revision.Closure.closedC [Full.cwEntries p.user] [Full.cwEntries u'] unitsU relU startU = true)
    (hcA : AgentWarrant.Revision.Closure.closedC [Full.cwEntries p.app] [Full.cwEntries a'] unitsA relA startA = true)
    (huU : Full.CwUnitsFromL unitsU p.user u' listedU (Full.cwSubsets RU))
    (huA : Full.CwUnitsFromL unitsA p.app a' listedA (Full.cwSubsets RA))
    (hRU : Full.CwReqsIn RU (p.user ++ u')) (hRA : Full.CwReqsIn RA (p.app ++ a')) (hacts : Full.CwActsNamed acts p)
    (hansU : Full.CwOracleCoveredOn E listedSU listedU acts p (p.user ++ u'))
    (hansA : Full.CwOracleCoveredOn E listedSA listedA acts p (p.app ++ a'))
    (h1 : ∀ g, AgentWarrant.Mem g p.user → g.permit = false) (h2 : ∀ g, AgentWarrant.Mem g u' → g.permit = false)
    (h3 : ∀ g, AgentWarrant.Mem g p.app → g.permit = false) (h4 : ∀ g, AgentWarrant.Mem g a' → g.permit = false)
    (cs : List (Full.Call × Full.Outcome)) (s s' : Full.State)
    (hreach : ∃ cs0, s = (Full.runFull p (Full.initialState p) cs0).2) (hs : Full.SafetyEqP s s')
    (hR : Full.CwRelL relU relA p u' a' s s') (hcl : Full.Client p s cs) (hside : Full.CwSideAlongR E p u' a' s cs) :
    List.map Full.verdictLabel (Full.runFull (Full.revisedP p u' a') s' cs).1 = List.map Full.verdictLabel (Full.runFull p s cs).1 ∧
    allB Full.isAllowV (Full.runFull (Full.revisedP p u' a') s' cs).1 = true ∧
    Full.SafetyEqP (Full.runFull p s cs).2 (Full.runFull (Full.revisedP p u' a') s' cs).2 ∧
    Full.CwRelL relU relA p u' a' (Full.runFull p s cs).2 (Full.runFull (Full.revisedP p u' a') s' cs).2 :=
  Full.cwRunFullPerListOracleReqPermitFree unitsU unitsA relU relA startU startA p u' a' E listedSU listedSA listedU
    listedA acts RU RA hcU hcA huU huA hRU hRA hacts hansU hansA h1 h2 h3 h4 cs s s' hreach hs hR hcl hside

/-- `closedRelationsPreserveWholeMonitorPerListFromOracleAnyReqs` with both pairs' oracles asked only
about the actions an Allow grant of the old user list names (`CwActsAllowed`), as
`closedRelationPreservesWholeMonitorFromOracleAllowed` for the joint certificate: a call with an
effect whose action no such grant names fails on the old user list from every usage, so the user
certificate's old run of it fails and the closure property asks nothing of it. -/
theorem closedRelationsPreserveWholeMonitorPerListFromOracleAllowed
    (unitsU unitsA : List AgentWarrant.Revision.Closure.Unit')
    (relU relA : List (AgentWarrant.Revision.Closure.Usage × AgentWarrant.Revision.Closure.Usage))
    (startU startA : AgentWarrant.Revision.Closure.Usage × AgentWarrant.Revision.Closure.Usage)
    (p : Full.Policy) (u' a' : List Full.Grant)
    (E : String → Option (List Lean.Json)) (listedSU listedSA : String → List String)
    (listedU listedA : String → List (List Bool)) (acts : List String) (RU RA : List String)
    (hcU : AgentWarrant.Revision.Closure.closedC [Full.cwEntries p.user] [Full.cwEntries u'] unitsU relU startU = true)
    (hcA : AgentWarrant.Revision.Closure.closedC [Full.cwEntries p.app] [Full.cwEntries a'] unitsA relA startA = true)
    (huU : Full.CwUnitsFromL unitsU p.user u' listedU (Full.cwSubsets RU))
    (huA : Full.CwUnitsFromL unitsA p.app a' listedA (Full.cwSubsets RA))
    (hRU : Full.CwReqsIn RU (p.user ++ u')) (hRA : Full.CwReqsIn RA (p.app ++ a')) (hacts : Full.CwActsAllowed acts E p)
    (hansU : Full.CwOracleCoveredOn E listedSU listedU acts p (p.user ++ u'))
    (hansA : Full.CwOracleCoveredOn E listedSA listedA acts p (p.app ++ a'))
    (hpa : Full.PermitByAction p u' a')
    (cs : List (Full.Call × Full.Outcome)) (s s' : Full.State)
    (hreach : ∃ cs0, s = (Full.runFull p (Full.initialState p) cs0).2) (hs : Full.SafetyEqP s s')
    (hR : Full.CwRelL relU relA p u' a' s s') (hcl : Full.Client p s cs) (hside : Full.CwSideAlongR E p u' a' s cs) :
    List.map Full.verdictLabel (Full.runFull (Full.revisedP p u' a') s' cs).1 = List.map Full.verdictLabel (Full.runFull p s cs).1 ∧
    allB Full.isAllowV (Full.runFull (Full.revisedP p u' a') s' cs).1 = true ∧
    Full.SafetyEqP (Full.runFull p s cs).2 (Full.runFull (Full.revisedP p u' a') s' cs).2 ∧
    Full.CwRelL relU relA p u' a' (Full.runFull p s cs).2 (Full.runFull (Full.revisedP p u' a') s' cs).2 :=
  Full.cwRunFullPerListOracleAllow unitsU unitsA relU relA startU startA p u' a' E listedSU listedSA listedU listedA acts
    RU RA hcU hcA huU huA hRU hRA hacts hansU hansA hpa cs s s' hreach hs hR hcl hside

/-- The same on the paper's base monitor (no grant of the four lists needs an exact-call permit):
`PermitByAction` is not assumed. -/
theorem closedRelationsPreserveBaseMonitorPerListFromOracleAllowed
    (unitsU unitsA : List AgentWarrant.Revision.Closure.Unit')
    (relU relA : List (AgentWarrant.Revision.Closure.Usage × AgentWarrant.Revision.Closure.Usage))
    (startU startA : AgentWarrant.Revision.Closure.Usage × AgentWarrant.Revision.Closure.Usage)
    (p : Full.Policy) (u' a' : List Full.Grant)
    (E : String → Option (List Lean.Json)) (listedSU listedSA : String → List String)
    (listedU listedA : String → List (List Bool)) (acts : List String) (RU RA : List String)
    (hcU : AgentWarrant.Revision.Closure.closedC [Full.cwEntries p.user] [Full.cwEntries u'] unitsU relU startU = true)
    (hcA : AgentWarrant.Revision.Closure.closedC [Full.cwEntries p.app] [Full.cwEntries a'] unitsA relA startA = true)
    (huU : Full.CwUnitsFromL unitsU p.user u' listedU (Full.cwSubsets RU))
    (huA : Full.CwUnitsFromL unitsA p.app a' listedA (Full.cwSubsets RA))
    (hRU : Full.CwReqsIn RU (p.user ++ u')) (hRA : Full.CwReqsIn RA (p.app ++ a')) (hacts : Full.CwActsAllowed acts E p)
    (hansU : Full.CwOracleCoveredOn E listedSU listedU acts p (p.user ++ u'))
    (hansA : Full.CwOracleCoveredOn E listedSA listedA acts p (p.app ++ a'))
    (h1 : ∀ g, AgentWarrant.Mem g p.user → g.permit = false) (h2 : ∀ g, AgentWarrant.Mem g u' → g.permit = false)
    (h3 : ∀ g, AgentWarrant.Mem g p.app → g.permit = false) (h4 : ∀ g, AgentWarrant.Mem g a' → g.permit = false)
    (cs : List (Full.Call × Full.Outcome)) (s s' : Full.State)
    (hreach : ∃ cs0, s = (Full.runFull p (Full.initialState p) cs0).2) (hs : Full.SafetyEqP s s')
    (hR : Full.CwRelL relU relA p u' a' s s') (hcl : Full.Client p s cs) (hside : Full.CwSideAlongR E p u' a' s cs) :
    List.map Full.verdictLabel (Full.runFull (Full.revisedP p u' a') s' cs).1 = List.map Full.verdictLabel (Full.runFull p s cs).1 ∧
    allB Full.isAllowV (Full.runFull (Full.revisedP p u' a') s' cs).1 = true ∧
    Full.SafetyEqP (Full.runFull p s cs).2 (Full.runFull (Full.revisedP p u' a') s' cs).2 ∧
    Full.CwRelL relU relA p u' a' (Full.runFull p s cs).2 (Full.runFull (Full.revisedP p u' a') s' cs).2 :=
  Full.cwRunFullPerListOracleAllowPermitFree unitsU unitsA relU relA startU startA p u' a' E listedSU listedSA listedU
    listedA acts RU RA hcU hcA huU huA hRU hRA hacts hansU hansA h1 h2 h3 h4 cs s s' hreach hs hR hcl hside

-- Edits: the ideal machine and the runtime (Edit checking VI-B, VII, A-H to A-L) -----------------

/-- Every event of the runtime (Table III) keeps AgentSec, so every finite sequence of events from
an AgentSec state ends in one; the accepted root update starts in one. -/
theorem runtimeKeepsAgentSec (der : AgentWarrant.Edits.Machine.Derivation) (S : AgentWarrant.Edits.Machine.RState)
    (es : List AgentWarrant.Edits.Machine.Ev) (h : AgentWarrant.Edits.Machine.AgentSec S.core) :
    AgentWarrant.Edits.Machine.AgentSec (AgentWarrant.Edits.Machine.replay der S es).core :=
  AgentWarrant.Edits.Machine.replaySec der es S h

/-- A restart after any mix of committed and interrupted transactions exposes exactly the state the
committed events reach from the initial state. -/
theorem restartExposesCommittedPath (der : AgentWarrant.Edits.Machine.Derivation) (S0 : AgentWarrant.Edits.Machine.RState)
    (es : List (AgentWarrant.Edits.Machine.Ev × Bool)) :
    AgentWarrant.Edits.Machine.restart (AgentWarrant.Edits.Machine.runStore der ⟨S0, S0, []⟩ es) =
      AgentWarrant.Edits.Machine.replay der S0 (AgentWarrant.Edits.Machine.committedOf es) :=
  (AgentWarrant.Edits.Machine.restartRecovers der S0 es).1

/-- Exact Checkpoint on the record's own tree: `Checkpoint(k, b)` is accepted exactly when rules are
in force, `k` is fresh among the tree's names and the checkpoints, and `b` is a current branch of the
record's tree, which the machine decides itself (`currentB`). -/
theorem exactCheckpoint (c : AgentWarrant.Edits.Machine.Core) (k b : Nat) :
    (AgentWarrant.Edits.Machine.checkpoint c k b).1 = AgentWarrant.Edits.Machine.Obs.saved k ↔
      (c.eta ≠ none ∧ AgentWarrant.Edits.Machine.memB k c.names = false ∧
       AgentWarrant.Edits.Machine.memB k c.ckpts = false ∧
       AgentWarrant.Edits.Machine.currentB c.tree b = true) :=
  (AgentWarrant.Edits.Machine.checkpointExact c k b).1

/-- The remaining-work equation of stored checkpoints: from an accepted root, after any finite
sequence of runtime events, every checkpoint copy the record stores has `𝒞_b = Γ_b / raw(χ_b)` of its
own `Γ_b` and `χ_b`. -/
theorem storedCheckpointsKeepRemainingWork (der : AgentWarrant.Edits.Machine.Derivation)
    (d : AgentWarrant.Edits.Machine.Derived) (S : AgentWarrant.Edits.Machine.RState)
    (h : AgentWarrant.Edits.Machine.start d = some S) (es : List AgentWarrant.Edits.Machine.Ev) :
    AgentWarrant.Edits.Machine.SavedOk (AgentWarrant.Edits.Machine.replay der S es).core.saved :=
  AgentWarrant.Edits.Machine.replaySaved der es S (AgentWarrant.Edits.Machine.startSaved h)

/-- Lean builds every tree of the runtime: with a `Derive` that names each edit's tree change rather
than the tree (`treeDer`), every committed step leaves the record's tree, its `HStep`, or Lean's own
`applyEdit` (Table I's row) of the record's tree for the change the derivation names there. -/
theorem editTreesAreLeans (tab : AgentWarrant.Edits.Machine.Core → Nat →
      Option (AgentWarrant.Edits.Machine.Derived × AgentWarrant.Edits.Machine.TEdit))
    (S : AgentWarrant.Edits.Machine.RState) (e : AgentWarrant.Edits.Machine.Ev) :
    AgentWarrant.Edits.Machine.TreeStep tab S.core
      (AgentWarrant.Edits.Machine.stepR (AgentWarrant.Edits.Machine.treeDer tab) S e).2.core.tree :=
  AgentWarrant.Edits.Machine.stepTree tab S e

/-- The fresh leaf `b_J` of a Merge (Table I's MergeSelect and MergeJoin rows) runs after the merged
work: in the tree Lean builds, `b_J` is the leaf named `b_J`, the second part of the sequence that now
stands at the merged group's position, and it is current exactly when `addr(T')`'s walk reaches that
sequence and its earlier part (the kept arm, or the join barrier) is complete (`seqOk`). -/
theorem mergeLeafRunsAfterMergedWork (t t' : AgentWarrant.Edits.Machine.Tree) (g bj : Nat) (gj : List AgentWarrant.Edits.Pomset) :
    (∀ arm, AgentWarrant.Edits.Machine.applyEdit t (AgentWarrant.Edits.Machine.TEdit.select g arm bj gj) = some t' →
      ∃ i n p f, AgentWarrant.Edits.Machine.currentGroupAt t g = some (i + 1, n) ∧ n.kind = 1 ∧
        AgentWarrant.Edits.Machine.nodeAt t' (i + 1) = some ⟨0, 4, n.parent, n.pos, 0, [], []⟩ ∧
        AgentWarrant.Edits.Machine.nodeAt t' p = some (AgentWarrant.Edits.Machine.newLeaf bj (i + 1) 1 gj) ∧ AgentWarrant.Edits.Machine.findLeaf bj 1 t' = some p ∧ List.length t' = f + 1 ∧
        AgentWarrant.Edits.Machine.currentB t' bj = (AgentWarrant.Edits.Machine.seqOk t' (i + 1) ⟨0, 4, n.parent, n.pos, 0, [], []⟩
          (AgentWarrant.Edits.Machine.newLeaf bj (i + 1) 1 gj) && AgentWarrant.Edits.Machine.addrUp f t' (i + 1))) ∧
    (AgentWarrant.Edits.Machine.applyEdit t (AgentWarrant.Edits.Machine.TEdit.join g bj gj) = some t' →
      ∃ i n p f, AgentWarrant.Edits.Machine.currentGroupAt t g = some (i + 1, n) ∧ n.kind = 2 ∧
        AgentWarrant.Edits.Machine.nodeAt t' (i + 1) = some ⟨0, 4, n.parent, n.pos, 0, [], []⟩ ∧
        AgentWarrant.Edits.Machine.nodeAt t' p = some (AgentWarrant.Edits.Machine.newLeaf bj (i + 1) 1 gj) ∧ AgentWarrant.Edits.Machine.findLeaf bj 1 t' = some p ∧ List.length t' = f + 1 ∧
        AgentWarrant.Edits.Machine.currentB t' bj = (AgentWarrant.Edits.Machine.seqOk t' (i + 1) ⟨0, 4, n.parent, n.pos, 0, [], []⟩
          (AgentWarrant.Edits.Machine.newLeaf bj (i + 1) 1 gj) && AgentWarrant.Edits.Machine.addrUp f t' (i + 1))) :=
  ⟨fun _ h => AgentWarrant.Edits.Machine.selectJoinCurrent h, fun h => AgentWarrant.Edits.Machine.joinJoinCurrent h⟩

/-- A Fork of a current branch leaves both fresh arms current (Table I's Fork row), on a tree whose
parents precede their children and that has no sequence node (special case: no Merge has run). -/
theorem forkArmsCurrentWhenBranchWas (t t' : AgentWarrant.Edits.Machine.Tree) (par : Bool) (b g bl br : Nat)
    (gl gr : List AgentWarrant.Edits.Pomset)
    (h : AgentWarrant.Edits.Machine.applyEdit t (AgentWarrant.Edits.Machine.TEdit.fork par b g bl br gl gr) = some t') (hwf : AgentWarrant.Edits.Machine.ParentsBefore t)
    (hseq : ∀ k n, AgentWarrant.Edits.Machine.nodeAt t k = some n → n.kind ≠ 4) :
    AgentWarrant.Edits.Machine.currentB t b = true ∧ AgentWarrant.Edits.Machine.currentB t' bl = true ∧ AgentWarrant.Edits.Machine.currentB t' br = true :=
  ⟨AgentWarrant.Edits.Machine.forkCurrent h, AgentWarrant.Edits.Machine.forkArmsStayCurrent h hwf hseq⟩

/-- Every tree change of Table I keeps parents before children (each node's parent an earlier position
of the flat tree), and so every tree the runtime reaches from an accepted root whose tree has them has
them too, after any finite sequence of events (`HStep` and `applyEdit` both keep it). -/
theorem editTreesKeepParentsBefore :
    (∀ (t t' : AgentWarrant.Edits.Machine.Tree) (e : AgentWarrant.Edits.Machine.TEdit),
      AgentWarrant.Edits.Machine.applyEdit t e = some t' → AgentWarrant.Edits.Machine.ParentsBefore t →
      AgentWarrant.Edits.Machine.ParentsBefore t') ∧
    (∀ (tab : AgentWarrant.Edits.Machine.Core → Nat →
        Option (AgentWarrant.Edits.Machine.Derived × AgentWarrant.Edits.Machine.TEdit))
      (d : AgentWarrant.Edits.Machine.Derived) (S : AgentWarrant.Edits.Machine.RState)
      (es : List AgentWarrant.Edits.Machine.Ev), AgentWarrant.Edits.Machine.start d = some S →
      AgentWarrant.Edits.Machine.ParentsBefore d.tree →
      AgentWarrant.Edits.Machine.ParentsBefore
        (AgentWarrant.Edits.Machine.replay (AgentWarrant.Edits.Machine.treeDer tab) S es).core.tree) :=
  ⟨fun _ _ _ h hwf => AgentWarrant.Edits.Machine.applyEditParentsBefore h hwf,
   fun tab _ S es hs hd => AgentWarrant.Edits.Machine.replayParentsBefore tab es S
     (AgentWarrant.Edits.Machine.startParentsBefore hs hd)⟩

/-- Every tree change of Table I keeps the flat tree in preorder: parent links that do not cross
(`NoCross`) stay uncrossed under `applyEdit` on a tree with parents before children, so every tree the
runtime reaches from an accepted root whose tree has both has them, after any finite sequence of events;
and such a tree is in preorder: every node strictly between a node and one of its descendants descends
from it. -/
theorem editTreesKeepPreorder :
    (∀ (t t' : AgentWarrant.Edits.Machine.Tree) (e : AgentWarrant.Edits.Machine.TEdit),
      AgentWarrant.Edits.Machine.applyEdit t e = some t' → AgentWarrant.Edits.Machine.ParentsBefore t →
      AgentWarrant.Edits.Machine.NoCross t → AgentWarrant.Edits.Machine.NoCross t') ∧
    (∀ (tab : AgentWarrant.Edits.Machine.Core → Nat →
        Option (AgentWarrant.Edits.Machine.Derived × AgentWarrant.Edits.Machine.TEdit))
      (d : AgentWarrant.Edits.Machine.Derived) (S : AgentWarrant.Edits.Machine.RState)
      (es : List AgentWarrant.Edits.Machine.Ev), AgentWarrant.Edits.Machine.start d = some S →
      AgentWarrant.Edits.Machine.ParentsBefore d.tree → AgentWarrant.Edits.Machine.NoCross d.tree →
      AgentWarrant.Edits.Machine.NoCross
        (AgentWarrant.Edits.Machine.replay (AgentWarrant.Edits.Machine.treeDer tab) S es).core.tree) ∧
    (∀ (t : AgentWarrant.Edits.Machine.Tree) (q z y : Nat) (ny : AgentWarrant.Edits.Machine.TNode),
      AgentWarrant.Edits.Machine.ParentsBefore t → AgentWarrant.Edits.Machine.NoCross t →
      AgentWarrant.Edits.Machine.Desc t q z → AgentWarrant.Edits.Machine.nodeAt t y = some ny → q < y → y < z →
      AgentWarrant.Edits.Machine.Desc t q y) :=
  ⟨fun _ _ _ h hpb hnc => AgentWarrant.Edits.Machine.applyEditNoCross h hpb hnc,
   fun tab _ S es hs hd hn => AgentWarrant.Edits.Machine.replayNoCross tab es S
     (AgentWarrant.Edits.Machine.startParentsBefore hs hd) (AgentWarrant.Edits.Machine.startNoCross hs hn),
   fun _ q z y ny hpb hnc hd hy hqy hyz =>
     AgentWarrant.Edits.Machine.noCrossContiguous hpb hnc q z hd y ny hy hqy hyz⟩

/-- The flat tree's preorder invariant, as parent links that do not cross (`NoCross`): `HStep` keeps it,
and in a tree that has it every node after the subtree `spliceAt` replaces at `j` has its parent before
`j` or after that subtree, so the splice's shift never re-parents a node onto a replaced one. -/
theorem treePreorderShiftSound :
    (∀ (t : AgentWarrant.Edits.Machine.Tree) (x : Nat), AgentWarrant.Edits.Machine.NoCross t →
      AgentWarrant.Edits.Machine.NoCross (AgentWarrant.Edits.Machine.hstep t x)) ∧
    (∀ (t : AgentWarrant.Edits.Machine.Tree) (j c : Nat) (nc : AgentWarrant.Edits.Machine.TNode),
      AgentWarrant.Edits.Machine.NoCross t → AgentWarrant.Edits.Machine.nodeAt t c = some nc →
      j + AgentWarrant.Edits.Machine.runLen j (AgentWarrant.Edits.Machine.dropN j t) + 1 ≤ c →
      nc.parent < j ∨
        j + AgentWarrant.Edits.Machine.runLen j (AgentWarrant.Edits.Machine.dropN j t) + 1 ≤ nc.parent) :=
  ⟨fun t x h => AgentWarrant.Edits.Machine.hstepNoCross t x h,
   fun _ j c nc h hn hle => AgentWarrant.Edits.Machine.afterRunParent h j c nc hn hle⟩

/-- On every tree the runtime reaches from an accepted root whose tree has parents before children,
both fresh arms of a Fork of a current branch with no sequence above it are current branches of `T'`:
parents before children is no longer a hypothesis, and sequences elsewhere in the tree (a Merge of
another branch) are allowed. -/
theorem forkArmsCurrentOnReachedTrees (tab : AgentWarrant.Edits.Machine.Core → Nat →
      Option (AgentWarrant.Edits.Machine.Derived × AgentWarrant.Edits.Machine.TEdit))
    (t t' : AgentWarrant.Edits.Machine.Tree) (par : Bool) (b g bl br : Nat) (gl gr : List AgentWarrant.Edits.Pomset)
    (hr : AgentWarrant.Edits.Machine.Reached tab t)
    (h : AgentWarrant.Edits.Machine.applyEdit t (AgentWarrant.Edits.Machine.TEdit.fork par b g bl br gl gr) = some t')
    (hs : AgentWarrant.Edits.Machine.seqFreeAboveLeaf t b = true) :
    AgentWarrant.Edits.Machine.currentB t b = true ∧ AgentWarrant.Edits.Machine.currentB t' bl = true ∧
      AgentWarrant.Edits.Machine.currentB t' br = true :=
  ⟨AgentWarrant.Edits.Machine.forkCurrent h, AgentWarrant.Edits.Machine.forkArmsCurrentReached hr h hs⟩

/-- The new leaves of every edit are current with sequences anywhere in the tree: on every tree the runtime
reaches from an accepted root whose tree is in preorder (parents before children, `NoCross`), after an
edit of a current branch both fresh arms of a Fork, RestoreReplace's `b_k`, and RestoreLive's `b` and `b_k`
are current branches of `T'`, and after a Merge of a current group `b_J` is current exactly when the new
sequence lets it through (its kept arm or join barrier complete); no hypothesis on the sequences above
the edited branch or group. -/
theorem newLeavesCurrentOnReachedTrees (tab : AgentWarrant.Edits.Machine.Core → Nat →
      Option (AgentWarrant.Edits.Machine.Derived × AgentWarrant.Edits.Machine.TEdit))
    (t : AgentWarrant.Edits.Machine.Tree) (hr : AgentWarrant.Edits.Machine.ReachedPre tab t) :
    (∀ (t' : AgentWarrant.Edits.Machine.Tree) (par : Bool) (b g bl br : Nat) (gl gr : List AgentWarrant.Edits.Pomset),
      AgentWarrant.Edits.Machine.applyEdit t (AgentWarrant.Edits.Machine.TEdit.fork par b g bl br gl gr) = some t' →
      AgentWarrant.Edits.Machine.currentB t' bl = true ∧ AgentWarrant.Edits.Machine.currentB t' br = true) ∧
    (∀ (t' : AgentWarrant.Edits.Machine.Tree) (b g bk : Nat) (gk : List AgentWarrant.Edits.Pomset),
      AgentWarrant.Edits.Machine.applyEdit t (AgentWarrant.Edits.Machine.TEdit.restore false b g bk gk) = some t' →
      AgentWarrant.Edits.Machine.currentB t' bk = true) ∧
    (∀ (t' : AgentWarrant.Edits.Machine.Tree) (b g bk : Nat) (gk : List AgentWarrant.Edits.Pomset),
      AgentWarrant.Edits.Machine.applyEdit t (AgentWarrant.Edits.Machine.TEdit.restore true b g bk gk) = some t' →
      AgentWarrant.Edits.Machine.currentB t' b = true ∧ AgentWarrant.Edits.Machine.currentB t' bk = true) ∧
    (∀ (t' : AgentWarrant.Edits.Machine.Tree) (g arm bj : Nat) (gj : List AgentWarrant.Edits.Pomset),
      AgentWarrant.Edits.Machine.applyEdit t (AgentWarrant.Edits.Machine.TEdit.select g arm bj gj) = some t' →
      ∃ i n, AgentWarrant.Edits.Machine.currentGroupAt t g = some (i + 1, n) ∧
        (AgentWarrant.Edits.Machine.currentB t' bj = true ↔
          AgentWarrant.Edits.Machine.SeqLets t' (i + 1) ⟨0, 4, n.parent, n.pos, 0, [], []⟩
            (AgentWarrant.Edits.Machine.newLeaf bj (i + 1) 1 gj))) ∧
    (∀ (t' : AgentWarrant.Edits.Machine.Tree) (g bj : Nat) (gj : List AgentWarrant.Edits.Pomset),
      AgentWarrant.Edits.Machine.applyEdit t (AgentWarrant.Edits.Machine.TEdit.join g bj gj) = some t' →
      ∃ i n, AgentWarrant.Edits.Machine.currentGroupAt t g = some (i + 1, n) ∧
        (AgentWarrant.Edits.Machine.currentB t' bj = true ↔
          AgentWarrant.Edits.Machine.SeqLets t' (i + 1) ⟨0, 4, n.parent, n.pos, 0, [], []⟩
            (AgentWarrant.Edits.Machine.newLeaf bj (i + 1) 1 gj))) :=
  ⟨fun _ _ _ _ _ _ _ _ h => AgentWarrant.Edits.Machine.forkArmsCurrentReachedPre hr h,
   fun _ _ _ _ _ h => AgentWarrant.Edits.Machine.restoreCurrentReachedPre hr h,
   fun _ _ _ _ _ h => AgentWarrant.Edits.Machine.restoreLiveCurrentReachedPre hr h,
   fun _ _ _ _ _ h => AgentWarrant.Edits.Machine.selectLeafSeqLets hr h,
   fun _ _ _ _ h => AgentWarrant.Edits.Machine.joinLeafSeqLets hr h⟩

/-- "Current" is the paper's `addr(T)`: on every tree the runtime reaches from an accepted root whose tree
has parents before children, a branch is current (`currentB`, the executable walk) exactly when the leaf
it names is in the declarative `addr(T)` (`Addr`: a root, or a node whose parent is in `addr(T)`, lets it
through as a choice, and as a sequence has every earlier part complete). -/
theorem currentIsAddr (tab : AgentWarrant.Edits.Machine.Core → Nat →
      Option (AgentWarrant.Edits.Machine.Derived × AgentWarrant.Edits.Machine.TEdit))
    (t : AgentWarrant.Edits.Machine.Tree) (b : Nat) (hr : AgentWarrant.Edits.Machine.Reached tab t) :
    AgentWarrant.Edits.Machine.currentB t b = true ↔
      ∃ j, AgentWarrant.Edits.Machine.findLeaf b 1 t = some j ∧ AgentWarrant.Edits.Machine.Addr t j :=
  AgentWarrant.Edits.Machine.currentBIffAddrReached hr b

/-- Exact Checkpoint against the declarative `addr(T)`: from an accepted root whose tree has parents
before children, after any finite sequence of runtime events, `Checkpoint(k, b)` is accepted exactly when
rules are in force, `k` is fresh among the tree's names and the checkpoints, and the leaf named `b` is in
`addr(T)` (`Addr`), not only in the executable walk's. -/
theorem exactCheckpointAddr (tab : AgentWarrant.Edits.Machine.Core → Nat →
      Option (AgentWarrant.Edits.Machine.Derived × AgentWarrant.Edits.Machine.TEdit))
    (d : AgentWarrant.Edits.Machine.Derived) (S : AgentWarrant.Edits.Machine.RState)
    (es : List AgentWarrant.Edits.Machine.Ev) (hs : AgentWarrant.Edits.Machine.start d = some S)
    (hd : AgentWarrant.Edits.Machine.ParentsBefore d.tree) (k b : Nat) :
    (AgentWarrant.Edits.Machine.checkpoint
        (AgentWarrant.Edits.Machine.replay (AgentWarrant.Edits.Machine.treeDer tab) S es).core k b).1 =
        AgentWarrant.Edits.Machine.Obs.saved k ↔
      ((AgentWarrant.Edits.Machine.replay (AgentWarrant.Edits.Machine.treeDer tab) S es).core.eta ≠ none ∧
       AgentWarrant.Edits.Machine.memB k
         (AgentWarrant.Edits.Machine.replay (AgentWarrant.Edits.Machine.treeDer tab) S es).core.names = false ∧
       AgentWarrant.Edits.Machine.memB k
         (AgentWarrant.Edits.Machine.replay (AgentWarrant.Edits.Machine.treeDer tab) S es).core.ckpts = false ∧
       ∃ j, AgentWarrant.Edits.Machine.findLeaf b 1
           (AgentWarrant.Edits.Machine.replay (AgentWarrant.Edits.Machine.treeDer tab) S es).core.tree = some j ∧
         AgentWarrant.Edits.Machine.Addr
           (AgentWarrant.Edits.Machine.replay (AgentWarrant.Edits.Machine.treeDer tab) S es).core.tree j) :=
  AgentWarrant.Edits.Machine.checkpointExactAddr
    (AgentWarrant.Edits.Machine.replayParentsBefore tab es S (AgentWarrant.Edits.Machine.startParentsBefore hs hd)) k b

/-- The root tree's order is checked, not assumed: `rootOrderB` decides that every node's parent lies
before it and that parent links do not cross; the checked root update (`startChecked`, the root update the
runtime and ideal oracles run) accepts exactly the roots `start` accepts whose tree has both; the
registered root (`registerThenStart`, whose tree Lean builds: the root branch's one leaf) is such a root; and every tree the
runtime or the ideal machine reaches from a checked root, after any finite sequence of events, has both. -/
theorem rootTreeOrderChecked :
    (∀ t : AgentWarrant.Edits.Machine.Tree, AgentWarrant.Edits.Machine.rootOrderB t = true ↔
      AgentWarrant.Edits.Machine.ParentsBefore t ∧ AgentWarrant.Edits.Machine.NoCross t) ∧
    (∀ (d : AgentWarrant.Edits.Machine.Derived) (S : AgentWarrant.Edits.Machine.RState),
      AgentWarrant.Edits.Machine.startChecked d = some S ↔
        AgentWarrant.Edits.Machine.start d = some S ∧ AgentWarrant.Edits.Machine.ParentsBefore d.tree ∧
          AgentWarrant.Edits.Machine.NoCross d.tree) ∧
    (∀ (W : AgentWarrant.Edits.Reg.Wf) (R : AgentWarrant.Edits.Reg.RegR) (n : Nat) (lab : List Nat)
      (dfa : AgentWarrant.Edits.Dfa) (calls names : List Nat) (eta : Nat) (S : AgentWarrant.Edits.Machine.RState),
      AgentWarrant.Edits.Reg.registerThenStart W R n lab dfa calls names eta = some S →
        AgentWarrant.Edits.Machine.startChecked (AgentWarrant.Edits.Reg.rootDerived R n lab dfa calls names eta) =
          some S) ∧
    (∀ (tab : AgentWarrant.Edits.Machine.Core → Nat →
        Option (AgentWarrant.Edits.Machine.Derived × AgentWarrant.Edits.Machine.TEdit))
      (d : AgentWarrant.Edits.Machine.Derived) (S : AgentWarrant.Edits.Machine.RState),
      AgentWarrant.Edits.Machine.startChecked d = some S →
      (∀ es : List AgentWarrant.Edits.Machine.Ev,
        AgentWarrant.Edits.Machine.ParentsBefore
            (AgentWarrant.Edits.Machine.replay (AgentWarrant.Edits.Machine.treeDer tab) S es).core.tree ∧
          AgentWarrant.Edits.Machine.NoCross
            (AgentWarrant.Edits.Machine.replay (AgentWarrant.Edits.Machine.treeDer tab) S es).core.tree) ∧
      (∀ es : List AgentWarrant.Edits.Machine.IEv,
        AgentWarrant.Edits.Machine.ParentsBefore
            (AgentWarrant.Edits.Machine.replayIdeal (AgentWarrant.Edits.Machine.treeDer tab) S.core es).tree ∧
          AgentWarrant.Edits.Machine.NoCross
            (AgentWarrant.Edits.Machine.replayIdeal (AgentWarrant.Edits.Machine.treeDer tab) S.core es).tree)) :=
  ⟨AgentWarrant.Edits.Machine.rootOrderBIff, fun _ _ => AgentWarrant.Edits.Machine.startCheckedIff,
   fun _ _ _ _ _ _ _ _ _ h => AgentWarrant.Edits.Machine.registeredRootChecked h,
   fun tab _ _ hs => ⟨AgentWarrant.Edits.Machine.checkedReplayOrder tab hs,
     AgentWarrant.Edits.Machine.checkedReplayIdealOrder tab hs⟩⟩

/-- The edit tree's names stay distinct, checked at the root: `namesDistinctB` decides that no two named
nodes of a tree (branches, groups, join barriers; a sequence is unnamed) share a name; the root update the
runtime and ideal oracles run (`startNamed`) installs exactly the roots `start` accepts whose tree has
parents before children, uncrossed links and distinct names; the registered root is such a root; and every
tree the runtime or the ideal machine reaches from such a root, after any finite sequence of events, has
distinct names (`HStep` renames nothing, and every tree change adds only fresh names and drops or keeps
the others); and with Lean's own names, every name a tree had before an edit lies below the first name
Lean would take after it, and on the runtime and the ideal machine run with Lean's names every name any
tree of the run has lies below that first name for every later tree, so Lean's new names never take again a name a node
had, removed since or not, whether or not the record still reserves it. -/
theorem editTreeNamesDistinct :
    (∀ t : AgentWarrant.Edits.Machine.Tree, AgentWarrant.Edits.Machine.namesDistinctB t = true ↔
      AgentWarrant.Edits.Machine.NamesDistinct t) ∧
    (∀ (d : AgentWarrant.Edits.Machine.Derived) (S : AgentWarrant.Edits.Machine.RState),
      AgentWarrant.Edits.Machine.startNamed d = some S ↔
        AgentWarrant.Edits.Machine.start d = some S ∧ AgentWarrant.Edits.Machine.ParentsBefore d.tree ∧
          AgentWarrant.Edits.Machine.NoCross d.tree ∧ AgentWarrant.Edits.Machine.NamesDistinct d.tree) ∧
    (∀ (W : AgentWarrant.Edits.Reg.Wf) (R : AgentWarrant.Edits.Reg.RegR) (n : Nat) (lab : List Nat)
      (dfa : AgentWarrant.Edits.Dfa) (calls names : List Nat) (eta : Nat) (S : AgentWarrant.Edits.Machine.RState),
      AgentWarrant.Edits.Reg.registerThenStart W R n lab dfa calls names eta = some S →
        AgentWarrant.Edits.Machine.startNamed (AgentWarrant.Edits.Reg.rootDerived R n lab dfa calls names eta) =
          some S) ∧
    (∀ (tab : AgentWarrant.Edits.Machine.Core → Nat →
        Option (AgentWarrant.Edits.Machine.Derived × AgentWarrant.Edits.Machine.TEdit))
      (d : AgentWarrant.Edits.Machine.Derived) (S : AgentWarrant.Edits.Machine.RState),
      AgentWarrant.Edits.Machine.startNamed d = some S →
      (∀ es : List AgentWarrant.Edits.Machine.Ev, AgentWarrant.Edits.Machine.NamesDistinct
          (AgentWarrant.Edits.Machine.replay (AgentWarrant.Edits.Machine.treeDer tab) S es).core.tree) ∧
      (∀ es : List AgentWarrant.Edits.Machine.IEv, AgentWarrant.Edits.Machine.NamesDistinct
          (AgentWarrant.Edits.Machine.replayIdeal (AgentWarrant.Edits.Machine.treeDer tab) S.core es).tree)) ∧
    (∀ (t t' : AgentWarrant.Edits.Machine.Tree) (r : List Nat) (e : AgentWarrant.Edits.Machine.TEdit),
      AgentWarrant.Edits.Machine.applyEdit t (AgentWarrant.Edits.Machine.leanNames t r e) = some t' →
      ∀ (r' : List Nat) (x : Nat), AgentWarrant.Edits.memN x (AgentWarrant.Edits.Machine.namesOf t) = true →
        x < AgentWarrant.Edits.Machine.nextName t' r') ∧
    (∀ (der : AgentWarrant.Edits.Machine.Core → Nat →
        Option (AgentWarrant.Edits.Machine.Derived × AgentWarrant.Edits.Machine.TEdit))
      (S : AgentWarrant.Edits.Machine.RState) (es1 es2 : List AgentWarrant.Edits.Machine.Ev) (x : Nat),
      AgentWarrant.Edits.memN x (AgentWarrant.Edits.Machine.namesOf
        (AgentWarrant.Edits.Machine.replay (AgentWarrant.Edits.Machine.treeDerN der) S es1).core.tree) = true →
      ∀ r : List Nat, x < AgentWarrant.Edits.Machine.nextName
        (AgentWarrant.Edits.Machine.replay (AgentWarrant.Edits.Machine.treeDerN der) S (es1 ++ es2)).core.tree r) ∧
    (∀ (der : AgentWarrant.Edits.Machine.Core → Nat →
        Option (AgentWarrant.Edits.Machine.Derived × AgentWarrant.Edits.Machine.TEdit))
      (c : AgentWarrant.Edits.Machine.Core) (es1 es2 : List AgentWarrant.Edits.Machine.IEv) (x : Nat),
      AgentWarrant.Edits.memN x (AgentWarrant.Edits.Machine.namesOf
        (AgentWarrant.Edits.Machine.replayIdeal (AgentWarrant.Edits.Machine.treeDerN der) c es1).tree) = true →
      ∀ r : List Nat, x < AgentWarrant.Edits.Machine.nextName
        (AgentWarrant.Edits.Machine.replayIdeal (AgentWarrant.Edits.Machine.treeDerN der) c (es1 ++ es2)).tree r) :=
  ⟨AgentWarrant.Edits.Machine.namesDistinctBIff, fun _ _ => AgentWarrant.Edits.Machine.startNamedIffDecl,
   fun _ _ _ _ _ _ _ _ _ h => AgentWarrant.Edits.Machine.registeredRootNamed h,
   fun tab _ _ hs => AgentWarrant.Edits.Machine.namedReplayDistinct tab hs,
   fun _ _ _ _ h => AgentWarrant.Edits.Machine.leanNamesNotReused h,
   fun der S es1 es2 x hx r => AgentWarrant.Edits.Machine.leanNamesNeverReused der S es1 es2 x hx r,
   fun der c es1 es2 x hx r => AgentWarrant.Edits.Machine.leanNamesNeverReusedIdeal der c es1 es2 x hx r⟩

/-- The registered root carries the root branch `b₀:Γ` (A-G, with Section VII's Checkpoint): a state
reached by registration and the checked root update satisfies `AgentSec`; its tree is one leaf, named
above every registered name, holding the registered outcomes' pomsets and no progress, so its remaining
contract is every registered outcome with all its calls; the registered root passes the root order
check, so every tree a runtime run reaches from it is reached from a checked root (the currency and Exact
Checkpoint results stated from checked roots apply); the leaf is current, in the declarative `addr(T)`
too, and `Checkpoint(k, b₀)` is accepted there for every `k` that is neither a registered name nor `b₀`,
storing the root branch: the registered outcomes, no progress, the whole registered contract remaining. -/
theorem registeredRootBranch (W : AgentWarrant.Edits.Reg.Wf) (R : AgentWarrant.Edits.Reg.RegR) (n : Nat)
    (lab : List Nat) (dfa : AgentWarrant.Edits.Dfa) (calls names : List Nat) (eta : Nat)
    (S : AgentWarrant.Edits.Machine.RState)
    (h : AgentWarrant.Edits.Reg.registerThenStart W R n lab dfa calls names eta = some S) :
    AgentWarrant.Edits.Machine.AgentSec S.core ∧
    S.core.tree = [AgentWarrant.Edits.Reg.rootLeaf R names] ∧
    AgentWarrant.Edits.memN (AgentWarrant.Edits.Reg.rootName names) names = false ∧
    (AgentWarrant.Edits.Reg.rootLeaf R names).gamma = R.outs.map AgentWarrant.Edits.POutcome.pom ∧
    (AgentWarrant.Edits.Reg.rootLeaf R names).done = [] ∧
    AgentWarrant.Edits.Machine.restOuts (AgentWarrant.Edits.Reg.rootLeaf R names) =
      (R.outs.map AgentWarrant.Edits.POutcome.pom).map AgentWarrant.Edits.Pomset.events ∧
    (∀ (tab : AgentWarrant.Edits.Machine.Core → Nat →
        Option (AgentWarrant.Edits.Machine.Derived × AgentWarrant.Edits.Machine.TEdit))
      (es : List AgentWarrant.Edits.Machine.Ev),
      AgentWarrant.Edits.Machine.ReachedChecked tab
        (AgentWarrant.Edits.Machine.replay (AgentWarrant.Edits.Machine.treeDer tab) S es).core.tree) ∧
    AgentWarrant.Edits.Machine.currentB S.core.tree (AgentWarrant.Edits.Reg.rootName names) = true ∧
    (∃ j, AgentWarrant.Edits.Machine.findLeaf (AgentWarrant.Edits.Reg.rootName names) 1 S.core.tree = some j ∧
      AgentWarrant.Edits.Machine.Addr S.core.tree j) ∧
    (∀ k, AgentWarrant.Edits.Machine.memB k names = false → k ≠ AgentWarrant.Edits.Reg.rootName names →
      (AgentWarrant.Edits.Machine.checkpoint S.core k (AgentWarrant.Edits.Reg.rootName names)).1 =
        AgentWarrant.Edits.Machine.Obs.saved k ∧
      (AgentWarrant.Edits.Machine.checkpoint S.core k (AgentWarrant.Edits.Reg.rootName names)).2.saved =
        [⟨k, AgentWarrant.Edits.Reg.rootName names, R.outs.map AgentWarrant.Edits.POutcome.pom, [],
          (R.outs.map AgentWarrant.Edits.POutcome.pom).map AgentWarrant.Edits.Pomset.events⟩]) :=
  have ht := (AgentWarrant.Edits.Reg.registeredState h).1
  ⟨(AgentWarrant.Edits.Reg.registeredRoot h).2, ht, AgentWarrant.Edits.Reg.rootNameFresh names, rfl, rfl,
   AgentWarrant.Edits.Reg.rootLeafRest R names,
   fun tab es => AgentWarrant.Edits.Reg.registeredReachedChecked h tab es,
   by rw [ht]; exact AgentWarrant.Edits.Reg.rootLeafCurrent R names,
   ⟨1, by rw [ht]; exact AgentWarrant.Edits.Reg.rootLeafFound R names,
    by rw [ht]; exact AgentWarrant.Edits.Reg.rootLeafAddr R names⟩,
   fun k hk hb => ⟨AgentWarrant.Edits.Reg.registeredCheckpoint h k hk hb,
     AgentWarrant.Edits.Reg.registeredCheckpointStores h k hk hb⟩⟩

/-- "Current" is the paper's `addr(T)` on every tree the runtime reaches from a checked root (one the
oracle's own order check accepts), with no hypothesis on the root tree. -/
theorem currentIsAddrFromCheckedRoot (tab : AgentWarrant.Edits.Machine.Core → Nat →
      Option (AgentWarrant.Edits.Machine.Derived × AgentWarrant.Edits.Machine.TEdit))
    (t : AgentWarrant.Edits.Machine.Tree) (b : Nat) (hr : AgentWarrant.Edits.Machine.ReachedChecked tab t) :
    AgentWarrant.Edits.Machine.currentB t b = true ↔
      ∃ j, AgentWarrant.Edits.Machine.findLeaf b 1 t = some j ∧ AgentWarrant.Edits.Machine.Addr t j :=
  AgentWarrant.Edits.Machine.currentBIffAddrReached (AgentWarrant.Edits.Machine.reachedCheckedReached hr) b

/-- On every tree the runtime reaches from a checked root, both fresh arms of a Fork of a current branch
with no sequence above it are current branches of `T'`. -/
theorem forkArmsCurrentFromCheckedRoot (tab : AgentWarrant.Edits.Machine.Core → Nat →
      Option (AgentWarrant.Edits.Machine.Derived × AgentWarrant.Edits.Machine.TEdit))
    (t t' : AgentWarrant.Edits.Machine.Tree) (par : Bool) (b g bl br : Nat) (gl gr : List AgentWarrant.Edits.Pomset)
    (hr : AgentWarrant.Edits.Machine.ReachedChecked tab t)
    (h : AgentWarrant.Edits.Machine.applyEdit t (AgentWarrant.Edits.Machine.TEdit.fork par b g bl br gl gr) = some t')
    (hs : AgentWarrant.Edits.Machine.seqFreeAboveLeaf t b = true) :
    AgentWarrant.Edits.Machine.currentB t b = true ∧ AgentWarrant.Edits.Machine.currentB t' bl = true ∧
      AgentWarrant.Edits.Machine.currentB t' br = true :=
  ⟨AgentWarrant.Edits.Machine.forkCurrent h,
   AgentWarrant.Edits.Machine.forkArmsCurrentReached (AgentWarrant.Edits.Machine.reachedCheckedReached hr) h hs⟩

/-- The new leaves of every edit are current from a checked root, with no hypothesis on the root tree or
on the sequences above the edited branch or group: on every tree the runtime reaches from a root that
`startChecked` accepts, both fresh arms of a Fork, RestoreReplace's `b_k` and RestoreLive's `b` and `b_k`
are current branches of `T'`, and a Merge's `b_J` is current exactly when the new sequence lets it
through. -/
theorem newLeavesCurrentFromCheckedRoot (tab : AgentWarrant.Edits.Machine.Core → Nat →
      Option (AgentWarrant.Edits.Machine.Derived × AgentWarrant.Edits.Machine.TEdit))
    (t : AgentWarrant.Edits.Machine.Tree) (hr : AgentWarrant.Edits.Machine.ReachedChecked tab t) :
    (∀ (t' : AgentWarrant.Edits.Machine.Tree) (par : Bool) (b g bl br : Nat) (gl gr : List AgentWarrant.Edits.Pomset),
      AgentWarrant.Edits.Machine.applyEdit t (AgentWarrant.Edits.Machine.TEdit.fork par b g bl br gl gr) = some t' →
      AgentWarrant.Edits.Machine.currentB t' bl = true ∧ AgentWarrant.Edits.Machine.currentB t' br = true) ∧
    (∀ (t' : AgentWarrant.Edits.Machine.Tree) (b g bk : Nat) (gk : List AgentWarrant.Edits.Pomset),
      AgentWarrant.Edits.Machine.applyEdit t (AgentWarrant.Edits.Machine.TEdit.restore false b g bk gk) = some t' →
      AgentWarrant.Edits.Machine.currentB t' bk = true) ∧
    (∀ (t' : AgentWarrant.Edits.Machine.Tree) (b g bk : Nat) (gk : List AgentWarrant.Edits.Pomset),
      AgentWarrant.Edits.Machine.applyEdit t (AgentWarrant.Edits.Machine.TEdit.restore true b g bk gk) = some t' →
      AgentWarrant.Edits.Machine.currentB t' b = true ∧ AgentWarrant.Edits.Machine.currentB t' bk = true) ∧
    (∀ (t' : AgentWarrant.Edits.Machine.Tree) (g arm bj : Nat) (gj : List AgentWarrant.Edits.Pomset),
      AgentWarrant.Edits.Machine.applyEdit t (AgentWarrant.Edits.Machine.TEdit.select g arm bj gj) = some t' →
      ∃ i n, AgentWarrant.Edits.Machine.currentGroupAt t g = some (i + 1, n) ∧
        (AgentWarrant.Edits.Machine.currentB t' bj = true ↔
          AgentWarrant.Edits.Machine.SeqLets t' (i + 1) ⟨0, 4, n.parent, n.pos, 0, [], []⟩
            (AgentWarrant.Edits.Machine.newLeaf bj (i + 1) 1 gj))) ∧
    (∀ (t' : AgentWarrant.Edits.Machine.Tree) (g bj : Nat) (gj : List AgentWarrant.Edits.Pomset),
      AgentWarrant.Edits.Machine.applyEdit t (AgentWarrant.Edits.Machine.TEdit.join g bj gj) = some t' →
      ∃ i n, AgentWarrant.Edits.Machine.currentGroupAt t g = some (i + 1, n) ∧
        (AgentWarrant.Edits.Machine.currentB t' bj = true ↔
          AgentWarrant.Edits.Machine.SeqLets t' (i + 1) ⟨0, 4, n.parent, n.pos, 0, [], []⟩
            (AgentWarrant.Edits.Machine.newLeaf bj (i + 1) 1 gj))) :=
  newLeavesCurrentOnReachedTrees tab t (AgentWarrant.Edits.Machine.reachedCheckedPre hr)

/-- Exact Checkpoint against the declarative `addr(T)` from a checked root, after any finite sequence of
runtime events, with no hypothesis on the root tree. -/
theorem exactCheckpointAddrFromCheckedRoot (tab : AgentWarrant.Edits.Machine.Core → Nat →
      Option (AgentWarrant.Edits.Machine.Derived × AgentWarrant.Edits.Machine.TEdit))
    (d : AgentWarrant.Edits.Machine.Derived) (S : AgentWarrant.Edits.Machine.RState)
    (es : List AgentWarrant.Edits.Machine.Ev) (hs : AgentWarrant.Edits.Machine.startChecked d = some S) (k b : Nat) :
    (AgentWarrant.Edits.Machine.checkpoint
        (AgentWarrant.Edits.Machine.replay (AgentWarrant.Edits.Machine.treeDer tab) S es).core k b).1 =
        AgentWarrant.Edits.Machine.Obs.saved k ↔
      ((AgentWarrant.Edits.Machine.replay (AgentWarrant.Edits.Machine.treeDer tab) S es).core.eta ≠ none ∧
       AgentWarrant.Edits.Machine.memB k
         (AgentWarrant.Edits.Machine.replay (AgentWarrant.Edits.Machine.treeDer tab) S es).core.names = false ∧
       AgentWarrant.Edits.Machine.memB k
         (AgentWarrant.Edits.Machine.replay (AgentWarrant.Edits.Machine.treeDer tab) S es).core.ckpts = false ∧
       ∃ j, AgentWarrant.Edits.Machine.findLeaf b 1
           (AgentWarrant.Edits.Machine.replay (AgentWarrant.Edits.Machine.treeDer tab) S es).core.tree = some j ∧
         AgentWarrant.Edits.Machine.Addr
           (AgentWarrant.Edits.Machine.replay (AgentWarrant.Edits.Machine.treeDer tab) S es).core.tree j) :=
  AgentWarrant.Edits.Machine.checkpointExactAddr (AgentWarrant.Edits.Machine.checkedReplayOrder tab hs es).1 k b

/-- A tool call that commits makes every earlier answer stale; a committed rule update makes every
token of the closed version fail. -/
theorem toolCallAndRuleUpdateSerialize (der : AgentWarrant.Edits.Machine.Derivation)
    (S : AgentWarrant.Edits.Machine.RState) (u x : Nat) (ok : Bool) (eo en : Nat)
    (s : List AgentWarrant.Edits.Cand) (heo : S.core.eta = some eo)
    (hc : (AgentWarrant.Edits.Machine.useR S.core x (some eo) ok).2 ≠ S.core) :
    AgentWarrant.Edits.Machine.tryUpdate der ⟨(AgentWarrant.Edits.Machine.useR S.core x (some eo) ok).2, S.prepared⟩ u
        (AgentWarrant.Edits.Machine.Answer.accepted u S.core (some eo) en s) =
      (AgentWarrant.Edits.Machine.Obs.noCommit "record-changed",
        ⟨(AgentWarrant.Edits.Machine.useR S.core x (some eo) ok).2, S.prepared⟩) ∧
    ∀ S' e, AgentWarrant.Edits.Machine.tryUpdate der S u (AgentWarrant.Edits.Machine.Answer.accepted u S.core (some eo) en s) =
        (AgentWarrant.Edits.Machine.Obs.updated e, S') →
      ∃ why, AgentWarrant.Edits.Machine.useR S'.core x (some eo) ok = (AgentWarrant.Edits.Machine.Obs.deny x why, S'.core) :=
  AgentWarrant.Edits.Machine.serialization der S u x ok eo en s heo hc

/-- Every runtime event is τ on the record or the step of one ideal event. -/
theorem runtimeStepsAreIdealSteps (der : AgentWarrant.Edits.Machine.Derivation) (S : AgentWarrant.Edits.Machine.RState)
    (e : AgentWarrant.Edits.Machine.Ev) :
    (AgentWarrant.Edits.Machine.stepR der S e).2.core = S.core ∨
      ∃ ie, (AgentWarrant.Edits.Machine.stepR der S e).2.core = (AgentWarrant.Edits.Machine.stepI der S.core ie).2 :=
  AgentWarrant.Edits.Machine.runtimeStepMatched der S e

/-- Exact checking on every reached runtime state (Section VII, A-I), with no hypothesis on prepared
content: Preload is a runtime event that stores the checker's recomputation, so on every state reached
from the accepted root update by committed events, the rule update presenting the runtime's own accepted
check of an edit whose `η⁺` is unallocated makes exactly the ideal edge's change. -/
theorem runtimeEditIsIdealOnReachedStates (der : AgentWarrant.Edits.Machine.Derivation) {S : AgentWarrant.Edits.Machine.RState}
    (hS : AgentWarrant.Edits.Machine.RuntimeReached der S) (u : Nat) (d : AgentWarrant.Edits.Machine.Derived) (hd : der S.core u = some d)
    (hn : AgentWarrant.Edits.safeSet (AgentWarrant.Edits.build d.inst) ≠ [])
    (hu : AgentWarrant.Edits.Machine.unallocated S.core d.etaNew = true) :
    AgentWarrant.Edits.Machine.tryUpdate der S u (AgentWarrant.Edits.Machine.check der S.core u) =
      (AgentWarrant.Edits.Machine.Obs.updated d.etaNew, ⟨(AgentWarrant.Edits.Machine.editI der S.core u).2, []⟩) :=
  AgentWarrant.Edits.Machine.runtimeEditIsIdealReached der hS u d hd hn hu

/-- Exact checking with `Derive` the Lean edit judgment (with continuation steps; `derJ` is the case of
`judge`'s requests, `DeriveFork.derJLift`) and `η⁺` allocated from the record (`freshen`, the paper's
deterministic allocation, so `phase(η⁺) = ⊥`): the answer is the judgment's (`checkFreshen`); on every
reached runtime state the final check passes exactly when the judgment derives a record whose instance
has a safe execution set, and the rule update then makes exactly the ideal edge's change. -/
theorem exactCheckingUnderEditJudgment (src : AgentWarrant.Edits.Machine.Core → AgentWarrant.Edits.Tm × (Nat → Option AgentWarrant.Edits.Tm))
    (tab : Nat → Option AgentWarrant.Edits.DeriveFork.EntryA) :
    (∀ c u, AgentWarrant.Edits.Machine.answerObs (AgentWarrant.Edits.Machine.check (AgentWarrant.Edits.Machine.freshen (AgentWarrant.Edits.DeriveFork.derJK src tab)) c u) =
      AgentWarrant.Edits.Machine.answerObs (AgentWarrant.Edits.Machine.check (AgentWarrant.Edits.DeriveFork.derJK src tab) c u)) ∧
    (∀ c u, (∃ d, AgentWarrant.Edits.Machine.ready (AgentWarrant.Edits.Machine.freshen (AgentWarrant.Edits.DeriveFork.derJK src tab)) c u
        (AgentWarrant.Edits.Machine.check (AgentWarrant.Edits.Machine.freshen (AgentWarrant.Edits.DeriveFork.derJK src tab)) c u) = Except.ok d) ↔
      ∃ d e D, AgentWarrant.Edits.DeriveFork.derJK src tab c u = some d ∧ tab u = some e ∧
        AgentWarrant.Edits.DeriveFork.judgeA (src c).1 (src c).2 e.req = some D ∧
        ∃ L B, (AgentWarrant.Edits.DeriveFork.thetaAtK e D c).Safe L B) ∧
    ∀ S, AgentWarrant.Edits.Machine.RuntimeReached (AgentWarrant.Edits.Machine.freshen (AgentWarrant.Edits.DeriveFork.derJK src tab)) S → ∀ u d,
      AgentWarrant.Edits.Machine.freshen (AgentWarrant.Edits.DeriveFork.derJK src tab) S.core u = some d →
      AgentWarrant.Edits.safeSet (AgentWarrant.Edits.build d.inst) ≠ [] →
      AgentWarrant.Edits.Machine.tryUpdate (AgentWarrant.Edits.Machine.freshen (AgentWarrant.Edits.DeriveFork.derJK src tab)) S u
          (AgentWarrant.Edits.Machine.check (AgentWarrant.Edits.Machine.freshen (AgentWarrant.Edits.DeriveFork.derJK src tab)) S.core u) =
        (AgentWarrant.Edits.Machine.Obs.updated d.etaNew,
          ⟨(AgentWarrant.Edits.Machine.editI (AgentWarrant.Edits.Machine.freshen (AgentWarrant.Edits.DeriveFork.derJK src tab)) S.core u).2, []⟩) :=
  ⟨AgentWarrant.Edits.Machine.checkFreshen _, AgentWarrant.Edits.DeriveFork.readyFreshJudgedK src tab,
    fun _ hS u d hd hn => AgentWarrant.Edits.Machine.freshRuntimeEditIsIdeal _ hS u d hd hn⟩

/-- The ideal–runtime weak bisimulation (A-L) with `Derive` the Lean edit judgment (with continuation
steps; `derJ` is the case of `judge`'s requests) and `η⁺` allocated from the record (`freshen`, the
paper's deterministic allocation): no hypothesis remains. (`FreshAlloc` fails for the judgment with the
table's `η⁺`, `JudgedMachine.derJNotFreshAlloc`.) -/
theorem weakBisimulationUnderEditJudgment
    (src : AgentWarrant.Edits.Machine.Core → AgentWarrant.Edits.Tm × (Nat → Option AgentWarrant.Edits.Tm))
    (tab : Nat → Option AgentWarrant.Edits.DeriveFork.EntryA) :
    AgentWarrant.Edits.Machine.WeakBisim (AgentWarrant.Edits.Machine.IStep (AgentWarrant.Edits.Machine.freshen (AgentWarrant.Edits.DeriveFork.derJK src tab))) (AgentWarrant.Edits.Machine.RStep (AgentWarrant.Edits.Machine.freshen (AgentWarrant.Edits.DeriveFork.derJK src tab))) (AgentWarrant.Edits.Machine.Rel (AgentWarrant.Edits.Machine.freshen (AgentWarrant.Edits.DeriveFork.derJK src tab))) ∧
    (∀ d S, AgentWarrant.Edits.Machine.start d = some S → AgentWarrant.Edits.Machine.Rel (AgentWarrant.Edits.Machine.freshen (AgentWarrant.Edits.DeriveFork.derJK src tab)) S.core S) ∧
    ∀ S e, ∃ l, AgentWarrant.Edits.Machine.RStep (AgentWarrant.Edits.Machine.freshen (AgentWarrant.Edits.DeriveFork.derJK src tab)) S l (AgentWarrant.Edits.Machine.stepR (AgentWarrant.Edits.Machine.freshen (AgentWarrant.Edits.DeriveFork.derJK src tab)) S e).2 :=
  idealRuntimeWeakBisimulation _ (AgentWarrant.Edits.Machine.freshenAlloc _)

/-- The weak bisimulation with `Derive` the runtime and ideal oracles' judged derivation (`derRunJ`) and
`η⁺` allocated from the record. -/
theorem weakBisimulationUnderRunJudgment
    (der : AgentWarrant.Edits.Machine.Core → Nat →
      Option ((AgentWarrant.Edits.Machine.Derived × AgentWarrant.Edits.Machine.TEdit) × Option AgentWarrant.Edits.DeriveTreeRunJ.RunJReq)) :
    AgentWarrant.Edits.Machine.WeakBisim (AgentWarrant.Edits.Machine.IStep (AgentWarrant.Edits.Machine.freshen (AgentWarrant.Edits.DeriveTreeRunJ.derRunJ der))) (AgentWarrant.Edits.Machine.RStep (AgentWarrant.Edits.Machine.freshen (AgentWarrant.Edits.DeriveTreeRunJ.derRunJ der))) (AgentWarrant.Edits.Machine.Rel (AgentWarrant.Edits.Machine.freshen (AgentWarrant.Edits.DeriveTreeRunJ.derRunJ der))) ∧
    (∀ d S, AgentWarrant.Edits.Machine.start d = some S → AgentWarrant.Edits.Machine.Rel (AgentWarrant.Edits.Machine.freshen (AgentWarrant.Edits.DeriveTreeRunJ.derRunJ der)) S.core S) ∧
    ∀ S e, ∃ l, AgentWarrant.Edits.Machine.RStep (AgentWarrant.Edits.Machine.freshen (AgentWarrant.Edits.DeriveTreeRunJ.derRunJ der)) S l (AgentWarrant.Edits.Machine.stepR (AgentWarrant.Edits.Machine.freshen (AgentWarrant.Edits.DeriveTreeRunJ.derRunJ der)) S e).2 :=
  idealRuntimeWeakBisimulation _ (AgentWarrant.Edits.Machine.freshenAlloc _)


-- Execution edits: the checker's step counts (Exact Checking for Execution Edits, Proposition 2) ----

/-- The checker's removal rounds are output-sensitive: their number plus the size of the answer is
at most `|B̂₀|`, and the rejection proof lists one round size more. Its `keep` evaluations lie
between `|B̂₀|·|B̂†|` and `|B̂₀|²`: it iterates `Φ̂` for its whole fuel, so this part of its work is
not output-sensitive. -/
theorem checkerStepCounts (i : AgentWarrant.Edits.Inst) :
    AgentWarrant.Edits.rounds i (List.length (AgentWarrant.Edits.b0 i)) (AgentWarrant.Edits.b0 i) +
        List.length (AgentWarrant.Edits.safeSet i) ≤ List.length (AgentWarrant.Edits.b0 i) ∧
    List.length (AgentWarrant.Edits.sizes i (List.length (AgentWarrant.Edits.b0 i)) (AgentWarrant.Edits.b0 i)) =
      AgentWarrant.Edits.rounds i (List.length (AgentWarrant.Edits.b0 i)) (AgentWarrant.Edits.b0 i) + 1 ∧
    List.length (AgentWarrant.Edits.b0 i) * List.length (AgentWarrant.Edits.safeSet i) ≤
      AgentWarrant.Edits.keepCalls i (List.length (AgentWarrant.Edits.b0 i)) (AgentWarrant.Edits.b0 i) ∧
    AgentWarrant.Edits.keepCalls i (List.length (AgentWarrant.Edits.b0 i)) (AgentWarrant.Edits.b0 i) ≤
      List.length (AgentWarrant.Edits.b0 i) * List.length (AgentWarrant.Edits.b0 i) :=
  ⟨(AgentWarrant.Edits.checkerRoundsOutputSensitive i).1, (AgentWarrant.Edits.checkerRoundsOutputSensitive i).2,
   (AgentWarrant.Edits.checkerKeepCalls i).1, (AgentWarrant.Edits.checkerKeepCalls i).2⟩


/-- On the family of `k` outcomes that all run the one call 0 under the policy `{ε, 0}`, `B̂₀` has
`k` candidates, all safe, and the checker makes `k²` `keep` evaluations and `2k³` `supports` tests,
while `V_B = 2k` there. -/
theorem checkerWorkOnAllSafeFamily (l : List Nat) :
    List.length (AgentWarrant.Edits.b0 (AgentWarrant.Edits.fam l)) = List.length l ∧
    AgentWarrant.Edits.safeSet (AgentWarrant.Edits.fam l) = AgentWarrant.Edits.b0 (AgentWarrant.Edits.fam l) ∧
    AgentWarrant.Edits.keepCalls (AgentWarrant.Edits.fam l) (List.length (AgentWarrant.Edits.b0 (AgentWarrant.Edits.fam l)))
      (AgentWarrant.Edits.b0 (AgentWarrant.Edits.fam l)) = List.length l * List.length l ∧
    AgentWarrant.Edits.supportTests (AgentWarrant.Edits.fam l) (List.length (AgentWarrant.Edits.b0 (AgentWarrant.Edits.fam l)))
      (AgentWarrant.Edits.b0 (AgentWarrant.Edits.fam l)) = List.length l * (List.length l * (List.length l + List.length l)) :=
  AgentWarrant.Edits.famWork l

/-- Registration reflection (Definition 6, A-G): for every finite workflow `𝒲` and registration `ℛ`,
`CheckReg(𝒲, ℛ)` accepts iff the stored λ witnesses `𝒲 ⊑_λ ℛ`: no stuck state, one action per
certified request, every τ-erased trace certified and mapped onto a registered run, every registered
run the image of a trace, and λ one-to-one on traces. -/
theorem registrationReflection (W : AgentWarrant.Edits.Reg.Wf) (R : AgentWarrant.Edits.Reg.RegR) :
    AgentWarrant.Edits.Reg.checkReg W R = true ↔ AgentWarrant.Edits.Reg.Refines W R :=
  AgentWarrant.Edits.Reg.checkRegIff W R

-- Revision: effect coverage on the question Lean writes itself (Agenra Sections 1 and 7.1) ------------

/-- The coverage question Lean writes from the entries means the monitor's matching, for every call the
monitor prepares. Take a policy `p`, an action `a`, the entries `gs` of the old and new lists (those of
action `a` with scalar or null constants; slot patterns and key allowlists included), `p`'s tools and `E`.
If Lean's decision answers `covered` on the question Lean itself writes for every way a tool produces an
effect of `a` (every way has one, a null resource constant's included: `wayCondSomeAll`; "every valuation
meeting the way's condition has a listed match vector"), then every call the monitor prepares on a state
a run from the task's start reaches, with an effect of action `a`, has the monitor's own `grantMatches`
vector over `gs` among the listed vectors, provided the effect's resource is among `E`'s resources and no
argument key of the call repeats (the resource need not be a scalar: a null resource constant is read as
`isNull`, `resLitSelf`). No atom, clause or variable comes from outside Lean, and nothing about the valuation is assumed: the way is the one that produced the effect (`effectsOfWay`), the
values are the call's own (`srcVal`), and the way's condition is proved of the call (`preparedWayCond`:
required keys present and undeclared keys absent by preparation's checks, the resource where its
declaration reads it, a nested path present only under an object by `lookupPath`). The call's keys are
among the action's keys (`preparedDeclared`), a slot's bound value the resource equals is a scalar other
than the empty string (`runFullAddrBindings`, `slotBoundScalar`), and a top-level key's value is present
exactly when the call has an argument of that key (`argsJsonPresent`), and with distinct keys its value is
the argument's (`firstOfDistinct`: `Json.mkObj`'s insertions keep the pairs). Each of the two remaining
hypotheses is needed: without it the conclusion fails on a policy whose every way is answered covered
(`needsE`: the monitor never reads `E`; `needsDistinct`: preparation reads a repeated argument key's first
value, the argument object its last). -/
theorem leanWrittenCoverageIsMonitorMatching (p : AgentWarrant.Monitor.Full.Policy) (a : String)
    (gs : List AgentWarrant.Monitor.Full.Grant) (E : Option (List Lean.Json)) (listed : List (List Bool))
    (hfrag : ∀ g, g ∈ gs → g.action = a → AgentWarrant.Revision.ArgCover.grantOk g = true)
    (hcov : ∀ t d cond, AgentWarrant.Mem (t, d) (AgentWarrant.Revision.ArgCover.ways a p.tools) →
      AgentWarrant.Revision.ArgCover.wayCond a p.tools gs E t d = some cond →
      AgentWarrant.Revision.ArgCover.argCover
        (AgentWarrant.Oracle.ArgCover.good
          (AgentWarrant.Revision.ArgCover.buildQ cond (gs.map (AgentWarrant.Revision.ArgCover.posOf a
            (AgentWarrant.Revision.ArgCover.wayRes d.res) (AgentWarrant.Revision.ArgCover.actionKeys a
              (AgentWarrant.Revision.ArgCover.ownTools a p.tools) gs)))).cond
          (AgentWarrant.Revision.ArgCover.buildQ cond (gs.map (AgentWarrant.Revision.ArgCover.posOf a
            (AgentWarrant.Revision.ArgCover.wayRes d.res) (AgentWarrant.Revision.ArgCover.actionKeys a
              (AgentWarrant.Revision.ArgCover.ownTools a p.tools) gs)))).pos listed)
        (AgentWarrant.Revision.ArgCover.buildQ cond (gs.map (AgentWarrant.Revision.ArgCover.posOf a
          (AgentWarrant.Revision.ArgCover.wayRes d.res) (AgentWarrant.Revision.ArgCover.actionKeys a
            (AgentWarrant.Revision.ArgCover.ownTools a p.tools) gs)))).atoms =
        AgentWarrant.Revision.ArgCover.Answer.covered)
    (s : AgentWarrant.Monitor.Full.State)
    (hreach : ∃ cs, s = (AgentWarrant.Monitor.Full.runFull p (AgentWarrant.Monitor.Full.initialState p) cs).2)
    (c : AgentWarrant.Monitor.Full.Call) (t : AgentWarrant.Monitor.Full.Tool) (es : List AgentWarrant.Monitor.Full.Effect)
    (hprep : AgentWarrant.Monitor.Full.prepare p s c = Except.ok (t, es))
    (e : AgentWarrant.Monitor.Full.Effect) (he : AgentWarrant.Mem e es) (ha : e.action = a)
    (hE : ∀ cs, E = some cs → AgentWarrant.anyB (fun c => AgentWarrant.Revision.ArgCover.holds
      (AgentWarrant.Revision.ArgCover.eqLitOf c) (AgentWarrant.Revision.ArgCover.avOf e.res)) cs = true)
    (hdistinct : AgentWarrant.Revision.ArgCover.keysDistinct c.args = true) :
    AgentWarrant.anyB (fun u => decide (u = gs.map (fun g => AgentWarrant.Monitor.Full.grantMatches s c.args g e))) listed = true :=
  AgentWarrant.Revision.ArgCover.preparedCoverDistinct p a gs E listed hfrag hcov s hreach c t es hprep e he ha hE
    hdistinct

/-- `leanWrittenCoverageIsMonitorMatching` over the question Lean writes when an entry of the action has
an array or object constant in an equality or one-of predicate (`wayQA`: such a constant is the literal
`ALit.eqJson c`, numbered by a Boolean equality on `Json`). The entries of action `a` are in `grantOkA`
(predicate constants pass the oracle's depth and distinct-name checks; a resource constant is scalar or
null), and `argCover` answers `covered` on `wayQA`'s question for every way of `a`. Then every call the
monitor prepares on a state a run from the task's start reaches, with an effect of action `a`, has the
monitor's own `grantMatches` vector over `gs` among the listed vectors, under the two hypotheses of
`leanWrittenCoverageIsMonitorMatching` (the resource among `E`'s, no repeated argument key) and one more,
`hadm`: the value the call holds at the path of each predicate of an entry of `a` that compares with an
array or object constant (`predJsonConst`) passes the oracle's checks (`admitted`), which the step from the
monitor's `jeq` to the literal `ALit.eqJson c` needs (`predEqLitS`, `predOneOfLitS`); on entries with
scalar or null constants only it is vacuous. It is needed: `needsAdm` gives two entries against admitted
objects, every way answered covered without the vector of both matching, and a prepared call with distinct
keys whose value at the path, an object naming one key twice, the monitor finds `jeq` to both. That every
literal of the question passes the name check, which the numbering needs, is proved from the fragment
(`wayQAKeysOk`). -/
theorem leanWrittenCoverageIsMonitorMatchingA (p : AgentWarrant.Monitor.Full.Policy) (a : String)
    (gs : List AgentWarrant.Monitor.Full.Grant) (E : Option (List Lean.Json)) (listed : List (List Bool))
    (hfrag : ∀ g, g ∈ gs → g.action = a → AgentWarrant.Revision.ArgCover.grantOkA g = true)
    (hcov : ∀ t d cond, AgentWarrant.Mem (t, d) (AgentWarrant.Revision.ArgCover.ways a p.tools) →
      AgentWarrant.Revision.ArgCover.wayCond a p.tools gs E t d = some cond →
      AgentWarrant.Revision.ArgCover.argCover
        (AgentWarrant.Oracle.ArgCover.good
          (AgentWarrant.Revision.ArgCover.buildQA (cond.map AgentWarrant.Revision.ArgCover.liftC)
            (gs.map (AgentWarrant.Revision.ArgCover.posOfA a (AgentWarrant.Revision.ArgCover.wayRes d.res)
              (AgentWarrant.Revision.ArgCover.actionKeys a (AgentWarrant.Revision.ArgCover.ownTools a p.tools) gs)))).cond
          (AgentWarrant.Revision.ArgCover.buildQA (cond.map AgentWarrant.Revision.ArgCover.liftC)
            (gs.map (AgentWarrant.Revision.ArgCover.posOfA a (AgentWarrant.Revision.ArgCover.wayRes d.res)
              (AgentWarrant.Revision.ArgCover.actionKeys a (AgentWarrant.Revision.ArgCover.ownTools a p.tools) gs)))).pos
          listed)
        (AgentWarrant.Revision.ArgCover.buildQA (cond.map AgentWarrant.Revision.ArgCover.liftC)
          (gs.map (AgentWarrant.Revision.ArgCover.posOfA a (AgentWarrant.Revision.ArgCover.wayRes d.res)
            (AgentWarrant.Revision.ArgCover.actionKeys a (AgentWarrant.Revision.ArgCover.ownTools a p.tools) gs)))).atoms =
        AgentWarrant.Revision.ArgCover.Answer.covered)
    (s : AgentWarrant.Monitor.Full.State)
    (hreach : ∃ cs, s = (AgentWarrant.Monitor.Full.runFull p (AgentWarrant.Monitor.Full.initialState p) cs).2)
    (c : AgentWarrant.Monitor.Full.Call) (t : AgentWarrant.Monitor.Full.Tool) (es : List AgentWarrant.Monitor.Full.Effect)
    (hprep : AgentWarrant.Monitor.Full.prepare p s c = Except.ok (t, es))
    (e : AgentWarrant.Monitor.Full.Effect) (he : AgentWarrant.Mem e es) (ha : e.action = a)
    (hE : ∀ cs, E = some cs → AgentWarrant.anyB (fun c => AgentWarrant.Revision.ArgCover.holds
      (AgentWarrant.Revision.ArgCover.eqLitOf c) (AgentWarrant.Revision.ArgCover.avOf e.res)) cs = true)
    (hdistinct : AgentWarrant.Revision.ArgCover.keysDistinct c.args = true)
    (hadm : ∀ g, g ∈ gs → g.action = a → ∀ q, q ∈ g.preds → AgentWarrant.Revision.ArgCover.predJsonConst q = true →
      ∀ x, AgentWarrant.Monitor.Full.lookupPath (AgentWarrant.Monitor.Full.argsJson c.args)
        (AgentWarrant.Revision.ArgCover.predPath q) = some x → AgentWarrant.Revision.ArgCover.admitted x = true) :
    AgentWarrant.anyB (fun u => decide (u = gs.map (fun g => AgentWarrant.Monitor.Full.grantMatches s c.args g e))) listed = true :=
  AgentWarrant.Revision.ArgCover.preparedCoverDistinctA p a gs E listed hfrag hcov s hreach c t es hprep e he ha hE
    hdistinct hadm

/-- `leanWrittenCoverageIsMonitorMatchingA` for every call the oracle decodes (`callOf`) from the `call`
member of an input it answers (its guard, which every judgment runs under, admitted the input): the
distinct-keys hypothesis and `hadm` (`JsonPathsAdmitted`) are discharged, since the oracle's checks hold of
every value inside a checked input and of the argument object the monitor builds from its members
(`decodedCallAdmitted`). The remaining hypotheses are the fragment, the covered answers, a reachable state,
a prepared call with an effect of action `a`, and the resource among `E`'s. -/
theorem leanWrittenCoverageIsMonitorMatchingOnAdmitted (p : AgentWarrant.Monitor.Full.Policy) (a : String)
    (gs : List AgentWarrant.Monitor.Full.Grant) (E : Option (List Lean.Json)) (listed : List (List Bool))
    (hfrag : ∀ g, g ∈ gs → g.action = a → AgentWarrant.Revision.ArgCover.grantOkA g = true)
    (hcov : ∀ t d cond, AgentWarrant.Mem (t, d) (AgentWarrant.Revision.ArgCover.ways a p.tools) →
      AgentWarrant.Revision.ArgCover.wayCond a p.tools gs E t d = some cond →
      AgentWarrant.Revision.ArgCover.argCover
        (AgentWarrant.Oracle.ArgCover.good
          (AgentWarrant.Revision.ArgCover.buildQA (cond.map AgentWarrant.Revision.ArgCover.liftC)
            (gs.map (AgentWarrant.Revision.ArgCover.posOfA a (AgentWarrant.Revision.ArgCover.wayRes d.res)
              (AgentWarrant.Revision.ArgCover.actionKeys a (AgentWarrant.Revision.ArgCover.ownTools a p.tools) gs)))).cond
          (AgentWarrant.Revision.ArgCover.buildQA (cond.map AgentWarrant.Revision.ArgCover.liftC)
            (gs.map (AgentWarrant.Revision.ArgCover.posOfA a (AgentWarrant.Revision.ArgCover.wayRes d.res)
              (AgentWarrant.Revision.ArgCover.actionKeys a (AgentWarrant.Revision.ArgCover.ownTools a p.tools) gs)))).pos
          listed)
        (AgentWarrant.Revision.ArgCover.buildQA (cond.map AgentWarrant.Revision.ArgCover.liftC)
          (gs.map (AgentWarrant.Revision.ArgCover.posOfA a (AgentWarrant.Revision.ArgCover.wayRes d.res)
            (AgentWarrant.Revision.ArgCover.actionKeys a (AgentWarrant.Revision.ArgCover.ownTools a p.tools) gs)))).atoms =
        AgentWarrant.Revision.ArgCover.Answer.covered)
    (s : AgentWarrant.Monitor.Full.State)
    (hreach : ∃ cs, s = (AgentWarrant.Monitor.Full.runFull p (AgentWarrant.Monitor.Full.initialState p) cs).2)
    {f : Lean.Json → Except String Lean.Json} {input out cj : Lean.Json} {c : AgentWarrant.Monitor.Full.Call}
    (hg : AgentWarrant.Oracle.guarded (AgentWarrant.Oracle.keysGuard f) input = Except.ok out)
    (hc : AgentWarrant.Oracle.req input "call" = Except.ok cj)
    (hd : AgentWarrant.Oracle.MonitorFull.callOf cj = Except.ok c)
    (t : AgentWarrant.Monitor.Full.Tool) (es : List AgentWarrant.Monitor.Full.Effect)
    (hprep : AgentWarrant.Monitor.Full.prepare p s c = Except.ok (t, es))
    (e : AgentWarrant.Monitor.Full.Effect) (he : AgentWarrant.Mem e es) (ha : e.action = a)
    (hE : ∀ cs, E = some cs → AgentWarrant.anyB (fun c => AgentWarrant.Revision.ArgCover.holds
      (AgentWarrant.Revision.ArgCover.eqLitOf c) (AgentWarrant.Revision.ArgCover.avOf e.res)) cs = true) :
    AgentWarrant.anyB (fun u => decide (u = gs.map (fun g => AgentWarrant.Monitor.Full.grantMatches s c.args g e))) listed = true :=
  AgentWarrant.Revision.ArgCover.preparedCoverDecodedA p a gs E listed hfrag hcov s hreach hg hc hd t es hprep e he
    ha hE

/-- One coverage theorem for what the oracle's `arg_cover_policy` answers, whichever writer it used. The
oracle writes `wayQ` when every entry of action `a` has scalar or null constants (`grantOk`) and `wayQR`
otherwise: `wayQA`'s question (an array or object predicate constant as `ALit.eqJson c`) with an entry whose
resource pattern is an array or object constant written as never matching (`posOfR`). On entries in
`grantOkA` `wayQR` writes `wayQA`'s question (`wayQRIsA`), and on the first kind `wayQA` writes the very
question `wayQ` does (`wayQSame`: the same names, atoms, condition and positions). The entries of `a` are in
`grantOkR` (their predicate constants pass the oracle's checks, which the oracle checks of its whole input
first; the oracle answers `outside` otherwise), and the oracle's way-by-way decision (`decideWays` over the
questions it writes for the ways of `a`, as `arg_cover_policy` collects them) answers `covered`, which
means `argCover` answered covered on every way's question (`decideWaysCovered`, `oracleCoveredWays`). Then
every call the monitor prepares on a state a run from the task's start reaches, with an effect of action
`a`, has the monitor's own `grantMatches` vector over `gs` among the listed vectors, under the hypotheses
of `leanWrittenCoverageIsMonitorMatching` (the resource among `E`'s, no repeated argument key); only when
the oracle wrote `wayQR` (an entry of `a` has an array or object constant), `hadm` of
`leanWrittenCoverageIsMonitorMatchingA` (vacuous unless a predicate compares with an array or object
constant: on entries in `grantOk` it holds of every call, `admVacuous`); and
only when an entry of `a` has an array or object resource constant, `htools`: no tool of the policy
declares an array or object resource constant (`ToolResScalar`; Lean's `prepare` keeps any constant, the
registration check refuses such a one, in the Python model and in Lean: the next theorem,
`oracleCoverageIsMonitorMatchingRegistered`, asks that instead). With it the resource of every prepared effect is a scalar
or null (`preparedResScalar`: an argument resource and a list argument's element are scalars by
preparation's checks), and `jeq` of an array or object pattern constant with it is false
(`structGrantNoMatch`), the never-matching position. The oracle's decoding of its JSON input into `a`, the
entries, the tools, `E` and the listed vectors is not part of the statement. -/
theorem oracleCoverageIsMonitorMatching (p : AgentWarrant.Monitor.Full.Policy) (a : String)
    (gs : List AgentWarrant.Monitor.Full.Grant) (E : Option (List Lean.Json)) (listedS : List String)
    (listed : List (List Bool))
    (hfrag : ∀ g, g ∈ gs → g.action = a → AgentWarrant.Revision.ArgCover.grantOkR g = true)
    (htools : AgentWarrant.allB AgentWarrant.Revision.ArgCover.grantOkA (AgentWarrant.Revision.ArgCover.ofAction a gs) = false →
      ∀ t, AgentWarrant.Mem t p.tools → ∀ d, AgentWarrant.Mem d t.effects → ∀ v,
        d.res = AgentWarrant.Monitor.Full.ResRef.const v → AgentWarrant.Revision.ArgCover.scalarOrNull v = true)
    (hans : (AgentWarrant.Oracle.ArgCover.decideWays listedS listed (AgentWarrant.Oracle.ArgCover.somesQ
      ((AgentWarrant.Revision.ArgCover.ways a p.tools).map (fun w =>
        match AgentWarrant.allB AgentWarrant.Revision.ArgCover.grantOk (AgentWarrant.Revision.ArgCover.ofAction a gs) with
        | true => AgentWarrant.Revision.ArgCover.wayQ a p.tools gs E w.1 w.2
        | false => AgentWarrant.Revision.ArgCover.wayQR a p.tools gs E w.1 w.2))) []).getObjVal? "answer" =
      Except.ok (Lean.Json.str "covered"))
    (s : AgentWarrant.Monitor.Full.State)
    (hreach : ∃ cs, s = (AgentWarrant.Monitor.Full.runFull p (AgentWarrant.Monitor.Full.initialState p) cs).2)
    (c : AgentWarrant.Monitor.Full.Call) (t : AgentWarrant.Monitor.Full.Tool) (es : List AgentWarrant.Monitor.Full.Effect)
    (hprep : AgentWarrant.Monitor.Full.prepare p s c = Except.ok (t, es))
    (e : AgentWarrant.Monitor.Full.Effect) (he : AgentWarrant.Mem e es) (ha : e.action = a)
    (hE : ∀ cs, E = some cs → AgentWarrant.anyB (fun c => AgentWarrant.Revision.ArgCover.holds
      (AgentWarrant.Revision.ArgCover.eqLitOf c) (AgentWarrant.Revision.ArgCover.avOf e.res)) cs = true)
    (hdistinct : AgentWarrant.Revision.ArgCover.keysDistinct c.args = true)
    (hadm : AgentWarrant.allB AgentWarrant.Revision.ArgCover.grantOk (AgentWarrant.Revision.ArgCover.ofAction a gs) = false →
      ∀ g, g ∈ gs → g.action = a → ∀ q, q ∈ g.preds → AgentWarrant.Revision.ArgCover.predJsonConst q = true →
      ∀ x, AgentWarrant.Monitor.Full.lookupPath (AgentWarrant.Monitor.Full.argsJson c.args)
        (AgentWarrant.Revision.ArgCover.predPath q) = some x → AgentWarrant.Revision.ArgCover.admitted x = true) :
    AgentWarrant.anyB (fun u => decide (u = gs.map (fun g => AgentWarrant.Monitor.Full.grantMatches s c.args g e))) listed = true :=
  AgentWarrant.Revision.ArgCover.oracleAnswerCoverR p a gs E listedS listed hfrag htools hans s hreach c t es hprep e he
    ha hE hdistinct hadm

/-- `oracleCoverageIsMonitorMatching` for a policy that passes Lean's registration check (Agenra Section
6.1), in place of the hypothesis that no tool declares an array or object resource constant: registration
refuses such a constant (`effArgOk`, as the Python model's registration does), so the resource of every
effect the monitor prepares is a scalar or null (`registrationToolResScalar`). The other hypotheses are
`oracleCoverageIsMonitorMatching`'s. The oracle's `arg_cover_policy` checks the tools it is given with
registration's effect check itself, so `oracleCoverageIsMonitorMatchingToolChecked` below needs neither this
hypothesis nor `ToolResScalar`. -/
theorem oracleCoverageIsMonitorMatchingRegistered (p : AgentWarrant.Monitor.Full.Policy) (a : String)
    (gs : List AgentWarrant.Monitor.Full.Grant) (E : Option (List Lean.Json)) (listedS : List String)
    (listed : List (List Bool))
    (hfrag : ∀ g, g ∈ gs → g.action = a → AgentWarrant.Revision.ArgCover.grantOkR g = true)
    (hreg : AgentWarrant.Monitor.Full.registrationOk p = true)
    (hans : (AgentWarrant.Oracle.ArgCover.decideWays listedS listed (AgentWarrant.Oracle.ArgCover.somesQ
      ((AgentWarrant.Revision.ArgCover.ways a p.tools).map (fun w =>
        match AgentWarrant.allB AgentWarrant.Revision.ArgCover.grantOk (AgentWarrant.Revision.ArgCover.ofAction a gs) with
        | true => AgentWarrant.Revision.ArgCover.wayQ a p.tools gs E w.1 w.2
        | false => AgentWarrant.Revision.ArgCover.wayQR a p.tools gs E w.1 w.2))) []).getObjVal? "answer" =
      Except.ok (Lean.Json.str "covered"))
    (s : AgentWarrant.Monitor.Full.State)
    (hreach : ∃ cs, s = (AgentWarrant.Monitor.Full.runFull p (AgentWarrant.Monitor.Full.initialState p) cs).2)
    (c : AgentWarrant.Monitor.Full.Call) (t : AgentWarrant.Monitor.Full.Tool) (es : List AgentWarrant.Monitor.Full.Effect)
    (hprep : AgentWarrant.Monitor.Full.prepare p s c = Except.ok (t, es))
    (e : AgentWarrant.Monitor.Full.Effect) (he : AgentWarrant.Mem e es) (ha : e.action = a)
    (hE : ∀ cs, E = some cs → AgentWarrant.anyB (fun c => AgentWarrant.Revision.ArgCover.holds
      (AgentWarrant.Revision.ArgCover.eqLitOf c) (AgentWarrant.Revision.ArgCover.avOf e.res)) cs = true)
    (hdistinct : AgentWarrant.Revision.ArgCover.keysDistinct c.args = true)
    (hadm : AgentWarrant.allB AgentWarrant.Revision.ArgCover.grantOk (AgentWarrant.Revision.ArgCover.ofAction a gs) = false →
      ∀ g, g ∈ gs → g.action = a → ∀ q, q ∈ g.preds → AgentWarrant.Revision.ArgCover.predJsonConst q = true →
      ∀ x, AgentWarrant.Monitor.Full.lookupPath (AgentWarrant.Monitor.Full.argsJson c.args)
        (AgentWarrant.Revision.ArgCover.predPath q) = some x → AgentWarrant.Revision.ArgCover.admitted x = true) :
    AgentWarrant.anyB (fun u => decide (u = gs.map (fun g => AgentWarrant.Monitor.Full.grantMatches s c.args g e))) listed = true :=
  AgentWarrant.Revision.ArgCover.oracleAnswerCoverReg p a gs E listedS listed hfrag hreg hans s hreach c t es hprep e
    he ha hE hdistinct hadm

/-- What the oracle's `arg_cover_policy` answers, once its input is decoded, says of the monitor with no
hypothesis on the tools or the entries: the oracle first checks every effect of every tool it is given with
registration's effect check (`effArgOk`: a resource constant a JSON scalar or null, a resource argument one
the tool declares; the rest of registration's tool check reads the policy's edges and nodes, which the
input lacks) and answers `invalid`, naming the tool, when one fails; so when it answers `covered`, no tool
declares an array or object resource constant (`toolChkCovered`, `toolChkToolResScalar`), the action's
entries lie in the fragment (else it answers `outside`), and, as in `oracleCoverageIsMonitorMatching`, every
call the monitor prepares on a state a run from the task's start reaches, with an effect of action `a`
whose resource is among `E`'s and with no repeated argument key (and, only when an entry of `a` compares
with an array or object constant, `hadm`), has the monitor's own `grantMatches` vector over `gs` among the
listed vectors. The oracle's decoding of its JSON input into `a`, the entries, the tools, `E` and the
listed vectors is not part of the statement. -/
theorem oracleCoverageIsMonitorMatchingToolChecked (p : AgentWarrant.Monitor.Full.Policy) (a : String)
    (gs : List AgentWarrant.Monitor.Full.Grant) (E : Option (List Lean.Json)) (listedS : List String)
    (listed : List (List Bool))
    (hans : (AgentWarrant.Oracle.ArgCoverToolChk.argCoverPolicyAnswer a p.tools gs E listedS listed).getObjVal? "answer" =
      Except.ok (Lean.Json.str "covered"))
    (s : AgentWarrant.Monitor.Full.State)
    (hreach : ∃ cs, s = (AgentWarrant.Monitor.Full.runFull p (AgentWarrant.Monitor.Full.initialState p) cs).2)
    (c : AgentWarrant.Monitor.Full.Call) (t : AgentWarrant.Monitor.Full.Tool) (es : List AgentWarrant.Monitor.Full.Effect)
    (hprep : AgentWarrant.Monitor.Full.prepare p s c = Except.ok (t, es))
    (e : AgentWarrant.Monitor.Full.Effect) (he : AgentWarrant.Mem e es) (ha : e.action = a)
    (hE : ∀ cs, E = some cs → AgentWarrant.anyB (fun c => AgentWarrant.Revision.ArgCover.holds
      (AgentWarrant.Revision.ArgCover.eqLitOf c) (AgentWarrant.Revision.ArgCover.avOf e.res)) cs = true)
    (hdistinct : AgentWarrant.Revision.ArgCover.keysDistinct c.args = true)
    (hadm : AgentWarrant.allB AgentWarrant.Revision.ArgCover.grantOk (AgentWarrant.Revision.ArgCover.ofAction a gs) = false →
      ∀ g, g ∈ gs → g.action = a → ∀ q, q ∈ g.preds → AgentWarrant.Revision.ArgCover.predJsonConst q = true →
      ∀ x, AgentWarrant.Monitor.Full.lookupPath (AgentWarrant.Monitor.Full.argsJson c.args)
        (AgentWarrant.Revision.ArgCover.predPath q) = some x → AgentWarrant.Revision.ArgCover.admitted x = true) :
    AgentWarrant.anyB (fun u => decide (u = gs.map (fun g => AgentWarrant.Monitor.Full.grantMatches s c.args g e))) listed = true :=
  AgentWarrant.Revision.ArgCover.toolChkOracleAnswerCover p a gs E listedS listed hans s hreach c t es hprep e he ha hE
    hdistinct hadm


/-- A binding class's facts about bound values (a slot's value matches a constant or a glob, slots asserted
equal sharing one value) written as literals of the coverage question mean the class (Agenra Sections 1
and 7.1: "a certificate must hold in every binding state"): the written clauses — the group's value
variable a valid slot value with the facts, and the resource with the facts whenever a slot pattern of the
group matches — hold for some value variable exactly when some slot value with the facts and some binding
bits make each slot's match bit "bound, and the resource, a valid slot value, equals the value". The
Python translation's writing of these clauses is compared with Z3's encoding, not proved; a class asserting
two slots' values differ is not written. -/
theorem bindingFactsAsLiterals (F : List (AgentWarrant.Revision.ArgCover.Lit × Bool)) (S : Nat → Prop)
    (P : Nat → Bool) (r : AgentWarrant.Revision.ArgCover.AV) :
    (∃ v, AgentWarrant.Revision.ArgCover.factsWritten F S P r v) ↔
      AgentWarrant.Revision.ArgCover.factsMeant F S (fun i => P i && AgentWarrant.Revision.ArgCover.slotOk r) r :=
  AgentWarrant.Revision.ArgCover.factsElim F S P r

/-- Binding classes asserting two slots' values differ (Agenra Sections 1 and 7.1), written for `arg_cover`
with each group of slots asserted equal one value variable with its facts, no two matching slots of groups
asserted different, and an inequality inside one group the empty clause: every binding state of the class
and effect yields a valuation of the written clauses with the state's match bits, so `covered` on the
written question is the class's coverage. The converse holds where `bindingOneInequalityExact` states
it; elsewhere an `uncovered` answer may stand for no binding state (the Python caller then asks Z3). -/
theorem bindingInequalitiesCoveredSound (F : Nat → List (AgentWarrant.Revision.ArgCover.Lit × Bool))
    (grp : Nat → Nat) (D : Nat → Nat → Prop) (S : Nat → Prop) (m : Nat → Bool)
    (r : AgentWarrant.Revision.ArgCover.AV) (h : AgentWarrant.Revision.ArgCover.neqMeant F grp D S m r) :
    ∃ (P : Nat → Bool) (v : Nat → AgentWarrant.Revision.ArgCover.AV),
      AgentWarrant.Revision.ArgCover.neqWritten F grp D S P r v ∧
      ∀ i, S i → (m i = true ↔ (P i && AgentWarrant.Revision.ArgCover.slotOk r) = true) :=
  AgentWarrant.Revision.ArgCover.neqSound F grp D S m r h

/-- One pair of binding-class groups asserted different (Agenra Sections 1 and 7.1), each group's facts
admitting a value other than any two given (a hypothesis the Python caller supplies for groups with no
positive fact): every valuation of the written clauses is a binding state of the class with the same match
bits, so `arg_cover`'s `uncovered` on such a class's question is exact too. -/
theorem bindingOneInequalityExact (F : Nat → List (AgentWarrant.Revision.ArgCover.Lit × Bool))
    (grp : Nat → Nat) (ss : List Nat) (g0 h0 : Nat) (P : Nat → Bool) (r : AgentWarrant.Revision.ArgCover.AV)
    (v : Nat → AgentWarrant.Revision.ArgCover.AV)
    (hw : AgentWarrant.Revision.ArgCover.neqWritten F grp (AgentWarrant.Revision.ArgCover.apart2 g0 h0)
      (fun i => i ∈ ss) P r v)
    (hfree : ∀ g, (g = g0 ∨ g = h0) → ∀ x x' : AgentWarrant.Revision.ArgCover.AV, ∃ y, y ≠ x ∧ y ≠ x' ∧
      AgentWarrant.Revision.ArgCover.slotOk y = true ∧ AgentWarrant.Revision.ArgCover.factsOk (F g) y = true) :
    AgentWarrant.Revision.ArgCover.neqMeant F grp (AgentWarrant.Revision.ArgCover.apart2 g0 h0) (fun i => i ∈ ss)
      (fun i => P i && AgentWarrant.Revision.ArgCover.slotOk r) r :=
  AgentWarrant.Revision.ArgCover.neqExact2 F grp ss g0 h0 P r v hw hfree

/-- A binding class's coverage question written by Lean itself from the class's facts (Agenra Sections 1
and 7.1: "a certificate must hold in every binding state"; `Revision.ArgCover.classQ`, the judgment
`arg_cover_class`): groups of slots asserted equal, each group's value variable a valid slot value with its
constant and glob facts, and a matching slot's resource with its group's facts. Answered `covered`, it
covers the monitor's `grantMatches` on every call the monitor prepares, in every binding state of the class
— group values `w` with their facts (`hw`), every slot the resource matches bound to its group's value
(`hclass`) — whose values are read where the way reads them (`hval`) and which meets the way's condition
(`hin`). A class denying an equality between slots is not written here; the converse (`uncovered`), on the
class's meaning, is `bindingClassUncoveredIsBindingState`. -/
theorem bindingClassQuestionCovers (fs : List AgentWarrant.Revision.ArgCover.Fact) (p : AgentWarrant.Monitor.Full.Policy) (a : String)
    (gs : List AgentWarrant.Monitor.Full.Grant) (E : Option (List Lean.Json)) (t : AgentWarrant.Monitor.Full.Tool)
    (d : AgentWarrant.Monitor.Full.EffDecl) (listed : List (List Bool)) (cond : List AgentWarrant.Revision.ArgCover.SClause)
    (Q : AgentWarrant.Revision.ArgCover.BuiltQC) (hcond : AgentWarrant.Revision.ArgCover.wayCond a p.tools gs E t d = some cond)
    (hq : AgentWarrant.Revision.ArgCover.classQ fs a p.tools gs E t d = some Q)
    (hfrag : ∀ g, g ∈ gs → g.action = a → AgentWarrant.Revision.ArgCover.grantOk g = true)
    (hcov : AgentWarrant.Revision.ArgCover.argCover (AgentWarrant.Oracle.ArgCover.good Q.cond Q.pos listed) Q.atoms = AgentWarrant.Revision.ArgCover.Answer.covered)
    (s : AgentWarrant.Monitor.Full.State) (c : AgentWarrant.Monitor.Full.Call) (t' : AgentWarrant.Monitor.Full.Tool) (es : List AgentWarrant.Monitor.Full.Effect)
    (hprep : AgentWarrant.Monitor.Full.prepare p s c = Except.ok (t', es)) (e : AgentWarrant.Monitor.Full.Effect) (he : AgentWarrant.Mem e es)
    (ha : e.action = a) (val : AgentWarrant.Revision.ArgCover.Src → AgentWarrant.Revision.ArgCover.AV)
    (hval : ∀ src, val (AgentWarrant.Revision.ArgCover.reSrc (AgentWarrant.Revision.ArgCover.wayRes d.res) src) = AgentWarrant.Revision.ArgCover.srcVal s c.args e src)
    (hin : AgentWarrant.Revision.ArgCover.sCnfHolds val cond = true) (w : String → AgentWarrant.Revision.ArgCover.AV)
    (hw : ∀ g, AgentWarrant.Revision.ArgCover.slotOk (w g) = true ∧ AgentWarrant.Revision.ArgCover.factsOk (AgentWarrant.Revision.ArgCover.groupLits fs g) (w g) = true)
    (hclass : ∀ n, AgentWarrant.Monitor.Full.resMatches s e.res (AgentWarrant.Monitor.Full.Pat.slot n) = true → AgentWarrant.Revision.ArgCover.avOf e.res = w (AgentWarrant.Revision.ArgCover.grpOf fs n)) :
    AgentWarrant.anyB (fun u => decide (u = gs.map (fun g => AgentWarrant.Monitor.Full.grantMatches s c.args g e))) listed = true :=
  AgentWarrant.Revision.ArgCover.preparedClassCoverMatches fs p a gs E t d listed cond Q hcond hq hfrag hcov s c t' es hprep e he ha val
    hval hin w hw hclass

/-- `bindingClassQuestionCovers` for an action whose entries compare with array or object constants: Lean's
class question on `wayQA`'s positions (`classQA`), answered `covered`, covers every call the monitor prepares
in every binding state of the class, the entries of the action in `grantOkA`, under one more hypothesis,
`leanWrittenCoverageIsMonitorMatchingA`'s `hadm` (the call's values where an entry compares with an array or
object constant are admitted, `JsonPathsAdmitted`). -/
theorem bindingClassQuestionCoversA (fs : List AgentWarrant.Revision.ArgCover.Fact) (p : AgentWarrant.Monitor.Full.Policy) (a : String)
    (gs : List AgentWarrant.Monitor.Full.Grant) (E : Option (List Lean.Json)) (t : AgentWarrant.Monitor.Full.Tool)
    (d : AgentWarrant.Monitor.Full.EffDecl) (listed : List (List Bool)) (cond : List AgentWarrant.Revision.ArgCover.SClause)
    (Q : AgentWarrant.Revision.ArgCover.BuiltQC) (hcond : AgentWarrant.Revision.ArgCover.wayCond a p.tools gs E t d = some cond)
    (hq : AgentWarrant.Revision.ArgCover.classQA fs a p.tools gs E t d = some Q)
    (hfrag : ∀ g, g ∈ gs → g.action = a → AgentWarrant.Revision.ArgCover.grantOkA g = true)
    (hcov : AgentWarrant.Revision.ArgCover.argCover (AgentWarrant.Oracle.ArgCover.good Q.cond Q.pos listed) Q.atoms = AgentWarrant.Revision.ArgCover.Answer.covered)
    (s : AgentWarrant.Monitor.Full.State) (c : AgentWarrant.Monitor.Full.Call) (t' : AgentWarrant.Monitor.Full.Tool) (es : List AgentWarrant.Monitor.Full.Effect)
    (hprep : AgentWarrant.Monitor.Full.prepare p s c = Except.ok (t', es)) (e : AgentWarrant.Monitor.Full.Effect) (he : AgentWarrant.Mem e es)
    (ha : e.action = a) (val : AgentWarrant.Revision.ArgCover.Src → AgentWarrant.Revision.ArgCover.AV)
    (hval : ∀ src, val (AgentWarrant.Revision.ArgCover.reSrc (AgentWarrant.Revision.ArgCover.wayRes d.res) src) = AgentWarrant.Revision.ArgCover.srcVal s c.args e src)
    (hadm : AgentWarrant.Revision.ArgCover.JsonPathsAdmitted a gs c.args)
    (hin : AgentWarrant.Revision.ArgCover.sCnfHolds val cond = true) (w : String → AgentWarrant.Revision.ArgCover.AV)
    (hw : ∀ g, AgentWarrant.Revision.ArgCover.slotOk (w g) = true ∧ AgentWarrant.Revision.ArgCover.factsOk (AgentWarrant.Revision.ArgCover.groupLits fs g) (w g) = true)
    (hclass : ∀ n, AgentWarrant.Monitor.Full.resMatches s e.res (AgentWarrant.Monitor.Full.Pat.slot n) = true → AgentWarrant.Revision.ArgCover.avOf e.res = w (AgentWarrant.Revision.ArgCover.grpOf fs n)) :
    AgentWarrant.anyB (fun u => decide (u = gs.map (fun g => AgentWarrant.Monitor.Full.grantMatches s c.args g e))) listed = true :=
  AgentWarrant.Revision.ArgCover.preparedClassCoverMatchesA fs p a gs E t d listed cond Q hcond hq hfrag hcov s c t' es hprep e he ha val
    hval hadm hin w hw hclass

/-- `bindingClassQuestionCovers` for a class denying equalities between slots: Lean's class question with the
denied equalities' clauses (`classQN`: per denied equality between two groups, no slot of one and slot of the
other both match; inside one group, the empty clause), answered `covered`, covers every call the monitor
prepares in every binding state of the class, a binding state now also giving different values to the groups
of slots whose equality the class denies (`hapart`). The converse is not stated: an `uncovered` answer on
such a question may stand for no binding state. -/
theorem bindingClassQuestionCoversNeq (fs : List AgentWarrant.Revision.ArgCover.Fact) (p : AgentWarrant.Monitor.Full.Policy) (a : String)
    (gs : List AgentWarrant.Monitor.Full.Grant) (E : Option (List Lean.Json)) (t : AgentWarrant.Monitor.Full.Tool)
    (d : AgentWarrant.Monitor.Full.EffDecl) (listed : List (List Bool)) (cond : List AgentWarrant.Revision.ArgCover.SClause)
    (Q : AgentWarrant.Revision.ArgCover.BuiltQC) (hcond : AgentWarrant.Revision.ArgCover.wayCond a p.tools gs E t d = some cond)
    (hq : AgentWarrant.Revision.ArgCover.classQN fs a p.tools gs E t d = some Q)
    (hfrag : ∀ g, g ∈ gs → g.action = a → AgentWarrant.Revision.ArgCover.grantOk g = true)
    (hcov : AgentWarrant.Revision.ArgCover.argCover (AgentWarrant.Oracle.ArgCover.good Q.cond Q.pos listed) Q.atoms = AgentWarrant.Revision.ArgCover.Answer.covered)
    (s : AgentWarrant.Monitor.Full.State) (c : AgentWarrant.Monitor.Full.Call) (t' : AgentWarrant.Monitor.Full.Tool) (es : List AgentWarrant.Monitor.Full.Effect)
    (hprep : AgentWarrant.Monitor.Full.prepare p s c = Except.ok (t', es)) (e : AgentWarrant.Monitor.Full.Effect) (he : AgentWarrant.Mem e es)
    (ha : e.action = a) (val : AgentWarrant.Revision.ArgCover.Src → AgentWarrant.Revision.ArgCover.AV)
    (hval : ∀ src, val (AgentWarrant.Revision.ArgCover.reSrc (AgentWarrant.Revision.ArgCover.wayRes d.res) src) = AgentWarrant.Revision.ArgCover.srcVal s c.args e src)
    (hin : AgentWarrant.Revision.ArgCover.sCnfHolds val cond = true) (w : String → AgentWarrant.Revision.ArgCover.AV)
    (hw : ∀ g, AgentWarrant.Revision.ArgCover.slotOk (w g) = true ∧ AgentWarrant.Revision.ArgCover.factsOk (AgentWarrant.Revision.ArgCover.groupLits fs g) (w g) = true)
    (hapart : ∀ x y, AgentWarrant.Mem (x, AgentWarrant.Revision.ArgCover.FPat.slot y, false) fs →
      w (AgentWarrant.Revision.ArgCover.grpOf fs x) ≠ w (AgentWarrant.Revision.ArgCover.grpOf fs y))
    (hclass : ∀ n, AgentWarrant.Monitor.Full.resMatches s e.res (AgentWarrant.Monitor.Full.Pat.slot n) = true → AgentWarrant.Revision.ArgCover.avOf e.res = w (AgentWarrant.Revision.ArgCover.grpOf fs n)) :
    AgentWarrant.anyB (fun u => decide (u = gs.map (fun g => AgentWarrant.Monitor.Full.grantMatches s c.args g e))) listed = true :=
  AgentWarrant.Revision.ArgCover.preparedClassNeqCoverMatches fs p a gs E t d listed cond Q hcond hq hfrag hcov s c t' es hprep e he ha val
    hval hin w hw hapart hclass

/-- `bindingClassQuestionCoversA` for an action with an entry whose resource pattern is an array or object
constant: Lean's class question written with such an entry as never matching (`classQR`), answered
`covered`, covers every call the monitor prepares in every binding state of the class, the entries of the
action in `grantOkR` (any resource pattern; predicate constants passing the oracle's checks), under
`bindingClassQuestionCoversA`'s hypotheses and, only when an entry of the action lies outside `grantOkA`
(has an array or object resource constant), one more: no tool declares an array or object resource constant
(`htools`, `ToolResScalar`; the Python model's registration refuses one, Lean's model keeps any constant),
so the monitor compares such a pattern only with a scalar or null resource, which it never equals. -/
theorem bindingClassQuestionCoversR (fs : List AgentWarrant.Revision.ArgCover.Fact) (p : AgentWarrant.Monitor.Full.Policy) (a : String)
    (gs : List AgentWarrant.Monitor.Full.Grant) (E : Option (List Lean.Json)) (t : AgentWarrant.Monitor.Full.Tool)
    (d : AgentWarrant.Monitor.Full.EffDecl) (listed : List (List Bool)) (cond : List AgentWarrant.Revision.ArgCover.SClause)
    (Q : AgentWarrant.Revision.ArgCover.BuiltQC) (hcond : AgentWarrant.Revision.ArgCover.wayCond a p.tools gs E t d = some cond)
    (hq : AgentWarrant.Revision.ArgCover.classQR fs a p.tools gs E t d = some Q)
    (hfrag : ∀ g, g ∈ gs → g.action = a → AgentWarrant.Revision.ArgCover.grantOkR g = true)
    (htools : AgentWarrant.allB AgentWarrant.Revision.ArgCover.grantOkA (AgentWarrant.Revision.ArgCover.ofAction a gs) = false → AgentWarrant.Revision.ArgCover.ToolResScalar p)
    (hcov : AgentWarrant.Revision.ArgCover.argCover (AgentWarrant.Oracle.ArgCover.good Q.cond Q.pos listed) Q.atoms = AgentWarrant.Revision.ArgCover.Answer.covered)
    (s : AgentWarrant.Monitor.Full.State) (c : AgentWarrant.Monitor.Full.Call) (t' : AgentWarrant.Monitor.Full.Tool) (es : List AgentWarrant.Monitor.Full.Effect)
    (hprep : AgentWarrant.Monitor.Full.prepare p s c = Except.ok (t', es)) (e : AgentWarrant.Monitor.Full.Effect) (he : AgentWarrant.Mem e es)
    (ha : e.action = a) (val : AgentWarrant.Revision.ArgCover.Src → AgentWarrant.Revision.ArgCover.AV)
    (hval : ∀ src, val (AgentWarrant.Revision.ArgCover.reSrc (AgentWarrant.Revision.ArgCover.wayRes d.res) src) = AgentWarrant.Revision.ArgCover.srcVal s c.args e src)
    (hadm : AgentWarrant.Revision.ArgCover.JsonPathsAdmitted a gs c.args)
    (hin : AgentWarrant.Revision.ArgCover.sCnfHolds val cond = true) (w : String → AgentWarrant.Revision.ArgCover.AV)
    (hw : ∀ g, AgentWarrant.Revision.ArgCover.slotOk (w g) = true ∧ AgentWarrant.Revision.ArgCover.factsOk (AgentWarrant.Revision.ArgCover.groupLits fs g) (w g) = true)
    (hclass : ∀ n, AgentWarrant.Monitor.Full.resMatches s e.res (AgentWarrant.Monitor.Full.Pat.slot n) = true → AgentWarrant.Revision.ArgCover.avOf e.res = w (AgentWarrant.Revision.ArgCover.grpOf fs n)) :
    AgentWarrant.anyB (fun u => decide (u = gs.map (fun g => AgentWarrant.Monitor.Full.grantMatches s c.args g e))) listed = true :=
  AgentWarrant.Revision.ArgCover.preparedClassCoverMatchesRA fs p a gs E t d listed cond Q hcond hq hfrag htools hcov s c t' es hprep e he ha
    val hval hadm hin w hw hclass

/-- `bindingClassQuestionCoversNeq` for an action whose entries compare with array or object constants
(predicate or resource): Lean's class question with the denied equalities' clauses on `classQR`'s question
(`classQNR`), answered `covered`, covers every call the monitor prepares in every binding state of the class,
group values differing where the class denies an equality (`hapart`), under `bindingClassQuestionCoversR`'s
hypotheses (`htools` only when an entry of the action has an array or object resource constant). The
converse is not stated: an `uncovered` answer on such a question may stand for no binding state. -/
theorem bindingClassQuestionCoversNeqR (fs : List AgentWarrant.Revision.ArgCover.Fact) (p : AgentWarrant.Monitor.Full.Policy) (a : String)
    (gs : List AgentWarrant.Monitor.Full.Grant) (E : Option (List Lean.Json)) (t : AgentWarrant.Monitor.Full.Tool)
    (d : AgentWarrant.Monitor.Full.EffDecl) (listed : List (List Bool)) (cond : List AgentWarrant.Revision.ArgCover.SClause)
    (Q : AgentWarrant.Revision.ArgCover.BuiltQC) (hcond : AgentWarrant.Revision.ArgCover.wayCond a p.tools gs E t d = some cond)
    (hq : AgentWarrant.Revision.ArgCover.classQNR fs a p.tools gs E t d = some Q)
    (hfrag : ∀ g, g ∈ gs → g.action = a → AgentWarrant.Revision.ArgCover.grantOkR g = true)
    (htools : AgentWarrant.allB AgentWarrant.Revision.ArgCover.grantOkA (AgentWarrant.Revision.ArgCover.ofAction a gs) = false → AgentWarrant.Revision.ArgCover.ToolResScalar p)
    (hcov : AgentWarrant.Revision.ArgCover.argCover (AgentWarrant.Oracle.ArgCover.good Q.cond Q.pos listed) Q.atoms = AgentWarrant.Revision.ArgCover.Answer.covered)
    (s : AgentWarrant.Monitor.Full.State) (c : AgentWarrant.Monitor.Full.Call) (t' : AgentWarrant.Monitor.Full.Tool) (es : List AgentWarrant.Monitor.Full.Effect)
    (hprep : AgentWarrant.Monitor.Full.prepare p s c = Except.ok (t', es)) (e : AgentWarrant.Monitor.Full.Effect) (he : AgentWarrant.Mem e es)
    (ha : e.action = a) (val : AgentWarrant.Revision.ArgCover.Src → AgentWarrant.Revision.ArgCover.AV)
    (hval : ∀ src, val (AgentWarrant.Revision.ArgCover.reSrc (AgentWarrant.Revision.ArgCover.wayRes d.res) src) = AgentWarrant.Revision.ArgCover.srcVal s c.args e src)
    (hadm : AgentWarrant.Revision.ArgCover.JsonPathsAdmitted a gs c.args)
    (hin : AgentWarrant.Revision.ArgCover.sCnfHolds val cond = true) (w : String → AgentWarrant.Revision.ArgCover.AV)
    (hw : ∀ g, AgentWarrant.Revision.ArgCover.slotOk (w g) = true ∧ AgentWarrant.Revision.ArgCover.factsOk (AgentWarrant.Revision.ArgCover.groupLits fs g) (w g) = true)
    (hapart : ∀ x y, AgentWarrant.Mem (x, AgentWarrant.Revision.ArgCover.FPat.slot y, false) fs →
      w (AgentWarrant.Revision.ArgCover.grpOf fs x) ≠ w (AgentWarrant.Revision.ArgCover.grpOf fs y))
    (hclass : ∀ n, AgentWarrant.Monitor.Full.resMatches s e.res (AgentWarrant.Monitor.Full.Pat.slot n) = true → AgentWarrant.Revision.ArgCover.avOf e.res = w (AgentWarrant.Revision.ArgCover.grpOf fs n)) :
    AgentWarrant.anyB (fun u => decide (u = gs.map (fun g => AgentWarrant.Monitor.Full.grantMatches s c.args g e))) listed = true :=
  AgentWarrant.Revision.ArgCover.preparedClassNeqCoverMatchesR fs p a gs E t d listed cond Q hcond hq hfrag htools hcov s c t' es hprep e he
    ha val hval hadm hin w hw hapart hclass

/-- One class coverage theorem for what the oracle's `arg_cover_class` answers, whichever writer it used.
The oracle writes `classQ` when every entry of action `a` has scalar or null constants (`grantOk`) and
`classQA` when one has an array or object predicate constant; on the first kind `classQA` writes the very
question `classQ` does (`classQSame`: the same names, atoms, condition and positions), so the oracle's class
question is `classQA`'s for every action (`oracleClassWriterIsClassQA`). The entries of `a` are in
`grantOkA` and the class denies no equality between slots (the oracle answers `outside` otherwise, or writes
`classQN` for a class denying one on entries in `grantOk`: `bindingClassQuestionCoversNeq`), and the
oracle's way-by-way decision (`decideWaysC` over the class questions it writes for the ways of `a`) answers
`covered`, which means `argCover` answered covered on every way's question (`decideWaysCCovered`). Then,
for every way `(t, d)` of `a` with condition `cond`, every call the monitor prepares with an effect of
action `a` in a binding state of the class has the monitor's own `grantMatches` vector over `gs` among the
listed vectors, under `bindingClassQuestionCovers`'s hypotheses (`hval`, `hin`, `hw`, `hclass`) and, only
when the oracle wrote `classQA` because an entry of `a` has an array or object predicate constant, `hadm`
of `bindingClassQuestionCoversA` (on entries in `grantOk` it holds of every call: `admVacuous`). The
oracle's decoding of its JSON input (the action, entries, tools, resources, listed vectors and facts) is
not part of the statement; the converse (`uncovered`), on the class's meaning, is
`oracleClassUncoveredIsBindingStateA` with `bindingClassUncoveredIsBindingStateA` (for `classQ` alone,
`oracleClassUncoveredIsBindingState` with `bindingClassUncoveredIsBindingState`). -/
theorem oracleClassCoverageIsMonitorMatching (fs : List AgentWarrant.Revision.ArgCover.Fact) (p : AgentWarrant.Monitor.Full.Policy) (a : String)
    (gs : List AgentWarrant.Monitor.Full.Grant) (E : Option (List Lean.Json)) (listedS : List String) (listed : List (List Bool))
    (hfrag : ∀ g, g ∈ gs → g.action = a → AgentWarrant.Revision.ArgCover.grantOkA g = true)
    (hans : (AgentWarrant.Oracle.ArgCoverClass.decideWaysC listedS listed (AgentWarrant.Oracle.ArgCoverClass.somesQC
      ((AgentWarrant.Revision.ArgCover.ways a p.tools).map (fun w =>
        match AgentWarrant.allB AgentWarrant.Revision.ArgCover.grantOk (AgentWarrant.Revision.ArgCover.ofAction a gs) with
        | true => AgentWarrant.Revision.ArgCover.classQ fs a p.tools gs E w.1 w.2
        | false => AgentWarrant.Revision.ArgCover.classQA fs a p.tools gs E w.1 w.2))) []).getObjVal? "answer" =
      Except.ok (Lean.Json.str "covered"))
    (t : AgentWarrant.Monitor.Full.Tool) (d : AgentWarrant.Monitor.Full.EffDecl) (hway : AgentWarrant.Mem (t, d) (AgentWarrant.Revision.ArgCover.ways a p.tools))
    (cond : List AgentWarrant.Revision.ArgCover.SClause) (hcond : AgentWarrant.Revision.ArgCover.wayCond a p.tools gs E t d = some cond)
    (s : AgentWarrant.Monitor.Full.State) (c : AgentWarrant.Monitor.Full.Call) (t' : AgentWarrant.Monitor.Full.Tool) (es : List AgentWarrant.Monitor.Full.Effect)
    (hprep : AgentWarrant.Monitor.Full.prepare p s c = Except.ok (t', es)) (e : AgentWarrant.Monitor.Full.Effect) (he : AgentWarrant.Mem e es)
    (ha : e.action = a) (val : AgentWarrant.Revision.ArgCover.Src → AgentWarrant.Revision.ArgCover.AV)
    (hval : ∀ src, val (AgentWarrant.Revision.ArgCover.reSrc (AgentWarrant.Revision.ArgCover.wayRes d.res) src) = AgentWarrant.Revision.ArgCover.srcVal s c.args e src)
    (hadm : AgentWarrant.allB AgentWarrant.Revision.ArgCover.grantOk (AgentWarrant.Revision.ArgCover.ofAction a gs) = false →
      ∀ g, g ∈ gs → g.action = a → ∀ q, q ∈ g.preds → AgentWarrant.Revision.ArgCover.predJsonConst q = true →
      ∀ x, AgentWarrant.Monitor.Full.lookupPath (AgentWarrant.Monitor.Full.argsJson c.args) (AgentWarrant.Revision.ArgCover.predPath q) = some x → AgentWarrant.Revision.ArgCover.admitted x = true)
    (hin : AgentWarrant.Revision.ArgCover.sCnfHolds val cond = true) (w : String → AgentWarrant.Revision.ArgCover.AV)
    (hw : ∀ g, AgentWarrant.Revision.ArgCover.slotOk (w g) = true ∧ AgentWarrant.Revision.ArgCover.factsOk (AgentWarrant.Revision.ArgCover.groupLits fs g) (w g) = true)
    (hclass : ∀ n, AgentWarrant.Monitor.Full.resMatches s e.res (AgentWarrant.Monitor.Full.Pat.slot n) = true → AgentWarrant.Revision.ArgCover.avOf e.res = w (AgentWarrant.Revision.ArgCover.grpOf fs n)) :
    AgentWarrant.anyB (fun u => decide (u = gs.map (fun g => AgentWarrant.Monitor.Full.grantMatches s c.args g e))) listed = true :=
  AgentWarrant.Revision.ArgCover.oracleClassCoverDistinct fs p a gs E listedS listed hfrag hans t d hway cond hcond s c t' es hprep e he ha
    val hval hadm hin w hw hclass

/-- One class coverage theorem for every writer the oracle's `arg_cover_class` uses. The oracle routes on the
entries of action `a` (all scalar or null constants: `classQ`; an array or object predicate constant:
`classQA`; an array or object resource constant: `classQR`) and on whether the class denies an equality
between slots (then `classQN` or `classQNR`, the answer flagged `"exact": false`, a flag that leaves the
`"answer"` field as it was: `classAllExactKeepsAnswer`); entries outside all three get `outside`, never
`covered`. If that routed answer (`classAllOut`, what the oracle returns on its decoded inputs once the tools pass its check) is
`covered`, then for every way `(t, d)` of `a` with condition `cond`, every call the monitor prepares with an
effect of action `a` in a binding state of the class meeting the condition has the monitor's own
`grantMatches` vector over `gs` among the listed vectors. The extra hypotheses are asked only where the
routing needs them: `hadm` (array or object path values admitted) when an entry is outside `grantOk`,
`htools` (`ToolResScalar`: tool resources scalar) when one is outside `grantOkA` (the oracle's own tool check
gives it: `oracleClassCoverageToolChecked`), and `hapart` (the denied equalities' values differ) when the
class denies one. Every answer the oracle returns on tools that pass its check is
`classAllOut` on what it decoded from its JSON input (`Revision.ArgCover.classChkJOut`); the decoding itself
is not part of the statement. -/
theorem oracleClassCoverageAllWriters (fs : List AgentWarrant.Revision.ArgCover.Fact) (p : AgentWarrant.Monitor.Full.Policy) (a : String)
    (gs : List AgentWarrant.Monitor.Full.Grant) (E : Option (List Lean.Json)) (listedS : List String) (listed : List (List Bool))
    (hans : (AgentWarrant.Oracle.ArgCoverClass.classAllOut fs a p.tools gs E listedS listed).getObjVal? "answer" =
      Except.ok (Lean.Json.str "covered"))
    (t : AgentWarrant.Monitor.Full.Tool) (d : AgentWarrant.Monitor.Full.EffDecl) (hway : AgentWarrant.Mem (t, d) (AgentWarrant.Revision.ArgCover.ways a p.tools))
    (cond : List AgentWarrant.Revision.ArgCover.SClause) (hcond : AgentWarrant.Revision.ArgCover.wayCond a p.tools gs E t d = some cond)
    (s : AgentWarrant.Monitor.Full.State) (c : AgentWarrant.Monitor.Full.Call) (t' : AgentWarrant.Monitor.Full.Tool) (es : List AgentWarrant.Monitor.Full.Effect)
    (hprep : AgentWarrant.Monitor.Full.prepare p s c = Except.ok (t', es)) (e : AgentWarrant.Monitor.Full.Effect) (he : AgentWarrant.Mem e es)
    (ha : e.action = a) (val : AgentWarrant.Revision.ArgCover.Src → AgentWarrant.Revision.ArgCover.AV)
    (hval : ∀ src, val (AgentWarrant.Revision.ArgCover.reSrc (AgentWarrant.Revision.ArgCover.wayRes d.res) src) = AgentWarrant.Revision.ArgCover.srcVal s c.args e src)
    (hadm : AgentWarrant.allB AgentWarrant.Revision.ArgCover.grantOk (AgentWarrant.Revision.ArgCover.ofAction a gs) = false → AgentWarrant.Revision.ArgCover.JsonPathsAdmitted a gs c.args)
    (htools : AgentWarrant.allB AgentWarrant.Revision.ArgCover.grantOkA (AgentWarrant.Revision.ArgCover.ofAction a gs) = false → AgentWarrant.Revision.ArgCover.ToolResScalar p)
    (hin : AgentWarrant.Revision.ArgCover.sCnfHolds val cond = true) (w : String → AgentWarrant.Revision.ArgCover.AV)
    (hw : ∀ g, AgentWarrant.Revision.ArgCover.slotOk (w g) = true ∧ AgentWarrant.Revision.ArgCover.factsOk (AgentWarrant.Revision.ArgCover.groupLits fs g) (w g) = true)
    (hapart : AgentWarrant.Revision.ArgCover.apartFree fs = false → ∀ x y, AgentWarrant.Mem (x, AgentWarrant.Revision.ArgCover.FPat.slot y, false) fs →
      w (AgentWarrant.Revision.ArgCover.grpOf fs x) ≠ w (AgentWarrant.Revision.ArgCover.grpOf fs y))
    (hclass : ∀ n, AgentWarrant.Monitor.Full.resMatches s e.res (AgentWarrant.Monitor.Full.Pat.slot n) = true → AgentWarrant.Revision.ArgCover.avOf e.res = w (AgentWarrant.Revision.ArgCover.grpOf fs n)) :
    AgentWarrant.anyB (fun u => decide (u = gs.map (fun g => AgentWarrant.Monitor.Full.grantMatches s c.args g e))) listed = true :=
  AgentWarrant.Revision.ArgCover.classAllOracleCover fs p a gs E listedS listed hans t d hway cond hcond s c t' es hprep e he ha val hval
    hadm htools hin w hw hapart hclass

/-- `oracleClassCoverageAllWriters` for what the oracle's `arg_cover_class` answers, with no hypothesis on
the tools: the oracle first checks every effect of every tool it is given with registration's effect check
(`effArgOk`: a resource constant a JSON scalar or null, a resource argument one the tool declares) and
answers `invalid`, naming the tool, when one fails; so when its answer
(`Oracle.ArgCoverClassChk.classChkAnswer`, the routed class answer `classAllOut` after the check) is
`covered`, no tool declares an array or object resource constant (`Revision.ArgCover.classChkCovered`,
`Revision.ArgCover.toolChkToolResScalar`), and, whichever of the five writers it routed to, for every way
`(t, d)` of `a` with condition `cond`, every call the monitor prepares with an effect of action `a` in a
binding state of the class meeting the condition has the monitor's own `grantMatches` vector over `gs`
among the listed vectors. The other hypotheses are `oracleClassCoverageAllWriters`'s: `hadm` when an entry
is outside `grantOk`, `hapart` when the class denies an equality between slots. Every answer the oracle
returns is `classChkAnswer` on what it decoded from its JSON input (`Revision.ArgCover.classChkJOut`); the
decoding itself is not part of the statement. -/
theorem oracleClassCoverageToolChecked (fs : List AgentWarrant.Revision.ArgCover.Fact) (p : AgentWarrant.Monitor.Full.Policy) (a : String)
    (gs : List AgentWarrant.Monitor.Full.Grant) (E : Option (List Lean.Json)) (listedS : List String) (listed : List (List Bool))
    (hans : (AgentWarrant.Oracle.ArgCoverClassChk.classChkAnswer fs a p.tools gs E listedS listed).getObjVal? "answer" =
      Except.ok (Lean.Json.str "covered"))
    (t : AgentWarrant.Monitor.Full.Tool) (d : AgentWarrant.Monitor.Full.EffDecl) (hway : AgentWarrant.Mem (t, d) (AgentWarrant.Revision.ArgCover.ways a p.tools))
    (cond : List AgentWarrant.Revision.ArgCover.SClause) (hcond : AgentWarrant.Revision.ArgCover.wayCond a p.tools gs E t d = some cond)
    (s : AgentWarrant.Monitor.Full.State) (c : AgentWarrant.Monitor.Full.Call) (t' : AgentWarrant.Monitor.Full.Tool) (es : List AgentWarrant.Monitor.Full.Effect)
    (hprep : AgentWarrant.Monitor.Full.prepare p s c = Except.ok (t', es)) (e : AgentWarrant.Monitor.Full.Effect) (he : AgentWarrant.Mem e es)
    (ha : e.action = a) (val : AgentWarrant.Revision.ArgCover.Src → AgentWarrant.Revision.ArgCover.AV)
    (hval : ∀ src, val (AgentWarrant.Revision.ArgCover.reSrc (AgentWarrant.Revision.ArgCover.wayRes d.res) src) = AgentWarrant.Revision.ArgCover.srcVal s c.args e src)
    (hadm : AgentWarrant.allB AgentWarrant.Revision.ArgCover.grantOk (AgentWarrant.Revision.ArgCover.ofAction a gs) = false → AgentWarrant.Revision.ArgCover.JsonPathsAdmitted a gs c.args)
    (hin : AgentWarrant.Revision.ArgCover.sCnfHolds val cond = true) (w : String → AgentWarrant.Revision.ArgCover.AV)
    (hw : ∀ g, AgentWarrant.Revision.ArgCover.slotOk (w g) = true ∧ AgentWarrant.Revision.ArgCover.factsOk (AgentWarrant.Revision.ArgCover.groupLits fs g) (w g) = true)
    (hapart : AgentWarrant.Revision.ArgCover.apartFree fs = false → ∀ x y, AgentWarrant.Mem (x, AgentWarrant.Revision.ArgCover.FPat.slot y, false) fs →
      w (AgentWarrant.Revision.ArgCover.grpOf fs x) ≠ w (AgentWarrant.Revision.ArgCover.grpOf fs y))
    (hclass : ∀ n, AgentWarrant.Monitor.Full.resMatches s e.res (AgentWarrant.Monitor.Full.Pat.slot n) = true → AgentWarrant.Revision.ArgCover.avOf e.res = w (AgentWarrant.Revision.ArgCover.grpOf fs n)) :
    AgentWarrant.anyB (fun u => decide (u = gs.map (fun g => AgentWarrant.Monitor.Full.grantMatches s c.args g e))) listed = true :=
  AgentWarrant.Revision.ArgCover.classChkOracleCover fs p a gs E listedS listed hans t d hway cond hcond s c t' es hprep e he ha
    val hval hadm hin w hw hapart hclass

/-- The converse of `bindingClassQuestionCovers` on the class's meaning: an `uncovered` answer on a binding
class's question that Lean writes (`Revision.ArgCover.classQ`, for one way `(t, d)` of action `a` with
condition `cond`) stands for a binding state of the class that the listed vectors miss. Its witness,
read at the question's sources (`Revision.ArgCover.convVal`), meets the way's condition; its match vector
over the positions of `gs` is not listed; and it is in the class (`Revision.ArgCover.classMeant`): there are
group values, each a valid slot value with its group's facts, and binding bits such that each slot the
positions name matches (its variable present, the resource a valid slot value) exactly when it is bound and
the resource equals its group's value. The vector not listed is that binding state's: the positions read a
slot only through its match bit, so with each slot's variable present exactly when it matches
(`Revision.ArgCover.convCanon`, as `srcVal` reads a slot on a call) and every other source unchanged, the
vector is the same and still not listed (`Revision.ArgCover.convPosCanon`). This is about values of the
question's sources, as `Revision.ArgCover.argUncoveredSound` is for a unit: no run reaching that state and
no call the monitor prepares on it are built. A class denying an equality between slots is not written by
`classQ`; for `classQA`, `bindingClassUncoveredIsBindingStateA`; for `classQR`,
`bindingClassUncoveredIsBindingStateR`; for `classQN` and `classQNR`, against the class without its denials,
`bindingClassUncoveredIsBindingStateN` and `bindingClassUncoveredIsBindingStateNR`. -/
theorem bindingClassUncoveredIsBindingState (fs : List AgentWarrant.Revision.ArgCover.Fact) (a : String)
    (tools : List AgentWarrant.Monitor.Full.Tool) (gs : List AgentWarrant.Monitor.Full.Grant) (E : Option (List Lean.Json))
    (t : AgentWarrant.Monitor.Full.Tool) (d : AgentWarrant.Monitor.Full.EffDecl) (listed : List (List Bool))
    (cond : List AgentWarrant.Revision.ArgCover.SClause) (Q : AgentWarrant.Revision.ArgCover.BuiltQC)
    (xs : List AgentWarrant.Revision.ArgCover.AV)
    (hcond : AgentWarrant.Revision.ArgCover.wayCond a tools gs E t d = some cond)
    (hq : AgentWarrant.Revision.ArgCover.classQ fs a tools gs E t d = some Q)
    (hunc : AgentWarrant.Revision.ArgCover.argCover (AgentWarrant.Oracle.ArgCover.good Q.cond Q.pos listed) Q.atoms =
      AgentWarrant.Revision.ArgCover.Answer.uncovered xs) :
    AgentWarrant.Revision.ArgCover.sCnfHolds (fun x => AgentWarrant.Revision.ArgCover.convVal Q.names xs
      (AgentWarrant.Revision.ArgCover.CSrc.src x)) cond = true ∧
    AgentWarrant.anyB (fun u => decide (u = (gs.map (AgentWarrant.Revision.ArgCover.posOf a
      (AgentWarrant.Revision.ArgCover.wayRes d.res) (AgentWarrant.Revision.ArgCover.actionKeys a
        (AgentWarrant.Revision.ArgCover.ownTools a tools) gs))).map
      (AgentWarrant.Revision.ArgCover.sPosBit (fun x => AgentWarrant.Revision.ArgCover.convVal Q.names xs
        (AgentWarrant.Revision.ArgCover.CSrc.src x))))) listed = false ∧
    AgentWarrant.Revision.ArgCover.classMeant fs (gs.map (AgentWarrant.Revision.ArgCover.posOf a
        (AgentWarrant.Revision.ArgCover.wayRes d.res) (AgentWarrant.Revision.ArgCover.actionKeys a
          (AgentWarrant.Revision.ArgCover.ownTools a tools) gs)))
      (AgentWarrant.Revision.ArgCover.convVal Q.names xs
        (AgentWarrant.Revision.ArgCover.CSrc.src (AgentWarrant.Revision.ArgCover.wayRes d.res)))
      (fun s => AgentWarrant.Revision.ArgCover.holds AgentWarrant.Revision.ArgCover.Lit.present
          (AgentWarrant.Revision.ArgCover.convVal Q.names xs
            (AgentWarrant.Revision.ArgCover.CSrc.src (AgentWarrant.Revision.ArgCover.Src.slot s))) &&
        AgentWarrant.Revision.ArgCover.slotOk (AgentWarrant.Revision.ArgCover.convVal Q.names xs
          (AgentWarrant.Revision.ArgCover.CSrc.src (AgentWarrant.Revision.ArgCover.wayRes d.res)))) ∧
    AgentWarrant.anyB (fun u => decide (u = (gs.map (AgentWarrant.Revision.ArgCover.posOf a
      (AgentWarrant.Revision.ArgCover.wayRes d.res) (AgentWarrant.Revision.ArgCover.actionKeys a
        (AgentWarrant.Revision.ArgCover.ownTools a tools) gs))).map
      (AgentWarrant.Revision.ArgCover.sPosBit (AgentWarrant.Revision.ArgCover.convCanon
        (fun x => AgentWarrant.Revision.ArgCover.convVal Q.names xs (AgentWarrant.Revision.ArgCover.CSrc.src x))
        (fun s => AgentWarrant.Revision.ArgCover.holds AgentWarrant.Revision.ArgCover.Lit.present
            (AgentWarrant.Revision.ArgCover.convVal Q.names xs
              (AgentWarrant.Revision.ArgCover.CSrc.src (AgentWarrant.Revision.ArgCover.Src.slot s))) &&
          AgentWarrant.Revision.ArgCover.slotOk (AgentWarrant.Revision.ArgCover.convVal Q.names xs
            (AgentWarrant.Revision.ArgCover.CSrc.src (AgentWarrant.Revision.ArgCover.wayRes d.res)))))))) listed = false :=
  AgentWarrant.Revision.ArgCover.classUncoveredMeant fs a tools gs E t d listed cond Q xs hcond hq hunc


/-- The oracle's `uncovered` answer on a binding class stands for a binding state of the class: when
`arg_cover_class` writes `Revision.ArgCover.classQ` (every entry of action `a` in `grantOk`, the class denying
no equality between slots) and its way-by-way decision answers `uncovered`, some way `(t, d)` of `a` has a
condition, a class question and an `uncovered` answer from `argCover` (`Revision.ArgCover.decideWaysCUncovered`,
`Revision.ArgCover.convSomesQC`), so `bindingClassUncoveredIsBindingState` describes its witness. The oracle's
decoding of its JSON input and the witness it prints are not part of the statement. -/
theorem oracleClassUncoveredIsBindingState (fs : List AgentWarrant.Revision.ArgCover.Fact) (a : String)
    (tools : List AgentWarrant.Monitor.Full.Tool) (gs : List AgentWarrant.Monitor.Full.Grant) (E : Option (List Lean.Json))
    (listedS : List String) (listed : List (List Bool))
    (hans : (AgentWarrant.Oracle.ArgCoverClass.decideWaysC listedS listed (AgentWarrant.Oracle.ArgCoverClass.somesQC
      ((AgentWarrant.Revision.ArgCover.ways a tools).map (fun w =>
        AgentWarrant.Revision.ArgCover.classQ fs a tools gs E w.1 w.2))) []).getObjVal? "answer" =
      Except.ok (Lean.Json.str "uncovered")) :
    ∃ t d cond Q xs, AgentWarrant.Mem (t, d) (AgentWarrant.Revision.ArgCover.ways a tools) ∧
      AgentWarrant.Revision.ArgCover.wayCond a tools gs E t d = some cond ∧
      AgentWarrant.Revision.ArgCover.classQ fs a tools gs E t d = some Q ∧
      AgentWarrant.Revision.ArgCover.argCover (AgentWarrant.Oracle.ArgCover.good Q.cond Q.pos listed) Q.atoms =
        AgentWarrant.Revision.ArgCover.Answer.uncovered xs :=
  AgentWarrant.Revision.ArgCover.oracleClassUncovered fs a tools gs E listedS listed hans

/-- `bindingClassUncoveredIsBindingState` for an action whose entries compare with array or object constants:
an `uncovered` answer on the class question Lean writes on `wayQA`'s positions (`Revision.ArgCover.classQA`,
for one way `(t, d)` of action `a` with condition `cond`, the entries of the action in `grantOkA`) stands for
a binding state of the class that the listed vectors miss. Its witness, read at the question's sources
(`Revision.ArgCover.convVal`), meets the way's condition; its match vector over `classQA`'s positions
(`Revision.ArgCover.posOfA`) is not listed; it is in the class (`Revision.ArgCover.classMeant`, the same
meaning as for `classQ`); and with each slot's variable present exactly when the slot matches
(`Revision.ArgCover.convCanon`) and every other source unchanged, the vector is the same and still not
listed (`Revision.ArgCover.convPosCanonA`). As for `classQ`, this is about values of the question's sources:
no run reaching that state and no call the monitor prepares on it are built. -/
theorem bindingClassUncoveredIsBindingStateA (fs : List AgentWarrant.Revision.ArgCover.Fact) (a : String)
    (tools : List AgentWarrant.Monitor.Full.Tool) (gs : List AgentWarrant.Monitor.Full.Grant) (E : Option (List Lean.Json))
    (t : AgentWarrant.Monitor.Full.Tool) (d : AgentWarrant.Monitor.Full.EffDecl) (listed : List (List Bool))
    (cond : List AgentWarrant.Revision.ArgCover.SClause) (Q : AgentWarrant.Revision.ArgCover.BuiltQC)
    (xs : List AgentWarrant.Revision.ArgCover.AV)
    (hcond : AgentWarrant.Revision.ArgCover.wayCond a tools gs E t d = some cond)
    (hq : AgentWarrant.Revision.ArgCover.classQA fs a tools gs E t d = some Q)
    (hfrag : ∀ g, g ∈ gs → g.action = a → AgentWarrant.Revision.ArgCover.grantOkA g = true)
    (hunc : AgentWarrant.Revision.ArgCover.argCover (AgentWarrant.Oracle.ArgCover.good Q.cond Q.pos listed) Q.atoms =
      AgentWarrant.Revision.ArgCover.Answer.uncovered xs) :
    AgentWarrant.Revision.ArgCover.sCnfHolds (fun x => AgentWarrant.Revision.ArgCover.convVal Q.names xs
      (AgentWarrant.Revision.ArgCover.CSrc.src x)) cond = true ∧
    AgentWarrant.anyB (fun u => decide (u = (gs.map (AgentWarrant.Revision.ArgCover.posOfA a
      (AgentWarrant.Revision.ArgCover.wayRes d.res) (AgentWarrant.Revision.ArgCover.actionKeys a
        (AgentWarrant.Revision.ArgCover.ownTools a tools) gs))).map
      (AgentWarrant.Revision.ArgCover.sPosBitA (fun x => AgentWarrant.Revision.ArgCover.convVal Q.names xs
        (AgentWarrant.Revision.ArgCover.CSrc.src x))))) listed = false ∧
    AgentWarrant.Revision.ArgCover.classMeant fs (gs.map (AgentWarrant.Revision.ArgCover.posOf a
        (AgentWarrant.Revision.ArgCover.wayRes d.res) (AgentWarrant.Revision.ArgCover.actionKeys a
          (AgentWarrant.Revision.ArgCover.ownTools a tools) gs)))
      (AgentWarrant.Revision.ArgCover.convVal Q.names xs
        (AgentWarrant.Revision.ArgCover.CSrc.src (AgentWarrant.Revision.ArgCover.wayRes d.res)))
      (fun s => AgentWarrant.Revision.ArgCover.holds AgentWarrant.Revision.ArgCover.Lit.present
          (AgentWarrant.Revision.ArgCover.convVal Q.names xs
            (AgentWarrant.Revision.ArgCover.CSrc.src (AgentWarrant.Revision.ArgCover.Src.slot s))) &&
        AgentWarrant.Revision.ArgCover.slotOk (AgentWarrant.Revision.ArgCover.convVal Q.names xs
          (AgentWarrant.Revision.ArgCover.CSrc.src (AgentWarrant.Revision.ArgCover.wayRes d.res)))) ∧
    AgentWarrant.anyB (fun u => decide (u = (gs.map (AgentWarrant.Revision.ArgCover.posOfA a
      (AgentWarrant.Revision.ArgCover.wayRes d.res) (AgentWarrant.Revision.ArgCover.actionKeys a
        (AgentWarrant.Revision.ArgCover.ownTools a tools) gs))).map
      (AgentWarrant.Revision.ArgCover.sPosBitA (AgentWarrant.Revision.ArgCover.convCanon
        (fun x => AgentWarrant.Revision.ArgCover.convVal Q.names xs (AgentWarrant.Revision.ArgCover.CSrc.src x))
        (fun s => AgentWarrant.Revision.ArgCover.holds AgentWarrant.Revision.ArgCover.Lit.present
            (AgentWarrant.Revision.ArgCover.convVal Q.names xs
              (AgentWarrant.Revision.ArgCover.CSrc.src (AgentWarrant.Revision.ArgCover.Src.slot s))) &&
          AgentWarrant.Revision.ArgCover.slotOk (AgentWarrant.Revision.ArgCover.convVal Q.names xs
            (AgentWarrant.Revision.ArgCover.CSrc.src (AgentWarrant.Revision.ArgCover.wayRes d.res)))))))) listed = false :=
  AgentWarrant.Revision.ArgCover.classUncoveredMeantA fs a tools gs E t d listed cond Q xs hcond hq hfrag hunc

/-- The oracle's `uncovered` answer on a binding class, whichever writer it used, stands for a binding state
of the class: `arg_cover_class` writes `Revision.ArgCover.classQ` when every entry of action `a` is in
`grantOk` and `Revision.ArgCover.classQA` otherwise (the class denying no equality between slots); on entries
in `grantOk` the two write the same question (`Revision.ArgCover.oracleClassWriterIsClassQA`), so when its
way-by-way decision answers `uncovered`, some way `(t, d)` of `a` has a condition, a `classQA` question and an
`uncovered` answer from `argCover` (`Revision.ArgCover.oracleClassUncoveredA`), and with the entries of the
action in `grantOkA` (every entry the oracle does not answer `outside` for) `bindingClassUncoveredIsBindingStateA`
describes its witness. The oracle's decoding of its JSON input and the witness it prints are not part of the
statement. -/
theorem oracleClassUncoveredIsBindingStateA (fs : List AgentWarrant.Revision.ArgCover.Fact) (a : String)
    (tools : List AgentWarrant.Monitor.Full.Tool) (gs : List AgentWarrant.Monitor.Full.Grant) (E : Option (List Lean.Json))
    (listedS : List String) (listed : List (List Bool))
    (hans : (AgentWarrant.Oracle.ArgCoverClass.decideWaysC listedS listed (AgentWarrant.Oracle.ArgCoverClass.somesQC
      ((AgentWarrant.Revision.ArgCover.ways a tools).map (fun w =>
        match AgentWarrant.allB AgentWarrant.Revision.ArgCover.grantOk (AgentWarrant.Revision.ArgCover.ofAction a gs) with
        | true => AgentWarrant.Revision.ArgCover.classQ fs a tools gs E w.1 w.2
        | false => AgentWarrant.Revision.ArgCover.classQA fs a tools gs E w.1 w.2))) []).getObjVal? "answer" =
      Except.ok (Lean.Json.str "uncovered")) :
    ∃ t d cond Q xs, AgentWarrant.Mem (t, d) (AgentWarrant.Revision.ArgCover.ways a tools) ∧
      AgentWarrant.Revision.ArgCover.wayCond a tools gs E t d = some cond ∧
      AgentWarrant.Revision.ArgCover.classQA fs a tools gs E t d = some Q ∧
      AgentWarrant.Revision.ArgCover.argCover (AgentWarrant.Oracle.ArgCover.good Q.cond Q.pos listed) Q.atoms =
        AgentWarrant.Revision.ArgCover.Answer.uncovered xs :=
  AgentWarrant.Revision.ArgCover.oracleClassUncoveredA fs a tools gs E listedS listed hans

/-- `bindingClassUncoveredIsBindingStateA` for an action with an entry whose resource pattern is an array or
object constant: an `uncovered` answer on the class question Lean writes on `wayQR`'s positions
(`Revision.ArgCover.classQR`, such an entry written as never matching, as the Python translation writes it;
for one way `(t, d)` of action `a` with condition `cond`, the entries of the action in `grantOkR`) stands for
a binding state of the class that the listed vectors miss. Its witness, read at the question's sources
(`Revision.ArgCover.convVal`), meets the way's condition; its match vector over `classQR`'s positions
(`Revision.ArgCover.posOfR`) is not listed; it is in the class (`Revision.ArgCover.classMeant`, the same
meaning as for `classQ`); and with each slot's variable present exactly when the slot matches
(`Revision.ArgCover.convCanon`) and every other source unchanged, the vector is the same and still not
listed (`Revision.ArgCover.convPosCanonR`: a never-matching entry reads no source). As for `classQ`, this is
about values of the question's sources: no run reaching that state and no call the monitor prepares on it
are built. -/
theorem bindingClassUncoveredIsBindingStateR (fs : List AgentWarrant.Revision.ArgCover.Fact) (a : String)
    (tools : List AgentWarrant.Monitor.Full.Tool) (gs : List AgentWarrant.Monitor.Full.Grant) (E : Option (List Lean.Json))
    (t : AgentWarrant.Monitor.Full.Tool) (d : AgentWarrant.Monitor.Full.EffDecl) (listed : List (List Bool))
    (cond : List AgentWarrant.Revision.ArgCover.SClause) (Q : AgentWarrant.Revision.ArgCover.BuiltQC)
    (xs : List AgentWarrant.Revision.ArgCover.AV)
    (hcond : AgentWarrant.Revision.ArgCover.wayCond a tools gs E t d = some cond)
    (hq : AgentWarrant.Revision.ArgCover.classQR fs a tools gs E t d = some Q)
    (hfrag : ∀ g, g ∈ gs → g.action = a → AgentWarrant.Revision.ArgCover.grantOkR g = true)
    (hunc : AgentWarrant.Revision.ArgCover.argCover (AgentWarrant.Oracle.ArgCover.good Q.cond Q.pos listed) Q.atoms =
      AgentWarrant.Revision.ArgCover.Answer.uncovered xs) :
    AgentWarrant.Revision.ArgCover.sCnfHolds (fun x => AgentWarrant.Revision.ArgCover.convVal Q.names xs
      (AgentWarrant.Revision.ArgCover.CSrc.src x)) cond = true ∧
    AgentWarrant.anyB (fun u => decide (u = (gs.map (AgentWarrant.Revision.ArgCover.posOfR a
      (AgentWarrant.Revision.ArgCover.wayRes d.res) (AgentWarrant.Revision.ArgCover.actionKeys a
        (AgentWarrant.Revision.ArgCover.ownTools a tools) gs))).map
      (AgentWarrant.Revision.ArgCover.sPosBitA (fun x => AgentWarrant.Revision.ArgCover.convVal Q.names xs
        (AgentWarrant.Revision.ArgCover.CSrc.src x))))) listed = false ∧
    AgentWarrant.Revision.ArgCover.classMeant fs (gs.map (AgentWarrant.Revision.ArgCover.posOf a
        (AgentWarrant.Revision.ArgCover.wayRes d.res) (AgentWarrant.Revision.ArgCover.actionKeys a
          (AgentWarrant.Revision.ArgCover.ownTools a tools) gs)))
      (AgentWarrant.Revision.ArgCover.convVal Q.names xs
        (AgentWarrant.Revision.ArgCover.CSrc.src (AgentWarrant.Revision.ArgCover.wayRes d.res)))
      (fun s => AgentWarrant.Revision.ArgCover.holds AgentWarrant.Revision.ArgCover.Lit.present
          (AgentWarrant.Revision.ArgCover.convVal Q.names xs
            (AgentWarrant.Revision.ArgCover.CSrc.src (AgentWarrant.Revision.ArgCover.Src.slot s))) &&
        AgentWarrant.Revision.ArgCover.slotOk (AgentWarrant.Revision.ArgCover.convVal Q.names xs
          (AgentWarrant.Revision.ArgCover.CSrc.src (AgentWarrant.Revision.ArgCover.wayRes d.res)))) ∧
    AgentWarrant.anyB (fun u => decide (u = (gs.map (AgentWarrant.Revision.ArgCover.posOfR a
      (AgentWarrant.Revision.ArgCover.wayRes d.res) (AgentWarrant.Revision.ArgCover.actionKeys a
        (AgentWarrant.Revision.ArgCover.ownTools a tools) gs))).map
      (AgentWarrant.Revision.ArgCover.sPosBitA (AgentWarrant.Revision.ArgCover.convCanon
        (fun x => AgentWarrant.Revision.ArgCover.convVal Q.names xs (AgentWarrant.Revision.ArgCover.CSrc.src x))
        (fun s => AgentWarrant.Revision.ArgCover.holds AgentWarrant.Revision.ArgCover.Lit.present
            (AgentWarrant.Revision.ArgCover.convVal Q.names xs
              (AgentWarrant.Revision.ArgCover.CSrc.src (AgentWarrant.Revision.ArgCover.Src.slot s))) &&
          AgentWarrant.Revision.ArgCover.slotOk (AgentWarrant.Revision.ArgCover.convVal Q.names xs
            (AgentWarrant.Revision.ArgCover.CSrc.src (AgentWarrant.Revision.ArgCover.wayRes d.res)))))))) listed = false :=
  AgentWarrant.Revision.ArgCover.classUncoveredMeantR fs a tools gs E t d listed cond Q xs hcond hq hfrag hunc

/-- The oracle's `uncovered` answer on a binding class denying no equality between slots, whichever of the
three exact writers it routed to, stands for a binding state of the class: when `arg_cover_class`'s routing
on its decoded inputs (`Oracle.ArgCoverClass.classAllOut`) answers `uncovered` and the class denies no
equality between slots (`apartFree`), the entries of action `a` are in `grantOkR` (else the answer is
`outside`) and some way `(t, d)` of `a` has a condition, a `classQR` question and an `uncovered` answer from
`argCover` (`Revision.ArgCover.classAllUncoveredR`): `classQR` writes `classQA`'s question on entries in
`grantOkA` (`Revision.ArgCover.classQRIsA`) and `classQA` writes `classQ`'s on entries in `grantOk`
(`Revision.ArgCover.classQSame`). So `bindingClassUncoveredIsBindingStateR` describes its witness. For a class
denying an equality (`classQN`, `classQNR`, the answer flagged `"exact": false`) nothing is claimed of
`uncovered`. The oracle's decoding of its JSON input and the witness it prints are not part of the
statement. -/
theorem oracleClassUncoveredIsBindingStateR (fs : List AgentWarrant.Revision.ArgCover.Fact) (a : String)
    (tools : List AgentWarrant.Monitor.Full.Tool) (gs : List AgentWarrant.Monitor.Full.Grant) (E : Option (List Lean.Json))
    (listedS : List String) (listed : List (List Bool))
    (hfree : AgentWarrant.Revision.ArgCover.apartFree fs = true)
    (hans : (AgentWarrant.Oracle.ArgCoverClass.classAllOut fs a tools gs E listedS listed).getObjVal? "answer" =
      Except.ok (Lean.Json.str "uncovered")) :
    (∀ g, g ∈ gs → g.action = a → AgentWarrant.Revision.ArgCover.grantOkR g = true) ∧
    ∃ t d cond Q xs, AgentWarrant.Mem (t, d) (AgentWarrant.Revision.ArgCover.ways a tools) ∧
      AgentWarrant.Revision.ArgCover.wayCond a tools gs E t d = some cond ∧
      AgentWarrant.Revision.ArgCover.classQR fs a tools gs E t d = some Q ∧
      AgentWarrant.Revision.ArgCover.argCover (AgentWarrant.Oracle.ArgCover.good Q.cond Q.pos listed) Q.atoms =
        AgentWarrant.Revision.ArgCover.Answer.uncovered xs :=
  AgentWarrant.Revision.ArgCover.classAllUncoveredR fs a tools gs E listedS listed hfree hans

/-- `bindingClassUncoveredIsBindingState` for a class denying an equality between slots, against the class
without its denials: an `uncovered` answer on the question Lean writes for such a class on entries in
`grantOk` (`Revision.ArgCover.classQN`: the class's clauses with the denied equalities' clauses appended, for
one way `(t, d)` of action `a` with condition `cond`) has a witness that, read at the question's sources,
meets the way's condition, has a match vector over the positions that is not listed (also with each slot's
variable present exactly when the slot matches), and is a binding state of the class with its denials
dropped (`Revision.ArgCover.classMeant` reads only the class's constant and glob facts and its asserted
equalities). That is the check the Python DRT makes of such a witness. Whether the witness's group values
differ where the class denies an equality is not claimed, which is why the oracle flags such an answer
`"exact": false`. As for `classQ`, no run and no prepared call are built. -/
theorem bindingClassUncoveredIsBindingStateN (fs : List AgentWarrant.Revision.ArgCover.Fact) (a : String)
    (tools : List AgentWarrant.Monitor.Full.Tool) (gs : List AgentWarrant.Monitor.Full.Grant) (E : Option (List Lean.Json))
    (t : AgentWarrant.Monitor.Full.Tool) (d : AgentWarrant.Monitor.Full.EffDecl) (listed : List (List Bool))
    (cond : List AgentWarrant.Revision.ArgCover.SClause) (Q : AgentWarrant.Revision.ArgCover.BuiltQC)
    (xs : List AgentWarrant.Revision.ArgCover.AV)
    (hcond : AgentWarrant.Revision.ArgCover.wayCond a tools gs E t d = some cond)
    (hq : AgentWarrant.Revision.ArgCover.classQN fs a tools gs E t d = some Q)
    (hunc : AgentWarrant.Revision.ArgCover.argCover (AgentWarrant.Oracle.ArgCover.good Q.cond Q.pos listed) Q.atoms =
      AgentWarrant.Revision.ArgCover.Answer.uncovered xs) :
    AgentWarrant.Revision.ArgCover.sCnfHolds (fun x => AgentWarrant.Revision.ArgCover.convVal Q.names xs
      (AgentWarrant.Revision.ArgCover.CSrc.src x)) cond = true ∧
    AgentWarrant.anyB (fun u => decide (u = (gs.map (AgentWarrant.Revision.ArgCover.posOf a
      (AgentWarrant.Revision.ArgCover.wayRes d.res) (AgentWarrant.Revision.ArgCover.actionKeys a
        (AgentWarrant.Revision.ArgCover.ownTools a tools) gs))).map
      (AgentWarrant.Revision.ArgCover.sPosBit (fun x => AgentWarrant.Revision.ArgCover.convVal Q.names xs
        (AgentWarrant.Revision.ArgCover.CSrc.src x))))) listed = false ∧
    AgentWarrant.Revision.ArgCover.classMeant fs (gs.map (AgentWarrant.Revision.ArgCover.posOf a
        (AgentWarrant.Revision.ArgCover.wayRes d.res) (AgentWarrant.Revision.ArgCover.actionKeys a
          (AgentWarrant.Revision.ArgCover.ownTools a tools) gs)))
      (AgentWarrant.Revision.ArgCover.convVal Q.names xs
        (AgentWarrant.Revision.ArgCover.CSrc.src (AgentWarrant.Revision.ArgCover.wayRes d.res)))
      (fun s => AgentWarrant.Revision.ArgCover.holds AgentWarrant.Revision.ArgCover.Lit.present
          (AgentWarrant.Revision.ArgCover.convVal Q.names xs
            (AgentWarrant.Revision.ArgCover.CSrc.src (AgentWarrant.Revision.ArgCover.Src.slot s))) &&
        AgentWarrant.Revision.ArgCover.slotOk (AgentWarrant.Revision.ArgCover.convVal Q.names xs
          (AgentWarrant.Revision.ArgCover.CSrc.src (AgentWarrant.Revision.ArgCover.wayRes d.res)))) ∧
    AgentWarrant.anyB (fun u => decide (u = (gs.map (AgentWarrant.Revision.ArgCover.posOf a
      (AgentWarrant.Revision.ArgCover.wayRes d.res) (AgentWarrant.Revision.ArgCover.actionKeys a
        (AgentWarrant.Revision.ArgCover.ownTools a tools) gs))).map
      (AgentWarrant.Revision.ArgCover.sPosBit (AgentWarrant.Revision.ArgCover.convCanon
        (fun x => AgentWarrant.Revision.ArgCover.convVal Q.names xs (AgentWarrant.Revision.ArgCover.CSrc.src x))
        (fun s => AgentWarrant.Revision.ArgCover.holds AgentWarrant.Revision.ArgCover.Lit.present
            (AgentWarrant.Revision.ArgCover.convVal Q.names xs
              (AgentWarrant.Revision.ArgCover.CSrc.src (AgentWarrant.Revision.ArgCover.Src.slot s))) &&
          AgentWarrant.Revision.ArgCover.slotOk (AgentWarrant.Revision.ArgCover.convVal Q.names xs
            (AgentWarrant.Revision.ArgCover.CSrc.src (AgentWarrant.Revision.ArgCover.wayRes d.res)))))))) listed = false :=
  AgentWarrant.Revision.ArgCover.classUncoveredMeantN fs a tools gs E t d listed cond Q xs hcond hq hunc

/-- `bindingClassUncoveredIsBindingStateN` for the question on `wayQR`'s positions
(`Revision.ArgCover.classQNR`: an entry of the action outside `grantOk`, the entries in `grantOkR`), against
the class without its denials, with `Revision.ArgCover.posOfR`'s positions (an array or object resource
constant's entry never matching). -/
theorem bindingClassUncoveredIsBindingStateNR (fs : List AgentWarrant.Revision.ArgCover.Fact) (a : String)
    (tools : List AgentWarrant.Monitor.Full.Tool) (gs : List AgentWarrant.Monitor.Full.Grant) (E : Option (List Lean.Json))
    (t : AgentWarrant.Monitor.Full.Tool) (d : AgentWarrant.Monitor.Full.EffDecl) (listed : List (List Bool))
    (cond : List AgentWarrant.Revision.ArgCover.SClause) (Q : AgentWarrant.Revision.ArgCover.BuiltQC)
    (xs : List AgentWarrant.Revision.ArgCover.AV)
    (hcond : AgentWarrant.Revision.ArgCover.wayCond a tools gs E t d = some cond)
    (hq : AgentWarrant.Revision.ArgCover.classQNR fs a tools gs E t d = some Q)
    (hfrag : ∀ g, g ∈ gs → g.action = a → AgentWarrant.Revision.ArgCover.grantOkR g = true)
    (hunc : AgentWarrant.Revision.ArgCover.argCover (AgentWarrant.Oracle.ArgCover.good Q.cond Q.pos listed) Q.atoms =
      AgentWarrant.Revision.ArgCover.Answer.uncovered xs) :
    AgentWarrant.Revision.ArgCover.sCnfHolds (fun x => AgentWarrant.Revision.ArgCover.convVal Q.names xs
      (AgentWarrant.Revision.ArgCover.CSrc.src x)) cond = true ∧
    AgentWarrant.anyB (fun u => decide (u = (gs.map (AgentWarrant.Revision.ArgCover.posOfR a
      (AgentWarrant.Revision.ArgCover.wayRes d.res) (AgentWarrant.Revision.ArgCover.actionKeys a
        (AgentWarrant.Revision.ArgCover.ownTools a tools) gs))).map
      (AgentWarrant.Revision.ArgCover.sPosBitA (fun x => AgentWarrant.Revision.ArgCover.convVal Q.names xs
        (AgentWarrant.Revision.ArgCover.CSrc.src x))))) listed = false ∧
    AgentWarrant.Revision.ArgCover.classMeant fs (gs.map (AgentWarrant.Revision.ArgCover.posOf a
        (AgentWarrant.Revision.ArgCover.wayRes d.res) (AgentWarrant.Revision.ArgCover.actionKeys a
          (AgentWarrant.Revision.ArgCover.ownTools a tools) gs)))
      (AgentWarrant.Revision.ArgCover.convVal Q.names xs
        (AgentWarrant.Revision.ArgCover.CSrc.src (AgentWarrant.Revision.ArgCover.wayRes d.res)))
      (fun s => AgentWarrant.Revision.ArgCover.holds AgentWarrant.Revision.ArgCover.Lit.present
          (AgentWarrant.Revision.ArgCover.convVal Q.names xs
            (AgentWarrant.Revision.ArgCover.CSrc.src (AgentWarrant.Revision.ArgCover.Src.slot s))) &&
        AgentWarrant.Revision.ArgCover.slotOk (AgentWarrant.Revision.ArgCover.convVal Q.names xs
          (AgentWarrant.Revision.ArgCover.CSrc.src (AgentWarrant.Revision.ArgCover.wayRes d.res)))) ∧
    AgentWarrant.anyB (fun u => decide (u = (gs.map (AgentWarrant.Revision.ArgCover.posOfR a
      (AgentWarrant.Revision.ArgCover.wayRes d.res) (AgentWarrant.Revision.ArgCover.actionKeys a
        (AgentWarrant.Revision.ArgCover.ownTools a tools) gs))).map
      (AgentWarrant.Revision.ArgCover.sPosBitA (AgentWarrant.Revision.ArgCover.convCanon
        (fun x => AgentWarrant.Revision.ArgCover.convVal Q.names xs (AgentWarrant.Revision.ArgCover.CSrc.src x))
        (fun s => AgentWarrant.Revision.ArgCover.holds AgentWarrant.Revision.ArgCover.Lit.present
            (AgentWarrant.Revision.ArgCover.convVal Q.names xs
              (AgentWarrant.Revision.ArgCover.CSrc.src (AgentWarrant.Revision.ArgCover.Src.slot s))) &&
          AgentWarrant.Revision.ArgCover.slotOk (AgentWarrant.Revision.ArgCover.convVal Q.names xs
            (AgentWarrant.Revision.ArgCover.CSrc.src (AgentWarrant.Revision.ArgCover.wayRes d.res)))))))) listed = false :=
  AgentWarrant.Revision.ArgCover.classUncoveredMeantNR fs a tools gs E t d listed cond Q xs hcond hq hfrag hunc

/-- The oracle's `uncovered` answer on a binding class denying an equality between slots (flagged
`"exact": false`) comes from one of its two writers for such a class: when `arg_cover_class`'s routing on its
decoded inputs (`Oracle.ArgCoverClass.classAllOut`) answers `uncovered` (the flag leaves the answer as it was,
`Revision.ArgCover.classAllExactKeepsAnswer`), either every entry of action `a` is in `grantOk` and some way's
`classQN` question has an `uncovered` answer from `argCover`, or the entries are in `grantOkR` and some way's
`classQNR` question has (`Revision.ArgCover.classAllUncoveredN`). So `bindingClassUncoveredIsBindingStateN` or
`bindingClassUncoveredIsBindingStateNR` describes its witness against the class without its denials. The
oracle's decoding of its JSON input and the witness it prints are not part of the statement. -/
theorem oracleClassUncoveredIsBindingStateN (fs : List AgentWarrant.Revision.ArgCover.Fact) (a : String)
    (tools : List AgentWarrant.Monitor.Full.Tool) (gs : List AgentWarrant.Monitor.Full.Grant) (E : Option (List Lean.Json))
    (listedS : List String) (listed : List (List Bool))
    (hden : AgentWarrant.Revision.ArgCover.apartFree fs = false)
    (hans : (AgentWarrant.Oracle.ArgCoverClass.classAllOut fs a tools gs E listedS listed).getObjVal? "answer" =
      Except.ok (Lean.Json.str "uncovered")) :
    (AgentWarrant.allB AgentWarrant.Revision.ArgCover.grantOk (AgentWarrant.Revision.ArgCover.ofAction a gs) = true ∧
      ∃ t d cond Q xs, AgentWarrant.Mem (t, d) (AgentWarrant.Revision.ArgCover.ways a tools) ∧
        AgentWarrant.Revision.ArgCover.wayCond a tools gs E t d = some cond ∧
        AgentWarrant.Revision.ArgCover.classQN fs a tools gs E t d = some Q ∧
        AgentWarrant.Revision.ArgCover.argCover (AgentWarrant.Oracle.ArgCover.good Q.cond Q.pos listed) Q.atoms =
          AgentWarrant.Revision.ArgCover.Answer.uncovered xs) ∨
    ((∀ g, g ∈ gs → g.action = a → AgentWarrant.Revision.ArgCover.grantOkR g = true) ∧
      ∃ t d cond Q xs, AgentWarrant.Mem (t, d) (AgentWarrant.Revision.ArgCover.ways a tools) ∧
        AgentWarrant.Revision.ArgCover.wayCond a tools gs E t d = some cond ∧
        AgentWarrant.Revision.ArgCover.classQNR fs a tools gs E t d = some Q ∧
        AgentWarrant.Revision.ArgCover.argCover (AgentWarrant.Oracle.ArgCover.good Q.cond Q.pos listed) Q.atoms =
          AgentWarrant.Revision.ArgCover.Answer.uncovered xs) :=
  AgentWarrant.Revision.ArgCover.classAllUncoveredN fs a tools gs E listedS listed hden hans

/-- What the tool-checked class oracle's `uncovered` says, with no hypothesis on the tools: `arg_cover_class`
first checks every effect of every tool it is given with registration's effect check and answers `invalid`
otherwise, so when its answer (`Oracle.ArgCoverClassChk.classChkAnswer`, the routed class answer
`classAllOut` after the check) is `uncovered`, every effect of every tool passes `effArgOk`
(`Revision.ArgCover.uncChkClass`), and the routed answer is `uncovered`: for a class denying no equality
between slots, the entries of action `a` are in `grantOkR` and some way's `classQR` question was answered
`uncovered` (`oracleClassUncoveredIsBindingStateR`), whose witness `bindingClassUncoveredIsBindingStateR`
shows a binding state of the class that the listed vectors miss; for a class denying one, some way's `classQN`
(entries in `grantOk`) or `classQNR` question was (`oracleClassUncoveredIsBindingStateN`), whose witness
`bindingClassUncoveredIsBindingStateN` or `bindingClassUncoveredIsBindingStateNR` shows a binding state of the
class without its denials only. No run reaching such a state and no call the monitor prepares on it are
built; the oracle's decoding of its JSON input (`Revision.ArgCover.classChkJOut`) and the witness it prints
are not part of the statement. -/
theorem oracleClassUncoveredToolChecked (fs : List AgentWarrant.Revision.ArgCover.Fact) (a : String)
    (tools : List AgentWarrant.Monitor.Full.Tool) (gs : List AgentWarrant.Monitor.Full.Grant) (E : Option (List Lean.Json))
    (listedS : List String) (listed : List (List Bool))
    (hans : (AgentWarrant.Oracle.ArgCoverClassChk.classChkAnswer fs a tools gs E listedS listed).getObjVal? "answer" =
      Except.ok (Lean.Json.str "uncovered")) :
    (∀ t, AgentWarrant.Mem t tools → ∀ d, AgentWarrant.Mem d t.effects → AgentWarrant.Monitor.Full.effArgOk t d = true) ∧
    (AgentWarrant.Revision.ArgCover.apartFree fs = true →
      (∀ g, g ∈ gs → g.action = a → AgentWarrant.Revision.ArgCover.grantOkR g = true) ∧
      ∃ t d cond Q xs, AgentWarrant.Mem (t, d) (AgentWarrant.Revision.ArgCover.ways a tools) ∧
        AgentWarrant.Revision.ArgCover.wayCond a tools gs E t d = some cond ∧
        AgentWarrant.Revision.ArgCover.classQR fs a tools gs E t d = some Q ∧
        AgentWarrant.Revision.ArgCover.argCover (AgentWarrant.Oracle.ArgCover.good Q.cond Q.pos listed) Q.atoms =
          AgentWarrant.Revision.ArgCover.Answer.uncovered xs) ∧
    (AgentWarrant.Revision.ArgCover.apartFree fs = false →
      (AgentWarrant.allB AgentWarrant.Revision.ArgCover.grantOk (AgentWarrant.Revision.ArgCover.ofAction a gs) = true ∧
        ∃ t d cond Q xs, AgentWarrant.Mem (t, d) (AgentWarrant.Revision.ArgCover.ways a tools) ∧
          AgentWarrant.Revision.ArgCover.wayCond a tools gs E t d = some cond ∧
          AgentWarrant.Revision.ArgCover.classQN fs a tools gs E t d = some Q ∧
          AgentWarrant.Revision.ArgCover.argCover (AgentWarrant.Oracle.ArgCover.good Q.cond Q.pos listed) Q.atoms =
            AgentWarrant.Revision.ArgCover.Answer.uncovered xs) ∨
      ((∀ g, g ∈ gs → g.action = a → AgentWarrant.Revision.ArgCover.grantOkR g = true) ∧
        ∃ t d cond Q xs, AgentWarrant.Mem (t, d) (AgentWarrant.Revision.ArgCover.ways a tools) ∧
          AgentWarrant.Revision.ArgCover.wayCond a tools gs E t d = some cond ∧
          AgentWarrant.Revision.ArgCover.classQNR fs a tools gs E t d = some Q ∧
          AgentWarrant.Revision.ArgCover.argCover (AgentWarrant.Oracle.ArgCover.good Q.cond Q.pos listed) Q.atoms =
            AgentWarrant.Revision.ArgCover.Answer.uncovered xs)) :=
  AgentWarrant.Revision.ArgCover.uncChkClass fs a tools gs E listedS listed hans

/-- What the tool-checked policy oracle's `uncovered` says (the counterpart of
`oracleCoverageIsMonitorMatchingToolChecked`), with no hypothesis on the tools or the entries: when
`arg_cover_policy`'s answer on its decoded input (`Oracle.ArgCoverToolChk.argCoverPolicyAnswer`) is
`uncovered`, every effect of every tool passes registration's effect check `effArgOk`, and some way `(t, d)` of
action `a` with condition `cond` has a valuation of its sources — the printed witness `xs`, variable `i`'s
value given to the question's `i`-th name in `names` — that meets the condition and whose match vector over
the entries `gs` is not listed: on `wayQ`'s positions (`posOf`) when every entry of `a` is in `grantOk`, else,
the entries in `grantOkR`, on `wayQR`'s (`posOfR`, an entry with an array or object resource constant never
matching) (`Revision.ArgCover.uncChkPolicy`, from `argUncoveredSound` through `buildQMeans` and
`buildQAMeans`). This is about values of the way's sources, as `Revision.ArgCover.argUncoveredSound` is for a
unit: no state holding those values, no run reaching it and no call the monitor prepares on it are built,
so the valuation is not shown to be the monitor's `grantMatches` on any call (a source such as a slot's
binding is any value here). The oracle's decoding of its JSON input is not part of the statement. -/
theorem oracleUncoveredIsUnlistedToolChecked (a : String) (tools : List AgentWarrant.Monitor.Full.Tool)
    (gs : List AgentWarrant.Monitor.Full.Grant) (E : Option (List Lean.Json)) (listedS : List String)
    (listed : List (List Bool))
    (hans : (AgentWarrant.Oracle.ArgCoverToolChk.argCoverPolicyAnswer a tools gs E listedS listed).getObjVal? "answer" =
      Except.ok (Lean.Json.str "uncovered")) :
    (∀ t, AgentWarrant.Mem t tools → ∀ d, AgentWarrant.Mem d t.effects → AgentWarrant.Monitor.Full.effArgOk t d = true) ∧
    ∃ (t : AgentWarrant.Monitor.Full.Tool) (d : AgentWarrant.Monitor.Full.EffDecl)
      (cond : List AgentWarrant.Revision.ArgCover.SClause) (names : List AgentWarrant.Revision.ArgCover.Src)
      (xs : List AgentWarrant.Revision.ArgCover.AV),
      AgentWarrant.Mem (t, d) (AgentWarrant.Revision.ArgCover.ways a tools) ∧
      AgentWarrant.Revision.ArgCover.wayCond a tools gs E t d = some cond ∧
      AgentWarrant.Revision.ArgCover.sCnfHolds (fun x => AgentWarrant.Revision.ArgCover.getV xs
        (AgentWarrant.Revision.ArgCover.idxOf x names)) cond = true ∧
      ((AgentWarrant.allB AgentWarrant.Revision.ArgCover.grantOk (AgentWarrant.Revision.ArgCover.ofAction a gs) = true ∧
        AgentWarrant.anyB (fun u => decide (u = (gs.map (AgentWarrant.Revision.ArgCover.posOf a
          (AgentWarrant.Revision.ArgCover.wayRes d.res) (AgentWarrant.Revision.ArgCover.actionKeys a
            (AgentWarrant.Revision.ArgCover.ownTools a tools) gs))).map
          (AgentWarrant.Revision.ArgCover.sPosBit (fun x => AgentWarrant.Revision.ArgCover.getV xs
            (AgentWarrant.Revision.ArgCover.idxOf x names))))) listed = false) ∨
      ((∀ g, g ∈ gs → g.action = a → AgentWarrant.Revision.ArgCover.grantOkR g = true) ∧
        AgentWarrant.anyB (fun u => decide (u = (gs.map (AgentWarrant.Revision.ArgCover.posOfR a
          (AgentWarrant.Revision.ArgCover.wayRes d.res) (AgentWarrant.Revision.ArgCover.actionKeys a
            (AgentWarrant.Revision.ArgCover.ownTools a tools) gs))).map
          (AgentWarrant.Revision.ArgCover.sPosBitA (fun x => AgentWarrant.Revision.ArgCover.getV xs
            (AgentWarrant.Revision.ArgCover.idxOf x names))))) listed = false)) :=
  AgentWarrant.Revision.ArgCover.uncChkPolicy a tools gs E listedS listed hans

-- Monitor: matching as deployed (Agenra Sections 1, 5.1, 5.2) ------------------------------------

/-- JSON equality as deployed decides the declarative `JEq` on every pair of values whose left one
nests less deep than `jsonFuel`, and not on every pair: the equivalence for all values is false of
`jeq` (a value nesting `jsonFuel` arrays deep is `JEq` to itself and `jeq` answers "unequal"). -/
theorem jsonEqualityExactBelowFuel :
    (∀ (n : Nat) (a b : Lean.Json), Full.Depth n a → n < Full.jsonFuel → (Full.jeq a b = true ↔ Full.JEq a b)) ∧
    ¬ (∀ (a b : Lean.Json), Full.jeq a b = true ↔ Full.JEq a b) :=
  ⟨fun _ _ b hd hn => Full.jeqIff hd hn b, Full.jeqNotTotal⟩

/-- On every input the oracle answers (its guard admitted it) and the policy decoded from its
`policy` member, the result step keeps exactly the resolvers with the record's tool and arguments
`JEq` to the record's (the filter of `stepLookups`), with no depth hypothesis left to the caller. -/
theorem resolversApplyingOnAdmitted {f : Lean.Json → Except String Lean.Json} {input out pj : Lean.Json}
    {p : Full.Policy} (hg : Oracle.guarded f input = Except.ok out) (hp : Oracle.req input "policy" = Except.ok pj)
    (h : Oracle.MonitorFull.policyOf pj = Except.ok p) (tool : String) (args : List (String × Lean.Json))
    (r : Full.Resolver) :
    r ∈ p.resolvers.filter (fun r => r.tool == tool && Full.jeq r.args (Full.argsJson args)) ↔
      (r ∈ p.resolvers ∧ r.tool = tool ∧ Full.JEq r.args (Full.argsJson args)) :=
  Full.jeqResolversApplying p.resolvers tool args (fun _ hr => Full.policyArgsWithin hg hp h hr) r

/-- Section 5.1 over the monitor's runs, on every input the oracle answers and the policy decoded from
its `policy` member, with the history built from the declaratively designated lookups (an admitted call
with a successful outcome designates one lookup per resolver with the call's tool and arguments `JEq`
to the call's, reading its result; `Full.RunDesignated`): every trace from the task's start designates
exactly the lookups the result step processes, and a slot of the final state is invalid exactly when
its history has a missing or malformed address or two addresses that are not equal JSON values;
otherwise it is bound to the first address and its lookup's ID, or unbound when none was designated. -/
theorem slotsOverDesignatedOnAdmitted {f : Lean.Json → Except String Lean.Json} {input out pj : Lean.Json}
    {p : Full.Policy} (hg : Oracle.guarded f input = Except.ok out) (hp : Oracle.req input "policy" = Except.ok pj)
    (h : Oracle.MonitorFull.policyOf pj = Except.ok p) (cs : List (Full.Call × Full.Outcome)) (σ : String) :
    (∀ L, Full.RunDesignated p (Full.initialState p) cs L ↔ L = Full.runLookups p (Full.initialState p) cs) ∧
    ∀ L, Full.RunDesignated p (Full.initialState p) cs L →
      (Full.slotView σ ((Full.runFull p (Full.initialState p) cs).2.bindings,
          (Full.runFull p (Full.initialState p) cs).2.invalid) = none ↔ Full.HistInvalid (Full.history σ L)) ∧
      (¬ Full.HistInvalid (Full.history σ L) →
        Full.slotView σ ((Full.runFull p (Full.initialState p) cs).2.bindings,
          (Full.runFull p (Full.initialState p) cs).2.invalid) = some (Full.firstAddr (Full.history σ L))) :=
  have hd : Full.ArgsWithin p := fun _ hr => Full.policyArgsWithin hg hp h hr
  ⟨Full.runLookupsDesignated p hd (Full.initialState p) cs, (Full.slotsOverDesignated p hd cs σ).2⟩

/-- Lean names an edit's new group and leaves itself: the names just above every name of the record's
tree and every reserved name `r` (`leanNames`; the runtime reserves its checkpoint IDs and registered
names, `reserved`) are fresh (A-D1: distinct, and used by no node), none of them in `r`, and with them
the tree change is defined whenever Table I's row applies to the tree, whatever names a caller would
have given. -/
theorem editNamesAreLeans (t : AgentWarrant.Edits.Machine.Tree) (r : List Nat) (e : AgentWarrant.Edits.Machine.TEdit) :
    AgentWarrant.Edits.Machine.freshIn t (AgentWarrant.Edits.Machine.leanNames t r e) = true ∧
    AgentWarrant.allB (fun x => !(AgentWarrant.Edits.memN x r))
      (AgentWarrant.Edits.Machine.freshNames (AgentWarrant.Edits.Machine.leanNames t r e)) = true ∧
    (∀ t', AgentWarrant.Edits.Machine.rowTree t e = some t' →
      ∃ t'', AgentWarrant.Edits.Machine.applyEdit t (AgentWarrant.Edits.Machine.leanNames t r e) = some t'') :=
  ⟨AgentWarrant.Edits.Machine.leanNamesFresh t r e, AgentWarrant.Edits.Machine.leanNamesAvoid t r e,
   fun _ h => AgentWarrant.Edits.Machine.leanNamesDefined r h⟩

/-- The ideal machine's trees with Lean's names: run with `treeDerN`, every step leaves the record's
tree, its `HStep`, or Lean's `applyEdit` of it for the change `Derive` names there with Lean's names
(`leanNames` above the tree's names and `reserved`), which are fresh for the tree (A-D1: distinct, and
used by no node) and none of them a reserved name; and an edit the ideal machine accepts leaves exactly
that tree for the change `Derive` names for that edit's own entry. -/
theorem idealEditTreesAreLeans (der : AgentWarrant.Edits.Machine.Core → Nat →
      Option (AgentWarrant.Edits.Machine.Derived × AgentWarrant.Edits.Machine.TEdit))
    (c : AgentWarrant.Edits.Machine.Core) :
    (∀ ev, let t' := (AgentWarrant.Edits.Machine.stepI (AgentWarrant.Edits.Machine.treeDerN der) c ev).2.tree
      t' = c.tree ∨ (∃ x, t' = AgentWarrant.Edits.Machine.hstep c.tree x) ∨
        (∃ u d e0, der c u = some (d, e0) ∧
          AgentWarrant.Edits.Machine.freshIn c.tree
            (AgentWarrant.Edits.Machine.leanNames c.tree (AgentWarrant.Edits.Machine.reserved c) e0) = true ∧
          AgentWarrant.allB (fun x => !(AgentWarrant.Edits.memN x (AgentWarrant.Edits.Machine.reserved c)))
            (AgentWarrant.Edits.Machine.freshNames
              (AgentWarrant.Edits.Machine.leanNames c.tree (AgentWarrant.Edits.Machine.reserved c) e0)) = true ∧
          AgentWarrant.Edits.Machine.applyEdit c.tree
            (AgentWarrant.Edits.Machine.leanNames c.tree (AgentWarrant.Edits.Machine.reserved c) e0) = some t')) ∧
    (∀ u, (AgentWarrant.Edits.Machine.stepI (AgentWarrant.Edits.Machine.treeDerN der) c
        (AgentWarrant.Edits.Machine.IEv.edit u)).1 = AgentWarrant.Edits.Machine.Obs.accepted →
      ∃ d e0, der c u = some (d, e0) ∧
        AgentWarrant.Edits.Machine.applyEdit c.tree
          (AgentWarrant.Edits.Machine.leanNames c.tree (AgentWarrant.Edits.Machine.reserved c) e0) =
          some (AgentWarrant.Edits.Machine.stepI (AgentWarrant.Edits.Machine.treeDerN der) c
            (AgentWarrant.Edits.Machine.IEv.edit u)).2.tree) :=
  ⟨fun ev => AgentWarrant.Edits.Machine.stepITreeN der c ev,
   fun u h => have ⟨d, e0, hd, _, _, ha⟩ := AgentWarrant.Edits.Machine.editITreeN der c u h; ⟨d, e0, hd, ha⟩⟩

/-- The runtime's trees from Lean's edit judgment alone (`derJT`): every committed step leaves the
record's tree, its `HStep`, or Lean's `applyEdit` of it, with Lean's fresh names, of the change Table I's
row makes on the branch or group the edit names, each new leaf's contract read from the record Lean's
judgment (`judgeA`) derives for that row; the table names only the request and the branch or group. -/
theorem editTreesFromLeansJudgment (src : AgentWarrant.Edits.Machine.Core → AgentWarrant.Edits.Tm × (Nat → Option AgentWarrant.Edits.Tm))
    (tab : Nat → Option (AgentWarrant.Edits.DeriveFork.EntryA × Nat))
    (S : AgentWarrant.Edits.Machine.RState) (ev : AgentWarrant.Edits.Machine.Ev) :
    let t' := (AgentWarrant.Edits.Machine.stepR (AgentWarrant.Edits.DeriveTreeJudged.derJT src tab) S ev).2.core.tree
    t' = S.core.tree ∨ (∃ y, t' = AgentWarrant.Edits.Machine.hstep S.core.tree y) ∨
      (∃ u e x D, tab u = some (e, x) ∧ AgentWarrant.Edits.DeriveFork.judgeA (src S.core).1 (src S.core).2 e.req = some D ∧
        AgentWarrant.Edits.Machine.applyEdit S.core.tree (AgentWarrant.Edits.Machine.leanNames S.core.tree
          (AgentWarrant.Edits.Machine.reserved S.core) (AgentWarrant.Edits.DeriveTreeJudged.judgedTEdit e.req D x)) = some t') :=
  AgentWarrant.Edits.DeriveTreeJudged.stepTreeJudged src tab S ev

/-- The new leaves' contracts are the row's: in the record Lean's judgment derives, a Fork's arms are
the copies `clone_L(𝒞) ; E_σ^L` and `clone_R(𝒞) ; E_σ^R` of the branch's region (the continuation steps
given, or the rule's templates instantiated with fresh calls), a Restore's `b_k` the copy `clone_k(𝒞_k)`
of the checkpoint's term, a Merge's `b_J` the rule's `E_J`. -/
theorem newLeafContractsAreTheRows (T : AgentWarrant.Edits.Tm) (K : Nat → Option AgentWarrant.Edits.Tm)
    (D : AgentWarrant.Edits.Derived) (x : Nat) :
    (∀ q, AgentWarrant.Edits.DeriveFork.judgeA T K (AgentWarrant.Edits.DeriveFork.AReq.fork q) = some D →
      ∃ par EL ER, AgentWarrant.Edits.DeriveTreeJudged.judgedTEdit (AgentWarrant.Edits.DeriveFork.AReq.fork q) D x =
        AgentWarrant.Edits.Machine.TEdit.fork par x 0 0 0
          (AgentWarrant.Edits.DeriveTreeJudged.poms (AgentWarrant.Edits.Tm.seq (T.clone AgentWarrant.Edits.DeriveCover.dblL) EL))
          (AgentWarrant.Edits.DeriveTreeJudged.poms (AgentWarrant.Edits.Tm.seq (T.clone AgentWarrant.Edits.DeriveCover.dblR) ER))) ∧
    (∀ k n, AgentWarrant.Edits.DeriveFork.judgeA T K
        (AgentWarrant.Edits.DeriveFork.AReq.base (AgentWarrant.Edits.DeriveCover.CReq.restoreReplace k n)) = some D →
      ∃ Ck, K k = some Ck ∧ AgentWarrant.Edits.DeriveTreeJudged.judgedTEdit
          (AgentWarrant.Edits.DeriveFork.AReq.base (AgentWarrant.Edits.DeriveCover.CReq.restoreReplace k n)) D x =
        AgentWarrant.Edits.Machine.TEdit.restore false x 0 0
          (AgentWarrant.Edits.DeriveTreeJudged.poms (Ck.clone (AgentWarrant.Edits.DeriveCover.shift n)))) ∧
    (∀ EJ, AgentWarrant.Edits.DeriveFork.judgeA T K
        (AgentWarrant.Edits.DeriveFork.AReq.base (AgentWarrant.Edits.DeriveCover.CReq.mergeJoin EJ)) = some D →
      AgentWarrant.Edits.DeriveTreeJudged.judgedTEdit
          (AgentWarrant.Edits.DeriveFork.AReq.base (AgentWarrant.Edits.DeriveCover.CReq.mergeJoin EJ)) D x =
        AgentWarrant.Edits.Machine.TEdit.join x 0 (AgentWarrant.Edits.DeriveTreeJudged.poms EJ)) :=
  ⟨fun _ h => AgentWarrant.Edits.DeriveTreeJudged.forkKContracts x h,
   fun k n => (AgentWarrant.Edits.DeriveTreeJudged.restoreContracts x k n).1,
   fun EJ => (AgentWarrant.Edits.DeriveTreeJudged.mergeContracts x EJ).2⟩

/-- Where the terms the judgment reads agree with the record's tree (`srcAgreesB`, decided by Lean:
the edited leaf's remaining contract `Γ_b/raw(χ_b)` by pomsets is the branch term's outcomes, and each
stored copy's is its checkpoint term's), the new leaves' contracts are the tree's own: a Fork's arms the
forked leaf's `Γ_b/raw(χ_b)` under the two copy renamings (followed by each arm's continuation steps,
when the rule has them), a Restore's `b_k` the stored copy's `Γ_k/raw(χ_k)` under the counter's
renaming. -/
theorem newLeafContractsAreTheTrees
    (src : AgentWarrant.Edits.Machine.Core → AgentWarrant.Edits.Tm × (Nat → Option AgentWarrant.Edits.Tm))
    (c : AgentWarrant.Edits.Machine.Core) (x : Nat) (D : AgentWarrant.Edits.Derived)
    (ha : AgentWarrant.Edits.DeriveTreeSrc.srcAgreesB src c x = true) :
    ∃ l, AgentWarrant.Edits.Machine.leafNamed c.tree x = some l ∧
      (∀ g, AgentWarrant.Edits.DeriveFork.judgeA (src c).1 (src c).2
          (AgentWarrant.Edits.DeriveFork.AReq.base (AgentWarrant.Edits.DeriveCover.CReq.forkChoice g)) = some D →
        AgentWarrant.Edits.DeriveTreeJudged.judgedTEdit
            (AgentWarrant.Edits.DeriveFork.AReq.base (AgentWarrant.Edits.DeriveCover.CReq.forkChoice g)) D x =
          AgentWarrant.Edits.Machine.TEdit.fork false x 0 0 0
            (List.map (AgentWarrant.Edits.renamePom AgentWarrant.Edits.DeriveCover.dblL)
              (AgentWarrant.Edits.DeriveTreeSrc.restPoms l.gamma l.done))
            (List.map (AgentWarrant.Edits.renamePom AgentWarrant.Edits.DeriveCover.dblR)
              (AgentWarrant.Edits.DeriveTreeSrc.restPoms l.gamma l.done))) ∧
      (∀ q, AgentWarrant.Edits.DeriveFork.judgeA (src c).1 (src c).2 (AgentWarrant.Edits.DeriveFork.AReq.fork q) = some D →
        ∃ par EL ER, AgentWarrant.Edits.DeriveTreeJudged.judgedTEdit (AgentWarrant.Edits.DeriveFork.AReq.fork q) D x =
          AgentWarrant.Edits.Machine.TEdit.fork par x 0 0 0
            (AgentWarrant.Edits.DeriveTreeSrc.prodPoms true
              (List.map (AgentWarrant.Edits.renamePom AgentWarrant.Edits.DeriveCover.dblL)
                (AgentWarrant.Edits.DeriveTreeSrc.restPoms l.gamma l.done)) (AgentWarrant.Edits.DeriveTreeJudged.poms EL))
            (AgentWarrant.Edits.DeriveTreeSrc.prodPoms true
              (List.map (AgentWarrant.Edits.renamePom AgentWarrant.Edits.DeriveCover.dblR)
                (AgentWarrant.Edits.DeriveTreeSrc.restPoms l.gamma l.done)) (AgentWarrant.Edits.DeriveTreeJudged.poms ER))) ∧
      (∀ s n, s ∈ c.saved → AgentWarrant.Edits.DeriveFork.judgeA (src c).1 (src c).2
          (AgentWarrant.Edits.DeriveFork.AReq.base (AgentWarrant.Edits.DeriveCover.CReq.restoreReplace s.id n)) = some D →
        AgentWarrant.Edits.DeriveTreeJudged.judgedTEdit
            (AgentWarrant.Edits.DeriveFork.AReq.base (AgentWarrant.Edits.DeriveCover.CReq.restoreReplace s.id n)) D x =
          AgentWarrant.Edits.Machine.TEdit.restore false x 0 0
            (List.map (AgentWarrant.Edits.renamePom (AgentWarrant.Edits.DeriveCover.shift n))
              (AgentWarrant.Edits.DeriveTreeSrc.restPoms s.gamma s.done))) := by
  have ⟨l, hl, hc, _⟩ := AgentWarrant.Edits.DeriveTreeSrc.forkArmsAreResidual (D := D) ha
  have ⟨l2, hl2, hk, _⟩ := AgentWarrant.Edits.DeriveTreeSrc.forkStepArmsAreResidual (D := D) ha
  have e : l = l2 := Option.some.inj (hl.symm.trans hl2)
  subst e
  refine ⟨l, hl, hc, hk, fun s n hs hj => ?_⟩
  exact (AgentWarrant.Edits.DeriveTreeSrc.restoreIsStored (n := n) ha hs rfl).1 hj

/-- The runtime's trees from Lean's edit judgment with Lean's own check of the terms it reads (`derJTC`):
every committed step leaves the record's tree, its `HStep`, or Lean's `applyEdit` of the judged change,
and a Fork's or Restore's change is made only where `srcAgreesB` finds the terms to be the tree's, so
its new leaves' contracts are the tree's own (`newLeafContractsAreTheTrees` with its hypothesis met). -/
theorem checkedEditTreesCopyTheTree
    (src : AgentWarrant.Edits.Machine.Core → AgentWarrant.Edits.Tm × (Nat → Option AgentWarrant.Edits.Tm))
    (tab : Nat → Option (AgentWarrant.Edits.DeriveFork.EntryA × Nat))
    (S : AgentWarrant.Edits.Machine.RState) (ev : AgentWarrant.Edits.Machine.Ev) :
    let t' := (AgentWarrant.Edits.Machine.stepR (AgentWarrant.Edits.DeriveTreeSrc.derJTC src tab) S ev).2.core.tree
    t' = S.core.tree ∨ (∃ y, t' = AgentWarrant.Edits.Machine.hstep S.core.tree y) ∨
      (∃ u e x D, tab u = some (e, x) ∧ AgentWarrant.Edits.DeriveFork.judgeA (src S.core).1 (src S.core).2 e.req = some D ∧
        (AgentWarrant.Edits.DeriveTreeSrc.readsLeaf e.req = true →
          AgentWarrant.Edits.DeriveTreeSrc.srcAgreesB src S.core x = true) ∧
        AgentWarrant.Edits.Machine.applyEdit S.core.tree (AgentWarrant.Edits.Machine.leanNames S.core.tree
          (AgentWarrant.Edits.Machine.reserved S.core) (AgentWarrant.Edits.DeriveTreeJudged.judgedTEdit e.req D x)) = some t') :=
  AgentWarrant.Edits.DeriveTreeSrc.stepTreeChecked src tab S ev

/-- The runtime and ideal oracles' machines (`derRunJ`): every step's tree, on the runtime and on the
ideal machine, is the record's, its `HStep`, `applyEdit` with Lean's names of the change `Derive` names
(an entry with no judged request), or `applyEdit` with Lean's names of the change Lean's judgment derives
for the entry's judged request, with its fresh calls named by the request's `out`, whose terms pass the
source check (`srcAgreesB`) where the row copies a source (Fork, Restore), and whose `out` Lean checks
one-to-one on the judged contracts' calls (`runJOutInjB`). -/
theorem runJudgedEditTreesCopyTheTree
    (der : AgentWarrant.Edits.Machine.Core → Nat → Option ((AgentWarrant.Edits.Machine.Derived ×
      AgentWarrant.Edits.Machine.TEdit) × Option AgentWarrant.Edits.DeriveTreeRunJ.RunJReq)) :
    (∀ (S : AgentWarrant.Edits.Machine.RState) (ev : AgentWarrant.Edits.Machine.Ev),
      AgentWarrant.Edits.DeriveTreeRunJ.RunJTree der S.core
        (AgentWarrant.Edits.Machine.stepR (AgentWarrant.Edits.DeriveTreeRunJ.derRunJ der) S ev).2.core.tree) ∧
    (∀ (c : AgentWarrant.Edits.Machine.Core) (ev : AgentWarrant.Edits.Machine.IEv),
      AgentWarrant.Edits.DeriveTreeRunJ.RunJTree der c
        (AgentWarrant.Edits.Machine.stepI (AgentWarrant.Edits.DeriveTreeRunJ.derRunJ der) c ev).2.tree) :=
  ⟨AgentWarrant.Edits.DeriveTreeRunJ.stepTreeRunJ der, AgentWarrant.Edits.DeriveTreeRunJ.stepITreeRunJ der⟩

/-- What a judged step of `derRunJ` installs when Lean's check of `out` holds (as `runJudgedEditTreesCopyTheTree`'s
judged case requires): the judged record's new contracts, each pomset renamed by `out`; `out` one-to-one on
their calls; so every renamed pomset is the judged one up to renaming (events and order reflected). -/
theorem runJudgedOutKeepsTheJudgedContracts {j : AgentWarrant.Edits.DeriveTreeRunJ.RunJReq}
    {D : AgentWarrant.Edits.Derived} {x : Nat}
    (hi : AgentWarrant.Edits.DeriveTreeRunJ.runJOutInjB j.out (AgentWarrant.Edits.DeriveTreeRunJ.runJCalls j D x) = true) :
    AgentWarrant.Edits.DeriveTreeJudged.newContracts (AgentWarrant.Edits.DeriveTreeRunJ.runJEdit j D x) =
      List.map (List.map (AgentWarrant.Edits.renamePom j.out))
        (AgentWarrant.Edits.DeriveTreeJudged.newContracts (AgentWarrant.Edits.DeriveTreeJudged.judgedTEdit j.req D x)) ∧
    (∀ a b, a ∈ AgentWarrant.Edits.DeriveTreeRunJ.runJCalls j D x → b ∈ AgentWarrant.Edits.DeriveTreeRunJ.runJCalls j D x →
      j.out a = j.out b → a = b) ∧
    ∀ g p, g ∈ AgentWarrant.Edits.DeriveTreeJudged.newContracts (AgentWarrant.Edits.DeriveTreeJudged.judgedTEdit j.req D x) →
      p ∈ g →
      (∀ a, a ∈ AgentWarrant.Edits.DeriveTreeRunJ.runJPomCalls p →
        (j.out a ∈ (AgentWarrant.Edits.renamePom j.out p).events ↔ a ∈ p.events)) ∧
      (∀ a b, a ∈ AgentWarrant.Edits.DeriveTreeRunJ.runJPomCalls p → b ∈ AgentWarrant.Edits.DeriveTreeRunJ.runJPomCalls p →
        ((j.out a, j.out b) ∈ (AgentWarrant.Edits.renamePom j.out p).order ↔ (a, b) ∈ p.order)) :=
  AgentWarrant.Edits.DeriveTreeRunJ.runJOutFaithful hi

/-- What a judged step of `derRunJ` installs when Lean's freshness check of `out` holds (as
`runJudgedEditTreesCopyTheTree`'s judged case requires): no call of a contract it installs is a call of a
leaf the change keeps (every leaf of the record's tree but the branch a Fork or RestoreReplace replaces),
so no call is named both by a new leaf and by a kept one, nor a call the record has processed (its whole
`χ`, the replaced branch's `χ_b` among them), so no processed call is back in the workflow: the two things
the Python runtime's record check requires of the derived contract's new calls; stored copies' calls are
not checked against. -/
theorem runJudgedOutFreshForTheRecord {j : AgentWarrant.Edits.DeriveTreeRunJ.RunJReq}
    {D : AgentWarrant.Edits.Derived} {x : Nat} {c : AgentWarrant.Edits.Machine.Core}
    (hf : AgentWarrant.Edits.DeriveTreeRunJ.runJOutFreshB j.out (AgentWarrant.Edits.DeriveTreeRunJ.runJCalls j D x)
      (AgentWarrant.Edits.DeriveTreeRunJ.runJStaleCalls c
        (AgentWarrant.Edits.DeriveTreeRunJ.runJFreshGone (AgentWarrant.Edits.DeriveTreeRunJ.runJEdit j D x))) = true) :
    ∀ g p z, g ∈ AgentWarrant.Edits.DeriveTreeJudged.newContracts (AgentWarrant.Edits.DeriveTreeRunJ.runJEdit j D x) →
      p ∈ g → z ∈ AgentWarrant.Edits.DeriveTreeRunJ.runJPomCalls p →
      ¬ z ∈ AgentWarrant.Edits.DeriveTreeRunJ.runJKeptCalls c.tree
        (AgentWarrant.Edits.DeriveTreeRunJ.runJFreshGone (AgentWarrant.Edits.DeriveTreeRunJ.runJEdit j D x)) ∧
      ¬ z ∈ AgentWarrant.Edits.DeriveTreeRunJ.runJProcCalls c :=
  AgentWarrant.Edits.DeriveTreeRunJ.runJOutFreshStale hf

/-- The edit tree's group arities hold of every reached tree, checked at the root: `aritiesB` decides
that every node has the children its kind gives it (two for a choice, parallel, join or sequence node,
none for a leaf); the root update the runtime and ideal oracles run (`startArity`) installs exactly the
roots the order and name checks accept (`startNamed`) whose tree has the arities; the registered root
is such a root; and every tree the runtime or the ideal machine reaches from such a root, after any
finite sequence of events, has the arities (`HStep` changes no kind or link, and every Table I row,
MergeSelect included, builds its groups with two children and keeps every other node's children). -/
theorem editTreeAritiesHold :
    (∀ t : AgentWarrant.Edits.Machine.Tree, AgentWarrant.Edits.Machine.aritiesB t = true ↔
      AgentWarrant.Edits.Machine.AritiesOk t) ∧
    (∀ (d : AgentWarrant.Edits.Machine.Derived) (S : AgentWarrant.Edits.Machine.RState),
      AgentWarrant.Edits.Machine.startArity d = some S ↔
        AgentWarrant.Edits.Machine.startNamed d = some S ∧ AgentWarrant.Edits.Machine.AritiesOk d.tree) ∧
    (∀ (W : AgentWarrant.Edits.Reg.Wf) (R : AgentWarrant.Edits.Reg.RegR) (n : Nat) (lab : List Nat)
      (dfa : AgentWarrant.Edits.Dfa) (calls names : List Nat) (eta : Nat) (S : AgentWarrant.Edits.Machine.RState),
      AgentWarrant.Edits.Reg.registerThenStart W R n lab dfa calls names eta = some S →
        AgentWarrant.Edits.Machine.startArity (AgentWarrant.Edits.Reg.rootDerived R n lab dfa calls names eta) =
          some S) ∧
    (∀ (tab : AgentWarrant.Edits.Machine.Core → Nat →
        Option (AgentWarrant.Edits.Machine.Derived × AgentWarrant.Edits.Machine.TEdit))
      (d : AgentWarrant.Edits.Machine.Derived) (S : AgentWarrant.Edits.Machine.RState),
      AgentWarrant.Edits.Machine.startArity d = some S →
      (∀ es : List AgentWarrant.Edits.Machine.Ev, AgentWarrant.Edits.Machine.AritiesOk
          (AgentWarrant.Edits.Machine.replay (AgentWarrant.Edits.Machine.treeDer tab) S es).core.tree) ∧
      (∀ es : List AgentWarrant.Edits.Machine.IEv, AgentWarrant.Edits.Machine.AritiesOk
          (AgentWarrant.Edits.Machine.replayIdeal (AgentWarrant.Edits.Machine.treeDer tab) S.core es).tree)) :=
  ⟨AgentWarrant.Edits.Machine.aritiesBIff, fun _ _ => AgentWarrant.Edits.Machine.startArityIff,
   fun _ _ _ _ _ _ _ _ _ h => AgentWarrant.Edits.Machine.registeredRootArity h,
   fun tab _ _ hs => AgentWarrant.Edits.Machine.arityReplayArities tab hs⟩

/-- `⟦T⟧` on the record's flat tree (`treeContract`) is built as the paper's: a leaf's contract, by its
outcomes' calls, is the runtime's residual `Γ_b / raw(χ_b)`; a choice's contract is the union of its
enabled arms' (only the selected arm once one is selected); a parallel group's or join barrier's is the
product of its parts'; a sequence's the ordered product. -/
theorem treeContractIsStructural :
    (∀ l, List.map AgentWarrant.Edits.Pomset.events (AgentWarrant.Edits.Machine.tcLeaf l) = AgentWarrant.Edits.Machine.restOuts l) ∧
    (∀ t j f n, AgentWarrant.Edits.Machine.nodeAt t j = some n → n.kind = 1 →
      AgentWarrant.Edits.Machine.tcAt (f + 1) t j =
        AgentWarrant.Edits.concatL ((AgentWarrant.Edits.Machine.tcKids t j n).map (AgentWarrant.Edits.Machine.tcAt f t))) ∧
    (∀ t j f n, AgentWarrant.Edits.Machine.nodeAt t j = some n → (n.kind = 2 ∨ n.kind = 3) →
      AgentWarrant.Edits.Machine.tcAt (f + 1) t j = AgentWarrant.Edits.Machine.tcFold false
        [AgentWarrant.Edits.Machine.tcEmpty] ((AgentWarrant.Edits.Machine.tcKids t j n).map (AgentWarrant.Edits.Machine.tcAt f t))) ∧
    (∀ t j f n, AgentWarrant.Edits.Machine.nodeAt t j = some n → n.kind = 4 →
      AgentWarrant.Edits.Machine.tcAt (f + 1) t j = AgentWarrant.Edits.Machine.tcFold true
        [AgentWarrant.Edits.Machine.tcEmpty] ((AgentWarrant.Edits.Machine.tcKids t j n).map (AgentWarrant.Edits.Machine.tcAt f t))) :=
  ⟨AgentWarrant.Edits.Machine.tcLeafEvents,
   fun _ _ _ _ h hk => AgentWarrant.Edits.Machine.tcAtChoice h hk,
   fun _ _ _ _ h hk => match hk with
     | Or.inl h2 => AgentWarrant.Edits.Machine.tcAtPar h h2
     | Or.inr h3 => AgentWarrant.Edits.Machine.tcAtJoin h h3,
   fun _ _ _ _ h hk => AgentWarrant.Edits.Machine.tcAtSeq h hk⟩

/-- The calls of `⟦T⟧` are the leaves' remaining calls: every call of every outcome of the contract of
the record's flat tree (`treeContract`) is a call of the remaining contract `Γ_b / raw(χ_b)`
(`restCalls`) of one of the tree's leaves. -/
theorem treeContractCallsAreLeaves {t : AgentWarrant.Edits.Machine.Tree} {p : AgentWarrant.Edits.Pomset} {x : Nat}
    (h : p ∈ AgentWarrant.Edits.Machine.treeContract t) (hx : x ∈ p.events) :
    ∃ l, l ∈ t ∧ l.kind = 0 ∧ x ∈ AgentWarrant.Edits.Machine.restCalls l :=
  AgentWarrant.Edits.Machine.treeContractCalls h hx

/-- The installed instance's outcomes are `⟦T'⟧`: on `Derive` guarded by `instOutcomesAgreeB`
(`tciGuard`, what the runtime and ideal oracles run), a rule update the durable runtime commits and an
edit the ideal machine accepts install an instance whose outcomes are, as multisets of pomsets up to the
transitive closure of the order, the contract `⟦T'⟧` (`treeContract`) of the tree they install. -/
theorem installedInstanceIsTreeContract {D : AgentWarrant.Edits.Machine.Derivation} :
    (∀ {St St' : AgentWarrant.Edits.Machine.Store} {u e : Nat} {y : AgentWarrant.Edits.Machine.Answer},
      AgentWarrant.Edits.Machine.commit (AgentWarrant.Edits.Machine.tciGuard D) St
        (AgentWarrant.Edits.Machine.Ev.update u y) = (AgentWarrant.Edits.Machine.Obs.updated e, St') →
      AgentWarrant.Edits.Machine.instOutcomesAgreeB St'.committed.core.inst St'.committed.core.tree = true) ∧
    (∀ {c c' : AgentWarrant.Edits.Machine.Core} {u : Nat},
      AgentWarrant.Edits.Machine.stepI (AgentWarrant.Edits.Machine.tciGuard D) c
        (AgentWarrant.Edits.Machine.IEv.edit u) = (AgentWarrant.Edits.Machine.Obs.accepted, c') →
      AgentWarrant.Edits.Machine.instOutcomesAgreeB c'.inst c'.tree = true) :=
  ⟨fun h => AgentWarrant.Edits.Machine.tciCommitAgrees h, fun h => AgentWarrant.Edits.Machine.tciStepIAgrees h⟩

/-- Extension installs too: on the machines the runtime and ideal oracles run (`tciCommit`, `tciStepI`:
`Derive` guarded by `tciGuard`, and a registered extension `Extend(ξ)` refused, nothing installed, unless
the instance it computes, `extInst`, has as outcomes `⟦T⟧` of the record's tree, `tciExtOk`), a rule
update and an extension that the durable runtime commits, and an edit the ideal machine accepts and an
extension it installs, leave an instance whose outcomes are `⟦T⟧` of the installed tree. That the guard
never refuses an extension after an install it covers (`Θ/z` of `⟦T⟧` is `⟦T⟧` after the calls `z`) is
not proved. -/
theorem installedInstanceIsTreeContractExt {D : AgentWarrant.Edits.Machine.Derivation} :
    (∀ {St St' : AgentWarrant.Edits.Machine.Store} {u e : Nat} {y : AgentWarrant.Edits.Machine.Answer},
      AgentWarrant.Edits.Machine.tciCommit D St (AgentWarrant.Edits.Machine.Ev.update u y) =
        (AgentWarrant.Edits.Machine.Obs.updated e, St') →
      AgentWarrant.Edits.Machine.instOutcomesAgreeB St'.committed.core.inst St'.committed.core.tree = true) ∧
    (∀ {St St' : AgentWarrant.Edits.Machine.Store} {dfa : AgentWarrant.Edits.Dfa} {en e : Nat} {ok : Bool},
      AgentWarrant.Edits.Machine.tciCommit D St (AgentWarrant.Edits.Machine.Ev.extend dfa en ok) =
        (AgentWarrant.Edits.Machine.Obs.updated e, St') →
      AgentWarrant.Edits.Machine.instOutcomesAgreeB St'.committed.core.inst St'.committed.core.tree = true) ∧
    (∀ {c c' : AgentWarrant.Edits.Machine.Core} {u : Nat},
      AgentWarrant.Edits.Machine.tciStepI D c (AgentWarrant.Edits.Machine.IEv.edit u) =
        (AgentWarrant.Edits.Machine.Obs.accepted, c') →
      AgentWarrant.Edits.Machine.instOutcomesAgreeB c'.inst c'.tree = true) ∧
    (∀ {c c' : AgentWarrant.Edits.Machine.Core} {dfa : AgentWarrant.Edits.Dfa} {en e : Nat} {ok : Bool},
      AgentWarrant.Edits.Machine.tciStepI D c (AgentWarrant.Edits.Machine.IEv.extend dfa en ok) =
        (AgentWarrant.Edits.Machine.Obs.updated e, c') →
      AgentWarrant.Edits.Machine.instOutcomesAgreeB c'.inst c'.tree = true) :=
  ⟨fun h => AgentWarrant.Edits.Machine.tciCommitUpdateAgrees h, fun h => AgentWarrant.Edits.Machine.tciCommitExtAgrees h,
   fun h => AgentWarrant.Edits.Machine.tciStepIEditAgrees h, fun h => AgentWarrant.Edits.Machine.tciStepIExtAgrees h⟩

/-- The root too: a run of the machines the runtime and ideal oracles run (`tciCommit`, `tciStepI`) from a
root the oracles start from (`startArity`) whose instance's outcomes are `⟦T⟧` of its tree (`tciRootOk`,
the oracles' `"rootContract"`) installs, at the root and at every rule update, extension and edit that
commits, an instance whose outcomes are `⟦T⟧` of the installed tree. The steps between installs (tool
calls, Checkpoint, ...) change the tree's done sets and are not covered; that the guard never refuses an
extension after an install it covers is not proved. -/
theorem installedInstanceIsTreeContractRoot {D : AgentWarrant.Edits.Machine.Derivation} :
    (∀ {d : AgentWarrant.Edits.Machine.Derived} {S0 : AgentWarrant.Edits.Machine.RState},
      AgentWarrant.Edits.Machine.startArity d = some S0 → AgentWarrant.Edits.Machine.tciRootOk d = true →
      AgentWarrant.Edits.Machine.instOutcomesAgreeB S0.core.inst S0.core.tree = true) ∧
    (∀ {St St' : AgentWarrant.Edits.Machine.Store} {u e : Nat} {y : AgentWarrant.Edits.Machine.Answer},
      AgentWarrant.Edits.Machine.tciCommit D St (AgentWarrant.Edits.Machine.Ev.update u y) =
        (AgentWarrant.Edits.Machine.Obs.updated e, St') →
      AgentWarrant.Edits.Machine.instOutcomesAgreeB St'.committed.core.inst St'.committed.core.tree = true) ∧
    (∀ {St St' : AgentWarrant.Edits.Machine.Store} {dfa : AgentWarrant.Edits.Dfa} {en e : Nat} {ok : Bool},
      AgentWarrant.Edits.Machine.tciCommit D St (AgentWarrant.Edits.Machine.Ev.extend dfa en ok) =
        (AgentWarrant.Edits.Machine.Obs.updated e, St') →
      AgentWarrant.Edits.Machine.instOutcomesAgreeB St'.committed.core.inst St'.committed.core.tree = true) ∧
    (∀ {c c' : AgentWarrant.Edits.Machine.Core} {u : Nat},
      AgentWarrant.Edits.Machine.tciStepI D c (AgentWarrant.Edits.Machine.IEv.edit u) =
        (AgentWarrant.Edits.Machine.Obs.accepted, c') →
      AgentWarrant.Edits.Machine.instOutcomesAgreeB c'.inst c'.tree = true) ∧
    (∀ {c c' : AgentWarrant.Edits.Machine.Core} {dfa : AgentWarrant.Edits.Dfa} {en e : Nat} {ok : Bool},
      AgentWarrant.Edits.Machine.tciStepI D c (AgentWarrant.Edits.Machine.IEv.extend dfa en ok) =
        (AgentWarrant.Edits.Machine.Obs.updated e, c') →
      AgentWarrant.Edits.Machine.instOutcomesAgreeB c'.inst c'.tree = true) :=
  ⟨fun h hr => AgentWarrant.Edits.Machine.tciRootInstalls h hr, installedInstanceIsTreeContractExt⟩

end AgentWarrant.Thm
