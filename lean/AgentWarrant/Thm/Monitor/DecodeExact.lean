import AgentWarrant.Thm.Monitor.DecodeFind
import AgentWarrant.Thm.Oracle.Keys
/-! The decoder reads each top-level list of the policy exactly from the document: on a document
whose objects are search trees (every input the oracle judges, `Oracle.judgedOrdered`), a list it
returns empty comes from a document with no such member (or `null`), never from one whose array it
skipped, and every other list has one element per element of the document's array, in order
(`policyOfDecodesExactly`, `DecodesExactly`); so do the declared categories. `Decodes` alone let any
list be empty. On a document whose objects also have distinct names, `DecodesExactly` fixes each
list's length (`decodesExactlyLengths`): two policies it relates to the same document have lists of
equal length, each the length of the document's array. Where the element relation is functional
there, it fixes the list itself (`listIsUnique`): the level list and declared categories, the
resolvers, nodes, agents, history rules and audiences (`decodesExactlyFixes`; a rank is the first
position of its level name, `rankUnique`). The other lists' element relations (edges, tools,
origins, grants, flow rules) state optional members one way only (an absent-or-empty reading
allowed where the document holds a value), so `DecodesExactly` does not fix them; `DecodesIs`, which
states every member both ways, fixes the whole policy and is the decoder's meaning on these
documents (`Thm/Monitor/DecodeConverse.lean`, `Thm/Monitor/DecodeSound.lean`). -/
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

/-- Two lists read element by element from one list, by a relation functional on its elements, are equal. -/
theorem forall2Unique {α β : Type} {R : α → β → Prop} :
    ∀ {xs : List α} {l m : List β}, (∀ x a b, x ∈ xs → R x a → R x b → a = b) →
      Forall2 R xs l → Forall2 R xs m → l = m
  | _, _, _, _, Forall2.nil, Forall2.nil => rfl
  | x :: _, _, _, hu, Forall2.cons ha hr, Forall2.cons hb hs => by
    rw [hu x _ _ (Mem.head _) ha hb, forall2Unique (fun y a b hy => hu y a b (Mem.tail _ hy)) hr hs]

/-- On a document with distinct names, an exactly read list is fixed by a relation functional on
the array's elements (each of which has distinct names too). -/
theorem listIsUnique {α : Type} {j : Json} {k : String} {R : Json → α → Prop} {l m : List α}
    (hd : KeysDistinct j) (hu : ∀ x a b, KeysDistinct x → R x a → R x b → a = b)
    (hl : ListIs j k R l) (hm : ListIs j k R m) : l = m := by
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
      have ⟨_, ej, hmem⟩ := hx
      subst ej
      have hxs : KeysDistinct (Json.arr ⟨xs⟩) := kdObjElem hd hmem
      exact forall2Unique (fun x a b hmx => hu x a b (kdArrElem hxs hmx)) hr hs

theorem strField {x : Json} {k s t : String} (hd : KeysDistinct x) (hs : Field x k (Json.str s))
    (ht : Field x k (Json.str t)) : s = t := by
  have e := fieldUnique hd hs ht
  cases e
  rfl

theorem resolverAtUnique {x : Json} {r s : Resolver} (hd : KeysDistinct x) (hr : ResolverAt x r)
    (hs : ResolverAt x s) : r = s := by
  cases r with
  | mk slot tool args path =>
    cases s with
    | mk slot' tool' args' path' =>
      have ⟨a1, a2, a3, p, a4, a5⟩ := hr
      have ⟨b1, b2, b3, q, b4, b5⟩ := hs
      have e1 := strField hd a1 b1
      have e2 := strField hd a2 b2
      have e3 := fieldUnique hd a3 b3
      have e4 := strField hd a4 b4
      subst e1; subst e2; subst e3; subst e4
      have e5 : path = path' := by
        have u : path = p.splitOn "." := a5
        have w : path' = p.splitOn "." := b5
        rw [u, w]
      subst e5
      rfl

theorem historyAtUnique {x : Json} {h g : History} (hd : KeysDistinct x) (hh : HistoryAt x h)
    (hg : HistoryAt x g) : h = g := by
  cases h with
  | mk name lineage after require before =>
    cases g with
    | mk name' lineage' after' require' before' =>
      have ⟨a1, ⟨sc, a2, a3⟩, a4, a5, a6⟩ := hh
      have ⟨b1, ⟨sc', b2, b3⟩, b4, b5, b6⟩ := hg
      have e1 := strField hd a1 b1
      have e2 := strField hd a2 b2
      have e4 := strField hd a4 b4
      have e5 := strField hd a5 b5
      have e6 := strField hd a6 b6
      subst e1; subst e2; subst e4; subst e5; subst e6
      have e3 : lineage = lineage' := by
        have u : lineage = (sc == "lineage") := a3
        have w : lineage' = (sc == "lineage") := b3
        rw [u, w]
      subst e3
      rfl

