"""Each known attack on the report task is found within its stated bound by both engines, and replays on the
reference tools; with the chained rule nothing forbidden is reachable and the useful completions are exactly
the legitimate delivery orders (Agenra Section 3).

Bounds: a literal or inbox body reaches Alice in 2–3 steps without the origin rule (Lookup, [Other,] Send);
Sanitize over the inbox decoy needs 4 (Other, Sanitize, Lookup, Send) under the immediate-producer rule; a
second admitted send needs 4 when the send quota is two. The chained rule is checked to bound 4 here and
to bound 6 in the slow manifest check.
"""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

from model.search.compare import report
from model.search.load import load_model
from model.search.model import QueryKind, SearchModel, When
from model.search.run import SearchReport, search
from model.search.search_verdict import Found
from model.search.states import AgentCall
from model.search.trace_replay import Reproduced

ROOT = Path(__file__).resolve().parents[2]
SEARCH = ROOT / "corpus" / "search"
POLICY = {"no_origin": ROOT / "corpus/policies/report_no_origin.policy",
          "immediate": ROOT / "corpus/policies/report.policy",
          "chained": ROOT / "corpus/policies/report_chained.policy",
          "send2": SEARCH / "report_send2.policy"}


@functools.cache
def _report(variant: str, bound: int) -> SearchReport:
    model: SearchModel = load_model(SEARCH / "report.json", str(POLICY[variant]))
    return search(model, bound)


def _no_disagreement(rep: SearchReport) -> None:
    assert not rep.disagreements, "\n".join(report(rep.model, d) for d in rep.disagreements)


ATTACKS = [
    ("no_origin", "inbox_to_mail", 3, 3),  # the unrelated-Public decoy: inbox content delivered to Alice
    ("no_origin", "decoy_unrelated", 3, 2),  # any non-Sanitize body, e.g. text the agent wrote
    ("immediate", "sanitized_inbox_to_mail", 4, 4),  # Sanitize over the decoy passes the immediate-producer rule
    ("immediate", "decoy_sanitized", 4, 3),
    ("send2", "second_send", 4, 4),  # raising the send quota to two admits a second send
]


@pytest.mark.parametrize(("variant", "query", "bound", "length"), ATTACKS, ids=[f"{a[0]}-{a[1]}" for a in ATTACKS])
def test_known_attack_found_by_both_engines_and_replayed(variant: str, query: str, bound: int, length: int) -> None:
    rep = _report(variant, bound)
    _no_disagreement(rep)
    assert rep.explicit is not None and rep.smt is not None
    for answer in (rep.explicit.verdict(query), rep.smt.answer(query)):
        assert isinstance(answer, Found) and answer.length == length, answer
    replays = [r for r in rep.replays if r.query == query and r.source in ("explicit", "smt")]
    assert len(replays) == 2
    delivered = rep.model.query(query).event.when is When.DELIVERED  # type: ignore[union-attr]
    for r in replays:
        assert isinstance(r.result, Reproduced), r.result
        # a delivered event put mail in a mailbox on the tools; an admitted one (a charged send) need not
        assert any("mail to" in e for e in r.result.effects) or not delivered


def test_second_send_trace_has_two_admitted_sends() -> None:
    rep = _report("send2", 4)
    assert rep.explicit is not None
    v = rep.explicit.verdict("second_send")
    assert isinstance(v, Found)
    assert sum(1 for s in v.trace if isinstance(s.action, AgentCall) and s.action.tool == "Send") == 2
    quota_one = _report("immediate", 4)
    assert quota_one.explicit is not None and not isinstance(quota_one.explicit.verdict("second_send"), Found)


def test_chained_rule_no_forbidden_execution_and_exactly_the_delivery_orders() -> None:
    rep = _report("chained", 4)
    _no_disagreement(rep)
    assert rep.explicit is not None and rep.smt is not None
    for q in rep.model.queries:
        if q.kind is QueryKind.FORBIDDEN:
            assert not isinstance(rep.explicit.verdict(q.name), Found), q.name
            assert not isinstance(rep.smt.answer(q.name), Found), q.name
    comps = rep.explicit.completions_of("deliver_summary")
    orders = sorted(tuple(s.action.tool for s in t if isinstance(s.action, AgentCall)) for t in comps)
    # Our task has Read < Sanitize < Send and Lookup < Send: exactly three orders (the paper reports six for
    # a policy whose full text our copy lacks; see the README notes).
    assert orders == sorted([("Read", "Sanitize", "Lookup", "Send"), ("Read", "Lookup", "Sanitize", "Send"),
                             ("Lookup", "Read", "Sanitize", "Send")])
    assert all(isinstance(r.result, Reproduced) for r in rep.replays)
    assert rep.passed


def test_every_variant_keeps_the_three_delivery_orders() -> None:
    for variant in ("immediate", "send2"):
        explicit = _report(variant, 4).explicit
        assert explicit is not None and len(explicit.completions_of("deliver_summary")) == 3


def test_six_delivery_orders_when_the_agent_already_holds_alices_address() -> None:
    """The paper's six: with Alice's address held as a literal, each of the three orders may name the recipient
    by the literal or by the lookup's field (the lookup still has to bind the slot)."""
    model = load_model(SEARCH / "report_alice_known.json", str(POLICY["chained"]))
    rep = search(model, 4)
    _no_disagreement(rep)
    assert rep.explicit is not None and rep.passed
    comps = rep.explicit.completions_of("deliver_summary")
    assert len(comps) == 6
    orders = {tuple(s.action.tool for s in t if isinstance(s.action, AgentCall)) for t in comps}
    assert len(orders) == 3 and all(o.index("Lookup") < o.index("Send") for o in orders)


def test_retyped_report_reaches_alice_labelled_public_without_origin_rule() -> None:
    """An agent that retypes the report it read as a literal body: the literal has no producer, takes the memory
    node's Public label, and passes flow; only an origin rule stops it (reported as an Adapter gap, see README)."""
    for variant, bound, found in (("no_origin", 3, True), ("chained", 4, False)):
        model = load_model(SEARCH / "report_copying.json", str(POLICY[variant]))
        rep = search(model, bound)
        _no_disagreement(rep)
        assert rep.explicit is not None and rep.smt is not None
        for answer in (rep.explicit.verdict("report_content_to_mail"), rep.smt.answer("report_content_to_mail")):
            assert isinstance(answer, Found) == found, (variant, answer)
        assert not isinstance(rep.explicit.verdict("confidential_to_mail"), Found)  # the label never says so
        if found:
            r = next(r for r in rep.replays if r.query == "report_content_to_mail" and r.source == "explicit")
            assert isinstance(r.result, Reproduced) and "078-05-1120" in r.result.effects[0]
