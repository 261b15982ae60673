"""The edit runtime store's kind and tables, and where its key lives ("When Can Agents Safely
Checkpoint, Fork, Restore, and Merge? Exact Checking for Execution Edits", Sections IV-C, VI-B and
Appendix A-K): ``meta`` (the store's id, public key and script, signed), ``state`` (the committed
state, one row), ``journal`` (the steps the state is re-derived from), ``steps`` (a session script's
answers, signed), ``acks`` (deliveries the tool acknowledged, signed) and ``heads`` (the signed row
counts of ``steps`` and ``acks``). The same text creates the tables on SQLite and PostgreSQL.
"""

from __future__ import annotations

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from model.base.errors import InputKind, InvalidInput
from model.base.signing import KeyPair
from model.base.store.kinds import kind
from model.base.store.postgres import is_postgres

KIND = kind("edit runtime store", 1, 2, """
CREATE TABLE meta (id INTEGER PRIMARY KEY CHECK (id = 1), store_id TEXT NOT NULL, public_key TEXT NOT NULL,
                   script TEXT, sig TEXT NOT NULL);
CREATE TABLE state (id INTEGER PRIMARY KEY CHECK (id = 1), seq INTEGER NOT NULL, body TEXT NOT NULL);
CREATE TABLE journal (seq INTEGER PRIMARY KEY, step TEXT NOT NULL, input TEXT NOT NULL, digest TEXT NOT NULL);
CREATE TABLE steps (idx INTEGER PRIMARY KEY, seq INTEGER NOT NULL, answer TEXT NOT NULL, sig TEXT NOT NULL);
CREATE TABLE acks (n INTEGER PRIMARY KEY, record TEXT NOT NULL UNIQUE, sig TEXT NOT NULL);
CREATE TABLE heads (name TEXT PRIMARY KEY, n INTEGER NOT NULL, sig TEXT NOT NULL)
""")



def key_file_for(path: str) -> str:
    """Where the key of the store at ``path`` lives unless the caller says otherwise."""
    if is_postgres(path):
        raise InvalidInput(path, "a key file named by the caller (a PostgreSQL store has no directory for DB.key)",
                           "none", InputKind.VALUE)
    return path + ".key"


def runtime_key(key: Ed25519PrivateKey) -> KeyPair:
    return KeyPair("@runtime", key)
