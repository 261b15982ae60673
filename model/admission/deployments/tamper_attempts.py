"""The tamper matrix's cells of the attempt store (attempts, reviews; used by replay and verify) and of
the edit runtime's steps (used by ``edit session resume`` and ``show``, the runtime's verifier).
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

from model.admission.deployments.deployment import APPROVER, EPOCH, World, publish_request
from model.admission.deployments.tamper_rows import LIMIT, PINNED, RESTARTED, SAME_PROCESS, Cell, Target, answer_of
from model.admission.refusal import Refusal
from model.admission.resumable.admission_service import Held
from model.admission.resumable.attempt_store import AttemptStore
from model.admission.signatures.sealing import Tampered
from model.base.canonical import JSON

# --- the attempt store: attempts and reviews --------------------------------------------------


def attempt_cells(backend: str, new: Callable[[str], tuple[Path, Target]]) -> list[Cell]:
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
        reason, line = answer_of(out)
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
    pin = w.store.head()  # kept outside the store
    t.restore(old)
    for how, fresh in ((SAME_PROCESS, False), (RESTARTED, True)):
        if fresh:  # a restarted process: a new connection, nothing remembered of the store
            w = World(AttemptStore(t.path, t.schema))
        before = len(w.effects)
        reason, line = answer_of(w.replays.replay(aid, publish_request().identity, EPOCH))
        cells.append(Cell(backend, "attempt store", "attempts", LIMIT, how, len(w.effects) - before, reason, line,
                          limit=fresh))
    try:
        w.store.extends(pin)
        cells.append(Cell(backend, "attempt store", "attempts", LIMIT, PINNED, 0, "intact", ""))
    except Tampered as exc:
        cells.append(Cell(backend, "attempt store", "attempts", LIMIT, PINNED, 0, "tampered", str(exc)))
    return cells


# --- the edit runtime's steps (SQLite: its command line) -----------------------------------------

Cli = Callable[[list[str]], tuple[int, str]]



def edit_cells(root: Path, script: Path, cli: Cli) -> list[Cell]:
    """The edit runtime's steps tampered with, then used through the command line: ``cli(args)`` runs
    ``agentwarrant ARGS`` and gives its exit code and output (the shell layer passes it in)."""
    from model.edits.runtime.outbox import Outbox

    made = root / "edit-made"
    made.mkdir()
    code, text = cli(["edit", "session", str(made / "s.db"), "run", str(script)])
    if code != 0:
        raise RuntimeError(f"the tamper matrix's edit session failed: {text}")

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
            code, text = cli(["edit", "session", str(d / "s.db"), *args])
            lines = [ln for ln in text.splitlines() if ln.strip()]
            cells.append(Cell("sqlite", "edit runtime store", "edit steps", tamper, use, deliveries(d) - before,
                              f"exit {code}", lines[0] if lines else ""))
    return cells


