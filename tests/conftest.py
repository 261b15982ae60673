"""Test-wide settings. One hypothesis profile for every tier: no per-example deadline and no
too-slow health check, because CI shares two cores with whatever else runs and a timing-based
failure there would say nothing about the model. Example counts stay set per test."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("agentwarrant", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("agentwarrant")


@pytest.fixture(scope="module")
def dask_client() -> Iterator[Any]:
    """One LocalCluster per module of distributed tests: two single-threaded worker processes on the
    loopback address, so that the partitioned runs really cross process boundaries (pickling, the
    owner hash in another interpreter) without leaving the machine; started only when a test asks for it.
    (Per module since Z3 beside a live cluster segfaulted; model/base/z3guard.py fixed that, and
    tests/slow/test_dist_large.py reproduces the crash in a subprocess.)"""
    from model.dist.cluster import connect

    with connect(workers=2) as client:
        yield client


@pytest.fixture(scope="session")
def pg_server() -> Iterator[Any]:
    """One throwaway PostgreSQL server for the session (tests/postgres.py), started only when a test
    asks for it; skips with the reason when the binaries or psycopg are missing."""
    from tests.postgres import PgServer, missing

    why = missing()
    if why is not None:
        pytest.skip(why)
    server = PgServer().start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(params=["sqlite", "postgres"])
def store_target(request: pytest.FixtureRequest, tmp_path: Any) -> tuple[str, str | None]:
    """Where a store contract test opens its stores: an SQLite file, or a fresh schema on the
    throwaway PostgreSQL server. Returns ``(target, schema)``."""
    if request.param == "sqlite":
        return str(tmp_path / "store.db"), None
    from tests.postgres import fresh_schema

    server = request.getfixturevalue("pg_server")
    return server.dsn, fresh_schema()
