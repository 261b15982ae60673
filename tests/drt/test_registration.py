"""Registration (Agenra Section 6.1): ``monitor check``'s validator against the oracle's ``policy_check``
judgment, on random well-formed policies and one-mutation breakages of the checks the Lean judgment
models (model/oracle/drt_registration.py). Accept/reject must agree on every case, and both verdicts
and every mutation kind must be reached, so a generator that drifted to one side would fail."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, seed, settings

from model.oracle.drt import report, save_vector
from model.oracle.drt_registration import MUTATIONS, registration_cases, run_registration
from model.oracle.lean import LeanOracle
from model.oracle.results import Agree, Mismatch

pytestmark = pytest.mark.lean


def test_policy_check(oracle: LeanOracle) -> None:
    kinds: dict[str, int] = {}

    @seed(20261206)
    @settings(max_examples=400, database=None, phases=[Phase.generate], deadline=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(registration_cases())
    def body(case: tuple[str, dict[str, object]]) -> None:
        res = run_registration(oracle, case)
        if isinstance(res, Mismatch):
            pytest.fail(f"{report(res)}\n(saved as {save_vector(res)})")
        assert isinstance(res, Agree)
        kinds[res.kind] = kinds.get(res.kind, 0) + 1

    body()
    assert any(k.endswith("accept") for k in kinds) and any(k.endswith("reject") for k in kinds), kinds
    # no rejection is the decoder's alone: an undeclared level is the form's check `levelRefs` as well
    decoded = {k.split(":")[0] for k in kinds if k.endswith("(decoding only)")}
    assert not decoded, sorted(decoded)
    reached = {k.split(":")[0] for k in kinds}
    assert len(reached) >= len(MUTATIONS) // 2, sorted(reached)


def test_mutations_break_python(oracle: LeanOracle) -> None:
    """Every mutation the generator applies is one the Python validator rejects: otherwise an agreement on
    it would say nothing about the check it was meant to break."""
    from model.oracle.drt_registration import python_accepts

    @seed(20261207)
    @settings(max_examples=100, database=None, phases=[Phase.generate], deadline=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(registration_cases())
    def body(case: tuple[str, dict[str, object]]) -> None:
        kind, doc = case
        assert python_accepts(doc) == (kind == "none"), kind

    body()


RESOURCE_KINDS = ("tool array resource", "tool object resource")


def _scalar_resources(doc: dict[str, Any]) -> dict[str, Any]:
    """``doc`` with every array or object tool resource constant replaced by a string: what a registration
    that never looks at those constants' shape sees."""
    out = copy.deepcopy(doc)
    for t in out.get("tools") or []:
        for e in t["effects"]:
            r = e["resource"]
            if r["kind"] == "const" and isinstance(r["value"], (list, dict)):
                r["value"] = "x"
    return out


class _DropCheck:
    """The oracle's answers with the registration check ``tools`` removed from ``errors``: what the oracle
    answers on these documents when `effArgOk` accepts any constant (the schema and the form's `scalars`
    still refuse it, so the verdict is kept)."""

    def __init__(self, oracle: LeanOracle) -> None:
        self.oracle = oracle

    def call(self, judgment: str, payload: Any) -> Any:
        out = self.oracle.call(judgment, payload)
        return {**out, "errors": [e for e in out["errors"] if e != "tools"]}


def test_tool_resource_constants(oracle: LeanOracle, monkeypatch: pytest.MonkeyPatch) -> None:
    """An array or object tool resource constant: Python and Lean refuse it, Lean's registration check by
    name; a Python registration accepting it and a Lean registration leaving it to the schema are caught."""
    import model.oracle.drt_registration as reg

    cases: list[tuple[str, dict[str, object]]] = []

    @seed(20261208)
    @settings(max_examples=60, database=None, phases=[Phase.generate], deadline=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(registration_cases(RESOURCE_KINDS))
    def body(case: tuple[str, dict[str, object]]) -> None:
        cases.append(case)

    body()
    mutated = [c for c in cases if c[0] in RESOURCE_KINDS]
    assert {k for k, _ in mutated} == set(RESOURCE_KINDS), [k for k, _ in cases]
    for case in mutated:
        res = run_registration(oracle, case)
        assert isinstance(res, Agree) and res.kind.endswith("reject"), report(res) if isinstance(res, Mismatch) else res
    real_accepts = reg.python_accepts
    monkeypatch.setattr(reg, "python_accepts", lambda doc: real_accepts(_scalar_resources(doc)))
    caught = [c for c in mutated if isinstance(run_registration(oracle, c), Mismatch)]
    assert len(caught) == len(mutated)
    monkeypatch.undo()
    dropped = [run_registration(_DropCheck(oracle), c) for c in mutated]
    assert all(isinstance(r, Mismatch) and r.modes == ("errors",) for r in dropped)
    print(f"tool resource constants: {len(mutated)} cases agree (reject); Python mutant caught on {len(caught)}, "
          f"Lean mutant on {len(dropped)}")
