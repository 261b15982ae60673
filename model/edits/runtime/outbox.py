"""The fake tool of session scripts: an outbox that honours idempotency keys (what ``resume`` relies on).

``dispatch`` (Table III) marks the oldest queued request sent; the session driver then hands it to a
tool together with the runtime's idempotency key (``Runtime.dispatch_key``). After a crash the
driver cannot know whether the hand-over happened, so ``resume`` hands every sent, unsettled request
over again with the same key. A real tool must deduplicate on the key; this one does, durably: it is
an SQLite store of its own kind (``DB.outbox`` next to the runtime's store for the CLI) whose
primary key is the idempotency key, so a request is delivered at most once per key and a repeat only
increments ``repeats``. A repeat with the same key but another request is refused, since it would
mean two different effects under one key.

The outbox is bound to its store: it records the store's identity (``bind``), and ``state`` returns
what ``integrity.check_outbox`` compares with the store, so a missing, foreign, truncated or edited
outbox is refused before anything is handed over (a lost outbox would forget what was performed).
A session driver holds it with ``lock``: a second driver of the same store is refused at once
("store busy") instead of interleaving its steps with the first's.
"""

from __future__ import annotations

from typing import Protocol

from model.base.errors import InputKind, InvalidInput
from model.base.store.kinds import Mode, kind
from model.base.store.sqlite import Database
from model.edits.runtime.answers import Sent

KIND = kind("session outbox", 5, 2, """
CREATE TABLE delivered (key TEXT PRIMARY KEY, n INTEGER NOT NULL UNIQUE, record TEXT NOT NULL,
                        action TEXT NOT NULL, request TEXT NOT NULL, repeats INTEGER NOT NULL);
CREATE TABLE meta (id INTEGER PRIMARY KEY CHECK (id = 1), store TEXT NOT NULL)
""")


class Tool(Protocol):
    def deliver(self, key: str, sent: Sent) -> bool: ...


class Outbox:
    def __init__(self, path: str = ":memory:", readonly: bool = False) -> None:
        self.db = Database(path, KIND, Mode.READ if readonly else Mode.OPEN_OR_CREATE)

    def lock(self, store: str) -> None:
        """Hold this outbox (and so its store) for one driver until ``close``; a second is refused."""
        if not self.db.hold():
            raise InvalidInput(store, "a store no other process is driving",
                               "store busy (another run or resume holds its outbox)", InputKind.IO)

    def bind(self, store_id: str) -> None:
        """Record the identity of the store this outbox serves (a new outbox), or check it (a bound one)."""
        with self.db.transaction() as c:
            row = c.execute("SELECT store FROM meta WHERE id = 1").fetchone()
            if row is None and c.execute("SELECT count(*) FROM delivered").fetchone()[0] == 0:
                c.execute("INSERT INTO meta VALUES (1, ?)", (store_id,))
                return
        if row is None or row[0] != store_id:
            raise InvalidInput(self.db.path, "the outbox of this store",
                               "an outbox bound to no store" if row is None else "the outbox of another store",
                               InputKind.VALUE)

    def state(self) -> tuple[str | None, list[tuple[int, str, str, str, str, int]]]:
        """The store identity it is bound to and its deliveries ``(n, key, record, action, request,
        repeats)`` in order, read in one transaction."""
        with self.db.transaction() as c:
            row = c.execute("SELECT store FROM meta WHERE id = 1").fetchone()
            rows = c.execute("SELECT n, key, record, action, request, repeats FROM delivered ORDER BY n").fetchall()
        return (None if row is None else str(row[0])), [(r[0], r[1], r[2], r[3], r[4], r[5]) for r in rows]

    def deliver(self, key: str, sent: Sent) -> bool:
        """Perform the request once per key; True iff this call performed it."""
        with self.db.transaction() as c:
            row = c.execute("SELECT record, action, request FROM delivered WHERE key = ?", (key,)).fetchone()
            if row is not None:
                if tuple(row) != (sent.record, sent.action, sent.request):
                    raise InvalidInput(self.db.path, f"the request first delivered under key {key[:12]}…",
                                       f"another request ({sent.record}, {sent.action})", InputKind.VALUE)
                c.execute("UPDATE delivered SET repeats = repeats + 1 WHERE key = ?", (key,))
                return False
            n = c.execute("SELECT count(*) FROM delivered").fetchone()[0]
            c.execute("INSERT INTO delivered VALUES (?, ?, ?, ?, ?, 0)",
                      (key, n, sent.record, sent.action, sent.request))
        return True

    def deliveries(self) -> list[tuple[str, str, str, str, int]]:
        """``(key, record, action, request, repeats)`` in delivery order."""
        with self.db.transaction() as c:
            rows = c.execute("SELECT key, record, action, request, repeats FROM delivered ORDER BY n").fetchall()
        return [(r[0], r[1], r[2], r[3], r[4]) for r in rows]

    def close(self) -> None:
        self.db.close()
