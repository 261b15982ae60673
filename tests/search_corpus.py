"""The corpus's search models by engine: the explicit engine's (monitor models) and the generic engine's
(system models, ``model/search/system``, each with its own loader and tests)."""

from __future__ import annotations

import json
from pathlib import Path

SEARCH = Path(__file__).resolve().parents[1] / "corpus" / "search"


def explicit_models() -> list[str]:
    """File names of the models the explicit engine (and so the partitioned search) loads."""
    from model.search.system import admission

    return sorted(p.name for p in SEARCH.glob("*.json") if p.name != "manifest.json"
                  and not admission.is_system_file(json.loads(p.read_text(encoding="utf-8"))))


def system_models() -> list[str]:
    """File names of the generic engine's system models (``model/search/system``)."""
    from model.search.system import admission

    return sorted(p.name for p in SEARCH.glob("*.json") if p.name != "manifest.json"
                  and admission.is_system_file(json.loads(p.read_text(encoding="utf-8"))))
