"""Results as tables: ``rows(result)`` gives plain dicts (what the experiments write to
``paper_figures/tables/``) and ``to_frame(result)`` the same rows as a pandas DataFrame (what a notebook
shows), so a table in a notebook and the table ``make reproduce`` writes come from one function.

One row per natural unit of each result: a trace step, a failing check, a safe completion or a removal
of the rejection proof, a revision, a search query, a record, a demo step, a DRT judgment. Choice:
enum values print as their string values and words of actions as text (``new(x,deploy)``), so a frame
reads like the CLI output and sorts and filters as strings.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from model.admission.decision.approvals import ApprovalVerified
from model.admission.deployments.demo import DemoStep
from model.admission.refusal import Refusal
from model.admission.signatures.records import RecordInvalid, RecordValid
from model.base.errors import InputKind, InvalidInput, found
from model.edits.check.answer import Accepted, Invalid, Rejected
from model.edits.check.contract import show_outcome
from model.edits.check.resolve import Word
from model.monitor.adapter.report_task import Row as ReportRow
from model.revision.certify.certificate import Certificate
from model.revision.certify.joint_certificate import JointSimulation
from model.revision.certify.linear_certificate import LinearSimulation
from model.revision.report import Certified, NewlyForbidden, NoNewForbidden, NotPreserved, OutOfBudget, RevisionReport
from model.search.compare import Agreement, Disagreement
from model.search.model import QueryKind
from model.search.run import SearchReport
from model.search.search_verdict import Found, Unsupported, verdict_name
from model.search.trace_replay import Reproduced
from model.shell.api_evidence import DrtRun, DrtSkipped
from model.shell.api_results import CorpusJudgment, Explanation, Row, TraceRun, dataframe, explanation_rows, trace_rows
from model.shell.apicheck import checked
from model.shell.verdict_text import edit_sentence, preservation_sentence, safety_sentence


def word_text(word: Word) -> str:
    return " ".join(str(a) for a in word) or "ε"


REPORT_HEADER = ("candidate", "obligation", "policy", "result", "reason", "failing_checks", "reached_mail")


def report_rows(rows: Sequence[ReportRow]) -> list[Row]:
    """Agenra Table 1, in the columns of ``paper_figures/tables/report_task.csv``."""
    return [dict(zip(REPORT_HEADER, (r.candidate, r.obligation, r.policy, r.result,
                                     r.reason.value if r.reason else "", " ".join(x.value for x in r.failing),
                                     "yes" if r.reached_mail else "no"), strict=True)) for r in rows]


def edit_rows(v: Accepted | Rejected | Invalid) -> list[Row]:
    """Accepted: one row per safe completion; Rejected: one row per removal of the proof, by round."""
    if isinstance(v, Accepted):
        return [{"outcome": show_outcome(o), "completion": word_text(y)} for o, y in v.automaton.completions()]
    if isinstance(v, Rejected):
        return [{"round": i, "removed_outcome": show_outcome(r.outcome), "removed": word_text(r.word),
                 "at_prefix": word_text(r.prefix), "stranded_outcome": show_outcome(r.missing)}
                for i, e in enumerate(v.proof.rounds) for r in e]
    return [{"verdict": "invalid", "reason": v.reason.value, "detail": v.detail}]


def rounds_rows(v: Accepted | Rejected | Invalid) -> list[Row]:
    """|B̂_i| per round of the fixed point: the rejection proof's sizes, or the explicit engine's rounds."""
    if isinstance(v, Invalid):
        return []
    sizes = v.proof.sizes() if isinstance(v, Rejected) else v.counts.rounds
    return [{"round": i, "candidates": n} for i, n in enumerate(sizes or ())]


def revision_row(r: RevisionReport) -> Row:
    p, s = r.preservation, r.safety
    verdict = "certified" if isinstance(p, Certified) else "not_preserved" if isinstance(p, NotPreserved) else \
        "out_of_budget" if isinstance(p, OutOfBudget) else "unknown"
    by = "" if not isinstance(p, Certified) else "structural" if isinstance(p.evidence, Certificate) else \
        "joint" if isinstance(p.evidence, JointSimulation) or \
        (isinstance(p.evidence, LinearSimulation) and p.evidence.mode == "joint") else "simulation"
    return {"start": "task start" if r.start is None else f"after {r.start.prefix.calls()} calls",
            "verdict": verdict, "by": by,
            "lost_client": p.lost.show() if isinstance(p, NotPreserved) else "",
            "lost_confirmed": isinstance(p, NotPreserved) and p.lost.confirmed,
            "safety": "newly_forbidden" if isinstance(s, NewlyForbidden) else
            "no_new_forbidden" if isinstance(s, NoNewForbidden) else
            "out_of_budget" if isinstance(s, OutOfBudget) else "not_declared",
            "forbidden_trace": s.trace.show() if isinstance(s, NewlyForbidden) else "",
            "forbidden_confirmed": isinstance(s, NewlyForbidden) and s.trace.confirmed,
            "ms": r.seconds * 1000, "preservation_says": preservation_sentence(p), "safety_says": safety_sentence(s)}


CORPUS_HEADER = ("id", "base", "kind", "start", "expected", "verdict", "by", "lost_client", "lost_confirmed",
                 "expected_safety", "safety", "forbidden_trace", "forbidden_confirmed", "ms")


def corpus_rows(judgments: Sequence[CorpusJudgment]) -> list[Row]:
    """The revision corpus, one row per entry, in the columns of ``revision_corpus_entries.csv``."""
    out: list[Row] = []
    for j in judgments:
        e, row = j.entry, revision_row(j.report)
        row.update({"id": e.id, "base": e.base.name, "kind": e.kind, "start": e.start(),
                    "expected": e.expected_preservation, "expected_safety": e.expected_safety})
        out.append({h: row[h] for h in CORPUS_HEADER})
    return out


SEARCH_HEADER = ("query", "kind", "bound", "explicit", "explicit length", "completions", "states", "transitions",
                 "explicit s", "states/s", "transitions/s", "smt", "smt length", "smt s", "engines", "replay")


def search_rows(rep: SearchReport) -> list[Row]:
    """One row per query: each engine's verdict and shortest length, completions, agreement, replay."""
    agree = {c.query: c for c in rep.comparison}
    out: list[Row] = []
    for q in rep.model.queries:
        ev = rep.explicit.verdict(q.name) if rep.explicit is not None else None
        sv = rep.smt.answer(q.name) if rep.smt is not None else None
        c = agree.get(q.name)
        engines = "agree" if isinstance(c, Agreement) else "DISAGREE" if isinstance(c, Disagreement) else \
            "smt unsupported" if isinstance(sv, Unsupported) else "-"
        replays = [r for r in rep.replays if r.query == q.name]
        out.append({
            "query": q.name, "kind": q.kind.value, "bound": rep.bound,
            "explicit": "-" if ev is None else verdict_name(ev),
            "explicit length": ev.length if isinstance(ev, Found) else "-",
            "completions": len(rep.explicit.completions_of(q.name))
            if q.kind is QueryKind.GOAL and rep.explicit is not None else "-",
            "states": rep.explicit.states if rep.explicit is not None else "-",
            "transitions": rep.explicit.transitions if rep.explicit is not None else "-",
            "explicit s": f"{rep.explicit.seconds:.2f}" if rep.explicit is not None else "-",
            "states/s": f"{rep.explicit.states_per_second:.0f}" if rep.explicit is not None else "-",
            "transitions/s": f"{rep.explicit.transitions_per_second:.0f}" if rep.explicit is not None else "-",
            "smt": "-" if sv is None else verdict_name(sv),
            "smt length": sv.length if isinstance(sv, Found) else "-",
            "smt s": "-" if sv is None or isinstance(sv, Unsupported) or rep.smt is None else f"{rep.smt.seconds:.2f}",
            "engines": engines,
            "replay": "-" if not replays else
            f"{sum(isinstance(r.result, Reproduced) for r in replays)}/{len(replays)} reproduced",
        })
    return out


