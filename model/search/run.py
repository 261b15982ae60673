"""One bounded analysis of a model: the chosen engines, their comparison, and the replay of every found
trace and useful completion (what ``agentwarrant search``, the manifest check and the bounded-analysis
experiment share).

Budget: one ``Budget`` for the whole search; a query no engine decided within it is ``unknown`` (the
CLI exits 3 unless something was found: a forbidden execution with a witness still exits 1). A query
every engine that ran answered ``Unsupported`` is ``unanswered``: undecided too (exit 3, the query
named), never counted as exhausted, and a goal nobody could look for is not "not reached".

Choices: the replay covers the explicit engine's shortest traces and completions and the SMT engine's
traces, so a wrong trace from either engine is caught. A search *passes* when the engines agree,
every replay reproduces, no forbidden query is ``Found`` and every goal is ``Found``; anything else is
reported (the CLI exits 1), never hidden.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass

from model.base.budget import Budget, Spent, Unknown
from model.search.compare import Comparison, Disagreement, compare
from model.search.explicit import ExplicitRun, explore
from model.search.model import QueryKind, SearchModel
from model.search.search_verdict import Answer, Exhausted, Found, Trace, Unsupported, Vacuous
from model.search.smt import SmtRun, check
from model.search.trace_replay import ReplayResult, Spurious, replay

Tick = Callable[[str, int, int], None]
Explorer = Callable[..., ExplicitRun]  # explicit.explore's signature
_UNLIMITED = Budget()


class Engine(enum.Enum):
    EXPLICIT = "explicit"
    SMT = "smt"
    BOTH = "both"


@dataclass(frozen=True, slots=True)
class Replayed:
    query: str
    source: str  # "explicit" | "smt" | "completion"
    trace: Trace
    result: ReplayResult


@dataclass(frozen=True, slots=True)
class SearchReport:
    model: SearchModel
    bound: int
    explicit: ExplicitRun | None
    smt: SmtRun | None
    comparison: tuple[Comparison, ...]
    replays: tuple[Replayed, ...]

    @property
    def disagreements(self) -> tuple[Disagreement, ...]:
        return tuple(c for c in self.comparison if isinstance(c, Disagreement))

    @property
    def spurious(self) -> tuple[Replayed, ...]:
        return tuple(r for r in self.replays if isinstance(r.result, Spurious))

    def answers(self, query: str) -> list[Answer]:
        """Every answer an engine that ran gave for ``query``."""
        answers: list[Answer] = [run.verdict(query) for run in (self.explicit,) if run is not None]
        return answers + ([self.smt.answer(query)] if self.smt is not None else [])

    def findings(self) -> tuple[str, ...]:
        """Forbidden executions found and goals not reached (by any engine that answered)."""
        out: list[str] = []
        for q in self.model.queries:
            answers = self.answers(q.name)
            found = any(isinstance(a, Found) for a in answers)
            decided = any(isinstance(a, Exhausted | Vacuous) for a in answers)
            if q.kind is QueryKind.FORBIDDEN and found:
                out.append(f"forbidden execution {q.name} found")
            # a goal is "not reached" only on an engine's word, never because no engine could look
            if q.kind is QueryKind.GOAL and not found and decided and not any(isinstance(a, Unknown) for a in answers):
                out.append(f"goal {q.name} not reached")
        return tuple(out)

    @property
    def unknown(self) -> tuple[str, ...]:
        """Queries some engine could not decide within the budget (and no engine found)."""
        out: list[str] = []
        for q in self.model.queries:
            answers = self.answers(q.name)
            if any(isinstance(a, Unknown) for a in answers) and not any(isinstance(a, Found) for a in answers):
                out.append(q.name)
        return tuple(out)

    @property
    def unanswered(self) -> tuple[tuple[str, str], ...]:
        """``(query, reason)`` for each query no engine that ran could answer: every answer is
        ``Unsupported`` (outside the engine's fragment). Such a query is undecided, never exhausted."""
        out: list[tuple[str, str]] = []
        for q in self.model.queries:
            answers = self.answers(q.name)
            if answers and all(isinstance(a, Unsupported) for a in answers):
                out.append((q.name, "; ".join(a.reason for a in answers if isinstance(a, Unsupported))))
        return tuple(out)

    @property
    def passed(self) -> bool:
        return (not self.disagreements and not self.spurious and not self.findings() and not self.unknown
                and not self.unanswered)


def search(model: SearchModel, bound: int | None = None, engine: Engine = Engine.BOTH, do_replay: bool = True,
           tick: Tick | None = None, budget: Budget = _UNLIMITED,
           on_progress: Callable[[Spent], None] | None = None, reduction: bool = True,
           explorer: Explorer = explore) -> SearchReport:
    """Run the engines under one ``budget`` (shared: the SMT engine gets what the explicit one left, as
    its Z3 timeout); queries an engine could not decide in it answer ``Unknown``. ``explorer`` runs the
    explicit engine (``model.dist.search`` passes its partitioned one, whose results are the same)."""
    k = model.bound if bound is None else bound
    meter = budget.start(on_progress)

    def sub(name: str) -> Callable[[int, int], None] | None:
        if tick is None:
            return None
        return lambda done, total: tick(name, done, total)

    explicit = explorer(model, k, sub("explicit"), meter=meter, reduction=reduction) \
        if engine is not Engine.SMT else None
    stop = explicit.unknown if explicit is not None and explicit.unknown is not None \
        and explicit.unknown.limit == "interrupt" else None
    if engine is Engine.EXPLICIT:
        smt = None
    elif stop is not None:  # Ctrl-C during the explicit engine ends the run: the SMT engine is not started
        smt = SmtRun(k, tuple((q.name, Unknown(stop.budget, stop.spent, "interrupt", "interrupted before the SMT "
                                               "engine ran")) for q in model.queries), 0.0)
    else:
        smt = check(model, k, sub("smt"), meter=meter)
    comparison = compare(model, explicit, smt) if explicit is not None and smt is not None else ()
    replays: list[Replayed] = []
    if do_replay and model.toolkit != "none":
        for q in model.queries:
            traces: list[tuple[str, Trace]] = []
            if explicit is not None:
                v = explicit.verdict(q.name)
                if isinstance(v, Found):
                    traces.append(("explicit", v.trace))
                traces += [("completion", t) for t in explicit.completions_of(q.name)]
            if smt is not None:
                a = smt.answer(q.name)
                if isinstance(a, Found):
                    traces.append(("smt", a.trace))
            replays += [Replayed(q.name, src, t, replay(model, t, q)) for src, t in traces]
    return SearchReport(model, k, explicit, smt, comparison, tuple(replays))
