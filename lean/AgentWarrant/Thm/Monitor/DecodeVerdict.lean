import AgentWarrant.Thm.Monitor.DecodeSound
import AgentWarrant.Thm.Monitor.Registration
import AgentWarrant.Thm.Monitor.RegistrationSchema
/-! The `policy_check` verdict stated on the document: on a document whose objects are search trees,
the verdict the judgment answers under `ok` (`Oracle.Registration.verdictOf`, from the schema check,
the form and the decoder's answer) holds exactly when the document meets the schema
(`Schema.PolicySchema`), it describes a policy (`DecodesIs`, its one reading) that is well formed
(`RegistrationWF`), and its form is (`FormWF` of `formOf`): `policyCheckVerdictIff`. The three
checks are decided by `Schema.policySchemaIff`, `registrationOkIff` and `formOkIff`, and the decoder
by `policyOfIff`. -/
namespace AgentWarrant.Monitor.Full
open Lean AgentWarrant AgentWarrant.Oracle AgentWarrant.Oracle.MonitorFull AgentWarrant.Oracle.Registration
  AgentWarrant.Json

theorem policyCheckVerdictIff {pj : Json} (hj : ObjsOrdered pj) :
    verdictOf (Schema.policyE [] pj).isEmpty (formOf pj) (policyOf pj) = true ↔
      Schema.PolicySchema pj ∧ (∃ p, DecodesIs pj p ∧ RegistrationWF p) ∧ FormWF (formOf pj) := by
  have hs : (Schema.policyE [] pj).isEmpty = true ↔ Schema.PolicySchema pj := Schema.policySchemaIff pj
  cases hd : policyOf pj with
  | error e =>
    have u : verdictOf (Schema.policyE [] pj).isEmpty (formOf pj) (Except.error e) = false := by
      cases (Schema.policyE [] pj).isEmpty <;> rfl
    rw [u]
    refine ⟨fun h => (by cases h), fun ⟨_, ⟨p, hp, _⟩, _⟩ => ?_⟩
    have e' := (policyOfIs hj hp).symm.trans hd
    cases e'
  | ok p =>
    have hp := policyOfDecodesIs hj hd
    have u : verdictOf (Schema.policyE [] pj).isEmpty (formOf pj) (Except.ok p) =
        ((Schema.policyE [] pj).isEmpty && (registrationOk p && formOk (formOf pj))) := rfl
    rw [u, andIff, andIff, hs, registrationOkIff, formOkIff]
    refine ⟨fun ⟨a, b, c⟩ => ⟨a, ⟨p, hp, b⟩, c⟩, fun ⟨a, ⟨q, hq, b⟩, c⟩ => ⟨a, ?_, c⟩⟩
    rw [decodesIsUnique hj hp hq]
    exact b

end AgentWarrant.Monitor.Full
