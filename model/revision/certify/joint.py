"""Proposing a joint simulation between the old ledgers ``(P, A)`` and the new ledgers ``(P′, A′)``
(Agenra Sections 1 and 5: "each effect needs authorization from both the user's permissions and
the application ceiling"; Section 7.1's simulation between old and new ledgers).

The per-list check (``simulation.py``) relates ``P`` to ``P′`` and ``A`` to ``A′`` separately, so
it fails on a revision where one list alone would lose an effect that the *other* list never lets
through: a user grant narrowed to amounts the ceiling already caps, a ceiling quota cut to what the
user list can spend anyway, a deny the ceiling already has. Here a unit is charged on both lists at
once, as the monitor does: old admits a unit when first-fit finds an account on ``P`` *and* on
``A``; the new policy must then find one on ``P′`` and on ``A′``.

Abstraction (the per-list one, widened to four lists): what first-fit does with one effect unit
depends only on its match vector over the four lists (which entries match it, under its
arguments and the binding state the monitor reads — one binding state for all four lists, since
bindings are carried unchanged) and on the satisfied requirements. The realizable vectors are
enumerated with Z3 (``simulation.vectors``); requirement sets range over every subset of those the
lists name. Letting each unit take any vector over-approximates real runs, so a closed relation is a
proof. Unlimited accounts keep their counter (it never limits first-fit).

``propose`` explores the quadruples ``(u_P, u_A, v_P, v_A)`` reachable from the starting one and
fails, with the vector and counters, as soon as old admits a unit the new lists refuse. The result
is a ``JointSimulation`` certificate, which ``revise`` accepts only after ``checker.check_joint``
(which shares neither the enumeration nor first-fit with this file) has verified it.
The number of related quadruples is capped at ``MAX_QUADS`` (or a smaller ``cap``, revise.py).
"""

from __future__ import annotations

from model.base.budget import Meter
from model.monitor.language.policy import Policy
from model.revision.carry import Ledgers
from model.revision.certify.conditions import monitor_unchanged
from model.revision.certify.joint_certificate import ActionVectors, JointSimulation, Quad, Vector
from model.revision.certify.simulation import NoSimulation, charger, requirement_sets, vectors
from model.revision.effects import EffectSet
from model.revision.explore.memo import Memo

MAX_QUADS = 50000


def _on(bits: tuple[bool, ...]) -> list[int]:
    return [i for i, b in enumerate(bits) if b]


def _refusal(action: str, quad: Quad, v: Vector, q: frozenset[str]) -> str:
    u_p, u_a, v_p, v_a = quad
    return (f"joint: old usage P {list(u_p)}, A {list(u_a)} admits a {action} unit (matching P {_on(v[0])}, "
            f"A {_on(v[1])}) that new usage P′ {list(v_p)}, A′ {list(v_a)} refuses (matching P′ {_on(v[2])}, "
            f"A′ {_on(v[3])}; satisfied {sorted(q)})")


def propose(old: Policy, new: Policy, effects: EffectSet, ledgers: Ledgers | None = None,
            meter: Meter | None = None, memo: Memo | None = None,
            cap: int = MAX_QUADS) -> JointSimulation | NoSimulation:
    """The reachable quadruples as a certificate, or why there is none (``meter`` ticks per Z3 query
    and per quadruple and may raise ``BudgetExhausted``; ``memo``: see ``simulation.vectors``)."""
    if not monitor_unchanged(old, new, memo):
        return NoSimulation("the revision changes more than the two permission lists")
    lists = (old.user, old.application, new.user, new.application)
    if any(e.permit for xs in lists for e in xs):
        return NoSimulation("exact-call permits are outside the simulation check")
    found = vectors(lists, effects, old.tools, meter, memo)
    if isinstance(found, str):
        return NoSimulation(f"joint: {found}")
    table: list[tuple[str, Vector]] = []
    for action, vs in found:
        for v in vs:
            table.append((action, (v[0], v[1], v[2], v[3])))
    qs = requirement_sets([e for xs in lists for e in xs])
    lg = ledgers or Ledgers.zero(old, new)
    start: Quad = (lg.old_user, lg.old_app, lg.new_user, lg.new_app)
    planned = memo is not None
    ch_pu, ch_au = charger(old.user, planned), charger(old.application, planned)
    ch_pn, ch_an = charger(new.user, planned), charger(new.application, planned)
    seen = {start}
    frontier = [start]
    while frontier:
        nxt: list[Quad] = []
        for quad in frontier:
            u_p, u_a, v_p, v_a = quad
            for action, v in table:
                for q in qs:
                    u_p2 = ch_pu(u_p, v[0], q)
                    u_a2 = ch_au(u_a, v[1], q) if u_p2 is not None else None
                    if u_p2 is None or u_a2 is None:
                        continue
                    v_p2 = ch_pn(v_p, v[2], q)
                    v_a2 = ch_an(v_a, v[3], q)
                    if v_p2 is None or v_a2 is None:
                        return NoSimulation(_refusal(action, quad, v, q))
                    succ = (u_p2, u_a2, v_p2, v_a2)
                    if succ not in seen:
                        if meter is not None:
                            meter.tick()
                        seen.add(succ)
                        nxt.append(succ)
                        if len(seen) > cap:
                            return NoSimulation(f"joint: more than {cap} reachable ledger quadruples", True)
        frontier = nxt
    return JointSimulation(effects, tuple(ActionVectors(a, tuple((v[0], v[1], v[2], v[3]) for v in vs))
                                          for a, vs in found), start, frozenset(seen))
