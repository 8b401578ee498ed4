"""Cash tables: buy in, top up, sit out and back in, leave; rake; rebuy or go.

Chips are cents.  Every buy-in, top-up, rebuy and cash-out is an entry of the
table's ledger (``player:<name>`` to ``stack:<name>`` and back), every hand's
bets, rake and awards too; the ledger is checked against the stacks after
every hand.

Coming in (Hold'em and italian-32): a new player waits for the big blind
(the over) or posts it to be dealt in at once; a player back from sitting
out who missed blinds posts them or waits (RULES.md §5 for italian-32).
italian-classic has no blinds: a new player is dealt in at the next hand;
each player posts the invito or sits out, with an auto-post option.

>>> import random
>>> from mazziere.room.clock import ManualClock
>>> table = CashTable(
...     CashSettings(rules="holdem", seats=6, stakes=Stakes(small_blind=5, big_blind=10),
...                  min_buy_in=400, max_buy_in=1000),
...     clock=ManualClock(), rng=random.Random(1))
>>> for name in ("ann", "bob", "cal"):
...     _ = table.sit_down(name, 1000)
>>> table.start_hand()
True
>>> table.ledger.total(), table.chips_on_table()
(0, 3000)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from mazziere.cards import RandomSource
from mazziere.game.core import Rake
from mazziere.room.clock import Clock, TimeSettings
from mazziere.room.errors import BuyInError, SeatError, SettingsError, TableStateError
from mazziere.room.games import NO_CARRY
from mazziere.room.ledger import Account, EntryKind, Ledger
from mazziere.room.plan import Candidate, Entry
from mazziere.room.structure import ForcedBets, Stakes, forced_bets
from mazziere.room.table import HandSummary, Seat, SeatStatus, Table
from mazziere.rules import Game, RuleSet, find_rules

__all__ = ["REBUY_SECONDS", "SIT_OUT_SECONDS", "CashSettings", "CashTable", "rule_set_rake"]


def rule_set_rake(rules: RuleSet) -> Rake | None:
    """The rake a rule set prescribes for cash tables (italian-32: 5 cents per whole dollar,
    capped by players), or ``None``.

    >>> rule_set_rake(find_rules("holdem")) is None
    True
    """
    per_unit = getattr(rules, "rake_per_unit", 0)
    if not per_unit:
        return None
    unit = int(getattr(rules, "rake_unit", 100))
    caps = dict(getattr(rules, "rake_cap", {}))
    return Rake(
        percent=Fraction(per_unit, unit), unit=unit, cap_by_players=caps, no_flop_no_drop=False
    )


SIT_OUT_SECONDS = 600.0
"""How long a player may sit out at a cash table before the seat is freed (by default)."""

REBUY_SECONDS = 60.0
"""How long a player left without chips may rebuy before the seat is freed (by default)."""


@dataclass(frozen=True, kw_only=True)
class CashSettings:
    """A cash table: game, seats, stakes, buy-in limits (in cents), rake and clock.

    ``rake``: ``None`` takes the rule set's own rake (italian-32) or none;
    ``rebuy_seconds``: how long a player left without chips may rebuy
    before the seat is freed; ``sit_out_seconds``: how long a player may sit out
    (or be away, their clock sitting them out) before the seat is freed and
    their chips go back to their wallet.

    >>> CashSettings(rules="italian-32", seats=6, stakes=Stakes(small_blind=5, big_blind=10),
    ...              min_buy_in=100, max_buy_in=1000)
    Traceback (most recent call last):
    ...
    mazziere.room.errors.SettingsError: italian-32 tables seat 2 to 5 players, not 6
    """

    rules: RuleSet | str
    seats: int
    stakes: Stakes
    min_buy_in: int
    max_buy_in: int
    rake: Rake | None = None
    time: TimeSettings | None = None
    rebuy_seconds: float = REBUY_SECONDS
    sit_out_seconds: float = SIT_OUT_SECONDS
    ask_show: bool = False
    name: str = ""
    keep_hands: int = 20

    def __post_init__(self) -> None:
        rules = find_rules(self.rules)
        object.__setattr__(self, "rules", rules)
        if type(self.seats) is not int or not rules.min_players <= self.seats <= rules.max_players:
            raise SettingsError(
                f"{rules.name} tables seat {rules.min_players} to {rules.max_players} players, "
                f"not {self.seats}"
            )
        self.stakes.check_for(rules)
        if type(self.min_buy_in) is not int or type(self.max_buy_in) is not int:
            raise SettingsError("buy-in limits are ints (cents)")
        if not 0 < self.min_buy_in <= self.max_buy_in:
            raise SettingsError(
                f"the buy-in limits must satisfy 0 < min <= max, not {self.min_buy_in}..."
                f"{self.max_buy_in}"
            )
        if self.rebuy_seconds < 0:
            raise SettingsError("rebuy_seconds must not be negative")
        if self.sit_out_seconds < 0:
            raise SettingsError("sit_out_seconds must not be negative")
        if self.rake is None:
            object.__setattr__(self, "rake", rule_set_rake(rules))
        elif rules.game is Game.ITALIAN and self.rake != rule_set_rake(rules):
            raise SettingsError(f"{rules.name} tables take the rule set's own rake")
        if self.time is None:
            object.__setattr__(self, "time", TimeSettings.for_rules(rules))

    @property
    def rule_set(self) -> RuleSet:
        """The rule set (``rules`` as given may be a name)."""
        rules = self.rules
        assert isinstance(rules, RuleSet)
        return rules


class CashTable(Table):
    """A cash game table of any rule set."""

    def __init__(
        self,
        settings: CashSettings,
        *,
        clock: Clock,
        rng: RandomSource,
        ledger: Ledger | None = None,
    ) -> None:
        super().__init__(
            rules=settings.rule_set,
            seats=settings.seats,
            clock=clock,
            rng=rng,
            ledger=ledger if ledger is not None else Ledger(settings.name or "cash table"),
            time=settings.time,
            name=settings.name,
            rake=settings.rake,
            ask_show=settings.ask_show,
            keep_hands=settings.keep_hands,
        )
        self.settings = settings
        self._asks_invito = forced_bets(settings.rule_set) is ForcedBets.INVITO

    # ----------------------------------------------------------- money

    def _check_buy_in(self, amount: int, *, current: int = 0, what: str = "buy-in") -> None:
        low, high = self.settings.min_buy_in, self.settings.max_buy_in
        if type(amount) is not int or amount <= 0:
            raise BuyInError(f"a {what} is a positive int (cents), not {amount!r}")
        if current + amount > high:
            raise BuyInError(f"the table's maximum is {high}: {current} + {amount} is too much")
        if what != "top-up" and amount < low:
            raise BuyInError(f"the table's minimum buy-in is {low}, not {amount}")

    def sit_down(
        self, name: str, buy_in: int, *, seat: int | None = None, post: bool = False
    ) -> Seat:
        """Sit ``name`` with ``buy_in`` chips (a random empty seat unless ``seat``).

        In a game with blinds the player waits for the big blind (the over),
        or with ``post`` posts it to be dealt in at the next chance.
        """
        self._check_buy_in(buy_in)
        if self.is_seated(name):
            raise SeatError(f"{name} is already seated")
        record = self._seat_player(name, seat, buy_in)
        self.ledger.transfer(EntryKind.BUY_IN, Account.player(name), Account.stack(name), buy_in)
        if self.uses_blinds():
            record.status = SeatStatus.WAITING
            record.entry = Entry.POST if post else Entry.WAIT
            record.new = True
        return record

    def top_up(self, name: str, amount: int) -> None:
        """Add chips to ``name``'s stack, up to the maximum buy-in (not while dealt in)."""
        seat = self.player(name)
        if self.dealt_in(name):
            raise TableStateError(f"{name} can top up only between hands")
        if seat.status is SeatStatus.BUSTED:
            raise TableStateError(f"{name} has no chips: rebuy instead")
        self._check_buy_in(amount, current=seat.stack, what="top-up")
        self.ledger.transfer(EntryKind.TOP_UP, Account.player(name), Account.stack(name), amount)
        seat.stack += amount

    def rebuy(self, name: str, amount: int) -> None:
        """Buy in again after losing every chip (while the offer lasts)."""
        seat = self.player(name)
        if seat.status is not SeatStatus.BUSTED:
            raise TableStateError(f"{name} still has chips: top up instead")
        if self._rebuy_ran_out(seat):
            raise TableStateError(f"{name}'s rebuy offer ran out: the seat is being freed")
        self._check_buy_in(amount)
        self.ledger.transfer(EntryKind.REBUY, Account.player(name), Account.stack(name), amount)
        seat.stack = amount
        seat.busted_at = None
        self._back_in(seat, post=False)

    def leave(self, name: str) -> int | None:
        """``name`` leaves: cashed out now, or at the end of the hand they are playing
        (their cards are folded at their turn).  Returns the amount cashed out now."""
        seat = self.player(name)
        if self.dealt_in(name):
            seat.leave_after_hand = True
            before = self.ledger.balance(Account.player(name))
            self._auto_play()  # their turn now: fold at once (the hand may end here)
            if self.is_seated(name):
                return None
            return self.ledger.balance(Account.player(name)) - before
        return self._cash_out(seat)

    def _cash_out(self, seat: Seat) -> int:
        amount = seat.stack
        if amount:
            self.ledger.transfer(
                EntryKind.CASH_OUT, Account.stack(seat.name), Account.player(seat.name), amount
            )
            seat.stack = 0
        self._unseat(seat)
        return amount

    def give_back_carried_pot(self) -> dict[str, int]:
        """Between hands, when the table closes: the pot carried to a next hand that will
        never be dealt goes back to the players who built it, each their share (seated or
        gone; ``player:<name>``), by name; the carry is cleared.

        Any chip of the pot beyond the shares (none, as the engine keeps them) goes one
        at a time to the largest shares first, so the pot always empties.

        >>> import random
        >>> from mazziere.game.actions import Action
        >>> from mazziere.room.clock import ManualClock
        >>> table = CashTable(CashSettings(rules="italian-classic", seats=3,
        ...     stakes=Stakes(ante=10), min_buy_in=100, max_buy_in=1000),
        ...     clock=ManualClock(), rng=random.Random(2))
        >>> for name in ("ann", "bob", "cal"):
        ...     _ = table.sit_down(name, 500)
        >>> table.start_hand()
        True
        >>> while table.in_hand:  # nobody opens: the invitos stay in the middle
        ...     _ = table.act(table.decision.name, Action.check())
        >>> table.leave("bob"), table.carry.pot
        (490, 30)
        >>> table.give_back_carried_pot()
        {'cal': 10, 'ann': 10, 'bob': 10}
        >>> table.carry.pot, table.chips_on_table(), table.ledger.total()
        (0, 980, 0)
        """
        if self.in_hand:
            raise TableStateError("a hand is being played: its pot is not carried yet")
        carry = self.carry
        pot = self.ledger.balance(self.pot_account)
        shares = {name: share for name, share in carry.shares.items() if share > 0}
        if pot and not shares:
            raise TableStateError(f"the pot of {pot} carried has nobody's share")
        rest = pot - sum(shares.values())
        if rest < 0:
            raise TableStateError(f"the shares ({sum(shares.values())}) exceed the pot ({pot})")
        given = dict(shares)
        largest_first = sorted(shares, key=lambda name: (-shares[name], name))
        for turn in range(rest):
            given[largest_first[turn % len(largest_first)]] += 1
        for name, amount in given.items():
            self.ledger.transfer(EntryKind.REFUND, self.pot_account, Account.player(name), amount)
        self.carry = NO_CARRY
        return given

    # ------------------------------------------------------- sitting out

    def sit_out(self, name: str) -> None:
        """Stop being dealt in: at once, or at the end of the hand ``name`` is playing."""
        seat = self.player(name)
        if self.dealt_in(name):
            seat.sit_out_next = True
        elif seat.status is not SeatStatus.BUSTED:
            self._sit_out(seat)

    def sit_in(self, name: str, *, post: bool = False) -> None:
        """Come back: dealt in again; after missed blinds, wait for the big blind (the over)
        or, with ``post``, post what was missed."""
        seat = self.player(name)
        seat.sit_out_next = False
        if seat.status is SeatStatus.BUSTED:
            raise TableStateError(f"{name} has no chips: rebuy first")
        if seat.status is SeatStatus.SITTING_OUT:
            self._back_in(seat, post=post)
        elif seat.status is SeatStatus.WAITING:
            seat.entry = Entry.POST if post else Entry.WAIT

    def _back_in(self, seat: Seat, *, post: bool) -> None:
        if (seat.missed or seat.new) and self.uses_blinds():
            seat.status = SeatStatus.WAITING
            seat.entry = Entry.POST if post else Entry.WAIT
        else:
            seat.status = SeatStatus.PLAYING
            seat.entry = None

    def set_auto_post(self, name: str, on: bool) -> None:
        """italian-classic: post the invito without being asked (on by default)."""
        self.player(name).auto_post = on

    # ------------------------------------------------------------ hands

    def current_stakes(self) -> Stakes:
        """The table's stakes."""
        return self.settings.stakes

    def start_hand(self) -> bool:
        """Free the seats of players whose rebuy offer ran out, then deal if possible."""
        self._expire_rebuys()
        return super().start_hand()

    def _rebuy_ran_out(self, seat: Seat) -> bool:
        """Whether ``seat``'s rebuy offer is over: it lasts ``rebuy_seconds``, not a moment more."""
        ends = self.rebuy_ends_at(seat)
        return ends is not None and self.clock.now() >= ends

    def rebuy_ends_at(self, seat: Seat) -> float | None:
        """When ``seat``'s rebuy offer runs out and the seat is to be freed (``None``: it has
        chips).  A deal frees it (:meth:`start_hand`); a table that deals no more, paused or
        short of players, has the room store that leave as a command of its own.

        >>> import random
        >>> from mazziere.room.clock import ManualClock
        >>> table = CashTable(CashSettings(rules="holdem", seats=2,
        ...     stakes=Stakes(small_blind=1, big_blind=2), min_buy_in=100, max_buy_in=100),
        ...     clock=ManualClock(), rng=random.Random(1))
        >>> seat = table.sit_down("anna", 100)
        >>> table.rebuy_ends_at(seat) is None
        True
        >>> seat.status, seat.busted_at = SeatStatus.BUSTED, 30.0
        >>> table.rebuy_ends_at(seat)
        90.0
        """
        if seat.status is not SeatStatus.BUSTED or seat.busted_at is None:
            return None
        return seat.busted_at + self.settings.rebuy_seconds

    def seat_freed_at(self, seat: Seat) -> float | None:
        """When ``seat``, sitting out, is to be freed (``None``: it is not sitting out, is
        dealt into the hand being played, or will be dealt into a parol pot's).  The table
        does not free it by itself: the room stores that leave as a command of its own (a
        table stored before this rule replays as it was played).

        >>> import random
        >>> from mazziere.room.clock import ManualClock
        >>> clock = ManualClock()
        >>> table = CashTable(CashSettings(rules="holdem", seats=2,
        ...     stakes=Stakes(small_blind=1, big_blind=2), min_buy_in=100, max_buy_in=100),
        ...     clock=clock, rng=random.Random(1))
        >>> seat = table.sit_down("anna", 100)
        >>> clock.advance(5.0); table.sit_out("anna")
        >>> table.seat_freed_at(seat)
        605.0
        >>> table.sit_in("anna"); table.seat_freed_at(seat) is None
        True
        """
        if seat.status is not SeatStatus.SITTING_OUT or seat.sat_out_at is None:
            return None
        if self.dealt_in(seat.name):
            return None
        if self.carry.parol_pot and seat.name in self.carry.parol_players:
            return None  # dealt into the parol pot's hand even sitting out (RULES.md §4.9)
        return seat.sat_out_at + self.settings.sit_out_seconds

    def _expire_rebuys(self) -> None:
        for seat in list(self.seats.values()):
            if self._rebuy_ran_out(seat):
                self._cash_out(seat)

    def _candidates(self) -> dict[int, Candidate]:
        candidates: dict[int, Candidate] = {}
        for seat in self.seats.values():
            if seat.stack <= 0 or seat.status in (SeatStatus.SITTING_OUT, SeatStatus.BUSTED):
                continue
            if seat.status is SeatStatus.WAITING and seat.entry is not None:
                candidates[seat.seat] = Candidate(
                    seat.seat, seat.entry, missed=seat.missed, new=seat.new
                )
            else:
                candidates[seat.seat] = Candidate(seat.seat)
        return candidates

    def _after_hand(self, summary: HandSummary) -> None:
        now = self.clock.now()
        for name in summary.names:
            if not self.is_seated(name):
                continue
            seat = self.player(name)
            if seat.leave_after_hand:
                self._cash_out(seat)
            elif seat.stack == 0:
                seat.status = SeatStatus.BUSTED
                seat.busted_at = now
                seat.sit_out_next = False
            elif seat.sit_out_next:
                # Out from the hand's end (asked during it, or timed out too often), not from
                # the next deal: a table whose other players sit out too may deal no more.
                seat.sit_out_next = False
                self._sit_out(seat)
