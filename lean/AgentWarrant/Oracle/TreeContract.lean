import Lean.Data.Json
import AgentWarrant.Spec.Edits.TreeContract
import AgentWarrant.Oracle.Common
import AgentWarrant.Oracle.DeriveRT
import AgentWarrant.Oracle.Runtime
/-! The oracle entry `tree_contract`: the workflow contract `⟦T⟧` of a record's branch tree
(`treeContract`, `Spec/Edits/TreeContract.lean`); model/oracle/drt_tree_contract.py compares it with
Python's `contract_of`.

Input: `{"tree": [node]}`, the flat preorder tree spelled as `edit_runtime`'s (`Oracle/Runtime.lean`,
decoded by its `nodeD`: a leaf's `Γ_b` by its outcome pomsets, or its term's when `"term"` is given).
Output: `{"outcomes": [{"events": [call], "order": [[call, call]]}]}`, the contract's outcome pomsets in
Lean's order (arms and parts in tree order, the first part's outcome varying slowest). -/
namespace AgentWarrant.Oracle.TreeContract
open Lean AgentWarrant AgentWarrant.Edits AgentWarrant.Edits.Machine
open AgentWarrant.Oracle.Edits (field listOf)

def treeContractJ (j : Json) : Dec Json := do
  let t ← listOf Oracle.Runtime.nodeD (← field j "tree")
  pure (Json.mkObj [("outcomes",
    Json.arr ((treeContract t).map (fun p => Json.mkObj (Oracle.DeriveRT.pomJ p))).toArray)])

def judgments : List Judgment := [("tree_contract", treeContractJ)]

end AgentWarrant.Oracle.TreeContract
