"""``agentwarrant edit register``: CheckReg from the command line, with its three exits."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from model.base.errors import InputKind, InvalidInput
from model.edits.runtime.workflow import workflow_from_json
from model.shell.cli import main

ROOT = Path(__file__).resolve().parents[2] / "corpus" / "edits"
SESSION = str(ROOT / "sessions" / "laptop.json")


def _run(*args: str) -> tuple[int, str]:
    out = CliRunner().invoke(main, ["edit", "register", *args])
    return out.exit_code, out.output


def test_accepts_the_laptop_workflow() -> None:
    code, out = _run(str(ROOT / "workflows" / "laptop.json"), SESSION)
    assert code == 0 and "[·] xr xa" in out


def test_refuses_a_tool_call_on_a_cycle() -> None:
    code, out = _run(str(ROOT / "workflows" / "laptop_cycle.json"), SESSION, "--json")
    assert code == 1 and json.loads(out)["refused"] == "tool-call-cycle"


def test_refuses_a_request_that_is_not_the_certified_one(tmp_path: Path) -> None:
    doc = json.loads((ROOT / "workflows" / "laptop.json").read_text())
    doc["workflow"]["transitions"][0]["request"]["amount"] = 9999
    p = tmp_path / "w.json"
    p.write_text(json.dumps(doc))
    code, out = _run(str(p), SESSION)
    assert code == 1 and "refused (request-mismatch)" in out and "reserve" in out


@pytest.mark.parametrize("mutate, path, kind", [
    (lambda d: d["workflow"].__setitem__("initial", "nowhere"), "$.workflow.initial", InputKind.REFERENCE),
    (lambda d: d["workflow"]["transitions"][1].__setitem__("call", "x"), "$.workflow.transitions[1]",
     InputKind.SCHEMA),
    (lambda d: d["workflow"]["transitions"].append({"from": "done", "to": "start", "tau": True}),
     "$.workflow.transitions[5].from", InputKind.VALUE),
    (lambda d: d["lambda"]["calls"].pop("approve"), "$.workflow.transitions[3].call", InputKind.REFERENCE),
    (lambda d: d["lambda"]["results"].__setitem__("sold", "·"), "$.lambda.results.sold", InputKind.REFERENCE),
])
def test_ill_typed_workflows_are_bad_input(tmp_path: Path, mutate: object, path: str, kind: InputKind) -> None:
    doc = json.loads((ROOT / "workflows" / "laptop.json").read_text())
    mutate(doc)  # type: ignore[operator]
    with pytest.raises(InvalidInput) as e:
        workflow_from_json(doc, "w.json")
    assert e.value.kind is kind and path in str(e.value), str(e.value)
    p = tmp_path / "w.json"
    p.write_text(json.dumps(doc))
    code, out = _run(str(p), SESSION)
    assert code == 2 and path in out


def test_a_20000_state_chain_registers_without_recursion(tmp_path: Path) -> None:
    # reserve, then 20,000 τ-steps, then approve: one trace, found by a walk with its own stack
    doc = json.loads((ROOT / "workflows" / "laptop.json").read_text())
    w = doc["workflow"]
    reserve, approve = w["transitions"][0], w["transitions"][3]
    chain = [f"t{i}" for i in range(20_000)]
    w["states"] = ["start", "reserved", *chain, "approved", "done"]
    steps = zip(["reserved", *chain[:-1]], chain, strict=True)
    w["transitions"] = [reserve, *({"from": a, "to": b, "tau": True} for a, b in steps),
                        {**approve, "from": chain[-1]}, {"from": "approved", "to": "done", "tau": True}]
    p = tmp_path / "chain.json"
    p.write_text(json.dumps(doc))
    code, out = _run(str(p), SESSION)
    assert code == 0 and "[·] xr xa" in out, out
