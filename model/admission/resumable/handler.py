"""The effect-owning handler E (*Policy-Mediated Autonomy with Resumable Action Attempts*, "Requester, approver, and
executor separation"): it acts under the requester's *current* authority and records a typed result.

Called for an allowed attempt right after admission and for an approved attempt on replay. It
re-resolves the requester's credential and re-checks role, scope, grant and resource at dispatch
time (the TOCTOU gap of the source is closed at this check, not beyond it), then calls the tool
and maps what happened to a typed result. Choices where the source is silent:
- A refusal by the live check records FAILED with the ``LiveDenial`` as its result text.
- ``DependencyUnavailable`` records DEPENDENCY_FAILED; ``TimeoutError`` records UNCERTAIN
  (the commit may have happened; we never retry — retry belongs to the tool's idempotency
  contract). Any other exception from a tool is also UNCERTAIN: we cannot know what it did.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from model.admission.resumable.attempt_store import AttemptStore
from model.admission.resumable.attempts import Event
from model.admission.resumable.authority import Authority, LiveDenial, authorize
from model.admission.resumable.envelope import Request
from model.admission.tools import DependencyUnavailable, ToolRegistry
from model.base.canonical import JSON, canonical_str


class ResultKind(enum.Enum):
    COMPLETED = "completed"
    FAILED = "failed"
    DEPENDENCY_FAILURE = "dependency-failure"
    UNCERTAIN = "uncertain"


@dataclass(frozen=True, slots=True)
class ExecutionResult:
    kind: ResultKind
    output: JSON = None
    denial: LiveDenial | None = None
    detail: str = ""


@dataclass(frozen=True, slots=True)
class Route:
    """A route: the tool operations it represents (its policy keys), whether a hold can be
    replayed, which body field names the resource, and which tool performs its effect."""

    method: str
    path: str
    operations: tuple[str, ...]
    tool: str
    resource_field: str = "resource"
    replayable: bool = True
    permit: str | None = None  # the permit kind its contract requires of a permit holder (``permits``)


def resource_of(route: Route, body: JSON) -> str:
    v = body.get(route.resource_field) if isinstance(body, dict) else None
    return v if isinstance(v, str) else ""


class Handler:
    def __init__(self, tools: ToolRegistry, authority: Callable[[], Authority], store: AttemptStore) -> None:
        self.tools = tools
        self.authority = authority
        self.store = store

    def execute(self, attempt_id: str, route: Route, request: Request, now: datetime) -> ExecutionResult:
        """The attempt is already EXECUTING (claimed by the caller); check, dispatch, record."""
        i = request.identity
        body = request.body
        denial = authorize(self.authority(), i.tenant, i.principal, i.credential, route.operations,
                           resource_of(route, body), now)
        if denial is not None:
            res = ExecutionResult(ResultKind.FAILED, denial=denial, detail=denial.value)
            self.store.advance(attempt_id, Event.FAIL, result=_text(res))
            return res
        try:
            out = self.tools.invoke(route.tool, body)
        except DependencyUnavailable as exc:
            res = ExecutionResult(ResultKind.DEPENDENCY_FAILURE, detail=str(exc))
            self.store.advance(attempt_id, Event.DEPENDENCY_FAIL, result=_text(res))
            return res
        except Exception as exc:  # TimeoutError and anything else: the effect may have happened
            res = ExecutionResult(ResultKind.UNCERTAIN, detail=f"{type(exc).__name__}: {exc}")
            self.store.advance(attempt_id, Event.TIME_OUT, result=_text(res))
            return res
        res = ExecutionResult(ResultKind.COMPLETED, output=out)
        self.store.advance(attempt_id, Event.COMPLETE, result=_text(res))
        return res


def _text(res: ExecutionResult) -> str:
    return canonical_str({"kind": res.kind.value, "detail": res.detail})
