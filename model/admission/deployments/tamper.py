"""The tamper matrix: an attacker who can edit, delete, copy or reorder the rows of a store, or roll
them back, and then the store is used — to run a new release or decision, to recover a reservation,
to replay an attempt, to resume an edit session, or to verify the store. Each cell builds a fresh
store, tampers with it by plain SQL (as a holder of the SQLite file or of a PostgreSQL role would),
uses it once, and counts the effects the tools performed during that use. An effect from a tampered
row is one the store's writer did not authorize; the matrix's claim is that there are none, except
in the cells marked as the documented limit (a whole store rolled back to an older copy of itself,
which no check of the store alone can tell from the older store; ``docs/threat-model.md``).

Row kinds (and the table each cell edits): reservations (``reservations``), nonces (``spent`` rows
of authorization nonces), approvals (``spent`` rows of approval nonces), attempts (``attempts``),
reviews (``reviews``), edit steps (the edit runtime's ``steps``). Permits are not stored (a permit
travels with each replay and is verified there), so they have no row to tamper with. Cells that do
not apply to a row kind (reordering a set of spent nonces, rolling back a row that has one
version) are left out rather than filled.

Answers: the API uses answer with a refusal reason and its one-line detail, or a ``Tampered`` line
from ``verify``; the edit runtime's cells go through the ``agentwarrant edit session`` command line
and report its exit code and first line.
"""

from __future__ import annotations

import json
import re
import shutil
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from model.admission.decision.nonces import Leasing, Reservation
from model.admission.deployments.deployment import APPROVER, EPOCH, World, publish_request
from model.admission.deployments.release_deployment import Pipeline
from model.admission.refusal import Refusal
from model.admission.release.authorization import load_authorization
from model.admission.release.gateway import Authorized, ReleaseGate
from model.admission.resumable.admission_service import Held
from model.admission.resumable.attempt_store import AttemptStore
from model.admission.signatures.hybrid import public_keys
from model.admission.signatures.sealing import Tampered
from model.admission.tools import ToolRegistry
from model.canonical import JSON

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
TAMPERS = ("edit", "delete", "copy", "reorder", "roll back")
#: the tamper the stores cannot detect by themselves (module docstring)
LIMIT = "roll back (whole store)"


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


def _answer(out: object) -> tuple[str, str]:
    if isinstance(out, Refusal):
        return out.reason.value, out.detail
    return type(out).__name__, ""


# --- the nonce store: reservations, nonces, approvals ---------------------------------------------


class _Release:
    """A pipeline whose gate leases, with a tool that counts its effects."""

    def __init__(self, root: Path, target: Target) -> None:
        self.target = target
        self.pipe = Pipeline(root, NOW, nonces_at=target.path, nonces_schema=target.schema)
        self.effects: list[JSON] = []
        self.gate = self.gate_as("gw-a", 60.0)

    def gate_as(self, holder: str, lease: float) -> ReleaseGate:
        def refund(intent: JSON) -> JSON:
            self.effects.append(intent)
            return {"refunded": True}

        return ReleaseGate(self.pipe.gov, ToolRegistry({"paytm:refund": refund}), public_keys(self.pipe.runtime_key),
                           self.pipe.records, self.pipe.nonces, leasing=Leasing(self.pipe.nonces, holder, lease))

    def authorized(self, i: int, amount: float = 120) -> tuple[dict[str, JSON], dict[str, JSON]]:
        order = f"order-{i}"
        tx = self.pipe.transaction(order=order, amount=amount, approval=self.pipe.approval(order=order, nonce=f"n-{i}"))
        out = self.pipe.runtime.decide(tx, NOW)
        if not isinstance(out, Authorized):
            raise RuntimeError(f"the tamper matrix's set-up decision was refused: {out}")
        return out.authorization, tx

    def dead(self, i: int) -> str:
        """A reservation whose gateway died after spending, before releasing: its lease is over."""
        auth, tx = self.authorized(i)
        token = f"tok-dead-{i}"
        request = json.dumps({"authorization": auth, "transaction": tx}, sort_keys=True)
        spent = [("authorization", load_authorization(auth).nonce), ("approval", f"alice/n-{i}")]
        if self.pipe.nonces.spend_all(spent, NOW, (Reservation(token, request, "gw-dead"), 0.0)) is not None:
            raise RuntimeError("the tamper matrix's set-up spend was refused")
        return token

    def released(self, i: int) -> tuple[dict[str, JSON], dict[str, JSON], str]:
        auth, tx = self.authorized(i)
        out = self.gate.release(auth, tx, NOW)
        if isinstance(out, Refusal):
            raise RuntimeError(f"the tamper matrix's set-up release was refused: {out}")
        token = str(self.target.sql("SELECT token FROM reservations WHERE finished_at IS NOT NULL")[-1][0])
        return auth, tx, token

    def recover(self) -> tuple[int, str, str]:
        before = len(self.effects)
        refusals = len(self.pipe.records.all("refusal"))
        done = self.gate_as("gw-b", 60.0).recover(NOW)
        made = len(self.effects) - before
        refused = self.pipe.records.all("refusal")[refusals:]
        if refused:
            rec = refused[0]
            body = rec["payload"]["body"] if isinstance(rec, dict) and isinstance(rec["payload"], dict) else None
            assert isinstance(body, dict)
            return made, str(body["reason"]), str(body["detail"])
        return made, f"recovered {done}", ""

    def verify(self) -> tuple[str, str]:
        try:
            self.pipe.nonces.verify()
        except Tampered as exc:
            return "tampered", str(exc)
        return "intact", ""


