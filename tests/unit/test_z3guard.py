"""``model/base/z3guard.py``: while a Z3 section runs, no other thread's garbage collection may run (Z3's
global context is not thread-safe and Z3 finalizers touch it), and sections exclude each other."""

from __future__ import annotations

import gc
import threading

from model.base.z3guard import exclusive, z3_section


def test_another_threads_collection_waits_for_the_section() -> None:
    inside, order = threading.Event(), []

    def collector() -> None:
        inside.wait()
        gc.collect()
        order.append("collected")

    t = threading.Thread(target=collector)
    t.start()
    with z3_section():
        inside.set()
        t.join(timeout=0.3)
        assert t.is_alive(), "a collection in another thread ran while the section held Z3"
        order.append("section done")
    t.join(timeout=10)
    assert order == ["section done", "collected"]


def test_the_sections_own_thread_may_collect_and_sections_nest() -> None:
    enabled = gc.isenabled()
    with z3_section():
        assert not gc.isenabled()
        with z3_section():
            gc.collect()
        assert not gc.isenabled()
    assert gc.isenabled() == enabled


def test_sections_in_two_threads_do_not_overlap() -> None:
    active, overlaps = [0], [0]
    lock = threading.Lock()

    @exclusive
    def work() -> None:
        with lock:
            active[0] += 1
            overlaps[0] = max(overlaps[0], active[0])
        for _ in range(2000):
            [object() for _ in range(5)]
        with lock:
            active[0] -= 1

    threads = [threading.Thread(target=lambda: [work() for _ in range(20)]) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert overlaps[0] == 1


def test_an_exception_leaves_the_collector_as_it_was() -> None:
    enabled = gc.isenabled()
    try:
        with z3_section():
            raise ValueError("boom")
    except ValueError:
        pass
    assert gc.isenabled() == enabled
    with z3_section():  # and the next section is not blocked by a stale owner
        pass
