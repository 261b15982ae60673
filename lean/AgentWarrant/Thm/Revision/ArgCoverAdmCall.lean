import AgentWarrant.Thm.Revision.ArgCoverAdm
import AgentWarrant.Thm.Monitor.Decode
/-! Every call the oracle decodes from an input it answers meets the two hypotheses `wayQA`'s coverage
theorem keeps about the call (Agenra Sections 1, 5.2 and 7.1): distinct argument keys and
`JsonPathsAdmitted`. As `policyArgsWithin` does for a policy's resolver arguments, the facts come from
the oracle's input guard, which every judgment runs under (`Oracle/Main.lean`):
* `guardedAdmitted`: an input the guard answered passes both checks (`admitted`);
* `callOfArgs`, `objPairsOk`: `callOf` reads the call's arguments as the members of the `args` object of
  its input, sorted by name (`objPairs`);
* `sortDistinct`: sorting a member list the name check found without repeated names keeps the names
  distinct (`keysDistinct`);
* `decodedCallAdmitted`: for a call decoded from the `call` member of an answered input, distinct keys,
  and the value at every path of the argument object the monitor builds (`argsJson`, `Json.mkObj`), the
  empty path included, is admitted (`admittedPath`, `admAtObjOf`); so `JsonPathsAdmitted` holds for every
  action and every list of entries (`decodedJsonPathsAdmitted`);
