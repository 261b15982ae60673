import AgentWarrant.Thm.Monitor.Full.Admitted
/-! Totality and determinism of the whole monitor's step (Agenra Section 6.3).

Identifiers in the whole model. A record's ID is its position in the trace; parents, handle
arguments and bindings (the record that bound the slot) refer to records by that ID. Permit IDs
come with the permits (an approval issues them), so the step never invents one. The only fresh
identifier a step introduces is the ID of an admitted record, and the model always takes the
canonical fresh one, the trace length. The renaming that relates two runs is therefore the
identity: the decision and the successor are unique outright (`stepFull` is a Lean function), and
the closed core's result for an arbitrary choice of fresh ID (`Monitor.Run.stepUpToRenaming`, with
the transposition of the two choices) is not needed here.

What is proved here is that the canonical choice is a fresh one. `IdsBounded`: every ID the state
mentions (each record's parents, each binding's record) names a record. It holds initially for an
empty trace and is kept by every step (`stepFullIdsBounded`), because preparation refuses a handle
that names no record that succeeded, and result processing binds only to the record just admitted.
In such a state the trace length names no record and occurs nowhere (`freshIdFresh`), and an Allow
puts the admitted record exactly there (`stepFullAllowAt`). The state a task starts in meets this
hypothesis and the quota invariant's (`initialStateOk`). -/
namespace AgentWarrant.Monitor.Full
open Lean AgentWarrant.Monitor AgentWarrant.Monitor.Run

theorem nthLt : ∀ (l : List α) (d : Nat) (x : α), nth? l d = some x → d < List.length l
  | [], d, x, h => by cases h
  | a :: l, 0, x, h => by rw [List.length_cons]; exact Nat.succLeSucc (Nat.zeroLe _)
  | a :: l, d + 1, x, h => by rw [List.length_cons]; exact Nat.succLeSucc (nthLt l d x h)

theorem nthLength : ∀ (l : List α), nth? l (List.length l) = none
  | [] => rfl
  | a :: l => by rw [List.length_cons]; exact nthLength l

theorem lengthAppendOne : ∀ (l : List α) (x : α), List.length (l ++ [x]) = List.length l + 1
  | [], x => rfl
  | a :: l, x => by rw [List.cons_append, List.length_cons, List.length_cons, lengthAppendOne l x]

theorem nthAppendOne : ∀ (l : List α) (x : α), nth? (l ++ [x]) (List.length l) = some x
  | [], x => rfl
  | a :: l, x => by rw [List.cons_append, List.length_cons]; exact nthAppendOne l x

theorem nthMap (f : α → β) : ∀ (l : List α) (d : Nat), nth? (List.map f l) d = Option.map f (nth? l d)
  | [], d => rfl
  | a :: l, 0 => rfl
  | a :: l, d + 1 => nthMap f l d

theorem memInsertBy (key : α → String) (x : α) {y : α} : ∀ {l : List α}, y ∈ insertBy key x l → y = x ∨ y ∈ l
  | [], h => by
    cases h with
    | head _ => exact Or.inl rfl
    | tail _ h => exact absurd h notMemNil
  | z :: zs, h => by
    cases hk : Decidable.decide (key x < key z) with
    | true =>
      have e : insertBy key x (z :: zs) = x :: z :: zs := by simp only [insertBy]; rw [hk]; rfl
      rw [e] at h
      cases h with
      | head _ => exact Or.inl rfl
      | tail _ h => exact Or.inr h
    | false =>
      have e : insertBy key x (z :: zs) = z :: insertBy key x zs := by simp only [insertBy]; rw [hk]; rfl
      rw [e] at h
      cases h with
      | head _ => exact Or.inr (Mem.head _)
      | tail _ h => cases memInsertBy key x h with
        | inl e => exact Or.inl e
        | inr e => exact Or.inr (Mem.tail _ e)

theorem memSortBy (key : α → String) {y : α} : ∀ {l : List α}, y ∈ sortBy key l → y ∈ l
  | [], h => h
  | x :: xs, h => by
    cases memInsertBy key x h with
    | inl e => rw [e]; exact Mem.head _
    | inr h' => exact Mem.tail _ (memSortBy key h')

theorem memFoldlStep (f : List Nat → (String × Nat) → List Nat) (hf : ∀ acc r q, q ∈ f acc r → q ∈ acc ∨ q = r.2)
    (q : Nat) : ∀ (l : List (String × Nat)) (acc : List Nat), q ∈ List.foldl f acc l → q ∈ acc ∨ ∃ r, r ∈ l ∧ r.2 = q
  | [], acc, h => Or.inl h
  | r :: l, acc, h => by
    cases memFoldlStep f hf q l (f acc r) h with
    | inl h1 => cases hf acc r q h1 with
      | inl h2 => exact Or.inl h2
      | inr e => exact Or.inr ⟨r, Mem.head _, e.symm⟩
    | inr e => have ⟨x, hx, e⟩ := e; exact Or.inr ⟨x, Mem.tail _ hx, e⟩

