"""Differential test of the two search engines (explicit-state search and Z3 bounded model
checking): on generated variants of the report task, for every query both engines support, they agree on
the verdict and on the length of a shortest trace; every trace either engine finds is admitted step by
step by the real monitor. A disagreement prints the model, the policy, the query and both answers."""

from __future__ import annotations

from hypothesis import given, settings

from model.monitor.decide.base import Decision
from model.oracle.generators import search_confusable_variants, search_report_variants
from model.search.baseline import explore_baseline
from model.search.compare import Disagreement, compare, report
from model.search.explicit import explore
from model.search.model import SearchModel
from model.search.search_verdict import Found, Trace
from model.search.smt import check
from model.search.space import apply_action, initial


def _admitted(model: SearchModel, trace: Trace) -> bool:
    state = initial(model)
    for step in trace:
        verdict, nxt = apply_action(model, state, step.action, step.outcome)
        if nxt is None or (verdict is not None and verdict.decision is not Decision.ALLOW):
            return False
        state = nxt
    return True


@settings(max_examples=12)
@given(search_report_variants())
def test_engines_agree_on_verdict_and_shortest_length(variant: tuple[SearchModel, int]) -> None:
    model, bound = variant
    e, s = explore(model, bound), check(model, bound)
    for c in compare(model, e, s):
        assert not isinstance(c, Disagreement), report(model, c)
    for q in model.queries:
        for ans in (e.verdict(q.name), s.answer(q.name)):
            if isinstance(ans, Found):
                assert len(ans.trace) <= bound
                assert _admitted(model, ans.trace), f"{q.name}: a found trace the monitor does not admit"


@settings(max_examples=15, deadline=None)
@given(search_confusable_variants())
def test_engines_agree_when_values_python_equates_are_held(model: SearchModel) -> None:
    """``true``, ``1``, ``1.0``, ``false``, ``0`` and ``"1"`` side by side in slots, literals, grants and queries:
    the fast explicit engine (its memos keyed on these values), the baseline and Z3 give the same answers."""
    base, fast = explore_baseline(model, 3), explore(model, 3, reduction=False)
    assert (fast.states, fast.transitions) == (base.states, base.transitions)
    assert repr(fast.verdicts) == repr(base.verdicts)  # (repr: the traces' literals with their types)
    for c in compare(model, fast, check(model, 3)):
        assert not isinstance(c, Disagreement), report(model, c)
