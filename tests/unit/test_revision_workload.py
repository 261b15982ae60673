"""Forbidden budgets count effects by JSON equality (RFC 8785), not Python's: ``true`` is not ``1``."""

from __future__ import annotations

from model.monitor.decide.matching import Effect
from model.revision.explore.workload import Budget


def test_a_budget_on_resource_1_does_not_count_effects_on_true() -> None:
    one = Budget("payment.send", 0, resource=1)
    assert not one.violated([Effect("payment.send", True)])
    assert one.violated([Effect("payment.send", 1)])
    assert one.violated([Effect("payment.send", 1.0)])  # the same JSON number


def test_a_budget_shows_its_resource_as_json() -> None:
    assert Budget("file.delete", 1, resource=True).show() == "more than 1 file.delete(true)"
    assert Budget("file.delete", 1, resource="a", per_resource=True).show() == \
        'more than 1 file.delete("a") per resource'
