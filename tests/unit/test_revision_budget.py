"""``revise`` within a budget: when the budget runs out the open verdicts become Unknown
(exit 3), verdicts reached before are kept, and no budget ever changes a verdict into another one."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from model.base.budget import Budget
from model.revision.corpus import load_manifest
from model.revision.report import Certified, NewlyForbidden, NotPreserved, OutOfBudget, RevisionReport
from model.revision.revise import revise
from model.shell.cli import main

REV = Path(__file__).resolve().parents[2] / "corpus" / "revisions"
ENTRIES = {e.id: e for e in load_manifest()}


def _revise(entry_id: str, budget: Budget) -> RevisionReport:
    e = ENTRIES[entry_id]
    return revise(e.base.policy, e.new, e.effects, e.base.workload, e.base.bound, e.prefix, budget=budget)


def _kind(v: object) -> str:
    return type(v).__name__


def test_a_growing_state_budget_only_ever_turns_unknown_into_the_unbudgeted_verdict() -> None:
    for entry_id in ("deploy_user_staging_three", "delete_widen_first"):
        full = _revise(entry_id, Budget())
        seen_out = False
        for states in (1, 10, 100, 1000):
            r = _revise(entry_id, Budget(states=states))
            for got, want in ((r.preservation, full.preservation), (r.safety, full.safety)):
                assert isinstance(got, OutOfBudget) or _kind(got) == _kind(want), (entry_id, states, got)
                seen_out |= isinstance(got, OutOfBudget)
            if isinstance(r.preservation, OutOfBudget):
                assert r.out_of_budget()
                assert r.preservation.unknown.limit == "states" and r.preservation.unknown.spent.states > states - 1
        assert seen_out, entry_id  # the smallest budgets did run out
        assert _kind(_revise(entry_id, Budget(states=10**6)).preservation) == _kind(full.preservation)


def test_a_refutation_found_before_the_budget_ran_out_is_kept_and_is_not_unknown() -> None:
    full = _revise("delete_widen_first", Budget())
    assert isinstance(full.preservation, NotPreserved) and isinstance(full.safety, NewlyForbidden)
    low, high = 1, 10**5  # the least state budget that finds the lost client: it has nothing left for safety
    assert isinstance(_revise("delete_widen_first", Budget(states=high)).preservation, NotPreserved)
    while low < high:
        mid = (low + high) // 2
        if isinstance(_revise("delete_widen_first", Budget(states=mid)).preservation, NotPreserved):
            high = mid
        else:
            low = mid + 1
    r = _revise("delete_widen_first", Budget(states=low))
    assert isinstance(r.safety, OutOfBudget) and r.preservation == full.preservation
    assert not r.out_of_budget()  # refuted: exit 1 with the lost client, not 3
    assert isinstance(_revise("delete_widen_first", Budget(states=low - 1)).preservation, OutOfBudget)


def test_a_time_budget_returns_unknown_instead_of_raising() -> None:
    r = _revise("deploy_user_staging_three", Budget(seconds=1e-6))
    assert isinstance(r.preservation, OutOfBudget) and r.preservation.unknown.limit == "time"
    assert isinstance(r.safety, OutOfBudget) and "not started" in r.safety.unknown.reason
    doc = r.to_json()
    assert doc["preservation"]["verdict"] == "unknown" and doc["preservation"]["limit"] == "time"  # type: ignore[index]


def _cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["revise", *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, result.output


def test_cli_budget_exhausted_exits_3_and_says_so() -> None:
    args = (str(REV / "bases" / "deploy.policy"), str(REV / "deploy" / "deploy_user_staging_three.policy"),
            "--workload", str(REV / "workloads" / "deploy.json"))
    code, out = _cli(*args, "--budget", "20states")
    assert code == 3
    assert out.splitlines()[0].startswith("preservation: Unknown: the budget ran out (states, after")
    code, out = _cli(*args, "--budget", "20states", "--json")
    assert code == 3 and json.loads(out)["preservation"]["verdict"] == "unknown"
    code, out = _cli(*args, "--budget", "5m")
    assert code == 0 and "Every client is kept" in out.splitlines()[0] and "joint simulation" in out.splitlines()[0]
    code, out = _cli(*args, "--budget", "0s")
    assert code == 2  # not a budget


def test_cli_joint_certificate_in_json() -> None:
    code, out = _cli(str(REV / "bases" / "deploy.policy"), str(REV / "deploy" / "deploy_user_staging_three.policy"),
                     "--workload", str(REV / "workloads" / "deploy.json"), "--json")
    doc = json.loads(out)
    assert code == 0 and doc["preservation"]["by"] == "joint_simulation" and doc["joint"] == "found"
    assert doc["preservation"]["evidence"]["kind"] == "joint_simulation"
    code, out = _cli(str(REV / "bases" / "deploy.policy"), str(REV / "deploy" / "deploy_user_staging_two.policy"),
                     "--workload", str(REV / "workloads" / "deploy.json"))
    assert code == 1
    code, out = _cli(str(REV / "bases" / "deploy.policy"), str(REV / "deploy" / "deploy_user_staging_two.policy"),
                     "--workload", str(REV / "workloads" / "deploy.json"), "--explain")
    assert code == 1 and any(line.startswith("  joint simulation: joint: old usage") for line in out.splitlines())
    assert isinstance(_revise("deploy_user_staging_three", Budget()).preservation, Certified)
