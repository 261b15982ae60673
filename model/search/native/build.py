"""Build the compiled search modules (``model/search/native/__init__.py``): Cython translates each source
of ``MODULES`` to C, the system's C compiler builds it, and the extension modules land in
``model/search/native/lib`` with the SHA-256 of each source in ``stamp.json``.

``python -m model.search.native.build`` (``make venv`` runs it). Exit 0 when built; 1 with a one-line
reason when Cython or a C compiler is missing or a module does not compile — the interpreted search is
then used, with the same answers.
"""

from __future__ import annotations

import importlib
import json
import shutil
import sys
import tempfile
from pathlib import Path

from model.search.native import LIB, MODULES, SEARCH, STAMP, source_digest

# Python semantics throughout: annotations are not C types (a 64-bit fingerprint stays a Python int),
# functions keep their introspectable signatures.
DIRECTIVES = {"language_level": 3, "annotation_typing": False, "binding": True}


def build() -> str | None:
    """Build every module; None when done, else why not."""
    try:
        cython_build = importlib.import_module("Cython.Build")
        setuptools = importlib.import_module("setuptools")
    except ImportError as exc:
        return f"Cython or setuptools is not installed ({exc})"
    with tempfile.TemporaryDirectory() as tmp:
        # Cython names a module by its path below the package root, so the sources are compiled where
        # they are, with their generated C and the objects in a scratch folder.
        sources = [str(SEARCH / f"{n}.py") for n in MODULES]
        digests = {n: source_digest(SEARCH / f"{n}.py") for n in MODULES}
        try:
            exts = cython_build.cythonize(sources, compiler_directives=DIRECTIVES, quiet=True,
                                          build_dir=str(Path(tmp) / "c"))
            dist = setuptools.Distribution({"ext_modules": exts, "script_name": "build",
                                            "script_args": ["build_ext", "--build-lib", str(Path(tmp) / "lib"),
                                                            "--build-temp", str(Path(tmp) / "obj")]})
            dist.parse_command_line()
            dist.run_commands()
        except (Exception, SystemExit) as exc:  # a compiler error surfaces as either
            return f"the build failed: {exc}"
        built = Path(tmp) / "lib" / "model" / "search"
        if LIB.exists():
            shutil.rmtree(LIB)
        LIB.mkdir(parents=True)
        for n in MODULES:
            (so,) = built.glob(f"{n}.*")
            shutil.copy2(so, LIB / so.name)
        STAMP.write_text(json.dumps(digests, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return None


def build_kernel() -> str | None:
    """Build the integer-encoded search's successor loop (``kernel.pyx``, C types throughout) into
    ``LIB``; None when done, else why not."""
    try:
        cython_build = importlib.import_module("Cython.Build")
        setuptools = importlib.import_module("setuptools")
    except ImportError as exc:
        return f"Cython or setuptools is not installed ({exc})"
    src = Path(__file__).resolve().parent / "kernel.pyx"
    with tempfile.TemporaryDirectory() as tmp:
        try:
            ext = setuptools.Extension("model.search.native.kernel", [str(src)], extra_compile_args=["-O2"])
            exts = cython_build.cythonize([ext], quiet=True, build_dir=str(Path(tmp) / "c"))
            dist = setuptools.Distribution({"ext_modules": exts, "script_name": "build",
                                            "script_args": ["build_ext", "--build-lib", str(Path(tmp) / "lib"),
                                                            "--build-temp", str(Path(tmp) / "obj")]})
            dist.parse_command_line()
            dist.run_commands()
        except (Exception, SystemExit) as exc:
            return f"the kernel build failed: {exc}"
        (so,) = (Path(tmp) / "lib" / "model" / "search" / "native").glob("kernel.*")
        LIB.mkdir(parents=True, exist_ok=True)
        part = LIB / f"{so.name}.part"  # replaced whole: a process that loaded the old build keeps its mapping
        shutil.copy2(so, part)
        part.replace(LIB / so.name)
        (LIB / "kernel.json").write_text(json.dumps({"kernel": source_digest(src)}) + "\n", encoding="utf-8")
    return None


def main() -> int:
    here = Path.cwd()
    try:
        why = build()
        if why is None:
            why = build_kernel()
    finally:
        for c in [*SEARCH.glob("*.c"), *(SEARCH / "native").glob("kernel.c")]:  # belt and braces
            if c.stem in (*MODULES, "kernel"):
                c.unlink()
    if why is not None:
        print(f"model.search.native: not built, the interpreted search is used: {why}", file=sys.stderr)
        return 1
    where = LIB.relative_to(here) if LIB.is_relative_to(here) else LIB
    print(f"model.search.native: compiled {', '.join(MODULES)} and the kernel into {where}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
