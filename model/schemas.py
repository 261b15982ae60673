"""Loading JSON Schemas from ``corpus/schemas`` and validating documents against them.

Every JSON loader goes through ``validate``: the first error (by path, deterministic) becomes
``InvalidInput`` naming the JSON path of the offending value and what the schema expected.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

import jsonschema
from jsonschema.exceptions import best_match

from model.errors import InputKind, InvalidInput, Location, json_path

SCHEMA_DIR = Path(__file__).resolve().parent.parent / "corpus" / "schemas"


@functools.cache
def schema(name: str) -> dict[str, Any]:
    path = SCHEMA_DIR / name
    try:
        loaded: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise InvalidInput(str(path), "a JSON Schema shipped with agentwarrant", str(exc), InputKind.IO) from None
    return loaded


def validate(document: object, schema_name: str, source: str = "<input>") -> None:
    validator = jsonschema.Draft202012Validator(schema(schema_name))
    error = best_match(validator.iter_errors(document))
    if error is None:
        return
    where = Location(source=source, json_path=json_path(tuple(error.absolute_path)))
    raise InvalidInput(where, f"a document matching {schema_name} ({error.validator})", error.message,
                       InputKind.SCHEMA)
