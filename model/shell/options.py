"""Pieces every subcommand shares: the ``--budget`` option and a progress display for metered work.

The progress display is drawn on stderr only when stderr is a terminal (so piped output and CI logs
get no control characters), and it always ends its line.
"""

from __future__ import annotations

import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import click

from model.base.budget import DEFAULT_CLI, Budget, Spent
from model.base.errors import InputKind, InvalidInput

F = TypeVar("F", bound=Callable[..., Any])


class _BudgetType(click.ParamType[Budget]):
    name = "BUDGET"

    def convert(self, value: object, param: click.Parameter | None, ctx: click.Context | None) -> Budget:
        if isinstance(value, Budget):
            return value
        try:
            return Budget.parse(str(value))
        except InvalidInput as exc:
            self.fail(f"expected {exc.expected}, found {exc.found}", param, ctx)


def budget_option(default: Budget = DEFAULT_CLI) -> Callable[[F], F]:
    """``--budget 30s|5m|200000states|4gb|30s,200000states,4gb|none``; exhausted → exit 3 with ``Unknown``."""
    return click.option(
        "--budget", type=_BudgetType(), default=default.spec(), show_default=True,
        help="Time, state and/or resident-memory limit, e.g. 30s, 5m, 200000states, 4gb, "
             "30s,200000states,4gb, none. "
             "When it runs out the answer is Unknown (exit 3).")


@contextmanager
def metered_progress(label: str) -> Iterator[Callable[[Spent], None] | None]:
    """Yield an ``on_progress`` callback for ``Budget.start`` that shows elapsed time and states on a
    terminal, or ``None`` when stderr is not one."""
    if not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    with Progress(SpinnerColumn(), TextColumn("{task.description}"), TextColumn("{task.fields[states]} states"),
                  TimeElapsedColumn(), console=Console(stderr=True), transient=True) as progress:
        task = progress.add_task(label, total=None, states=0)

        def update(spent: Spent) -> None:
            progress.update(task, states=f"{spent.states:,}")

        yield update


def output_folder(path: Path, where: str = "--out") -> Path:
    """``path`` created (with its ``tables/`` subfolder) and shown writable before any experiment runs:
    a path under a file (``FILE/sub``), under ``/proc`` or read-only is bad input, one line, not a
    traceback after minutes of work."""
    try:
        (path / "tables").mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=path):
            pass
    except OSError as exc:
        raise InvalidInput(where, "a folder that can be created and written",
                           f"{path} ({exc.strerror or type(exc).__name__})", InputKind.IO) from None
    return path
