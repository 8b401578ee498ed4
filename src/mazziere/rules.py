"""The rule sets as data: every rule that differs between games is a field here.

A house rule is a new :class:`RuleSet` (``dataclasses.replace`` of one of
ours), registered under its own name, never an ``if`` on a rule-set name.

>>> rules = find_rules("italian-classic")
>>> rules.deck(players=4).lowest_rank.name_it, len(rules.deck(players=6))
('7', 40)
>>> find_rules("italian-32").flush_order
<FlushOrder.RANKS_THEN_SUIT: 'ranks-then-suit'>
>>> sorted(RULESETS)
['holdem', 'italian-32', 'italian-classic']
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType

from mazziere.cards import Deck, Rank

__all__ = [
    "GAME_TRAITS",
    "HOLDEM",
    "ITALIAN_32",
    "ITALIAN_CLASSIC",
    "RULESETS",
    "BettingStructure",
    "Category",
    "FlushOrder",
    "Game",
    "GameTraits",
    "LastRoundFirst",
    "MinimumBet",
    "OddChipRule",
    "RuleSet",
    "UnknownRulesError",
    "WrongPlayerCountError",
    "find_rules",
    "register_rules",
]


class Game(StrEnum):
    """The shape of a hand: community cards and streets, or five cards and one draw."""

    HOLDEM = "holdem"
    ITALIAN = "italian"


@dataclass(frozen=True, slots=True, kw_only=True)
class GameTraits:
    """What a client, the statistics or the room does differently for a game, read by name:
    one per game (:data:`GAME_TRAITS`; a rule set's :attr:`RuleSet.traits`), so that the
    callers ask what a game has, never which game it is.

    >>> find_rules("italian-32").traits.draw, find_rules("holdem").traits.draw
    (True, False)
    """

    board: bool
    """Community cards dealt face up (Hold'em): a hand is valued with the board."""
    draw: bool
    """A draw between two betting rounds (Poker all'italiana): the cards are numbered for
    the discard and shown sorted high to low, and a hand is valued from its own five."""
    italian_terms: bool
    """Bets and checks have the Italian names of their round (apro, punto, buio, passo...)."""
    asks_show: bool
    """At the showdown a player who may muck is asked whether to show (RULES.md, Showdown);
    otherwise the cards speak."""
    three_bets: bool
    """A re-raise of the first betting round counts as a 3-bet in the statistics (Hold'em)."""


GAME_TRAITS: Mapping[Game, GameTraits] = MappingProxyType(
    {
        Game.HOLDEM: GameTraits(
            board=True, draw=False, italian_terms=False, asks_show=False, three_bets=True
        ),
        Game.ITALIAN: GameTraits(
            board=False, draw=True, italian_terms=True, asks_show=True, three_bets=False
        ),
    }
)
"""Game -> what differs in it for the callers that serve every game."""


class Category(StrEnum):
    """Hand categories; their order of strength belongs to the rule set."""

    STRAIGHT_FLUSH = "straight_flush"
    FOUR_OF_A_KIND = "four_of_a_kind"
    FLUSH = "flush"
    FULL_HOUSE = "full_house"
    STRAIGHT = "straight"
    THREE_OF_A_KIND = "three_of_a_kind"
    TWO_PAIR = "two_pair"
    PAIR = "pair"
    HIGH_CARD = "high_card"

    @property
    def name_it(self) -> str:
        """The Italian name: ``Category.FLUSH.name_it == 'colore'``.

        >>> Category.STRAIGHT_FLUSH.name_it
        'scala reale'
        """
        return _CATEGORY_IT[self]

    @property
    def name_en(self) -> str:
        """The English name for display: ``'straight flush'``.

        >>> Category.TWO_PAIR.name_en
        'two pair'
        """
        return self.value.replace("_", " ")


_CATEGORY_IT = {
    Category.STRAIGHT_FLUSH: "scala reale",
    Category.FOUR_OF_A_KIND: "poker",
    Category.FLUSH: "colore",
    Category.FULL_HOUSE: "full",
    Category.STRAIGHT: "scala",
    Category.THREE_OF_A_KIND: "tris",
    Category.TWO_PAIR: "doppia coppia",
    Category.PAIR: "coppia",
    Category.HIGH_CARD: "carta alta",
}


class FlushOrder(StrEnum):
    """How two flushes compare."""

    RANKS = "ranks"
    """Ranks only; equal ranks tie (Hold'em)."""
    RANKS_THEN_SUIT = "ranks-then-suit"
    """Ranks, then the suit of the highest card (italian-32)."""
    SUIT_THEN_RANKS = "suit-then-ranks"
    """Suit first, then ranks (italian-classic: K♥Q♥10♥9♥8♥ beats A♠K♠J♠9♠8♠)."""


class OddChipRule(StrEnum):
    """Who gets the odd chip of a split pot."""

    CLOCKWISE_FROM_BUTTON = "clockwise-from-button"
    RANDOM_WINNER = "random-winner"


class MinimumBet(StrEnum):
    """Where the smallest bet of a hand comes from (Italian poker)."""

    TABLE = "table"
    """The table's parameter (italian-classic: the invito unless the table says otherwise)."""
    LAST_BLIND = "last-blind"
    """The largest forced blind: the controbuio with 2-3 players, the over with 4-5 (italian-32)."""


class LastRoundFirst(StrEnum):
    """Who speaks first in the betting round after the draw (Italian poker)."""

    LAST_AGGRESSOR = "last-aggressor"
    """The opener or last raiser of the first round; after a blind opening, the player left
    of the last blind raiser (italian-classic)."""
    LEFT_OF_LAST_BLIND = "left-of-last-blind"
    """The first player still in left of the last forced blind (italian-32)."""


class BettingStructure(StrEnum):
    """How much a bet or raise may be."""

    NO_LIMIT = "no-limit"
    POT_LIMIT = "pot-limit"


HOLDEM_CATEGORY_ORDER = (
    Category.STRAIGHT_FLUSH,
    Category.FOUR_OF_A_KIND,
    Category.FULL_HOUSE,
    Category.FLUSH,
    Category.STRAIGHT,
    Category.THREE_OF_A_KIND,
    Category.TWO_PAIR,
    Category.PAIR,
    Category.HIGH_CARD,
)
ITALIAN_CATEGORY_ORDER = (
    Category.STRAIGHT_FLUSH,
    Category.FOUR_OF_A_KIND,
    Category.FLUSH,
    Category.FULL_HOUSE,
    Category.STRAIGHT,
    Category.THREE_OF_A_KIND,
    Category.TWO_PAIR,
    Category.PAIR,
    Category.HIGH_CARD,
)


class UnknownRulesError(ValueError):
    """No rule set of that name."""


class WrongPlayerCountError(ValueError):
    """A number of players the rule set does not deal to."""


def _frozen(mapping: Mapping[int, int]) -> Mapping[int, int]:
    return MappingProxyType(dict(mapping))


def _blinds(mapping: Mapping[int, tuple[int, ...]]) -> Mapping[int, tuple[int, ...]]:
    return MappingProxyType(dict(mapping))


@dataclass(frozen=True, kw_only=True)
class RuleSet:
    """Every parameter of a game that RULES.md lets differ between rule sets."""

    name: str
    title: str
    game: Game
    min_players: int
    max_players: int

    # --- cards and hand ranking ---
    deck_lowest_rank: Mapping[int, int]
    """Lowest rank of the deck by players dealt in (the ace is always in)."""
    hole_cards: int
    board_cards: int
    category_order: tuple[Category, ...]
    """Categories from the strongest down."""
    suits_break_ties: bool
    flush_order: FlushOrder
    straight_flush_minima_beats_massima: bool
    """italian-classic: the ace-low straight flush beats the ace-high one (a cycle)."""

    # --- pots ---
    odd_chip: OddChipRule

    # --- Italian poker: opening, draw, last round ---
    opening_ladder: tuple[Rank, ...] = ()
    """Minimum pair to open after 0, 1, 2... dead hands (the last level sticks)."""
    parol_pot_opening: Rank | None = None
    """Minimum pair to open a parol-pot hand."""
    bilateral_draw_opens: bool = False
    blind_opening_raises: int = 0
    """How many blind raises (buio, controbuio, over) may be made before the deal."""
    draw_max: int = 0
    fourth_card_after_others: bool = False
    parol: bool = False
    """Unanimous parol carries the pot to the next hand (italian-classic)."""
    parole_splits_pot: bool = False
    """Unanimous parole splits the pot among those still in (italian-32)."""
    betting_structure: BettingStructure = BettingStructure.NO_LIMIT
    uses_invito: bool = False
    """Every player posts the invito (an ante) to be dealt in (italian-classic)."""
    blind_opening_factor: int = 2
    """Each blind raise after the first (controbuio, over) is this many times the previous one."""
    forced_blinds: Mapping[int, tuple[int, ...]] = field(
        default_factory=lambda: MappingProxyType({})
    )
    """Blinds posted before the deal by players dealt in, in units of the buio (italian-32)."""
    missed_blind_penalties: bool = False
    """A player back from missing blinds posts them (part of it dead) (italian-32)."""
    minimum_bet: MinimumBet = MinimumBet.TABLE
    last_round_first: LastRoundFirst = LastRoundFirst.LAST_AGGRESSOR
    parol_pot_blind_opening: bool = False
    """Whether a parol-pot hand may be opened blind (italian-classic: no)."""
    parol_pot_min_bet_is_pot: bool = False
    """In a parol-pot hand the opening bet must be at least the pot (italian-classic)."""
    rake_per_unit: int = 0
    """Rake taken per whole ``rake_unit`` of the pot (italian-32: 5 cents per whole dollar)."""
    rake_unit: int = 100
    rake_cap: Mapping[int, int] = field(default_factory=lambda: MappingProxyType({}))
    """Most rake per hand, by players dealt in; no entry means no cap."""

    # --- the table's clock ---
    raise_window_seconds: int | None = None
    """Raising is offered only this long into a decision (italian-32: 10 s); a table may
    change it."""

    # --- extra parameters for house variations; engines read them by name ---
    extra: Mapping[str, object] = field(default_factory=lambda: MappingProxyType({}))

    def __hash__(self) -> int:
        # By name: equal rule sets have equal names (their mappings are not hashable), and
        # the engine keeps the numbers of each (rule set, player count) by rule set.
        return hash(self.name)

    @property
    def traits(self) -> GameTraits:
        """What differs in this rule set's game for a client (:data:`GAME_TRAITS`)."""
        return GAME_TRAITS[self.game]

    def check_players(self, players: int) -> None:
        """Raise :class:`WrongPlayerCountError` unless ``players`` may be dealt in.

        >>> find_rules("italian-32").check_players(6)
        Traceback (most recent call last):
        ...
        mazziere.rules.WrongPlayerCountError: italian-32 deals 2 to 5 players, not 6
        """
        if not self.min_players <= players <= self.max_players:
            raise WrongPlayerCountError(
                f"{self.name} deals {self.min_players} to {self.max_players} players, not {players}"
            )

    @property
    def deck_depends_on_players(self) -> bool:
        """Whether the deck shrinks with fewer players dealt in (its size needs their number).

        >>> [find_rules(n).deck_depends_on_players for n in ("italian-classic", "italian-32")]
        [True, False]
        """
        return len(set(self.deck_lowest_rank.values())) > 1

    def lowest_rank(self, players: int | None = None) -> Rank:
        """The deck's lowest rank for ``players`` dealt in.

        ``players`` may be omitted only when the deck does not depend on it.

        >>> find_rules("italian-classic").lowest_rank(2)
        <Rank.NINE: 9>
        """
        if players is None:
            if self.deck_depends_on_players:
                raise WrongPlayerCountError(
                    f"{self.name}: the deck depends on the number of players; give players"
                )
            return Rank(next(iter(self.deck_lowest_rank.values())))
        self.check_players(players)
        return Rank(self.deck_lowest_rank[players])

    def deck(self, players: int | None = None) -> Deck:
        """The deck for ``players`` dealt in.

        >>> len(find_rules("holdem").deck())
        52
        """
        return _deck(self.lowest_rank(players))

    def __str__(self) -> str:
        return self.name


@functools.cache
def _deck(lowest_rank: Rank) -> Deck:
    # One object per deck: a Deck never changes, and building its set of
    # members took more time than the evaluation whose cards it checks.
    return Deck(lowest_rank)


HOLDEM = RuleSet(
    name="holdem",
    title="Texas Hold'em No-Limit",
    game=Game.HOLDEM,
    min_players=2,
    max_players=9,
    deck_lowest_rank=_frozen(dict.fromkeys(range(2, 10), Rank.TWO)),
    hole_cards=2,
    board_cards=5,
    category_order=HOLDEM_CATEGORY_ORDER,
    suits_break_ties=False,
    flush_order=FlushOrder.RANKS,
    straight_flush_minima_beats_massima=False,
    odd_chip=OddChipRule.CLOCKWISE_FROM_BUTTON,
)

ITALIAN_CLASSIC = RuleSet(
    name="italian-classic",
    title="Poker all'italiana (classic online rules)",
    game=Game.ITALIAN,
    min_players=2,
    max_players=6,
    deck_lowest_rank=_frozen({n: 11 - n for n in range(2, 7)}),
    hole_cards=5,
    board_cards=0,
    category_order=ITALIAN_CATEGORY_ORDER,
    suits_break_ties=True,
    flush_order=FlushOrder.SUIT_THEN_RANKS,
    straight_flush_minima_beats_massima=True,
    odd_chip=OddChipRule.RANDOM_WINNER,
    opening_ladder=(Rank.JACK, Rank.QUEEN, Rank.KING),
    parol_pot_opening=Rank.KING,
    bilateral_draw_opens=True,
    blind_opening_raises=3,
    draw_max=4,
    fourth_card_after_others=True,
    parol=True,
    uses_invito=True,
    parol_pot_min_bet_is_pot=True,
)

ITALIAN_32 = RuleSet(
    name="italian-32",
    title="Poker all'italiana (32 cards, mandatory blinds)",
    game=Game.ITALIAN,
    min_players=2,
    max_players=5,
    deck_lowest_rank=_frozen(dict.fromkeys(range(2, 6), Rank.SEVEN)),
    hole_cards=5,
    board_cards=0,
    category_order=ITALIAN_CATEGORY_ORDER,
    suits_break_ties=True,
    flush_order=FlushOrder.RANKS_THEN_SUIT,
    straight_flush_minima_beats_massima=False,
    odd_chip=OddChipRule.RANDOM_WINNER,
    draw_max=4,
    parole_splits_pot=True,
    raise_window_seconds=10,
    forced_blinds=_blinds({2: (1, 2), 3: (1, 2), 4: (1, 2, 4), 5: (1, 2, 4)}),
    missed_blind_penalties=True,
    minimum_bet=MinimumBet.LAST_BLIND,
    last_round_first=LastRoundFirst.LEFT_OF_LAST_BLIND,
    rake_per_unit=5,
    rake_unit=100,
    rake_cap=_frozen({2: 100, 3: 100, 4: 200, 5: 200}),
)

_REGISTRY: dict[str, RuleSet] = {}
RULESETS: Mapping[str, RuleSet] = MappingProxyType(_REGISTRY)
"""Every registered rule set by name."""


def register_rules(rules: RuleSet) -> RuleSet:
    """Make ``rules`` findable by its name (a house variation, say).

    >>> import dataclasses
    >>> house = dataclasses.replace(ITALIAN_32, name="house-32", parole_splits_pot=False)
    >>> register_rules(house) is find_rules("house-32")
    True
    >>> unregister_rules("house-32")
    """
    if rules.name in _REGISTRY and _REGISTRY[rules.name] != rules:
        raise ValueError(f"a different rule set is already registered as {rules.name!r}")
    _REGISTRY[rules.name] = rules
    return rules


def unregister_rules(name: str) -> None:
    """Forget a registered house rule set (the three built-in ones stay)."""
    if name in (HOLDEM.name, ITALIAN_CLASSIC.name, ITALIAN_32.name):
        raise ValueError(f"{name!r} is built in")
    _REGISTRY.pop(name, None)


def find_rules(name: str | RuleSet) -> RuleSet:
    """The rule set called ``name`` (a :class:`RuleSet` is returned as is).

    >>> find_rules("holdem").title
    "Texas Hold'em No-Limit"
    >>> find_rules("omaha")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mazziere.rules.UnknownRulesError: unknown rules 'omaha' (known: holdem, ...)
    """
    if isinstance(name, RuleSet):
        return name
    try:
        return _REGISTRY[name]
    except KeyError:
        known = ", ".join(sorted(_REGISTRY))
        raise UnknownRulesError(f"unknown rules {name!r} (known: {known})") from None


for _rules in (HOLDEM, ITALIAN_CLASSIC, ITALIAN_32):
    register_rules(_rules)
