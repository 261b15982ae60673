"""The fast engine and its reduction at the bounds the bounded-analysis table uses (slow tier): unreduced it
equals the baseline engine exactly, reduced it keeps verdicts, shortest lengths and completions."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings

from model.oracle.generators import search_report_variants
from model.search.model import SearchModel
from tests.property.test_search_por import _corpus, check_all

pytestmark = pytest.mark.slow

LARGE = [
    ("report.json", "../policies/report_no_origin.policy", 4),
    ("report.json", "../policies/report_chained.policy", 5),
    ("report_permit.json", "report_permit_core.policy", 4),
    ("payments.json", "../policies/payments.policy", 3),
    ("delete_ab.json", "../policies/delete_ab.policy", 3),
    ("report_trust.json", "../policies/report_chained.policy", 4),
]


@pytest.mark.parametrize(("name", "policy", "bound"), LARGE)
def test_corpus_models_at_larger_bounds(name: str, policy: str, bound: int) -> None:
    check_all(_corpus(name, policy), bound)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(search_report_variants())
def test_many_generated_variants(variant: tuple[SearchModel, int]) -> None:
    model, bound = variant
    check_all(model, bound)