/-- Every parent of a call is one of its handle arguments. -/
theorem parentsFromRefs (c : Call) (q : Nat) (h : q ∈ c.parents) : ∃ r, r ∈ c.refs ∧ r.2 = q := by
  have hf : ∀ (acc : List Nat) (r : String × Nat) (q : Nat),
      q ∈ (if acc.any (fun d => d == r.2) then acc else acc ++ [r.2]) → q ∈ acc ∨ q = r.2 := by
    intro acc r q hq
    cases ha : acc.any (fun d => d == r.2) with
    | true => rw [ha] at hq; exact Or.inl hq
    | false =>
      rw [ha] at hq
      cases memAppE hq with
      | inl h => exact Or.inl h
      | inr h => cases h with
        | head _ => exact Or.inr rfl
        | tail _ h => exact absurd h notMemNil
  cases memFoldlStep _ hf q (sortBy (fun r => r.1) c.refs) [] h with
  | inl h => exact absurd h notMemNil
  | inr e => have ⟨r, hr, e⟩ := e; exact ⟨r, memSortBy _ hr, e⟩

theorem orTrue (x : Bool) : (x || true) = true := by cases x <;> rfl
theorem notFalse : (!false) = true := rfl

theorem iteThrow {b : Bool} {w : String} {e : Except String α} {v : α}
    (h : (if b = true then (throw w : Except String α) else e) = Except.ok v) : e = Except.ok v ∧ b = false := by
  cases b with
  | true => cases h
  | false => exact ⟨h, rfl⟩

theorem prepareRefs (p : Policy) (s : State) (c : Call) (t : Tool) (es : List Effect)
    (h : prepare p s c = Except.ok (t, es)) : c.refs.any (badRef s c) = false := by
  cases hf : p.tools.find? (fun t => t.name == c.tool) with
  | none => simp [prepare, hf] at h
  | some t' =>
    simp only [prepare, hf] at h
    have ⟨h1, _⟩ := iteThrow h
    have ⟨h2, _⟩ := iteThrow h1
    exact (iteThrow h2).2

/-- A prepared call's handles name records that exist and succeeded. -/
theorem refsRecorded (p : Policy) (s : State) (c : Call) (t : Tool) (es : List Effect)
    (h : prepare p s c = Except.ok (t, es)) : ∀ r, r ∈ c.refs → ∃ rec, s.record? r.2 = some rec ∧ rec.ok = true := by
  intro r hr
  have hb : badRef s c r = false := by
    cases hb : badRef s c r with
    | false => rfl
    | true => have e := anyMem hr hb; rw [prepareRefs p s c t es h] at e; cases e
  cases hrec : s.record? r.2 with
  | none => simp [badRef, hrec] at hb
  | some rec =>
    cases hok : rec.ok with
    | true => exact ⟨rec, rfl, hok⟩
    | false =>
      simp [badRef, hrec, hok, orTrue, notFalse] at hb

/-- Every ID the state mentions names a record: each record's parents and each binding's record. -/
def IdsBounded (s : State) : Prop :=
  (∀ r, r ∈ s.trace → ∀ q, q ∈ r.parents → q < List.length s.trace) ∧
  (∀ b, b ∈ s.bindings → b.2.2 < List.length s.trace)

/-- The ID `d` names no record and occurs nowhere in the state. -/
def FreshIn (s : State) (d : Nat) : Prop :=
  s.record? d = none ∧ (∀ r, r ∈ s.trace → ¬ d ∈ r.parents) ∧ (∀ b, b ∈ s.bindings → ¬ b.2.2 = d)

theorem freshIdFresh (s : State) (h : IdsBounded s) : FreshIn s (List.length s.trace) :=
  ⟨nthLength s.trace,
   fun r hr hq => Nat.ltIrrefl _ (h.1 r hr _ hq),
   fun b hb e => Nat.ltIrrefl _ (by have x := h.2 b hb; rw [e] at x; exact x)⟩

theorem bindOneBindings (v : Json) (d : Nat) (r : Resolver) (b : String × Json × Nat) :
    ∀ (acc : List (String × Json × Nat) × List String), b ∈ (bindOne v d acc r).1 → b ∈ acc.1 ∨ b.2.2 = d
  | (bs, inv), hx => by
    cases hm : memS r.slot inv with
    | true => simp [bindOne, hm] at hx; exact Or.inl hx
    | false =>
      cases hp : lookupPath v r.path with
      | none => simp [bindOne, hm, hp, dropBinding] at hx; exact Or.inl (memFilt hx).1
      | some w =>
        cases hw : wellFormedAddress w with
        | false => simp [bindOne, hm, hp, hw, dropBinding] at hx; exact Or.inl (memFilt hx).1
        | true =>
          cases hb : bs.find? (fun b => b.1 == r.slot) with
          | none =>
            simp [bindOne, hm, hp, hw, hb] at hx
            cases memInsertBy _ _ hx with
            | inl e => rw [e]; exact Or.inr rfl
            | inr e => exact Or.inl e
          | some b' =>
            cases hj : jeq b'.2.1 w with
            | true => simp [bindOne, hm, hp, hw, hb, hj] at hx; exact Or.inl hx
            | false => simp [bindOne, hm, hp, hw, hb, hj, dropBinding] at hx; exact Or.inl (memFilt hx).1

