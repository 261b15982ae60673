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
- a value the task leaves free, which it neither copies nor computes: a date (and time) or words
  whose every token the user typed or no earlier result holds, such that AgentDojo's own check of
  the task passes as well with the value moved (a date-time whose date the user typed: an hour on the
  same day; another date: three days and an hour later; words: another word): a constant the plan
  sets (a payment's date and subject, a reminder's hour), which no read value can change. The
  deployment has no clock tool and the task does not say which date, hour or subject, so any value
  completes it and the planner writes one from the prompt alone. A value the task constrains (an
  event's end from a start read in a mail and a stated duration) is computed, below. This reads the
  task's check, as the plans read its ground truth, before any run and on the injection-free
  environment; a placeholder for text computed from what was read is never free;
- otherwise (a value computed, not copied: a sum, a summary): computed from every earlier result,
  and the plan says so by naming them all.

An extracted argument also records *where* the plan found it: the places (keys, list positions
left out: ``amount`` in the transactions) of the named results that hold each of its values whole,
when every value is a whole field there (``places``), and the records (list elements by position)
that hold one (``rows``). A deployment's planner reads a field of a record; the decider takes a
trusted field's label only from those records, and the provenance-aware reviewer wants the value
whole in that place of those records (``session.Decider``), so an attacker who writes a value into
a subject or a review, or names another record's amount there, has not written what the plan reads.

The plans are not reviewed by hand task by task; ``agentwarrant agentdojo SUITE TASK --plan`` prints
one. A plan whose argument is extracted from an untrusted result says so by naming that result. The
extraction step reads a field of it: at run time the decider gives the argument the label of the
field it reads when that field is one the policy trusts (``fields``, ``session.Decider``).
"""

from __future__ import annotations

import enum
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cache
from typing import Any

from model.base.canonical import JSON, canonical_str
from model.bench.agentdojo.binding import dojo_argument, policy_argument, to_json, tool_functions
from model.bench.agentdojo.environment import copy, environment
from model.bench.agentdojo.literals import Typed, placeholder, scalars, tokens
from model.bench.agentdojo.suites import get_suite

Sources = dict[str, tuple[int, ...]]  # argument -> indices of earlier plan calls (() = from the prompt)
Rows = tuple[tuple[int, tuple[int, ...]], ...]  # (plan call, positions of records of its result)


@dataclass(frozen=True, slots=True)
class PlanStep:
    tool: str
    # (argument, sources, how: prompt|constant|extracted|computed)
    sources: tuple[tuple[str, tuple[int, ...], str], ...]
    args: str = "{}"  # canonical JSON of the call's arguments as planned (a reviewer matches reads by them)
    # argument -> the places (``leaves``) of the named results where the plan found each of its values
    # whole; only for arguments every extracted scalar of which is a whole value there
    where: tuple[tuple[str, tuple[str, ...]], ...] = ()
    # argument -> (named plan call, the positions of the records of its result, an element of a list
    # result or the result itself, that hold one of its values whole): which record the plan reads
    rows: tuple[tuple[str, Rows], ...] = ()

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


_WHEN = ("%Y-%m-%d %H:%M", "%Y-%m-%d")


def _moved(value: JSON, user: Typed | None = None) -> str | None:
    """``value`` moved where the user did not fix it, in its own format: an hour on the same day when
    it has a time and the user typed its date (earlier when later would change the day), else three
    days and an hour later; ``None`` if it is no date (and time)."""
    if not isinstance(value, str) or placeholder(value):
        return None
    for f in _WHEN:
        try:
            when = datetime.strptime(value, f)
        except ValueError:
            continue
        if f == _WHEN[0] and user is not None and all(user.has(t) for t in tokens(value) if t.kind == "date"):
            hour = timedelta(hours=1)
            moved = when + hour if (when + hour).date() == when.date() else when - hour
            return moved.strftime(f)
        return (when + timedelta(days=3, hours=1)).strftime(f)
    return "moved" if value.strip() else None


def _free(suite: Any, task: Any, env: Any, call: int, arg: str, user: Typed) -> bool:
    """AgentDojo's check of ``task`` passes with argument ``arg`` of call ``call`` of its ground truth
    moved (``_moved``): the task does not constrain the value. Run unmonitored on a copy of ``env``."""
    from agentdojo.types import text_content_block_from_string

    calls = list(task.ground_truth(copy(env)))
    args = dict(calls[call].args)
    native = dojo_argument(arg)
    later = _moved(to_json(args.get(native)), user)
    if later is None:
        return False
    args[native] = later
    calls[call] = calls[call].model_copy(update={"args": args})
    post = copy(env)
    fns = tool_functions(suite, post)
    for c in calls:
        try:
            fns[c.function](**{policy_argument(k): to_json(v) for k, v in c.args.items()})
        except Exception:  # the tool's declared failure: the check judges what happened
            continue
    output = [text_content_block_from_string(task.GROUND_TRUTH_OUTPUT)]
    return bool(suite._check_task_result(task, output, copy(env), post, calls))


def leaves(value: JSON, path: str = "") -> Iterator[tuple[str, str]]:
    """Each scalar leaf of a result as text (``literals.scalars``) with its place: the keys on the way
    to it joined by ``/``, list positions left out (``amount`` in a list of transactions; ``*`` for a
    list of scalars; the key itself for a mapping such as hotel -> address)."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield from leaves(v, f"{path}/{k}" if path else str(k))
    elif isinstance(value, list):
        for v in value:
            yield from leaves(v, path)
    else:
        for text in scalars(value):
            yield path or "*", text


def places(value: JSON, user: Typed, results: list[JSON]) -> tuple[str, ...]:
    """The places of ``results`` that hold every scalar of ``value`` the user did not type as a whole
    leaf (typed tokens equal), or ``()`` when some scalar is no whole leaf of them (a value inside a
    longer text)."""
    found: set[str] = set()
    for s in scalars(value):
        if user.holds(s):
            continue
        want = tokens(s)
        hits = {p for r in results for p, leaf in leaves(r) if tokens(leaf) == want}
        if not hits:
            return ()
        found |= hits
    return tuple(sorted(found))


def records(value: JSON) -> list[JSON]:
    """The records of a result by position: the elements of a list, else the result itself."""
    return value if isinstance(value, list) else [value]


def _rows(value: JSON, user: Typed, src: tuple[int, ...], results: list[JSON]) -> Rows:
    """The records of the named results that hold one of ``value``'s scalars (not typed) whole."""
    wanted = [tokens(s) for s in scalars(value) if not user.holds(s)]
    out = []
    for j in src:
        at = tuple(p for p, rec in enumerate(records(results[j]))
                   if any(tokens(leaf) in wanted for _, leaf in leaves(rec)))
        if at:
            out.append((j, at))
    return tuple(out)


def _unheld(value: JSON, user: Typed, results: list[Typed]) -> bool:
    """``value`` is a date (and time) none of whose tokens a result holds unless the user typed it."""
    return _moved(value) is not None and all(
        t.kind in ("date", "time", "word") and (user.has(t) or not any(r.has(t) for r in results))
        for x in scalars(value) for t in tokens(x))


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
    raw: list[JSON] = []
    steps = []
    for i, c in enumerate(calls):
        args = {policy_argument(k): to_json(v) for k, v in c.args.items()}
        sources: list[tuple[str, tuple[int, ...], str]] = []
        for k, v in sorted(args.items()):
            if isinstance(v, str) and v in _constants(suite, c.function, k):
                sources.append((k, (), "constant"))
                continue
            src, how = _sources(v, user, results)
            if how == "computed" and _unheld(v, user, results) and _free(suite, task, task.init_environment(
                    environment(suite_name, {})), i, k, user):
                src, how = (), "constant"
            sources.append((k, src, how))
        where = tuple((k, found) for k, src, how in sources if how == "extracted"
                      and (found := places(args[k], user, [raw[j] for j in src])))
        rows = tuple((k, at) for k, src, how in sources if how == "extracted"
                     and (at := _rows(args[k], user, src, raw)))
        steps.append(PlanStep(c.function, tuple(sources), canonical_str(args), where, rows))
        try:
            value: JSON = fns[c.function](**args)
        except Exception:  # a failing call yields nothing to extract from
            value = None
        results.append(Typed("\n".join(scalars(value))))
        raw.append(value)
    return tuple(steps)


def describe(suite_name: str, task_id: str) -> list[str]:
    """One line per plan call: ``i. tool(arg <- prompt | extracted from #j,... | computed from ...)``."""
    lines = []
    for i, st in enumerate(plan(suite_name, task_id)):
        parts = [f"{k} <- {how}" + (f" {', '.join(f'#{j}' for j in src)}" if src else "") for k, src, how in st.sources]
        lines.append(f"{i}. {st.tool}({'; '.join(parts)})")
    return lines
