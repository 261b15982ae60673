"""The laptop scenario of Sections II, III and Figure 1 end to end through the durable runtime, and the
session corpus: every script replays to its expected answers, byte for byte on a second run."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from model.edits.runtime.answers import (
    CheckAnswer,
    EditAccepted,
    EditInvalid,
    EditRejected,
    NoCommit,
    Returned,
    Reuse,
    Stale,
    Updated,
)
from model.edits.runtime.derive_failure import DeriveFailure
from model.edits.runtime.invariant import agent_sec, within_w
from model.edits.runtime.runtime import Runtime
from model.edits.runtime.scenarios import SESSIONS, laptop
from model.edits.runtime.session_corpus import write_corpus
from model.edits.runtime.session_script import load_session, run_session, run_step, session_from_json
from model.shell.cli import main


def test_laptop_end_to_end(tmp_path: Path) -> None:
    script = laptop()
    sess = session_from_json(script)
    path = str(tmp_path / "laptop.db")
    rt, root = Runtime.create(path, sess.registration, sess.seed)
    assert isinstance(root, EditAccepted)
    answers: dict[str, CheckAnswer] = {}
    seen = []
    for step in sess.steps:
        before = rt.state()
        rt, a = run_step(rt, step, answers, path)
        s = rt.state()
        assert agent_sec(s) == [], step
        assert within_w(s)
        seen.append(a)
        if isinstance(a, Reuse):
            # the restored approval reuses p2: no new authorization, but the workflow moved on
            assert a.record == "p2" and s.log == before.log and s.out == before.out
            assert len(s.processed) == len(before.processed) + 1
    kinds = [type(a).__name__ if a is not None else "restart" for a in seen]
    assert kinds == ["New", "Saved", "New", "EditRejected", "Updated", "Updated", "EditInvalid", "Updated",
                     "EditAccepted", "Reuse", "NoCommit", "EditInvalid", "Updated", "Deny", "New", "Sent",
                     "restart", "Returned", "New", "Sent", "Sent", "Sent", "QueueEmpty", "Settled", "Returned",
                     "Deny"]
    # the parallel fork would pay both suppliers: rejected with an empty candidate family
    rej = seen[3]
    assert isinstance(rej, EditRejected) and rej.verdict.proof.candidates == ()
    # MergeSelect(R) before the reuse: dropping arm L needed the school's removal, then accepted
    drop, ok, stale, after = seen[6], seen[8], seen[10], seen[11]
    assert isinstance(drop, EditInvalid) and drop.reason is DeriveFailure.REQUIRED_RESULT_DROPPED
    assert isinstance(ok, EditAccepted)
    assert isinstance(stale, NoCommit) and stale.reason is Stale.RECORD_CHANGED
    assert isinstance(after, EditInvalid) and after.reason is DeriveFailure.UNSELECTED_ARM_PROGRESSED
    assert after.digest != ok.digest
    # one approval record for the whole run, one payment, one shipment; the queue sent in order
    s = rt.state()
    assert [r.label for r in s.log] == ["r", "a", "pL", "s"]
    assert all(o.sent for o in s.out)
    ret = seen[-2]
    assert isinstance(ret, Returned) and ret.value == {"approved": True}
    rt.close()


def test_laptop_restart_exposes_the_last_committed_state(tmp_path: Path) -> None:
    sess = session_from_json(laptop())
    path = str(tmp_path / "l.db")
    rt, _ = Runtime.create(path, sess.registration, sess.seed)
    answers: dict[str, CheckAnswer] = {}
    for step in sess.steps[:12]:
        rt, _ = run_step(rt, step, answers, path)
    s = rt.state()
    rt.close()
    again = Runtime(path)
    assert again.state() == s and agent_sec(again.state()) == []
    update = again.try_update(answers["Y"].edit, answers["Y"])
    assert isinstance(update, NoCommit)  # the answer named Y stays stale after a restart too
    again.close()


@pytest.mark.parametrize("path", sorted(SESSIONS.glob("*.json")), ids=lambda p: p.name)
def test_corpus_session_replays_to_its_expectations(path: Path, tmp_path: Path) -> None:
    sess = load_session(path)
    mismatches: list[tuple[int, str]] = []
    first = run_session(sess, str(tmp_path / "a.db"),
                        lambda i, a, m: mismatches.append((i, m)) if m is not None else None)
    assert mismatches == []
    assert first == run_session(sess, str(tmp_path / "b.db"))  # replayable: identical answers and digests


def test_corpus_is_what_the_generator_writes(tmp_path: Path) -> None:
    written = write_corpus(tmp_path)
    assert sorted(p.name for p in written) == sorted(p.name for p in SESSIONS.glob("*.json"))
    for p in written:
        assert json.loads(p.read_text()) == json.loads((SESSIONS / p.name).read_text()), p.name


def test_cli_session_run_and_show(tmp_path: Path) -> None:
    runner = CliRunner()
    db = tmp_path / "cli.db"
    r = runner.invoke(main, ["edit", "session", str(db), "run", str(SESSIONS / "laptop.json")])
    assert r.exit_code == 0, r.output
    assert "call xa@b6" in r.output and "reuse: served by record p2 (action da)" in r.output
    assert "not committed: the record changed after the check" in r.output
    # the steps the README promises, in the paper's names
    for form in ("Checkpoint k0", "ForkParallel(", "ForkChoice(", "RestoreLive(", "MergeSelect(", "restart"):
        assert form in r.output, form
    r2 = runner.invoke(main, ["edit", "session", str(db), "show"])
    assert r2.exit_code == 0 and "log p1:dr/r[authorized] p2:da/a[settled]" in r2.output
    assert "legend:" in r2.output and "reuse(call,action)" in r2.output
    r3 = runner.invoke(main, ["edit", "session", str(db), "run", str(SESSIONS / "laptop.json")])
    assert r3.exit_code == 2 and "existing file" in r3.output


def test_cli_exit_status_reports_a_wrong_expectation(tmp_path: Path) -> None:
    script = laptop()
    script["steps"][0]["expect"] = "reuse"
    f = tmp_path / "bad.json"
    f.write_text(json.dumps(script))
    r = CliRunner().invoke(main, ["edit", "session", str(tmp_path / "x.db"), "run", str(f), "--json"])
    assert r.exit_code == 1 and "<-- expected reuse" in r.output


def test_updated_answer_names_the_new_version(tmp_path: Path) -> None:
    sess = session_from_json(laptop())
    rt, _ = Runtime.create(str(tmp_path / "v.db"), sess.registration, sess.seed)
    from model.edits.runtime.forms import ForkChoice

    a = rt.check(ForkChoice("b0", "fork"))
    assert isinstance(a, EditAccepted)
    u = rt.try_update(ForkChoice("b0", "fork"), a)
    assert isinstance(u, Updated) and u.eta == a.eta_new == rt.state().eta
    assert dict(rt.state().versions) == {"v1": "closed", a.eta_new: "active"}
    rt.close()
