"""A fleet of release gateways on one shared nonce store (the Parmana paper, Section 4.4;
``model/admission/deployments/fleet.py``): ``paper_figures/tables/admission_races.{csv,md}`` (race and fault
campaigns: attempts, kills, dropped connections, restarts, releases, duplicates, lost) and
``admission_throughput.{csv,md}`` (releases per second with 1, 2 and 4 gateways on each backend).

Method: a throwaway PostgreSQL server on the loopback (``model/base/store/pgserver.py``) with ``fsync`` on, so
that a committed spend is on disk as with SQLite's ``synchronous = FULL``. Race campaigns: every
gateway tries every item; faults as named in the table (kills: two victims SIGKILL themselves right
after reserving, i.e. spending an approval's nonce, before releasing, and survivors complete their
reservations after the lease; drops: every client connection
terminated every 0.1 s; restart: one fast server restart mid-run; all: the three together).
Throughput: each gateway releases its own share of ``THROUGHPUT_ITEMS`` items (no contention), timed
from the gateways' start to the last one's exit (process start included), best of ``REPEAT``. A
release is the whole gate: signature and policy checks, the atomic spend, two signed records written
to the gateway's own SQLite record file, the tool's fsync'd effect. Wall-clock seconds on the machine
that ran it (2 cores shared with other jobs), so the ratios between rows say more than the rates.

Registered as ``admission-store``; needs PostgreSQL's server binaries and psycopg (the ``postgres``
extra); it refuses with the reason when they are missing.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from model.admission.deployments.fleet import Campaign, Outcome, run
from model.base.errors import InputKind, InvalidInput
from model.base.store.pgserver import PgServer, fresh_schema, missing
from model.base.tables import write_table

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
RACE_ITEMS = 60
GATEWAYS = 4
THROUGHPUT_ITEMS = 120
REPEAT = 2
RACES: tuple[tuple[str, Campaign], ...] = (
    ("race", Campaign("sqlite", GATEWAYS, RACE_ITEMS)),
    ("race", Campaign("postgres", GATEWAYS, RACE_ITEMS)),
    ("kills", Campaign("postgres", GATEWAYS, RACE_ITEMS, victims=2, order="rotate")),
    ("drops", Campaign("postgres", GATEWAYS, RACE_ITEMS, drop_every=0.1)),
    ("restart", Campaign("postgres", GATEWAYS, RACE_ITEMS, restart=True)),
    ("all", Campaign("postgres", GATEWAYS, RACE_ITEMS, victims=2, order="rotate", drop_every=0.1, restart=True)),
)


def _one(c: Campaign, server: PgServer) -> Outcome:
    with tempfile.TemporaryDirectory(prefix="aw-fleet-") as d:
        return run(c, Path(d), NOW, server if c.backend == "postgres" else None, fresh_schema())


def reproduce(out_dir: Path, tick: Callable[[int, int], None]) -> list[Path]:
    why = missing()
    if why is not None:
        raise InvalidInput("admission-store", "a PostgreSQL server to start", why, InputKind.IO)
    total = len(RACES) + 2 * 3 * REPEAT
    done = 0
    server = PgServer(fsync=True).start()
    try:
        race_rows: list[list[object]] = []
        for scenario, c in RACES:
            o = _one(c, server)
            race_rows.append([c.backend, scenario, c.gateways, c.items, o.attempts, o.kills, o.drops, o.restarts,
                              o.recovered, o.releases, o.duplicates, o.reserved_unreleased, o.explained_by_kill,
                              o.unknown_commit, o.lost, o.crashed])
            done += 1
            tick(done, total)
        tput_rows: list[list[object]] = []
        base: dict[str, float] = {}
        for backend in ("sqlite", "postgres"):
            for g in (1, 2, 4):
                best: Outcome | None = None
                for _ in range(REPEAT):
                    o = _one(Campaign(backend, g, THROUGHPUT_ITEMS, order="partition"), server)
                    if o.duplicates or o.lost or o.releases != THROUGHPUT_ITEMS:
                        raise RuntimeError(f"throughput run broke the invariants: {o}")
                    best = o if best is None or o.seconds < best.seconds else best
                    done += 1
                    tick(done, total)
                assert best is not None
                rate = best.releases / best.seconds
                base.setdefault(backend, rate)
                tput_rows.append([backend, g, best.releases, f"{best.seconds:.2f}", f"{rate:.1f}",
                                  f"{rate / base[backend]:.2f}"])
    finally:
        server.stop()
    paths = write_table(out_dir, "admission_races",
                        ["backend", "scenario", "gateways", "items", "attempts", "kills", "dropped connections",
                         "restarts", "recovered after a lease", "releases", "duplicates", "reserved, unreleased",
                         "of which killed", "of which unknown commit", "lost", "gateways crashed"], race_rows,
                        f"Gateways racing every release of {RACE_ITEMS} approvals on one nonce store, with faults "
                        "(`agentwarrant reproduce admission-store`). Duplicates and lost must be 0. A gateway "
                        "killed after spending an approval, or unable to learn its commit's outcome, leaves a "
                        "reservation that another gateway completes after its lease with the same idempotency key "
                        "(recovered); reserved, unreleased counts what is left at the end, and must be 0.")
    paths += write_table(out_dir, "admission_throughput",
                         ["backend", "gateways", "releases", "seconds", "releases/s", "vs 1 gateway"], tput_rows,
                         f"Releases per second, each gateway releasing its own share of {THROUGHPUT_ITEMS} "
                         f"approvals, best of {REPEAT} (`agentwarrant reproduce admission-store`; wall clock on 2 "
                         "shared cores).")
    return paths
