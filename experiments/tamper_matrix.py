"""The tamper matrix (``model/admission/deployments/tamper.py``): every store x row kind x tamper (edit,
delete, copy, reorder, roll back) x use (run, recover, replay, resume, verify), on SQLite and on a
throwaway PostgreSQL server (``model/base/store/pgserver.py``), with the number of effects the tools performed
from a tampered row (0 everywhere except the documented limit: a whole store rolled back to an older
copy of itself, used by a restarted process; the process that had read the later store refuses it, and
a ledger head kept outside the store finds it) and each answer's reason or exit code and line:
``paper_figures/tables/tamper_matrix.{csv,md}``.

Registered as ``tamper-matrix``. Without PostgreSQL's binaries or psycopg the PostgreSQL half is
left out and the table says so in its caption (the SQLite half still runs).
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path

from model.admission.deployments.tamper import HEADER, Cell, Target, matrix, sqlite_target
from model.base.store.pgserver import PgServer, fresh_schema, missing
from model.base.tables import write_table
from model.shell.cli import invoke

ROOT = Path(__file__).resolve().parents[1]
EDIT_SCRIPT = ROOT / "corpus" / "edits" / "sessions" / "laptop.json"


def compute(tick: Callable[[], None] = lambda: None, postgres: bool = True) -> tuple[list[Cell], str]:
    """The cells, and why PostgreSQL was left out ('' when it ran)."""
    with tempfile.TemporaryDirectory(prefix="aw-tamper-") as d:
        cells = matrix(Path(d), "sqlite", sqlite_target, EDIT_SCRIPT, tick, cli=invoke)
        why = missing() if postgres else "not asked for"
        if why is None:
            server = PgServer().start()
            try:
                cells += matrix(Path(d), "postgres", lambda _: Target(server.dsn, fresh_schema()), None, tick)
            finally:
                server.stop()
    return cells, why or ""


def reproduce(out_dir: Path, tick: Callable[[int, int], None]) -> list[Path]:
    done = [0]

    def step() -> None:
        done[0] += 1
        tick(done[0], 5)

    cells, why = compute(step)
    bad = [c for c in cells if c.effects and not c.limit]
    if bad:
        raise RuntimeError(f"effects from tampered rows: {bad}")
    limit = sum(c.effects for c in cells if c.limit)
    caption = (f"Rows of every store tampered with, then used (`agentwarrant reproduce tamper-matrix`): "
               f"{len(cells)} cells, {sum(c.effects for c in cells if not c.limit)} effects from tampered rows; "
               f"{limit} from the documented limit (a whole store rolled back to an older copy of itself and used "
               "by a restarted process, which nothing in the store can tell from that older store; the process "
               "that read the later store refuses it, and a ledger head pinned outside the store finds it). "
               "Cells that do not apply are left out." + (f" PostgreSQL not run: {why}." if why else ""))
    return write_table(out_dir, "tamper_matrix", HEADER, [c.row() for c in cells], caption)
