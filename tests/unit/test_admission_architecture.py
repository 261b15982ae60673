"""No code path reaches a tool without the gate (the Parmana paper, Section 4.4: "An architecture
test over package boundaries checks that no other path reaches a connector"), and the approval
service never executes (*Policy-Mediated Autonomy with Resumable Action Attempts*, "Requester,
approver, and executor separation"). Checked over the AST of every
module in ``model``."""

from __future__ import annotations

import ast
from pathlib import Path

MODEL = Path(__file__).resolve().parents[2] / "model"
TOOLS = "model.admission.tools"
# wiring modules build a ToolRegistry from callables but never call one; the two executors call
INVOKERS = {"model.admission.resumable.handler", "model.admission.release.gateway"}
WIRING = {f"model.admission.deployments.{m}"
          for m in ("deployment", "release_deployment", "explore", "fleet", "tamper")} | {
    "model.search.system.admission_steps"}  # the admission search model hands its registry to the real handler


def modules() -> dict[str, ast.Module]:
    out = {}
    for f in MODEL.rglob("*.py"):
        name = ".".join(f.relative_to(MODEL.parent).with_suffix("").parts).removesuffix(".__init__")
        out[name] = ast.parse(f.read_text(encoding="utf-8"))
    return out


def imports(tree: ast.Module) -> set[str]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
    return found


def test_no_code_path_reaches_a_tool_without_the_gate() -> None:
    mods = modules()
    importers = {m for m, t in mods.items() if TOOLS in imports(t)}
    assert INVOKERS <= importers  # the rule is not vacuous: the executors really do import the tools
    assert importers <= INVOKERS | WIRING, importers - INVOKERS - WIRING
    callers = {m for m, t in mods.items() for n in ast.walk(t)
               if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "invoke"
               and (m.startswith("model.admission") or m in WIRING)}
    assert callers == INVOKERS


def test_approval_service_never_executes() -> None:
    mods = modules()
    reach: set[str] = set()
    frontier = ["model.admission.resumable.review"]
    while frontier:
        m = frontier.pop()
        if m in reach or m not in mods:
            continue
        reach.add(m)
        frontier.extend(i for i in imports(mods[m]) if i.startswith("model."))
    assert "model.admission.resumable.review" in reach and "model.admission.resumable.attempt_store" in reach
    assert not reach & (INVOKERS | {TOOLS}), reach & (INVOKERS | {TOOLS})
