"""``agent.omits`` in a search model (model/search/model.py): the optional arguments the agent never
passes are never proposed, by the explicit engine nor by the SMT one (they agree with and without
them), and a name that is not an optional argument of the tool is ``InvalidInput`` at its JSON path."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from model.base.errors import InputKind, InvalidInput
from model.search.compare import Agreement, compare
from model.search.explicit import explore
from model.search.load import model_from_json
from model.search.search_verdict import Exhausted, Found, Vacuous
from model.search.smt import check
from model.search.space import agent_calls, initial

SEARCH = Path(__file__).resolve().parents[2] / "corpus" / "search"
REPORT: dict[str, Any] = json.loads((SEARCH / "report.json").read_text(encoding="utf-8"))
QUERY = {"name": "other_with_query", "kind": "forbidden", "description": "Other searched for Alice",
         "event": {"tool": "Other", "args": {"query": {"equals": "Alice"}}}}


def _doc(omits: dict[str, list[str]] | None) -> dict[str, Any]:
    doc = copy.deepcopy(REPORT)
    doc["queries"].append(QUERY)
    if omits is not None:
        doc["agent"]["omits"] = omits
    return doc


@pytest.mark.parametrize("omitted", [False, True])
def test_an_omitted_argument_is_never_proposed_by_either_engine(omitted: bool) -> None:
    model = model_from_json(_doc({"Other": ["query"]} if omitted else None), "m.json", SEARCH)
    calls = [c for c in agent_calls(model, initial(model)) if c.tool == "Other"]
    assert calls and all(bool(c.args) is not omitted for c in calls[1:])
    assert any(c.args for c in calls) is not omitted
    e, s = explore(model, 2), check(model, 2)
    got = e.verdict("other_with_query")
    assert isinstance(got, Exhausted | Vacuous) if omitted else isinstance(got, Found) and got.length == 1
    assert all(isinstance(c, Agreement) for c in compare(model, e, s))


@pytest.mark.parametrize(("omits", "where"), [({"Sanitize": ["record"]}, "$.agent.omits.Sanitize[0]"),
                                              ({"Other": ["cc"]}, "$.agent.omits.Other[0]"),
                                              ({"Fax": ["query"]}, "$.agent.omits.Fax")])
def test_omitting_what_is_not_an_optional_argument_names_its_path(omits: dict[str, list[str]], where: str) -> None:
    with pytest.raises(InvalidInput) as info:
        model_from_json(_doc(omits), "m.json", SEARCH)
    assert info.value.kind is InputKind.REFERENCE and info.value.location.json_path == where, str(info.value)
    assert "expected" in str(info.value)
