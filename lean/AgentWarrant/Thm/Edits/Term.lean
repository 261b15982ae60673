import AgentWarrant.Spec.Edits.Term
import AgentWarrant.Thm.Edits.RecheckContract
import AgentWarrant.Spec.Revision.ListLemmas
import AgentWarrant.Thm.Edits.Safety
/-! The defined-constructor lemma for contract terms (*When Can Agents Safely Checkpoint, Fork, Restore,
and Merge?*, Section V-A, Appendix A-D1: "lemma 1 preserve[s] uniqueness, acyclicity, and contract
well-formedness"), for the binary term model of `Spec/Edits/Term.lean`:

- `outsComplete`: every result of a term whose calls are unique is complete — its pomset has a
  linearization (the constructors never create a cycle);
- `eventsInCalls`: a result's events are calls of the term;
- `cloneOuts`, `renameLin`: cloning by a renaming `f` maps every result to a result of the clone
  with the renamed pomset, and an injective `f` maps a linearization to a linearization — the two
  facts from which the copy rows of the edit judgment build their `Covers` witnesses
  (`forkChoiceCovers`, `forkParallelCovers`). -/
namespace AgentWarrant.Edits
open AgentWarrant

theorem memCross {x y : Nat} {bs : List Nat} : ∀ {as : List Nat}, (x, y) ∈ cross as bs → x ∈ as ∧ y ∈ bs
  | [], h => absurd h notMemNil
  | a :: as, h => by
    cases memAppend h with
    | inl h1 =>
      have ⟨b, hb, e⟩ := memMap h1
      have ⟨e1, e2⟩ := Prod.mk.inj e
      rw [e1, e2]; exact ⟨Mem.head _, hb⟩
    | inr h2 => have ⟨hx, hy⟩ := memCross h2; exact ⟨Mem.tail _ hx, hy⟩

theorem memExtra {x y : Nat} {as bs : List Nat} : ∀ {ordered : Bool}, (x, y) ∈ extraOrder ordered as bs →
    x ∈ as ∧ y ∈ bs
  | true, h => memCross h
  | false, h => absurd h notMemNil

theorem memProd {o : TOut} {ordered : Bool} {A B : List TOut} (h : o ∈ prodOut ordered A B) :
    ∃ a b, a ∈ A ∧ b ∈ B ∧ o = joinOut ordered a b := by
  have ⟨l, hl, hol⟩ := memConcat h
  have ⟨a, ha, e⟩ := memMap hl
  rw [e] at hol
  have ⟨b, hb, e2⟩ := memMap hol
  exact ⟨a, b, ha, hb, e2⟩

theorem memChoice {o : TOut} {g : Nat} {A B : List TOut}
    (h : o ∈ List.map (tagOut g false) A ++ List.map (tagOut g true) B) :
    ∃ o', (o' ∈ A ∨ o' ∈ B) ∧ o.pom = o'.pom := by
  cases memAppend h with
  | inl h1 => have ⟨o', ho', e⟩ := memMap h1; rw [e]; exact ⟨o', Or.inl ho', rfl⟩
  | inr h2 => have ⟨o', ho', e⟩ := memMap h2; rw [e]; exact ⟨o', Or.inr ho', rfl⟩

/-- A result's events are calls of the term. -/
theorem eventsInCalls : ∀ (T : Tm) (o : TOut), o ∈ T.outs → ∀ x, x ∈ o.pom.events → x ∈ T.calls
  | Tm.call c, o, h, x, hx => by rw [memSingle h] at hx; exact hx
  | Tm.nil, o, h, x, hx => by rw [memSingle h] at hx; exact absurd hx notMemNil
  | Tm.choice g l r, o, h, x, hx => by
    have ⟨o', ho', e⟩ := memChoice h
    rw [e] at hx
    cases ho' with
    | inl h1 => exact appendMemL _ (eventsInCalls l o' h1 x hx)
    | inr h2 => exact appendMemR _ (eventsInCalls r o' h2 x hx)
  | Tm.par l r, o, h, x, hx => by
    have ⟨a, b, ha, hb, e⟩ := memProd h
    rw [e] at hx
    cases memAppend hx with
    | inl h1 => exact appendMemL _ (eventsInCalls l a ha x h1)
    | inr h2 => exact appendMemR _ (eventsInCalls r b hb x h2)
  | Tm.seq l r, o, h, x, hx => by
    have ⟨a, b, ha, hb, e⟩ := memProd h
    rw [e] at hx
    cases memAppend hx with
    | inl h1 => exact appendMemL _ (eventsInCalls l a ha x h1)
    | inr h2 => exact appendMemR _ (eventsInCalls r b hb x h2)

/-- Joining two complete results over disjoint calls gives a complete result. -/
theorem joinComplete {ordered : Bool} {a b : TOut} {wa wb : List Nat} (ha : Lin a.pom wa) (hb : Lin b.pom wb)
    (hdis : ∀ x, x ∈ a.pom.events → ¬ x ∈ b.pom.events) : Lin (joinOut ordered a b).pom (wa ++ wb) := by
  have ⟨nda, mema, orda⟩ := ha
  have ⟨ndb, memb, ordb⟩ := hb
  have hmem : ∀ x, x ∈ wa ++ wb ↔ x ∈ (joinOut ordered a b).pom.events := fun x => by
    constructor
    · intro hx
      cases memAppend hx with
      | inl h1 => exact appendMemL _ ((mema x).1 h1)
      | inr h2 => exact appendMemR _ ((memb x).1 h2)
    · intro hx
      cases memAppend hx with
      | inl h1 => exact appendMemL _ ((mema x).2 h1)
      | inr h2 => exact appendMemR _ ((memb x).2 h2)
  have hord : ∀ x y, (x, y) ∈ (joinOut ordered a b).pom.order → Before (wa ++ wb) x y := fun x y hxy => by
    cases memAppend hxy with
    | inl h1 => exact beforeL (orda x y h1)
    | inr h2 =>
      cases memAppend h2 with
      | inl h3 => exact beforeR (ordb x y h3)
      | inr h4 =>
        have ⟨hx, hy⟩ := memExtra h4
        exact beforeMid ((mema x).2 hx) ((memb y).2 hy)
  exact ⟨nodupAppendIntro nda ndb (fun x hx hx' => hdis x ((mema x).1 hx) ((memb x).1 hx')), hmem, hord⟩

/-- The defined-constructor lemma: every result of a term whose calls are unique is complete. -/
theorem outsComplete : ∀ (T : Tm), Nodup T.calls → ∀ o, o ∈ T.outs → ∃ w, Lin o.pom w
  | Tm.call c, _, o, h => by
    rw [memSingle h]
    exact ⟨[c], ⟨⟨notMemNil, trivial⟩, fun _ => Iff.rfl, fun _ _ hab => absurd hab notMemNil⟩⟩
  | Tm.nil, _, o, h => by
    rw [memSingle h]
    exact ⟨[], ⟨trivial, fun _ => Iff.rfl, fun _ _ hab => absurd hab notMemNil⟩⟩
  | Tm.choice g l r, hnd, o, h => by
    have ⟨ndl, ndr, _⟩ := nodupAppend hnd
    have ⟨o', ho', e⟩ := memChoice h
    rw [e]
    cases ho' with
    | inl h1 => exact outsComplete l ndl o' h1
    | inr h2 => exact outsComplete r ndr o' h2
  | Tm.par l r, hnd, o, h => by
    have ⟨ndl, ndr, hdis⟩ := nodupAppend hnd
    have ⟨a, b, ha, hb, e⟩ := memProd h
    have ⟨wa, hwa⟩ := outsComplete l ndl a ha
    have ⟨wb, hwb⟩ := outsComplete r ndr b hb
    rw [e]
    exact ⟨wa ++ wb, joinComplete hwa hwb (fun x hx hx' =>
      hdis x (eventsInCalls l a ha x hx) (eventsInCalls r b hb x hx'))⟩
  | Tm.seq l r, hnd, o, h => by
    have ⟨ndl, ndr, hdis⟩ := nodupAppend hnd
    have ⟨a, b, ha, hb, e⟩ := memProd h
    have ⟨wa, hwa⟩ := outsComplete l ndl a ha
    have ⟨wb, hwb⟩ := outsComplete r ndr b hb
    rw [e]
    exact ⟨wa ++ wb, joinComplete hwa hwb (fun x hx hx' =>
      hdis x (eventsInCalls l a ha x hx) (eventsInCalls r b hb x hx'))⟩

-- Cloning ------------------------------------------------------------------------------------------

theorem crossRename (f : Nat → Nat) (bs : List Nat) : ∀ (as : List Nat),
    cross (List.map f as) (List.map f bs) = List.map (fun ab => (f ab.1, f ab.2)) (cross as bs)
  | [] => rfl
  | a :: as => by
    show List.map (fun b => (f a, b)) (List.map f bs) ++ cross (List.map f as) (List.map f bs) =
      List.map (fun ab => (f ab.1, f ab.2)) (List.map (fun b => (a, b)) bs ++ cross as bs)
    rw [mapAppend, crossRename f bs as]
    have e : ∀ (l : List Nat), List.map (fun b => (f a, b)) (List.map f l) =
        List.map (fun ab => (f ab.1, f ab.2)) (List.map (fun b => (a, b)) l) := fun l => by
      induction l with
      | nil => rfl
      | cons x l ih => simp [List.map]; exact ih
    rw [e]

theorem extraRename (f : Nat → Nat) (as bs : List Nat) : ∀ (ordered : Bool),
    extraOrder ordered (List.map f as) (List.map f bs) = List.map (fun ab => (f ab.1, f ab.2)) (extraOrder ordered as bs)
  | true => crossRename f bs as
  | false => rfl

theorem joinRename (f : Nat → Nat) (ordered : Bool) (a b : TOut) :
    renameOut f (joinOut ordered a b) = joinOut ordered (renameOut f a) (renameOut f b) := by
  simp [renameOut, joinOut, renamePom, mapAppend, extraRename]

theorem prodRename {f : Nat → Nat} {ordered : Bool} {A B A' B' : List TOut}
    (hA : ∀ a, a ∈ A → renameOut f a ∈ A') (hB : ∀ b, b ∈ B → renameOut f b ∈ B') {o : TOut}
    (h : o ∈ prodOut ordered A B) : renameOut f o ∈ prodOut ordered A' B' := by
  have ⟨a, b, ha, hb, e⟩ := memProd h
  rw [e, joinRename]
  exact concatMem (mapMem (f := fun a => List.map (joinOut ordered a) B') (hA a ha))
    (mapMem (f := joinOut ordered (renameOut f a)) (hB b hb))

/-- Every result of `T`, renamed, is a result of `clone_f(T)`. -/
theorem cloneOuts (f : Nat → Nat) : ∀ (T : Tm) (o : TOut), o ∈ T.outs → renameOut f o ∈ (T.clone f).outs
  | Tm.call c, o, h => by rw [memSingle h]; exact Mem.head _
  | Tm.nil, o, h => by rw [memSingle h]; exact Mem.head _
  | Tm.choice g l r, o, h => by
    cases memAppend h with
    | inl h1 =>
      have ⟨o', ho', e⟩ := memMap h1
      rw [e]
      exact appendMemL _ (mapMem (f := tagOut g false) (cloneOuts f l o' ho'))
    | inr h2 =>
      have ⟨o', ho', e⟩ := memMap h2
      rw [e]
      exact appendMemR _ (mapMem (f := tagOut g true) (cloneOuts f r o' ho'))
  | Tm.par l r, o, h => prodRename (cloneOuts f l) (cloneOuts f r) h
  | Tm.seq l r, o, h => prodRename (cloneOuts f l) (cloneOuts f r) h

def Injective (f : Nat → Nat) : Prop := ∀ a b, f a = f b → a = b

theorem memMapInj {f : Nat → Nat} (hf : Injective f) {x : Nat} {l : List Nat} (h : f x ∈ List.map f l) : x ∈ l := by
  have ⟨y, hy, e⟩ := memMap h
  rw [hf x y e]; exact hy

theorem nodupMap {f : Nat → Nat} (hf : Injective f) : ∀ {l : List Nat}, Nodup l → Nodup (List.map f l)
  | [], _ => trivial
  | a :: l, ⟨ha, hl⟩ => ⟨fun h => ha (memMapInj hf h), nodupMap hf hl⟩

theorem beforeMap (f : Nat → Nat) {w : List Nat} {a b : Nat} (h : Before w a b) : Before (List.map f w) (f a) (f b) :=
  have ⟨u, v, e, hb⟩ := h
  ⟨List.map f u, List.map f v, by rw [e, mapAppend]; rfl, mapMem hb⟩

/-- An injective renaming maps a linearization to a linearization of the renamed pomset. -/
theorem renameLin {f : Nat → Nat} (hf : Injective f) {p : Pomset} {w : List Nat} (h : Lin p w) :
    Lin (renamePom f p) (List.map f w) := by
  have ⟨nd, mem, ord⟩ := h
  refine ⟨nodupMap hf nd, fun x => ⟨fun hx => ?_, fun hx => ?_⟩, fun x y hxy => ?_⟩
  · have ⟨y, hy, e⟩ := memMap hx
    rw [e]; exact mapMem ((mem y).1 hy)
  · have ⟨y, hy, e⟩ := memMap hx
    rw [e]; exact mapMem ((mem y).2 hy)
  · have ⟨ab, hab, e⟩ := memMap hxy
    have ⟨e1, e2⟩ := Prod.mk.inj e
    rw [e1, e2]
    exact beforeMap f (ord ab.1 ab.2 (by cases ab with | mk a b => exact hab))

-- The copy rows of the edit judgment ------------------------------------------------------------------

/-- `ForkChoice` on a region `C` with injective renamings `fL`, `fR`: for every result `o` of `C`
and each copy, the target region `clone_L(C) ⊕_g clone_R(C)` has a result that took that copy's
arm, whose pomset is `o`'s renamed, and which is complete whenever `o` is. -/
theorem forkChoiceCovers (g : Nat) {fL fR : Nat → Nat} (hL : Injective fL) (hR : Injective fR) (C : Tm)
    (o : TOut) (ho : o ∈ C.outs) {w : List Nat} (hw : Lin o.pom w) :
    (∃ t, t ∈ (Tm.choice g (C.clone fL) (C.clone fR)).outs ∧ t.sel = (g, false) :: o.sel ∧
        t.pom = renamePom fL o.pom ∧ Lin t.pom (List.map fL w)) ∧
    (∃ t, t ∈ (Tm.choice g (C.clone fL) (C.clone fR)).outs ∧ t.sel = (g, true) :: o.sel ∧
        t.pom = renamePom fR o.pom ∧ Lin t.pom (List.map fR w)) :=
  ⟨⟨tagOut g false (renameOut fL o), appendMemL _ (mapMem (cloneOuts fL C o ho)), rfl, rfl, renameLin hL hw⟩,
   ⟨tagOut g true (renameOut fR o), appendMemR _ (mapMem (cloneOuts fR C o ho)), rfl, rfl, renameLin hR hw⟩⟩

/-- `ForkParallel` on a region `C` whose calls are unique, with injective renamings whose images are
disjoint: every pair of results of the two copies is a result of `clone_L(C) ∥ clone_R(C)` containing
both renamed pomsets, and it is complete (the defined-constructor lemma). -/
theorem forkParallelCovers {fL fR : Nat → Nat} (C : Tm)
    (hnd : Nodup (Tm.calls (Tm.par (C.clone fL) (C.clone fR)))) (oL oR : TOut) (hoL : oL ∈ C.outs) (hoR : oR ∈ C.outs) :
    ∃ t, t ∈ (Tm.par (C.clone fL) (C.clone fR)).outs ∧ t = joinOut false (renameOut fL oL) (renameOut fR oR) ∧
      ∃ w, Lin t.pom w :=
  have ht := concatMem (mapMem (f := fun a => List.map (joinOut false a) (C.clone fR).outs) (cloneOuts fL C oL hoL))
    (mapMem (f := joinOut false (renameOut fL oL)) (cloneOuts fR C oR hoR))
  ⟨_, ht, rfl, outsComplete _ hnd _ ht⟩


-- A derived ForkChoice instance: the coverage witnesses are proved, not assumed -------------------------

namespace ForkChoice

def nthO : List α → Nat → Option α
  | [], _ => none
  | a :: _, 0 => some a
  | _ :: l, n + 1 => nthO l n

theorem nthOIndex {x : α} : ∀ {l : List α}, x ∈ l → ∃ n, nthO l n = some x
  | _, Mem.head _ => ⟨0, rfl⟩
  | _, Mem.tail _ h => have ⟨n, e⟩ := nthOIndex h; ⟨n + 1, e⟩

theorem nthOMem {x : α} : ∀ {l : List α} {n : Nat}, nthO l n = some x → x ∈ l
  | [], _, h => Option.noConfusion h
  | a :: l, 0, h => by have e : a = x := Option.some.inj h; rw [e]; exact Mem.head _
  | a :: l, n + 1, h => Mem.tail _ (nthOMem (l := l) h)

/-- The required source results of a ForkChoice on region `C`: each result of `C`, once per copy
(`false`: the left copy, `true`: the right), numbered by position. -/
def required (C : Tm) : List (Bool × TOut) :=
  List.map (fun o => (false, o)) C.outs ++ List.map (fun o => (true, o)) C.outs

/-- The target region `clone_L(C) ⊕_g clone_R(C)`. -/
def target (g : Nat) (fL fR : Nat → Nat) (C : Tm) : Tm := Tm.choice g (C.clone fL) (C.clone fR)

/-- `Covers(t, a)`: target result `t` took the arm of `a`'s copy and carries `a`'s pomset renamed. -/
def Covers (g : Nat) (fL fR : Nat → Nat) (C : Tm) (t a : Nat) : Prop :=
  ∃ side o x, nthO (required C) a = some (side, o) ∧ nthO (target g fL fR C).outs t = some x ∧
    x.sel = (g, side) :: o.sel ∧
    x.pom = renamePom (match side with | false => fL | true => fR) o.pom

/-- The derived instance of a ForkChoice on region `C` (outcomes the target's results by position;
every copied result required, none satisfied or removed), over any actions, labels, log and policy. -/
def theta (g : Nat) (fL fR : Nat → Nat) (C : Tm) (act lab log : List Nat) (A : List Nat → Prop) : Theta :=
  { O := fun t => ∃ x, nthO (target g fL fR C).outs t = some x,
    pom := fun t => match nthO (target g fL fR C).outs t with
      | some x => x.pom
      | none => ⟨[], []⟩,
    act := act, lab := lab, log := log, A := A,
    requiredBefore := fun a => ∃ r, nthO (required C) a = some r,
    satisfied := fun _ => False, authorizedRemoval := fun _ => False,
    covers := Covers g fL fR C }

/-- The coverage witnesses of the derived ForkChoice instance hold: Lemma 2's conclusion, proved for
this form from the defined-constructor lemma and the clone facts. -/
theorem coverWitnesses (g : Nat) {fL fR : Nat → Nat} (hL : Injective fL) (hR : Injective fR) (C : Tm)
    (hC : Nodup C.calls) (act lab log : List Nat) (A : List Nat → Prop) :
    (theta g fL fR C act lab log A).CoverWitnesses := by
  intro a ⟨⟨r, hr⟩, _, _⟩
  cases r with
  | mk side o =>
    have hrm := nthOMem hr
    have ho : o ∈ C.outs := by
      cases memAppend hrm with
      | inl h1 => have ⟨o', ho', e⟩ := memMap h1; rw [(Prod.mk.inj e).2]; exact ho'
      | inr h2 => have ⟨o', ho', e⟩ := memMap h2; rw [(Prod.mk.inj e).2]; exact ho'
    have ⟨w, hw⟩ := outsComplete C hC o ho
    have ⟨⟨tL, htL, selL, pomL, linL⟩, ⟨tR, htR, selR, pomR, linR⟩⟩ := forkChoiceCovers g hL hR C o ho hw
    cases side with
    | false =>
      have ⟨t, et⟩ := nthOIndex htL
      refine ⟨t, ⟨tL, et⟩, ⟨false, o, tL, hr, et, selL, pomL⟩, List.map fL w, ?_⟩
      have hp : (theta g fL fR C act lab log A).pom t = tL.pom := by simp [theta, target, et]
      rw [hp]; exact linL
    | true =>
      have ⟨t, et⟩ := nthOIndex htR
      refine ⟨t, ⟨tR, et⟩, ⟨true, o, tR, hr, et, selR, pomR⟩, List.map fR w, ?_⟩
      have hp : (theta g fL fR C act lab log A).pom t = tR.pom := by simp [theta, target, et]
      rw [hp]; exact linR

/-- Lemma 4 for a derived ForkChoice instance with no coverage hypothesis: a safe execution set
exists iff `B̂† ≠ ∅`, and then `(W†, B̂†)` is safe and contains every safe pair. -/
theorem lemma4 (g : Nat) {fL fR : Nat → Nat} (hL : Injective fL) (hR : Injective fR) (C : Tm)
    (hC : Nodup C.calls) (act lab log : List Nat) (A : List Nat → Prop)
    (hA : (theta g fL fR C act lab log A).PrefixClosed) :
    let θ := theta g fL fR C act lab log A
    ((∃ L B, θ.Safe L B) ↔ θ.SafeEdit) ∧ (θ.SafeEdit → θ.Safe θ.Wdag θ.Bdag) ∧
    ∀ L B, θ.Safe L B → (∀ c, B c → θ.Bdag c) ∧ (∀ z, L z → θ.Wdag z) :=
  Theta.lemma4 hA (coverWitnesses g hL hR C hC act lab log A)

end ForkChoice

-- A derived ForkParallel instance ----------------------------------------------------------------------

theorem outsNonempty : ∀ (T : Tm), ∃ o, o ∈ T.outs
  | Tm.call c => ⟨_, Mem.head _⟩
  | Tm.nil => ⟨_, Mem.head _⟩
  | Tm.choice g l r => have ⟨o, ho⟩ := outsNonempty l; ⟨_, appendMemL _ (mapMem (f := tagOut g false) ho)⟩
  | Tm.par l r =>
    have ⟨a, ha⟩ := outsNonempty l
    have ⟨b, hb⟩ := outsNonempty r
    ⟨_, concatMem (mapMem (f := fun a => List.map (joinOut false a) r.outs) ha) (mapMem (f := joinOut false a) hb)⟩
  | Tm.seq l r =>
    have ⟨a, ha⟩ := outsNonempty l
    have ⟨b, hb⟩ := outsNonempty r
    ⟨_, concatMem (mapMem (f := fun a => List.map (joinOut true a) r.outs) ha) (mapMem (f := joinOut true a) hb)⟩

namespace ForkParallel
open ForkChoice (nthO nthOIndex nthOMem required)

/-- The target region `clone_L(C) ∥ clone_R(C)`. -/
def target (fL fR : Nat → Nat) (C : Tm) : Tm := Tm.par (C.clone fL) (C.clone fR)

/-- `Covers(t, a)`: target result `t` joins `a`'s result renamed into `a`'s copy with some result of
the other copy. -/
def Covers (fL fR : Nat → Nat) (C : Tm) (t a : Nat) : Prop :=
  ∃ o o' x, nthO (target fL fR C).outs t = some x ∧
    ((nthO (required C) a = some (false, o) ∧ x = joinOut false (renameOut fL o) (renameOut fR o')) ∨
     (nthO (required C) a = some (true, o) ∧ x = joinOut false (renameOut fL o') (renameOut fR o)))

def theta (fL fR : Nat → Nat) (C : Tm) (act lab log : List Nat) (A : List Nat → Prop) : Theta :=
  { O := fun t => ∃ x, nthO (target fL fR C).outs t = some x,
    pom := fun t => match nthO (target fL fR C).outs t with
      | some x => x.pom
      | none => ⟨[], []⟩,
    act := act, lab := lab, log := log, A := A,
    requiredBefore := fun a => ∃ r, nthO (required C) a = some r,
    satisfied := fun _ => False, authorizedRemoval := fun _ => False,
    covers := Covers fL fR C }

/-- The coverage witnesses of the derived ForkParallel instance hold, given fresh, distinct calls in
the two copies (the paper's fresh-identifier condition). -/
theorem coverWitnesses {fL fR : Nat → Nat} (C : Tm) (hnd : Nodup (Tm.calls (target fL fR C)))
    (act lab log : List Nat) (A : List Nat → Prop) : (theta fL fR C act lab log A).CoverWitnesses := by
  intro a ⟨⟨r, hr⟩, _, _⟩
  have ⟨o', ho'⟩ := outsNonempty C
  cases r with
  | mk side o =>
    have hrm := nthOMem hr
    have ho : o ∈ C.outs := by
      cases memAppend hrm with
      | inl h1 => have ⟨o1, ho1, e⟩ := memMap h1; rw [(Prod.mk.inj e).2]; exact ho1
      | inr h2 => have ⟨o1, ho1, e⟩ := memMap h2; rw [(Prod.mk.inj e).2]; exact ho1
    cases side with
    | false =>
      have ⟨x, hx, ex, w, hw⟩ := forkParallelCovers C hnd o o' ho ho'
      have ⟨t, et⟩ := nthOIndex hx
      have hp : (theta fL fR C act lab log A).pom t = x.pom := by simp [theta, target, et]
      refine ⟨t, ⟨x, et⟩, ⟨o, o', x, et, Or.inl ⟨hr, ex⟩⟩, w, ?_⟩
      rw [hp]; exact hw
    | true =>
      have ⟨x, hx, ex, w, hw⟩ := forkParallelCovers C hnd o' o ho' ho
      have ⟨t, et⟩ := nthOIndex hx
      have hp : (theta fL fR C act lab log A).pom t = x.pom := by simp [theta, target, et]
      refine ⟨t, ⟨x, et⟩, ⟨o, o', x, et, Or.inr ⟨hr, ex⟩⟩, w, ?_⟩
      rw [hp]; exact hw

/-- Lemma 4 for a derived ForkParallel instance with no coverage hypothesis. -/
theorem lemma4 {fL fR : Nat → Nat} (C : Tm) (hnd : Nodup (Tm.calls (target fL fR C)))
    (act lab log : List Nat) (A : List Nat → Prop) (hA : (theta fL fR C act lab log A).PrefixClosed) :
    let θ := theta fL fR C act lab log A
    ((∃ L B, θ.Safe L B) ↔ θ.SafeEdit) ∧ (θ.SafeEdit → θ.Safe θ.Wdag θ.Bdag) ∧
    ∀ L B, θ.Safe L B → (∀ c, B c → θ.Bdag c) ∧ (∀ z, L z → θ.Wdag z) :=
  Theta.lemma4 hA (coverWitnesses C hnd act lab log A)

end ForkParallel
end AgentWarrant.Edits
