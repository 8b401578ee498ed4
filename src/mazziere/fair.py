"""Provably fair deals: each hand's secret seed, the cards it orders, its commitment, the check.

Every hand the room deals has a seed of :data:`SEED_BYTES` random bytes from
the operating system's CSPRNG (:func:`new_seed`).  Before the deal the room
publishes the seed's SHA-256 (:func:`commitment`); after the hand it reveals
the seed.  From the seed anyone can rebuild every card of the hand:

* :class:`FairRandom` expands a seed into a stream of random bits with
  SHA-256 in counter mode (block *i* is ``SHA-256(label ‖ 0x00 ‖ seed ‖ i)``,
  *i* as 8 bytes big-endian).  It is a :class:`random.Random`, so
  ``randrange`` and ``shuffle`` work on it and draw their numbers from
  ``getrandbits`` exactly as Python documents it.
* :func:`deck_order` shuffles the rule set's deck (in its canonical order,
  :meth:`~mazziere.cards.Deck`) with that stream (Fisher-Yates,
  :meth:`~mazziere.cards.Deck.shuffled`): the hand deals the cards in that
  order, and the same stream goes on to draw what comes after it (the
  reshuffle of the draw's discards in Italian poker, an odd chip).

:func:`verify` checks a hand history (PHH with the fields ``_seed`` and
``_commitment``): the commitment, then each card dealt, in the order a
dealer deals them, against the seed's order; cards dealt after an Italian
reshuffle are checked by rebuilding the hand with the engine from the seed
and the players' decisions.  The whole scheme is written out in
``docs/fairness.md``.

>>> seed = bytes(range(32))
>>> commitment(seed)[:16]
'630dcd2966c43366'
>>> order, _ = deck_order(seed, "italian-32", players=4)
>>> " ".join(map(str, order[:5]))
'9d 7s Qh Kh Kc'
>>> deck_order(seed, "italian-32", players=4)[0] == order  # the same seed, the same cards
True
"""

from __future__ import annotations

import hashlib
import random
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from mazziere.cards import Card
from mazziere.rules import RuleSet, find_rules

__all__ = [
    "BUTTON_LABEL",
    "DECK_LABEL",
    "SEED_BYTES",
    "FairRandom",
    "FairnessError",
    "Verification",
    "commitment",
    "deck_order",
    "new_seed",
    "verify",
]

SEED_BYTES = 32
"""A seed's length: 256 bits, the strength of SHA-256."""

DECK_LABEL = b"mazziere/deck/v1"
"""The label of the stream that orders a hand's deck (and deals on after it)."""

BUTTON_LABEL = b"mazziere/button/v1"
"""The label of the stream that deals the draw for the button (a stream of its own, so the
cards of the draw, face up, tell nothing about the deck)."""

_BLOCK = hashlib.sha256().digest_size


class FairnessError(ValueError):
    """A hand history whose cards are not the ones its seed gives, or whose seed is wrong."""


def new_seed() -> bytes:
    """A fresh seed from the operating system's CSPRNG.

    >>> len(new_seed()), new_seed() != new_seed()
    (32, True)
    """
    return secrets.token_bytes(SEED_BYTES)


def commitment(seed: bytes) -> str:
    """The SHA-256 of ``seed`` in hex: published before the deal, checked after it.

    >>> commitment(bytes(32))
    '66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925'
    """
    return hashlib.sha256(seed).hexdigest()


def _check_seed(seed: object) -> bytes:
    if not isinstance(seed, bytes) or len(seed) != SEED_BYTES:
        raise FairnessError(f"a seed is {SEED_BYTES} bytes, not {seed!r}")
    return seed


def _resumed(label: bytes, key: bytes, counter: int, buffer: bytes) -> FairRandom:
    """A :class:`FairRandom` at a given point of its stream (:meth:`FairRandom.__reduce__`)."""
    rng = FairRandom(bytes(32), label)
    rng._key, rng._counter, rng._buffer = key, counter, buffer
    return rng


