"""The AgentDojo binding: the suite policies declare AgentDojo's real tools, and Derived arguments become
the call's parents."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

pytest.importorskip("agentdojo", reason="AgentDojo is the optional extra 'agentdojo' (make test installs it)")

from model.bench.agentdojo.binding import Derived, DojoAdapter, policy_argument
from model.bench.agentdojo.fields import OBSERVE, granted
from model.bench.agentdojo.suites import SUITES, get_suite, suite_policy
from model.monitor.adapter.shell import Adapter, Handle, Refusal
from model.monitor.decide.base import DenyReason
from model.monitor.language.syntax import load_policy


@pytest.mark.parametrize("suite", SUITES)
def test_suite_policy_declares_exactly_agentdojos_tools_with_their_arguments(suite: str) -> None:
    policy = suite_policy(suite)
    dojo = {f.name: f for f in get_suite(suite).tools}
    # and the adapter's field observations where the policy trusts a field (fields.py)
    observed = {OBSERVE} if granted(policy) else set()
    assert {t.name for t in policy.tools} == set(dojo) | observed
    assert set(granted(policy)) <= set(dojo)  # every trusted field is a field of one of the suite's tools
    for tool in policy.tools:
        if tool.name == OBSERVE:
            continue
        fields = dojo[tool.name].parameters.model_fields
        assert tool.args == {policy_argument(a) for a in fields}, tool.name
        assert tool.required == {policy_argument(a) for a, f in fields.items() if f.is_required()}, tool.name


def test_weak_control_differs_from_the_suite_policy_only_in_its_flow_rules() -> None:
    weak, strong = suite_policy("banking", "weak"), suite_policy("banking")
    assert (weak.tools, weak.user, weak.application, weak.nodes) == (strong.tools, strong.user, strong.application,
                                                                     strong.nodes)
    assert weak.flows != strong.flows


def _report_adapter(cls: type[Adapter]) -> Adapter:
    from model.monitor.adapter.toolkit import ReportWorld

    return cls(load_policy("corpus/policies/report_no_origin.policy"), ReportWorld().tools(), "assistant")


def test_derived_arguments_carry_the_proposed_value_and_every_producer_as_parent() -> None:
    adapter = _report_adapter(DojoAdapter)
    report, inbox = adapter.call("Read"), adapter.call("Other")
    assert isinstance(report, Handle) and isinstance(inbox, Handle)
    body = Derived("Q3 report", (report, inbox))  # computed from both results
    call, concrete, _ = adapter._to_call("Sanitize", {"record": body})
    assert concrete == {"record": "Q3 report"}
    assert call.parents() == (report.id, inbox.id)
    # the label joins both producers: the report is Confidential, so Sanitize's input is too
    verdict = adapter.explain("Sanitize", record=body)[0]
    assert verdict.label is not None and verdict.label.trusted is False


def test_a_derived_argument_naming_another_adapters_result_is_an_unknown_handle() -> None:
    mine, theirs = _report_adapter(DojoAdapter), _report_adapter(DojoAdapter)
    foreign = theirs.call("Read")
    assert isinstance(foreign, Handle)
    result = mine.call("Sanitize", record=Derived("Q3 report", (foreign,)))
    assert isinstance(result, Refusal) and result.verdict.reason is DenyReason.UNKNOWN_HANDLE


def test_a_damaged_or_stale_template_snapshot_is_rebuilt(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from model.bench.agentdojo import environment as envmod

    monkeypatch.setenv("AGENTWARRANT_CACHE", str(tmp_path))
    envmod.template.cache_clear()
    try:
        built = envmod.template("banking")
        (snap,) = (tmp_path / "agentdojo").glob("banking-*.json")
        blob = snap.read_bytes()
        assert len(blob) > 65 and blob[64:65] == b"\n"
        envmod.template.cache_clear()
        assert envmod.template("banking") == built  # read back: its digest checks
        snap.write_bytes(blob[:64] + b"\n" + blob[65:-10])  # truncated: the digest fails
        envmod.template.cache_clear()
        again = envmod.template("banking")
        new = snap.read_bytes()  # rebuilt from the YAML and written anew, whole
        assert again == built and hashlib.sha256(new[65:]).hexdigest() == new[:64].decode()
        forged = b'{"base":{},"defaults":[[1,2]],"places":"x","styles":[]}'  # its digest checks, its shape does not
        snap.write_bytes(hashlib.sha256(forged).hexdigest().encode() + b"\n" + forged)
        envmod.template.cache_clear()
        assert envmod.template("banking") == built
    finally:
        envmod.template.cache_clear()


def test_the_command_leaves_pandas_importable_in_its_process() -> None:
    # The command imports deepdiff with pandas marked absent (faster); the mark must not outlive that import,
    # or a notebook or library caller in the same process could no longer import pandas. A fresh process:
    # neither module loaded yet, as for a first command.
    import subprocess
    import sys

    script = ("import sys\nfrom click.testing import CliRunner\nfrom model.shell.cli import main\n"
              "r = CliRunner().invoke(main, ['agentdojo', 'banking', 'user_task_0'])\n"
              "assert r.exit_code in (0, 1), r.output\nimport pandas\nprint('ok')\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300,
                          cwd=Path(__file__).resolve().parents[2])
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr[-2000:]
