"""Concrete sample points that answer "satisfiable" without Z3 (the questions are those of
``simulation.vectors``, Agenra Section 7.1).

Every model Z3 returns for a question of ``leaves.py`` is turned into concrete JSON (``Encoder.witness``:
an effect, an argument object and a binding state) and kept, per memo context (action, resources ``E``
allows, tools), as a *sample*. Each entry's match on every sample is computed once, by the monitor's own
matcher (``matching.entry_matches``), as a bit set over the samples. A later question — a conjunction of
match / fail literals — that some sample satisfies is satisfiable: the sample, read back as values of
the encoder's variables, is a model (the base holds: it held for the model the sample came from, and the
base of another universe of the same context only adds paths and slots the sample leaves missing or
unbound; each literal agrees with ``entry_matches`` on it, the encoding's exactness that
tests/property/test_revision_differential.py checks by replaying witnesses). Unsatisfiability is never
concluded from samples: that is still Z3's.

Choices: a witness holding a non-integral number (a rational model value read as a double) or an integer
beyond ±(2^53−1) (where the monitor rounds and the encoding does not: symbolic.py's documented gap) is not
kept, so a sample's values are exactly the model's.
"""

from __future__ import annotations

from collections.abc import Sequence

from model.base.canonical import JSON
from model.monitor.decide.matching import Effect, entry_matches
from model.monitor.decide.state import State
from model.monitor.language.policy import Entry
from model.revision.smt.z3_matching import Witness

_SAFE = 2**53 - 1


def _exact(v: JSON) -> bool:
    if isinstance(v, bool) or v is None or isinstance(v, str):
        return True
    if isinstance(v, int):
        return -_SAFE <= v <= _SAFE
    if isinstance(v, float):
        return False
    if isinstance(v, list):
        return all(_exact(x) for x in v)
    return all(_exact(x) for x in v.values())


class Pool:
    """The samples of one memo context, and each entry's matches on them as a bit set."""

    def __init__(self) -> None:
        self.samples: list[tuple[Effect, dict[str, JSON], State]] = []
        self.witnesses: list[Witness] = []
        self._bits: dict[str, tuple[int, int]] = {}  # match key → (samples evaluated, bit set)

    def add(self, w: Witness) -> bool:
        """Keep ``w`` as a sample, unless it holds an inexact number (module docstring); whether kept."""
        if not (_exact(w.resource) and _exact(w.args) and all(_exact(v) for _, v in w.bindings)):
            return False
        self.samples.append((Effect(w.action, w.resource), w.args,
                             State(bindings=tuple((s, v, 0) for s, v in w.bindings))))
        self.witnesses.append(w)
        return True

    def bits(self, key: str, e: Entry) -> int:
        done, bits = self._bits.get(key, (0, 0))
        for i in range(done, len(self.samples)):
            eff, args, state = self.samples[i]
            if entry_matches(e, eff, args, state):
                bits |= 1 << i
        self._bits[key] = (len(self.samples), bits)
        return bits

    def witness(self, literals: Sequence[tuple[str, Entry, bool]]) -> int | None:
        """The first sample satisfying every literal (key, entry, must match), or ``None``."""
        if not self.samples:
            return None
        every = (1 << len(self.samples)) - 1
        live = every
        for key, e, b in literals:
            bits = self.bits(key, e)
            live &= bits if b else every & ~bits
            if not live:
                return None
        return (live & -live).bit_length() - 1
