"""Loading JSON Schemas from ``corpus/schemas`` and validating documents against them.

Every JSON loader goes through ``validate``: the first error (by path, deterministic) becomes
``InvalidInput`` naming the JSON path of the offending value and what the schema expected.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import jsonschema
from jsonschema.exceptions import best_match

from model.errors import InputKind, InvalidInput, Location, json_path
from model.jsonio import load_file, printable

SCHEMA_DIR = Path(__file__).resolve().parent.parent / "corpus" / "schemas"


@functools.cache
def schema(name: str) -> dict[str, Any]:
    loaded: dict[str, Any] = load_file(SCHEMA_DIR / name)
    return loaded


def validate(document: object, schema_name: str, source: str = "<input>") -> None:
    validator = jsonschema.Draft202012Validator(schema(schema_name))
    error = best_match(validator.iter_errors(document))
    if error is None:
        return
    where = Location(source=source, json_path=json_path(tuple(error.absolute_path)))
    # The message quotes the offending value, which may be megabytes long: keep the line short.
    raise InvalidInput(where, f"a document matching {schema_name} ({error.validator})", printable(error.message[:200]),
                       InputKind.SCHEMA)
