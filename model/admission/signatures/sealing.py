"""Sealed stores: every write that can authorize an effect is an entry of a hash-chained ledger whose
head (length and last link) is signed, so a row edited, deleted, copied, reordered or rolled back
by someone who can write the store but does not hold the key is found when the row is used.

This is the edit runtime's mechanism (``model.edits.runtime.integrity``: rows signed with the
runtime key, a signed ``heads`` row counting them, updated in the transaction that adds a row),
carried to the admission stores (the nonce store's spends and reservations, the attempt store's
envelopes, state transitions and reviews) with one change where those stores differ: several
gateways write one store at once, and a store is read while others append. So the rows are not
signed one by one; they are chained (each entry's link is the SHA-256 of the previous link and the
entry) and only the head is signed. An append first locks the head row (an ``UPDATE`` of it: a row
lock on PostgreSQL, SQLite's write lock is already held), so appends serialize; a reader reads the
head and then only the entries it covers (``seq <= n``), so an append committed in between (a
READ COMMITTED statement sees it) does not look like tampering. Each use checks the head's signature
and hashes the entries appended since the store object last verified its ledger (the verified prefix
is kept, and the first new entry must chain from it); ``verify`` hashes the whole ledger again. A
head behind the kept prefix means the store was rolled back or replaced while open: refused.

The tables a store queries (``spent``, ``reservations``, ``attempts``, ``reviews``) stay as they
were, for lookups, uniqueness and leases; what a use decides is taken from, or compared with, the
verified ledger, never from those tables alone.

Choices where the sources are silent:
- The head signs ``{"store", "table": "ledger", "rows", "link"}`` (the edit runtime's head payload
  plus the last link) under the store's key; ``store`` is a random identity drawn when the store is
  sealed, so entries and heads of one store do not pass as another's, except when a whole store is
  copied over another sealed with the same key (see below).
- A store with no head and no rows is sealed on its first keyed open. A store with rows and no head
  (an older, unsealed version; or a head deleted by hand) is refused unless opened with ``adopt``:
  adopting trusts the rows as they stand, an operator's decision at migration.
- What cannot be detected from the store alone: a whole store replaced by an older copy of itself
  (its head is a valid old head), or emptied together with its head (an empty store looks new), or
  another store sealed with the same key copied over it. Pinning the head outside the store
  (``head``, later ``extends``) detects all three; each entry carries a random draw so that a
  history rolled back and then repeated step for step does not reproduce the pinned links.
- Secrets in a stored request: ``seal_text``/``open_text`` encrypt it (AES-256-GCM under a key
  derived from the store's signing key by HKDF-SHA256, the row's own key as associated data), so the
  store holds no plaintext a request carried, and a ciphertext moved to another row does not open.
"""

from __future__ import annotations

import base64
import os
import sqlite3
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from cryptography.hazmat.primitives.serialization import Encoding, NoEncryption, PrivateFormat

from model.base.canonical import JSON, canonical_str, digest, loads
from model.base.errors import InvalidInput
from model.base.signing import KeyPair, verify_payload
from model.base.store.postgres import PgConnection, PgDatabase
from model.base.store.sqlite import Database

Conn = sqlite3.Connection | PgConnection

LEDGER = """
CREATE TABLE ledger (seq BIGINT PRIMARY KEY, entry TEXT NOT NULL, link TEXT NOT NULL);
CREATE TABLE heads (name TEXT PRIMARY KEY, store TEXT NOT NULL, n BIGINT NOT NULL, link TEXT NOT NULL,
  sig TEXT NOT NULL)
"""


class Tampered(Exception):
    """A store row that its key did not write: one line naming the store and what differs."""

    def __init__(self, where: str, what: str) -> None:
        super().__init__(f"{where}: tampered store: {what}")
        self.where, self.what = where, what


def head_payload(store_id: str, n: int, link: str) -> JSON:
    return {"store": store_id, "table": "ledger", "rows": n, "link": link}


