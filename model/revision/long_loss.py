"""A generated family of revisions whose shortest lost client or newly admitted forbidden trace is as long as
a quota (Agenra Sections 1 and 7.1: client preservation quantifies over call sequences of every length), for
quotas ``Q`` from 10^3 to 10^9: no bounded search reaches their counterexamples, the counter abstraction
(``explore/accelerate.py``) does.

Members, each at quota ``Q`` (deletions of files A and B; the application ceiling unlimited unless said):
- ``cut``: one grant for any file, quota ``Q`` → ``Q − 1``; lost client ``delete A^(Q−1) · delete A``.
- ``widen_first``: the introduction's widening at scale: ``[B: Q, A: Q]`` → ``[A or B: Q, A: Q]``; lost client
  ``delete A^Q · delete B`` (``Q + 1`` calls: first-fit spends the widened grant on A).
- ``ceiling``: grants ``A: Q`` and ``B: Q`` under an application ceiling of ``2Q`` → ``2Q − 1``; lost client
  of ``2Q`` calls.
- ``raise``: one grant, quota ``Q`` → ``Q + 1``, with "more than ``Q`` deletions" forbidden: preserving (a
  capacity extension) and newly admitting the ``Q + 1``-th deletion.
``expected(member)`` is what the member is built to show, (preservation, safety), used by tests to score,
never by the judgment.

Choices where the source is silent: file names A and B, the bound of the bounded searches 4.
"""

from __future__ import annotations

from model.monitor.language.policy import Policy
from model.monitor.language.syntax import parse_policy
from model.revision.explore.workload import Workload, workload_from_json

MEMBERS = ("cut", "widen_first", "ceiling", "raise")
QUOTAS = (10**3, 10**6, 10**9)
BOUND = 4


def _policy(name: str, user: list[str], app: str) -> Policy:
    body = "".join(f"  {g}\n" for g in user)
    return parse_policy(
        f"policy {name}\nlevels Public\ncategories\nnode m: memory (Public, {{}}, trusted)\n"
        "node files: sink (Public, {}, trusted)\nedge Delete: m -> files inherit\n"
        "agent cleaner {operations: {Delete}, ceiling: Public}\n"
        "tool Delete {endpoints: m -> files, args: {target}, required: {target}, effects: [file.delete(target)]}\n"
        f"flow allow * -> files\nuser {{\n{body}}}\napplication {{\n  allow file.delete(*) quota {app}\n}}\n")


def _workload(forbid_over: int | None) -> Workload:
    doc: dict[str, object] = {
        "agent": "cleaner",
        "calls": [{"name": "delete A", "tool": "Delete", "args": {"target": "A"}},
                  {"name": "delete B", "tool": "Delete", "args": {"target": "B"}}]}
    if forbid_over is not None:
        doc["forbidden"] = [{"action": "file.delete", "max": forbid_over}]
    return workload_from_json(doc)


def member(name: str, q: int) -> tuple[Policy, Policy, Workload]:
    """(old, new, workload) of the member ``name`` at quota ``q``."""
    if name == "cut":
        return (_policy("old", [f"allow file.delete(*) quota {q}"], "unlimited"),
                _policy("new", [f"allow file.delete(*) quota {q - 1}"], "unlimited"), _workload(None))
    if name == "widen_first":
        return (_policy("old", [f'allow file.delete("B") quota {q}', f'allow file.delete("A") quota {q}'], "unlimited"),
                _policy("new", [f'allow file.delete(like "[AB]") quota {q}', f'allow file.delete("A") quota {q}'],
                        "unlimited"), _workload(None))
    if name == "ceiling":
        grants = [f'allow file.delete("A") quota {q}', f'allow file.delete("B") quota {q}']
        return (_policy("old", grants, str(2 * q)), _policy("new", grants, str(2 * q - 1)), _workload(None))
    if name == "raise":
        return (_policy("old", [f"allow file.delete(*) quota {q}"], "unlimited"),
                _policy("new", [f"allow file.delete(*) quota {q + 1}"], "unlimited"), _workload(q))
    raise ValueError(name)


def expected(name: str) -> tuple[str, str]:
    """(preservation, safety) the member is built to show."""
    return ("certified", "newly_forbidden") if name == "raise" else ("not_preserved", "no_forbidden_declared")
