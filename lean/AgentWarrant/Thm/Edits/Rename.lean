import AgentWarrant.Spec.Edits.Rename
import AgentWarrant.Thm.Edits.Information
import AgentWarrant.Thm.Edits.Resolve
/-! Renaming and exactness up to renaming (*When Can Agents Safely Checkpoint, Fork, Restore, and
Merge?*, Appendix A-F: Lemma 11, Lemma 12, Theorem 4 with views and answers compared by `≅`).

- the finite checker is equivariant: renaming a fitting instance renames its largest safe set
  (`safeSetRen`), so `Ans(π V, π q) = π Ans(V, q)` (`ansRen`);
- Lemma 11: consistent renaming commutes with `Keep_J` and `Drop_ca` (`keepJRen`, `dropCARen`);
- Lemma 12 up to renaming (`exactRSeparates`), Theorem 4 up to renaming (`keepExactRIff`), and
  `Drop_ca`, `Drop_ra` inexact up to renaming (`dropCAInexactR`, `dropRAInexactR`). -/
namespace AgentWarrant.Edits
open AgentWarrant

/-! ### Bijections and lists indexed by identifiers -/

theorem Perm.fInj (p : Perm) {x y : Nat} (h : p.f x = p.f y) : x = y := by
  rw [← p.gf x, ← p.gf y, h]

theorem permOnId (n : Nat) : PermOn Perm.id n := ⟨fun _ h => h, fun _ h => h⟩

