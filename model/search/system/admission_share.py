"""The memo of the admission steps (``admission_steps.Steps``) built once across the partitions of a search and
handed from process to process (our design, for the partitioned generic search of ``model/dist/system.py``;
the papers say nothing about distribution).

Why: each partition of a search meets every requester's local states, so with a memo per process each
partition runs nearly every service step the single process runs (on five requesters at bound 9, 2,370
runs per partition against 2,230 in one process, about 3 CPU seconds each). A requester's steps read only
its own local state (``admission_steps``), so the memo splits into one *share* per requester: partition
``p`` builds the shares ``s`` with ``s mod P = p`` (``Steps.closure`` of requester ``s + 1`` to the search's
bound), and every partition adopts the others' before its first level. No step is then run twice across
the partitions, and every partition holds the same memo — the same database bytes for every local state,
so the same answers wherever a state is expanded.

**A share read back is untrusted until verified.** ``export`` packs a share with ``marshal`` (tuples,
strings, integers, booleans, ``None`` and bytes only: loading it runs no code, unlike a pickle) inside an
envelope whose BLAKE2b digest is keyed by the search's key and a *tag*: the model's requesters and policy
revisions, the shares, the bound and a digest of this module's and ``admission_steps``' source. ``adopt``
refuses the whole share — and the partition then runs those steps itself, as without sharing — when
- the envelope does not parse or its digest differs (corrupted, or made for another search, model, bound
  or code: stale);
- an entry is not of the memo's shape (a key of a requester outside the share, an unknown action or
  policy version, a malformed local state or effect);
- a sample of its entries, run again here on the real services from the share's own database bytes,
  gives another answer (``SAMPLE`` step entries and ``SAMPLE`` restart entries, chosen by the digest).
The digest says the share is what a partition of this search computed with this code; the sample checks
that computation against this process's services. An entry outside the sample is trusted on those two
grounds: a wrong but well-formed entry that the producing process itself computed and the sample misses
is not detected (the producing process runs the same code on the same model).

Choices: a share that a partition cannot use is refused whole (its entries come from one process and one
run of its closure, so one wrong entry makes them all suspect); entries this partition computed itself
are never replaced (its own shares are disjoint from the others', so this only matters for a memo warmed
before adoption); a local state equal to its source is stored as the source object (``Steps.step`` returns
an unchanged local state as itself, and the search knows a self-loop by identity).
"""

from __future__ import annotations

import marshal
import random
from dataclasses import astuple, dataclass
from hashlib import blake2b
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from model.admission.signatures.sealing import Tampered
from model.base.signing import KeyPair
from model.search.system.admission_steps import ACTIONS, Effect, Local, Steps

FORMAT = 1
SAMPLE = 8
_CODE = blake2b(Path(__file__).read_bytes() + Path(__file__).with_name("admission_steps.py").read_bytes(),
                digest_size=16).digest()

MemoKey = tuple[int, Local, int, bool, str]
MemoVal = tuple[Local, tuple[Effect, ...], bool]


@dataclass(frozen=True, slots=True)
class Adopted:
    """What ``adopt`` did with one share: the step entries taken, and why it was refused (empty: taken)."""

    entries: int
    refused: str = ""
    checked: int = 0  # entries run again here


def tag_of(steps: Steps, shares: tuple[int, ...], bound: int) -> bytes:
    return repr((FORMAT, steps.n, tuple(e.value for e in steps.versions), shares, bound)).encode() + _CODE


def digest_of(key: bytes, tag: bytes, payload: bytes) -> bytes:
    return blake2b(payload, key=blake2b(key + tag, digest_size=32).digest(), digest_size=32).digest()


def store_key(key: bytes) -> KeyPair:
    """The key that seals the attempt stores of every partition of the search keyed ``key``: the stores'
    bytes open only where they were sealed (``AttemptStore``), so the partitions seal with one key."""
    seed = blake2b(key, digest_size=32, person=b"admission-memo").digest()
    return KeyPair("search-store-key", Ed25519PrivateKey.from_private_bytes(seed))


def _keyed(steps: Steps, key: bytes) -> None:
    mine = store_key(key)
    if steps.key is None or steps.key.public != mine.public:
        steps.rekey(mine)


def build(steps: Steps, shares: tuple[int, ...], bound: int, key: bytes, actions: tuple[str, ...],
          toggles: bool, recovers: bool, deadline: float | None = None) -> bool:
    """Run the steps of requesters ``s + 1`` for ``s`` in ``shares`` that a search to ``bound`` can ask for
    (``Steps.closure``), with the stores sealed by the search's key; stop at ``deadline``
    (``time.monotonic``): False when it did. A share cut short holds fewer entries, each as right as in a
    whole one (an adopter runs the missing steps itself)."""
    _keyed(steps, key)
    return all(steps.closure(s + 1, bound, actions, toggles, recovers, deadline) for s in shares)


