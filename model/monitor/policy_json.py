"""The JSON form of policies (placeholder; completed in the next commit)."""

from __future__ import annotations

from model.errors import InputKind, InvalidInput, Location
from model.monitor.policy import Policy


def policy_from_json_text(data: str | bytes, source: str) -> Policy:
    raise InvalidInput(Location(source), "a text policy (the JSON form is not implemented yet)", None, InputKind.IO)