theorem foldBindBindings (v : Json) (d : Nat) (b : String × Json × Nat) : ∀ (rs : List Resolver)
    (acc : List (String × Json × Nat) × List String), b ∈ (List.foldl (bindOne v d) acc rs).1 → b ∈ acc.1 ∨ b.2.2 = d
  | [], acc, hx => Or.inl hx
  | r :: rs, acc, hx => by
    cases foldBindBindings v d b rs (bindOne v d acc r) hx with
    | inl h => exact bindOneBindings v d r b acc h
    | inr e => exact Or.inr e

/-- Result processing binds slots only to the record it processes. -/
theorem observeBindings (p : Policy) (s : State) (d : Nat) (o : Outcome) :
    ∀ b, b ∈ (observe p s d o).bindings → b ∈ s.bindings ∨ b.2.2 = d := by
  intro b hb
  cases o with
  | mk ok v =>
    cases ok with
    | false => simp [observe] at hb; exact Or.inl hb
    | true =>
      cases hr : s.record? d with
      | none => simp [observe, hr] at hb; exact Or.inl hb
      | some r =>
        simp only [observe, hr] at hb
        have g := foldBindBindings v d b
          (List.filter (fun x => x.tool == r.tool && jeq x.args (argsJson r.args)) p.resolvers) (s.bindings, s.invalid)
        cases hf : List.foldl (bindOne v d) (s.bindings, s.invalid)
          (List.filter (fun x => x.tool == r.tool && jeq x.args (argsJson r.args)) p.resolvers) with
        | mk bs inv => rw [hf] at g hb; exact g hb

theorem forgetOkMem (t t' : List Record) (e : List.map forgetOk t' = List.map forgetOk t) :
    ∀ r, r ∈ t' → ∃ r0, r0 ∈ t ∧ r.parents = r0.parents := by
  intro r hr
  have h := memMapOf forgetOk hr
  rw [e] at h
  have ⟨r0, h0, e0⟩ := memMapInv forgetOk h
  have e1 : (forgetOk r0).parents = (forgetOk r).parents := congrArg Record.parents e0
  exact ⟨r0, h0, e1.symm⟩

