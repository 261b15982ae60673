"""The generic bounded search (``model/search/system``) on the admission model at scale:
``paper_figures/tables/system_scale.{csv,md}`` — per system-model row group of tier ``huge`` in
``corpus/search/manifest.json`` (rows without a policy), the search with the exact visited set and with
64-bit fingerprints, each in a fresh spawned process: states, transitions, wall and CPU seconds, peak
memory above the loaded model and per state, the collision probability, whether both modes agree
(states, transitions, depth, verdicts with shortest traces) and whether the manifest's rows hold.

Method: as ``search_scale.py`` (peak resident size, ``ru_maxrss``, minus the size after loading the model
and importing the engine; one run each, they take minutes). The load average is recorded: the machine's
two cores are shared, and above 2 the wall clock measures contention.

Registered as ``system-scale``, not part of ``reproduce all``; run ``agentwarrant reproduce system-scale``.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from model.base.paths import repo_root
from model.base.tables import write_table
from model.search.manifest import load_manifest
from model.search.system.bfs import Reached, SystemRun, verdict_name
from model.search.system.system_peak import fresh


def _same(a: SystemRun, b: SystemRun) -> bool:
    return (a.states, a.transitions, a.depth, a.verdicts) == (b.states, b.transitions, b.depth, b.verdicts)


def reproduce(out_dir: Path, tick: Callable[[int, int], None]) -> list[Path]:
    manifest = repo_root() / "corpus" / "search" / "manifest.json"
    rows = [r for r in load_manifest(manifest) if not r.policy and r.tier == "huge"]
    groups = sorted({(r.model, r.bound) for r in rows})
    out: list[list[object]] = []
    paths: list[Path] = []
    for i, (name, k) in enumerate(groups):
        path = str(manifest.parent / name)
        exact, peak = fresh(path, k, "exact")
        tick(2 * i + 1, 2 * len(groups))
        fp, fp_peak = fresh(path, k, "fingerprint")
        tick(2 * i + 2, 2 * len(groups))
        held = all((verdict_name(exact.verdict(r.query)),
                    v.length if isinstance(v := exact.verdict(r.query), Reached) else None, exact.states)
                   == (r.verdict, r.length, r.states) for r in rows if (r.model, r.bound) == (name, k))
        out.append([name, k, exact.states, exact.transitions, f"{exact.seconds:.1f}", f"{exact.cpu_seconds:.1f}",
                    f"{peak / 2**20:.0f}", f"{peak / exact.states:.0f}", f"{fp.seconds:.1f}",
                    f"{fp.cpu_seconds:.1f}", f"{fp_peak / 2**20:.0f}", f"{fp_peak / fp.states:.0f}",
                    f"{fp.collision:.1e}", _same(exact, fp), held, f"{os.getloadavg()[0]:.1f}"])
        paths = write_table(
            out_dir, "system_scale",
            ["model", "bound", "states", "transitions", "exact_s", "exact_cpu_s", "exact_peak_mib",
             "exact_bytes_per_state", "fingerprint_s", "fingerprint_cpu_s", "fingerprint_peak_mib",
             "fingerprint_bytes_per_state", "collision_probability", "same", "manifest", "load"], out,
            "The generic search (model/search/system) on the admission model's huge rows "
            "(`agentwarrant reproduce system-scale`), exact visited set against 64-bit fingerprints, each in a "
            "fresh process; *_s wall and *_cpu_s CPU seconds; peak: peak resident size (ru_maxrss) above the "
            "size after loading the model, and per visited state; same: states, transitions, depth and "
            "verdicts with shortest traces equal in both modes; manifest: the exact run matches its rows; "
            "load: the 1-minute load average after the row (2 shared cores).")
    return paths
