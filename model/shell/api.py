"""The library façade: one function per job a researcher does from Python or a notebook.

Every function takes paths or already-loaded values, returns the project's own frozen result values
(the same ones the CLI prints), and raises ``InvalidInput`` for bad input, as the CLI does. Any result
becomes a pandas DataFrame with ``to_frame(result)`` (``model/shell/frames.py``); the experiments in
``experiments/`` compute through these functions too, so a notebook and ``make reproduce`` share one path.

The examples run from the repository root (the doctest in ``tests/unit/test_api.py`` does so).

Choices where nothing is given:
- Paths may be ``str`` or ``Path``; a policy argument may also be an already loaded ``Policy``.
- ``run_trace`` wraps the step reports in ``TraceRun`` (policy name and source alongside), and
  ``explain`` answers with ``Explanation`` (the step and every failing check with its detail): the
  monitor has no single value for either.
- ``budget: Budget = NO_LIMIT`` (``Budget()``, unlimited) where the engine takes one: the revision judgment
  and the edit checker (``check_revision``, ``check_edit``; ``Unknown`` when it runs out). ``bounded_search``
  takes a ``bound`` instead and has no budget parameter; faking one would promise a limit nothing enforces.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from model.base.budget import Budget, Unknown
from model.base.canonical import JSON
from model.base.errors import InputKind, InvalidInput
from model.shell.api_results import CorpusJudgment, Explanation, TraceRun
from model.shell.apicheck import checked

if TYPE_CHECKING:  # the engines load on first call: importing the façade stays cheap (Z3 comes with revision)
    from model.edits.check.answer import Engine as EditEngine
    from model.edits.check.answer import Verdict as EditVerdict
    from model.edits.check.instance import Instance
    from model.monitor.adapter.report_task import Row as ReportRow
    from model.monitor.language.policy import Policy
    from model.revision.report import RevisionReport
    from model.search.run import SearchReport

PathLike = str | Path
NO_LIMIT = Budget()  # the library default: unlimited (every CLI command has a finite one)


@checked
def load_policy(path: PathLike) -> Policy:
    """Parse and validate a policy file (text syntax, or its JSON form when the name ends in .json).

    >>> p = load_policy("corpus/policies/report.policy")
    >>> p.name, [e.action for e in p.user]
    ('report', ['record.read', 'inbox.read', 'record.release', 'directory.lookup', 'message.send'])
    """
    from model.monitor.language.syntax import load_policy as _load

    return _load(path)


@checked
def parse_policy(text: str, source: str = "<text>") -> Policy:
    """Parse and validate policy text; errors name ``source:line:col``.

    >>> parse_policy("policy tiny levels Public < Secret").levels.order
    ('Public', 'Secret')
    """
    from model.monitor.language.syntax import parse_policy as _parse

    return _parse(text, source)


def _policy(policy: Policy | PathLike) -> Policy:
    return load_policy(policy) if isinstance(policy, str | Path) else policy


@checked
def run_trace(policy: Policy | PathLike, trace: PathLike | Mapping[str, JSON], *, explain: bool = False) -> TraceRun:
    """Run a trace (``corpus/schemas/trace.schema.json``) through the precise adapter on its tools.

    >>> run = run_trace("corpus/policies/report.policy", "corpus/traces/report_delivery.json")
    >>> [(s.tool, s.decision.value, s.reason) for s in run.steps][2:5]
    [('Send', 'deny', 'slot_unbound'), ('Lookup', 'allow', None), ('Send', 'deny', 'origin')]
    >>> run.as_expected
    True
    """
    from model.base.schemas import validate
    from model.monitor.adapter.trace import load_trace
    from model.monitor.adapter.trace import run_trace as _run

    pol = _policy(policy)
    if isinstance(trace, Mapping):
        doc, source = dict(trace), "<trace>"
        validate(doc, "trace.schema.json", source=source)
    else:
        doc, source = load_trace(str(trace)), str(trace)
    return TraceRun(pol.name, source, _run(pol, doc, source=source, explain=explain))


@checked
def explain(policy: Policy | PathLike, trace: PathLike | Mapping[str, JSON], step: int) -> Explanation:
    """Explain the decision of call ``step`` of a trace (the state is the one the earlier steps left).

    >>> e = explain("corpus/policies/report.policy", "corpus/traces/report_delivery.json", 4)
    >>> [c.reason.value for c in e.checks]
    ['origin', 'flow']
    >>> print(e.sentence())
    Send is denied: an argument was not produced the way an origin rule requires (origin); it would also fail flow.
    """
    from model.monitor.decide.base import Decision

    run = run_trace(policy, trace, explain=True)
    if not 0 <= step < len(run.steps):
        raise InvalidInput("step", f"a step index from 0 to {len(run.steps) - 1}", str(step), InputKind.VALUE)
    s = run.steps[step]
    if s.kind != "call":
        raise InvalidInput("step", "the index of a call (not a permit or satisfy step)", f"{step}: {s.kind}",
                           InputKind.VALUE)
    failing = tuple(c for c in s.checks if c.decision is not Decision.ALLOW)
    return Explanation(s, failing)


@checked
def report_table(tick: Callable[[int, int], None] | None = None) -> tuple[ReportRow, ...]:
    """Agenra Table 1: the seven candidates of the report task, decided by the monitor on the tools.

    >>> [r.result for r in report_table()]
    ['Allow', 'Reject', 'Reject', 'Reject', 'Reject', 'Reject', 'Reject']
    """
    from model.monitor.adapter.report_task import table_rows

    return table_rows(tick)


_EditChecker = tuple[dict[str, "EditEngine"], type["EditEngine"], type["Instance"],
                     Callable[..., "EditVerdict | Unknown"]]
_EDIT_CHECKER: list[_EditChecker] = []


def _edit_checker() -> _EditChecker:
    """``check_edit``'s names from the checker module: ``ENGINES``, ``Engine``, ``Instance`` and ``check``."""
    from model.edits.check.checker import ENGINES, Engine, Instance, check

    _EDIT_CHECKER.append((ENGINES, Engine, Instance, check))
    return _EDIT_CHECKER[0]


