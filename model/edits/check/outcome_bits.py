"""Bit-indexed form of a contract's outcomes, for state-based exploration (Section IV-A).

A partial execution ``z`` (a raw call sequence) is compatible with outcome ``o`` exactly when it is
a prefix of a linearization of ``p_o``: every call of ``z`` is in ``p_o``, and each call's
predecessors in ``p_o`` came earlier in ``z``. That test is incremental, so the pair
``(S, K)`` — the set of calls already executed and the set of outcomes still compatible — is all
that the future of ``z`` depends on (for raw calls; the product automaton adds the policy state).
Calls and outcomes are numbered in canonical (sorted) order and sets are Python ``int`` bitmasks.

The steps are kept by call (``by_call``: for each call, its predecessor masks with the outcomes
having them), the form the symbolic product reads, which finds a state's enabled calls in call order
without sorting; the per-outcome form the prefix search reads (``steps()``) is derived on demand,
in the same order as the pomsets list their calls (sorted by call ID, ``Pomset``'s invariant).
"""

from __future__ import annotations

import functools
from typing import NamedTuple

from model.edits.check.contract import CallId, Family, Outcome, Pomset, Term, outcomes


class Compiled(NamedTuple):
    """A named tuple rather than a frozen dataclass: equally immutable, and built in one allocation
    (compiled once per check; on tiny checks every object counts)."""

    calls: tuple[CallId, ...]
    outcomes: tuple[Outcome, ...]
    masks: tuple[int, ...]  # X_{p_o} as a call bitmask
    # Per call: (predecessor mask, the outcomes holding the call with exactly those predecessors);
    # the product visits enabled calls in call order with it.
    by_call: tuple[tuple[tuple[int, int], ...], ...]
    by_size: dict[int, int]  # |X_{p_o}| -> the outcomes of that size (bitmask)

    @property
    def all_outcomes(self) -> int:
        return (1 << len(self.outcomes)) - 1

    def steps(self) -> list[list[tuple[int, int]]]:
        """Per outcome, its calls in call order with their predecessor masks: ``[(c, pm), …]`` (read off
        ``by_call``, whose outcome masks it inverts; only the prefix search needs this form)."""
        out: list[list[tuple[int, int]]] = [[] for _ in self.outcomes]
        for c, groups in enumerate(self.by_call):
            for pm, om in groups:
                for o in bits(om):
                    out[o].append((c, pm))
        return out

    @staticmethod
    def successors(steps: list[list[tuple[int, int]]], s: int, k: int) -> dict[int, int]:
        """Enabled calls from ``(S, K)`` with the compatible outcomes after each: ``{c: K'}``, given
        ``steps()`` (in outcome order, then call order: the prefix search's visit order)."""
        out: dict[int, int] = {}
        for o in bits(k):
            for c, pm in steps[o]:
                if not (s >> c) & 1 and pm & s == pm:
                    out[c] = out.get(c, 0) | (1 << o)
        return out

    def done(self, s: int, k: int) -> int:
        """Outcomes in ``K`` completed at ``S`` (``S = X_{p_o}``; ``S ⊆ X_{p_o}`` holds for o ∈ K, so
        the outcomes of ``K`` with ``|X_{p_o}| = |S|``)."""
        return k & self.by_size.get(s.bit_count(), 0)


_tuple_new = tuple.__new__


def compile_outcomes(outs: dict[Outcome, Pomset]) -> Compiled:
    return _compile(tuple(outs), [p.preds for p in outs.values()])


def compile_contract(term: Term) -> Compiled:
    """``compile_outcomes(outcomes(term))``; a family is compiled from its members directly, without
    the outcome map (whose cache key hashes every pomset of a fresh term: most of a small check's
    set-up)."""
    if isinstance(term, Family):
        group, members = term.group, term.members
        olist: list[Outcome] = []
        pomsets = []
        prev = None
        for n, p in members:  # usually already sorted by name, without repeats: then no re-sorting
            if prev is not None and not prev < n:
                by_name = dict(sorted(members, key=lambda m: m[0]))  # as ``outcomes``: by name, last of a repeat
                return _compile(tuple(((group, n),) for n in by_name), [p.preds for p in by_name.values()])
            olist.append(((group, n),))
            pomsets.append(p.preds)
            prev = n
        return _compile(tuple(olist), pomsets)
    return compile_outcomes(outcomes(term))


def _compile(olist: tuple[Outcome, ...], pomsets: list[tuple[tuple[CallId, frozenset[CallId]], ...]]) -> Compiled:
    # Plain loops, not generator sums: this runs once per check and dominates tiny ones.
    seen: set[CallId] = set()
    for preds in pomsets:
        for c, _ in preds:
            seen.add(c)
    calls = tuple(sorted(seen))
    idx = {c: i for i, c in enumerate(calls)}
    masks = []
    groups: list[dict[int, int]] = [{} for _ in calls]
    by_size: dict[int, int] = {}
    for i, preds in enumerate(pomsets):
        mask = 0
        ob = 1 << i
        for c, pr in preds:
            ci = idx[c]
            mask |= 1 << ci
            pm = 0
            for d in pr:
                pm |= 1 << idx[d]
            g = groups[ci]
            g[pm] = g.get(pm, 0) | ob
        masks.append(mask)
        n = len(preds)
        by_size[n] = by_size.get(n, 0) | ob
    # tuple.__new__, not the named tuple's Python-level __new__: the same value, one call less per check
    return _tuple_new(Compiled, (calls, olist, tuple(masks), tuple([tuple(g.items()) for g in groups]), by_size))


@functools.lru_cache(maxsize=4096)
def bits(mask: int) -> tuple[int, ...]:
    """Indices of the set bits, ascending (cached: the same outcome sets recur at many states)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return tuple(out)
