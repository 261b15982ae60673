import AgentWarrant.Spec.Monitor.Policy
/-! Which places of a policy's JSON form (corpus/schemas/policy.schema.json) the decoded `Policy`
holds, stated with membership: `Decodes j p` says that, for the lists it covers, each list of `p` is
empty or is read element by element from the array the document holds under that key, each element's
fields being member values of that array element (`Field`). `Thm/Monitor/Decode.lean` proves that
the oracle's decoder `policyOf` produces only policies so related to its input (`policyOfDecodes`).

Covered: the resolvers (slot, tool, arguments and dotted path, the fields the slot step and the
registration checks read) and the names of nodes, agents and tools. Not covered: labels by level
name, edges' endpoints and propagation, tools' other fields, origins, flows, audiences, histories and
grants; these stay definitions of the decoder, checked by the differential tests. -/
namespace AgentWarrant.Monitor.Full
open Lean

/-- `R` relates the two lists element by element (so they have the same length). -/
inductive Forall2 {α β : Type} (R : α → β → Prop) : List α → List β → Prop
  | nil : Forall2 R [] []
  | cons {a : α} {b : β} {as : List α} {bs : List β} : R a b → Forall2 R as bs → Forall2 R (a :: as) (b :: bs)

/-- `j` is an object with member `k` holding `v`. -/
def Field (j : Json) (k : String) (v : Json) : Prop := ∃ kvs, j = Json.obj kvs ∧ (k, v) ∈ pairs kvs

/-- The list `out` is absent from the document (empty) or read from the array at `k`, element by element. -/
def ListAt {α : Type} (j : Json) (k : String) (R : Json → α → Prop) (out : List α) : Prop :=
  out = [] ∨ ∃ xs, Field j k (Json.arr ⟨xs⟩) ∧ Forall2 R xs out

def ResolverAt (x : Json) (r : Resolver) : Prop :=
  Field x "slot" (Json.str r.slot) ∧ Field x "tool" (Json.str r.tool) ∧ Field x "args" r.args ∧
    ∃ path, Field x "path" (Json.str path) ∧ r.path = path.splitOn "."

def NamedAt (x : Json) (name : String) : Prop := Field x "name" (Json.str name)

def Decodes (j : Json) (p : Policy) : Prop :=
  ListAt j "resolvers" ResolverAt p.resolvers ∧
  ListAt j "nodes" (fun x (n : Node) => NamedAt x n.name) p.nodes ∧
  ListAt j "agents" (fun x (a : Agent) => NamedAt x a.name) p.agents ∧
  ListAt j "tools" (fun x (t : Tool) => NamedAt x t.name) p.tools

end AgentWarrant.Monitor.Full
