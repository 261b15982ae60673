import AgentWarrant.Spec.Edits.RegisteredRoot
import AgentWarrant.Thm.Edits.RegisteredRoot
import AgentWarrant.Thm.Edits.DeriveTreeRoot
import AgentWarrant.Thm.Edits.DeriveTreeJudged
import AgentWarrant.Thm.Edits.CostFamily
/-! The registered root carries the root branch (*When Can Agents Safely Checkpoint, Fork, Restore, and
Merge?*, Appendix A-G: `S_∅ → Reg(ℛ, n) → S_ℛ`, whose tree is the root branch `b₀:Γ`; Section VII's
Checkpoint on it). The tree `rootDerived` builds (`Spec/Edits/RegisteredRoot.lean`) is one leaf:
- its name is fresh, above every registered name (`rootNameFresh`), and it passes the root update's
  order check (`rootTreeOrder`), so the registered root is a checked root (`registeredRootChecked`,
  `Thm/Edits/DeriveTreeRoot.lean`) and every tree reached from it is covered by the reached-tree results
  (`registeredReachedChecked`);
- the state reached holds that tree, the registered names with the branch's, no checkpoint and the
  rules of `η⁺` (`registeredState`);
- its leaf holds the registered outcomes' pomsets and no progress, so its remaining contract is every
  registered outcome with all its calls (`rootLeafRest`);
- the leaf is current, both by the executable walk and in the declarative `addr(T)` (`rootLeafCurrent`,
  `rootLeafAddr`), so `Checkpoint(k, b₀)` is accepted at the reached state for every `k` that is neither a
  registered name nor `b₀` (`registeredCheckpoint`), and it stores that leaf: the registered outcomes, no
  progress, the whole registered contract remaining (`registeredLeafNamed`, `registeredCheckpointStores`). -/
namespace AgentWarrant.Edits.Reg
open AgentWarrant AgentWarrant.Edits AgentWarrant.Edits.Machine

theorem rootNameFresh (names : List Nat) : memN (rootName names) names = false :=
  (memNFalseIff _ names).2 (fun h => Nat.notSuccLeSelf (maxName names) (maxNameGe names _ h))

theorem rootTreeOrder (R : RegR) (names : List Nat) : rootOrderB [rootLeaf R names] = true := rfl

theorem rootTreeParentsBefore (R : RegR) (names : List Nat) : ParentsBefore [rootLeaf R names] :=
  ((rootOrderBIff _).1 (rootTreeOrder R names)).1

theorem rootLeafFound (R : RegR) (names : List Nat) : findLeaf (rootName names) 1 [rootLeaf R names] = some 1 :=
  findLeafHit _ 1 _ [] (by
    show (Nat.beq 0 0 && Nat.beq (rootName names) (rootName names)) = true
    rw [natBeqSelf (rootName names)]; rfl)

theorem rootLeafAddr (R : RegR) (names : List Nat) : Addr [rootLeaf R names] 1 := Addr.root rfl rfl

theorem rootLeafCurrent (R : RegR) (names : List Nat) : currentB [rootLeaf R names] (rootName names) = true :=
  (currentBIffAddr (rootTreeParentsBefore R names) _).2 ⟨1, rootLeafFound R names, rootLeafAddr R names⟩

theorem allBNil (p : α → Bool) (hp : ∀ x, p x = true) : ∀ (l : List α), allB p l = true
  | [] => rfl
  | a :: l => by
    show (match p a with | true => allB p l | false => false) = true
    rw [hp a]
    exact allBNil p hp l

/-- No progress is a prefix of a linearization of every pomset. -/
theorem compatNone (p : Pomset) : compatP [] p = true :=
  allBNil (fun e : Nat × Nat => !memN e.2 [] || memN e.1 []) (fun _ => rfl) p.order

theorem residualNone : ∀ (gs : List Pomset), residualOf gs [] = gs.map Pomset.events
  | [] => rfl
  | g :: gs => by
    have e : residualOf (g :: gs) [] = filt (fun e => !memN e []) g.events :: residualOf gs [] := by
      show List.map _ (match compatP [] g with | true => g :: filt (compatP []) gs | false => filt (compatP []) gs) = _
      rw [compatNone]
      rfl
    rw [e, residualNone gs, filtAllTrue (p := fun e => !memN e []) (fun _ _ => rfl)]
    rfl

/-- The root branch's remaining contract is the whole registered contract: every registered outcome,
with all its calls. -/
theorem rootLeafRest (R : RegR) (names : List Nat) :
    restOuts (rootLeaf R names) = (R.outs.map POutcome.pom).map Pomset.events :=
  residualNone _

/-- The checked root update the registration runs accepts. -/
theorem registeredStart {W : Wf} {R : RegR} {n : Nat} {lab : List Nat} {dfa : Dfa} {calls names : List Nat}
    {eta : Nat} {S : RState} (h : registerThenStart W R n lab dfa calls names eta = some S) :
    start (rootDerived R n lab dfa calls names eta) = some S :=
  (startCheckedIff.1 (registeredRootChecked h)).1

