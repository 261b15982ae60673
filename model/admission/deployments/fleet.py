"""A fleet of release gateways on one nonce store (the Parmana paper, Section 4.4: nonces
"spent atomically in a shared Postgres store so each authorization is used once across
instances"): the harness behind the race and fault tests and the admission-store experiment.

Set-up: the wired pipeline of ``release_deployment`` with its nonce store at the campaign's target
(an SQLite file or a PostgreSQL schema) decides ``items`` refunds, each with its own signed approval,
so each item has one authorization. Then ``gateways`` processes start (fork), each with its own
release gate, record file and store connection, and each tries to release every item (``order``
says in which order; ``partition`` gives each gateway its own share instead, for throughput). The
tool's effects are files (below), so releases and duplicates are counted from effects, never from
what the gateways say.

Every gateway reserves with a lease (``LEASE`` seconds) and, once through its own order, completes
reservations whose lease expired unfinished (``ReleaseGate.recover``) until none is left. The tool
is an idempotent sink: a call creates ``effects/<idempotencyKey>`` exclusively, holding the order,
so a repeated call with one key changes nothing, while two keys for one order would be a duplicate.

Faults: a *victim* gateway SIGKILLs itself right after its first successful reservation (the nonces
spent) of an item at position ``kill_after`` or later of its order, i.e. between reserve and release,
having logged that item; ``drop_every`` seconds the parent terminates every client connection of the
server (a network fault); ``restart`` restarts the server once, mid-run. A gateway retries an item
refused STORE_UNAVAILABLE (the fault was the store's, not the request's) a bounded number of times.

Counted afterwards from the effects file, the gateways' logs and the store: attempts (release calls),
kills (gateways whose exit was SIGKILL), crashed (gateways that exited with an error), recovered
(reservations completed by a gateway that took them over), releases,
duplicates (items with more than one effect), reserved-unreleased (nonce spent, no effect), of which
explained by a kill (the killed gateway logged it) or by an unknown commit outcome (a gateway saw the
store fail and the nonce spent afterwards: the commit may have landed; the release was refused,
failing closed), and lost (any other spent item with no effect, or an item neither spent nor
released). Duplicates and lost must be 0.
"""

from __future__ import annotations

import multiprocessing
import os
import random
import signal
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from model.admission.decision.evidence import APPROVAL_NAMESPACE
from model.admission.decision.nonces import Leasing, Reservation, SqliteNonceStore
from model.admission.deployments.release_deployment import Pipeline
from model.admission.refusal import Refusal, RefusalReason
from model.admission.release.gateway import Authorized, Released, ReleaseGate
from model.admission.signatures.records import RecordStore
from model.admission.tools import ToolRegistry
from model.base.canonical import JSON
from model.base.errors import InvalidInput
from model.base.signing import KeyPair
from model.base.store.pgserver import PgServer

RETRIES = 40
LEASE = 0.4  # seconds a reservation stays its holder's before another gateway may take it over
RECOVERY = 20.0  # seconds a gateway keeps completing expired reservations after its own order


@dataclass(frozen=True, slots=True)
class Campaign:
    backend: str  # "sqlite" or "postgres"
    gateways: int
    items: int
    victims: int = 0
    kill_after: int = 0
    drop_every: float = 0.0
    restart: bool = False
    seed: int = 0
    # seconds a gateway waits after each item: keeps a short campaign running while a fault is injected
    pace: float = 0.0
    # "same": every gateway tries every item in one shuffled order (all race each item at once);
    # "rotate": every item, gateway k starting at item k·items/gateways (a victim's first item is its own);
    # "partition": gateway k releases only items k, k+G, ... (no contention: the throughput runs)
    order: str = "same"


@dataclass(frozen=True, slots=True)
class Outcome:
    campaign: Campaign
    attempts: int
    kills: int
    crashed: int  # gateways that exited with an error (they should not: a fault is retried)
    drops: int
    restarts: int
    recovered: int
    releases: int
    duplicates: int
    reserved_unreleased: int
    explained_by_kill: int
    unknown_commit: int
    lost: int
    seconds: float


@dataclass(frozen=True, slots=True)
class _Item:
    order: str
    nonce: str  # the approval nonce as spent: "<approver>/<nonce>"
    authorization: dict[str, JSON]
    transaction: dict[str, JSON]


