"""The compiled hot path of the explicit search (the engine of Agenra Sections 1–3 and 6, whose Section 8 on
the engine is missing from our copy; the design is ours): the modules every transition runs through — the
breadth-first loop (``engine.py``, ``layered.py``), the successor function (``expand.py``, ``held.py``),
the compact states (``compact.py``) and the fingerprint store (``fpset.py``, ``fingerprint.py``) —
compiled to C extension modules by Cython (``python -m model.search.native.build``, run by ``make venv``
with the system's C compiler), and loaded in place of their sources when the package ``model.search`` is
first imported.

The compiled modules are built from the very source files, unchanged: the C code Cython generates follows
Python's semantics (``annotation_typing`` off, so an ``int`` annotation never becomes a fixed-width C
integer and a 64-bit fingerprint cannot overflow), so the answers are the interpreted modules' by
construction; ``tests/unit/test_search_native.py`` still compares both, run in separate processes, on
every model of ``corpus/search``. The gain is what compiling buys Python code whose work is building and
hashing tuples and looking up dicts — interpreter dispatch and frame set-up — not a different algorithm
(``python experiments/search_scale.py --native`` measures it against the interpreted modules).

Which modules load (``status()``):

- compiled, when the build is there and each compiled module's recorded SHA-256 equals its source's (a
  build older than its source is never used: that source is loaded instead, module by module);
- interpreted, when ``AGENTWARRANT_SEARCH_NATIVE=0``, when nothing was built (no C compiler or no Cython:
  ``make venv`` says so and goes on), or for any module whose build is stale or missing.

Choice: the compiled modules live in ``model/search/native/lib`` (ignored by git), not beside their
sources, so deleting that folder or setting the variable is all it takes to run the interpreted search,
and a test can run both from one checkout.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

#: the modules compiled, in ``model.search``
MODULES = ("engine", "layered", "expand", "held", "compact", "fpset", "fingerprint")
ENV = "AGENTWARRANT_SEARCH_NATIVE"
LIB = Path(__file__).resolve().parent / "lib"
STAMP = LIB / "stamp.json"  # module name -> SHA-256 of the source it was compiled from
SEARCH = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Status:
    compiled: tuple[str, ...]  # modules of ``MODULES`` loaded (or to be loaded) from the build
    reason: str  # why the others are interpreted ("" when none is)

    @property
    def active(self) -> str:
        """"compiled" (every module), "partial" or "interpreted" (none)."""
        if len(self.compiled) == len(MODULES):
            return "compiled"
        return "partial" if self.compiled else "interpreted"


def source_digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def read_stamp(path: Path) -> dict[str, object] | None:
    """A build stamp beside the compiled modules, or None when it is absent or unreadable: a bad stamp
    only means the interpreted source is used, so it is never an error."""
    try:
        stamp = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return stamp if isinstance(stamp, dict) else None


def _built() -> dict[str, Path]:
    """The compiled modules whose build matches their source, by module name."""
    stamp = read_stamp(STAMP)
    if stamp is None:
        return {}
    out: dict[str, Path] = {}
    suffixes = importlib.machinery.EXTENSION_SUFFIXES
    for name in MODULES:
        src = SEARCH / f"{name}.py"
        so = next((LIB / f"{name}{sfx}" for sfx in suffixes if (LIB / f"{name}{sfx}").is_file()), None)
        if so is not None and src.is_file() and stamp.get(name) == source_digest(src):
            out[name] = so
    return out


def status() -> Status:
    """Which modules are compiled in this process (an imported module as it was loaded, one not yet
    imported as it would be), and why the others are not."""
    if os.environ.get(ENV, "1") == "0":
        return Status((), f"{ENV}=0")
    if not STAMP.is_file():
        return Status((), "not built (python -m model.search.native.build; needs Cython and a C compiler)")
    built = _built()
    compiled = tuple(n for n in MODULES if (_is_compiled(sys.modules[f"model.search.{n}"])
                                            if f"model.search.{n}" in sys.modules else n in built))
    missing = [n for n in MODULES if n not in compiled]
    return Status(compiled, f"not built or stale: {', '.join(missing)}" if missing else "")


def _is_compiled(mod: ModuleType | None) -> bool:
    return mod is not None and isinstance(getattr(mod, "__loader__", None), importlib.machinery.ExtensionFileLoader)


class _Finder(importlib.abc.MetaPathFinder):
    """Finds ``model.search.<name>`` for the compiled modules in ``lib``."""

    def __init__(self, built: dict[str, Path]) -> None:
        self.built = built

    def find_spec(self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
                  ) -> importlib.machinery.ModuleSpec | None:
        prefix, _, name = fullname.rpartition(".")
        if prefix != "model.search" or name not in self.built:
            return None
        so = str(self.built[name])
        return importlib.util.spec_from_file_location(fullname, so,
                                                      loader=importlib.machinery.ExtensionFileLoader(fullname, so))


def install() -> None:
    """Load the compiled modules from now on (once; nothing when disabled or not built)."""
    if os.environ.get(ENV, "1") == "0" or any(isinstance(f, _Finder) for f in sys.meta_path):
        return
    built = _built()
    if built:
        sys.meta_path.insert(0, _Finder(built))


__all__ = ["ENV", "MODULES", "Status", "install", "source_digest", "status"]
