"""The library façade (model/shell/api.py) and its table forms (model/shell/frames.py): the docstring examples run,
the functions agree with the CLI's engines, and every result becomes a DataFrame with the rows expected."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

import model
from model.base.errors import InvalidInput
from model.shell import api, api_evidence, frames

ROOT = Path(__file__).resolve().parent.parent.parent


@pytest.mark.parametrize("module", [api, api_evidence, frames], ids=lambda m: m.__name__)
def test_docstring_examples_run(module: object, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)  # type: ignore[arg-type]
    assert result.attempted > 0
    assert result.failed == 0


def test_the_package_re_exports_the_facade_lazily() -> None:
    assert model.run_trace is api.run_trace
    assert model.to_frame is frames.to_frame
    assert set(model.__all__) >= {"check_edit", "check_revision", "bounded_search", "verify_records", "to_frame"}
    with pytest.raises(AttributeError):
        _ = model.no_such_function


def test_trace_frame_has_one_row_per_step_with_the_monitor_decisions(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    run = api.run_trace("corpus/policies/report.policy", "corpus/traces/report_delivery.json")
    df = frames.to_frame(run)
    assert list(df["decision"]) == [s.decision.value for s in run.steps if s.decision is not None]
    assert df["as_expected"].all()
    assert df.loc[6, "why"].startswith("Send is denied: every grant that matches it has used its quota")
    assert run.to_frame().equals(df)


def test_a_trace_given_as_a_dict_is_schema_checked() -> None:
    with pytest.raises(InvalidInput):
        api.run_trace(ROOT / "corpus/policies/report.policy", {"agent": "assistant"})


def test_explain_lists_every_failing_check_and_refuses_a_bad_index(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    e = api.explain("corpus/policies/report.policy", "corpus/traces/report_delivery.json", 6)
    assert [c.reason.value for c in e.checks if c.reason] == ["quota"]
    assert frames.to_frame(e)["first"].tolist() == [True]
    with pytest.raises(InvalidInput):
        api.explain("corpus/policies/report.policy", "corpus/traces/report_delivery.json", 99)


def test_edit_frames_list_completions_and_proof_rounds(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    acc = api.check_edit("corpus/edits/laptop_fork.json")
    assert len(frames.to_frame(acc)) == acc.counts.safe  # type: ignore[union-attr]
    rej = api.check_edit("corpus/edits/release_reject.json")
    proof = frames.to_frame(rej)
    assert sorted(set(proof["round"])) == [0, 1]
    assert [r["candidates"] for r in frames.rounds_rows(rej)] == [2, 1, 0]
    with pytest.raises(InvalidInput):
        api.check_edit("corpus/edits/laptop_fork.json", engine="no-such-engine")


def test_revision_row_matches_the_report(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    r = api.check_revision("corpus/policies/delete_ab.policy", "corpus/revisions/delete_ab/delete_widen_first.policy",
                           workload="corpus/revisions/workloads/delete_ab.json",
                           after="corpus/revisions/prefixes/delete_b.json")
    row = frames.rows(r)[0]
    assert (row["start"], row["verdict"], row["by"]) == ("after 1 calls", "certified", "simulation")
    assert "Every client is kept" in frames.sentence(r)


def test_records_and_approval_frames(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    recs = api.verify_records("corpus/admission/records.json", "corpus/admission/keys/runtime.pub.pem")
    assert frames.to_frame(recs)["valid"].all()
    # the wrong key: every record fails its signature, and the frame says so in one row
    bad = api.verify_records("corpus/admission/records.json", "corpus/admission/keys/alice.pub.pem")
    assert frames.rows(bad)[0]["valid"] is False
    with pytest.raises(InvalidInput, match="rows: result"):
        frames.rows(object())


def test_check_revision_refuses_an_effect_neither_policy_has(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    with pytest.raises(InvalidInput) as err:
        api.check_revision("corpus/policies/delete_ab.policy", "corpus/revisions/delete_ab/delete_widen_first.policy",
                           effects="file.shred")
    assert "effects" in str(err.value)
