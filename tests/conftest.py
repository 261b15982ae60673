"""Test-wide settings. One hypothesis profile for every tier: no per-example deadline and no
too-slow health check, because CI shares two cores with whatever else runs and a timing-based
failure there would say nothing about the model. Example counts stay set per test."""

from __future__ import annotations

from hypothesis import HealthCheck, settings

settings.register_profile("agentwarrant", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("agentwarrant")
