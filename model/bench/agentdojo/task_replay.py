"""Ground-truth replay of AgentDojo tasks through the monitor, judged by AgentDojo's own checks.

A *user run* executes a user task's calls on the suite's environment (no injection) and applies
AgentDojo's utility check; a *pair run* places an attack variant's text (``variants``) in the
injection vectors the user task reads and applies AgentDojo's security check and its utility check
(utility under attack). What the agent proposes depends on its architecture (``session.Agent``):

- the *single-context agent* (and the oracle upper bound) proposes the user task's ground-truth
  calls and, once it has read the injection, obeys it: the injection task's ground-truth calls placed
  after all user calls (*appended*) or after the user call at a given index (*interleaved*);
- the *planner agent* runs the user task's plan (``plans``): the injection cannot add calls to it.

With a policy every call goes through the decider (``session.Decider``: prompt, policy, proposed
calls and their results only); without one the same tool functions run unmonitored. The scorer
(``session.Scorer``) holds the injection-free twin environment and the phase of every call, for
scoring only.

Choices where AgentDojo's offline harness is silent:
- The agent's final text is the task's ``GROUND_TRUTH_OUTPUT``; in a pair run the user task's then
  the injection task's. A task whose check needs text its ground truth does not ship fails
  unmonitored and is counted apart, never guessed.
- A refused call is skipped and the agent goes on; only admitted calls are in the trace AgentDojo's
  trace-based checks read. A task is *completed* when AgentDojo's check passes and no call of its
  ground truth was refused.
- An obeying agent acts on the injection only once it has read it: if no admitted result carried it
  when the injection calls are due, they are not proposed. This is the attacker's model, decided by
  the harness (the twin shows which results carried the text), never by the decider.
- An injection task's ground truth is computed on the environment as it is when its calls start.
  Where AgentDojo ships none, ours (``ground_truths``) is used; the evaluation says where.
"""

from __future__ import annotations

import hashlib
from typing import Any

from model.base.canonical import canonical_str
from model.bench.agentdojo.authored import AUTHORED_VARIANTS, authored_environment
from model.bench.agentdojo.binding import to_json
from model.bench.agentdojo.environment import candidates, copy, defaults, environment
from model.bench.agentdojo.ground_truths import ours
from model.bench.agentdojo.plans import plan
from model.bench.agentdojo.session import Agent, Decider, Review, Run, Session, Step, planned
from model.bench.agentdojo.suites import get_suite, suite_policy
from model.bench.agentdojo.variants import injections as variant_text
from model.monitor.language.policy import Policy

__all__ = ["Agent", "Review", "Run", "Step", "decide_again", "injection_calls", "load_environment",
           "reached_by_placement", "run_injection_alone", "run_pair", "run_user_task"]


def load_environment(suite: Any, injections: dict[str, str]) -> Any:
    """The suite's environment carrying ``injections`` (``environment``)."""
    return environment(suite.name, injections)


_CHECKED: dict[tuple[str, ...], bool] = {}


def _check(suite: Any, task: Any, output: str, pre: Any, post: Any, traces: list[Any]) -> bool:
    """AgentDojo's check of ``task``. It is a function of its inputs, so its verdict is kept per (task,
    output, the two environments' JSON digests, the calls' canonical JSON): a pair replayed under many
    configurations often ends in the same state, and the check's deep comparison of the environments is
    most of a run's time."""
    from agentdojo.types import text_content_block_from_string

    key = (suite.name, type(task).__name__, output, _digest(pre.model_dump_json()), _digest(post.model_dump_json()),
           canonical_str([[c.function, to_json(dict(c.args))] for c in traces]))
    if key not in _CHECKED:
        if len(_CHECKED) > 4096:
            _CHECKED.clear()
        _CHECKED[key] = bool(suite._check_task_result(task, [text_content_block_from_string(output)], pre, post,
                                                      traces))
    return _CHECKED[key]


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _plan_of(suite_name: str, task_id: str) -> tuple[dict[str, tuple[int, ...]], ...]:
    return tuple(st.as_sources() for st in plan(suite_name, task_id))


def run_user_task(suite_name: str, task_id: str, policy: Policy | None, agent: Agent = Agent.SINGLE,
                  review: Review = Review.NONE, output: str | None = None) -> Run:
    """Replay a user task; ``output`` replaces the shipped final text (``""``: none)."""
    suite = get_suite(suite_name)
    task = suite.user_tasks[task_id]
    env = task.init_environment(environment(suite_name, {}))
    pre = copy(env)
    s = Session(suite, env, None, policy, task.PROMPT, agent, review, suite_policy(suite_name),
                plan(suite_name, task_id))
    s.run("user", task.ground_truth(pre), _plan_of(suite_name, task_id) if agent is Agent.PLANNER else None)
    text = task.GROUND_TRUTH_OUTPUT if output is None else output
    ok = _check(suite, task, text, pre, env, s.executed)
    return s.result(ok, ok)


def _pair_envs(suite_name: str, user_id: str, injection_id: str, variant: str) -> tuple[Any, Any]:
    suite = get_suite(suite_name)
    user, inj = suite.user_tasks[user_id], suite.injection_tasks[injection_id]
    if variant in AUTHORED_VARIANTS:
        return authored_environment(suite_name, user_id, injection_id, variant), user.init_environment(
            environment(suite_name, {}))
    vectors = candidates(suite_name, user_id)
    texts = variant_text(variant, inj.GOAL, vectors, defaults(suite_name))
    return user.init_environment(environment(suite_name, texts)), user.init_environment(environment(suite_name, {}))


