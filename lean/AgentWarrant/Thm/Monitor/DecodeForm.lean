import AgentWarrant.Oracle.Registration
import AgentWarrant.Thm.Monitor.Decode
import AgentWarrant.Spec.Revision.ListLemmas
/-! Where the registration form's declaration and reference lists come from (`formOfFrom`): the
oracle's `formOf` collects each from the places `FormFrom` names. The readers it uses are lenient
(a missing key or a value of the wrong type contributes nothing), so each lemma here says what a
collected value proves about the document. -/
namespace AgentWarrant.Monitor.Full
open Lean AgentWarrant AgentWarrant.Oracle AgentWarrant.Oracle.Registration

theorem fieldSome {j v : Json} {k : String} (h : field j k = some v) : Field j k v := by
  cases hr : j.getObjVal? k with
  | ok w =>
    have u : field j k = some w := by simp [field, hr]
    rw [u] at h; cases h
    exact reqOk hr
  | error m =>
    have u : field j k = none := by simp [field, hr]
    rw [u] at h; cases h

theorem memArrL {j x : Json} {k : String} (h : x ∈ arrL j k) : ElemAt j k x := by
  cases hf : field j k with
  | none =>
    have u : arrL j k = [] := by simp [arrL, hf]
    rw [u] at h; exact nomatch h
  | some v =>
    cases v with
    | arr a =>
      cases a with
      | mk d =>
        have u : arrL j k = d := by
          have u' : arrL j k = (Array.mk d).toList := by simp [arrL, hf]
          rw [u', toListData]
        rw [u] at h
        exact ⟨d, fieldSome hf, h⟩
    | null => have u : arrL j k = [] := by simp [arrL, hf]
              rw [u] at h; exact nomatch h
    | bool _ => have u : arrL j k = [] := by simp [arrL, hf]
                rw [u] at h; exact nomatch h
    | num _ => have u : arrL j k = [] := by simp [arrL, hf]
               rw [u] at h; exact nomatch h
    | str _ => have u : arrL j k = [] := by simp [arrL, hf]
               rw [u] at h; exact nomatch h
    | obj _ => have u : arrL j k = [] := by simp [arrL, hf]
               rw [u] at h; exact nomatch h

theorem memStrsOf {s : String} : ∀ {l : List Json}, s ∈ strsOf l → Json.str s ∈ l
  | [], h => nomatch h
  | x :: l, h => by
    cases x with
    | str t =>
      have u : strsOf (Json.str t :: l) = t :: strsOf l := rfl
      rw [u] at h
      cases h with
      | head _ => exact Mem.head _
      | tail _ h' => exact Mem.tail _ (memStrsOf h')
    | null => exact Mem.tail _ (memStrsOf (l := l) h)
    | bool _ => exact Mem.tail _ (memStrsOf (l := l) h)
    | num _ => exact Mem.tail _ (memStrsOf (l := l) h)
    | arr _ => exact Mem.tail _ (memStrsOf (l := l) h)
    | obj _ => exact Mem.tail _ (memStrsOf (l := l) h)

theorem memStrL {j : Json} {k s : String} (h : s ∈ strL j k) : ElemAt j k (Json.str s) :=
  memArrL (memStrsOf h)

theorem memStrF {j : Json} {k s : String} (h : s ∈ strF j k) : Field j k (Json.str s) := by
  cases hf : field j k with
  | none =>
    have u : strF j k = [] := by simp [strF, hf]
    rw [u] at h; exact nomatch h
  | some v =>
    cases v with
    | str t =>
      have u : strF j k = [t] := by simp [strF, hf]
      rw [u] at h
      cases h with
      | head _ => exact fieldSome hf
      | tail _ h' => exact nomatch h'
    | null => have u : strF j k = [] := by simp [strF, hf]
              rw [u] at h; exact nomatch h
    | bool _ => have u : strF j k = [] := by simp [strF, hf]
                rw [u] at h; exact nomatch h
    | num _ => have u : strF j k = [] := by simp [strF, hf]
               rw [u] at h; exact nomatch h
    | arr _ => have u : strF j k = [] := by simp [strF, hf]
               rw [u] at h; exact nomatch h
    | obj _ => have u : strF j k = [] := by simp [strF, hf]
               rw [u] at h; exact nomatch h

theorem memCatMap {α β : Type} {f : α → List β} {y : β} : ∀ {l : List α}, y ∈ catMap f l → ∃ x, x ∈ l ∧ y ∈ f x
  | [], h => nomatch h
  | x :: l, h => by
    have u : catMap f (x :: l) = f x ++ catMap f l := rfl
    rw [u] at h
    cases memAppE h with
    | inl h1 => exact ⟨x, Mem.head _, h1⟩
    | inr h2 => have ⟨z, hz, hy⟩ := memCatMap h2; exact ⟨z, Mem.tail _ hz, hy⟩

