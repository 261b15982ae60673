"""The throwaway PostgreSQL server of the store tests: ``model.base.store.pgserver`` (shared with the
admission-store experiment)."""

from model.base.store.pgserver import PgServer, fresh_schema, missing

__all__ = ["PgServer", "fresh_schema", "missing"]
