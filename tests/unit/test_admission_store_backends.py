"""The admission stores' contract on both backends (``model.base.store.postgres``): the nonce store spends once,
all-or-nothing, across store objects and threads; stores are stamped and refuse another kind's;
and, PostgreSQL only, the stamping, versioning and migration rules of a schema, the password never
shown, a closed store staying closed, a connection dropped mid-transaction losing and duplicating
nothing. The attempt store's contract is tests/unit/test_admission_resumable.py, parametrized the
same way."""

from __future__ import annotations

import sqlite3
import threading
from datetime import UTC, datetime
from typing import Any

import pytest

from model.admission.decision.nonces import KIND as NONCE_KIND
from model.admission.decision.nonces import Reservation, SqliteNonceStore
from model.admission.resumable.attempt_store import AttemptStore
from model.admission.signatures.sealing import Tampered
from model.base.errors import InputKind, InvalidInput
from model.base.store.kinds import kind
from model.base.store.postgres import MIGRATIONS, PgDatabase, redacted
from tests.postgres import fresh_schema

NOW = datetime(2026, 1, 1, tzinfo=UTC)
Target = tuple[str, str | None]


def test_spend_once_per_namespace(store_target: Target) -> None:
    s = SqliteNonceStore(*store_target)
    assert not s.is_spent("approval", "n1")
    assert s.spend("approval", "n1", NOW) and s.is_spent("approval", "n1")
    assert not s.spend("approval", "n1", NOW)
    assert s.spend("authorization", "n1", NOW)  # another namespace, another nonce


def test_spend_all_is_all_or_nothing(store_target: Target) -> None:
    s = SqliteNonceStore(*store_target)
    assert s.spend("approval", "taken", NOW)
    got = s.spend_all([("authorization", "a1"), ("approval", "fresh"), ("approval", "taken")], NOW)
    assert got == ("approval", "taken")
    assert not s.is_spent("authorization", "a1") and not s.is_spent("approval", "fresh")
    assert s.spend_all([("authorization", "a1"), ("approval", "fresh")], NOW) is None
    assert s.is_spent("authorization", "a1") and s.is_spent("approval", "fresh")


