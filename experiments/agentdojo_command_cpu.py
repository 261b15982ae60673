"""CPU time of one ``agentwarrant agentdojo SUITE TASK [INJECTION_TASK]`` command, for the slowest user
tasks and pairs: ``paper_figures/tables/agentdojo_command_cpu.{csv,md}``.

The target is a wall-clock-free figure: a single task or pair answers in under one second of CPU
(user plus system, the process and its children, ``resource.getrusage(RUSAGE_CHILDREN)`` around the
command run as a subprocess). Which tasks are the slowest is found in this process first: every user
task of every suite replayed once (single-context agent, no review) and timed with
``time.process_time``; then every pair of the slowest user task of each suite, every injection task,
the ``direct`` and ``fields`` variants (``fields`` revalidates a whole environment). The slowest
``SLOWEST`` user tasks and pairs overall, and each suite's slowest user task and slowest pair not
among them (the in-process ranking runs with warm caches, so it does not see what a command pays per
suite, such as loading the suite), are then run as the command, ``REPEATS`` times each after one
run that fills the snapshot cache (the state after a user's first command), and the median and the
largest CPU are reported. For scale, the same measurement of ``python -c pass`` from the same
interpreter is reported (the interpreter's own start), and the load average at the end: CPU time
grows when two cores are shared by many processes (cache and frequency effects), so the figure
under load is an overestimate of the quiet one.
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from model.base.tables import write_table
from model.bench.agentdojo.session import Agent, Review
from model.bench.agentdojo.suites import SUITES, get_suite, require, suite_policy
from model.bench.agentdojo.task_replay import run_pair, run_user_task

SLOWEST = 3
REPEATS = 3
TARGET = 1.0  # seconds of CPU


def _child_cpu(argv: list[str]) -> tuple[float, float]:
    """CPU (user + system) and wall seconds of one subprocess."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall


def _timed(fn: Callable[[], object]) -> float:
    t = time.process_time()
    fn()
    return time.process_time() - t


def rank() -> dict[str, tuple[list[tuple[float, list[str]]], list[tuple[float, list[str]]]]]:
    """Per suite, (CPU s in this process, command arguments) of every user task, and of the pairs of
    the suite's slowest user task, slowest first."""
    ranked = {}
    for s in SUITES:
        policy = suite_policy(s)
        dojo = get_suite(s)
        users = []
        for u in dojo.user_tasks:
            run_user_task(s, u, policy, Agent.SINGLE, Review.NONE)  # warm this task's caches (plan, checks)
            users.append((_timed(partial(run_user_task, s, u, policy, Agent.SINGLE, Review.NONE)), [s, u]))
        users.sort(reverse=True)
        slow = users[0][1][1]
        pairs = []
        for i in dojo.injection_tasks:
            for v in ("direct", "fields"):
                cpu = _timed(partial(run_pair, s, slow, i, policy, Agent.SINGLE, Review.NONE, v))
                pairs.append((cpu, [s, slow, i, "--variant", v]))
        ranked[s] = (users, sorted(pairs, reverse=True))
    return ranked


def choose(ranked: dict[str, tuple[list[tuple[float, list[str]]], list[tuple[float, list[str]]]]]) -> list[list[str]]:
    """The ``SLOWEST`` user tasks and pairs overall, then each suite's slowest user task and slowest
    pair not among them: a suite whose in-process replay is quick can still have the slowest command
    (what a command pays once per suite, loading the suite and its plans, is not in the in-process
    ranking, whose caches are warm)."""
    chosen: list[list[str]] = []
    for k in (0, 1):
        every = sorted((row for users_pairs in ranked.values() for row in users_pairs[k]), reverse=True)
        chosen += [a for _, a in every[:SLOWEST]]
        chosen += [a for users_pairs in ranked.values() if users_pairs[k]
                   and (a := users_pairs[k][0][1]) not in chosen]
    return chosen


def reproduce(out_dir: Path, tick: Callable[[int, int], None]) -> list[Path]:
    require()
    chosen = choose(rank())
    script = Path(sys.executable).with_name("agentwarrant")  # the installed command itself
    exe = [str(script) if script.exists() else sys.executable, *([] if script.exists() else ["-m", "model.shell.cli"]),
           "agentdojo"]
    rows: list[list[object]] = []
    base = [_child_cpu([sys.executable, "-c", "pass"])[0] for _ in range(REPEATS)]
    for i, args in enumerate(chosen):
        _child_cpu([*exe, *args])  # fills the snapshot cache if it is cold
        got = [_child_cpu([*exe, *args]) for _ in range(REPEATS)]
        cpu = [c for c, _ in got]
        med = statistics.median(cpu)
        rows.append([f"agentwarrant agentdojo {' '.join(args)}", f"{med:.2f}", f"{max(cpu):.2f}",
                     f"{statistics.median(w for _, w in got):.1f}", "yes" if max(cpu) < TARGET else "no"])
        tick(i + 1, len(chosen))
    load = os.getloadavg()[0]
    caption = (f"CPU seconds (user + system) of one command, run as a subprocess {REPEATS} times after one run "
               f"that fills the snapshot cache (`agentwarrant reproduce agentdojo-command-cpu`): the {SLOWEST} "
               "slowest user tasks (single-context agent, no review, ranked in-process over all 97) and the "
               f"{SLOWEST} slowest pairs (every injection task of each suite's slowest user task, variants direct "
               "and fields), then each suite's slowest user task and slowest pair not among them. "
               f"Target: under {TARGET:.0f} s. For scale, `python -c pass` from the same interpreter: "
               f"{statistics.median(base):.2f} s. One-minute load average at the end: {load:.1f} on "
               f"{os.cpu_count()} CPUs (CPU time grows under load).")
    return write_table(out_dir, "agentdojo_command_cpu",
                       ("command", "CPU s (median)", "CPU s (max)", "wall s (median)", f"under {TARGET:.0f} s"),
                       rows, caption)
