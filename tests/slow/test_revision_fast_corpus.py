"""Every corpus revision is judged by the memoized engines as by the unmemoized path (a speed-up
must give identical verdicts, certificates and counterexamples; ``RevisionReport.judgment``), with the memo kept
across the corpus as ``agentwarrant reproduce revision-corpus`` keeps it."""

from __future__ import annotations

import pytest

from model.revision.corpus import Entry, load_manifest
from model.revision.revise import revise

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("e", load_manifest(), ids=lambda e: e.id)
def test_fast_path_judges_like_the_baseline(e: Entry) -> None:
    args = (e.base.policy, e.new, e.effects, e.base.workload, e.base.bound, e.prefix)
    assert revise(*args).judgment() == revise(*args, merge=False, fast=False).judgment()
