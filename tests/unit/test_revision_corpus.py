"""The revision corpus: schema-checked manifest and workloads, its size, and every revision's
verdicts against the manifest's expectations (Agenra §§7.1, 11)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import jsonschema
import pytest

from model.base.errors import InvalidInput
from model.revision.corpus import CORPUS, load_manifest, load_workload
from model.revision.report import Certified, NewlyForbidden, NotPreserved
from model.revision.revise import revise

ROOT = Path(__file__).resolve().parents[2]
SCHEMAS = ROOT / "corpus" / "schemas"
ENTRIES = load_manifest()


@pytest.mark.parametrize("name", ["revision_manifest", "revision_workload"])
def test_schemas_are_valid_draft_2020_12(name: str) -> None:
    jsonschema.Draft202012Validator.check_schema(json.loads((SCHEMAS / f"{name}.schema.json").read_text()))


def test_corpus_size_bases_and_kinds() -> None:
    assert len(ENTRIES) >= 51
    assert len({e.base.name for e in ENTRIES}) >= 5
    outcomes = Counter(e.expected_preservation for e in ENTRIES)
    assert outcomes["certified"] >= 21 and outcomes["not_preserved"] >= 30
    kinds = {e.kind for e in ENTRIES}
    assert {"quota_increase", "appended_grant", "reorder_independent", "reorder_overlapping", "widened_resource",
            "narrowed_predicate", "added_deny", "changed_ceiling", "changed_resolver"} <= kinds
    ids = {e.id for e in ENTRIES}
    assert {"delete_widen_first", "report_raise_send_both"} <= ids


@pytest.mark.parametrize("entry", ENTRIES, ids=[e.id for e in ENTRIES])
def test_revision_verdicts_match_the_manifest(entry: object) -> None:
    from model.revision.corpus import Entry

    assert isinstance(entry, Entry)
    report = revise(entry.base.policy, entry.new, entry.effects, entry.base.workload, entry.base.bound, entry.prefix)
    assert (report.start is None) == (entry.prefix is None)
    p, s = report.preservation, report.safety
    if entry.expected_preservation == "certified":
        assert isinstance(p, Certified), p
    else:
        assert isinstance(p, NotPreserved), p
        assert p.lost.confirmed
        if entry.lost_client is not None:
            assert p.lost.names == entry.lost_client
    assert isinstance(s, NewlyForbidden) == (entry.expected_safety == "newly_forbidden"), s
    if isinstance(s, NewlyForbidden):
        assert s.trace.confirmed
        if entry.forbidden_trace is not None:
            assert s.trace.names == entry.forbidden_trace


def test_mid_task_entries_cover_both_outcomes_and_a_verdict_that_differs_from_task_start() -> None:
    mid = [e for e in ENTRIES if e.prefix is not None]
    assert len(mid) >= 4
    assert {e.expected_preservation for e in mid} == {"certified", "not_preserved"}
    differs = []
    for e in mid:
        at_start = revise(e.base.policy, e.new, e.effects, e.base.workload, e.base.bound).preservation
        after = revise(e.base.policy, e.new, e.effects, e.base.workload, e.base.bound, e.prefix).preservation
        if isinstance(at_start, Certified) != isinstance(after, Certified):
            differs.append(e.id)
    # e.g. the introduction's widening after "delete B", and cutting A's quota after A's deletion
    assert {"delete_widen_first_after_b", "delete_drop_a_quota_after_a"} <= set(differs), differs


def test_manifest_reference_errors_name_the_entry(tmp_path: Path) -> None:
    doc = json.loads((CORPUS / "manifest.json").read_text())
    for name, base in doc["bases"].items():
        for key in ("policy", "workload"):
            base[key] = str((CORPUS / base[key]).resolve())
        doc["bases"][name] = base
    for r in doc["revisions"]:
        r["new"] = str((CORPUS / r["new"]).resolve())
    doc["revisions"][3]["base"] = "nowhere"
    bad = tmp_path / "manifest.json"
    bad.write_text(json.dumps(doc))
    with pytest.raises(InvalidInput) as err:
        load_manifest(bad)
    assert "$.revisions[3]" in str(err.value)
    doc["revisions"][3]["base"] = "report"
    doc["revisions"][5]["new"] = "missing.policy"
    bad.write_text(json.dumps(doc))
    with pytest.raises(InvalidInput) as err:
        load_manifest(bad)
    assert "$.revisions[5].new" in str(err.value)
    doc["revisions"][5]["kind"] = "not_a_kind"
    bad.write_text(json.dumps(doc))
    with pytest.raises(InvalidInput) as err:
        load_manifest(bad)
    assert "revision_manifest.schema.json" in str(err.value)


def test_workload_errors_are_invalid_input(tmp_path: Path) -> None:
    bad = tmp_path / "w.json"
    bad.write_text(json.dumps({"agent": "a", "calls": [{"tool": "T", "args": {"x": {"$from": 3}}}]}))
    with pytest.raises(InvalidInput):
        load_workload(bad)
    bad.write_text("{not json")
    with pytest.raises(InvalidInput):
        load_workload(bad)
