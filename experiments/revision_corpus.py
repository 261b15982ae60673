"""The revision corpus (Agenra Sections 7.1 and 11): every revision of corpus/revisions/manifest.json
is judged by ``model.revision.revise`` — structural certificate (checked), simulation relation per
permission list (closure checked), joint simulation over both lists (checked by ``check_joint``),
bounded lost-client search — and, separately, the safety delta.

Writes paper_figures/tables/revision_corpus.{csv,md} — per kind and in total: revisions, preserving
ones and how many are certified (goal: all) and by which engine (``by``: structural, simulation,
joint), regressions and how many are certified (must be none)
or get a counterexample confirmed by replay through the Adapter (goal: all), how many safety
verdicts match the manifest, and the time per revision — and revision_corpus_entries.{csv,md} with
one row per revision. Every number is computed here; the manifest supplies only expectations.
Entries with a prefix (manifest field ``after``) are judged mid-task: their ``start`` column says
"after k calls" (else "task start"), and the summary gains one row per kind-and-start for them plus
a "total after a prefix" row.

Speed, in the same run: every revision is judged three ways — the unmemoized path
(``merge=False, fast=False``: sequence enumeration, a fresh Z3 solver per question, nothing memoized), the
merged product search with those engines (``fast=False``), and revise's default (merged search, memoized
engines: model/revision/explore/memo.py, leaves.py, samples.py, synth.py, refute.py) — which must give the same judgment
(``RevisionReport.judgment``: verdicts, certificates, counterexamples; checked here), and the default once
more with a memo of its own, empty (a cold check), right after them for the same revision (interleaved).
``revision_speed.{csv,md}`` reports the CPU time of each
and the searches alone, at the corpus bound and at the bound raised by one and two calls (where the number
of sequences grows exponentially and merged states do not).

Sharded: ``agentwarrant reproduce revision-corpus --workers N`` (or ``--scheduler``) judges
one entry per task on a Dask cluster (``model/dist/shard.py``; the reports are the in-process ones). Then
the with/without-merging comparison and ``revision_speed`` are not made: they measure one process's CPU.
"""

from __future__ import annotations

import sys
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from model.base.tables import write_table
from model.revision.corpus import Entry, load_manifest
from model.revision.explore.counterexample import lost_client, new_forbidden
from model.revision.explore.memo import SHARED, Memo
from model.revision.explore.prefix import starting_point
from model.revision.report import RevisionReport
from model.revision.revise import revise
from model.shell.api import revision_corpus
from model.shell.frames import CORPUS_HEADER, corpus_rows


def reproduce(out_dir: Path, tick: Callable[[int, int], None], client: Any = None) -> list[Path]:
    """``client``: a Dask client; the entries are judged on its cluster (module docstring)."""
    # the same rows a notebook gets from model.to_frame(model.revision_corpus())
    rows = corpus_rows(revision_corpus(tick=tick, client=client))
    groups: dict[str, list[dict[str, object]]] = defaultdict(list)
    for row in rows:
        key = str(row["kind"]) if row["start"] == "task start" else f"{row['kind']} (mid-task)"
        groups[key].append(row)
    mid = [row for row in rows if row["start"] != "task start"]
    header = ["kind", "revisions", "preserving", "preserving_certified", "certified_by_joint", "regressions",
              "regressions_certified",
              "regressions_confirmed_counterexample", "safety_as_expected", "newly_forbidden_confirmed",
              "mean_ms", "max_ms"]
    body = [_summary(kind, groups[kind]) for kind in sorted(groups)] + [_summary("total", rows)]
    if mid:
        body.append(_summary("total after a prefix", mid))
    paths = write_table(out_dir, "revision_corpus", header, body,
                        "Revision corpus (Agenra §§7.1, 11): certificates for preserving revisions, confirmed "
                        "lost clients for regressions, the safety delta separately; time per revision in ms. "
                        "Rows marked (mid-task) are revisions installed after a prefix run under the old "
                        "policy, counters carried.")
    detail_header = list(CORPUS_HEADER)
    detail = [[row[h] if h != "ms" else f"{float(str(row['ms'])):.1f}" for h in detail_header] for row in rows]
    paths += write_table(out_dir, "revision_corpus_entries", detail_header, detail,
                         "Every revision of corpus/revisions/manifest.json with its verdicts; start: task start "
                         "or after k calls of its prefix.")
    if client is None:  # the speed comparison measures one process
        paths += _speed(out_dir, load_manifest())
    return [*paths, _figure(groups, out_dir)]


