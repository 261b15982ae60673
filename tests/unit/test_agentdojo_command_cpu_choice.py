"""experiments/agentdojo_command_cpu.py: which commands are measured. Besides the slowest user tasks
and pairs overall (ranked in-process), each suite's slowest user task and slowest pair are measured,
so a suite whose replay is quick in-process but whose command is slow is not missed. The rankings
here are made up; the choice is the script's."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("experiments_agentdojo_command_cpu",
                                                  ROOT / "experiments" / "agentdojo_command_cpu.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


M = _script()


def _ranked(suite: str, users: list[float], pairs: list[float]) -> tuple[list[tuple[float, list[str]]], ...]:
    return (sorted(((c, [suite, f"user_task_{i}"]) for i, c in enumerate(users)), reverse=True),
            sorted(((c, [suite, "user_task_0", f"injection_task_{i}"]) for i, c in enumerate(pairs)), reverse=True))


def test_every_suites_slowest_user_task_and_pair_are_measured_once() -> None:
    ranked = {"workspace": _ranked("workspace", [0.09, 0.08, 0.07, 0.06], [0.2, 0.19, 0.18, 0.17]),
              "travel": _ranked("travel", [0.01, 0.02], [0.03, 0.01]),
              "banking": _ranked("banking", [0.085], [0.185])}
    chosen = M.choose(ranked)
    assert len(chosen) == len({tuple(a) for a in chosen})
    slowest = {tuple(a) for rows in ranked.values() for k in (0, 1) for a in [rows[k][0][1]]}
    assert slowest <= {tuple(a) for a in chosen}
    # the overall slowest come first, whatever their suite
    assert chosen[:M.SLOWEST] == [["workspace", "user_task_0"], ["banking", "user_task_0"],
                                  ["workspace", "user_task_1"]]
    assert ["travel", "user_task_1"] in chosen and ["travel", "user_task_0"] not in chosen
    assert ["travel", "user_task_0", "injection_task_0"] in chosen
    assert len(chosen) == 2 * M.SLOWEST + 2  # travel's user task and pair are the only additions
