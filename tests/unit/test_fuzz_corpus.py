"""Replays every minimized failure the boundary fuzz campaign found (corpus/fuzz/<target>/<file>): each
once raised something other than ``InvalidInput`` or crashed a command, and must now get a value, a
verdict or one bad-input line (tests/fuzz_targets.py). Also a few hand-written boundary cases per
loader: the values a JSON reader commonly gets wrong (4,300-digit integers, 2^53 + 1, lone surrogates)."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest

from model.base.errors import InvalidInput
from tests.fuzz_targets import TARGETS, Target, check, saved_failures

SAVED = saved_failures()


def test_the_regression_corpus_is_not_empty() -> None:
    assert len(SAVED) >= 5, "the campaign's minimized failures are kept under corpus/fuzz/<target>/"


@pytest.mark.parametrize(("name", "path"), SAVED, ids=[f"{n}/{p.name}" for n, p in SAVED])
def test_saved_failure_now_gets_an_answer(name: str, path: Path) -> None:
    check(TARGETS[name], path.read_bytes())


_ISSUE_CASES = [b"1" * 4301, b"9007199254740993", b"18446744073709551616", b'"\\ud800"', b"1e400",
                b"0.10000000000000000001", b"NaN"]
_HOLE = "\u2603HOLE\u2603"


def _first_leaf_replaced(doc: object) -> object:
    """``doc`` with its first scalar (depth first) replaced by the placeholder string."""
    if isinstance(doc, dict) and doc:
        k = next(iter(doc))
        return {**doc, k: _first_leaf_replaced(doc[k])}
    if isinstance(doc, list) and doc:
        return [_first_leaf_replaced(doc[0]), *doc[1:]]
    return _HOLE


JSON_LOADERS = sorted(n for n, t in TARGETS.items() if not t.cli and t.seeds[0].suffix == ".json")


@pytest.mark.parametrize("name", JSON_LOADERS)
def test_issue_values_are_refused_by_every_json_loader(name: str) -> None:
    """Each value a JSON reader commonly gets wrong, in place of the first value of the loader's seed:
    refused with its place."""
    target = TARGETS[name]
    text = json.dumps(_first_leaf_replaced(json.loads(target.seeds[0].read_bytes())))
    for bad in _ISSUE_CASES:
        data = text.replace(json.dumps(_HOLE), bad.decode()).encode()
        with pytest.raises(InvalidInput) as info:
            run(target, data)
        assert info.value.location.line == 1 and info.value.location.json_path is not None, str(info.value)
        check(target, data)


def test_issue_values_are_refused_in_the_text_policy_with_line_and_column() -> None:
    seed = (Path(__file__).resolve().parents[2] / "corpus" / "policies" / "report.policy").read_text()
    assert "quota 1" in seed and '"Alice"' in seed
    for old, bad in (("quota 1", "quota " + "1" * 4301), ("quota 1", "quota 9007199254740993"),
                     ('"Alice"', '"\\ud800"'), ("quota 1", "quota 1e400")):
        text = seed.replace(old, bad, 1)
        line = seed[:seed.index(old)].count("\n") + 1
        with pytest.raises(InvalidInput) as info:
            run(TARGETS["policy_text"], text.encode())
        assert info.value.location.line == line and info.value.location.column is not None, str(info.value)


def run(target: Target, data: bytes) -> object:
    with tempfile.TemporaryDirectory() as d:
        return target.run(data, Path(d))
