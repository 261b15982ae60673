"""The whole AgentDojo benchmark replayed under both configurations (minutes; the experiment
``agentwarrant reproduce agentdojo`` writes the same numbers into paper_figures/)."""

from __future__ import annotations

import pytest

pytest.importorskip("agentdojo", reason="AgentDojo is the optional extra 'agentdojo' (make test installs it)")

from model.bench.agentdojo.evaluate import CONFIGS, Apart, breach_reason, breaches, evaluate_suite
from model.bench.agentdojo.suites import SUITES, get_suite

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("suite", SUITES)
def test_every_task_and_pair_is_measured_or_set_apart_with_a_reason(suite: str) -> None:
    dojo = get_suite(suite)
    result = evaluate_suite(suite)
    assert len(result.users) == len(dojo.user_tasks)
    assert len(result.pairs) == len(dojo.user_tasks) * len(dojo.injection_tasks)
    for p in result.measured_pairs():
        assert p.run("no monitor").passed  # measured = the ground truth reaches its goal unmonitored
    for p in result.apart_pairs(Apart.TEXT_ONLY):
        assert all(s.phase == "user" for s in p.run("no monitor").steps)
    for c in CONFIGS:
        for u in result.measured_users():
            run = u.run(c.name)
            assert all(s.reason for s in run.refused())  # every refusal says why
            if run.completed():
                assert u.run("no monitor").completed()
        for _, steps in breaches(result, c.name):
            assert breach_reason(steps)