def _nonce_cells(backend: str, new: Callable[[str], tuple[Path, Target]]) -> list[Cell]:
    cells: list[Cell] = []

    def cell(rows: str, tamper: str, use: str, effects: int, answer: tuple[str, str], limit: bool = False) -> None:
        cells.append(Cell(backend, "nonce store", rows, tamper, use, effects, answer[0], answer[1], limit))

    def recover_and_verify(rows: str, tamper: str, r: _Release) -> None:
        made, reason, line = r.recover()
        cell(rows, tamper, "recover", made, (reason, line))
        cell(rows, tamper, "verify", 0, r.verify())

    # reservations
    r = _Release(*new("res-edit"))
    tok = r.dead(1)
    auth, tx = r.authorized(2, amount=400)  # another authorization, its request put in the dead row in clear
    forged = dict(tx)
    forged["intent"] = {"action": "paytm:refund", "target": "attacker", "params": {"amount": 499}}
    r.target.sql("UPDATE reservations SET request = ? WHERE token = ?",
                 (json.dumps({"authorization": auth, "transaction": forged}, sort_keys=True), tok))
    recover_and_verify("reservations", "edit", r)

    r = _Release(*new("res-delete"))
    tok = r.dead(1)
    r.target.sql("DELETE FROM reservations WHERE token = ?", (tok,))
    recover_and_verify("reservations", "delete", r)

    r = _Release(*new("res-copy"))
    _, _, tok = r.released(1)
    r.target.sql("INSERT INTO reservations SELECT 'tok-copy', request, holder, 0, NULL FROM reservations "
                 "WHERE token = ?", (tok,))
    recover_and_verify("reservations", "copy", r)

    r = _Release(*new("res-reorder"))
    a, b = r.dead(1), r.dead(2)
    ra, rb = (r.target.sql("SELECT request FROM reservations WHERE token = ?", (t,))[0][0] for t in (a, b))
    r.target.sql("UPDATE reservations SET request = ? WHERE token = ?", (rb, a))
    r.target.sql("UPDATE reservations SET request = ? WHERE token = ?", (ra, b))
    recover_and_verify("reservations", "reorder", r)

    r = _Release(*new("res-rollback"))
    _, _, tok = r.released(1)
    r.target.sql("UPDATE reservations SET finished_at = NULL, lease_until = 0 WHERE token = ?", (tok,))
    recover_and_verify("reservations", "roll back", r)

    # nonces (authorization) and approvals: spent rows
    for rows, ns in (("nonces", "authorization"), ("approvals", "approval")):
        for tamper in ("edit", "delete", "copy"):
            r = _Release(*new(f"{rows}-{tamper}"))
            auth, tx, _ = r.released(1)
            spent = [(ns, load_authorization(auth).nonce if ns == "authorization" else "alice/n-1")]
            if ns == "authorization":  # to release the same authorization again, its approval must look unspent too
                spent.append(("approval", "alice/n-1"))
            if tamper == "copy":  # a spent row copied onto the nonce of an authorization not yet released
                auth, tx = r.authorized(2)
                fresh = load_authorization(auth).nonce if ns == "authorization" else "alice/n-2"
                r.target.sql("INSERT INTO spent SELECT namespace, ?, spent_at FROM spent WHERE namespace = ? "
                             "AND nonce = ?", (fresh, ns, spent[0][1]))
            for space, nonce in spent if tamper != "copy" else ():
                if tamper == "edit":
                    r.target.sql("UPDATE spent SET nonce = ? WHERE namespace = ? AND nonce = ?",
                                 (nonce + "x", space, nonce))
                else:
                    r.target.sql("DELETE FROM spent WHERE namespace = ? AND nonce = ?", (space, nonce))
            before = len(r.effects)
            if ns == "approval" and tamper != "copy":  # the approval presented again, for a new decision
                again = r.pipe.runtime.decide(tx, NOW)
                use: object = r.gate.release(again.authorization, tx, NOW) if isinstance(again, Authorized) else again
            else:
                use = r.gate.release(auth, tx, NOW)
            cell(rows, tamper, "run", len(r.effects) - before, _answer(use))
            cell(rows, tamper, "verify", 0, r.verify())
    # the documented limit: the whole store (every table, its ledger and head) put back as it was
    r = _Release(*new("nonces-limit"))
    old = r.target.dump(("spent", "reservations", "ledger", "heads"))
    auth, tx, _ = r.released(1)
    r.target.restore(old)
    before = len(r.effects)
    use = r.gate.release(auth, tx, NOW)
    cell("nonces", LIMIT, "run", len(r.effects) - before, _answer(use), limit=True)
    return cells


