import AgentWarrant.Thm.Revision.ArgCoverClassSame
import AgentWarrant.Thm.Revision.ArgCoverNeqQ
import AgentWarrant.Thm.Revision.ArgCoverClassR
/-! One oracle-level class coverage theorem for every writer `arg_cover_class` (`Oracle/ArgCoverClass.lean`)
routes to (Agenra Sections 1 and 7.1: a certificate must hold in every binding state):
* `classAllExactKeepsAnswer`: flagging the way-by-way decision `"exact": false` (`setObjVal!`) leaves its
  `"answer"` field as it was, so the per-writer lemmas stated before the flag (`oracleClassNeqCover`,
  `oracleClassNeqCoverR`) speak of the answer the oracle returns. The two objects `decideWaysC` writes have
  fixed keys, so the lookup after the insertion computes (`rfl`); no general lemma about `Json` objects is
  proved.
* `classAllOracleCover`: from `covered` in the `"answer"` field of the oracle's routing on the action's
  entries (`grantOk`, `grantOkA`, `grantOkR`) and the class's denials (`apartFree`), whichever of `classQ`,
  `classQA`, `classQR`, `classQN`, `classQNR` it wrote, the monitor's matching of every prepared call in every
  binding state of the class meeting a way's condition is a listed vector.
* `classRestJOut`: what `classRestJ` decodes besides the tools (action, entries, resources, listed vectors,
  facts), each named by its decoder's success (the resources `none` for a null `"resources"`, else the list
  given); `classChkJOut` (`Thm/Revision/ArgCoverClassChk.lean`) ties the judgment's answer to it.
Choices: the statement starts from `classAllOut`, the routed answer the judgment returns once the tools pass
its check, tied to the JSON input only by `classChkJOut`. Each extra
hypothesis is asked only on the branch that needs it: `hadm` when an entry is outside `grantOk`, `htools` when
one is outside `grantOkA`, `hapart` when the class denies an equality between slots. The `outside` answer is
never `covered`. -/
namespace AgentWarrant.Revision.ArgCover
open Lean AgentWarrant AgentWarrant.Monitor AgentWarrant.Monitor.Full

theorem classAllExactObj (a b c d e f v : Json) :
    ((Json.mkObj [("answer", a), ("reason", b), ("names", c), ("witness", d), ("vector", e), ("questions", f)]).setObjVal!
      "exact" v).getObjVal? "answer" =
    (Json.mkObj [("answer", a), ("reason", b), ("names", c), ("witness", d), ("vector", e), ("questions", f)]).getObjVal?
      "answer" := rfl

/-- Setting `"exact"` on the way-by-way decision keeps its `"answer"`. -/
theorem classAllExactKeepsAnswer (listedS : List String) (listed : List (List Bool)) (v : Json) :
    ∀ (qs : List BuiltQC) (acc : List Json),
      ((Oracle.ArgCoverClass.decideWaysC listedS listed qs acc).setObjVal! "exact" v).getObjVal? "answer" =
        (Oracle.ArgCoverClass.decideWaysC listedS listed qs acc).getObjVal? "answer"
  | [], acc => classAllExactObj _ _ _ _ _ _ v
  | r :: rest, acc => by
    cases hr : argCover (Oracle.ArgCover.good r.cond r.pos listed) r.atoms with
    | uncovered xs =>
      simp only [Oracle.ArgCoverClass.decideWaysC, hr]
      exact classAllExactObj _ _ _ _ _ _ v
    | unknown =>
      simp only [Oracle.ArgCoverClass.decideWaysC, hr]
      exact classAllExactKeepsAnswer listedS listed v rest _
    | covered =>
      simp only [Oracle.ArgCoverClass.decideWaysC, hr]
      exact classAllExactKeepsAnswer listedS listed v rest _

