"""The integrity check of an edit runtime store and of the outbox bound to it: every table covered, so a store or
outbox edited, truncated or swapped by hand is refused before anything is printed, run or dispatched (*When
Can Agents Safely Checkpoint, Fork, Restore, and Merge?*, Section IV-C: the runtime is the trusted shell, so
what it reads back must be what it wrote).

What covers what (choices of ours; the paper has no store):
- ``journal`` and ``state``: the state re-derived from the journal (each row replayed, its digest
  reproduced; replaying needs the key) must equal the stored state row (``model.edits.journal``).
- ``meta``: the store's identity, public key and script digest are signed with the runtime's key when
  the store is created; the store's identity enters every idempotency key, so an edited one would
  re-deliver under new keys.
- ``steps``: each recorded script step ``(idx, seq, answer)`` is signed with the store's identity; the
  indexes run 0, 1, 2, ... with no gap, the sequence numbers never decrease, and every committed state
  change (journal rows 1..n) belongs to exactly the first step recorded at its sequence number, so a
  step row deleted, forged, moved or borrowed from another store is found.
- ``acks``: each delivery the tool acknowledged is recorded, numbered and signed, after the tool
  returned; an acknowledged record must be one the state marks sent.
- ``heads``: the number of ``steps`` and of ``acks`` rows, signed and updated in the transaction that
  adds a row, so the last row of either cannot be dropped unnoticed (a step that changed nothing,
  dropped, would otherwise look like one a crash interrupted before it was recorded).
- The outbox (``model.edits.outbox``) records the identity of its store; its deliveries must be exactly
  the acknowledged ones in order, plus at most one more (a crash between the tool's delivery and the
  acknowledgement), each under the key and with the request the store dispatched. A missing, foreign,
  truncated or edited outbox would let a sent request be performed again, so it is refused.
Signatures rather than bare digests: a digest chain can be recomputed by whoever edits the file; a
signature needs the key, which is never in the store.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass

from model.base.canonical import JSON, digest
from model.base.errors import InputKind, InvalidInput
from model.base.signing import KeyPair, verify_payload
from model.base.store.postgres import PgConnection
from model.edits.runtime import journal
from model.edits.runtime.record import State
from model.edits.runtime.record_json import state_text

#: a transaction's connection on either backend (both take SQLite's ``?`` placeholders)
Conn = sqlite3.Connection | PgConnection


def broken(path: str, what: str) -> InvalidInput:
    return InvalidInput(path, "an intact edit runtime store", what, InputKind.VALUE)


def meta_payload(store_id: str, public: str, script: str | None) -> JSON:
    return {"store": store_id, "public_key": public, "script": script}


def step_payload(store_id: str, idx: int, seq: int, answer: str) -> JSON:
    return {"store": store_id, "step": idx, "seq": seq, "answer": answer}


def ack_payload(store_id: str, n: int, record: str) -> JSON:
    return {"store": store_id, "ack": n, "record": record}


#: the tables whose row count ``heads`` signs
COUNTED = ("steps", "acks")


def count(c: Conn, key: KeyPair, store_id: str, name: str) -> None:
    """Sign the current number of rows of table ``name`` (one of ``COUNTED``) into ``heads``."""
    n = c.execute(f"SELECT count(*) FROM {name}").fetchone()[0]  # name: one of COUNTED, never user text
    # an upsert both SQLite and PostgreSQL read alike
    c.execute("INSERT INTO heads VALUES (?, ?, ?) ON CONFLICT (name) DO UPDATE SET n = excluded.n, sig = excluded.sig",
              (name, n, key.sign(head_payload(store_id, name, n))))


def add_step(c: Conn, key: KeyPair, store_id: str, idx: int, seq: int, text: str,
             replace: bool = True) -> None:
    """Record script step ``idx``'s answer ``text`` at state ``seq``, signed and counted (with
    ``replace=False``, only if the step is not recorded yet)."""
    sig = key.sign(step_payload(store_id, idx, seq, text))
    keep = "" if replace else " ON CONFLICT DO NOTHING"
    cur = c.execute(f"INSERT INTO steps VALUES (?, ?, ?, ?){keep}", (idx, seq, text, sig))
    if cur.rowcount == 1:
        count(c, key, store_id, "steps")


def add_ack(c: Conn, key: KeyPair, store_id: str, record: str) -> None:
    """Record the tool's return from delivering ``record``, once per record, numbered, signed, counted."""
    if c.execute("SELECT 1 FROM acks WHERE record = ?", (record,)).fetchone() is None:
        n = c.execute("SELECT count(*) FROM acks").fetchone()[0]
        c.execute("INSERT INTO acks VALUES (?, ?, ?)", (n, record, key.sign(ack_payload(store_id, n, record))))
        count(c, key, store_id, "acks")


def head_payload(store_id: str, name: str, n: int) -> JSON:
    return {"store": store_id, "table": name, "rows": n}


@dataclass(frozen=True, slots=True)
class Snapshot:
    """Every table of the store, read in one transaction."""

    store_id: str
    public: str
    script: str | None
    meta_sig: str
    journal: list[tuple[int, str, str, str]]
    state: tuple[int, str] | None
    steps: list[tuple[int, int, str, str]]
    acks: list[tuple[int, str, str]]
    heads: dict[str, tuple[int, str]]


