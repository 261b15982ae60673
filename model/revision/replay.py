"""Replaying a workload call sequence through the monitor's imperative shell, to confirm a
counterexample independently of the search that found it.

``replay`` drives ``model.monitor.adapter.Adapter`` — real handles, the precise adapter, scripted
tools returning each template's declared outcome — not the search's own lockstep loop, and stops
at the first refused call. ``trace_document`` writes the same sequence as a scripted trace for
``agentwarrant monitor run`` (schema corpus/schemas/trace.schema.json), with the expected decision
of every step under one policy, so a reader can rerun a reported counterexample by hand.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from model.canonical import JSON
from model.monitor.adapter import Adapter, Failure, Handle, Refusal
from model.monitor.decide import Decision
from model.monitor.matching import Effect
from model.monitor.policy import Policy
from model.monitor.toolkit import ToolFailure
from model.revision.workload import Template, Workload


@dataclass(frozen=True, slots=True)
class Replayed:
    decisions: tuple[Decision, ...]  # one per call template replayed (events count as Allow)
    effects: tuple[Effect, ...]  # effects of the admitted calls

    def admits_all(self, n: int) -> bool:
        return len(self.decisions) == n and all(d is Decision.ALLOW for d in self.decisions)

    def refuses_only_last(self, n: int) -> bool:
        return len(self.decisions) == n and all(d is Decision.ALLOW for d in self.decisions[:-1]) \
            and self.decisions[-1] is not Decision.ALLOW


def replay(policy: Policy, workload: Workload, seq: Sequence[int]) -> Replayed:
    pending: list[Template] = []

    def scripted(**_: JSON) -> JSON:
        t = pending.pop()
        if not t.ok:
            raise ToolFailure("declared failure")
        value: JSON = json.loads(t.value_json)
        return value

    adapter = Adapter(policy, {tool.name: scripted for tool in policy.tools}, workload.agent)
    latest: dict[str, Handle] = {}
    decisions: list[Decision] = []
    effects: list[Effect] = []
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
        pending[:] = [t]
        result = adapter.call(t.tool, **args)
        if isinstance(result, Refusal):
            decisions.append(result.decision)
            break
        decisions.append(Decision.ALLOW)
        effects.extend(adapter.log[-1].verdict.effects)
        if isinstance(result, Handle):
            latest[t.tool] = result
        else:
            assert isinstance(result, Failure)
    return Replayed(tuple(decisions), tuple(effects))


def trace_document(workload: Workload, seq: Sequence[int], expect: Sequence[Decision]) -> dict[str, JSON]:
    """The sequence as a scripted trace for ``agentwarrant monitor run``."""
    steps: list[JSON] = []
    latest: dict[str, str] = {}
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
