"""The matching predicate of Agenra Section 5.2 as questions for Z3 (Section 7.1's side conditions are
decided with them): the encoding, glob patterns as regular expressions, what can be encoded, and the
cheaper answers tried first (syntactic refutations, synthesized samples, explicit enumeration over a
finite domain)."""
