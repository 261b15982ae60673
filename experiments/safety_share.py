"""The always-on safety search's share of a ``revise`` (Agenra Section 7.1: the safety delta is reported
beside client preservation, always), before and after the forbidden-trace search stopped deciding last
calls whose effects break no budget and stopped keeping, in its merge key, records no call can name
(model/revision/explore/counterexample.py, ``prune``).

On the wide revision of model/revision/wide.py (``n`` single-file grants, one appended; preservation
is proved by a structural certificate in a few Z3 questions) at bounds 3 and 4, all in one process, the
memo emptied before every run (what one ``agentwarrant revise`` costs): CPU time of ``revise`` without
the safety search (the same workload with no forbidden budget), of ``revise`` deciding every last call
(``prune=False``, before) and of ``revise`` as it runs by default (after); the median of ``REPEATS``
runs. share = 1 − without / with: the part of a ``revise`` the safety search takes. The script asserts
that both give the same judgment (verdicts, certificates, counterexamples).
"""

from __future__ import annotations

import functools
import statistics
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from model.base.tables import write_table
from model.revision.effects import EVERY_EFFECT
from model.revision.explore.memo import SHARED
from model.revision.report import RevisionReport
from model.revision.revise import revise
from model.revision.wide import wide_revision

CASES = ((10, 3), (30, 3), (10, 4), (30, 4))
REPEATS = 3


def _ms(run: Callable[[], RevisionReport]) -> tuple[float, RevisionReport]:
    times, report = [], None
    for _ in range(REPEATS):
        SHARED.clear()
        clock = time.process_time()
        report = run()
        times.append((time.process_time() - clock) * 1000)
    assert report is not None
    return statistics.median(times), report


def reproduce(out_dir: Path, tick: Callable[[int, int], None]) -> list[Path]:
    rows: list[list[object]] = []
    for i, (n, bound) in enumerate(CASES):
        tick(i, len(CASES))
        old, new, workload = wide_revision(n)
        quiet = replace(workload, forbidden=())
        without, _ = _ms(functools.partial(revise, old, new, EVERY_EFFECT, quiet, bound))
        before, slow = _ms(functools.partial(revise, old, new, EVERY_EFFECT, workload, bound, prune=False))
        after, fast = _ms(functools.partial(revise, old, new, EVERY_EFFECT, workload, bound))
        assert fast.judgment() == slow.judgment(), (n, bound)
        rows.append([n, bound, f"{without:.0f}", f"{before:.0f}", f"{after:.0f}", f"{1 - without / before:.1%}",
                     f"{1 - without / after:.1%}", f"{before / after:.1f}"])
    tick(len(CASES), len(CASES))
    caption = ("The safety search's share of a revise (Agenra §7.1), on the wide revision of "
               "model/revision/wide.py (grants: single-file delete grants of quota one, one appended; the "
               "structural certificate proves preservation), CPU ms, median of "
               f"{REPEATS} runs in one process, memo emptied before each. without_ms: revise with no forbidden "
               "budget (no safety search); before_ms: revise with prune=False (every last call of the "
               "forbidden-trace search decided, the latest records in its merge key); after_ms: revise as it "
               "runs (a last call whose effects break no budget is not decided; without $from arguments the "
               "merge key leaves records out). share = 1 − without_ms / with; speedup = before_ms / after_ms. "
               "Both give the same judgment (asserted). Regenerate: agentwarrant reproduce safety-share.")
    return write_table(out_dir, "safety_share", ["grants", "bound", "without_ms", "before_ms", "after_ms",
                                                  "share_before", "share_after", "speedup"], rows, caption)
