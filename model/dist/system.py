"""The worker side of the partitioned search of a generic system (``protocol.System``; the driver is
``system_search.py``): one partition of the visited set and its frontier, kept in the worker process
between the tasks of one search (our design, as ``partition.py`` is for the monitor engine; the papers say
nothing about distribution).

**Where a state lives.** A state belongs to partition ``shard(state) mod P`` for good, so a state reached
again meets its visited entry where it was first admitted. The generic search has no decision memo to keep
together (the monitor engine's reason for classes), so the shard is a hash of the state. It must agree in
every process, and Python's hash does not for every value (``None``'s hash is its address before Python
3.12). A system that declares ``stable_keys`` has integer keys (the admission model packs a state into one
integer, ``admission.py``): the shard is Python's hash of the key in a 1-tuple (an integer hashes from its
value, the same in every process, and the tuple's hash mixes its bits, where the integer's own hash modulo
``P`` would read its low bits alone). A system that ``Splits`` its states hashes each distinct part once
with BLAKE2b of its ``repr`` (memoized) and mixes the parts' hashes; any other system pays BLAKE2b of its
key's ``repr`` per distinct child. Choice: ``repr`` is the stable text, so a system's keys must have a
deterministic ``repr`` (tuples of strings, numbers, booleans and ``None`` do).

**Order.** A state's *order* is its first-discovery path as one integer: the parent's order shifted left
16 bits, plus the transition's position among the parent's successors. Orders of one level have equally
many digits, so comparing them is comparing paths lexicographically, which is the order in which the
single-process search (``model/search/system/bfs.py``) meets a level's states; its first parent wins, so
each partition keeps its frontier sorted by order and a merge keeps the least order per state — the same
states and, per query, the same first (least) transition that hits it. A trace is its order read back
as positions and replayed from the initial state (the driver does it; no parent links are stored).
Choice: a state with more than 65,536 successors is refused with a ``ValueError``.

**Visited set.** Exact (a set of keys) or 64-bit fingerprints (``FingerprintSet``, Python's hash: only
ever compared within its own process). A partition drops the children it visited itself; those of
another partition go to their owner, visited or not (the owner drops the visited ones): on the admission
model with four requesters at bound 10 on two partitions, a set of the children already sent, beside the
visited one, removed only 11% of the entries sent (most are states the owner reached by itself).
The frontier, with the orders beside it, is a ``frontier.Layer`` in fingerprint mode and a list of
states in exact mode (``Part.layer``);
the last level's states are counted, never stored. A new state from another worker holds copies of the
parts this worker made; the exact merge rebuilds it from this worker's own objects when the system
``Interns`` (its later lookups then compare by identity). ``merge`` is idempotent per level (a task Dask re-runs
must not merge twice); a partition does not survive the loss of its worker (the search is re-run).
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass, field, replace
from hashlib import blake2b
from operator import itemgetter
from typing import Any

from model.dist import fault_injection as faults
from model.dist.wire import pack, unpack
from model.search.engine import Level, bfs, key_fingerprint
from model.search.fpset import FingerprintSet
from model.search.heap import quiet, release
from model.search.system.compact_layer import Codec, Layer
from model.search.system.protocol import Interns, SharedMemo, System
from model.search.system.symmetry import Reduced

SHIFT = 16
_MAX = (1 << SHIFT) - 1


@dataclass(frozen=True, slots=True)
class Summary:
    """What the driver gathers from one level of a partition: counts and query events, never states."""

    transitions: int
    hits: tuple[tuple[int, int], ...]  # (query index, order of the least transition here that makes it hold)
    premises: int  # query bits whose premise some transition met
    complete: bool  # False: stopped at the deadline or the transition cap
    cpu: float
    sizes: tuple[int, ...]  # distinct children per owner partition
    merged: int = 0  # new states the merge before this expand admitted
    expanded: int = 0  # frontier states expanded (the driver matches it against the merge's count)
    received: tuple[int, ...] = ()  # entries of each batch the merge read (against what was cut for it)


@dataclass
class Part:
    part: int
    parts: int
    sys: System[Any]
    fingerprints: bool
    codec: Codec[Any]
    # shard by the canonical key, not the parts: a symmetry-reduced system's states of one orbit have
    # different parts and one key, and must meet in one partition's visited set
    by_key: bool = False
    keys: set[Hashable] = field(default_factory=set)  # exact mode
    fps: FingerprintSet = field(default_factory=FingerprintSet)  # fingerprint mode
    orders: list[int] = field(default_factory=list)
    states: Layer[Any] | list[Any] = field(default_factory=list)
    outs: list[dict[Any, int]] = field(default_factory=list)  # this level's children, per owner, until cut
    merged: dict[int, tuple[int, tuple[int, ...]]] = field(default_factory=dict)  # level -> (new states,
    # entries read per batch): the merge is idempotent
    stable_of: dict[Hashable, int] = field(default_factory=dict)  # part -> its BLAKE2b hash
    stable: bool = False  # the system's keys are integers (``stable_keys``): they hash alike everywhere
    warm_cpu: float = 0.0  # CPU of this partition's shares of a shared memo (``warm``)

    @property
    def stored(self) -> int:
        return len(self.fps) if self.fingerprints else len(self.keys)

    def layer(self) -> Layer[Any] | list[Any]:
        """An empty frontier: interned parts with fingerprints; with the exact visited set a list (when a
        system's key is the state itself, the visited set holds the same objects: a pointer a state, and
        no encoding)."""
        return self.codec.layer() if self.fingerprints else []

    def admit(self, s: Any) -> bool:
        """Add ``s`` to the visited set; False when it was there."""
        k = self.sys.key(s)
        if self.fingerprints:
            return self.fps.add(key_fingerprint(k))
        n = len(self.keys)
        self.keys.add(k)  # one hash, where a test and an add would take two
        return len(self.keys) > n


_PARTS: dict[tuple[str, int], Part] = {}


def _blake(x: object) -> int:
    return int.from_bytes(blake2b(repr(x).encode(), digest_size=8).digest(), "big")


def shard(p: Part, s: Any) -> int:
    """The partition of ``s`` (module docstring). The parts' hashes are mixed by hashing their tuple: the
    hash of a tuple of integers is computed from their values alone, the same in every process."""
    if p.stable:
        return hash((p.sys.key(s),)) % p.parts
    split = p.codec.split
    if split is None or p.by_key:
        return _blake(p.sys.key(s)) % p.parts
    parts, stable = split.parts(s), p.stable_of
    try:
        return hash(tuple(map(stable.__getitem__, parts))) % p.parts
    except KeyError:
        for x in parts:
            if x not in stable:
                stable[x] = _blake(x)
        return hash(tuple(map(stable.__getitem__, parts))) % p.parts


@quiet
def start(search: str, part: int, parts: int, make: Callable[[], System[Any]], fingerprints: bool) -> int:
    """Create the partition on this worker; the initial state lives on its shard."""
    sys = make()
    p = Part(part, parts, sys, fingerprints, Codec(sys), isinstance(sys, Reduced), stable=stable_keys(sys))
    p.states = p.layer()
    root = sys.initial()
    if shard(p, root) == part:
        p.admit(root)
        p.states.append(root)
        p.orders.append(0)
    _PARTS[(search, part)] = p
    return len(p.orders)


def stable_keys(sys: System[Any]) -> bool:
    """Whether ``sys`` (or the system a symmetry reduction wraps) declares integer keys (``stable_keys``)."""
    inner = sys.sys if isinstance(sys, Reduced) else sys
    return bool(getattr(inner, "stable_keys", False))


def memo_of(sys: System[Any]) -> SharedMemo | None:
    """The shared memo of ``sys`` (or of the system a symmetry reduction wraps), if it has one."""
    inner = sys.sys if isinstance(sys, Reduced) else sys
    return inner if isinstance(inner, SharedMemo) else None


def shares_of(memo: SharedMemo, part: int, parts: int) -> tuple[int, ...]:
    return tuple(s for s in range(memo.memo_shares()) if s % parts == part)


@quiet
def warm(search: str, part: int, parts: int, bound: int, key: bytes, seconds: float | None = None) -> bytes:
    """Build this partition's shares of the system's memo to ``bound`` and export them for the others
    (``protocol.SharedMemo``; the system must have one), for at most ``seconds`` (the search's time left:
    the driver then answers ``Unknown``)."""
    dropped = faults.hit("warm")
    clock = time.process_time()
    p = get(search, part)
    memo = memo_of(p.sys)
    assert memo is not None
    blob = memo.memo_build(shares_of(memo, part, parts), bound, key, seconds)
    p.warm_cpu = time.process_time() - clock
    # an empty-handed task's share is refused by every adopter, which then runs those steps itself
    return b"" if dropped else blob


@quiet
def adopt(search: str, part: int, parts: int, bound: int, key: bytes, senders: tuple[int, ...], *blobs: object
          ) -> tuple[int, tuple[str, ...], float]:
    """Adopt the shares the partitions ``senders`` built (their ``warm`` results, in that order): the
    entries taken, why each refused one was refused, and this partition's CPU for its warm and this."""
    clock = time.process_time()
    p = get(search, part)
    memo = memo_of(p.sys)
    assert memo is not None
    taken, refused = 0, []
    for q, blob in zip(senders, blobs, strict=True):
        n, why = memo.memo_adopt(blob, shares_of(memo, q, parts), bound, key)
        taken += n
        if why:
            refused.append(f"partition {q}: {why}")
    return taken, tuple(refused), p.warm_cpu + time.process_time() - clock


