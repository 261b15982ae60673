"""Signed records verify offline with only the record and the key; any alteration fails, a key
reordering (the same JSON) does not; chains detect deleted or reordered records."""

from __future__ import annotations

import copy
import json
import uuid
from datetime import UTC, datetime
from pathlib import Path

import pytest

from model.admission.signatures.records import (
    RecordDefect,
    RecordInvalid,
    RecordStore,
    RecordValid,
    chain_heads,
    make_record,
    record_hash,
    records_document,
    verify_chain,
    verify_record,
)
from model.base.canonical import JSON, digest
from model.base.errors import InputKind, InvalidInput
from model.base.signing import KeyPair, format_instant

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
    from model.base.canonical import digest
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


def test_chain_heads_count_each_chained_kind_and_keep_its_last_hash(store: RecordStore) -> None:
    verified = [RecordValid("execution", "e1"), RecordValid("refusal", "r1"), RecordValid("execution", "e2"),
                RecordValid("governance", "g1")]
    assert chain_heads(verified) == {"execution": (2, "e2"), "governance": (1, "g1")}  # refusals are unchained
    for i in range(3):
        store.append("execution", {"i": i}, NOW)
    out = verify_chain(list(store.all()), store.key.public)
    assert isinstance(out, list) and chain_heads(out) == {"execution": (3, out[-1].record_hash)}


# Each refusal of the offline verifier with its defect and the detail a person reads, chain links
# broken one field at a time, and the store's defaults (written against surviving mutants).

def test_malformed_records_are_refused_with_what_was_expected() -> None:
    key = KeyPair.generate("rt")
    rec = make_record(key, "execution", {"amount": 1}, NOW, None, 0)
    shape = (RecordDefect.MALFORMED, "expected keys payload, recordHash, signature")
    kinds = (RecordDefect.MALFORMED, "payload with a known kind and an ed25519 or ed25519+ml-dsa-65 signature")
    assert defect_and_detail(verify_record([], key.public)) == shape
    assert defect_and_detail(verify_record({**rec, "extra": 1}, key.public)) == shape
    assert defect_and_detail(verify_record({**rec, "payload": []}, key.public)) == kinds
    assert defect_and_detail(verify_record({**rec, "payload": {**rec["payload"], "kind": "x"}}, key.public)) == kinds
    assert defect_and_detail(verify_record({**rec, "signature": {"algorithm": "rsa"}}, key.public)) == kinds
    assert defect_and_detail(verify_record({**rec, "signature": "sig"}, key.public)) == kinds


def test_a_number_json_cannot_hold_exactly_is_malformed_at_its_path() -> None:
    key = KeyPair.generate("rt")
    rec = make_record(key, "execution", {"amount": 2**60}, NOW, None, 0)
    assert defect_and_detail(verify_record(rec, key.public)) == (
        RecordDefect.MALFORMED,
        "<record> at $.payload.body.amount: expected an integer within ±(2**53 - 1), found 1152921504606846976")


def test_hash_and_signature_refusals_say_what_failed(store: RecordStore) -> None:
    rec = store.append("refusal", {"reason": "x"}, NOW)
    assert defect_and_detail(verify_record({**rec, "recordHash": "0" * 64}, store.key.public)) == (
        RecordDefect.HASH_MISMATCH, f"payload hashes to {digest(rec['payload'])}")
    assert defect_and_detail(verify_record(rec, KeyPair.generate("other").public)) == (
        RecordDefect.BAD_SIGNATURE, "bad-ed25519: the Ed25519 signature does not verify")


def test_a_chain_link_is_broken_by_a_wrong_prev_or_a_wrong_seq_alone() -> None:
    key = KeyPair.generate("rt")
    first = make_record(key, "execution", {"i": 0}, NOW, None, 0)
    good = make_record(key, "execution", {"i": 1}, NOW, str(first["recordHash"]), 1)
    assert [v.record_hash for v in as_valid(verify_chain([first, good], key.public))] == [
        first["recordHash"], good["recordHash"]]
    wrong_prev = make_record(key, "execution", {"i": 1}, NOW, "f" * 64, 1)
    wrong_seq = make_record(key, "execution", {"i": 1}, NOW, str(first["recordHash"]), 2)
    for bad in (wrong_prev, wrong_seq):
        assert defect_and_detail(verify_chain([first, bad], key.public)) == (
            RecordDefect.BROKEN_CHAIN, "record 1: execution chain expects seq 1")
    assert defect_and_detail(verify_chain([first, {"payload": {}}], key.public)) == (
        RecordDefect.MALFORMED, "record 1: expected keys payload, recordHash, signature")


