"""Mid-task starting points: a call prefix replayed under the OLD policy through the real monitor
transition (``model.monitor.decide.commit.step``), then the state carried onto the NEW policy
(``carry.py``). Agenra Section 7.1 states its rules over usage ``u``; at task start ``u = 0``.

A prefix file is either
- a scripted trace in the format of ``agentwarrant monitor run`` (corpus/schemas/trace.schema.json,
  ``"toolkit": "scripted"``: every call states its outcome) — ``{"$handle": NAME}`` (with an optional
  ``path``) names the result of the earlier step bound by ``"as": NAME``; ``satisfy`` steps are
  application events; or
- a list of calls in the workload's form (corpus/schemas/revision_workload.schema.json) — a
  ``{"$from": TOOL}`` argument is the latest earlier successful result of ``TOOL``.

Choices where the source is silent: other toolkits (``report``, ``delete``) and ``permit`` steps are
refused as bad input (a revision prefix must fix every outcome, and the simulation excludes
permits); a prefix the old policy does not admit in full is bad input naming the step (Allow is
needed at every call: a refused call leaves no trace, so it cannot be part of a starting point).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from model.base.canonical import JSON, canonical_str, load_file
from model.base.errors import InputKind, InvalidInput, Location, json_path
from model.base.schemas import validate
from model.monitor.decide.base import Decision
from model.monitor.decide.commit import Outcome, step
from model.monitor.decide.matching import Effect, Missing, lookup_path
from model.monitor.decide.state import Call, State, initial_state, satisfy
from model.monitor.language.policy import Policy
from model.revision.carry import Correspondence, Ledgers, carry, correspond
from model.revision.explore.workload import with_args, workload_from_json


@dataclass(frozen=True, slots=True)
class PrefixStep:
    name: str
    tool: str | None  # None: the application event ``satisfy``
    args: tuple[tuple[str, str], ...] = ()  # literal arguments: (name, canonical JSON)
    refs: tuple[tuple[str, int, str], ...] = ()  # (argument, earlier step index, field path or "")
    ok: bool = True
    value_json: str = "{}"
    satisfy: str | None = None


@dataclass(frozen=True, slots=True)
class Prefix:
    source: str
    agent: str
    steps: tuple[PrefixStep, ...]
    container: str = "steps"  # where the steps sit in the file: "steps" (trace) or "calls" (workload form)

    def calls(self) -> int:
        return sum(s.tool is not None for s in self.steps)

    def show(self) -> str:
        return ", ".join(s.name for s in self.steps)


@dataclass(frozen=True, slots=True)
class Run:
    """The old policy's run of a prefix: its state and, per record, what later calls can refer to."""

    state: State
    record_of: tuple[int | None, ...]  # per prefix step: its record id (None for events)
    produced: tuple[str | None, ...]  # per record: the tool, if it succeeded
    values: tuple[str, ...]  # per record: the canonical JSON of its result
    effects: tuple[Effect, ...]
    arg_effects: tuple[Effect, ...] = ()  # the same effects with their calls' literal arguments (workload.py)


@dataclass(frozen=True, slots=True)
class StartingPoint:
    prefix: Prefix
    run: Run  # under the old policy: state S
    correspondence: Correspondence
    new_state: State  # S with the carried counters

    def ledgers(self) -> Ledgers:
        s, t = self.run.state, self.new_state
        return Ledgers(tuple(s.used_user), tuple(s.used_app), tuple(t.used_user), tuple(t.used_app))

    def describe(self) -> str:
        return f"after {self.prefix.calls()} calls of {self.prefix.source} [{self.prefix.show()}]"

    def to_json(self) -> dict[str, JSON]:
        return {"at": "after_prefix", "source": self.prefix.source, "calls": self.prefix.calls(),
                "steps": [s.name for s in self.prefix.steps], "correspondence": self.correspondence.to_json(),
                "usage_before": {"P": list(self.run.state.used_user), "A": list(self.run.state.used_app)},
                "usage_after": {"P": list(self.new_state.used_user), "A": list(self.new_state.used_app)}}


def _where(source: str, *path: str | int) -> Location:
    return Location(source, json_path=json_path(tuple(path)))