def drop(search: str, part: int) -> int:
    p = _PARTS.pop((search, part), None)
    release()
    return 0 if p is None else p.stored


def get(search: str, part: int) -> Part:
    return _PARTS[(search, part)]


def merge(p: Part, level: int, last: bool, batches: tuple[dict[Any, int] | bytes, ...]
          ) -> tuple[int, tuple[int, ...]]:
    """Admit this partition's new states of ``level``: each batch maps a child to its least order at its
    sender, in ascending order (its sender's frontier is, and positions grow), so a merge of the batches
    by order meets each child's least order first, and ``admit`` drops the later ones with the visited.
    The frontier becomes them, in that order, unless ``last``. Returns how many, and the entries read from
    each batch."""
    if level in p.merged:
        return p.merged[level]
    loaded = [unpack(b) for b in batches]
    received = tuple(len(b) for b in loaded)
    items = iter(loaded[0].items()) if len(loaded) == 1 else heapq.merge(*(b.items() for b in loaded),
                                                                         key=itemgetter(1))
    p.states, p.orders = p.layer(), []
    n = 0
    admit, states, orders = p.admit, p.states, p.orders
    if p.fingerprints:
        for child, order in items:
            if admit(child):
                n += 1
                if not last:
                    states.append(child)
                    orders.append(order)
    else:  # ``admit`` inlined: one call less per entry on the exact visited set
        keys, key = p.keys, p.sys.key
        inner = p.sys.sys if isinstance(p.sys, Reduced) else p.sys
        canon = inner.canonical if isinstance(inner, Interns) and len(loaded) > 1 else None
        for child, order in items:
            k = key(child)
            if k in keys:
                continue
            if canon is not None:  # a state from another worker holds copies of this one's parts
                child = canon(child)
                k = key(child)
            keys.add(k)
            n += 1
            if not last:
                states.append(child)
                orders.append(order)
    p.merged[level] = n, received
    return n, received


