"""Resume after SIGKILL: a forked child runs the laptop session and is killed at a chosen
step — after the step ran and, when it changed the state, committed, but before its answer was recorded
for a step that changed nothing and before a dispatched request reached the tool. The kills fall at
every step in turn, each on the resume of the previous one; after each the store opens read-only and
holds a prefix of the reference answers, and the final resume gives the answers, the journal and the
tool's deliveries of an uninterrupted run, so nothing ran twice and nothing was dispatched twice. The
random-moment campaign (kills inside transactions and during creation) is in tests/slow."""

from __future__ import annotations

import os
import shutil
import signal
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from model.base.canonical import JSON
from model.base.errors import InvalidInput
from model.edits.runtime.forms import edit_to_json
from model.edits.runtime.journal import edit_from_canonical
from model.edits.runtime.outbox import Outbox
from model.edits.runtime.runtime import Runtime
from model.edits.runtime.scenarios import laptop
from model.edits.runtime.session_script import (
    Session,
    edit_from_json,
    load_session,
    resume_session,
    run_session,
    session_from_json,
)
from tests.edits_helpers import LAPTOP, reference, resumed

SESSION = LAPTOP
SESSIONS = Path(__file__).resolve().parents[2] / "corpus" / "edits" / "sessions"


@pytest.fixture
def shm(tmp_path: Path) -> Iterator[Path]:
    """A memory-backed directory when there is one: SIGKILL stops the process, not the machine, so the
    OS keeps every completed write and recovery takes the same path as on disk, without fsync latency."""
    if not Path("/dev/shm").is_dir():
        yield tmp_path
        return
    d = Path(tempfile.mkdtemp(dir="/dev/shm", prefix="edits-resume-"))
    try:
        yield d
    finally:
        shutil.rmtree(d, ignore_errors=True)


def _kill() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def killed_at(d: Path, k: int, sess: Session = SESSION, resume: bool = False) -> None:
    """Run (or resume) the session in a child that SIGKILLs itself when script step ``k`` is about to
    be recorded (``k = 0``: right after the store was created)."""
    pid = os.fork()
    if pid == 0:
        try:
            done = Runtime.done

            def dying(rt: Runtime, idx: int, answer: JSON) -> None:
                if idx == k:
                    _kill()
                done(rt, idx, answer)

            Runtime.done = dying  # type: ignore[method-assign]
            def echo(i: int, _a: JSON, _m: str | None) -> None:
                if i == k == 0:
                    _kill()

            tool = Outbox(str(d / "s.outbox"))
            if resume:
                resume_session(sess, str(d / "s.db"), echo, tool=tool)
            else:
                run_session(sess, str(d / "s.db"), echo, tool=tool)
        finally:
            os._exit(0)
    _, status = os.waitpid(pid, 0)
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL, status


def test_sigkill_before_each_step_is_recorded_then_resume_equals_the_uninterrupted_run(shm: Path) -> None:
    """One store, killed at every point in turn: the child that resumes after the kill at step k is
    itself killed at step k + 1, so each resume starts where the last kill left the store."""
    ref = reference(shm)
    assert len(ref["sent"]) == 4  # the laptop session dispatches four requests
    for k in range(len(SESSION.steps) + 1):
        killed_at(shm, k, resume=k > 0)
        rt = Runtime(str(shm / "s.db"), readonly=True)  # show's open, right after the kill
        recorded = [j for _, _, j in rt.steps_done()]
        rt.close()
        assert len(recorded) in (k, k + 1)  # step k is recorded iff it committed a state change
        assert recorded == ref["out"][:len(recorded)], k
    got = resumed(shm)
    assert got["start"] in (len(SESSION.steps), len(SESSION.steps) + 1)
    assert got["out"] == ref["out"]
    assert got["journal"] == ref["journal"]
    assert got["sent"] == ref["sent"]  # each request performed once, in order
    assert got["keys"] == got["expected_keys"]


def test_a_dispatch_committed_but_not_handed_over_is_handed_over_once_on_resume(shm: Path) -> None:
    first = next(i for i, s in enumerate(SESSION.steps, 1) if "dispatch" in s)
    killed_at(shm, first)
    assert Outbox(str(shm / "s.outbox")).deliveries() == []  # killed between the commit and the tool
    assert (shm / "s.db-wal").stat().st_size > 0  # the commits are in the WAL, which needs recovery
    rt = Runtime(str(shm / "s.db"), readonly=True)  # show's open, right after the kill
    assert rt.verify().out and rt.steps_done()[-1][0] == first
    rt.close()
    rt = Runtime(str(shm / "s.db"))
    assert rt.steps_done()[-1][0] == first and any(o.sent for o in rt.state().out)
    rt.close()
    got = resumed(shm)
    assert got["start"] == first + 1
    assert [r for r in Outbox(str(shm / "s.outbox")).deliveries() if r[4] > 0] == []  # no repeat needed


def test_resume_refuses_another_script_and_a_finished_session_runs_nothing(shm: Path) -> None:
    run_session(SESSION, str(shm / "s.db"))
    other = session_from_json({**laptop(), "steps": laptop()["steps"][:3]})
    with pytest.raises(InvalidInput, match="created by this session script"):
        resume_session(other, str(shm / "s.db"))
    start, out = resume_session(SESSION, str(shm / "s.db"))
    assert start == len(SESSION.steps) + 1 and len(out) == start


def test_a_resumed_dispatch_repeats_under_the_same_key_and_the_outbox_performs_it_once(shm: Path) -> None:
    """Kill after the hand-over of a dispatch but before its echo: the resume hands it over again (it
    cannot know), and the outbox counts a repeat instead of performing it twice."""
    first = next(i for i, s in enumerate(SESSION.steps, 1) if "dispatch" in s)
    killed_at(shm, first + 1)  # the dispatch and its hand-over completed; killed at the next step
    got = resumed(shm)
    rows = Outbox(str(shm / "s.outbox")).deliveries()
    assert rows[0][4] >= 1 and len({r[0] for r in rows}) == len(rows) == len(got["sent"])


def test_the_journal_decodes_every_edit_of_the_corpus_sessions_to_itself() -> None:
    """The journal stores an edit as ``edit_to_json``; replay and the live step decode it back."""
    seen = 0
    for f in sorted(SESSIONS.glob("*.json")):
        for step in load_session(f).steps:
            for k in ("check", "update", "preload"):
                if isinstance(step.get(k), dict):
                    e = edit_from_json(step[k])
                    assert edit_from_canonical(edit_to_json(e)) == e, (f.name, step)
                    seen += 1
    assert seen >= 20
