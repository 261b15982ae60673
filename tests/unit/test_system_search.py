"""The generic bounded search (model/search/system): counts on a system small enough to check by hand, the
admission model's verdicts, its loader's errors, the ``agentwarrant search`` dispatch, and mutants of the
real admission code that each safety query must catch."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from model.admission.resumable import attempt_store, handler
from model.base.errors import InvalidInput
from model.search.search_verdict import Exhausted, Vacuous
from model.search.system.admission import AdmissionSystem, load, model_from_json
from model.search.system.bfs import Reached, search, verdict_name
from model.search.system.protocol import Query, QueryKind, Transition
from model.shell.cli import main

CORPUS = Path(__file__).resolve().parents[2] / "corpus" / "search"
Grid = tuple[int, int]


class _Grid:
    """Two counters from (0, 0), each incremented up to 2: ``inc a`` before ``inc b``. Query 0 (goal): reach
    (2, 2); query 1 (forbidden): a counter passes 2 (premise: a counter reaches 2); query 2: premise never met."""

    name = "grid"
    queries = (Query("corner", QueryKind.GOAL), Query("overflow", QueryKind.FORBIDDEN),
               Query("never", QueryKind.FORBIDDEN))

    def initial(self) -> Grid:
        return 0, 0

    def key(self, s: Grid) -> Grid:
        return s

    def successors(self, s: Grid) -> Iterator[Transition[Grid]]:
        a, b = s
        for label, t in (("inc a", (a + 1, b)), ("inc b", (a, b + 1))):
            if max(t) <= 2:
                yield label, t, 1 if t == (2, 2) else 0, 2 if 2 in t else 0


@pytest.mark.parametrize("mode", ["exact", "fingerprint"])
def test_hand_counted_grid(mode: str) -> None:
    # layers by a+b: 1, 2, 3, 2, 1 states; each state (a, b) has [a<2] + [b<2] successors
    run = search(_Grid(), 4, mode)
    assert (run.states, run.transitions, run.depth) == (9, 2 + 4 + 4 + 2, 4)
    assert run.verdict("corner") == Reached(("inc a", "inc a", "inc b", "inc b"))
    assert run.verdict("overflow") == Exhausted(4, 9) and run.verdict("never") == Vacuous(4)
    short = search(_Grid(), 2, mode)
    assert (short.states, short.transitions, short.depth) == (6, 6, 2)
    assert short.verdict("corner") == Vacuous(2)  # not reached, and the grid gives it no premise
    assert short.verdict("overflow") == Exhausted(2, 6)
    long = search(_Grid(), 9, mode)  # the space ends at layer 4: layer 5 adds nothing
    assert (long.states, long.transitions, long.depth) == (9, 12, 4)


def test_budget_answers_unknown() -> None:
    from model.base.budget import Budget, Unknown

    run = search(AdmissionSystem(load(CORPUS / "admission_hold.json")), 8, budget=Budget(states=100))
    assert run.unknown is not None and run.unknown.limit == "states"
    assert isinstance(run.verdict("executes_twice"), Unknown)  # never a safety verdict from a partial search


def test_admission_verdicts_and_shortest_traces() -> None:
    run = search(AdmissionSystem(load(CORPUS / "admission_hold.json")), 5)
    names = {n: verdict_name(v) for n, v in run.verdicts}
    assert all(names[q] == "exhausted" for q in ("executes_twice", "approval_recorded_twice", "unapproved_replay",
                                                   "denied_now_unapproved", "effect_without_live_authority",
                                                   "replay_by_other_identity"))
    assert run.verdict("held_replayed_executes") == Reached(("submit r1", "approve r1", "replay r1"))
    assert run.verdict("approved_replay_after_revision_to_deny") == Reached(
        ("submit r1", "approve r1", "revise", "replay r1"))
    assert run.verdict("second_replay_refused") == Reached(("submit r1", "approve r1", "replay r1", "replay r1"))


def _doc(**change: object) -> dict[str, object]:
    doc: dict[str, object] = json.loads((CORPUS / "admission_hold.json").read_text(encoding="utf-8"))
    doc.update(change)
    return doc


@pytest.mark.parametrize(("change", "where"), [
    ({"requesters": 0}, "$.requesters"), ({"bound": "8"}, "$.bound"), ({"policy_revisions": ["maybe"]},
                                                                       "$.policy_revisions[0]"),
    ({"faults": ["crash", "crash"]}, "$.faults[1]"), ({"queries": ["executes_twice", "nope"]}, "$.queries[1]"),
    ({"kind": "monitor"}, "$.kind"), ({"colour": 1}, "$.colour")])
def test_bad_model_names_the_json_path(change: dict[str, object], where: str) -> None:
    with pytest.raises(InvalidInput) as exc:
        model_from_json(_doc(**change), "m.json")
    assert f"m.json at {where}" in str(exc.value)


def test_cli_dispatches_by_kind(tmp_path: Path) -> None:
    res = CliRunner().invoke(main, ["search", str(CORPUS / "admission_hold.json"), "--bound", "4", "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.output)
    assert out["passed"] and out["mode"] == "exact" and out["queries"]["held_replayed_executes"]["trace"]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(_doc(requesters=-1)), encoding="utf-8")
    res = CliRunner().invoke(main, ["search", str(bad)])
    assert res.exit_code == 2 and "$.requesters" in res.output


def test_mutants_are_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each mutant breaks the real code in one place; the search must find the matching forbidden execution."""
    m = load(CORPUS / "admission_hold.json")
    monkeypatch.setattr(handler, "authorize", lambda *a, **k: None)  # the handler skips its live check
    run = search(AdmissionSystem(m), 6)
    assert isinstance(run.verdict("effect_without_live_authority"), Reached)
    monkeypatch.undo()

    def redispatch(self: attempt_store.AttemptStore) -> list[str]:  # recovery re-arms an interrupted attempt
        with self.db.transaction() as c:  # a faulty writer that holds the store's key: its rows verify
            ids = [r[0] for r in c.execute("SELECT id FROM attempts WHERE state = 'executing'").fetchall()]
            c.execute("UPDATE attempts SET state = 'approved', result = NULL WHERE state = 'executing'")
            self.seal.append(c, [{"attempt": i, "state": "approved", "approver": None, "result": None} for i in ids])
        return []

    monkeypatch.setattr(attempt_store.AttemptStore, "recover", redispatch)
    run = search(AdmissionSystem(m), 6)
    assert run.verdict("executes_twice") == Reached(("submit r1", "approve r1", "replay-crash r1", "restart",
                                                     "replay r1"))


def test_a_local_state_made_elsewhere_is_rebuilt() -> None:
    """A second memo (another worker's) steps a local state the first one made as the first one does."""
    from model.search.system.admission_steps import PolicyEffect, Steps

    versions = (PolicyEffect.REQUIRE_REVIEW, PolicyEffect.DENY)
    here, there = Steps(2, versions), Steps(2, versions)
    loc = (None, 0, 0)
    for action in ("submit", "approve"):
        loc = here.step(1, loc, 0, True, action)[0]
    assert loc[0] is not None and loc[0][0] == "approved"
    for action in ("replay", "replay-other", "reject", "replay-crash"):
        assert there.step(1, loc, 1, True, action) == here.step(1, loc, 1, True, action), action
    assert there.calls > 2  # it ran the services to rebuild the state, not a copy of the first memo
