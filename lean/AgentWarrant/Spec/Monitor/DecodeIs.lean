import AgentWarrant.Spec.Monitor.Decode
/-! The policy a JSON document (corpus/schemas/policy.schema.json) describes, stated exactly in every
member, so that it is the document's one reading: `DecodesIs j p`. It is `DecodesExactly`
(`Spec/Monitor/Decode.lean`) with each optional member inside an element stated both ways: where
`DecodesExactly` lets an optional string list be empty, an optional level, flag, number,
requirement or sink argument be absent, a tool's operation be its name, a quota be one or a
decrement be zero whatever the document holds there, `DecodesIs` allows that reading only when the
document has no member of the type the decoder reads at that key (absent, `null`, or for a flag,
string or number member, a value of another type). Members the decoder requires or refuses keep
their `Decodes` reading (a level name is a declared level, an optional string list is an array of
strings, a range bound is a number). On a document whose objects are search trees the decoder
returns exactly the policy `DecodesIs` relates to it (`Thm/Monitor/DecodeConverse.lean`,
`policyOfIs`), and only that one (`Thm/Monitor/DecodeSound.lean`, `policyOfDecodesIs`, `policyOfIff`). -/
namespace AgentWarrant.Monitor.Full
open Lean

/-- The string a member holds, when it is a string. -/
def selStr : Json → Option String
  | Json.str s => some s
  | _ => none

/-- The flag a member holds, when it is a boolean. -/
def selBool : Json → Option Bool
  | Json.bool b => some b
  | _ => none

/-- The number a member holds, when it is a number. -/
def selNum : Json → Option JsonNumber
  | Json.num n => some n
  | _ => none

/-- An optional member read only from one JSON type (`sel`): `some` of its value when the document's
member at `k` has that type, otherwise `none` (absent, `null`, or of another type). -/
def OptIs {β : Type} (x : Json) (k : String) (sel : Json → Option β) (o : Option β) : Prop :=
  (∃ v b, Field x k v ∧ sel v = some b ∧ o = some b) ∨ ((∀ v, Field x k v → sel v = none) ∧ o = none)

/-- An optional level: absent (or `null`), or the rank of the declared level name at `k`. -/
def OptRankIs (levels : List String) (x : Json) (k : String) (o : Option Nat) : Prop :=
  (Absent x k ∧ o = none) ∨ ∃ i, o = some i ∧ RankAt levels x k i

/-- An optional number: absent (or `null`), or the number at `k`. -/
def NumIs (x : Json) (k : String) (o : Option JsonNumber) : Prop :=
  (Absent x k ∧ o = none) ∨ ∃ n, o = some n ∧ Field x k (Json.num n)

/-- A propagation: none for kind `inherit`; otherwise a transform whose set sensitivity, set trust,
removals and decrement are exactly those members (the decrement zero when there is no number). -/
def TransformIs (levels cats : List String) (v : Json) : Option Transform → Prop
  | none => Field v "kind" (Json.str "inherit")
  | some t => (∃ k, Field v "kind" (Json.str k) ∧ k ≠ "inherit") ∧ OptRankIs levels v "sensitivity" t.setSens ∧
      OptIs v "trusted" selBool t.setTrusted ∧
      (∃ rm, OptStrsIs v "remove" rm ∧ t.remove = CatsOf cats rm) ∧
      (∃ o, OptIs v "decrement" selNum o ∧ t.decrement = (o.map (fun n => n.mantissa.toNat)).getD 0)

def EdgeIs (levels cats : List String) (x : Json) (e : Edge) : Prop :=
  NamedAt x e.name ∧ (∃ xs, Field x "endpoints" (Json.arr ⟨xs⟩) ∧ Forall2 PairAt xs e.endpoints) ∧
    ∃ v, Field x "propagation" v ∧ TransformIs levels cats v e.prop

/-- A tool: its operation is the string at `operation`, its name only when there is none. -/
def ToolIs (x : Json) (t : Tool) : Prop :=
  NamedAt x t.name ∧ (∃ o, OptIs x "operation" selStr o ∧ t.operation = o.getD t.name) ∧
    Field x "source" (Json.str t.source) ∧ Field x "destination" (Json.str t.destination) ∧
    OptStrsIs x "args" t.args ∧ OptStrsIs x "required" t.required ∧
    ∃ xs, Field x "effects" (Json.arr ⟨xs⟩) ∧ Forall2 EffAt xs t.effects

def OriginIs (x : Json) (o : Origin) : Prop :=
  NamedAt x o.name ∧ Field x "via" (Json.str o.via) ∧ Field x "argument" (Json.str o.argument) ∧
    Field x "producer" (Json.str o.producer) ∧ OptStrsIs x "preserving" o.preserving

