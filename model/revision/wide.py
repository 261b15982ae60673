"""A wide revision for measuring the safety search (Agenra Section 7.1: the safety delta is reported
always, beside client preservation): ``n`` single-file delete grants of quota one under an unlimited
ceiling, revised by appending one more grant (a structural certificate proves preservation at once),
with a workload of ``n`` single deletions and "no file deleted twice" as its forbidden budget. Every
sequence of distinct deletions is admitted by both policies, so the forbidden-trace search explores
all of them up to its bound while the certificate costs a few Z3 questions — the shape in which the
safety search dominates a ``revise``.

Choices where the source is silent: file names ``F0``…; the appended grant names a file no call deletes.
"""

from __future__ import annotations

from model.monitor.language.policy import Policy
from model.monitor.language.syntax import parse_policy
from model.revision.explore.workload import Workload, workload_from_json


def _policy(name: str, grants: list[str]) -> Policy:
    body = "".join(f"  {g}\n" for g in grants)
    return parse_policy(
        f"policy {name}\nlevels Public\ncategories\nnode m: memory (Public, {{}}, trusted)\n"
        "node files: sink (Public, {}, trusted)\nedge Delete: m -> files inherit\n"
        "agent cleaner {operations: {Delete}, ceiling: Public}\n"
        "tool Delete {endpoints: m -> files, args: {target}, required: {target}, effects: [file.delete(target)]}\n"
        f"flow allow * -> files\nuser {{\n{body}}}\napplication {{\n  allow file.delete(*) quota unlimited\n}}\n")


def wide_revision(n: int) -> tuple[Policy, Policy, Workload]:
    """(old, new, workload) with ``n`` grants (module docstring)."""
    grants = [f'allow file.delete("F{i}") quota 1' for i in range(n)]
    workload = workload_from_json({
        "agent": "cleaner",
        "calls": [{"name": f"delete F{i}", "tool": "Delete", "args": {"target": f"F{i}"}} for i in range(n)],
        "forbidden": [{"action": "file.delete", "max": 1, "per_resource": True}]})
    return _policy("old", grants), _policy("new", [*grants, 'allow file.delete("G") quota 1']), workload
