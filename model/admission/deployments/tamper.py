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
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from model.admission.decision.nonces import Leasing, Reservation, SqliteNonceStore
from model.admission.deployments.release_deployment import Pipeline
from model.admission.deployments.tamper_attempts import Cli, attempt_cells, edit_cells
from model.admission.deployments.tamper_rows import (
    HEADER,
    LIMIT,
    NOW,
    PINNED,
    RESTARTED,
    SAME_PROCESS,
    TAMPERS,
    Cell,
    Target,
    answer_of,
)
from model.admission.refusal import Refusal
from model.admission.release.authorization import load_authorization
from model.admission.release.gateway import Authorized, ReleaseGate
from model.admission.signatures.hybrid import public_keys
from model.admission.signatures.sealing import Tampered
from model.admission.tools import ToolRegistry
from model.base.canonical import JSON

__all__ = ["HEADER", "LIMIT", "PINNED", "RESTARTED", "SAME_PROCESS", "TAMPERS", "Cell", "Target", "matrix",
           "sqlite_target"]


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

    def restart(self) -> None:
        """The gateway restarted: a new connection to the store, nothing remembered of it."""
        self.pipe.nonces = SqliteNonceStore(self.target.path, self.target.schema, key=self.pipe.store_key)
        self.gate = self.gate_as("gw-a", 60.0)

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
            cell(rows, tamper, "run", len(r.effects) - before, answer_of(use))
            cell(rows, tamper, "verify", 0, r.verify())
    # the documented limit: the whole store (every table, its ledger and head) put back as it was
    r = _Release(*new("nonces-limit"))
    old = r.target.dump(("spent", "reservations", "ledger", "heads"))
    auth, tx, _ = r.released(1)
    pin = r.pipe.nonces.head()  # kept outside the store
    r.target.restore(old)
    before = len(r.effects)
    use = r.gate.release(auth, tx, NOW)  # by the gateway that had read the later ledger
    cell("nonces", LIMIT, SAME_PROCESS, len(r.effects) - before, answer_of(use))
    r.restart()
    before = len(r.effects)
    use = r.gate.release(auth, tx, NOW)
    cell("nonces", LIMIT, RESTARTED, len(r.effects) - before, answer_of(use), limit=True)
    try:
        r.pipe.nonces.extends(pin)
        cell("nonces", LIMIT, PINNED, 0, ("intact", ""))
    except Tampered as exc:
        cell("nonces", LIMIT, PINNED, 0, ("tampered", str(exc)))
    return cells


def matrix(root: Path, backend: str, new_target: Callable[[Path], Target], edit_script: Path | None = None,
           tick: Callable[[], None] = lambda: None, cli: Cli | None = None) -> list[Cell]:
    """Every cell on one backend; ``new_target(dir)`` gives a fresh store location for one cell. The edit
    runtime's cells (with ``edit_script``) drive its command line through ``cli``."""
    def new(name: str) -> tuple[Path, Target]:
        d = root / f"{backend}-{name}"
        d.mkdir()
        return d, new_target(d)

    cells = _nonce_cells(backend, new)
    tick()
    cells += attempt_cells(backend, new)
    tick()
    if edit_script is not None:
        if cli is None:
            raise ValueError("matrix: the edit runtime's cells need the command line (cli)")
        cells += edit_cells(root, edit_script, cli)
        tick()
    # temporary directories, server addresses and random ids say nothing: placeholders keep the table stable
    return [replace(c, line=_HEX.sub("ID", re.sub(r"\S*(" + re.escape(str(root)) + r"|postgresql://)\S*", "STORE:",
                                                c.line))) for c in cells]


_HEX = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\b[0-9a-f]{32}\b")


def sqlite_target(d: Path) -> Target:
    return Target(str(d / "store.db"))
