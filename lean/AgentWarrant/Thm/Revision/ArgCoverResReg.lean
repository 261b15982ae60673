import AgentWarrant.Thm.Revision.ArgCoverResA
import AgentWarrant.Thm.Monitor.Registration
/-! The hypothesis `ToolResScalar` of `oracleAnswerCoverR` (no tool declares an array or object resource
constant) follows from Lean's registration check (Agenra Section 6.1): `effArgOk` refuses an effect whose
resource constant is an array or object (`resConstOk`), as the Python model's registration refuses it (not
a JSON scalar). `oracleAnswerCoverReg` is `oracleAnswerCoverR` with that hypothesis replaced by
`registrationOk p = true`. -/
namespace AgentWarrant.Revision.ArgCover
open Lean AgentWarrant AgentWarrant.Monitor AgentWarrant.Monitor.Full

theorem resConstScalarOrNull : ∀ (v : Json), resConstOk v = true → scalarOrNull v = true
  | Json.null, _ => rfl
  | Json.bool _, _ => rfl
  | Json.num _, _ => rfl
  | Json.str _, _ => rfl
  | Json.arr _, h => by have h' : false = true := h; cases h'
  | Json.obj _, h => by have h' : false = true := h; cases h'

/-- A policy that passes Lean's registration check declares no array or object resource constant. -/
theorem registrationToolResScalar (p : Policy) (hreg : registrationOk p = true) : ToolResScalar p := by
  intro t ht d hd v hv
  have ⟨_, _, _, _, _, _, hef⟩ := ((registrationOkIff p).1 hreg).toolWF t ht
  exact resConstScalarOrNull v ((hef d hd).2 v hv)

/-- `oracleAnswerCoverR` on a policy that passes Lean's registration check: the oracle's `covered` answer
puts the monitor's match vector of every prepared call among the listed ones, with no hypothesis on the
tools' resource constants. -/
theorem oracleAnswerCoverReg (p : Policy) (a : String) (gs : List Monitor.Full.Grant) (E : Option (List Json))
    (listedS : List String) (listed : List (List Bool))
    (hfrag : ∀ g, g ∈ gs → g.action = a → grantOkR g = true)
    (hreg : registrationOk p = true)
    (hans : (Oracle.ArgCover.decideWays listedS listed (Oracle.ArgCover.somesQ ((ways a p.tools).map (fun w =>
      match allB grantOk (ofAction a gs) with
        | true => wayQ a p.tools gs E w.1 w.2
        | false => wayQR a p.tools gs E w.1 w.2))) []).getObjVal? "answer" = Except.ok (Json.str "covered"))
    (s : State) (hreach : ∃ cs, s = (runFull p (initialState p) cs).2)
    (c : Call) (t : Tool) (es : List Effect) (hprep : prepare p s c = Except.ok (t, es))
    (e : Effect) (he : e ∈ es) (ha : e.action = a)
    (hE : InE E e) (hdistinct : keysDistinct c.args = true)
    (hadm : allB grantOk (ofAction a gs) = false → JsonPathsAdmitted a gs c.args) :
    anyB (fun u => decide (u = gs.map (fun g => grantMatches s c.args g e))) listed = true :=
  oracleAnswerCoverR p a gs E listedS listed hfrag (fun _ => registrationToolResScalar p hreg) hans s hreach c t es
    hprep e he ha hE hdistinct hadm

end AgentWarrant.Revision.ArgCover