def PredIs (x : Json) : Pred → Prop
  | Pred.eq path v => StrsAt x "path" path ∧ Field x "kind" (Json.str "eq") ∧ Field x "value" v
  | Pred.oneOf path vs => StrsAt x "path" path ∧ Field x "kind" (Json.str "one_of") ∧ Field x "values" (Json.arr ⟨vs⟩)
  | Pred.range path lo hi => StrsAt x "path" path ∧
      (∃ k, Field x "kind" (Json.str k) ∧ k ≠ "eq" ∧ k ≠ "one_of") ∧ NumIs x "low" lo ∧ NumIs x "high" hi

/-- A grant's quota: a number's value, unlimited for `null`, one when the member is absent or of
another type. -/
def QuotaIs (x : Json) (q : Option Nat) : Prop :=
  (∃ n, Field x "quota" (Json.num n) ∧ q = some n.mantissa.toNat) ∨ (Field x "quota" Json.null ∧ q = none) ∨
    ((∀ v, Field x "quota" v → v ≠ Json.null ∧ selNum v = none) ∧ q = some 1)

/-- A grant: keys exactly the strings at `keys` (none when absent), predicates exactly the array at
`where`, and quota, requirement and permit flag exactly as the members read. -/
def GrantIs (x : Json) (g : Grant) : Prop :=
  (∃ kind, Field x "kind" (Json.str kind) ∧ g.allow = (kind == "allow")) ∧ Field x "action" (Json.str g.action) ∧
    (∃ r, Field x "resource" r ∧ PatAt r g.pat) ∧
    ((Absent x "keys" ∧ g.keys = none) ∨ ∃ ks, g.keys = some ks ∧ StrsAt x "keys" ks) ∧
    ListIs x "where" PredIs g.preds ∧ QuotaIs x g.quota ∧ OptIs x "requires" selStr g.requires ∧
    (∃ o, OptIs x "permit" selBool o ∧ g.permit = o.getD false)

def GuardIs (levels cats : List String) (x : Json) (g : Guard) : Prop :=
  OptRankIs levels x "max_sensitivity" g.maxS ∧ OptRankIs levels x "min_sensitivity" g.minS ∧
    (∃ l, OptStrsIs x "any_category" l ∧ g.anyCat = CatsOf cats l) ∧
    (∃ l, OptStrsIs x "no_category" l ∧ g.noCat = CatsOf cats l) ∧
    OptIs x "trusted" selBool g.trusted

/-- A flow rule: its sink argument is the string at `argument` (none otherwise) and its guard is read
from `when`, or from an empty object exactly when `when` is absent or `null`. -/
def XFlowIs (levels cats : List String) (x : Json) (f : XFlow) : Prop :=
  (∃ ef, Field x "effect" (Json.str ef) ∧ ((ef = "deny" ∧ f.effect = 1) ∨ (ef = "pause" ∧ f.effect = 2) ∨
    (¬ ef = "deny" ∧ ¬ ef = "pause" ∧ f.effect = 0))) ∧
  Field x "operation" (Json.str f.operation) ∧ Field x "destination" (Json.str f.destination) ∧
    OptIs x "argument" selStr f.argument ∧
    ∃ g, ((Field x "when" g ∧ g ≠ Json.null) ∨ (Absent x "when" ∧ g = Json.mkObj [])) ∧ GuardIs levels cats g f.guard

/-- The policy `p` is the document's reading, exactly: every top-level list is the document's array at
its key (`ListIs`), and every member of every element is read both ways. -/
def DecodesIs (j : Json) (p : Policy) : Prop :=
  ∃ levels cats, StrsAt j "levels" levels ∧ OptStrsIs j "categories" cats ∧
  ListIs j "resolvers" ResolverAt p.resolvers ∧
  ListIs j "nodes" (NodeAt levels cats) p.nodes ∧
  ListIs j "edges" (EdgeIs levels cats) p.edges ∧
  ListIs j "agents" (AgentAt levels) p.agents ∧
  ListIs j "tools" ToolIs p.tools ∧
  ListIs j "origins" OriginIs p.origins ∧
  ListIs j "histories" HistoryAt p.histories ∧
  ListIs j "user" GrantIs p.user ∧
  ListIs j "application" GrantIs p.app ∧
  ListIs j "flows" (XFlowIs levels cats) p.xflows ∧
  p.flows = p.xflows.filterMap (fun r =>
    if r.argument.isSome then none else some ⟨r.effect == 1, r.operation, r.destination, r.guard⟩) ∧
  ListIs j "audiences" AudienceAt p.audiences

end AgentWarrant.Monitor.Full
