"""How table tasks reach connections: one small interface, in-process by default.

A table task never holds a socket.  It hands each event to the :class:`Bus`
(:meth:`Bus.publish`) as a :class:`TableEvent`: the text every follower of
the table gets, and the texts some players get instead (their own view, with
their own cards).  Replies to one player (an acknowledgement, an error, a
snapshot) go through :meth:`Bus.deliver`.  The bus finds the connections.

:class:`LocalBus` does it inside one process.  A later stage can run several
server processes with a bus over Redis (publish to a channel per table,
deliver to a channel per player) without touching the table logic: the
interface is all a table task sees.

>>> import asyncio
>>> class Inbox:
...     def __init__(self, player): self.player, self.got = player, []
...     def offer(self, text): self.got.append(text)
>>> bus = LocalBus()
>>> anna, bruno, eve = Inbox("anna"), Inbox("bruno"), Inbox(None)
>>> for box in (anna, bruno, eve):
...     bus.follow("t1", box)
>>> asyncio.run(bus.publish(TableEvent("t1", 1, "hidden", {"anna": "anna's cards"})))
>>> anna.got, bruno.got, eve.got
(["anna's cards"], ['hidden'], ['hidden'])
"""

from __future__ import annotations

import abc
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Protocol

__all__ = ["Bus", "LocalBus", "Outbox", "TableEvent"]


class Outbox(Protocol):
    """One connection as the bus sees it: whose it is, and a way to queue a text for it.

    ``offer`` never waits: a connection too slow to keep up closes itself
    (its client comes back with :class:`~mazziere.server.protocol.Resume`).
    """

    @property
    def player(self) -> str | None: ...

    def offer(self, text: str) -> None: ...


@dataclass(frozen=True, slots=True)
class TableEvent:
    """One event of a table: ``public`` for every follower, ``private`` for some players.

    A seated player's text is their own view (their cards); everybody else
    (spectators, players of other tables) gets ``public``, which holds no
    card that is not face up.
    """

    table: str
    seq: int
    public: str
    private: Mapping[str, str] = field(default_factory=dict)

    def text_for(self, player: str | None) -> str:
        """What ``player`` (``None``: a spectator) receives."""
        if player is not None and player in self.private:
            return self.private[player]
        return self.public


class Bus(abc.ABC):
    """Where table tasks send events, and where connections sign up for them."""

    @abc.abstractmethod
    async def publish(self, event: TableEvent) -> None:
        """Send ``event`` to every connection that follows its table."""

    @abc.abstractmethod
    async def deliver(self, player: str, text: str) -> None:
        """Send ``text`` to every connection of ``player``."""

    @abc.abstractmethod
    def connect(self, outbox: Outbox) -> None:
        """A connection opened (deliveries to its player reach it)."""

    @abc.abstractmethod
    def disconnect(self, outbox: Outbox) -> None:
        """A connection closed: it follows nothing any more."""

    @abc.abstractmethod
    def follow(self, table: str, outbox: Outbox) -> None:
        """``outbox`` receives the events of ``table`` from now on."""

    @abc.abstractmethod
    def unfollow(self, table: str, outbox: Outbox) -> None:
        """``outbox`` no longer receives the events of ``table``."""

    @abc.abstractmethod
    def move(self, player: str, source: str, destination: str) -> None:
        """``player``'s connections follow ``destination`` instead of ``source`` (a
        tournament moved them to another of its tables)."""

    @abc.abstractmethod
    def connected(self, player: str) -> bool:
        """Whether ``player`` has at least one connection open."""

    @abc.abstractmethod
    def connections(self, player: str) -> int:
        """How many connections ``player`` has open (the room caps them)."""

    @abc.abstractmethod
    def outboxes(self, player: str) -> list[Outbox]:
        """``player``'s open connections (a changed password closes them)."""

    @abc.abstractmethod
    def players_connected(self) -> int:
        """How many players have a connection open (the room's size, for its collector)."""

    @abc.abstractmethod
    def players(self) -> list[str]:
        """The players with a connection open (the room checks their sessions now and then)."""


class LocalBus(Bus):
    """The bus of a single server process: dictionaries of connections."""

    def __init__(self) -> None:
        self._followers: dict[str, list[Outbox]] = {}
        self._players: dict[str, list[Outbox]] = {}
        self._following: dict[Outbox, set[str]] = {}
        """What each connection follows: a connection that closes leaves only its own
        tables' followers (not every table's, thousands of times a minute)."""

    async def publish(self, event: TableEvent) -> None:
        """Queue the event's text on each follower (never waits on a socket)."""
        for outbox in list(self._followers.get(event.table, ())):
            outbox.offer(event.text_for(outbox.player))

    async def deliver(self, player: str, text: str) -> None:
        """Queue ``text`` on each of ``player``'s connections."""
        for outbox in list(self._players.get(player, ())):
            outbox.offer(text)

    def connect(self, outbox: Outbox) -> None:
        """Deliveries to the connection's player reach it."""
        if outbox.player is not None:
            self._players.setdefault(outbox.player, []).append(outbox)

    def disconnect(self, outbox: Outbox) -> None:
        """Forget the connection everywhere."""
        for table in list(self._following.get(outbox, ())):
            self.unfollow(table, outbox)
        if outbox.player is not None:
            boxes = self._players.get(outbox.player, [])
            if outbox in boxes:
                boxes.remove(outbox)
            if not boxes:
                self._players.pop(outbox.player, None)

    def follow(self, table: str, outbox: Outbox) -> None:
        """Add ``outbox`` to the table's followers (once)."""
        followers = self._followers.setdefault(table, [])
        if outbox not in followers:
            followers.append(outbox)
            self._following.setdefault(outbox, set()).add(table)

    def unfollow(self, table: str, outbox: Outbox) -> None:
        """Remove ``outbox`` from the table's followers."""
        followers = self._followers.get(table, [])
        if outbox in followers:
            followers.remove(outbox)
            following = self._following[outbox]
            following.discard(table)
            if not following:
                del self._following[outbox]
        if not followers:
            self._followers.pop(table, None)

    def move(self, player: str, source: str, destination: str) -> None:
        """Each connection of ``player``: from ``source``'s followers to ``destination``'s."""
        for outbox in list(self._players.get(player, ())):
            self.unfollow(source, outbox)
            self.follow(destination, outbox)

    def connected(self, player: str) -> bool:
        """Whether ``player`` has a connection open."""
        return bool(self._players.get(player))

    def connections(self, player: str) -> int:
        """How many connections ``player`` has open."""
        return len(self._players.get(player, ()))

    def outboxes(self, player: str) -> list[Outbox]:
        """``player``'s open connections."""
        return list(self._players.get(player, ()))

    def players_connected(self) -> int:
        """How many players have a connection open."""
        return len(self._players)

    def players(self) -> list[str]:
        """The players with a connection open."""
        return list(self._players)
