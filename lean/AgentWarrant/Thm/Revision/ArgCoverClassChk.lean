import AgentWarrant.Oracle.ArgCoverToolChk
import AgentWarrant.Thm.Revision.ArgCoverToolChk
import AgentWarrant.Thm.Revision.ArgCoverClassAll
/-! `arg_cover_class`'s answer with the tools it is given checked by the oracle itself
(`Oracle/ArgCoverToolChk.lean`, `classChkAnswer`; Agenra Sections 6.1 and 7.1), as
`Thm/Revision/ArgCoverToolChk.lean` states for `arg_cover_policy`:
* `classChkCovered`, `classChkUncovered`: the answer is `covered` (`uncovered`) only when every effect of every
  tool passes registration's effect clause `effArgOk` and the routed class answer `classAllOut` is `covered`
  (`uncovered`); the tool check then gives `ToolResScalar` (`toolChkToolResScalar`);
* `classChkOracleCover`: `classAllOracleCover` with no `ToolResScalar` hypothesis, read off the answer;
* `classChkJOut`: every answer the judgment `argCoverClassChkJ` returns is `classChkAnswer` on the tools it
  decoded and, when they pass the check, on the action, entries, listed vectors and facts it decoded (each named
  by its decoder's success) and the resources it decoded (`null` for none, else the list given).
Choices: the judgment returns `classChkAnswer` itself, on the tools it decoded and on the rest of its input,
which it decodes (`classRestJ`) only once the tools pass the check (a refused tool is answered whatever the
rest holds, and the answer then reads none of it). -/
namespace AgentWarrant.Revision.ArgCover
open Lean AgentWarrant AgentWarrant.Monitor AgentWarrant.Monitor.Full

/-- The checked class oracle's `covered`: the tools passed the check and the routed answer is `covered`. -/
theorem classChkCovered (fs : List Fact) (a : String) (tools : List Tool) (gs : List Monitor.Full.Grant)
    (E : Option (List Json)) (listedS : List String) (listed : List (List Bool))
    (h : (Oracle.ArgCoverClassChk.classChkAnswer fs a tools gs E listedS listed).getObjVal? "answer" =
      Except.ok (Json.str "covered")) :
    Oracle.ArgCoverToolChk.toolChkBad tools = none ∧
    (Oracle.ArgCoverClass.classAllOut fs a tools gs E listedS listed).getObjVal? "answer" =
      Except.ok (Json.str "covered") := by
  cases hb : Oracle.ArgCoverToolChk.toolChkBad tools with
  | some t =>
    simp only [Oracle.ArgCoverClassChk.classChkAnswer, hb] at h
    exact (toolChkStrNe (toolChkInvalidAnswer t) h (by decide)).elim
  | none =>
    simp only [Oracle.ArgCoverClassChk.classChkAnswer, hb] at h
    exact ⟨rfl, h⟩

theorem classChkStrNe {s r : String} {x : Except String Json} (h1 : x = Except.ok (Json.str s))
    (h2 : x = Except.ok (Json.str r)) (hne : s ≠ r) : False := by
  rw [h1] at h2
  have hs := congrArg (fun (y : Except String Json) => match y with
    | Except.ok (Json.str s) => s
    | _ => "") h2
  exact hne hs

/-- The checked class oracle's `uncovered`: the tools passed the check and the routed answer is `uncovered`. -/
theorem classChkUncovered (fs : List Fact) (a : String) (tools : List Tool) (gs : List Monitor.Full.Grant)
    (E : Option (List Json)) (listedS : List String) (listed : List (List Bool))
    (h : (Oracle.ArgCoverClassChk.classChkAnswer fs a tools gs E listedS listed).getObjVal? "answer" =
      Except.ok (Json.str "uncovered")) :
    Oracle.ArgCoverToolChk.toolChkBad tools = none ∧
    (Oracle.ArgCoverClass.classAllOut fs a tools gs E listedS listed).getObjVal? "answer" =
      Except.ok (Json.str "uncovered") := by
  cases hb : Oracle.ArgCoverToolChk.toolChkBad tools with
  | some t =>
    simp only [Oracle.ArgCoverClassChk.classChkAnswer, hb] at h
    exact (classChkStrNe (toolChkInvalidAnswer t) h (by decide)).elim
  | none =>
    simp only [Oracle.ArgCoverClassChk.classChkAnswer, hb] at h
    exact ⟨rfl, h⟩

/-- `classAllOracleCover` from the checked oracle's own answer: `ToolResScalar` is what its `covered` says. -/
theorem classChkOracleCover (fs : List Fact) (p : Policy) (a : String) (gs : List Monitor.Full.Grant)
    (E : Option (List Json)) (listedS : List String) (listed : List (List Bool))
    (hans : (Oracle.ArgCoverClassChk.classChkAnswer fs a p.tools gs E listedS listed).getObjVal? "answer" =
      Except.ok (Json.str "covered"))
    (t : Tool) (d : EffDecl) (hway : (t, d) ∈ ways a p.tools) (cond : List SClause)
    (hcond : wayCond a p.tools gs E t d = some cond)
    (s : State) (c : Call) (t' : Tool) (es : List Effect) (hprep : prepare p s c = Except.ok (t', es))
    (e : Effect) (he : e ∈ es) (ha : e.action = a) (val : Src → AV)
    (hval : ∀ src, val (reSrc (wayRes d.res) src) = srcVal s c.args e src)
    (hadm : allB grantOk (ofAction a gs) = false → JsonPathsAdmitted a gs c.args)
    (hin : sCnfHolds val cond = true) (w : String → AV)
    (hw : ∀ g, slotOk (w g) = true ∧ factsOk (groupLits fs g) (w g) = true)
    (hapart : apartFree fs = false → ∀ x y, (x, FPat.slot y, false) ∈ fs → w (grpOf fs x) ≠ w (grpOf fs y))
    (hclass : ∀ n, resMatches s e.res (Pat.slot n) = true → avOf e.res = w (grpOf fs n)) :
    anyB (fun u => decide (u = gs.map (fun g => grantMatches s c.args g e))) listed = true :=
  let ⟨htc, h⟩ := classChkCovered fs a p.tools gs E listedS listed hans
  classAllOracleCover fs p a gs E listedS listed h t d hway cond hcond s c t' es hprep e he ha val hval hadm
    (fun _ => toolChkToolResScalar p htc) hin w hw hapart hclass

