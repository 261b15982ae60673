"""The ideal machine and the durable runtime agree on every session of at most two actions after
each of the experiment's prefixes (experiments/edits_bisim.py reports the counts)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from model.edits.ideal.bisim import PREFIXES, bisim_registration, key_of, run_session, sessions

pytestmark = pytest.mark.slow
LAPTOP = Path(__file__).resolve().parents[2] / "corpus" / "edits" / "sessions" / "laptop.json"


def test_exhaustive_depth_two(tmp_path: Path) -> None:
    reg, seed = bisim_registration(json.loads(LAPTOP.read_text()))
    for n, s in enumerate(sessions(reg, key_of(seed), PREFIXES, 2)):
        o = run_session(s, reg, seed, tmp_path, n)
        assert o.difference is None, o.difference
