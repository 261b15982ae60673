"""The fast schema validator never accepts what the reference refuses (``model/base/schemas.py``).

``validate`` trusts ``jsonschema_rs`` when it says "valid" and otherwise asks ``jsonschema``, so the
one thing that would change a verdict is Rust accepting a document Python refuses. Seeds: every corpus
JSON file the reference accepts under some schema; each example replaces, deletes, duplicates,
retypes or copies one node (``tests/fuzz_mutations.py``), decodes the result through the JSON
boundary and compares the two validators. The other direction (Rust refusing, Python accepting) is
allowed and reported when it happens: the reference's answer stands there.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from model.base.errors import InvalidInput
from model.base.jsonio import decode
from model.base.schemas import SCHEMA_DIR, fast_validator, reference_validator
from tests.fuzz_mutations import _structural

pytest.importorskip("jsonschema_rs", reason="jsonschema-rs is a dependency; without it only the reference runs")

ROOT = Path(__file__).resolve().parents[2]
SCHEMAS = sorted(p.name for p in SCHEMA_DIR.glob("*.schema.json"))


def _seeds() -> dict[str, list[bytes]]:
    out: dict[str, list[bytes]] = {s: [] for s in SCHEMAS}
    for path in sorted((ROOT / "corpus").rglob("*.json")):
        if "schemas" in path.parts or "fuzz" in path.parts:
            continue
        data = path.read_bytes()
        try:
            doc = decode(data, str(path))
        except InvalidInput:
            continue
        for s in SCHEMAS:
            if reference_validator(s).is_valid(doc):
                out[s].append(data)
    return out


SEEDS = _seeds()
WITH_SEEDS = [s for s in SCHEMAS if SEEDS[s]]


def test_most_schemas_have_corpus_seeds() -> None:
    assert len(WITH_SEEDS) >= len(SCHEMAS) - 3, sorted(set(SCHEMAS) - set(WITH_SEEDS))


def _agree(schema: str, data: bytes) -> None:
    try:
        doc = decode(data)
    except InvalidInput:
        return  # refused before any schema sees it
    fast = fast_validator(schema)
    assert fast is not None
    if fast(doc):
        errors = list(reference_validator(schema).iter_errors(doc))
        assert not errors, f"{schema}: jsonschema_rs accepts what jsonschema refuses: {errors[0].message[:300]}\n" \
                           f"document: {json.dumps(doc)[:2000]}"


@pytest.mark.parametrize("schema", WITH_SEEDS)
def test_every_seed_is_accepted_by_both(schema: str) -> None:
    fast = fast_validator(schema)
    assert fast is not None
    for data in SEEDS[schema]:
        assert fast(decode(data)), schema


@pytest.mark.parametrize("schema", WITH_SEEDS)
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_the_fast_validator_never_accepts_what_the_reference_refuses(schema: str, data: st.DataObject) -> None:
    seed = data.draw(st.sampled_from(SEEDS[schema]))
    _agree(schema, data.draw(_structural(seed)))


@pytest.mark.parametrize("value,pattern_ok_for_python", [("abc\n", True), ("abc", True), ("ab c", False)])
def test_the_known_disagreement_is_in_the_safe_direction(value: str, pattern_ok_for_python: bool) -> None:
    # Python's $ matches before a final newline, Rust's does not: Rust refuses, the reference decides.
    import jsonschema_rs
    from jsonschema import Draft202012Validator

    s = {"type": "string", "pattern": "^[a-z]+$"}
    assert Draft202012Validator(s).is_valid(value) is pattern_ok_for_python
    assert jsonschema_rs.validator_for(s).is_valid(value) is (pattern_ok_for_python and not value.endswith("\n"))
