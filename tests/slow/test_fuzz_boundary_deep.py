"""The boundary fuzz campaign with hundreds of examples per target (slow tier; the default tier runs
the same targets with a few each: tests/property/test_fuzz_boundary.py)."""

from __future__ import annotations

import pytest

from tests.fuzz_targets import TARGETS
from tests.property.test_fuzz_boundary import run_campaign

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("name", sorted(TARGETS))
def test_only_invalid_input_or_a_verdict_deep(name: str) -> None:
    run_campaign(name, 80 if TARGETS[name].cli else 300)
