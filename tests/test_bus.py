"""The in-process bus: each follower gets its own text, deliveries reach a player's
connections only, a closed connection gets nothing."""

from __future__ import annotations

import asyncio

from mazziere.server.bus import LocalBus, TableEvent


class Inbox:
    def __init__(self, player: str | None) -> None:
        self._player = player
        self.got: list[str] = []

    @property
    def player(self) -> str | None:
        return self._player

    def offer(self, text: str) -> None:
        self.got.append(text)


def test_private_texts_reach_only_their_player() -> None:
    bus = LocalBus()
    anna, anna_phone, bruno, spectator = Inbox("anna"), Inbox("anna"), Inbox("bruno"), Inbox(None)
    for box in (anna, anna_phone, bruno, spectator):
        bus.connect(box)
        bus.follow("t1", box)
    event = TableEvent("t1", 1, "public", {"anna": "anna", "bruno": "bruno"})
    asyncio.run(bus.publish(event))
    assert (anna.got, anna_phone.got, bruno.got, spectator.got) == (
        ["anna"],
        ["anna"],
        ["bruno"],
        ["public"],
    )


def test_other_tables_and_closed_connections_get_nothing() -> None:
    bus = LocalBus()
    here, elsewhere = Inbox("anna"), Inbox("carla")
    bus.connect(here)
    bus.connect(elsewhere)
    bus.follow("t1", here)
    bus.follow("t2", elsewhere)
    asyncio.run(bus.publish(TableEvent("t1", 1, "x")))
    assert elsewhere.got == []
    bus.disconnect(here)
    assert not bus.connected("anna") and bus.connected("carla")
    asyncio.run(bus.publish(TableEvent("t1", 2, "y")))
    asyncio.run(bus.deliver("anna", "z"))
    assert here.got == ["x"]
    asyncio.run(bus.deliver("carla", "hello"))
    assert elsewhere.got == ["hello"]
