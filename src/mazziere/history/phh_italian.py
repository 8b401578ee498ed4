"""Poker all'italiana in PHH: read, replay and write hands (the extension of docs/phh-italian.md).

Variant codes ``NIC``/``PIC`` (italian-classic, no-limit/pot-limit) and
``NI32``/``PI32`` (italian-32); user fields ``_opening``, ``_carried_pot``,
``_carried_shares``, ``_parol_pot``, ``_dead_money``, ``_rake``, ``_rules``;
the verbs ``pN pl`` (parol, parole) and ``d oc pN`` (an odd chip); outputs
``finishing_stacks``, ``winnings``, ``_rake_taken`` and the ``_next_...`` fields.

>>> import random
>>> from mazziere.game.italian import ItalianHand
>>> hand = ItalianHand("italian-32", [900, 900], buio=50, rng=random.Random(5))
>>> _ = hand.fold()
>>> text = dumps_italian(hand)
>>> print(text.splitlines()[0])
variant = "NI32"
>>> replay_italian(loads(text)).result == hand.result
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal
from itertools import islice
from typing import Any

from mazziere.cards import Card, CardError, parse_cards
from mazziere.game.core import (
    ActionKind,
    CardsMucked,
    CardsShown,
    HandSetupError,
    HoleCardsDealt,
    IllegalActionError,
    Phase,
    PlayerActed,
    PotAwarded,
    Record,
)
from mazziere.game.italian import (
    Discarded,
    ItalianHand,
    PotCarried,
    StockReshuffled,
)
from mazziere.game.italian.stock import StockError
from mazziere.history.phh import PHHError, PhhHand, glued_cards
from mazziere.history.phh import loads as phh_loads
from mazziere.history.replay import Outcome
from mazziere.history.seen_italian import fillings, has_unknown_cards, reshuffled
from mazziere.rules import BettingStructure, Game, RuleSet, find_rules

__all__ = [
    "ITALIAN_VARIANTS",
    "PHHError",
    "dumps_italian",
    "loads",
    "replay_italian",
    "replay_outcome",
    "variant_code",
]

ITALIAN_VARIANTS: Mapping[str, tuple[str, BettingStructure]] = {
    "NIC": ("italian-classic", BettingStructure.NO_LIMIT),
    "PIC": ("italian-classic", BettingStructure.POT_LIMIT),
    "NI32": ("italian-32", BettingStructure.NO_LIMIT),
    "PI32": ("italian-32", BettingStructure.POT_LIMIT),
}
"""PHH variant code -> (rule set, betting structure)."""

_OPENING_NAMES = {"J": 11, "Q": 12, "K": 13, "A": 14}


def loads(text: str) -> PhhHand:
    """The fields of one PHH hand (:func:`mazziere.history.phh.loads`).

    >>> loads('variant = "NIC"')["variant"]
    'NIC'
    """
    return phh_loads(text)


def variant_code(rules: RuleSet, structure: BettingStructure) -> str:
    """The PHH variant code of an Italian hand.

    >>> variant_code(find_rules("italian-classic"), BettingStructure.POT_LIMIT)
    'PIC'
    """
    letter = "P" if structure is BettingStructure.POT_LIMIT else "N"
    return letter + ("IC" if rules.uses_invito else "I32")


# ------------------------------------------------------------------- reading


def _ints(
    fields: Mapping[str, Any], name: str, n: int | None, default: int | None = None
) -> list[int]:
    value = fields.get(name)
    if value is None:
        if default is None or n is None:
            raise PHHError(f"the field {name!r} is required")
        return [default] * n
    if not isinstance(value, list) or (n is not None and len(value) != n):
        size = f"{n} " if n is not None else ""
        raise PHHError(f"{name!r} must be an array of {size}whole chip amounts")
    for item in value:
        if isinstance(item, bool) or not isinstance(item, int) or item < 0:
            raise PHHError(f"{name!r} holds {item!r}: chips are whole numbers, never negative")
    return list(value)


def _int(fields: Mapping[str, Any], name: str, default: int | None = None) -> int:
    value = fields.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        if value is None:
            raise PHHError(f"the field {name!r} is required")
        raise PHHError(f"{name!r} must be a whole chip amount, not {value!r}")
    return value


def _bool(fields: Mapping[str, Any], name: str, default: bool) -> bool:
    value = fields.get(name, default)
    if not isinstance(value, bool):
        raise PHHError(f"{name!r} must be true or false, not {value!r}")
    return value


def _cards(text: str, where: str) -> list[Card]:
    if "?" in text:
        raise PHHError(f"{where}: Italian hands replay with every card known, not {text!r}")
    try:
        return parse_cards(text)
    except CardError as error:
        raise PHHError(f"{where}: {error}") from None


def _setup_arguments(fields: Mapping[str, Any]) -> tuple[RuleSet, dict[str, Any]]:
    code = fields.get("variant")
    if not isinstance(code, str) or code not in ITALIAN_VARIANTS:
        known = ", ".join(ITALIAN_VARIANTS)
        raise PHHError(f"variant {code!r} is not Poker all'italiana (known: {known})")
    name, structure = ITALIAN_VARIANTS[code]
    rules_name = fields.get("_rules", name)
    try:
        rules = find_rules(rules_name)
    except ValueError as error:
        raise PHHError(str(error)) from None
    if rules.game is not Game.ITALIAN or rules.uses_invito != find_rules(name).uses_invito:
        raise PHHError(f"the rule set {rules.name!r} does not fit the variant {code!r}")
    stacks = _ints(fields, "starting_stacks", None)
    n = len(stacks)
    antes = _ints(fields, "antes", n)
    if len(set(antes)) > 1:
        raise PHHError(f"every player posts the same invito, not {antes}")
    blinds = _ints(fields, "blinds_or_straddles", n)
    buio = blinds[0]
    posts = [0] * n
    if rules.forced_blinds:
        expected = [buio * m for m in rules.forced_blinds.get(n, ())]
        if blinds[: len(expected)] != expected:
            raise PHHError(f"{rules.name} blinds with {n} players are {expected}, not {blinds}")
        posts = [0] * len(expected) + blinds[len(expected) :]
    elif any(blinds):
        raise PHHError(f"{rules.name} has no forced blinds: the blind opening is an action")
    opening = fields.get("_opening", "J")
    ladder = [int(rank) for rank in rules.opening_ladder]
    if opening not in _OPENING_NAMES or (ladder and _OPENING_NAMES[opening] not in ladder):
        raise PHHError(f"'_opening' must be one of the ladder's ranks, not {opening!r}")
    level = ladder.index(_OPENING_NAMES[opening]) if ladder else 0
    arguments: dict[str, Any] = {
        "stacks": stacks,
        "invito": antes[0],
        "buio": buio if rules.forced_blinds else 0,
        "min_bet": _int(fields, "min_bet"),
        "structure": structure,
        "opening_level": level,
        "parol_pot": _bool(fields, "_parol_pot", False),
        "carried_pot": _int(fields, "_carried_pot", 0),
        "carried_shares": _ints(fields, "_carried_shares", n, 0),
        "dead_money": _ints(fields, "_dead_money", n, 0),
        "posts": posts,
        "rake": _bool(fields, "_rake", True),
    }
    return rules, arguments


def _parse_line(line: str) -> list[str]:
    return line.split("#", 1)[0].split()


def _player(token: str, n: int, where: str) -> int:
    if not (token.startswith("p") and token[1:].isdigit() and 1 <= int(token[1:]) <= n):
        raise PHHError(f"{where}: {token!r} is not a player (p1 to p{n})")
    return int(token[1:]) - 1


def replay_italian(fields: Mapping[str, Any], *, seen_from_one_seat: bool = False) -> ItalianHand:
    """Replay one Italian PHH hand; every rule is checked, and so are the outputs it states.

    With ``seen_from_one_seat``, a hand whose unknown cards are written ``??`` (a room's
    download: what one player saw) is replayed with them filled by
    :func:`~mazziere.history.seen_italian.fillings`, and must come out as the outcome it
    states; without it, such a hand is refused (its cards would be made up).

    Raises :class:`PHHError` naming the action that breaks a rule.
    """
    rules, arguments = _setup_arguments(fields)
    n = len(arguments["stacks"])
    lines = fields.get("actions")
    if not isinstance(lines, list) or not all(isinstance(a, str) for a in lines):
        raise PHHError("'actions' must be an array of strings")
    if not (seen_from_one_seat and has_unknown_cards(lines)):
        return _replay_actions(fields, rules, arguments, lines)
    if "finishing_stacks" not in fields:
        raise PHHError("a hand seen from one seat replays only with its outcome stated")
    if reshuffled(lines, rules, players=n):
        raise PHHError(
            "seen from one seat, a hand whose stock ran out (the discards shuffled into a new "
            "one) cannot be replayed: which cards came back this seat did not see"
        )
    failure = PHHError("no card to fill")
    fills = fillings(
        lines,
        rules,
        players=n,
        level=arguments["opening_level"],
        parol_pot=arguments["parol_pot"],
    )
    for filled in islice(fills, _FILLINGS_TRIED):
        try:
            return _replay_actions(fields, rules, arguments, filled)
        except PHHError as error:
            failure = error
    raise PHHError(f"no filling of the cards this seat did not see replays the hand: {failure}")


_FILLINGS_TRIED = 27
"""How many fillings of a hand seen from one seat are replayed before giving up."""


def _replay_actions(
    fields: Mapping[str, Any], rules: RuleSet, arguments: dict[str, Any], lines: list[str]
) -> ItalianHand:
    """Replay the hand's actions (every card known)."""
    n = len(arguments["stacks"])
    deals: list[tuple[int, tuple[Card, ...]]] = []
    odd_chips: list[int] = []
    steps: list[tuple[bool, str, list[str]]] = []
    for index, line in enumerate(lines):
        where = f"action {index + 1} ({line.strip()!r})"
        words = _parse_line(line)
        if not words:
            continue
        if words[0] == "d":
            if len(words) >= 3 and words[1] == "dh":
                position = _player(words[2], n, where)
                cards = _cards("".join(words[3:]), where) if len(words) > 3 else []
                if not cards:
                    raise PHHError(f"{where}: the dealer deals at least one card")
                deals.append((position, tuple(cards)))
            elif len(words) == 3 and words[1] == "oc":
                odd_chips.append(_player(words[2], n, where))
            else:
                raise PHHError(f"{where}: not a dealer action of Italian poker")
            continue
        steps.append((bool(deals), where, words))
    if len(deals) >= n:
        first = deals[:n]
        if [p for p, _ in first] != list(range(n)) or any(len(c) != 5 for _, c in first):
            raise PHHError("the deal gives five cards to p1, p2, ... in order")
        order = [first[p][1][k] for k in range(5) for p in range(n)]
        order += [card for _, cards in deals[n:] for card in cards]
    elif deals:
        raise PHHError(f"the deal gives five cards to each of the {n} players")
    else:
        order = []
    try:
        hand = ItalianHand(rules, deck=order, odd_chips=odd_chips, ask_show=True, **arguments)
    except (HandSetupError, StockError, ValueError) as error:
        raise PHHError(f"cannot set up the hand: {error}") from None
    for after_deal, where, words in steps:
        before_deal = hand.phase is Phase.DEALING
        if before_deal and after_deal:
            raise PHHError(f"{where}: p{(hand.actor or 0) + 1} decides the blind before the deal")
        if not before_deal and not after_deal:
            raise PHHError(f"{where}: no blind opening now (only at the Jacks level, with chips)")
        try:
            _apply(hand, words, n, where)
        except (IllegalActionError, StockError, HandSetupError) as error:
            raise PHHError(f"{where}: {error}") from None
    while hand.phase is Phase.SHOWDOWN and hand.actor is not None:
        hand.timeout()  # a choice the history does not state: muck if allowed
    _check_deals(hand, deals)
    if hand.is_over:
        _check_outputs(hand, fields)
    return hand


