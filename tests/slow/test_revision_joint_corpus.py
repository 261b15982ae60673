"""Every corpus entry only a joint simulation certifies is certified by ``revise`` with a
checked joint simulation, and brute force over every workload sequence up to the base's bound
(tests/property/test_revision_differential.brute_lost) finds no lost client."""

from __future__ import annotations

import pytest

from tests.unit.test_revision_joint import JOINT_ONLY, _certified_and_confirmed

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("entry", JOINT_ONLY, ids=lambda e: e.id)
def test_joint_entries_are_certified_and_lose_no_client_by_brute_force(entry: object) -> None:
    _certified_and_confirmed(entry)
