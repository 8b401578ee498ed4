"""The hand a room's seat rebuilds from its records is the engine's view of it for that seat.

``SeenHand`` is all the terminal client of a room knows about a hand: for
random hands of every rule set, each seat (and a spectator) is fed the
records as the room sends them (``seen_by(position).to_dict()``), and after
every record its stacks, bets, folds, cards, pot, draw and opening are
those of the engine's own ``view(position)``: nothing missing, and no card
the view hides.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from mazziere.game.core import BettingHand
from mazziere.game.holdem import HoldemHand
from mazziere.game.italian import ItalianHand
from mazziere.tui.seen import RecordError, SeenHand, record_from_dict
from tests.random_play import play_randomly


def deal(rules: str, rng: random.Random, players: int) -> BettingHand:
    stacks = [rng.choice([40, 200, 1000]) for _ in range(players)]
    if rules == "holdem":
        return HoldemHand(stacks, blinds=(5, 10), rng=rng)
    if rules == "italian-classic":
        return ItalianHand(rules, stacks, invito=10, rng=rng)
    return ItalianHand(rules, stacks, buio=5, rng=rng)


def state(seen: SeenHand) -> dict[str, Any]:
    out: dict[str, Any] = {
        "stacks": seen.stacks,
        "bets": seen.bets,
        "folded": seen.folded,
        "hole": [list(cards) for cards in seen.hole],
    }
    if not seen.draw_game:
        out.update(board=seen.board, street=seen.street)
    else:
        out.update(
            drawn=seen.drawn,
            betting_round=seen.betting_round,
            opening=seen.opening,
            parol_pot=seen.parol_pot,
            blind_raisers=seen.blind_raisers,
        )
    return out


def view_state(view: Any, italian: bool) -> dict[str, Any]:
    out: dict[str, Any] = {
        "stacks": list(view.stacks),
        "bets": list(view.bets),
        "folded": list(view.folded),
        "hole": [list(cards) for cards in view.hole],
    }
    if not italian:
        out.update(board=[c for c in view.board if c is not None], street=view.street)
    else:
        out.update(
            drawn=list(view.drawn),
            betting_round=view.betting_round,
            opening=view.opening,
            parol_pot=view.parol_pot,
            blind_raisers=list(view.blind_raisers),
        )
    return out


@pytest.mark.parametrize("rules", ["holdem", "italian-classic", "italian-32"])
def test_each_seat_rebuilds_its_own_view(rules: str) -> None:
    for seed in range(60):
        check_random_hand(rules, seed)


def check_random_hand(rules: str, seed: int) -> None:
    """One random hand: every viewer's rebuilt hand against the engine's view, at each step."""
    rng = random.Random(f"{rules} {seed}")
    players = rng.randint(2, 5)
    hand = deal(rules, rng, players)
    viewers: list[int | None] = [None, *range(players)]
    seen = {
        viewer: SeenHand(
            rules,
            number=1,
            names=[f"p{i}" for i in range(players)],
            seats=list(range(1, players + 1)),
            button=players,
            me=viewer,
        )
        for viewer in viewers
    }
    fed = dict.fromkeys(viewers, 0)

    def compare(game: BettingHand, *_: object) -> None:
        for viewer, mine in seen.items():
            for record in game.log[fed[viewer] :]:
                mine.apply(record.seen_by(viewer).to_dict())
            fed[viewer] = len(game.log)
            view: Any = game.view(viewer)
            where = (rules, seed, viewer, len(game.log))
            assert state(mine) == view_state(view, mine.draw_game), where
            if not game.is_over:
                assert (mine.total_pot, mine.phase) == (view.total_pot, view.phase), where

    play_randomly(hand, rng, on_decision=compare)
    compare(hand)


def test_a_record_the_engine_does_not_know_is_refused() -> None:
    with pytest.raises(RecordError, match="unknown record"):
        record_from_dict({"type": "teleport"})
    with pytest.raises(RecordError, match="bad action record"):
        record_from_dict({"type": "action", "position": 0, "kind": "dance"})


def _dealt_in(rules: str, clock: Any = None) -> Any:
    """A terminal client of ann's, at a new table of ``rules`` (id 4) whose first hand has
    just been dealt to ann and bob."""
    from mazziere.room.structure import Stakes
    from mazziere.server import protocol as p
    from mazziere.tui.connect import RoomTable
    from mazziere.tui.remote import RemoteSession

    table = RoomTable(
        id="4", name="nuovo", rules=rules, seats=2, min_buy_in=100, max_buy_in=400,
        stakes=Stakes(small_blind=1, big_blind=2),
    )  # fmt: skip
    session = RemoteSession(table, buy_in=200, send=lambda message: None, lang="en", clock=clock)
    session.receive(p.Welcome(player="ann", tables=[]))
    # A table where nothing happened yet: its snapshot is at seq 1, its first event is 1.
    session.receive(p.Snapshot(table="4", seq=1, state={"seats": [], "hand": 0}))
    session.receive(
        p.HandStarted(table="4", seq=1, hand=1, rules=rules, names=["ann", "bob"],
                      seats=[1, 2], button=2, commitment="00")
    )  # fmt: skip
    return session


def test_the_first_event_after_a_snapshot_of_a_new_table_is_not_dropped() -> None:
    from mazziere.server import protocol as p

    session = _dealt_in("holdem")
    assert session.hand is not None and session.hand.number == 1
    session.receive(p.HandStarted(table="4", seq=1, hand=9, rules="holdem", names=["ann"],
                                  seats=[1], button=1, commitment="00"))  # fmt: skip
    assert session.hand.number == 1  # seen already: not applied twice


def test_a_tournament_client_follows_the_table_the_room_seated_it_at() -> None:
    from mazziere.room.structure import Stakes
    from mazziere.server import protocol as p
    from mazziere.tui.connect import RoomTable, RoomTournament
    from mazziere.tui.remote import RemoteSession

    table = RoomTable(
        id="4", name="Torneo", rules="italian-32", seats=5, min_buy_in=0, max_buy_in=0,
        stakes=Stakes(small_blind=5, big_blind=10),
    )  # fmt: skip
    event = RoomTournament(
        id="9", name="Torneo", rules="italian-32", buy_in=100, fee=10, max_players=8,
        registered=8, state="running",
    )  # fmt: skip
    sent: list[object] = []
    session = RemoteSession(table, buy_in=0, send=sent.append, lang="en", tournament=event)
    session.tournament_tables = ("4", "5")
    # The welcome lists the player's tables: a cash table of theirs and the tournament's 5.
    session.receive(p.Welcome(player="ann", tables=["2", "5"]))
    assert session.table_id == "5" and session.seated
    assert session.rejoin() == [p.Watch(table="5")]  # never a sit: the room seated them


def _at_a_tournament(*, seats: int, players: int) -> Any:
    """A terminal client in English at table 4 of a running Hold'em tournament (9)."""
    from mazziere.room.structure import Stakes
    from mazziere.tui.connect import RoomTable, RoomTournament
    from mazziere.tui.remote import RemoteSession

    table = RoomTable(
        id="4", name="Torneo", rules="holdem", seats=seats, min_buy_in=0, max_buy_in=0,
        stakes=Stakes(small_blind=5, big_blind=10),
    )  # fmt: skip
    event = RoomTournament(
        id="9", name="Torneo", rules="holdem", buy_in=100, fee=10, max_players=players,
        registered=players, state="running",
    )  # fmt: skip
    return RemoteSession(table, buy_in=0, send=lambda message: None, lang="en",
                         tournament=event)  # fmt: skip


