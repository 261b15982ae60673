"""Silent wrong answers from Python's ``True == 1 == 1.0`` (and ``False == 0``) where RFC 8785 equality
(``model.canonical.json_equal``) tells the values apart: one failing input per bug found, each failing
without its fix."""

from __future__ import annotations

from model.monitor.syntax import parse_policy
from model.revision.agreement import Disagree, agree
from model.revision.effects import EVERY_EFFECT
from model.revision.explicit import disagreement, domain_for

_HEADER = """policy p
levels Public < Internal
node a: source (Public, {}, trusted)
node b: sink (Public, {}, trusted)
edge Send: a -> b inherit
agent x {operations: {Send}, ceiling: Internal}
tool Send {endpoints: a -> b, args: {to, cc}, required: {to, cc}, effects: [message.send(to), message.send(cc)]}
flow allow * -> b
"""


def test_explicit_revision_engine_keeps_send_true_next_to_send_1() -> None:
    # The only effect the first grant matches and the second does not is send(true) from ``cc`` on a call
    # with ``to: 1``, whose other effect is send(1): deduplicating the call's effects with Python equality
    # dropped send(true), so the explicit engine answered "no disagreement" where the symbolic one found it.
    p = parse_policy(_HEADER + """user {
  allow message.send(true) where to == 1
  allow message.send(true) where to == 1 and cc == 1
}
""")
    a, b = p.user
    symbolic = agree(a, b, EVERY_EFFECT, p.tools)
    assert isinstance(symbolic, Disagree) and symbolic.witness.resource is True
    w = disagreement(a, b, EVERY_EFFECT, p.tools, domain_for((a, b)))
    assert w is not None and w.resource is True and w.args == {"to": 1, "cc": True}
