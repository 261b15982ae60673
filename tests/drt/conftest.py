"""The Lean oracle for tests/drt: built once per session when a toolchain is found.

Without a toolchain every test here is skipped with the reason from
``model.oracle.toolchain.missing_reason`` — skipped, never counted as passing. A previously built
oracle is not used then: without the toolchain nothing shows it still matches lean/'s sources."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from model.oracle.lean import LeanOracle
from model.oracle.toolchain import build_oracle, find_toolchain, missing_reason, oracle_path


@pytest.fixture(scope="session")
def oracle() -> Iterator[LeanOracle]:
    tc = find_toolchain()
    if tc is None:
        pytest.skip(missing_reason())
    build_oracle(tc)
    with LeanOracle(oracle_path()) as o:
        yield o
