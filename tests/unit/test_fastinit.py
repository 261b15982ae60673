"""``model.base.fastinit``: the replaced ``__init__`` builds what the generated one built, and refuses shapes it
does not reproduce."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import pytest

from model.base.fastinit import fast_init
from model.monitor.decide.commit import Outcome
from model.monitor.decide.state import Call, Permit, Record, State
from model.monitor.decide.verdict import Decision, Verdict
from model.monitor.language.labels import Label


@dataclass(frozen=True, slots=True)
class _Ref:  # the generated __init__, kept, to compare with
    a: int
    b: str = "x"
    c: tuple[int, ...] = ()


@fast_init
@dataclass(frozen=True, slots=True)
class _Fast:  # the same class with the replaced __init__
    a: int
    b: str = "x"
    c: tuple[int, ...] = ()


def test_same_fields_positional_keyword_and_default() -> None:
    for args, kwargs in (((1,), {}), ((1, "y"), {}), ((1,), {"c": (2,)}), ((), {"a": 3, "b": "z", "c": ()})):
        ref, fast = _Ref(*args, **kwargs), _Fast(*args, **kwargs)
        assert dataclasses.astuple(ref) == dataclasses.astuple(fast)
    with pytest.raises(TypeError):
        _Fast()
    with pytest.raises(TypeError):
        _Fast(1, "y", (), 4)


def test_instances_stay_frozen_and_compare_as_before() -> None:
    lab = Label("Public", frozenset({"pii"}), True)
    with pytest.raises(dataclasses.FrozenInstanceError):
        lab.trusted = False  # type: ignore[misc]
    twin = Label("Public", frozenset({"pii"}), True)
    assert lab == twin and hash(lab) == hash(twin)
    assert lab > Label("Public", frozenset({"pii"}), False)  # order=True: fields compared in order
    s = State(used_user=(1,))
    assert (s.trace, s.bindings, s.invalid, s.used_user, s.used_app, s.satisfied, s.permits) == (
        (), (), frozenset(), (1,), (), frozenset(), ())
    rec = Record(0, "a", "T", "op", "s", "d", (), "{}", lab)
    assert rec.succeeded is False and rec == Record(0, "a", "T", "op", "s", "d", (), "{}", lab, False)
    v = Verdict(Decision.ALLOW, permit=3)
    assert (v.reason, v.detail, v.effects, v.label, v.user, v.waiting_for, v.permit) == (
        None, "", (), None, None, frozenset(), 3)
    assert Call("a", "T", {}).refs == () and Outcome(True).value is None
    assert repr(Outcome(False)) == "Outcome(ok=False, value=None)"


def test_refuses_what_it_does_not_reproduce() -> None:
    @dataclass(frozen=True, slots=True)
    class Factory:
        xs: tuple[int, ...] = field(default_factory=tuple)

    @dataclass(frozen=True, slots=True)
    class Post:
        x: int

        def __post_init__(self) -> None:
            pass

    @dataclass(frozen=True)
    class NoSlots:
        x: int

    @dataclass(frozen=True, slots=True)
    class Hidden:
        x: int
        y: int = field(default=0, init=False)

    for cls in (Factory, Post, NoSlots, Hidden):
        with pytest.raises(TypeError):
            fast_init(cls)
    assert Permit(0, "T", ()).consumed is False  # an untouched class is unaffected
