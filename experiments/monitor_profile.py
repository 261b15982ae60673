"""Where a mediated call's time goes: stack samples of the report workflow that
``monitor_overhead.py`` measures as ``mediated``, as shares of all samples per function (inclusive: a
function counts when it is anywhere on the stack, once per sample).

A thread samples the main thread's stack every ``INTERVAL`` seconds (``sys._current_frames``) with a short
switch interval so the GIL changes hands often. Unlike ``cProfile`` this adds no cost per Python call, so
the many small functions of a mediated call keep their real proportions; the shares are estimates (a
sample lands where the interpreter checks for a thread switch). Also ``__init__`` frames are counted
together, across stages (the objects the call builds). Not run by tests or ``make bench``:
``.venv/bin/python experiments/monitor_profile.py [SECONDS] [PADDING_GRANTS] [reference]``; with
``reference`` it samples ``Adapter(reference=True)``, the frozen-state path the session replaced.
"""

from __future__ import annotations

import sys
import threading
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import monitor_overhead as mo

INTERVAL = 0.0002


def profile(seconds: float, padding: int = 0, reference: bool = False) -> tuple[int, Counter[str]]:
    policy = mo._unlimited_report()
    if padding:
        policy = mo.padded(policy, padding)
    run = mo.make_mediated(policy, reference=reference)
    run()
    main = threading.main_thread().ident
    assert main is not None
    inclusive: Counter[str] = Counter()
    samples = 0
    stop = threading.Event()

    def sampler() -> None:
        nonlocal samples
        while not stop.is_set():
            time.sleep(INTERVAL)
            frame = sys._current_frames().get(main)
            seen: set[str] = set()
            while frame is not None:
                code = frame.f_code
                key = "__init__ (any class)" if code.co_name == "__init__" else \
                    f"{Path(code.co_filename).name}:{code.co_qualname}"
                if key not in seen:
                    seen.add(key)
                    inclusive[key] += 1
                frame = frame.f_back
            samples += 1

    saved = sys.getswitchinterval()
    sys.setswitchinterval(INTERVAL / 2)
    thread = threading.Thread(target=sampler)
    thread.start()
    end = time.monotonic() + seconds
    try:
        while time.monotonic() < end:
            run()
    finally:
        stop.set()
        thread.join()
        sys.setswitchinterval(saved)
    return samples, inclusive


if __name__ == "__main__":
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 10.0
    n, shares = profile(seconds, int(sys.argv[2]) if len(sys.argv) > 2 else 0,
                        len(sys.argv) > 3 and sys.argv[3] == "reference")
    run_share = shares["monitor_overhead.py:make_mediated.<locals>.run"] or 1
    print(f"{n} samples; shares of the workflow's samples:")
    for key, count in shares.most_common(45):
        if key.startswith("monitor_profile.py") or key.startswith("threading.py"):
            continue
        print(f"{100 * count / run_share:6.1f}%  {key}")
