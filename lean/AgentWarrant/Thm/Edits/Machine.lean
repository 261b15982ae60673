import AgentWarrant.Spec.Edits.Machine
import AgentWarrant.Thm.Edits.MachineTree
/-! Theorems about the ideal machine and the runtime of `Spec/Edits/Machine.lean` (*When Can Agents
Safely Checkpoint, Fork, Restore, and Merge?*, Sections VI-B, VII, Appendices A-H to A-K):
serialization of a tool call and a rule update, exact Checkpoint, exact checking on both machines,
AgentSec preserved by every event (the registered extension `Extend(ξ)` included), restart recovery,
and the ideal/runtime correspondence. -/
namespace AgentWarrant.Edits.Machine
open AgentWarrant AgentWarrant.Edits

theorem natBeqSelf : ∀ n : Nat, Nat.beq n n = true
  | 0 => rfl
  | n + 1 => natBeqSelf n

theorem succNe : ∀ n : Nat, n + 1 ≠ n
  | 0, h => Nat.noConfusion h
  | n + 1, h => succNe n (Nat.succ.inj h)

theorem beqNe {a b : Nat} (h : Nat.beq a b = false) : a ≠ b := by
  intro e; rw [e, natBeqSelf b] at h; exact Bool.noConfusion h

theorem beqEq : ∀ {a b : Nat}, Nat.beq a b = true → a = b
  | 0, 0, _ => rfl
  | 0, _ + 1, h => Bool.noConfusion h
  | _ + 1, 0, h => Bool.noConfusion h
  | a + 1, b + 1, h => congrArg Nat.succ (beqEq (a := a) (b := b) h)

