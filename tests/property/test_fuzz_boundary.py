"""The boundary fuzz campaign, default tier: every loader and every CLI command gets
mutated corpus files (tests/fuzz_mutations.py) and may only answer with a value, a verdict or
``InvalidInput`` — for a command exit 0, 1, 2 or 3 and never a traceback (tests/fuzz_targets.py).

A few examples per target keep this tier to seconds; tests/slow/test_fuzz_boundary_deep.py runs the
same campaign with hundreds per target. ``FUZZ_EXAMPLES=N`` overrides the count, and
``FUZZ_SAVE=DIR`` writes each failing input to DIR/<target>/ so the minimized one can be kept under
corpus/fuzz/<target>/, where tests/unit/test_fuzz_corpus.py replays it forever.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.fuzz_mutations import mutated
from tests.fuzz_targets import TARGETS, check, seed_bytes


def run_campaign(name: str, examples: int) -> None:
    target = TARGETS[name]
    save = os.environ.get("FUZZ_SAVE")

    @settings(max_examples=examples, database=None, suppress_health_check=list(HealthCheck))
    @given(mutated(seed_bytes(target)))
    def campaign(data: bytes) -> None:
        try:
            check(target, data)
        except BaseException:
            if save:
                d = Path(save) / name
                d.mkdir(parents=True, exist_ok=True)
                (d / f"{hashlib.sha256(data).hexdigest()[:12]}.bin").write_bytes(data)
                (d / "last.bin").write_bytes(data)  # the last failing call is hypothesis's minimized replay
            raise

    campaign()


# CLI invocations cost more than library calls; both counts stay small in this tier.
_DEFAULT = {True: 2, False: 6}


@pytest.mark.parametrize("name", sorted(TARGETS))
def test_only_invalid_input_or_a_verdict(name: str) -> None:
    n = int(os.environ.get("FUZZ_EXAMPLES", _DEFAULT[TARGETS[name].cli]))
    run_campaign(name, n)


@given(st.sampled_from(sorted(TARGETS)))
@settings(max_examples=len(TARGETS))
def test_every_target_has_seeds_that_are_accepted(name: str) -> None:
    """The unmutated seeds pass: a campaign whose seeds are already refused would test nothing deep."""
    target = TARGETS[name]
    for data in seed_bytes(target)[:1]:
        check(target, data)
