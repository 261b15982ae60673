"""The finite client model a bounded search explores: call templates and forbidden effects.

Client preservation quantifies over every call sequence "under the same external observations"
(Agenra Section 1); a bounded search needs those observations to be finite. A workload fixes
them: an agent, a list of call templates — a tool, its arguments, and the declared outcome the
tool returns if admitted — and application events (a satisfied requirement). An argument may be
``{"$from": TOOL}``: the handle of the latest successful result of ``TOOL`` (no such result: the
template is not applicable yet), so origin rules see real producers.

``forbidden`` declares the policy's forbidden effects as budgets: more than ``max`` effects of
``action`` (optionally one ``resource``; with ``per_resource`` the budget applies to each resource
separately) is forbidden, e.g. deleting a file twice, or a second send. A budget's ``where`` tests
the arguments of the call an effect comes from, in the policy's predicate forms and with the policy's
exactness (``eq``/``one_of`` by JSON equality, ``range`` inclusive over exact numbers, booleans are not
numbers): ``{"action": "payment.send", "max": 0, "where": [{"kind": "range", "path": ["amount"],
"low": 1001}]}`` forbids any payment of 1,001 or more. Only such effects count against it.

Choices: a template without ``outcome`` succeeds with ``{}``. Argument tests see a call's literal
arguments; a ``$from`` argument is a result handle, of which no test holds. When some budget tests
arguments the searches record each effect with its call's literal arguments (``ArgEffect``).
Workloads are data, validated by the ``workload`` part of corpus/schemas/revision_manifest.schema.json.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from model.base.canonical import JSON, canonical_str, json_equal
from model.monitor.decide.matching import Effect, predicate_holds
from model.monitor.language.policy import ArgPredicate
from model.monitor.language.policy_json import predicate_from_json, predicate_json


@dataclass(frozen=True, slots=True)
class ArgEffect(Effect):
    """An effect with the literal arguments (canonical JSON per name) of the call it comes from."""

    args: tuple[tuple[str, str], ...] = ()
    # compiled budget tests: per budget of the workload that recorded it, whether its call passes that
    # budget's ``where`` (``Workload.passes``); ``None``: not compiled, the tests read ``args``
    passes: tuple[bool, ...] | None = None

    def arguments(self) -> dict[str, JSON]:
        import json

        return {k: json.loads(v) for k, v in self.args}


def with_args(effects: Sequence[Effect], args: tuple[tuple[str, str], ...]) -> tuple[Effect, ...]:
    """``effects`` recorded with their call's literal arguments (``$from`` arguments left out)."""
    own = tuple((k, v) for k, v in args if not v.startswith("$from:"))
    return tuple(ArgEffect(e.action, e.resource, own) for e in effects)


@dataclass(frozen=True, slots=True)
class Template:
    name: str
    tool: str | None  # None for an application event
    args: tuple[tuple[str, str], ...] = ()  # (argument, canonical JSON or "$from:TOOL")
    ok: bool = True
    value_json: str = "{}"
    satisfy: str | None = None

    def literal_args(self) -> dict[str, JSON]:
        import json

        return {k: json.loads(v) for k, v in self.args if not v.startswith("$from:")}

    def sources(self) -> dict[str, str]:
        return {k: v[len("$from:"):] for k, v in self.args if v.startswith("$from:")}


@dataclass(frozen=True, slots=True)
class Budget:
    action: str
    max: int
    resource: JSON = None
    per_resource: bool = False
    where: tuple[ArgPredicate, ...] = ()

    def _tested(self, e: Effect, index: int | None) -> bool:
        if not self.where:
            return True
        if index is not None and isinstance(e, ArgEffect) and e.passes is not None:
            return e.passes[index]  # compiled when the effect was recorded (the same tests, asked once)
        args = e.arguments() if isinstance(e, ArgEffect) else {}
        return all(predicate_holds(p, args) for p in self.where)

    def hits(self, effects: Sequence[Effect], index: int | None = None) -> Counter[str]:
        """How many of ``effects`` this budget counts, per resource (one key for all if not per resource).
        ``index``: this budget's place in the workload whose compiled tests the effects carry."""
        return Counter(canonical_str(e.resource) if self.per_resource else "" for e in effects
                       if e.action == self.action and (self.resource is None or json_equal(e.resource, self.resource))
                       and self._tested(e, index))

    def violated(self, effects: Sequence[Effect], index: int | None = None) -> bool:
        return any(n > self.max for n in self.hits(effects, index).values())

    def show(self) -> str:
        what = self.action if self.resource is None else f"{self.action}({canonical_str(self.resource)})"
        tests = "" if not self.where else f" where {canonical_str([predicate_json(p) for p in self.where])}"
        return f"more than {self.max} {what}" + (" per resource" if self.per_resource else "") + tests