/-- Every answer the tool-checked judgment returns is `classChkAnswer` on the tools it decoded and, when they
pass the check, on the rest of what it decoded. -/
theorem classChkJOut {j out : Json} (h : Oracle.ArgCoverToolChk.argCoverClassChkJ j = Except.ok out) :
    ∃ fs a tools gs E listedS listed,
      Oracle.arrOf Oracle.MonitorFull.toolOf j "tools" = Except.ok tools ∧
      out = Oracle.ArgCoverClassChk.classChkAnswer fs a tools gs E listedS listed ∧
      (Oracle.ArgCoverToolChk.toolChkBad tools = none →
        Oracle.getAs String j "action" = Except.ok a ∧
        Oracle.arrOf Oracle.MonitorFull.grantOf j "entries" = Except.ok gs ∧
        (∃ rj, Oracle.req j "resources" = Except.ok rj ∧
          ((rj = Json.null ∧ E = none) ∨ ∃ xs, rj = Json.arr xs ∧ E = some xs.toList)) ∧
        Oracle.strList j "listed" = Except.ok listedS ∧
        listedS.mapM (fun s => Oracle.ArgCover.bitsOfStr s gs.length "listed") = Except.ok listed ∧
        Oracle.arrOf Oracle.ArgCoverClass.factOf j "facts" = Except.ok fs) := by
  let ⟨tools, htools, h⟩ := classAllBindOk h
  cases hb : Oracle.ArgCoverToolChk.toolChkBad tools with
  | some t =>
    rw [hb] at h
    cases h
    exact ⟨[], "", tools, [], none, [], [], htools, rfl, fun hn => by rw [hb] at hn; cases hn⟩
  | none =>
    rw [hb] at h
    let ⟨r, hr, h⟩ := classAllBindOk h
    cases h
    let ⟨fs, a, gs, E, listedS, listed, ha, hgs, hres, hl, hls, hfs, er⟩ := classRestJOut hr
    subst er
    exact ⟨fs, a, tools, gs, E, listedS, listed, htools, rfl, fun _ => ⟨ha, hgs, hres, hl, hls, hfs⟩⟩

end AgentWarrant.Revision.ArgCover
