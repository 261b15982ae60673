"""The whole AgentDojo benchmark replayed under every configuration, variant and placement, and every pair
of every suite decided again by a bare decider (minutes; the experiment ``agentwarrant reproduce
agentdojo`` writes the same numbers into paper_figures/)."""

from __future__ import annotations

import pytest

pytest.importorskip("agentdojo", reason="AgentDojo is the optional extra 'agentdojo' (make test installs it)")

from model.bench.agentdojo.evaluate import NAMES, NONE, Apart, breach_reason, breaches, config_name, evaluate_suite
from model.bench.agentdojo.session import Agent, Review
from model.bench.agentdojo.suites import SUITES, get_suite, suite_policy
from model.bench.agentdojo.task_replay import decide_again, run_pair
from model.bench.agentdojo.variants import VARIANTS

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("suite", SUITES)
def test_every_pair_is_decided_the_same_without_twin_and_phase(suite: str) -> None:
    dojo = get_suite(suite)
    policy = suite_policy(suite)
    for user in dojo.user_tasks:
        for inj in dojo.injection_tasks:
            base = run_pair(suite, user, inj, None, utility=False)
            points = [None] if base.first_injected is None else [None, base.first_injected]
            for agent in (Agent.SINGLE, Agent.SCOPED, Agent.PLANNER):
                for review in Review:
                    for at in points:
                        scored, bare = decide_again(suite, user, inj, policy, agent, review, "direct", at)
                        assert scored == bare, (user, inj, agent, review, at)


@pytest.mark.parametrize("suite", SUITES)
def test_every_task_and_pair_is_measured_or_set_apart(suite: str) -> None:
    dojo = get_suite(suite)
    result = evaluate_suite(suite)
    assert len(result.users) == len(dojo.user_tasks)
    assert len(result.pairs) == len(dojo.user_tasks) * len(dojo.injection_tasks)
    planner = config_name(Agent.PLANNER, Review.RUBBER)
    for p in result.pairs:
        assert {a.variant for a in p.attacks} == set(VARIANTS)
        for a in p.attacks:
            if a.apart is Apart.NONE:
                assert a.run(NONE).passed  # measured = the ground truth reaches its goal unmonitored
                # the planner never proposes the injection's calls
                assert all(s.phase == "user" for s in a.run(planner).steps)
    for u in result.measured_users():
        for config in NAMES:
            assert all(s.reason for s in u.run(config).refused())  # every refusal says why
    for config in NAMES:
        for placement in ("appended", "interleaved"):
            for _, steps in breaches(result, config, "direct", placement):
                assert breach_reason(steps)