* `preparedCoverDecodedA`: `preparedCoverDistinctA` with both hypotheses discharged; `preparedCoverDecoded`:
  `preparedCoverDistinct` (`wayQ`'s question) with distinct keys discharged.
Which judgment read the call is left open (any `f` run under the guard): `monitor` and `monitor_decide`
read `call` so (`Oracle/MonitorFull.lean`). -/
namespace AgentWarrant.Revision.ArgCover
open Lean AgentWarrant AgentWarrant.Monitor AgentWarrant.Monitor.Full AgentWarrant.Json

/-- An input the oracle's guard answered passes both of its checks. -/
theorem guardedAdmitted {f : Json → Except String Json} {input out : Json}
    (h : Oracle.guarded (Oracle.keysGuard f) input = Except.ok out) : admitted input = true := by
  cases hd : Oracle.depthWithin jsonFuel input with
  | false =>
    rw [Oracle.guardedRefuses hd] at h
    cases h
  | true =>
    have ⟨_, hk⟩ := Oracle.guardedDepth h
    cases hc : Oracle.keysAtMost jsonFuel input with
    | true => exact andI hd hc
    | false =>
      have e : Oracle.keysGuard f input = Except.error (Oracle.keysError input) := by simp [Oracle.keysGuard, hc]
      rw [e] at hk
      cases hk

-- decoding the call --------------------------------------------------------------------------------------

theorem objPairsOk {j : Json} {l : List (String × Json)} (h : Oracle.MonitorFull.objPairs j = Except.ok l) :
    ∃ kvs, j = Json.obj kvs ∧ l = sortBy (fun p => p.1) (pairs kvs) := by
  cases j with
  | obj kvs => exact ⟨kvs, rfl, (Oracle.pureOk h).symm⟩
  | null => cases h
  | bool _ => cases h
  | num _ => cases h
  | str _ => cases h
  | arr _ => cases h

/-- `callOf` reads the call's arguments from the members of its input's `args` object. -/
theorem callOfArgs {j : Json} {c : Call} (h : Oracle.MonitorFull.callOf j = Except.ok c) :
    ∃ aj, Oracle.req j "args" = Except.ok aj ∧ Oracle.MonitorFull.objPairs aj = Except.ok c.args := by
  have ⟨_, _, h1⟩ := Oracle.bindOk h
  have ⟨_, _, h2⟩ := Oracle.bindOk h1
  have ⟨_, _, h3⟩ := Oracle.bindOk h2
  have ⟨aj, haj, h4⟩ := Oracle.bindOk h3
  have ⟨args, hargs, h5⟩ := Oracle.bindOk h4
  have ⟨_, _, h6⟩ := Oracle.bindOk h5
  have ⟨_, _, h7⟩ := Oracle.bindOk h6
  have ⟨_, _, h8⟩ := Oracle.bindOk h7
  have e := Oracle.pureOk h8
  rw [← e]
  exact ⟨aj, haj, hargs⟩

-- sorting keeps names distinct ---------------------------------------------------------------------------

theorem memInsertBy {key : α → String} {x q : α} : ∀ {l : List α}, q ∈ insertBy key x l → q = x ∨ q ∈ l
  | [], h => Or.inl (memOne h)
  | y :: ys, h => by
    cases hlt : decide (key x < key y) with
    | true =>
      have e : insertBy key x (y :: ys) = x :: y :: ys := by simp [insertBy, hlt]
      rw [e] at h
      exact memCons h
    | false =>
      have e : insertBy key x (y :: ys) = y :: insertBy key x ys := by simp [insertBy, hlt]
      rw [e] at h
      cases memCons h with
      | inl e2 => exact Or.inr (e2 ▸ Mem.head _)
      | inr h2 => cases memInsertBy h2 with
        | inl e3 => exact Or.inl e3
        | inr h3 => exact Or.inr (Mem.tail _ h3)

theorem memSortBy {key : α → String} {q : α} : ∀ {l : List α}, q ∈ sortBy key l → q ∈ l
  | [], h => h
  | y :: ys, h => match memInsertBy (l := sortBy key ys) h with
    | Or.inl e => e ▸ Mem.head _
    | Or.inr h2 => Mem.tail _ (memSortBy h2)

theorem noKeyAny {k : String} : ∀ (l : List (String × Json)), (∀ q, q ∈ l → q.1 ≠ k) →
    anyB (fun x => x.1 == k) l = false
  | [], _ => rfl
  | q :: l, h => by
    have hb : (q.1 == k) = false := decideEqFalse (h q (Mem.head _))
    show (match q.1 == k with | true => true | false => anyB (fun x => x.1 == k) l) = false
    rw [hb]
    exact noKeyAny l (fun r hr => h r (Mem.tail _ hr))

theorem anyNoKey {k : String} {l : List (String × Json)} (h : anyB (fun x => x.1 == k) l = false) :
    ∀ q, q ∈ l → q.1 ≠ k := by
  intro q hq e
  have t : anyB (fun x => x.1 == k) l = true := by
    apply anyBIntro hq
    show (q.1 == k) = true
    rw [e]
    exact decideEqTrue rfl
  rw [h] at t
  cases t

theorem notTrueB : ∀ {b : Bool}, (!b) = true → b = false
  | false, _ => rfl
  | true, h => by cases h

theorem insertDistinct (x : String × Json) : ∀ (l : List (String × Json)), keysDistinct l = true →
    (∀ q, q ∈ l → q.1 ≠ x.1) → keysDistinct (insertBy (fun p => p.1) x l) = true
  | [], _, _ => rfl
  | y :: ys, hd, hx => by
    have ⟨hy, hds⟩ := andT hd
    cases hlt : decide (x.1 < y.1) with
    | true =>
      have e : insertBy (fun p : String × Json => p.1) x (y :: ys) = x :: y :: ys := by simp [insertBy, hlt]
      rw [e]
      have hn : anyB (fun z => z.1 == x.1) (y :: ys) = false := noKeyAny (y :: ys) hx
      show ((!anyB (fun z => z.1 == x.1) (y :: ys)) && keysDistinct (y :: ys)) = true
      rw [hn, hd]
      rfl
    | false =>
      have e : insertBy (fun p : String × Json => p.1) x (y :: ys) = y :: insertBy (fun p => p.1) x ys := by
        simp [insertBy, hlt]
      rw [e]
      have hny := anyNoKey (notTrueB hy)
      have hn : anyB (fun z => z.1 == y.1) (insertBy (fun p => p.1) x ys) = false := by
        apply noKeyAny
        intro q hq
        cases memInsertBy hq with
        | inl e2 => rw [e2]; exact fun e3 => hx y (Mem.head _) e3.symm
        | inr h2 => exact hny q h2
      show ((!anyB (fun z => z.1 == y.1) (insertBy (fun p => p.1) x ys)) &&
        keysDistinct (insertBy (fun p => p.1) x ys)) = true
      rw [hn, insertDistinct x ys hds (fun q hq => hx q (Mem.tail _ hq))]
      rfl

theorem lookupKNoneNe {k : String} : ∀ {ps : List (String × Json)}, lookupK k ps = none → ∀ q, q ∈ ps → q.1 ≠ k
  | [], _, q, hq => absurd hq notMemNil
  | p :: ps, h, q, hq => by
    have h' : (if k = p.1 then some p.2 else lookupK k ps) = none := h
    -- decided by `String`'s equality, not `Classical`
    cases decEq k p.1 with
    | isTrue hk =>
      rw [ifPos hk] at h'
      cases h'
    | isFalse hk =>
      rw [ifNeg hk] at h'
      cases memCons hq with
      | inl e => rw [e]; exact fun e2 => hk e2.symm
      | inr h2 => exact lookupKNoneNe h' q h2

/-- Sorting a member list without repeated names (the oracle's name check, `nodupKB`) leaves the names
distinct. -/
theorem sortDistinct : ∀ (l : List (String × Json)), Oracle.nodupKB l = true →
    keysDistinct (sortBy (fun p => p.1) l) = true
  | [], _ => rfl
  | p :: ps, h => by
    cases hl : lookupK p.1 ps with
    | some w =>
      have e : Oracle.nodupKB (p :: ps) = false := by simp [Oracle.nodupKB, hl]
      rw [e] at h
      cases h
    | none =>
      have h' : Oracle.nodupKB ps = true := by
        have e : Oracle.nodupKB (p :: ps) = Oracle.nodupKB ps := by simp [Oracle.nodupKB, hl]
        rw [← e]
        exact h
      exact insertDistinct p _ (sortDistinct ps h') (fun q hq => lookupKNoneNe hl q (memSortBy hq))

-- the decoded call -----------------------------------------------------------------------------------------

/-- A call decoded from the `call` member of an input the oracle answers has distinct argument keys, and
the value at every path of its argument object, the empty path included, passes the oracle's checks. -/
theorem decodedCallAdmitted {f : Json → Except String Json} {input out cj : Json} {c : Call}
    (hg : Oracle.guarded (Oracle.keysGuard f) input = Except.ok out) (hc : Oracle.req input "call" = Except.ok cj)
    (hd : Oracle.MonitorFull.callOf cj = Except.ok c) :
    keysDistinct c.args = true ∧ ∀ path x, lookupPath (argsJson c.args) path = some x → admitted x = true := by
  have hin := guardedAdmitted hg
  have ⟨kvs, ei, hm⟩ := Oracle.reqOk hc
  rw [ei] at hin
  have hcj := admittedObjElem hin hm
  have ⟨aj, haj, hobj⟩ := callOfArgs hd
  have ⟨kvs2, ec, hm2⟩ := Oracle.reqOk haj
  rw [ec] at hcj
  have haj' := admittedObjElem hcj hm2
  have ⟨kvs3, ea, eargs⟩ := objPairsOk hobj
  rw [ea] at haj'
  have hk : Oracle.keysAtMost jsonFuel (Json.obj kvs3) = true := (andT haj').2
  have hnd : Oracle.nodupKB (pairs kvs3) = true := (andT hk).1
  have haj2 : admAt (99998 + 1) (Json.obj kvs3) = true := by rw [← admittedAt]; exact haj'
  have hargs : admitted (argsJson c.args) = true := by
    rw [admittedAt]
    apply admAtObjOf 99998 c.args
    intro p hp
    rw [eargs] at hp
    cases p with
    | mk k v => exact admAtObj haj2 (memSortBy hp)
  refine ⟨?_, fun path x hx => admittedPath path (argsJson c.args) x hargs hx⟩
  rw [eargs]
  exact sortDistinct _ hnd

/-- ... so `JsonPathsAdmitted` holds of it for every action and every list of entries. -/
theorem decodedJsonPathsAdmitted {f : Json → Except String Json} {input out cj : Json} {c : Call}
    (hg : Oracle.guarded (Oracle.keysGuard f) input = Except.ok out) (hc : Oracle.req input "call" = Except.ok cj)
    (hd : Oracle.MonitorFull.callOf cj = Except.ok c) (a : String) (gs : List Monitor.Full.Grant) :
    JsonPathsAdmitted a gs c.args :=
  fun _ _ _ q _ _ x hx => (decodedCallAdmitted hg hc hd).2 (predPath q) x hx

/-- `preparedCoverDistinctA` for every call decoded from an input the oracle answers: distinct keys and
`JsonPathsAdmitted` discharged. -/
theorem preparedCoverDecodedA (p : Policy) (a : String) (gs : List Monitor.Full.Grant) (E : Option (List Json))
    (listed : List (List Bool))
    (hfrag : ∀ g, g ∈ gs → g.action = a → grantOkA g = true)
    (hcov : WaysCoveredA p a gs E listed)
    (s : State) (hreach : ∃ cs, s = (runFull p (initialState p) cs).2)
    {f : Json → Except String Json} {input out cj : Json} {c : Call}
    (hg : Oracle.guarded (Oracle.keysGuard f) input = Except.ok out) (hc : Oracle.req input "call" = Except.ok cj)
    (hd : Oracle.MonitorFull.callOf cj = Except.ok c)
    (t : Tool) (es : List Effect) (hprep : prepare p s c = Except.ok (t, es))
    (e : Effect) (he : e ∈ es) (ha : e.action = a) (hE : InE E e) :
    anyB (fun u => decide (u = gs.map (fun g => grantMatches s c.args g e))) listed = true :=
  preparedCoverDistinctA p a gs E listed hfrag hcov s hreach c t es hprep e he ha hE
    (decodedCallAdmitted hg hc hd).1 (decodedJsonPathsAdmitted hg hc hd a gs)

/-- `preparedCoverDistinct` (`wayQ`'s question) for every call decoded from an input the oracle answers:
distinct keys discharged. -/
theorem preparedCoverDecoded (p : Policy) (a : String) (gs : List Monitor.Full.Grant) (E : Option (List Json))
    (listed : List (List Bool))
    (hfrag : ∀ g, g ∈ gs → g.action = a → grantOk g = true)
    (hcov : WaysCovered p a gs E listed)
    (s : State) (hreach : ∃ cs, s = (runFull p (initialState p) cs).2)
    {f : Json → Except String Json} {input out cj : Json} {c : Call}
    (hg : Oracle.guarded (Oracle.keysGuard f) input = Except.ok out) (hc : Oracle.req input "call" = Except.ok cj)
    (hd : Oracle.MonitorFull.callOf cj = Except.ok c)
    (t : Tool) (es : List Effect) (hprep : prepare p s c = Except.ok (t, es))
    (e : Effect) (he : e ∈ es) (ha : e.action = a) (hE : InE E e) :
    anyB (fun u => decide (u = gs.map (fun g => grantMatches s c.args g e))) listed = true :=
  preparedCoverDistinct p a gs E listed hfrag hcov s hreach c t es hprep e he ha hE (decodedCallAdmitted hg hc hd).1

end AgentWarrant.Revision.ArgCover
