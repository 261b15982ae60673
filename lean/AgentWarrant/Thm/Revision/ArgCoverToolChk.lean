import AgentWarrant.Oracle.ArgCoverToolChk
import AgentWarrant.Thm.Revision.ArgCoverResReg
/-! `arg_cover_policy`'s `covered` answer, with the tools it is given checked by the oracle itself
(`Oracle/ArgCoverToolChk.lean`, Agenra Sections 6.1 and 7.1): the answer is `covered` only when every
effect of every tool passes registration's effect clause `effArgOk` (`toolChkCovered`), which gives
`ToolResScalar` (`toolChkToolResScalar`, through `effArgOkIff` and `resConstScalarOrNull`), and only when
the action's entries lie in `grantOkR` (else the answer is `outside`). `toolChkOracleAnswerCover` is
`oracleAnswerCoverR` with neither hypothesis: both are read off the answer. -/
namespace AgentWarrant.Revision.ArgCover
open Lean AgentWarrant AgentWarrant.Monitor AgentWarrant.Monitor.Full

theorem toolChkBadNone : ∀ (tools : List Tool), Oracle.ArgCoverToolChk.toolChkBad tools = none →
    ∀ t, t ∈ tools → ∀ d, d ∈ t.effects → effArgOk t d = true
  | [], _, t, ht, _, _ => absurd ht notMemNil
  | x :: ts, h, t, ht, d, hd => by
    cases hx : List.all x.effects (effArgOk x) with
    | false =>
      have h' : Oracle.ArgCoverToolChk.toolChkBad (x :: ts) = some x := by
        simp only [Oracle.ArgCoverToolChk.toolChkBad, hx]
        rfl
      rw [h'] at h
      cases h
    | true =>
      have h' : Oracle.ArgCoverToolChk.toolChkBad (x :: ts) = Oracle.ArgCoverToolChk.toolChkBad ts := by
        simp only [Oracle.ArgCoverToolChk.toolChkBad, hx]
        rfl
      rw [h'] at h
      cases ht with
      | head => exact (allIff (effArgOk x) x.effects).1 hx d hd
      | tail _ ht' => exact toolChkBadNone ts h t ht' d hd

/-- Tools the oracle's check passes declare no array or object resource constant. -/
theorem toolChkToolResScalar (p : Policy) (h : Oracle.ArgCoverToolChk.toolChkBad p.tools = none) :
    ToolResScalar p :=
  fun t ht d hd v hv => resConstScalarOrNull v (((effArgOkIff t d).1 (toolChkBadNone p.tools h t ht d hd)).2 v hv)

theorem toolChkInvalidAnswer (t : Tool) :
    (Oracle.ArgCoverToolChk.toolChkInvalidJ t).getObjVal? "answer" = Except.ok (Json.str "invalid") := rfl

theorem toolChkOutsideAnswer (a : String) (xs : List (Nat × String)) :
    (Oracle.ArgCover.outsideJ a xs).getObjVal? "answer" = Except.ok (Json.str "outside") := rfl

theorem toolChkStrNe {s : String} {x : Except String Json} (h1 : x = Except.ok (Json.str s))
    (h2 : x = Except.ok (Json.str "covered")) (hne : s ≠ "covered") : False := by
  rw [h1] at h2
  have hs := congrArg (fun (y : Except String Json) => match y with
    | Except.ok (Json.str s) => s
    | _ => "") h2
  exact hne hs

/-- The checked oracle's `covered` answer: the tools passed the check, the action's entries lie in
`grantOkR`, and the way-by-way decision `oracleAnswerCoverR` speaks of answered `covered`. -/
theorem toolChkCovered (a : String) (tools : List Tool) (gs : List Monitor.Full.Grant) (E : Option (List Json))
    (listedS : List String) (listed : List (List Bool))
    (h : (Oracle.ArgCoverToolChk.argCoverPolicyAnswer a tools gs E listedS listed).getObjVal? "answer" =
      Except.ok (Json.str "covered")) :
    Oracle.ArgCoverToolChk.toolChkBad tools = none ∧ (∀ g, g ∈ gs → g.action = a → grantOkR g = true) ∧
    (Oracle.ArgCover.decideWays listedS listed (Oracle.ArgCover.somesQ ((ways a tools).map (fun w =>
      match allB grantOk (ofAction a gs) with
        | true => wayQ a tools gs E w.1 w.2
        | false => wayQR a tools gs E w.1 w.2))) []).getObjVal? "answer" = Except.ok (Json.str "covered") := by
  cases hb : Oracle.ArgCoverToolChk.toolChkBad tools with
  | some t =>
    simp only [Oracle.ArgCoverToolChk.argCoverPolicyAnswer, hb] at h
    exact (toolChkStrNe (toolChkInvalidAnswer t) h (by decide)).elim
  | none =>
    cases hg : allB grantOk (ofAction a gs) with
    | true =>
      simp only [Oracle.ArgCoverToolChk.argCoverPolicyAnswer, hb, hg] at h
      exact ⟨rfl, fun g hg' ha => by
        have hA : (patOkS g.pat && allB predOkA g.preds) = true := grantOkOkA g (ofActionAll hg g hg' ha)
        exact (andT hA).2, h⟩
    | false =>
      cases hr : allB grantOkR (ofAction a gs) with
      | true =>
        simp only [Oracle.ArgCoverToolChk.argCoverPolicyAnswer, hb, hg, hr] at h
        exact ⟨rfl, ofActionAll hr, h⟩
      | false =>
        simp only [Oracle.ArgCoverToolChk.argCoverPolicyAnswer, hb, hg, hr] at h
        exact (toolChkStrNe (toolChkOutsideAnswer a _) h (by decide)).elim

/-- `oracleAnswerCoverR` from the checked oracle's own answer: no hypothesis on the tools' resource
constants and none on the entries' fragment, both being what a `covered` answer says. -/
theorem toolChkOracleAnswerCover (p : Policy) (a : String) (gs : List Monitor.Full.Grant) (E : Option (List Json))
    (listedS : List String) (listed : List (List Bool))
    (hans : (Oracle.ArgCoverToolChk.argCoverPolicyAnswer a p.tools gs E listedS listed).getObjVal? "answer" =
      Except.ok (Json.str "covered"))
    (s : State) (hreach : ∃ cs, s = (runFull p (initialState p) cs).2)
    (c : Call) (t : Tool) (es : List Effect) (hprep : prepare p s c = Except.ok (t, es))
    (e : Effect) (he : e ∈ es) (ha : e.action = a)
    (hE : InE E e) (hdistinct : keysDistinct c.args = true)
    (hadm : allB grantOk (ofAction a gs) = false → JsonPathsAdmitted a gs c.args) :
    anyB (fun u => decide (u = gs.map (fun g => grantMatches s c.args g e))) listed = true :=
  let ⟨htc, hr, hd⟩ := toolChkCovered a p.tools gs E listedS listed hans
  oracleAnswerCoverR p a gs E listedS listed hr (fun _ => toolChkToolResScalar p htc) hd s hreach
    c t es hprep e he ha hE hdistinct hadm

end AgentWarrant.Revision.ArgCover
