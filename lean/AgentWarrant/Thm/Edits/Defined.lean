import AgentWarrant.Spec.Edits.Judgment
import AgentWarrant.Thm.Edits.Derive
/-! Every constructor stays defined (*When Can Agents Safely Checkpoint, Fork, Restore, and Merge?*,
Section IV-B2 clause 3 and Appendix A-D1: "fresh identifiers, partial-constructor checks, and lemma 1
preserve uniqueness, acyclicity, and contract well-formedness"), in the binary term model:
`Defined T` says no complete sequence of `T` properly extends another.

- `definedClone`: an injective renaming keeps `Defined` (a linearization of a renamed result is the
  renaming of a linearization, `linRenameInv`, and prefixes are reflected, `prefixMapInj`);
- `definedJoin`: parallel and sequential composition of defined terms with disjoint calls is defined
  (a linearization of a joined result projects onto linearizations of its two parts, `linFilt`, and a
  proper extension would have to add a call of one part);
- `definedArms`, `definedChoice`: the arms of a defined choice are defined, and a choice of defined arms
  is defined when no complete sequence of one arm properly extends one of the other; `forkCross`
  gives that for the two copies of ForkChoice. -/
namespace AgentWarrant.Edits
open AgentWarrant

/-- Every result of `clone_f(T)` is a renamed result of `T`. -/
theorem cloneOutsInv (f : Nat → Nat) : ∀ (T : Tm) (x : TOut), x ∈ (T.clone f).outs →
    ∃ o, o ∈ T.outs ∧ x = renameOut f o
  | Tm.call c, x, h => ⟨⟨[], ⟨[c], []⟩⟩, Mem.head _, memSingle h⟩
  | Tm.nil, x, h => ⟨⟨[], ⟨[], []⟩⟩, Mem.head _, memSingle h⟩
  | Tm.choice g l r, x, h => by
    have h' : x ∈ List.map (tagOut g false) (l.clone f).outs ++ List.map (tagOut g true) (r.clone f).outs := h
    cases memAppend h' with
    | inl h1 =>
      have ⟨o', ho', e⟩ := memMap h1
      have ⟨o, ho, e'⟩ := cloneOutsInv f l o' ho'
      rw [e, e']
      exact ⟨tagOut g false o, appendMemL _ (mapMem ho), rfl⟩
    | inr h2 =>
      have ⟨o', ho', e⟩ := memMap h2
      have ⟨o, ho, e'⟩ := cloneOutsInv f r o' ho'
      rw [e, e']
      exact ⟨tagOut g true o, appendMemR _ (mapMem ho), rfl⟩
  | Tm.par l r, x, h => by
    have h' : x ∈ prodOut false (l.clone f).outs (r.clone f).outs := h
    have ⟨a, b, ha, hb, e⟩ := memProd h'
    have ⟨a', ha', ea⟩ := cloneOutsInv f l a ha
    have ⟨b', hb', eb⟩ := cloneOutsInv f r b hb
    rw [e, ea, eb, ← joinRename]
    exact ⟨_, prodMemOf ha' hb', rfl⟩
  | Tm.seq l r, x, h => by
    have h' : x ∈ prodOut true (l.clone f).outs (r.clone f).outs := h
    have ⟨a, b, ha, hb, e⟩ := memProd h'
    have ⟨a', ha', ea⟩ := cloneOutsInv f l a ha
    have ⟨b', hb', eb⟩ := cloneOutsInv f r b hb
    rw [e, ea, eb, ← joinRename]
    exact ⟨_, prodMemOf ha' hb', rfl⟩

-- List lemmas -----------------------------------------------------------------------------------------

theorem filtAppendL (P : α → Bool) : ∀ (l m : List α), filt P (l ++ m) = filt P l ++ filt P m
  | [], m => rfl
  | a :: l, m => by
    cases h : P a with
    | true =>
      have e1 : filt P (a :: (l ++ m)) = a :: filt P (l ++ m) := by simp [filt, h]
      have e2 : filt P (a :: l) = a :: filt P l := by simp [filt, h]
      rw [List.cons_append, e1, e2, filtAppendL P l m, List.cons_append]
    | false =>
      have e1 : filt P (a :: (l ++ m)) = filt P (l ++ m) := by simp [filt, h]
      have e2 : filt P (a :: l) = filt P l := by simp [filt, h]
      rw [List.cons_append, e1, e2, filtAppendL P l m]

theorem prefixFilt (P : α → Bool) {v v' : List α} (h : IsPrefix v v') : IsPrefix (filt P v) (filt P v') := by
  have ⟨t, ht⟩ := h
  rw [ht, filtAppendL]
  exact ⟨filt P t, rfl⟩

theorem nodupFiltN (P : Nat → Bool) : ∀ {l : List Nat}, Nodup l → Nodup (filt P l)
  | [], _ => trivial
  | a :: l, ⟨ha, hl⟩ => by
    cases h : P a with
    | true =>
      have e : filt P (a :: l) = a :: filt P l := by simp [filt, h]
      rw [e]
      exact ⟨fun hm => ha (memFilt hm).1, nodupFiltN P hl⟩
    | false =>
      have e : filt P (a :: l) = filt P l := by simp [filt, h]
      rw [e]
      exact nodupFiltN P hl

theorem beforeFilt (P : Nat → Bool) {w : List Nat} {c d : Nat} (h : Before w c d) (hc : P c = true)
    (hd : P d = true) : Before (filt P w) c d := by
  have ⟨u, t, hw, hdt⟩ := h
  have e : filt P (c :: t) = c :: filt P t := by simp [filt, hc]
  refine ⟨filt P u, filt P t, ?_, filtMem hdt hd⟩
  rw [hw, filtAppendL, e]

/-- A list with no member of either filter is empty. -/
theorem filtBoth (P : α → Bool) : ∀ {t : List α}, filt P t = [] → filt (fun x => !P x) t = [] → t = []
  | [], _, _ => rfl
  | a :: t, h1, h2 => by
    cases h : P a with
    | true =>
      have e : filt P (a :: t) = a :: filt P t := by simp [filt, h]
      rw [e] at h1; exact List.noConfusion h1
    | false =>
      have e : filt (fun x => !P x) (a :: t) = a :: filt (fun x => !P x) t := by simp [filt, h]; rfl
      rw [e] at h2; exact List.noConfusion h2

theorem nodupOfMap {f : Nat → Nat} : ∀ {w : List Nat}, Nodup (List.map f w) → Nodup w
  | [], _ => trivial
  | a :: w, ⟨ha, hw⟩ => ⟨fun hm => ha (mapMem hm), nodupOfMap hw⟩

theorem preimage {f : Nat → Nat} : ∀ {v : List Nat}, (∀ x, x ∈ v → ∃ y, x = f y) → ∃ w, v = List.map f w
  | [], _ => ⟨[], rfl⟩
  | a :: v, h => by
    have ⟨y, hy⟩ := h a (Mem.head _)
    have ⟨w, hw⟩ := preimage (v := v) (fun x hx => h x (Mem.tail _ hx))
    rw [hy, hw]
    exact ⟨y :: w, rfl⟩

theorem beforeMapInv {f : Nat → Nat} (hf : Injective f) {a b : Nat} :
    ∀ {w u' v' : List Nat}, List.map f w = u' ++ f a :: v' → f b ∈ v' → Before w a b
  | [], [], v', h, _ => by
    have h' : ([] : List Nat) = f a :: v' := h
    exact List.noConfusion h'
  | [], x :: u1, v', h, _ => by
    rw [List.cons_append] at h
    have h' : ([] : List Nat) = x :: (u1 ++ f a :: v') := h
    exact List.noConfusion h'
  | c :: w, [], v', h, hb => by
    have h' : f c :: List.map f w = f a :: v' := h
    have ⟨e1, e2⟩ := List.cons.inj h'
    rw [hf c a e1]
    rw [← e2] at hb
    exact ⟨[], w, rfl, memMapInj hf hb⟩
  | c :: w, d :: u1, v', h, hb => by
    rw [List.cons_append] at h
    have h' : f c :: List.map f w = d :: (u1 ++ f a :: v') := h
    have ⟨_, e2⟩ := List.cons.inj h'
    have ⟨u, t, hw, ht⟩ := beforeMapInv hf e2 hb
    rw [hw]
    exact ⟨c :: u, t, by rw [List.cons_append], ht⟩

theorem prefixMapInj {f : Nat → Nat} (hf : Injective f) :
    ∀ {w w' : List Nat}, IsPrefix (List.map f w) (List.map f w') → IsPrefix w w'
  | [], w', _ => ⟨w', rfl⟩
  | a :: w, [], h => by
    have ⟨t, ht⟩ := h
    have e : List.map f (a :: w) ++ t = f a :: (List.map f w ++ t) := by
      show (f a :: List.map f w) ++ t = f a :: (List.map f w ++ t)
      rw [List.cons_append]
    rw [e] at ht
    have ht' : ([] : List Nat) = f a :: (List.map f w ++ t) := ht
    exact List.noConfusion ht'
  | a :: w, b :: w', h => by
    have ⟨t, ht⟩ := h
    have e : List.map f (a :: w) ++ t = f a :: (List.map f w ++ t) := by
      show (f a :: List.map f w) ++ t = f a :: (List.map f w ++ t)
      rw [List.cons_append]
    rw [e] at ht
    have ht' : f b :: List.map f w' = f a :: (List.map f w ++ t) := ht
    have ⟨e1, e2⟩ := List.cons.inj ht'
    have ⟨s, hs⟩ := prefixMapInj hf (w := w) (w' := w') ⟨t, e2⟩
    rw [hf b a e1, hs]
    exact ⟨s, by rw [List.cons_append]⟩

-- Linearizations of renamed and joined results ------------------------------------------------------

/-- A linearization of a renamed pomset is the renaming of a linearization. -/
theorem linRenameInv {f : Nat → Nat} (hf : Injective f) {p : Pomset} {v : List Nat}
    (h : Lin (renamePom f p) v) : ∃ w, v = List.map f w ∧ Lin p w := by
  have ⟨nd, mem, ord⟩ := h
  have ⟨w, hw⟩ := preimage (f := f) (v := v) (fun x hx => by
    have ⟨y, _, e⟩ := memMap ((mem x).1 hx)
    exact ⟨y, e⟩)
  rw [hw] at nd mem ord
  refine ⟨w, hw, nodupOfMap nd, fun x => ⟨fun hx => ?_, fun hx => ?_⟩, fun a b hab => ?_⟩
  · exact memMapInj hf ((mem (f x)).1 (mapMem hx))
  · exact memMapInj hf ((mem (f x)).2 (mapMem hx))
  · have ⟨u', v', e, hb⟩ := ord (f a) (f b) (mapMem (f := fun ab => (f ab.1, f ab.2)) hab)
    exact beforeMapInv hf e hb

theorem joinOrder {ordered : Bool} (x y : TOut)
    (hx : ∀ a b, (a, b) ∈ x.pom.order → a ∈ x.pom.events ∧ b ∈ x.pom.events)
    (hy : ∀ a b, (a, b) ∈ y.pom.order → a ∈ y.pom.events ∧ b ∈ y.pom.events) {a b : Nat}
    (hab : (a, b) ∈ (joinOut ordered x y).pom.order) :
    a ∈ (joinOut ordered x y).pom.events ∧ b ∈ (joinOut ordered x y).pom.events := by
  have hab' : (a, b) ∈ x.pom.order ++ (y.pom.order ++ extraOrder ordered x.pom.events y.pom.events) := hab
  show a ∈ x.pom.events ++ y.pom.events ∧ b ∈ x.pom.events ++ y.pom.events
  cases memAppend hab' with
  | inl h1 => have ⟨ha, hb⟩ := hx a b h1; exact ⟨appendMemL _ ha, appendMemL _ hb⟩
  | inr h2 =>
    cases memAppend h2 with
    | inl h3 => have ⟨ha, hb⟩ := hy a b h3; exact ⟨appendMemR _ ha, appendMemR _ hb⟩
    | inr h4 => have ⟨ha, hb⟩ := memExtra h4; exact ⟨appendMemL _ ha, appendMemR _ hb⟩

/-- A term result's order pairs are between its events. -/
theorem termOrderOnEvents : ∀ (T : Tm) (o : TOut), o ∈ T.outs → ∀ a b, (a, b) ∈ o.pom.order →
    a ∈ o.pom.events ∧ b ∈ o.pom.events
  | Tm.call c, o, h, a, b, hab => by rw [memSingle h] at hab; exact absurd hab notMemNil
  | Tm.nil, o, h, a, b, hab => by rw [memSingle h] at hab; exact absurd hab notMemNil
  | Tm.choice g l r, o, h, a, b, hab => by
    have ⟨o', ho', e⟩ := memChoice h
    rw [e] at hab ⊢
    cases ho' with
    | inl h1 => exact termOrderOnEvents l o' h1 a b hab
    | inr h2 => exact termOrderOnEvents r o' h2 a b hab
  | Tm.par l r, o, h, a, b, hab => by
    have ⟨x, y, hx, hy, e⟩ := memProd h
    rw [e] at hab ⊢
    exact joinOrder x y (termOrderOnEvents l x hx) (termOrderOnEvents r y hy) hab
  | Tm.seq l r, o, h, a, b, hab => by
    have ⟨x, y, hx, hy, e⟩ := memProd h
    rw [e] at hab ⊢
    exact joinOrder x y (termOrderOnEvents l x hx) (termOrderOnEvents r y hy) hab

/-- Filtering a linearization of `p` to the events of a sub-pomset `q` (whose order is part of `p`'s and
lies on its events) gives a linearization of `q`. -/
theorem linFilt (P : Nat → Bool) {p q : Pomset} {v : List Nat} (h : Lin p v)
    (hev : ∀ x, x ∈ p.events → (P x = true ↔ x ∈ q.events)) (hsub : ∀ x, x ∈ q.events → x ∈ p.events)
    (hord : ∀ a b, (a, b) ∈ q.order → (a, b) ∈ p.order)
    (hon : ∀ a b, (a, b) ∈ q.order → a ∈ q.events ∧ b ∈ q.events) : Lin q (filt P v) := by
  have ⟨nd, mem, ord⟩ := h
  refine ⟨nodupFiltN P nd, fun x => ⟨fun hx => ?_, fun hx => ?_⟩, fun a b hab => ?_⟩
  · have ⟨hv, hp⟩ := memFilt hx
    exact (hev x ((mem x).1 hv)).1 hp
  · have hp := hsub x hx
    exact filtMem ((mem x).2 hp) ((hev x hp).2 hx)
  · have ⟨ha, hb⟩ := hon a b hab
    exact beforeFilt P (ord a b (hord a b hab)) ((hev a (hsub a ha)).2 ha) ((hev b (hsub b hb)).2 hb)

/-- A linearization of a joined result of two terms with disjoint calls projects onto linearizations of
its two parts (filtering by the left term's calls, and by their complement). -/
theorem linJoinProj {ordered : Bool} {l r : Tm} (hdis : ∀ x, x ∈ l.calls → ¬ x ∈ r.calls) {a b : TOut}
    (ha : a ∈ l.outs) (hb : b ∈ r.outs) {v : List Nat} (h : Lin (joinOut ordered a b).pom v) :
    Lin a.pom (filt (fun x => memN x l.calls) v) ∧ Lin b.pom (filt (fun x => !memN x l.calls) v) := by
  have hal := eventsInCalls l a ha
  have hbr := eventsInCalls r b hb
  have hoa := termOrderOnEvents l a ha
  have hob := termOrderOnEvents r b hb
  refine ⟨linFilt _ h (fun x hx => ⟨fun hp => ?_, fun hx' => ?_⟩) (fun x hx => appendMemL _ hx)
      (fun a' b' h' => appendMemL _ h') hoa,
    linFilt _ h (fun x hx => ⟨fun hp => ?_, fun hx' => ?_⟩) (fun x hx => appendMemR _ hx)
      (fun a' b' h' => appendMemR _ (appendMemL _ h')) hob⟩
  · have hxl : x ∈ l.calls := (memNIff x l.calls).1 hp
    cases memAppend (hx : x ∈ a.pom.events ++ b.pom.events) with
    | inl h1 => exact h1
    | inr h2 => exact absurd (hbr x h2) (hdis x hxl)
  · exact (memNIff x l.calls).2 (hal x hx')
  · have hp' : (!memN x l.calls) = true := hp
    have hxl : memN x l.calls = false := by
      cases q : memN x l.calls with
      | false => rfl
      | true => rw [q] at hp'; exact Bool.noConfusion hp'
    cases memAppend (hx : x ∈ a.pom.events ++ b.pom.events) with
    | inl h1 => exact absurd ((memNIff x l.calls).2 (hal x h1)) (by rw [hxl]; intro q; exact Bool.noConfusion q)
    | inr h2 => exact h2
  · have hn : ¬ x ∈ l.calls := fun q => hdis x q (hbr x hx')
    have hf : memN x l.calls = false := (memNFalseIff x l.calls).2 hn
    show (!memN x l.calls) = true
    rw [hf]
    first | rfl | skip

-- Defined ---------------------------------------------------------------------------------------------

theorem definedClone {f : Nat → Nat} (hf : Injective f) {C : Tm} (hC : Defined C) : Defined (C.clone f) := by
  intro o o' v v' ho ho' hv hv' hp
  have ⟨p, hpC, ep⟩ := cloneOutsInv f C o ho
  have ⟨p', hpC', ep'⟩ := cloneOutsInv f C o' ho'
  rw [ep] at hv
  rw [ep'] at hv'
  have ⟨w, hw, hl⟩ := linRenameInv hf hv
  have ⟨w', hw', hl'⟩ := linRenameInv hf hv'
  rw [hw, hw'] at hp
  rw [hw, hw', hC p p' w w' hpC hpC' hl hl' (prefixMapInj hf hp)]

theorem definedJoin (ordered : Bool) {l r : Tm} (hl : Defined l) (hr : Defined r)
    (hnd : Nodup (l.calls ++ r.calls)) : ∀ o o' v v', o ∈ prodOut ordered l.outs r.outs →
    o' ∈ prodOut ordered l.outs r.outs → Lin o.pom v → Lin o'.pom v' → IsPrefix v v' → v = v' := by
  intro o o' v v' ho ho' hv hv' hp
  have hdis := (nodupAppend hnd).2.2
  have ⟨a, b, ha, hb, e⟩ := memProd ho
  have ⟨a', b', ha', hb', e'⟩ := memProd ho'
  rw [e] at hv
  rw [e'] at hv'
  have ⟨hva, hvb⟩ := linJoinProj hdis ha hb hv
  have ⟨hva', hvb'⟩ := linJoinProj hdis ha' hb' hv'
  have ⟨t, ht⟩ := hp
  have e1 := hl a a' _ _ ha ha' hva hva' (prefixFilt _ hp)
  have e2 := hr b b' _ _ hb hb' hvb hvb' (prefixFilt _ hp)
  rw [ht, filtAppendL] at e1 e2
  have t1 : filt (fun x => memN x l.calls) t = [] :=
    (appendLeftCancel (e1.symm.trans (List.append_nil _).symm) : _)
  have t2 : filt (fun x => !memN x l.calls) t = [] :=
    (appendLeftCancel (e2.symm.trans (List.append_nil _).symm) : _)
  rw [ht, filtBoth (fun x => memN x l.calls) t1 t2, List.append_nil]

theorem definedArms {g : Nat} {l r : Tm} (h : Defined (Tm.choice g l r)) : Defined l ∧ Defined r :=
  ⟨fun o o' v v' ho ho' hv hv' hp =>
      h (tagOut g false o) (tagOut g false o') v v' (appendMemL _ (mapMem ho)) (appendMemL _ (mapMem ho')) hv hv' hp,
   fun o o' v v' ho ho' hv hv' hp =>
      h (tagOut g true o) (tagOut g true o') v v' (appendMemR _ (mapMem ho)) (appendMemR _ (mapMem ho')) hv hv' hp⟩

/-- A choice of defined arms is defined when no complete sequence of one arm properly extends one of
the other (the choice constructor's partial-constructor condition). -/
theorem definedChoice (g : Nat) {l r : Tm} (hl : Defined l) (hr : Defined r)
    (hx : ∀ o o' v v', o ∈ l.outs → o' ∈ r.outs → Lin o.pom v → Lin o'.pom v' →
      (IsPrefix v v' → v = v') ∧ (IsPrefix v' v → v' = v)) : Defined (Tm.choice g l r) := by
  intro o o' v v' ho ho' hv hv' hp
  have ho2 : o ∈ List.map (tagOut g false) l.outs ++ List.map (tagOut g true) r.outs := ho
  have ho2' : o' ∈ List.map (tagOut g false) l.outs ++ List.map (tagOut g true) r.outs := ho'
  cases memAppend ho2 with
  | inl h1 =>
    have ⟨p, hp1, e⟩ := memMap h1
    rw [e] at hv
    cases memAppend ho2' with
    | inl h2 => have ⟨p', hp2, e'⟩ := memMap h2; rw [e'] at hv'; exact hl p p' v v' hp1 hp2 hv hv' hp
    | inr h2 => have ⟨p', hp2, e'⟩ := memMap h2; rw [e'] at hv'; exact (hx p p' v v' hp1 hp2 hv hv').1 hp
  | inr h1 =>
    have ⟨p, hp1, e⟩ := memMap h1
    rw [e] at hv
    cases memAppend ho2' with
    | inl h2 => have ⟨p', hp2, e'⟩ := memMap h2; rw [e'] at hv'; exact ((hx p' p v' v hp2 hp1 hv' hv).2 hp)
    | inr h2 => have ⟨p', hp2, e'⟩ := memMap h2; rw [e'] at hv'; exact hr p p' v v' hp1 hp2 hv hv' hp

/-- The two copies of ForkChoice: a complete sequence of one copy never properly extends one of the
other (a nonempty one starts with a call of its own copy; an empty one means every result of `C` is
empty). -/
theorem forkCross {fL fR : Nat → Nat} (hL : Injective fL) (hR : Injective fR) (hdis : ∀ a b, fL a ≠ fR b)
    {C : Tm} (hC : Defined C) : ∀ o o' v v', o ∈ (C.clone fL).outs → o' ∈ (C.clone fR).outs →
    Lin o.pom v → Lin o'.pom v' → (IsPrefix v v' → v = v') ∧ (IsPrefix v' v → v' = v) := by
  intro o o' v v' ho ho' hv hv'
  have ⟨p, hpC, ep⟩ := cloneOutsInv fL C o ho
  have ⟨p', hpC', ep'⟩ := cloneOutsInv fR C o' ho'
  rw [ep] at hv
  rw [ep'] at hv'
  have ⟨w, hw, hl⟩ := linRenameInv hL hv
  have ⟨w', hw', hl'⟩ := linRenameInv hR hv'
  have cross : ∀ x, x ∈ v → x ∈ v' → False := fun x hx hx' => by
    rw [hw] at hx
    rw [hw'] at hx'
    have ⟨y, _, ey⟩ := memMap hx
    have ⟨y', _, ey'⟩ := memMap hx'
    exact hdis y y' (ey.symm.trans ey')
  -- the shorter one is empty, and then every result of `C` has only the empty linearization
  have emptyBoth : ∀ (u u' : List Nat) (fu fu' : Nat → Nat) (q q' : TOut) (wq wq' : List Nat),
      q ∈ C.outs → q' ∈ C.outs → Lin q.pom wq → Lin q'.pom wq' → u = List.map fu wq → u' = List.map fu' wq' →
      u = [] → u' = [] := by
    intro u u' fu fu' q q' wq wq' hq hq' lq lq' eu eu' h0
    rw [eu] at h0
    have hwq : wq = [] := by cases wq with
      | nil => rfl
      | cons _ _ => exact List.noConfusion h0
    rw [hwq] at lq
    have e0 : wq' = [] := (hC q q' [] wq' hq hq' lq lq' ⟨wq', rfl⟩).symm
    rw [eu', e0]
    first | rfl | skip
  refine ⟨fun hp => ?_, fun hp => ?_⟩
  · have hv0 : v = [] := by
      cases hc : v with
      | nil => rfl
      | cons x t =>
        have ⟨s, hs⟩ := hp
        rw [hc] at hs
        exact False.elim (cross x (by rw [hc]; exact Mem.head _) (by rw [hs, List.cons_append]; exact Mem.head _))
    rw [hv0, emptyBoth v v' fL fR p p' w w' hpC hpC' hl hl' hw hw' hv0]
  · have hv0 : v' = [] := by
      cases hc : v' with
      | nil => rfl
      | cons x t =>
        have ⟨s, hs⟩ := hp
        rw [hc] at hs
        exact False.elim (cross x (by rw [hs, List.cons_append]; exact Mem.head _) (by rw [hc]; exact Mem.head _))
    rw [hv0, emptyBoth v' v fR fL p' p w' w hpC' hpC hl' hl hw' hw hv0]

/-- Lemma 1 (IV-A): if no complete sequence of a derived instance properly extends another, then after
any raw prefix `r`, among the outcomes `r` begins (the retained ones, whose residual pomsets `p_o/r` make
up `𝒞/r`) no complete sequence properly extends another, and one retained residual pomset is empty
(its only linearization is `ε`) only if every one is. -/
theorem residualDefined (θ : Theta)
    (hCL : ∀ o o' v v', θ.O o → θ.O o' → Lin (θ.pom o) v → Lin (θ.pom o') v' → IsPrefix v v' → v = v')
    (r : List Nat) :
    (∀ o o' v v', (θ.O o ∧ ∃ w, Lin (θ.pom o) (r ++ w)) → (θ.O o' ∧ ∃ w, Lin (θ.pom o') (r ++ w)) →
      Lin ((θ.pom o).residual r) v → Lin ((θ.pom o').residual r) v' → IsPrefix v v' → v = v') ∧
    (∀ o o', (θ.O o ∧ ∃ w, Lin (θ.pom o) (r ++ w)) → (θ.O o' ∧ ∃ w, Lin (θ.pom o') (r ++ w)) →
      Lin ((θ.pom o).residual r) [] → Lin ((θ.pom o').residual r) []) := by
  have part1 : ∀ o o' v v', (θ.O o ∧ ∃ w, Lin (θ.pom o) (r ++ w)) → (θ.O o' ∧ ∃ w, Lin (θ.pom o') (r ++ w)) →
      Lin ((θ.pom o).residual r) v → Lin ((θ.pom o').residual r) v' → IsPrefix v v' → v = v' := by
    intro o o' v v' ho ho' hv hv' hp
    have ⟨hO, w0, hw0⟩ := ho
    have ⟨hO', w0', hw0'⟩ := ho'
    have h1 := (linResidualIff hw0 v).1 hv
    have h2 := (linResidualIff hw0' v').1 hv'
    have ⟨t, ht⟩ := hp
    have hp' : IsPrefix (r ++ v) (r ++ v') := ⟨t, by rw [ht, List.append_assoc]⟩
    exact appendLeftCancel (hCL o o' _ _ hO hO' h1 h2 hp')
  refine ⟨part1, fun o o' hr hr' h0 => ?_⟩
  have ⟨_, w0', hw0'⟩ := hr'
  have hl := linResidualOf hw0'
  have e := part1 o o' [] w0' hr hr' h0 hl ⟨w0', rfl⟩
  rw [e]
  exact hl

end AgentWarrant.Edits