class FairRandom(random.Random):
    """A random source whose every bit comes from a seed through SHA-256 in counter mode.

    ``getrandbits(k)`` takes the next ``ceil(k / 8)`` bytes of the stream,
    reads them big-endian and keeps the top ``k`` bits; ``random()`` is
    ``getrandbits(53) / 2**53``.  Since ``getrandbits`` is overridden,
    ``randrange(n)`` draws ``getrandbits(n.bit_length())`` until the number
    is below ``n`` (Python's documented rejection method, no bias).

    >>> rng = FairRandom(bytes(32))
    >>> rng.getrandbits(16), rng.randrange(52), FairRandom(bytes(32)).getrandbits(16)
    (21152, 8, 21152)
    >>> FairRandom(b"short")
    Traceback (most recent call last):
    ...
    mazziere.fair.FairnessError: a seed is 32 bytes, not b'short'
    """

    _key: bytes
    _counter: int
    _buffer: bytes

    def __init__(self, seed: bytes, label: bytes = DECK_LABEL) -> None:
        self._label = label
        super().__init__(seed)

    def seed(self, a: Any = None, version: int = 2) -> None:
        """Start the stream of seed ``a`` (32 bytes) from its beginning."""
        self._key = self._label + b"\x00" + _check_seed(a)
        self._counter = 0
        self._buffer = b""

    def restart(self, seed: bytes, label: bytes = DECK_LABEL) -> None:
        """Start over: the stream of ``seed`` under ``label``, from its beginning.

        A table keeps one random source and restarts it for each hand, so the
        hand it deals holds a source that draws from that hand's seed alone.

        >>> rng = FairRandom(bytes(32))
        >>> first = rng.getrandbits(64)
        >>> rng.restart(bytes(32)); rng.getrandbits(64) == first
        True
        """
        self._label = label
        self.seed(seed)

    def __reduce__(self) -> tuple[Any, ...]:
        """A copy (a pickle: a table's checkpoint) draws on from where this one stands.

        >>> import copy
        >>> rng = FairRandom(bytes(32))
        >>> _ = rng.getrandbits(12)
        >>> copy.copy(rng).getrandbits(40) == rng.getrandbits(40)
        True
        """
        return _resumed, (self._label, self._key, self._counter, self._buffer)

    def _take(self, count: int) -> bytes:
        while len(self._buffer) < count:
            block = hashlib.sha256(self._key + self._counter.to_bytes(8, "big")).digest()
            self._buffer += block
            self._counter += 1
        taken, self._buffer = self._buffer[:count], self._buffer[count:]
        return taken

    def getrandbits(self, k: int, /) -> int:
        """``k`` random bits from the stream."""
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        if k == 0:
            return 0
        size = (k + 7) // 8
        return int.from_bytes(self._take(size), "big") >> (size * 8 - k)

    def random(self) -> float:
        """A float in [0, 1) with 53 random bits."""
        return self.getrandbits(53) * (2.0**-53)

    def getstate(self) -> tuple[Any, ...]:
        """The stream's position (copy and pickle use it)."""
        return (self._label, self._key, self._counter, self._buffer)

    def setstate(self, state: tuple[Any, ...]) -> None:
        """Go back to a position :meth:`getstate` gave."""
        self._label, self._key, self._counter, self._buffer = state


def deck_order(
    seed: bytes, rules: str | RuleSet, *, players: int, rng: FairRandom | None = None
) -> tuple[list[Card], FairRandom]:
    """The order in which a hand of ``players`` deals its deck, and the stream that goes on.

    The deck is ``rules.deck(players)`` (an Italian deck depends on the
    players dealt in), shuffled by Fisher-Yates with ``FairRandom(seed)``;
    the returned stream, already past the shuffle, deals whatever the hand
    needs after the deck (a reshuffle of discards) and draws odd chips.
    ``rng``: a source to restart and use instead of a new one.

    >>> order, rng = deck_order(bytes(32), "holdem", players=2)
    >>> len(order), len(set(order))
    (52, 52)
    """
    rule_set = find_rules(rules)
    if rng is None:
        rng = FairRandom(seed)
    else:
        rng.restart(seed)
    return rule_set.deck(players).shuffled(rng), rng


# ------------------------------------------------------------------ checking