theorem kindNe {r : Json} {a b : String} (hd : KeysDistinct r) (ha : Field r "kind" (Json.str a))
    (hb : Field r "kind" (Json.str b)) (hne : a ≠ b) : False :=
  hne (strField hd ha hb)

/-- A resource pattern is fixed by its `kind` and the member that kind reads. -/
theorem patAtUnique {r : Json} {x y : Pat} (hd : KeysDistinct r) (hx : PatAt r x) (hy : PatAt r y) : x = y := by
  cases x with
  | any =>
    cases y with
    | any => rfl
    | const _ => exact False.elim (kindNe hd hx hy.1 (by decide))
    | slot _ => exact False.elim (kindNe hd hx hy.1 (by decide))
    | glob _ => have ⟨⟨k, hk, n1, _, _⟩, _⟩ := hy; exact False.elim (n1 (strField hd hk hx))
  | const v =>
    cases y with
    | any => exact False.elim (kindNe hd hx.1 hy (by decide))
    | const w => have e := fieldUnique hd hx.2 hy.2; subst e; rfl
    | slot _ => exact False.elim (kindNe hd hx.1 hy.1 (by decide))
    | glob _ => have ⟨⟨k, hk, _, n2, _⟩, _⟩ := hy; exact False.elim (n2 (strField hd hk hx.1))
  | slot s =>
    cases y with
    | any => exact False.elim (kindNe hd hx.1 hy (by decide))
    | const _ => exact False.elim (kindNe hd hx.1 hy.1 (by decide))
    | slot t => have e := strField hd hx.2 hy.2; subst e; rfl
    | glob _ => have ⟨⟨k, hk, _, _, n3⟩, _⟩ := hy; exact False.elim (n3 (strField hd hk hx.1))
  | glob g =>
    have ⟨⟨k, hk, n1, n2, n3⟩, hg⟩ := hx
    cases y with
    | any => exact False.elim (n1 (strField hd hk hy))
    | const _ => exact False.elim (n2 (strField hd hk hy.1))
    | slot _ => exact False.elim (n3 (strField hd hk hy.1))
    | glob g' => have e := strField hd hg hy.2; subst e; rfl

theorem audEffAtUnique {x : Json} {a b : AudEff} (hd : KeysDistinct x) (ha : AudEffAt x a) (hb : AudEffAt x b) :
    a = b := by
  cases a with
  | mk act pat =>
    cases b with
    | mk act' pat' =>
      have ⟨a1, r, a2, a3⟩ := ha
      have ⟨b1, r', b2, b3⟩ := hb
      have e1 := strField hd a1 b1
      have e2 := fieldUnique hd a2 b2
      subst e1; subst e2
      have ⟨_, ej, hm⟩ := a2
      subst ej
      have e3 := patAtUnique (kdObjElem hd hm) a3 b3
      subst e3
      rfl

theorem audienceAtUnique {x : Json} {a b : Audience} (hd : KeysDistinct x) (ha : AudienceAt x a)
    (hb : AudienceAt x b) : a = b := by
  cases a with
  | mk node effs =>
    cases b with
    | mk node' effs' =>
      have ⟨a1, xs, a2, a3⟩ := ha
      have ⟨b1, ys, b2, b3⟩ := hb
      have e1 := strField hd a1 b1
      have e2 := fieldUnique hd a2 b2
      cases e2
      subst e1
      have ⟨_, ej, hm⟩ := a2
      subst ej
      have hxs : KeysDistinct (Json.arr ⟨xs⟩) := kdObjElem hd hm
      have e3 := forall2Unique (R := AudEffAt) (fun y c d hy => audEffAtUnique (kdArrElem hxs hy)) a3 b3
      subst e3
      rfl

theorem strsAtUnique {j : Json} {k : String} {l m : List String} (hd : KeysDistinct j) (hl : StrsAt j k l)
    (hm : StrsAt j k m) : l = m := by
  have ⟨xs, hx, hr⟩ := hl
  have ⟨ys, hy, hs⟩ := hm
  have e := fieldUnique hd hx hy
  cases e
  exact forall2Unique (R := fun x s => x = Json.str s) (fun x a b _ ea eb => by rw [ea] at eb; cases eb; rfl) hr hs

theorem optStrsIsUnique {j : Json} {k : String} {l m : List String} (hd : KeysDistinct j) (hl : OptStrsIs j k l)
    (hm : OptStrsIs j k m) : l = m := by
  cases hl with
  | inl a =>
    have ⟨ha, e⟩ := a
    subst e
    cases hm with
    | inl b => have ⟨_, e'⟩ := b; subst e'; rfl
    | inr b => have ⟨_, hf, _⟩ := b; have n := ha _ hf; cases n
  | inr a =>
    cases hm with
    | inl b => have ⟨hb, _⟩ := b; have ⟨_, hf, _⟩ := a; have n := hb _ hf; cases n
    | inr b => exact strsAtUnique hd a b

