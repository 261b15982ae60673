"""The tamper matrix (``model/admission/deployments/tamper.py``), computed: on SQLite always, and on the
throwaway PostgreSQL server where the store tests run it. No cell may show an effect from a tampered
row except the documented limit (a whole store rolled back to an older copy of itself), and every
tamper of a row is refused by the use or, where the use has nothing to run (a reservation deleted),
reported by ``verify``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from model.admission.deployments.tamper import LIMIT, PINNED, TAMPERS, Cell, Target, matrix, sqlite_target
from model.shell.cli import invoke

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "corpus" / "edits" / "sessions" / "laptop.json"
REFUSED = {"store-tampered", "nonce-spent", "tampered", "exit 2"}


def _check(cells: list[Cell], backend: str) -> None:
    assert cells and {c.backend for c in cells} == {backend}
    for c in cells:
        if c.limit:
            assert c.tamper == LIMIT and c.effects == 1, c  # the limit as documented: found nowhere in the store
        else:
            assert c.effects == 0, c
            assert c.tamper in TAMPERS or (c.tamper == LIMIT and c.answer in REFUSED), c
            if c.answer not in REFUSED:  # a deleted reservation: nothing left to release; verify names it
                assert (c.rows, c.tamper, c.use, c.answer) == ("reservations", "delete", "recover", "recovered 0"), c
    rows = {(c.store, c.rows) for c in cells}
    assert {("nonce store", r) for r in ("reservations", "nonces", "approvals")} <= rows
    assert {("attempt store", "attempts"), ("attempt store", "reviews")} <= rows
    for c in cells:  # every tampered row is found by verify, too
        if not c.limit and c.use in ("verify", PINNED):  # PINNED: the limit, found against a kept head
            assert c.answer in {"tampered", "exit 2"}, c
    limits = {(c.store, c.rows) for c in cells if c.limit}
    assert limits == {("nonce store", "nonces"), ("attempt store", "attempts")}


def test_no_effect_from_a_tampered_row_on_sqlite(tmp_path: Path) -> None:
    cells = matrix(tmp_path, "sqlite", sqlite_target, SCRIPT, cli=invoke)
    _check(cells, "sqlite")
    edit = [c for c in cells if c.rows == "edit steps"]
    assert {(c.tamper, c.use) for c in edit} == {(t, u) for t in TAMPERS for u in ("resume", "verify")}
    assert all(c.answer == "exit 2" and c.line.startswith("error:") for c in edit)


def test_no_effect_from_a_tampered_row_on_postgres(pg_server: Any, tmp_path: Path) -> None:
    from tests.postgres import fresh_schema

    _check(matrix(tmp_path, "postgres", lambda _: Target(pg_server.dsn, fresh_schema())), "postgres")
