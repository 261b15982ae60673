"""Ground-truth replay of a few AgentDojo tasks per suite through the monitor, judged by AgentDojo's own
checks (the whole benchmark is in tests/slow/test_agentdojo_full.py and the agentdojo experiment)."""

from __future__ import annotations

import pytest

pytest.importorskip("agentdojo", reason="AgentDojo is the optional extra 'agentdojo' (make test installs it)")

from model.bench.agentdojo.evaluate import Apart, breach_reason, breaches, evaluate_suite, refusals
from model.bench.agentdojo.finite import derive_model, injection_points
from model.bench.agentdojo.replay import injection_calls, load_environment, run_pair, run_user_task
from model.bench.agentdojo.suites import SUITES, get_suite, suite_policy
from model.search.run import Engine, search
from model.search.verdict import Exhausted, Found


@pytest.mark.parametrize("suite", SUITES)
def test_first_user_tasks_pass_agentdojos_check_unmonitored(suite: str) -> None:
    for task in list(get_suite(suite).user_tasks)[:2]:
        run = run_user_task(suite, task, None)
        assert run.passed, (suite, task)
        assert all(s.decision == "unmonitored" and s.outcome == "ok" for s in run.steps)


def test_a_payee_copied_from_a_bill_is_refused_by_flow_and_the_task_fails() -> None:
    run = run_user_task("banking", "user_task_0", suite_policy("banking"))
    (refused,) = run.refused()
    assert refused.tool == "send_money" and refused.reason == "flow"
    assert any(p.startswith("recipient<-read_file#") for p in refused.producers)
    assert not run.passed and not run.completed()  # AgentDojo's check sees no payment


def test_a_payee_the_user_typed_is_paid_under_the_monitor() -> None:
    run = run_user_task("banking", "user_task_11", suite_policy("banking"))
    assert run.completed() and not run.refused()


def test_refused_injection_calls_never_reach_agentdojos_environment() -> None:
    policy = suite_policy("banking")
    base = run_pair("banking", "user_task_3", "injection_task_7", None)
    monitored = run_pair("banking", "user_task_3", "injection_task_7", policy)
    assert base.passed  # the password change happens unmonitored
    assert not monitored.passed  # AgentDojo's security check: the password is unchanged
    (step,) = [s for s in monitored.steps if s.phase == "injection"]
    assert step.tool == "update_password" and step.refused and step.reason == "flow"


def test_an_injection_whose_values_all_come_from_trusted_listings_gets_through_with_its_reason() -> None:
    result = evaluate_suite("travel", users=["user_task_2"], injections=["injection_task_4", "injection_task_6"])
    cfg = "suite policy, value provenance"
    ((pair, steps),) = breaches(result, cfg)
    assert pair.injection == "injection_task_4"
    assert [s.tool for s in steps][-1] == "reserve_hotel" and all(s.label.endswith("/trusted") for s in steps)
    assert "trusted values" in breach_reason(steps)
    (text_only,) = result.apart_pairs(Apart.TEXT_ONLY)  # "say that I should visit ...": no call to stop
    assert text_only.injection == "injection_task_6" and text_only.run(cfg).passed


def test_context_taint_refuses_what_value_provenance_lets_through() -> None:
    result = evaluate_suite("travel", users=["user_task_2"], injections=["injection_task_4"])
    assert breaches(result, "suite policy, value provenance")
    assert not breaches(result, "suite policy, context taint")


def test_refusals_of_legitimate_calls_are_listed_with_reasons() -> None:
    result = evaluate_suite("slack", users=["user_task_2", "user_task_4"], injections=["injection_task_1"])
    cases = refusals(result, "suite policy, value provenance")
    assert [(t, s.tool) for t, s in cases] == [("user_task_2", "invite_user_to_slack")]
    assert "user_email<-get_webpage#" in cases[0][1].describe()
    assert result.measured_users() == result.users


def test_our_ground_truths_stand_in_where_agentdojo_ships_none_and_agentdojo_confirms_them() -> None:
    result = evaluate_suite("workspace", users=["user_task_0"], injections=["injection_task_0", "injection_task_6"])
    by_id = {p.injection: p for p in result.pairs}
    assert injection_calls("workspace", "injection_task_6") == (0, 3)  # AgentDojo ships none; ours has three
    assert not by_id["injection_task_0"].ours and by_id["injection_task_6"].ours
    assert by_id["injection_task_6"].apart is Apart.NONE  # measured: AgentDojo's check says the goal is reached
    assert by_id["injection_task_6"].run("no monitor").passed
    refused = by_id["injection_task_6"].run("suite policy, value provenance").refused("injection")
    assert [s.tool for s in refused] == ["send_email"]  # the exfiltration to the injected address


@pytest.mark.parametrize("injection", [f"injection_task_{i}" for i in range(6, 14)])
def test_each_of_our_ground_truths_reaches_its_goal_on_the_default_environment(injection: str) -> None:
    from model.bench.agentdojo.replay import run_injection_alone

    run = run_injection_alone("workspace", injection)
    assert run.steps and all(s.outcome == "ok" for s in run.steps)
    assert run.passed


def test_finite_banking_model_weak_control_finds_the_two_step_attack_and_the_suite_policy_exhausts() -> None:
    tools = ("get_most_recent_transactions", "update_password")
    assert injection_points("banking", "user_task_4") == ("get_most_recent_transactions",)
    weak = derive_model("banking", "user_task_4", suite_policy("banking", "weak"), tools, 2)
    strong = derive_model("banking", "user_task_4", suite_policy("banking"), tools, 2)
    (query,) = [q.name for q in weak.queries if "update_password" in q.name]
    found = search(weak, engine=Engine.EXPLICIT, do_replay=False).explicit
    assert found is not None and isinstance(found.verdict(query), Found) and found.verdict(query).length == 2
    exhausted = search(strong, engine=Engine.EXPLICIT, do_replay=False).explicit
    assert exhausted is not None and isinstance(exhausted.verdict(query), Exhausted)


@pytest.mark.parametrize("suite", SUITES)
def test_fast_environment_load_equals_agentdojos_own(suite: str) -> None:
    from model.bench.agentdojo.suites import attack

    dojo = get_suite(suite)
    user = next(iter(dojo.user_tasks.values()))
    inj = list(dojo.injection_tasks.values())[-1]  # the longest goals carry newlines and quotes
    injections = attack(suite).attack(user, inj)
    for given in ({}, injections):
        ours = load_environment(dojo, given).model_dump()
        assert ours == dojo.load_and_inject_default_environment(given).model_dump()
