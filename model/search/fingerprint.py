"""Engine 1 with a compact visited set: 64-bit state fingerprints, TLC-style (our design for the missing
Section 8 of Agenra, for models whose visited set outgrows memory in ``explicit.py``'s exact mode).

The search is ``explicit.explore``'s breadth-first search — the same successors, in the same order, the
same sleep sets, the same first-edge-wins rule — with three stores changed:

- **visited**: a ``FingerprintSet`` of 64-bit fingerprints (Python's hash of the compact state, taken
  mod 2^64) in an open-addressing ``array('Q')`` kept at most three quarters full: 11 to 21 bytes per
  state.
  Two distinct states with one fingerprint would make the second look visited and cut it off; the
  result reports ``collision``, the probability of that under uniform hashing, ``n(n-1)/2^65`` for
  ``n`` states (the birthday bound TLC reports). Choice: Python's hash is not a cryptographic one; it
  mixes the element hashes of the tuple (SipHash for strings) and is what the exact mode's dict uses.
- **the frontier**: each state encoded as bytes of 32-bit ids into per-search intern tables of records
  and of the rest of the state (``Codec``); the last layer is never expanded, so never stored.
- **parent links**: per expanded layer two ``array('I')``: the parent's index in its layer and the id of
  the transition's position-wise key (``expand.Key``). A trace is rebuilt by replaying those keys from
  the initial state (successors without a sleep set: sleeping hides transitions, never changes one,
  and a key names one transition of a state), so traces are the exact mode's, transition for transition.

Counts, verdicts, shortest traces and completions equal the exact mode's when no collision occurred;
the differential test checks it on generated models. ``mode`` on the result says which store ran.
"""

from __future__ import annotations

import time
from array import array
from typing import Any

from model.budget import Budget, BudgetExhausted, Meter, Unknown
from model.search.compact import Compact, empty
from model.search.expand import Context, Key, counts, successors, transition
from model.search.explicit import (
    ExplicitRun,
    Link,
    Tick,
    _completions,
    _rebuild,
    answers,
    child_sleep_of,
    cut_short,
    holds,
)
from model.search.model import QueryKind, SearchModel

_MASK = (1 << 64) - 1
_STEPS = 100


def fingerprint(s: Compact) -> int:
    """A nonzero 64-bit fingerprint (0 marks an empty slot)."""
    return (hash(s) & _MASK) or 1


def collision_probability(n: int) -> float:
    return n * (n - 1) / 2.0 ** 65


class FingerprintSet:
    """A set of nonzero 64-bit integers: linear probing in an ``array('Q')``, doubled at three quarters
    full — 10.7 to 21.3 bytes per element, 32 while the old and the new table coexist during a doubling."""

    __slots__ = ("mask", "n", "slots")

    def __init__(self, capacity: int = 1 << 12) -> None:
        self.slots = array("Q", bytes(8 * capacity))
        self.mask = capacity - 1
        self.n = 0

    def add(self, fp: int) -> bool:
        """Insert ``fp``; False when it was there already."""
        slots, mask = self.slots, self.mask
        i = fp & mask
        while True:
            v = slots[i]
            if v == fp:
                return False
            if v == 0:
                slots[i] = fp
                self.n += 1
                if 4 * self.n > 3 * mask:  # at most three quarters full
                    self._grow()
                return True
            i = (i + 1) & mask

    def _grow(self) -> None:
        old = self.slots
        self.slots = array("Q", bytes(16 * len(old)))
        self.mask = 2 * len(old) - 1
        slots, mask = self.slots, self.mask
        for fp in old:
            if fp:
                i = fp & mask
                while slots[i]:
                    i = (i + 1) & mask
                slots[i] = fp

    def __len__(self) -> int:
        return self.n

    @property
    def nbytes(self) -> int:
        return self.slots.itemsize * len(self.slots)


class Codec:
    """Compact states as bytes of 32-bit ids: records and the rest of a state interned once per search."""

    __slots__ = ("rec_id", "recs", "rest_id", "rests")

    def __init__(self) -> None:
        self.rec_id: dict[Any, int] = {}
        self.recs: list[Any] = []
        self.rest_id: dict[Any, int] = {}
        self.rests: list[Any] = []

    def encode(self, s: Compact) -> bytes:
        rest = s[1:]
        # Python's ``==`` equates ``true``, ``1`` and ``1.0`` (and ``0``, ``-0.0``): binding values and permit
        # identities are interned with their ``repr`` too, so a decoded state holds the values it was given
        key = (rest, repr(s[1]), repr(s[6]))
        r = self.rest_id.get(key)
        if r is None:
            r = self.rest_id[key] = len(self.rests)
            self.rests.append(rest)
        ids = array("I", (r,))
        get, recs = self.rec_id.get, self.recs
        for rec in s[0]:
            i = get(rec)
            if i is None:
                i = self.rec_id[rec] = len(recs)
                recs.append(rec)
            ids.append(i)
        return ids.tobytes()

    def decode(self, b: bytes) -> Compact:
        ids = array("I")
        ids.frombytes(b)
        recs = self.recs
        return (tuple(recs[i] for i in ids[1:]), *self.rests[ids[0]])


