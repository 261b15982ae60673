"""Certificates for ``P ⤳_E P′`` (Agenra Section 7.1): derivations in the rules the source names,
as data a reader or ``checker.check`` can verify without trusting the search that found them.

A ``Step`` proves ``source ⤳_E target`` for two permission lists by one rule:

- ``PREFIX``: old positions keep kind, quota, usage, requirement, permit flag and (on ``E``)
  matching; grants are appended (with any usage: first-fit reaches them only where the old list
  has no account left).
- ``CAPACITY``: as ``PREFIX`` but each old position keeps at least its residual capacity
  ``m′ − u′ ≥ m − u`` (or ∞).
- ``SWAP``: the first two accounts are exchanged with their counters; they are independent on ``E``.
- ``LIFT``: the head (entry and counter) is unchanged and the single sub-step proves tail ⤳ tail′.

Each step carries the usage vectors of its two lists (``source_used``, ``target_used``): at task
start every counter is zero, written ``()``; for a revision installed after a prefix they are the
old state's counters and the counters carried onto the new list (carry.py), so the residual
capacities the rules compare are those of the running task.
- ``COMPOSE``: the sub-steps form a chain from ``source`` to ``target``.

``justification`` records, per checked side condition, how it was decided (``identical``, ``z3``,
``independent``); the checker recomputes every one of them. A ``Certificate`` pairs one derivation
per permission list (user ``P`` and application ``A``) for one effect set ``E``. The JSON form writes
entries in the monitor's JSON form (model/monitor/language/policy_json.py).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from model.base.canonical import JSON
from model.monitor.language.policy import Entry
from model.monitor.language.policy_json import entry_from, entry_to_json  # the monitor's JSON form of one entry
from model.revision.effects import EffectSet, parse_effects


class Rule(enum.Enum):
    PREFIX = "prefix"
    CAPACITY = "capacity"
    SWAP = "swap"
    LIFT = "lift"
    COMPOSE = "compose"


@dataclass(frozen=True, slots=True)
class Step:
    rule: Rule
    source: tuple[Entry, ...]
    target: tuple[Entry, ...]
    subs: tuple[Step, ...] = ()
    justification: tuple[str, ...] = ()
    source_used: tuple[int, ...] = ()  # () is task start: every counter zero
    target_used: tuple[int, ...] = ()

    def used(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Both usage vectors, with task start's ``()`` written out as zeros."""
        return (self.source_used or (0,) * len(self.source), self.target_used or (0,) * len(self.target))

    def size(self) -> int:
        return 1 + sum(s.size() for s in self.subs)

    def rules(self) -> tuple[Rule, ...]:
        """The rules used, in derivation order (a flat summary for people and tables)."""
        if self.rule is Rule.COMPOSE:
            return tuple(r for s in self.subs for r in s.rules())
        return (self.rule, *(r for s in self.subs for r in s.rules()))


@dataclass(frozen=True, slots=True)
class Certificate:
    effects: EffectSet
    user: Step
    application: Step

    def summary(self) -> str:
        def side(name: str, s: Step) -> str:
            return f"{name}: " + " · ".join(r.value for r in s.rules())

        return f"{side('P', self.user)}; {side('A', self.application)} on {self.effects.show()}"


def step_to_json(s: Step) -> dict[str, JSON]:
    out: dict[str, JSON] = {"rule": s.rule.value, "source": [entry_to_json(e) for e in s.source],
                            "target": [entry_to_json(e) for e in s.target], "subs": [step_to_json(t) for t in s.subs],
                            "justification": list(s.justification)}
    if s.source_used or s.target_used:
        out["source_used"], out["target_used"] = list(s.source_used), list(s.target_used)
    return out


def count_from_json(x: Any) -> int:
    """A usage count read back exactly (``int(x)`` would take ``true`` for 1 and cut ``1.7`` to 1)."""
    if type(x) is not int or x < 0:
        raise ValueError(f"a non-negative integer usage count, found {x!r}")
    return x


def step_from_json(obj: dict[str, Any]) -> Step:
    return Step(Rule(obj["rule"]), tuple(entry_from(e) for e in obj["source"]),
                tuple(entry_from(e) for e in obj["target"]), tuple(step_from_json(t) for t in obj["subs"]),
                tuple(obj["justification"]), tuple(count_from_json(x) for x in obj.get("source_used", ())),
                tuple(count_from_json(x) for x in obj.get("target_used", ())))


def certificate_to_json(c: Certificate) -> dict[str, JSON]:
    return {"effects": c.effects.to_json(), "user": step_to_json(c.user),
            "application": step_to_json(c.application)}


def certificate_from_json(obj: dict[str, Any]) -> Certificate:
    effects = obj["effects"]
    return Certificate(parse_effects(None if effects is None else ",".join(effects)),
                       step_from_json(obj["user"]), step_from_json(obj["application"]))