def _from_trace(doc: dict[str, Any], source: str) -> Prefix:
    if doc.get("toolkit", "report") != "scripted":
        raise InvalidInput(_where(source, "toolkit"), 'a scripted trace ("toolkit": "scripted")',
                           repr(doc.get("toolkit", "report")), InputKind.VALUE)
    names: dict[str, int] = {}
    steps: list[PrefixStep] = []
    for i, st in enumerate(doc["steps"]):
        if "permit" in st:
            raise InvalidInput(_where(source, "steps", i), "a call or a satisfy step (permits are not "
                               "supported in a revision prefix)", "a permit step", InputKind.VALUE)
        if "satisfy" in st:
            steps.append(PrefixStep(f"satisfy {st['satisfy']}", None, satisfy=st["satisfy"]))
            continue
        if "outcome" not in st:
            raise InvalidInput(_where(source, "steps", i), 'an "outcome" for every call', "none", InputKind.SCHEMA)
        lits: list[tuple[str, str]] = []
        refs: list[tuple[str, int, str]] = []
        for arg, v in (st.get("args") or {}).items():
            if isinstance(v, dict) and "$handle" in v:
                if v["$handle"] not in names:
                    raise InvalidInput(_where(source, "steps", i, "args", arg),
                                       "a handle bound by an earlier successful step's \"as\"", repr(v["$handle"]),
                                       InputKind.REFERENCE)
                refs.append((arg, names[v["$handle"]], str(v.get("path", ""))))
            else:
                lits.append((arg, canonical_str(v)))
        out = st["outcome"]
        steps.append(PrefixStep(f"{st['call']}#{i}", st["call"], tuple(sorted(lits)), tuple(sorted(refs)),
                                bool(out["ok"]), canonical_str(out.get("value"))))
        if "as" in st and out["ok"]:
            names[st["as"]] = i
    return Prefix(source, str(doc["agent"]), tuple(steps))


def _from_calls(doc: dict[str, Any], source: str) -> Prefix:
    wl = workload_from_json(doc)
    steps: list[PrefixStep] = []
    for i, t in enumerate(wl.templates):
        if t.tool is None:
            steps.append(PrefixStep(t.name, None, satisfy=t.satisfy))
            continue
        refs: list[tuple[str, int, str]] = []
        for arg, producer in t.sources().items():
            earlier = [k for k, s in enumerate(steps) if s.tool == producer and s.ok]
            if not earlier:
                raise InvalidInput(_where(source, "calls", i, "args", arg),
                                   f"a successful {producer} call earlier in the prefix", "none", InputKind.REFERENCE)
            refs.append((arg, earlier[-1], ""))
        lits = tuple((k, v) for k, v in t.args if not v.startswith("$from:"))
        steps.append(PrefixStep(t.name, t.tool, lits, tuple(sorted(refs)), t.ok, t.value_json))
    return Prefix(source, wl.agent, tuple(steps), "calls")


def prefix_from_json(doc: JSON, source: str) -> Prefix:
    if isinstance(doc, dict) and "steps" in doc:
        validate(doc, "trace.schema.json", source=source)
        return _from_trace(doc, source)
    validate(doc, "revision_workload.schema.json", source=source)
    assert isinstance(doc, dict)
    return _from_calls(doc, source)


def load_prefix(path: str | Path) -> Prefix:
    return prefix_from_json(load_file(str(path)), str(path))


def call_of(s: PrefixStep, agent: str, record_of: tuple[int | None, ...], values: tuple[str, ...]) -> Call:
    assert s.tool is not None
    args: dict[str, JSON] = {k: json.loads(v) for k, v in s.args}
    refs: list[tuple[str, int]] = []
    paths: list[tuple[str, str]] = []
    for arg, k, path in s.refs:
        d = record_of[k]
        assert d is not None
        value = lookup_path(json.loads(values[d]), tuple(path.split("."))) if path else json.loads(values[d])
        args[arg] = None if isinstance(value, Missing) else value
        refs.append((arg, d))
        if path:
            paths.append((arg, path))
    return Call(agent, s.tool, args, tuple(sorted(refs)), tuple(sorted(paths)))


def run_prefix(policy: Policy, prefix: Prefix) -> Run:
    """Replay ``prefix`` under ``policy`` from task start; every call must be admitted."""
    state = initial_state(len(policy.user), len(policy.application))
    record_of: list[int | None] = []
    produced: list[str | None] = []
    values: list[str] = []
    effects: list[Effect] = []
    arg_effects: list[Effect] = []
    for i, s in enumerate(prefix.steps):
        if s.tool is None:
            assert s.satisfy is not None
            state = satisfy(state, s.satisfy)
            record_of.append(None)
            continue
        call = call_of(s, prefix.agent, tuple(record_of), tuple(values))
        verdict, state = step(policy, state, call, Outcome(s.ok, json.loads(s.value_json) if s.ok else None))
        if verdict.decision is not Decision.ALLOW:
            why = verdict.decision.value + (f" ({verdict.reason.value})" if verdict.reason is not None else "")
            raise InvalidInput(_where(prefix.source, prefix.container, i),
                               f"a call the old policy {policy.name} admits", f"{s.name}: {why}", InputKind.VALUE)
        record_of.append(len(state.trace) - 1)
        produced.append(s.tool if s.ok else None)
        values.append(s.value_json if s.ok else "null")
        effects.extend(verdict.effects)
        arg_effects.extend(with_args(verdict.effects, s.args))
    return Run(state, tuple(record_of), tuple(produced), tuple(values), tuple(effects), tuple(arg_effects))


def starting_point(old: Policy, new: Policy, prefix: Prefix) -> StartingPoint:
    run = run_prefix(old, prefix)
    corr = correspond(old, new)
    return StartingPoint(prefix, run, corr, carry(run.state, corr, new))
