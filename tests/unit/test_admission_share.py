"""The admission step memo built by one process and adopted by another (model/search/system/admission_share.py):
an adopted share answers as the builder's memo without running a service; a share made for another search,
model, share or bound, a corrupted or truncated one, and a well-formed one whose entries are wrong (with a
valid digest) are each refused whole, leaving the adopter's memo untouched and its steps computed as
before; the stores sealed under the search's key open in every process holding it."""

from __future__ import annotations

import marshal
import os
from pathlib import Path

import pytest

from model.search.system.admission import AdmissionSystem, load
from model.search.system.admission_share import adopt, build, digest_of, export, store_key, tag_of
from model.search.system.admission_steps import Steps

SEARCH = Path(__file__).resolve().parents[2] / "corpus" / "search"
MODEL = load(SEARCH / "admission_hold.json")
BOUND = 3


def _built(key: bytes, shares: tuple[int, ...] = (0,)) -> tuple[Steps, bytes]:
    steps = Steps(MODEL.requesters, MODEL.revisions)
    build(steps, shares, BOUND, key, AdmissionSystem(MODEL).actions, True, True)
    return steps, export(steps, shares, BOUND, key)


def _fresh() -> Steps:
    return Steps(MODEL.requesters, MODEL.revisions)


def test_adopted_share_answers_as_the_builder_without_running_services() -> None:
    key = os.urandom(16)
    a, blob = _built(key)
    b = _fresh()
    got = adopt(b, blob, (0,), BOUND, key)
    assert got.refused == "" and got.entries == len(a.memo) > 0 and got.checked > 0
    for (i, loc, v, g, act), val in a.memo.items():
        assert b.step(i, loc, v, g, act) == val
    assert b.calls == 0  # every answer came from the share
    # a step the share does not hold runs here, on the stores the share sealed under the search's key
    i, loc, v, g, _act = max(a.memo, key=lambda k: k[1][1] + k[1][2])
    new = a.memo[(i, loc, v, g, "approve")][0]
    assert b.step(i, new, v, g, "replay") == a.step(i, new, v, g, "replay")


@pytest.mark.parametrize("change", ["search", "bound", "shares", "byte", "truncated", "empty", "not bytes"])
def test_a_stale_or_corrupted_share_is_refused_whole(change: str) -> None:
    key = os.urandom(16)
    _a, blob = _built(key)
    b = _fresh()
    args: tuple[object, tuple[int, ...], int, bytes] = (blob, (0,), BOUND, key)
    if change == "search":
        args = (blob, (0,), BOUND, os.urandom(16))
    elif change == "bound":
        args = (blob, (0,), BOUND + 1, key)
    elif change == "shares":
        args = (blob, (1,), BOUND, key)
    elif change == "byte":
        mid = len(blob) // 2
        args = (blob[:mid] + bytes([blob[mid] ^ 1]) + blob[mid + 1:], (0,), BOUND, key)
    elif change == "truncated":
        args = (blob[:-100], (0,), BOUND, key)
    elif change == "empty":
        args = (b"", (0,), BOUND, key)
    else:
        args = (None, (0,), BOUND, key)
    got = adopt(b, *args)
    assert got.refused and got.entries == 0
    assert not b.memo and not b.dbs and not b.recovered


def _resealed(blob: bytes, key: bytes, steps: Steps, edit: str) -> bytes:
    """``blob`` with its entries edited and its digest made again with the right key: a share of the right
    shape and provenance whose answers are wrong."""
    _fmt, tag, _d, payload = marshal.loads(blob)
    memo, rec, dbs = marshal.loads(payload)
    if edit == "refused":
        memo = [(*e[:7], not e[7]) for e in memo]
    elif edit == "effects":
        memo = [(*e[:6], (*e[6], e[6][0] if e[6] else (True,) * 5), e[7]) for e in memo]  # one more effect
    else:  # every restart entry names another local state
        rec = [(i, loc, (("executing", None, None), 9, 9)) for i, loc, _new in rec]
    payload = marshal.dumps((memo, rec, dbs))
    assert tag == tag_of(steps, (0,), BOUND)
    return marshal.dumps((1, tag, digest_of(key, tag, payload), payload))


@pytest.mark.parametrize("edit", ["refused", "effects", "recovered"])
def test_wrong_entries_with_a_valid_digest_fail_the_rerun_sample(edit: str) -> None:
    key = os.urandom(16)
    a, blob = _built(key)
    b = _fresh()
    got = adopt(b, _resealed(blob, key, b, edit), (0,), BOUND, key)
    assert got.refused == "a sampled entry differs when run again" and got.entries == 0
    assert not b.memo
    # refused, the steps are run here and give the builder's answers
    for (i, loc, v, g, act), val in list(a.memo.items())[:10]:
        assert b.step(i, loc, v, g, act) == val
    assert b.calls > 0


def test_store_bytes_open_only_under_the_search_key() -> None:
    key = os.urandom(16)
    a, _blob = _built(key)
    assert a.key is not None and a.key.public == store_key(key).public
    loc = next(loc for (_i, loc) in a.dbs)
    other = _fresh()  # the process's key
    other.dbs[(1, loc)] = a.dbs[(1, loc)]
    from model.admission.signatures.sealing import Tampered
    with pytest.raises(Tampered):
        other.step(1, loc, 0, True, "approve")
    with pytest.raises(ValueError, match="not empty"):
        a.rekey(store_key(os.urandom(16)))
