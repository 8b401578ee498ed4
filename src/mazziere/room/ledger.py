"""The ledger: every chip movement of a table or tournament, as an entry.

An entry moves a positive int amount from one account to another, so the
balances of all accounts always sum to zero: chips are never created or
destroyed, only moved.  Chips that come from outside (a player's money, the
tournament's chip bank) leave an *external* account, which may go negative;
every other account (a stack at a table, a pot, the house, a prize pool) may
not, and a movement that would overdraw one is refused before anything
changes.

>>> ledger = Ledger()
>>> alice, pot = Account.player("alice"), Account.pot()
>>> _ = ledger.transfer(EntryKind.BUY_IN, alice, Account.stack("alice"), 1_000)
>>> _ = ledger.transfer(EntryKind.BET, Account.stack("alice"), pot, 40, hand=1)
>>> ledger.balance(Account.stack("alice")), ledger.balance(pot), ledger.balance(alice)
(960, 40, -1000)
>>> ledger.total()
0
>>> ledger.transfer(EntryKind.BET, Account.stack("alice"), pot, 5_000)
Traceback (most recent call last):
...
mazziere.room.errors.InsufficientChipsError: stack:alice holds 960, cannot move 5000 (bet)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from mazziere.room.errors import InsufficientChipsError, LedgerError

__all__ = ["Account", "AccountKind", "Entry", "EntryKind", "Ledger", "Movement"]


class AccountKind(StrEnum):
    """What an account holds; only external accounts may go below zero."""

    PLAYER = "player"
    """A player's money outside the table (balance = what they took away minus brought)."""
    BANK = "bank"
    """Where tournament chips come from and go back to."""
    STACK = "stack"
    """A player's chips in front of them at a table or in a tournament."""
    POT = "pot"
    """Chips in the middle of a table (carried from hand to hand in italian-classic)."""
    HOUSE = "house"
    """The room's takings: rake and tournament fees."""
    PRIZE_POOL = "prize-pool"
    """A tournament's buy-ins until they are paid out as prizes or refunded."""


_EXTERNAL = frozenset({AccountKind.PLAYER, AccountKind.BANK})


@dataclass(frozen=True, slots=True)
class Account:
    """One account: a kind and an owner (a player, a table), e.g. ``stack:alice``.

    >>> str(Account.stack("bob")), Account.player("bob").external, Account.pot().external
    ('stack:bob', True, False)
    """

    kind: AccountKind
    owner: str = ""

    @classmethod
    def player(cls, name: str) -> Account:
        """A player's money outside the table.

        >>> Account.player("ann")
        Account(kind=<AccountKind.PLAYER: 'player'>, owner='ann')
        """
        return cls(AccountKind.PLAYER, name)

    @classmethod
    def stack(cls, name: str) -> Account:
        """A player's chips in play.

        >>> str(Account.stack("ann"))
        'stack:ann'
        """
        return cls(AccountKind.STACK, name)

    @classmethod
    def pot(cls, table: str = "") -> Account:
        """The pot of a table (one per table in a multi-table event).

        >>> str(Account.pot("t2")), str(Account.pot())
        ('pot:t2', 'pot')
        """
        return cls(AccountKind.POT, table)

    @classmethod
    def house(cls, what: str = "") -> Account:
        """The room's takings (``house:rake``, ``house:fees``).

        >>> str(Account.house("rake"))
        'house:rake'
        """
        return cls(AccountKind.HOUSE, what)

    @classmethod
    def prize_pool(cls) -> Account:
        """A tournament's prize pool.

        >>> str(Account.prize_pool())
        'prize-pool'
        """
        return cls(AccountKind.PRIZE_POOL)

    @classmethod
    def bank(cls) -> Account:
        """The source of tournament chips.

        >>> Account.bank().external
        True
        """
        return cls(AccountKind.BANK)

    @property
    def external(self) -> bool:
        """Whether the account stands for chips outside play (it may go negative)."""
        return self.kind in _EXTERNAL

    def __str__(self) -> str:
        return f"{self.kind.value}:{self.owner}" if self.owner else self.kind.value