theorem classAllOutsideNot (a : String) (xs : List (Nat × String)) :
    (Oracle.ArgCover.outsideJ a xs).getObjVal? "answer" ≠ Except.ok (Json.str "covered") := by
  intro h
  have h' : (Oracle.ArgCover.outsideJ a xs).getObjVal? "answer" = Except.ok (Json.str "outside") := rfl
  rw [h'] at h
  have hs := congrArg (fun (x : Except String Json) => match x with
    | Except.ok (Json.str s) => s
    | _ => "") h
  exact absurd hs (by decide)

theorem classAllBindOk {α β : Type} {x : Except String α} {f : α → Except String β} {b : β}
    (h : (x >>= f) = Except.ok b) : ∃ a, x = Except.ok a ∧ f a = Except.ok b := by
  cases x with
  | error e => cases h
  | ok a => exact ⟨a, rfl, h⟩

/-- What `arg_cover_class` decodes besides the tools (`classRestJ`), each part named by its decoder's success
(the resources `none` when the input's `"resources"` is null, else the list it is). -/
theorem classRestJOut {j : Json} {r : Oracle.ArgCoverClass.ClassRest} (h : Oracle.ArgCoverClass.classRestJ j = Except.ok r) :
    ∃ fs a gs E listedS listed,
      Oracle.getAs String j "action" = Except.ok a ∧
      Oracle.arrOf Oracle.MonitorFull.grantOf j "entries" = Except.ok gs ∧
      (∃ rj, Oracle.req j "resources" = Except.ok rj ∧
        ((rj = Json.null ∧ E = none) ∨ ∃ xs, rj = Json.arr xs ∧ E = some xs.toList)) ∧
      Oracle.strList j "listed" = Except.ok listedS ∧
      listedS.mapM (fun s => Oracle.ArgCover.bitsOfStr s gs.length "listed") = Except.ok listed ∧
      Oracle.arrOf Oracle.ArgCoverClass.factOf j "facts" = Except.ok fs ∧
      r = (fs, a, gs, E, listedS, listed) := by
  let ⟨a, ha, h⟩ := classAllBindOk h
  let ⟨gs, hgs, h⟩ := classAllBindOk h
  let ⟨rj, hrj, h⟩ := classAllBindOk h
  cases rj with
  | null =>
    let ⟨E, hE, h⟩ := classAllBindOk h
    let ⟨listedS, hl, h⟩ := classAllBindOk h
    let ⟨listed, hls, h⟩ := classAllBindOk h
    let ⟨fs, hfs, h⟩ := classAllBindOk h
    cases h
    cases hE
    exact ⟨fs, a, gs, _, listedS, listed, ha, hgs, ⟨_, hrj, Or.inl ⟨rfl, rfl⟩⟩, hl, hls, hfs, rfl⟩
  | arr xs =>
    let ⟨E, hE, h⟩ := classAllBindOk h
    let ⟨listedS, hl, h⟩ := classAllBindOk h
    let ⟨listed, hls, h⟩ := classAllBindOk h
    let ⟨fs, hfs, h⟩ := classAllBindOk h
    cases h
    cases hE
    exact ⟨fs, a, gs, _, listedS, listed, ha, hgs, ⟨_, hrj, Or.inr ⟨xs, rfl, rfl⟩⟩, hl, hls, hfs, rfl⟩
  | _ =>
    let ⟨E, hE, h⟩ := classAllBindOk h
    let ⟨listedS, hl, h⟩ := classAllBindOk h
    let ⟨listed, hls, h⟩ := classAllBindOk h
    let ⟨fs, hfs, h⟩ := classAllBindOk h
    cases h
    cases hE

/-- The oracle's `covered`, whichever writer it routed to, covers the monitor's matching of every prepared
call in every binding state of the class meeting a way's condition. -/
theorem classAllOracleCover (fs : List Fact) (p : Policy) (a : String) (gs : List Monitor.Full.Grant)
    (E : Option (List Json)) (listedS : List String) (listed : List (List Bool))
    (hans : (Oracle.ArgCoverClass.classAllOut fs a p.tools gs E listedS listed).getObjVal? "answer" = Except.ok (Json.str "covered"))
    (t : Tool) (d : EffDecl) (hway : (t, d) ∈ ways a p.tools) (cond : List SClause)
    (hcond : wayCond a p.tools gs E t d = some cond)
    (s : State) (c : Call) (t' : Tool) (es : List Effect) (hprep : prepare p s c = Except.ok (t', es))
    (e : Effect) (he : e ∈ es) (ha : e.action = a) (val : Src → AV)
    (hval : ∀ src, val (reSrc (wayRes d.res) src) = srcVal s c.args e src)
    (hadm : allB grantOk (ofAction a gs) = false → JsonPathsAdmitted a gs c.args)
    (htools : allB grantOkA (ofAction a gs) = false → ToolResScalar p)
    (hin : sCnfHolds val cond = true) (w : String → AV)
    (hw : ∀ g, slotOk (w g) = true ∧ factsOk (groupLits fs g) (w g) = true)
    (hapart : apartFree fs = false → ∀ x y, (x, FPat.slot y, false) ∈ fs → w (grpOf fs x) ≠ w (grpOf fs y))
    (hclass : ∀ n, resMatches s e.res (Pat.slot n) = true → avOf e.res = w (grpOf fs n)) :
    anyB (fun u => decide (u = gs.map (fun g => grantMatches s c.args g e))) listed = true := by
  cases h4 : apartFree fs with
  | true =>
    cases h1 : allB grantOk (ofAction a gs) with
    | true =>
      have hq : (Oracle.ArgCoverClass.decideWaysC listedS listed (Oracle.ArgCoverClass.somesQC ((ways a p.tools).map
          (fun w => match allB grantOk (ofAction a gs) with
            | true => classQ fs a p.tools gs E w.1 w.2
            | false => classQA fs a p.tools gs E w.1 w.2))) []).getObjVal? "answer" = Except.ok (Json.str "covered") := by
        rw [h1]
        have h' := hans
        simp only [Oracle.ArgCoverClass.classAllOut, h1, h4] at h'
        exact h'
      exact oracleClassCoverDistinct fs p a gs E listedS listed
        (fun g hg hga => grantOkOkA g (ofActionAll h1 g hg hga)) hq t d hway cond hcond s c t' es hprep e he ha val
        hval hadm hin w hw hclass
    | false =>
      cases h2 : allB grantOkA (ofAction a gs) with
      | true =>
        have hq : (Oracle.ArgCoverClass.decideWaysC listedS listed (Oracle.ArgCoverClass.somesQC ((ways a p.tools).map
            (fun w => match allB grantOk (ofAction a gs) with
              | true => classQ fs a p.tools gs E w.1 w.2
              | false => classQA fs a p.tools gs E w.1 w.2))) []).getObjVal? "answer" = Except.ok (Json.str "covered") := by
          rw [h1]
          cases h3 : allB grantOkR (ofAction a gs) <;>
            (have h' := hans; simp only [Oracle.ArgCoverClass.classAllOut, h1, h2, h3, h4] at h'; exact h')
        exact oracleClassCoverDistinct fs p a gs E listedS listed (ofActionAll h2) hq t d hway cond hcond s c t' es
          hprep e he ha val hval hadm hin w hw hclass
      | false =>
        cases h3 : allB grantOkR (ofAction a gs) with
        | true =>
          have h' := hans
          simp only [Oracle.ArgCoverClass.classAllOut, h1, h2, h3, h4] at h'
          exact oracleClassCoverR fs p a gs E listedS listed (ofActionAll h3) htools h' t d hway cond hcond s c t' es
            hprep e he ha val hval (hadm h1) hin w hw hclass
        | false =>
          have h' := hans
          simp only [Oracle.ArgCoverClass.classAllOut, h1, h2, h3, h4] at h'
          exact absurd h' (classAllOutsideNot _ _)
  | false =>
    cases h1 : allB grantOk (ofAction a gs) with
    | true =>
      have h' := hans
      simp only [Oracle.ArgCoverClass.classAllOut, h1, h4] at h'
      rw [classAllExactKeepsAnswer] at h'
      exact oracleClassNeqCover fs p a gs E listedS listed (ofActionAll h1) h' t d hway cond hcond s c t' es hprep
        e he ha val hval hin w hw (hapart h4) hclass
    | false =>
      cases h3 : allB grantOkR (ofAction a gs) with
      | true =>
        have h'' : (Oracle.ArgCoverClass.decideWaysC listedS listed (Oracle.ArgCoverClass.somesQC ((ways a p.tools).map
            (fun w => classQNR fs a p.tools gs E w.1 w.2))) []).getObjVal? "answer" = Except.ok (Json.str "covered") := by
          cases h2 : allB grantOkA (ofAction a gs) <;>
            (have h' := hans; simp only [Oracle.ArgCoverClass.classAllOut, h1, h2, h3, h4] at h'
             rw [classAllExactKeepsAnswer] at h'; exact h')
        exact oracleClassNeqCoverR fs p a gs E listedS listed (ofActionAll h3) htools h'' t d hway cond hcond s c t'
          es hprep e he ha val hval (hadm h1) hin w hw (hapart h4) hclass
      | false =>
        cases h2 : allB grantOkA (ofAction a gs) with
        | true =>
          have h' := hans
          simp only [Oracle.ArgCoverClass.classAllOut, h1, h2, h3, h4] at h'
          exact absurd h' (classAllOutsideNot _ _)
        | false =>
          have h' := hans
          simp only [Oracle.ArgCoverClass.classAllOut, h1, h2, h3, h4] at h'
          exact absurd h' (classAllOutsideNot _ _)

end AgentWarrant.Revision.ArgCover
