"""The digest of a checked instance, computed when first read (Section V-C5).

Every checker answer names the instance it checked by the SHA-256 of its canonical JSON
(``instance_to_json``), our stand-in for the record digest γ(Θ) of Appendix A-C. Nothing in a
verdict depends on that digest: the engines never read it, and the runtime names its answers by
the record digest of ``model.edits.runtime.steps``. Computing it eagerly was about a sixth of a small
check (canonical JSON of the whole instance, then SHA-256), so a verdict carries an
``InstanceDigest`` that computes the value on first read and keeps it.

Choices where the source is silent:
- The instance is frozen, so the value read later is the value it would have had at check time.
- Two digests are equal when their values are (computing both), so verdicts compare as before.
"""

from __future__ import annotations

import hashlib
import json

from model.base.canonical import digest as json_digest
from model.edits.check.instance import Instance, instance_to_json


def instance_digest(inst: Instance) -> str:
    """SHA-256 of the RFC 8785 form. An instance's JSON holds only names, small integers, lists and
    objects, so when ``json.dumps`` needs no ``\\u`` escape (every string ASCII and printable) its
    sorted compact output already is that form; otherwise the general canonicalizer decides."""
    doc = instance_to_json(inst)
    text = json.dumps(doc, sort_keys=True, separators=(",", ":"))
    if "\\u" in text:
        return json_digest(doc)
    return hashlib.sha256(text.encode("ascii")).hexdigest()


class InstanceDigest:
    """``instance_digest(inst)``, computed on first read of ``value`` and kept."""

    __slots__ = ("_inst", "_value")

    def __init__(self, inst: Instance) -> None:
        self._inst = inst
        self._value: str | None = None

    @property
    def value(self) -> str:
        if self._value is None:
            self._value = instance_digest(self._inst)
        return self._value

    def __eq__(self, other: object) -> bool:
        return isinstance(other, InstanceDigest) and self.value == other.value

    def __hash__(self) -> int:
        return hash(self.value)

    def __repr__(self) -> str:
        return f"InstanceDigest({self.value})"
