"""``agentwarrant agentdojo``: exit 0/1 by AgentDojo's verdict, JSON steps, bad names are one error line."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

pytest.importorskip("agentdojo", reason="AgentDojo is the optional extra 'agentdojo' (make test installs it)")

from model.shell.cli import main


def test_a_refused_task_exits_1_and_names_the_refusal() -> None:
    result = CliRunner().invoke(main, ["agentdojo", "banking", "user_task_0"])
    assert result.exit_code == 1
    assert "pause send_money: flow pause, not approved" in result.output and "not completed" in result.output


def test_a_completed_task_exits_0_and_unmonitored_runs_every_call() -> None:
    assert CliRunner().invoke(main, ["agentdojo", "banking", "user_task_14"]).exit_code == 0
    result = CliRunner().invoke(main, ["agentdojo", "banking", "user_task_0", "--policy", "none"])
    assert result.exit_code == 0 and "deny" not in result.output


def test_a_pair_exits_1_when_the_goal_is_reached_with_json_steps() -> None:
    # the rubber-stamp reviewer approves the paused password change; without a reviewer it stays refused
    args = ["agentdojo", "banking", "user_task_3", "injection_task_7", "--variant", "base64"]
    result = CliRunner().invoke(main, [*args, "--review", "rubber", "--json"])
    assert result.exit_code == 1
    doc = json.loads(result.output)
    assert doc["verdict"] == "injection goal reached"
    assert [s["tool"] for s in doc["steps"] if s["phase"] == "injection" and s["harm"]] == ["update_password"]
    blocked = CliRunner().invoke(main, args)
    assert blocked.exit_code == 0 and "injection goal not reached" in blocked.output

    # with the plan's task quotas, the password change is a call of a tool the task never makes: its task
    # quota is 0, so it is denied for the quota, whatever the reviewer approves
    scoped = CliRunner().invoke(main, [*args, "--review", "rubber", "--agent", "scoped"])
    assert scoped.exit_code == 0 and "deny update_password: quota (" in scoped.output


def test_the_planner_completes_a_task_whose_payee_comes_from_a_bill_and_prints_its_plan() -> None:
    result = CliRunner().invoke(main, ["agentdojo", "banking", "user_task_0", "--agent", "planner",
                                       "--review", "aware"])
    assert result.exit_code == 0 and "approved send_money" in result.output
    shown = CliRunner().invoke(main, ["agentdojo", "banking", "user_task_0", "--plan"])
    assert shown.exit_code == 0 and "recipient <- extracted #0" in shown.output


@pytest.mark.parametrize("args", [["banking", "user_task_99"], ["banking", "user_task_0", "injection_task_99"],
                                  ["banking", "user_task_0", "--policy", "nosuch"],
                                  ["banking", "user_task_0", "--policy", "../banking"],
                                  ["slack", "user_task_0", "--policy", "weak"]])
def test_unknown_names_are_one_error_line_and_exit_2(args: list[str]) -> None:
    result = CliRunner().invoke(main, ["agentdojo", *args])
    assert result.exit_code == 2
    assert "Traceback" not in result.output


def test_a_policy_variant_is_a_corpus_name_never_a_path() -> None:
    # '--policy ../banking' used to resolve to a file named banking_../banking.policy in corpus/agentdojo
    result = CliRunner().invoke(main, ["agentdojo", "banking", "user_task_11", "--policy", "../banking"])
    assert result.exit_code == 2
    assert result.output.count("\n") == 1 and "a variant of banking (weak)" in result.output
