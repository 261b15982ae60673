"""Client preservation across policy revisions (Agenra Sections 5 and 7.1): structural certificates,
Z3-decided matching agreement and independence, simulation relations, bounded counterexamples."""
