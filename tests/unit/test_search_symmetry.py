"""Symmetry reduction (model/search/system/symmetry.py) against the unreduced search: on the corpus admission
models and variants of them, the reduced search (exact and fingerprint) gives every query the same verdict
and the same shortest length, each reduced witness replays on the *unreduced* system as a real path whose
last transition hits its query, and the reduced state count is the number of orbits of the unreduced
run's visited states."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from model.search.search_verdict import Exhausted, Vacuous
from model.search.system.admission import AdmissionModel, AdmissionSystem, load
from model.search.system.bfs import Reached, SystemRun, search, store_of
from model.search.system.symmetry import Reduced, reduced, symmetric

CORPUS = Path(__file__).resolve().parents[2] / "corpus" / "search"


def _replay_hits(sys: AdmissionSystem, trace: tuple[str, ...], query: int) -> bool:
    """Follow ``trace``'s labels from the initial state of the unreduced system; whether each label names a
    transition of the state reached, and the last one hits ``query``."""
    cur = sys.initial()
    hits = 0
    for label in trace:
        for lab, t, h, _m in sys.successors(cur):
            if lab == label:
                cur, hits = t, h
                break
        else:
            return False
    return bool(hits >> query & 1)


def _agree(model: AdmissionModel, bound: int) -> tuple[SystemRun, SystemRun]:
    # one system for every run: its memo of the real services' steps is shared, the searches are not
    plain = AdmissionSystem(model)
    store = store_of(plain)
    full = search(plain, bound, store=store)
    orbits = len({plain.orbit_key(k) for k in store.keys()})  # type: ignore[arg-type]
    runs = [search(reduced(plain), bound, mode=mode) for mode in ("exact", "fingerprint")]
    for red in runs:
        assert red.unknown is None and full.unknown is None
        assert red.states == orbits
        assert red.depth == full.depth
        assert red.transitions <= full.transitions
        for i, ((name, v), (_, w)) in enumerate(zip(full.verdicts, red.verdicts, strict=True)):
            assert type(v) is type(w), name
            if isinstance(v, Reached):
                assert isinstance(w, Reached)
                assert w.length == v.length, name
                assert _replay_hits(plain, w.trace, i), (name, w.trace)
            else:
                assert isinstance(v, Exhausted | Vacuous)
    return full, runs[0]


@pytest.mark.parametrize(("name", "bound"), [("admission_hold.json", 7), ("admission_hold_r4.json", 4)])
def test_corpus_models_agree_modulo_symmetry(name: str, bound: int) -> None:
    full, red = _agree(load(CORPUS / name), bound)
    assert red.states < full.states  # the reduction reduces: two or more requesters make orbits of size > 1


@pytest.mark.parametrize("faults", [frozenset(), frozenset({"revoke"}), frozenset({"crash", "timeout"})])
def test_variants_agree_modulo_symmetry(faults: frozenset[str]) -> None:
    base = load(CORPUS / "admission_hold.json")
    _agree(replace(base, requesters=3, faults=faults), 4)


def test_one_requester_has_nothing_to_reduce() -> None:
    base = replace(load(CORPUS / "admission_hold.json"), requesters=1)
    full, red = _agree(base, 5)
    assert red.states == full.states and red.transitions == full.transitions


def test_a_system_without_a_declared_symmetry_is_refused() -> None:
    class Plain:
        name = "plain"
        queries = ()

    assert not symmetric(Plain())
    with pytest.raises(TypeError, match="declares no symmetry"):
        Reduced(Plain())  # type: ignore[arg-type]
