"""Loading JSON Schemas from ``corpus/schemas`` and validating documents against them.

Every JSON loader goes through ``validate``: the first error (by path, deterministic) becomes
``InvalidInput`` naming the JSON path of the offending value and what the schema expected.

Two validators, one verdict. ``jsonschema`` (pure Python, Draft 2020-12) is the reference: its
errors are the ones reported, and its "valid" is the answer. It costs about 0.25 ms per policy
entry, which made a 10^5-entry JSON policy take 109 s to check. ``jsonschema_rs``
(Rust, the same draft) answers "valid" about 300 times faster, so it goes first; only a document
it refuses is validated again by the reference, which then names the error or, where the two
disagree, accepts. They do disagree on purpose in one place: Python's ``$`` also matches before a
final newline, so ``"abc\\n"`` meets ``^[a-z]+$`` for the reference and not for Rust. The fast
path is sound only if it never accepts what the reference refuses; the property test
``tests/property/test_schema_validators.py`` checks exactly that on mutated corpus documents.
Without ``jsonschema_rs`` installed the reference alone runs. ``jsonschema`` is imported only when
the reference is needed: it costs about a tenth of a second of CPU to import, a large share of a
command that reads one valid document (``agentwarrant agentdojo`` reads its suite's plans file).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from model.base.errors import InputKind, InvalidInput, Location, json_path
from model.base.jsonio import load_file, printable

if TYPE_CHECKING:
    import jsonschema

SCHEMA_DIR = Path(__file__).resolve().parents[2] / "corpus" / "schemas"


@functools.cache
def schema(name: str) -> dict[str, Any]:
    loaded: dict[str, Any] = load_file(SCHEMA_DIR / name)
    return loaded


@functools.cache
def reference_validator(name: str) -> jsonschema.Draft202012Validator:
    import jsonschema

    return jsonschema.Draft202012Validator(schema(name))


@functools.cache
def fast_validator(name: str) -> Callable[[object], bool] | None:
    """``jsonschema_rs``'s ``is_valid`` for the schema, or None when the package is missing."""
    try:
        import jsonschema_rs
    except ImportError:
        return None
    is_valid: Callable[[object], bool] = jsonschema_rs.validator_for(schema(name)).is_valid
    return is_valid


def validate(document: object, schema_name: str, source: str = "<input>") -> None:
    fast = fast_validator(schema_name)
    if fast is not None and fast(document):
        return
    from jsonschema.exceptions import best_match

    error = best_match(reference_validator(schema_name).iter_errors(document))
    if error is None:
        return
    where = Location(source=source, json_path=json_path(tuple(error.absolute_path)))
    # The message quotes the offending value, which may be megabytes long: keep the line short.
    raise InvalidInput(where, f"a document matching {schema_name} ({error.validator})", printable(error.message[:200]),
                       InputKind.SCHEMA)
