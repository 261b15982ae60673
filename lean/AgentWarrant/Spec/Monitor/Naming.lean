import AgentWarrant.Spec.Monitor.Trace
/-! Record IDs as names chosen by the environment (Agenra Sections 6.1 and 6.3).

The whole monitor keeps its records in admission order and refers to a record by its position
(`Spec/Monitor/Policy.lean`), as the deployed monitor does: "the implementation obtains distinct IDs
from append-only trace positions". The paper's transition instead admits a record under any fresh
ID `d ∉ dom(M)`. This layer gives the whole monitor that interface: a named state is the positional
state together with the name of each record (`names`, by position), a call names its handles'
records by name, and an Allow admits the record under a fresh name the caller chooses. The step
translates the call's names to positions (`toPos`; when there is one name per record, a name that
names no record becomes the position just past the trace, so preparation refuses the call), runs
`stepFull`, and records the chosen name. Renaming (`renameK`, `renameCall`) applies an ID map to every name the state and the
call hold. Choice where the paper is silent: names are natural numbers, as the paper's IDs. -/
namespace AgentWarrant.Monitor.Full
open Lean AgentWarrant.Monitor

structure NState where
  names : List Nat
  st : State

/-- The position of the record named `x` (the trace length when no record has that name). -/
def idxOf : List Nat → Nat → Nat
  | [], _ => 0
  | n :: ns, x => if n = x then 0 else idxOf ns x + 1

/-- A call whose handles name records by name, as the monitor reads it. -/
def toPos (ns : List Nat) (c : Call) : Call := { c with refs := c.refs.map (fun r => (r.1, idxOf ns r.2)) }

/-- One transition with the fresh name `d` for the record an Allow admits. -/
def stepN (p : Policy) (d : Nat) (ks : NState) (c : Call) (o : Outcome) : Verdict × NState :=
  let r := stepFull p ks.st (toPos ks.names c) o
  (r.1, ⟨if isAllowV r.1 then ks.names ++ [d] else ks.names, r.2⟩)

/-- The record a name names. -/
def NState.named (ks : NState) (d : Nat) : Option Record := nth? ks.st.trace (idxOf ks.names d)

def renameK (σ : Nat → Nat) (ks : NState) : NState := ⟨ks.names.map σ, ks.st⟩

def renameCall (σ : Nat → Nat) (c : Call) : Call := { c with refs := c.refs.map (fun r => (r.1, σ r.2)) }

end AgentWarrant.Monitor.Full
