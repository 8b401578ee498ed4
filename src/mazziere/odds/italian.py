"""The Italian draw's odds: every way to change 0 to 4 cards, exactly, all at once.

For five cards of either profile and a deck (italian-classic: by the players
dealt in), :func:`draw_odds` enumerates, for each of the 31 ways to keep some
cards and change the others, every set of new cards the unseen cards can
give, evaluates all of them in one numpy batch, and reports for each way:

* ``categories``: the exact probability of each category after the draw;
* ``share``: the final hand's expected share of the deck's five-card hands
  that it beats (a strength from 0 to 1; the ranking's default order);
* ``beats_hand``: with ``beat=``, the exact probability of beating that known
  hand (its cards are not in the stock);
* ``beats_opener``: with ``opener=`` (the current minimum pair), the
  probability of beating a hand that can open at that minimum: every such
  hand of the unseen cards equally likely.  Our own cards are out of it;
  the new cards we draw are not taken out of the opener's hand (their
  effect on it is left out).
* ``beats_opener_after_draw``: with ``opener=`` and ``opener_drew=k``, the
  exact probability of beating the opener's final hand after they changed
  ``k`` cards.  Their hand before the draw is any hand of the unseen cards
  that can open at the minimum and of which a sensible player changes ``k``
  cards (the model: :func:`~mazziere.odds.discards.italian_discards`, the
  basic bot's draw: keep pairs, trips and two pair, stand pat on a straight
  or better, ...), all equally likely; their new cards are any ``k`` of the
  unseen cards not in it (their discards do not come back), equally likely;
  as above, our own new cards are not taken out of theirs.  No opening hand
  changing ``k`` cards (an opener never changes four in the model): a
  ``ValueError``.

The unseen cards are the deck less our five and any ``dead`` cards; our own
discards never come back (RULES.md: the drawer's discards are not in the
stock).  Suits break every tie, so there are no ties, and in italian-classic
the ace-low straight flush beats the ace-high one.

>>> odds = draw_odds("J♥J♦9♣8♠7♠", "italian-classic", players=4)
>>> len(odds.options), odds.options[0].discard_text
(31, '9♣ 8♠ 7♠')
>>> round(odds.options[0].categories["three_of_a_kind"], 4), odds.options[0].draws
(0.1826, 2925)
>>> stand = odds.option(())
>>> stand.categories["pair"], stand.draws
(1.0, 1)
>>> sum(odds.options[5].categories.values())
1.0
>>> after = draw_odds("J♥J♦9♣8♠7♠", "italian-classic", players=4, opener=11, opener_drew=3)
>>> after.options[0].discard_text, round(after.options[0].beats_opener_after_draw, 4)
('9♣ 8♠ 7♠', 0.325)
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

from mazziere.cards import Card, Rank, WrongCardCountError, format_cards, parse_cards
from mazziere.evaluate import (
    ITALIAN_KEY,
    ITALIAN_RANK_SHIFT,
    ITALIAN_SUIT_SHIFT,
    Ranking,
    StraightFlushClass,
    evaluate_batch,
    italian_strengths_of_sums,
    ranking_for,
)
from mazziere.game.italian.rules import OpeningTest
from mazziere.odds.combinatorics import combinations
from mazziere.odds.discards import italian_discards
from mazziere.rules import Game, RuleSet, find_rules

if TYPE_CHECKING:
    import numpy.typing as npt

__all__ = ["DrawOdds", "DrawOption", "draw_odds"]

_T = TypeVar("_T")
_N = TypeVar("_N", np.int64, np.float64)


@dataclass(frozen=True, slots=True)
class DrawOption:
    """One way to draw: the cards changed, and what the draw makes, exactly."""

    discard: tuple[Card, ...]
    keep: tuple[Card, ...]
    draws: int
    """How many sets of new cards were enumerated (all equally likely)."""
    categories: dict[str, float]
    """Probability of each category after the draw (the rule set's categories, best first)."""
    share: float
    """Expected share of the deck's five-card hands the final hand beats."""
    beats_hand: float | None = None
    beats_opener: float | None = None
    beats_opener_after_draw: float | None = None
    """With ``opener=`` and ``opener_drew=k``: the chance to beat the opener after changing k."""

    @property
    def discard_text(self) -> str:
        """The cards changed, with suit symbols (``servito``: none)."""
        return format_cards(self.discard, pretty=True)

    def to_dict(self) -> dict[str, Any]:
        """Plain data: what ``mazziere odds italian-... --json`` lists for each option."""
        payload: dict[str, Any] = {
            "discard": [Card(c).pretty() for c in self.discard],
            "keep": [Card(c).pretty() for c in self.keep],
            "draws": self.draws,
            "categories": self.categories,
            "share": self.share,
        }
        if self.beats_hand is not None:
            payload["beats_hand"] = self.beats_hand
        if self.beats_opener is not None:
            payload["beats_opener"] = self.beats_opener
        if self.beats_opener_after_draw is not None:
            payload["beats_opener_after_draw"] = self.beats_opener_after_draw
        return payload


@dataclass(frozen=True, slots=True)
class DrawOdds:
    """All 31 ways to draw, best first: by ``beats_hand``, else ``beats_opener_after_draw``,
    else ``beats_opener``, else ``share``."""

    rules: str
    players: int | None
    hand: tuple[Card, ...]
    options: tuple[DrawOption, ...]

    def option(self, discard: Sequence[int | str] | str) -> DrawOption:
        """The option that changes exactly these cards.

        >>> round(draw_odds("Ah Kh Qh Jh 7s", "italian-32").option("7s").categories["flush"], 4)
        0.1111
        """
        wanted = frozenset(parse_cards(discard))
        for option in self.options:
            if frozenset(option.discard) == wanted:
                return option
        raise ValueError(f"no option changes exactly {format_cards(wanted)}")

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON."""
        return {
            "rules": self.rules,
            "players": self.players,
            "hand": [c.pretty() for c in self.hand],
            "options": [o.to_dict() for o in self.options],
        }


@dataclass(frozen=True, slots=True)
class _Order:
    """Per strength of a ranking: its category's index, and the straight-flush classes."""

    category: npt.NDArray[np.int8]
    minima: npt.NDArray[np.bool_]
    massima: npt.NDArray[np.bool_]
    cycle: bool
    """Whether the minima beats the massima (italian-classic)."""


_CACHE: dict[tuple[object, ...], tuple[RuleSet, Any]] = {}


def _cached(rules: RuleSet, key: tuple[object, ...], build: Callable[[], _T]) -> _T:
    """Tables built once per rule set (by name and identity: rule sets are not hashable)."""
    full_key = (rules.name, *key)
    hit = _CACHE.get(full_key)
    if hit is None or hit[0] is not rules:
        hit = _CACHE[full_key] = (rules, build())
    value: _T = hit[1]
    return value


def _order(rules: RuleSet, ranking: Ranking) -> _Order:
    def build() -> _Order:
        categories = rules.category_order
        strengths = range(ranking.size + 1)
        classes = [ranking.straight_flush_class(s) for s in strengths]
        return _Order(
            np.array([categories.index(ranking.category(s)) for s in strengths], dtype=np.int8),
            np.array([c is StraightFlushClass.MINIMA for c in classes]),
            np.array([c is StraightFlushClass.MASSIMA for c in classes]),
            rules.straight_flush_minima_beats_massima,
        )

    return _cached(rules, ("order", ranking.lowest_rank), build)


def _beaten_table(field: npt.NDArray[np.int32], order: _Order) -> npt.NDArray[np.int64]:
    """For each strength, how many of the hands of ``field`` (their strengths) it beats."""
    return _beaten_of_counts(np.bincount(field, minlength=len(order.category)), order)


def _beaten_of_counts(counts: npt.NDArray[_N], order: _Order) -> npt.NDArray[_N]:
    """For each strength, the part of a field (its count, or weight, of each strength) it beats."""
    beaten = np.cumsum(counts) - counts  # the hands below
    if order.cycle:
        # The minima beats every massima, also those above it; a massima
        # loses to every minima, also those below it.
        massima = np.where(order.massima, counts, 0)
        minima = np.where(order.minima, counts, 0)
        massima_above = massima.sum() - np.cumsum(massima)
        minima_below = np.cumsum(minima) - minima
        beaten = beaten + np.where(order.minima, massima_above, 0)
        beaten = beaten - np.where(order.massima, minima_below, 0)
    return beaten


def _deck_hands(rules: RuleSet, players: int | None) -> npt.NDArray[np.int64]:
    deck = np.array(list(rules.deck(players)), dtype=np.int64)
    return deck[combinations(len(deck), 5)]


def _deck_field(rules: RuleSet, players: int | None) -> tuple[npt.NDArray[np.int64], int]:
    """How many of the deck's hands each strength beats, and how many hands there are."""

    def build() -> tuple[npt.NDArray[np.int64], int]:
        ranking = ranking_for(rules, players)
        strengths = evaluate_batch(_deck_hands(rules, players), rules=rules, players=players)
        return _beaten_table(strengths, _order(rules, ranking)), len(strengths)

    return _cached(rules, ("field", rules.lowest_rank(players)), build)


def _opening_hands(
    rules: RuleSet, players: int | None, minimum: Rank
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.uint64], npt.NDArray[np.int32]]:
    """Every hand of the deck that can open at ``minimum``: its cards, card masks, strengths."""

    def build() -> tuple[npt.NDArray[np.int64], npt.NDArray[np.uint64], npt.NDArray[np.int32]]:
        test = OpeningTest.of(rules, players=players or 4, minimum=minimum)
        hands = _deck_hands(rules, players)
        plain, _, first, group = _rank_groups(hands)
        # Without four cards of a suit the answer depends on the ranks alone
        # (OpeningTest's own shortcut): asked once per multiset of ranks.
        opens = np.zeros(len(hands), dtype=bool)
        opens[plain] = np.array([test(hands[plain[i]].tolist()) for i in first.tolist()])[group]
        for row in _others(len(hands), plain):
            opens[row] = test(hands[row].tolist())
        chosen = hands[opens]
        return chosen, _masks(chosen), evaluate_batch(chosen, rules=rules, players=players)

    return _cached(rules, ("openers", rules.lowest_rank(players), int(minimum)), build)


