"""Building and finding the in-process library ``libagentwarrant.so`` (lean/native/shim.c and the Lean
modules that lean/AgentWarrant/Oracle/InProc.lean imports), and the checksum it is loaded against.

``make lean`` runs ``python -m model.oracle.library build`` after ``leanpkg build bin``, which leaves
the C text of every module in ``lean/build/temp/``. The build compiles that text again with
``-fPIC`` (leanpkg's objects are for an executable) into ``lean/build/native/``, only for the
modules InProc imports, transitively, and only where the C is newer than its object; links them
with the shim into a shared object against the toolchain's static libraries (its ``libleancpp.a``
is built with ``-fPIC``; ``-Wl,-Bsymbolic`` because the standard library's objects were compiled
for executables; the panic functions wrapped, see the shim); and writes the library's SHA-256
beside it (``libagentwarrant.so.sha256``), which the loader checks before ``dlopen``.

Choices where nothing prescribes one: the archives are linked as one group rather than whole, so
only what the modules reach is pulled in (the library stays a few megabytes, which keeps the
checksum cheap at load); the library is rebuilt atomically (written beside and renamed), so a
reader never loads a half-written file. ``$AGENTWARRANT_LIBRARY`` overrides the path, as
``$AGENTWARRANT_ORACLE`` does for the executable.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from model.base.errors import InputKind, InvalidInput
from model.oracle.toolchain import LEAN_DIR, Toolchain, ensure, file_sha256, missing_reason

ROOT_MODULE = "AgentWarrant.Oracle.InProc"
SHIM = LEAN_DIR / "native" / "shim.c"
BUILD = LEAN_DIR / "build"
WRAPPED = ("lean_panic_fn", "lean_array_get_panic", "lean_array_set_panic")
_IMPORT = re.compile(r"^import\s+(.+)$", re.M)


def library_path() -> Path:
    override = os.environ.get("AGENTWARRANT_LIBRARY")
    return Path(override) if override else BUILD / "lib" / "libagentwarrant.so"


def checksum_path(lib: Path) -> Path:
    return lib.with_name(lib.name + ".sha256")


def closure(root: str = ROOT_MODULE) -> list[str]:
    """The package's modules ``root`` imports, transitively (itself included), in a stable order."""
    seen: list[str] = []
    todo = [root]
    while todo:
        m = todo.pop()
        if m in seen:
            continue
        seen.append(m)
        src = LEAN_DIR / (m.replace(".", "/") + ".lean")
        for line in _IMPORT.findall(src.read_text(encoding="utf-8")):
            for name in line.split():
                if name.startswith("AgentWarrant.") or name == "AgentWarrant":
                    todo.append(name)
    return sorted(seen)


def _run(cmd: list[str], tc: Toolchain, what: str) -> None:
    proc = subprocess.run(cmd, cwd=LEAN_DIR, env=tc.env(), capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise InvalidInput(what, "a successful compile/link", (proc.stdout + proc.stderr)[-4000:], InputKind.IO)


def build(tc: Toolchain) -> Path:
    """Compile (incrementally) and link the library; write its checksum. Needs ``leanpkg build bin`` first."""
    leanc = tc.tool("leanc")
    libdir = tc.bin_dir.parent / "lib" / "lean"
    objs: list[Path] = []
    for m in closure():
        rel = m.replace(".", "/")
        c_file, obj = BUILD / "temp" / f"{rel}.c", BUILD / "native" / f"{rel}.o"
        if not c_file.is_file():
            raise InvalidInput(str(c_file), "the module's C text (run `leanpkg build bin` in lean/ first)",
                               "missing", InputKind.IO)
        if not obj.is_file() or obj.stat().st_mtime < c_file.stat().st_mtime:
            obj.parent.mkdir(parents=True, exist_ok=True)
            _run([leanc, "-c", "-fPIC", "-O3", "-DNDEBUG", "-o", str(obj), str(c_file)], tc, str(c_file))
        objs.append(obj)
    shim = BUILD / "native" / "shim.o"
    if not shim.is_file() or shim.stat().st_mtime < SHIM.stat().st_mtime:
        shim.parent.mkdir(parents=True, exist_ok=True)
        _run([leanc, "-c", "-fPIC", "-O3", "-DNDEBUG", "-o", str(shim), str(SHIM)], tc, str(SHIM))
    lib = library_path()
    lib.parent.mkdir(parents=True, exist_ok=True)
    tmp = lib.with_name(f".{lib.name}.linking")
    # linked by the C++ compiler itself: ``leanc -shared`` would read every input, archives too, as C text
    _run([os.environ.get("LEAN_CXX", "c++"), "-shared", "-fPIC", "-pthread", "-o", str(tmp), str(shim),
          *map(str, objs), "-Wl,-Bsymbolic", *(f"-Wl,--wrap={f}" for f in WRAPPED), "-Wl,--start-group",
          *(str(libdir / a) for a in ("libInit.a", "libStd.a", "libLean.a", "libleancpp.a")),
          "-Wl,--end-group", "-lgmp", "-ldl"], tc, str(SHIM))
    digest = file_sha256(tmp)
    tmp.rename(lib)
    checksum_path(lib).write_text(f"{digest}  {lib.name}\n", encoding="utf-8")
    return lib


def main(argv: list[str]) -> int:
    if argv != ["build"]:
        print("usage: python -m model.oracle.library build", file=sys.stderr)
        return 2
    try:
        tc = ensure()
        if tc is None:
            print(missing_reason(), file=sys.stderr)
            return 3
        lib = build(tc)
    except InvalidInput as exc:
        print(f"in-process library: {exc}", file=sys.stderr)
        return 1
    print(f"in-process library: {lib} ({lib.stat().st_size // 1024} KiB)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
