"""The reductions of the bounded search measured: ``paper_figures/tables/search_reductions.{csv,md}`` — per
run, the states, transitions and CPU seconds of the search without and with the reduction, and whether
the answers agree.

- **partial-order reduction** (``model/search/por.py``: sleep sets) on monitor models of the corpus: the
  explicit engine with ``reduction=False`` (the manifest's counts) and ``reduction=True`` (the default).
  ``same``: every query's verdict kind and shortest length, and every goal's useful completions, equal.
  Sleep sets prune transitions, not states, except where the canonical form keeps two renamings of one
  state apart (``explicit.py``), so ``states`` may drop a little too.
- **symmetry reduction** (``model/search/system/symmetry.py``) on the admission models, whose requesters
  are interchangeable: the generic search keyed by state and keyed by orbit. ``same``: every verdict kind
  and shortest length equal, every reduced witness replays on the unreduced model and hits its query,
  and the reduced run's states equal the number of orbits of the unreduced run's visited states.
- **value symmetry** (``model/search/value_symmetry.py``) on the monitor model with two interchangeable
  attackers (``corpus/search/symmetric/report_two_attackers.json``): the exact engine without sleep sets
  keyed by state and keyed by orbit. ``same`` as for the admission models, the witnesses replayed through
  the Adapter on the reference tools (``trace_replay.py``) and the completions checked to be among the
  unreduced run's.

Method: both runs of a row in this process, one after the other, each on a fresh model object (no memo
of decisions or of the admission services' steps is shared between them); CPU seconds are the process's
(``time.process_time``) over the run. One run each; ``load`` is the 1-minute load average after the
row (the machine is shared: CPU seconds are what to compare).

Registered as ``search-reductions``; run ``agentwarrant reproduce search-reductions``.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from model.base.paths import repo_root
from model.base.tables import write_table
from model.search.explicit import ExplicitRun, explore
from model.search.load import load_model
from model.search.search_verdict import Found
from model.search.system.admission import AdmissionSystem, load
from model.search.system.bfs import Reached, SystemRun, search, store_of
from model.search.system.symmetry import reduced, replays
from model.search.value_symmetry import ValueSymmetry, explore_symmetric

# (model under corpus/search, policy relative to it or None for the model's own, bound)
POR_RUNS: tuple[tuple[str, str | None, int], ...] = (
    ("report.json", None, 5), ("report.json", "../policies/report_no_origin.policy", 5),
    ("report_permit.json", None, 5), ("payments_invoices.json", None, 6), ("deploy.json", None, 3),
    ("agentdojo_banking.json", None, 2))
SYM_RUNS: tuple[tuple[str, int], ...] = (("admission_hold.json", 8), ("admission_hold_r4.json", 8),
                                         ("admission_hold_r5.json", 7))
#: (model under corpus/search, its interchangeable values, bound)
VALUE_RUNS: tuple[tuple[str, tuple[tuple[str, ...], ...], int], ...] = (
    ("symmetric/report_two_attackers.json", (("mallory@evil.example", "eve@evil.example"),), 6),)


def _shape(run: ExplicitRun) -> tuple[object, ...]:
    return (tuple((n, type(v).__name__, v.length if isinstance(v, Found) else None) for n, v in run.verdicts),
            run.completions)


def _por(name: str, policy: str | None, k: int) -> list[object]:
    search = repo_root() / "corpus" / "search"
    pol = None if policy is None else str(search / policy)
    full = explore(load_model(search / name, pol), k, reduction=False)
    red = explore(load_model(search / name, pol), k, reduction=True)
    same = full.unknown is None and red.unknown is None and _shape(full) == _shape(red)
    return ["partial-order", name, policy or "(model's)", k, full.states, red.states, full.transitions,
            red.transitions, f"{red.transitions / full.transitions:.2f}", f"{full.cpu_seconds:.1f}",
            f"{red.cpu_seconds:.1f}", same, f"{os.getloadavg()[0]:.1f}"]


def _lengths(run: SystemRun) -> tuple[tuple[str, str, int | None], ...]:
    return tuple((n, type(v).__name__, v.length if isinstance(v, Reached) else None) for n, v in run.verdicts)


def _symmetry(name: str, k: int) -> list[object]:
    model = load(repo_root() / "corpus" / "search" / name)
    plain = AdmissionSystem(model)
    store = store_of(plain)
    full = search(plain, k, store=store)
    red = search(reduced(AdmissionSystem(model)), k)
    orbits = len({plain.orbit_key(s) for s in store.keys()})  # type: ignore[arg-type]
    witnesses = all(replays(AdmissionSystem(model), v.trace, i)
                    for i, (_, v) in enumerate(red.verdicts) if isinstance(v, Reached))
    same = full.unknown is None and red.unknown is None and _lengths(full) == _lengths(red) \
        and red.states == orbits and witnesses
    return ["symmetry", name, "-", k, full.states, red.states, full.transitions, red.transitions,
            f"{red.transitions / full.transitions:.2f}", f"{full.cpu_seconds:.1f}", f"{red.cpu_seconds:.1f}", same,
            f"{os.getloadavg()[0]:.1f}"]


def _value_symmetry(name: str, classes: tuple[tuple[str, ...], ...], k: int) -> list[object]:
    from model.search.compact import empty
    from model.search.expand import Context
    from model.search.explicit import ExactStore
    from model.search.layered import layered
    from model.search.trace_replay import Reproduced, replay

    path = repo_root() / "corpus" / "search" / name
    model = load_model(path)
    ctx = Context(model, renaming=True)
    store = ExactStore(empty(model.policy), ctx.independence)
    full = layered(ctx, store, k, reduction=False)
    red_model = load_model(path)
    red = explore_symmetric(red_model, classes, k)
    orbits = len({ValueSymmetry(model, classes).orbit_key(s) for s in store.parent})
    witnesses = all(isinstance(replay(red_model, v.trace, q), Reproduced)
                    for q, (_, v) in zip(red_model.queries, red.verdicts, strict=True) if isinstance(v, Found))
    subset = all(set(c) <= set(a) for (_, c), (_, a) in zip(red.completions, full.completions, strict=True))
    same = full.unknown is None and red.unknown is None and _shape(full)[0] == _shape(red)[0] \
        and red.states == orbits and witnesses and subset
    return ["value symmetry", name, "(model's)", k, full.states, red.states, full.transitions, red.transitions,
            f"{red.transitions / full.transitions:.2f}", f"{full.cpu_seconds:.1f}", f"{red.cpu_seconds:.1f}", same,
            f"{os.getloadavg()[0]:.1f}"]


def reproduce(out_dir: Path, tick: Callable[[int, int], None]) -> list[Path]:
    total = len(POR_RUNS) + len(SYM_RUNS) + len(VALUE_RUNS)
    rows: list[list[object]] = []
    for i, (name, policy, k) in enumerate(POR_RUNS):
        rows.append(_por(name, policy, k))
        tick(i + 1, total)
    for j, (name, k) in enumerate(SYM_RUNS):
        rows.append(_symmetry(name, k))
        tick(len(POR_RUNS) + j + 1, total)
    for j, (name, classes, k) in enumerate(VALUE_RUNS):
        rows.append(_value_symmetry(name, classes, k))
        tick(len(POR_RUNS) + len(SYM_RUNS) + j + 1, total)
    return write_table(
        out_dir, "search_reductions",
        ["reduction", "model", "policy", "bound", "states", "states_reduced", "transitions", "transitions_reduced",
         "transition_ratio", "cpu_s", "cpu_s_reduced", "same", "load"], rows,
        "The reductions of the bounded search (`agentwarrant reproduce search-reductions`): partial-order "
        "reduction (sleep sets) on monitor models, symmetry reduction over interchangeable requesters on the "
        "admission models and over interchangeable values (two attackers) on a monitor model; each row the "
        "search without and with the reduction, in one process, CPU seconds. "
        "transition_ratio: transitions explored with the reduction over without. same: verdicts and shortest "
        "lengths equal (partial-order: and useful completions; symmetry: every reduced witness replays on the "
        "unreduced model, and states_reduced is the number of orbits of the unreduced run's states; value "
        "symmetry: also the reduced completions among the unreduced ones). load: the "
        "1-minute load average after the row.")