def export(steps: Steps, shares: tuple[int, ...], bound: int, key: bytes) -> bytes:
    """The memo entries of the requesters of ``shares`` in ``steps``, in an envelope (module docstring)."""
    mine = {s + 1 for s in shares}
    memo = [(i, loc, v, g, a, new, tuple(astuple(e) for e in effects), refused)
            for (i, loc, v, g, a), (new, effects, refused) in steps.memo.items() if i in mine]
    rec = [(i, loc, new) for (i, loc), new in steps.recovered.items() if i in mine]
    dbs = [(i, loc, b) for (i, loc), b in steps.dbs.items() if i in mine]
    payload = marshal.dumps((memo, rec, dbs))
    tag = tag_of(steps, shares, bound)
    return marshal.dumps((FORMAT, tag, digest_of(key, tag, payload), payload))


def _local(x: Any) -> bool:
    if not (isinstance(x, tuple) and len(x) == 3 and type(x[1]) is int and type(x[2]) is int):
        return False
    row = x[0]
    return row is None or (isinstance(row, tuple) and len(row) == 3 and isinstance(row[0], str)
                           and all(r is None or isinstance(r, str) for r in row[1:]))


def _effects(x: Any) -> tuple[Effect, ...] | None:
    if not isinstance(x, tuple):
        return None
    out = []
    for e in x:
        if not (isinstance(e, tuple) and len(e) == 5 and all(type(b) is bool for b in e)):
            return None
        out.append(Effect(*e))
    return tuple(out)


def adopt(steps: Steps, blob: object, shares: tuple[int, ...], bound: int, key: bytes) -> Adopted:
    """Verify the envelope ``blob`` that claims the requesters of ``shares`` and add its entries to
    ``steps``, or refuse it whole (module docstring)."""
    try:
        fmt, tag, digest, payload = marshal.loads(blob) if isinstance(blob, bytes) else (None,) * 4
    except (EOFError, ValueError, TypeError):
        return Adopted(0, "envelope does not parse")
    want = tag_of(steps, shares, bound)
    if fmt != FORMAT or tag != want:
        return Adopted(0, "made for another format, model, share, bound or code")
    if not isinstance(payload, bytes) or digest != digest_of(key, want, payload):
        return Adopted(0, "digest differs")
    try:
        memo_in, rec_in, dbs_in = marshal.loads(payload)
    except (EOFError, ValueError, TypeError):
        return Adopted(0, "payload does not parse")
    _keyed(steps, key)
    mine = {s + 1 for s in shares}
    atoms = steps.atoms
    intern: dict[Local, Local] = {}

    def one(x: Any) -> Local:  # this process's object for a local state it knows, else one object per value
        got = atoms.get(x)
        return got if got is not None else intern.setdefault(x, x)

    memo: dict[MemoKey, MemoVal] = {}
    recovered: dict[tuple[int, Local], Local] = {}
    dbs: dict[tuple[int, Local], bytes] = {}
    try:
        for i, loc, v, g, a, new, eff, refused in memo_in:
            effects = _effects(eff)
            if not (i in mine and _local(loc) and type(v) is int and 0 <= v < len(steps.versions)
                    and type(g) is bool and a in ACTIONS and _local(new) and effects is not None
                    and type(refused) is bool):
                return Adopted(0, "a step entry is malformed")
            loc = one(loc)
            memo[(i, loc, v, g, a)] = (loc if new == loc else one(new), effects, refused)
        for i, loc, new in rec_in:
            if not (i in mine and _local(loc) and _local(new)):
                return Adopted(0, "a restart entry is malformed")
            recovered[(i, one(loc))] = one(new)
        for i, loc, b in dbs_in:
            if not (i in mine and _local(loc) and isinstance(b, bytes)):
                return Adopted(0, "a database entry is malformed")
            dbs[(i, one(loc))] = b
    except (TypeError, ValueError):
        return Adopted(0, "an entry is malformed")
    try:
        checked = _check(steps, digest, memo, recovered, dbs)
    except (Tampered, KeyError):  # a store that does not open under the search's key, a local never reached
        checked = -1
    if checked < 0:
        return Adopted(0, "a sampled entry differs when run again")
    for k, val in memo.items():
        steps.memo.setdefault(k, val)
    for k2, r in recovered.items():
        steps.recovered.setdefault(k2, r)
    for k2, b in dbs.items():
        steps.dbs.setdefault(k2, b)
    for x in intern:
        atoms.setdefault(x, x)
    return Adopted(len(memo), "", checked)


def _check(steps: Steps, digest: bytes, memo: dict[MemoKey, MemoVal], recovered: dict[tuple[int, Local], Local],
           dbs: dict[tuple[int, Local], bytes]) -> int:
    """Run a sample of the share's entries again on a fresh memo over the share's database bytes: how many
    were run, or -1 when one differs."""
    rnd = random.Random(digest)
    scratch = Steps(steps.n, steps.versions, steps.key)
    scratch.dbs = dict(dbs)
    keys = list(memo)
    for k in rnd.sample(keys, min(SAMPLE, len(keys))):
        i, loc, v, g, a = k
        new, effects, refused = scratch.step(i, loc, v, g, a)
        if (new, effects, refused) != memo[k]:
            return -1
    rkeys = list(recovered)
    for k2 in rnd.sample(rkeys, min(SAMPLE, len(rkeys))):
        if scratch.recover(*k2) != recovered[k2]:
            return -1
    return scratch.calls
