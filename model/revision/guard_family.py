"""A generated family of revisions that change argument origins or flow rules (Agenra Sections 4.3, 4.4 and
7.1), over the report task (corpus/policies/report.policy with its workload): preserving ones are certified
through the checked guard step (trusted/guards.py) and a certificate for the lists, regressions lose a client
found by the bounded search. ``expected(name)`` is what a member is built to show, used by tests to score,
never by the judgment.

Members (the policy text edited as said):
- ``origin_preserving``: the origin rule accepts results passed on by Read (``preserving: {Read}``) — preserving.
- ``origin_dropped``: the origin rule removed — preserving.
- ``origin_producer_read``: the body must come from Read, not Sanitize — the report's send is lost.
- ``origin_new_rule``: Sanitize's record must come from Lookup — the sanitize step is lost.
- ``flow_mail_internal``: mail accepts Internal data — preserving.
- ``flow_send_allowed``: an allow for Send to mail added — preserving.
- ``flow_mail_no_pii``: mail refuses data tagged pii — preserving, since no record that carries pii is Public
  (the labels a record can carry: only Sanitize makes data Public, and it removes pii).
- ``flow_memory_confidential_denied``: Confidential data may not enter memory — the read is lost.
- ``flow_mail_removed``: no flow rule lets data reach mail — the send is lost.

Choices where the source is silent: the base is the report task, the bound its corpus bound (5).
"""

from __future__ import annotations

from pathlib import Path

from model.base.jsonio import read_text
from model.monitor.language.policy import Policy
from model.monitor.language.syntax import parse_policy
from model.revision.corpus import load_workload
from model.revision.explore.workload import Workload

ROOT = Path(__file__).resolve().parents[2]
BASE = ROOT / "corpus" / "policies" / "report.policy"
WORKLOAD = ROOT / "corpus" / "revisions" / "workloads" / "report.json"
BOUND = 5

_ORIGIN = "origin report_body {via: Send argument: body producer: Sanitize}"
_MAIL = "flow allow * -> mail when sensitivity <= Public"
EDITS: dict[str, tuple[str, str]] = {
    "origin_preserving": (_ORIGIN, "origin report_body {via: Send argument: body producer: Sanitize "
                                   "preserving: {Read}}"),
    "origin_dropped": (_ORIGIN, ""),
    "origin_producer_read": (_ORIGIN, "origin report_body {via: Send argument: body producer: Read}"),
    "origin_new_rule": (_ORIGIN, _ORIGIN + "\norigin sanitize_input {via: Sanitize argument: record producer: Lookup}"),
    "flow_mail_internal": (_MAIL, "flow allow * -> mail when sensitivity <= Internal"),
    "flow_send_allowed": (_MAIL, _MAIL + "\nflow allow Send -> mail"),
    "flow_mail_no_pii": (_MAIL, "flow allow * -> mail when sensitivity <= Public and no category {pii}"),
    "flow_memory_confidential_denied": (_MAIL, _MAIL + "\nflow deny * -> memory when sensitivity >= Confidential"),
    "flow_mail_removed": (_MAIL, ""),
}
PRESERVING = ("origin_preserving", "origin_dropped", "flow_mail_internal", "flow_send_allowed", "flow_mail_no_pii")


def member(name: str) -> tuple[Policy, Policy, Workload]:
    """(old, new, workload) of the member ``name``."""
    text = read_text(BASE)
    before, after = EDITS[name]
    assert before in text
    return parse_policy(text, str(BASE)), parse_policy(text.replace(before, after), name), load_workload(WORKLOAD)


def expected(name: str) -> str:
    return "certified" if name in PRESERVING else "not_preserved"
