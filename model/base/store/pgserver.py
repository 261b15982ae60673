"""A throwaway PostgreSQL server on the loopback, for the store tests and the admission-store
experiment (a harness around ``model.base.store.postgres``, which implements the Parmana paper's shared nonce store).

``PgServer.start()`` runs ``initdb`` into a temporary directory and ``pg_ctl start`` on a free TCP
port of 127.0.0.1 with its unix socket in that directory; ``stop()`` removes everything. PostgreSQL
refuses to run as root, so under root the binaries run as the ``postgres`` user (``runuser``).
``missing()`` says why no server can be started (no binaries, no ``postgres`` user, no psycopg), so
tests skip with that reason; CI installs the binaries (``.ci/postgres-install.sh``). Choices: trust
authentication on the loopback only (a throwaway server holds nothing secret); ``fsync`` off unless
asked for (a restart is not an operating-system crash, so committed rows survive it either way; the
throughput benchmark turns it on to compare fairly with SQLite's ``synchronous = FULL``).
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import uuid
from pathlib import Path


def _bindir() -> Path | None:
    found = shutil.which("pg_ctl")
    if found and shutil.which("initdb"):
        return Path(found).resolve().parent
    for d in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if (Path(d) / "pg_ctl").exists() and (Path(d) / "initdb").exists():
            return Path(d)
    return None


def missing() -> str | None:
    """Why no throwaway server can be started here, or ``None``."""
    try:
        import psycopg  # noqa: F401
    except ImportError:
        return "psycopg is not installed (pip install -e '.[postgres]')"
    if _bindir() is None:
        return "PostgreSQL server binaries (initdb, pg_ctl) are not installed (.ci/postgres-install.sh)"
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            return "running as root and there is no 'postgres' user to run the server as"
        if shutil.which("runuser") is None:
            return "running as root and runuser is missing"
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PgServer:
    def __init__(self, fsync: bool = False) -> None:
        self.fsync = fsync
        self.dir = Path(tempfile.mkdtemp(prefix="aw-pg-"))
        self.data = self.dir / "data"
        self.port = _free_port()
        bindir = _bindir()
        assert bindir is not None, missing()
        self.bindir = bindir
        self._as: list[str] = []
        if os.geteuid() == 0:
            ent = pwd.getpwnam("postgres")
            os.chown(self.dir, ent.pw_uid, ent.pw_gid)
            self._as = ["runuser", "-u", "postgres", "--"]
        self.dir.chmod(0o700)

    @property
    def dsn(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, *args: str) -> None:
        out = subprocess.run([*self._as, *args], capture_output=True, text=True, timeout=120, check=False)
        if out.returncode != 0:
            raise RuntimeError(f"{' '.join(args[:2])} failed: {out.stdout[-400:]} {out.stderr[-400:]}")

    def start(self) -> PgServer:
        if not (self.data / "PG_VERSION").exists():
            self._run(str(self.bindir / "initdb"), "-D", str(self.data), "-U", "postgres", "-A", "trust",
                      "--no-sync", "-E", "UTF8")
        opts = (f"-c listen_addresses=127.0.0.1 -c port={self.port} -c unix_socket_directories={self.dir} "
                f"-c max_connections=100 -c fsync={'on' if self.fsync else 'off'} -c full_page_writes=on")
        self._run(str(self.bindir / "pg_ctl"), "-D", str(self.data), "-o", opts, "-l", str(self.dir / "log"),
                  "-w", "-t", "60", "start")
        return self

    def restart(self) -> None:
        """A fast shutdown (open transactions are rolled back, connections dropped), then start."""
        self._run(str(self.bindir / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop")
        self.start()

    def stop(self) -> None:
        if (self.data / "postmaster.pid").exists():
            self._run(str(self.bindir / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.dir, ignore_errors=True)

    def terminate(self, pid: int) -> None:
        """Drop one client's connection from the server side (``pg_terminate_backend``)."""
        import psycopg

        with psycopg.connect(self.dsn, autocommit=True) as c:
            c.execute("SELECT pg_terminate_backend(%s)", (pid,))

    def terminate_clients(self) -> int:
        """Drop every other client connection (a network fault seen by the whole fleet); how many."""
        import psycopg

        with psycopg.connect(self.dsn, autocommit=True) as c:
            rows = c.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE backend_type = "
                             "'client backend' AND pid <> pg_backend_pid()").fetchall()
        return sum(1 for r in rows if r[0])


def fresh_schema() -> str:
    """A schema name no other user of the server takes (tests share one server, never a schema)."""
    return "t_" + uuid.uuid4().hex[:16]
