"""Fingerprint mode of the explicit search (model/search/fingerprint.py): the fingerprint set and the
frontier codec, the engine against the exact one on corpus models, the budget's memory limit and an
interrupt answering Unknown with what was covered."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from model.base.budget import Budget, Unknown, resident_bytes
from model.base.errors import InvalidInput
from model.search.compact import empty
from model.search.expand import Context, successors
from model.search.explicit import explore
from model.search.fingerprint import (
    Codec,
    FingerprintSet,
    FingerprintStore,
    collision_probability,
    explore_fingerprint,
    fingerprint,
)
from model.search.layered import layered
from model.search.load import load_model
from model.search.search_verdict import Found

SEARCH = Path(__file__).resolve().parents[2] / "corpus" / "search"


def test_fingerprint_set_is_a_set_across_growth() -> None:
    rng = random.Random(7)
    values = [rng.getrandbits(64) or 1 for _ in range(20_000)]
    fs, ref = FingerprintSet(capacity=8), set()
    for v in values + values[:5000]:
        assert fs.add(v) == (v not in ref)
        ref.add(v)
    assert len(fs) == len(ref)
    assert fs.nbytes <= 33 * len(ref)  # between three quarters and three eighths full: 16-32 bytes a state
    assert all(not fs.add(v) for v in values)


def test_codec_round_trips_states() -> None:
    m = load_model(SEARCH / "report.json")
    ctx, codec = Context(m, renaming=True), Codec()
    states = [empty(m.policy)]
    for s in list(states):
        states += [new for _, new, _, _, _ in successors(ctx, s)]
    for s in states[:4]:
        states += [new for _, new, _, _, _ in successors(ctx, s)]
    for s in states:
        assert codec.decode(codec.encode(s)) == s
    assert len({fingerprint(s) for s in set(states)}) == len(set(states))


@pytest.mark.parametrize(("name", "bound"), [("report.json", 3), ("report_permit.json", 3), ("payments.json", 3),
                                             ("deploy.json", 2), ("agentdojo_banking.json", 1)])
@pytest.mark.parametrize("reduction", [True, False])
def test_equals_exact_mode(name: str, bound: int, reduction: bool) -> None:
    m = load_model(SEARCH / name)
    a, b = explore(m, bound, reduction=reduction), explore_fingerprint(m, bound, reduction=reduction)
    assert (b.states, b.transitions, b.depth, b.verdicts, b.completions) == \
        (a.states, a.transitions, a.depth, a.verdicts, a.completions)
    assert (a.mode, b.mode) == ("exact", "fingerprint")
    assert b.collision == collision_probability(b.states) > 0.0 == a.collision


def test_memory_budget_answers_unknown() -> None:
    m = load_model(SEARCH / "report.json")
    # bound 8 (hundreds of megabytes): memory earlier tests freed, which the search reuses before the
    # resident size grows, cannot hold it, whatever ran before in this process
    run = explore(m, 8, budget=Budget(memory=resident_bytes() + 2**20))
    assert run.unknown is not None and run.unknown.limit == "memory"
    assert "layer" in run.unknown.reason and run.depth < 8
    assert Budget.parse("30s,2gb") == Budget(seconds=30.0, memory=2 * 2**30)
    with pytest.raises(InvalidInput):
        Budget.parse("2gb,3mb")


@pytest.mark.parametrize("engine", [explore, explore_fingerprint])
def test_interrupt_reports_what_was_covered(engine: object) -> None:
    m = load_model(SEARCH / "report.json")
    calls = [0]

    def tick(done: int, total: int) -> None:
        calls[0] += 1
        if done >= 300:  # in layer 4 of 5: Ctrl-C
            raise KeyboardInterrupt

    run = engine(m, 5, tick=tick)  # type: ignore[operator]
    assert run.unknown is not None and run.unknown.limit == "interrupt"
    assert "interrupted after" in run.unknown.reason and 0 < run.states < 10_474
    assert any(isinstance(v, Found) for _, v in run.verdicts)  # found before the interrupt: kept
    assert any(isinstance(v, Unknown) for _, v in run.verdicts)


def test_cli_fingerprint_mode_says_which_mode_ran() -> None:
    import json

    from click.testing import CliRunner

    from model.shell.cli import main

    args = ["search", str(SEARCH / "report.json"), "--engine", "explicit", "--bound", "3", "--no-replay", "--json"]
    exact = json.loads(CliRunner().invoke(main, args).output)["explicit"]
    fp = json.loads(CliRunner().invoke(main, [*args, "--fingerprint"]).output)["explicit"]
    assert (exact["mode"], fp["mode"]) == ("exact", "fingerprint")
    assert exact["collision_probability"] == 0.0 < fp["collision_probability"]
    assert (fp["states"], fp["queries"]) == (exact["states"], exact["queries"])
    # --fingerprint with --workers/--scheduler runs the distributed fingerprint mode: tests/unit/test_dist_search.py


def test_fingerprint_set_keeps_the_first_index() -> None:
    fs = FingerprintSet(capacity=4)
    assert [fs.put(v, i) for i, v in enumerate((5, 9, 5, 13, 9, 17, 21))] == [-1, -1, 0, -1, 1, -1, -1]
    assert fs.put(13, 99) == 3 and fs.put(21, 99) == 6  # across the doublings
    assert fs.nbytes == 12 * len(fs.slots)


@pytest.mark.parametrize("limit", [0, 50])
def test_a_tiny_decision_memo_changes_nothing(limit: int) -> None:
    m = load_model(SEARCH / "report_permit.json")
    a = explore(m, 4)
    ctx = Context(m, renaming=not m.policy.histories)
    b = layered(ctx, FingerprintStore(ctx, empty(m.policy), memo_limit=limit), 4)
    assert (b.states, b.transitions, b.depth, b.verdicts, b.completions) == \
        (a.states, a.transitions, a.depth, a.verdicts, a.completions)
    assert len(ctx.refused) + len(ctx.trans) <= limit + 200  # emptied before each state past the limit


def test_fingerprint_set_without_indices_is_a_set() -> None:
    fs = FingerprintSet(capacity=4)
    for v in range(1, 50):
        fs.put(v, v)
    fs.drop_index()
    assert fs.nbytes == 8 * len(fs.slots)
    assert all(fs.put(v, 0) != -1 for v in range(1, 50))
    assert [fs.put(v, 0) for v in range(50, 200)] == [-1] * 150 and len(fs) == 199
    assert all(not fs.add(v) for v in range(1, 200))
