"""The shell layer: what a person or a program calls. The ``agentwarrant`` command (``cli`` and one module
per subcommand group in ``commands/``), the library API (``api``, re-exported by ``model``), pandas
frames, display, option parsing and ``reproduce``, which regenerates every table and figure (Agenra
Table 1 and the experiments of every paper). It imports the paper systems and the base layer; nothing
below imports it (tests/whole_repo/test_architecture.py).
"""
