"""The rounds ``B̂₀ ⊋ B̂₁ ⊋ …`` and the rejection proof, read off the symbolic product's states
(*Exact Checking for Execution Edits*, Sections V-C1, V-C3; Appendix A-B).

``model.edits.check.symbolic_engine`` shows ``B̂_i`` = the candidates whose path stays in ``G_i``, where ``G_{i+1}``
drops the states ``bad_i`` that leave some compatible outcome without a path inside ``G_i`` to its
completion. Here:

- ``ranks``: the round in which each state leaves (``None``: never), and the outcomes it misses
  then. Round 0 is one reverse-topological pass computing, per state, the outcomes it can still
  complete (``reach``); each later round recomputes ``reach`` only for live ancestors of the states
  just removed, level by level (``|S|`` descending, so successors first), and a state whose
  ``reach`` shrinks is bad in the next round (every live state had ``reach = K``). On a product of
  at most ``SMALL`` states a later round is a plain pass over the live states below the highest
  removed one instead: the same sets, without predecessor lists and work queues, whose set-up cost
  more than it saved on tiny checks.
- ``round_sizes``: ``|B̂_i|`` without enumerating words — paths are counted per minimum rank.
- ``proof_from_ranks``: ``C_fp = (B̂₀, E₀, …, E_k)`` word by word. Each outcome's paths are
  enumerated depth-first in call order (which is the canonical candidate order), only through
  states that can still complete that outcome; a candidate goes to round ``m`` = the least rank on
  its path, with the shortest prefix whose state has rank ``m`` and the least outcome missing there —
  the explicit engine's canonical witness, so both engines return equal proofs. The proof is as
  large as ``B̂₀``; the only limit is the caller's budget (one tick per letter).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain
from typing import NamedTuple

from model.base.budget import Meter
from model.edits.check.answer import RejectionProof, Removal, make_proof, make_removal
from model.edits.check.contract import Outcome
from model.edits.check.outcome_bits import bits
from model.edits.check.resolve import Letter, Word

# Products up to this many states take their later rounds by whole passes (``ranks``).
SMALL = 64
# Proofs over products of at most this many calls are walked recursively (``proof_from_ranks``).
RECURSE = 200


class Product(NamedTuple):
    """The product of one check, internal to the engine: a named tuple, which is immutable like a
    frozen dataclass but costs one allocation to build (small checks pay per object)."""

    outcomes: tuple[Outcome, ...]
    compat: list[int]  # K per state (outcome bitmask)
    done: list[int]  # outcomes completed at the state
    succ: list[Sequence[tuple[Letter, int]]]  # in call order (a leaf's is the shared empty tuple)
    levels: list[list[int]]  # states by |S|


_tuple_new = tuple.__new__


def make_product(outcomes: tuple[Outcome, ...], compat: list[int], done: list[int],
                 succ: list[Sequence[tuple[Letter, int]]], levels: list[list[int]]) -> Product:
    """``Product(…)`` without the named tuple's Python-level ``__new__``: the same value, built once per check."""
    return _tuple_new(Product, (outcomes, compat, done, succ, levels))


