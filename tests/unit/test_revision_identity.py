"""identity.same_json / same_monitor: JSON equality in place, as the canonical texts see it."""

from __future__ import annotations

from dataclasses import replace

from model.revision.corpus import load_manifest
from model.revision.identity import monitor_key, same_json, same_monitor


def test_same_json_keeps_json_equality() -> None:
    assert same_json({"a": [1, "x", None], "b": True}, {"b": True, "a": (1.0, "x", None)})
    assert not same_json(True, 1) and not same_json(0, False) and not same_json(None, False)
    assert not same_json("1", 1) and not same_json([1], [1, 1]) and not same_json({"a": 1}, {"b": 1})
    assert not same_json({"a": [True]}, {"a": [1]}) and not same_json([], {})


def test_same_monitor_is_equality_of_monitor_keys_on_the_corpus() -> None:
    entries = load_manifest()
    policies = {id(p): p for e in entries for p in (e.base.policy, e.new)}
    ps = list(policies.values())[:40]
    changed = replace(ps[0], flows=())
    ps.append(changed)
    differ = 0
    for a in ps:
        for b in ps:
            same = monitor_key(a) == monitor_key(b)
            assert same_monitor(a, b) == same, (a.name, b.name)
            differ += not same
    assert differ > 0  # the comparison met policies whose monitors differ
