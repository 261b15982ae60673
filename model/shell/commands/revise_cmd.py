"""``agentwarrant revise OLD NEW [--effects E] [--bound K] [--workload FILE] [--after PREFIX] [--json]``
(Agenra Sections 1 and 7.1).

``--after PREFIX`` installs the revision mid-task: PREFIX (a scripted trace of ``monitor run`` or
a list of calls in the workload's form, prefix.py) runs under OLD, and its counters are carried onto
NEW (carry.py); both outputs say the starting point.

Prints two separate verdicts, each as one sentence (model/shell/verdict_text.py): preservation (certified by a
certificate or a simulation | not preserved, with the shortest lost client | unknown within bound K) and
the safety delta (the shortest newly admitted forbidden trace, if the workload declares forbidden
effects); each counterexample follows as a trace for ``monitor run``. ``--explain`` adds why each kind
of certificate was or was not found; ``--json`` gives everything, certificates included.
Exit status: 0 when certified and no newly admitted forbidden trace was found; 1 when a client is lost
or a forbidden trace is newly admitted (each printed as a witness); 2 for bad input (including a
name in ``--effects`` or the workload that neither policy has); 3 when preservation is unknown
within the bound, or ``--budget`` ran out before a verdict (nothing refuted by then).
Without ``--workload`` the client model is derived from the policies (derive_workload.py).
"""

from __future__ import annotations

import json
import sys

import click

from model.base.budget import Budget
from model.base.errors import InputKind, InvalidInput
from model.base.exitcodes import EPILOG, Exit
from model.shell.options import budget_option, metered_progress


@click.command("revise", epilog=EPILOG)
@click.argument("old_path", metavar="OLD", type=click.Path(dir_okay=False))
@click.argument("new_path", metavar="NEW", type=click.Path(dir_okay=False))
@click.option("--effects", default=None, help="The effect set E: ACTION or ACTION(JSON), comma separated "
              "(default: every effect).")
@click.option("--bound", default=4, show_default=True, type=int, help="Longest call sequence the search tries.")
@click.option("--workload", "workload_path", default=None, type=click.Path(dir_okay=False),
              help="A client model (corpus/schemas/revision_workload.schema.json); default: derived.")
@click.option("--after", "after_path", default=None, type=click.Path(dir_okay=False),
              help="Install the revision after this prefix (a scripted trace or workload-form calls) ran under OLD.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as canonical JSON.")
@click.option("--explain", is_flag=True, help="Also say why each certificate kind was or was not found, and the time.")
@budget_option()
def cli(old_path: str, new_path: str, effects: str | None, bound: int, workload_path: str | None,
        after_path: str | None, as_json: bool, explain: bool, budget: Budget) -> None:
    """Does revising OLD into NEW keep every client, and does it admit new forbidden traces?"""
    # imported here: z3 loads with them, and every other agentwarrant command should start fast
    from model.base.canonical import canonical_str
    from model.monitor.language.syntax import load_policy
    from model.revision.effects import parse_effects
    from model.revision.explore.derive_workload import derive
    from model.revision.names import check_effects_exist, check_workload_names
    from model.revision.report import Certified, NewlyForbidden, NotPreserved
    from model.revision.report import Unknown as UnknownWithinBound
    from model.revision.revise import revise

    if bound < 0:
        raise InvalidInput("--bound", "a non-negative integer", str(bound), InputKind.VALUE)
    old, new = load_policy(old_path), load_policy(new_path)
    eff = parse_effects(effects)
    check_effects_exist(eff, (old, new))
    if workload_path is not None:
        from model.revision.corpus import load_workload

        workload = load_workload(workload_path)
        check_workload_names(workload, (old, new), workload_path)
    else:
        workload = derive(old, new)
    prefix = None
    if after_path is not None:
        from model.revision.explore.prefix import load_prefix

        prefix = load_prefix(after_path)
    with metered_progress("revise") as on_progress:
        report = revise(old, new, eff, workload, bound, prefix, budget=budget, on_progress=on_progress)
    if as_json:
        click.echo(canonical_str(report.to_json()))
    else:
        from model.shell.verdict_text import preservation_sentence, safety_sentence, start_sentence

        p = report.preservation
        click.echo(f"preservation: {preservation_sentence(p, eff.show())}")
        click.echo(f"  judged {start_sentence(report)}")
        if isinstance(p, Certified) and p.coverage_questions:
            click.echo(f"  {p.questions_written()}")
        if isinstance(p, NotPreserved):
            click.echo(f"  the lost client as a trace for `agentwarrant monitor run POLICY TRACE` (as expected under "
                       f"{old_path}, refused under {new_path}):")
            click.echo("    " + json.dumps(p.lost.trace))
        if explain:
            click.echo(f"  structural certificate: {report.structural}")
            click.echo(f"  simulation relation: {report.simulation}")
            click.echo(f"  joint simulation: {report.joint}")
            click.echo(f"  judged in {report.seconds * 1000:.0f} ms")
        click.echo(f"safety: {safety_sentence(report.safety)}")
        if isinstance(report.safety, NewlyForbidden):
            click.echo(f"  the forbidden sequence as a trace for `agentwarrant monitor run POLICY TRACE` (as expected "
                       f"under {new_path}, refused under {old_path}):")
            click.echo("    " + json.dumps(report.safety.trace.trace))
    if isinstance(report.preservation, NotPreserved) or isinstance(report.safety, NewlyForbidden):
        sys.exit(Exit.FAILS)
    if report.out_of_budget() or isinstance(report.preservation, UnknownWithinBound):
        sys.exit(Exit.UNKNOWN)
    sys.exit(Exit.HOLDS)
