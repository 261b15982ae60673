import AgentWarrant.Spec.Edits.Residual
import AgentWarrant.Thm.Edits.Recheck
import AgentWarrant.Thm.Edits.Resolve
/-! The recheck lemma with the residual contract (*When Can Agents Safely Checkpoint, Fork, Restore, and
Merge?*, Section V-C4, Appendix A-D3): for `z ∈ W†`,

    B̂†(𝒞/raw z, Δ_z) = B̂†(𝒞, Δ)/z   and   W†(𝒞/raw z, Δ_z) = W†(𝒞, Δ)/z.

`Thm/Edits/Recheck.lean` proves the quotient form for the candidate space after `z`. This file
proves that this space is the residual contract's (`Theta.after`): its policy half by `allowedAfter`,
its workflow half here — for an outcome still compatible with `z`, the linearizations of the
residual pomset `p_o/raw z` resolved under `Δ_z` are exactly the words `y` with `z·y ∈ R_o`
(`afterR`, through `resolveAppend` and `linResidualIff`). -/
namespace AgentWarrant.Edits
open AgentWarrant

theorem memNIff (d : Nat) (D : List Nat) : memN d D = true ↔ d ∈ D :=
  ⟨fun h => have ⟨y, hy, hb⟩ := anyBElim h; by rw [← Nat.eqOfBeqEqTrue hb]; exact hy,
   fun h => anyBIntro h (beqSelf d)⟩

theorem memNFalseIff (d : Nat) (D : List Nat) : memN d D = false ↔ ¬ d ∈ D := by
  cases h : memN d D with
  | true => exact ⟨fun e => absurd e (by decide), fun hn => absurd ((memNIff d D).1 h) hn⟩
  | false => exact ⟨fun _ hd => absurd ((memNIff d D).2 hd) (by rw [h]; decide), fun _ => rfl⟩

theorem notFalse {b : Bool} (h : (!b) = true) : b = false := by
  cases b with
  | true => exact absurd h (by decide)
  | false => rfl

theorem andNot : ∀ {x y : Bool}, (!x && !y) = true → x = false ∧ y = false
  | false, false, _ => ⟨rfl, rfl⟩
  | false, true, h => absurd h (by decide)
  | true, false, h => absurd h (by decide)
  | true, true, h => absurd h (by decide)

theorem memConsIff {D D' : List Nat} (h : ∀ d, d ∈ D ↔ d ∈ D') (a d : Nat) : d ∈ a :: D ↔ d ∈ a :: D' := by
  constructor
  · intro hd
    cases memCons hd with
    | inl e => rw [e]; exact Mem.head _
    | inr h' => exact Mem.tail _ ((h d).1 h')
  · intro hd
    cases memCons hd with
    | inl e => rw [e]; exact Mem.head _
    | inr h' => exact Mem.tail _ ((h d).2 h')

