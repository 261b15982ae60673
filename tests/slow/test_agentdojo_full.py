"""The whole AgentDojo benchmark replayed under every configuration, variant and placement (minutes; the
experiment ``agentwarrant reproduce agentdojo`` writes the same numbers into paper_figures/)."""

from __future__ import annotations

import pytest

pytest.importorskip("agentdojo", reason="AgentDojo is the optional extra 'agentdojo' (make test installs it)")

from model.bench.agentdojo.evaluate import APPROVALS, EXACT, NONE, Apart, breach_reason, breaches, evaluate_suite
from model.bench.agentdojo.suites import SUITES, get_suite
from model.bench.agentdojo.variants import VARIANTS

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("suite", SUITES)
def test_every_task_and_pair_is_measured_or_set_apart_and_exact_provenance_ignores_the_wording(suite: str) -> None:
    dojo = get_suite(suite)
    result = evaluate_suite(suite)
    assert len(result.users) == len(dojo.user_tasks)
    assert len(result.pairs) == len(dojo.user_tasks) * len(dojo.injection_tasks)
    for p in result.pairs:
        assert {a.variant for a in p.attacks} == set(VARIANTS)
        for a in p.attacks:
            if a.apart is Apart.NONE:
                assert a.run(NONE).passed  # measured = the ground truth reaches its goal unmonitored
        # exact provenance never reads the text: every measured variant that fills the same vectors (all
        # but split, which fills two) gets the same verdicts
        verdicts = {(a.reached(EXACT, "appended"), a.reached(EXACT, "interleaved"), a.harmed(EXACT, "appended"))
                    for a in p.attacks if a.apart is Apart.NONE and a.variant != "split"}
        assert len(verdicts) <= 1, (p.user, p.injection, verdicts)
    for u in result.measured_users():
        run = u.run(EXACT)
        assert all(s.reason for s in run.refused())  # every refusal says why
        assert not u.run(APPROVALS).refused("user")  # every refusal is a reviewable flow
    for placement in ("appended", "interleaved"):
        for _, steps in breaches(result, EXACT, "direct", placement):
            assert breach_reason(steps)