theorem permOnOut {p : Perm} {n x : Nat} (hp : PermOn p n) (hx : ¬ x < n) : ¬ p.f x < n :=
  fun h => hx (by have h' := hp.2 _ h; rw [p.gf] at h'; exact h')

theorem leOfNotLt {x n : Nat} (h : ¬ x < n) : n ≤ x := by
  cases Nat.ltOrGe x n with
  | inl h' => exact absurd h' h
  | inr h' => exact h'

theorem nthOut : ∀ (l : List Nat) (j : Nat), List.length l ≤ j → nth l j = 0
  | [], _, _ => rfl
  | _ :: _, 0, h => by rw [List.length_cons] at h; exact absurd h (Nat.notSuccLeZero _)
  | _ :: l, j + 1, h => by rw [List.length_cons] at h; exact nthOut l j (Nat.leOfSuccLeSucc h)

theorem lengthMapUpto (F : Nat → Nat) : ∀ (k n : Nat), List.length (List.map F (upto k n)) = n
  | _, 0 => rfl
  | k, n + 1 => by
    rw [show List.map F (upto k (n + 1)) = F k :: List.map F (upto (k + 1) n) from rfl, List.length_cons,
      lengthMapUpto F (k + 1) n]

theorem nthMapUpto (F : Nat → Nat) : ∀ (k n j : Nat), j < n → nth (List.map F (upto k n)) j = F (k + j)
  | _, 0, _, h => absurd h (Nat.notLtZero _)
  | _, _ + 1, 0, _ => rfl
  | k, n + 1, j + 1, h => by
    show nth (List.map F (upto (k + 1) n)) j = F (k + (j + 1))
    rw [nthMapUpto F (k + 1) n j (Nat.lt_of_succ_lt_succ h), Nat.succ_add]
    rfl

theorem listExt : ∀ (l₁ l₂ : List Nat), List.length l₁ = List.length l₂ → (∀ j, nth l₁ j = nth l₂ j) → l₁ = l₂
  | [], [], _, _ => rfl
  | [], _ :: _, h, _ => by rw [List.length_cons] at h; exact Nat.noConfusion h
  | _ :: _, [], h, _ => by rw [List.length_cons] at h; exact Nat.noConfusion h
  | a :: l₁, b :: l₂, hl, h => by
    rw [List.length_cons, List.length_cons] at hl
    have e : a = b := h 0
    have t : ∀ j, nth l₁ j = nth l₂ j := fun j => by
      have hj := h (j + 1)
      simp only [nth] at hj
      exact hj
    rw [e, listExt l₁ l₂ (Nat.succ.inj hl) t]

theorem lengthReindex (p : Perm) (h : Nat → Nat) (m : List Nat) :
    List.length (reindex p h m) = List.length m :=
  lengthMapUpto _ 0 _

/-- Entry `p x` of the reindexed map is `h` of entry `x`, for every `x`. -/
theorem reindexNth (p : Perm) (h : Nat → Nat) (h0 : h 0 = 0) (m : List Nat)
    (hp : PermOn p (List.length m)) (x : Nat) : nth (reindex p h m) (p.f x) = h (nth m x) := by
  cases (inferInstance : Decidable (x < List.length m)) with
  | isTrue hx =>
    show nth (List.map _ (upto 0 (List.length m))) (p.f x) = _
    rw [nthMapUpto _ 0 _ _ (hp.1 x hx), Nat.zero_add, p.gf]
  | isFalse hx =>
    rw [nthOut _ _ (by rw [lengthReindex]; exact leOfNotLt (permOnOut hp hx)), nthOut m x (leOfNotLt hx), h0]

theorem reindexNthG (p : Perm) (h : Nat → Nat) (h0 : h 0 = 0) (m : List Nat)
    (hp : PermOn p (List.length m)) (j : Nat) : nth (reindex p h m) j = h (nth m (p.g j)) := by
  have e := reindexNth p h h0 m hp (p.g j)
  rw [p.fg] at e
  exact e

theorem reindexId (m : List Nat) : reindex Perm.id (fun d => d) m = m :=
  listExt _ _ (lengthReindex _ _ _) (fun j => reindexNthG Perm.id (fun d => d) rfl m (permOnId _) j)

theorem reindexInj (p : Perm) {h : Nat → Nat} (h0 : h 0 = 0) (hinj : ∀ a b, h a = h b → a = b)
    {m₁ m₂ : List Nat} (hp₁ : PermOn p (List.length m₁)) (hp₂ : PermOn p (List.length m₂))
    (e : reindex p h m₁ = reindex p h m₂) : m₁ = m₂ := by
  have hl : List.length m₁ = List.length m₂ := by
    rw [← lengthReindex p h m₁, ← lengthReindex p h m₂, e]
  refine listExt _ _ hl (fun j => hinj _ _ ?_)
  rw [← reindexNth p h h0 m₁ hp₁ j, ← reindexNth p h h0 m₂ hp₂ j, e]

/-! ### Generic list facts -/

theorem renMapInj {f : α → β} (hf : ∀ a b, f a = f b → a = b) : ∀ {l₁ l₂ : List α},
    List.map f l₁ = List.map f l₂ → l₁ = l₂
  | [], [], _ => rfl
  | [], _ :: _, h => List.noConfusion h
  | _ :: _, [], h => List.noConfusion h
  | a :: l₁, b :: l₂, h => by
    have ⟨e1, e2⟩ := List.cons.inj h
    rw [hf a b e1, renMapInj hf e2]

theorem mapId : ∀ (l : List α), List.map (fun x => x) l = l
  | [] => rfl
  | a :: l => by show a :: List.map _ l = a :: l; rw [mapId l]

theorem mapCongr {f g : α → β} (h : ∀ x, f x = g x) : ∀ (l : List α), List.map f l = List.map g l
  | [] => rfl
  | a :: l => by show f a :: List.map f l = g a :: List.map g l; rw [h a, mapCongr h l]

theorem mapMap (f : α → β) (g : β → γ) : ∀ (l : List α), List.map g (List.map f l) = List.map (fun x => g (f x)) l
  | [] => rfl
  | a :: l => by show g (f a) :: _ = g (f a) :: _; rw [mapMap f g l]

theorem lengthMap (f : α → β) : ∀ (l : List α), List.length (List.map f l) = List.length l
  | [] => rfl
  | a :: l => by
    rw [show List.map f (a :: l) = f a :: List.map f l from rfl, List.length_cons, List.length_cons, lengthMap f l]

theorem anyBMap (p : β → Bool) (f : α → β) : ∀ (l : List α), anyB p (List.map f l) = anyB (fun x => p (f x)) l
  | [] => rfl
  | a :: l => by
    show (match p (f a) with | true => true | false => anyB p (List.map f l)) =
      (match p (f a) with | true => true | false => anyB (fun x => p (f x)) l)
    rw [anyBMap p f l]

theorem allBMap (p : β → Bool) (f : α → β) : ∀ (l : List α), allB p (List.map f l) = allB (fun x => p (f x)) l
  | [] => rfl
  | a :: l => by
    show (match p (f a) with | true => allB p (List.map f l) | false => false) =
      (match p (f a) with | true => allB (fun x => p (f x)) l | false => false)
    rw [allBMap p f l]

theorem filtMap (p : β → Bool) (f : α → β) : ∀ (l : List α),
    filt p (List.map f l) = List.map f (filt (fun x => p (f x)) l)
  | [] => rfl
  | a :: l => by
    show (match p (f a) with | true => f a :: filt p (List.map f l) | false => filt p (List.map f l)) =
      List.map f (match p (f a) with | true => a :: filt (fun x => p (f x)) l | false => filt (fun x => p (f x)) l)
    cases p (f a) with
    | true => show f a :: _ = f a :: _; rw [filtMap p f l]
    | false => exact filtMap p f l

theorem concatMap (f : α → β) : ∀ (ls : List (List α)),
    concatL (List.map (List.map f) ls) = List.map f (concatL ls)
  | [] => rfl
  | l :: ls => by
    show List.map f l ++ concatL (List.map (List.map f) ls) = List.map f (l ++ concatL ls)
    rw [concatMap f ls]
    induction l with
    | nil => rfl
    | cons a l ih =>
      rw [List.cons_append]
      show f a :: List.map f l ++ List.map f (concatL ls) = f a :: List.map f (l ++ concatL ls)
      rw [List.cons_append, ih]

/-! ### The checker is equivariant -/

/-- `π` fits an instance: the I lists' index sets are preserved and action 0 is fixed. -/
def FitsInst (π : Ren) (i : Inst) : Prop :=
  PermOn π.call (List.length i.act) ∧ PermOn π.act (List.length i.lab) ∧ π.act.f 0 = 0

section
variable {π : Ren}

theorem beqRen (p : Perm) (y d : Nat) : Nat.beq (p.f y) (p.f d) = Nat.beq y d := by
  cases h : Nat.beq y d with
  | true => rw [Nat.eqOfBeqEqTrue h, beqSelf]
  | false =>
    cases h' : Nat.beq (p.f y) (p.f d) with
    | true => exact absurd (p.fInj (Nat.eqOfBeqEqTrue h')) (Nat.neOfBeqEqFalse h)
    | false => rfl

theorem memNRen (p : Perm) (d : Nat) (D : List Nat) : memN (p.f d) (List.map p.f D) = memN d D := by
  show anyB (fun y => Nat.beq y (p.f d)) (List.map p.f D) = anyB (fun y => Nat.beq y d) D
  rw [anyBMap]
  exact congrArg (fun q => anyB q D) (funext (fun y => beqRen p y d))

theorem resolveRen {act act' : List Nat} (HA : ∀ x, nth act' (π.call.f x) = π.act.f (nth act x)) :
    ∀ (w D : List Nat), resolve act' (List.map π.act.f D) (List.map π.call.f w) = renWord π (resolve act D w)
  | [], _ => rfl
  | x :: w, D => by
    show (match memN (nth act' (π.call.f x)) (List.map π.act.f D) with
      | true => ⟨π.call.f x, nth act' (π.call.f x), false⟩ :: resolve act' (List.map π.act.f D) (List.map π.call.f w)
      | false => ⟨π.call.f x, nth act' (π.call.f x), true⟩ ::
          resolve act' (nth act' (π.call.f x) :: List.map π.act.f D) (List.map π.call.f w)) =
      renWord π (match memN (nth act x) D with
      | true => ⟨x, nth act x, false⟩ :: resolve act D w
      | false => ⟨x, nth act x, true⟩ :: resolve act (nth act x :: D) w)
    rw [HA x, memNRen]
    cases memN (nth act x) D with
    | true => show _ :: _ = renLetter π _ :: renWord π _; rw [resolveRen HA w D]; rfl
    | false =>
      show _ :: _ = renLetter π _ :: renWord π _
      rw [show π.act.f (nth act x) :: List.map π.act.f D = List.map π.act.f (nth act x :: D) from rfl,
        resolveRen HA w]
      rfl

theorem labelsRen {lab lab' : List Nat} (HL : ∀ d, nth lab' (π.act.f d) = nth lab d) :
    ∀ (ds : List Nat), labels lab' (List.map π.act.f ds) = labels lab ds
  | [] => rfl
  | d :: ds => by
    show nth lab' (π.act.f d) :: labels lab' (List.map π.act.f ds) = nth lab d :: labels lab ds
    rw [HL d, labelsRen HL ds]

theorem authRen : ∀ (z : Word), auth (renWord π z) = List.map π.act.f (auth z)
  | [] => rfl
  | l :: z => by
    show (match l.new with
      | true => π.act.f l.action :: auth (renWord π z)
      | false => auth (renWord π z)) = List.map π.act.f (match l.new with
      | true => l.action :: auth z
      | false => auth z)
    cases l.new with
    | true => show _ :: _ = _ :: _; rw [authRen z]
    | false => exact authRen z

theorem renLetterInj : ∀ {a b : Letter}, renLetter π a = renLetter π b → a = b
  | ⟨c, d, n⟩, ⟨c', d', n'⟩, e => by
    have e1 : π.call.f c = π.call.f c' := congrArg Letter.call e
    have e2 : π.act.f d = π.act.f d' := congrArg Letter.action e
    have e3 : n = n' := congrArg Letter.new e
    rw [π.call.fInj e1, π.act.fInj e2, e3]

theorem isPrefixBRen : ∀ (z w : Word), isPrefixB (renWord π z) (renWord π w) = isPrefixB z w
  | [], _ => rfl
  | _ :: _, [] => rfl
  | a :: z, b :: w => by
    show (match decide (renLetter π a = renLetter π b) with
      | true => isPrefixB (renWord π z) (renWord π w)
      | false => false) = (match decide (a = b) with
      | true => isPrefixB z w
      | false => false)
    have hd : decide (renLetter π a = renLetter π b) = decide (a = b) := by
      cases (inferInstance : Decidable (a = b)) with
      | isTrue h =>
        rw [decideEqTrue h, decideEqTrue (congrArg (renLetter π) h)]
      | isFalse h =>
        rw [decideEqFalse h, decideEqFalse (fun e => h (renLetterInj e))]
    rw [hd, isPrefixBRen z w]

theorem prefixesRen : ∀ (w : Word), prefixes (renWord π w) = List.map (renWord π) (prefixes w)
  | [] => rfl
  | a :: w => by
    show [] :: List.map (fun z => renLetter π a :: z) (prefixes (renWord π w)) =
      [] :: List.map (renWord π) (List.map (fun z => a :: z) (prefixes w))
    rw [prefixesRen w, mapMap, mapMap]
    rfl

variable {i : Inst}

theorem resolvedRen (hf : FitsInst π i) (w : List Nat) :
    resolved (renInst π i) (List.map π.call.f w) = renWord π (resolved i w) :=
  resolveRen (fun x => reindexNth π.call π.act.f hf.2.2 i.act hf.1 x) w i.log

theorem admittedRen (hf : FitsInst π i) (w : List Nat) :
    admitted (renInst π i) (List.map π.call.f w) = admitted i w := by
  have HL := fun d => reindexNth π.act (fun d => d) rfl i.lab hf.2.1 d
  show inPolicy i.policy (labels (reindex π.act (fun d => d) i.lab) (List.map π.act.f i.log) ++
      labels (reindex π.act (fun d => d) i.lab) (auth (resolved (renInst π i) (List.map π.call.f w)))) =
    inPolicy i.policy (labels i.lab i.log ++ labels i.lab (auth (resolved i w)))
  rw [resolvedRen hf, authRen, labelsRen HL, labelsRen HL]

theorem candsOfRen (hf : FitsInst π i) (o : Outcome) :
    candsOf (renInst π i) (renOutcome π o) = List.map (renCand π) (candsOf i o) := by
  show List.map (fun w => (π.res.f o.id, resolved (renInst π i) w))
      (filt (admitted (renInst π i)) (List.map (List.map π.call.f) o.lins)) =
    List.map (renCand π) (List.map (fun w => (o.id, resolved i w)) (filt (admitted i) o.lins))
  rw [filtMap, mapMap, mapMap]
  have hp : (fun x => admitted (renInst π i) (List.map π.call.f x)) = admitted i :=
    funext (admittedRen hf)
  rw [hp]
  exact mapCongr (fun w => by
    show (π.res.f o.id, resolved (renInst π i) (List.map π.call.f w)) = (π.res.f o.id, renWord π (resolved i w))
    rw [resolvedRen hf]) _

theorem b0Ren (hf : FitsInst π i) : b0 (renInst π i) = List.map (renCand π) (b0 i) := by
  show concatL (List.map (candsOf (renInst π i)) (List.map (renOutcome π) i.outs)) =
    List.map (renCand π) (concatL (List.map (candsOf i) i.outs))
  rw [← concatMap, mapMap, mapMap]
  exact congrArg concatL (mapCongr (candsOfRen hf) _)

theorem compatRen (hf : FitsInst π i) (z : Word) :
    compat (renInst π i) (renWord π z) = List.map π.res.f (compat i z) := by
  show List.map Outcome.id (filt (fun o => anyB (fun w => isPrefixB (renWord π z) (resolved (renInst π i) w)) o.lins)
      (List.map (renOutcome π) i.outs)) =
    List.map π.res.f (List.map Outcome.id (filt (fun o => anyB (fun w => isPrefixB z (resolved i w)) o.lins) i.outs))
  rw [filtMap, mapMap]
  have hp : (fun x => anyB (fun w => isPrefixB (renWord π z) (resolved (renInst π i) w)) (renOutcome π x).lins) =
      (fun o => anyB (fun w => isPrefixB z (resolved i w)) o.lins) :=
    funext (fun o => by
      show anyB _ (List.map (List.map π.call.f) o.lins) = _
      rw [anyBMap]
      exact congrArg (fun q => anyB q o.lins) (funext (fun w => by
        show isPrefixB (renWord π z) (resolved (renInst π i) (List.map π.call.f w)) = _
        rw [resolvedRen hf, isPrefixBRen])))
  rw [hp, mapMap]
  rfl

theorem decideRes (a o : Nat) : decide (π.res.f a = π.res.f o) = decide (a = o) := by
  cases (inferInstance : Decidable (a = o)) with
  | isTrue h => rw [decideEqTrue h, decideEqTrue (congrArg π.res.f h)]
  | isFalse h => rw [decideEqFalse h, decideEqFalse (fun e => h (π.res.fInj e))]

theorem supportsRen (B : List Cand) (z : Word) (o : Nat) :
    supports (List.map (renCand π) B) (renWord π z) (π.res.f o) = supports B z o := by
  show anyB _ (List.map (renCand π) B) = anyB _ B
  rw [anyBMap]
  exact congrArg (fun q => anyB q B) (funext (fun c => by
    show (match decide (π.res.f c.1 = π.res.f o) with
      | true => isPrefixB (renWord π z) (renWord π c.2)
      | false => false) =
      (match decide (c.1 = o) with | true => isPrefixB z c.2 | false => false)
    rw [isPrefixBRen, decideRes]))

theorem keepRen (hf : FitsInst π i) (B : List Cand) (c : Cand) :
    keep (renInst π i) (List.map (renCand π) B) (renCand π c) = keep i B c := by
  show allB (fun z => allB (supports (List.map (renCand π) B) z) (compat (renInst π i) z)) (prefixes (renWord π c.2)) =
    allB (fun z => allB (supports B z) (compat i z)) (prefixes c.2)
  rw [prefixesRen, allBMap]
  exact congrArg (fun q => allB q (prefixes c.2)) (funext (fun z => by
    show allB (supports (List.map (renCand π) B) (renWord π z)) (compat (renInst π i) (renWord π z)) = _
    rw [compatRen hf, allBMap]
    exact congrArg (fun q => allB q (compat i z)) (funext (supportsRen B z))))

theorem phiRen (hf : FitsInst π i) (B : List Cand) :
    phi (renInst π i) (List.map (renCand π) B) = List.map (renCand π) (phi i B) := by
  show filt (keep (renInst π i) (List.map (renCand π) B)) (List.map (renCand π) B) =
    List.map (renCand π) (filt (keep i B) B)
  rw [filtMap]
  have hp : (fun x => keep (renInst π i) (List.map (renCand π) B) (renCand π x)) = keep i B :=
    funext (keepRen hf B)
  rw [hp]

theorem iterRen (hf : FitsInst π i) : ∀ (n : Nat) (B : List Cand),
    iter (renInst π i) n (List.map (renCand π) B) = List.map (renCand π) (iter i n B)
  | 0, _ => rfl
  | n + 1, B => by
    show iter (renInst π i) n (phi (renInst π i) (List.map (renCand π) B)) = List.map (renCand π) (iter i n (phi i B))
    rw [phiRen hf, iterRen hf n]

/-- The finite checker commutes with renaming: the renamed instance's largest safe set is the
renamed largest safe set. -/
theorem safeSetRen (hf : FitsInst π i) : safeSet (renInst π i) = List.map (renCand π) (safeSet i) := by
  show iter (renInst π i) (List.length (b0 (renInst π i))) (b0 (renInst π i)) =
    List.map (renCand π) (iter i (List.length (b0 i)) (b0 i))
  rw [b0Ren hf, lengthMap, iterRen hf]

end

/-! ### Records, requests and answers -/

section
variable {π : Ren}

theorem instRen (V : Record) : (renRec π V).inst = renInst π V.inst := by
  show Inst.mk (List.map (renOutcome π) V.p.outs) (reindex π.call π.act.f V.i.act) (reindex π.act (fun d => d) V.i.lab)
      (List.map AuthRec.action (List.map (renAuth π) V.e.auths)) V.e.policy =
    Inst.mk (List.map (renOutcome π) V.p.outs) (reindex π.call π.act.f V.i.act) (reindex π.act (fun d => d) V.i.lab)
      (List.map π.act.f (List.map AuthRec.action V.e.auths)) V.e.policy
  rw [mapMap, mapMap]
  rfl

theorem checkRen {V : Record} (hf : Fits π V) : check (renRec π V) = renChecked π (check V) := by
  show Checked.mk (safeSet (renRec π V).inst) (renRec π V) = Checked.mk (List.map (renCand π) (safeSet V.inst)) (renRec π V)
  rw [instRen, safeSetRen hf]

theorem renCandInj : ∀ {a b : Cand}, renCand π a = renCand π b → a = b
  | (o, w), (o', w'), e => by
    have e1 : o = o' := π.res.fInj (congrArg Prod.fst e)
    have e2 : renWord π w = renWord π w' := congrArg Prod.snd e
    rw [e1, renMapInj (fun _ _ => renLetterInj) e2]

theorem renOutcomeInj : ∀ {a b : Outcome}, renOutcome π a = renOutcome π b → a = b
  | ⟨o, ls⟩, ⟨o', ls'⟩, e => by
    have e1 : o = o' := π.res.fInj (Outcome.mk.inj e).1
    have e2 : List.map (List.map π.call.f) ls = List.map (List.map π.call.f) ls' := (Outcome.mk.inj e).2
    rw [e1, renMapInj (fun _ _ => renMapInj (fun _ _ h => π.call.fInj h)) e2]

theorem renAuthInj : ∀ {a b : AuthRec}, renAuth π a = renAuth π b → a = b
  | ⟨c, d⟩, ⟨c', d'⟩, e => by
    have e1 : π.call.f c = π.call.f c' := (AuthRec.mk.inj e).1
    have e2 : π.act.f d = π.act.f d' := (AuthRec.mk.inj e).2
    rw [π.call.fInj e1, π.act.fInj e2]

theorem renRecInj : ∀ {V₁ V₂ : Record}, Fits π V₁ → Fits π V₂ → renRec π V₁ = renRec π V₂ → V₁ = V₂
  | ⟨⟨o₁⟩, ⟨a₁, l₁⟩, ⟨r₁, p₁, q₁⟩, ⟨v₁⟩⟩, ⟨⟨o₂⟩, ⟨a₂, l₂⟩, ⟨r₂, p₂, q₂⟩, ⟨v₂⟩⟩, h₁, h₂, e => by
    have ⟨ep, ei, ee, ec⟩ := Record.mk.inj e
    have eo : o₁ = o₂ := renMapInj (fun _ _ => renOutcomeInj) (PartP.mk.inj ep)
    have ea : reindex π.call π.act.f a₁ = reindex π.call π.act.f a₂ := (PartI.mk.inj ei).1
    have el : reindex π.act (fun d => d) l₁ = reindex π.act (fun d => d) l₂ := (PartI.mk.inj ei).2
    have ea' : a₁ = a₂ := reindexInj π.call h₁.2.2 (fun _ _ h => π.act.fInj h) h₁.1 h₂.1 ea
    have el' : l₁ = l₂ := reindexInj π.act rfl (fun _ _ h => h) h₁.2.1 h₂.2.1 el
    have er : List.map (renAuth π) r₁ = List.map (renAuth π) r₂ := (PartE.mk.inj ee).1
    have ep' : p₁ = p₂ := (PartE.mk.inj ee).2.1
    have eq : List.map π.act.f q₁ = List.map π.act.f q₂ := (PartE.mk.inj ee).2.2
    have er' : r₁ = r₂ := renMapInj (fun _ _ => renAuthInj) er
    have eq' : q₁ = q₂ := renMapInj (fun _ _ h => π.act.fInj h) eq
    have ev : v₁ = v₂ := π.ver.fInj (PartC.mk.inj ec)
    rw [eo, ea', el', er', ep', eq', ev]

theorem renCheckedInj : ∀ {y₁ y₂ : Checked}, Fits π y₁.cut → Fits π y₂.cut → renChecked π y₁ = renChecked π y₂ → y₁ = y₂
  | ⟨s₁, c₁⟩, ⟨s₂, c₂⟩, h₁, h₂, e => by
    have es : List.map (renCand π) s₁ = List.map (renCand π) s₂ := (Checked.mk.inj e).1
    have ec : renRec π c₁ = renRec π c₂ := (Checked.mk.inj e).2
    have ec' : c₁ = c₂ := renRecInj (V₁ := c₁) (V₂ := c₂) h₁ h₂ ec
    rw [renMapInj (fun _ _ => renCandInj) es, ec']

/-- `Ans(π V, π q) = π Ans(V, q)` for a renaming that fits the record and the request. -/
theorem ansRen {V : Record} {q : Query} (hf : Fits π V) (hq : FitsQ π q) :
    ans (renRec π V) (renQuery π q) = renAnswer π (ans V q) := by
  cases q with
  | decide =>
    show decideAnswer (safeSet (renRec π V).inst) = renAnswer π (decideAnswer (safeSet V.inst))
    rw [instRen, safeSetRen hf]
    cases safeSet V.inst <;> rfl
  | tryUpdate y =>
    show updateAnswer (renChecked π y) (decide (renChecked π y = check (renRec π V))) =
      renAnswer π (updateAnswer y (decide (y = check V)))
    rw [checkRen hf]
    have hd : decide (renChecked π y = renChecked π (check V)) = decide (y = check V) := by
      cases (inferInstance : Decidable (y = check V)) with
      | isTrue h =>
        rw [decideEqTrue h, decideEqTrue (congrArg (renChecked π) h)]
      | isFalse h =>
        rw [decideEqFalse h, decideEqFalse (fun e => h (renCheckedInj hq hf e))]
    rw [hd]
    cases decide (y = check V) with
    | true =>
      cases y with
      | mk s c => cases s <;> rfl
    | false => rfl

/-! ### Lemma 11: renaming commutes with `Keep_J` and `Drop_ca` -/

theorem keepOptRen (b : Bool) (h : α → α) (x : α) : keepOpt b (h x) = optMap h (keepOpt b x) := by
  cases b <;> rfl

/-- Lemma 11 for `Keep_J`: `Keep_J(π V) = π Keep_J(V)`, for every renaming and record. -/
theorem keepJRen (J : Part → Bool) (V : Record) : keepJ J (renRec π V) = renView π (keepJ J V) := by
  show View.mk (keepOpt (J Part.P) (renP π V.p)) (keepOpt (J Part.I) (renI π V.i)) (keepOpt (J Part.E) (renE π V.e))
      (keepOpt (J Part.C) (renC π V.c)) = renView π (keepJ J V)
  rw [keepOptRen (J Part.P) (renP π) V.p, keepOptRen (J Part.I) (renI π) V.i, keepOptRen (J Part.E) (renE π) V.e,
    keepOptRen (J Part.C) (renC π) V.c]
  rfl

theorem lengthLabels (lab : List Nat) : ∀ (ds : List Nat), List.length (labels lab ds) = List.length ds
  | [] => rfl
  | d :: ds => by
    rw [show labels lab (d :: ds) = nth lab d :: labels lab ds from rfl, List.length_cons, List.length_cons,
      lengthLabels lab ds]

theorem nthLabels (lab : List Nat) : ∀ (ds : List Nat) (j : Nat), j < List.length ds →
    nth (labels lab ds) j = nth lab (nth ds j)
  | [], _, h => absurd h (Nat.notLtZero _)
  | _ :: _, 0, _ => rfl
  | d :: ds, j + 1, h => by
    rw [List.length_cons] at h
    exact nthLabels lab ds j (Nat.lt_of_succ_lt_succ h)

/-- Lemma 11 for `Drop_ca`: `Drop_ca(π V) = π Drop_ca(V)` for a renaming that fits the record; the
per-call label list is reindexed by the call renaming. -/
theorem dropCARen {V : Record} (hf : Fits π V) : dropCA (renRec π V) = renDropCA π (dropCA V) := by
  have hl : labels (reindex π.act (fun d => d) V.i.lab) (reindex π.call π.act.f V.i.act) =
      reindex π.call (fun d => d) (labels V.i.lab V.i.act) := by
    have hpl : PermOn π.call (List.length (labels V.i.lab V.i.act)) := by rw [lengthLabels]; exact hf.1
    refine listExt _ _ (by rw [lengthLabels, lengthReindex, lengthReindex, lengthLabels]) (fun j => ?_)
    cases (inferInstance : Decidable (j < List.length V.i.act)) with
    | isTrue hj =>
      rw [reindexNthG π.call (fun d => d) rfl _ hpl, nthLabels _ _ _ (by rw [lengthReindex]; exact hj),
        reindexNthG π.call π.act.f hf.2.2 _ hf.1, reindexNth π.act (fun d => d) rfl _ hf.2.1,
        nthLabels _ _ _ (hf.1.2 j hj)]
    | isFalse hj =>
      rw [nthOut _ _ (by rw [lengthLabels, lengthReindex]; exact leOfNotLt hj),
        nthOut _ _ (by rw [lengthReindex, lengthLabels]; exact leOfNotLt hj)]
  show (renP π V.p, labels (reindex π.act (fun d => d) V.i.lab) (reindex π.call π.act.f V.i.act),
      reindex π.act (fun d => d) V.i.lab, renE π V.e, renC π V.c) = renDropCA π (dropCA V)
  rw [hl]
  rfl

/-! ### The identity renaming -/

theorem renOutcomeId (o : Outcome) : renOutcome Ren.id o = o := by
  cases o with
  | mk o ls =>
    show Outcome.mk o (List.map (List.map (fun x => x)) ls) = Outcome.mk o ls
    rw [mapCongr (g := fun l => l) (fun l => mapId l) ls, mapId]

theorem renPId (p : PartP) : renP Ren.id p = p := by
  cases p with
  | mk os =>
    show PartP.mk (List.map (renOutcome Ren.id) os) = PartP.mk os
    rw [mapCongr (g := fun o => o) renOutcomeId, mapId]

theorem renIId (i : PartI) : renI Ren.id i = i := by
  cases i with
  | mk a l =>
    show PartI.mk (reindex Perm.id (fun d => d) a) (reindex Perm.id (fun d => d) l) = PartI.mk a l
    rw [reindexId, reindexId]

theorem renEId (e : PartE) : renE Ren.id e = e := by
  cases e with
  | mk r p q =>
    show PartE.mk (List.map (renAuth Ren.id) r) p (List.map (fun x => x) q) = PartE.mk r p q
    rw [mapCongr (g := fun a => a) (fun a => by cases a; rfl) r, mapId, mapId]

theorem renCId (c : PartC) : renC Ren.id c = c := by cases c; rfl

theorem renRecId (V : Record) : renRec Ren.id V = V := by
  cases V with
  | mk p i e c =>
    show Record.mk (renP Ren.id p) (renI Ren.id i) (renE Ren.id e) (renC Ren.id c) = Record.mk p i e c
    rw [renPId, renIId, renEId, renCId]

theorem renCandId (c : Cand) : renCand Ren.id c = c := by
  cases c with
  | mk o w => show (o, List.map (renLetter Ren.id) w) = (o, w); rw [mapCongr (g := fun l => l) (fun l => by cases l; rfl) w, mapId]

theorem renQueryId (q : Query) : renQuery Ren.id q = q := by
  cases q with
  | decide => rfl
  | tryUpdate y =>
    cases y with
    | mk s c =>
      show Query.tryUpdate (Checked.mk (List.map (renCand Ren.id) s) (renRec Ren.id c)) = Query.tryUpdate (Checked.mk s c)
      rw [mapCongr (g := fun c => c) renCandId, mapId, renRecId]

theorem optMapId {h : α → α} (hh : ∀ x, h x = x) : ∀ (o : Option α), optMap h o = o
  | none => rfl
  | some x => by show some (h x) = some x; rw [hh]

theorem renViewId (v : View) : renView Ren.id v = v := by
  cases v with
  | mk p i e c =>
    show View.mk (optMap (renP Ren.id) p) (optMap (renI Ren.id) i) (optMap (renE Ren.id) e) (optMap (renC Ren.id) c) =
      View.mk p i e c
    rw [optMapId renPId, optMapId renIId, optMapId renEId, optMapId renCId]

theorem fitsIId (i : PartI) : FitsI Ren.id i := ⟨permOnId _, permOnId _, rfl⟩

theorem fitsViewId (v : View) : FitsView Ren.id v := by
  cases v with
  | mk p i e c =>
    cases i with
    | none => trivial
    | some i => exact fitsIId i

theorem fitsQId (q : Query) : FitsQ Ren.id q := by
  cases q with
  | decide => trivial
  | tryUpdate y => exact fitsIId _

theorem fitsViewOf : ∀ {v : View} {i : PartI}, v.i = some i → FitsView π v → FitsI π i
  | ⟨_, some _, _, _⟩, _, e, h => by cases e; exact h
  | ⟨_, none, _, _⟩, _, e, _ => Option.noConfusion e

end

/-! ### Lemma 12 and Theorem 4 up to renaming -/

/-- Lemma 12 (A-F), up to renaming: if no renaming carries `Ans(V₁, q₁)` to `Ans(V₀, q₀)`, an exact
view never makes `(V₀, q₀)` and `(V₁, q₁)` renamings of each other. -/
theorem exactRSeparates {ren : Ren → β → β} {fits : Ren → β → Prop} {f : Record → β} (hf : ExactR ren fits f)
    {V₀ V₁ : Record} {q₀ q₁ : Query} (h : ∀ π', ans V₀ q₀ ≠ renAnswer π' (ans V₁ q₁)) (π : Ren)
    (h₁ : fits π (f V₁)) (h₂ : FitsQ π q₁) (hq : q₀ = renQuery π q₁) : f V₀ ≠ ren π (f V₁) :=
  fun e => let ⟨π', e'⟩ := hf V₀ V₁ q₀ q₁ π h₁ h₂ e hq; h π' e'

/-- Whether an answer puts a set into effect or accepts one; renaming keeps it. -/
def positive : Answer → Bool
  | Answer.accepted _ => true
  | Answer.rejected => false
  | Answer.updated _ => true
  | Answer.noCommit => false

theorem positiveRen (π : Ren) (a : Answer) : positive (renAnswer π a) = positive a := by
  cases a <;> rfl

theorem notIsoOfPositive {a b : Answer} (h : positive a ≠ positive b) (π : Ren) : a ≠ renAnswer π b :=
  fun e => h (by rw [e, positiveRen])

/-- The pairs of Table II get answers that no renaming identifies (accept or update against reject
or `NoCommit`). -/
theorem pairNotIso (x : Part) (π : Ren) : ans (pair x).1 (pair x).2.2 ≠ renAnswer π (ans (pair x).2.1 (pair x).2.2) :=
  notIsoOfPositive (by cases x <;> decide) π

/-- Theorem 4 up to renaming: `Keep_J` is exact — views and requests compared up to a consistent
renaming, answers up to renaming — iff `J` names all four parts. -/
theorem keepExactRIff (J : Part → Bool) : ExactR renView FitsView (keepJ J) ↔ ∀ x, J x = true := by
  constructor
  · intro hE x
    cases hx : J x with
    | true => rfl
    | false =>
      have e : keepJ J (pair x).1 = renView Ren.id (keepJ J (pair x).2.1) := by
        rw [renViewId]; exact pairCollapses J x hx
      exact absurd e (exactRSeparates hE (pairNotIso x) Ren.id (fitsViewId _) (fitsQId _) (renQueryId _).symm)
  · intro hJ V₀ V₁ q₀ q₁ π hfv hfq e eq
    have hi1 : (keepJ J V₁).i = some V₁.i := by simp only [keepJ, hJ]; rfl
    have hf : Fits π V₁ := fitsViewOf hi1 hfv
    have hp := congrArg View.p e
    have hi := congrArg View.i e
    have he := congrArg View.e e
    have hc := congrArg View.c e
    simp only [keepJ, renView, hJ] at hp hi he hc
    have hV : V₀ = renRec π V₁ :=
      recordExt (V₁ := renRec π V₁) (someInj hp) (someInj hi) (someInj he) (someInj hc)
    rw [hV, eq]
    exact ⟨π, ansRen hf hfq⟩

/-- Every view exact up to renaming distinguishes all the pairs up to renaming: for each of Table
II's part pairs, no renaming that keeps the common request makes the two views renamings of each
other; likewise for the `Drop_ra` pair and the `Decide` pair for E (requests `Decide`). -/
theorem exactRDistinguishesPairs {ren : Ren → β → β} {fits : Ren → β → Prop} {f : Record → β}
    (hf : ExactR ren fits f) :
    (∀ x π, fits π (f (pair x).2.1) → FitsQ π (pair x).2.2 → (pair x).2.2 = renQuery π (pair x).2.2 →
      f (pair x).1 ≠ ren π (f (pair x).2.1)) ∧
    (∀ π, fits π (f recR1) → f recR0 ≠ ren π (f recR1)) ∧
    (∀ π, fits π (f recL1) → f recL0 ≠ ren π (f recL1)) :=
  ⟨fun x π h₁ h₂ hq => exactRSeparates hf (pairNotIso x) π h₁ h₂ hq,
   fun π h₁ => exactRSeparates hf (q₀ := Query.decide) (q₁ := Query.decide)
     (fun π' => notIsoOfPositive (by decide) π') π h₁ trivial rfl,
   fun π h₁ => exactRSeparates hf (q₀ := Query.decide) (q₁ := Query.decide)
     (fun π' => notIsoOfPositive (by decide) π') π h₁ trivial rfl⟩

/-- `π` fits a `Drop_ca` view when it fits the per-call and per-action lists. -/
def FitsDropCA (π : Ren) (v : PartP × List Nat × List Nat × PartE × PartC) : Prop :=
  PermOn π.call (List.length v.2.1) ∧ PermOn π.act (List.length v.2.2.1) ∧ π.act.f 0 = 0

/-- `Drop_ca` is inexact up to renaming: the I pair has equal `Drop_ca` views. -/
theorem dropCAInexactR : ¬ ExactR renDropCA FitsDropCA dropCA := by
  intro hE
  have e : dropCA recI0 = renDropCA Ren.id (dropCA recI1) := by
    show dropCA recI0 = (renP Ren.id _, reindex Perm.id (fun d => d) _, reindex Perm.id (fun d => d) _,
      renE Ren.id _, renC Ren.id _)
    rw [renPId, reindexId, reindexId, renEId, renCId]
    rfl
  exact exactRSeparates hE (pairNotIso Part.I) Ren.id ⟨permOnId _, permOnId _, rfl⟩ trivial rfl e

/-! ### Lemma 11 for `Drop_ra` -/

theorem nthOOut : ∀ (l : List (Option Nat)) (j : Nat), List.length l ≤ j → nthO l j = none
  | [], _, _ => rfl
  | _ :: _, 0, h => by rw [List.length_cons] at h; exact absurd h (Nat.notSuccLeZero _)
  | _ :: l, j + 1, h => by rw [List.length_cons] at h; exact nthOOut l j (Nat.leOfSuccLeSucc h)

theorem lengthMapUptoO (F : Nat → Option Nat) : ∀ (k n : Nat), List.length (List.map F (upto k n)) = n
  | _, 0 => rfl
  | k, n + 1 => by
    rw [show List.map F (upto k (n + 1)) = F k :: List.map F (upto (k + 1) n) from rfl, List.length_cons,
      lengthMapUptoO F (k + 1) n]

theorem nthOMapUpto (F : Nat → Option Nat) : ∀ (k n j : Nat), j < n → nthO (List.map F (upto k n)) j = F (k + j)
  | _, 0, _, h => absurd h (Nat.notLtZero _)
  | _, _ + 1, 0, _ => rfl
  | k, n + 1, j + 1, h => by
    show nthO (List.map F (upto (k + 1) n)) j = F (k + (j + 1))
    rw [nthOMapUpto F (k + 1) n j (Nat.lt_of_succ_lt_succ h), Nat.succ_add]
    rfl

theorem listExtO : ∀ (l₁ l₂ : List (Option Nat)), List.length l₁ = List.length l₂ →
    (∀ j, nthO l₁ j = nthO l₂ j) → l₁ = l₂
  | [], [], _, _ => rfl
  | [], _ :: _, h, _ => by rw [List.length_cons] at h; exact Nat.noConfusion h
  | _ :: _, [], h, _ => by rw [List.length_cons] at h; exact Nat.noConfusion h
  | a :: l₁, b :: l₂, hl, h => by
    rw [List.length_cons, List.length_cons] at hl
    have e : a = b := h 0
    have t : ∀ j, nthO l₁ j = nthO l₂ j := fun j => by
      have hj := h (j + 1)
      simp only [nthO] at hj
      exact hj
    rw [e, listExtO l₁ l₂ (Nat.succ.inj hl) t]

theorem lengthMask (auths : List AuthRec) : ∀ (k : Nat) (ds : List Nat), List.length (maskAct auths k ds) = List.length ds
  | _, [] => rfl
  | k, d :: ds => by
    rw [show maskAct auths k (d :: ds) = keepOpt (!isCreator auths k) d :: maskAct auths (k + 1) ds from rfl,
      List.length_cons, List.length_cons, lengthMask auths (k + 1) ds]

theorem nthMask (auths : List AuthRec) : ∀ (k : Nat) (ds : List Nat) (j : Nat), j < List.length ds →
    nthO (maskAct auths k ds) j = keepOpt (!isCreator auths (k + j)) (nth ds j)
  | _, [], _, h => absurd h (Nat.notLtZero _)
  | _, _ :: _, 0, _ => rfl
  | k, d :: ds, j + 1, h => by
    rw [List.length_cons] at h
    show nthO (maskAct auths (k + 1) ds) j = keepOpt (!isCreator auths (k + (j + 1))) (nth ds j)
    rw [nthMask auths (k + 1) ds j (Nat.lt_of_succ_lt_succ h), Nat.succ_add]
    rfl

section
variable {π : Ren}

theorem isCreatorRen (auths : List AuthRec) (j : Nat) :
    isCreator (List.map (renAuth π) auths) j = isCreator auths (π.call.g j) := by
  show anyB (fun r => Nat.beq r.creator j) (List.map (renAuth π) auths) = anyB (fun r => Nat.beq r.creator (π.call.g j)) auths
  rw [anyBMap]
  exact congrArg (fun q => anyB q auths) (funext (fun r => by
    show Nat.beq (π.call.f r.creator) j = Nat.beq r.creator (π.call.g j)
    rw [← beqRen π.call r.creator (π.call.g j), π.call.fg]))

theorem reindexONthG (p : Perm) (h : Option Nat → Option Nat) (m : List (Option Nat))
    (hp : PermOn p (List.length m)) (j : Nat) (hj : j < List.length m) : nthO (reindexO p h m) j = h (nthO m (p.g j)) := by
  show nthO (List.map _ (upto 0 (List.length m))) j = _
  rw [nthOMapUpto _ 0 _ _ hj, Nat.zero_add]

/-- Lemma 11 for `Drop_ra`: `Drop_ra(π V) = π Drop_ra(V)` for a renaming that fits the record. -/
theorem dropRARen {V : Record} (hf : Fits π V) : dropRA (renRec π V) = renDropRA π (dropRA V) := by
  have HL := fun d => reindexNth π.act (fun d => d) rfl V.i.lab hf.2.1 d
  have hm : maskAct (List.map (renAuth π) V.e.auths) 0 (reindex π.call π.act.f V.i.act) =
      reindexO π.call (optMap π.act.f) (maskAct V.e.auths 0 V.i.act) := by
    have hlen : List.length (reindexO π.call (optMap π.act.f) (maskAct V.e.auths 0 V.i.act)) = List.length V.i.act := by
      rw [show reindexO π.call (optMap π.act.f) (maskAct V.e.auths 0 V.i.act) = List.map _ _ from rfl, lengthMapUptoO,
        lengthMask]
    refine listExtO _ _ (by rw [lengthMask, lengthReindex, hlen]) (fun j => ?_)
    cases (inferInstance : Decidable (j < List.length V.i.act)) with
    | isTrue hj =>
      have hpm : PermOn π.call (List.length (maskAct V.e.auths 0 V.i.act)) := by rw [lengthMask]; exact hf.1
      rw [nthMask _ _ _ _ (by rw [lengthReindex]; exact hj), reindexONthG _ _ _ hpm j (by rw [lengthMask]; exact hj),
        nthMask _ _ _ _ (hf.1.2 j hj), Nat.zero_add, Nat.zero_add, isCreatorRen,
        reindexNthG π.call π.act.f hf.2.2 _ hf.1, keepOptRen]
    | isFalse hj =>
      rw [nthOOut _ _ (by rw [lengthMask, lengthReindex]; exact leOfNotLt hj),
        nthOOut _ _ (by rw [hlen]; exact leOfNotLt hj)]
  have ha : List.map (fun r => (r.creator, nth (reindex π.act (fun d => d) V.i.lab) r.action)) (List.map (renAuth π) V.e.auths) =
      List.map (fun cl => (π.call.f cl.1, cl.2)) (List.map (fun r => (r.creator, nth V.i.lab r.action)) V.e.auths) := by
    rw [mapMap, mapMap]
    exact mapCongr (fun r => by
      show (π.call.f r.creator, nth (reindex π.act (fun d => d) V.i.lab) (π.act.f r.action)) = (π.call.f r.creator, nth V.i.lab r.action)
      rw [HL]) _
  show (renP π V.p, maskAct (List.map (renAuth π) V.e.auths) 0 (reindex π.call π.act.f V.i.act),
      reindex π.act (fun d => d) V.i.lab,
      List.map (fun r => (r.creator, nth (reindex π.act (fun d => d) V.i.lab) r.action)) (List.map (renAuth π) V.e.auths),
      V.e.policy, List.map π.act.f V.e.queued, renC π V.c) = renDropRA π (dropRA V)
  rw [hm, ha]
  rfl

end

theorem reindexOId (m : List (Option Nat)) : reindexO Perm.id (fun d => d) m = m := by
  refine listExtO _ _ (lengthMapUptoO _ 0 _) (fun j => ?_)
  cases (inferInstance : Decidable (j < List.length m)) with
  | isTrue hj =>
    exact reindexONthG Perm.id (fun d => d) m (permOnId _) j hj
  | isFalse hj =>
    rw [nthOOut _ _ (by rw [show reindexO Perm.id (fun d => d) m = List.map _ _ from rfl, lengthMapUptoO]; exact leOfNotLt hj),
      nthOOut _ _ (leOfNotLt hj)]

theorem renDropRAId :
    ∀ (v : PartP × List (Option Nat) × List Nat × List (Nat × Nat) × List (List Nat) × List Nat × PartC),
    renDropRA Ren.id v = v
  | (p, m, l, a, pol, q, c) => by
    show (renP Ren.id p, reindexO Perm.id (optMap (fun d => d)) m, reindex Perm.id (fun d => d) l,
      List.map (fun cl : Nat × Nat => (cl.1, cl.2)) a, pol, List.map (fun d : Nat => d) q, renC Ren.id c) =
      (p, m, l, a, pol, q, c)
    have ho : optMap (fun d : Nat => d) = (fun d => d) := funext (optMapId (fun _ => rfl))
    rw [ho, renPId, reindexOId, reindexId, mapCongr (g := fun cl => cl) (fun cl => by cases cl; rfl), mapId, mapId,
      renCId]

/-- `π` fits a `Drop_ra` view when it fits the per-call and per-action lists. -/
def FitsDropRA (π : Ren)
    (v : PartP × List (Option Nat) × List Nat × List (Nat × Nat) × List (List Nat) × List Nat × PartC) : Prop :=
  PermOn π.call (List.length v.2.1) ∧ PermOn π.act (List.length v.2.2.1) ∧ π.act.f 0 = 0

/-- `Drop_ra` is inexact up to renaming: the fifth pair has equal `Drop_ra` views. -/
theorem dropRAInexactR : ¬ ExactR renDropRA FitsDropRA dropRA := by
  intro hE
  have e : dropRA recR0 = renDropRA Ren.id (dropRA recR1) := by
    rw [renDropRAId]
    exact (show dropRA recR0 = dropRA recR1 by decide)
  exact exactRSeparates hE (q₀ := Query.decide) (q₁ := Query.decide) (fun π' => notIsoOfPositive (by decide) π') Ren.id
    ⟨permOnId _, permOnId _, rfl⟩ trivial rfl e

/-! ### The C pair is a renaming -/

def swap01 : Nat → Nat
  | 0 => 1
  | 1 => 0
  | n + 2 => n + 2

theorem swap01Inv : ∀ x, swap01 (swap01 x) = x
  | 0 => rfl
  | 1 => rfl
  | _ + 2 => rfl

/-- The renaming that exchanges rule versions 0 and 1 and keeps every call, action and result. -/
def verSwap : Ren := ⟨Perm.id, Perm.id, ⟨swap01, swap01, swap01Inv, swap01Inv⟩, Perm.id⟩

/-- The C pair's records are renamings of each other (the paper's two namespaces differing only in
the rule-version supply), so a request renamed with its record gets the renamed answer; the pair
is told apart only because the common request `TryUpdate(Y₀)` carries `Y₀`'s cut at version 0,
which the renaming would change. -/
theorem cPairIsRenaming :
    renRec verSwap recE0 = recC1 ∧
    ∀ q, FitsQ verSwap q → ans recC1 (renQuery verSwap q) = renAnswer verSwap (ans recE0 q) := by
  have e : renRec verSwap recE0 = recC1 := rfl
  refine ⟨e, fun q hq => ?_⟩
  rw [← e]
  exact ansRen ⟨permOnId _, permOnId _, rfl⟩ hq

end AgentWarrant.Edits
