"""The large rows of ``corpus/search/manifest.json`` (bounds 5–6 on the report task, the approval model),
re-checked exactly like the small ones (tests/unit/test_search_manifest.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from model.search.manifest import check, load_manifest

MANIFEST = Path(__file__).resolve().parents[2] / "corpus" / "search" / "manifest.json"


@pytest.mark.slow
def test_large_rows_hold_exactly() -> None:
    assert any(r.tier == "large" for r in load_manifest(MANIFEST))
    mismatches = check(MANIFEST, "large")
    assert not mismatches, "\n".join(str(m) for m in mismatches)