@dataclass(frozen=True, slots=True)
class Verification:
    """What :func:`verify` checked: the commitment and how many cards matched the seed."""

    commitment: str
    cards_checked: int
    cards_hidden: int
    reshuffled_checked: int

    def describe(self) -> str:
        """One line for people."""
        text = f"commitment {self.commitment[:16]}... matches the seed; {self.cards_checked} cards"
        text += " dealt as the seed orders them"
        if self.reshuffled_checked:
            text += f" ({self.reshuffled_checked} of them after a reshuffle)"
        if self.cards_hidden:
            text += f"; {self.cards_hidden} hidden in this history (not checked)"
        return text


def _hex_field(fields: Any, name: str, size: int) -> bytes:
    value = fields.get(name)
    if not isinstance(value, str):
        raise FairnessError(f"the hand history has no {name} (a hex string)")
    try:
        data = bytes.fromhex(value)
    except ValueError:
        raise FairnessError(f"{name} is not hex: {value!r}") from None
    if len(data) != size:
        raise FairnessError(f"{name} is {len(data)} bytes, not {size}")
    return data


def _rules_of(fields: Any) -> RuleSet:
    from mazziere.history.phh_italian import ITALIAN_VARIANTS

    code = fields.get("variant")
    if code == "NT":
        return find_rules("holdem")
    if code in ITALIAN_VARIANTS:
        try:
            return find_rules(fields.get("_rules", ITALIAN_VARIANTS[code][0]))
        except ValueError as error:
            raise FairnessError(str(error)) from None
    raise FairnessError(f"variant {code!r}: no deck to check (known: NT and the Italian codes)")


def _dealt_in_order(
    fields: Any, rules: RuleSet, players: int
) -> tuple[list[Card | None], set[int]]:
    """The history's cards in the order the dealer took them from the deck (``None``:
    hidden), and where the Hold'em burn cards (never shown) fall in it."""
    from mazziere.history.phh import PHHError, parse_cards
    from mazziere.rules import Game

    try:
        actions = fields.parsed_actions()
        deals: list[tuple[str, tuple[Card | None, ...]]] = [
            (a.verb, parse_cards(a.args[-1]))
            for a in actions
            if a.actor == "d" and a.verb in ("dh", "db") and a.args
        ]
    except PHHError as error:
        raise FairnessError(str(error)) from None
    holes = [cards for verb, cards in deals if verb == "dh"]
    per_player = 2 if rules.game is Game.HOLDEM else 5
    first = holes[:players]
    if len(first) < players or any(len(c) != per_player for c in first):
        raise FairnessError(f"the deal gives {per_player} cards to each of {players} players")
    order: list[Card | None] = [first[p][k] for k in range(per_player) for p in range(players)]
    burns: set[int] = set()
    if rules.game is Game.HOLDEM:
        for verb, cards in deals[players:]:
            if verb != "db":
                raise FairnessError("a Hold'em player is dealt hole cards once")
            burns.add(len(order))
            order.append(None)
            order.extend(cards)
    else:
        for verb, cards in deals[players:]:
            if verb != "dh":
                raise FairnessError("Italian poker has no board")
            order.extend(cards)
    return order, burns