Counts = tuple[Counter[str], ...]  # per budget of a workload, its ``hits``


@dataclass(frozen=True, slots=True)
class Workload:
    agent: str
    templates: tuple[Template, ...]
    forbidden: tuple[Budget, ...] = ()

    def is_forbidden(self, effects: Sequence[Effect]) -> bool:
        return any(b.violated(effects, i) for i, b in enumerate(self.forbidden))

    def passes(self, args: tuple[tuple[str, str], ...]) -> tuple[bool, ...]:
        """The budget tests compiled for a call with these arguments: per budget, whether its ``where``
        holds of the call's literal arguments (``$from`` arguments left out, as ``with_args`` does)."""
        own = ArgEffect("", None, tuple((k, v) for k, v in args if not v.startswith("$from:"))).arguments()
        return tuple(all(predicate_holds(p, own) for p in b.where) for b in self.forbidden)

    def tagged(self, effects: Sequence[Effect], args: tuple[tuple[str, str], ...],
               passes: tuple[bool, ...]) -> tuple[Effect, ...]:
        """``with_args`` with the compiled tests ``passes`` (``Workload.passes`` of ``args``) attached."""
        own = tuple((k, v) for k, v in args if not v.startswith("$from:"))
        return tuple(ArgEffect(e.action, e.resource, own, passes) for e in effects)

    def forbidden_after(self, base: Sequence[Effect]) -> Callable[[Counts], bool]:
        """``is_forbidden`` of ``base`` followed by effects given by their ``counts`` (one ``hits`` per
        budget), with ``base`` counted once: the question a search asks of many one-call extensions."""
        before = [b.hits(base, i) for i, b in enumerate(self.forbidden)]
        if any(n > b.max for b, c in zip(self.forbidden, before, strict=True) for n in c.values()):
            return lambda counts: True
        return lambda counts: any(before[i][r] + n > b.max for i, b in enumerate(self.forbidden)
                                  for r, n in counts[i].items())

    def counts(self, effects: Sequence[Effect]) -> Counts:
        return tuple(b.hits(effects, i) for i, b in enumerate(self.forbidden))

    def tests_args(self) -> bool:
        """Some budget tests arguments: effects must be recorded with them (``with_args``)."""
        return any(b.where for b in self.forbidden)


def _arg(v: Any) -> str:
    if isinstance(v, dict) and set(v) == {"$from"}:
        return f"$from:{v['$from']}"
    return canonical_str(v)


def workload_from_json(doc: Mapping[str, Any]) -> Workload:
    """Build a workload from its (already schema-checked) JSON form."""
    templates: list[Template] = []
    for t in doc["calls"]:
        if "satisfy" in t:
            templates.append(Template(t.get("name", f"satisfy {t['satisfy']}"), None, satisfy=t["satisfy"]))
            continue
        outcome = t.get("outcome", {"ok": True, "value": {}})
        args = tuple(sorted((k, _arg(v)) for k, v in t.get("args", {}).items()))
        templates.append(Template(t.get("name", t["tool"]), t["tool"], args, bool(outcome["ok"]),
                                  canonical_str(outcome.get("value", {}))))
    budgets = tuple(Budget(b["action"], int(b["max"]), b.get("resource"), bool(b.get("per_resource", False)),
                           tuple(predicate_from_json(w) for w in b.get("where", ())))
                    for b in doc.get("forbidden", ()))
    return Workload(str(doc["agent"]), tuple(templates), budgets)
