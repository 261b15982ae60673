"""Merge keys of the revision product search (``model/revision/explore/merge_keys.py``): states the monitor
tells apart never share a key, in either mode."""

from __future__ import annotations

from typing import Any

import pytest

from model.monitor.decide.state import State
from model.revision.explore import merge_keys


@pytest.mark.parametrize("exact", [True, False])
def test_a_slot_bound_to_true_and_one_bound_to_1_are_different_states(exact: bool) -> None:
    # Python's == says True == 1, so State equality alone merged them in exact mode (policies with
    # history rules), although json_equal and the monitor's slot matching distinguish them.
    node: Any = type("N", (), {"values": (), "produced": ()})()
    a = merge_keys._side(State(bindings=(("target", True, 0),)), node, exact)
    b = merge_keys._side(State(bindings=(("target", 1, 0),)), node, exact)
    same = merge_keys._side(State(bindings=(("target", True, 0),)), node, exact)
    assert a != b and hash(a) == hash(same) and a == same