class _KillAfterReserve:
    """A nonce store that SIGKILLs its process once it has reserved an item at or after a position."""

    def __init__(self, inner: SqliteNonceStore, log: Path, armed_from: int) -> None:
        self.inner, self.log, self.armed_from, self.position = inner, log, armed_from, 0

    def is_spent(self, namespace: str, nonce: str) -> bool:
        return self.inner.is_spent(namespace, nonce)

    def spend(self, namespace: str, nonce: str, now: datetime) -> bool:
        return self.spend_all(((namespace, nonce),), now) is None

    def spend_all(self, items: Sequence[tuple[str, str]], now: datetime,
                  reservation: tuple[Reservation, float] | None = None) -> tuple[str, str] | None:
        got = self.inner.spend_all(items, now, reservation)
        if got is None and self.position >= self.armed_from:
            approval = next(n for ns, n in items if ns == APPROVAL_NAMESPACE)
            _log(self.log, f"reserved {approval}")
            os.kill(os.getpid(), signal.SIGKILL)
        return got


def _log(path: Path, line: str) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, (line + "\n").encode())
        os.fsync(fd)
    finally:
        os.close(fd)


def _prepare(c: Campaign, root: Path, target: str, schema: str | None, now: datetime) -> tuple[Pipeline, list[_Item]]:
    pipe = Pipeline(root, now, nonces_at=target, nonces_schema=schema)
    items = []
    for i in range(c.items):
        order = f"order-{i}"
        tx = pipe.transaction(order=order, approval=pipe.approval(order=order, nonce=f"n-{i}"))
        out = pipe.runtime.decide(tx, now)
        if not isinstance(out, Authorized):
            raise RuntimeError(f"the fleet's set-up decision was refused: {out}")
        items.append(_Item(order, f"alice/n-{i}", out.authorization, tx))
    pipe.nonces.close()  # the gateways open their own connections; none is shared across fork
    return pipe, items


def _open_retrying(target: str, schema: str | None, key: KeyPair) -> SqliteNonceStore:
    """A gateway starting while the server restarts or drops connections waits for it."""
    for attempt in range(RETRIES):
        try:
            return SqliteNonceStore(target, schema, key=key)
        except InvalidInput:
            time.sleep(0.02 * (attempt + 1))
    return SqliteNonceStore(target, schema, key=key)


