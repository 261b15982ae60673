"""Finding the Lean 4 toolchain and the oracle executable built from lean/.

The toolchain is looked up in ``$LEAN_HOME/bin`` first (when ``LEAN_HOME`` is set), then on
``PATH``. Nothing here downloads or builds a toolchain: where none is found, callers skip with
the reason :func:`missing_reason` gives. The oracle executable is ``lean/build/bin/AgentWarrant``
(``leanpkg build bin`` names it after the package root), or ``$AGENTWARRANT_ORACLE`` when set.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from model.errors import InputKind, InvalidInput

LEAN_DIR = Path(__file__).resolve().parent.parent.parent / "lean"


@dataclass(frozen=True, slots=True)
class Toolchain:
    bin_dir: Path

    def tool(self, name: str) -> str:
        return str(self.bin_dir / name)

    def env(self) -> dict[str, str]:
        env = dict(os.environ)
        env["PATH"] = f"{self.bin_dir}{os.pathsep}{env.get('PATH', '')}"
        return env


def find_toolchain() -> Toolchain | None:
    home = os.environ.get("LEAN_HOME")
    if home:
        cand = Path(home) / "bin"
        if (cand / "lean").is_file() and (cand / "leanpkg").is_file():
            return Toolchain(cand)
    found = shutil.which("lean")
    if found is not None and shutil.which("leanpkg") is not None:
        return Toolchain(Path(found).resolve().parent)
    return None


def missing_reason() -> str:
    return ("no Lean 4 toolchain: neither $LEAN_HOME/bin nor PATH has `lean` and `leanpkg` "
            "(see README, 'Lean oracle'); Lean builds, the proof audit and tests/drt are skipped")


def oracle_path() -> Path:
    override = os.environ.get("AGENTWARRANT_ORACLE")
    return Path(override) if override else LEAN_DIR / "build" / "bin" / "AgentWarrant"


def build_oracle(tc: Toolchain) -> Path:
    """``leanpkg build bin`` in lean/ (incremental); raises InvalidInput with the build log on failure."""
    proc = subprocess.run([tc.tool("leanpkg"), "build", "bin"], cwd=LEAN_DIR, env=tc.env(),
                          capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise InvalidInput("lean/", "a Lean package that builds", (proc.stdout + proc.stderr)[-4000:], InputKind.IO)
    return oracle_path()
