"""Where the checkout is: the corpus, experiments and paper_figures/ are read from the repository the package
was installed from in development mode (they are not part of the wheel). Shared by every system; no paper
section defines it.
"""

from __future__ import annotations

from pathlib import Path

from model.base.errors import InputKind, InvalidInput

__all__ = ["repo_root"]


def repo_root() -> Path:
    """The checkout this package was installed from (experiments are not part of the wheel)."""
    here = Path(__file__).resolve().parents[2]
    if (here / "experiments").is_dir():
        return here
    cwd = Path.cwd()
    if (cwd / "experiments").is_dir():
        return cwd
    raise InvalidInput("experiments/", "an agentwarrant checkout (run from the repository)", str(cwd), InputKind.IO)
