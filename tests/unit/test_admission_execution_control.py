"""Execution control (``model.admission.release.execution_control``) behind the release gate: one single-use
session per authorization, the connector credential resolved for that call only and never in the
agent's transaction, its fingerprint (not the secret) in the execution record, and every secret
redacted from every signed record, even when the agent pastes it into an intent or the tool echoes
it; a second session and a connector without a credential are refused with named reasons."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from model.admission.decision.api_keys import fingerprint
from model.admission.deployments.release_deployment import Pipeline
from model.admission.refusal import Refusal, RefusalReason
from model.admission.release.execution_control import Executed, ExecutionControl, redact
from model.admission.release.gateway import Authorized, Released, ReleaseGate
from model.admission.signatures.hybrid import public_keys
from model.admission.signatures.records import RecordStore, verify_record
from model.admission.tools import ToolRegistry
from model.base.canonical import JSON
from model.base.errors import InvalidInput

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
SECRET = "paytm-live-key-9f8e7d6c5b4a"


def test_session_is_single_use_and_credentials_must_exist() -> None:
    control = ExecutionControl({"paytm:refund": SECRET})
    seen: list[str] = []
    out = control.execute("auth-1", "paytm:refund", lambda cred: seen.append(cred) or {"echo": cred})
    assert isinstance(out, Executed) and seen == [SECRET]
    assert out.result == {"echo": f"[redacted {fingerprint(SECRET)}]"}
    again = control.execute("auth-1", "paytm:refund", lambda cred: seen.append(cred) or None)
    assert isinstance(again, Refusal) and again.reason is RefusalReason.SESSION_USED and seen == [SECRET]
    missing = control.execute("auth-2", "github:merge", lambda cred: None)
    assert isinstance(missing, Refusal) and missing.reason is RefusalReason.CREDENTIAL_UNAVAILABLE
    assert SECRET not in repr(control.sessions) and control.sessions[0].credential_fingerprint == fingerprint(SECRET)
    with pytest.raises(InvalidInput, match="at least 8"):
        ExecutionControl({"x": "short"})


def test_redaction_reaches_keys_lists_and_substrings() -> None:
    v: JSON = {"a": [f"Bearer {SECRET}", 3, None], SECRET: {"n": SECRET + SECRET}}
    out = redact(v, {"c": SECRET})
    assert SECRET not in json.dumps(out) and fingerprint(SECRET) in json.dumps(out)


def test_release_under_execution_control_records_fingerprints_never_secrets(tmp_path: Path) -> None:
    pipe = Pipeline(tmp_path, NOW)
    control = ExecutionControl({"paytm:refund": SECRET})
    records = RecordStore(pipe.runtime_key, str(tmp_path / "controlled.db"), redactor=control.redactor())
    used: list[str] = []

    def refund(body: JSON) -> JSON:
        assert isinstance(body, dict)
        used.append(str(body["credential"]))
        return {"refunded": True, "debug": f"called with {body['credential']}"}

    gate = ReleaseGate(pipe.gov, ToolRegistry({"paytm:refund": refund}), public_keys(pipe.runtime_key), records,
                       pipe.nonces, control)
    tx = pipe.transaction(approval=pipe.approval())
    tx["intent"]["params"]["note"] = f"agent pasted {SECRET}"  # an agent that got hold of a secret
    tx["signals"]["amount"] = tx["intent"]["params"]["amount"]
    decided = pipe.runtime.decide(tx, NOW)
    assert isinstance(decided, Authorized), decided
    out = gate.release(decided.authorization, tx, NOW)
    assert isinstance(out, Released) and used == [SECRET]
    assert out.execution_record is not None
    body = out.execution_record["payload"]["body"]
    assert body["credentialFingerprint"] == fingerprint(SECRET) and body["sessionId"]
    stored = records.all()
    assert stored and all(SECRET not in json.dumps(r) for r in stored)
    assert all(verify_record(r, pipe.runtime_key.public).__class__.__name__ == "RecordValid" for r in stored)
    assert "credential" not in json.dumps(tx)  # the agent's transaction never carried one
