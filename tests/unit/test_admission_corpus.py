"""corpus/admission: every file validates against its schema in corpus/schemas and loads with the
loader the schema describes; the records verify offline; the SDK-signed approval verifies."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import jsonschema
import pytest

from model.admission.decision.approvals import ApprovalVerified, load_approval, load_registry, verify_approval
from model.admission.decision.signed_policy import load_policy
from model.admission.release.gateway import load_transaction
from model.admission.resumable.envelope import load_request
from model.admission.resumable.tenant_policy import load_tenant_policies
from model.admission.signatures.records import RecordValid, verify_chain, verify_record
from model.base.signing import public_key_from_text

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "corpus" / "admission"
SCHEMAS = ROOT / "corpus" / "schemas"

FILES: dict[str, tuple[str, Callable[[object], object]]] = {
    "refunds.policy.json": ("admission_signed_policy", load_policy),
    "tenant_policies.json": ("admission_tenant_policies", load_tenant_policies),
    "request_publish_report.json": ("admission_request", load_request),
    "approvers.json": ("admission_approvers", load_registry),
    "approval_order-1.json": ("admission_approval", load_approval),
    "transaction_refund.json": ("admission_transaction", load_transaction),
    "record_execution.json": ("admission_record", lambda d: d),
}


def schema(name: str) -> dict[str, object]:
    doc: dict[str, object] = json.loads((SCHEMAS / f"{name}.schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(doc)
    return doc


def test_every_corpus_json_file_is_covered() -> None:
    assert {p.name for p in CORPUS.glob("*.json")} == {*FILES, "records.json"}


@pytest.mark.parametrize("name", sorted(FILES))
def test_corpus_file_validates_against_schema_and_loads(name: str) -> None:
    schema_name, loader = FILES[name]
    doc = json.loads((CORPUS / name).read_text())
    jsonschema.validate(doc, schema(schema_name))
    assert loader(doc) is not None


def test_corpus_records_verify_offline_as_a_chain() -> None:
    key = public_key_from_text((CORPUS / "keys" / "runtime.pub.pem").read_text())
    recs = json.loads((CORPUS / "records.json").read_text())
    for r in recs:
        jsonschema.validate(r, schema("admission_record"))
    out = verify_chain(recs, key)
    assert isinstance(out, list) and [v.kind for v in out].count("execution") == 1
    assert isinstance(verify_record(json.loads((CORPUS / "record_execution.json").read_text()), key), RecordValid)


def test_corpus_sdk_signed_approval_verifies_at_its_issue_instant() -> None:
    a = load_approval(json.loads((CORPUS / "approval_order-1.json").read_text()))
    reg = load_registry(json.loads((CORPUS / "approvers.json").read_text()))
    out = verify_approval(a, action="paytm:refund", resource="order-1", amount=120, now=a.issued_at, registry=reg)
    assert isinstance(out, ApprovalVerified)
