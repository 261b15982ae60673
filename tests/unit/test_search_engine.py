"""The breadth-first loop (model/base/breadth_first.py) on a system small enough to count by hand: a
binary counter from 0 whose transitions are +1 and *2 up to 30. Layers, counts, the budget and Ctrl-C
turned into ``Unknown`` with what was covered, ``Stop``, ``catch=False``, and a ``Level`` cut at its cap."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from model.base.breadth_first import KeyedFrontier, Level, Stop, bfs
from model.base.budget import Budget, BudgetExhausted

TOP = 30


def _succ(s: int) -> list[int]:
    return [t for t in (s + 1, 2 * s) if t <= TOP]


def _expand(store: KeyedFrontier[int], stop_at: int | None = None,
            interrupt_at: int | None = None) -> Callable[[int, bool, int, int, None], Iterator[int]]:
    def expand(_layer: int, _last: bool, _n: int, s: int, _x: None) -> Iterator[int]:
        for t in _succ(s):
            if interrupt_at is not None and t == interrupt_at:
                raise KeyboardInterrupt
            yield 1
            if t == stop_at:
                raise Stop
            if store.add(t):
                store.push(t)
    return expand


def _reachable(bound: int) -> tuple[int, int, int]:
    """States, transitions and depth computed without the loop."""
    seen, cur, transitions, depth = {0}, [0], 0, 0
    for d in range(bound):
        nxt = []
        for s in cur:
            for t in _succ(s):
                transitions += 1
                if t not in seen:
                    seen.add(t)
                    nxt.append(t)
        if not nxt:
            break
        cur, depth = nxt, d + 1
    return len(seen), transitions, depth


@pytest.mark.parametrize("bound", [0, 1, 3, 6, 40])
def test_counts_match_a_plain_loop(bound: int) -> None:
    store: KeyedFrontier[int] = KeyedFrontier([0], [0])
    cov = bfs(store, _expand(store), bound, Budget().start())
    assert (cov.states, cov.transitions, cov.depth) == _reachable(bound)
    assert cov.unknown is None and not cov.stopped


def test_budget_run_out_is_unknown_with_what_was_covered() -> None:
    store: KeyedFrontier[int] = KeyedFrontier([0], [0])
    cov = bfs(store, _expand(store), 40, Budget(states=10).start())
    assert cov.unknown is not None and cov.transitions == 10
    assert f"{cov.transitions} transitions" in cov.unknown.reason and cov.unknown.limit == "states"


def test_ctrl_c_is_unknown_interrupt() -> None:
    store: KeyedFrontier[int] = KeyedFrontier([0], [0])
    cov = bfs(store, _expand(store, interrupt_at=12), 40, Budget().start())
    assert cov.unknown is not None and cov.unknown.limit == "interrupt"
    assert cov.states < _reachable(40)[0]


def test_catch_false_propagates() -> None:
    store: KeyedFrontier[int] = KeyedFrontier([0], [0])
    with pytest.raises(BudgetExhausted):
        bfs(store, _expand(store), 40, Budget(states=5).start(), catch=False)
    store = KeyedFrontier([0], [0])
    with pytest.raises(KeyboardInterrupt):
        bfs(store, _expand(store, interrupt_at=3), 40, None)


def test_stop_ends_the_run_complete() -> None:
    store: KeyedFrontier[int] = KeyedFrontier([0], [0])
    cov = bfs(store, _expand(store, stop_at=16), 40, Budget().start())
    assert cov.stopped and cov.unknown is None and cov.depth == 4  # 16 is first met in layer 5 (0,1,2,4,8,16)


def test_level_cut_at_its_cap_is_incomplete() -> None:
    level: Level[int, None] = Level(((n, s, None) for n, s in enumerate(range(10))), None, 5)
    seen: list[int] = []

    def expand(_layer: int, _last: bool, _n: int, s: int, _x: None) -> Iterator[int]:
        for t in _succ(s):
            yield 1
            seen.append(t)

    cov = bfs(level, expand, 1, None, step=level.step)
    assert not level.complete and level.expanded < 10
    assert level.transitions == cov.transitions == len(seen) > 5
