"""One module per subcommand group of ``agentwarrant``: ``monitor`` (Agenra §§2–6), ``revise`` (Agenra §7.1),
``search`` and ``search_system`` (Agenra §§1–3, bounded analysis), ``edit`` (Edit checking), ``admit``
(Resumable attempts, Parmana), ``drt`` (the Lean oracle) and ``agentdojo`` (the benchmark replay). Each
is loaded on first use by ``model/shell/cli.py``.
"""
