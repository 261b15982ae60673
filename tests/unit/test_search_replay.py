"""Replay through the Adapter on the reference tools (model/search/trace_replay.py): found traces reproduce their
sink effect; a model that over-approximates a tool yields a trace the tools do not reproduce, reported as
``Spurious`` with the diverging step; a trace the monitor would refuse is spurious too."""

from __future__ import annotations

import json
from pathlib import Path

from model.search.explicit import explore
from model.search.load import load_model, model_from_json
from model.search.search_verdict import Found, Step
from model.search.states import AgentCall, Lit, Ref
from model.search.trace_replay import Reproduced, Spurious, replay

ROOT = Path(__file__).resolve().parents[2]
SEARCH = ROOT / "corpus" / "search"
POLICIES = ROOT / "corpus" / "policies"


def test_inbox_decoy_reaches_alice_on_the_tools() -> None:
    model = load_model(SEARCH / "report.json", str(POLICIES / "report_no_origin.policy"))
    q = model.query("inbox_to_mail")
    assert q is not None
    v = explore(model, 3).verdict("inbox_to_mail")
    assert isinstance(v, Found)
    r = replay(model, v.trace, q)
    assert isinstance(r, Reproduced)
    assert len(r.effects) == 1 and r.effects[0].startswith("mail to alice@example.org:") and "Ignore previous" in \
        r.effects[0]


def test_failures_and_directory_answers_are_replayed_as_chosen() -> None:
    model = load_model(SEARCH / "report.json", str(POLICIES / "report.policy"))
    q = model.query("deliver_summary")
    assert q is not None
    look = AgentCall("Lookup", (("name", Lit('"Alice"')),))
    trace = (Step(AgentCall("Read", ()), 0), Step(AgentCall("Sanitize", (("record", Ref(0)),)), 0),
             Step(look, 0), Step(AgentCall("Send", (("body", Ref(1)), ("recipient", Ref(2, "destination")))), 0))
    assert isinstance(replay(model, trace, q), Reproduced)
    failed_send = (*trace[:3], Step(trace[3].action, 1))  # the send admitted, the mail server fails
    r = replay(model, failed_send, q)
    assert isinstance(r, Spurious) and r.step is None  # nothing delivered: the goal does not hold on the tools


def test_over_approximating_model_gives_spurious_trace() -> None:
    doc = json.loads((SEARCH / "report.json").read_text(encoding="utf-8"))
    doc["results"]["Sanitize"][0].pop("when")  # the model now claims Sanitize succeeds on any argument
    model = model_from_json(doc, "loose", SEARCH, str(POLICIES / "report_no_origin.policy"))
    q = model.query("decoy_sanitized")
    assert q is not None
    trace = (Step(AgentCall("Sanitize", (("record", Lit('"Alice"')),)), 0),
             Step(AgentCall("Lookup", (("name", Lit('"Alice"')),)), 0),
             Step(AgentCall("Send", (("body", Ref(0)), ("recipient", Ref(1, "destination")))), 0))
    r = replay(model, trace, q)
    assert isinstance(r, Spurious) and r.step == 0 and "Sanitize failed" in r.reason


def test_refused_call_is_spurious() -> None:
    model = load_model(SEARCH / "report.json", str(POLICIES / "report_chained.policy"))
    q = model.query("inbox_to_mail")
    assert q is not None
    trace = (Step(AgentCall("Other", ()), 0), Step(AgentCall("Lookup", (("name", Lit('"Alice"')),)), 0),
             Step(AgentCall("Send", (("body", Ref(0)), ("recipient", Ref(1, "destination")))), 0))
    r = replay(model, trace, q)
    assert isinstance(r, Spurious) and r.step == 2 and "refused" in r.reason
