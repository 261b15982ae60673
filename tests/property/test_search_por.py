"""The fast explicit engine against the one it replaced, and the sleep-set reduction against the unreduced
search: unreduced, ``explicit.explore`` equals ``baseline.explore_baseline`` exactly —
states, transitions, verdicts with their traces, useful completions — on the corpus models and on
generated variants of the report task; reduced, it gives the same verdicts, the same shortest lengths and
the same useful completions while exploring no more transitions and no more states."""

from __future__ import annotations

import functools
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from model.oracle.generators import search_report_variants
from model.search.baseline import explore_baseline
from model.search.explicit import ExplicitRun, explore
from model.search.load import load_model
from model.search.model import SearchModel
from model.search.search_verdict import Found, verdict_name

SEARCH = Path(__file__).resolve().parents[2] / "corpus" / "search"

CASES = [  # (model, policy relative to corpus/search, bound): every model of the corpus, kept small
    ("report.json", "../policies/report_no_origin.policy", 3),
    ("report.json", "../policies/report.policy", 3),
    ("report.json", "report_send2.policy", 3),
    ("report_alice_known.json", "../policies/report_chained.policy", 3),
    ("report_copying.json", "../policies/report_no_origin.policy", 3),
    ("report_trust.json", "../policies/report_chained.policy", 3),
    ("report_permit.json", "report_permit_core.policy", 3),
    ("payments.json", "../policies/payments.policy", 3),
    ("delete_ab.json", "delete_widened.policy", 3),
]


def shape(run: ExplicitRun) -> list[tuple[str, str, int | None]]:
    return [(n, verdict_name(v), v.length if isinstance(v, Found) else None) for n, v in run.verdicts]


def check_all(model: SearchModel, bound: int) -> None:
    base = explore_baseline(model, bound)
    full = explore(model, bound, reduction=False)
    assert (full.states, full.transitions, full.depth) == (base.states, base.transitions, base.depth)
    assert full.verdicts == base.verdicts  # same traces too: same order, same canonical form
    assert full.completions == base.completions
    reduced = explore(model, bound, reduction=True)
    assert shape(reduced) == shape(full)
    assert reduced.completions == full.completions
    assert reduced.transitions <= full.transitions and reduced.states <= full.states


@functools.cache
def _corpus(name: str, policy: str) -> SearchModel:
    return load_model(SEARCH / name, str(SEARCH / policy))


@pytest.mark.parametrize(("name", "policy", "bound"), CASES)
def test_corpus_models(name: str, policy: str, bound: int) -> None:
    check_all(_corpus(name, policy), bound)


def test_the_reduction_skips_transitions() -> None:
    """Guard: on the report model the sleep sets do skip commuting transitions (else the test above says
    nothing about them)."""
    model = _corpus("report.json", "../policies/report_no_origin.policy")
    assert explore(model, 3, reduction=True).transitions < explore(model, 3, reduction=False).transitions


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(search_report_variants())
def test_generated_variants(variant: tuple[SearchModel, int]) -> None:
    model, bound = variant
    check_all(model, bound)


_TRUE_VS_ONE_POLICY = """policy conf
levels Public < Internal
node directory: source (Public, {}, trusted)
node memory: memory (Public, {}, trusted)
node mail: sink (Public, {}, trusted)
edge Lookup: directory -> memory inherit
edge Send: memory -> mail inherit
agent assistant {operations: {Lookup, Send}, ceiling: Internal}
tool Lookup {endpoints: directory -> memory, args: {name}, required: {name},
             effects: [directory.lookup(name)], authoritative: {destination}}
tool Send {endpoints: memory -> mail, args: {recipient}, required: {recipient},
           effects: [message.send(recipient)]}
resolve target: Lookup(name: "Alice") -> destination
flow allow * -> memory
flow allow * -> mail
user {
  allow directory.lookup("Alice") quota 1
  allow message.send(@target) quota unlimited
}
application {
  allow directory.lookup(*) quota unlimited
  allow message.send(@target) quota unlimited
}
"""


def test_a_slot_bound_to_true_is_not_one_bound_to_1(tmp_path: Path) -> None:
    """The decision memo keyed a binding by Python equality, so a state whose slot held ``true`` answered
    for one holding ``1``: ``Send(recipient=1)`` after the lookup that returned ``1`` was refused as it is
    after the one that returned ``true``, and the shortest trace to ``send_one`` changed."""
    (tmp_path / "conf.policy").write_text(_TRUE_VS_ONE_POLICY)
    doc = {"name": "conf", "description": "true and 1 bound to the same slot", "policy": "conf.policy",
           "toolkit": "report", "bound": 3,
           "agent": {"name": "assistant", "literals": ["Alice", 1, True], "fields": {"Lookup": ["destination"]}},
           "results": {"Lookup": [{"ok": True, "value": {"destination": True}},
                                  {"ok": True, "value": {"destination": 1}}],
                       "Send": [{"ok": True, "value": {"delivered": True}}]},
           "queries": [{"name": n, "kind": "forbidden", "description": n,
                        "event": {"tool": "Send", "when": "admitted", "args": {"recipient": {"equals": v}}}}
                       for n, v in (("send_true", True), ("send_one", 1))]}
    (tmp_path / "conf.json").write_text(json.dumps(doc))
    model = load_model(tmp_path / "conf.json")
    check_all(model, 3)
    one = explore(model, 3, reduction=False).verdict("send_one")
    assert isinstance(one, Found) and "Lit(value='1')" in repr(one.trace[-1])
