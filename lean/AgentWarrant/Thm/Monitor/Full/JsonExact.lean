import AgentWarrant.Thm.Monitor.Json
import AgentWarrant.Thm.Oracle.Depth
import AgentWarrant.Thm.Monitor.Full.SlotMeaning
import AgentWarrant.Thm.Monitor.Full.Bindings
import AgentWarrant.Spec.Revision.ListLemmas
/-! Where the monitor's JSON equality can be wrong, stated at every depth, and what it makes of the
resolvers that apply to a result (Agenra Section 5: constants and arguments are JSON values compared
by value; Section 5.1: a lookup is a successful call of a resolver's tool with its arguments).

`jeq` recurses on the nesting fuel `jsonFuel` (`Spec/Monitor/Json.lean` says why no computable
definition can recurse on a value's own depth in this toolchain). These theorems say exactly what
that costs, with no hypothesis: an "equal" answer is right at every depth (`jeqFSound`); an
"unequal" answer is wrong only for a left value nesting `jsonFuel` levels or deeper
(`jeqWrongOnlyDeep`); so at every pair of values `jeq` decides `JEq`, or the left value nests
`jsonFuel` levels or deeper (`jeqExactOrDeep`). That second case happens: a value nesting exactly
`jsonFuel` deep is `JEq` to itself and `jeq` answers "unequal" (`jeqFuelSharp`, `jeqNotTotal` in
`Thm/Monitor/Json.lean`), so no depth hypothesis below can be dropped. The oracle refuses every input that deep before any
judgment runs (`Oracle.guardedRefuses`), and Python's JSON boundary refuses nesting far shallower
(`model/base/jsonio.py`, tests/unit/test_json_depth_bound.py), so no comparison the deployed
paths make reaches that case.

Resolvers (`jeqResolverApplies`, `jeqResolversApplying`): the filter the result step applies
(`stepLookups`, `observe`) keeps a resolver exactly when its tool is the record's and its argument
object is `JEq` to the record's arguments, for every resolver whose arguments nest less deep than
`jsonFuel`, which holds of every policy the oracle decodes from an input its guard admits
(`policyArgsWithin`, `Thm/Monitor/Decode.lean`). -/
namespace AgentWarrant.Monitor.Full
open Lean AgentWarrant

/-- `jeq` answers "unequal" for equal values only when the left one nests `jsonFuel` levels or deeper
(it never answers "equal" wrongly: `jeqFSound`). -/
theorem jeqWrongOnlyDeep {a b : Json} (hf : jeq a b = false) (hj : JEq a b) : ∀ n, Depth n a → jsonFuel ≤ n := by
  intro n hd
  cases Nat.ltOrGe n jsonFuel with
  | inl hn =>
    have ht : jeq a b = true := (jeqIff hd hn b).2 hj
    rw [hf] at ht
    cases ht
  | inr hn => exact hn

/-- At every pair of values: `jeq` decides `JEq`, or the left value nests `jsonFuel` levels or deeper
(every depth it has is at least `jsonFuel`). -/
theorem jeqExactOrDeep (a b : Json) : (jeq a b = true ↔ JEq a b) ∨ (∀ n, Depth n a → jsonFuel ≤ n) := by
  cases hw : Oracle.depthWithin jsonFuel a with
  | true =>
    have ⟨n, hd, hn⟩ := Oracle.depthWithinSound hw
    exact Or.inl (jeqIff hd hn b)
  | false =>
    refine Or.inr (fun n hd => ?_)
    cases Nat.ltOrGe n jsonFuel with
    | inl hn =>
      have ht : Oracle.depthWithin jsonFuel a = true := (Oracle.depthWithinIff jsonFuel a).2 ⟨n, hd, hn⟩
      rw [hw] at ht
      cases ht
    | inr hn => exact hn

/-- The result step's test of one resolver against a record's tool and arguments is the declarative
one: same tool, and argument objects equal as JSON values, for a resolver whose arguments nest less
deep than `jsonFuel`. -/
theorem jeqResolverApplies (r : Resolver) (tool : String) (args : List (String × Json)) {n : Nat}
    (hd : Depth n r.args) (hn : n < jsonFuel) :
    (r.tool == tool && jeq r.args (argsJson args)) = true ↔ (r.tool = tool ∧ JEq r.args (argsJson args)) := by
  refine ⟨fun h => ?_, fun ⟨h1, h2⟩ => ?_⟩
  · have ⟨h1, h2⟩ := andT h
    exact ⟨strEqOfBeq h1, (jeqIff hd hn _).1 h2⟩
  · have e1 : (r.tool == tool) = true := decideEqTrue h1
    have e2 : jeq r.args (argsJson args) = true := (jeqIff hd hn _).2 h2
    rw [e1, e2]
    rfl

/-- The resolvers the result step keeps for a record (`stepLookups`): exactly those of the policy
with the record's tool and arguments `JEq` to the record's, when every resolver's arguments nest less
deep than `jsonFuel`. -/
theorem jeqResolversApplying (rs : List Resolver) (tool : String) (args : List (String × Json))
    (hd : ∀ r, r ∈ rs → ∃ n, Depth n r.args ∧ n < jsonFuel) (r : Resolver) :
    r ∈ rs.filter (fun r => r.tool == tool && jeq r.args (argsJson args)) ↔
      (r ∈ rs ∧ r.tool = tool ∧ JEq r.args (argsJson args)) := by
  refine ⟨fun h => ?_, fun ⟨hm, ht, hj⟩ => ?_⟩
  · have ⟨hm, hp⟩ := memFilterStdElim h
    have ⟨n, hdn, hn⟩ := hd r hm
    exact ⟨hm, (jeqResolverApplies r tool args hdn hn).1 hp⟩
  · have ⟨n, hdn, hn⟩ := hd r hm
    exact memFilterStd hm ((jeqResolverApplies r tool args hdn hn).2 ⟨ht, hj⟩)

end AgentWarrant.Monitor.Full
