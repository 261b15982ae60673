import AgentWarrant.Thm.Revision.ArgCoverWayKeys
/-! Each hypothesis `preparedCoverDistinct` (`Thm/Revision/ArgCoverWayKeys.lean`) keeps beyond preparation is
needed: for each, a policy's tools, entries, `E` and a listed set on which every other hypothesis holds
(every way with a question answered covered by `argCover`, computed; the entries in the fragment; a call
preparation accepts on the task's start) and the conclusion fails.
* `needsDistinct`: a call repeating the argument key `x` (the effect's resource from the first pair, the
  entries' predicates reading the last);
* `needsE`: a call whose resource lies outside `E` (the monitor never reads `E`).
A resource constant that is null no longer needs a hypothesis: its way has a question
(`Thm/Revision/ArgCoverNull.lean`). -/
namespace AgentWarrant.Revision.ArgCover
open Lean AgentWarrant AgentWarrant.Monitor AgentWarrant.Monitor.Full AgentWarrant.Json

/-- A tool whose effect of action `a` takes its resource from its required argument `x`. -/
def exTool : Tool := ⟨"t", "op", "src", "dst", ["x"], ["x"], [⟨"a", ResRef.arg "x"⟩]⟩

def exDecl : EffDecl := ⟨"a", ResRef.arg "x"⟩

theorem exWays (p : Policy) (hp : p.tools = [exTool]) (t : Tool) (d : EffDecl) (h : (t, d) ∈ ways "a" p.tools) :
    t = exTool ∧ d = exDecl := by
  rw [hp] at h
  have e := memOne (h : (t, d) ∈ [(exTool, exDecl)])
  exact ⟨congrArg Prod.fst e, congrArg Prod.snd e⟩

def effY : Effect := ⟨"a", Json.str "y"⟩

-- needsFirst ------------------------------------------------------------------------------------------

def dupCall : Call := ⟨"agent", "t", [("x", Json.str "y"), ("x", Json.arr #[])], [], []⟩

/-- Two entries: the resource `"y"`, and the argument `x` equal to `"y"`. -/
def dupGs : List Monitor.Full.Grant :=
  [⟨true, "a", Pat.const (Json.str "y"), none, [], none, none, false⟩,
   ⟨true, "a", Pat.any, none, [Pred.eq ["x"] (Json.str "y")], none, none, false⟩]

def dupCond : List SClause := [[((Src.path ["x"], Lit.present), true)], [((Src.path ["x"], Lit.scalar), true)]]

-- the covered answer is computed by the kernel; more than the default budget
set_option maxHeartbeats 1000000 in
theorem dupCovered (p : Policy) (hp : p.tools = [exTool]) : WaysCovered p "a" dupGs none [[true, true], [false, false]] := by
  intro t d cond hw hc
  have ⟨et, ed⟩ := exWays p hp t d hw
  subst et; subst ed
  rw [hp] at hc ⊢
  have e : wayCond "a" [exTool] dupGs none exTool exDecl = some dupCond := rfl
  rw [e] at hc
  rw [← Option.some.inj hc]
  rfl

/-- Without distinct argument keys (`hdistinct`, or `hfirst`) the conclusion fails: every way is covered with
the two entries matching together (the question reads the resource at `x`), yet preparation accepts a call
repeating `x` on which the monitor matches the first entry and not the second. -/
theorem needsDistinct (p : Policy) (hp : p.tools = [exTool]) :
    WaysCovered p "a" dupGs none [[true, true], [false, false]] ∧
    (∀ g, g ∈ dupGs → g.action = "a" → grantOk g = true) ∧
    prepare p (initialState p) dupCall = Except.ok (exTool, [effY]) ∧ isScalar effY.res = true ∧ InE none effY ∧
    keysDistinct dupCall.args = false ∧ lookupPath (argsJson dupCall.args) ["x"] ≠ dupCall.args.lookup "x" ∧
    anyB (fun u => decide (u = dupGs.map (fun g => grantMatches (initialState p) dupCall.args g effY)))
      [[true, true], [false, false]] = false := by
  refine ⟨dupCovered p hp, ?_, ?_, rfl, fun cs h => Option.noConfusion h, rfl, ?_, rfl⟩
  · intro g hg _
    cases memCons hg with
    | inl e => rw [e]; rfl
    | inr h => rw [memOne h]; rfl
  · simp only [prepare, hp]; rfl
  · intro h
    have e : (some (Json.arr #[]) : Option Json) = some (Json.str "y") := h
    exact Json.noConfusion (Option.some.inj e)

-- needsE ----------------------------------------------------------------------------------------------

def exCall : Call := ⟨"agent", "t", [("x", Json.str "y")], [], []⟩

/-- One entry: the resource `"y"`. -/
def yGs : List Monitor.Full.Grant := [⟨true, "a", Pat.const (Json.str "y"), none, [], none, none, false⟩]

def eCondX : List SClause :=
  [[((Src.path ["x"], Lit.present), true)], [((Src.path ["x"], Lit.scalar), true)],
   [((Src.path ["x"], Lit.eqStr "x".toList), true)]]

set_option maxHeartbeats 1000000 in
theorem xCovered (p : Policy) (hp : p.tools = [exTool]) : WaysCovered p "a" yGs (some [Json.str "x"]) [[false]] := by
  intro t d cond hw hc
  have ⟨et, ed⟩ := exWays p hp t d hw
  subst et; subst ed
  rw [hp] at hc ⊢
  have e : wayCond "a" [exTool] yGs (some [Json.str "x"]) exTool exDecl = some eCondX := rfl
  rw [e] at hc
  rw [← Option.some.inj hc]
  rfl

/-- Without `hE` the conclusion fails: with `E`'s resources `["x"]` the entry for `"y"` never matches and
the way is covered with it unmatched, yet preparation accepts a call whose resource is `"y"`. -/
theorem needsE (p : Policy) (hp : p.tools = [exTool]) :
    WaysCovered p "a" yGs (some [Json.str "x"]) [[false]] ∧
    (∀ g, g ∈ yGs → g.action = "a" → grantOk g = true) ∧
    prepare p (initialState p) exCall = Except.ok (exTool, [effY]) ∧ isScalar effY.res = true ∧
    keysDistinct exCall.args = true ∧ ¬ InE (some [Json.str "x"]) effY ∧
    anyB (fun u => decide (u = yGs.map (fun g => grantMatches (initialState p) exCall.args g effY))) [[false]] = false := by
  refine ⟨xCovered p hp, ?_, ?_, rfl, rfl, ?_, rfl⟩
  · intro g hg _
    rw [memOne hg]; rfl
  · simp only [prepare, hp]; rfl
  · intro h
    have h1 := h [Json.str "x"] rfl
    have e : anyB (fun c => holds (eqLitOf c) (avOf effY.res)) [Json.str "x"] = false := rfl
    rw [e] at h1
    cases h1

end AgentWarrant.Revision.ArgCover
