"""``experiments/dask_timeline.py``: the driver's marks cut the run into phases, and each worker's task
intervals from Dask's task stream are clipped to them — compute per kind of task, transfers, and the
rest of the phase idle; a task of another worker never counts."""

from __future__ import annotations

import pytest

from model.shell.reproduce import load_experiment


def _task(key: str, worker: str, *spans: tuple[str, float, float]) -> dict[str, object]:
    return {"key": key, "worker": worker, "startstops": [{"action": a, "start": lo, "stop": hi} for a, lo, hi in spans]}


def test_tasks_are_clipped_to_phases_and_the_rest_is_idle() -> None:
    pytest.importorskip("dask")
    mod = load_experiment("dask-timeline")
    marks = [("start", 100.0, 1.0), ("0 opened", 102.0, 1.5), ("0 expanded", 110.0, 2.5)]
    stream = [
        _task("open_level-" + "0a1b" * 8, "w0", ("compute", 100.5, 101.5)),
        # a transfer before the phase mark, then a compute straddling it
        _task("chunk-" + "1b2c" * 8, "w0", ("transfer", 101.0, 101.25), ("compute", 101.75, 106.0)),
        _task("chunk-" + "2c3d" * 8, "w1", ("compute", 103.0, 105.0)),
        _task("chunk-" + "3d4e" * 8, "w9", ("compute", 100.0, 110.0)),  # another cluster's worker: not ours
    ]
    rows = mod.timeline(stream, marks, ["w0", "w1"])
    header = ["phase", "worker", "wall_s", "driver_cpu_s", *(f"{k}_s" for k in mod.KINDS), "other_s", "transfer_s",
              "idle_s"]
    col = {name: i for i, name in enumerate(header)}
    by = {(r[0], r[1]): r for r in rows}
    assert set(by) == {("0 opened", 0), ("0 opened", 1), ("0 expanded", 0), ("0 expanded", 1)}
    first, second = by["0 opened", 0], by["0 expanded", 0]
    assert (first[col["wall_s"]], first[col["driver_cpu_s"]]) == ("2.00", "0.50")
    assert (first[col["open_level_s"]], first[col["chunk_s"]], first[col["transfer_s"]]) == ("1.00", "0.25", "0.25")
    assert first[col["idle_s"]] == "0.50"  # 2 s less 1.5 s computing and 0.25 s moving
    assert (second[col["chunk_s"]], second[col["idle_s"]]) == ("4.00", "4.00")
    assert by["0 opened", 1][col["idle_s"]] == "2.00"  # worker 1 did nothing before its chunk
    assert by["0 expanded", 1][col["chunk_s"]] == "2.00"