/-- A level name's first position is unique. -/
theorem rankUnique {levels : List String} {s : String} {i i' : Nat} (hi : nth? levels i = some s)
    (fi : ∀ m, m < i → nth? levels m ≠ some s) (hi' : nth? levels i' = some s)
    (fi' : ∀ m, m < i' → nth? levels m ≠ some s) : i = i' := by
  cases Nat.ltOrGe i i' with
  | inl hl => exact False.elim (fi' i hl hi)
  | inr hg =>
    cases Nat.ltOrGe i' i with
    | inl hl => exact False.elim (fi i' hl hi')
    | inr hg' => exact Nat.leAntisymm hg' hg

theorem rankAtUnique {levels : List String} {x : Json} {k : String} {i i' : Nat} (hd : KeysDistinct x)
    (hi : RankAt levels x k i) (hi' : RankAt levels x k i') : i = i' := by
  have ⟨s, a1, a2, a3⟩ := hi
  have ⟨t, b1, b2, b3⟩ := hi'
  have e := strField hd a1 b1
  subst e
  exact rankUnique a2 a3 b2 b3

theorem agentAtUnique {levels : List String} {x : Json} {a b : Agent} (hd : KeysDistinct x)
    (ha : AgentAt levels x a) (hb : AgentAt levels x b) : a = b := by
  cases a with
  | mk name ops ceiling =>
    cases b with
    | mk name' ops' ceiling' =>
      have ⟨a1, a2, a3⟩ := ha
      have ⟨b1, b2, b3⟩ := hb
      have e1 := strField hd a1 b1
      have e2 := strsAtUnique hd a2 b2
      have e3 := rankAtUnique hd a3 b3
      subst e1; subst e2; subst e3
      rfl

theorem nodeAtUnique {levels cats : List String} {x : Json} {a b : Node} (hd : KeysDistinct x)
    (ha : NodeAt levels cats x a) (hb : NodeAt levels cats x b) : a = b := by
  cases a with
  | mk name lab =>
    cases b with
    | mk name' lab' =>
      cases lab with
      | mk sens cs tr =>
        cases lab' with
        | mk sens' cs' tr' =>
          have ⟨a1, l, a2, a3, ⟨h1, a4, a5⟩, a6⟩ := ha
          have ⟨b1, l', b2, b3, ⟨h2, b4, b5⟩, b6⟩ := hb
          have e1 := strField hd a1 b1
          have e2 := fieldUnique hd a2 b2
          subst e1; subst e2
          have ⟨_, ej, hm⟩ := a2
          subst ej
          have hl := kdObjElem hd hm
          have e3 := rankAtUnique hl a3 b3
          have e4 := strsAtUnique hl a4 b4
          have e5 := fieldUnique hl a6 b6
          cases e5
          subst e3; subst e4
          have e6 : cs = cs' := by
            have u : cs = CatsOf cats h1 := a5
            have w : cs' = CatsOf cats h1 := b5
            rw [u, w]
          subst e6
          rfl

/-- On a document with distinct names, `DecodesExactly` fixes the level list and the declared
categories, and the resolvers, nodes, agents, history rules and audiences: two policies it relates to
one such document have the same ones. -/
theorem decodesExactlyFixes {j : Json} {p q : Policy} (hd : KeysDistinct j)
    (hp : DecodesExactly j p) (hq : DecodesExactly j q) :
    p.resolvers = q.resolvers ∧ p.nodes = q.nodes ∧ p.agents = q.agents ∧ p.histories = q.histories ∧
      p.audiences = q.audiences := by
  have ⟨lv, cs, hl, hc, p1, p2, _, p4, _, _, p7, _, _, _, _, p11⟩ := hp
  have ⟨lv', cs', hl', hc', q1, q2, _, q4, _, _, q7, _, _, _, _, q11⟩ := hq
  have e1 := strsAtUnique hd hl hl'
  have e2 := optStrsIsUnique hd hc hc'
  subst e1; subst e2
  exact ⟨listIsUnique (R := ResolverAt) hd (fun _ _ _ h => resolverAtUnique h) p1 q1,
    listIsUnique (R := NodeAt lv cs) hd (fun _ _ _ h => nodeAtUnique h) p2 q2,
    listIsUnique (R := AgentAt lv) hd (fun _ _ _ h => agentAtUnique h) p4 q4,
    listIsUnique (R := HistoryAt) hd (fun _ _ _ h => historyAtUnique h) p7 q7,
    listIsUnique (R := AudienceAt) hd (fun _ _ _ h => audienceAtUnique h) p11 q11⟩

end AgentWarrant.Monitor.Full