def records_rows(out: Sequence[RecordValid] | RecordInvalid) -> list[Row]:
    if isinstance(out, RecordInvalid):
        return [{"valid": False, "defect": out.defect.value, "detail": out.detail}]
    return [{"valid": True, "kind": v.kind, "record_hash": v.record_hash} for v in out]


def approval_rows(v: ApprovalVerified | Refusal) -> list[Row]:
    if isinstance(v, Refusal):
        return [{"verified": False, "refusal": v.reason.value, "detail": v.detail}]
    a = v.approval
    return [{"verified": True, "approval_id": a.approval_id, "approver": a.approver_id, "capability": a.capability,
             "resource": a.resource_id, "scope": f"{a.scope_field} ≤ {a.scope_value}"
             if a.scope_field == "value" else f"{a.scope_field} = {a.scope_value}",
             "expires_at": a.expires_at.isoformat()}]


def demo_rows(steps: Sequence[DemoStep]) -> list[Row]:
    return [{"protocol": s.protocol, "step": s.step, "outcome": s.outcome, "says": s.sentence} for s in steps]


def drt_rows(runs: Sequence[DrtRun] | DrtSkipped) -> list[Row]:
    if isinstance(runs, DrtSkipped):
        return [{"skipped": True, "reason": runs.reason}]
    return [{"judgment": r.judgment, "cases": r.cases, "compared": r.compared, "skipped": r.skipped,
             "mismatches": r.mismatches, "mismatch_rate": r.mismatch_rate, "seconds": round(r.seconds, 2)}
            for r in runs]