theorem memFilterMap {α β : Type} {f : α → Option β} {y : β} : ∀ {l : List α}, y ∈ List.filterMap f l → ∃ x, x ∈ l ∧ f x = some y
  | [], h => nomatch h
  | x :: l, h => by
    cases hx : f x with
    | none =>
      have u : List.filterMap f (x :: l) = List.filterMap f l := by simp [List.filterMap, hx]
      rw [u] at h
      have ⟨z, hz, e⟩ := memFilterMap h
      exact ⟨z, Mem.tail _ hz, e⟩
    | some b =>
      have u : List.filterMap f (x :: l) = b :: List.filterMap f l := by simp [List.filterMap, hx]
      rw [u] at h
      cases h with
      | head _ => exact ⟨x, Mem.head _, hx⟩
      | tail _ h' => have ⟨z, hz, e⟩ := memFilterMap h'; exact ⟨z, Mem.tail _ hz, e⟩

theorem kindIsField {j : Json} {k : String} (h : kindIs j k = true) : Field j "kind" (Json.str k) := by
  have e : (strF j "kind" == [k]) = true := h
  cases hs : strF j "kind" with
  | nil => rw [hs] at e; cases e
  | cons t rest =>
    cases rest with
    | cons _ _ => rw [hs] at e; have e2 : (t == k && false) = true := e; cases (andT e2).2
    | nil =>
      rw [hs] at e
      have e2 : (t == k && true) = true := e
      have et : t = k := ofDecideEqTrue (andT e2).1
      have m : t ∈ strF j "kind" := by rw [hs]; exact Mem.head _
      rw [← et]
      exact memStrF m

theorem formOfFrom (j : Json) : FormFrom j (formOf j) := by
  refine ⟨fun s h => memStrL h, fun s h => memStrL h, fun s h => memStrL h, fun s h => ?_, fun s h => ?_,
    fun s h => ?_, fun s h => ?_⟩
  · -- level references
    cases memAppE h with
    | inl h1 =>
      cases memAppE h1 with
      | inl h2 =>
        cases memAppE h2 with
        | inl h3 =>
          have ⟨n, hn, hs0⟩ := memCatMap h3
          cases hf : field n "label" with
          | none => simp only [hf] at hs0; exact nomatch hs0
          | some l =>
            simp only [hf] at hs0
            exact Or.inl ⟨n, l, memArrL hn, fieldSome hf, memStrF hs0⟩
        | inr h3 =>
          have ⟨a, ha, hs⟩ := memCatMap h3
          exact Or.inr (Or.inl ⟨a, memArrL ha, memStrF hs⟩)
      | inr h2 =>
        have ⟨t, ht, hs⟩ := memCatMap h2
        have ⟨htm, htk⟩ := memFilterStdElim ht
        have ⟨e, he, hpe⟩ := memFilterMap htm
        exact Or.inr (Or.inr (Or.inl ⟨e, t, memArrL he, fieldSome hpe, kindIsField htk, memStrF hs⟩))
    | inr h1 =>
      have ⟨fl, hfl, hs0⟩ := memCatMap h1
      cases hf : field fl "when" with
      | none => simp only [hf] at hs0; exact nomatch hs0
      | some g =>
        simp only [hf] at hs0
        refine Or.inr (Or.inr (Or.inr ⟨fl, g, memArrL hfl, fieldSome hf, ?_⟩))
        cases memAppE hs0 with
        | inl hm => exact Or.inl (memStrF hm)
        | inr hm => exact Or.inr (memStrF hm)
  · -- requirement references
    have ⟨e, he, hs⟩ := memCatMap h
    have ⟨hent, hk⟩ := memFilterStdElim he
    refine ⟨e, ?_, kindIsField hk, memStrF hs⟩
    cases memAppE hent with
    | inl hu => exact Or.inl (memArrL hu)
    | inr ha => exact Or.inr (memArrL ha)
  · have ⟨n, hn, hs0⟩ := memCatMap h
    have hs : s ∈ (if kindIs n "sink" = true then strF n "name" else []) := hs0
    cases hk : kindIs n "sink" with
    | true =>
      have u : (if kindIs n "sink" = true then strF n "name" else []) = strF n "name" := by rw [hk]; rfl
      rw [u] at hs
      exact ⟨n, memArrL hn, kindIsField hk, memStrF hs⟩
    | false =>
      have u : (if kindIs n "sink" = true then strF n "name" else []) = [] := by rw [hk]; rfl
      rw [u] at hs; exact nomatch hs
  · have ⟨a, ha, hs⟩ := memCatMap h
    exact ⟨a, memArrL ha, memStrF hs⟩

end AgentWarrant.Monitor.Full
