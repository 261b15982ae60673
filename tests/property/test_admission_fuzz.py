"""Fuzzing of the admission input boundary: every admission loader and verifier, fed arbitrary bytes, arbitrary
JSON, or a valid document with one subtree replaced or removed, either succeeds, raises
``InvalidInput``, or returns a typed refusal/verdict — never any other exception."""

from __future__ import annotations

import atexit
import copy
import os
import shutil
import tempfile
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from model.admission.decision.approvals import ApprovalVerified, load_approval, load_registry
from model.admission.decision.evidence import verify_approval_evidence
from model.admission.decision.governance import Proposal
from model.admission.decision.nonces import SqliteNonceStore
from model.admission.decision.signed_policy import Approve, evaluate, load_policy
from model.admission.deployments.release_deployment import REFUNDS_POLICY, Pipeline
from model.admission.refusal import Refusal
from model.admission.release.authorization import load_authorization
from model.admission.release.gateway import Authorized, Released, load_transaction
from model.admission.resumable.envelope import load_request
from model.admission.resumable.tenant_policy import load_tenant_policies
from model.admission.signatures.records import RecordInvalid, RecordStore, RecordValid, verify_chain, verify_record
from model.base.canonical import load_file
from model.base.errors import InvalidInput
from model.base.signing import KeyPair, public_key_from_text
from model.oracle.generators import json_paths

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
_DIR = Path(tempfile.mkdtemp(prefix="admission-fuzz-"))
# The pipeline must exist at import (the strategies below are built from its documents), so no pytest
# fixture can own the directory; without this every run left one behind in /tmp.
atexit.register(shutil.rmtree, _DIR, ignore_errors=True)
PIPE = Pipeline(_DIR, NOW)
TX = PIPE.transaction(approval=PIPE.approval())
AUTH = PIPE.runtime.decide(TX, NOW)
assert isinstance(AUTH, Authorized)
RECORD = RecordStore(PIPE.runtime_key).append("execution", {"amount": 1, "x": [1, {"y": None}]}, NOW)
POLICY = load_policy(REFUNDS_POLICY)
REQUEST = {"identity": {"tenant": "acme", "principal": "a", "credential": "c", "method": "POST", "path": "/p",
                        "query": "a=1"}, "body": {"resource": "r"}}
TENANT = [{"tenant": "acme", "policies": {"publish_report": "require-review", "x": "deny"}}]
REGISTRY = [{"approverId": "alice", "keyId": "k", "publicKey": KeyPair.generate("k").public_pem()}]

scalars = st.one_of(st.none(), st.booleans(), st.integers(-(2**64), 2**64), st.floats(), st.text(max_size=12))
json_values = st.recursive(scalars, lambda c: st.one_of(st.lists(c, max_size=4),
                                                        st.dictionaries(st.text(max_size=8), c, max_size=4)),
                           max_leaves=20)




@st.composite
def mutated(draw: st.DrawFn, valid: Any) -> Any:
    """A valid document with one subtree replaced by arbitrary JSON, or removed."""
    doc = copy.deepcopy(valid)
    where = draw(st.sampled_from(json_paths(doc)))
    if not where:
        return draw(json_values)
    parent = doc
    for p in where[:-1]:
        parent = parent[p]
    if draw(st.booleans()) and isinstance(parent, dict):
        del parent[where[-1]]
    else:
        parent[where[-1]] = draw(json_values)
    return doc


def inputs(valid: Any) -> st.SearchStrategy[Any]:
    return st.one_of(json_values, mutated(valid))


def only_typed(fn: Callable[[Any], object], ok: tuple[type, ...]) -> Callable[[Any], None]:
    def run(doc: Any) -> None:
        try:
            out = fn(doc)
        except InvalidInput:
            return
        assert ok == () or isinstance(out, ok), out
    return run


FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FUZZ
@given(st.binary(max_size=200))
def test_bytes_into_every_loader_are_json_or_invalid_input(data: bytes) -> None:
    f = _DIR / f"in-{os.getpid()}.json"
    f.write_bytes(data)
    for loader in (load_request, load_tenant_policies, load_approval, load_registry, load_policy, load_authorization,
                   load_transaction):
        only_typed(lambda d, ld=loader: ld(load_file(str(f))) if d else None, ())(data)
    only_typed(lambda _d: verify_record(load_file(str(f)), PIPE.runtime_key.public), (RecordValid, RecordInvalid))(data)


@FUZZ
@given(inputs(REQUEST))
def test_fuzz_envelope_loader(doc: Any) -> None:
    only_typed(load_request, ())(doc)


@FUZZ
@given(inputs(TENANT))
def test_fuzz_tenant_policy_loader(doc: Any) -> None:
    only_typed(load_tenant_policies, ())(doc)


@FUZZ
@given(inputs(REGISTRY))
def test_fuzz_approver_registry_loader(doc: Any) -> None:
    only_typed(load_registry, ())(doc)


@FUZZ
@given(inputs(REFUNDS_POLICY))
def test_fuzz_signed_policy_loader_and_governance_proposal(doc: Any) -> None:
    only_typed(load_policy, ())(doc)
    out = PIPE.gov.propose({"kind": "policy", "policy": doc}, "maker-cred")
    assert isinstance(out, Proposal | Refusal)


@FUZZ
@given(inputs(TX["approvals"]["managerApproved"]))
def test_fuzz_approval_verifier(doc: Any) -> None:
    out = verify_approval_evidence(doc, action="paytm:refund", resource="order-1", amount=1, now=NOW,
                                   registry=PIPE.gov.registry, nonce_store=SqliteNonceStore(), spend=False)
    assert isinstance(out, ApprovalVerified | Refusal)


@FUZZ
@given(inputs(TX))
def test_fuzz_decision_and_policy_evaluation(doc: Any) -> None:
    assert isinstance(PIPE.runtime.decide(doc, NOW), Authorized | Refusal)
    try:
        tx = load_transaction(doc)
    except InvalidInput:
        return
    assert isinstance(evaluate(POLICY, tx.intent, tx.signals, frozenset()), Approve | Refusal)


@FUZZ
@given(inputs(AUTH.authorization), inputs(TX))
def test_fuzz_release_gate(auth: Any, tx: Any) -> None:
    assert isinstance(PIPE.gate.release(auth, tx, NOW), Released | Refusal)


@FUZZ
@given(inputs(RECORD))
def test_fuzz_offline_record_verifier(doc: Any) -> None:
    assert isinstance(verify_record(doc, PIPE.runtime_key.public), RecordValid | RecordInvalid)
    assert isinstance(verify_chain([RECORD, doc], PIPE.runtime_key.public), list | RecordInvalid)


@FUZZ
@given(st.one_of(st.text(max_size=200), st.just(REGISTRY[0]["publicKey"]).map(lambda s: s[:-40] + "A" * 40)))
def test_fuzz_public_key_loader(text: str) -> None:
    only_typed(public_key_from_text, ())(text)