_PATHS = (("baseline", False, False), ("merged", True, False), ("fast", True, True))  # (name, merge, fast)


def _speed(out_dir: Path, entries: tuple[Entry, ...]) -> list[Path]:
    """Revision CPU time three ways in one process — the unmemoized path, the merged search with the
    unmemoized engines, and the merged search with the memoized engines — whose judgments must agree
    (``RevisionReport.judgment``: verdicts, certificates, counterexamples), then the fast path again with
    the memo emptied before every revision (what one ``agentwarrant revise`` costs), and the two bounded
    searches alone at growing bounds."""
    cpu_ms = {name: 0.0 for name, _, _ in _PATHS}
    SHARED.clear()  # the corpus run above filled it: measure from empty
    cold = 0.0
    for e in entries:
        reports: dict[str, RevisionReport] = {}
        for name, merge, fast in _PATHS:
            clock = time.process_time()
            reports[name] = revise(e.base.policy, e.new, e.effects, e.base.workload, e.base.bound, e.prefix,
                                   merge=merge, fast=fast)
            cpu_ms[name] += (time.process_time() - clock) * 1000
        # interleaved with the others: the default with a memo of its own, empty (a cold check)
        fresh = Memo()
        clock = time.process_time()
        reports["cold"] = revise(e.base.policy, e.new, e.effects, e.base.workload, e.base.bound, e.prefix,
                                 memo=fresh)
        cold += (time.process_time() - clock) * 1000
        fresh.clear()  # (drops its Z3 terms inside a Z3 section, as SHARED.clear does)
        want = reports["baseline"].judgment()
        for name, r in reports.items():
            assert r.judgment() == want, f"{e.id}: the {name} path changed the judgment"
    questions, sampled, made, ruled = SHARED.queries, SHARED.sampled, SHARED.synthesized, SHARED.ruled
    base, merged = cpu_ms["baseline"], cpu_ms["merged"]
    body: list[list[object]] = [
        ["revise, memo kept across the corpus", len(entries), f"{base:.0f}", f"{merged:.0f}", f"{cpu_ms['fast']:.0f}",
         f"{base / cpu_ms['fast']:.1f}"],
        ["revise, memo emptied before each revision (interleaved)", len(entries), f"{base:.0f}", f"{merged:.0f}",
         f"{cold:.0f}", f"{base / cold:.1f}"]]
    for extra in (0, 1, 2):
        totals = {True: 0.0, False: 0.0}
        for e in entries:
            point = None if e.prefix is None else starting_point(e.base.policy, e.new, e.prefix)
            for merge in (False, True):
                clock = time.process_time()
                for search in (lost_client, new_forbidden):
                    search(e.base.policy, e.new, e.base.workload, e.base.bound + extra, point, merge=merge)
                totals[merge] += (time.process_time() - clock) * 1000
        body.append([f"searches only, bound +{extra}", len(entries), f"{totals[False]:.0f}", f"{totals[True]:.0f}",
                     "", f"{totals[False] / totals[True]:.1f}"])
    header = ["what", "revisions", "baseline_ms", "merged_ms", "fast_ms", "speedup"]
    return write_table(out_dir, "revision_speed", header, body,
                       "Revision checks over the corpus in one process, CPU ms. baseline_ms: the unmemoized path "
                       "(sequence enumeration for the lost-client and forbidden-trace searches; a fresh Z3 solver per "
                       "question in the structural, simulation and joint engines; nothing memoized); merged_ms: the "
                       "merged product search with those same engines; fast_ms: the merged search with the memoized "
                       "engines (revise's default: answers kept by semantic key, Z3 models kept as samples), its "
                       "memo kept across the corpus or a fresh one for each revision (cold, run right after the others "
                       "for the same revision). All three give the same "
                       "verdicts, certificates (checked by the independent checker) and counterexamples, checked "
                       f"here. Fast path: {questions} Z3 enumeration questions asked, {sampled} answered by kept "
                       f"samples, {ruled} refuted by syntactic rules (model/revision/smt/refute.py); {made} questions "
                       "answered by samples made for them without Z3 (model/revision/smt/synth.py). "
                       "Searches-only rows: sequence enumeration (baseline_ms) against the merged search "
                       "(merged_ms) at the corpus bound and one and two calls beyond it; speedup = baseline_ms / "
                       "fast_ms (revise rows) or baseline_ms / merged_ms (search rows).")