def _masks(hands: npt.NDArray[np.int64]) -> npt.NDArray[np.uint64]:
    """The card mask (bit ``card`` set) of each row of cards."""
    bits = np.left_shift(np.uint64(1), hands.astype(np.uint64))
    masks: npt.NDArray[np.uint64] = np.bitwise_or.reduce(bits, axis=1)
    return masks


def _openers(
    rules: RuleSet, players: int | None, minimum: Rank
) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.int32]]:
    """Every hand of the deck that can open at ``minimum``: card masks and strengths."""
    _, masks, strengths = _opening_hands(rules, players, minimum)
    return masks, strengths


def _opener_draws(
    rules: RuleSet, players: int | None, minimum: Rank
) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.int64]]:
    """For each opening hand (:func:`_opening_hands`), which of its cards the model changes.

    The model is :func:`~mazziere.odds.discards.italian_discards`.  Without
    four cards of a suit its choice depends on the ranks alone (and every
    rank it throws is held once), so it is asked once per multiset of ranks
    and the answer spread to every hand with those ranks; the others are
    asked one by one.  Returns a ``(n, 5)`` mask of the cards changed and
    how many they are.
    """

    def build() -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.int64]]:
        hands, _, _ = _opening_hands(rules, players, minimum)
        model_players = players or 4
        thrown = np.zeros(hands.shape, dtype=bool)
        plain, ranks, first, group = _rank_groups(hands)
        thrown_ranks = np.zeros(len(ranks), dtype=np.int64)
        for i, row in enumerate(first.tolist()):
            for card in italian_discards(hands[plain[row]].tolist(), rules, model_players):
                thrown_ranks[i] |= 1 << (card >> 2)
        thrown[plain] = ((thrown_ranks[group][:, None] >> (hands[plain] >> 2)) & 1) == 1
        for row in _others(len(hands), plain):
            changed = set(italian_discards(hands[row].tolist(), rules, model_players))
            thrown[row] = [card in changed for card in hands[row].tolist()]
        return thrown, thrown.sum(axis=1)

    return _cached(rules, ("opener draws", rules.lowest_rank(players), int(minimum)), build)


