"""Certificates of client preservation ``P ⤳_E P′`` (Agenra Sections 5 and 7.1): matching agreement and
independence, the side conditions of the structural rules, the structural search, simulation relations
and joint simulations between the old and new ledgers, and the independent certificate checker."""
