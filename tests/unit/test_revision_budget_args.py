"""Argument tests in the workload's forbidden budgets (Agenra Section 7.1, the safety delta: "no
payment above 1,000 to a new payee" needs the call's arguments): a budget's ``where`` uses the policy's
predicate forms and exactness; only effects of calls whose literal arguments pass count against it;
bad input is an InvalidInput naming the JSON path."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from model.base.errors import InvalidInput
from model.monitor.decide.matching import Effect
from model.monitor.language.policy import EqPred, RangePred
from model.monitor.language.syntax import load_policy
from model.revision.corpus import load_workload
from model.revision.effects import EVERY_EFFECT
from model.revision.explore.prefix import prefix_from_json
from model.revision.explore.workload import ArgEffect, Budget, Workload, with_args, workload_from_json
from model.revision.report import NewlyForbidden, NoNewForbidden
from model.revision.revise import revise

ROOT = Path(__file__).resolve().parents[2]
REV = ROOT / "corpus" / "revisions"
OLD = load_policy(ROOT / "corpus" / "policies" / "payments.policy")
RAISED = load_policy(REV / "payments" / "pay_raise_small.policy")  # small payments: quota 3 -> 5


def _workload(where: list[dict[str, Any]], max_: int) -> Workload:
    doc = json.loads((REV / "workloads" / "payments.json").read_text())
    doc["forbidden"] = [{"action": "payment.pay", "max": max_, "where": where}]
    return workload_from_json(doc)


def test_only_effects_whose_call_passes_the_test_count() -> None:
    b = Budget("payment.pay", 0, where=(RangePred(("amount",), 1001, None),))
    small = with_args([Effect("payment.pay", "acct-acme")], (("amount", "1000"),))
    large = with_args([Effect("payment.pay", "acct-acme")], (("amount", "1001"),))
    assert not b.violated(small) and b.violated(large)
    assert not b.violated([Effect("payment.pay", "acct-acme")])  # no arguments recorded: no test holds
    assert isinstance(large[0], ArgEffect) and large[0].arguments() == {"amount": 1001}


def test_tests_keep_the_policy_exactness() -> None:
    eq_true = Budget("a", 0, where=(EqPred(("x",), True),))
    assert not eq_true.violated(with_args([Effect("a", "r")], (("x", "1"),)))  # a boolean is not the number 1
    assert eq_true.violated(with_args([Effect("a", "r")], (("x", "true"),)))
    ranged = Budget("a", 0, where=(RangePred(("x",), 1, None),))
    assert not ranged.violated(with_args([Effect("a", "r")], (("x", "true"),)))  # booleans are not numbers
    assert ranged.violated(with_args([Effect("a", "r")], (("x", "1.0"),)))
    # a `$from` argument is a handle: it is left out, and no test of it holds
    assert with_args([Effect("a", "r")], (("x", "$from:Tool"),))[0] == ArgEffect("a", "r", ())


def test_a_budget_on_small_payments_finds_the_new_fourth_small_payment() -> None:
    w = _workload([{"kind": "range", "path": ["amount"], "high": 999}], 3)
    report = revise(OLD, RAISED, EVERY_EFFECT, w, 5)  # the lookup first: payments go to its account
    assert isinstance(report.safety, NewlyForbidden), report.safety
    assert report.safety.trace.confirmed
    names = list(report.safety.trace.names)
    assert names.count("pay 500 EUR") == 4 and names.count("lookup acme") == 1, names


def test_a_budget_whose_test_no_new_call_passes_finds_nothing() -> None:
    # the same budget without the test is broken by the same four payments; with it only payments of
    # 5000 or more count, and the revision admits no more of those
    w = _workload([{"kind": "range", "path": ["amount"], "low": 5000}], 1)
    report = revise(OLD, RAISED, EVERY_EFFECT, w, 5)
    assert isinstance(report.safety, NoNewForbidden), report.safety
    plain = revise(OLD, RAISED, EVERY_EFFECT, _workload([], 3), 5)
    assert isinstance(plain.safety, NewlyForbidden)


def _load(tmp_path: Path, where_text: str) -> Workload:
    """The payments workload with one budget whose ``where`` is this raw JSON text (literals kept as written)."""
    doc = json.loads((REV / "workloads" / "payments.json").read_text())
    head = json.dumps({k: v for k, v in doc.items() if k != "forbidden"})[:-1]
    path = tmp_path / "w.json"
    path.write_text(head + ', "forbidden": [{"action": "payment.pay", "max": 0, "where": ' + where_text + "}]}")
    return load_workload(path)


def test_a_workload_file_with_a_test_loads(tmp_path: Path) -> None:
    w = _load(tmp_path, '[{"kind": "range", "path": ["amount"], "low": 1001}, {"kind": "eq", "path": ["currency"], '
                        '"value": "EUR"}]')
    assert w.forbidden[0].where == (RangePred(("amount",), 1001, None), EqPred(("currency",), "EUR"))
    assert "where" in w.forbidden[0].show()


@pytest.mark.parametrize(("where_text", "named"), [
    ('[{"kind": "range", "path": ["amount"], "low": "1000"}]', "$.forbidden[0].where[0]"),
    ('[{"kind": "range", "path": ["amount"]}]', "$.forbidden[0].where[0]"),
    ('[{"kind": "eq", "path": [], "value": 1}]', "$.forbidden[0].where[0]"),
    ('[{"kind": "above", "path": ["amount"], "low": 1}]', "$.forbidden[0].where[0]"),
    ('[{"kind": "range", "path": ["amount"], "low": 9007199254740993}]', "$.forbidden[0].where[0].low"),
    ('[{"kind": "eq", "path": ["amount"], "value": 0.1000000000000000000001}]', "$.forbidden[0].where[0].value"),
])
def test_bad_tests_are_refused_naming_the_place(tmp_path: Path, where_text: str, named: str) -> None:
    with pytest.raises(InvalidInput) as err:
        _load(tmp_path, where_text)
    assert named in str(err.value), str(err.value)


def test_a_prefix_s_calls_count_with_their_arguments() -> None:
    doc = json.loads((REV / "workloads" / "payments.json").read_text())
    pay = doc["calls"][1]
    prefix = prefix_from_json({"agent": "clerk", "calls": [doc["calls"][0], pay, pay, pay]}, "<prefix>")
    w = _workload([{"kind": "range", "path": ["amount"], "high": 999}], 3)
    report = revise(OLD, RAISED, EVERY_EFFECT, w, 2, prefix)
    # the three small payments of the prefix count: one more, which only the new policy admits, breaks the budget
    assert isinstance(report.safety, NewlyForbidden) and list(report.safety.trace.names) == ["pay 500 EUR"]
    assert report.safety.trace.confirmed
    none_small = _workload([{"kind": "range", "path": ["amount"], "high": 499}], 3)
    assert isinstance(revise(OLD, RAISED, EVERY_EFFECT, none_small, 2, prefix).safety, NoNewForbidden)


@pytest.mark.parametrize("where", [[{"kind": "range", "path": ["amount"], "high": 999}],
                                   [{"kind": "range", "path": ["amount"], "low": 0}],
                                   [{"kind": "eq", "path": ["currency"], "value": "USD"}]])
def test_compiled_tests_answer_as_the_arguments_do(where: list[dict[str, Any]]) -> None:
    from model.revision.explore.counterexample import Searched, new_forbidden
    from model.revision.explore.memo import SHARED

    w = _workload(where, 3)
    for args in (t.args for t in w.templates if t.tool is not None):
        compiled = w.tagged([Effect("payment.pay", "acct-acme")], args, w.passes(args))
        plain = with_args([Effect("payment.pay", "acct-acme")], args)
        assert w.counts(compiled) == w.counts(plain)
    for bound in (4, 5):
        fast = new_forbidden(OLD, RAISED, w, bound, memo=SHARED)  # compiled, merged on the tests' outcome
        slow = new_forbidden(OLD, RAISED, w, bound, merge=False)  # arguments read per effect, no merging
        assert isinstance(fast, Searched) == isinstance(slow, Searched)
        if not isinstance(fast, Searched) and not isinstance(slow, Searched):
            assert fast.names == slow.names
