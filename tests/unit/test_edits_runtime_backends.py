"""The edit runtime's store on both backends (``Runtime`` on an SQLite file or a PostgreSQL schema):
exclusive creation, the restart (reopen) keeping the committed state, the journal re-deriving it,
a tampered journal row refused by ``verify``, script marks committed with their step, and two handles
racing a call against an update serializing into one of the two orders."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from model.base.errors import InvalidInput
from model.base.store.pgserver import PgServer, fresh_schema
from model.edits.runtime.answers import EditAccepted, New, Updated
from model.edits.runtime.forms import ForkChoice
from model.edits.runtime.invariant import agent_sec
from model.edits.runtime.runtime import Runtime
from model.edits.runtime.scenarios import playground
from model.edits.runtime.session_script import session_from_json

FORK = ForkChoice("b0", "fc")
SESSION = session_from_json(playground())


def _create(target: tuple[str, str | None], tmp_path: Path, script: str | None = None) -> Runtime:
    path, schema = target
    rt, root = Runtime.create(path, SESSION.registration, SESSION.seed, key_file=str(tmp_path / "rt.key"),
                              script=script, schema=schema)
    assert isinstance(root, EditAccepted), root
    return rt


def _reopen(target: tuple[str, str | None], tmp_path: Path) -> Runtime:
    return Runtime(target[0], key_file=str(tmp_path / "rt.key"), schema=target[1])


def test_create_is_exclusive_and_reopen_keeps_the_committed_state(store_target: tuple[str, str | None],
                                                                  tmp_path: Path) -> None:
    rt = _create(store_target, tmp_path)
    assert isinstance(rt.use("xa", rt.token("xa") or "", rt.request_of("xa")), New)
    y = rt.check(FORK)
    assert isinstance(rt.try_update(FORK, y), Updated)
    state, journal = rt.state(), rt.journal()
    rt.close()
    with pytest.raises(InvalidInput, match="existing"):
        _create(store_target, tmp_path)
    again = _reopen(store_target, tmp_path)
    assert again.state() == state and again.journal() == journal and [j[1] for j in journal] == [
        "register", "use", "update"]
    assert again.verify() == state and again.state_at(0) != state
    again.close()


def test_a_tampered_journal_row_is_refused_by_verify(store_target: tuple[str, str | None], tmp_path: Path) -> None:
    rt = _create(store_target, tmp_path)
    rt.use("xa", rt.token("xa") or "", rt.request_of("xa"))
    with rt.db.transaction() as c:
        c.execute("UPDATE journal SET digest = ? WHERE seq = 1", ("0" * 64,))
    with pytest.raises(InvalidInput, match="an intact edit runtime store"):
        rt.verify()


def test_script_marks_commit_with_their_step(store_target: tuple[str, str | None], tmp_path: Path) -> None:
    rt = _create(store_target, tmp_path, script="d" * 64)
    rt.mark(1)
    rt.use("xa", rt.token("xa") or "", rt.request_of("xa"))
    rt.mark(None)
    rt.done(2, {"note": "nothing changed"})
    rt.done(2, {"note": "recorded once"})
    assert [(i, seq) for i, seq, _ in rt.steps_done()] == [(0, 0), (1, 1), (2, 1)]
    assert rt.steps_done()[2][2] == {"note": "nothing changed"}


def _race_once(target: tuple[str, str | None], d: Path) -> tuple[str, str]:
    rt = _create(target, d)
    other = _reopen(target, d)
    token, req = rt.token("xa") or "", rt.request_of("xa")
    y = rt.check(FORK)
    got: dict[str, object] = {}
    t1 = threading.Thread(target=lambda: got.__setitem__("update", rt.try_update(FORK, y)))
    t2 = threading.Thread(target=lambda: got.__setitem__("use", other.use("xa", token, req)))
    t1.start()
    t2.start()
    t1.join()
    t2.join()
    assert agent_sec(rt.state()) == [] and rt.verify() == other.state()
    rt.close()
    other.close()
    return type(got["update"]).__name__, type(got["use"]).__name__


def test_two_handles_serialize_a_call_and_an_update(store_target: tuple[str, str | None], tmp_path: Path) -> None:
    """Exactly one of the two orders is observed, never a third outcome (which wins is the scheduler's)."""
    for i in range(4):
        path, schema = store_target
        target = (str(tmp_path / f"r{i}.db"), None) if schema is None else (path, f"{schema}_{i}")
        d = tmp_path / str(i)
        d.mkdir()
        pair = _race_once(target, d)
        assert pair in {("Updated", "Deny"), ("NoCommit", "New")}, pair


def test_postgres_store_needs_a_named_key_file_and_an_existing_schema(pg_server: PgServer) -> None:
    dsn = pg_server.dsn
    with pytest.raises(InvalidInput, match="a key file named by the caller"):
        Runtime.create(dsn, SESSION.registration, SESSION.seed, schema=fresh_schema())
    with pytest.raises(InvalidInput, match="no such store"):
        Runtime(dsn, key_file="/nonexistent.key", schema=fresh_schema())
