"""What ``agentwarrant edit session DB run`` and ``show`` print for people: each line says
which step of the script ran — in the paper's words (Checkpoint, ForkChoice, MergeSelect, RestoreLive,
…; *Exact Checking for Execution Edits* Tables I and III) — and what the runtime answered; ``show`` ends with a
legend of its notation. ``--json`` keeps printing the canonical answers (session.py), unchanged.

Choices: the request side is read from the script step itself (the runtime's answer does not repeat
it); reason codes stay in parentheses after their meaning, so a line can be matched against ``--json``.
"""

from __future__ import annotations

from typing import Any

from model.base.canonical import JSON, canonical_str

FORMS = {"extend": "Extend", "fork-parallel": "ForkParallel", "fork-choice": "ForkChoice", "merge-join": "MergeJoin",
         "merge-select": "MergeSelect", "restore-live": "RestoreLive", "restore-replace": "RestoreReplace"}

STALE = {"not-an-accepted-answer": "the named answer was not an acceptance",
         "record-changed": "the record changed after the check, so its answer is stale",
         "old-version-not-current": "the rule version it was checked against is no longer current",
         "new-version-allocated": "the version it would create already exists",
         "recheck-differs": "re-checking now gives a different answer",
         "preload-differs": "the prepared content differs from a fresh check"}

DENY = {"no-rules-in-force": "no rule version is in force", "unknown-call": "the call is unknown",
        "not-a-current-call": "the call is not in the current workflow",
        "already-processed": "the call was already processed", "not-processed": "the call was never processed",
        "entry-not-under-active-version": "its entry is not under the active rule version",
        "bad-token": "the token is wrong", "request-differs": "the request differs from the certified one",
        "no-enabled-transition": "the policy allows no such call now"}

LEGEND = """legend:
  workflow    b3:… a branch and what remains of it; ⊕g[status](L=… | R=…) a choice group and its arms;
              ∥g(…) parallel arms; joing(…) a join barrier; ; sequence; x ▷ y x before y; ε nothing left
  versions    rule versions in order, each active (in force), closed (replaced) or inactive (prepared
              by a preload, in force for no call yet)
  processed   the calls the runtime let through: new(call,action) authorized afresh, reuse(call,action)
              served by an existing record
  log         authorization records: id:action/label[phase], phase authorized, then settled
  queue       records waiting for dispatch; (sent) once handed to the tool
  checkpoints saved checkpoints: name=branch they capture"""


def _edit(e: dict[str, Any]) -> str:
    form = FORMS.get(str(e.get("edit")), str(e.get("edit")))
    args = [f"{k} {v}" for k, v in e.items() if k not in ("edit", "removals") and isinstance(v, str)]
    if e.get("removals"):
        args.append(f"{len(e['removals'])} authorized removal(s)")
    return f"{form}({', '.join(args)})"


def request_text(step: dict[str, Any] | None) -> str:
    """The script step as a request; ``None`` is the registration (the root Extend)."""
    if step is None:
        return "register the workflow"
    if "check" in step:
        return f"check {_edit(step['check'])}" + (f" as {step['as']}" if "as" in step else "")
    if "update" in step:
        if "answer" in step:
            return f"commit answer {step['answer']}: {_edit(step['update'])}"
        return f"apply {_edit(step['update'])}"
    if "preload" in step:
        return f"preload {_edit(step['preload'])}" if isinstance(step["preload"], dict) else \
            f"preload answer {step['preload']}"
    if "use" in step:
        return f"call {step['use']}"
    if "retry" in step:
        return f"retry call {step['retry']}"
    if "checkpoint" in step:
        return f"Checkpoint {step['checkpoint']} of branch {step.get('branch', '?')}"
    if "dispatch" in step:
        return "dispatch the next queued request"
    if "settle" in step:
        return f"settle {step['settle']} with {canonical_str(step.get('value'))}"
    if "restart" in step:
        return "restart (close and reopen the store)"
    return canonical_str(step)


def answer_text(a: JSON) -> str:
    assert isinstance(a, dict)
    kind = str(a["answer"])
    if kind == "accepted":
        n = a["completions"]
        return f"accepted: new rule version {a['to']}, {n} safe completion{'s' if n != 1 else ''}"
    if kind == "rejected":
        proof = a.get("proof")
        sizes = proof.get("sizes", []) if isinstance(proof, dict) else []
        shrink = " → ".join(str(n) for n in sizes) if isinstance(sizes, list) else ""
        if shrink in ("", "0"):
            return "rejected: no candidate completion at all"
        return f"rejected: no safe execution set (candidates {shrink})"
    if kind == "invalid":
        return f"invalid: {a['detail']} ({a['reason']})"
    if kind == "updated":
        return f"updated: rule version {a['version']} in force"
    if kind == "preloaded":
        return f"preloaded: rule version {a['version']} prepared, not yet in force"
    if kind == "no-commit":
        return f"not committed: {STALE.get(str(a['reason']), str(a['reason']))} ({a['reason']})"
    if kind == "new":
        return f"new: authorized as record {a['record']} (action {a['action']})"
    if kind == "reuse":
        return f"reuse: served by record {a['record']} (action {a['action']}), no new authorization"
    if kind == "deny":
        return f"denied: {DENY.get(str(a['reason']), str(a['reason']))} ({a['reason']})"
    if kind == "returned":
        if a["value"] is None:
            return f"returned: record {a['record']} has no result yet"
        return f"returned: record {a['record']} gives {canonical_str(a['value'])}"
    if kind == "sent":
        req = a["request"]
        return f"sent: record {a['record']} ({a['action']}) {req if isinstance(req, str) else canonical_str(req)}"
    if kind == "queue-empty":
        return "nothing left to send"
    if kind == "settled":
        return f"settled: record {a['record']}"
    if kind == "settle-refused":
        return f"settle refused for {a['action']}: {a['reason']}"
    if kind == "saved":
        return f"saved checkpoint {a['checkpoint']}"
    if kind == "checkpoint-refused":
        return f"checkpoint {a['checkpoint']} refused: {a['reason']}"
    if kind == "restarted":
        return "restarted: state read back from the store"
    return canonical_str(a)


def line(step: dict[str, Any] | None, a: JSON) -> str:
    return f"{request_text(step):<46} → {answer_text(a)}"
