"""The independent checker's answers (Agenra Section 7.1): a certificate is valid, invalid (with the
reason), or undecided — Z3 answered unknown on a question the check needs — which never counts as a
proof (``revise`` then tries the next kind of certificate)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Valid:
    pass


@dataclass(frozen=True, slots=True)
class Invalid:
    reason: str


@dataclass(frozen=True, slots=True)
class Undecided:
    """The checker could not decide (Z3 answered unknown): the certificate is neither accepted nor refuted,
    and never counts as a proof."""

    reason: str


CheckVerdict = Valid | Invalid | Undecided
