"""The manifest of expected search outcomes (``corpus/search/manifest.json``, schema
``corpus/schemas/search_manifest.schema.json``): per (policy, model, query, bound) the expected verdict,
the shortest length when found, and the explicit engine's state count for that (policy, model, bound).

It is a regression record: ``check`` re-runs the explicit engine once per (policy, model, bound) and
lists every row whose verdict, length or state count differs. Rows carry a ``tier``: ``small`` rows are
re-checked exactly by the default test tier, ``large`` ones under ``slow``, ``huge`` ones (a million
states and more: minutes of CPU each) by the scaling experiment (``experiments/search_scale.py``, run
by ``make bench``), which runs both visited sets on them. Paths in the manifest are
relative to the manifest file. A state count changes whenever the model, the policy, the canonical form
or the monitor changes what is reachable, so a mismatch says "look", not necessarily "wrong". The counts are
those of the unreduced search (``explore(..., reduction=False)``, equal to the unoptimized engine state for
state); the sleep-set reduction explores fewer transitions and may merge a few more states.

A row without ``policy`` is a generic system model's (``model/search/system``; the model file names its
``kind`` and carries its own policy): it is re-checked with the generic engine's exact visited set.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from model.base.canonical import load_file
from model.base.schemas import validate
from model.search.explicit import ExplicitRun, explore
from model.search.load import load_model
from model.search.search_verdict import Found, verdict_name
from model.search.system.bfs import Reached, SystemRun, search
from model.search.system.bfs import verdict_name as system_verdict_name


@dataclass(frozen=True, slots=True)
class Row:
    model: str
    policy: str
    query: str
    bound: int
    verdict: str
    length: int | None
    states: int
    tier: str


@dataclass(frozen=True, slots=True)
class Mismatch:
    row: Row
    got_verdict: str
    got_length: int | None
    got_states: int

    def __str__(self) -> str:
        r = self.row
        return (f"{r.model} under {r.policy}, query {r.query}, bound {r.bound}: expected {r.verdict}"
                f" (length {r.length}, {r.states} states), got {self.got_verdict} (length {self.got_length},"
                f" {self.got_states} states)")


def load_manifest(path: str | Path) -> tuple[Row, ...]:
    doc = load_file(str(path))
    validate(doc, "search_manifest.schema.json", source=str(path))
    assert isinstance(doc, dict)
    return tuple(Row(r["model"], r.get("policy", ""), r["query"], r["bound"], r["verdict"], r.get("length"),
                     r["states"], r.get("tier", "small")) for r in doc["rows"])


def run_group(base: Path, model: str, policy: str, bound: int) -> ExplicitRun:
    # the counts recorded are the unreduced search's
    return explore(load_model(base / model, str(base / policy)), bound, reduction=False)


def check(path: str | Path, tier: str | None = None,
          runner: Callable[[Path, str, str, int], ExplicitRun] = run_group) -> tuple[Mismatch, ...]:
    """Every mismatching row of the manifest (only rows of ``tier`` when given)."""
    base = Path(path).parent
    rows = [r for r in load_manifest(path) if tier is None or r.tier == tier]
    runs: dict[tuple[str, str, int], ExplicitRun] = {}
    out: list[Mismatch] = []
    systems: dict[tuple[str, int], SystemRun] = {}
    for r in rows:
        if not r.policy:  # a generic system model (model/search/system), which carries its own policy
            if (r.model, r.bound) not in systems:
                systems[(r.model, r.bound)] = run_system(base / r.model, r.bound)
            srun = systems[(r.model, r.bound)]
            sv = srun.verdict(r.query)
            got = (system_verdict_name(sv), sv.length if isinstance(sv, Reached) else None, srun.states)
        else:
            key = (r.model, r.policy, r.bound)
            if key not in runs:
                runs[key] = runner(base, *key)
            run = runs[key]
            v = run.verdict(r.query)
            got = (verdict_name(v), v.length if isinstance(v, Found) else None, run.states)
        if got != (r.verdict, r.length, r.states):
            out.append(Mismatch(r, *got))
    return tuple(out)


def run_system(path: Path, bound: int, mode: str = "exact") -> SystemRun:
    """The generic engine on a system model file (today the ``admission-hold`` kind)."""
    from model.search.system.admission import AdmissionSystem, load

    return search(AdmissionSystem(load(path)), bound, mode)


def rows_for(model: str, policy: str, bound: int, tier: str, run: ExplicitRun) -> list[dict[str, object]]:
    """Manifest rows recording what ``run`` found (used to write the manifest, then reviewed by hand)."""
    out: list[dict[str, object]] = []
    for name, v in run.verdicts:
        row: dict[str, object] = {"model": model, "policy": policy, "query": name, "bound": bound,
                                  "verdict": verdict_name(v), "states": run.states, "tier": tier}
        if isinstance(v, Found):
            row["length"] = v.length
        out.append(row)
    return out
