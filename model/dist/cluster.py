"""Reaching a Dask cluster: ``--scheduler ADDRESS`` connects to a running one; ``--workers N``
starts a ``LocalCluster`` of N worker processes on the loopback address for the command's duration.

Choices where the papers are silent: a command runs distributed only when given one of the two options
(without them it keeps the single-process engine, whose results the distributed ones equal); a local
cluster has one thread per worker process, because the search is pure Python (threads would share one
GIL) and one partition per worker is the unit of parallelism; its scheduler's HTTP endpoint is on a free
loopback port (bokeh, which would draw a dashboard there, is not a dependency); its workers start with one
``PYTHONHASHSEED`` (the driver's, else ``0``), so the partitioned search can hash states with Python's own
hash (``model/dist/partition.py``) — workers of a real cluster should be started the same way, otherwise the
search detects the differing seeds and falls back to a slower stable hash.
A missing ``dist`` extra or an unreachable scheduler is reported as bad input on the option (exit 2).
Before ``distributed`` touches a ``tcp://`` address, ``probe`` opens it and waits for the greeting a
Dask scheduler sends unasked (an 8-byte frame length, then the handshake): a port that accepts and
never answers, or a service that speaks first in another protocol (an SSH banner read as a frame length
would have Dask allocate gigabytes), is refused within the connection timeout — ``--budget``'s time when
that is shorter — instead of hanging or failing deep inside deserialisation.

``gather``/``submit`` give the rest of ``model/dist`` typed access to ``distributed.Client``, whose
methods are not annotated.
"""

from __future__ import annotations

import logging
import os
import socket
import struct
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, TypeVar

import click

from model.base.errors import InputKind, InvalidInput

if TYPE_CHECKING:
    from distributed import Client

F = TypeVar("F", bound=Callable[..., Any])
_CONNECT_SECONDS = 10
_MAX_HANDSHAKE = 1 << 20  # a scheduler's handshake is a few hundred bytes
#: Dask's housekeeping intervals for a local cluster (``connect`` says why; its defaults: 20 ms, 100 ms, 500 ms)
HOUSEKEEPING = {"distributed.admin.tick.interval": "1s", "distributed.worker.memory.monitor-interval": "1s",
                "distributed.admin.system-monitor.interval": "2s"}


def cluster_options() -> Callable[[F], F]:
    """``--scheduler ADDRESS`` and ``--workers N`` on a click command (parameters ``scheduler``, ``workers``)."""
    def deco(f: F) -> F:
        f = click.option("--workers", type=click.IntRange(1, 1024), default=None,
                         help="Run on a local Dask cluster of N worker processes (needs the dist extra).")(f)
        return click.option("--scheduler", default=None, metavar="ADDRESS",
                            help="Run on the Dask cluster whose scheduler is at ADDRESS, e.g. tcp://10.0.0.5:8786.")(f)
    return deco


def wanted(scheduler: str | None, workers: int | None) -> bool:
    return scheduler is not None or workers is not None


@contextmanager
def connect(scheduler: str | None = None, workers: int | None = None,
            seconds: float | None = None, profile: bool = False) -> Iterator[Client]:
    """A client of the cluster at ``scheduler``, else of a new LocalCluster of ``workers`` processes
    (default: one per core) that is closed on exit. ``seconds`` caps the connection and handshake time
    (a command passes its budget's time). ``profile``: the local workers run Dask's statistical profiler
    (off by default, below)."""
    try:
        import dask
        from distributed import Client, LocalCluster
    except ImportError as exc:  # pragma: no cover - the Makefile installs the extra
        raise InvalidInput("--scheduler/--workers", "dask.distributed installed (pip install 'agentwarrant[dist]')",
                           str(exc), InputKind.IO) from exc
    if scheduler is not None:
        wait = _CONNECT_SECONDS if seconds is None else max(0.1, min(seconds, _CONNECT_SECONDS))
        probe(scheduler, wait)
        try:
            client = Client(scheduler, timeout=wait)  # type: ignore[no-untyped-call]
        except (OSError, TimeoutError, ValueError) as exc:
            raise InvalidInput("--scheduler", "the address of a reachable Dask scheduler", f"{scheduler} ({exc})",
                               InputKind.IO) from exc
        try:
            yield client
        finally:
            client.close()  # type: ignore[no-untyped-call]
        return
    n = workers if workers is not None else (os.cpu_count() or 1)
    # The scheduler serves HTTP (health, metrics) even without a dashboard, by default on all interfaces at
    # :8787; a free loopback port keeps it local and lets several clusters share a machine. silence_logs:
    # the workers' shutdown chatter (a heartbeat racing the scheduler's close) is not ours; task errors
    # still reach the client as exceptions.
    environ = {**dask.config.get("distributed.nanny.pre-spawn-environ"),
               "PYTHONHASHSEED": os.environ.get("PYTHONHASHSEED", "0")}
    # The workers' statistical profiler samples the task thread's stack every 10 ms for a dashboard, which
    # a local cluster here does not serve (no bokeh): on pure-Python tasks it took the GIL and about 5% of
    # a worker's CPU for samples no one reads (``experiments/dask_timeline.py`` compares the tasks' CPU with
    # the worker processes'). The same holds for Dask's housekeeping timers, which run whether or not a task
    # does and take CPU from the search on a machine with as many cores as workers: the event-loop health
    # check every 20 ms (it only warns of a blocked loop, and the logs are silenced), the memory monitor of
    # each worker and nanny every 100 ms and the system monitor every 500 ms. Idle for 15 s, a 2-worker
    # cluster's driver process (scheduler, nannies, client) took 0.75 s of CPU and each worker 0.3 s at the
    # defaults, 0.13 s and 0.05 s at ``HOUSEKEEPING``'s; memory limits are still enforced, a second late.
    with dask.config.set({"distributed.nanny.pre-spawn-environ": environ,
                          "distributed.worker.profile.enabled": profile,
                          **HOUSEKEEPING}), \
            LocalCluster(n_workers=n, threads_per_worker=1, host="127.0.0.1",  # type: ignore[no-untyped-call]
                      processes=True, dashboard_address="127.0.0.1:0", silence_logs=logging.CRITICAL) as cluster, \
            Client(cluster) as client:  # type: ignore[no-untyped-call]
        yield client