def _rank_groups(
    hands: npt.NDArray[np.int64],
) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.int64], npt.NDArray[np.intp], npt.NDArray[np.intp]]:
    """The hands without four cards of a suit, grouped by their multiset of ranks.

    Returns the rows of those hands, each group's rank part, the first of
    those rows (as an index into them) of each group, and each one's group.
    """
    sums = np.take(np.array(ITALIAN_KEY, dtype=np.int64), hands).sum(axis=1)
    suit_counts = (sums >> ITALIAN_SUIT_SHIFT) & 4095
    four_of_a_suit = np.zeros(len(hands), dtype=bool)
    for suit in range(4):
        four_of_a_suit |= ((suit_counts >> (3 * suit)) & 7) >= 4
    plain = np.flatnonzero(~four_of_a_suit)
    ranks, first, group = np.unique(
        sums[plain] >> ITALIAN_RANK_SHIFT, return_index=True, return_inverse=True
    )
    return plain, ranks, first, group.ravel()


def _others(count: int, rows: npt.NDArray[np.intp]) -> list[int]:
    """The rows below ``count`` that are not in ``rows``."""
    left = np.ones(count, dtype=bool)
    left[rows] = False
    return np.flatnonzero(left).tolist()


def _subset_codes(
    cards: npt.NDArray[np.intp], groups: npt.NDArray[np.intp], base: int
) -> list[tuple[int, npt.NDArray[np.int64]]]:
    """A code for each subset of each row's cards, tagged with the row's group: (sign, codes).

    ``cards`` is ``(..., k)`` (indices below ``base``, increasing along a
    row), ``groups`` the group of each row; the sign is ``(-1) ** size``.
    """
    k = cards.shape[-1]
    results = []
    for chosen in range(1 << k):
        picked = [t for t in range(k) if chosen >> t & 1]
        code = (groups.astype(np.int64) * (k + 1) + len(picked)) * base**k
        for place, t in enumerate(picked):
            code = code + cards[..., t].astype(np.int64) * base**place
        results.append((-1 if len(picked) % 2 else 1, code))
    return results


