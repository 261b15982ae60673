"""agentwarrant: an executable reference model for authorizing what LLM agents do.

Systems live in sub-packages (see README.md, "What this is"), each docstring naming its papers'
sections: ``monitor`` (the Agenra run-time monitor, Sections 2–6: ``language``, ``decide``, ``adapter``),
``revision`` (client preservation, Agenra Section 7.1: ``smt``, ``search``, ``certify``), ``search``
(bounded analysis), ``edits`` (execution-edit checking: ``check``, ``runtime``), ``admission``
(admission protocols), ``oracle`` (clients for independent implementations), ``dist`` and ``bench``.
Dependencies point one way: from the shell (``cli``, ``api``, ``frames``, ``reproduce``) down to the
pure core; ``tests/whole_repo/test_architecture.py`` checks there is no import cycle.

The library façade of ``model/shell/api.py`` and the table helpers of ``model/shell/frames.py`` are re-exported
here (``from model import run_trace, to_frame``). They load on first use, so ``import model`` and the
CLI stay fast: the revision and search engines bring Z3 with them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

_API = ("load_policy", "parse_policy", "run_trace", "explain", "report_table", "check_edit", "check_revision",
        "revision_corpus", "bounded_search", "verify_approval", "verify_records", "TraceRun", "Explanation",
        "CorpusJudgment", "DrtRun", "DrtSkipped", "admission_demo", "drt_campaign")
_FRAMES = ("to_frame", "rows", "sentence")
__all__ = [
    "CorpusJudgment", "DrtRun", "DrtSkipped", "Explanation", "TraceRun", "__version__", "admission_demo",
    "bounded_search", "check_edit", "check_revision", "drt_campaign", "explain", "load_policy", "parse_policy",
    "report_table", "revision_corpus", "rows", "run_trace", "sentence", "to_frame", "verify_approval",
    "verify_records",
]

if TYPE_CHECKING:
    from model.shell.api import (
        CorpusJudgment,
        DrtRun,
        DrtSkipped,
        Explanation,
        TraceRun,
        admission_demo,
        bounded_search,
        check_edit,
        check_revision,
        drt_campaign,
        explain,
        load_policy,
        parse_policy,
        report_table,
        revision_corpus,
        run_trace,
        verify_approval,
        verify_records,
    )
    from model.shell.frames import rows, sentence, to_frame


def __getattr__(name: str) -> Any:
    if name in _API:
        from model.shell import api

        return getattr(api, name)
    if name in _FRAMES:
        from model.shell import frames

        return getattr(frames, name)
    raise AttributeError(f"module 'model' has no attribute {name!r}")
