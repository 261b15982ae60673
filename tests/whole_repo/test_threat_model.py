"""docs/threat-model.md: every threat row names at least one test, and every test it names exists
(the file under tests/, and the function when one is named; ``::name`` alone refers to the file named
before it in the same cell)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "threat-model.md"


def _threat_rows() -> list[tuple[str, str]]:
    rows, in_threats = [], False
    for line in DOC.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            in_threats = line.startswith("## Threats")
        if in_threats and line.startswith("| ") and not line.startswith("| threat |"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            rows.append((cells[0], cells[-1]))
    return rows


def test_every_threat_names_tests_that_exist() -> None:
    rows = _threat_rows()
    assert len(rows) >= 30
    for threat, cell in rows:
        refs = re.findall(r"`([^`]+)`", cell)
        assert refs, f"threat without a test: {threat}"
        current: Path | None = None
        for ref in refs:
            path, _, name = ref.partition("::")
            if path:
                current = ROOT / "tests" / path
            assert current is not None and current.is_file(), f"{threat}: no file {ref}"
            if name:
                assert re.search(rf"^def {re.escape(name)}\(", current.read_text(encoding="utf-8"), re.M), \
                    f"{threat}: no test {name} in {current.name}"
