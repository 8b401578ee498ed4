"""The hand engine (game/, history/) is pure: no I/O, clock, global random or upper layers."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).parent.parent / "src" / "mazziere"
ENGINE_FILES = sorted([*(PACKAGE / "game").glob("*.py"), *(PACKAGE / "history").glob("*.py")])
FORBIDDEN = {"random", "time", "secrets", "os", "sys", "io", "pathlib", "socket", "subprocess"}
UPPER = ("mazziere.room", "mazziere.bots", "mazziere.tui", "mazziere.cli", "mazziere.bench")


@pytest.mark.parametrize("path", ENGINE_FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_engine_module_imports_nothing_impure(path: Path) -> None:
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [node.module or ""]
        else:
            continue
        for name in names:
            assert name.split(".")[0] not in FORBIDDEN, f"{path.name} imports {name}"
            assert not name.startswith(UPPER), f"{path.name} imports {name}"


def test_engine_files_are_found() -> None:
    names = {p.name for p in ENGINE_FILES}
    assert {"core.py", "holdem.py", "phh.py", "replay.py"} <= names