def test_default_stores_are_private_and_in_memory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    a, b = RecordStore(KeyPair.generate("a")), RecordStore(KeyPair.generate("b"))
    a.append("refusal", {"i": 0}, NOW)
    assert len(a.all()) == 1 and b.all() == []
    assert list(tmp_path.iterdir()) == []  # nothing written to the working directory


def test_a_corrupted_stored_record_is_invalid_input_naming_the_store(store: RecordStore) -> None:
    store.append("refusal", {"i": 0}, NOW)
    with store.db.transaction() as c:
        c.execute("UPDATE records SET record = '{not json'")
    with pytest.raises(InvalidInput) as err:
        store.all()
    assert err.value.location.source == "<record store>"


def defect_and_detail(out: object) -> tuple[RecordDefect, str]:
    assert isinstance(out, RecordInvalid), out
    return out.defect, out.detail


def as_valid(out: object) -> list[RecordValid]:
    assert isinstance(out, list), out
    return out


def test_the_record_wire_format(store: RecordStore) -> None:
    a = store.append("refusal", {"i": 0}, NOW)
    b = store.append("execution", {"i": 1}, NOW)
    for rec in (a, b):
        p, sig = rec["payload"], rec["signature"]
        assert isinstance(p, dict) and isinstance(sig, dict)
        assert set(p) == {"kind", "recordId", "createdAt", "prev", "seq", "body"}
        assert str(uuid.UUID(str(p["recordId"]))) == p["recordId"] and p["createdAt"] == format_instant(NOW)
        assert set(sig) == {"algorithm", "keyId", "value"} and sig["keyId"] == "rt"
    assert a["payload"]["recordId"] != b["payload"]["recordId"]  # type: ignore[index]
    # a refusal is not chained: it carries null links, not empty ones
    assert (a["payload"]["prev"], a["payload"]["seq"]) == (None, None)  # type: ignore[index]
    assert (b["payload"]["prev"], b["payload"]["seq"]) == (None, 0)  # type: ignore[index]


def test_records_document_takes_one_record_or_a_non_empty_list() -> None:
    """What a verifier is handed: one record becomes a one-element list, a list is kept (as a new list);
    an empty list vouches for nothing and is bad input, and so is anything else, naming the place."""
    one: dict[str, JSON] = {"payload": {}}
    assert records_document(one, "f.json") == [one]
    many: list[JSON] = [one, {"payload": {"n": 1}}]
    out = records_document(many, "f.json")
    assert out == many and out is not many
    with pytest.raises(InvalidInput) as empty:
        records_document([], "f.json")
    assert str(empty.value) == "f.json: expected a record or a non-empty list of records, found an empty list"
    assert empty.value.kind is InputKind.VALUE
    with pytest.raises(InvalidInput) as element:
        records_document([one, one, 3], "f.json")
    assert str(element.value) == "f.json at $[2]: expected a record (a JSON object), found int"
    assert element.value.kind is InputKind.SCHEMA
    for doc, found in (("text", "str"), (None, "NoneType"), (7, "int")):
        with pytest.raises(InvalidInput) as other:
            records_document(doc, "f.json")
        assert str(other.value) == f"f.json: expected a record or a non-empty list of records, found {found}"
        assert other.value.kind is InputKind.SCHEMA


def test_record_hash_is_64_hex_digits_read_in_lower_case() -> None:
    h = "ab" * 32
    assert record_hash(h, "--expect-head") == h
    assert record_hash(h.upper(), "--expect-head") == h
    for bad in ("ab" * 31, "ab" * 32 + "0", "g" * 64, " " + "ab" * 32, ""):
        with pytest.raises(InvalidInput) as e:
            record_hash(bad, "--expect-head")
        assert str(e.value) == f"--expect-head: expected a recordHash (64 hexadecimal digits), found {bad!r}"
        assert e.value.kind is InputKind.VALUE
    with pytest.raises(InvalidInput) as number:
        record_hash(5, "--expect-head")  # type: ignore[arg-type]  # a caller's JSON may hold anything
    assert number.value.found == "5"
    with pytest.raises(InvalidInput) as long:
        record_hash("a" * 100, "--expect-head")
    assert long.value.found == repr("a" * 100)[:80]


def test_a_store_with_a_redactor_signs_the_redacted_body_only(tmp_path: Path) -> None:
    seen: list[JSON] = []

    def redact(body: JSON) -> JSON:
        seen.append(body)
        return {"redacted": True}

    store = RecordStore(KeyPair.generate("rt"), str(tmp_path / "r.db"), redactor=redact)
    rec = store.append("execution", {"secret": "s3"}, NOW)
    assert seen == [{"secret": "s3"}]
    assert rec["payload"]["body"] == {"redacted": True}  # type: ignore[index]
    assert store.all() == [rec]
