"""The oracle's plumbing: malformed requests are tagged errors, never verdicts; the corpus agrees.

Checks that a line that is not JSON, a request without a judgment, an unknown judgment and an
input missing a key each come back as an ``error`` of the right kind, that the client raises
``OracleError`` for them, and that every edit instance of corpus/edits/ agrees on all modes.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from model.edits.check.load_instance import load_instance
from model.oracle.drt import Agree, run_edit_check
from model.oracle.lean import LeanOracle, OracleError

pytestmark = pytest.mark.lean
ROOT = Path(__file__).resolve().parent.parent.parent


@pytest.mark.parametrize(("line", "kind"), [
    ("this is not json", "parse"),
    ('{"id": 1, "input": {}}', "request"),
    ('{"id": 2, "judgment": "nonsense", "input": {}}', "unknown_judgment"),
    ('{"id": 3, "judgment": "resolve", "input": {"act": [0], "word": [0]}}', "input"),
    ('{"id": 4, "judgment": "ledger_allocate", "input": {"user": [{"allow": 1}], "app": [], "effects": 0}}', "input"),
])
def test_malformed_requests_are_tagged_errors(oracle: LeanOracle, line: str, kind: str) -> None:
    resp = oracle.raw(line)
    assert "output" not in resp
    assert resp["error"]["kind"] == kind


def test_client_raises_on_plumbing_errors(oracle: LeanOracle) -> None:
    with pytest.raises(OracleError) as exc:
        oracle.call("resolve", {"act": [0]})
    assert exc.value.kind == "input"
    with pytest.raises(OracleError) as exc:
        oracle.call("no_such_judgment", {})
    assert exc.value.kind == "unknown_judgment"
    # the process survives a bad request
    assert oracle.call("resolve", {"act": [0, 0], "authorized": [], "word": [0, 1]})["word"] == [
        [0, 0, True], [1, 0, False]]


@pytest.mark.parametrize("path", sorted((ROOT / "corpus" / "edits").glob("*.json")), ids=lambda p: p.name)
def test_corpus_edit_instances_agree(oracle: LeanOracle, path: Path) -> None:
    res = run_edit_check(oracle, load_instance(path))
    assert isinstance(res, Agree), res
    if path.name.startswith("prefix_invalid"):  # the oracle now judges well-formedness too
        assert res.kind == "invalid:complete-prefixes-another", res
