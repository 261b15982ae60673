"""Engine 1 with a compact visited set: 64-bit state fingerprints, TLC-style (our design for the missing
Section 8 of Agenra, for models whose visited set outgrows memory in ``explicit.py``'s exact mode).

The search is ``layered.layered`` — the loop the exact mode runs: the same successors, in the same order,
the same sleep sets, the same first-parent-wins rule — over a ``FingerprintStore``, which keeps per
state a few machine words in flat arrays and no Python object:

- **visited**: a ``FingerprintSet``, open addressing with linear probing over two parallel arrays: the
  64-bit fingerprint (Python's hash of the compact state, taken mod 2^64) and a 32-bit index (the
  state's number in the order states were stored, which finds a state again in the layer being built),
  kept at most three quarters full: 16 to 32 bytes per state, 48 at the instant of a doubling. The
  last layer is never expanded, so while it is built the indices are dropped: 11 to 21 bytes per
  state, 32 at a doubling.
  Two distinct states with one fingerprint would make the second look visited and cut it off; the
  result reports ``collision``, the probability of that under uniform hashing, ``n(n-1)/2^65`` for ``n``
  states (the birthday bound TLC reports). Choice: Python's hash is not a cryptographic one; it mixes
  the element hashes of the tuple (SipHash for strings) and is what the exact mode's dict uses.
- **the frontiers**: each state as 32-bit ids into per-search intern tables of records and of the rest
  of the state (``Codec``), all states of a layer in one ``array('I')`` with one length byte each; the
  last layer is never expanded, so never stored.
- **sleep sets**: interned per layer (most are empty or repeat); a 32-bit id per frontier state. A state
  reached again in the layer being built is found by its index in the visited set (index minus the
  layer's first index), so the intersection of its sleep sets needs no map of its own.
- **the decision memo** of ``held.Context`` (a cache of the monitor's verdicts and of admitted
  transitions, which otherwise grows with the states) is emptied whenever it passes ``MEMO_LIMIT``
  entries.
- **parent links**: per stored layer two ``array('I')``: the parent's index in its layer and the id of
  the transition's position-wise key (``expand.Key``). A trace is rebuilt by replaying those keys from
  the initial state (successors without a sleep set: sleeping hides transitions, never changes one,
  and a key names one transition of a state), so traces are the exact mode's, transition for transition.

Counts, verdicts, shortest traces and completions equal the exact mode's when no collision occurred;
the differential test checks it on generated models. ``mode`` on the result says which store ran.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator
from typing import Any

from model.base.budget import Budget, Meter
from model.search.compact import Compact, empty
from model.search.expand import Context, Key, Raw, successors, transition
from model.search.fpset import NONE, FingerprintSet, collision_probability, fingerprint
from model.search.layered import EMPTY, ExplicitRun, Link, Sleep, Tick, child_sleep_of, layered
from model.search.model import SearchModel

# Entries of the decision memo (``held.Context``: refusals and admitted transitions, a few hundred bytes
# each) kept before it is emptied: a cache bounded by a constant, so memory per state stays that of the
# stores above on large models (a few MiB; the exact mode keeps its memo whole)
MEMO_LIMIT = 1 << 14


def replay(ctx: Context, root: Compact, keys: list[Key]) -> tuple[list[Link], Compact]:
    """The links that the transition keys ``keys`` take from ``root``, and the state they end in: how a
    store that keeps keys, not states (here and on Dask), rebuilds a trace."""
    out: list[Link] = []
    cur = root
    for want in keys:
        for tr, new, at, _fp, key in successors(ctx, cur, {}):
            if key == want:
                out.append((cur, transition(tr), at))
                cur = new
                break
        else:  # pragma: no cover - a stored key names a transition of its parent
            raise AssertionError(f"no transition {want!r} to replay")
    return out, cur

class Codec:
    """Compact states as 32-bit ids: records and the rest of a state interned once per search."""

    __slots__ = ("rec_id", "recs", "rest_id", "rests")

    def __init__(self) -> None:
        self.rec_id: dict[Any, int] = {}
        self.recs: list[Any] = []
        self.rest_id: dict[Any, int] = {}
        self.rests: list[Any] = []

    def ids(self, s: Compact, out: array[int]) -> int:
        """Append the ids of ``s`` to ``out`` (the rest first, then one per record); their number."""
        rest = s[1:]
        # Python's ``==`` equates ``true``, ``1`` and ``1.0`` (and ``0``, ``-0.0``): binding values and permit
        # identities are interned with their ``repr`` too, so a decoded state holds the values it was given
        key = (rest, repr(s[1]), repr(s[6]))
        r = self.rest_id.get(key)
        if r is None:
            r = self.rest_id[key] = len(self.rests)
            self.rests.append(rest)
        out.append(r)
        get, recs = self.rec_id.get, self.recs
        for rec in s[0]:
            i = get(rec)
            if i is None:
                i = self.rec_id[rec] = len(recs)
                recs.append(rec)
            out.append(i)
        return 1 + len(s[0])

    def state(self, ids: array[int], at: int, n: int) -> Compact:
        """The state whose ``n`` ids start at ``ids[at]``."""
        recs = self.recs
        return (tuple(recs[i] for i in ids[at + 1:at + n]), *self.rests[ids[at]])

    def encode(self, s: Compact) -> bytes:
        out = array("I")
        self.ids(s, out)
        return out.tobytes()

    def decode(self, b: bytes) -> Compact:
        ids = array("I")
        ids.frombytes(b)
        return self.state(ids, 0, len(ids))


class FingerprintStore:
    """The visited set, frontiers, sleep sets and parent links of the module docstring."""

    mode = "fingerprint"

    def __init__(self, ctx: Context, root: Compact, memo_limit: int = MEMO_LIMIT) -> None:
        self.ctx, self.root, self.indep = ctx, root, ctx.independence
        self.memo_limit = memo_limit
        self.seen = FingerprintSet()
        self.seen.put(fingerprint(root), 0)
        self.codec = Codec()
        self.stored = 1  # states given an index: every layer's but the last one's
        self.lo = 1  # index of the first state of the layer being built
        self.last = False
        self.added = 0
        self.tkeys: dict[Key, int] = {}
        self.tkey_list: list[Key] = []
        self.back: list[array[int]] = []  # per stored layer d >= 1: parent's index in layer d-1
        self.via: list[array[int]] = []  # per stored layer d >= 1: id of the transition key from the parent
        self.cur, self.cur_len, self.cur_sleep = array("I"), array("B"), array("I", (0,))
        self.codec.ids(root, self.cur)
        self.cur_len.append(len(self.cur))
        self.sleep_tab: list[Sleep] = [EMPTY]
        self._new_layer()

    def _new_layer(self) -> None:
        self.nxt, self.nxt_len, self.nxt_sleep = array("I"), array("B"), array("I")
        self.nback, self.nvia = array("I"), array("I")
        self.nsleep_tab: list[Sleep] = [EMPTY]
        self.nsleep_id: dict[frozenset[tuple[Key, int]], int] = {frozenset(): 0}

    def __len__(self) -> int:
        return len(self.seen)

    def begin(self, last: bool) -> None:
        self.last, self.added, self.lo = last, 0, self.stored
        if last:  # the last layer's states are never expanded: nothing looks their index up
            self.seen.drop_index()

    def width(self) -> int:
        return len(self.cur_len)

    def frontier(self) -> Iterator[tuple[int, Compact, Sleep]]:
        cur, state, tab, sleep = self.cur, self.codec.state, self.sleep_tab, self.cur_sleep
        ctx, limit = self.ctx, self.memo_limit
        at = 0
        for n, m in enumerate(self.cur_len):
            if len(ctx.refused) + len(ctx.trans) > limit:
                ctx.forget()
            yield n, state(cur, at, m), tab[sleep[n]]
            at += m

    def _intern(self, sleep: Sleep) -> int:
        if not sleep:
            return 0
        key = frozenset(sleep.items())
        i = self.nsleep_id.get(key)
        if i is None:
            i = self.nsleep_id[key] = len(self.nsleep_tab)
            self.nsleep_tab.append(sleep)
        return i

    def add(self, s: Compact, n: int, raw: Raw, new: Compact, at: int | None, key: Key, sleep: Sleep | None,
            done: list[tuple[Key, int]], fpi: int) -> None:
        if self.last:
            self.added += self.seen.put(fingerprint(new), NONE) < 0
            return
        g = self.seen.put(fingerprint(new), self.stored)
        if g < 0:
            self.added += 1
            self.stored += 1
            self.nxt_len.append(self.codec.ids(new, self.nxt))
            t = self.tkeys.get(key)
            if t is None:
                t = self.tkeys[key] = len(self.tkey_list)
                self.tkey_list.append(key)
            self.nback.append(n)
            self.nvia.append(t)
            self.nxt_sleep.append(0 if sleep is None else
                                  self._intern(child_sleep_of(self.indep, sleep, done, fpi, at)))
        elif sleep is not None and g >= self.lo and g != NONE:
            j = g - self.lo
            mine = self.nsleep_tab[self.nxt_sleep[j]]
            if mine:
                child = child_sleep_of(self.indep, sleep, done, fpi, at)
                self.nxt_sleep[j] = self._intern({u: f for u, f in mine.items() if u in child})

    def advance(self) -> bool:
        if not self.added:
            return False
        self.back.append(self.nback)
        self.via.append(self.nvia)
        self.cur, self.cur_len, self.cur_sleep, self.sleep_tab = self.nxt, self.nxt_len, self.nxt_sleep, self.nsleep_tab
        self._new_layer()
        return True

    def path(self, index: int, s: Compact) -> list[Link]:
        """The links from the initial state to the ``index``-th frontier state (replayed by key)."""
        keys: list[Key] = []
        for d in range(len(self.back), 0, -1):
            keys.append(self.tkey_list[self.via[d - 1][index]])
            index = self.back[d - 1][index]
        out, cur = replay(self.ctx, self.root, keys[::-1])
        assert cur == s, "the replayed path ends in the state expanded"
        return out

    def collision(self) -> float:
        return collision_probability(len(self.seen))


_UNLIMITED = Budget()


def explore_fingerprint(model: SearchModel, bound: int | None = None, tick: Tick | None = None,
                        budget: Budget = _UNLIMITED, reduction: bool = True, meter: Meter | None = None
                        ) -> ExplicitRun:
    """``explicit.explore`` over fingerprints (module docstring); ``mode`` is ``"fingerprint"``."""
    k = model.bound if bound is None else bound
    ctx = Context(model, renaming=not model.policy.histories)
    return layered(ctx, FingerprintStore(ctx, empty(model.policy)), k, tick, budget, reduction, meter)


__all__ = ["MEMO_LIMIT", "Codec", "FingerprintSet", "FingerprintStore", "collision_probability",
           "explore_fingerprint", "fingerprint"]