def _apply(hand: ItalianHand, words: list[str], n: int, where: str) -> None:
    position = _player(words[0], n, where)
    if len(words) < 2:
        raise PHHError(f"{where}: an action needs a verb")
    verb, rest = words[1], words[2:]
    if verb == "sm":
        _show_or_muck(hand, position, rest, where)
        return
    if hand.is_over:
        raise PHHError(f"{where}: the hand is over")
    if verb == "f" and not rest:
        hand.fold(position)
    elif verb == "cc" and not rest:
        if hand.phase is Phase.DEALING or hand.can_check(position):
            hand.check(position)
        else:
            hand.call(position)
    elif verb == "cbr" and len(rest) == 1:
        if not rest[0].isdigit():
            raise PHHError(f"{where}: amounts are whole chips, not {rest[0]!r}")
        amount = int(rest[0])
        blind_raise = hand.phase is Phase.DEALING and bool(hand.blind_raisers)
        if blind_raise or (hand.phase is Phase.BETTING and hand.current_bet):
            hand.raise_to(amount, position)
        else:
            hand.bet(amount, position)
    elif verb == "pl" and not rest:
        hand.parol(position)
    elif verb == "sd":
        hand.draw(_cards("".join(rest), where) if rest else (), position)
    else:
        raise PHHError(f"{where}: not an action of Italian poker")


