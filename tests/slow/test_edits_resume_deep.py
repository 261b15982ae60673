"""Resume under SIGKILL at random moments (issue 12 §4), at volume: a child runs the laptop session (or
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

from model.edits.outbox import Outbox
from model.edits.runtime import Runtime
from model.edits.session import Session, resume_session, run_session
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
    done, runs = 0, 0
    while done < kills:
        d = root / f"run{runs}"
        d.mkdir()
        runs += 1
        recorded, stuck = -1, 0
        while True:
            pid = os.fork()
            if pid == 0:
                _child(d, sess)
            # widen the window while no step gets recorded (a resume replays before it runs a step)
            time.sleep(rng.uniform(0, max_delay * 2 ** min(stuck, 5)))
            os.kill(pid, signal.SIGKILL)
            _, status = os.waitpid(pid, 0)
            if not os.WIFSIGNALED(status):
                break  # the child finished before the kill
            done += 1
            if (d / "s.db").exists():
                rt = Runtime(str(d / "s.db"), readonly=True)  # show's open, right after a crash
                rt.verify()
                now = len(rt.steps_done())
                rt.close()
                stuck = stuck + 1 if now == recorded else 0
                recorded = now
        got = resumed(d, sess)
        assert got["out"] == ref["out"]
        assert got["journal"] == ref["journal"]
        assert got["sent"] == ref["sent"]
        assert got["keys"] == got["expected_keys"]
    return {"kills": done, "runs": runs}


@pytest.mark.slow
@pytest.mark.parametrize(("kills", "max_delay", "seed"), [(300, 0.05, 1), (300, 0.02, 2)])
def test_random_sigkills_then_resume_equal_the_uninterrupted_run(tmp_path: Path, kills: int, max_delay: float,
                                                                  seed: int) -> None:
    got = campaign(tmp_path, kills, max_delay, seed)
    assert got["kills"] >= kills and got["runs"] >= 2, got
