import AgentWarrant.Thm.Monitor.DecodeFormRefs
import AgentWarrant.Thm.Monitor.Registration
import AgentWarrant.Thm.Monitor.RegistrationSchema
/-! The `policy_check` verdict stated on the document: on a document whose objects are search trees,
the verdict the judgment answers under `ok` (`Oracle.Registration.verdictOf`, from the schema check,
the form and the decoder's answer) holds exactly when the document meets the schema
(`Schema.PolicySchema`), it describes a policy (`DecodesIs`, its one reading) that is well formed
(`RegistrationWF`), and its form is (`FormWF` of `formOf`): `policyCheckVerdictIff`. The three
checks are decided by `Schema.policySchemaIff`, `registrationOkIff` and `formOkIff`, and the decoder
by `policyOfIff`. -/
namespace AgentWarrant.Monitor.Full
open Lean AgentWarrant AgentWarrant.Oracle AgentWarrant.Oracle.MonitorFull AgentWarrant.Oracle.Registration
  AgentWarrant.Json

/-- A level reference: a node label's sensitivity, an agent's ceiling, the sensitivity a propagation of
kind `transform` sets, or a flow guard's bound (as `FormFrom` names them). -/
def LevelRefAt (j : Json) (s : String) : Prop :=
  (∃ n l, ElemAt j "nodes" n ∧ Field n "label" l ∧ Field l "sensitivity" (Json.str s)) ∨
  (∃ a, ElemAt j "agents" a ∧ Field a "ceiling" (Json.str s)) ∨
  (∃ e t, ElemAt j "edges" e ∧ Field e "propagation" t ∧ Field t "kind" (Json.str "transform") ∧
    Field t "sensitivity" (Json.str s)) ∨
  (∃ fl g, ElemAt j "flows" fl ∧ Field fl "when" g ∧
    (Field g "max_sensitivity" (Json.str s) ∨ Field g "min_sensitivity" (Json.str s)))

/-- The declaration checks, stated on the document: every place that must hold a name does, every
action and authoritative path is dotted, the level array is non-empty and repeat-free, every category,
requirement and level a place references is declared in the document's array of that name, every
resolver's path is one a tool of its tool's name declares authoritative, every audience node is a node
of kind `sink`, and every count, scalar and bound is one of the numbers or scalars the form admits. -/
structure FormDocWF (j : Json) : Prop where
  names : ∀ s, NameAt j s → IsName s
  dotted : ∀ s, DottedAt j s → IsDotted s
  levels : ∃ l, StrsAt j "levels" l ∧ l ≠ [] ∧ Distinct l
  categories : ∀ c, CatRefAt j c → ElemAt j "categories" (Json.str c)
  requirements : ∀ r e, EntryAt j e → Field e "kind" (Json.str "allow") → Field e "requires" (Json.str r) →
    ElemAt j "requirements" (Json.str r)
  authoritative : ∀ t q, ResolverPathAt j t q → AuthAt j t q
  audiences : ∀ a x, ElemAt j "audiences" x → Field x "node" (Json.str a) →
    ∃ n, ElemAt j "nodes" n ∧ Field n "kind" (Json.str "sink") ∧ NamedAt n a
  counts : ∀ v, CountAt j v → IsCount v
  scalars : ∀ v, ScalarAt j v → IsScalarOk v
  bounds : ∀ v, BoundAt j v → IsBound v
  levelRefs : ∀ s, LevelRefAt j s → ElemAt j "levels" (Json.str s)

theorem strsOfStrs : ∀ {xs : List Json} {l : List String}, Forall2 (fun x s => x = Json.str s) xs l → strsOf xs = l
  | _, _, Forall2.nil => rfl
  | _, _, Forall2.cons e hr => by
    subst e
    show _ :: strsOf _ = _
    rw [strsOfStrs hr]

theorem strLOfStrs {j : Json} {k : String} {l : List String} (hj : ObjsOrdered j) (h : StrsAt j k l) : strL j k = l := by
  have ⟨xs, hf, hr⟩ := h
  have u : arrL j k = (Array.mk xs).toList := by simp [arrL, fieldOfField hj hf]
  show strsOf (arrL j k) = l
  rw [u, toListData]
  exact strsOfStrs hr

/-- On a document whose objects are search trees and whose levels are an array of strings, the
declaration checks on its form (`FormWF` of `formOf`) are exactly `FormDocWF`, stated on the document. -/
theorem formWFDocIff {j : Json} {l : List String} (hj : ObjsOrdered j) (hl : StrsAt j "levels" l) :
    FormWF (formOf j) ↔ FormDocWF j := by
  have ⟨fLv, fCat, fReq, fLvRef, fReqRef, fSink, fAud⟩ := formOfFrom j
  have ⟨cLv, cCat, cReq, cLvRef, cReqRef, cSink, cAud⟩ := formOfCollects j hj
  have el : (formOf j).levels = l := strLOfStrs hj hl
  constructor
  · intro w
    refine ⟨fun s h => w.names s (namesCollect hj h), fun s h => w.dotted s (dottedCollect hj h),
      ⟨l, hl, el ▸ w.levels, el ▸ w.uniqueLevels⟩, fun c h => fCat c (w.categories c (catRefsCollect hj h)),
      fun r e he hk hr => fReq r (w.requirements r (cReqRef r e he hk hr)), fun t q h => ?_,
      fun a x hx ha => fSink a (w.audiences a (cAud a x hx ha)), fun v h => w.counts v (countsCollect hj h),
      fun v h => w.scalars v (scalarsCollect hj h), fun v h => w.bounds v (boundsCollect hj h),
      fun s h => fLv s (w.levelRefs s (cLvRef s h))⟩
    have ⟨tt, ht, e1, e2⟩ := w.authoritative (t, q) (resolverPathsCollect hj h)
    cases tt with
    | mk n as =>
      have e1' : n = t := e1
      subst e1'
      exact authFrom j ht e2
  · intro d
    refine ⟨fun s h => d.names s (namesFrom j h), fun s h => d.dotted s (dottedFrom j h), ?_, ?_,
      fun c h => cCat c (d.categories c (catRefsFrom j h)), fun r h => ?_, fun r h => ?_, fun a h => ?_,
      fun v h => d.counts v (countsFrom j h), fun v h => d.scalars v (scalarsFrom j h),
      fun v h => d.bounds v (boundsFrom j h), fun s h => cLv s (d.levelRefs s (fLvRef s h))⟩
    · have ⟨l', hl', ne, _⟩ := d.levels
      rw [el, ((strLOfStrs hj hl).symm.trans (strLOfStrs hj hl'))]
      exact ne
    · have ⟨l', hl', _, ds⟩ := d.levels
      rw [el, ((strLOfStrs hj hl).symm.trans (strLOfStrs hj hl'))]
      exact ds
    · have ⟨e, he, hk, hr⟩ := fReqRef r h
      exact cReq r (d.requirements r e he hk hr)
    · cases r with
      | mk t q =>
        have ⟨as, hm, hq⟩ := authCollect hj (d.authoritative t q (resolverPathsFrom j h))
        exact ⟨(t, as), hm, rfl, hq⟩
    · have ⟨x, hx, hn⟩ := fAud a h
      have ⟨n, hn', hk, hs⟩ := d.audiences a x hx hn
      exact cSink a n hn' hk hs

theorem policyCheckVerdictIff {pj : Json} (hj : ObjsOrdered pj) :
    verdictOf (Schema.policyE [] pj).isEmpty (formOf pj) (policyOf pj) = true ↔
      Schema.PolicySchema pj ∧ (∃ p, DecodesIs pj p ∧ RegistrationWF p) ∧ FormWF (formOf pj) := by
  have hs : (Schema.policyE [] pj).isEmpty = true ↔ Schema.PolicySchema pj := Schema.policySchemaIff pj
  cases hd : policyOf pj with
  | error e =>
    have u : verdictOf (Schema.policyE [] pj).isEmpty (formOf pj) (Except.error e) = false := by
      cases (Schema.policyE [] pj).isEmpty <;> rfl
    rw [u]
    refine ⟨fun h => (by cases h), fun ⟨_, ⟨p, hp, _⟩, _⟩ => ?_⟩
    have e' := (policyOfIs hj hp).symm.trans hd
    cases e'
  | ok p =>
    have hp := policyOfDecodesIs hj hd
    have u : verdictOf (Schema.policyE [] pj).isEmpty (formOf pj) (Except.ok p) =
        ((Schema.policyE [] pj).isEmpty && (registrationOk p && formOk (formOf pj))) := rfl
    rw [u, andIff, andIff, hs, registrationOkIff, formOkIff]
    refine ⟨fun ⟨a, b, c⟩ => ⟨a, ⟨p, hp, b⟩, c⟩, fun ⟨a, ⟨q, hq, b⟩, c⟩ => ⟨a, ?_, c⟩⟩
    rw [decodesIsUnique hj hp hq]
    exact b

/-- The verdict stated on the document alone: the schema, the document's one reading well formed,
and the declaration checks (`FormDocWF`). -/
theorem policyCheckVerdictDocIff {pj : Json} (hj : ObjsOrdered pj) :
    verdictOf (Schema.policyE [] pj).isEmpty (formOf pj) (policyOf pj) = true ↔
      Schema.PolicySchema pj ∧ (∃ p, DecodesIs pj p ∧ RegistrationWF p) ∧ FormDocWF pj := by
  rw [policyCheckVerdictIff hj]
  constructor
  · intro ⟨a, ⟨p, hp, w⟩, f⟩
    have ⟨l, _, hl, _⟩ := hp
    exact ⟨a, ⟨p, hp, w⟩, (formWFDocIff hj hl).1 f⟩
  · intro ⟨a, ⟨p, hp, w⟩, f⟩
    have ⟨l, _, hl, _⟩ := hp
    exact ⟨a, ⟨p, hp, w⟩, (formWFDocIff hj hl).2 f⟩

end AgentWarrant.Monitor.Full