def _show_or_muck(hand: ItalianHand, position: int, rest: list[str], where: str) -> None:
    """``pN sm <cards>`` / ``pN sm``: a choice when asked, else a hand shown automatically."""
    shown = _cards("".join(rest), where) if rest else None
    if hand.phase is Phase.SHOWDOWN and hand.actor == position:
        if shown is None:
            hand.muck(position)
        else:
            hand.show(position)
    elif shown is None or position not in hand.shown:
        raise PHHError(f"{where}: p{position + 1} is not asked to show or muck now")
    if shown is not None and set(shown) != set(hand.hole[position]):
        held = "".join(map(str, hand.hole[position]))
        raise PHHError(f"{where}: p{position + 1} holds {held}")


def _check_deals(hand: ItalianHand, deals: Sequence[tuple[int, tuple[Card, ...]]]) -> None:
    dealt = [(r.position, r.cards) for r in hand.log if isinstance(r, HoleCardsDealt)]
    written = [(p, tuple(c)) for p, c in deals]
    if dealt[: len(written)] != written or len(written) > len(dealt):
        for (p, cards), (q, given) in zip(dealt, written, strict=False):
            if (p, cards) != (q, given):
                got = "".join(map(str, cards))
                raise PHHError(
                    f"the history deals {''.join(map(str, given))} to p{q + 1}, but the rules "
                    f"deal {got} to p{p + 1} at that point"
                )
        raise PHHError("the history deals more cards than the hand uses")


