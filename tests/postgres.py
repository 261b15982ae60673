"""The throwaway PostgreSQL server of the store tests: ``model.pgserver`` (shared with the
admission-store experiment)."""

from model.pgserver import PgServer, fresh_schema, missing

__all__ = ["PgServer", "fresh_schema", "missing"]
