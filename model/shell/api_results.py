"""The façade's own result values (``model/shell/api.py``): a trace run, the explanation of one decision and
a judged revision-corpus entry, each with its rows (one per trace step, per failing check of Agenra
Section 6.2's order) and its DataFrame. ``model/shell/frames.py`` gives rows for every other result and
dispatches on these types; keeping them here lets the façade and the table helpers both import them
without importing each other.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from model.monitor.adapter.trace import StepReport
    from model.monitor.decide.base import Verdict as MonitorVerdict
    from model.revision.corpus import Entry as RevisionEntry
    from model.revision.report import RevisionReport

Row = dict[str, object]


def dataframe(rows: list[Row]) -> Any:
    """``rows`` as a pandas DataFrame (pandas is an optional extra, loaded only when a frame is asked for)."""
    import pandas as pd

    return pd.DataFrame(rows)


@dataclass(frozen=True, slots=True)
class TraceRun:
    """A proposed call sequence run through the monitor: one ``StepReport`` per step."""

    policy: str
    source: str
    steps: tuple[StepReport, ...]

    @property
    def as_expected(self) -> bool:
        """Every step that carries an ``expect`` got that decision."""
        return all(s.as_expected for s in self.steps)

    def to_frame(self) -> Any:
        """One row per step (``trace_rows``) as a DataFrame."""
        return dataframe(trace_rows(self))


@dataclass(frozen=True, slots=True)
class Explanation:
    """Why the monitor decided a step as it did: the step and every check it fails, in §6.2 order."""

    step: StepReport
    checks: tuple[MonitorVerdict, ...]

    def sentence(self) -> str:
        from model.shell.verdict_text import step_sentence  # on first use: importing the façade stays cheap

        return step_sentence(self.step, self.checks)

    def to_frame(self) -> Any:
        """One row per failing check (``explanation_rows``) as a DataFrame."""
        return dataframe(explanation_rows(self))


@dataclass(frozen=True, slots=True)
class CorpusJudgment:
    """One entry of the revision corpus and the judgment of it."""

    entry: RevisionEntry
    report: RevisionReport


def trace_rows(run: TraceRun) -> list[Row]:
    from model.shell.verdict_text import step_sentence  # on first use: importing the façade stays cheap

    return [{"step": s.index, "kind": s.kind, "tool": s.tool,
             "decision": None if s.decision is None else s.decision.value, "reason": s.reason,
             "why": step_sentence(s), "detail": s.detail, "result": s.result, "expected": s.expected,
             "as_expected": s.as_expected, "failing": " ".join(s.failing)} for s in run.steps]


def explanation_rows(e: Explanation) -> list[Row]:
    from model.shell.verdict_text import DENY_TEXT  # on first use, as above

    return [{"check": c.reason.value if c.reason else c.decision.value, "first": i == 0,
             "meaning": DENY_TEXT[c.reason] if c.reason else "", "detail": c.detail}
            for i, c in enumerate(e.checks)]