def _check_outputs(hand: ItalianHand, fields: Mapping[str, Any]) -> None:
    for name, value in _outputs(hand).items():
        if name in fields and fields[name] != value:
            raise PHHError(f"{name!r} is {fields[name]!r}, but the hand gives {value!r}")
    if "_next_opening" in fields and hand.carry.opening is None:
        raise PHHError("'_next_opening' is given, but this game has no opening requirement")


def _outputs(hand: ItalianHand) -> dict[str, Any]:
    """What the hand gave, as the fields that state it."""
    result = hand.result
    assert result is not None
    winnings = [0] * hand.n
    for record in hand.log:
        if isinstance(record, PotAwarded):
            for winner, share in zip(record.winners, record.shares, strict=True):
                winnings[winner] += share
    carry = hand.carry
    outputs: dict[str, Any] = {
        "finishing_stacks": list(result.stacks),
        "winnings": winnings,
        "_rake_taken": result.rake,
        "_next_pot": carry.pot,
    }
    if carry.opening is not None:
        outputs["_next_opening"] = carry.opening.symbol
    outputs |= {
        "_next_parol_pot": carry.parol_pot,
        "_next_shares": list(carry.shares),
        "_next_parol_players": [p + 1 for p in carry.parol_players],
        "_next_rejoin": list(carry.rejoin),
    }
    return outputs


def replay_outcome(hand: PhhHand) -> Outcome:
    """The replay registry's entry for the Italian variant codes (``mazziere replay``).

    >>> from mazziere.history.replay import replay_hand
    >>> dead_hand = loads('''variant = "NIC"
    ... antes = [10, 10]
    ... blinds_or_straddles = [0, 0]
    ... min_bet = 10
    ... starting_stacks = [100, 100]
    ... actions = ["p1 cc", "d dh p1 9h9dTcKsQh", "d dh p2 AhAdKcQsJh", "p1 cc", "p2 cc"]
    ... ''')
    >>> [str(v) for v in replay_hand(dead_hand).payoffs]
    ['-10', '-10']
    """
    played = replay_italian(hand, seen_from_one_seat=True)
    result = played.result
    if result is None:
        raise PHHError("the history stops before the end of the hand")
    return Outcome(
        finishing_stacks=tuple(Decimal(s) for s in result.stacks),
        payoffs=tuple(Decimal(p) for p in result.payoffs),
    )


# ------------------------------------------------------------------- writing


