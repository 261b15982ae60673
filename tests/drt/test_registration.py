"""Registration (Agenra Section 6.1): ``monitor check``'s validator against the oracle's ``policy_check``
judgment, on random well-formed policies and one-mutation breakages of the checks the Lean judgment
models (model/oracle/drt_registration.py). Accept/reject must agree on every case, and both verdicts
and every mutation kind must be reached, so a generator that drifted to one side would fail."""

from __future__ import annotations

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
