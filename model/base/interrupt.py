"""Ctrl-C that cannot be lost.

Python raises ``KeyboardInterrupt`` wherever the interpreter happens to be when SIGINT arrives. When that
is inside a finalizer (``__del__``, such as Z3's ``AstRef.__del__`` collecting a temporary term), the
interpreter prints "Exception ignored" and drops it, and the search would run on to its budget or bound as
if no one had pressed Ctrl-C. ``remembered_interrupts`` records the signal as well as raising it, so a
loop that calls ``raise_if_interrupted`` at its safe points raises it again there.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType


class InterruptFlag:
    """Whether SIGINT arrived while the context was active."""

    def __init__(self) -> None:
        self.pending = False

    def raise_if_interrupted(self) -> None:
        if self.pending:
            raise KeyboardInterrupt


@contextmanager
def remembered_interrupts() -> Iterator[InterruptFlag]:
    """Within the block, SIGINT sets the flag and raises ``KeyboardInterrupt`` as usual. Off the main
    thread (where no handler can be installed) the flag never sets and Ctrl-C behaves as before."""
    flag = InterruptFlag()
    if threading.current_thread() is not threading.main_thread():
        yield flag
        return

    def handler(signum: int, frame: FrameType | None) -> None:
        flag.pending = True
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGINT, handler)
    try:
        yield flag
    finally:
        signal.signal(signal.SIGINT, previous)
