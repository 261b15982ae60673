"""The façade's argument check (``model/shell/apicheck.py``) binds plain calls without ``Signature.bind``
and keeps answers per value type: both must refuse exactly what the general path refuses."""

from __future__ import annotations

from typing import Literal

import pytest

from model.base.errors import InvalidInput
from model.shell.apicheck import checked


@checked
def _f(a: int, b: str = "x", *, c: Literal["p", "q"] = "p", d: tuple[str, ...] = ()) -> str:
    return f"{a}{b}{c}{len(d)}"


def test_a_cached_type_answer_never_lets_a_wrong_value_through() -> None:
    assert _f(1, "y") == "1yp0"
    with pytest.raises(InvalidInput, match="_f: a"):
        _f(True)  # bool after int was accepted: a different type, checked afresh
    with pytest.raises(InvalidInput, match="_f: b"):
        _f(1, 2)
    assert _f(1, c="q") == "1xq0"
    with pytest.raises(InvalidInput, match="_f: c"):
        _f(1, c="r")  # a Literal reads the value: never cached by type
    assert _f(1, d=("u",)) == "1xp1"
    with pytest.raises(InvalidInput, match="_f: d"):
        _f(1, d=("u", 3))  # a container's elements are read every time


@pytest.mark.parametrize("args, kwargs", [((), {}), ((1,), {"a": 2}), ((1,), {"e": 0}), ((1, "y", "p"), {})])
def test_calls_that_do_not_bind_are_refused_as_bind_words_them(args: tuple[object, ...],
                                                               kwargs: dict[str, object]) -> None:
    with pytest.raises(InvalidInput, match="arguments matching _f"):
        _f(*args, **kwargs)
