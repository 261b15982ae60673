"""Plans for the planner agent: each user task as a program over tracked values, written from the
prompt alone (the architecture of *Defeating Prompt Injections by Design* (CaMeL) and of *Securing AI
Agents with Information-Flow Control* (FIDES)).

A plan is the user task's calls in order; each argument names where its value comes from: the
user's prompt (a value the user typed, ``literals``), or the results of named earlier calls of the
plan, from which an *extraction step* reads it (the value then carries those results' labels). An
injection cannot add a call to a plan; it can only poison what an extraction step reads.

The plans are data, written before any run and committed: ``corpus/agentdojo/plans/SUITE.json``, one
entry per user task (its prompt, and per call the tool, the arguments as planned and where each comes
from), checked against ``corpus/schemas/agentdojo_plans.schema.json``. The authoring script
``python -m model.bench.agentdojo.author_plans`` writes them (``--check`` derives them again and
compares); a run reads only the files (``plan``), through ``jsonio.load_file``, and refuses a file
that does not validate with ``InvalidInput`` naming its JSON path. Reading a plan imports nothing of
the authoring script and runs neither a ground truth nor AgentDojo's check: no decision depends on
the check, which only judges a replay after its calls (``task_replay``).

How the plans are written (a choice; nothing in AgentDojo records it): mechanically, from each task's
prompt and ground truth, on the injection-free environment, by the authoring script. For each argument
of each ground-truth call:

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
  environment, and the file marks the value ``free``; a placeholder for text computed from what was
  read is never free;
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

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from model.base.canonical import JSON, canonical_str
from model.base.errors import InputKind, InvalidInput, Location, json_path
from model.base.jsonio import load_file
from model.bench.agentdojo.literals import scalars
from model.bench.agentdojo.suites import SUITES, VERSION, corpus_dir

Sources = dict[str, tuple[int, ...]]  # argument -> indices of earlier plan calls (() = from the prompt)
Rows = tuple[tuple[int, tuple[int, ...]], ...]  # (plan call, positions of records of its result)

PLANS_BY = "python -m model.bench.agentdojo.author_plans"  # the authoring script, named in every file
SCHEMA = "agentdojo_plans.schema.json"


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


def records(value: JSON) -> list[JSON]:
    """The records of a result by position: the elements of a list, else the result itself."""
    return value if isinstance(value, list) else [value]


def plans_path(suite_name: str) -> Path:
    """``corpus/agentdojo/plans/SUITE.json``."""
    if suite_name not in SUITES:
        raise InvalidInput("suite", f"one of {', '.join(SUITES)}", suite_name, InputKind.VALUE)
    return corpus_dir() / "plans" / f"{suite_name}.json"


def plan(suite_name: str, task_id: str) -> tuple[PlanStep, ...]:
    """The plan of a user task, as its suite's committed plans file holds it."""
    tasks = _suite_plans(suite_name)
    if task_id not in tasks:
        raise InvalidInput(Location(str(plans_path(suite_name)), json_path=json_path(("tasks",))),
                           f"a plan of {task_id}", "none", InputKind.REFERENCE)
    return tasks[task_id]


@cache
def _suite_plans(suite_name: str) -> dict[str, tuple[PlanStep, ...]]:
    path = plans_path(suite_name)
    doc = load_file(path)
    from model.base.schemas import validate

    validate(doc, SCHEMA, str(path))
    for key, want in (("suite", suite_name), ("agentdojo", VERSION)):
        if doc[key] != want:
            raise InvalidInput(Location(str(path), json_path=json_path((key,))), repr(want), repr(doc[key]),
                               InputKind.VALUE)
    return {t: tuple(_step(str(path), t, i, st) for i, st in enumerate(entry["steps"]))
            for t, entry in doc["tasks"].items()}


def _step(source: str, task: str, index: int, doc: Mapping[str, JSON]) -> PlanStep:
    """A step of a plans file (schema-valid): what the schema cannot say is checked here. Every
    argument of the call has a source; sources are earlier calls, in order; a computed value names
    every earlier call; a record is one of a named source's."""
    at = ("tasks", task, "steps", index)

    def bad(where: tuple[str | int, ...], expected: str, got: object) -> InvalidInput:
        return InvalidInput(Location(source, json_path=json_path((*at, *where))), expected, repr(got),
                            InputKind.VALUE)

    args, arguments = doc["args"], doc["arguments"]
    if sorted(args) != sorted(arguments):
        raise bad(("arguments",), f"a source for each argument ({', '.join(sorted(args)) or 'none'})",
                  sorted(arguments))
    sources, where, rows = [], [], []
    for k in sorted(arguments):
        a = arguments[k]
        how, src = a["from"], tuple(a.get("sources", ()))
        if list(src) != sorted(set(src)) or any(j >= index for j in src):
            raise bad(("arguments", k, "sources"), f"earlier calls (below {index}), ascending, once each", list(src))
        if how == "extracted" and not src:
            raise bad(("arguments", k, "sources"), "at least one call an extracted value is read from", [])
        if how == "computed" and src != tuple(range(index)):
            raise bad(("arguments", k, "sources"), f"every earlier call ({list(range(index))})", list(src))
        sources.append((k, src, how))
        if "places" in a:
            if a["places"] != sorted(set(a["places"])):
                raise bad(("arguments", k, "places"), "places in order, once each", a["places"])
            where.append((k, tuple(a["places"])))
        if "rows" in a:
            calls = [j for j, _ in a["rows"]]
            if calls != sorted(set(calls)) or not set(calls) <= set(src):
                raise bad(("arguments", k, "rows"), f"calls among the sources {list(src)}, ascending, once each",
                          calls)
            for n, (_, pos) in enumerate(a["rows"]):
                if pos != sorted(set(pos)):
                    raise bad(("arguments", k, "rows", n, 1), "record positions in order, once each", pos)
            rows.append((k, tuple((j, tuple(pos)) for j, pos in a["rows"])))
    return PlanStep(doc["tool"], tuple(sources), canonical_str(args), tuple(where), tuple(rows))


def describe(suite_name: str, task_id: str) -> list[str]:
    """One line per plan call: ``i. tool(arg <- prompt | extracted from #j,... | computed from ...)``."""
    lines = []
    for i, st in enumerate(plan(suite_name, task_id)):
        parts = [f"{k} <- {how}" + (f" {', '.join(f'#{j}' for j in src)}" if src else "") for k, src, how in st.sources]
        lines.append(f"{i}. {st.tool}({'; '.join(parts)})")
    return lines