def ranks(p: Product, small: int = SMALL) -> tuple[list[int | None], dict[int, int], list[int]]:
    """``(rank, missing, reach₀)``: removal round per state, outcomes missing when removed, and
    the outcomes each state can complete inside ``G₀``. Rounds after the first are found by whole
    passes over the live states when the product has at most ``small`` states, else incrementally
    (the same sets either way; tests compare the two)."""
    done, succ, compat, levels = p.done, p.succ, p.compat, p.levels
    n = len(compat)
    reach = [0] * n
    bad: list[int] = []
    hi = -1  # the highest level with a bad state
    for lv in range(len(levels) - 1, -1, -1):
        for i in levels[lv]:
            r = done[i]
            for _, j in succ[i]:
                r |= reach[j]
            reach[i] = r
            if r != compat[i]:
                bad.append(i)
                if hi < 0:
                    hi = lv
    rank: list[int | None] = [None] * n
    if not bad:
        return rank, {}, reach
    reach0 = list(reach)
    missing: dict[int, int] = {}
    if n <= small:
        _rounds_by_passes(p, reach, bad, hi, rank, missing)
        return rank, missing, reach0
    level_of = [0] * n
    for lv, states in enumerate(levels):
        for i in states:
            level_of[i] = lv
    preds: list[list[int]] = [[] for _ in range(n)]
    for i, out in enumerate(succ):
        for _, j in out:
            preds[j].append(i)
    live = [True] * n
    rnd = 0
    while bad:
        pending: dict[int, set[int]] = {}
        for i in bad:
            rank[i] = rnd
            missing[i] = compat[i] & ~reach[i]
            live[i] = False
        for i in bad:
            for a in preds[i]:
                if live[a]:
                    pending.setdefault(level_of[a], set()).add(a)
        nxt: list[int] = []
        for lv in range(max(pending, default=-1), -1, -1):
            for a in pending.pop(lv, ()):
                r = done[a]
                for _, j in succ[a]:
                    if live[j]:
                        r |= reach[j]
                if r != reach[a]:
                    reach[a] = r
                    nxt.append(a)
                    for b in preds[a]:
                        if live[b]:
                            pending.setdefault(lv - 1, set()).add(b)
        bad = nxt
        rnd += 1
    return rank, missing, reach0


def _rounds_by_passes(p: Product, reach: list[int], bad: list[int], hi: int, rank: list[int | None],
                      missing: dict[int, int]) -> None:
    """The rounds from ``bad₀`` (highest level ``hi``) on, each a reverse-topological pass recomputing
    ``reach`` inside the live states below the highest removed one (only an ancestor of a removed
    state can lose an outcome, and every move goes one level up): no predecessor lists or per-level
    work queues to build, which on a tiny product cost more than the passes they save."""
    done, succ, compat, levels = p.done, p.succ, p.compat, p.levels
    live = [True] * len(compat)
    rnd = 0
    while bad:
        for i in bad:
            rank[i] = rnd
            missing[i] = compat[i] & ~reach[i]
            live[i] = False
        bad = []
        top, hi = hi, -1
        for lv in range(top - 1, -1, -1):
            for i in levels[lv]:
                if live[i]:
                    r = done[i]
                    for _, j in succ[i]:
                        if live[j]:
                            r |= reach[j]
                    if r != reach[i]:  # live states had reach = K: it only shrinks
                        reach[i] = r
                        bad.append(i)
                        if hi < 0:
                            hi = lv
        rnd += 1


def round_sizes(p: Product, rank: list[int | None], n_b0: int) -> tuple[int, ...]:
    """``(|B̂₀|, |B̂₁|, …, |B̂_k|)`` up to the first round that removes no candidate."""
    if all(r is None for r in rank):
        return (n_b0,)
    inf = len(rank) + 1
    rk = [inf if r is None else r for r in rank]
    ways: list[dict[int, int]] = [{} for _ in rank]
    ways[0][rk[0]] = 1
    removed: dict[int, int] = {}
    for level in p.levels:
        for i in level:
            wi = ways[i]
            if not wi:
                continue
            d = p.done[i].bit_count()
            if d:
                for m, c in wi.items():
                    removed[m] = removed.get(m, 0) + c * d
            for _, j in p.succ[i]:
                wj, rj = ways[j], rk[j]
                for m, c in wi.items():
                    m2 = m if m < rj else rj
                    wj[m2] = wj.get(m2, 0) + c
            ways[i] = {}  # every edge leaves a lower level: nothing reads it again
    sizes = [n_b0]
    rnd = 0
    while removed.get(rnd, 0):
        sizes.append(sizes[-1] - removed[rnd])
        rnd += 1
    return tuple(sizes)


