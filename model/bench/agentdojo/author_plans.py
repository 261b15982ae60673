"""Writing the planner's plans: ``python -m model.bench.agentdojo.author_plans`` derives every user
task's plan and writes ``corpus/agentdojo/plans/SUITE.json``; ``--check`` derives them again and
exits 1 when a committed file differs (a new AgentDojo version, a change of the rules below).

This is the authoring step of ``plans`` (its docstring has the rules): it reads each task's prompt,
its ground truth and, for a value the task leaves free, AgentDojo's own check of the task, all on the
injection-free environment. It runs before any run, never during one: the run path (``plans.plan``,
``session``, the ``agentdojo`` command) reads the committed files and imports nothing from here.

A file holds, per user task, its prompt (for the reader; the run does not use it) and its steps: the
tool, the arguments as planned, and per argument where its value comes from (``from``: ``prompt``,
``constant`` with ``of`` ``signature`` (a member of the argument's enumeration) or ``free`` (a value
the task leaves free), ``extracted`` with ``sources`` and, where found, ``places`` and ``rows``, or
``computed`` from every earlier result). The schema is ``corpus/schemas/agentdojo_plans.schema.json``.
"""

from __future__ import annotations

import argparse
import enum
import json
import re
import sys
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from model.base.canonical import JSON, canonical_str
from model.base.jsonio import read_text
from model.bench.agentdojo.binding import dojo_argument, policy_argument, to_json, tool_functions
from model.bench.agentdojo.environment import copy, environment
from model.bench.agentdojo.literals import Typed, placeholder, scalars, tokens
from model.bench.agentdojo.plans import PLANS_BY, Rows, leaves, plans_path, records
from model.bench.agentdojo.suites import SUITES, VERSION, get_suite, require


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


def derive(suite_name: str, task_id: str) -> list[dict[str, JSON]]:
    """The steps of a user task's plan as its file holds them (``plans`` docstring for the rules)."""
    suite = get_suite(suite_name)
    task = suite.user_tasks[task_id]
    env = task.init_environment(environment(suite_name, {}))
    calls = task.ground_truth(copy(env))
    fns = tool_functions(suite, env)
    user = Typed(task.PROMPT)
    results: list[Typed] = []
    raw: list[JSON] = []
    steps: list[dict[str, JSON]] = []
    for i, c in enumerate(calls):
        args = {policy_argument(k): to_json(v) for k, v in c.args.items()}
        arguments: dict[str, JSON] = {}
        for k, v in sorted(args.items()):
            if isinstance(v, str) and v in _constants(suite, c.function, k):
                arguments[k] = {"from": "constant", "of": "signature"}
                continue
            src, how = _sources(v, user, results)
            if how == "computed" and _unheld(v, user, results) and _free(suite, task, task.init_environment(
                    environment(suite_name, {})), i, k, user):
                arguments[k] = {"from": "constant", "of": "free"}
                continue
            entry: dict[str, JSON] = {"from": how}
            if how != "prompt":
                entry["sources"] = list(src)
            if how == "extracted":
                if found := places(v, user, [raw[j] for j in src]):
                    entry["places"] = list(found)
                if at := _rows(v, user, src, raw):
                    entry["rows"] = [[j, list(pos)] for j, pos in at]
            arguments[k] = entry
        steps.append({"tool": c.function, "args": json.loads(canonical_str(args)), "arguments": arguments})
        try:
            value: JSON = fns[c.function](**args)
        except Exception:  # a failing call yields nothing to extract from
            value = None
        results.append(Typed("\n".join(scalars(value))))
        raw.append(value)
    return steps


def document(suite_name: str) -> dict[str, JSON]:
    """The plans file of a suite: every user task's prompt and plan."""
    suite = get_suite(suite_name)
    return {"suite": suite_name, "agentdojo": VERSION, "written_by": PLANS_BY,
            "tasks": {t: {"prompt": suite.user_tasks[t].PROMPT, "steps": derive(suite_name, t)}
                      for t in suite.user_tasks}}


def text(doc: JSON) -> str:
    """The file's text: one JSON document, keys in the order written, non-ASCII kept, a list of call
    or record indices on one line (JSON text holds no raw newline inside a string, so the pattern
    only meets lists)."""
    spread = json.dumps(doc, indent=1, ensure_ascii=False)
    return _INDICES.sub(lambda m: "[" + ", ".join(re.findall(r"\d+", m.group(1))) + "]", spread) + "\n"


_INDICES = re.compile(r"\[\s*((?:\d+,?\s*)*)\]")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m model.bench.agentdojo.author_plans", description=__doc__.split(
        "\n\n")[0])
    parser.add_argument("suites", nargs="*", metavar="SUITE", help=f"some of {', '.join(SUITES)} (default: all)")
    parser.add_argument("--check", action="store_true", help="derive again and compare; write nothing")
    ns = parser.parse_args(argv)
    if unknown := [s for s in ns.suites if s not in SUITES]:
        parser.error(f"unknown suite {unknown[0]!r}: one of {', '.join(SUITES)}")
    require()
    stale = []
    for s in ns.suites or SUITES:
        path: Path = plans_path(s)
        new = text(document(s))
        if ns.check:
            old = read_text(path) if path.exists() else ""
            if old != new:
                stale.append(str(path))
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(new, encoding="utf-8")
            print(f"wrote {path}")
    for p in stale:
        print(f"{p} differs from the plans derived now", file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