def expand(p: Part, found: int, seconds: float | None, cap: int | None) -> Summary:
    """Expand the frontier in order; the distinct children not visited here wait in ``outs`` per owner."""
    children: dict[Any, int] = {}
    hits: dict[int, int] = {}
    premises = 0
    nq = len(p.sys.queries)
    exact, keys, key = not p.fingerprints, p.keys, p.sys.key

    def expand_one(_layer: int, _last: bool, _n: int, item: tuple[int, Any], _x: None) -> Iterator[int]:
        nonlocal premises
        order, s = item
        base = order << SHIFT
        for j, (_label, t, hit, meets) in enumerate(p.sys.successors(s)):
            if j > _MAX:
                raise ValueError(f"system {p.sys.name}: a state with more than {_MAX + 1} successors")
            yield 1
            premises |= meets
            if hit & ~found:
                for i in range(nq):
                    if hit >> i & 1 and not found >> i & 1 and i not in hits:
                        hits[i] = base | j
            # a self-loop's target and a state stored here are visited; a child met before keeps its first
            # (least) edge
            if t is s or (exact and key(t) in keys):
                continue
            children.setdefault(t, base | j)

    # one layer of ``engine.bfs`` over the frontier in order, cut at the deadline or the cap (``Level``)
    level: Level[tuple[int, Any], None] = Level(((n, item, None) for n, item in
                                                 enumerate(zip(p.orders, p.states, strict=True))), seconds, cap)
    bfs(level, expand_one, 1, None, step=level.step)
    transitions, complete, expanded = level.transitions, level.complete, level.expanded
    if p.parts == 1:
        p.outs = [children]
    else:
        p.outs = [{} for _ in range(p.parts)]
        outs, P = p.outs, p.parts
        if p.stable and not p.by_key:  # ``shard`` inlined: a key is the state itself
            for t, o in children.items():
                outs[hash((t,)) % P][t] = o
        else:
            for t, o in children.items():
                outs[shard(p, t)][t] = o
    return Summary(transitions, tuple(sorted(hits.items())), premises, complete, 0.0,
                   tuple(len(d) for d in p.outs), expanded=expanded)


@quiet
def step(search: str, part: int, layer: int, found: int, seconds: float | None, cap: int | None, after: object,
         *batches: dict[Any, int] | bytes) -> Summary:
    """Merge level ``layer``'s states (none to merge at 0), then expand them. ``after`` is unused: the
    driver passes this partition's own ``cut`` tasks of the previous level there, so that the expand,
    which replaces ``outs``, runs only after they all took their batch."""
    faults.hit("step")
    clock = time.process_time()
    p = get(search, part)
    new, received = merge(p, layer, False, batches) if layer > 0 else (0, ())
    out = expand(p, found, seconds, cap)
    return replace(out, cpu=time.process_time() - clock, merged=new, received=received)


def cut(search: str, part: int, q: int) -> dict[Any, int] | bytes:
    """This partition's children owned by partition ``q``, packed for the wire when they leave
    (``wire.py``)."""
    dropped = faults.hit("cut")
    # kept until the next expand: a task Dask runs again (its result lost in a transfer) must hand over the
    # same batch, not an empty one
    return pack({} if dropped else get(search, part).outs[q], q != part)


@quiet
def finish(search: str, part: int, layer: int, *batches: dict[Any, int] | bytes
           ) -> tuple[int, float, tuple[int, ...]]:
    """Merge the last level (its states are counted, never expanded): (new states, CPU seconds, entries
    read per batch)."""
    faults.hit("finish")
    clock = time.process_time()
    n, received = merge(get(search, part), layer, True, batches)
    return n, time.process_time() - clock, received
