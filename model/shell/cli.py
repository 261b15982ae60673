"""The ``agentwarrant`` command: one subcommand group per system.

Bad input anywhere below surfaces as one line ``error: FILE:LINE:COL: expected ...`` and exit
status 2 — never a traceback. Verdicts are printed, and ``--json`` variants print canonical JSON.
"""

from __future__ import annotations

import contextlib
import io
import sys
from pathlib import Path
from typing import NoReturn

import click
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn, TimeElapsedColumn

from model.base.errors import InvalidInput
from model.base.exitcodes import EPILOG, Exit
from model.base.jsonio import printable
from model.dist.cluster import cluster_options, wanted

# jsonschema imports rfc3987_syntax when it is installed (the jupyter extra brings it in), and that import
# compiles a grammar for seconds on every start. Our schemas use no "format" keyword (a whole-repo test
# checks it), so no format checker is ever consulted: the command's process does without that module.
# Only the command: a library user's process keeps jsonschema as installed.
sys.modules.setdefault("rfc3987_syntax", None)  # type: ignore[arg-type]

console = Console()
err_console = Console(stderr=True)


def _rich_broken_pipe(self: Console) -> None:
    # rich's own answer to a closed stdout is SystemExit(1): the command's answer is _closed_output's
    self.quiet = True
    _closed_output()


# the command's process only, as above: every Console of every subcommand answers a closed pipe alike
Console.on_broken_pipe = _rich_broken_pipe  # type: ignore[method-assign]


def _one_line_error(text: str) -> None:
    # escape: the message quotes user input, which must never be read as rich markup; printable:
    # a file name may hold a newline or a lone surrogate, and the error stays one printable line
    err_console.print(f"[red]error:[/red] {escape(printable(text))}", highlight=False, soft_wrap=True)
    sys.exit(Exit.BAD_INPUT)


# click >= 8.2 signals "a group given no command" with this usage error whose message is the help text
_NO_ARGS_IS_HELP: type[Exception] = getattr(click.exceptions, "NoArgsIsHelpError", type("_Never", (Exception,), {}))


def _usage(exc: click.UsageError) -> str:
    # click's own form is four lines (usage, hint, blank, message); every --help promises one line
    path = exc.ctx.command_path if exc.ctx is not None else "agentwarrant"
    return f"{path}: {exc.format_message().rstrip('.')} (see '{path} --help')"


