"""The oracle decides Lemma 2's coverage witnesses itself (lean/AgentWarrant/Spec/Edits/Cover.lean): an
``edit_check`` input given with a derived record's source results (``sources``: each result's status
and the target outcomes covering it) is answered Invalid (``required-result-dropped``) exactly when a
still-required result has no covering target outcome with a linearization, and ``coverage`` reports
the decision.

Every derivation the ideal machine's menu offers along random sessions of both registrations is
checked: Python and Lean both find the coverage true and agree on the answer. Coverage taken away on
the Python side is answered Invalid by both; generated instances with made-up source results (some
still required and uncovered) get the same coverage and answer from both sides; hand-written inputs
exercise what Python's ``Pomset`` cannot represent (a covering outcome with a cyclic order, hence no
linearization)."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from model.edits.check.instance import Instance
from model.edits.ideal import machine as M
from model.edits.ideal.bisim import ideal_step, key_of, menu
from model.edits.runtime.derive import Derived, derive
from model.edits.runtime.requirements import Preservation
from model.oracle import drt_runtime as R
from model.oracle import edits_json as E
from model.oracle.generators import edit_instances
from model.oracle.lean import LeanOracle
from model.oracle.results import Agree

pytestmark = pytest.mark.lean


def _derivations() -> list[Derived]:
    """Every derivation the menu offers at each state of a few random ideal sessions (small ones only)."""
    out: list[Derived] = []
    for name in R.REGISTRATIONS:
        reg, seed = R.registration(name)
        key = key_of(seed)
        for s in range(3):
            rng = random.Random(s)
            _, ideal = M.start(reg, key)
            assert ideal is not None
            for _ in range(8):
                acts = [a for a in menu(ideal) if a[0] not in ("raced", "restart")]
                for a in acts:
                    if a[0] == "edit" and R.small(ideal.record, a[1]):
                        d = derive(ideal.record, a[1])
                        if isinstance(d, Derived):
                            out.append(d)
                _, ideal = ideal_step(ideal, rng.choice(acts), key)
    return out


@pytest.fixture(scope="module")
def derivations() -> list[Derived]:
    return _derivations()


def test_derived_instances_have_coverage_and_both_sides_agree(oracle: LeanOracle,
                                                                derivations: list[Derived]) -> None:
    assert len(derivations) >= 10
    # the decision is not vacuous: many derivations leave still-required results to cover
    assert sum(1 for d in derivations if d.preservation.still_required) >= 5
    for d in derivations:
        assert E.python_coverage(d.instance, d.preservation)
        assert R.derived_check(oracle, d) == []  # type: ignore[arg-type]


def test_coverage_taken_away_is_invalid_on_both_sides(oracle: LeanOracle, derivations: list[Derived]) -> None:
    d = next(d for d in derivations if d.preservation.still_required)
    pres = d.preservation
    dropped = replace(pres, covering=tuple((r, ()) for r, _ in pres.covering))
    py = E.python_edit_check(d.instance, dropped)
    payload, names = E.edit_check_input(d.instance, dropped)
    out = oracle.call("edit_check", payload)
    assert out["verdict"] == "invalid" and out["reason"] == "required-result-dropped" and out["coverage"] is False
    assert py.coverage is False and E.compare_edit_check(py, E.lean_edit_view(names, out)) == []
    # the same results marked satisfied are no longer required: coverage holds again
    done = replace(dropped, satisfied=pres.satisfied + pres.still_required)
    payload, names = E.edit_check_input(d.instance, done)
    out = oracle.call("edit_check", payload)
    assert out["coverage"] is True and out["verdict"] != "invalid"
    assert E.compare_edit_check(E.python_edit_check(d.instance, done), E.lean_edit_view(names, out)) == []


def _par2(order: list[list[int]], sources: list[dict[str, Any]]) -> dict[str, Any]:
    """Two calls on two actions, one outcome with the given order, any policy word, and ``sources``."""
    return {"term": ["par", [["call", 0], ["call", 1]]], "calls": [[0, 0], [1, 1]], "labels": [[0, 0], [1, 1]],
            "outcomes": [{"id": 0, "events": [0, 1], "order": order}],
            "act": [0, 1], "lab": [0, 1], "log": [], "policy": {"delta": [[0, 0, 0], [0, 1, 0]]},
            "sources": sources}


def _src(covers: list[int], satisfied: bool = False, removed: bool = False) -> dict[str, Any]:
    return {"id": 0, "satisfied": satisfied, "removed": removed, "covers": covers}


def test_coverage_needs_a_complete_covering_outcome(oracle: LeanOracle) -> None:
    cyclic = [[0, 1], [1, 0]]
    assert oracle.call("edit_check", _par2([], [_src([0])]))["coverage"] is True
    assert oracle.call("edit_check", _par2([], [_src([0])]))["verdict"] == "accepted"
    # the covering outcome has no linearization: no witness, so the derivation is undefined
    out = oracle.call("edit_check", _par2(cyclic, [_src([0])]))
    assert (out["verdict"], out["reason"], out["coverage"]) == ("invalid", "required-result-dropped", False)
    # an outcome ID the input does not carry covers nothing; no covering outcome at all is no witness
    assert oracle.call("edit_check", _par2([], [_src([3])]))["coverage"] is False
    assert oracle.call("edit_check", _par2([], [_src([])]))["coverage"] is False
    # satisfied or authorized-removed results need no witness: the checker answers (here, rejects)
    for src in (_src([], satisfied=True), _src([0], removed=True)):
        out = oracle.call("edit_check", _par2(cyclic, [src]))
        assert (out["coverage"], out["verdict"]) == (True, "rejected")
    # without sources the coverage holds vacuously
    doc = _par2([], [])
    del doc["sources"]
    assert oracle.call("edit_check", doc)["coverage"] is True


def test_ideal_sessions_check_their_derivations(oracle: LeanOracle) -> None:
    checked = 0
    for seed in range(4):
        res = R.run_ideal_session(oracle, R.Session(R.REGISTRATIONS[seed % 2], seed, 10))  # type: ignore[arg-type]
        assert isinstance(res, Agree), res
        checked += res.tags.count("derived check")
    assert checked > 0


@st.composite
def _with_sources(draw: st.DrawFn) -> tuple[Instance, Preservation]:
    """A generated instance with made-up source results: each satisfied, removed or still required, and
    covered by a drawn subset of the instance's outcomes (sometimes none, sometimes one it lacks)."""
    inst = draw(edit_instances())
    outs = list(inst.outcomes())
    foreign = frozenset({("no-such-group", "arm")})
    results = [(f"r{k}", draw(st.sampled_from(outs))) for k in range(draw(st.integers(0, 3)))]
    status = [draw(st.sampled_from(("still", "still", "satisfied", "removed"))) for _ in results]
    covering = tuple((r, tuple(draw(st.lists(st.sampled_from([*outs, foreign]), max_size=2, unique=True))))
                     for r, s in zip(results, status, strict=True) if s == "still")
    still = tuple(r for r, s in zip(results, status, strict=True) if s == "still")
    pres = Preservation(tuple(results), tuple(r for r, s in zip(results, status, strict=True) if s == "satisfied"),
                        tuple(r for r, s in zip(results, status, strict=True) if s == "removed"), still,
                        tuple((r, ts[0]) for r, ts in covering if ts), tuple(r for r, ts in covering if not ts),
                        covering)
    return inst, pres


@settings(max_examples=60, database=None, phases=[Phase.generate], deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                 HealthCheck.function_scoped_fixture])
@given(case=_with_sources())
def test_generated_sources_agree(oracle: LeanOracle, case: tuple[Instance, Preservation]) -> None:
    inst, pres = case
    py = E.python_edit_check(inst, pres)
    payload, names = E.edit_check_input(inst, pres)
    lean = E.lean_edit_view(names, oracle.call("edit_check", payload))
    assert lean.coverage is not None and py.coverage == lean.coverage
    assert E.compare_edit_check(py, lean) == []
