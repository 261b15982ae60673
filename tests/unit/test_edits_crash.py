"""Crash safety of the durable runtime (*Exact Checking for Execution Edits*, Appendix A-K, Lemma 17; Table III
"stop and restart"): a forked child drives the runtime through the laptop steps and is killed with
SIGKILL at a random moment; the parent reopens the store and checks that the recovered state is
exactly one of the committed states of a reference run, that AgentSec holds, that the journal is the
reference journal's prefix ending at that state, and that no authorization is lost or duplicated and
the queue keeps its order. The next child resumes from the recovered state, so the kills fall all
along the run; when a run finishes, a fresh store starts over. A second, smaller campaign runs steps
with Table III Preloads between tool calls and updates (prepared versions committed and dropped)."""

from __future__ import annotations

import os
import random
import shutil
import signal
import tempfile
import time
from pathlib import Path
from typing import Any

from model.edits.runtime.answers import CheckAnswer
from model.edits.runtime.invariant import agent_sec
from model.edits.runtime.record_json import state_digest, state_text
from model.edits.runtime.runtime import Runtime
from model.edits.runtime.scenarios import laptop, playground
from model.edits.runtime.session_script import Session, run_step, session_from_json


def crash_steps() -> Session:
    """The laptop steps without named answers or restarts: every step is a function of the state."""
    script = laptop()
    steps = [{k: v for k, v in s.items() if k != "expect"} for s in script["steps"]
             if "as" not in s and "answer" not in s and "restart" not in s]
    return session_from_json({**script, "steps": steps})


def preload_steps() -> Session:
    """Check-then-preload and check-then-update steps on the playground (every step a function of the
    state): a prepared fork, re-prepared after a tool call and installed; a prepared parallel fork
    dropped when an Extend takes effect, then installed afresh."""
    fork = {"edit": "fork-choice", "branch": "b0", "rule": "fc"}
    par = {"edit": "fork-parallel", "branch": "b2", "rule": "fp"}
    steps = [{"preload": fork}, {"use": "xa"}, {"preload": fork}, {"update": fork}, {"preload": par},
             {"use": "xb@b2"}, {"update": {"edit": "extend"}}, {"update": par}, {"dispatch": True},
             {"dispatch": True}]
    return session_from_json({**playground(name="crash-preload"), "steps": steps})


def reference(sess: Session, path: Path) -> tuple[list[str], list[str]]:
    """The committed state after registration and after each step, and the reference journal digests."""
    rt, _ = Runtime.create(str(path), sess.registration, sess.seed)
    states = [state_text(rt.state())]
    answers: dict[str, CheckAnswer] = {}
    for step in sess.steps:
        rt, _ = run_step(rt, step, answers, str(path))
        states.append(state_text(rt.state()))
    journal = [d for _, _, d in rt.journal()]
    rt.close()
    return states, journal


def _child(path: str, sess: Session, start: int) -> None:
    try:
        rt = Runtime(path)
        answers: dict[str, CheckAnswer] = {}
        for step in sess.steps[start:]:
            rt, _ = run_step(rt, step, answers, path)
        rt.close()
    finally:
        os._exit(0)


def fast_dir(tmp_path: Path) -> Path:
    """A memory-backed directory when there is one: SIGKILL stops the process, not the machine, so the
    OS keeps every completed write and recovery takes the same path as on disk, without fsync latency."""
    shm = Path("/dev/shm")
    return Path(tempfile.mkdtemp(dir=shm, prefix="edits-crash-")) if shm.is_dir() else tmp_path


def campaign(tmp_path: Path, kills: int, max_delay: float, seed: int, on_disk: bool = False,
             sess: Session | None = None) -> dict[str, Any]:
    work = tmp_path if on_disk else fast_dir(tmp_path)
    try:
        return _campaign(work, kills, max_delay, seed, sess if sess is not None else crash_steps())
    finally:
        if work != tmp_path:
            shutil.rmtree(work, ignore_errors=True)


def _campaign(tmp_path: Path, kills: int, max_delay: float, seed: int, sess: Session) -> dict[str, Any]:
    rng = random.Random(seed)
    states, journal = reference(sess, tmp_path / "reference.db")
    index = {s: i for i, s in reversed(list(enumerate(states)))}  # first step index reaching each state
    done, runs, seen, checked = 0, 0, set(), set()
    while done < kills:
        path = str(tmp_path / f"run{runs}.db")
        runs += 1
        Runtime.create(path, sess.registration, sess.seed)[0].close()
        position, stuck = 0, 0
        while position < len(sess.steps) and done < kills:
            pid = os.fork()
            if pid == 0:
                _child(path, sess, position)
            # widen the window while no step commits (a slow step such as an update), so every point is reached
            time.sleep(rng.uniform(0, max_delay * 2 ** min(stuck, 5)))
            os.kill(pid, signal.SIGKILL)
            _, status = os.waitpid(pid, 0)
            if os.WIFSIGNALED(status):
                done += 1
            rt = Runtime(path)
            s = rt.state()
            text = state_text(s)
            assert text in index, "the recovered state is not a committed state of the reference run"
            at = index[text]
            assert at >= position or states[at] == states[position], "recovery went back past a commit"
            if text not in checked:  # equal states give equal AgentSec verdicts: decide each once
                assert agent_sec(s) == []
                checked.add(text)
            got = [d for _, _, d in rt.journal()]
            assert got == journal[: len(got)] and got[-1] == state_digest(s)
            assert [r.id for r in s.log] == [f"p{i}" for i in range(1, len(s.log) + 1)]
            assert len({r.action for r in s.log}) == len(s.log)  # no authorization duplicated
            assert [o.record for o in s.out] == [r.id for r in s.log]  # the queue keeps creation order
            rt.close()
            seen.add(at)
            nxt = max(i for i, st in enumerate(states) if st == text)
            stuck = stuck + 1 if nxt == position else 0
            position = nxt
        for suffix in ("", "-wal", "-shm"):
            Path(path + suffix).unlink(missing_ok=True)
    return {"kills": done, "runs": runs, "distinct": len(seen), "committed": len(set(states))}


def test_sigkill_at_random_points_recovers_a_committed_state(tmp_path: Path) -> None:
    got = campaign(tmp_path, kills=200, max_delay=0.002, seed=20260)
    assert got["kills"] >= 200
    # the kills landed all along the run, not only before the first commit
    assert got["distinct"] >= got["committed"] // 2, got


def test_sigkill_around_preloads_recovers_a_committed_state(tmp_path: Path) -> None:
    sess = preload_steps()
    reference(sess, tmp_path / "ref.db")
    rt = Runtime(str(tmp_path / "ref.db"))
    names = [step for _, step, _ in rt.journal()]
    rt.close()
    assert names.count("preload") == 3 and names.count("update") == 3  # the reference run commits preloads
    got = campaign(tmp_path, kills=60, max_delay=0.002, seed=4711, sess=sess)
    assert got["kills"] >= 60
    assert got["distinct"] >= got["committed"] // 2, got
