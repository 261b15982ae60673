"""Round trips of random well-formed policies, and robustness of the loaders on random input."""

from __future__ import annotations

import json
from collections.abc import Callable

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from model.base.errors import InvalidInput
from model.monitor.language.policy import Policy
from model.monitor.language.policy_json import policy_from_json, policy_from_json_text, policy_to_json
from model.monitor.language.syntax import parse_policy, print_policy
from model.monitor.language.validate import validate
from model.oracle.generators import policies, policy_texts

ROUND_TRIPS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
FUZZ = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@ROUND_TRIPS
@given(policies())
def test_print_parse_and_json_round_trips(p: Policy) -> None:
    validate(p)  # the strategy only draws well-formed policies
    text = print_policy(p)
    doc = policy_to_json(p)
    # Dataclass equality treats true as 1 and false as 0 (Python's bool is an int); the typed JSON
    # documents are compared as text as well, so a round trip that changed a boolean's type fails.
    assert parse_policy(text) == p
    assert _typed(policy_to_json(parse_policy(text))) == _typed(doc)
    assert policy_from_json(doc) == p
    assert _typed(policy_to_json(policy_from_json(doc))) == _typed(doc)
    # json.dumps, not canonical_str: RFC 8785 writes an integral float such as 4.4e16 as an integer
    # literal, which reads back as a (different, for |x| > 2**53) int; digests are unaffected.
    assert policy_from_json_text(json.dumps(doc)) == p


def _typed(doc: object) -> str:
    return json.dumps(doc, sort_keys=True)


def _only_invalid_input(call: Callable[[], object]) -> None:
    try:
        result = call()
    except InvalidInput as err:
        assert err.expected and err.location.source
    else:
        assert isinstance(result, Policy)


@FUZZ
@given(st.one_of(st.text(max_size=200), st.binary(max_size=200)))
def test_random_text_and_bytes_give_only_invalid_input(data: str | bytes) -> None:
    _only_invalid_input(lambda: parse_policy(data, source="fuzz"))


@FUZZ
@given(policy_texts(), st.data())
def test_mutated_policy_text_gives_a_policy_or_invalid_input(text: str, data: st.DataObject) -> None:
    start = data.draw(st.integers(0, len(text)))
    stop = data.draw(st.integers(start, min(len(text), start + 8)))
    insert = data.draw(st.sampled_from(["", "{", "}", ",", "(", "->", "..", '"', "#", "x", "@", "-1", "quota 2"]))
    mutated = text[:start] + insert + text[stop:]
    assume(mutated != text)
    _only_invalid_input(lambda: parse_policy(mutated, source="fuzz"))


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=12,
)


@FUZZ
@given(policies(), st.data())
def test_mutated_policy_json_gives_a_policy_or_invalid_input(p: Policy, data: st.DataObject) -> None:
    doc = policy_to_json(p)
    # replace one value somewhere in the document by a random JSON value
    node: object = doc
    for _ in range(data.draw(st.integers(0, 4))):
        if isinstance(node, dict) and node:
            key = data.draw(st.sampled_from(sorted(node)))
            if not isinstance(node[key], dict | list) or data.draw(st.booleans()):
                node[key] = data.draw(json_values)
                break
            node = node[key]
        elif isinstance(node, list) and node:
            index = data.draw(st.integers(0, len(node) - 1))
            if not isinstance(node[index], dict | list) or data.draw(st.booleans()):
                node[index] = data.draw(json_values)
                break
            node = node[index]
    _only_invalid_input(lambda: policy_from_json(doc, source="fuzz.json"))