def chain(link: str, entry_text: str) -> str:
    return digest({"prev": link, "entry": entry_text})


@dataclass(frozen=True, slots=True)
class Head:
    store: str
    n: int
    link: str


_PROCESS_KEY: list[KeyPair] = []


def process_key() -> KeyPair:
    """The key of a store opened without one: drawn once per process, so the stores it seals verify
    within the process and are refused by any other (a deployment passes its own key)."""
    if not _PROCESS_KEY:
        _PROCESS_KEY.append(KeyPair.generate("process-store-key"))
    return _PROCESS_KEY[0]


class Sealed:
    """The ledger of one store, in its caller's transactions."""

    def __init__(self, key: KeyPair, where: str) -> None:
        self.key, self.where = key, where
        self._known: tuple[str, int, str, list[JSON]] | None = None  # store, length, link, entries verified
        raw = key.private.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption())
        self._aead = AESGCM(HKDF(hashes.SHA256(), 32, None, b"agentwarrant sealed store text").derive(raw))

    def begin(self, c: Conn, adopt: Callable[[], Sequence[JSON]] | None, has_rows: bool) -> None:
        """Seal a new store, or check an existing one's head; ``adopt`` gives the entries of an
        unsealed store's rows when the caller chose to adopt them."""
        row = c.execute("SELECT store, n, link, sig FROM heads WHERE name = 'ledger'").fetchone()
        if row is not None:
            self._verified_head(row)
            return
        if c.execute("SELECT 1 FROM ledger").fetchone() is not None or (has_rows and adopt is None):
            raise Tampered(self.where, "rows but no signed head (an unsealed or edited store; open it with adopt "
                                       "to trust its rows as they stand)")
        store = str(uuid.uuid4())
        cur = c.execute("INSERT INTO heads VALUES ('ledger', ?, 0, '', ?) ON CONFLICT DO NOTHING",
                        (store, self.key.sign(head_payload(store, 0, ""))))
        if cur.rowcount != 1:  # another opener sealed it first (PostgreSQL: its insert committed meanwhile)
            self.head(c)
            return
        if adopt is not None:
            self.append(c, adopt())

    def _verified_head(self, row: Sequence[object]) -> Head:
        store, n, link, sig = str(row[0]), row[1], str(row[2]), row[3]
        if not isinstance(n, int) or not verify_payload(self.key.public, head_payload(store, n, link), sig):
            raise Tampered(self.where, "a ledger head its key did not sign (edited, or another key's store)")
        return Head(store, n, link)

    def head(self, c: Conn) -> Head:
        row = c.execute("SELECT store, n, link, sig FROM heads WHERE name = 'ledger'").fetchone()
        if row is None:
            raise Tampered(self.where, "no ledger head (deleted)")
        return self._verified_head(row)

    def extends(self, c: Conn, pin: Head) -> None:
        """``Tampered`` unless the verified ledger still holds ``pin`` (a head read earlier and kept
        outside the store): the same store, at least as long, with the same link at the pin's length.
        A store rolled back to before the pin, emptied, or replaced by another store fails this."""
        h = self.head(c)
        self.entries(c)
        row = c.execute("SELECT link FROM ledger WHERE seq = ?", (pin.n,)).fetchone() if pin.n else ("",)
        if h.store != pin.store or h.n < pin.n or row is None or str(row[0]) != pin.link:
            raise Tampered(self.where, f"a ledger that does not extend the pinned head (entry {pin.n} of store "
                                       f"{pin.store}): rolled back, emptied or replaced")

    def entries(self, c: Conn, full: bool = False) -> list[JSON]:
        """Every entry the signed head covers, checked link by link, in order. The prefix verified by an
        earlier call is kept and only what was appended since is read (its first new entry must chain
        from the kept link, so the signed head vouches for the kept prefix too); ``full`` reads and
        checks everything again. A head behind what was kept — the store rolled back or replaced
        while this process had it open — is ``Tampered``."""
        h = self.head(c)
        k = self._known
        if k is not None and (k[0] != h.store or k[1] > h.n):
            raise Tampered(self.where, f"a ledger of {h.n} entries where this process read {k[1]} "
                                       "(rolled back or replaced)")
        start, link, out = (0, "", []) if full or k is None else (k[1], k[2], list(k[3]))
        rows = c.execute("SELECT seq, entry, link FROM ledger WHERE seq > ? AND seq <= ? ORDER BY seq",
                         (start, h.n)).fetchall()
        for i, (seq, text, stored) in enumerate(rows, start=start + 1):
            if seq != i:
                raise Tampered(self.where, f"ledger entry {i} missing (deleted or renumbered)")
            link = chain(link, str(text))
            if link != stored:
                raise Tampered(self.where, f"ledger entry {i} differs from the one chained (edited or reordered)")
            out.append(loads(str(text), f"{self.where} ledger entry {i}"))
        if start + len(rows) != h.n or link != h.link:
            raise Tampered(self.where, f"{start + len(rows)} ledger entries where the signed head covers {h.n} "
                                       "(entries deleted)")
        self._known = (h.store, h.n, h.link, out)
        return out

    def append(self, c: Conn, entries: Sequence[JSON]) -> None:
        """Chain ``entries`` after the head and sign the new head, in the caller's transaction."""
        if not entries:
            return
        c.execute("UPDATE heads SET n = n WHERE name = 'ledger'")  # the row lock that serializes appends
        h = self.head(c)
        n, link = h.n, h.link
        for e in entries:
            # a random draw in every entry: a history rolled back and written again differs from the
            # first one, so a pinned head tells the two apart even when the same steps were repeated
            text = canonical_str({**e, "draw": uuid.uuid4().hex} if isinstance(e, dict) else e)
            n += 1
            link = chain(link, text)
            c.execute("INSERT INTO ledger VALUES (?, ?, ?)", (n, text, link))
        c.execute("UPDATE heads SET n = ?, link = ?, sig = ? WHERE name = 'ledger'",
                  (n, link, self.key.sign(head_payload(h.store, n, link))))

    def seal_text(self, text: str, row_key: str) -> str:
        nonce = os.urandom(12)
        return base64.b64encode(nonce + self._aead.encrypt(nonce, text.encode("utf-8"), row_key.encode("utf-8"))
                                ).decode("ascii")

    def open_text(self, sealed: str, row_key: str) -> str:
        try:
            raw = base64.b64decode(sealed.encode("ascii"), validate=True)
            return self._aead.decrypt(raw[:12], raw[12:], row_key.encode("utf-8")).decode("utf-8")
        except (InvalidTag, ValueError, UnicodeError):
            raise Tampered(self.where, f"the sealed text of row {row_key} does not open (edited or moved)") from None


class SealedStore:
    """What a sealed store offers beyond its own uses: its head, to pin, and the check against a pin."""

    db: Database | PgDatabase
    seal: Sealed

    def head(self) -> Head:
        """The verified ledger head, to keep outside the store and pass to ``extends`` later."""
        with self.db.transaction() as c:
            self.seal.entries(c)
            return self.seal.head(c)

    def extends(self, pin: Head) -> None:
        """``Tampered`` unless the store still extends the head ``pin`` (it was not rolled back)."""
        with self.db.transaction() as c:
            self.seal.extends(c, pin)


def store_errors(exc: BaseException) -> bool:
    """Whether ``exc`` says a store is unreachable or failing (an outage), not a program's bug: the
    stores turn every SQLite and PostgreSQL failure into ``InvalidInput`` naming the store; a driver's
    own error, or an ``OSError`` (a dropped connection), may also escape from a transport."""
    return isinstance(exc, InvalidInput | sqlite3.Error | OSError) or type(exc).__module__.startswith("psycopg")