# --- the attempt store: attempts and reviews --------------------------------------------------


def _attempt_cells(backend: str, new: Callable[[str], tuple[Path, Target]]) -> list[Cell]:
    cells: list[Cell] = []

    def world(name: str) -> tuple[World, Target]:
        _, t = new(name)
        return World(AttemptStore(t.path, t.schema)), t

    def held(w: World, body: JSON = None, approve: bool = True) -> str:
        out = w.admission.submit(publish_request(body=body), EPOCH)
        if not isinstance(out, Held):
            raise RuntimeError(f"the tamper matrix's set-up hold was refused: {out}")
        if approve and isinstance(w.approvals.decide(out.attempt_id, APPROVER, True, EPOCH), Refusal):
            raise RuntimeError("the tamper matrix's set-up approval was refused")
        return out.attempt_id

    def use(rows: str, tamper: str, w: World, aid: str) -> None:
        before = len(w.effects)
        out = w.replays.replay(aid, publish_request().identity, EPOCH)
        reason, line = _answer(out)
        cells.append(Cell(backend, "attempt store", rows, tamper, "replay", len(w.effects) - before, reason, line))
        try:
            w.store.verify()
            cells.append(Cell(backend, "attempt store", rows, tamper, "verify", 0, "intact", ""))
        except Tampered as exc:
            cells.append(Cell(backend, "attempt store", rows, tamper, "verify", 0, "tampered", str(exc)))

    w, t = world("att-edit")
    aid = held(w)
    t.sql("UPDATE attempts SET body = ? WHERE id = ?", (json.dumps({"resource": "payroll", "title": "all"}), aid))
    use("attempts", "edit", w, aid)

    w, t = world("att-delete")
    aid = held(w)
    t.sql("DELETE FROM attempts WHERE id = ?", (aid,))
    use("attempts", "delete", w, aid)

    w, t = world("att-copy")
    aid = held(w)
    w.replays.replay(aid, publish_request().identity, EPOCH)  # ran once: completed
    t.sql("INSERT INTO attempts SELECT 'copy-1', tenant, principal, credential, method, path, query, body, "
          "body_digest, 'approved', approver, NULL, created_at FROM attempts WHERE id = ?", (aid,))
    use("attempts", "copy", w, "copy-1")

    w, t = world("att-reorder")
    a = held(w)
    b = held(w, {"resource": "report-7", "title": "draft, never approved"}, approve=False)
    ba, bb = (t.sql("SELECT body, body_digest FROM attempts WHERE id = ?", (x,))[0] for x in (a, b))
    t.sql("UPDATE attempts SET body = ?, body_digest = ? WHERE id = ?", (bb[0], bb[1], a))
    t.sql("UPDATE attempts SET body = ?, body_digest = ? WHERE id = ?", (ba[0], ba[1], b))
    use("attempts", "reorder", w, a)

    w, t = world("att-rollback")
    aid = held(w)
    w.replays.replay(aid, publish_request().identity, EPOCH)
    t.sql("UPDATE attempts SET state = 'approved', result = NULL WHERE id = ?", (aid,))
    use("attempts", "roll back", w, aid)

    w, t = world("rev-edit")
    aid = held(w)
    t.sql("UPDATE reviews SET approver = 'mallory' WHERE attempt_id = ?", (aid,))
    use("reviews", "edit", w, aid)

    w, t = world("rev-delete")
    aid = held(w)
    t.sql("DELETE FROM reviews WHERE attempt_id = ?", (aid,))
    use("reviews", "delete", w, aid)

    w, t = world("rev-copy")
    a = held(w)
    b = held(w, approve=False)
    cols = "approver, decision, context, at"
    t.sql(f"INSERT INTO reviews ({'attempt_id, ' + cols}) SELECT ?, {cols} FROM reviews WHERE attempt_id = ?", (b, a))
    t.sql("UPDATE attempts SET state = 'approved', approver = ? WHERE id = ?", (APPROVER, b))
    use("reviews", "copy", w, b)

    w, t = world("rev-reorder")
    a = held(w)
    b = held(w, approve=False)
    if isinstance(w.approvals.decide(b, "bob", False, EPOCH), Refusal):
        raise RuntimeError("the tamper matrix's set-up rejection was refused")
    t.sql("UPDATE reviews SET attempt_id = CASE WHEN attempt_id = ? THEN ? ELSE ? END", (a, b, a))
    t.sql("UPDATE attempts SET state = CASE WHEN id = ? THEN 'approved' ELSE 'rejected' END", (b,))
    use("reviews", "reorder", w, b)

    w, t = world("att-limit")  # the documented limit: the whole store put back to before a replay
    aid = held(w)
    old = t.dump(("attempts", "reviews", "ledger", "heads"))
    w.replays.replay(aid, publish_request().identity, EPOCH)
    t.restore(old)
    before = len(w.effects)
    reason, line = _answer(w.replays.replay(aid, publish_request().identity, EPOCH))
    cells.append(Cell(backend, "attempt store", "attempts", LIMIT, "replay", len(w.effects) - before, reason, line,
                      limit=True))
    return cells


