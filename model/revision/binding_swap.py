"""A generated family of binding-dependent swaps (Agenra Section 7.1: "a certificate must hold in every
binding state"): a grant naming a slot (``mail.send(@bob)``, Bob's address read from a directory lookup)
and a general grant (``mail.send(like "*@corp.example")``) exchange places, so whether a mail to Bob matches
one or both depends on the address the slot is bound to.

Members, at quotas ``(g, s)`` of the general and the specific grant (the application ceiling unlimited):
- ``specific_first``: ``[general: g, @bob: s]`` → ``[@bob: s, general: g]``: preserving (a mail to Bob that
  the old list charged to the general grant has the specific one first under the new list, and the general
  grant keeps room for every other mail the old list admitted); no relation over every binding state at
  once exists, one per binding class does.
- ``specific_first_two``: the same with two slots, ``@bob`` and ``@alice``, both moved before the general
  grant: preserving.
- ``specific_first_other``: the general grant is ``like "*@other.example"`` and the workload binds Bob to a
  corp address: preserving, through the class where Bob's address is not an other.example one.
- ``general_first``: ``[@bob: s, general: g]`` → ``[general: g, @bob: s]``: loses the client that mails Bob
  ``s`` times, then a colleague (first-fit spends the general grant on Bob), found by the bounded search.
``expected(member)`` is what the member is built to show (used by tests and the experiment to score, never by
the judgment).

Choices where the source is silent: the corp domain, the names Bob, Alice and Carol; the bound of the
bounded searches ``g + s + 2`` (the lookups and one mail past the quotas).
"""

from __future__ import annotations

from model.monitor.language.policy import Policy
from model.monitor.language.syntax import parse_policy
from model.revision.explore.workload import Workload, workload_from_json

SHAPES = ("specific_first", "specific_first_two", "specific_first_other", "general_first")
QUOTAS = ((1, 1), (2, 1), (1, 2), (2, 2), (3, 2))
GENERAL = 'allow mail.send(like "*@corp.example")'


def _policy(name: str, user: list[str]) -> Policy:
    body = "".join(f"  {g}\n" for g in user)
    return parse_policy(
        f"policy {name}\nlevels Public\ncategories\n"
        "node contacts: source (Public, {}, trusted)\nnode m: memory (Public, {}, trusted)\n"
        "node mail: sink (Public, {}, trusted)\n"
        "edge FindContact: contacts -> m inherit\nedge Email: m -> mail inherit\n"
        "agent mailer {operations: {FindContact, Email}, ceiling: Public}\n"
        "tool FindContact {endpoints: contacts -> m, args: {name}, required: {name}, "
        "effects: [contact.lookup(name)], authoritative: {email}}\n"
        "tool Email {endpoints: m -> mail, args: {to}, required: {to}, effects: [mail.send(to)]}\n"
        'resolve bob: FindContact(name: "Bob") -> email\nresolve alice: FindContact(name: "Alice") -> email\n'
        "flow allow * -> m\nflow allow * -> mail\n"
        f"user {{\n  allow contact.lookup(*) quota unlimited\n{body}}}\n"
        "application {\n  allow contact.lookup(*) quota unlimited\n  allow mail.send(*) quota unlimited\n}\n")


def _workload(two: bool) -> Workload:
    calls: list[dict[str, object]] = [
        {"name": "find Bob", "tool": "FindContact", "args": {"name": "Bob"},
         "outcome": {"ok": True, "value": {"name": "Bob", "email": "bob@corp.example"}}},
        {"name": "mail Bob", "tool": "Email", "args": {"to": "bob@corp.example"}},
        {"name": "mail Carol", "tool": "Email", "args": {"to": "carol@corp.example"}}]
    if two:
        calls += [{"name": "find Alice", "tool": "FindContact", "args": {"name": "Alice"},
                   "outcome": {"ok": True, "value": {"name": "Alice", "email": "alice@corp.example"}}},
                  {"name": "mail Alice", "tool": "Email", "args": {"to": "alice@corp.example"}}]
    return workload_from_json({"agent": "mailer", "calls": calls})


def member(shape: str, g: int, s: int) -> tuple[Policy, Policy, Workload, int]:
    """(old, new, workload, bound) of the member ``shape`` at quotas ``(g, s)``."""
    general = f"{GENERAL} quota {g}"
    bob, alice = f"allow mail.send(@bob) quota {s}", f"allow mail.send(@alice) quota {s}"
    bound = g + s + 2
    if shape == "specific_first":
        return _policy("old", [general, bob]), _policy("new", [bob, general]), _workload(False), bound
    if shape == "specific_first_two":
        return (_policy("old", [general, bob, alice]), _policy("new", [bob, alice, general]), _workload(True),
                bound + 1)
    if shape == "specific_first_other":
        other = f'allow mail.send(like "*@other.example") quota {g}'
        return _policy("old", [other, bob]), _policy("new", [bob, other]), _workload(False), bound
    if shape == "general_first":
        return _policy("old", [bob, general]), _policy("new", [general, bob]), _workload(False), bound
    raise ValueError(f"no member {shape!r}")


def expected(shape: str) -> str:
    return "not_preserved" if shape == "general_first" else "certified"
