"""Reviewer and approver actions in the finite model (model/search/model.py, space.py): the reviewer's
recorded requirement lifts a Pause, the approver's exact-call permit is consumed by exactly the approved call,
and both appear as steps of traces and completions; an explicit deny holds even when the directory answers
the denied account."""

from __future__ import annotations

import json
from pathlib import Path

from model.search.explicit import explore
from model.search.load import load_model, model_from_json
from model.search.search_verdict import Exhausted, Found, Vacuous
from model.search.states import AgentCall, Approve, Satisfy
from model.search.trace_replay import Reproduced, replay

SEARCH = Path(__file__).resolve().parents[2] / "corpus" / "search"


def test_reviewer_lifts_the_pause_and_the_deny_holds() -> None:
    model = load_model(SEARCH / "payments.json")
    run = explore(model, 3)
    goal = run.verdict("large_payment")
    assert isinstance(goal, Found) and goal.length == 3
    assert any(isinstance(s.action, Satisfy) for s in goal.trace)
    # without the review step every payment the agent can form pauses: nothing is ever paid
    assert isinstance(explore(model, 2).verdict("large_payment"), Vacuous)
    assert isinstance(run.verdict("pay_sanctioned"), Exhausted)
    for t in run.completions_of("large_payment"):
        kinds = [type(s.action).__name__ for s in t]
        assert kinds.count("Satisfy") == 1 and kinds[-1] == "AgentCall"


def test_approver_permit_is_needed_and_replays() -> None:
    doc = json.loads((SEARCH / "report_permit.json").read_text(encoding="utf-8"))
    doc["agent"]["max_calls"] = {"Edit": 1, "Read": 1, "Sanitize": 1, "Lookup": 1}
    doc["results"]["Lookup"] = doc["results"]["Lookup"][:1]
    doc["results"]["Sanitize"] = doc["results"]["Sanitize"][:1]
    model = model_from_json(doc, "permit-small", SEARCH)
    run = explore(model, 5)
    goal = run.verdict("deliver_summary")
    assert isinstance(goal, Found) and goal.length == 5
    approvals = [s.action for s in goal.trace if isinstance(s.action, Approve)]
    sends = [s.action for s in goal.trace if isinstance(s.action, AgentCall) and s.action.tool == "Send"]
    assert approvals and sends and approvals[0].call == sends[0]  # the permit names exactly the call it admits
    assert isinstance(run.verdict("edited_summary_sent"), Exhausted)  # the approval never names an edited body
    assert isinstance(run.verdict("second_send"), Exhausted)  # one permit, one send
    q = model.query("deliver_summary")
    assert q is not None and isinstance(replay(model, goal.trace, q), Reproduced)
    assert isinstance(explore(model, 4).verdict("deliver_summary"), Vacuous)  # no send at all without the approval
