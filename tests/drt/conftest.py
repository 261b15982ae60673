"""The Lean oracle for tests/drt (the executable, and the in-process library built from the same
modules): built once per session when a toolchain is found.

Without a toolchain every test here is skipped with the reason from
``model.oracle.toolchain.missing_reason`` (which points at docs/lean.md) — skipped, never counted as
passing. A previously built oracle is not used then: without the toolchain nothing shows it still
matches lean/'s sources. With ``AGENTWARRANT_REQUIRE_LEAN=1`` (the Makefile sets it once it has
found or unpacked a toolchain) a missing toolchain fails instead of skipping, so CI cannot pass by
skipping the differential tests."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from model.oracle.inproc import Library, load
from model.oracle.lean import LeanOracle
from model.oracle.library import build as build_library
from model.oracle.toolchain import build_oracle, find_toolchain, missing_reason, oracle_path


@pytest.fixture(scope="session")
def oracle() -> Iterator[LeanOracle]:
    tc = find_toolchain()
    if tc is None:
        if os.environ.get("AGENTWARRANT_REQUIRE_LEAN") == "1":
            pytest.fail(f"AGENTWARRANT_REQUIRE_LEAN=1 but {missing_reason()}")
        pytest.skip(missing_reason())
    build_oracle(tc)
    with LeanOracle(oracle_path()) as o:
        yield o


@pytest.fixture(scope="session")
def library(oracle: LeanOracle) -> Library:
    """The in-process library, built from the same modules as ``oracle`` and loaded (checksum checked)."""
    tc = find_toolchain()
    assert tc is not None  # (``oracle`` skipped or failed otherwise)
    build_library(tc)
    return load()
