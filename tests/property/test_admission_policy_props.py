"""Properties of signed-approval policies (the Parmana paper, Sections 4.2–4.3) over
generated policies: whatever rules a policy has, if it loads then (a) declared facts alone never
approve — without a verified approval every evaluation refuses — and (b) evaluation is
deterministic and first-match: the verdict is the first rule whose condition holds."""

from __future__ import annotations

from typing import Any

from hypothesis import event, given, settings
from hypothesis import strategies as st

from model.admission.decision.signed_policy import Approve, load_policy
from model.admission.decision.signed_policy import evaluate as evaluate_policy
from model.admission.refusal import Refusal, RefusalReason
from model.base.errors import InvalidInput

SIGNALS = {"orderId": "string", "amount": "number", "risk": "number", "vip": "boolean", "approved": "boolean"}
VALUES = {"string": st.sampled_from(["order-1", "order-2"]), "number": st.sampled_from([0, 5, 10, 10.5, 100]),
          "boolean": st.booleans()}
atom = st.sampled_from(sorted(SIGNALS)).flatmap(lambda s: st.fixed_dictionaries({
    "signal": st.just(s),
    "op": st.sampled_from(["eq", "ne", "lt", "le", "gt", "ge"] if SIGNALS[s] == "number" else ["eq", "ne"]),
    "value": VALUES[SIGNALS[s]]}))
cond = st.recursive(atom, lambda c: st.one_of(st.builds(lambda xs: {"all": xs}, st.lists(c, min_size=1, max_size=3)),
                                              st.builds(lambda xs: {"any": xs}, st.lists(c, min_size=1, max_size=3)),
                                              st.builds(lambda x: {"not": x}, c)), max_leaves=6)
GUARD = {"signal": "approved", "op": "eq", "value": True}
rule_ids = st.sampled_from(["r1", "r2", "r3"])
guarded = st.builds(lambda i, xs: {"id": i, "when": {"all": [GUARD, *xs]} if xs else GUARD, "decision": "approve"},
                    rule_ids, st.lists(cond, max_size=2))
rules = st.lists(st.one_of(guarded, st.fixed_dictionaries({"id": rule_ids, "when": cond, "decision": st.sampled_from(
    ["approve", "refuse"])})), max_size=4)
signals = st.fixed_dictionaries({s: VALUES[t] for s, t in SIGNALS.items()})


def policy(rs: list[dict[str, Any]]) -> dict[str, Any]:
    return {"name": "p", "version": 1, "action": "a:b", "signalsSchema": SIGNALS, "bindings": {"orderId": "target"},
            "approvalSignals": {"approved": {"resourceId": "orderId", "value": "amount"}}, "rules": rs}


def holds(c: dict[str, Any], sig: dict[str, Any]) -> bool:  # an independent reading of the condition language
    if "all" in c:
        return all(holds(x, sig) for x in c["all"])
    if "any" in c:
        return any(holds(x, sig) for x in c["any"])
    if "not" in c:
        return not holds(c["not"], sig)
    v, w = sig[c["signal"]], c["value"]
    return {"eq": v == w, "ne": v != w, "lt": v < w, "le": v <= w, "gt": v > w, "ge": v >= w}[c["op"]]


@settings(max_examples=300, deadline=None)
@given(rules, signals, st.booleans())
def test_declared_facts_alone_never_approve_and_first_match_decides(rs: list[dict[str, Any]], sig: dict[str, Any],
                                                                    proven: bool) -> None:
    try:
        p = load_policy(policy(rs))
    except InvalidInput:
        return
    intent = {"action": "a:b", "target": sig["orderId"]}
    out = evaluate_policy(p, intent, sig, frozenset({"approved"}) if proven else frozenset())
    assert out == evaluate_policy(p, intent, sig, frozenset({"approved"}) if proven else frozenset())
    if not proven:
        assert not isinstance(out, Approve)
    event("approved" if isinstance(out, Approve) else "refused")
    effective = {**sig, "approved": sig["approved"] is True and proven}
    first = next((r for r in rs if holds(r["when"], effective)), None)
    if first is None:
        assert out == Refusal(RefusalReason.NO_RULE_MATCHED, "p")
    elif first["decision"] == "approve":
        assert out == Approve(first["id"])
    else:
        assert out == Refusal(RefusalReason.RULE_REFUSED, first["id"])