@checked
def rows(result: Any) -> list[Row]:
    """Rows of any API result (or a sequence of report rows, corpus judgments or demo steps)."""
    if isinstance(result, TraceRun):
        return trace_rows(result)
    if isinstance(result, Explanation):
        return explanation_rows(result)
    if isinstance(result, Accepted | Rejected | Invalid):
        return edit_rows(result)
    if isinstance(result, RevisionReport):
        return [revision_row(result)]
    if isinstance(result, SearchReport):
        return search_rows(result)
    if isinstance(result, RecordInvalid):
        return records_rows(result)
    if isinstance(result, ApprovalVerified | Refusal):
        return approval_rows(result)
    if isinstance(result, DrtSkipped):
        return drt_rows(result)
    if isinstance(result, Sequence) and result:
        first = result[0]
        if isinstance(first, ReportRow):
            return report_rows(result)
        if isinstance(first, CorpusJudgment):
            return corpus_rows(result)
        if isinstance(first, DemoStep):
            return demo_rows(result)
        if isinstance(first, RecordValid):
            return records_rows(result)
        if isinstance(first, DrtRun):
            return drt_rows(result)
    raise InvalidInput("rows: result", "a result of the agentwarrant API (or a non-empty sequence of its rows)",
                       found(result), InputKind.SCHEMA)


@checked
def to_frame(result: Any) -> Any:
    """``rows(result)`` as a pandas DataFrame.

    >>> from model.shell.api import run_trace
    >>> df = to_frame(run_trace("corpus/policies/report.policy", "corpus/traces/report_delivery.json"))
    >>> df[df.decision == "deny"].reason.tolist()
    ['slot_unbound', 'origin', 'quota']
    """
    return dataframe(rows(result))


@checked
def sentence(result: Any) -> str:
    """The one-sentence reading of an edit verdict or a revision report."""
    if isinstance(result, Accepted | Rejected | Invalid):
        return edit_sentence(result)
    if isinstance(result, RevisionReport):
        return preservation_sentence(result.preservation) + " " + safety_sentence(result.safety)
    if isinstance(result, Explanation):
        return result.sentence()
    raise InvalidInput("sentence: result", "an edit verdict, a revision report or an explanation", found(result),
                       InputKind.SCHEMA)