def test_spend_race_between_store_objects_exactly_one(store_target: Target) -> None:
    n = 8
    stores = [SqliteNonceStore(*store_target) for _ in range(n)]
    barrier = threading.Barrier(n)
    outs: list[bool] = [False] * n

    def run(k: int) -> None:
        barrier.wait()
        outs[k] = stores[k].spend_all([("authorization", "auth-x"), ("approval", "same")], NOW) is None

    ts = [threading.Thread(target=run, args=(k,)) for k in range(n)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert sum(outs) == 1


def test_reservation_commits_with_the_spend_and_is_taken_over_once_after_its_lease(store_target: Target) -> None:
    s = SqliteNonceStore(*store_target)
    mine = (Reservation("tok-1", '{"r": 1}', "gw-a"), 100.0)
    assert s.spend_all([("approval", "x")], NOW, mine) is None and s.reserved("tok-1")
    assert s.spend_all([("approval", "x")], NOW, (Reservation("tok-2", "{}", "gw-b"), 100.0)) == ("approval", "x")
    assert not s.reserved("tok-2")  # a refused spend leaves no reservation
    assert s.take_over("gw-b", 99.0, 200.0) == [] and s.unfinished() == 1  # lease not over
    takers = [SqliteNonceStore(*store_target) for _ in range(6)]
    barrier = threading.Barrier(len(takers))
    got: list[list[Reservation]] = [[] for _ in takers]

    def take(k: int) -> None:
        barrier.wait()
        got[k] = takers[k].take_over(f"gw-{k}", 150.0, 300.0)

    ts = [threading.Thread(target=take, args=(k,)) for k in range(len(takers))]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    won = [r for rs in got for r in rs]
    assert len(won) == 1 and won[0].token == "tok-1" and '"r"' not in won[0].request  # sealed at rest
    assert s.verified_request("tok-1") == '{"r": 1}'
    s.finish("tok-1", NOW)
    assert s.unfinished() == 0 and s.take_over("gw-z", 1e9, 2e9) == []
    with pytest.raises(Tampered, match="was finished"):
        s.verified_request("tok-1")


def test_sqlite_nonce_store_of_version_1_migrates_keeping_its_spent_nonces(tmp_path: Any) -> None:
    path = str(tmp_path / "v1.db")
    conn = sqlite3.connect(path)
    conn.executescript("CREATE TABLE spent (namespace TEXT NOT NULL, nonce TEXT NOT NULL, spent_at TEXT NOT NULL, "
                       "PRIMARY KEY (namespace, nonce)); INSERT INTO spent VALUES ('approval', 'old', 'then');"
                       f"PRAGMA application_id = {NONCE_KIND.application_id}; PRAGMA user_version = 1;")
    conn.close()
    with pytest.raises(Tampered, match="rows but no signed head"):
        SqliteNonceStore(path)  # an unsealed store's rows are trusted only when the operator says so
    s = SqliteNonceStore(path, adopt=True)
    assert s.is_spent("approval", "old") and not s.spend("approval", "old", NOW)
    assert s.spend_all([("approval", "new")], NOW, (Reservation("t", "{}", "gw"), 1.0)) is None and s.reserved("t")
    s.close()
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == NONCE_KIND.version
    conn.close()


def test_sqlite_attempt_store_of_version_1_is_adopted_only_when_asked(tmp_path: Any) -> None:
    from model.admission.resumable.attempt_store import KIND as ATTEMPT_KIND
    from model.admission.resumable.attempts import AttemptState

    path = str(tmp_path / "a1.db")
    conn = sqlite3.connect(path)
    conn.executescript(
        "CREATE TABLE attempts (id TEXT PRIMARY KEY, tenant TEXT NOT NULL, principal TEXT NOT NULL, "
        "credential TEXT NOT NULL, method TEXT NOT NULL, path TEXT NOT NULL, query TEXT NOT NULL, body TEXT NOT NULL, "
        "body_digest TEXT NOT NULL, state TEXT NOT NULL, approver TEXT, result TEXT, created_at TEXT NOT NULL);"
        "CREATE TABLE reviews (attempt_id TEXT NOT NULL, approver TEXT NOT NULL, decision TEXT NOT NULL, "
        "context TEXT NOT NULL, at TEXT NOT NULL);"
        f"PRAGMA application_id = {ATTEMPT_KIND.application_id}; PRAGMA user_version = 1;")
    body = '{"resource":"report-7"}'
    from model.base.canonical import digest, loads
    conn.execute("INSERT INTO attempts VALUES ('a1', 't', 'p', 'c', 'POST', '/r', '', ?, ?, 'approved', 'h', NULL, "
                 "'then')", (body, digest(loads(body))))
    conn.execute("INSERT INTO reviews VALUES ('a1', 'h', 'approve', '', 'then')")
    conn.commit()
    conn.close()
    with pytest.raises(Tampered, match="rows but no signed head"):
        AttemptStore(path)
    s = AttemptStore(path, adopt=True)
    att = s.get("a1")
    assert att is not None and att.state is AttemptState.APPROVED and att.request.body_text == body
    assert s.reviews("a1") == [("h", "approve", "")] and s.verify() == 1
    s.close()
    again = AttemptStore(path)  # sealed now: opens without adopting, and the body is no longer in clear
    assert again.get("a1") is not None
    again.close()
    conn = sqlite3.connect(path)
    assert conn.execute("SELECT body FROM attempts").fetchone()[0] != body
    conn.close()


def test_another_kinds_store_refused(store_target: Target) -> None:
    SqliteNonceStore(*store_target).close()
    with pytest.raises(InvalidInput) as info:
        AttemptStore(*store_target)
    assert "expected an agentwarrant attempt store" in str(info.value) and "nonce store" in str(info.value)


# --- PostgreSQL only ---------------------------------------------------------------------------------

def _sql(server: Any, *statements: str) -> None:
    import psycopg

    with psycopg.connect(server.dsn, autocommit=True) as c:
        for s in statements:
            c.execute(s)  # type: ignore[call-overload]  # test-only literal SQL


def _refused(server: Any, schema: str, match: str) -> InvalidInput:
    with pytest.raises(InvalidInput) as info:
        SqliteNonceStore(server.dsn, schema)
    assert match in str(info.value) and schema in str(info.value), str(info.value)
    return info.value


def test_pg_foreign_schema_refused(pg_server: Any) -> None:
    schema = fresh_schema()
    _sql(pg_server, f"CREATE SCHEMA {schema}", f"CREATE TABLE {schema}.users (id INT)")
    _refused(pg_server, schema, "a foreign schema (tables: users)")


def test_pg_newer_version_refused_older_without_migration_refused(pg_server: Any) -> None:
    schema = fresh_schema()
    SqliteNonceStore(pg_server.dsn, schema).close()
    _sql(pg_server, f"UPDATE {schema}.aw_stamp SET version = 7")
    _refused(pg_server, schema, "schema version 7 (newer")
    _sql(pg_server, f"UPDATE {schema}.aw_stamp SET version = 0")
    _refused(pg_server, schema, "schema version 0 (older, and no migration")


def test_pg_nonce_store_of_version_1_migrates_keeping_its_spent_nonces(pg_server: Any) -> None:
    schema = fresh_schema()
    _sql(pg_server, f"CREATE SCHEMA {schema}",
         f"CREATE TABLE {schema}.spent (namespace TEXT NOT NULL, nonce TEXT NOT NULL, spent_at TEXT NOT NULL, "
         "PRIMARY KEY (namespace, nonce))",
         f"INSERT INTO {schema}.spent VALUES ('approval', 'old', 'then')",
         f"CREATE TABLE {schema}.aw_stamp (application_id INTEGER NOT NULL, version INTEGER NOT NULL)",
         f"INSERT INTO {schema}.aw_stamp VALUES ({NONCE_KIND.application_id}, 1)")
    s = SqliteNonceStore(pg_server.dsn, schema, adopt=True)
    assert s.is_spent("approval", "old") and not s.spend("approval", "old", NOW)
    assert s.spend_all([("approval", "new")], NOW, (Reservation("t", "{}", "gw"), 1.0)) is None and s.reserved("t")


def test_pg_damaged_store_refused(pg_server: Any) -> None:
    schema = fresh_schema()
    SqliteNonceStore(pg_server.dsn, schema).close()
    _sql(pg_server, f"CREATE TABLE {schema}.extra (x INT)")
    _refused(pg_server, schema, "tables extra, heads, ledger, reservations, spent (a damaged or edited store)")
    _sql(pg_server, f"INSERT INTO {schema}.aw_stamp VALUES (1, 1)")
    _refused(pg_server, schema, "2 stamp rows")


def test_pg_migration_moves_a_schema_forward_in_one_transaction(pg_server: Any) -> None:
    schema = fresh_schema()
    v1 = kind("migration probe", 0x7E, 1, "CREATE TABLE t (a TEXT)")
    v2 = kind("migration probe", 0x7E, 2, "CREATE TABLE t (a TEXT, b TEXT); CREATE TABLE u (c TEXT)")
    db = PgDatabase(pg_server.dsn, v1, schema)
    with db.transaction() as c:
        c.execute("INSERT INTO t VALUES (?)", ("kept",))
    db.close()
    with pytest.raises(InvalidInput, match="no migration"):
        PgDatabase(pg_server.dsn, v2, schema)
    MIGRATIONS[(v2.application_id, 1)] = "ALTER TABLE t ADD COLUMN b TEXT; CREATE TABLE u (c TEXT)"
    try:
        db = PgDatabase(pg_server.dsn, v2, schema)
        with db.transaction() as c:
            assert c.execute("SELECT a, b FROM t").fetchall() == [("kept", None)]
            assert c.execute("SELECT version FROM aw_stamp").fetchall() == [(2,)]
        db.close()
    finally:
        del MIGRATIONS[(v2.application_id, 1)]


def test_pg_password_never_shown_and_unreachable_server_is_io(pg_server: Any) -> None:
    assert redacted("postgresql://u:s3cret@h:1/d") == "postgresql://u:***@h:1/d"
    with pytest.raises(InvalidInput) as info:
        SqliteNonceStore("postgresql://u:s3cret@127.0.0.1:1/d", fresh_schema())
    assert "s3cret" not in str(info.value) and info.value.kind is InputKind.IO


def test_pg_schema_name_checked(pg_server: Any) -> None:
    with pytest.raises(InvalidInput, match="lower-case SQL identifier"):
        SqliteNonceStore(pg_server.dsn, "x; DROP TABLE y")


def test_pg_closed_store_stays_closed(pg_server: Any) -> None:
    s = SqliteNonceStore(pg_server.dsn, fresh_schema())
    s.close()
    with pytest.raises(InvalidInput, match="closed by its owner"):
        s.spend("a", "b", NOW)


def test_pg_connection_dropped_mid_transaction_loses_and_duplicates_nothing(pg_server: Any) -> None:
    schema = fresh_schema()
    s = SqliteNonceStore(pg_server.dsn, schema)
    watcher = SqliteNonceStore(pg_server.dsn, schema)
    assert isinstance(s.db, PgDatabase)
    pid = s.db.backend_pid()
    with pytest.raises(InvalidInput) as info, s.db.transaction() as c:
        c.execute("INSERT INTO spent VALUES (?, ?, ?)", ("approval", "dropped", NOW.isoformat()))
        pg_server.terminate(pid)  # the server drops this connection before COMMIT
        c.execute("SELECT 1")
    assert info.value.kind is InputKind.IO
    assert not watcher.is_spent("approval", "dropped")  # rolled back: nothing half-spent
    assert s.spend("approval", "dropped", NOW)  # the same store reconnects, and spends it once
    assert not watcher.spend("approval", "dropped", NOW)


def test_pg_kinds_share_one_database(pg_server: Any) -> None:
    """Default schemas are per kind, so a nonce store and an attempt store share one database."""
    assert NONCE_KIND.name == "nonce store"
    schema_a, schema_b = fresh_schema(), fresh_schema()
    SqliteNonceStore(pg_server.dsn, schema_a).close()
    AttemptStore(pg_server.dsn, schema_b).close()
    SqliteNonceStore(pg_server.dsn, schema_a).close()  # reopening its own kind is fine


def test_a_kind_code_cannot_be_taken_twice() -> None:
    with pytest.raises(ValueError, match="taken by nonce store"):
        kind("another store", 3, 1, "CREATE TABLE t (a TEXT)")
