"""Signed records verify offline with only the record and the key; any alteration fails, a key
reordering (the same JSON) does not; chains detect deleted or reordered records."""

from __future__ import annotations

import copy
import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from model.admission.records import RecordDefect, RecordInvalid, RecordStore, RecordValid, verify_chain, verify_record
from model.admission.signing import KeyPair
from model.canonical import JSON

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


@pytest.fixture
def store(tmp_path: Path) -> RecordStore:
    return RecordStore(KeyPair.generate("rt"), str(tmp_path / "r.db"))


def reorder(value: JSON) -> JSON:
    if isinstance(value, dict):
        return {k: reorder(value[k]) for k in reversed(list(value))}
    if isinstance(value, list):
        return [reorder(v) for v in value]
    return value


def test_record_verifies_offline_and_with_reordered_keys(store: RecordStore) -> None:
    rec = store.append("execution", {"amount": 120, "order": "order-1", "nested": {"b": 1, "a": [1, 2]}}, NOW)
    text = json.dumps(reorder(rec))
    assert text != json.dumps(rec)
    assert isinstance(verify_record(json.loads(text), store.key.public), RecordValid)


@pytest.mark.parametrize("path", [("payload", "body", "amount"), ("payload", "createdAt"), ("payload", "kind"),
                                  ("payload", "prev"), ("recordHash",)])
def test_altered_record_fails_offline_verification(store: RecordStore, path: tuple[str, ...]) -> None:
    rec = store.append("execution", {"amount": 120}, NOW)
    bad = copy.deepcopy(rec)
    target = bad
    for p in path[:-1]:
        target = target[p]
    target[path[-1]] = {"amount": 121, "createdAt": "2026-03-01T12:00:00.001Z", "kind": "refusal",
                        "prev": "f" * 64, "recordHash": "0" * 64}[path[-1]]
    out = verify_record(bad, store.key.public)
    assert isinstance(out, RecordInvalid) and out.defect in (RecordDefect.HASH_MISMATCH, RecordDefect.BAD_SIGNATURE)


def test_altered_record_with_recomputed_hash_fails_signature(store: RecordStore) -> None:
    from model.canonical import digest
    rec = store.append("execution", {"amount": 120}, NOW)
    rec["payload"]["body"]["amount"] = 1
    rec["recordHash"] = digest(rec["payload"])
    out = verify_record(rec, store.key.public)
    assert isinstance(out, RecordInvalid) and out.defect is RecordDefect.BAD_SIGNATURE


def test_record_under_another_key_fails(store: RecordStore) -> None:
    rec = store.append("refusal", {"reason": "x"}, NOW)
    out = verify_record(rec, KeyPair.generate("other").public)
    assert isinstance(out, RecordInvalid) and out.defect is RecordDefect.BAD_SIGNATURE


def test_chain_detects_deleted_and_reordered_executions(store: RecordStore) -> None:
    for i in range(4):
        store.append("execution", {"i": i}, NOW)
        store.append("refusal", {"i": i}, NOW)
    recs: list[object] = list(store.all())
    assert isinstance(verify_chain(recs, store.key.public), list)
    deleted = [r for r in recs if not (isinstance(r, dict) and r["payload"]["seq"] == 1)]
    swapped = list(recs)
    swapped[0], swapped[2] = swapped[2], swapped[0]
    for bad in (deleted, swapped):
        out = verify_chain(bad, store.key.public)
        assert isinstance(out, RecordInvalid) and out.defect is RecordDefect.BROKEN_CHAIN
