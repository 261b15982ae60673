"""One replay session: AgentDojo calls proposed by a scripted agent, through the monitor or not, with
the provenance of every argument, the injected results and the harm of every admitted injection call.

Exact provenance (Agenra Sections 2 and 4.4: an argument's parents are the results it was computed
from). AgentDojo's ground truths fix their arguments as constants their authors read off the
environment (302 of the 464 arguments of the 97 user tasks are not in the task's prompt), so which
result a constant was read from is not recorded anywhere; what is known exactly is which *program*
computed it. The agent here runs two programs, the user's task and, if it obeys, the injection task:

- an argument of a user-task call is the user's literal when every scalar of it occurs in the
  user's prompt (the user typed it); otherwise it is computed from every result the user task's own
  calls read before it (its producers), or, if none, composed by the agent (a literal);
- an argument of an injection-task call is computed from the injected results (the instruction the
  agent obeys) and from every result the injection task's own calls read before it. No text is
  compared: the injected results are the ones that differ on the twin environment (``replay``),
  so rewording, encoding or splitting the instruction changes nothing here.

Within a task this over-approximates (a value depends on all of its task's reads, never on fewer);
across tasks it is exact: a user-task value never depends on a result only the injection task read.
``STRINGS`` mode keeps the string-matching reading (``binding.Provenance``) as the baseline.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from model.base.canonical import JSON, canonical_str
from model.bench.agentdojo.binding import (
    Derived,
    DojoAdapter,
    Provenance,
    make_adapter,
    policy_argument,
    to_json,
    tool_functions,
)
from model.bench.agentdojo.suites import AGENT
from model.monitor.adapter.shell import Failure, Handle, Refusal
from model.monitor.decide.verdict import DenyReason
from model.monitor.language.policy import Policy

_APPROVABLE = frozenset({DenyReason.FLOW, DenyReason.ORIGIN})


@dataclass(frozen=True, slots=True)
class Step:
    phase: str  # "user" | "injection"
    tool: str
    args: str  # canonical JSON of the proposed arguments
    decision: str  # "allow" | "deny" | "pause" | "approved" | "unmonitored"
    reason: str  # the deny reason ("" when admitted)
    detail: str
    outcome: str  # "ok" | "failed: ..." | "refused"
    producers: tuple[str, ...] = ()  # "arg<-tool#id" for every argument computed from a stored result
    label: str = ""  # the admitted call's output label, "Sensitivity/trusted|untrusted"
    injected: bool = False  # the result carries the injection (it differs on the twin environment)
    harm: bool = False  # an admitted injection call that changed the environment
    write: bool = False  # the tool writes: the policy's edge for it ends in a sink (not the agent's memory)

    @property
    def refused(self) -> bool:
        return self.outcome == "refused"

    def describe(self) -> str:
        """``tool: reason (detail) [producers]`` for a refusal, ``tool: decision label [producers]`` otherwise."""
        src = f" [{', '.join(self.producers)}]" if self.producers else " [no argument from a result]"
        if self.refused:
            return f"{self.tool}: {self.reason or self.decision} ({self.detail}){src}"
        extra = f" after review ({self.detail})" if self.decision == "approved" else ""
        return f"{self.tool}: {self.decision} {self.label}{extra}{src}"


@dataclass(frozen=True, slots=True)
class Run:
    steps: tuple[Step, ...]
    passed: bool  # AgentDojo's utility check (user run) or security check (pair run: goal reached)
    utility: bool  # the user task's utility check (equal to ``passed`` for a user run)
    first_injected: int | None = None  # index of the first user call whose result carried the injection

    def refused(self, phase: str | None = None) -> tuple[Step, ...]:
        return tuple(s for s in self.steps if s.refused and (phase is None or s.phase == phase))

    def approved(self) -> tuple[Step, ...]:
        return tuple(s for s in self.steps if s.decision == "approved")

    def completed(self) -> bool:
        """Utility under the monitor: the check passes and no user-task call was refused."""
        return self.utility and not self.refused("user")

    def harm(self) -> int:
        """Admitted injection calls that changed the environment (a read may: mail marked read, a page
        request logged)."""
        return sum(s.harm for s in self.steps)

    def written(self) -> int:
        """Of those, the calls of tools that write (their edge ends in a sink)."""
        return sum(s.harm and s.write for s in self.steps)


class Session:
    def __init__(self, suite: Any, env: Any, twin: Any | None, policy: Policy | None, prompt: str, strings: bool,
                 approvals: bool) -> None:
        self.env = env
        self.adapter: DojoAdapter | None = make_adapter(policy, suite, env, AGENT) if policy is not None else None
        self.writes = _writes(policy)
        self.fns = tool_functions(suite, env)
        self.twin = tool_functions(suite, twin) if twin is not None else None
        self.prompt = prompt
        self.strings = Provenance.start(prompt) if strings else None
        self.approvals = approvals
        self.reads: dict[str, list[Handle]] = {"user": [], "injection": []}
        self.injected: list[Handle] = []
        self.seen = False
        self.first_injected: int | None = None
        self.user_calls = 0
        self.steps: list[Step] = []
        self.executed: list[Any] = []  # AgentDojo FunctionCalls that reached a tool

    def seen_injection(self) -> bool:
        return self.seen

    def result(self, passed: bool, utility: bool) -> Run:
        return Run(tuple(self.steps), passed, utility, self.first_injected)

    def _argument(self, phase: str, value: JSON) -> Handle | JSON:
        if self.strings is not None:
            return self.strings.argument(value)
        if phase == "injection":
            parents = [*self.injected, *(h for h in self.reads["injection"] if h not in self.injected)]
        else:
            from model.bench.agentdojo.binding import result_texts

            if all(self.strings_in_prompt(t) for t in result_texts(value)):
                return value
            parents = self.reads["user"]
        return Derived(value, tuple(parents)) if parents else value

    def strings_in_prompt(self, text: str) -> bool:
        return text in self.prompt

    def _twin_differs(self, tool: str, args: dict[str, JSON], value: JSON | None) -> bool:
        if self.twin is None:
            return False
        try:
            other: JSON | None = self.twin[tool](**args)
        except Exception:  # the tool's declared failure: it differs if the main call succeeded
            other = None
        return canonical_str(other) != canonical_str(value)

    def run(self, phase: str, calls: list[Any]) -> None:
        for c in calls:
            index = self.user_calls
            self.user_calls += phase == "user"
            args = {policy_argument(k): to_json(v) for k, v in c.args.items()}
            text = canonical_str(args)
            before = self.env.model_dump_json() if phase == "injection" else ""
            if self.adapter is None:
                value: JSON | None
                try:
                    value = self.fns[c.function](**json.loads(text))
                    outcome = "ok"
                except Exception as exc:  # the tool's declared failure, as under the monitor
                    value, outcome = None, f"failed: {exc}"
                self.executed.append(c)
                carried = self._twin_differs(c.function, args, value) and value is not None
                self._note(phase, index, carried, None)
                self.steps.append(Step(phase, c.function, text, "unmonitored", "", "", outcome, (), "", carried,
                                       phase == "injection" and self.env.model_dump_json() != before,
                                       c.function in self.writes))
                continue
            proposed = {k: self._argument(phase, v) for k, v in args.items()}
            producers = tuple(f"{k}<-{self.adapter.state.trace[h.id].tool}#{h.id}"
                              for k, v in sorted(proposed.items()) if isinstance(v, Derived) for h in v.producers)
            result = self.adapter.call(c.function, **proposed)
            decision, detail = "allow", ""
            if (isinstance(result, Refusal) and self.approvals and phase == "user"
                    and result.verdict.reason in _APPROVABLE):
                detail = f"{result.verdict.reason.value}: {result.verdict.detail}"
                result, decision = self.adapter.call(c.function, **args), "approved"
            if isinstance(result, Refusal):
                v = result.verdict
                self.steps.append(Step(phase, c.function, text, v.decision.value,
                                       v.reason.value if v.reason is not None else "", v.detail, "refused", producers))
                continue
            self.executed.append(c)
            rec = self.adapter.state.trace[-1]
            label = f"{rec.label.sensitivity}/{'trusted' if rec.label.trusted else 'untrusted'}"
            harm = phase == "injection" and self.env.model_dump_json() != before
            if isinstance(result, Failure):
                self._twin_differs(c.function, args, None)  # keep the twin in step
                self.steps.append(Step(phase, c.function, text, decision, "", detail, f"failed: {result.error}",
                                       producers, label, False, harm, c.function in self.writes))
                continue
            value = self.adapter.value(result)
            carried = self._twin_differs(c.function, args, value)
            if self.strings is not None:
                self.strings.read(result, value)
            self._note(phase, index, carried, result)
            self.steps.append(Step(phase, c.function, text, decision, "", detail, "ok", producers, label, carried,
                                   harm, c.function in self.writes))

    def _note(self, phase: str, index: int, carried: bool, handle: Handle | None) -> None:
        if carried:
            self.seen = True
            if phase == "user" and self.first_injected is None:
                self.first_injected = index
        if handle is None:
            return
        self.reads[phase].append(handle)
        if carried:
            self.injected.append(handle)


def _writes(policy: Policy | None) -> frozenset[str]:
    if policy is None:
        return frozenset()
    from model.monitor.language.policy import NodeKind

    return frozenset(t.name for t in policy.tools
                     if (n := policy.node(t.destination)) is not None and n.kind is NodeKind.SINK)
