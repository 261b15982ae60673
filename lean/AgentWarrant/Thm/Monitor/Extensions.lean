import AgentWarrant.Thm.Monitor.Full.Permits
/-! The extensions of the monitor language beyond Agenra (`Spec/Monitor/Extensions.lean`), on the whole
monitor `decideFull`:

- a call the closed core admits and a flow rule pauses is decided exactly by the reviewer's approval:
  Allow consuming the approval when one binds the call's review identity, otherwise Pause
  (`pausedDecided`); so an admitted paused call always names an approval (`pausedAdmitsOnlyApproved`),
  an unconsumed permit binding every argument's value and every result it was read from
  (`findApprovalSound`, `Thm/Monitor/Full/Permits.lean`);
- a call whose audience or request sink denies is denied for `flow` (`sinkDenied`), and in particular
  a call with an argument whose request rules deny its input label (`requestSinkDenied`).

Each theorem takes the closed core's Allow as a hypothesis: the extensions are asked only then. -/
namespace AgentWarrant.Monitor.Full
open Lean AgentWarrant AgentWarrant.Monitor

theorem pausedDecided (p : Policy) (s : State) (c : Call) (t : Tool) (es : List Effect) (l : Label) (pu pa : List Nat)
    (hp : prepare p s c = Except.ok (t, es)) (hd : Monitor.decide (coreInput p s c t es) = Decision.allow l pu pa)
    (hx : extCheck p s c t es l = Ext.pause) :
    decideFull p s c = (match findApproval s c with
      | some k => Verdict.allow l pu pa (some k)
      | none => Verdict.pause ["flow approval"]) := by
  cases ha : findApproval s c <;> simp [decideFull, hp, hd, hx, ha]

theorem pausedAdmitsOnlyApproved (p : Policy) (s : State) (c : Call) (t : Tool) (es : List Effect) (l : Label)
    (pu pa : List Nat) (hp : prepare p s c = Except.ok (t, es))
    (hd : Monitor.decide (coreInput p s c t es) = Decision.allow l pu pa) (hx : extCheck p s c t es l = Ext.pause)
    (l' : Label) (pu' pa' : List Nat) (k : Option Nat) (h : decideFull p s c = Verdict.allow l' pu' pa' k) :
    ∃ q, k = some q ∧ findApproval s c = some q := by
  rw [pausedDecided p s c t es l pu pa hp hd hx] at h
  cases ha : findApproval s c with
  | none => rw [ha] at h; cases h
  | some q =>
    rw [ha] at h
    cases h
    exact ⟨q, rfl, rfl⟩

theorem sinkDenied (p : Policy) (s : State) (c : Call) (t : Tool) (es : List Effect) (l : Label) (pu pa : List Nat)
    (hp : prepare p s c = Except.ok (t, es)) (hd : Monitor.decide (coreInput p s c t es) = Decision.allow l pu pa)
    (hv : (sinkVerdicts p s c t es l).any denies = true) : decideFull p s c = Verdict.deny "flow" := by
  have hx : extCheck p s c t es l = Ext.deny := by simp [extCheck, hv]
  simp [decideFull, hp, hd, hx]

theorem anyAppendRight {β : Type} (g : β → Bool) (ys : List β) (h : ys.any g = true) :
    ∀ (xs : List β), (xs ++ ys).any g = true
  | [] => by simp [h]
  | a :: xs => by
    have ih := anyAppendRight g ys h xs
    rw [List.cons_append]
    have e : List.any (a :: (xs ++ ys)) g = (g a || List.any (xs ++ ys) g) := rfl
    rw [e, ih]
    cases g a <;> rfl

theorem anyFilterMap {β : Type} (f : String → Option β) (g : β → Bool) (x : String) (v : β) (hv : f x = some v)
    (hg : g v = true) : ∀ (l : List String), l.any (fun y => Decidable.decide (y = x)) = true →
      (l.filterMap f).any g = true
  | [], m => by cases m
  | a :: l, m => by
    have ih := anyFilterMap f g x v hv hg l
    have em : List.any (a :: l) (fun y => Decidable.decide (y = x)) =
        (Decidable.decide (a = x) || List.any l (fun y => Decidable.decide (y = x))) := rfl
    rw [em] at m
    cases hax : Decidable.decide (a = x) with
    | true =>
      have e : a = x := ofDecideEqTrue hax
      rw [e]
      have ef : List.filterMap f (x :: l) = v :: List.filterMap f l := by simp [List.filterMap, hv]
      rw [ef]
      have e2 : List.any (v :: List.filterMap f l) g = (g v || List.any (List.filterMap f l) g) := rfl
      rw [e2, hg]
      rfl
    | false =>
      rw [hax] at m
      have m' : List.any l (fun y => Decidable.decide (y = x)) = true := m
      cases hfa : f a with
      | none =>
        have ef : List.filterMap f (a :: l) = List.filterMap f l := by simp [List.filterMap, hfa]
        rw [ef]
        exact ih m'
      | some b =>
        have ef : List.filterMap f (a :: l) = b :: List.filterMap f l := by simp [List.filterMap, hfa]
        rw [ef]
        have e2 : List.any (b :: List.filterMap f l) g = (g b || List.any (List.filterMap f l) g) := rfl
        rw [e2, ih m']
        cases g b <;> rfl

/-- A request sink never admits a call whose argument's input label its rules deny: if argument `n` of
the call has request rules and their verdict on `n`'s input label denies (a deny rule holds, or no rule
does), the call is denied for `flow`. -/
theorem requestSinkDenied (p : Policy) (s : State) (c : Call) (t : Tool) (es : List Effect) (l : Label)
    (pu pa : List Nat) (hp : prepare p s c = Except.ok (t, es))
    (hd : Monitor.decide (coreInput p s c t es) = Decision.allow l pu pa) (n : String)
    (hn : (c.args.map Prod.fst).any (fun y => Decidable.decide (y = n)) = true) (hr : (reqRules p t n).isEmpty = false)
    (hv : denies (combine (reqRules p t n) (argLabel s c n)) = true) : decideFull p s c = Verdict.deny "flow" := by
  apply sinkDenied p s c t es l pu pa hp hd
  apply anyAppendRight
  exact anyFilterMap _ denies n _ (by simp [hr]) hv _ hn

end AgentWarrant.Monitor.Full