@checked
def check_edit(instance: Instance | PathLike | Mapping[str, JSON], engine: str = "symbolic", *,
               budget: Budget = NO_LIMIT) -> EditVerdict | Unknown:
    """Decide an execution edit: ``Accepted`` (with the canonical automaton), ``Rejected`` (with the
    ranked removal proof), ``Invalid``, or ``Unknown`` when ``budget`` runs out. Every engine reports the
    rounds |B̂₀|, |B̂₁|, ….

    >>> v = check_edit("corpus/edits/release_reject.json", engine="explicit")
    >>> type(v).__name__, v.counts.rounds
    ('Rejected', (2, 1, 0))
    >>> check_edit("corpus/edits/release_reject.json").counts.rounds
    (2, 1, 0)
    >>> check_edit("corpus/edits/laptop_fork.json").counts.safe
    2
    """
    # The checker's names are imported on the first call and kept (an import statement costs about a
    # microsecond on every call, a visible part of a small check); the loader only when there is
    # something to load.
    ENGINES, Engine, Instance, check = _EDIT_CHECKER[0] if _EDIT_CHECKER else _edit_checker()
    eng = ENGINES.get(engine) if isinstance(engine, str) else None  # Engine(engine), as a dict look-up
    if eng is None:
        try:
            eng = Engine(engine)
        except ValueError:
            raise InvalidInput("engine", "one of " + ", ".join(e.value for e in Engine), engine,
                               InputKind.VALUE) from None
    if isinstance(instance, Instance):  # first: the abstract Mapping test is the slower one
        inst = instance
    elif isinstance(instance, Mapping):
        from model.edits.check.load_instance import instance_from_json
        inst = instance_from_json(dict(instance))
    elif isinstance(instance, str | Path):
        from model.edits.check.load_instance import load_instance
        inst = load_instance(Path(instance))
    else:
        inst = instance
    return check(inst, eng, budget=budget)


@checked
def check_revision(old: Policy | PathLike, new: Policy | PathLike, *, workload: PathLike | None = None,
                   effects: str | None = None, bound: int = 4, after: PathLike | None = None,
                   budget: Budget = NO_LIMIT) -> RevisionReport:
    """Does revising ``old`` into ``new`` keep every client, and does it newly admit a forbidden trace?

    ``workload`` is a client model (derived from the policies when omitted); ``after`` a prefix run
    under ``old`` first (mid-task revision). When ``budget`` runs out first, the verdicts not reached
    are ``OutOfBudget`` (``report.out_of_budget()``), never a wrong answer.

    >>> r = check_revision("corpus/policies/delete_ab.policy",
    ...                    "corpus/revisions/delete_ab/delete_widen_first.policy",
    ...                    workload="corpus/revisions/workloads/delete_ab.json")
    >>> type(r.preservation).__name__, r.preservation.lost.names, type(r.safety).__name__
    ('NotPreserved', ('delete A', 'delete B'), 'NewlyForbidden')
    """
    from model.revision.effects import parse_effects
    from model.revision.explore.derive_workload import derive
    from model.revision.names import check_effects_exist, check_workload_names
    from model.revision.revise import revise

    if bound < 0:
        raise InvalidInput("bound", "a non-negative integer", str(bound), InputKind.VALUE)
    o, n = _policy(old), _policy(new)
    eff = parse_effects(effects, "effects")
    check_effects_exist(eff, (o, n), "effects")
    if workload is not None:
        from model.revision.corpus import load_workload

        wl = load_workload(workload)
        check_workload_names(wl, (o, n), str(workload))
    else:
        wl = derive(o, n)
    prefix = None
    if after is not None:
        from model.revision.explore.prefix import load_prefix

        prefix = load_prefix(after)
    return revise(o, n, eff, wl, bound, prefix, budget=budget)


