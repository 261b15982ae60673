"""Opening the SQLite stores (``model/base/store/sqlite.py``): every store kind refuses a non-SQLite
file, a corrupted header, a foreign database, another kind's store, a newer schema, a read-only file or
directory, with one ``InvalidInput`` naming the file; read-only opening changes nothing; exclusive
creation has exactly one winner among processes; the runtime's key never enters its store."""

from __future__ import annotations

import os
import sqlite3
import stat
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from model.admission.decision.nonces import SqliteNonceStore
from model.admission.resumable.attempt_store import AttemptStore
from model.admission.signatures.records import RecordStore
from model.base.errors import InputKind, InvalidInput
from model.base.keyfile import seed_of
from model.base.signing import KeyPair
from model.edits.runtime.outbox import Outbox
from model.edits.runtime.runtime import Runtime
from model.edits.runtime.scenarios import playground
from model.edits.runtime.session_script import run_session, session_from_json
from tests.edits_helpers import foreign_database

SESSION = session_from_json({**playground(), "steps": [{"use": "xa"}, {"dispatch": True}]})


def _runtime(path: str) -> object:
    return Runtime(path)


OPENERS: dict[str, Callable[[str], object]] = {
    "edit runtime": _runtime,
    "attempts": AttemptStore,
    "nonces": SqliteNonceStore,
    "records": lambda p: RecordStore(KeyPair.generate("k"), p),
    "outbox": Outbox,
}


def _make(kind: str, path: Path) -> None:
    """A genuine store of ``kind`` at ``path``, closed."""
    if kind == "edit runtime":
        run_session(SESSION, str(path))
        return
    store = OPENERS[kind](str(path))
    store.close()  # type: ignore[attr-defined]


def _refused(kind: str, path: Path, match: str, io: bool | None = None) -> InvalidInput:
    with pytest.raises(InvalidInput) as info:
        OPENERS[kind](str(path))
    assert str(path) in str(info.value) and match in str(info.value), str(info.value)
    assert "\n" not in str(info.value)
    if io is not None:
        assert (info.value.kind is InputKind.IO) == io
    return info.value


@contextmanager
def read_only(p: Path) -> Iterator[None]:
    mode = p.stat().st_mode
    p.chmod(stat.S_IMODE(mode) & ~0o222)
    try:
        yield
    finally:
        p.chmod(stat.S_IMODE(mode))


@pytest.mark.parametrize("kind", sorted(OPENERS))
def test_non_sqlite_file_corrupted_header_and_foreign_database_are_refused(kind: str, tmp_path: Path) -> None:
    text = tmp_path / "text.db"
    text.write_text("hello, not a database\n" * 10)
    _refused(kind, text, "not an SQLite database")
    assert text.read_text().startswith("hello")
    broken = tmp_path / "broken.db"
    _make(kind, broken)
    data = bytearray(broken.read_bytes())
    data[16:24] = b"\xff" * 8  # page size and format bytes of the header
    broken.write_bytes(bytes(data))
    _refused(kind, broken, "damaged")
    foreign = tmp_path / "foreign.db"
    foreign_database(foreign, "customers")
    before = foreign.read_bytes()
    _refused(kind, foreign, "foreign SQLite database (application_id 0x0, tables: customers)")
    assert foreign.read_bytes() == before and not Path(str(foreign) + "-wal").exists()  # nothing created


@pytest.mark.parametrize("kind", sorted(OPENERS))
def test_another_kind_and_a_newer_schema_are_refused(kind: str, tmp_path: Path) -> None:
    other = "nonces" if kind != "nonces" else "attempts"
    theirs = tmp_path / "theirs.db"
    _make(other, theirs)
    _refused(kind, theirs, "found an agentwarrant")
    newer = tmp_path / "newer.db"
    _make(kind, newer)
    c = sqlite3.connect(newer)
    version = c.execute("PRAGMA user_version").fetchone()[0]
    c.execute(f"PRAGMA user_version = {version + 1}")
    c.commit()
    c.close()
    _refused(kind, newer, f"schema version {version + 1} (newer")


@pytest.mark.parametrize("kind", sorted(OPENERS))
def test_read_only_file_and_directory_and_bad_paths_are_refused(kind: str, tmp_path: Path) -> None:
    d = tmp_path / "d"
    d.mkdir()
    store = d / "s.db"
    _make(kind, store)
    with read_only(store):
        _refused(kind, store, "read-only file", io=True)
    with read_only(d):
        _refused(kind, store, "read-only directory", io=True)
    _refused(kind, tmp_path / "no" / "s.db", "no directory", io=True)
    _refused(kind, d, "a directory", io=True)


