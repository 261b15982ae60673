"""A faster ``__init__`` for the monitor's hot frozen dataclasses (why: on the reference path a
mediated call builds a call, a verdict, two records and two states, and building them was a quarter of its
cost; the Adapter's session path builds fewer, but the decide fallback, the search and the revision engines
still build them per step).

The ``__init__`` that ``dataclasses`` generates for a frozen class writes each field with
``object.__setattr__(self, name, value)``, a generic attribute lookup per field that finds the slot's
descriptor each time. ``fast_init`` replaces it by an ``__init__`` with the same parameters (names, order,
defaults, from ``dataclasses.fields``) that calls each slot descriptor's ``__set__`` directly. Nothing else
changes: the instances hold the same values, stay frozen (assignment still raises
``FrozenInstanceError``), and compare, hash and print as before.

Choices: only the simplest shape is accepted — slots, every field in ``__init__`` with no default factory,
no ``InitVar`` and no ``__post_init__`` — and anything else raises ``TypeError`` at import, so the
replacement never has to reproduce a dataclass feature. tests/unit/test_fastinit.py checks it.
"""

from __future__ import annotations

import dataclasses
import inspect
from typing import Any, TypeVar

T = TypeVar("T")


def fast_init(cls: type[T]) -> type[T]:
    if not dataclasses.is_dataclass(cls) or "__slots__" not in cls.__dict__:
        raise TypeError(f"{cls.__name__}: fast_init needs a slots dataclass")
    if hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__}: fast_init cannot run __post_init__")
    fields = dataclasses.fields(cls)
    generated = list(inspect.signature(cls.__init__).parameters)[1:]
    if generated != [f.name for f in fields]:  # an InitVar, or a field left out of __init__
        raise TypeError(f"{cls.__name__}: fast_init needs __init__ to take exactly the fields")
    ns: dict[str, Any] = {}
    params: list[str] = []
    body: list[str] = []
    for f in fields:
        if not f.init or f.default_factory is not dataclasses.MISSING or f.kw_only:
            raise TypeError(f"{cls.__name__}.{f.name}: fast_init needs plain positional fields")
        if f.default is dataclasses.MISSING:
            params.append(f.name)
        else:
            ns[f"_default_{f.name}"] = f.default
            params.append(f"{f.name}=_default_{f.name}")
        ns[f"_set_{f.name}"] = getattr(cls, f.name).__set__
        body.append(f"    _set_{f.name}(self, {f.name})")
    src = f"def __init__(self, {', '.join(params)}):\n" + ("\n".join(body) or "    pass") + "\n"
    exec(src, ns)  # field names are identifiers (dataclasses checked them), so this is that text exactly
    init = ns["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__doc__ = cls.__init__.__doc__
    type.__setattr__(cls, "__init__", init)  # (plain assignment to a method upsets mypy)
    return cls
