"""The cells of the tamper matrix (``tamper``) and the attacker's access to a store: raw SQL on an
SQLite file or on a schema of a PostgreSQL server, outside the store's own code.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from model.admission.refusal import Refusal

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
TAMPERS = ("edit", "delete", "copy", "reorder", "roll back")
#: the tamper the stores cannot detect by themselves (module docstring)
LIMIT = "roll back (whole store)"
#: the uses after it: by the process that had read the later store (it remembers the ledger's length),
#: by a restarted one (the limit), and a check against a ledger head kept outside the store
SAME_PROCESS = "run (the same process)"
RESTARTED = "run (a restarted process)"
PINNED = "verify against a pinned head"


@dataclass(frozen=True, slots=True)
class Cell:
    backend: str
    store: str
    rows: str
    tamper: str
    use: str
    effects: int  # tool effects performed during the use, after the tampering
    answer: str  # a refusal reason, "tampered", "exit N", or what happened
    line: str  # the refusal's line
    limit: bool = False  # a documented limit, not a defect

    def row(self) -> list[object]:
        return [self.backend, self.store, self.rows, self.tamper, self.use, self.effects, self.answer,
                self.line[:160], "yes" if self.limit else ""]


HEADER = ["backend", "store", "rows", "tamper", "use", "effects from the tampered row", "answer", "line",
          "documented limit"]


class Target:
    """Where one cell's store lives (an SQLite file, or a schema of a PostgreSQL server) and raw SQL
    on it, outside the store's own code: the attacker's access."""

    def __init__(self, path: str, schema: str | None = None) -> None:
        self.path, self.schema = path, schema

    @contextmanager
    def _conn(self) -> Iterator[Any]:
        if self.schema is None:
            c = sqlite3.connect(self.path)
            try:
                yield c
                c.commit()
            finally:
                c.close()
        else:
            import psycopg

            with psycopg.connect(self.path, autocommit=True) as pg:
                pg.execute(f"SET search_path TO {self.schema}")
                yield pg

    def sql(self, stmt: str, params: tuple[object, ...] = ()) -> list[tuple[Any, ...]]:
        with self._conn() as c:
            cur = c.execute(stmt if self.schema is None else stmt.replace("?", "%s"), params)
            return list(cur.fetchall()) if cur.description is not None else []

    def dump(self, tables: tuple[str, ...]) -> dict[str, list[tuple[Any, ...]]]:
        return {t: self.sql(f"SELECT * FROM {t}") for t in tables}

    def restore(self, dump: dict[str, list[tuple[Any, ...]]]) -> None:
        for t, rows in dump.items():
            self.sql(f"DELETE FROM {t}")
            for r in rows:
                self.sql(f"INSERT INTO {t} VALUES ({', '.join('?' * len(r))})", tuple(r))


def answer_of(out: object) -> tuple[str, str]:
    if isinstance(out, Refusal):
        return out.reason.value, out.detail
    return type(out).__name__, ""


