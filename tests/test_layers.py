"""The engine is pure: no I/O, no clock, no global randomness, no upward imports."""

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "mazziere"
ENGINE = ["cards.py", "rules.py", "evaluate.py", "game", "history"]
UPPER_LAYERS = {"room", "bots", "tui", "server", "cli", "bench", "web"}
# Modules that read clocks, do I/O or hold global random state.  (datetime is
# allowed for the date and time values of hand histories; reading the clock
# through it is caught below.)
IMPURE = {
    "random",
    "secrets",
    "time",
    "socket",
    "sys",
    "io",
    "asyncio",
    "threading",
    "subprocess",
    "sqlite3",
    "os",
    "pathlib",
    "shutil",
    "urllib",
    "http",
}
CLOCK_READS = {"now", "today", "utcnow", "monotonic", "perf_counter", "process_time"}


def _engine_files() -> list[Path]:
    files: list[Path] = []
    for name in ENGINE:
        path = PACKAGE / name
        if path.is_dir():
            files.extend(sorted(path.rglob("*.py")))
        elif path.exists():
            files.append(path)
    return files


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


def test_engine_files_exist() -> None:
    """Every name in ENGINE is there: a misspelt one would leave its files unchecked."""
    assert [name for name in ENGINE if not (PACKAGE / name).exists()] == []
    checked = {path.relative_to(PACKAGE).as_posix() for path in _engine_files()}
    assert {
        "cards.py",
        "rules.py",
        "evaluate.py",
        "game/core.py",
        "game/holdem.py",
        "game/italian.py",
        "history/phh.py",
    } <= checked


@pytest.mark.parametrize("path", _engine_files(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_engine_module_is_pure(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for line, module in _runtime_imports(tree):
        top = module.split(".")[0]
        assert top not in IMPURE, f"{path.name}:{line} imports {module}"
        if top == "mazziere":
            layer = module.split(".")[1] if "." in module else ""
            assert layer not in UPPER_LAYERS, f"{path.name}:{line} imports {module}"
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            assert node.func.id not in {"open", "print", "input"}, (
                f"{path.name}:{node.lineno} calls {node.func.id}()"
            )
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            assert node.func.attr not in CLOCK_READS, (
                f"{path.name}:{node.lineno} reads the clock ({node.func.attr})"
            )


def test_the_check_catches_an_impure_module(tmp_path: Path) -> None:
    tree = ast.parse("import time\nfrom mazziere.room import table\n")
    assert [m for _, m in _runtime_imports(tree)] == ["time", "mazziere.room"]
    typed = ast.parse("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import random\n")
    assert [m for _, m in _runtime_imports(typed)] == ["typing"]