def _after_draw_field(
    rules: RuleSet,
    players: int | None,
    minimum: Rank,
    *,
    drew: int,
    known: set[Card],
    unseen: npt.NDArray[np.int64],
    order: _Order,
) -> tuple[npt.NDArray[np.int64], int]:
    """The opener's final hand after changing ``drew`` cards: how often each strength arises.

    Their hand before the draw is any hand of the unseen cards that opens at
    ``minimum`` and of which the model changes ``drew`` cards, all equally
    likely; the new cards are any ``drew`` of the unseen cards not in it,
    equally likely.  Returns the count of each strength among all the
    (hand, new cards) pairs, and their number.  Enumerated exactly, grouped
    by the cards kept: the
    final hand "kept + new" arises from as many hands of the group as have
    changed no card among the new ones, counted by inclusion and exclusion
    (for each subset of the new cards, the hands that changed all of it).
    """
    hands, masks, _ = _opening_hands(rules, players, minimum)
    thrown, changed = _opener_draws(rules, players, minimum)
    valid = ((masks & _mask(list(known))) == 0) & (changed == drew)
    if not valid.any():
        raise ValueError(
            f"no hand that opens at {Rank(minimum).name_it} changes {drew} "
            f"card{'s' if drew != 1 else ''} (the model of an opener's draw)"
        )
    hands, thrown = hands[valid], thrown[valid]
    local = np.full(64, -1, dtype=np.intp)
    local[unseen] = np.arange(len(unseen))
    base = len(unseen)
    kept_masks = np.bitwise_or.reduce(
        np.where(thrown, np.uint64(0), np.left_shift(np.uint64(1), hands.astype(np.uint64))),
        axis=1,
    )
    kept_groups, group_of = np.unique(kept_masks, return_inverse=True)
    group_of = group_of.ravel()
    hands_thrown = local[hands[thrown].reshape(len(hands), drew)]
    # How many hands of each group changed each subset of cards.
    codes = np.concatenate([code for _, code in _subset_codes(hands_thrown, group_of, base)])
    known_codes, counts = np.unique(codes, return_counts=True)
    # The new cards each group may draw: any ``drew`` of the unseen cards it did not keep.
    in_kept = ((kept_groups[:, None] >> unseen.astype(np.uint64)[None, :]) & np.uint64(1)) == 1
    available = np.nonzero(~in_kept)[1].reshape(len(kept_groups), -1)
    new = available[:, combinations(available.shape[1], drew).astype(np.intp)]  # (G, C, drew)
    groups = np.broadcast_to(np.arange(len(kept_groups))[:, None], new.shape[:2])
    weights = np.zeros(new.shape[:2], dtype=np.int64)
    for sign, code in _subset_codes(new, groups, base):
        at = np.minimum(np.searchsorted(known_codes, code), len(known_codes) - 1)
        weights += sign * np.where(known_codes[at] == code, counts[at], 0)
    keys = np.array(ITALIAN_KEY, dtype=np.int64)
    kept_cards = np.where(thrown, 0, np.take(keys, hands))
    kept_sums = np.zeros(len(kept_groups), dtype=np.int64)
    kept_sums[group_of] = kept_cards.sum(axis=1)
    totals = kept_sums[:, None] + np.take(np.take(keys, unseen), new).sum(axis=-1)
    strengths = italian_strengths_of_sums(totals.ravel(), rules=rules, players=players)
    # Counted in integers (bincount's weights are floats: add them as repeats).
    field = np.zeros(len(order.category), dtype=np.int64)
    np.add.at(field, strengths, weights.ravel())
    # Each hand draws from the unseen cards less its five: the counts sum to
    # hands x draws, the number of (hand, new cards) pairs.
    return field, len(hands) * math.comb(len(unseen) - 5, drew)


