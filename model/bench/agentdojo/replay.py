"""Ground-truth replay of AgentDojo tasks through the monitor, judged by AgentDojo's own checks.

A *user run* executes a user task's ground-truth calls on the suite's environment (no injection) and
applies AgentDojo's utility check; a *pair run* places an attack variant's text (``variants``) in the
injection vectors the user task reads, executes the user task's calls with the injection task's
ground-truth calls placed after them (*appended*) or after the user call at a given index
(*interleaved*), as an agent that obeyed the injection would, and applies AgentDojo's security check
and its utility check (utility under attack). With a policy every call goes through ``DojoAdapter``;
without one the same tool functions run unmonitored.

Provenance (``Mode``): ``EXACT`` attributes each argument to the results it was computed from
(``exact``), ``STRINGS`` is the string-matching baseline (``binding.Provenance``). In both, the
injected results are known exactly: every call also runs on the *twin* environment, whose vectors
hold their defaults, and a result that differs there carries the injection.

Choices where AgentDojo's offline harness is silent:
- The agent's final text is the task's ``GROUND_TRUTH_OUTPUT``; in a pair run the user task's then
  the injection task's. A task whose check needs text its ground truth does not ship fails
  unmonitored and is counted apart, never guessed.
- A refused call is skipped and the agent goes on; only admitted calls are in the trace AgentDojo's
  trace-based checks read. A task is *completed* when AgentDojo's check passes and no call of its
  ground truth was refused.
- *Approvals*: with ``approvals``, a user-task call the monitor refuses for its flow or origin rules
  (a label, not a permission or quota) is a Pause the user answers: the user vouches for the values
  shown, so the call is proposed again with them as the user's literals. Injection calls are never
  approved (the user did not ask for them). The monitor has no Pause for a flow (a flow violation is
  a Deny), so this is the harness's model of a review, counted apart from plain utility.
- An obeying agent acts on the injection only once it has read it: if no admitted result carried it
  when the injection calls are due, they are not proposed.
- *Harm*: an admitted injection call that changed the environment (its model before and after
  differ), whether or not AgentDojo's goal check is met.
- An injection task's ground truth is computed on the environment as it is when its calls start.
  Where AgentDojo ships none, ours (``ground_truths``) is used; the evaluation says where.
"""

from __future__ import annotations

import enum
from typing import Any

from model.bench.agentdojo.environment import candidates, copy, defaults, environment
from model.bench.agentdojo.ground_truths import ours
from model.bench.agentdojo.session import Run, Session, Step
from model.bench.agentdojo.suites import get_suite
from model.bench.agentdojo.variants import injections as variant_text
from model.monitor.language.policy import Policy

__all__ = ["Mode", "Run", "Step", "injection_calls", "load_environment", "run_injection_alone", "run_pair",
           "run_user_task"]


class Mode(enum.Enum):
    EXACT = "exact provenance"
    STRINGS = "string matching (baseline)"


def load_environment(suite: Any, injections: dict[str, str]) -> Any:
    """The suite's environment carrying ``injections`` (``environment``)."""
    return environment(suite.name, injections)


def _check(suite: Any, task: Any, output: str, pre: Any, post: Any, traces: list[Any]) -> bool:
    from agentdojo.types import text_content_block_from_string

    return bool(suite._check_task_result(task, [text_content_block_from_string(output)], pre, post, traces))


def run_user_task(suite_name: str, task_id: str, policy: Policy | None, mode: Mode = Mode.EXACT,
                  approvals: bool = False, output: str | None = None) -> Run:
    """Replay a user task's ground truth; ``output`` replaces the shipped final text (``""``: none)."""
    suite = get_suite(suite_name)
    task = suite.user_tasks[task_id]
    env = task.init_environment(environment(suite_name, {}))
    pre = copy(env)
    s = Session(suite, env, None, policy, task.PROMPT, mode is Mode.STRINGS, approvals)
    s.run("user", task.ground_truth(pre))
    text = task.GROUND_TRUTH_OUTPUT if output is None else output
    ok = _check(suite, task, text, pre, env, s.executed)
    return s.result(ok, ok)


def run_pair(suite_name: str, user_id: str, injection_id: str, policy: Policy | None, mode: Mode = Mode.EXACT,
             variant: str = "direct", at: int | None = None, utility: bool = True) -> Run:
    """The user task's calls with the injection task's after the user call at index ``at`` (``None``:
    after all of them), on the environment carrying ``variant`` (``utility=False`` skips the
    utility-under-attack check, reported as False)."""
    suite = get_suite(suite_name)
    user, inj = suite.user_tasks[user_id], suite.injection_tasks[injection_id]
    vectors = candidates(suite_name, user_id)
    texts = variant_text(variant, inj.GOAL, vectors, defaults(suite_name))
    env = user.init_environment(environment(suite_name, texts))
    twin = user.init_environment(environment(suite_name, {}))
    pre = copy(env)
    calls = user.ground_truth(pre)  # ground truths read the environment, never change it
    s = Session(suite, env, twin, policy, user.PROMPT, mode is Mode.STRINGS, False)
    cut = len(calls) if at is None else at + 1
    s.run("user", calls[:cut])
    if s.seen_injection():
        s.run("injection", inj.ground_truth(env) or ours(suite_name, injection_id, env))
    s.run("user", calls[cut:])
    output = "\n".join(t for t in (user.GROUND_TRUTH_OUTPUT, inj.GROUND_TRUTH_OUTPUT) if t)
    reached = _check(suite, inj, output, pre, env, s.executed)
    useful = utility and _check(suite, user, output, pre, env, s.executed)
    return s.result(reached, useful)


def run_injection_alone(suite_name: str, injection_id: str, policy: Policy | None = None) -> Run:
    """An injection task's calls alone on the suite's default environment, judged by its security check
    (AgentDojo's own test of its injection ground truths, ``TaskSuite.check``)."""
    suite = get_suite(suite_name)
    inj = suite.injection_tasks[injection_id]
    env = environment(suite_name, {})
    pre = env.model_copy(deep=True)
    s = Session(suite, env, None, policy, "", False, False)
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