_UNLIMITED = Budget()


def explore_fingerprint(model: SearchModel, bound: int | None = None, tick: Tick | None = None,
                        budget: Budget = _UNLIMITED, reduction: bool = True, meter: Meter | None = None
                        ) -> ExplicitRun:
    """``explicit.explore`` over fingerprints (module docstring); ``mode`` is ``"fingerprint"``."""
    k = model.bound if bound is None else bound
    ctx = Context(model, renaming=not model.policy.histories)
    indep = ctx.independence
    run = meter if meter is not None else budget.start()
    start, cpu = time.perf_counter(), time.process_time()
    root = empty(model.policy)
    seen = FingerprintSet()
    seen.add(fingerprint(root))
    codec = Codec()
    tkeys: dict[Key, int] = {}
    tkey_list: list[Key] = []
    back: list[array[int]] = []  # per stored layer d >= 1: parent's index in layer d-1
    via: list[array[int]] = []  # per stored layer d >= 1: id of the transition key from the parent
    nq = len(model.queries)
    found: dict[int, Any] = {}
    premise = [False] * nq
    goals = {i for i, q in enumerate(model.queries) if q.kind is QueryKind.GOAL}
    cones: dict[int, set[str]] = {i: set() for i in goals}
    complete: dict[int, set[Any]] = {i: set() for i in goals}
    frontier: list[bytes] = [codec.encode(root)]
    sleeps: list[dict[Key, int]] = [{}]
    transitions, depth = 0, 0
    exhausted: Unknown | None = None

    def path_to(layer: int, index: int, s: Compact) -> list[Link]:
        """The links from the initial state to the ``index``-th state of ``layer`` (replayed by key)."""
        keys: list[Key] = []
        for d in range(layer, 0, -1):
            keys.append(tkey_list[via[d - 1][index]])
            index = back[d - 1][index]
        out: list[Link] = []
        cur = root
        for want in reversed(keys):
            for tr, new, at, _fp, key in successors(ctx, cur, {}):
                if key == want:
                    out.append((cur, transition(tr), at))
                    cur = new
                    break
            else:  # pragma: no cover - a stored key names a transition of its parent
                raise AssertionError(f"no transition {want!r} to replay")
        assert cur == s, "the replayed path ends in the state expanded"
        return out

    try:
        for layer in range(k):
            last = layer == k - 1  # the last layer's states are counted, never stored or expanded
            reduce_here = reduction and not last
            nxt: list[bytes] = []
            nxt_sleep: list[dict[Key, int]] = []
            nback, nvia = array("I"), array("I")
            where: dict[int, int] = {}  # fingerprint -> index in nxt (for the sleep-set intersection)
            added = 0
            for n, code in enumerate(frontier):
                if tick is not None and n % 256 == 0:
                    tick(layer * _STEPS + _STEPS * n // len(frontier), k * _STEPS)
                s = codec.decode(code)
                sleep = sleeps[n] if reduction else {}
                have, have_premise = counts(s, nq)
                done: list[tuple[Key, int]] = []
                for tr, new, at, fpi, key in successors(ctx, s, sleep):
                    run.tick()
                    transitions += 1
                    for i in holds(model, new, at, have, have_premise, premise):
                        if i not in found:
                            found[i] = _rebuild([*path_to(layer, n, s), (s, transition(tr), at)])
                        if i in cones:
                            _completions(ctx, s, transition(tr), i, cones[i], complete[i])
                    fp = fingerprint(new)
                    fresh = seen.add(fp)
                    added += fresh
                    if reduce_here:
                        if fresh or fp in where:
                            child_sleep = child_sleep_of(indep, sleep, done, fpi, at)
                            if fresh:
                                where[fp] = len(nxt_sleep)
                                nxt_sleep.append(child_sleep)
                            else:
                                j = where[fp]
                                if nxt_sleep[j]:
                                    nxt_sleep[j] = {u: f for u, f in nxt_sleep[j].items() if u in child_sleep}
                        if not indep.prints[fpi][0]:
                            done.append((key, fpi))
                    if fresh and not last:
                        t = tkeys.get(key)
                        if t is None:
                            t = tkeys[key] = len(tkey_list)
                            tkey_list.append(key)
                        nxt.append(codec.encode(new))
                        nback.append(n)
                        nvia.append(t)
                        if not reduce_here:
                            nxt_sleep.append({})
            if not added:
                break
            depth = layer + 1
            back.append(nback)
            via.append(nvia)
            frontier, sleeps = nxt, nxt_sleep
            if tick is not None:
                tick((layer + 1) * _STEPS, k * _STEPS)
    except BudgetExhausted as exc:
        exhausted = cut_short(run, exc, len(seen), transitions, depth, k)
    except KeyboardInterrupt:
        exhausted = cut_short(run, None, len(seen), transitions, depth, k)
    verdicts, comps = answers(model, k, found, premise, complete, len(seen), exhausted)
    return ExplicitRun(k, verdicts, comps, len(seen), transitions, depth, time.perf_counter() - start,
                       exhausted, reduction, time.process_time() - cpu, "fingerprint",
                       collision_probability(len(seen)))