def _gateway(pipe: Pipeline, items: list[_Item], k: int, c: Campaign, target: str, schema: str | None,
             root: Path) -> None:
    log = root / f"gateway-{k}.log"
    store = _open_retrying(target, schema, pipe.store_key)
    nonces = _KillAfterReserve(store, log, c.kill_after) if k < c.victims else store

    def effect(intent: JSON) -> JSON:
        assert isinstance(intent, dict)
        try:
            fd = os.open(root / "effects" / str(intent["idempotencyKey"]), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:  # this key's effect already happened
            return {"done": True, "repeat": True}
        try:
            os.write(fd, str(intent["target"]).encode())
            os.fsync(fd)
        finally:
            os.close(fd)
        return {"done": True}

    gate = ReleaseGate(pipe.gov, ToolRegistry({"paytm:refund": effect}), pipe.runtime_key.public,
                       RecordStore(pipe.runtime_key, str(root / f"records-{k}.db")), nonces,
                       leasing=Leasing(store, f"gateway-{k}", LEASE))
    n = len(items)
    if c.order == "partition":
        mine = list(range(k, n, c.gateways))
    elif c.order == "rotate":
        mine = [(k * n // c.gateways + j) % n for j in range(n)]
    else:
        mine = list(range(n))
        random.Random(c.seed).shuffle(mine)
    for position, i in enumerate(mine):
        if isinstance(nonces, _KillAfterReserve):
            nonces.position = position
        it = items[i]
        for attempt in range(RETRIES):
            _log(log, f"attempt {it.nonce}")
            out = gate.release(it.authorization, it.transaction, pipe.now)
            if isinstance(out, Released):
                _log(log, f"released {it.nonce}")
                break
            assert isinstance(out, Refusal)
            _log(log, f"refused {it.nonce} {out.reason.value}")
            if out.reason is not RefusalReason.STORE_UNAVAILABLE:
                break
            time.sleep(0.02 * (attempt + 1))
        time.sleep(c.pace)
    _recover(gate, store, pipe.now, log)


def _recover(gate: ReleaseGate, store: SqliteNonceStore, now: datetime, log: Path) -> None:
    """Complete expired reservations (a killed gateway's, or an unknown commit's) until none is left."""
    deadline = time.monotonic() + RECOVERY
    while time.monotonic() < deadline:
        try:
            done = gate.recover(now)
            if done:
                _log(log, f"recovered {done}")
            if store.unfinished() == 0:
                return
        except Exception:  # the store is down for a moment: try again
            pass
        time.sleep(LEASE / 2)


def run(c: Campaign, root: Path, now: datetime, server: PgServer | None = None, schema: str | None = None
        ) -> Outcome:
    """Run one campaign in ``root`` (an empty directory) and count what happened."""
    target = server.dsn if c.backend == "postgres" and server is not None else str(root / "nonces.db")
    if c.backend == "postgres" and server is None:
        raise ValueError("a postgres campaign needs a server")
    pipe, items = _prepare(c, root, target, schema if server else None, now)
    (root / "effects").mkdir()
    ctx = multiprocessing.get_context("fork")
    procs = [ctx.Process(target=_gateway, args=(pipe, items, k, c, target, schema if server else None, root))
             for k in range(c.gateways)]
    start = time.perf_counter()
    for p in procs:
        p.start()
    drops, restarts = _faults(c, server, procs, lambda: any((root / "effects").iterdir()))
    for p in procs:
        p.join()
    seconds = time.perf_counter() - start
    return _count(c, root, items, target, schema if server else None, procs, drops, restarts, seconds,
                  pipe.store_key)


def _faults(c: Campaign, server: PgServer | None, procs: Sequence[multiprocessing.process.BaseProcess],
            started: Callable[[], bool]) -> tuple[int, int]:
    drops = restarts = 0
    if server is None or (c.drop_every <= 0 and not c.restart):
        return 0, 0
    while any(p.is_alive() for p in procs):
        time.sleep(c.drop_every if c.drop_every > 0 else 0.05)
        if c.drop_every > 0:
            drops += server.terminate_clients()
        # once the first release took effect, so the restart lands mid-run whatever the machine's speed
        if c.restart and restarts == 0 and started():
            stopper = threading.Thread(target=server.restart)
            stopper.start()
            stopper.join()
            restarts += 1
    return drops, restarts


def _count(c: Campaign, root: Path, items: list[_Item], target: str, schema: str | None,
           procs: Sequence[multiprocessing.process.BaseProcess], drops: int, restarts: int, seconds: float,
           key: KeyPair) -> Outcome:
    effects = Counter(f.read_text() for f in (root / "effects").iterdir())
    lines = [ln.split() for k in range(c.gateways) if (root / f"gateway-{k}.log").exists()
             for ln in (root / f"gateway-{k}.log").read_text().splitlines()]
    attempts = sum(1 for ln in lines if ln[0] == "attempt")
    recovered = sum(int(ln[1]) for ln in lines if ln[0] == "recovered")
    killed_on = {ln[1] for ln in lines if ln[0] == "reserved"}
    failed_on = {ln[1] for ln in lines if ln[0] == "refused" and ln[2] == RefusalReason.STORE_UNAVAILABLE.value}
    store = SqliteNonceStore(target, schema, key=key)
    reserved_unreleased = explained = unknown = lost = 0
    for it in items:
        spent = store.is_spent(APPROVAL_NAMESPACE, it.nonce)
        if effects[it.order] > 0:
            continue
        if not spent:
            lost += 1
            continue
        reserved_unreleased += 1
        if it.nonce in killed_on:
            explained += 1
        elif it.nonce in failed_on:
            unknown += 1
        else:
            lost += 1
    store.close()
    return Outcome(c, attempts, sum(1 for p in procs if p.exitcode == -signal.SIGKILL),
                   sum(1 for p in procs if p.exitcode not in (0, -signal.SIGKILL)), drops, restarts,
                   recovered, sum(effects.values()), sum(1 for n in effects.values() if n > 1), reserved_unreleased,
                   explained, unknown, lost, seconds)
