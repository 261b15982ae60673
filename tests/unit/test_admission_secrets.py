"""No secret at rest or in any answer: a vault credential the agent pastes into its intent, that the
tool echoes in its error, and that appears as a key of a malformed request, is found nowhere — not
in any byte of any store file (the SQLite files with their -wal, or a dump of every table of the
PostgreSQL schemas), not in what the gate answers (results, refusal details), not in any record,
not in the text of the errors the stores raise. A request body held for review is sealed at rest too."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from model.admission.decision.nonces import Leasing, Reservation
from model.admission.deployments.deployment import APPROVER, EPOCH, World, publish_request
from model.admission.deployments.release_deployment import Pipeline
from model.admission.deployments.tamper_rows import Target
from model.admission.refusal import Refusal, RefusalReason
from model.admission.release.authorization import load_authorization
from model.admission.release.execution_control import ExecutionControl
from model.admission.release.gateway import Authorized, Released, ReleaseGate, Runtime
from model.admission.resumable.admission_service import Held
from model.admission.resumable.attempt_store import AttemptStore
from model.admission.signatures.hybrid import public_keys
from model.admission.signatures.records import RecordStore
from model.admission.signatures.sealing import Tampered
from model.admission.tools import ToolRegistry
from model.base.canonical import JSON

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
SECRET = "sk-live-PLANTED-9f8e7d6c5b4a3210"


def _files_without_secret(root: Path) -> list[Path]:
    files = [f for f in root.rglob("*") if f.is_file()]
    leaks = [f for f in files if SECRET.encode() in f.read_bytes()]
    assert not leaks, leaks
    return files


def test_a_planted_secret_is_nowhere_at_rest_in_answers_or_errors(store_target: tuple[str, str | None],
                                                                  tmp_path: Path) -> None:
    target, schema = store_target
    (tmp_path / "p").mkdir()
    pipe = Pipeline(tmp_path / "p", NOW, nonces_at=target, nonces_schema=schema)
    control = ExecutionControl({"paytm:refund": SECRET})
    records = RecordStore(pipe.runtime_key, str(tmp_path / "gate-records.db"), redactor=control.redactor())
    seen: list[JSON] = []

    def refund(intent: JSON) -> JSON:
        assert isinstance(intent, dict)
        seen.append(intent)
        raise RuntimeError(f"upstream refused credential {intent['credential']} ({intent['params']})")

    def gate(holder: str) -> ReleaseGate:
        return ReleaseGate(pipe.gov, ToolRegistry({"paytm:refund": refund}), public_keys(pipe.runtime_key), records,
                           pipe.nonces, control=ExecutionControl({"paytm:refund": SECRET}),
                           leasing=Leasing(pipe.nonces, holder, 60.0))

    runtime = Runtime(pipe.gov, records, pipe.nonces)
    answers: list[object] = []

    def authorized(i: int) -> tuple[dict[str, JSON], dict[str, JSON]]:
        tx = pipe.transaction(order=f"order-{i}", approval=pipe.approval(order=f"order-{i}", nonce=f"n-{i}"))
        intent = tx["intent"]
        assert isinstance(intent, dict) and isinstance(intent["params"], dict)
        intent["params"]["note"] = f"the key is {SECRET}"  # pasted by the agent
        out = runtime.decide(tx, NOW)
        assert isinstance(out, Authorized), out
        return out.authorization, tx

    auth, tx = authorized(1)
    out = gate("gw-a").release(auth, tx, NOW)
    assert isinstance(out, Released) and "error" in str(out.result)
    answers += [out.result, out.intent_record, out.execution_record]
    answers.append(gate("gw-a").release(auth, tx, NOW))  # refused: spent
    answers.append(gate("gw-a").release(auth, {"intent": {SECRET: 1}, "signals": {}}, NOW))  # malformed
    answers.append(runtime.decide({"intent": {"action": "x", SECRET: 2}, "signals": {}}, NOW))
    # a gateway killed after spending: its reservation (the request with the pasted secret) is recovered
    auth2, tx2 = authorized(2)
    request = json.dumps({"authorization": auth2, "transaction": tx2}, sort_keys=True)
    spent = [("authorization", load_authorization(auth2).nonce), ("approval", "alice/n-2")]
    assert pipe.nonces.spend_all(spent, NOW, (Reservation("tok-dead", request, "gw-dead"), 0.0)) is None
    assert gate("gw-b").recover(NOW) == 1
    answers += records.all()
    # the errors the stores raise when their rows are tampered with
    auth3, tx3 = authorized(3)
    request3 = json.dumps({"authorization": auth3, "transaction": tx3}, sort_keys=True)
    spent3 = [("authorization", load_authorization(auth3).nonce), ("approval", "alice/n-3")]
    assert pipe.nonces.spend_all(spent3, NOW, (Reservation("tok-3", request3, "gw-dead"), 0.0)) is None
    Target(target, schema).sql("UPDATE reservations SET request = '{}' WHERE token = 'tok-3'")
    with pytest.raises(Tampered) as info:
        pipe.nonces.verify()
    answers.append(str(info.value))
    answers += [r.detail for r in answers if isinstance(r, Refusal)]
    assert {r.reason for r in answers if isinstance(r, Refusal)} >= {RefusalReason.NONCE_SPENT, RefusalReason.MALFORMED}
    assert len(seen) == 2 and all(SECRET in str(s) for s in seen)  # the tool did get the credential and the note
    leaks = [a for a in answers if SECRET in repr(a)]
    assert not leaks, leaks
    _files_without_secret(tmp_path)
    if schema is not None:
        dump = Target(target, schema).dump(("spent", "reservations", "ledger", "heads"))
        assert SECRET not in repr(dump)


def test_a_held_body_is_sealed_at_rest(store_target: tuple[str, str | None], tmp_path: Path) -> None:
    target, schema = store_target
    w = World(AttemptStore(target, schema))
    held = w.admission.submit(publish_request(body={"resource": "report-7", "title": SECRET}), EPOCH)
    assert isinstance(held, Held)
    assert not isinstance(w.approvals.decide(held.attempt_id, APPROVER, True, EPOCH), Refusal)
    att = w.store.get(held.attempt_id)
    assert att is not None and SECRET in att.request.body_text  # read back, opened
    w.store.close()
    if schema is None:
        assert _files_without_secret(Path(target).parent)
    else:
        dump: Any = Target(target, schema).dump(("attempts", "reviews", "ledger", "heads"))
        assert dump["attempts"] and SECRET not in repr(dump)
