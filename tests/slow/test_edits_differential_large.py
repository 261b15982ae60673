"""Slower differential run on larger instances (up to 5 calls), excluded from ``make test``.

Same comparisons as tests/property/test_edits_differential.py minus the declarative engine
(its subset cap is too small here): explicit and symbolic give the same verdict, the same Can,
and every rejection proof verifies.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings

from model.edits.check.answer import Accepted, Engine, Invalid, Rejected
from model.edits.check.candidates import enumerate_candidates
from model.edits.check.checker import check
from model.edits.check.instance import Instance
from model.edits.check.rounds import iterate
from model.edits.check.verify import verify
from model.oracle.generators import edit_instances, family_instances
from tests.property.test_edits_differential import _engines_agree  # here, not in the test: see below


@pytest.mark.slow
@settings(max_examples=3000, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(edit_instances(max_calls=5))
def test_explicit_and_symbolic_agree_on_larger_instances(inst: Instance) -> None:
    ex, sy = check(inst, Engine.EXPLICIT), check(inst, Engine.SYMBOLIC)
    assert type(ex) is type(sy)
    if isinstance(ex, Invalid):
        return
    literal, _ = iterate(enumerate_candidates(inst))
    if isinstance(ex, Accepted):
        assert isinstance(sy, Accepted) and ex.automaton == sy.automaton
        assert frozenset(sy.automaton.completions()) == literal
    else:
        assert isinstance(ex, Rejected) and isinstance(sy, Rejected) and not literal
        assert ex.proof == sy.proof and verify(inst, ex.proof).valid


@pytest.mark.slow
@settings(max_examples=2000, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(family_instances())
def test_engines_agree_on_many_explicit_families(inst: Instance) -> None:
    """The default tier's explicit-family differential test, at volume. Its module is
    imported at the top: imported inside this test, its own ``@given`` tests would be defined while
    this one runs, which Hypothesis refuses (the nested-given health check)."""
    _engines_agree(inst)
