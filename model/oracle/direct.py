"""Drawing DRT cases directly from a seeded ``random.Random``, without hypothesis's engine.

The DRT's cases are defined once, by the project's hypothesis strategies (model/oracle/generators.py).
Hypothesis records every choice, tracks spans and checks health for each example, which makes
generation the bottleneck of a long campaign; shrinking, its reason, matters only when a test fails,
and tests/drt keeps it. Here the same strategy objects are drawn by a small sampler instead: every
``@st.composite`` body runs unchanged (with this module's ``draw``), and only the primitive strategies
(integers, floats, text, sampled values, lists, unique lists, tuples, one-of, maps, flat-maps,
filters, builds, permutations) are interpreted. So a case has exactly the shapes the strategies
allow: the same constructors, bounds, sizes and pools. A strategy of another kind is refused
(``TypeError`` naming it), never approximated.

Choices where hypothesis's distribution is not specified (it is tuned for shrinking, and changes
between versions):
- a list's length: at least ``min_size``, then one more element while a coin with continuation
  probability ``1 - 1/(1 + average_size - min_size)`` comes up, up to ``max_size`` (``average_size``
  as hypothesis computes it for the strategy); a unique list gives up on an element after 10
  duplicate draws in a row;
- integers: uniform on a range of at most 256 values; on a wider (or open) range, one draw in five is
  a "small" value (an endpoint, 0, or within 16 of 0 or of an endpoint), the rest uniform (open
  ends: a random magnitude up to 2**64);
- floats: one draw in three from the range's notable values (its endpoints, 0.0, -0.0, ±0.5, ±1.0,
  ±1.5, a whole number), the rest uniform over the range;
- characters: half printable ASCII (where the alphabet has it), half any code point of the alphabet;
- one-of: uniform over its branches as written (``a | b | c`` is two nested choices); sampled
  values: uniform.

A case is drawn from ``case_random(seed, judgment, index)``: each case has its own generator, so case
``index`` of a campaign is drawn again, alone, from ``(seed, judgment, index)`` (the replay of a
mismatch).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any

from hypothesis.strategies._internal import collections as _coll
from hypothesis.strategies._internal import core as _core
from hypothesis.strategies._internal import flatmapped as _flat
from hypothesis.strategies._internal import lazy as _lazy
from hypothesis.strategies._internal import misc as _misc
from hypothesis.strategies._internal import numbers as _num
from hypothesis.strategies._internal import strategies as _strat
from hypothesis.strategies._internal import strings as _str

Sampler = Callable[[random.Random], Any]
_CACHE_LIMIT = 20000  # compiled strategies kept (composite bodies build a few new ones per draw)
_UNIQUE_TRIES = 10
_PRINTABLE = [chr(c) for c in range(0x20, 0x7F)]


def case_random(seed: int, judgment: str, index: int) -> random.Random:
    """The generator of case ``index`` of ``judgment``'s campaign with ``seed`` (string seeding hashes the
    whole text, so neighbouring indices give unrelated streams)."""
    return random.Random(f"agentwarrant-drt/{seed}/{judgment}/{index}")


class _Draw:
    """``draw(strategy)`` for composite bodies, on one ``random.Random``."""

    __slots__ = ("rng",)

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def __call__(self, strategy: Any, label: object = None) -> Any:
        return sampler(strategy)(self.rng)


_compiled: dict[int, tuple[Any, Sampler]] = {}


def sampler(strategy: Any) -> Sampler:
    """The sampling function of a hypothesis strategy (compiled once per strategy object)."""
    hit = _compiled.get(id(strategy))
    if hit is not None and hit[0] is strategy:
        return hit[1]
    fn = _compile(strategy)
    if len(_compiled) >= _CACHE_LIMIT:
        _compiled.clear()
    _compiled[id(strategy)] = (strategy, fn)  # (the strategy is kept alive, so its id is not reused)
    return fn


def draw(strategy: Any, rng: random.Random) -> Any:
    """One value of ``strategy``."""
    return sampler(strategy)(rng)


def _length(rng: random.Random, lo: int, hi: float, average: float) -> int:
    n = lo
    more = 1.0 - 1.0 / (1.0 + max(average - lo, 0.0)) if hi > lo else 0.0
    while n < hi and rng.random() < more:
        n += 1
    return n


def _int_sampler(lo: int | None, hi: int | None) -> Sampler:
    if lo is not None and hi is not None and hi - lo < 256:
        return lambda r: r.randint(lo, hi)
    notable: list[int] = sorted({v for v in (lo, hi, 0, *range(-16, 17),
                                  *((lo + k for k in range(17)) if lo is not None else ()),
                                  *((hi - k for k in range(17)) if hi is not None else ()))
                      if (lo is None or v >= lo) and (hi is None or v <= hi)})

    def wide(r: random.Random) -> int:
        if r.random() < 0.2:
            return r.choice(notable)
        if lo is not None and hi is not None:
            return r.randint(lo, hi)
        span = 2 ** r.randint(0, 64)
        if lo is not None:
            return lo + r.randrange(span)
        if hi is not None:
            return hi - r.randrange(span)
        return r.randrange(-span, span)
    return wide


def _float_sampler(s: Any) -> Sampler:
    lo, hi = float(s.min_value), float(s.max_value)
    bounded = math.isfinite(lo) and math.isfinite(hi)
    cands = [lo, hi, 0.0, -0.0, 0.5, -0.5, 1.0, -1.0, 1.5, -1.5, 2.0, 100.0, -100.0]
    notable = [v for v in cands if lo <= v <= hi and math.isfinite(v)]
    if getattr(s, "allow_nan", False):
        notable.append(math.nan)

    def f(r: random.Random) -> float:
        if notable and (r.random() < 1 / 3 or not bounded):
            if not bounded and r.random() < 0.5:
                v = float(r.randint(-(2**53), 2**53)) * 2.0 ** r.randint(-60, 60)
                return v if lo <= v <= hi else r.choice(notable)
            return r.choice(notable)
        v = r.uniform(lo, hi)
        return min(max(v, lo), hi)
    return f


def _char_sampler(s: Any) -> Sampler:
    intervals = s.intervals
    size = len(intervals)
    ascii_ok = [c for c in _PRINTABLE if ord(c) in intervals]

    def f(r: random.Random) -> str:
        if ascii_ok and r.random() < 0.5:
            return r.choice(ascii_ok)
        return chr(intervals[r.randrange(size)])
    return f


def _seq_sampler(elem: Sampler, lo: int, hi: float, average: float, keys: tuple[Callable[[Any], Any], ...] | None,
                 join: Callable[[list[Any]], Any] | None = None, suffix: Sampler | None = None) -> Sampler:
    """Lists (text when ``join``); with ``keys``, unique by each key of the element (with ``suffix``, the
    key part only: the element is ``(key part, *suffix)``, as hypothesis's dictionaries draw them)."""
    def f(r: random.Random) -> Any:
        n = _length(r, lo, hi, average)
        out: list[Any] = []
        if keys is None:
            out = [elem(r) for _ in range(n)]
        else:
            seen: list[set[Any]] = [set() for _ in keys]
            misses = 0
            while len(out) < n and misses < _UNIQUE_TRIES:
                x = elem(r)
                ks = [k(x) for k in keys]
                if any(k in s for k, s in zip(ks, seen, strict=True)):
                    misses += 1
                    continue
                misses = 0
                for k, s in zip(ks, seen, strict=True):
                    s.add(k)
                out.append(x if suffix is None else (x, *suffix(r)))
        return join(out) if join is not None else out
    return f


def _sampled(s: Any) -> Sampler:
    elements = tuple(s.elements)
    steps = tuple(getattr(s, "_transformations", ()))
    if not steps:
        return lambda r: r.choice(elements)

    def f(r: random.Random) -> Any:
        for _ in range(1000):
            x, ok = r.choice(elements), True
            for step in steps:
                method, fn = step[0], step[1]
                if method == "map":
                    x = fn(x)
                elif fn(x):
                    continue
                else:
                    ok = False
                    break
            if ok:
                return x
        raise ValueError(f"{s!r}: no value passed its filter in 1000 draws")
    return f


def _unwrap(s: Any) -> Any:
    """A lazy strategy's strategy. Choice: its function called on its arguments as given, then its
    transformations, rather than ``wrapped_strategy``, which first unwraps every strategy among the
    arguments and then calls the function a second time (most of the cost of a composite body's
    ``draw(st.lists(...))``); falls back to ``wrapped_strategy`` where the attributes differ."""
    while isinstance(s, _lazy.LazyStrategy):
        args, kwargs = getattr(s, "_LazyStrategy__args", None), getattr(s, "_LazyStrategy__kwargs", None)
        if args is None or kwargs is None:
            s = s.wrapped_strategy
            continue
        base = s.function(*args, **kwargs)
        for step in s._transformations:
            base = getattr(base, step[0])(step[1])
        s = base
    return s


def _compile(s: Any) -> Sampler:
    s = _unwrap(s)
    if isinstance(s, _core.CompositeStrategy):
        definition, args, kwargs = s.definition, s.args, s.kwargs
        return lambda r: definition(_Draw(r), *args, **kwargs)
    if isinstance(s, _strat.SampledFromStrategy):  # (just and none are sampled from one value)
        return _sampled(s)
    if isinstance(s, _misc.BooleansStrategy):
        return lambda r: r.random() < 0.5
    if isinstance(s, _num.IntegersStrategy):
        return _int_sampler(s.start, s.end)
    if isinstance(s, _num.FloatStrategy):
        return _float_sampler(s)
    if isinstance(s, _strat.OneOfStrategy):
        # (its branches as written: hypothesis's flattened view builds new mapped branches every time)
        branches = [sampler(b) for b in s.original_strategies]
        return lambda r: r.choice(branches)(r)
    if isinstance(s, _strat.MappedStrategy):
        inner, pack = sampler(s.mapped_strategy), s.pack
        return lambda r: pack(inner(r))
    if isinstance(s, _flat.FlatMapStrategy):
        base, expand = sampler(s.base), s.expand
        return lambda r: sampler(expand(base(r)))(r)
    if isinstance(s, _strat.FilteredStrategy):
        inner, conditions = sampler(s.filtered_strategy), tuple(s.flat_conditions)

        def filtered(r: random.Random) -> Any:
            for _ in range(1000):
                x = inner(r)
                if all(c(x) for c in conditions):
                    return x
            raise ValueError(f"{s!r}: no value passed its filter in 1000 draws")
        return filtered
    if isinstance(s, _coll.TupleStrategy):
        parts = [sampler(e) for e in s.element_strategies]
        return lambda r: tuple(p(r) for p in parts)
    if isinstance(s, _str.TextStrategy):
        return _seq_sampler(_char_sampler(_unlazy(s.element_strategy)), s.min_size, s.max_size, s.average_size,
                            None, "".join)
    if isinstance(s, _str.OneCharStringStrategy):
        return _char_sampler(s)
    if isinstance(s, _coll.ListStrategy):  # (unique lists are list strategies with key functions)
        keys, suffix = getattr(s, "keys", None), getattr(s, "tuple_suffixes", None)
        return _seq_sampler(sampler(s.element_strategy), s.min_size, s.max_size, s.average_size,
                            tuple(keys) if keys is not None else None, None,
                            sampler(suffix) if suffix is not None else None)
    if isinstance(s, _core.PermutationStrategy):
        values = list(s.values)
        return lambda r: r.sample(values, len(values))
    if isinstance(s, _core.BuildsStrategy):
        target, args = s.target, [sampler(a) for a in s.args]
        kwargs = {k: sampler(v) for k, v in s.kwargs.items()}
        return lambda r: target(*(a(r) for a in args), **{k: v(r) for k, v in kwargs.items()})
    raise TypeError(f"the direct sampler does not draw {type(s).__name__} ({s!r})")


def _unlazy(s: Any) -> Any:
    s = _unwrap(s)
    if not isinstance(s, _str.OneCharStringStrategy):
        raise TypeError(f"the direct sampler draws text from characters() alphabets only, not {s!r}")
    return s


__all__ = ["case_random", "draw", "sampler"]
