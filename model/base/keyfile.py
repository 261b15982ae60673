"""Signing keys kept outside the stores they sign for (a copied or leaked store must not carry its signing key).

A key file holds one Ed25519 private key as PKCS#8 PEM and must be readable by its owner only:
any group or other permission bit makes it refused, as ssh refuses a private key. A new key file
is written to a temporary file (created 0600 by ``mkstemp``), synced, and published with
``os.link``, so a reader never sees half a key and two processes creating the same file agree on
one key: the loser of the link race loads the winner's file. Choice where the papers are silent: the
file may also be supplied by the caller (``--key FILE``); an existing file is never overwritten.
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import (
    Encoding,
    NoEncryption,
    PrivateFormat,
    load_pem_private_key,
)

from model.base.errors import InputKind, InvalidInput
from model.base.jsonio import read_bytes


def seed_of(key: Ed25519PrivateKey) -> bytes:
    return key.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption())


def read_key(path: str) -> Ed25519PrivateKey:
    """The key in ``path``; ``InvalidInput`` if it is missing, too widely readable, or not a key."""
    try:
        st = os.stat(path)
        if not stat.S_ISREG(st.st_mode):
            raise InvalidInput(path, "a key file", "not a regular file", InputKind.IO)
        if st.st_mode & 0o077:
            raise InvalidInput(path, "a key file readable by its owner only (chmod 600)",
                               f"mode {stat.S_IMODE(st.st_mode):04o}", InputKind.VALUE)
    except (OSError, ValueError) as exc:  # ValueError: a NUL byte in the path
        raise InvalidInput(path, "a readable key file", getattr(exc, "strerror", None) or str(exc),
                           InputKind.IO) from None
    data = read_bytes(path, "a readable key file")
    try:
        key = load_pem_private_key(data, password=None)
    except (ValueError, TypeError) as exc:
        raise InvalidInput(path, "an unencrypted PKCS#8 PEM Ed25519 private key", str(exc)[:80]) from None
    if not isinstance(key, Ed25519PrivateKey):
        raise InvalidInput(path, "an Ed25519 private key", type(key).__name__)
    return key


def ensure_key(path: str, seed: bytes | None = None) -> Ed25519PrivateKey:
    """Load ``path``, or create it (0600) from ``seed`` (random when ``None``). An existing file
    must hold ``seed``'s key when a seed is given."""
    if not os.path.lexists(path):
        key = Ed25519PrivateKey.from_private_bytes(seed) if seed is not None else Ed25519PrivateKey.generate()
        _publish(path, key.private_bytes(Encoding.PEM, PrivateFormat.PKCS8, NoEncryption()))
    key = read_key(path)
    if seed is not None and seed_of(key) != seed:
        raise InvalidInput(path, "the key the session script names (its registration seed)",
                           "another key", InputKind.VALUE)
    return key


def _publish(path: str, pem: bytes) -> None:
    parent = str(Path(path).parent) or "."
    try:
        fd, tmp = tempfile.mkstemp(dir=parent, prefix=f".{Path(path).name}.", suffix=".new")
    except OSError as exc:
        raise InvalidInput(path, "a key file that can be created", exc.strerror or str(exc), InputKind.IO) from None
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(pem)
            f.flush()
            os.fsync(f.fileno())
        try:
            os.link(tmp, path)
        except FileExistsError:
            pass  # another process created it first: read_key loads theirs
        except OSError as exc:
            raise InvalidInput(path, "a key file that can be created", exc.strerror or str(exc),
                               InputKind.IO) from None
    finally:
        os.unlink(tmp)
