import AgentWarrant.Thm.Monitor.DecodeFind
/-! The decoder reads each top-level list of the policy exactly from the document: on a document
whose objects are search trees (every input the oracle judges, `Oracle.judgedOrdered`), a list it
returns empty comes from a document with no such member (or `null`), never from one whose array it
skipped, and every other list has one element per element of the document's array, in order
(`policyOfDecodesExactly`, `DecodesExactly`); so do the declared categories. `Decodes` alone let any
list be empty. On a document whose objects also have distinct names, `DecodesExactly` fixes each
list's length (`decodesExactlyLengths`): two policies it relates to the same document have lists of
equal length, each the length of the document's array. -/
namespace AgentWarrant.Monitor.Full
open Lean AgentWarrant AgentWarrant.Oracle AgentWarrant.Json

/-- What `opt` does not find, on a search tree, is absent or `null`. -/
theorem absentOfOpt {j : Json} {k : String} (hj : ObjsOrdered j) (h : MonitorFull.opt j k = none) :
    Absent j k := by
  intro v hv
  have notNull : v ≠ Json.null → False := fun hn => by
    have e := (optIff hj).2 ⟨hv, hn⟩
    rw [h] at e
    cases e
  cases v with
  | null => rfl
  | bool _ => exact False.elim (notNull (fun e => by cases e))
  | num _ => exact False.elim (notNull (fun e => by cases e))
  | str _ => exact False.elim (notNull (fun e => by cases e))
  | arr _ => exact False.elim (notNull (fun e => by cases e))
  | obj _ => exact False.elim (notNull (fun e => by cases e))

theorem listIsOk {α : Type} {j : Json} {k : String} {f : Json → Dec α} {R : Json → α → Prop}
    (hj : ObjsOrdered j) (hf : ∀ x y, f x = Except.ok y → R x y) {l : List α}
    (h : MonitorFull.listOf j k f = Except.ok l) : ListIs j k R l :=
  match listOfRead hf h with
  | Or.inl ⟨ho, e⟩ => Or.inl ⟨absentOfOpt hj ho, e⟩
  | Or.inr r => Or.inr r

theorem optStrsIs {j : Json} {k : String} {l : List String} (hj : ObjsOrdered j)
    (h : MonitorFull.optStrs j k = Except.ok l) : OptStrsIs j k l :=
  match optStrsRead h with
  | Or.inl ⟨ho, e⟩ => Or.inl ⟨absentOfOpt hj ho, e⟩
  | Or.inr r => Or.inr r

/-- On a document whose objects are search trees, the decoder reads each top-level list, and the
declared categories, exactly from the document's array at that key. -/
theorem policyOfDecodesExactly {j : Json} {p : Policy} (hj : ObjsOrdered j)
    (h : MonitorFull.policyOf j = Except.ok p) : DecodesExactly j p :=
  policyOfDecodesVia (Q := fun k R l => ListIs j k R l) (fun hf e => listIsOk hj hf e) (fun e => optStrsIs hj e) h

theorem listIsAt {α : Type} {j : Json} {k : String} {R : Json → α → Prop} {l : List α} (h : ListIs j k R l) :
    ListAt j k R l :=
  match h with
  | Or.inl ⟨_, e⟩ => Or.inl e
  | Or.inr r => Or.inr r

/-- `DecodesExactly` strengthens `Decodes`. -/
theorem decodesExactlyDecodes {j : Json} {p : Policy} (h : DecodesExactly j p) : Decodes j p :=
  match h with
  | ⟨levels, cats, hl, hc, h1, h2, h3, h4, h5, h6, h7, h8, h9, h10, hf, h11⟩ =>
    ⟨levels, cats, hl, (match hc with | Or.inl ⟨_, e⟩ => Or.inl e | Or.inr r => Or.inr r),
      listIsAt h1, listIsAt h2, listIsAt h3, listIsAt h4, listIsAt h5, listIsAt h6, listIsAt h7, listIsAt h8,
      listIsAt h9, listIsAt h10, hf, listIsAt h11⟩

/-- On a document with distinct names, an exactly read list has the length of the document's array,
whatever the element relation. -/
theorem listIsLength {α β : Type} {j : Json} {k : String} {R : Json → α → Prop} {S : Json → β → Prop}
    {l : List α} {m : List β} (hd : KeysDistinct j) (hl : ListIs j k R l) (hm : ListIs j k S m) :
    List.length l = List.length m := by
  cases hl with
  | inl a =>
    have ⟨ha, e⟩ := a
    subst e
    cases hm with
    | inl b => have ⟨_, e'⟩ := b; subst e'; rfl
    | inr b => have ⟨_, hf, _⟩ := b; have n := ha _ hf; cases n
  | inr a =>
    have ⟨xs, hx, hr⟩ := a
    cases hm with
    | inl b => have ⟨hb, _⟩ := b; have n := hb _ hx; cases n
    | inr b =>
      have ⟨ys, hy, hs⟩ := b
      have e := fieldUnique hd hx hy
      cases e
      rw [← forall2Length hr, forall2Length hs]

/-- Two policies exactly read from one document with distinct names have lists of equal length. -/
theorem decodesExactlyLengths {j : Json} {p q : Policy} (hd : KeysDistinct j)
    (hp : DecodesExactly j p) (hq : DecodesExactly j q) :
    List.length p.resolvers = List.length q.resolvers ∧ List.length p.nodes = List.length q.nodes ∧
    List.length p.edges = List.length q.edges ∧ List.length p.agents = List.length q.agents ∧
    List.length p.tools = List.length q.tools ∧ List.length p.origins = List.length q.origins ∧
    List.length p.histories = List.length q.histories ∧ List.length p.user = List.length q.user ∧
    List.length p.app = List.length q.app ∧ List.length p.xflows = List.length q.xflows ∧
    List.length p.audiences = List.length q.audiences :=
  match hp, hq with
  | ⟨_, _, _, _, p1, p2, p3, p4, p5, p6, p7, p8, p9, p10, _, p11⟩,
    ⟨_, _, _, _, q1, q2, q3, q4, q5, q6, q7, q8, q9, q10, _, q11⟩ =>
    ⟨listIsLength hd p1 q1, listIsLength hd p2 q2, listIsLength hd p3 q3, listIsLength hd p4 q4,
      listIsLength hd p5 q5, listIsLength hd p6 q6, listIsLength hd p7 q7, listIsLength hd p8 q8,
      listIsLength hd p9 q9, listIsLength hd p10 q10, listIsLength hd p11 q11⟩

end AgentWarrant.Monitor.Full
