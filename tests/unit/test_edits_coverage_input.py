"""A derived instance's source results as the oracle's ``edit_check`` receives them (``sources``,
model/oracle/edits_json.py) and Python's side of the coverage decision (``python_coverage``): every
covering outcome the derivation found is listed, the witness ``Derive`` kept is among them, and the
``coverage`` comparison mode catches a disagreement."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from model.edits.runtime.derive import Derived, derive
from model.edits.runtime.forms import ForkChoice, ForkParallel
from model.edits.runtime.runtime import Runtime
from model.edits.runtime.scenarios import laptop
from model.edits.runtime.session_script import session_from_json
from model.oracle import edits_json as E


def _derived(tmp_path: Path) -> list[Derived]:
    sess = session_from_json(laptop())
    rt, _ = Runtime.create(str(tmp_path / "l.db"), sess.registration, sess.seed)
    try:
        out = [derive(rt.state(), e) for e in (ForkChoice("b0", "fork"), ForkParallel("b0", "both"))]
    finally:
        rt.close()
    assert all(isinstance(d, Derived) for d in out)
    return [d for d in out if isinstance(d, Derived)]


def test_sources_list_every_required_result_with_its_covering_outcomes(tmp_path: Path) -> None:
    for d in _derived(tmp_path):
        pres = d.preservation
        assert pres.still_required  # a fork copies the required results of the forked branch
        payload, names = E.edit_check_input(d.instance, pres)
        src = payload["sources"]
        assert [s["id"] for s in src] == list(range(len(pres.required_before)))
        still = set(pres.still_required)
        for s, res in zip(src, pres.required_before, strict=True):
            assert (not s["satisfied"] and not s["removed"]) == (res in still)
        witness = dict(pres.covers)
        for res, ts in pres.covering:
            k = pres.required_before.index(res)
            assert [names.outcomes[t] for t in src[k]["covers"]] == list(ts)
            assert witness[res] in ts
        assert E.python_coverage(d.instance, pres)
        assert E.python_edit_check(d.instance, pres).coverage is True
        # without its source results an instance has none to cover
        assert "sources" not in E.edit_check_input(d.instance)[0]


def test_python_coverage_fails_without_a_covering_outcome(tmp_path: Path) -> None:
    d = _derived(tmp_path)[0]
    dropped = replace(d.preservation, covering=tuple((r, ()) for r, _ in d.preservation.covering))
    assert not E.python_coverage(d.instance, dropped)
    view = E.python_edit_check(d.instance, dropped)
    assert view.coverage is False and set(view.verdicts) == {"invalid:required-result-dropped"}
    # the coverage mode compares the two decisions
    assert E.compare_edit_check(view, replace(view, verdicts=view.verdicts[:1], coverage=True)) == ["coverage"]
    assert E.compare_edit_check(view, replace(view, verdicts=view.verdicts[:1])) == []
