import AgentWarrant.Oracle.ArgCoverToolChk
/-! What `arg_cover_class` with its tools checked (`argCoverClassChkJ`, `Oracle/ArgCoverToolChk.lean`; Agenra
Sections 6.1 and 7.1) answers once its input is decoded: `invalid`, naming the first tool with an effect
registration's `effArgOk` refuses, else the routed class answer `classAllOut`
(`Oracle/ArgCoverClass.lean`). The judgment decodes the tools, checks them, then decodes its whole input
again through `argCoverClassJ`; `Thm/Revision/ArgCoverClassChk.lean` (`classChkJOut`) proves it answers
this function on what it decoded. Kept apart from the judgment so that the judgment's code is not changed
by the theorem that speaks of it. -/
namespace AgentWarrant.Oracle.ArgCoverClassChk
open Lean AgentWarrant.Oracle AgentWarrant.Monitor.Full AgentWarrant.Revision.ArgCover

/-- The tool-checked class answer on decoded inputs. -/
def classChkAnswer (fs : List Fact) (a : String) (tools : List Tool) (gs : List Monitor.Full.Grant)
    (E : Option (List Json)) (listedS : List String) (listed : List (List Bool)) : Json :=
  match ArgCoverToolChk.toolChkBad tools with
  | some t => ArgCoverToolChk.toolChkInvalidJ t
  | none => ArgCoverClass.classAllOut fs a tools gs E listedS listed

end AgentWarrant.Oracle.ArgCoverClassChk
