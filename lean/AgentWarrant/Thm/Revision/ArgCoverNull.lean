import AgentWarrant.Thm.Revision.ArgCoverWayKeys
/-! A tool whose resource is the constant `null` (Agenra Sections 5.1, 7.1): the monitor prepares its
effect (`prepare` keeps the constant) and an entry with any resource matches it, so the way must have a
question. `wayQ` writes it (`resCond`: the resource is `isNull`), and the coverage theorem
(`preparedCoverDistinct`) assumes nothing of the resource. On the smallest such policy (one tool, one
`any` entry): the way's condition is exactly "the resource is null", a certificate listing no vector is
not covered (were it, the coverage theorem would put the monitor's vector `[true]` among none), and one
listing `[true]` is. A translation writing no question for the way would answer the empty list covered
(the differential test's `test_a_translation_without_the_null_way_is_caught`). -/
namespace AgentWarrant.Revision.ArgCover
open Lean AgentWarrant AgentWarrant.Monitor AgentWarrant.Monitor.Full

/-- A tool whose effect of action `a` has the constant resource `null`. -/
def nullTool : Tool := ⟨"n", "op", "src", "dst", [], [], [⟨"a", ResRef.const Json.null⟩]⟩

def nullDecl : EffDecl := ⟨"a", ResRef.const Json.null⟩

def nullCall : Call := ⟨"agent", "n", [], [], []⟩

/-- One entry: any resource. -/
def anyGs : List Monitor.Full.Grant := [⟨true, "a", Pat.any, none, [], none, none, false⟩]

def nullCond : List SClause := [[((Src.res, Lit.isNull), true)]]

theorem nullWays (p : Policy) (hp : p.tools = [nullTool]) (t : Tool) (d : EffDecl) (h : (t, d) ∈ ways "a" p.tools) :
    t = nullTool ∧ d = nullDecl := by
  rw [hp] at h
  have e := memOne (h : (t, d) ∈ [(nullTool, nullDecl)])
  exact ⟨congrArg Prod.fst e, congrArg Prod.snd e⟩

/-- The null way's condition: the resource is null. -/
theorem nullWayCond (p : Policy) (hp : p.tools = [nullTool]) :
    wayCond "a" p.tools anyGs none nullTool nullDecl = some nullCond := by
  rw [hp]; rfl

-- the covered answer is computed by the kernel; more than the default budget
set_option maxHeartbeats 1000000 in
theorem nullCovered (p : Policy) (hp : p.tools = [nullTool]) : WaysCovered p "a" anyGs none [[true]] := by
  intro t d cond hw hc
  have ⟨et, ed⟩ := nullWays p hp t d hw
  subst et; subst ed
  rw [hp] at hc ⊢
  have e : wayCond "a" [nullTool] anyGs none nullTool nullDecl = some nullCond := rfl
  rw [e] at hc
  rw [← Option.some.inj hc]
  rfl

theorem nullPrepared (p : Policy) (hp : p.tools = [nullTool]) :
    prepare p (initialState p) nullCall = Except.ok (nullTool, [⟨"a", Json.null⟩]) := by
  simp only [prepare, hp]; rfl

/-- The null way is asked about: its condition is "the resource is null", listing no vector is not
covered (by the coverage theorem itself: the prepared call's effect has the vector `[true]`), and listing
`[true]` is. -/
theorem nullWayAsked (p : Policy) (hp : p.tools = [nullTool]) :
    wayCond "a" p.tools anyGs none nullTool nullDecl = some nullCond ∧
    ¬ WaysCovered p "a" anyGs none [] ∧ WaysCovered p "a" anyGs none [[true]] := by
  refine ⟨nullWayCond p hp, ?_, nullCovered p hp⟩
  intro hcov
  have hfrag : ∀ g, g ∈ anyGs → g.action = "a" → grantOk g = true := by
    intro g hg _
    rw [memOne hg]; rfl
  have g := preparedCoverDistinct p "a" anyGs none [] hfrag hcov (initialState p) ⟨[], rfl⟩ nullCall nullTool
    [⟨"a", Json.null⟩] (nullPrepared p hp) ⟨"a", Json.null⟩ (Mem.head _) rfl (fun cs h => Option.noConfusion h) rfl
  cases g

end AgentWarrant.Revision.ArgCover