def read(c: Conn, path: str) -> Snapshot:
    """Every table, in the caller's transaction."""
    meta = c.execute("SELECT store_id, public_key, script, sig FROM meta WHERE id = 1").fetchone()
    if meta is None:
        raise broken(path, "no meta row")
    return Snapshot(
        str(meta[0]), str(meta[1]), meta[2], str(meta[3]),
        [(r[0], r[1], r[2], r[3]) for r in c.execute("SELECT seq, step, input, digest FROM journal ORDER BY seq")],
        c.execute("SELECT seq, body FROM state WHERE id = 1").fetchone(),
        [(r[0], r[1], r[2], r[3]) for r in c.execute("SELECT idx, seq, answer, sig FROM steps ORDER BY idx")],
        [(r[0], r[1], r[2]) for r in c.execute("SELECT n, record, sig FROM acks ORDER BY n")],
        {r[0]: (r[1], r[2]) for r in c.execute("SELECT name, n, sig FROM heads")})


def check(path: str, key: KeyPair, snap: Snapshot) -> State:
    """The verified state, or ``InvalidInput`` naming the first difference."""
    pub = key.private.public_key()
    if not verify_payload(pub, meta_payload(snap.store_id, snap.public, snap.script), snap.meta_sig):
        raise broken(path, "a meta row that is not the one this store was created with")
    try:
        seq, s = journal.replay(snap.journal, key)
    except journal.Tampered as exc:
        raise broken(path, str(exc)) from None
    if snap.state is None or snap.state[0] != seq or snap.state[1] != state_text(s):
        raise broken(path, f"a state row that differs from the state its journal derives (row {seq})")
    for name, rows in (("steps", snap.steps), ("acks", snap.acks)):
        n, sig = snap.heads.get(name, (-1, ""))
        if n != len(rows) or not verify_payload(pub, head_payload(snap.store_id, name, n), sig):
            raise broken(path, f"{len(rows)} {name} rows where the store counted "
                               f"{n if n >= 0 else 'none'} (a row dropped, added or a count edited)")
    _steps(path, pub, snap, seq)
    sent = {o.record for o in s.out if o.sent}
    for i, (n, record, sig) in enumerate(snap.acks):
        if n != i or not verify_payload(pub, ack_payload(snap.store_id, n, record), sig) or record not in sent:
            raise broken(path, f"an acknowledged delivery that the store did not make (acks row {n})")
    return s


def _steps(path: str, pub: object, snap: Snapshot, seq: int) -> None:
    if snap.script is None:
        if snap.steps:
            raise broken(path, "script steps in a store created without a script")
        return
    seen: set[int] = set()
    last = 0
    for i, (idx, at, answer, sig) in enumerate(snap.steps):
        where = f"steps row {idx}"
        if idx != i:
            raise broken(path, f"script steps recorded 0, 1, 2, ... (row {i} is missing)")
        if not verify_payload(pub, step_payload(snap.store_id, idx, at, answer), sig):  # type: ignore[arg-type]
            raise broken(path, f"a {where} that the runtime did not write")
        if at < last or at > seq:
            raise broken(path, f"a {where} out of order (state {at} after {last})")
        seen.add(at)
        last = at
    if not snap.steps or seen != set(range(seq + 1)):
        missing = sorted(set(range(seq + 1)) - seen)
        raise broken(path, f"a script step for every committed state change (none for journal row "
                           f"{missing[0] if missing else 0})")


def dispatch_key(store_id: str, record: str) -> str:
    """The idempotency key a tool receives with the request of authorization record ``record``."""
    return digest({"store": store_id, "record": record})


def check_outbox(path: str, store_id: str, bound: str | None, deliveries: Sequence[tuple[int, str, str, str, str, int]],
                 acks: Sequence[str], s: State) -> None:
    """The outbox at ``path`` (``bound``: the store identity it records; ``deliveries``: its rows
    ``(n, key, record, action, request, repeats)`` in order) against its store's acknowledged records
    ``acks`` and state ``s``."""
    def bad(what: str) -> InvalidInput:
        return InvalidInput(path, "the outbox of this store", what, InputKind.VALUE)

    if bound is None:
        raise bad("an outbox bound to no store")
    if bound != store_id:
        raise bad("the outbox of another store")
    records = {r.id: r for r in s.log}
    sent = {o.record for o in s.out if o.sent}
    for i, (n, k, record, action, request, repeats) in enumerate(deliveries):
        rec = records.get(record)
        if n != i or repeats < 0 or rec is None or record not in sent or k != dispatch_key(store_id, record) \
                or (action, request) != (rec.action, rec.request):
            raise bad(f"a delivery the store did not dispatch (outbox row {i})")
    done = [d[2] for d in deliveries]
    if done[:len(acks)] != list(acks) or len(done) > len(acks) + 1:
        raise bad(f"{len(done)} deliveries where the store acknowledged {len(acks)} (an outbox truncated, "
                  "edited or replaced)")
