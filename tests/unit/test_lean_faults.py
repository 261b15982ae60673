"""The Lean boundary under faults, without Lean: fake oracles (model/oracle/fake_oracles.py) written to tmp_path.

Every fault is an ``OracleError`` of its own kind from the client, a ``LeanBackendError`` (never an Allow)
from the Adapter, and one stderr line with exit 3 from ``monitor run --backend lean`` and ``drt``. A hang
answers by the per-answer timeout or the deadline, whichever comes first (the error's kind says which
fired); a stderr flood answers by its exit (the client drained stderr while waiting)."""

from __future__ import annotations

import csv
import time
from functools import partial
from pathlib import Path

import pytest
from click.testing import CliRunner

from model.monitor.adapter.shell import Adapter
from model.monitor.adapter.toolkit import ReportWorld
from model.monitor.decide.base import Decision
from model.monitor.language.syntax import load_policy
from model.oracle.backend import LeanBackendError, LeanCore
from model.oracle.fake_oracles import FAKES, write_fake
from model.oracle.lean import LeanOracle, OracleError
from model.shell.cli import main

ROOT = Path(__file__).resolve().parents[2]
POLICY = str(ROOT / "corpus" / "policies" / "report.policy")
TRACE = str(ROOT / "corpus" / "traces" / "report_delivery.json")
TIMEOUT = 0.5
# at the commands the stdout flood meets the timeout or the 16 MiB answer limit first, by the machine's speed
KIND = {"hang": "timeout", "exit": "process", "garbage": "parse", "echo": "protocol", "wrong shape": "shape",
        "stderr flood": "process", "stdout flood": "output", "not executable": "process", "missing": "process"}


def test_every_fake_has_its_expected_kind() -> None:
    assert set(KIND) == set(FAKES)


@pytest.mark.parametrize("fault", [f for f in FAKES if f != "wrong shape"])  # (a reader's fault: below)
def test_the_client_raises_the_fault_s_kind(tmp_path: Path, fault: str) -> None:
    exe = write_fake(fault, tmp_path)
    with pytest.raises(OracleError) as err:  # (a small answer limit: the flood passes it well within the timeout)
        with LeanOracle(exe, timeout=TIMEOUT if fault == "hang" else 30, max_answer=2**20) as oracle:
            oracle.call("monitor", {"payload": "x" * 200_000})  # more than a pipe's buffer: written while read
    assert err.value.kind == KIND[fault], err.value
    assert "\n" not in str(err.value)


def test_an_output_of_another_shape_is_the_reader_s_fault(tmp_path: Path) -> None:
    from model.oracle.lean import shaped

    with LeanOracle(write_fake("wrong shape", tmp_path), timeout=30) as oracle:
        out = oracle.call("monitor", {})
        assert out == [42]  # the client passes the output on; the judgment's reader refuses it
        with pytest.raises(OracleError) as err:
            shaped("monitor", out, lambda o: {"decision": o["decision"]})
        assert err.value.kind == "shape"
        with pytest.raises(OracleError) as err:
            shaped("ledger_allocate", {"user": []}, lambda o: o, ("user", "app", "both"))
        assert err.value.kind == "shape" and "app, both" in str(err.value)


def test_the_deadline_cuts_an_exchange_short(tmp_path: Path) -> None:
    with LeanOracle(write_fake("hang", tmp_path), timeout=60, deadline=time.monotonic() + TIMEOUT) as oracle:
        with pytest.raises(OracleError) as err:
            oracle.call("monitor", {})
        assert err.value.kind == "budget"
        with pytest.raises(OracleError) as again:  # the process was given up: no second wait
            oracle.call("monitor", {})
        assert again.value.kind == "process"


def test_a_flood_s_tail_is_bounded_and_one_line(tmp_path: Path) -> None:
    with pytest.raises(OracleError) as err:
        with LeanOracle(write_fake("stderr flood", tmp_path), timeout=30) as oracle:
            oracle.call("monitor", {})
    assert err.value.kind == "process" and "xxxx" in str(err.value) and len(str(err.value)) < 1000


