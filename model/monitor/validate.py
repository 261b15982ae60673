"""Registration checks (placeholder; completed in the next commit)."""

from __future__ import annotations

from collections.abc import Callable

from model.errors import Location
from model.monitor.policy import Policy


def validate(policy: Policy, locate: Callable[[tuple[str | int, ...]], Location | str]) -> None:
    return None
