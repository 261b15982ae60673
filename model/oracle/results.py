"""What one differential-testing comparison yields: agreement, a skip with its reason, or a mismatch
with every input and both outputs (shared by the runners of model/oracle/drt.py and drt_monitor.py)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Agree:
    kind: str  # what both sides answered (decision, verdict...), for the coverage line of a summary
    tags: tuple[str, ...] = ()  # the rule kinds the case exercised (whole-monitor steps), for coverage


@dataclass(frozen=True, slots=True)
class Skip:
    reason: str


@dataclass(frozen=True, slots=True)
class Mismatch:
    judgment: str
    modes: tuple[str, ...]
    python_input: Any  # the Python model's input, as JSON
    oracle_input: Any  # the oracle request's input
    python: Any
    lean: Any


CaseResult = Agree | Skip | Mismatch


def jsonable(x: Any) -> Any:
    return json.loads(json.dumps(x, default=repr))
