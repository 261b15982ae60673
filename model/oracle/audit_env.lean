-- The proof audit's listing of the built library (model/oracle/audit.py writes this file to
-- lean/build/AuditEnv.lean and runs it): one DECL line per declaration of a project module, with
-- its kind, module, whether it is a partial def, and the axioms it depends on; one REACH line per
-- partial def with the oracle entries that reach it. The `judgments` lists of the oracle modules
-- name the entries; reachability follows definitions' bodies and, for a partial def, its
-- implementation.
import AgentWarrant
import Lean
open Lean Elab Command

def auditInternal (n : Name) : Bool :=
  n.components.any (fun c => match c with
    | Name.str _ s _ => s.startsWith "_cstage" || s.startsWith "_spec" || s.startsWith "_closed"
        || s.startsWith "_lambda" || s.startsWith "_rarg" || s.startsWith "_elambda"
        || s == "_unsafe_rec" || s.startsWith "_boxed"
    | _ => false)

def auditBody (env : Environment) (n : Name) : List Name :=
  let used := match env.find? n with
    | some ci => match ci.value? with
      | some v => v.getUsedConstants.toList
      | none => []
    | none => []
  let impl := Name.mkStr n "_unsafe_rec"
  -- a partial def's implementation calls the implementations of its (mutual) partners: map them back
  let back := match n with
    | Name.str p "_unsafe_rec" _ => [p]
    | _ => []
  back ++ (if env.contains impl then impl :: used else used)

partial def auditReach (env : Environment) : List Name → NameSet → NameSet
  | [], seen => seen
  | n :: rest, seen =>
    if seen.contains n || !((`AgentWarrant).isPrefixOf n) then auditReach env rest seen
    else auditReach env (auditBody env n ++ rest) (seen.insert n)

def auditIsPartial (env : Environment) (n : Name) : Bool :=
  match env.find? n with
  | some (ConstantInfo.opaqueInfo _) => true
  | _ => false

elab "#auditAll" : command => do
  let env ← getEnv
  let mods := env.allImportedModuleNames
  let mut ours : Array (Name × Name × ConstantInfo) := #[]
  for (n, ci) in env.constants.map₁.toList do
    match env.getModuleIdxFor? n with
    | some idx =>
      let m := mods[idx]
      if (`AgentWarrant).isPrefixOf m && !auditInternal n then ours := ours.push (n, m, ci)
    | none => pure ()
  for (n, m, ci) in ours do
    let (_, s) := ((CollectAxioms.collect n).run env).run {}
    let kind := match ci with
      | ConstantInfo.thmInfo _ => "theorem"
      | ConstantInfo.axiomInfo _ => "axiom"
      | ConstantInfo.defnInfo _ => "def"
      | ConstantInfo.opaqueInfo _ => "opaque"
      | _ => "other"
    let rec_ := if auditIsPartial env n then "partial" else "total"
    IO.println s!"DECL {kind} {n} {m} {rec_} [{", ".intercalate (s.axioms.toList.map toString)}]"
  -- entries: every constant a `judgments` list of an oracle module names, and the executable's main
  let lists := ours.toList.filter (fun (n, _, _) => n.toString.endsWith ".judgments")
  let mut entries : List Name := [`AgentWarrant.Oracle.main]
  for (n, _, _) in lists do
    for u in auditBody env n do
      if !u.toString.endsWith ".judgments" && (`AgentWarrant).isPrefixOf u && !auditInternal u then
        entries := entries ++ [u]
  let mut reach : List (Name × NameSet) := []
  for e in entries do
    reach := reach ++ [(e, auditReach env [e] {})]
  for (n, _, _) in ours do
    if auditIsPartial env n then
      let by_ := reach.filter (fun (_, s) => s.contains n) |>.map (fun (e, _) => toString e)
      IO.println s!"REACH {n} [{", ".intercalate by_}]"

#auditAll
