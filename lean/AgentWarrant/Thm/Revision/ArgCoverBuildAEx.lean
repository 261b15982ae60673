import AgentWarrant.Thm.Revision.ArgCoverBuildAPrep
import AgentWarrant.Thm.Revision.ArgCoverWayEx
/-! The hypothesis `preparedCoverDistinctA` (`Thm/Revision/ArgCoverBuildAPrep.lean`) keeps beyond
`preparedCoverDistinct`'s is needed (Agenra Sections 5.2 and 7.1): `needsAdm` gives a policy's tools, two
entries in the fragment `grantOkA` (the argument `v` equal to one of two admitted objects that are not
`jeq` to each other), no `E` and a listed set without the vector of both entries matching, on which
`argCover` answers every way of `wayQA` covered (computed by the kernel) and preparation accepts a call on
the task's start with distinct argument keys; the call's `v` is an object naming one key twice
(`dupK`, `Thm/Revision/ArgCoverJson.lean`, which the oracle's name check refuses), `jeq` to both
constants, so the monitor matches both entries and the conclusion fails. This is
`jsonRepNeedsJudged` carried through the whole question: no literal of an admitted constant reads such a
value as the monitor's `jeq` does. -/
namespace AgentWarrant.Revision.ArgCover
open Lean AgentWarrant AgentWarrant.Monitor AgentWarrant.Monitor.Full AgentWarrant.Json

/-- A tool whose effect of action `a` takes its resource from `x`, with a second argument `v`. -/
def vTool : Tool := ⟨"t", "op", "src", "dst", ["x", "v"], ["x", "v"], [⟨"a", ResRef.arg "x"⟩]⟩

theorem vWays (p : Policy) (hp : p.tools = [vTool]) (t : Tool) (d : EffDecl) (h : (t, d) ∈ ways "a" p.tools) :
    t = vTool ∧ d = exDecl := by
  rw [hp] at h
  have e := memOne (h : (t, d) ∈ [(vTool, exDecl)])
  exact ⟨congrArg Prod.fst e, congrArg Prod.snd e⟩

/-- Two entries: `v` equal to the object `{k, m}`, and `v` equal to the object `{k, n}`. -/
def kmknGs : List Monitor.Full.Grant :=
  [⟨true, "a", Pat.any, none, [Pred.eq ["v"] objKM], none, none, false⟩,
   ⟨true, "a", Pat.any, none, [Pred.eq ["v"] objKN], none, none, false⟩]

/-- Every vector but both entries matching. -/
def kmknListed : List (List Bool) := [[false, false], [true, false], [false, true]]

def condOf : Option (List SClause) → List SClause
  | some c => c
  | none => []

-- the covered answer is computed by the kernel; more than the default budget
set_option maxHeartbeats 1000000 in
theorem kmknCovered (p : Policy) (hp : p.tools = [vTool]) : WaysCoveredA p "a" kmknGs none kmknListed := by
  intro t d cond hw hc
  have ⟨et, ed⟩ := vWays p hp t d hw
  subst et; subst ed
  rw [hp] at hc ⊢
  have e : cond = condOf (wayCond "a" [vTool] kmknGs none vTool exDecl) := by rw [hc]; rfl
  rw [e]
  rfl

def objCall : Call := ⟨"agent", "t", [("x", Json.str "y"), ("v", dupK)], [], []⟩

/-- Without `hadm` the conclusion fails: every way of `wayQA` is covered without the vector of both
entries matching, yet preparation accepts a call, with distinct keys, whose `v` (not admitted) the monitor
finds `jeq` to both constants. -/
theorem needsAdm (p : Policy) (hp : p.tools = [vTool]) :
    WaysCoveredA p "a" kmknGs none kmknListed ∧
    (∀ g, g ∈ kmknGs → g.action = "a" → grantOkA g = true) ∧
    prepare p (initialState p) objCall = Except.ok (vTool, [effY]) ∧ InE none effY ∧
    keysDistinct objCall.args = true ∧ lookupPath (argsJson objCall.args) ["v"] = some dupK ∧
    admitted dupK = false ∧
    anyB (fun u => decide (u = kmknGs.map (fun g => grantMatches (initialState p) objCall.args g effY)))
      kmknListed = false := by
  refine ⟨kmknCovered p hp, ?_, ?_, fun cs h => Option.noConfusion h, rfl, rfl, rfl, rfl⟩
  · intro g hg _
    cases memCons hg with
    | inl e => rw [e]; rfl
    | inr h => rw [memOne h]; rfl
  · simp only [prepare, hp]; rfl

end AgentWarrant.Revision.ArgCover