def proof_from_ranks(p: Product, rank: list[int | None], missing: dict[int, int], reach0: list[int],
                     meter: Meter, recurse: int = RECURSE) -> RejectionProof:
    """The proof by one depth-first pass, recursive when a word has at most ``recurse`` letters (a
    product over that many calls: the recursion stays far below Python's limit), else with an
    explicit stack; the same visit order either way (tests compare the two)."""
    outs, done, succ = p.outcomes, p.done, p.succ
    # One depth-first pass in call order (lexicographic), only through states that can still complete
    # something; candidates go to their outcome's bucket, so each bucket is in canonical word order and
    # the buckets are concatenated in outcome order (the canonical candidate order).
    cands: list[list[tuple[Outcome, Word]]] = [[] for _ in outs]
    rounds: dict[int, list[list[Removal]]] = {}
    word: list[Letter] = []
    # Budget: one tick per letter of each emitted word. While the meter's ``room`` says they would only
    # count, they are counted here and handed over in one ``tick(n)`` by the first emit that may do more
    # (as the product hands over its states): the meter raises or reads the clock at the same candidate
    # as with one call per candidate.
    owed = 0
    free = meter.room()

    def emit(d: int, m: int, k: int, sk: int) -> None:
        """The candidates ending at the current word (outcomes ``d``): removed in round ``m`` (the least
        rank on the path), witnessed by the shortest prefix (length ``k``) whose state ``sk`` has that
        rank and the least outcome missing there."""
        nonlocal owed, free
        owed += len(word)
        if owed > free:
            meter.tick(owed)
            owed = 0
            free = meter.room()
        y = tuple(word)
        miss = missing[sk]
        missed = outs[(miss & -miss).bit_length() - 1]
        prefix = y[:k]
        buckets = rounds.get(m)
        if buckets is None:
            buckets = rounds[m] = [[] for _ in outs]
        for oi in bits(d):
            o = outs[oi]
            cands[oi].append((o, y))
            buckets[oi].append(make_removal(o, y, prefix, missed))

    def walk(moves: Sequence[tuple[Letter, int]], lr: int, ld: int, ls: int) -> None:
        """Below the current word, whose path has least rank ``lr``, first at depth ``ld`` in state ``ls``."""
        for a, j in moves:
            if reach0[j]:
                word.append(a)
                r = rank[j]
                if r is not None and r < lr:
                    jr, jd, js = r, len(word), j
                else:
                    jr, jd, js = lr, ld, ls
                d = done[j]
                if d:
                    emit(d, jr, jd, js)
                nxt = succ[j]
                if nxt:
                    walk(nxt, jr, jd, js)
                word.pop()

    r0 = rank[0]
    # ε is no candidate here: the initial state is removed, and if ε completed an outcome, every
    # outcome would be empty (the prefix condition) and the initial state would complete all of them.
    assert r0 is not None and not done[0], "a rejection with a removed initial state that completes nothing"
    if len(p.levels) - 1 <= recurse:
        walk(succ[0], r0, 0, 0)
    else:
        # Stack entries: (state, the letter into it, its depth, and on the path to it the least rank,
        # the first depth with that rank and its state). Children are pushed in reverse call order, so
        # they are visited in call order; the word is cut back to the entry's depth when it is popped.
        stack = [(i, b, 1, (r0, 0, 0)) for b, i in reversed(succ[0]) if reach0[i]]
        while stack:
            j, a, depth, least = stack.pop()
            del word[depth - 1:]
            word.append(a)
            r = rank[j]
            if r is not None and r < least[0]:
                least = (r, depth, j)
            d = done[j]
            if d:
                emit(d, *least)
            nxt = succ[j]
            if nxt:
                depth += 1
                for b, i in reversed(nxt):
                    if reach0[i]:
                        stack.append((i, b, depth, least))
    if owed:
        meter.tick(owed)
    n = len(rounds)
    assert max(rounds, default=-1) == n - 1, "rounds without removals in the middle"  # distinct keys ≥ 0
    return make_proof(tuple(chain.from_iterable(cands)),
                      tuple([tuple(chain.from_iterable(rounds[i])) for i in range(n)]))
