"""The newcomer path (what a first reader of the checkout meets): the README says how the command is
reached and points at nothing outside the checkout, its Python example runs, human output carries no
Python reprs, ``reproduce`` lists its experiments and prints plain lines when piped, ``--plain`` tables are
never cut, the ``--json`` help of ``monitor run`` says what it prints, and no tracked file is also ignored."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from model.shell.cli import main
from model.shell.reproduce import EXPERIMENTS

ROOT = Path(__file__).resolve().parent.parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
# what a Python object looks like when printed raw: <Enum.X: 'x'>, Class(field=...), {'key': ...}
REPR = re.compile(r"<[A-Za-z]+\.[A-Z_]+: |\b[A-Z][A-Za-z]+\([a-z_]+=|\{'")


def _run(*args: str) -> str:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code in (0, 1), result.output
    return result.output


def test_readme_says_how_the_command_is_reached() -> None:
    assert "source .venv/bin/activate" in README and ".venv/bin/agentwarrant" in README
    assert re.search(r"^venv: ", (ROOT / "Makefile").read_text(), re.M)


def test_readme_points_at_nothing_outside_the_checkout() -> None:
    assert "../" not in README
    outside = [p for p in re.findall(r"(?<![\w.])/[a-z]+/[\w./-]+", README) if not p.startswith("/tmp/")]
    assert outside == []
    for name in ("agenra-stateful-agent-authorization.md", "execution-edit-checking.md",
                 "resumable-action-attempts.md", "parmana-signed-approvals.md", "DESIGN.md"):
        assert name not in README, name


def test_readme_python_example_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    blocks = re.findall(r"```python\n(.*?)```", README, re.S)
    assert blocks
    for code in blocks:
        exec(compile(code, "README.md", "exec"), {})


@pytest.mark.parametrize("args", [
    ("admit", "demo"),
    ("revise", "corpus/policies/delete_ab.policy", "corpus/revisions/delete_ab/delete_widen_first.policy",
     "--workload", "corpus/revisions/workloads/delete_ab.json"),
    ("revise", "corpus/policies/delete_ab.policy", "corpus/revisions/delete_ab/delete_widen_first.policy",
     "--workload", "corpus/revisions/workloads/delete_ab.json", "--explain"),
    ("edit", "check", "corpus/edits/release_reject.json"),
    ("monitor", "run", "corpus/policies/payments.policy", "corpus/traces/payments_review.json"),
    ("verify-record", "corpus/admission/records.json", "--key", "corpus/admission/keys/runtime.pub.pem"),
], ids=lambda a: " ".join(a[:2]))
def test_human_output_has_no_python_reprs(args: tuple[str, ...], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    out = _run(*args)
    assert not REPR.search(out), REPR.search(out)


def test_the_repr_pattern_catches_what_admit_demo_used_to_print() -> None:
    old = ("approve  -> Recorded(attempt_id='c35e', approver='alice', state=<AttemptState.APPROVED: 'approved'>)\n"
           "  structural: user list: position 0: matching differs on {'action': 'file.delete'}")
    assert len(REPR.findall(old)) == 3


def test_session_run_shows_each_promised_step_and_show_has_a_legend(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    db = str(tmp_path / "laptop.db")
    out = _run("edit", "session", db, "run", "corpus/edits/sessions/laptop.json")
    for step in ("ForkChoice(", "MergeSelect(", "RestoreLive(", "Checkpoint k0"):
        assert step in out, step
    assert not REPR.search(out)
    assert "legend:" in _run("edit", "session", db, "show")


def test_reproduce_help_lists_every_experiment() -> None:
    out = _run("reproduce", "--help")
    for name in EXPERIMENTS:
        assert re.search(rf"^\s+{re.escape(name)}\s+\S", out, re.M), name


def test_reproduce_piped_prints_finished_lines_without_control_characters(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["reproduce", "report-table", "--out", str(tmp_path)])
    assert result.exit_code == 0
    assert re.search(r"^report-table: done in [0-9.]+ s$", result.output, re.M)
    assert "\r" not in result.output and "\x1b" not in result.output


def test_plain_tables_are_tab_separated_and_never_cut(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    out = _run("--plain", "monitor", "run", "corpus/policies/report.policy", "corpus/traces/report_delivery.json",
               "--explain")
    rows = [line.split("\t") for line in out.splitlines() if "\t" in line]
    assert rows[0][:5] == ["#", "step", "decision", "why", "result"]
    assert all(len(r) == len(rows[0]) for r in rows)
    assert 'no user allow matches message.send("alice@example.org")' in out  # cut at 80 columns without --plain
    assert "┃" not in out and "…" not in out


def test_monitor_run_json_is_the_one_object_its_help_describes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    assert "one canonical JSON object {policy, steps}" in " ".join(_run("monitor", "run", "--help").split())
    doc = json.loads(_run("monitor", "run", "corpus/policies/report.policy", "corpus/traces/report_delivery.json",
                          "--json"))
    assert set(doc) == {"policy", "steps"} and len(doc["steps"]) == 7


@pytest.mark.skipif(shutil.which("git") is None or not (ROOT / ".git").exists(), reason="not a git checkout")
def test_no_tracked_file_is_ignored() -> None:
    out = subprocess.run(["git", "ls-files", "-ci", "--exclude-standard"], cwd=ROOT, capture_output=True, text=True,
                         check=True)
    assert out.stdout.split() == []


def test_verify_approval_explains_itself(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    args = ["admit", "verify-approval", "corpus/admission/approval_order-1.json", "--approvers",
            "corpus/admission/approvers.json", "--action", "paytm:refund", "--resource", "order-1", "--amount", "120"]
    assert _run(*args, "--now", "2026-12-02T15:00:00Z").startswith("verified: alice's approval of paytm:refund")
    late = _run(*args, "--now", "2026-12-02T16:00:00Z")
    assert late.startswith("refused: the approval has expired (expired:")


def test_tables_off_a_terminal_are_plain_without_the_flag(monkeypatch: pytest.MonkeyPatch) -> None:
    # CliRunner's output is not a terminal, as a pipe or a log file is not: nothing boxed, nothing cut
    monkeypatch.chdir(ROOT)
    out = _run("monitor", "run", "corpus/policies/report.policy", "corpus/traces/report_delivery.json", "--explain")
    assert 'no user allow matches message.send("alice@example.org")' in out
    assert "┃" not in out and "…" not in out
