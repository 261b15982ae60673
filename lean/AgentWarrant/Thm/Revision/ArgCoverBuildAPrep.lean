import AgentWarrant.Thm.Revision.ArgCoverBuildA
import AgentWarrant.Thm.Revision.ArgCoverWayKeys
/-! The coverage theorem for every call the monitor prepares, over the question `wayQA` writes (Agenra
Sections 1, 5.1 and 7.1: the closure check's coverage question with predicates against array or object
constants too). The chain is the one `wayQ`'s has (`preparedCoverMatches`, `preparedCoverEvery`,
`preparedCoverDistinct`) with `builtCoverMatchesA` in place of `builtCoverMatches`: the way, its values
and its condition come from preparation exactly as there (`effectsOfWay`, `srcVal`, `preparedWayCond`),
which reads neither the entries nor the question's literals, so only the last step changes.
Choices: the entries of the action are taken in `grantOkA` (predicate constants admitted, a resource
constant scalar or null), the fragment the oracle's `arg_cover_policy` writes `wayQA` for; the one
hypothesis beyond `preparedCoverDistinct`'s is `builtCoverMatchesA`'s `hadm` (`JsonPathsAdmitted`: the
value the call holds where an entry compares with an array or object constant passes the oracle's depth
and distinct-name checks; vacuous on entries with scalar or null constants only; needed, `needsAdm` in
`Thm/Revision/ArgCoverBuildAEx.lean`, for an arbitrary call; it and distinct keys are proved of every call
the oracle decodes from an input it answers, `preparedCoverDecodedA` in `Thm/Revision/ArgCoverAdmCall.lean`). The name check on the question's literals (`buildQAMeans`'s `hok`)
is proved from the fragment (`wayQAKeysOk`). -/
namespace AgentWarrant.Revision.ArgCover
open Lean AgentWarrant AgentWarrant.Monitor AgentWarrant.Monitor.Full

/-- `preparedCoverMatches` for `wayQA`. -/
theorem preparedCoverMatchesA (p : Policy) (a : String) (gs : List Monitor.Full.Grant) (E : Option (List Json))
    (t : Tool) (d : EffDecl) (listed : List (List Bool)) (cond : List SClause)
    (hcond : wayCond a p.tools gs E t d = some cond)
    (hfrag : ∀ g, g ∈ gs → g.action = a → grantOkA g = true)
    (hcov : argCover (Oracle.ArgCover.good
      (buildQA (cond.map liftC) (gs.map (posOfA a (wayRes d.res) (actionKeys a (ownTools a p.tools) gs)))).cond
      (buildQA (cond.map liftC) (gs.map (posOfA a (wayRes d.res) (actionKeys a (ownTools a p.tools) gs)))).pos listed)
      (buildQA (cond.map liftC) (gs.map (posOfA a (wayRes d.res) (actionKeys a (ownTools a p.tools) gs)))).atoms =
      Answer.covered)
    (s : State) (hreach : ∃ cs, s = (runFull p (initialState p) cs).2)
    (c : Call) (t' : Tool) (es : List Effect) (hprep : prepare p s c = Except.ok (t', es))
    (e : Effect) (he : e ∈ es) (ha : e.action = a) (val : Src → AV)
    (hval : ∀ src, val (reSrc (wayRes d.res) src) = srcVal s c.args e src)
    (hadm : JsonPathsAdmitted a gs c.args)
    (hin : sCnfHolds val cond = true) :
    anyB (fun u => decide (u = gs.map (fun g => grantMatches s c.args g e))) listed = true := by
  have ⟨cs, hs⟩ := hreach
  have haddr : AddrBindings s := by rw [hs]; exact runFullAddrBindings p cs
  exact builtCoverMatchesA a p.tools gs E t d listed cond hcond hfrag hcov s c.args e ha val hval
    (preparedDeclared p s c t' es hprep e he a ha gs) (fun n hm => slotBoundScalar s haddr e.res n hm) hadm hin

/-- Every way of `a` is answered covered on the question `wayQA` writes for it. -/
def WaysCoveredA (p : Policy) (a : String) (gs : List Monitor.Full.Grant) (E : Option (List Json))
    (listed : List (List Bool)) : Prop :=
  ∀ t d cond, (t, d) ∈ ways a p.tools → wayCond a p.tools gs E t d = some cond →
    argCover (Oracle.ArgCover.good
      (buildQA (cond.map liftC) (gs.map (posOfA a (wayRes d.res) (actionKeys a (ownTools a p.tools) gs)))).cond
      (buildQA (cond.map liftC) (gs.map (posOfA a (wayRes d.res) (actionKeys a (ownTools a p.tools) gs)))).pos listed)
      (buildQA (cond.map liftC) (gs.map (posOfA a (wayRes d.res) (actionKeys a (ownTools a p.tools) gs)))).atoms =
      Answer.covered

/-- `preparedCoverEvery` for `wayQA`: the way that produced the effect, the call's own values and the
way's condition as there. -/
theorem preparedCoverEveryA (p : Policy) (a : String) (gs : List Monitor.Full.Grant) (E : Option (List Json))
    (listed : List (List Bool))
    (hfrag : ∀ g, g ∈ gs → g.action = a → grantOkA g = true)
    (hcov : WaysCoveredA p a gs E listed)
    (s : State) (hreach : ∃ cs, s = (runFull p (initialState p) cs).2)
    (c : Call) (t : Tool) (es : List Effect) (hprep : prepare p s c = Except.ok (t, es))
    (e : Effect) (he : e ∈ es) (ha : e.action = a)
    (hE : InE E e)
    (hfirst : ∀ k, lookupPath (argsJson c.args) [k] = c.args.lookup k)
    (hadm : JsonPathsAdmitted a gs c.args) :
    anyB (fun u => decide (u = gs.map (fun g => grantMatches s c.args g e))) listed = true := by
  have ⟨d, cond, hway, hcond, hval, hin⟩ := preparedWayOf p a gs E s c t es hprep e he ha hE hfirst
  exact preparedCoverMatchesA p a gs E t d listed cond hcond hfrag (hcov t d cond hway hcond) s hreach c t es hprep
    e he ha (srcVal s c.args e) hval hadm hin

/-- `preparedCoverDistinct` for `wayQA`: distinct argument keys in place of `hfirst`. -/
theorem preparedCoverDistinctA (p : Policy) (a : String) (gs : List Monitor.Full.Grant) (E : Option (List Json))
    (listed : List (List Bool))
    (hfrag : ∀ g, g ∈ gs → g.action = a → grantOkA g = true)
    (hcov : WaysCoveredA p a gs E listed)
    (s : State) (hreach : ∃ cs, s = (runFull p (initialState p) cs).2)
    (c : Call) (t : Tool) (es : List Effect) (hprep : prepare p s c = Except.ok (t, es))
    (e : Effect) (he : e ∈ es) (ha : e.action = a)
    (hE : InE E e) (hdistinct : keysDistinct c.args = true) (hadm : JsonPathsAdmitted a gs c.args) :
    anyB (fun u => decide (u = gs.map (fun g => grantMatches s c.args g e))) listed = true :=
  preparedCoverEveryA p a gs E listed hfrag hcov s hreach c t es hprep e he ha hE
    (firstOfDistinct c.args hdistinct) hadm

end AgentWarrant.Revision.ArgCover
