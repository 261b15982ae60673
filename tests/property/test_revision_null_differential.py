"""Revisions of policies with a tool whose effect resource is the null constant (Agenra Sections 5 and 7.1),
judged by ``revise`` and by two lost-client searches, which must never contradict it.

Generated: a delete policy with ``Delete`` (resource: its ``target`` argument) and ``Purge`` (resource: the
null constant), permission lists over ``"A"``, ``"B"``, ``null``, ``*`` and globs (with and without a predicate
on ``force``, which the purge never has), revised by one or two edits: widening an entry's pattern to ``*``,
narrowing it to a constant (``null`` among them), reordering, a quota change, an insertion or a removal.
For each: ``Certified`` implies the bounded search ``revise`` itself would run (``explore.counterexample.
lost_client``) and plain enumeration through the monitor's ``step`` (``brute_lost``) find no lost client up to
length 3; a lost client either finds implies the verdict is ``NotPreserved`` with a trace of the same length.
Every example runs the whole revision judgment: a few dozen in the default run, many more in the slow tier.
"""

from __future__ import annotations

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from model.monitor.language.policy import Policy
from model.monitor.language.syntax import parse_policy
from model.oracle.generators import del_text, revised_lists
from model.revision.effects import EVERY_EFFECT
from model.revision.explore.counterexample import Counterexample, lost_client
from model.revision.explore.workload import workload_from_json
from model.revision.report import Certified, NotPreserved
from model.revision.revise import revise
from tests.property.test_revision_differential import brute_lost

BOUND = 3
PATTERNS = ('"A"', '"B"', "null", "null", "*", 'like "*"', 'like "[AB]"')
NARROW = ('"A"', '"B"', "null")
WHERE = ("", "", "", " where force == true")
QUOTAS = ("0", "1", "1", "2", "unlimited")
WORKLOAD = workload_from_json({"agent": "a", "forbidden": [], "calls": [
    {"name": "A", "tool": "Delete", "args": {"target": "A"}},
    {"name": "B", "tool": "Delete", "args": {"target": "B"}},
    {"name": "purge", "tool": "Purge", "args": {}},
    {"name": "A!", "tool": "Delete", "args": {"target": "A", "force": True}}]})


PURGE = "tool Purge {operation: Delete, endpoints: m -> f, args: {}, required: {}, effects: [file.delete(null)]}\n"


def _text(name: str, user: list[str], app: list[str]) -> str:
    """The generators' delete policy, with the purge tool beside ``Delete``."""
    text = del_text(name, user, app)
    return text.replace("flow allow", PURGE + "flow allow", 1)


def _entry(pattern: str, where: str, quota: str) -> str:
    return f"allow file.delete({pattern}){where} quota {quota}"


@st.composite
def _entries(draw: st.DrawFn, min_size: int, max_size: int) -> list[tuple[str, str, str]]:
    return draw(st.lists(st.tuples(st.sampled_from(PATTERNS), st.sampled_from(WHERE), st.sampled_from(QUOTAS)),
                         min_size=min_size, max_size=max_size))


@st.composite
def _edit(draw: st.DrawFn, xs: list[tuple[str, str, str]]) -> list[tuple[str, str, str]]:
    xs = list(xs)
    kind = draw(st.sampled_from(("widen", "narrow", "swap", "quota", "insert", "remove")))
    i = draw(st.integers(0, max(len(xs) - 1, 0)))
    if kind == "swap" and len(xs) >= 2:
        i = min(i, len(xs) - 2)
        xs[i], xs[i + 1] = xs[i + 1], xs[i]
    elif kind == "widen" and xs:
        xs[i] = ("*", xs[i][1], xs[i][2])
    elif kind == "narrow" and xs:
        xs[i] = (draw(st.sampled_from(NARROW)), xs[i][1], xs[i][2])
    elif kind == "quota" and xs:
        xs[i] = (xs[i][0], xs[i][1], draw(st.sampled_from(QUOTAS)))
    elif kind == "insert":
        xs.insert(i, draw(_entries(1, 1))[0])
    elif kind == "remove" and xs:
        del xs[i]
    event(f"edit: {kind}")
    return xs


@st.composite
def null_cases(draw: st.DrawFn) -> tuple[Policy, Policy]:
    """A small policy with the null-resource purge and a revision of it by one or two edits."""
    user = draw(_entries(1, 3))
    app = [("*", "", "unlimited")] if draw(st.booleans()) else draw(_entries(1, 2))
    new_user, new_app = draw(revised_lists(user, app, _edit))

    def lines(xs: list[tuple[str, str, str]]) -> list[str]:
        return [_entry(*x) for x in xs]

    return (parse_policy(_text("old", lines(user), lines(app))),
            parse_policy(_text("new", lines(new_user), lines(new_app))))


def _judge(case: tuple[Policy, Policy]) -> None:
    old, new = case
    report = revise(old, new, EVERY_EFFECT, WORKLOAD, BOUND)
    verdict = report.preservation
    searched = lost_client(old, new, WORKLOAD, BOUND)
    brute = brute_lost(old, new, BOUND, workload=WORKLOAD)
    lost = isinstance(searched, Counterexample)
    assert lost == (brute is not None), (searched, brute)  # the two searches agree with each other
    null_lost = brute is not None and "purge" in [WORKLOAD.templates[k].name for k in brute]
    event(f"{type(verdict).__name__}{' (purge in the trace)' if null_lost else ''}")
    if isinstance(verdict, Certified):
        event(f"certified by {type(verdict.evidence).__name__}")
        assert not lost and brute is None, (verdict, searched, brute)
    if lost:
        assert isinstance(verdict, NotPreserved), verdict
        assert brute is not None and len(verdict.lost.seq) == len(brute), (verdict.lost, brute)


@settings(max_examples=25)
@given(null_cases())
def test_revise_never_contradicts_the_lost_client_searches(case: tuple[Policy, Policy]) -> None:
    _judge(case)


@pytest.mark.slow
@settings(max_examples=400)
@given(null_cases())
def test_revise_never_contradicts_the_lost_client_searches_at_volume(case: tuple[Policy, Policy]) -> None:
    _judge(case)