# --- the edit runtime's steps (SQLite: its command line) -----------------------------------------


def _edit_cells(root: Path, script: Path) -> list[Cell]:
    from click.testing import CliRunner

    from model.cli import main
    from model.edits.runtime.outbox import Outbox

    made = root / "edit-made"
    made.mkdir()
    res = CliRunner().invoke(main, ["edit", "session", str(made / "s.db"), "run", str(script)])
    if res.exit_code != 0:
        raise RuntimeError(f"the tamper matrix's edit session failed: {res.output}")

    def deliveries(d: Path) -> int:
        box = Outbox(str(d / "s.db.outbox"), readonly=True)
        try:
            return sum(1 + r[4] for r in box.deliveries())
        finally:
            box.close()

    tampers: dict[str, str] = {
        "edit": "UPDATE steps SET answer = replace(answer, '\"new\"', '\"old\"') WHERE idx = 1",
        "delete": "DELETE FROM steps WHERE idx = (SELECT max(idx) FROM steps)",
        "copy": "INSERT INTO steps SELECT (SELECT max(idx) + 1 FROM steps), seq, answer, sig FROM steps WHERE idx = 1",
        "reorder": "UPDATE steps SET idx = -1 WHERE idx = 1; UPDATE steps SET idx = 1 WHERE idx = 2; "
                   "UPDATE steps SET idx = 2 WHERE idx = -1",
        # the steps and their signed count put back to an earlier pair (the last step and its count)
        "roll back": "DELETE FROM steps WHERE idx = (SELECT max(idx) FROM steps); "
                     "UPDATE heads SET n = n - 1 WHERE name = 'steps'",
    }
    cells = []
    for tamper, stmts in tampers.items():
        for use in ("resume", "verify"):
            d = root / f"edit-{tamper.replace(' ', '-')}-{use}"
            shutil.copytree(made, d)
            for stmt in stmts.split("; "):
                Target(str(d / "s.db")).sql(stmt)
            before = deliveries(d)
            args = ["resume", str(script)] if use == "resume" else ["show"]
            res = CliRunner().invoke(main, ["edit", "session", str(d / "s.db"), *args])
            lines = [ln for ln in res.output.splitlines() if ln.strip()]
            cells.append(Cell("sqlite", "edit runtime store", "edit steps", tamper, use, deliveries(d) - before,
                              f"exit {res.exit_code}", lines[0] if lines else ""))
    return cells


def matrix(root: Path, backend: str, new_target: Callable[[Path], Target], edit_script: Path | None = None,
           tick: Callable[[], None] = lambda: None) -> list[Cell]:
    """Every cell on one backend; ``new_target(dir)`` gives a fresh store location for one cell."""
    def new(name: str) -> tuple[Path, Target]:
        d = root / f"{backend}-{name}"
        d.mkdir()
        return d, new_target(d)

    cells = _nonce_cells(backend, new)
    tick()
    cells += _attempt_cells(backend, new)
    tick()
    if edit_script is not None:
        cells += _edit_cells(root, edit_script)
        tick()
    # temporary directories, server addresses and random ids say nothing: placeholders keep the table stable
    return [replace(c, line=_HEX.sub("ID", re.sub(r"\S*(" + re.escape(str(root)) + r"|postgresql://)\S*", "STORE:",
                                                c.line))) for c in cells]


_HEX = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\b[0-9a-f]{32}\b")


def sqlite_target(d: Path) -> Target:
    return Target(str(d / "store.db"))
