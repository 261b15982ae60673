"""The compiled search hot path (``model/search/native``): which modules this process runs, and the
compiled and interpreted searches answering the same on every model of ``corpus/search`` — states,
transitions, depth, verdicts with their shortest traces, completions — in the fingerprint mode with and
without sleep sets (the slow tier adds the exact mode and a deeper bound), each build in its own process."""

from __future__ import annotations

import importlib.machinery
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import model.search.expand
import model.search.native as native

ROOT = Path(__file__).resolve().parents[2]


def test_the_status_says_which_modules_run(record_property: pytest.RecordProperty) -> None:
    st = native.status()
    record_property("search_native", f"{st.active} {st.reason}".strip())
    compiled = isinstance(model.search.expand.__loader__, importlib.machinery.ExtensionFileLoader)
    assert ("expand" in st.compiled) == compiled, st
    if os.environ.get(native.ENV) == "0":
        assert st.active == "interpreted" and native.ENV in st.reason
    elif native.STAMP.is_file():
        fresh = json.loads(native.STAMP.read_text()).get("expand") == native.source_digest(
            native.SEARCH / "expand.py")
        assert compiled == fresh, st  # a build is used exactly when it was made from the current source
    else:
        assert st.active == "interpreted" and "not built" in st.reason


def start(compiled: bool, bound: int, exact: bool) -> subprocess.Popen[str]:
    env = {**os.environ, native.ENV: "1" if compiled else "0"}
    return subprocess.Popen([sys.executable, "-m", "model.search.native.differential", str(bound),
                             *([] if exact else ["--no-exact"])], cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True)


def answers(proc: subprocess.Popen[str]) -> tuple[str, list[str]]:
    out, _ = proc.communicate()
    assert proc.returncode == 0
    lines = out.splitlines()
    return json.loads(lines[0])["active"], lines[1:]


def differential(bound: int, exact: bool) -> None:
    if not native.STAMP.is_file():
        pytest.skip("the compiled modules are not built (python -m model.search.native.build)")
    procs = start(True, bound, exact), start(False, bound, exact)  # side by side: two cores
    (active, fast), (plain, slow) = answers(procs[0]), answers(procs[1])
    assert plain == "interpreted"
    assert active == "compiled", "a build exists but is not loaded whole: stale? rebuild it"
    assert len(fast) == len(list((ROOT / "corpus" / "search").glob("*.json"))) - 1  # every model but the manifest
    for a, b in zip(fast, slow, strict=True):
        assert a == b


def test_compiled_and_interpreted_search_agree_on_every_corpus_model() -> None:
    differential(2, exact=False)


if __name__ == "__main__":  # pragma: no cover
    print(native.status())
