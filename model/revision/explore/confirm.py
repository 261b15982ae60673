"""Replaying a workload call sequence through the monitor's imperative shell, to confirm a
counterexample independently of the search that found it.

``replay`` drives ``model.monitor.adapter.shell.Adapter`` — real handles, the precise adapter, scripted
tools returning each template's declared outcome — not the search's own lockstep loop, and stops
at the first refused call. ``trace_document`` writes the same sequence as a scripted trace for
``agentwarrant monitor run`` (schema corpus/schemas/trace.schema.json), with the expected decision
of every step under one policy, so a reader can rerun a reported counterexample by hand.

Mid-task (``start``, prefix.py): the Adapter first runs the prefix under the OLD policy; to judge
the new policy, the application then installs it into the running Adapter — ``policy`` replaced,
``state`` replaced by the Adapter's own state with its counters carried by the starting point's
correspondence (carry.py); handles and stored values stay — and the suffix continues with the
prefix's handles. A prefix the Adapter refuses yields an empty replay (never confirmed). The trace
document then lists the prefix steps (expected ``allow``: the old policy admits them) before the
suffix; under ``monitor run OLD`` it reruns a lost client exactly.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from model.base.canonical import JSON
from model.monitor.adapter.shell import Adapter, Failure, Handle, Refusal
from model.monitor.adapter.toolkit import ToolFailure
from model.monitor.decide.base import Decision
from model.monitor.decide.matching import Effect
from model.monitor.language.policy import Policy
from model.revision.carry import carry
from model.revision.explore.prefix import StartingPoint
from model.revision.explore.workload import Workload, with_args


@dataclass(frozen=True, slots=True)
class Replayed:
    decisions: tuple[Decision, ...]  # one per call template replayed (events count as Allow)
    effects: tuple[Effect, ...]  # effects of the admitted calls

    def admits_all(self, n: int) -> bool:
        return len(self.decisions) == n and all(d is Decision.ALLOW for d in self.decisions)

    def refuses_only_last(self, n: int) -> bool:
        return len(self.decisions) == n and all(d is Decision.ALLOW for d in self.decisions[:-1]) \
            and self.decisions[-1] is not Decision.ALLOW


def replay(policy: Policy, workload: Workload, seq: Sequence[int], start: StartingPoint | None = None,
           before: Policy | None = None) -> Replayed:
    """Replay ``seq`` under ``policy``; with ``start``, after the prefix ran under ``before`` (the old
    policy) and ``policy`` was installed with the carried counters."""
    pending: list[tuple[bool, str]] = []

    def scripted(**_: JSON) -> JSON:
        ok, value_json = pending.pop()
        if not ok:
            raise ToolFailure("declared failure")
        value: JSON = json.loads(value_json)
        return value

    first = policy if start is None or before is None else before
    adapter = Adapter(first, {tool.name: scripted for tool in first.tools}, workload.agent)
    latest: dict[str, Handle] = {}
    decisions: list[Decision] = []
    effects: list[Effect] = []
    if start is not None:
        handles: dict[int, Handle] = {}
        for i, ps in enumerate(start.prefix.steps):
            if ps.tool is None:
                assert ps.satisfy is not None
                adapter.satisfy(ps.satisfy)
                continue
            pargs: dict[str, Handle | JSON] = {k: json.loads(v) for k, v in ps.args}
            for arg, k, path in ps.refs:
                pargs[arg] = handles[k].at(*path.split(".")) if path else handles[k]
            pending[:] = [(ps.ok, ps.value_json)]
            res = adapter.call(ps.tool, **pargs)
            if isinstance(res, Refusal):
                return Replayed((), ())
            effects.extend(_tag(adapter.log[-1].verdict.effects, ps.args, workload))
            if isinstance(res, Handle):
                handles[i] = res
                latest[ps.tool] = res
        if first is not policy:
            adapter.policy = policy
            adapter.state = carry(adapter.state, start.correspondence, policy)
    for k in seq:
        t = workload.templates[k]
        if t.tool is None:
            assert t.satisfy is not None
            adapter.satisfy(t.satisfy)
            decisions.append(Decision.ALLOW)
            continue
        args: dict[str, Handle | JSON] = dict(t.literal_args())
        for arg, producer in t.sources().items():
            if producer not in latest:
                return Replayed(tuple(decisions), tuple(effects))  # not applicable: nothing to replay
            args[arg] = latest[producer]
        pending[:] = [(t.ok, t.value_json)]
        result = adapter.call(t.tool, **args)
        if isinstance(result, Refusal):
            decisions.append(result.decision)
            break
        decisions.append(Decision.ALLOW)
        effects.extend(_tag(adapter.log[-1].verdict.effects, t.args, workload))
        if isinstance(result, Handle):
            latest[t.tool] = result
        else:
            assert isinstance(result, Failure)
    return Replayed(tuple(decisions), tuple(effects))


def trace_document(workload: Workload, seq: Sequence[int], expect: Sequence[Decision],
                   start: StartingPoint | None = None) -> dict[str, JSON]:
    """The sequence (after the prefix of ``start``, if any) as a scripted trace for ``agentwarrant monitor run``."""
    steps: list[JSON] = []
    latest: dict[str, str] = {}
    for i, ps in enumerate(start.prefix.steps if start is not None else ()):
        if ps.tool is None:
            steps.append({"satisfy": ps.satisfy})
            continue
        pargs: dict[str, JSON] = {k: json.loads(v) for k, v in ps.args}
        for arg, k, path in ps.refs:
            pargs[arg] = {"$handle": f"p{k}", "path": path} if path else {"$handle": f"p{k}"}
        steps.append({"call": ps.tool, "args": pargs, "as": f"p{i}", "expect": "allow",
                      "outcome": {"ok": ps.ok, "value": json.loads(ps.value_json)}})
        if ps.ok:
            latest[ps.tool] = f"p{i}"
    for i, k in enumerate(seq):
        t = workload.templates[k]
        if t.tool is None:
            steps.append({"satisfy": t.satisfy})
            continue
        args: dict[str, JSON] = dict(t.literal_args())
        for arg, producer in t.sources().items():
            args[arg] = {"$handle": latest.get(producer, producer)}
        step: dict[str, JSON] = {"call": t.tool, "args": args, "as": f"s{i}",
                                 "outcome": {"ok": t.ok, "value": json.loads(t.value_json)}}
        if i < len(expect):
            step["expect"] = expect[i].value
        steps.append(step)
        if t.ok:
            latest[t.tool] = f"s{i}"
    return {"agent": workload.agent, "toolkit": "scripted", "steps": steps}


def _tag(effects: Sequence[Effect], args: tuple[tuple[str, str], ...], workload: Workload) -> Sequence[Effect]:
    """The effects with their call's literal arguments when a budget tests arguments (workload.py)."""
    return with_args(effects, args) if workload.tests_args() else effects
