"""The ideal atomic machine against the durable runtime (model/edits/ideal/), a small bound here;
experiments/edits_bisim.py runs the larger one and tests/slow the exhaustive depth 2.

Every session of at most one action after registering the laptop call model gives the same
observations on both; each deliberately broken runtime is caught by some short session."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from model.edits.ideal import machine as M
from model.edits.ideal.bisim import (
    Action,
    Broken,
    bisim_registration,
    ideal_step,
    key_of,
    menu,
    run_session,
    sessions,
)
from model.edits.runtime.forms import ForkChoice

LAPTOP = Path(__file__).resolve().parents[2] / "corpus" / "edits" / "sessions" / "laptop.json"
REG, SEED = bisim_registration(json.loads(LAPTOP.read_text()))
KEY = key_of(SEED)
FORK = ForkChoice("b0", "fork")


def _after(prefix: tuple[Action, ...], kind: str) -> list[tuple[Action, ...]]:
    """``prefix`` extended by each menu action of ``kind`` enabled after it."""
    _, i = M.start(REG, KEY)
    assert i is not None
    for a in prefix:
        _, i = ideal_step(i, a, KEY)
    return [(*prefix, a) for a in menu(i) if a[0] == kind]


def test_sessions_up_to_one_action_agree(tmp_path: Path) -> None:
    compared = 0
    batch = list(sessions(REG, KEY, [()], 1))
    assert len(batch) > 10
    for n, s in enumerate(batch):
        o = run_session(s, REG, SEED, tmp_path, n)
        assert o.difference is None, o.difference
        compared += o.observations
    assert compared >= len(batch) - 1  # every action but a restart is observed


@pytest.mark.parametrize("broken, candidates", [
    (Broken.TWO_COMMIT_UPDATE, lambda: _after((("edit", FORK), ("restart",)), "checkpoint")),
    (Broken.NO_FINAL_CHECK, lambda: _after((("use", "xr"), ("raced", FORK, "xa")), "use")),
    (Broken.PRELOAD_ACTIVATES, lambda: [(("raced", FORK, "xr"),)]),
])
def test_broken_runtimes_are_caught(tmp_path: Path, broken: Broken, candidates: object) -> None:
    found = [run_session(s, REG, SEED, tmp_path, n, broken) for n, s in enumerate(candidates())]  # type: ignore[operator]
    assert found and any(o.difference is not None for o in found), found
    for n, s in enumerate(candidates()):  # type: ignore[operator]
        assert run_session(s, REG, SEED, tmp_path, 1000 + n).difference is None
