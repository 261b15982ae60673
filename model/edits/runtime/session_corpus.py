"""Writing the paper's runtime scenarios (*When Can Agents Safely Checkpoint, Fork, Restore, and Merge?
Exact Checking for Execution Edits*, Sections II and III, Figure 1, Appendix A-G and the record pairs
of Table II) as session scripts into ``corpus/edits/sessions/``: ``python -m
model.edits.runtime.session_corpus [DIR]``. The scripts themselves are built by ``scenarios.py`` and
``pairs.py``; a test checks that the committed corpus equals what this writes."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from model.edits.runtime.pairs import pair_scripts
from model.edits.runtime.scenarios import SESSIONS, laptop, preload


def write_corpus(out: Path = SESSIONS) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, script in {**{"laptop": laptop(), "preload": preload()}, **pair_scripts()}.items():
        path = out / f"{name}.json"
        path.write_text(json.dumps(script, indent=1, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8")
        written.append(path)
    return written


if __name__ == "__main__":  # pragma: no cover - the corpus generator
    for p in write_corpus(Path(sys.argv[1]) if len(sys.argv) > 1 else SESSIONS):
        print(p)
