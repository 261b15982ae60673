"""``corpus/search/manifest.json`` (model/search/manifest.py): every small row is re-checked exactly — verdict,
shortest length and explicit state count; the checker reports a row whose expectation is wrong."""

from __future__ import annotations

import json
from pathlib import Path

from model.search.manifest import check, load_manifest

MANIFEST = Path(__file__).resolve().parents[2] / "corpus" / "search" / "manifest.json"


def test_small_rows_hold_exactly() -> None:
    rows = [r for r in load_manifest(MANIFEST) if r.tier == "small"]
    assert len(rows) >= 20
    mismatches = check(MANIFEST, "small")
    assert not mismatches, "\n".join(str(m) for m in mismatches)


def test_a_wrong_expectation_is_reported(tmp_path: Path) -> None:
    doc = json.loads(MANIFEST.read_text(encoding="utf-8"))
    row = next(r for r in doc["rows"] if r["model"] == "delete_ab.json")
    row["states"] += 1
    doc["rows"] = [row]
    for name in ("delete_ab.json", "delete_widened.policy"):
        (tmp_path / name).write_text((MANIFEST.parent / name).read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "policies").mkdir()
    (tmp_path / "policies" / "delete_ab.policy").write_text(
        (MANIFEST.parent.parent / "policies" / "delete_ab.policy").read_text(encoding="utf-8"), encoding="utf-8")
    row["policy"] = row["policy"].replace("../policies/", "policies/")
    text = (tmp_path / "delete_ab.json").read_text(encoding="utf-8").replace("../policies/", "policies/")
    (tmp_path / "delete_ab.json").write_text(text, encoding="utf-8")
    (tmp_path / "manifest.json").write_text(json.dumps(doc), encoding="utf-8")
    got = check(tmp_path / "manifest.json")
    assert len(got) == 1 and got[0].got_states == row["states"] - 1
