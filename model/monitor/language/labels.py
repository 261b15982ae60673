"""Labels and their join (Agenra Section 4.2) and edge propagation (Section 4.3).

A label is ``(s, C, t)``: a sensitivity level from the policy's declared total order, a set of
categories, and a trust flag. Join is ``(max, ∪, ∧)``; it is a join-semilattice with bottom
``(lowest level, ∅, True)`` (laws checked in tests/property/test_monitor_props.py).

Choices where the source is silent:
- Levels are compared by their position in the policy's ``levels`` declaration (lowest first).
- A transform's sensitivity decrement saturates at the lowest level instead of failing.
- Transform order is the one Section 4.3 states: remove categories, subtract the decrement,
  then apply explicit sensitivity and trust assignments.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from model.base.fastinit import fast_init


@fast_init
@dataclass(frozen=True, slots=True, order=True)
class Label:
    sensitivity: str
    categories: frozenset[str]
    trusted: bool

    def to_json(self) -> dict[str, object]:
        return {"sensitivity": self.sensitivity, "categories": sorted(self.categories), "trusted": self.trusted}


@dataclass(frozen=True, slots=True)
class Levels:
    """The declared total order of sensitivity levels, lowest first."""

    order: tuple[str, ...]

    def rank(self, level: str) -> int:
        return self.order.index(level)

    def le(self, a: str, b: str) -> bool:
        return self.rank(a) <= self.rank(b)

    def max(self, a: str, b: str) -> str:
        return a if self.rank(a) >= self.rank(b) else b

    def bottom(self) -> Label:
        return Label(self.order[0], frozenset(), True)

    def join(self, a: Label, b: Label) -> Label:
        return Label(self.max(a.sensitivity, b.sensitivity), a.categories | b.categories, a.trusted and b.trusted)

    def join_all(self, labels: Iterable[Label]) -> Label:
        out = self.bottom()
        for lab in labels:
            out = self.join(out, lab)
        return out

    def leq(self, a: Label, b: Label) -> bool:
        """The semilattice order: ``a ⊑ b`` iff ``a ⊔ b = b``."""
        return self.le(a.sensitivity, b.sensitivity) and a.categories <= b.categories and (b.trusted <= a.trusted)


@dataclass(frozen=True, slots=True)
class Inherit:
    """Output label = combined input label."""


@dataclass(frozen=True, slots=True)
class Transform:
    """Change selected components; fields that are ``None``/empty leave the component alone."""

    remove: frozenset[str] = frozenset()
    decrement: int = 0
    set_sensitivity: str | None = None
    set_trusted: bool | None = None


Propagation = Inherit | Transform


def propagate(levels: Levels, rule: Propagation, label: Label) -> Label:
    """The edge transfer ρ_e of Section 6.1."""
    if isinstance(rule, Inherit):
        return label
    cats = label.categories - rule.remove
    rank = max(0, levels.rank(label.sensitivity) - rule.decrement)
    sens = levels.order[rank]
    if rule.set_sensitivity is not None:
        sens = rule.set_sensitivity
    trusted = label.trusted if rule.set_trusted is None else rule.set_trusted
    return Label(sens, cats, trusted)
