"""Loading search models: the corpus models load; every kind of bad input is ``InvalidInput`` naming the JSON
path and what was expected (model/search/load.py); the CLI prints it as one line and exits 2."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from model.base.errors import InputKind, InvalidInput
from model.search.load import load_model, model_from_json
from model.search.model import BoundTo, Not, Produced, QueryKind, When
from model.shell.cli import main
from tests.search_corpus import explicit_models

ROOT = Path(__file__).resolve().parents[2]
SEARCH = ROOT / "corpus" / "search"
REPORT: dict[str, Any] = json.loads((SEARCH / "report.json").read_text(encoding="utf-8"))


def _load(doc: object) -> None:
    model_from_json(doc, "m.json", SEARCH)


@pytest.mark.parametrize("name", explicit_models())
def test_corpus_models_load(name: str) -> None:
    model = load_model(SEARCH / name)
    assert model.queries and all(model.results_of(t.name) for t in model.policy.tools)


def test_report_model_reads_patterns_and_results() -> None:
    m = load_model(SEARCH / "report.json")
    q = m.query("send_not_bound")
    assert q is not None and q.kind is QueryKind.FORBIDDEN and q.event.when is When.ADMITTED
    assert q.event.args == (("recipient", Not(BoundTo("target"))),)
    goal = m.query("deliver_summary")
    assert goal is not None and goal.kind is QueryKind.GOAL
    body = dict(goal.event.args)["body"]
    assert body == Produced("Sanitize", (("record", Produced("Read")),))
    assert [r.ok for r in m.results_of("Lookup")] == [True, True, True, False]
    assert m.results_of("Sanitize")[0].when  # succeeds only on a record object


def _mutated(path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    doc = copy.deepcopy(REPORT)
    cur = doc
    for p in path[:-1]:
        cur = cur[p]
    if value is _DELETE:
        del cur[path[-1]]
    else:
        cur[path[-1]] = value
    return doc


_DELETE = object()

CASES = [
    (("queries",), _DELETE, "$", InputKind.SCHEMA),
    (("queries", 0, "kind"), "maybe", "$.queries[0].kind", InputKind.SCHEMA),
    (("bound",), -1, "$.bound", InputKind.SCHEMA),
    (("agent", "name"), "mallory", "$.agent.name", InputKind.REFERENCE),
    (("results", "Teleport"), [{"ok": False}], "$.results.Teleport", InputKind.REFERENCE),
    (("results", "Read"), _DELETE, "$.results", InputKind.REFERENCE),
    (("queries", 0, "event", "tool"), "Fax", "$.queries[0].event.tool", InputKind.REFERENCE),
    (("queries", 0, "event", "label_above"), "Secret", "$.queries[0].event.label_above", InputKind.REFERENCE),
    (("queries", 0, "event", "args"), {"cc": {"equals": 1}}, "$.queries[0].event.args.cc", InputKind.REFERENCE),
    (("queries", 3, "event", "args", "recipient"), {"bound_to": "nowhere"},
     "$.queries[3].event.args.recipient.bound_to", InputKind.REFERENCE),
    (("queries", 1, "event", "args", "body"), {"produced_by": "Oracle"},
     "$.queries[1].event.args.body.produced_by", InputKind.REFERENCE),
    (("queries", 1, "name"), "confidential_to_mail", "$.queries[1].name", InputKind.REFERENCE),
    (("agent", "fields"), {"Lookup": "destination"}, "$.agent.fields.Lookup", InputKind.SCHEMA),
    (("toolkit",), "delete", "$.toolkit", InputKind.REFERENCE),
    (("policy",), "no/such.policy", "$.policy", InputKind.IO),
]


@pytest.mark.parametrize(("path", "value", "where", "kind"), CASES, ids=[c[2] for c in CASES])
def test_bad_model_names_json_path(path: tuple[Any, ...], value: Any, where: str, kind: InputKind) -> None:
    with pytest.raises(InvalidInput) as info:
        _load(_mutated(path, value))
    assert info.value.kind is kind
    assert info.value.location.json_path == where, str(info.value)
    assert "expected" in str(info.value)


def test_cli_bad_model_is_one_line_exit_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(_mutated(("queries", 0, "event", "tool"), "Fax")), encoding="utf-8")
    result = CliRunner().invoke(main, ["search", str(bad)])
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    not_json = tmp_path / "x.json"
    not_json.write_text("{", encoding="utf-8")
    result = CliRunner().invoke(main, ["search", str(not_json)])
    assert result.exit_code == 2 and "Traceback" not in result.output
