"""``agentwarrant revise``: two separate verdicts, exit status, JSON output, bad input."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from model.shell.cli import main

ROOT = Path(__file__).resolve().parents[2]
DELETE = str(ROOT / "corpus" / "policies" / "delete_ab.policy")
REV = ROOT / "corpus" / "revisions"


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["revise", *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, result.output


def test_widening_prints_lost_client_and_forbidden_trace_separately() -> None:
    code, out = _run(DELETE, str(REV / "delete_ab" / "delete_widen_first.policy"),
                     "--workload", str(REV / "workloads" / "delete_ab.json"))
    assert code == 1
    lines = out.splitlines()
    assert lines[0].startswith("preservation: A client is lost: the old policy admits [delete A, delete B]")
    safety = next(line for line in lines if line.startswith("safety:"))
    assert "admits the forbidden sequence [delete A, delete A]" in safety
    # human output carries no Python reprs; the technical notes appear only under --explain
    assert "{'" not in out and "structural" not in out
    code, explained = _run(DELETE, str(REV / "delete_ab" / "delete_widen_first.policy"),
                           "--workload", str(REV / "workloads" / "delete_ab.json"), "--explain")
    assert code == 1 and "structural certificate:" in explained and "simulation relation:" in explained


def test_send_quota_raise_json() -> None:
    code, out = _run(str(ROOT / "corpus" / "policies" / "report.policy"),
                     str(REV / "report" / "report_raise_send_both.policy"),
                     "--workload", str(REV / "workloads" / "report.json"), "--bound", "5", "--json")
    assert code == 1  # preserving, but it newly admits a forbidden trace: the property fails, with a witness
    doc = json.loads(out)
    assert doc["preservation"]["verdict"] == "certified" and doc["preservation"]["by"] == "structural"
    assert doc["safety"]["verdict"] == "newly_forbidden" and doc["safety"]["trace"]["confirmed"] is True


def test_derived_workload_and_unknown_within_bound() -> None:
    code, out = _run(DELETE, str(REV / "delete_ab" / "delete_widen_first.policy"))
    assert code == 1 and "A client is lost" in out and "not checked" in out
    # at bound 0 the bounded search reaches no call; the search through the counters still finds the client
    code, out = _run(DELETE, str(REV / "delete_ab" / "delete_widen_first.policy"), "--bound", "0")
    assert code == 1 and "A client is lost" in out
    # where the counters are not the whole state (a resolver binds slots) it does not run: Unknown, exit 3
    code, out = _run(str(ROOT / "corpus" / "policies" / "report.policy"),
                     str(REV / "report" / "report_no_release.policy"), "--bound", "0")
    assert code == 3 and "Unknown: no certificate" in out and "at most 0 calls" in out


def test_restricted_effects_option() -> None:
    code, out = _run(DELETE, str(REV / "delete_ab" / "delete_narrow_ceiling_on_e.policy"),
                     "--effects", 'file.delete("A"),file.delete("B")')
    assert code == 0 and out.startswith('preservation: Every client is kept: each call sequence on '
                                        'file.delete("A"), file.delete("B")')


def test_bad_input_is_one_line_exit_2(tmp_path: Path) -> None:
    for args in ([DELETE, DELETE, "--effects", "file.delete(["], [DELETE, str(tmp_path / "none.policy")],
                 [DELETE, DELETE, "--bound", "-1"]):
        code, out = _run(*args)
        assert code == 2 and out.startswith("error:") and "Traceback" not in out, out


def test_an_effects_action_no_policy_mentions_is_bad_input_naming_it() -> None:
    """A misspelt action would restrict E to nothing and certify the README's regression, so it is refused."""
    code, out = _run(DELETE, str(REV / "delete_ab" / "delete_widen_first.policy"),
                     "--workload", str(REV / "workloads" / "delete_ab.json"), "--effects", "no.such.action")
    assert code == 2 and out.startswith("error: --effects") and "'no.such.action'" in out, out
    assert "Certified" not in out
    code, out = _run(DELETE, str(REV / "delete_ab" / "delete_widen_first.policy"),
                     "--workload", str(REV / "workloads" / "delete_ab.json"), "--effects", 'file.delete("A"),no.such')
    assert code == 2 and "'no.such'" in out, out


def test_workload_names_that_no_policy_has_are_bad_input(tmp_path: Path) -> None:
    """A misspelt tool, agent or forbidden action would make the regression pass silently, so each is refused."""
    doc = json.loads((REV / "workloads" / "delete_ab.json").read_text())
    cases = [("agent", lambda d: d.__setitem__("agent", "nobody"), "$.agent"),
             ("tool", lambda d: d["calls"][0].__setitem__("tool", "Delet"), "$.calls[0].tool"),
             ("forbidden", lambda d: d["forbidden"][0].__setitem__("action", "file.delet"), "$.forbidden[0].action")]
    for what, mutate, path in cases:
        bad = json.loads(json.dumps(doc))
        mutate(bad)
        f = tmp_path / f"{what}.json"
        f.write_text(json.dumps(bad))
        code, out = _run(DELETE, str(REV / "delete_ab" / "delete_widen_first.policy"), "--workload", str(f))
        assert code == 2 and path in out and "Certified" not in out, (what, out)


def test_every_corpus_workload_names_only_what_its_policies_have() -> None:
    from model.revision.corpus import load_manifest
    from model.revision.names import check_effects_exist, check_workload_names

    entries = load_manifest()
    assert len(entries) >= 50
    for e in entries:
        check_workload_names(e.base.workload, (e.base.policy, e.new), e.id)
        check_effects_exist(e.effects, (e.base.policy, e.new), e.id)
