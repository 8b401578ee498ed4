"""Immutable values with named fields, built from the tuple of their fields: the records of
a hand's log and the legal actions, which the engine makes on every action."""

from __future__ import annotations

import collections
import inspect
from typing import Any, ClassVar, TypeVar

__all__ = ["Fields", "named_fields"]


class Fields(tuple[Any, ...]):
    """A tuple whose items are named fields (declared as annotations, made by :func:`named_fields`).

    It is built from the tuple of all its fields, as a tuple is, so the
    tuple's own constructor makes it without running any Python code (a named
    tuple's ``__new__`` is a Python function: about twice the cost).
    """

    __slots__ = ()
    _fields: ClassVar[tuple[str, ...]] = ()

    def __repr__(self) -> str:
        fields = ", ".join(
            f"{name}={value!r}" for name, value in zip(self._fields, self, strict=True)
        )
        return f"{type(self).__name__}({fields})"

    def __getnewargs__(self) -> tuple[Any, ...]:
        return (tuple(self),)  # copy and pickle call the class with the fields


_F = TypeVar("_F", bound=Fields)


def named_fields(cls: type[_F]) -> type[_F]:
    """Make a :class:`Fields` subclass declared with annotated fields one with named fields.

    The fields become read-only attributes over the tuple's items, in order
    (the getters of a named tuple of the same fields); ``ClassVar``
    annotations are not fields, and fields take no defaults.

    >>> @named_fields
    ... class Example(Fields):
    ...     position: int
    ...     all_in: bool
    >>> Example((3, False)), Example((3, False)).all_in
    (Example(position=3, all_in=False), False)
    """
    names: list[str] = []
    namespace = {k: v for k, v in cls.__dict__.items() if k not in ("__dict__", "__weakref__")}
    for name, annotation in inspect.get_annotations(cls).items():
        if "ClassVar" in str(annotation):
            continue
        if name in namespace:
            raise TypeError(f"{cls.__name__}: field {name!r} takes no default")
        names.append(name)
    shape = collections.namedtuple(cls.__name__, names)  # type: ignore[misc]
    namespace["__slots__"] = ()
    namespace["_fields"] = tuple(names)
    namespace["__match_args__"] = tuple(names)
    for name in names:
        namespace[name] = shape.__dict__[name]
    made = type(cls.__name__, cls.__bases__, namespace)
    made.__qualname__ = cls.__qualname__
    return made
