"""Plans for the planner agent: each user task as a program over tracked values, written from the
prompt alone (the architecture of *Defeating Prompt Injections by Design* (CaMeL) and of *Securing AI
Agents with Information-Flow Control* (FIDES)).

A plan is the user task's calls in order; each argument names where its value comes from: the
user's prompt (a value the user typed, ``literals``), or the results of named earlier calls of the
plan, from which an *extraction step* reads it (the value then carries those results' labels). An
injection cannot add a call to a plan; it can only poison what an extraction step reads.

How the plans are written (a choice; nothing in AgentDojo records it): mechanically, from each task's
prompt and ground truth, on the injection-free environment, before any run. For each argument of
each ground-truth call:

- a ground truth's placeholder for computed text (``<summary>``): computed from every earlier result;
- a member of the argument's own enumeration in the tool's signature (``share_file``'s permission
  ``"r"``): a constant of the tool, which the plan writes from the signature, not data read from a
  result (whatever result happens to hold the same letter);
- every scalar made of tokens the user typed: from the prompt;
- otherwise the earlier calls whose results contain the scalar's tokens (every token not in the
  prompt found in some result; the sources are all results holding one of them): extracted from
  those results;
- otherwise (a value computed, not copied: a sum, a summary): computed from every earlier result,
  and the plan says so by naming them all.

The plans are not reviewed by hand task by task; ``agentwarrant agentdojo SUITE TASK --plan`` prints
one. A plan whose argument is extracted from an untrusted result says so by naming that result. The
extraction step reads a field of it: at run time the decider gives the argument the label of the
field it reads when that field is one the policy trusts (``fields``, ``session.Decider``).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from functools import cache
from typing import Any

from model.base.canonical import JSON, canonical_str
from model.bench.agentdojo.binding import dojo_argument, policy_argument, to_json, tool_functions
from model.bench.agentdojo.environment import copy, environment
from model.bench.agentdojo.literals import Typed, placeholder, scalars, tokens
from model.bench.agentdojo.suites import get_suite

Sources = dict[str, tuple[int, ...]]  # argument -> indices of earlier plan calls (() = from the prompt)


@dataclass(frozen=True, slots=True)
class PlanStep:
    tool: str
    # (argument, sources, how: prompt|constant|extracted|computed)
    sources: tuple[tuple[str, tuple[int, ...], str], ...]
    args: str = "{}"  # canonical JSON of the call's arguments as planned (a reviewer matches reads by them)

    def as_sources(self) -> Sources:
        return {k: s for k, s, _ in self.sources}


def _constants(suite: Any, tool: str, arg: str) -> frozenset[JSON]:
    """The values of an argument whose type in the tool's signature is an enumeration."""
    for f in suite.tools:
        if f.name == tool:
            field = f.parameters.model_fields.get(dojo_argument(arg))
            kind = field.annotation if field is not None else None
            if isinstance(kind, type) and issubclass(kind, enum.Enum):
                return frozenset(m.value for m in kind)
    return frozenset()


def _sources(value: JSON, user: Typed, results: list[Typed]) -> tuple[tuple[int, ...], str]:
    found: set[int] = set()
    for s in scalars(value):
        if placeholder(s):  # text computed from what was read
            return tuple(range(len(results))), "computed"
        if user.holds(s):
            continue
        whole = [j for j, r in enumerate(results) if r.holds(s)]
        if whole:
            found.update(whole)
            continue
        for t in tokens(s):
            if user.has(t):
                continue
            hits = [j for j, r in enumerate(results) if r.has(t)]
            if not hits:
                return tuple(range(len(results))), "computed"
            found.update(hits)
    if not found:
        return (), "prompt"
    return tuple(sorted(found)), "extracted"


@cache
def plan(suite_name: str, task_id: str) -> tuple[PlanStep, ...]:
    """The plan of a user task (see the module docstring for how it is written)."""
    suite = get_suite(suite_name)
    task = suite.user_tasks[task_id]
    env = task.init_environment(environment(suite_name, {}))
    calls = task.ground_truth(copy(env))
    fns = tool_functions(suite, env)
    user = Typed(task.PROMPT)
    results: list[Typed] = []
    steps = []
    for c in calls:
        args = {policy_argument(k): to_json(v) for k, v in c.args.items()}
        steps.append(PlanStep(c.function, tuple(
            (k, (), "constant") if isinstance(v, str) and v in _constants(suite, c.function, k)
            else (k, *_sources(v, user, results)) for k, v in sorted(args.items())), canonical_str(args)))
        try:
            value: JSON = fns[c.function](**args)
        except Exception:  # a failing call yields nothing to extract from
            value = None
        results.append(Typed("\n".join(scalars(value))))
    return tuple(steps)


def describe(suite_name: str, task_id: str) -> list[str]:
    """One line per plan call: ``i. tool(arg <- prompt | extracted from #j,... | computed from ...)``."""
    lines = []
    for i, st in enumerate(plan(suite_name, task_id)):
        parts = [f"{k} <- {how}" + (f" {', '.join(f'#{j}' for j in src)}" if src else "") for k, src, how in st.sources]
        lines.append(f"{i}. {st.tool}({'; '.join(parts)})")
    return lines
