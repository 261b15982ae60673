"""A layer of the generic search's frontier stored compactly (our design, for the fingerprint mode of
``bfs.py`` and the partitioned search of ``model/dist/system.py``, whose visited sets keep no states).

A system that also implements ``Splits`` cuts each state into a few *parts* that repeat across states
(the admission model: the policy version, the grants, one local state per requester) and rebuilds a
state from them. A ``Codec`` interns every part it meets (a dict from part to a 32-bit id and the list
back), and a ``Layer`` keeps all its states as ids in one ``array('I')`` plus one length byte each: for
the admission model with five requesters 29 bytes a state instead of the few hundred of its nested
tuples. Without ``Splits`` a layer is a plain list of states.

Choices: the intern table is per search and never shrinks — its size is the number of distinct parts,
which a system should keep small (a part that is unique per state would store every state there); a
state of more than 255 parts is refused with a ``ValueError`` naming the system, as the length byte
cannot hold it.
"""

from __future__ import annotations

from array import array
from collections.abc import Hashable, Iterator
from typing import Generic, Protocol, TypeVar, runtime_checkable

S = TypeVar("S")


@runtime_checkable
class Splits(Protocol[S]):
    """The optional half of ``protocol.System`` that lets the frontier be stored as interned parts."""

    def parts(self, state: S) -> tuple[Hashable, ...]: ...

    def whole(self, parts: tuple[Hashable, ...]) -> S: ...


class Codec(Generic[S]):
    """The per-search intern table of a system's parts (module docstring)."""

    def __init__(self, sys: object) -> None:
        self.split: Splits[S] | None = sys if isinstance(sys, Splits) else None
        self.name = str(getattr(sys, "name", type(sys).__name__))
        self.ids: dict[Hashable, int] = {}
        self.atoms: list[Hashable] = []

    def layer(self) -> Layer[S] | list[S]:
        return Layer(self) if self.split is not None else []

    def encode(self, state: S, into: array[int]) -> int:
        assert self.split is not None
        ps = self.split.parts(state)
        if len(ps) > 255:
            raise ValueError(f"system {self.name}: a state of {len(ps)} parts (at most 255 can be stored)")
        ids, atoms = self.ids, self.atoms
        for p in ps:
            i = ids.get(p)
            if i is None:
                i = ids[p] = len(atoms)
                atoms.append(p)
            into.append(i)
        return len(ps)


class Layer(Generic[S]):
    """The states of one layer, in the order appended, as interned part ids (module docstring)."""

    __slots__ = ("codec", "ids", "lengths")

    def __init__(self, codec: Codec[S]) -> None:
        self.codec = codec
        self.ids = array("I")
        self.lengths = array("B")

    def append(self, state: S) -> None:
        self.lengths.append(self.codec.encode(state, self.ids))

    def __len__(self) -> int:
        return len(self.lengths)

    def __iter__(self) -> Iterator[S]:
        split, atoms, ids = self.codec.split, self.codec.atoms, self.ids
        assert split is not None
        o = 0
        for n in self.lengths:
            yield split.whole(tuple([atoms[i] for i in ids[o:o + n]]))
            o += n
