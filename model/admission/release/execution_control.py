"""Execution control (the Parmana paper, Section 4.4: "Execution control then issues a
single use session and resolves the connector credential for that call only; credentials are never
in the agent's hands, never stored as state, and are redacted to a fingerprint in records").

``ExecutionControl.execute(authorization_id, connector, call)`` opens a session bound to one
authorization, resolves the connector's credential from the vault for that call only, passes it to
``call`` and closes the session; a second use of the session, or a second session for the same
authorization, is refused (SESSION_USED), and a connector with no credential is refused
(CREDENTIAL_UNAVAILABLE) before anything runs. What the control keeps as state is the session ids
and the credential *fingerprints* (``sessions``), never a credential. ``redact`` replaces every
occurrence of any vault secret inside any JSON value by ``[redacted sha256:…]``; the record store
applies it to every record body it signs (``RecordStore(redactor=...)``), so a tool that echoes
its credential into its result, or an agent that pastes one into an intent, leaves only the
fingerprint in the signed record. Choices where the source is silent: the vault is an in-memory
map (a deployment's secret manager stands behind it); secrets shorter than 8 characters are
refused when the vault is built, since redacting them would mangle ordinary text.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from model.admission.decision.api_keys import fingerprint
from model.admission.refusal import Refusal, RefusalReason
from model.base.canonical import JSON
from model.base.errors import InputKind, InvalidInput

MIN_SECRET = 8


@dataclass(frozen=True, slots=True)
class Session:
    session_id: str
    authorization_id: str
    connector: str
    credential_fingerprint: str


@dataclass(frozen=True, slots=True)
class Executed:
    session: Session
    result: JSON  # already redacted


def redact(value: JSON, secrets: Mapping[str, str]) -> JSON:
    """``value`` with every secret (a vault value) replaced by its fingerprint, at any depth, in keys too."""
    if isinstance(value, str):
        for s in sorted(secrets.values(), key=len, reverse=True):
            if s in value:
                value = value.replace(s, f"[redacted {fingerprint(s)}]")
        return value
    if isinstance(value, list):
        return [redact(v, secrets) for v in value]
    if isinstance(value, dict):
        return {str(redact(k, secrets)): redact(v, secrets) for k, v in value.items()}
    return value


class ExecutionControl:
    def __init__(self, vault: Mapping[str, str]) -> None:
        for name, secret in vault.items():
            if not isinstance(secret, str) or len(secret) < MIN_SECRET:
                raise InvalidInput(f"vault[{name!r}]", f"a credential of at least {MIN_SECRET} characters",
                                   "a shorter value", InputKind.VALUE)
        self._vault = dict(vault)
        self._lock = threading.Lock()
        self._used: set[str] = set()  # authorization ids that have had their session
        self.sessions: list[Session] = []  # the control's only state: ids and fingerprints

    def redactor(self) -> Callable[[JSON], JSON]:
        return lambda body: redact(body, self._vault)

    def execute(self, authorization_id: str, connector: str, call: Callable[[str], JSON]) -> Executed | Refusal:
        with self._lock:
            if authorization_id in self._used:
                return Refusal(RefusalReason.SESSION_USED, f"authorization {authorization_id} had its session")
            secret = self._vault.get(connector)
            if secret is None:
                return Refusal(RefusalReason.CREDENTIAL_UNAVAILABLE, f"no credential for {connector}")
            self._used.add(authorization_id)
            session = Session(str(uuid.uuid4()), authorization_id, connector, fingerprint(secret))
            self.sessions.append(session)
        result = call(secret)  # the credential exists only for this call
        return Executed(session, redact(result, self._vault))