/-- `Resolve` reads the record set only through membership. -/
theorem resolveCongr (act : List Nat) : ∀ (w D D' : List Nat), (∀ d, d ∈ D ↔ d ∈ D') →
    resolve act D w = resolve act D' w
  | [], _, _, _ => rfl
  | x :: w, D, D', h => by
    cases h2 : memN (nth act x) D with
    | true =>
      have h3 : memN (nth act x) D' = true := (memNIff _ D').2 ((h _).1 ((memNIff _ D).1 h2))
      simp [resolve, h2, h3]
      exact resolveCongr act w D D' h
    | false =>
      have h3 : memN (nth act x) D' = false :=
        (memNFalseIff _ D').2 (fun hd => (memNFalseIff _ D).1 h2 ((h _).2 hd))
      simp [resolve, h2, h3]
      exact resolveCongr act w _ _ (memConsIff h _)

theorem memSwap {a d : Nat} {D X : List Nat} : d ∈ (a :: D) ++ X ↔ d ∈ D ++ (a :: X) := by
  rw [List.cons_append]
  constructor
  · intro hd
    cases memCons hd with
    | inl e => rw [e]; exact appendMemR D (Mem.head _)
    | inr h' => cases memAppend h' with
      | inl h1 => exact appendMemL _ h1
      | inr h2 => exact appendMemR D (Mem.tail _ h2)
  · intro hd
    cases memAppend hd with
    | inl h1 => exact Mem.tail _ (appendMemL _ h1)
    | inr h2 => cases memCons h2 with
      | inl e => rw [e]; exact Mem.head _
      | inr h3 => exact Mem.tail _ (appendMemR D h3)

/-- `Δ_z` as the checker extends it has the members of `Δ·auth(z)`. -/
theorem extendMem : ∀ (z : Word) (D : List Nat) (d : Nat), d ∈ extend D z ↔ d ∈ D ++ auth z
  | [], D, d => by rw [show auth [] = [] from rfl, List.append_nil]; exact Iff.rfl
  | l :: z, D, d => by
    cases hl : l.new with
    | true =>
      have e1 : extend D (l :: z) = extend (l.action :: D) z := by simp [extend, hl]
      have e2 : auth (l :: z) = l.action :: auth z := by simp [auth, hl]
      rw [e1, e2, extendMem z (l.action :: D) d]
      exact memSwap
    | false =>
      have e1 : extend D (l :: z) = extend D z := by simp [extend, hl]
      have e2 : auth (l :: z) = auth z := by simp [auth, hl]
      rw [e1, e2]
      exact extendMem z D d

theorem rawAppend : ∀ (a b : Word), raw (a ++ b) = raw a ++ raw b
  | [], b => rfl
  | l :: a, b => by
    rw [List.cons_append]
    show l.call :: raw (a ++ b) = (l.call :: raw a) ++ raw b
    rw [rawAppend a b, List.cons_append]

theorem rawLength : ∀ (z : Word), List.length (raw z) = List.length z
  | [] => rfl
  | l :: z => by
    rw [show raw (l :: z) = l.call :: raw z from rfl, List.length_cons, List.length_cons, rawLength z]

theorem appendCancelLen : ∀ (a c b d : List α), a ++ b = c ++ d → List.length a = List.length c → a = c ∧ b = d
  | [], [], b, d, h, _ => ⟨rfl, h⟩
  | [], x :: c, b, d, _, hl => by rw [List.length_cons] at hl; exact Nat.noConfusion hl
  | x :: a, [], b, d, _, hl => by rw [List.length_cons] at hl; exact Nat.noConfusion hl
  | x :: a, y :: c, b, d, h, hl => by
    rw [List.length_cons, List.length_cons] at hl
    rw [List.cons_append, List.cons_append] at h
    have ⟨e1, e2⟩ := List.cons.inj h
    have ⟨e3, e4⟩ := appendCancelLen a c b d e2 (Nat.succ.inj hl)
    rw [e1, e3]
    exact ⟨rfl, e4⟩

theorem appendLeftCancel {z y y' : List α} (h : z ++ y = z ++ y') : y = y' :=
  (appendCancelLen z z y y' h rfl).2

-- Duplicate-freedom and order in appended words ----------------------------------------------------

theorem nodupAppend : ∀ {a b : List Nat}, Nodup (a ++ b) → Nodup a ∧ Nodup b ∧ ∀ x, x ∈ a → ¬ x ∈ b
  | [], b, h => ⟨trivial, h, fun x hx => absurd hx notMemNil⟩
  | c :: a, b, h => by
    rw [List.cons_append] at h
    have ⟨hc, h'⟩ := h
    have ⟨ha, hb, hd⟩ := nodupAppend h'
    refine ⟨⟨fun hm => hc (appendMemL b hm), ha⟩, hb, fun x hx hxb => ?_⟩
    cases memCons hx with
    | inl e => rw [e] at hxb; exact hc (appendMemR a hxb)
    | inr h2 => exact hd x h2 hxb

theorem nodupAppendIntro : ∀ {a b : List Nat}, Nodup a → Nodup b → (∀ x, x ∈ a → ¬ x ∈ b) → Nodup (a ++ b)
  | [], b, _, hb, _ => hb
  | c :: a, b, ⟨hc, ha⟩, hb, hd => by
    rw [List.cons_append]
    refine ⟨fun hm => ?_, nodupAppendIntro ha hb (fun x hx => hd x (Mem.tail _ hx))⟩
    cases memAppend hm with
    | inl h1 => exact hc h1
    | inr h2 => exact hd c (Mem.head _) h2

theorem memSplit {a : Nat} : ∀ {r : List Nat}, a ∈ r → ∃ u v, r = u ++ a :: v
  | _, Mem.head as => ⟨[], as, rfl⟩
  | _, Mem.tail b h => have ⟨u, v, e⟩ := memSplit h; ⟨b :: u, v, by rw [e, List.cons_append]⟩

theorem beforeMem {w : List Nat} {a b : Nat} (h : Before w a b) : a ∈ w ∧ b ∈ w :=
  have ⟨u, v, e, hb⟩ := h
  ⟨by rw [e]; exact appendMemR u (Mem.head _), by rw [e]; exact appendMemR u (Mem.tail _ hb)⟩

theorem beforeL {r s : List Nat} {a b : Nat} (h : Before r a b) : Before (r ++ s) a b :=
  have ⟨u, v, e, hb⟩ := h
  ⟨u, v ++ s, by rw [e, List.append_assoc, List.cons_append], appendMemL s hb⟩

theorem beforeR {r w : List Nat} {a b : Nat} (h : Before w a b) : Before (r ++ w) a b :=
  have ⟨u, v, e, hb⟩ := h
  ⟨r ++ u, v, by rw [e, List.append_assoc], hb⟩

theorem beforeMid {r w : List Nat} {a b : Nat} (ha : a ∈ r) (hb : b ∈ w) : Before (r ++ w) a b :=
  have ⟨u, v, e⟩ := memSplit ha
  ⟨u, v ++ w, by rw [e, List.append_assoc, List.cons_append], appendMemR v hb⟩

theorem beforeDropL {a b : Nat} {w : List Nat} : ∀ {r : List Nat}, Before (r ++ w) a b → ¬ a ∈ r → Before w a b
  | [], h, _ => h
  | c :: r, ⟨u, v, e, hb⟩, ha => by
    rw [List.cons_append] at e
    cases u with
    | nil =>
      have ⟨e1, _⟩ := List.cons.inj e
      exact absurd (by rw [e1]; exact Mem.head _) ha
    | cons c' u' =>
      rw [List.cons_append] at e
      have ⟨_, e2⟩ := List.cons.inj e
      exact beforeDropL ⟨u', v, e2, hb⟩ (fun h => ha (Mem.tail _ h))

theorem beforeInPrefix {a b : Nat} {w : List Nat} : ∀ {r : List Nat}, Nodup (r ++ w) → Before (r ++ w) a b →
    b ∈ r → Before r a b
  | [], _, _, hb => absurd hb notMemNil
  | c :: r, hnd, ⟨u, v, e, hbv⟩, hb => by
    rw [List.cons_append] at hnd e
    have ⟨hc, hnd'⟩ := hnd
    cases u with
    | nil =>
      rw [List.nil_append] at e
      have ⟨e1, e2⟩ := List.cons.inj e
      cases memCons hb with
      | inl hbc => rw [hbc, ← e2] at hbv; exact absurd hbv hc
      | inr hbr => exact ⟨[], r, by rw [e1]; rfl, hbr⟩
    | cons c' u' =>
      rw [List.cons_append] at e
      have ⟨_, e2⟩ := List.cons.inj e
      cases memCons hb with
      | inl hbc =>
        have hin : b ∈ r ++ w := by rw [e2]; exact appendMemR u' (Mem.tail _ hbv)
        rw [hbc] at hin
        exact absurd hin hc
      | inr hbr =>
        have ⟨u'', v', er, hb''⟩ := beforeInPrefix hnd' ⟨u', v, e2, hbv⟩ hbr
        exact ⟨c :: u'', v', by rw [er, List.cons_append], hb''⟩

-- Linearizations of the residual pomset -------------------------------------------------------------

theorem linResidualOf {p : Pomset} {r w : List Nat} (h : Lin p (r ++ w)) : Lin (p.residual r) w := by
  have ⟨hnd, hmem, hord⟩ := h
  have ⟨_, hndw, hdis⟩ := nodupAppend hnd
  refine ⟨hndw, fun x => ⟨fun hx => ?_, fun hx => ?_⟩, fun a b hab => ?_⟩
  · have hf : memN x r = false := (memNFalseIff x r).2 (fun hr => hdis x hr hx)
    exact filtMem ((hmem x).1 (appendMemR r hx)) (by rw [hf]; rfl)
  · have ⟨he, hp⟩ := memFilt hx
    cases memAppend ((hmem x).2 he) with
    | inl h1 => exact absurd h1 ((memNFalseIff x r).1 (notFalse hp))
    | inr h2 => exact h2
  · have ⟨hab', hp⟩ := memFilt hab
    exact beforeDropL (hord a b hab') ((memNFalseIff a r).1 (andNot hp).1)

theorem linOfResidual {p : Pomset} {r w₀ w : List Nat} (h₀ : Lin p (r ++ w₀)) (h : Lin (p.residual r) w) :
    Lin p (r ++ w) := by
  have ⟨hnd0, hmem0, hord0⟩ := h₀
  have ⟨hndw, hmemw, hordw⟩ := h
  have notInR : ∀ x, x ∈ w → ¬ x ∈ r := fun x hx =>
    (memNFalseIff x r).1 (notFalse (memFilt ((hmemw x).1 hx)).2)
  have inW : ∀ x, x ∈ p.events → memN x r = false → x ∈ w := fun x he hf =>
    (hmemw x).2 (filtMem he (by rw [hf]; rfl))
  refine ⟨nodupAppendIntro (nodupAppend hnd0).1 hndw (fun x hx hw => notInR x hw hx),
    fun x => ⟨fun hx => ?_, fun he => ?_⟩, fun a b hab => ?_⟩
  · cases memAppend hx with
    | inl h1 => exact (hmem0 x).1 (appendMemL w₀ h1)
    | inr h2 => exact (memFilt ((hmemw x).1 h2)).1
  · cases hm : memN x r with
    | true => exact appendMemL w ((memNIff x r).1 hm)
    | false => exact appendMemR r (inW x he hm)
  · have hb0 := hord0 a b hab
    cases hb : memN b r with
    | true => exact beforeL (beforeInPrefix hnd0 hb0 ((memNIff b r).1 hb))
    | false =>
      cases ha : memN a r with
      | true => exact beforeMid ((memNIff a r).1 ha) (inW b ((hmem0 b).1 (beforeMem hb0).2) hb)
      | false => exact beforeR (hordw a b (filtMem hab (by rw [ha, hb]; rfl)))

/-- For a prefix `r` of a linearization of `p`: `Lin(p/r) = {w | r·w ∈ Lin(p)}`. -/
theorem linResidualIff {p : Pomset} {r w₀ : List Nat} (h₀ : Lin p (r ++ w₀)) (w : List Nat) :
    Lin (p.residual r) w ↔ Lin p (r ++ w) :=
  ⟨linOfResidual h₀, linResidualOf⟩

-- The residual contract's candidate space -----------------------------------------------------------

/-- The workflow half: for an outcome still compatible with `z`, the residual pomset's
linearizations resolved under `Δ_z` are the continuations of `z` in `R_o`. -/
theorem afterR (θ : Theta) (z : Word) (o : Nat) (ho : θ.Compat z o) (y : Word) :
    (θ.after z).R o y ↔ θ.R o (z ++ y) := by
  have ⟨_, y0, ⟨w0, hlin0, hy0⟩, ⟨s, hs⟩⟩ := ho
  have hw0 : w0 = raw z ++ raw s := by rw [← rawAppend, ← hs, hy0, resolveRaw]
  rw [hw0] at hlin0 hy0
  have hres := resolveAppend θ.act θ.log (raw z) (raw s)
  rw [← hy0, hs] at hres
  have hlen : List.length (resolve θ.act θ.log (raw z)) = List.length z := by
    rw [resolveLength, rawLength]
  have hzr : resolve θ.act θ.log (raw z) = z := ((appendCancelLen _ _ _ _ hres.symm hlen)).1
  have key : ∀ w', resolve θ.act θ.log (raw z ++ w') = z ++ resolve θ.act (θ.log ++ auth z) w' := by
    intro w'
    rw [resolveAppend, hzr, resolveCongr θ.act w' _ _ (extendMem z θ.log)]
  constructor
  · intro ⟨w', hl, hy⟩
    exact ⟨raw z ++ w', linOfResidual hlin0 hl, by rw [key, hy]; rfl⟩
  · intro ⟨w, hl, hw⟩
    have hwr : w = raw z ++ raw y := by rw [← rawAppend, hw, resolveRaw]
    rw [hwr] at hl hw
    rw [key] at hw
    exact ⟨raw y, linResidualOf hl, appendLeftCancel hw⟩

namespace Space

theorem bdagTransfer {sp sp' : Space} (hO : ∀ o, sp.O o → sp'.O o) (hO' : ∀ o, sp'.O o → sp.O o)
    (hR : ∀ o y, sp.O o → sp.R o y → sp'.R o y) (hR' : ∀ o y, sp'.O o → sp'.R o y → sp.R o y)
    (hA : ∀ y, sp.Allowed y → sp'.Allowed y) (c : CandP) (h : sp.Bdag c) : sp'.Bdag c := by
  have ⟨S, h0, hk, hc⟩ := h
  refine ⟨S, fun d hd => ?_, fun d hd z o hz ho => ?_, hc⟩
  · have ⟨hO1, hR1, hA1⟩ := h0 d hd
    exact ⟨hO _ hO1, hR _ _ hO1 hR1, hA _ hA1⟩
  · have ⟨hO1, y, hR1, hp⟩ := ho
    exact hk d hd z o hz ⟨hO' _ hO1, y, hR' _ _ hO1 hR1, hp⟩

end Space

/-- The recheck lemma: for `z ∈ W†`, the residual contract `𝒞/raw z` under `Δ_z` has
`B̂† = B̂†/z` and `W† = W†/z`. -/
theorem recheckContract (θ : Theta) (z : Word) (hz : θ.Wdag z) :
    (∀ o y, (θ.after z).Bdag (o, y) ↔ θ.Bdag (o, z ++ y)) ∧
    (∀ v, (θ.after z).Wdag v ↔ θ.Wdag (z ++ v)) := by
  have hsp : ∀ c, (θ.after z).space.Bdag c ↔ (θ.space.after z).Bdag c := fun c =>
    ⟨Space.bdagTransfer (sp := (θ.after z).space) (sp' := θ.space.after z) (fun _ h => h) (fun _ h => h) (fun o y ho h => (afterR θ z o ho y).1 h)
        (fun o y ho h => (afterR θ z o ho y).2 h) (fun y h => (allowedAfter θ z y).1 h) c,
     Space.bdagTransfer (sp := θ.space.after z) (sp' := (θ.after z).space) (fun _ h => h) (fun _ h => h) (fun o y ho h => (afterR θ z o ho y).2 h)
        (fun o y ho h => (afterR θ z o ho y).1 h) (fun y h => (allowedAfter θ z y).2 h) c⟩
  have ⟨hB, hW⟩ := Space.recheck (sp := θ.space) z hz
  have hB' : ∀ o y, (θ.after z).Bdag (o, y) ↔ θ.Bdag (o, z ++ y) := fun o y =>
    ⟨fun h => (hB o y).1 ((hsp (o, y)).1 h), fun h => (hsp (o, y)).2 ((hB o y).2 h)⟩
  refine ⟨hB', fun v => ⟨fun ⟨o, y, hb, hp⟩ => ?_, fun h => ?_⟩⟩
  · exact (hW v).1 ⟨o, y, (hsp (o, y)).1 hb, hp⟩
  · have ⟨o, y, hb, hp⟩ := (hW v).2 h
    exact ⟨o, y, (hsp (o, y)).2 hb, hp⟩

end AgentWarrant.Edits