theorem memBOfEq {a : Nat} : ∀ {l : List Nat}, a ∈ l → memB a l = true
  | _ :: _, Mem.head _ => by simp [memB, anyB, natBeqSelf]
  | b :: l, Mem.tail _ h => by
    have ih := memBOfEq h
    cases hb : Nat.beq b a with
    | true => simp [memB, anyB, hb]
    | false =>
      have ih' : anyB (fun y => Nat.beq y a) l = true := ih
      simp [memB, anyB, hb, ih']

theorem memBFalse {a : Nat} {l : List Nat} (h : memB a l = false) : ¬ a ∈ l := by
  intro hm; rw [memBOfEq hm] at h; exact Bool.noConfusion h

-- Serialization (Section VI-B) ----------------------------------------------------------------------

/-- An answer checked at a record is stale at every other record: `Ready` fails with
`record-changed` before anything is re-derived. -/
theorem readyStale (der : Derivation) {c c' : Core} (u : Nat) (eo : Option Nat) (en : Nat) (s : List Cand)
    (h : c ≠ c') : ready der c' u (Answer.accepted u c eo en s) = Except.error "record-changed" := by
  have hd : decide (c = c') = false := decideEqFalse h
  simp only [ready, natBeqSelf u, hd]
  rfl

/-- Every tool call that commits advances `ver`. -/
theorem takeCallVer (c : Core) (x v : Nat) : (takeCall c x v).2.ver = c.ver + 1 := by
  simp only [takeCall]
  cases (letterOf c x).new <;> rfl

theorem useRCases (c : Core) (x : Nat) (tok : Option Nat) (ok : Bool) :
    useR c x tok ok = (((useR c x tok ok).1, c)) ∨ ∃ v, useR c x tok ok = takeCall c x v := by
  simp only [useR]
  cases c.eta with
  | none => exact Or.inl rfl
  | some e =>
    simp only []
    cases memB x c.rules with
    | false => exact Or.inl rfl
    | true =>
      simp only []
      cases findProc x c.procd with
      | some _ => exact Or.inl rfl
      | none =>
        simp only []
        cases memB x c.entries with
        | false => exact Or.inl rfl
        | true =>
          simp only []
          cases decide (tok = some e) with
          | false => exact Or.inl rfl
          | true =>
            simp only []
            cases ok with
            | false => exact Or.inl rfl
            | true =>
              simp only []
              cases inW c.safe (since c ++ [letterOf c x]) with
              | false => exact Or.inl rfl
              | true => exact Or.inr ⟨e, rfl⟩

/-- Serialization, call first: if a tool call commits (changes the record), every answer checked
before it is stale, so the rule update it would have made returns `NoCommit(record-changed)`. -/
theorem callFirstStale (der : Derivation) (c : Core) (x : Nat) (tok : Option Nat) (ok : Bool)
    (u : Nat) (eo : Option Nat) (en : Nat) (s : List Cand) (hc : (useR c x tok ok).2 ≠ c) :
    ready der (useR c x tok ok).2 u (Answer.accepted u c eo en s) = Except.error "record-changed" :=
  readyStale der u eo en s (fun e => hc e.symm)

/-- What a successful `Ready` establishes: the answer is an accepted one for `u` checked at this
very record and version, `η⁺` is unallocated or inactive, and re-deriving gives `d`, whose check is
the answer's nonempty safe set. -/
theorem readyOk {der : Derivation} {c : Core} {u : Nat} {y : Answer} {d : Derived}
    (h : ready der c u y = Except.ok d) :
    unallocated c d.etaNew = true ∧ der c u = some d ∧ safeSet (build d.inst) ≠ [] ∧
    y = Answer.accepted u c c.eta d.etaNew (safeSet (build d.inst)) := by
  cases y with
  | invalid _ _ => exact Except.noConfusion h
  | rejected _ _ => exact Except.noConfusion h
  | accepted v cut eo en s =>
    simp only [ready] at h
    cases hv : Nat.beq v u with
    | false => rw [hv] at h; exact Except.noConfusion h
    | true =>
      rw [hv] at h; simp only [] at h
      cases hc : decide (cut = c) with
      | false => rw [hc] at h; exact Except.noConfusion h
      | true =>
        rw [hc] at h; simp only [] at h
        cases he : decide (c.eta = eo) with
        | false => rw [he] at h; exact Except.noConfusion h
        | true =>
          rw [he] at h; simp only [] at h
          cases hu : unallocated c en with
          | false => rw [hu] at h; exact Except.noConfusion h
          | true =>
            rw [hu] at h; simp only [] at h
            cases hd : der c u with
            | none => rw [hd] at h; exact Except.noConfusion h
            | some d' =>
              rw [hd] at h; simp only [] at h
              cases hs : decide (safeSet (build d'.inst) = s) with
              | false => rw [hs] at h; exact Except.noConfusion h
              | true =>
                cases hn : Nat.beq d'.etaNew en with
                | false => rw [hs, hn] at h; exact Except.noConfusion h
                | true =>
                  rw [hs, hn] at h; simp only [] at h
                  cases s with
                  | nil => exact Except.noConfusion h
                  | cons a l =>
                    have hdd : d' = d := Except.ok.inj h
                    subst hdd
                    have h1 := beqEq hv
                    have h2 := ofDecideEqTrue hc
                    have h3 := ofDecideEqTrue he
                    have h4 := ofDecideEqTrue hs
                    have h5 := beqEq hn
                    subst h1; subst h2; subst h3; subst h5
                    refine ⟨hu, rfl, ?_, ?_⟩
                    · rw [h4]; intro e; exact List.noConfusion e
                    · rw [h4]

theorem tryUpdateOk {der : Derivation} {S S' : RState} {u : Nat} {y : Answer} {e : Nat}
    (h : tryUpdate der S u y = (Obs.updated e, S')) :
    ∃ d, ready der S.core u y = Except.ok d ∧ S' = ⟨install S.core d (safeSet (build d.inst)), []⟩ := by
  simp only [tryUpdate] at h
  cases hr : ready der S.core u y with
  | error w => rw [hr] at h; exact Obs.noConfusion (congrArg Prod.fst h)
  | ok d =>
    rw [hr] at h; simp only [] at h
    refine ⟨d, rfl, ?_⟩
    cases hp : findPrep d.etaNew S.prepared with
    | none => rw [hp] at h; exact (congrArg Prod.snd h).symm
    | some p =>
      rw [hp] at h; simp only [] at h
      cases h1 : decide (p.edit = u ∧ p.cut = S.core ∧ p.etaOld = S.core.eta) with
      | false => rw [h1] at h; exact (congrArg Prod.snd h).symm
      | true =>
        cases h2 : decide (p.safe = safeSet (build d.inst)) with
        | false => rw [h1, h2] at h; exact Obs.noConfusion (congrArg Prod.fst h)
        | true => rw [h1, h2] at h; exact (congrArg Prod.snd h).symm

/-- A token of a rule version other than the active one never passes: the call is denied and
nothing changes. -/
theorem useOldToken (c : Core) (x eo en : Nat) (ok : Bool) (he : c.eta = some en) (hne : eo ≠ en) :
    ∃ why, useR c x (some eo) ok = (Obs.deny x why, c) := by
  have hd : decide (some eo = some en) = false := decideEqFalse (fun h => hne (Option.some.inj h))
  simp only [useR, he]
  cases memB x c.rules with
  | false => exact ⟨_, rfl⟩
  | true =>
    simp only []
    cases findProc x c.procd with
    | some _ => exact ⟨_, rfl⟩
    | none =>
      simp only []
      cases memB x c.entries with
      | false => exact ⟨_, rfl⟩
      | true => simp only [hd]; exact ⟨_, rfl⟩

theorem unallocatedNe {c : Core} {en eo : Nat} (h : unallocated c en = true) (he : c.eta = some eo) :
    en ≠ eo := by
  intro e
  subst e
  simp [unallocated, he, etaList, memB, anyB, natBeqSelf] at h

/-- Serialization, rule update first: once the update commits, a tool call presenting a token of
the version the update closed is denied and changes nothing, whatever call and request it names. -/
theorem updateFirstDenies {der : Derivation} {S S' : RState} {u : Nat} {y : Answer} {e eo : Nat}
    (h : tryUpdate der S u y = (Obs.updated e, S')) (heo : S.core.eta = some eo) (x : Nat) (ok : Bool) :
    ∃ why, useR S'.core x (some eo) ok = (Obs.deny x why, S'.core) := by
  have ⟨d, hr, hs⟩ := tryUpdateOk h
  have ⟨hu, _, _, _⟩ := readyOk hr
  subst hs
  exact useOldToken _ x eo d.etaNew ok rfl (fun q => unallocatedNe hu heo q.symm)

/-- The serialization lemma (Section VI-B): a visible accepted answer `Y` for `u`, checked at the
record `c` of `S`, and a tool call that commits at `S`, have one order. Call first: the update is
`NoCommit(record-changed)`. Update first: the call, presenting its token of the old version, is
denied. -/
theorem serialization (der : Derivation) (S : RState) (u x : Nat) (ok : Bool) (eo en : Nat) (s : List Cand)
    (heo : S.core.eta = some eo) (hc : (useR S.core x (some eo) ok).2 ≠ S.core) :
    tryUpdate der ⟨(useR S.core x (some eo) ok).2, S.prepared⟩ u (Answer.accepted u S.core (some eo) en s) =
      (Obs.noCommit "record-changed", ⟨(useR S.core x (some eo) ok).2, S.prepared⟩) ∧
    ∀ S' e, tryUpdate der S u (Answer.accepted u S.core (some eo) en s) = (Obs.updated e, S') →
      ∃ why, useR S'.core x (some eo) ok = (Obs.deny x why, S'.core) := by
  refine ⟨?_, fun S' e h => updateFirstDenies h heo x ok⟩
  simp only [tryUpdate]
  rw [callFirstStale der S.core x (some eo) ok u (some eo) en s hc]

-- Exact Checkpoint (Section VII) ---------------------------------------------------------------------

/-- Exact Checkpoint: `Checkpoint(k, b)` is accepted exactly when rules are in force, `k` is fresh
among the record's names and checkpoints, and `b` is a current branch of the record's tree
(`currentB`, computed from the record); acceptance adds `k`, stores the copy of `b`'s leaf and
advances `ver`, changing neither the tree, the workflow in force, the processed calls, the log nor the
rules; a refusal changes nothing. -/
theorem checkpointExact (c : Core) (k b : Nat) :
    ((checkpoint c k b).1 = Obs.saved k ↔
      (c.eta ≠ none ∧ memB k c.names = false ∧ memB k c.ckpts = false ∧ currentB c.tree b = true)) ∧
    ((checkpoint c k b).1 = Obs.saved k → ∃ l, leafNamed c.tree b = some l ∧
      (checkpoint c k b).2 = { c with ckpts := c.ckpts ++ [k], ver := c.ver + 1,
                                      saved := c.saved ++ [saveLeaf k b l] }) ∧
    ((checkpoint c k b).1 ≠ Obs.saved k → (checkpoint c k b).2 = c) := by
  cases he : c.eta with
  | none => simp [checkpoint, he]
  | some e =>
    cases hn : memB k c.names with
    | true => simp [checkpoint, he, hn]
    | false =>
      cases hk : memB k c.ckpts with
      | true => simp [checkpoint, he, hn, hk]
      | false =>
        have hb : (memB k c.names || memB k c.ckpts) = false := by rw [hn, hk]; rfl
        cases hc : currentB c.tree b with
        | false => simp [checkpoint, he, hb, hc]
        | true =>
          have ⟨l, hl⟩ := currentLeaf hc
          have e1 : checkpoint c k b = (Obs.saved k, { c with ckpts := c.ckpts ++ [k], ver := c.ver + 1,
                                                              saved := c.saved ++ [saveLeaf k b l] }) := by
            simp only [checkpoint, he, hb, hc, hl]; rfl
          rw [e1]
          exact ⟨⟨fun _ => ⟨fun h => Option.noConfusion h, rfl, rfl, rfl⟩, fun _ => rfl⟩,
                 fun _ => ⟨l, hl, by rw [he]⟩, fun h => absurd rfl h⟩

/-- An accepted Checkpoint names a leaf of the record's tree, which the event leaves in place, and
stores that leaf's copy, whose remaining contract is `Γ_b / raw(χ_b)` of the stored `Γ_b`, `χ_b`. -/
theorem checkpointLeaf (c : Core) (k b : Nat) (h : (checkpoint c k b).1 = Obs.saved k) :
    ∃ l, leafNamed c.tree b = some l ∧ (checkpoint c k b).2.tree = c.tree ∧
      (checkpoint c k b).2.saved = c.saved ++ [saveLeaf k b l] ∧
      (saveLeaf k b l).rest = residualOf l.gamma l.done := by
  have ⟨l, hl, e⟩ := (checkpointExact c k b).2.1 h
  exact ⟨l, hl, by rw [e], by rw [e], rfl⟩

-- AgentSec (Section VI-B, Appendix A-J) --------------------------------------------------------------

theorem mapAppendOne (f : α → β) (a : α) : ∀ l : List α, List.map f (l ++ [a]) = List.map f l ++ [f a]
  | [] => rfl
  | b :: l => by simp only [List.cons_append, List.map]; rw [mapAppendOne f a l]

theorem lengthAppendOne (a : α) : ∀ l : List α, List.length (l ++ [a]) = List.length l + 1
  | [] => rfl
  | b :: l => by simp only [List.cons_append, List.length_cons]; rw [lengthAppendOne a l]

theorem lengthMap (f : α → β) : ∀ l : List α, List.length (List.map f l) = List.length l
  | [] => rfl
  | b :: l => by simp only [List.map, List.length_cons]; rw [lengthMap f l]

theorem dropNAppend : ∀ (n : Nat) (l m : List α), n ≤ List.length l → dropN n (l ++ m) = dropN n l ++ m
  | 0, l, m, _ => rfl
  | n + 1, [], m, h => absurd h (Nat.notSuccLeZero n)
  | n + 1, b :: l, m, h => by
    rw [List.length_cons] at h
    rw [List.cons_append]
    exact dropNAppend n l m (Nat.leOfSuccLeSucc h)

theorem dropNLength : ∀ l : List α, dropN (List.length l) l = []
  | [] => rfl
  | b :: l => by simp only [List.length_cons, dropN]; exact dropNLength l

theorem nodupAppendOne {a : α} : ∀ {l : List α}, Nodup l → ¬ a ∈ l → Nodup (l ++ [a])
  | [], _, _ => ⟨fun h => nomatch h, trivial⟩
  | b :: l, ⟨hb, hl⟩, ha => by
    rw [List.cons_append]
    show ¬ b ∈ l ++ [a] ∧ Nodup (l ++ [a])
    refine ⟨?_, nodupAppendOne hl (fun h => ha (Mem.tail b h))⟩
    intro h
    cases memAppend h with
    | inl h1 => exact hb h1
    | inr h2 => exact ha (by rw [memSingle h2]; exact Mem.head l)

theorem markSentActions : ∀ l : List Auth, List.map Auth.action (markSent l).2 = List.map Auth.action l
  | [] => rfl
  | a :: l => by
    cases ha : a.sent with
    | false => simp [markSent, ha, List.map]
    | true =>
      have ih := markSentActions l
      cases hm : markSent l with
      | mk r l' =>
        cases r with
        | none => simp [markSent, ha, hm, List.map]; rw [hm] at ih; exact ih
        | some p =>
          cases p with
          | mk n b => simp [markSent, ha, hm, List.map]; rw [hm] at ih; exact ih

theorem setValueActions (d v : Nat) : ∀ l : List Auth, List.map Auth.action (setValue d v l) = List.map Auth.action l
  | [] => rfl
  | a :: l => by
    cases h : Nat.beq a.action d with
    | true => simp [setValue, h, List.map]
    | false => simp [setValue, h, List.map]; exact setValueActions d v l

/-- Sent requests form a prefix of the queue (`Dispatch` sends the oldest queued request first). -/
def SentPrefix : List Bool → Prop
  | [] => True
  | b :: l => (b = false → allB (fun x => !x) l = true) ∧ SentPrefix l

theorem allBAppendOne (p : α → Bool) (a : α) (ha : p a = true) : ∀ l : List α, allB p l = true → allB p (l ++ [a]) = true
  | [], _ => by simp [allB, ha]
  | b :: l, h => by
    rw [List.cons_append]
    cases hb : p b with
    | false => simp [allB, hb] at h
    | true =>
      have h' : allB p l = true := by simp [allB, hb] at h; exact h
      simp [allB, hb]
      exact allBAppendOne p a ha l h'

theorem sentPrefixAppendUnsent : ∀ l : List Bool, SentPrefix l → SentPrefix (l ++ [false])
  | [], _ => ⟨fun _ => rfl, trivial⟩
  | b :: l, ⟨h1, h2⟩ => by
    rw [List.cons_append]
    exact ⟨fun hb => allBAppendOne _ false rfl l (h1 hb), sentPrefixAppendUnsent l h2⟩

theorem markSentPrefix : ∀ l : List Auth, SentPrefix (List.map Auth.sent l) →
    SentPrefix (List.map Auth.sent (markSent l).2)
  | [], h => h
  | a :: l, h => by
    have ⟨_, h2⟩ : SentPrefix (a.sent :: List.map Auth.sent l) := h
    cases ha : a.sent with
    | false =>
      simp only [markSent, ha]
      exact ⟨fun q => Bool.noConfusion q, h2⟩
    | true =>
      have ih := markSentPrefix l h2
      cases hm : markSent l with
      | mk r l' =>
        rw [hm] at ih
        cases r with
        | none =>
          simp only [markSent, ha, hm]
          exact ⟨fun q => by rw [ha] at q; exact Bool.noConfusion q, ih⟩
        | some p =>
          cases p with
          | mk n b =>
            simp only [markSent, ha, hm]
            exact ⟨fun q => by rw [ha] at q; exact Bool.noConfusion q, ih⟩

theorem setValueSent (d v : Nat) : ∀ l : List Auth, List.map Auth.sent (setValue d v l) = List.map Auth.sent l
  | [] => rfl
  | a :: l => by
    cases h : Nat.beq a.action d with
    | true => simp [setValue, h, List.map]
    | false => simp [setValue, h, List.map]; exact setValueSent d v l

/-- AgentSec over the record (Section VI-B, the five clauses in this model):
(1, 2) the stored set is the checker's nonempty largest safe set of the installed derived instance
(`c.inst`), whose linearizations and action map are the ones in force; (3) the authorization records name
distinct actions (one record per action: `new` only for an action without one), the sent requests
are the oldest queued ones, and the rule update's cut lies within `χ`; (4) the automaton state `r` (the calls since the update) is in `W = ↓π₂B̂*`;
(5) a rule version is active and it is not a closed one, and the rule entries are exactly the calls
of the residual contract after `r`. -/
structure AgentSec (c : Core) : Prop where
  checked : c.safe = safeSet (build c.inst) ∧ c.lins = List.map Outcome.lins (build c.inst).outs ∧ c.act = c.inst.act
  nonempty : c.safe ≠ []
  base : c.base ≤ List.length c.procd
  logNodup : Nodup (logActions c)
  sentPrefix : SentPrefix (List.map Auth.sent c.log)
  inW : inW c.safe (since c) = true
  active : ∃ e, c.eta = some e ∧ memB e c.closed = false
  entries : c.entries = curCalls c.lins (raw (since c))

theorem notTrue : ∀ {b : Bool}, (!b) = true → b = false
  | false, _ => rfl
  | true, h => Bool.noConfusion h

theorem orFalseL : ∀ {a b : Bool}, (a || b) = false → a = false ∧ b = false
  | false, false, _ => ⟨rfl, rfl⟩
  | true, _, h => Bool.noConfusion h
  | false, true, h => Bool.noConfusion h

theorem memBAppend (a : Nat) : ∀ l m : List Nat, memB a (l ++ m) = (memB a l || memB a m)
  | [], m => by cases memB a m <;> rfl
  | b :: l, m => by
    have ih : anyB (fun y => Nat.beq y a) (l ++ m) =
        (anyB (fun y => Nat.beq y a) l || anyB (fun y => Nat.beq y a) m) := memBAppend a l m
    rw [List.cons_append]
    show anyB (fun y => Nat.beq y a) (b :: (l ++ m)) =
      (anyB (fun y => Nat.beq y a) (b :: l) || anyB (fun y => Nat.beq y a) m)
    simp only [anyB]
    rw [ih]
    cases Nat.beq b a <;> rfl

theorem inWNil : ∀ {s : List Cand}, s ≠ [] → inW s [] = true
  | [], h => absurd rfl h
  | a :: l, _ => by simp [inW, anyB, isPrefixB]

/-- The rule update installs an AgentSec record (Table III, successful edit transition): the
checker's nonempty set, `r = ε`, the log kept, `η⁺` active and not closed. -/
theorem installSec (c : Core) (d : Derived) (hn : safeSet (build d.inst) ≠ [])
    (hu : unallocated c d.etaNew = true) (hl : Nodup (logActions c)) (hsp : SentPrefix (List.map Auth.sent c.log)) :
    AgentSec (install c d (safeSet (build d.inst))) := by
  have hsince : since (install c d (safeSet (build d.inst))) = [] := by
    simp only [since, install]
    have h := dropNLength (List.map Proc.letter c.procd)
    rw [lengthMap] at h
    exact h
  refine ⟨⟨rfl, rfl, rfl⟩, hn, Nat.leRefl _, hl, hsp, ?_, ⟨d.etaNew, rfl, ?_⟩, ?_⟩
  · rw [hsince]; exact inWNil hn
  · have h1 := orFalseL (notTrue (show (!(memB d.etaNew (etaList c.eta) || memB d.etaNew c.closed)) = true from hu))
    show memB d.etaNew (c.closed ++ etaList c.eta) = false
    rw [memBAppend, h1.2, h1.1]
    rfl
  · rw [hsince]; rfl

theorem sinceAppend (c c' : Core) (p : Proc) (hp : c'.procd = c.procd ++ [p]) (hb : c'.base = c.base)
    (h : c.base ≤ List.length c.procd) : since c' = since c ++ [p.letter] := by
  simp only [since]
  rw [hp, hb, mapAppendOne]
  exact dropNAppend _ _ _ (by rw [lengthMap]; exact h)

/-- Table III, `new` and `reuse` uses: a tool call that passes keeps AgentSec (the letter was enabled,
`r·a ∈ W`; a `new` record names an action without one). -/
theorem takeCallSec {c : Core} (x v : Nat) (h : AgentSec c) (hw : inW c.safe (since c ++ [letterOf c x]) = true) :
    AgentSec (takeCall c x v).2 := by
  cases hn : (letterOf c x).new with
  | true =>
    have e : (takeCall c x v).2 = { c with ver := c.ver + 1, procd := c.procd ++ [(⟨letterOf c x, v, List.length c.log + 1⟩ : Proc)], log := c.log ++ [(⟨(letterOf c x).action, x, false, none⟩ : Auth)], entries := curCalls c.lins (raw (since c ++ [letterOf c x])), tree := hstep c.tree x } := by
      simp only [takeCall, hn]
      rfl
    have hp : (takeCall c x v).2.procd = c.procd ++ [(⟨letterOf c x, v, List.length c.log + 1⟩ : Proc)] := by rw [e]
    have hb : (takeCall c x v).2.base = c.base := by rw [e]
    have hsafe : (takeCall c x v).2.safe = c.safe := by rw [e]
    have hl : logActions (takeCall c x v).2 = logActions c ++ [(letterOf c x).action] := by
      rw [e]; exact mapAppendOne _ _ _
    have hs := sinceAppend c _ _ hp hb h.base
    refine ⟨by rw [e]; exact h.checked, by rw [hsafe]; exact h.nonempty, ?_, ?_, ?_, ?_, by rw [e]; exact h.active, ?_⟩
    · rw [hp, hb, lengthAppendOne]; exact Nat.leStep h.base
    · rw [hl]; exact nodupAppendOne h.logNodup (memBFalse (notTrue hn))
    · rw [e]
      show SentPrefix (List.map Auth.sent (c.log ++ [(⟨(letterOf c x).action, x, false, none⟩ : Auth)]))
      rw [mapAppendOne]
      exact sentPrefixAppendUnsent _ h.sentPrefix
    · rw [hsafe, hs]; exact hw
    · rw [hs]; rw [e]
  | false =>
    have e : ∃ r, (takeCall c x v).2 = { c with ver := c.ver + 1, procd := c.procd ++ [(⟨letterOf c x, v, r⟩ : Proc)], entries := curCalls c.lins (raw (since c ++ [letterOf c x])), tree := hstep c.tree x } := by
      simp only [takeCall, hn]; exact ⟨_, rfl⟩
    have ⟨r, e⟩ := e
    have hp : (takeCall c x v).2.procd = c.procd ++ [(⟨letterOf c x, v, r⟩ : Proc)] := by rw [e]
    have hb : (takeCall c x v).2.base = c.base := by rw [e]
    have hsafe : (takeCall c x v).2.safe = c.safe := by rw [e]
    have hl : logActions (takeCall c x v).2 = logActions c := by rw [e]; rfl
    have hs := sinceAppend c _ _ hp hb h.base
    refine ⟨by rw [e]; exact h.checked, by rw [hsafe]; exact h.nonempty, ?_, by rw [hl]; exact h.logNodup,
      by rw [e]; exact h.sentPrefix, ?_, by rw [e]; exact h.active, ?_⟩
    · rw [hp, hb, lengthAppendOne]; exact Nat.leStep h.base
    · rw [hsafe, hs]; exact hw
    · rw [hs]; rw [e]

theorem useRSplit (c : Core) (x : Nat) (tok : Option Nat) (ok : Bool) :
    (useR c x tok ok).2 = c ∨ ∃ v, inW c.safe (since c ++ [letterOf c x]) = true ∧ useR c x tok ok = takeCall c x v := by
  simp only [useR]
  cases c.eta with
  | none => exact Or.inl rfl
  | some e =>
    simp only []
    cases memB x c.rules with
    | false => exact Or.inl rfl
    | true =>
      simp only []
      cases findProc x c.procd with
      | some _ => exact Or.inl rfl
      | none =>
        simp only []
        cases memB x c.entries with
        | false => exact Or.inl rfl
        | true =>
          simp only []
          cases decide (tok = some e) with
          | false => exact Or.inl rfl
          | true =>
            simp only []
            cases ok with
            | false => exact Or.inl rfl
            | true =>
              simp only []
              cases hw : inW c.safe (since c ++ [letterOf c x]) with
              | false => exact Or.inl rfl
              | true => exact Or.inr ⟨e, rfl, rfl⟩

theorem tryUpdateSplit (der : Derivation) (S : RState) (u : Nat) (y : Answer) :
    (tryUpdate der S u y).2 = S ∨
    ∃ d, ready der S.core u y = Except.ok d ∧ (tryUpdate der S u y).2 = ⟨install S.core d (safeSet (build d.inst)), []⟩ := by
  simp only [tryUpdate]
  cases hr : ready der S.core u y with
  | error w => exact Or.inl rfl
  | ok d =>
    simp only []
    cases hp : findPrep d.etaNew S.prepared with
    | none => exact Or.inr ⟨d, rfl, rfl⟩
    | some p =>
      simp only []
      cases h1 : decide (p.edit = u ∧ p.cut = S.core ∧ p.etaOld = S.core.eta) with
      | false => exact Or.inr ⟨d, rfl, rfl⟩
      | true =>
        cases h2 : decide (p.safe = safeSet (build d.inst)) with
        | false => exact Or.inl rfl
        | true => exact Or.inr ⟨d, rfl, rfl⟩

theorem preloadCore (der : Derivation) (S : RState) (u : Nat) (y : Answer) : (preload der S u y).2.core = S.core := by
  simp only [preload]
  cases ready der S.core u y with
  | error w => rfl
  | ok d =>
    simp only []
    cases findPrep d.etaNew S.prepared with
    | none => rfl
    | some q =>
      simp only []
      cases decide (q = ⟨u, S.core, S.core.eta, safeSet (build d.inst)⟩) <;> rfl

theorem dispatchSec {c : Core} (h : AgentSec c) : AgentSec (dispatch c).2 := by
  simp only [dispatch]
  have ha := markSentActions c.log
  have hsp := markSentPrefix c.log h.sentPrefix
  cases hm : markSent c.log with
  | mk r l =>
    rw [hm] at ha hsp
    cases r with
    | none => exact h
    | some p =>
      cases p with
      | mk n a =>
        refine ⟨h.checked, h.nonempty, h.base, ?_, hsp, h.inW, h.active, h.entries⟩
        show Nodup (List.map Auth.action l)
        rw [ha]; exact h.logNodup

theorem settleSec {c : Core} (d v : Nat) (h : AgentSec c) : AgentSec (settle c d v).2 := by
  simp only [settle]
  cases findAuth d 1 c.log with
  | none => exact h
  | some p =>
    cases p with
    | mk n a =>
      simp only []
      cases a.sent with
      | false => exact h
      | true =>
        cases a.value with
        | some _ => exact h
        | none =>
          refine ⟨h.checked, h.nonempty, h.base, ?_, ?_, h.inW, h.active, h.entries⟩
          · show Nodup (List.map Auth.action (setValue d v c.log))
            rw [setValueActions]; exact h.logNodup
          · show SentPrefix (List.map Auth.sent (setValue d v c.log))
            rw [setValueSent]; exact h.sentPrefix

theorem checkpointSec {c : Core} (k b : Nat) (h : AgentSec c) : AgentSec (checkpoint c k b).2 := by
  cases he : c.eta with
  | none => simp only [checkpoint, he]; exact h
  | some e =>
    cases hn : memB k c.names with
    | true => simp only [checkpoint, he, hn]; exact h
    | false =>
      cases hk : memB k c.ckpts with
      | true => simp only [checkpoint, he, hn, hk]; exact h
      | false =>
        have hb : (memB k c.names || memB k c.ckpts) = false := by rw [hn, hk]; rfl
        cases hc : currentB c.tree b with
        | false => simp only [checkpoint, he, hb, hc]; exact h
        | true =>
          cases hl : leafNamed c.tree b with
          | none => simp only [checkpoint, he, hb, hc, hl]; exact h
          | some l =>
            have ⟨e', h1, h2⟩ := h.active
            rw [he] at h1
            have q : e = e' := Option.some.inj h1
            subst q
            simp only [checkpoint, he, hb, hc, hl]
            exact ⟨h.checked, h.nonempty, h.base, h.logNodup, h.sentPrefix, h.inW, ⟨e, rfl, h2⟩, h.entries⟩

-- The registered extension (A-D2) ------------------------------------------------------------------

/-- What a committed `Extend(ξ)` establishes: `η⁺` is unallocated, the extension instance's largest safe
set is nonempty, and the new record installs exactly that set with the extension instance. -/
theorem extendStepSome {c c' : Core} {dfa : Dfa} {en : Nat} {ok : Bool} (h : (extendStep c dfa en ok).2 = some c') :
    c.eta ≠ none ∧ ok = true ∧ unallocated c en = true ∧ safeSet (build (extInst c dfa)) ≠ [] ∧
    c' = install c (extDerived c dfa en) (safeSet (build (extInst c dfa))) := by
  revert h
  simp only [extendStep]
  cases c.eta with
  | none => intro h; exact Option.noConfusion h
  | some e =>
    simp only []
    cases ok with
    | false => intro h; exact Option.noConfusion h
    | true =>
      simp only []
      cases unallocated c en with
      | false => intro h; exact Option.noConfusion h
      | true =>
        simp only []
        cases safeSet (build (extInst c dfa)) with
        | nil => intro h; exact Option.noConfusion h
        | cons a l =>
          intro h
          refine ⟨?_, ?_, ?_, ?_, ?_⟩ <;>
            first | trivial | rfl | exact (Option.some.inj h).symm | exact (fun q => Option.noConfusion q) | exact (fun q => List.noConfusion q) | simp

theorem extendStepNone {c : Core} {dfa : Dfa} {en : Nat} {ok : Bool} (h : (extendStep c dfa en ok).2 = none) :
    extendCore c dfa en ok = c := by
  show pickCore c (extendStep c dfa en ok).2 = c
  rw [h]; rfl

theorem extendStepCommit {c c' : Core} {dfa : Dfa} {en : Nat} {ok : Bool} (h : (extendStep c dfa en ok).2 = some c') :
    extendCore c dfa en ok = c' := by
  show pickCore c (extendStep c dfa en ok).2 = c'
  rw [h]; rfl

theorem pickRCore (S : RState) : ∀ x : Option Core, (pickR S x).core = pickCore S.core x
  | none => rfl
  | some _ => rfl

/-- The runtime's extension makes the ideal machine's state change. -/
theorem extendRCore (S : RState) (dfa : Dfa) (en : Nat) (ok : Bool) :
    (extendR S dfa en ok).core = extendCore S.core dfa en ok := pickRCore S _

/-- Lemma 15's `Extend` case: a registered extension keeps AgentSec — refused or rejected it changes
nothing, committed it installs the checker's nonempty set of the extension instance with `η⁺`
unallocated (`installSec`). -/
theorem extendSec {c : Core} (dfa : Dfa) (en : Nat) (ok : Bool) (h : AgentSec c) :
    AgentSec (extendCore c dfa en ok) := by
  cases hx : (extendStep c dfa en ok).2 with
  | none => rw [extendStepNone hx]; exact h
  | some c' =>
    have ⟨_, _, hu, hn, e⟩ := extendStepSome hx
    rw [extendStepCommit hx, e]
    exact installSec c (extDerived c dfa en) hn hu h.logNodup h.sentPrefix

/-- Lemma 15 (A-J): every event of Table III preserves AgentSec — uses, the rule update (only
through `Ready`), Preload, verified `Invalid`/`Reject` and stale answers, retries, Dispatch,
completion updates, Checkpoint, and the registered extension `Extend(ξ)`. -/
theorem stepSec (der : Derivation) (S : RState) (e : Ev) (h : AgentSec S.core) : AgentSec (stepR der S e).2.core := by
  cases e with
  | check u => exact h
  | update u y =>
    show AgentSec (tryUpdate der S u y).2.core
    cases tryUpdateSplit der S u y with
    | inl e => rw [e]; exact h
    | inr p =>
      have ⟨d, hr, e⟩ := p
      rw [e]
      have ⟨hu, _, hn, _⟩ := readyOk hr
      exact installSec S.core d hn hu h.logNodup h.sentPrefix
  | preload u y => show AgentSec (preload der S u y).2.core; rw [preloadCore]; exact h
  | use x tok ok =>
    show AgentSec (useR S.core x tok ok).2
    cases useRSplit S.core x tok ok with
    | inl e => rw [e]; exact h
    | inr p => have ⟨v, hw, e⟩ := p; rw [e]; exact takeCallSec x v h hw
  | retry x tok ok => exact h
  | dispatch => exact dispatchSec h
  | settle d v => exact settleSec d v h
  | checkpoint k b => exact checkpointSec k b h
  | extend dfa en ok => show AgentSec (extendR S dfa en ok).core; rw [extendRCore]; exact extendSec dfa en ok h

/-- The runtime invariant (Section VII, A-J): from an AgentSec state, every finite sequence of
events ends in an AgentSec state. -/
theorem replaySec (der : Derivation) : ∀ (es : List Ev) (S : RState), AgentSec S.core → AgentSec (replay der S es).core
  | [], S, h => h
  | e :: es, S, h => replaySec der es _ (stepSec der S e h)

/-- Lemma 14 (the common initial state): the checked root update, when accepted, is an AgentSec state. -/
theorem startSec {d : Derived} {S : RState} (h : start d = some S) : AgentSec S.core := by
  simp only [start] at h
  cases hs : safeSet (build d.inst) with
  | nil => rw [hs] at h; exact Option.noConfusion h
  | cons a l =>
    rw [hs] at h
    have e : S = ⟨install empty d (a :: l), []⟩ := (Option.some.inj h).symm
    subst e
    have hn : safeSet (build d.inst) ≠ [] := by rw [hs]; intro q; exact List.noConfusion q
    have hi := installSec empty d hn rfl trivial trivial
    rw [hs] at hi
    exact hi

-- Restart recovery (Lemma 17, A-K) ---------------------------------------------------------------

theorem replayAppend (der : Derivation) : ∀ (S : RState) (es : List Ev) (e : Ev),
    replay der S (es ++ [e]) = (stepR der (replay der S es) e).2
  | S, [], e => rfl
  | S, a :: es, e => by rw [List.cons_append]; exact replayAppend der _ es e

/-- Events as they reach the store: each one commits, or is interrupted before its commit (`true`). -/
def runStore (der : Derivation) : Store → List (Ev × Bool) → Store
  | D, [] => D
  | D, (e, false) :: es => runStore der (commit der D e).2 es
  | D, (e, true) :: es => runStore der (crash D e) es

/-- The events that committed, in order. -/
def committedOf : List (Ev × Bool) → List Ev
  | [] => []
  | (e, false) :: es => e :: committedOf es
  | (_, true) :: es => committedOf es

theorem runStoreRecovers (der : Derivation) : ∀ (D : Store) (es : List (Ev × Bool)),
    D.committed = replay der D.init D.journal →
    (runStore der D es).committed = replay der D.init (D.journal ++ committedOf es)
  | D, [], h => by
    show D.committed = replay der D.init (D.journal ++ [])
    rw [List.append_nil]; exact h
  | D, (e, false) :: es, h => by
    have h' : (commit der D e).2.committed = replay der (commit der D e).2.init (commit der D e).2.journal := by
      show (stepR der D.committed e).2 = replay der D.init (D.journal ++ [e])
      rw [replayAppend, h]
    have ih := runStoreRecovers der (commit der D e).2 es h'
    show (runStore der (commit der D e).2 es).committed = replay der D.init (D.journal ++ (e :: committedOf es))
    rw [ih]
    show replay der D.init ((D.journal ++ [e]) ++ committedOf es) = replay der D.init (D.journal ++ (e :: committedOf es))
    rw [List.append_assoc]
    rfl
  | D, (e, true) :: es, h => runStoreRecovers der (crash D e) es h

/-- Lemma 17: whatever events were interrupted before their commit, a restart exposes exactly the
state the committed events reach from the initial state (`Recover`: the journal replayed), and that
state satisfies AgentSec when the initial one does. -/
theorem restartRecovers (der : Derivation) (S0 : RState) (es : List (Ev × Bool)) :
    restart (runStore der ⟨S0, S0, []⟩ es) = replay der S0 (committedOf es) ∧
    (runStore der ⟨S0, S0, []⟩ es).journal = committedOf es ∧
    (AgentSec S0.core → AgentSec (restart (runStore der ⟨S0, S0, []⟩ es)).core) := by
  have h := runStoreRecovers der ⟨S0, S0, []⟩ es rfl
  have hj : ∀ (D : Store) (es : List (Ev × Bool)), (runStore der D es).journal = D.journal ++ committedOf es ∧
      (runStore der D es).init = D.init := by
    intro D es
    induction es generalizing D with
    | nil => exact ⟨(List.append_nil _).symm, rfl⟩
    | cons p es ih =>
      cases p with
      | mk e b =>
        cases b with
        | true => exact ih D
        | false =>
          have ⟨h1, h2⟩ := ih (commit der D e).2
          refine ⟨?_, h2⟩
          show (runStore der (commit der D e).2 es).journal = D.journal ++ (e :: committedOf es)
          rw [h1]
          show (D.journal ++ [e]) ++ committedOf es = D.journal ++ (e :: committedOf es)
          rw [List.append_assoc]
          rfl
  refine ⟨h, (hj _ es).1, fun hs => ?_⟩
  show AgentSec (runStore der ⟨S0, S0, []⟩ es).committed.core
  rw [h]
  exact replaySec der _ S0 hs

-- The two machines (Sections VII, A-H, A-L) -----------------------------------------------------------

/-- Exact checking on both machines: the ideal edit transition and the runtime's check give the same
mutually exclusive and exhaustive answer from the same record. `Invalid` and `Reject` keep the state
on both; the ideal machine's accepted edge installs exactly the checker's largest safe set. -/
theorem editAnswersAgree (der : Derivation) (c : Core) (u : Nat) :
    (editI der c u).1 = answerObs (check der c u) ∧
    (der c u = none → (editI der c u).2 = c ∧ answerObs (check der c u) = Obs.invalid) ∧
    (∀ d, der c u = some d → safeSet (build d.inst) = [] →
      (editI der c u).2 = c ∧ answerObs (check der c u) = Obs.rejected) ∧
    (∀ d, der c u = some d → safeSet (build d.inst) ≠ [] →
      (editI der c u).2 = install c d (safeSet (build d.inst)) ∧ answerObs (check der c u) = Obs.accepted) := by
  cases hd : der c u with
  | none =>
    exact ⟨by simp [editI, check, answerObs, hd], fun _ => ⟨by simp [editI, hd], by simp [check, answerObs, hd]⟩,
      fun d q => Option.noConfusion q, fun d q => Option.noConfusion q⟩
  | some d =>
    cases hs : safeSet (build d.inst) with
    | nil =>
      refine ⟨by simp [editI, check, answerObs, hd, hs], fun q => Option.noConfusion q, ?_, ?_⟩
      · intro d' q _
        have e := Option.some.inj q
        subst e
        exact ⟨by simp [editI, hd, hs], by simp [check, answerObs, hd, hs]⟩
      · intro d' q hn
        have e := Option.some.inj q
        subst e
        exact absurd hs hn
    | cons a l =>
      refine ⟨by simp [editI, check, answerObs, hd, hs], fun q => Option.noConfusion q, ?_, ?_⟩
      · intro d' q hn
        have e := Option.some.inj q
        subst e
        rw [hs] at hn; exact List.noConfusion hn
      · intro d' q _
        have e := Option.some.inj q
        subst e
        exact ⟨by simp [editI, hd, hs], by simp [check, answerObs, hd, hs]⟩

/-- `Ready(S, u, Check(Θ_S(u)))` holds exactly when the derivation is defined, its largest safe set is
nonempty, and `η⁺` is unallocated or inactive: at an unchanged record the final check passes for
every accepted answer. -/
theorem readyIffAccepted (der : Derivation) (c : Core) (u : Nat) :
    (∃ d, ready der c u (check der c u) = Except.ok d) ↔
    (∃ d, der c u = some d ∧ safeSet (build d.inst) ≠ [] ∧ unallocated c d.etaNew = true) := by
  constructor
  · intro ⟨d, h⟩
    have ⟨hu, hd, hn, _⟩ := readyOk h
    exact ⟨d, hd, hn, hu⟩
  · intro ⟨d, hd, hn, hu⟩
    refine ⟨d, ?_⟩
    cases hs : safeSet (build d.inst) with
    | nil => exact absurd hs hn
    | cons a l =>
      have h1 : decide (c = c) = true := decideEqTrue rfl
      have h2 : decide (c.eta = c.eta) = true := decideEqTrue rfl
      have h3 : decide (a :: l = a :: l) = true := decideEqTrue rfl
      have h4 : decide (safeSet (build d.inst) = a :: l) = true := decideEqTrue hs
      simp only [check, hd, hs, ready, natBeqSelf, h1, h2, hu, h3, h4]
      rfl

/-- The runtime's edit (check, then the rule update with that answer, no step in between) makes
the same state change as the ideal edit transition, given that `Derive` allocates an unallocated or
inactive `η⁺` and no Preload prepared other content for this answer. -/
theorem runtimeEditIsIdeal (der : Derivation) (S : RState) (u : Nat) (d : Derived)
    (hd : der S.core u = some d) (hn : safeSet (build d.inst) ≠ [])
    (hu : unallocated S.core d.etaNew = true)
    (hp : ∀ p, findPrep d.etaNew S.prepared = some p → p.safe = safeSet (build d.inst)) :
    tryUpdate der S u (check der S.core u) = (Obs.updated d.etaNew, ⟨(editI der S.core u).2, []⟩) := by
  have ⟨_, _, _, hI⟩ := editAnswersAgree der S.core u
  have ⟨hi, _⟩ := hI d hd hn
  rw [hi]
  have ⟨d', hr⟩ := (readyIffAccepted der S.core u).2 ⟨d, hd, hn, hu⟩
  have ⟨_, hd', _, _⟩ := readyOk hr
  rw [hd] at hd'
  have e : d = d' := Option.some.inj hd'
  subst e
  simp only [tryUpdate, hr]
  cases hq : findPrep d.etaNew S.prepared with
  | none => rfl
  | some p =>
    have hps := hp p hq
    have h2 : decide (p.safe = safeSet (build d.inst)) = true := decideEqTrue hps
    simp only [h2]
    cases decide (p.edit = u ∧ p.cut = S.core ∧ p.etaOld = S.core.eta) <;> rfl

/-- Observations as the Agent API shows them: a denial names the call, not the premise that failed. -/
def api : Obs → Obs
  | Obs.deny x _ => Obs.deny x ""
  | o => o

/-- A tool call with the published token (the active version's) and the certified request makes the
same decision and the same state change on the runtime (token, version and automaton checks) as on
the ideal machine (`r·a ∈ L*`). -/
theorem useAgrees (c : Core) (x : Nat) :
    (useR c x c.eta true).2 = (useI c x true).2 ∧ api (useR c x c.eta true).1 = api (useI c x true).1 := by
  cases he : c.eta with
  | none => simp [useR, useI, he, api]
  | some e =>
    have ht : decide (some e = some e) = true := decideEqTrue rfl
    cases h1 : memB x c.rules with
    | false => simp [useR, useI, he, h1, api]
    | true =>
      cases h2 : findProc x c.procd with
      | some p => cases h3 : memB x c.entries <;> simp [useR, useI, he, h1, h2, h3, api]
      | none =>
        cases h3 : memB x c.entries with
        | false => simp [useR, useI, he, h1, h2, h3, api]
        | true =>
          cases h4 : inW c.safe (since c ++ [letterOf c x]) with
          | false => simp [useR, useI, he, h1, h2, h3, h4, ht, api]
          | true => simp [useR, useI, he, h1, h2, h3, h4, ht, api]

theorem tryUpdateNoCommit (der : Derivation) (S : RState) (u : Nat) (y : Answer) (w : String)
    (h : (tryUpdate der S u y).1 = Obs.noCommit w) : (tryUpdate der S u y).2 = S := by
  revert h
  simp only [tryUpdate]
  cases hr : ready der S.core u y with
  | error w' => intro _; rfl
  | ok d =>
    simp only []
    cases hp : findPrep d.etaNew S.prepared with
    | none => intro h; exact Obs.noConfusion h
    | some p =>
      simp only []
      cases h1 : decide (p.edit = u ∧ p.cut = S.core ∧ p.etaOld = S.core.eta) with
      | false => intro h; exact Obs.noConfusion h
      | true =>
        cases h2 : decide (p.safe = safeSet (build d.inst)) with
        | false => intro _; rfl
        | true => intro h; exact Obs.noConfusion h

/-- τ-steps of the runtime change no record: a check, Preload, a stale or malformed answer
(`NoCommit`), and a restart leave what the ideal machine sees unchanged. -/
theorem tauSteps (der : Derivation) (S : RState) (u : Nat) (y : Answer) (D : Store) :
    (stepR der S (Ev.check u)).2 = S ∧ (preload der S u y).2.core = S.core ∧
    (∀ w, (tryUpdate der S u y).1 = Obs.noCommit w → (tryUpdate der S u y).2 = S) ∧ restart D = D.committed :=
  ⟨rfl, preloadCore der S u y, tryUpdateNoCommit der S u y, rfl⟩

-- The simulation in both directions (A-L) ------------------------------------------------------------

/-- A runtime tool call that commits passed every premise: rules in force, a registered, unprocessed,
current call, the active version's token, the certified request, an enabled letter. -/
theorem useRPasses (c : Core) (x : Nat) (tok : Option Nat) (ok : Bool) :
    (useR c x tok ok).2 = c ∨
    ∃ e, c.eta = some e ∧ memB x c.rules = true ∧ findProc x c.procd = none ∧ memB x c.entries = true ∧
      tok = some e ∧ ok = true ∧ inW c.safe (since c ++ [letterOf c x]) = true ∧ useR c x tok ok = takeCall c x e := by
  simp only [useR]
  cases he : c.eta with
  | none => exact Or.inl rfl
  | some e =>
    simp only []
    cases h1 : memB x c.rules with
    | false => exact Or.inl rfl
    | true =>
      simp only []
      cases h2 : findProc x c.procd with
      | some _ => exact Or.inl rfl
      | none =>
        simp only []
        cases h3 : memB x c.entries with
        | false => exact Or.inl rfl
        | true =>
          simp only []
          cases h4 : decide (tok = some e) with
          | false => exact Or.inl rfl
          | true =>
            simp only []
            cases ok with
            | false => exact Or.inl rfl
            | true =>
              simp only []
              cases hw : inW c.safe (since c ++ [letterOf c x]) with
              | false => exact Or.inl rfl
              | true =>
                refine Or.inr ⟨e, ?_, ?_, ?_, ?_, ?_, ?_, ?_, ?_⟩ <;>
                  first | rfl | trivial | exact ofDecideEqTrue h4 | assumption

theorem useIOf {c : Core} {x e : Nat} (he : c.eta = some e) (h1 : memB x c.rules = true)
    (h2 : findProc x c.procd = none) (h3 : memB x c.entries = true)
    (hw : inW c.safe (since c ++ [letterOf c x]) = true) : useI c x true = takeCall c x e := by
  simp only [useI, he, h1, h2, h3, hw]
  rfl

/-- Runtime steps are ideal steps or τ: every runtime event leaves the record unchanged (a check,
Preload, `NoCommit`, a denial, a retry) or changes it exactly as one ideal event does (a committed
rule update as the ideal edit, a committed tool call as the ideal tool call, Dispatch, completion,
Checkpoint and the registered extension as themselves). -/
theorem runtimeStepMatched (der : Derivation) (S : RState) (e : Ev) :
    (stepR der S e).2.core = S.core ∨ ∃ ie, (stepR der S e).2.core = (stepI der S.core ie).2 := by
  cases e with
  | check u => exact Or.inl rfl
  | update u y =>
    show (tryUpdate der S u y).2.core = S.core ∨ ∃ ie, (tryUpdate der S u y).2.core = (stepI der S.core ie).2
    cases tryUpdateSplit der S u y with
    | inl h => rw [h]; exact Or.inl rfl
    | inr p =>
      have ⟨d, hr, h⟩ := p
      have ⟨_, hd, hn, _⟩ := readyOk hr
      have ⟨_, _, _, hI⟩ := editAnswersAgree der S.core u
      refine Or.inr ⟨IEv.edit u, ?_⟩
      rw [h]
      exact ((hI d hd hn).1).symm
  | preload u y => exact Or.inl (preloadCore der S u y)
  | use x tok ok =>
    show (useR S.core x tok ok).2 = S.core ∨ ∃ ie, (useR S.core x tok ok).2 = (stepI der S.core ie).2
    cases useRPasses S.core x tok ok with
    | inl h => exact Or.inl h
    | inr p =>
      have ⟨e, he, h1, h2, h3, _, _, hw, h⟩ := p
      refine Or.inr ⟨IEv.use x true, ?_⟩
      show (useR S.core x tok ok).2 = (useI S.core x true).2
      rw [h, useIOf he h1 h2 h3 hw]
  | retry x tok ok => exact Or.inl rfl
  | dispatch => exact Or.inr ⟨IEv.dispatch, rfl⟩
  | settle d v => exact Or.inr ⟨IEv.settle d v, rfl⟩
  | checkpoint k b => exact Or.inr ⟨IEv.checkpoint k b, rfl⟩
  | extend dfa en ok => exact Or.inr ⟨IEv.extend dfa en ok, extendRCore S dfa en ok⟩

theorem useSameState (c : Core) (x : Nat) : ∀ ok : Bool, (useR c x c.eta ok).2 = (useI c x ok).2
  | true => (useAgrees c x).1
  | false => by
    cases he : c.eta with
    | none => simp [useR, useI, he]
    | some e =>
      cases h1 : memB x c.rules with
      | false => simp [useR, useI, he, h1]
      | true =>
        cases h2 : findProc x c.procd with
        | some p => cases h3 : memB x c.entries <;> simp [useR, useI, he, h1, h2, h3]
        | none =>
          have ht : decide (some e = some e) = true := decideEqTrue rfl
          cases h3 : memB x c.entries with
          | false => simp [useR, useI, he, h1, h2, h3]
          | true => cases inW c.safe (since c ++ [letterOf c x]) <;> simp [useR, useI, he, h1, h2, h3, ht]

/-- Ideal steps are runtime steps: every ideal event at the runtime's record is matched by runtime
events (none, or one) reaching the same record — the edit by the rule update presenting the
runtime's own check (given that `Derive` allocates an unallocated or inactive `η⁺` and no Preload
prepared other content for it), the tool call by a use with the published token. -/
theorem idealStepMatched (der : Derivation) (S : RState) (ie : IEv)
    (hu : ∀ u d, ie = IEv.edit u → der S.core u = some d → unallocated S.core d.etaNew = true)
    (hp : ∀ u d p, ie = IEv.edit u → der S.core u = some d → findPrep d.etaNew S.prepared = some p →
      p.safe = safeSet (build d.inst)) :
    ∃ es : List Ev, (replay der S es).core = (stepI der S.core ie).2 := by
  cases ie with
  | edit u =>
    have ⟨_, hN, hR, hA⟩ := editAnswersAgree der S.core u
    cases hd : der S.core u with
    | none => exact ⟨[], ((hN hd).1).symm⟩
    | some d =>
      cases hs : safeSet (build d.inst) with
      | nil => exact ⟨[], ((hR d hd hs).1).symm⟩
      | cons a l =>
        have hn : safeSet (build d.inst) ≠ [] := by rw [hs]; intro q; exact List.noConfusion q
        refine ⟨[Ev.update u (check der S.core u)], ?_⟩
        have h := runtimeEditIsIdeal der S u d hd hn (hu u d rfl hd) (fun p q => hp u d p rfl hd q)
        show (tryUpdate der S u (check der S.core u)).2.core = (editI der S.core u).2
        rw [h]
  | use x ok => exact ⟨[Ev.use x S.core.eta ok], useSameState S.core x ok⟩
  | dispatch => exact ⟨[Ev.dispatch], rfl⟩
  | settle d v => exact ⟨[Ev.settle d v], rfl⟩
  | checkpoint k b => exact ⟨[Ev.checkpoint k b], rfl⟩
  | extend dfa en ok => exact ⟨[Ev.extend dfa en ok], extendRCore S dfa en ok⟩

end AgentWarrant.Edits.Machine
