"""Resume under SIGKILL at random moments, at volume: a child runs the laptop session (or
resumes it, when its store exists) and is killed after a random delay — inside transactions, during
the exclusive creation, between a dispatch and its hand-over, during a resume's own replay — again and
again until a child finishes. After every kill the store, if it exists, passes ``show``'s checks
(integrity, journal replay); at the end the answers, the journal and the tool's deliveries equal those
of an uninterrupted run. Slow."""

from __future__ import annotations

import os
import random
import signal
import time
from pathlib import Path

import pytest

from model.edits.runtime.outbox import Outbox
from model.edits.runtime.runtime import Runtime
from model.edits.runtime.session_script import Session, resume_session, run_session
from tests.edits_helpers import LAPTOP, reference, resumed


def _child(d: Path, sess: Session) -> None:
    try:
        tool = Outbox(str(d / "s.outbox"))
        if (d / "s.db").exists():
            resume_session(sess, str(d / "s.db"), tool=tool)
        else:
            run_session(sess, str(d / "s.db"), tool=tool)
    finally:
        os._exit(0)


def campaign(root: Path, kills: int, max_delay: float, seed: int) -> dict[str, int]:
    sess = LAPTOP
    ref = reference(root)
    rng = random.Random(seed)
    done, runs, seen = 0, 0, set()
    while done < kills:
        d = root / f"run{runs}"
        d.mkdir()
        runs += 1
        recorded, stuck = 0, 0
        while True:
            pid = os.fork()
            if pid == 0:
                _child(d, sess)
            if done < kills:  # once enough kills landed, the last child may finish the run
                # widen the window while no step gets recorded (a resume replays before it runs a step)
                time.sleep(rng.uniform(0, max_delay * 2 ** min(stuck, 5)))
                os.kill(pid, signal.SIGKILL)
            _, status = os.waitpid(pid, 0)
            if not os.WIFSIGNALED(status):
                break  # the child finished before the kill
            done += 1
            now = 0  # no store yet: the kill came before its creation finished
            if (d / "s.db").exists():
                rt = Runtime(str(d / "s.db"), readonly=True)  # show's open, right after a crash
                rt.verify()
                now = len(rt.steps_done())
                rt.close()
            stuck = stuck + 1 if now == recorded else 0
            recorded = now
            seen.add(now)
        got = resumed(d, sess)
        assert got["out"] == ref["out"]
        assert got["journal"] == ref["journal"]
        assert got["sent"] == ref["sent"]
        assert got["keys"] == got["expected_keys"]
    return {"kills": done, "runs": runs, "positions": len(seen), "steps": len(sess.steps) + 1}


@pytest.mark.slow
@pytest.mark.parametrize(("kills", "max_delay", "seed"), [(300, 0.05, 1), (300, 0.02, 2)])
def test_random_sigkills_then_resume_equal_the_uninterrupted_run(tmp_path: Path, kills: int, max_delay: float,
                                                                  seed: int) -> None:
    got = campaign(tmp_path, kills, max_delay, seed)
    assert got["kills"] >= kills, got
    # coverage, not correctness (asserted after every kill and at the end of every run): the kills
    # landed at many recorded positions along the session, not only at its start
    assert got["positions"] >= got["steps"] // 2, got
