"""The research notebooks of experiments/notebooks/: five of them, committed without
outputs, and each runs top to bottom in a fresh kernel from the checkout.

Tiers: executing all five takes about 30 s on a quiet machine (the revision corpus alone about 10 s),
so the default tier runs one quick smoke notebook (admission, a few seconds) and the slow tier
(``make test-all``) runs the other four. nbclient, nbformat and ipykernel come from the ``notebooks``
extra, which the Makefile installs with ``dev``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
NOTEBOOKS = ROOT / "experiments" / "notebooks"
EXPECTED = ("01_report_task", "02_edit_checking", "03_revision_checking", "04_admission", "05_differential_testing")
SMOKE = "04_admission"


def carried_outputs(doc: dict[str, object]) -> list[int]:
    """Indexes of code cells that carry outputs or an execution count."""
    cells = doc.get("cells")
    assert isinstance(cells, list)
    return [i for i, c in enumerate(cells)
            if c.get("cell_type") == "code" and (c.get("outputs") or c.get("execution_count") is not None)]


def test_the_five_notebooks_are_there() -> None:
    assert tuple(sorted(p.stem for p in NOTEBOOKS.glob("*.ipynb"))) == EXPECTED


@pytest.mark.parametrize("name", EXPECTED)
def test_notebook_is_committed_without_outputs(name: str) -> None:
    doc = json.loads((NOTEBOOKS / f"{name}.ipynb").read_text(encoding="utf-8"))
    assert carried_outputs(doc) == [], f"{name}: clear the outputs before committing (cells {carried_outputs(doc)})"


def test_the_output_check_sees_outputs() -> None:
    doc = {"cells": [{"cell_type": "markdown", "source": "x"},
                     {"cell_type": "code", "source": "1", "outputs": [], "execution_count": None},
                     {"cell_type": "code", "source": "2", "outputs": [{"output_type": "stream"}],
                      "execution_count": 3}]}
    assert carried_outputs(doc) == [2]


def _execute(name: str) -> None:
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4)
    # the notebook changes to the checkout itself; the kernel starts there too, and writes nothing back
    NotebookClient(nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(ROOT)}}).execute()
    errors = [o for c in nb.cells for o in c.get("outputs", []) if o.get("output_type") == "error"]
    assert errors == []


def test_smoke_notebook_runs() -> None:
    _execute(SMOKE)


@pytest.mark.slow
@pytest.mark.parametrize("name", [n for n in EXPECTED if n != SMOKE])
def test_notebook_runs(name: str) -> None:
    _execute(name)
