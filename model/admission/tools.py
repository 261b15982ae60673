"""The tools (connectors) that perform effects, and the one registry through which they are called.

Only two modules may import this one: ``handler`` (the effect-owning handler E of
*Policy-Mediated Autonomy with Resumable Action Attempts*) and ``gateway`` (the release gate of the Parmana paper,
Section 4.4). ``tests/unit/test_admission_architecture.py`` checks that over the import graph of
``model``, so no other code path reaches a tool. Choices where the sources are silent: a tool is a
Python callable from a JSON body to a JSON result; it signals an unavailable dependency by raising
``DependencyUnavailable`` (no effect happened) and a lost answer by raising ``TimeoutError`` (the
effect may have happened).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from model.base.canonical import JSON

Tool = Callable[[JSON], JSON]


class DependencyUnavailable(Exception):
    """Raised by a tool whose downstream dependency refused before any effect."""


@dataclass(frozen=True, slots=True)
class ToolRegistry:
    tools: Mapping[str, Tool]

    def has(self, name: str) -> bool:
        return name in self.tools

    def invoke(self, name: str, body: JSON) -> JSON:
        return self.tools[name](body)
