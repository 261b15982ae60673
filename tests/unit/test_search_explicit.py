"""The explicit engine (model/search/explicit.py, canon.py, completions.py): breadth-first over canonical
states, shortest traces first, distinct useful completions, counts; and the canonical form merges exactly
the reorderings of independent calls."""

from __future__ import annotations

import functools
from pathlib import Path

from model.monitor.decide.base import Decision
from model.search.canon import canonical, renumber
from model.search.explicit import ExplicitRun, explore
from model.search.load import load_model
from model.search.model import SearchModel
from model.search.search_verdict import Exhausted, Found, Trace, Vacuous
from model.search.space import apply_action, initial
from model.search.states import AgentCall, Lit, Ref, SearchState

ROOT = Path(__file__).resolve().parents[2]
SEARCH = ROOT / "corpus" / "search"
POLICIES = ROOT / "corpus" / "policies"


@functools.cache
def _model(policy: str = "report") -> SearchModel:
    return load_model(SEARCH / "report.json", str(POLICIES / f"{policy}.policy"))


@functools.cache
def _run(policy: str, bound: int) -> ExplicitRun:
    return explore(_model(policy), bound)


def _execute(model: SearchModel, trace: Trace) -> SearchState:
    state = initial(model)
    for step in trace:
        verdict, nxt = apply_action(model, state, step.action, step.outcome)
        assert nxt is not None, f"step {step} not admitted"
        assert verdict is None or verdict.decision is Decision.ALLOW
        state = nxt
    return state


def _reaches(model: SearchModel, bound: int, query: str) -> bool:
    """Brute force: does any execution of at most ``bound`` steps satisfy the query? (no canonical merging)"""
    from model.search.space import successors

    qi = [q.name for q in model.queries].index(query)
    layer = [initial(model)]
    for _ in range(bound):
        nxt = []
        for s in layer:
            for _, t in successors(model, s):
                if t.count(qi) > model.queries[qi].more_than:
                    return True
                nxt.append(t)
        layer = nxt
    return False


def test_found_traces_are_shortest_and_admitted() -> None:
    run = _run("report", 4)
    m = _model("report")
    v = run.verdict("sanitized_inbox_to_mail")
    assert isinstance(v, Found) and v.length == 4
    final = _execute(m, v.trace)
    qi = [q.name for q in m.queries].index("sanitized_inbox_to_mail")
    assert final.count(qi) == 1
    assert not _reaches(m, 3, "sanitized_inbox_to_mail")  # so 4 is shortest, by an unmerged search


def test_exhausted_carries_bound_and_states_and_vacuous_means_no_premise() -> None:
    run = _run("report_chained", 4)
    v = run.verdict("decoy_unrelated")
    assert isinstance(v, Exhausted) and v.bound == 4 and v.states == run.states
    # at bound 3 no send can even be delivered under the chained rule: every send query is vacuous
    assert isinstance(_run("report_chained", 3).verdict("decoy_unrelated"), Vacuous)
    deny_all = load_model(SEARCH / "delete_ab.json", str(SEARCH / "delete_widened.policy"))
    w = explore(deny_all, 3).verdict("batch_ab")
    assert isinstance(w, Vacuous) and w.bound == 3  # no batch is ever admitted: the goal is vacuous


def test_counts_and_early_closure() -> None:
    run = _run("report_chained", 3)
    assert run.transitions >= run.states - 1 and run.depth == 3
    closed = explore(load_model(SEARCH / "delete_ab.json"), 5)
    assert closed.depth < 5  # both grants spent: the bounded space closes before the bound


def test_useful_completions_are_the_three_delivery_orders() -> None:
    run = _run("report_chained", 4)
    comps = run.completions_of("deliver_summary")
    orders = {tuple(s.action.tool for s in t if isinstance(s.action, AgentCall)) for t in comps}
    assert orders == {("Read", "Sanitize", "Lookup", "Send"), ("Read", "Lookup", "Sanitize", "Send"),
                      ("Lookup", "Read", "Sanitize", "Send")}
    assert len(comps) == 3
    for t in comps:
        _execute(_model("report_chained"), t)


def test_canonical_form_merges_independent_reorderings_only() -> None:
    m = _model("report")
    read, lookup = AgentCall("Read", ()), AgentCall("Lookup", (("name", Lit('"Alice"')),))

    def run(*calls: AgentCall) -> SearchState:
        state = initial(m)
        for c in calls:
            _, nxt = apply_action(m, state, c, 0)
            assert nxt is not None
            state = nxt
        return state

    a, b = run(read, lookup), run(lookup, read)
    assert a != b and canonical(a)[0] == canonical(b)[0]
    san = AgentCall("Sanitize", (("record", Ref(0)),))
    c = run(read, san)
    d = run(read, read, san)
    assert canonical(c)[0] != canonical(d)[0]  # an extra Read is a different state
    state, perm = canonical(b)
    assert renumber(b, perm) == state and sorted(perm) == list(range(len(perm)))