class _Group(click.Group):
    """Turns ``InvalidInput`` raised by any subcommand, and click's usage errors (an unknown option, a
    value out of range, a missing argument), into one error line with exit status 2; loads the
    subcommands of ``LAZY_COMMANDS`` on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(super().list_commands(ctx)) | set(LAZY_COMMANDS))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        command = super().get_command(ctx, cmd_name)
        if command is None and cmd_name in LAZY_COMMANDS:
            command = load_command(cmd_name)
            self.add_command(command, cmd_name)
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        # the listing reads the short help from the table, so `--help` imports no subcommand
        names = self.list_commands(ctx)
        limit = formatter.width - 6 - max(map(len, names))
        rows = []
        for name in names:
            loaded = self.commands.get(name)
            if loaded is None:
                rows.append((name, click.Command(name, help=LAZY_COMMANDS[name][2]).get_short_help_str(limit)))
            elif not loaded.hidden:
                rows.append((name, loaded.get_short_help_str(limit)))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)

    def make_context(self, info_name: str | None, args: list[str], parent: click.Context | None = None,
                     **extra: object) -> click.Context:
        try:
            return super().make_context(info_name, plain_first(args) if parent is None else args, parent, **extra)
        except _NO_ARGS_IS_HELP:
            raise  # a group named without its command shows its help, as click does
        except click.UsageError as exc:
            _one_line_error(_usage(exc))
            raise  # unreachable: _one_line_error exits
        except BrokenPipeError:  # (--help or --version into a closed pipe)
            _closed_output()

    def invoke(self, ctx: click.Context) -> object:
        try:
            try:
                return super().invoke(ctx)
            finally:
                sys.stdout.flush()  # a closed pipe shows here, not in the interpreter's last flush
        except InvalidInput as exc:
            _one_line_error(str(exc))
        except _NO_ARGS_IS_HELP:
            raise
        except click.UsageError as exc:
            _one_line_error(_usage(exc))
        except BrokenPipeError:
            _closed_output()
        return None  # unreachable: _one_line_error and _closed_output exit


def _stdout_closed() -> bool:
    """Whether stdout is a pipe whose reader has gone (poll reports an error on its write end)."""
    import select

    try:
        poller = select.poll()
        poller.register(sys.stdout.fileno(), select.POLLOUT)
        return any(ev & select.POLLERR for _, ev in poller.poll(0))
    except (OSError, ValueError, AttributeError):  # (no file descriptor: a test's captured output)
        return False


def _closed_output() -> NoReturn:
    """The reader of stdout went away (``agentwarrant ... | head``): stop quietly with exit 0, as git and
    grep do, rather than with click's exit 1, which reads as "does not hold". A broken pipe anywhere
    else (a subprocess's input) is a fault and is raised."""
    if not _stdout_closed():
        raise  # (the BrokenPipeError being handled)
    import os

    try:  # the interpreter flushes stdout once more at exit: let it find /dev/null, not the dead pipe
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    sys.exit(Exit.HOLDS)


def plain_first(args: list[str]) -> list[str]:
    """``--plain`` is a flag of the whole command: accepted anywhere on the line, moved before the
    subcommand where click reads it. Not after ``--``, where every word is an argument."""
    cut = args.index("--") if "--" in args else len(args)
    head = [a for a in args[:cut] if a != "--plain"]
    return (["--plain"] if len(head) < cut else []) + head + args[cut:]


@click.group(cls=_Group, epilog=EPILOG)
@click.version_option(package_name="agentwarrant")
@click.option("--plain", is_flag=True, envvar="AGENTWARRANT_PLAIN",
              help="Print tables as tab-separated lines, never cut at the terminal width (also AGENTWARRANT_PLAIN=1).")
def main(plain: bool) -> None:
    """agentwarrant: check agent authorization policies, revisions and workflow edits."""
    from model.shell.display import set_plain

    set_plain(plain)


def _reproduce_help() -> str:
    from model.shell.reproduce import DESCRIPTIONS, EXPERIMENTS, ON_DEMAND, TABLE_SOURCES

    lines = [f"  {name:<18} {DESCRIPTIONS.get(name, EXPERIMENTS[name])}" for name in EXPERIMENTS]
    make = sorted({s for s in TABLE_SOURCES.values() if s not in EXPERIMENTS})
    return ("Regenerate tables and figures: NAMES from the list below, or 'all' (the default; it leaves out the "
            f"on-demand experiments {', '.join(sorted(ON_DEMAND))}, which start clusters or servers or run for "
            f"many minutes; the tables of {', '.join(make)} are written by those commands, not by reproduce). "
            "With --scheduler or --workers, experiments "
            "that can shard their cases (revision-corpus) run them on a Dask cluster; the others run here.\n\n"
            "Experiments:\n\n\b\n" + "\n".join(lines) + "\n\nEach writes CSV and Markdown tables under "
            "OUT/tables/ and figures as OUT/*.png. Without a terminal on stderr (piped, CI) progress is one "
            "line per finished experiment.")


@main.command(help=_reproduce_help(), epilog=EPILOG)
@click.argument("names", nargs=-1)
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Output folder (default: paper_figures/ in the checkout).")
@cluster_options()
def reproduce(names: tuple[str, ...], out_dir: Path | None, scheduler: str | None, workers: int | None) -> None:
    if wanted(scheduler, workers):
        from model.dist.cluster import connect

        with connect(scheduler, workers) as client:
            _reproduce(names, out_dir, client)
        return
    _reproduce(names, out_dir, None)


def _reproduce(names: tuple[str, ...], out_dir: Path | None, client: object) -> None:
    import time

    from model.base.paths import repo_root
    from model.shell.options import output_folder
    from model.shell.reproduce import EXPERIMENTS, ON_DEMAND, load_experiment, run_experiment

    chosen = [n for n in EXPERIMENTS if n not in ON_DEMAND] if not names or names == ("all",) else list(names)
    for name in chosen:
        load_experiment(name)  # an unknown name fails before anything runs
    out = output_folder(out_dir if out_dir is not None else repo_root() / "paper_figures")
    written: list[Path] = []
    if not sys.stderr.isatty():
        # piped or logged: one finished line per experiment, no bar and no control characters
        for name in chosen:
            start = time.perf_counter()
            paths = run_experiment(name, out, lambda done, total: None, client)
            written.extend(paths)
            click.echo(f"{name}: done in {time.perf_counter() - start:.1f} s", err=True)
    else:
        with Progress(TextColumn("{task.description:<20}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                      console=err_console) as progress:
            for name in chosen:
                task = progress.add_task(name, total=None)

                def tick(done: int, total: int, _task: TaskID = task) -> None:
                    progress.update(_task, completed=done, total=total)

                written.extend(run_experiment(name, out, tick, client))
    for p in written:
        console.print(f"wrote {escape(printable(str(p)))}", highlight=False, soft_wrap=True)


# One line per subcommand: name -> (module, attribute, the short help `agentwarrant --help` lists). The
# subcommands are imported only when named, so `agentwarrant --help` and every command's start-up cost
# nothing for the systems it does not use; tests/unit/test_cli_startup.py checks the short help here is
# the loaded command's own.
LAZY_COMMANDS: dict[str, tuple[str, str, str]] = {
    "admit": ("model.shell.commands.admit_cmd", "cli",
              "Admission protocols: held attempts and replay, signed approvals, release gate, records."),
    "agentdojo": ("model.shell.commands.agentdojo_cmd", "cli",
                  "Replay an AgentDojo user task's ground truth (and an injection"
                  " task's after it) through the monitor."),
    "drt": ("model.shell.commands.drt_cmd", "cli",
            "Compare the Python model with the Lean oracle on generated inputs."),
    "edit": ("model.shell.commands.edit_cmd", "cli", "Execution edits: exact checking and the durable runtime."),
    "monitor": ("model.shell.commands.monitor_cmd", "cli", "The Agenra run-time monitor."),
    "revise": ("model.shell.commands.revise_cmd", "cli",
               "Does revising OLD into NEW keep every client, and does it admit new forbidden traces?"),
    "search": ("model.shell.commands.search_cmd", "cli",
               "Search MODEL.json for forbidden executions and useful completions up to a bound."),
    "verify-record": ("model.shell.commands.admit_cmd", "verify_record_cmd",
                      "Verify a signed record, or a list of records and their chains, offline."),
}


def load_command(name: str) -> click.Command:
    import importlib

    module, attr, _ = LAZY_COMMANDS[name]
    command: click.Command = getattr(importlib.import_module(module), attr)
    return command


def invoke(args: list[str]) -> tuple[int, str]:
    """``agentwarrant ARGS`` in this process: its exit code and what it printed (stdout and stderr together),
    for experiments that record what a command answers."""
    buf = io.StringIO()
    code: int | str | None = 0
    with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(buf):
        try:
            main.main(args, prog_name="agentwarrant")
        except SystemExit as exc:
            code = exc.code
    return int(code or 0) if not isinstance(code, str) else 1, buf.getvalue()


if __name__ == "__main__":
    main()
