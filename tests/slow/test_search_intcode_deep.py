"""The integer-encoded search against the current engine at deeper bounds (seconds to a minute each):
states, transitions, depth, verdicts with traces and completions equal."""

from __future__ import annotations

import pytest

from tests.unit.test_search_intcode import same_answers

DEEP = {"report.json": 6, "report_alice_known.json": 4, "report_trust.json": 4, "deploy.json": 3,
        "deploy_fleet.json": 3, "payments_invoices.json": 5, "agentdojo_banking.json": 2,
        "agentdojo_banking_weak.json": 2, "agentdojo_banking_wide.json": 2, "agentdojo_workspace.json": 2,
        "report_copying.json": 4,
        "report_permit.json": 6}

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("name", sorted(DEEP))
def test_same_answers_deeper(name: str) -> None:
    same_answers(name, DEEP[name])
