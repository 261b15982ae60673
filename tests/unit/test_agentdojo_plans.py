"""The planner's plans are committed data: every suite's file validates and holds a plan of each user
task, a damaged file is refused naming its JSON path, and a run reads the files without deriving a
plan or consulting AgentDojo's check (the scorer) to decide a call."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest

pytest.importorskip("agentdojo", reason="AgentDojo is the optional extra 'agentdojo' (make test installs it)")

from model.base.errors import InvalidInput
from model.base.jsonio import load_file
from model.base.schemas import SCHEMA_DIR
from model.bench.agentdojo import plans
from model.bench.agentdojo.suites import SUITES, get_suite, suite_policy
from model.bench.agentdojo.task_replay import Agent, Review, run_user_task


def test_the_schema_is_a_valid_draft_2020_12_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(load_file(SCHEMA_DIR / plans.SCHEMA))


@pytest.mark.parametrize("suite", SUITES)
def test_every_user_task_has_a_valid_committed_plan_written_from_its_prompt(suite: str) -> None:
    plans._suite_plans.cache_clear()
    loaded = plans._suite_plans(suite)  # validates the whole file
    dojo = get_suite(suite)
    assert sorted(loaded) == sorted(dojo.user_tasks)
    doc = load_file(plans.plans_path(suite))
    assert doc["written_by"] == plans.PLANS_BY
    for t, task in dojo.user_tasks.items():
        assert doc["tasks"][t]["prompt"] == task.PROMPT
        assert len(loaded[t]) == len(doc["tasks"][t]["steps"]) > 0


def _damaged(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, edit: Any) -> InvalidInput:
    doc = copy.deepcopy(load_file(plans.plans_path("banking")))
    edit(doc)
    bad = tmp_path / "banking.json"
    bad.write_text(json.dumps(doc), encoding="utf-8")
    monkeypatch.setattr(plans, "plans_path", lambda suite: bad)
    plans._suite_plans.cache_clear()
    try:
        with pytest.raises(InvalidInput) as err:
            plans.plan("banking", "user_task_0")
    finally:
        plans._suite_plans.cache_clear()
    assert err.value.location.source == str(bad)
    return err.value


def _argument(doc: Any, task: str, step: int, arg: str) -> Any:
    return doc["tasks"][task]["steps"][step]["arguments"][arg]


def test_a_source_that_is_no_earlier_call_is_refused_at_its_path(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    assert _argument(load_file(plans.plans_path("banking")), "user_task_0", 1, "recipient")["from"] == "extracted"

    def later(doc: Any) -> None:
        _argument(doc, "user_task_0", 1, "recipient")["sources"] = [1]

    err = _damaged(tmp_path, monkeypatch, later)
    assert err.location.json_path == "$.tasks.user_task_0.steps[1].arguments.recipient.sources"


def test_a_computed_value_must_name_every_earlier_call(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def narrowed(doc: Any) -> None:
        for t, entry in doc["tasks"].items():
            for i, st in enumerate(entry["steps"]):
                for k, a in st["arguments"].items():
                    if a["from"] == "computed" and len(a["sources"]) > 1:
                        a["sources"] = a["sources"][1:]
                        narrowed.at = f"$.tasks.{t}.steps[{i}].arguments.{k}.sources"  # type: ignore[attr-defined]
                        return
        raise AssertionError("banking has no value computed from two calls")

    err = _damaged(tmp_path, monkeypatch, narrowed)
    assert err.location.json_path == narrowed.at  # type: ignore[attr-defined]


def test_a_shape_the_schema_refuses_is_refused_at_its_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def guessed(doc: Any) -> None:
        _argument(doc, "user_task_0", 1, "recipient")["from"] = "guessed"

    err = _damaged(tmp_path, monkeypatch, guessed)
    assert err.location.json_path == "$.tasks.user_task_0.steps[1].arguments.recipient"


def test_an_argument_without_a_source_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def dropped(doc: Any) -> None:
        del doc["tasks"]["user_task_0"]["steps"][1]["arguments"]["amount"]

    err = _damaged(tmp_path, monkeypatch, dropped)
    assert err.location.json_path == "$.tasks.user_task_0.steps[1].arguments"


def test_another_suites_file_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def renamed(doc: Any) -> None:
        doc["suite"] = "slack"

    assert _damaged(tmp_path, monkeypatch, renamed).location.json_path == "$.suite"


def _decisions(suite: str, task: str) -> list[tuple[object, ...]]:
    run = run_user_task(suite, task, suite_policy(suite), Agent.PLANNER, Review.AWARE)
    assert run.steps
    return [st.decided.key() for st in run.steps]


TASKS = {"workspace": "user_task_32", "travel": "user_task_7", "banking": "user_task_4", "slack": "user_task_1"}


def test_a_run_decides_without_deriving_a_plan_or_consulting_the_check(monkeypatch: pytest.MonkeyPatch) -> None:
    from model.bench.agentdojo import author_plans, task_replay

    before = {s: _decisions(s, t) for s, t in TASKS.items()}

    def forbidden(*args: object, **kwargs: object) -> None:
        raise AssertionError("consulted while deciding")

    monkeypatch.setattr(author_plans, "_free", forbidden)
    monkeypatch.setattr(author_plans, "derive", forbidden)
    for s in SUITES:
        monkeypatch.setattr(get_suite(s), "_check_task_result", forbidden)
    # the verdict is AgentDojo's check, applied after the run: stand in for it to see the decisions alone
    monkeypatch.setattr(task_replay, "_check", lambda *args: True)
    plans._suite_plans.cache_clear()
    for s, t in TASKS.items():
        assert _decisions(s, t) == before[s]


def test_the_command_does_not_import_the_authoring_script() -> None:
    probe = ("import sys\n"
             "from model.bench.agentdojo.task_replay import Agent, run_user_task, run_pair\n"
             "from model.bench.agentdojo.suites import suite_policy\n"
             "run_user_task('travel', 'user_task_7', suite_policy('travel'), Agent.PLANNER)\n"
             "run_pair('banking', 'user_task_4', 'injection_task_0', suite_policy('banking'), Agent.PLANNER)\n"
             "print(sorted(m for m in sys.modules if m.endswith('author_plans')))\n")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


@pytest.mark.slow
@pytest.mark.parametrize("suite", SUITES)
def test_deriving_the_plans_again_gives_the_committed_file(suite: str) -> None:
    from model.base.jsonio import read_text
    from model.bench.agentdojo.author_plans import document, text

    assert text(document(suite)) == read_text(plans.plans_path(suite))
