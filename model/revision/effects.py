"""The effect set ``E`` of the judgment ``P ⤳_E P′`` (Agenra Section 7.1).

``E`` restricts which effects a certificate must cover: "matching must agree for every e ∈ E and
binding state". The source leaves its concrete syntax open. Our choice: ``E`` is either every
effect (the default, ``EffectSet(None)``) or a finite union of effect classes, each an action with
an optional constant resource, written ``ACTION`` or ``ACTION(JSON)`` and separated by commas on the
command line (``--effects 'file.delete("A"),message.send'``). Arguments are never restricted: a
certificate always covers every JSON payload.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from model.base.canonical import JSON
from model.base.errors import InputKind, InvalidInput
from model.base.jsonio import decode, printable

_CLASS = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_.]*)\s*(?:\((.*)\))?\s*$", re.S)


@dataclass(frozen=True, slots=True)
class EffectClass:
    action: str
    resource: JSON = None  # None: any resource (JSON null is never a resource, see matching.py)

    def show(self) -> str:
        return self.action if self.resource is None else f"{self.action}({json.dumps(self.resource)})"


@dataclass(frozen=True, slots=True)
class EffectSet:
    classes: tuple[EffectClass, ...] | None = None  # None: every effect

    def actions(self, candidates: frozenset[str]) -> tuple[str, ...]:
        """The actions of ``E`` among ``candidates`` (the actions the entries under study name)."""
        if self.classes is None:
            return tuple(sorted(candidates))
        return tuple(sorted({c.action for c in self.classes} & candidates))

    def resources(self, action: str) -> tuple[JSON, ...] | None:
        """The resources ``E`` allows for ``action``: ``None`` when any resource is in ``E``."""
        if self.classes is None:
            return None
        chosen = [c for c in self.classes if c.action == action]
        if any(c.resource is None for c in chosen):
            return None
        return tuple(c.resource for c in chosen)

    def show(self) -> str:
        return "every effect" if self.classes is None else ", ".join(c.show() for c in self.classes)

    def to_json(self) -> JSON:
        return None if self.classes is None else [c.show() for c in self.classes]


EVERY_EFFECT = EffectSet(None)


def _split(text: str) -> list[str]:
    """Split on commas outside parentheses and JSON strings."""
    parts, depth, cur, quoted, escaped = [], 0, "", False, False
    for ch in text:
        if quoted:
            cur += ch
            quoted = not (ch == '"' and not escaped)
            escaped = ch == "\\" and not escaped
            continue
        if ch == '"':
            quoted = True
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
            continue
        cur += ch
    parts.append(cur)
    return parts


def parse_effects(text: str | None, source: str = "--effects") -> EffectSet:
    if text is None or text.strip() == "*":
        return EVERY_EFFECT
    if not text.strip():  # '' names no effect; omitting the option (or '*') means every effect
        raise InvalidInput(source, "ACTION or ACTION(JSON scalar), separated by commas, or * for every effect",
                           "an empty value", InputKind.SYNTAX)
    classes: list[EffectClass] = []
    for part in _split(text):
        m = _CLASS.match(part)
        if m is None:
            raise InvalidInput(source, "ACTION or ACTION(JSON scalar), separated by commas", part.strip(),
                               InputKind.SYNTAX)
        resource: JSON = None
        if m.group(2) is not None:
            try:
                resource = decode(m.group(2), source)
            except InvalidInput as exc:
                raise InvalidInput(source, "a JSON scalar resource inside the parentheses",
                                   f"{printable(m.group(2))[:60]} ({exc.expected})", InputKind.SYNTAX) from None
            if resource is None or isinstance(resource, list | dict):
                raise InvalidInput(source, "a non-null JSON scalar resource", m.group(2), InputKind.VALUE)
        classes.append(EffectClass(m.group(1), resource))
    return EffectSet(tuple(classes))