def test_a_store_edited_after_stamping_is_refused(tmp_path: Path) -> None:
    p = tmp_path / "n.db"
    _make("nonces", p)
    c = sqlite3.connect(p)
    c.execute("CREATE TABLE extra (x)")
    c.commit()
    c.close()
    _refused("nonces", p, "a damaged or edited store")


def test_runtime_refuses_a_missing_or_empty_file_and_read_only_open_changes_nothing(tmp_path: Path) -> None:
    with pytest.raises(InvalidInput, match="no such file"):
        Runtime(str(tmp_path / "absent.db"))
    assert not (tmp_path / "absent.db").exists()
    (tmp_path / "empty.db").touch()
    with pytest.raises(InvalidInput, match="an empty file"):
        Runtime(str(tmp_path / "empty.db"), readonly=True)
    p = tmp_path / "s.db"
    run_session(SESSION, str(p))
    before = p.read_bytes()
    rt = Runtime(str(p), readonly=True)
    rt.verify()
    with pytest.raises(InvalidInput, match="readonly"):
        rt.done(99, None)  # any write
    rt.close()
    assert p.read_bytes() == before


def test_read_only_open_works_in_a_read_only_directory(tmp_path: Path) -> None:
    d = tmp_path / "d"
    d.mkdir()
    run_session(SESSION, str(d / "s.db"))
    with read_only(d):
        rt = Runtime(str(d / "s.db"), readonly=True)
        assert rt.verify().log  # the use created an authorization record
        rt.close()


def _create_in_child(path: str, go: int) -> None:
    try:
        os.read(go, 1)
        run_session(SESSION, path)
        code = 0
    except InvalidInput as exc:
        code = 2 if "an existing file" in str(exc) else 3
    except BaseException:
        code = 4
    os._exit(code)


def test_two_processes_creating_one_store_exactly_one_wins(tmp_path: Path) -> None:
    for i in range(6):
        path = str(tmp_path / f"race{i}.db")
        r, w = os.pipe()
        pids = []
        for _ in range(2):
            pid = os.fork()
            if pid == 0:
                _create_in_child(path, r)
            pids.append(pid)
        os.write(w, b"go")
        codes = sorted(os.WEXITSTATUS(os.waitpid(p, 0)[1]) for p in pids)
        os.close(r)
        os.close(w)
        assert codes == [0, 2], codes
        rt = Runtime(path)
        rt.verify()
        rt.close()


def test_the_signing_key_lives_in_a_0600_file_outside_the_store(tmp_path: Path) -> None:
    p = tmp_path / "s.db"
    run_session(SESSION, str(p))
    key = Path(str(p) + ".key")
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    rt = Runtime(str(p))
    seed = seed_of(rt.key.private)
    rt.close()
    assert SESSION.seed == seed
    for f in tmp_path.iterdir():
        if f != key:
            assert seed not in f.read_bytes() and seed.hex().encode() not in f.read_bytes(), f
    key.chmod(0o644)
    with pytest.raises(InvalidInput, match="readable by its owner only"):
        Runtime(str(p))
    key.chmod(0o600)
    other = tmp_path / "other.key"
    run_session(SESSION, str(tmp_path / "t.db"), key_file=str(other))
    assert not Path(str(tmp_path / "t.db") + ".key").exists()
    from model.base.keyfile import ensure_key
    with pytest.raises(InvalidInput, match="another key"):
        Runtime(str(p), ensure_key(str(tmp_path / "random.key")))


def test_read_only_open_after_a_crash_left_a_hot_journal(tmp_path: Path) -> None:
    """A writer killed inside a rollback-journal transaction leaves a hot ``-journal`` that a read-only
    connection cannot roll back; ``show``'s open recovers it once read-write and reads the old rows."""
    p = tmp_path / "s.db"
    run_session(SESSION, str(p))
    c = sqlite3.connect(p)
    c.execute("PRAGMA journal_mode = DELETE")
    c.close()
    truth = Runtime(str(p), readonly=True).verify()
    pid = os.fork()
    if pid == 0:
        c = sqlite3.connect(p, isolation_level=None)
        c.execute("PRAGMA cache_size = 1")  # spill to the file before the commit
        c.execute("BEGIN IMMEDIATE")
        c.execute("UPDATE state SET body = ? WHERE id = 1", ("x" * 200_000,))
        os.kill(os.getpid(), 9)
    os.waitpid(pid, 0)
    assert Path(str(p) + "-journal").stat().st_size > 0
    with pytest.raises(sqlite3.OperationalError):
        sqlite3.connect(f"file:{p}?mode=ro", uri=True).execute("SELECT seq FROM state").fetchone()
    rt = Runtime(str(p), readonly=True)
    assert rt.verify() == truth
    rt.close()
