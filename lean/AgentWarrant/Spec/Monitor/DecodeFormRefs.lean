import AgentWarrant.Spec.Monitor.Decode
/-! Where four more of the registration form's lists come from, stated on the document, as `FormFrom`
and `FormCollects` state it of the level references: the category references (a category a node's
label lists, a propagation of kind `transform` removes, or a flow guard names), the dotted names
(the action of a tool's effect, an audience's effect or a grant, and a tool's authoritative result
paths), the counts (a transform's decrement, an allow grant's quota) and the range bounds (the `low`
and `high` of a grant predicate of kind `range`); a count or bound is a member other than `null`.
`Thm/Monitor/DecodeFormRefs.lean` proves that `formOf`'s lists are exactly these on every document
whose objects are search trees (`formCatRefsAtIff`, `formDottedAtIff`, `formCountsAtIff`,
`formBoundsAtIff`). -/
namespace AgentWarrant.Monitor.Full
open Lean

def CatRefAt (j : Json) (s : String) : Prop :=
  (∃ n l, ElemAt j "nodes" n ∧ Field n "label" l ∧ ElemAt l "categories" (Json.str s)) ∨
  (∃ e t, ElemAt j "edges" e ∧ Field e "propagation" t ∧ Field t "kind" (Json.str "transform") ∧
    ElemAt t "remove" (Json.str s)) ∨
  (∃ fl g, ElemAt j "flows" fl ∧ Field fl "when" g ∧
    (ElemAt g "any_category" (Json.str s) ∨ ElemAt g "no_category" (Json.str s)))

/-- A grant of either list. -/
def EntryAt (j : Json) (e : Json) : Prop := ElemAt j "user" e ∨ ElemAt j "application" e

def DottedAt (j : Json) (s : String) : Prop :=
  (∃ t e, ElemAt j "tools" t ∧ ElemAt t "effects" e ∧ Field e "action" (Json.str s)) ∨
  (∃ a e, ElemAt j "audiences" a ∧ ElemAt a "effects" e ∧ Field e "action" (Json.str s)) ∨
  (∃ e, EntryAt j e ∧ Field e "action" (Json.str s)) ∨
  (∃ t, ElemAt j "tools" t ∧ ElemAt t "authoritative" (Json.str s))

def CountAt (j : Json) (v : Json) : Prop :=
  v ≠ Json.null ∧
  ((∃ e t, ElemAt j "edges" e ∧ Field e "propagation" t ∧ Field t "kind" (Json.str "transform") ∧
      Field t "decrement" v) ∨
    (∃ e, EntryAt j e ∧ Field e "kind" (Json.str "allow") ∧ Field e "quota" v))

def BoundAt (j : Json) (v : Json) : Prop :=
  v ≠ Json.null ∧ ∃ e q, EntryAt j e ∧ ElemAt e "where" q ∧ Field q "kind" (Json.str "range") ∧
    (Field q "low" v ∨ Field q "high" v)

/-- A resolver's tool and result path. -/
def ResolverPathAt (j : Json) (t q : String) : Prop :=
  ∃ r, ElemAt j "resolvers" r ∧ Field r "tool" (Json.str t) ∧ Field r "path" (Json.str q)

/-- A result path a tool of that name declares authoritative. -/
def AuthAt (j : Json) (t q : String) : Prop :=
  ∃ x, ElemAt j "tools" x ∧ NamedAt x t ∧ ElemAt x "authoritative" (Json.str q)

/-- The arrays whose elements declare a name. -/
def DeclKey (k : String) : Prop :=
  k = "nodes" ∨ k = "edges" ∨ k = "agents" ∨ k = "tools" ∨ k = "origins" ∨ k = "histories"

/-- A place that must hold a name: the policy's name, a level, category or requirement, a
declaration's name, a resolver's slot, a tool's argument, a grant's key, a step of a predicate's path. -/
def NameAt (j : Json) (s : String) : Prop :=
  Field j "name" (Json.str s) ∨ ElemAt j "levels" (Json.str s) ∨ ElemAt j "categories" (Json.str s) ∨
  ElemAt j "requirements" (Json.str s) ∨ (∃ k d, DeclKey k ∧ ElemAt j k d ∧ NamedAt d s) ∨
  (∃ r, ElemAt j "resolvers" r ∧ Field r "slot" (Json.str s)) ∨
  (∃ t, ElemAt j "tools" t ∧ ElemAt t "args" (Json.str s)) ∨
  (∃ e, EntryAt j e ∧ ElemAt e "keys" (Json.str s)) ∨
  (∃ e q, EntryAt j e ∧ ElemAt e "where" q ∧ ElemAt q "path" (Json.str s))

/-- An element whose resource (a reference or pattern) may name a constant: a tool's effect, an
audience's effect, or a grant. -/
def ResourceHolderAt (j : Json) (e : Json) : Prop :=
  (∃ t, ElemAt j "tools" t ∧ ElemAt t "effects" e) ∨ (∃ a, ElemAt j "audiences" a ∧ ElemAt a "effects" e) ∨
    EntryAt j e

/-- A constant the form checks as a JSON scalar: a resource's constant (kind `const`, other than
`null`), a value of a resolver's argument map, a predicate's `eq` value (other than `null`) or an
element of its `one_of` values. -/
def ScalarAt (j : Json) (v : Json) : Prop :=
  (v ≠ Json.null ∧ ∃ e r, ResourceHolderAt j e ∧ Field e "resource" r ∧ Field r "kind" (Json.str "const") ∧
    Field r "value" v) ∨
  (∃ r a k, ElemAt j "resolvers" r ∧ Field r "args" a ∧ Field a k v) ∨
  (∃ e q, EntryAt j e ∧ ElemAt e "where" q ∧
    ((Field q "kind" (Json.str "eq") ∧ Field q "value" v ∧ v ≠ Json.null) ∨
      (Field q "kind" (Json.str "one_of") ∧ ElemAt q "values" v)))

end AgentWarrant.Monitor.Full
