"""Coverage-guided fuzzing of the parsers with atheris, where atheris installs.

    .venv/bin/pip install -e '.[fuzz]'         # atheris builds from source; it needs clang and libFuzzer
    .venv/bin/python -m tests.fuzz.atheris_boundary TARGET [-runs=N] [-max_total_time=S] [CORPUS_DIR ...]

TARGET is any name of tests/fuzz_targets.TARGETS (policy_text, policy_json, edit_instance, ...). The
harness feeds the target's seeds first, then libFuzzer's mutations; any exception other than
``InvalidInput`` (for a command: an exit code outside 0..3 or a traceback) is a crash, and libFuzzer
writes the input to ``crash-<sha1>``: minimize it (``-minimize_crash=1``), then keep it as
corpus/fuzz/TARGET/<name>, which tests/unit/test_fuzz_corpus.py replays on every test run.
tests/slow/test_atheris_harness.py runs a few hundred inputs through this harness when atheris
imports, and is skipped (with the reason) when it does not.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from tests.fuzz_targets import TARGETS, check, seed_bytes


def one_input(name: str) -> object:
    target = TARGETS[name]

    def test_one_input(data: bytes) -> None:
        check(target, data)

    return test_one_input


def main(argv: list[str]) -> None:
    import atheris

    if len(argv) < 2 or argv[1] not in TARGETS:
        sys.exit(f"usage: python -m tests.fuzz.atheris_boundary TARGET [libFuzzer options]; TARGET in "
                 f"{', '.join(sorted(TARGETS))}")
    name = argv[1]
    with atheris.instrument_imports():  # coverage feedback from the parsers and loaders
        import model.base.jsonio
        import model.base.schemas
        import model.monitor.language.syntax
    del model
    options = [a for a in argv[2:] if a.startswith("-")]
    dirs = [a for a in argv[2:] if not a.startswith("-")]
    if not dirs:  # start from the target's seeds, which must pass before mutation starts
        seeds = Path(tempfile.mkdtemp(prefix=f"atheris-{name}-"))
        for i, data in enumerate(seed_bytes(TARGETS[name])):
            check(TARGETS[name], data)
            (seeds / f"seed{i}").write_bytes(data)
        dirs = [str(seeds)]
    atheris.Setup([argv[0], *options, *dirs], one_input(name))
    atheris.Fuzz()


if __name__ == "__main__":
    main(sys.argv)
