"""Agenra Table 1: each row's decision and reason, computed through the Adapter."""

from __future__ import annotations

import pytest

from model.monitor.adapter.report_task import ROWS, table_rows
from model.monitor.decide.base import Decision, DenyReason

EXPECTED = {
    "Public summary to bound Alice address": (Decision.ALLOW, None, set()),
    "Raw report to Alice": (Decision.DENY, DenyReason.ORIGIN, {DenyReason.FLOW}),
    "Second send, including retry after failure": (Decision.DENY, DenyReason.QUOTA, set()),
    "Public body from another producer to bound Alice address": (Decision.DENY, DenyReason.ORIGIN, set()),
    "Edited summary with old approval": (Decision.DENY, DenyReason.PERMIT_MISMATCH, set()),
    "Recomputed identical summary with old approval": (Decision.DENY, DenyReason.PERMIT_MISMATCH, set()),
    "Second send with consumed approval": (Decision.DENY, DenyReason.PERMIT_CONSUMED, set()),
}


@pytest.fixture(scope="module")
def rows() -> dict[str, object]:
    return {r.candidate: r for r in table_rows()}


def test_table_has_the_papers_seven_rows() -> None:
    assert [r[0] for r in ROWS] == list(EXPECTED)


@pytest.mark.parametrize("candidate", list(EXPECTED))
def test_row(rows: dict[str, object], candidate: str) -> None:
    decision, reason, also_failing = EXPECTED[candidate]
    row = rows[candidate]
    assert row.decision is decision  # type: ignore[attr-defined]
    assert row.reason is reason  # type: ignore[attr-defined]
    assert also_failing <= set(row.failing)  # type: ignore[attr-defined]
    # Rejected calls never reach the mail tool; the allowed one does.
    assert row.reached_mail == (decision is Decision.ALLOW)  # type: ignore[attr-defined]
