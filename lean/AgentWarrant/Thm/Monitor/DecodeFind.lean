import AgentWarrant.Thm.Monitor.DecodeForm
import AgentWarrant.Thm.Json.ObjLookup
/-! The decoder's lookups find every member: on a document whose objects are search trees
(`Json.ObjsOrdered`, every input the oracle judges: `Oracle.judgedOrdered`), the oracle's readers return
a value at a key exactly when the document holds that member (`Field`): `req` (`reqIff`), the form's
`field` (`fieldIff`), the decoder's optional `opt` for a member other than `null` (`optIff`) and its
typed `getAs` for a member that converts (`getAsIff`), the direction `reqOk`, `fieldSome`, `optReq` and
`getAsOk` lacked. With it, `formOfCollects`: the registration form's declaration
and reference lists collect every place `FormFrom` names, so on such documents `formOf`'s levels,
categories, requirements, level references, requirement references, sinks and audience nodes are
exactly those places (`formOfFrom` the other way). -/
namespace AgentWarrant.Monitor.Full
open Lean AgentWarrant AgentWarrant.Oracle AgentWarrant.Oracle.Registration AgentWarrant.Json

theorem reqOfField {j v : Json} {k : String} (hj : ObjsOrdered j) (h : Field j k v) : req j k = Except.ok v :=
  match h with
  | ⟨_, e, hm⟩ => getObjValOfMem hj e hm

/-- The decoder's required-member reader finds exactly the document's members. -/
theorem reqIff {j v : Json} {k : String} (hj : ObjsOrdered j) : req j k = Except.ok v ↔ Field j k v :=
  ⟨reqOk, reqOfField hj⟩

theorem fieldOfField {j v : Json} {k : String} (hj : ObjsOrdered j) (h : Field j k v) : field j k = some v := by
  have e : j.getObjVal? k = Except.ok v := reqOfField hj h
  simp [field, e]

/-- The form's lenient reader finds exactly the document's members. -/
theorem fieldIff {j v : Json} {k : String} (hj : ObjsOrdered j) : field j k = some v ↔ Field j k v :=
  ⟨fieldSome, fieldOfField hj⟩

/-- The decoder's optional-member reader finds exactly the document's members that are not `null`. -/
theorem optIff {j v : Json} {k : String} (hj : ObjsOrdered j) :
    MonitorFull.opt j k = some v ↔ Field j k v ∧ v ≠ Json.null := by
  refine ⟨fun h => ⟨reqOk (optReq h), fun e => ?_⟩, fun ⟨h, hn⟩ => ?_⟩
  · subst e
    have hr : j.getObjVal? k = Except.ok Json.null := optReq h
    have u : MonitorFull.opt j k = none := by simp [MonitorFull.opt, hr]
    rw [u] at h
    cases h
  · have e : j.getObjVal? k = Except.ok v := reqOfField hj h
    show (match j.getObjVal? k with
      | Except.ok Json.null => none
      | Except.ok v => some v
      | Except.error _ => none) = some v
    rw [e]
    cases v with
    | null => exact absurd rfl hn
    | bool _ => rfl
    | num _ => rfl
    | str _ => rfl
    | arr _ => rfl
    | obj _ => rfl

/-- The decoder's typed reader reads exactly the document's members that convert. -/
theorem getAsIff {α : Type} [FromJson α] {j : Json} {k : String} {a : α} (hj : ObjsOrdered j) :
    getAs α j k = Except.ok a ↔ ∃ v, Field j k v ∧ fromJson? v = Except.ok a := by
  refine ⟨fun h => match getAsOk h with | ⟨v, hv, e⟩ => ⟨v, reqOk hv, e⟩, fun ⟨v, hv, hd⟩ => ?_⟩
  have e := reqOfField hj hv
  simp [getAs, e]
  show (match (fromJson? v : Except String α) with
    | Except.ok a => (pure a : Except String α)
    | Except.error e => throw (toString "" ++ toString k ++ toString ": " ++ toString e ++ toString "")) = Except.ok a
  rw [hd]
  rfl

theorem fieldOrdered {j v : Json} {k : String} (hj : ObjsOrdered j) (h : Field j k v) : ObjsOrdered v :=
  match h with
  | ⟨_, e, hm⟩ => by subst e; exact objsOrderedObjElem hj hm

theorem elemOrdered {j x : Json} {k : String} (hj : ObjsOrdered j) (h : ElemAt j k x) : ObjsOrdered x :=
  match h with
  | ⟨_, hf, hx⟩ => objsOrderedArrElem (fieldOrdered hj hf) hx

theorem arrLOf {j x : Json} {k : String} (hj : ObjsOrdered j) (h : ElemAt j k x) : x ∈ arrL j k :=
  match h with
  | ⟨xs, hf, hx⟩ => by
    have u : arrL j k = (Array.mk xs).toList := by simp [arrL, fieldOfField hj hf]
    rw [u, toListData]
    exact hx

