"""Start-up: how long ``mazziere --help`` and ``import mazziere`` take, in fresh processes.

Each command runs as its own process, the commands in turn, ``runs`` times
over; the figures are medians of the CPU time of the child (user + system,
from ``resource.getrusage``: other jobs on a shared machine change it less
than the wall clock) and of its wall time.  Python's bytecode cache is
allowed (``PYTHONDONTWRITEBYTECODE`` is dropped from the children's
environment, and every command runs once before the timings), as in an
installed package, whose bytecode pip compiles.

``against`` times the same commands with another checkout's ``src`` first on
``PYTHONPATH`` (an earlier commit, say), alternating with this one.
"""

from __future__ import annotations

import os
import re
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from benchmarks.timing import Echo

HOLDEM_COMPARE = ["compare", "--board", "2c 7d 9h Js Qd", "Ah Kh", "Tc 8c"]

IMPORT_LINE = re.compile(r"^import time:\s+\d+ \|\s+(\d+) \| ( *)(\S.*)$")
"""A line of ``python -X importtime``: cumulative microseconds, the nesting (two spaces a level)."""

ENTRY = "mazziere.cli"
"""The module the ``mazziere`` script imports: its own imports are listed one by one."""


def _mazziere_command() -> list[str]:
    """The installed ``mazziere`` script next to this interpreter, or the same through ``-c``."""
    script = Path(sys.executable).with_name("mazziere")
    if script.exists():
        return [str(script)]
    return [sys.executable, "-c", "import sys; from mazziere.cli import main; sys.exit(main())"]


def commands() -> dict[str, list[str]]:
    """Label -> argv of each command timed."""
    mazziere = _mazziere_command()
    return {
        "python -c pass": [sys.executable, "-c", "pass"],
        "python -c 'import mazziere'": [sys.executable, "-c", "import mazziere"],
        "mazziere --help": [*mazziere, "--help"],
        "mazziere compare (Hold'em)": [*mazziere, *HOLDEM_COMPARE],
    }


def _environment(src: str | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    if src is not None:
        env["PYTHONPATH"] = os.pathsep.join([src, *filter(None, [env.get("PYTHONPATH")])])
    return env


def _run(argv: Sequence[str], env: dict[str, str]) -> tuple[float, float]:
    """CPU seconds (user + system) and wall seconds of one run of ``argv``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, check=True, timeout=120)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return cpu, wall


def imports(argv: Sequence[str], env: dict[str, str]) -> dict[str, float]:
    """Cumulative seconds of the imports of one ``-X importtime`` run of ``argv``.

    The top-level imports (the entry point, and what is imported later,
    inside a command), and the direct imports of :data:`ENTRY`, as
    ``"mazziere.cli > typer"``.
    """
    done = subprocess.run(
        argv,
        env=env | {"PYTHONPROFILEIMPORTTIME": "1"},  # the same as python -X importtime
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        check=True,
        timeout=120,
    )
    found: dict[str, float] = {}
    children: dict[str, float] = {}  # a module's imports are printed before it
    for line in done.stderr.splitlines():
        match = IMPORT_LINE.match(line)
        if match is None:
            continue
        seconds, depth, name = int(match[1]) / 1e6, len(match[2]) // 2, match[3]
        if depth == 1:
            children[name] = seconds
        elif depth == 0:
            found[name] = seconds
            if name == ENTRY:
                found.update((f"{ENTRY} > {child}", t) for child, t in children.items())
            children = {}
    return found


def run_startup_benchmark(
    *, runs: int, echo: Echo, against: str | None = None, top: int = 6
) -> dict[str, float]:
    """Print and return the median CPU and wall seconds of each command (and of ``against``)."""
    trees: dict[str, str | None] = {"this checkout": None}
    if against is not None:
        trees[f"against {against}"] = str(Path(against).resolve())
    envs = {tree: _environment(src) for tree, src in trees.items()}
    timed = {(tree, label): argv for tree in trees for label, argv in commands().items()}
    for (tree, _), argv in timed.items():
        _run(argv, envs[tree])  # writes the bytecode cache, warms the file cache
    cpu: dict[tuple[str, str], list[float]] = {key: [] for key in timed}
    wall: dict[tuple[str, str], list[float]] = {key: [] for key in timed}
    for _ in range(runs):
        for key, argv in timed.items():
            seconds, elapsed = _run(argv, envs[key[0]])
            cpu[key].append(seconds)
            wall[key].append(elapsed)
    echo(
        f"start-up: each command in a fresh process, median of {runs} runs alternating between "
        "the commands; CPU = user + system seconds of the process; bytecode cached"
    )
    figures: dict[str, float] = {}
    for tree in trees:
        if len(trees) > 1:
            echo(f" {tree}")
        for label in commands():
            key = (tree, label)
            figures[f"{tree}.{label}.cpu"] = statistics.median(cpu[key])
            figures[f"{tree}.{label}.wall"] = statistics.median(wall[key])
            echo(
                f"  {label:<30} CPU {1000 * statistics.median(cpu[key]):7.1f} ms"
                f"   wall {1000 * statistics.median(wall[key]):7.1f} ms"
            )
    for tree in trees:
        samples = [imports(commands()["mazziere --help"], envs[tree]) for _ in range(min(runs, 5))]
        medians = {
            name: statistics.median(sample.get(name, 0.0) for sample in samples)
            for name in set().union(*samples)
        }
        top_level = [name for name in medians if ">" not in name]
        inside = [name for name in medians if name.startswith(f"{ENTRY} > ")]
        for names, what in ((top_level, "top-level imports"), (inside, f"imports of {ENTRY}")):
            biggest = sorted(names, key=lambda name: -medians[name])[:top]
            shown = ", ".join(
                f"{name.split(' > ')[-1]} {1000 * medians[name]:.1f}" for name in biggest
            )
            echo(
                f" `mazziere --help`{'' if len(trees) == 1 else f' ({tree})'}, {what} "
                f"(-X importtime, cumulative ms, median of {len(samples)}): {shown}"
            )
    return figures
