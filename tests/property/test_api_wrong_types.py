"""Every public function of the library (``model.__all__``) refuses a wrong-typed argument with
``InvalidInput`` naming the function and the parameter (``model/shell/apicheck.py``), never a raw
``TypeError``/``AttributeError``/``ValueError``; an argument the signature types as ``Any`` (a JSON
document, a Dask client, an API result) is refused by the function itself with ``InvalidInput``."""

from __future__ import annotations

import inspect
import sys
import typing
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import model
from model.base.errors import InvalidInput
from model.shell import api, frames
from model.shell.apicheck import accepts, checking_names

ROOT = Path(__file__).resolve().parents[2]
POL, TRACE = "corpus/policies/report.policy", "corpus/traces/report_delivery.json"

#: cheap, valid arguments for every required parameter (the one under test is replaced by junk)
BASE: dict[str, dict[str, Any]] = {
    "load_policy": {"path": POL},
    "parse_policy": {"text": "policy tiny levels Public < Secret"},
    "run_trace": {"policy": POL, "trace": TRACE},
    "explain": {"policy": POL, "trace": TRACE, "step": 4},
    "report_table": {},
    "check_edit": {"instance": "corpus/edits/release_accept.json"},
    "check_revision": {"old": POL, "new": "corpus/policies/report_chained.policy"},
    "revision_corpus": {},
    "bounded_search": {"model": "corpus/search/report.json", "bound": 1},
    "verify_approval": {"approval": "corpus/admission/approval_order-1.json",
                        "approvers": "corpus/admission/approvers.json", "action": "paytm:refund",
                        "resource": "order-1"},
    "verify_records": {"records": "corpus/admission/records.json", "key": "corpus/admission/keys/runtime.pub.pem"},
    "admission_demo": {},
    "drt_campaign": {"build": False},
    "to_frame": {}, "rows": {}, "sentence": {},
}
FUNCTIONS = sorted(n for n in model.__all__ if inspect.isfunction(getattr(model, n)))
WITH_PARAMS = [n for n in FUNCTIONS if inspect.signature(getattr(model, n)).parameters]

junk = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True), st.binary(max_size=6), st.text(max_size=6),
    st.lists(st.integers(), max_size=3), st.dictionaries(st.integers(), st.integers(), max_size=2),
    st.dictionaries(st.text(max_size=3), st.none(), max_size=2), st.tuples(st.integers()), st.just(object()),
    st.just(frozenset({1})), st.complex_numbers(max_magnitude=1),
)


def _hints(name: str) -> dict[str, Any]:
    fn = inspect.unwrap(getattr(model, name))
    mod = sys.modules[fn.__module__]
    return typing.get_type_hints(fn, {**vars(mod), **checking_names(mod)})


def test_every_public_function_is_checked_and_has_a_base_case() -> None:
    assert set(FUNCTIONS) == set(BASE)
    for name in FUNCTIONS:
        assert getattr(getattr(model, name), "__checked__", False), name


@pytest.mark.parametrize("name", WITH_PARAMS)
@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.filter_too_much])
@given(data=st.data(), value=junk)
def test_a_wrong_typed_argument_is_invalid_input_naming_the_parameter(name: str, data: st.DataObject,
                                                                       value: object,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    params = list(inspect.signature(getattr(model, name)).parameters)
    param = data.draw(st.sampled_from(params))
    tp = _hints(name).get(param, Any)
    typed_any = tp is Any
    assume(typed_any or not accepts(tp, value))  # a value of the right type is not this test's business
    try:
        getattr(model, name)(**{**BASE[name], param: value})
    except InvalidInput as exc:
        if not typed_any:
            assert f"{name}: {param}" in str(exc)
        return
    assert typed_any, f"{name}({param}={value!r}) was accepted"


@pytest.mark.parametrize(("call", "where"), [
    (lambda: api.check_edit(None), "check_edit: instance"),  # type: ignore[arg-type]
    (lambda: api.load_policy(123), "load_policy: path"),  # type: ignore[arg-type]
    (lambda: api.check_revision(None, None), "check_revision: old"),  # type: ignore[arg-type]
    (lambda: api.bounded_search("corpus/search/report.json", bound=True), "bounded_search: bound"),
    (lambda: api.run_trace(POL, TRACE, True), "run_trace"),  # type: ignore[misc]
    (lambda: api.revision_corpus(client=5), "revision_corpus: client"),
    (lambda: frames.rows(5), "rows: result"),
    (lambda: api.admission_demo(1), "admission_demo"),  # type: ignore[call-arg]
    (lambda: frames.sentence(None), "sentence: result"),
])
def test_the_reported_calls_are_invalid_input(call: Any, where: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    with pytest.raises(InvalidInput, match=where):
        call()