@pytest.mark.parametrize("fault", list(FAKES))
def test_the_adapter_never_allows_on_a_fault(tmp_path: Path, fault: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGENTWARRANT_ORACLE", str(write_fake(fault, tmp_path)))
    policy = load_policy(POLICY)
    adapter: Adapter | None = None
    with pytest.raises(LeanBackendError):
        adapter = Adapter(policy, ReportWorld().tools(), "assistant", backend=partial(LeanCore, timeout=TIMEOUT))
        adapter.call("Read")  # Allow on the Python backend
    if adapter is not None:
        assert not [e for e in adapter.log if e.verdict.decision is Decision.ALLOW]
        adapter.close()


def _one_line_exit_3(args: list[str], oracle: Path) -> str:
    res = CliRunner().invoke(main, args, env={"AGENTWARRANT_ORACLE": str(oracle)})
    assert res.exit_code == 3, (res.output, res.exception)
    assert not isinstance(res.exception, Exception) or isinstance(res.exception, SystemExit), res.exception
    lines = res.stderr.splitlines()
    assert len(lines) == 1 and "Traceback" not in res.stderr, res.stderr
    return lines[0]


@pytest.mark.parametrize("fault", list(FAKES))
def test_monitor_run_on_the_lean_backend_answers_unknown(tmp_path: Path, fault: str) -> None:
    line = _one_line_exit_3(["monitor", "run", POLICY, TRACE, "--backend", "lean", "--json", "--oracle-timeout",
                             str(TIMEOUT)], write_fake(fault, tmp_path))
    assert line.startswith("monitor run: unknown:")
    assert f"oracle {KIND[fault]} error" in line or (fault == "stdout flood" and "oracle timeout error" in line)


def test_monitor_run_s_budget_bounds_the_oracle(tmp_path: Path) -> None:
    line = _one_line_exit_3(["monitor", "run", POLICY, TRACE, "--backend", "lean", "--budget", "1s"],
                            write_fake("hang", tmp_path))
    assert "oracle budget error" in line


@pytest.mark.parametrize("fault", list(FAKES))
def test_drt_answers_unknown(tmp_path: Path, fault: str) -> None:
    line = _one_line_exit_3(["drt", "--no-build", "--cases", "2", "--seed", "0", "--oracle-timeout", str(TIMEOUT)],
                            write_fake(fault, tmp_path))
    assert line.startswith("drt: unknown:")
    if fault != "missing":  # (found missing before any oracle is started)
        assert f"oracle {KIND[fault]} error" in line or (fault == "stdout flood" and "oracle timeout error" in line)


def test_the_committed_fault_table_has_every_cell_unknown_and_no_allow() -> None:
    path = ROOT / "paper_figures" / "tables" / "lean_faults.csv"
    with path.open(encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    assert {(r["fault"], r["entry point"]) for r in rows} == {(f, e) for f in FAKES
                                                              for e in ("monitor run", "drt", "Adapter")}
    for r in rows:
        want = "LeanBackendError" if r["entry point"] == "Adapter" else "exit 3"
        assert r["answer"] == want and r["allows"] == "0", r
        assert r["stderr lines"] == ("0" if r["entry point"] == "Adapter" else "1"), r


def test_a_shard_s_fault_is_carried_to_the_combined_summary(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from functools import partial

    from model.dist.shard import lean_oracle, sharded_campaign

    monkeypatch.setenv("AGENTWARRANT_ORACLE", str(write_fake("garbage", tmp_path)))
    out = sharded_campaign(None, "ledger_allocate", 4, 0, 2, ROOT, partial(lean_oracle, TIMEOUT),
                           vectors=tmp_path / "v")
    assert "oracle parse error" in out.fault and out.compared == 0 and not out.mismatches


def test_the_library_campaign_raises_a_fault_instead_of_a_short_answer(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    from model.shell.api_evidence import drt_campaign

    monkeypatch.setenv("AGENTWARRANT_ORACLE", str(write_fake("echo", tmp_path)))
    with pytest.raises(OracleError) as err:
        drt_campaign(cases=2, judgments=("resolve",), build=False)
    assert err.value.kind == "protocol" and "resolve: after 0 case(s)" in str(err.value)
