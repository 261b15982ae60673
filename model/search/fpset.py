"""The visited set of the fingerprint mode (``fingerprint.py``; our design for the missing Section 8 of
Agenra): 64-bit state fingerprints, TLC-style, in an open-addressing table that also maps each to a
32-bit index, and the probability that two distinct states shared a fingerprint.

Choice: the fingerprint is Python's hash of the compact state taken mod 2^64 — not a cryptographic
hash; it mixes the element hashes of the tuple (SipHash for strings) and is what the exact mode's dict
uses. The collision probability is the birthday bound under uniform hashing that TLC reports.
"""

from __future__ import annotations

from array import array

from model.search.compact import Compact

_MASK = (1 << 64) - 1
NONE = 0xFFFFFFFF  # no index: a state never stored (the last layer's), or indices dropped


def fingerprint(s: Compact) -> int:
    """A nonzero 64-bit fingerprint (0 marks an empty slot)."""
    return (hash(s) & _MASK) or 1


def collision_probability(n: int) -> float:
    return n * (n - 1) / 2.0 ** 65


class FingerprintSet:
    """A map from nonzero 64-bit integers to 32-bit indices: linear probing over an ``array('Q')`` and a
    parallel ``array('I')``, doubled at three quarters full — 16 to 32 bytes per element, 48 while the
    old and the new table coexist during a doubling; without the indices (``drop_index``) a set of 11 to
    21 bytes per element, 32 during a doubling."""

    __slots__ = ("index", "mask", "n", "slots")

    def __init__(self, capacity: int = 1 << 12) -> None:
        self.slots = array("Q", bytes(8 * capacity))
        self.index: array[int] | None = array("I", bytes(4 * capacity))
        self.mask = capacity - 1
        self.n = 0

    def put(self, fp: int, index: int) -> int:
        """Insert ``fp`` with ``index`` and answer -1; when ``fp`` was there already, answer its index
        (``NONE`` once the indices were dropped)."""
        slots, mask = self.slots, self.mask
        i = fp & mask
        while True:
            v = slots[i]
            if v == fp:
                return self.index[i] if self.index is not None else NONE
            if v == 0:
                slots[i] = fp
                if self.index is not None:
                    self.index[i] = index
                self.n += 1
                if 4 * self.n > 3 * mask:  # at most three quarters full
                    self._grow()
                return -1
            i = (i + 1) & mask

    def drop_index(self) -> None:
        """Forget the indices (a set from now on): 8 bytes a slot instead of 12."""
        self.index = None

    def add(self, fp: int) -> bool:
        """Insert ``fp`` (as a set); False when it was there already."""
        return self.put(fp, NONE) < 0

    def _grow(self) -> None:
        old, old_index = self.slots, self.index
        self.slots = array("Q", bytes(16 * len(old)))
        self.mask = 2 * len(old) - 1
        slots, mask = self.slots, self.mask
        if old_index is None:
            for fp in old:
                if fp:
                    i = fp & mask
                    while slots[i]:
                        i = (i + 1) & mask
                    slots[i] = fp
            return
        self.index = index = array("I", bytes(8 * len(old)))
        for j, fp in enumerate(old):
            if fp:
                i = fp & mask
                while slots[i]:
                    i = (i + 1) & mask
                slots[i] = fp
                index[i] = old_index[j]

    def __len__(self) -> int:
        return self.n

    @property
    def nbytes(self) -> int:
        return 8 * len(self.slots) + (4 * len(self.index) if self.index is not None else 0)
