"""The invocation envelope of *Policy-Mediated Autonomy with Resumable Action Attempts* ("Admission control is not
execution authority", "Policy evaluation and precedence"): the request identity and the JSON body.

A held attempt stores exactly this value, so that the replay path can resume *that* attempt; its
``Identity`` (tenant, principal, credential, method, path, query) is what a replay request must
match. Choices where the source is silent:
- The query is kept as its canonical text form: pairs sorted by key then value and joined with
  ``&``, so ``b=2&a=1`` and ``a=1&b=2`` are one identity, but any changed pair is another.
- The body is any JSON value, stored as its RFC 8785 text; its SHA-256 is the body digest.
- The resource the effect acts on is named by the route (``Route.resource_field``), read from a
  top-level string field of the body.
"""

from __future__ import annotations

from dataclasses import dataclass

from model.base.canonical import JSON, canonical_str_exact, check_exact_json, digest, loads
from model.base.errors import InputKind, InvalidInput, Location, json_path

_IDENTITY_FIELDS = ("tenant", "principal", "credential", "method", "path", "query")


def canonical_query(query: str) -> str:
    pairs = sorted(tuple(p.split("=", 1)) if "=" in p else (p, "") for p in query.split("&") if p)
    return "&".join(f"{k}={v}" for k, v in pairs)


@dataclass(frozen=True, slots=True)
class Identity:
    """Who asked for what: the binding a saved attempt carries (a changed field is a new attempt)."""

    tenant: str
    principal: str
    credential: str
    method: str
    path: str
    query: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "method", self.method.upper())
        object.__setattr__(self, "query", canonical_query(self.query))

    def to_json(self) -> dict[str, str]:
        return {f: getattr(self, f) for f in _IDENTITY_FIELDS}


@dataclass(frozen=True, slots=True)
class Request:
    """An authenticated invocation: its identity and its JSON body (canonical text)."""

    identity: Identity
    body_text: str

    @staticmethod
    def of(identity: Identity, body: JSON) -> Request:
        return Request(identity, canonical_str_exact(body, "<request body>"))

    @property
    def body(self) -> JSON:
        return loads(self.body_text, "<stored body>")

    @property
    def body_digest(self) -> str:
        return digest(self.body)

    def to_json(self) -> dict[str, JSON]:
        return {"identity": self.identity.to_json(), "body": self.body}


def load_request(obj: object, source: str = "<request>") -> Request:
    """Build a ``Request`` from its JSON form ``{"identity": {...}, "body": ...}``."""
    if not isinstance(obj, dict):
        raise InvalidInput(f"{source} at $", "a JSON object", type(obj).__name__, InputKind.SCHEMA)
    check_exact_json(obj, source)
    extra = set(obj) - {"identity", "body"}
    if extra or "identity" not in obj or "body" not in obj:
        raise InvalidInput(f"{source} at $", "exactly the keys identity, body", repr(sorted(obj)), InputKind.SCHEMA)
    ident = obj["identity"]
    if not isinstance(ident, dict):
        raise InvalidInput(f"{source} at $.identity", "a JSON object", type(ident).__name__, InputKind.SCHEMA)
    fields: dict[str, str] = {}
    for f in _IDENTITY_FIELDS:
        v = ident.get(f, "" if f == "query" else None)
        if not isinstance(v, str) or (f != "query" and not v):
            where = f"{source} at {json_path(('identity', f))}"
            raise InvalidInput(where, "a non-empty string" if f != "query" else "a string", repr(v), InputKind.SCHEMA)
        fields[f] = v
    if set(ident) - set(_IDENTITY_FIELDS):
        raise InvalidInput(f"{source} at $.identity", f"only keys {_IDENTITY_FIELDS}", repr(sorted(ident)),
                           InputKind.SCHEMA)
    try:
        return Request.of(Identity(**fields), obj["body"])
    except InvalidInput as exc:
        raise exc.at(Location(source=source, json_path="$.body" + str(exc.location.json_path or "")[1:])) from None
