"""Ground-truth replay of AgentDojo tasks through the monitor, judged by AgentDojo's own checks.

A *user run* executes a user task's ground-truth calls on the suite's environment (no injection) and
applies AgentDojo's utility check; a *pair run* places the attack's text in the injection vectors the
user task reads, executes the user task's calls and then the injection task's ground-truth calls, as
an agent that obeyed the injection would, and applies AgentDojo's security check (and its utility
check: utility under attack). With a policy every call goes through ``DojoAdapter``; without one the
same tool functions run unmonitored (the baseline that tells which ground truths AgentDojo's checks
accept at all).

Choices where AgentDojo's offline harness is silent:
- The agent's final text is the task's ``GROUND_TRUTH_OUTPUT`` (AgentDojo's ground-truth pipeline
  does the same); in a pair run it is the user task's followed by the injection task's, since the
  obeying agent says both. A task whose check needs text that its ground truth does not ship fails
  unmonitored and is counted apart, never guessed.
- A refused call (Deny or Pause: nobody reviews in a replay) is skipped and the agent goes on with
  its next call; only admitted calls are in the trace AgentDojo's trace-based checks read.
- A task is *completed under the monitor* when AgentDojo's check passes and no call of its ground
  truth was refused: with a read refused the agent could not have produced the expected answer,
  even though the check, which reads only the final text and environment, might still pass.
- An injection task's ground truth is computed on the environment as it is when the injection calls
  start (after the user task's calls), because some name objects the user task created. Where
  AgentDojo ships none, ours (``ground_truths``) is used; the evaluation says where.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from model.bench.agentdojo.binding import (
    Derived,
    DojoAdapter,
    Provenance,
    make_adapter,
    policy_argument,
    to_json,
    tool_functions,
)
from model.bench.agentdojo.ground_truths import ours
from model.bench.agentdojo.suites import AGENT, attack, get_suite
from model.canonical import canonical_str
from model.monitor.adapter.shell import Failure, Refusal
from model.monitor.language.policy import Policy


@dataclass(frozen=True, slots=True)
class Step:
    phase: str  # "user" | "injection"
    tool: str
    args: str  # canonical JSON of the proposed arguments
    decision: str  # "allow" | "deny" | "pause" | "unmonitored"
    reason: str  # the deny reason ("" when admitted or paused)
    detail: str
    outcome: str  # "ok" | "failed: ..." | "refused"
    producers: tuple[str, ...] = ()  # "arg<-tool#id" for every argument taken from a stored result
    label: str = ""  # the admitted call's output label, "Sensitivity/trusted|untrusted"

    @property
    def refused(self) -> bool:
        return self.outcome == "refused"

    def describe(self) -> str:
        """``tool: reason (detail) [producers]`` for a refusal, ``tool: allow label [producers]`` otherwise."""
        src = f" [{', '.join(self.producers)}]" if self.producers else " [no argument from a result]"
        if self.refused:
            return f"{self.tool}: {self.reason or self.decision} ({self.detail}){src}"
        return f"{self.tool}: {self.decision} {self.label}{src}"


@dataclass(frozen=True, slots=True)
class Run:
    steps: tuple[Step, ...]
    passed: bool  # AgentDojo's utility check (user run) or security check (pair run: goal reached)
    utility: bool  # the user task's utility check (equal to ``passed`` for a user run)

    def refused(self, phase: str | None = None) -> tuple[Step, ...]:
        return tuple(s for s in self.steps if s.refused and (phase is None or s.phase == phase))

    def completed(self) -> bool:
        """Utility under the monitor: the check passes and no user-task call was refused."""
        return self.utility and not self.refused("user")


class _Session:
    def __init__(self, suite: Any, env: Any, policy: Policy | None, prompt: str, context: bool) -> None:
        self.suite = suite
        self.adapter: DojoAdapter | None = make_adapter(policy, suite, env, AGENT) if policy is not None else None
        self.fns = tool_functions(suite, env)
        self.provenance = Provenance.start(prompt, context)
        self.steps: list[Step] = []
        self.executed: list[Any] = []  # AgentDojo FunctionCalls that reached a tool

    def run(self, phase: str, calls: list[Any]) -> None:
        for c in calls:
            args = {policy_argument(k): to_json(v) for k, v in c.args.items()}
            text = canonical_str(args)
            if self.adapter is None:
                try:
                    self.fns[c.function](**json.loads(text))
                    outcome = "ok"
                except Exception as exc:  # the tool's declared failure, as under the monitor
                    outcome = f"failed: {exc}"
                self.executed.append(c)
                self.steps.append(Step(phase, c.function, text, "unmonitored", "", "", outcome))
                continue
            proposed = {k: self.provenance.argument(v) for k, v in args.items()}
            producers = tuple(f"{k}<-{self.adapter.state.trace[h.id].tool}#{h.id}"
                              for k, v in sorted(proposed.items()) if isinstance(v, Derived) for h in v.producers)
            result = self.adapter.call(c.function, **proposed)
            if isinstance(result, Refusal):
                v = result.verdict
                self.steps.append(Step(phase, c.function, text, v.decision.value,
                                       v.reason.value if v.reason is not None else "", v.detail, "refused", producers))
                continue
            self.executed.append(c)
            rec = self.adapter.state.trace[-1]
            label = f"{rec.label.sensitivity}/{'trusted' if rec.label.trusted else 'untrusted'}"
            if isinstance(result, Failure):
                failed = f"failed: {result.error}"
                self.steps.append(Step(phase, c.function, text, "allow", "", "", failed, producers, label))
                continue
            self.provenance.read(result, self.adapter.value(result))
            self.steps.append(Step(phase, c.function, text, "allow", "", "", "ok", producers, label))


_ENVIRONMENTS: dict[tuple[str, str], Any] = {}


def _environment(suite_name: str, injections: dict[str, str]) -> Any:
    """A fresh copy of the suite's environment carrying ``injections``. AgentDojo re-parses its YAML on
    every load (most of a replay's time); parsed environments are kept, a few at a time, and copied."""
    key = (suite_name, canonical_str(injections))
    if key not in _ENVIRONMENTS:
        if len(_ENVIRONMENTS) >= 32:
            _ENVIRONMENTS.pop(next(iter(_ENVIRONMENTS)))
        _ENVIRONMENTS[key] = load_environment(get_suite(suite_name), injections)
    return _ENVIRONMENTS[key].model_copy(deep=True)


def load_environment(suite: Any, injections: dict[str, str]) -> Any:
    """AgentDojo's ``load_and_inject_default_environment`` step for step (its suite file, its injection
    defaults, ``str.format``, its model), parsed with libyaml's ``CSafeLoader`` when PyYAML has it: the
    same YAML 1.1 reading as the pure-Python ``safe_load`` AgentDojo calls, ten times faster
    (``tests/unit/test_agentdojo_replay.py`` compares the two environments)."""
    import yaml
    from agentdojo.task_suite.task_suite import read_suite_file, validate_injections

    loader = getattr(yaml, "CSafeLoader", None)
    if loader is None:
        return suite.load_and_inject_default_environment(injections)
    text = read_suite_file(suite.name, "environment.yaml", suite.data_path)
    vectors = yaml.load(read_suite_file(suite.name, "injection_vectors.yaml", suite.data_path), Loader=loader)
    defaults = {k: v["default"] for k, v in vectors.items()}
    validate_injections(injections, defaults)
    return suite.environment_type.model_validate(yaml.load(text.format(**dict(defaults, **injections)), Loader=loader))


def _check(suite: Any, task: Any, output: str, pre: Any, post: Any, traces: list[Any]) -> bool:
    from agentdojo.types import text_content_block_from_string

    return bool(suite._check_task_result(task, [text_content_block_from_string(output)], pre, post, traces))


def run_user_task(suite_name: str, task_id: str, policy: Policy | None, output: str | None = None,
                  context: bool = False) -> Run:
    """Replay a user task's ground truth; ``output`` replaces the shipped final text (``""``: none)."""
    suite = get_suite(suite_name)
    task = suite.user_tasks[task_id]
    env = task.init_environment(_environment(suite_name, {}))
    pre = env.model_copy(deep=True)
    session = _Session(suite, env, policy, task.PROMPT, context)
    session.run("user", task.ground_truth(pre.model_copy(deep=True)))
    text = task.GROUND_TRUTH_OUTPUT if output is None else output
    ok = _check(suite, task, text, pre, env, session.executed)
    return Run(tuple(session.steps), ok, ok)


def run_pair(suite_name: str, user_id: str, injection_id: str, policy: Policy | None, utility: bool = True,
             context: bool = False) -> Run:
    """The user task's calls, then the injection task's, on the environment carrying the attack
    (``utility=False`` skips the utility-under-attack check, reported as False)."""
    suite = get_suite(suite_name)
    user, inj = suite.user_tasks[user_id], suite.injection_tasks[injection_id]
    injections = attack(suite_name).attack(user, inj)
    env = user.init_environment(_environment(suite_name, injections))
    pre = env.model_copy(deep=True)
    session = _Session(suite, env, policy, user.PROMPT, context)
    session.run("user", user.ground_truth(pre.model_copy(deep=True)))
    now = env.model_copy(deep=True)
    session.run("injection", inj.ground_truth(now) or ours(suite_name, injection_id, now))
    output = "\n".join(t for t in (user.GROUND_TRUTH_OUTPUT, inj.GROUND_TRUTH_OUTPUT) if t)
    reached = _check(suite, inj, output, pre, env, session.executed)
    useful = utility and _check(suite, user, output, pre, env, session.executed)
    return Run(tuple(session.steps), reached, useful)


def run_injection_alone(suite_name: str, injection_id: str, policy: Policy | None = None) -> Run:
    """An injection task's calls alone on the suite's default environment, judged by its security check
    (AgentDojo's own test of its injection ground truths, ``TaskSuite.check``)."""
    suite = get_suite(suite_name)
    inj = suite.injection_tasks[injection_id]
    env = _environment(suite_name, {})
    pre = env.model_copy(deep=True)
    session = _Session(suite, env, policy, "", False)
    now = env.model_copy(deep=True)
    session.run("injection", inj.ground_truth(now) or ours(suite_name, injection_id, now))
    reached = _check(suite, inj, inj.GROUND_TRUTH_OUTPUT, pre, env, session.executed)
    return Run(tuple(session.steps), reached, False)


def injection_calls(suite_name: str, injection_id: str) -> tuple[int, int]:
    """How many ground-truth calls the injection task ships (0: nothing for a call monitor to stop, or
    AgentDojo left it out), and how many ours has (``ground_truths``; 0 where AgentDojo ships some)."""
    suite = get_suite(suite_name)
    return len(suite.injection_tasks[injection_id].ground_truth(_environment(suite_name, {}))), len(
        ours(suite_name, injection_id, _environment(suite_name, {})))
