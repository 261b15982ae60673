"""Governance state survives a restart through its signed chain, and a tampered chain is refused."""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest

from model.admission.decision.governance import Governance
from model.admission.deployments.release_deployment import REFUNDS_POLICY, Pipeline
from model.admission.signatures.records import RecordStore
from model.base.errors import InvalidInput

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def test_governed_state_restored_from_signed_chain(tmp_path: Path) -> None:
    pipe = Pipeline(tmp_path, NOW)
    pipe.govern({"kind": "policy", "policy": {**REFUNDS_POLICY, "version": 2}})
    pipe.govern({"kind": "approver", "approver": {"approverId": "alice", "keyId": "alice-key-1",
                                                  "publicKey": pipe.approver_key.public_pem(), "revoked": True}})
    records = RecordStore(pipe.runtime_key, str(tmp_path / "records.db"))  # a fresh process on the same file
    gov = Governance.restore(tmp_path / "policies", pipe.gov.humans, records)
    assert gov.policies == pipe.gov.policies and gov.policies["refunds"].version == 2
    assert gov.registry == pipe.gov.registry and gov.registry.keys[("alice", "alice-key-1")].revoked


def test_tampered_governance_chain_refused_on_restore(tmp_path: Path) -> None:
    pipe = Pipeline(tmp_path, NOW)
    db = sqlite3.connect(tmp_path / "records.db")
    row = db.execute("SELECT id, record FROM records WHERE kind = 'governance' ORDER BY id DESC LIMIT 1").fetchone()
    rec = json.loads(row[1])
    rec["payload"]["body"]["change"]["policy"]["rules"] = rec["payload"]["body"]["change"]["policy"]["rules"][1:]
    db.execute("UPDATE records SET record = ? WHERE id = ?", (json.dumps(rec), row[0]))
    db.commit()
    db.close()
    with pytest.raises(InvalidInput, match="governance chain"):
        Governance.restore(tmp_path / "policies", pipe.gov.humans, RecordStore(pipe.runtime_key,
                                                                               str(tmp_path / "records.db")))
