"""Theorem 4's generalised record pairs at a larger scale than the default tier (excluded from
``make test``): check instances with up to five calls, and longer runtime sessions. The searches and
their assertions are those of tests/property/test_edits_information.py and
tests/property/test_edits_information_runtime.py; ``-s`` prints the counts."""

from __future__ import annotations

import pytest

from tests.property.test_edits_information import ie_search, p_search
from tests.property.test_edits_information_runtime import c_pairs, e_pairs, full_view_case, p_pairs, search

pytestmark = pytest.mark.slow


def test_instance_pairs_deep() -> None:
    p, ie = p_search(2000, max_calls=5), ie_search(2000, max_calls=5)
    print(f"among 2000 composite / 2000 generated instances with up to 5 calls: P {p}, I/E {ie}")
    assert p["P"] > 0 and ie["I"] > 0 and ie["E"] > 0, (p, ie)


def test_runtime_pairs_deep() -> None:
    c = search(c_pairs, 150, 8, {"C": 0, "same": 0, "states": 0})
    p = search(p_pairs, 150, 8, {"P": 0, "records": 0})
    e = search(e_pairs, 150, 8, {"E": 0, "same": 0, "records": 0})
    full = search(full_view_case, 150, 8, {"states": 0})
    print(f"150 sessions of up to 8 actions: C {c}, P {p}, E {e}, full view rebuilt for {full['states']} states")
    assert c["C"] > 0 and c["same"] == 0 and p["P"] > 0 and full["states"] == 150, (c, p, full)
    assert e["E"] > 0 and e["same"] == 0, e
