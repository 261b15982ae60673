"""``edit session DB show`` and ``resume`` on damaged, edited and foreign stores: one error
line and exit 2, never a traceback, never a normal state; ``show`` writes nothing."""

from __future__ import annotations

import json
import os
import random
import sqlite3
from pathlib import Path

from click.testing import CliRunner, Result

from model.base.keyfile import ensure_key
from model.shell.cli import main
from tests.edits_helpers import foreign_database

LAPTOP = Path(__file__).resolve().parents[2] / "corpus" / "edits" / "sessions" / "laptop.json"


def cli(*args: str) -> Result:
    return CliRunner().invoke(main, ["edit", "session", *args])


def _store(tmp_path: Path, name: str = "s.db") -> Path:
    db = tmp_path / name
    assert cli(str(db), "run", str(LAPTOP)).exit_code == 0
    return db


def _bad(r: Result, *words: str) -> None:
    assert r.exit_code == 2, r.output
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    assert r.output.startswith("error: ") and r.output.count("\n") == 1, r.output
    for w in words:
        assert w in r.output, r.output


def test_show_never_shows_a_wrong_state_after_random_bytes_in_the_store(tmp_path: Path) -> None:
    """4 KB of random bytes over each page in turn (and at odd offsets): ``show`` either refuses with one
    line and exit 2 or — when the bytes hit only space SQLite does not use — prints exactly the true state."""
    db = _store(tmp_path)
    truth = cli(str(db), "show").output
    size = db.stat().st_size
    rng = random.Random(12)
    offsets = [*range(4096, size - 4096 + 1, 4096), *(rng.randrange(100, size - 4096) for _ in range(3))]
    refused = 0
    for n, at in enumerate(offsets):
        bad = tmp_path / f"r{n}.db"
        data = bytearray(db.read_bytes())
        data[at:at + 4096] = rng.randbytes(4096)
        bad.write_bytes(bytes(data))
        os.link(str(db) + ".key", str(bad) + ".key")
        r = cli(str(bad), "show")
        if r.exit_code == 0:
            assert r.output == truth, at
        else:
            _bad(r, str(bad))
            refused += 1
    assert refused >= len(offsets) // 2, (refused, len(offsets))


def test_show_refuses_a_state_row_edited_by_hand_even_with_its_digest_fixed(tmp_path: Path) -> None:
    db = _store(tmp_path)
    c = sqlite3.connect(db)
    body = json.loads(c.execute("SELECT body FROM state").fetchone()[0])
    body["log"][1]["phase"] = "authorized"  # forget that p2 was settled
    c.execute("UPDATE state SET body = ?", (json.dumps(body, separators=(",", ":"), sort_keys=True),))
    c.commit()
    _bad(cli(str(db), "show"), "differs from the state its journal derives")
    from model.edits.runtime.record_json import state_digest, state_from_text
    text = c.execute("SELECT body FROM state").fetchone()[0]
    c.execute("UPDATE journal SET digest = ? WHERE seq = (SELECT max(seq) FROM journal)",
              (state_digest(state_from_text(text)),))
    c.commit()
    c.close()
    _bad(cli(str(db), "show"), "does not reproduce its digest")


def test_show_opens_read_only_and_leaves_a_foreign_database_unchanged(tmp_path: Path) -> None:
    f = tmp_path / "app.db"
    foreign_database(f, "users")
    before = f.read_bytes()
    _bad(cli(str(f), "show"), "foreign SQLite database")
    assert f.read_bytes() == before and sorted(p.name for p in tmp_path.iterdir()) == ["app.db"]
    db = _store(tmp_path)
    before = db.read_bytes()
    assert cli(str(db), "show").exit_code == 0
    assert db.read_bytes() == before


def test_show_and_resume_need_the_right_key(tmp_path: Path) -> None:
    db = _store(tmp_path)
    os.rename(str(db) + ".key", tmp_path / "elsewhere.key")
    _bad(cli(str(db), "show"), "readable key file")
    assert cli(str(db), "show", "--key", str(tmp_path / "elsewhere.key")).exit_code == 0
    ensure_key(str(tmp_path / "random.key"))
    _bad(cli(str(db), "show", "--key", str(tmp_path / "random.key")), "another key")
    _bad(cli(str(db), "resume", str(LAPTOP), "--key", str(tmp_path / "random.key")), "another key")


def test_run_refuses_an_existing_store_and_resume_finishes_a_cut_script(tmp_path: Path) -> None:
    db = _store(tmp_path)
    _bad(cli(str(db), "run", str(LAPTOP)), "'resume'")
    full = cli(str(db), "resume", str(LAPTOP))
    assert full.exit_code == 0 and "nothing to resume" in full.output
    first = cli(str(db), "show").output
    doc = json.loads(LAPTOP.read_text())
    other = tmp_path / "other.json"
    doc["steps"] = doc["steps"][:5]
    other.write_text(json.dumps(doc))
    _bad(cli(str(db), "resume", str(other)), "created by this session script")
    assert cli(str(db), "show").output == first


def test_show_reads_a_run_killed_at_its_start_as_resume_does(tmp_path: Path) -> None:
    """A run stopped after creating the store and its outbox, before binding the outbox: ``show`` shows
    the state, marked, and binds nothing (it writes nothing); ``resume`` then completes the run."""
    from model.edits.runtime.outbox import Outbox
    from model.edits.runtime.runtime import Runtime
    from model.edits.runtime.session_script import load_session

    sess = load_session(LAPTOP)
    db = tmp_path / "s.db"
    tool = Outbox(str(db) + ".outbox")
    tool.lock(str(db))
    rt, _ = Runtime.create(str(db), sess.registration, sess.seed, None, sess.script)
    rt.close()
    tool.close()
    before = (db.read_bytes(), Path(str(db) + ".outbox").read_bytes())
    shown = cli(str(db), "show")
    assert shown.exit_code == 0, shown.output
    assert shown.output.startswith("stopped at its start:") and "state version 1" in shown.output
    assert (db.read_bytes(), Path(str(db) + ".outbox").read_bytes()) == before
    resumed = cli(str(db), "resume", str(LAPTOP))
    assert resumed.exit_code == 0, resumed.output
    again = cli(str(db), "show")
    assert again.exit_code == 0 and not again.output.startswith("stopped at its start:"), again.output