def _toml(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        escaped = value.replace("\\", "\\\\").replace('"', '\\"')
        return f'"{escaped}"'
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    if isinstance(value, Mapping):
        return "{ " + ", ".join(f"{k} = {_toml(v)}" for k, v in value.items()) + " }"
    raise TypeError(f"cannot write {value!r} in TOML")


def action_lines(hand: ItalianHand) -> list[tuple[str, str]]:
    """The hand's log as PHH actions: ``(action, commentary)`` pairs."""
    lines: list[tuple[str, str]] = []
    dealt = False
    for record in hand.log:
        lines.extend(_record_lines(record, dealt))
        dealt = dealt or isinstance(record, HoleCardsDealt)
    return lines


def _record_lines(record: Record, dealt: bool) -> list[tuple[str, str]]:
    if isinstance(record, HoleCardsDealt):
        return [(f"d dh p{record.position + 1} {glued_cards(record.cards)}", "")]
    if isinstance(record, PlayerActed):
        who = f"p{record.position + 1}"
        note = "timeout" if record.timed_out else ""
        kind = record.kind
        if kind is ActionKind.FOLD:
            return [(f"{who} f", note)]
        if kind in (ActionKind.CHECK, ActionKind.CALL):
            if not dealt:
                note = note or "no blind"
            return [(f"{who} cc", note)]
        if kind is ActionKind.PAROL:
            return [(f"{who} pl", note)]
        if not dealt:
            note = "blind opening"
        return [(f"{who} cbr {record.to}", note)]
    if isinstance(record, Discarded):
        text = f"p{record.position + 1} sd"
        if record.cards:
            text += " " + glued_cards(record.cards)
        return [(text, "timeout" if record.timed_out else "")]
    if isinstance(record, StockReshuffled):
        return [("", f"reshuffle: {glued_cards(record.cards)} shuffled into a new stock")]
    if isinstance(record, CardsShown):
        return [(f"p{record.position + 1} sm {glued_cards(record.cards)}", "")]
    if isinstance(record, CardsMucked):
        return [(f"p{record.position + 1} sm", "")]
    if isinstance(record, PotAwarded) and len(set(record.shares)) > 1:
        low = min(record.shares)
        return [
            (f"d oc p{winner + 1}", "odd chip")
            for winner, share in zip(record.winners, record.shares, strict=True)
            if share > low
        ]
    if isinstance(record, PotCarried):
        why = "parol: the pot is carried" if record.parol else "dead hand: the pot is carried"
        return [("", why)]
    return []


def dumps_italian(hand: ItalianHand, *, extra: Mapping[str, object] | None = None) -> str:
    """The hand as PHH text (TOML), with its outputs if it is over.

    ``extra``: more fields to write (``players``, ``table``, ...).
    """
    setup = hand.setup
    stakes, carried = setup.stakes, setup.carried
    rules = hand.rules
    n = hand.n
    blinds = [0] * n
    for position, amount in enumerate(hand.blinds):
        blinds[position] = amount
    for position, amount in enumerate(carried.posts):
        blinds[position] += amount
    fields: dict[str, object] = {
        "variant": variant_code(rules, stakes.structure),
        "antes": [stakes.invito] * n,
        "blinds_or_straddles": blinds,
        "min_bet": stakes.min_bet,
        "starting_stacks": list(setup.stacks),
    }
    if rules.uses_invito:
        fields["ante_trimming_status"] = True
    base = "italian-classic" if rules.uses_invito else "italian-32"
    if rules.name != base:
        fields["_rules"] = rules.name
    if rules.opening_ladder:
        fields["_opening"] = rules.opening_ladder[
            min(carried.opening_level, len(rules.opening_ladder) - 1)
        ].symbol
    if carried.parol_pot:
        fields["_parol_pot"] = True
    if carried.pot:
        fields["_carried_pot"] = carried.pot
    if any(carried.shares):
        fields["_carried_shares"] = list(carried.shares)
    if any(carried.dead_money):
        fields["_dead_money"] = list(carried.dead_money)
    if not stakes.rake and rules.rake_per_unit:
        fields["_rake"] = False
    fields.update(extra or {})
    out = [f"{key} = {_toml(value)}" for key, value in fields.items()]
    out.append("actions = [")
    for action, note in action_lines(hand):
        if action:
            out.append(f"  {_toml(action)},{'  # ' + note if note else ''}")
        else:
            out.append(f"  # {note}")
    out.append("]")
    if hand.is_over:
        out.extend(f"{key} = {_toml(value)}" for key, value in _outputs(hand).items())
    return "\n".join(out) + "\n"