def _figure(groups: dict[str, list[dict[str, object]]], out_dir: Path) -> Path:
    """Per kind, the revisions the checker certified (left of zero: regressions it caught with a confirmed
    lost client; right: preserving revisions it certified), and the time per revision."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    kinds = sorted(groups)
    fig, (ax, ax_t) = plt.subplots(1, 2, figsize=(11, 0.9 + 0.32 * len(kinds)), sharey=True,
                                   gridspec_kw={"width_ratios": [2, 1]})
    y = range(len(kinds))

    def tally(kind: str, expected: str, good: Callable[[dict[str, object]], bool]) -> tuple[int, int]:
        rs = [r for r in groups[kind] if r["expected"] == expected]
        ok = sum(1 for r in rs if good(r))
        return ok, len(rs) - ok

    regr = [tally(k, "not_preserved", lambda r: r["verdict"] == "not_preserved" and bool(r["lost_confirmed"]))
            for k in kinds]
    pres = [tally(k, "certified", lambda r: r["verdict"] == "certified") for k in kinds]
    joint = [tally(k, "certified", lambda r: r["by"] == "joint")[0] for k in kinds]
    caught, missed = [c for c, _ in regr], [m for _, m in regr]
    cert, uncert = [c - j for (c, _), j in zip(pres, joint, strict=True)], [m for _, m in pres]
    ax.barh(y, [-c for c in caught], color="#e8837a", label="regression: confirmed lost client")
    ax.barh(y, [-m for m in missed], left=[-c for c in caught], color="#555555", label="regression: not caught")
    ax.barh(y, cert, color="#8fb8e6", label="preserving: certified (structural or per-list simulation)")
    ax.barh(y, joint, left=cert, color="#3f7fbf", label="preserving: certified (joint simulation)")
    ax.barh(y, uncert, left=[c + j for c, j in zip(cert, joint, strict=True)], color="#d9d9a0",
            label="preserving: not certified")
    ax.axvline(0, color="black", linewidth=0.8)
    ax.xaxis.set_major_formatter(lambda v, _pos: f"{abs(v):g}")
    ax.set_yticks(list(y), kinds, fontsize=7)
    ax.set_xlabel("revisions (regressions to the left, preserving to the right)")
    ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.07), ncol=2)  # below: bars fill the axes
    for i, k in enumerate(kinds):
        ms = [float(str(r["ms"])) for r in groups[k]]
        ax_t.scatter(ms, [i] * len(ms), s=10, color="#333333")
    ax_t.set_xscale("log")
    ax_t.set_xlabel("ms per revision (log)")
    ax_t.grid(True, axis="x", which="both", alpha=0.3)
    fig.suptitle("Revision corpus: client preservation per kind of revision", fontsize=9)
    fig.tight_layout()
    path = out_dir / "revision_corpus.png"
    fig.savefig(path, dpi=120, bbox_inches="tight")
    plt.close(fig)
    return path


def _summary(kind: str, rows: list[dict[str, object]]) -> list[object]:
    pres = [r for r in rows if r["expected"] == "certified"]
    regr = [r for r in rows if r["expected"] == "not_preserved"]
    times = [float(str(r["ms"])) for r in rows]
    return [kind, len(rows), len(pres), sum(r["verdict"] == "certified" for r in pres),
            sum(r["by"] == "joint" for r in rows), len(regr),
            sum(r["verdict"] == "certified" for r in regr),
            sum(r["verdict"] == "not_preserved" and bool(r["lost_confirmed"]) for r in regr),
            sum(r["safety"] == r["expected_safety"] for r in rows),
            sum(bool(r["forbidden_confirmed"]) for r in rows),
            f"{sum(times) / len(times):.1f}", f"{max(times):.1f}"]


if __name__ == "__main__":
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent / "paper_figures"
    for path in reproduce(out, lambda done, total: None):
        print(f"wrote {path}")
