"""A cash table's checkpoint: its task's state after one of its commands, so that a rebuild
replays only the commands stored after it.

A rebuild replays a table's stored commands (docs/server.md), so from the first one its
time grows with the table's history: about 0.45 ms of CPU a hand (docs/benchmarks.md, "A
table's rebuild"), most of a minute for a lobby table that dealt 100,000 hands.  So every
:data:`CHECKPOINT_EVERY_HANDS` hands a cash table's task writes down its state with the
command that ended the hand, in that command's transaction, and a rebuild starts from
the latest checkpoint.

The state is what a replay of the commands up to that one gives: it is taken as soon as
the command is applied, before anything that only a running table does (the players'
connections, the seats kept for the waiting list, the pause after a showdown, which a
rebuild starts afresh in any case).

A checkpoint is a cache, never the record: the commands are.  One is used only by the
code that wrote it (:func:`code_version`, a digest of the interpreter's version and of the
source of every module a replay can run, :func:`replay_modules`); one written by other
code (an upgrade that changed the engine, the room or the table task), or one that cannot
be read, is ignored, and the table is rebuilt from its first command, as it always was.
An upgrade of the rest (the lobby, the accounts, the web client) keeps the checkpoints.

It is a pickle of the task's own objects (the room table, the engine's hand, the bots,
the events kept for a returning client), the one form that keeps every object of the
room's state without a second description of it to keep in step.  What belongs to the
running room, not to the table (its clock, the bots' random source, the task itself),
is written as a name and found again in the task that reads it.  The database is the
room's own, and whoever can write to it can move chips already; still, the reader finds
only the room's own classes and a few of the standard library's, so a row written there
cannot make the room run other code, and only classes of the modules in the digest, so a
checkpoint holds nothing whose code could have changed unseen.

>>> class Owner:
...     def deal(self) -> str:
...         return "dealt"
>>> owner = Owner()
>>> data = dump({"deck": owner.deal, "stacks": [100, 0]}, at=12.5, owner=owner, externals={})
>>> at, state = load(data, owner=owner, externals={})
>>> at, state["stacks"], state["deck"]()
(12.5, [100, 0], 'dealt')
>>> load(b"not a checkpoint", owner=owner, externals={})
Traceback (most recent call last):
...
mazziere.server.checkpoints.CheckpointError: the checkpoint cannot be read: ...
"""

from __future__ import annotations

import functools
import hashlib
import io
import pickle
import re
import sys
from pathlib import Path
from types import MappingProxyType, MethodType
from typing import Any

import mazziere

__all__ = [
    "CHECKPOINT_EVERY_HANDS",
    "CheckpointError",
    "code_version",
    "dump",
    "load",
    "replay_modules",
]

CHECKPOINT_EVERY_HANDS = 500
"""A table's replay after a restart is at most this many hands (about a quarter of a
second); a checkpoint is about 100 KB and a few milliseconds of CPU (the events kept for a
returning client are most of it)."""

_STANDARD: frozenset[tuple[str, str]] = frozenset(
    {
        ("builtins", "set"),
        ("builtins", "frozenset"),
        ("collections", "deque"),
        ("fractions", "Fraction"),
    }
)
"""The standard library's classes a table's state holds (beside the room's own)."""


class CheckpointError(Exception):
    """A checkpoint that cannot be read back (the table is rebuilt from its first command)."""


REPLAY_ROOT = "mazziere.server.tables"
"""The table task's module: a replay runs its code and the code of what it imports."""


def _source(root: Path, module: str) -> Path | None:
    """The file of ``module``, a module of the package at ``root`` (``None``: not one)."""
    path = root.parent.joinpath(*module.split("."))
    for candidate in (path / "__init__.py", path.with_suffix(".py")):
        if candidate.is_file():
            return candidate
    return None


def modules_imported(root: Path, start: str) -> frozenset[str]:
    """The modules of the package at ``root`` that module ``start`` imports, directly or
    not, at their top or inside a function, with their packages (read from the source, so
    a module imported only when a function runs counts as much as one imported at once, and
    one a string names, as ``importlib`` imports it).

    >>> found = modules_imported(Path(mazziere.__file__).parent, REPLAY_ROOT)
    >>> sorted(name for name in found if name.startswith(f"{mazziere.__name__}.room.c"))
    ['mazziere.room.cash', 'mazziere.room.clock']
    >>> {name.rsplit(".", 1)[-1] for name in found} & {"lobby", "accounts", "web", "cli"}
    set()
    """
    package = root.name
    source_of = functools.cache(functools.partial(_source, root))  # each name looked up once

    def with_packages(module: str) -> set[str]:
        parts = module.split(".")
        dotted = (".".join(parts[:end]) for end in range(1, len(parts) + 1))
        return {name for name in dotted if source_of(name) is not None}

    found: set[str] = set()
    waiting = [start]
    while waiting:
        module = waiting.pop()
        path = source_of(module)
        if module in found or path is None:
            continue
        found.add(module)
        source = path.read_text(encoding="utf-8")
        # A module imported by its name at run time (``importlib``) is named in a string.
        for name in re.findall(rf"[\"']({re.escape(package)}(?:\.\w+)+)", source):
            waiting.extend(with_packages(name) - found)
        for statement in _IMPORT.finditer(source):
            imported, names, plain = statement.groups()
            if imported is not None and imported.startswith("."):
                imported = _absolute(module, imported, is_package=path.name == "__init__.py")
            if plain is not None:
                named = [_first_word(part) for part in plain.split(",")]
            else:
                # ``from a.b import c``: c may be a module of a.b as well as a name in it.
                parts = names.strip("()").replace("\n", ",").split(",")
                words = (_first_word(part) for part in parts)
                named = [imported, *(f"{imported}.{word}" for word in words if word)]
            for name in named:
                if name.split(".", 1)[0] == package:
                    waiting.extend(with_packages(name) - found)
    return frozenset(found)