def test_a_tournament_client_follows_a_move_to_the_new_tables_snapshot() -> None:
    from mazziere.server import protocol as p

    session = _at_a_tournament(seats=6, players=12)
    session.receive(p.Welcome(player="ann", tables=["4"]))
    session.receive(p.SeatsChanged(table="4", seq=40, seats=[{"seat": 1, "name": "ann"}]))
    session.receive(p.Moved(table="7", from_table="4", seat=3, reason="break"))
    assert session.table_id == "7" and session.seq == 0 and session.hand is None
    assert session.transcript[-1].plain == "Moved to table 7 (the table broke)"
    # The old table's events no longer count; the new one's snapshot (at its own seq) does.
    session.receive(p.SeatsChanged(table="4", seq=41, seats=[]))
    session.receive(
        p.Snapshot(table="7", seq=12, state={"seats": [{"seat": 3, "name": "ann"}], "hand": 0})
    )
    assert session.seq == 12 and session.my_seat() == {"seat": 3, "name": "ann"}
    assert session.rejoin() == [p.Resume(table="7", last_seq=12)]


def test_the_terminal_offers_what_stands_once_the_raise_window_has_shut() -> None:
    from mazziere.game.core import ActionKind, LegalActions
    from mazziere.room.clock import ManualClock
    from mazziere.server import protocol as p

    clock = ManualClock()
    session = _dealt_in("italian-32", clock)
    kinds = (ActionKind.FOLD, ActionKind.CALL, ActionKind.RAISE, ActionKind.ALL_IN)
    offer = LegalActions((0, frozenset(kinds), 5, 20, 200)).to_dict()
    after = LegalActions((0, frozenset(kinds[:2]), 5, 0, 0)).to_dict()
    session.receive(
        p.Turn(table="4", seq=2, hand=1, action_id=1, name="ann", position=0, legal=offer,
               deadline=30.0, time_bank=60.0, raise_seconds=10.0, legal_after_raise=after)
    )  # fmt: skip
    clock.advance(9.5)
    decision = session.my_decision()
    assert decision is not None and ActionKind.RAISE in decision.legal.kinds
    # The seconds left to raise are shown, as at a local table ("raise within 1 s").
    assert session.snapshot().raise_seconds_left == pytest.approx(0.5)
    clock.advance(0.5)
    decision = session.my_decision()
    assert decision is not None and decision.legal.kinds == frozenset(kinds[:2])
    assert session.snapshot().raise_seconds_left is None


