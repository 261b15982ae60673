"""The base layer, shared by every paper system and imported by none of its own layer above: the one error
type users see (``InvalidInput``), canonical JSON (RFC 8785) and digests, exact JSON reading, schemas,
budgets, exit codes, the store kinds and both store backends (``store/``), key files and Ed25519/ML-DSA
signing, the Z3 guard and table writing. Nothing here imports a paper package (``model/monitor``,
``model/revision``, ``model/search``, ``model/edits``, ``model/admission``, ``model/oracle``,
``model/dist``, ``model/bench``) or the shell; tests/whole_repo/test_architecture.py checks it.
It implements no paper section of its own: the choices each module makes are in its docstring
(e.g. the canonical form of Parmana §4, the SQLite durability of the Edit checking paper's Appendix on
restarts).
"""
