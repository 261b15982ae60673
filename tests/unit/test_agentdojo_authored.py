"""Injections in every attacker-authorable field (``fields``), goals split across results
(``split-results``), the injected-call families interleaved, and the injection candidates computed on
the project's environment equal to AgentDojo's own."""

from __future__ import annotations

import pytest

pytest.importorskip("agentdojo", reason="AgentDojo is the optional extra 'agentdojo' (make test installs it)")

from model.base.canonical import canonical_str
from model.bench.agentdojo.authored import FIELDS, SPLIT_RESULTS, authored_environment, places, untrusted_tools
from model.bench.agentdojo.binding import policy_argument, to_json, tool_functions
from model.bench.agentdojo.environment import candidates, copy, environment
from model.bench.agentdojo.families import DEPUTY, extra_points, extra_run, extras
from model.bench.agentdojo.fields import granted, project
from model.bench.agentdojo.session import Agent, Review, writes
from model.bench.agentdojo.suites import SUITES, get_suite, suite_policy
from model.bench.agentdojo.task_replay import run_pair


@pytest.mark.parametrize("suite", SUITES)
def test_candidates_on_our_environment_equal_agentdojos(suite: str) -> None:
    from model.bench.agentdojo.suites import attack

    dojo = get_suite(suite)
    for uid in (next(iter(dojo.user_tasks)), list(dojo.user_tasks)[-1]):
        assert list(candidates(suite, uid)) == attack(suite).get_injection_candidates(dojo.user_tasks[uid])


def _results(suite: str, uid: str, env: object) -> list[tuple[str, object]]:
    dojo = get_suite(suite)
    task = dojo.user_tasks[uid]
    fns = tool_functions(dojo, env)
    out = []
    for c in task.ground_truth(copy(env)):
        try:
            out.append((c.function, fns[c.function](**{policy_argument(k): to_json(v) for k, v in c.args.items()})))
        except Exception:
            out.append((c.function, None))
    return out


@pytest.mark.parametrize("suite, uid, iid", [("banking", "user_task_15", "injection_task_0"),
                                              ("travel", "user_task_3", "injection_task_0")])
def test_every_authorable_field_read_carries_the_goal_and_no_trusted_one_does(suite: str, uid: str,
                                                                               iid: str) -> None:
    dojo = get_suite(suite)
    task = dojo.user_tasks[uid]
    goal = dojo.injection_tasks[iid].GOAL
    where = places(suite, uid, iid)
    assert where
    env = authored_environment(suite, uid, iid, FIELDS)
    clean = task.init_environment(environment(suite, {}))
    policy = suite_policy(suite)
    untrusted, trusted_keys, sinks = untrusted_tools(policy), granted(policy), writes(policy)
    got, base = _results(suite, uid, env), _results(suite, uid, clean)
    assert any(goal in canonical_str(v) for t, v in got if t in untrusted)
    for (tool, value), (_, before) in zip(got, base, strict=True):
        if tool not in untrusted and tool not in sinks:  # a trusted read is as on the clean environment
            assert canonical_str(value) == canonical_str(before)
        for key in trusted_keys.get(tool, ()):  # so is every trusted field of an untrusted one
            assert project(value, key) == project(before, key)  # type: ignore[arg-type]
    # more places than AgentDojo's vectors: fields it gives no vector hold the goal too
    assert len(where) > len(candidates(suite, uid))


def test_split_results_puts_the_halves_in_two_different_results() -> None:
    suite, uid, iid = "banking", "user_task_15", "injection_task_0"
    env = authored_environment(suite, uid, iid, SPLIT_RESULTS)
    texts = [canonical_str(v) for _, v in _results(suite, uid, env)]
    first = [i for i, t in enumerate(texts) if "part 1 of 2" in t]
    second = [i for i, t in enumerate(texts) if "part 2 of 2" in t]
    assert first and second and set(first) != set(second)


def test_the_new_variants_run_through_the_decider_and_nothing_passes_a_planner() -> None:
    policy = suite_policy("banking")
    for variant in (FIELDS, SPLIT_RESULTS):
        unmonitored = run_pair("banking", "user_task_15", "injection_task_0", None, variant=variant, utility=False)
        assert unmonitored.passed and unmonitored.first_injected is not None
        planner = run_pair("banking", "user_task_15", "injection_task_0", policy, Agent.PLANNER, variant=variant,
                           utility=False)
        assert not planner.passed and not planner.harm()


def test_an_injected_call_is_also_placed_between_the_users_calls() -> None:
    # a confused deputy changing the password to the one the user typed: appended, the quota (one
    # change) has been spent by the user's own call and it is denied; placed before that call it is
    # admitted and the user's own call is the one denied, so the password changed once, as asked: not
    # a success (a deputy's harm is the repetition)
    deputy = next(x for x in extras("banking", "user_task_14") if x.family == DEPUTY)
    points = extra_points(deputy)
    assert points
    assert extra_run(deputy, Agent.SINGLE, Review.NONE) == (False, "deny")
    placed = [extra_run(deputy, Agent.SINGLE, Review.NONE, k) for k in points]
    assert all(not ok and said.startswith("allow") and "ran 1x" in said for ok, said in placed)


@pytest.mark.parametrize("suite", SUITES)
def test_a_bare_decider_decides_the_field_variants_alike(suite: str) -> None:
    from model.bench.agentdojo.task_replay import decide_again

    dojo = get_suite(suite)
    user, inj = list(dojo.user_tasks)[1], next(iter(dojo.injection_tasks))
    for variant in (FIELDS, SPLIT_RESULTS):
        base = run_pair(suite, user, inj, None, variant=variant, utility=False)
        for at in (None, base.first_injected):
            scored, bare = decide_again(suite, user, inj, suite_policy(suite), Agent.SINGLE, Review.AWARE, variant, at)
            assert scored == bare and scored


def test_a_goal_the_placed_text_reaches_by_itself_is_set_apart() -> None:
    from model.bench.agentdojo.evaluate import Apart, evaluate_suite

    # the fields variant writes the phishing link into the message from Bob to Alice, which is the
    # inbox AgentDojo's check of slack injection_task_1 reads: reached before any call
    r = evaluate_suite("slack", users=["user_task_11"], injections=["injection_task_1"], variants=(FIELDS, "direct"),
                       interleave=False)
    (pair,) = r.pairs
    assert pair.attack(FIELDS).apart is Apart.PLACED
    assert pair.attack("direct").apart is Apart.NONE
