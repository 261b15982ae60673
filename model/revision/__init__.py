"""Client preservation across policy revisions (*Agenra: A Language and Verified Core for Stateful LLM
Agent Authorization*, Sections 1, 5 and 7.1): the judgment ``P ⤳_E P′`` and the safety delta
(``revise.py``), over three subpackages:

- ``smt/``: the matching predicate of Section 5.2 as Z3 questions, and the cheaper answers tried first;
- ``search/``: the client workload, exploration of two monitors' product, prefixes, replay and the
  bounded counterexample search, with the memo one check shares;
- ``certify/``: matching agreement and independence, structural certificates, simulation relations and
  joint simulations, and the independent certificate checker.

The judgment's vocabulary (``effects.py``, ``identity.py``, ``carry.py``) sits at this level; ``cli.py``,
``corpus.py`` and ``names.py`` are the shell.
"""
