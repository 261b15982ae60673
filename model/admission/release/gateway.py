"""Release (the Parmana paper, Sections 4.4–4.5): the release gate — the only code path in ``model``
that calls a tool of this system (checked by the architecture test). The decision that signs the
authorization is ``decision``; the transaction and refusal records are ``transaction``.

Release, in order: authorization signature under the runtime key, expiry to the instant, request
hash, current policy version and content hash, signals hash and approvals hash, signals and approvals
re-verified and the policy re-evaluated, the tool exists; then the authorization nonce and every
approval nonce are spent atomically, all or none in one transaction; then the signed intent is
stored (no store, no release); then the tool is called (under execution control when the gate has
one: a single-use session and the connector's credential for that call only, its fingerprint in the
record) and the signed, chained execution record written. Every refusal yields a signed refusal
record. The authorization's signature may be classical or hybrid (``hybrid``): the gate's runtime
key decides which is required.
Choices where the source is silent: a tool's exception is recorded as the execution's result (the
release happened); what a tool returns or raises is redacted (execution control's vault, else the
record store's redactor) before it is answered, kept or recorded. A nonce store that fails refuses
(STORE_UNAVAILABLE); one whose rows its key did not write refuses (STORE_TAMPERED); only a store's
failure counts as one (``sealing.store_errors``): any other exception is a bug and is raised. An
execution record that cannot be written after release is kept in ``unwritten`` and written by
``flush``. With ``leasing`` (``model.admission.decision.nonces``), the spend also writes a
reservation (its request sealed at rest) whose token the tool receives as ``idempotencyKey``: a
gateway that saw its commit fail asks whether its own reservation landed and, if so, releases;
``recover`` completes reservations whose holder's lease expired unfinished (the holder was killed,
or could not mark it finished), with the same key, each only as verified when it is used: the
store's ledger must record the reservation and not its finish, the sealed request must open to
the one reserved, and the authorization in it must check under the runtime key and bind that
request, its signals and approvals (expiry and current policy are not re-checked: they held when
the nonces were spent, and the approval is already used).
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from model.admission.decision.evidence import APPROVAL_NAMESPACE
from model.admission.decision.governance import Governance
from model.admission.decision.nonces import Leasing, NonceStore, Reservation
from model.admission.refusal import Refusal, RefusalReason
from model.admission.release.authorization import Authorization, load_authorization
from model.admission.release.decision import Authorized, Runtime, judge
from model.admission.release.execution_control import ExecutionControl
from model.admission.release.transaction import Transaction, load_transaction, record_refusal
from model.admission.signatures.hybrid import DOWNGRADES, PublicKeys, SignatureBad, verify_object
from model.admission.signatures.records import RecordStore
from model.admission.signatures.sealing import Tampered, store_errors
from model.admission.tools import ToolRegistry
from model.base.canonical import JSON, digest, loads
from model.base.errors import InputKind, InvalidInput

AUTHORIZATION_NAMESPACE = "authorization"
__all__ = ["Authorized", "ReleaseGate", "Released", "Runtime", "Transaction", "load_transaction", "record_refusal"]


@dataclass(frozen=True, slots=True)
class Released:
    result: JSON
    intent_record: dict[str, JSON]
    execution_record: dict[str, JSON] | None  # None: not yet written; kept in ``ReleaseGate.unwritten``


class ReleaseGate:
    """The sole release point: re-verifies everything, spends nonces, stores the intent, calls the tool."""

    def __init__(self, gov: Governance, tools: ToolRegistry, runtime_key: bytes | PublicKeys, records: RecordStore,
                 nonces: NonceStore, control: ExecutionControl | None = None, leasing: Leasing | None = None) -> None:
        self.gov, self.tools, self.runtime_key, self.records, self.nonces = gov, tools, runtime_key, records, nonces
        self.control, self.leasing = control, leasing
        # what a tool returns or raises may carry a vault secret: redacted before it is answered or kept
        self.redact: Callable[[JSON], JSON] = (control.redactor() if control is not None
                                              else records.redactor or (lambda v: v))
        self.unwritten: list[tuple[dict[str, JSON], datetime]] = []  # execution context saved right after release

    def release(self, authorization_json: object, tx_json: object, now: datetime) -> Released | Refusal:
        try:
            auth = load_authorization(authorization_json)
            tx = load_transaction(tx_json)
        except InvalidInput as exc:
            return self._refuse(Refusal(RefusalReason.MALFORMED, str(exc)), None, now)
        token = secrets.token_hex(16) if self.leasing else ""
        reservation = None
        if self.leasing is not None:
            request = json.dumps({"authorization": authorization_json, "transaction": tx_json}, sort_keys=True)
            reservation = (Reservation(token, request, self.leasing.holder), time.time() + self.leasing.seconds)
        try:
            checks = self._check(auth, tx, now)
            if isinstance(checks, Refusal):
                return self._refuse(checks, tx, now)
            taken = self.nonces.spend_all(((AUTHORIZATION_NAMESPACE, auth.nonce),
                                           *((APPROVAL_NAMESPACE, n) for n in checks)), now, reservation)
            if taken is not None:
                detail = auth.authorization_id if taken[0] == AUTHORIZATION_NAMESPACE else taken[1]
                return self._refuse(Refusal(RefusalReason.NONCE_SPENT, detail), tx, now)
        except Tampered as exc:  # the nonce store was written by someone without its key: no release
            return self._refuse(Refusal(RefusalReason.STORE_TAMPERED, str(exc)), tx, now)
        except Exception as exc:  # the nonce store is unavailable: single use cannot be shown, so no release
            if not store_errors(exc):
                raise  # a bug is raised, not disguised as an outage
            if not self._landed(token):  # unless this gate's own reservation is found committed
                return self._refuse(Refusal(RefusalReason.STORE_UNAVAILABLE, f"{type(exc).__name__}: {exc}"), tx, now)
        return self._complete(auth, tx, token, now)

    def _landed(self, token: str) -> bool:
        try:
            return self.leasing is not None and self.leasing.store.reserved(token)
        except Exception as exc:  # still unknown: the lease's expiry hands the reservation to ``recover``
            if not store_errors(exc) and not isinstance(exc, Tampered):
                raise
            return False

    def recover(self, now: datetime) -> int:
        """Complete every reservation whose lease expired unfinished; how many this gate completed. Each
        is verified now (``verified_request``; the authorization's signature and the request, signals and
        approvals it binds) and otherwise refused and recorded."""
        if self.leasing is None:
            return 0
        clock = time.time()
        done = 0
        for r in self.leasing.store.take_over(self.leasing.holder, clock, clock + self.leasing.seconds):
            try:
                req = loads(self.leasing.store.verified_request(r.token), "<reservation request>")
                if not isinstance(req, dict):
                    raise InvalidInput("<reservation request>", "an object", type(req).__name__, InputKind.SCHEMA)
                auth, tx = load_authorization(req.get("authorization")), load_transaction(req.get("transaction"))
            except (Tampered, InvalidInput) as exc:
                self._refuse(Refusal(RefusalReason.STORE_TAMPERED, f"reservation {r.token}: {exc}"), None, now)
                continue
            bad = self._bound(auth, tx)
            if bad is not None:
                self._refuse(Refusal(bad.reason, f"reservation {r.token}: {bad.detail}"), tx, now)
                continue
            out = self._complete(auth, tx, r.token, now)
            done += isinstance(out, Released)  # else the lease it now holds expires and a gate tries again
        return done

    def _complete(self, auth: Authorization, tx: Transaction, token: str, now: datetime) -> Released | Refusal:
        body = {"authorizationId": auth.authorization_id, "policyName": auth.policy_name,
                "policyVersion": auth.policy_version, "policyContentHash": auth.policy_content_hash,
                "requestHash": auth.request_hash, "signalsHash": auth.signals_hash, "intent": tx.intent}
        try:
            intent_rec = self.records.append("intent", body, now)
        except Exception as exc:  # no stored intent, no release
            if not store_errors(exc):
                raise
            return Refusal(RefusalReason.INTENT_NOT_STORED, f"{type(exc).__name__}: {exc}")
        result, session = self._invoke(auth, tx, token)
        context = {**body, "intentRecordHash": intent_rec["recordHash"], "result": result, **session}
        try:
            rec: dict[str, JSON] | None = self.records.append("execution", context, now)
        except Exception as exc:  # released but unrecorded: keep the context, ``flush`` writes it later
            if not store_errors(exc):
                raise
            self.unwritten.append((self.redact(context), now))
            rec = None
        if self.leasing is not None:
            try:
                self.leasing.store.finish(token, now)
            except Exception as exc:  # unfinished: after the lease a gate repeats the call with the same key
                if not store_errors(exc):
                    raise
        return Released(self.redact(result), intent_rec, rec)

    def _invoke(self, auth: Authorization, tx: Transaction, key: str) -> tuple[JSON, dict[str, JSON]]:
        """Call the tool: directly, or under execution control (a single-use session and the
        connector's credential for this call only, added to the body the tool sees and never to a record)."""
        action = str(tx.intent["action"])
        intent = {**tx.intent, "idempotencyKey": key} if key else tx.intent
        try:
            if self.control is None:
                return {"ok": self.tools.invoke(action, intent)}, {}
            out = self.control.execute(auth.authorization_id, action,
                                       lambda cred: self.tools.invoke(action, {**intent, "credential": cred}))
        except Exception as exc:  # the release happened; what the tool did is recorded, not hidden (nor its secrets)
            return self.redact({"error": f"{type(exc).__name__}: {exc}"}), {}
        if isinstance(out, Refusal):
            return {"refused": out.reason.value, "detail": out.detail}, {}
        return {"ok": out.result}, {"sessionId": out.session.session_id,
                                    "credentialFingerprint": out.session.credential_fingerprint}

    def _bound(self, auth: Authorization, tx: Transaction) -> Refusal | None:
        """The authorization checks under the runtime key and binds exactly this request, signals and
        approvals (what release checks first, and recovery checks again on what it read back)."""
        sig = verify_object(self.runtime_key, dict(auth.payload), dict(auth.signature))
        if isinstance(sig, SignatureBad):
            why = RefusalReason.SIGNATURE_DOWNGRADE if sig.defect in DOWNGRADES else RefusalReason.BAD_SIGNATURE
            return Refusal(why, f"authorization signature: {sig.defect.value}")
        if digest(tx.intent) != auth.request_hash:
            return Refusal(RefusalReason.CONTENT_HASH, "the request differs from the one authorized")
        if digest(tx.signals) != auth.signals_hash or digest(tx.approvals) != auth.approvals_hash:
            return Refusal(RefusalReason.SIGNALS_CHANGED, "signals or approvals differ from the decision's")
        return None

    def _check(self, auth: Authorization, tx: Transaction, now: datetime) -> tuple[str, ...] | Refusal:
        bad = self._bound(auth, tx)
        if bad is not None and bad.reason in (RefusalReason.BAD_SIGNATURE, RefusalReason.SIGNATURE_DOWNGRADE):
            return bad
        if now >= auth.expires_at:
            return Refusal(RefusalReason.EXPIRED, f"authorization expired at {auth.expires_at.isoformat()}")
        if bad is not None and bad.reason is RefusalReason.CONTENT_HASH:
            return bad
        cur = self.gov.policies.get(auth.policy_name)
        if cur is None or cur.version != auth.policy_version or cur.content_hash != auth.policy_content_hash:
            return Refusal(RefusalReason.POLICY_VERSION, f"{auth.policy_name} v{auth.policy_version} is not current")
        if bad is not None:
            return bad
        j = judge(self.gov, tx, now, self.nonces)
        if isinstance(j, Refusal):
            return j
        if not self.tools.has(str(tx.intent["action"])):
            return Refusal(RefusalReason.UNKNOWN_TOOL, str(tx.intent["action"]))
        return j[2]

    def _refuse(self, r: Refusal, tx: Transaction | None, now: datetime) -> Refusal:
        return record_refusal(self.records, "release", Refusal(r.reason, str(self.redact(r.detail))), tx, now)

    def flush(self) -> int:
        """Write execution records that could not be written at release; the number still unwritten."""
        still: list[tuple[dict[str, JSON], datetime]] = []
        for body, at in self.unwritten:
            try:
                self.records.append("execution", body, at)
            except Exception as exc:  # the store is still down: keep the saved context for the next flush
                if not store_errors(exc):
                    raise
                still.append((body, at))
        self.unwritten = still
        return len(still)