def verify(text: str) -> Verification:
    """Check a hand history against its seed; raise :class:`FairnessError` at the first lie.

    >>> from mazziere.game.holdem import HoldemHand
    >>> from mazziere.history.phh import dumps
    >>> from mazziere.history.holdem import to_phh
    >>> seed = bytes(range(32))
    >>> order, rng = deck_order(seed, "holdem", players=3)
    >>> hand = HoldemHand([100] * 3, blinds=(1, 2), deck=order, rng=rng)
    >>> while not hand.is_over:
    ...     _ = hand.check() if hand.can_check() else hand.call()
    >>> fields = to_phh(hand, _seed=seed.hex(), _commitment=commitment(seed))
    >>> verify(dumps(fields)).cards_checked
    11
    >>> verify(dumps(fields.replace(_seed=bytes(32).hex())))
    Traceback (most recent call last):
    ...
    mazziere.fair.FairnessError: the seed does not match the commitment published before the deal
    """
    from mazziere.history.phh import PHHError, loads

    try:
        fields = loads(text)
    except PHHError as error:
        raise FairnessError(str(error)) from None
    seed = _hex_field(fields, "_seed", SEED_BYTES)
    committed = _hex_field(fields, "_commitment", _BLOCK).hex()
    if commitment(seed) != committed:
        raise FairnessError("the seed does not match the commitment published before the deal")
    rules = _rules_of(fields)
    stacks = fields.get("starting_stacks")
    if not isinstance(stacks, list) or not rules.min_players <= len(stacks) <= rules.max_players:
        raise FairnessError("starting_stacks must list every player dealt in")
    players = len(stacks)
    order, _ = deck_order(seed, rules, players=players)
    dealt, burns = _dealt_in_order(fields, rules, players)
    checked = hidden = 0
    for index, card in enumerate(dealt[: len(order)]):
        if card is None:
            hidden += index not in burns
            continue
        if card != order[index]:
            raise FairnessError(
                f"card {index + 1} dealt is {card}, but the seed deals {order[index]} there"
            )
        checked += 1
    reshuffled = 0
    if len(dealt) > len(order):
        reshuffled = _verify_reshuffle(fields, seed, players, len(order))
        checked += reshuffled
    return Verification(committed, checked, hidden, reshuffled)


def _verify_reshuffle(fields: Any, seed: bytes, players: int, deck_size: int) -> int:
    """Italian hands dealt past their deck: rebuild the hand from the seed and the decisions
    the history states, and compare every card; return how many came after the deck."""
    from mazziere.game.core import HoleCardsDealt
    from mazziere.game.italian import HandStarted, ItalianHand
    from mazziere.history.phh import PHHError
    from mazziere.history.phh_italian import replay_italian

    try:
        written = replay_italian(fields)
    except PHHError as error:
        raise FairnessError(
            f"cards dealt after the reshuffle cannot be checked: the history does not replay "
            f"({error})"
        ) from None
    log = written.log
    started = log[0]
    assert isinstance(started, HandStarted)
    order, rng = deck_order(seed, written.rules, players=players)
    rebuilt = ItalianHand.from_setup(started.setup, deck=order, rng=rng)
    _replay_decisions(rebuilt, log)
    ours = [c for r in rebuilt.log if isinstance(r, HoleCardsDealt) for c in r.cards]
    theirs = [c for r in log if isinstance(r, HoleCardsDealt) for c in r.cards]
    for index, (card, expected) in enumerate(zip(theirs, ours, strict=False)):
        if card != expected:
            raise FairnessError(
                f"card {index + 1} dealt is {card}, but the seed deals {expected} there "
                "(after the reshuffle)"
            )
    if len(theirs) != len(ours):
        raise FairnessError(f"the history deals {len(theirs)} cards, the seed's hand {len(ours)}")
    return len(theirs) - deck_size


def _replay_decisions(hand: Any, log: Sequence[Any]) -> None:
    """Make on ``hand`` the decisions recorded in ``log`` (another deal of the same setup)."""
    from mazziere.game.core import Action, ActionKind, CardsMucked, CardsShown, Phase, PlayerActed
    from mazziere.game.italian import Discarded

    for record in log[1:]:
        action: Action | None = None
        if isinstance(record, PlayerActed | Discarded) and record.timed_out:
            action = Action.timeout()
        elif isinstance(record, PlayerActed):
            amount = record.to if record.kind in (ActionKind.BET, ActionKind.RAISE) else None
            action = Action(record.kind, amount)
        elif isinstance(record, Discarded):
            action = Action(ActionKind.DRAW, cards=tuple(c for c in record.cards if c is not None))
        elif (
            isinstance(record, CardsShown | CardsMucked)
            and hand.phase is Phase.SHOWDOWN
            and hand.actor == record.position
        ):
            action = Action(ActionKind.SHOW if isinstance(record, CardsShown) else ActionKind.MUCK)
        if action is not None:
            try:
                hand.apply(action, record.position)
            except ValueError as error:
                raise FairnessError(f"the seed's hand cannot follow the history: {error}") from None
