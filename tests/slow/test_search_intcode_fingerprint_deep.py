"""The integer-encoded search's fingerprint mode against its exact mode where the layers are large (the
report model at bound 9: 3.7 million states, the deployment fleet at bound 4), with the table sized too
small so that it doubles on the way: states, transitions, depth, verdicts with traces and completions
equal."""

from __future__ import annotations

import pytest

from model.search.load import load_model
from model.search.native import intcode
from tests.unit.test_search_intcode import SEARCH, kernel
from tests.unit.test_search_intcode_fingerprint import answers

pytestmark = pytest.mark.slow


@pytest.mark.parametrize(("name", "k"), [("report.json", 9), ("deploy_fleet.json", 4)])
def test_fingerprints_answer_as_the_exact_vectors_deeper(name: str, k: int) -> None:
    kernel()
    m = load_model(SEARCH / name)
    fp = intcode.explore_native(m, k, fingerprint=True, capacity=1 << 16)
    exact = intcode.explore_native(m, k)
    assert fp is not None and exact is not None
    assert answers(fp) == answers(exact)
    assert fp.collision > 0.0
