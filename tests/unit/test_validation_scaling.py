"""The validation-scaling experiment's inputs are what its table says they are (no timing here: the
timings are `agentwarrant reproduce validation-scaling`)."""

from __future__ import annotations

from model.monitor.language.policy import ConstPat
from model.monitor.language.syntax import parse_policy
from model.shell.reproduce import load_experiment

vs = load_experiment("validation-scaling")


def test_generated_policies_have_the_stated_size() -> None:
    for n in (1, 7, 100):
        p = parse_policy(vs.rules_policy(n))
        assert len(p.user) == n and len(p.application) == 5
        assert len({type(e.resource) for e in p.user}) == min(n, 4)  # const, slot, glob, any (deny is a const)
    p = parse_policy(vs.string_policy(12345))
    first = p.user[0].resource
    assert isinstance(first, ConstPat) and first.value == "x" * 12345


def test_ratio_and_slope_columns() -> None:
    rows = vs.table_rows([("rules (text)", 100, 0.5), ("rules (text)", 1000, 5.0), ("rules (text)", 10000, 500.0),
                          ("string (text)", 10, 1.0)])
    assert [r[4] for r in rows] == ["-", "10.0", "100.0", "-"]
    assert [r[5] for r in rows] == ["-", "1.00", "2.00", "-"]  # linear, then quadratic
