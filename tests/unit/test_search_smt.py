"""The Z3 engine (model/search/smt.py, smt_decide.py, smt_fragment.py): models outside the encoded
fragment are answered ``Unsupported`` for every query (never a verdict); inside it, decoded traces are
admitted by the real monitor and reach the query; shortest lengths and verdicts match the explicit engine."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from model.monitor.decide.base import Decision
from model.search.compare import Agreement, compare
from model.search.explicit import explore
from model.search.load import load_model, model_from_json
from model.search.run import Engine, search
from model.search.search_verdict import Exhausted, Found, Unsupported
from model.search.smt import check
from model.search.space import apply_action, initial

ROOT = Path(__file__).resolve().parents[2]
SEARCH = ROOT / "corpus" / "search"
POLICIES = ROOT / "corpus" / "policies"


@pytest.mark.parametrize(("model_file", "policy", "why"), [
    ("delete_ab.json", POLICIES / "delete_ab.policy", "list resource"),
    ("report_permit.json", SEARCH / "report_permit_core.policy", "permit"),
])
def test_outside_the_fragment_every_query_is_unsupported(model_file: str, policy: Path, why: str) -> None:
    model = load_model(SEARCH / model_file, str(policy))
    run = check(model, 2)
    assert all(isinstance(a, Unsupported) and why in a.reason for _, a in run.answers)
    rep = search(model, 2, Engine.BOTH, do_replay=False)
    assert rep.comparison and all(type(c).__name__ == "Skipped" for c in rep.comparison)  # never counted as agreement


def test_history_rules_and_reviewers_are_outside_the_fragment(tmp_path: Path) -> None:
    text = (POLICIES / "report.policy").read_text(encoding="utf-8")
    hist = tmp_path / "hist.policy"
    hist.write_text(text.replace("flow allow * -> memory", "history h {scope: session, after: Read, require: "
                                                         "Sanitize, before: Send}\nflow allow * -> memory"),
                    encoding="utf-8")
    doc = json.loads((SEARCH / "report.json").read_text(encoding="utf-8"))
    answer = check(model_from_json(doc, "m", SEARCH, str(hist)), 1).answers[0][1]
    assert isinstance(answer, Unsupported) and "history" in answer.reason
    pay = json.loads((SEARCH / "report.json").read_text(encoding="utf-8"))
    pay["reviewer"] = {"satisfy": []}
    pay["approver"] = {"permits": [{"tool": "Send"}]}
    answer = check(model_from_json(pay, "m", SEARCH), 1).answers[0][1]
    assert isinstance(answer, Unsupported) and "approver" in answer.reason


def test_decoded_traces_are_admitted_by_the_monitor_and_match_explicit_lengths() -> None:
    model = load_model(SEARCH / "report.json", str(POLICIES / "report.policy"))
    s, e = check(model, 4), explore(model, 4)
    found = [(n, a) for n, a in s.answers if isinstance(a, Found)]
    assert {n for n, _ in found} == {"decoy_sanitized", "sanitized_inbox_to_mail", "deliver_summary"}
    for name, ans in found:
        assert isinstance(ans, Found)
        state = initial(model)
        for step in ans.trace:
            verdict, nxt = apply_action(model, state, step.action, step.outcome)
            assert nxt is not None and verdict is not None and verdict.decision is Decision.ALLOW, (name, step)
            state = nxt
        qi = [q.name for q in model.queries].index(name)
        assert state.count(qi) > model.queries[qi].more_than
    assert all(isinstance(c, Agreement) for c in compare(model, e, s))
    assert isinstance(s.answer("second_send"), Exhausted) and s.answer("second_send") == Exhausted(4, None)