def test_the_rooms_question_lasts_the_seconds_it_gives() -> None:
    """A question before the deal (here: pay back into a parol pot) is open for the seconds
    the room said, from its event or from a snapshot; then the room has taken it as a no,
    and the terminal no longer asks it (it asked on, and a late answer was refused)."""
    from mazziere.room.clock import ManualClock
    from mazziere.room.table import OfferKind
    from mazziere.server import protocol as p
    from mazziere.tui.remote import PlayError

    clock = ManualClock()
    session = _dealt_in("italian-classic", clock)
    session.receive(p.OfferMade(table="4", seq=2, name="ann", kind="rejoin", amount=10,
                                seconds=30.0))  # fmt: skip
    clock.advance(29.5)
    offer = session.my_offer()
    assert offer is not None and (offer.kind, offer.amount) == (OfferKind.REJOIN, 10)
    assert session.offer_seconds() == pytest.approx(0.5)
    clock.advance(0.5)
    assert session.my_offer() is None and session.offer_seconds() == 0.0
    with pytest.raises(PlayError, match="Nothing to answer"):
        session.answer(True)
    # Reconnected: the snapshot lists the question with its time left.
    offers = [{"name": "ann", "kind": "rejoin", "amount": 10, "deadline": 99.0, "seconds": 4.0}]
    session.receive(p.Snapshot(table="4", seq=3, state={"seats": [], "hand": 1, "offers": offers}))
    assert session.offer_seconds() == pytest.approx(4.0)
    clock.advance(4.0)
    assert session.my_offer() is None


def test_a_sit_and_go_break_is_told_once_in_the_log() -> None:
    from mazziere.server import protocol as p

    session = _at_a_tournament(seats=2, players=2)
    session.receive(p.Welcome(player="ann", tables=["4"]))
    stakes = {"small_blind": 10, "big_blind": 20, "ante": 0}
    on_break = p.LevelInfo(number=2, stakes=stakes, next_stakes=None, on_break=True,
                           seconds_left=300.0, hands_left=None)  # fmt: skip
    session.receive(p.LevelChanged(table="4", seq=30, level=on_break))
    session.receive(p.LevelChanged(table="4", seq=31, level=on_break))  # the same break
    told = [line.plain for line in session.transcript if line.plain.startswith("Break")]
    assert told == ["Break: play resumes in 5 minutes, level 2 (blinds 10/20)"]
    assert session.level == on_break


def test_a_player_whose_connection_is_gone_is_said_disconnected_at_their_seat() -> None:
    """The room's ``presence``: a seated player whose connections all closed is said
    *disconnected* at their seat, between hands and during one, until they are back; the
    snapshot's seats say it too."""
    from mazziere.server import protocol as p

    def gone(session: Any, name: str) -> bool:
        """Whether the seat says so (after what else it says: "all-in · disconnected")."""
        note = next(line.note for line in session.snapshot().seats if line.name == name)
        return note.endswith("disconnected")

    session = _dealt_in("holdem")
    seats = [
        {"name": "ann", "seat": 1, "stack": 200, "status": "playing", "connected": True},
        {"name": "bob", "seat": 2, "stack": 200, "status": "playing", "connected": False},
    ]
    session.receive(p.Snapshot(table="4", seq=1, state={"seats": seats, "hand": 1}))
    assert gone(session, "bob")
    assert not gone(session, "ann")
    session.receive(p.Presence(table="4", name="bob", connected=True))
    assert not gone(session, "bob")
    session.receive(p.Presence(table="4", name="bob", connected=False))
    assert gone(session, "bob")
    session.receive(p.Presence(table="5", name="bob", connected=True))  # another table's
    assert gone(session, "bob")
    # He leaves the table, comes back and sits again: he sat with a connection open.
    session.receive(p.SeatsChanged(table="4", seq=2, seats=seats[:1]))
    session.receive(p.SeatsChanged(table="4", seq=3, seats=seats))
    assert not gone(session, "bob")