def run_pair(suite_name: str, user_id: str, injection_id: str, policy: Policy | None, agent: Agent = Agent.SINGLE,
             review: Review = Review.NONE, variant: str = "direct", at: int | None = None,
             utility: bool = True) -> Run:
    """The user task's calls with the injection task's after the user call at index ``at`` (``None``:
    after all of them), on the environment carrying ``variant`` (``utility=False`` skips the
    utility-under-attack check, reported as False). The planner agent runs its plan only."""
    return _pair(suite_name, user_id, injection_id, policy, agent, review, variant, at, utility)[0]


def _pair(suite_name: str, user_id: str, injection_id: str, policy: Policy | None, agent: Agent, review: Review,
          variant: str, at: int | None, utility: bool) -> tuple[Run, Session]:
    suite = get_suite(suite_name)
    user, inj = suite.user_tasks[user_id], suite.injection_tasks[injection_id]
    env, twin = _pair_envs(suite_name, user_id, injection_id, variant)
    pre = copy(env)
    calls = user.ground_truth(pre)  # ground truths read the environment, never change it
    s = Session(suite, env, twin, policy, user.PROMPT, agent, review, suite_policy(suite_name),
                plan(suite_name, user_id))
    if agent is Agent.PLANNER:
        s.run("user", calls, _plan_of(suite_name, user_id))
    else:
        cut = len(calls) if at is None else at + 1
        s.run("user", calls[:cut])
        if s.seen_injection():
            s.run("injection", inj.ground_truth(env) or ours(suite_name, injection_id, env))
        s.run("user", calls[cut:])
    output = "\n".join(t for t in (user.GROUND_TRUTH_OUTPUT, inj.GROUND_TRUTH_OUTPUT) if t)
    reached = _check(suite, inj, output, pre, env, s.executed)
    useful = utility and _check(suite, user, output, pre, env, s.executed)
    return s.result(reached, useful), s


def reached_by_placement(suite_name: str, user_id: str, injection_id: str, variant: str) -> bool:
    """Whether AgentDojo's security check finds the injection goal reached on the environment carrying
    ``variant`` before any call (the text itself satisfies the check: the ``fields`` variant writes a
    phishing link into the very inbox the check reads)."""
    suite = get_suite(suite_name)
    user, inj = suite.user_tasks[user_id], suite.injection_tasks[injection_id]
    env, _ = _pair_envs(suite_name, user_id, injection_id, variant)
    output = "\n".join(t for t in (user.GROUND_TRUTH_OUTPUT, inj.GROUND_TRUTH_OUTPUT) if t)
    return _check(suite, inj, output, copy(env), env, [])


def decide_again(suite_name: str, user_id: str, injection_id: str, policy: Policy, agent: Agent, review: Review,
                 variant: str = "direct", at: int | None = None) -> tuple[list[tuple[object, ...]],
                                                                           list[tuple[object, ...]]]:
    """The decisions of a pair run, and the decisions a bare ``Decider`` (no twin, no phase, no scorer)
    makes on the same proposed calls on a fresh copy of the same environment: equal when nothing the
    decider uses comes from the scorer. Not for the oracle, which is given the scorer's knowledge."""
    run, s = _pair(suite_name, user_id, injection_id, policy, agent, review, variant, at, False)
    env, _ = _pair_envs(suite_name, user_id, injection_id, variant)
    suite = get_suite(suite_name)
    bare = Decider(suite, env, policy, suite.user_tasks[user_id].PROMPT, agent, review, plan(suite_name, user_id))
    plan_ = _plan_of(suite_name, user_id) if agent is Agent.PLANNER else None
    handles: list[Any] = []
    again: list[tuple[object, ...]] = []
    for i, (tool, args) in enumerate(s.proposals()):
        d = bare.propose(tool, args, None if plan_ is None else planned(plan_[i], args, handles))
        handles.append(d.handle)
        again.append(d.key())
    return [st.decided.key() for st in run.steps], again


def run_injection_alone(suite_name: str, injection_id: str, policy: Policy | None = None) -> Run:
    """An injection task's calls alone on the suite's default environment, judged by its security check
    (AgentDojo's own test of its injection ground truths, ``TaskSuite.check``)."""
    suite = get_suite(suite_name)
    inj = suite.injection_tasks[injection_id]
    env = environment(suite_name, {})
    pre = env.model_copy(deep=True)
    s = Session(suite, env, None, policy, "", Agent.SINGLE, Review.NONE, suite_policy(suite_name))
    now = env.model_copy(deep=True)
    s.run("injection", inj.ground_truth(now) or ours(suite_name, injection_id, now))
    reached = _check(suite, inj, inj.GROUND_TRUTH_OUTPUT, pre, env, s.executed)
    return s.result(reached, False)


def injection_calls(suite_name: str, injection_id: str) -> tuple[int, int]:
    """How many ground-truth calls the injection task ships (0: nothing for a call monitor to stop, or
    AgentDojo left it out), and how many ours has (``ground_truths``; 0 where AgentDojo ships some)."""
    suite = get_suite(suite_name)
    return len(suite.injection_tasks[injection_id].ground_truth(environment(suite_name, {}))), len(
        ours(suite_name, injection_id, environment(suite_name, {})))
