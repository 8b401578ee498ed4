"""The room and the bots are pure: no I/O, no clock, no global random state.  (That the
engine never imports them is tests/test_layers.py's table of allowed imports.)"""

from __future__ import annotations

import ast
import pathlib

import pytest

SRC = pathlib.Path(__file__).resolve().parent.parent / "src" / "mazziere"
PURE = sorted([*SRC.joinpath("room").glob("*.py"), *SRC.joinpath("bots").glob("*.py")])
PURE += sorted(SRC.joinpath("odds").glob("*.py"))  # equity and draw odds
PURE.append(SRC / "simulation.py")
PURE.append(SRC / "duel.py")
FORBIDDEN_MODULES = {
    "time",
    "datetime",
    "os",
    "socket",
    "threading",
    "asyncio",
    "subprocess",
    "pathlib",
    "io",
}


def _imports(tree: ast.AST) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


@pytest.mark.parametrize("path", PURE, ids=lambda p: p.name)
def test_room_and_bots_do_no_io_and_read_no_clock(path: pathlib.Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    imported = {name.split(".")[0] for name in _imports(tree)}
    allowed_time = path.name == "simulation.py"  # it measures its own speed, nothing else
    forbidden = FORBIDDEN_MODULES - ({"time"} if allowed_time else set())
    assert not imported & forbidden, f"{path.name} imports {imported & forbidden}"
    assert not {"mazziere.cli", "mazziere.tui", "mazziere.server"} & _imports(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            assert node.func.id not in ("print", "open", "input"), f"{path.name}: {node.func.id}()"
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == "random"
        ):
            # Only random.Random(seed) objects, never the module's global state.
            assert node.attr == "Random", f"{path.name}: random.{node.attr}"
