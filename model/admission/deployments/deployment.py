"""A small wired deployment of the resumable-attempt services: the report-publishing trace of
*Policy-Mediated Autonomy with Resumable Action Attempts* as runnable code, used by the CLI demo, the bounded
exploration and the tests.

It owns the mutable shell state the pure core reads: the live ``Authority`` (tests revoke a
credential or a grant between approval and replay) and an effect log (every call a tool really
made, with the authority it ran under), so a test can ask "did an effect happen?" of the world
instead of trusting the service's own answer. Choices: tenant ``acme``, agent principal
``agent-1`` with credential ``cred-1``, approver ``alice``; routes POST /reports/publish
(replayable; policy keys ``publish_report`` and ``share_externally``), POST /credentials/collect
(credential administration: not replayable) and POST /notes (one key ``write_note``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime

from model.admission.resumable.admission_service import AdmissionService
from model.admission.resumable.attempt_store import AttemptStore
from model.admission.resumable.authority import Authority, Credential, Grant
from model.admission.resumable.envelope import Identity, Request
from model.admission.resumable.handler import Handler, Route
from model.admission.resumable.replay import ReplayService
from model.admission.resumable.review import ApprovalService
from model.admission.resumable.tenant_policy import PolicyEffect, PolicySource, TenantPolicies
from model.admission.tools import DependencyUnavailable, Tool, ToolRegistry
from model.base.canonical import JSON

TENANT, AGENT, CRED, APPROVER = "acme", "agent-1", "cred-1", "alice"
EPOCH = datetime(2026, 1, 1, tzinfo=UTC)

ROUTES = {
    ("POST", "/reports/publish"): Route("POST", "/reports/publish", ("publish_report", "share_externally"),
                                        tool="publisher"),
    ("POST", "/credentials/collect"): Route("POST", "/credentials/collect", ("collect_credential",),
                                            tool="collector", replayable=False),
    ("POST", "/notes"): Route("POST", "/notes", ("write_note",), tool="notes"),
}


def default_authority() -> Authority:
    ops = ("publish_report", "share_externally", "collect_credential", "write_note")
    return Authority(
        credentials={CRED: Credential(CRED, AGENT, TENANT, frozenset(ops)),
                     "cred-2": Credential("cred-2", "agent-2", TENANT, frozenset(ops)),
                     "cred-other": Credential("cred-other", AGENT, "globex", frozenset(ops))},
        roles={(TENANT, AGENT): frozenset({"author"}), (TENANT, "agent-2"): frozenset({"author"})},
        required_role={"publish_report": "author"},
        grants=frozenset((TENANT, Grant(p, op, "*")) for p in (AGENT, "agent-2") for op in ops),
        resources=frozenset({(TENANT, "report-7"), (TENANT, "vault"), (TENANT, "note-1")}),
    )


@dataclass
class Effect:
    tool: str
    body: JSON
    authority: Authority  # the live authority at the instant the tool ran


@dataclass
class World:
    """The wired services plus the shell state tests and the explorer poke at."""

    store: AttemptStore
    authority: Authority = field(default_factory=default_authority)
    effects: list[Effect] = field(default_factory=list)
    fail_mode: str = ""  # "" | "dependency" | "timeout-after-commit" | "timeout-before-commit"
    policies: PolicySource = field(default_factory=lambda: TenantPolicies({
        (TENANT, "publish_report"): PolicyEffect.REQUIRE_REVIEW,
        (TENANT, "share_externally"): PolicyEffect.ALLOW,
        (TENANT, "collect_credential"): PolicyEffect.REQUIRE_REVIEW,
    }))

    def __post_init__(self) -> None:
        tools = ToolRegistry({name: self._tool(name) for name in ("publisher", "collector", "notes")})
        self.handler = Handler(tools, lambda: self.authority, self.store)
        self.admission = AdmissionService(ROUTES, self._policies, self.store, self.handler, lambda: self.authority)
        self.approvals = ApprovalService(self.store, {TENANT: frozenset({APPROVER, "bob"})})
        self.replays = ReplayService(ROUTES, self.store, self.handler)

    @property
    def _policies(self) -> PolicySource:
        world = self

        class _Live:  # reads world.policies at lookup time, so tests can swap in a failing source
            def lookup(self, tenant: str, key: str) -> PolicyEffect | None:
                return world.policies.lookup(tenant, key)

        return _Live()

    def _tool(self, name: str) -> Tool:
        def run(body: JSON) -> JSON:
            if self.fail_mode == "dependency":
                raise DependencyUnavailable(f"{name} backend unavailable")
            if self.fail_mode == "timeout-before-commit":
                raise TimeoutError(f"{name} did not answer")
            self.effects.append(Effect(name, body, self.authority))
            if self.fail_mode == "timeout-after-commit":
                raise TimeoutError(f"{name} committed but the answer was lost")
            return {"published": body}

        return run


def publish_request(principal: str = AGENT, credential: str = CRED, tenant: str = TENANT, query: str = "",
                    path: str = "/reports/publish", body: JSON = None) -> Request:
    ident = Identity(tenant, principal, credential, "POST", path, query)
    return Request.of(ident, body if body is not None else {"resource": "report-7", "title": "Q3"})