_IMPORT = re.compile(
    r"^[ \t]*(?:from[ \t]+([\w.]+)[ \t]+import[ \t]+(\([^)]*\)|[^\n#]*)|import[ \t]+([^\n#]*))",
    re.MULTILINE,
)
"""An import statement at the start of a line: ``from a import b, c`` (with its names in
brackets over several lines, or not) or ``import a.b``.  A line of a docstring that reads
like one counts as well: the set of modules found can only grow by it, never miss one."""


def _absolute(module: str, relative: str, *, is_package: bool) -> str:
    """``from .x import y`` in ``module``: the module ``.x`` names."""
    dots = len(relative) - len(relative.lstrip("."))
    parts = module.split(".") if is_package else module.split(".")[:-1]
    base = parts[: len(parts) - (dots - 1)]
    return ".".join([*base, relative[dots:]] if relative[dots:] else base)


def _first_word(text: str) -> str:
    words = text.split()
    return words[0] if words else ""


@functools.cache
def replay_modules() -> frozenset[str]:
    """The room's modules whose code a table's replay can run: the table task's module and
    every module of the package it imports (:func:`modules_imported`)."""
    return modules_imported(Path(mazziere.__file__).parent, REPLAY_ROOT)


def version_of(root: Path, modules: frozenset[str]) -> str:
    """A digest of the interpreter's version and of the source of ``modules`` (of the package
    at ``root``)."""
    digest = hashlib.sha256(sys.version.encode())
    for module in sorted(modules):
        path = _source(root, module)
        digest.update(module.encode() + b"\0")
        digest.update(b"" if path is None else path.read_bytes())
    return digest.hexdigest()


@functools.cache
def code_version() -> str:
    """A digest of the code a replay runs (:func:`replay_modules`) and of the interpreter's
    version: a checkpoint is read only by the code that wrote it.  Code a replay does not
    run (the lobby, the accounts, the web client, the storage) may change without it.

    The server asks for it as it starts (its first rebuild), so code changed on disk while
    it runs is not taken for the code that runs.

    >>> len(code_version())
    64
    """
    return version_of(Path(mazziere.__file__).parent, replay_modules())


def _read_only(mapping: dict[Any, Any]) -> MappingProxyType[Any, Any]:
    return MappingProxyType(mapping)


def _bound(instance: object, name: str) -> Any:
    """A public method of one of the state's own objects (a random source's draw)."""
    if name.startswith("_"):
        raise CheckpointError(f"no private method {name!r} in a checkpoint")
    return getattr(instance, name)


class _Pickler(pickle.Pickler):
    def __init__(self, file: io.BytesIO, owner: object, externals: dict[str, object]) -> None:
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self._owner = owner
        self._names = {id(value): name for name, value in externals.items()}

    def persistent_id(self, obj: Any) -> Any:
        if type(obj) is MethodType and obj.__self__ is self._owner:
            return ("method", obj.__func__.__name__)
        name = self._names.get(id(obj))
        return None if name is None else ("external", name)

    def reducer_override(self, obj: Any) -> Any:
        if type(obj) is MappingProxyType:
            return _read_only, (dict(obj),)
        if type(obj) is MethodType:
            return _bound, (obj.__self__, obj.__func__.__name__)
        return NotImplemented


class _Unpickler(pickle.Unpickler):
    def __init__(self, file: io.BytesIO, owner: object, externals: dict[str, object]) -> None:
        super().__init__(file)
        self._owner = owner
        self._externals = externals

    def persistent_load(self, pid: Any) -> Any:
        kind, name = pid
        if kind == "method":
            return getattr(self._owner, name)
        if kind == "external" and name in self._externals:
            return self._externals[name]
        raise CheckpointError(f"nothing called {name!r} to give the checkpoint")

    def find_class(self, module: str, name: str) -> Any:
        if module in replay_modules() or (module, name) in _STANDARD:
            return super().find_class(module, name)
        raise CheckpointError(f"{module}.{name} is not part of a table's state")


def dump(state: dict[str, Any], *, at: float, owner: object, externals: dict[str, object]) -> bytes:
    """``state`` (the table's time ``at``) as bytes: ``owner``'s methods and the objects of
    ``externals`` by name (the reader gives its own)."""
    file = io.BytesIO()
    _Pickler(file, owner, externals).dump((at, state))
    return file.getvalue()


def load(
    data: bytes, *, owner: object, externals: dict[str, object]
) -> tuple[float, dict[str, Any]]:
    """The table's time and state of :func:`dump`, with ``owner``'s methods and
    ``externals``' objects where the writer had its own."""
    try:
        at, state = _Unpickler(io.BytesIO(data), owner, externals).load()
    except CheckpointError:
        raise
    except Exception as error:  # a pickle that does not load is a checkpoint not to use
        raise CheckpointError(f"the checkpoint cannot be read: {error}") from None
    return float(at), dict(state)
