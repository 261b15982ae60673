"""Per-field labels: the fields of a result the deploying organisation's authorship map trusts,
observed apart from the text beside them.

A result is stored with one label, the least trusted of its fields (Agenra Section 2: a tool's output
takes its source's label). An id the drive assigns is then untrusted once it is read beside a title
someone else wrote. The suite policies say which fields the user or the service writes (their
authorship map) as grants ``allow field.read("TOOL/FIELD")`` of one tool, ``observe_field``, that
reads from a trusted source node. After every successful call the adapter side (``Decider``) asks the
monitor for an observation of each granted field of that tool's result: an ordinary call, decided and
recorded by the monitor, whose arguments are literals (the record's id and the field), so its label is
the source node's, trusted; its value is the field's values, projected from the stored result by the
adapter, never by the agent. A field not granted has no observation and keeps the result's label.

Which values come from an observation is decided by value (``FieldIndex``): an argument scalar is
taken from a trusted field when its typed tokens (``literals``) equal those of one of the field's
values, whole, never a substring of it. This is what a deployment can compute; it does not say which
element the agent chose (an id read beside untrusted text is trusted, but whether the agent should act
on that id is a control dependence no label here carries, as for a value the user typed).

Choices: a field is named by its key in a result that is an object or a list of objects (``TOOL/key``),
or ``TOOL/*`` for a result that is a list of scalars; nested objects are not searched (an attachment
inside a mail is the sender's, whatever its keys are called). One row of a list of scalars is named
``TOOL/=NAME``: a label per row, for a list whose rows have different authors and whose trusted rows
the deployment registers by name (the slack workspace's own channels, which its administrators
create, beside channels another organisation shares and names). The grants are the registry: a row
not named keeps the result's label (a channel name is unique in its workspace, so no other channel
holds a registered name).
"""

from __future__ import annotations

from collections.abc import Mapping

from model.base.canonical import JSON
from model.bench.agentdojo.literals import Token, Typed, placeholder, scalars, tokens
from model.monitor.adapter.shell import Handle
from model.monitor.language.policy import ConstPat, EntryKind, Policy

OBSERVE = "observe_field"  # the policy's tool for one field of a stored result
READ = "field.read"  # its effect; a grant of it names one trusted field


def granted(policy: Policy) -> dict[str, tuple[str, ...]]:
    """Tool -> the keys of its result the policy's user list grants as trusted fields."""
    out: dict[str, list[str]] = {}
    for e in policy.user:
        if e.kind is EntryKind.ALLOW and e.action == READ and isinstance(e.resource, ConstPat) \
                and isinstance(e.resource.value, str) and "/" in e.resource.value:
            tool, _, key = e.resource.value.partition("/")
            out.setdefault(tool, []).append(key)
    return {t: tuple(k) for t, k in out.items()}


def project(value: JSON, key: str) -> list[JSON]:
    """The values of field ``key`` in a result (``*``: the scalars of a list result; ``=NAME``: the
    scalar ``NAME`` of a list result, when it is there: one row the deployment's own registry vouches
    for, such as a channel the organisation created, while the list's other rows keep its label)."""
    if key == "*":
        return [v for v in value if not isinstance(v, dict | list)] if isinstance(value, list) else []
    if key.startswith("="):
        return [v for v in value if v == key[1:]] if isinstance(value, list) else []
    items = value if isinstance(value, list) else [value]
    return [it[key] for it in items if isinstance(it, dict) and key in it]


def whole(text: str) -> tuple[Token, ...]:
    return tokens(text)


class FieldIndex:
    """The trusted field observations made so far, each with the stored result it was projected from."""

    __slots__ = ("entries",)

    def __init__(self) -> None:
        self.entries: list[tuple[Handle, int, frozenset[tuple[Token, ...]], Typed]] = []

    def add(self, handle: Handle, source: int, values: JSON) -> None:
        keys = frozenset(k for s in scalars(values) if (k := whole(s)))
        self.entries.append((handle, source, keys, Typed("\n".join(scalars(values)))))

    def handles(self) -> set[Handle]:
        """The observations' own stored results."""
        return {h for h, _, _, _ in self.entries}

    def pools(self) -> list[Typed]:
        """Each observation's tokens (a reviewer's trusted sources)."""
        return [t for _, _, _, t in self.entries]

    def parents(self, value: JSON, user: Typed,
                sources: Mapping[int, object] | None = None) -> tuple[Handle, ...] | None:
        """The observations (of results in ``sources``, by record id, when given) that hold the scalars
        of ``value`` the user did not type, each whole; ``None`` when some such scalar is in none of
        them, or is a placeholder for computed text."""
        found: list[Handle] = []
        for s in scalars(value):
            if placeholder(s):
                return None
            if user.holds(s):
                continue
            k = whole(s)
            hits = [h for h, src, keys, _ in self.entries if k in keys and (sources is None or src in sources)]
            if not hits:
                return None
            found.extend(h for h in hits if h not in found)
        return tuple(found) if found else None