class EntryKind(StrEnum):
    """Why chips moved."""

    BUY_IN = "buy-in"
    TOP_UP = "top-up"
    REBUY = "rebuy"
    CASH_OUT = "cash-out"
    BET = "bet"
    """Into the pot: blinds, antes, invito, bets, calls, raises, dead blinds."""
    AWARD = "award"
    """Out of the pot to a player: a pot won, a share of a split pot, an uncalled bet."""
    RAKE = "rake"
    FEE = "fee"
    PRIZE = "prize"
    REFUND = "refund"
    CHIPS = "chips"
    """Tournament chips handed out (starting stack) or handed back (a finished stack)."""


@dataclass(frozen=True, slots=True)
class Entry:
    """One chip movement; ``number`` counts from 1 in its ledger.

    >>> Ledger().transfer(EntryKind.RAKE, Account.pot(), Account.house("rake"), 0)
    Traceback (most recent call last):
    ...
    mazziere.room.errors.LedgerError: a movement needs a positive int amount, not 0
    """

    number: int
    kind: EntryKind
    source: Account
    destination: Account
    amount: int
    hand: int | None = None
    note: str = ""

    def __str__(self) -> str:
        hand = f" hand {self.hand}" if self.hand is not None else ""
        note = f" ({self.note})" if self.note else ""
        return (
            f"#{self.number}{hand} {self.kind.value}: {self.amount} "
            f"{self.source} -> {self.destination}{note}"
        )


@dataclass(frozen=True, slots=True)
class Movement:
    """A movement not yet recorded, for :meth:`Ledger.transfer_all`."""

    kind: EntryKind
    source: Account
    destination: Account
    amount: int
    note: str = ""


