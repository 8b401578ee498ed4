"""``python -m benchmarks eval|engine|rebuild|restart|startup|randomness``: the command line.

Bad input is one line on stderr and exit code 2, as for ``mazziere``.
"""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from mazziere.cli import UsageProblem, run_app
from mazziere.rules import find_rules
from mazziere.server.checkpoints import CHECKPOINT_EVERY_HANDS

app = typer.Typer(
    add_completion=False,
    help="Mazziere's benchmarks: ours and the peers' in the same run, as ratios.",
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)

Repeats = Annotated[int, typer.Option(help="Timings per figure (the median is kept).")]


@app.command("eval")
def bench_eval(
    hands: Annotated[int, typer.Option(help="Hands per timing.")] = 100_000,
    repeats: Repeats = 5,
    seed: Annotated[int, typer.Option(help="Seed of the random hands.")] = 1,
) -> None:
    """Hand-evaluation speed: ours against eval7, treys, phevaluator and pokerkit."""
    from benchmarks.evaluation import run_eval_benchmark

    if hands < 100 or repeats < 1:
        raise UsageProblem("--hands must be at least 100 and --repeats at least 1")
    run_eval_benchmark(hands=hands, repeats=repeats, seed=seed, echo=typer.echo)


@app.command("engine")
def bench_engine(
    *,
    rules: Annotated[str, typer.Option("--rules", "-r", help="Rule set.")] = "holdem",
    hands: Annotated[int, typer.Option(help="Our hands per timing.")] = 5000,
    peer_hands: Annotated[int, typer.Option(help="Each peer's hands per timing.")] = 200,
    repeats: Repeats = 5,
    seed: Annotated[int, typer.Option(help="Seed of the random policy and the cards.")] = 1,
    policy: Annotated[
        list[str] | None, typer.Option(help="Policy to time (repeatable; default: all).")
    ] = None,
) -> None:
    """Hand-engine speed: random hands, ours against pokerkit (Italian: our Hold'em)."""
    from benchmarks.engine import run_engine_benchmark
    from benchmarks.policy import POLICIES

    find_rules(rules)
    if hands < 10 or peer_hands < 10 or repeats < 1:
        raise UsageProblem("--hands >= 10, --peer-hands >= 10 and --repeats >= 1, please")
    unknown = [name for name in policy or [] if name not in POLICIES]
    if unknown:
        known = ", ".join(POLICIES)
        raise UsageProblem(f"unknown policy {unknown[0]!r} (policies: {known})")
    run_engine_benchmark(
        rules=rules,
        hands=hands,
        peer_hands=peer_hands,
        repeats=repeats,
        seed=seed,
        echo=typer.echo,
        policies=[POLICIES[name] for name in policy or POLICIES],
    )


@app.command("rebuild")
def bench_rebuild(
    *,
    rules: Annotated[str, typer.Option("--rules", "-r", help="Rule set.")] = "holdem",
    hands: Annotated[int, typer.Option(help="Hands the table plays before it is rebuilt.")] = 2000,
    repeats: Repeats = 5,
    checkpoint_hands: Annotated[
        int, typer.Option(help="Hands between two checkpoints of the table.")
    ] = CHECKPOINT_EVERY_HANDS,
) -> None:
    """A table's rebuild from its stored commands (a restart): milliseconds a hand; and
    from its latest checkpoint."""
    from benchmarks.rebuild import run_rebuild_benchmark

    find_rules(rules)
    if hands < 1 or repeats < 1 or checkpoint_hands < 1:
        raise UsageProblem("--hands, --repeats and --checkpoint-hands must be at least 1")
    run_rebuild_benchmark(
        rules=rules,
        hands=hands,
        repeats=repeats,
        echo=typer.echo,
        checkpoint_hands=checkpoint_hands,
    )


@app.command("restart")
def bench_restart(
    *,
    rules: Annotated[str, typer.Option("--rules", "-r", help="Rule set.")] = "holdem",
    hands: Annotated[int, typer.Option(help="Hands the table deals before the starts.")] = 5000,
    repeats: Annotated[int, typer.Option(help="Starts of each kind (the median is kept).")] = 3,
) -> None:
    """A room's start over a table that dealt many hands: from its checkpoint, from the first."""
    from benchmarks.restart import run_restart_benchmark

    find_rules(rules)
    if hands < 1 or repeats < 1:
        raise UsageProblem("--hands and --repeats must be at least 1")
    run_restart_benchmark(rules=rules, hands=hands, repeats=repeats, echo=typer.echo)


@app.command("startup")
def bench_startup(
    runs: Annotated[int, typer.Option(help="Runs of each command (the median is kept).")] = 20,
    against: Annotated[
        str | None,
        typer.Option(help="Another checkout's src folder, timed alternately with this one."),
    ] = None,
) -> None:
    """Start-up time: `mazziere --help` and `import mazziere` in fresh processes."""
    from pathlib import Path

    from benchmarks.startup import run_startup_benchmark

    if runs < 1:
        raise UsageProblem("--runs must be at least 1")
    if against is not None and not (Path(against) / "mazziere" / "__init__.py").is_file():
        raise UsageProblem(f"--against {against}: no mazziere package there")
    run_startup_benchmark(runs=runs, against=against, echo=typer.echo)


@app.command("randomness")
def bench_randomness(
    decks: Annotated[int, typer.Option(help="Decks of each size through the room's shuffle.")] = (
        1_000_000
    ),
    peer_decks: Annotated[
        int, typer.Option(help="Decks of each size through the peer's (Mersenne Twister).")
    ] = 200_000,
) -> None:
    """The shuffle's uniformity: chi-square over card positions for every deck size, 99% level."""
    from benchmarks.randomness import run_randomness_benchmark

    if decks < 1000 or peer_decks < 1000:
        raise UsageProblem("--decks and --peer-decks must be at least 1000")
    if not run_randomness_benchmark(decks=decks, peer_decks=peer_decks, echo=typer.echo):
        raise typer.Exit(1)


def main(argv: list[str] | None = None) -> int:
    """Run a benchmark command: bad input is one line and exit code 2."""
    return run_app(app, sys.argv[1:] if argv is None else argv, prog_name="python -m benchmarks")


if __name__ == "__main__":
    sys.exit(main())
