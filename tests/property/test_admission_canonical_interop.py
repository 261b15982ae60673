"""Our RFC 8785 bytes equal the bytes Parmana's SDK signs (``parmana.crypto.canonical``) on the
domain the SDK produces: approval payloads with arbitrary text (no lone surrogates), integer
amounts and non-integral decimals. This is what lets us verify SDK signatures with one byte form
instead of assuming the two serializers agree."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from parmana.crypto.canonical import canonical_serialize

from model.base.canonical import canonical_bytes

text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=24)
amount = st.one_of(st.integers(1, 10**12),
                   st.integers(1, 10**9).map(lambda c: c / 100).filter(lambda x: not float(x).is_integer()))
payload = st.fixed_dictionaries({
    "version": st.just(1), "approvalId": text, "issuer": st.fixed_dictionaries({"approverId": text, "keyId": text}),
    "issuedAt": text, "expiresAt": text, "capability": text, "resourceId": text,
    "scope": st.one_of(st.fixed_dictionaries({"field": st.just("value"), "comparator": st.just("lte"),
                                              "value": amount}),
                       st.fixed_dictionaries({"field": st.just("resourceId"), "comparator": st.just("eq"),
                                              "value": text})),
    "nonce": text})


@settings(max_examples=300, deadline=None)
@given(payload)
def test_sdk_canonical_bytes_equal_rfc8785_on_approval_payloads(p: dict[str, object]) -> None:
    assert canonical_serialize(p) == canonical_bytes(p)