/-- The state the registered root reaches: the root branch's tree, the registered names and the branch's,
no checkpoint and nothing stored, the rules of `η⁺` in force. -/
theorem registeredState {W : Wf} {R : RegR} {n : Nat} {lab : List Nat} {dfa : Dfa} {calls names : List Nat}
    {eta : Nat} {S : RState} (h : registerThenStart W R n lab dfa calls names eta = some S) :
    S.core.tree = [rootLeaf R names] ∧ S.core.names = names ++ [rootName names] ∧ S.core.ckpts = [] ∧
      S.core.saved = [] ∧ S.core.eta = some eta := by
  have h' := registeredStart h
  simp only [start] at h'
  cases e : safeSet (build (rootDerived R n lab dfa calls names eta).inst) with
  | nil => rw [e] at h'; exact Option.noConfusion h'
  | cons a l =>
    rw [e] at h'
    have e' := Option.some.inj h'
    subst e'
    exact ⟨rfl, rfl, rfl, rfl, rfl⟩

/-- Every tree a runtime run reaches from the registered root, after any finite sequence of events, is
reached from a checked root, so the currency and Exact Checkpoint results stated from checked roots apply. -/
theorem registeredReachedChecked {W : Wf} {R : RegR} {n : Nat} {lab : List Nat} {dfa : Dfa}
    {calls names : List Nat} {eta : Nat} {S : RState} (h : registerThenStart W R n lab dfa calls names eta = some S)
    (tab : Core → Nat → Option (Machine.Derived × TEdit)) (es : List Ev) :
    ReachedChecked tab (replay (treeDer tab) S es).core.tree :=
  ⟨_, S, es, registeredRootChecked h, rfl⟩

/-- The branch a Checkpoint of `b₀` stores at the reached state is the root leaf. -/
theorem registeredLeafNamed {W : Wf} {R : RegR} {n : Nat} {lab : List Nat} {dfa : Dfa} {calls names : List Nat}
    {eta : Nat} {S : RState} (h : registerThenStart W R n lab dfa calls names eta = some S) :
    leafNamed S.core.tree (rootName names) = some (rootLeaf R names) := by
  rw [(registeredState h).1]
  show (match findLeaf (rootName names) 1 [rootLeaf R names] with
    | some j => nodeAt [rootLeaf R names] j
    | none => none) = _
  rw [rootLeafFound]
  rfl

/-- At the reached state, `Checkpoint(k, b₀)` is accepted for every `k` that is neither a registered name
nor `b₀`. -/
theorem registeredCheckpoint {W : Wf} {R : RegR} {n : Nat} {lab : List Nat} {dfa : Dfa} {calls names : List Nat}
    {eta : Nat} {S : RState} (h : registerThenStart W R n lab dfa calls names eta = some S) (k : Nat)
    (hk : memB k names = false) (hb : k ≠ rootName names) :
    (checkpoint S.core k (rootName names)).1 = Obs.saved k := by
  have ⟨ht, hn, hc, _, he⟩ := registeredState h
  have hwf : ParentsBefore S.core.tree := by rw [ht]; exact rootTreeParentsBefore R names
  have hr : memB k [rootName names] = false := by
    cases hx : Nat.beq (rootName names) k with
    | true => exact absurd (Nat.eqOfBeqEqTrue hx).symm hb
    | false =>
      show (match Nat.beq (rootName names) k with
        | true => true
        | false => anyB (fun y => Nat.beq y k) []) = false
      rw [hx]
      rfl
  apply (checkpointExactAddr hwf k (rootName names)).2
  refine ⟨?_, ?_, ?_, 1, ?_, ?_⟩
  · rw [he]; exact fun e => Option.noConfusion e
  · rw [hn, memBAppend, hk, hr]; rfl
  · rw [hc]; rfl
  · rw [ht]; exact rootLeafFound R names
  · rw [ht]; exact rootLeafAddr R names

/-- What that Checkpoint stores: the root branch with the registered outcomes' pomsets, no progress and,
as its remaining contract, every registered outcome with all its calls. -/
theorem registeredCheckpointStores {W : Wf} {R : RegR} {n : Nat} {lab : List Nat} {dfa : Dfa}
    {calls names : List Nat} {eta : Nat} {S : RState} (h : registerThenStart W R n lab dfa calls names eta = some S)
    (k : Nat) (hk : memB k names = false) (hb : k ≠ rootName names) :
    (checkpoint S.core k (rootName names)).2.saved =
      [⟨k, rootName names, R.outs.map POutcome.pom, [], (R.outs.map POutcome.pom).map Pomset.events⟩] := by
  have ⟨l, hl, _, hs, _⟩ := checkpointLeaf S.core k (rootName names) (registeredCheckpoint h k hk hb)
  rw [registeredLeafNamed h] at hl
  have e := Option.some.inj hl
  subst e
  rw [hs, (registeredState h).2.2.2.1]
  show [(⟨k, rootName names, R.outs.map POutcome.pom, [], restOuts (rootLeaf R names)⟩ : Saved)] = _
  rw [rootLeafRest]

end AgentWarrant.Edits.Reg
