"""The oracle's nesting bound (lean/AgentWarrant/Oracle/Depth.lean): an input nesting ``jsonFuel``
(100000) or more arrays deep is refused with an ``input`` error before any judgment runs, one level
less is passed on to the judgment; the bound counts arrays and objects alike.

The nesting check recurses once per level, so at the default 8 MiB stack it overflows (a crashed
process, which the client reports as a fault) before the bound is reached; the executable is started
here with an unlimited stack so the check itself is what answers. The request parser keeps the
containers it is inside as data, not calls: at the default stack it reads nesting far deeper than the
check can (a request for no judgment is answered without the check running)."""

from __future__ import annotations

import json
import resource
import subprocess

import pytest

from model.oracle.lean import LeanOracle

pytestmark = pytest.mark.lean
FUEL = 100000  # jsonFuel in lean/AgentWarrant/Spec/Monitor/Json.lean


def _unlimited_stack() -> None:
    resource.setrlimit(resource.RLIMIT_STACK, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))


def _nested(depth: int, kind: str) -> str:
    if kind == "arr":
        return "[" * depth + "]" * depth
    return '{"k":' * (depth - 1) + "{}" + "}" * (depth - 1)


def test_inputs_at_the_bound_are_refused_and_one_less_is_judged(oracle: LeanOracle) -> None:
    lines = []
    for i, (depth, kind) in enumerate([(FUEL - 1, "arr"), (FUEL, "arr"), (FUEL - 1, "obj"), (FUEL, "obj")]):
        lines.append(f'{{"id": {i}, "judgment": "resolve", "input": {_nested(depth, kind)}}}')
    lines.append(json.dumps({"id": 4, "judgment": "resolve", "input": {"act": [1], "authorized": [0], "word": [0]}}))
    proc = subprocess.run([str(oracle.exe)], input="\n".join(lines) + "\n", capture_output=True, text=True,
                          timeout=300, preexec_fn=_unlimited_stack, check=False)
    assert proc.returncode == 0, proc.stderr[-500:]
    answers = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [a["id"] for a in answers] == [0, 1, 2, 3, 4]
    for shallow in (answers[0], answers[2]):  # reaches the judgment, which finds no "act"
        assert shallow["error"]["kind"] == "input"
        assert "nests" not in shallow["error"]["message"], shallow
    for deep in (answers[1], answers[3]):
        assert deep["error"]["kind"] == "input"
        assert f"nests {FUEL} or more" in deep["error"]["message"], deep
    assert answers[4]["output"] == {"word": [[0, 1, True]]}


def test_the_parser_reads_deep_nesting_at_the_default_stack(oracle: LeanOracle) -> None:
    depth = 2 * FUEL  # deeper than the bound, and than the nesting check reaches at 8 MiB
    lines = [f'{{"id": 0, "judgment": "no_such_judgment", "input": {_nested(depth, kind)}}}' for kind in ("arr", "obj")]
    lines.append('{"id": 1, "id": 2, "judgment": "resolve", "input": {}}')
    proc = subprocess.run([str(oracle.exe)], input="\n".join(lines) + "\n", capture_output=True, text=True,
                          timeout=300, check=False)
    assert proc.returncode == 0, proc.stderr[-500:]
    answers = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [a["error"]["kind"] for a in answers] == ["unknown_judgment", "unknown_judgment", "parse"], answers
    assert "repeated object name" in answers[2]["error"]["message"]