def probe(scheduler: str, seconds: float) -> None:
    """Refuse a ``tcp://`` (or scheme-less) address that does not greet like a Dask scheduler within
    ``seconds``; other schemes (``tls://``, ``inproc://``) are left to ``distributed``."""
    scheme, sep, rest = scheduler.partition("://")
    if sep and scheme != "tcp":
        return
    host, _, port_text = (rest if sep else scheduler).rpartition(":")
    bad = "the address of a reachable Dask scheduler (tcp://HOST:PORT)"
    if not host or not port_text.isdigit() or not 0 < int(port_text) < 65536:
        raise InvalidInput("--scheduler", bad, scheduler, InputKind.VALUE)
    deadline = time.monotonic() + seconds
    try:
        with socket.create_connection((host.strip("[]"), int(port_text)), timeout=seconds) as sock:
            head = b""
            while len(head) < 8:
                sock.settimeout(max(0.01, deadline - time.monotonic()))
                chunk = sock.recv(8 - len(head))
                if not chunk:
                    raise InvalidInput("--scheduler", bad, f"{scheduler} (closed the connection)", InputKind.IO)
                head += chunk
    except TimeoutError:
        raise InvalidInput("--scheduler", bad, f"{scheduler} (no handshake within {seconds:g} s)",
                           InputKind.IO) from None
    except OSError as exc:
        raise InvalidInput("--scheduler", bad, f"{scheduler} ({exc.strerror or exc})", InputKind.IO) from None
    (size,) = struct.unpack("<Q", head)
    if not 0 < size <= _MAX_HANDSHAKE:
        raise InvalidInput("--scheduler", bad, f"{scheduler} (not the Dask protocol: it sent {head!r})", InputKind.IO)


class WorkerLost(RuntimeError):
    """A worker holding a partition left the cluster: the search cannot finish (its states are gone)."""


_POLL_SECONDS = 2.0


def workers(client: Client) -> list[str]:
    """The addresses of the cluster's workers, sorted, asked of the scheduler now. Not
    ``Client.scheduler_info()``: it returns the client's cached identity, which the client's own periodic
    refresh (every ``distributed.client.scheduler-info-interval``) overwrites with one listing no worker, so
    a caller that reads it just after that refresh lands sees an empty cluster; and a failed refresh is
    dropped silently, leaving that cached view in place."""
    scheduler = client.scheduler
    if scheduler is None:
        raise WorkerLost("the client is not connected to a scheduler")
    info = client.sync(scheduler.identity, n_workers=-1)  # type: ignore[no-untyped-call]
    return sorted(info["workers"])


def gather(client: Client, futures: Any, needs: list[str] | None = None) -> Any:
    """``client.gather``; with ``needs`` (worker addresses holding state) it raises ``WorkerLost`` when one
    of them leaves, instead of waiting forever for tasks pinned to it."""
    if needs is not None:
        from distributed import wait

        flat = futures if isinstance(futures, list) else [futures]
        while True:
            try:
                wait(flat, timeout=_POLL_SECONDS)  # type: ignore[no-untyped-call]
                break
            except TimeoutError:
                gone = set(needs) - set(workers(client))
                if gone:
                    raise WorkerLost(f"worker {', '.join(sorted(gone))} left the cluster; its partition of the "
                                     "search is lost (run the search again)") from None
    return client.gather(futures)  # type: ignore[no-untyped-call]


def first_done(client: Client, futures: list[Any], needs: list[str]) -> list[Any]:
    """The futures of ``futures`` that have finished, waiting for at least one; raises ``WorkerLost`` as
    ``gather`` does."""
    from distributed import wait

    while True:
        try:
            done = wait(futures, timeout=_POLL_SECONDS, return_when="FIRST_COMPLETED")  # type: ignore[no-untyped-call]
            return [f for f in futures if f in done.done]
        except TimeoutError:
            gone = set(needs) - set(workers(client))
            if gone:
                raise WorkerLost(f"worker {', '.join(sorted(gone))} left the cluster; its partition of the "
                                 "search is lost (run the search again)") from None


def cancel(client: Client, futures: Any) -> None:
    client.cancel(futures)  # type: ignore[no-untyped-call]
