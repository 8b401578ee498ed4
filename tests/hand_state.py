"""A hand's whole state as a dict (its slots and any instance attributes), for tests that
check an illegal action changed nothing."""

from __future__ import annotations

KEPT_ANSWERS = ("_legal", "_no_raise")
"""Answers a hand keeps once worked out (the player to act's options, why they may not
raise): no state of their own."""


def hand_state(hand: object) -> dict[str, object]:
    """Every attribute the hand has set, by name (slots of each class, then its dict), but
    the answers it keeps."""
    names: list[str] = []
    for cls in type(hand).__mro__:
        slots = cls.__dict__.get("__slots__", ())
        names.extend([slots] if isinstance(slots, str) else slots)
    names.extend(getattr(hand, "__dict__", {}))
    return {
        name: getattr(hand, name)
        for name in names
        if hasattr(hand, name) and name not in KEPT_ANSWERS
    }
