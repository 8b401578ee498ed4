"""The engine's layers: each imports only what its row of the table allows, does no I/O,
reads no clock, and keeps no mutable state at module level.

The engine is ``cards``, ``rules``, ``evaluate``, ``game`` and ``history``.  Each
layer may import the layers below it (and itself), the pure standard-library
modules of :data:`PURE_STDLIB` and numpy; nothing else: not the room, the bots,
the server or a client (arrows point down only), not a module that does I/O,
reads the clock or holds global random state.  Tables built at import are
fine; a module-level container changed afterwards (a hand-written cache, a
``global``) is state every hand shares: use ``functools.cache`` instead.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "mazziere"

LAYERS: dict[str, frozenset[str]] = {
    "cards": frozenset(),
    "rules": frozenset({"cards"}),
    "evaluate": frozenset({"cards", "rules"}),
    "game": frozenset({"cards", "rules", "evaluate", "game"}),
    "history": frozenset({"cards", "rules", "evaluate", "game", "history"}),
}
"""The table of allowed imports: an engine layer -> the layers of mazziere it may import."""

PURE_STDLIB = frozenset(
    {
        "__future__",
        "abc",
        "bisect",
        "collections",
        "dataclasses",
        "datetime",  # dates and times as values (hand histories); clock reads are caught below
        "decimal",
        "enum",
        "fractions",
        "functools",
        "hashlib",
        "heapq",
        "importlib",  # the history registries import their readers by name, when used
        "inspect",
        "itertools",
        "json",
        "math",
        "numbers",
        "operator",
        "re",
        "statistics",
        "string",
        "textwrap",
        "tomllib",  # parses text it is given
        "types",
        "typing",
        "unicodedata",
    }
)
"""Standard-library modules that do no I/O, read no clock and hold no random state."""

THIRD_PARTY = frozenset({"numpy"})

FORBIDDEN_CALLS = frozenset({"open", "print", "input", "exec", "eval"})
CLOCK_READS = frozenset({"now", "today", "utcnow", "monotonic", "perf_counter", "process_time"})

MUTATING_METHODS = frozenset(
    {
        "add",
        "append",
        "clear",
        "discard",
        "extend",
        "insert",
        "pop",
        "popitem",
        "remove",
        "reverse",
        "setdefault",
        "sort",
        "update",
    }
)
MUTABLE_BUILDERS = frozenset(
    {"list", "dict", "set", "bytearray", "defaultdict", "deque", "OrderedDict", "Counter"}
)

REGISTRIES = {
    ("rules.py", "_REGISTRY"): "the rule sets by name: register_rules() adds a house rule set",
    ("replay.py", "VARIANTS"): "PHH variants -> their replayers: register_variant() adds one",
}
"""Module-level containers that are changed after import on purpose, and why."""


def _engine_files() -> list[Path]:
    files: list[Path] = []
    for layer in LAYERS:
        directory, module = PACKAGE / layer, PACKAGE / f"{layer}.py"
        if directory.is_dir():
            files.extend(sorted(directory.rglob("*.py")))
        if module.exists():
            files.append(module)
    return files


def _layer(path: Path) -> str:
    return path.relative_to(PACKAGE).parts[0].removesuffix(".py")


def _runtime_imports(tree: ast.Module) -> list[tuple[int, str]]:
    """(line, module) of imports that run at import time (not under TYPE_CHECKING)."""
    found: list[tuple[int, str]] = []

    def visit(nodes: list[ast.stmt]) -> None:
        for node in nodes:
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                continue
            if isinstance(node, ast.Import):
                found.extend((node.lineno, alias.name) for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                found.append((node.lineno, node.module))
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.stmt):
                    visit([child])

    visit(tree.body)
    return found


def import_problems(tree: ast.Module, layer: str) -> list[str]:
    """Each import the table does not allow to ``layer``."""
    problems = []
    for line, module in _runtime_imports(tree):
        parts = module.split(".")
        if parts[0] == "mazziere":
            target = parts[1] if len(parts) > 1 else "mazziere"
            if target not in LAYERS[layer]:
                problems.append(f"line {line}: {layer} may not import {module}")
        elif parts[0] not in PURE_STDLIB | THIRD_PARTY:
            problems.append(f"line {line}: {module} is not in the table of allowed imports")
    return problems


def _mutable(value: ast.expr) -> bool:
    if isinstance(value, ast.List | ast.Dict | ast.Set | ast.ListComp | ast.DictComp | ast.SetComp):
        return True
    if isinstance(value, ast.BinOp):  # [0] * n
        return _mutable(value.left) or _mutable(value.right)
    if isinstance(value, ast.Call):
        func = value.func
        name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
        return name in MUTABLE_BUILDERS
    return False


def state_problems(tree: ast.Module, filename: str) -> list[str]:
    """Module-level containers changed after import, ``global`` rebinding, class-level
    containers: mutable state of the module."""
    problems = []
    containers: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names = [t.id for t in targets if isinstance(t, ast.Name)]
            if _mutable(node.value):
                containers.update(n for n in names if n not in ("__all__",))
        if isinstance(node, ast.ClassDef):
            for item in node.body:
                value = item.value if isinstance(item, ast.Assign | ast.AnnAssign) else None
                if value is not None and _mutable(value):
                    problems.append(f"line {item.lineno}: a container on class {node.name}")
    containers -= {name for file, name in REGISTRIES if file == filename}
    functions = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.Lambda)]
    for function in functions:
        for node in ast.walk(function):
            if isinstance(node, ast.Global):
                problems.append(f"line {node.lineno}: global {', '.join(node.names)}")
            target = None
            if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store | ast.Del):
                target = node.value
            elif (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in MUTATING_METHODS
            ):
                target = node.func.value
            if isinstance(target, ast.Name) and target.id in containers:
                problems.append(f"line {node.lineno}: changes the module's {target.id}")
    return problems


def call_problems(tree: ast.Module) -> list[str]:
    problems = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        if isinstance(node.func, ast.Name) and node.func.id in FORBIDDEN_CALLS:
            problems.append(f"line {node.lineno}: calls {node.func.id}()")
        if isinstance(node.func, ast.Attribute) and node.func.attr in CLOCK_READS:
            problems.append(f"line {node.lineno}: reads the clock ({node.func.attr})")
    return problems


ENGINE_FILES = _engine_files()


def test_every_engine_layer_has_its_files() -> None:
    """Every layer of the table is there: a misspelt one would leave its files unchecked."""
    assert {_layer(path) for path in ENGINE_FILES} == set(LAYERS)
    checked = {path.relative_to(PACKAGE).as_posix() for path in ENGINE_FILES}
    assert {
        "cards.py",
        "rules.py",
        "evaluate.py",
        "game/core.py",
        "game/betting.py",
        "game/holdem.py",
        "game/italian/hand.py",
        "history/phh.py",
    } <= checked


@pytest.mark.parametrize("path", ENGINE_FILES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_engine_module_imports_only_what_its_layer_allows(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    assert import_problems(tree, _layer(path)) == []


@pytest.mark.parametrize("path", ENGINE_FILES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_engine_module_keeps_no_mutable_state_and_does_no_io(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    assert state_problems(tree, path.name) + call_problems(tree) == []


def test_the_checks_catch_what_they_forbid() -> None:
    upward = ast.parse(
        "import time\nfrom mazziere.room import table\nfrom mazziere.game import core\n"
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import random\n"
    )
    assert import_problems(upward, "game") == [
        "line 1: time is not in the table of allowed imports",
        "line 2: game may not import mazziere.room",
    ]
    assert import_problems(ast.parse("from mazziere.game import core\n"), "rules") == [
        "line 1: rules may not import mazziere.game"
    ]
    cache = ast.parse(
        "_SEEN = {}\n_TABLE = [0] * 4\n_TABLE[0] = 1\n"  # filled at import: fine
        "def look(key):\n    _SEEN[key] = 1\n    _SEEN.setdefault(key, 2)\n"
        "def load():\n    global _LOADED\n"
        "class Test:\n    _cache = dict()\n"
    )
    assert state_problems(cache, "x.py") == [
        "line 10: a container on class Test",
        "line 5: changes the module's _SEEN",
        "line 6: changes the module's _SEEN",
        "line 8: global _LOADED",
    ]
    io = ast.parse("def f(clock):\n    print(clock.monotonic())\n    exec('x = 1')\n")
    assert sorted(call_problems(io)) == [
        "line 2: calls print()",
        "line 2: reads the clock (monotonic)",
        "line 3: calls exec()",
    ]