theorem strsOfMem {s : String} : ∀ {l : List Json}, Json.str s ∈ l → s ∈ strsOf l
  | [], h => nomatch h
  | x :: l, h => by
    cases h with
    | head _ => show s ∈ s :: strsOf l; exact Mem.head _
    | tail _ h' =>
      cases x with
      | str t => show s ∈ t :: strsOf l; exact Mem.tail _ (strsOfMem h')
      | null => show s ∈ strsOf l; exact strsOfMem h'
      | bool _ => show s ∈ strsOf l; exact strsOfMem h'
      | num _ => show s ∈ strsOf l; exact strsOfMem h'
      | arr _ => show s ∈ strsOf l; exact strsOfMem h'
      | obj _ => show s ∈ strsOf l; exact strsOfMem h'

theorem strLOf {j : Json} {k s : String} (hj : ObjsOrdered j) (h : ElemAt j k (Json.str s)) : s ∈ strL j k :=
  strsOfMem (arrLOf hj h)

theorem strFOf {j : Json} {k s : String} (hj : ObjsOrdered j) (h : Field j k (Json.str s)) : s ∈ strF j k := by
  have u : strF j k = [s] := by simp [strF, fieldOfField hj h]
  rw [u]
  exact Mem.head _

theorem kindIsOf {j : Json} {k : String} (hj : ObjsOrdered j) (h : Field j "kind" (Json.str k)) : kindIs j k = true := by
  have u : strF j "kind" = [k] := by simp [strF, fieldOfField hj h]
  have e : (k == k) = true := decideEqTrue rfl
  show (strF j "kind" == [k]) = true
  rw [u]
  show (k == k && true) = true
  rw [e]
  rfl

theorem catMapMem {α β : Type} {f : α → List β} {x : α} {y : β} : ∀ {l : List α}, x ∈ l → y ∈ f x → y ∈ catMap f l
  | [], hx, _ => nomatch hx
  | z :: l, hx, hy => by
    show y ∈ f z ++ catMap f l
    cases hx with
    | head _ => exact memAppL _ hy
    | tail _ hx' => exact memAppR _ _ (catMapMem hx' hy)

theorem filterMapMem {α β : Type} {f : α → Option β} {x : α} {y : β} : ∀ {l : List α}, x ∈ l → f x = some y →
    y ∈ List.filterMap f l
  | [], hx, _ => nomatch hx
  | z :: l, hx, hf => by
    cases hx with
    | head _ =>
      have u : List.filterMap f (x :: l) = y :: List.filterMap f l := by simp [List.filterMap, hf]
      rw [u]; exact Mem.head _
    | tail _ hx' =>
      cases hz : f z with
      | none =>
        have u : List.filterMap f (z :: l) = List.filterMap f l := by simp [List.filterMap, hz]
        rw [u]; exact filterMapMem hx' hf
      | some b =>
        have u : List.filterMap f (z :: l) = b :: List.filterMap f l := by simp [List.filterMap, hz]
        rw [u]; exact Mem.tail _ (filterMapMem hx' hf)

/-- The converse of `formOfFrom`: on a document whose objects are search trees, `formOf` collects every
place `FormFrom` names. -/
theorem formOfCollects (j : Json) (hj : ObjsOrdered j) : FormCollects j (formOf j) := by
  refine ⟨fun s h => strLOf hj h, fun s h => strLOf hj h, fun s h => strLOf hj h, fun s h => ?_,
    fun s e he hk hs => ?_, fun s n hn hk hs => ?_, fun s a ha hs => ?_⟩
  · -- level references
    cases h with
    | inl hn =>
      have ⟨n, l, hn, hl, hs⟩ := hn
      have on := elemOrdered hj hn
      refine memAppL _ (memAppL _ (memAppL _ (catMapMem (arrLOf hj hn) ?_)))
      show s ∈ (match field n "label" with
        | some l => strF l "sensitivity"
        | none => [])
      rw [fieldOfField on hl]
      exact strFOf (fieldOrdered on hl) hs
    | inr h =>
      cases h with
      | inl ha =>
        have ⟨a, ha, hs⟩ := ha
        exact memAppL _ (memAppL _ (memAppR _ _ (catMapMem (arrLOf hj ha) (strFOf (elemOrdered hj ha) hs))))
      | inr h =>
        cases h with
        | inl he =>
          have ⟨e, t, he, ht, hk, hs⟩ := he
          have oe := elemOrdered hj he
          have ot := fieldOrdered oe ht
          refine memAppL _ (memAppR _ _ (catMapMem (memFilterStd (filterMapMem (arrLOf hj he) (fieldOfField oe ht))
            (kindIsOf ot hk)) (strFOf ot hs)))
        | inr hf =>
          have ⟨fl, g, hfl, hg, hs⟩ := hf
          have ofl := elemOrdered hj hfl
          have og := fieldOrdered ofl hg
          refine memAppR _ _ (catMapMem (arrLOf hj hfl) ?_)
          show s ∈ (match field fl "when" with
            | some g => strF g "max_sensitivity" ++ strF g "min_sensitivity"
            | none => [])
          rw [fieldOfField ofl hg]
          cases hs with
          | inl hm => exact memAppL _ (strFOf og hm)
          | inr hm => exact memAppR _ _ (strFOf og hm)
  · -- requirement references
    have hent : e ∈ arrL j "user" ++ arrL j "application" := by
      cases he with
      | inl hu => exact memAppL _ (arrLOf hj hu)
      | inr ha => exact memAppR _ _ (arrLOf hj ha)
    have oe : ObjsOrdered e := by
      cases he with
      | inl hu => exact elemOrdered hj hu
      | inr ha => exact elemOrdered hj ha
    exact catMapMem (memFilterStd hent (kindIsOf oe hk)) (strFOf oe hs)
  · -- sinks
    have on := elemOrdered hj hn
    refine catMapMem (arrLOf hj hn) ?_
    show s ∈ (if kindIs n "sink" = true then strF n "name" else [])
    rw [kindIsOf on hk]
    exact strFOf on hs
  · -- audience nodes
    exact catMapMem (arrLOf hj ha) (strFOf (elemOrdered hj ha) hs)

end AgentWarrant.Monitor.Full
