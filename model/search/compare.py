"""Cross-checking the two engines (DESIGN.md: several engines per judgment, differential tests between them).

For every query both engines support, they must give the same verdict kind and, when it is
``Found``, traces of the same length (both return shortest traces). ``Unsupported`` on either side
is no agreement and no disagreement: it is listed so that nothing counts it as passing. A
``Disagreement`` carries everything a reader needs to reproduce it: the model (its name, policy and
bound), the query, and both answers with their traces.
"""

from __future__ import annotations

from dataclasses import dataclass

from model.base.budget import Unknown
from model.base.canonical import canonical_str
from model.monitor.language.printer import print_policy
from model.search.explicit import ExplicitRun
from model.search.model import SearchModel
from model.search.search_verdict import Answer, Found, Unsupported, answer_json, describe, verdict_name
from model.search.smt import SmtRun


@dataclass(frozen=True, slots=True)
class Agreement:
    query: str
    verdict: str
    length: int | None


@dataclass(frozen=True, slots=True)
class Disagreement:
    query: str
    explicit: Answer
    smt: Answer


@dataclass(frozen=True, slots=True)
class Skipped:
    query: str
    reason: str


Comparison = Agreement | Disagreement | Skipped


def compare(model: SearchModel, explicit: ExplicitRun, smt: SmtRun) -> tuple[Comparison, ...]:
    out: list[Comparison] = []
    for q in model.queries:
        a, b = explicit.verdict(q.name), smt.answer(q.name)
        if isinstance(b, Unsupported):
            out.append(Skipped(q.name, b.reason))
            continue
        if isinstance(a, Unknown):  # a budget ran out: nothing to compare
            out.append(Skipped(q.name, a.describe()))
            continue
        if isinstance(b, Unknown):
            out.append(Skipped(q.name, b.describe()))
            continue
        same = type(a) is type(b) and (not isinstance(a, Found) or
                                       (isinstance(b, Found) and a.length == b.length))
        if same:
            out.append(Agreement(q.name, verdict_name(a), a.length if isinstance(a, Found) else None))
        else:
            out.append(Disagreement(q.name, a, b))
    return tuple(out)


def report(model: SearchModel, d: Disagreement) -> str:
    """Everything needed to reproduce a disagreement: model, policy, bound, query and both answers."""
    q = model.query(d.query)
    lines = [f"engines disagree on query {d.query!r} of model {model.name!r}",
             f"  policy: {model.policy_path}  bound: {model.bound}",
             f"  query: {q!r}",
             f"  results: {model.results!r}",
             f"  literals: {model.literals!r}  fields: {model.fields!r}  max_calls: {model.max_calls!r}",
             "  policy text:", *("    " + line for line in print_policy(model.policy).splitlines())]
    for name, ans in (("explicit", d.explicit), ("smt", d.smt)):
        lines.append(f"  {name}: {canonical_str(answer_json(model, ans))}")
        if isinstance(ans, Found):
            lines += [f"    {s}" for s in describe(model, ans.trace)]
    return "\n".join(lines)
