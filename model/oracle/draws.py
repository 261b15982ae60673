"""Drawing helpers shared by the DRT's strategies (model/oracle/generators.py, model/oracle/run_openings.py).

Each works under hypothesis and under the direct sampler (model/oracle/direct.py) and builds no strategy per
draw: building a strategy inside a draw (``st.lists(...)``, ``st.sampled_from(pool)``) costs more than
drawing from it, and was most of the DRT's case generation. Choice: a length drawn by :func:`count` is
uniform over its bounds.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import TypeVar

from hypothesis import strategies as st

from model.base.canonical import JSON
from model.monitor.language import policy as P

T = TypeVar("T")
BOOL = st.booleans()

# Names come from a pool that deliberately includes words that are keywords elsewhere in the grammar
# (memory, quota, in, allow...) so round trips exercise contextual lexing.
POLICY_NAMES: tuple[str, ...] = (
    "a", "b", "c", "x_1", "_y", "Read", "Send", "memory", "source", "sink", "quota", "in", "like", "when",
    "and", "allow", "deny", "inherit", "transform", "keys", "where", "requires", "permit", "unlimited",
    "trusted", "untrusted", "sensitivity", "category", "no", "scope", "lineage", "via", "producer", "args",
    "effects", "operation", "ceiling", "set", "trust", "after", "before",
)
policy_names = st.sampled_from(POLICY_NAMES)


def coin(draw: st.DrawFn) -> bool:
    # a named draw: inside `xs and draw(...)` mypy would type the draw by the list on the left
    return draw(BOOL)


@functools.cache
def below(n: int) -> st.SearchStrategy[int]:
    return st.integers(0, n - 1)


def pick(draw: st.DrawFn, pool: Sequence[T]) -> T:
    """``draw(st.sampled_from(pool))`` without building a strategy per draw."""
    return pool[draw(below(len(pool)))]


def maybe(draw: st.DrawFn, pool: Sequence[T]) -> T | None:
    return None if draw(BOOL) else pick(draw, pool)


@functools.cache
def between(lo: int, hi: int) -> st.SearchStrategy[int]:
    return st.integers(lo, hi)


def count(draw: st.DrawFn, lo: int, hi: int) -> int:
    """A length in ``[lo, hi]``, uniform (``draw(st.integers(lo, hi))`` with the strategy built once)."""
    return lo if lo == hi else draw(between(lo, hi))


def subset(draw: st.DrawFn, pool: Sequence[str], max_size: int = 3) -> frozenset[str]:
    """A subset of at most ``max_size`` members, drawn as a bit mask (shrinks towards the empty set)."""
    if not pool:
        return frozenset()
    ordered = sorted(pool)
    mask = draw(below(2 ** len(ordered)))
    return frozenset([x for i, x in enumerate(ordered) if mask >> i & 1][:max_size])


@functools.cache
def name_lists(min_size: int, max_size: int) -> st.SearchStrategy[list[str]]:
    return st.lists(policy_names, min_size=min_size, max_size=max_size, unique=True)


def unique_names(draw: st.DrawFn, min_size: int, max_size: int) -> list[str]:
    return draw(name_lists(min_size, max_size))


def policy_values(policy: P.Policy) -> list[JSON]:
    """A few fixed values and the constants the policy's lists mention (patterns and equality predicates)."""
    vals: list[JSON] = ["a", 0, 1, True]
    for e in (*policy.user, *policy.application):
        if isinstance(e.resource, P.ConstPat):
            vals.append(e.resource.value)
        for pred in e.where:
            if isinstance(pred, P.EqPred):
                vals.append(pred.value)
    return vals


def shuffled(draw: st.DrawFn, xs: list[T]) -> list[T]:
    """A uniform permutation of ``xs`` (Fisher–Yates)."""
    xs = list(xs)
    for i in range(len(xs) - 1, 0, -1):
        j = draw(below(i + 1))
        xs[i], xs[j] = xs[j], xs[i]
    return xs
