"""The generated long-loss family (model/revision/long_loss.py) at every quota from 10^3 to 10^9: no Unknown,
every verdict the one the member is built to show, every counterexample confirmed by the exact compressed
replay (and, at 10^3, by the Adapter replay of the expanded sequence as well)."""

from __future__ import annotations

import pytest

from model.revision.effects import EVERY_EFFECT
from model.revision.long_loss import BOUND, MEMBERS, QUOTAS, expected, member
from model.revision.report import Certified, NewlyForbidden, NoForbiddenDeclared, NotPreserved
from model.revision.revise import revise

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("q", QUOTAS)
@pytest.mark.parametrize("name", MEMBERS)
def test_every_member_is_decided_as_built(name: str, q: int) -> None:
    old, new, workload = member(name, q)
    report = revise(old, new, EVERY_EFFECT, workload, BOUND)
    want_p, want_s = expected(name)
    if want_p == "not_preserved":
        assert isinstance(report.preservation, NotPreserved) and report.preservation.lost.confirmed
        assert report.preservation.lost.length() >= q
        if q <= 1000:
            assert report.preservation.lost.names  # listed in full, replayed through the Adapter
    else:
        assert isinstance(report.preservation, Certified)
    if want_s == "newly_forbidden":
        assert isinstance(report.safety, NewlyForbidden) and report.safety.trace.confirmed
    else:
        assert isinstance(report.safety, NoForbiddenDeclared)