@checked
def revision_corpus(manifest: PathLike | None = None, tick: Callable[[int, int], None] | None = None,
                    budget: Budget = NO_LIMIT, client: Any = None,
                    ids: tuple[str, ...] | None = None) -> tuple[CorpusJudgment, ...]:
    """Judge every revision of ``corpus/revisions/manifest.json`` (or another manifest), each within ``budget``,
    or only the entries named by ``ids`` (in the manifest's order); with a Dask ``client``, one task per entry
    on its cluster (``model.dist.shard``; default budget only).

    >>> [j] = revision_corpus(ids=("delete_widen_first",))
    >>> type(j.report.preservation).__name__, j.entry.expected_preservation
    ('NotPreserved', 'not_preserved')
    """
    from model.revision.corpus import load_manifest
    from model.revision.revise import revise

    entries = load_manifest() if manifest is None else load_manifest(manifest)
    if ids is not None:
        if isinstance(ids, str) or not all(isinstance(i, str) for i in ids):
            raise InvalidInput("revision_corpus: ids", "a tuple of revision ids", repr(ids))
        unknown = sorted(set(ids) - {e.id for e in entries})
        if unknown:
            raise InvalidInput("revision_corpus: ids", "ids of the manifest's revisions", ", ".join(unknown))
        entries = tuple(e for e in entries if e.id in set(ids))
    if client is not None and not callable(getattr(client, "submit", None)):
        raise InvalidInput("revision_corpus: client", "a dask.distributed Client or None", type(client).__name__)
    if client is not None:
        from model.dist.shard import judge_corpus

        return tuple(CorpusJudgment(e, r) for e, r in zip(entries, judge_corpus(entries, client, tick), strict=True))
    out: list[CorpusJudgment] = []
    for i, e in enumerate(entries):
        if tick is not None:
            tick(i, len(entries))
        out.append(CorpusJudgment(e, revise(e.base.policy, e.new, e.effects, e.base.workload, e.base.bound,
                                            e.prefix, budget=budget)))
    if tick is not None:
        tick(len(entries), len(entries))
    return tuple(out)


@checked
def bounded_search(model: PathLike, *, policy: PathLike | None = None, bound: int | None = None, engine: str = "both",
           replay: bool = True) -> SearchReport:
    """Bounded search of a finite model for forbidden executions and useful completions; both engines
    by default, every found trace replayed on the reference tools.

    >>> rep = bounded_search("corpus/search/report.json", policy="corpus/policies/report_no_origin.policy", bound=3)
    >>> rep.findings()[1]
    'forbidden execution inbox_to_mail found'
    >>> rep.disagreements, len(rep.spurious)
    ((), 0)
    """
    from model.search.load import load_model
    from model.search.run import Engine
    from model.search.run import search as _search

    try:
        eng = Engine(engine)
    except ValueError:
        raise InvalidInput("engine", "one of explicit, smt, both", engine, InputKind.VALUE) from None
    if bound is not None and not 0 <= bound <= 64:
        raise InvalidInput("bound", "an integer from 0 to 64", str(bound), InputKind.VALUE)
    return _search(load_model(model, None if policy is None else str(policy)), bound, eng, replay)


# Signed evidence and the differential campaign live in model/shell/api_evidence.py; the façade is one
# name space.
from model.shell.api_evidence import (  # noqa: E402
    DrtRun,
    DrtSkipped,
    admission_demo,
    drt_campaign,
    verify_approval,
    verify_records,
)

__all__ = ["CorpusJudgment", "DrtRun", "DrtSkipped", "Explanation", "TraceRun", "admission_demo", "bounded_search",
           "check_edit", "check_revision", "drt_campaign", "explain", "load_policy", "parse_policy", "report_table",
           "revision_corpus", "run_trace", "verify_approval", "verify_records"]