class Ledger(Sequence[Entry]):
    """An append-only list of entries and the balances they make.

    The entries held can be cut short once they are stored elsewhere
    (:meth:`forget`): their sum is kept as opening balances, so the balances and
    the audit (:meth:`check`) are the same as with every entry, and entry
    numbers go on counting.

    >>> ledger = Ledger()
    >>> moves = [
    ...     Movement(EntryKind.BET, Account.stack("a"), Account.pot(), 10),
    ...     Movement(EntryKind.AWARD, Account.pot(), Account.stack("b"), 10),
    ... ]
    >>> ledger.transfer_all(moves)  # a's stack is empty: nothing is recorded
    Traceback (most recent call last):
    ...
    mazziere.room.errors.InsufficientChipsError: stack:a holds 0, cannot move 10 (bet)
    >>> len(ledger)
    0
    """

    __slots__ = ("_balances", "_entries", "_forgotten", "_opening", "name")

    def __init__(self, name: str = "") -> None:
        self.name = name
        self._entries: list[Entry] = []
        self._balances: dict[Account, int] = {}
        self._opening: dict[Account, int] = {}
        """The balances the forgotten entries made."""
        self._forgotten = 0
        """How many entries were forgotten (the first held is numbered one more)."""

    # --- reading ---

    def __len__(self) -> int:
        """The entries held (all of them unless some were forgotten)."""
        return len(self._entries)

    @property
    def recorded(self) -> int:
        """How many entries were ever recorded: the number of the last one.

        >>> ledger = Ledger()
        >>> _ = ledger.transfer(EntryKind.BUY_IN, Account.player("a"), Account.stack("a"), 5)
        >>> ledger.forget(1)
        >>> ledger.recorded, len(ledger)
        (1, 0)
        """
        return self._forgotten + len(self._entries)

    def since(self, number: int) -> list[Entry]:
        """The entries recorded after entry ``number`` (all of them held).

        >>> ledger = Ledger()
        >>> a = Account.player("a")
        >>> for amount in (5, 6, 7):
        ...     _ = ledger.transfer(EntryKind.BUY_IN, a, Account.stack("a"), amount)
        >>> [e.amount for e in ledger.since(1)]
        [6, 7]
        """
        if number < self._forgotten:
            raise LedgerError(
                f"ledger {self.name!r}: entries up to #{self._forgotten} were forgotten, "
                f"#{number + 1} is not held"
            )
        return self._entries[number - self._forgotten :]

    def __getitem__(self, index: int) -> Entry:  # type: ignore[override]
        return self._entries[index]

    def __iter__(self) -> Iterator[Entry]:
        return iter(self._entries)

    def __repr__(self) -> str:
        return f"<Ledger {self.name or '?'}: {len(self._entries)} entries>"

    def balance(self, account: Account) -> int:
        """What ``account`` holds now (0 for an account never used).

        >>> Ledger().balance(Account.pot())
        0
        """
        return self._balances.get(account, 0)

    def balances(self) -> Mapping[Account, int]:
        """A copy of every non-zero balance.

        >>> ledger = Ledger()
        >>> _ = ledger.transfer(EntryKind.BUY_IN, Account.player("a"), Account.stack("a"), 5)
        >>> {str(k): v for k, v in ledger.balances().items()}
        {'player:a': -5, 'stack:a': 5}
        """
        return {account: amount for account, amount in self._balances.items() if amount}

    def total(self) -> int:
        """The sum of all balances, recomputed from the entries: always 0.

        >>> Ledger().total()
        0
        """
        return sum(self._recomputed().values())

    def _recomputed(self) -> dict[Account, int]:
        balances = dict(self._opening)
        for entry in self._entries:
            balances[entry.source] = balances.get(entry.source, 0) - entry.amount
            balances[entry.destination] = balances.get(entry.destination, 0) + entry.amount
        return balances

    def check(self) -> None:
        """Recompute every balance from the entries and compare (a consistency audit).

        Raises :class:`LedgerError` if a balance disagrees, if an internal
        account is negative, or if the balances do not sum to zero.

        >>> Ledger().check()
        """
        recomputed = {k: v for k, v in self._recomputed().items() if v}
        if recomputed != self.balances():
            raise LedgerError(f"ledger {self.name!r}: balances disagree with the entries")
        if sum(recomputed.values()) != 0:
            raise LedgerError(f"ledger {self.name!r}: balances sum to {sum(recomputed.values())}")
        for account, amount in recomputed.items():
            if amount < 0 and not account.external:
                raise LedgerError(f"ledger {self.name!r}: {account} is at {amount}")

    def entries_for(self, account: Account) -> list[Entry]:
        """Every entry held that moved chips into or out of ``account``.

        >>> ledger = Ledger()
        >>> _ = ledger.transfer(EntryKind.BUY_IN, Account.player("a"), Account.stack("a"), 5)
        >>> [e.kind.value for e in ledger.entries_for(Account.stack("a"))]
        ['buy-in']
        """
        return [e for e in self._entries if account in (e.source, e.destination)]

    def flows(self, kind: EntryKind) -> int:
        """The total amount moved by the entries held of ``kind``.

        >>> ledger = Ledger()
        >>> _ = ledger.transfer(EntryKind.BUY_IN, Account.player("a"), Account.stack("a"), 5)
        >>> ledger.flows(EntryKind.BUY_IN), ledger.flows(EntryKind.RAKE)
        (5, 0)
        """
        return sum(e.amount for e in self._entries if e.kind is kind)

    # --- writing ---

    @staticmethod
    def _validate(kind: EntryKind, source: Account, destination: Account, amount: int) -> None:
        if not isinstance(kind, EntryKind):
            raise LedgerError(f"unknown entry kind {kind!r}")
        if type(amount) is not int or amount <= 0:
            raise LedgerError(f"a movement needs a positive int amount, not {amount!r}")
        if source == destination:
            raise LedgerError(f"a movement from {source} to itself")

    def transfer(
        self,
        kind: EntryKind,
        source: Account,
        destination: Account,
        amount: int,
        *,
        hand: int | None = None,
        note: str = "",
    ) -> Entry:
        """Move ``amount`` from ``source`` to ``destination``; return the entry.

        >>> ledger = Ledger("t1")
        >>> print(ledger.transfer(EntryKind.FEE, Account.player("a"), Account.house("fees"), 3))
        #1 fee: 3 player:a -> house:fees
        """
        self._validate(kind, source, destination, amount)
        held = self._balances.get(source, 0)
        if held < amount and not source.external:
            raise InsufficientChipsError(
                f"{source} holds {held}, cannot move {amount} ({kind.value})"
            )
        entry = Entry(self.recorded + 1, kind, source, destination, amount, hand, note)
        self._entries.append(entry)
        self._balances[source] = held - amount
        self._balances[destination] = self._balances.get(destination, 0) + amount
        return entry

    def transfer_all(
        self, movements: Iterable[Movement], *, hand: int | None = None
    ) -> list[Entry]:
        """Record several movements, in order, all or none.

        Each movement may use chips an earlier one brought in (a pot filled by
        bets, then awarded).  Zero amounts are skipped.

        >>> ledger = Ledger()
        >>> entries = ledger.transfer_all(
        ...     [
        ...         Movement(EntryKind.BUY_IN, Account.player("a"), Account.stack("a"), 10),
        ...         Movement(EntryKind.BET, Account.stack("a"), Account.pot(), 10),
        ...         Movement(EntryKind.AWARD, Account.pot(), Account.stack("b"), 0),
        ...     ]
        ... )
        >>> len(entries), ledger.balance(Account.pot())
        (2, 10)
        """
        pending = [m for m in movements if not (type(m.amount) is int and m.amount == 0)]
        scratch: dict[Account, int] = {}
        for move in pending:
            self._validate(move.kind, move.source, move.destination, move.amount)
            held = scratch.get(move.source, self._balances.get(move.source, 0))
            if held < move.amount and not move.source.external:
                raise InsufficientChipsError(
                    f"{move.source} holds {held}, cannot move {move.amount} ({move.kind.value})"
                )
            scratch[move.source] = held - move.amount
            scratch[move.destination] = (
                scratch.get(move.destination, self._balances.get(move.destination, 0)) + move.amount
            )
        entries = []
        for move in pending:
            entry = Entry(
                self.recorded + 1,
                move.kind,
                move.source,
                move.destination,
                move.amount,
                hand,
                move.note,
            )
            self._entries.append(entry)
            entries.append(entry)
        self._balances.update(scratch)
        return entries

    def forget(self, through: int) -> None:
        """Stop holding the entries up to number ``through`` (stored elsewhere by now); the
        balances they made stay, as opening balances the audit starts from.

        A long-running table records every hand's movements: holding them all would grow
        without bound, while the table needs only its balances.

        >>> ledger = Ledger()
        >>> _ = ledger.transfer(EntryKind.BUY_IN, Account.player("a"), Account.stack("a"), 50)
        >>> _ = ledger.transfer(EntryKind.BET, Account.stack("a"), Account.pot(), 20, hand=1)
        >>> ledger.forget(1)
        >>> [str(e) for e in ledger], ledger.balance(Account.stack("a")), ledger.total()
        (['#2 hand 1 bet: 20 stack:a -> pot'], 30, 0)
        >>> ledger.check()
        >>> print(ledger.transfer(EntryKind.BET, Account.stack("a"), Account.pot(), 5, hand=2))
        #3 hand 2 bet: 5 stack:a -> pot
        """
        if not 0 <= through <= self.recorded:
            raise LedgerError(
                f"ledger {self.name!r}: cannot forget through #{through} of {self.recorded}"
            )
        cut = through - self._forgotten
        if cut <= 0:
            return
        for entry in self._entries[:cut]:
            self._opening[entry.source] = self._opening.get(entry.source, 0) - entry.amount
            self._opening[entry.destination] = (
                self._opening.get(entry.destination, 0) + entry.amount
            )
        self._opening = {account: amount for account, amount in self._opening.items() if amount}
        del self._entries[:cut]
        # The stacks of players gone are at zero: not kept (balance() says 0 all the same).
        self._balances = {account: amount for account, amount in self._balances.items() if amount}
        self._forgotten = through
