"""API argument errors are ``InvalidInput`` naming the argument and what it takes, never a TypeError,
OverflowError, RecursionError or a third-party exception from inside an engine."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

import pytest

from model.base.budget import Budget
from model.base.errors import InvalidInput
from model.shell.api_evidence import drt_campaign, verify_approval, verify_records

A, R = "corpus/admission/approval_order-1.json", "corpus/admission/approvers.json"
AT = datetime(2026, 12, 2, 15, 0, tzinfo=UTC)


def _approval(**kw: object) -> Callable[[], object]:
    args: dict[str, object] = {"action": "paytm:refund", "resource": "order-1", "now": AT, "amount": 120, **kw}
    return lambda: verify_approval(A, R, **args)  # type: ignore[arg-type]


@pytest.mark.parametrize("call, where, expected", [
    (_approval(amount=10**400), "verify_approval: amount", "float range"),
    (_approval(now=datetime(2026, 12, 2, 15, 0)), "verify_approval: now", "timezone-aware"),
    (lambda: verify_records("corpus/admission/records.json", b"x"), "verify_records: key", "32 raw bytes"),
    (lambda: drt_campaign(cases=0, build=False), "drt_campaign: cases", "positive"),
    (lambda: drt_campaign(cases=-3, build=False), "drt_campaign: cases", "positive"),
    (lambda: Budget(seconds="10"), "budget: seconds", "positive, finite"),  # type: ignore[arg-type]
    (lambda: Budget(seconds=10**400), "budget: seconds", "positive, finite"),
    (lambda: Budget(seconds=True), "budget: seconds", "positive, finite"),
    (lambda: Budget(states="5"), "budget: states", "whole number"),  # type: ignore[arg-type]
    (lambda: Budget(states=2.5), "budget: states", "whole number"),  # type: ignore[arg-type]
    (lambda: Budget(memory="1"), "budget: memory", "whole number"),  # type: ignore[arg-type]
    (lambda: Budget(memory=-1), "budget: memory", "whole number"),
], ids=["amount-10**400", "naive-now", "short-key", "cases-0", "cases-negative", "seconds-str", "seconds-10**400",
        "seconds-bool", "states-str", "states-float", "memory-str", "memory-negative"])
def test_argument_errors_name_the_argument(call: Callable[[], object], where: str, expected: str) -> None:
    with pytest.raises(InvalidInput) as err:
        call()
    assert str(err.value).startswith(f"{where}: expected") and expected in str(err.value), str(err.value)


def test_a_huge_integer_is_quoted_by_its_size() -> None:
    # Python refuses to print an int of more than 4,300 digits: the error must still be one line
    with pytest.raises(InvalidInput) as err:
        Budget(seconds=10**5000)
    assert "an integer of" in str(err.value) and "bits" in str(err.value)


def test_the_valid_neighbours_still_answer() -> None:
    assert type(_approval()()).__name__ == "ApprovalVerified"
    assert type(_approval(amount=float("inf"))()).__name__ == "Refusal"  # out of the approved domain
    assert Budget(seconds=1, states=2, memory=3).spec() == "1s,2states,3b"