def _mask(cards: Sequence[int]) -> np.uint64:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return np.uint64(mask)


def draw_odds(
    hand: str | Sequence[int],
    rules: str | RuleSet = "italian-classic",
    *,
    players: int | None = None,
    dead: str | Sequence[int] = "",
    beat: str | Sequence[int] | None = None,
    opener: Rank | int | None = None,
    opener_drew: int | None = None,
) -> DrawOdds:
    """The odds of every way to draw (see the module's docstring), best first.

    ``players`` (dealt in) sets the italian-classic deck; italian-32 needs none.
    ``opener_drew`` (with ``opener``): how many cards the opener changed.
    """
    rule_set = find_rules(rules)
    if rule_set.game is not Game.ITALIAN:
        raise ValueError(f"{rule_set.name} has no draw")
    cards = parse_cards(hand)
    if len(cards) != 5:
        raise WrongCardCountError(f"an Italian hand has 5 cards, not {len(cards)}")
    deck = rule_set.deck(players)
    dead_cards = parse_cards(dead)
    target = parse_cards(beat) if beat is not None else []
    if beat is not None and len(target) != 5:
        raise WrongCardCountError(f"the hand to beat has 5 cards, not {len(target)}")
    if opener_drew is not None and (opener is None or not 0 <= opener_drew <= rule_set.draw_max):
        raise ValueError(
            "opener_drew needs opener= and is a number of cards from 0 to "
            f"{rule_set.draw_max} (the most a player may change)"
        )
    parse_cards([*cards, *dead_cards, *target])  # no card twice
    deck.check([*cards, *dead_cards, *target])
    ranking = ranking_for(rule_set, players)
    order = _order(rule_set, ranking)
    known = {*cards, *dead_cards, *target}
    unseen = np.array([c for c in deck if c not in known], dtype=np.int64)

    # Each option's final hands as sums of card keys: the kept cards' sum (one
    # number) plus each set of new cards' sum, made once per number of cards
    # changed and shared by the options that change that many.  What is kept
    # of the outcomes is their histogram over the strengths: every figure
    # below is that histogram times a table of the strengths.
    limit = min(rule_set.draw_max, 4)
    if len(unseen) < limit:
        raise ValueError(
            f"too few cards left for the draw: {limit} needed, only {len(unseen)} of the "
            f"{len(deck)}-card deck not dead or in a hand"
        )
    options = [d for k in range(limit + 1) for d in itertools.combinations(range(5), k)]
    keys = np.array(ITALIAN_KEY, dtype=np.int64)
    unseen_keys = np.take(keys, unseen)
    new_sums = []
    for k in range(limit + 1):
        table = combinations(len(unseen), k)
        sums = np.zeros(len(table), dtype=np.int64)
        for column in table.T:
            sums += np.take(unseen_keys, column)
        new_sums.append(sums)
    strengths_count = len(order.category)
    histogram = np.empty((len(options), strengths_count), dtype=np.float64)
    for i, discard in enumerate(options):
        kept = sum(ITALIAN_KEY[cards[j]] for j in range(5) if j not in discard)
        strengths = italian_strengths_of_sums(
            new_sums[len(discard)] + kept, rules=rule_set, players=players
        )
        histogram[i] = np.bincount(strengths, minlength=strengths_count)
    sizes = [len(new_sums[len(d)]) for d in options]
    # One product per category (a matrix product with a one-hot table starts
    # BLAS threads, which on a busy machine costs more than the whole draw).
    per_option = np.stack(
        [histogram @ (order.category == c) for c in range(len(rule_set.category_order))], axis=1
    )
    beaten, field_size = _deck_field(rule_set, players)
    share = histogram @ beaten / field_size
    beats_hand = beats_opener = None
    if target:
        target_strength = evaluate_batch([target], rules=rule_set, players=players)
        beats_hand = histogram @ _beaten_table(target_strength, order)
    if opener is not None:
        masks, opener_strengths = _openers(rule_set, players, Rank(opener))
        possible = opener_strengths[(masks & _mask(list(known))) == 0]
        beats_opener = histogram @ _beaten_table(possible, order) / max(len(possible), 1)
    beats_after = None
    if opener is not None and opener_drew is not None:
        field, pairs = _after_draw_field(
            rule_set,
            players,
            Rank(opener),
            drew=opener_drew,
            known=known,
            unseen=unseen,
            order=order,
        )
        beats_after = histogram @ _beaten_of_counts(field, order) / pairs

    results = []
    names = [c.value for c in rule_set.category_order]
    for i, discard in enumerate(options):
        count = sizes[i]
        results.append(
            DrawOption(
                discard=tuple(cards[j] for j in discard),
                keep=tuple(cards[j] for j in range(5) if j not in discard),
                draws=count,
                categories={
                    name: n / count for name, n in zip(names, per_option[i].tolist(), strict=True)
                },
                share=float(share[i] / count),
                beats_hand=None if beats_hand is None else float(beats_hand[i] / count),
                beats_opener=None if beats_opener is None else float(beats_opener[i] / count),
                beats_opener_after_draw=(
                    None if beats_after is None else float(beats_after[i] / count)
                ),
            )
        )

    def score(option: DrawOption) -> float:
        if option.beats_hand is not None:
            return option.beats_hand
        if option.beats_opener_after_draw is not None:
            return option.beats_opener_after_draw
        if option.beats_opener is not None:
            return option.beats_opener
        return option.share

    results.sort(key=lambda o: (-score(o), -o.share, len(o.discard)))
    return DrawOdds(rule_set.name, players, tuple(cards), tuple(results))
