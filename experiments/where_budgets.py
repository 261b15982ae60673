"""What argument tests (``where``) in forbidden budgets cost the forbidden-trace search (Agenra Section 7.1, the
safety delta), against the same budgets without them, all in one process.

The corpus entries whose workloads carry arguments a test can read (payments: ``amount``; deployment:
``replicas``) are searched twice per bound, the memo emptied before each search: with the workload's budgets
as they are, and with each budget on those actions given a test every call of the workload passes (``range``
from 0) — the same budgets in effect, so the answers must be equal (asserted). The searches run as ``revise``
runs them (merged product search, memoized engines), where the tests are compiled per template
(``Workload.passes``: asked once, the effects carry the outcome, and the merge key holds the outcome instead
of the arguments); the unmemoized path, which reads the arguments of every effect, is the uncompiled
reference. ratio = with / without, per path, over all entries (CPU time, median of ``REPEATS`` passes; within
a pass each entry is searched both ways back to back, in alternating order), and the largest per-entry ratio.
"""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from model.base.tables import write_table
from model.revision.corpus import Entry, load_manifest
from model.revision.explore.counterexample import Searched, new_forbidden
from model.revision.explore.memo import SHARED, Memo
from model.revision.explore.prefix import starting_point
from model.revision.explore.workload import Workload, workload_from_json

TESTED = {"payments": {"payment.pay": ["amount"]},
          "deploy": {"deploy.apply": ["replicas"], "deploy.scale": ["replicas"]}}
REPEATS = 5
ROOT = Path(__file__).resolve().parents[1]


def _with_tests(base: str) -> Workload:
    """The base's workload with a test every call passes on each budget of a tested action."""
    manifest = json.loads((ROOT / "corpus" / "revisions" / "manifest.json").read_text())
    doc = json.loads((ROOT / "corpus" / "revisions" / manifest["bases"][base]["workload"]).read_text())
    for b in doc["forbidden"]:
        path = TESTED[base].get(b["action"])
        if path is not None:
            b["where"] = [{"kind": "range", "path": path, "low": 0}]
    return workload_from_json(doc)


def _search(e: Entry, w: Workload, bound: int, memo: Memo | None) -> tuple[float, object]:
    point = None if e.prefix is None else starting_point(e.base.policy, e.new, e.prefix)
    SHARED.clear()
    clock = time.process_time()
    found = new_forbidden(e.base.policy, e.new, w, bound, point, memo=memo)
    spent = time.process_time() - clock
    return spent, None if isinstance(found, Searched) else found.names


def reproduce(out_dir: Path, tick: Callable[[int, int], None]) -> list[Path]:
    entries = [e for e in load_manifest() if e.base.name in TESTED]
    tested = {b: _with_tests(b) for b in TESTED}
    rows: list[list[object]] = []
    plan = [(plus, memo) for plus in (0, 1) for memo in (SHARED, None)]
    for i, (plus, memo) in enumerate(plan):
        tick(i, len(plan))
        totals: dict[bool, list[float]] = {False: [], True: []}
        per: dict[str, dict[bool, list[float]]] = {e.id: {False: [], True: []} for e in entries}
        answers: dict[tuple[str, bool], object] = {}
        for k in range(REPEATS):
            total = {False: 0.0, True: 0.0}
            for e in entries:
                # interleaved per entry, in alternating order: a per-entry ratio of two searches of a few ms
                # each is otherwise mostly the drift between two passes over the whole corpus
                for with_tests in (False, True) if k % 2 == 0 else (True, False):
                    w = tested[e.base.name] if with_tests else e.base.workload
                    spent, answers[e.id, with_tests] = _search(e, w, e.base.bound + plus, memo)
                    per[e.id][with_tests].append(spent)
                    total[with_tests] += spent
            for with_tests in (False, True):
                totals[with_tests].append(total[with_tests])
        for e in entries:
            assert answers[e.id, False] == answers[e.id, True], e.id  # the same budgets in effect
        without, with_ = statistics.median(totals[False]), statistics.median(totals[True])
        worst = max(statistics.median(p[True]) / statistics.median(p[False]) for p in per.values())
        rows.append([f"+{plus}", "compiled (revise's default)" if memo is not None else "uncompiled (unmemoized path)",
                     len(entries), f"{without * 1000:.0f}", f"{with_ * 1000:.0f}", f"{with_ / without:.2f}",
                     f"{worst:.2f}"])
    tick(len(plan), len(plan))
    caption = ("Forbidden budgets with argument tests (where) against the same budgets without them (Agenra §7.1), "
               "CPU ms of the forbidden-trace searches over the payments and deployment corpus entries, median of "
               f"{REPEATS} passes in one process, each entry searched both ways back to back (alternating order), "
               "memo emptied before each search; the tests are ones "
               "every call passes, so the answers are equal (asserted). compiled: the search as revise runs it "
               "(tests asked once per template, their outcome in the merge key); uncompiled: the unmemoized path "
               "(arguments read per effect). ratio = with_ms / without_ms; worst_entry: the largest per-entry "
               "ratio. Regenerate: agentwarrant reproduce where-budgets.")
    return write_table(out_dir, "where_budgets", ["bound", "path", "revisions", "without_ms", "with_ms", "ratio",
                                                  "worst_entry"], rows, caption)
