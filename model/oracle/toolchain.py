"""Finding the Lean 4 toolchain and the oracle executable built from lean/.

The toolchain is looked up in ``$LEAN_HOME/bin`` first (when ``LEAN_HOME`` is set), then on
``PATH``, then in ``.lean/`` of the checkout, where :func:`unpack` puts the prebuilt archive
(``../shared/lean/lean-toolchain-2021-07-09-linux-x86_64.tar.zst`` beside the checkout, or
``$AGENTWARRANT_LEAN_ARCHIVE``) after checking it against the SHA-256 of its ``.sha256`` file.
Nothing here downloads or builds a toolchain: where none is found, callers skip with the reason
:func:`missing_reason` gives, which points at docs/lean.md (how to build one from source). The oracle
executable is ``lean/build/bin/AgentWarrant`` (``leanpkg build bin`` names it after the package
root), or ``$AGENTWARRANT_ORACLE`` when set.

``python -m model.oracle.toolchain ensure`` (the Makefile's entry) prints the toolchain's bin
directory, unpacking the archive first when that is the only source; exit status 3 when there is
no toolchain and no archive, 1 when the archive does not match its checksum (a corrupt archive
fails the build, it never silently skips it).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from model.base.errors import InputKind, InvalidInput
from model.base.jsonio import read_bytes, read_text

REPO = Path(__file__).resolve().parent.parent.parent
LEAN_DIR = REPO / "lean"
RELEASE = "lean-toolchain-2021-07-09"
LOCAL_HOME = REPO / ".lean" / RELEASE
DEFAULT_ARCHIVE = REPO.parent / "shared" / "lean" / f"{RELEASE}-linux-x86_64.tar.zst"


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
    local = LOCAL_HOME / "bin"
    if (local / "lean").is_file() and (local / "leanpkg").is_file():
        return Toolchain(local)
    return None


def missing_reason() -> str:
    return ("no Lean 4 toolchain: neither $LEAN_HOME/bin, PATH nor .lean/ has `lean` and `leanpkg`, and no "
            f"prebuilt archive at {archive_path()}; docs/lean.md ('Getting the toolchain') says how to build "
            "nightly-2021-07-09 from source; Lean builds, the proof audit and tests/drt are skipped")


def archive_path() -> Path:
    override = os.environ.get("AGENTWARRANT_LEAN_ARCHIVE")
    return Path(override) if override else DEFAULT_ARCHIVE


def expected_sha256(checksum_file: Path) -> str:
    """The hex digest in a ``sha256sum`` line (``<hex>  <name or path>``); the name is not trusted."""
    text = read_text(checksum_file, "the archive's .sha256 file").split()
    if not text or len(text[0]) != 64 or any(c not in "0123456789abcdef" for c in text[0].lower()):
        raise InvalidInput(str(checksum_file), "a sha256sum line '<64 hex digits>  <file>'",
                           " ".join(text)[:100], InputKind.VALUE)
    return text[0].lower()


def file_sha256(path: Path) -> str:
    return hashlib.sha256(read_bytes(path, "the toolchain archive")).hexdigest()


def unpack(archive: Path, dest: Path = LOCAL_HOME) -> Toolchain:
    """Check ``archive`` against ``archive.sha256`` and unpack it so that ``dest`` is the toolchain.

    Unpacks into a sibling temporary folder and renames it into place, so an interrupted unpack
    never leaves a half toolchain that :func:`find_toolchain` would take for a whole one."""
    checksum = archive.with_name(archive.name + ".sha256")
    if not checksum.is_file():
        raise InvalidInput(str(checksum), "the archive's .sha256 file beside it", "missing", InputKind.IO)
    want, got = expected_sha256(checksum), file_sha256(archive)
    if want != got:
        raise InvalidInput(str(archive), f"SHA-256 {want} (from {checksum.name})", got, InputKind.VALUE)
    tmp = dest.parent / f".{dest.name}.unpacking"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    proc = subprocess.run(["tar", "--zstd", "-xf", str(archive), "-C", str(tmp)], capture_output=True, text=True,
                          check=False)
    inner = tmp / RELEASE
    if proc.returncode != 0 or not (inner / "bin" / "lean").is_file():
        shutil.rmtree(tmp, ignore_errors=True)
        raise InvalidInput(str(archive), f"a tar.zst holding {RELEASE}/bin/lean", proc.stderr.strip()[:500] or
                           "no such member", InputKind.IO)
    shutil.rmtree(dest, ignore_errors=True)
    inner.rename(dest)
    shutil.rmtree(tmp, ignore_errors=True)
    return Toolchain(dest / "bin")


def ensure() -> Toolchain | None:
    """The toolchain to use, unpacking the archive when nothing else provides one."""
    tc = find_toolchain()
    if tc is not None:
        return tc
    archive = archive_path()
    return unpack(archive) if archive.is_file() else None


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


def main(argv: list[str]) -> int:
    if argv != ["ensure"]:
        print("usage: python -m model.oracle.toolchain ensure", file=sys.stderr)
        return 2
    try:
        tc = ensure()
    except InvalidInput as exc:
        print(f"lean toolchain: {exc}", file=sys.stderr)
        return 1
    if tc is None:
        print(missing_reason(), file=sys.stderr)
        return 3
    print(tc.bin_dir)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
