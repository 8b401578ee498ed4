"""Tournament registration: sit & go starts when full; scheduled start or cancel and refund."""

from __future__ import annotations

import pytest

from mazziere.room.clock import ManualClock
from mazziere.room.errors import (
    NotRegisteredError,
    RegistrationError,
    RoomError,
    TournamentStateError,
)
from mazziere.room.ledger import Account, EntryKind
from mazziere.room.registration import Registration, TournamentSettings, TournamentState
from mazziere.room.structure import Schedule, Stakes


def _settings(**overrides: object) -> TournamentSettings:
    values: dict[str, object] = {
        "rules": "holdem",
        "buy_in": 1_000,
        "fee": 100,
        "starting_stack": 1_500,
        "seats": 9,
        "schedule": Schedule.standard("holdem", starting_stack=1_500),
        "min_players": 4,
        "starts_at": 3_600.0,
    }
    values.update(overrides)
    return TournamentSettings(**values)  # type: ignore[arg-type]


def test_sit_and_go_starts_when_full() -> None:
    started: list[bool] = []
    reg = Registration(
        _settings(starts_at=None, max_players=6, seats=6),
        ManualClock(),
        on_start=lambda: started.append(True),
    )
    for i in range(5):
        reg.register(f"p{i}")
        assert reg.state is TournamentState.REGISTERING
    reg.register("p5")
    assert reg.state is TournamentState.RUNNING and started == [True]
    assert reg.prize_pool == 6_000
    assert reg.money.balance(Account.house("fees")) == 600
    with pytest.raises(RegistrationError, match="closed"):
        reg.register("late")
    with pytest.raises(RegistrationError, match="only before the start"):
        reg.unregister("p0")
    reg.money.check()


def test_scheduled_tournament_starts_at_its_time_with_the_minimum() -> None:
    clock = ManualClock()
    reg = Registration(_settings(), clock)
    for i in range(4):
        reg.register(f"p{i}")
    clock.set(3_599)
    assert not reg.start_due() and reg.state is TournamentState.REGISTERING
    clock.set(3_600)
    assert reg.start_due() and reg.state is TournamentState.RUNNING
    assert reg.started_at == 3_600


def test_scheduled_tournament_without_the_minimum_is_cancelled_and_refunded() -> None:
    clock = ManualClock()
    reg = Registration(_settings(), clock)
    for i in range(3):
        reg.register(f"p{i}")
    reg.unregister("p1")
    clock.set(4_000)
    assert not reg.start_due()
    assert reg.state is TournamentState.CANCELLED
    assert reg.cancel_reason == "2 registered, 4 needed to start"
    assert reg.prize_pool == 0 and reg.money.balance(Account.house("fees")) == 0
    for i in range(3):
        assert reg.money.balance(Account.player(f"p{i}")) == 0
    assert reg.money.flows(EntryKind.REFUND) == 3 * 1_100
    assert reg.money.total() == 0
    with pytest.raises(RegistrationError, match="cancelled"):
        reg.register("p9")


def test_late_registration_until_a_level() -> None:
    clock = ManualClock()
    late: list[str] = []
    reg = Registration(_settings(late_registration_level=3), clock, on_late=late.append)
    for i in range(4):
        reg.register(f"p{i}")
    clock.set(3_600)
    reg.start_due()
    reg.current_level = 3
    reg.register("late1")
    assert late == ["late1"] and reg.prize_pool == 5_000
    reg.current_level = 4
    assert not reg.late_registration_open
    with pytest.raises(RegistrationError, match="closed"):
        reg.register("late2")


def test_max_players_and_bad_names() -> None:
    reg = Registration(_settings(max_players=4), ManualClock())
    for i in range(4):
        reg.register(f"p{i}")
    with pytest.raises(RegistrationError, match="full"):
        reg.register("p4")
    with pytest.raises(RegistrationError, match="needs a name"):
        reg.register("  ")
    with pytest.raises(NotRegisteredError):
        reg.unregister("nobody")
    assert len(reg.money) == 8  # nothing recorded for refused registrations


def test_start_now_needs_the_minimum() -> None:
    reg = Registration(_settings(), ManualClock())
    reg.register("a")
    with pytest.raises(TournamentStateError, match="1 registered"):
        reg.start_now()


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"buy_in": -1}, "buy_in"),
        ({"seats": 10}, "2 to 9"),
        ({"rules": "italian-32", "seats": 6}, "2 to 5"),
        ({"min_players": 1}, "at least 2"),
        ({"max_players": 3}, "below min_players"),
        ({"starts_at": None, "max_players": 6, "late_registration_level": 2}, "no late"),
        ({"starting_stack": 0}, "starting_stack"),
        ({"rules": "italian-classic", "seats": 6}, "invito"),
        (
            {"schedule": Schedule.standard("holdem", starting_stack=1500), "max_players": 5000},
            "at most 1000",
        ),
    ],
)
def test_bad_settings(overrides: dict[str, object], message: str) -> None:
    with pytest.raises(RoomError, match=message):
        _settings(**overrides)


def test_schedule_must_fit_the_rules() -> None:
    schedule = Schedule.standard("italian-classic", starting_stack=1_000)
    settings = _settings(rules="italian-classic", seats=6, schedule=schedule)
    assert settings.schedule.levels[0].stakes == Stakes(ante=20)
