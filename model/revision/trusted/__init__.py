"""The certificate checker's trusted base (Agenra Section 7.1): its own encoding of the matching predicate
into Z3, in its own Z3 context, and the side-condition questions it asks there. Nothing here imports
the proposers' engines (``model/revision/smt``, ``explore``, the searches in ``certify``)."""