theorem forgetOkLength (t t' : List Record) (e : List.map forgetOk t' = List.map forgetOk t) :
    List.length t' = List.length t := by
  rw [← lengthMap forgetOk t', e, lengthMap]

theorem ltSucc {q n : Nat} (h : q < n) : q < n + 1 := Nat.leStep h

/-- Every step keeps every ID in the state naming a record. -/
theorem stepFullIdsBounded (p : Policy) (s : State) (c : Call) (o : Outcome) (h : IdsBounded s) :
    IdsBounded (stepFull p s c o).2 := by
  cases hd : decideFull p s c with
  | pause w => rw [stepFullOnlyAllowChanges p s c o (fun l pu pa k e => by rw [hd] at e; cases e)]; exact h
  | deny r => rw [stepFullOnlyAllowChanges p s c o (fun l pu pa k e => by rw [hd] at e; cases e)]; exact h
  | allow l pu pa k =>
    rw [stepFullAllow p s c o l pu pa k hd]
    have ⟨t, es, hp, _⟩ := decideFullAllow p s c l pu pa k hd
    have ⟨⟨rec, et, _, ep, _⟩, _, _, _, eb, _, _⟩ := commitFields p s c l pu pa k
    have ⟨ef, _⟩ := observeFields p (commit p s c l pu pa k) (List.length s.trace) o
    have hlen : List.length (observe p (commit p s c l pu pa k) (List.length s.trace) o).trace = List.length s.trace + 1 := by
      rw [forgetOkLength _ _ ef, et, lengthAppendOne]
    refine ⟨?_, ?_⟩
    · intro r hr q hq
      rw [hlen]
      have ⟨r0, h0, e0⟩ := forgetOkMem _ _ ef r hr
      rw [et] at h0
      rw [e0] at hq
      cases memAppE h0 with
      | inl h1 => exact ltSucc (h.1 r0 h1 q hq)
      | inr h1 =>
        cases h1 with
        | head _ =>
          rw [ep] at hq
          have ⟨ref, href, eq⟩ := parentsFromRefs c q hq
          have ⟨x, hx, _⟩ := refsRecorded p s c t es hp ref href
          rw [eq] at hx
          exact ltSucc (nthLt s.trace q x hx)
        | tail _ h2 => exact absurd h2 notMemNil
    · intro b hb
      rw [hlen]
      cases observeBindings p _ _ o b hb with
      | inl h1 => rw [eb] at h1; exact ltSucc (h.2 b h1)
      | inr e => rw [e]; exact Nat.ltSuccSelf _

/-- Over every trace, from a state whose IDs all name records (e.g. the empty state). -/
theorem runFullIdsBounded (p : Policy) : ∀ (cs : List (Call × Outcome)) (s : State), IdsBounded s →
    IdsBounded (runFull p s cs).2
  | [], s, h => h
  | (c, o) :: cs, s, h => runFullIdsBounded p cs (stepFull p s c o).2 (stepFullIdsBounded p s c o h)

/-- An Allow puts the admitted record at the fresh ID, the old trace length. -/
theorem stepFullAllowAt (p : Policy) (s : State) (c : Call) (o : Outcome) (l : Label) (pu pa : List Nat)
    (k : Option Nat) (hd : decideFull p s c = Verdict.allow l pu pa k) :
    ∃ r, (stepFull p s c o).2.record? (List.length s.trace) = some r ∧ r.label = l ∧ r.parents = c.parents := by
  rw [stepFullAllow p s c o l pu pa k hd]
  have ⟨⟨rec, et, el, ep, _⟩, _⟩ := commitFields p s c l pu pa k
  have ⟨ef, _⟩ := observeFields p (commit p s c l pu pa k) (List.length s.trace) o
  have e1 := congrArg (fun t => nth? t (List.length s.trace)) ef
  simp only [] at e1
  rw [nthMap, nthMap, et, nthAppendOne] at e1
  cases hx : nth? (observe p (commit p s c l pu pa k) (List.length s.trace) o).trace (List.length s.trace) with
  | none => rw [hx] at e1; cases e1
  | some r =>
    rw [hx] at e1
    have e2 : forgetOk r = forgetOk rec := Option.some.inj e1
    refine ⟨r, hx, ?_, ?_⟩
    · have e3 : (forgetOk r).label = (forgetOk rec).label := congrArg Record.label e2
      rw [← el]; exact e3
    · have e3 : (forgetOk r).parents = (forgetOk rec).parents := congrArg Record.parents e2
      rw [← ep]; exact e3

/-- Section 6.3: the step is total and its result unique; in a state whose IDs name records, the
ID an Allow uses is fresh (it names no record and occurs nowhere), and the successor keeps the
IDs naming records. -/
theorem stepFullTotalFresh (p : Policy) (s : State) (c : Call) (o : Outcome) :
    (∃ v s', stepFull p s c o = (v, s') ∧ ∀ v₂ s₂, stepFull p s c o = (v₂, s₂) → v₂ = v ∧ s₂ = s') ∧
    (IdsBounded s → FreshIn s (List.length s.trace) ∧ IdsBounded (stepFull p s c o).2) := by
  have b := fun h => stepFullIdsBounded p s c o h
  cases hst : stepFull p s c o with
  | mk v s' =>
    rw [hst] at b
    have a : ∀ v₂ s₂, (v, s') = (v₂, s₂) → v₂ = v ∧ s₂ = s' := fun v₂ s₂ e => by cases e; exact ⟨rfl, rfl⟩
    exact ⟨⟨v, s', rfl, a⟩, fun h => ⟨freshIdFresh s h, b h⟩⟩

/-- The state a task starts in: no records, bindings, invalid slots, approvals or permits, and every
counter of both lists at zero. -/
def initialState (p : Policy) : State :=
  ⟨[], [], [], List.map (fun _ => 0) p.user, List.map (fun _ => 0) p.app, [], []⟩

theorem zerosWithin : ∀ (gs : List Grant), WithinL (List.map Grant.quota gs) (List.map (fun _ => 0) gs)
  | [] => trivial
  | g :: gs => by
    show withinQ g.quota 0 ∧ WithinL (List.map Grant.quota gs) (List.map (fun _ => 0) gs)
    refine ⟨?_, zerosWithin gs⟩
    cases g.quota with
    | none => trivial
    | some m => exact Nat.zeroLe m

/-- The initial state meets both invariants' hypotheses. -/
theorem initialStateOk (p : Policy) : QuotaOk p (initialState p) ∧ IdsBounded (initialState p) :=
  ⟨⟨lengthMap _ _, lengthMap _ _, zerosWithin p.user, zerosWithin p.app⟩,
   fun r hr => absurd hr notMemNil, fun b hb => absurd hb notMemNil⟩

end AgentWarrant.Monitor.Full
