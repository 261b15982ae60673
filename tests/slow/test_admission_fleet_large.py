"""The larger gateway-fleet campaign (``model.admission.deployments.fleet``; the default tier runs small ones in
tests/unit/test_admission_fleet.py): eight gateways racing every release of 150 approvals on
PostgreSQL, with victims SIGKILLed between reserve and release, every client connection dropped
every 0.05 s and a server restart, all at once; and the same race on SQLite. Nothing duplicated,
nothing lost, nothing left reserved and unreleased: the survivors complete every reservation of a
killed gateway or of an unknown commit outcome after its lease."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from model.admission.deployments.fleet import Campaign, run
from tests.postgres import fresh_schema

pytestmark = pytest.mark.slow
NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize("seed", [1, 2])
def test_large_campaign_with_every_fault_at_once(seed: int, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    server = request.getfixturevalue("pg_server")
    c = Campaign("postgres", gateways=8, items=150, victims=3, order="rotate", drop_every=0.05, restart=True,
                 seed=seed)
    out = run(c, tmp_path, NOW, server, fresh_schema())
    assert out.duplicates == 0 and out.lost == 0 and out.crashed == 0, out
    assert out.kills >= 1 and out.restarts == 1 and out.drops >= 1, out
    assert out.recovered >= out.kills and out.reserved_unreleased == 0, out
    assert out.releases == 150, out


def test_large_race_on_sqlite(tmp_path: Path) -> None:
    out = run(Campaign("sqlite", gateways=8, items=150), tmp_path, NOW)
    assert (out.releases, out.duplicates, out.lost, out.attempts) == (150, 0, 0, 8 * 150), out
