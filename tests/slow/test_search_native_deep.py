"""The compiled and interpreted searches on every corpus/search model at bound 3 (the unit test's
comparison, deeper: a few minutes)."""

from __future__ import annotations

import pytest

from tests.unit.test_search_native import differential

pytestmark = pytest.mark.slow


def test_compiled_and_interpreted_agree_at_bound_3() -> None:
    differential(3, exact=True)
