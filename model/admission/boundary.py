"""The JSON domain check every admission loader runs once, at the boundary.

Canonical JSON (RFC 8785) can only represent finite numbers and integers within ±(2**53 − 1);
``rfc8785`` raises its own exception past that range, and ``json.loads`` happily yields ``NaN``.
A loader that later hashes or signs such a value would crash, so each loader calls ``check_json``
first and such input becomes ``InvalidInput`` at its JSON path (found by the fuzz tests).
"""

from __future__ import annotations

import math

from model.errors import InputKind, InvalidInput, json_path

MAX_SAFE_INT = 2**53 - 1


def check_json(value: object, source: str, path: tuple[str | int, ...] = ()) -> None:
    """Raise ``InvalidInput`` unless ``value`` is JSON that canonical JSON can represent exactly."""
    stack: list[tuple[object, tuple[str | int, ...]]] = [(value, path)]
    while stack:
        v, p = stack.pop()
        if v is None or isinstance(v, bool | str):
            continue
        if isinstance(v, int):
            if abs(v) > MAX_SAFE_INT:
                raise InvalidInput(f"{source} at {json_path(p)}", "an integer within ±(2**53 - 1)", str(v)[:40],
                                   InputKind.VALUE)
        elif isinstance(v, float):
            if not math.isfinite(v):
                raise InvalidInput(f"{source} at {json_path(p)}", "a finite number", repr(v), InputKind.VALUE)
        elif isinstance(v, dict):
            for k, x in v.items():
                if not isinstance(k, str):
                    raise InvalidInput(f"{source} at {json_path(p)}", "string keys", repr(k)[:40], InputKind.VALUE)
                stack.append((x, (*p, k)))
        elif isinstance(v, list | tuple):
            stack.extend((x, (*p, i)) for i, x in enumerate(v))
        else:
            raise InvalidInput(f"{source} at {json_path(p)}", "a JSON value", type(v).__name__, InputKind.VALUE)


def is_json(value: object) -> bool:
    try:
        check_json(value, "<value>")
    except InvalidInput:
        return False
    return True
